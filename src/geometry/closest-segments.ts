/**
 * Closest points of two segments (Ericson 2005, §5.1.9), robust to zero-length and parallel
 * segments: a zero-length segment is its point, and parallel segments pick the clamped
 * parameter of the first segment's start (any point of the overlap is a closest point).
 */
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";

/** Result of {@link closestPointsSegmentSegment}: parameters s on [p1, q1] and t on [p2, q2], in [0, 1]. */
export interface SegmentParameters {
  s: number;
  t: number;
}

const d1 = vec3.create();
const d2 = vec3.create();
const r = vec3.create();

function clamp01(x: number): number {
  return x < 0 ? 0 : Math.min(x, 1);
}

/**
 * Writes the closest points of segments [p1, q1] and [p2, q2] to `c1` and `c2` and returns their
 * parameters in `params` (c1 = p1 + s(q1 − p1), c2 = p2 + t(q2 − p2)). `c1`, `c2` must not alias
 * the inputs. Allocation-free.
 */
export function closestPointsSegmentSegment(
  c1: Vec3,
  c2: Vec3,
  p1: Vec3,
  q1: Vec3,
  p2: Vec3,
  q2: Vec3,
  params: SegmentParameters,
): SegmentParameters {
  vec3.sub(d1, q1, p1);
  vec3.sub(d2, q2, p2);
  vec3.sub(r, p1, p2);
  const a = vec3.dot(d1, d1);
  const e = vec3.dot(d2, d2);
  const f = vec3.dot(d2, r);
  let s: number;
  let t: number;
  if (a === 0 && e === 0) {
    s = 0;
    t = 0;
  } else if (a === 0) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const c = vec3.dot(d1, r);
    if (e === 0) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const b = vec3.dot(d1, d2);
      const denom = a * e - b * b;
      // denom = |d1|²|d2|² sin²θ ≥ 0; zero (up to round-off) for parallel segments.
      s = denom > 0 ? clamp01((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  vec3.addScaled(c1, p1, d1, s);
  vec3.addScaled(c2, p2, d2, t);
  params.s = s;
  params.t = t;
  return params;
}
