/**
 * The scene JSON form of the capsule (docs/FORMATS.md): its segment's world end points `a`, `b`
 * and `radius`; the shape is centred at the segment's midpoint.
 */
import { z } from "zod";
import * as vec3 from "../../math/vec3.js";
import { makeCapsule } from "../../shapes/capsule.js";
import { pose, registerSceneForm, v3, vecJson } from "../scene-forms.js";

registerSceneForm({
  name: "capsule",
  defs: ["capsule"],
  schema: () =>
    z.strictObject({ type: z.literal("capsule"), a: vecJson, b: vecJson, radius: z.number() }),
  read(json, field) {
    const s = json as { a: number[]; b: number[]; radius: number };
    const a = v3(s.a);
    const b = v3(s.b);
    const mid = vec3.lerp(vec3.create(), a, b, 0.5);
    // Validated as given first, so that errors name the numbers the file holds.
    makeCapsule(a, b, s.radius, field);
    const half = vec3.sub(vec3.create(), b, mid);
    return {
      shape: makeCapsule(vec3.negate(vec3.create(), half), half, s.radius, field),
      pose: pose(mid, field),
    };
  },
});
