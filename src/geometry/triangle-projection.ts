/**
 * The projection of a point onto a triangle at any scale (the `projectPoint` of triangles and
 * of a mesh's closest triangle; not used by the narrow phase).
 *
 * The corners and the point are multiplied by one power of two k (exact, barring subnormal
 * bits far below the rounding of the answer) so that their largest coordinate is near 1: no
 * square or cross product overflows or underflows at 1e300 or 1e-300. The work is done in a
 * frame at the corner nearest the point. The Voronoi region walk (Ericson 2005, §5.1.5,
 * src/geometry/closest-point.ts) picks the region; in the face region the answer is
 * q = p − d·n with d = (p − o)·n, the point's signed distance to the plane, taken from the
 * unscaled point, so a point 2 above a 1e20 triangle lands 2 below itself, not on a corner's
 * rounding grid. "Inside" (the point on the triangle) is decided by a forward error bound of d
 * relative to the point's own coordinates and its offset from that corner (each term weighted
 * by the normal's component and its rounding), not by the corners' distance from the origin.
 */

import { GJK_ROUNDING_TOLERANCE, TRIANGLE_THIN_RATIO } from "../constants.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { closestPointOnTriangle, triangleThinnerThan } from "./closest-point.js";
import {
  commonExponent,
  EXACT_FAR_RATIO,
  exactDistance,
  exactFarActive,
  exactNearestOnTriangle,
  exactPathFor,
  roundNearest,
  toScaledVec,
} from "./exact-nearest.js";
import { exactRange } from "./exact-predicates.js";
import { exactOffset, farGridCentre } from "./far-centre.js";

/** The answer {@link projectOntoTriangle} writes (the shapes' `PointProjection`). */
export interface TriangleProjection {
  point: Vec3;
  distance: number;
  inside: boolean;
}

const EPS = Number.EPSILON;
const sP = vec3.create();
const sO = vec3.create();
const sU = vec3.create();
const sV = vec3.create();
const sW = vec3.create();
const sL = vec3.create();
const ZERO = vec3.create();
const wts = new Float64Array(3);

function finite3(v: Vec3): boolean {
  return Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);
}

function maxAbs3(v: Vec3): number {
  return Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
}

/** The power of two k (within [2^-1022, 2^1022], exact by multiplication) with m·k near 1. */
function unitScale(m: number): number {
  let k = 1;
  if (m > 1) {
    while (m * k > 2 ** 64 && k >= 2 ** -958) k *= 2 ** -64;
    while (m * k > 1 && k > 2 ** -1022) k *= 0.5;
  } else if (m > 0) {
    while (m * k < 2 ** -64 && k <= 2 ** 958) k *= 2 ** 64;
    while (m * k < 0.5 && k < 2 ** 1022) k *= 2;
  }
  return k;
}

const rU = vec3.create();
const rV = vec3.create();
const rW = vec3.create();

/**
 * sL = the region walk's closest point (k units) of the local triangle (0, sU, sV) to sW, with
 * its weights in `wts`. The walk runs in units of the triangle's size (a second power of two r),
 * so its squares neither underflow for a point far from a small triangle nor overflow; a point
 * more than 2^500 sizes away first loses its component along the normal (the Voronoi regions
 * are prisms along it), then, still that far in the plane, is brought to 2^500 sizes along its
 * offset (the closest point is then off by at most 2^-500 of the distance).
 */
function regionWalk(): void {
  const r = unitScale(Math.max(maxAbs3(sU), maxAbs3(sV)));
  vec3.scale(rU, sU, r);
  vec3.scale(rV, sV, r);
  const far = 2 ** 500;
  const mw = maxAbs3(sW);
  if (mw * r <= far) vec3.scale(rW, sW, r);
  else {
    const nx = rU.y * rV.z - rU.z * rV.y;
    const ny = rU.z * rV.x - rU.x * rV.z;
    const nz = rU.x * rV.y - rU.y * rV.x;
    const len = norm3(nx, ny, nz);
    const q = len > 0 ? unitScale(mw) : 1;
    // The offset at unit scale, its normal component removed, then back to triangle units.
    let wx = sW.x * q;
    let wy = sW.y * q;
    let wz = sW.z * q;
    if (len > 0) {
      // By the unit normal (exact for an axis plane: the normal component goes to exactly 0).
      const ux = nx / len;
      const uy = ny / len;
      const uz = nz / len;
      const d = wx * ux + wy * uy + wz * uz;
      wx -= d * ux;
      wy -= d * uy;
      wz -= d * uz;
    }
    const mi = Math.max(Math.abs(wx), Math.abs(wy), Math.abs(wz));
    let t = r / q;
    if (mi * t > far) t = unitScale(mi) * far;
    rW.x = wx * t;
    rW.y = wy * t;
    rW.z = wz * t;
  }
  closestPointOnTriangle(sL, rW, ZERO, rU, rV, wts);
  vec3.scale(sL, sL, 1 / r);
}

