/**
 * Mesh loaders: Wavefront OBJ and glTF 2.0 (.gltf with its buffers, or binary .glb) into packed
 * vertices and triangle indices, with an optional scale and pose, plus the built-in Stanford
 * bunny.
 *
 * - glTF goes through `@gltf-transform/core` (its `NodeIO` reads .gltf, external buffers and
 *   .glb). Every mesh primitive of the default scene (or of every scene, or every mesh when there
 *   is no scene) is taken with its node's world matrix; triangle lists, strips and fans are
 *   converted to triangles, points and lines are skipped. Its API is asynchronous, so glTF files
 *   load through {@link loadMeshFile} (a promise) only.
 * - OBJ: a small strict parser of our own, synchronous. The npm parsers were checked and not
 *   used: `obj-file-parser` keeps vertices per `o` object although OBJ indices are global to the
 *   file (so multi-object files index the wrong vertices), parses numbers with `parseFloat`
 *   (so "1.5abc" is 1.5 and a bad token silently becomes NaN) and throws strings without line
 *   numbers; `webgl-obj-loader` re-indexes vertices per position/uv/normal combination (it
 *   splits the shared vertices that active-edge classification needs), ignores negative
 *   indices and turns an out-of-range index into NaN coordinates. Ours reads `v` (3 or 4
 *   numbers; w ignored) and `f` (≥ 3 references `v`, `v/vt`, `v//vn`, `v/vt/vn`, negative =
 *   relative to the last vertex, polygons fan-triangulated), ignores the other standard
 *   statements (`vt`, `vn`, `o`, `g`, `s`, `usemtl`, `mtllib`, `l`, free-form geometry, …) and
 *   refuses anything else with a `CollideError` naming the line.
 *
 * Loading errors: an unreadable or malformed file is `io_error`; a bad value in an OBJ line is
 * `invalid_value` with field `<field>:<line>`.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { NodeIO } from "@gltf-transform/core";
import { CollideError, invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { loadBunny } from "../models/bunny.js";
import type { TriangleMesh, TriangleMeshOptions } from "../shapes/triangle-mesh.js";
import { makeTriangleMesh } from "../shapes/triangle-mesh.js";

/** A triangle soup: packed xyz vertices and 3 vertex indices per triangle. */
export interface MeshData {
  /** Vertex positions, packed xyz, the file's frame and unit. */
  vertices: Float64Array;
  /** Corner indices, 3 per triangle. */
  indices: Uint32Array;
}

/** Scale then pose applied to loaded vertices: v' = pose · (scale ∘ v). */
export interface MeshTransformOptions {
  /** Uniform factor or per-axis factors (> 0). @default 1 */
  scale?: number | Vec3;
  /** Rigid placement applied after the scale. @default identity */
  pose?: Isometry;
}

/** OBJ statements that carry no triangle geometry and are skipped. */
const OBJ_IGNORED = new Set([
  "vt",
  "vn",
  "vp",
  "o",
  "g",
  "s",
  "usemtl",
  "mtllib",
  "l",
  "p",
  "cstype",
  "deg",
  "bmat",
  "step",
  "curv",
  "curv2",
  "surf",
  "parm",
  "trim",
  "hole",
  "scrv",
  "sp",
  "end",
  "con",
  "mg",
  "bevel",
  "c_interp",
  "d_interp",
  "lod",
  "maplib",
  "usemap",
  "shadow_obj",
  "trace_obj",
  "ctech",
  "stech",
  "call",
  "csh",
]);

const OBJ_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const OBJ_INDEX = /^[+-]?\d+$/;

/**
 * Parses Wavefront OBJ text into vertices and triangles (see the module doc for what is read).
 * Throws `CollideError` (`invalid_value`, field `<field>:<line>`) for a malformed number or
 * reference, a face with fewer than 3 corners, an index 0 or out of range, or an unknown
 * statement.
 */
