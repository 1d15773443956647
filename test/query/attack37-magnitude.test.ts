/**
 * Session 36's second fresh-user attack, items 3–7 (test/fuzz/open/README.md), fixed in session
 * 37 as classes: magnitudes near the ends of the doubles.
 *
 * 3. `overlapVolume` of a unit ball inside a ball of radius ≥ ~1e104 gave 0 with errorBound 0:
 *    the lens was computed in units of the larger radius, where the small ball's volume
 *    underflowed. Now decided through s = R − d held exactly, measured in units of the smaller
 *    radius, and the errorBound carries the rounding of the centres' distance.
 * 4. `raycast` from inside a sphere of radius ≥ ~1e155 missed (and the world's
 *    `castRayClosest`): the quadratic's c = |o|² − r² overflowed. `lineBall` and the cone's
 *    quadric now scale lengths outside [2^-400, 2^400] by a power of two.
 * 5., 6. `makeCone(1e308, 1)`, `makeRoundedCuboid` of 1e308, `makeCapsule` with ends ±9e307
 *    were accepted and then answered wrong or with an internal fault: every shape's coordinates
 *    in its own frame must now lie below MESH_COORDINATE_LIMIT = 2^1023, the limit of a mesh's,
 *    a hull's and a heightfield's vertices (src/shapes/validate.ts `checkShapeExtent`).
 * 7. `makeCompound` with children at ±1.7e308 was accepted and queries named `primBounds[0]`:
 *    a child's box at its pose must lie below the same limit, naming
 *    `children[i].pose.translation`; a world body whose shape alone reaches past the world's
 *    bound names `body.shape`, not `body.pose.translation` with (0, 0, 0).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MESH_COORDINATE_LIMIT } from "../../src/constants.js";
import {
  CollisionWorld,
  castRayClosest,
  distance,
  intersects,
  isometry,
  makeCapsule,
  makeCompound,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeRoundedConvexPolyhedron,
  makeRoundedCuboid,
  makeSphere,
  makeTriangle,
  overlapVolume,
  raycast,
  sphereSphereIntersection,
  vec3,
} from "../../src/index.js";
import { answerQuery } from "../../src/io/query.js";
import type { Shape } from "../../src/shapes/shape.js";
import { refusal } from "../support/refusal.js";

const I = isometry.identity();
const L = MESH_COORDINATE_LIMIT;
/** The largest double below 2^1023. */
const BELOW_L = L * (1 - 2 ** -53);
const at = (x: number, y = 0, z = 0) => isometry.create(vec3.create(x, y, z));
const FC = { numRuns: 200, seed: 37 };

/** The cube's 8 corners ±s, packed. */
function cube(s: number): number[] {
  const p: number[] = [];
  for (const x of [-1, 1])
    for (const y of [-1, 1]) for (const z of [-1, 1]) p.push(x * s, y * s, z * s);
  return p;
}

// ---------------------------------------------------------------------------------------------
// An exact oracle: doubles are dyadic rationals, and so are the lens's cap heights for an exact
// distance; the volume over π is a rational computed with BigInt.

