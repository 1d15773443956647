/**
 * A heightfield: terrain as a regular grid of heights (Jolt's `HeightFieldShape`, parry's
 * `HeightField`, cannon-es's `Heightfield`), a surface like a triangle mesh but without vertex,
 * index or BVH arrays: 8 bytes per height plus a small min/max tree.
 *
 * Geometry (the JSON contract of docs/FORMATS.md): `rows` × `cols` heights, row-major; vertex
 * (r, c) is at (c·sx, heights[r·cols + c]·sy, r·sz) in the shape's frame. Cell (r, c) (r < rows −
 * 1, c < cols − 1) has corners v00 = (r, c), v01 = (r, c+1), v10 = (r+1, c), v11 = (r+1, c+1)
 * and is split along the diagonal v00–v11 into triangle 0 = (v00, v10, v11) and triangle 1 =
 * (v00, v11, v01), both wound so that their normals point up (+y). The triangles are the
 * composite's parts: part i = 2·cell + k, cell = r·(cols − 1) + c — the same index the triangle
 * mesh of the same terrain would give them (without holes). A cell may be a hole (no
 * triangles).
 *
 * Mid-phase: a min/max tree over blocks of `HEIGHTFIELD_BLOCK_CELLS`² cells (the lowest and
 * highest height of each block's vertices, then of each 2 × 2 of blocks, up to a root), so a
 * box query turns its x and z range into a range of cells directly and skips blocks whose
 * height range misses the box's (Jolt's heightfield "range blocks"). A ray walks the cells it
 * crosses in x–z with a 2D DDA (Amanatides & Woo 1987), block by block, skipping a block when
 * the ray's height over it misses the block's range.
 *
 * Internal edges: every shared edge is classified on the fly exactly as a triangle mesh's
 * active edges are (src/shapes/triangle-mesh.ts: convex and bent beyond `MESH_ACTIVE_EDGE_COS`,
 * or folded back, is active; coplanar or concave is inactive; the border and the edges along a
 * hole are active), so a box sliding over flat terrain gets the face normal across cell
 * diagonals and cell boundaries. The composite path reads these flags through the view's
 * `edgeFlags` (src/narrowphase/composite.ts).
 *
 * Every query reaches a heightfield through the one composite path (src/shapes/composite.ts's
 * view: `queryAabb` over the tree, `part(i)` writing a triangle, `edgeFlags`, `castRay`).
 */
import {
  HEIGHTFIELD_BLOCK_CELLS,
  HEIGHTFIELD_RAY_SKIP_TOLERANCE,
  MESH_ACTIVE_EDGE_COS,
  MESH_COORDINATE_LIMIT,
} from "../constants.js";
import { checkFieldArg, checkOptions, invalidValue, optionsSpec } from "../errors.js";
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import { pushMeshBvhHit } from "../geometry/mesh-bvh.js";
import { RAY_MISS, rayTriangle } from "../geometry/ray-primitives.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { unitScaleFactor } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { CompositeTree } from "./composite.js";
import { brandShape, isBrandedShape, SHAPE_TYPE_NAMES, ShapeType } from "./shape.js";
import { registerCompositeView, registerShape, type ShapeDef } from "./shape-def.js";
// Its parts are triangles: their definition loads with it.
import "./defs/triangle.js";
import { arrayOrder, numberOrder, vecOrder } from "./data-order.js";

/**
 * The min/max tree of a heightfield: level 0 holds one [min, max] pair of unscaled heights per
 * block of `blockCells` × `blockCells` cells; level k + 1 one pair per 2 × 2 nodes of level k; the
 * last level is a single root. An all-hole block holds [+∞, −∞].
 */
export interface HeightfieldTree {
  /** Cells per side of a level-0 block. */
  readonly blockCells: number;
  /** Number of levels (≥ 1). */
  readonly levels: number;
  /** Per level: nodes along the rows (z). */
  readonly levelRows: Int32Array;
  /** Per level: nodes along the columns (x). */
  readonly levelCols: Int32Array;
  /** Per level: the index of its first node in `bounds` (pairs). */
  readonly levelOffset: Int32Array;
  /** [min, max] of unscaled heights per node, levels one after the other. */
  readonly bounds: Float64Array;
}

/** A heightfield in its local frame (arrays are read-only by contract; see the module doc). */
export interface Heightfield {
  readonly type: typeof ShapeType.Heightfield;
  /** Number of rows of heights (≥ 2), along local z. */
  readonly rows: number;
  /** Number of columns of heights (≥ 2), along local x. */
  readonly cols: number;
  /** rows·cols unscaled heights, row-major (index r·cols + c). */
  readonly heights: Float64Array;
  /** Spacing of the columns (x), scale of the heights (y) and spacing of the rows (z), > 0. */
  readonly scale: Readonly<Vec3>;
  /** Bit set of the hole cells (bit `cell` of byte `cell >> 3`), or null when there are none. */
  readonly holes: Uint8Array | null;
  /** The min/max tree (the mid-phase). */
  readonly tree: HeightfieldTree;
}

/** What {@link makeHeightfield} takes. */
export interface HeightfieldDesc {
  /** Number of rows of heights (integer ≥ 2). */
  rows: number;
  /** Number of columns of heights (integer ≥ 2). */
  cols: number;
  /** rows·cols finite heights, row-major, multiplied by `scale.y`. */
  heights: ArrayLike<number>;
  /** Column spacing x, height scale y, row spacing z (finite, > 0; scene units). */
  scale: Vec3;
  /**
   * Optional: (rows − 1)·(cols − 1) flags, row-major by cell, each `true` or `1` (the cell is a
   * hole: no triangles) or `false` or `0` (solid); any other value (another number, a string,
   * null) is refused naming `holes[i]`. At least one cell must remain solid.
   */
  holes?: ArrayLike<boolean | number>;
}

/** Number of cells of `hf` ((rows − 1)·(cols − 1)). */
export function heightfieldCellCount(hf: Heightfield): number {
  return (hf.rows - 1) * (hf.cols - 1);
}

/** True when cell `cell` of `hf` is a hole. */
export function isHeightfieldHole(hf: Heightfield, cell: number): boolean {
  const h = hf.holes;
  return h !== null && (h[cell >> 3] & (1 << (cell & 7))) !== 0;
}

function checkCount(field: string, n: unknown): number {
  if (typeof n !== "number" || !Number.isInteger(n) || n < 2)
    invalidValue(field, n, "must be an integer ≥ 2");
  return n;
}

function checkScale(field: string, v: number): void {
  if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0))
    invalidValue(field, v, "must be a finite number > 0");
}

