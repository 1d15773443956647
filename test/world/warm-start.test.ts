/**
 * Warm starts of the world's narrow phase (src/world/warm-start-cache.ts) never change an answer: a
 * world stepped with `warmStart: true` and one stepped with `warmStart: false` (every pair
 * recomputed cold at every step: the oracle) report bitwise the same contacts — every number,
 * compared with Object.is — and the same begin / persist / end events, step after step, on
 * random worlds of every convex shape type plus a mesh, a compound and a sensor, with bodies
 * that stay put, drift, teleport, rest on each other with parallel faces exactly touching or a
 * hair apart or inside, are removed and re-added (slot reuse), at prediction 0 and 0.02. The
 * warm paths must actually run (reused answers and cached-axis early outs are counted), or the
 * comparison would prove nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import { makeRandom } from "../../src/math/random.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeRoundedCuboid } from "../../src/shapes/rounded.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { type BodyHandle, CollisionWorld, makeWorldContact } from "../../src/world/index.js";

const hullPoints = [
  { x: 0.5, y: 0, z: 0 },
  { x: -0.4, y: 0.3, z: 0.1 },
  { x: 0, y: -0.45, z: 0.2 },
  { x: 0.1, y: 0.2, z: -0.5 },
  { x: -0.2, y: -0.2, z: -0.3 },
  { x: 0.3, y: 0.4, z: 0.35 },
];

/** One of each convex type, a mesh and a compound. */
const SHAPES: Shape[] = [
  makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }),
  makeCuboid({ x: 0.7, y: 0.2, z: 0.4 }),
  makeSphere(0.45),
  makeCapsule({ x: 0, y: -0.3, z: 0 }, { x: 0, y: 0.3, z: 0 }, 0.25),
  makeCylinder(0.4, 0.35),
  makeCone(0.4, 0.4),
  makeConvexPolyhedron(hullPoints),
  makeRoundedCuboid({ x: 0.3, y: 0.3, z: 0.3 }, 0.1),
  makeTriangle({ x: -0.5, y: 0, z: -0.5 }, { x: 0.5, y: 0, z: -0.5 }, { x: 0, y: 0, z: 0.6 }),
  makeTriangleMesh(
    [-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1, 0, 0.3, 0],
    [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4],
  ),
  makeCompound([
    { shape: makeSphere(0.3), pose: pose(0.3, 0, 0) },
    { shape: makeCuboid({ x: 0.2, y: 0.2, z: 0.2 }), pose: pose(-0.3, 0, 0) },
  ]),
];

function pose(x: number, y: number, z: number, q: Quat = { x: 0, y: 0, z: 0, w: 1 }): Isometry {
  return { translation: { x, y, z }, rotation: q };
}

function unitQuat(a: number, b: number, c: number, d: number): Quat {
  const l = Math.hypot(a, b, c, d);
  if (!(l > 1e-3)) return { x: 0, y: 0, z: 0, w: 1 };
  return { x: a / l, y: b / l, z: c / l, w: d / l };
}

const coord = fc.double({ min: -1.6, max: 1.6, noNaN: true });
// From a seed (fast-check's doubles favour 0 and ±1, which makes axis-aligned boxes, whose
// bounding boxes are the boxes themselves: no separated candidate pair would reach the cache).
const quatArb = fc.nat().map((seed) => {
  const rng = makeRandom(seed);
  return unitQuat(rng() - 0.5, rng() - 0.5, rng() - 0.5, rng() - 0.5);
});
const poseArb = fc.tuple(coord, coord, coord, quatArb).map(([x, y, z, q]) => pose(x, y, z, q));

/** What happens to one body at one step. */
type Move =
  | { kind: "stay" }
  | { kind: "drift"; dx: number; dy: number; dz: number }
  | { kind: "teleport"; to: Isometry }
  /** Rest exactly on top of body `on` (same rotation), at gap `gap` (0, ±1e-12, 1e-3, …). */
  | { kind: "stack"; on: number; gap: number }
  | { kind: "respawn" };

