/**
 * Exact change of units for the closed-form pair routines far from unit scale. Sphere, box,
 * capsule and triangle routines compare squared lengths, which overflow above about 1e154 and
 * underflow below about 1e-154 (two spheres of radius 1e-200 whose centres are 2.5e-200 apart
 * were reported touching). When a pair's magnitude (B's offset and both shapes' sizes) is
 * outside [2^-128, 2^128], the dispatch multiplies the pair by a power of two — exact in binary
 * floating point — answers it, and divides the lengths of the answer by the same power. Curved
 * and polyhedral shapes solved by GJK/EPA rescale themselves (src/narrowphase/convex-convex.ts).
 *
 * The check costs three comparisons per pair (B's offset; the sizes only when the offset is out
 * of range) and allocates nothing; only an out-of-range pair allocates its scaled shape copies.
 */
import type { Isometry } from "../math/isometry.js";
import { unitScaleFactor } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import { shapeDef } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";

/** Largest magnitude answered without a change of units (2^128 ≈ 3.4e38). */
export const UNIT_RANGE_MAX = 2 ** 128;
/** Smallest non-zero magnitude answered without a change of units (2^-128). */
export const UNIT_RANGE_MIN = 2 ** -128;

/** True when magnitude `m` (≥ 0) is above 2^128 or below 2^-128 and not zero. */
export function outOfUnitRange(m: number): boolean {
  return m > UNIT_RANGE_MAX || (m > 0 && m < UNIT_RANGE_MIN);
}

/**
 * The dispatch's cheap first test: B's offset from A is outside [2^-128, 2^128] (and not zero).
 * Only then are the shapes' sizes looked at ({@link pairRescaleFactor}). A pair whose offset is in
 * range but whose shapes are not (a 1e-200 sphere at the centre of a unit box) is answered
 * unscaled; every failure seen (shapes of size s placed about s apart) has both out of range.
 */
export function offsetOutOfRange(bInA: Isometry): boolean {
  const t = bInA.translation;
  return outOfUnitRange(Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z)));
}

/** Magnitude of the last {@link writeMagnitude} call (a typed array, not a returned double). */
const magnitude = new Float64Array(1);

function maxAbs(v: Vec3): number {
  return Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
}

/**
 * Writes the size of `s` to `magnitude[0]` through its definition's `writeMagnitude` (its
 * largest coordinate or radius, local frame; −1 for the types without one: meshes, half-spaces,
 * compounds). Called through the definitions' table (many targets, so V8 does not inline them):
 * each reads its fields with its own single-shape feedback, while a switch inlined after a
 * polymorphic type check would read them polymorphically and box the doubles (an allocation per
 * pair in the world's step); the size leaves through the typed array, not a returned double.
 */
function writeMagnitude(s: Shape): void {
  shapeDef(s.type).writeMagnitude(magnitude, s);
}

/**
 * The sizes of A and B (as {@link writeMagnitude}: −1 for a type without one) read by the last
 * {@link pairRescaleFactor} call, before any change of units: [0] A's, [1] B's.
 */
export const pairMagnitudes = new Float64Array(2);

/**
 * The power of two `k` that brings the pair's magnitude (B's offset from A and both shapes'
 * sizes) near 1 when that magnitude is outside [2^-128, 2^128], else exactly 1. Built by
 * multiplication (no Math.pow), so exact and the same on every engine. Shapes without a size
 * (see {@link writeMagnitudeOf}) count by the offset alone. Used by the dispatch of the
 * closed-form routines and by the GJK/EPA solver (src/narrowphase/convex-convex.ts).
 */
