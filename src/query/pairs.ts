/**
 * The `pairs` query: every intersecting (or touching) pair of a list of posed shapes, found by a
 * broad phase over their world AABBs and confirmed by the exact `intersects` test.
 */
import type { BroadPhase } from "../broadphase/broad-phase.js";
import { createBroadPhase } from "../broadphase/by-name.js";
import { PairSet } from "../broadphase/pair-set.js";
import { WORLD_AABB_ROUNDING_PAD, WORLD_MAX_PAIRS } from "../constants.js";
import { CollideError, checkOptions, invalidValue, optionsSpec } from "../errors.js";
import * as aabb from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { aabbShape, isUnboundedType } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { checkShape } from "../shapes/validate.js";
import { checkPose } from "./frames.js";
import { intersects } from "./intersects.js";

/** The broad phases a caller can choose by name. */
export type BroadPhaseName = "brute" | "sap" | "grid" | "tree" | "octree";

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
  if (!BROAD_PHASE_NAMES.includes(name)) {
    return invalidValue("broadphase", name, "must be brute, sap, grid, tree or octree");
  }
  return createBroadPhase(name);
}

const BROAD_PHASE_NAMES: readonly BroadPhaseName[] = ["brute", "sap", "grid", "tree", "octree"];

/** Options of {@link computePairs}. */
export interface PairsOptions {
  /**
   * Most candidate pairs the broad phase may find before the query is refused, as the world's
   * `maxPairs` (n shapes at one point have n(n−1)/2 pairs: 100,000 of them would need tens of
   * gigabytes). @default WORLD_MAX_PAIRS = 2^21 pairs
   */
  maxPairs?: number;
}

const PAIRS_SPEC = optionsSpec("computePairs", "options", { maxPairs: "number" });

/**
 * Every pair `[i, j]` (i < j, sorted ascending) of `shapes` that intersect or touch, with each
 * shape at its world pose. The result does not depend on `broadphase`, which only changes the
 * speed. Throws `CollideError("unsupported_pair")` when a candidate pair cannot be tested;
 * `invalid_value` naming `options.maxPairs` when there are more than that many candidate pairs
 * (raise it to allow them) or it is not an integer ≥ 1; and `invalid_value` naming
 * `shapes[i].shape…` or `shapes[i].pose…` for a shape or pose with a NaN or infinite number
 * (checked on the bad result: a non-finite AABB, or a refusal by {@link intersects}, as in
 * src/query/guard.ts).
 */
export function computePairs(
  shapes: readonly { shape: Shape; pose: Isometry }[],
  broadphase: BroadPhaseName = "brute",
  options: PairsOptions = {},
): [number, number][] {
  checkOptions(options, PAIRS_SPEC);
  return computePairsLimited(
    shapes,
    broadphase,
    options?.maxPairs ?? WORLD_MAX_PAIRS,
    "options.maxPairs",
  );
}

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitPoseScratch = iso.identity();

/**
 * {@link computePairs} with the pair limit `maxPairs` named `field` in its error (`maxPairs` on a
 * `collide query` line).
 */