const HEIGHTFIELD_KEYS = {
  rows: "any",
  cols: "any",
  heights: "any",
  scale: "any",
  holes: "any",
} as const;
const HEIGHTFIELD_SPEC = optionsSpec("makeHeightfield", "heightfield", HEIGHTFIELD_KEYS);

/**
 * A heightfield (see the module doc) from `desc`; the heights and holes are copied, and the
 * min/max tree is built in one pass over the heights (linear time).
 *
 * Throws `CollideError` (`invalid_value`) naming the field under `field` and its value: `rows`
 * or `cols` not an integer ≥ 2; `heights` not an array of length rows·cols; a non-finite
 * `heights[i]`; `scale` not a vector, or `scale.x`/`scale.y`/`scale.z` not finite and > 0;
 * a vertex at a coordinate of magnitude `MESH_COORDINATE_LIMIT` (2^1023 ≈ 8.99e307) or more, the
 * limit of a mesh's vertices — a height times `scale.y` (naming `scale.y` when the height lies
 * within ±1, else `heights[i]`), or (cols − 1)·`scale.x`, (rows − 1)·`scale.z` (naming
 * `scale.x`, `scale.z`); `holes` not an array of length
 * (rows − 1)·(cols − 1) of flags (true, false, 1, 0), or a hole in every cell (the shape would
 * touch nothing: the error names `holes` and gives its flags).
 */
export function makeHeightfield(desc: HeightfieldDesc, field = ""): Heightfield {
  if (typeof field !== "string" && typeof desc === "number") {
    // makeHeightfield(3, 3, heights): positional arguments, not the one description object. The
    // second argument is then not a field name (a fresh user saw "3 must be an object").
    invalidValue(
      "heightfield",
      desc,
      "must be one object { rows, cols, heights, scale?, holes? }: makeHeightfield takes a description, not positional arguments",
    );
  }
  checkFieldArg(
    "makeHeightfield",
    field,
    "makeHeightfield takes one description { rows, cols, heights, scale?, holes? }",
  );
  const p = field ? `${field}.` : "";
  if (desc === null || typeof desc !== "object")
    invalidValue(
      field || "heightfield",
      desc,
      "must be an object { rows, cols, heights, scale?, holes? }",
    );
  checkOptions(
    desc,
    field ? optionsSpec("makeHeightfield", field, HEIGHTFIELD_KEYS) : HEIGHTFIELD_SPEC,
  );
  const rows = checkCount(`${p}rows`, desc.rows);
  const cols = checkCount(`${p}cols`, desc.cols);
  const src = desc.heights;
  if (src === null || typeof src !== "object" || typeof src.length !== "number")
    invalidValue(`${p}heights`, src, "must be an array of rows·cols numbers");
  if (src.length !== rows * cols)
    invalidValue(
      `${p}heights`,
      src.length,
      `must hold rows·cols = ${rows * cols} numbers (its length)`,
    );
  const heights = new Float64Array(rows * cols);
  if (src instanceof Float64Array) heights.set(src);
  else
    for (let i = 0; i < heights.length; i++)
      heights[i] = typeof src[i] === "number" ? src[i] : Number.NaN;
  for (let i = 0; i < heights.length; i++) {
    // x − x is 0 exactly for a finite x (NaN for NaN and ±∞).
    if (heights[i] - heights[i] !== 0)
      invalidValue(`${p}heights[${i}]`, src[i], "must be a finite number");
  }
  const s = desc.scale;
  if (s === null || typeof s !== "object")
    invalidValue(`${p}scale`, s, "must be a vector {x, y, z} of numbers > 0");
  checkScale(`${p}scale.x`, s.x);
  checkScale(`${p}scale.y`, s.y);
  checkScale(`${p}scale.z`, s.z);
  // Every vertex (c·scale.x, heights[i]·scale.y, r·scale.z) below MESH_COORDINATE_LIMIT in
  // magnitude, as a mesh's (makeTriangleMesh): the heightfield answers as the mesh of its
  // triangles, whose sums and differences of coordinates must stay finite.
  for (let i = 0; i < heights.length; i++) {
    const y = heights[i] * s.y;
    if (!(Math.abs(y) < MESH_COORDINATE_LIMIT)) {
      // A height within ±1 is carried beyond the limit by the scale: name the scale.
      const byScale = Math.abs(heights[i]) <= 1;
      invalidValue(
        byScale ? `${p}scale.y` : `${p}heights[${i}]`,
        byScale ? s.y : src[i],
        `${byScale ? `times heights[${i}] = ${heights[i]}` : `times scale.y = ${s.y}`} puts a vertex at y = ${y}, not below MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude (the limit of a mesh's vertices)`,
      );
    }
  }
  const extentX = (cols - 1) * s.x;
  if (!(extentX < MESH_COORDINATE_LIMIT))
    invalidValue(
      `${p}scale.x`,
      s.x,
      `times cols − 1 = ${cols - 1} puts the last column at x = ${extentX}, not below MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 (the limit of a mesh's vertices)`,
    );
  const extentZ = (rows - 1) * s.z;
  if (!(extentZ < MESH_COORDINATE_LIMIT))
    invalidValue(
      `${p}scale.z`,
      s.z,
      `times rows − 1 = ${rows - 1} puts the last row at z = ${extentZ}, not below MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 (the limit of a mesh's vertices)`,
    );
  const cells = (rows - 1) * (cols - 1);
  let holes: Uint8Array | null = null;
  if (desc.holes !== undefined) {
    const hs = desc.holes;
    if (hs === null || typeof hs !== "object" || typeof hs.length !== "number")
      invalidValue(`${p}holes`, hs, "must be an array of (rows − 1)·(cols − 1) flags");
    if (hs.length !== cells)
      invalidValue(
        `${p}holes`,
        hs.length,
        `must hold (rows − 1)·(cols − 1) = ${cells} flags (its length)`,
      );
    holes = new Uint8Array((cells + 7) >> 3);
    let solid = 0;
    for (let i = 0; i < cells; i++) {
      const h = hs[i];
      if (h !== 0 && h !== 1 && h !== true && h !== false)
        invalidValue(`${p}holes[${i}]`, h, "must be a flag: true, false, 1 or 0");
      if (h) holes[i >> 3] |= 1 << (i & 7);
      else solid++;
    }
    if (solid === 0)
      invalidValue(
        `${p}holes`,
        hs,
        `${cells === 1 ? "marks its only cell" : `marks every one of its ${cells} cells`} as a hole: at least one cell must be solid (a heightfield of holes touches nothing)`,
      );
  }
  const scale = { x: s.x, y: s.y, z: s.z };
  const tree = buildTree(heights, rows, cols, holes);
  return brandShape({ type: ShapeType.Heightfield, rows, cols, heights, scale, holes, tree });
}

