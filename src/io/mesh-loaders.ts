/**
 * Mesh loaders: Wavefront OBJ and glTF 2.0 (.gltf with its buffers, or binary .glb) into packed
 * vertices and triangle indices, with an optional scale and pose, plus the built-in Stanford
 * bunny.
 *
 * - glTF goes through `@gltf-transform/core` (`NodeIO.readJSON`), but we read the bytes
 *   ourselves: the .gltf/.glb file and every external buffer must be a regular file of at most
 *   {@link MAX_MESH_FILE_BYTES}, and every non-`data:` buffer or image URI must stay inside the
 *   allowed folder ({@link MeshFileOptions}); accessor and buffer view bounds are checked
 *   against the data (the library would silently truncate), and a GLB's layout, index
 *   accessors, triangle-list counts and accessor alignment against glTF 2.0's rules (`splitGlb`,
 *   `checkIndexAccessors`, `checkAccessorBounds`). Every mesh primitive of the default
 *   scene (or of every scene, or every mesh when there is no scene) is taken with its node's
 *   world matrix, from the node forest we read from the JSON (`readGltfNodes`: disjoint
 *   trees, matrices that are translation·rotation·scale (no shear, no projection), unit
 *   rotations); a node with a zero scale component (how exporters hide a node) gives no
 *   triangle, nor does its subtree, as three.js draws none; every POSITION accessor must be VEC3
 *   of floats ({@link checkPositionAccessors}); triangle lists, strips and fans are converted to triangles,
 *   points and lines are skipped, and a file left with no triangle is refused. Its API is asynchronous, so glTF
 *   files load through {@link loadMeshFile} (a promise) only.
 * - OBJ: a small strict parser of our own, synchronous. The npm parsers were checked and not
 *   used: `obj-file-parser` keeps vertices per `o` object although OBJ indices are global to the
 *   file (so multi-object files index the wrong vertices), parses numbers with `parseFloat`
 *   (so "1.5abc" is 1.5 and a bad token silently becomes NaN) and throws strings without line
 *   numbers; `webgl-obj-loader` re-indexes vertices per position/uv/normal combination (it
 *   splits the shared vertices that active-edge classification needs), ignores negative
 *   indices and turns an out-of-range index into NaN coordinates. Ours reads `v` (x y z, then
 *   either the standard optional weight w or the de facto vertex colour r g b that MeshLab and
 *   other tools write; w and the colour checked finite and ignored) and `f` (≥ 3 references `v`,
 *   `v/vt`, `v//vn`, `v/vt/vn`, negative = relative to the last vertex, polygons
 *   fan-triangulated from their first corner, so a concave face covers its notch: see
 *   {@link parseObj}), ignores the other standard statements unread (`vt`, `vn`, `vp`, `o`, `g`,
 *   `s`, `usemtl`, `mtllib`, `l`, free-form geometry, …) and refuses anything else with a
 *   `CollideError` naming the line. Lines end at LF, CRLF or a lone CR (classic Mac OS), mixed
 *   freely.
 *
 * Loading errors (every message starts with the field that named the file, `a.file: `): a file
 * that cannot be read, or whose bytes are neither glTF JSON nor GLB, is `io_error`; a fault in a
 * readable file is `invalid_value` naming that field, in one form for both formats
 * ({@link meshFileFault}): `<field>: <OBJ|glTF> file <path>[:<where>] <reason> (got <value>)` —
 * an empty file, no triangle, an index past the last vertex, a vertex that is not finite, a bad
 * OBJ line. A glTF structure past its data (an accessor, a buffer view, a resource URI) names
 * its place in the field, `<field>:accessors[2]`.
 */
import type { Stats } from "node:fs";
import {
  closeSync,
  existsSync,
  constants as fsConstants,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
} from "node:fs";
import { dirname, extname, isAbsolute, relative, resolve } from "node:path";
import type { GLTF } from "@gltf-transform/core";
import { GLB_BUFFER, NodeIO } from "@gltf-transform/core";
import {
  GLTF_NODE_SHEAR_TOLERANCE,
  MESH_COORDINATE_LIMIT,
  UNIT_QUATERNION_TOLERANCE,
} from "../constants.js";
import { CollideError, checkOptions, describeValue, invalidValue, optionsSpec } from "../errors.js";
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
/** The numbers of a `v` line by count: x y z, x y z w (the standard), x y z r g b (colours). */
const OBJ_VERTEX_FIELDS: Readonly<Record<number, readonly string[]>> = {
  3: ["x", "y", "z"],
  4: ["x", "y", "z", "w"],
  6: ["x", "y", "z", "colour r", "colour g", "colour b"],
};
/** A line end of OBJ text: LF, CRLF, or a lone CR (classic Mac OS). */
const OBJ_LINE_END = /\r\n|\r|\n/;
const OBJ_INDEX = /^[+-]?\d+$/;

/**
 * Parses Wavefront OBJ text into vertices and triangles (see the module doc for what is read).
 * A face of n ≥ 3 corners becomes the fan of triangles (c0, c(k), c(k+1)), k = 1 … n − 2, in
 * the file's order: right for a convex planar polygon (what exporters write), but a concave one
 * gets triangles over its notch, and a non-planar one a fan from its first corner —
 * triangulate such faces in the exporter (Blender's Triangulate Faces) for their true shape.
 *
 * A `v` line holds x y z, x y z w (OBJ's optional weight, for rational curves and surfaces: it
 * does not scale a polygon's vertex, so it is ignored, as by three.js and tinyobjloader; a zero
 * weight too) or x y z r g b (the vertex colour that MeshLab, Open3D and others write; ignored);
 * every number finite, any other count refused. `vt`, `vn` and `vp` lines are skipped unread:
 * texture coordinates and normals never enter a collision answer, and C tools write `vn -nan
 * -nan -nan` for a degenerate face's normal, so checking them would refuse files whose triangles
 * every other reader loads; a face's `vt` and `vn` references must be integers (the face's
 * syntax) but are not range-checked. Lines end at LF, CRLF or a lone CR, mixed freely; line
 * numbers count each end.
 *
 * Throws `CollideError` (`invalid_value`, field `<field>:<line>`) for a malformed number
 * (the message names it: `vertex z`, `vertex w`, `vertex colour g`) or reference, a `v` line
 * with another count of numbers, a face with fewer than 3 corners, an index 0 or out of range,
 * or an unknown statement.
 */
