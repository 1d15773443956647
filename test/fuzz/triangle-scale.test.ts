/**
 * Issue 16, triangles and polytopes at mixed scales (fuzzer seeds 16–19, 10^5 queries each, main
 * 1301fc3). GJK/EPA on a triangle of 300 against a hull of 1e-6, or on a box of 7e-3 against a
 * triangle of 50, meets sliver faces of A − B (as long as the large shape, as wide as the small
 * one): their normals are off by rounding (a repeated corner "converged" 3e-7 above its face),
 * their blends of support points put witnesses 2e-7 off a triangle, and EPA's rounding floor (1e-13
 * of the size) exceeds the 64·ε of the size that a depth owes. Fixed in src/geometry/epa.ts (a
 * repeated corner above its face is Degenerate; `witnessError`, the blend's rounding bound) and
 * src/narrowphase/convex-convex.ts (`nearTouchSat`, `polytopeGap`, `separatedWitnesses`).
 *
 * Each scenario is replayed through every op of the fuzzer (test/fuzz/fuzz.ts), whose oracles
 * (test/fuzz/oracle-*.ts: brute force over features, exact rationals on disagreements) are
 * independent of the code under test: no op may miss its bar. Then triangles beyond 2^128
 * (their squared edges overflow above 1.3e154), against shapes of unit size and of their own,
 * with hand-derived answers; and a property over small polytopes touching large triangles.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  contact,
  distance,
  intersects,
  makeCuboid,
  makeSphere,
  makeTriangle,
  projectPoint,
  raycast,
} from "../../src/index.js";
import type { Isometry } from "../../src/math/isometry.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { replayScenario, touchDisplacement } from "./fuzz.js";
import { makeScenario, Rng, type Scenario, type ShapeTypeName } from "./generate.js";

interface Case {
  pair: string;
  was: string;
  what: string;
  scenario: Scenario;
}

const cases = JSON.parse(
  readFileSync(new URL("./triangle-scale-scenarios.json", import.meta.url), "utf8"),
) as Case[];

const failures = (sc: Scenario, pair: string, ops?: string[]) =>
  replayScenario(sc, pair, ops ? { ops } : undefined).map((f) => `${f.op}: ${f.reason}`);

describe("issue 16: polytopes and triangles at mixed scales, every op at its bar", () => {
  for (const c of cases) {
    it(`${c.pair}: ${c.what} (was ${c.was})`, () => {
      expect(failures(c.scenario, c.pair)).toEqual([]);
    });
  }
});

const at = (x: number, y: number, z: number): Isometry => ({
  translation: { x, y, z },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});
const I = at(0, 0, 0);

describe("issue 16: triangles beyond 2^128 change units (their corners carry their place)", () => {
  // A triangle in the plane z = 0 spanning ±k, the origin inside; unit shapes a few units above.
  for (const k of [1e39, 1e154, 1e160, 1e200, 1e300, 4e307]) {
    const tri = makeTriangle({ x: -k, y: -k, z: 0 }, { x: k, y: -k, z: 0 }, { x: 0, y: k, z: 0 });
    it(`k = ${k}: a unit sphere, box, ray and the world, hand-derived`, () => {
      const s = makeSphere(1);
      // Was (k ≥ 1e154): distance 1.4e154 (the corner), intersects false, the ray missed.
      expect(distance(tri, I, s, at(1, 2, 3)).distance).toBeCloseTo(2, 12);
      expect(intersects(tri, I, s, at(1, 2, 3))).toBe(false);
      expect(intersects(tri, I, s, at(1, 2, 0.5))).toBe(true);
      const c = contact(tri, I, s, at(1, 2, 0.5));
      expect(c?.distance).toBeCloseTo(-0.5, 12);
      expect(Math.abs(c?.normal.z ?? 0)).toBeCloseTo(1, 12);
      const box = makeCuboid({ x: 1, y: 1, z: 1 });
      expect(distance(tri, I, box, at(1, 2, 3)).distance).toBeCloseTo(2, 12);
      expect(intersects(tri, I, box, at(1, 2, 0.5))).toBe(true);
      expect(contact(tri, I, box, at(1, 2, 0.5))?.distance).toBeCloseTo(-0.5, 12);
      const hit = raycast(tri, I, { x: 1, y: 2, z: 3 }, { x: 0, y: 0, z: -1 }, 10);
      expect(hit?.toi).toBeCloseTo(3, 12);
      // The world's narrow phase decides as intersects does (the world takes boxes within ±1e300).
      for (const z of k < 1e300 ? [3, 0.5] : []) {
        const world = new CollisionWorld({ prediction: 0 });
        const ht = world.addBody({ shape: tri, pose: I });
        const hs = world.addBody({ shape: s, pose: at(1, 2, z) });
        world.step();
        expect(world.isTouching(ht, hs)).toBe(z < 1);
      }
    });
    it(`k = ${k}: shapes of its own size, hand-derived`, () => {
      const s = makeSphere(k / 4);
      expect(distance(tri, I, s, at(k / 8, k / 8, k / 2)).distance / k).toBeCloseTo(0.25, 12);
      expect(contact(tri, I, s, at(k / 8, k / 8, k / 8))?.distance).toBeCloseTo(
        -k / 8,
        -Math.log10(k) + 12,
      );
      const pp = projectPoint(tri, I, { x: k / 8, y: k / 8, z: k / 2 });
      expect(pp.distance / k).toBeCloseTo(0.5, 12);
      expect(pp.point.z).toBe(0);
    });
  }
  for (const k of [1e-45, 1e-160, 1e-300]) {
    it(`k = ${k}: a tiny triangle and a sphere of its size`, () => {
      const tri = makeTriangle({ x: -k, y: -k, z: 0 }, { x: k, y: -k, z: 0 }, { x: 0, y: k, z: 0 });
      const s = makeSphere(k / 4);
      expect(distance(tri, I, s, at(k / 8, k / 8, k / 2)).distance / k).toBeCloseTo(0.25, 12);
      expect(intersects(tri, I, s, at(k / 8, k / 8, k / 8))).toBe(true);
    });
  }
});

describe("issue 16: small polytopes against large triangles (property)", () => {
  it("touching, random and exact-touch placements at mixed scales: the pair ops at their bars", () => {
    const others: ShapeTypeName[] = ["convex", "box", "aabb", "triangle"];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 0, max: 3 }),
        (seed, k) => {
          const rng = new Rng(seed);
          const other = others[k];
          const sc = makeScenario(rng, "triangle", other, touchDisplacement);
          const pair = other === "triangle" ? "triangle-triangle" : `${other}-triangle`;
          expect(failures(sc, pair, ["intersects", "distance", "contact", "manifold"])).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
