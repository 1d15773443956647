/**
 * Generator of the class "a small curved shape across the edge or corner of a big box" (issue 16,
 * seed 57's class): a cone, cylinder or capsule of 2^-20..1 whose support along a chosen normal
 * n crosses an edge (n across it) or a corner (n inside its octant) of an aabb or a rotated box
 * 1e3..1e7 across, whose centre is then far from the small shape's, at most `depth` deep along
 * n by construction; optionally moved by an offset up to 1e9. The axis of the curved shape is
 * drawn at random, nearly across the edge (its rim seen edge-on along the edge) or nearly along
 * it (a generator along the edge).
 *
 * The construction, in the small shape's frame (its centre at the origin): p = its support
 * along n (closed form below, not the library's), the box's corner at c = p − depth·n and the
 * box on the far side of c ({x ≥ c.x, z ≥ c.z} along the edge's y, {x ≥ c.x, y ≥ c.y, z ≥ c.z}
 * at a corner), so the overlap along n is `depth` (exactly for an aabb, to the rounding of the
 * rotation for a box). The least overlap over all normals is at most that.
 */
import fc from "fast-check";
import { quatMul, rotateVec, unrotateVec } from "../support/quat.js";
import { offsetArb, quatArb } from "./arbitraries.js";
import { exactOffset, offsetScenario, type Scenario } from "./generate.js";

type J = Record<string, unknown>;
type V = [number, number, number];

/** A generated case: the scenario, its pair name, the overlap along the constructed normal. */
export interface SmallCurvedEdgeCase {
  scenario: Scenario;
  pair: string;
  /** The overlap along the constructed normal (an upper bound on the least overlap), local units. */
  depth: number;
  /** The box's size (its largest extent) and the offset's magnitude, for the depth's rounding. */
  big: number;
  offset: number;
  /** The generating draw, for messages. */
  note: string;
}

/**
 * The support point of a cone, cylinder (JSON with center, halfHeight, radius, rotation) or a
 * capsule (a, b, radius) along unit n, in closed form.
 */
export function curvedSupport(s: J, n: V): V {
  if (s.type === "capsule") {
    const a = s.a as V;
    const b = s.b as V;
    const r = s.radius as number;
    const ab = (b[0] - a[0]) * n[0] + (b[1] - a[1]) * n[1] + (b[2] - a[2]) * n[2];
    const e = ab >= 0 ? b : a;
    return [e[0] + r * n[0], e[1] + r * n[1], e[2] + r * n[2]];
  }
  const q = s.rotation as number[];
  const c = s.center as V;
  const l = unrotateVec(q, n);
  const r = s.radius as number;
  const h = s.halfHeight as number;
  const k = Math.hypot(l[0], l[2]);
  const rim: V = k > 0 ? [(r * l[0]) / k, -h, (r * l[2]) / k] : [r, -h, 0];
  let p: V = rim;
  if (s.type === "cone") {
    if (h * l[1] >= rim[0] * l[0] + rim[1] * l[1] + rim[2] * l[2]) p = [0, h, 0];
  } else rim[1] = l[1] >= 0 ? h : -h;
  const w = rotateVec(q, p);
  return [w[0] + c[0], w[1] + c[1], w[2] + c[2]];
}

/** The unit quaternion turning y onto unit t (about y × t). */
function quatYTo(t: V): number[] {
  const w = 1 + t[1];
  if (!(w > 1e-12)) return [1, 0, 0, 0];
  const l = Math.hypot(t[2], t[0], w);
  return [t[2] / l, 0, -t[0] / l, w / l];
}

/**
 * A double uniform in [min, max] (fc.double draws uniformly over the doubles' bit patterns, so a
 * range about 0 gives mostly values near 0: an exponent range would give sizes near 1 only).
 */
const uniform = (min: number, max: number): fc.Arbitrary<number> =>
  fc.integer({ min: 0, max: 2 ** 30 }).map((i) => min + ((max - min) * i) / 2 ** 30);

const unitOf = (v: V): V => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
};

/**
 * The curved shape's axis: [kind, a, b, c] — kind 0 at random (the record's `rnd`, a point of
 * the cube made unit), 1 nearly across the edge (10^b rad off the xz-plane, y being the edge's
 * direction, at azimuth a; c the side), 2 nearly along it (10^b rad off y at azimuth a).
 */
const axisArb = fc.tuple(
  fc.integer({ min: 0, max: 2 }),
  uniform(0, 2 * Math.PI),
  uniform(-9, -0.5),
  uniform(-1, 1),
);

