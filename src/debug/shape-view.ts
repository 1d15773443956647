/**
 * Plain-JSON descriptions of shapes for a renderer that builds its own surfaces (the debug
 * viewer, through `collide/three`): primitives by their parameters in the shape's local frame
 * (sphere, box, capsule, cylinder and cone along local +Y as Collide defines them), polytopes
 * and meshes as triangles, heightfields as their grid of heights, compounds as children with
 * local poses.
 */
import type { Vec3 } from "../math/vec3.js";
import type { Heightfield } from "../shapes/heightfield.js";
import { heightfieldCellCount, isHeightfieldHole } from "../shapes/heightfield.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";

/** `[x, y, z]`. */
export type Vec3Json = [number, number, number];

/** A shape as plain JSON, local frame, scene units (see the module docs). */
export type ShapeView =
  | { type: "sphere"; radius: number }
  | { type: "box"; halfExtents: Vec3Json }
  | { type: "capsule"; a: Vec3Json; b: Vec3Json; radius: number }
  | { type: "cylinder"; halfHeight: number; radius: number }
  | { type: "cone"; halfHeight: number; radius: number }
  | {
      type: "triangles";
      /** Packed xyz vertex positions. */
      positions: number[];
      /** 3 vertex indices per triangle, counter-clockwise seen from outside when known. */
      indices: number[];
    }
  | { type: "halfspace"; normal: Vec3Json; offset: number }
  | {
      type: "heightfield";
      rows: number;
      cols: number;
      /** rows·cols unscaled heights, row-major (vertex (r, c) at (c·sx, h·sy, r·sz)). */
      heights: number[];
      scale: Vec3Json;
      /** (rows − 1)·(cols − 1) flags, 1 for a hole cell; absent when there are none. */
      holes?: number[];
    }
  | {
      type: "compound";
      children: {
        shape: ShapeView;
        position: Vec3Json;
        rotation: [number, number, number, number];
      }[];
    };

function arr(v: Vec3): Vec3Json {
  return [v.x, v.y, v.z];
}

/** The {@link ShapeView} of `shape` (allocates). */
export function shapeView(shape: Shape | TriangleMesh): ShapeView {
  switch (shape.type) {
    case ShapeType.Sphere:
      return { type: "sphere", radius: shape.radius };
    case ShapeType.Cuboid:
      return { type: "box", halfExtents: arr(shape.halfExtents) };
    case ShapeType.Capsule:
      return { type: "capsule", a: arr(shape.a), b: arr(shape.b), radius: shape.radius };
    case ShapeType.Cylinder:
      return { type: "cylinder", halfHeight: shape.halfHeight, radius: shape.radius };
    case ShapeType.Cone:
      return { type: "cone", halfHeight: shape.halfHeight, radius: shape.radius };
    case ShapeType.ConvexPolyhedron: {
      // Each face is a convex polygon, counter-clockwise from outside: a fan from its first corner.
      const indices: number[] = [];
      const off = shape.faceOffsets;
      const fv = shape.faceVertices;
      for (let f = 0; f + 1 < off.length; f++) {
        for (let k = off[f] + 1; k + 1 < off[f + 1]; k++)
          indices.push(fv[off[f]], fv[k], fv[k + 1]);
      }
      return { type: "triangles", positions: Array.from(shape.vertices), indices };
    }
    case ShapeType.Triangle:
      return {
        type: "triangles",
        positions: [...arr(shape.a), ...arr(shape.b), ...arr(shape.c)],
        indices: [0, 1, 2],
      };
    case ShapeType.TriangleMesh:
      return {
        type: "triangles",
        positions: Array.from(shape.vertices),
        indices: Array.from(shape.indices),
      };
    case ShapeType.HalfSpace:
      return { type: "halfspace", normal: arr(shape.normal), offset: shape.offset };
    case ShapeType.Compound:
      return {
        type: "compound",
        children: shape.children.map((c) => ({
          shape: shapeView(c.shape),
          position: arr(c.pose.translation),
          rotation: [c.pose.rotation.x, c.pose.rotation.y, c.pose.rotation.z, c.pose.rotation.w],
        })),
      };
    case ShapeType.RoundedCuboid: {
      // Drawn as its outer box (the rounded edges and corners are inside it).
      const h = shape.core.halfExtents;
      const r = shape.radius;
      return { type: "box", halfExtents: [h.x + r, h.y + r, h.z + r] };
    }
    case ShapeType.RoundedConvexPolyhedron:
      // Drawn as its core hull (the radius is not drawn).
      return shapeView(shape.core);
    case ShapeType.Heightfield:
      return {
        type: "heightfield",
        rows: shape.rows,
        cols: shape.cols,
        heights: Array.from(shape.heights),
        scale: arr(shape.scale),
        ...(shape.holes ? { holes: heightfieldHoleFlags(shape) } : {}),
      };
  }
}

/** The hole flags of `hf`, one per cell (1 = hole), row-major by cell. */
export function heightfieldHoleFlags(hf: Heightfield): number[] {
  const n = heightfieldCellCount(hf);
  const out: number[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = isHeightfieldHole(hf, i) ? 1 : 0;
  return out;
}
