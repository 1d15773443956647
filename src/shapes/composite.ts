/**
 * Composite shapes as "a bounding-volume query plus part(i)" (parry's `TypedSimdCompositeShape`,
 * Jolt's `CompoundShape` / `MeshShape` sub-shape iteration): every composite type registers a
 * {@link CompositeView} here, and the one generic composite mid-phase
 * (src/narrowphase/composite.ts) and the composite paths of the shape queries (ray cast, point
 * projection, shape cast in src/query/) work through it alone, knowing nothing else about the
 * type. A triangle mesh's parts are its triangles (found through its BVH); a compound's parts are
 * its children (found through their boxes in the compound's frame, computed once per compound
 * object — shapes are immutable). A heightfield's parts are its cell triangles
 * (src/shapes/heightfield.ts), found through its min/max tree. The optional capabilities:
 * `edgeFlags` (internal edges of a surface: mesh, heightfield), `tree` (a BVH over the parts for
 * the best-first distance search: mesh, compound), `containsPoint` (a closed solid: a mesh made
 * with `solid: true`) and `castRay` (an ordered ray walk of its own: heightfield).
 *
 * A part is written into a {@link CompositePart} slot that the caller owns (one per recursion
 * level): `shape` (a convex shape; for a mesh a scratch `Triangle` overwritten at each call),
 * `pose` (the part's pose in the composite's frame) and `hasPose` (false when that pose is the
 * identity, so callers skip a multiplication).
 */
import type { MeshBvh, MeshBvhHits } from "../geometry/mesh-bvh.js";
import {
  isMeshBvhLeaf,
  meshBvhLeafCount,
  meshBvhLeafOffset,
  meshBvhRightChild,
  pushMeshBvhHit,
} from "../geometry/mesh-bvh.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexShape, Shape } from "./shape.js";
import { ShapeType } from "./shape.js";
import type { Triangle } from "./triangle.js";

/** A caller-owned slot that {@link CompositeView.part} fills. */
export interface CompositePart {
  /** The part as a convex shape (for a mesh, this slot's own scratch triangle). */
  shape: ConvexShape;
  /** The part's pose in the composite's frame (identity when `hasPose` is false). */
  pose: Isometry;
  /** False when `pose` is the identity (mesh triangles). */
  hasPose: boolean;
  /** The slot's scratch triangle (mesh parts point `shape` at it). */
  readonly triangle: Triangle;
}

/** A new part slot (allocates). */
export function makeCompositePart(): CompositePart {
  const triangle: Triangle = {
    type: ShapeType.Triangle,
    a: vec3.create(),
    b: vec3.create(),
    c: vec3.create(),
  };
  return { shape: triangle, pose: iso.identity(), hasPose: false, triangle };
}

