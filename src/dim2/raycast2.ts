/**
 * Ray casts against every 2D shape: the first point of `origin + t·direction`, t ∈ [0, maxToi],
 * on the shape, with the outward unit normal there (docs/FORMATS.md `raycast`). `direction`
 * need not be unit; `toi` is in multiples of it. A solid shape hit from inside (boundary
 * included) gives toi 0, the origin and a zero normal; with `solid = false` a ray from inside
 * reports where it leaves, with the outward normal there.
 *
 * Per shape (local frame): circle by the quadratic (Ericson 2005, §5.3.2); rectangle by slabs
 * (Kay–Kajiya, §5.3.3); polygon by Cyrus–Beck clipping against its edge half-planes (§5.3.8);
 * capsule as the union of its two end circles and its central rectangle (the first entry into a
 * union is the earliest entry into a member); segment by the 2D line intersection, its normal
 * facing the ray's origin. The exit of a capsule ray from inside is found by casting back from a
 * point beyond the shape.
 */

import { invalidValue } from "../errors.js";
import { hypot2, unitScale } from "../math/scalar.js";
import { checkAnswer2, checkedShape2, checkOffset2, checkVec2 } from "./check2.js";
import { pointScale2, scaledShape2 } from "./extreme-scale2.js";
import type { Pose2 } from "./pose2.js";
import * as pose2 from "./pose2.js";
import { makePointProjection2, projectPointLocal2 } from "./project-point2.js";
import * as rot2 from "./rot2.js";
import type { Capsule2, Polygon2, Rect2, Segment2, Shape2 } from "./shapes.js";
import { rectCorners2, ShapeType2, shapeSize2 } from "./shapes.js";
import type { Vec2 } from "./vec2.js";

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitP = pose2.identity();

/** A ray hit (frame as stated by the producer). */
export interface RayHit2 {
  toi: number;
  point: Vec2;
  normal: Vec2;
}

/** A new ray-hit record (allocates). */
export function makeRayHit2(): RayHit2 {
  return { toi: 0, point: { x: 0, y: 0 }, normal: { x: 0, y: 0 } };
}

/** Local-frame hit scratch: toi and normal; the point is computed by the caller. */
interface LocalHit {
  toi: number;
  nx: number;
  ny: number;
}

const INSIDE = -1;
const MISS = -2;

/**
 * Circle of radius r centred at (cx, cy): entry time from outside, INSIDE when the origin is in
 * the closed disc, or MISS. With `exit`, the exit time instead (origin inside). The discriminant
 * is taken from the centre's perpendicular offset from the line, r² − |l|² = (r − |l|)(r + |l|),
 * not as b² − a·c, whose two large terms cancel when the origin is far from a small circle (Haines
 * et al., "Precision improvements for ray/sphere intersection", Ray Tracing Gems, 2019, ch. 7);
 * each root is taken in the form without cancellation (Ericson 2005, §5.3.2; the product of the
 * roots is c / a). The caller keeps the inputs near unit scale (see {@link castRayWorld2}).
 */
function rayCircle(
  hit: LocalHit,
  cx: number,
  cy: number,
  r: number,
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxToi: number,
  exit: boolean,
): number {
  const mx = ox - cx;
  const my = oy - cy;
  const a = dx * dx + dy * dy;
  const b = mx * dx + my * dy;
  const c = mx * mx + my * my - r * r;
  if (c <= 0 && !exit) return INSIDE;
  if (a === 0) return MISS;
  if (b > 0 && !exit) return MISS;
  // The centre's offset from the line, l = m − (b / a)·d, and r² − |l|² = disc / a.
  const f = b / a;
  const l = hypot2(mx - f * dx, my - f * dy);
  const h2 = (r - l) * (r + l);
  if (h2 < 0) return MISS;
  const sq = Math.sqrt(a * h2);
  let t: number;
  if (exit) {
    // The larger root; for b > 0 as c / (the smaller root's numerator), which does not cancel.
    t = b > 0 ? c / (-b - sq) : (-b + sq) / a;
  } else {
    // The smaller root as c / q with q = −b + √disc ≥ 0 (both terms ≥ 0: no cancellation).
    const q = -b + sq;
    t = q > 0 ? c / q : -b / a;
  }
  if (!(t > 0)) t = 0;
  if (t > maxToi) return MISS;
  const px = mx + dx * t;
  const py = my + dy * t;
  const len = hypot2(px, py);
  hit.nx = len > 0 ? px / len : 0;
  hit.ny = len > 0 ? py / len : 0;
  hit.toi = t;
  return t;
}

