/**
 * Boxes packed in typed arrays, 6 numbers each (min xyz, max xyz), as the hierarchies store
 * their nodes (src/geometry/mesh-bvh.ts, src/broadphase/static-bvh.ts). Internal: not part of
 * the public `aabb` namespace, whose boxes are objects.
 */

/**
 * Writes into out[o..o+5] the union of the boxes a[ia..ia+5] and b[ib..ib+5] (`Math.min` of the
 * mins, `Math.max` of the maxes, per axis): a parent's box from its children's, a running union
 * of bins. `out` may be either input at the same offset. Allocates nothing; small, so that V8
 * inlines it at every call.
 */
export function unionBoxes(
  out: Float64Array,
  o: number,
  a: Float64Array,
  ia: number,
  b: Float64Array,
  ib: number,
): void {
  out[o] = Math.min(a[ia], b[ib]);
  out[o + 1] = Math.min(a[ia + 1], b[ib + 1]);
  out[o + 2] = Math.min(a[ia + 2], b[ib + 2]);
  out[o + 3] = Math.max(a[ia + 3], b[ib + 3]);
  out[o + 4] = Math.max(a[ia + 4], b[ib + 4]);
  out[o + 5] = Math.max(a[ia + 5], b[ib + 5]);
}
