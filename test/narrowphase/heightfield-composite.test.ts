/**
 * A heightfield against the other composites (triangle mesh, compound, heightfield), every
 * operation through the pair table, both argument orders, against brute force over every part
 * pair: the field's triangles (holes skipped) × the other's parts (a mesh's or field's triangles
 * moved into the field's frame, a compound's children at their poses), each pair asked of the
 * convex routines (GJK/EPA, knowing nothing of trees or of the composite path).
 *
 * The right answer (the composite path's documented rule, src/narrowphase/composite.ts):
 * - intersects: some part pair intersects (none of these shapes is solid);
 * - distance: the least part-pair distance (0 when some pair meets);
 * - contact within a prediction: the part pair with the least signed distance; its normal one of
 *   the pairs' at that distance (seen from the field, toward the other). Internal edges: a field
 *   triangle against a compound's child (a surface against a solid kind) takes the library's one
 *   rule (`fixInternalEdgeContact`, face-depth.ts) on each pair; two surfaces (field × mesh,
 *   field × field) fix none, as mesh × mesh — the field is a mesh of its triangles.
 * - manifold: found exactly when contact is, with the contact's normal and its deepest point
 *   within the prediction (clipped points are measured along that normal, so need not match
 *   the contact's depth).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Random } from "../../src/math/random.js";
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
import type { Compound } from "../../src/shapes/compound.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Heightfield } from "../../src/shapes/heightfield.js";
import {
  getHeightfieldTriangle,
  heightfieldCellCount,
  heightfieldEdgeFlags,
  isHeightfieldHole,
  makeHeightfield,
} from "../../src/shapes/heightfield.js";
import type { ConvexShape, Shape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import type { Triangle } from "../../src/shapes/triangle.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { getMeshTriangle } from "../../src/shapes/triangle-mesh.js";
import { cubeMesh, flatGrid, randomSoup } from "../mesh/helpers.js";
import { unitQuat } from "../oracles/arbitraries.js";

function randomField(rng: Random): Heightfield {
  const rows = 2 + Math.floor(rng() * 5);
  const cols = 2 + Math.floor(rng() * 5);
  const heights: number[] = [];
  // Some fields flat in patches (internal edges with coplanar neighbours), some rough.
  const rough = rng() < 0.5 ? 0.6 : 0.15;
  for (let k = 0; k < rows * cols; k++) heights.push(rng() < 0.3 ? 0 : rough * (rng() - 0.5));
  const cells = (rows - 1) * (cols - 1);
  const holes: boolean[] = [];
  for (let k = 0; k < cells; k++) holes.push(k > 0 && rng() < 0.15);
  return makeHeightfield({
    rows,
    cols,
    heights,
    scale: { x: 0.3 + 0.3 * rng(), y: 1, z: 0.3 + 0.3 * rng() },
    holes,
  });
}

function randomCompound(rng: Random): Compound {
  const kids = [];
  const n = 1 + Math.floor(rng() * 4);
  for (let i = 0; i < n; i++) {
    const k = Math.floor(rng() * 3);
    const shape: ConvexShape =
      k === 0
        ? makeSphere(0.1 + 0.3 * rng())
        : k === 1
          ? makeCuboid({ x: 0.1 + 0.3 * rng(), y: 0.1 + 0.3 * rng(), z: 0.1 + 0.3 * rng() })
          : makeCapsule({ x: 0, y: -0.2, z: 0 }, { x: 0, y: 0.2, z: 0 }, 0.1 + 0.2 * rng());
    const q = { x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5, w: rng() - 0.5 };
    const m = Math.hypot(q.x, q.y, q.z, q.w);
    kids.push({
      shape,
      pose: {
        translation: { x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5 },
        rotation: { x: q.x / m, y: q.y / m, z: q.z / m, w: q.w / m },
      },
    });
  }
  return makeCompound(kids);
}

function randomMesh(rng: Random): TriangleMesh {
  return rng() < 0.5 ? randomSoup(rng, 1 + Math.floor(rng() * 8), 1.2, 0.8) : cubeMesh(0.8);
}

function tri(): Triangle {
  return { type: ShapeType.Triangle, a: vec3.create(), b: vec3.create(), c: vec3.create() };
}

/** A part of the field's frame: a convex shape at a pose, and the field's edge flags when a field triangle. */
interface Part {
  shape: ConvexShape;
  pose: Isometry;
}

/** The field's triangles (holes skipped) with their edge flags. */
function fieldTriangles(hf: Heightfield): { t: Triangle; flags: number }[] {
  const out = [];
  for (let cell = 0; cell < heightfieldCellCount(hf); cell++) {
    if (isHeightfieldHole(hf, cell)) continue;
    for (const i of [2 * cell, 2 * cell + 1]) {
      const t = tri();
      getHeightfieldTriangle(hf, i, t.a, t.b, t.c);
      out.push({ t, flags: heightfieldEdgeFlags(hf, i) });
    }
  }
  return out;
}

