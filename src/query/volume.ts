/**
 * Exact volumes of sphere intersections: the lens where two balls overlap, its bounding
 * surface, and the intersection over union (IoU) used to score overlap.
 *
 * Two balls whose centres are d apart, with |r1 − r2| < d < r1 + r2, meet in a lens: the plane
 * of their intersection circle cuts a spherical cap off each, of heights
 *
 *   h1 = (r2 − r1 + d)(r2 + r1 − d) / (2d),   h2 = (r1 − r2 + d)(r1 + r2 − d) / (2d),
 *
 * (cap i is the part of ball i inside the other ball). Written as products of positive factors
 * these lose no precision near either tangency, unlike r − (d² + r² − r'²)/(2d). A cap of
 * height h on a sphere of radius r has volume πh²(3r − h)/3 and curved area 2πrh (Archimedes;
 * Weisstein, "Spherical Cap", MathWorld). The lens's volume is the sum of the two caps' and its
 * surface the two curved cap surfaces. When one ball holds the other (d ≤ |r1 − r2|) the
 * intersection is the smaller ball; when they are apart or touch externally (d ≥ r1 + r2) it
 * is empty. Both limits are reached continuously by the lens formulas.
 */

import { invalidValue } from "../errors.js";
import { hypot3, sumError } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";

/** The intersection of two balls: volume (unit³), bounding surface area (unit²), IoU in [0, 1]. */
export interface SphereSphereIntersection {
  /** Volume of the intersection region, in the cube of the input unit. */
  volume: number;
  /** Area of the surface bounding the intersection region, in the square of the input unit. */
  surfaceArea: number;
  /** volume / (V1 + V2 − volume): 0 for disjoint balls, 1 for equal ones. Unitless. */
  iou: number;
}

/** Volume of a ball of radius r: 4πr³/3 (unit³). */
export function sphereVolume(radius: number): number {
  return (4 / 3) * Math.PI * radius * radius * radius;
}

/**
 * Volume of a spherical cap of height h (0 ≤ h ≤ 2r) cut from a ball of radius r:
 * πh²(3r − h)/3 (unit³; Weisstein, "Spherical Cap").
 */
export function sphericalCapVolume(radius: number, height: number): number {
  return (Math.PI * height * height * (3 * radius - height)) / 3;
}

/** Curved surface area of a spherical cap of height h on a sphere of radius r: 2πrh (unit²). */
export function sphericalCapArea(radius: number, height: number): number {
  return 2 * Math.PI * radius * height;
}

/** Largest binary exponent of the unit in which the intersection is computed. */
const RESCALE_MAX_EXPONENT = 1000;
/** The unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;
/** Below this ratio of the radii the larger ball's cap is taken through ratios (no overflow). */
const RATIO_DIRECT = 2 ** 60;

function checkSphere(center: Vec3, radius: number, field: string): void {
  if (
    center == null ||
    !Number.isFinite(center.x) ||
    !Number.isFinite(center.y) ||
    !Number.isFinite(center.z)
  ) {
    invalidValue(`${field}.center`, center, "must be a point with finite coordinates");
  }
  if (typeof radius !== "number" || !Number.isFinite(radius) || !(radius > 0)) {
    invalidValue(`${field}.radius`, radius, "must be a finite number > 0");
  }
}

/**
 * The intersection of balls of radii r1, r2 (> 0) whose centres lie `dist` (≥ 0) apart, written
 * to `out`. Symmetric in the two balls (taken as the larger, radius R, and the smaller, r).
 * Decided and measured through s = R − dist held exactly as a pair (Knuth's TwoSum), so that
 * neither test rounds at any ratio of the radii: contained when s ≥ r, apart when s ≤ −r
 * (R + r − dist, rounded, had called a unit ball at the surface of one of 1e104 contained). Then
 * in units of the smaller radius, a power of two (exact): the contained ball's volume 4πr³/3
 * there, and the lens from the gap g = r + s (cancellation-free: s is exact) and the caps'
 * heights h_R = g·q, h_r = g − h_R, q = (r − s)/(2·dist) ∈ (0, ½] — the forms of the module doc
 * rewritten with s —, the larger ball's cap πh²(3R − h)/3 as (π/3)·h·(3·(hR) − h²) with hR
 * taken through R/dist when R/r passes 2^60 (R in units of r may overflow). A unit ball inside
 * one of 1e104..1e300 had given 0: in units of the larger radius its volume underflowed.
 */
