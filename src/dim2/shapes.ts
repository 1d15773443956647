/**
 * The 2D shapes: circle, rectangle, convex polygon, capsule and segment, as plain data in their
 * local frame, placed in the world by a {@link Pose2}. An axis-aligned rectangle (`rect`) and
 * an oriented rectangle (`orect`) are the same local shape, {@link Rect2} (its corners, the
 * core's vertices, about its `center`: the origin, except for {@link rectFromMinMax}'s, whose
 * faces are the given min and max exactly): the rectangle is axis-aligned when its pose has the
 * identity rotation, which the narrow phase detects exactly to use interval overlap instead of
 * SAT.
 *
 * Every shape also carries its *core*, Box2D v3's view of a convex shape as a convex polygon of
 * 1–n vertices inflated by a radius (`b2ShapeProxy`): a circle is one point with its radius, a
 * capsule and a segment are two points (radius r and 0), a rectangle and a polygon are their
 * vertices with radius 0. The general algorithms (2D GJK, SAT penetration, clipping, casts) work
 * on cores only, so any convex pair is handled by one code path. Core vertices are stored
 * counter-clockwise in a `Float64Array` (x, y pairs) with the outward unit normal of the edge from
 * vertex i to vertex i + 1; a 2-vertex core has two edges (there and back) with opposite normals.
 *
 * Constructors validate their input and throw `CollideError` (`invalid_value`) naming the field
 * and the value. A polygon is accepted in either winding and stored counter-clockwise; vertices
 * that lie on an edge between their neighbours (collinear) are dropped; a non-convex polygon,
 * repeated points or fewer than 3 non-collinear points are errors.
 */

import { POLYGON2D_DEGENERACY_TOLERANCE } from "../constants.js";
import { checkFieldArg, invalidValue } from "../errors.js";
import { hypot2, unitScale } from "../math/scalar.js";
import { MADE_2D, MADE_3D } from "../shapes/dimension.js";
import type { Pose2 } from "./pose2.js";
import * as rot2 from "./rot2.js";
import type { Vec2 } from "./vec2.js";

/** Numeric ids of the 2D shape types, in pair-routine order. */
export const ShapeType2 = {
  Circle: 0,
  Rect: 1,
  Polygon: 2,
  Capsule: 3,
  Segment: 4,
} as const;

/** One of the {@link ShapeType2} ids. */
export type ShapeType2 = (typeof ShapeType2)[keyof typeof ShapeType2];

/**
 * The core of a convex 2D shape: a convex polygon of `count` ≥ 1 vertices (local frame,
 * counter-clockwise) inflated by `radius` ≥ 0. `normals[2i..2i+1]` is the outward unit normal of
 * the edge from vertex i to vertex (i + 1) mod count (absent when count = 1).
 */
export interface Core2 {
  count: number;
  verts: Float64Array;
  normals: Float64Array;
  radius: number;
}

/** A circle of `radius` > 0 centred at the local origin. */
export interface Circle2 {
  readonly type: typeof ShapeType2.Circle;
  readonly radius: number;
  readonly core: Core2;
}

/**
 * A rectangle with `halfExtents` ≥ 0 (scene units) about `center` (local frame; the origin unless
 * made by {@link rectFromMinMax}), edges along the local axes. Its corners are its core's
 * vertices, exact; `center` and `halfExtents` are their middle and half width rounded (the half
 * width up), so the routines of the rectangle read the corners (`rectCorners2`).
 */
export interface Rect2 {
  readonly type: typeof ShapeType2.Rect;
  readonly halfExtents: Vec2;
  readonly center: Vec2;
  readonly core: Core2;
}

/** A convex polygon: `core.verts` counter-clockwise in the local frame, no collinear vertices. */
export interface Polygon2 {
  readonly type: typeof ShapeType2.Polygon;
  readonly core: Core2;
}

