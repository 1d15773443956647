/**
 * 2D rotations as a unit complex number `{c, s}` = (cos θ, sin θ), the 2D counterpart of a unit
 * quaternion (Box2D v3's `b2Rot`). Composing and applying rotations needs only products and
 * sums, so the 2D core stays free of transcendental functions: `Math.cos`/`Math.sin` are called
 * in exactly one place, {@link fromAngle}, at the boundary where a user's angle becomes a
 * rotation. Everything downstream is bitwise reproducible across JavaScript engines.
 */
import { invalidValue } from "../errors.js";
import { hypot2 } from "../math/scalar.js";
import type { Vec2 } from "./vec2.js";

/** A 2D rotation: `c` = cos θ, `s` = sin θ, with c² + s² = 1 (θ in radians, counter-clockwise). */
export interface Rot2 {
  c: number;
  s: number;
}

/** The identity rotation (allocates). */
export function identity(): Rot2 {
  return { c: 1, s: 0 };
}

/**
 * The rotation by `angle` radians counter-clockwise (allocates). The only call of `Math.cos` and
 * `Math.sin` in the 2D core: angles are converted once at the boundary. Exact quarter turns
 * (multiples of π/2 as written in double precision) are snapped to exact 0/±1 so that an
 * `orect` at angle π/2 stays exactly axis-aligned. Throws `CollideError` naming `angle` unless
 * it is a finite number.
 */
export function fromAngle(angle: number): Rot2 {
  // cos and sin of NaN or ±Infinity are NaN: a NaN rotation had been built silently.
  if (typeof angle !== "number" || !Number.isFinite(angle)) {
    invalidValue("angle", angle, "must be a finite number (radians)");
  }
  let c = Math.cos(angle);
  let s = Math.sin(angle);
  // cos(π/2) in doubles is 6.1e-17, not 0: snap the quarter turns.
  if (Math.abs(c) < Number.EPSILON) c = 0;
  if (Math.abs(s) < Number.EPSILON) s = 0;
  if (c === 0) s = s > 0 ? 1 : -1;
  if (s === 0) c = c > 0 ? 1 : -1;
  return { c, s };
}

/**
 * The rotation from a (not necessarily unit) direction `(x, y)`: the angle of that vector.
 * Returns the identity for the zero vector (allocates).
 */
export function fromDirection(x: number, y: number): Rot2 {
  const len = hypot2(x, y);
  if (!(len > 0)) return { c: 1, s: 0 };
  return { c: x / len, s: y / len };
}

/** out = q. */
export function copy(out: Rot2, q: Rot2): Rot2 {
  out.c = q.c;
  out.s = q.s;
  return out;
}

/** out = q · v (v rotated by q). */
export function rotate(out: Vec2, q: Rot2, v: Vec2): Vec2 {
  const x = v.x;
  const y = v.y;
  out.x = q.c * x - q.s * y;
  out.y = q.s * x + q.c * y;
  return out;
}

/** out = q⁻¹ · v (v rotated by the inverse of q). */
export function invRotate(out: Vec2, q: Rot2, v: Vec2): Vec2 {
  const x = v.x;
  const y = v.y;
  out.x = q.c * x + q.s * y;
  out.y = -q.s * x + q.c * y;
  return out;
}

/** out = a · b (first b, then a). */
export function mul(out: Rot2, a: Rot2, b: Rot2): Rot2 {
  const c = a.c * b.c - a.s * b.s;
  const s = a.s * b.c + a.c * b.s;
  out.c = c;
  out.s = s;
  return out;
}

/** out = a⁻¹ · b (b relative to a). */
export function invMul(out: Rot2, a: Rot2, b: Rot2): Rot2 {
  const c = a.c * b.c + a.s * b.s;
  const s = a.c * b.s - a.s * b.c;
  out.c = c;
  out.s = s;
  return out;
}

/** True when q is exactly the identity (c = 1, s = 0). */
export function isIdentity(q: Rot2): boolean {
  return q.c === 1 && q.s === 0;
}
