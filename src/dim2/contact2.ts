/**
 * 2D narrow phase: one contact (signed distance, unit normal from A toward B, witness points) per
 * shape pair, by specialised routines chosen through one dispatch table with an automatic flip
 * for the mirrored order (Box2D v3's `b2Collide*` table; parry's pair files):
 *
 * - circle–circle: centre distance;
 * - circle–rect (axis-aligned or oriented): the circle's centre clamped into the rectangle's
 *   frame, which separates the nine Voronoi regions (4 corners, 4 edges, interior); a centre
 *   inside (or on an edge) is pushed out through the nearest edge, never with a zero normal
 *   (Ericson 2005, §5.2.5);
 * - rect–rect with the same orientation: interval overlap on the two shared axes;
 * - rect–rect rotated: SAT on the 4 edge normals (2 per rectangle; Ericson 2005, §4.4.1);
 * - any pair of polygon cores (rect, polygon): SAT on all edge normals, whose largest separation
 *   is, when the polygons overlap, the minimum translation vector (the edges of the Minkowski
 *   difference A − B are the edges of A and of B, so the deepest penetration is along one of
 *   their normals);
 * - everything else (capsules, segments, circle–polygon, separated polygons): whether the cores
 *   share a point decided exactly (orient2d), the distance of apart cores in closed form from
 *   their closest vertex–edge pair (`contactCores`; 2D GJK only outside the exact predicates'
 *   range) — its sign exact for rounded cores within the rounding of a touch (`coresTouchGap`),
 *   as circle–circle's and circle–rect's corner gaps —, and, when the cores meet, SAT on the cores' edge normals for the penetration —
 *   exact in 2D, so no EPA is needed: for a point inside a convex polygon the distance to the
 *   boundary of the polygon inflated by r is the distance to the nearest edge line plus r.
 *
 * Pair routines work in A's frame with B's pose in A's frame (`bInA`); the public functions at
 * the bottom (`contact2D`, `intersects2D`, `distance2D`) take world poses and answer in the world
 * frame. Exact queries use no slop: touching (distance 0) is intersecting.
 */

import {
  EXACT_TOUCH_BAND,
  SAT_AXIS_TIE_DEPTH_TOLERANCE,
  SAT_AXIS_TIE_ROUNDING,
  SAT_AXIS_TIE_TOLERANCE,
} from "../constants.js";
import { checkOutRecord, invalidValue } from "../errors.js";
import {
  orient2dIo,
  orient2dSignIo,
  pointSegmentReachSignIo,
  REACH_UNDECIDED,
  reachIo,
} from "../geometry/exact-predicates.js";
import { checkAnswer2, checkedShape2, checkPair2 } from "./check2.js";
import { makeWorkCore, transformCore, viewCore, type WorkCore2 } from "./core2.js";
import { pairScale2, scaledShape2 } from "./extreme-scale2.js";
import { gjkDistance2, makeGjkOutput2 } from "./gjk2.js";
import type { Pose2 } from "./pose2.js";
import * as pose2 from "./pose2.js";
import * as rot2 from "./rot2.js";
import type { Circle2, Rect2, Shape2 } from "./shapes.js";
import { rectCorners2, ShapeType2 } from "./shapes.js";
import type { Vec2 } from "./vec2.js";

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitA = pose2.identity();
const unitB = pose2.identity();

/**
 * One contact: `distance` signed (positive gap, negative penetration; depth = max(0, −distance)),
 * `normal` unit from A toward B, `pointA` on A's surface and `pointB` on B's, with
 * pointB − pointA = distance · normal. Frame as stated by the producing function.
 */
export interface Contact2 {
  distance: number;
  normal: Vec2;
  pointA: Vec2;
  pointB: Vec2;
}

/** A new contact record (allocates). */
export function makeContact2(): Contact2 {
  return { distance: 0, normal: { x: 1, y: 0 }, pointA: { x: 0, y: 0 }, pointB: { x: 0, y: 0 } };
}

const CONTACT2_PARTS = ["normal", "pointA", "pointB"] as const;

/** [2] = the length of the vector ([0], [1]), by {@link lengthOfIo}. */
const lenIo = new Float64Array(3);

/**
 * lenIo[2] = |(lenIo[0], lenIo[1])| without overflow or underflow, `hypot2` (src/math/scalar.ts)
 * bit for bit: through the array, so that no double crosses the call (returned from a call V8
 * does not inline, one is boxed).
 */
function lengthOfIo(): void {
  const x = lenIo[0];
  const y = lenIo[1];
  const s = x * x + y * y;
  if (s > 1e-290 && s < 1e290) {
    lenIo[2] = Math.sqrt(s);
    return;
  }
  const m = Math.max(Math.abs(x), Math.abs(y));
  if (m === 0 || !Number.isFinite(m)) {
    lenIo[2] = m;
    return;
  }
  const a = x / m;
  const b = y / m;
  lenIo[2] = m * Math.sqrt(a * a + b * b);
}

/**
 * The contact written by {@link setContact}: [0] distance, [1], [2] normal, [3], [4] pointA,
 * [5], [6] pointB. The routines pass its doubles through this array, not as arguments: V8 boxes
 * (allocates) a double passed to a call it does not inline, and which calls it inlines depends on
 * its budget and on when its background compiler runs (session 31: 3.4 KB per 2D world step
 * under CI's load, 29 B on an idle machine).
 */
const contactIo = new Float64Array(7);

/** `out` = the contact in {@link contactIo}. Returns true. */
function setContact(out: Contact2): true {
  out.distance = contactIo[0];
  out.normal.x = contactIo[1];
  out.normal.y = contactIo[2];
  out.pointA.x = contactIo[3];
  out.pointA.y = contactIo[4];
  out.pointB.x = contactIo[5];
  out.pointB.y = contactIo[6];
  return true;
}

/** Circle A at the origin, circle B at bInA.p (A's frame). Returns false when the gap > prediction. */
export function contactCircleCircle(
  out: Contact2,
  a: Circle2,
  b: Circle2,
  bInA: Pose2,
  prediction: number,
): boolean {
  const cx = bInA.p.x;
  const cy = bInA.p.y;
  lenIo[0] = cx;
  lenIo[1] = cy;
  lengthOfIo();
  const d = lenIo[2];
  let gap = d - a.radius - b.radius;
  // Within the rounding of a touch: the sign of the gap decided exactly (|c|² against r²).
  if (Math.abs(gap) <= EXACT_TOUCH_BAND * (d + a.radius + b.radius)) {
    const io = reachIo;
    io[0] = 0;
    io[1] = 0;
    io[2] = 0;
    io[3] = 0;
    io[4] = cx;
    io[5] = cy;
    io[6] = a.radius;
    io[7] = b.radius;
    gapIo[0] = gap;
    exactGapSign(pointSegmentReachSignIo());
    gap = gapIo[0];
  }
  if (gap > prediction) return false;
  // Coincident centres: any direction is a minimum translation; +x is the documented choice.
  const nx = d > 0 ? cx / d : 1;
  const ny = d > 0 ? cy / d : 0;
  contactIo[0] = gap;
  contactIo[1] = nx;
  contactIo[2] = ny;
  contactIo[3] = a.radius * nx;
  contactIo[4] = a.radius * ny;
  contactIo[5] = cx - b.radius * nx;
  contactIo[6] = cy - b.radius * ny;
  return setContact(out);
}

