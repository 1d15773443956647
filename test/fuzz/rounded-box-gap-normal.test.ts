/**
 * Issue 16, session 30's fresh-user attack F5 (formerly in test/fuzz/open/attack30-tilt.jsonl): a
 * rounded box (core 120 × 69 × 36, radius 49.5) touching an aabb at 1.3e6, an aabb's corner
 * 6.5e-12 into the rounded face, the faces near parallel. `contact`'s depth was right (6.55e-12)
 * but its normal achieved 1.45e-11 (bar 1.7e-12): the cores are apart by the radius, and GJK's
 * normal between them, good to its tolerance over that gap, was 1.3e-13 rad off the core face's
 * normal, which across the boxes leaves 8e-12 of overlap. Fixed in
 * src/narrowphase/cuboid-cuboid.ts (`satGapContact`, called for box cores apart by
 * src/narrowphase/rounded-polytope.ts): where the SAT's axis of largest separation attains GJK's
 * gap to the coordinates' rounding, that axis is the normal (a face's normal exactly, or the
 * cross product of two edges), its separation the gap, and the witnesses face across it.
 *
 * Oracles, written without the library: the exact depth of the recorded line (the core's face
 * against the aabb's corner, 60-digit arithmetic: r − 49.54879482117712166 = 6.5478e-12), and the
 * fuzzer's checks (`replayScenario`, facing bar on: the normal achieving the depth, the witnesses
 * on the shapes and facing across it), on the pair moved by exact shifts into its local frame.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { offsetArb, unitArb } from "./arbitraries.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { add, rotate, scale, type V } from "./oracle-shapes.js";
import { expectReplayPasses } from "./recorded-cases.js";

type J = Record<string, unknown>;

/** The attack's `collide query` line F5. */
const F5 = {
  op: "contact",
  a: {
    type: "roundedBox",
    center: [884939.1626694159, -350645.3092031565, -496503.54231231863],
    halfExtents: [59.902189481815164, 34.35557302758614, 17.95385269827401],
    radius: 49.54879482118367,
    rotation: [0.6012938089582528, 0.006040906603353891, -0.3036451901019191, 0.7390594436740898],
  },
  b: {
    type: "aabb",
    min: [884898.688205011, -350561.79353085905, -496567.54756098764],
    max: [884980.6337956833, -350543.6799579896, -496530.22817630565],
  },
};

/** The exact depth of F5 (60-digit arithmetic: the radius less the core's face's distance from the aabb's corner). */
const F5_DEPTH = 6.547849316803753e-12;
/** The bar of F5's depth and normal (the fuzzer's: 1e-6 of the depth plus 64 ε of the pair's extent). */
const F5_BAR = 1.718e-12;

describe("issue 16, attack30 F5: a rounded box's cores apart by its radius, the normal exact", () => {
  it("F5: the exact depth, the core face's normal, and the fuzzer's checks in the pair's local frame", () => {
    const r = answerQuery(F5) as { distance: number; normal: V };
    expect(Math.abs(r.distance + F5_DEPTH)).toBeLessThanOrEqual(F5_BAR);
    // The core's face normal (A's −z, rotated): the exact closest features' direction.
    const n = rotate(F5.a.rotation, [0, 0, -1]);
    for (let i = 0; i < 3; i++)
      expect(Math.abs(r.normal[i] - n[i])).toBeLessThan(16 * Number.EPSILON);
    // Moved by A's centre (every difference exact) into the local frame of the fuzzer's oracle.
    const o = F5.a.center;
    const a = { ...F5.a, center: [0, 0, 0] };
    const b = {
      type: "aabb",
      min: F5.b.min.map((x, i) => x - o[i]),
      max: F5.b.max.map((x, i) => x - o[i]),
    };
    expectReplayPasses(offsetScenario(a, b, o), "aabb-roundedBox", { facing: true });
  });

  /**
   * The class: a rounded box of 2^-10..2^10 turned 2^-5..2^-45 rad from the world's axes (its
   * faces near parallel to the aabb's), an aabb's corner on the normal of a point inside a core
   * face at the radius ± 2^-30..2^-50 of it (or exactly), the aabb beyond the corner's plane;
   * moved by up to 1e9. The corner is the aabb's nearest point to the core, the face's normal the
   * pair's normal.
   */
  const classArb = fc.record({
    e: fc.integer({ min: -10, max: 10 }),
    h: fc.tuple(
      fc.double({ min: 0.1, max: 1, noNaN: true }),
      fc.double({ min: 0.1, max: 1, noNaN: true }),
      fc.double({ min: 0.1, max: 1, noNaN: true }),
    ),
    radius: fc.double({ min: 0.1, max: 1, noNaN: true }),
    tilt: fc.integer({ min: 5, max: 45 }),
    axis: unitArb,
    face: fc.integer({ min: 0, max: 5 }),
    at: fc.tuple(
      fc.double({ min: -0.9, max: 0.9, noNaN: true }),
      fc.double({ min: -0.9, max: 0.9, noNaN: true }),
    ),
    push: fc.integer({ min: 30, max: 51 }),
    sign: fc.constantFrom(-1, 0, 1),
    size: fc.tuple(
      fc.double({ min: 0.1, max: 2, noNaN: true }),
      fc.double({ min: 0.1, max: 2, noNaN: true }),
      fc.double({ min: 0.1, max: 2, noNaN: true }),
    ),
    offset: offsetArb,
  });

  it("property: the depth or gap exact, the normal achieving it, witnesses on the shapes and facing", () => {
    fc.assert(
      fc.property(classArb, (c) => {
        const S = 2 ** c.e;
        const h = c.h.map((x) => x * S) as V;
        const r = c.radius * S;
        const half = 2 ** -c.tilt / 2;
        const q = [...c.axis.map((x) => x * Math.sin(half)), Math.cos(half)];
        const k = c.face % 3;
        const sgn = c.face < 3 ? 1 : -1;
        const local: V = [0, 0, 0];
        local[k] = sgn * h[k];
        local[(k + 1) % 3] = c.at[0] * h[(k + 1) % 3];
        local[(k + 2) % 3] = c.at[1] * h[(k + 2) % 3];
        const nl: V = [0, 0, 0];
        nl[k] = sgn;
        const n = rotate(q, nl);
        const corner = add(rotate(q, local), scale(n, r + c.sign * r * 2 ** -c.push));
        const far = corner.map((x, i) => x + (n[i] >= 0 ? 1 : -1) * c.size[i] * S) as V;
        const b: J = {
          type: "aabb",
          min: corner.map((x, i) => Math.min(x, far[i])),
          max: corner.map((x, i) => Math.max(x, far[i])),
        };
        const a: J = {
          type: "roundedBox",
          center: [0, 0, 0],
          halfExtents: h,
          radius: r,
          rotation: q,
        };
        const sc = offsetScenario(a, b, exactOffset(c.offset[0], c.offset[1]));
        expectReplayPasses(sc, "aabb-roundedBox", {
          facing: true,
          ops: ["intersects", "distance", "contact"],
        });
      }),
      { numRuns: 300, seed: 30 },
    );
  });
});
