/**
 * A compound against a `solid: true` closed mesh (src/narrowphase/composite.ts,
 * `solidAgainstParts`), both argument orders, every operation: the deepest of its children, each
 * against the whole solid as the bare child is — a child crossing the solid's surface takes the
 * solid's depth, not the crossed triangle's two-sided one (session 38: a sphere child 0.3 inside a
 * solid cube's +x face had got −0.2 with the normal pointing out). Oracles: hand-derived depths,
 * and the same compound against the equivalent convex hull shape (makeConvexPolyhedron of the
 * mesh's vertices), with the normal checked to achieve the depth by the support functions.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeConvexHull } from "../../src/geometry/hull.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import { makeRandom } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  makeContact,
  makeContactManifold,
  makeDistanceResult,
} from "../../src/narrowphase/contact.js";
import {
  contactPair,
  distancePair,
  intersectsPair,
  manifoldPair,
} from "../../src/narrowphase/dispatch.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import type { Compound } from "../../src/shapes/compound.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { supportShape } from "../../src/shapes/registry.js";
import type { ConvexShape, Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { cubeMesh } from "../mesh/helpers.js";
import { unitQuat } from "../oracles/arbitraries.js";

/** The closed solid cube [0, s]³ (test/mesh/helpers.ts's, made solid). */
const solidCube = (s: number): TriangleMesh => cubeMesh(s, true);

/** The closed outward triangulated hull of packed points, `solid: true` (fan per hull face). */
function solidHullMesh(points: number[]): TriangleMesh {
  const h = computeConvexHull(points);
  const idx: number[] = [];
  for (let f = 0; f + 1 < h.faceOffsets.length; f++) {
    const s = h.faceOffsets[f];
    const e = h.faceOffsets[f + 1];
    for (let k = s + 1; k + 1 < e; k++)
      idx.push(h.faceVertices[s], h.faceVertices[k], h.faceVertices[k + 1]);
  }
  return makeTriangleMesh(h.vertices, idx, "", { solid: true });
}

/** `n` seeded points uniform in [−r, r]³, packed (a random convex hull's points). */
function randomPoints(seed: number, n: number, r: number): number[] {
  const rng = makeRandom(seed);
  const out: number[] = [];
  for (let i = 0; i < 3 * n; i++) out.push((2 * rng() - 1) * r);
  return out;
}

const at = (x: number, y: number, z: number): Isometry =>
  iso.create(vec3.create(x, y, z), quat.identity());

const CHILD_AT_ORIGIN = iso.identity();