/** A capsule: the segment `a`–`b` (local frame) inflated by `radius` > 0; a = b is a circle. */
export interface Capsule2 {
  readonly type: typeof ShapeType2.Capsule;
  readonly a: Vec2;
  readonly b: Vec2;
  readonly radius: number;
  readonly core: Core2;
}

/** A segment `a`–`b` (local frame) without thickness; a = b is a point. */
export interface Segment2 {
  readonly type: typeof ShapeType2.Segment;
  readonly a: Vec2;
  readonly b: Vec2;
  readonly core: Core2;
}

/** Any 2D shape. */
export type Shape2 = Circle2 | Rect2 | Polygon2 | Capsule2 | Segment2;

/** A shape with its world pose. */
export interface PosedShape2 {
  shape: Shape2;
  pose: Pose2;
}

function checkFinite(field: string, v: number): void {
  if (typeof v !== "number" || !Number.isFinite(v))
    invalidValue(field, v, "must be a finite number");
}

function checkVec(field: string, v: Vec2): void {
  if (v === null || typeof v !== "object" || !Number.isFinite(v.x) || !Number.isFinite(v.y)) {
    invalidValue(field, v, "must be a finite vector {x, y}");
  }
}

function checkPositive(field: string, v: number): void {
  checkFinite(field, v);
  if (!(v > 0)) invalidValue(field, v, "must be > 0");
}

/** Builds a core from counter-clockwise points (x, y pairs) with distinct consecutive vertices. */
/**
 * Freezes a 2D shape deeply (its vectors and core; typed arrays cannot be frozen and are its own
 * copies), as the 3D constructors do: a changed shape is a new shape.
 */
function frozen<T extends object>(s: T): T {
  MADE_2D.add(s);
  for (const v of Object.values(s)) {
    if (v !== null && typeof v === "object" && !ArrayBuffer.isView(v)) Object.freeze(v);
  }
  return Object.freeze(s);
}

/**
 * The 2D shape to keep beyond the call (a world body's): `s` itself when one of the `make…`
 * constructors built it (validated, deeply frozen); otherwise a hand-built object is rebuilt by
 * its type's constructor from its defining fields (a circle's `radius`, a rectangle's
 * `halfExtents`, a polygon's `core.verts`, a capsule's `a`, `b` and `radius`, a segment's `a` and
 * `b`), which validates them (naming `<field>.radius`, …) and owns the copy: changing the
 * hand-built object later changes nothing that was kept, and its `core` is never trusted.
 */
export function keptShape2(field: string, s: Shape2): Shape2 {
  if (s === null || typeof s !== "object") {
    return invalidValue(field, s, "must be a 2D shape (makeCircle, makeRect, makePolygon, ...)");
  }
  if (MADE_2D.has(s)) return s;
  if (MADE_3D.has(s))
    invalidValue(
      field,
      s,
      "is a 3D shape: 2D queries take 2D shapes (dim2.makeCircle, makeRect, makePolygon, ...)",
    );
  const f = (k: string) => `${field}.${k}`;
  const h = s as unknown as Record<string, unknown>;
  switch (s.type) {
    case ShapeType2.Circle:
      return makeCircle(h.radius as number, f("radius"));
    case ShapeType2.Rect: {
      const r = makeRect(h.halfExtents as Vec2, f("halfExtents"));
      const c = h.center as Vec2 | undefined;
      if (c === undefined || (c.x === 0 && c.y === 0)) return r;
      checkVec(f("center"), c);
      const e = r.halfExtents;
      return cornersRect(c.x - e.x, c.y - e.y, c.x + e.x, c.y + e.y);
    }
    case ShapeType2.Polygon: {
      const core = h.core as Core2 | null;
      const verts = core !== null && typeof core === "object" ? core.verts : undefined;
      if (verts === null || typeof verts !== "object" || typeof verts.length !== "number") {
        return invalidValue(f("core.verts"), verts, "must be the polygon's packed x, y vertices");
      }
      const pts: Vec2[] = [];
      for (let i = 0; i + 1 < verts.length; i += 2) pts.push({ x: verts[i], y: verts[i + 1] });
      return makePolygon(pts, f("core.verts"));
    }
    case ShapeType2.Capsule:
      return makeCapsule(h.a as Vec2, h.b as Vec2, h.radius as number, field);
    case ShapeType2.Segment:
      return makeSegment(h.a as Vec2, h.b as Vec2, field);
    default:
      return invalidValue(
        f("type"),
        (s as { type: unknown }).type,
        "must be a 2D shape type (ShapeType2)",
      );
  }
}

