/**
 * A scene as plain JSON for the viewer's page (`collide view` serves it once, as
 * `api/scene`): every body's shape by its defining numbers — a mesh as its vertex and index
 * arrays, a hull as its vertices — with its pose, layer and mask; or, for the demo, the model's
 * arrays and the demo's options. The page's Web Worker rebuilds the shapes with the `make…`
 * constructors ({@link shapeFromTransfer}) and runs the world itself, so nothing here touches
 * the file system: mesh files are read by the server (src/io) and arrive as arrays.
 */
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import { makeCapsule } from "../shapes/capsule.js";
import { makeCompound } from "../shapes/compound.js";
import { makeCone } from "../shapes/cone.js";
import { makeConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import { makeCuboid } from "../shapes/cuboid.js";
import { makeCylinder } from "../shapes/cylinder.js";
import { makeHalfSpace } from "../shapes/half-space.js";
import { makeHeightfield } from "../shapes/heightfield.js";
import { makeRoundedConvexPolyhedron, makeRoundedCuboid } from "../shapes/rounded.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { makeSphere } from "../shapes/sphere.js";
import { makeTriangle } from "../shapes/triangle.js";
import { makeTriangleMesh, type TriangleMesh } from "../shapes/triangle-mesh.js";
import { heightfieldHoleFlags } from "./shape-view.js";

type V3 = [number, number, number];

/** A shape by its defining numbers, local frame, scene units. */
export type ShapeTransfer =
  | { type: "sphere"; radius: number }
  | { type: "cuboid"; halfExtents: V3 }
  | { type: "capsule"; a: V3; b: V3; radius: number }
  | { type: "cylinder"; halfHeight: number; radius: number }
  | { type: "cone"; halfHeight: number; radius: number }
  /** A convex polyhedron by its hull's vertices, packed xyz. */
  | { type: "convex"; vertices: number[] }
  | { type: "triangle"; a: V3; b: V3; c: V3 }
  /** A triangle mesh: packed xyz vertices and vertex index triples. */
  | { type: "mesh"; vertices: number[]; indices: number[]; solid?: boolean }
  | { type: "halfspace"; normal: V3; offset: number }
  /** A heightfield: rows·cols heights, row-major, the scale and the hole flags (1 per cell). */
  | {
      type: "heightfield";
      rows: number;
      cols: number;
      heights: number[];
      scale: V3;
      holes?: number[];
    }
  /** A rounded box: the core box's half extents and the rounding radius. */
  | { type: "roundedBox"; halfExtents: V3; radius: number }
  /** A rounded hull: the core hull's vertices, packed xyz, and the rounding radius. */
  | { type: "roundedConvex"; vertices: number[]; radius: number }
  | {
      type: "compound";
      children: {
        shape: ShapeTransfer;
        translation: V3;
        rotation: [number, number, number, number];
      }[];
    };

/** A pose as arrays: translation `[x, y, z]`, unit quaternion `[x, y, z, w]`. */
export interface PoseTransfer {
  translation: V3;
  rotation: [number, number, number, number];
}

/** One body of a transferred scene. */
export interface BodyTransfer {
  id: string;
  shape: ShapeTransfer;
  pose: PoseTransfer;
  /** Collision layer bits. @default 1 */
  layer?: number;
  /** Layers it collides with. @default all */
  mask?: number;
}

/** What the viewer's page loads once (see the module docs). */
export type SceneTransfer =
  | { mode: "scene"; title: string; bodies: BodyTransfer[] }
  | {
      mode: "demo";
      title: string;
      /** The demo's options (src/debug/demo-scene.ts) and its model's arrays. */
      demo: {
        bodies: number;
        seed: number;
        gravity: boolean;
        model: { positions: number[]; cells: number[] };
      };
    };

const v3 = (v: Vec3): V3 => [v.x, v.y, v.z];
const toVec = (a: readonly number[]): Vec3 => ({ x: a[0], y: a[1], z: a[2] });

/** The transfer form of `shape` (allocates). */
export function shapeToTransfer(shape: Shape | TriangleMesh): ShapeTransfer {
  switch (shape.type) {
    case ShapeType.Sphere:
      return { type: "sphere", radius: shape.radius };
    case ShapeType.Cuboid:
      return { type: "cuboid", halfExtents: v3(shape.halfExtents) };
    case ShapeType.Capsule:
      return { type: "capsule", a: v3(shape.a), b: v3(shape.b), radius: shape.radius };
    case ShapeType.Cylinder:
      return { type: "cylinder", halfHeight: shape.halfHeight, radius: shape.radius };
    case ShapeType.Cone:
      return { type: "cone", halfHeight: shape.halfHeight, radius: shape.radius };
    case ShapeType.ConvexPolyhedron:
      return { type: "convex", vertices: Array.from(shape.vertices) };
    case ShapeType.Triangle:
      return { type: "triangle", a: v3(shape.a), b: v3(shape.b), c: v3(shape.c) };
    case ShapeType.TriangleMesh:
      return {
        type: "mesh",
        vertices: Array.from(shape.vertices),
        indices: Array.from(shape.indices),
        ...(shape.solid ? { solid: true } : {}),
      };
    case ShapeType.HalfSpace:
      return { type: "halfspace", normal: v3(shape.normal), offset: shape.offset };
    case ShapeType.RoundedCuboid:
      return { type: "roundedBox", halfExtents: v3(shape.core.halfExtents), radius: shape.radius };
    case ShapeType.RoundedConvexPolyhedron:
      return {
        type: "roundedConvex",
        vertices: Array.from(shape.core.vertices),
        radius: shape.radius,
      };
    case ShapeType.Heightfield:
      return {
        type: "heightfield",
        rows: shape.rows,
        cols: shape.cols,
        heights: Array.from(shape.heights),
        scale: v3(shape.scale),
        ...(shape.holes ? { holes: heightfieldHoleFlags(shape) } : {}),
      };
    case ShapeType.Compound:
      return {
        type: "compound",
        children: shape.children.map((c) => ({
          shape: shapeToTransfer(c.shape),
          translation: v3(c.pose.translation),
          rotation: [c.pose.rotation.x, c.pose.rotation.y, c.pose.rotation.z, c.pose.rotation.w],
        })),
      };
  }
}

/**
 * The shape a transfer describes, built with the `make…` constructors (so it is validated:
 * they throw `CollideError` naming `field` for bad numbers). Allocates.
 */
export function shapeFromTransfer(t: ShapeTransfer, field = "shape"): Shape {
  switch (t.type) {
    case "sphere":
      return makeSphere(t.radius, `${field}.radius`);
    case "cuboid":
      return makeCuboid(toVec(t.halfExtents), `${field}.halfExtents`);
    case "capsule":
      return makeCapsule(toVec(t.a), toVec(t.b), t.radius, field);
    case "cylinder":
      return makeCylinder(t.halfHeight, t.radius, field);
    case "cone":
      return makeCone(t.halfHeight, t.radius, field);
    case "convex":
      return makeConvexPolyhedron(Float64Array.from(t.vertices), `${field}.vertices`);
    case "triangle":
      return makeTriangle(toVec(t.a), toVec(t.b), toVec(t.c), field);
    case "roundedBox":
      return makeRoundedCuboid(toVec(t.halfExtents), t.radius, field);
    case "roundedConvex":
      return makeRoundedConvexPolyhedron(Float64Array.from(t.vertices), t.radius, field);
    case "mesh":
      return makeTriangleMesh(Float64Array.from(t.vertices), Uint32Array.from(t.indices), field, {
        solid: t.solid === true,
      });
    case "halfspace":
      return makeHalfSpace(toVec(t.normal), t.offset, field);
    case "heightfield":
      return makeHeightfield(
        {
          rows: t.rows,
          cols: t.cols,
          heights: Float64Array.from(t.heights),
          scale: toVec(t.scale),
          ...(t.holes ? { holes: t.holes } : {}),
        },
        field,
      );
    case "compound":
      return makeCompound(
        t.children.map((c, i) => ({
          shape: shapeFromTransfer(c.shape, `${field}.children[${i}].shape`) as ConvexShape,
          pose: poseFromTransfer(c),
        })),
        field,
      );
  }
}

/** The transfer form of a pose. */
export function poseToTransfer(p: Isometry): PoseTransfer {
  const q = p.rotation;
  return { translation: v3(p.translation), rotation: [q.x, q.y, q.z, q.w] };
}

/** The pose a transfer describes (allocates). */
export function poseFromTransfer(p: PoseTransfer): Isometry {
  const r = p.rotation;
  return { translation: toVec(p.translation), rotation: { x: r[0], y: r[1], z: r[2], w: r[3] } };
}
