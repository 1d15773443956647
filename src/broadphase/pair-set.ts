/**
 * A growable set of broad-phase pairs stored as packed keys in one `Float64Array`.
 *
 * A pair of proxy ids `(lo, hi)` with `lo < hi` is packed into one double as
 * `lo · 2^26 + hi`. Both ids are below 2^26, so the key is an integer below 2^52 and is exact in
 * a double; ascending order of keys is ascending order by `(lo, hi)`, which lets `sort()` use the
 * native numeric sort of typed arrays (no comparator, no allocation). The id limit is therefore
 * {@link MAX_PROXY_ID} = 2^26 − 1 = 67 108 863, far above what a dense typed-array broad phase
 * can hold anyway.
 *
 * The storage grows by doubling and is kept across `clear()`, so a broad phase that refills the
 * same set every frame allocates nothing in steady state.
 */
import { invalidValue } from "../errors.js";
import { newFloat64, toSharedFloat64 } from "../math/typed-arrays.js";

/** Number of values an id can take in a packed pair key: ids are in `[0, 2^26)`. */
export const PAIR_KEY_BASE = 2 ** 26;

/** Largest proxy id a broad phase accepts (2^26 − 1), so that packed pair keys stay exact. */
export const MAX_PROXY_ID = PAIR_KEY_BASE - 1;

const INITIAL_CAPACITY = 64;
/** Below this many pairs the native sort is as fast as the counting sort. */
const COUNTING_SORT_MIN_PAIRS = 256;
/** The counting sort is used while the largest lower id is at most this many times the pair count. */
const COUNTING_SORT_IDS_PER_PAIR = 8;
/** Runs of one `lo` longer than this are sorted natively instead of by insertion. */
const INSERTION_SORT_MAX_RUN = 32;

/**
 * Packs the unordered pair `{a, b}` of ids in `[0, 2^26)` into its key `lo · 2^26 + hi`
 * (lo = min, hi = max). Does not validate.
 */
export function packPair(a: number, b: number): number {
  return a < b ? a * PAIR_KEY_BASE + b : b * PAIR_KEY_BASE + a;
}

/** The lower id of a packed pair key. */
export function pairLo(key: number): number {
  return Math.floor(key / PAIR_KEY_BASE);
}

/** The higher id of a packed pair key. */
export function pairHi(key: number): number {
  return key - Math.floor(key / PAIR_KEY_BASE) * PAIR_KEY_BASE;
}

/**
 * A list of packed pairs (see the module docs) with sorting, deduplication and iteration.
 * Broad phases fill it through {@link PairSet.add}; `computePairs` leaves it sorted ascending by
 * `(lo, hi)` with no duplicates.
 */
export class PairSet {
  private keys: Float64Array;
  private count = 0;
  /**
   * Most pairs the set may hold: its storage grows up to exactly this many (no doubling past
   * it) and adding one more throws, at no cost per pair; `Infinity` by default. See
   * {@link setLimit}.
   */
  limit = Number.POSITIVE_INFINITY;
  /** The option named by the `CollideError` thrown when {@link limit} is passed. */
  limitField = "";
  /** The option's value, quoted by that error (the limit itself unless the caller adds room). */
  limitValue = Number.POSITIVE_INFINITY;
  /**
   * Counts the calls of {@link setLimit}: a caller that derives its own limits from this set's
   * compares this small integer per step instead of the limits, which are doubles (reading a
   * double field allocates in code that V8 has not optimized yet).
   */
  limitVersion = 0;
  /** Scratch of the counting sort: a buffer as long as `keys`, and the per-`lo` counts. */
  private spare: Float64Array = new Float64Array(0);
  private counts = new Int32Array(0);
  /** True once {@link useSharedMemory} ran: the key storage lives in `SharedArrayBuffer`s. */
  private shared = false;

  /** A new, empty set with room for `initialCapacity` pairs (it grows by doubling). */
  constructor(initialCapacity = INITIAL_CAPACITY) {
    this.keys = new Float64Array(Math.max(1, Math.floor(initialCapacity)));
  }

  /** Number of pairs held. */
  get size(): number {
    return this.count;
  }

  /**
   * Keeps the key storage in `SharedArrayBuffer`s from now on (moved there at once), so that
   * worker threads can read and write it in place (the parallel broad phase,
   * src/broadphase/candidate-merge.ts).
   */
  useSharedMemory(): void {
    this.shared = true;
    this.keys = toSharedFloat64(this.keys, true);
    this.spare = toSharedFloat64(this.spare, true);
  }

  /**
   * The key storage: `storage[0 .. size)` are the keys; its length is the capacity. Replaced
   * when the set grows or sorts, so read it again after those.
   */
  get storage(): Float64Array {
    return this.keys;
  }