function makeCore(xy: readonly number[], radius: number): Core2 {
  const count = xy.length / 2;
  const verts = Float64Array.from(xy);
  const normals = new Float64Array(count > 1 ? 2 * count : 0);
  if (count > 1) {
    for (let i = 0; i < count; i++) {
      const j = (i + 1) % count;
      // Scale by the larger component first so that tiny (even subnormal) edges keep a unit normal.
      let dx = verts[2 * j] - verts[2 * i];
      let dy = verts[2 * j + 1] - verts[2 * i + 1];
      if (!(Number.isFinite(dx) && Number.isFinite(dy))) {
        // An edge wider than the largest double (a polygon of ±1e308): its half has the direction.
        dx = 0.5 * verts[2 * j] - 0.5 * verts[2 * i];
        dy = 0.5 * verts[2 * j + 1] - 0.5 * verts[2 * i + 1];
      }
      const m = Math.max(Math.abs(dx), Math.abs(dy));
      const ex = dx / m;
      const ey = dy / m;
      const len = hypot2(ex, ey);
      normals[2 * i] = ey / len;
      normals[2 * i + 1] = -ex / len;
    }
  }
  return { count, verts, normals, radius };
}

/** A core of the segment a–b inflated by r (a single point when a = b). */
function segmentCore(a: Vec2, b: Vec2, r: number): Core2 {
  if (a.x === b.x && a.y === b.y) return makeCore([a.x, a.y], r);
  return makeCore([a.x, a.y, b.x, b.y], r);
}

/**
 * A circle of `radius` > 0 (scene units) centred at the local origin; place it with a pose.
 * Throws `CollideError` naming `field` when the radius is not a finite positive number.
 */
export function makeCircle(radius: number, field = "radius"): Circle2 {
  checkFieldArg("makeCircle", field, "makeCircle takes the radius only");
  checkPositive(field, radius);
  return frozen({ type: ShapeType2.Circle, radius, core: makeCore([0, 0], radius) });
}

/**
 * A rectangle with half extents `halfExtents` ≥ 0 (scene units) centred at the local origin.
 * Zero extents are allowed (a segment or a point). Throws `CollideError` naming `field`.
 */
export function makeRect(halfExtents: Vec2, field = "halfExtents"): Rect2 {
  // makeRect(min, max) would name the second corner as the field ("[object Object] must be…").
  checkFieldArg(
    "makeRect",
    field,
    "makeRect takes the half extents only; for two corners use rectFromMinMax(min, max)",
  );
  checkVec(field, halfExtents);
  const hx = halfExtents.x;
  const hy = halfExtents.y;
  if (hx < 0 || hy < 0) invalidValue(field, halfExtents, "must be >= 0 on every axis");
  return cornersRect(-hx, -hy, hx, hy);
}

/**
 * The rectangle [x0, x1] × [y0, y1] (local frame, x0 ≤ x1, y0 ≤ y1, finite): its core's vertices
 * are these corners exactly (fewer for zero width or height), its centre and half extents their
 * middle and half width rounded (the half width up, so it covers the corners).
 */