function moved(t: Triangle, pose: Isometry): Triangle {
  const m = tri();
  iso.transformPoint(m.a, pose, t.a);
  iso.transformPoint(m.b, pose, t.b);
  iso.transformPoint(m.c, pose, t.c);
  return m;
}

/** The other shape's parts in the field's frame (the other at `pose`), and whether it is a surface. */
function otherParts(s: Shape, pose: Isometry): { parts: Part[]; surface: boolean } {
  const I = iso.identity();
  if (s.type === ShapeType.Compound) {
    return {
      parts: (s as Compound).children.map((c) => ({
        shape: c.shape as ConvexShape,
        pose: iso.multiply(iso.identity(), pose, c.pose),
      })),
      surface: false,
    };
  }
  if (s.type === ShapeType.Heightfield) {
    return {
      parts: fieldTriangles(s as Heightfield).map(({ t }) => ({ shape: moved(t, pose), pose: I })),
      surface: true,
    };
  }
  const mesh = s as TriangleMesh;
  const parts: Part[] = [];
  for (let k = 0; k < mesh.indices.length / 3; k++) {
    const t = tri();
    getMeshTriangle(mesh, k, t.a, t.b, t.c);
    parts.push({ shape: moved(t, pose), pose: I });
  }
  return { parts, surface: true };
}

interface Brute {
  hit: boolean;
  distance: number;
  /** Every part-pair contact within the prediction (field's frame, from the field toward the other). */
  contacts: Contact[];
  deepest: number;
}

function brute(hf: Heightfield, other: Shape, pose: Isometry, prediction: number): Brute {
  const { parts, surface } = otherParts(other, pose);
  const d = makeDistanceResult();
  let hit = false;
  let distance = Infinity;
  let deepest = Infinity;
  const contacts: Contact[] = [];
  for (const { t, flags } of fieldTriangles(hf)) {
    for (const p of parts) {
      if (intersectsConvexConvex(t, p.shape, p.pose)) hit = true;
      distance = Math.min(distance, distanceConvexConvex(d, t, p.shape, p.pose).distance);
      const c = makeContact();
      if (!contactConvexConvex(c, t, p.shape, p.pose, prediction)) continue;
      if (!surface && c.distance <= 0 && flags !== 7)
        fixInternalEdgeContact(c, t, flags, p.shape, p.pose);
      contacts.push(c);
      deepest = Math.min(deepest, c.distance);
    }
  }
  return { hit, distance, contacts, deepest };
}

const TOL = 1e-6;

/** Checks every operation of (hf, other) in both orders against the brute force. */
function check(
  hf: Heightfield,
  other: Shape,
  bInA: Isometry,
  prediction: number,
  normals = true,
): void {
  const want = brute(hf, other, bInA, prediction);
  const aInB = iso.invert(iso.identity(), bInA);
  for (const fieldFirst of [true, false]) {
    const [x, y, p] = fieldFirst ? [hf, other, bInA] : [other, hf, aInB];
    expect(intersectsPair(x, y, p)).toBe(want.hit);
    const d = distancePair(makeDistanceResult(), x, y, p);
    expect(Math.abs(d.distance - (want.hit ? 0 : want.distance))).toBeLessThanOrEqual(TOL);
    const c = makeContact();
    const found = contactPair(c, x, y, p, prediction);
    expect(found).toBe(want.contacts.length > 0);
    if (!found) continue;
    expect(Math.abs(c.distance - want.deepest)).toBeLessThanOrEqual(TOL);
    // The normal in the field's frame, from the field toward the other.
    const n = vec3.clone(c.normal);
    if (!fieldFirst) {
      iso.transformVector(n, bInA, n);
      vec3.negate(n, n);
    }
    // Touching (depth 0) two surfaces coplanar: no side is A's, either sign of a tied pair's
    // normal is right.
    const touching = Math.abs(want.deepest) <= TOL;
    const agrees = want.contacts.some(
      (w) =>
        Math.abs(w.distance - want.deepest) <= TOL &&
        (vec3.distance(w.normal, n) <= 1e-5 ||
          (touching && vec3.distance(w.normal, vec3.negate(vec3.create(), n)) <= 1e-5)),
    );
    if (normals) expect(agrees).toBe(true);
    const m = makeContactManifold();
    expect(manifoldPair(m, x, y, p, prediction)).toBe(true);
    expect(m.count).toBeGreaterThan(0);
    // The manifold widens the contact (reference-face clipping; two surfaces merge the part
    // pairs that agree with it): the contact's normal, its deepest point within the prediction.
    expect(vec3.distance(m.normal, c.normal)).toBeLessThanOrEqual(1e-9);
    let least = Infinity;
    for (let k = 0; k < m.count; k++) least = Math.min(least, m.points[k].distance);
    expect(least).toBeLessThanOrEqual(prediction + TOL);
  }
}

