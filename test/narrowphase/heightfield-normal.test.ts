/**
 * A flat heightfield's contact normal is exactly its up vector — (0, 1, 0) for an unrotated
 * field, the field's rotation applied once to (0, 1, 0) for a rotated one — for any rotation of
 * the other shape, in `contact` and `manifold`, in both argument orders
 * (src/narrowphase/heightfield-normal.ts). Before, the answer went through the other shape's
 * frame and came back one ulp off whenever that shape was rotated. The shapes are those whose
 * contact with a face is the face normal up to rounding (flat faces, spheres, capsules, rounded
 * boxes, compounds of them); placed over cell interiors, cell edges, diagonals and vertices.
 * A ridge keeps its own (non-face) normal: the snap leaves what is not a face normal alone.
 *
 * Left out: a face of the other shape tilted by less than 1e-9 rad from the ground (but not
 * parallel to it). There the two faces' depths tie to about 1e-13 and EPA may keep the other
 * shape's face normal, a direction ~1e-13 off (0, 1, 0) that is not a rounding of the field's
 * normal (the triangle mesh's own routine happens to keep its face there).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CollisionWorld,
  contact,
  type Isometry,
  makeCapsule,
  makeCompound,
  makeConvexPolyhedron,
  makeCuboid,
  makeHeightfield,
  makeRoundedCuboid,
  makeSphere,
  makeTriangleMesh,
  manifold,
  type Shape,
  type Vec3,
} from "../../src/index.js";
import * as iso from "../../src/math/isometry.js";
import { unitQuat } from "../oracles/arbitraries.js";

const rows = 6;
const cols = 6;
const flat = makeHeightfield({
  rows,
  cols,
  heights: new Float64Array(rows * cols),
  scale: { x: 1, y: 1, z: 1 },
});
// The same terrain as a mesh, only to place the shapes (its contact gives the gap to close).
const vertices: number[] = [];
const indices: number[] = [];
for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) vertices.push(c, 0, r);
for (let r = 0; r + 1 < rows; r++)
  for (let c = 0; c + 1 < cols; c++) {
    const v = r * cols + c;
    indices.push(v, v + cols, v + cols + 1, v, v + cols + 1, v + 1);
  }
const flatMesh = makeTriangleMesh(vertices, indices);
const ID: Isometry = iso.identity();

const axes = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const tetra = makeConvexPolyhedron([0, 0, 0, 0.6, 0, 0, 0, 0.5, 0, 0, 0, 0.4, 0.3, 0.3, 0.3]);
const tetraFaces: number[][] = [];
for (let f = 0; f < tetra.faceCount; f++)
  tetraFaces.push([0, 1, 2].map((k) => tetra.faceNormals[3 * f + k]));

/** Each shape and the directions of its flat faces (local frame). */
const shapes: [string, Shape, number[][]][] = [
  ["sphere", makeSphere(0.4), []],
  ["cuboid", makeCuboid({ x: 0.3, y: 0.2, z: 0.25 }), axes],
  ["capsule", makeCapsule({ x: 0, y: -0.3, z: 0 }, { x: 0, y: 0.3, z: 0 }, 0.2), []],
  ["convex", tetra, tetraFaces],
  ["rounded cuboid", makeRoundedCuboid({ x: 0.2, y: 0.15, z: 0.2 }, 0.05), axes],
  [
    "compound",
    makeCompound([
      { shape: makeCuboid({ x: 0.2, y: 0.2, z: 0.2 }), pose: ID },
      {
        shape: makeSphere(0.25),
        pose: { translation: { x: 0.4, y: 0.1, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
      },
    ]),
    axes,
  ],
];

/** True when rotation q tilts a face of the shape by less than 1e-9 rad from level, but not 0. */
function nearlyLevel(faces: number[][], q: Isometry["rotation"]): boolean {
  const r: Isometry = { translation: { x: 0, y: 0, z: 0 }, rotation: q };
  return faces.some(([x, y, z]) => {
    const n = iso.transformVector({ x: 0, y: 0, z: 0 }, r, { x, y, z });
    const tilt = Math.hypot(n.x, n.z);
    return tilt > 0 && tilt < 1e-9;
  });
}

/** The shape at (x, ·, z) with rotation q, lowered into the ground by `depth`. */
function resting(s: Shape, x: number, z: number, q: Isometry["rotation"], depth: number): Isometry {
  const pose: Isometry = { translation: { x, y: 5, z }, rotation: q };
  const far = contact(flatMesh, ID, s, pose, 100);
  if (!far) throw new Error("no contact within 100 above the ground");
  pose.translation.y = 5 - far.distance - depth;
  return pose;
}

const same = (v: Vec3 | undefined, x: number, y: number, z: number) =>
  v !== undefined && v.x === x && v.y === y && v.z === z;

/** Over a cell's interior, on its edges, on its diagonal and on vertices. */
const spot = fc.oneof(
  fc.record({
    x: fc.double({ min: 1.05, max: 3.95, noNaN: true }),
    z: fc.double({ min: 1.05, max: 3.95, noNaN: true }),
  }),
  fc.record({ x: fc.integer({ min: 1, max: 4 }), z: fc.double({ min: 1, max: 4, noNaN: true }) }),
  fc.record({ x: fc.double({ min: 1, max: 4, noNaN: true }), z: fc.integer({ min: 1, max: 4 }) }),
  fc
    .tuple(fc.integer({ min: 1, max: 3 }), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([c, t]) => ({ x: c + t, z: c + t })),
  fc.record({ x: fc.integer({ min: 1, max: 4 }), z: fc.integer({ min: 1, max: 4 }) }),
);

describe("a flat heightfield's contact normal is exactly its up vector", () => {
  it("for any rotation of the other shape, in contact and manifold, both orders (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: shapes.length - 1 }),
        unitQuat,
        spot,
        fc.constantFrom(1e-3, 0.01, 0.05),
        (k, q, p, depth) => {
          fc.pre(!nearlyLevel(shapes[k][2], q));
          const s = shapes[k][1];
          const pose = resting(s, p.x, p.z, q, depth);
          const c = contact(flat, ID, s, pose);
          const m = manifold(flat, ID, s, pose);
          const cr = contact(s, pose, flat, ID);
          const mr = manifold(s, pose, flat, ID);
          expect(c && m && cr && mr).toBeTruthy();
          expect(same(c?.normal, 0, 1, 0)).toBe(true);
          expect(same(m?.normal, 0, 1, 0)).toBe(true);
          expect(same(cr?.normal, 0, -1, 0)).toBe(true);
          expect(same(mr?.normal, 0, -1, 0)).toBe(true);
          // The depth is the one the shape was lowered by (the snap moves only the normal; the
          // placement's gap comes from GJK, within about 1e-9 for rounded shapes).
          expect(c?.distance).toBeCloseTo(-depth, 7);
          expect(cr?.distance).toBeCloseTo(-depth, 7);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a flat field at any scale and height: exactly (0, 1, 0) (a scaled cell's normal once rounded to 0.9999999999999999)", () => {
    // Found by a fresh user: scale (0.7, 0.1, 1.3) with heights 0.3 gave y = 1 − 2^-53 in about
    // one contact in five, because the face normal (0, −sx·sz, 0) was normalised by √(y²).
    const box = makeCuboid({ x: 0.5, y: 0.3, z: 0.7 });
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 20, noNaN: true }),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        fc.double({ min: 1, max: 20, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        unitQuat,
        fc.double({ min: 0.3, max: 0.7, noNaN: true }),
        fc.double({ min: 0.3, max: 0.7, noNaN: true }),
        (sx, sy, sz, h, q, u, v) => {
          const field = makeHeightfield({
            rows: 8,
            cols: 8,
            heights: new Float64Array(64).fill(h),
            scale: { x: sx, y: sy, z: sz },
          });
          const top = h * sy;
          const pose: Isometry = {
            translation: { x: 7 * sx * u, y: top + 0.2, z: 7 * sz * v },
            rotation: q,
          };
          // Where the answer is the field's face normal (within 1e-9: not a box face's normal,
          // which a box nearly level on one thin cell may give), it is exactly (0, 1, 0).
          fc.pre(!nearlyLevel(axes, q));
          const c = contact(field, ID, box, pose);
          fc.pre(c !== null && c.distance < 0 && Math.abs(c.normal.y - 1) < 1e-9);
          expect(same(c?.normal, 0, 1, 0)).toBe(true);
          const cr = contact(box, pose, field, ID);
          if (cr !== null && Math.abs(cr.normal.y + 1) < 1e-9) {
            expect(same(cr.normal, 0, -1, 0)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("in a CollisionWorld too: the world's manifold normal is exactly ±(0, 1, 0), in either body order", () => {
    // Found by a fresh user: the world's narrow phase did not apply the snap (y = 1 − 2^-53,
    // x and z about 1e-16 for 300 of 300 rotated boxes).
    const box = makeCuboid({ x: 0.5, y: 0.3, z: 0.7 });
    fc.assert(
      fc.property(unitQuat, spot, fc.boolean(), (q, p, fieldFirst) => {
        fc.pre(!nearlyLevel(axes, q));
        const pose = resting(box, p.x, p.z, q, 0.05);
        const expected = contact(flat, ID, box, pose);
        fc.pre(expected !== null && Math.abs(expected.normal.y - 1) < 1e-9);
        const world = new CollisionWorld({});
        if (fieldFirst) {
          world.addBody({ shape: flat, pose: ID, kind: "static" });
          world.addBody({ shape: box, pose });
        } else {
          world.addBody({ shape: box, pose });
          world.addBody({ shape: flat, pose: ID, kind: "static" });
        }
        world.step();
        const found = [...world.contacts()];
        expect(found.length).toBe(1);
        const n = found[0].manifold.normal;
        expect(Math.abs(n.y) === 1 && n.x === 0 && n.z === 0).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("a rotated field: its rotation applied once to (0, 1, 0), for any rotation of the shape", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: shapes.length - 1 }),
        unitQuat,
        unitQuat,
        spot,
        (k, qField, q, p) => {
          fc.pre(!nearlyLevel(shapes[k][2], q));
          const s = shapes[k][1];
          const local = resting(s, p.x, p.z, q, 0.01);
          const field: Isometry = { translation: { x: 3, y: -2, z: 7 }, rotation: qField };
          const world = iso.multiply(iso.identity(), field, local);
          const up = iso.transformVector({ x: 0, y: 0, z: 0 }, field, { x: 0, y: 1, z: 0 });
          const c = contact(flat, field, s, world);
          const mr = manifold(s, world, flat, field);
          expect(same(c?.normal, up.x, up.y, up.z)).toBe(true);
          expect(same(mr?.normal, -up.x, -up.y, -up.z)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a ridge's normal is not a face normal and is left as the composite routine found it", () => {
    // A ridge along row 2 (height 1 there, 0 elsewhere); a sphere centred above the ridge line
    // touches it on the edge, where the normal is (0, 1, 0) between the two slopes, not a face.
    const h = new Float64Array(rows * cols);
    for (let c = 0; c < cols; c++) h[2 * cols + c] = 1;
    const ridge = makeHeightfield({ rows, cols, heights: h, scale: { x: 1, y: 1, z: 1 } });
    const ball = makeSphere(0.5);
    const pose: Isometry = {
      translation: { x: 2.5, y: 1.45, z: 2 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    };
    const c = contact(ridge, ID, ball, pose);
    expect(c?.normal.y).toBeCloseTo(1, 12);
    expect(c?.distance).toBeCloseTo(-0.05, 12);
    // Off the ridge line the sphere touches a slope: its face normal, (0, 1, ±1)/√2.
    const slope = contact(ridge, ID, ball, {
      translation: { x: 2.5, y: 1.0, z: 2.6 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    });
    expect(Math.abs(slope?.normal.z ?? 0)).toBeCloseTo(Math.SQRT1_2, 12);
  });
});
