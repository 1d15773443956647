/**
 * Triangle meshes through the one composite mid-phase (src/narrowphase/composite.ts), against
 * brute force over every triangle (and every compound child, heightfield cell, triangle pair):
 * intersects, distance, contact depth and manifold, for mesh–convex (both orders, through the
 * pair table), mesh–compound, heightfield–mesh and mesh–mesh, with adversarial poses (touching,
 * coplanar, internal edges of a grid). The oracle loops know nothing of BVHs, pruning or
 * candidate boxes; they apply the same per-part routines and the same internal-edge rule
 * (src/narrowphase/face-depth.ts) to every part, so they check the traversal.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";
import type { Contact } from "../../src/narrowphase/contact.js";
import {
  makeContact,
  makeContactManifold,
  makeDistanceResult,
} from "../../src/narrowphase/contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "../../src/narrowphase/convex-convex.js";
import {
  contactPair,
  distancePair,
  intersectsPair,
  manifoldPair,
} from "../../src/narrowphase/dispatch.js";
import { fixInternalEdgeContact } from "../../src/narrowphase/face-depth.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import {
  getHeightfieldTriangle,
  heightfieldCellCount,
  makeHeightfield,
} from "../../src/shapes/heightfield.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import type { Triangle } from "../../src/shapes/triangle.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { getMeshTriangle } from "../../src/shapes/triangle-mesh.js";
import { flatGrid, randomSoup } from "../mesh/helpers.js";
import { unitQuat } from "../oracles/arbitraries.js";

const shapes: ConvexShape[] = [
  makeSphere(0.6),
  makeCuboid({ x: 0.5, y: 0.3, z: 0.7 }),
  makeCapsule({ x: -0.4, y: 0, z: 0 }, { x: 0.4, y: 0.1, z: 0 }, 0.3),
  makeConvexPolyhedron([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.7, 0.7, 0.7]),
];

function triangleOf(mesh: TriangleMesh, t: number): Triangle {
  const a = vec3.create();
  const b = vec3.create();
  const c = vec3.create();
  getMeshTriangle(mesh, t, a, b, c);
  return makeTriangle(a, b, c);
}

/**
 * Brute force of mesh (A) against convex S at `pose`: any triangle intersecting, the smallest
 * triangle distance, and the deepest triangle contact within `prediction` after the
 * internal-edge rule (null when none).
 */
function bruteMeshConvex(mesh: TriangleMesh, s: ConvexShape, pose: Isometry, prediction: number) {
  let any = false;
  let dist = Infinity;
  let deepest: Contact | null = null;
  const dr = makeDistanceResult();
  for (let t = 0; t < mesh.triangleCount; t++) {
    const tri = triangleOf(mesh, t);
    if (intersectsConvexConvex(tri, s, pose)) any = true;
    dist = Math.min(dist, distancePair(dr, tri, s, pose).distance);
    const c = makeContact();
    if (!contactPair(c, tri, s, pose, prediction)) continue;
    fixInternalEdgeContact(c, tri, mesh.activeEdges[t], s, pose);
    if (deepest === null || c.distance < deepest.distance) deepest = c;
  }
  return { any, dist, deepest };
}

