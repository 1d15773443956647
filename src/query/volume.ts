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
import { hypot3 } from "../math/scalar.js";
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
 * The exact intersection of ball (c1, r1) and ball (c2, r2), written to `out` (allocation
 * free); see {@link sphereSphereIntersection}.
 * @param out receives volume, surface area and IoU.
 * @param fieldA prefix naming the first ball in error messages (`a.radius`, …); @param fieldB the second's.
 * @throws CollideError (`invalid_value`, field `<prefix>.center` or `<prefix>.radius`) when a
 * centre has a non-finite coordinate or a radius is not a finite number > 0.
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
  const dist = hypot3(c2.x - c1.x, c2.y - c1.y, c2.z - c1.z);
  if (dist >= r1 + r2) {
    out.volume = 0;
    out.surfaceArea = 0;
    out.iou = 0;
    return out;
  }
  // Work in units of the larger radius, rescaled by a power of two (exactly, so the results
  // are those of the plain formulas) so that r³ neither underflows nor overflows and the IoU
  // stays a finite ratio for any radii.
  const exponent = Math.floor(Math.log2(Math.max(r1, r2)));
  const unit = 2 ** Math.max(-RESCALE_MAX_EXPONENT, Math.min(RESCALE_MAX_EXPONENT, exponent));
  const a = r1 / unit;
  const b = r2 / unit;
  const d = dist / unit;
  const v1 = sphereVolume(a);
  const v2 = sphereVolume(b);
  if (d <= Math.abs(a - b)) {
    const small = Math.min(a, b);
    const volume = Math.min(v1, v2);
    // Back to the input's unit one power of two at a time (exact): unit³ alone overflows for
    // radii above about 1e102 whose intersection (a smaller ball) is finite.
    out.volume = volume * unit * unit * unit;
    out.surfaceArea = 4 * Math.PI * small * small * unit * unit;
    out.iou = volume / Math.max(v1, v2);
    return out;
  }
  // Here |a − b| < d < a + b, so d > 0 and every factor below is positive; the ratios lie in
  // (0, 1) and stay finite even for a subnormal d.
  const gap = a + b - d;
  const h1 = Math.min(2 * a, gap * ((b - a + d) / (2 * d)));
  const h2 = Math.min(2 * b, gap * ((a - b + d) / (2 * d)));
  const volume = Math.min(sphericalCapVolume(a, h1) + sphericalCapVolume(b, h2), v1, v2);
  out.volume = volume * unit * unit * unit;
  out.surfaceArea = (sphericalCapArea(a, h1) + sphericalCapArea(b, h2)) * unit * unit;
  out.iou = volume / (v1 + v2 - volume);
  return out;
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
 * non-finite centre or a radius that is not a finite number > 0. The volume (the area) is
 * `Infinity` when it overflows a double — an intersection wider than about 2.6e102 (1e154) —
 * while the IoU stays the finite ratio.
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
