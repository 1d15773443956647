/**
 * World queries through the broad phase against brute-force scans of every body: the ray casts
 * (closest, all, any; src/world/ray-cast.ts) against `castRayShape` on each body, and the shape
 * cast (src/world/cast-shape.ts) against `castShapes` on each body, with layer masks and the
 * sensor filter, for every broad phase. Scenes mix spheres, rotated boxes, capsules and
 * cylinders on a lattice (so rays graze faces and casts touch exactly) and at random positions;
 * the half-space and compound cases have hand-derived answers.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { castRayShape, makeRayHit } from "../../src/query/raycast.js";
import {
  makeCapsule,
  makeCompound,
  makeCuboid,
  makeCylinder,
  makeHalfSpace,
  makeSphere,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { castShape } from "../../src/world/cast-shape.js";
import { CollisionWorld, type WorldBroadPhase } from "../../src/world/collision-world.js";
import type { BodyHandle } from "../../src/world/handles.js";
import { castRayAll, castRayAny, castRayClosest } from "../../src/world/ray-cast.js";
import { vec } from "../oracles/arbitraries.js";

const BROAD_PHASES: WorldBroadPhase[] = ["brute", "sap", "grid", "tree"];
const int = (lo: number, hi: number) => fc.integer({ min: lo, max: hi });
const ivec = (lo: number, hi: number) =>
  fc.record({ x: int(lo, hi), y: int(lo, hi), z: int(lo, hi) });

const QUATS = [
  { x: 0, y: 0, z: 0, w: 1 },
  { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 },
  { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },
  quat.fromAxisAngle(
    quat.identity(),
    vec3.scale(vec3.create(), { x: 1, y: 2, z: 3 }, 1 / Math.sqrt(14)),
    0.7,
  ),
];

const SHAPES: ConvexShape[] = [
  makeSphere(0.5),
  makeCuboid({ x: 0.5, y: 0.5, z: 0.25 }),
  makeCapsule({ x: 0, y: -0.25, z: 0 }, { x: 0, y: 0.25, z: 0 }, 0.25),
  makeCylinder(0.5, 0.5),
];

interface BodySpec {
  kind: number;
  at: Vec3;
  q: number;
  layer: number;
  sensor: boolean;
}

const bodyArb = (pos: fc.Arbitrary<Vec3>) =>
  fc.record({
    kind: int(0, 3),
    at: pos,
    q: int(0, 3),
    layer: fc.constantFrom(1, 2, 3),
    sensor: fc.boolean(),
  });

/** Lattice bodies (touching and grazing cases) or random positions. */
const bodiesArb: fc.Arbitrary<BodySpec[]> = fc.oneof(
  fc.array(bodyArb(ivec(0, 6) as fc.Arbitrary<Vec3>), { maxLength: 30 }),
  fc.array(bodyArb(vec(-5, 10)), { maxLength: 30 }),
);

const filterArb = fc.record({
  mask: fc.constantFrom(0xffffffff, 1, 2),
  includeSensors: fc.boolean(),
});

function build(bp: WorldBroadPhase, bodies: BodySpec[]) {
  const w = new CollisionWorld({ broadphase: bp });
  const hs = bodies.map((b) =>
    w.addBody({
      shape: SHAPES[b.kind],
      pose: iso.create(b.at, QUATS[b.q]),
      layer: b.layer,
      sensor: b.sensor,
    }),
  );
  return { w, hs };
}

/**
 * Two times in three (and when there are bodies), the direction from `origin` to one of the
 * bodies, so that hits are common; otherwise (or when that is zero) `fallback`.
 */
function aimAt(bodies: BodySpec[], aim: number, origin: Vec3, fallback: Vec3): Vec3 {
  if (bodies.length === 0 || aim % 3 === 0) return fallback;
  const d = vec3.sub(vec3.create(), bodies[aim % bodies.length].at, origin);
  return d.x === 0 && d.y === 0 && d.z === 0 ? fallback : d;
}

function passes(b: BodySpec, f: { mask: number; includeSensors: boolean }): boolean {
  return (b.layer & f.mask) !== 0 && (f.includeSensors || !b.sensor);
}