export function parseObj(text: string, field = "obj"): MeshData {
  const verts: number[] = [];
  const tris: number[] = [];
  const lines = text.split(OBJ_LINE_END);
  const forward: { line: number; value: number; token: string }[] = [];
  let pending = "";
  let firstLine = 0;
  for (let li = 0; li < lines.length; li++) {
    let line = lines[li];
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
      const names = OBJ_VERTEX_FIELDS[tok.length - 1];
      if (names === undefined)
        invalidValue(
          where,
          line.trim(),
          "must be `v x y z`, `v x y z w` or `v x y z r g b` (a vertex colour, ignored)",
        );
      for (let k = 1; k < tok.length; k++) {
        const x = Number(tok[k]);
        if (!OBJ_NUMBER.test(tok[k]) || !Number.isFinite(x))
          invalidValue(where, tok[k], `vertex ${names[k - 1]} must be a finite number`);
        if (k > 3) continue; // w or a colour: checked, not used
        if (!(Math.abs(x) < MESH_COORDINATE_LIMIT))
          invalidValue(
            where,
            tok[k],
            `vertex ${names[k - 1]} must be below MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude (a mesh's BVH sums a box's min and max)`,
          );
        verts.push(x);
      }
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
type GltfMesh = ReturnType<ReturnType<GltfDocument["getRoot"]>["listMeshes"]>[number];

const GLTF_TRIANGLES = 4;
const GLTF_TRIANGLE_STRIP = 5;
const GLTF_TRIANGLE_FAN = 6;
const IDENTITY_MAT4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/**
 * Largest mesh file, and largest glTF external resource (buffer or image), the loaders read, in
 * bytes; also the cap on all the bytes one glTF file reads (the file plus its resources). A
 * larger file, or one that is not a regular file (a device such as /dev/zero, a named pipe, a
 * folder), is refused with `CollideError("io_error")` before any byte is read, so a crafted
 * path cannot grow memory without bound or block for ever. 512 MiB holds a mesh of tens of
 * millions of triangles, far past what an interactive collision query needs.
 * @default 536870912 (512 MiB)
 */
export const MAX_MESH_FILE_BYTES = 512 * 1024 * 1024;

/**
 * Most vertices, and most triangles, one glTF file may give once its scene's nodes are
 * applied: as many float32 xyz vertices as a {@link MAX_MESH_FILE_BYTES} file holds. Bounds the
 * memory of a small file whose nodes instance one big mesh many times; past it the load is
 * refused with `CollideError("invalid_value")`.
 * @default 44739242 (⌊MAX_MESH_FILE_BYTES / 12⌋)
 */
export const MAX_GLTF_VERTICES = Math.floor(MAX_MESH_FILE_BYTES / 12);

/**
 * The error of a fault inside a mesh file, in the one form both loaders use:
 * `invalid_value` naming `field` (the JSON field that named the file), with the message
 * `<field>: <kind> file <path>[:<where>] <reason>[ (got <value>)]` — `<where>` a line number
 * (OBJ) or a path into the glTF document (`meshes[0].primitives[1].indices[5]`). `value` is the
 * offending value; omitted for a fault of the whole file (empty, no triangle), whose value is
 * the path.
 */
function meshFileFault(
  field: string,
  kind: "OBJ" | "glTF",
  path: string,
  where: string,
  reason: string,
  ...value: [unknown?]
): never {
  const at = where === "" ? "" : `:${where}`;
  const got = value.length === 0 ? "" : ` (got ${describeValue(value[0])})`;
  throw new CollideError(
    "invalid_value",
    field,
    value.length === 0 ? path : value[0],
    `${field}: ${kind} file ${path}${at} ${reason}${got}`,
  );
}

/** The place of vertex i of the primitive at `where` in its glTF document. */
function positionAt(where: string, i: number): string {
  return `${where}.attributes.POSITION[${i}]`;
}

/** Where a glTF mesh's triangles are appended from: the file, and the mesh's index in it. */
interface GltfSource {
  readonly field: string;
  readonly path: string;
  readonly meshIndex: number;
  /** The index in the file's `accessors` of each accessor the document read (for messages). */
  readonly accessorIndex: ReadonlyMap<unknown, number>;
}

/**
 * The primitive-restart value of an index component type: its largest value (255, 65535,
 * 4294967295), which glTF 2.0 forbids in an index accessor (meshes: "indices accessor MUST NOT
 * contain the maximum possible value for the component type used").
 */
const RESTART_INDEX: Readonly<Record<number, number>> = {
  5121: 0xff,
  5123: 0xffff,
  5125: 0xffffffff,
};

/** The name of an index component type, for messages. */
const INDEX_COMPONENT_NAME: Readonly<Record<number, string>> = {
  5121: "UNSIGNED_BYTE",
  5123: "UNSIGNED_SHORT",
  5125: "UNSIGNED_INT",
};

/**
 * Appends the triangles of `mesh` under the matrices `m`, applied in turn (the world matrix of
 * node `node`, or its chain of local matrices, its own first, when their product overflows),
 * refusing (see {@link meshFileFault}) a vertex that is not finite — in the file, or once placed:
 * naming the vertex, its value and what it becomes — and an index past its primitive's vertices;
 * an index that is its component type's primitive-restart value ({@link RESTART_INDEX}) is an
 * `invalid_value` naming `<field>:accessors[i]` and the value (loaded as a vertex index before,
 * when the primitive has more vertices than that).
 */
function appendGltfMesh(
  verts: number[],
  tris: number[],
  mesh: GltfMesh,
  m: readonly ArrayLike<number>[],
  src: GltfSource,
  node: number,
) {
  const { field, path } = src;
  const p = new Float64Array(3);
  const el: number[] = [0, 0, 0];
  mesh.listPrimitives().forEach((prim, primIndex) => {
    const mode = prim.getMode();
    if (mode !== GLTF_TRIANGLES && mode !== GLTF_TRIANGLE_STRIP && mode !== GLTF_TRIANGLE_FAN)
      return;
    const pos = prim.getAttribute("POSITION");
    if (!pos) return;
    const where = `meshes[${src.meshIndex}].primitives[${primIndex}]`;
    const base = verts.length / 3;
    const n = pos.getCount();
    if (base + n > MAX_GLTF_VERTICES || tris.length / 3 > MAX_GLTF_VERTICES) {
      throw new CollideError(
        "invalid_value",
        field,
        base + n,
        `${field}: the glTF scene has more than MAX_GLTF_VERTICES (${MAX_GLTF_VERTICES}) vertices or triangles in world space (nodes may instance one mesh many times)`,
      );
    }
    for (let i = 0; i < n; i++) {
      pos.getElement(i, el);
      if (!(Number.isFinite(el[0]) && Number.isFinite(el[1]) && Number.isFinite(el[2])))
        meshFileFault(field, "glTF", path, positionAt(where, i), "must be 3 finite numbers", [
          ...el,
        ]);
      transformByMat4(p, 0, m[0], el[0], el[1], el[2]);
      for (let k = 1; k < m.length; k++) transformByMat4(p, 0, m[k], p[0], p[1], p[2]);
      if (!(Number.isFinite(p[0]) && Number.isFinite(p[1]) && Number.isFinite(p[2])))
        meshFileFault(
          field,
          "glTF",
          path,
          positionAt(where, i),
          `overflows under the world matrix of nodes[${node}]: it becomes ${describeValue(Array.from(p))}`,
          [...el],
        );
      if (
        !(
          Math.abs(p[0]) < MESH_COORDINATE_LIMIT &&
          Math.abs(p[1]) < MESH_COORDINATE_LIMIT &&
          Math.abs(p[2]) < MESH_COORDINATE_LIMIT
        )
      )
        meshFileFault(
          field,
          "glTF",
          path,
          positionAt(where, i),
          `under the world matrix of nodes[${node}] becomes ${describeValue(Array.from(p))}, beyond MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude (a mesh's BVH sums a box's min and max)`,
          [...el],
        );
      verts.push(p[0], p[1], p[2]);
    }
    const ind = prim.getIndices();
    const count = ind ? ind.getCount() : n;
    if (ind) {
      const ct = ind.getComponentType();
      const restart = RESTART_INDEX[ct];
      for (let k = 0; k < count; k++) {
        const v = ind.getScalar(k);
        if (v === restart) {
          const i = src.accessorIndex.get(ind);
          invalidValue(
            `${field}:accessors[${i}]`,
            v,
            `holds the primitive-restart value ${v}, the largest ${INDEX_COMPONENT_NAME[ct]}, at element ${k}: ${where}.indices names it, and glTF 2.0 forbids that value in indices (use a larger component type for more vertices)`,
          );
        }
        if (!(v < n))
          meshFileFault(
            field,
            "glTF",
            path,
            `${where}.indices[${k}]`,
            `is beyond the last vertex of its primitive (${n} vertices)`,
            v,
          );
      }
    }
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
  });
}

/**
 * Every triangle of a glTF document in world coordinates (see the module doc), and the nodes
 * skipped with their subtrees for a zero scale that hide a mesh, in the order met.
 */
function gltfToMeshData(
  doc: GltfDocument,
  tree: GltfNodeTree,
  path: string,
  field: string,
): { data: MeshData; zeroScaled: number[] } {
  const zeroScaled: number[] = [];
  const verts: number[] = [];
  const tris: number[] = [];
  const meshes = doc.getRoot().listMeshes();
  const accessorIndex = new Map<unknown, number>();
  doc
    .getRoot()
    .listAccessors()
    .forEach((a, i) => {
      accessorIndex.set(a, i);
    });
  const source = (meshIndex: number): GltfSource => ({ field, path, meshIndex, accessorIndex });
  if (tree.roots === null) {
    meshes.forEach((mesh, i) => {
      appendGltfMesh(verts, tris, mesh, [IDENTITY_MAT4], source(i), -1);
    });
  } else {
    // Depth first, a node before its children (the order of @gltf-transform's traverse); each
    // item holds its ancestors' local matrices, root first, with their product.
    const stack: { node: number; chain: Float64Array[]; parent: ArrayLike<number> }[] = [];
    for (let r = tree.roots.length - 1; r >= 0; r--)
      stack.push({ node: tree.roots[r], chain: [], parent: IDENTITY_MAT4 });
    for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
      const def = tree.nodes[item.node];
      if (def.zeroScale) {
        // Hidden (three.js draws nothing there): its world scale, and its subtree's, is zero.
        if (placesMesh(tree, item.node)) zeroScaled.push(item.node);
        continue;
      }
      const world = multiplyMat4(item.parent, def.matrix);
      const chain = item.chain.concat([def.matrix]);
      if (def.mesh >= 0) {
        // A product that overflows (two nested scales of 1e200) may still place every vertex
        // finitely one matrix at a time, the node's own first.
        const m = world.every(Number.isFinite) ? [world] : chain.slice().reverse();
        appendGltfMesh(verts, tris, meshes[def.mesh], m, source(def.mesh), item.node);
      }
      for (let c = def.children.length - 1; c >= 0; c--)
        stack.push({ node: def.children[c], chain, parent: world });
    }
  }
  return {
    data: { vertices: Float64Array.from(verts), indices: Uint32Array.from(tris) },
    zeroScaled,
  };
}

/** Whether node `root` or a node below it holds a mesh. */
function placesMesh(tree: GltfNodeTree, root: number): boolean {
  const stack = [root];
  for (let i = stack.pop(); i !== undefined; i = stack.pop()) {
    if (tree.nodes[i].mesh >= 0) return true;
    stack.push(...tree.nodes[i].children);
  }
  return false;
}

/** A read glTF: the document (meshes, accessors) and the node forest read from its JSON. */
interface GltfRead {
  doc: GltfDocument;
  tree: GltfNodeTree;
}

/** Column-major 4×4 product a·b (allocates). */
function multiplyMat4(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++)
      out[c * 4 + r] =
        a[r] * b[c * 4] +
        a[4 + r] * b[c * 4 + 1] +
        a[8 + r] * b[c * 4 + 2] +
        a[12 + r] * b[c * 4 + 3];
  return out;
}

