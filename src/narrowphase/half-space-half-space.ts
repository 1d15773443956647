/**
 * Half-space against half-space, in every query. In A's frame A is {p : n_A·p ≤ d_A} and B,
 * moved by `bInA`, is {p : n_B·p ≤ d_B}.
 *
 * - Normals exactly opposite (n_B = −n_A): the two solids face each other across a slab; the
 *   signed gap is g = −d_B − d_A (negative: they overlap by a slab of thickness −g), the normal
 *   from A toward B is n_A, and the witness points are the points of each boundary plane
 *   nearest A's origin. Every query is finite and exact.
 * - Otherwise the boundary planes cross (or are parallel with the same orientation), so the
 *   two solids share an unbounded region: they intersect, their distance is 0 with both witness
 *   points at a point common to both solids (on the line where the planes cross, nearest A's
 *   origin, or on the inner plane when they are parallel), and no finite translation separates
 *   them: `contact` and `manifold` report the signed distance
 *   {@link UNBOUNDED_OVERLAP_DISTANCE} (the most negative double) at that point, with the
 *   normal (n_A − n_B)/|n_A − n_B| (the bisector of A's outward normal and B's inward one, so
 *   that swapping A and B negates it); for identical normals (nested solids) n_A when A's
 *   boundary is the inner one (d_A ≤ d_B), −n_A otherwise (docs/FORMATS.md).
 */
import { UNBOUNDED_OVERLAP_DISTANCE } from "../constants.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { productError, sumError } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { HalfSpace } from "../shapes/half-space.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { makeContact, singleContactManifold } from "./contact.js";

const nB = vec3.create();
const common = vec3.create();
const commonBest = vec3.create();
const lineU = vec3.create();
const lineStep = vec3.create();

/** Loads B's normal in A's frame into `nB`; returns B's offset in A's frame. */
function loadB(b: HalfSpace, bInA: Isometry): number {
  quat.rotate(nB, bInA.rotation, b.normal);
  return b.offset + vec3.dot(nB, bInA.translation);
}

function opposite(nA: Vec3): boolean {
  return nB.x === -nA.x && nB.y === -nA.y && nB.z === -nA.z;
}

/** Newton steps on the two plane equations after the first solve in {@link commonPoint}. */
const COMMON_POINT_STEPS = 3;

/**
 * Largest residual of the two plane equations, in ulps of the point's and offsets' magnitude, at
 * which {@link commonPoint}'s Newton point is kept (it reaches about 4 where the line is
 * representable).
 */
const COMMON_POINT_ULPS = 64;

/**
 * sin² of the normals' angle at or below which two half-spaces are taken as parallel: (16ε)²,
 * the rounding of unit normals (and of B's normal rotated into A's frame). Normals one ulp apart
 * cross on a line ~1e22 away, whose point meets both plane equations only to its own rounding
 * (attack 33b in the order (B, A), which session 44's same-type order made both orders take).
 */
const PARALLEL_SIN2 = (16 * Number.EPSILON) ** 2;

/** [0] n·p − d of the last {@link planeResidual}. */
const residualIo = new Float64Array(1);

/**
 * residualIo[0] = n·p − d, formed exactly (Dot2: Dekker's products, Knuth's TwoSum) and rounded
 * once, so it is accurate to its own size however far p lies from the origin (Ogita, Rump and
 * Oishi 2005); overflowing splits give the plain rounded value.
 */
function planeResidual(n: Vec3, d: number, p: Vec3): void {
  const px = n.x * p.x;
  const py = n.y * p.y;
  const pz = n.z * p.z;
  const e = productError(n.x, p.x, px) + productError(n.y, p.y, py) + productError(n.z, p.z, pz);
  const s1 = px + py;
  const s2 = s1 + pz;
  const s3 = s2 - d;
  const err = sumError(px, py, s1) + sumError(s1, pz, s2) + sumError(s2, -d, s3);
  const r = s3 + (err + e);
  residualIo[0] = r - r === 0 ? r : px + py + pz - d;
}

/**
 * common = a point in both solids, on both boundary planes when they cross: the point of their
 * line nearest A's origin, in span(n_A, n_B). The planes' line is ill-conditioned when they are
 * nearly parallel: a point solved at once from the 2×2 system of the normals is off the planes by
 * its magnitude's rounding over sin θ (θ the normals' angle; 1.1e-7 at 5.6e6 for θ = 0.5°, seed
 * 77). So it is solved in the frame of A's plane point q = d_A·n_A, then corrected by Newton
 * steps: the residuals r = n·p − d, formed exactly ({@link planeResidual}), and the step
 * x = ((r_B n_A − r_A n_B) × u)/|u|² (u = n_A × n_B: n_A·x = −r_A, n_B·x = −r_B), each step
 * contracting the residuals by the rounding of u relative to sin θ, until they stop falling: the
 * point meets both plane equations to the rounding of its own coordinates. For parallel planes
 * (u = 0, a point beyond the doubles, or normals so nearly parallel that the steps leave a
 * residual beyond `COMMON_POINT_ULPS` of the point) the point of the inner plane nearest A's
 * origin.
 */