/** Builds the min/max tree (see {@link HeightfieldTree}). */
function buildTree(
  heights: Float64Array,
  rows: number,
  cols: number,
  holes: Uint8Array | null,
): HeightfieldTree {
  const B = HEIGHTFIELD_BLOCK_CELLS;
  const cellRows = rows - 1;
  const cellCols = cols - 1;
  const lr: number[] = [];
  const lc: number[] = [];
  let nr = Math.ceil(cellRows / B);
  let nc = Math.ceil(cellCols / B);
  for (;;) {
    lr.push(nr);
    lc.push(nc);
    if (nr === 1 && nc === 1) break;
    nr = Math.ceil(nr / 2);
    nc = Math.ceil(nc / 2);
  }
  const levels = lr.length;
  const levelRows = Int32Array.from(lr);
  const levelCols = Int32Array.from(lc);
  const levelOffset = new Int32Array(levels);
  let total = 0;
  for (let k = 0; k < levels; k++) {
    levelOffset[k] = total;
    total += lr[k] * lc[k];
  }
  const bounds = new Float64Array(2 * total);
  for (let i = 0; i < total; i++) {
    bounds[2 * i] = Infinity;
    bounds[2 * i + 1] = -Infinity;
  }
  // Level 0: each block's vertices (rows and columns of its cells and one beyond); with holes,
  // only the corners of the cells that are not holes.
  const nc0 = lc[0];
  for (let br = 0; br < lr[0]; br++) {
    for (let bc = 0; bc < nc0; bc++) {
      const o = 2 * (br * nc0 + bc);
      let lo = Infinity;
      let hi = -Infinity;
      const r1 = Math.min(cellRows, (br + 1) * B);
      const c1 = Math.min(cellCols, (bc + 1) * B);
      for (let r = br * B; r < r1; r++) {
        for (let c = bc * B; c < c1; c++) {
          const cell = r * cellCols + c;
          if (holes !== null && (holes[cell >> 3] & (1 << (cell & 7))) !== 0) continue;
          const i = r * cols + c;
          const a = heights[i];
          const b = heights[i + 1];
          const d = heights[i + cols];
          const e = heights[i + cols + 1];
          const mn = Math.min(Math.min(a, b), Math.min(d, e));
          const mx = Math.max(Math.max(a, b), Math.max(d, e));
          if (mn < lo) lo = mn;
          if (mx > hi) hi = mx;
        }
      }
      bounds[o] = lo;
      bounds[o + 1] = hi;
    }
  }
  for (let k = 1; k < levels; k++) {
    const below = levelOffset[k - 1];
    for (let i = 0; i < lr[k - 1]; i++) {
      for (let j = 0; j < lc[k - 1]; j++) {
        const from = 2 * (below + i * lc[k - 1] + j);
        const to = 2 * (levelOffset[k] + (i >> 1) * lc[k] + (j >> 1));
        bounds[to] = Math.min(bounds[to], bounds[from]);
        bounds[to + 1] = Math.max(bounds[to + 1], bounds[from + 1]);
      }
    }
  }
  return { blockCells: B, levels, levelRows, levelCols, levelOffset, bounds };
}

/** Memory held by `hf`'s arrays (heights, holes, tree), in bytes. */
export function heightfieldByteLength(hf: Heightfield): number {
  const t = hf.tree;
  return (
    hf.heights.byteLength +
    (hf.holes ? hf.holes.byteLength : 0) +
    t.bounds.byteLength +
    t.levelRows.byteLength +
    t.levelCols.byteLength +
    t.levelOffset.byteLength
  );
}

/**
 * Writes the corners of part `i` (triangle k = i & 1 of cell i >> 1, see the module doc) of `hf`
 * into a, b, c (local frame). Holes are not checked.
 */
export function getHeightfieldTriangle(
  hf: Heightfield,
  i: number,
  a: Vec3,
  b: Vec3,
  c: Vec3,
): void {
  const cell = i >> 1;
  const cc = hf.cols - 1;
  const r = Math.floor(cell / cc);
  const col = cell - r * cc;
  const sx = hf.scale.x;
  const sy = hf.scale.y;
  const sz = hf.scale.z;
  const h = hf.heights;
  const v = r * hf.cols + col;
  const x0 = col * sx;
  const x1 = (col + 1) * sx;
  const z0 = r * sz;
  const z1 = (r + 1) * sz;
  vec3.set(a, x0, h[v] * sy, z0);
  if ((i & 1) === 0) {
    vec3.set(b, x0, h[v + hf.cols] * sy, z1);
    vec3.set(c, x1, h[v + hf.cols + 1] * sy, z1);
  } else {
    vec3.set(b, x1, h[v + hf.cols + 1] * sy, z1);
    vec3.set(c, x1, h[v + 1] * sy, z0);
  }
}

const ta = vec3.create();
const tb = vec3.create();
const tc = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const na = vec3.create();
const nb = vec3.create();
const ev = vec3.create();
const cr = vec3.create();

/** out = the unit normal ((b − a) × (c − a)) of part i; returns the doubled area (0: degenerate). */
function partNormal(out: Vec3, hf: Heightfield, i: number): number {
  getHeightfieldTriangle(hf, i, ta, tb, tc);
  vec3.sub(e1, tb, ta);
  vec3.sub(e2, tc, ta);
  // The direction only: a field of 2^600 (products of 2^1200) or 2^-300 has the unit field's
  // normals, so the same active edges (attack 38).
  vec3.crossDirection(out, e1, e2);
  return vec3.normalize(out, out);
}

/**
 * The part across edge e of part i (edge e runs from corner e to corner e + 1 of the triangle as
 * {@link getHeightfieldTriangle} writes it), or −1 on the border or along a hole.
 */
function neighborPart(hf: Heightfield, i: number, e: number): number {
  const cell = i >> 1;
  const cc = hf.cols - 1;
  const r = Math.floor(cell / cc);
  const c = cell - r * cc;
  let n = -1;
  if ((i & 1) === 0) {
    if (e === 0) n = c > 0 ? 2 * (cell - 1) + 1 : -1;
    else if (e === 1) n = r + 1 < hf.rows - 1 ? 2 * (cell + cc) + 1 : -1;
    else n = 2 * cell + 1;
  } else if (e === 0) n = 2 * cell;
  else if (e === 1) n = c + 1 < cc ? 2 * (cell + 1) : -1;
  else n = r > 0 ? 2 * (cell - cc) : -1;
  if (n >= 0 && isHeightfieldHole(hf, n >> 1)) return -1;
  return n;
}

/**
 * The active-edge bits of part i of `hf` (bit e set when edge e, corner e → corner e + 1, is
 * active), classified as a triangle mesh classifies its edges (src/shapes/triangle-mesh.ts) with
 * `MESH_ACTIVE_EDGE_COS`: border edges, edges along a hole and edges next to a degenerate
 * triangle are active; a shared edge is active when convex and bent beyond the threshold or
 * folded back on itself.
 */