/**
 * A glTF node as the loader uses it: its local matrix, children and mesh (−1: none), and whether
 * a zero scale hides it (it and its subtree give no triangle).
 */
interface GltfNodeDef {
  matrix: Float64Array;
  children: number[];
  mesh: number;
  zeroScale: boolean;
}

/**
 * The node forest a glTF file's triangles are placed by: every node, and the root nodes of the
 * scene(s) taken (`roots` null: no scene, every mesh at the identity).
 */
interface GltfNodeTree {
  nodes: GltfNodeDef[];
  roots: number[] | null;
}

/** Two columns of a node matrix's 3×3 part that are not orthogonal, and their cosine. */
interface ColumnShear {
  j: number;
  k: number;
  cosine: number;
}

/**
 * The first pair of columns j < k of the 3×3 part of column-major 4×4 `m` whose cosine exceeds
 * GLTF_NODE_SHEAR_TOLERANCE in magnitude (a shear: the part is not rotation × scale along
 * axes), or null. Each column is divided by its largest |entry| before its length is taken, so
 * scales of 1e-200 or 1e200 neither underflow nor overflow; a zero column (a zero scale) is
 * orthogonal to every column.
 */
function columnShear(m: ArrayLike<number>): ColumnShear | null {
  const u: number[][] = [];
  for (let j = 0; j < 3; j++) {
    const col = [m[4 * j], m[4 * j + 1], m[4 * j + 2]];
    const big = Math.max(Math.abs(col[0]), Math.abs(col[1]), Math.abs(col[2]));
    if (big === 0) {
      u.push([0, 0, 0]);
      continue;
    }
    const len = Math.hypot(col[0] / big, col[1] / big, col[2] / big);
    u.push(col.map((v) => v / big / len));
  }
  for (let j = 0; j < 3; j++)
    for (let k = j + 1; k < 3; k++) {
      const cosine = u[j][0] * u[k][0] + u[j][1] * u[k][1] + u[j][2] * u[k][2];
      if (Math.abs(cosine) > GLTF_NODE_SHEAR_TOLERANCE) return { j, k, cosine };
    }
  return null;
}

/** Whether the 3×3 part of column-major 4×4 `m` has a column of zeros (a zero scale). */
function hasZeroColumn(m: ArrayLike<number>): boolean {
  for (let j = 0; j < 3; j++)
    if (m[4 * j] === 0 && m[4 * j + 1] === 0 && m[4 * j + 2] === 0) return true;
  return false;
}

/** A fixed-length array of finite numbers at `obj[key]`, or `dflt` when absent. */
function gltfNumbers(obj: Json, key: string, n: number, where: string, dflt: number[]): number[] {
  const v = obj[key];
  if (v === undefined) return dflt;
  if (!Array.isArray(v) || v.length !== n || !v.every((x) => Number.isFinite(x)))
    invalidValue(`${where}.${key}`, v, `must be an array of ${n} finite numbers`);
  return v as number[];
}

/**
 * The node forest of a glTF document's JSON ({@link GltfNodeTree}), read here and not through
 * `@gltf-transform/core`, which decomposes a node's `matrix` into translation, rotation and
 * scale by squaring its entries (a scale of 1e200 became Infinity, and every vertex NaN) and
 * accepted a node that lists itself or an ancestor as a child. Each node's local matrix is its
 * `matrix` (column-major) or T·R·S of `translation`, `rotation` (x, y, z, w) and `scale` (glTF
 * 2.0, §5.25). Throws `CollideError` `invalid_value` naming `<field>:nodes[i]…` for a node that
 * is not an object, a `matrix`/TRS that is not finite numbers, a `matrix` given with TRS, whose
 * last row is not [0, 0, 0, 1] (projective) or whose 3×3 part holds a shear (two columns not
 * orthogonal within `GLTF_NODE_SHEAR_TOLERANCE`, {@link columnShear}; the node's `name`, when it
 * has one, in the message: glTF 2.0 §3.5.3 requires a matrix decomposable to T·R·S), a `rotation`
 * not of unit length within `UNIT_QUATERNION_TOLERANCE` (normalised when within), a child or mesh
 * index that names no node or mesh, a node listed as the child of two nodes or as a scene root
 * with a parent, and
 * a cycle: a node that is its own ancestor, naming the child entry that
 * closes it (`<field>:nodes[i].children[k]`, its value the node index); `<field>:scenes[i].nodes[k]`
 * or `<field>.scene` for a bad scene index. A zero scale is accepted and marks the node
 * `zeroScale` (a `scale` with a zero component, or a `matrix` with a column of zeros, its other
 * columns orthogonal: exactly such a T·R·S): exporters (Blender, three.js) hide a node so, and
 * the node and its subtree then give no triangle, as three.js draws none.
 */
