/**
 * The 3D collision world's body storage: the dimension-free {@link SlotStore} of
 * src/world/core/slot-store.ts (slots, generations, layers, masks, flags, shape types, touch
 * counts, free and pending slots) with 3D poses of 7 doubles (translation xyz, rotation
 * quaternion xyzw) and tight world AABBs of 6 doubles (min xyz, max xyz), and the flag bits of
 * the 3D narrow phase's fast paths.
 */
import type { Isometry } from "../math/isometry.js";
import type { Shape } from "../shapes/shape.js";
import { SlotStore } from "./core/slot-store.js";

export { allocFloat64, allocUint8, FLAG_ALIVE, FLAG_SENSOR } from "./core/slot-store.js";

/** Flag bit: the body's shape is convex (its manifold comes from `manifoldFromContact`). */
export const FLAG_CONVEX = 4;
/**
 * Flag bit: the body's shape is a sphere. With {@link FLAG_CUBOID}, the narrow phase's fast path
 * for spheres and boxes branches on these bits, not on `shape.type`: a branch on the shape
 * object's own field makes V8 treat the field loads that follow as polymorphic over every shape
 * class and box the doubles they give (an allocation per pair).
 */
export const FLAG_SPHERE = 8;
/** Flag bit: the body's shape is a cuboid (see {@link FLAG_SPHERE}). */
export const FLAG_CUBOID = 16;

/** Doubles per 3D pose: translation xyz, rotation quaternion xyzw. */
export const POSE_STRIDE_3D = 7;
/** Doubles per 3D tight AABB: min xyz, max xyz. */
export const BOX_STRIDE_3D = 6;

/**
 * Body storage of a 3D world: `pose[7·s .. 7·s+6] = (tx, ty, tz, qx, qy, qz, qw)` and
 * `aabb[6·s .. 6·s+5] = (minx, miny, minz, maxx, maxy, maxz)`; the rest as {@link SlotStore}.
 */
export class BodyStore extends SlotStore<Shape> {
  /**
   * An empty store. With `shared`, the poses and flag bytes live in `SharedArrayBuffer`s (the
   * world asks for it when it has an executor).
   */
  constructor(shared = false) {
    super(POSE_STRIDE_3D, BOX_STRIDE_3D, shared);
  }

  /** Writes a pose into `slot`. */
  writePose(slot: number, p: Isometry): void {
    const k = 7 * slot;
    const a = this.pose;
    a[k] = p.translation.x;
    a[k + 1] = p.translation.y;
    a[k + 2] = p.translation.z;
    a[k + 3] = p.rotation.x;
    a[k + 4] = p.rotation.y;
    a[k + 5] = p.rotation.z;
    a[k + 6] = p.rotation.w;
  }

  /** Reads the pose of `slot` into `out`. Returns out. */
  readPose(out: Isometry, slot: number): Isometry {
    const k = 7 * slot;
    const a = this.pose;
    out.translation.x = a[k];
    out.translation.y = a[k + 1];
    out.translation.z = a[k + 2];
    out.rotation.x = a[k + 3];
    out.rotation.y = a[k + 4];
    out.rotation.z = a[k + 5];
    out.rotation.w = a[k + 6];
    return out;
  }
}
