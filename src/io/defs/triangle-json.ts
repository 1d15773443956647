/**
 * The scene JSON form of the triangle (docs/FORMATS.md): its world vertices `a`, `b`, `c`; the
 * shape is placed in a local frame at its first vertex.
 */
import { z } from "zod";
import { invalidValue } from "../../errors.js";
import * as vec3 from "../../math/vec3.js";
import { makeTriangle } from "../../shapes/triangle.js";
import { pose, registerSceneForm, v3, vecJson } from "../scene-forms.js";

registerSceneForm({
  name: "triangle",
  defs: ["triangle"],
  schema: () => z.strictObject({ type: z.literal("triangle"), a: vecJson, b: vecJson, c: vecJson }),
  read(json, field) {
    const s = json as { a: number[]; b: number[]; c: number[] };
    // Validated as given, then placed in a local frame at its first vertex: a triangle far
    // from the origin keeps tolerances relative to its own size (b − a is exact when the
    // vertices are within a factor 2 of each other; issue 16, class 7).
    makeTriangle(v3(s.a), v3(s.b), v3(s.c), field);
    const a = v3(s.a);
    const b = vec3.sub(vec3.create(), v3(s.b), a);
    const c = vec3.sub(vec3.create(), v3(s.c), a);
    // A corner past the range of doubles from `a` (±1e308): named as the line gave it, not as
    // the local corner's overflowed Infinity.
    for (const [key, v] of [["b", b] as const, ["c", c] as const]) {
      if (!(Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z))) {
        const f = field ? `${field}.${key}` : key;
        invalidValue(
          f,
          s[key],
          `is too far from ${field ? `${field}.a` : "a"}: their difference overflows double precision`,
        );
      }
    }
    return {
      shape: makeTriangle(vec3.create(), b, c, field),
      pose: pose(a, field),
    };
  },
});