function readGltfNodes(json: Json, field: string): GltfNodeTree {
  const list = json.nodes === undefined ? [] : json.nodes;
  if (!Array.isArray(list)) invalidValue(`${field}:nodes`, list, "must be an array");
  const meshCount = Array.isArray(json.meshes) ? json.meshes.length : 0;
  const nodes: GltfNodeDef[] = list.map((n, i) => {
    const where = `${field}:nodes[${i}]`;
    if (!isObject(n)) invalidValue(where, n, "must be an object");
    const children: number[] = [];
    if (n.children !== undefined) {
      if (!Array.isArray(n.children))
        invalidValue(`${where}.children`, n.children, "must be an array");
      n.children.forEach((c, k) => {
        if (typeof c !== "number" || !Number.isInteger(c) || c < 0 || c >= list.length)
          invalidValue(`${where}.children[${k}]`, c, `must name a node (0 to ${list.length - 1})`);
        children.push(c);
      });
    }
    const mesh = n.mesh === undefined ? -1 : gltfIndex(n, "mesh", where);
    if (mesh >= meshCount) invalidValue(`${where}.mesh`, mesh, "names no mesh");
    let matrix: Float64Array;
    let zeroScale: boolean;
    if (n.matrix !== undefined) {
      matrix = Float64Array.from(gltfNumbers(n, "matrix", 16, where, []));
      for (const key of ["translation", "rotation", "scale"])
        if (n[key] !== undefined)
          invalidValue(
            `${where}.${key}`,
            n[key],
            "must not be given with matrix (a glTF node has a matrix or translation/rotation/scale)",
          );
      if (matrix[3] !== 0 || matrix[7] !== 0 || matrix[11] !== 0 || matrix[15] !== 1)
        invalidValue(
          `${where}.matrix`,
          n.matrix,
          "must be affine: its last row (entries 3, 7, 11, 15, column-major) must be [0, 0, 0, 1] (glTF node matrices are translation·rotation·scale)",
        );
      const shear = columnShear(matrix);
      if (shear !== null)
        invalidValue(
          `${where}.matrix`,
          n.matrix,
          `${typeof n.name === "string" ? `(node ${JSON.stringify(n.name)}) ` : ""}must be translation·rotation·scale, with no shear (glTF 2.0 §3.5.3): columns ${shear.j} and ${shear.k} of its 3×3 part have cosine ${Number(shear.cosine.toPrecision(3))}, beyond GLTF_NODE_SHEAR_TOLERANCE (${GLTF_NODE_SHEAR_TOLERANCE}) of orthogonal`,
        );
      zeroScale = hasZeroColumn(matrix);
    } else {
      const [tx, ty, tz] = gltfNumbers(n, "translation", 3, where, [0, 0, 0]);
      let [x, y, z, w] = gltfNumbers(n, "rotation", 4, where, [0, 0, 0, 1]);
      const len = Math.hypot(x, y, z, w);
      if (!(Math.abs(len - 1) <= UNIT_QUATERNION_TOLERANCE))
        invalidValue(
          `${where}.rotation`,
          n.rotation,
          `must be a unit quaternion [x, y, z, w] (length within UNIT_QUATERNION_TOLERANCE, ${UNIT_QUATERNION_TOLERANCE}, of 1)`,
        );
      [x, y, z, w] = [x / len, y / len, z / len, w / len];
      const [sx, sy, sz] = gltfNumbers(n, "scale", 3, where, [1, 1, 1]);
      zeroScale = sx === 0 || sy === 0 || sz === 0;
      matrix = Float64Array.from([
        (1 - 2 * (y * y + z * z)) * sx,
        2 * (x * y + z * w) * sx,
        2 * (x * z - y * w) * sx,
        0,
        2 * (x * y - z * w) * sy,
        (1 - 2 * (x * x + z * z)) * sy,
        2 * (y * z + x * w) * sy,
        0,
        2 * (x * z + y * w) * sz,
        2 * (y * z - x * w) * sz,
        (1 - 2 * (x * x + y * y)) * sz,
        0,
        tx,
        ty,
        tz,
        1,
      ]);
    }
    return { matrix, children, mesh, zeroScale };
  });
  // One parent each (glTF 2.0 §3.5.3: disjoint strict trees), then no cycle.
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    n.children.forEach((c, k) => {
      if (parent[c] >= 0 && c !== i)
        invalidValue(
          `${field}:nodes[${i}].children[${k}]`,
          c,
          `lists nodes[${c}], already a child of nodes[${parent[c]}] (glTF nodes form disjoint trees: one parent each)`,
        );
      if (c !== i) parent[c] = i;
    });
  });
  // A cycle: depth first from every node (iteratively: a long chain must not overflow the
  // stack), 1 = on the current path, 2 = done.
  const state = new Uint8Array(nodes.length);
  for (let start = 0; start < nodes.length; start++) {
    if (state[start] !== 0) continue;
    const path: number[] = [start];
    const next: number[] = [0];
    state[start] = 1;
    while (path.length > 0) {
      const at = path[path.length - 1];
      const k = next[next.length - 1]++;
      const children = nodes[at].children;
      if (k >= children.length) {
        state[at] = 2;
        path.pop();
        next.pop();
        continue;
      }
      const c = children[k];
      if (state[c] === 1)
        invalidValue(
          `${field}:nodes[${at}].children[${k}]`,
          c,
          c === at
            ? `lists nodes[${at}] itself as a child (glTF nodes form trees)`
            : `lists nodes[${c}], an ancestor of nodes[${at}], as a child (glTF nodes form trees)`,
        );
      if (state[c] === 0) {
        state[c] = 1;
        path.push(c);
        next.push(0);
      }
    }
  }
  const scenes = json.scenes === undefined ? [] : json.scenes;
  if (!Array.isArray(scenes)) invalidValue(`${field}:scenes`, scenes, "must be an array");
  const sceneRoots = (i: number): number[] => {
    const sc = scenes[i];
    const where = `${field}:scenes[${i}]`;
    if (!isObject(sc)) invalidValue(where, sc, "must be an object");
    const roots = sc.nodes === undefined ? [] : sc.nodes;
    if (!Array.isArray(roots)) invalidValue(`${where}.nodes`, roots, "must be an array");
    roots.forEach((r, k) => {
      if (typeof r !== "number" || !Number.isInteger(r) || r < 0 || r >= nodes.length)
        invalidValue(`${where}.nodes[${k}]`, r, `must name a node (0 to ${nodes.length - 1})`);
      if (parent[r] >= 0)
        invalidValue(
          `${where}.nodes[${k}]`,
          r,
          `names nodes[${r}], a child of nodes[${parent[r]}] (a scene lists root nodes)`,
        );
    });
    return roots as number[];
  };
  if (json.scene !== undefined) {
    const i = gltfIndex(json, "scene", field);
    if (i >= scenes.length) invalidValue(`${field}:scene`, i, "names no scene");
    return { nodes, roots: sceneRoots(i) };
  }
  if (scenes.length === 0) return { nodes, roots: null };
  return { nodes, roots: scenes.flatMap((_, i) => sceneRoots(i)) };
}

function ioError(field: string, path: string, e: unknown, what: string): never {
  const msg = e instanceof Error ? e.message : String(e);
  throw new CollideError("io_error", field, path, `cannot ${what} mesh file ${path}: ${msg}`);
}

/**
 * Where a mesh file's external resources may come from (glTF `buffers[].uri` and
 * `images[].uri`). URIs resolve relative to the glTF file's folder and, after resolving
 * symbolic links, must stay inside `baseDir` unless `allowOutside`.
 */
export interface MeshFileOptions {
  /** Folder every file read must stay inside. @default the glTF file's own folder */
  baseDir?: string;
  /** Allow resources outside `baseDir`, and absolute paths (`--allow-outside`). @default false */
  allowOutside?: boolean;
}

/** The real path of `p` when it exists, else its lexical absolute path. */
function realOrResolved(p: string): string {
  try {
    return existsSync(p) ? realpathSync(p) : resolve(p);
  } catch {
    return resolve(p);
  }
}

