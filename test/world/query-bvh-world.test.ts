/**
 * The collision world's static query BVH: after one query per body on an unchanged world, ray
 * casts and box queries go through it instead of the broad phase. These tests check that the
 * answers are the same before and after the switch (against a scan of every body), and that any
 * change — a move, an addition, a removal — is seen by the very next query.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WORLD_QUERY_BVH_RAYS_PER_BODY } from "../../src/constants.js";
import type { Isometry } from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { castRayShape, makeRayHit } from "../../src/query/raycast.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld, type WorldBroadPhase } from "../../src/world/collision-world.js";
import type { BodyHandle } from "../../src/world/handles.js";
import { castRayAll, castRayAny, castRayClosest } from "../../src/world/ray-cast.js";

const v = (x: number, y: number, z: number): Vec3 => ({ x, y, z });
const at = (x: number, y: number, z: number, q = { x: 0, y: 0, z: 0, w: 1 }): Isometry => ({
  translation: v(x, y, z),
  rotation: q,
});

/** Every body the ray hits, by a scan with the per-shape cast: [handle, toi] sorted. */
function scanRay(w: CollisionWorld, hs: BodyHandle[], o: Vec3, d: Vec3, maxToi: number) {
  const hit = makeRayHit();
  const out: [number, number][] = [];
  for (const h of hs) {
    if (!w.has(h)) continue;
    if (castRayShape(hit, w.getShape(h), w.getPose(h), o, d, maxToi, true)) out.push([h, hit.toi]);
  }
  return out.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

function scanBox(w: CollisionWorld, hs: BodyHandle[], mn: Vec3, mx: Vec3): number[] {
  return hs.filter((h) => {
    if (!w.has(h)) return false;
    const b = w.getAabb(h);
    return (
      b.min.x <= mx.x &&
      mn.x <= b.max.x &&
      b.min.y <= mx.y &&
      mn.y <= b.max.y &&
      b.min.z <= mx.z &&
      mn.z <= b.max.z
    );
  });
}

const QUATS = [
  { x: 0, y: 0, z: 0, w: 1 },
  { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 },
  { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },
];

const bodyArb = fc.record({
  kind: fc.nat(2),
  x: fc.integer({ min: -8, max: 8 }),
  y: fc.integer({ min: -8, max: 8 }),
  z: fc.integer({ min: -8, max: 8 }),
  size: fc.constantFrom(0.5, 1, 1.5),
  rot: fc.nat(2),
});
const rayArb = fc.record({
  o: fc.tuple(fc.integer({ min: -10, max: 10 }), fc.integer({ min: -10, max: 10 })),
  d: fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 }), fc.constant(1)),
  maxToi: fc.constantFrom(Infinity, 5, 12),
});

type BodySpec = typeof bodyArb extends fc.Arbitrary<infer T> ? T : never;

function addAll(w: CollisionWorld, list: BodySpec[]) {
  return list.map((b) =>
    w.addBody({
      shape:
        b.kind === 0
          ? makeSphere(b.size)
          : b.kind === 1
            ? makeCuboid(v(b.size, b.size / 2, b.size))
            : makeCapsule(v(0, -b.size, 0), v(0, b.size, 0), b.size / 3),
      pose: at(b.x, b.y, b.z, QUATS[b.rot]),
    }),
  );
}

describe("CollisionWorld query BVH", () => {
  for (const bp of ["tree", "grid", "sap", "brute"] as WorldBroadPhase[]) {
    it(`${bp}: answers are the same before and after the switch, and after every change`, () => {
      fc.assert(
        fc.property(
          fc.array(bodyArb, { minLength: 1, maxLength: 30 }),
          fc.array(rayArb, { minLength: 1, maxLength: 4 }),
          fc.nat(),
          (list, rays, pick) => {
            const w = new CollisionWorld({ broadphase: bp });
            const hs = addAll(w, list);
            const check = () => {
              for (const r of rays) {
                const o = v(r.o[0], r.o[1], -20);
                const d = v(r.d[0], r.d[1], r.d[2]);
                const want = scanRay(w, hs, o, d, r.maxToi);
                const all = castRayAll(w, o, d, r.maxToi).map((x) => [x.handle, x.toi]);
                expect(all).toEqual(want);
                const closest = castRayClosest(w, o, d, r.maxToi);
                expect(closest ? [closest.handle, closest.toi] : null).toEqual(want[0] ?? null);
                expect(castRayAny(w, o, d, r.maxToi) !== null).toBe(want.length > 0);
                const mn = v(r.o[0] - 2, r.o[1] - 2, -3);
                const mx = v(r.o[0] + 2, r.o[1] + 2, 3);
                expect(w.overlapAabb(mn, mx)).toEqual(scanBox(w, hs, mn, mx));
              }
            };
            // Enough rounds that the later ones run on the query BVH.
            const rounds = Math.ceil((WORLD_QUERY_BVH_RAYS_PER_BODY * hs.length) / rays.length) + 2;
            for (let i = 0; i < rounds; i++) check();
            // (White box: the later rounds did run on the hierarchy.)
            expect((w as unknown as { queryBvhFresh: boolean }).queryBvhFresh).toBe(true);
            // A move, an addition and a removal are each seen at once.
            const h = hs[pick % hs.length];
            w.setPose(h, at(0, 0, 0));
            check();
            hs.push(w.addBody({ shape: makeSphere(2), pose: at(1, 1, 0) }));
            check();
            w.removeBody(hs[(pick >> 3) % hs.length]);
            check();
            for (let i = 0; i < rounds; i++) check();
          },
        ),
        { numRuns: 60 },
      );
    });
  }

  it("half-spaces stay outside the hierarchy and are still hit", () => {
    const w = new CollisionWorld();
    const ground = w.addBody({ shape: makeHalfSpace(v(0, 1, 0), 0), pose: at(0, 0, 0) });
    const boxes: BodyHandle[] = [];
    for (let i = 0; i < 10; i++) {
      boxes.push(w.addBody({ shape: makeCuboid(v(0.5, 0.5, 0.5)), pose: at(3 * i, 5, 0) }));
    }
    for (let i = 0; i < 40; i++) {
      // Straight down between the boxes: the ground at toi 10; through box 2: its top at 4.5.
      expect(castRayClosest(w, v(1.5, 10, 0), v(0, -1, 0))).toMatchObject({
        handle: ground,
        toi: 10,
      });
      expect(castRayClosest(w, v(6, 10, 0), v(0, -1, 0))).toMatchObject({
        handle: boxes[2],
        toi: 4.5,
      });
    }
  });

  it("a world emptied after the build reports nothing", () => {
    const w = new CollisionWorld();
    const h = w.addBody({ shape: makeSphere(1), pose: at(0, 0, 0) });
    for (let i = 0; i < 5; i++) expect(castRayClosest(w, v(-5, 0, 0), v(1, 0, 0))?.toi).toBe(4);
    w.removeBody(h);
    for (let i = 0; i < 5; i++) expect(castRayClosest(w, v(-5, 0, 0), v(1, 0, 0))).toBeNull();
    expect(w.overlapAabb(v(-1, -1, -1), v(1, 1, 1))).toEqual([]);
  });
});
