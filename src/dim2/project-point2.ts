/**
 * Point projection on 2D shapes: the closest point of a shape to a query point, its distance and
 * whether the point is inside (Ericson 2005, §5.1: closest point on a segment, §5.1.2, and on a
 * convex polygon by half-plane tests and edges). Works on the shape's core (src/dim2/shapes.ts):
 * the closest point of the core, pushed out by the core radius.
 */
import { invalidValue } from "../errors.js";
import {
  commonExponent,
  EXACT_FAR_RATIO,
  type ExactNearest,
  exactCloser,
  exactFarActive,
  exactFarScope,
  exactNearestOnSegment,
  exactPathFor,
  ratioToNumber,
  toScaledVec,
} from "../geometry/exact-nearest.js";
import { hypot2 } from "../math/scalar.js";
import { checkAnswer2, checkedShape2, checkOffset2, checkVec2 } from "./check2.js";
import { type CoreProjection, makeWorkCore, projectOnCore, viewCore } from "./core2.js";
import { pointScale2, scaledShape2 } from "./extreme-scale2.js";
import type { Pose2 } from "./pose2.js";
import * as pose2 from "./pose2.js";
import type { Shape2 } from "./shapes.js";
import type { Vec2 } from "./vec2.js";

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitP = pose2.identity();

/** Result of {@link projectPoint2D} (world frame). */
export interface PointProjection2 {
  /** The closest point of the shape (the query point itself inside a solid shape). */
  point: Vec2;
  /** Distance from the query point to `point` (0 inside a solid shape). */
  distance: number;
  /** True when the query point is inside the shape or on its boundary. */
  inside: boolean;
}

/** A new projection record (allocates). */
export function makePointProjection2(): PointProjection2 {
  return { point: { x: 0, y: 0 }, distance: 0, inside: false };
}

const proj: CoreProjection = { x: 0, y: 0, distance: 0, inside: false, edge: -1, separation: 0 };
const core = makeWorkCore();
const pL = { x: 0, y: 0 };

/**
 * The core's nearest point `proj` again in exact rationals when p is farther from it than
 * {@link EXACT_FAR_RATIO} times its extent (src/geometry/exact-nearest.ts): the nearest of its
 * edges' exact nearest points (a convex polygon's nearest point to an outside point is on its
 * boundary), rounded once. The double walk's edge parameter drifts by ε·distance (a unit
 * triangle seen from (1e16, 1e16) answered its corner (1, 0), not its edge's midpoint).
 * Allocates (BigInt) only for such far points; `proj.distance` kept unless the rounded point's
 * offset gives it.
 */
function exactCoreWhenFar(px: number, py: number): void {
  if (!exactFarActive()) return;
  const n = core.count;
  const v = core.verts;
  let ext = 0;
  let coord = Math.max(Math.abs(v[0]), Math.abs(v[1]));
  for (let i = 1; i < n; i++) {
    ext = Math.max(ext, Math.abs(v[2 * i] - v[0]), Math.abs(v[2 * i + 1] - v[1]));
    coord = Math.max(coord, Math.abs(v[2 * i]), Math.abs(v[2 * i + 1]));
  }
  if (!exactPathFor(proj.distance, ext, coord)) return;
  const pts = [{ x: px, y: py, z: 0 }];
  for (let i = 0; i < n; i++) pts.push({ x: v[2 * i], y: v[2 * i + 1], z: 0 });
  const e = commonExponent(pts);
  const ints = pts.map((q) => toScaledVec(q, e));
  let best: ExactNearest | null = null;
  const edges = n === 2 ? 1 : n;
  for (let i = 0; i < edges; i++) {
    const r = exactNearestOnSegment(ints[1 + i], ints[1 + ((i + 1) % n)], ints[0]);
    if (best === null || exactCloser(r, best)) best = r;
  }
  if (best === null) return;
  proj.x = ratioToNumber(best.num[0], best.den, e);
  proj.y = ratioToNumber(best.num[1], best.den, e);
  const d = hypot2(px - proj.x, py - proj.y);
  if (Number.isFinite(d)) proj.distance = d;
}

/**
 * Projects the local point (px, py) on `shape` in its local frame, into `out` (local frame).
 * With `solid`, a point inside projects on itself at distance 0; without, on the boundary.
 */
