/**
 * Every broad phase against an independent model: a Map of boxes and an O(n²) pair scan written
 * here (the brute-force class is itself under test). Scenes are built on a lattice — box corners
 * are `T + i·u` for integers i — so coincident boxes, zero-size boxes and exactly shared faces
 * arise often and are exact by construction (the same expression gives the same double), with
 * huge boxes (±1e6), negative coordinates, scales u ∈ {1, 1e-3, 1e4} and a 1e6 translation T.
 *
 * castRay grazing: in the integer scenes (u = 1, T = 0) the rays have integer origins and
 * directions in [-3, 3]³, and the oracle decides "the segment touches the box" in exact rational
 * arithmetic (cross-multiplied fractions with small integers). The library's float slab test is
 * exact there too, because distinct fractions p/q with |q| ≤ 3 differ by far more than an ulp
 * and correctly rounded division is monotone, so grazing rays (along faces, through edges and
 * corners) are compared exactly. Scaled scenes compare every implementation's castRay with the
 * brute-force class's, which uses the same shared slab formula.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BroadPhase } from "../../src/broadphase/broad-phase.js";
import { BruteForceBroadPhase } from "../../src/broadphase/brute-force.js";
import { DynamicTree } from "../../src/broadphase/dynamic-tree.js";
import { LooseOctree } from "../../src/broadphase/loose-octree.js";
import { MAX_PROXY_ID, PairSet } from "../../src/broadphase/pair-set.js";
import { SpatialHash } from "../../src/broadphase/spatial-hash.js";
import { SweepAndPrune } from "../../src/broadphase/sweep-and-prune.js";
import { CollideError } from "../../src/errors.js";
import type { Vec3 } from "../../src/math/vec3.js";

interface Box {
  min: Vec3;
  max: Vec3;
}

/** Lattice description of a box: lower corner index, size in cells, optional huge axis. */
interface LatticeBox {
  i: [number, number, number];
  w: [number, number, number];
  huge: -1 | 0 | 1 | 2 | 3;
}

interface Scene {
  u: number;
  t: number;
}

const HUGE = 1e6;

function toBox(lb: LatticeBox, s: Scene): Box {
  const lo = (k: number) => s.t + lb.i[k] * s.u;
  const hi = (k: number) => s.t + (lb.i[k] + lb.w[k]) * s.u;
  const axis = (k: number): [number, number] =>
    lb.huge === 3 || lb.huge === k ? [-HUGE, HUGE] : [lo(k), hi(k)];
  const [x0, x1] = axis(0);
  const [y0, y1] = axis(1);
  const [z0, z1] = axis(2);
  return { min: { x: x0, y: y0, z: z0 }, max: { x: x1, y: y1, z: z1 } };
}

function overlaps(a: Box, b: Box): boolean {
  return (
    a.min.x <= b.max.x &&
    b.min.x <= a.max.x &&
    a.min.y <= b.max.y &&
    b.min.y <= a.max.y &&
    a.min.z <= b.max.z &&
    b.min.z <= a.max.z
  );
}

function oraclePairs(model: Map<number, Box>): Array<[number, number]> {
  const ids = [...model.keys()].sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      if (overlaps(model.get(ids[i])!, model.get(ids[j])!)) out.push([ids[i], ids[j]]);
    }
  }
  return out;
}