/** A pose of the other shape over the field: above its cells, near its heights. */
function poseOver(hf: Heightfield, rng: Random, q: { x: number; y: number; z: number; w: number }) {
  const w = (hf.cols - 1) * hf.scale.x;
  const h = (hf.rows - 1) * hf.scale.z;
  return iso.create(
    vec3.create((1.4 * rng() - 0.2) * w, 1.2 * rng() - 0.6, (1.4 * rng() - 0.2) * h),
    q,
  );
}

/** fast-check options; HF_RUNS and HF_SEED widen a local sweep (the suite runs the defaults). */
function runs(n: number): fc.Parameters<unknown> {
  const seed = process.env.HF_SEED;
  return {
    numRuns: Number(process.env.HF_RUNS ?? n),
    ...(seed ? { seed: Number(seed) } : {}),
  };
}

const prediction = fc.constantFrom(0, 0, 0.05);

describe("heightfield × composite against brute force over part pairs", () => {
  it("heightfield × triangle mesh: every operation, both orders", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), unitQuat, prediction, (seed, q, pr) => {
        const rng = makeRandom(seed);
        const hf = randomField(rng);
        const mesh = randomMesh(rng);
        check(hf, mesh, poseOver(hf, rng, q), pr);
      }),
      runs(150),
    );
  });

  it("heightfield × compound: every operation, both orders (the field's internal edges fixed)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), unitQuat, prediction, (seed, q, pr) => {
        const rng = makeRandom(seed);
        const hf = randomField(rng);
        const compound = randomCompound(rng);
        check(hf, compound, poseOver(hf, rng, q), pr);
      }),
      runs(150),
    );
  });

  it("heightfield × heightfield: every operation, both orders", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), unitQuat, prediction, (seed, q, pr) => {
        const rng = makeRandom(seed);
        const hf = randomField(rng);
        const other = randomField(rng);
        check(hf, other, poseOver(hf, rng, q), pr);
      }),
      runs(100),
    );
  });

  it("a box resting flat across the internal edges of a flat field: face normal, depth of the overlap", () => {
    // 3 × 3 cells of a flat field at y = 0; a compound's cube sunk 0.1 into it over the middle
    // vertex (every edge under it internal): the normal is the face's (0, 1, 0), depth 0.1.
    const hf = makeHeightfield({
      rows: 4,
      cols: 4,
      heights: new Array(16).fill(0),
      scale: { x: 1, y: 1, z: 1 },
    });
    const box = makeCompound([
      { shape: makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }), pose: iso.identity() },
    ]);
    const pose = iso.create(vec3.create(1.5, 0.4, 1.5));
    for (const [x, y, p] of [
      [hf, box, pose],
      [box, hf, iso.invert(iso.identity(), pose)],
    ] as const) {
      const c = makeContact();
      expect(contactPair(c, x, y, p, 0)).toBe(true);
      expect(c.distance).toBeCloseTo(-0.1, 9);
      expect(Math.abs(c.normal.y)).toBeCloseTo(1, 9);
    }
    check(hf, box, pose, 0);
  });
  it("adversarial: a flat grid mesh and a flat field coplanar or nearly, edges aligned or not", () => {
    // Flat 3 × 3 field at y = 0; a flat 2 × 2 grid mesh (cells 0.75) turned into y = dy, its
    // corners on the field's vertices (shift 0, 1) or its edges (0.5) or inside cells (0.25); the
    // field against itself shifted the same way. Gaps of 1e-12 are left out: GJK's intersects
    // (the oracle's) counts them as touching, distance does not.
    const hf = makeHeightfield({
      rows: 4,
      cols: 4,
      heights: new Array(16).fill(0),
      scale: { x: 1, y: 1, z: 1 },
    });
    const grid = flatGrid(2, 0.75);
    const s = Math.SQRT1_2;
    for (const dy of [0, 1e-6, -1e-6, 0.01, -0.01]) {
      for (const dx of [0, 0.25, 0.5, 1]) {
        for (const pr of [0, 0.05]) {
          // Exactly coplanar (dy = 0) every overlapping pair touches at depth 0 and which
          // touching pair's normal is taken is the composite tie rule's, not checked here.
          const normals = dy !== 0;
          const pose = iso.create(vec3.create(dx, dy, dx), { x: s, y: 0, z: 0, w: s });
          check(hf, grid, pose, pr, normals);
          check(hf, hf, iso.create(vec3.create(dx, dy, 0)), pr, normals);
        }
      }
    }
  });
});