export function projectPointLocal2(
  out: PointProjection2,
  shape: Shape2,
  px: number,
  py: number,
  solid: boolean,
): PointProjection2 {
  viewCore(core, shape.core);
  projectOnCore(proj, core, px, py);
  if (!proj.inside && core.count >= 2) exactCoreWhenFar(px, py);
  const r = core.radius;
  if (core.count >= 3 && proj.inside) {
    out.inside = true;
    if (solid) {
      out.point.x = px;
      out.point.y = py;
      out.distance = 0;
      return out;
    }
    const nx = core.normals[2 * proj.edge];
    const ny = core.normals[2 * proj.edge + 1];
    const push = r - proj.separation;
    out.point.x = px + push * nx;
    out.point.y = py + push * ny;
    out.distance = push;
    return out;
  }
  const dc = proj.distance;
  const inside = dc <= r;
  out.inside = inside;
  if (inside && solid) {
    out.point.x = px;
    out.point.y = py;
    out.distance = 0;
    return out;
  }
  if (dc > 0) {
    // Unit direction scaled by the larger component first (exact even for subnormal offsets).
    const m = Math.max(Math.abs(px - proj.x), Math.abs(py - proj.y));
    const l = hypot2((px - proj.x) / m, (py - proj.y) / m);
    const ux = (px - proj.x) / m / l;
    const uy = (py - proj.y) / m / l;
    out.point.x = proj.x + r * ux;
    out.point.y = proj.y + r * uy;
    out.distance = Math.abs(dc - r);
    return out;
  }
  // On the core itself (a segment core or a point core): leave along the core's first normal,
  // or +x for a point.
  const nx = core.count >= 2 ? core.normals[0] : 1;
  const ny = core.count >= 2 ? core.normals[1] : 0;
  out.point.x = px + r * nx;
  out.point.y = py + r * ny;
  out.distance = r;
  return out;
}

/**
 * The closest point of `shape` at `pose` to the world point `point`, its distance and whether the
 * point is inside (boundary included), world frame. With `solid` (default true) a point inside
 * projects on itself at distance 0; with `solid = false` it projects on the boundary. Written to
 * `out` when given. Throws `CollideError` for an invalid shape, pose or point, or an answer that
 * would not be finite (src/dim2/check2.ts). Source: Ericson 2005, §5.1.
 */
export function projectPoint2D(
  shape: Shape2,
  pose: Pose2,
  point: Vec2,
  solid = true,
  out: PointProjection2 = makePointProjection2(),
): PointProjection2 {
  const s = checkedShape2("shape", shape);
  // A rotation within the tolerance of unit length is used normalised (docs/FORMATS.md).
  pose = pose2.unitPose(unitP, pose);
  pose2.checkPose("pose", pose);
  checkVec2("point", point);
  if (typeof solid !== "boolean") invalidValue("solid", solid, "must be a boolean");
  checkOffset2("point", point, pose);
  pose2.invTransformPoint(pL, pose, point);
  // Far from unit scale, a copy of the shape and the point multiplied by k (exact; see
  // src/dim2/extreme-scale2.ts), and the answer's lengths divided by it.
  const k = pointScale2(s, pL);
  // The exact far path (src/geometry/exact-nearest.ts) on for this query only.
  exactFarScope(1);
  try {
    if (k === 1) projectPointLocal2(out, s, pL.x, pL.y, solid);
    else {
      projectPointLocal2(out, scaledShape2(s, k), pL.x * k, pL.y * k, solid);
      const u = 1 / k;
      out.point.x *= u;
      out.point.y *= u;
      out.distance *= u;
      // The scaled copy may have lost a small core's low bits (subnormal at k): the exact far
      // path again on the core as given.
      if (!out.inside && s.core.count >= 2 && s.core.radius === 0) {
        viewCore(core, s.core);
        proj.x = out.point.x;
        proj.y = out.point.y;
        proj.distance = out.distance;
        exactCoreWhenFar(pL.x, pL.y);
        out.point.x = proj.x;
        out.point.y = proj.y;
        out.distance = proj.distance;
      }
    }
  } finally {
    exactFarScope(-1);
  }
  if (out.inside && solid) {
    out.point.x = point.x;
    out.point.y = point.y;
    return out;
  }
  pose2.transformPoint(out.point, pose, out.point);
  checkAnswer2("projectPoint2D", "distance", out.distance);
  checkAnswer2("projectPoint2D", "point.x", out.point.x);
  checkAnswer2("projectPoint2D", "point.y", out.point.y);
  return out;
}
