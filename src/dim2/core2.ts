/**
 * Working copies of shape cores (src/dim2/shapes.ts) in another frame, and point queries on a
 * core. Pair routines work in A's frame: B's core is transformed once into module-level scratch
 * storage (grown by doubling, so steady-state queries allocate nothing).
 */
import { hypot2 } from "../math/scalar.js";
import type { Pose2 } from "./pose2.js";
import type { Core2 } from "./shapes.js";

/** A core whose arrays may be longer than `2 · count` (scratch storage). */
export interface WorkCore2 {
  count: number;
  verts: Float64Array;
  normals: Float64Array;
  radius: number;
}

/** A new empty work core (allocates). */
export function makeWorkCore(): WorkCore2 {
  return { count: 0, verts: new Float64Array(16), normals: new Float64Array(16), radius: 0 };
}

/** out = `core` transformed by `pose` (vertices and normals); grows out's arrays if needed. */
export function transformCore(out: WorkCore2, core: Core2, pose: Pose2): WorkCore2 {
  const n = core.count;
  if (out.verts.length < 2 * n) {
    out.verts = new Float64Array(4 * n);
    out.normals = new Float64Array(4 * n);
  }
  const c = pose.q.c;
  const s = pose.q.s;
  const v = core.verts;
  const m = core.normals;
  for (let i = 0; i < n; i++) {
    const x = v[2 * i];
    const y = v[2 * i + 1];
    out.verts[2 * i] = c * x - s * y + pose.p.x;
    out.verts[2 * i + 1] = s * x + c * y + pose.p.y;
  }
  if (n > 1) {
    for (let i = 0; i < n; i++) {
      const x = m[2 * i];
      const y = m[2 * i + 1];
      out.normals[2 * i] = c * x - s * y;
      out.normals[2 * i + 1] = s * x + c * y;
    }
  }
  out.count = n;
  out.radius = core.radius;
  return out;
}

/** out = `core` as is (a view: shares the arrays). */
export function viewCore(out: WorkCore2, core: Core2): WorkCore2 {
  out.count = core.count;
  out.verts = core.verts;
  out.normals = core.normals;
  out.radius = core.radius;
  return out;
}

