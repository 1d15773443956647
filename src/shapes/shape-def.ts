/**
 * The shape definition record ({@link ShapeDef}: crashcat's `ShapeDef`, Jolt's shape classes, in
 * plain data) and the table that holds one per shape type, indexed by the numeric type id — the
 * id the world keeps in a typed array — so each call through the table reaches a routine that
 * only ever sees its own shape layout (monomorphic field loads, no boxed doubles).
 *
 * This module is a leaf (it imports types only, and the shape type names): each definition file
 * (src/shapes/defs/<type>.ts) registers its record here when it loads, whatever the order in
 * which modules are first imported. The lookups built on the table are in src/shapes/registry.ts,
 * which also loads the built-in definitions.
 */
import type { z } from "zod";
import { invalidValue } from "../errors.js";
import type { SupportFeature } from "../geometry/feature.js";
import type { RevolutionKind } from "../geometry/revolution.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import type { CompositeView } from "./composite.js";
import type { Shape } from "./shape.js";

/** The answer of a point projection: closest point, its distance, whether the point is inside. */
export interface PointProjection {
  /** The closest point of the shape (of its boundary when hollow), world frame. */
  point: Vec3;
  /** Distance from the query point to `point`, scene units (0 inside a solid shape). */
  distance: number;
  /** True when the query point is inside the shape or on its boundary. */
  inside: boolean;
  /** For a triangle mesh, the index of the triangle holding `point`; −1 for other shapes. */
  triangle?: number;
}

/** A ray hit in a shape's local frame, written by {@link ShapeDef.rayCast}. */
export interface LocalRayHit {
  /** Time of impact in multiples of the caller's (raw) ray direction. */
  toi: number;
  /** Outward unit normal at the hit, local frame (zero for a solid shape hit from inside). */
  normal: Vec3;
}

/** `[x, y, z]`. */
export type Vec3Json = [number, number, number];

/**
 * A shape as plain JSON for a renderer that builds its own surfaces (the debug draw, the
 * viewer through `collide/three`): one of a few drawing primitives in the shape's local frame
 * (sphere, box, capsule, cylinder and cone along local +Y as Collide defines them), polytopes
 * and meshes as triangles, heightfields as their grid of heights, compounds as children with
 * local poses. Every shape type maps to these, so a new type needs no renderer change.
 */
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
      /** Vertex index pairs of the edges to draw as a wireframe; every triangle edge when absent. */
      edges?: number[];
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

/**
 * A shape as plain JSON by its defining numbers, in its local frame (the viewer's transfer form,
 * src/debug/scene-transfer.ts): `type` is the definition's JSON name, the other fields are the
 * type's own (see each definition's schema).
 */
export interface ShapeJson {
  /** The JSON name of the shape's type ({@link ShapeJsonDef.name}). */
  type: string;
  [field: string]: unknown;
}

/** How a shape type reads and writes its {@link ShapeJson}. */
export interface ShapeJsonDef<S extends Shape = Shape> {
  /** The `type` field's value (`"sphere"`, `"cuboid"`, `"roundedBox"`, …). */
  readonly name: string;
  /**
   * The zod schema of the JSON form, built with the caller's `z` (so the shape layer does not
   * load zod; only code that validates JSON does).
   */
  schema(zod: typeof z): z.ZodType;
  /** The JSON form of `s` (allocates). */
  toJson(s: S): ShapeJson;
  /**
   * The shape a JSON form (already checked against {@link schema}) describes, built by the
   * type's `make…` constructor, which throws `CollideError` naming `field` for bad numbers.
   * `child` turns a nested JSON shape (a compound's child) into a shape. With {@link toJson}
   * it is also how a hand-built shape kept beyond a call is copied (`keptShape`,
   * src/shapes/validate.ts: the world's `addBody`, a compound's children), so it must build
   * with the `make…` constructor and `fromJson(toJson(s))` must be `s`'s shape.
   */
  fromJson(j: ShapeJson, field: string, child: (j: ShapeJson, field: string) => Shape): S;
}

/**
 * The separating-axis view of a polytope ({@link ShapeDef.polytope}): its distinct face normals
 * and edge directions in its local frame, not necessarily unit (a box has 3 of each, a
 * triangle 1 face normal and 3 edges, a hull its faces and unique edges). The SAT depth of two
 * polytopes and the snapping of a refined normal to a face normal read them
 * (src/narrowphase/convex-convex.ts). Counts are small integers; the writers allocate nothing.
 */
