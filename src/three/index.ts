/**
 * `collide/three`: the bridge between three.js and Collide (three.js is an optional peer
 * dependency; nothing else in Collide imports it).
 *
 * - Shapes from a `BufferGeometry` or a `Mesh`: a triangle mesh (any soup, as it is) or the
 *   convex hull of its vertices (a convex polyhedron, for GJK/EPA and SAT).
 * - Poses from an `Object3D`: its world matrix as a translation plus a unit quaternion. Collide
 *   poses are rigid, so the rest of a mesh's world matrix — its scale, and a shear from a parent's
 *   non-uniform scale over a rotated child — is baked into the shape's vertices instead.
 * - The debug draw (src/debug) as `LineSegments` and `Points` with per-vertex colours, and the
 *   viewer's shape descriptions as meshes.
 *
 * Three.js uses Float32 attributes: coordinates go through single precision on the way in and
 * out, which is fine for display and for shapes authored in three.js.
 */
import * as THREE from "three";

export type { DebugDrawData } from "../debug/draw.js";
export type { ShapeView } from "../debug/shape-view.js";
export type {
  ViewBody,
  ViewFrame,
  ViewGjk,
  ViewGjkStep,
  ViewInfo,
  ViewPair,
} from "../debug/view-model.js";

import type { DebugDraw, DebugDrawData } from "../debug/draw.js";
import { type ShapeView, shapeView } from "../debug/shape-view.js";
import { describeValue, invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import { type ConvexPolyhedron, makeConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Shape } from "../shapes/shape.js";
import { makeTriangleMesh, type TriangleMesh } from "../shapes/triangle-mesh.js";

/** How to turn a geometry into a shape: its triangles as they are, or their convex hull. */
export type GeometryShapeKind = "mesh" | "hull";

/**
 * Packed xyz positions of `geometry`'s position attribute, each mapped by the linear map `k`
 * with its column j scaled by 2^exps[j] (row-major 3×3: x' = k[0]·x·2^e0 + k[1]·y·2^e1 +
 * k[2]·z·2^e2, …, each product formed before its power of two, so a map beyond the doubles'
 * range whose images are within it maps them exactly as an unscaled one; allocates). Throws `CollideError` naming
 * `geometry.attributes.position` when there is none, `….itemSize` when it is not 3 (an itemSize
 * of 2 read (x, y) pairs across vertices, the rest NaN), and `geometry.attributes.position[i]`
 * with the vertex's (x, y, z) when a coordinate is not finite, or its image under `k` (`by`
 * says what k is) is not: a NaN vertex had become NaN in every coordinate, a 0·NaN of the map.
 */
function readPositions(
  geometry: THREE.BufferGeometry,
  k: readonly number[],
  by: string,
  exps: readonly number[] = NO_EXPONENTS,
  deformed: THREE.Mesh | null = null,
): Float64Array {
  const pos = geometry.getAttribute("position");
  if (!pos) invalidValue("geometry.attributes.position", pos, "must exist");
  if (pos.itemSize !== 3)
    invalidValue(
      "geometry.attributes.position.itemSize",
      pos.itemSize,
      "must be 3: a position attribute gives each vertex's x, y and z",
    );
  const out = new Float64Array(3 * pos.count);
  for (let i = 0; i < pos.count; i++) {
    let x = pos.getX(i);
    let y = pos.getY(i);
    let z = pos.getZ(i);
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)))
      invalidValue(`geometry.attributes.position[${i}]`, [x, y, z], "must be 3 finite numbers");
    if (deformed !== null) {
      // Morph targets and skinning as three.js draws and picks them (Mesh.getVertexPosition).
      deformed.getVertexPosition(i, dv);
      if (!(Number.isFinite(dv.x) && Number.isFinite(dv.y) && Number.isFinite(dv.z)))
        invalidValue(
          `geometry.attributes.position[${i}]`,
          [x, y, z],
          `is deformed by the mesh's morph targets or skeleton to ${describeValue([dv.x, dv.y, dv.z])}, not 3 finite numbers`,
        );
      x = dv.x;
      y = dv.y;
      z = dv.z;
    }
    // Column j's products scaled by 2^exps[j] (exact, unless the image over- or underflows).
    const [e0, e1, e2] = exps;
    const a = scale2(k[0] * x, e0) + scale2(k[1] * y, e1) + scale2(k[2] * z, e2);
    const b = scale2(k[3] * x, e0) + scale2(k[4] * y, e1) + scale2(k[5] * z, e2);
    const c = scale2(k[6] * x, e0) + scale2(k[7] * y, e1) + scale2(k[8] * z, e2);
    if (!(Number.isFinite(a) && Number.isFinite(b) && Number.isFinite(c)))
      invalidValue(
        `geometry.attributes.position[${i}]`,
        [x, y, z],
        `overflows ${by}: it becomes ${describeValue([a, b, c])}`,
      );
    // A vertex off the origin mapped onto it: the world geometry is below the doubles' range.
    if (a === 0 && b === 0 && c === 0 && (x !== 0 || y !== 0 || z !== 0))
      invalidValue(
        `geometry.attributes.position[${i}]`,
        [x, y, z],
        `underflows ${by}: it becomes [0, 0, 0]`,
      );
    out[3 * i] = a;
    out[3 * i + 1] = b;
    out[3 * i + 2] = c;
  }
  return out;
}