function cornersRect(x0: number, y0: number, x1: number, y1: number): Rect2 {
  let xy: number[];
  if (x0 === x1 && y0 === y1) xy = [x0, y0];
  else if (y0 === y1) xy = [x0, y0, x1, y0];
  else if (x0 === x1) xy = [x0, y0, x0, y1];
  else xy = [x0, y0, x1, y0, x1, y1, x0, y1];
  const cx = 0.5 * x0 + 0.5 * x1 + 0;
  const cy = 0.5 * y0 + 0.5 * y1 + 0;
  return frozen({
    type: ShapeType2.Rect,
    halfExtents: { x: Math.max(x1 - cx, cx - x0), y: Math.max(y1 - cy, cy - y0) },
    center: { x: cx, y: cy },
    core: makeCore(xy, 0),
  });
}

/**
 * The corners of rectangle `r` (local frame) into `out` as [x0, y0, x1, y1]: its core's first
 * vertex and the one halfway round (the core of a rectangle of zero width or height has 2
 * vertices, of a point 1). Exact; allocates nothing.
 */
export function rectCorners2(out: Float64Array, r: Rect2): Float64Array {
  const v = r.core.verts;
  const k = 2 * (r.core.count >> 1);
  out[0] = v[0];
  out[1] = v[1];
  out[2] = v[k];
  out[3] = v[k + 1];
  return out;
}

/**
 * A convex polygon from `points` (local frame), in either winding; stored counter-clockwise with
 * collinear vertices removed. Throws `CollideError` naming `field` (or `field[i]`) for fewer than
 * 3 points, non-finite coordinates, repeated points, fewer than 3 non-collinear points, or a
 * non-convex (or self-intersecting) polygon. Tolerances are relative to the points' extent
 * (POLYGON2D_DEGENERACY_TOLERANCE). Source: Ericson 2005, §3.9 (convexity by half-plane tests).
 */
export function makePolygon(points: readonly Vec2[], field = "points"): Polygon2 {
  checkFieldArg("makePolygon", field, "makePolygon takes the points only");
  if (!Array.isArray(points)) invalidValue(field, points, "must be an array of points");
  const n = points.length;
  if (n < 3) invalidValue(field, points, "must have at least 3 points");
  let big = 0;
  for (let i = 0; i < n; i++) {
    checkVec(`${field}[${i}]`, points[i]);
    big = Math.max(big, Math.abs(points[i].x), Math.abs(points[i].y));
  }
  // The tests below square lengths: they run on the points multiplied by a power of two that
  // brings the largest coordinate near 1 (exact), so that a polygon of 1e200, or of ±1e308 whose
  // width overflows a double, is judged as the same polygon of unit size. The kept vertices are
  // the points as given.
  const k = unitScale(big);
  const pts: Vec2[] = points.map((p) => ({ x: p.x * k, y: p.y * k }));
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, pts[i].x);
    minY = Math.min(minY, pts[i].y);
    maxX = Math.max(maxX, pts[i].x);
    maxY = Math.max(maxY, pts[i].y);
  }
  const extent = Math.max(maxX - minX, maxY - minY);
  const lenTol = POLYGON2D_DEGENERACY_TOLERANCE * extent;
  const areaTol = POLYGON2D_DEGENERACY_TOLERANCE * extent * extent;
  if (!(extent > 0)) invalidValue(field, points, "must have at least 3 non-collinear points");
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (hypot2(pts[i].x - pts[j].x, pts[i].y - pts[j].y) <= lenTol) {
        const same = points[i].x === points[j].x && points[i].y === points[j].y;
        invalidValue(
          `${field}[${j}]`,
          points[j],
          same
            ? `repeats ${field}[${i}]`
            : `lies within ${lenTol / k} of ${field}[${i}] (${JSON.stringify([points[i].x, points[i].y])}): a repeated point at the polygon's size`,
        );
      }
    }
  }
  // Coordinates relative to the first point keep the cross products accurate far from the origin.
  const ox = pts[0].x;
  const oy = pts[0].y;
  let area2 = 0;
  for (let i = 1; i + 1 < n; i++) {
    area2 += (pts[i].x - ox) * (pts[i + 1].y - oy) - (pts[i].y - oy) * (pts[i + 1].x - ox);
  }
  if (Math.abs(area2) <= areaTol) {
    // Zero area: all points on one line, or a self-intersecting ("bow tie") outline.
    let far = 0;
    for (let i = 1; i < n; i++) {
      if (hypot2(pts[i].x - ox, pts[i].y - oy) > hypot2(pts[far].x - ox, pts[far].y - oy)) {
        far = i;
      }
    }
    const fx = pts[far].x - ox;
    const fy = pts[far].y - oy;
    for (let i = 1; i < n; i++) {
      if (Math.abs(fx * (pts[i].y - oy) - fy * (pts[i].x - ox)) > areaTol) {
        invalidValue(field, points, "must be convex (the outline crosses itself)");
      }
    }
    invalidValue(field, points, "must have at least 3 non-collinear points");
  }
  // Indices into `points`, counter-clockwise.
  const index = (k: number) => (area2 > 0 ? k : n - 1 - k);
  const ccw: number[] = [];
  for (let i = 0; i < n; i++) ccw.push(index(i));
  for (let i = 0; i < n; i++) {
    const p = pts[ccw[i]];
    const q = pts[ccw[(i + 1) % n]];
    const ex = q.x - p.x;
    const ey = q.y - p.y;
    for (let j = 0; j < n; j++) {
      const c = ex * (pts[ccw[j]].y - p.y) - ey * (pts[ccw[j]].x - p.x);
      if (c < -areaTol) {
        invalidValue(
          field,
          points,
          `must be convex: ${field}[${index(j)}] lies outside the edge from ${field}[${index(i)}]`,
        );
      }
    }
  }
  let kept = ccw;
  for (let changed = true; changed && kept.length > 3; ) {
    changed = false;
    const m = kept.length;
    for (let i = 0; i < m; i++) {
      const a = pts[kept[(i + m - 1) % m]];
      const b = pts[kept[i]];
      const c = pts[kept[(i + 1) % m]];
      const cr = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
      if (cr <= areaTol) {
        kept = kept.filter((_, k) => k !== i);
        changed = true;
        break;
      }
    }
  }
  const xy: number[] = [];
  for (const i of kept) xy.push(points[i].x, points[i].y);
  return frozen({ type: ShapeType2.Polygon, core: makeCore(xy, 0) });
}

