/**
 * The rounded cuboid and the rounded convex polyhedron (src/shapes/rounded.ts): every query
 * against independent oracles. A rounded shape R is its core C swept by a ball of radius r, so
 * for any point p, dist(p, R) = max(0, dist(p, C) − r), with dist(p, box) by clamping (closed
 * form) and dist(p, hull) as the largest face-plane excess when only one face is exceeded or
 * else brute force over dense samples of the hull's faces. Casts and rays are checked by
 * bisection on those distance functions; pair queries by the Minkowski identity
 * signed(R, X) = signed(C, X) − r on the public queries of the core.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseShape } from "../../src/io/shapes-json.js";

import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import {
  makeCapsule,
  makeCompound,
  makeCuboid,
  makeHalfSpace,
  makeRoundedConvexPolyhedron,
  makeRoundedCuboid,
  makeSphere,
} from "../../src/shapes/index.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { num, pose, unitQuat, vec } from "../oracles/arbitraries.js";

const OCTAHEDRON = [0.6, 0, 0, -0.6, 0, 0, 0, 0.6, 0, 0, -0.6, 0, 0, 0, 0.6, 0, 0, -0.6];

/** Distance from local point p to the box of half extents h (clamping). */
function boxDistance(p: Vec3, h: Vec3): number {
  const dx = Math.max(Math.abs(p.x) - h.x, 0);
  const dy = Math.max(Math.abs(p.y) - h.y, 0);
  const dz = Math.max(Math.abs(p.z) - h.z, 0);
  return Math.hypot(dx, dy, dz);
}

/** Distance from local p to the octahedron |x| + |y| + |z| ≤ 0.6 by dense sampling of its faces. */
function octahedronDistance(p: Vec3): number {
  if (Math.abs(p.x) + Math.abs(p.y) + Math.abs(p.z) <= 0.6) return 0;
  let best = Infinity;
  const n = 60;
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1])
        for (let i = 0; i <= n; i++)
          for (let j = 0; i + j <= n; j++) {
            const a = (0.6 * i) / n;
            const b = (0.6 * j) / n;
            const c = 0.6 - a - b;
            best = Math.min(best, Math.hypot(p.x - sx * a, p.y - sy * b, p.z - sz * c));
          }
  return best;
}