const NO_EXPONENTS: readonly number[] = [0, 0, 0];
const dv = new THREE.Vector3();

/**
 * `mesh` when three.js draws its vertices moved — a `SkinnedMesh`, or morph targets with an
 * influence other than 0 — so they are read through `Mesh.getVertexPosition` (three.js r151+,
 * which the Raycaster uses too); null when the position attribute is what is drawn.
 */
function deformingMesh(mesh: THREE.Mesh): THREE.Mesh | null {
  const skinned = (mesh as { isSkinnedMesh?: boolean }).isSkinnedMesh === true;
  const morphs = mesh.geometry.morphAttributes?.position;
  const influences = mesh.morphTargetInfluences;
  const morphed =
    morphs !== undefined &&
    morphs.length > 0 &&
    Array.isArray(influences) &&
    influences.some((v, i) => v !== 0 && i < morphs.length);
  if (!skinned && !morphed) return null;
  if (typeof mesh.getVertexPosition !== "function")
    invalidValue(
      skinned ? "mesh" : "mesh.morphTargetInfluences",
      skinned ? "SkinnedMesh" : influences,
      "deforms the geometry, read through Mesh.getVertexPosition, which this three.js lacks (r151 or later needed)",
    );
  if (morphed)
    for (let i = 0; i < influences.length; i++)
      if (!Number.isFinite(influences[i]))
        invalidValue(`mesh.morphTargetInfluences[${i}]`, influences[i], "must be a finite number");
  return mesh;
}

/**
 * x·2^e for any integer e (`Math.pow` alone is 0 or Infinity past ±1023): in steps that move
 * toward the result, so every step is exact while the result is a normal double.
 */
function scale2(x: number, e: number): number {
  if (e === 0) return x;
  let y = x;
  let n = e;
  while (n > 1023) {
    y *= 2 ** 1023;
    n -= 1023;
  }
  while (n < -1022) {
    y *= 2 ** -1022;
    n += 1022;
  }
  return y * 2 ** n;
}

/** The exponent of a positive finite double m: the integer e with 2^e ≤ m < 2^(e+1). */
function exponentOf(m: number): number {
  let e = Math.floor(Math.log2(m));
  const r = scale2(m, -e);
  if (r >= 2) e++;
  else if (r < 1) e--;
  return e;
}

/**
 * An object's world matrix as three.js composes it (each object's local `matrix` under its
 * parent's world matrix, from the root down), held without overflow or underflow: the linear
 * part is `n` (column-major 3×3, each column's largest magnitude in [1, 2), or a zero column)
 * with column j scaled by 2^e[j], and the translation `t`. three.js's own product over- or
 * underflows where a chain of scales does (an ancestor of scale 1e200 under one of 1e200 gives
 * Infinity, then NaN, though the mesh under them has scale 1/1e400; two of 1e-170 give a
 * subnormal, then a zero column), and squaring a column of 1e200 or 1e-200 for its length — as
 * `Matrix4.decompose` does — does too (a pose rotated by π was read from scale 1e200, session 38);
 * the powers of two here are exact, so where three's matrices stay within the doubles' range the
 * products and the pose below are those three.js gives, to the bit.
 */
interface ScaledAffine {
  readonly n: Float64Array;
  readonly e: number[];
  readonly t: number[];
}