export function parseObj(text: string, field = "obj"): MeshData {
  const verts: number[] = [];
  const tris: number[] = [];
  const lines = text.split("\n");
  const forward: { line: number; value: number; token: string }[] = [];
  let pending = "";
  let firstLine = 0;
  for (let li = 0; li < lines.length; li++) {
    let line = lines[li];
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (pending === "") firstLine = li + 1;
    const hash = line.indexOf("#");
    if (hash >= 0) line = line.slice(0, hash);
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    line = pending + line;
    pending = "";
    const tok = line.trim().split(/\s+/);
    if (tok.length === 0 || tok[0] === "") continue;
    const where = `${field}:${firstLine}`;
    const key = tok[0];
    if (key === "v") {
      if (tok.length !== 4 && tok.length !== 5)
        invalidValue(where, line.trim(), "must be `v x y z` or `v x y z w`");
      for (let k = 1; k <= 3; k++) {
        const x = Number(tok[k]);
        if (!OBJ_NUMBER.test(tok[k]) || !Number.isFinite(x))
          invalidValue(where, tok[k], "must be a finite number");
        verts.push(x);
      }
      if (tok.length === 5 && !OBJ_NUMBER.test(tok[4]))
        invalidValue(where, tok[4], "must be a finite number");
      continue;
    }
    if (key === "f") {
      if (tok.length < 4) invalidValue(where, line.trim(), "a face needs at least 3 corners");
      const count = verts.length / 3;
      const corners: number[] = [];
      for (let k = 1; k < tok.length; k++) {
        const ref = tok[k].split("/");
        if (ref.length > 3 || !OBJ_INDEX.test(ref[0]))
          invalidValue(where, tok[k], "must be a vertex reference v, v/vt, v//vn or v/vt/vn");
        for (let r = 1; r < ref.length; r++) {
          if (ref[r] !== "" && !OBJ_INDEX.test(ref[r]))
            invalidValue(where, tok[k], "must be a vertex reference v, v/vt, v//vn or v/vt/vn");
        }
        const n = Number(ref[0]);
        if (n === 0) invalidValue(where, tok[k], "vertex index 0 is not valid (OBJ counts from 1)");
        const idx = n > 0 ? n - 1 : count + n;
        if (idx < 0)
          invalidValue(where, tok[k], `refers before the first vertex (${count} so far)`);
        if (idx >= count) forward.push({ line: firstLine, value: idx, token: tok[k] });
        corners.push(idx);
      }
      for (let k = 1; k + 1 < corners.length; k++)
        tris.push(corners[0], corners[k], corners[k + 1]);
      continue;
    }
    if (!OBJ_IGNORED.has(key))
      invalidValue(where, key, "is not an OBJ statement this reader knows");
  }
  const total = verts.length / 3;
  for (const f of forward) {
    if (f.value >= total)
      invalidValue(`${field}:${f.line}`, f.token, `is beyond the last vertex (${total} vertices)`);
  }
  return { vertices: Float64Array.from(verts), indices: Uint32Array.from(tris) };
}

/** Column-major 4×4 matrix times point (x, y, z), into out. */
function transformByMat4(
  out: Float64Array,
  o: number,
  m: ArrayLike<number>,
  x: number,
  y: number,
  z: number,
) {
  out[o] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[o + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  out[o + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}

type GltfDocument = Awaited<ReturnType<NodeIO["read"]>>;
type GltfNode = ReturnType<ReturnType<GltfDocument["getRoot"]>["listNodes"]>[number];
type GltfMesh = ReturnType<ReturnType<GltfDocument["getRoot"]>["listMeshes"]>[number];

const GLTF_TRIANGLES = 4;
const GLTF_TRIANGLE_STRIP = 5;
const GLTF_TRIANGLE_FAN = 6;
const IDENTITY_MAT4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** Appends the triangles of `mesh` under world matrix m. */
function appendGltfMesh(verts: number[], tris: number[], mesh: GltfMesh, m: ArrayLike<number>) {
  const p = new Float64Array(3);
  const el: number[] = [0, 0, 0];
  for (const prim of mesh.listPrimitives()) {
    const mode = prim.getMode();
    if (mode !== GLTF_TRIANGLES && mode !== GLTF_TRIANGLE_STRIP && mode !== GLTF_TRIANGLE_FAN)
      continue;
    const pos = prim.getAttribute("POSITION");
    if (!pos) continue;
    const base = verts.length / 3;
    const n = pos.getCount();
    for (let i = 0; i < n; i++) {
      pos.getElement(i, el);
      transformByMat4(p, 0, m, el[0], el[1], el[2]);
      verts.push(p[0], p[1], p[2]);
    }
    const ind = prim.getIndices();
    const count = ind ? ind.getCount() : n;
    const at = (k: number) => base + (ind ? ind.getScalar(k) : k);
    if (mode === GLTF_TRIANGLES) {
      for (let k = 0; k + 2 < count; k += 3) tris.push(at(k), at(k + 1), at(k + 2));
    } else if (mode === GLTF_TRIANGLE_STRIP) {
      for (let k = 0; k + 2 < count; k++) {
        if (k % 2 === 0) tris.push(at(k), at(k + 1), at(k + 2));
        else tris.push(at(k + 1), at(k), at(k + 2));
      }
    } else {
      for (let k = 1; k + 1 < count; k++) tris.push(at(0), at(k), at(k + 1));
    }
  }
}

/** Every triangle of a glTF document in world coordinates (see the module doc). */
function gltfToMeshData(doc: GltfDocument): MeshData {
  const verts: number[] = [];
  const tris: number[] = [];
  const root = doc.getRoot();
  const scenes = root.listScenes();
  const chosen = root.getDefaultScene() ?? (scenes.length > 0 ? null : undefined);
  if (chosen === undefined) {
    for (const mesh of root.listMeshes()) appendGltfMesh(verts, tris, mesh, IDENTITY_MAT4);
  } else {
    const list = chosen ? [chosen] : scenes;
    for (const scene of list) {
      scene.traverse((node: GltfNode) => {
        const mesh = node.getMesh();
        if (mesh) appendGltfMesh(verts, tris, mesh, node.getWorldMatrix());
      });
    }
  }
  return { vertices: Float64Array.from(verts), indices: Uint32Array.from(tris) };
}

function ioError(field: string, path: string, e: unknown, what: string): never {
  const msg = e instanceof Error ? e.message : String(e);
  throw new CollideError("io_error", field, path, `cannot ${what} mesh file ${path}: ${msg}`);
}

/**
 * Reads a glTF 2.0 file (.gltf with its external or embedded buffers, or .glb) with
 * `@gltf-transform/core` and returns its triangles in world coordinates. Throws
 * `CollideError("io_error")` when the file cannot be read or parsed.
 */
export async function loadGltfFile(path: string, field = "file"): Promise<MeshData> {
  let doc: GltfDocument;
  try {
    doc = await new NodeIO().read(path);
  } catch (e) {
    ioError(field, path, e, "read glTF");
  }
  return gltfToMeshData(doc);
}

/** Parses a binary glTF (.glb) held in memory; throws `CollideError("io_error")` when malformed. */
export async function parseGlb(bytes: Uint8Array, field = "file"): Promise<MeshData> {
  let doc: GltfDocument;
  try {
    doc = await new NodeIO().readBinary(bytes);
  } catch (e) {
    ioError(field, "<glb bytes>", e, "parse glTF");
  }
  return gltfToMeshData(doc);
}

/** The mesh file kinds by extension: "obj", "gltf" or null. */
export function meshFileKind(path: string): "obj" | "gltf" | null {
  const ext = extname(path).toLowerCase();
  if (ext === ".obj") return "obj";
  if (ext === ".gltf" || ext === ".glb") return "gltf";
  return null;
}

function checkKind(path: string, field: string): "obj" | "gltf" {
  const kind = meshFileKind(path);
  if (!kind) invalidValue(field, path, "must name an .obj, .gltf or .glb file");
  return kind;
}

/**
 * Loads a mesh file synchronously: OBJ only (glTF's reader is asynchronous: use
 * {@link loadMeshFile}). Throws `CollideError`: `io_error` for an unreadable file or a glTF
 * file, `invalid_value` for a bad extension or a malformed OBJ line.
 */
export function loadMeshFileSync(path: string, field = "file"): MeshData {
  const kind = checkKind(path, field);
  if (kind !== "obj") {
    throw new CollideError(
      "io_error",
      field,
      path,
      `glTF file ${path} needs the asynchronous loader (loadMeshFile, loadSceneAsync, answerQueryLineAsync)`,
    );
  }
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    ioError(field, path, e, "read");
  }
  return parseObj(text, path);
}

/**
 * Loads an .obj, .gltf or .glb file into vertices and triangles (the file's frame and unit).
 * Throws (the promise rejects with) `CollideError` as {@link loadMeshFileSync} and
 * {@link loadGltfFile} do.
 */
export async function loadMeshFile(path: string, field = "file"): Promise<MeshData> {
  const kind = checkKind(path, field);
  if (kind === "gltf") return loadGltfFile(path, field);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    ioError(field, path, e, "read");
  }
  return parseObj(text, path);
}

