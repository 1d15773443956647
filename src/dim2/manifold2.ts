/**
 * 2D contact manifolds of up to 2 points by clipping the incident edge against the reference
 * edge, as Box2D does (Catto, "Contact Manifolds", GDC 2007; Box2D v3 `b2ClipPolygons`;
 * Ericson 2005, §8.3.4 in 3D).
 *
 * From one contact (src/dim2/contact2.ts) with normal n from A toward B:
 * 1. The reference edge candidates are A's edge most aligned with n and B's edge most aligned
 *    with −n; the better aligned one is the reference (exact ties favour A, A the pair's canonical
 *    first shape, `orderSwapped2`, so either order clips alike), provided its cosine with the normal is at least
 *    MANIFOLD_FEATURE_COS. Otherwise (a corner or a round part touches) the manifold is the
 *    single contact. The reference edge's normal must also be a contact normal: the separation
 *    along it (the reference edge against the incident core's support point, less the radii)
 *    equals the contact's distance within MANIFOLD2D_DEPTH_ULPS of the features' largest
 *    coordinate, which holds when the contact lies on the edge's flat part (its normal is then
 *    the edge's own) and fails on a corner–corner or corner–end-cap contact, whose normal leans
 *    off every edge's and along which the overlap is least (issue 16: a rect's corner on a
 *    capsule's end cap took the capsule's side, 9–70 % too shallow). Box2D v3 likewise gives
 *    the vertex–vertex regions of `b2CollidePolygons` one point along their own direction.
 * 2. The incident edge is the other shape's edge most anti-parallel to the reference normal.
 * 3. The incident edge is clipped to the reference edge's slab (the two side lines through the
 *    reference edge's end points, perpendicular to it), giving at most 2 points.
 * 4. A rounded incident edge (capsule, rounded polygon) not parallel to the reference edge
 *    (sine above MANIFOLD_PARALLEL_SIN) touches at one point: the single contact. Each point p is
 *    measured against the reference edge's line: separation s = n_ref·(p − v_ref) − r_ref − t,
 *    t the distance along −n_ref from p to the incident rounded surface (r_inc / cos θ, or on an
 *    end's arc; r_inc where −n_ref is the core's own normal there); the reference-side witness is
 *    p projected on the line and pushed out by r_ref, the incident witness p moved by t along
 *    −n_ref, so both lie on their surfaces (docs/FORMATS.md). Points with
 *    s > prediction + plane tolerance (min(MANIFOLD_TOLERANCE, MANIFOLD_RELATIVE_TOLERANCE ×
 *    the reference edge's length)) are dropped; if none remains, or the deepest kept point's
 *    separation is not the contact's distance within the same bar (the incident edge's deeper
 *    end cut off by a side line), the manifold is the single contact.
 *
 * Feature ids: `((refIsB · 4096 + refEdge) · 4096 + incidentEdge) · 4 + k` where k is the
 * clipped point's end (0 or 1) plus 2 when it was cut by a side line; the single-contact
 * fallback has id 0.
 */
import {
  MANIFOLD_FEATURE_COS,
  MANIFOLD_PARALLEL_SIN,
  MANIFOLD_RELATIVE_TOLERANCE,
  MANIFOLD_TOLERANCE,
  MANIFOLD2D_DEPTH_ULPS,
} from "../constants.js";
import { invalidValue } from "../errors.js";
import { checkAnswer2, checkedShape2, checkPair2 } from "./check2.js";
import {
  type Contact2,
  checkPrediction,
  contactShapes2,
  makeContact2,
  orderSwapped2,
} from "./contact2.js";
import { makeWorkCore, transformCore, viewCore, type WorkCore2 } from "./core2.js";
import { pairScale2, scaledShape2 } from "./extreme-scale2.js";
import type { Pose2 } from "./pose2.js";
import * as pose2 from "./pose2.js";
import * as rot2 from "./rot2.js";
import type { Shape2 } from "./shapes.js";
import type { Vec2 } from "./vec2.js";

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitA = pose2.identity();
const unitB = pose2.identity();