/** Scales column j of `a` (its entries n[3j..3j+2]) so that its largest magnitude is in [1, 2). */
function normaliseColumn(a: ScaledAffine, j: number): void {
  const n = a.n;
  const m = Math.max(Math.abs(n[3 * j]), Math.abs(n[3 * j + 1]), Math.abs(n[3 * j + 2]));
  if (!(m > 0) || !Number.isFinite(m)) return;
  const k = exponentOf(m);
  for (let i = 0; i < 3; i++) n[3 * j + i] = scale2(n[3 * j + i], -k);
  a.e[j] += k;
}

/** The {@link ScaledAffine} of a column-major 4×4 affine matrix's elements `m`. */
function affineOf(m: ArrayLike<number>): ScaledAffine {
  const a: ScaledAffine = {
    n: Float64Array.of(m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]),
    e: [0, 0, 0],
    t: [m[12], m[13], m[14]],
  };
  for (let j = 0; j < 3; j++) normaliseColumn(a, j);
  return a;
}

/**
 * `w` × the affine matrix `m` (column-major 4×4 elements), the product three.js's
 * `multiplyMatrices` forms (each entry Σ_k w[i][k]·m[k][j], summed in k's order), with the
 * powers of two kept apart: column j's terms w_n[i][k]·m_n[k][j] (both normalised) are scaled to
 * the largest term's exponent before the sum.
 */
function composeAffine(w: ScaledAffine, m: ArrayLike<number>): ScaledAffine {
  const l = affineOf(m);
  const out: ScaledAffine = { n: new Float64Array(9), e: [0, 0, 0], t: [0, 0, 0] };
  for (let j = 0; j < 3; j++) {
    let top = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < 3; k++) if (l.n[3 * j + k] !== 0) top = Math.max(top, w.e[k] + l.e[j]);
    if (top === Number.NEGATIVE_INFINITY) continue;
    for (let i = 0; i < 3; i++) {
      let sum = 0;
      for (let k = 0; k < 3; k++)
        sum += scale2(w.n[3 * k + i] * l.n[3 * j + k], w.e[k] + l.e[j] - top);
      out.n[3 * j + i] = sum;
    }
    out.e[j] = top;
    normaliseColumn(out, j);
  }
  for (let i = 0; i < 3; i++) {
    let sum = 0;
    for (let k = 0; k < 3; k++) sum += scale2(w.n[3 * k + i] * m[12 + k], w.e[k]);
    out.t[i] = sum + w.t[i];
  }
  return out;
}

/**
 * The {@link ScaledAffine} world matrix of `object` (its and its ancestors' matrices refreshed
 * first): from the nearest ancestor (or itself) that is a root or whose `matrixWorldAutoUpdate`
 * is off — whose `matrixWorld` three.js leaves as set — down through each local `matrix`; three's
 * own `matrixWorld` when one of those matrices is not affine (a last row set by hand).
 */
function worldAffine(object: THREE.Object3D): ScaledAffine {
  object.updateWorldMatrix(true, false);
  const chain: THREE.Object3D[] = [];
  let o: THREE.Object3D = object;
  while (o.parent !== null && o.matrixWorldAutoUpdate !== false) {
    chain.push(o);
    o = o.parent;
  }
  // A local matrix set by hand with a projective last row is not an affine map: three's product.
  for (const c of [...chain, o]) {
    const m = c.matrix.elements;
    if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1)
      return affineOf(object.matrixWorld.elements);
  }
  let w = affineOf(
    o.parent === null && o.matrixWorldAutoUpdate !== false
      ? o.matrix.elements
      : o.matrixWorld.elements,
  );
  for (let c = chain.length - 1; c >= 0; c--) w = composeAffine(w, chain[c].matrix.elements);
  return w;
}

/**
 * The row-major diagonal map of `scale`; throws `CollideError` naming `scale` when a component
 * is not finite or is 0 (a zero scale, as {@link shapeFromMesh} refuses one).
 */
function scaleMap(scale: THREE.Vector3): number[] {
  const s = [scale?.x, scale?.y, scale?.z];
  if (!s.every((v) => typeof v === "number" && Number.isFinite(v)))
    invalidValue("scale", s, "must be a THREE.Vector3 of finite numbers");
  if (s.includes(0))
    invalidValue(
      "scale",
      s,
      "has a zero component, as exporters hide an object: shapeFromMesh and the glTF loader make no shape of one, nor is one made here (a flat shape needs a scale that is not 0, however small)",
    );
  return [s[0], 0, 0, 0, s[1], 0, 0, 0, s[2]];
}

