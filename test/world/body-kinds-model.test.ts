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
  | { t: "query"; pose: Isometry; size: number }
  | { t: "level"; n: number; y: number };

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
    // A small level at once: more static bodies in the move buffer than moving ones, and more
    // than the world clears one by one (body-kinds.ts `clearDirty`).
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("level" as const),
      n: fc.integer({ min: 65, max: 130 }),
      y: fc.double({ min: -2.5, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("query" as const),
      pose: fc.record({ translation: vec(-3, 3), rotation: unitQuat }),
      size: fc.double({ min: 0.1, max: 2, noNaN: true }),
    }),
  },
);

function makeShape(kind: number, size: number): Shape {
  if (kind === 0) return makeSphere(size);
  if (kind === 1) return makeCuboid(vec3.create(size, 0.7 * size, 0.5 * size));
  return makeHalfSpace(vec3.create(0, 1, 0), -2);
}

function clonePose(p: Isometry): Isometry {
  return iso.create(vec3.clone(p.translation), { ...p.rotation });
}

/** What the model knows of a live body. */
interface ModelBody {
  shape: Shape;
  pose: Isometry;
  kind: BodyKind;
  sensor: boolean;
  mask: number;
}

/**
 * The oracle: a fresh world (brute force, every body dynamic) holding the model's live bodies,
 * added in ascending handle (= slot) order so that every pair keeps its lower body as body A,
 * stepped once; `toWorld` maps its handles to the world's.
 */
function freshOracle(
  model: Map<number, ModelBody>,
  prediction: number,
): { oracle: CollisionWorld; toWorld: Map<number, number> } {
  const oracle = new CollisionWorld({ broadphase: "brute", prediction });
  const toWorld = new Map<number, number>();
  for (const h of [...model.keys()].sort((p, q) => p - q)) {
    const m = model.get(h) as ModelBody;
    const g = oracle.addBody({ shape: m.shape, pose: m.pose, sensor: m.sensor, mask: m.mask });
    toWorld.set(g, h);
  }
  oracle.step();
  return { oracle, toWorld };
}

/** Orders `a,b,…` strings by the pair `(a, b)` numerically (the world's event order). */
function byPair(p: string, q: string): number {
  const [pa, pb] = p.split(",").map(Number);
  const [qa, qb] = q.split(",").map(Number);
  return pa - qa || pb - qb;
}

