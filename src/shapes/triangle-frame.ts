/**
 * The frame at a far triangle's first corner, shared by the pair queries (`intersects`,
 * `distance`, `contact`, `manifold`, `castShapes`; issue 16, class 7).
 *
 * A triangle has no pose of its own: given in world coordinates (a mesh's triangle taken alone,
 * `collide`'s JSON triangle, a pose at the identity), its corners are far from its frame's origin,
 * and every quantity formed in that frame rounds at the triangle's distance from the origin, not
 * at the pair's size — B's support points moved into A's frame, the near-touching band of
 * src/narrowphase/touching.ts (a fraction of the witnesses' magnitude): a triangle 0.5 wide at
 * 1.5e8 lost ulps of 1.5e8 (3e-8) against a cone beside it. A query whose pair holds such a triangle
 * is answered in the frame at its first corner instead, rounded to a power-of-two grid of 2^-20
 * of the triangle's extent where that moves both triangles' corners exactly (a corner on the
 * other's edge stays on it): both shapes moved by minus that origin (the triangles' corners, or
 * the other shape's pose translation), which is exact for the triangles' coordinates near it and
 * rounds the other shape's offset at the pair's spread; the answer's points are moved back by
 * plus the origin (one rounding at their world magnitude, which no world point escapes).
 * Distances, normals and times are those of the moved pair. Near the origin (or a rotated triangle, whose corners are its own) nothing moves: a
 * query costs the type test of each shape and, for a triangle, a comparison of its corners.
 * Loaded by the triangle's module (src/shapes/triangle.ts), which thereby sets the queries' hook
 * (src/shapes/far-frame.ts): an app without triangles does not bundle it.
 */
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { GRID_ORIGIN_BITS } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { FAR_FRAME_SLOTS, type FarFrame, setFarFrameHook } from "./far-frame.js";
import type { Shape } from "./shape.js";
import { ShapeType } from "./shape.js";
import type { Triangle } from "./triangle.js";

/**
 * A triangle's first corner's distance from its frame's origin, in its extents (largest corner
 * difference per axis), above which a pair query moves to that corner: 4. A triangle within it
 * keeps the answers it had bit for bit; its coordinates' rounding, an ulp of 4 extents, stays
 * far below the bars' 64ε of the pair's size (at 2^10 extents, a triangle of 3.6e5 at 2.2e8
 * was 9.3e-9 from a cone of 1.3 it touched, 3 times the bar).
 */
export const TRIANGLE_FRAME_RATIO = 4;

/** A pair moved into the frame at a far triangle's corner (module scratch of one query slot). */
interface TriangleFrame extends FarFrame {
  readonly triA: { type: number; a: Vec3; b: Vec3; c: Vec3 };
  readonly triB: { type: number; a: Vec3; b: Vec3; c: Vec3 };
}

/** A new triangle frame (allocates: one per query, made once at module load). */
function makeTriangleFrame(): TriangleFrame {
  const tri = () => ({
    type: ShapeType.Triangle,
    a: vec3.create(),
    b: vec3.create(),
    c: vec3.create(),
  });
  const placeholder = tri() as unknown as Shape;
  return {
    origin: vec3.create(),
    a: placeholder,
    poseA: iso.identity(),
    b: placeholder,
    poseB: iso.identity(),
    triA: tri(),
    triB: tri(),
  };
}

/** The larger per-axis difference of a triangle's corners from its first (its extent). */
function triangleExtent(t: Triangle): number {
  return Math.max(
    Math.abs(t.b.x - t.a.x),
    Math.abs(t.b.y - t.a.y),
    Math.abs(t.b.z - t.a.z),
    Math.abs(t.c.x - t.a.x),
    Math.abs(t.c.y - t.a.y),
    Math.abs(t.c.z - t.a.z),
  );
}

/**
 * True for an unrotated triangle whose first corner lies more than {@link TRIANGLE_FRAME_RATIO}
 * times its extent from its frame's origin (false for NaN or infinite corners: those are refused
 * as given).
 */
function farTriangle(s: Shape, pose: Isometry): boolean {
  if (s.type !== ShapeType.Triangle) return false;
  const r = pose.rotation;
  if (!(r.x === 0 && r.y === 0 && r.z === 0)) return false;
  const t = s as Triangle;
  const a = t.a;
  // m > RATIO·extent, each corner difference compared in turn (a triangle near the origin
  // usually fails the first).
  const k = Math.max(Math.abs(a.x), Math.abs(a.y), Math.abs(a.z)) / TRIANGLE_FRAME_RATIO;
  const b = t.b;
  const c = t.c;
  return (
    Math.abs(b.x - a.x) < k &&
    Math.abs(b.y - a.y) < k &&
    Math.abs(b.z - a.z) < k &&
    Math.abs(c.x - a.x) < k &&
    Math.abs(c.y - a.y) < k &&
    Math.abs(c.z - a.z) < k
  );
}

/**
 * Moves the pair (`a` at `poseA`, `b` at `poseB`: valid, checked by the caller) into `f`, the
 * frame at the first corner of its far triangle ({@link farTriangle}), and returns true; false
 * (f untouched) when neither is one. Of two far triangles the frame is the smaller one's (the
 * lesser extent, then the lesser corner), so that both orders of a pair move alike (swapping A
 * and B stays exact).
 */
