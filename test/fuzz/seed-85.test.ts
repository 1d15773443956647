/**
 * Fuzz seed 85 (10^6 queries on 4db5ddf: 4 wrong), its aabb–box line: a flat aabb of 3e-3 (zero
 * thickness along z) at 2e4 whose corner lies 1.4e-12 from the edge of a turned box of 2e-3.
 * `contact` within a prediction took the near-touching gap's exact closest pair (alternating
 * clamps, `polishGapPair`) and its direction pB − pA as the normal; no SAT axis attains a
 * corner–edge gap, so that direction stayed, and with the points' rounding (~1e-19 in A's frame)
 * over a gap of 1.4e-12 it leaned 1e-7 rad along the edge: the separation along it was 5.6e-11
 * short of the gap (bar 2.0e-12). Now a corner against an edge takes pB − pA with its component
 * along the edge removed (`cornerEdgeNormal`, src/narrowphase/cuboid-cuboid.ts).
 *
 * Oracles: the fuzzer's checks (test/fuzz/fuzz.ts: certified gap bounds, the separation along
 * the normal from the shapes' own corners), and for the property a construction whose distance
 * is known: A's corner placed at gap g along a direction of the edge's normal cone of B from a
 * point inside B's edge, A extending away from B on that side, so the gap is g.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import { rotateVec } from "../support/quat.js";
import { offsetArb } from "./arbitraries.js";
import { replayScenario } from "./fuzz.js";
import { offsetScenario } from "./generate.js";
import { loadCaseLines, replayCases } from "./recorded-cases.js";

type V = [number, number, number];
type J = Record<string, unknown>;

const CASES = loadCaseLines("./seed-85.cases.jsonl");

/** The separation of aabb `a` and box `b` along unit `n` (B's least support less A's greatest), from their corners. */
function separationAlong(a: J, b: J, n: V): number {
  const lo = a.min as V;
  const hi = a.max as V;
  let maxA = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < 8; i++) {
    const p = [i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]];
    maxA = Math.max(maxA, p[0] * n[0] + p[1] * n[1] + p[2] * n[2]);
  }
  const c = b.center as V;
  const h = b.halfExtents as V;
  const q = b.rotation as number[];
  let minB = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 8; i++) {
    const r = rotateVec(q, [i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]]);
    minB = Math.min(minB, (c[0] + r[0]) * n[0] + (c[1] + r[1]) * n[1] + (c[2] + r[2]) * n[2]);
  }
  return minB - maxA;
}

describe("fuzz seed 85: a flat aabb's corner 1.4e-12 from a turned box's edge", () => {
  replayCases(CASES, 1);

  it("contact: the gap 1.4258e-12 and a normal along which the boxes are apart by it", () => {
    const line = CASES[0].scenario;
    const a = line.worldA as J;
    const b = line.worldB as J;
    for (const [x, y, flip] of [
      [a, b, 1],
      [b, a, -1],
    ] as const) {
      const c = answerQuery({
        op: "contact",
        a: x,
        b: y,
        prediction: line.prediction,
      }) as ContactJson;
      expect(c.distance).toBeGreaterThan(1.4e-12);
      expect(c.distance).toBeLessThan(1.43e-12);
      const n = c.normal.map((v) => v * flip) as V;
      // The separation along the answer's normal, from the shapes' corners at 2e4 (their rounding
      // there is 3.6e-12 per coordinate: the shapes' local frame, moved back by the offset).
      const la = line.localA as J;
      const lb = line.localB as J;
      expect(Math.abs(separationAlong(la, lb, n) - c.distance)).toBeLessThan(2e-12);
    }
  });
});

/** A unit quaternion from four normal-ish numbers (a random rotation). */
const quatArb = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 0.1)
  .map(([x, y, z, w]) => {
    const l = Math.hypot(x, y, z, w);
    return [x / l, y / l, z / l, w / l];
  });

describe("the class: an aabb's corner near-touching a turned box's edge, within a prediction", () => {
  it("contact's normal achieves its gap (the fuzzer's checks, both orders)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        quatArb,
        fc.tuple(
          fc.double({ min: 0.2, max: 1, noNaN: true }),
          fc.double({ min: 0.2, max: 1, noNaN: true }),
          fc.double({ min: 0.2, max: 1, noNaN: true }),
        ),
        fc.integer({ min: 0, max: 2 }),
        fc.tuple(fc.boolean(), fc.boolean()),
        fc.double({ min: -0.9, max: 0.9, noNaN: true }),
        fc.double({ min: 0.05, max: Math.PI / 2 - 0.05, noNaN: true }),
        fc.integer({ min: 20, max: 46 }),
        fc.tuple(
          fc.double({ min: 0.2, max: 1.5, noNaN: true }),
          fc.double({ min: 0.2, max: 1.5, noNaN: true }),
          fc.double({ min: 0, max: 1.5, noNaN: true }),
        ),
        offsetArb,
        (k, q, hr, axis, [sj, sk], t, theta, m, lens, [dir, mag]) => {
          const s = 2 ** k;
          const h: V = [hr[0] * s, hr[1] * s, hr[2] * s];
          const j = (axis + 1) % 3;
          const kk = (axis + 2) % 3;
          const eLocal: V = [0, 0, 0];
          eLocal[axis] = t * h[axis];
          eLocal[j] = sj ? h[j] : -h[j];
          eLocal[kk] = sk ? h[kk] : -h[kk];
          const nLocal: V = [0, 0, 0];
          nLocal[j] = (sj ? 1 : -1) * Math.cos(theta);
          nLocal[kk] = (sk ? 1 : -1) * Math.sin(theta);
          const e = rotateVec(q, eLocal);
          const n = rotateVec(q, nLocal);
          const g = s * 2 ** -m;
          const corner: V = [e[0] + g * n[0], e[1] + g * n[1], e[2] + g * n[2]];
          const min: V = [0, 0, 0];
          const max: V = [0, 0, 0];
          for (let i = 0; i < 3; i++) {
            // The flat case (length 0) as in the line: a zero-thickness aabb.
            const len = lens[i] * s;
            if (n[i] >= 0) {
              min[i] = corner[i];
              max[i] = corner[i] + len;
            } else {
              max[i] = corner[i];
              min[i] = corner[i] - len;
            }
          }
          const a = { type: "aabb", min, max };
          const b = { type: "box", center: [0, 0, 0], halfExtents: h, rotation: q };
          const offset = dir.map((x) => x * mag);
          for (const sc of [offsetScenario(a, b, offset), offsetScenario(b, a, offset)]) {
            const failures = replayScenario({ ...sc, prediction: 4 * s }, "aabb-box", {
              ops: ["contact"],
            });
            expect(failures.map((f) => `${f.op}: ${f.reason} ${JSON.stringify(f.line)}`)).toEqual(
              [],
            );
          }
        },
      ),
      { numRuns: 600, seed: 85 },
    );
  });
});
