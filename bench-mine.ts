import { runPairBench } from "./bench/pairs.js";
import { runWorldBench } from "./bench/world.js";
const rows = await runPairBench({ time: 300 });
for (const r of rows) if (/sphere|box/i.test(r.name)) console.log(r.name, JSON.stringify(Object.fromEntries(Object.entries(r.engines).map(([k, v]) => [k, v.nsPerCall.toFixed(1)]))));
const w = await runWorldBench({ sizes: [10000], frames: 30, json: false, cannon: false } as never);
console.log(JSON.stringify(w).slice(0, 1500));
