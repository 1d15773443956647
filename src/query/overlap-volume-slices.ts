/**
 * The overlap volume of a curved convex solid C — a cylinder, a cone, a capsule or a sphere —
 * and a convex polytope P — a box, a convex hull or a half-space — by slicing C across its axis
 * (src/query/overlap-volume.ts routes those pairs here). At height t along the axis, C's slice
 * is a disc of radius ρ(t) (constant for a cylinder, linear for a cone, a circle's profile at a
 * capsule's or a sphere's ends) and P's is a convex polygon: the half-planes a·(u, v) ≤ c_j(t)
 * of P's face planes, c_j linear in t. The slice area A(t) = |disc ∩ polygon| has a closed form
 * (the polygon, clipped from the disc's bounding square, summed edge by edge as triangles from
 * the centre where the edge is inside the circle and circular sectors where it is outside).
 *
 * The volume ∫A(t)dt is bracketed rigorously by Brunn's concavity principle (the
 * Brunn–Minkowski inequality for sections of a convex body): K = C ∩ P is convex, so
 * f(t) = A(t)^{1/2} is concave on the interval I of heights where K has a slice, and 0 outside.
 * Between two samples both in I, f lies above their chord (the lower bound); beyond a chord whose
 * far end is in I, f lies below the chord's extension (or is 0, outside I) — the upper bound,
 * also capped by the disc's own area. A sample is certainly in I when its area's lower bound is
 * positive, and every sample between two such samples is in I (an interval). The gaps are
 * second order in the segment width where f is smooth; segments whose gap exceeds their share of
 * the tolerance are bisected until the sum meets it (or {@link MAX_SAMPLES} are spent: the bound
 * still holds). This is independent of the aspect ratio: a disc of half height 1e-12 is sliced
 * across its thickness like a unit one.
 *
 * Rounding: each sample's area carries a bound (the 2D clipping and sums, 128u(m + 8)ρ² for m
 * planes, and each line's offset c_j's rounding, moving it by η_j in the slice: at most 2ρη_j of
 * area), so the bracket's end values are intervals. The face planes taken into C's frame are
 * off the true ones by at most δ = 64u·M (M: the radii and the relative translation) inside
 * the region of interest; the volume that moves is at most, per plane whose δ-slab meets C, the
 * slab's part of C: 2δ times C's largest section normal to the plane, which is at most
 * 3·vol(C)/width(C) (C holds the double cone over that section to its two extreme points).
 */