describe("world ray casts (closest, all, any) against a scan of every body", () => {
  it("match the scan with layer and sensor filters, for every broad phase", () => {
    let hits = 0;
    fc.assert(
      fc.property(
        bodiesArb,
        ivec(-2, 8),
        ivec(-2, 2).filter((d) => d.x !== 0 || d.y !== 0 || d.z !== 0),
        fc.constantFrom(Infinity, 3, 10),
        fc.boolean(),
        filterArb,
        fc.nat(),
        (bodies, o, d0, maxToi, solid, filter, aim) => {
          const d = aimAt(bodies, aim, o, d0);
          const outs: string[] = [];
          for (const bp of BROAD_PHASES) {
            const { w, hs } = build(bp, bodies);
            const scan: { h: BodyHandle; toi: number }[] = [];
            hs.forEach((h, i) => {
              if (!passes(bodies[i], filter)) return;
              const hit = makeRayHit();
              if (castRayShape(hit, w.getShape(h), w.getPose(h), o, d, maxToi, solid)) {
                scan.push({ h, toi: hit.toi });
              }
            });
            scan.sort((a, b) => a.toi - b.toi || a.h - b.h);
            const opts = { solid, ...filter };
            const all = castRayAll(w, o, d, maxToi, opts);
            expect(all.map((x) => [x.handle, x.toi])).toEqual(scan.map((x) => [x.h, x.toi]));
            const c = castRayClosest(w, o, d, maxToi, opts);
            expect(c ? [c.handle, c.toi] : null).toEqual(
              scan.length ? [scan[0].h, scan[0].toi] : null,
            );
            const any = castRayAny(w, o, d, maxToi, opts);
            expect(any === null).toBe(scan.length === 0);
            if (any !== null) {
              // Some genuine hit: the very answer castRayShape gives for that body.
              const same = scan.find((x) => x.h === any.handle);
              expect(same?.toi).toBe(any.toi);
            }
            if (bp === "brute" && c !== null) hits++;
            outs.push(JSON.stringify([all, c, any !== null]));
          }
          for (const s of outs) expect(s).toBe(outs[0]);
        },
      ),
      { numRuns: 150 },
    );
    expect(hits).toBeGreaterThan(30);
  });

  it("the any-hit query stops early and sees half-spaces", () => {
    const w = new CollisionWorld();
    w.addBody({ shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, 0), pose: iso.identity() });
    const hit = castRayAny(w, { x: 0, y: 5, z: 0 }, { x: 0, y: -1, z: 0 });
    expect(hit?.toi).toBe(5);
    expect(castRayAny(w, { x: 0, y: 5, z: 0 }, { x: 0, y: 1, z: 0 })).toBeNull();
    expect(() => castRayAny(w, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 })).toThrow(CollideError);
  });
});

const ZERO = { x: 0, y: 0, z: 0 };

