/**
 * The collision world against an independent model: every operation sequence (add, move,
 * remove, change filter, step) is replayed on four worlds (one per broad phase) and on a model
 * written here — a plain array of bodies, an O(n²) scan over all live pairs with the layer/mask
 * rule, and the shape-level queries (`intersects` for sensor pairs, `contact` with the
 * prediction distance otherwise) as the narrow-phase oracle, with begin/persist/end computed by
 * set differences. Scenes are drawn on an integer lattice part of the time (spheres of radius
 * 0.5 and unit boxes at integer positions touch exactly), at scales 1e-3 … 1e4 and 1e6 from
 * the origin. The four worlds must agree bit for bit, and with the model exactly on the pair
 * sets, the events and the contact distances.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { intersects } from "../../src/query/intersects.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import {
  type BodyHandle,
  CollisionWorld,
  type WorldBroadPhase,
  type WorldContact,
} from "../../src/world/index.js";

const BROAD_PHASES: WorldBroadPhase[] = ["brute", "sap", "grid", "tree", "octree"];

function pose(x: number, y: number, z: number, q?: Quat): Isometry {
  return iso.create({ x, y, z }, q);
}

// ---------------------------------------------------------------------------------------------
// Operation sequences
// ---------------------------------------------------------------------------------------------

type ShapeSpec = { kind: 0 | 1 | 2; size: number };
type Op =
  | {
      op: "add";
      shape: ShapeSpec;
      at: [number, number, number];
      rot: Quat;
      layer: number;
      mask: number;
      sensor: boolean;
    }
  | { op: "move"; target: number; at: [number, number, number]; rot: Quat }
  | { op: "remove"; target: number }
  | { op: "filter"; target: number; layer: number; mask: number }
  | { op: "step" };

interface Scenario {
  scale: number;
  offset: number;
  prediction: number;
  ops: Op[];
}

const IDENTITY: Quat = { x: 0, y: 0, z: 0, w: 1 };

const quatArb: fc.Arbitrary<Quat> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(IDENTITY) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.integer({ min: -8, max: 8 }),
        fc.integer({ min: -8, max: 8 }),
        fc.integer({ min: -8, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
      )
      .map(([x, y, z, w]) => {
        const l = Math.hypot(x, y, z, w);
        return { x: x / l, y: y / l, z: z / l, w: w / l };
      }),
  },
);

/** Lattice positions (exact touching) or free positions, in a small cube so bodies meet. */
const posArb = (lattice: boolean): fc.Arbitrary<[number, number, number]> =>
  lattice
    ? fc.tuple(
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
      )
    : fc.tuple(
        fc.double({ min: 0, max: 2.5, noNaN: true }),
        fc.double({ min: 0, max: 2.5, noNaN: true }),
        fc.double({ min: 0, max: 2.5, noNaN: true }),
      );

const bitsArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0xffffffff) },
  { weight: 3, arbitrary: fc.constantFrom(1, 2, 3) },
  { weight: 1, arbitrary: fc.constant(0) },
);

function opArb(lattice: boolean): fc.Arbitrary<Op> {
  const rot = lattice ? fc.constant(IDENTITY) : quatArb;
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        op: fc.constant("add" as const),
        shape: fc.record({
          kind: fc.constantFrom(0 as const, 1 as const, 2 as const),
          size: lattice ? fc.constant(0.5) : fc.double({ min: 0.3, max: 1, noNaN: true }),
        }),
        at: posArb(lattice),
        rot,
        layer: bitsArb,
        mask: bitsArb,
        sensor: fc.oneof(
          { weight: 3, arbitrary: fc.constant(false) },
          { weight: 1, arbitrary: fc.constant(true) },
        ),
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant("move" as const),
        target: fc.nat(50),
        at: posArb(lattice),
        rot,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ op: fc.constant("remove" as const), target: fc.nat(50) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant("filter" as const),
        target: fc.nat(50),
        layer: bitsArb,
        mask: bitsArb,
      }),
    },
    { weight: 3, arbitrary: fc.constant({ op: "step" as const }) },
  );
}