import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Cone } from "../shapes/cone.js";
import type { Cylinder } from "../shapes/cylinder.js";
import type { HalfSpace } from "../shapes/half-space.js";
import { boundingRadiusOf, type PolytopeAxes, shapeDef, supportOf } from "../shapes/registry.js";
import { type Shape, ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import { pairPose } from "./frames.js";
import { intersects } from "./intersects.js";
import { bisectMarked, firstSamples, segmentBounds, segmentOut } from "./overlap-volume-bracket.js";
import { closedFormVolume } from "./overlap-volume-contained.js";

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;
/** Most samples along the axis before the bracket is returned as it stands. */
const MAX_SAMPLES = 16_384;
/** Uniform samples of the first round (the endpoints included). */
const FIRST_SAMPLES = 33;
/** The slicing refines to this relative bound at least (it is cheap), or the caller's tighter one. */
export const SLICE_RELATIVE_TARGET = 1e-6;
const SQRT_PI = Math.sqrt(Math.PI);

/** True for the curved convex solids this module slices. */
export function isSliceable(t: number): boolean {
  return (
    t === ShapeType.Cylinder ||
    t === ShapeType.Cone ||
    t === ShapeType.Capsule ||
    t === ShapeType.Sphere
  );
}

/**
 * The slicing frame and profile of a curved solid, in its local frame: origin `o`, the axis `w`
 * and two unit vectors `e1`, `e2` across it; heights t ∈ [t0, t1]; the profile ρ(t) by `kind`
 * (0 cylinder ρ = r; 1 cone ρ = r(h − t)/(2h); 2 capsule/sphere ρ = r on |t| ≤ half, the
 * circle √(r² − (|t| − half)²) beyond).
 */
export interface Profile {
  o: [number, number, number];
  w: [number, number, number];
  e1: [number, number, number];
  e2: [number, number, number];
  t0: number;
  t1: number;
  kind: number;
  r: number;
  h: number;
  half: number;
  /**
   * How far the frame's own rounding (a capsule's computed axis, midpoint and basis) can move
   * C's points from where the true frame puts them (unit).
   */
  frameError: number;
}

type V3 = [number, number, number];
const AXIS_X: V3 = [1, 0, 0];
const AXIS_Y: V3 = [0, 1, 0];
const AXIS_Z: V3 = [0, 0, 1];
const ORIGIN: V3 = [0, 0, 0];

/**
 * The one builder of a {@link Profile}: the solid's slicing frame (origin `o`, axis `w`, `e1`,
 * `e2` across it, unit vectors in its local frame), its profile `kind` with radius `r`, half
 * height `h` and straight half length `half` (unit), heights t ∈ [−reach, reach], and the
 * frame's own rounding `frameError` (unit).
 */
function makeProfile(
  o: V3,
  w: V3,
  e1: V3,
  e2: V3,
  kind: number,
  r: number,
  h: number,
  half: number,
  reach: number,
  frameError: number,
): Profile {
  return { o, w, e1, e2, t0: -reach, t1: reach, kind, r, h, half, frameError };
}

/**
 * The profile of a cylinder, cone, capsule or sphere (local frame): a cylinder's and a cone's
 * frame is their own (axis +Y); a sphere's a capsule of length 0; a capsule's has its origin at
 * the segment's midpoint, `w` along the segment and `e1` = w × the coordinate axis least along
 * w, `e2` = w × e1 (exported for the chord slicing of two curved solids,
 * src/query/overlap-volume-chords.ts, which takes the capsule in the same frame).
 */
export function profileOf(c: Shape): Profile {
  if (c.type === ShapeType.Cylinder || c.type === ShapeType.Cone) {
    const s = c as Cylinder | Cone;
    const kind = c.type === ShapeType.Cylinder ? 0 : 1;
    const h = s.halfHeight;
    return makeProfile(ORIGIN, AXIS_Y, AXIS_X, AXIS_Z, kind, s.radius, h, 0, h, 0);
  }
  if (c.type === ShapeType.Sphere) {
    const r = (c as Sphere).radius;
    return makeProfile(ORIGIN, AXIS_Y, AXIS_X, AXIS_Z, 2, r, 0, 0, r, 0);
  }
  const s = c as Capsule;
  const r = s.radius;
  const dx = s.b.x - s.a.x;
  const dy = s.b.y - s.a.y;
  const dz = s.b.z - s.a.z;
  const len = Math.hypot(dx, dy, dz);
  const mid: V3 = [0.5 * (s.a.x + s.b.x), 0.5 * (s.a.y + s.b.y), 0.5 * (s.a.z + s.b.z)];
  const mag = Math.abs(s.a.x) + Math.abs(s.a.y) + Math.abs(s.a.z) + len;
  // A capsule of length 0 is a ball about its midpoint.
  if (!(len > 0))
    return makeProfile(mid, AXIS_Y, AXIS_X, AXIS_Z, 2, r, 0, 0, r, 16 * UNIT_ROUNDOFF * mag);
  const w: V3 = [dx / len, dy / len, dz / len];
  const ax = Math.abs(w[0]);
  const ay = Math.abs(w[1]);
  const az = Math.abs(w[2]);
  const k = ax <= ay && ax <= az ? AXIS_X : ay <= az ? AXIS_Y : AXIS_Z;
  const c1 = cross(w, k);
  const l1 = Math.hypot(c1[0], c1[1], c1[2]);
  const e1: V3 = [c1[0] / l1, c1[1] / l1, c1[2] / l1];
  const half = 0.5 * len;
  // The computed axis and midpoint place the capsule within a few roundings of its segment's
  // coordinates (and a radius) of the true one.
  return makeProfile(
    mid,
    w,
    e1,
    cross(w, e1),
    2,
    r,
    0,
    half,
    half + r,
    16 * UNIT_ROUNDOFF * (mag + r),
  );
}

function cross(a: [number, number, number], b: [number, number, number]): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** ρ(t) (unit) of the profile; 0 outside [t0, t1]. */
function radiusAt(p: Profile, t: number): number {
  if (!(t >= p.t0 && t <= p.t1)) return 0;
  if (p.kind === 0) return p.r;
  if (p.kind === 1) return Math.max(0, (p.r * (p.h - t)) / (2 * p.h));
  const e = Math.abs(t) - p.half;
  if (e <= 0) return p.r;
  return Math.sqrt(Math.max(0, (p.r - e) * (p.r + e)));
}

/** The largest ρ on [ta, tb] (unit), rounded up by a few ulps. */
function radiusMax(p: Profile, ta: number, tb: number): number {
  let rho: number;
  if (p.kind === 0) rho = p.r;
  else if (p.kind === 1) rho = radiusAt(p, Math.max(ta, p.t0));
  else {
    // Nearest point of [ta, tb] to [−half, half].
    const t = tb < -p.half ? tb : ta > p.half ? ta : 0;
    rho = radiusAt(p, Math.max(p.t0, Math.min(p.t1, t)));
  }
  return rho * (1 + 8 * UNIT_ROUNDOFF);
}

/**
 * Scratch of the slice's polygon (two ping-pong buffers, xy packed) for {@link sliceArea};
 * sized for `m` half-planes.
 */
interface SliceScratch {
  px: Float64Array;
  qx: Float64Array;
}

/** Half-planes in the slice frame: a1·u + a2·v ≤ c0 − b·t, |(a1, b, a2)| = 1, 4 per plane. */
type SlicePlanes = Float64Array;

/** The area interval of one slice: the computed area and the bound on its error (unit²). */
const areaOut = new Float64Array(2);

/**
 * The area of the disc of radius ρ (centre the origin) ∩ the half-planes at height t, into
 * areaOut = [area, error bound]; area −1 when the slice is certainly empty (a plane leaves the
 * whole disc outside by more than its rounding), error bound then 0.
 */
function sliceArea(planes: SlicePlanes, m: number, rho: number, t: number, s: SliceScratch): void {
  if (!(rho > 0)) {
    areaOut[0] = -1;
    areaOut[1] = 0;
    return;
  }
  // The polygon in units of ρ (the unit disc): the edges' squared terms (B², AC) are quartic in
  // the coordinates and would underflow below about 1e-77 and overflow above 1e77.
  const R = 1 + 1e-3;
  let src = s.px;
  let dst = s.qx;
  src[0] = -R;
  src[1] = -R;
  src[2] = R;
  src[3] = -R;
  src[4] = R;
  src[5] = R;
  src[6] = -R;
  src[7] = R;
  let n = 4;
  let err = 128 * UNIT_ROUNDOFF * (m + 8) * rho * rho;
  for (let j = 0; j < 4 * m; j += 4) {
    const a1 = planes[j];
    const a2 = planes[j + 1];
    const b = planes[j + 2];
    const c0 = planes[j + 3];
    const bt = b * t;
    const c = c0 - bt;
    // The offset's rounding (the subtraction and the product), unit.
    const ec = 2 * UNIT_ROUNDOFF * (Math.abs(c0) + Math.abs(bt));
    const la = Math.hypot(a1, a2);
    if (!(la > 0)) {
      // Parallel to the slice: all or nothing.
      if (c > ec) continue;
      if (c < -ec) {
        areaOut[0] = -1;
        areaOut[1] = 0;
        return;
      }
      err += Math.PI * rho * rho;
      continue;
    }
    const eta = ec / la;
    const dist = c / la;
    if (dist > rho + eta) continue;
    if (dist < -rho - eta) {
      areaOut[0] = -1;
      areaOut[1] = 0;
      return;
    }
    err += Math.min(Math.PI * rho * rho, 2 * rho * eta);
    const du = dist / rho;
    if (du >= Math.SQRT2 * R) continue;
    // Sutherland–Hodgman: keep a·p ≤ du (a unit, p in units of ρ).
    const ux = a1 / la;
    const uy = a2 / la;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const i2 = i + 1 === n ? 0 : i + 1;
      const x0 = src[2 * i];
      const y0 = src[2 * i + 1];
      const x1 = src[2 * i2];
      const y1 = src[2 * i2 + 1];
      const s0 = ux * x0 + uy * y0 - du;
      const s1 = ux * x1 + uy * y1 - du;
      if (s0 <= 0) {
        dst[2 * k] = x0;
        dst[2 * k + 1] = y0;
        k++;
      }
      if ((s0 < 0 && s1 > 0) || (s0 > 0 && s1 < 0)) {
        const f = s0 / (s0 - s1);
        dst[2 * k] = x0 + f * (x1 - x0);
        dst[2 * k + 1] = y0 + f * (y1 - y0);
        k++;
      }
    }
    n = k;
    const tmp = src;
    src = dst;
    dst = tmp;
    if (n < 3) {
      // Empty (or degenerate) as computed: area 0 within the rounding bound.
      areaOut[0] = 0;
      areaOut[1] = err;
      return;
    }
  }
  let area = 0;
  for (let i = 0; i < n; i++) {
    const i2 = i + 1 === n ? 0 : i + 1;
    area += edgeDiscArea(src[2 * i], src[2 * i + 1], src[2 * i2], src[2 * i2 + 1], 1);
  }
  areaOut[0] = Math.max(0, Math.min(area, Math.PI)) * (rho * rho);
  areaOut[1] = err;
}

