/**
 * Generator and oracle of the class "a rounded shape against a flat one with faces near parallel"
 * (issue 16, session 30's attack F5: a rounded box touching an aabb at 1.3e6, the normal 1.3e-13
 * rad off the box's face, missing the depth by 7.9e-12 over a bar of 1.7e-12). A rounded box, a
 * rounded hull or a capsule (the shapes with a margin `radius`) turned by R_B·δ, where δ is a
 * tilt of 0 or 2^-5..2^-45 rad about any axis, against a box, an aabb, a hull, a triangle or a
 * rounded box turned by R_B (an aabb's and a triangle's R_B the identity, or any turn of the
 * rounded shape: a corner on a face, as the attack's line), so that a face of the core and a face
 * of the flat shape are near parallel. B is placed along a face normal of either shape (or that
 * normal off by 2^-10..2^-40 rad, or any direction) touching or overlapping by 0..1e-9 of the
 * smaller size, from the test's own support functions ({@link supportExtent}). Sizes 1e-3..1e3,
 * mixed; offsets 0..1e9; both orders.
 *
 * The oracle ({@link overlapMiss}) is the overlap h_A(n) + h_B(−n) along the answer's normal, from
 * the shapes' definitions in the local frame (before the offset), summed exactly over the input
 * doubles (dyadic rationals): only the rotation matrices (from the quaternions, in doubles) and
 * the radius's |n| are rounded, each within a few ulps of the shapes' size, far below the bar.
 */
