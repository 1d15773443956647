/**
 * Generator of the class "a cylinder's or a cone's side generator against an edge of a rounded
 * box's or hull's core, the cores apart" (issue 16, the open lines rounded-flat-depth.jsonl and
 * rounded-flat-gap.jsonl), built so that the right answer is known by construction.
 *
 * B, a rounded box or a box-like rounded hull (its core's corners the points), turned by any
 * quaternion or one onto the world's axes up to tiny components; one edge of its core chosen,
 * and a unit d in that edge's cone of normals (−d a blend α·n₁ + β·n₂ of its two faces'
 * outward normals: a face's normal, one tilted from it by a tiny angle into the cone, or any
 * blend), so that B's core supports −d on that edge (or on a face holding it). A, a cylinder or
 * a cone, turned so that d is the outward normal of its side along one generator (a cylinder's
 * axis ⟂ d; a cone's slant ⟂ d, d in its meridian plane), that generator at an angle φ to the
 * edge seen along d (parallel, tiny, any, perpendicular). B placed so that a point of the edge
 * (its middle, anywhere, or a corner) lies on d through a point of the generator, at B's radius
 * plus the signed gap s beyond it. The supporting features along d then face each other, so the
 * cores' distance is their separation along d, rB + s, and the shapes' signed distance is s with
 * normal d (van den Bergen 2003, §4.3.4): apart (s > 0), touching (0) or overlapping within the
 * rounding (−rB < s < 0, the cores still apart). Sizes 2^-20..2^20, ratios to 2^±4, offsets to
 * 1e9 (the shared `offsetArb`), both orders.
 */
import fc from "fast-check";
import { offsetArb, quatArb } from "./arbitraries.js";
import { exactOffset, offsetScenario, type Scenario } from "./generate.js";
import { add, cross, dot, quatMatrix, scale, sub, unit, type V } from "./oracle-shapes.js";
import { axisQuatArb } from "./rounded-axis.gen.js";

type J = Record<string, unknown>;

/** The signed gaps drawn, in units of the lesser of A's size and B's radius (negative: overlap). */
export const GAPS = [-0.5, -1e-4, -1e-8, -1e-12, 0, 0, 0, 1e-14, 1e-10, 1e-6, 1e-2];

/** One drawn pair: the pair's name (curved type first), the intended answer, both orders. */
export interface RoundedFlatCase {
  pair: string;
  /** The shapes' signed distance by construction (scene units). */
  gap: number;
  /** The normal by construction (unit, from the curved shape toward the rounded one). */
  normal: V;
  scenarios: [Scenario, Scenario];
}