export interface PolytopeAxes<S extends Shape = Shape> {
  /** Number of face normals of `s`. */
  faceCount(s: S): number;
  /** out = face normal `i` of `s` (local frame). */
  faceNormal(out: Vec3, s: S, i: number): Vec3;
  /** Number of edge directions of `s`. */
  edgeCount(s: S): number;
  /** out = edge direction `i` of `s` (local frame). */
  edgeDirection(out: Vec3, s: S, i: number): Vec3;
  /**
   * True for a flat polytope (a triangle: no volume, its one face seen from both sides); false
   * for a closed solid, whose {@link faces} then give its boundary.
   */
  readonly flat: boolean;
  /**
   * The face polygons of a closed solid polytope, each packed xyz in cyclic order, local frame
   * (allocates; the exact overlap volume of two polytopes clips them,
   * src/query/overlap-volume.ts); null for a flat one.
   */
  readonly faces: ((s: S) => number[][]) | null;
  /**
   * The face planes of a closed solid polytope, packed 4 per face as (n, d) with n·p ≤ d
   * inside, local frame (allocates); null for a flat one.
   */
  readonly planes: ((s: S) => number[]) | null;
}

/**
 * A solid of revolution about local Y ({@link ShapeDef.revolution}): which profile, and its
 * sizes. The convex–convex solver snaps its witnesses onto the curved surface by the exact
 * projection of src/geometry/revolution.ts.
 */
export interface Revolution<S extends Shape = Shape> {
  /** The profile: a cylinder's rectangle or a cone's triangle (src/geometry/revolution.ts). */
  readonly kind: RevolutionKind;
  /**
   * Writes the half height to `out[0]` and the base radius to `out[1]` (scene units; through a
   * typed array, not returned doubles, which V8 would box across the call).
   */
  dims(out: Float64Array, s: S): void;
}

/**
 * Everything the library needs to know about one shape type. Code that needs to know something
 * about "a shape" asks the table ({@link shapeDef}), never a `switch (shape.type)`.
 */
