/**
 * Continuous collision detection in the world (src/world/ccd.ts): the tunnelling example of
 * issue 5 (a sphere of radius 0.1 moving 100 units in one step through a wall 0.01 thick is
 * reported with `ccd`, missed without), thin walls at random angles, several fast bodies, fast
 * against fast, rotating sweeps, filters and determinism across broad phases.
 *
 * Oracle: the signed distance of two convex shapes (src/query/contact.ts, negative when they
 * overlap) is a convex function of time under a linear motion (the signed distance of a point to
 * a convex set, the Minkowski difference, moving on a line), so its minimum over the step is
 * found by ternary search and its first root by bisection — no conservative advancement involved.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { makeCuboid, makeSphere, makeTriangleMesh } from "../../src/shapes/index.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import type { WorldImpact } from "../../src/world/ccd.js";
import { CollisionWorld, type WorldBroadPhase } from "../../src/world/collision-world.js";
import { num, unitQuat, vec } from "../oracles/arbitraries.js";

const BROAD_PHASES: WorldBroadPhase[] = ["brute", "sap", "grid", "tree"];
const AMBIGUOUS_GAP = 1e-4;
const TOI_TOLERANCE = 1e-6;

/** The signed gap of `a` moving linearly from pa0 to pa1 and `b` from pb0 to pb1, at time t. */
function gapAt(
  a: ConvexShape,
  pa0: Isometry,
  pa1: Isometry,
  b: ConvexShape,
  pb0: Isometry,
  pb1: Isometry,
  t: number,
): number {
  const lerp = (p0: Isometry, p1: Isometry) =>
    iso.create(
      vec3.add(
        vec3.create(),
        vec3.scale(vec3.create(), p0.translation, 1 - t),
        vec3.scale(vec3.create(), p1.translation, t),
      ),
      p0.rotation,
    );
  return (contact(a, lerp(pa0, pa1), b, lerp(pb0, pb1), Infinity) as { distance: number }).distance;
}

/** Oracle: {minGap, first root} of the convex gap over t ∈ [0, 1] (root null when no contact). */
function oracle(g: (t: number) => number): { minGap: number; toi: number | null } {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (g(m1) <= g(m2)) hi = m2;
    else lo = m1;
  }
  let tMin = (lo + hi) / 2;
  if (g(0) <= g(tMin)) tMin = 0;
  const minGap = g(tMin);
  if (minGap > 0) return { minGap, toi: null };
  if (g(0) <= 0) return { minGap, toi: 0 };
  let a = 0;
  let b = tMin;
  for (let i = 0; i < 200; i++) {
    const m = (a + b) / 2;
    if (g(m) > 0) a = m;
    else b = m;
  }
  return { minGap, toi: b };
}

const at = (x: number, y = 0, z = 0, q = quat.identity()) => iso.create({ x, y, z }, q);

describe("the tunnelling example (issue 5)", () => {
  const run = (ccd: boolean, bp: WorldBroadPhase = "tree") => {
    const w = new CollisionWorld({ broadphase: bp });
    const bullet = w.addBody({ shape: makeSphere(0.1), pose: at(0), ccd });
    const wall = w.addBody({ shape: makeCuboid({ x: 0.005, y: 5, z: 5 }), pose: at(50) });
    w.step();
    w.setPose(bullet, at(100));
    w.step();
    return { w, bullet, wall };
  };

  it("is reported with the flag, at the hand-derived time of impact", () => {
    for (const bp of BROAD_PHASES) {
      const { w, bullet, wall } = run(true, bp);
      expect(w.contactCount).toBe(0);
      const list = w.impacts();
      expect(list.count).toBe(1);
      const hit = list.read(0);
      expect([hit.a, hit.b]).toEqual([bullet, wall]);
      // The sphere's front (x + 0.1) reaches the wall's face x = 49.995 at x = 49.895.
      expect(Math.abs(hit.toi - 49.895 / 100)).toBeLessThan(1e-9);
      expect(hit.toi).toBeLessThanOrEqual(49.895 / 100);
      expect(hit.normal.x).toBeCloseTo(1, 12);
      expect(hit.pointB.x).toBeCloseTo(49.995, 9);
      expect(vec3.distance(hit.pointA, hit.pointB)).toBeLessThan(1e-8);
      expect(list.toArray()).toEqual([hit]);
      expect(w.isCcd(bullet)).toBe(true);
    }
  });

  it("is missed without the flag (documented), and no impact is listed", () => {
    const { w, bullet } = run(false);
    expect(w.contactCount).toBe(0);
    expect(w.events().begin.count).toBe(0);
    expect(w.impacts().count).toBe(0);
    expect(w.isCcd(bullet)).toBe(false);
  });

  it("is reported again only when the body sweeps through again", () => {
    const { w, bullet } = run(true);
    w.step(); // not moved: no sweep
    expect(w.impacts().count).toBe(0);
    w.setPose(bullet, at(0));
    w.step(); // back through the wall: hits its other face
    expect(w.impacts().count).toBe(1);
    expect(w.impacts().read(0).normal.x).toBeCloseTo(-1, 12);
  });
});