const cInB = { x: 0, y: 0 };
const tmp = { x: 0, y: 0 };
/** Scratch of {@link contactCircleRect}: the origin, and the normal and point in B's frame. */
const origin = { x: 0, y: 0 };
const nInB = { x: 0, y: 0 };
const pInB = { x: 0, y: 0 };

/** Scratch corners [x0, y0, x1, y1] of the rectangles of a pair (rectCorners2). */
const cornersA = new Float64Array(4);
const cornersB = new Float64Array(4);

/**
 * Circle A (at A's origin) against rectangle B by clamping the centre into B's frame (nine
 * Voronoi regions; centre inside or on an edge → nearest edge, ties to the +x edge, then +y).
 * B's faces are its exact corners (an off-centre rectangle's too). A's frame.
 */
export function contactCircleRect(
  out: Contact2,
  a: Circle2,
  b: Rect2,
  bInA: Pose2,
  prediction: number,
): boolean {
  pose2.invTransformPoint(cInB, bInA, origin);
  const cx = cInB.x;
  const cy = cInB.y;
  const k = rectCorners2(cornersB, b);
  const x0 = k[0];
  const y0 = k[1];
  const x1 = k[2];
  const y1 = k[3];
  const r = a.radius;
  const qx = Math.max(x0, Math.min(x1, cx));
  const qy = Math.max(y0, Math.min(y1, cy));
  let distance: number;
  let nx: number; // normal from A toward B, B's frame
  let ny: number;
  let bx: number; // point on B's surface, B's frame
  let by: number;
  if (qx !== cx || qy !== cy) {
    const dx = cx - qx;
    const dy = cy - qy;
    lenIo[0] = dx;
    lenIo[1] = dy;
    lengthOfIo();
    const d = lenIo[2];
    distance = d - r;
    // Within the rounding of a touch: the sign decided exactly (|c − q|² against r², B's frame).
    const m = Math.max(Math.abs(cx), Math.abs(cy), Math.abs(qx), Math.abs(qy));
    if (Math.abs(distance) <= EXACT_TOUCH_BAND * (m + r)) {
      const io = reachIo;
      io[0] = qx;
      io[1] = qy;
      io[2] = qx;
      io[3] = qy;
      io[4] = cx;
      io[5] = cy;
      io[6] = r;
      io[7] = 0;
      gapIo[0] = distance;
      exactGapSign(pointSegmentReachSignIo());
      distance = gapIo[0];
    }
    if (distance > prediction) return false;
    nx = -dx / d;
    ny = -dy / d;
    bx = qx;
    by = qy;
  } else {
    // The depth to the nearer face on each axis (the +x, +y face on a tie).
    const sx = x1 - cx <= cx - x0 ? 1 : -1;
    const sy = y1 - cy <= cy - y0 ? 1 : -1;
    const ex = sx > 0 ? x1 - cx : cx - x0;
    const ey = sy > 0 ? y1 - cy : cy - y0;
    if (ex <= ey) {
      distance = -(ex + r);
      nx = -sx;
      ny = 0;
      bx = sx > 0 ? x1 : x0;
      by = cy;
    } else {
      distance = -(ey + r);
      nx = 0;
      ny = -sy;
      bx = cx;
      by = sy > 0 ? y1 : y0;
    }
  }
  // Back to A's frame.
  nInB.x = nx;
  nInB.y = ny;
  rot2.rotate(tmp, bInA.q, nInB);
  const nAx = tmp.x;
  const nAy = tmp.y;
  pInB.x = bx;
  pInB.y = by;
  pose2.transformPoint(tmp, bInA, pInB);
  contactIo[0] = distance;
  contactIo[1] = nAx;
  contactIo[2] = nAy;
  contactIo[3] = r * nAx;
  contactIo[4] = r * nAy;
  contactIo[5] = tmp.x;
  contactIo[6] = tmp.y;
  return setContact(out);
}

const work = { b: makeWorkCore(), view: makeWorkCore() };

/**
 * Rectangle A against rectangle B (A's frame): interval overlap on the shared axes when B has
 * exactly A's orientation, on the exact corners (B's moved by its offset; far from the origin
 * both frames' corners are exact, so touching faces touch); rotated ones as two polygons (the
 * general routine) past a SAT reject on the 4 edge normals.
 */
export function contactRectRect(
  out: Contact2,
  a: Rect2,
  b: Rect2,
  bInA: Pose2,
  prediction: number,
): boolean {
  const cx = bInA.p.x;
  const cy = bInA.p.y;
  if (rot2.isIdentity(bInA.q)) {
    const ka = rectCorners2(cornersA, a);
    const kb = rectCorners2(cornersB, b);
    const ax0 = ka[0];
    const ay0 = ka[1];
    const ax1 = ka[2];
    const ay1 = ka[3];
    const bx0 = kb[0] + cx;
    const by0 = kb[1] + cy;
    const bx1 = kb[2] + cx;
    const by1 = kb[3] + cy;
    // Overlap on each axis toward the side of B's smaller one (+ on a tie); negative: a gap.
    const px = ax1 - bx0;
    const nxo = bx1 - ax0;
    const py = ay1 - by0;
    const nyo = by1 - ay0;
    const sx = px <= nxo ? 1 : -1;
    const sy = py <= nyo ? 1 : -1;
    const ox = sx > 0 ? px : nxo;
    const oy = sy > 0 ? py : nyo;
    const fax = sx > 0 ? ax1 : ax0;
    const fay = sy > 0 ? ay1 : ay0;
    const fbx = sx > 0 ? bx0 : bx1;
    const fby = sy > 0 ? by0 : by1;
    if (ox < 0 && oy < 0) {
      const gx = -ox;
      const gy = -oy;
      lenIo[0] = gx;
      lenIo[1] = gy;
      lengthOfIo();
      const d = lenIo[2];
      if (d > prediction) return false;
      contactIo[0] = d;
      contactIo[1] = (sx * gx) / d;
      contactIo[2] = (sy * gy) / d;
      contactIo[3] = fax;
      contactIo[4] = fay;
      contactIo[5] = fbx;
      contactIo[6] = fby;
      return setContact(out);
    }
    // Separation (or least overlap) along x when y overlaps, or when x is the shallower overlap.
    const alongX = oy >= 0 && (ox < 0 || ox <= oy);
    if (alongX) {
      if (-ox > prediction) return false;
      const lo = Math.max(ay0, by0);
      const hi = Math.min(ay1, by1);
      const ym = 0.5 * lo + 0.5 * hi;
      contactIo[0] = -ox;
      contactIo[1] = sx;
      contactIo[2] = 0;
      contactIo[3] = fax;
      contactIo[4] = ym;
      contactIo[5] = fbx;
      contactIo[6] = ym;
      return setContact(out);
    }
    if (-oy > prediction) return false;
    const lo = Math.max(ax0, bx0);
    const hi = Math.min(ax1, bx1);
    const xm = 0.5 * lo + 0.5 * hi;
    contactIo[0] = -oy;
    contactIo[1] = 0;
    contactIo[2] = sy;
    contactIo[3] = xm;
    contactIo[4] = fay;
    contactIo[5] = xm;
    contactIo[6] = fby;
    return setContact(out);
  }
  // Rotated: the SAT's largest separation on A's axes (1,0), (0,1) and B's u = q·(1,0),
  // v = q·(0,1), a lower bound of the gap, rejects; the rest as any two polygons (overlapping:
  // witnesses on both support features, the same in either order, penetrationFromSat). The
  // centres' offset d = c_B − c_A, with the half extents rounded up over the corners.
  const hax = a.halfExtents.x;
  const hay = a.halfExtents.y;
  const hbx = b.halfExtents.x;
  const hby = b.halfExtents.y;
  const uc = bInA.q.c;
  const us = bInA.q.s;
  const dx = cx + (uc * b.center.x - us * b.center.y) - a.center.x;
  const dy = cy + (us * b.center.x + uc * b.center.y) - a.center.y;
  const acx = Math.abs(uc);
  const acs = Math.abs(us);
  const sA0 = Math.abs(dx) - hax - (hbx * acx + hby * acs);
  const sA1 = Math.abs(dy) - hay - (hbx * acs + hby * acx);
  const sB0 = Math.abs(uc * dx + us * dy) - hbx - (hax * acx + hay * acs);
  const sB1 = Math.abs(-us * dx + uc * dy) - hby - (hax * acs + hay * acx);
  if (Math.max(sA0, sA1, sB0, sB1) > prediction) return false;
  return contactGeneral(out, a, b, bInA, prediction);
}

