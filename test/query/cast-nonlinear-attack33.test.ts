/**
 * Attack 33, F1 and F3.
 *
 * F1: `castShapesNonlinear` (keyframe poses, rotation by nlerp) stopped at the iteration cap of
 * conservative advancement and reported the time reached as a hit: a spinning thin box passing a
 * small ball 4.94e-4 apart was "hit" at 0.0519 with witnesses 8.15e-4 apart, and a real contact
 * at 0.20662 was reported at 0.20367 (2.57e-4 apart). The oracle here is independent of the
 * cast: the library's `distance` / `contact` at poses the test interpolates itself, sampled
 * densely, the first contact refined by bisection on `distance > 0`.
 *
 * F3: `castShapes` without maxToi refused a subnormal closing speed (1e-310, 5e-324) with
 * "velocityB … too slow … (got [0,0,0])"; the time of impact is beyond the doubles: null.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes, castShapesNonlinear } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { quatObjArb } from "../fuzz/arbitraries.js";

type V = [number, number, number];
const ID: Quat = { x: 0, y: 0, z: 0, w: 1 };
const pose = (t: V, q: Quat = ID): Isometry => ({
  translation: { x: t[0], y: t[1], z: t[2] },
  rotation: q,
});

/** nlerp the shorter way, as the cast's documented motion (independent code). */
function nlerp(a: Quat, b: Quat, t: number): Quat {
  const s = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w < 0 ? -1 : 1;
  const x = (1 - t) * a.x + t * s * b.x;
  const y = (1 - t) * a.y + t * s * b.y;
  const z = (1 - t) * a.z + t * s * b.z;
  const w = (1 - t) * a.w + t * s * b.w;
  const l = Math.hypot(x, y, z, w);
  return { x: x / l, y: y / l, z: z / l, w: w / l };
}

interface Motion {
  p0: V;
  p1: V;
  q0: Quat;
  q1: Quat;
}
const at = (m: Motion, t: number): Isometry =>
  pose(
    [
      m.p0[0] + (m.p1[0] - m.p0[0]) * t,
      m.p0[1] + (m.p1[1] - m.p0[1]) * t,
      m.p0[2] + (m.p1[2] - m.p0[2]) * t,
    ],
    nlerp(m.q0, m.q1, t),
  );

/** The library's distance between the shapes at time t of their motions. */
const gapAt = (a: Shape, ma: Motion, b: Shape, mb: Motion, t: number) =>
  distance(a, at(ma, t), b, at(mb, t)).distance;

/** The signed distance (negative: depth) at time t, from the `contact` query. */
const signedAt = (a: Shape, ma: Motion, b: Shape, mb: Motion, t: number) => {
  const c = contact(a, at(ma, t), b, at(mb, t), Number.POSITIVE_INFINITY);
  return c === null ? Number.POSITIVE_INFINITY : c.distance;
};

/** First time in [0, T] with distance 0, by n samples then bisection; null when none sampled. */
function firstContact(a: Shape, ma: Motion, b: Shape, mb: Motion, T: number, n: number) {
  let prev = 0;
  for (let k = 0; k <= n; k++) {
    const t = (T * k) / n;
    if (gapAt(a, ma, b, mb, t) === 0) {
      if (k === 0) return 0;
      let lo = prev;
      let hi = t;
      for (let i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
        const mid = 0.5 * (lo + hi);
        if (gapAt(a, ma, b, mb, mid) > 0) lo = mid;
        else hi = mid;
      }
      return hi;
    }
    prev = t;
  }
  return null;
}

/** The castShapes bar (docs/FORMATS.md): 16 × the distance bar with s the smaller shape's size. */
const bar = (sSmall: number, L: number) => 16 * (1e-9 * sSmall + 64 * Number.EPSILON * L);

