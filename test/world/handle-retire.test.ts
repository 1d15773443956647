/**
 * Handles never repeat (session 38's fresh-user attack, item 5): a body id's generation counts
 * its removals modulo 2^20 (src/world/handles.ts), so after 2^20 remove/add cycles on one slot
 * the next body got the first body's handle again, and a handle kept from the start named a new
 * body. An id whose generation wraps is now retired (src/world/core/slot-store.ts, `release`):
 * the slot is reused with a fresh id. Checked on the slot store over the whole 2^20 + 3 cycles
 * against the set of every handle handed out, and on the 3D and 2D worlds with the id's
 * generation moved to its last value (the store's counter, as 2^20 removals would leave it):
 * no repeat, every old handle stale, and the body in the reused slot found by its new handle in
 * the world's begin events (hand-derived: two unit balls 1.5 apart touch).
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { CollisionWorld, dim2, isometry, makeSphere } from "../../src/index.js";
import { FLAG_ALIVE, SlotStore } from "../../src/world/core/slot-store.js";
import { HANDLE_GENERATION_BASE } from "../../src/world/handles.js";

/** The world's slot store (private), for moving an id's generation to its last value. */
interface Store {
  generation: Uint32Array;
  idOfSlot: Int32Array;
  slotOf(h: number): number;
  idCount: number;
  freeIdCount: number;
}
const storeOf = (w: object): Store => (w as unknown as { bodies: Store }).bodies;

describe("an id is retired when its generation wraps", () => {
  it("slot store: 2^20 + 3 kill/allocate cycles on one slot give no handle twice", () => {
    const s = new SlotStore<number>(7, 6);
    const keepSlot = s.allocate();
    s.flags[keepSlot] = FLAG_ALIVE;
    const keep = s.handleOf(keepSlot);
    const firstSlot = s.allocate();
    const first = s.handleOf(firstSlot);
    const seen = new Set<number>([keep, first]);
    let slot = firstSlot;
    let repeats = 0;
    for (let i = 0; i < HANDLE_GENERATION_BASE + 3; i++) {
      s.kill(slot);
      slot = s.allocate();
      s.flags[slot] = FLAG_ALIVE; // as the world marks a body it adds
      const h = s.handleOf(slot);
      if (seen.has(h)) repeats++;
      seen.add(h);
    }
    expect(repeats).toBe(0);
    expect(slot).toBe(firstSlot); // the slot is reused, with a fresh id
    expect(s.slotOf(first)).toBe(-1);
    expect(s.slotOf(s.handleOf(slot))).toBe(slot);
  });

  it("3D world: the body after the wrap has a new handle; the old ones stay stale", () => {
    const w = new CollisionWorld();
    const keep = w.addBody({ shape: makeSphere(1), pose: isometry.identity() });
    const far = isometry.create({ x: 10, y: 0, z: 0 });
    const first = w.addBody({ shape: makeSphere(1), pose: far });
    const store = storeOf(w);
    const id = store.idOfSlot[store.slotOf(first)];
    w.removeBody(first);
    const second = w.addBody({ shape: makeSphere(1), pose: far });
    // As 2^20 − 2 more cycles would leave it: the live body's id at its last generation.
    store.generation[id] = HANDLE_GENERATION_BASE - 1;
    const last = (first + HANDLE_GENERATION_BASE - 1) as typeof first;
    expect(w.has(last)).toBe(true);
    w.removeBody(last);
    const h = w.addBody({ shape: makeSphere(1), pose: far });
    for (const old of [first, second, last]) {
      expect(h).not.toBe(old);
      expect(w.has(old)).toBe(false);
    }
    w.setPose(h, isometry.create({ x: 1.5, y: 0, z: 0 }));
    w.step();
    const begin = w.events().begin;
    expect(begin.count).toBe(1);
    expect([begin.a(0), begin.b(0)].sort()).toEqual([keep, h].sort());
    expect(w.isTouching(keep, h)).toBe(true);
  });

  it("2D world: the same", () => {
    const w = new dim2.CollisionWorld2D();
    const c = dim2.makeCircle(1);
    const keep = w.addBody({ shape: c, pose: dim2.pose2.fromAngle(0, 0) });
    const first = w.addBody({ shape: c, pose: dim2.pose2.fromAngle(10, 0) });
    const store = storeOf(w);
    const id = store.idOfSlot[store.slotOf(first)];
    store.generation[id] = HANDLE_GENERATION_BASE - 1;
    const last = (first + HANDLE_GENERATION_BASE - 1) as typeof first;
    w.removeBody(last);
    const h = w.addBody({ shape: c, pose: dim2.pose2.fromAngle(10, 0) });
    expect(h).not.toBe(first);
    expect(w.has(first)).toBe(false);
    expect(w.has(last)).toBe(false);
    w.setPose(h, dim2.pose2.fromAngle(1.5, 0));
    w.step();
    expect(w.isTouching(keep, h)).toBe(true);
    expect(w.events().begin.count).toBe(1);
  });

  it("a world whose ids are used up refuses addBody naming body, unchanged", () => {
    const w = new CollisionWorld();
    const keep = w.addBody({ shape: makeSphere(1), pose: isometry.identity() });
    // Reaching the end takes 2^46 removals: the store's id counter is set there instead.
    const store = storeOf(w);
    expect(store.freeIdCount).toBe(0);
    store.idCount = 2 ** 26;
    let err: unknown;
    try {
      w.addBody({ shape: makeSphere(1), pose: isometry.identity() });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CollideError);
    expect((err as CollideError).field).toBe("body");
    expect(w.bodyCount).toBe(1);
    expect(w.has(keep)).toBe(true);
  });
});
