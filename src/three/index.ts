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
 * (row-major 3×3: x' = k[0]·x + k[1]·y + k[2]·z, …; allocates). Throws `CollideError` naming
 * `geometry.attributes.position` when there is none, `….itemSize` when it is not 3 (an itemSize
 * of 2 read (x, y) pairs across vertices, the rest NaN), and `geometry.attributes.position[i]`
 * with the vertex's (x, y, z) when a coordinate is not finite, or its image under `k` (`by`
 * says what k is) is not: a NaN vertex had become NaN in every coordinate, a 0·NaN of the map.
 */
function readPositions(
  geometry: THREE.BufferGeometry,
  k: readonly number[],
  by: string,
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
    const x = pos.getX(i);
    const y = pos.getY(i);
    const z = pos.getZ(i);
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)))
      invalidValue(`geometry.attributes.position[${i}]`, [x, y, z], "must be 3 finite numbers");
    const a = k[0] * x + k[1] * y + k[2] * z;
    const b = k[3] * x + k[4] * y + k[5] * z;
    const c = k[6] * x + k[7] * y + k[8] * z;
    if (!(Number.isFinite(a) && Number.isFinite(b) && Number.isFinite(c)))
      invalidValue(
        `geometry.attributes.position[${i}]`,
        [x, y, z],
        `overflows ${by}: it becomes ${describeValue([a, b, c])}`,
      );
    out[3 * i] = a;
    out[3 * i + 1] = b;
    out[3 * i + 2] = c;
  }
  return out;
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

/** Triangle corner indices of `geometry`: its index buffer, or 0..count−1 when non-indexed. */
function readIndices(geometry: THREE.BufferGeometry): Uint32Array {
  const index = geometry.getIndex();
  const count = index ? index.count : geometry.getAttribute("position").count;
  const n = count - (count % 3);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = index ? index.getX(i) : i;
  return out;
}

const UNIT_SCALE = new THREE.Vector3(1, 1, 1);

/**
 * A Collide shape from a three.js geometry, in the geometry's own frame (scene units as
 * authored) with each vertex's coordinates multiplied by `scale`: `"mesh"` → a triangle mesh over
 * its triangles (indexed or not; a trailing partial triangle is ignored); `"hull"` (default) →
 * the convex hull of its vertices, or, when they are coplanar (a `PlaneGeometry`, a `CircleGeometry`),
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
): TriangleMesh | ConvexPolyhedron {
  if (kind === "mesh") return makeTriangleMesh(positions, readIndices(geometry), "geometry");
  if (kind !== "hull") invalidValue("kind", kind, 'must be "mesh" or "hull"');
  return makeConvexPolyhedron(positions, "geometry.attributes.position");
}

const m4 = new THREE.Matrix4();
const tv = new THREE.Vector3();
const tq = new THREE.Quaternion();
const ts = new THREE.Vector3();

/**
 * The world pose of `object` (its `matrixWorld`, refreshed from its parents first) as a Collide
 * isometry: translation plus unit quaternion; any scale is dropped (see {@link shapeFromMesh}).
 * Writes `out` (allocated when omitted) and returns it. Throws `CollideError` when `object` is no
 * `THREE.Object3D` (`object`) or its world matrix gives a non-finite pose (`object.matrixWorld`).
 */
export function poseFromObject3D(object: THREE.Object3D, out?: Isometry): Isometry {
  if ((object as { isObject3D?: boolean } | null)?.isObject3D !== true)
    invalidValue("object", object, "must be a THREE.Object3D");
  object.updateWorldMatrix(true, false);
  m4.copy(object.matrixWorld);
  m4.decompose(tv, tq, ts);
  tq.normalize();
  if (
    !Number.isFinite(tv.x) ||
    !Number.isFinite(tv.y) ||
    !Number.isFinite(tv.z) ||
    !Number.isFinite(tq.x) ||
    !Number.isFinite(tq.y) ||
    !Number.isFinite(tq.z) ||
    !Number.isFinite(tq.w)
  )
    invalidValue("object.matrixWorld", Array.from(m4.elements), "must give a finite pose");
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
 * `mesh.matrix`, `mesh.parent.matrix`, … (or `mesh.matrixWorld` when the product underflows to a
 * zero column), rather than make a point or a flat shape of it. Throws as
 * {@link shapeFromGeometry} (a vertex overflowing under `matrixWorld` named as there) and
 * {@link poseFromObject3D}, and when `mesh` is no `THREE.Mesh`.
 */
export function shapeFromMesh(
  mesh: THREE.Mesh,
  kind: GeometryShapeKind = "hull",
): { shape: TriangleMesh | ConvexPolyhedron; pose: Isometry } {
  if ((mesh as { isMesh?: boolean } | null)?.isMesh !== true)
    invalidValue("mesh", mesh, "must be a THREE.Mesh");
  const pose = poseFromObject3D(mesh);
  const q = pose.rotation;
  rot.makeRotationFromQuaternion(tq.set(q.x, q.y, q.z, q.w));
  // Column-major: element [col·4 + row].
  const r = rot.elements;
  const l = mesh.matrixWorld.elements;
  // The mesh's and each ancestor's local matrix (refreshed by poseFromObject3D), as the glTF
  // loader checks each node's, then the world matrix (a product may underflow to a zero column).
  let path = "mesh";
  for (let o: THREE.Object3D | null = mesh; o !== null; o = o.parent) {
    refuseZeroScale(`${path}.matrix`, o.matrix.elements);
    path += ".parent";
  }
  refuseZeroScale("mesh.matrixWorld", l);
  // k = Rᵀ·L, row-major: k[3i + j] = Σ_m R[m][i]·L[m][j].
  const k: number[] = [];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++)
      k.push(r[4 * i] * l[4 * j] + r[4 * i + 1] * l[4 * j + 1] + r[4 * i + 2] * l[4 * j + 2]);
  if (kind !== "mesh" && kind !== "hull") invalidValue("kind", kind, 'must be "mesh" or "hull"');
  const positions = readPositions(mesh.geometry, k, "under mesh.matrixWorld");
  return { shape: shapeOfPositions(mesh.geometry, kind, positions), pose };
}

/**
 * Refuses (naming `field`, the matrix's elements as the value) a column-major 4×4 matrix whose
 * 3×3 part has a zero column: a zero scale, which is how exporters hide an object — the glTF
 * loader skips such a node and its subtree — and of which no shape is made (the vertices would
 * collapse to a point, or flatten, perhaps sheared by a rotation between two scales).
 */
function refuseZeroScale(field: string, m: ArrayLike<number>): void {
  for (let j = 0; j < 3; j++)
    if (m[4 * j] === 0 && m[4 * j + 1] === 0 && m[4 * j + 2] === 0)
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