function commonPoint(nA: Vec3, dA: number, dB: number): Vec3 {
  vec3.cross(lineU, nA, nB);
  const s2 = vec3.dot(lineU, lineU);
  if (s2 > PARALLEL_SIN2) {
    vec3.scale(common, nA, dA);
    let best = Number.POSITIVE_INFINITY;
    for (let step = 0; step <= COMMON_POINT_STEPS; step++) {
      planeResidual(nA, dA, common);
      const rA = residualIo[0];
      planeResidual(nB, dB, common);
      const rB = residualIo[0];
      const worst = Math.max(Math.abs(rA), Math.abs(rB));
      if (!(worst < best)) break;
      best = worst;
      vec3.copy(commonBest, common);
      if (worst === 0) break;
      vec3.scale(lineStep, nA, rB);
      vec3.addScaled(lineStep, lineStep, nB, -rA);
      vec3.cross(lineStep, lineStep, lineU);
      common.x += lineStep.x / s2;
      common.y += lineStep.y / s2;
      common.z += lineStep.z / s2;
    }
    // Kept when it meets both plane equations to the rounding of its own coordinates; normals
    // parallel but for their rounding leave the line beyond what the steps can reach (a point
    // 7.4e5 outside B at 3.2e5 from the origin, normals one ulp apart; attack 33b): such planes
    // are taken as parallel.
    const m = Math.max(
      Math.abs(commonBest.x),
      Math.abs(commonBest.y),
      Math.abs(commonBest.z),
      Math.abs(dA),
      Math.abs(dB),
    );
    if (best <= COMMON_POINT_ULPS * Number.EPSILON * m) return vec3.copy(common, commonBest);
  }
  const c = vec3.dot(nA, nB);
  return vec3.scale(common, nA, Math.min(dA, c > 0 ? dB : -dB));
}

/** True when two half-spaces share a point: always, unless they face each other across a gap. */
export function intersectsHalfSpaceHalfSpace(a: HalfSpace, b: HalfSpace, bInA: Isometry): boolean {
  const dB = loadB(b, bInA);
  if (!opposite(a.normal)) return true;
  return a.offset >= -dB;
}

/** Contact of two half-spaces within `prediction` (see the module docs), A's frame. */
export function contactHalfSpaceHalfSpace(
  out: Contact,
  a: HalfSpace,
  b: HalfSpace,
  bInA: Isometry,
  prediction: number,
): boolean {
  const dB = loadB(b, bInA);
  const nA = a.normal;
  vec3.copy(out.normal, nA);
  if (opposite(nA)) {
    const gap = -dB - a.offset;
    if (gap > prediction) return false;
    out.distance = gap;
    vec3.scale(out.pointA, nA, a.offset);
    vec3.scale(out.pointB, nA, -dB);
    return true;
  }
  out.distance = UNBOUNDED_OVERLAP_DISTANCE;
  const n = out.normal;
  vec3.sub(n, nA, nB);
  const len = vec3.length(n);
  // The difference of two unit vectors that are not exactly equal has length ≥ ~1e-16, so the
  // division stays finite; equal normals (nested solids) take the inner one's orientation.
  if (len > 0) vec3.scale(n, n, 1 / len);
  else vec3.scale(n, nA, a.offset <= dB ? 1 : -1);
  commonPoint(nA, a.offset, dB);
  vec3.copy(out.pointA, common);
  vec3.copy(out.pointB, common);
  return true;
}

const contact: Contact = makeContact();

/** Distance (≥ 0) and witness points of two half-spaces (see the module docs), A's frame. */
export function distanceHalfSpaceHalfSpace(
  out: DistanceResult,
  a: HalfSpace,
  b: HalfSpace,
  bInA: Isometry,
): DistanceResult {
  contactHalfSpaceHalfSpace(contact, a, b, bInA, Infinity);
  out.distance = Math.max(0, contact.distance);
  vec3.copy(out.pointA, contact.pointA);
  vec3.copy(out.pointB, contact.pointB);
  return out;
}

/** The one-point manifold of two half-spaces' contact within `prediction`, A's frame. */
export function manifoldHalfSpaceHalfSpace(
  out: ContactManifold,
  a: HalfSpace,
  b: HalfSpace,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (!contactHalfSpaceHalfSpace(contact, a, b, bInA, prediction)) return false;
  singleContactManifold(out, contact);
  return true;
}
