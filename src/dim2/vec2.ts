/**
 * 2D vectors as plain `{x, y}` objects, the 2D counterpart of src/math/vec3.ts. Every operation
 * is out-first and returns `out`; `out` may alias any input (gl-matrix's convention). Only
 * `create` and `clone` allocate. The 2D module keeps its own math so that it never depends on
 * the 3D shapes (docs/DESIGN.md, `src/dim2/`).
 */

/** A 2D vector or point, in scene units unless stated. */
export interface Vec2 {
  x: number;
  y: number;
}

/** A new vector (allocates). */
export function create(x = 0, y = 0): Vec2 {
  return { x, y };
}

/** A copy of `a` (allocates). */
export function clone(a: Vec2): Vec2 {
  return { x: a.x, y: a.y };
}

/** out = (x, y). */
export function set(out: Vec2, x: number, y: number): Vec2 {
  out.x = x;
  out.y = y;
  return out;
}

/** out = a. */
export function copy(out: Vec2, a: Vec2): Vec2 {
  out.x = a.x;
  out.y = a.y;
  return out;
}

/** out = a + b. */
export function add(out: Vec2, a: Vec2, b: Vec2): Vec2 {
  out.x = a.x + b.x;
  out.y = a.y + b.y;
  return out;
}

/** out = a − b. */
export function sub(out: Vec2, a: Vec2, b: Vec2): Vec2 {
  out.x = a.x - b.x;
  out.y = a.y - b.y;
  return out;
}

/** out = a · s. */
export function scale(out: Vec2, a: Vec2, s: number): Vec2 {
  out.x = a.x * s;
  out.y = a.y * s;
  return out;
}

/** out = a + b · s. */
export function addScaled(out: Vec2, a: Vec2, b: Vec2, s: number): Vec2 {
  out.x = a.x + b.x * s;
  out.y = a.y + b.y * s;
  return out;
}

/** out = −a. */
export function negate(out: Vec2, a: Vec2): Vec2 {
  out.x = -a.x;
  out.y = -a.y;
  return out;
}

/** out = a + (b − a) · t. */
export function lerp(out: Vec2, a: Vec2, b: Vec2, t: number): Vec2 {
  out.x = a.x + (b.x - a.x) * t;
  out.y = a.y + (b.y - a.y) * t;
  return out;
}

/** a · b. */
export function dot(a: Vec2, b: Vec2): number {
  return a.x * b.x + a.y * b.y;
}

/** The 2D cross product (z of the 3D cross product): a.x·b.y − a.y·b.x. */
export function cross(a: Vec2, b: Vec2): number {
  return a.x * b.y - a.y * b.x;
}

/** out = a rotated by +90° (counter-clockwise): (−a.y, a.x). */
export function perpLeft(out: Vec2, a: Vec2): Vec2 {
  const x = a.x;
  out.x = -a.y;
  out.y = x;
  return out;
}

/** out = a rotated by −90° (clockwise): (a.y, −a.x); the outward normal of a CCW edge a. */
export function perpRight(out: Vec2, a: Vec2): Vec2 {
  const x = a.x;
  out.x = a.y;
  out.y = -x;
  return out;
}

/** |a|². */
export function lengthSq(a: Vec2): number {
  return a.x * a.x + a.y * a.y;
}

/** |a|, without overflow or underflow for huge or tiny components (Math.hypot). */
export function length(a: Vec2): number {
  return hypot2(a.x, a.y);
}

/** |a − b|², no allocation. */
export function distanceSq(a: Vec2, b: Vec2): number {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  return dx * dx + dy * dy;
}

/** |a − b|, no allocation. */
export function distance(a: Vec2, b: Vec2): number {
  return hypot2(a.x - b.x, a.y - b.y);
}

/**
 * out = a / |a|; returns |a|. A zero vector leaves out = (0, 0) and returns 0, so that callers
 * choose their own fallback direction instead of receiving NaN.
 */
export function normalize(out: Vec2, a: Vec2): number {
  const len = hypot2(a.x, a.y);
  if (len > 0) {
    out.x = a.x / len;
    out.y = a.y / len;
  } else {
    out.x = 0;
    out.y = 0;
  }
  return len;
}

/** out = componentwise min(a, b). */
export function min(out: Vec2, a: Vec2, b: Vec2): Vec2 {
  out.x = Math.min(a.x, b.x);
  out.y = Math.min(a.y, b.y);
  return out;
}

/** out = componentwise max(a, b). */
export function max(out: Vec2, a: Vec2, b: Vec2): Vec2 {
  out.x = Math.max(a.x, b.x);
  out.y = Math.max(a.y, b.y);
  return out;
}

/** True when every component is equal (===). */
export function exactEquals(a: Vec2, b: Vec2): boolean {
  return a.x === b.x && a.y === b.y;
}

/** True when every component differs by at most `tol`. */
export function equals(a: Vec2, b: Vec2, tol: number): boolean {
  return Math.abs(a.x - b.x) <= tol && Math.abs(a.y - b.y) <= tol;
}

/** True when both components are finite numbers. */
export function isFiniteVec(a: Vec2): boolean {
  return a !== null && typeof a === "object" && Number.isFinite(a.x) && Number.isFinite(a.y);
}

import { hypot2 } from "../math/scalar.js";
