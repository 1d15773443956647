/**
 * The heightfield's `tree` capability (src/shapes/heightfield.ts: the min/max tree refined down to
 * single cells), which the composite path's best-first distance walks: its structure against a
 * full enumeration (every node's box holds its children's and its parts' corners, the leaves hold
 * every part that is not a hole exactly once), and `distance` of convex shapes against brute
 * force over every cell triangle (GJK on each triangle, an independent route), holes included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeMeshBvhHits } from "../../src/geometry/mesh-bvh.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeDistanceResult } from "../../src/narrowphase/contact.js";
import { distanceConvexConvex } from "../../src/narrowphase/convex-convex.js";
import { distance } from "../../src/query/distance.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import type { CompositeTree } from "../../src/shapes/composite.js";
import { compositeView, makeCompositePart } from "../../src/shapes/composite.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Heightfield } from "../../src/shapes/heightfield.js";
import {
  getHeightfieldTriangle,
  heightfieldCellCount,
  isHeightfieldHole,
  makeHeightfield,
} from "../../src/shapes/heightfield.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { unitQuat } from "../oracles/arbitraries.js";

function field(seed: number, rows: number, cols: number, holeRate: number): Heightfield {
  const rng = makeRandom(seed);
  const heights = new Float64Array(rows * cols);
  for (let i = 0; i < heights.length; i++) heights[i] = (rng() - 0.5) * 2;
  const cells = (rows - 1) * (cols - 1);
  const holes: boolean[] = [];
  for (let i = 0; i < cells; i++) holes.push(rng() < holeRate);
  holes[Math.floor(rng() * cells)] = false;
  return makeHeightfield({
    rows,
    cols,
    heights,
    scale: { x: 0.3 + rng(), y: 0.5 + rng(), z: 0.3 + rng() },
    holes: holeRate > 0 ? holes : undefined,
  });
}

const tree = compositeView(ShapeType.Heightfield)?.tree as CompositeTree;

describe("the heightfield's tree", () => {
  it("bounds its children and parts and holds every part that is not a hole once", () => {
    const a = vec3.create();
    const b = vec3.create();
    const c = vec3.create();
    for (const [seed, rows, cols, holes] of [
      [1, 2, 2, 0],
      [2, 9, 9, 0],
      [3, 10, 23, 0.3],
      [4, 40, 17, 0.1],
      [5, 70, 70, 0.5],
    ]) {
      const hf = field(seed, rows, cols, holes);
      const seen = new Uint8Array(2 * heightfieldCellCount(hf));
      const stack = [tree.root(hf)];
      expect(stack[0]).toBeGreaterThanOrEqual(0);
      const box = new Float64Array(6);
      const kidBox = new Float64Array(6);
      const kids = new Int32Array(4);
      const hits = makeMeshBvhHits(4);
      while (stack.length > 0) {
        const node = stack.pop() as number;
        tree.box(box, hf, node);
        if (tree.isLeaf(hf, node)) {
          const n = tree.leafParts(hits, hf, node);
          for (let h = 0; h < n; h++) {
            const p = hits.ids[h];
            seen[p]++;
            getHeightfieldTriangle(hf, p, a, b, c);
            for (const v of [a, b, c]) {
              expect(v.x).toBeGreaterThanOrEqual(box[0]);
              expect(v.y).toBeGreaterThanOrEqual(box[1]);
              expect(v.z).toBeGreaterThanOrEqual(box[2]);
              expect(v.x).toBeLessThanOrEqual(box[3]);
              expect(v.y).toBeLessThanOrEqual(box[4]);
              expect(v.z).toBeLessThanOrEqual(box[5]);
            }
          }
          continue;
        }
        const k = tree.children(kids, hf, node);
        for (let q = 0; q < k; q++) {
          tree.box(kidBox, hf, kids[q]);
          if (!(kidBox[1] <= kidBox[4])) continue; // holes only: no parts below
          for (let e = 0; e < 3; e++) {
            expect(kidBox[e]).toBeGreaterThanOrEqual(box[e]);
            expect(kidBox[e + 3]).toBeLessThanOrEqual(box[e + 3]);
          }
          stack.push(kids[q]);
        }
      }
      for (let p = 0; p < seen.length; p++)
        expect(seen[p]).toBe(isHeightfieldHole(hf, p >> 1) ? 0 : 1);
    }
  });

  it("gives the distance of brute force over every cell triangle", () => {
    const shapes: ConvexShape[] = [
      makeSphere(0.4),
      makeCuboid({ x: 0.5, y: 0.2, z: 0.3 }),
      makeCapsule({ x: 0, y: -0.3, z: 0 }, { x: 0, y: 0.3, z: 0 }, 0.2),
    ];
    const part = makeCompositePart();
    const d = makeDistanceResult();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 0, max: 2 }),
        unitQuat,
        fc.constantFrom(0, 0.2, 0.6),
        (seed, si, q, holes) => {
          const rng = makeRandom(seed);
          const hf = field(seed, 3 + Math.floor(rng() * 20), 3 + Math.floor(rng() * 20), holes);
          const s = shapes[si];
          const ext = { x: (hf.cols - 1) * hf.scale.x, z: (hf.rows - 1) * hf.scale.z };
          // Over the field, beside it, or far above it.
          const far = rng() < 0.2 ? 20 : 2;
          const pose = iso.create(
            vec3.create(
              (rng() * 1.6 - 0.3) * ext.x,
              (rng() - 0.3) * far * 2,
              (rng() * 1.6 - 0.3) * ext.z,
            ),
            q,
          );
          const got = distance(s, pose, hf, iso.identity());
          // Brute force: every cell triangle against the shape (in the field's frame).
          let want = Infinity;
          const view = compositeView(ShapeType.Heightfield);
          const n = view?.partCount(hf) ?? 0;
          for (let p = 0; p < n; p++) {
            if (isHeightfieldHole(hf, p >> 1)) continue;
            view?.part(part, hf, p);
            const t = part.shape as ReturnType<typeof makeTriangle>;
            const tri = makeTriangle(t.a, t.b, t.c);
            want = Math.min(want, distanceConvexConvex(d, tri, s, pose).distance);
          }
          const scale = 1 + Math.abs(want);
          expect(Math.abs(got.distance - want)).toBeLessThanOrEqual(1e-9 * scale);
          // The witness points are that far apart.
          if (got.distance > 0) {
            const gap = vec3.distance(got.pointA, got.pointB);
            expect(Math.abs(gap - got.distance)).toBeLessThanOrEqual(1e-9 * scale);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