const moveArb: fc.Arbitrary<Move> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: "stay" } as Move) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.double({ min: -0.02, max: 0.02, noNaN: true }),
        fc.double({ min: -0.02, max: 0.02, noNaN: true }),
        fc.double({ min: -0.02, max: 0.02, noNaN: true }),
      )
      .map(([dx, dy, dz]) => ({ kind: "drift", dx, dy, dz }) as Move),
  },
  { weight: 1, arbitrary: poseArb.map((to) => ({ kind: "teleport", to }) as Move) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.nat(20), fc.constantFrom(0, 1e-12, -1e-12, 1e-9, 0.01, 0.021, -0.05, 0.5))
      .map(([on, gap]) => ({ kind: "stack", on, gap }) as Move),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "respawn" } as Move) },
  {
    weight: 2,
    arbitrary: fc
      .double({ min: 0.03, max: 0.3, noNaN: true })
      .map((dx) => ({ kind: "drift", dx, dy: 0, dz: 0 }) as Move),
  },
);

/** Bitwise comparison of the two worlds' last steps: contacts (Object.is per number) and events. */
function expectSameStep(warm: CollisionWorld, cold: CollisionWorld): void {
  expect(warm.contactCount).toBe(cold.contactCount);
  const a = makeWorldContact();
  const b = makeWorldContact();
  for (let i = 0; i < cold.contactCount; i++) {
    warm.readContact(i, a);
    cold.readContact(i, b);
    const flat = (c: typeof a) => {
      const m = c.manifold;
      const out = [c.a, c.b, c.distance, m.normal.x, m.normal.y, m.normal.z, m.count];
      for (let p = 0; p < m.count; p++) {
        const q = m.points[p];
        out.push(q.pointA.x, q.pointA.y, q.pointA.z, q.pointB.x, q.pointB.y, q.pointB.z);
        out.push(q.distance, q.featureId);
      }
      return out;
    };
    const fa = flat(a);
    const fb = flat(b);
    expect(fa.length).toBe(fb.length);
    for (let k = 0; k < fa.length; k++) {
      if (!Object.is(fa[k], fb[k])) expect([i, k, fa[k]]).toEqual([i, k, fb[k]]);
    }
  }
  const ew = warm.events();
  const ec = cold.events();
  for (const list of ["begin", "persist", "end"] as const) {
    expect(ew[list].toArray()).toEqual(ec[list].toArray());
  }
}

const totals = { reused: 0, axisEarlyOuts: 0, cold: 0 };