export function heightfieldEdgeFlags(hf: Heightfield, i: number): number {
  let flags = 0;
  const la = partNormal(na, hf, i);
  for (let e = 0; e < 3; e++) {
    const n = neighborPart(hf, i, e);
    if (n < 0 || !(la > 0)) {
      flags |= 1 << e;
      continue;
    }
    if (!(partNormal(nb, hf, n) > 0)) {
      flags |= 1 << e;
      continue;
    }
    getHeightfieldTriangle(hf, i, ta, tb, tc);
    const p = e === 0 ? ta : e === 1 ? tb : tc;
    const q = e === 0 ? tb : e === 1 ? tc : ta;
    vec3.sub(ev, q, p);
    vec3.cross(cr, na, nb);
    const convexity = vec3.dot(cr, ev);
    const cos = vec3.dot(na, nb);
    if ((convexity > 0 && cos < MESH_ACTIVE_EDGE_COS) || cos <= -MESH_ACTIVE_EDGE_COS)
      flags |= 1 << e;
  }
  return flags;
}

/** Local bounds of `hf`: x in [0, (cols − 1)·sx], z in [0, (rows − 1)·sz], y from the tree root. */
function localBounds(hf: Heightfield, out: Float64Array): void {
  const t = hf.tree;
  const root = 2 * t.levelOffset[t.levels - 1];
  out[0] = 0;
  out[1] = t.bounds[root] * hf.scale.y;
  out[2] = 0;
  out[3] = (hf.cols - 1) * hf.scale.x;
  out[4] = t.bounds[root + 1] * hf.scale.y;
  out[5] = (hf.rows - 1) * hf.scale.z;
}

const lb = new Float64Array(6);
const corner = vec3.create();

/** out = the world AABB of `hf` at `pose` (exact without rotation, else the rotated local box's). */
export function aabbHeightfield(out: Aabb, hf: Heightfield, pose: Isometry): Aabb {
  localBounds(hf, lb);
  const t = pose.translation;
  if (quat.isIdentity(pose.rotation)) {
    vec3.set(out.min, lb[0] + t.x, lb[1] + t.y, lb[2] + t.z);
    vec3.set(out.max, lb[3] + t.x, lb[4] + t.y, lb[5] + t.z);
    return out;
  }
  vec3.set(out.min, Infinity, Infinity, Infinity);
  vec3.set(out.max, -Infinity, -Infinity, -Infinity);
  for (let k = 0; k < 8; k++) {
    vec3.set(corner, k & 1 ? lb[3] : lb[0], k & 2 ? lb[4] : lb[1], k & 4 ? lb[5] : lb[2]);
    quat.rotate(corner, pose.rotation, corner);
    vec3.add(corner, corner, t);
    vec3.min(out.min, out.min, corner);
    vec3.max(out.max, out.max, corner);
  }
  return out;
}

/** Largest distance from the local origin to a corner of the local bounds (an over-estimate). */
function boundingRadiusHeightfield(hf: Heightfield): number {
  localBounds(hf, lb);
  const x = Math.max(Math.abs(lb[0]), Math.abs(lb[3]));
  const y = Math.max(Math.abs(lb[1]), Math.abs(lb[4]));
  const z = Math.max(Math.abs(lb[2]), Math.abs(lb[5]));
  return Math.hypot(x, y, z);
}

/** The first index k in [0, n) whose slab [k·s, (k+1)·s] reaches `lo` (n when none). */
function firstSlab(lo: number, s: number, n: number): number {
  if (!(lo > 0)) return 0;
  let k = Math.min(n, Math.max(0, Math.floor(lo / s) - 1));
  while (k < n && (k + 1) * s < lo) k++;
  return k;
}

/** The last index k in [0, n) whose slab [k·s, (k+1)·s] starts at or before `hi` (−1 when none). */
function lastSlab(hi: number, s: number, n: number): number {
  if (!(hi >= 0)) return -1;
  if (hi === Infinity) return n - 1;
  let k = Math.min(n - 1, Math.floor(hi / s) + 1);
  while (k >= 0 && k * s > hi) k--;
  return k;
}

/** DFS stack of the box query: (level, row, col) triples. */
const nodeStack = new Int32Array(3 * 4 * 40);

/**
 * The view's box query: the parts whose triangles' boxes may overlap [min, max] (local frame):
 * the x and z ranges give the cells, the tree skips blocks whose scaled height range misses
 * [miny, maxy], and each remaining cell's triangles are tested by their corners' heights.
 */
export function queryHeightfieldAabb(
  out: MeshBvhHits,
  hf: Heightfield,
  minx: number,
  miny: number,
  minz: number,
  maxx: number,
  maxy: number,
  maxz: number,
): number {
  const box = argBox;
  box[0] = minx;
  box[1] = miny;
  box[2] = minz;
  box[3] = maxx;
  box[4] = maxy;
  box[5] = maxz;
  return queryHeightfieldBox(out, hf, box);
}

const argBox = new Float64Array(6);

