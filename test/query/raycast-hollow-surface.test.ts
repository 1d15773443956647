/**
 * A hollow ray (`solid: false`) whose origin lies exactly on the surface of a shape with an
 * interior (issue 16, attack 40 F6): the origin is in the closed shape, so a ray into the interior
 * reports where it leaves (parry's hollow cast), in 2D and 3D alike; one pointing outward or
 * grazing the surface leaves at once (toi 0 at the origin, the outward normal there). 3D had
 * answered the entry at toi 0 for every convex kind, while the 2D circle answered the exit.
 * Oracles: hand-derived exits per kind, and the chord and slab formulas over random rays.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { castRay2D } from "../../src/dim2/raycast2.js";
import {
  makeCapsule as makeCapsule2,
  makeCircle,
  makePolygon,
  makeRect,
  type Shape2,
} from "../../src/dim2/shapes.js";
import type { Isometry } from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { raycast } from "../../src/query/raycast.js";
import {
  makeCapsule,
  makeCompound,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeHalfSpace,
  makeRoundedConvexPolyhedron,
  makeRoundedCuboid,
  makeSphere,
} from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { castRayClosest } from "../../src/world/ray-cast.js";

const I: Isometry = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
const P2 = { p: { x: 0, y: 0 }, q: { c: 1, s: 0 } };
const v = (x: number, y: number, z: number): Vec3 => ({ x, y, z });
const CUBE = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1];

function expectHit(
  h: { toi: number; point: Vec3; normal: Vec3 } | null,
  toi: number,
  point: Vec3,
  normal: Vec3,
  tol = 1e-12,
): void {
  expect(h).not.toBeNull();
  const g = h as NonNullable<typeof h>;
  expect(Math.abs(g.toi - toi)).toBeLessThanOrEqual(tol);
  for (const k of ["x", "y", "z"] as const) {
    expect(Math.abs(g.point[k] - point[k])).toBeLessThanOrEqual(tol);
    expect(Math.abs(g.normal[k] - normal[k])).toBeLessThanOrEqual(tol);
  }
}

describe("3D: a hollow ray from the surface into the interior reports the exit (hand-derived)", () => {
  const s5 = Math.sqrt(5);
  const cases: [string, Shape, Vec3, Vec3, number, Vec3, Vec3][] = [
    // name, shape, origin, direction, toi, exit point, exit normal
    [
      "sphere, through the centre",
      makeSphere(1),
      v(1, 0, 0),
      v(-1, 0, 0),
      2,
      v(-1, 0, 0),
      v(-1, 0, 0),
    ],
    // (1 − t)² + t² = 1 → t = 1, at (0, 1, 0).
    ["sphere, oblique chord", makeSphere(1), v(1, 0, 0), v(-1, 1, 0), 1, v(0, 1, 0), v(0, 1, 0)],
    ["box", makeCuboid(v(1, 2, 3)), v(1, 0, 0), v(-1, 0, 0), 2, v(-1, 0, 0), v(-1, 0, 0)],
    // x leaves at t = 2 (x = −1), before y at t = 4 (y = 2).
    [
      "box, oblique",
      makeCuboid(v(1, 2, 3)),
      v(1, 0, 0),
      v(-1, 0.5, 0),
      2,
      v(-1, 1, 0),
      v(-1, 0, 0),
    ],
    [
      "convex hull (cube)",
      makeConvexPolyhedron(CUBE),
      v(1, 0, 0),
      v(-1, 0, 0),
      2,
      v(-1, 0, 0),
      v(-1, 0, 0),
    ],
    [
      "capsule, side",
      makeCapsule(v(0, -1, 0), v(0, 1, 0), 1),
      v(1, 0, 0),
      v(-1, 0, 0),
      2,
      v(-1, 0, 0),
      v(-1, 0, 0),
    ],
    [
      "capsule, cap to cap",
      makeCapsule(v(0, -1, 0), v(0, 1, 0), 1),
      v(0, 2, 0),
      v(0, -1, 0),
      4,
      v(0, -2, 0),
      v(0, -1, 0),
    ],
    ["cylinder, side", makeCylinder(1, 1), v(1, 0, 0), v(-1, 0, 0), 2, v(-1, 0, 0), v(-1, 0, 0)],
    ["cylinder, cap", makeCylinder(1, 1), v(0.5, 1, 0), v(0, -1, 0), 2, v(0.5, -1, 0), v(0, -1, 0)],
    // Side 2x + y = 1 (apex y 1, base radius 1 at y −1): (0.25t, −1 + t) meets it at t = 4/3.
    [
      "cone, base to side",
      makeCone(1, 1),
      v(0, -1, 0),
      v(0.25, 1, 0),
      4 / 3,
      v(1 / 3, 1 / 3, 0),
      v(2 / s5, 1 / s5, 0),
    ],
    [
      "rounded box",
      makeRoundedCuboid(v(1, 1, 1), 0.5),
      v(1.5, 0, 0),
      v(-1, 0, 0),
      3,
      v(-1.5, 0, 0),
      v(-1, 0, 0),
    ],
    [
      "rounded hull",
      makeRoundedConvexPolyhedron(CUBE, 0.5),
      v(1.5, 0, 0),
      v(-1, 0, 0),
      3,
      v(-1.5, 0, 0),
      v(-1, 0, 0),
    ],
    [
      "compound child",
      makeCompound([{ shape: makeSphere(1), pose: { ...I, translation: v(3, 0, 0) } }]),
      v(4, 0, 0),
      v(-1, 0, 0),
      2,
      v(2, 0, 0),
      v(-1, 0, 0),
    ],
  ];
  for (const [name, shape, o, d, toi, p, n] of cases) {
    it(name, () => {
      expectHit(raycast(shape, I, o, d, Infinity, false), toi, p, n, 1e-9);
      // Not past maxToi: the exit beyond it is a miss, as from inside.
      expect(raycast(shape, I, o, d, toi * 0.99, false)).toBeNull();
      // Solid: toi 0 at the origin.
      expect(raycast(shape, I, o, d, Infinity, true)?.toi).toBe(0);
    });
  }

  it("outward or grazing from the surface: toi 0 at the origin with the outward normal", () => {
    const s = makeSphere(1);
    expectHit(raycast(s, I, v(1, 0, 0), v(1, 0, 0), Infinity, false), 0, v(1, 0, 0), v(1, 0, 0));
    expectHit(raycast(s, I, v(1, 0, 0), v(0, 1, 0), Infinity, false), 0, v(1, 0, 0), v(1, 0, 0));
    const b = makeCuboid(v(1, 1, 1));
    expectHit(raycast(b, I, v(1, 0, 0), v(1, 0, 0), Infinity, false), 0, v(1, 0, 0), v(1, 0, 0));
    // Along a face from its centre: leaves through the face's edge at y = 1.
    expectHit(raycast(b, I, v(1, 0, 0), v(0, 1, 0), Infinity, false), 1, v(1, 1, 0), v(0, 1, 0));
  });

  it("a half-space: from its plane inward never leaves (null); outward leaves at once", () => {
    const h = makeHalfSpace(v(1, 0, 0), 1);
    expect(raycast(h, I, v(1, 0, 0), v(-1, 0, 0), Infinity, false)).toBeNull();
    expectHit(raycast(h, I, v(1, 0, 0), v(1, 0, 0), Infinity, false), 0, v(1, 0, 0), v(1, 0, 0));
  });

  it("the world's hollow ray and ignoreInitialOverlap answer the same exit", () => {
    const w = new CollisionWorld();
    w.addBody({ shape: makeCuboid(v(1, 1, 1)), pose: I });
    w.step();
    for (const opts of [{ solid: false }, { ignoreInitialOverlap: true }]) {
      const h = castRayClosest(w, v(1, 0, 0), v(-1, 0, 0), 10, opts);
      expectHit(h, 2, v(-1, 0, 0), v(-1, 0, 0));
    }
  });
});

describe("2D: the same convention", () => {
  const V2 = (x: number, y: number) => ({ x, y });
  const cases: [
    string,
    Shape2,
    [number, number],
    [number, number],
    number,
    [number, number],
    [number, number],
  ][] = [
    ["circle", makeCircle(1), [1, 0], [-1, 0], 2, [-1, 0], [-1, 0]],
    ["rect, oblique", makeRect(V2(1, 2)), [1, 0], [-1, 0.5], 2, [-1, 1], [-1, 0]],
    [
      "polygon (square)",
      makePolygon([V2(-1, -1), V2(1, -1), V2(1, 1), V2(-1, 1)]),
      [1, 0],
      [-1, 0],
      2,
      [-1, 0],
      [-1, 0],
    ],
    [
      "capsule, cap to cap",
      makeCapsule2(V2(0, -1), V2(0, 1), 1),
      [0, 2],
      [0, -1],
      4,
      [0, -2],
      [0, -1],
    ],
  ];
  for (const [name, shape, o, d, toi, p, n] of cases) {
    it(name, () => {
      const h = castRay2D(shape, P2, V2(...o), V2(...d), Infinity, false);
      expectHit(
        h && {
          toi: h.toi,
          point: v(h.point.x, h.point.y, 0),
          normal: v(h.normal.x, h.normal.y, 0),
        },
        toi,
        v(p[0], p[1], 0),
        v(n[0], n[1], 0),
        1e-9,
      );
    });
  }
  it("outward from the surface: toi 0 at the origin", () => {
    const h = castRay2D(makeCircle(1), P2, V2(1, 0), V2(1, 0), Infinity, false);
    expect(h?.toi).toBe(0);
    expect(h?.normal).toEqual({ x: 1, y: 0 });
  });
});

/** The exit of the line o + t·d (d inward) from the box |x_k| ≤ h_k: the slab formula. */
function slabExit(
  h: number[],
  o: number[],
  d: number[],
): { t: number; axis: number; tie: boolean } {
  const ts = [0, 1, 2].map((k) =>
    d[k] === 0 ? Infinity : ((d[k] > 0 ? h[k] : -h[k]) - o[k]) / d[k],
  );
  const t = Math.min(...ts);
  const axis = ts.indexOf(t);
  const tie = ts.some((u, k) => k !== axis && Math.abs(u - t) <= 1e-9 * t);
  return { t, axis, tie };
}