/** A unit quaternion [x, y, z, w] of the rotation whose matrix has columns x, y, z (orthonormal). */
export function quatFromColumns(x: V, y: V, z: V): number[] {
  const m00 = x[0];
  const m11 = y[1];
  const m22 = z[2];
  const tr = m00 + m11 + m22;
  let q: number[];
  if (tr > 0) {
    const s = 2 * Math.sqrt(1 + tr);
    q = [(y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s, s / 4];
  } else if (m00 >= m11 && m00 >= m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [s / 4, (y[0] + x[1]) / s, (z[0] + x[2]) / s, (y[2] - z[1]) / s];
  } else if (m11 >= m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(y[0] + x[1]) / s, s / 4, (z[1] + y[2]) / s, (z[0] - x[2]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(z[0] + x[2]) / s, (z[1] + y[2]) / s, s / 4, (x[1] - y[0]) / s];
  }
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  return q.map((c) => c / l);
}

/** The matrix's column i (the world image of local axis i). */
const column = (m: number[][], i: number): V => [m[0][i], m[1][i], m[2][i]];

/** A blend weight of the edge's second face: 0 (a face's normal), tiny (tilted into the cone) or any. */
const blendArb = fc.oneof(
  fc.constant(0),
  fc.constantFrom(1e-12, 4.8e-12, 1e-9, 1e-6),
  fc.double({ min: 0.01, max: 100, noNaN: true }),
);

/** The angle between the generator and the edge seen along d (rad). */
const angleArb = fc.oneof(
  fc.constantFrom(0, 1e-11, 1e-6, Math.PI / 2),
  fc.double({ min: 0, max: Math.PI, noNaN: true }),
);

/** A parameter along a feature, in [−1, 1] of its half length: its middle, an end, or anywhere. */
const alongArb = fc.oneof(
  fc.constant(0),
  fc.constantFrom(-1, 1),
  fc.double({ min: -1, max: 1, noNaN: true }),
);

const fraction = fc.double({ min: 0.2, max: 1, noNaN: true });

/** The class's pairs, each in both orders ({@link RoundedFlatCase}). */
export const roundedFlatArb = fc
  .tuple(
    fc.constantFrom("cylinder", "cylinder", "cone"),
    fc.constantFrom("roundedBox", "roundedConvex"),
    fc.integer({ min: -20, max: 20 }),
    fc.integer({ min: -10, max: 10 }),
    fc.tuple(fraction, fraction, fraction, fraction, fraction),
    fc.constantFrom(2 ** -6, 0.25, 0.5, 0.75, 0.9),
    fc.oneof(axisQuatArb, quatArb),
    fc.tuple(fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.boolean(), fc.boolean(), blendArb),
    fc.tuple(angleArb, alongArb, alongArb, fc.constantFrom(...GAPS)),
    offsetArb,
  )
  .map(([curvedType, roundedType, e, k, dims, rr, qb, edge, place, [ou, om]]) => {
    const [axis, sj, sk, swap, blend] = edge;
    const [phi, tg, te, frac] = place;
    const sa = 2 ** e;
    const sb = Math.min(2 ** 20, Math.max(2 ** -20, sa * 2 ** k));
    const h = sa * dims[0];
    const r = sa * dims[1];
    const core = sb * (1 - rr);
    const half: V = [core * dims[2], core * dims[3], core * dims[4]];
    const rb = sb * rr;
    // B's core edge along local axis i at the corners' signs (sj, sk) on axes j and k.
    const i = axis;
    const j = (i + 1) % 3;
    const kk = (i + 2) % 3;
    const mb = quatMatrix(qb);
    const ei = column(mb, i);
    const nj = scale(column(mb, j), sj ? 1 : -1);
    const nk = scale(column(mb, kk), sk ? 1 : -1);
    const [wa, wb] = swap ? [blend, 1] : [1, blend];
    const d = unit(scale(add(scale(nj, wa), scale(nk, wb)), -1));
    // The generator's direction: the edge's turned by φ about d.
    const g = unit(add(scale(ei, Math.cos(phi)), scale(cross(d, ei), Math.sin(phi))));
    let qa: number[];
    let genMid: V;
    let genHalf: number;
    if (curvedType === "cylinder") {
      // Local x → d (the side's normal at azimuth 0), y → g (the axis).
      qa = quatFromColumns(d, g, cross(d, g));
      genMid = scale(d, r);
      genHalf = h;
    } else {
      // The slant from the apex (0, h) to the rim (r, −h) along g, its outward normal d.
      const l = Math.hypot(r, 2 * h);
      const x = unit(add(scale(g, r / l), scale(d, (2 * h) / l)));
      const y = unit(add(scale(g, (-2 * h) / l), scale(d, r / l)));
      qa = quatFromColumns(x, y, cross(x, y));
      const apex = scale(y, h);
      const rim = add(scale(y, -h), scale(x, r));
      genMid = scale(add(apex, rim), 0.5);
      genHalf = l / 2;
    }
    const gap = frac * Math.min(sa, rb);
    const pa = add(genMid, scale(g, 0.9 * tg * genHalf));
    // The edge's point (B's local frame) at parameter te, moved to rB + gap beyond pa along d.
    const local: V = [0, 0, 0];
    local[i] = te * half[i];
    local[j] = sj ? half[j] : -half[j];
    local[kk] = sk ? half[kk] : -half[kk];
    const at = sub(add(pa, scale(d, rb + gap)), [
      dot(mb[0] as V, local),
      dot(mb[1] as V, local),
      dot(mb[2] as V, local),
    ]);
    const a: J = { type: curvedType, center: [0, 0, 0], halfHeight: h, radius: r, rotation: qa };
    const corners: V[] = [];
    for (const x of [-1, 1]) {
      for (const y of [-1, 1])
        for (const z of [-1, 1]) corners.push([x * half[0], y * half[1], z * half[2]]);
    }
    const b: J =
      roundedType === "roundedBox"
        ? { type: roundedType, center: at, halfExtents: half, radius: rb, rotation: qb }
        : { type: roundedType, points: corners, radius: rb, position: at, rotation: qb };
    const offset = exactOffset(ou, Math.min(1e9, om * Math.max(sa, sb) * 1e4));
    const scenarios: [Scenario, Scenario] = [
      offsetScenario(a, b, offset),
      offsetScenario(b, a, offset),
    ];
    // Apart: a prediction that reaches them, so that contact answers.
    if (gap > 0) for (const sc of scenarios) sc.prediction = 2 * gap;
    return { pair: `${curvedType}-${roundedType}`, gap, normal: d, scenarios };
  });

/**
 * The distance from a point to a cylinder or a cone (JSON), from its definition: in the shape's
 * frame the point's (ρ, y), ρ its distance from the axis, against the profile — a cylinder's
 * rectangle [0, r] × [−h, h], a cone's triangle (0, −h), (r, −h), (0, h) — in the meridian half
 * plane (a solid of revolution's distance is its profile's there).
 */
export function revolutionDistance(j: J, p: V): number {
  const c = j.center as V;
  const l = sub(p, c);
  const m = quatMatrix(j.rotation as number[]);
  const x = m[0][0] * l[0] + m[1][0] * l[1] + m[2][0] * l[2];
  const y = m[0][1] * l[0] + m[1][1] * l[1] + m[2][1] * l[2];
  const z = m[0][2] * l[0] + m[1][2] * l[1] + m[2][2] * l[2];
  const rho = Math.hypot(x, z);
  const h = j.halfHeight as number;
  const r = j.radius as number;
  if (j.type === "cylinder") return Math.hypot(Math.max(rho - r, 0), Math.max(Math.abs(y) - h, 0));
  const poly: [number, number][] = [
    [0, -h],
    [r, -h],
    [0, h],
  ];
  // Inside: on the inner side of the three edges (counter-clockwise).
  let inside = true;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const [ax, ay] = poly[i];
    const [bx, by] = poly[(i + 1) % 3];
    const ex = bx - ax;
    const ey = by - ay;
    if (ex * (y - ay) - ey * (rho - ax) < 0) inside = false;
    const t = Math.min(1, Math.max(0, ((rho - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey)));
    best = Math.min(best, Math.hypot(rho - ax - t * ex, y - ay - t * ey));
  }
  return inside ? 0 : best;
}

/** The least of convex f over [0, 1] by golden-section search (200 steps) and both ends. */
function convexMin(f: (t: number) => number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let lo = 0;
  let hi = 1;
  let best = Math.min(f(0), f(1));
  for (let i = 0; i < 200 && hi - lo > 0; i++) {
    const m1 = hi - g * (hi - lo);
    const m2 = lo + g * (hi - lo);
    const f1 = f(m1);
    const f2 = f(m2);
    best = Math.min(best, f1, f2);
    if (f1 <= f2) hi = m2;
    else lo = m1;
  }
  return best;
}

/**
 * The distance between the core of a rounded box or hull `rounded` (JSON; a hull's segments
 * between every two of its points, inside it) and the cylinder or cone `curved`, by brute force:
 * the least over the core's edges of the distance to the solid, convex along each (an upper bound
 * on the distance, equal to it where the nearest point of the core is on an edge or a corner).
 */
export function coreEdgeDistance(curved: J, rounded: J): number {
  const m = quatMatrix(rounded.rotation as number[]);
  const o = (rounded.center ?? rounded.position) as V;
  const world = (p: V): V => add(o, [dot(m[0] as V, p), dot(m[1] as V, p), dot(m[2] as V, p)]);
  let pts: V[];
  if (rounded.type === "roundedBox") {
    const h = rounded.halfExtents as V;
    pts = [];
    for (const x of [-1, 1]) {
      for (const y of [-1, 1]) for (const z of [-1, 1]) pts.push([x * h[0], y * h[1], z * h[2]]);
    }
  } else pts = rounded.points as V[];
  const w = pts.map(world);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < w.length; i++) {
    for (let k = i + 1; k < w.length; k++) {
      const p = w[i];
      const e = sub(w[k], p);
      best = Math.min(
        best,
        convexMin((t) => revolutionDistance(curved, add(p, scale(e, t)))),
      );
    }
  }
  return best;
}