const scenarioArb: fc.Arbitrary<Scenario> = fc.boolean().chain((lattice) =>
  fc.record({
    scale: fc.constantFrom(1, 1, 1e-3, 1e4),
    offset: fc.constantFrom(0, 0, -3, 1e6),
    prediction: lattice ? fc.constant(0) : fc.constantFrom(0, 0, 0.05),
    ops: fc.array(opArb(lattice), { minLength: 15, maxLength: 60, size: "max" }),
  }),
);

function makeShape(s: ShapeSpec, scale: number): Shape {
  const r = s.size * scale;
  if (s.kind === 0) return makeSphere(r);
  if (s.kind === 1) return makeCuboid({ x: r, y: r, z: r });
  return makeCapsule({ x: -r / 2, y: 0, z: 0 }, { x: r / 2, y: 0, z: 0 }, r / 2);
}

function placeAt(at: [number, number, number], rot: Quat, sc: Scenario): Isometry {
  const f = (v: number) => sc.offset + v * sc.scale;
  return pose(f(at[0]), f(at[1]), f(at[2]), rot);
}

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

interface ModelBody {
  shape: Shape;
  pose: Isometry;
  layer: number;
  mask: number;
  sensor: boolean;
}

interface StepRecord {
  begin: string[];
  persist: string[];
  end: string[];
  contacts: { key: string; distance: number; sensor: boolean }[];
}

/** Replays `sc` on the model: bodies by index, handles are the handles the world returned. */
class Model {
  bodies = new Map<number, ModelBody>();
  prev = new Map<string, boolean>();

  touching(prediction: number): Map<string, { distance: number; sensor: boolean }> {
    const ids = [...this.bodies.keys()].sort((a, b) => a - b);
    const out = new Map<string, { distance: number; sensor: boolean }>();
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const A = this.bodies.get(ids[i]) as ModelBody;
        const B = this.bodies.get(ids[j]) as ModelBody;
        if ((A.layer & B.mask) === 0 || (B.layer & A.mask) === 0) continue;
        const key = `${ids[i]}-${ids[j]}`;
        if (A.sensor || B.sensor) {
          if (intersects(A.shape, A.pose, B.shape, B.pose)) {
            out.set(key, { distance: 0, sensor: true });
          }
          continue;
        }
        const c = contact(A.shape, A.pose, B.shape, B.pose, prediction);
        if (c) out.set(key, { distance: c.distance, sensor: false });
      }
    }
    return out;
  }

  step(prediction: number): StepRecord {
    const now = this.touching(prediction);
    const rec: StepRecord = { begin: [], persist: [], end: [], contacts: [] };
    for (const [k, v] of now) {
      (this.prev.has(k) ? rec.persist : rec.begin).push(k);
      if (!v.sensor) rec.contacts.push({ key: k, distance: v.distance, sensor: false });
    }
    for (const k of this.prev.keys()) if (!now.has(k)) rec.end.push(k);
    this.prev = new Map([...now].map(([k, v]) => [k, v.sensor]));
    const order = (a: string, b: string) => {
      const [a0, a1] = a.split("-").map(Number);
      const [b0, b1] = b.split("-").map(Number);
      return a0 - b0 || a1 - b1;
    };
    rec.begin.sort(order);
    rec.persist.sort(order);
    rec.end.sort(order);
    return rec;
  }
}

/** Everything a world reports at a step, with doubles as exact bit strings. */
function bits(x: number): string {
  const b = new Float64Array([x]);
  return Buffer.from(b.buffer).toString("hex");
}

function snapshotWorld(w: CollisionWorld): string {
  const ev = w.events();
  const parts: string[] = [];
  for (const [name, list] of [
    ["begin", ev.begin],
    ["persist", ev.persist],
    ["end", ev.end],
  ] as const) {
    for (let i = 0; i < list.count; i++) {
      parts.push(`${name}:${list.a(i)}-${list.b(i)}:${list.isSensor(i) ? "s" : "c"}`);
    }
  }
  for (const c of w.contacts()) parts.push(contactBits(c));
  parts.push(`stats:${w.stats.candidatePairs}/${w.stats.filteredPairs}/${w.stats.contactPairs}`);
  return parts.join("\n");
}