/**
 * Signed area (unit²) of the disc of radius r about the origin ∩ the triangle (origin, p, q): the
 * parts of the edge pq inside the circle give triangles from the origin, the parts outside give
 * circular sectors r²θ/2 (θ the signed angle they subtend).
 */
function edgeDiscArea(px: number, py: number, qx: number, qy: number, r: number): number {
  const dx = qx - px;
  const dy = qy - py;
  const A = dx * dx + dy * dy;
  if (!(A > 0)) return 0;
  const B = px * dx + py * dy;
  const C = px * px + py * py - r * r;
  const disc = B * B - A * C;
  if (disc <= 0) return sector(px, py, qx, qy, r);
  const sq = Math.sqrt(disc);
  // Stable roots of A s² + 2B s + C = 0.
  const qq = B >= 0 ? -(B + sq) : -(B - sq);
  let s1 = qq / A;
  let s2 = qq !== 0 ? C / qq : s1;
  if (s1 > s2) {
    const tmp = s1;
    s1 = s2;
    s2 = tmp;
  }
  if (s2 <= 0 || s1 >= 1) return sector(px, py, qx, qy, r);
  const t1 = Math.max(0, s1);
  const t2 = Math.min(1, s2);
  const ax = px + t1 * dx;
  const ay = py + t1 * dy;
  const bx = px + t2 * dx;
  const by = py + t2 * dy;
  let area = 0.5 * (ax * by - ay * bx);
  if (t1 > 0) area += sector(px, py, ax, ay, r);
  if (t2 < 1) area += sector(bx, by, qx, qy, r);
  return area;
}

