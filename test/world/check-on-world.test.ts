/**
 * `collide check` on the collision world (src/io/check.ts): on random scenes (mixed shapes,
 * rotations, layer filters, exactly touching lattice bodies, prediction 0 or > 0) the `--json`
 * payload `{pairs, stats}` is identical, byte for byte, for all four broad phases, and it
 * matches an independent O(n²) oracle written here over the shape-level `contact` query with
 * the layer/mask rule: the same pairs in (a's index, b's index) order with the same signed
 * distances, unit normals within rounding of the contact's, and the manifold's point count.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkScene } from "../../src/io/check.js";
import { parseScene } from "../../src/io/scene.js";
import { contact } from "../../src/query/contact.js";
import { manifold } from "../../src/query/manifold.js";

const coord = (lattice: boolean) =>
  lattice ? fc.integer({ min: 0, max: 3 }) : fc.double({ min: 0, max: 3, noNaN: true });

function bodyArb(lattice: boolean) {
  return fc.record({
    kind: fc.constantFrom("sphere", "box", "capsule", "cylinder"),
    c: fc.tuple(coord(lattice), coord(lattice), coord(lattice)),
    size: lattice ? fc.constant(0.5) : fc.double({ min: 0.2, max: 0.9, noNaN: true }),
    q: lattice
      ? fc.constant([0, 0, 0, 1] as number[])
      : fc
          .tuple(
            fc.integer({ min: -5, max: 5 }),
            fc.integer({ min: -5, max: 5 }),
            fc.integer({ min: -5, max: 5 }),
            fc.integer({ min: 1, max: 5 }),
          )
          .map((v) => {
            const l = Math.hypot(...v);
            return v.map((x) => x / l);
          }),
    layer: fc.constantFrom(1, 2, 3),
    mask: fc.constantFrom(0xffffffff, 0xffffffff, 1, 2),
  });
}

const sceneArb = fc.boolean().chain((lattice) =>
  fc.record({
    bodies: fc.array(bodyArb(lattice), { minLength: 2, maxLength: 30 }),
    prediction: lattice ? fc.constant(0) : fc.constantFrom(0, 0, 0.1),
  }),
);

interface BodySpec {
  kind: string;
  c: number[];
  size: number;
  q: number[];
  layer: number;
  mask: number;
}

function toScene(bodies: BodySpec[]) {
  return parseScene({
    bodies: bodies.map((b, i) => {
      const shape =
        b.kind === "sphere"
          ? { type: "sphere", center: b.c, radius: b.size }
          : b.kind === "box"
            ? {
                type: "box",
                center: b.c,
                halfExtents: [b.size, b.size * 0.8, b.size],
                rotation: b.q,
              }
            : b.kind === "capsule"
              ? {
                  type: "capsule",
                  a: b.c,
                  b: [b.c[0] + b.size, b.c[1], b.c[2]],
                  radius: b.size / 2,
                }
              : {
                  type: "cylinder",
                  center: b.c,
                  halfHeight: b.size,
                  radius: b.size / 2,
                  rotation: b.q,
                };
      return { id: `b${i}`, shape, layer: b.layer, mask: b.mask };
    }),
  });
}

describe("collide check on the world", () => {
  it("gives identical --json for every broad phase, equal to an O(n²) contact oracle", () => {
    let pairsSeen = 0;
    fc.assert(
      fc.property(sceneArb, ({ bodies, prediction }) => {
        const scene = toScene(bodies);
        const outs = (["brute", "sap", "grid", "tree"] as const).map((broadphase) => {
          const r = checkScene(scene, { broadphase, prediction });
          return JSON.stringify({ pairs: r.pairs, stats: r.stats });
        });
        for (const o of outs) expect(o).toBe(outs[0]);
        const got = JSON.parse(outs[0]);
        const expected: { a: string; b: string; distance: number; normal: number[]; n: number }[] =
          [];
        const bs = scene.bodies;
        for (let i = 0; i < bs.length; i++) {
          for (let j = i + 1; j < bs.length; j++) {
            const A = bs[i];
            const B = bs[j];
            if ((A.layer & B.mask) === 0 || (B.layer & A.mask) === 0) continue;
            const c = contact(A.shape, A.pose, B.shape, B.pose, prediction);
            if (!c) continue;
            const m = manifold(A.shape, A.pose, B.shape, B.pose, prediction);
            expected.push({
              a: A.id,
              b: B.id,
              distance: c.distance,
              normal: [c.normal.x, c.normal.y, c.normal.z],
              n: m ? m.count : 0,
            });
          }
        }
        expect(got.pairs.map((p: { a: string; b: string }) => `${p.a}-${p.b}`)).toEqual(
          expected.map((p) => `${p.a}-${p.b}`),
        );
        got.pairs.forEach(
          (p: { distance: number; normal: number[]; points: unknown[] }, k: number) => {
            // The world computes sphere–box pairs sphere first, the pair query in the order
            // given and then flips: the same answer up to rounding.
            expect(Math.abs(p.distance - expected[k].distance)).toBeLessThanOrEqual(
              1e-12 * Math.max(1, Math.abs(expected[k].distance)),
            );
            for (let d = 0; d < 3; d++)
              expect(Math.abs(p.normal[d] - expected[k].normal[d])).toBeLessThan(1e-12);
            expect(p.points.length).toBeGreaterThanOrEqual(1);
            expect(p.points.length).toBeLessThanOrEqual(4);
          },
        );
        expect(got.stats.bodies).toBe(bs.length);
        expect(got.stats.pairs).toBe(expected.length);
        pairsSeen += expected.length;
      }),
      { numRuns: 120 },
    );
    expect(pairsSeen).toBeGreaterThan(300);
  });
});