/** Largest-separation edge found by {@link maxSeparation}. */
interface SatResult {
  separation: number;
  edge: number;
  vertex: number;
}

const satA: SatResult = { separation: 0, edge: -1, vertex: 0 };
const satB: SatResult = { separation: 0, edge: -1, vertex: 0 };

/**
 * SAT over the edge normals of core P against the vertices of core Q (same frame): the largest
 * over P's edges of min over Q's vertices of n·(q − p); `edge` = −1 when P has no edges (one
 * vertex). Ericson 2005, §5.2.1; Box2D's `b2FindMaxSeparation`.
 */
function maxSeparation(out: SatResult, p: WorkCore2, q: WorkCore2): SatResult {
  out.separation = -Infinity;
  out.edge = -1;
  out.vertex = 0;
  if (p.count < 2) return out;
  const pv = p.verts;
  const pn = p.normals;
  const qv = q.verts;
  for (let i = 0; i < p.count; i++) {
    const nx = pn[2 * i];
    const ny = pn[2 * i + 1];
    const vx = pv[2 * i];
    const vy = pv[2 * i + 1];
    let si = Infinity;
    let vi = 0;
    for (let j = 0; j < q.count; j++) {
      const d = nx * (qv[2 * j] - vx) + ny * (qv[2 * j + 1] - vy);
      if (d < si) {
        si = d;
        vi = j;
      }
    }
    if (si > out.separation) {
      out.separation = si;
      out.edge = i;
      out.vertex = vi;
    }
  }
  return out;
}

/** [0]: written by {@link satScaleInto} (no double returned from a call). */
const scaleIo = new Float64Array(1);

/**
 * scaleIo[0] = the magnitude of the points that give the two SAT separations in `satA`/`satB`
 * (the edge's first vertex and the other core's deepest vertex, for each): the scale of their
 * rounding, in O(1) (the cores' whole size cost 20 % of a polygon contact).
 */
function satScaleInto(ca: WorkCore2, cb: WorkCore2): void {
  let m = 0;
  if (satA.edge >= 0) {
    const e = 2 * satA.edge;
    const v = 2 * satA.vertex;
    m = Math.max(
      Math.abs(ca.verts[e]),
      Math.abs(ca.verts[e + 1]),
      Math.abs(cb.verts[v]),
      Math.abs(cb.verts[v + 1]),
    );
  }
  if (satB.edge >= 0) {
    const e = 2 * satB.edge;
    const v = 2 * satB.vertex;
    m = Math.max(
      m,
      Math.abs(cb.verts[e]),
      Math.abs(cb.verts[e + 1]),
      Math.abs(ca.verts[v]),
      Math.abs(ca.verts[v + 1]),
    );
  }
  scaleIo[0] = m;
}

/**
 * Penetration contact of two overlapping (or touching) cores from the SAT results already in
 * `satA`/`satB`: the axis of largest separation (tied axes by their normal, `normalRanksFirst`; the
 * witnesses from both support features, `witnessesOnSupports`), its separation clamped to ≤ 0
 * unless `keepGap` (the cores are within GJK's tolerance, and a positive separation is their gap).
 */
function penetrationFromSat(out: Contact2, ca: WorkCore2, cb: WorkCore2, keepGap = false): true {
  const rA = ca.radius;
  const rB = cb.radius;
  // The tie, symmetric in A and B (session 23: relative to A's size alone, a corner nearly on a
  // corner took A's axis 3.9 times the least depth deep in one order only): a tenth of the depth
  // bar, at least the separations' rounding, at most SAT_AXIS_TIE_TOLERANCE of the size, as the
  // box–box SAT ties (src/narrowphase/cuboid-cuboid.ts).
  satScaleInto(ca, cb);
  const size = scaleIo[0];
  const best = Math.max(satA.separation, satB.separation);
  const tie = Math.min(
    SAT_AXIS_TIE_TOLERANCE * size,
    Math.max(
      SAT_AXIS_TIE_ROUNDING * Number.EPSILON * size,
      SAT_AXIS_TIE_DEPTH_TOLERANCE * Math.abs(best),
    ),
  );
  let useB = false;
  if (satA.edge < 0 && satB.edge < 0) {
    // Two coincident points: any direction is a minimum translation; +x is the documented choice.
    const ax = ca.verts[0];
    const ay = ca.verts[1];
    contactIo[0] = -rA - rB;
    contactIo[1] = 1;
    contactIo[2] = 0;
    contactIo[3] = ax + rA;
    contactIo[4] = ay;
    contactIo[5] = cb.verts[0] - rB;
    contactIo[6] = cb.verts[1];
    return setContact(out);
  }
  if (satA.edge < 0) useB = true;
  else if (satB.edge >= 0) {
    // Within the tie, the axis chosen by its normal alone (oriented from A toward B): the same
    // axis in either order, where "ties favour A" took A's in one order and B's in the other.
    const d = satB.separation - satA.separation;
    if (d > tie) useB = true;
    else if (d >= -tie) {
      witnessIo[0] = -cb.normals[2 * satB.edge];
      witnessIo[1] = -cb.normals[2 * satB.edge + 1];
      witnessIo[2] = ca.normals[2 * satA.edge];
      witnessIo[3] = ca.normals[2 * satA.edge + 1];
      useB = normalRanksFirst();
    }
  }
  const sat = useB ? satB : satA;
  const s = keepGap ? sat.separation : Math.min(sat.separation, 0);
  const g = useB ? -1 : 1;
  const cn = useB ? cb.normals : ca.normals;
  witnessIo[0] = g * cn[2 * sat.edge];
  witnessIo[1] = g * cn[2 * sat.edge + 1];
  witnessIo[2] = s - rA - rB;
  witnessIo[3] = tie;
  return witnessesOnSupports(out, ca, cb);
}

/**
 * True when unit normal u = (witnessIo[0], [1]) comes before v = ([2], [3]) in an order that
 * negating both keeps: larger |x|, then larger |y|, then a positive x·y. Two axes tied in depth
 * are chosen by it, so contact(B, A) takes the axis contact(A, B) takes (its normals are the
 * negated ones). No double crosses the call (V8 boxes one passed to a call it does not inline).
 */
