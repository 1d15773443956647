/**
 * The `pairs` query: every intersecting (or touching) pair of a list of posed shapes, found by a
 * broad phase over their world AABBs and confirmed by the exact `intersects` test.
 */
import type { BroadPhase } from "../broadphase/broad-phase.js";
import { BruteForceBroadPhase } from "../broadphase/brute-force.js";
import { DynamicTree } from "../broadphase/dynamic-tree.js";
import { PairSet } from "../broadphase/pair-set.js";
import { SpatialHash } from "../broadphase/spatial-hash.js";
import { SweepAndPrune } from "../broadphase/sweep-and-prune.js";
import { invalidValue } from "../errors.js";
import * as aabb from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import { aabbShape } from "../shapes/index.js";
import type { Shape } from "../shapes/shape.js";
import { intersects } from "./intersects.js";

/** The broad phases a caller can choose by name. */
export type BroadPhaseName = "brute" | "sap" | "grid" | "tree";

/** True when every corner coordinate of `box` is finite. */
export function isFiniteAabb(box: aabb.Aabb): boolean {
  return (
    Number.isFinite(box.min.x) &&
    Number.isFinite(box.min.y) &&
    Number.isFinite(box.min.z) &&
    Number.isFinite(box.max.x) &&
    Number.isFinite(box.max.y) &&
    Number.isFinite(box.max.z)
  );
}

/** A new broad phase by name: brute force, sweep and prune, uniform grid, dynamic AABB tree. */
export function makeBroadPhase(name: BroadPhaseName): BroadPhase {
  switch (name) {
    case "brute":
      return new BruteForceBroadPhase();
    case "sap":
      return new SweepAndPrune();
    case "grid":
      return new SpatialHash();
    case "tree":
      return new DynamicTree();
  }
  return invalidValue("broadphase", name, "must be brute, sap, grid or tree");
}

/**
 * Every pair `[i, j]` (i < j, sorted ascending) of `shapes` that intersect or touch, with each
 * shape at its world pose. The result does not depend on `broadphase`, which only changes the
 * speed. Throws `CollideError("unsupported_pair")` when a candidate pair cannot be tested.
 */
export function computePairs(
  shapes: readonly { shape: Shape; pose: Isometry }[],
  broadphase: BroadPhaseName = "brute",
): [number, number][] {
  const bp = makeBroadPhase(broadphase);
  const box = aabb.empty();
  // Unbounded shapes (half-spaces) have no finite AABB: they stay out of the broad phase and
  // are tested against every other shape.
  const unbounded: number[] = [];
  shapes.forEach((s, i) => {
    aabbShape(box, s.shape, s.pose);
    if (isFiniteAabb(box)) bp.insert(i, box.min, box.max);
    else unbounded.push(i);
  });
  const candidates = bp.computePairs(new PairSet());
  const keys = new PairSet();
  candidates.forEach((i, j) => {
    keys.add(i, j);
  });
  for (const u of unbounded) {
    for (let j = 0; j < shapes.length; j++) if (j !== u) keys.add(u, j);
  }
  keys.sortUnique();
  const result: [number, number][] = [];
  keys.forEach((i, j) => {
    const a = shapes[i];
    const b = shapes[j];
    if (intersects(a.shape, a.pose, b.shape, b.pose)) result.push([i, j]);
  });
  return result;
}