/** One manifold point: witnesses on A and B, signed distance along the normal, feature id. */
export interface ManifoldPoint2 {
  pointA: Vec2;
  pointB: Vec2;
  distance: number;
  id: number;
}

/** A contact manifold: unit `normal` from A toward B and `count` (1 or 2) valid `points`. */
export interface Manifold2 {
  normal: Vec2;
  count: number;
  points: [ManifoldPoint2, ManifoldPoint2];
}

function makePoint(): ManifoldPoint2 {
  return { pointA: { x: 0, y: 0 }, pointB: { x: 0, y: 0 }, distance: 0, id: 0 };
}

/** A new manifold record (allocates). */
export function makeManifold2(): Manifold2 {
  return { normal: { x: 1, y: 0 }, count: 0, points: [makePoint(), makePoint()] };
}

const MANIFOLD2_RECORD = "a manifold record (makeManifold2())";

/** True for an object that is not frozen (a record an answer can be written into). */
const writable = (v: unknown): boolean =>
  v !== null && typeof v === "object" && !Object.isFrozen(v);

/**
 * Throws `CollideError` naming `field` unless `out` is a manifold record to write
 * (makeManifold2()'s shape: an object `normal` and two point records with objects `pointA`,
 * `pointB`, none frozen); a null or `{}` had thrown a TypeError mid-answer.
 */
export function checkManifold2Out(out: Manifold2, field = "out"): void {
  const p = writable(out) ? out.points : undefined;
  let ok = writable(out?.normal) && Array.isArray(p) && p.length >= 2;
  for (let i = 0; ok && i < 2; i++) {
    const q = p?.[i];
    ok = writable(q) && writable(q?.pointA) && writable(q?.pointB);
  }
  if (!ok) invalidValue(field, out, `must be ${MANIFOLD2_RECORD}`);
}

function single(out: Manifold2, c: Contact2): Manifold2 {
  out.normal.x = c.normal.x;
  out.normal.y = c.normal.y;
  const p = out.points[0];
  p.pointA.x = c.pointA.x;
  p.pointA.y = c.pointA.y;
  p.pointB.x = c.pointB.x;
  p.pointB.y = c.pointB.y;
  p.distance = c.distance;
  p.id = 0;
  out.count = 1;
  return out;
}

/**
 * The direction of {@link bestEdge}, written by its caller: a double passed to a call V8 does
 * not inline is boxed (allocated).
 */
const dirIo = new Float64Array(2);