describe("warm starts of the world's narrow phase", () => {
  it("give bitwise the contacts and events of cold steps (random worlds, every pair type)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            // Boxes often (box–box pairs have their own warm start: the SAT axis).
            fc.oneof(
              { weight: 3, arbitrary: fc.constantFrom(0, 1) },
              { weight: 4, arbitrary: fc.nat(SHAPES.length - 1) },
            ),
            poseArb,
          ),
          { minLength: 4, maxLength: 12 },
        ),
        fc.array(fc.array(moveArb, { minLength: 12, maxLength: 12 }), {
          minLength: 3,
          maxLength: 8,
        }),
        fc.constantFrom(0, 0.02),
        fc.constantFrom("brute", "tree"),
        fc.nat(11),
        (bodies, steps, prediction, broadphase, sensorIndex) => {
          const bp = broadphase as "brute" | "tree";
          const warm = new CollisionWorld({ broadphase: bp, prediction, warmStart: true });
          const cold = new CollisionWorld({ broadphase: bp, prediction, warmStart: false });
          const hw: BodyHandle[] = [];
          const hc: BodyHandle[] = [];
          const poses: Isometry[] = [];
          const kinds: number[] = [];
          const add = (i: number) => {
            const d = {
              shape: SHAPES[kinds[i]],
              pose: poses[i],
              sensor: i === sensorIndex && kinds[i] !== 9,
            };
            hw[i] = warm.addBody(d);
            hc[i] = cold.addBody(d);
          };
          for (let i = 0; i < bodies.length; i++) {
            kinds.push(bodies[i][0]);
            poses.push(bodies[i][1]);
            add(i);
          }
          warm.step();
          cold.step();
          expectSameStep(warm, cold);
          for (const moves of steps) {
            for (let i = 0; i < bodies.length; i++) {
              const m = moves[i];
              let p = poses[i];
              if (m.kind === "stay") continue;
              if (m.kind === "respawn") {
                warm.removeBody(hw[i]);
                cold.removeBody(hc[i]);
                add(i);
                continue;
              }
              if (m.kind === "drift") {
                const t = p.translation;
                p = pose(t.x + m.dx, t.y + m.dy, t.z + m.dz, p.rotation);
              } else if (m.kind === "teleport") p = m.to;
              else {
                const under = poses[m.on % bodies.length];
                // One unit up in the lower body's frame: boxes of half-extent 0.5 face to face.
                const t = under.translation;
                p = pose(t.x, t.y + 1 + m.gap, t.z, under.rotation);
              }
              poses[i] = p;
              warm.setPose(hw[i], p);
              cold.setPose(hc[i], p);
            }
            warm.step();
            cold.step();
            expectSameStep(warm, cold);
            const s = warm.warmStartStats();
            totals.reused += s.reused;
            totals.axisEarlyOuts += s.axisEarlyOuts;
            totals.cold += s.cold;
            expect(cold.warmStartStats().reused).toBe(0);
          }
        },
      ),
      { numRuns: 150 },
    );
    // The warm paths ran (else the comparison proves nothing).
    expect(totals.reused).toBeGreaterThan(100);
    expect(totals.axisEarlyOuts).toBeGreaterThan(10);
    expect(totals.cold).toBeGreaterThan(100);
  });

  it("leaves unmoved pairs to the move buffer, and skips separated boxes by their axis", () => {
    const w = new CollisionWorld({ broadphase: "brute", warmStart: true });
    const box = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
    // A stack of 3 boxes touching face to face along z, and beside it a box turned 45° about z
    // whose bounding box overlaps the stack's but which is 0.136 apart from it in xy.
    const turn = { x: 0, y: 0, z: Math.sin(Math.PI / 8), w: Math.cos(Math.PI / 8) };
    for (let i = 0; i < 3; i++) w.addBody({ shape: box, pose: pose(0, 0, i) });
    const side = w.addBody({ shape: box, pose: pose(0.95, 0.95, 1, turn) });
    w.step();
    expect(w.stats.filteredPairs).toBe(5);
    expect(w.contactCount).toBe(2);
    expect(w.warmStartStats()).toEqual({ reused: 0, axisEarlyOuts: 0, cold: 5 });
    // Nothing moved: the move buffer keeps every pair, none reaches the narrow phase.
    w.step();
    expect(w.stats.narrowPairs).toBe(0);
    expect(w.contactCount).toBe(2);
    expect(w.events().persist.count).toBe(2);
    // The side box moves but stays apart: the axis that separated it settles its 3 pairs; the
    // stack's 2 pairs are carried by the move buffer.
    w.setPose(side, pose(0.96, 0.95, 1, turn));
    w.step();
    expect(w.stats.narrowPairs).toBe(3);
    expect(w.warmStartStats()).toEqual({ reused: 0, axisEarlyOuts: 3, cold: 0 });
    expect(w.contactCount).toBe(2);
    // Moved into the stack: the cold routine runs and finds the contacts.
    w.setPose(side, pose(0.8, 0.8, 1, turn));
    w.step();
    expect(w.warmStartStats().cold).toBe(3);
    expect(w.contactCount).toBeGreaterThan(2);
  });

  it("refuses a non-boolean warmStart option", () => {
    expect(() => new CollisionWorld({ warmStart: 1 as unknown as boolean })).toThrow(
      /options\.warmStart/,
    );
  });
});