const bulletArb = fc.oneof(
  num(0.05, 0.2).map((r) => makeSphere(r) as ConvexShape),
  vec(0.02, 0.15).map((h) => makeCuboid(h) as ConvexShape),
);

describe("thin walls at random angles", () => {
  it("a fast body is reported iff the oracle sees contact, at its time of impact", () => {
    let hits = 0;
    let misses = 0;
    fc.assert(
      fc.property(
        bulletArb,
        unitQuat,
        unitQuat,
        vec(-3, 3),
        vec(-4.5, 4.5),
        vec(-4.5, 4.5),
        num(5, 100),
        fc.boolean(),
        (bullet, wallQ, bulletQ, c, off0, off1, reach, bulletFirst) => {
          const wall = makeCuboid({ x: 0.005, y: 2, z: 2 });
          const wallPose = iso.create(c, wallQ);
          const n = quat.rotate(vec3.create(), wallQ, { x: 1, y: 0, z: 0 });
          const p0 = iso.create(
            vec3.add(vec3.create(), vec3.addScaled(vec3.create(), c, n, -reach), off0),
            bulletQ,
          );
          const p1 = iso.create(
            vec3.add(vec3.create(), vec3.addScaled(vec3.create(), c, n, reach), off1),
            bulletQ,
          );
          const o = oracle((t) => gapAt(bullet, p0, p1, wall, wallPose, wallPose, t));
          fc.pre(Math.abs(o.minGap) > AMBIGUOUS_GAP);
          const outs: string[] = [];
          for (const bp of BROAD_PHASES) {
            for (const ccd of [true, false]) {
              const w = new CollisionWorld({ broadphase: bp });
              const add = () => w.addBody({ shape: bullet, pose: p0, ccd });
              const hb = bulletFirst ? add() : 0;
              const hw = w.addBody({ shape: wall, pose: wallPose });
              const h = bulletFirst ? hb : add();
              w.step();
              w.setPose(h as typeof hw, p1);
              w.step();
              const imp = w.impacts().toArray();
              expect(w.contactCount).toBe(0);
              if (ccd && bp === "brute") {
                if (o.toi === null) misses++;
                else hits++;
              }
              if (!ccd || o.toi === null) {
                expect(imp).toEqual([]);
                continue;
              }
              expect(imp.length).toBe(1);
              const i = imp[0];
              expect([i.a, i.b]).toEqual(bulletFirst ? [h, hw] : [hw, h]);
              expect(Math.abs(i.toi - o.toi)).toBeLessThan(TOI_TOLERANCE);
              // Conservative advancement approaches from before (up to the rounding of the contact routine).
              expect(i.toi).toBeLessThanOrEqual(o.toi + 1e-9);
              expect(vec3.length(i.normal)).toBeCloseTo(1, 9);
              expect(vec3.distance(i.pointA, i.pointB)).toBeLessThan(1e-6);
              // The normal points from a toward b: along +n when the bullet is a.
              const along = vec3.dot(i.normal, n);
              expect(bulletFirst ? along : -along).toBeGreaterThan(0);
              outs.push(JSON.stringify(imp));
            }
          }
          for (const s of outs) expect(s).toBe(outs[0]);
        },
      ),
      { numRuns: 120 },
    );
    expect(hits).toBeGreaterThan(20);
    expect(misses).toBeGreaterThan(5);
  });
});

