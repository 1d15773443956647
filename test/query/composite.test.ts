/**
 * The one composite path (src/narrowphase/composite.ts, the composite paths of src/query/) and
 * the holes it closes (issue 14): castShapes against meshes, compounds and half-spaces, ray
 * casts and point projections on compounds, compounds against meshes in every pair query, and
 * half-space × half-space in every query.
 *
 * Oracles, independent of the composite code:
 * - casts: under a linear motion the signed gap of two convex sets is a convex function of time
 *   (the signed distance of a point moving on a line to the Minkowski difference), so each
 *   convex part's first contact is found by ternary search for the minimum and bisection for
 *   the first root, on the public `contact` of the part alone; the composite's time of impact
 *   is the minimum over its parts (brute force over every triangle or child);
 * - ray casts and projections: the minimum over the children, each cast or projected alone at
 *   its world pose;
 * - pair queries: the minimum over the children (contact, distance) and "any child" (intersects);
 * - half-spaces: hand-derived closed forms.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes, castShapesNonlinear } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import {
  type Compound,
  getMeshTriangle,
  makeCapsule,
  makeCompound,
  makeCuboid,
  makeHalfSpace,
  makeSphere,
  makeTriangle,
  type TriangleMesh,
} from "../../src/shapes/index.js";
import type { ConvexShape, Shape } from "../../src/shapes/shape.js";
import { randomSoup } from "../mesh/helpers.js";
import { num, pose, unitQuat, vec } from "../oracles/arbitraries.js";

const TOI_TOLERANCE = 1e-6;
const AMBIGUOUS_GAP = 1e-4;

/** Signed gap of `a` at pa + t·va and `b` at pb (public `contact`, unbounded prediction). */
function gapAt(a: Shape, pa: Isometry, va: Vec3, b: Shape, pb: Isometry, t: number): number {
  const moved = iso.create(vec3.addScaled(vec3.create(), pa.translation, va, t), pa.rotation);
  return (contact(a, moved, b, pb, Infinity) as { distance: number }).distance;
}

/** First root of a convex gap over [0, maxT] by ternary search + bisection, or null. */
function firstContact(g: (t: number) => number, maxT: number): { toi: number | null; min: number } {
  let lo = 0;
  let hi = maxT;
  for (let i = 0; i < 120; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (g(m1) <= g(m2)) hi = m2;
    else lo = m1;
  }
  let tMin = (lo + hi) / 2;
  if (g(0) <= g(tMin)) tMin = 0;
  const min = g(tMin);
  if (min > 0) return { toi: null, min };
  if (g(0) <= 0) return { toi: 0, min };
  let a = 0;
  let b = tMin;
  for (let i = 0; i < 120; i++) {
    const m = (a + b) / 2;
    if (g(m) > 0) a = m;
    else b = m;
  }
  return { toi: b, min };
}

/** The parts of a composite as convex shapes with world poses (brute force, allocates). */
function partsOf(s: Mesh | Compound, at: Isometry): { shape: ConvexShape; pose: Isometry }[] {
  if ("children" in s) {
    return s.children.map((c) => ({
      shape: c.shape,
      pose: iso.multiply(iso.identity(), at, c.pose),
    }));
  }
  const out: { shape: ConvexShape; pose: Isometry }[] = [];
  for (let t = 0; t < s.triangleCount; t++) {
    const a = vec3.create();
    const b = vec3.create();
    const c = vec3.create();
    getMeshTriangle(s, t, a, b, c);
    out.push({ shape: makeTriangle(a, b, c), pose: at });
  }
  return out;
}
type Mesh = TriangleMesh;

/** Oracle time of impact of convex `a` moving against every part of composite `b`. */
function compositeToi(
  a: ConvexShape,
  pa: Isometry,
  va: Vec3,
  b: Mesh | Compound,
  pb: Isometry,
  maxT: number,
): { toi: number | null; ambiguous: boolean } {
  let best: number | null = null;
  let ambiguous = false;
  for (const p of partsOf(b, pb)) {
    const r = firstContact((t) => gapAt(a, pa, va, p.shape, p.pose, t), maxT);
    if (Math.abs(r.min) < AMBIGUOUS_GAP) ambiguous = true;
    if (r.toi !== null && (best === null || r.toi < best)) best = r.toi;
  }
  return { toi: best, ambiguous };
}

