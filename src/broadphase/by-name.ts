/**
 * The broad phases by name, in one place for every user of names: the 3D and 2D worlds
 * (src/world/core/world-options.ts) and the `pairs` query (src/query/pairs.ts). Each caller
 * checks the name against its own list and words its own error.
 */
import type { BroadPhase } from "./broad-phase.js";
import { BruteForceBroadPhase } from "./brute-force.js";
import { DynamicTree } from "./dynamic-tree.js";
import { LooseOctree } from "./loose-octree.js";
import { SpatialHash } from "./spatial-hash.js";
import { SweepAndPrune } from "./sweep-and-prune.js";

/**
 * A broad phase's name: `"brute"` (all pairs, the oracle), `"sap"` (sweep and prune), `"grid"`
 * (spatial hash), `"tree"` (dynamic AABB tree with fat AABBs), `"octree"` (loose octree) and
 * `"quadtree"` (the loose octree split in x and y only, for boxes with one z).
 */
export type BroadPhaseKind = "brute" | "sap" | "grid" | "tree" | "octree" | "quadtree";

/**
 * A new, empty broad phase of kind `kind`; `margin` is the dynamic tree's fat-AABB margin, scene
 * units (its default when omitted). No validation: `kind` must be a {@link BroadPhaseKind}.
 */
export function createBroadPhase(kind: BroadPhaseKind, margin?: number): BroadPhase {
  switch (kind) {
    case "brute":
      return new BruteForceBroadPhase();
    case "sap":
      return new SweepAndPrune();
    case "grid":
      return new SpatialHash();
    case "tree":
      return new DynamicTree(margin === undefined ? {} : { margin });
    case "octree":
      return new LooseOctree();
    case "quadtree":
      return new LooseOctree({ planar: true });
  }
}