function intersectionAt(out: SphereSphereIntersection, dist: number, r1: number, r2: number): void {
  const big = Math.max(r1, r2);
  const small = Math.min(r1, r2);
  const sHi = big - dist;
  const sLo = sumError(big, -dist, sHi);
  // Apart or touching externally: r + s ≤ 0 (sHi rounds monotonically, so sHi < −r means it).
  if (sHi < -small || (sHi === -small && sLo <= 0)) {
    out.volume = 0;
    out.surfaceArea = 0;
    out.iou = 0;
    return;
  }
  const exponent = Math.floor(Math.log2(small));
  const unit = 2 ** Math.max(-RESCALE_MAX_EXPONENT, Math.min(RESCALE_MAX_EXPONENT, exponent));
  const b = small / unit;
  const vSmall = sphereVolume(b);
  if (sHi > small || (sHi === small && sLo >= 0)) {
    // The smaller ball lies inside the larger (s ≥ r). Back to the input's unit one power of
    // two at a time (exact): unit³ alone overflows for radii above about 1e102.
    out.volume = vSmall * unit * unit * unit;
    out.surfaceArea = 4 * Math.PI * b * b * unit * unit;
    const ratio = small / big;
    out.iou = ratio * ratio * ratio;
    return;
  }
  // A lens: −r < s < r, so dist > R − r ≥ 0 and every factor below is positive.
  const g = (small + sHi + sLo) / unit;
  const q = ((small - sHi - sLo) / dist) * 0.5;
  const hb = g * q;
  const hs = g - hb;
  const a = big / unit;
  const hbA = a < RATIO_DIRECT ? hb * a : g * ((small - sHi - sLo) / unit) * (big / dist) * 0.5;
  const capBig = (Math.PI / 3) * hb * (3 * hbA - hb * hb);
  const capSmall = (Math.PI / 3) * hs * hs * (3 * b - hs);
  const volume = Math.min(capBig + capSmall, vSmall);
  out.volume = volume * unit * unit * unit;
  out.surfaceArea = 2 * Math.PI * (hbA + b * hs) * unit * unit;
  out.iou = volume / (vSmall + sphereVolume(a) - volume);
}

/**
 * The exact intersection of ball (c1, r1) and ball (c2, r2), written to `out` (allocation
 * free); see {@link sphereSphereIntersection}.
 * @param out receives volume, surface area and IoU.
 * @param fieldA prefix naming the first ball in error messages (`a.radius`, …); @param fieldB the second's.
 * @throws CollideError (`invalid_value`, field `<prefix>.center` or `<prefix>.radius`) when a
 * centre has a non-finite coordinate or a radius is not a finite number > 0; field
 * `<prefix>.radius` of the smaller ball when the volume or the area overflows a double.
 */
export function sphereSphereIntersectionInto(
  out: SphereSphereIntersection,
  c1: Vec3,
  r1: number,
  c2: Vec3,
  r2: number,
  fieldA = "a",
  fieldB = "b",
): SphereSphereIntersection {
  checkSphere(c1, r1, fieldA);
  checkSphere(c2, r2, fieldB);
  intersectionAt(out, hypot3(c2.x - c1.x, c2.y - c1.y, c2.z - c1.z), r1, r2);
  // The lens lies in the smaller ball: an answer past the largest double is refused naming its
  // radius, as the `volume` command refuses it (it had been Infinity here, silently).
  if (!(out.volume < Infinity) || !(out.surfaceArea < Infinity)) {
    const [field, radius] = r2 < r1 ? [`${fieldB}.radius`, r2] : [`${fieldA}.radius`, r1];
    invalidValue(
      field,
      radius,
      "is too large: the intersection lies in this ball, whose volume (4/3)πr³ overflows a double (above about 1.8e308); scale the scene down",
    );
  }
  return out;
}