interface Q {
  n: bigint;
  d: bigint;
}
function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}
function norm(n: bigint, d: bigint): Q {
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d);
  return g > 1n ? { n: n / g, d: d / g } : { n, d };
}
/** The double x as an exact rational. */
function q(x: number): Q {
  let e = 0;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  return norm(BigInt(m), 1n << BigInt(e));
}
const add = (a: Q, b: Q) => norm(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Q, b: Q) => norm(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Q, b: Q) => norm(a.n * b.n, a.d * b.d);
const div = (a: Q, b: Q) => norm(a.n * b.d, a.d * b.n);
const cmp = (a: Q, b: Q) => {
  const s = a.n * b.d - b.n * a.d;
  return s > 0n ? 1 : s < 0n ? -1 : 0;
};
const bits = (x: bigint) => (x === 0n ? 0 : x.toString(2).length);
/** The rational as the nearest double (to ~2^-70 relative, then one rounding). */
function toNumber(a: Q): number {
  if (a.n === 0n) return 0;
  const neg = a.n < 0n;
  const n = neg ? -a.n : a.n;
  const k = bits(a.d) - bits(n) + 80;
  const v = k >= 0 ? (n << BigInt(k)) / a.d : n / (a.d << BigInt(-k));
  let x = Number(v);
  // × 2^-k in steps that stay normal.
  let e = -k;
  while (e > 0) {
    const s = Math.min(e, 1000);
    x *= 2 ** s;
    e -= s;
  }
  while (e < 0) {
    const s = Math.max(e, -1000);
    x *= 2 ** s;
    e -= s;
  }
  return neg ? -x : x;
}
const THREE = q(3);
const TWO = q(2);
/** Volume over π of the intersection of balls of radii R, r (rationals) whose centres lie d apart. */
function lensOverPi(R: Q, r: Q, d: Q): Q {
  if (cmp(d, add(R, r)) >= 0) return q(0);
  const [big, small] = cmp(R, r) >= 0 ? [R, r] : [r, R];
  if (cmp(d, sub(big, small)) <= 0) return div(mul(q(4), mul(small, mul(small, small))), THREE);
  const gap = sub(add(big, small), d);
  const hb = div(mul(add(sub(small, big), d), gap), mul(TWO, d));
  const hs = div(mul(add(sub(big, small), d), gap), mul(TWO, d));
  const cap = (h: Q, rad: Q) => div(mul(mul(h, h), sub(mul(THREE, rad), h)), THREE);
  return add(cap(hb, big), cap(hs, small));
}
/** Bounds lo ≤ √(a) ≤ hi, rationals (a ≥ 0). */
function sqrtBracket(a: Q): [Q, Q] {
  // √(n/d) = √(n·d)/d, the root of an integer scaled by 2^120 for precision.
  const s = 1n << 120n;
  const x = a.n * a.d * s * s;
  let lo = 0n;
  let hi = 1n << BigInt(Math.ceil(bits(x) / 2) + 1);
  while (hi - lo > 1n) {
    const m = (lo + hi) >> 1n;
    if (m * m <= x) lo = m;
    else hi = m;
  }
  return [norm(lo, a.d * s), norm(hi, a.d * s)];
}

