/** The `intersects` query: do two posed shapes overlap or touch? */
import type { Isometry } from "../math/isometry.js";
import { intersectsPair } from "../narrowphase/dispatch.js";
import { outOfUnitRange } from "../narrowphase/extreme-scale.js";
import { intersectsSphereCuboidWorld } from "../narrowphase/sphere-cuboid.js";
import type { Cuboid } from "../shapes/cuboid.js";
import { type Shape, ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import { pairPose, poseOk, relativePose } from "./frames.js";

/**
 * True when shape `a` at world pose `poseA` and shape `b` at `poseB` overlap or touch (exact:
 * no slop; touching counts, a gap of 1e-9 is a gap). Poses are translations plus unit
 * quaternions `{x,y,z,w}`. Throws `CollideError`: `invalid_value` naming the argument for a bad shape, pose
 * (non-finite translation, non-unit rotation) or prediction; `unsupported_pair` for a pair this version
 * cannot answer.
 */
export function intersects(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): boolean {
  // Sphere–box, the commonest pair, in the world frame: one inverse rotation, no relative pose.
  if (a !== null && typeof a === "object" && b !== null && typeof b === "object") {
    if (
      a.type === ShapeType.Sphere &&
      b.type === ShapeType.Cuboid &&
      poseOk(poseA) &&
      poseOk(poseB)
    )
      return sphereCuboid(a, poseA, b, poseB);
    if (
      a.type === ShapeType.Cuboid &&
      b.type === ShapeType.Sphere &&
      poseOk(poseA) &&
      poseOk(poseB)
    )
      return sphereCuboid(b, poseB, a, poseA);
  }
  return intersectsPair(a, b, pairPose(a, poseA, b, poseB));
}

function sphereCuboid(s: Sphere, ps: Isometry, c: Cuboid, pc: Isometry): boolean {
  // Far from unit scale the squared lengths would overflow or underflow: the general path
  // answers in rescaled units (src/narrowphase/extreme-scale.ts).
  const ts = ps.translation;
  const tc = pc.translation;
  const h = c.halfExtents;
  const m = Math.max(
    s.radius,
    Math.abs(h.x),
    Math.abs(h.y),
    Math.abs(h.z),
    Math.abs(tc.x - ts.x),
    Math.abs(tc.y - ts.y),
    Math.abs(tc.z - ts.z),
  );
  if (outOfUnitRange(m)) return intersectsPair(s, c, relativePose(ps, pc));
  return intersectsSphereCuboidWorld(
    s.radius,
    ps.translation,
    c.halfExtents,
    pc.translation,
    pc.rotation,
  );
}
