/**
 * Debug wireframes of shapes and bounding volumes, written into a {@link DebugDraw} in world
 * space: spheres as three great circles, capsules as two end rings, four side lines and two
 * half-circle arcs per cap, cylinders as two rings and four side lines, cones as the base ring
 * and four lines to the apex (all curves as line loops of `segments` pieces), boxes as their 12
 * edges, convex polyhedra as their hull edges, triangles as 3 edges, triangle meshes as each
 * shared edge once, half-spaces as a square patch of their plane with the outward normal,
 * compounds child by child. AABBs and OBBs are 12-edge boxes; contacts are their points and a
 * normal segment.
 */
import { withDefaults } from "../errors.js";
import type { Obb } from "../geometry/obb-fit.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { type ShapeView, shapeDef } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { DebugColors, type DebugDraw } from "./draw.js";

/** A heightfield drawing primitive. */
type HeightfieldView = Extract<ShapeView, { type: "heightfield" }>;

/** Options of {@link drawShape}. */
export interface ShapeDrawOptions {
  /** Line pieces per full circle of a curved shape (≥ 3). @default 32 */
  segments: number;
  /** Half side of the square drawn for a half-space, scene units. @default 5 */
  halfSpaceSize: number;
}

/** The default {@link ShapeDrawOptions}. */
export function defaultShapeDrawOptions(): ShapeDrawOptions {
  return { segments: 32, halfSpaceSize: 5 };
}

/** A shape the debug draw can show: any {@link Shape}, or a triangle mesh. */
export type DrawableShape = Shape | TriangleMesh;

const pa = vec3.create();
const pb = vec3.create();
const la = vec3.create();
const lb = vec3.create();
const axisU = vec3.create();
const axisV = vec3.create();
const axisD = vec3.create();

/** Segment between local points a and b, placed by `pose`. */
function localLine(dd: DebugDraw, pose: Isometry, a: Vec3, b: Vec3, color: number): void {
  iso.transformPoint(pa, pose, a);
  iso.transformPoint(pb, pose, b);
  dd.line(pa, pb, color);
}

/**
 * An arc of radius r around local centre c in the plane spanned by unit u and v, from angle t0
 * to t1 (radians) in n pieces, placed by `pose`.
 */
function arc(
  dd: DebugDraw,
  pose: Isometry,
  c: Vec3,
  u: Vec3,
  v: Vec3,
  r: number,
  t0: number,
  t1: number,
  n: number,
  color: number,
): void {
  for (let i = 0; i < n; i++) {
    const s0 = t0 + ((t1 - t0) * i) / n;
    const s1 = t0 + ((t1 - t0) * (i + 1)) / n;
    vec3.addScaled(la, c, u, r * Math.cos(s0));
    vec3.addScaled(la, la, v, r * Math.sin(s0));
    vec3.addScaled(lb, c, u, r * Math.cos(s1));
    vec3.addScaled(lb, lb, v, r * Math.sin(s1));
    localLine(dd, pose, la, lb, color);
  }
}

const ORIGIN: Vec3 = { x: 0, y: 0, z: 0 };
const UNIT_X: Vec3 = { x: 1, y: 0, z: 0 };
const UNIT_Y: Vec3 = { x: 0, y: 1, z: 0 };
const UNIT_Z: Vec3 = { x: 0, y: 0, z: 1 };
const corner = vec3.create();
const c0 = vec3.create();
const c1 = vec3.create();

/**
 * The 12 edges of the box with `center` and `halfExtents` along the axes of `rotation`, into
 * `dd` (world frame). Zero half extents are allowed (a flat or degenerate box).
 */
export function drawBox(
  dd: DebugDraw,
  center: Vec3,
  halfExtents: Vec3,
  rotation: Quat,
  color: number,
): DebugDraw {
  const pose: Isometry = { translation: center, rotation };
  for (let i = 0; i < 8; i++) {
    for (let axis = 0; axis < 3; axis++) {
      const bit = 1 << axis;
      if (i & bit) continue;
      boxCorner(c0, halfExtents, i);
      boxCorner(c1, halfExtents, i | bit);
      localLine(dd, pose, c0, c1, color);
    }
  }
  return dd;
}

