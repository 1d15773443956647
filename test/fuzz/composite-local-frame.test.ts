/**
 * Issue 16, composites far from the origin: meshes, compounds and heightfields with a `position`
 * join the pair query's local frame (src/io/local-frame.ts), as the primitive forms do, so an
 * aabb's centre against them rounds at the pair's size, not at its offset. (These cases left
 * test/fuzz/composite-regressions.test.ts with the reverted ebd8c9b and come back with it, now
 * that the world reads a line's shapes in the same frame.) Right values by brute force over the
 * compound's children, written here, with exact shifts (Sterbenz) into the compound's frame.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkScene } from "../../src/io/check.js";
import { answerQuery } from "../../src/io/query.js";
import { parseScene } from "../../src/io/scene.js";
import type { ContactJson, DistanceJson } from "../support/answers.js";
import { rotateVec } from "../support/quat.js";
import type { V } from "./oracle-shapes.js";

const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);

/** Distance from p to the box [lo, hi] (0 inside). */
function pointBoxDistance(p: V, lo: V, hi: V): number {
  const d: V = [0, 0, 0];
  for (let i = 0; i < 3; i++) d[i] = Math.max(lo[i] - p[i], 0, p[i] - hi[i]);
  return norm(d);
}

/** Distance of segment a–b to the box [lo, hi]: golden-section search of the convex f(t). */
function segmentBoxDistance(a: V, b: V, lo: V, hi: V): number {
  const f = (t: number) => pointBoxDistance(add(a, scale(sub(b, a), t)), lo, hi);
  let l = 0;
  let r = 1;
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 200; i++) {
    const m1 = r - g * (r - l);
    const m2 = l + g * (r - l);
    if (f(m1) <= f(m2)) r = m2;
    else l = m1;
  }
  return Math.min(f(0), f(1), f((l + r) / 2));
}