  /**
   * Makes the storage hold at least `n` keys (`n`, or twice the old room when that is more;
   * kept), for a writer of
   * {@link storage} that then calls {@link setSize}. Throws `CollideError` when `n` passes
   * {@link limit}.
   */
  reserve(n: number): void {
    if (n <= this.keys.length) return;
    if (n > this.limit) {
      invalidValue(
        this.limitField,
        this.limitValue,
        `is exceeded: the broad phase found more than ${this.limitValue} candidate pairs (raise it to allow this)`,
      );
    }
    // Exactly `n` when that is more than twice the old room (a first build's reservation from
    // its counts: rounded up to a power of two, scene (a)'s 820,000 candidates took 8 MB of
    // `ArrayBuffer` for 6.6 MB asked, and a first step's `ArrayBuffer`s count towards V8's
    // external memory limit, whose crossing costs a full collection); twice the old room
    // otherwise, so that a set grown a little at a time is copied O(log n) times.
    const grown = newFloat64(Math.min(Math.max(n, 2 * this.keys.length), this.limit), this.shared);
    grown.set(this.keys.subarray(0, this.count));
    this.keys = grown;
  }

  /** Sets the number of keys held after a write into {@link storage} (0 ≤ n ≤ capacity). */
  setSize(n: number): void {
    this.count = n;
  }

  /** Appends `src[from .. to)`, already packed keys (a loop: no view is allocated). */
  appendKeys(src: Float64Array, from: number, to: number): void {
    this.reserve(this.count + (to - from));
    const k = this.keys;
    let w = this.count;
    for (let i = from; i < to; i++) k[w++] = src[i];
    this.count = w;
  }

  /** Empties the set, keeping its storage. */
  clear(): void {
    this.count = 0;
  }

  /** Appends the pair `{a, b}` (ids in `[0, 2^26)`, a ≠ b; not validated, not deduplicated). */
  add(a: number, b: number): void {
    // The key written here, not passed on: a double passed to a call V8 does not inline is boxed.
    if (this.count === this.keys.length) this.grow();
    this.keys[this.count++] = a < b ? a * PAIR_KEY_BASE + b : b * PAIR_KEY_BASE + a;
  }

  /**
   * Makes adding a pair beyond `limit` throw `CollideError` naming `field` (e.g. a world's
   * `options.maxPairs`) and quoting `value` (the option's value; default `limit`; a broad phase
   * that gives its candidates room beyond the option passes the option here): a broad phase
   * stops enumerating a scene with far too many pairs instead of exhausting memory, having
   * allocated room for at most `limit` pairs.
   */
  setLimit(limit: number, field: string, value = limit): void {
    this.limit = limit;
    this.limitField = field;
    this.limitValue = value;
    this.limitVersion = (this.limitVersion + 1) | 0;
  }

  /** Appends an already packed key. */
  addKey(key: number): void {
    if (this.count === this.keys.length) this.grow();
    this.keys[this.count++] = key;
  }

  /**
   * For a hot loop that appends to {@link storage} directly: call it with {@link size} set to
   * the keys written so far when the storage is full; it grows the storage (throwing
   * `CollideError` at {@link limit}, as {@link addKey} does) and returns the new one. Such a loop
   * passes no key to a call: a double passed to a call that V8 does not inline is boxed (16
   * bytes of garbage per key), and whether V8 inlines `addKey` depends on the caller's size and
   * on compile timing.
   */
  room(): Float64Array {
    if (this.count === this.keys.length) this.grow();
    return this.keys;
  }

  /** Doubles the storage, capped at {@link limit}; throws when the set is full at the limit. */
  private grow(): void {
    if (this.count >= this.limit) {
      invalidValue(
        this.limitField,
        this.limitValue,
        `is exceeded: the broad phase found more than ${this.limitValue} candidate pairs (raise it to allow this)`,
      );
    }
    const grown = newFloat64(Math.min(this.keys.length * 2, this.limit), this.shared);
    grown.set(this.keys);
    this.keys = grown;
  }

  /** The packed key of pair `i` (0 ≤ i < size). */
  keyAt(i: number): number {
    return this.keys[i];
  }

  /** The lower id of pair `i`. */
  loAt(i: number): number {
    return pairLo(this.keys[i]);
  }

  /** The higher id of pair `i`. */
  hiAt(i: number): number {
    return pairHi(this.keys[i]);
  }