/**
 * A capsule: the segment `a`–`b` (local frame) inflated by `radius` > 0; a = b gives a circle.
 * Throws `CollideError` naming `field.a`, `field.b` or `field.radius`.
 */
export function makeCapsule(a: Vec2, b: Vec2, radius: number, field = ""): Capsule2 {
  checkFieldArg("makeCapsule", field, "makeCapsule takes the segment's ends a, b and the radius");
  const f = (k: string) => (field ? `${field}.${k}` : k);
  checkVec(f("a"), a);
  checkVec(f("b"), b);
  checkPositive(f("radius"), radius);
  return frozen({
    type: ShapeType2.Capsule,
    a: { x: a.x, y: a.y },
    b: { x: b.x, y: b.y },
    radius,
    core: segmentCore(a, b, radius),
  });
}

/** A segment `a`–`b` (local frame); a = b gives a point. Throws `CollideError` naming `field.a`/`field.b`. */
export function makeSegment(a: Vec2, b: Vec2, field = ""): Segment2 {
  checkFieldArg("makeSegment", field, "makeSegment takes the two ends a, b");
  const f = (k: string) => (field ? `${field}.${k}` : k);
  checkVec(f("a"), a);
  checkVec(f("b"), b);
  return frozen({
    type: ShapeType2.Segment,
    a: { x: a.x, y: a.y },
    b: { x: b.x, y: b.y },
    core: segmentCore(a, b, 0),
  });
}

// Posed constructors in world coordinates: each recentres the shape on a point of its own so
// that local coordinates stay small far from the origin.

function checkAngle(field: string, angle: number): void {
  checkFinite(field, angle);
}