/** {@link queryHeightfieldAabb} of the box `box` (min xyz, max xyz; the composite mid-phase's entry). */
function queryHeightfieldBox(out: MeshBvhHits, hf: Heightfield, box: Float64Array): number {
  const minx = box[0];
  const miny = box[1];
  const minz = box[2];
  const maxx = box[3];
  const maxy = box[4];
  const maxz = box[5];
  out.count = 0;
  const cellRows = hf.rows - 1;
  const cellCols = hf.cols - 1;
  const sx = hf.scale.x;
  const sy = hf.scale.y;
  const sz = hf.scale.z;
  if (!(miny <= maxy)) return 0;
  const c0 = firstSlab(minx, sx, cellCols);
  const c1 = lastSlab(maxx, sx, cellCols);
  const r0 = firstSlab(minz, sz, cellRows);
  const r1 = lastSlab(maxz, sz, cellRows);
  if (c0 > c1 || r0 > r1) return 0;
  const t = hf.tree;
  const B = t.blockCells;
  const bounds = t.bounds;
  const h = hf.heights;
  const cols = hf.cols;
  let top = 0;
  nodeStack[top++] = t.levels - 1;
  nodeStack[top++] = 0;
  nodeStack[top++] = 0;
  while (top > 0) {
    const j = nodeStack[--top];
    const i = nodeStack[--top];
    const k = nodeStack[--top];
    const span = B << k; // cells per side of a node of level k
    const nr0 = i * span;
    const nc0 = j * span;
    if (nr0 > r1 || nc0 > c1 || nr0 + span - 1 < r0 || nc0 + span - 1 < c0) continue;
    const o = 2 * (t.levelOffset[k] + i * t.levelCols[k] + j);
    if (bounds[o] * sy > maxy || bounds[o + 1] * sy < miny) continue;
    if (k > 0) {
      // Children in reverse so that they pop in row-major order.
      const rows = t.levelRows[k - 1];
      const colsK = t.levelCols[k - 1];
      for (let q = 3; q >= 0; q--) {
        const ci = 2 * i + (q >> 1);
        const cj = 2 * j + (q & 1);
        if (ci >= rows || cj >= colsK) continue;
        nodeStack[top++] = k - 1;
        nodeStack[top++] = ci;
        nodeStack[top++] = cj;
      }
      continue;
    }
    const ra = Math.max(r0, nr0);
    const rb = Math.min(r1, nr0 + span - 1);
    const ca = Math.max(c0, nc0);
    const cb = Math.min(c1, nc0 + span - 1);
    for (let r = ra; r <= rb; r++) {
      for (let c = ca; c <= cb; c++) {
        const cell = r * cellCols + c;
        if (isHeightfieldHole(hf, cell)) continue;
        const v = r * cols + c;
        const y00 = h[v] * sy;
        const y01 = h[v + 1] * sy;
        const y10 = h[v + cols] * sy;
        const y11 = h[v + cols + 1] * sy;
        const lo = Math.min(y00, y11);
        const hi = Math.max(y00, y11);
        if (Math.min(lo, y10) <= maxy && Math.max(hi, y10) >= miny) pushMeshBvhHit(out, 2 * cell);
        if (Math.min(lo, y01) <= maxy && Math.max(hi, y01) >= miny)
          pushMeshBvhHit(out, 2 * cell + 1);
      }
    }
  }
  return out.count;
}

// ---------------------------------------------------------------------------------------------
// Ray cast: a DDA over the blocks, and inside each block not skipped, a DDA over its cells.

const rn = vec3.create();
const rayO = vec3.create();
const rayD = vec3.create();

/** The state of one 2D DDA walk over a grid of w × h slabs (x by columns, z by rows). */
interface Dda {
  col: number;
  row: number;
  tEnter: number;
  tExit: number;
  nextX: number;
  nextZ: number;
}

const outer: Dda = { col: 0, row: 0, tEnter: 0, tExit: 0, nextX: 0, nextZ: 0 };
const inner: Dda = { col: 0, row: 0, tEnter: 0, tExit: 0, nextX: 0, nextZ: 0 };

/** Starts walk `s` at time `t` in the grid of w × h slabs, indices clamped to the given ranges. */
function ddaStart(
  s: Dda,
  t: number,
  w: number,
  h: number,
  c0: number,
  c1: number,
  r0: number,
  r1: number,
): void {
  const x = rayO.x + rayD.x * t;
  const z = rayO.z + rayD.z * t;
  s.col = Math.min(c1, Math.max(c0, Math.floor(x / w)));
  s.row = Math.min(r1, Math.max(r0, Math.floor(z / h)));
  s.tEnter = t;
  ddaBoundaries(s, w, h);
}

/** The times at which walk `s` leaves its current slab in x and in z. */
function ddaBoundaries(s: Dda, w: number, h: number): void {
  const dx = rayD.x;
  const dz = rayD.z;
  s.nextX =
    dx > 0 ? ((s.col + 1) * w - rayO.x) / dx : dx < 0 ? (s.col * w - rayO.x) / dx : Infinity;
  s.nextZ =
    dz > 0 ? ((s.row + 1) * h - rayO.z) / dz : dz < 0 ? (s.row * h - rayO.z) / dz : Infinity;
  s.tExit = Math.max(s.tEnter, Math.min(s.nextX, s.nextZ));
}

/** Steps walk `s` to its next slab (both axes on a tie: through a grid vertex). */
function ddaStep(s: Dda, w: number, h: number): void {
  const t = s.tExit;
  if (s.nextX <= s.nextZ) s.col += rayD.x > 0 ? 1 : -1;
  if (s.nextZ <= s.nextX) s.row += rayD.z > 0 ? 1 : -1;
  s.tEnter = t;
  ddaBoundaries(s, w, h);
}

let rayBest = RAY_MISS;
let rayBestPart = -1;
const bestN = vec3.create();

const cellO = vec3.create();
const cellD = vec3.create();

/** Largest magnitude of a ray cell's triangle and origin answered unscaled (2^128). */
const CELL_RANGE_MAX = 2 ** 128;
/** Smallest non-zero magnitude of a ray cell's triangle and origin answered unscaled (2^-128). */
const CELL_RANGE_MIN = 2 ** -128;

/**
 * The ray (rayO, rayD) against triangle (a, b, c), local frame, as `rayTriangle` (t in
 * multiples of rayD; the unit normal to `rn`): when the largest coordinate m of the corners and
 * the origin is outside [2^-128, 2^128], the corners, origin and direction are first multiplied
 * by the power of two that brings m near 1 (exact; t and the unit normal are the same in both
 * units), as a triangle mesh's part is (src/narrowphase/extreme-scale.ts). The exact test's
 * orientation filters and the normal's cross product multiply three and two coordinates: a
 * heightfield of scale 1e110 overflowed there (its ray from 1e110 above answered toi 0, one of
 * scale 1e200 or 1e-200 missed) where the mesh of its triangles answered 1e110 (attack 36).
 * Mutates a, b, c (the caller's scratch).
 */
function rayTriangleInUnits(a: Vec3, b: Vec3, c: Vec3): number {
  const m = Math.max(
    Math.abs(a.x),
    Math.abs(a.y),
    Math.abs(a.z),
    Math.abs(b.x),
    Math.abs(b.y),
    Math.abs(b.z),
    Math.abs(c.x),
    Math.abs(c.y),
    Math.abs(c.z),
    Math.abs(rayO.x),
    Math.abs(rayO.y),
    Math.abs(rayO.z),
  );
  if (!(m > CELL_RANGE_MAX || (m > 0 && m < CELL_RANGE_MIN)))
    return rayTriangle(rn, a, b, c, rayO, rayD);
  const k = unitScaleFactor(m);
  vec3.scale(a, a, k);
  vec3.scale(b, b, k);
  vec3.scale(c, c, k);
  vec3.scale(cellO, rayO, k);
  vec3.scale(cellD, rayD, k);
  return rayTriangle(rn, a, b, c, cellO, cellD);
}

