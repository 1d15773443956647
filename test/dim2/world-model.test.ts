/**
 * Model test of `CollisionWorld2D` against a brute-force oracle (fast-check): random sequences
 * of `addBody`, `removeBody`, `setPose`, `setFilter` and `step` on every broad phase, with a
 * plain model beside the world — the live bodies (shape, pose, layer, mask, sensor, handle) and
 * the touching pairs of the last step. After every step the oracle tests every filtered pair of
 * live bodies by their exact boxes and `intersects2D` (the shape-level query, with no broad
 * phase, no cache and no world storage), and the world must report exactly:
 * - `begin` = touching now and not at the last step, `persist` = both, `end` = at the last step
 *   and not now (a removed body's pairs end with its old handle), each in ascending (a, b)
 *   handle order with the right sensor flags;
 * - `contactCount` = the touching pairs without a sensor, with contact records naming them in
 *   that order; `isTouching` for every live pair; `bodyCount` and `handles()`.
 * It also checks the handle contract of the shared world core: handles are never 0, a new body
 * never gets a handle that was ever issued before (stale handles stay stale), and slots of
 * removed bodies are reused (handles stay below (live bodies + removed-while-touching + 1) · 2^20).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { intersects2D } from "../../src/dim2/contact2.js";
import type { Pose2 } from "../../src/dim2/pose2.js";
import * as pose2 from "../../src/dim2/pose2.js";
import { aabbShape2, makeCircle, type Shape2 } from "../../src/dim2/shapes.js";
import {
  type BodyHandle2D,
  CollisionWorld2D,
  type World2DBroadPhase,
} from "../../src/dim2/world2.js";
import { poseArb, shapeArb } from "./arbitraries.js";

interface ModelBody {
  shape: Shape2;
  pose: Pose2;
  layer: number;
  mask: number;
  sensor: boolean;
  handle: BodyHandle2D;
}

type Op =
  | { kind: "add"; shape: Shape2; pose: Pose2; layer: number; mask: number; sensor: boolean }
  | { kind: "remove"; pick: number }
  | { kind: "move"; pick: number; pose: Pose2 }
  | { kind: "filter"; pick: number; layer: number; mask: number }
  | { kind: "step" };

const bits = fc.constantFrom(1, 2, 3, 0xffffffff);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      shape: shapeArb(0.6),
      pose: poseArb(3),
      layer: bits,
      mask: bits,
      sensor: fc.boolean().map((b) => b && Math.random() < 2),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), pose: poseArb(3) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("filter" as const),
      pick: fc.nat(),
      layer: bits,
      mask: bits,
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("step" as const) }) },
);

function boxTouch(a: ModelBody, b: ModelBody): boolean {
  const amin = { x: 0, y: 0 };
  const amax = { x: 0, y: 0 };
  const bmin = { x: 0, y: 0 };
  const bmax = { x: 0, y: 0 };
  aabbShape2(amin, amax, a.shape, a.pose);
  aabbShape2(bmin, bmax, b.shape, b.pose);
  return amin.x <= bmax.x && bmin.x <= amax.x && amin.y <= bmax.y && bmin.y <= amax.y;
}

/** The oracle's touching pairs "a,b" → sensor flag, handles ascending. */
function oracle(bodies: ModelBody[]): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (let i = 0; i < bodies.length; i++) {
    for (let j = i + 1; j < bodies.length; j++) {
      const [p, q] =
        bodies[i].handle < bodies[j].handle ? [bodies[i], bodies[j]] : [bodies[j], bodies[i]];
      if ((p.layer & q.mask) === 0 || (q.layer & p.mask) === 0) continue;
      // The world tests shapes where their exact boxes touch (rounding-level touching of shapes
      // whose boxes are apart is not a pair), as test/dim2/world.test.ts's oracle.
      if (boxTouch(p, q) && intersects2D(p.shape, p.pose, q.shape, q.pose)) {
        out.set(`${p.handle},${q.handle}`, p.sensor || q.sensor);
      }
    }
  }
  return out;
}

function sortedEvents(m: Map<string, boolean>, keys: string[]) {
  return keys
    .map((k) => {
      const [a, b] = k.split(",").map(Number);
      return { a, b, sensor: m.get(k) as boolean };
    })
    .sort((p, q) => p.a - q.a || p.b - q.b);
}