function normalRanksFirst(): boolean {
  const ux = witnessIo[0];
  const uy = witnessIo[1];
  const vx = witnessIo[2];
  const vy = witnessIo[3];
  const ax = Math.abs(ux);
  const bx = Math.abs(vx);
  if (ax !== bx) return ax > bx;
  const ay = Math.abs(uy);
  const by = Math.abs(vy);
  if (ay !== by) return ay > by;
  return ux * uy > 0 && !(vx * vy > 0);
}

/**
 * The witnesses of the contact of cores `ca`, `cb` (one frame) along unit normal n = (nx, ny)
 * from A toward B at signed `distance` (nx, ny, distance, tie in witnessIo[0..3]): A's support feature along n (its vertices within `tie`,
 * the axes' tie, or the SAT's rounding of the most extreme: a vertex or an edge; an axis chosen
 * within the tie of another, 1e-14 off parallel to a 4-unit face, still finds that face) and
 * B's along −n, taken as intervals
 * of the tangent (−ny, nx); the points are those features' points at the middle of the two
 * intervals' common part (the middle of the gap between them, each clamped to its feature, when
 * rounding leaves none), moved out by the radii. So both lie on their shapes (B's deepest
 * corner, taken before, lay off A's face when B is the larger: 31 units off a rect of 0.25) and,
 * the interval and its middle being the same read from either side, contact(B, A) gives the same
 * points swapped. Returns true.
 */
function witnessesOnSupports(out: Contact2, ca: WorkCore2, cb: WorkCore2): true {
  const nx = witnessIo[0];
  const ny = witnessIo[1];
  const distance = witnessIo[2];
  supportFeature(supA, ca, 1);
  supportFeature(supB, cb, -1);
  // B's tangent runs the other way (its normal is −n): its interval is [−t1, −t0] on A's.
  const lo = Math.max(supA[0], -supB[1]);
  const hi = Math.min(supA[1], -supB[0]);
  const t = 0.5 * lo + 0.5 * hi;
  witnessIo[4] = t;
  pointOnFeature(ptA, ca, supA);
  witnessIo[4] = -t;
  pointOnFeature(ptB, cb, supB);
  const rA = ca.radius;
  const rB = cb.radius;
  contactIo[0] = distance;
  contactIo[1] = nx;
  contactIo[2] = ny;
  contactIo[3] = ptA[0] + rA * nx;
  contactIo[4] = ptA[1] + rA * ny;
  contactIo[5] = ptB[0] - rB * nx;
  contactIo[6] = ptB[1] - rB * ny;
  return setContact(out);
}

/**
 * A core's support feature along unit `sign`·(witnessIo[0], [1]) = (nx, ny) into `f`: [0] t0,
 * [1] t1 the tangent interval (tangent (−ny, nx)) of the vertices within witnessIo[3] or the
 * SAT's rounding (SAT_AXIS_TIE_ROUNDING ulps of their magnitude) of the largest n·v, [2], [3]
 * the indices of the vertices at t0 and t1, [4] that largest n·v, [5], [6] n.
 */
function supportFeature(f: Float64Array, c: WorkCore2, sign: number): void {
  const nx = sign * witnessIo[0];
  const ny = sign * witnessIo[1];
  const v = c.verts;
  let best = -Infinity;
  let m = 0;
  for (let i = 0; i < c.count; i++) {
    const x = v[2 * i];
    const y = v[2 * i + 1];
    const d = nx * x + ny * y;
    if (d > best) best = d;
    m = Math.max(m, Math.abs(x), Math.abs(y));
  }
  const tol = Math.max(witnessIo[3], SAT_AXIS_TIE_ROUNDING * Number.EPSILON * m);
  f[4] = best;
  f[5] = nx;
  f[6] = ny;
  f[0] = Infinity;
  f[1] = -Infinity;
  for (let i = 0; i < c.count; i++) {
    const x = v[2 * i];
    const y = v[2 * i + 1];
    if (!(nx * x + ny * y >= best - tol)) continue;
    const t = nx * y - ny * x;
    if (t < f[0]) {
      f[0] = t;
      f[2] = i;
    }
    if (t > f[1]) {
      f[1] = t;
      f[3] = i;
    }
  }
}

/**
 * The point of support feature `f` of core `c` at tangent t = witnessIo[4] into `p`: its vertex
 * at an end (t outside the interval, or a feature of one vertex), else the point of the
 * support line at t (level·n + t·tangent: no parameter along the edge, which rounds to an end
 * when t is small against the edge, a unit circle on a 1e200 square).
 */
function pointOnFeature(p: Float64Array, c: WorkCore2, f: Float64Array): void {
  const t = witnessIo[4];
  const v = c.verts;
  const i = f[2];
  const j = f[3];
  if (i === j || !(t > f[0])) {
    p[0] = v[2 * i];
    p[1] = v[2 * i + 1];
  } else if (!(t < f[1])) {
    p[0] = v[2 * j];
    p[1] = v[2 * j + 1];
  } else {
    const nx = f[5];
    const ny = f[6];
    p[0] = f[4] * nx - t * ny;
    p[1] = f[4] * ny + t * nx;
  }
}

/** Scratch of {@link witnessesOnSupports}: the two support features and the two points. */
const supA = new Float64Array(7);
const supB = new Float64Array(7);
const ptA = new Float64Array(2);
const ptB = new Float64Array(2);
/**
 * The doubles of the witness helpers, kept out of their calls: [0], [1] the normal, [2] the
 * distance, [3] the tie (the grouping tolerance), [4] a tangent coordinate.
 */
const witnessIo = new Float64Array(5);

const gjkOut = makeGjkOutput2();

/**
 * Contact of two cores in one frame (A's), decided exactly where the cores' coordinates allow
 * (within the exact predicates' range, 2^±300): whether the cores share a point by orient2d on
 * their coordinates (Shewchuk 1997; {@link coresMeet}), past a floating-point filter — a deep
 * SAT overlap of two polygons, or the closest features' direction separating every vertex by
 * more than its rounding ({@link separatedAlongFeatures}). Cores apart: the distance and the
 * witnesses of their closest features in closed form ({@link closestCoreFeatures}: a vertex
 * against an edge, the offset taken from the edge's nearer end, so a gap is resolved to the
 * rounding of the smaller shape and not of the larger), less the radii. Cores meeting: the SAT's
 * minimum translation vector (exact in 2D: the edges of the Minkowski difference are the cores'
 * edges). Outside the exact range, 2D GJK and the SAT with relative tolerances
 * ({@link contactCoresFloat}). Returns false when the gap exceeds `prediction`.
 */