/** Rectangle [x0, x1] × [y0, y1]: entry, INSIDE, MISS, or exit with `exit`. */
function rayRect(
  hit: LocalHit,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxToi: number,
  exit: boolean,
): number {
  if (ox >= x0 && ox <= x1 && oy >= y0 && oy <= y1 && !exit) return INSIDE;
  let t0 = -Infinity;
  let t1 = Infinity;
  let n0x = 0;
  let n0y = 0;
  let n1x = 0;
  let n1y = 0;
  if (dx === 0) {
    if (ox < x0 || ox > x1) return MISS;
  } else {
    const sx = dx > 0 ? 1 : -1;
    const a = ((dx > 0 ? x0 : x1) - ox) / dx;
    const b = ((dx > 0 ? x1 : x0) - ox) / dx;
    t0 = a;
    n0x = -sx;
    t1 = b;
    n1x = sx;
  }
  if (dy === 0) {
    if (oy < y0 || oy > y1) return MISS;
  } else {
    const sy = dy > 0 ? 1 : -1;
    const a = ((dy > 0 ? y0 : y1) - oy) / dy;
    const b = ((dy > 0 ? y1 : y0) - oy) / dy;
    if (a > t0) {
      t0 = a;
      n0x = 0;
      n0y = -sy;
    }
    if (b < t1) {
      t1 = b;
      n1x = 0;
      n1y = sy;
    }
  }
  if (exit) {
    if (!(t1 < Infinity) || t1 > maxToi) return MISS;
    hit.toi = Math.max(0, t1);
    hit.nx = n1x;
    hit.ny = n1y;
    return hit.toi;
  }
  if (!(t0 > -Infinity) || t0 > t1 || t1 < 0 || t0 > maxToi) return MISS;
  hit.toi = Math.max(0, t0);
  hit.nx = n0x;
  hit.ny = n0y;
  return hit.toi;
}

/**
 * Convex polygon (Cyrus–Beck) with its vertices multiplied by `ks` (a power of two): entry,
 * INSIDE, MISS, or exit with `exit`.
 */
function rayPolygon(
  hit: LocalHit,
  poly: Polygon2,
  ks: number,
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxToi: number,
  exit: boolean,
): number {
  const { count, verts, normals } = poly.core;
  let lower = 0;
  let upper = maxToi;
  let iLow = -1;
  let iUp = -1;
  let inside = true;
  for (let i = 0; i < count; i++) {
    const nx = normals[2 * i];
    const ny = normals[2 * i + 1];
    const num = nx * (verts[2 * i] * ks - ox) + ny * (verts[2 * i + 1] * ks - oy);
    const den = nx * dx + ny * dy;
    if (num < 0) inside = false;
    if (den === 0) {
      if (num < 0) return MISS;
    } else if (den < 0) {
      const t = num / den;
      if (t > lower || (iLow < 0 && t >= lower)) {
        lower = t;
        iLow = i;
      }
    } else {
      const t = num / den;
      if (t < upper || (iUp < 0 && t <= upper)) {
        upper = t;
        iUp = i;
      }
    }
  }
  if (inside && !exit) return INSIDE;
  if (exit) {
    if (iUp < 0 || upper < 0) return MISS;
    hit.toi = upper;
    hit.nx = normals[2 * iUp];
    hit.ny = normals[2 * iUp + 1];
    return upper;
  }
  if (iLow < 0 || lower > upper) return MISS;
  hit.toi = lower;
  hit.nx = normals[2 * iLow];
  hit.ny = normals[2 * iLow + 1];
  return lower;
}

const sub: LocalHit = { toi: 0, nx: 0, ny: 0 };

/**
 * Capsule with its lengths multiplied by `ks` (a power of two): the earliest entry into its end
 * circles and its central rectangle; INSIDE or MISS.
 */