/** True when `abs` (after resolving symbolic links) is strictly inside folder `base`. */
function isInside(base: string, abs: string): boolean {
  const rel = relative(realOrResolved(base), realOrResolved(abs));
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * The bytes of a regular file of at most `limit` bytes. Stats first (which follows symbolic
 * links and never blocks), opens without blocking (a named pipe swapped in meanwhile cannot
 * hang) and checks the opened file again. Throws `CollideError("io_error")` naming `field`.
 */
function readRegularFile(path: string, field: string, limit: number, what: string): Uint8Array {
  const refuse = (why: string): never => {
    throw new CollideError("io_error", field, path, `cannot read ${what} ${path}: ${why}`);
  };
  const check = (st: Stats) => {
    if (!st.isFile()) refuse("not a regular file");
    if (st.size > limit)
      refuse(
        `${st.size} bytes is more than the ${limit} bytes left of MAX_MESH_FILE_BYTES (one mesh file with all its glTF buffers)`,
      );
  };
  let fd: number;
  try {
    check(statSync(path));
    fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (e) {
    if (e instanceof CollideError) throw e;
    return refuse(e instanceof Error ? e.message : String(e));
  }
  try {
    const st = fstatSync(fd);
    check(st);
    const out = new Uint8Array(st.size);
    let got = 0;
    while (got < out.length) {
      const n = readSync(fd, out, got, out.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === out.length ? out : out.slice(0, got);
  } catch (e) {
    if (e instanceof CollideError) throw e;
    return refuse(e instanceof Error ? e.message : String(e));
  } finally {
    closeSync(fd);
  }
}

/** Mesh file text (UTF-8), refused as {@link readRegularFile} does. */
function readMeshText(path: string, field: string): string {
  return new TextDecoder().decode(readRegularFile(path, field, MAX_MESH_FILE_BYTES, "mesh file"));
}

const GLB_MAGIC = 0x46546c67;
const GLB_CHUNK_JSON = 0x4e4f534a;
const GLB_CHUNK_BIN = 0x004e4942;
const GLB_HEADER_BYTES = 12;
const GLB_CHUNK_HEADER_BYTES = 8;
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/;
const COMPONENT_BYTES: Record<number, number> = {
  5120: 1,
  5121: 1,
  5122: 2,
  5123: 2,
  5125: 4,
  5126: 4,
};
/** The component types of indices, a primitive's or a sparse accessor's: unsigned integers. */
const INDEX_COMPONENT_TYPES: readonly number[] = [5121, 5123, 5125];
const INDEX_COMPONENT_RULE =
  "must be UNSIGNED_BYTE (5121), UNSIGNED_SHORT (5123) or UNSIGNED_INT (5125)";
const TYPE_COMPONENTS: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A non-negative integer field of a glTF object (or `dflt` when absent). */
function gltfIndex(obj: Json, key: string, where: string, dflt?: number): number {
  const v = obj[key];
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
    invalidValue(`${where}.${key}`, v, "must be an integer ≥ 0");
  return v;
}

/**
 * The JSON object of glTF text (`chunk`: a GLB's JSON chunk); a parse error names the file but
 * never quotes its bytes, and says it is not a glTF/GLB file at all (random bytes are neither).
 */
function parseGltfJson(bytes: Uint8Array, path: string, field: string, chunk = false): Json {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    const why = chunk
      ? "its JSON chunk is not valid JSON"
      : "neither glTF JSON text nor a GLB binary (no 'glTF' header)";
    throw new CollideError("io_error", field, path, `${path} is not a valid glTF/GLB file: ${why}`);
  }
  if (!isObject(json))
    throw new CollideError("io_error", field, path, `glTF file ${path} is not a JSON object`);
  return json;
}

/** A GLB's chunks: its JSON, its BIN chunk when its second chunk is one, and that one's type. */
interface GlbChunks {
  json: Json;
  bin?: Uint8Array;
  /** The type of the second chunk (`GLB_CHUNK_BIN` for a BIN chunk), undefined when none. */
  secondType?: number;
}

/**
 * Splits a GLB container into its JSON and its BIN chunk (if any), by glTF 2.0's GLB layout: a
 * 12-byte header (magic `glTF`, version 2, the file's length in bytes), then chunks of
 * an 8-byte header (length, type) and data, each a multiple of 4 bytes long; the first chunk is
 * JSON, the second, when present, the BIN chunk (type 0x004E4942) holding `buffers[0]` — a later
 * chunk of another type is ignored, as the spec has readers do. Refuses (`io_error` naming
 * `field`, the offending number as the value) a header length other than the file's, a chunk
 * past the header's length or not a multiple of 4 bytes long, and stray bytes after the last
 * chunk; a second chunk that is not BIN is kept as `secondType`, refused only when `buffers[0]`
 * needs the BIN chunk (see {@link readGltfDocument}).
 */
function splitGlb(bytes: Uint8Array, path: string, field: string): GlbChunks {
  const bad = (why: string, value: unknown = path): never => {
    throw new CollideError("io_error", field, value, `cannot parse glTF ${path}: ${why}`);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES) bad("too short for a GLB");
  if (view.getUint32(0, true) !== GLB_MAGIC || view.getUint32(4, true) !== 2)
    bad("not a valid glTF/GLB file: no glTF 2.0 binary (GLB) header");
  const length = view.getUint32(8, true);
  if (length !== bytes.byteLength)
    bad(
      `its GLB header gives the file's length as ${length} bytes (bytes 8–11), but the file has ${bytes.byteLength} (glTF 2.0 GLB: they must be equal)`,
      length,
    );
  let at = GLB_HEADER_BYTES;
  let json: Json | undefined;
  let bin: Uint8Array | undefined;
  let secondType: number | undefined;
  for (let k = 0; at < length; k++) {
    if (at + GLB_CHUNK_HEADER_BYTES > length)
      bad(`${length - at} stray bytes after its last chunk (at byte ${at})`, length - at);
    const n = view.getUint32(at, true);
    const type = view.getUint32(at + 4, true);
    const start = at + GLB_CHUNK_HEADER_BYTES;
    if (start + n > length)
      bad(
        `chunk ${k} (at byte ${at}) has a length of ${n} bytes, past the file's end (${length - start} bytes left)`,
        n,
      );
    if (n % 4 !== 0)
      bad(
        `chunk ${k} (at byte ${at}) has a length of ${n} bytes, not a multiple of 4 (glTF 2.0 GLB: chunks are padded to 4-byte boundaries)`,
        n,
      );
    const chunk = bytes.subarray(start, start + n);
    if (k === 0) {
      if (type !== GLB_CHUNK_JSON)
        bad(`its first chunk has type ${chunkTypeName(type)}, not JSON (0x4E4F534A)`, type);
      json = parseGltfJson(chunk, path, field, true);
    } else if (k === 1) {
      secondType = type;
      if (type === GLB_CHUNK_BIN) bin = chunk;
    }
    at = start + n;
  }
  if (json === undefined) return bad("no JSON chunk");
  return { json, bin, secondType };
}

/** A GLB chunk type in hex, and its four bytes as ASCII when printable (`0x4E4F534A "JSON"`). */
function chunkTypeName(type: number): string {
  const hex = `0x${type.toString(16).toUpperCase().padStart(8, "0")}`;
  const chars = [0, 8, 16, 24].map((s) => (type >>> s) & 0xff);
  const text = chars.every((c) => c >= 0x20 && c < 0x7f)
    ? ` ${JSON.stringify(String.fromCharCode(...chars))}`
    : "";
  return hex + text;
}

/** Decodes a `data:` URI (base64 or percent-encoded) into bytes. */
function decodeDataUri(uri: string, where: string): Uint8Array {
  const comma = uri.indexOf(",");
  if (comma < 0) invalidValue(where, uri.slice(0, 64), "is a data: URI without a comma");
  const meta = uri.slice(5, comma);
  const body = uri.slice(comma + 1);
  if (meta.endsWith(";base64")) return new Uint8Array(Buffer.from(body, "base64"));
  try {
    return new Uint8Array(Buffer.from(decodeURIComponent(body), "latin1"));
  } catch {
    return invalidValue(where, uri.slice(0, 64), "is a data: URI with bad percent-encoding");
  }
}

/**
 * The absolute path of a glTF resource URI: percent-decoded, resolved against the glTF file's
 * folder, refused (`invalid_value` on `where`) for a scheme other than `data:`, and, unless
 * `allowOutside`, for an absolute path or one that leaves `baseDir`.
 */
function resolveResourceUri(
  uri: string,
  where: string,
  gltfDir: string,
  baseDir: string,
  allowOutside: boolean,
): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    return invalidValue(where, uri, "has bad percent-encoding");
  }
  if (decoded === "") invalidValue(where, uri, "is empty");
  if (decoded.includes("\0")) invalidValue(where, uri, "contains a NUL character");
  if (URI_SCHEME.test(decoded) && !WINDOWS_DRIVE.test(decoded))
    invalidValue(where, uri, "must be a relative file path or a data: URI (no other scheme)");
  if (!allowOutside && (isAbsolute(decoded) || WINDOWS_DRIVE.test(decoded)))
    invalidValue(where, uri, "must be a relative path (absolute paths need --allow-outside)");
  const abs = resolve(gltfDir, decoded);
  if (!allowOutside && !isInside(baseDir, abs)) {
    invalidValue(
      where,
      uri,
      `leaves the folder ${baseDir} (glTF resources must be inside it; allow with --allow-outside)`,
    );
  }
  return abs;
}

/**
 * Refuses accessors (and sparse index/value blocks) that read past their buffer view, and
 * buffer views past their buffer's bytes: `@gltf-transform/core` silently truncates such
 * reads, which would give a mesh with fewer vertices than the file claims. Refuses a buffer
 * view's `byteStride` outside glTF's range (a multiple of 4 from 4 to 252), and one less than
 * the element size of an accessor read through it (`byteStride: 2` for a float VEC3 read each
 * vertex from the next one's bytes), naming `<field>:bufferViews[i].byteStride`.
 */
function checkAccessorBounds(json: Json, bufferBytes: readonly number[], field: string): void {
  const views = Array.isArray(json.bufferViews) ? json.bufferViews : [];
  const viewLength: number[] = [];
  const viewOffset: number[] = [];
  views.forEach((v, i) => {
    const where = `${field}:bufferViews[${i}]`;
    if (!isObject(v)) invalidValue(where, v, "must be an object");
    const b = gltfIndex(v, "buffer", where);
    const off = gltfIndex(v, "byteOffset", where, 0);
    const len = gltfIndex(v, "byteLength", where);
    if (b >= bufferBytes.length) invalidValue(`${where}.buffer`, b, "names no buffer");
    if (v.byteStride !== undefined) {
      // glTF 2.0 §5.11 (bufferView.byteStride): 4 to 252, a multiple of 4.
      const stride = gltfIndex(v, "byteStride", where);
      if (stride < 4 || stride > 252 || stride % 4 !== 0)
        invalidValue(
          `${where}.byteStride`,
          stride,
          "must be a multiple of 4 from 4 to 252 (glTF 2.0 bufferView.byteStride)",
        );
    }
    if (off + len > bufferBytes[b]) {
      invalidValue(
        where,
        `byteOffset ${off} + byteLength ${len}`,
        `runs past the end of buffers[${b}] (${bufferBytes[b]} bytes)`,
      );
    }
    viewLength.push(len);
    viewOffset.push(off);
  });
  const span = (
    where: string,
    viewIndex: number,
    offset: number,
    count: number,
    elementBytes: number,
    componentType: number,
  ) => {
    if (viewIndex >= viewLength.length)
      invalidValue(`${where}.bufferView`, viewIndex, "names no buffer view");
    // glTF 2.0 data alignment: an accessor's offset into its view, and into its buffer, are
    // multiples of its component's size (a float at byte 2 read the bytes of two floats).
    const comp = COMPONENT_BYTES[componentType];
    const of = `the size of ${where.slice(field.length + 1)}'s componentType ${componentType}`;
    if (offset % comp !== 0)
      invalidValue(`${where}.byteOffset`, offset, `must be a multiple of ${comp}, ${of}`);
    if ((viewOffset[viewIndex] + offset) % comp !== 0)
      invalidValue(
        `${field}:bufferViews[${viewIndex}].byteOffset`,
        viewOffset[viewIndex],
        `plus ${where.slice(field.length + 1)}.byteOffset (${offset}) must be a multiple of ${comp}, ${of}`,
      );
    if (count === 0) return;
    const vdef = views[viewIndex] as Json;
    const stride =
      vdef.byteStride === undefined ? elementBytes : gltfIndex(vdef, "byteStride", where);
    // A stride below the element's size overlaps consecutive elements: each vertex read from the
    // bytes of the next (the glTF validator's ACCESSOR_SMALL_BYTESTRIDE), garbage coordinates.
    if (stride < elementBytes)
      invalidValue(
        `${field}:bufferViews[${viewIndex}].byteStride`,
        stride,
        `is less than the size of an element of ${where.slice(field.length + 1)} (${elementBytes} bytes): its elements would overlap`,
      );
    const need = offset + (count - 1) * Math.max(stride, elementBytes) + elementBytes;
    if (need > viewLength[viewIndex]) {
      invalidValue(
        where,
        `count ${count}`,
        `needs ${need} bytes but bufferViews[${viewIndex}] has ${viewLength[viewIndex]}`,
      );
    }
  };
  const accessors = Array.isArray(json.accessors) ? json.accessors : [];
  accessors.forEach((a, i) => {
    const where = `${field}:accessors[${i}]`;
    if (!isObject(a)) invalidValue(where, a, "must be an object");
    const comp = COMPONENT_BYTES[a.componentType as number];
    const ncomp = TYPE_COMPONENTS[a.type as string];
    if (comp === undefined)
      invalidValue(`${where}.componentType`, a.componentType, "is not a glTF component type");
    if (ncomp === undefined) invalidValue(`${where}.type`, a.type, "is not a glTF accessor type");
    const count = gltfIndex(a, "count", where);
    // Without a buffer view the accessor is all zeros, allocated from `count` alone.
    if (a.bufferView === undefined && count * comp * ncomp > MAX_MESH_FILE_BYTES)
      invalidValue(`${where}.count`, count, `needs more than ${MAX_MESH_FILE_BYTES} bytes`);
    if (a.bufferView !== undefined)
      span(
        where,
        gltfIndex(a, "bufferView", where),
        gltfIndex(a, "byteOffset", where, 0),
        count,
        comp * ncomp,
        a.componentType as number,
      );
    if (a.sparse !== undefined) {
      const s = a.sparse;
      const sw = `${where}.sparse`;
      if (!isObject(s) || !isObject(s.indices) || !isObject(s.values))
        invalidValue(sw, s, "must have indices and values objects");
      const n = gltfIndex(s, "count", sw);
      if (n > count) invalidValue(`${sw}.count`, n, `is more than the accessor's count ${count}`);
      const ict = s.indices.componentType as number;
      if (!INDEX_COMPONENT_TYPES.includes(ict))
        invalidValue(`${sw}.indices.componentType`, ict, `${INDEX_COMPONENT_RULE} (indices)`);
      const ic = COMPONENT_BYTES[ict];
      span(
        `${sw}.indices`,
        gltfIndex(s.indices, "bufferView", `${sw}.indices`),
        gltfIndex(s.indices, "byteOffset", `${sw}.indices`, 0),
        n,
        ic,
        ict,
      );
      span(
        `${sw}.values`,
        gltfIndex(s.values, "bufferView", `${sw}.values`),
        gltfIndex(s.values, "byteOffset", `${sw}.values`, 0),
        n,
        comp * ncomp,
        a.componentType as number,
      );
    }
  });
}

/**
 * Refuses a `byteStride` on a buffer view read as tightly packed values — a primitive's index
 * accessor's, a sparse accessor's indices' or values' — which glTF 2.0 says must not define one
 * (bufferView.byteStride; accessor.sparse.indices/values.bufferView): a stride on a view of
 * indices had been accepted. Run before {@link checkAccessorBounds}, so that such a view is
 * refused for its stride and not for the bytes the stride would need. `invalid_value` naming
 * `<field>:bufferViews[j].byteStride` and the stride, the accessor in the message. A reference
 * that names no accessor or view is left to the later checks.
 */
function checkPackedViews(json: Json, field: string): void {
  const accessors = Array.isArray(json.accessors) ? json.accessors : [];
  const views = Array.isArray(json.bufferViews) ? json.bufferViews : [];
  const meshes = Array.isArray(json.meshes) ? json.meshes : [];
  meshes.forEach((mesh, m) => {
    const prims = isObject(mesh) && Array.isArray(mesh.primitives) ? mesh.primitives : [];
    prims.forEach((prim, p) => {
      const i = isObject(prim) ? prim.indices : undefined;
      const a = typeof i === "number" ? accessors[i] : undefined;
      if (!isObject(a)) return;
      const user = `accessors[${i}] (meshes[${m}].primitives[${p}].indices)`;
      noIndexStride(views, a.bufferView, user, field);
    });
  });
  accessors.forEach((a, i) => {
    const s = isObject(a) ? a.sparse : undefined;
    if (!isObject(s)) return;
    if (isObject(s.indices))
      noIndexStride(views, s.indices.bufferView, `accessors[${i}].sparse.indices`, field);
    if (isObject(s.values))
      noIndexStride(views, s.values.bufferView, `accessors[${i}].sparse.values`, field);
  });
}

/** The refusal of {@link checkPackedViews} for view `viewIndex` (when it defines a stride). */
function noIndexStride(views: readonly unknown[], viewIndex: unknown, user: string, field: string) {
  if (typeof viewIndex !== "number") return;
  const v = views[viewIndex];
  if (!isObject(v) || v.byteStride === undefined) return;
  invalidValue(
    `${field}:bufferViews[${viewIndex}].byteStride`,
    v.byteStride,
    `must not be defined: ${user} reads its view as tightly packed values (glTF 2.0: the buffer view of indices, and of a sparse accessor's indices and values, has no stride)`,
  );
}

/**
 * Refuses a primitive whose POSITION accessor is not VEC3 of FLOAT components (glTF 2.0
 * §3.7.2.1; other component types only with `KHR_mesh_quantization` in `extensionsUsed`):
 * `@gltf-transform/core` read a VEC2 accessor as (x, y, 0) pairs of the wrong vertices.
 * `invalid_value` naming `<field>:meshes[m].primitives[p].attributes.POSITION`.
 */
function checkPositionAccessors(json: Json, field: string): void {
  const accessors = Array.isArray(json.accessors) ? json.accessors : [];
  const meshes = Array.isArray(json.meshes) ? json.meshes : [];
  const used = Array.isArray(json.extensionsUsed) ? json.extensionsUsed : [];
  const quantized = used.includes("KHR_mesh_quantization");
  meshes.forEach((mesh, m) => {
    const prims = isObject(mesh) && Array.isArray(mesh.primitives) ? mesh.primitives : [];
    prims.forEach((prim, p) => {
      if (!isObject(prim) || !isObject(prim.attributes)) return;
      const i = prim.attributes.POSITION;
      if (i === undefined) return;
      const where = `${field}:meshes[${m}].primitives[${p}].attributes.POSITION`;
      const a = typeof i === "number" && Number.isInteger(i) ? accessors[i] : undefined;
      if (!isObject(a))
        invalidValue(where, i, `must name an accessor (0 to ${accessors.length - 1})`);
      if (a.type !== "VEC3")
        invalidValue(where, a.type, `must be a VEC3 accessor, but accessors[${i}] has type`);
      if (a.componentType !== 5126 && !quantized)
        invalidValue(
          where,
          a.componentType,
          `must have FLOAT (5126) components (others need the KHR_mesh_quantization extension), but accessors[${i}] has componentType`,
        );
    });
  });
}

/**
 * Refuses a primitive's indices that are not a SCALAR accessor of UNSIGNED_BYTE, UNSIGNED_SHORT
 * or UNSIGNED_INT components (glTF 2.0, meshes: a FLOAT index 1.5 or a BYTE index −1 names no
 * vertex, and a VEC3 accessor had been read as no triangle), and a triangle list (mode 4, the
 * default) whose indices — or, without indices, whose POSITION accessor's vertices — are not a
 * multiple of 3 in number (the trailing ones were dropped silently). `invalid_value` naming the
 * accessor's field, `<field>:accessors[i].componentType` (`.type`, `.count`), and its value,
 * the primitive named in the message. (A stride on the indices' view: {@link checkPackedViews};
 * the index values — none the primitive-restart value, each below the vertex count — are
 * checked as the triangles are read, `appendGltfMesh`.)
 */
function checkIndexAccessors(json: Json, field: string): void {
  const accessors = Array.isArray(json.accessors) ? json.accessors : [];
  const meshes = Array.isArray(json.meshes) ? json.meshes : [];
  meshes.forEach((mesh, m) => {
    const prims = isObject(mesh) && Array.isArray(mesh.primitives) ? mesh.primitives : [];
    prims.forEach((prim, p) => {
      if (!isObject(prim)) return;
      const name = `meshes[${m}].primitives[${p}]`;
      const i = prim.indices;
      const mode = prim.mode ?? GLTF_TRIANGLES;
      if (i !== undefined) {
        const a = typeof i === "number" && Number.isInteger(i) ? accessors[i] : undefined;
        if (!isObject(a))
          invalidValue(
            `${field}:${name}.indices`,
            i,
            `must name an accessor (0 to ${accessors.length - 1})`,
          );
        const at = `${field}:accessors[${i}]`;
        if (a.type !== "SCALAR")
          invalidValue(
            `${at}.type`,
            a.type,
            `must be SCALAR: ${name}.indices names it, and indices are scalars`,
          );
        if (!INDEX_COMPONENT_TYPES.includes(a.componentType as number))
          invalidValue(
            `${at}.componentType`,
            a.componentType,
            `${INDEX_COMPONENT_RULE}: ${name}.indices names it, and indices are unsigned integers`,
          );
        if (mode === GLTF_TRIANGLES && (a.count as number) % 3 !== 0)
          invalidValue(
            `${at}.count`,
            a.count,
            `must be a multiple of 3: ${name}, a triangle list (mode 4), takes its indices from it, three to a triangle`,
          );
        return;
      }
      const v = isObject(prim.attributes) ? prim.attributes.POSITION : undefined;
      const a = typeof v === "number" ? accessors[v] : undefined;
      if (mode === GLTF_TRIANGLES && isObject(a) && (a.count as number) % 3 !== 0)
        invalidValue(
          `${field}:accessors[${v}].count`,
          a.count,
          `must be a multiple of 3: ${name}, a triangle list (mode 4) without indices, takes its vertices from it, three to a triangle`,
        );
    });
  });
}

/**
 * Reads a glTF (JSON text or GLB bytes) into a `@gltf-transform/core` document, with every
 * external resource read by us under the folder rule of {@link MeshFileOptions} (`gltfDir` null:
 * bytes held in memory, no external resource allowed) and the accessor bounds checked.
 */
async function readGltfDocument(
  bytes: Uint8Array,
  path: string,
  field: string,
  gltfDir: string | null,
  options: MeshFileOptions,
): Promise<GltfRead> {
  const isGlb =
    bytes.byteLength >= 4 &&
    new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true) === GLB_MAGIC;
  // A .glb without the GLB header is refused as a GLB (not parsed as JSON text).
  const glb = isGlb || /\.glb$/i.test(path);
  const { json, bin, secondType }: Partial<GlbChunks> & { json: Json } = glb
    ? splitGlb(bytes, path, field)
    : { json: parseGltfJson(bytes, path, field) };
  const resources: Record<string, Uint8Array> = {};
  if (bin) resources[GLB_BUFFER] = bin;
  const baseDir = resolve(options.baseDir ?? gltfDir ?? ".");
  const allowOutside = options.allowOutside === true;
  let total = bytes.byteLength;
  const bufferBytes: number[] = [];
  for (const key of ["buffers", "images"] as const) {
    const list = json[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) invalidValue(`${field}:${key}`, list, "must be an array");
    list.forEach((res, i) => {
      const where = `${field}:${key}[${i}].uri`;
      if (!isObject(res)) invalidValue(`${field}:${key}[${i}]`, res, "must be an object");
      const uri = res.uri;
      let data: Uint8Array | undefined;
      if (uri === undefined) {
        if (key === "buffers") {
          if (i !== 0 || !glb)
            invalidValue(where, uri, "is missing (only a GLB's first buffer may omit it)");
          if (!bin) {
            // The file's fault, not the JSON's: buffers[0] without a uri is the GLB's BIN chunk.
            const why =
              secondType === undefined
                ? "the file has no second chunk"
                : `its second chunk has type ${chunkTypeName(secondType)}, not BIN (0x004E4942)`;
            throw new CollideError(
              "io_error",
              field,
              secondType ?? path,
              `cannot parse glTF ${path}: buffers[0] has no uri, so its bytes are the GLB's BIN chunk, but ${why} (glTF 2.0 GLB: the BIN chunk, when present, is the second)`,
            );
          }
          data = bin;
        }
      } else if (typeof uri !== "string") {
        invalidValue(where, uri, "must be a string");
      } else if (uri.startsWith("data:")) {
        data = decodeDataUri(uri, where);
        resources[uri] = data;
      } else {
        if (gltfDir === null)
          invalidValue(where, uri, "is an external file, which an in-memory GLB cannot name");
        const abs = resolveResourceUri(uri, where, gltfDir, baseDir, allowOutside);
        if (key === "images") {
          // Collision geometry needs no texture: the path is checked but the image is not read.
          resources[uri] = new Uint8Array(0);
        } else {
          if (!(uri in resources)) {
            resources[uri] = readRegularFile(
              abs,
              where,
              MAX_MESH_FILE_BYTES - total,
              "glTF buffer",
            );
            total += resources[uri].byteLength;
          }
          data = resources[uri];
        }
      }
      if (key === "buffers") {
        const declared = gltfIndex(res, "byteLength", `${field}:buffers[${i}]`);
        const have = data?.byteLength ?? 0;
        if (have < declared)
          invalidValue(
            `${field}:buffers[${i}].byteLength`,
            declared,
            `is more than the ${have} bytes of its data`,
          );
        bufferBytes.push(declared);
      }
    });
  }
  checkPackedViews(json, field);
  checkAccessorBounds(json, bufferBytes, field);
  checkPositionAccessors(json, field);
  checkIndexAccessors(json, field);
  const tree = readGltfNodes(json, field);
  try {
    const doc = await new NodeIO().readJSON({
      json: json as unknown as GLTF.IGLTF,
      resources: resources as Record<string, Uint8Array<ArrayBuffer>>,
    });
    return { doc, tree };
  } catch (e) {
    return ioError(field, path, e, "parse glTF");
  }
}