export function contactCores(
  out: Contact2,
  ca: WorkCore2,
  cb: WorkCore2,
  prediction: number,
): boolean {
  if (!(exactRange2(ca) && exactRange2(cb))) return contactCoresFloat(out, ca, cb, prediction);
  const r = ca.radius + cb.radius;
  let satDone = false;
  let apart = false;
  if (ca.count >= 3 && cb.count >= 3) {
    maxSeparation(satA, ca, cb);
    maxSeparation(satB, cb, ca);
    satDone = true;
    const s = Math.max(satA.separation, satB.separation);
    // Past the band, far beyond the separations' rounding, the SAT decides: a lower bound of
    // the distance, or an overlap.
    satScaleInto(ca, cb);
    const band = EXACT_TOUCH_BAND * scaleIo[0];
    if (s - band - r > prediction) return false;
    if (s < -band) return penetrationFromSat(out, ca, cb);
    apart = s > band;
  }
  closestCoreFeatures(ca, cb);
  if (!apart) apart = separatedAlongFeatures(ca, cb) || !coresMeet(ca, cb);
  if (apart) {
    // Exactly apart: a distance that rounds to 0 is still a gap (the least double).
    const d = featIo[0] > 0 ? featIo[0] : Number.MIN_VALUE;
    let gap = d - r;
    // Rounded cores within the rounding of a touch: the sign of the gap decided exactly.
    if (r > 0) {
      gapIo[0] = gap;
      coresTouchGap(ca, cb);
      gap = gapIo[0];
    }
    if (gap > prediction) return false;
    const nx = featIo[1];
    const ny = featIo[2];
    contactIo[0] = gap;
    contactIo[1] = nx;
    contactIo[2] = ny;
    contactIo[3] = featIo[3] + ca.radius * nx;
    contactIo[4] = featIo[4] + ca.radius * ny;
    contactIo[5] = featIo[5] - cb.radius * nx;
    contactIo[6] = featIo[6] - cb.radius * ny;
    return setContact(out);
  }
  if (!satDone) {
    maxSeparation(satA, ca, cb);
    maxSeparation(satB, cb, ca);
  }
  return penetrationFromSat(out, ca, cb);
}

/**
 * The rounded gap in {@link gapIo} given the sign `sign` decided exactly: 0 for a touch, the
 * least double of the exact sign where the rounded gap has the other sign or is 0; kept when it
 * already has that sign, or when the sign is undecided ({@link REACH_UNDECIDED}). (The gap goes
 * through the array, not as an argument: a double passed to a call V8 does not inline is boxed.)
 */
function exactGapSign(sign: number): void {
  const gap = gapIo[0];
  if (sign === 0) gapIo[0] = 0;
  else if (sign < 0) gapIo[0] = gap < 0 ? gap : -Number.MIN_VALUE;
  else if (sign === 1) gapIo[0] = gap > 0 ? gap : Number.MIN_VALUE;
}

/** The gap of {@link exactGapSign} and {@link coresTouchGap}, in and out. */
const gapIo = new Float64Array(1);

/**
 * The rounded gap in {@link gapIo} of cores `ca`, `cb` that do not meet, with radii, decided
 * exactly when it lies within `EXACT_TOUCH_BAND` of the cores' largest coordinate plus the radii
 * — far above its rounding (a few ε of that magnitude: the closed-form distance's offsets, the
 * edge normals' rounding, the radii's sum): by {@link coresReachSign}.
 */
function coresTouchGap(ca: WorkCore2, cb: WorkCore2): void {
  let m = ca.radius + cb.radius;
  let c = 0;
  for (let i = 0; i < 2 * ca.count; i++) c = Math.max(c, Math.abs(ca.verts[i]));
  for (let i = 0; i < 2 * cb.count; i++) c = Math.max(c, Math.abs(cb.verts[i]));
  m += c;
  if (Math.abs(gapIo[0]) <= EXACT_TOUCH_BAND * m) exactGapSign(coresReachSign(ca, cb));
}

/**
 * Sign, exact on the cores' coordinates and radii as given (one frame), of the distance of two
 * cores that do not meet less the sum of their radii: −1 overlapping, 0 touching, +1 apart, or
 * {@link REACH_UNDECIDED} when an input lies outside the predicate's range (2^±200) and no pair
 * overlaps. Two convex polygons apart are nearest at a vertex of one against an edge (or vertex)
 * of the other (Ericson 2005, §5.1.9), so every vertex–edge pair is tested
 * (`pointSegmentReachSignIo`, src/geometry/exact-predicates.ts), a point–point pair when neither
 * core has an edge. Allocates nothing.
 */
function coresReachSign(ca: WorkCore2, cb: WorkCore2): number {
  reachIo[6] = ca.radius;
  reachIo[7] = cb.radius;
  if (ca.count === 1 && cb.count === 1) return reachPair(ca, 0, 0, cb, 0);
  let sign = 1;
  const ea = ca.count === 2 ? 1 : ca.count === 1 ? 0 : ca.count;
  const eb = cb.count === 2 ? 1 : cb.count === 1 ? 0 : cb.count;
  for (let i = 0; i < ea; i++) {
    const j = i + 1 === ca.count ? 0 : i + 1;
    for (let k = 0; k < cb.count; k++) {
      const s = reachPair(ca, i, j, cb, k);
      if (s < 0) return s;
      if (s === REACH_UNDECIDED) sign = s;
      else if (sign !== REACH_UNDECIDED && s < sign) sign = s;
    }
  }
  for (let i = 0; i < eb; i++) {
    const j = i + 1 === cb.count ? 0 : i + 1;
    for (let k = 0; k < ca.count; k++) {
      const s = reachPair(cb, i, j, ca, k);
      if (s < 0) return s;
      if (s === REACH_UNDECIDED) sign = s;
      else if (sign !== REACH_UNDECIDED && s < sign) sign = s;
    }
  }
  return sign;
}

/** The exact reach sign of vertex k of `pc` against the edge from vertex i to j of `ec`. */
function reachPair(ec: WorkCore2, i: number, j: number, pc: WorkCore2, k: number): number {
  const io = reachIo;
  io[0] = ec.verts[2 * i];
  io[1] = ec.verts[2 * i + 1];
  io[2] = ec.verts[2 * j];
  io[3] = ec.verts[2 * j + 1];
  io[4] = pc.verts[2 * k];
  io[5] = pc.verts[2 * k + 1];
  return pointSegmentReachSignIo();
}

/**
 * The closest features of cores `ca`, `cb` (one frame), as if apart, into {@link featIo}: the
 * least over A's vertices against B's edges and B's vertices against A's edges (two convex
 * polygons apart are closest at a vertex of one; Ericson 2005, §5.1.9), or the two points when
 * neither has an edge. Each vertex–edge distance is taken from the edge's nearer end — past an
 * end, that end; beside the edge, the offset along the edge's unit normal — so its rounding is
 * that of the vertex's offset from the nearer end, not of the coordinates (a segment 1e-9 from
 * the tip of a unit polygon was 4.24e-9 away through GJK, whose tolerance follows the larger).
 */
function closestCoreFeatures(ca: WorkCore2, cb: WorkCore2): void {
  featIo[0] = Infinity;
  if (ca.count === 1 && cb.count === 1) {
    const ax = ca.verts[0];
    const ay = ca.verts[1];
    const bx = cb.verts[0];
    const by = cb.verts[1];
    const dx = bx - ax;
    const dy = by - ay;
    lenIo[0] = dx;
    lenIo[1] = dy;
    lengthOfIo();
    const d = lenIo[2];
    featIo[0] = d;
    featIo[1] = d > 0 ? dx / d : 1;
    featIo[2] = d > 0 ? dy / d : 0;
    featIo[3] = ax;
    featIo[4] = ay;
    featIo[5] = bx;
    featIo[6] = by;
    return;
  }
  const ea = ca.count === 2 ? 1 : ca.count === 1 ? 0 : ca.count;
  const eb = cb.count === 2 ? 1 : cb.count === 1 ? 0 : cb.count;
  for (let i = 0; i < ea; i++) for (let k = 0; k < cb.count; k++) vertexEdge(cb, k, ca, i, true);
  for (let i = 0; i < eb; i++) for (let k = 0; k < ca.count; k++) vertexEdge(ca, k, cb, i, false);
}

