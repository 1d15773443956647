/**
 * Issue 16, the repository fuzzer's seed 78 (10^6 queries on the session-33 merge, 4 wrong of
 * them, one pair): two aabbs touching along a face, a unit box and one of 10^3 — B's witness
 * 2.1e-2 off B in `distance`, `contact` and `manifold`. The box–box contact moves its SAT
 * witnesses onto the overlap through the clipped manifold's deepest points
 * (`faceWitnessCuboidCuboid`, src/narrowphase/cuboid-cuboid.ts); the manifold had just learnt to
 * keep the contact's own pair where the clip leaves it out (`keepContactIf`), and for that
 * internal manifold the given contact's pair is the SAT's support point, which is what is being
 * moved: it became the deepest point, and the witness. The witness-reading manifolds (the box
 * pair's, and the feature-gap and facing witnesses' in src/narrowphase/witness-features.ts) now
 * build without it (`keepContactOffIo`). Replayed through the fuzzer's checks (the facing bar
 * on), both orders.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { loadCases, replayCases } from "./recorded-cases.js";

const CASES = loadCases("./seed-78.cases.json");

describe("issue 16, seed 78: touching aabbs, a unit box on a face of 10^3", () => {
  replayCases(CASES, 4, { facing: true });

  it("the witnesses lie on both aabbs (hand-checked: the contact face is x = 0.11158348411811043)", () => {
    const a = {
      type: "aabb",
      min: [-0.0972206869770353, -0.050371202744163276, -0.04391628698603926],
      max: [0.11158348411811043, 0.03500278583876014, 0.039895953695939165],
    };
    const b = {
      type: "aabb",
      min: [0.11158348411811043, -1031.0208889844446, -293.59218385672],
      max: [354.72950588170704, 425.4190784362879, -0.04391628698601835],
    };
    const inBox = (p: number[], box: { min: number[]; max: number[] }) =>
      p.every((x, i) => x >= box.min[i] - 1e-12 && x <= box.max[i] + 1e-12);
    const c = answerQuery({ op: "contact", a, b }) as {
      distance: number;
      pointA: number[];
      pointB: number[];
    };
    // They share the face x = 0.1115…, overlapping in z by 2.1e-14 (B's max z above A's min z):
    // touching, at a depth of at most that rounding.
    expect(Math.abs(c.distance)).toBeLessThan(1e-12);
    expect(inBox(c.pointA, a) && inBox(c.pointA, b)).toBe(true);
    expect(inBox(c.pointB, a) && inBox(c.pointB, b)).toBe(true);
    const m = answerQuery({ op: "manifold", a, b }) as {
      points: { pointA: number[]; pointB: number[] }[];
    };
    for (const p of m.points) {
      expect(inBox(p.pointA, a)).toBe(true);
      expect(inBox(p.pointB, b)).toBe(true);
    }
  });
});