/** Mesh data of a document, refused when it holds no triangle at all (see the module doc). */
function gltfTriangles({ doc, tree }: GltfRead, path: string, field: string): MeshData {
  const { data, zeroScaled } = gltfToMeshData(doc, tree, path, field);
  if (data.indices.length === 0 && zeroScaled.length > 0) {
    const names = zeroScaled.map((i) => `nodes[${i}]`).join(", ");
    meshFileFault(
      field,
      "glTF",
      path,
      "",
      `has no triangles outside nodes of zero scale (${names}: a zero scale hides a node and its children); a mesh needs at least one triangle`,
    );
  }
  if (data.indices.length === 0) {
    const modes = new Set<number>();
    for (const mesh of doc.getRoot().listMeshes())
      for (const prim of mesh.listPrimitives()) modes.add(prim.getMode());
    const why =
      modes.size === 0
        ? "has no mesh primitives"
        : `has no triangles (primitive modes ${[...modes].sort().join(", ")}; only modes 4, 5 and 6 — triangles, strips, fans — are collision geometry)`;
    meshFileFault(field, "glTF", path, "", `${why}; a mesh needs at least one triangle`);
  }
  return data;
}

/** True when `bytes` hold nothing but JSON white space (an empty or failed export). */
function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  return true;
}