/** out = corner i (bit 0: +x, bit 1: +y, bit 2: +z) of the box of half extents h. */
function boxCorner(out: Vec3, h: Vec3, i: number): Vec3 {
  return vec3.set(out, i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
}

const IDENTITY_ROTATION: Quat = { x: 0, y: 0, z: 0, w: 1 };
const boxCenter = vec3.create();
const boxHalf = vec3.create();

/**
 * The 12 edges of an axis-aligned box (world frame) into `dd`. Boxes with a non-finite bound
 * (a half-space's) are skipped: they cannot be drawn. Returns `dd`.
 */
export function drawAabb(dd: DebugDraw, box: Aabb, color: number = DebugColors.aabb): DebugDraw {
  if (!vec3.isFiniteVec(box.min) || !vec3.isFiniteVec(box.max)) return dd;
  vec3.lerp(boxCenter, box.min, box.max, 0.5);
  vec3.sub(boxHalf, box.max, boxCenter);
  return drawBox(dd, boxCenter, boxHalf, IDENTITY_ROTATION, color);
}

/** The 12 edges of an oriented bounding box (its frame is the world frame) into `dd`. */
export function drawObb(dd: DebugDraw, obb: Obb, color: number = DebugColors.obb): DebugDraw {
  return drawBox(dd, obb.center, obb.halfExtents, obb.rotation, color);
}

/** out = corner k (counter-clockwise) of the square of half side s around c in the (u, v) plane. */
function squareCorner(out: Vec3, c: Vec3, s: number, k: number): Vec3 {
  vec3.addScaled(out, c, axisU, k === 0 || k === 3 ? s : -s);
  return vec3.addScaled(out, out, axisV, k < 2 ? s : -s);
}

/**
 * The wireframe of `shape` placed at world `pose` into `dd` (see the module docs for what each
 * shape looks like). Returns `dd`.
 */
export function drawShape(
  dd: DebugDraw,
  shape: DrawableShape,
  pose: Isometry,
  color: number = DebugColors.shape,
  options: Partial<ShapeDrawOptions> = {},
): DebugDraw {
  const o = withDefaults(defaultShapeDrawOptions(), options);
  const n = Math.max(3, Math.floor(o.segments));
  const quarter = Math.max(1, Math.round(n / 4));
  const half = 2 * quarter;
  return drawView(dd, viewOf(shape), pose, color, o, n, quarter, half);
}

/** Views drawn before, per shape object (shapes are immutable; a mesh's view is O(triangles)). */
const views = new WeakMap<object, ShapeView>();

/** The definition's view of `shape`, made once per shape object. */
function viewOf(shape: DrawableShape): ShapeView {
  let v = views.get(shape);
  if (!v) {
    v = shapeDef(shape.type).view(shape);
    views.set(shape, v);
  }
  return v;
}

const viewA = vec3.create();
const viewB = vec3.create();
const _childPose = iso.identity();

/** The wireframe of one drawing primitive (src/shapes/shape-def.ts, `ShapeView`) at `pose`. */
function drawView(
  dd: DebugDraw,
  view: ShapeView,
  pose: Isometry,
  color: number,
  o: ShapeDrawOptions,
  n: number,
  quarter: number,
  half: number,
): DebugDraw {
  switch (view.type) {
    case "sphere": {
      const r = view.radius;
      arc(dd, pose, ORIGIN, UNIT_X, UNIT_Y, r, 0, 2 * Math.PI, n, color);
      arc(dd, pose, ORIGIN, UNIT_Y, UNIT_Z, r, 0, 2 * Math.PI, n, color);
      arc(dd, pose, ORIGIN, UNIT_Z, UNIT_X, r, 0, 2 * Math.PI, n, color);
      break;
    }
    case "box":
      vec3.set(viewA, view.halfExtents[0], view.halfExtents[1], view.halfExtents[2]);
      drawBox(dd, pose.translation, viewA, pose.rotation, color);
      break;
    case "capsule": {
      const r = view.radius;
      const a = vec3.set(viewA, view.a[0], view.a[1], view.a[2]);
      const b = vec3.set(viewB, view.b[0], view.b[1], view.b[2]);
      vec3.sub(axisD, b, a);
      if (vec3.normalize(axisD, axisD) === 0) vec3.set(axisD, 0, 1, 0);
      vec3.orthonormalBasis(axisU, axisV, axisD);
      for (const end of [a, b]) {
        arc(dd, pose, end, axisU, axisV, r, 0, 2 * Math.PI, n, color);
      }
      for (let k = 0; k < 4; k++) {
        const s = k & 1 ? -r : r;
        const dir = k < 2 ? axisU : axisV;
        vec3.addScaled(c0, a, dir, s);
        vec3.addScaled(c1, b, dir, s);
        localLine(dd, pose, c0, c1, color);
      }
      // Caps: half circles bulging past each end, in the (u, d) and (v, d) planes.
      vec3.negate(corner, axisD);
      for (const dir of [axisU, axisV]) {
        arc(dd, pose, b, dir, axisD, r, 0, Math.PI, half, color);
        arc(dd, pose, a, dir, corner, r, 0, Math.PI, half, color);
      }
      break;
    }
    case "cylinder": {
      const h = view.halfHeight;
      const r = view.radius;
      vec3.set(c0, 0, -h, 0);
      vec3.set(c1, 0, h, 0);
      arc(dd, pose, c0, UNIT_Z, UNIT_X, r, 0, 2 * Math.PI, n, color);
      arc(dd, pose, c1, UNIT_Z, UNIT_X, r, 0, 2 * Math.PI, n, color);
      for (let k = 0; k < 4; k++) {
        const a = (k * Math.PI) / 2;
        vec3.set(la, r * Math.cos(a), -h, r * Math.sin(a));
        vec3.set(lb, r * Math.cos(a), h, r * Math.sin(a));
        localLine(dd, pose, la, lb, color);
      }
      break;
    }
    case "cone": {
      const h = view.halfHeight;
      const r = view.radius;
      vec3.set(c0, 0, -h, 0);
      vec3.set(c1, 0, h, 0);
      arc(dd, pose, c0, UNIT_Z, UNIT_X, r, 0, 2 * Math.PI, n, color);
      for (let k = 0; k < 4; k++) {
        const a = (k * Math.PI) / 2;
        vec3.set(la, r * Math.cos(a), -h, r * Math.sin(a));
        localLine(dd, pose, la, c1, color);
      }
      break;
    }
    case "triangles":
      drawTriangles(dd, view.positions, view.indices, view.edges, pose, color);
      break;
    case "halfspace": {
      const nrm = vec3.set(viewA, view.normal[0], view.normal[1], view.normal[2]);
      const s = o.halfSpaceSize;
      vec3.scale(corner, nrm, view.offset);
      vec3.orthonormalBasis(axisU, axisV, nrm);
      for (let k = 0; k < 4; k++) {
        squareCorner(la, corner, s, k);
        squareCorner(lb, corner, s, (k + 1) % 4);
        localLine(dd, pose, la, lb, color);
      }
      vec3.addScaled(lb, corner, nrm, s / 2);
      localLine(dd, pose, corner, lb, color);
      break;
    }
    case "compound":
      for (const child of view.children) {
        const [x, y, z] = child.position;
        const [qx, qy, qz, qw] = child.rotation;
        const local = { translation: { x, y, z }, rotation: { x: qx, y: qy, z: qz, w: qw } };
        const p = iso.multiply(iso.identity(), pose, local);
        drawView(dd, child.shape, p, color, o, n, quarter, half);
      }
      break;
    case "heightfield":
      drawHeightfield(dd, view, pose, color);
      break;
  }
  return dd;
}

/**
 * Every edge of a heightfield's triangles once: per cell not a hole, its top (z = r·sz) and left
 * (x = c·sx) edges and its diagonal, plus its bottom and right edges where no cell below or to
 * the right draws them (the border, or a hole).
 */
function drawHeightfield(dd: DebugDraw, hf: HeightfieldView, pose: Isometry, color: number): void {
  const C = hf.cols - 1;
  const R = hf.rows - 1;
  const holes = hf.holes;
  const solid = (r: number, c: number): boolean => r < R && c < C && !holes?.[r * C + c];
  for (let r = 0; r < R; r++) {
    for (let c = 0; c < C; c++) {
      if (!solid(r, c)) continue;
      gridEdge(dd, hf, pose, color, r, c, r + 1, c + 1);
      gridEdge(dd, hf, pose, color, r, c, r, c + 1);
      gridEdge(dd, hf, pose, color, r, c, r + 1, c);
      if (!solid(r + 1, c)) gridEdge(dd, hf, pose, color, r + 1, c, r + 1, c + 1);
      if (!solid(r, c + 1)) gridEdge(dd, hf, pose, color, r, c + 1, r + 1, c + 1);
    }
  }
}

/** The line between heightfield vertices (r0, c0) and (r1, c1). */
function gridEdge(
  dd: DebugDraw,
  hf: HeightfieldView,
  pose: Isometry,
  color: number,
  r0: number,
  c0: number,
  r1: number,
  c1: number,
): void {
  const [sx, sy, sz] = hf.scale;
  const h = hf.heights;
  vec3.set(la, c0 * sx, h[r0 * hf.cols + c0] * sy, r0 * sz);
  vec3.set(lb, c1 * sx, h[r1 * hf.cols + c1] * sy, r1 * sz);
  localLine(dd, pose, la, lb, color);
}

/**
 * The edges of a triangles view: the pairs in `edges` when given (a hull's edges, a mesh's
 * edges once each), else every triangle's three edges.
 */
function drawTriangles(
  dd: DebugDraw,
  v: readonly number[],
  idx: readonly number[],
  edges: readonly number[] | undefined,
  pose: Isometry,
  color: number,
): void {
  const line = (a: number, b: number): void => {
    vec3.set(la, v[3 * a], v[3 * a + 1], v[3 * a + 2]);
    vec3.set(lb, v[3 * b], v[3 * b + 1], v[3 * b + 2]);
    localLine(dd, pose, la, lb, color);
  };
  if (edges) {
    for (let i = 0; i + 1 < edges.length; i += 2) line(edges[i], edges[i + 1]);
    return;
  }
  for (let t = 0; t + 2 < idx.length; t += 3) {
    line(idx[t], idx[t + 1]);
    line(idx[t + 1], idx[t + 2]);
    line(idx[t + 2], idx[t]);
  }
}

/** A contact to draw: its points on A and B (world frame) and its unit normal from A to B. */
export interface ContactToDraw {
  /** Unit normal from A toward B, world frame. */
  normal: Vec3;
  /** Contact points: witness on A and on B, world frame. */
  points: readonly { pointA: Vec3; pointB: Vec3 }[];
}

const mid = vec3.create();
const tip = vec3.create();
const unitN = vec3.create();

/**
 * A contact into `dd`: both witness points of each manifold point, and from their midpoint a
 * segment of length `normalLength` (scene units) along the unit normal (normalised again here;
 * a zero normal draws no segment). Returns `dd`.
 */
export function drawContact(
  dd: DebugDraw,
  contact: ContactToDraw,
  normalLength: number,
  pointColor: number = DebugColors.contactPoint,
  normalColor: number = DebugColors.contactNormal,
): DebugDraw {
  const hasNormal = vec3.normalize(unitN, contact.normal) > 0;
  for (const p of contact.points) {
    dd.point(p.pointA, pointColor);
    dd.point(p.pointB, pointColor);
    if (!hasNormal) continue;
    vec3.lerp(mid, p.pointA, p.pointB, 0.5);
    vec3.addScaled(tip, mid, unitN, normalLength);
    dd.line(mid, tip, normalColor);
  }
  return dd;
}

/** A small three-axis cross of half size `size` at `p` (world frame), for markers. */
export function drawCross(dd: DebugDraw, p: Vec3, size: number, color: number): DebugDraw {
  dd.segment(p.x - size, p.y, p.z, p.x + size, p.y, p.z, color);
  dd.segment(p.x, p.y - size, p.z, p.x, p.y + size, p.z, color);
  dd.segment(p.x, p.y, p.z - size, p.x, p.y, p.z + size, color);
  return dd;
}