function enterTriangleFrame(
  f: TriangleFrame,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
): boolean {
  if (a.type !== ShapeType.Triangle && b.type !== ShapeType.Triangle) return false;
  const farA = farTriangle(a, poseA);
  const farB = farTriangle(b, poseB);
  if (!farA && !farB) return false;
  const at = farA && (!farB || smallerTriangle(a as Triangle, b as Triangle)) ? a : b;
  const other = at === a ? b : a;
  const u =
    other.type === ShapeType.Triangle && unrotated(at === a ? poseB : poseA)
      ? (other as Triangle)
      : null;
  frameOrigin(f.origin, at as Triangle, u);
  f.a = moveShape(a, poseA, f.triA, f.poseA, f.origin);
  f.b = moveShape(b, poseB, f.triB, f.poseB, f.origin);
  return true;
}

/** True when `pose` has no rotation (its quaternion's vector part is zero). */
function unrotated(pose: Isometry): boolean {
  const r = pose.rotation;
  return r.x === 0 && r.y === 0 && r.z === 0;
}

/** [0] the grid step of {@link frameOrigin}, [1] the candidate coordinate on the axis at hand. */
const grid = new Float64Array(2);

/**
 * `out` = the frame's origin for far triangle `t`, the other shape `u` when it is an unrotated
 * triangle (else null): per axis, t's first corner rounded to a multiple of the largest power of
 * two not above 2^-GRID_ORIGIN_BITS of t's extent (src/math/scalar.ts) when every corner of t and
 * of u minus it is exact, else 0 (t's corner itself for a triangle without extent). Moved by the
 * grid point, the corners keep their input values (a corner of one lying on an edge of the other
 * stays on it: moved by the corner, rounded, two triangles touching so at 1e9 were 3e-17 apart);
 * the grid point lies within 2^-21 of the extent from the corner, so the moved coordinates stay
 * of the triangle's size.
 */
function frameOrigin(out: Vec3, t: Triangle, u: Triangle | null): void {
  const e = Math.max(
    Math.abs(t.b.x - t.a.x),
    Math.abs(t.b.y - t.a.y),
    Math.abs(t.b.z - t.a.z),
    Math.abs(t.c.x - t.a.x),
    Math.abs(t.c.y - t.a.y),
    Math.abs(t.c.z - t.a.z),
  );
  vec3.copy(out, t.a);
  if (!(e > 0 && e < Number.POSITIVE_INFINITY)) return;
  grid[0] = 2 ** (Math.floor(Math.log2(e)) - GRID_ORIGIN_BITS);
  if (grid[0] * 2 ** GRID_ORIGIN_BITS > e) grid[0] /= 2;
  for (let axis = 0; axis < 3; axis++) {
    const g = grid[0];
    const x = axis === 0 ? t.a.x : axis === 1 ? t.a.y : t.a.z;
    grid[1] = Math.round(x / g) * g;
    // Off the grid point a corner whose difference is inexact has a magnitude at most that
    // difference (it needs more than 53 bits): the axis's coordinates are then within twice
    // the pair's spread of 0, and that axis is left unmoved (0 moves every corner exactly).
    if (!(Number.isFinite(grid[1]) && shiftExact(t, axis) && (u === null || shiftExact(u, axis))))
      grid[1] = 0;
    if (axis === 0) out.x = grid[1];
    else if (axis === 1) out.y = grid[1];
    else out.z = grid[1];
  }
}

/** True when each corner of `t` on `axis` minus grid[1] is exact (TwoSum's error term 0). */
function shiftExact(t: Triangle, axis: number): boolean {
  const o = grid[1];
  for (let i = 0; i < 3; i++) {
    const p = i === 0 ? t.a : i === 1 ? t.b : t.c;
    const x = axis === 0 ? p.x : axis === 1 ? p.y : p.z;
    // TwoSum(x, −o) written out: exact when its error term is 0.
    const d = x - o;
    const z = d - x;
    if (!(Number.isFinite(d) && x - (d - z) + (-o - z) === 0)) return false;
  }
  return true;
}

/** True when triangle `s` is the frame of the pair (s, t) of far triangles (see enterTriangleFrame). */
function smallerTriangle(s: Triangle, t: Triangle): boolean {
  const es = triangleExtent(s);
  const et = triangleExtent(t);
  if (es !== et) return es < et;
  if (s.a.x !== t.a.x) return s.a.x < t.a.x;
  if (s.a.y !== t.a.y) return s.a.y < t.a.y;
  return s.a.z <= t.a.z;
}

/**
 * Shape `s` at `pose` moved by −o: an unrotated triangle's corners moved (into `tri`, returned;
 * its pose kept, into `local`), any other shape's pose translation moved (into `local`).
 */
function moveShape(
  s: Shape,
  pose: Isometry,
  tri: { a: Vec3; b: Vec3; c: Vec3 },
  local: Isometry,
  o: Vec3,
): Shape {
  iso.copy(local, pose);
  const r = pose.rotation;
  if (s.type === ShapeType.Triangle && r.x === 0 && r.y === 0 && r.z === 0) {
    const t = s as Triangle;
    vec3.sub(tri.a, t.a, o);
    vec3.sub(tri.b, t.b, o);
    vec3.sub(tri.c, t.c, o);
    return tri as unknown as Shape;
  }
  vec3.sub(local.translation, pose.translation, o);
  return s;
}

/** One frame per query slot (src/shapes/far-frame.ts `FarFrameSlot`). */
const frames: TriangleFrame[] = Array.from({ length: FAR_FRAME_SLOTS }, makeTriangleFrame);

setFarFrameHook((slot, a, poseA, b, poseB) => {
  const f = frames[slot];
  return enterTriangleFrame(f, a, poseA, b, poseB) ? f : null;
});