function contactBits(c: WorldContact): string {
  const m = c.manifold;
  const p: string[] = [`${c.a}-${c.b}`, bits(c.distance), bits(m.normal.x), bits(m.normal.y)];
  p.push(bits(m.normal.z), String(m.count));
  for (let i = 0; i < m.count; i++) {
    const q = m.points[i];
    for (const v of [q.pointA, q.pointB]) p.push(bits(v.x), bits(v.y), bits(v.z));
    p.push(bits(q.distance), String(q.featureId));
  }
  return p.join(",");
}

function eventKeys(w: CollisionWorld, which: "begin" | "persist" | "end"): string[] {
  const l = w.events()[which];
  const out: string[] = [];
  for (let i = 0; i < l.count; i++) out.push(`${l.a(i)}-${l.b(i)}`);
  return out;
}

/** What the random scenarios exercised (checked after the property runs). */
const coverage = { steps: 0, contacts: 0, sensorEvents: 0, ends: 0, touchingExactly: 0 };

/**
 * Runs a scenario on one world per broad phase and on the model; checks every step and returns
 * the snapshots of the first world.
 */
function runScenario(sc: Scenario): string[] {
  const worlds = BROAD_PHASES.map(
    (b) => new CollisionWorld({ broadphase: b, prediction: sc.prediction * sc.scale }),
  );
  const model = new Model();
  let live: BodyHandle[] = [];
  const snaps: string[] = [];
  const ops = [...sc.ops, { op: "step" as const }];
  for (const op of ops) {
    switch (op.op) {
      case "add": {
        const shape = makeShape(op.shape, sc.scale);
        const p = placeAt(op.at, op.rot, sc);
        const hs = worlds.map((w) =>
          w.addBody({ shape, pose: p, layer: op.layer, mask: op.mask, sensor: op.sensor }),
        );
        for (const h of hs) expect(h).toBe(hs[0]);
        model.bodies.set(hs[0], {
          shape,
          pose: p,
          layer: op.layer,
          mask: op.mask,
          sensor: op.sensor,
        });
        live.push(hs[0]);
        break;
      }
      case "move": {
        if (live.length === 0) break;
        const h = live[op.target % live.length];
        const p = placeAt(op.at, op.rot, sc);
        for (const w of worlds) w.setPose(h, p);
        (model.bodies.get(h) as ModelBody).pose = p;
        break;
      }
      case "remove": {
        if (live.length === 0) break;
        const h = live[op.target % live.length];
        for (const w of worlds) w.removeBody(h);
        model.bodies.delete(h);
        live = live.filter((x) => x !== h);
        break;
      }
      case "filter": {
        if (live.length === 0) break;
        const h = live[op.target % live.length];
        for (const w of worlds) w.setFilter(h, op.layer, op.mask);
        const b = model.bodies.get(h) as ModelBody;
        b.layer = op.layer;
        b.mask = op.mask;
        break;
      }
      case "step": {
        for (const w of worlds) w.step();
        const rec = model.step(sc.prediction * sc.scale);
        const snap = snapshotWorld(worlds[0]);
        for (const w of worlds.slice(1)) expect(snapshotWorld(w)).toBe(snap);
        const w = worlds[0];
        expect(eventKeys(w, "begin")).toEqual(rec.begin);
        expect(eventKeys(w, "persist")).toEqual(rec.persist);
        expect(eventKeys(w, "end")).toEqual(rec.end);
        const cs = w.contacts();
        expect(cs.map((c) => `${c.a}-${c.b}`)).toEqual(rec.contacts.map((c) => c.key));
        cs.forEach((c, i) => {
          expect(Object.is(c.distance, rec.contacts[i].distance)).toBe(true);
        });
        coverage.steps++;
        coverage.contacts += cs.length;
        coverage.sensorEvents +=
          rec.begin.length - cs.filter((c) => rec.begin.includes(`${c.a}-${c.b}`)).length;
        coverage.ends += rec.end.length;
        coverage.touchingExactly += cs.filter((c) => c.distance === 0).length;
        snaps.push(snap);
        break;
      }
    }
  }
  return snaps;
}

