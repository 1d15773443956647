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
import type { Vec3 } from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Cone } from "../shapes/cone.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Cylinder } from "../shapes/cylinder.js";
import type { RoundedConvexPolyhedron, RoundedCuboid } from "../shapes/rounded.js";
import type { Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_COUNT, ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Triangle } from "../shapes/triangle.js";

/** Largest magnitude answered without a change of units (2^128 ≈ 3.4e38). */
const RANGE_MAX = 2 ** 128;
/** Smallest non-zero magnitude answered without a change of units (2^-128). */
const RANGE_MIN = 2 ** -128;

/** True when magnitude `m` (≥ 0) is above 2^128 or below 2^-128 and not zero. */
export function outOfUnitRange(m: number): boolean {
  return m > RANGE_MAX || (m > 0 && m < RANGE_MIN);
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

const writeNone = (_s: Shape): void => {
  magnitude[0] = -1;
};

/**
 * Per shape type: writes the size of the shape (its largest coordinate or radius, local frame)
 * to `magnitude[0]`, or −1 for the types without one (meshes, half-spaces, compounds). A table of small
 * functions rather than one switch: called through the table (many targets, so V8 does not
 * inline them), each reads its fields with its own single-shape feedback, while a switch
 * inlined after a polymorphic type check would read them polymorphically and box the doubles
 * (an allocation per pair in the world's step).
 */
const writeMagnitudeOf: ((s: Shape) => void)[] = [];
for (let t = 0; t < SHAPE_TYPE_COUNT; t++) writeMagnitudeOf.push(writeNone);
writeMagnitudeOf[ShapeType.Sphere] = (s) => {
  magnitude[0] = (s as Sphere).radius;
};
writeMagnitudeOf[ShapeType.Cuboid] = (s) => {
  magnitude[0] = maxAbs((s as Cuboid).halfExtents);
};
writeMagnitudeOf[ShapeType.Capsule] = (s) => {
  const c = s as Capsule;
  magnitude[0] = Math.max(maxAbs(c.a), maxAbs(c.b), c.radius);
};
writeMagnitudeOf[ShapeType.Triangle] = (s) => {
  const t = s as Triangle;
  magnitude[0] = Math.max(maxAbs(t.a), maxAbs(t.b), maxAbs(t.c));
};
writeMagnitudeOf[ShapeType.Cylinder] = (s) => {
  const c = s as Cylinder;
  magnitude[0] = Math.max(c.halfHeight, c.radius);
};
writeMagnitudeOf[ShapeType.Cone] = (s) => {
  const c = s as Cone;
  magnitude[0] = Math.max(c.halfHeight, c.radius);
};
/** Largest |vertex coordinate| per hull object, computed once (shapes are immutable). */
const hullMagnitude = new WeakMap<Shape, number>();
writeMagnitudeOf[ShapeType.ConvexPolyhedron] = (s) => {
  let m = hullMagnitude.get(s);
  if (m === undefined) {
    m = 0;
    for (const v of (s as ConvexPolyhedron).vertices) m = Math.max(m, Math.abs(v));
    hullMagnitude.set(s, m);
  }
  magnitude[0] = m;
};

writeMagnitudeOf[ShapeType.RoundedCuboid] = (s) => {
  const r = s as RoundedCuboid;
  magnitude[0] = maxAbs(r.core.halfExtents) + r.radius;
};
writeMagnitudeOf[ShapeType.RoundedConvexPolyhedron] = (s) => {
  const r = s as RoundedConvexPolyhedron;
  writeMagnitudeOf[ShapeType.ConvexPolyhedron](r.core);
  magnitude[0] += r.radius;
};

function writeMagnitude(s: Shape): void {
  writeMagnitudeOf[s.type](s);
}

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
  const m = Math.max(ma, magnitude[0], maxAbs(bInA.translation));
  if (!outOfUnitRange(m)) return 1;
  // k stays within [2^-1022, 2^1022] so that 1/k, which unscales the answer, is a normal
  // double too: near the ends of the range (a 1.6e308 offset, a subnormal size) the scaled
  // magnitude then lands a few binades from 1 instead of at 1, well inside the unit range.
  let k = 1;
  if (m > 1) {
    while (m * k > 2 ** 64 && k >= 2 ** -958) k *= 2 ** -64;
    while (m * k > 1 && k > 2 ** -1022) k *= 0.5;
  } else {
    while (m * k < 2 ** -64 && k <= 2 ** 958) k *= 2 ** 64;
    while (m * k < 0.5 && k < 2 ** 1022) k *= 2;
  }
  return k;
}

/** True when {@link scaledShape} can copy both shapes (the closed-form pair routines' shapes). */
export function isScalablePair(a: Shape, b: Shape): boolean {
  return SCALABLE[a.type] === 1 && SCALABLE[b.type] === 1;
}

const SCALABLE = new Uint8Array(SHAPE_TYPE_COUNT);
for (const t of [
  ShapeType.Sphere,
  ShapeType.Cuboid,
  ShapeType.Capsule,
  ShapeType.Triangle,
  ShapeType.Cylinder,
  ShapeType.Cone,
]) {
  SCALABLE[t] = 1;
}

function scaled(v: Vec3, k: number): Vec3 {
  return { x: v.x * k, y: v.y * k, z: v.z * k };
}

/**
 * A copy of shape `s` (one for which {@link isScalablePair} holds) with every length multiplied
 * by `k` (allocates; only out-of-range pairs get here).
 */
export function scaledShape(s: Shape, k: number): Shape {
  switch (s.type) {
    case ShapeType.Sphere:
      return { type: s.type, radius: s.radius * k };
    case ShapeType.Cuboid:
      return { type: s.type, halfExtents: scaled(s.halfExtents, k) };
    case ShapeType.Capsule:
      return { type: s.type, a: scaled(s.a, k), b: scaled(s.b, k), radius: s.radius * k };
    case ShapeType.Triangle:
      return { type: s.type, a: scaled(s.a, k), b: scaled(s.b, k), c: scaled(s.c, k) };
    case ShapeType.Cylinder:
    case ShapeType.Cone:
      return { ...s, halfHeight: s.halfHeight * k, radius: s.radius * k };
  }
  return s;
}

/** `bInA` with its translation multiplied by `k` (allocates). */
export function scaledPose(bInA: Isometry, k: number): Isometry {
  return { translation: scaled(bInA.translation, k), rotation: { ...bInA.rotation } };
}
