/**
 * Generational body handles (Box2D v3's `b2BodyId`, slotmap keys in Rust engines).
 *
 * A {@link BodyHandle} packs a body id and that id's generation into one integer double:
 * `handle = (id + 1) · 2^20 + generation`. The id maps to the body's slot — its index in the
 * world's structure-of-arrays storage and its broad-phase proxy id — through the slot store
 * (src/world/core/slot-store.ts), so the world may move a body to another slot (the 3D world's
 * spatial reordering) without changing its handle; an id and a slot are taken and freed
 * together, so they are equal until the world reorders its slots. The generation is bumped every
 * time the body is removed, so a handle kept after `removeBody` is recognised as stale even when
 * the id has been reused. Consequences of the layout:
 *
 * - 0 is never a valid handle (id + 1 ≥ 1), so 0 can mean "no body";
 * - until the world reorders its slots (or retires an id, below), ascending handle order is
 *   ascending slot order, which is the order of the broad phase's packed pairs; the world's
 *   `(lower handle, higher handle)` pair order therefore costs no extra sort (after a
 *   reordering pairs follow slot order);
 * - handles are integers below 2^46 (ids below 2^26, the broad phase's id limit), exact in a
 *   double and usable as `Map` keys;
 * - an id's generation would wrap after 2^20 removals; the id is then retired (never given to
 *   another body: src/world/core/slot-store.ts), so a handle kept however long never names
 *   another body (Box2D's 16-bit revision wraps and can; a world runs out of ids only after
 *   2^46 removals, and then `addBody` refuses). A body given a fresh id in a reused slot
 *   breaks "ascending handle order is slot order" as a reordering does.
 */

import { MAX_PROXY_ID } from "../broadphase/pair-set.js";

/** A body of a {@link CollisionWorld}: a branded integer (id + generation), never 0. */
export type BodyHandle = number & { readonly __brand: "BodyHandle" };

/** Number of generations a slot goes through before its handles repeat (2^20). */
export const HANDLE_GENERATION_BASE = 2 ** 20;

/** Largest slot a world can hold: the broad phase's largest proxy id (2^26 − 1). */
export const MAX_BODY_SLOT = MAX_PROXY_ID;

/** The handle of body id `id` at `generation` (no validation). */
export function packHandle(id: number, generation: number): BodyHandle {
  return ((id + 1) * HANDLE_GENERATION_BASE + generation) as BodyHandle;
}

/**
 * The body id of a well-formed handle (no validation): `floor(handle / 2^20) − 1`. The id is the
 * body's slot until the world reorders its slots (src/world/core/slot-store.ts).
 */
export function handleSlot(handle: number): number {
  return Math.floor(handle / HANDLE_GENERATION_BASE) - 1;
}

/** The generation of a well-formed handle (no validation): `handle mod 2^20`. */
export function handleGeneration(handle: number): number {
  return handle - Math.floor(handle / HANDLE_GENERATION_BASE) * HANDLE_GENERATION_BASE;
}

/** True when `h` has the shape of a handle: a positive integer below 2^46 (says nothing of liveness). */
export function isHandleShaped(h: unknown): h is BodyHandle {
  return (
    typeof h === "number" &&
    Number.isInteger(h) &&
    h >= HANDLE_GENERATION_BASE &&
    h < (MAX_BODY_SLOT + 2) * HANDLE_GENERATION_BASE
  );
}
