/**
 * Regression inputs of issue 16 (fuzzer seed 62, 10^5 queries, the facing bar a default check):
 * an aabb of 110 whose top x-edge crosses a triangle's edge 1.2e-8 deep, and a hull of 0.8
 * touching the corner of a triangle of 1.4e4 at 1e3 (1.3e-9 deep). `contact`'s witnesses were
 * apart sideways across the normal by 2.3e-8 and 2.2e-9 (bars 1.9e-12 and 1.7e-10):
 * src/narrowphase/triangle-polytope.ts took the closest features of B moved clear along the SAT's
 * normal (the aabb's corner against the triangle's edge), and `facingWitnesses`' re-pairings both
 * missed. Fixed there (`supportingWitnesses`): a supporting corner and the point −depth·n from it
 * on the other shape, or the closest points of two supporting edges (the common perpendicular's
 * feet, along the normal). Checked by the fuzzer's independent oracle and bars (the facing one
 * included). The property builds the class: an aabb's, a box's or a hull's edge crossing a
 * triangle's edge at depths from a touch to 1e-3 of the box, the crossing angle and the edge's
 * normal drawn, rotated, sizes 1e-3..1e4, offsets to 1e6, both orders.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { offsetArb, quatArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import { quatMatrix, type V } from "./oracle-shapes.js";
import { expectPassesBothOrders, loadCases, replayCases } from "./recorded-cases.js";

describe("issue 16, seed 62: a triangle's edge or corner against a polytope, witnesses facing", () => {
  replayCases(loadCases("./triangle-facing.cases.json"), 2, { facing: true });
});

const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const add = (a: V, b: V, s = 1): V => [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];
const apply = (m: number[][], v: V): V => [0, 1, 2].map((i) => dot(m[i] as V, v)) as V;

for (const type of ["aabb", "box", "convex"]) {
  describe(`property: a triangle's edge crossing an edge of a ${type}, contact facing`, () => {
    it("shallow, rotated, sizes 1e-3..1e4, offsets to 1e6, both orders", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: -3, max: 4 }),
          fc.tuple(
            fc.double({ min: 0.2, max: 1, noNaN: true }),
            fc.double({ min: 0.2, max: 1, noNaN: true }),
            fc.double({ min: 0.2, max: 1, noNaN: true }),
          ),
          fc.double({ min: 0.1, max: 1.45, noNaN: true }),
          fc.double({ min: 0.2, max: 1.4, noNaN: true }),
          // The crossing's distance from the box's corner (a fraction of hz) and from the
          // triangle's corner (a fraction of its edge): inside, or by as little as the depth.
          fc.oneof(
            fc.double({ min: 0.1, max: 1.8, noNaN: true }),
            fc.constantFrom(1e-12, 1e-9, 1e-6, 1e-3),
          ),
          fc.double({ min: 0.5, max: 10, noNaN: true }),
          fc.oneof(
            fc.double({ min: 0.2, max: 0.8, noNaN: true }),
            fc.constantFrom(1e-12, 1e-9, 1e-6, 1e-3),
          ),
          fc.double({ min: -0.5, max: 0.5, noNaN: true }),
          quatArb,
          fc.constantFrom(0, 1e-12, 1e-9, 1e-6, 1e-3),
          offsetArb,
          (e, dims, alpha, beta, s, len, u, w, qb, depth, [ou, om]) => {
            const size = 10 ** e;
            const h: V = [size * dims[0], size * dims[1], size * dims[2]];
            // The box's edge along z at (hx, hy), its outward normal m between +x and +y.
            const m: V = [Math.cos(alpha), Math.sin(alpha), 0];
            const k: V = [Math.sin(alpha), -Math.cos(alpha), 0];
            // The triangle's edge normal to m, crossing the box's at angle β from it.
            const g: V = [Math.sin(beta) * k[0], Math.sin(beta) * k[1], Math.cos(beta)];
            const cross = add([h[0], h[1], h[2] - s * h[2]], m, -depth * size);
            const l = len * size;
            const ta = add(cross, g, -u * l);
            const tb = add(cross, g, (1 - u) * l);
            const tc = add(add(cross, m, l), g, w * l);
            const r = type === "aabb" ? quatMatrix([0, 0, 0, 1]) : quatMatrix(qb);
            const tri = { type: "triangle", a: apply(r, ta), b: apply(r, tb), c: apply(r, tc) };
            let b: Record<string, unknown>;
            if (type === "aabb") {
              b = { type, min: h.map((x) => -x), max: h };
            } else if (type === "box") {
              b = { type, center: [0, 0, 0], halfExtents: h, rotation: qb };
            } else {
              const points: V[] = [];
              for (const sx of [-1, 1])
                for (const sy of [-1, 1])
                  for (const sz of [-1, 1])
                    points.push(apply(r, [sx * h[0], sy * h[1], sz * h[2]]));
              b = { type, points };
            }
            const offset = exactOffset(ou, Math.min(1e6, om * size * 1e3));
            expectPassesBothOrders(tri, b, offset, `${type}-triangle`, {
              ops: ["contact"],
              facing: true,
            });
          },
        ),
        { numRuns: 300, seed: 62 },
      );
    });
  });
}
