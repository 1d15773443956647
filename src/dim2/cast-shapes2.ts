/**
 * Linear time of impact of two 2D shapes (docs/FORMATS.md `castShapes`) by conservative
 * advancement (Mirtich 1996; van den Bergen 2003, §5.4; Box2D's `b2TimeOfImpact` generalises it
 * to rotation).
 *
 * Under pure translation the gap g(t) between A + vA·t and B + vB·t is the distance from a point
 * moving on a line to the convex Minkowski difference, a convex function of t whose slope at t is
 * −(vB − vA)·n(t) (n the contact normal from A toward B). Each iteration therefore advances by
 * the Newton step g / (−(vB − vA)·n), which never passes the first contact; it stops when the
 * gap is below CAST2D_TOLERANCE of the smaller shape's size and of the starting gap (not below a
 * few ulps of the local coordinates; `castStopGap2`), when the shapes stop approaching (then
 * they never touch), past `maxToi`, or at CAST2D_MAX_ITERATIONS (returning the current time).
 * Toi 0 exactly when `intersects` (exact, orient2d) is true at time 0.
 */
import { CAST2D_MAX_ITERATIONS, CAST2D_TOLERANCE, GJK_ROUNDING_TOLERANCE } from "../constants.js";
import { invalidValue } from "../errors.js";
import { checkedShape2, checkPair2 } from "./check2.js";
import { type Contact2, checkContactAnswer2, contactWorld2, makeContact2 } from "./contact2.js";
import { makeWorkCore, supportIndex, transformCore, type WorkCore2 } from "./core2.js";
import type { Pose2 } from "./pose2.js";
import * as pose2 from "./pose2.js";
import type { Shape2 } from "./shapes.js";
import { shapeSize2 } from "./shapes.js";
import type { Vec2 } from "./vec2.js";

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitA = pose2.identity();
const unitB = pose2.identity();

/** Result of {@link castShapes2D} (world frame, at the time of impact). */
export interface ShapeCastHit2 {
  toi: number;
  normal: Vec2;
  pointA: Vec2;
  pointB: Vec2;
}

function checkVelocity(field: string, v: Vec2): void {
  if (v === null || typeof v !== "object" || !Number.isFinite(v.x) || !Number.isFinite(v.y)) {
    invalidValue(field, v, "must be a finite vector {x, y}");
  }
}

const pa: Pose2 = { p: { x: 0, y: 0 }, q: { c: 1, s: 0 } };
const pb: Pose2 = { p: { x: 0, y: 0 }, q: { c: 1, s: 0 } };
const c: Contact2 = makeContact2();

const workA: WorkCore2 = makeWorkCore();
const workB: WorkCore2 = makeWorkCore();
/** The approach normal of the last step taken (x, y), for {@link orientFlatContact2}. */
const lastStep = new Float64Array(2);

/**
 * True when the cores of `a` (at `pa`) and `b` (at `pb`) lie on one line across the unit
 * direction (nx, ny) up to `tol`: both the separation of B from A along it and along its
 * opposite are at least −tol (from the support points, radii taken off: min over B of n·x −
 * max over A of n·x, and min over A of n·x − max over B of n·x). Then both directions support
 * their Minkowski difference, a segment across (nx, ny) (van den Bergen 2003, §2.4).
 */
function flatAcross(ca: WorkCore2, cb: WorkCore2, nx: number, ny: number, tol: number): boolean {
  const r = ca.radius + cb.radius;
  const v = ca.verts;
  const w = cb.verts;
  const a1 = supportIndex(ca, nx, ny);
  const a0 = supportIndex(ca, -nx, -ny);
  const b1 = supportIndex(cb, nx, ny);
  const b0 = supportIndex(cb, -nx, -ny);
  const maxA = nx * v[2 * a1] + ny * v[2 * a1 + 1];
  const minA = nx * v[2 * a0] + ny * v[2 * a0 + 1];
  const maxB = nx * w[2 * b1] + ny * w[2 * b1 + 1];
  const minB = nx * w[2 * b0] + ny * w[2 * b0 + 1];
  return minB - maxA - r >= -tol && minA - maxB - r >= -tol;
}

