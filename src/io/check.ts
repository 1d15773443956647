/**
 * The interference check behind `collide check`: every pair of scene bodies whose distance is at
 * most the prediction distance (default 0: touching or overlapping), with its contact manifold,
 * in the output format of shared/FORMATS.md.
 */
import { PairSet } from "../broadphase/pair-set.js";
import { invalidValue } from "../errors.js";
import * as aabb from "../math/aabb.js";
import { contact } from "../query/contact.js";
import { manifold } from "../query/manifold.js";
import type { BroadPhaseName } from "../query/pairs.js";
import { makeBroadPhase } from "../query/pairs.js";
import { aabbShape } from "../shapes/index.js";
import { arr } from "./query.js";
import type { Scene } from "./scene.js";
import { filtersAllow } from "./scene.js";

/** Options of {@link checkScene}. */
export interface CheckOptions {
  /** Broad phase to find candidate pairs; does not change the result. @default "brute" */
  broadphase: BroadPhaseName;
  /** Report pairs whose gap is at most this (≥ 0, scene units). @default 0 */
  prediction: number;
}

/** One reported pair of a check. */
export interface CheckPair {
  a: string;
  b: string;
  distance: number;
  normal: [number, number, number];
  points: {
    pointA: [number, number, number];
    pointB: [number, number, number];
    distance: number;
  }[];
}

/** The result of a check: pairs sorted by (a's index, b's index), and statistics that do not depend on the broad phase. */
export interface CheckResult {
  pairs: CheckPair[];
  stats: { bodies: number; candidatePairs: number; pairs: number };
  /** Wall time of the check, milliseconds (not part of the JSON output: it varies run to run). */
  ms: number;
}

/**
 * Checks every pair of bodies of `scene` that their layers and masks allow. Throws
 * `CollideError` for a negative prediction or an unsupported shape pair.
 */
export function checkScene(scene: Scene, options: Partial<CheckOptions> = {}): CheckResult {
  const prediction = options.prediction ?? 0;
  if (!(prediction >= 0) || !Number.isFinite(prediction)) {
    invalidValue("prediction", prediction, "must be a finite number ≥ 0");
  }
  const name = options.broadphase ?? "brute";
  const t0 = performance.now();
  const bp = makeBroadPhase(name);
  const box = aabb.empty();
  const half = prediction / 2;
  scene.bodies.forEach((b, i) => {
    aabbShape(box, b.shape, b.pose);
    // Grow each box by half the prediction so that pairs within it overlap in the broad phase.
    aabb.expandByMargin(box, box, half);
    bp.insert(i, box.min, box.max);
  });
  const candidates = bp.computePairs(new PairSet());
  const pairs: CheckPair[] = [];
  candidates.forEach((i, j) => {
    const A = scene.bodies[i];
    const B = scene.bodies[j];
    if (!filtersAllow(A.layer, A.mask, B.layer, B.mask)) return;
    const c = contact(A.shape, A.pose, B.shape, B.pose, prediction);
    if (!c) return;
    const m = manifold(A.shape, A.pose, B.shape, B.pose, prediction);
    const points = [];
    if (m) {
      for (let k = 0; k < m.count; k++) {
        const p = m.points[k];
        points.push({ pointA: arr(p.pointA), pointB: arr(p.pointB), distance: p.distance });
      }
    }
    pairs.push({ a: A.id, b: B.id, distance: c.distance, normal: arr(c.normal), points });
  });
  return {
    pairs,
    stats: {
      bodies: scene.bodies.length,
      candidatePairs: candidates.size,
      pairs: pairs.length,
    },
    ms: performance.now() - t0,
  };
}
