/**
 * The scene JSON form of the capsule (docs/FORMATS.md): its segment's world end points `a`, `b`
 * and `radius`; the shape is centred at the segment's midpoint.
 */
import { z } from "zod";
import { invalidValue } from "../../errors.js";
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
    // Validated as given first, so that errors name the numbers the file holds.
    makeCapsule(a, b, s.radius, field);
    // Ends past the range of doubles from each other (±1e308): named as the line gave them, not
    // as the overflowed midpoint's Infinity (as the triangle's corners are).
    if (![b.x - a.x, b.y - a.y, b.z - a.z].every(Number.isFinite)) {
      invalidValue(
        field ? `${field}.b` : "b",
        s.b,
        `is too far from ${field ? `${field}.a` : "a"}: their difference overflows double precision`,
      );
    }
    const mid = vec3.lerp(vec3.create(), a, b, 0.5);
    // Each end taken to the midpoint's frame on its own: a − mid and b − mid are exact when the
    // coordinates are within a factor 2 of each other (Sterbenz), so mid + (a − mid) is a again
    // and the capsule keeps its world ends to the last bit. (mid ± (b − mid) moved end a by the
    // midpoint's rounding, up to half an ulp of the offset: 4e-8 at 3e8 for a capsule of 0.1,
    // issue 16.)
    return {
      shape: makeCapsule(
        vec3.sub(vec3.create(), a, mid),
        vec3.sub(vec3.create(), b, mid),
        s.radius,
        field,
      ),
      pose: pose(mid, field),
    };
  },
});