export function pairRescaleFactor(a: Shape, b: Shape, bInA: Isometry): number {
  writeMagnitude(a);
  const ma = magnitude[0];
  writeMagnitude(b);
  pairMagnitudes[0] = ma;
  pairMagnitudes[1] = magnitude[0];
  const mb = magnitude[0];
  const m = Math.max(ma, mb, maxAbs(bInA.translation));
  // A non-finite magnitude (a part moved into a frame where it overflows: a 1e307 mesh's
  // triangle seen from a unit mesh 1.7e308 away) has no change of units that brings it into
  // range: 1, for the routine to answer non-finite and the query to refuse. A power of two here
  // left the scaled pair as infinite, and the dispatch rescaled it again without end (fresh41
  // 06: "Maximum call stack size exceeded").
  if (!outOfUnitRange(m) || m === Infinity) return 1;
  const k = unitScaleFactor(m);
  // A pair spanning more than 2^480 in size (a 1e200 triangle and a unit sphere): bringing the
  // larger near 1 would leave the smaller's squared lengths below the normal doubles. Raise k
  // until the smaller size is at least 2^-480 or the larger reaches 2^240 (where the products of
  // up to four of its coordinates, a cross product's squared length, stay finite).
  const small = ma > 0 && mb > 0 ? Math.min(ma, mb) : Math.max(ma, mb);
  return small > 0 && small * k < SQUARE_SAFE_MIN ? raiseFactor(k, small, m) : k;
}

/** Smallest size kept by a change of units whose squares stay normal (2^-480). */
const SQUARE_SAFE_MIN = 2 ** -480;
/** Largest size kept by a change of units whose 4th powers stay finite (2^240). */
const SQUARE_SAFE_MAX = 2 ** 240;

/**
 * Largest size (a shape's largest local coordinate or radius) whose products of three coordinates
 * stay finite (cubes below 2^768): 2^256, the square of {@link UNIT_RANGE_MAX}. A change of units
 * leaves no size above {@link SQUARE_SAFE_MAX} (2^240), so only a routine called unscaled meets a
 * larger one: the world's narrow phase calls a pair's routine directly whenever B's offset is in
 * range, whatever the shapes' sizes (src/world/narrow-pair.ts): capsule-triangle's
 * `exactFeatures` takes a triangle only below it.
 */
export const CUBE_SAFE_MAX = UNIT_RANGE_MAX * UNIT_RANGE_MAX;

/**
 * `k` (a power of two) doubled until `small · k` reaches 2^-480 or `large · k` would pass 2^240
 * (exact: powers of two).
 */
function raiseFactor(k: number, small: number, large: number): number {
  let r = k;
  while (small * r < SQUARE_SAFE_MIN && large * r * 2 <= SQUARE_SAFE_MAX && r < 2 ** 1022) r *= 2;
  return r;
}

/**
 * The change of units of a pair with a triangle (a bare triangle or a composite's part), whose
 * offset is in range (a triangle has no pose: its size is where it lies): as
 * {@link pairRescaleFactor}, from both shapes' sizes. A triangle of 1e200 beside a unit sphere
 * was answered 1e200 away (squared lengths overflowed), a hull of 1e-100 beside a triangle of
 * 1e-100 lost the SAT's edge-crossing axes (their squared lengths underflowed).
 *
 * - `a`, `b`: the pair's shapes, either of them the triangle; each one's size is its largest
 *   local coordinate or radius (a triangle's corners: where it lies), in scene units.
 * - `bInA`: B's pose in A's frame; its translation in scene units.
 *
 * Returns the power of two k, in [2^-1022, 2^1022], by which the caller multiplies every length
 * of the pair (exact in binary floating point) and divides the answer's: exactly 1 when the
 * pair's magnitude — the larger size and B's offset — lies in [2^-128, 2^128] or is 0, and when
 * either shape has no scaled copy (a surface mesh, a compound, a half-space: answered unscaled).
 * Degenerate input is answered, not refused: a NaN or infinite size or offset gives 1 (the
 * pair stays non-finite, for the routine to answer so and the query to refuse). Allocates nothing.
 * @throws CollideError `invalid_value` naming `type` when a shape's type has no definition loaded
 * (as {@link shapeDef}: a hand-built shape whose `make…` the application never imported).
 */
export function triangleRescaleFactor(a: Shape, b: Shape, bInA: Isometry): number {
  return isScalablePair(a, b) ? pairRescaleFactor(a, b, bInA) : 1;
}

/**
 * The change of units of a one-shape query (`raycast`, `projectPoint`) of shape `s` at local
 * point `p` (the ray's origin, the projected point): as {@link pairRescaleFactor}, when `p`'s
 * largest coordinate is outside [2^-128, 2^128], the power of two that brings the query's
 * magnitude (that and the shape's size) near 1, else exactly 1; 1 too for a type without a scaled copy
 * (meshes, hulls, compounds: a compound's children are rescaled one by one).
 */
