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

/** A zeroed `Float64Array` of `n` values, in a `SharedArrayBuffer` when `shared`. */
export function newFloat64(n: number, shared: boolean): Float64Array {
  return shared ? new Float64Array(new SharedArrayBuffer(8 * n)) : new Float64Array(n);
}

/** A zeroed `Int32Array` of `n` values, in a `SharedArrayBuffer` when `shared`. */
export function newInt32(n: number, shared: boolean): Int32Array {
  return shared ? new Int32Array(new SharedArrayBuffer(4 * n)) : new Int32Array(n);
}

/**
 * {@link growFloat64} for storage that worker threads may read: the grown array lives in a
 * `SharedArrayBuffer` when `shared`. Returns `a` when it already holds `n` values.
 */
export function growFloat64Mem(a: Float64Array, n: number, shared: boolean): Float64Array {
  if (n <= a.length) return a;
  let cap = Math.max(1, a.length);
  while (cap < n) cap *= 2;
  const b = newFloat64(cap, shared);
  b.set(a);
  return b;
}

/** {@link growInt32} into a `SharedArrayBuffer` when `shared` (see {@link growFloat64Mem}). */
export function growInt32Mem(a: Int32Array, n: number, shared: boolean, fill = 0): Int32Array {
  if (n <= a.length) return a;
  let cap = Math.max(1, a.length);
  while (cap < n) cap *= 2;
  const b = newInt32(cap, shared);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}

/** A copy of `a` in shared memory when `shared` and it is not there yet, else `a` itself. */
export function toSharedFloat64(a: Float64Array, shared: boolean): Float64Array {
  if (!shared || a.buffer instanceof SharedArrayBuffer) return a;
  const b = newFloat64(a.length, true);
  b.set(a);
  return b;
}

/** {@link toSharedFloat64} for an `Int32Array`. */
export function toSharedInt32(a: Int32Array, shared: boolean): Int32Array {
  if (!shared || a.buffer instanceof SharedArrayBuffer) return a;
  const b = newInt32(a.length, true);
  b.set(a);
  return b;
}

/** {@link toSharedFloat64} for a `Uint8Array`. */
export function toSharedUint8(a: Uint8Array, shared: boolean): Uint8Array {
  if (!shared || a.buffer instanceof SharedArrayBuffer) return a;
  const b = new Uint8Array(new SharedArrayBuffer(a.length));
  b.set(a);
  return b;
}