/** |x, y, z| without overflow or underflow of the squares. */
function norm3(x: number, y: number, z: number): number {
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (!(m > 0) || m === Number.POSITIVE_INFINITY) return m;
  const a = x / m;
  const b = y / m;
  const c = z / m;
  return m * Math.sqrt(a * a + b * b + c * c);
}

/**
 * Writes to `out` the point of triangle abc closest to `p` (all in one frame, any finite scale),
 * its distance, and `inside` (p on the triangle up to the rounding bound above; then the point
 * is p and the distance 0). Allocation free.
 */
export function projectOntoTriangle(
  out: TriangleProjection,
  a: Vec3,
  b: Vec3,
  c: Vec3,
  p: Vec3,
): TriangleProjection {
  if (centredTriangle(a, b, c, p)) {
    // Far from the origin for its size (src/geometry/far-centre.ts): the double answer in the
    // frame at the centre, as a posed triangle's; the exact far path on the corners as given.
    projectOntoTriangleDouble(out, cA, cB, cC, cP);
    if (out.inside) vec3.copy(out.point, p);
    else {
      vec3.add(out.point, out.point, cCentre);
      exactWhenFar(out, a, b, c, p);
    }
    return out;
  }
  projectOntoTriangleDouble(out, a, b, c, p);
  if (!out.inside) exactWhenFar(out, a, b, c, p);
  return out;
}

const cA = vec3.create();
const cB = vec3.create();
const cC = vec3.create();
const cP = vec3.create();
const cCentre = vec3.create();
const cLo = vec3.create();
const cHi = vec3.create();

/**
 * True when triangle abc lies far from the origin for its extent and it and p move exactly to
 * the frame at its grid centre (src/geometry/far-centre.ts): then cA, cB, cC, cP hold them there
 * and cCentre the centre.
 */
function centredTriangle(a: Vec3, b: Vec3, c: Vec3, p: Vec3): boolean {
  vec3.min(cLo, a, b);
  vec3.min(cLo, cLo, c);
  vec3.max(cHi, a, b);
  vec3.max(cHi, cHi, c);
  const ext = Math.max(cHi.x - cLo.x, cHi.y - cLo.y, cHi.z - cLo.z);
  return (
    farGridCentre(cCentre, cLo, cHi, ext) &&
    exactOffset(cA, a, cCentre) &&
    exactOffset(cB, b, cCentre) &&
    exactOffset(cC, c, cCentre) &&
    exactOffset(cP, p, cCentre)
  );
}

/**
 * A point farther from the triangle than {@link EXACT_FAR_RATIO} times its extent (or a
 * triangle small for its place, {@link exactPathFor}): the nearest
 * point again in exact rationals (src/geometry/exact-nearest.ts), rounded once — the double
 * walk's parameters drift by ε·distance (an edge's midpoint seen from 1e16 sizes away came out
 * as its corner). The distance is kept unless the exact point's offset gives it without
 * overflow. Allocates (BigInt) only for such far points.
 */
function exactWhenFar(out: TriangleProjection, a: Vec3, b: Vec3, c: Vec3, p: Vec3): void {
  if (!exactFarActive()) return;
  const ext = Math.max(
    Math.abs(b.x - a.x),
    Math.abs(b.y - a.y),
    Math.abs(b.z - a.z),
    Math.abs(c.x - a.x),
    Math.abs(c.y - a.y),
    Math.abs(c.z - a.z),
  );
  const coord = Math.max(maxAbs3(a), maxAbs3(b), maxAbs3(c));
  if (!exactPathFor(out.distance, ext, coord)) return;
  const e = commonExponent([a, b, c, p]);
  const r = exactNearestOnTriangle(
    toScaledVec(a, e),
    toScaledVec(b, e),
    toScaledVec(c, e),
    toScaledVec(p, e),
  );
  roundNearest(out.point, r, e);
  const d = exactDistance(r, e);
  if (Number.isFinite(d)) out.distance = d;
}