/** A glTF document of `bytes`, an empty file refused as an OBJ file's is. */
function readGltfBytes(
  bytes: Uint8Array,
  path: string,
  field: string,
  gltfDir: string | null,
  options: MeshFileOptions,
): Promise<GltfRead> {
  if (isBlank(bytes))
    meshFileFault(field, "glTF", path, "", "is empty; a mesh needs at least one triangle");
  return readGltfDocument(bytes, path, field, gltfDir, options);
}

/**
 * The error `e` of loading the file named by `field`, its message starting with the field as
 * every loader error's does (`a.file: cannot read mesh file …`); any other error as it is.
 */
function namedByField(e: unknown, field: string): unknown {
  if (!(e instanceof CollideError) || field === "" || e.message.startsWith(field)) return e;
  return new CollideError(e.code, e.field, e.value, `${field}: ${e.message}`);
}

/**
 * Reads a glTF 2.0 file (.gltf with its external or embedded buffers, or .glb) and returns its
 * triangles in world coordinates. The file and every external buffer must be a regular file
 * of at most {@link MAX_MESH_FILE_BYTES}; buffer and image URIs must stay inside
 * `options.baseDir` (see {@link MeshFileOptions}). Throws `CollideError`: `io_error` when a
 * file cannot be read or parsed, `invalid_value` (field `<field>:buffers[i].uri`, …) for a
 * refused URI, an accessor or buffer view past its data, an index accessor that is not SCALAR
 * unsigned integers, a triangle list's count not a multiple of 3, a misaligned accessor
 * (`<field>:accessors[i].componentType`, `.type`, `.count`, `.byteOffset`); `io_error` for a
 * GLB not laid out as glTF 2.0 says (header length, chunks, BIN chunk); `invalid_value` naming
 * `field` (the module doc's form) for an empty file, a file with no triangles (nodes of zero scale hide
 * theirs: see `readGltfNodes`), an index past its primitive's vertices or a vertex that is
 * not finite (in the file or under its node's matrix); `invalid_value` naming
 * `<field>:nodes[i]…` for a bad node (a sheared or projective `matrix`, …).
 */