/** Checks every query of (mesh, S) and (S, mesh) through the pair table against the oracle. */
function checkMeshConvex(mesh: TriangleMesh, s: ConvexShape, pose: Isometry, scale: number) {
  const prediction = 0.05 * scale;
  const o = bruteMeshConvex(mesh, s, pose, prediction);
  const tol = 1e-6 * scale;
  const inv = iso.invert(iso.identity(), pose);
  // Distance, both orders.
  const d = distancePair(makeDistanceResult(), mesh, s, pose);
  expect(Math.abs(d.distance - o.dist)).toBeLessThanOrEqual(tol);
  const d2 = distancePair(makeDistanceResult(), s, mesh, inv);
  expect(Math.abs(d2.distance - o.dist)).toBeLessThanOrEqual(tol);
  // Witnesses: |pB − pA| is the distance when apart.
  if (d.distance > tol) {
    expect(Math.abs(vec3.distance(d.pointA, d.pointB) - d.distance)).toBeLessThanOrEqual(tol);
  }
  // Intersects, both orders, away from touching.
  const hit = intersectsPair(mesh, s, pose);
  const clear = o.dist > tol || (o.deepest !== null && o.deepest.distance < -tol);
  // Exactly touching, the inverted pose's rounding may decide either way in the mirrored order.
  if (clear) expect(intersectsPair(s, mesh, inv)).toBe(hit);
  if (o.dist > tol) expect(hit).toBe(false);
  // (A gap below GJK's tolerance but above 0 — a hull corner 1e-55 above the grid — is culled by
  // the exact boxes, as before the composite path: only clear overlaps must intersect.)
  if (o.any && o.deepest !== null && o.deepest.distance < -tol) expect(hit).toBe(true);
  // Contact: the deepest triangle contact after the internal-edge rule.
  const c = makeContact();
  const found = contactPair(c, mesh, s, pose, prediction);
  expect(found).toBe(o.deepest !== null);
  if (found && o.deepest) {
    expect(Math.abs(c.distance - o.deepest.distance)).toBeLessThanOrEqual(
      tol + 1e-9 * Math.abs(o.deepest.distance),
    );
    expect(Math.abs(vec3.length(c.normal) - 1)).toBeLessThan(1e-9);
    // Overlapping: distance 0 at the deepest contact's points.
    if (c.distance < -tol) {
      expect(d.distance).toBe(0);
      const c0 = makeContact();
      expect(contactPair(c0, mesh, s, pose, 0)).toBe(true);
      expect(vec3.distance(d.pointA, c0.pointA)).toBeLessThanOrEqual(tol);
      expect(vec3.distance(d.pointB, c0.pointB)).toBeLessThanOrEqual(tol);
    }
    // Manifold: the contact's normal, 1–4 points each measured along it, the deepest no
    // shallower than the contact (the contact's triangle is among the merged ones).
    const m = makeContactManifold();
    expect(manifoldPair(m, mesh, s, pose, prediction)).toBe(true);
    expect(m.count).toBeGreaterThanOrEqual(1);
    expect(m.count).toBeLessThanOrEqual(4);
    expect(vec3.distance(m.normal, c.normal)).toBeLessThanOrEqual(1e-12);
    let minDepth = Infinity;
    for (let i = 0; i < m.count; i++) {
      const p = m.points[i];
      const along = vec3.dot(vec3.sub(vec3.create(), p.pointB, p.pointA), m.normal);
      expect(Math.abs(along - p.distance)).toBeLessThanOrEqual(tol + 1e-9 * Math.abs(along));
      minDepth = Math.min(minDepth, p.distance);
    }
    // A polytope's or a sphere's deepest point is kept (a capsule's clipped segment may not
    // reach its deepest point: the same before the composite path).
    if (s.type !== ShapeType.Capsule)
      expect(minDepth).toBeLessThanOrEqual(c.distance + tol + 1e-6 * Math.abs(c.distance));
    else if (c.distance < -tol) expect(minDepth).toBeLessThan(0);
    // The mirrored order: a manifold too, along the same line (its side may differ only for a
    // shape centred on the surface, where the inverted pose's rounding decides the tie).
    const m2 = makeContactManifold();
    expect(manifoldPair(m2, s, mesh, inv, prediction)).toBe(true);
    expect(m2.count).toBeGreaterThanOrEqual(1);
    const back = iso.transformVector(vec3.create(), pose, m2.normal);
    expect(Math.abs(vec3.dot(back, m.normal))).toBeGreaterThan(1 - 1e-6);
  } else {
    expect(manifoldPair(makeContactManifold(), mesh, s, pose, prediction)).toBe(false);
  }
}

function poseNear(rng: () => number, q: Isometry["rotation"], spread: number): Isometry {
  return {
    translation: vec3.create(
      (rng() - 0.5) * spread,
      (rng() - 0.5) * spread,
      (rng() - 0.5) * spread,
    ),
    rotation: q,
  };
}

