/**
 * Same-process before/after ratio of the pair queries touched by the witness branch (issue 16):
 * `npx tsx bench/witness-ab.ts [--before /work/main/src/index.ts] [--rounds 3]` times the same
 * queries on the same configurations with the tree under test (this checkout's src/) and a
 * reference tree, in alternating child processes (one library each), in CPU time
 * (`process.cpuUsage`), and prints after/before per query (medians over the processes). Ratios
 * only: absolute times depend on the machine's load.
 */
import { Command } from "commander";

const o = new Command()
  .option("--before <path>", "reference tree's src/index.ts", "/work/main/src/index.ts")
  .option("--rounds <n>", "alternating processes per side", "3")
  .option("--only <side>", "time one side in this process and print JSON (internal)")
  .parse()
  .opts();
type Lib = typeof import("../src/index.js");
// Each process loads only the library it times (two copies in one process time unequally).
const after = (o.only === "before" ? null : await import("../src/index.js")) as Lib;
const before = (o.only === "after" ? null : await import(o.before)) as Lib;

const CONFIGS = 256;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The queries, each a closure over its library's shapes and the shared poses. */
function queries(L: Lib): { name: string; run: () => number }[] {
  const r = rng(16);
  const pose = (spread: number) => ({
    translation: { x: (r() - 0.5) * spread, y: (r() - 0.5) * spread, z: (r() - 0.5) * spread },
    rotation: (() => {
      const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
      const l = Math.hypot(...q);
      return { x: q[0] / l, y: q[1] / l, z: q[2] / l, w: q[3] / l };
    })(),
  });
  const posesA = Array.from({ length: CONFIGS }, () => pose(0));
  const near = Array.from({ length: CONFIGS }, () => pose(2.5));
  const far = Array.from({ length: CONFIGS }, () => pose(8));
  const pts: { x: number; y: number; z: number }[] = [];
  for (let i = 0; i < 24; i++) pts.push({ x: r() - 0.5, y: r() - 0.5, z: r() - 0.5 });
  const hull = L.makeConvexPolyhedron(pts);
  const box = L.makeCuboid({ x: 0.6, y: 0.4, z: 0.5 });
  const cyl = L.makeCylinder(0.6, 0.5);
  const cone = L.makeCone(0.6, 0.5);
  const cap = L.makeCapsule({ x: -0.5, y: 0, z: 0 }, { x: 0.5, y: 0.1, z: 0 }, 0.3);
  const ground = L.makeHalfSpace({ x: 0, y: 1, z: 0 }, 0.2);
  const c = L.makeContact();
  const d = L.makeDistanceResult();
  const m = L.makeContactManifold();
  const loop = (f: (i: number) => unknown) => () => {
    let hits = 0;
    for (let i = 0; i < CONFIGS; i++) if (f(i)) hits++;
    return hits;
  };
  const ball = L.makeSphere(0.5);
  const cap2 = L.makeCapsule({ x: 0, y: -0.4, z: 0 }, { x: 0, y: 0.4, z: 0 }, 0.25);
  return [
    {
      name: "sphere–box contact",
      run: loop((i) => L.contact(ball, posesA[i], box, near[i], 0, c)),
    },
    { name: "box–box contact", run: loop((i) => L.contact(box, posesA[i], box, near[i], 0, c)) },
    {
      name: "capsule–capsule contact",
      run: loop((i) => L.contact(cap, posesA[i], cap2, near[i], 0, c)),
    },
    {
      name: "box–hull contact (EPA)",
      run: loop((i) => L.contact(box, posesA[i], hull, near[i], 0, c)),
    },
    {
      name: "hull–hull distance",
      run: loop((i) => L.distance(hull, posesA[i], hull, far[i], d).distance > 0),
    },
    {
      name: "hull–hull contact (EPA)",
      run: loop((i) => L.contact(hull, posesA[i], hull, near[i], 0, c)),
    },
    { name: "box–box manifold", run: loop((i) => L.manifold(box, posesA[i], box, near[i], 0, m)) },
    {
      name: "cylinder–box contact",
      run: loop((i) => L.contact(cyl, posesA[i], box, near[i], 0, c)),
    },
    {
      name: "cone–hull contact",
      run: loop((i) => L.contact(cone, posesA[i], hull, near[i], 0, c)),
    },
    {
      name: "cylinder–cone contact",
      run: loop((i) => L.contact(cyl, posesA[i], cone, near[i], 0, c)),
    },
    {
      name: "cylinder–box distance",
      run: loop((i) => L.distance(cyl, posesA[i], box, far[i], d).distance > 0),
    },
    {
      name: "capsule–half-space manifold",
      run: loop((i) => L.manifold(cap, near[i], ground, posesA[0], 0, m)),
    },
    {
      name: "capsule–box manifold",
      run: loop((i) => L.manifold(cap, posesA[i], box, near[i], 0, m)),
    },
  ];
}

const qa = after ? queries(after) : [];
const qb = before ? queries(before) : [];
const cpu = (f: () => number, reps: number) => {
  const t = process.cpuUsage();
  for (let k = 0; k < reps; k++) f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / reps;
};
// One library per process when --only is given (a second copy of the library in the same
// process was measured slower by up to 4× in an A/A run: the order of loading matters), so the
// ratio is taken over alternating processes by the driver below.
if (o.only) {
  const qs = o.only === "after" ? qa : qb;
  const out: Record<string, number> = {};
  for (const q of qs) {
    for (let k = 0; k < 40; k++) q.run();
    const per = cpu(q.run, 5);
    const reps = Math.max(3, Math.round(100_000 / Math.max(per, 1)));
    out[q.name] = (cpu(q.run, reps) / CONFIGS) * 1000;
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}
const { execFileSync } = await import("node:child_process");
const { loadavg } = await import("node:os");
console.log(
  `load average at start ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
const runs: Record<string, number[]> = {};
for (let r = 0; r < Number(o.rounds); r++) {
  for (const side of ["before", "after"]) {
    const res = JSON.parse(
      execFileSync(
        process.execPath,
        [...process.execArgv, process.argv[1], "--only", side, "--before", o.before],
        { encoding: "utf8" },
      )
        .trim()
        .split("\n")
        .pop() as string,
    ) as Record<string, number>;
    for (const [k, v] of Object.entries(res)) {
      const key = `${side}|${k}`;
      if (!runs[key]) runs[key] = [];
      runs[key].push(v);
    }
  }
}
const med = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1];
for (const q of queries((await import("../src/index.js")) as Lib)) {
  const a = med(runs[`after|${q.name}`]);
  const b = med(runs[`before|${q.name}`]);
  console.log(
    `${q.name.padEnd(30)} after/before ${(a / b).toFixed(3)}; CPU ns/query ${a.toFixed(0)} vs ${b.toFixed(0)} (medians of ${o.rounds} processes each)`,
  );
}
console.log(
  `load average at end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