describe("several fast bodies", () => {
  it("each impact equals the one found with that body alone, in ascending pair order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(bulletArb, vec(-4, 4), vec(-4, 4)), { minLength: 1, maxLength: 6 }),
        unitQuat,
        (bullets, wallQ) => {
          const wall = makeCuboid({ x: 0.005, y: 3, z: 3 });
          const wallPose = iso.create({ x: 0, y: 0, z: 0 }, wallQ);
          const n = quat.rotate(vec3.create(), wallQ, { x: 1, y: 0, z: 0 });
          const motion = bullets.map(([, a, b]) => [
            iso.create(vec3.addScaled(vec3.create(), a, n, -40)),
            iso.create(vec3.addScaled(vec3.create(), b, n, 40)),
          ]);
          const runWith = (which: number[]) => {
            const w = new CollisionWorld();
            const hw = w.addBody({ shape: wall, pose: wallPose });
            const hs = which.map((k) =>
              w.addBody({ shape: bullets[k][0], pose: motion[k][0], ccd: true }),
            );
            w.step();
            which.forEach((k, j) => {
              w.setPose(hs[j], motion[k][1]);
            });
            w.step();
            return { w, hw, hs };
          };
          const all = runWith(bullets.map((_, k) => k));
          const imp = all.w.impacts().toArray();
          // Bullets may also hit each other: keep the wall's impacts for the comparison.
          const wallImpacts = imp.filter((x) => x.a === all.hw || x.b === all.hw);
          const expected: WorldImpact[] = [];
          bullets.forEach((_, k) => {
            const one = runWith([k]).w.impacts().toArray();
            for (const x of one) expected.push({ ...x, b: all.hs[k] });
          });
          expect(wallImpacts).toEqual(expected);
          const keys = imp.map((x) => [x.a, x.b]);
          const sorted = [...keys].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
          expect(keys).toEqual(sorted);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("fast against fast", () => {
  it("two head-on spheres meet at the hand-derived time", () => {
    const w = new CollisionWorld();
    const a = w.addBody({ shape: makeSphere(0.1), pose: at(-50), ccd: true });
    const b = w.addBody({ shape: makeSphere(0.1), pose: at(50), ccd: true });
    w.step();
    w.setPose(a, at(50));
    w.setPose(b, at(-50));
    w.step();
    // Centre distance 100 − 200 t reaches 0.2 at t = 0.499.
    const imp = w.impacts().toArray();
    expect(imp.length).toBe(1);
    expect([imp[0].a, imp[0].b]).toEqual([a, b]);
    expect(Math.abs(imp[0].toi - 0.499)).toBeLessThan(1e-9);
    expect(imp[0].normal.x).toBeCloseTo(1, 12);
  });

  it("both motions are swept: reported iff the oracle on the two motions sees contact", () => {
    let hits = 0;
    fc.assert(
      fc.property(
        bulletArb,
        bulletArb,
        vec(-30, 30),
        vec(-30, 30),
        vec(-30, 30),
        vec(-30, 30),
        (sa, sb, a0, a1, b0, b1) => {
          const pa0 = iso.create(a0);
          const pa1 = iso.create(a1);
          const pb0 = iso.create(b0);
          // Aim B at A's path half the time, so that hits are common:
          // B's end a0 + a1 − b0 puts both at A's midpoint at t = 0.5.
          const pb1 = iso.create(vec3.sub(vec3.create(), vec3.add(vec3.create(), a0, a1), b0));
          const ends = [pb1, iso.create(b1)];
          for (const pbEnd of ends) {
            const o = oracle((t) => gapAt(sa, pa0, pa1, sb, pb0, pbEnd, t));
            if (Math.abs(o.minGap) <= AMBIGUOUS_GAP) continue;
            if (o.toi !== null) hits++;
            const outs: string[] = [];
            for (const bp of BROAD_PHASES) {
              const w = new CollisionWorld({ broadphase: bp });
              const ha = w.addBody({ shape: sa, pose: pa0, ccd: true });
              const hb = w.addBody({ shape: sb, pose: pb0, ccd: true });
              w.step();
              w.setPose(ha, pa1);
              w.setPose(hb, pbEnd);
              w.step();
              const imp = w.impacts().toArray();
              if (o.toi === null) expect(imp).toEqual([]);
              else {
                expect(imp.length).toBe(1);
                expect([imp[0].a, imp[0].b]).toEqual([ha, hb]);
                expect(Math.abs(imp[0].toi - o.toi)).toBeLessThan(TOI_TOLERANCE);
              }
              outs.push(JSON.stringify(imp));
            }
            for (const s of outs) expect(s).toBe(outs[0]);
          }
        },
      ),
      { numRuns: 100 },
    );
    expect(hits).toBeGreaterThan(50);
  });
});

describe("rotating sweeps", () => {
  it("a spinning rod moving through a wall is caught, touching at the reported time", () => {
    const rod = makeCuboid({ x: 1, y: 0.05, z: 0.05 });
    const wall = makeCuboid({ x: 0.005, y: 5, z: 5 });
    const q0 = quat.identity();
    const q1 = quat.fromAxisAngle(quat.identity(), { x: 0, y: 0, z: 1 }, Math.PI / 2);
    const w = new CollisionWorld();
    const h = w.addBody({ shape: rod, pose: at(-50, 0, 0, q0), ccd: true });
    w.addBody({ shape: wall, pose: at(0) });
    w.step();
    w.setPose(h, at(50, 0, 0, q1));
    w.step();
    const imp = w.impacts().toArray();
    expect(imp.length).toBe(1);
    const toi = imp[0].toi;
    expect(toi).toBeGreaterThan(0.45);
    expect(toi).toBeLessThan(0.5);
    const poseAt = (t: number) => {
      const r = quat.create(
        q0.x + (q1.x - q0.x) * t,
        q0.y + (q1.y - q0.y) * t,
        q0.z + (q1.z - q0.z) * t,
        q0.w + (q1.w - q0.w) * t,
      );
      quat.normalize(r, r);
      return at(-50 + 100 * t, 0, 0, r);
    };
    const g = (t: number) =>
      (contact(rod, poseAt(t), wall, at(0), Infinity) as { distance: number }).distance;
    expect(Math.abs(g(toi))).toBeLessThan(1e-6);
    for (let k = 0; k < 2000; k++) expect(g((toi * k) / 2000)).toBeGreaterThan(-1e-9);
  });
});

describe("filters, skips and the flag's life cycle", () => {
  const wallShape = makeCuboid({ x: 0.005, y: 5, z: 5 });

  function sweep(
    setup: (w: CollisionWorld) => number,
    wallDesc: Partial<{ layer: number; mask: number; sensor: boolean }> = {},
  ) {
    const w = new CollisionWorld();
    w.addBody({ shape: wallShape, pose: at(50), ...wallDesc });
    const h = setup(w) as Parameters<CollisionWorld["setPose"]>[0];
    w.step();
    w.setPose(h, at(100));
    w.step();
    return w.impacts().count;
  }

  it("respects layers and masks, and skips sensors", () => {
    const bullet = makeSphere(0.1);
    expect(sweep((w) => w.addBody({ shape: bullet, pose: at(0), ccd: true, mask: 2 }))).toBe(0);
    expect(sweep((w) => w.addBody({ shape: bullet, pose: at(0), ccd: true }), { mask: 2 })).toBe(0);
    expect(
      sweep((w) => w.addBody({ shape: bullet, pose: at(0), ccd: true, layer: 2 }), { mask: 2 }),
    ).toBe(1);
    expect(
      sweep((w) => w.addBody({ shape: bullet, pose: at(0), ccd: true }), { sensor: true }),
    ).toBe(0);
  });

  it("refuses ccd on a sensor (a sensor reports overlaps at the step's poses), world unchanged", () => {
    const bullet = makeSphere(0.1);
    const w = new CollisionWorld();
    const err = (() => {
      try {
        w.addBody({ shape: bullet, pose: at(0), ccd: true, sensor: true });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(CollideError);
    expect((err as CollideError).field).toBe("body.ccd");
    expect((err as CollideError).message).toMatch(/sensor/);
    expect(w.bodyCount).toBe(0);
    const s = w.addBody({ shape: bullet, pose: at(0), sensor: true });
    expect(() => w.setCcd(s, true)).toThrow(/sensor/);
    expect(w.isCcd(s)).toBe(false);
    w.setCcd(s, false); // turning it off is always allowed
    // A non-sensor sweeping through a sensor wall: no impact (sensor pairs are not swept).
    expect(
      sweep((w) => w.addBody({ shape: bullet, pose: at(0), ccd: true }), { sensor: true }),
    ).toBe(0);
  });

  it("sweeps against triangle-mesh candidates (they were skipped, issue 14)", () => {
    const w = new CollisionWorld();
    const mesh = makeTriangleMesh(
      new Float64Array([50, -5, -5, 50, 5, -5, 50, 0, 5]),
      new Uint32Array([0, 1, 2]),
    );
    w.addBody({ shape: mesh, pose: at(0) });
    const h = w.addBody({ shape: makeSphere(0.1), pose: at(0), ccd: true });
    w.step();
    w.setPose(h, at(100));
    w.step();
    expect(w.impacts().count).toBe(1);
    // The sphere's front (x + 0.1) reaches the triangle's plane x = 50 at x = 49.9.
    expect(w.impacts().read(0).toi).toBeCloseTo(0.499, 9);
  });

  it("setCcd turns the sweep on (from the current pose) and off; removal forgets the body", () => {
    const w = new CollisionWorld();
    w.addBody({ shape: wallShape, pose: at(50) });
    const h = w.addBody({ shape: makeSphere(0.1), pose: at(0) });
    w.step();
    w.setPose(h, at(100));
    w.setCcd(h, true); // sweep starts here, at x = 100
    w.step();
    expect(w.impacts().count).toBe(0);
    w.setPose(h, at(0));
    w.step();
    expect(w.impacts().count).toBe(1);
    w.setCcd(h, false);
    expect(w.isCcd(h)).toBe(false);
    w.setPose(h, at(100));
    w.step();
    expect(w.impacts().count).toBe(0);
    w.setCcd(h, true);
    w.removeBody(h);
    w.step();
    expect(w.impacts().count).toBe(0);
    const h2 = w.addBody({ shape: makeSphere(0.1), pose: at(0) }); // reuses the slot
    expect(w.isCcd(h2)).toBe(false);
  });

  it("rejects a non-boolean flag", () => {
    const w = new CollisionWorld();
    expect(() =>
      w.addBody({ shape: makeSphere(1), pose: at(0), ccd: 1 as unknown as boolean }),
    ).toThrow(CollideError);
    const h = w.addBody({ shape: makeSphere(1), pose: at(0) });
    expect(() => w.setCcd(h, "yes" as unknown as boolean)).toThrow(CollideError);
  });
});

describe("determinism", () => {
  it("the same operations give identical impacts, with every broad phase", () => {
    const ops = fc.array(
      fc.record({ k: fc.integer({ min: 0, max: 7 }), to: vec(-20, 20), q: unitQuat }),
      { minLength: 1, maxLength: 30 },
    );
    fc.assert(
      fc.property(ops, (list) => {
        const runOnce = (bp: WorldBroadPhase) => {
          const w = new CollisionWorld({ broadphase: bp });
          const hs = [];
          for (let k = 0; k < 8; k++) {
            const shape = k % 2 === 0 ? makeSphere(0.2) : makeCuboid({ x: 0.3, y: 0.05, z: 2 });
            hs.push(w.addBody({ shape, pose: at(4 * k - 16), ccd: k < 4 }));
          }
          const log: WorldImpact[][] = [];
          for (const op of list) {
            w.setPose(hs[op.k], iso.create(op.to, op.q));
            w.step();
            log.push(w.impacts().toArray());
          }
          return JSON.stringify(log);
        };
        const first = runOnce("tree");
        expect(runOnce("tree")).toBe(first);
        for (const bp of BROAD_PHASES) expect(runOnce(bp)).toBe(first);
      }),
      { numRuns: 40 },
    );
  });
});
