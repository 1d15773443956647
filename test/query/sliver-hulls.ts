/**
 * Ribbons and slivers (issue 16): convex hulls of 3–12 points in a thin slab — long and thin, a
 * few points along a line with a tiny thickness, or near-flat plates of 1e-9 relative thickness —
 * at sizes 2^-20..2^20 and offsets up to 1e9, with query points near their faces, edges and
 * corners, inside and outside. Shared by the projectPoint and sphere–hull tests.
 */
import fc from "fast-check";
import { rotateVec } from "../support/quat.js";

/** One generated hull and query point. */
export interface SliverCase {
  /** The hull's points (world coordinates). */
  points: number[][];
  /** The query point (world). */
  q: number[];
  solid: boolean;
}

/** The generator's draws (each an index or a number in [0, 1) or [−1, 1]). */
export interface SliverDraw {
  n: number;
  logL: number;
  /** Width / length and thickness / length. */
  width: number;
  thickness: number;
  /** Points along a line (v, w jitter only) rather than spread over the slab. */
  line: boolean;
  rot: number[];
  offsetDir: number[];
  offset: number;
  coords: number[][];
  /** Query: the corners it blends (1 corner, 2 edge, 3 face, 0 all: inside). */
  blend: number;
  weights: number[];
  picks: number[];
  /** Offset direction: 0 across the slab (w), 1 across the ribbon (v), 2 along it, 3 random. */
  dirKind: number;
  dir: number[];
  /** Offset length / L. */
  away: number;
  solid: boolean;
}

/** The case of a draw. */
export function sliverCase(d: SliverDraw): SliverCase {
  const L = 2 ** d.logL;
  const W = L * d.width;
  const T = L * d.thickness;
  const c = d.offsetDir.map((x) => x * d.offset);
  // Local frame: u along the ribbon, v across it, w through the slab. A line ribbon narrows
  // toward its middle (v scaled by |u|), so most points lie near its axis.
  const local: number[][] = [];
  for (let i = 0; i < d.n; i++) {
    const [a, b, e] = d.coords[i];
    const u = (a * L) / 2;
    const v = ((b * W) / 2) * (d.line ? Math.abs(u) / L : 1);
    local.push([u, v, (e * T) / 2]);
  }
  const points = local.map((p) => {
    const r = rotateVec(d.rot, p);
    return [r[0] + c[0], r[1] + c[1], r[2] + c[2]];
  });
  let base: number[];
  if (d.blend === 0) {
    base = [0, 0, 0];
    for (const p of points) for (let k = 0; k < 3; k++) base[k] += p[k] / points.length;
  } else {
    let s = 0;
    base = [0, 0, 0];
    for (let i = 0; i < d.blend; i++) {
      const p = points[d.picks[i] % points.length];
      const w = d.weights[i] + 1e-3;
      s += w;
      for (let k = 0; k < 3; k++) base[k] += w * p[k];
    }
    base = base.map((x) => x / s);
  }
  const axes = [
    rotateVec(d.rot, [0, 0, 1]),
    rotateVec(d.rot, [0, 1, 0]),
    rotateVec(d.rot, [1, 0, 0]),
  ];
  let dir = d.dirKind < 3 ? axes[d.dirKind] : d.dir;
  const l = Math.hypot(...dir);
  dir = dir.map((x) => x / l);
  const q = base.map((x, k) => x + dir[k] * d.away * L);
  return { points, q, solid: d.solid };
}

/** A number of [−1, 1] on the 2^-30 grid (no subnormals or tiny magnitudes). */
const unitD = fc.integer({ min: -(2 ** 30), max: 2 ** 30 }).map((i) => i / 2 ** 30);
const unitP = fc.integer({ min: 0, max: 2 ** 30 }).map((i) => i / 2 ** 30);
const v3 = fc.tuple(unitD, unitD, unitD);

/** The fast-check arbitrary of the class. */
export const sliverDrawArb: fc.Arbitrary<SliverDraw> = fc.record({
  n: fc.integer({ min: 3, max: 12 }),
  logL: fc.integer({ min: -20, max: 20 }),
  width: fc.constantFrom(1, 0.3, 2 ** -10, 1e-6, 1e-9),
  thickness: fc.constantFrom(1e-3, 1e-6, 1e-8, 1e-9, 3e-10, 1e-12),
  line: fc.boolean(),
  rot: fc
    .tuple(unitD, unitD, unitD, unitD)
    .filter((q) => Math.hypot(...q) > 0.1)
    .map((q) => {
      const l = Math.hypot(...q);
      return q.map((x) => x / l);
    }),
  offsetDir: v3,
  offset: fc.constantFrom(0, 1, 1e3, 1e6, 1e9),
  coords: fc.array(v3, { minLength: 12, maxLength: 12 }),
  blend: fc.integer({ min: 0, max: 3 }),
  weights: fc.array(unitP, { minLength: 3, maxLength: 3 }),
  picks: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
  dirKind: fc.integer({ min: 0, max: 3 }),
  dir: v3.filter((v) => Math.hypot(...v) > 0.1),
  away: fc.constantFrom(
    0,
    2 ** -60,
    1e-12,
    1e-10,
    1e-9,
    1e-7,
    1e-4,
    0.1,
    1,
    3,
    -1e-10,
    -1e-9,
    -1e-7,
    -1e-4,
  ),
  solid: fc.boolean(),
});