export function computePairsLimited(
  shapes: readonly { shape: Shape; pose: Isometry }[],
  broadphase: BroadPhaseName,
  maxPairs: number,
  field: string,
): [number, number][] {
  if (!(Number.isInteger(maxPairs) && maxPairs >= 1)) {
    invalidValue(field, maxPairs, "must be an integer >= 1");
  }
  if (!Array.isArray(shapes)) invalidValue("shapes", shapes, "must be an array of {shape, pose}");
  const bp = makeBroadPhase(broadphase);
  const box = aabb.empty();
  // Unbounded shapes (half-spaces) have no finite AABB: they stay out of the broad phase and
  // are tested against every other shape.
  const unbounded: number[] = [];
  shapes.forEach((s, i) => {
    if (s === null || typeof s !== "object") {
      invalidValue(`shapes[${i}]`, s, "must be an object {shape, pose}");
    }
    try {
      // An accepted quaternion is used normalised, as intersects uses it (docs/FORMATS.md).
      aabbShape(box, s.shape, iso.unitPose(unitPoseScratch, s.pose));
    } catch (e) {
      // A malformed entry (no shape, a pose without a translation…): name it in the caller's terms.
      checkEntry(shapes, i);
      throw e;
    }
    if (isFiniteAabb(box)) {
      padForRounding(box);
      bp.insert(i, box.min, box.max);
    } else {
      // Only an unbounded type (a half-space) has no finite box by nature; anything else may
      // hold a NaN.
      if (!isUnboundedType(s.shape?.type)) checkEntry(shapes, i);
      unbounded.push(i);
    }
  });
  const found = new PairSet();
  found.setLimit(maxPairs, field);
  const candidates = bp.computePairs(found);
  const keys = new PairSet();
  keys.setLimit(2 * maxPairs, field, maxPairs);
  candidates.forEach((i, j) => {
    keys.add(i, j);
  });
  for (const u of unbounded) {
    for (let j = 0; j < shapes.length; j++) if (j !== u) keys.add(u, j);
  }
  keys.sortUnique();
  if (keys.size > maxPairs) {
    invalidValue(
      field,
      maxPairs,
      `is exceeded: the broad phase found ${keys.size} candidate pairs (raise it to allow this)`,
    );
  }
  const result: [number, number][] = [];
  keys.forEach((i, j) => {
    const a = shapes[i];
    const b = shapes[j];
    let hit: boolean;
    try {
      hit = intersects(a.shape, a.pose, b.shape, b.pose);
    } catch (e) {
      // Name the entries in the caller's terms (`shapes[3].shape.radius`, not `b.radius`).
      if (e instanceof CollideError && e.code === "invalid_value") {
        checkEntry(shapes, i);
        checkEntry(shapes, j);
        throw renamePoses(e, i, j);
      }
      throw e;
    }
    if (hit) result.push([i, j]);
  });
  return result;
}

/**
 * Grows `box` by the world's rounding pad (`WORLD_AABB_ROUNDING_PAD` × its largest coordinate
 * magnitude), as the world's broad phase does: two shapes that touch exactly can get tight boxes
 * a few ulps apart, and the pair must still reach `intersects`, which decides (issue 16: `pairs`
 * agrees with `intersects`).
 */
function padForRounding(box: aabb.Aabb): void {
  const mn = box.min;
  const mx = box.max;
  const h =
    WORLD_AABB_ROUNDING_PAD *
    Math.max(
      Math.abs(mn.x),
      Math.abs(mn.y),
      Math.abs(mn.z),
      Math.abs(mx.x),
      Math.abs(mx.y),
      Math.abs(mx.z),
    );
  mn.x -= h;
  mn.y -= h;
  mn.z -= h;
  mx.x += h;
  mx.y += h;
  mx.z += h;
}

/**
 * `e` with the pair query's pose names (`poseA`, `poseB.translation`) given as the entries'
 * (`shapes[i].pose`, `shapes[j].pose.translation`), in its field and its message.
 */
function renamePoses(e: CollideError, i: number, j: number): CollideError {
  const rename = (text: string): string =>
    text.replace(/(?<![\w.\]])pose([AB])(?=\.translation\b|(?![\w.]))/g, (_m, ab: string) =>
      ab === "A" ? `shapes[${i}].pose` : `shapes[${j}].pose`,
    );
  return new CollideError(e.code, rename(e.field), e.value, rename(e.message));
}

/** Validates entry `i` of `shapes` (its shape, then its pose), naming `shapes[i].…`. */
function checkEntry(shapes: readonly { shape: Shape; pose: Isometry }[], i: number): void {
  checkShape(`shapes[${i}].shape`, shapes[i].shape);
  checkPose(`shapes[${i}].pose`, shapes[i].pose);
}
