/**
 * The order of two shapes of one type by the numbers that define them (issue 16: a same-type
 * pair the relative pose does not order is solved in this order, so that both argument orders
 * run one computation; src/narrowphase/canonical-order.ts). Each definition holds its own
 * comparison ({@link ShapeDef.dataOrder}), written with the comparisons here, so that an
 * application bundles only those of the types it makes.
 */
import type { Quat } from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import type { Shape } from "./shape.js";
import { shapeDef } from "./shape-def.js";

/**
 * The sign of the first difference between the numbers that define shapes `a` and `b` of one
 * type, in the order of their definition's {@link ShapeDef.dataOrder} — a box's half extents; a
 * triangle's or capsule's points, then a radius; a cylinder's or cone's radius, then half
 * height; a hull's vertices; a half-space's normal, then offset; a heightfield's rows, columns,
 * heights and scale; a mesh's vertices, then indices; a compound's child count, then each
 * child's type, pose and data; a rounded shape's core, then its radius — 0 when they are equal,
 * of different types, or of a type without that comparison. Derived caches (a hull's faces, its
 * support starts) are never read, so the answer does not change as queries fill them.
 * Antisymmetric: swapping a and b negates it. Allocation free.
 */
export function shapeDataOrder(a: Shape, b: Shape): number {
  if (a.type !== b.type) return 0;
  const order = shapeDef(a.type).dataOrder;
  return order === undefined ? 0 : order(a, b);
}

/** The sign of x − y (0 when equal or either is NaN). */
export function numberOrder(x: number, y: number): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The order of two number lists: the shorter first, then the first differing entry. */
export function arrayOrder(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/** The order of two vectors: x, then y, then z. */
export function vecOrder(u: Vec3, v: Vec3): number {
  return numberOrder(u.x, v.x) || numberOrder(u.y, v.y) || numberOrder(u.z, v.z);
}

/** The order of two quaternions: x, then y, z, w. */
export function quatOrder(u: Quat, v: Quat): number {
  return (
    numberOrder(u.x, v.x) || numberOrder(u.y, v.y) || numberOrder(u.z, v.z) || numberOrder(u.w, v.w)
  );
}
