/**
 * World ↔ A-frame conversion shared by the pair queries: the narrow phase answers in A's frame
 * with B's pose in A's frame (`bInA`); the queries convert inputs once and outputs once.
 */

import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { checkUnitQuat, checkVec3 } from "../shapes/validate.js";

const bInAScratch = iso.identity();

/** B's pose in A's frame (a module scratch, valid until the next call). */
export function relativePose(poseA: Isometry, poseB: Isometry): Isometry {
  return iso.invMul(bInAScratch, poseA, poseB);
}

/** Throws `CollideError` unless `pose` has a finite translation and a unit rotation. */
export function checkPose(field: string, pose: Isometry): void {
  checkVec3(`${field}.translation`, pose.translation);
  checkUnitQuat(`${field}.rotation`, pose.rotation);
}
