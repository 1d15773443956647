/**
 * `shapeFromMesh` and `poseFromObject3D` at scales far from 1 (session 38). `Matrix4.decompose`
 * squares a column for its length: at a scale of 1e200 the square overflowed, the rotation read
 * was the matrix over Infinity — zero — and the pose came out rotated by π (by 2.9 rad under a
 * rotation); at 1e-150 the squares underflowed (0.8 rad off). The adapter now keeps each column's
 * power of two apart (src/three/index.ts `worldAffine`). The oracle: the rotation the objects were given, composed
 * as quaternions, and world vertices from it and the scales applied by hand.
 */
import fc from "fast-check";
import * as THREE from "three";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { poseFromObject3D, shapeFromMesh } from "../../src/three/index.js";
import { unitQuat } from "../oracles/arbitraries.js";

/** The angle between two rotations given as unit quaternions (q and −q alike). */
function angleBetween(a: { x: number; y: number; z: number; w: number }, b: THREE.Quaternion) {
  const d = Math.abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
  return 2 * Math.acos(Math.min(1, d));
}

/** The corners of a box of half extents (1, 2, 3): the BoxGeometry(2, 4, 6)'s vertices. */
const CORNERS: [number, number, number][] = [];
for (const x of [-1, 1]) for (const y of [-2, 2]) for (const z of [-3, 3]) CORNERS.push([x, y, z]);

/**
 * Each corner c of the hull placed by the pose is, within `tol`, the oracle's image of one box
 * corner: `image(c)`; and each image is one of them.
 */
function expectCorners(
  shape: { vertices: Float64Array },
  pose: iso.Isometry,
  image: (c: [number, number, number]) => vec3.Vec3,
  tol: number,
): void {
  const v = shape.vertices;
  const ours: vec3.Vec3[] = [];
  for (let i = 0; i < v.length; i += 3)
    ours.push(iso.transformPoint(vec3.create(), pose, vec3.create(v[i], v[i + 1], v[i + 2])));
  const theirs = CORNERS.map(image);
  const far = (a: vec3.Vec3, b: vec3.Vec3) =>
    Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.z - b.z));
  expect(ours.length).toBe(8);
  for (const o of ours) expect(Math.min(...theirs.map((t) => far(o, t)))).toBeLessThanOrEqual(tol);
  for (const t of theirs) expect(Math.min(...ours.map((o) => far(o, t)))).toBeLessThanOrEqual(tol);
}

const rotate = (q: THREE.Quaternion, p: vec3.Vec3): vec3.Vec3 => {
  const v = new THREE.Vector3(p.x, p.y, p.z).applyQuaternion(q);
  return vec3.create(v.x, v.y, v.z);
};

describe("three.js objects at extreme scales (session 38)", () => {
  it("the reported scales: 1e150..1e300 and 1e-150..1e-300, rotated or not, give the object's rotation", () => {
    const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(0.3, 0.7, -0.4));
    for (const s of [1e150, 1e200, 1e300, 1e-150, 1e-200, 1e-300]) {
      for (const turned of [false, true]) {
        const m = new THREE.Mesh(new THREE.BoxGeometry(2, 4, 6));
        if (turned) m.quaternion.copy(q);
        m.scale.setScalar(s);
        const expected = turned ? q : new THREE.Quaternion();
        // Was π (1e200 and up), 2.87 rad (1e200 turned) and 0.80 rad (1e-150 turned).
        expect(angleBetween(poseFromObject3D(m).rotation, expected)).toBeLessThan(1e-7);
        const { shape, pose } = shapeFromMesh(m, "hull");
        expect(angleBetween(pose.rotation, expected)).toBeLessThan(1e-7);
        expectCorners(
          shape,
          pose,
          ([x, y, z]) => rotate(expected, vec3.create(s * x, s * y, s * z)),
          1e-14 * 3 * s,
        );
      }
    }
  });

  it("any rotation under scales 2^-1000..2^1000 per axis, either sign: the rotation three.js reads at unit scale, and the exact vertices (fast-check)", () => {
    const exp = fc.integer({ min: -1000, max: 1000 });
    const near = fc.integer({ min: -10, max: 10 });
    const sign = fc.constantFrom(1, -1);
    fc.assert(
      fc.property(
        unitQuat,
        fc.tuple(exp, exp, exp),
        fc.tuple(near, near),
        fc.tuple(sign, sign, sign),
        fc.boolean(),
        (q, wide, d, sg, spread) => {
          // Spread: each axis's exponent anywhere (the pose only: a box 2^1000 by 2^-1000 is a
          // segment to the hull's tolerance); else within 2^±10 of the first (the shape too; a wider spread is flat to the hull's tolerance).
          const e = spread
            ? wide
            : [
                wide[0],
                Math.max(-1000, Math.min(1000, wide[0] + d[0])),
                Math.max(-1000, Math.min(1000, wide[0] + d[1])),
              ];
          const s = [sg[0] * 2 ** e[0], sg[1] * 2 ** e[1], sg[2] * 2 ** e[2]];
          const m = new THREE.Mesh(new THREE.BoxGeometry(2, 4, 6));
          m.quaternion.set(q.x, q.y, q.z, q.w);
          m.scale.set(s[0], s[1], s[2]);
          // The oracle rotation: three.js's decomposition of the same rotation and signs at unit
          // scale (the powers of two change no direction), where its squares are exact enough.
          const unit = new THREE.Matrix4().compose(
            new THREE.Vector3(),
            new THREE.Quaternion(q.x, q.y, q.z, q.w),
            new THREE.Vector3(sg[0], sg[1], sg[2]),
          );
          const expected = new THREE.Quaternion();
          unit.decompose(new THREE.Vector3(), expected, new THREE.Vector3());
          const pose = poseFromObject3D(m);
          expect(angleBetween(pose.rotation, expected)).toBeLessThan(1e-7);
          if (spread) return;
          const made = shapeFromMesh(m, "hull");
          expect(angleBetween(made.pose.rotation, expected)).toBeLessThan(1e-7);
          // World corner: the rotation of the scaled corner (each product exact: powers of two).
          const qq = new THREE.Quaternion(q.x, q.y, q.z, q.w).normalize();
          const big = Math.max(...s.map(Math.abs));
          expectCorners(
            made.shape,
            made.pose,
            ([x, y, z]) => rotate(qq, vec3.create(s[0] * x, s[1] * y, s[2] * z)),
            1e-13 * 3 * big,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
