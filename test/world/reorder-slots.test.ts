/**
 * The world's spatial reordering of its storage slots (option `reorderSlotsAt`,
 * src/world/collision-world.ts `reorderSlots`): bodies added in random order are moved to slots
 * in Morton order at the first step, invisibly to handles. Checked against the same world with
 * the reordering off (`reorderSlotsAt: Infinity`) — the pairs, contacts and events per handle
 * pair are the same sets — and, for spheres, against brute force (centre distance ≤ sum of
 * radii + prediction). Also: handles removed before a reordering stay stale after it, a
 * large `setPoses` batch (applied in slot order) with a handle given twice is refused with the
 * world unchanged, and a bad entry in the middle of such a batch throws the first bad entry's error with
 * the world unchanged.
 */
import { describe, expect, it } from "vitest";
import type { CollideError } from "../../src/errors.js";
import * as iso from "../../src/math/isometry.js";
import { makeCuboid, makeHalfSpace, makeSphere } from "../../src/shapes/index.js";
import {
  type BodyHandle,
  CollisionWorld,
  type CollisionWorldOptions,
  type WorldBroadPhase,
} from "../../src/world/index.js";

/** Deterministic PRNG (mulberry32), so a failure names its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random unit quaternion (normalised Gaussian-ish components). */
function randomQuat(r: () => number): { x: number; y: number; z: number; w: number } {
  const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
  const l = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  return { x: q[0] / l, y: q[1] / l, z: q[2] / l, w: q[3] / l };
}

const key = (a: number, b: number): string => (a < b ? `${a},${b}` : `${b},${a}`);

interface Answer {
  /** Contact per unordered handle pair: distance and normal from the lower handle. */
  contacts: Map<string, { distance: number; normal: number[] }>;
  begin: Set<string>;
  persist: Set<string>;
  end: Set<string>;
  candidates: Set<string>;
  /** Were the contacts listed in ascending (a < b) handle order with a < b everywhere? */
  handleOrdered: boolean;
}

function answer(w: CollisionWorld): Answer {
  const contacts = new Map<string, { distance: number; normal: number[] }>();
  let handleOrdered = true;
  let last = "";
  for (const c of w.contacts()) {
    const n = c.manifold.normal;
    const flip = c.a > c.b ? -1 : 1;
    if (c.a > c.b) handleOrdered = false;
    const k = key(c.a, c.b);
    if (last !== "" && Number(k.split(",")[0]) < Number(last.split(",")[0])) handleOrdered = false;
    last = k;
    contacts.set(k, { distance: c.distance, normal: [flip * n.x, flip * n.y, flip * n.z] });
  }
  const ev = w.events();
  const set = (l: typeof ev.begin): Set<string> => {
    const s = new Set<string>();
    for (let i = 0; i < l.count; i++) s.add(key(l.a(i), l.b(i)));
    return s;
  };
  const cand = w.candidatePairs();
  const candidates = new Set<string>();
  for (let i = 0; i < cand.length; i += 2) {
    expect(cand[i]).toBeLessThan(cand[i + 1]);
    candidates.add(key(cand[i], cand[i + 1]));
  }
  return {
    contacts,
    begin: set(ev.begin),
    persist: set(ev.persist),
    end: set(ev.end),
    candidates,
    handleOrdered,
  };
}

function expectSameAnswers(a: Answer, b: Answer): void {
  expect([...a.candidates].sort()).toEqual([...b.candidates].sort());
  expect([...a.begin].sort()).toEqual([...b.begin].sort());
  expect([...a.persist].sort()).toEqual([...b.persist].sort());
  expect([...a.end].sort()).toEqual([...b.end].sort());
  expect([...a.contacts.keys()].sort()).toEqual([...b.contacts.keys()].sort());
  for (const [k, ca] of a.contacts) {
    const cb = b.contacts.get(k) as { distance: number; normal: number[] };
    // The same pair, computed with A and B possibly swapped (slot order): equal within rounding.
    expect(Math.abs(ca.distance - cb.distance)).toBeLessThanOrEqual(1e-9);
    for (let j = 0; j < 3; j++) expect(Math.abs(ca.normal[j] - cb.normal[j])).toBeLessThan(1e-6);
  }
}

interface Scene {
  shapes: ReturnType<typeof makeSphere | typeof makeCuboid>[];
  kinds: ("dynamic" | "static" | "kinematic")[];
  sensor: boolean[];
  ccd: boolean[];
  pos: number[];
}