describe("CollisionWorld against the model, for every broad phase", () => {
  it("agrees on pairs, events and contact distances over random operation sequences", () => {
    fc.assert(
      fc.property(scenarioArb, (sc) => {
        runScenario(sc);
      }),
      { numRuns: 100 },
    );
    // The scenarios must have exercised contacts, exact touching, sensors and ends.
    expect(coverage.contacts).toBeGreaterThan(2000);
    expect(coverage.touchingExactly).toBeGreaterThan(100);
    expect(coverage.sensorEvents).toBeGreaterThan(200);
    expect(coverage.ends).toBeGreaterThan(100);
  });

  it("is deterministic: two runs of the same operations give bitwise-identical steps", () => {
    fc.assert(
      fc.property(scenarioArb, (sc) => {
        expect(runScenario(sc)).toEqual(runScenario(sc));
      }),
      { numRuns: 25 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Hand-made cases
// ---------------------------------------------------------------------------------------------

describe("CollisionWorld events", () => {
  it("reports begin, persist and end for two spheres that meet, stay and part", () => {
    const w = new CollisionWorld();
    const a = w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0) });
    const b = w.addBody({ shape: makeSphere(1), pose: pose(3, 0, 0) });
    w.step();
    expect(w.events().begin.count).toBe(0);
    w.setPose(b, pose(2, 0, 0)); // exactly touching
    w.step();
    expect(w.events().begin.toArray()).toEqual([{ a, b, sensor: false }]);
    expect(w.contactCount).toBe(1);
    const c = w.readContact(0);
    expect(c.distance).toBe(0);
    expect(c.manifold.normal).toEqual({ x: 1, y: 0, z: 0 });
    expect(c.manifold.points[0].pointA).toEqual({ x: 1, y: 0, z: 0 });
    w.setPose(b, pose(1.5, 0, 0));
    w.step();
    expect(w.events().persist.toArray()).toEqual([{ a, b, sensor: false }]);
    expect(w.readContact(0).distance).toBe(-0.5);
    expect(w.isTouching(a, b)).toBe(true);
    w.setPose(b, pose(2 + 1e-9, 0, 0));
    w.step();
    expect(w.events().end.toArray()).toEqual([{ a, b, sensor: false }]);
    expect(w.contactCount).toBe(0);
    expect(w.isTouching(b, a)).toBe(false);
  });

  it("reports pairs within the prediction distance, with the gap as distance", () => {
    const w = new CollisionWorld({ prediction: 0.1 });
    w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0) });
    w.addBody({ shape: makeSphere(1), pose: pose(2.05, 0, 0) });
    w.addBody({ shape: makeSphere(1), pose: pose(0, 2.2, 0) });
    w.step();
    expect(w.contactCount).toBe(1);
    expect(w.readContact(0).distance).toBeCloseTo(0.05, 12);
  });

  it("gives sensors begin/end events but no contacts", () => {
    const w = new CollisionWorld();
    const s = w.addBody({
      shape: makeCuboid({ x: 1, y: 1, z: 1 }),
      pose: pose(0, 0, 0),
      sensor: true,
    });
    const b = w.addBody({ shape: makeSphere(0.5), pose: pose(0, 0, 0) });
    w.step();
    expect(w.events().begin.toArray()).toEqual([{ a: s, b, sensor: true }]);
    expect(w.contactCount).toBe(0);
    expect(w.stats.sensorPairs).toBe(1);
    expect(w.isSensor(s)).toBe(true);
    w.setPose(b, pose(5, 0, 0));
    w.step();
    expect(w.events().end.toArray()).toEqual([{ a: s, b, sensor: true }]);
  });

  it("ends a removed body's contacts at the next step, naming its old handle", () => {
    const w = new CollisionWorld();
    const a = w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0) });
    const b = w.addBody({ shape: makeSphere(1), pose: pose(1, 0, 0) });
    const c = w.addBody({ shape: makeSphere(1), pose: pose(-1.5, 0, 0) });
    w.step();
    expect(eventKeys(w, "begin")).toEqual([`${a}-${b}`, `${a}-${c}`]);
    w.removeBody(a);
    expect(w.has(a)).toBe(false);
    // The slot stays reserved until the end events are out: a new body gets another slot.
    const d = w.addBody({ shape: makeSphere(1), pose: pose(50, 0, 0) });
    expect(d).not.toBe(a);
    w.step();
    expect(eventKeys(w, "end")).toEqual([`${a}-${b}`, `${a}-${c}`]);
    expect(w.contactCount).toBe(0);
    w.step();
    expect(w.events().end.count).toBe(0);
    // Now the slot is free again; its new handle differs from the stale one.
    const e = w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0) });
    expect(e).not.toBe(a);
    expect(w.has(a)).toBe(false);
    expect(w.has(e)).toBe(true);
  });

  it("filters pairs by layer and mask", () => {
    const w = new CollisionWorld();
    const s = makeSphere(1);
    const a = w.addBody({ shape: s, pose: pose(0, 0, 0), layer: 1, mask: 2 });
    const b = w.addBody({ shape: s, pose: pose(1, 0, 0), layer: 2, mask: 1 });
    const c = w.addBody({ shape: s, pose: pose(0, 1, 0), layer: 2, mask: 2 });
    w.step();
    // a–b: 1&1, 2&2 ok; a–c: (1 & 2) = 0; b–c: (2 & 2) and (2 & 1) = 0.
    expect(w.contacts().map((k) => [k.a, k.b])).toEqual([[a, b]]);
    expect(w.stats.candidatePairs).toBe(3);
    expect(w.stats.filteredPairs).toBe(1);
    w.setFilter(c, 2, 3); // now a–c passes: (1 & 3) and (2 & 2); b–c still fails (2 & 1 = 0)
    w.step();
    expect(w.contacts().map((k) => [k.a, k.b])).toEqual([
      [a, b],
      [a, c],
    ]);
  });

  it("handles compounds through the dispatch", async () => {
    const { makeCompound } = await import("../../src/shapes/compound.js");
    const comp = makeCompound([
      { shape: makeSphere(0.5), pose: pose(-2, 0, 0) },
      { shape: makeSphere(0.5), pose: pose(2, 0, 0) },
    ]);
    const w = new CollisionWorld();
    const a = w.addBody({ shape: comp, pose: pose(0, 0, 0) });
    const b = w.addBody({ shape: makeSphere(0.5), pose: pose(2.8, 0, 0) });
    w.addBody({ shape: makeSphere(0.5), pose: pose(0, 0, 0) });
    w.step();
    const cs = w.contacts();
    expect(cs.map((k) => [k.a, k.b])).toEqual([[a, b]]);
    expect(cs[0].distance).toBeCloseTo(-0.2, 12);
  });
});