describe("attack 33 F1: a rotating cast reports no hit where the shapes are apart", () => {
  it("spinning thin box past a ball that never touches it: null (was toi 0.0519, 8.15e-4 apart)", () => {
    const stick = makeCuboid({
      x: 1.2213370515964925,
      y: 0.01069861493539065,
      z: 0.03382872976595536,
    });
    const ball = makeSphere(0.05743415097147227);
    const ma: Motion = {
      p0: [0, 0, 0],
      p1: [0.05750517430715263, 0.04747720779851079, 0],
      q0: {
        x: 0.4185942776459032,
        y: 0.8277783474762787,
        z: 0.21180420719427323,
        w: 0.30773497686540474,
      },
      q1: {
        x: 0.21790520264542657,
        y: -0.6852590410948015,
        z: 0.5911909046793943,
        w: -0.36528164952848124,
      },
    };
    const mb: Motion = {
      p0: [-0.1663730678168634, 0.12650160950348094, -0.022714288090355694],
      p1: [-0.09670347389965747, 0.1781370385570483, -0.022714288090355694],
      q0: ID,
      q1: ID,
    };
    // The oracle: the distance along the motion stays above 4.9e-4 (closest near t = 0.028).
    let min = Number.POSITIVE_INFINITY;
    for (let k = 0; k <= 20000; k++) min = Math.min(min, gapAt(stick, ma, ball, mb, k / 20000));
    expect(min).toBeGreaterThan(4.9e-4);
    const hit = castShapesNonlinear(
      stick,
      pose(ma.p0, ma.q0),
      pose(ma.p1, ma.q1),
      ball,
      pose(mb.p0),
      pose(mb.p1),
      1,
    );
    expect(hit).toBeNull();
  });

  it("a real contact is reported at its time, not early (was 0.20367 for 0.20662)", () => {
    const stick = makeCuboid({
      x: 1.1714357864111662,
      y: 0.013112799802329392,
      z: 0.054894370972178884,
    });
    const r = 0.030291729372926058;
    const ball = makeSphere(r);
    const ma: Motion = {
      p0: [0, 0, 0],
      p1: [-0.02111746594309807, 0.09721465925686062, 0],
      q0: {
        x: 0.947087291609669,
        y: -0.1934687733158516,
        z: 0.2134676107223796,
        w: 0.14151704842738985,
      },
      q1: {
        x: -0.07829677937114328,
        y: 0.4571268310001291,
        z: 0.21645561929302026,
        w: 0.8590993188196351,
      },
    };
    const mb: Motion = {
      p0: [-0.05375191745034836, -0.0363365311309869, -0.0029210631735622885],
      p1: [0.06903155309927234, -0.009199531902017683, -0.0029210631735622885],
      q0: ID,
      q1: ID,
    };
    const T = 0.7259494587779045;
    const first = firstContact(stick, ma, ball, mb, T, 20000) as number;
    expect(first).toBeCloseTo(0.20662, 5);
    const hit = castShapesNonlinear(
      stick,
      pose(ma.p0, ma.q0),
      pose(ma.p1, ma.q1),
      ball,
      pose(mb.p0),
      pose(mb.p1),
      T,
    );
    expect(hit).not.toBeNull();
    if (hit === null) return;
    const b = bar(r, 2);
    expect(vec3.distance(hit.pointA, hit.pointB)).toBeLessThanOrEqual(b);
    expect(gapAt(stick, ma, ball, mb, hit.toi)).toBeLessThanOrEqual(b);
    // Not after the first contact; before it by at most the bar over a closing speed ≥ 1e-3.
    expect(hit.toi).toBeLessThanOrEqual(first + 1e-12);
    expect(first - hit.toi).toBeLessThan(b / 1e-3);
  });
});

// ---- the class: random rotating motions, fast spins, thin shapes ----

const unitQuat = quatObjArb;

/** A shape of size about `s` (its bounding radius ≤ 2s): thin boxes and capsules included. */
const shapeArb = fc.oneof(
  fc.double({ min: 0.001, max: 0.2, noNaN: true }).map((r) => makeSphere(r)),
  fc
    .tuple(
      fc.double({ min: 0.3, max: 1.5, noNaN: true }),
      fc.double({ min: 0.002, max: 0.1, noNaN: true }),
      fc.double({ min: 0.002, max: 0.3, noNaN: true }),
    )
    .map(([x, y, z]) => makeCuboid({ x, y, z })),
  fc
    .tuple(
      fc.double({ min: 0.1, max: 1.2, noNaN: true }),
      fc.double({ min: 0.002, max: 0.1, noNaN: true }),
    )
    .map(([h, r]) => makeCapsule({ x: -h, y: 0, z: 0 }, { x: h, y: 0, z: 0 }, r)),
  fc
    .array(
      fc.tuple(
        fc.double({ min: -0.8, max: 0.8, noNaN: true }),
        fc.double({ min: -0.1, max: 0.1, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
      ),
      { minLength: 6, maxLength: 12 },
    )
    .map((pts) =>
      makeConvexPolyhedron(
        [[-0.8, 0, 0], [0.8, 0, 0], [0, 0.05, 0], [0, 0, 0.1], ...pts].map(([x, y, z]) => ({
          x,
          y,
          z,
        })),
      ),
    ),
);

const vArb = (s: number) =>
  fc.tuple(
    fc.double({ min: -s, max: s, noNaN: true }),
    fc.double({ min: -s, max: s, noNaN: true }),
    fc.double({ min: -s, max: s, noNaN: true }),
  ) as fc.Arbitrary<V>;

const caseArb = fc.record({
  a: shapeArb,
  b: shapeArb,
  qa0: unitQuat,
  qa1: unitQuat,
  qb0: unitQuat,
  qb1: unitQuat,
  bSpins: fc.boolean(),
  dA: vArb(0.2),
  // B within the reach of A's sweep (the attack's set-up: many near-grazes of a spinning part).
  pB0: fc
    .tuple(
      fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      fc.double({ min: 0, max: 1.8, noNaN: true }),
      fc.double({ min: -0.05, max: 0.05, noNaN: true }),
    )
    .map(([ang, rad, z]) => [rad * Math.cos(ang), rad * Math.sin(ang), z] as V),
  dB: vArb(0.3),
  maxToi: fc.oneof(fc.constant(1), fc.double({ min: 0.05, max: 1, noNaN: true })),
});

describe("rotating casts over random motions: hits within the bar, nulls never overlapping", () => {
  it("every hit's witnesses within the bar, no overlap before it; every null never overlapping", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const ma: Motion = { p0: [0, 0, 0], p1: c.dA, q0: c.qa0, q1: c.qa1 };
        const p1: V = [c.pB0[0] + c.dB[0], c.pB0[1] + c.dB[1], c.pB0[2] + c.dB[2]];
        const mb: Motion = {
          p0: c.pB0,
          p1,
          q0: c.qb0,
          q1: c.bSpins ? c.qb1 : c.qb0,
        };
        const hit = castShapesNonlinear(
          c.a,
          pose(ma.p0, ma.q0),
          pose(ma.p1, ma.q1),
          c.b,
          pose(mb.p0, mb.q0),
          pose(mb.p1, mb.q1),
          c.maxToi,
        );
        const small = Math.min(radiusOf(c.a), radiusOf(c.b));
        const b = bar(small, 4);
        const N = 400;
        const end = hit === null ? c.maxToi : hit.toi;
        // (A hit at toi 0 is a start already touching: nothing lies before it.)
        for (let k = 0; end > 0 && k < N; k++) {
          const t = (end * k) / N;
          // No overlap deeper than the bar before the toi (no tunnelling), nor anywhere on a null.
          expect(signedAt(c.a, ma, c.b, mb, t)).toBeGreaterThanOrEqual(-b);
        }
        if (hit === null) {
          expect(signedAt(c.a, ma, c.b, mb, c.maxToi)).toBeGreaterThanOrEqual(-b);
          return;
        }
        expect(hit.toi).toBeGreaterThanOrEqual(0);
        expect(hit.toi).toBeLessThanOrEqual(c.maxToi);
        // At toi 0 the shapes overlap (the witnesses span the depth); later, they touch.
        if (hit.toi > 0) expect(vec3.distance(hit.pointA, hit.pointB)).toBeLessThanOrEqual(b);
        expect(gapAt(c.a, ma, c.b, mb, hit.toi)).toBeLessThanOrEqual(b);
      }),
      { numRuns: 1500, seed: 33 },
    );
  });
});