/**
 * Triangle corner indices of the triangles three.js draws and picks of `geometry` (its index
 * buffer, or 0..count−1 when non-indexed): those within `geometry.drawRange`, and, for a mesh
 * whose `material` is an array, within the groups whose material exists (as the renderer and
 * `Mesh.raycast` take them; an array material with no groups draws nothing). Whole triangles
 * only: a range's trailing partial triangle is ignored.
 */
function readIndices(geometry: THREE.BufferGeometry, material?: unknown): Uint32Array {
  const index = geometry.getIndex();
  const count = index ? index.count : geometry.getAttribute("position").count;
  const range = geometry.drawRange;
  // As three.js: the start clamped to 0, the end start + count from the unclamped start.
  const start = range?.start ?? 0;
  const r0 = Math.max(0, start);
  const r1 = Math.min(count, start + (range?.count ?? Number.POSITIVE_INFINITY));
  const spans: [number, number][] = [];
  if (Array.isArray(material)) {
    for (const g of geometry.groups)
      if (material[g.materialIndex ?? 0] !== undefined)
        spans.push([Math.max(g.start, r0), Math.min(g.start + g.count, r1)]);
  } else spans.push([r0, r1]);
  const out: number[] = [];
  for (const [a, b] of spans)
    for (let i = a; i + 2 < b; i += 3)
      for (let c = i; c < i + 3; c++) out.push(index ? index.getX(c) : c);
  return Uint32Array.from(out);
}

/** True when `readIndices` takes every triangle of `geometry` (no range or groups leave any out). */
function drawsAll(geometry: THREE.BufferGeometry, material?: unknown): boolean {
  if (Array.isArray(material)) return false;
  const index = geometry.getIndex();
  const count = index ? index.count : geometry.getAttribute("position").count;
  const range = geometry.drawRange;
  const start = range?.start ?? 0;
  return start <= 0 && start + (range?.count ?? Number.POSITIVE_INFINITY) >= count;
}

const UNIT_SCALE = new THREE.Vector3(1, 1, 1);

/**
 * A Collide shape from a three.js geometry, in the geometry's own frame (scene units as
 * authored) with each vertex's coordinates multiplied by `scale`: `"mesh"` → a triangle mesh over
 * the triangles three.js draws of it (indexed or not, within `geometry.drawRange`; a trailing
 * partial triangle is ignored); `"hull"` (default) → the convex hull of its vertices (of the
 * drawn triangles' corners when `drawRange` leaves some out), or, when they are coplanar (a `PlaneGeometry`, a `CircleGeometry`),
 * the flat convex polygon of them (`flat: true`, as `makeConvexPolyhedron` makes it). Throws
 * `CollideError` when `geometry` is no `THREE.BufferGeometry` (`geometry`), there is no position
 * attribute or its `itemSize` is not 3 (`geometry.attributes.position.itemSize`), a vertex's
 * coordinate is not finite or overflows times `scale` (`geometry.attributes.position[i]`, its
 * x, y, z), `scale` has a component that is 0 or not finite (`scale`: a zero scale is how
 * exporters hide an object, and {@link shapeFromMesh} and the glTF loader make no shape of one),
 * or (for a hull) the vertices are all coincident or collinear (fewer than 3 non-collinear).
 */
export function shapeFromGeometry(
  geometry: THREE.BufferGeometry,
  kind: "mesh",
  scale?: THREE.Vector3,
): TriangleMesh;
export function shapeFromGeometry(
  geometry: THREE.BufferGeometry,
  kind?: "hull",
  scale?: THREE.Vector3,
): ConvexPolyhedron;
export function shapeFromGeometry(
  geometry: THREE.BufferGeometry,
  kind: GeometryShapeKind,
  scale?: THREE.Vector3,
): TriangleMesh | ConvexPolyhedron;
export function shapeFromGeometry(
  geometry: THREE.BufferGeometry,
  kind: GeometryShapeKind = "hull",
  scale: THREE.Vector3 = UNIT_SCALE,
): TriangleMesh | ConvexPolyhedron {
  if ((geometry as { isBufferGeometry?: boolean } | null)?.isBufferGeometry !== true)
    invalidValue("geometry", geometry, "must be a THREE.BufferGeometry");
  const positions = readPositions(geometry, scaleMap(scale), "times scale");
  return shapeOfPositions(geometry, kind, positions);
}