describe("a compound against a solid mesh: the deepest child against the solid", () => {
  // The attack's 3 lines: a sphere child (radius 0.5) at [3.7, 2, 2] in the solid cube [0, 4]³.
  // Hand-derived: its centre is 0.3 inside the x = 4 face (the nearest), so it leaves by +x
  // after 0.3 + 0.5 = 0.8; the normal from the compound toward the cube is −x.
  const cube = solidCube(4);
  const pose = at(3.7, 2, 2); // the compound in the cube's frame
  const inv = iso.invert(iso.identity(), pose);

  for (const [name, child] of [
    ["sphere child r 0.5", makeSphere(0.5)],
    // A box of half extents 0.5: spans x ∈ [3.2, 4.2], leaves by +x after 0.8 (by ±y, ±z 2.5).
    ["box child, half extents 0.5", makeCuboid({ x: 0.5, y: 0.5, z: 0.5 })],
  ] as const) {
    const flat = makeCompound([{ shape: child, pose: CHILD_AT_ORIGIN }]);
    const nested = makeCompound([
      { shape: makeCompound([{ shape: child, pose: CHILD_AT_ORIGIN }]), pose: CHILD_AT_ORIGIN },
    ]);
    for (const [kind, compound] of [
      ["compound", flat],
      ["nested compound", nested],
    ] as const) {
      it(`${kind} of a ${name} at [3.7, 2, 2] in the solid cube [0, 4]³: −0.8 along x, both orders`, () => {
        const c = makeContact();
        expect(contactPair(c, compound, cube, inv, 0)).toBe(true);
        expect(c.distance).toBeCloseTo(-0.8, 12);
        expect(c.normal.x).toBeCloseTo(-1, 12);
        expect(Math.hypot(c.normal.y, c.normal.z)).toBeLessThan(1e-12);
        // pointB on the x = 4 face (in the compound's frame: x = 0.3).
        expect(c.pointB.x).toBeCloseTo(0.3, 12);
        const f = makeContact();
        expect(contactPair(f, cube, compound, pose, 0)).toBe(true);
        expect(f.distance).toBeCloseTo(-0.8, 12);
        expect(f.normal.x).toBeCloseTo(1, 12);
        expect(f.pointA.x).toBeCloseTo(4, 12);
        expect(intersectsPair(compound, cube, inv)).toBe(true);
        expect(intersectsPair(cube, compound, pose)).toBe(true);
        expect(distancePair(makeDistanceResult(), compound, cube, inv).distance).toBe(0);
        expect(distancePair(makeDistanceResult(), cube, compound, pose).distance).toBe(0);
        for (const [m, n] of [
          [makeContactManifold(), -1],
          [makeContactManifold(), 1],
        ] as const) {
          const ok =
            n < 0
              ? manifoldPair(m, compound, cube, inv, 0)
              : manifoldPair(m, cube, compound, pose, 0);
          expect(ok).toBe(true);
          expect(m.normal.x).toBeCloseTo(n, 12);
          let deepest = Infinity;
          for (let q = 0; q < m.count; q++) deepest = Math.min(deepest, m.points[q].distance);
          expect(deepest).toBeCloseTo(-0.8, 12);
        }
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Property: the compound against the solid mesh answers as against the mesh's convex hull
// ---------------------------------------------------------------------------------------------

const vecArb = (r: number) =>
  fc.tuple(
    fc.double({ min: -r, max: r, noNaN: true }),
    fc.double({ min: -r, max: r, noNaN: true }),
    fc.double({ min: -r, max: r, noNaN: true }),
  );

const childArb = fc.record({
  kind: fc.integer({ min: 0, max: 2 }),
  size: fc.tuple(
    fc.double({ min: 0.05, max: 0.8, noNaN: true }),
    fc.double({ min: 0.05, max: 0.8, noNaN: true }),
    fc.double({ min: 0.05, max: 0.8, noNaN: true }),
  ),
  t: vecArb(1),
  q: unitQuat,
});

type ChildSpec = { kind: number; size: [number, number, number]; t: number[]; q: quat.Quat };

function buildCompound(kids: ChildSpec[], k: number): Compound {
  return makeCompound(
    kids.map((c) => {
      const [a, b, r] = c.size.map((x) => x * k);
      const shape: ConvexShape =
        c.kind === 0
          ? makeSphere(r)
          : c.kind === 1
            ? makeCuboid({ x: a, y: b, z: r })
            : makeCapsule({ x: 0, y: -a, z: 0 }, { x: 0, y: a, z: 0 }, r);
      return {
        shape,
        pose: iso.create(vec3.create(c.t[0] * k, c.t[1] * k, c.t[2] * k), c.q),
      };
    }),
  );
}

/** h_S(d) of a shape at `pose`: max over S of d·x (d in the pose's outer frame). */
function supportValue(s: Shape, pose: Isometry, d: Vec3): number {
  const local = quat.inverseRotate(vec3.create(), pose.rotation, d);
  const p = supportShape(vec3.create(), s as ConvexShape, local);
  return vec3.dot(d, iso.transformPoint(vec3.create(), pose, p));
}

/**
 * The least over the compound's children of |overlap along n − depth|, the mesh's support read
 * from its vertices: 0 when some child's overlap with the solid along the contact normal `n`
 * (from the compound toward the mesh, mesh frame) is the contact's depth.
 */
function normalGap(
  compound: Compound,
  pose: Isometry,
  verts: ArrayLike<number>,
  n: Vec3,
  depth: number,
): number {
  let hMesh = -Infinity; // h_mesh(−n)
  for (let i = 0; i < verts.length; i += 3)
    hMesh = Math.max(hMesh, -(n.x * verts[i] + n.y * verts[i + 1] + n.z * verts[i + 2]));
  let best = Infinity;
  for (const c of compound.children) {
    const p = iso.multiply(iso.identity(), pose, c.pose);
    const overlap = supportValue(c.shape, p, n) + hMesh;
    best = Math.min(best, Math.abs(overlap - depth));
  }
  return best;
}

describe("a compound against a solid closed convex mesh answers as against its convex hull", () => {
  it("intersects, distance, contact depth and normal, manifold: both orders", () => {
    fc.assert(
      fc.property(
        fc.array(childArb, { minLength: 1, maxLength: 3 }),
        vecArb(3),
        unitQuat,
        fc.option(fc.integer({ min: 1, max: 1e6 }), { nil: null }),
        fc.constantFrom(1, 1e-6, 1e-3, 1e3, 1e6),
        (kids, t, q, hullSeed, k) => {
          const mesh =
            hullSeed === null ? solidCube(4 * k) : solidHullMesh(randomPoints(hullSeed, 10, 2 * k));
          const verts = mesh.vertices;
          const hull = makeConvexPolyhedron(verts);
          const compound = buildCompound(kids as ChildSpec[], k);
          const centre = hullSeed === null ? 2 * k : 0;
          // The compound in the mesh's frame, and the mesh in the compound's.
          const pose = iso.create(
            vec3.create(centre + t[0] * k, centre + t[1] * k, centre + t[2] * k),
            q,
          );
          const inv = iso.invert(iso.identity(), pose);
          const tol = 1e-9 * k;
          // Intersects and distance, both orders.
          const hit = intersectsPair(hull, compound, pose);
          expect(intersectsPair(mesh, compound, pose)).toBe(hit);
          expect(intersectsPair(compound, mesh, inv)).toBe(hit);
          const dHull = distancePair(makeDistanceResult(), hull, compound, pose).distance;
          const d1 = distancePair(makeDistanceResult(), mesh, compound, pose).distance;
          const d2 = distancePair(makeDistanceResult(), compound, mesh, inv).distance;
          expect(Math.abs(d1 - dHull)).toBeLessThanOrEqual(tol);
          expect(Math.abs(d2 - dHull)).toBeLessThanOrEqual(tol);
          // Contact: the depth of the hull's, the normal achieving it.
          const ch = makeContact();
          const foundHull = contactPair(ch, compound, hull, inv, 0);
          const c1 = makeContact();
          const c2 = makeContact();
          const f1 = contactPair(c1, compound, mesh, inv, 0);
          const f2 = contactPair(c2, mesh, compound, pose, 0);
          expect(f1).toBe(foundHull);
          expect(f2).toBe(foundHull);
          if (!foundHull) return;
          const depth = -ch.distance;
          expect(Math.abs(c1.distance - ch.distance)).toBeLessThanOrEqual(tol);
          expect(Math.abs(c2.distance - ch.distance)).toBeLessThanOrEqual(tol);
          // Normals into the mesh's frame, from the compound toward the mesh.
          const n1 = quat.rotate(vec3.create(), pose.rotation, c1.normal);
          const n2 = vec3.negate(vec3.create(), c2.normal);
          expect(normalGap(compound, pose, verts, n1, depth)).toBeLessThanOrEqual(tol);
          expect(normalGap(compound, pose, verts, n2, depth)).toBeLessThanOrEqual(tol);
          // Manifold: found with the contact, its normal achieving the depth.
          const m1 = makeContactManifold();
          const m2 = makeContactManifold();
          expect(manifoldPair(m1, compound, mesh, inv, 0)).toBe(true);
          expect(manifoldPair(m2, mesh, compound, pose, 0)).toBe(true);
          const mn1 = quat.rotate(vec3.create(), pose.rotation, m1.normal);
          const mn2 = vec3.negate(vec3.create(), m2.normal);
          expect(normalGap(compound, pose, verts, mn1, depth)).toBeLessThanOrEqual(tol);
          expect(normalGap(compound, pose, verts, mn2, depth)).toBeLessThanOrEqual(tol);
        },
      ),
      { numRuns: 300 },
    );
  });
});
