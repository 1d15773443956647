/**
 * An independent oracle for |ball ∩ box| (not the library's method): the sphere's centre taken
 * into the box's frame with a rotation matrix (not the library's quaternion sandwich), then the
 * volume as ∫ A(z) dz of the cross-section area — disc ∩ rectangle by inclusion–exclusion of
 * circular segments and quadrants — by tanh–sinh quadrature on every piece between the z where
 * the circle passes an edge or corner of the rectangle (tanh–sinh is insensitive to the
 * square-root endpoint behaviour there). Doubles throughout, so its own error is about
 * {@link sliceOracleError}; the 60-digit counterpart is scripts/ball-box-oracle.py.
 */
import type { Isometry } from "../../src/math/isometry.js";

/** Disc of radius rho beyond the line y = b. */
function segment(b: number, rho: number): number {
  if (b >= rho) return 0;
  if (b <= -rho) return Math.PI * rho * rho;
  if (b < 0) return Math.PI * rho * rho - segment(-b, rho);
  return rho * rho * Math.acos(b / rho) - b * Math.sqrt(rho * rho - b * b);
}

/** Disc beyond x = a and y = b, any signs. */
function quadrant(a: number, b: number, rho: number): number {
  if (a < 0) return segment(b, rho) - quadrant(-a, b, rho);
  if (b < 0) return segment(a, rho) - quadrant(a, -b, rho);
  if (a * a + b * b >= rho * rho) return 0;
  return (
    0.5 * rho * rho * (Math.acos(a / rho) + Math.acos(b / rho) - Math.PI / 2) -
    0.5 * a * Math.sqrt(rho * rho - a * a) -
    0.5 * b * Math.sqrt(rho * rho - b * b) +
    a * b
  );
}

/** tanh–sinh quadrature of f on [a, b], refined until two levels agree. */
function tanhSinh(f: (x: number) => number, a: number, b: number): number {
  const c = 0.5 * (a + b);
  const h = 0.5 * (b - a);
  let step = 0.5;
  let sum = 0;
  let prev = Number.NaN;
  // Level 0: all nodes k·step; later levels only the odd multiples.
  const term = (t: number) => {
    const u = 0.5 * Math.PI * Math.sinh(t);
    const x = Math.tanh(u);
    const w = (0.5 * Math.PI * Math.cosh(t)) / (Math.cosh(u) * Math.cosh(u));
    if (w < 1e-300) return 0;
    // 1 − |x| without cancellation, so nodes reach the ends.
    const dist = 1 / (Math.exp(Math.abs(u)) * Math.cosh(u));
    const xp = x >= 0 ? c + h * (1 - dist) : c - h * (1 - dist);
    return w * f(Math.min(b, Math.max(a, xp)));
  };
  sum = term(0);
  for (let k = 1; k * step <= 4; k++) sum += term(k * step) + term(-k * step);
  let est = sum * step * h;
  for (let level = 0; level < 10; level++) {
    step *= 0.5;
    for (let k = 1; k * step <= 4; k += 2) sum += term(k * step) + term(-k * step);
    prev = est;
    est = sum * step * h;
    if (Math.abs(est - prev) <= 1e-15 * Math.abs(est) + 1e-300) break;
  }
  return est;
}

/** |ball(origin, r) ∩ [lo, hi]| by slices. */
export function sliceVolume(r: number, lo: readonly number[], hi: readonly number[]): number {
  const z0 = Math.max(lo[2], -r);
  const z1 = Math.min(hi[2], r);
  if (!(z0 < z1)) return 0;
  const area = (z: number) => {
    const rho2 = r * r - z * z;
    if (!(rho2 > 0)) return 0;
    const rho = Math.sqrt(rho2);
    return (
      quadrant(lo[0], lo[1], rho) -
      quadrant(hi[0], lo[1], rho) -
      quadrant(lo[0], hi[1], rho) +
      quadrant(hi[0], hi[1], rho)
    );
  };
  const cuts = [z0, z1, 0];
  for (const x of [lo[0], hi[0]]) {
    for (const y of [lo[1], hi[1]]) {
      for (const d2 of [x * x, y * y, x * x + y * y]) {
        if (d2 < r * r) {
          const z = Math.sqrt(r * r - d2);
          cuts.push(z, -z);
        }
      }
    }
  }
  const pts = cuts.filter((z) => z >= z0 && z <= z1).sort((p, q) => p - q);
  let v = 0;
  for (let i = 0; i + 1 < pts.length; i++) {
    if (pts[i + 1] > pts[i]) v += tanhSinh(area, pts[i], pts[i + 1]);
  }
  return v;
}

/**
 * The oracle's own error bound for radius r (unit³): the cross-section's inclusion–exclusion
 * cancels terms up to the disc's area in doubles, about 1e-15·r² per slice, over a height 2r;
 * the sphere's centre in the box's frame is rounded by about 1e-15 of the coordinates'
 * magnitude m, moving the volume by at most the ball's cross-section times that.
 */
export function sliceOracleError(r: number, m: number): number {
  return 2e-14 * r * r * r + 4 * Math.PI * r * r * 1e-15 * m;
}

/** |sphere ∩ box| at world poses (sphere radius r at `sphere`, box of half extents h at `box`). */
export function sphereBoxSlices(
  r: number,
  sphere: Isometry,
  h: { x: number; y: number; z: number },
  box: Isometry,
): number {
  const q = box.rotation;
  const n = Math.hypot(q.x, q.y, q.z, q.w);
  const [x, y, z, w] = [q.x / n, q.y / n, q.z / n, q.w / n];
  const R = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  const d = [
    sphere.translation.x - box.translation.x,
    sphere.translation.y - box.translation.y,
    sphere.translation.z - box.translation.z,
  ];
  const p = [0, 1, 2].map((i) => R[0][i] * d[0] + R[1][i] * d[1] + R[2][i] * d[2]);
  const he = [h.x, h.y, h.z];
  return sliceVolume(
    r,
    p.map((pi, i) => -he[i] - pi),
    p.map((pi, i) => he[i] - pi),
  );
}
