/**
 * World `castShape` with `ignoreInitialOverlap` against composite bodies (compound, triangle
 * mesh, heightfield) and composite casters (issue 16, attack 40 F1): a part (a child, a
 * triangle; for a composite caster a part pair) touching the caster at time 0 is ignored
 * entirely, and the answer — time of impact, normal and witness points — is the earliest cast
 * of the caster against one remaining part alone. The composite's whole-pair contact at the
 * time of impact had reported the ignored part still overlapping there (its normal and points
 * with the right toi). Oracles: hand-derived values, and brute force over the parts (each part
 * at its world pose, cast alone by the pair query `castShapes`, dropped when `intersects` says
 * it touches the caster at time 0).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { castShapes, type ShapeCastHit } from "../../src/query/cast-shapes.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { makeCompositePart } from "../../src/shapes/composite.js";
import {
  makeCapsule,
  makeCompound,
  makeCuboid,
  makeHeightfield,
  makeSphere,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { ConvexShape, Shape } from "../../src/shapes/shape.js";
import { compositeView } from "../../src/shapes/shape-def.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { castShape } from "../../src/world/cast-shape.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { unitQuatOf } from "../fuzz/arbitraries.js";
import { pose } from "../support/pose.js";

const X: Vec3 = { x: 1, y: 0, z: 0 };
const ZERO: Vec3 = { x: 0, y: 0, z: 0 };
const IGNORE = { ignoreInitialOverlap: true };

function worldOf(shape: Shape, at: Isometry = pose()): CollisionWorld {
  const w = new CollisionWorld();
  w.addBody({ shape, pose: at });
  w.step();
  return w;
}

function expectVec(v: Vec3 | undefined, x: number, y: number, z: number, tol = 1e-9): void {
  expect(v).toBeDefined();
  expect(Math.abs((v as Vec3).x - x)).toBeLessThan(tol);
  expect(Math.abs((v as Vec3).y - y)).toBeLessThan(tol);
  expect(Math.abs((v as Vec3).z - z)).toBeLessThan(tol);
}

describe("ignoreInitialOverlap reports the part that is hit (hand-derived)", () => {
  it("compound: spheres r 1 at x 0 and 1.5; a sphere r 0.1 from the origin along +x meets the second at x 0.5", () => {
    const c = makeCompound([
      { shape: makeSphere(1), pose: pose(0) },
      { shape: makeSphere(1), pose: pose(1.5) },
    ]);
    const hit = castShape(worldOf(c), makeSphere(0.1), pose(), X, Infinity, IGNORE);
    // Caster centre at t: the second sphere's surface (1.5 − 1 = 0.5) minus 0.1 → t = 0.4.
    expect(hit?.toi).toBeCloseTo(0.4, 9);
    expectVec(hit?.normal, 1, 0, 0);
    expectVec(hit?.pointA, 0.5, 0, 0);
    expectVec(hit?.pointB, 0.5, 0, 0);
  });

  it("surface box mesh: a sphere r 0.2 overlapping the bottom face slides into the +x face", () => {
    const V = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1];
    const I = [
      0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0,
      4, 7, 0, 7, 3,
    ];
    const w = worldOf(makeTriangleMesh(V, I));
    const hit = castShape(w, makeSphere(0.2), pose(0, -0.9, 0), X, Infinity, IGNORE);
    // Centre x + 0.2 = 1 → t = 0.8; the point on the face x = 1 at the centre's height.
    expect(hit?.toi).toBeCloseTo(0.8, 9);
    expectVec(hit?.normal, 1, 0, 0);
    expectVec(hit?.pointA, 1, -0.9, 0);
    expectVec(hit?.pointB, 1, -0.9, 0);
  });

  it("heightfield: a sphere on a flat cell slides into a ramp of slope 5", () => {
    const hf = makeHeightfield({
      rows: 2,
      cols: 3,
      heights: [0, 0, 5, 0, 0, 5],
      scale: { x: 1, y: 1, z: 1 },
    });
    const hit = castShape(worldOf(hf), makeSphere(0.1), pose(0.5, 0.05, 0.5), X, Infinity, IGNORE);
    // The ramp's plane y = 5(x − 1), normal from the caster toward it (5, −1, 0)/√26; the centre
    // (cx, 0.05) is r from it when 5(1 − cx) + 0.05 = 0.1·√26.
    const s = Math.sqrt(26);
    const cx = 1 - (0.1 * s - 0.05) / 5;
    expect(hit?.toi).toBeCloseTo(cx - 0.5, 9);
    expectVec(hit?.normal, 5 / s, -1 / s, 0);
    expectVec(hit?.pointA, cx + 0.5 / s, 0.05 - 0.1 / s, 0.5, 1e-8);
    expectVec(hit?.pointB, cx + 0.5 / s, 0.05 - 0.1 / s, 0.5, 1e-8);
  });

  it("a composite caster: a compound of two spheres, one inside the body's first child", () => {
    const body = makeCompound([
      { shape: makeSphere(1), pose: pose(0) },
      { shape: makeSphere(1), pose: pose(4) },
    ]);
    const caster = makeCompound([
      { shape: makeSphere(0.1), pose: pose(0) },
      { shape: makeSphere(0.2), pose: pose(0, 3) },
    ]);
    // The small sphere starts in the first child: its pair is ignored until it meets the second
    // child (x 3 − 0.1 → t 2.9); the other caster sphere (at y 3) misses both children: it
    // passes the second child at distance 3 > 1.2, so the answer is the small sphere's.
    const hit = castShape(worldOf(body), caster, pose(), X, Infinity, IGNORE);
    expect(hit?.toi).toBeCloseTo(2.9, 9);
    expectVec(hit?.normal, 1, 0, 0);
    expectVec(hit?.pointA, 3, 0, 0);
    expectVec(hit?.pointB, 3, 0, 0);
  });

  it("without the option the same casts still answer toi 0 with the contact at the start", () => {
    const c = makeCompound([
      { shape: makeSphere(1), pose: pose(0) },
      { shape: makeSphere(1), pose: pose(1.5) },
    ]);
    expect(castShape(worldOf(c), makeSphere(0.1), pose(), X, Infinity)?.toi).toBe(0);
  });
});

/** A composite body's parts at their world poses (the oracle's view of it). */
interface Parts {
  shape: Shape;
  parts: { shape: ConvexShape; pose: Isometry }[];
}