import fc from "fast-check";
import { offsetArb, rotationArb, unitArb } from "./arbitraries.js";
import { exactOffset, offsetScenario, type Scenario } from "./generate.js";
import { add, dot, quatMatrix, rotate, scale, sub, unrotate, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

/** m·2^e exactly (BigInt m). */
interface Dy {
  m: bigint;
  e: number;
}
const view = new DataView(new ArrayBuffer(8));
/** The exact dyadic value of a finite double. */
function dy(x: number): Dy {
  if (x === 0) return { m: 0n, e: 0 };
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e = -1074;
  if (exp !== 0) {
    m |= 1n << 52n;
    e = exp - 1075;
  }
  return { m: hi >>> 31 ? -m : m, e };
}
function dadd(a: Dy, b: Dy): Dy {
  if (a.e <= b.e) return { m: a.m + (b.m << BigInt(b.e - a.e)), e: a.e };
  return { m: (a.m << BigInt(a.e - b.e)) + b.m, e: b.e };
}
const dneg = (a: Dy): Dy => ({ m: -a.m, e: a.e });
const dmul = (a: Dy, b: Dy): Dy => ({ m: a.m * b.m, e: a.e + b.e });
const dabs = (a: Dy): Dy => (a.m < 0n ? dneg(a) : a);
const dmax = (a: Dy, b: Dy): Dy => (dadd(a, dneg(b)).m >= 0n ? a : b);
/** The double nearest a dyadic (to 2^-60 relative). */
function dnum(a: Dy): number {
  let { m, e } = a;
  const bits = (m < 0n ? -m : m).toString(2).length;
  if (bits > 62) {
    m >>= BigInt(bits - 62);
    e += bits - 62;
  }
  return Number(m) * 2 ** e;
}
/** a·b exactly, a and b doubles' vectors. */
const ddot = (a: readonly number[], b: readonly number[]): Dy =>
  dadd(dadd(dmul(dy(a[0]), dy(b[0])), dmul(dy(a[1]), dy(b[1]))), dmul(dy(a[2]), dy(b[2])));

/** Rᵀn exactly for the double matrix R of quaternion q (rows of {@link quatMatrix}). */
function unrotateExact(q: readonly number[] | undefined, n: readonly number[]): Dy[] {
  const R = quatMatrix(q);
  return [0, 1, 2].map((k) => ddot([R[0][k], R[1][k], R[2][k]], n));
}

/** max over points p of (c + R p)·n exactly, R from quaternion q. */
function pointsExtent(pts: readonly V[], q: unknown, c: readonly number[], n: readonly number[]) {
  const l = unrotateExact(q as number[] | undefined, n);
  let m: Dy | null = null;
  for (const p of pts) {
    const v = dadd(dadd(dmul(dy(p[0]), l[0]), dmul(dy(p[1]), l[1])), dmul(dy(p[2]), l[2]));
    m = m === null ? v : dmax(m, v);
  }
  return dadd(m as Dy, ddot(c, n));
}

/**
 * The support function h(n) = max over the shape of p·n (local frame), n as given (not
 * normalised; the radius counts |n|), exact but for the rotation matrix and |n|. Every type the
 * generator draws: roundedBox, roundedConvex, capsule, box, aabb, convex, triangle.
 */
export function supportExact(j: J, n: readonly number[]): Dy {
  const radius = (j.radius as number | undefined) ?? 0;
  const rn = dy(radius * Math.hypot(n[0], n[1], n[2]));
  switch (j.type) {
    case "roundedBox":
    case "box": {
      const l = unrotateExact(j.rotation as number[] | undefined, n);
      const h = j.halfExtents as V;
      let s = ddot(j.center as V, n);
      for (let k = 0; k < 3; k++) s = dadd(s, dmul(dabs(l[k]), dy(h[k])));
      return dadd(s, j.type === "box" ? dy(0) : rn);
    }
    case "aabb": {
      const lo = j.min as V;
      const hi = j.max as V;
      let s = dy(0);
      for (let k = 0; k < 3; k++)
        s = dadd(s, dmax(dmul(dy(lo[k]), dy(n[k])), dmul(dy(hi[k]), dy(n[k]))));
      return s;
    }
    case "roundedConvex":
    case "convex": {
      const s = pointsExtent(j.points as V[], j.rotation, (j.position as V) ?? [0, 0, 0], n);
      return j.type === "convex" ? s : dadd(s, rn);
    }
    case "capsule":
      return dadd(dmax(ddot(j.a as V, n), ddot(j.b as V, n)), rn);
    case "triangle":
      return dmax(dmax(ddot(j.a as V, n), ddot(j.b as V, n)), ddot(j.c as V, n));
  }
  throw new Error(`rounded-tilt oracle: no support function for ${String(j.type)}`);
}

/** h(n) of a shape in doubles (for placing it). */
export const supportExtent = (j: J, n: V): number => dnum(supportExact(j, n));

/**
 * The overlap h_A(n) + h_B(−n) of the local pair along unit n (A toward B) less `depth`, exactly
 * but for the rounding of {@link supportExact}: how far the normal n misses the depth.
 */
export function overlapMiss(a: J, b: J, n: readonly number[], depth: number): number {
  const nn = [-n[0], -n[1], -n[2]];
  return dnum(dadd(dadd(supportExact(a, n), supportExact(b, nn)), dneg(dy(depth))));
}

/** q1·q2 ([x, y, z, w]): turn by q2, then by q1. */
export function quatMul(q1: readonly number[], q2: readonly number[]): number[] {
  const [x1, y1, z1, w1] = q1;
  const [x2, y2, z2, w2] = q2;
  return [
    w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
    w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
    w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
  ];
}

/** The types with a margin (A) and the flat ones (B) the class draws. */
export const ROUNDED_TYPES = ["roundedBox", "roundedConvex", "capsule"] as const;
export const FLAT_TYPES = ["box", "aabb", "convex", "triangle", "roundedBox"] as const;

const BOX_CORNERS: V[] = [
  [-1, -1, -1],
  [1, -1, -1],
  [-1, 1, -1],
  [1, 1, -1],
  [-1, -1, 1],
  [1, -1, 1],
  [-1, 1, 1],
  [1, 1, 1],
];
const TETRA: V[] = [
  [0.3, 0.3, 0.3],
  [-0.3, -0.3, 0.3],
  [-0.3, 0.3, -0.3],
  [0.3, -0.3, -0.3],
];
const AXES: V[] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
  [-1, 0, 0],
  [0, -1, 0],
  [0, 0, -1],
];

const sizeArb = fc.double({ min: -3, max: 3, noNaN: true }).map((e) => 10 ** e);
const fraction = fc.double({ min: 0.2, max: 1, noNaN: true });
const dims = fc.tuple(fraction, fraction, fraction);
const coordinate = fc.double({ min: -1, max: 1, noNaN: true });
const pointsArb = fc.oneof(
  fc.constant(BOX_CORNERS),
  fc.array(fc.tuple(coordinate, coordinate, coordinate), { minLength: 4, maxLength: 10 }),
);
/** A tilt angle: 0 or 2^-5..2^-45 rad. */
const tiltArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: 5, max: 45 }).map((k) => 2 ** -k) },
);
/** The overlap in units of the smaller size: 0 (touching) to 1e-9. */
const depthArb = fc.oneof(
  fc.constantFrom(0, 0, 1e-16, 1e-14, 1e-12, 1e-10, 1e-9),
  fc.double({ min: 0, max: 1e-9, noNaN: true }),
);

