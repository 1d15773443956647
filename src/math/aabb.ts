/**
 * Axis-aligned bounding boxes, as `{min, max}` corners, with conversion to and from
 * centre + half extents (Ericson 2005, §4.2). Touching boxes overlap: the tests use ≤.
 */

import type { Vec3 } from "./vec3.js";
import * as vec3 from "./vec3.js";

/** An axis-aligned box by its corners; min ≤ max on every axis (zero thickness allowed). */
export interface Aabb {
  min: Vec3;
  max: Vec3;
}

/** A new AABB (allocates; copies the corners). */
export function create(min: Vec3, max: Vec3): Aabb {
  return { min: vec3.clone(min), max: vec3.clone(max) };
}

/** An empty AABB (min = +∞, max = −∞), the identity of `union` (allocates). */
export function empty(): Aabb {
  return {
    min: { x: Infinity, y: Infinity, z: Infinity },
    max: { x: -Infinity, y: -Infinity, z: -Infinity },
  };
}

/** out = the AABB with centre `c` and half extents `h` (h ≥ 0). */
export function fromCenterHalfExtents(out: Aabb, c: Vec3, h: Vec3): Aabb {
  vec3.set(out.min, c.x - h.x, c.y - h.y, c.z - h.z);
  vec3.set(out.max, c.x + h.x, c.y + h.y, c.z + h.z);
  return out;
}

/** out = the centre of `box`. */
export function center(out: Vec3, box: Aabb): Vec3 {
  return vec3.set(
    out,
    0.5 * (box.min.x + box.max.x),
    0.5 * (box.min.y + box.max.y),
    0.5 * (box.min.z + box.max.z),
  );
}

/** out = the half extents of `box`. */
export function halfExtents(out: Vec3, box: Aabb): Vec3 {
  return vec3.set(
    out,
    0.5 * (box.max.x - box.min.x),
    0.5 * (box.max.y - box.min.y),
    0.5 * (box.max.z - box.min.z),
  );
}

/** True when the boxes overlap or touch (Ericson 2005, §4.2.1, min–max form). */
export function overlaps(a: Aabb, b: Aabb): boolean {
  return (
    a.min.x <= b.max.x &&
    b.min.x <= a.max.x &&
    a.min.y <= b.max.y &&
    b.min.y <= a.max.y &&
    a.min.z <= b.max.z &&
    b.min.z <= a.max.z
  );
}

/**
 * True when boxes given by centre and half extents overlap or touch (Ericson 2005, §4.2.1,
 * centre–radius form): |c_a − c_b| ≤ h_a + h_b on every axis.
 */
export function overlapsCenterHalfExtents(ca: Vec3, ha: Vec3, cb: Vec3, hb: Vec3): boolean {
  return (
    Math.abs(ca.x - cb.x) <= ha.x + hb.x &&
    Math.abs(ca.y - cb.y) <= ha.y + hb.y &&
    Math.abs(ca.z - cb.z) <= ha.z + hb.z
  );
}

/** True when point `p` is inside or on `box`. */
export function containsPoint(box: Aabb, p: Vec3): boolean {
  return (
    p.x >= box.min.x &&
    p.x <= box.max.x &&
    p.y >= box.min.y &&
    p.y <= box.max.y &&
    p.z >= box.min.z &&
    p.z <= box.max.z
  );
}

/** True when `inner` lies inside or on `outer`. */
export function contains(outer: Aabb, inner: Aabb): boolean {
  return (
    outer.min.x <= inner.min.x &&
    outer.min.y <= inner.min.y &&
    outer.min.z <= inner.min.z &&
    outer.max.x >= inner.max.x &&
    outer.max.y >= inner.max.y &&
    outer.max.z >= inner.max.z
  );
}

/** out = the smallest AABB containing a and b. */
export function union(out: Aabb, a: Aabb, b: Aabb): Aabb {
  vec3.min(out.min, a.min, b.min);
  vec3.max(out.max, a.max, b.max);
  return out;
}

/** out = box grown to contain point p. */
export function expandByPoint(out: Aabb, box: Aabb, p: Vec3): Aabb {
  vec3.min(out.min, box.min, p);
  vec3.max(out.max, box.max, p);
  return out;
}

/** out = box grown by `margin` ≥ 0 on every side (a fat AABB). */
export function expandByMargin(out: Aabb, box: Aabb, margin: number): Aabb {
  vec3.set(out.min, box.min.x - margin, box.min.y - margin, box.min.z - margin);
  vec3.set(out.max, box.max.x + margin, box.max.y + margin, box.max.z + margin);
  return out;
}

/**
 * The box's reach from its frame's origin: the largest |coordinate| of its corners (scene units),
 * what the size limits compare (MESH_COORDINATE_LIMIT, the world's coordinate range).
 */
export function reach(box: Aabb): number {
  return Math.max(
    Math.abs(box.min.x),
    Math.abs(box.min.y),
    Math.abs(box.min.z),
    Math.abs(box.max.x),
    Math.abs(box.max.y),
    Math.abs(box.max.z),
  );
}

/** Surface area of `box` (the SAH cost). */
export function surfaceArea(box: Aabb): number {
  const dx = box.max.x - box.min.x;
  const dy = box.max.y - box.min.y;
  const dz = box.max.z - box.min.z;
  return 2 * (dx * dy + dy * dz + dz * dx);
}

/** Volume of `box`. */
export function volume(box: Aabb): number {
  return (box.max.x - box.min.x) * (box.max.y - box.min.y) * (box.max.z - box.min.z);
}

/** out = the point of `box` closest to `p` (p clamped into the box; Ericson 2005, §5.1.3). */
export function closestPoint(out: Vec3, box: Aabb, p: Vec3): Vec3 {
  return vec3.set(
    out,
    Math.min(Math.max(p.x, box.min.x), box.max.x),
    Math.min(Math.max(p.y, box.min.y), box.max.y),
    Math.min(Math.max(p.z, box.min.z), box.max.z),
  );
}

/** out = a copy of box. */
export function copy(out: Aabb, box: Aabb): Aabb {
  vec3.copy(out.min, box.min);
  vec3.copy(out.max, box.max);
  return out;
}
