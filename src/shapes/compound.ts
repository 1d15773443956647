/**
 * A compound shape: a rigid group of convex child shapes, each at a local pose in the
 * compound's frame. Queries answer it child by child (the dispatch recurses), so any pair that
 * a child supports is supported for the compound.
 */
import { invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { ConvexShape } from "./shape.js";
import { brandShape, ShapeType } from "./shape.js";
import { checkUnitQuat, checkVec3 } from "./validate.js";

function checkPose(field: string, pose: Isometry): void {
  checkVec3(`${field}.position`, pose.translation);
  checkUnitQuat(`${field}.rotation`, pose.rotation);
}

/** One child of a compound: a convex shape and its pose in the compound's frame. */
export interface CompoundChild {
  readonly shape: ConvexShape;
  readonly pose: Isometry;
}

/** A rigid group of convex shapes (at least one). */
export interface Compound {
  readonly type: typeof ShapeType.Compound;
  readonly children: readonly CompoundChild[];
}

/**
 * A compound of `children` (each a convex shape with a local pose: a translation and a unit
 * quaternion). Throws `CollideError` naming `<field>.children` when there are none.
 */
export function makeCompound(children: readonly CompoundChild[], field = ""): Compound {
  const p = field ? `${field}.` : "";
  if (children.length === 0) invalidValue(`${p}children`, children, "must hold at least one shape");
  children.forEach((c, i) => {
    checkPose(`${p}children[${i}]`, c.pose);
  });
  return brandShape({
    type: ShapeType.Compound,
    children: children.map((c) => ({
      shape: c.shape,
      pose: iso.create(c.pose.translation, c.pose.rotation),
    })),
  });
}
