/**
 * `shapeFromMesh` and `poseFromObject3D` at scales far from 1 (session 38). `Matrix4.decompose`
 * squares a column for its length: at a scale of 1e200 the square overflowed, the rotation read
 * was the matrix over Infinity — zero — and the pose came out rotated by π (by 2.9 rad under a
 * rotation); at 1e-150 the squares underflowed (0.8 rad off). And three.js composes world matrices
 * from the root down, so a mesh of scale 1/s under a parent of s was fine but a chain s, s, 1/s,
 * 1/s (s = 1e200: Infinity, then NaN) or 1e-170, 1e-170, 1e170, 1e170 (a zero column) was refused
 * though its world matrix is a rotation. The adapter now keeps each column's power of two apart
 * (src/three/index.ts `worldAffine`). The oracle: the rotation the objects were given, composed
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

  it("a chain of scales s, s, 1/s, 1/s (s = 2^-1000..2^1000) under any rotations: the composed rotation, the box at unit size (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.array(unitQuat, { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (e, qs, twoLevels) => {
          const s = 2 ** e;
          // Two levels: a parent of s over a mesh of 1/s; four: s, s, 1/s, 1/s (three.js's own
          // world matrix over- or underflows on the way for |e| > 512).
          const scales = twoLevels ? [s, 1 / s] : [s, s, 1 / s, 1 / s];
          const objects = scales.map((_, i) =>
            i === scales.length - 1
              ? new THREE.Mesh(new THREE.BoxGeometry(2, 4, 6))
              : new THREE.Object3D(),
          );
          const total = new THREE.Quaternion();
          objects.forEach((o, i) => {
            const q = qs[i];
            o.quaternion.set(q.x, q.y, q.z, q.w);
            o.scale.setScalar(scales[i]);
            if (i > 0) objects[i - 1].add(o);
            total.multiply(new THREE.Quaternion(q.x, q.y, q.z, q.w).normalize());
          });
          objects[0].position.set(5, -7, 11);
          const mesh = objects[objects.length - 1] as THREE.Mesh;
          const { shape, pose } = shapeFromMesh(mesh, "hull");
          expect(angleBetween(pose.rotation, total)).toBeLessThan(1e-7);
          expect(angleBetween(poseFromObject3D(mesh).rotation, total)).toBeLessThan(1e-7);
          // The scales cancel exactly (powers of two): the box of half extents (1, 2, 3) turned
          // by the composed rotation, at the root's position.
          expectCorners(
            shape,
            pose,
            (c) =>
              vec3.add(vec3.create(), rotate(total, vec3.create(...c)), vec3.create(5, -7, 11)),
            1e-12,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("an ancestor whose matrixWorldAutoUpdate is off is placed by its matrixWorld as set, as three.js places it", () => {
    const parent = new THREE.Object3D();
    parent.matrixWorldAutoUpdate = false;
    parent.matrixWorld.makeTranslation(1, 2, 3);
    parent.position.set(100, 100, 100);
    const m = new THREE.Mesh(new THREE.BoxGeometry(2, 4, 6));
    m.position.set(0, 0, 10);
    parent.add(m);
    const { pose } = shapeFromMesh(m, "hull");
    expect(pose.translation).toEqual({ x: 1, y: 2, z: 13 });
    m.updateWorldMatrix(true, false);
    expect(Array.from(m.matrixWorld.elements.slice(12, 15))).toEqual([1, 2, 13]);
  });

  it("a world geometry beyond the doubles is still refused naming the vertex and what it becomes", () => {
    const parent = new THREE.Object3D();
    parent.scale.setScalar(1e200);
    const m = new THREE.Mesh(new THREE.BoxGeometry(2, 4, 6));
    m.scale.setScalar(1e200);
    parent.add(m);
    expect(() => shapeFromMesh(m, "hull")).toThrow(
      /^geometry\.attributes\.position\[0\] overflows under mesh\.matrixWorld: it becomes \[/,
    );
  });
});
