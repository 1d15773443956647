/**
 * Generator of issue 16's near-parallel edge class (fresh39b): two boxes whose support edges are
 * 10^-12..10^-6 rad from parallel and cross (seen along their common normal) inside both edges,
 * at a penetration of 0, 10^-15..10^-12 of the size, or up to 10^-3 of it; sizes 1e-3..1e3,
 * offsets to 1e8. Written without the library.
 *
 * Construction in a frame F (then turned as a whole by a random rotation G and offset): A turned
 * by α about x, so that its highest edge runs along x at the top of its y–z section; B turned by β
 * about x, its lowest edge likewise, then tilted by θ about an axis ⊥ x (the y axis of F — the
 * edges' common normal, as in the repro — or a random one) about that edge's midpoint, which is
 * placed at A's top edge moved by ξ along x and down by the penetration.
 */
import fc from "fast-check";
import { quatMul, rotateVec } from "../support/quat.js";

type J = Record<string, unknown>;
type V = [number, number, number];

/** One drawn pair: boxes `a` and `b` (query JSON), the world offset. */
export interface EdgeParallel {
  a: J;
  b: J;
  offset: number[];
}

/** A double in [lo, hi] on a grid of 2^20 steps. */
const uniform = (lo: number, hi: number): fc.Arbitrary<number> =>
  fc.integer({ min: 0, max: 2 ** 20 }).map((i) => lo + ((hi - lo) * i) / 2 ** 20);

/** The quaternion [x, y, z, w] of a turn by `angle` about unit `axis`. */
function axisAngle(axis: readonly number[], angle: number): [number, number, number, number] {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** The corner (signs on y, z) of a box turned by `ang` about x with the least (`lowest`) or greatest y. */
function extremeEdge(h: V, ang: number, lowest: boolean): V {
  let best: V = [0, 0, 0];
  let bestY = lowest ? Infinity : -Infinity;
  for (const sy of [-1, 1]) {
    for (const sz of [-1, 1]) {
      const p: V = [0, sy * h[1], sz * h[2]];
      const y = rotateVec(axisAngle([1, 0, 0], ang), p)[1];
      if (lowest ? y < bestY : y > bestY) {
        bestY = y;
        best = p;
      }
    }
  }
  return best;
}

/** Parameters of one draw (see the file comment). */
export interface EdgeParallelParams {
  logS: number;
  ka: V;
  kb: V;
  alpha: number;
  beta: number;
  logTilt: number;
  tiltAxis: number | null;
  pen: number;
  xi: number;
  g: [number, number, number, number];
  offDir: V;
  offMag: number;
}

/** Builds the pair of one draw. */
export function buildEdgeParallel(p: EdgeParallelParams): EdgeParallel {
  const S = 10 ** p.logS;
  const ha = p.ka.map((k) => k * S) as V;
  const hb = p.kb.map((k) => k * S) as V;
  const qa = axisAngle([1, 0, 0], p.alpha);
  const qb0 = axisAngle([1, 0, 0], p.beta);
  const top = rotateVec(qa, extremeEdge(ha, p.alpha, false));
  const lowLocal = extremeEdge(hb, p.beta, true);
  const phi = p.tiltAxis ?? 0;
  const tilt = axisAngle([0, Math.cos(phi), Math.sin(phi)], 10 ** p.logTilt);
  const qb = quatMul(tilt, qb0);
  // B's lowest edge's midpoint at A's top edge, moved by ξ·h_a,x along x and down by pen·S.
  const m: V = [p.xi * ha[0], top[1] - p.pen * S, top[2]];
  const cbF = rotateVec(qb, lowLocal).map((v, i) => m[i] - v) as V;
  const gn = Math.hypot(...p.g);
  const g = p.g.map((x) => x / gn);
  const ga = quatMul(g, qa);
  const gb = quatMul(g, qb);
  const cb = rotateVec(g, cbF);
  const offset = p.offDir.map((x) => {
    const v = x * p.offMag;
    if (v === 0) return 0;
    const e = Math.floor(Math.log2(Math.abs(v))) - 20;
    return Math.round(v / 2 ** e) * 2 ** e;
  });
  return {
    a: { type: "box", center: [0, 0, 0], halfExtents: ha, rotation: ga },
    b: { type: "box", center: cb, halfExtents: hb, rotation: gb },
    offset,
  };
}

/** The class (file comment); the order of the two boxes is left to the caller. */
export const edgeParallelArb: fc.Arbitrary<EdgeParallel> = fc
  .record({
    logS: uniform(-3, 3),
    ka: fc.tuple(uniform(0.3, 2), uniform(0.3, 2), uniform(0.3, 2)),
    kb: fc.tuple(uniform(0.3, 2), uniform(0.3, 2), uniform(0.3, 2)),
    alpha: uniform(0.2, 1.37),
    beta: uniform(0.2, 1.37),
    logTilt: uniform(-12, -6),
    tiltAxis: fc.oneof(fc.constant(null), uniform(0, 2 * Math.PI)),
    pen: fc.oneof(
      fc.constant(0),
      uniform(-15, -12).map((e) => 10 ** e),
      uniform(-12, -3).map((e) => 10 ** e),
    ),
    xi: uniform(-0.9, 0.9),
    g: fc.tuple(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(0.1, 1)),
    offDir: fc.tuple(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)),
    offMag: fc.constantFrom(0, 1, 1e4, 1e8),
  })
  .map(buildEdgeParallel);