export interface ShapeDef<S extends Shape = Shape> {
  /** The type id (index in the table). */
  readonly type: S["type"];
  /** The name used in messages (`"sphere"`, `"cuboid"`, …). */
  readonly name: string;
  /** True for a convex set with a support function (GJK/EPA, the compound's children). */
  readonly supportMapped: boolean;
  /** True for a composite (a view of parts, src/shapes/composite.ts). */
  readonly composite: boolean;
  /**
   * For a polytope (flat faces only: SAT over its faces and edges applies), its face normals
   * and edge directions; null for any other type (a rounded shape's core has its own).
   */
  readonly polytope: PolytopeAxes<S> | null;
  /**
   * For a solid of revolution (cylinder, cone): its profile and sizes; null for every other
   * type.
   */
  readonly revolution: Revolution<S> | null;
  /**
   * True for a shape with no finite bounds (the half-space): its AABB is infinite, so the world
   * and the batch queries keep it out of their broad phases and test it against every other
   * shape.
   */
  readonly unbounded: boolean;
  /**
   * True when the supporting feature along every direction is one point (the sphere): a
   * manifold with it is its contact, answered before any feature is built.
   */
  readonly pointFeature: boolean;
  /** out = the tight (or, for meshes, conservative) world AABB of `s` placed at `pose`. */
  aabb(out: Aabb, s: S, pose: Isometry): Aabb;
  /**
   * Largest distance from the local origin to a point of the shape (scene units; Infinity for
   * an unbounded shape): the lever arm of the rotating time-of-impact bound and the size that
   * scales tolerances. May over-estimate, never under-estimate.
   */
  boundingRadius(s: S): number;
  /**
   * out[0] = {@link boundingRadius}, for hot paths (a double returned by a call V8 does not
   * inline is boxed). Made together with `boundingRadius` by {@link boundingRadiusWith}: as with
   * {@link writeMargin}, {@link registerShape} keeps it only with the record's own
   * `boundingRadius`; absent, {@link writeBoundingRadiusOf} reads `boundingRadius`.
   */
  writeBoundingRadius?(out: Float64Array, s: S): void;
  /**
   * Writes to `out[0]` the shape's magnitude for the exact change of units far from unit scale
   * (its largest local coordinate or radius, src/narrowphase/extreme-scale.ts), or −1 for a type
   * without one (meshes, half-spaces, compounds). Through a typed array, not a returned double,
   * which V8 would box across the table's call.
   */
  writeMagnitude(out: Float64Array, s: S): void;
  /**
   * A copy of `s` with every length multiplied by `k` (allocates; the closed-form pair routines'
   * change of units), or null for a type the change of units does not copy.
   */
  readonly scaled: ((s: S, k: number) => S) | null;
  /**
   * out = the support point of the core along local `dir` (the shape itself when the margin is
   * 0); null for shapes without a support function.
   */
  readonly coreSupport: ((out: Vec3, s: S, dir: Vec3) => Vec3) | null;
  /** The margin swept around the core (scene units; 0 when the core is the shape). */
  margin(s: S): number;
  /**
   * out[0] = {@link margin}, for the types whose margin is not 0 (the rounded ones): hot paths
   * read it so, since a double returned by a call V8 does not inline is boxed (allocated).
   * It must write what `margin` returns, so it is made together with it by {@link marginWith}:
   * {@link registerShape} keeps it only when it was made with the record's own `margin` (a record
   * spread from a built-in rounded one that overrides `margin` alone then reads its margin
   * through `margin`, right if a little slower); absent, the margin is read through `margin`.
   */
  writeMargin?(out: Float64Array, s: S): void;
  /**
   * For a rounded shape (a core swept by a ball of radius {@link margin}; its objects hold
   * `core` and `radius`, src/shapes/rounded.ts): its core. Absent for every other type.
   */
  roundedCore?(s: S): Shape;
  /**
   * The sign of the first difference between the numbers that define `a` and `b`, two shapes of
   * this type (src/shapes/data-order.ts `shapeDataOrder`, which the same-type pairs' canonical
   * order asks when the relative pose decides nothing): its constructor's data, never a cache
   * derived from it. Antisymmetric and allocation free. Absent: 0 (two shapes of the type are
   * then ordered by their world poses alone).
   */
  dataOrder?(a: S, b: S): number;
  /**
   * The primary supporting feature of `s` along unit local direction `d` for contact manifolds
   * (a face, a segment or a point; src/geometry/feature.ts); null for types that never reach the
   * manifold builder (composites, half-spaces, rounded shapes, which use their core's).
   */
  readonly feature: ((f: SupportFeature, s: S, d: Vec3) => void) | null;
  /** For a polytope: replaces `f` by the supporting edge (or vertex) along `d`; null otherwise. */
  readonly edgeFeature: ((f: SupportFeature, s: S, d: Vec3) => void) | null;
  /**
   * Local ray cast of o + t·dRaw, t ∈ [0, maxToi]: `dUnit` is dRaw normalised and `len` its
   * length. On a hit writes `out.toi` (multiples of dRaw) and the outward unit normal (zero for a
   * solid shape hit from inside; with `solid` false a ray from inside reports where it leaves)
   * and returns true. Null for a composite: the query casts its parts through its view.
   */
  readonly rayCast:
    | ((
        out: LocalRayHit,
        s: S,
        o: Vec3,
        dUnit: Vec3,
        dRaw: Vec3,
        len: number,
        maxToi: number,
        solid: boolean,
      ) => boolean)
    | null;
  /**
   * The `raycast` query's cast where it differs from {@link rayCast} (same arguments): a surface
   * crossed by rays — a triangle, whose ray in its plane misses as on a mesh, while `rayCast`
   * keeps the flat convex set (hit edge-on) for the narrow phase's line casts. Absent: the
   * query uses `rayCast`.
   */
  readonly surfaceRayCast?: (
    out: LocalRayHit,
    s: S,
    o: Vec3,
    dUnit: Vec3,
    dRaw: Vec3,
    len: number,
    maxToi: number,
    solid: boolean,
  ) => boolean;
  /**
   * Writes to `out` the projection of local point `p` onto `s` (out.point local; for a hollow
   * query, `solid` false, onto the boundary even from inside). Null for a composite: the query
   * projects onto its parts through its view.
   */
  readonly projectPoint:
    | ((out: PointProjection, s: S, p: Vec3, solid: boolean) => PointProjection)
    | null;
  /**
   * Throws `CollideError` (`invalid_value`, naming `field` and the sub-field) unless `s` (of this
   * type, maybe hand-built) is well formed; the checks of src/shapes/validate.ts's `checkShape`.
   */
  check(field: string, s: S): void;
  /**
   * True when every number of `s` that {@link check} requires to be finite is finite. Allocates
   * nothing; a missing field counts as non-finite.
   */
  isFinite(s: S): boolean;
  /** The renderer-independent {@link ShapeView} of `s` (allocates). */
  view(s: S): ShapeView;
  /** The JSON form of the type: its name, zod schema, writer and reader. */
  readonly json: ShapeJsonDef<S>;
}