/** The double-precision projection (see the file's docstring). */
function projectOntoTriangleDouble(
  out: TriangleProjection,
  a: Vec3,
  b: Vec3,
  c: Vec3,
  p: Vec3,
): TriangleProjection {
  if (projectThin(out, a, b, c, p)) return out;
  let k = unitScale(Math.max(maxAbs3(a), maxAbs3(b), maxAbs3(c), maxAbs3(p)));
  vec3.scale(sP, p, k);
  // The corner nearest p (scaled, so the squares are finite), then the other two in cyclic
  // order: the frame's origin o and the edges u, v from it.
  const da = vec3.distanceSq(sP, vec3.scale(sO, a, k));
  const db = vec3.distanceSq(sP, vec3.scale(sO, b, k));
  const dc = vec3.distanceSq(sP, vec3.scale(sO, c, k));
  let o = a;
  let e1 = b;
  let e2 = c;
  if (db < da && db <= dc) {
    o = b;
    e1 = c;
    e2 = a;
  } else if (dc < da && dc < db) {
    o = c;
    e1 = a;
    e2 = b;
  }
  // The frame in scene units when its offsets are finite (a point 2^893 above a 2^-460
  // triangle keeps both; one scale for all would flush the triangle to 0), else in k units.
  vec3.sub(sU, e1, o);
  vec3.sub(sV, e2, o);
  vec3.sub(sW, p, o);
  if (finite3(sU) && finite3(sV) && finite3(sW)) {
    k = 1;
    vec3.copy(sO, o);
  } else {
    vec3.scale(sO, o, k);
    sU.x = e1.x * k - sO.x;
    sU.y = e1.y * k - sO.y;
    sU.z = e1.z * k - sO.z;
    sV.x = e2.x * k - sO.x;
    sV.y = e2.y * k - sO.y;
    sV.z = e2.z * k - sO.z;
    vec3.sub(sW, sP, sO);
  }
  regionWalk();
  // Rounding of the point's own coordinates (scaled): never less than this counts as "on".
  const pTol = GJK_ROUNDING_TOLERANCE * maxAbs3(p) * k;
  if (wts[0] > 0 && wts[1] > 0 && wts[2] > 0) {
    // Face region: the normal with a bound on each component's rounding (8 ulps of its terms).
    // In the triangle's units (rU, rV): edges of 1e-256 in k units would square to 0.
    const nx = rU.y * rV.z - rU.z * rV.y;
    const ny = rU.z * rV.x - rU.x * rV.z;
    const nz = rU.x * rV.y - rU.y * rV.x;
    const ex = 8 * EPS * (Math.abs(rU.y * rV.z) + Math.abs(rU.z * rV.y));
    const ey = 8 * EPS * (Math.abs(rU.z * rV.x) + Math.abs(rU.x * rV.z));
    const ez = 8 * EPS * (Math.abs(rU.x * rV.y) + Math.abs(rU.y * rV.x));
    const len = norm3(nx, ny, nz);
    if (len > 0 && Number.isFinite(len)) {
      const ux = nx / len;
      const uy = ny / len;
      const uz = nz / len;
      // d = (p − o)·n from the unscaled offset, itself brought near 1 by a power of two kd (a
      // point 2^-900 above a 2^900 triangle keeps its height); the scaled offset when the
      // unscaled one overflows (corners and point near ±1.8e308).
      let ox = p.x - o.x;
      let oy = p.y - o.y;
      let oz = p.z - o.z;
      let kd = k;
      if (Number.isFinite(ox) && Number.isFinite(oy) && Number.isFinite(oz)) {
        kd = unitScale(Math.max(Math.abs(ox), Math.abs(oy), Math.abs(oz)));
        ox *= kd;
        oy *= kd;
        oz *= kd;
      } else {
        ox = sW.x;
        oy = sW.y;
        oz = sW.z;
      }
      const d = ox * ux + oy * uy + oz * uz;
      // Its rounding: the offset's and the normal's (per component), and the point's own
      // coordinates' along the normal (a point computed on a tilted triangle).
      const fx = Math.abs(ux) + ex / len;
      const fy = Math.abs(uy) + ey / len;
      const fz = Math.abs(uz) + ez / len;
      const bound =
        GJK_ROUNDING_TOLERANCE * (Math.abs(ox) * fx + Math.abs(oy) * fy + Math.abs(oz) * fz) +
        alongNormal(p.x, fx, kd) +
        alongNormal(p.y, fy, kd) +
        alongNormal(p.z, fz, kd);
      if (Math.abs(d) <= bound) return onTriangle(out, p);
      // q = p − d·n from the unscaled point (d/kd is the distance in scene units).
      const dist = d / kd;
      out.point.x = p.x - dist * ux;
      out.point.y = p.y - dist * uy;
      out.point.z = p.z - dist * uz;
      out.distance = Math.abs(dist);
      out.inside = false;
      return out;
    }
  }
  // An edge or a corner (or a degenerate triangle): the region walk's point, back to scene units.
  const gap = norm3(sW.x - sL.x, sW.y - sL.y, sW.z - sL.z);
  const tol = pTol + GJK_ROUNDING_TOLERANCE * (Math.abs(sW.x) + Math.abs(sW.y) + Math.abs(sW.z));
  if (gap <= tol) return onTriangle(out, p);
  if (wts[0] === 1) vec3.copy(out.point, o);
  else if (wts[1] === 1) vec3.copy(out.point, e1);
  else if (wts[2] === 1) vec3.copy(out.point, e2);
  else {
    out.point.x = (sO.x + sL.x) / k;
    out.point.y = (sO.y + sL.y) / k;
    out.point.z = (sO.z + sL.z) / k;
  }
  out.distance = gap / k;
  out.inside = false;
  return out;
}