function runModel(
  broadphase: WorldBroadPhase,
  sleepAfterSteps: number,
  prediction: number,
  ops: Op[],
): void {
  const world = new CollisionWorld({ broadphase, sleepAfterSteps, prediction });
  const model = new Map<number, ModelBody>();
  const live: BodyHandle[] = [];
  /** Kind of every handle ever added (handles are unique: generations). */
  const kindOf = new Map<number, BodyKind>();
  const staticPair = (a: number, b: number): boolean =>
    kindOf.get(a) === "static" && kindOf.get(b) === "static";
  /** Touching pairs of the last step, `a,b` → sensor, world handles. */
  let touching = new Map<string, boolean>();
  const pick = (i: number): BodyHandle | undefined =>
    live.length === 0 ? undefined : live[i % live.length];
  const move = (h: BodyHandle, p: Isometry): void => {
    world.setPose(h, p);
    (model.get(h) as ModelBody).pose = clonePose(p);
  };
  for (const op of ops) {
    switch (op.t) {
      case "add": {
        const shape = makeShape(op.shape, op.size);
        const sensor = op.shape === 2 ? false : op.sensor;
        const h = world.addBody({ shape, pose: op.pose, kind: op.kind, sensor });
        expect(world.getKind(h)).toBe(op.kind);
        live.push(h);
        kindOf.set(h, op.kind);
        model.set(h, { shape, pose: clonePose(op.pose), kind: op.kind, sensor, mask: 0xffffffff });
        break;
      }
      case "level": {
        // Unit-spaced cubes of side 1 in rows of 10: neighbours touch.
        const shape = makeCuboid(vec3.create(0.5, 0.5, 0.5));
        for (let i = 0; i < op.n; i++) {
          const p = iso.create(vec3.create((i % 10) - 4.5, op.y, Math.floor(i / 10) - 4.5), {
            x: 0,
            y: 0,
            z: 0,
            w: 1,
          });
          const h = world.addBody({ shape, pose: p, kind: "static" });
          live.push(h);
          kindOf.set(h, "static");
          model.set(h, {
            shape,
            pose: clonePose(p),
            kind: "static",
            sensor: false,
            mask: 0xffffffff,
          });
        }
        break;
      }
      case "move": {
        const h = pick(op.i);
        if (h === undefined) break;
        const p = (model.get(h) as ModelBody).pose;
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
        for (let j = 0; j < hs.length; j++) {
          const { translation: t, rotation: q } = op.poses[j];
          arr.set([t.x, t.y, t.z, q.x, q.y, q.z, q.w], 7 * j);
        }
        // A handle picked twice: refused, nothing moves (the model unchanged too).
        if (new Set(hs).size !== hs.length) {
          expect(() => world.setPoses(hs, arr)).toThrow(/repeats handles\[\d+\]/);
          break;
        }
        hs.forEach((h, j) => {
          (model.get(h) as ModelBody).pose = clonePose(op.poses[j]);
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
        model.delete(h);
        live.splice(live.indexOf(h), 1);
        break;
      }
      case "filter": {
        const h = pick(op.i);
        if (h === undefined) break;
        world.setFilter(h, 1, op.mask);
        (model.get(h) as ModelBody).mask = op.mask;
        break;
      }
      case "query": {
        const { oracle, toWorld } = freshOracle(model, prediction);
        const map = (hs: number[]): number[] =>
          hs.map((g) => toWorld.get(g) as number).sort((p, q) => p - q);
        const half = vec3.create(op.size, op.size, op.size);
        const min = vec3.sub(vec3.create(), op.pose.translation, half);
        const max = vec3.add(vec3.create(), op.pose.translation, half);
        expect(world.overlapAabb(min, max)).toEqual(map(oracle.overlapAabb(min, max)));
        const probe = makeSphere(op.size);
        expect(world.overlapShape(probe, op.pose)).toEqual(
          map(oracle.overlapShape(probe, op.pose)),
        );
        const dir = vec3.create(0.3, -1, 0.2);
        const hitW = castRayClosest(world, op.pose.translation, dir, 10);
        const hitO = castRayClosest(oracle, op.pose.translation, dir, 10);
        expect(hitW?.handle).toBe(hitO === null ? undefined : toWorld.get(hitO.handle));
        expect(hitW?.toi).toBe(hitO?.toi);
        break;
      }
      case "step": {
        world.step();
        const { oracle, toWorld } = freshOracle(model, prediction);
        const w = (g: number): number => toWorld.get(g) as number;
        // Pairs: the oracle's, in world handles, without static–static ones.
        const op2 = oracle.candidatePairs();
        const wantPairs: number[] = [];
        for (let i = 0; i < op2.length; i += 2) {
          const a = w(op2[i]);
          const b = w(op2[i + 1]);
          if (!staticPair(a, b)) wantPairs.push(a, b);
        }
        expect(world.candidatePairs()).toEqual(wantPairs);
        // Contacts, bitwise (same A/B roles: the oracle adds in handle order).
        const wantContacts = oracle
          .contacts()
          .map((c) => ({ ...c, a: w(c.a), b: w(c.b) }))
          .filter((c) => !staticPair(c.a, c.b));
        expect(world.contacts()).toEqual(wantContacts);
        // Events: the difference of the oracle's touching sets of this step and the last.
        const now = new Map<string, boolean>();
        for (const e of oracle.events().begin.toArray()) {
          const a = w(e.a);
          const b = w(e.b);
          if (!staticPair(a, b)) now.set(`${a},${b}`, e.sensor);
        }
        const want: string[][] = [[], [], []];
        for (const [k, sensor] of now) want[touching.has(k) ? 1 : 0].push(`${k},${sensor}`);
        for (const [k, sensor] of touching) if (!now.has(k)) want[2].push(`${k},${sensor}`);
        const ev = world.events();
        const got = [ev.begin, ev.persist, ev.end].map((l) =>
          l.toArray().map((e) => `${e.a},${e.b},${e.sensor}`),
        );
        expect(got).toEqual(want.map((l) => l.sort(byPair)));
        touching = now;
        // isTouching of every pair of live bodies (a level makes 10^4–10^5 of them: one expect,
        // no string per pair).
        const touchingOf = new Map<number, Set<number>>();
        for (const k of now.keys()) {
          const [a, b] = k.split(",").map(Number);
          const set = touchingOf.get(a) ?? new Set<number>();
          touchingOf.set(a, set.add(b));
        }
        const wrong: string[] = [];
        for (const h of live) {
          const set = touchingOf.get(h);
          for (const g of live) {
            if (h < g && world.isTouching(h, g) !== (set?.has(g) ?? false)) wrong.push(`${h},${g}`);
          }
        }
        expect(wrong).toEqual([]);
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

describe("CollisionWorld: a moving body added into the slot of a static body removed in the same step", () => {
  // A level's box removed before the step that would have listed it as a moved static body, and
  // its slot reused at once by a kinematic sphere touching a sleeping one: the sleeper does not
  // query, so the new sphere's own query must find it, although its slot was marked while static
  // (seed 20261201 path 55 of the model test found this in a move buffer with static slots listed
  // apart, never merged).
  const origin = iso.create(vec3.create(0, 0, 0), { x: 0, y: 0, z: 0, w: 1 });
  const ops: Op[] = [
    { t: "add", kind: "kinematic", shape: 0, size: 0.3, pose: origin, sensor: false },
    { t: "step" },
    { t: "sleep", i: 0 },
    { t: "level", n: 65, y: -2.5 },
    { t: "remove", i: 1 },
    { t: "add", kind: "kinematic", shape: 0, size: 0.4, pose: origin, sensor: false },
    { t: "step" },
    { t: "step" },
  ];
  for (const bp of ["tree", "grid", "sap", "brute", "octree"] as const) {
    it(`${bp}: the new sphere pairs with the sleeping one`, () => {
      for (const sleepAfter of [0, 3]) runModel(bp, sleepAfter, 0, ops);
    });
  }
});
