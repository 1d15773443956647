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
  // Written out with no helper that takes or returns a double: inlined into a large caller
  // (box–box contact) past V8's inlining budget, such calls box their doubles (measured
  // 15 KB per world step in a bundled build).
  vec3.sub(d1, q1, p1);
  vec3.sub(d2, q2, p2);
  vec3.sub(r, p1, p2);
  const a = d1.x * d1.x + d1.y * d1.y + d1.z * d1.z;
  const e = d2.x * d2.x + d2.y * d2.y + d2.z * d2.z;
  const f = d2.x * r.x + d2.y * r.y + d2.z * r.z;
  let s: number;
  let t: number;
  // Clamps to [0, 1] below are `x < 0 ? 0 : Math.min(x, 1)` (NaN stays NaN).
  if (a === 0 && e === 0) {
    s = 0;
    t = 0;
  } else if (a === 0) {
    s = 0;
    const x = f / e;
    t = x < 0 ? 0 : Math.min(x, 1);
  } else {
    const c = d1.x * r.x + d1.y * r.y + d1.z * r.z;
    if (e === 0) {
      t = 0;
      const x = -c / a;
      s = x < 0 ? 0 : Math.min(x, 1);
    } else {
      const b = d1.x * d2.x + d1.y * d2.y + d1.z * d2.z;
      const denom = a * e - b * b;
      // denom = |d1|²|d2|² sin²θ ≥ 0; zero (up to round-off) for parallel segments.
      if (denom > 0) {
        const x = (b * f - c * e) / denom;
        s = x < 0 ? 0 : Math.min(x, 1);
      } else s = 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        const x = -c / a;
        s = x < 0 ? 0 : Math.min(x, 1);
      } else if (t > 1) {
        t = 1;
        const x = (b - c) / a;
        s = x < 0 ? 0 : Math.min(x, 1);
      }
    }
  }
  c1.x = p1.x + d1.x * s;
  c1.y = p1.y + d1.y * s;
  c1.z = p1.z + d1.z * s;
  c2.x = p2.x + d2.x * t;
  c2.y = p2.y + d2.y * t;
  c2.z = p2.z + d2.z * t;
  params.s = s;
  params.t = t;
  return params;
}
