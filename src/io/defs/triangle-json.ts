/**
 * The scene JSON form of the triangle (docs/FORMATS.md): its world vertices `a`, `b`, `c`; the
 * shape is placed in a local frame near its first vertex, on a grid chosen so that the vertices
 * keep their input values in every frame change (`gridOrigin`, src/math/scalar.ts).
 */
import { z } from "zod";
import { invalidValue } from "../../errors.js";
import { gridOrigin } from "../../math/scalar.js";
import * as vec3 from "../../math/vec3.js";
import { makeTriangle } from "../../shapes/triangle.js";
import { pose, registerSceneForm, v3, vecJson } from "../scene-forms.js";

registerSceneForm({
  name: "triangle",
  defs: ["triangle"],
  schema: () => z.strictObject({ type: z.literal("triangle"), a: vecJson, b: vecJson, c: vecJson }),
  read(json, field) {
    const s = json as { a: number[]; b: number[]; c: number[] };
    // Validated as given, then placed in a local frame near its first vertex: a triangle far
    // from the origin keeps tolerances relative to its own size (issue 16, class 7).
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
    // The frame's origin per axis: the first vertex on a power-of-two grid of 2^-20 of the
    // triangle's extent, where every corner minus it is exact (else 0). Posed at their own first
    // vertices, corners moved by b − a rounded: two triangles sharing an input vertex saw it
    // 1e-17 apart (issue 16, a fresh user's attack, F2). On the grid the offset between two
    // triangles' frames is exact too, so a shared corner reaches the other's frame unrounded.
    const e = Math.max(
      Math.abs(b.x),
      Math.abs(b.y),
      Math.abs(b.z),
      Math.abs(c.x),
      Math.abs(c.y),
      Math.abs(c.z),
    );
    const o = vec3.create(
      gridOrigin(s.a[0], s.b[0], s.c[0], e),
      gridOrigin(s.a[1], s.b[1], s.c[1], e),
      gridOrigin(s.a[2], s.b[2], s.c[2], e),
    );
    return {
      shape: makeTriangle(
        vec3.sub(vec3.create(), a, o),
        vec3.sub(b, v3(s.b), o),
        vec3.sub(c, v3(s.c), o),
        field,
      ),
      pose: pose(o, field),
    };
  },
});