const convexArb: fc.Arbitrary<ConvexShape> = fc.oneof(
  num(0.1, 0.6).map((r) => makeSphere(r) as ConvexShape),
  vec(0.05, 0.5).map((h) => makeCuboid(h) as ConvexShape),
  fc
    .tuple(vec(-0.3, 0.3), vec(-0.3, 0.3), num(0.05, 0.3))
    .map(([a, b, r]) => makeCapsule(a, b, r) as ConvexShape),
);

const compoundArb: fc.Arbitrary<Compound> = fc
  .array(fc.tuple(convexArb, pose(-1.5, 1.5)), { minLength: 1, maxLength: 4 })
  .map((cs) => makeCompound(cs.map(([shape, p]) => ({ shape, pose: p }))));

describe("castShapes against composites and half-spaces", () => {
  it("a convex shape against a triangle soup: the earliest triangle's first contact", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        convexArb,
        vec(-4, 4),
        unitQuat,
        vec(-6, 6),
        (seed, a, from, q, v) => {
          const mesh = randomSoup(makeRandom(seed), 12, 4, 1.5);
          const pa = iso.create(from, q);
          const pb = iso.identity();
          const oracle = compositeToi(a, pa, v, mesh, pb, 1);
          if (oracle.ambiguous) return;
          const got = castShapes(a, pa, v, mesh, pb, vec3.create(), 1);
          if (oracle.toi === null) expect(got).toBeNull();
          else {
            expect(got).not.toBeNull();
            expect(Math.abs((got?.toi ?? -1) - oracle.toi)).toBeLessThan(TOI_TOLERANCE);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a convex shape against a compound, in both orders", () => {
    fc.assert(
      fc.property(compoundArb, convexArb, vec(-4, 4), unitQuat, vec(-6, 6), (b, a, from, q, v) => {
        const pa = iso.create(from, q);
        const pb = iso.identity();
        const oracle = compositeToi(a, pa, v, b, pb, 1);
        if (oracle.ambiguous) return;
        const got = castShapes(a, pa, v, b, pb, vec3.create(), 1);
        const flipped = castShapes(b, pb, vec3.create(), a, pa, v, 1);
        if (oracle.toi === null) {
          expect(got).toBeNull();
          expect(flipped).toBeNull();
          return;
        }
        expect(Math.abs((got?.toi ?? -1) - oracle.toi)).toBeLessThan(TOI_TOLERANCE);
        expect(Math.abs((flipped?.toi ?? -1) - oracle.toi)).toBeLessThan(TOI_TOLERANCE);
        if (got && flipped) {
          expect(
            vec3.distance(got.normal, vec3.negate(vec3.create(), flipped.normal)),
          ).toBeLessThan(1e-6);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("a compound against a triangle soup: the earliest child × triangle", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        compoundArb,
        vec(-4, 4),
        vec(-6, 6),
        (seed, a, from, v) => {
          const mesh = randomSoup(makeRandom(seed), 8, 4, 1.5);
          const pa = iso.create(from, { x: 0, y: 0, z: 0, w: 1 });
          let best: number | null = null;
          for (const c of a.children) {
            const cp = iso.multiply(iso.identity(), pa, c.pose);
            const r = compositeToi(c.shape, cp, v, mesh, iso.identity(), 1);
            if (r.ambiguous) return;
            if (r.toi !== null && (best === null || r.toi < best)) best = r.toi;
          }
          const got = castShapes(a, pa, v, mesh, iso.identity(), vec3.create(), 1);
          if (best === null) expect(got).toBeNull();
          else expect(Math.abs((got?.toi ?? -1) - best)).toBeLessThan(TOI_TOLERANCE);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("a convex shape against a half-space: the hand-derived time, linear and rotating", () => {
    const ground = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0);
    const ball = makeSphere(0.5);
    // The sphere's bottom (y − 0.5) reaches y = 0 when 3 − 2t − 0.5 = 0: t = 1.25.
    const hit = castShapes(
      ball,
      iso.create({ x: 1, y: 3, z: 0 }),
      { x: 0, y: -2, z: 0 },
      ground,
      iso.identity(),
      vec3.create(),
      2,
    );
    expect(hit?.toi).toBeCloseTo(1.25, 9);
    expect(hit?.normal.y).toBeCloseTo(-1, 12);
    expect(
      castShapes(
        ground,
        iso.identity(),
        vec3.create(),
        ball,
        iso.create({ x: 1, y: 3, z: 0 }),
        { x: 0, y: -2, z: 0 },
        1,
      ),
    ).toBeNull();
    // Keyframes: the same fall over t ∈ [0, 1] with a spin about y (no effect on a sphere).
    const spin = { x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 };
    const r = castShapesNonlinear(
      ball,
      iso.create({ x: 1, y: 3, z: 0 }),
      iso.create({ x: 1, y: -1, z: 0 }, spin),
      ground,
      iso.identity(),
      iso.identity(),
    );
    expect(r?.toi).toBeCloseTo(2.5 / 4, 6);
  });

  it("two half-spaces: facing across a gap meet when the gap closes; crossing ones touch at 0", () => {
    const up = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0);
    const down = makeHalfSpace({ x: 0, y: -1, z: 0 }, 0);
    const hit = castShapes(
      up,
      iso.identity(),
      vec3.create(),
      down,
      iso.create({ x: 0, y: 3, z: 0 }),
      { x: 0, y: -1, z: 0 },
      10,
    );
    expect(hit?.toi).toBeCloseTo(3, 9);
    const side = makeHalfSpace({ x: 1, y: 0, z: 0 }, 0);
    expect(
      castShapes(
        up,
        iso.identity(),
        vec3.create(),
        side,
        iso.create({ x: 5, y: 0, z: 0 }),
        vec3.create(),
        1,
      )?.toi,
    ).toBe(0);
  });
});

describe("raycast and projectPoint on compounds", () => {
  it("the ray hits the compound where it hits its nearest child", () => {
    fc.assert(
      fc.property(
        compoundArb,
        pose(-2, 2),
        vec(-5, 5),
        vec(-1, 1),
        fc.boolean(),
        (c, p, o, d, solid) => {
          if (vec3.length(d) < 1e-3) return;
          let best: number | null = null;
          for (const ch of c.children) {
            const h = raycast(ch.shape, iso.multiply(iso.identity(), p, ch.pose), o, d, 10, solid);
            if (h && (best === null || h.toi < best)) best = h.toi;
          }
          const got = raycast(c, p, o, d, 10, solid);
          if (best === null) expect(got).toBeNull();
          else expect(Math.abs((got?.toi ?? -1) - best)).toBeLessThan(1e-9 * (1 + best));
        },
      ),
      { numRuns: 80 },
    );
  });

  it("the projection is the nearest child's; inside when inside some child", () => {
    fc.assert(
      fc.property(compoundArb, pose(-2, 2), vec(-4, 4), (c, p, q) => {
        let best = Infinity;
        let inside = false;
        for (const ch of c.children) {
          const r = projectPoint(ch.shape, iso.multiply(iso.identity(), p, ch.pose), q, true);
          inside ||= r.inside;
          best = Math.min(best, r.distance);
        }
        const got = projectPoint(c, p, q, true);
        expect(got.inside).toBe(inside);
        expect(got.distance).toBeCloseTo(inside ? 0 : best, 9);
        expect(vec3.distance(got.point, q)).toBeCloseTo(got.distance, 9);
      }),
      { numRuns: 80 },
    );
  });
});

describe("compound × mesh pair queries (one composite path)", () => {
  it("intersects, contact and distance are the best child's against the mesh", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), compoundArb, pose(-2, 2), (seed, c, p) => {
        const mesh = randomSoup(makeRandom(seed), 10, 4, 1.5);
        const pm = iso.identity();
        let any = false;
        let bestD = Infinity;
        let bestSigned = Infinity;
        for (const ch of c.children) {
          const cp = iso.multiply(iso.identity(), p, ch.pose);
          any ||= intersects(ch.shape, cp, mesh, pm);
          bestD = Math.min(bestD, distance(ch.shape, cp, mesh, pm).distance);
          const k = contact(ch.shape, cp, mesh, pm, 1);
          if (k) bestSigned = Math.min(bestSigned, k.distance);
        }
        expect(intersects(c, p, mesh, pm)).toBe(any);
        expect(intersects(mesh, pm, c, p)).toBe(any);
        expect(distance(c, p, mesh, pm).distance).toBeCloseTo(bestD, 9);
        const k = contact(mesh, pm, c, p, 1);
        if (bestSigned === Infinity) expect(k).toBeNull();
        else expect(k?.distance).toBeCloseTo(bestSigned, 9);
        const m = manifold(c, p, mesh, pm, 1);
        expect(m === null).toBe(bestSigned === Infinity);
      }),
      { numRuns: 25 },
    );
  });
});

describe("half-space × half-space in every query", () => {
  const up = makeHalfSpace({ x: 0, y: 1, z: 0 }, 1); // y ≤ 1
  const down = makeHalfSpace({ x: 0, y: -1, z: 0 }, 0); // y ≥ 0 before moving
  it("facing slabs: signed gap, normal and witnesses by hand", () => {
    // B at y = 3: B is y ≥ 3, A is y ≤ 1, gap 2.
    const pb = iso.create({ x: 0, y: 3, z: 0 }, { x: 0, y: 0, z: 0, w: 1 });
    expect(intersects(up, iso.identity(), down, pb)).toBe(false);
    const d = distance(up, iso.identity(), down, pb);
    expect(d.distance).toBe(2);
    expect(d.pointA).toEqual({ x: 0, y: 1, z: 0 });
    expect(d.pointB).toEqual({ x: 0, y: 3, z: 0 });
    expect(contact(up, iso.identity(), down, pb, 1)).toBeNull();
    const k = contact(up, iso.identity(), down, pb, 5);
    expect(k?.distance).toBe(2);
    expect(k?.normal).toEqual({ x: 0, y: 1, z: 0 });
    const m = manifold(down, pb, up, iso.identity(), 5);
    expect(m?.points[0].distance).toBe(2);
    expect(m?.normal.y).toBe(-1);
    // Overlapping slab: B at y = 0.25 is y ≥ 0.25; overlap 0.75.
    const k2 = contact(
      up,
      iso.identity(),
      down,
      iso.create({ x: 0, y: 0.25, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }),
      0,
    );
    expect(k2?.distance).toBe(-0.75);
  });

  it("crossing planes: intersecting, distance 0 at a common point, unbounded depth", () => {
    const side = makeHalfSpace({ x: 1, y: 0, z: 0 }, 2); // x ≤ 2
    const d = distance(up, iso.identity(), side, iso.identity());
    expect(d.distance).toBe(0);
    expect(d.pointA.x).toBeCloseTo(2, 12);
    expect(d.pointA.y).toBeCloseTo(1, 12);
    const k = contact(up, iso.identity(), side, iso.identity(), 0);
    expect(k?.distance).toBe(-Number.MAX_VALUE);
    expect(intersects(up, iso.identity(), side, iso.identity())).toBe(true);
    expect(manifold(up, iso.identity(), side, iso.identity(), 0)?.count).toBe(1);
    // The normal is (n_A − n_B)/|n_A − n_B| = (−1, 1, 0)/√2 by hand; swapped, its negation.
    expect(k?.normal.x).toBeCloseTo(-Math.SQRT1_2, 15);
    expect(k?.normal.y).toBeCloseTo(Math.SQRT1_2, 15);
    const kf = contact(side, iso.identity(), up, iso.identity(), 0);
    expect(kf?.normal.x).toBeCloseTo(Math.SQRT1_2, 15);
    expect(kf?.normal.y).toBeCloseTo(-Math.SQRT1_2, 15);
    // Nested (equal normals): y ≤ 1 inside y ≤ 3: n_A for the inner A, −n_A swapped.
    const outer = makeHalfSpace({ x: 0, y: 1, z: 0 }, 3);
    expect(contact(up, iso.identity(), outer, iso.identity(), 0)?.normal.y).toBe(1);
    expect(contact(outer, iso.identity(), up, iso.identity(), 0)?.normal.y).toBe(-1);
    expect(raycast(up, iso.identity(), { x: 0, y: 5, z: 0 }, { x: 0, y: -1, z: 0 }, 10)?.toi).toBe(
      4,
    );
    expect(projectPoint(up, iso.identity(), { x: 0, y: 5, z: 0 }).distance).toBe(4);
  });
});
