/**
 * The pair table with its default registrations installed: loading this module calls
 * `registerDefaultPairs()` (src/narrowphase/default-pairs.ts: capability dispatch — support-mapped
 * pairs → GJK/EPA, composites → the generic composite mid-phase — with the specialised pairs as
 * overrides). The main entry (`collide`), `collide/node`, the world's module, the worker threads
 * and the CLI import it for that effect; package.json lists it under `sideEffects`, so bundlers
 * keep those imports. `collide/core` does not import it.
 */
import { isSupportMappedType } from "../shapes/registry.js";
import type { ShapeType } from "../shapes/shape.js";
import "../query/guard-range.js";
import { registerDefaultPairs } from "./default-pairs.js";

registerDefaultPairs();

// The table's dispatchers, for callers that want the defaults installed by the import itself.
export {
  contactPair,
  distancePair,
  hasPairRoutine,
  intersectsPair,
  manifoldPair,
  registerPair,
} from "./pair-table.js";

/**
 * True when `type` has a support function (GJK/EPA applies): the shape definitions' table
 * (src/shapes/registry.ts), so the world's validation and the dispatch agree by construction.
 */
export function isConvexType(type: ShapeType): boolean {
  return isSupportMappedType(type);
}