function rayCapsule(
  hit: LocalHit,
  cap: Capsule2,
  ks: number,
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxToi: number,
): number {
  const r = cap.radius * ks;
  const ax = cap.a.x * ks;
  const ay = cap.a.y * ks;
  const bx = cap.b.x * ks;
  const by = cap.b.y * ks;
  let best = MISS;
  const ra = rayCircle(sub, ax, ay, r, ox, oy, dx, dy, maxToi, false);
  if (ra === INSIDE) return INSIDE;
  if (ra >= 0) {
    best = ra;
    hit.toi = ra;
    hit.nx = sub.nx;
    hit.ny = sub.ny;
  }
  const rb = rayCircle(sub, bx, by, r, ox, oy, dx, dy, maxToi, false);
  if (rb === INSIDE) return INSIDE;
  if (rb >= 0 && (best < 0 || rb < best)) {
    best = rb;
    hit.toi = rb;
    hit.nx = sub.nx;
    hit.ny = sub.ny;
  }
  const ex = bx - ax;
  const ey = by - ay;
  const len = hypot2(ex, ey);
  if (len > 0) {
    // The rectangle's frame: u along the segment, v across it, origin at the midpoint.
    const ux = ex / len;
    const uy = ey / len;
    const mx = ox - (0.5 * ax + 0.5 * bx);
    const my = oy - (0.5 * ay + 0.5 * by);
    const lox = ux * mx + uy * my;
    const loy = -uy * mx + ux * my;
    const ldx = ux * dx + uy * dy;
    const ldy = -uy * dx + ux * dy;
    const hl = 0.5 * len;
    const rr = rayRect(sub, -hl, -r, hl, r, lox, loy, ldx, ldy, maxToi, false);
    if (rr === INSIDE) return INSIDE;
    if (rr >= 0 && (best < 0 || rr < best)) {
      best = rr;
      hit.toi = rr;
      hit.nx = ux * sub.nx - uy * sub.ny;
      hit.ny = uy * sub.nx + ux * sub.ny;
    }
  }
  return best;
}

/**
 * Segment (or point when a = b) with its end points multiplied by `ks` (a power of two): hit time
 * or MISS; INSIDE when the origin lies on it.
 */
function raySegment(
  hit: LocalHit,
  seg: Segment2,
  ks: number,
  ox: number,
  oy: number,
  dx0: number,
  dy0: number,
  maxToi0: number,
  exit: boolean,
): number {
  const ax = seg.a.x * ks;
  const ay = seg.a.y * ks;
  const sbx = seg.b.x * ks;
  const sby = seg.b.y * ks;
  // Scale-free arithmetic: the segment and the offset are divided by their largest component and
  // the direction by its own, so that products never underflow; t is rescaled at the end.
  const m = Math.max(Math.abs(sbx - ax), Math.abs(sby - ay), Math.abs(ax - ox), Math.abs(ay - oy));
  const k = Math.max(Math.abs(dx0), Math.abs(dy0));
  if (m === 0) {
    // The origin is the (point) segment.
    if (!exit) return INSIDE;
    hit.toi = 0;
    hit.nx = k > 0 ? dx0 / hypot2(dx0, dy0) : 1;
    hit.ny = k > 0 ? dy0 / hypot2(dx0, dy0) : 0;
    return 0;
  }
  const ex = (sbx - ax) / m;
  const ey = (sby - ay) / m;
  const wx = (ax - ox) / m;
  const wy = (ay - oy) / m;
  const dx = k > 0 ? dx0 / k : 0;
  const dy = k > 0 ? dy0 / k : 0;
  const tScale = k > 0 ? m / k : 0;
  const maxToi = maxToi0 / (k > 0 ? tScale : 1);
  const den = dx * ey - dy * ex;
  const dd = dx * dx + dy * dy;
  const onLine = wx * ey - wy * ex === 0;
  const ee = ex * ex + ey * ey;
  // Origin on the segment.
  const sO = ee > 0 ? -(wx * ex + wy * ey) / ee : 0;
  if (onLine && sO >= 0 && sO <= 1 && (ee > 0 || (wx === 0 && wy === 0))) {
    if (!exit) return INSIDE;
    if (den !== 0 || dd === 0) {
      // Crossing the segment: it leaves at once, on the side the ray heads to.
      const len = Math.sqrt(ee);
      let nx = ee > 0 ? ey / len : 1;
      let ny = ee > 0 ? -ex / len : 0;
      if (nx * dx + ny * dy < 0) {
        nx = -nx;
        ny = -ny;
      }
      hit.toi = 0;
      hit.nx = nx;
      hit.ny = ny;
      return 0;
    }
    // Along the segment: it leaves at the far end point.
    const ta = (wx * dx + wy * dy) / dd;
    const tb = (((sbx - ox) / m) * dx + ((sby - oy) / m) * dy) / dd;
    const t = Math.max(ta, tb, 0);
    if (t > maxToi) return MISS;
    const dl = Math.sqrt(dd);
    hit.toi = t * tScale;
    hit.nx = dx / dl;
    hit.ny = dy / dl;
    return hit.toi;
  }
  if (dd === 0) return MISS;
  if (den !== 0) {
    const t = (wx * ey - wy * ex) / den;
    const s = (wx * dy - wy * dx) / den;
    if (t < 0 || t > maxToi || s < 0 || s > 1) return MISS;
    const len = Math.sqrt(ee);
    let nx = ey / len;
    let ny = -ex / len;
    if (nx * dx + ny * dy > 0) {
      nx = -nx;
      ny = -ny;
    }
    hit.toi = t * tScale;
    hit.nx = nx;
    hit.ny = ny;
    return hit.toi;
  }
  // Parallel: a hit only when collinear, at the nearer end point ahead.
  if (wx * dy - wy * dx !== 0) return MISS;
  const ta = (wx * dx + wy * dy) / dd;
  const tb = (((sbx - ox) / m) * dx + ((sby - oy) / m) * dy) / dd;
  let t = Math.min(ta, tb);
  if (t < 0) t = Math.max(ta, tb);
  if (t < 0 || t > maxToi) return MISS;
  const dl = Math.sqrt(dd);
  hit.toi = t * tScale;
  hit.nx = -dx / dl;
  hit.ny = -dy / dl;
  return hit.toi;
}