/**
 * The closest features of {@link closestCoreFeatures}: [0] the distance, [1], [2] the unit
 * normal from A toward B, [3], [4] the point on A's core, [5], [6] the point on B's core.
 */
const featIo = new Float64Array(7);

/**
 * Vertex k of core `pc` against edge i of core `ec` (from vertex i to i + 1): kept in
 * {@link featIo} when nearer than its distance. `vertexOfB`: the vertex is B's and the edge A's.
 * Past an end the offset from that end; beside the edge the offset along the edge's unit normal
 * from the nearer end (the normal is then the edge's own, not a difference of rounded points).
 */
function vertexEdge(pc: WorkCore2, k: number, ec: WorkCore2, i: number, vertexOfB: boolean): void {
  const v = ec.verts;
  const j = i + 1 === ec.count ? 0 : i + 1;
  const ax = v[2 * i];
  const ay = v[2 * i + 1];
  const bx = v[2 * j];
  const by = v[2 * j + 1];
  const px = pc.verts[2 * k];
  const py = pc.verts[2 * k + 1];
  const ex = bx - ax;
  const ey = by - ay;
  const dax = px - ax;
  const day = py - ay;
  const t = (dax * ex + day * ey) / (ex * ex + ey * ey);
  let d: number;
  let ux: number; // unit, from the edge's point toward the vertex
  let uy: number;
  let qx: number; // the edge's point
  let qy: number;
  if (!(t > 0) || !(t < 1)) {
    const end = t > 0.5;
    qx = end ? bx : ax;
    qy = end ? by : ay;
    const dx = end ? px - bx : dax;
    const dy = end ? py - by : day;
    lenIo[0] = dx;
    lenIo[1] = dy;
    lengthOfIo();
    d = lenIo[2];
    if (!(d < featIo[0])) return;
    ux = d > 0 ? dx / d : ec.normals[2 * i];
    uy = d > 0 ? dy / d : ec.normals[2 * i + 1];
  } else {
    const nx = ec.normals[2 * i];
    const ny = ec.normals[2 * i + 1];
    const s = t <= 0.5 ? nx * dax + ny * day : nx * (px - bx) + ny * (py - by);
    d = Math.abs(s);
    if (!(d < featIo[0])) return;
    ux = s < 0 ? -nx : nx;
    uy = s < 0 ? -ny : ny;
    qx = px - s * nx;
    qy = py - s * ny;
  }
  featIo[0] = d;
  if (vertexOfB) {
    featIo[1] = ux;
    featIo[2] = uy;
    featIo[3] = qx;
    featIo[4] = qy;
    featIo[5] = px;
    featIo[6] = py;
  } else {
    featIo[1] = -ux;
    featIo[2] = -uy;
    featIo[3] = px;
    featIo[4] = py;
    featIo[5] = qx;
    featIo[6] = qy;
  }
}

/**
 * True when the direction of {@link featIo} separates every vertex of B from every vertex of A
 * by more than the rounding of the projections (offsets from A's witness, so the bound follows
 * the cores' extent about the contact): a floating-point filter that proves the cores apart
 * without the exact predicates.
 */
function separatedAlongFeatures(ca: WorkCore2, cb: WorkCore2): boolean {
  const nx = featIo[1];
  const ny = featIo[2];
  const ox = featIo[3];
  const oy = featIo[4];
  let maxA = -Infinity;
  let minB = Infinity;
  let m = 0;
  for (let i = 0; i < ca.count; i++) {
    const dx = ca.verts[2 * i] - ox;
    const dy = ca.verts[2 * i + 1] - oy;
    maxA = Math.max(maxA, nx * dx + ny * dy);
    m = Math.max(m, Math.abs(dx) + Math.abs(dy));
  }
  for (let i = 0; i < cb.count; i++) {
    const dx = cb.verts[2 * i] - ox;
    const dy = cb.verts[2 * i + 1] - oy;
    minB = Math.min(minB, nx * dx + ny * dy);
    m = Math.max(m, Math.abs(dx) + Math.abs(dy));
  }
  return minB - maxA > SEPARATION_FILTER * m;
}

/**
 * Bound, relative to the vertices' offsets (|dx| + |dy|) from the witness, of the rounding of
 * a projection on a computed unit normal and of the difference of two: the offset's rounding
 * (ε), the normal's (2ε), the dot product's (2ε), twice, with a margin. Dimensionless.
 */
const SEPARATION_FILTER = 32 * Number.EPSILON;

/**
 * Whether cores `ca`, `cb` (one frame, counter-clockwise, within the exact range) share a
 * point, decided exactly by orient2d: a vertex of either in (or on) the other, or an edge of
 * either meeting an edge of the other. Two convex polygons meet only so (Ericson 2005, §5.2.1;
 * O'Rourke 1998, §7.6): a vertex on an edge or a shared vertex is a meeting.
 */
function coresMeet(ca: WorkCore2, cb: WorkCore2): boolean {
  for (let k = 0; k < cb.count; k++) if (vertexInCore(cb, k, ca)) return true;
  for (let k = 0; k < ca.count; k++) if (vertexInCore(ca, k, cb)) return true;
  if (ca.count < 2 || cb.count < 2) return false;
  const ea = ca.count === 2 ? 1 : ca.count;
  const eb = cb.count === 2 ? 1 : cb.count;
  for (let i = 0; i < ea; i++)
    for (let j = 0; j < eb; j++) if (edgesMeet(ca, i, cb, j)) return true;
  return false;
}

/** Whether vertex k of `pc` lies in or on core `c` (exact). */
function vertexInCore(pc: WorkCore2, k: number, c: WorkCore2): boolean {
  const px = pc.verts[2 * k];
  const py = pc.verts[2 * k + 1];
  const v = c.verts;
  const n = c.count;
  if (n === 1) return px === v[0] && py === v[1];
  if (n === 2) {
    return (
      orientOf(v, 0, v, 1, pc.verts, k) === 0 &&
      px >= Math.min(v[0], v[2]) &&
      px <= Math.max(v[0], v[2]) &&
      py >= Math.min(v[1], v[3]) &&
      py <= Math.max(v[1], v[3])
    );
  }
  for (let i = 0; i < n; i++) {
    if (orientOf(v, i, v, i + 1 === n ? 0 : i + 1, pc.verts, k) < 0) return false;
  }
  return true;
}

/**
 * Whether edge i of `ca` and edge j of `cb` meet (exact), collinear overlaps aside (those hold
 * an end of one on the other, which {@link vertexInCore} finds): each edge's ends on opposite
 * sides of (or on) the other's line.
 */
function edgesMeet(ca: WorkCore2, i: number, cb: WorkCore2, j: number): boolean {
  const av = ca.verts;
  const bv = cb.verts;
  const i1 = i + 1 === ca.count ? 0 : i + 1;
  const j1 = j + 1 === cb.count ? 0 : j + 1;
  const o1 = orientOf(av, i, av, i1, bv, j);
  const o2 = orientOf(av, i, av, i1, bv, j1);
  if (o1 * o2 > 0 || (o1 === 0 && o2 === 0)) return false;
  return orientOf(bv, j, bv, j1, av, i) * orientOf(bv, j, bv, j1, av, i1) <= 0;
}