/**
 * The 2D form of the 3D cast's flat-pair rule (src/query/cast-shapes.ts, `orientFlatContact`),
 * at a hit after 0 of relative velocity (vx, vy). Two segments face to face in parallel meet
 * on one line: their Minkowski difference is a segment, and at the time of impact the contact
 * routine's normal is either sign of its normal (issue 16, fresh-user attack 39: a segment cast
 * onto a segment gave (−1, 0) for +x in both orders) or, when the two coincide to rounding, the
 * direction between rounded end points (an in-plane (1, 0) for a face-on meeting along y).
 * Under a translation a first contact's normal n from A toward B closes, (v_B − v_A)·n ≤ 0: the
 * relative path enters the Minkowski difference against its outward normal −n. So: when the
 * cores lie on one line across the last step's approach normal m (`lastStep`, taken at a gap
 * above the tolerance, so its sign is sure) and the motion closes along m, the meeting is
 * face-on and the normal is m; else, when the routine's n opens and the cores lie on one line
 * across n, n is negated. A pair with width across both keeps its contact.
 */
function orientFlatContact2(
  out: Contact2,
  a: Shape2,
  b: Shape2,
  vx: number,
  vy: number,
  tol: number,
): void {
  const ca = transformCore(workA, a.core, pa);
  const cb = transformCore(workB, b.core, pb);
  const mx = lastStep[0];
  const my = lastStep[1];
  if (vx * mx + vy * my < 0 && flatAcross(ca, cb, mx, my, tol)) {
    out.normal.x = mx;
    out.normal.y = my;
    return;
  }
  const nx = out.normal.x;
  const ny = out.normal.y;
  if (vx * nx + vy * ny > 0 && flatAcross(ca, cb, nx, ny, tol)) {
    out.normal.x = -nx;
    out.normal.y = -ny;
  }
}

/**
 * The stopping gap of the advancement (scene units): the size tolerance `tol`
 * (CAST2D_TOLERANCE of the smaller shape), but at most CAST2D_TOLERANCE of the starting gap
 * `gap0`, so a pair that starts closer than the tolerance still advances to its contact
 * (a gap of 1e-9 closing at speed 1 hits at 1e-9, not at once) and its toi is accurate relative
 * to its own gap; at least a few ulps of the local coordinates (the sizes and the offset of B
 * from A, `dx`, `dy`), below which the rounded positions no longer follow the motion (a step
 * that moves nothing must not be repeated past the contact). The idea of the 3D cast's stopping
 * rule (src/query/cast-shapes.ts, `advance`), its size part capped by the local gap.
 */
function castStopGap2(
  tol: number,
  gap0: number,
  sizeA: number,
  sizeB: number,
  dx: number,
  dy: number,
): number {
  const local = CAST2D_TOLERANCE * gap0;
  const round = 4 * Number.EPSILON * Math.max(sizeA, sizeB, Math.abs(dx), Math.abs(dy));
  return Math.max(Math.min(tol, local), round);
}

/**
 * The first time t ∈ [0, maxToi] at which `a` (pose `poseA` at t = 0, moving with velocity
 * `velocityA`, scene units per unit time) touches `b` (pose `poseB`, velocity `velocityB`), with
 * the normal from A toward B and the witness points at that time; toi 0 when they already touch
 * or overlap (then the contact's normal and deepest points); null when they do not meet by
 * `maxToi` (default Infinity: no time limit). Throws `CollideError` for an invalid shape or pose, a pair out of the range of doubles,
 * non-finite velocities or a relative velocity that overflows, or a negative `maxToi`.
 */