/** The rounded shape A (centre 0) of size s, turned by q. */
function roundedShape(type: string, s: number, q: number[], d: V, pts: V[], rr: number): J {
  const core = s * (1 - rr);
  if (type === "roundedBox") {
    return { type, center: [0, 0, 0], halfExtents: scale(d, core), radius: s * rr, rotation: q };
  }
  if (type === "roundedConvex") {
    const points = [...pts, ...TETRA].map((p) => scale(p as V, core));
    return { type, points, radius: s * rr, position: [0, 0, 0], rotation: q };
  }
  // A capsule along the turned x axis (its side parallel to the faces the turn tilts).
  const h = rotate(q, [core * d[0], 0, 0]);
  return { type: "capsule", a: h, b: scale(h, -1), radius: s * rr };
}

/** The flat shape B (centre 0) of size s, turned by q (an aabb's and a triangle's q applied to points). */
function flatShape(type: string, s: number, q: number[], d: V, pts: V[], tri: V[]): J {
  const h = scale(d, s);
  if (type === "box") return { type, center: [0, 0, 0], halfExtents: h, rotation: q };
  if (type === "roundedBox") {
    return { type, center: [0, 0, 0], halfExtents: scale(h, 0.75), radius: s / 4, rotation: q };
  }
  if (type === "aabb") return { type, min: scale(h, -1), max: h };
  if (type === "convex") {
    return {
      type,
      points: [...pts, ...TETRA].map((p) => scale(p, s)),
      position: [0, 0, 0],
      rotation: q,
    };
  }
  // A triangle in the turned xy plane.
  const [a, b, c] = tri.map((p) => rotate(q, [p[0] * s, p[1] * s, 0]));
  return { type: "triangle", a, b, c };
}

/** A point of the shape (centre 0) where its support function along unit n is reached (doubles). */
function supportPoint(j: J, n: V): V {
  const r = (j.radius as number | undefined) ?? 0;
  const q = j.rotation as number[] | undefined;
  const best = (pts: V[]): V => {
    let m = pts[0];
    for (const p of pts) if (dot(p, n) > dot(m, n)) m = p;
    return m;
  };
  switch (j.type) {
    case "roundedBox":
    case "box": {
      const l = unrotate(q, n);
      const h = j.halfExtents as V;
      const core = rotate(q, [0, 1, 2].map((k) => (l[k] < 0 ? -h[k] : h[k])) as V);
      return add(core, scale(n, r));
    }
    case "aabb":
      return [0, 1, 2].map((k) => ((n[k] < 0 ? j.min : j.max) as V)[k]) as V;
    case "roundedConvex":
    case "convex":
      return add(best((j.points as V[]).map((p) => rotate(q, p))), scale(n, r));
    case "capsule":
      return add(best([j.a as V, j.b as V]), scale(n, r));
    default:
      return best([j.a as V, j.b as V, j.c as V]);
  }
}

/** v less its component along unit n. */
const across = (v: V, n: V): V => sub(v, scale(n, dot(v, n)));

/** B's JSON moved by t. */
function moved(j: J, t: V): J {
  const o: J = { ...j };
  for (const k of ["center", "min", "max", "a", "b", "c", "position"]) {
    if (o[k]) o[k] = add(o[k] as V, t);
  }
  return o;
}

/** One drawn pair: its name (rounded type first) and its scenario in both orders. */
export interface RoundedTiltCase {
  pair: string;
  tilt: number;
  /** The direction B was placed along (unit, A toward B) and the overlap along it (scene units). */
  normal: V;
  depth: number;
  scenarios: [Scenario, Scenario];
}