function oracleQuery(model: Map<number, Box>, q: Box): number[] {
  return [...model.entries()]
    .filter(([, b]) => overlaps(b, q))
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

/** A fraction p/q with q > 0, compared exactly (inputs are small integers). */
type Frac = [number, number];
const fracLe = (a: Frac, b: Frac) => a[0] * b[1] <= b[0] * a[1];

/**
 * Exact entry parameter of the segment o + t·d, t ∈ [0, tMax], into box b, as a fraction, or
 * null when it misses; integer inputs only (tMax an integer or Infinity).
 */
function exactEntry(o: Vec3, d: Vec3, tMax: number, b: Box): Frac | null {
  let lo: Frac = [0, 1];
  let hi: Frac | null = Number.isFinite(tMax) ? [tMax, 1] : null;
  for (const k of ["x", "y", "z"] as const) {
    const dk = d[k];
    if (dk === 0) {
      if (o[k] < b.min[k] || o[k] > b.max[k]) return null;
      continue;
    }
    let a: Frac = [b.min[k] - o[k], dk];
    let c: Frac = [b.max[k] - o[k], dk];
    if (dk < 0) {
      a = [-a[0], -a[1]];
      c = [-c[0], -c[1]];
      [a, c] = [c, a];
    }
    if (!fracLe(a, lo)) lo = a;
    if (hi === null || !fracLe(hi, c)) hi = c;
  }
  if (hi !== null && !fracLe(lo, hi)) return null;
  return lo;
}

function makeAll(): Array<{ name: string; bp: BroadPhase }> {
  return [
    { name: "brute", bp: new BruteForceBroadPhase() },
    { name: "sap-auto", bp: new SweepAndPrune() },
    { name: "sap-z", bp: new SweepAndPrune({ axis: 2 }) },
    { name: "hash-auto", bp: new SpatialHash() },
    { name: "hash-fixed", bp: new SpatialHash({ cellSize: 1.5 }) },
    { name: "hash-overflow", bp: new SpatialHash({ maxCellsPerBody: 1 }) },
    { name: "tree", bp: new DynamicTree() },
    { name: "tree-nomargin", bp: new DynamicTree({ margin: 0 }) },
    { name: "tree-refit", bp: new DynamicTree({ moveStrategy: "refit" }) },
    { name: "octree", bp: new LooseOctree() },
    { name: "quadtree", bp: new LooseOctree({ planar: true }) },
  ];
}

const latticeBoxArb: fc.Arbitrary<LatticeBox> = fc.record({
  i: fc.tuple(
    fc.integer({ min: -10, max: 10 }),
    fc.integer({ min: -10, max: 10 }),
    fc.integer({ min: -10, max: 10 }),
  ),
  w: fc.tuple(
    fc.integer({ min: 0, max: 4 }),
    fc.integer({ min: 0, max: 4 }),
    fc.integer({ min: 0, max: 4 }),
  ),
  huge: fc.oneof(
    { arbitrary: fc.constant(-1 as const), weight: 24 },
    { arbitrary: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const), weight: 1 },
  ),
});

type Op =
  | { kind: "insert"; id: number; box: LatticeBox }
  | { kind: "move"; id: number; box: LatticeBox; jump: boolean; step: [number, number, number] }
  | { kind: "remove"; id: number };

const ID_COUNT = 40;
const idArb = fc.integer({ min: 0, max: ID_COUNT - 1 });
const stepArb = fc.tuple(
  fc.integer({ min: -1, max: 1 }),
  fc.integer({ min: -1, max: 1 }),
  fc.integer({ min: -1, max: 1 }),
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant("insert" as const), id: idArb, box: latticeBoxArb }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("move" as const),
      id: idArb,
      box: latticeBoxArb,
      jump: fc.boolean(),
      step: stepArb,
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant("remove" as const), id: idArb }), weight: 1 },
);

interface RaySpec {
  o: [number, number, number];
  d: [number, number, number];
  tMax: number;
}

const raySpecArb: fc.Arbitrary<RaySpec> = fc.record({
  o: fc.tuple(
    fc.integer({ min: -14, max: 14 }),
    fc.integer({ min: -14, max: 14 }),
    fc.integer({ min: -14, max: 14 }),
  ),
  d: fc.tuple(
    fc.integer({ min: -3, max: 3 }),
    fc.integer({ min: -3, max: 3 }),
    fc.integer({ min: -3, max: 3 }),
  ),
  tMax: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constant(Infinity)),
});

const batchArb = fc.record({
  ops: fc.array(opArb, { minLength: 1, maxLength: 24 }),
  query: latticeBoxArb,
  ray: raySpecArb,
});

/** Applies a batch to the lattice model and every broad phase. */
function applyOps(
  ops: Op[],
  lattice: Map<number, LatticeBox>,
  model: Map<number, Box>,
  all: Array<{ bp: BroadPhase }>,
  scene: Scene,
): void {
  for (const op of ops) {
    const present = lattice.has(op.id);
    if (op.kind === "remove") {
      if (!present) continue;
      lattice.delete(op.id);
      model.delete(op.id);
      for (const { bp } of all) bp.remove(op.id);
      continue;
    }
    let lb = op.box;
    if (op.kind === "move" && present && !op.jump) {
      const old = lattice.get(op.id)!;
      lb = {
        i: [old.i[0] + op.step[0], old.i[1] + op.step[1], old.i[2] + op.step[2]],
        w: old.w,
        huge: old.huge,
      };
    }
    const box = toBox(lb, scene);
    lattice.set(op.id, lb);
    model.set(op.id, box);
    for (const { bp } of all) {
      if (present) {
        const disp =
          op.kind === "move" ? { x: op.step[0], y: op.step[1], z: op.step[2] } : undefined;
        bp.move(op.id, box.min, box.max, disp);
      } else bp.insert(op.id, box.min, box.max);
    }
  }
}

