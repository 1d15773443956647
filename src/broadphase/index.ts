/**
 * The broad phases of Collide: one {@link BroadPhase} interface over integer proxy ids and its
 * implementations — brute force (the oracle), sweep and prune, spatial hash, dynamic AABB tree,
 * loose octree (a loose quadtree when planar) —
 * with the packed {@link PairSet} they fill.
 */
export type { AabbQueryCallback, BroadPhase, RayCastCallback } from "./broad-phase.js";
export { raySegmentBoxEntry } from "./broad-phase.js";
export { BruteForceBroadPhase } from "./brute-force.js";
export {
  DynamicTree,
  type DynamicTreeOptions,
  defaultDynamicTreeOptions,
} from "./dynamic-tree.js";
export { LooseOctree, type LooseOctreeOptions } from "./loose-octree.js";
export {
  MAX_PROXY_ID,
  PAIR_KEY_BASE,
  PairSet,
  packPair,
  pairHi,
  pairLo,
} from "./pair-set.js";
export { QueryBvh } from "./query-bvh.js";
export {
  defaultSpatialHashOptions,
  SpatialHash,
  type SpatialHashOptions,
} from "./spatial-hash.js";
export {
  defaultSweepAndPruneOptions,
  SweepAndPrune,
  type SweepAndPruneOptions,
} from "./sweep-and-prune.js";
