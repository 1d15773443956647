/**
 * The hook through which the pair queries (`intersects`, `distance`, `contact`, `manifold`,
 * `castShapes`) move a pair holding a far triangle into the frame at its first corner (issue 16,
 * class 7; the frame itself: src/shapes/triangle-frame.ts). The triangle's module sets it when it
 * loads, so an app that makes no triangle (collide/core's sphere–box app) bundles only this
 * module's few lines, and a query costs one null test.
 */
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import type { Shape } from "./shape.js";

/** A pair moved into the frame at a far shape's corner (the scratch of one query slot). */
export interface FarFrame {
  /** The frame's origin in the caller's frame (the far triangle's first corner). */
  readonly origin: Vec3;
  /** Shape A in the frame (a triangle's moved copy, or A itself). */
  a: Shape;
  /** A's pose in the frame. */
  readonly poseA: Isometry;
  /** Shape B in the frame. */
  b: Shape;
  /** B's pose in the frame. */
  readonly poseB: Isometry;
}

/** The query slots, one scratch frame each (a cast calls distance and contact while in its own). */
export const FarFrameSlot = {
  Intersects: 0,
  Distance: 1,
  Contact: 2,
  Manifold: 3,
  Cast: 4,
} as const;

/** Number of query slots ({@link FarFrameSlot}). */
export const FAR_FRAME_SLOTS = 5;

type EnterFarFrame = (
  slot: number,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
) => FarFrame | null;

let enter: EnterFarFrame | null = null;
let enterHull: EnterFarFrame | null = null;

/** Sets the hook (src/shapes/triangle-frame.ts, when the triangle's module loads). */
export function setFarFrameHook(f: EnterFarFrame): void {
  enter = f;
}

/**
 * Sets the far hull's hook (src/shapes/hull-frame.ts, when the convex polyhedron's module loads),
 * asked after the triangle's.
 */
export function setFarHullFrameHook(f: EnterFarFrame): void {
  enterHull = f;
}

type CentredCopy = (out: Vec3, s: Shape, pose: Isometry) => Shape | null;
let centred: CentredCopy | null = null;

/** Sets the hook of {@link farCentredCopy} (src/shapes/hull-frame.ts). */
export function setFarCentredCopyHook(f: CentredCopy): void {
  centred = f;
}

/**
 * For a shape whose points lie far from its frame's origin (an unrotated hull given at 1e10 with
 * no position): its copy re-centred at `out` (a point of its frame, a coarse power-of-two grid
 * point inside its box, so the copy's coordinates are exact), the shape at `pose` then being the
 * copy at `pose` moved by `out`; else null. For the single-shape queries (`projectPoint`).
 */
export function farCentredCopy(out: Vec3, s: Shape, pose: Isometry): Shape | null {
  return centred === null ? null : centred(out, s, pose);
}

/**
 * The pair (valid shapes and poses, checked by the caller) moved into the frame of slot `slot`
 * when it holds a far triangle, or else a far hull (src/shapes/hull-frame.ts), else null (also
 * when no triangle or hull module is loaded: no pair can then hold one).
 */
export function enterFarFrame(
  slot: number,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
): FarFrame | null {
  const f = enter === null ? null : enter(slot, a, poseA, b, poseB);
  if (f !== null || enterHull === null) return f;
  return enterHull(slot, a, poseA, b, poseB);
}

/**
 * The answer's two witness points moved back from frame `f` into the caller's frame (each
 * p + f.origin, in place): the step every pair query takes after answering in the frame.
 */
export function leaveFarFrame(f: FarFrame, pointA: Vec3, pointB: Vec3): void {
  const o = f.origin;
  pointA.x += o.x;
  pointA.y += o.y;
  pointA.z += o.z;
  pointB.x += o.x;
  pointB.y += o.y;
  pointB.z += o.z;
}