function checkPairs(model: Map<number, Box>, all: Array<{ name: string; bp: BroadPhase }>): void {
  const expected = oraclePairs(model);
  const set = new PairSet(4);
  for (const { name, bp } of all) {
    expect(bp.size, name).toBe(model.size);
    expect(bp.computePairs(set).toArray(), name).toEqual(expected);
    if (bp instanceof DynamicTree) bp.validate();
  }
}

function checkQuery(
  model: Map<number, Box>,
  all: Array<{ name: string; bp: BroadPhase }>,
  q: Box,
): void {
  const expected = oracleQuery(model, q);
  for (const { name, bp } of all) {
    const got: number[] = [];
    expect(bp.queryAabb(q.min, q.max, got), name).toBe(expected.length);
    expect(
      got.sort((a, b) => a - b),
      name,
    ).toEqual(expected);
    const viaCallback: number[] = [];
    bp.queryAabb(q.min, q.max, (id) => {
      viaCallback.push(id);
    });
    expect(
      viaCallback.sort((a, b) => a - b),
      name,
    ).toEqual(expected);
    if (expected.length > 0) {
      let calls = 0;
      const n = bp.queryAabb(q.min, q.max, () => {
        calls++;
        return false;
      });
      expect([n, calls], name).toEqual([1, 1]);
    }
  }
}

/** Exact ray checks in an integer scene: all touched ids, entry times, closest hit, stop. */
function checkRayExact(
  model: Map<number, Box>,
  all: Array<{ name: string; bp: BroadPhase }>,
  r: RaySpec,
): void {
  const o = { x: r.o[0], y: r.o[1], z: r.o[2] };
  const d = { x: r.d[0], y: r.d[1], z: r.d[2] };
  const entries = new Map<number, number>();
  for (const [id, b] of model) {
    const e = exactEntry(o, d, r.tMax, b);
    if (e !== null) entries.set(id, e[0] / e[1]);
  }
  const expected = [...entries.keys()].sort((a, b) => a - b);
  const closest = expected.length === 0 ? Infinity : Math.min(...entries.values());
  for (const { name, bp } of all) {
    const seen: number[] = [];
    const n = bp.castRay(o, d, r.tMax, (id, toi) => {
      seen.push(id);
      expect(toi, `${name} toi of ${id}`).toBe(entries.get(id));
    });
    expect(n, name).toBe(seen.length);
    expect(
      seen.sort((a, b) => a - b),
      name,
    ).toEqual(expected);
    let best = Infinity;
    bp.castRay(o, d, r.tMax, (id, toi) => {
      expect(entries.has(id), `${name} clipped visit ${id}`).toBe(true);
      best = Math.min(best, toi);
      return toi;
    });
    expect(best, `${name} closest`).toBe(closest);
    const stopped = bp.castRay(o, d, r.tMax, () => -1);
    expect(stopped, name).toBe(expected.length === 0 ? 0 : 1);
  }
}