const proj = makePointProjection2();

/**
 * Entry (or, with `exit`, exit) of the local ray on `shape` with its lengths multiplied by `ks` (a
 * power of two; the origin and the direction given in those units): time, INSIDE or MISS.
 */
function castLocal(
  hit: LocalHit,
  shape: Shape2,
  ks: number,
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxToi: number,
  exit: boolean,
): number {
  switch (shape.type) {
    case ShapeType2.Circle:
      return rayCircle(hit, 0, 0, shape.radius * ks, ox, oy, dx, dy, maxToi, exit);
    case ShapeType2.Rect:
      return rayRectShape(hit, shape, ks, ox, oy, dx, dy, maxToi, exit);
    case ShapeType2.Polygon:
      return rayPolygon(hit, shape, ks, ox, oy, dx, dy, maxToi, exit);
    case ShapeType2.Segment:
      return raySegment(hit, shape, ks, ox, oy, dx, dy, maxToi, exit);
    case ShapeType2.Capsule: {
      if (!exit) return rayCapsule(hit, shape, ks, ox, oy, dx, dy, maxToi);
      // Exit from inside: cast back from a point T·d beyond the shape (|o + T·d| > size).
      const dl = hypot2(dx, dy);
      const size = shapeSize2(shape) * ks;
      const T = (hypot2(ox, oy) + size + size) / dl;
      const back = rayCapsule(hit, shape, ks, ox + T * dx, oy + T * dy, -dx, -dy, T);
      if (back < 0) return MISS;
      const t = Math.max(0, T - back);
      if (t > maxToi) return MISS;
      hit.toi = t;
      return t;
    }
  }
}

/** Scratch corners of a rectangle (rectCorners2). */
const corners = new Float64Array(4);

function rayRectShape(
  hit: LocalHit,
  rect: Rect2,
  ks: number,
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxToi: number,
  exit: boolean,
): number {
  const k = rectCorners2(corners, rect);
  return rayRect(hit, k[0] * ks, k[1] * ks, k[2] * ks, k[3] * ks, ox, oy, dx, dy, maxToi, exit);
}

const local: LocalHit = { toi: 0, nx: 0, ny: 0 };
const oL = { x: 0, y: 0 };
const dL = { x: 0, y: 0 };

/**
 * Casts the ray `origin + t·direction`, t ∈ [0, maxToi] (world frame; maxToi may be Infinity, its default),
 * against `shape` at `pose`. Returns the first hit `{toi, point, normal}` (outward unit normal;
 * for a segment the side facing the origin) or null. A solid shape (default) hit from inside gives
 * toi 0, point = origin and normal (0, 0); with `solid = false` the ray from inside reports its
 * exit. Written to `out` when given.
 * Throws `CollideError` for an invalid shape or pose, a non-finite or zero direction, a
 * non-finite origin, a
 * negative or NaN `maxToi`, or an answer that would not be finite (src/dim2/check2.ts).
 */
