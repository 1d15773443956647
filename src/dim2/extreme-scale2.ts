/**
 * Exact change of units for the 2D queries far from unit scale, as the 3D queries' change of
 * units (src/narrowphase/extreme-scale.ts). The 2D routines compare squared lengths, which
 * overflow above about 1e154 and underflow below about 1e-154: a 1e200 polygon at distance 2
 * from a unit circle was reported 4 away, an overlapping pair as apart. When a query's magnitude
 * (B's offset from A or the query point, and the shapes' sizes) is outside [2^-128, 2^128], the
 * query multiplies its shapes and offsets by a power of two — exact in binary floating point —
 * answers, and divides the lengths of the answer by the same power: in range the answer is bit
 * for bit the unscaled one, out of range it is the answer of the same query at unit scale.
 *
 * Only the argument-checked queries (`contact2D`, `distance2D`, `intersects2D`, `manifold2D`,
 * `castShapes2D`, `projectPoint2D`) rescale; ray casts scale inside their routines (no copies,
 * src/dim2/raycast2.ts); `CollisionWorld2D` keeps its bodies within WORLD_MAX_COORDINATE and does
 * not. The check allocates nothing; only an out-of-range query allocates its scaled shape copies.
 */
import { unitScale } from "../math/scalar.js";
import type { Pose2 } from "./pose2.js";
import { type Core2, type Shape2, ShapeType2, shapeSize2 } from "./shapes.js";
import type { Vec2 } from "./vec2.js";

/** Largest magnitude answered without a change of units (2^128 ≈ 3.4e38, as in 3D). */
export const UNIT_RANGE_MAX_2D = 2 ** 128;
/** Smallest non-zero magnitude answered without a change of units (2^-128). */
export const UNIT_RANGE_MIN_2D = 2 ** -128;

/** The power of two that brings magnitude `m` near 1 when it is outside the unit range, else 1. */
export function rangeScale2(m: number): number {
  return m > UNIT_RANGE_MAX_2D || (m > 0 && m < UNIT_RANGE_MIN_2D) ? unitScale(m) : 1;
}

/**
 * The change of units of the pair `a`, `b` with B's pose in A's frame `bInA`: 1 when the pair's
 * magnitude (B's offset and both shapes' sizes) is in the unit range, else the power of two that
 * brings it near 1. Allocates nothing.
 */
export function pairScale2(a: Shape2, b: Shape2, bInA: Pose2): number {
  const m = Math.max(Math.abs(bInA.p.x), Math.abs(bInA.p.y), shapeSize2(a), shapeSize2(b));
  return rangeScale2(m);
}

/** The change of units of a one-shape query of `s` at local point `p` (as {@link pairScale2}). */
export function pointScale2(s: Shape2, p: Vec2): number {
  return rangeScale2(Math.max(Math.abs(p.x), Math.abs(p.y), shapeSize2(s)));
}

/**
 * A copy of `s` with every length multiplied by `k` (a power of two; allocates). Internal: the
 * copy is not a constructor-made shape, so it must not reach a public function, which would
 * rebuild it.
 */
export function scaledShape2(s: Shape2, k: number): Shape2 {
  const src = s.core;
  const verts = new Float64Array(2 * src.count);
  for (let i = 0; i < verts.length; i++) verts[i] = src.verts[i] * k;
  const core: Core2 = { count: src.count, verts, normals: src.normals, radius: src.radius * k };
  switch (s.type) {
    case ShapeType2.Circle:
      return { type: s.type, radius: s.radius * k, core };
    case ShapeType2.Rect:
      return {
        type: s.type,
        halfExtents: { x: s.halfExtents.x * k, y: s.halfExtents.y * k },
        center: { x: s.center.x * k, y: s.center.y * k },
        core,
      };
    case ShapeType2.Polygon:
      return { type: s.type, core };
    case ShapeType2.Capsule:
      return {
        type: s.type,
        a: { x: s.a.x * k, y: s.a.y * k },
        b: { x: s.b.x * k, y: s.b.y * k },
        radius: s.radius * k,
        core,
      };
    case ShapeType2.Segment:
      return {
        type: s.type,
        a: { x: s.a.x * k, y: s.a.y * k },
        b: { x: s.b.x * k, y: s.b.y * k },
        core,
      };
  }
}
