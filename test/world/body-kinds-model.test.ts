/**
 * Model test of the world's body kinds, move buffer, persistent pairs, sleeping and setPoses:
 * random sequences of operations — adds of every kind (static, kinematic, dynamic; sensors;
 * a static or moving ground plane), small moves, teleports, bulk `setPoses`, sleeps, wakes,
 * filter changes, removals and steps — run on the world under test and, at the same time, on
 * an oracle world that recomputes everything from scratch every step: the brute-force broad
 * phase, every body dynamic, nothing asleep, no move buffer. The documented difference — two
 * static bodies are never paired — is given to the oracle as a layer and mask (its "static"
 * bodies on a layer their masks exclude; so no static–static pair touches there either, and
 * both worlds free and reuse the same slots, giving the same handles) and its static–static
 * candidate pairs are dropped from its answer. After every step the pairs, contacts (bitwise)
 * and begin/persist/end events must be equal. (Sleeping
 * changes nothing: a body that does not move gives the same results asleep or awake.) World
 * queries (box overlap, ray) must see static bodies as the oracle sees them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeCuboid, makeHalfSpace, makeSphere } from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import {
  type BodyHandle,
  type BodyKind,
  CollisionWorld,
  castRayClosest,
  type WorldBroadPhase,
} from "../../src/world/index.js";
import { pose, unitQuat, vec } from "../oracles/arbitraries.js";

type Op =
  | {
      t: "add";
      kind: BodyKind;
      shape: number;
      size: number;
      pose: Isometry;
      sensor: boolean;
    }
  | { t: "move"; i: number; d: { x: number; y: number; z: number } }
  | { t: "teleport"; i: number; pose: Isometry }
  | { t: "poses"; picks: number[]; poses: Isometry[] }
  | { t: "sleep"; i: number }
  | { t: "wake"; i: number }
  | { t: "remove"; i: number }
  | { t: "filter"; i: number; mask: number }
  | { t: "step" }
  | { t: "query"; pose: Isometry; size: number };

const kindArb = fc.constantFrom<BodyKind>("static", "static", "kinematic", "dynamic");
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant("add" as const),
      kind: kindArb,
      shape: fc.constantFrom(0, 0, 1, 1, 1, 2),
      size: fc.double({ min: 0.2, max: 1.2, noNaN: true }),
      pose: pose(-2.5, 2.5),
      sensor: fc.constantFrom(false, false, false, true),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ t: fc.constant("move" as const), i: fc.nat(), d: vec(-0.3, 0.3) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("teleport" as const),
      i: fc.nat(),
      pose: fc.oneof(pose(-2.5, 2.5), pose(500, 501)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant("poses" as const),
      picks: fc.array(fc.nat(), { minLength: 0, maxLength: 5 }),
      poses: fc.array(pose(-2.5, 2.5), { minLength: 5, maxLength: 5 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("sleep" as const), i: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("wake" as const), i: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("remove" as const), i: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("filter" as const),
      i: fc.nat(),
      mask: fc.constantFrom(0, 1, 0xffffffff),
    }),
  },
  { weight: 5, arbitrary: fc.constant({ t: "step" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("query" as const),
      pose: fc.record({ translation: vec(-3, 3), rotation: unitQuat }),
      size: fc.double({ min: 0.1, max: 2, noNaN: true }),
    }),
  },
);

/** The oracle's layer of the bodies that are static in the world under test. */
const STATIC_LAYER = 2;

function makeShape(kind: number, size: number): Shape {
  if (kind === 0) return makeSphere(size);
  if (kind === 1) return makeCuboid(vec3.create(size, 0.7 * size, 0.5 * size));
  return makeHalfSpace(vec3.create(0, 1, 0), -2);
}

/** Event lists as `a,b,sensor` strings, without static–static pairs. */
function eventStrings(w: CollisionWorld, both: (a: number, b: number) => boolean): string[][] {
  const ev = w.events();
  return [ev.begin, ev.persist, ev.end].map((l) =>
    l
      .toArray()
      .filter((e) => !both(e.a, e.b))
      .map((e) => `${e.a},${e.b},${e.sensor}`),
  );
}