/** orient2d's sign (exact) of the points i of `p`, j of `q`, k of `r` (arrays of x, y pairs). */
function orientOf(
  p: Float64Array,
  i: number,
  q: Float64Array,
  j: number,
  r: Float64Array,
  k: number,
): number {
  const o = orient2dIo;
  o[0] = p[2 * i];
  o[1] = p[2 * i + 1];
  o[2] = q[2 * j];
  o[3] = q[2 * j + 1];
  o[4] = r[2 * k];
  o[5] = r[2 * k + 1];
  return orient2dSignIo();
}

/**
 * {@link contactCores} for cores outside the exact predicates' range: polygon cores (≥ 3
 * vertices each) first by SAT, whose largest separation, when the polygons overlap, is the
 * minimum translation vector; otherwise 2D GJK for the distance and, when the cores overlap, SAT
 * for the penetration. Returns false when the gap exceeds `prediction`.
 */
function contactCoresFloat(
  out: Contact2,
  ca: WorkCore2,
  cb: WorkCore2,
  prediction: number,
): boolean {
  const r = ca.radius + cb.radius;
  let satDone = false;
  if (ca.count >= 3 && cb.count >= 3) {
    maxSeparation(satA, ca, cb);
    maxSeparation(satB, cb, ca);
    satDone = true;
    const s = Math.max(satA.separation, satB.separation);
    // The SAT separation is a lower bound on the distance of the cores.
    if (s - r > prediction) return false;
    if (s <= 0) return penetrationFromSat(out, ca, cb);
  }
  const g = gjkDistance2(gjkOut, ca, cb);
  if (!g.overlap && g.distance > 0) {
    const gap = g.distance - r;
    if (gap > prediction) return false;
    const nx = (g.bx - g.ax) / g.distance;
    const ny = (g.by - g.ay) / g.distance;
    contactIo[0] = gap;
    contactIo[1] = nx;
    contactIo[2] = ny;
    contactIo[3] = g.ax + ca.radius * nx;
    contactIo[4] = g.ay + ca.radius * ny;
    contactIo[5] = g.bx - cb.radius * nx;
    contactIo[6] = g.by - cb.radius * ny;
    return setContact(out);
  }
  if (!satDone) {
    maxSeparation(satA, ca, cb);
    maxSeparation(satB, cb, ca);
  }
  // GJK found the cores within its rounding tolerance of each other, which is relative to their
  // size: a positive SAT separation, a lower bound on their distance, is then the closer answer
  // (a unit circle 0.5 from the edge of a 1e200 polygon overlaps it by 0.5, not by its radius).
  const s = Math.max(satA.separation, satB.separation, 0);
  if (s - r > prediction) return false;
  return penetrationFromSat(out, ca, cb, true);
}

/** True when every vertex coordinate of `c` is within the exact predicates' range (2^±300). */
function exactRange2(c: WorkCore2): boolean {
  for (let i = 0; i < 2 * c.count; i++) {
    const m = Math.abs(c.verts[i]);
    if (m !== 0 && !(m < EXACT_RANGE && m * EXACT_RANGE >= 1)) return false;
  }
  return true;
}

/** Magnitude bound of {@link exactRange2} (src/geometry/exact-predicates.ts, `exactRange`). */
const EXACT_RANGE = 2 ** 300;

/** General convex pair (A's frame): cores of A and of B (transformed into A's frame). */
export function contactGeneral(
  out: Contact2,
  a: Shape2,
  b: Shape2,
  bInA: Pose2,
  prediction: number,
): boolean {
  viewCore(work.view, a.core);
  transformCore(work.b, b.core, bInA);
  return contactCores(out, work.view, work.b, prediction);
}

/** A pair routine in A's frame: fills `out` and returns true when the gap ≤ prediction. */
export type ContactRoutine2 = (
  out: Contact2,
  a: Shape2,
  b: Shape2,
  bInA: Pose2,
  prediction: number,
) => boolean;

const N = 5;
/** The pair table by `ShapeType2` (row A, column B, A ≤ B); the mirrored order flips. */
const TABLE: ContactRoutine2[] = new Array(N * N).fill(contactGeneral);
TABLE[ShapeType2.Circle * N + ShapeType2.Circle] = contactCircleCircle as ContactRoutine2;
TABLE[ShapeType2.Circle * N + ShapeType2.Rect] = contactCircleRect as ContactRoutine2;
TABLE[ShapeType2.Rect * N + ShapeType2.Rect] = contactRectRect as ContactRoutine2;

const flipPose: Pose2 = pose2.identity();
const flipOut = makeContact2();

/**
 * Contact of `a` and `b` in A's frame (`bInA` = B's pose in A's frame) through the pair table,
 * flipping mirrored pairs. Returns false when the gap exceeds `prediction`. Allocates nothing.
 */
export function contactShapes2(
  out: Contact2,
  a: Shape2,
  b: Shape2,
  bInA: Pose2,
  prediction: number,
): boolean {
  if (a.type <= b.type) return TABLE[a.type * N + b.type](out, a, b, bInA, prediction);
  // Solve in B's frame with the roles swapped, then map back to A's frame.
  pose2.invert(flipPose, bInA);
  if (!TABLE[b.type * N + a.type](flipOut, b, a, flipPose, prediction)) return false;
  out.distance = flipOut.distance;
  rot2.rotate(out.normal, bInA.q, flipOut.normal);
  out.normal.x = -out.normal.x;
  out.normal.y = -out.normal.y;
  pose2.transformPoint(out.pointA, bInA, flipOut.pointB);
  pose2.transformPoint(out.pointB, bInA, flipOut.pointA);
  return true;
}

const bInAScratch: Pose2 = pose2.identity();

/** Throws unless `prediction` is a number ≥ 0 (Infinity allowed). */
export function checkPrediction(prediction: number): void {
  if (typeof prediction !== "number" || !(prediction >= 0)) {
    invalidValue("prediction", prediction, "must be a number >= 0");
  }
}

/**
 * The contact of `a` at world pose `poseA` and `b` at `poseB` (world frame), or null when their
 * gap exceeds `prediction` (scene units, ≥ 0; default 0: touching or overlapping only). The
 * result goes to `out` when given (then nothing is allocated). Throws `CollideError` for a
 * negative or NaN prediction, an invalid shape or pose, a pair out of the range of doubles (see
 * src/dim2/check2.ts) or an answer that would not be finite.
 */
export function contact2D(
  a: Shape2,
  poseA: Pose2,
  b: Shape2,
  poseB: Pose2,
  prediction = 0,
  out: Contact2 = makeContact2(),
): Contact2 | null {
  checkOutRecord("out", out, CONTACT2_PARTS, "a contact record (makeContact2())");
  const sa = checkedShape2("a", a);
  const sb = checkedShape2("b", b);
  // A rotation within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = pose2.unitPose(unitA, poseA);
  poseB = pose2.unitPose(unitB, poseB);
  checkPair2(sa, poseA, sb, poseB);
  checkPrediction(prediction);
  if (!contactWorld2(out, sa, poseA, sb, poseB, prediction)) return null;
  checkContactAnswer2("contact2D", out);
  return out;
}