/** r²θ/2 for θ the signed angle from p to q about the origin. */
function sector(px: number, py: number, qx: number, qy: number, r: number): number {
  return 0.5 * r * r * Math.atan2(px * qy - py * qx, px * qx + py * qy);
}

/** The answer of {@link sliceVolume}: volume and bound (unit³). */
export interface SliceVolume {
  volume: number;
  errorBound: number;
}

/**
 * The volume of C ∩ P (module doc) for C a cylinder, cone, capsule or sphere at `poseC` and P a
 * box, a convex hull (any closed polytope with face planes) or a half-space at `poseP` (world
 * poses, unit rotations). Refines until errorBound ≤ max(abs, min(rel, SLICE_RELATIVE_TARGET) ×
 * volume) or the sample budget is spent. Null when no sample is certainly inside the overlap
 * (a sliver thinner than the samples' spacing; the caller falls back to its general method).
 */
export function sliceVolume(
  c: Shape,
  poseC: Isometry,
  p: Shape,
  poseP: Isometry,
  rel: number,
  abs: number,
): SliceVolume | null {
  if (!intersects(c, poseC, p, poseP)) return { volume: 0, errorBound: 0 };
  const pInC = iso.copy(iso.identity(), pairPose(c, poseC, p, poseP));
  const prof = profileOf(c);
  const volC = closedFormVolume(c) as number;
  // P's face planes in C's frame, unit normals: n·x ≤ d.
  const raw: number[] = [];
  let radiusP: number;
  if (p.type === ShapeType.HalfSpace) {
    const h = p as HalfSpace;
    const n = quat.rotate(vec3.create(), pInC.rotation, h.normal);
    raw.push(n.x, n.y, n.z, h.offset + vec3.dot(n, pInC.translation));
    radiusP = Math.abs(h.offset);
  } else {
    const local = ((shapeDef(p.type).polytope as PolytopeAxes).planes as (s: Shape) => number[])(p);
    const n = vec3.create();
    for (let i = 0; i < local.length; i += 4) {
      vec3.set(n, local[i], local[i + 1], local[i + 2]);
      quat.rotate(n, pInC.rotation, n);
      raw.push(n.x, n.y, n.z, local[i + 3] + vec3.dot(n, pInC.translation));
    }
    radiusP = boundingRadiusOf(p);
  }
  const radiusC = boundingRadiusOf(c);
  const magnitude = radiusC + radiusP + vec3.length(pInC.translation);
  // A capsule's computed frame is a near-rigid image of its own (module doc): moving C by its
  // error is moving P's planes by as much, so it joins δ; its length's rounding adds πr²·δL.
  const delta = 64 * UNIT_ROUNDOFF * magnitude + prof.frameError;
  const lengthError = 8 * UNIT_ROUNDOFF * Math.PI * prof.r * prof.r * prof.half;
  const m = raw.length / 4;
  const planes: SlicePlanes = new Float64Array(4 * m);
  const dir = vec3.create();
  const sup = vec3.create();
  let slabs = 0;
  for (let j = 0; j < m; j++) {
    let nx = raw[4 * j];
    let ny = raw[4 * j + 1];
    let nz = raw[4 * j + 2];
    const ln = Math.hypot(nx, ny, nz);
    nx /= ln;
    ny /= ln;
    nz /= ln;
    const d = raw[4 * j + 3] / ln;
    // In the slice frame.
    const a1 = nx * prof.e1[0] + ny * prof.e1[1] + nz * prof.e1[2];
    const a2 = nx * prof.e2[0] + ny * prof.e2[1] + nz * prof.e2[2];
    const b = nx * prof.w[0] + ny * prof.w[1] + nz * prof.w[2];
    const c0 = d - (nx * prof.o[0] + ny * prof.o[1] + nz * prof.o[2]);
    planes[4 * j] = a1;
    planes[4 * j + 1] = a2;
    planes[4 * j + 2] = b;
    planes[4 * j + 3] = c0;
    // The volume the plane's rounding can move: its δ-slab's part of C (module doc).
    vec3.set(dir, nx, ny, nz);
    const hi = vec3.dot(dir, supportOf(sup, c, dir));
    vec3.set(dir, -nx, -ny, -nz);
    const lo = -vec3.dot(dir, supportOf(sup, c, dir));
    const slack = delta + 16 * UNIT_ROUNDOFF * radiusC;
    if (d >= lo - slack && d <= hi + slack) {
      const width = hi - lo;
      // (volC / width first: δ·volC overflows for shapes of 1e90.)
      slabs += width > 0 ? Math.min(volC, 6 * delta * (volC / width)) : volC;
    }
  }

  // Heights: C's range, narrowed to P's extent along the axis for a polytope.
  let t0 = prof.t0;
  let t1 = prof.t1;
  if (p.type !== ShapeType.HalfSpace) {
    vec3.set(dir, prof.w[0], prof.w[1], prof.w[2]);
    const local = vec3.create();
    quat.rotate(local, quat.conjugate(quat.identity(), pInC.rotation), dir);
    const wo = prof.w[0] * prof.o[0] + prof.w[1] * prof.o[1] + prof.w[2] * prof.o[2];
    const top = vec3.dot(dir, pInC.translation) + vec3.dot(local, supportOf(sup, p, local)) - wo;
    vec3.negate(local, local);
    const bottom = vec3.dot(dir, pInC.translation) - vec3.dot(local, supportOf(sup, p, local)) - wo;
    const pad = 2 * delta;
    t0 = Math.max(t0, bottom - pad);
    t1 = Math.min(t1, top + pad);
    if (!(t0 < t1)) return { volume: 0, errorBound: Math.min(volC, slabs + lengthError) };
  }

  const fixed = Math.min(volC, slabs + lengthError);
  const scratch: SliceScratch = {
    px: new Float64Array(2 * (m + 8)),
    qx: new Float64Array(2 * (m + 8)),
  };
  const ts: number[] = [];
  const lo: number[] = [];
  const hi: number[] = [];
  const sample = (t: number, out: Float64Array): void => {
    const rho = radiusAt(prof, t);
    sliceArea(planes, m, rho, t, scratch);
    if (areaOut[0] < 0) {
      out[0] = 0;
      out[1] = 0;
      return;
    }
    const a = areaOut[0];
    const e = areaOut[1] + 16 * UNIT_ROUNDOFF * Math.PI * rho * rho;
    out[0] = Math.sqrt(Math.max(0, a - e));
    out[1] = Math.min(SQRT_PI * rho * (1 + 8 * UNIT_ROUNDOFF), Math.sqrt(a + e));
  };
  const out = new Float64Array(2);
  firstSamples(sample, t0, t1, FIRST_SAMPLES, ts, lo, hi, out);
  const target = (v: number) => Math.max(abs, Math.min(rel, SLICE_RELATIVE_TARGET) * v);
  let gaps: number[] = [];
  let volume = 0;
  let gap = 0;
  for (;;) {
    const n = ts.length;
    let j = -1;
    let k = -1;
    for (let i = 0; i < n; i++) {
      if (lo[i] > 0) {
        if (j < 0) j = i;
        k = i;
      }
    }
    if (j < 0) {
      // Nothing certainly inside yet: refine everywhere a few times, then give up.
      if (n >= 1025) return null;
      gaps = new Array(n - 1).fill(1);
    } else {
      let lower = 0;
      let upper = 0;
      gaps = new Array(n - 1);
      for (let i = 0; i + 1 < n; i++) {
        // The segment's cap: the disc's √area at its widest.
        const cap = SQRT_PI * radiusMax(prof, ts[i], ts[i + 1]);
        segmentBounds(ts, lo, hi, i, j, k, 2, cap, false);
        const l = segmentOut[0];
        const u = segmentOut[1];
        lower += l;
        upper += u;
        gaps[i] = u - l;
      }
      volume = 0.5 * (upper + lower);
      gap = 0.5 * (upper - lower);
      const tol = target(volume);
      // The planes' and the frame's share is fixed: the bracket takes what is left of the target.
      if (gap <= Math.max(tol - fixed, 0.1 * tol, 0.1 * fixed) || n >= MAX_SAMPLES) break;
      const share = (2 * tol) / (n - 1);
      for (let i = 0; i + 1 < n; i++) gaps[i] = gaps[i] > share ? 1 : 0;
    }
    // Bisect the marked segments (none left to split: widths at the doubles' spacing).
    if (!bisectMarked(sample, ts, lo, hi, gaps, MAX_SAMPLES, out)) break;
  }
  // The sums' rounding; and, for volumes near the doubles' least normal (a shape of 1e-100:
  // ρ²·height ≈ 1e-309), every product's absolute rounding of up to the least subnormal.
  const rounding = 4 * ts.length * (UNIT_ROUNDOFF * (volume + gap) + 16 * Number.MIN_VALUE);
  const errorBound = gap + fixed + rounding;
  return { volume: Math.max(0, volume), errorBound };
}