export function pointRescaleFactor(s: Shape, p: Vec3): number {
  // As the pairs' offset test: the point first (three comparisons on every ray and projection),
  // the size only when the point is out of range — or for a solid mesh, whose size alone can be
  // (a point at the centre of a 1e155 mesh: its inside test squares the corners' offsets).
  // Written out, not `maxAbs(p)`: a double returned from a shared helper V8 does not inline is
  // boxed, on every ray and projection.
  const mp = Math.max(Math.abs(p.x), Math.abs(p.y), Math.abs(p.z));
  if (!outOfUnitRange(mp) && !isSolidMesh(s)) return 1;
  if (!hasScaledCopy(s)) return 1;
  writeMagnitude(s);
  const m = Math.max(magnitude[0], mp);
  return outOfUnitRange(m) ? unitScaleFactor(m) : 1;
}

/**
 * True when a one-shape query of a surface composite (a mesh that is not solid; its own ray cast
 * and projection are not rescaled) at local point `p` is far from unit scale (`p`'s largest
 * coordinate outside [2^-128, 2^128]): `raycast` and `projectPoint` then take its parts one by
 * one, each rescaled ({@link pointRescaleFactor}).
 */
export function farFromUnitScale(s: Shape, p: Vec3): boolean {
  return (
    outOfUnitRange(Math.max(Math.abs(p.x), Math.abs(p.y), Math.abs(p.z))) &&
    !hasScaledCopy(s) &&
    !isSolidMesh(s)
  );
}

/**
 * The change of units of a pair whose offset is in range but one of whose shapes is a solid mesh
 * whose box is not (a ball at the centre of a 1e155 mesh: the mesh's inside test and closest-
 * triangle walk square its corners' offsets): as {@link pairRescaleFactor}, else exactly 1.
 * Cheap for every other pair: a type test, then the mesh's root box (no scan).
 */
export function solidMeshRescaleFactor(a: Shape, b: Shape, bInA: Isometry): number {
  if (!solidMeshOutOfRange(a) && !solidMeshOutOfRange(b)) return 1;
  return isScalablePair(a, b) ? pairRescaleFactor(a, b, bInA) : 1;
}

/** True for a solid mesh whose root box reaches outside [2^-128, 2^128] (or lies inside 2^-128). */
function solidMeshOutOfRange(s: Shape): boolean {
  if (!isSolidMesh(s)) return false;
  const bvh = (s as TriangleMesh).bvh;
  if (bvh.nodeCount === 0) return false;
  const b = bvh.bounds;
  return outOfUnitRange(
    Math.max(
      Math.abs(b[0]),
      Math.abs(b[1]),
      Math.abs(b[2]),
      Math.abs(b[3]),
      Math.abs(b[4]),
      Math.abs(b[5]),
    ),
  );
}

/** True for a triangle mesh made with `solid: true`. */
function isSolidMesh(s: Shape): boolean {
  return s.type === ShapeType.TriangleMesh && (s as { solid?: boolean }).solid === true;
}

/**
 * True when shape `s` has a scaled copy ({@link scaledShape}): the types whose definition has
 * `scaled`, except a surface mesh (its triangles are rescaled one by one; a solid mesh is copied
 * whole, src/shapes/defs/triangle-mesh.ts).
 */
function hasScaledCopy(s: Shape): boolean {
  if (shapeDef(s.type).scaled === null) return false;
  return s.type !== ShapeType.TriangleMesh || isSolidMesh(s);
}

/** True when {@link scaledShape} can copy both shapes (the closed-form pair routines' shapes). */
export function isScalablePair(a: Shape, b: Shape): boolean {
  return hasScaledCopy(a) && hasScaledCopy(b);
}

/**
 * A copy of shape `s` (one for which {@link isScalablePair} holds) with every length multiplied
 * by `k` (allocates; only out-of-range pairs get here), by its definition's `scaled`.
 */
export function scaledShape(s: Shape, k: number): Shape {
  const scaled = shapeDef(s.type).scaled;
  return scaled ? scaled(s, k) : s;
}

/** `bInA` with its translation multiplied by `k` (allocates). */
export function scaledPose(bInA: Isometry, k: number): Isometry {
  const t = bInA.translation;
  return { translation: { x: t.x * k, y: t.y * k, z: t.z * k }, rotation: { ...bInA.rotation } };
}