describe("broad phases vs the brute-force model", () => {
  it("integer scenes: pairs, queries and exact ray casts after every batch", () => {
    fc.assert(
      fc.property(fc.array(batchArb, { minLength: 1, maxLength: 6 }), (batches) => {
        const scene = { u: 1, t: 0 };
        const all = makeAll();
        const lattice = new Map<number, LatticeBox>();
        const model = new Map<number, Box>();
        for (const batch of batches) {
          applyOps(batch.ops, lattice, model, all, scene);
          checkPairs(model, all);
          checkQuery(model, all, toBox(batch.query, scene));
          checkRayExact(model, all, batch.ray);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("scaled and translated scenes (u = 1e-3, 1e4; T = 1e6): pairs, queries, rays vs brute force", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          { u: 1e-3, t: 0 },
          { u: 1e4, t: 0 },
          { u: 1, t: 1e6 },
          { u: 1e-3, t: -1e6 },
        ),
        fc.array(batchArb, { minLength: 1, maxLength: 5 }),
        (scene, batches) => {
          const all = makeAll();
          const lattice = new Map<number, LatticeBox>();
          const model = new Map<number, Box>();
          for (const batch of batches) {
            applyOps(batch.ops, lattice, model, all, scene);
            checkPairs(model, all);
            checkQuery(model, all, toBox(batch.query, scene));
            const o = {
              x: scene.t + batch.ray.o[0] * scene.u,
              y: scene.t + batch.ray.o[1] * scene.u,
              z: scene.t + batch.ray.o[2] * scene.u,
            };
            const d = {
              x: batch.ray.d[0] * scene.u,
              y: batch.ray.d[1] * scene.u,
              z: batch.ray.d[2] * scene.u,
            };
            const ref: number[] = [];
            all[0].bp.castRay(o, d, batch.ray.tMax, (id) => {
              ref.push(id);
            });
            ref.sort((a, b) => a - b);
            for (const { name, bp } of all) {
              const got: number[] = [];
              bp.castRay(o, d, batch.ray.tMax, (id) => {
                got.push(id);
              });
              expect(
                got.sort((a, b) => a - b),
                name,
              ).toEqual(ref);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("float boxes and rays, including rays grazing a face: every castRay equals brute force", () => {
    const coord = fc.double({ min: -30, max: 30, noNaN: true });
    const boxArb = fc
      .tuple(coord, coord, coord, fc.double({ min: 0, max: 6, noNaN: true }))
      .map(([x, y, z, w]) => ({
        min: { x, y, z },
        max: { x: x + w, y: y + w * 0.5, z: z + w * 2 },
      }));
    const dirArb = fc.tuple(
      fc.double({ min: -2, max: 2, noNaN: true }),
      fc.double({ min: -2, max: 2, noNaN: true }),
      fc.double({ min: -2, max: 2, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(boxArb, { minLength: 1, maxLength: 50 }),
        fc.tuple(coord, coord, coord),
        dirArb,
        fc.oneof(fc.double({ min: 0, max: 40, noNaN: true }), fc.constant(Infinity)),
        fc.nat(),
        fc.integer({ min: 0, max: 3 }),
        (boxes, o, d, tMax, pick, graze) => {
          const origin = { x: o[0], y: o[1], z: o[2] };
          const dir = { x: d[0], y: d[1], z: d[2] };
          // Graze: put the origin on a face plane of one box and zero that direction component.
          if (graze > 0) {
            const b = boxes[pick % boxes.length];
            const k = (["x", "y", "z"] as const)[graze - 1];
            origin[k] = pick % 2 === 0 ? b.min[k] : b.max[k];
            dir[k] = 0;
          }
          const all = makeAll();
          boxes.forEach((b, i) => {
            for (const { bp } of all) bp.insert(i, b.min, b.max);
          });
          const ref = new Map<number, number>();
          all[0].bp.castRay(origin, dir, tMax, (id, toi) => {
            ref.set(id, toi);
          });
          for (const { name, bp } of all) {
            const got = new Map<number, number>();
            bp.castRay(origin, dir, tMax, (id, toi) => {
              expect(got.has(id), `${name} visits ${id} twice`).toBe(false);
              got.set(id, toi);
            });
            expect(
              [...got.entries()].sort((p, q) => p[0] - q[0]),
              name,
            ).toEqual([...ref.entries()].sort((p, q) => p[0] - q[0]));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("500 random-walking boxes with small and large jumps stay exact", () => {
    let seed = 12345;
    const rand = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const all = makeAll().filter(({ name }) => name !== "hash-overflow");
    const model = new Map<number, Box>();
    const centre: Vec3[] = [];
    const half: Vec3[] = [];
    const boxOf = (i: number): Box => ({
      min: { x: centre[i].x - half[i].x, y: centre[i].y - half[i].y, z: centre[i].z - half[i].z },
      max: { x: centre[i].x + half[i].x, y: centre[i].y + half[i].y, z: centre[i].z + half[i].z },
    });
    for (let i = 0; i < 500; i++) {
      centre.push({ x: rand() * 40 - 20, y: rand() * 40 - 20, z: rand() * 10 - 5 });
      half.push({ x: rand() * 1.5, y: rand() * 1.5, z: rand() * 1.5 });
      const b = boxOf(i);
      model.set(i, b);
      for (const { bp } of all) bp.insert(i, b.min, b.max);
    }
    for (let step = 0; step < 12; step++) {
      for (let i = 0; i < 500; i++) {
        const big = rand() < 0.02;
        const s = big ? 30 : 0.2;
        const disp = { x: (rand() - 0.5) * s, y: (rand() - 0.5) * s, z: (rand() - 0.5) * s };
        centre[i] = { x: centre[i].x + disp.x, y: centre[i].y + disp.y, z: centre[i].z + disp.z };
        const b = boxOf(i);
        model.set(i, b);
        for (const { bp } of all) bp.move(i, b.min, b.max, disp);
      }
      checkPairs(model, all);
    }
  });
});

describe("broad phase errors", () => {
  const box = { min: { x: 0, y: 0, z: 0 }, max: { x: 1, y: 1, z: 1 } };
  for (const { name, bp } of makeAll()) {
    it(`${name} rejects bad ids, boxes and rays with CollideError`, () => {
      bp.insert(3, box.min, box.max);
      expect(() => bp.insert(3, box.min, box.max)).toThrow(CollideError);
      expect(() => bp.move(4, box.min, box.max)).toThrow(CollideError);
      expect(() => bp.remove(4)).toThrow(CollideError);
      expect(() => bp.insert(-1, box.min, box.max)).toThrow(CollideError);
      expect(() => bp.insert(1.5, box.min, box.max)).toThrow(CollideError);
      expect(() => bp.insert(MAX_PROXY_ID + 1, box.min, box.max)).toThrow(CollideError);
      expect(() => bp.insert(5, { x: Number.NaN, y: 0, z: 0 }, box.max)).toThrow(CollideError);
      expect(() => bp.insert(5, box.min, { x: Infinity, y: 1, z: 1 })).toThrow(CollideError);
      expect(() => bp.insert(5, { x: 2, y: 0, z: 0 }, box.max)).toThrow(CollideError);
      expect(() => bp.move(3, { x: 0, y: 2, z: 0 }, box.max)).toThrow(CollideError);
      expect(() => bp.queryAabb(box.max, box.min, [])).toThrow(CollideError);
      expect(() => bp.castRay(box.min, { x: Number.NaN, y: 0, z: 0 }, 1, () => {})).toThrow(
        CollideError,
      );
      expect(() => bp.castRay(box.min, box.max, -1, () => {})).toThrow(CollideError);
      expect(() => bp.castRay(box.min, box.max, Number.NaN, () => {})).toThrow(CollideError);
      // A failed call leaves the broad phase as it was.
      expect(bp.has(3)).toBe(true);
      expect(bp.has(5)).toBe(false);
      expect(bp.has(-1)).toBe(false);
      expect(bp.size).toBe(1);
      bp.remove(3);
      expect(() => bp.remove(3)).toThrow(CollideError);
      // Zero-size and huge boxes are valid.
      bp.insert(0, { x: 1, y: 1, z: 1 }, { x: 1, y: 1, z: 1 });
      bp.insert(1, { x: -1e6, y: -1e6, z: -1e6 }, { x: 1e6, y: 1e6, z: 1e6 });
      expect(bp.computePairs(new PairSet()).toArray()).toEqual([[0, 1]]);
      bp.clear();
      expect(bp.size).toBe(0);
      expect(bp.computePairs(new PairSet()).size).toBe(0);
      bp.insert(0, box.min, box.max);
      expect(bp.has(0)).toBe(true);
    });
  }

  it("options are validated", () => {
    expect(() => new SweepAndPrune({ axis: 3 as 0 })).toThrow(CollideError);
    expect(() => new SweepAndPrune({ axisSwitchRatio: 1 })).toThrow(CollideError);
    expect(() => new SpatialHash({ cellSize: -1 })).toThrow(CollideError);
    expect(() => new SpatialHash({ cellSizeScale: 0 })).toThrow(CollideError);
    expect(() => new SpatialHash({ maxCellsPerBody: 0.5 })).toThrow(CollideError);
    expect(() => new DynamicTree({ margin: Number.NaN })).toThrow(CollideError);
    expect(() => new DynamicTree({ displacementMultiplier: -1 })).toThrow(CollideError);
    expect(() => new DynamicTree({ moveStrategy: "x" as "refit" })).toThrow(CollideError);
    const tree = new DynamicTree();
    tree.insert(0, { x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 1 });
    expect(() =>
      tree.move(0, { x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 1 }, { x: Number.NaN, y: 0, z: 0 }),
    ).toThrow(CollideError);
  });
});