function run(bp: World2DBroadPhase, ops: Op[]): void {
  const world = new CollisionWorld2D({ broadphase: bp });
  let live: ModelBody[] = [];
  let prev = new Map<string, boolean>();
  const issued = new Set<number>();
  let removedSinceStep = 0;
  let peak = 0;
  for (const op of ops) {
    if (op.kind === "add") {
      const { kind: _kind, ...desc } = op; // addBody refuses keys that are not body fields
      const handle = world.addBody(desc);
      expect(handle).toBeGreaterThan(0);
      expect(issued.has(handle)).toBe(false);
      issued.add(handle);
      live.push({ ...op, handle });
    } else if (op.kind === "step") {
      world.step();
      const cur = oracle(live);
      const ev = world.events();
      const begin = [...cur.keys()].filter((k) => !prev.has(k));
      const persist = [...cur.keys()].filter((k) => prev.has(k));
      const end = [...prev.keys()].filter((k) => !cur.has(k));
      expect(ev.begin.toArray()).toEqual(sortedEvents(cur, begin));
      expect(ev.persist.toArray()).toEqual(sortedEvents(cur, persist));
      expect(ev.end.toArray()).toEqual(sortedEvents(prev, end));
      const contacts = sortedEvents(cur, [...cur.keys()]).filter((e) => !e.sensor);
      expect(world.contactCount).toBe(contacts.length);
      for (let i = 0; i < contacts.length; i++) {
        const c = world.readContact(i);
        expect([c.a, c.b]).toEqual([contacts[i].a, contacts[i].b]);
        expect(c.manifold.count).toBeGreaterThan(0);
      }
      for (let i = 0; i < live.length; i++) {
        for (let j = i + 1; j < live.length; j++) {
          const [p, q] = [live[i].handle, live[j].handle].sort((x, y) => x - y);
          expect(world.isTouching(p, q)).toBe(cur.has(`${p},${q}`));
        }
      }
      prev = cur;
      removedSinceStep = 0;
    } else if (live.length > 0) {
      const body = live[op.pick % live.length];
      if (op.kind === "remove") {
        world.removeBody(body.handle);
        expect(world.has(body.handle)).toBe(false);
        live = live.filter((b) => b !== body);
        removedSinceStep++;
      } else if (op.kind === "move") {
        world.setPose(body.handle, op.pose);
        body.pose = op.pose;
      } else {
        world.setFilter(body.handle, op.layer, op.mask);
        body.layer = op.layer;
        body.mask = op.mask;
      }
    }
    expect(world.bodyCount).toBe(live.length);
    peak = Math.max(peak, live.length + removedSinceStep);
  }
  expect(world.handles()).toEqual(live.map((b) => b.handle).sort((x, y) => x - y));
  // Slots are reused: no slot beyond the most bodies alive at once plus those removed since the
  // last step (a removed body's slot is held until its end events are out).
  const maxSlot = Math.max(-1, ...[...issued].map((h) => Math.floor(h / 2 ** 20) - 1));
  expect(maxSlot).toBeLessThan(Math.max(1, peak));
}

describe("CollisionWorld2D against a brute-force model", () => {
  it("a body added where a touching one was removed gets a new slot: end, then begin", () => {
    const circle = makeCircle(1);
    for (const bp of ["brute", "sap", "grid", "tree", "quadtree"] as World2DBroadPhase[]) {
      const ops: Op[] = [
        {
          kind: "add",
          shape: circle,
          pose: pose2.fromAngle(0, 0),
          layer: 1,
          mask: 1,
          sensor: false,
        },
        {
          kind: "add",
          shape: circle,
          pose: pose2.fromAngle(1, 0),
          layer: 1,
          mask: 1,
          sensor: false,
        },
        { kind: "step" },
        { kind: "remove", pick: 1 },
        {
          kind: "add",
          shape: circle,
          pose: pose2.fromAngle(1, 0),
          layer: 1,
          mask: 1,
          sensor: true,
        },
        { kind: "step" },
        { kind: "remove", pick: 0 },
        {
          kind: "add",
          shape: circle,
          pose: pose2.fromAngle(0, 0.5),
          layer: 1,
          mask: 1,
          sensor: false,
        },
        { kind: "step" },
        { kind: "step" },
      ];
      run(bp, ops);
    }
  });

  for (const bp of ["brute", "sap", "grid", "tree", "quadtree"] as World2DBroadPhase[]) {
    it(`${bp}: events, contacts, touching and handles after random operations`, () => {
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => run(bp, ops)),
        { numRuns: 40 },
      );
    });
  }
});
