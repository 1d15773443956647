/**
 * The options every collision world shares, written once for the 3D `CollisionWorld` and the 2D
 * `CollisionWorld2D`: the broad phase chosen by name, and the checks of the prediction distance,
 * the tree's fat-AABB margin and the candidate-pair limit.
 */
import { type BroadPhase, isBroadPhase } from "../../broadphase/broad-phase.js";
import { type BroadPhaseKind, createBroadPhase } from "../../broadphase/by-name.js";
import { invalidValue } from "../../errors.js";

/** A broad phase's name (src/broadphase/by-name.ts). */
export type BroadPhaseName = BroadPhaseKind;

/**
 * A new, empty broad phase named `name`, one of `names` (the world's list, in the order its
 * error message gives them); with `allowInstance`, an empty {@link BroadPhase} instance is taken
 * as it is. `margin` is the tree's fat-AABB margin, scene units. Throws `CollideError` naming
 * `options.broadphase` for any other value.
 */
export function makeNamedBroadPhase(
  name: unknown,
  margin: number,
  names: readonly BroadPhaseName[],
  allowInstance: boolean,
): BroadPhase {
  if (allowInstance && typeof name === "object" && name !== null) {
    if (!isBroadPhase(name)) {
      return invalidValue("options.broadphase", name, "must be a broad-phase name or a BroadPhase");
    }
    if (name.size !== 0) {
      return invalidValue("options.broadphase", name.size, "must be an empty BroadPhase (size 0)");
    }
    return name;
  }
  if (names.includes(name as BroadPhaseName))
    return createBroadPhase(name as BroadPhaseName, margin);
  const quoted = names.map((n) => `"${n}"`);
  const list = allowInstance
    ? `${quoted.join(", ")} or a BroadPhase instance`
    : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
  return invalidValue("options.broadphase", name, `must be ${list}`);
}

/**
 * Throws `CollideError` naming the option unless `prediction` and `aabbMargin` are finite
 * numbers ≥ 0 (scene units) and `maxPairs` an integer ≥ 1.
 */
export function checkWorldOptionValues(o: {
  prediction: unknown;
  aabbMargin: unknown;
  maxPairs: unknown;
}): void {
  if (!(Number.isInteger(o.maxPairs) && (o.maxPairs as number) >= 1)) {
    invalidValue("options.maxPairs", o.maxPairs, "must be an integer >= 1");
  }
  if (!(typeof o.prediction === "number" && Number.isFinite(o.prediction) && o.prediction >= 0)) {
    invalidValue("options.prediction", o.prediction, "must be a finite number >= 0");
  }
  if (!(typeof o.aabbMargin === "number" && Number.isFinite(o.aabbMargin) && o.aabbMargin >= 0)) {
    invalidValue("options.aabbMargin", o.aabbMargin, "must be a finite number >= 0");
  }
}
