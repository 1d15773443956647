/**
 * Ray casts against every 2D shape: the first point of `origin + t·direction`, t ∈ [0, maxToi],
 * on the shape, with the outward unit normal there (docs/FORMATS.md `raycast`). `direction`
 * need not be unit; `toi` is in multiples of it. A solid shape hit from inside (boundary
 * included) gives toi 0, the origin and a zero normal; with `solid = false` a ray from inside
 * (boundary included: from the boundary into the interior, the exit, as in 3D) reports where it
 * leaves, with the outward normal there.
 *
 * Per shape (local frame): circle by the quadratic (Ericson 2005, §5.3.2); rectangle by slabs
 * (Kay–Kajiya, §5.3.3); polygon by Cyrus–Beck clipping against its edge half-planes (§5.3.8);
 * capsule as the union of its two end circles and its central rectangle (the first entry into a
 * union is the earliest entry into a member); segment by the 2D line intersection, its normal
 * facing the ray's origin. The exit of a capsule ray from inside is found by casting back from a
 * point beyond the shape.
 */

import { checkOutRecord, invalidValue } from "../errors.js";
import { hypot2, productError, sumError, unitScale } from "../math/scalar.js";
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

const RAY_HIT2_PARTS = ["point", "normal"] as const;

/**
 * Local-frame hit scratch: toi, outward normal and the hit point (px, py), the point in the
 * routine's units (the shape's frame with lengths multiplied by the routine's `ks`), formed from
 * the shape's own geometry (on the circle, on the face or edge line) rather than as
 * origin + t·direction, so that it lies on the boundary to the rounding of the shape's
 * coordinates.
 */
interface LocalHit {
  toi: number;
  nx: number;
  ny: number;
  px: number;
  py: number;
}

const INSIDE = -1;
const MISS = -2;