/** A circle at world `center` with `radius` > 0 (allocates). Throws `CollideError`. */
export function circleAt(center: Vec2, radius: number, field = ""): PosedShape2 {
  checkVec(field ? `${field}.center` : "center", center);
  return {
    shape: makeCircle(radius, field ? `${field}.radius` : "radius"),
    pose: { p: { x: center.x, y: center.y }, q: rot2.identity() },
  };
}

/**
 * An axis-aligned rectangle from world corners `min` ≤ `max` (a zero-thickness rectangle is
 * allowed), posed at the corners' local origin (as {@link polygonAt}: the local corners are
 * exact, so its faces are `min` and `max` exactly however far from the world origin; a centre
 * (min + max)/2 rounded by half an ulp of the offset). Throws `CollideError` naming
 * `field.min`/`field.max`.
 */
export function rectFromMinMax(min: Vec2, max: Vec2, field = ""): PosedShape2 {
  const f = (k: string) => (field ? `${field}.${k}` : k);
  checkVec(f("min"), min);
  checkVec(f("max"), max);
  if (min.x > max.x || min.y > max.y) {
    invalidValue(field || "rect", { min, max }, "must have min <= max on every axis");
  }
  const o = localOriginOf([min, max]);
  return {
    shape: cornersRect(min.x - o.x, min.y - o.y, max.x - o.x, max.y - o.y),
    pose: { p: o, q: rot2.identity() },
  };
}

/** An axis-aligned rectangle from world `center` and `halfExtents` ≥ 0. Throws `CollideError`. */
export function rectFromCenter(center: Vec2, halfExtents: Vec2, field = ""): PosedShape2 {
  const f = (k: string) => (field ? `${field}.${k}` : k);
  checkVec(f("center"), center);
  return {
    shape: makeRect(halfExtents, f("halfExtents")),
    pose: { p: { x: center.x, y: center.y }, q: rot2.identity() },
  };
}

/**
 * An oriented rectangle: world `center`, `halfExtents` ≥ 0 and `angle` (radians, CCW). Calls
 * `Math.cos`/`Math.sin` once (the boundary, see src/dim2/rot2.ts). Throws `CollideError`.
 */
export function orientedRect(
  center: Vec2,
  halfExtents: Vec2,
  angle: number,
  field = "",
): PosedShape2 {
  const f = (k: string) => (field ? `${field}.${k}` : k);
  checkVec(f("center"), center);
  checkAngle(f("angle"), angle);
  return {
    shape: makeRect(halfExtents, f("halfExtents")),
    pose: { p: { x: center.x, y: center.y }, q: rot2.fromAngle(angle) },
  };
}

/**
 * The local origin, on one axis, of a shape whose world coordinates span [lo, hi], chosen so that
 * every coordinate minus it is exact: 0 when the span holds 0 or its near end is closer to 0
 * than half its far end; otherwise a point o with the span inside [o/2, 2o] (Sterbenz's lemma:
 * x − o is then exact; Goldberg 1991, Theorem 11), the middle of the span rounded to the coarsest
 * power-of-two grid that keeps it there. A shape's coordinates and another's, offset by the
 * difference of two such origins, are then the exact world coordinates less the first origin —
 * two shapes sharing a world point share it in either one's frame (a chain of segments rounded
 * at the joints, 1e-17 apart, when the origin was any grid point as coarse as the shape: a
 * coordinate of 0.056 less 0.125 rounds). A polygon of 1e200 with a corner at (0, 0) and a unit
 * circle at (3, 0) keep their offset 3. Overflow-free for any finite span.
 */
function localOrigin(lo: number, hi: number): number {
  if (!(lo > 0 || hi < 0)) return 0;
  const near = hi < 0 ? -hi : lo;
  const far = hi < 0 ? -lo : hi;
  if (!(far <= 2 * near)) return 0;
  const mid = 0.5 * near + 0.5 * far;
  const half = 0.5 * far - 0.5 * near;
  let g = half > 0 ? 2 / unitScale(half) : 0;
  let o = mid;
  while (g > 0) {
    o = Math.round(mid / g) * g;
    if (o >= 0.5 * far && o <= 2 * near) break;
    g *= 0.5;
    o = mid;
  }
  return hi < 0 ? -o : o;
}