const coord = fc.double({ min: -2, max: 2, noNaN: true });
const point = fc.tuple(coord, coord, coord);

const child: fc.Arbitrary<ConvexShape> = fc.oneof(
  fc.double({ min: 0.1, max: 0.8, noNaN: true }).map((r) => makeSphere(r)),
  fc
    .tuple(
      fc.double({ min: 0.1, max: 0.6, noNaN: true }),
      fc.double({ min: 0.1, max: 0.6, noNaN: true }),
      fc.double({ min: 0.1, max: 0.6, noNaN: true }),
    )
    .map(([x, y, z]) => makeCuboid({ x, y, z })),
  fc
    .tuple(
      fc.double({ min: 0, max: 0.6, noNaN: true }),
      fc.double({ min: 0.1, max: 0.5, noNaN: true }),
    )
    .map(([h, r]) => makeCapsule({ x: 0, y: -h, z: 0 }, { x: 0, y: h, z: 0 }, r)),
);

const unitQuat = unitQuatOf(coord, 0.2);

const compound: fc.Arbitrary<Parts> = fc
  .array(fc.tuple(child, point, unitQuat), { minLength: 2, maxLength: 6 })
  .map((cs) => {
    const parts = cs.map(([s, [x, y, z], q]) => ({ shape: s, pose: pose(x, y, z, q) }));
    return { shape: makeCompound(parts), parts };
  });

const mesh: fc.Arbitrary<Parts> = fc
  .array(fc.tuple(point, point, point), { minLength: 2, maxLength: 10 })
  .filter((ts) =>
    ts.every(([a, b, c]) => {
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      return (
        Math.hypot(
          u[1] * v[2] - u[2] * v[1],
          u[2] * v[0] - u[0] * v[2],
          u[0] * v[1] - u[1] * v[0],
        ) > 0.05
      );
    }),
  )
  .map((ts) => {
    const v = ts.flatMap(([a, b, c]) => [...a, ...b, ...c]);
    const idx = ts.flatMap((_, k) => [3 * k, 3 * k + 1, 3 * k + 2]);
    const P = (k: number) => ({ x: v[3 * k], y: v[3 * k + 1], z: v[3 * k + 2] });
    return {
      shape: makeTriangleMesh(v, idx),
      parts: ts.map((_, k) => ({
        shape: makeTriangle(P(3 * k), P(3 * k + 1), P(3 * k + 2)) as ConvexShape,
        pose: iso.identity(),
      })),
    };
  });

/**
 * A heightfield of 3×3 samples; its parts (the cells' triangles) are read through its composite
 * view, the one place that defines how a cell is split (the oracle is about the per-part cast).
 */
