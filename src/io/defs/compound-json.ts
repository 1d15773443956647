/**
 * The scene JSON form of the compound (docs/FORMATS.md): `children`, each a convex shape or a
 * compound in scene form with an optional `position` and `rotation` (composed with the child's
 * own placement), and the compound's optional `position` and `rotation`.
 */
import { z } from "zod";
import { invalidValue } from "../../errors.js";
import * as iso from "../../math/isometry.js";
import { isConvexType } from "../../narrowphase/dispatch.js";
import { type Compound, makeCompound } from "../../shapes/compound.js";
import type { ConvexShape } from "../../shapes/shape.js";
import { ShapeType } from "../../shapes/shape.js";
import { positionPose, quatJson, registerSceneForm, vecJson } from "../scene-forms.js";

interface ChildJson {
  shape: unknown;
  position?: number[];
  rotation?: number[];
}

registerSceneForm({
  name: "compound",
  defs: ["compound"],
  translationField: "position",
  schema: () =>
    z.strictObject({
      type: z.literal("compound"),
      children: z.array(
        z.strictObject({
          shape: z.unknown(),
          position: vecJson.optional(),
          rotation: quatJson.optional(),
        }),
      ),
      position: vecJson.optional(),
      rotation: quatJson.optional(),
    }),
  read(json, field, ctx) {
    const s = json as { children: ChildJson[] };
    const children = s.children.map((c, i) => {
      const cf = `${field}.children[${i}]`;
      const child = ctx.child(c.shape, `${cf}.shape`);
      if (!isConvexType(child.shape.type) && child.shape.type !== ShapeType.Compound) {
        invalidValue(
          `${cf}.shape.type`,
          (c.shape as { type: unknown }).type,
          "must be a convex shape or a compound",
        );
      }
      // The child's own placement (centre, or points' frame) composed with its position/rotation.
      const local = positionPose(c, cf);
      return {
        shape: child.shape as ConvexShape | Compound,
        pose: iso.multiply(iso.identity(), local, child.pose),
      };
    });
    return { shape: makeCompound(children, field), pose: positionPose(json, field) };
  },
});