/** {@link localOrigin} on both axes of `points` (at least one; allocates). */
function localOriginOf(points: readonly Vec2[]): Vec2 {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of points) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  return { x: localOrigin(minX, maxX) + 0, y: localOrigin(minY, maxY) + 0 };
}

/**
 * A convex polygon from world `points` (either winding), recentred on a point near their middle
 * (the middle of their box rounded to a power-of-two grid as coarse as the polygon, so that the
 * local coordinates are exact). Throws `CollideError` as {@link makePolygon}, naming
 * `field.points`.
 */
export function polygonAt(points: readonly Vec2[], field = ""): PosedShape2 {
  const f = field ? `${field}.points` : "points";
  if (!Array.isArray(points)) invalidValue(f, points, "must be an array of points");
  for (let i = 0; i < points.length; i++) checkVec(`${f}[${i}]`, points[i]);
  const c = points.length > 0 ? localOriginOf(points) : { x: 0, y: 0 };
  const local = points.map((p) => ({ x: p.x - c.x, y: p.y - c.y }));
  // Validate on the world points so that messages quote the user's values.
  makePolygon(points, f);
  return { shape: makePolygon(local, f), pose: { p: c, q: rot2.identity() } };
}

/**
 * A capsule from world end points `a`, `b` and `radius` > 0, recentred on a point near the
 * midpoint (as {@link polygonAt}: the local end points are exact).
 */
export function capsuleAt(a: Vec2, b: Vec2, radius: number, field = ""): PosedShape2 {
  makeCapsule(a, b, radius, field);
  const c = localOriginOf([a, b]);
  return {
    shape: makeCapsule(
      { x: a.x - c.x, y: a.y - c.y },
      { x: b.x - c.x, y: b.y - c.y },
      radius,
      field,
    ),
    pose: { p: c, q: rot2.identity() },
  };
}

/**
 * A segment from world end points `a`, `b`, recentred on a point near the midpoint (as
 * {@link polygonAt}: the local end points are exact).
 */
export function segmentAt(a: Vec2, b: Vec2, field = ""): PosedShape2 {
  makeSegment(a, b, field);
  const c = localOriginOf([a, b]);
  return {
    shape: makeSegment({ x: a.x - c.x, y: a.y - c.y }, { x: b.x - c.x, y: b.y - c.y }, field),
    pose: { p: c, q: rot2.identity() },
  };
}

/**
 * The world AABB of `shape` at `pose`, written to `outMin`/`outMax` (scene units): the box of the
 * core's transformed vertices grown by the core radius. Allocates nothing.
 */
export function aabbShape2(outMin: Vec2, outMax: Vec2, shape: Shape2, pose: Pose2): void {
  const { count, verts, radius } = shape.core;
  const c = pose.q.c;
  const s = pose.q.s;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < count; i++) {
    const x = verts[2 * i];
    const y = verts[2 * i + 1];
    const wx = c * x - s * y + pose.p.x;
    const wy = s * x + c * y + pose.p.y;
    if (wx < minX) minX = wx;
    if (wx > maxX) maxX = wx;
    if (wy < minY) minY = wy;
    if (wy > maxY) maxY = wy;
  }
  outMin.x = minX - radius;
  outMin.y = minY - radius;
  outMax.x = maxX + radius;
  outMax.y = maxY + radius;
}

/** The largest local coordinate magnitude of the shape plus its radius: its size (scene units). */
export function shapeSize2(shape: Shape2): number {
  const { count, verts, radius } = shape.core;
  let m = 0;
  for (let i = 0; i < 2 * count; i++) m = Math.max(m, Math.abs(verts[i]));
  return m + radius;
}