const thinQ = vec3.create();

/**
 * A thin triangle (height under TRIANGLE_THIN_RATIO of its longest edge) with its corners and
 * the point within the exact predicates' range: `closestPointOnTriangle` on the corners as given,
 * whose thin path projects along the exactly expanded normal (or onto the edges) in scene units.
 * The frame above would round the edges o → e1, o → e2 first, a corner moved by ε·L across a
 * triangle of height h tilting its plane by ε·L/h, and take the face's normal from their rounded
 * cross product (tilted as much): the distance was off by ε·(L/h)·L (4e-9 of L at L/h = 1e9).
 * "On" as the edge branch below: within the rounding of p and of its offset from a. False (out
 * untouched) when the triangle is not thin or leaves the range.
 */
function projectThin(out: TriangleProjection, a: Vec3, b: Vec3, c: Vec3, p: Vec3): boolean {
  if (!triangleThinnerThan(a, b, c, TRIANGLE_THIN_RATIO)) return false;
  if (!exactRange(a) || !exactRange(b) || !exactRange(c) || !exactRange(p)) return false;
  closestPointOnTriangle(thinQ, p, a, b, c);
  const gap = norm3(p.x - thinQ.x, p.y - thinQ.y, p.z - thinQ.z);
  const tol =
    GJK_ROUNDING_TOLERANCE *
    (maxAbs3(p) + Math.abs(p.x - a.x) + Math.abs(p.y - a.y) + Math.abs(p.z - a.z));
  if (gap <= tol) {
    onTriangle(out, p);
    return true;
  }
  vec3.copy(out.point, thinQ);
  out.distance = gap;
  out.inside = false;
  return true;
}

/** GJK_ROUNDING_TOLERANCE·|x|·f in units scaled by kd (0 when f is 0; may be +Infinity). */
function alongNormal(x: number, f: number, kd: number): number {
  return f > 0 ? GJK_ROUNDING_TOLERANCE * Math.abs(x) * f * kd : 0;
}

function onTriangle(out: TriangleProjection, p: Vec3): TriangleProjection {
  vec3.copy(out.point, p);
  out.distance = 0;
  out.inside = true;
  return out;
}