describe("issue 16, composites far from the origin: the query's local frame", () => {
  // A compound of three capsules of 1e-5 at 1e7 against an aabb 3e-6 away: answered in the
  // world frame, the aabb's centre (min + max)/2 rounded by a quarter ulp of 1e7 (5e-10).
  const compound = {
    type: "compound",
    children: [
      {
        shape: {
          type: "capsule",
          a: [1.9477860850262684e-7, -1.6615702272554113e-6, 1.211523196130643e-6],
          b: [-1.9477860850262684e-7, 1.6615702272554113e-6, -1.211523196130643e-6],
          radius: 3.2886728297692207e-6,
        },
        position: [-7.1884987840072986e-6, -2.453288063616122e-6, -1.8573190935075587e-7],
      },
      {
        shape: {
          type: "capsule",
          a: [-2.1016286940681764e-6, 5.519790928291849e-7, -1.2315480397058909e-6],
          b: [2.1016286940681764e-6, -5.519790928291849e-7, 1.2315480397058909e-6],
          radius: 2.5850465487720473e-6,
        },
        position: [2.5443255572770757e-6, 8.781587877767707e-6, 4.124758218670769e-6],
        rotation: [
          -0.7800794474806135, -0.6092161331562473, 0.13611537229723109, 0.042477807675023134,
        ],
      },
      {
        shape: {
          type: "capsule",
          a: [-2.5412371231007486e-6, 1.4673121072264457e-6, 2.0634481754206937e-6],
          b: [2.5412371231007486e-6, -1.4673121072264457e-6, -2.0634481754206937e-6],
          radius: 4.931808938301924e-6,
        },
        position: [2.335147410444109e-6, 9.471849112486186e-6, 4.568037751508486e-6],
      },
    ],
    position: [10415600, 14584464, 14727976],
  };
  const min: V = [10415599.999997916, 14584463.999968588, 14727975.999984499];
  const max: V = [10415600.00000905, 14584464.000001337, 14727975.999994809];

  /** Brute force over the children, in the compound's frame (exact shifts by Sterbenz). */
  function bruteDistance(): number {
    const p = compound.position as V;
    const lo = sub(min, p);
    const hi = sub(max, p);
    let best = Infinity;
    for (const c of compound.children) {
      const q = (c as { rotation?: number[] }).rotation ?? [0, 0, 0, 1];
      const a = add(rotateVec(q, c.shape.a as V), c.position as V);
      const b = add(rotateVec(q, c.shape.b as V), c.position as V);
      best = Math.min(best, segmentBoxDistance(a, b, lo, hi) - c.shape.radius);
    }
    return best;
  }

  it("aabb against a compound of 1e-5 at 1e7: distance and contact gap as brute force", () => {
    const want = bruteDistance();
    expect(want).toBeGreaterThan(3e-6);
    const d = answerQuery({
      op: "distance",
      a: compound,
      b: { type: "aabb", min, max },
    }) as DistanceJson;
    expect(Math.abs(d.distance - want)).toBeLessThanOrEqual(1e-9 * want + 1e-20);
    const c = answerQuery({
      op: "contact",
      a: compound,
      b: { type: "aabb", min, max },
      prediction: 1e-5,
    }) as ContactJson | null;
    expect(c).not.toBeNull();
    expect(Math.abs((c as ContactJson).distance - want)).toBeLessThanOrEqual(1e-9 * want + 1e-20);
  });

  it("collide check and pairs read the same frame: the world's gap is brute force's", () => {
    const want = bruteDistance();
    const scene = parseScene({
      bodies: [
        { id: "c", shape: compound },
        { id: "box", shape: { type: "aabb", min, max } },
      ],
    });
    expect(scene.origin).not.toEqual([0, 0, 0]);
    // Apart by 3e-6: no pair at prediction 0, in `pairs` and in the check alike.
    expect(checkScene(scene).pairs).toEqual([]);
    expect(
      (
        answerQuery({ op: "pairs", shapes: [compound, { type: "aabb", min, max }] }) as {
          pairs: number[][];
        }
      ).pairs,
    ).toEqual([]);
    const r = checkScene(scene, { prediction: 1e-5 });
    expect(r.pairs.length).toBe(1);
    expect(Math.abs(r.pairs[0].distance - want)).toBeLessThanOrEqual(1e-9 * want + 1e-20);
    // Points printed in world coordinates: within the gap of the aabb's box.
    for (const p of r.pairs[0].points)
      for (let i = 0; i < 3; i++) {
        expect(p.pointB[i]).toBeGreaterThanOrEqual(min[i] - 1e-8);
        expect(p.pointB[i]).toBeLessThanOrEqual(max[i] + 1e-8);
      }
  });

  it("property: a sphere child of a compound far away against an aabb: distance in the local frame", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 9 }),
        fc.tuple(
          fc.double({ noNaN: true, min: -1, max: 1 }),
          fc.double({ noNaN: true, min: -1, max: 1 }),
          fc.double({ noNaN: true, min: -1, max: 1 }),
        ),
        fc.double({ noNaN: true, min: -7, max: -2 }),
        fc.tuple(
          fc.double({ noNaN: true, min: -3, max: 3 }),
          fc.double({ noNaN: true, min: -3, max: 3 }),
          fc.double({ noNaN: true, min: -3, max: 3 }),
        ),
        (logFar, dir, logSize, off) => {
          const s = 10 ** logSize;
          const c: V = [
            Math.round(dir[0] * 10 ** logFar),
            Math.round(dir[1] * 10 ** logFar),
            Math.round(dir[2] * 10 ** logFar),
          ];
          const r = 0.5 * s;
          const lo = add(c, scale(off, s));
          const hi = add(lo, [s, s, s]);
          const comp = {
            type: "compound",
            children: [
              { shape: { type: "sphere", center: [0, 0, 0], radius: r }, position: [0, 0, 0] },
            ],
            position: c,
          };
          // The true gap from the exact inputs (the box's corners rounded as given).
          const want = pointBoxDistance([0, 0, 0], sub(lo, c), sub(hi, c)) - r;
          fc.pre(want > 1e-3 * s);
          const d = answerQuery({
            op: "distance",
            a: comp,
            b: { type: "aabb", min: lo, max: hi },
          }) as DistanceJson;
          expect(Math.abs(d.distance - want)).toBeLessThanOrEqual(
            1e-9 * want + 64 * 2 ** -52 * 4 * s,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