describe("mesh–convex through the composite mid-phase, against brute force", () => {
  it("a random soup, every query, both orders", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 0, max: shapes.length - 1 }),
        unitQuat,
        (seed, k, q) => {
          const rng = makeRandom(seed);
          const mesh = randomSoup(rng, 30, 5, 2);
          checkMeshConvex(mesh, shapes[k], poseNear(rng, q, 5), 1);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a flat grid with internal edges: face normals on the seams, depths as brute force", () => {
    const grid = flatGrid(4, 1);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: shapes.length - 1 }),
        unitQuat,
        // Over the seams: x and y on grid lines or anywhere; z from just above to inside.
        fc.constantFrom(1, 2, 3, 1.5, 2.25),
        fc.constantFrom(1, 2, 3, 0.5, 2.75),
        fc.double({ min: -0.3, max: 0.8, noNaN: true }),
        (k, q, x, y, z) => {
          const pose = { translation: vec3.create(x, y, z), rotation: q };
          checkMeshConvex(grid, shapes[k], pose, 1);
          const c = makeContact();
          if (contactPair(c, grid, shapes[k], pose, 0) && c.distance < -1e-9) {
            // Inside the grid, away from its border: the face normal ±z (never an edge's tilt).
            expect(Math.abs(c.normal.z)).toBeGreaterThan(1 - 1e-12);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("touching: a sphere tangent to a grid touches; lifted by a small gap it does not", () => {
    const grid = flatGrid(4, 1);
    const sphere = makeSphere(0.5);
    for (const [x, y] of [
      [1, 1],
      [1.5, 2],
      [2.3, 2.7],
      [3, 1.5],
    ]) {
      const pose = iso.create(vec3.create(x, y, 0.5));
      expect(intersectsPair(grid, sphere, pose)).toBe(true);
      expect(distancePair(makeDistanceResult(), grid, sphere, pose).distance).toBe(0);
      const lifted = iso.create(vec3.create(x, y, 0.5 + 1e-6));
      expect(intersectsPair(grid, sphere, lifted)).toBe(false);
      expect(
        Math.abs(distancePair(makeDistanceResult(), grid, sphere, lifted).distance - 1e-6),
      ).toBeLessThan(1e-12);
    }
  });

  it("coplanar: a cuboid face flush on the grid touches with distance 0 and normal ±z", () => {
    const grid = flatGrid(4, 1);
    const box = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
    for (const [x, y] of [
      [1, 1],
      [2, 1.5],
      [1.7, 2.2],
    ]) {
      const pose = iso.create(vec3.create(x, y, 0.5));
      expect(intersectsPair(grid, box, pose)).toBe(true);
      const c = makeContact();
      expect(contactPair(c, grid, box, pose, 0.01)).toBe(true);
      expect(Math.abs(c.distance)).toBeLessThan(1e-9);
      expect(Math.abs(c.normal.z)).toBeCloseTo(1, 9);
      const m = makeContactManifold();
      expect(manifoldPair(m, grid, box, pose, 0.01)).toBe(true);
      expect(m.count).toBe(4);
    }
  });
});

describe("mesh–compound through the composite mid-phase, against brute force", () => {
  it("distance, intersects and contact depth are the best child × triangle's, both orders", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), unitQuat, unitQuat, (seed, q, qc) => {
        const rng = makeRandom(seed);
        const mesh = randomSoup(rng, 20, 4, 1.5);
        const children = [0, 1, 2].map((i) => ({
          shape: shapes[(i + seed) % shapes.length],
          pose: {
            translation: vec3.create(rng() * 2 - 1, rng() * 2 - 1, rng() * 2 - 1),
            rotation: i === 1 ? qc : iso.identity().rotation,
          },
        }));
        const compound = makeCompound(children);
        const pose = poseNear(rng, q, 4);
        // Brute force: every child against every triangle (in the mesh's frame).
        let dist = Infinity;
        let any = false;
        let deepest = Infinity;
        const dr = makeDistanceResult();
        for (const ch of children) {
          const chPose = iso.multiply(iso.identity(), pose, ch.pose);
          const o = bruteMeshConvex(mesh, ch.shape, chPose, 0.05);
          dist = Math.min(dist, o.dist);
          any ||= o.any;
          if (o.deepest) deepest = Math.min(deepest, o.deepest.distance);
        }
        const tol = 1e-6;
        const inv = iso.invert(iso.identity(), pose);
        expect(Math.abs(distancePair(dr, mesh, compound, pose).distance - dist)).toBeLessThan(tol);
        expect(Math.abs(distancePair(dr, compound, mesh, inv).distance - dist)).toBeLessThan(tol);
        const hit = intersectsPair(compound, mesh, inv);
        if (dist > tol) expect(hit).toBe(false);
        if (any) expect(hit).toBe(true);
        const c = makeContact();
        const found = contactPair(c, mesh, compound, pose, 0.05);
        expect(found).toBe(deepest < Infinity);
        if (found) expect(Math.abs(c.distance - deepest)).toBeLessThan(tol);
        if (found)
          expect(manifoldPair(makeContactManifold(), compound, mesh, inv, 0.05)).toBe(true);
      }),
      { numRuns: 80 },
    );
  });
});

