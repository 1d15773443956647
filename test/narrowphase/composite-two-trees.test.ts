/**
 * The composite path's two-tree routines (src/narrowphase/composite.ts, `…CompositeComposite`)
 * for compound × compound and for a solid mesh against a compound, against brute force over
 * every child pair (GJK/EPA on each, knowing nothing of trees), in both argument orders through
 * the pair table: intersects, distance, contact depth. A solid mesh holding one child of a
 * compound wholly inside touches it, with that child's own contact (the solid's nearest surface).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  makeContact,
  makeContactManifold,
  makeDistanceResult,
} from "../../src/narrowphase/contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "../../src/narrowphase/convex-convex.js";
import {
  contactPair,
  distancePair,
  intersectsPair,
  manifoldPair,
} from "../../src/narrowphase/dispatch.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import type { Compound } from "../../src/shapes/compound.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { cubeMesh } from "../mesh/helpers.js";
import { unitQuat } from "../oracles/arbitraries.js";

function randomCompound(seed: number): Compound {
  const rng = makeRandom(seed);
  const kids = [];
  const n = 1 + Math.floor(rng() * 5);
  for (let i = 0; i < n; i++) {
    const k = Math.floor(rng() * 3);
    const shape: ConvexShape =
      k === 0
        ? makeSphere(0.1 + 0.3 * rng())
        : k === 1
          ? makeCuboid({ x: 0.1 + 0.3 * rng(), y: 0.1 + 0.3 * rng(), z: 0.1 + 0.3 * rng() })
          : makeCapsule({ x: 0, y: -0.2, z: 0 }, { x: 0, y: 0.2, z: 0 }, 0.1 + 0.2 * rng());
    const q = { x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5, w: rng() - 0.5 };
    const m = Math.hypot(q.x, q.y, q.z, q.w);
    kids.push({
      shape,
      pose: {
        translation: { x: 2 * rng() - 1, y: 2 * rng() - 1, z: 2 * rng() - 1 },
        rotation: { x: q.x / m, y: q.y / m, z: q.z / m, w: q.w / m },
      },
    });
  }
  return makeCompound(kids);
}

/** Brute force over child pairs: [intersects, distance, deepest contact distance within 0]. */
function bruteChildren(a: Compound, b: Compound, bInA: Isometry): [boolean, number, number] {
  const d = makeDistanceResult();
  const c = makeContact();
  const pose = iso.identity();
  const inv = iso.identity();
  let hit = false;
  let dist = Infinity;
  let deepest = Infinity;
  for (const x of a.children) {
    for (const y of b.children) {
      // y in x's frame: inv(x.pose) ∘ bInA ∘ y.pose
      iso.invert(inv, x.pose);
      iso.multiply(pose, inv, iso.multiply(iso.identity(), bInA, y.pose));
      const xs = x.shape as ConvexShape;
      const ys = y.shape as ConvexShape;
      if (intersectsConvexConvex(xs, ys, pose)) hit = true;
      dist = Math.min(dist, distanceConvexConvex(d, xs, ys, pose).distance);
      if (contactConvexConvex(c, xs, ys, pose, 0)) deepest = Math.min(deepest, c.distance);
    }
  }
  return [hit, dist, deepest];
}

describe("two composites through the two-tree routines", () => {
  it("compound × compound: intersects, distance and contact depth of the best child pair, both orders", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), unitQuat, (seed, q) => {
        const rng = makeRandom(seed);
        const a = randomCompound(seed);
        const b = randomCompound(seed + 7);
        const bInA = iso.create(vec3.create(3 * rng() - 1.5, 3 * rng() - 1.5, 3 * rng() - 1.5), q);
        const aInB = iso.invert(iso.identity(), bInA);
        const [hit, dist, deepest] = bruteChildren(a, b, bInA);
        for (const [x, y, p] of [
          [a, b, bInA],
          [b, a, aInB],
        ] as const) {
          expect(intersectsPair(x, y, p)).toBe(hit);
          const d = distancePair(makeDistanceResult(), x, y, p);
          expect(Math.abs(d.distance - dist)).toBeLessThanOrEqual(1e-9);
          const c = makeContact();
          const found = contactPair(c, x, y, p, 0);
          if (deepest < Infinity) {
            expect(found).toBe(true);
            expect(Math.abs(c.distance - deepest)).toBeLessThanOrEqual(1e-9);
          } else if (found) expect(c.distance).toBeGreaterThanOrEqual(-1e-12);
          const m = makeContactManifold();
          expect(manifoldPair(m, x, y, p, 0)).toBe(found);
          if (found) expect(m.count).toBeGreaterThan(0);
        }
      }),
      { numRuns: 120 },
    );
  });

  it("a solid mesh holding one child of a compound touches it, through that child, both orders", () => {
    const solid = cubeMesh(2, true); // [0, 2]^3 closed, solid
    const inside = makeSphere(0.2);
    const outside = makeCuboid({ x: 0.2, y: 0.2, z: 0.2 });
    const compound = makeCompound([
      { shape: inside, pose: iso.create(vec3.create(0, 0, 0)) },
      { shape: outside, pose: iso.create(vec3.create(3, 0, 0)) },
    ]);
    // The compound's first child at (0.7, 1, 1): 0.5 from the face x = 0; its second at x = 3.7.
    const pose = iso.create(vec3.create(0.7, 1, 1));
    const inv = iso.invert(iso.identity(), pose);
    const want = makeContact();
    expect(contactPair(want, solid, inside, pose, 0)).toBe(true);
    expect(want.distance).toBeCloseTo(-0.9, 12);
    expect(intersectsPair(solid, compound, pose)).toBe(true);
    expect(intersectsPair(compound, solid, inv)).toBe(true);
    expect(distancePair(makeDistanceResult(), solid, compound, pose).distance).toBe(0);
    expect(distancePair(makeDistanceResult(), compound, solid, inv).distance).toBe(0);
    const c = makeContact();
    expect(contactPair(c, solid, compound, pose, 0)).toBe(true);
    expect(c.distance).toBe(want.distance);
    expect(c.normal).toEqual(want.normal);
    const f = makeContact();
    expect(contactPair(f, compound, solid, inv, 0)).toBe(true);
    expect(f.distance).toBe(want.distance);
    // The same compound as a surface (not solid) does not touch: no triangle meets a child.
    const surface = cubeMesh(2, false);
    expect(intersectsPair(surface, compound, pose)).toBe(false);
    expect(distancePair(makeDistanceResult(), surface, compound, pose).distance).toBeCloseTo(
      0.5,
      12,
    );
  });
});