/**
 * The heavy operations of a record — manifold features, ray cast, point projection — which a
 * definition may leave to a module of their own ({@link registerShapeOps}), so that an
 * application that never asks for them (a `collide/core` app calling only `intersects`) does not
 * bundle them. A record that defers them holds {@link DEFERRED} in each of the four fields
 * until its operations register.
 */
export type ShapeOps<S extends Shape = Shape> = Pick<
  ShapeDef<S>,
  "feature" | "edgeFeature" | "rayCast" | "projectPoint"
>;

/**
 * The placeholder of a deferred operation (see {@link ShapeOps}): called, it throws. The query
 * modules that use the operations (src/narrowphase/manifold.ts, src/query/raycast.ts,
 * src/query/project-point.ts) import src/shapes/defs/ops.ts, which registers those of every
 * built-in type, so it is never called through them.
 */
export function DEFERRED(): never {
  throw new Error(
    "a shape definition's deferred operation was called before it registered (import src/shapes/defs/ops.ts)",
  );
}

/** Room for the built-in types and those registered later (the type ids are small integers). */
export const MAX_SHAPE_TYPES = 32;

const defs: (ShapeDef | null)[] = new Array(MAX_SHAPE_TYPES).fill(null);
const supportMapped = new Uint8Array(MAX_SHAPE_TYPES);
const rounded = new Uint8Array(MAX_SHAPE_TYPES);
const unboundedTypes = new Uint8Array(MAX_SHAPE_TYPES);
const pointFeatureTypes = new Uint8Array(MAX_SHAPE_TYPES);
const byJsonName = new Map<string, ShapeDef>();

const listeners: ((type: number) => void)[] = [];
/** Operations registered before their type's record ({@link registerShapeOps}), by type id. */
const pendingOps: (ShapeOps | null)[] = new Array(MAX_SHAPE_TYPES).fill(null);

/** Writes `ops` into `d`'s four operation fields (records are plain data, not frozen). */
function installOps(d: ShapeDef, ops: ShapeOps): void {
  const w = d as { -readonly [K in keyof ShapeOps]: ShapeOps[K] };
  w.feature = ops.feature;
  w.edgeFeature = ops.edgeFeature;
  w.rayCast = ops.rayCast;
  w.projectPoint = ops.projectPoint;
}

/**
 * Registers the deferred operations of shape type `type` (see {@link ShapeOps}): written into
 * its record now, or when the record registers if it has not yet (modules load in any order).
 */
export function registerShapeOps<S extends Shape>(type: S["type"], ops: ShapeOps<S>): void {
  const o = ops as unknown as ShapeOps;
  const d = defs[type];
  if (d) installOps(d, o);
  else pendingOps[type] = o;
}

/**
 * A record's `margin` and `writeMargin` made together (see {@link ShapeDef.writeMargin}):
 * `writeMargin` must set out[0] to what `margin` returns, written out rather than by calling
 * `margin` (a returned double would be boxed). {@link registerShape} keeps the writer only with
 * this very `margin`.
 */
export function marginWith<S extends Shape>(
  margin: (s: S) => number,
  writeMargin: (out: Float64Array, s: S) => void,
): { margin: (s: S) => number; writeMargin: (out: Float64Array, s: S) => void } {
  (writeMargin as { margin?: unknown }).margin = margin;
  return { margin, writeMargin };
}

/**
 * A record's `boundingRadius` and `writeBoundingRadius` made together (see
 * {@link ShapeDef.writeBoundingRadius}): the writer must set out[0] to what `boundingRadius`
 * returns, bit for bit. {@link registerShape} keeps the writer only with this very
 * `boundingRadius`.
 */
export function boundingRadiusWith<S extends Shape>(
  boundingRadius: (s: S) => number,
  writeBoundingRadius: (out: Float64Array, s: S) => void,
): {
  boundingRadius: (s: S) => number;
  writeBoundingRadius: (out: Float64Array, s: S) => void;
} {
  (writeBoundingRadius as { boundingRadius?: unknown }).boundingRadius = boundingRadius;
  return { boundingRadius, writeBoundingRadius };
}