function axisOf([kind, a, b, c]: [number, number, number, number], rnd: number[]): V {
  if (kind === 0) {
    const v: V = [rnd[0], rnd[1], rnd[2]];
    return Math.hypot(...v) > 0.1 ? unitOf(v) : [1, 0, 0];
  }
  const e = 10 ** b * Math.sign(c || 1);
  if (kind === 1) return unitOf([Math.cos(a), e, Math.sin(a)]);
  return unitOf([e * Math.cos(a), 1, e * Math.sin(a)]);
}

/** The generated cases of the class ({@link SmallCurvedEdgeCase}). */
export const smallCurvedEdgeArb: fc.Arbitrary<SmallCurvedEdgeCase> = fc
  .record({
    type: fc.constantFrom("cone", "cylinder", "capsule"),
    // The small shape's size 2^-20..1, its half height and radius 0.2..1 of it.
    ls: uniform(-20, 0),
    hf: uniform(0.2, 1),
    rf: uniform(0.2, 1),
    axis: axisArb,
    rnd: fc.tuple(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)),
    // The box 1e3..1e7 across, its extents beyond the corner 0.05..1 of that (along the edge on
    // both sides of the corner).
    lb: uniform(3, 7),
    ext: fc.tuple(uniform(0.05, 1), uniform(0.05, 1), uniform(0.05, 1), uniform(0.05, 1)),
    corner: fc.boolean(),
    // The normal: across the edge at angle th from x, or into the corner's octant.
    th: uniform(0.02, Math.PI / 2 - 0.02),
    oct: fc.tuple(uniform(0.05, 1), uniform(0.05, 1), uniform(0.05, 1)),
    // The overlap along n: 10^-9..10^-0.5 of the small shape's size.
    ld: uniform(-9, -0.5),
    rotated: fc.boolean(),
    frame: quatArb,
    swap: fc.boolean(),
    offset: offsetArb,
  })
  .map((g): SmallCurvedEdgeCase => {
    const s = 2 ** g.ls;
    const t = axisOf(g.axis, g.rnd);
    const h = g.hf * s;
    const r = g.rf * s;
    let shape: J =
      g.type === "capsule"
        ? {
            type: "capsule",
            a: [-t[0] * h, -t[1] * h, -t[2] * h],
            b: [t[0] * h, t[1] * h, t[2] * h],
            radius: r,
          }
        : { type: g.type, center: [0, 0, 0], halfHeight: h, radius: r, rotation: quatYTo(t) };
    const n: V = g.corner ? unitOf(g.oct) : [Math.cos(g.th), 0, Math.sin(g.th)];
    const p = curvedSupport(shape, n);
    const depth = s * 10 ** g.ld;
    const big = 10 ** g.lb;
    const c: V = [p[0] - depth * n[0], p[1] - depth * n[1], p[2] - depth * n[2]];
    const [f0, f1, f2, f3] = g.ext;
    const min: V = g.corner ? c : [c[0], c[1] - f1 * big, c[2]];
    const max: V = [c[0] + f0 * big, c[1] + (g.corner ? f1 : f3) * big, c[2] + f2 * big];
    let box: J = { type: "aabb", min, max };
    if (g.rotated) {
      // The whole configuration turned by `frame` about the small shape's centre.
      const q = g.frame;
      const centre = rotateVec(q, [
        (min[0] + max[0]) / 2,
        (min[1] + max[1]) / 2,
        (min[2] + max[2]) / 2,
      ]);
      box = {
        type: "box",
        center: centre,
        halfExtents: [(max[0] - min[0]) / 2, (max[1] - min[1]) / 2, (max[2] - min[2]) / 2],
        rotation: q,
      };
      shape =
        shape.type === "capsule"
          ? { ...shape, a: rotateVec(q, shape.a as V), b: rotateVec(q, shape.b as V) }
          : { ...shape, rotation: quatMul(q, shape.rotation as number[]) };
    }
    const [ou, om] = g.offset;
    const off = exactOffset(ou, om);
    const scenario = g.swap ? offsetScenario(box, shape, off) : offsetScenario(shape, box, off);
    const pair = g.swap ? `${box.type}-${shape.type}` : `${shape.type}-${box.type}`;
    const note = JSON.stringify({ ...g, offset: off });
    return { scenario, pair, depth, big, offset: Math.hypot(off[0], off[1], off[2]), note };
  });
