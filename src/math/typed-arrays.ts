/**
 * Growth of the typed arrays that hot code keeps as scratch or storage: by doubling, so that a
 * steady state stops allocating, keeping the contents. Shared by the broad phases, the world
 * and the narrow phase.
 */

/** Grows an `Int32Array` to hold at least `n` values (doubling), keeping contents; new slots get `fill`. */
export function growInt32(
  a: Int32Array<ArrayBuffer>,
  n: number,
  fill = 0,
): Int32Array<ArrayBuffer> {
  if (n <= a.length) return a;
  let cap = Math.max(1, a.length);
  while (cap < n) cap *= 2;
  const b = new Int32Array(cap);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}

/** Grows a `Float64Array` to hold at least `n` values (doubling), keeping contents. */
export function growFloat64(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  if (n <= a.length) return a;
  let cap = Math.max(1, a.length);
  while (cap < n) cap *= 2;
  const b = new Float64Array(cap);
  b.set(a);
  return b;
}