const tmp = vec3.create();

/**
 * New mesh data with v' = pose · (scale ∘ v) applied to every vertex (indices copied). Throws
 * `CollideError` for a scale that is not finite and > 0 on every axis.
 */
export function transformMeshData(
  data: MeshData,
  options: MeshTransformOptions = {},
  field = "scale",
): MeshData {
  const s = options.scale ?? 1;
  const sv = typeof s === "number" ? { x: s, y: s, z: s } : s;
  for (const k of ["x", "y", "z"] as const) {
    if (!(Number.isFinite(sv[k]) && sv[k] > 0)) invalidValue(field, s, "must be finite and > 0");
  }
  const v = data.vertices;
  const out = new Float64Array(v.length);
  const pose = options.pose;
  for (let i = 0; i < v.length; i += 3) {
    vec3.set(tmp, v[i] * sv.x, v[i + 1] * sv.y, v[i + 2] * sv.z);
    if (pose) {
      quat.rotate(tmp, pose.rotation, tmp);
      vec3.add(tmp, tmp, pose.translation);
    }
    out[i] = tmp.x;
    out[i + 1] = tmp.y;
    out[i + 2] = tmp.z;
  }
  return { vertices: out, indices: Uint32Array.from(data.indices) };
}

/**
 * A {@link TriangleMesh} from loaded data after scale and pose (see {@link transformMeshData});
 * throws `CollideError` naming the triangle for out-of-range indices or non-finite vertices.
 */
export function meshFromData(
  data: MeshData,
  options: MeshTransformOptions & TriangleMeshOptions = {},
  field = "",
): TriangleMesh {
  const t = options.scale !== undefined || options.pose ? transformMeshData(data, options) : data;
  return makeTriangleMesh(t.vertices, t.indices, field, options);
}

/** The Stanford bunny (npm package `bunny`, about 10 units tall) as mesh data (copied). */
export function bunnyMeshData(): MeshData {
  const b = loadBunny();
  return { vertices: Float64Array.from(b.positions), indices: Uint32Array.from(b.cells) };
}