/** `n` bodies in a cube of side `side`: spheres (and cuboids unless `spheresOnly`), some static, a few sensors and fast bodies. */
function makeScene(n: number, side: number, seed: number, spheresOnly: boolean): Scene {
  const r = rng(seed);
  const s: Scene = { shapes: [], kinds: [], sensor: [], ccd: [], pos: [] };
  for (let i = 0; i < n; i++) {
    const cuboid = !spheresOnly && r() < 0.5;
    s.shapes.push(
      cuboid
        ? makeCuboid({ x: 0.2 + 0.3 * r(), y: 0.2 + 0.3 * r(), z: 0.2 + 0.3 * r() })
        : makeSphere(0.2 + 0.4 * r()),
    );
    const u = r();
    s.kinds.push(
      spheresOnly ? "dynamic" : u < 0.15 ? "static" : u < 0.25 ? "kinematic" : "dynamic",
    );
    s.sensor.push(!spheresOnly && s.kinds[i] !== "static" && r() < 0.05);
    s.ccd.push(!spheresOnly && s.kinds[i] !== "static" && !s.sensor[i] && r() < 0.03);
    s.pos.push(side * r(), side * r(), side * r());
  }
  return s;
}

function addScene(w: CollisionWorld, s: Scene, order: number[], r: () => number): BodyHandle[] {
  const handles: BodyHandle[] = new Array(order.length);
  for (const i of order) {
    handles[i] = w.addBody({
      shape: s.shapes[i],
      pose: iso.create(
        { x: s.pos[3 * i], y: s.pos[3 * i + 1], z: s.pos[3 * i + 2] },
        randomQuat(r),
      ),
      kind: s.kinds[i],
      sensor: s.sensor[i],
      ccd: s.ccd[i],
    });
  }
  return handles;
}