function runModel(
  broadphase: WorldBroadPhase,
  sleepAfterSteps: number,
  prediction: number,
  ops: Op[],
): void {
  const world = new CollisionWorld({ broadphase, sleepAfterSteps, prediction });
  const oracle = new CollisionWorld({ broadphase: "brute", prediction });
  const live: BodyHandle[] = [];
  /** Kind of every handle ever added (handles are unique: generations). */
  const kindOf = new Map<number, BodyKind>();
  const staticPair = (a: number, b: number): boolean =>
    kindOf.get(a) === "static" && kindOf.get(b) === "static";
  const pick = (i: number): BodyHandle | undefined =>
    live.length === 0 ? undefined : live[i % live.length];
  const move = (h: BodyHandle, p: Isometry): void => {
    world.setPose(h, p);
    oracle.setPose(h, p);
  };
  for (const op of ops) {
    switch (op.t) {
      case "add": {
        const shape = makeShape(op.shape, op.size);
        // A half-space cannot be a sensor of interest here; keep it a plain body.
        const sensor = op.shape === 2 ? false : op.sensor;
        const h = world.addBody({ shape, pose: op.pose, kind: op.kind, sensor });
        const st = op.kind === "static";
        const g = oracle.addBody({
          shape,
          pose: op.pose,
          sensor,
          layer: st ? STATIC_LAYER : 1,
          mask: st ? 1 : 1 | STATIC_LAYER,
        });
        expect(g).toBe(h);
        expect(world.getKind(h)).toBe(op.kind);
        live.push(h);
        kindOf.set(h, op.kind);
        break;
      }
      case "move": {
        const h = pick(op.i);
        if (h === undefined) break;
        const p = world.getPose(h);
        if (Math.abs(p.translation.x) > 100) break;
        move(h, iso.create(vec3.add(vec3.create(), p.translation, op.d), p.rotation));
        expect(world.isSleeping(h)).toBe(false);
        break;
      }
      case "teleport": {
        const h = pick(op.i);
        if (h !== undefined) move(h, op.pose);
        break;
      }
      case "poses": {
        if (live.length === 0) break;
        const hs = op.picks.map((i) => live[i % live.length]);
        const arr = new Float64Array(7 * hs.length);
        hs.forEach((h, j) => {
          const p = op.poses[j];
          arr.set(
            [
              p.translation.x,
              p.translation.y,
              p.translation.z,
              p.rotation.x,
              p.rotation.y,
              p.rotation.z,
              p.rotation.w,
            ],
            7 * j,
          );
          oracle.setPose(h, p);
        });
        world.setPoses(hs, arr);
        for (const h of hs) expect(world.isSleeping(h)).toBe(false);
        break;
      }
      case "sleep": {
        const h = pick(op.i);
        if (h === undefined || kindOf.get(h) === "static") break;
        world.sleep(h);
        expect(world.isSleeping(h)).toBe(true);
        break;
      }
      case "wake": {
        const h = pick(op.i);
        if (h === undefined || kindOf.get(h) === "static") break;
        world.wake(h);
        expect(world.isSleeping(h)).toBe(false);
        break;
      }
      case "remove": {
        const h = pick(op.i);
        if (h === undefined) break;
        world.removeBody(h);
        oracle.removeBody(h);
        live.splice(live.indexOf(h), 1);
        break;
      }
      case "filter": {
        const h = pick(op.i);
        if (h === undefined) break;
        world.setFilter(h, 1, op.mask);
        const on = (op.mask & 1) !== 0;
        if (kindOf.get(h) === "static") oracle.setFilter(h, STATIC_LAYER, on ? 1 : 0);
        else oracle.setFilter(h, 1, on ? 1 | STATIC_LAYER : 0);
        break;
      }
      case "query": {
        const half = vec3.create(op.size, op.size, op.size);
        const min = vec3.sub(vec3.create(), op.pose.translation, half);
        const max = vec3.add(vec3.create(), op.pose.translation, half);
        expect(world.overlapAabb(min, max)).toEqual(oracle.overlapAabb(min, max));
        const probe = makeSphere(op.size);
        expect(world.overlapShape(probe, op.pose)).toEqual(oracle.overlapShape(probe, op.pose));
        const dir = vec3.create(0.3, -1, 0.2);
        const hitW = castRayClosest(world, op.pose.translation, dir, 10);
        const hitO = castRayClosest(oracle, op.pose.translation, dir, 10);
        expect(hitW?.handle).toBe(hitO?.handle);
        expect(hitW?.toi).toBe(hitO?.toi);
        break;
      }
      case "step": {
        world.step();
        oracle.step();
        const wp = world.candidatePairs();
        const op2 = oracle.candidatePairs();
        const wantPairs: number[] = [];
        for (let i = 0; i < op2.length; i += 2) {
          if (!staticPair(op2[i], op2[i + 1])) wantPairs.push(op2[i], op2[i + 1]);
        }
        expect(wp).toEqual(wantPairs);
        const wantContacts = oracle.contacts().filter((c) => !staticPair(c.a, c.b));
        expect(world.contacts()).toEqual(wantContacts);
        expect(eventStrings(world, staticPair)).toEqual(eventStrings(oracle, staticPair));
        for (const h of live) {
          for (const g of live) {
            if (h < g && !staticPair(h, g)) {
              expect(world.isTouching(h, g)).toBe(oracle.isTouching(h, g));
            }
          }
        }
        expect(world.stats.sleepingBodies).toBe(live.filter((h) => world.isSleeping(h)).length);
        break;
      }
    }
  }
}

describe("CollisionWorld kinds, move buffer and sleep equal a from-scratch brute-force world", () => {
  for (const bp of ["tree", "grid", "sap", "brute", "octree"] as const) {
    it(`${bp}: random adds of every kind, moves, teleports, setPoses, sleeps, wakes, removes`, () => {
      fc.assert(
        fc.property(
          fc.array(opArb, { minLength: 10, maxLength: 80 }),
          fc.constantFrom(0, 0, 1, 3),
          fc.constantFrom(0, 0.1),
          (ops, sleepAfter, prediction) => {
            runModel(bp, sleepAfter, prediction, [...ops, { t: "step" }, { t: "step" }]);
          },
        ),
        { numRuns: 60 },
      );
    });
  }
});