const heightfield: fc.Arbitrary<Parts> = fc
  .array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 9, maxLength: 9 })
  .map((heights) => {
    const shape = makeHeightfield({ rows: 3, cols: 3, heights, scale: { x: 2, y: 1, z: 2 } });
    const view = compositeView(shape.type);
    if (view === null) throw new Error("heightfield has no composite view");
    const parts: Parts["parts"] = [];
    for (let i = 0; i < view.partCount(shape); i++) {
      const slot = makeCompositePart();
      view.part(slot, shape, i);
      const t = slot.shape as { a: Vec3; b: Vec3; c: Vec3 };
      parts.push({ shape: makeTriangle(t.a, t.b, t.c) as ConvexShape, pose: iso.identity() });
    }
    return { shape, parts };
  });

/** The caster: a sphere, or a two-sphere compound (then its parts are cast pair by pair). */
const caster: fc.Arbitrary<Parts> = fc.oneof(
  fc.double({ min: 0.05, max: 0.6, noNaN: true }).map((r) => {
    const s = makeSphere(r);
    return { shape: s, parts: [{ shape: s as ConvexShape, pose: iso.identity() }] };
  }),
  fc
    .tuple(
      fc.double({ min: 0.05, max: 0.4, noNaN: true }),
      point,
      fc.double({ min: 0.05, max: 0.4, noNaN: true }),
    )
    .map(([r1, [x, y, z], r2]) => {
      const parts = [
        { shape: makeSphere(r1) as ConvexShape, pose: iso.identity() },
        { shape: makeSphere(r2) as ConvexShape, pose: pose(x / 2, y / 2, z / 2) },
      ];
      return { shape: makeCompound(parts), parts };
    }),
);

/** A world pose of a part on a body at `at`. */
function partPose(at: Isometry, p: Isometry): Isometry {
  return iso.multiply(iso.identity(), at, p);
}

/**
 * The oracle: over every caster part × body part not touching at time 0 (`intersects`), the
 * pair cast alone; the earliest, and every answer within `tieTol` of it (ties: any may be the one
 * reported). Null when none meets. Undefined when a start is within `nearTol` of touching without
 * touching (the part predicates' rounding, not this option's rule).
 */
function oracle(
  c: Parts,
  start: Isometry,
  v: Vec3,
  b: Parts,
  at: Isometry,
  maxToi: number,
  nearTol: number,
): ShapeCastHit[] | null | undefined {
  const hits: ShapeCastHit[] = [];
  for (const cp of c.parts) {
    const pa = partPose(start, cp.pose);
    for (const bp of b.parts) {
      const pb = partPose(at, bp.pose);
      if (intersects(cp.shape, pa, bp.shape, pb)) continue;
      if (distance(cp.shape, pa, bp.shape, pb).distance < nearTol) return undefined;
      const h = castShapes(cp.shape, pa, v, bp.shape, pb, ZERO, maxToi);
      if (h !== null) hits.push(h);
    }
  }
  if (hits.length === 0) return null;
  const best = Math.min(...hits.map((h) => h.toi));
  return hits.filter((h) => h.toi <= best + 1e-7);
}

const near = (u: Vec3, w: Vec3, tol: number) =>
  Math.abs(u.x - w.x) <= tol && Math.abs(u.y - w.y) <= tol && Math.abs(u.z - w.z) <= tol;

function checkAgainstParts(
  body: Parts,
  cast: Parts,
  seedStart: number,
  v: Vec3,
  at: Isometry,
  unit = 1,
): void {
  // Start the caster at one of the body's parts (so that it overlaps some), offset a little.
  const target = body.parts[seedStart % body.parts.length];
  const tp = partPose(at, target.pose);
  const start = pose(tp.translation.x, tp.translation.y, tp.translation.z);
  const maxToi = 10;
  const want = oracle(cast, start, v, body, at, maxToi, 1e-6 * unit);
  fc.pre(want !== undefined);
  const got = castShape(worldOf(body.shape, at), cast.shape, start, v, maxToi, IGNORE);
  if (want === null || want === undefined) {
    expect(got).toBeNull();
    return;
  }
  expect(got).not.toBeNull();
  const g = got as NonNullable<typeof got>;
  // The reported hit is the cast against one of the earliest parts alone.
  // Points to 1e-5 of the scene's unit plus the rounding of its offset from the origin.
  const far = Math.max(
    Math.abs(at.translation.x),
    Math.abs(at.translation.y),
    Math.abs(at.translation.z),
  );
  const ptol = 1e-5 * unit + 64 * Number.EPSILON * far;
  const match = want.some(
    (h) =>
      Math.abs(g.toi - h.toi) <= 1e-7 &&
      near(g.normal, h.normal, 1e-5) &&
      near(g.pointA, h.pointA, ptol) &&
      near(g.pointB, h.pointB, ptol),
  );
  if (!match) {
    throw new Error(`got ${JSON.stringify(g)}; parts' earliest ${JSON.stringify(want)}`);
  }
}

