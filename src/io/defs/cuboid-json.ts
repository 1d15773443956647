/**
 * The scene JSON forms of the cuboid (docs/FORMATS.md): `aabb` by its corners (centred between
 * them), and `box`, the definition's form plus `center` and `rotation`.
 */
import { z } from "zod";
import { makeCuboidFromMinMax } from "../../shapes/cuboid.js";
import { placedSceneForm, pose, registerSceneForm, v3, vecJson } from "../scene-forms.js";

registerSceneForm({
  name: "aabb",
  defs: ["cuboid"],
  translationField: "min",
  schema: () => z.strictObject({ type: z.literal("aabb"), min: vecJson, max: vecJson }),
  read(json, field) {
    const s = json as { min: number[]; max: number[] };
    const { shape, center } = makeCuboidFromMinMax(v3(s.min), v3(s.max), field);
    return { shape, pose: pose(center, field) };
  },
});
registerSceneForm(placedSceneForm("box", "cuboid", "center", true));