/** Index of the core vertex farthest along (dx, dy) (the support point; lowest index on ties). */
export function supportIndex(core: WorkCore2, dx: number, dy: number): number {
  const v = core.verts;
  let best = 0;
  let bestD = v[0] * dx + v[1] * dy;
  for (let i = 1; i < core.count; i++) {
    const d = v[2 * i] * dx + v[2 * i + 1] * dy;
    if (d > bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Closest point of a segment to a point, written to `out`: `{x, y, t}` with t ∈ [0, 1]. */
export interface SegmentClosest {
  x: number;
  y: number;
  t: number;
}

/**
 * Closest point of the segment a–b to p (Ericson 2005, §5.1.2); a = b gives a. The parameter
 * t = (p − a)·e / e·e is formed with e divided by its largest component first (exact scaling of
 * the ratio's terms), so that a tiny segment's e·e does not underflow to 0 (a 2e-200 edge seen
 * from 1 away clamped to its first end point) nor a huge one's overflow.
 */
export function closestOnSegment(
  out: SegmentClosest,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  px: number,
  py: number,
): SegmentClosest {
  const ex = bx - ax;
  const ey = by - ay;
  const em = Math.max(Math.abs(ex), Math.abs(ey));
  let t = 0;
  if (em > 0) {
    const sx = ex / em;
    const sy = ey / em;
    t = ((px - ax) * sx + (py - ay) * sy) / (sx * sx + sy * sy) / em;
    if (!(t > 0)) t = 0;
    else if (t > 1) t = 1;
  }
  out.t = t;
  if (t === 0) {
    out.x = ax;
    out.y = ay;
  } else if (t === 1) {
    out.x = bx;
    out.y = by;
  } else {
    out.x = ax + ex * t;
    out.y = ay + ey * t;
  }
  return out;
}

/** Result of {@link projectOnCore}: the closest core point, whether p is inside, and more. */
export interface CoreProjection {
  /** Closest point of the core polygon (p itself when inside). */
  x: number;
  y: number;
  /** Distance from p to the core polygon (0 inside). */
  distance: number;
  /** True when p is inside or on the core polygon (count ≥ 3), or on it (count ≤ 2). */
  inside: boolean;
  /**
   * Inside a core of count ≥ 3: the edge of largest separation (nearest edge line) and that
   * separation (≤ 0); otherwise −1 and 0.
   */
  edge: number;
  separation: number;
}

const segScratch: SegmentClosest = { x: 0, y: 0, t: 0 };

/**
 * Projects the point (px, py) on the core polygon (ignoring the radius): the exact closest point
 * by half-plane tests and closest points on edges (Ericson 2005, §5.1.2 and §5.4.1). Allocates
 * nothing.
 */
export function projectOnCore(
  out: CoreProjection,
  core: WorkCore2,
  px: number,
  py: number,
): CoreProjection {
  const n = core.count;
  const v = core.verts;
  out.edge = -1;
  out.separation = 0;
  if (n === 1) {
    out.x = v[0];
    out.y = v[1];
    out.distance = hypot2(px - v[0], py - v[1]);
    out.inside = out.distance === 0;
    return out;
  }
  if (n === 2) {
    closestOnSegment(segScratch, v[0], v[1], v[2], v[3], px, py);
    out.x = segScratch.x;
    out.y = segScratch.y;
    out.distance = hypot2(px - segScratch.x, py - segScratch.y);
    out.inside = out.distance === 0;
    return out;
  }
  const m = core.normals;
  let best = -1;
  let bestS = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = m[2 * i] * (px - v[2 * i]) + m[2 * i + 1] * (py - v[2 * i + 1]);
    if (s > bestS) {
      bestS = s;
      best = i;
    }
  }
  if (bestS <= 0) {
    out.x = px;
    out.y = py;
    out.distance = 0;
    out.inside = true;
    out.edge = best;
    out.separation = bestS;
    return out;
  }
  // Outside: the feature whose Voronoi region holds p (Ericson 2005, §5.1.2 and §5.2.7): an
  // edge with p beyond its line and p's foot strictly inside it, else a vertex with p beyond both
  // of its edges' ends. Chosen by the regions, not by comparing distances: far away (1e8 from a
  // unit rectangle) the distances to a corner and to the edge's foot round to the same double,
  // and the scan returned the corner. A point on a region's boundary (rounding) falls back to the
  // smallest distance over the edges.
  let bestD = Infinity;
  let found = false;
  for (let i = 0; i < n && !found; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const s = m[2 * i] * (px - v[2 * i]) + m[2 * i + 1] * (py - v[2 * i + 1]);
    if (!(s > 0)) continue;
    closestOnSegment(segScratch, v[2 * i], v[2 * i + 1], v[2 * j], v[2 * j + 1], px, py);
    if (segScratch.t > 0 && segScratch.t < 1) {
      // The foot p − s·n, then moved onto the edge's line along n once more (the rounding of
      // s·n removed): exact on an axis-aligned edge.
      const fx = px - s * m[2 * i];
      const fy = py - s * m[2 * i + 1];
      const off = m[2 * i] * (fx - v[2 * i]) + m[2 * i + 1] * (fy - v[2 * i + 1]);
      out.x = fx - off * m[2 * i];
      out.y = fy - off * m[2 * i + 1];
      found = true;
    }
  }
  for (let i = 0; i < n && !found; i++) {
    const h = i === 0 ? n - 1 : i - 1;
    const j = i + 1 === n ? 0 : i + 1;
    const wx = px - v[2 * i];
    const wy = py - v[2 * i + 1];
    // Past the end of the incoming edge h→i and before the start of the outgoing edge i→j.
    const inc = wx * (v[2 * i] - v[2 * h]) + wy * (v[2 * i + 1] - v[2 * h + 1]);
    const outg = wx * (v[2 * j] - v[2 * i]) + wy * (v[2 * j + 1] - v[2 * i + 1]);
    if (inc >= 0 && outg <= 0) {
      out.x = v[2 * i];
      out.y = v[2 * i + 1];
      found = true;
    }
  }
  if (found) {
    out.distance = hypot2(px - out.x, py - out.y);
    out.inside = false;
    return out;
  }
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    closestOnSegment(segScratch, v[2 * i], v[2 * i + 1], v[2 * j], v[2 * j + 1], px, py);
    const d = hypot2(px - segScratch.x, py - segScratch.y);
    if (d < bestD) {
      bestD = d;
      out.x = segScratch.x;
      out.y = segScratch.y;
    }
  }
  out.distance = bestD;
  out.inside = false;
  return out;
}