/** Tests the two triangles of cell (r, c) against the ray, keeping the nearest hit ≤ maxToi. */
function rayCell(hf: Heightfield, r: number, c: number, maxToi: number): void {
  const cell = r * (hf.cols - 1) + c;
  if (isHeightfieldHole(hf, cell)) return;
  for (let k = 0; k < 2; k++) {
    const i = 2 * cell + k;
    getHeightfieldTriangle(hf, i, ta, tb, tc);
    const t = rayTriangleInUnits(ta, tb, tc);
    // A ray in the triangle's plane misses it (as on a triangle mesh, src/narrowphase/mesh-ray.ts).
    if (!(t >= 0) || t > maxToi) continue;
    if (rayBest >= 0 && (t > rayBest || (t === rayBest && i > rayBestPart))) continue;
    rayBest = t;
    rayBestPart = i;
    vec3.copy(bestN, rn);
  }
}

/** True when the ray's height over [t0, t1] may reach the block's scaled range [lo, hi]. */
function rayMayReach(t0: number, t1: number, lo: number, hi: number): boolean {
  if (!(lo <= hi)) return false; // all holes
  const y0 = rayO.y + rayD.y * t0;
  const y1 = rayO.y + rayD.y * t1;
  const ylo = Math.min(y0, y1);
  const yhi = Math.max(y0, y1);
  const tol =
    HEIGHTFIELD_RAY_SKIP_TOLERANCE *
    (Math.abs(ylo) + Math.abs(yhi) + Math.abs(lo) + Math.abs(hi) + Math.abs(rayO.y));
  return ylo <= hi + tol && yhi >= lo - tol;
}

// The x and z ranges of the ray over a span [t0, t1], grown by a rounding margin (spanAt).
let spanX0 = 0;
let spanX1 = 0;
let spanZ0 = 0;
let spanZ1 = 0;

/** Sets spanX0..spanZ1 to the ray's x and z ranges over [t0, t1], grown by a rounding margin. */
function spanAt(t0: number, t1: number): void {
  const dx = rayD.x;
  const dz = rayD.z;
  // A zero component keeps its coordinate (Infinity · 0 would be NaN).
  const xa = dx === 0 ? rayO.x : rayO.x + dx * t0;
  const xb = dx === 0 ? rayO.x : rayO.x + dx * t1;
  const za = dz === 0 ? rayO.z : rayO.z + dz * t0;
  const zb = dz === 0 ? rayO.z : rayO.z + dz * t1;
  const mx = HEIGHTFIELD_RAY_SKIP_TOLERANCE * (Math.abs(xa) + Math.abs(xb));
  const mz = HEIGHTFIELD_RAY_SKIP_TOLERANCE * (Math.abs(za) + Math.abs(zb));
  spanX0 = Math.min(xa, xb) - mx;
  spanX1 = Math.max(xa, xb) + mx;
  spanZ0 = Math.min(za, zb) - mz;
  spanZ1 = Math.max(za, zb) + mz;
}

/** k − 1 when slab k − 1 (slabs of width s; k − 1 ≥ lo) touches a range starting at `a`, else k. */
function nearLo(k: number, lo: number, a: number, s: number): number {
  return k > lo && a <= k * s ? k - 1 : k;
}

/** k + 1 when slab k + 1 (slabs of width s; k + 1 ≤ hi) touches a range ending at `b`, else k. */
function nearHi(k: number, hi: number, b: number, s: number): number {
  return k < hi && b >= (k + 1) * s ? k + 1 : k;
}

/**
 * Walks the cells of level-0 block (br, bc) over the ray span [bt0, bt1] with a DDA; at each
 * cell it also tests the neighbours whose closed boxes the ray's span over that cell touches, so
 * a ray running exactly along a cell boundary line (or through a grid vertex) tests every cell
 * sharing it, as a triangle mesh of the same triangles would.
 */
function rayBlock(
  hf: Heightfield,
  br: number,
  bc: number,
  bt0: number,
  bt1: number,
  maxToi: number,
): void {
  const B = hf.tree.blockCells;
  const sx = hf.scale.x;
  const sz = hf.scale.z;
  const ca = bc * B;
  const cb = Math.min(hf.cols - 2, ca + B - 1);
  const ra = br * B;
  const rb = Math.min(hf.rows - 2, ra + B - 1);
  ddaStart(inner, bt0, sx, sz, ca, cb, ra, rb);
  for (;;) {
    if (rayBest >= 0 && inner.tEnter > rayBest) break;
    const te = Math.min(inner.tExit, bt1);
    spanAt(inner.tEnter, te);
    const r0 = nearLo(inner.row, ra, spanZ0, sz);
    const r1 = nearHi(inner.row, rb, spanZ1, sz);
    const c0 = nearLo(inner.col, ca, spanX0, sx);
    const c1 = nearHi(inner.col, cb, spanX1, sx);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) rayCell(hf, r, c, maxToi);
    if (inner.tExit >= bt1) break;
    ddaStep(inner, sx, sz);
    if (inner.col < ca || inner.col > cb || inner.row < ra || inner.row > rb) break;
  }
}

/**
 * The nearest hit of the ray o + t·d (local frame, t ∈ [0, maxToi] in multiples of d) on `hf`:
 * returns t and writes the unit face normal on the side facing the ray's origin to `outNormal`,
 * or returns `RAY_MISS`. The exact ray–triangle test (`rayTriangleHit`, watertight); a ray lying in a
 * triangle's plane misses it, as on a triangle mesh. The cells are walked in the order the ray
 * crosses them (a 2D DDA, Amanatides & Woo 1987, first over the tree's blocks, skipping a block
 * that the ray passes above or below, then over the block's cells), and the walk stops after the
 * first cell with a hit once the next cell starts beyond it. At each step the blocks and cells
 * whose closed boxes the ray's span touches (within rounding) are tested too, so a ray running
 * along a cell or block boundary line, or through a grid vertex, meets every cell sharing it,
 * as the same triangles as a mesh would (issue 17). Allocates nothing.
 */
