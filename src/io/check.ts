/**
 * The interference check behind `collide check`: every pair of scene bodies whose distance is at
 * most the prediction distance (default 0: touching or overlapping), with its contact manifold,
 * in the output format of docs/FORMATS.md. It runs on the collision world: the scene's bodies
 * are added in file order (so handle order is scene order) with their poses in the scene's
 * local frame (`Scene.origin`: the points are moved back to the world frame), one `step()` runs
 * the broad phase, the layer/mask filter and the narrow phase, and the world's contacts are the
 * pairs. Every broad phase gives the same pairs, numbers and statistics, bit for bit.
 */
import { WORLD_MAX_COORDINATE, WORLD_MAX_PAIRS } from "../constants.js";
import { CollideError, checkOptions, describeValue, invalidValue, optionsSpec } from "../errors.js";
import type { BroadPhaseName } from "../query/pairs.js";
import { CollisionWorld } from "../world/collision-world.js";
import { makeWorldContact } from "../world/contact-cache.js";
import type { BodyHandle } from "../world/handles.js";
import { arrAt } from "./local-frame.js";
import { arr } from "./query.js";
import type { Scene } from "./scene.js";

/** Options of {@link checkScene}. */
export interface CheckOptions {
  /** Broad phase to find candidate pairs; does not change the result. @default "brute" */
  broadphase: BroadPhaseName;
  /** Report pairs whose gap is at most this (≥ 0, scene units). @default 0 */
  prediction: number;
  /**
   * Most candidate pairs the broad phase may find before the check is refused (the world's
   * `maxPairs`; `collide check --max-pairs N`). @default WORLD_MAX_PAIRS = 2^21 pairs
   */
  maxPairs: number;
}

const CHECK_SPEC = optionsSpec("checkScene", "options", {
  broadphase: "string",
  prediction: "number",
  maxPairs: "number",
});

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
 * Checks every pair of bodies of `scene` that their layers and masks allow, on a
 * `CollisionWorld` with the chosen broad phase and prediction distance. `candidatePairs` counts
 * the broad phase's pairs (boxes grown by half the prediction), before the layer/mask filter.
 * Throws `CollideError` for a scene that is not one (no `bodies` array), an unknown option, a
 * negative or non-finite prediction, an unknown broad phase or an unsupported shape.
 */
export function checkScene(scene: Scene, options: Partial<CheckOptions> = {}): CheckResult {
  checkOptions(options, CHECK_SPEC);
  if (
    scene === null ||
    typeof scene !== "object" ||
    !Array.isArray(scene.bodies) ||
    (scene.origin !== undefined && !Array.isArray(scene.origin))
  ) {
    invalidValue(
      "scene",
      scene,
      "must be a scene made by parseScene or loadScene ({ bodies: [...], origin? })",
    );
  }
  const prediction = options.prediction ?? 0;
  if (!(prediction >= 0) || !Number.isFinite(prediction)) {
    invalidValue("prediction", prediction, "must be a finite number ≥ 0");
  }
  const maxPairs = options.maxPairs ?? WORLD_MAX_PAIRS;
  if (!(Number.isInteger(maxPairs) && maxPairs >= 1)) {
    invalidValue("maxPairs", maxPairs, "must be an integer ≥ 1");
  }
  const name = options.broadphase ?? "brute";
  const t0 = performance.now();
  // No spatial reordering of the slots: one step would not repay it, and the pairs keep scene
  // order with the lower scene index first (docs/FORMATS.md).
  const world = new CollisionWorld({
    broadphase: name,
    prediction,
    maxPairs,
    reorderSlotsAt: Number.POSITIVE_INFINITY,
  });
  const index = new Map<BodyHandle, number>();
  scene.bodies.forEach((b, i) => {
    let h: BodyHandle;
    try {
      h = world.addBody({ shape: b.shape, pose: b.pose, layer: b.layer, mask: b.mask });
    } catch (e) {
      // The world refuses a body whose box leaves its bound by the pose it was given, which
      // the scene file does not have (its shapes are posed by their own fields, and the pose is
      // in the scene's local frame): name the body's shape and its position in the world.
      if (e instanceof CollideError && e.field === "body.pose.translation") {
        const t = b.pose.translation;
        const o = scene.origin ?? [0, 0, 0];
        const at = [t.x + o[0], t.y + o[1], t.z + o[2]];
        throw new CollideError(
          e.code,
          `bodies[${i}].shape`,
          at,
          `bodies[${i}].shape (id ${JSON.stringify(b.id)}) puts the body's AABB (padded for rounding) out of range: its coordinates must lie within ±${WORLD_MAX_COORDINATE} (got a shape posed at ${describeValue(at)})`,
        );
      }
      // A shape that reaches past the bound from its own origin (no position could place it):
      // the world's reason under the scene's field, with the body's id, quoting the shape as the
      // scene wrote it (the world quotes the library's shape: a "cuboid" for an "aabb", a
      // sphere without its centre).
      if (e instanceof CollideError && e.field === "body.shape") {
        const field = `bodies[${i}].shape`;
        const value = b.shapeJson ?? e.value;
        const got = ` (got ${describeValue(e.value)})`;
        const reason = e.message.endsWith(got)
          ? e.message.slice(e.field.length, -got.length)
          : e.message.slice(e.field.length);
        const message = `${field} (id ${JSON.stringify(b.id)})${reason} (got ${describeValue(value)})`;
        throw new CollideError(e.code, field, value, message);
      }
      // The world names its argument "body…": name the scene's body instead.
      if (e instanceof CollideError && e.field.startsWith("body")) {
        const field = `bodies[${i}]${e.field.slice(4)}`;
        const message = e.message.startsWith(e.field)
          ? field + e.message.slice(e.field.length)
          : `${field}: ${e.message}`;
        throw new CollideError(e.code, field, e.value, message);
      }
      throw e;
    }
    index.set(h, i);
  });
  try {
    world.step();
  } catch (e) {
    // The world names its option; the check's is `maxPairs`.
    if (e instanceof CollideError && e.field === "options.maxPairs") {
      throw new CollideError(
        e.code,
        "maxPairs",
        e.value,
        `maxPairs${e.message.slice("options.maxPairs".length)}`,
      );
    }
    throw e;
  }
  const pairs: CheckPair[] = [];
  // The bodies are posed in the scene's local frame (src/io/scene.ts): points go back by +origin.
  const origin = scene.origin ?? null;
  const c = makeWorldContact();
  for (let i = 0; i < world.contactCount; i++) {
    world.readContact(i, c);
    const m = c.manifold;
    const points = [];
    for (let k = 0; k < m.count; k++) {
      const p = m.points[k];
      points.push({
        pointA: arrAt(p.pointA, origin),
        pointB: arrAt(p.pointB, origin),
        distance: p.distance,
      });
    }
    pairs.push({
      a: scene.bodies[index.get(c.a) as number].id,
      b: scene.bodies[index.get(c.b) as number].id,
      distance: c.distance,
      normal: arr(m.normal),
      points,
    });
  }
  return {
    pairs,
    stats: {
      bodies: scene.bodies.length,
      candidatePairs: world.stats.candidatePairs,
      pairs: pairs.length,
    },
    ms: performance.now() - t0,
  };
}
