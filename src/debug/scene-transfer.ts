/**
 * A scene as plain JSON for the viewer's page (`collide view` serves it once, as
 * `api/scene`): every body's shape by its defining numbers — a mesh as its vertex and index
 * arrays, a hull as its vertices — with its pose, layer and mask; or, for the demo, the model's
 * arrays and the demo's options. The page's Web Worker rebuilds the shapes with the `make…`
 * constructors ({@link shapeFromTransfer}) and runs the world itself, so nothing here touches
 * the file system: mesh files are read by the server (src/io) and arrive as arrays.
 */
import { z } from "zod";
// Every shape type of the main entry, so that every JSON name is known.
import "../index.js";
import { invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import { type ShapeJson, shapeDef, shapeDefByJsonName } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";

type V3 = [number, number, number];

/**
 * A shape by its defining numbers, local frame, scene units: its definition's JSON form
 * (src/shapes/defs/: `type` is the definition's JSON name — `"sphere"`, `"cuboid"`, `"capsule"`,
 * `"cylinder"`, `"cone"`, `"convex"`, `"triangle"`, `"mesh"`, `"halfspace"`, `"heightfield"`,
 * `"roundedBox"`, `"roundedConvex"`, `"compound"` — and the other fields its schema's).
 */
export type ShapeTransfer = ShapeJson;

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
  | {
      mode: "scene";
      title: string;
      bodies: BodyTransfer[];
      /**
       * The world position of the frame the bodies' poses are in (the scene's local frame,
       * src/io/scene.ts `Scene.origin`); points shown as world points are moved by it.
       * @default [0, 0, 0]
       */
      origin?: V3;
    }
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

/** The transfer form of `shape` (allocates): its definition's JSON writer. */
export function shapeToTransfer(shape: Shape | TriangleMesh): ShapeTransfer {
  return shapeDef(shape.type).json.toJson(shape);
}

/**
 * The shape a transfer describes: checked against its definition's schema, then built with the
 * type's `make…` constructor (so it is validated: bad numbers throw `CollideError` naming
 * `field`). Allocates.
 */
export function shapeFromTransfer(t: ShapeTransfer, field = "shape"): Shape {
  const type = t !== null && typeof t === "object" ? t.type : undefined;
  const def = typeof type === "string" ? shapeDefByJsonName(type) : null;
  if (!def) return invalidValue(`${field}.type`, type, "is not a known shape type");
  const r = def.json.schema(z).safeParse(t);
  if (!r.success) {
    const issue = r.error.issues[0];
    const path = issue.path.map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`));
    invalidValue(`${field}${path.join("")}`, t, issue.message);
  }
  return def.json.fromJson(t, field, (j, f) => shapeFromTransfer(j, f));
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
