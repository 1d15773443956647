/**
 * The viewer's adaptive resolution (viewer/src/resolution.ts) fed synthetic animation-frame
 * times: the expected scales are derived by hand from its rules (a window of 30 intervals, a
 * drop to 0.8× above 1.2× the display's interval, a rise below 1.08× no sooner than 8 s after a
 * drop and not back to a scale found too slow within 60 s, never below the minimum).
 */
import { describe, expect, it } from "vitest";
import { ResolutionScale } from "../../viewer/src/resolution.js";

/** Feeds `n` frames `dt` ms apart from `t`, drawn or not; returns the time after them. */
function feed(r: ResolutionScale, t: number, n: number, dt: number, drew: boolean): number {
  let now = t;
  for (let k = 0; k < n; k++) {
    now += dt;
    r.frame(now, drew);
  }
  return now;
}

describe("ResolutionScale", () => {
  it("keeps full resolution while drawn frames keep the display's 60 Hz", () => {
    const r = new ResolutionScale(0.5);
    feed(r, 0, 600, 1000 / 60, true);
    expect(r.scale).toBe(1);
  });

  it("drops by a fifth per slow window of 30 frames, down to the minimum and no lower", () => {
    const r = new ResolutionScale(0.5);
    let t = feed(r, 0, 1, 40, true); // the first frame has no interval before it
    t = feed(r, t, 30, 40, true);
    expect(r.scale).toBeCloseTo(0.8, 12);
    t = feed(r, t, 30, 40, true);
    expect(r.scale).toBeCloseTo(0.64, 12);
    t = feed(r, t, 30, 40, true);
    expect(r.scale).toBeCloseTo(0.512, 12);
    feed(r, t, 300, 40, true);
    expect(r.scale).toBe(0.5);
  });

  it("takes a slow display (measured on idle frames) as the display's rate: no drop", () => {
    const r = new ResolutionScale(0.5);
    let t = feed(r, 0, 31, 1000 / 30, false);
    expect(r.displayInterval).toBeCloseTo(1000 / 30, 9);
    // Drawing alternates with idle frames at the display's 30 Hz.
    for (let k = 0; k < 200; k++) t = feed(r, t, 1, 1000 / 30, k % 2 === 0);
    expect(r.scale).toBe(1);
  });

  it("rises again once fast, 8 s after the drop, and not back to the slow scale within 60 s", () => {
    const r = new ResolutionScale(0.5);
    let t = feed(r, 0, 31, 40, true);
    expect(r.scale).toBeCloseTo(0.8, 12);
    const droppedAt = t;
    // Fast at once: no rise before 8 s have passed since the drop.
    while (t - droppedAt < 7900) t = feed(r, t, 1, 1000 / 60, true);
    expect(r.scale).toBeCloseTo(0.8, 12);
    // Slow again: within two windows (the current one began fast) the scale drops to 0.64; the
    // ceiling is 0.8 for 60 s.
    for (let k = 0; k < 60 && r.scale > 0.7; k++) t = feed(r, t, 1, 40, true);
    expect(r.scale).toBeCloseTo(0.64, 12);
    const secondDrop = t;
    // Fast for 30 s: rises once it may, but only to 0.8 · 0.8 = 0.64 (below the ceiling 0.8).
    while (t - secondDrop < 30_000) t = feed(r, t, 1, 1000 / 60, true);
    expect(r.scale).toBeCloseTo(0.64, 12);
    // After 60 s the ceiling is forgotten: back up to full resolution.
    while (t - secondDrop < 90_000) t = feed(r, t, 1, 1000 / 60, true);
    expect(r.scale).toBe(1);
  });

  it("a fixed scale never changes", () => {
    const r = new ResolutionScale(0.5, 0.75);
    expect(r.fixed).toBe(true);
    feed(r, 0, 300, 100, true);
    expect(r.scale).toBe(0.75);
  });
});