export function castShapes2D(
  a: Shape2,
  poseA: Pose2,
  velocityA: Vec2,
  b: Shape2,
  poseB: Pose2,
  velocityB: Vec2,
  maxToi = Number.POSITIVE_INFINITY,
): ShapeCastHit2 | null {
  const sa = checkedShape2("a", a);
  const sb = checkedShape2("b", b);
  // A rotation within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = pose2.unitPose(unitA, poseA);
  poseB = pose2.unitPose(unitB, poseB);
  checkPair2(sa, poseA, sb, poseB);
  checkVelocity("velocityA", velocityA);
  checkVelocity("velocityB", velocityB);
  if (typeof maxToi !== "number" || !(maxToi >= 0)) {
    invalidValue("maxToi", maxToi, "must be a number >= 0");
  }
  const vx = velocityB.x - velocityA.x;
  const vy = velocityB.y - velocityA.y;
  if (!(Number.isFinite(vx) && Number.isFinite(vy))) {
    // An infinite closing speed advanced by 0 and reported toi 0 for shapes apart.
    invalidValue(
      "velocityB",
      velocityB,
      "relative to velocityA overflows double precision (their difference is not finite)",
    );
  }
  // The stopping gap follows the smaller shape, as in 3D (src/query/cast-shapes.ts): relative to
  // the larger one, a unit circle moving toward a 1e200 polygon stopped at once (toi 0).
  const sizeA = shapeSize2(sa);
  const sizeB = shapeSize2(sb);
  const small = Math.min(sizeA, sizeB);
  const tol = CAST2D_TOLERANCE * (small > 0 ? small : Math.max(sizeA, sizeB));
  // The search runs in the pair's own frame, as in 3D: A at rest at the origin, B at its offset
  // from A moving with the relative velocity. Far from the world origin a position moved by
  // v·t rounds to the ulp of its coordinates (7e-12 at 3.6e4), a step larger than a small
  // pair's whole approach, which stopped the cast 2–3× late; the offset B − A rounds once, at
  // the pair's own size, and the same bits at t = 0 as the pair queries (pose B − pose A).
  pa.q.c = poseA.q.c;
  pa.q.s = poseA.q.s;
  pb.q.c = poseB.q.c;
  pb.q.s = poseB.q.s;
  pa.p.x = 0;
  pa.p.y = 0;
  const dx = poseB.p.x - poseA.p.x;
  const dy = poseB.p.y - poseA.p.y;
  let t = 0;
  // Time 0: the `intersects` predicate decides (exact, orient2d), on the same pair: the poses
  // here compare and subtract as the world poses do (the same order, the same offset bits), so
  // toi 0 exactly when `intersects` is true (issue 16, fresh-user attack 39: segments 1e-12
  // apart moving apart, rects of 1e6 with a gap of 1e-3, gave toi 0 by the old stop on a gap
  // ≤ 1e-9 of the size).
  pb.p.x = dx;
  pb.p.y = dy;
  if (contactWorld2(c, sa, pa, sb, pb, 0)) {
    checkContactAnswer2("castShapes2D", c);
    return {
      toi: 0,
      normal: { x: c.normal.x, y: c.normal.y },
      pointA: { x: c.pointA.x + poseA.p.x, y: c.pointA.y + poseA.p.y },
      pointB: { x: c.pointB.x + poseA.p.x, y: c.pointB.y + poseA.p.y },
    };
  }
  let stop = tol;
  for (let it = 0; it <= CAST2D_MAX_ITERATIONS; it++) {
    pb.p.x = dx + vx * t;
    pb.p.y = dy + vy * t;
    contactWorld2(c, sa, pa, sb, pb, Infinity);
    if (it === 0) stop = castStopGap2(tol, c.distance, sizeA, sizeB, dx, dy);
    if ((t > 0 && c.distance <= stop) || it === CAST2D_MAX_ITERATIONS) break;
    const closing = -(vx * c.normal.x + vy * c.normal.y);
    if (!(closing > 0)) return null;
    lastStep[0] = c.normal.x;
    lastStep[1] = c.normal.y;
    const tNext = t + Math.max(c.distance, 0) / closing;
    // Apart at 0 by the predicate, a gap whose step underflows: the first time after 0.
    t = t === 0 && !(tNext > 0) ? Number.MIN_VALUE : tNext;
    if (t > maxToi) return null;
  }
  checkContactAnswer2("castShapes2D", c);
  if (t > 0) {
    const round =
      GJK_ROUNDING_TOLERANCE * Math.max(sizeA, sizeB, Math.abs(pb.p.x), Math.abs(pb.p.y));
    orientFlatContact2(c, sa, sb, vx, vy, tol + round);
  }
  // Back to the world: A's position at the time of impact.
  const ax = poseA.p.x + velocityA.x * t;
  const ay = poseA.p.y + velocityA.y * t;
  return {
    toi: t,
    normal: { x: c.normal.x, y: c.normal.y },
    pointA: { x: c.pointA.x + ax, y: c.pointA.y + ay },
    pointB: { x: c.pointB.x + ax, y: c.pointB.y + ay },
  };
}