/** The class's pairs ({@link RoundedTiltCase}). */
export const roundedTiltArb = fc
  .tuple(
    fc.constantFrom(...ROUNDED_TYPES),
    fc.constantFrom(...FLAT_TYPES),
    fc.tuple(sizeArb, sizeArb, fc.boolean()),
    fc.tuple(dims, dims, pointsArb, pointsArb),
    fc.constantFrom(2 ** -10, 2 ** -4, 0.25, 0.5),
    fc.tuple(
      fc.oneof(rotationArb, fc.constant<number[]>([0, 0, 0, 1])),
      tiltArb,
      unitArb,
      fc.integer({ min: 0, max: 9 }),
      rotationArb,
    ),
    fc.tuple(
      fc.integer({ min: 0, max: 5 }),
      fc.constantFrom("A", "B", "A", "B", "any"),
      fc.oneof(
        fc.constant(0),
        fc.integer({ min: 10, max: 40 }).map((k) => 2 ** -k),
      ),
      unitArb,
      unitArb,
    ),
    fc.tuple(
      fc.tuple(coordinate, coordinate),
      fc.tuple(coordinate, coordinate),
      fc.tuple(coordinate, coordinate),
    ),
    depthArb,
    fc.tuple(
      fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.9, noNaN: true })),
      fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.9, noNaN: true })),
    ),
    offsetArb,
  )
  .map(
    ([
      ta,
      tb,
      [sa0, sb0, same],
      [da, db, pa, pb],
      rr,
      [qb0, tilt, axis, turnKind, qAny],
      [face, of, off, wob, any],
      tri,
      rel,
      mu,
      [ou, om],
    ]) => {
      const sa = sa0;
      const sb = same ? sa0 * (0.5 + sb0 / 2000) : sb0;
      // B's turn: the identity for an aabb (its faces the world's), any for the others.
      const qb = tb === "aabb" ? [0, 0, 0, 1] : qb0;
      const half = tilt / 2;
      const dq = [
        axis[0] * Math.sin(half),
        axis[1] * Math.sin(half),
        axis[2] * Math.sin(half),
        Math.cos(half),
      ];
      // A's turn: B's tilted by δ, or (1 in 10) any turn, as the attack's corner on a face.
      const qa = turnKind === 0 ? qAny : quatMul(qb, dq);
      const a = roundedShape(ta, sa, qa, da as V, pa as V[], rr);
      const b0 = flatShape(tb, sb, qb, db as V, pb as V[], tri.map(([x, y]) => [x, y, 0]) as V[]);
      // The direction from A to B: a face normal of A's core or of B (off by `off` rad), or any.
      let n: V =
        of === "any" ? (any as V) : of === "A" ? rotate(qa, AXES[face]) : rotate(qb, AXES[face]);
      if (tb === "triangle" && of === "B") n = rotate(qb, AXES[face % 2 ? 2 : 5]);
      if (off > 0 && of !== "any") n = add(n, scale(wob as V, off));
      const ln = Math.hypot(n[0], n[1], n[2]);
      n = scale(n, 1 / ln);
      // B's supporting point onto A's along n (so both shapes hold it and n is normal to both
      // there), slid across n toward A's centre and B's by fractions of the way (touching on a
      // face rather than at its corner), then pushed in by `depth`.
      const pA = supportPoint(a, n);
      const pB = supportPoint(b0, scale(n, -1));
      const slide = add(scale(across(pA, n), -mu[0]), scale(across(pB, n), mu[1]));
      const depth = rel * Math.min(sa, sb);
      const b = moved(b0, add(sub(add(pA, slide), pB), scale(n, -depth)));
      const offset = exactOffset(ou, Math.min(1e9, om * Math.max(sa, sb) * 1e4));
      // The move into the world snaps the placements to the offset's ulp (1.2e-7 at 1e9), far
      // above the depth: A's radius takes up the difference, so that the overlap along n is
      // `depth` again (to the radius's ulp) whatever the offset.
      const snapped = offsetScenario(a, b, offset);
      const miss = overlapMiss(snapped.localA as J, snapped.localB as J, n, depth);
      const radius = (a.radius as number) - miss;
      const a1 = radius > 0 ? { ...snapped.localA, radius } : snapped.localA;
      const scenarios: [Scenario, Scenario] = [
        offsetScenario(a1, snapped.localB, offset),
        offsetScenario(snapped.localB, a1, offset),
      ];
      // Touching pairs may round apart: a prediction that reaches them, so that contact answers.
      for (const sc of scenarios) sc.prediction = 2 ** -30 * Math.min(sa, sb);
      return { pair: `${ta}-${tb}`, tilt, normal: n, depth, scenarios };
    },
  );