const boundScratch: SphereSphereIntersection = { volume: 0, surfaceArea: 0, iou: 0 };

/**
 * A bound on the error of `volume`, the intersection volume of balls (c1, r1) and (c2, r2) that
 * {@link sphereSphereIntersection} gave, from the one input it rounds: the centres' distance d,
 * within δ = 4 ulps of d of the true one (each coordinate difference within an ulp, the root of
 * their squares within two; δ = 0 when the differences are exact and at most one is not 0). The
 * volume falls as d grows, so the true one lies between the volumes at d − δ and d + δ; the
 * bound is their larger distance from `volume`, plus the formula's own rounding (16 ulps of the
 * volume) — or 0 when that spread is within the rounding, as for the other exact pairs. A unit
 * ball centred on the surface of one of 1e104 is half inside, but d is known only to ~1e88
 * there: the bound then says so (about the small ball's volume) instead of 0.
 */
export function sphereSphereVolumeErrorBound(
  c1: Vec3,
  r1: number,
  c2: Vec3,
  r2: number,
  volume: number,
): number {
  const dx = c2.x - c1.x;
  const dy = c2.y - c1.y;
  const dz = c2.z - c1.z;
  const d = hypot3(dx, dy, dz);
  const exact =
    sumError(c2.x, -c1.x, dx) === 0 &&
    sumError(c2.y, -c1.y, dy) === 0 &&
    sumError(c2.z, -c1.z, dz) === 0 &&
    (dx === 0 ? 1 : 0) + (dy === 0 ? 1 : 0) + (dz === 0 ? 1 : 0) >= 2;
  if (exact) return 0;
  const delta = 4 * UNIT_ROUNDOFF * d;
  intersectionAt(boundScratch, Math.max(0, d - delta), r1, r2);
  const near = boundScratch.volume;
  intersectionAt(boundScratch, d + delta, r1, r2);
  const far = boundScratch.volume;
  const spread = Math.max(near - volume, volume - far, 0);
  const rounding = 16 * UNIT_ROUNDOFF * volume;
  return spread <= rounding ? 0 : spread + rounding;
}

/**
 * The exact intersection of two balls: the volume of their lens (the sum of the two spherical
 * caps, πh²(3r − h)/3 each), the area of the surface bounding it (the two curved cap surfaces,
 * 2πrh each) and the IoU volume / (V1 + V2 − volume). Disjoint or externally tangent balls
 * (d ≥ r1 + r2) give 0, 0, 0; when one holds the other (d ≤ |r1 − r2|) the result is the
 * smaller ball: its volume, its area 4πr², IoU V_small / V_large. Symmetric in its two balls
 * and continuous at both tangencies; the cap heights are formed as products of positive
 * factors so no cancellation occurs near tangency. Allocates the result; use
 * `sphereSphereIntersectionInto` in hot code.
 * @param c1 centre of the first ball; @param r1 its radius (> 0), in the same unit.
 * @param c2 centre of the second ball; @param r2 its radius (> 0).
 * @param fieldA prefix naming the first ball in error messages; @param fieldB the second's.
 * @throws CollideError (`invalid_value`, field `<prefix>.center` or `<prefix>.radius`) on a
 * non-finite centre or a radius that is not a finite number > 0; naming the smaller ball's
 * radius when the volume (the area) overflows a double — an intersection wider than about
 * 2.6e102 (1e154) — as the `volume` command refuses it.
 */
export function sphereSphereIntersection(
  c1: Vec3,
  r1: number,
  c2: Vec3,
  r2: number,
  fieldA = "a",
  fieldB = "b",
): SphereSphereIntersection {
  return sphereSphereIntersectionInto(
    { volume: 0, surfaceArea: 0, iou: 0 },
    c1,
    r1,
    c2,
    r2,
    fieldA,
    fieldB,
  );
}