describe("heightfield–mesh through the composite mid-phase, against brute force", () => {
  it("distance and intersects are the best cell triangle × mesh triangle's", () => {
    const rows = 6;
    const cols = 7;
    const heights = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) heights[r * cols + c] = 0.4 * Math.sin(r * 0.9 + c * 0.5);
    const hf = makeHeightfield({ rows, cols, heights, scale: { x: 0.5, y: 1, z: 0.5 } });
    const cells: Triangle[] = [];
    for (let i = 0; i < 2 * heightfieldCellCount(hf); i++) {
      const a = vec3.create();
      const b = vec3.create();
      const c = vec3.create();
      getHeightfieldTriangle(hf, i, a, b, c);
      cells.push(makeTriangle(a, b, c));
    }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), unitQuat, (seed, q) => {
        const rng = makeRandom(seed);
        const mesh = randomSoup(rng, 8, 1.5, 0.8);
        const pose = {
          translation: vec3.create(0.5 + rng() * 2, (rng() - 0.5) * 1.5, 0.5 + rng() * 2),
          rotation: q,
        };
        let dist = Infinity;
        let any = false;
        const dr = makeDistanceResult();
        for (let t = 0; t < mesh.triangleCount; t++) {
          const tri = triangleOf(mesh, t);
          for (const cell of cells) {
            dist = Math.min(dist, distanceConvexConvex(dr, cell, tri, pose).distance);
            if (intersectsConvexConvex(cell, tri, pose)) any = true;
          }
        }
        const tol = 1e-6;
        const inv = iso.invert(iso.identity(), pose);
        expect(Math.abs(distancePair(dr, hf, mesh, pose).distance - dist)).toBeLessThan(tol);
        expect(Math.abs(distancePair(dr, mesh, hf, inv).distance - dist)).toBeLessThan(tol);
        const hit = intersectsPair(hf, mesh, pose);
        expect(intersectsPair(mesh, hf, inv)).toBe(hit);
        if (dist > tol) expect(hit).toBe(false);
        if (any) expect(hit).toBe(true);
        const c = makeContact();
        const found = contactPair(c, hf, mesh, pose, 0.05);
        expect(found).toBe(dist <= 0.05 + tol || any);
        if (found && dist > tol) expect(Math.abs(c.distance - dist)).toBeLessThan(tol);
      }),
      { numRuns: 60 },
    );
  });
});

describe("mesh–mesh against brute force over triangle pairs", () => {
  function brutePairs(a: TriangleMesh, b: TriangleMesh, pose: Isometry) {
    let dist = Infinity;
    let deepest = Infinity;
    const dr = makeDistanceResult();
    const c = makeContact();
    for (let i = 0; i < a.triangleCount; i++) {
      const ta = triangleOf(a, i);
      for (let j = 0; j < b.triangleCount; j++) {
        const tb = triangleOf(b, j);
        const tbA = makeTriangle(
          iso.transformPoint(vec3.create(), pose, tb.a),
          iso.transformPoint(vec3.create(), pose, tb.b),
          iso.transformPoint(vec3.create(), pose, tb.c),
        );
        dist = Math.min(dist, distanceConvexConvex(dr, ta, tbA, iso.identity()).distance);
        if (contactConvexConvex(c, ta, tbA, iso.identity(), 0.05))
          deepest = Math.min(deepest, c.distance);
      }
    }
    return { dist, deepest };
  }

  it("distance and contact depth, random soups, both orders", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), unitQuat, (seed, q) => {
        const rng = makeRandom(seed);
        const a = randomSoup(rng, 15, 3, 1.2);
        const b = randomSoup(rng, 15, 3, 1.2);
        const pose = poseNear(rng, q, 3);
        const o = brutePairs(a, b, pose);
        const tol = 1e-6;
        const dr = makeDistanceResult();
        expect(Math.abs(distancePair(dr, a, b, pose).distance - o.dist)).toBeLessThan(tol);
        const inv = iso.invert(iso.identity(), pose);
        expect(Math.abs(distancePair(dr, b, a, inv).distance - o.dist)).toBeLessThan(tol);
        if (o.dist > tol) expect(intersectsPair(a, b, pose)).toBe(false);
        const c = makeContact();
        const found = contactPair(c, a, b, pose, 0.05);
        expect(found).toBe(o.deepest < Infinity);
        if (found) expect(Math.abs(c.distance - o.deepest)).toBeLessThan(tol);
        if (found) expect(manifoldPair(makeContactManifold(), a, b, pose, 0.05)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("coplanar grids touch; lifted apart they are at the gap", () => {
    const a = flatGrid(3, 1);
    const b = flatGrid(2, 1);
    for (const [x, y] of [
      [0.5, 0.5],
      [1, 1],
      [0.3, 1.7],
    ]) {
      const pose = iso.create(vec3.create(x, y, 0));
      expect(intersectsPair(a, b, pose)).toBe(true);
      expect(distancePair(makeDistanceResult(), a, b, pose).distance).toBe(0);
      const lifted = iso.create(vec3.create(x, y, 1e-3));
      expect(intersectsPair(a, b, lifted)).toBe(false);
      expect(
        Math.abs(distancePair(makeDistanceResult(), a, b, lifted).distance - 1e-3),
      ).toBeLessThan(1e-12);
    }
  });
});