// ---------------------------------------------------------------------------------------------
// Handles and bad input
// ---------------------------------------------------------------------------------------------

function expectCollideError(f: () => unknown, field?: string): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(CollideError);
  if (field !== undefined) expect((err as CollideError).field).toBe(field);
}

/** Everything observable about a world, to prove that a refused call changed nothing. */
function worldState(w: CollisionWorld): string {
  const hs = w.handles();
  return JSON.stringify({
    hs,
    poses: hs.map((h) => w.getPose(h)),
    filters: hs.map((h) => w.getFilter(h)),
    boxes: hs.map((h) => w.getAabb(h)),
    count: w.bodyCount,
    q: w.overlapAabb({ x: -100, y: -100, z: -100 }, { x: 100, y: 100, z: 100 }),
  });
}

describe("CollisionWorld handles and bad input", () => {
  it("never returns 0, detects stale handles, refuses double removal and unknown handles", () => {
    const w = new CollisionWorld();
    const a = w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0) });
    expect(a).not.toBe(0);
    w.removeBody(a);
    expectCollideError(() => w.removeBody(a), "handle");
    expectCollideError(() => w.setPose(a, pose(0, 0, 0)), "handle");
    const b = w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0) });
    expect(b).not.toBe(a); // same slot, new generation
    expect(w.has(a)).toBe(false);
    for (const bad of [0, -1, 1.5, Number.NaN, 123456789, 2 ** 60]) {
      expectCollideError(() => w.removeBody(bad as BodyHandle), "handle");
      expect(w.has(bad as BodyHandle)).toBe(false);
    }
    const other = new CollisionWorld();
    expectCollideError(() => other.getShape(b), "handle");
  });

  it("refuses bad poses and shapes and leaves the world unchanged", () => {
    const w = new CollisionWorld();
    const h = w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0) });
    w.addBody({ shape: makeCuboid({ x: 1, y: 1, z: 1 }), pose: pose(1, 0, 0) });
    w.step();
    const before = worldState(w);
    const badPoses: Isometry[] = [
      pose(Number.NaN, 0, 0),
      pose(0, Infinity, 0),
      { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 2 } },
      { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 0 } },
      { translation: { x: 0, y: 0, z: 0 }, rotation: { x: Number.NaN, y: 0, z: 0, w: 1 } },
    ];
    for (const p of badPoses) {
      expectCollideError(() => w.setPose(h, p));
      expectCollideError(() => w.addBody({ shape: makeSphere(1), pose: p }));
    }
    // A pose whose AABB overflows: a huge sphere 1.7e308 from the origin. (A box past
    // ±WORLD_MAX_COORDINATE = 1e300 is refused too: a sphere of radius 8e307 at the origin,
    // naming the shape, which no pose could place — session 37; it had named the translation.)
    expectCollideError(
      () => w.addBody({ shape: makeSphere(8e307), pose: pose(0, 0, 0) }),
      "body.shape",
    );
    const big = w.addBody({ shape: makeSphere(1e299), pose: pose(0, 0, 0), mask: 0 });
    const bigState = worldState(w);
    expectCollideError(() => w.setPose(big, pose(1.7e308, 0, 0)), "pose.translation");
    expectCollideError(
      () => w.addBody({ shape: makeSphere(1e299), pose: pose(1.7e308, 0, 0) }),
      "body.pose.translation",
    );
    expect(worldState(w)).toBe(bigState);
    w.removeBody(big);
    const badShapes = [
      { type: ShapeType.Sphere, radius: -1 },
      { type: ShapeType.Sphere, radius: Number.NaN },
      { type: ShapeType.Cuboid, halfExtents: { x: -1, y: 1, z: 1 } },
      {
        type: ShapeType.Capsule,
        a: { x: 0, y: 0, z: 0 },
        b: { x: Infinity, y: 0, z: 0 },
        radius: 1,
      },
      { type: ShapeType.HalfSpace, normal: { x: 0, y: 2, z: 0 }, offset: 0 },
      { type: ShapeType.HalfSpace, normal: { x: 0, y: 1, z: 0 }, offset: Number.NaN },
      { type: 42 },
      null,
      { type: ShapeType.Compound, children: [] },
    ];
    for (const s of badShapes) {
      expectCollideError(() => w.addBody({ shape: s as unknown as Shape, pose: pose(0, 0, 0) }));
    }
    expectCollideError(
      () => w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0), layer: -1 }),
      "body.layer",
    );
    expectCollideError(
      () => w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0), mask: 2 ** 32 }),
      "body.mask",
    );
    expectCollideError(() => w.setFilter(h, 1.5, 1), "layer");
    expectCollideError(() => new CollisionWorld({ prediction: -1 }), "options.prediction");
    expectCollideError(
      () => new CollisionWorld({ broadphase: "kdtree" as WorldBroadPhase }),
      "options.broadphase",
    );
    expect(worldState(w)).toBe(before);
    w.step();
    expect(w.contactCount).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// World queries