export function castRay2D(
  shape: Shape2,
  pose: Pose2,
  origin: Vec2,
  direction: Vec2,
  maxToi = Number.POSITIVE_INFINITY,
  solid = true,
  out: RayHit2 = makeRayHit2(),
): RayHit2 | null {
  const s = checkedShape2("shape", shape);
  // A rotation within the tolerance of unit length is used normalised (docs/FORMATS.md).
  pose = pose2.unitPose(unitP, pose);
  pose2.checkPose("pose", pose);
  checkVec2("origin", origin);
  checkVec2("direction", direction);
  // Refused as the 3D raycast and the 2D world refuse it (a zero ray has no first hit).
  if (direction.x === 0 && direction.y === 0) {
    invalidValue("direction", [direction.x, direction.y], "must not be the zero vector");
  }
  if (typeof maxToi !== "number" || !(maxToi >= 0)) {
    invalidValue("maxToi", maxToi, "must be a number >= 0 (Infinity allowed)");
  }
  if (typeof solid !== "boolean") invalidValue("solid", solid, "must be a boolean");
  checkOffset2("origin", origin, pose);
  const hit = castRayWorld2(s, pose, origin, direction, maxToi, solid, out);
  if (hit !== null) {
    checkAnswer2("castRay2D", "toi", hit.toi);
    checkAnswer2("castRay2D", "point.x", hit.point.x);
    checkAnswer2("castRay2D", "point.y", hit.point.y);
    checkAnswer2("castRay2D", "normal.x", hit.normal.x);
    checkAnswer2("castRay2D", "normal.y", hit.normal.y);
  }
  return hit;
}

/**
 * {@link castRay2D} without the argument checks (the world's ray casts: shapes, poses and the
 * ray already valid).
 */
export function castRayWorld2(
  shape: Shape2,
  pose: Pose2,
  origin: Vec2,
  direction: Vec2,
  maxToi: number,
  solid: boolean,
  out: RayHit2,
): RayHit2 | null {
  pose2.invTransformPoint(oL, pose, origin);
  rot2.invRotate(dL, pose.q, direction);
  // Exact changes of units (powers of two, see unitScale): the direction to length about 1 (kd),
  // and, far from unit scale, the shape and the origin too (ks), so that the routines' squares
  // neither overflow (a 1e154 direction, a 1e160 circle) nor underflow (a 1e-170 direction). A
  // hit at t' in those units is at t = t' · kd / ks; in the unit range ks = 1 and the answer is
  // bit for bit the unscaled one.
  const kd = unitScale(Math.max(Math.abs(dL.x), Math.abs(dL.y)));
  const ks = pointScale2(shape, oL);
  const dx = dL.x * kd;
  const dy = dL.y * kd;
  const ox = oL.x * ks;
  const oy = oL.y * ks;
  const maxToiS = (maxToi * ks) / kd;
  let t = castLocal(local, shape, ks, ox, oy, dx, dy, maxToiS, false);
  if (t === INSIDE) {
    if (solid) {
      out.toi = 0;
      out.point.x = origin.x;
      out.point.y = origin.y;
      out.normal.x = 0;
      out.normal.y = 0;
      return out;
    }
    if (dx === 0 && dy === 0) return null;
    t = castLocal(local, shape, ks, ox, oy, dx, dy, maxToiS, true);
  }
  if (t < 0) return null;
  const tScale = kd / ks;
  t = tScale > 0 && tScale < Infinity ? t * tScale : (t * kd) / ks;
  // The rounding of the change back may put t a hair past maxToi: it was within it.
  out.toi = Math.min(t, maxToi);
  out.point.x = origin.x + direction.x * out.toi;
  out.point.y = origin.y + direction.y * out.toi;
  rot2.rotate(out.normal, pose.q, { x: local.nx, y: local.ny });
  return out;
}

/**
 * True when the world point is inside (or on) `shape` at `pose`. Throws `CollideError` for an
 * invalid shape, pose or point, or a point whose offset from `pose.p` overflows, with the checks
 * and messages of `projectPoint2D` (src/dim2/check2.ts); a rotation within the tolerance of
 * unit length is used normalised. Far from unit scale the shape and the point are multiplied by
 * the same power of two first (exact, src/dim2/extreme-scale2.ts), as `projectPoint2D` does.
 */
export function containsPoint2D(shape: Shape2, pose: Pose2, point: Vec2): boolean {
  const s = checkedShape2("shape", shape);
  pose = pose2.unitPose(unitP, pose);
  pose2.checkPose("pose", pose);
  checkVec2("point", point);
  checkOffset2("point", point, pose);
  pose2.invTransformPoint(oL, pose, point);
  const k = pointScale2(s, oL);
  if (k === 1) return projectPointLocal2(proj, s, oL.x, oL.y, true).inside;
  return projectPointLocal2(proj, scaledShape2(s, k), oL.x * k, oL.y * k, true).inside;
}