/** {@link shapeFromGeometry} of positions already read (and mapped). */
function shapeOfPositions(
  geometry: THREE.BufferGeometry,
  kind: GeometryShapeKind,
  positions: Float64Array,
  material?: unknown,
): TriangleMesh | ConvexPolyhedron {
  if (kind === "mesh")
    return makeTriangleMesh(positions, readIndices(geometry, material), "geometry");
  if (kind !== "hull") invalidValue("kind", kind, 'must be "mesh" or "hull"');
  if (drawsAll(geometry, material))
    return makeConvexPolyhedron(positions, "geometry.attributes.position");
  // The hull of the drawn triangles' corners only.
  const corners = readIndices(geometry, material);
  const drawn = new Float64Array(3 * corners.length);
  for (let i = 0; i < corners.length; i++)
    for (let c = 0; c < 3; c++) drawn[3 * i + c] = positions[3 * corners[i] + c];
  return makeConvexPolyhedron(drawn, "geometry.attributes.position");
}

const m4 = new THREE.Matrix4();
const tv = new THREE.Vector3();
const tq = new THREE.Quaternion();

/**
 * The world pose of `object` (its `matrixWorld`, refreshed from its parents first) as a Collide
 * isometry: translation plus unit quaternion; any scale is dropped (see {@link shapeFromMesh}).
 * Writes `out` (allocated when omitted) and returns it. Throws `CollideError` when `object` is no
 * `THREE.Object3D` (`object`) or its world matrix gives a non-finite pose (`object.matrixWorld`).
 */
export function poseFromObject3D(object: THREE.Object3D, out?: Isometry): Isometry {
  if ((object as { isObject3D?: boolean } | null)?.isObject3D !== true)
    invalidValue("object", object, "must be a THREE.Object3D");
  return poseOfAffine(worldAffine(object), object, out);
}

/**
 * The pose of world matrix `w`: its translation, and the rotation `Matrix4.decompose` reads — the
 * columns made unit (the first negated when the determinant is negative), as a quaternion,
 * normalised — from the normalised columns, whose squares neither overflow nor underflow.
 */