// ---------------------------------------------------------------------------------------------

interface QueryScene {
  bodies: { kind: 0 | 1; at: Vec3; size: number; rot: Quat; layer: number; sensor: boolean }[];
  box: { min: Vec3; max: Vec3 };
  probe: { kind: 0 | 1; at: Vec3; size: number; rot: Quat };
  ray: { o: Vec3; d: Vec3; maxToi: number };
  mask: number;
}

const v3 = (lo: number, hi: number) =>
  fc.record({
    x: fc.double({ min: lo, max: hi, noNaN: true }),
    y: fc.double({ min: lo, max: hi, noNaN: true }),
    z: fc.double({ min: lo, max: hi, noNaN: true }),
  });

const queryArb: fc.Arbitrary<QueryScene> = fc.record({
  bodies: fc.array(
    fc.record({
      kind: fc.constantFrom(0 as const, 1 as const),
      at: v3(0, 8),
      size: fc.double({ min: 0.1, max: 1.5, noNaN: true }),
      rot: quatArb,
      layer: fc.constantFrom(1, 2, 3),
      sensor: fc.boolean(),
    }),
    { maxLength: 40 },
  ),
  box: fc.tuple(v3(-1, 9), v3(0, 4)).map(([min, d]) => ({
    min,
    max: { x: min.x + d.x, y: min.y + d.y, z: min.z + d.z },
  })),
  probe: fc.record({
    kind: fc.constantFrom(0 as const, 1 as const),
    at: v3(0, 8),
    size: fc.double({ min: 0.1, max: 2, noNaN: true }),
    rot: quatArb,
  }),
  ray: fc.record({
    o: v3(-2, 10),
    d: v3(-1, 1).filter((d) => Math.abs(d.x) + Math.abs(d.y) + Math.abs(d.z) > 1e-3),
    maxToi: fc.constantFrom(Infinity, 5, 20),
  }),
  mask: fc.constantFrom(1, 2, 0xffffffff),
});