/** Throws `CollideError` when a number of contact `c` is not finite (see `checkAnswer2`). */
export function checkContactAnswer2(op: string, c: Contact2): void {
  checkAnswer2(op, "distance", c.distance);
  checkAnswer2(op, "normal.x", c.normal.x);
  checkAnswer2(op, "normal.y", c.normal.y);
  checkAnswer2(op, "pointA.x", c.pointA.x);
  checkAnswer2(op, "pointA.y", c.pointA.y);
  checkAnswer2(op, "pointB.x", c.pointB.x);
  checkAnswer2(op, "pointB.y", c.pointB.y);
}

/**
 * {@link contact2D} without the argument checks (hot path: shapes, poses and prediction already
 * valid); returns whether there is a contact within `prediction`, written to `out`.
 */
export function contactWorld2(
  out: Contact2,
  a: Shape2,
  poseA: Pose2,
  b: Shape2,
  poseB: Pose2,
  prediction: number,
): boolean {
  if (!orderSwapped2(a, poseA, b, poseB))
    return contactInOrder2(out, a, poseA, b, poseB, prediction);
  // The pair in its canonical order, the answer flipped (the normal as 0 − x: a zero stays +0):
  // contact(B, A) is contact(A, B) with the normal negated and the points swapped, bit for bit.
  if (!contactInOrder2(out, b, poseB, a, poseA, prediction)) return false;
  out.normal.x = 0 - out.normal.x;
  out.normal.y = 0 - out.normal.y;
  const x = out.pointA.x;
  const y = out.pointA.y;
  out.pointA.x = out.pointB.x;
  out.pointA.y = out.pointB.y;
  out.pointB.x = x;
  out.pointB.y = y;
  return true;
}

/**
 * True when (a, poseA, b, poseB) is not the canonical order of its pair: an order that swapping
 * the arguments reverses (the lower shape type first, then the lower pose, then the lower core,
 * compared as numbers), so that both orders are answered by one computation. A pair equal in
 * every number keeps its order. Allocates nothing.
 */
export function orderSwapped2(a: Shape2, poseA: Pose2, b: Shape2, poseB: Pose2): boolean {
  if (a.type !== b.type) return a.type > b.type;
  const k = orderKeys;
  k[0] = poseA.p.x;
  k[1] = poseB.p.x;
  k[2] = poseA.p.y;
  k[3] = poseB.p.y;
  k[4] = poseA.q.c;
  k[5] = poseB.q.c;
  k[6] = poseA.q.s;
  k[7] = poseB.q.s;
  k[8] = a.core.radius;
  k[9] = b.core.radius;
  k[10] = a.core.count;
  k[11] = b.core.count;
  for (let i = 0; i < 12; i += 2) if (k[i] !== k[i + 1]) return k[i] > k[i + 1];
  const va = a.core.verts;
  const vb = b.core.verts;
  for (let i = 0; i < 2 * a.core.count; i++) if (va[i] !== vb[i]) return va[i] > vb[i];
  return false;
}

/** Scratch of {@link orderSwapped2}: the pair's numbers, A's then B's, in the order compared. */
const orderKeys = new Float64Array(12);

/** {@link contactWorld2} in the order given. */
function contactInOrder2(
  out: Contact2,
  a: Shape2,
  poseA: Pose2,
  b: Shape2,
  poseB: Pose2,
  prediction: number,
): boolean {
  pose2.invMul(bInAScratch, poseA, poseB);
  const k = pairScale2(a, b, bInAScratch);
  if (k === 1) {
    if (!contactShapes2(out, a, b, bInAScratch, prediction)) return false;
  } else if (!contactScaled2(out, a, b, bInAScratch, prediction, k)) return false;
  rot2.rotate(out.normal, poseA.q, out.normal);
  pose2.transformPoint(out.pointA, poseA, out.pointA);
  pose2.transformPoint(out.pointB, poseA, out.pointB);
  return true;
}

/**
 * {@link contactShapes2} of the pair far from unit scale: answered on copies of the shapes and of
 * `bInA` (overwritten) multiplied by `k`, then the answer's lengths divided by `k` (exact, see
 * src/dim2/extreme-scale2.ts). Allocates the copies.
 */
function contactScaled2(
  out: Contact2,
  a: Shape2,
  b: Shape2,
  bInA: Pose2,
  prediction: number,
  k: number,
): boolean {
  bInA.p.x *= k;
  bInA.p.y *= k;
  const hit = contactShapes2(out, scaledShape2(a, k), scaledShape2(b, k), bInA, prediction * k);
  if (!hit) return false;
  const u = 1 / k;
  const d = out.distance;
  out.distance *= u;
  // A gap or an overlap under the rounding (the least double, src/dim2/contact2.ts
  // `exactGapSign`) keeps its sign where the change of units underflows it.
  if (out.distance === 0 && d !== 0) out.distance = d > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  out.pointA.x *= u;
  out.pointA.y *= u;
  out.pointB.x *= u;
  out.pointB.y *= u;
  return true;
}

const testOut = makeContact2();

/**
 * True when `a` at `poseA` and `b` at `poseB` overlap or touch (exact: no slop). Throws
 * `CollideError` for an invalid shape or pose, or poses whose offset overflows.
 */
export function intersects2D(a: Shape2, poseA: Pose2, b: Shape2, poseB: Pose2): boolean {
  const sa = checkedShape2("a", a);
  const sb = checkedShape2("b", b);
  // A rotation within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = pose2.unitPose(unitA, poseA);
  poseB = pose2.unitPose(unitB, poseB);
  checkPair2(sa, poseA, sb, poseB);
  return contactWorld2(testOut, sa, poseA, sb, poseB, 0);
}

/** Result of {@link distance2D} (world frame). */
export interface Distance2 {
  distance: number;
  pointA: Vec2;
  pointB: Vec2;
}

/**
 * Distance between `a` at `poseA` and `b` at `poseB` and their closest points (world frame; the
 * cores' closest vertex–edge pair, see `contactCores`). When they intersect the distance is 0
 * and the points are the deepest points of {@link contact2D}. Allocates the result. Throws as
 * {@link contact2D} does.
 */
export function distance2D(a: Shape2, poseA: Pose2, b: Shape2, poseB: Pose2): Distance2 {
  const c = makeContact2();
  const sa = checkedShape2("a", a);
  const sb = checkedShape2("b", b);
  // A rotation within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = pose2.unitPose(unitA, poseA);
  poseB = pose2.unitPose(unitB, poseB);
  checkPair2(sa, poseA, sb, poseB);
  contactWorld2(c, sa, poseA, sb, poseB, Infinity);
  // The answer's numbers: a penetration past the largest double is distance 0 all the same.
  const distance = Math.max(0, c.distance);
  checkAnswer2("distance2D", "distance", distance);
  checkAnswer2("distance2D", "pointA.x", c.pointA.x);
  checkAnswer2("distance2D", "pointA.y", c.pointA.y);
  checkAnswer2("distance2D", "pointB.x", c.pointB.x);
  checkAnswer2("distance2D", "pointB.y", c.pointB.y);
  return {
    distance,
    pointA: { x: c.pointA.x, y: c.pointA.y },
    pointB: { x: c.pointB.x, y: c.pointB.y },
  };
}
