/**
 * Writes test/query/ball-box-oracle.json: sphere–box placements sampled (fixed seed) from
 * test/oracles/ball-box-cases.ts with their volumes from the 60-digit oracle
 * scripts/ball-box-oracle.py (needs python3 with mpmath). Run: npx tsx scripts/ball-box-fixture.ts
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import fc from "fast-check";
import { ballBoxCase } from "../test/oracles/ball-box-cases.js";

const cases = fc.sample(ballBoxCase, { seed: 17, numRuns: 400 });
// The repro of issue 17 first.
cases.unshift({
  kind: "issue-17",
  r: 0.30944017084868575,
  h: { x: 1.1172628332367798, y: 0.3777685347607271, z: 0.8771402499805685 },
  sphere: { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
  box: {
    translation: { x: 0.5092822814677161, y: 0.24413836173462491, z: 0.4085070935545614 },
    rotation: {
      x: -0.49958733545974143,
      y: -0.5558726201829147,
      z: 0.03671318092991827,
      w: -0.6633779214936415,
    },
  },
});
const input = cases
  .map((c) =>
    JSON.stringify({
      r: c.r,
      c: [c.sphere.translation.x, c.sphere.translation.y, c.sphere.translation.z],
      b: [c.box.translation.x, c.box.translation.y, c.box.translation.z],
      h: [c.h.x, c.h.y, c.h.z],
      q: [c.box.rotation.x, c.box.rotation.y, c.box.rotation.z, c.box.rotation.w],
    }),
  )
  .join("\n");
const out = execFileSync("python3", ["scripts/ball-box-oracle.py"], { input, encoding: "utf8" })
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as { volume: string; error: string });
const rows = cases.map((c, i) => ({ ...c, volume: out[i].volume, oracleError: out[i].error }));
writeFileSync("test/query/ball-box-oracle.json", `${JSON.stringify(rows, null, 1)}\n`);
console.log(`wrote ${rows.length} cases`);