function shuffled(n: number, r: () => number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function worlds(
  broadphase: WorldBroadPhase,
  extra: Partial<CollisionWorldOptions> = {},
): [CollisionWorld, CollisionWorld] {
  return [
    new CollisionWorld({ broadphase, prediction: 0.05, reorderSlotsAt: 64, ...extra }),
    new CollisionWorld({ broadphase, prediction: 0.05, reorderSlotsAt: Infinity, ...extra }),
  ];
}

describe("spatial reordering of the world's slots", () => {
  for (const broadphase of ["grid", "tree", "sap", "brute"] as WorldBroadPhase[]) {
    it(`gives the same pairs, contacts and events per handle as no reordering (${broadphase})`, () => {
      const seed = 7 + broadphase.length;
      const n = 700;
      const scene = makeScene(n, 12, seed, false);
      const r1 = rng(seed + 1);
      const r2 = rng(seed + 1);
      const order = shuffled(n, rng(seed + 2));
      const [wr, wo] = worlds(broadphase, { sleepAfterSteps: 3 });
      const hr = addScene(wr, scene, order, r1);
      const ho = addScene(wo, scene, order, r2);
      expect(hr).toEqual(ho);
      // Removed before the first step (so before the reordering): stale ever after.
      const removed = [hr[order[3]], hr[order[10]], hr[order[200]]];
      for (const h of removed) {
        wr.removeBody(h);
        wo.removeBody(h);
      }
      // A ground plane, outside the broad phase (kept at the end of the slots).
      const gr = wr.addBody({
        shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, 0),
        pose: iso.identity(),
      });
      const go = wo.addBody({
        shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, 0),
        pose: iso.identity(),
      });
      expect(gr).toBe(go);
      const live = order.filter((i) => !removed.includes(hr[i]) && scene.kinds[i] !== "static");
      const move = rng(seed + 3);
      let reordered = false;
      for (let frame = 0; frame < 8; frame++) {
        // Random walk of a random subset of the moving bodies (each once: setPoses refuses a
        // repeat).
        const picks: number[] = [];
        for (const i of live) if (move() < 0.6) picks.push(i);
        const poses = new Float64Array(7 * picks.length);
        for (let j = 0; j < picks.length; j++) {
          const i = picks[j];
          for (let a = 0; a < 3; a++) scene.pos[3 * i + a] += 0.3 * (move() - 0.5);
          const q = randomQuat(move);
          poses.set(
            [scene.pos[3 * i], scene.pos[3 * i + 1], scene.pos[3 * i + 2], q.x, q.y, q.z, q.w],
            7 * j,
          );
        }
        const ph = picks.map((i) => hr[i]);
        if (frame > 0) {
          wr.setPoses(ph, poses);
          wo.setPoses(ph, poses);
        }
        if (frame === 5) {
          // Added after the reordering: new ids, the removed handles stay stale.
          const a = wr.addBody({ shape: makeSphere(0.5), pose: iso.create({ x: 5, y: 5, z: 5 }) });
          const b = wo.addBody({ shape: makeSphere(0.5), pose: iso.create({ x: 5, y: 5, z: 5 }) });
          expect(a).toBe(b);
          expect(removed).not.toContain(a);
        }
        wr.step();
        wo.step();
        const ar = answer(wr);
        const ao = answer(wo);
        expect(ao.handleOrdered).toBe(true);
        if (!ar.handleOrdered) reordered = true;
        expectSameAnswers(ar, ao);
        expect(wr.stats.sleepingBodies).toBe(wo.stats.sleepingBodies);
        const ir = wr.impacts();
        const io = wo.impacts();
        expect(ir.count).toBe(io.count);
        for (const h of removed) {
          expect(wr.has(h)).toBe(false);
          expect(() => wr.getPose(h)).toThrow(/not a live body/);
        }
        for (const i of live) {
          const pr = wr.getPose(hr[i]);
          const po = wo.getPose(hr[i]);
          expect(pr).toEqual(po);
        }
      }
      // The world did reorder: its contacts came out of handle order at some step.
      expect(reordered).toBe(true);
      expect(wr.handles()).toEqual(wo.handles());
      // Queries see the same bodies.
      const qr = wr.overlapAabb({ x: 2, y: 2, z: 2 }, { x: 8, y: 8, z: 8 });
      const qo = wo.overlapAabb({ x: 2, y: 2, z: 2 }, { x: 8, y: 8, z: 8 });
      expect([...qr].sort((x, y) => x - y)).toEqual([...qo].sort((x, y) => x - y));
      for (const i of order.slice(0, 50)) {
        if (removed.includes(hr[i])) continue;
        expect(wr.getShape(hr[i])).toBe(scene.shapes[i]);
        expect(wr.getKind(hr[i])).toBe(scene.kinds[i]);
      }
    });
  }

  it("finds the brute-force sphere pairs after reordering", () => {
    const n = 900;
    const scene = makeScene(n, 14, 99, true);
    const order = shuffled(n, rng(100));
    const w = new CollisionWorld({ prediction: 0, reorderSlotsAt: 64 });
    const h = addScene(w, scene, order, rng(101));
    w.step();
    const radius = scene.shapes.map((s) => (s as ReturnType<typeof makeSphere>).radius);
    const brute = new Set<string>();
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const d = Math.hypot(
          scene.pos[3 * i] - scene.pos[3 * j],
          scene.pos[3 * i + 1] - scene.pos[3 * j + 1],
          scene.pos[3 * i + 2] - scene.pos[3 * j + 2],
        );
        if (d <= radius[i] + radius[j]) brute.add(key(h[i], h[j]));
      }
    }
    const got = answer(w);
    expect(got.handleOrdered).toBe(false);
    expect([...got.contacts.keys()].sort()).toEqual([...brute].sort());
    expect([...got.begin].sort()).toEqual([...brute].sort());
  });

  it("applies a large setPoses batch in slot order; a repeated handle is refused, the world unchanged", () => {
    const n = 1500;
    const scene = makeScene(n, 20, 5, true);
    const order = shuffled(n, rng(6));
    const [wr, wo] = worlds("grid");
    const hr = addScene(wr, scene, order, rng(7));
    addScene(wo, scene, order, rng(7));
    wr.step();
    wo.step();
    const r = rng(8);
    const picks = shuffled(n, r);
    // The same body twice in a large (slot-sorted) batch: refused naming the repeat, nothing moved.
    const before = hr.map((h) => wr.getPose(h));
    const twice = picks.concat([picks[10]]).map((i) => hr[i]);
    let refused: unknown = null;
    try {
      wr.setPoses(twice, new Float64Array(7 * twice.length).fill(0.5));
    } catch (e) {
      refused = e;
    }
    expect((refused as CollideError).field).toBe(`handles[${n}]`);
    expect((refused as CollideError).message).toContain("repeats handles[10]");
    for (let i = 0; i < n; i++) expect(wr.getPose(hr[i])).toEqual(before[i]);
    const poses = new Float64Array(7 * picks.length);
    for (let j = 0; j < picks.length; j++) {
      const q = randomQuat(r);
      poses.set([20 * r(), 20 * r(), 20 * r(), q.x, q.y, q.z, q.w], 7 * j);
    }
    const ph = picks.map((i) => hr[i]);
    wr.setPoses(ph, poses);
    for (let j = 0; j < ph.length; j++) {
      wo.setPose(
        ph[j],
        iso.create(
          { x: poses[7 * j], y: poses[7 * j + 1], z: poses[7 * j + 2] },
          { x: poses[7 * j + 3], y: poses[7 * j + 4], z: poses[7 * j + 5], w: poses[7 * j + 6] },
        ),
      );
    }
    for (let i = 0; i < n; i++) expect(wr.getPose(hr[i])).toEqual(wo.getPose(hr[i]));
    for (let i = 0; i < n; i += 37) expect(wr.getAabb(hr[i])).toEqual(wo.getAabb(hr[i]));
    wr.step();
    wo.step();
    expectSameAnswers(answer(wr), answer(wo));
  });

  it("refuses a large batch with a bad entry in the middle, at its first bad entry, unchanged", () => {
    const n = 1500;
    const scene = makeScene(n, 20, 11, true);
    const order = shuffled(n, rng(12));
    const [wr, wo] = worlds("grid");
    const hr = addScene(wr, scene, order, rng(13));
    addScene(wo, scene, order, rng(13));
    wr.step();
    wo.step();
    const gone = wr.addBody({ shape: makeSphere(1), pose: iso.identity() });
    wr.removeBody(gone);
    const r = rng(14);
    const picks = shuffled(n, r);
    const poses = new Float64Array(7 * n);
    for (let j = 0; j < n; j++) poses.set([20 * r(), 20 * r(), 20 * r(), 0, 0, 0, 1], 7 * j);
    const before = hr.map((h) => wr.getPose(h));
    const boxes = hr.map((h) => wr.getAabb(h));
    const ph: number[] = picks.map((i) => hr[i]);
    // A NaN at entry 900 and a stale handle at entry 700: the stale handle (first) is named.
    const bad = poses.slice();
    bad[7 * 900 + 1] = Number.NaN;
    const badHandles = ph.slice();
    badHandles[700] = gone;
    expect(() => wr.setPoses(badHandles, bad)).toThrow(/handles\[700\]/);
    // Every handle live: the NaN at 900 is named, before a non-unit quaternion at 1200.
    bad[7 * 1200 + 6] = 2;
    expect(() => wr.setPoses(ph, bad)).toThrow(/poses\[6301\]/);
    // Only the quaternion at 1200 (a later entry in slot order may come first there).
    const badQ = poses.slice();
    badQ[7 * 1200 + 6] = 2;
    badQ[7 * 1400 + 6] = 3;
    expect(() => wr.setPoses(ph, badQ)).toThrow(/handles\[1200\]/);
    // An AABB out of range at entry 1300 (the translation component named).
    const far = poses.slice();
    far[7 * 1300 + 2] = 1e301;
    expect(() => wr.setPoses(ph, far)).toThrow(/poses\[9102\]/);
    for (let i = 0; i < n; i++) {
      expect(wr.getPose(hr[i])).toEqual(before[i]);
      expect(wr.getAabb(hr[i])).toEqual(boxes[i]);
    }
    // Nothing moved: the next step is the same as the untouched world's.
    wr.step();
    wo.step();
    expect(wr.stats.movedBodies).toBe(wo.stats.movedBodies + 1);
    expectSameAnswers(answer(wr), answer(wo));
  });

  it("keeps bodies added in spatial order (a lattice, row by row) in their slots", () => {
    const w = new CollisionWorld({ reorderSlotsAt: 64 });
    for (let z = 0; z < 10; z++) {
      for (let y = 0; y < 10; y++) {
        for (let x = 0; x < 10; x++) {
          w.addBody({ shape: makeSphere(0.55), pose: iso.create({ x, y, z }) });
        }
      }
    }
    w.step();
    const a = answer(w);
    expect(a.contacts.size).toBe(2700);
    expect(a.handleOrdered).toBe(true);
  });

  it("validates the option", () => {
    expect(() => new CollisionWorld({ reorderSlotsAt: -1 })).toThrow(/reorderSlotsAt/);
    expect(() => new CollisionWorld({ reorderSlotsAt: Number.NaN })).toThrow(/reorderSlotsAt/);
  });
});
