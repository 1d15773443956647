/**
 * `CollisionWorld.candidatePairs()` (the broad phase's pairs of the last step, for the viewer)
 * against a brute-force oracle: every pair whose tight AABBs overlap is a candidate, every
 * touching pair is a candidate, the count is the step's statistic, and each pair is
 * `(lower, higher)` handle of live bodies; for every broad phase.
 */
import { describe, expect, it } from "vitest";
import * as aabbm from "../../src/math/aabb.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom, uniform } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import type { BodyHandle } from "../../src/world/handles.js";

describe("CollisionWorld.candidatePairs", () => {
  for (const broadphase of ["brute", "sap", "grid", "tree"] as const) {
    it(`holds every overlapping and touching pair (${broadphase})`, () => {
      const rng = makeRandom(11);
      const w = new CollisionWorld({ broadphase });
      const handles: BodyHandle[] = [];
      for (let i = 0; i < 120; i++) {
        const t = vec3.create(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
        const shape =
          i % 2 ? makeSphere(uniform(rng, 0.2, 0.8)) : makeCuboid(vec3.create(0.5, 0.3, 0.4));
        handles.push(w.addBody({ shape, pose: iso.create(t) }));
      }
      w.step();
      const flat = w.candidatePairs();
      expect(flat.length % 2).toBe(0);
      expect(flat.length / 2).toBe(w.stats.candidatePairs);
      const keys = new Set<string>();
      for (let k = 0; k < flat.length; k += 2) {
        expect(flat[k]).toBeLessThan(flat[k + 1]);
        expect(w.has(flat[k]) && w.has(flat[k + 1])).toBe(true);
        keys.add(`${flat[k]}/${flat[k + 1]}`);
      }
      expect(keys.size).toBe(flat.length / 2);
      const boxes = handles.map((h) => w.getAabb(h));
      let overlapping = 0;
      for (let i = 0; i < handles.length; i++) {
        for (let j = i + 1; j < handles.length; j++) {
          if (!aabbm.overlaps(boxes[i], boxes[j])) continue;
          overlapping++;
          const [a, b] =
            handles[i] < handles[j] ? [handles[i], handles[j]] : [handles[j], handles[i]];
          expect(keys.has(`${a}/${b}`)).toBe(true);
        }
      }
      expect(overlapping).toBeGreaterThan(0);
      for (const c of w.contacts()) expect(keys.has(`${c.a}/${c.b}`)).toBe(true);
    });
  }
});
