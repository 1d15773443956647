/**
 * The box's supporting face (`shapeDef(Cuboid).feature`, src/shapes/defs/cuboid-ops.ts), which
 * every box manifold clips. Oracle, derived by hand from the definition: the face of the axis
 * i where |d_i| is largest (the first such axis on a tie), on the side s = sign(d_i) (+ for
 * ±0); feature index 2i + [s < 0], cos = |d_i|, normal s·e_i with +0 elsewhere; four corners,
 * each coordinate exactly ±h (a corner's sign pattern), coordinate i equal to s·h_i, starting at
 * (+, +) in the face's axes (i + 1, i + 2) mod 3 and turning counter-clockwise about the normal,
 * each tagged 1 + its corner index (bit a set for + on axis a).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeSupportFeature } from "../../src/geometry/feature.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import "../../src/shapes/defs/ops.js";
import { shapeDef } from "../../src/shapes/registry.js";
import { ShapeType } from "../../src/shapes/shape.js";

/** The face the definition describes (module docs), as plain numbers (−0 kept apart). */
function expectedFace(h: Vec3, d: Vec3): number[] {
  const dv = [d.x, d.y, d.z];
  const hv = [h.x, h.y, h.z];
  let i = 0;
  for (let a = 1; a < 3; a++) if (Math.abs(dv[a]) > Math.abs(dv[i])) i = a;
  const s = dv[i] >= 0 ? 1 : -1;
  const j = (i + 1) % 3;
  const k = (i + 2) % 3;
  const normal = [0, 0, 0];
  normal[i] = s;
  const out = [2 * i + (s < 0 ? 1 : 0), Math.abs(dv[i]), ...normal, 4];
  // (j, k) signs counter-clockwise about +e_i; about −e_i the same cycle backwards from (+, +).
  const ccw = [
    [1, 1],
    [-1, 1],
    [-1, -1],
    [1, -1],
  ];
  for (let q = 0; q < 4; q++) {
    const [sj, sk] = ccw[s > 0 ? q : (4 - q) % 4];
    const sg = [0, 0, 0];
    sg[i] = s;
    sg[j] = sj;
    sg[k] = sk;
    const corner = (sg[0] > 0 ? 1 : 0) + (sg[1] > 0 ? 2 : 0) + (sg[2] > 0 ? 4 : 0);
    out.push(sg[0] * hv[0], sg[1] * hv[1], sg[2] * hv[2], 1 + corner);
  }
  return out;
}

function actualFace(h: Vec3, d: Vec3): number[] {
  const f = makeSupportFeature();
  // A polygon left in the buffer from before must not show through.
  f.poly.count = 9;
  const feature = shapeDef(ShapeType.Cuboid).feature;
  if (!feature) throw new Error("the cuboid's feature operation is not loaded");
  feature(f, makeCuboid(h), d);
  const out = [f.index, f.cos, f.normal.x, f.normal.y, f.normal.z, f.poly.count];
  for (let q = 0; q < f.poly.count; q++) {
    out.push(f.poly.xyz[3 * q], f.poly.xyz[3 * q + 1], f.poly.xyz[3 * q + 2], f.poly.tags[q]);
  }
  return out;
}

const component = fc.oneof(
  fc.double({ min: -10, max: 10, noNaN: true }),
  fc.constantFrom(0, -0, 1, -1, 0.5, -0.5),
);
const halfExtent = fc.oneof(
  fc.double({ min: 0, max: 100, noNaN: true }),
  fc.constantFrom(0, 1e-9, 1, 3),
);

describe("the box's supporting face", () => {
  it("is the face of the largest axis with corners ±h, counter-clockwise, tagged (random)", () => {
    fc.assert(
      fc.property(
        fc.record({ x: halfExtent, y: halfExtent, z: halfExtent }),
        fc.record({ x: component, y: component, z: component }),
        (h, d) => {
          expect(actualFace(h, d)).toEqual(expectedFace(h, d));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("takes the first axis on ties and + for a zero component (hand-checked cases)", () => {
    const h = { x: 1, y: 2, z: 3 };
    // |d| equal on all axes: x; −0 on the chosen axis: the + side.
    expect(actualFace(h, { x: 1, y: -1, z: 1 }).slice(0, 5)).toEqual([0, 1, 1, 0, 0]);
    expect(actualFace(h, { x: -0, y: 0, z: 0 }).slice(0, 5)).toEqual([0, 0, 1, 0, 0]);
    expect(actualFace(h, { x: 0.5, y: -0.5, z: 0 }).slice(0, 5)).toEqual([0, 0.5, 1, 0, 0]);
    // −z face of a 1×2×3 box: corners (x, y) = (+,+), (+,−), (−,−), (−,+) at z = −3, i.e.
    // counter-clockwise about −z, tagged 1 + corner bits.
    expect(actualFace(h, { x: 0.1, y: 0.2, z: -0.9 })).toEqual([
      5, 0.9, 0, 0, -1, 4, 1, 2, -3, 4, 1, -2, -3, 2, -1, -2, -3, 1, -1, 2, -3, 3,
    ]);
    // A flat box (h_y = 0): the +y face keeps −0 where the sign is negative.
    const flat = actualFace({ x: 1, y: 0, z: 1 }, { x: 0, y: -1, z: 0 });
    expect(flat.slice(0, 5)).toEqual([3, 1, 0, -1, 0]);
    expect(Object.is(flat[7], -0)).toBe(true);
  });
});
