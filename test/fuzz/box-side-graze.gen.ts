/**
 * Generator of seed 96's class: a turned box near-touching the top face of an aabb (or of a box)
 * at that face's side, so that the deepest feature of the box — its lowest corner, or a point of
 * one of that corner's edges — lies at the side plane, within a few ulps of it or across it, at a
 * depth of 2^-40..2^-20 of the box's size. Half the draws turn one of the box's axes to within
 * 10^-1..10^-6 rad of the side plane (seed 96's edge ran 4.8e-4 rad off it), so that the clip of
 * a face along that axis against the side plane is ill-conditioned. Written without the library.
 *
 * Construction, in the aabb's frame (its top face y = 0, its side x = 0, the top edge along z):
 * the box's rotation from three orthonormal axes, its lowest corner r (least y over the eight
 * corners in doubles), a point p = r + λ·e on one of that corner's edges e (λ = 0: the corner),
 * and the centre placed so that p lands at (−δ, −d, ζ): δ a few ulps to 2^-30 of the size either
 * side of the side plane, d the depth. Box against box: the same pair turned as a whole.
 */
import fc from "fast-check";
import { quatMul, rotateVec } from "../support/quat.js";
import { offsetArb, unitArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import { cross, dot, scale, sub, unit, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

/** One drawn pair: the turned box `box`, the other `other` (aabb or box), the world offset, the pair's name. */
export interface SideGraze {
  box: J;
  other: J;
  offset: number[];
  pair: "aabb-box" | "box-box";
}

/** The unit quaternion [x, y, z, w] of the rotation whose columns are the orthonormal axes c0, c1, c2. */
export function quatFromAxes(c0: V, c1: V, c2: V): [number, number, number, number] {
  const m = [
    [c0[0], c1[0], c2[0]],
    [c0[1], c1[1], c2[1]],
    [c0[2], c1[2], c2[2]],
  ];
  const tr = m[0][0] + m[1][1] + m[2][2];
  let q: [number, number, number, number];
  if (tr > 0) {
    const s = 2 * Math.sqrt(1 + tr);
    q = [(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, s / 4];
  } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    const s = 2 * Math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]);
    q = [s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s];
  } else if (m[1][1] > m[2][2]) {
    const s = 2 * Math.sqrt(1 + m[1][1] - m[0][0] - m[2][2]);
    q = [(m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m[2][2] - m[0][0] - m[1][1]);
    q = [(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4, (m[1][0] - m[0][1]) / s];
  }
  const n = Math.hypot(...q);
  return q.map((x) => x / n) as [number, number, number, number];
}

/**
 * A double in [lo, hi] on a grid of 2^20 steps (fast-check's doubles favour the bounds, which
 * here put axes in the coordinate planes, off the class).
 */
const uniform = (lo: number, hi: number): fc.Arbitrary<number> =>
  fc.integer({ min: 0, max: 2 ** 20 }).map((i) => lo + ((hi - lo) * i) / 2 ** 20);

const unitInterval = uniform(0, 1);

/** A rotation: random, or with one axis (cycled into place by `shift`) 10^-1..10^-6 rad off the plane x = 0. */
const grazeRotationArb = fc
  .tuple(fc.boolean(), unitArb, unitArb, uniform(1, 6), fc.boolean())
  .chain(([graze, u, w, r, neg]) =>
    fc.integer({ min: 0, max: 2 }).map((shift) => {
      let c0: V;
      if (graze) {
        const e = (neg ? -1 : 1) * 10 ** -r;
        const s = Math.hypot(u[1], u[2]);
        const [y, z] = s > 1e-3 ? [u[1] / s, u[2] / s] : [1, 0];
        const k = Math.sqrt(1 - e * e);
        c0 = [e, y * k, z * k];
      } else c0 = u;
      c0 = unit(c0);
      let c1 = sub(w, scale(c0, dot(w, c0)));
      if (Math.hypot(...c1) < 1e-3) c1 = cross(c0, [0.6, 0, 0.8]);
      c1 = unit(c1);
      const c2 = unit(cross(c0, c1));
      const axes: V[] = [c0, c1, c2];
      return quatFromAxes(axes[shift], axes[(shift + 1) % 3], axes[(shift + 2) % 3]);
    }),
  );

/** Seed 96's rotation (below): c2 = unit(al, 1, be), c0 at 10^-r rad off x = 0 (sign `neg`), c1 = c2 × c0. */
export function seedRotation(
  al: number,
  be: number,
  r: number,
  neg: boolean,
  flip: boolean,
): [number, number, number, number] {
  const c2 = unit([al, 1, be]);
  const e = (neg ? -1 : 1) * 10 ** -r;
  const rho2 = c2[1] * c2[1] + c2[2] * c2[2];
  const rho = Math.sqrt(rho2);
  const k = (-e * c2[0]) / rho2;
  const mu = (flip ? -1 : 1) * Math.sqrt(Math.max(0, 1 - e * e - (k * rho) ** 2));
  const c0 = unit([e, k * c2[1] - (mu * c2[2]) / rho, k * c2[2] + (mu * c2[1]) / rho]);
  const c1 = unit(cross(c2, c0));
  return quatFromAxes(c0, c1, c2);
}

/**
 * Seed 96's shape of it: the box's axis c2 mostly vertical (its primary face, spanned by c0 and
 * c1, turned down), c0 within `eps` rad of the plane x = 0, c1 across it.
 */
const seedRotationArb = fc
  .tuple(uniform(-0.6, 0.6), uniform(-0.6, 0.6), uniform(1, 6), fc.boolean(), fc.boolean())
  .map(([al, be, r, neg, flip]) => seedRotation(al, be, r, neg, flip));

/** The class (see the file comment): sizes 1e-3..1e5, offsets to 1e9, both shapes' order left to the caller. */
export const sideGrazeArb: fc.Arbitrary<SideGraze> = fc
  .record({
    logS: uniform(-3, 5),
    k: fc.tuple(uniform(0.1, 1), uniform(0.1, 1), uniform(0.1, 1)),
    big: fc.tuple(uniform(1, 30), uniform(1, 30), uniform(1, 30)),
    q: fc.oneof(grazeRotationArb, seedRotationArb, seedRotationArb, seedRotationArb),
    edge: fc.constantFrom(-1, -1, -1, 0, 1, 2),
    lambda: unitInterval,
    depthExp: uniform(38, 50),
    sideExp: uniform(36, 56),
    sideSign: fc.constantFrom(-1, 1, 0),
    zeta: uniform(-0.5, 0.5),
    boxes: fc.boolean(),
    turn: fc.tuple(unitArb, fc.double({ min: -Math.PI, max: Math.PI, noNaN: true })),
    off: offsetArb,
  })
  .map(buildSideGraze);

/** The parameters of one draw of {@link sideGrazeArb} (see the file comment). */
export interface SideGrazeParams {
  logS: number;
  k: V;
  big: V;
  q: number[];
  edge: number;
  lambda: number;
  depthExp: number;
  sideExp: number;
  sideSign: number;
  zeta: number;
  boxes: boolean;
  turn: [V, number];
  off: [V, number];
}

/** The pair of parameters `params` (see the file comment). */
export function buildSideGraze(params: SideGrazeParams): SideGraze {
  const { logS, k, big, q, edge, lambda, depthExp, sideExp, sideSign, zeta, boxes, turn, off } =
    params;
  const S = 10 ** logS;
  const h: V = [S * k[0], S * k[1], S * k[2]];
  const H: V = [S * big[0], S * big[1], S * big[2]];
  // The lowest corner (least y), turned in doubles as the oracle turns it.
  let low: V = [0, 0, 0];
  let lowSigns: V = [1, 1, 1];
  for (let c = 0; c < 8; c++) {
    const s: V = [c & 1 ? 1 : -1, c & 2 ? 1 : -1, c & 4 ? 1 : -1];
    const r = rotateVec(q, [s[0] * h[0], s[1] * h[1], s[2] * h[2]]) as V;
    if (c === 0 || r[1] < low[1]) {
      low = r;
      lowSigns = s;
    }
  }
  // A point of one of its edges (edge −1: the corner itself).
  let p = low;
  if (edge >= 0) {
    const e: V = [0, 0, 0];
    e[edge] = -2 * lowSigns[edge] * h[edge] * lambda;
    const step = rotateVec(q, e) as V;
    p = [low[0] + step[0], low[1] + step[1], low[2] + step[2]];
  }
  const d = S * 2 ** -depthExp;
  const delta = sideSign * S * 2 ** -sideExp;
  const target: V = [-delta, -d, zeta * H[2]];
  const center: V = sub(target, p);
  const aabb: J = { type: "aabb", min: [0, -2 * H[1], -H[2]], max: [2 * H[0], 0, H[2]] };
  const box: J = { type: "box", center, halfExtents: h, rotation: q };
  // Offsets up to 10^4 times the box (to 1e9 at 1e5): a box moved far beyond its size has its
  // corner rounded across the side plane by ulps of the offset, far beyond the tie of its own.
  const offset = exactOffset(off[0], Math.min(off[1], 1e4 * S));
  if (!boxes) return { box, other: aabb, offset, pair: "aabb-box" as const };
  // Box against box: the pair turned as a whole about the aabb's top edge's midpoint.
  const [axis, angle] = turn;
  const Q = [...scale(axis, Math.sin(angle / 2)), Math.cos(angle / 2)];
  const other: J = {
    type: "box",
    center: rotateVec(Q, [H[0], -H[1], 0]),
    halfExtents: H,
    rotation: Q,
  };
  const turned: J = {
    type: "box",
    center: rotateVec(Q, center),
    halfExtents: h,
    rotation: quatMul(Q, q),
  };
  return { box: turned, other, offset, pair: "box-box" as const };
}