export async function loadGltfFile(
  path: string,
  field = "file",
  options: MeshFileOptions = {},
): Promise<MeshData> {
  checkOptions(options, GLTF_SPEC);
  try {
    const bytes = readRegularFile(path, field, MAX_MESH_FILE_BYTES, "mesh file");
    const doc = await readGltfBytes(bytes, path, field, dirname(resolve(path)), options);
    return gltfTriangles(doc, path, field);
  } catch (e) {
    throw namedByField(e, field);
  }
}

/**
 * Parses a binary glTF (.glb) held in memory (no external resources allowed); throws
 * `CollideError` as {@link loadGltfFile} does.
 */
export async function parseGlb(bytes: Uint8Array, field = "file"): Promise<MeshData> {
  try {
    const doc = await readGltfBytes(bytes, "<glb bytes>", field, null, {});
    return gltfTriangles(doc, "<glb bytes>", field);
  } catch (e) {
    throw namedByField(e, field);
  }
}

/** The mesh file kinds by extension: "obj", "gltf" or null. */
export function meshFileKind(path: string): "obj" | "gltf" | null {
  const ext = extname(path).toLowerCase();
  if (ext === ".obj") return "obj";
  if (ext === ".gltf" || ext === ".glb") return "gltf";
  return null;
}

function checkKind(path: string, field: string): "obj" | "gltf" {
  if (path === "") invalidValue(field, path, "is empty: it must name an .obj, .gltf or .glb file");
  const kind = meshFileKind(path);
  if (!kind) invalidValue(field, path, "must name an .obj, .gltf or .glb file");
  return kind;
}

/**
 * Loads a mesh file synchronously: OBJ only (glTF's reader is asynchronous: use
 * {@link loadMeshFile}). Throws `CollideError`: `io_error` for an unreadable file or a glTF
 * file, `invalid_value` for a bad extension, an empty file, no triangle or a malformed OBJ line
 * (a bad index, a number that is not finite), in the module doc's form.
 */
export function loadMeshFileSync(path: string, field = "file"): MeshData {
  const kind = checkKind(path, field);
  if (kind !== "obj") {
    throw new CollideError(
      "io_error",
      field,
      path,
      `${field}: glTF file ${path} needs the asynchronous loader (loadMeshFile, loadSceneAsync, answerQueryLineAsync)`,
    );
  }
  try {
    return objTriangles(readMeshText(path, field), path, field);
  } catch (e) {
    throw namedByField(e, field);
  }
}

/**
 * Mesh data of OBJ text read from `path`, refused (`invalid_value` naming `field`, value the
 * path) when it holds no triangle: an empty or failed export must not pass an interference
 * check as "no contact". An error of a line (a bad index, a NaN) names `field` too, its message
 * prefixed `<field>: ` and keeping `<path>:<line>`, as the empty file's does.
 */
function objTriangles(text: string, path: string, field: string): MeshData {
  let data: MeshData;
  try {
    data = parseObj(text, path);
  } catch (e) {
    if (!(e instanceof CollideError)) throw e;
    // parseObj's message is `<path>:<line> <reason> (got <token>)`.
    throw new CollideError(e.code, field, e.value, `${field}: OBJ file ${e.message}`);
  }
  if (data.indices.length === 0) {
    const why =
      text.trim() === ""
        ? "is empty"
        : data.vertices.length === 0
          ? "has no vertices and no faces"
          : "has no faces (no `f` line with 3 or more vertices)";
    meshFileFault(field, "OBJ", path, "", `${why}; a mesh needs at least one triangle`);
  }
  return data;
}

/**
 * Loads an .obj, .gltf or .glb file into vertices and triangles (the file's frame and unit);
 * `options` says where a glTF file's external resources may be (see {@link MeshFileOptions}).
 * Throws (the promise rejects with) `CollideError` as {@link loadMeshFileSync} and
 * {@link loadGltfFile} do.
 */
export async function loadMeshFile(
  path: string,
  field = "file",
  options: MeshFileOptions = {},
): Promise<MeshData> {
  checkOptions(options, MESH_FILE_SPEC);
  const kind = checkKind(path, field);
  if (kind === "gltf") return loadGltfFile(path, field, options);
  try {
    return objTriangles(readMeshText(path, field), path, field);
  } catch (e) {
    throw namedByField(e, field);
  }
}

const FILE_KEYS = { baseDir: "string", allowOutside: "boolean" } as const;
const GLTF_SPEC = optionsSpec("loadGltfFile", "options", FILE_KEYS);
const MESH_FILE_SPEC = optionsSpec("loadMeshFile", "options", FILE_KEYS);
const TRANSFORM_SPEC = optionsSpec("transformMeshData", "options", { scale: "any", pose: "any" });
const MESH_DATA_SPEC = optionsSpec("meshFromData", "options", {
  scale: "any",
  pose: "any",
  activeEdgeCos: "number",
  indexPath: "string",
  solid: "boolean",
});

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
  checkOptions(options, TRANSFORM_SPEC);
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
  checkOptions(options, MESH_DATA_SPEC);
  const { scale, pose, ...meshOptions } = options;
  const t = scale !== undefined || pose ? transformMeshData(data, { scale, pose }) : data;
  return makeTriangleMesh(t.vertices, t.indices, field, meshOptions);
}

/** The Stanford bunny (npm package `bunny`, about 10 units tall) as mesh data (copied). */
export function bunnyMeshData(): MeshData {
  const b = loadBunny();
  return { vertices: Float64Array.from(b.positions), indices: Uint32Array.from(b.cells) };
}
