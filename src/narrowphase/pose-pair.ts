/**
 * The unit-quaternion bounds of the world-pose pair routines (`intersectsPoses` in the pair
 * table: src/narrowphase/sphere-sphere.ts, src/narrowphase/sphere-cuboid.ts). Those routines read
 * each of the 14 numbers of the two poses once, check it in the same pass (a number, a finite
 * translation, a quaternion of unit length within `UNIT_QUATERNION_TOLERANCE`) and compute with
 * the local copies: reading the fields twice, or passing them through a helper, costs as much as
 * a sphere–box test itself (measured: a helper that validated into a typed array made the query
 * a third slower). What they cannot decide they decline (−1) for the query's validating path.
 */
import { UNIT_QUATERNION_TOLERANCE } from "../constants.js";

/** Smallest |q|² of a quaternion within `UNIT_QUATERNION_TOLERANCE` of unit length. */
export const UNIT_SQ_MIN = (1 - UNIT_QUATERNION_TOLERANCE) ** 2;
/** Largest |q|² of a quaternion within `UNIT_QUATERNION_TOLERANCE` of unit length. */
export const UNIT_SQ_MAX = (1 + UNIT_QUATERNION_TOLERANCE) ** 2;
