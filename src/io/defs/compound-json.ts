/**
 * The scene JSON form of the compound (docs/FORMATS.md): `children`, each a convex shape or a
 * compound in scene form with an optional `position` and `rotation` (composed with the child's
 * own placement), and the compound's optional `position` and `rotation`.
 */
import { z } from "zod";
import * as iso from "../../math/isometry.js";
import { type Compound, makeCompound } from "../../shapes/compound.js";
import type { ConvexShape } from "../../shapes/shape.js";
import { checkUnitQuat, checkVec3 } from "../../shapes/validate.js";
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
      // A child that is neither convex nor a compound is refused by makeCompound, naming
      // `${cf}.shape.type` and the type's name.
      // The child's own placement (centre, or points' frame) composed with its position/rotation.
      const local = positionPose(c, cf);
      const composed = iso.multiply(iso.identity(), local, child.pose);
      // Named by the JSON's fields (makeCompound names the API's `pose.translation`): a
      // composed translation may overflow, a composed rotation drift from unit length.
      checkVec3(`${cf}.position`, composed.translation);
      checkUnitQuat(`${cf}.rotation`, composed.rotation);
      return { shape: child.shape as ConvexShape | Compound, pose: composed };
    });
    return { shape: makeCompound(children, field), pose: positionPose(json, field) };
  },
});