export function castRayHeightfield(
  outNormal: Vec3,
  hf: Heightfield,
  o: Vec3,
  d: Vec3,
  maxToi: number,
): number {
  if (!(maxToi >= 0)) return RAY_MISS;
  vec3.copy(rayO, o);
  vec3.copy(rayD, d);
  const sx = hf.scale.x;
  const sz = hf.scale.z;
  const cellCols = hf.cols - 1;
  const cellRows = hf.rows - 1;
  // Clip to the footprint [0, W] × [0, D] in x–z, grown by a rounding margin so that a ray
  // grazing the border is left to the watertight triangle test (as on a triangle mesh).
  let t0 = 0;
  let t1 = maxToi;
  const W = cellCols * sx;
  const D = cellRows * sz;
  const m = HEIGHTFIELD_RAY_SKIP_TOLERANCE * (W + D + Math.abs(o.x) + Math.abs(o.z));
  if (d.x !== 0) {
    const a = (-m - o.x) / d.x;
    const b = (W + m - o.x) / d.x;
    t0 = Math.max(t0, Math.min(a, b));
    t1 = Math.min(t1, Math.max(a, b));
  } else if (!(o.x >= -m && o.x <= W + m)) return RAY_MISS;
  if (d.z !== 0) {
    const a = (-m - o.z) / d.z;
    const b = (D + m - o.z) / d.z;
    t0 = Math.max(t0, Math.min(a, b));
    t1 = Math.min(t1, Math.max(a, b));
  } else if (!(o.z >= -m && o.z <= D + m)) return RAY_MISS;
  if (!(t0 <= t1)) return RAY_MISS;
  rayBest = RAY_MISS;
  rayBestPart = -1;
  const t = hf.tree;
  const B = t.blockCells;
  const bw = B * sx;
  const bh = B * sz;
  const sy = hf.scale.y;
  const bounds = t.bounds;
  const nbc = t.levelCols[0];
  const nbr = t.levelRows[0];
  ddaStart(outer, t0, bw, bh, 0, nbc - 1, 0, nbr - 1);
  for (;;) {
    const bt0 = outer.tEnter;
    const bt1 = Math.min(outer.tExit, t1);
    if (rayBest >= 0 && bt0 > rayBest) break;
    // The ray may run along a block boundary (or pass through a block corner): walk every
    // block whose closed box its span touches, not just the one the DDA stands in.
    spanAt(bt0, bt1);
    const br0 = nearLo(outer.row, 0, spanZ0, bh);
    const br1 = nearHi(outer.row, nbr - 1, spanZ1, bh);
    const bc0 = nearLo(outer.col, 0, spanX0, bw);
    const bc1 = nearHi(outer.col, nbc - 1, spanX1, bw);
    for (let br = br0; br <= br1; br++)
      for (let bc = bc0; bc <= bc1; bc++) {
        const ob = 2 * (br * nbc + bc);
        if (rayMayReach(bt0, bt1, bounds[ob] * sy, bounds[ob + 1] * sy))
          rayBlock(hf, br, bc, bt0, bt1, maxToi);
      }
    if (outer.tExit >= t1) break;
    ddaStep(outer, bw, bh);
    if (outer.col < 0 || outer.col >= nbc || outer.row < 0 || outer.row >= nbr) break;
  }
  if (rayBest < 0) return RAY_MISS;
  vec3.copy(outNormal, bestN);
  return rayBest;
}

/**
 * The triangles of `hf` as packed arrays (its vertices, rows·cols xyz in the local frame, and 3
 * indices per triangle in part order, holes left out): for drawing, or to build the same terrain
 * as a triangle mesh. Allocates.
 */
export function heightfieldGeometry(hf: Heightfield): {
  vertices: Float64Array;
  indices: Uint32Array;
} {
  const R = hf.rows;
  const C = hf.cols;
  const vertices = new Float64Array(3 * R * C);
  for (let r = 0; r < R; r++) {
    for (let c = 0; c < C; c++) {
      const v = r * C + c;
      vertices[3 * v] = c * hf.scale.x;
      vertices[3 * v + 1] = hf.heights[v] * hf.scale.y;
      vertices[3 * v + 2] = r * hf.scale.z;
    }
  }
  const cells = heightfieldCellCount(hf);
  let solid = 0;
  for (let cell = 0; cell < cells; cell++) if (!isHeightfieldHole(hf, cell)) solid++;
  const indices = new Uint32Array(6 * solid);
  let o = 0;
  for (let r = 0; r < R - 1; r++) {
    for (let c = 0; c < C - 1; c++) {
      if (isHeightfieldHole(hf, r * (C - 1) + c)) continue;
      const v00 = r * C + c;
      const v01 = v00 + 1;
      const v10 = v00 + C;
      const v11 = v10 + 1;
      indices.set([v00, v10, v11, v00, v11, v01], o);
      o += 6;
    }
  }
  return { vertices, indices };
}