/**
 * Circle of radius r centred at (cx, cy): entry time from outside, INSIDE when the origin is in
 * the closed disc, or MISS. With `exit`, the exit time instead (origin inside). Solved on the
 * unit direction u = d/|d| as τ² + 2bτ + c = 0 (b = m·u, m = origin − centre, t = τ/|d|), with
 * every product of two lengths avoided or factored so that nothing squares a length (a radius of
 * 1e-200 at a distance 1 squared to 0 and hit the centre with a zero normal), as the 3D
 * `lineBall` (src/geometry/ray-primitives.ts): the centre's offset from the line f = m − b·u
 * (Haines et al., "Precision improvements for ray/sphere intersection", Ray Tracing Gems, 2019,
 * ch. 7), the half chord √(r − |f|)·√(r + |f|), and the root near the origin as
 * c / q = (|m| − r)·((|m| + r) / q) with q = −b + half chord (no cancellation, Ericson 2005,
 * §5.3.2; the product of the roots is c). The hit point is the centre + f ∓ (half chord)·u and
 * the normal that offset over its length: both from the foot f, not from origin + t·d.
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
  const mLen = hypot2(mx, my);
  if (mLen <= r && !exit) return INSIDE;
  const dl = hypot2(dx, dy);
  if (!(dl > 0)) return MISS;
  const ux = dx / dl;
  const uy = dy / dl;
  const b = mx * ux + my * uy;
  if (b > 0 && !exit) return MISS;
  const fx = mx - b * ux;
  const fy = my - b * uy;
  const fLen = hypot2(fx, fy);
  if (fLen > r) return MISS;
  const hc = Math.sqrt(r - fLen) * Math.sqrt(r + fLen);
  let tau: number;
  let side: number;
  if (exit) {
    // The larger root −b + hc; for b > 0 as c over the smaller root (−b − hc), no cancellation.
    const q = -b - hc;
    tau = b > 0 && q < 0 ? (mLen - r) * ((mLen + r) / q) : -b + hc;
    side = 1;
  } else {
    const q = -b + hc;
    tau = q > 0 ? (mLen - r) * ((mLen + r) / q) : -b;
    side = -1;
  }
  if (!(tau > 0)) tau = 0;
  const t = tau / dl;
  if (t > maxToi) return MISS;
  const qx = fx + side * hc * ux;
  const qy = fy + side * hc * uy;
  const len = hypot2(qx, qy);
  hit.nx = len > 0 ? qx / len : 0;
  hit.ny = len > 0 ? qy / len : 0;
  hit.px = cx + qx;
  hit.py = cy + qy;
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
  } else {
    if (!(t0 > -Infinity) || t0 > t1 || t1 < 0 || t0 > maxToi) return MISS;
    hit.toi = Math.max(0, t0);
    hit.nx = n0x;
    hit.ny = n0y;
  }
  // The point on the face: the face's coordinate exactly, the other one clamped to the face.
  const px = ox + dx * hit.toi;
  const py = oy + dy * hit.toi;
  hit.px = hit.nx < 0 ? x0 : hit.nx > 0 ? x1 : Math.min(Math.max(px, x0), x1);
  hit.py = hit.ny < 0 ? y0 : hit.ny > 0 ? y1 : Math.min(Math.max(py, y0), y1);
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
  let e: number;
  if (exit) {
    if (iUp < 0 || upper < 0) return MISS;
    hit.toi = upper;
    e = iUp;
  } else {
    if (iLow < 0 || lower > upper) return MISS;
    hit.toi = lower;
    e = iLow;
  }
  const nx = normals[2 * e];
  const ny = normals[2 * e + 1];
  hit.nx = nx;
  hit.ny = ny;
  // origin + t·d moved onto the edge's line along its normal (the rounding of t removed).
  const px = ox + dx * hit.toi;
  const py = oy + dy * hit.toi;
  const off = nx * (px - verts[2 * e] * ks) + ny * (py - verts[2 * e + 1] * ks);
  hit.px = px - off * nx;
  hit.py = py - off * ny;
  return hit.toi;
}

const sub: LocalHit = { toi: 0, nx: 0, ny: 0, px: 0, py: 0 };

/** dst = src (a local hit). */
function copyHit(dst: LocalHit, src: LocalHit): void {
  dst.toi = src.toi;
  dst.nx = src.nx;
  dst.ny = src.ny;
  dst.px = src.px;
  dst.py = src.py;
}

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
    copyHit(hit, sub);
  }
  const rb = rayCircle(sub, bx, by, r, ox, oy, dx, dy, maxToi, false);
  if (rb === INSIDE) return INSIDE;
  if (rb >= 0 && (best < 0 || rb < best)) {
    best = rb;
    copyHit(hit, sub);
  }
  const ex = bx - ax;
  const ey = by - ay;
  const len = hypot2(ex, ey);
  if (len > 0) {
    // The rectangle's frame: u along the segment, v across it, origin at the midpoint.
    const ux = ex / len;
    const uy = ey / len;
    const cx = 0.5 * ax + 0.5 * bx;
    const cy = 0.5 * ay + 0.5 * by;
    const mx = ox - cx;
    const my = oy - cy;
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
      hit.px = cx + ux * sub.px - uy * sub.py;
      hit.py = cy + uy * sub.px + ux * sub.py;
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
    hit.px = ox;
    hit.py = oy;
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
      hit.px = ox;
      hit.py = oy;
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
    hit.px = t === 0 ? ox : t === ta ? ax : sbx;
    hit.py = t === 0 ? oy : t === ta ? ay : sby;
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
    // origin + t·d moved onto the segment's line along its unit normal (t's rounding removed).
    const qx = ox + dx0 * hit.toi;
    const qy = oy + dy0 * hit.toi;
    const off = nx * (qx - ax) + ny * (qy - ay);
    hit.px = qx - off * nx;
    hit.py = qy - off * ny;
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
  hit.px = t === ta ? ax : sbx;
  hit.py = t === ta ? ay : sby;
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

const local: LocalHit = { toi: 0, nx: 0, ny: 0, px: 0, py: 0 };
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
  checkOutRecord("out", out, RAY_HIT2_PARTS, "a ray hit record (makeRayHit2())");
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

/** A moved ray origin ({@link advanceNearShape2}), world frame. */
const nearO = { x: 0, y: 0 };
/** {@link advanceNearShape2}'s summed move parameter (a register: no boxed double). */
const advanceT = new Float64Array(1);

/**
 * An origin moved by {@link advanceNearShape2} keeps the time left to `maxToi` this much longer
 * (relative to the move): the move's parameter is a rounded double, so a hit at `maxToi` exactly
 * would otherwise be lost to the subtraction's rounding; the toi is clamped to `maxToi` after
 * (as the 3D raycast, src/query/raycast.ts).
 */
const NEAR_TOI_SLACK_2D = 2 ** -50;
/** Slack of a move relative to the origin's L1 distance from the shape's frame origin. */
const ADVANCE_SLACK_2D = 2 ** -48;
/** Most moves: each leaves about 2^-48 of the distance, so 1e300 → 1e-46, 1 → 1e-300. */
const MAX_ADVANCES_2D = 24;
/** A moved origin is moved again only while this many bounding radii before the shape. */
const FAR_ADVANCE_2D = 16;
/**
 * A move is made only while the origin is this many times farther from the shape's frame origin
 * (L1) than the frame origin's largest coordinate plus the bounding radius: the moved origin is
 * rounded at its own coordinates, which must be well below the distance whose rounding the move
 * removes.
 */
const ADVANCE_GAIN_2D = 16;
/** Above it Dekker's split of the move parameter overflows: split t·2^-128 against d·2^128. */
const ADVANCE_SPLIT_MAX_2D = 2 ** 960;

/** Radius of a disc about the shape's frame origin holding the shape (an upper bound). */
function boundingRadius2(shape: Shape2): number {
  const { count, verts, radius } = shape.core;
  let m = 0;
  for (let i = 0; i < count; i++) m = Math.max(m, hypot2(verts[2 * i], verts[2 * i + 1]));
  return m + radius;
}

/**
 * Moves a ray origin far from a shape to just before the shape's bounding disc (centred on
 * `pose.p`, radius r = {@link boundingRadius2}), world frame, the 2D form of the 3D raycast's
 * `advanceNearShape` (src/query/raycast.ts): `nearO` = origin + t·dir for the summed t written to
 * `advanceT[0]` (0: not moved), each coordinate formed exactly (Dekker's product and Knuth's
 * sum, rounded once: `nearO` lies on the given ray to the rounding of its own coordinates, near
 * the shape, not of the origin's), each move stopping 2r + 2^-48·|p − origin|₁ before the ray's
 * closest approach to `pose.p`, so no hit lies before it. Repeated while the origin is still more
 * than 16·r before the shape and 16 times farther from `pose.p` than |pose.p|∞ + r. Without it a
 * ray from 1e16 at a unit circle hit its centre with a zero normal (origin + t·d with t rounded
 * at 1e16, and the line's offset from the centre lost to the origin's rounding), and from 1e20
 * with a 1e-3 direction missed. Allocates nothing.
 */
function advanceNearShape2(shape: Shape2, pose: Pose2, origin: Vec2, dir: Vec2): void {
  advanceT[0] = 0;
  const r = boundingRadius2(shape);
  const c = pose.p;
  const len = hypot2(dir.x, dir.y);
  if (!(r < Infinity) || !(len > 0 && len < Infinity)) return;
  let ox = origin.x;
  let oy = origin.y;
  let total = 0;
  const near = ADVANCE_GAIN_2D * (Math.max(Math.abs(c.x), Math.abs(c.y)) + r);
  for (let i = 0; i < MAX_ADVANCES_2D; i++) {
    const wx = c.x - ox;
    const wy = c.y - oy;
    const w = Math.abs(wx) + Math.abs(wy);
    if (!(w > near)) break;
    let along = (wx * dir.x + wy * dir.y) / len;
    if (!(Math.abs(along) < Infinity)) along = wx * (dir.x / len) + wy * (dir.y / len);
    const ahead = along - 2 * r - ADVANCE_SLACK_2D * w;
    // Once moved, again only while still far (and never for a point shape, r = 0, which each
    // move would approach without end): each move rounds the origin once more.
    if (!(ahead > (i === 0 ? 0 : FAR_ADVANCE_2D * r) && ahead < Infinity)) break;
    if (i > 0 && !(r > 0)) break;
    const t = ahead / len;
    const px = t * dir.x;
    const py = t * dir.y;
    const sx = ox + px;
    const sy = oy + py;
    const big = t > ADVANCE_SPLIT_MAX_2D;
    const ts = big ? t * 2 ** -128 : t;
    const ds = big ? 2 ** 128 : 1;
    const nx = sx + (sumError(ox, px, sx) + productError(ts, dir.x * ds, px));
    const ny = sy + (sumError(oy, py, sy) + productError(ts, dir.y * ds, py));
    if (!(Number.isFinite(nx) && Number.isFinite(ny))) break;
    ox = nx;
    oy = ny;
    total += t;
  }
  if (total === 0) return;
  nearO.x = ox;
  nearO.y = oy;
  advanceT[0] = total;
}

/** Scratch local hit point (shape frame, caller's units). */
const hitL = { x: 0, y: 0 };
/** Scratch local normal. */
const nL = { x: 0, y: 0 };

/**
 * {@link castRay2D} without the argument checks (the world's ray casts: shapes, poses and the
 * ray already valid). From far away the origin is first moved along the ray to just before the
 * shape ({@link advanceNearShape2}); the local routine's hit point (on the shape's boundary, in
 * its frame) is taken to the world by the pose, and toi = the move + the local time.
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
  advanceNearShape2(shape, pose, origin, direction);
  const t0 = advanceT[0];
  if (t0 > 0 && !(t0 <= maxToi)) return null;
  const hit = castRayFrom2(shape, pose, origin, direction, maxToi, solid, out, t0);
  // The moved origin is before the shape by construction; should its rounding still put it
  // inside, the ray is answered from the caller's origin.
  if (hit === undefined)
    return castRayFrom2(shape, pose, origin, direction, maxToi, solid, out, 0) ?? null;
  return hit;
}

/**
 * {@link castRayWorld2} from the origin moved by t0 (`nearO`) when t0 > 0, else from `origin`:
 * the hit, null on a miss, undefined when a moved origin came out inside the shape.
 */
function castRayFrom2(
  shape: Shape2,
  pose: Pose2,
  origin: Vec2,
  direction: Vec2,
  maxToi: number,
  solid: boolean,
  out: RayHit2,
  t0: number,
): RayHit2 | null | undefined {
  pose2.invTransformPoint(oL, pose, t0 > 0 ? nearO : origin);
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
  const maxLeft = t0 > 0 ? maxToi - t0 + t0 * NEAR_TOI_SLACK_2D : maxToi;
  const maxToiS = (maxLeft * ks) / kd;
  let t = castLocal(local, shape, ks, ox, oy, dx, dy, maxToiS, false);
  if (t === INSIDE && t0 > 0) return undefined;
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
  const toi = Math.min(t0 > 0 ? t0 + t : t, maxToi);
  if (!Number.isFinite(toi)) return null;
  out.toi = toi;
  if (t === 0 && t0 === 0) {
    // At the origin itself (leaving from the boundary): the caller's point, unrounded.
    out.point.x = origin.x;
    out.point.y = origin.y;
  } else {
    const u = 1 / ks;
    hitL.x = ks === 1 ? local.px : local.px * u;
    hitL.y = ks === 1 ? local.py : local.py * u;
    pose2.transformPoint(out.point, pose, hitL);
  }
  nL.x = local.nx;
  nL.y = local.ny;
  rot2.rotate(out.normal, pose.q, nL);
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