/** out[0] = the bounding radius of `s` ({@link ShapeDef.boundingRadius}), through its writer when it has one. */
export function writeBoundingRadiusOf(out: Float64Array, s: Shape): void {
  const d = shapeDef(s.type);
  if (d.writeBoundingRadius !== undefined) d.writeBoundingRadius(out, s);
  else out[0] = d.boundingRadius(s);
}

/**
 * Registers the definition of its type (replacing one registered before), then tells the
 * listeners ({@link onShapeRegistered}): each type's module calls it when it loads, in whatever
 * order modules load.
 */
export function registerShape<S extends Shape>(def: ShapeDef<S>): void {
  const d = def as unknown as ShapeDef;
  // A writer not made with this record's own margin (a spread record that overrode `margin`
  // alone, or one written by hand) could disagree with it: the margin is read through `margin`.
  if (d.writeMargin && (d.writeMargin as { margin?: unknown }).margin !== d.margin) {
    delete d.writeMargin;
  }
  if (
    d.writeBoundingRadius &&
    (d.writeBoundingRadius as { boundingRadius?: unknown }).boundingRadius !== d.boundingRadius
  ) {
    delete d.writeBoundingRadius;
  }
  const ops = pendingOps[def.type];
  if (ops && d.rayCast === DEFERRED) installOps(d, ops);
  defs[def.type] = d;
  supportMapped[def.type] = def.supportMapped ? 1 : 0;
  rounded[def.type] = def.roundedCore ? 1 : 0;
  unboundedTypes[def.type] = def.unbounded ? 1 : 0;
  pointFeatureTypes[def.type] = def.pointFeature ? 1 : 0;
  byJsonName.set(def.json.name, d);
  for (const f of listeners) f(def.type);
}

/**
 * Calls `f(type)` for every definition registered from now on (the pair table's default
 * registrations use it to give a type loaded after them its capability pairs,
 * src/narrowphase/default-pairs.ts).
 */
export function onShapeRegistered(f: (type: number) => void): void {
  listeners.push(f);
}

/**
 * The definition of shape type `type`. Throws `CollideError` (`invalid_value`, field "type") for
 * an id with none: not a shape type, or one whose module has not loaded (a hand-built shape of a
 * type whose `make…` the application never imports from `collide/core`).
 */
export function shapeDef(type: number): ShapeDef {
  const d = defs[type];
  if (!d) return noDefinition(type);
  return d;
}

function noDefinition(type: unknown): never {
  return invalidValue("type", type, NO_DEFINITION);
}

/** Why a shape type id has no record (the message of {@link shapeDef}'s error). */
export const NO_DEFINITION =
  "is not a known shape type, or its definition is not loaded (it loads with its make… constructor, or with the main entry)";

/** The definition of shape type `type`, or null (any value) when none is registered. */
export function findShapeDef(type: unknown): ShapeDef | null {
  return typeof type === "number" && Number.isInteger(type) && type >= 0 && type < MAX_SHAPE_TYPES
    ? defs[type]
    : null;
}

/** The definition whose JSON name is `name`, or null. */
export function shapeDefByJsonName(name: string): ShapeDef | null {
  return byJsonName.get(name) ?? null;
}

/** True when `type` is a registered support-mapped type (false for any other value). */
export function isSupportMappedType(type: number | undefined): boolean {
  return typeof type === "number" && supportMapped[type] === 1;
}

/** True when `type` is a registered rounded type (its shapes hold `core` and `radius`). */
export function isRoundedType(type: number): boolean {
  return rounded[type] === 1;
}

/**
 * True when `type` is a registered unbounded type ({@link ShapeDef.unbounded}: the half-space);
 * one typed-array load, for the world's per-body and per-pair tests.
 */
export function isUnboundedType(type: number): boolean {
  return unboundedTypes[type] === 1;
}

/** True when `type` is a registered type whose every supporting feature is one point. */
export function isPointFeatureType(type: number): boolean {
  return pointFeatureTypes[type] === 1;
}

const views: (CompositeView | null)[] = /* @__PURE__ */ new Array(MAX_SHAPE_TYPES).fill(null);

/**
 * Registers the composite view of shape type `type` (src/shapes/composite.ts; called once per
 * composite type, from its definition file).
 */
export function registerCompositeView(type: number, view: CompositeView): void {
  views[type] = view;
}

/** The composite view of shape type `type`, or null when the type is not composite. */
export function compositeView(type: number): CompositeView | null {
  return views[type] ?? null;
}

/** True when shape type `type` is composite (has a registered view). */
export function isCompositeType(type: number): boolean {
  return views[type] != null;
}