describe("random rays from a surface point into the interior leave where the formulas say", () => {
  // Components either 0 or at least 1e-3 (a subnormal one is lost when the library normalises
  // the direction: a ray from an edge then leaves through another face, a rounding, not a rule).
  const dir = fc.double({ min: -1, max: 1, noNaN: true }).map((c) => (Math.abs(c) < 1e-3 ? 0 : c));
  const size = fc.double({ min: 1e-3, max: 1e3, noNaN: true });

  it("3D boxes and their hulls (origin on a face, slab exit)", () => {
    fc.assert(
      fc.property(
        fc.tuple(size, size, size),
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        fc.integer({ min: 0, max: 5 }),
        fc.tuple(dir, dir, dir),
        (h, [u, w], face, d) => {
          const k = face % 3;
          const sgn = face < 3 ? 1 : -1;
          const o = [0, 0, 0];
          o[k] = sgn * h[k];
          o[(k + 1) % 3] = u * h[(k + 1) % 3];
          o[(k + 2) % 3] = w * h[(k + 2) % 3];
          const dd = [...d];
          dd[k] = -sgn * Math.max(Math.abs(d[k]), 0.05);
          const want = slabExit(h, o, dd);
          fc.pre(!want.tie);
          const box = makeCuboid(v(h[0], h[1], h[2]));
          const hull = makeConvexPolyhedron(CUBE.map((c, i) => c * h[i % 3]));
          for (const s of [box, hull]) {
            const got = raycast(s, I, v(o[0], o[1], o[2]), v(dd[0], dd[1], dd[2]), Infinity, false);
            expect(got).not.toBeNull();
            const g = got as NonNullable<typeof got>;
            const scale = Math.max(...h);
            expect(Math.abs(g.toi - want.t)).toBeLessThanOrEqual(
              1e-9 * (want.t + scale / Math.hypot(...dd)),
            );
            const n = [g.normal.x, g.normal.y, g.normal.z];
            expect(Math.abs(n[want.axis])).toBeCloseTo(1, 9);
            expect(Math.sign(n[want.axis])).toBe(Math.sign(dd[want.axis]));
          }
        },
      ),
      { numRuns: 300, seed: 40 },
    );
  });

  it("spheres and circles (origin on an axis point, chord exit t = −2(o·d)/|d|²)", () => {
    fc.assert(
      fc.property(size, fc.integer({ min: 0, max: 5 }), fc.tuple(dir, dir, dir), (r, face, d) => {
        const k = face % 3;
        const sgn = face < 3 ? 1 : -1;
        const o = [0, 0, 0];
        o[k] = sgn * r;
        const dd = [...d];
        dd[k] = -sgn * Math.max(Math.abs(d[k]), 0.05);
        const dot = o[0] * dd[0] + o[1] * dd[1] + o[2] * dd[2];
        const t = (-2 * dot) / (dd[0] ** 2 + dd[1] ** 2 + dd[2] ** 2);
        const got = raycast(
          makeSphere(r),
          I,
          v(o[0], o[1], o[2]),
          v(dd[0], dd[1], dd[2]),
          Infinity,
          false,
        );
        expect(got).not.toBeNull();
        const g = got as NonNullable<typeof got>;
        expect(Math.abs(g.toi - t)).toBeLessThanOrEqual(1e-12 * t);
        for (let j = 0; j < 3; j++) {
          const p = o[j] + t * dd[j];
          expect(Math.abs([g.normal.x, g.normal.y, g.normal.z][j] - p / r)).toBeLessThanOrEqual(
            1e-9,
          );
        }
        // 2D: the circle in the plane of the first two coordinates.
        if (k < 2) {
          const o2 = { x: o[0], y: o[1] };
          const d2 = { x: dd[0], y: dd[1] };
          const t2 = (-2 * (o2.x * d2.x + o2.y * d2.y)) / (d2.x ** 2 + d2.y ** 2);
          const h2 = castRay2D(makeCircle(r), P2, o2, d2, Infinity, false);
          expect(h2).not.toBeNull();
          expect(Math.abs((h2 as NonNullable<typeof h2>).toi - t2)).toBeLessThanOrEqual(1e-12 * t2);
        }
      }),
      { numRuns: 300, seed: 41 },
    );
  });
});
