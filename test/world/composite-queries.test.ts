/**
 * The world's queries through the one composite path (issue 14): `castShape` and CCD against
 * triangle meshes, compounds and half-spaces (they were skipped), and ray casts near compounds
 * (they threw `unsupported_pair`, even for a ray that missed). Oracles: brute force over the
 * bodies with the shape-level queries, each body alone (their own oracle tests are in
 * test/query/composite.test.ts), and hand-derived times.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { raycast } from "../../src/query/raycast.js";
import {
  makeCompound,
  makeCuboid,
  makeHalfSpace,
  makeSphere,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { castShape } from "../../src/world/cast-shape.js";
import { CollisionWorld, type WorldBroadPhase } from "../../src/world/collision-world.js";
import { castRayClosest } from "../../src/world/ray-cast.js";
import { randomSoup } from "../mesh/helpers.js";
import { vec } from "../oracles/arbitraries.js";

const BROAD_PHASES: WorldBroadPhase[] = ["brute", "sap", "grid", "tree"];
const at = (x: number, y = 0, z = 0) => iso.create({ x, y, z }, { x: 0, y: 0, z: 0, w: 1 });

/** A square wall of two triangles in the plane x = `x`, spanning y, z ∈ [−5, 5]. */
function meshWall(x: number) {
  return makeTriangleMesh([x, -5, -5, x, 5, -5, x, 5, 5, x, -5, 5], [0, 1, 2, 0, 2, 3]);
}