describe("world shape cast against a scan of every body", () => {
  it("finds the closest hit of castShapes, ties to the lower handle, for every broad phase", () => {
    let hits = 0;
    fc.assert(
      fc.property(
        bodiesArb,
        int(0, 3),
        int(0, 3),
        fc.oneof(ivec(-2, 8) as fc.Arbitrary<Vec3>, vec(-3, 9)),
        fc.oneof(ivec(-3, 3) as fc.Arbitrary<Vec3>, vec(-3, 3)),
        fc.constantFrom(0, 0.5, 1, 4),
        filterArb,
        fc.nat(),
        (bodies, kind, q, origin, v0, maxToi, filter, aim) => {
          const velocity = aimAt(bodies, aim, origin, v0);
          const shape = SHAPES[kind];
          const pose = iso.create(origin, QUATS[q]);
          const outs: string[] = [];
          for (const bp of BROAD_PHASES) {
            const { w, hs } = build(bp, bodies);
            let best: { h: BodyHandle; toi: number } | null = null;
            hs.forEach((h, i) => {
              if (!passes(bodies[i], filter)) return;
              const r = castShapes(
                shape,
                pose,
                velocity,
                w.getShape(h),
                w.getPose(h),
                ZERO,
                maxToi,
              );
              if (r && (best === null || r.toi < best.toi)) best = { h, toi: r.toi };
            });
            const got = castShape(w, shape, pose, velocity, maxToi, filter);
            const b = best as { h: BodyHandle; toi: number } | null;
            expect(got ? [got.handle, got.toi] : null).toEqual(b ? [b.h, b.toi] : null);
            if (got) {
              expect(vec3.length(got.normal)).toBeCloseTo(1, 9);
              expect(got.toi).toBeGreaterThanOrEqual(0);
              expect(got.toi).toBeLessThanOrEqual(maxToi);
            }
            if (bp === "brute" && got !== null) hits++;
            outs.push(JSON.stringify(got));
          }
          for (const s of outs) expect(s).toBe(outs[0]);
        },
      ),
      { numRuns: 150 },
    );
    expect(hits).toBeGreaterThan(30);
  });

  it("hits a half-space at the hand-derived time", () => {
    const w = new CollisionWorld();
    const floor = w.addBody({
      shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, 0),
      pose: iso.identity(),
    });
    const box = makeCuboid({ x: 1, y: 0.5, z: 1 });
    // The box's bottom (y − 0.5) starts at 9.5 and falls at 2 per unit time: toi 4.75.
    const hit = castShape(w, box, iso.create({ x: 0, y: 10, z: 0 }), { x: 1, y: -2, z: 0 }, 10);
    expect(hit?.handle).toBe(floor);
    expect(hit?.toi).toBeCloseTo(4.75, 12);
    expect(hit?.normal.y).toBeCloseTo(-1, 12);
    expect(hit?.pointB.y).toBeCloseTo(0, 12);
    expect(
      castShape(w, box, iso.create({ x: 0, y: 10, z: 0 }), { x: 1, y: -2, z: 0 }, 4),
    ).toBeNull();
    expect(
      castShape(w, box, iso.create({ x: 0, y: 10, z: 0 }), { x: 1, y: 2, z: 0 }, 10),
    ).toBeNull();
    const inside = castShape(w, box, iso.create({ x: 0, y: 0.25, z: 0 }), { x: 0, y: 1, z: 0 }, 1);
    expect(inside?.toi).toBe(0);
  });

  it("hits a compound at its nearest child, and a triangle mesh in front of it (no longer skipped)", () => {
    const w = new CollisionWorld();
    const children = [
      { shape: makeSphere(0.5), pose: iso.create({ x: 5, y: 0, z: 0 }) },
      { shape: makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }), pose: iso.create({ x: 3, y: 0, z: 0 }) },
    ];
    const c = w.addBody({ shape: makeCompound(children), pose: iso.create({ x: 1, y: 0, z: 0 }) });
    const hitAlone = castShape(w, makeSphere(0.25), iso.identity(), { x: 1, y: 0, z: 0 }, 10);
    // A sphere of radius 0.25 from x = 0 at speed 1 meets the cuboid's face x = 3.5 at t = 3.25.
    expect(hitAlone?.handle).toBe(c);
    expect(hitAlone?.toi).toBeCloseTo(3.25, 9);
    const m = w.addBody({
      shape: makeTriangleMesh(
        new Float64Array([2, -5, -5, 2, 5, -5, 2, 0, 5]),
        new Uint32Array([0, 1, 2]),
      ),
      pose: iso.identity(),
    });
    // The mesh's triangle in the plane x = 2 (it covers y = z = 0) is met first, at t = 1.75.
    const hit = castShape(w, makeSphere(0.25), iso.identity(), { x: 1, y: 0, z: 0 }, 10);
    expect(hit?.handle).toBe(m);
    expect(hit?.toi).toBeCloseTo(1.75, 9);
  });

  it("rejects bad input", () => {
    const w = new CollisionWorld();
    const p = iso.identity();
    const v = { x: 1, y: 0, z: 0 };
    expect(() => castShape(w, makeHalfSpace({ x: 0, y: 1, z: 0 }, 0), p, v, 1)).toThrow(
      CollideError,
    );
    // maxToi Infinity is accepted (test/world/cast-shape-infinite.test.ts): an empty world, a miss.
    expect(castShape(w, makeSphere(1), p, v, Infinity)).toBeNull();
    expect(() => castShape(w, makeSphere(1), p, v, -1)).toThrow(CollideError);
    expect(() => castShape(w, makeSphere(1), p, { x: Number.NaN, y: 0, z: 0 }, 1)).toThrow(
      CollideError,
    );
    expect(() => castShape(w, makeSphere(1), p, v, 1, { mask: -1 })).toThrow(CollideError);
  });
});
