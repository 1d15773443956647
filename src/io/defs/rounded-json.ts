/**
 * The scene JSON forms of the rounded shapes (docs/FORMATS.md): `roundedBox`, the definition's
 * form plus `center` and `rotation`; `roundedConvex`, nested hull `points` and `radius` with an
 * optional `position` and `rotation`.
 */
import { z } from "zod";
import { makeRoundedConvexPolyhedron } from "../../shapes/rounded.js";
import {
  packPoints,
  placedSceneForm,
  positionPose,
  quatJson,
  registerSceneForm,
  vecJson,
} from "../scene-forms.js";

registerSceneForm(placedSceneForm("roundedBox", "roundedBox", "center", true));
registerSceneForm({
  name: "roundedConvex",
  defs: ["roundedConvex"],
  translationField: "position",
  schema: () =>
    z.strictObject({
      type: z.literal("roundedConvex"),
      points: z.array(vecJson),
      radius: z.number(),
      position: vecJson.optional(),
      rotation: quatJson.optional(),
    }),
  read(json, field) {
    const s = json as { points: number[][]; radius: number };
    return {
      shape: makeRoundedConvexPolyhedron(packPoints(s.points), s.radius, field),
      pose: positionPose(json, field),
    };
  },
});
