/**
 * Cylinder–cylinder with parallel axes in closed form (issue 16, must-have 1); crossing axes go to
 * the general narrow phase (convex-convex.ts: GJK/EPA with the normal refined).
 *
 * With B's axis parallel to A's (either sense), both are prisms over discs along A's y: A is
 * {ρ ≤ rA, |y| ≤ hA}, B is {|(x, z) − c_xz| ≤ rB, |y − c_y| ≤ hB} for B's centre c in A's frame,
 * whatever B's rotation about its axis. Their Minkowski difference B − A, centred at c, is the
 * cylinder of radius R = rA + rB and half height H = hA + hB (a disc plus a disc is a disc, an
 * interval plus an interval an interval), so the signed distance of the pair is the signed
 * distance of the origin to that cylinder: outside, the distance to its nearest boundary point
 * (Ericson 2005, §5.1); inside, the depth is the lesser of R − ρ (sides, normal radial) and
 * H − |c_y| (caps, normal ±y; the cap on a tie). The witnesses face each other along the normal:
 * across the sides at the middle of the overlap of the two height intervals, across the caps at
 * the middle of the overlap of the two discs along the line of their centres — so swapping A and
 * B swaps the points (up to the rounding of the inverse pose). Exact up to the rounding of a
 * few operations; A's frame, no allocation.
 */

import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { hypotIo, mathHypot2Io } from "../math/scalar.js";
import * as vec3 from "../math/vec3.js";
import type { Cylinder } from "../shapes/cylinder.js";
import { canonicalOrder } from "./canonical-order.js";
import type { Contact, DistanceResult } from "./contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";

/**
 * |B's axis × A's axis| (the sine of the angle between the axes) under which they are parallel:
 * the closed form then errs by at most this times the cylinders' size, below the rounding of
 * the pair's coordinates that the query's accuracy is stated in (docs/FORMATS.md).
 */
export const CYLINDER_PARALLEL_SINE = 2 ** -50;

/** True when B's axis (its local y rotated by `bInA`) is parallel to A's y within the tolerance. */
export function cylinderAxesParallel(bInA: Isometry): boolean {
  const q = bInA.rotation;
  // The rotated y axis: (2(xy − wz), 1 − 2(x² + z²), 2(yz + wx)); its x and z components.
  const ux = 2 * (q.x * q.y - q.w * q.z);
  const uz = 2 * (q.y * q.z + q.w * q.x);
  hypotIo[0] = ux;
  hypotIo[1] = uz;
  mathHypot2Io();
  return hypotIo[0] <= CYLINDER_PARALLEL_SINE;
}

/** Relative difference under which two choices of normal are a tie, broken by a fixed rule. */
const TIE_RELATIVE = 2 ** -40;

// The answer of `solveParallel`: signed distance, normal A → B, witnesses (A's frame).
/**
 * [0] pd: a Float64Array slot, not a module-level `let` (a context slot, where V8 boxes every
 * double stored).
 */
const pdIo = new Float64Array(1);
const pn = vec3.create(0, 1, 0);
const pa = vec3.create();
const pb = vec3.create();

/**
 * Solves the parallel pair (cylinderAxesParallel(bInA) must hold) into pd, pn, pa, pb.
 */
function solveParallel(a: Cylinder, b: Cylinder, bInA: Isometry): void {
  const c = bInA.translation;
  const rA = a.radius;
  const rB = b.radius;
  const hA = a.halfHeight;
  const hB = b.halfHeight;
  const R = rA + rB;
  const H = hA + hB;
  // No double crosses a call (V8 boxes one passed to or returned by a call it does not inline).
  hypotIo[0] = c.x;
  hypotIo[1] = c.z;
  mathHypot2Io();
  const rho = hypotIo[0];
  const y = c.y;
  const ay = Math.abs(y);
  // Radial unit direction toward B's axis; +x when the axes coincide to TIE_RELATIVE of R (a tie:
  // any radial direction is as deep, and rounding would otherwise pick it differently in the two
  // orders). Likewise +y for centres level to TIE_RELATIVE of H.
  const radial = rho > TIE_RELATIVE * R;
  const ux = radial ? c.x / rho : 1;
  const uz = radial ? c.z / rho : 0;
  const sy = y < -TIE_RELATIVE * H ? -1 : 1;
  // Middle of the overlap of the height intervals [−hA, hA] and [y − hB, y + hB] (when they meet).
  const yMid = 0.5 * (Math.max(-hA, y - hB) + Math.min(hA, y + hB));
  // Middle of the overlap of the discs along u: [max(−rA, ρ − rB), min(rA, ρ + rB)].
  const tMid = rho > 0 ? 0.5 * (Math.max(-rA, rho - rB) + Math.min(rA, rho + rB)) : 0;
  let side: boolean;
  if (rho > R || ay > H) {
    // Apart: the nearest point of the Minkowski cylinder's boundary to c.
    const dr = Math.max(rho - R, 0);
    const dy = Math.max(ay - H, 0);
    hypotIo[0] = dr;
    hypotIo[1] = dy;
    mathHypot2Io();
    const pd = hypotIo[0];
    pdIo[0] = pd;
    pn.x = (dr / pd) * ux;
    pn.y = (dy / pd) * sy;
    pn.z = (dr / pd) * uz;
    side = rho > R;
    const capApart = ay > H;
    if (side) {
      pa.x = rA * ux;
      pa.y = 0;
      pa.z = rA * uz;
      pb.x = c.x - rB * ux;
      pb.y = 0;
      pb.z = c.z - rB * uz;
    } else {
      pa.x = tMid * ux;
      pa.y = 0;
      pa.z = tMid * uz;
      pb.x = tMid * ux;
      pb.y = 0;
      pb.z = tMid * uz;
    }
    if (capApart) {
      pa.y = sy * hA;
      pb.y = y - sy * hB;
    } else {
      pa.y = yMid;
      pb.y = yMid;
    }
    return;
  }
  const sideDepth = R - rho;
  const capDepth = H - ay;
  // The cap on a tie (to rounding).
  side = sideDepth < capDepth - TIE_RELATIVE * (R + H);
  if (side) {
    pdIo[0] = 0 - sideDepth;
    pn.x = ux;
    pn.y = 0;
    pn.z = uz;
    pa.x = rA * ux;
    pa.y = yMid;
    pa.z = rA * uz;
    pb.x = c.x - rB * ux;
    pb.y = yMid;
    pb.z = c.z - rB * uz;
  } else {
    pdIo[0] = 0 - capDepth;
    pn.x = 0;
    pn.y = sy;
    pn.z = 0;
    pa.x = tMid * ux;
    pa.y = sy * hA;
    pa.z = tMid * uz;
    pb.x = tMid * ux;
    pb.y = y - sy * hB;
    pb.z = tMid * uz;
  }
}

