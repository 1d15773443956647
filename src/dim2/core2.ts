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

/** Closest point of the segment a–b to p (Ericson 2005, §5.1.2); a = b gives a. */
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
  const ee = ex * ex + ey * ey;
  let t = 0;
  if (ee > 0) {
    t = ((px - ax) * ex + (py - ay) * ey) / ee;
    if (t < 0) t = 0;
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
  let bestD = Infinity;
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