const velocity = fc
  .tuple(coord, coord, coord)
  .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1)
  .map(([x, y, z]) => ({ x, y, z }));
const bodyPose = fc.tuple(point, unitQuat).map(([[x, y, z], q]) => pose(x, y, z, q));

describe("ignoreInitialOverlap = the earliest part not touching at time 0, cast alone (property)", () => {
  for (const [name, body, numRuns] of [
    ["compound", compound, 150],
    ["mesh", mesh, 60],
    ["heightfield", heightfield, 150],
  ] as const) {
    it(`${name} bodies, sphere and compound casters`, () => {
      fc.assert(
        fc.property(body, caster, fc.nat(), velocity, bodyPose, (b, c, k, v, at) => {
          checkAgainstParts(b, c, k, v, at);
        }),
        { numRuns, seed: 40 },
      );
    });
  }
});

/**
 * A compound (its children drawn 0.6 times as far apart, so that they overlap often and the
 * caster still overlaps an ignored child when it meets another) and a sphere caster, scaled by
 * `s` (toi is unchanged when the velocity is scaled too).
 */
function scaled(b: Parts, c: number, s: number): { body: Parts; caster: Parts } {
  const parts = b.parts.map((p) => ({
    shape: scaleConvex(p.shape, s),
    pose: pose(
      p.pose.translation.x * s,
      p.pose.translation.y * s,
      p.pose.translation.z * s,
      p.pose.rotation,
    ),
  }));
  const ball = makeSphere(c * s) as ConvexShape;
  return {
    body: { shape: makeCompound(parts), parts },
    caster: { shape: ball, parts: [{ shape: ball, pose: iso.identity() }] },
  };
}

function scaleConvex(sh: ConvexShape, s: number): ConvexShape {
  const any = sh as unknown as { radius?: number; halfExtents?: Vec3; a?: Vec3; b?: Vec3 };
  if (any.halfExtents)
    return makeCuboid({
      x: any.halfExtents.x * s,
      y: any.halfExtents.y * s,
      z: any.halfExtents.z * s,
    }) as ConvexShape;
  if (any.a && any.b && any.radius !== undefined)
    return makeCapsule(
      { x: any.a.x * s, y: any.a.y * s, z: any.a.z * s },
      { x: any.b.x * s, y: any.b.y * s, z: any.b.z * s },
      any.radius * s,
    ) as ConvexShape;
  return makeSphere((any.radius as number) * s) as ConvexShape;
}

describe("the same at scales 1e-6..1e6 and offsets up to 1e6 of the scene's size (property)", () => {
  it("compound bodies, sphere casters", () => {
    fc.assert(
      fc.property(
        compound,
        fc.double({ min: 0.02, max: 0.3, noNaN: true }),
        fc.nat(),
        velocity,
        bodyPose,
        fc.constantFrom(1e-6, 1e-3, 1, 1e3, 1e6),
        fc.constantFrom(0, 1e3, 1e6),
        (b, r, k, v, at, s, o) => {
          const { body, caster: c } = scaled(b, r, s);
          const t = at.translation;
          const far = pose((t.x + o) * s, (t.y - o) * s, (t.z + 0.5 * o) * s, at.rotation);
          // Aimed from the start part toward the next one (give or take v): it meets that part
          // while often still inside the start part.
          const n = body.parts.length;
          const p0 = partPose(far, body.parts[k % n].pose).translation;
          const p1 = partPose(far, body.parts[(k + 1) % n].pose).translation;
          const aim = {
            x: (p1.x - p0.x) / s + 0.3 * v.x,
            y: (p1.y - p0.y) / s + 0.3 * v.y,
            z: (p1.z - p0.z) / s + 0.3 * v.z,
          };
          fc.pre(Math.hypot(aim.x, aim.y, aim.z) > 0.05);
          checkAgainstParts(body, c, k, { x: aim.x * s, y: aim.y * s, z: aim.z * s }, far, s);
        },
      ),
      { numRuns: 400, seed: 41 },
    );
  });
});