function poseOfAffine(w: ScaledAffine, object: THREE.Object3D, out?: Isometry): Isometry {
  const n = w.n;
  const len = (j: number) => Math.sqrt(n[3 * j] ** 2 + n[3 * j + 1] ** 2 + n[3 * j + 2] ** 2);
  const det =
    n[0] * (n[4] * n[8] - n[5] * n[7]) -
    n[3] * (n[1] * n[8] - n[2] * n[7]) +
    n[6] * (n[1] * n[5] - n[2] * n[4]);
  const inv = [(det < 0 ? -1 : 1) / len(0), 1 / len(1), 1 / len(2)];
  const u = (j: number, i: number) => n[3 * j + i] * inv[j];
  m4.set(
    u(0, 0),
    u(1, 0),
    u(2, 0),
    0,
    u(0, 1),
    u(1, 1),
    u(2, 1),
    0,
    u(0, 2),
    u(1, 2),
    u(2, 2),
    0,
    0,
    0,
    0,
    1,
  );
  tq.setFromRotationMatrix(m4);
  tq.normalize();
  tv.set(w.t[0], w.t[1], w.t[2]);
  if (
    !Number.isFinite(tv.x) ||
    !Number.isFinite(tv.y) ||
    !Number.isFinite(tv.z) ||
    !Number.isFinite(tq.x) ||
    !Number.isFinite(tq.y) ||
    !Number.isFinite(tq.z) ||
    !Number.isFinite(tq.w)
  )
    invalidValue(
      "object.matrixWorld",
      Array.from(object.matrixWorld.elements),
      "must give a finite pose",
    );
  const pose = out ?? { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
  pose.translation.x = tv.x;
  pose.translation.y = tv.y;
  pose.translation.z = tv.z;
  pose.rotation.x = tq.x;
  pose.rotation.y = tq.y;
  pose.rotation.z = tq.z;
  pose.rotation.w = tq.w;
  return pose;
}

const rot = new THREE.Matrix4();

/**
 * A shape and world pose from a three.js mesh: the pose of {@link poseFromObject3D} (its world
 * matrix's translation and rotation) and the shape of its geometry (see
 * {@link shapeFromGeometry}) with the rest of the world matrix's linear part baked into the
 * vertices: each vertex v becomes Rᵀ·L·v, L the 3×3 part of `matrixWorld` and R the pose's
 * rotation, so the pose places it at L·v + t, where three.js draws it. For a rotation times a
 * scale that is the scale (a negative one mirrors the vertices, which flips a mesh's winding);
 * under a shear — a parent's non-uniform scale over a rotated child, which three.js draws as a
 * sheared box — the shear too: a triangle mesh and a convex hull map through any linear map to
 * the triangles and the hull of the mapped vertices, so the shape is three.js's world geometry
 * exactly (to rounding), as the glTF loader bakes a node's world matrix into its vertices. A
 * sheared shape deforms as its rotation changes, which no rigid pose follows: make the shape
 * again when the object's rotation or its parents' scale changes. A zero scale — a `scale` with
 * a 0, or a local matrix whose 3×3 part has a zero column, on the mesh or an ancestor — is how
 * exporters hide an object; the glTF loader skips such a node, and this refuses it, naming
 * `mesh.matrix`, `mesh.parent.matrix`, … (or `mesh.matrixWorld` when the world matrix has a zero
 * column all the same — its columns' powers of two are kept apart, `worldAffine`, so a chain of
 * tiny and huge scales does not underflow to one), rather than make a point or a flat shape of
 * it. The pose and the map are exact at any scale whose world geometry is within the doubles
 * (scales 1e±300 and chains s, s, 1/s, 1/s; test/three/extreme-scale.test.ts). Throws as
 * {@link shapeFromGeometry} (a vertex overflowing under `matrixWorld` named as there) and
 * {@link poseFromObject3D}, and when `mesh` is no `THREE.Mesh`. The triangles are those three.js
 * draws and its `Raycaster` picks: within `geometry.drawRange` and, for an array of materials,
 * the groups whose material exists; the vertices where it draws them: a `SkinnedMesh`'s skinned
 * and morph targets' weighted positions (`Mesh.getVertexPosition`, three.js r151+; make the shape
 * again when the bones or influences change). An `InstancedMesh` or `BatchedMesh` (many copies) is
 * refused naming `mesh`: make a shape per copy with {@link shapeFromGeometry}.
 */
export function shapeFromMesh(
  mesh: THREE.Mesh,
  kind: GeometryShapeKind = "hull",
): { shape: TriangleMesh | ConvexPolyhedron; pose: Isometry } {
  if ((mesh as { isMesh?: boolean } | null)?.isMesh !== true)
    invalidValue("mesh", mesh, "must be a THREE.Mesh");
  const many = mesh as { isInstancedMesh?: boolean; isBatchedMesh?: boolean };
  if (many.isInstancedMesh === true || many.isBatchedMesh === true)
    invalidValue(
      "mesh",
      many.isInstancedMesh === true ? "InstancedMesh" : "BatchedMesh",
      "draws many copies, one shape each: make one with shapeFromGeometry (per instance, its scale) and a body per copy at the pose of its matrix (mesh.matrixWorld × getMatrixAt(i))",
    );
  const w = worldAffine(mesh);
  const l = w.n;
  // The mesh's and each ancestor's local matrix (refreshed by worldAffine), as the glTF loader
  // checks each node's, then the world matrix (a zero column only by exact cancellation) — before
  // the pose, which a zero scale leaves without a rotation.
  let path = "mesh";
  for (let o: THREE.Object3D | null = mesh; o !== null; o = o.parent) {
    refuseZeroScale(`${path}.matrix`, o.matrix.elements);
    path += ".parent";
  }
  for (let j = 0; j < 3; j++)
    if (l[3 * j] === 0 && l[3 * j + 1] === 0 && l[3 * j + 2] === 0)
      refuseZeroScale("mesh.matrixWorld", mesh.matrixWorld.elements, j);
  const pose = poseOfAffine(w, mesh);
  const q = pose.rotation;
  rot.makeRotationFromQuaternion(tq.set(q.x, q.y, q.z, q.w));
  // Column-major: element [col·4 + row]; w.n is column-major 3×3, element [col·3 + row].
  const r = rot.elements;
  // k = Rᵀ·L with L = N·diag(2^e), row-major: k[3i + j] = Σ_m R[m][i]·N[m][j], column j
  // scaled by 2^e[j] as each vertex is mapped.
  const k: number[] = [];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++)
      k.push(r[4 * i] * l[3 * j] + r[4 * i + 1] * l[3 * j + 1] + r[4 * i + 2] * l[3 * j + 2]);
  if (kind !== "mesh" && kind !== "hull") invalidValue("kind", kind, 'must be "mesh" or "hull"');
  const positions = readPositions(
    mesh.geometry,
    k,
    "under mesh.matrixWorld",
    w.e,
    deformingMesh(mesh),
  );
  return { shape: shapeOfPositions(mesh.geometry, kind, positions, mesh.material), pose };
}

