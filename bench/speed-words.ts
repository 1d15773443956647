/**
 * How two timings compare, in words a reader cannot misread: `"7.1× slower"` rather than
 * `"×0.14"` or `"0.14× faster"`. Used by `collide bench --gpu` (bench/gpu.ts) for the GPU's time
 * against the CPU's.
 */

/**
 * `ms` against `baselineMs` (both positive, milliseconds): `"N× faster"` when `ms` is shorter,
 * `"N× slower"` when longer, N ≥ 1 with one decimal below 10 and none from 10 on (`"2.3×"`, `"14×"`), and
 * `"as fast"` when they agree to those figures. Non-positive or non-finite input gives `"n/a"`.
 */
export function speedWords(ms: number, baselineMs: number): string {
  if (!(ms > 0 && baselineMs > 0 && Number.isFinite(ms) && Number.isFinite(baselineMs))) {
    return "n/a";
  }
  const faster = ms <= baselineMs;
  const ratio = faster ? baselineMs / ms : ms / baselineMs;
  const text = ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(1);
  if (text === "1.0") return "as fast";
  return `${text}× ${faster ? "faster" : "slower"}`;
}