describe("world castShape against meshes, compounds and half-spaces", () => {
  it("the issue's example: a sphere swept at a mesh wall at 4.5 reports the wall, not the box at 7", () => {
    for (const bp of BROAD_PHASES) {
      const w = new CollisionWorld({ broadphase: bp });
      const wall = w.addBody({ shape: meshWall(5), pose: iso.identity() });
      w.addBody({ shape: makeCuboid({ x: 0.5, y: 5, z: 5 }), pose: at(7.5) });
      const hit = castShape(w, makeSphere(0.5), at(0), { x: 1, y: 0, z: 0 }, 100);
      expect(hit?.handle).toBe(wall);
      expect(hit?.toi).toBeCloseTo(4.5, 9);
      expect(hit?.normal.x).toBeCloseTo(1, 9);
    }
  });

  it("equals brute force over the bodies with castShapes (soups, compounds, a ground plane)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), vec(-6, 6), (seed, v) => {
        const rng = makeRandom(seed);
        const bodies: { shape: Shape; pose: ReturnType<typeof at> }[] = [
          { shape: randomSoup(rng, 10, 6, 1.5), pose: at(3, 0, 0) },
          {
            shape: makeCompound([
              { shape: makeSphere(0.4), pose: at(0, 0.5, 0) },
              { shape: makeCuboid({ x: 0.3, y: 0.2, z: 0.6 }), pose: at(0.5, 0, 0) },
            ]),
            pose: at(-3, 1, 1),
          },
          { shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, -4), pose: iso.identity() },
        ];
        const w = new CollisionWorld({ broadphase: "tree" });
        const handles = bodies.map((b) => w.addBody(b));
        const shape = makeSphere(0.3);
        const start = at(0, 1, 0);
        let best: number | null = null;
        let bestHandle = 0;
        bodies.forEach((b, i) => {
          const h = castShapes(shape, start, v, b.shape, b.pose, vec3.create(), 2);
          if (h && (best === null || h.toi < best)) {
            best = h.toi;
            bestHandle = handles[i];
          }
        });
        const got = castShape(w, shape, start, v, 2);
        if (best === null) expect(got).toBeNull();
        else {
          expect(got?.toi).toBe(best);
          expect(got?.handle).toBe(bestHandle);
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe("world CCD against meshes", () => {
  it("a fast sphere crossing a mesh wall in one step is reported at the hand-derived time", () => {
    for (const bp of BROAD_PHASES) {
      const w = new CollisionWorld({ broadphase: bp });
      const bullet = w.addBody({ shape: makeSphere(0.1), pose: at(0), ccd: true });
      const wall = w.addBody({ shape: meshWall(50), pose: iso.identity() });
      w.step();
      w.setPose(bullet, at(100));
      w.step();
      const list = w.impacts();
      expect(list.count).toBe(1);
      const hit = list.read(0);
      expect([hit.a, hit.b]).toEqual([bullet, wall]);
      // The sphere's front (x + 0.1) reaches x = 50 at x = 49.9: toi 0.499 of the step.
      expect(hit.toi).toBeCloseTo(0.499, 8);
      expect(hit.normal.x).toBeCloseTo(1, 9);
    }
  });

  it("a fast compound crossing a mesh wall, and a fast sphere crossing a half-space", () => {
    const w = new CollisionWorld({ broadphase: "grid" });
    const body = makeCompound([
      { shape: makeSphere(0.1), pose: at(0, 0, 0) },
      { shape: makeSphere(0.1), pose: at(0.5, 0, 0) },
    ]);
    const fast = w.addBody({ shape: body, pose: at(0), ccd: true });
    w.addBody({ shape: meshWall(50), pose: iso.identity() });
    const ball = w.addBody({ shape: makeSphere(0.25), pose: at(0, 10, 0), ccd: true });
    w.addBody({ shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, 0), pose: iso.identity() });
    w.step();
    w.setPose(fast, at(100));
    w.setPose(ball, at(0, -30, 0));
    w.step();
    const impacts = w.impacts().toArray();
    const compoundHit = impacts.find((i) => i.a === fast);
    // The front child (x + 0.5 + 0.1) reaches x = 50 at x = 49.4.
    expect(compoundHit?.toi).toBeCloseTo(0.494, 8);
    const ballHit = impacts.find((i) => i.a === ball || i.b === ball);
    // The ball's bottom (y − 0.25) reaches y = 0 after 9.75 of 40.
    expect(ballHit?.toi).toBeCloseTo(9.75 / 40, 8);
  });
});

describe("world ray casts near compounds", () => {
  it("a ray that misses a compound but crosses its box answers (no unsupported_pair)", () => {
    const w = new CollisionWorld({ broadphase: "tree" });
    const c = makeCompound([
      { shape: makeSphere(0.5), pose: at(-2, 0, 0) },
      { shape: makeSphere(0.5), pose: at(2, 0, 0) },
    ]);
    w.addBody({ shape: c, pose: iso.identity() });
    expect(castRayClosest(w, { x: 0, y: -5, z: 0 }, { x: 0, y: 1, z: 0 }, 10)).toBeNull();
    const hit = castRayClosest(w, { x: 2, y: -5, z: 0 }, { x: 0, y: 1, z: 0 }, 10);
    expect(hit?.toi).toBeCloseTo(4.5, 12);
  });

  it("closest hits equal brute force over the bodies (compounds, meshes, convex)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), vec(-5, 5), vec(-1, 1), (seed, o, d) => {
        if (vec3.length(d) < 1e-3) return;
        const rng = makeRandom(seed);
        const bodies: { shape: Shape; pose: ReturnType<typeof at> }[] = [
          { shape: randomSoup(rng, 8, 4, 1.5), pose: at(2, 0, 0) },
          {
            shape: makeCompound([
              { shape: makeSphere(0.6), pose: at(0, 0.5, 0) },
              { shape: makeCuboid({ x: 0.3, y: 0.8, z: 0.6 }), pose: at(0.5, 0, 0) },
            ]),
            pose: at(-2, 1, 0),
          },
          { shape: makeCuboid({ x: 1, y: 0.2, z: 1 }), pose: at(0, -2, 0) },
        ];
        const w = new CollisionWorld({ broadphase: "sap" });
        for (const b of bodies) w.addBody(b);
        let best: number | null = null;
        for (const b of bodies) {
          const h = raycast(b.shape, b.pose, o, d, 20);
          if (h && (best === null || h.toi < best)) best = h.toi;
        }
        const got = castRayClosest(w, o, d, 20);
        if (best === null) expect(got).toBeNull();
        else expect(got?.toi).toBe(best);
      }),
      { numRuns: 60 },
    );
  });
});