/** The edge of `core` whose normal is most aligned with `sign`·(dirIo[0], dirIo[1]). */
function bestEdge(core: WorkCore2, sign: number): number {
  const nx = sign * dirIo[0];
  const ny = sign * dirIo[1];
  let best = 0;
  let bestD = -Infinity;
  for (let i = 0; i < core.count; i++) {
    const d = core.normals[2 * i] * nx + core.normals[2 * i + 1] * ny;
    if (d > bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/**
 * Widens contact `c` of cores `ca` and `cb` (one frame, A's) into a manifold by edge clipping
 * (see the module docs), written to `out`. Allocates nothing.
 */
export function manifoldCores(
  out: Manifold2,
  ca: WorkCore2,
  cb: WorkCore2,
  c: Contact2,
  prediction: number,
): Manifold2 {
  if (ca.count < 2 || cb.count < 2) return single(out, c);
  const nx = c.normal.x;
  const ny = c.normal.y;
  dirIo[0] = nx;
  dirIo[1] = ny;
  const iA = bestEdge(ca, 1);
  const iB = bestEdge(cb, -1);
  const alignA = ca.normals[2 * iA] * nx + ca.normals[2 * iA + 1] * ny;
  const alignB = -(cb.normals[2 * iB] * nx + cb.normals[2 * iB + 1] * ny);
  if (Math.max(alignA, alignB) < MANIFOLD_FEATURE_COS) return single(out, c);
  const refIsB = alignB > alignA;
  const ref = refIsB ? cb : ca;
  const inc = refIsB ? ca : cb;
  const ri = refIsB ? iB : iA;
  const rnx = ref.normals[2 * ri];
  const rny = ref.normals[2 * ri + 1];
  dirIo[0] = rnx;
  dirIo[1] = rny;
  const ii = bestEdge(inc, -1);
  const rj = ri + 1 === ref.count ? 0 : ri + 1;
  const ij = ii + 1 === inc.count ? 0 : ii + 1;
  const v1x = ref.verts[2 * ri];
  const v1y = ref.verts[2 * ri + 1];
  // Tangent of the reference edge: the normal rotated +90° (edges run counter-clockwise).
  const tx = -rny;
  const ty = rnx;
  const len = (ref.verts[2 * rj] - v1x) * tx + (ref.verts[2 * rj + 1] - v1y) * ty;
  const w1x = inc.verts[2 * ii];
  const w1y = inc.verts[2 * ii + 1];
  const w2x = inc.verts[2 * ij];
  const w2y = inc.verts[2 * ij + 1];
  const rRef = ref.radius;
  const rInc = inc.radius;
  // The reference normal must be a contact normal: the separation along it (the reference edge
  // against the incident edge's deeper end, the incident core's support along −n_ref, less the
  // radii) equals the contact's distance to its rounding. A contact off the edge's flat part (a
  // corner on a capsule's end cap) is deeper along its own normal than along the edge's.
  const v2x = ref.verts[2 * rj];
  const v2y = ref.verts[2 * rj + 1];
  const scale =
    Math.max(
      Math.abs(v1x),
      Math.abs(v1y),
      Math.abs(v2x),
      Math.abs(v2y),
      Math.abs(w1x),
      Math.abs(w1y),
      Math.abs(w2x),
      Math.abs(w2y),
    ) +
    rRef +
    rInc;
  const depthBar = MANIFOLD2D_DEPTH_ULPS * Number.EPSILON * scale;
  const h1 = (w1x - v1x) * rnx + (w1y - v1y) * rny;
  const h2 = (w2x - v1x) * rnx + (w2y - v1y) * rny;
  if (!(Math.abs(Math.min(h1, h2) - rRef - rInc - c.distance) <= depthBar)) return single(out, c);
  const u1 = (w1x - v1x) * tx + (w1y - v1y) * ty;
  const u2 = (w2x - v1x) * tx + (w2y - v1y) * ty;
  // Parameter range s ∈ [lo, hi] ⊂ [0, 1] of w1 + s(w2 − w1) inside the slab 0 ≤ u ≤ len.
  let lo = 0;
  let hi = 1;
  const du = u2 - u1;
  if (du === 0) {
    if (u1 < 0 || u1 > len) return single(out, c);
  } else {
    let s0 = (0 - u1) / du;
    let s1 = (len - u1) / du;
    if (s0 > s1) {
      const t = s0;
      s0 = s1;
      s1 = t;
    }
    if (s0 > lo) lo = s0;
    if (s1 < hi) hi = s1;
    if (lo > hi) return single(out, c);
  }
  // A rounded incident edge leaning on the reference edge touches it at one point (the given
  // contact); a parallel one (sine of the angle ≤ MANIFOLD_PARALLEL_SIN) gives two, each moved
  // out to where the line along −n_ref leaves the rounded edge (r / cos θ, or on an end's arc).
  const ex = w2x - w1x;
  const ey = w2y - w1y;
  const eLen = Math.sqrt(ex * ex + ey * ey);
  const cosInc = -(inc.normals[2 * ii] * rnx + inc.normals[2 * ii + 1] * rny);
  if (rInc > 0 && !(cosInc * cosInc >= 1 - MANIFOLD_PARALLEL_SIN * MANIFOLD_PARALLEL_SIN))
    return single(out, c);
  const tol = Math.min(MANIFOLD_TOLERANCE, MANIFOLD_RELATIVE_TOLERANCE * len);
  const baseId = ((refIsB ? 4096 : 0) + ri) * 4096 + ii;
  let count = 0;
  let deepest = Infinity;
  for (let k = 0; k < 2; k++) {
    const s = k === 0 ? lo : hi;
    if (k === 1 && hi === lo) break;
    const px = s === 0 ? w1x : s === 1 ? w2x : w1x + (w2x - w1x) * s;
    const py = s === 0 ? w1y : s === 1 ? w2y : w1y + (w2y - w1y) * s;
    const h = (px - v1x) * rnx + (py - v1y) * rny;
    // t: distance along u = −n_ref from p to the rounded incident edge's surface, r_inc / cos θ
    // where the exit's foot stays on the edge, else where the line leaves the end's arc (the
    // root of |p + t·u − w| = r_inc). Inline: a call with double arguments boxes them.
    let t = 0;
    if (rInc > 0) {
      t = rInc / cosInc;
      const f =
        eLen > 0 ? ((px - w1x) * ex + (py - w1y) * ey - t * (rnx * ex + rny * ey)) / eLen : 0;
      if (eLen > 0 && (f < 0 || f > eLen)) {
        const dx = px - (f < 0 ? w1x : w2x);
        const dy = py - (f < 0 ? w1y : w2y);
        const bu = -(dx * rnx + dy * rny);
        const disc = bu * bu - (dx * dx + dy * dy) + rInc * rInc;
        t = disc > 0 ? Math.max(rInc, -bu + Math.sqrt(disc)) : rInc;
      } else if (!(eLen > 0)) t = rInc;
    }
    const sep = h - rRef - t;
    if (sep > prediction + tol) continue;
    if (sep < deepest) deepest = sep;
    const refX = px - (h - rRef) * rnx;
    const refY = py - (h - rRef) * rny;
    const incX = px - t * rnx;
    const incY = py - t * rny;
    const p = out.points[count++];
    if (refIsB) {
      p.pointA.x = incX;
      p.pointA.y = incY;
      p.pointB.x = refX;
      p.pointB.y = refY;
    } else {
      p.pointA.x = refX;
      p.pointA.y = refY;
      p.pointB.x = incX;
      p.pointB.y = incY;
    }
    p.distance = sep;
    p.id = baseId * 4 + k + (s !== 0 && s !== 1 ? 2 : 0);
  }
  // The clipped points must keep the contact's depth: the incident edge's deeper end cut off by
  // a side line leaves a shallower manifold.
  if (count === 0 || !(Math.abs(deepest - c.distance) <= depthBar)) return single(out, c);
  out.count = count;
  out.normal.x = refIsB ? -rnx : rnx;
  out.normal.y = refIsB ? -rny : rny;
  return out;
}

const work = { a: makeWorkCore(), b: makeWorkCore() };
const cScratch = makeContact2();
const bInA: Pose2 = pose2.identity();

/**
 * Widens the contact `c` of `a` and `b` (A's frame, `bInAPose` = B's pose in A's frame, as
 * produced by `contactShapes2`) into a manifold. Allocates nothing.
 */
export function manifoldFromContact2(
  out: Manifold2,
  a: Shape2,
  b: Shape2,
  bInAPose: Pose2,
  c: Contact2,
  prediction: number,
): Manifold2 {
  viewCore(work.a, a.core);
  transformCore(work.b, b.core, bInAPose);
  return manifoldCores(out, work.a, work.b, c, prediction);
}

/**
 * Manifold of `a` and `b` in A's frame (`bInAPose` = B's pose in A's frame), or null when the gap
 * exceeds `prediction`. Allocates nothing.
 */
export function manifoldShapes2(
  out: Manifold2,
  a: Shape2,
  b: Shape2,
  bInAPose: Pose2,
  prediction: number,
): Manifold2 | null {
  if (!contactShapes2(cScratch, a, b, bInAPose, prediction)) return null;
  return manifoldFromContact2(out, a, b, bInAPose, cScratch, prediction);
}

/**
 * The contact manifold (up to 2 points, world frame) of `a` at `poseA` and `b` at `poseB`, or
 * null when their gap exceeds `prediction` (scene units ≥ 0, default 0). Written to `out` when
 * given. Throws `CollideError` for a negative or NaN prediction, an invalid shape or pose, a pair
 * out of the range of doubles or an answer that would not be finite (src/dim2/check2.ts).
 */
export function manifold2D(
  a: Shape2,
  poseA: Pose2,
  b: Shape2,
  poseB: Pose2,
  prediction = 0,
  out: Manifold2 = makeManifold2(),
): Manifold2 | null {
  const sa = checkedShape2("a", a);
  const sb = checkedShape2("b", b);
  checkManifold2Out(out);
  // A rotation within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = pose2.unitPose(unitA, poseA);
  poseB = pose2.unitPose(unitB, poseB);
  checkPair2(sa, poseA, sb, poseB);
  checkPrediction(prediction);
  if (!orderSwapped2(sa, poseA, sb, poseB))
    return manifoldInOrder2(out, sa, poseA, sb, poseB, prediction);
  // The pair in its canonical order, flipped (as contactWorld2): manifold(B, A) is manifold(A, B)
  // with the normal negated and each point's two points swapped, bit for bit.
  if (manifoldInOrder2(out, sb, poseB, sa, poseA, prediction) === null) return null;
  out.normal.x = 0 - out.normal.x;
  out.normal.y = 0 - out.normal.y;
  for (let i = 0; i < out.count; i++) {
    const pt = out.points[i];
    const x = pt.pointA.x;
    const y = pt.pointA.y;
    pt.pointA.x = pt.pointB.x;
    pt.pointA.y = pt.pointB.y;
    pt.pointB.x = x;
    pt.pointB.y = y;
  }
  return out;
}

/** {@link manifold2D} of checked shapes at unit poses, in the order given. */
function manifoldInOrder2(
  out: Manifold2,
  sa: Shape2,
  poseA: Pose2,
  sb: Shape2,
  poseB: Pose2,
  prediction: number,
): Manifold2 | null {
  pose2.invMul(bInA, poseA, poseB);
  // Far from unit scale, the pair's copies multiplied by k (src/dim2/extreme-scale2.ts).
  const k = pairScale2(sa, sb, bInA);
  if (k === 1) {
    if (!manifoldShapes2(out, sa, sb, bInA, prediction)) return null;
  } else {
    bInA.p.x *= k;
    bInA.p.y *= k;
    const ka = scaledShape2(sa, k);
    const kb = scaledShape2(sb, k);
    if (!manifoldShapes2(out, ka, kb, bInA, prediction * k)) return null;
    const u = 1 / k;
    for (let i = 0; i < out.count; i++) {
      const pt = out.points[i];
      pt.distance *= u;
      pt.pointA.x *= u;
      pt.pointA.y *= u;
      pt.pointB.x *= u;
      pt.pointB.y *= u;
    }
  }
  rot2.rotate(out.normal, poseA.q, out.normal);
  checkAnswer2("manifold2D", "normal.x", out.normal.x);
  checkAnswer2("manifold2D", "normal.y", out.normal.y);
  for (let i = 0; i < out.count; i++) {
    const pt = out.points[i];
    pose2.transformPoint(pt.pointA, poseA, pt.pointA);
    pose2.transformPoint(pt.pointB, poseA, pt.pointB);
    if (
      !(
        Number.isFinite(pt.distance) &&
        Number.isFinite(pt.pointA.x) &&
        Number.isFinite(pt.pointA.y) &&
        Number.isFinite(pt.pointB.x) &&
        Number.isFinite(pt.pointB.y)
      )
    ) {
      // The error path only: name the first bad number.
      checkAnswer2("manifold2D", `points[${i}].distance`, pt.distance);
      checkAnswer2("manifold2D", `points[${i}].pointA.x`, pt.pointA.x);
      checkAnswer2("manifold2D", `points[${i}].pointA.y`, pt.pointA.y);
      checkAnswer2("manifold2D", `points[${i}].pointB.x`, pt.pointB.x);
      checkAnswer2("manifold2D", `points[${i}].pointB.y`, pt.pointB.y);
    }
  }
  return out;
}