/** The shape's bounding radius about its origin, from its fields (independent of the library). */
function radiusOf(s: Shape): number {
  const x = s as unknown as Record<string, unknown>;
  if (typeof x.radius === "number" && x.a === undefined) return x.radius;
  if (x.halfExtents !== undefined) {
    const h = x.halfExtents as { x: number; y: number; z: number };
    return Math.hypot(h.x, h.y, h.z);
  }
  if (x.a !== undefined) {
    const a = x.a as { x: number; y: number; z: number };
    return Math.hypot(a.x, a.y, a.z) + (x.radius as number);
  }
  return 0.9;
}

describe("attack 33 F3: castShapes without maxToi at a subnormal closing speed", () => {
  const line = (v: number) => ({
    op: "castShapes",
    a: { type: "sphere", center: [0, 0, 0], radius: 1 },
    velocityA: [v, 0, 0],
    b: { type: "sphere", center: [3, 0, 0], radius: 1 },
    velocityB: [0, 0, 0],
  });

  it("answers null (the meeting lies beyond the doubles), through `collide query` and the API", () => {
    for (const v of [1e-310, 5e-324]) {
      expect(answerQuery(line(v))).toBeNull();
      const s = makeSphere(1);
      expect(
        castShapes(
          s,
          pose([0, 0, 0]),
          { x: v, y: 0, z: 0 },
          s,
          pose([3, 0, 0]),
          { x: 0, y: 0, z: 0 },
          Infinity,
        ),
      ).toBeNull();
    }
  });

  it("a slow meeting still representable is found: toi = gap / speed", () => {
    const s = makeSphere(1);
    const hit = castShapes(
      s,
      pose([0, 0, 0]),
      { x: 1e-300, y: 0, z: 0 },
      s,
      pose([3, 0, 0]),
      { x: 0, y: 0, z: 0 },
      Infinity,
    );
    expect(hit?.toi).toBeGreaterThan(1e300 * (1 - 1e-9));
    expect(hit?.toi).toBeLessThan(1e300 * (1 + 1e-9));
    // 1e-310 over a gap of 2^-50 (the doubles next to 2): toi 2^-50 / 1e-310, finite.
    const gap = 2 ** -50;
    const near = castShapes(
      s,
      pose([0, 0, 0]),
      { x: 1e-310, y: 0, z: 0 },
      s,
      pose([2 + gap, 0, 0]),
      { x: 0, y: 0, z: 0 },
      Infinity,
    );
    expect(near?.toi).toBeGreaterThan((gap / 1e-310) * (1 - 1e-6));
    expect(near?.toi).toBeLessThan((gap / 1e-310) * (1 + 1e-6));
  });
});