/**
 * Refuses (naming `field`, the matrix's elements as the value) a column-major 4×4 matrix whose
 * 3×3 part has a zero column: a zero scale, which is how exporters hide an object — the glTF
 * loader skips such a node and its subtree — and of which no shape is made (the vertices would
 * collapse to a point, or flatten, perhaps sheared by a rotation between two scales).
 */
function refuseZeroScale(field: string, m: ArrayLike<number>, column = -1): void {
  for (let j = 0; j < 3; j++)
    if (j === column || (m[4 * j] === 0 && m[4 * j + 1] === 0 && m[4 * j + 2] === 0))
      invalidValue(
        field,
        Array.from(m),
        `has a zero scale (column ${j} of its 3×3 part is zero), as exporters hide an object: the glTF loader skips such a node, and no shape is made of it here either (a flat shape needs a scale that is not 0, however small)`,
      );
}

function isDebugDraw(d: DebugDraw | DebugDrawData): d is DebugDraw {
  return typeof (d as DebugDraw).toData === "function";
}

function setColors(attr: Float32Array, colors: ArrayLike<number>, perItem: number): void {
  for (let i = 0; i < colors.length; i++) {
    const c = colors[i];
    const r = ((c >> 16) & 0xff) / 0xff;
    const g = ((c >> 8) & 0xff) / 0xff;
    const b = (c & 0xff) / 0xff;
    for (let k = 0; k < perItem; k++) {
      const o = 3 * (perItem * i + k);
      attr[o] = r;
      attr[o + 1] = g;
      attr[o + 2] = b;
    }
  }
}

/**
 * The segments of a debug draw as a three.js `LineSegments` with per-vertex colours (world
 * frame). Pass `target` to refill an existing object (its geometry is replaced in place).
 */
export function debugDrawToLineSegments(
  draw: DebugDraw | DebugDrawData,
  target?: THREE.LineSegments,
): THREE.LineSegments {
  const lines = isDebugDraw(draw) ? draw.linePositions : draw.lines;
  const colors = isDebugDraw(draw) ? draw.lineColors : draw.lineColors;
  const pos = Float32Array.from(lines);
  const col = new Float32Array(pos.length);
  setColors(col, colors, 2);
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.BufferAttribute(pos, 3));
  geometry.setAttribute("color", new THREE.BufferAttribute(col, 3));
  if (target) {
    target.geometry.dispose();
    target.geometry = geometry;
    return target;
  }
  return new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ vertexColors: true }));
}

/**
 * The points of a debug draw as a three.js `Points` with per-vertex colours, `size` pixels
 * wide (default 6). Pass `target` to refill an existing object.
 */
export function debugDrawToPoints(
  draw: DebugDraw | DebugDrawData,
  size = 6,
  target?: THREE.Points,
): THREE.Points {
  const pts = isDebugDraw(draw) ? draw.pointPositions : draw.points;
  const colors = isDebugDraw(draw) ? draw.pointColors : draw.pointColors;
  const pos = Float32Array.from(pts);
  const col = new Float32Array(pos.length);
  setColors(col, colors, 1);
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.BufferAttribute(pos, 3));
  geometry.setAttribute("color", new THREE.BufferAttribute(col, 3));
  if (target) {
    target.geometry.dispose();
    target.geometry = geometry;
    return target;
  }
  return new THREE.Points(
    geometry,
    new THREE.PointsMaterial({ size, sizeAttenuation: false, vertexColors: true }),
  );
}

/** Segments per full circle of the meshes built for curved shapes. */
const MESH_SEGMENTS = 32;
/** Half side of the square drawn for a half-space, scene units. */
const HALF_SPACE_SIZE = 5;

const UP = new THREE.Vector3(0, 1, 0);