/**
 * A ray routine for the tests (an oracle independent of src/query/raycast.ts): spheres by the
 * quadratic, boxes by the slab test in the box's frame. Solid: a ray from inside hits at 0.
 */
function testCaster(
  out: { toi: number; point: Vec3; normal: Vec3 },
  shape: Shape,
  p: Isometry,
  o: Vec3,
  d: Vec3,
  maxToi: number,
): boolean {
  const lo = iso.inverseTransformPoint({ x: 0, y: 0, z: 0 }, p, o);
  const ld = iso.inverseTransformVector({ x: 0, y: 0, z: 0 }, p, d);
  let t = -1;
  const n = { x: 0, y: 0, z: 0 };
  if (shape.type === ShapeType.Sphere) {
    const r = shape.radius;
    const b = lo.x * ld.x + lo.y * ld.y + lo.z * ld.z;
    const c = lo.x * lo.x + lo.y * lo.y + lo.z * lo.z - r * r;
    const a = ld.x * ld.x + ld.y * ld.y + ld.z * ld.z;
    if (c <= 0) t = 0;
    else {
      const disc = b * b - a * c;
      if (disc < 0 || b > 0) return false;
      t = (-b - Math.sqrt(disc)) / a;
      n.x = lo.x + t * ld.x;
      n.y = lo.y + t * ld.y;
      n.z = lo.z + t * ld.z;
    }
  } else if (shape.type === ShapeType.Cuboid) {
    const h = [shape.halfExtents.x, shape.halfExtents.y, shape.halfExtents.z];
    const oo = [lo.x, lo.y, lo.z];
    const dd = [ld.x, ld.y, ld.z];
    let t0 = 0;
    let t1 = Infinity;
    let axis = -1;
    for (let i = 0; i < 3; i++) {
      if (dd[i] === 0) {
        if (Math.abs(oo[i]) > h[i]) return false;
        continue;
      }
      let a = (-h[i] - oo[i]) / dd[i];
      let b = (h[i] - oo[i]) / dd[i];
      if (a > b) [a, b] = [b, a];
      if (a > t0) {
        t0 = a;
        axis = i;
      }
      t1 = Math.min(t1, b);
      if (t0 > t1) return false;
    }
    t = t0;
    if (axis >= 0) (n as unknown as Record<string, number>)["xyz"[axis]] = -Math.sign(dd[axis]);
  } else return false;
  if (t > maxToi) return false;
  out.toi = t;
  out.point = { x: o.x + t * d.x, y: o.y + t * d.y, z: o.z + t * d.z };
  const wn = iso.transformVector({ x: 0, y: 0, z: 0 }, p, n);
  const len = Math.hypot(wn.x, wn.y, wn.z);
  out.normal = len > 0 ? { x: wn.x / len, y: wn.y / len, z: wn.z / len } : wn;
  return true;
}

