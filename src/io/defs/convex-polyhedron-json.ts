/**
 * The scene JSON form of the convex polyhedron (docs/FORMATS.md): `convex`, its hull's nested
 * `points`, with an optional `position` and `rotation`.
 */
import { z } from "zod";
import { makeConvexPolyhedron } from "../../shapes/convex-polyhedron.js";
import { packPoints, positionPose, quatJson, registerSceneForm, vecJson } from "../scene-forms.js";

registerSceneForm({
  name: "convex",
  defs: ["convex"],
  translationField: "position",
  schema: () =>
    z.strictObject({
      type: z.literal("convex"),
      points: z.array(vecJson),
      position: vecJson.optional(),
      rotation: quatJson.optional(),
    }),
  read(json, field) {
    const s = json as { points: number[][]; position?: number[]; rotation?: number[] };
    return {
      shape: makeConvexPolyhedron(packPoints(s.points), `${field}.points`),
      pose: positionPose(s, field),
    };
  },
});