describe("3. overlapVolume of two balls at any ratio of radii", () => {
  const FOUR_THIRDS_PI = (4 / 3) * Math.PI;

  it("the report: a unit ball inside a ball of 1e104..8e307 is the unit ball's volume 4π/3, both orders, errorBound 0", () => {
    const u = makeSphere(1);
    for (const R of [1e100, 1e103, 1e104, 1e155, 1e200, 1e300, 8e307, BELOW_L]) {
      const big = makeSphere(R);
      for (const r of [overlapVolume(big, I, u, I), overlapVolume(u, I, big, I)]) {
        expect(r.volume).toBe(FOUR_THIRDS_PI);
        expect(r.errorBound).toBe(0);
      }
      // Off centre, still inside: the same.
      expect(overlapVolume(big, I, u, at(R / 2)).volume).toBe(FOUR_THIRDS_PI);
    }
    // The command answers the same, with the volume's fields.
    const line = answerQuery({
      op: "volume",
      a: { type: "sphere", center: [0, 0, 0], radius: 1e200 },
      b: { type: "sphere", center: [0, 0, 0], radius: 1 },
    }) as { volume: number; errorBound: number; iou: number };
    expect(line.volume).toBe(FOUR_THIRDS_PI);
    expect(line.errorBound).toBe(0);
    expect(line.iou).toBe(0); // (1e-200)³ underflows: the ratio is below the doubles
  });

  it("a unit ball centred on the surface of a ball of R = 2^60..8e307 is half inside: 2π/3 (+ π/(4R), below an ulp)", () => {
    const u = makeSphere(1);
    for (const R of [2 ** 60, 1e20, 1e104, 1e200, 8e307]) {
      const r = overlapVolume(makeSphere(R), I, u, at(R));
      expect(Math.abs(r.volume - (2 / 3) * Math.PI)).toBeLessThanOrEqual(4e-16 * 2);
      expect(r.errorBound).toBe(0);
      // Just outside by a little more than the small radius: apart, exactly.
      expect(overlapVolume(makeSphere(R), I, u, at(R + 2 * R * 2 ** -52)).volume).toBe(0);
    }
  });

  it("the errorBound is honest where the distance rounds: a unit ball on the surface of one of 1e200 along a diagonal", () => {
    const R = 1e200;
    const r = overlapVolume(makeSphere(R), I, makeSphere(1), at(0.6 * R, 0.8 * R));
    // The true distance is within ~1e184 of R, which decides nothing at radius 1: the bound
    // covers the whole range [0, 4π/3].
    expect(r.volume - r.errorBound).toBeLessThanOrEqual(1e-12);
    expect(r.volume + r.errorBound).toBeGreaterThanOrEqual(FOUR_THIRDS_PI * (1 - 1e-12));
  });

  // Two radii: the smaller below 1e102 (its volume a finite double), the larger to 8e307.
  const radii = fc
    .tuple(
      fc.double({ min: -300, max: 102, noNaN: true }),
      fc.double({ min: -300, max: 307.9, noNaN: true }),
    )
    .map(([e1, e2]) => [10 ** Math.max(e1, e2), 10 ** Math.min(e1, e2)] as const);

  it("property: balls on an axis (exact distances), radii 1e-300..8e307 at any ratio, contained, lens or apart: the exact rational volume, errorBound 0", () => {
    fc.assert(
      fc.property(
        radii,
        fc.double({ min: -1.3, max: 1.3, noNaN: true }),
        fc.boolean(),
        ([big, small], t, swap) => {
          // The small ball's centre placed across the large one's surface (t: −1 deep, 1 apart).
          const d = Math.abs(big + t * small);
          const a = makeSphere(big);
          const b = makeSphere(small);
          const res = swap ? overlapVolume(b, at(d), a, I) : overlapVolume(a, I, b, at(d));
          const exact = toNumber(lensOverPi(q(big), q(small), q(d))) * Math.PI;
          // errorBound 0, but for a pair below 2^-128 (session 40's `tinyPairVolume`): there a
          // subnormal volume's own rounding, 2·2^-1074, is added, and the exact value lies within.
          const tiny = big < 2 ** -128;
          expect(res.errorBound).toBe(tiny && res.volume < 2 ** -1022 ? 2 * 2 ** -1074 : 0);
          expect(Math.abs(res.volume - exact)).toBeLessThanOrEqual(
            1e-13 * exact + 1e-320 + res.errorBound,
          );
          // The library's sphereSphereIntersection gives the same volume.
          const s = sphereSphereIntersection(vec3.create(), big, vec3.create(d, 0, 0), small);
          expect(s.volume).toBe(res.volume);
        },
      ),
      FC,
    );
  });

  it("property: balls in general position (rounded distances, offsets to 1e9): the true volume lies within volume ± errorBound (rational brackets of the distance)", () => {
    fc.assert(
      fc.property(
        radii,
        fc.double({ min: -1.3, max: 1.3, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        ([big, small], t, phi, z, off) => {
          const d = Math.abs(big + t * small);
          const s = Math.sqrt(1 - z * z);
          const ca = vec3.create(off, -off, off);
          const cb = vec3.create(
            off + d * s * Math.cos(phi),
            -off + d * s * Math.sin(phi),
            off + d * z,
          );
          const res = overlapVolume(
            makeSphere(big),
            at(ca.x, ca.y, ca.z),
            makeSphere(small),
            at(cb.x, cb.y, cb.z),
          );
          // The exact squared distance of the centres as given, and rational bounds of its root.
          const dx = sub(q(cb.x), q(ca.x));
          const dy = sub(q(cb.y), q(ca.y));
          const dz = sub(q(cb.z), q(ca.z));
          const [lo, hi] = sqrtBracket(add(add(mul(dx, dx), mul(dy, dy)), mul(dz, dz)));
          const most = toNumber(lensOverPi(q(big), q(small), lo)) * Math.PI;
          const least = toNumber(lensOverPi(q(big), q(small), hi)) * Math.PI;
          const slack = 1e-13 * Math.max(most, res.volume) + 1e-320;
          expect(res.volume + res.errorBound).toBeGreaterThanOrEqual(least - slack);
          expect(res.volume - res.errorBound).toBeLessThanOrEqual(most + slack);
          // Never wider than the small ball's volume (plus rounding): the bound stays useful.
          expect(res.errorBound).toBeLessThanOrEqual(FOUR_THIRDS_PI * small ** 3 * 1.001 + 1e-320);
        },
      ),
      { numRuns: 60, seed: 37 },
    );
  });
});

describe("4. ray casts from inside balls, capsules, cylinders and cones of any size", () => {
  /** The exit of a ray from o (inside) along d of the circle/ball of radius R at the origin: the textbook root in units of R's binade. */
  function exitOracle(o: number[], d: number[], R: number): number {
    const k = 2 ** -Math.floor(Math.log2(R));
    const os = o.map((x) => x * k);
    const rs = R * k;
    const dl = Math.hypot(...d);
    const u = d.map((x) => x / dl);
    const b = os.reduce((s, x, i) => s + x * u[i], 0);
    const c = os.reduce((s, x) => s + x * x, 0) - rs * rs;
    return (-b + Math.sqrt(b * b - c)) / k / dl;
  }

  it("the report: a ray from the centre of a ball of 1e155..8e307 hits at 0 (solid) and leaves at the radius (solid: false); the world's castRayClosest too", () => {
    const o = vec3.create(0, 0, 0);
    const d = vec3.create(1, 0, 0);
    for (const R of [1e150, 1e155, 1e160, 1e200, 1e300, 8e307, 1e-160, 1e-300]) {
      const s = makeSphere(R);
      expect(raycast(s, I, o, d, Infinity)?.toi).toBe(0);
      const exit = raycast(s, I, o, d, Infinity, false)?.toi ?? Number.NaN;
      expect(Math.abs(exit - R)).toBeLessThanOrEqual(4 * 2 ** -52 * R);
      if (R <= 1e299) {
        const w = new CollisionWorld();
        w.addBody({ shape: s, pose: I });
        expect(castRayClosest(w, o, d, Infinity)?.toi).toBe(0);
        const we = castRayClosest(w, o, d, Infinity, { solid: false })?.toi ?? Number.NaN;
        expect(Math.abs(we - R)).toBeLessThanOrEqual(4 * 2 ** -52 * R);
      }
    }
  });

  const size = fc.double({ min: -300, max: 307.5, noNaN: true }).map((e) => 10 ** e);
  const inside = fc.double({ min: -0.9, max: 0.9, noNaN: true });
  const dirc = fc.double({ min: -1, max: 1, noNaN: true });

  it("property: from inside a ball, a capsule's cap, a cylinder or a cone at its mid-height, sizes 1e-300..3e307: toi 0 (solid) and the exit of the textbook root in units of the size", () => {
    fc.assert(
      fc.property(
        size,
        inside,
        inside,
        dirc,
        dirc,
        fc.constantFrom("sphere", "capsule", "cylinder", "cone"),
        (R, fx, fz, dx, dz, kind) => {
          if (Math.hypot(fx, fz) > 0.9 || Math.hypot(dx, dz) < 1e-3) return;
          // In the plane y = 0: each shape's section there is a disc (the cone's of radius R,
          // made with base radius 2R; the capsule's, a ball of R around its end at the origin).
          const shape: Shape =
            kind === "sphere"
              ? makeSphere(R)
              : kind === "capsule"
                ? makeCapsule(vec3.create(0, 0, 0), vec3.create(0, R / 2, 0), R)
                : kind === "cylinder"
                  ? makeCylinder(R, R)
                  : makeCone(R, 2 * R);
          const o = vec3.create(fx * R, 0, fz * R);
          // A capsule's ball around a is cut by nothing below y = 0: keep the ray in y ≤ 0 there.
          const d = vec3.create(dx, kind === "capsule" ? -0.5 : 0, dz);
          const dd = [d.x, d.y, d.z];
          expect(raycast(shape, I, o, d, Infinity)?.toi).toBe(0);
          const exit = raycast(shape, I, o, d, Infinity, false)?.toi ?? Number.NaN;
          const want = exitOracle([o.x, o.y, o.z], dd, R);
          expect(Math.abs(exit - want)).toBeLessThanOrEqual(1e-12 * want);
        },
      ),
      FC,
    );
  });
});

describe("5.–7. every shape's coordinates below MESH_COORDINATE_LIMIT = 2^1023, refused at construction naming the field", () => {
  it("the report: makeCone(1e308, 1) and (9e307, 1) refused naming halfHeight; (8.9e307, 1) holds a unit ball", () => {
    for (const h of [1e308, 9e307]) {
      const e = refusal(() => makeCone(h, 1));
      expect(e.field).toBe("halfHeight");
      expect(e.value).toBe(h);
      expect(e.message).toMatch(
        /^halfHeight is too large: the half height reaches .* not below MESH_COORDINATE_LIMIT = 2\^1023/,
      );
    }
    const cone = makeCone(8.9e307, 1);
    expect(intersects(cone, I, makeSphere(1), I)).toBe(true);
    expect(distance(cone, I, makeSphere(1), I).distance).toBe(0);
  });

  it("the report: makeRoundedCuboid of 1e308 and makeCapsule (0, ±9e307, 0) r 9e307 or ±1e308 refused naming the field and value", () => {
    const h = vec3.create(1e308, 1e308, 1e308);
    let e = refusal(() => makeRoundedCuboid(h, 1));
    expect([e.field, e.value]).toEqual(["halfExtents", h]);
    const a = vec3.create(0, 9e307, 0);
    e = refusal(() => makeCapsule(a, vec3.create(0, -9e307, 0), 9e307));
    expect([e.field, e.value]).toEqual(["a", a]);
    e = refusal(() => makeCapsule(vec3.create(0, 1e308, 0), vec3.create(0, -1e308, 0), 1));
    expect(e.field).toBe("a");
    // An end and a radius each below the limit whose sum is not: the radius.
    e = refusal(() => makeCapsule(vec3.create(0, 8.5e307, 0), vec3.create(0, -8.5e307, 0), 5e306));
    expect([e.field, e.value]).toEqual(["radius", 5e306]);
    e = refusal(() => makeRoundedCuboid(vec3.create(8e307, 1, 1), 1e307));
    expect([e.field, e.value]).toEqual(["radius", 1e307]);
    e = refusal(() => makeRoundedConvexPolyhedron(cube(8e307), 1e307));
    expect([e.field, e.value]).toEqual(["radius", 1e307]);
    // Named under the caller's field, and by the command under the line's.
    e = refusal(() => makeCylinder(1, 1e308, "shape"));
    expect(e.field).toBe("shape.radius");
    e = refusal(() =>
      answerQuery({
        op: "distance",
        a: { type: "cone", center: [0, 0, 0], halfHeight: 9e307, radius: 1 },
        b: { type: "sphere", center: [0, 0, 0], radius: 1 },
      }),
    );
    expect(e.field).toBe("a.halfHeight");
  });

  it("a capsule of length 1e160..8.9e307 (|b − a|² past the doubles) answers a unit ball inside and beside it (was an internal fault's NaN)", () => {
    const u = makeSphere(1);
    for (const m of [1e150, 1e160, 1e200, 1e300, 1e307, 5e307, 8.9e307]) {
      const cap = makeCapsule(vec3.create(0, -m / 2, 0), vec3.create(0, m / 2, 0), m / 4);
      expect(intersects(cap, I, u, I)).toBe(true);
      expect(distance(cap, I, u, I).distance).toBe(0);
      // Beside it at x = m/2 (hand-derived: the axis is m/2 away, less both radii).
      const d = distance(cap, I, u, at(m / 2, m / 8)).distance;
      expect(Math.abs(d - (m / 4 - 1))).toBeLessThanOrEqual(1e-14 * m);
    }
  });

  it("the report: makeCompound with children at ±1.7e308 refused naming children[0].pose.translation and its value; a child reaching the limit from below too", () => {
    const u = makeSphere(1);
    const t = vec3.create(1.7e308, 0, 0);
    let e = refusal(() =>
      makeCompound([
        { shape: u, pose: isometry.create(t) },
        { shape: u, pose: isometry.create(vec3.create(-1.7e308, 0, 0)) },
      ]),
    );
    expect([e.field, e.value]).toEqual(["children[0].pose.translation", t]);
    const t2 = vec3.create(0, 0, 8.5e307);
    e = refusal(() =>
      makeCompound([
        { shape: u, pose: I },
        { shape: makeSphere(5e306), pose: isometry.create(t2) },
      ]),
    );
    expect([e.field, e.value]).toEqual(["children[1].pose.translation", t2]);
    // A nested compound whose composed pose passes the limit: the outer child's pose.
    const inner = makeCompound([{ shape: u, pose: at(5e307) }]);
    e = refusal(() => makeCompound([{ shape: inner, pose: at(5e307) }], "shape"));
    expect(e.field).toBe("shape.children[0].pose.translation");
  });

  it("the world names the shape when the shape alone passes its bound, else the translation, with the value given", () => {
    const w = new CollisionWorld();
    const far = makeCompound([{ shape: makeSphere(1), pose: at(5e307) }]);
    let e = refusal(() => w.addBody({ shape: far, pose: I }));
    expect(e.field).toBe("body.shape");
    expect(e.value).toBe(far);
    expect(e.message).toMatch(/^body\.shape reaches 5e\+307 from the body's origin/);
    const t = vec3.create(1.7e308, 0, 0);
    e = refusal(() => w.addBody({ shape: makeSphere(1e299), pose: isometry.create(t) }));
    expect([e.field, e.value]).toEqual(["body.pose.translation", t]);
  });

  /** Each constructor at a magnitude m, and the field its refusal names. */
  const makers: [string, (m: number) => Shape, string][] = [
    ["sphere", (m) => makeSphere(m), "radius"],
    ["cuboid", (m) => makeCuboid(vec3.create(1, m, 1)), "halfExtents"],
    ["cylinder", (m) => makeCylinder(m, 1), "halfHeight"],
    ["cylinder r", (m) => makeCylinder(1, m), "radius"],
    ["cone", (m) => makeCone(m, 1), "halfHeight"],
    ["cone r", (m) => makeCone(1, m), "radius"],
    [
      "capsule",
      (m) => makeCapsule(vec3.create(0, -m / 2, 0), vec3.create(0, m / 2, 0), m / 2),
      "radius",
    ],
    ["rounded cuboid", (m) => makeRoundedCuboid(vec3.create(m / 2, 1, 1), m / 2), "radius"],
    ["rounded hull", (m) => makeRoundedConvexPolyhedron(cube(m / 2), m / 2), "radius"],
    ["hull", (m) => makeConvexPolyhedron(cube(m)), "points"],
    [
      "triangle",
      // (Fat: a needle of width 2 and length 1e300 misses the ball at its origin, the open
      // closestPointOnSegment finding of session 36's first attack, item 5.)
      (m) => makeTriangle(vec3.create(-m, 0, -m), vec3.create(m, 0, -m), vec3.create(0, 0, m)),
      "a",
    ],
    [
      "compound",
      (m) => makeCompound([{ shape: makeSphere(m / 2), pose: at(m / 2) }]),
      "children[0].pose.translation",
    ],
  ];

  it("at the limit: each constructor accepts the largest double below 2^1023 and refuses 2^1023, naming its field", () => {
    for (const [name, make, field] of makers) {
      expect(() => make(BELOW_L), name).not.toThrow();
      expect(refusal(() => make(L)).field, name).toBe(field);
    }
  });

  it("property: magnitudes 1e300..1.79e308: accepted iff below 2^1023, refused naming the field; an accepted shape holds a unit ball at its origin (intersects, distance 0)", () => {
    const u = makeSphere(1);
    fc.assert(
      fc.property(
        fc.oneof(
          fc
            .double({ min: 300, max: Math.log10(Number.MAX_VALUE), noNaN: true })
            .map((e) => Math.min(10 ** e, Number.MAX_VALUE)),
          fc
            .double({ min: 0.999, max: 1.001, noNaN: true })
            .map((f) => Math.min(L * f, Number.MAX_VALUE)),
        ),
        fc.integer({ min: 0, max: makers.length - 1 }),
        (m, i) => {
          const [name, make, field] = makers[i];
          // The extent each maker reaches: m (the capsule and rounded ones m/2 + m/2).
          if (m < L) {
            const s = make(m);
            expect(intersects(s, I, u, I), name).toBe(true);
            expect(distance(s, I, u, I).distance, name).toBe(0);
          } else {
            expect(refusal(() => make(m)).field, name).toBe(field);
          }
        },
      ),
      { numRuns: 300, seed: 37 },
    );
  });
});
