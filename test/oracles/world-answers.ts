/**
 * A world's answers of its last step as plain values, for tests that compare two worlds bitwise
 * (one thread against a `WorkerExecutor`, the GPU broad phase against `"grid"`): the events and
 * every double of the contacts, compared with `Object.is` (so −0 ≠ 0 and NaN = NaN).
 */
import { expect } from "vitest";
import type { CollisionWorld, WorldEvents } from "../../src/world/index.js";

/** The begin, persist and end pairs of `e`. */
export function eventsOf(e: WorldEvents): unknown {
  return { begin: e.begin.toArray(), persist: e.persist.toArray(), end: e.end.toArray() };
}

/** Every double of the last step's contacts, in order. */
export function contactDoubles(w: CollisionWorld): number[] {
  const out: number[] = [];
  for (const c of w.contacts()) {
    out.push(c.a, c.b, c.distance, c.manifold.normal.x, c.manifold.normal.y, c.manifold.normal.z);
    out.push(c.manifold.count);
    for (let i = 0; i < c.manifold.count; i++) {
      const p = c.manifold.points[i];
      out.push(p.pointA.x, p.pointA.y, p.pointA.z, p.pointB.x, p.pointB.y, p.pointB.z);
      out.push(p.distance, p.featureId);
    }
  }
  return out;
}

/** Expects `b` to hold the doubles of `a`, bit for bit (`Object.is`), and as many. */
export function expectSameDoubles(a: number[], b: number[]): void {
  expect(b.length).toBe(a.length);
  let mismatches = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) mismatches++;
  expect(mismatches).toBe(0);
}