  /**
   * Sorts ascending by `(lo, hi)` in place. Returns this. When the lower ids are dense (at most
   * a few per pair, as a world's slots are), a counting sort by `lo` followed by an insertion
   * sort (whose moves stay within one `lo`'s few pairs) runs in O(pairs + ids); otherwise the
   * native typed-array numeric sort. Both give the one ascending order.
   */
  sort(): this {
    const n = this.count;
    const k = this.keys;
    let maxLo = 0;
    for (let i = 0; i < n; i++) {
      const lo = Math.floor(k[i] / PAIR_KEY_BASE);
      if (lo > maxLo) maxLo = lo;
    }
    if (n < COUNTING_SORT_MIN_PAIRS || maxLo > COUNTING_SORT_IDS_PER_PAIR * n) {
      // Sort the whole buffer in place with the unused tail set to +Infinity (it sorts last), so
      // that no subarray view is allocated per call.
      if (n < k.length) k.fill(Number.POSITIVE_INFINITY, n);
      k.sort();
      return this;
    }
    if (this.counts.length < maxLo + 2) this.counts = new Int32Array(2 * (maxLo + 2));
    if (this.spare.length !== k.length) this.spare = newFloat64(k.length, this.shared);
    const counts = this.counts;
    counts.fill(0, 0, maxLo + 2);
    for (let i = 0; i < n; i++) counts[Math.floor(k[i] / PAIR_KEY_BASE) + 1]++;
    for (let i = 1; i <= maxLo + 1; i++) counts[i] += counts[i - 1];
    const t = this.spare;
    for (let i = 0; i < n; i++) {
      const v = k[i];
      t[counts[Math.floor(v / PAIR_KEY_BASE)]++] = v;
    }
    // counts[lo] is now the end of lo's run; sort each run by hi.
    let start = 0;
    for (let lo = 0; lo <= maxLo; lo++) {
      const end = counts[lo];
      // A long run is heap-sorted in place: `t.subarray(start, end).sort()` would allocate a view.
      if (end - start > INSERTION_SORT_MAX_RUN) heapSortRange(t, start, end);
      else {
        for (let i = start + 1; i < end; i++) {
          const v = t[i];
          let j = i - 1;
          while (j >= start && t[j] > v) {
            t[j + 1] = t[j];
            j--;
          }
          t[j + 1] = v;
        }
      }
      start = end;
    }
    this.spare = k;
    this.keys = t;
    return this;
  }

  /** Sorts, then removes duplicate pairs. Returns this. */
  sortUnique(): this {
    this.sort();
    const k = this.keys;
    let w = 0;
    for (let r = 0; r < this.count; r++) {
      if (w === 0 || k[r] !== k[w - 1]) k[w++] = k[r];
    }
    this.count = w;
    return this;
  }

  /** True when the (sorted) set holds `{a, b}`; binary search, so call after `sort()`. */
  has(a: number, b: number): boolean {
    const key = packPair(a, b);
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.keys[mid];
      if (v === key) return true;
      if (v < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Calls `fn(lo, hi, index)` for every pair in storage order. */
  forEach(fn: (lo: number, hi: number, index: number) => void): void {
    for (let i = 0; i < this.count; i++) {
      const key = this.keys[i];
      const lo = Math.floor(key / PAIR_KEY_BASE);
      fn(lo, key - lo * PAIR_KEY_BASE, i);
    }
  }

  /** Iterates the packed keys in storage order (decode with `pairLo` / `pairHi`). */
  *[Symbol.iterator](): IterableIterator<number> {
    for (let i = 0; i < this.count; i++) yield this.keys[i];
  }

  /** True when both sets hold the same keys in the same order. */
  equals(other: PairSet): boolean {
    if (other.count !== this.count) return false;
    for (let i = 0; i < this.count; i++) if (other.keys[i] !== this.keys[i]) return false;
    return true;
  }

  /** The pairs as `[lo, hi]` arrays in storage order (allocates; for tests and tools). */
  toArray(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    this.forEach((lo, hi) => {
      out.push([lo, hi]);
    });
    return out;
  }
}

/**
 * Sorts `a[start .. end)` ascending in place by heapsort (Williams 1964; Knuth, TAOCP vol. 3,
 * §5.2.3): O(k log k) for k = end − start, no recursion and no allocation. For numbers without
 * NaN the ascending order is unique, so the result equals any other sort's.
 */
export function heapSortRange(a: Float64Array, start: number, end: number): void {
  const n = end - start;
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(a, start, i, n);
  for (let last = n - 1; last > 0; last--) {
    const top = a[start];
    a[start] = a[start + last];
    a[start + last] = top;
    siftDown(a, start, 0, last);
  }
}

/** Restores the max-heap order of `a[base ..< base + n)` below heap index `i`. */
function siftDown(a: Float64Array, base: number, i: number, n: number): void {
  const v = a[base + i];
  let j = i;
  for (;;) {
    let c = 2 * j + 1;
    if (c >= n) break;
    if (c + 1 < n && a[base + c + 1] > a[base + c]) c++;
    if (!(a[base + c] > v)) break;
    a[base + j] = a[base + c];
    j = c;
  }
  a[base + j] = v;
}