const aInB: Isometry = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };

/**
 * {@link solveParallel} in the pair's canonical order (convex-convex.ts, `canonicalOrder`), the
 * answer flipped into A's frame when that is (B, A): ties (coincident axes, where every radial
 * direction is a normal; a cap and a side equally deep) are then broken alike in both orders
 * (two equal cylinders at one pose have no order to break them by: +x).
 */
function solveCanonical(a: Cylinder, b: Cylinder, bInA: Isometry): void {
  let order = canonicalOrder(bInA);
  // The identity relative pose: decided by the shapes (the smaller radius, then half height, first).
  if (order === 0) order = b.radius - a.radius || b.halfHeight - a.halfHeight || 1;
  if (order > 0) {
    solveParallel(a, b, bInA);
    return;
  }
  iso.invert(aInB, bInA);
  solveParallel(b, a, aInB);
  quat.rotate(pn, bInA.rotation, pn);
  vec3.negate(pn, pn);
  // pa, pb are B's and A's points in B's frame: swap them into A's.
  iso.transformPoint(pa, bInA, pa);
  iso.transformPoint(pb, bInA, pb);
  const x = pa.x;
  const y = pa.y;
  const z = pa.z;
  vec3.copy(pa, pb);
  vec3.set(pb, x, y, z);
}

/** True when cylinders A and B (B at `bInA`) overlap or touch. */
export function intersectsCylinderCylinder(a: Cylinder, b: Cylinder, bInA: Isometry): boolean {
  if (!cylinderAxesParallel(bInA)) return intersectsConvexConvex(a, b, bInA);
  const c = bInA.translation;
  hypotIo[0] = c.x;
  hypotIo[1] = c.z;
  mathHypot2Io();
  return hypotIo[0] <= a.radius + b.radius && Math.abs(c.y) <= a.halfHeight + b.halfHeight;
}

/**
 * Contact of cylinders A and B (B at `bInA`, A's frame) within `prediction`: the closed form for
 * parallel axes, else the general narrow phase. Returns false when the gap exceeds `prediction`.
 */
export function contactCylinderCylinder(
  out: Contact,
  a: Cylinder,
  b: Cylinder,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (!cylinderAxesParallel(bInA)) return contactConvexConvex(out, a, b, bInA, prediction);
  solveCanonical(a, b, bInA);
  const maxGap = Number.isNaN(prediction) ? 0 : Math.max(prediction, 0);
  if (pdIo[0] > maxGap) return false;
  out.distance = pdIo[0];
  vec3.copy(out.normal, pn);
  vec3.copy(out.pointA, pa);
  vec3.copy(out.pointB, pb);
  return true;
}

/**
 * Distance of cylinders A and B (B at `bInA`): the closed form for parallel axes (0 with the
 * deepest points when they overlap), else the general narrow phase.
 */
export function distanceCylinderCylinder(
  out: DistanceResult,
  a: Cylinder,
  b: Cylinder,
  bInA: Isometry,
): DistanceResult {
  if (!cylinderAxesParallel(bInA)) return distanceConvexConvex(out, a, b, bInA);
  solveCanonical(a, b, bInA);
  out.distance = Math.max(pdIo[0], 0);
  vec3.copy(out.pointA, pa);
  vec3.copy(out.pointB, pb);
  return out;
}
