/**
 * The scene JSON form of the heightfield (docs/FORMATS.md): `rows`, `cols`, `heights`, `scale`
 * and optional `holes`, with an optional `position` and `rotation`.
 */
import { z } from "zod";
import { invalidValue } from "../../errors.js";
import { makeHeightfield } from "../../shapes/heightfield.js";
import { positionPose, quatJson, registerSceneForm, v3, vecJson } from "../scene-forms.js";

registerSceneForm({
  name: "heightfield",
  defs: ["heightfield"],
  translationField: "position",
  schema: () =>
    z.strictObject({
      type: z.literal("heightfield"),
      rows: z.number(),
      cols: z.number(),
      heights: z.array(z.number()),
      scale: vecJson,
      // Each flag is checked by makeHeightfield, which names the entry and says what is allowed.
      holes: z.array(z.any()).optional(),
      position: vecJson.optional(),
      rotation: quatJson.optional(),
    }),
  read(json, field) {
    const s = json as {
      rows: number;
      cols: number;
      heights: number[];
      scale: number[];
      holes?: unknown[];
    };
    for (let k = 0; k < 3; k++) {
      if (!(s.scale[k] > 0)) invalidValue(`${field}.scale[${k}]`, s.scale[k], "must be > 0");
    }
    return {
      shape: makeHeightfield(
        {
          rows: s.rows,
          cols: s.cols,
          heights: s.heights,
          scale: v3(s.scale),
          ...(s.holes ? { holes: s.holes as never } : {}),
        },
        field,
      ),
      pose: positionPose(json, field),
    };
  },
});
