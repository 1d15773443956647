/**
 * World ray casts with the library's `castRayShape`, against a brute-force scan that calls
 * `castRayShape` on every body: same closest body and time of impact (ties to the lower
 * handle), the same sorted list of all hits, for every broad phase, over random scenes of
 * spheres, rotated boxes, capsules and cylinders with grazing rays along lattice faces.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { castRayShape, makeRayHit } from "../../src/query/raycast.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import {
  CollisionWorld,
  castRayAll,
  castRayClosest,
  type WorldBroadPhase,
} from "../../src/world/index.js";

const int = (lo: number, hi: number) => fc.integer({ min: lo, max: hi });
const ivec = (lo: number, hi: number) =>
  fc.record({ x: int(lo, hi), y: int(lo, hi), z: int(lo, hi) });

const sceneArb = fc.record({
  bodies: fc.array(fc.record({ kind: int(0, 3), at: ivec(0, 6), q: fc.constantFrom(0, 1, 2) }), {
    maxLength: 30,
  }),
  o: ivec(-2, 8),
  d: ivec(-2, 2).filter((d) => d.x !== 0 || d.y !== 0 || d.z !== 0),
  maxToi: fc.constantFrom(Infinity, 3, 10),
  solid: fc.boolean(),
});

const QUATS = [
  { x: 0, y: 0, z: 0, w: 1 },
  { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 },
  { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },
];

describe("world ray casts against a scan of every body", () => {
  it("closest and all hits match for every broad phase", () => {
    fc.assert(
      fc.property(sceneArb, (s) => {
        const outs: string[] = [];
        for (const bp of ["brute", "sap", "grid", "tree"] as WorldBroadPhase[]) {
          const w = new CollisionWorld({ broadphase: bp });
          const shapes = [
            makeSphere(0.5),
            makeCuboid({ x: 0.5, y: 0.5, z: 0.25 }),
            makeCapsule({ x: 0, y: -0.25, z: 0 }, { x: 0, y: 0.25, z: 0 }, 0.25),
            makeCylinder(0.5, 0.5),
          ];
          const hs = s.bodies.map((b) =>
            w.addBody({ shape: shapes[b.kind], pose: iso.create(b.at as Vec3, QUATS[b.q]) }),
          );
          const scan = hs
            .map((h) => {
              const hit = makeRayHit();
              return castRayShape(hit, w.getShape(h), w.getPose(h), s.o, s.d, s.maxToi, s.solid)
                ? { h, toi: hit.toi }
                : null;
            })
            .filter((x) => x !== null)
            .sort((a, b) => a.toi - b.toi || a.h - b.h);
          const all = castRayAll(w, s.o, s.d, s.maxToi, { solid: s.solid });
          expect(all.map((x) => [x.handle, x.toi])).toEqual(scan.map((x) => [x.h, x.toi]));
          const c = castRayClosest(w, s.o, s.d, s.maxToi, { solid: s.solid });
          expect(c ? [c.handle, c.toi] : null).toEqual(
            scan.length ? [scan[0].h, scan[0].toi] : null,
          );
          outs.push(JSON.stringify([all, c]));
        }
        for (const o of outs) expect(o).toBe(outs[0]);
      }),
      { numRuns: 150 },
    );
  });
});
