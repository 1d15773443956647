/**
 * The scene JSON form of the triangle mesh (docs/FORMATS.md): `mesh`, nested `vertices` and
 * `indices` or a mesh `file`, an optional `scale`, `solid`, `position` and `rotation`.
 */
import { z } from "zod";
import { CollideError, invalidValue } from "../../errors.js";
import { makeTriangleMesh } from "../../shapes/triangle-mesh.js";
import { transformMeshData } from "../mesh-loaders.js";
import { positionPose, quatJson, registerSceneForm, v3, vecJson } from "../scene-forms.js";

interface MeshJson {
  vertices?: number[][];
  indices?: number[][];
  file?: string;
  scale?: number | number[];
  solid?: boolean;
}

function missing(field: string, also = ""): never {
  throw new CollideError("missing_field", field, undefined, `missing field ${field}${also}`);
}

registerSceneForm({
  name: "mesh",
  defs: ["mesh"],
  translationField: "position",
  schema: () =>
    z.strictObject({
      type: z.literal("mesh"),
      vertices: z.array(vecJson).optional(),
      indices: z.array(z.tuple([z.number(), z.number(), z.number()])).optional(),
      file: z.string().optional(),
      position: vecJson.optional(),
      rotation: quatJson.optional(),
      scale: z.union([z.number(), vecJson]).optional(),
      solid: z.boolean().optional(),
    }),
  meshFile: (json) => json.file,
  read(json, field, ctx) {
    const s = json as MeshJson;
    const p = (k: string) => `${field}.${k}`;
    let vertices: Float64Array;
    let indices: ArrayLike<number>;
    if (s.file !== undefined) {
      for (const k of ["vertices", "indices"] as const) {
        if (s[k] !== undefined)
          invalidValue(p(k), "(given)", "must not be given together with file");
      }
      const data = ctx.loadMesh(s.file, p("file"));
      vertices = data.vertices;
      indices = data.indices;
    } else {
      if (s.vertices === undefined) missing(p("vertices"), ` (or ${p("file")})`);
      if (s.indices === undefined) missing(p("indices"));
      vertices = new Float64Array(3 * s.vertices.length);
      for (let i = 0; i < s.vertices.length; i++) vertices.set(s.vertices[i], 3 * i);
      const flat = new Float64Array(3 * s.indices.length);
      for (let i = 0; i < s.indices.length; i++) flat.set(s.indices[i], 3 * i);
      indices = flat;
    }
    if (s.scale !== undefined) {
      const scale = typeof s.scale === "number" ? s.scale : v3(s.scale);
      vertices = transformMeshData(
        { vertices, indices: new Uint32Array(0) },
        { scale },
        p("scale"),
      ).vertices;
    }
    return {
      shape: makeTriangleMesh(vertices, indices, field, {
        indexPath: s.file === undefined ? "nested" : "packed",
        solid: s.solid,
      }),
      pose: positionPose(json, field),
    };
  },
});