/**
 * A three.js object for a shape description (src/debug/shape-view.ts), in the shape's local
 * frame, with `material`: a `Mesh`, or a `Group` when the surface sits off the local origin
 * (a capsule, a half-space) or is made of several (a compound). The caller places the returned
 * object by the body's pose ({@link applyPose}).
 */
export function shapeViewToObject3D(view: ShapeView, material: THREE.Material): THREE.Object3D {
  switch (view.type) {
    case "sphere":
      return new THREE.Mesh(
        new THREE.SphereGeometry(view.radius, MESH_SEGMENTS, MESH_SEGMENTS / 2),
        material,
      );
    case "box": {
      const [x, y, z] = view.halfExtents;
      return new THREE.Mesh(new THREE.BoxGeometry(2 * x, 2 * y, 2 * z), material);
    }
    case "capsule": {
      const a = new THREE.Vector3(...view.a);
      const b = new THREE.Vector3(...view.b);
      const axis = new THREE.Vector3().subVectors(b, a);
      const len = axis.length();
      const mesh = new THREE.Mesh(
        new THREE.CapsuleGeometry(view.radius, len, MESH_SEGMENTS / 4, MESH_SEGMENTS),
        material,
      );
      mesh.position.addVectors(a, b).multiplyScalar(0.5);
      if (len > 0) mesh.quaternion.setFromUnitVectors(UP, axis.divideScalar(len));
      return new THREE.Group().add(mesh);
    }
    case "cylinder":
      return new THREE.Mesh(
        new THREE.CylinderGeometry(view.radius, view.radius, 2 * view.halfHeight, MESH_SEGMENTS),
        material,
      );
    case "cone":
      return new THREE.Mesh(
        new THREE.ConeGeometry(view.radius, 2 * view.halfHeight, MESH_SEGMENTS),
        material,
      );
    case "triangles": {
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.BufferAttribute(Float32Array.from(view.positions), 3));
      g.setIndex(view.indices);
      g.computeVertexNormals();
      return new THREE.Mesh(g, material);
    }
    case "heightfield": {
      // The grid as one indexed geometry: vertex (r, c) at (c·sx, h·sy, r·sz), two triangles per
      // cell that is not a hole, split along (r, c)–(r+1, c+1), wound with +y normals.
      const { rows, cols, heights, scale, holes } = view;
      const positions = new Float32Array(3 * rows * cols);
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const v = r * cols + c;
          positions[3 * v] = c * scale[0];
          positions[3 * v + 1] = heights[v] * scale[1];
          positions[3 * v + 2] = r * scale[2];
        }
      }
      const indices: number[] = [];
      for (let r = 0; r + 1 < rows; r++) {
        for (let c = 0; c + 1 < cols; c++) {
          if (holes?.[r * (cols - 1) + c]) continue;
          const v00 = r * cols + c;
          indices.push(v00, v00 + cols, v00 + cols + 1, v00, v00 + cols + 1, v00 + 1);
        }
      }
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.BufferAttribute(positions, 3));
      g.setIndex(indices);
      g.computeVertexNormals();
      return new THREE.Mesh(g, material);
    }
    case "halfspace": {
      const n = new THREE.Vector3(...view.normal);
      const mesh = new THREE.Mesh(
        new THREE.PlaneGeometry(2 * HALF_SPACE_SIZE, 2 * HALF_SPACE_SIZE),
        material,
      );
      mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
      mesh.position.copy(n).multiplyScalar(view.offset);
      return new THREE.Group().add(mesh);
    }
    case "compound": {
      const group = new THREE.Group();
      for (const c of view.children) {
        const holder = new THREE.Group();
        holder.position.set(...c.position);
        holder.quaternion.set(...c.rotation);
        holder.add(shapeViewToObject3D(c.shape, material));
        group.add(holder);
      }
      return group;
    }
  }
}

/** A three.js object for a Collide shape (see {@link shapeViewToObject3D}); local frame. */
export function shapeToObject3D(
  shape: Shape | TriangleMesh,
  material: THREE.Material,
): THREE.Object3D {
  return shapeViewToObject3D(shapeView(shape), material);
}

/** Sets `object`'s position and quaternion from a Collide pose; returns `object`. */
export function applyPose(object: THREE.Object3D, pose: Isometry): THREE.Object3D {
  const t = pose.translation;
  const q = pose.rotation;
  object.position.set(t.x, t.y, t.z);
  object.quaternion.set(q.x, q.y, q.z, q.w);
  return object;
}