/** The hole flags of `hf`, one per cell (1 = hole), row-major by cell. */
export function heightfieldHoleFlags(hf: Heightfield): number[] {
  const n = heightfieldCellCount(hf);
  const out: number[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = isHeightfieldHole(hf, i) ? 1 : 0;
  return out;
}

const heightfieldDef: ShapeDef<Heightfield> = {
  type: ShapeType.Heightfield,
  name: SHAPE_TYPE_NAMES[ShapeType.Heightfield],
  supportMapped: false,
  composite: true,
  polytope: null,
  revolution: null,
  unbounded: false,
  pointFeature: false,
  aabb: aabbHeightfield,
  boundingRadius: boundingRadiusHeightfield,
  writeMagnitude: (out) => {
    out[0] = -1;
  },
  scaled: null,
  coreSupport: null,
  margin: () => 0,
  feature: null,
  edgeFeature: null,
  // A composite: the ray cast is the view's cell walk, the projection the composite path's.
  rayCast: null,
  projectPoint: null,
  dataOrder: (a, b) =>
    numberOrder(a.rows, b.rows) ||
    numberOrder(a.cols, b.cols) ||
    arrayOrder(a.heights, b.heights) ||
    vecOrder(a.scale, b.scale),
  check: (field, s) => {
    // A heightfield carries its min/max tree, which only makeHeightfield builds consistently.
    if (!isBrandedShape(s)) {
      invalidValue(field, "a hand-built heightfield", "must be built by makeHeightfield");
    }
  },
  // Validated by its constructor (which alone builds one, see check) and frozen.
  isFinite: () => true,
  view: (s) => ({
    type: "heightfield",
    rows: s.rows,
    cols: s.cols,
    heights: Array.from(s.heights),
    scale: [s.scale.x, s.scale.y, s.scale.z],
    ...(s.holes ? { holes: heightfieldHoleFlags(s) } : {}),
  }),
  json: {
    name: "heightfield",
    schema: (z) =>
      z.strictObject({
        type: z.literal("heightfield"),
        rows: z.number(),
        cols: z.number(),
        heights: z.array(z.number()),
        scale: z.tuple([z.number(), z.number(), z.number()]),
        holes: z.array(z.number()).optional(),
      }),
    toJson: (s) => ({
      type: "heightfield",
      rows: s.rows,
      cols: s.cols,
      heights: Array.from(s.heights),
      scale: [s.scale.x, s.scale.y, s.scale.z],
      ...(s.holes ? { holes: heightfieldHoleFlags(s) } : {}),
    }),
    fromJson: (j, field) => {
      const sc = j.scale as number[];
      return makeHeightfield(
        {
          rows: j.rows as number,
          cols: j.cols as number,
          heights: Float64Array.from(j.heights as number[]),
          scale: { x: sc[0], y: sc[1], z: sc[2] },
          ...(j.holes ? { holes: j.holes as number[] } : {}),
        },
        field,
      );
    },
  },
};

// ---------------------------------------------------------------------------------------------
// The composite path's tree: the min/max tree, refined below its blocks down to single cells
// ---------------------------------------------------------------------------------------------

/**
 * Node ids of the heightfield's {@link CompositeTree}: `index · 16 + (k + V)`, with V = log2 of the
 * block side and k the level — k ≥ 0 the min/max tree's levels (a node of level k spans
 * `blockCells · 2^k` cells a side), k < 0 the refinements of a block down to single cells (k = −V,
 * the leaves: a cell and its two triangles), `index` = row · (nodes a row) + column. A field too
 * large for the code (more than 2^27 cells, or more than 16 levels in all) has no tree: the
 * composite path then grows a search box instead.
 */
const NODE_CODE = 16;
const BLOCK_LEVELS_BELOW = Math.round(Math.log2(HEIGHTFIELD_BLOCK_CELLS));

function nodeSpan(k: number): number {
  return k >= 0 ? HEIGHTFIELD_BLOCK_CELLS << k : HEIGHTFIELD_BLOCK_CELLS >> -k;
}

/** Nodes a row (along x) at level k. */
function nodeCols(hf: Heightfield, k: number): number {
  return k >= 0 ? hf.tree.levelCols[k] : Math.ceil((hf.cols - 1) / nodeSpan(k));
}

/** Nodes a column (along z) at level k. */
function nodeRows(hf: Heightfield, k: number): number {
  return k >= 0 ? hf.tree.levelRows[k] : Math.ceil((hf.rows - 1) / nodeSpan(k));
}

function treeRoot(hf: Heightfield): number {
  const code = hf.tree.levels - 1 + BLOCK_LEVELS_BELOW;
  if (code >= NODE_CODE || heightfieldCellCount(hf) >= 2 ** 27) return -1;
  return code;
}

/** The scaled [min, max] of the heights of the cells in rows [r0, r1) and columns [c0, c1) that are not holes, into box[1] and box[4]. */
function cellRangeHeights(
  box: Float64Array,
  hf: Heightfield,
  r0: number,
  r1: number,
  c0: number,
  c1: number,
): void {
  const cols = hf.cols;
  const cellCols = cols - 1;
  const h = hf.heights;
  let lo = Infinity;
  let hi = -Infinity;
  for (let r = r0; r < r1; r++) {
    for (let c = c0; c < c1; c++) {
      if (isHeightfieldHole(hf, r * cellCols + c)) continue;
      const v = r * cols + c;
      lo = Math.min(lo, h[v], h[v + 1], h[v + cols], h[v + cols + 1]);
      hi = Math.max(hi, h[v], h[v + 1], h[v + cols], h[v + cols + 1]);
    }
  }
  box[1] = lo * hf.scale.y;
  box[4] = hi * hf.scale.y;
}

const heightfieldTree: CompositeTree = {
  root: (s) => treeRoot(s as Heightfield),
  isLeaf: (_s, node) => (node & (NODE_CODE - 1)) === 0,
  children: (out, s, node) => {
    const hf = s as Heightfield;
    const k = (node & (NODE_CODE - 1)) - BLOCK_LEVELS_BELOW;
    const index = node >> 4;
    const cols = nodeCols(hf, k);
    const i = Math.floor(index / cols);
    const j = index - i * cols;
    const ck = k - 1;
    const rowsC = nodeRows(hf, ck);
    const colsC = nodeCols(hf, ck);
    const t = hf.tree;
    let n = 0;
    for (let q = 0; q < 4; q++) {
      const ci = 2 * i + (q >> 1);
      const cj = 2 * j + (q & 1);
      if (ci >= rowsC || cj >= colsC) continue;
      const ci2 = ci * colsC + cj;
      // A block of holes only has no parts.
      if (ck >= 0) {
        const o = 2 * (t.levelOffset[ck] + ci2);
        if (!(t.bounds[o] <= t.bounds[o + 1])) continue;
      }
      out[n++] = ci2 * NODE_CODE + ck + BLOCK_LEVELS_BELOW;
    }
    return n;
  },
  box: (out, s, node) => {
    const hf = s as Heightfield;
    const k = (node & (NODE_CODE - 1)) - BLOCK_LEVELS_BELOW;
    const index = node >> 4;
    const cols = nodeCols(hf, k);
    const i = Math.floor(index / cols);
    const j = index - i * cols;
    const span = nodeSpan(k);
    const r0 = i * span;
    const c0 = j * span;
    const r1 = Math.min(r0 + span, hf.rows - 1);
    const c1 = Math.min(c0 + span, hf.cols - 1);
    out[0] = c0 * hf.scale.x;
    out[2] = r0 * hf.scale.z;
    out[3] = c1 * hf.scale.x;
    out[5] = r1 * hf.scale.z;
    if (k >= 0) {
      const t = hf.tree;
      const o = 2 * (t.levelOffset[k] + index);
      out[1] = t.bounds[o] * hf.scale.y;
      out[4] = t.bounds[o + 1] * hf.scale.y;
    } else cellRangeHeights(out, hf, r0, r1, c0, c1);
  },
  leafParts: (out, s, node) => {
    const hf = s as Heightfield;
    out.count = 0;
    const cell = node >> 4;
    // A leaf's index is its cell's (a row of leaves is a row of cells).
    if (!isHeightfieldHole(hf, cell)) {
      pushMeshBvhHit(out, 2 * cell);
      pushMeshBvhHit(out, 2 * cell + 1);
    }
    return out.count;
  },
};

registerCompositeView(ShapeType.Heightfield, {
  flatTree: true,
  partCount: (s) => 2 * heightfieldCellCount(s as Heightfield),
  queryAabb: (out, s, minx, miny, minz, maxx, maxy, maxz) =>
    queryHeightfieldAabb(out, s as Heightfield, minx, miny, minz, maxx, maxy, maxz),
  queryBox: (out, s, box) => queryHeightfieldBox(out, s as Heightfield, box),
  part: (slot, s, i) => {
    const t = slot.triangle;
    getHeightfieldTriangle(s as Heightfield, i, t.a, t.b, t.c);
    slot.shape = t;
    slot.hasPose = false;
  },
  edgeFlags: (s, i) => heightfieldEdgeFlags(s as Heightfield, i),
  tree: heightfieldTree,
  castRay: (outNormal, s, o, d, maxToi) =>
    castRayHeightfield(outNormal, s as Heightfield, o, d, maxToi),
});
// After its composite view, so that the pair table's defaults see a composite type.
registerShape(heightfieldDef);

/** The heightfield's type id (importing this module registers its definition and view). */
export const HEIGHTFIELD_SHAPE_TYPE = ShapeType.Heightfield;
