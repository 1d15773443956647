/**
 * Generator of the class "a solid of revolution against a rounded box or hull, both turned onto
 * the world's axes" (issue 16, the open lines rounded-axis-depth.jsonl): a cylinder or a cone
 * whose quaternion has one component ±1 or two ±√½ and the others 0, subnormal or tiny (its
 * axis along a world axis, as the shared `quatArb` draws at its extremes), against a rounded box
 * or hull turned likewise, its core a box-like hull on a grid or any points with a tetrahedron's
 * corners among them. B is placed along a direction whose components are each 0, tiny or any
 * (a world axis, a coordinate plane, or anywhere), at a signed depth from the test's own support
 * functions (h_A(d) + h_B(−d), {@link extent}): apart, touching, or overlapping from the
 * rounding level to deep. The contact is then often between flat features — a face or an edge
 * of the rounded shape's core against a cylinder's cap or side generator, a cone's base or slant
 * — where the overlap over directions has a kink at the least overlap: a normal off it by θ
 * misses the depth by θ times the features' length. Sizes 2^-20..2^20, mixed, offsets to 1e9,
 * both orders.
 */
import fc from "fast-check";
import { offsetArb, quatArb, unitArb } from "./arbitraries.js";
import { exactOffset, offsetScenario, type Scenario } from "./generate.js";
import { dot, scale, unit, unrotate, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

/** 0, a subnormal, or a tiny double (to 1e-12), of either sign. */
export const tinyArb = fc.oneof(
  fc.constantFrom(0, -0, 5e-324, -5e-324),
  fc.double({ min: -(2 ** -1022), max: 2 ** -1022, noNaN: true }),
  fc
    .tuple(
      fc.integer({ min: 12, max: 300 }),
      fc.double({ min: 1, max: 10, noNaN: true }),
      fc.boolean(),
    )
    .map(([e, m, neg]) => (neg ? -1 : 1) * m * 10 ** -e),
);

/**
 * A quaternion [x, y, z, w] turning the world's axes onto themselves up to tiny components: one
 * component ±1 (a half turn or the identity) or two ±√½ (a quarter turn), the others tiny.
 */
export const axisQuatArb = fc
  .tuple(
    fc.constantFrom(1, 2),
    fc.integer({ min: 0, max: 3 }),
    fc.integer({ min: 1, max: 3 }),
    fc.boolean(),
    fc.boolean(),
    fc.tuple(tinyArb, tinyArb, tinyArb, tinyArb),
  )
  .map(([big, i, step, si, sj, tiny]) => {
    const q = [...tiny];
    const c = big === 1 ? 1 : Math.SQRT1_2;
    q[i] = si ? c : -c;
    if (big === 2) q[(i + step) % 4] = sj ? c : -c;
    return q;
  });

/**
 * A direction whose components are each 0 or tiny but one (a world axis, most often), two (a
 * coordinate plane) or none (anywhere), normalised.
 */
export const axisDirArb = fc
  .tuple(
    fc.constantFrom(1, 1, 1, 2, 3),
    fc.integer({ min: 0, max: 2 }),
    fc.tuple(tinyArb, tinyArb, tinyArb),
    fc.tuple(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
    ),
  )
  .map(([free, k, tiny, val]) => {
    const d = [0, 1, 2].map((i) => {
      if ((i - k + 3) % 3 >= free) return tiny[i];
      // A free component: at least 0.1 in magnitude (else ±1).
      return Math.abs(val[i]) >= 0.1 ? val[i] : val[i] < 0 ? -1 : 1;
    }) as V;
    return unit(d);
  });

/**
 * h(d) − c·d of a shape (JSON, centre or position c) along unit d, from the shapes' definitions: a
 * rounded box |d_local|·half extents + radius; a rounded hull max over its points of p·d_local +
 * radius; a cylinder (axis y) h·|d_y| + r·|d_xz|; a cone (apex at +h) max(h·d_y, −h·d_y + r·|d_xz|).
 */
export function extent(j: J, d: V): number {
  const l = unrotate(j.rotation as number[], d);
  const radius = j.radius as number;
  if (j.type === "roundedBox") {
    const h = j.halfExtents as V;
    return Math.abs(l[0]) * h[0] + Math.abs(l[1]) * h[1] + Math.abs(l[2]) * h[2] + radius;
  }
  if (j.type === "roundedConvex") {
    let m = Number.NEGATIVE_INFINITY;
    for (const p of j.points as V[]) m = Math.max(m, dot(p, l));
    return m + radius;
  }
  const h = j.halfHeight as number;
  const rho = Math.hypot(l[0], l[2]);
  if (j.type === "cylinder") return h * Math.abs(l[1]) + radius * rho;
  return Math.max(h * l[1], -h * l[1] + radius * rho);
}

/** A rotation of {@link axisQuatArb} or the shared `quatArb` (at its extremes axis-aligned too). */
const rotationArb = fc.oneof(
  { weight: 2, arbitrary: axisQuatArb },
  { weight: 1, arbitrary: quatArb },
);

const fraction = fc.double({ min: 0.2, max: 1, noNaN: true });
const dims = fc.tuple(fraction, fraction, fraction);
/** A coordinate of a hull's point before scaling: any double of [−1, 1] (often 0, ±1 or tiny). */
const coordinate = fc.double({ min: -1, max: 1, noNaN: true });
const pointArb = fc.tuple(coordinate, coordinate, coordinate);

/** The signed depths drawn, in units of the smaller shape's size (negative: apart). */
export const DEPTHS = [-0.5, -1e-8, 0, 0, 0, 1e-14, 1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 0.1];

/** One drawn pair: the pair's name (curved type first) and its scenario in both orders. */
export interface RoundedAxisCase {
  pair: string;
  scenarios: [Scenario, Scenario];
}

/** The class's pairs, each in both orders ({@link RoundedAxisCase}). */
export const roundedAxisArb = fc
  .tuple(
    fc.constantFrom("cylinder", "cylinder", "cylinder", "cone"),
    fc.constantFrom("roundedBox", "roundedConvex"),
    fc.integer({ min: -20, max: 20 }),
    fc.integer({ min: -4, max: 4 }),
    fc.tuple(dims, dims),
    fc.oneof(
      fc.array(pointArb, { minLength: 4, maxLength: 10 }),
      // A box-like hull: its corners on the grid.
      fc.constant([
        [-1, -1, -1],
        [1, -1, -1],
        [-1, 1, -1],
        [1, 1, -1],
        [-1, -1, 1],
        [1, -1, 1],
        [-1, 1, 1],
        [1, 1, 1],
      ] as V[]),
    ),
    fc.constantFrom(2 ** -10, 2 ** -6, 2 ** -3, 0.25, 0.5),
    fc.tuple(rotationArb, rotationArb),
    fc.oneof({ weight: 4, arbitrary: axisDirArb }, { weight: 1, arbitrary: unitArb }),
    fc.constantFrom(...DEPTHS),
    offsetArb,
  )
  .map(([curvedType, roundedType, e, k, [da, db], pts, rr, [qa, qb], dir, depth, [ou, om]]) => {
    const sa = 2 ** e;
    const sb = Math.min(2 ** 20, Math.max(2 ** -20, sa * 2 ** k));
    const a: J = {
      type: curvedType,
      center: [0, 0, 0],
      halfHeight: sa * da[0],
      radius: sa * da[1],
      rotation: qa,
    };
    const core = sb * (1 - rr);
    const t = 0.3;
    const b0: J =
      roundedType === "roundedBox"
        ? {
            type: roundedType,
            center: [0, 0, 0],
            halfExtents: scale(db as V, core),
            radius: sb * rr,
            rotation: qb,
          }
        : {
            type: roundedType,
            // Solid: a tetrahedron's corners among the points.
            points: [...(pts as V[]), [t, t, t], [-t, -t, t], [-t, t, -t], [t, -t, -t]].map((p) =>
              scale(p as V, core),
            ),
            radius: sb * rr,
            position: [0, 0, 0],
            rotation: qb,
          };
    const reach = extent(a, dir) + extent(b0, scale(dir, -1));
    const signed = depth * Math.min(sa, sb);
    const at = scale(dir, reach - signed);
    const b: J = roundedType === "roundedBox" ? { ...b0, center: at } : { ...b0, position: at };
    const offset = exactOffset(ou, Math.min(1e9, om * Math.max(sa, sb) * 1e4));
    const scenarios: [Scenario, Scenario] = [
      offsetScenario(a, b, offset),
      offsetScenario(b, a, offset),
    ];
    // Apart: a prediction that reaches them, so that contact answers.
    if (signed < 0) for (const sc of scenarios) sc.prediction = -2 * signed;
    return { pair: `${curvedType}-${roundedType}`, scenarios };
  });