function buildQueryWorld(q: QueryScene, bp: WorldBroadPhase) {
  const w = new CollisionWorld({ broadphase: bp });
  const hs = q.bodies.map((b) =>
    w.addBody({
      shape:
        b.kind === 0 ? makeSphere(b.size) : makeCuboid({ x: b.size, y: b.size / 2, z: b.size }),
      pose: pose(b.at.x, b.at.y, b.at.z, b.rot),
      layer: b.layer,
      sensor: b.sensor,
    }),
  );
  return { w, hs };
}

describe("CollisionWorld queries against brute-force scans", () => {
  it("overlapAabb, overlapShape and ray casts match a scan of every body", () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        const results: string[] = [];
        for (const bp of BROAD_PHASES) {
          const { w, hs } = buildQueryWorld(q, bp);
          const filter = { mask: q.mask };
          const layerOk = (i: number) => (q.bodies[i].layer & q.mask) !== 0;
          // AABB overlap: scan of the tight boxes.
          const expectedBox = hs.filter((h, i) => {
            const b = w.getAabb(h);
            return (
              layerOk(i) &&
              b.min.x <= q.box.max.x &&
              q.box.min.x <= b.max.x &&
              b.min.y <= q.box.max.y &&
              q.box.min.y <= b.max.y &&
              b.min.z <= q.box.max.z &&
              q.box.min.z <= b.max.z
            );
          });
          const gotBox = w.overlapAabb(q.box.min, q.box.max, [], filter);
          expect(gotBox).toEqual(expectedBox);
          // Shape overlap: scan with the exact intersects query.
          const probe =
            q.probe.kind === 0
              ? makeSphere(q.probe.size)
              : makeCuboid({ x: q.probe.size, y: q.probe.size, z: q.probe.size / 3 });
          const pp = pose(q.probe.at.x, q.probe.at.y, q.probe.at.z, q.probe.rot);
          const expectedShape = hs.filter(
            (h, i) => layerOk(i) && intersects(probe, pp, w.getShape(h), w.getPose(h)),
          );
          expect(w.overlapShape(probe, pp, [], filter)).toEqual(expectedShape);
          // Ray casts: scan every body with the same per-shape routine.
          const { o, d, maxToi } = q.ray;
          const all = hs
            .map((h, i) => {
              const hit = { toi: 0, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 } };
              if (!layerOk(i)) return null;
              return testCaster(hit, w.getShape(h), w.getPose(h), o, d, maxToi)
                ? { handle: h, ...hit }
                : null;
            })
            .filter((x) => x !== null)
            .sort((a, b) => a.toi - b.toi || a.handle - b.handle);
          const gotAll = w.castRayAllWith(testCaster, o, d, maxToi, filter);
          expect(gotAll.map((x) => [x.handle, x.toi])).toEqual(all.map((x) => [x.handle, x.toi]));
          const closest = w.castRayWith(testCaster, o, d, maxToi, filter);
          if (all.length === 0) expect(closest).toBeNull();
          else {
            expect(closest?.handle).toBe(all[0].handle);
            expect(closest?.toi).toBe(all[0].toi);
          }
          // Sensors can be left out.
          const noSensors = w.overlapAabb(q.box.min, q.box.max, [], {
            mask: q.mask,
            includeSensors: false,
          });
          expect(noSensors).toEqual(expectedBox.filter((h) => !w.isSensor(h)));
          results.push(JSON.stringify([gotBox, gotAll, closest]));
        }
        for (const r of results) expect(r).toBe(results[0]);
      }),
      { numRuns: 150 },
    );
  });

  it("refuses a zero ray direction and a bad query box", () => {
    const w = new CollisionWorld();
    w.addBody({ shape: makeSphere(1), pose: pose(0, 0, 0) });
    expectCollideError(() => w.castRayWith(testCaster, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }));
    expectCollideError(() =>
      w.castRayWith(testCaster, { x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, -1),
    );
    expectCollideError(() => w.overlapAabb({ x: 1, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }));
    expectCollideError(() => w.overlapShape(makeSphere(1), pose(Number.NaN, 0, 0)));
  });
});
