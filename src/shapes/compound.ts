/**
 * A compound shape: a rigid group of convex child shapes, each at a local pose in the
 * compound's frame (nested compounds are flattened when made). Queries answer it child by child (the dispatch recurses), so any pair that
 * a child supports is supported for the compound.
 */
import { checkFieldArg, checkOptions, invalidValue, optionsSpec } from "../errors.js";
import type { Aabb } from "../math/aabb.js";
import * as aabb from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import { shapeDef } from "./registry.js";
import type { ConvexShape, Shape } from "./shape.js";
import { brandShape, isConvexShapeType, ShapeType, shapeTypeName } from "./shape.js";
import {
  checkPoseKeys,
  checkShapeExtent,
  checkUnitQuat,
  checkVec3,
  keptShape,
} from "./validate.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/compound.js";

function checkPose(field: string, pose: Isometry): void {
  if (pose === null || typeof pose !== "object")
    invalidValue(`${field}.pose`, pose, "must be a pose {translation, rotation}");
  checkPoseKeys(`${field}.pose`, pose);
  checkVec3(`${field}.pose.translation`, pose.translation);
  checkUnitQuat(`${field}.pose.rotation`, pose.rotation);
}

const childBox: Aabb = { min: vec3.create(), max: vec3.create() };

/**
 * A compound's size limit, every shape's (src/shapes/validate.ts `checkShapeExtent`): the box of
 * `shape` at `pose` in the compound's frame must lie below `MESH_COORDINATE_LIMIT` (2^1023) in
 * every coordinate — children at ±1.7e308 had been accepted and then refused by every query
 * naming an internal field (`primBounds[0]`). Names `<f>.pose.translation` with the pose given
 * (`given`), as the child's shape was checked against the limit by its own constructor.
 */
function checkChildExtent(f: string, given: Isometry, shape: ConvexShape, pose: Isometry): void {
  const b = shapeDef(shape.type).aabb(childBox, shape, pose);
  const e = aabb.reach(b);
  checkShapeExtent(
    `${f}.pose.translation`,
    given.translation,
    e,
    "the child's reach from the compound's origin (its box at this pose)",
  );
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

const CHILD_KEYS = { shape: "any", pose: "any" } as const;

/**
 * A compound of `children` (each a convex shape, or a compound, with a local pose: a translation
 * and a unit quaternion; one within `UNIT_QUATERNION_TOLERANCE` of unit length is kept normalised). A child compound is flattened: its children join this one's, each at
 * the composed pose (child pose ∘ grandchild pose), so a compound always holds convex shapes
 * and every query and the world answer nested compounds alike. Throws `CollideError` naming
 * `<field>.children` when there are none, `<field>.children[i].pose.translation` /
 * `.pose.rotation` for a bad pose (the API's names; the JSON readers check first under their own,
 * `position` / `translation` and `rotation`), `<field>.children[i].shape…` for an invalid child (validated in full), and
 * `<field>.children[i].shape.type` with the type's name for a mesh or half-space child. A child
 * made by a `make…` is kept as it is; a hand-built one is validated and kept as the copy its
 * `make…` builds (src/shapes/validate.ts, `keptShape`), so changing it later changes nothing.
 */
export function makeCompound(
  children: readonly { readonly shape: ConvexShape | Compound; readonly pose: Isometry }[],
  field = "",
): Compound {
  checkFieldArg("makeCompound", field, "makeCompound takes the children [{ shape, pose }] only");
  const p = field ? `${field}.` : "";
  if (!Array.isArray(children) || children.length === 0)
    invalidValue(`${p}children`, children, "must hold at least one shape");
  const flat: CompoundChild[] = [];
  children.forEach((c, i) => {
    const f = `${p}children[${i}]`;
    if (c === null || typeof c !== "object") invalidValue(f, c, "must be an object {shape, pose}");
    checkOptions(c, optionsSpec("makeCompound", f, CHILD_KEYS));
    checkPose(f, c.pose);
    // Kept normalised: an accepted quaternion is used normalised (docs/FORMATS.md).
    const pose = iso.create(c.pose.translation, c.pose.rotation);
    iso.unitPose(pose, pose);
    const s = c.shape as Shape;
    const type = s !== null && typeof s === "object" ? s.type : undefined;
    if (type === ShapeType.Compound) {
      for (const g of keptShape(`${f}.shape`, s as Compound).children) {
        const composed = iso.multiply(iso.identity(), pose, g.pose);
        checkChildExtent(f, c.pose, g.shape, composed);
        flat.push({ shape: g.shape, pose: composed });
      }
      return;
    }
    if (!isConvexShapeType(type)) {
      invalidValue(
        `${f}.shape.type`,
        shapeTypeName(type),
        "must be a convex shape or a compound (a mesh, a heightfield or a half-space cannot be a child)",
      );
    }
    const kept = keptShape(`${f}.shape`, s as ConvexShape);
    checkChildExtent(f, c.pose, kept, pose);
    flat.push({ shape: kept, pose });
  });
  return brandShape({ type: ShapeType.Compound, children: flat });
}