/** What the composite paths need of a composite shape type. */
export interface CompositeView {
  /** Number of parts of `s`. */
  partCount(s: Shape): number;
  /**
   * Collects into `out` (reset first) the ids of the parts whose bounds may touch the box
   * [min, max] (composite's local frame; ±Infinity allowed): a superset, never a subset. Returns
   * the number of ids.
   */
  queryAabb(
    out: MeshBvhHits,
    s: Shape,
    minx: number,
    miny: number,
    minz: number,
    maxx: number,
    maxy: number,
    maxz: number,
  ): number;
  /**
   * {@link queryAabb} of the box `box` (min xyz, max xyz), optional: the composite mid-phase
   * passes its box so (six doubles passed to a call V8 does not inline are six allocations).
   */
  queryBox?(out: MeshBvhHits, s: Shape, box: Float64Array): number;
  /** Writes part `i` of `s` into `slot`. */
  part(slot: CompositePart, s: Shape, i: number): void;
  /**
   * For a composite whose parts are the triangles of one surface (a triangle mesh, a heightfield): the
   * active-edge bits of part `i` (bit e set when the edge from corner e to corner e + 1 of the
   * triangle `part` writes is a real ridge; src/shapes/triangle-mesh.ts). When present, the
   * composite path gives penetrating contacts on inactive edges the face normal and merges the
   * manifolds of the parts that agree with the deepest contact (src/narrowphase/composite.ts).
   */
  edgeFlags?(s: Shape, i: number): number;
  /**
   * A bounding-volume tree over the parts (boxes in the composite's frame; see
   * {@link CompositeTree}): the composite path's distance is then a best-first branch and bound
   * over it, and two composites with trees are descended together (src/narrowphase/composite.ts).
   * When absent, the distance grows a search box until it finds a part.
   */
  tree?: CompositeTree;
  /**
   * For a composite that can be a closed solid (a triangle mesh made with `solid: true`): true
   * when point `p` (local frame) lies inside the solid `s` bounds; always false when `s` is a
   * surface. The composite path then counts a shape wholly inside as touching
   * (src/narrowphase/mesh-solid.ts).
   */
  containsPoint?(s: Shape, p: Vec3): boolean;
  /**
   * With {@link containsPoint}: true when `s` is a closed solid (a mesh made with `solid: true`),
   * false for a surface. The shape casts start a solid holding the other at time 0.
   */
  isSolid?(s: Shape): boolean;
  /**
   * True for a tree of wide, flat nodes (a heightfield's blocks): in a pair of two trees it is
   * walked as A (B's node boxes, rotated into A's frame, would grow far beyond such a node), and
   * the shape casts against it keep the part-by-part cast. Absent (false) otherwise.
   */
  readonly flatTree?: boolean;
  /**
   * An ordered ray cast of its own (a heightfield's cell walk): the nearest hit of o + t·d (local
   * frame, t ∈ [0, maxToi] in multiples of d) with the unit normal facing the origin written to
   * `outNormal`, or a negative number on a miss. When absent, the ray's box selects the parts.
   */
  castRay?(outNormal: Vec3, s: Shape, o: Vec3, d: Vec3, maxToi: number): number;
}

/**
 * A bounding-volume tree over a composite's parts as the composite path walks it: integer node
 * ids (small: they cross calls in hot loops), each node a box in the composite's frame that
 * bounds every part below it, an inner node with up to {@link COMPOSITE_TREE_MAX_CHILDREN}
 * children, a leaf with its parts. A mesh's and a compound's tree is their `MeshBvh`
 * ({@link meshBvhTree}); a heightfield's is its min/max tree, refined below its blocks down to
 * single cells (src/shapes/heightfield.ts).
 */
export interface CompositeTree {
  /** The root's id, or −1 when `s` has no parts (or no tree the walk can use). */
  root(s: Shape): number;
  /** True when `node` is a leaf. */
  isLeaf(s: Shape, node: number): boolean;
  /** Writes the ids of inner node `node`'s children into `out` (in order); returns their count. */
  children(out: Int32Array, s: Shape, node: number): number;
  /** Writes `node`'s box into `out` (min x, y, z, max x, y, z). */
  box(out: Float64Array, s: Shape, node: number): void;
  /** Writes leaf `node`'s part ids into `out` (reset first); returns their count. */
  leafParts(out: MeshBvhHits, s: Shape, node: number): number;
}

/** The most children an inner node of a {@link CompositeTree} may have. */
export const COMPOSITE_TREE_MAX_CHILDREN = 4;

/** The {@link CompositeTree} of a composite whose tree is a `MeshBvh` over its part ids. */
export function meshBvhTree(bvhOf: (s: Shape) => MeshBvh): CompositeTree {
  return {
    root: (s) => (bvhOf(s).nodeCount === 0 ? -1 : 0),
    isLeaf: (s, node) => isMeshBvhLeaf(bvhOf(s), node),
    children: (out, s, node) => {
      out[0] = node + 1;
      out[1] = meshBvhRightChild(bvhOf(s), node);
      return 2;
    },
    box: (out, s, node) => {
      const b = bvhOf(s).bounds;
      const o = 6 * node;
      out[0] = b[o];
      out[1] = b[o + 1];
      out[2] = b[o + 2];
      out[3] = b[o + 3];
      out[4] = b[o + 4];
      out[5] = b[o + 5];
    },
    leafParts: (out, s, node) => {
      const bvh = bvhOf(s);
      const start = meshBvhLeafOffset(bvh, node);
      const end = start + meshBvhLeafCount(bvh, node);
      out.count = 0;
      for (let k = start; k < end; k++) pushMeshBvhHit(out, bvh.primitives[k]);
      return out.count;
    },
  };
}

export { compositeView, isCompositeType, registerCompositeView } from "./shape-def.js";
