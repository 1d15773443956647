/**
 * Adaptive resolution: the viewer draws at a fraction of the device's pixel ratio, lowered
 * when the page draws slower than the display's frame rate and raised back when it keeps up
 * (what many three.js applications do; software WebGL pays per covered pixel).
 *
 * The samples are the intervals between animation frames: after a frame the page drew (what
 * drawing costs shows there), or after one it did not (the display's own interval, and the
 * machine's). The display's interval is 1000/60 ms until measured: the median of the last
 * {@link WINDOW} intervals after idle frames, or a shorter median after drawn ones. Every
 * {@link WINDOW} intervals after drawn frames, their median is compared with it: above {@link SLOW} times it the scale drops by {@link STEP}
 * (not below `min`); below {@link FAST} times it, and {@link RAISE_AFTER_MS} after the last
 * drop, the scale rises by the same step, never above a scale that was too slow in the last
 * {@link REMEMBER_MS}. Nothing here allocates per frame.
 */

/** Intervals per decision. */
const WINDOW = 30;
/** Median over the display's interval above which the scale drops. */
const SLOW = 1.2;
/** Median over the display's interval below which the scale may rise. */
const FAST = 1.08;
/** Factor of a drop (a rise divides by it). */
const STEP = 0.8;
/**
 * Least time between a drop and the next rise, ms. A change resizes the drawing buffer (a
 * pause of its own), so changes are rare.
 */
const RAISE_AFTER_MS = 8000;
/** How long a scale found too slow stays the ceiling, ms. */
const REMEMBER_MS = 60_000;

/** The resolution scale and its controller (see the module's comment). */
export class ResolutionScale {
  /** Fraction of the device's pixel ratio drawn, in [min, 1]. */
  scale = 1;
  /** The display's frame interval as measured, ms. */
  displayInterval = 1000 / 60;
  /** True when the scale does not adapt. */
  readonly fixed: boolean;
  private readonly min: number;
  private readonly intervals = new Float64Array(WINDOW);
  private count = 0;
  private readonly idle = new Float64Array(WINDOW);
  private idleCount = 0;
  private last = -1;
  private lastDrew = false;
  private droppedAt = Number.NEGATIVE_INFINITY;
  private ceiling = 1;
  private ceilingAt = Number.NEGATIVE_INFINITY;

  /**
   * `min`: the lowest scale (0 < min ≤ 1); `fixed`: a scale in (0, 1] to keep instead of
   * adapting (the viewer's `?resolution=` parameter).
   */
  constructor(min = 0.5, fixed?: number) {
    this.min = min;
    this.fixed = fixed !== undefined;
    if (fixed !== undefined) this.scale = fixed;
  }

  /**
   * One animation frame at time `now` (ms) in which the page drew (`drew`) or not. Returns
   * true when the scale changed (the caller resizes its drawing buffer).
   */
  frame(now: number, drew: boolean): boolean {
    if (this.fixed) return false;
    const dt = this.last < 0 ? -1 : now - this.last;
    const afterDraw = this.lastDrew;
    this.last = now;
    this.lastDrew = drew;
    if (dt <= 0) return false;
    if (!afterDraw) {
      this.idle[this.idleCount++] = dt;
      if (this.idleCount === WINDOW) {
        this.idleCount = 0;
        this.displayInterval = median(this.idle);
      }
      return false;
    }
    this.intervals[this.count++] = dt;
    if (this.count < WINDOW) return false;
    this.count = 0;
    const m = median(this.intervals);
    if (m < this.displayInterval) this.displayInterval = m;
    const before = this.scale;
    if (m > SLOW * this.displayInterval) {
      if (this.scale > this.min) {
        this.ceiling = this.scale;
        this.ceilingAt = now;
        this.droppedAt = now;
        this.scale = Math.max(this.min, this.scale * STEP);
      }
    } else if (m < FAST * this.displayInterval && now - this.droppedAt >= RAISE_AFTER_MS) {
      const cap = now - this.ceilingAt < REMEMBER_MS ? this.ceiling * STEP : 1;
      this.scale = Math.min(1, cap, this.scale / STEP);
      if (this.scale < before) this.scale = before;
    }
    return this.scale !== before;
  }
}

/** The median of `a` (sorts it in place). */
function median(a: Float64Array): number {
  a.sort();
  const n = a.length;
  return n % 2 ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
}