describe("rounded cuboid: projectPoint, raycast and the pair queries", () => {
  it("projectPoint: distance max(0, clamp distance − r), on the surface, inside by the oracle", () => {
    fc.assert(
      fc.property(vec(0.05, 1), num(0.01, 0.5), pose(-2, 2), vec(-4, 4), (h, r, p, q) => {
        const s = makeRoundedCuboid(h, r);
        const local = iso.inverseTransformPoint(vec3.create(), p, q);
        const truth = Math.max(0, boxDistance(local, h) - r);
        const got = projectPoint(s, p, q, true);
        expect(got.distance).toBeCloseTo(truth, 9);
        expect(got.inside).toBe(boxDistance(local, h) <= r);
        if (!got.inside) {
          const onLocal = iso.inverseTransformPoint(vec3.create(), p, got.point);
          expect(boxDistance(onLocal, h)).toBeCloseTo(r, 9);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("raycast: the first point of the segment within r of the box (bisection oracle)", () => {
    fc.assert(
      fc.property(
        vec(0.05, 1),
        num(0.01, 0.5),
        pose(-1, 1),
        vec(-4, 4),
        vec(-1, 1),
        (h, r, p, o, d) => {
          if (vec3.length(d) < 0.05) return;
          const s = makeRoundedCuboid(h, r);
          const gap = (t: number) =>
            boxDistance(
              iso.inverseTransformPoint(vec3.create(), p, vec3.addScaled(vec3.create(), o, d, t)),
              h,
            ) - r;
          // The gap along a line is convex: ternary search for its minimum, then bisection.
          let lo = 0;
          let hi = 10;
          for (let i = 0; i < 200; i++) {
            const m1 = lo + (hi - lo) / 3;
            const m2 = hi - (hi - lo) / 3;
            if (gap(m1) <= gap(m2)) hi = m2;
            else lo = m1;
          }
          const tMin = gap(0) <= gap(lo) ? 0 : lo;
          const got = raycast(s, p, o, d, 10);
          if (Math.abs(gap(tMin)) < 1e-6) return; // grazing: either answer
          if (gap(tMin) > 0) {
            expect(got).toBeNull();
            return;
          }
          let a = 0;
          let b = tMin;
          if (gap(0) <= 0) b = 0;
          for (let i = 0; i < 200; i++) {
            const m = (a + b) / 2;
            if (gap(m) > 0) a = m;
            else b = m;
          }
          expect(got).not.toBeNull();
          expect(Math.abs((got?.toi ?? -1) - b)).toBeLessThan(1e-6);
        },
      ),
      { numRuns: 200 },
    );
  });

  const otherArb: fc.Arbitrary<ConvexShape> = fc.oneof(
    num(0.1, 0.8).map((x) => makeSphere(x) as ConvexShape),
    vec(0.1, 0.8).map((x) => makeCuboid(x) as ConvexShape),
    fc
      .tuple(vec(-0.4, 0.4), vec(-0.4, 0.4), num(0.05, 0.3))
      .map(([a, b, x]) => makeCapsule(a, b, x) as ConvexShape),
    num(0.01, 0.3).map((x) => makeRoundedConvexPolyhedron(OCTAHEDRON, x) as ConvexShape),
  );

  it("pair queries: signed(R, X) = signed(core, X) − r (the Minkowski identity), both orders", () => {
    fc.assert(
      fc.property(
        vec(0.05, 1),
        num(0.01, 0.5),
        otherArb,
        vec(-2.5, 2.5),
        unitQuat,
        (h, r, other, t, q) => {
          const s = makeRoundedCuboid(h, r);
          const core = makeCuboid(h);
          const pa = iso.identity();
          const pb = iso.create(t, q);
          const c = contact(core, pa, other, pb, Infinity);
          if (!c) throw new Error("an unbounded prediction always gives a contact");
          const signed = c.distance - r;
          if (Math.abs(signed) < 1e-5) return; // touching: either answer for intersects
          const k = contact(s, pa, other, pb, Infinity);
          expect(k?.distance).toBeCloseTo(signed, 5);
          const k2 = contact(other, pb, s, pa, Infinity);
          expect(k2?.distance).toBeCloseTo(signed, 5);
          expect(intersects(s, pa, other, pb)).toBe(signed < 0);
          expect(intersects(other, pb, s, pa)).toBe(signed < 0);
          expect(distance(s, pa, other, pb).distance).toBeCloseTo(Math.max(0, signed), 5);
          const m = manifold(s, pa, other, pb, 0.1);
          expect(m === null).toBe(signed > 0.1);
          if (m) {
            expect(m.count).toBeGreaterThan(0);
            for (let i = 0; i < m.count; i++) {
              // A's witness is a point of R: within r of the core box.
              const pl = m.points[i].pointA;
              expect(boxDistance(pl, h)).toBeLessThanOrEqual(r + 1e-6);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("castShapes: a sphere moving at the rounded box meets it when the gap closes", () => {
    fc.assert(
      fc.property(
        vec(0.05, 1),
        num(0.01, 0.5),
        num(0.1, 0.5),
        vec(-4, 4),
        vec(-6, 6),
        (h, r, rs, from, v) => {
          const s = makeRoundedCuboid(h, r);
          const gap = (t: number) =>
            boxDistance(vec3.addScaled(vec3.create(), from, v, t), h) - r - rs;
          let lo = 0;
          let hi = 1;
          for (let i = 0; i < 200; i++) {
            const m1 = lo + (hi - lo) / 3;
            const m2 = hi - (hi - lo) / 3;
            if (gap(m1) <= gap(m2)) hi = m2;
            else lo = m1;
          }
          const tMin = gap(0) <= gap(lo) ? 0 : lo;
          if (Math.abs(gap(tMin)) < 1e-4) return;
          const got = castShapes(
            makeSphere(rs),
            iso.create(from, { x: 0, y: 0, z: 0, w: 1 }),
            v,
            s,
            iso.identity(),
            vec3.create(),
            1,
          );
          if (gap(tMin) > 0) {
            expect(got).toBeNull();
            return;
          }
          let a = 0;
          let b = gap(0) <= 0 ? 0 : tMin;
          for (let i = 0; i < 200; i++) {
            const m = (a + b) / 2;
            if (gap(m) > 0) a = m;
            else b = m;
          }
          expect(Math.abs((got?.toi ?? -1) - b)).toBeLessThan(1e-6);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("rounded convex polyhedron", () => {
  it("projectPoint and raycast agree with dense sampling of the core's faces", () => {
    fc.assert(
      fc.property(num(0.01, 0.4), vec(-2, 2), (r, q) => {
        const s = makeRoundedConvexPolyhedron(OCTAHEDRON, r);
        const truth = Math.max(0, octahedronDistance(q) - r);
        const got = projectPoint(s, iso.identity(), q, true);
        // The sampling grid is 0.6/60 apart: its distance is within 0.01 of the true one.
        expect(Math.abs(got.distance - truth)).toBeLessThan(0.011);
        expect(got.distance).toBeLessThanOrEqual(truth + 1e-9);
      }),
      { numRuns: 60 },
    );
    // Along an axis by hand: the apex (0.6, 0, 0) rounded by r is hit at x = 0.6 + r.
    const s = makeRoundedConvexPolyhedron(OCTAHEDRON, 0.25);
    const hit = raycast(s, iso.identity(), { x: 5, y: 0, z: 0 }, { x: -1, y: 0, z: 0 }, 10);
    expect(hit?.toi).toBeCloseTo(5 - 0.85, 6);
    expect(hit?.normal.x).toBeCloseTo(1, 6);
  });
});

describe("rounded shapes in the world, in compounds and in JSON", () => {
  it("a rounded box resting on a plane gets a 4-point manifold at the rounded face", () => {
    const w = new CollisionWorld();
    const box = w.addBody({
      shape: makeRoundedCuboid({ x: 1, y: 0.5, z: 1 }, 0.1),
      pose: iso.create({ x: 0, y: 0.59, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }),
    });
    w.addBody({ shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, 0), pose: iso.identity() });
    w.step();
    const contacts = w.contacts();
    expect(contacts.length).toBe(1);
    const c = contacts[0];
    expect(c.a === box || c.b === box).toBe(true);
    expect(c.manifold.count).toBe(4);
    for (let i = 0; i < 4; i++) expect(c.manifold.points[i].distance).toBeCloseTo(-0.01, 9);
  });

  it("a compound of rounded children answers as its children; JSON builds both types", () => {
    const child = makeRoundedCuboid({ x: 0.5, y: 0.5, z: 0.5 }, 0.1);
    const c = makeCompound([
      { shape: child, pose: iso.create({ x: 2, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }) },
    ]);
    const d = distance(
      c,
      iso.identity(),
      makeSphere(0.5),
      iso.create({ x: 4, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }),
    );
    expect(d.distance).toBeCloseTo(4 - 2 - 0.6 - 0.5, 9);
    const box = parseShape(
      {
        type: "roundedBox",
        center: [1, 2, 3],
        halfExtents: [1, 1, 1],
        radius: 0.5,
      },
      "shape",
    );
    expect(box.pose.translation).toEqual({ x: 1, y: 2, z: 3 });
    expect(projectPoint(box.shape, box.pose, { x: 1, y: 2, z: 6 }).distance).toBeCloseTo(1.5, 12);
    const hull = parseShape(
      {
        type: "roundedConvex",
        points: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        radius: 0.2,
      },
      "shape",
    );
    expect(projectPoint(hull.shape, hull.pose, { x: -1, y: 0.1, z: 0.1 }).distance).toBeCloseTo(
      0.8,
      9,
    );
    expect(() =>
      parseShape(
        { type: "roundedBox", center: [0, 0, 0], halfExtents: [1, 1, 1], radius: -1 },
        "shape",
      ),
    ).toThrow(/radius/);
  });

  it("hand-built rounded shapes with a NaN radius are refused naming the field", () => {
    const bad = {
      type: 10,
      core: makeCuboid({ x: 1, y: 1, z: 1 }),
      radius: Number.NaN,
    } as unknown as ConvexShape;
    expect(() => intersects(bad, iso.identity(), makeSphere(1), iso.identity())).toThrow(/radius/);
  });
});
