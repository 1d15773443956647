/**
 * Fuzz seed 80 (10^6 queries on e04e3b7: 2 wrong, one pair): a box of 1e-5 3.36e-14 under a flat
 * aabb of 10 (zero thickness along z) at 500, overlapping it by 3.8e-15 along x. The box–box SAT
 * kept the x face axis (overlap −3.6e-15) over the z face axis (gap +3.36e-14) as a tie within 32
 * ulps of the size, so the pair was "touching": `distance` answered 3.55e-15 (the exact predicate
 * said apart) with both witnesses the aabb's corner, 7 from the box, and `contact` within a
 * prediction the x axis's normal. Now an axis that separates always displaces one that does not
 * (src/narrowphase/cuboid-cuboid.ts), and a gap in the near-touching band takes the exact closest
 * pair of the boxes (alternating clamps, started from GJK's point and from B's centre).
 *
 * The oracle: axis-aligned boxes with every coordinate an integer multiple of a unit u (so the
 * faces, centres and half extents are exact doubles), whose distance is u·|(gx, gy, gz)| with
 * the per-axis gaps exact integers.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson, DistanceJson } from "../support/answers.js";

type V = [number, number, number];
const EPS = Number.EPSILON;

const A_LINE = {
  type: "aabb",
  min: [-451.47512588181297, 462.46016136432587, 552.193359375],
  max: [-441.54147568068703, 490.24686988567413, 552.193359375],
};
const B_LINE = {
  type: "box",
  center: [-441.54146600215006, 483.16499065255596, 552.1933472752157],
  halfExtents: [9.678536972962185e-6, 9.3879605835197e-6, 1.209978423776853e-5],
};
/** The exact gap: A's plane z = 552.193359375 less B's top c + h, in rationals (one rounding). */
const LINE_GAP = 3.364469754229063e-14;

function inside(p: V, lo: V, hi: V, tol: number): boolean {
  for (let i = 0; i < 3; i++) if (p[i] < lo[i] - tol || p[i] > hi[i] + tol) return false;
  return true;
}

describe("fuzz seed 80: a small box just under a flat aabb, tied with an overlapping side axis", () => {
  it("distance and contact: the gap 3.364469754229063e-14 along (0, 0, −1), witnesses on the boxes", () => {
    const lo: V = [0, 0, 0];
    const hi: V = [0, 0, 0];
    for (let i = 0; i < 3; i++) {
      lo[i] = B_LINE.center[i] - B_LINE.halfExtents[i];
      hi[i] = B_LINE.center[i] + B_LINE.halfExtents[i];
    }
    const tol = 64 * EPS * 600;
    expect(
      (answerQuery({ op: "intersects", a: A_LINE, b: B_LINE }) as { intersects: boolean })
        .intersects,
    ).toBe(false);
    const d = answerQuery({ op: "distance", a: A_LINE, b: B_LINE }) as DistanceJson;
    expect(d.distance).toBe(LINE_GAP);
    expect(inside(d.pointA, A_LINE.min as V, A_LINE.max as V, tol)).toBe(true);
    expect(inside(d.pointB, lo, hi, tol)).toBe(true);
    const c = answerQuery({
      op: "contact",
      a: A_LINE,
      b: B_LINE,
      prediction: 11.236078161522146,
    }) as ContactJson;
    expect(c.distance).toBe(LINE_GAP);
    expect(c.normal).toEqual([0, 0, -1]);
    expect(inside(c.pointA, A_LINE.min as V, A_LINE.max as V, tol)).toBe(true);
    expect(inside(c.pointB, lo, hi, tol)).toBe(true);
    // The other order: the same gap, the normal reversed.
    const r = answerQuery({ op: "contact", a: B_LINE, b: A_LINE, prediction: 1 }) as ContactJson;
    expect(r.distance).toBe(LINE_GAP);
    expect(r.normal).toEqual([0, 0, 1]);
    expect(answerQuery({ op: "contact", a: A_LINE, b: B_LINE })).toBeNull();
  });

  // A large aabb (possibly flat along one axis) and a small box 1e-15..1e-4 of its size beside a
  // face, an edge or a corner of it: per axis a gap, a touch or an overlap of a few units u
  // (u = 2^-60..1), the pair moved by up to 2^50 units.
  // A's half extent in units: ordinary (2^20) or so large (to 2^49) that a gap of one unit is
  // within the SAT's tie of 32 ulps of A's size, where seed 80's fault lived.
  const bigArb = fc.oneof(
    fc.integer({ min: 1, max: 2 ** 20 }),
    fc.integer({ min: 2 ** 40, max: 2 ** 49 }),
  );
  const shiftArb = fc.oneof(
    fc.integer({ min: -(2 ** 30), max: 2 ** 30 }),
    fc.integer({ min: -(2 ** 50), max: 2 ** 50 }),
  );
  const pairArb = fc.record({
    e: fc.integer({ min: -60, max: 0 }),
    big: fc.tuple(bigArb, bigArb, bigArb),
    flat: fc.integer({ min: -1, max: 2 }),
    small: fc.tuple(
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 1, max: 64 }),
    ),
    side: fc.tuple(
      fc.integer({ min: -1, max: 1 }),
      fc.integer({ min: -1, max: 1 }),
      fc.integer({ min: -1, max: 1 }),
    ),
    gap: fc.tuple(
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -3, max: 3 }),
    ),
    along: fc.tuple(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
    ),
    shift: fc.tuple(shiftArb, shiftArb, shiftArb),
  });

  it("axis-aligned boxes on a unit grid: distance, witnesses, contact within a prediction and intersects exact", () => {
    fc.assert(
      fc.property(pairArb, (p) => {
        const u = 2 ** p.e;
        // In units: A = [0, 2·big] (flat: [0, 0] along that axis); B's extent 2·small.
        const aLo: number[] = [];
        const aHi: number[] = [];
        const bLo: number[] = [];
        const bHi: number[] = [];
        const gaps: number[] = [];
        let span = 0;
        for (let i = 0; i < 3; i++) {
          const aw = i === p.flat ? 0 : 2 * p.big[i];
          const bw = 2 * p.small[i];
          let lo: number;
          if (p.side[i] > 0) lo = aw + p.gap[i];
          else if (p.side[i] < 0) lo = -bw - p.gap[i];
          else lo = Math.floor(p.along[i] * Math.max(aw - bw, 0));
          // Even corners, so that B's centre (lo + hi)/2 is a whole unit.
          lo -= lo & 1;
          const hi = lo + bw;
          gaps.push(Math.max(0, lo - aw, -hi));
          span = Math.max(span, u * aw, u * Math.abs(lo), u * Math.abs(hi));
          aLo.push((p.shift[i] + 0) * u);
          aHi.push((p.shift[i] + aw) * u);
          bLo.push((p.shift[i] + lo) * u);
          bHi.push((p.shift[i] + hi) * u);
        }
        const gap = u * Math.hypot(gaps[0], gaps[1], gaps[2]);
        const a = { type: "aabb", min: aLo, max: aHi };
        const b = {
          type: "box",
          center: bLo.map((x, i) => (x + bHi[i]) / 2),
          halfExtents: bLo.map((x, i) => (bHi[i] - x) / 2),
        };
        const size = u * 2 * Math.max(...p.small);
        const mag = Math.max(
          ...aLo.map(Math.abs),
          ...aHi.map(Math.abs),
          ...bHi.map(Math.abs),
          ...bLo.map(Math.abs),
        );
        const onBar = 64 * EPS * mag;
        const bar = 1e-9 * size + 4 * EPS * gap;
        const hit = (answerQuery({ op: "intersects", a, b }) as { intersects: boolean }).intersects;
        expect(hit).toBe(gap === 0);
        const d = answerQuery({ op: "distance", a, b }) as DistanceJson;
        expect(Math.abs(d.distance - gap)).toBeLessThanOrEqual(bar);
        expect(inside(d.pointA, aLo as V, aHi as V, onBar)).toBe(true);
        expect(inside(d.pointB, bLo as V, bHi as V, onBar)).toBe(true);
        if (gap === 0) return;
        for (const swap of [false, true]) {
          const c = answerQuery({
            op: "contact",
            a: swap ? b : a,
            b: swap ? a : b,
            prediction: 2 * gap + size,
          }) as ContactJson;
          expect(c).not.toBeNull();
          // Within the pair's ambiguity (64 ε of its span, as the fuzzer's bar): the contact takes
          // the SAT's axis when the closest pair's distance meets its separation to that rounding.
          expect(Math.abs(c.distance - gap)).toBeLessThanOrEqual(bar + 64 * EPS * span);
          const [pa, pb] = swap ? [c.pointB, c.pointA] : [c.pointA, c.pointB];
          expect(inside(pa, aLo as V, aHi as V, onBar)).toBe(true);
          expect(inside(pb, bLo as V, bHi as V, onBar)).toBe(true);
          // The normal (A to B) achieves the gap: B's least extent along n less A's greatest, in
          // units from A's corner (every difference exact).
          const n = swap ? c.normal.map((x) => -x) : c.normal;
          let sep = 0;
          for (let i = 0; i < 3; i++) {
            const l = (bLo[i] - aLo[i]) / u;
            const h = (bHi[i] - aLo[i]) / u;
            const w = (aHi[i] - aLo[i]) / u;
            sep += n[i] >= 0 ? n[i] * l - n[i] * w : n[i] * h;
          }
          // To the ambiguity of the pair's span too (64 ε of it: the normal is the witnesses'
          // direction, each rounded to the span's ulp; the fuzzer's bar).
          expect(Math.abs(u * sep - gap)).toBeLessThanOrEqual(bar + 64 * EPS * span);
        }
      }),
      { numRuns: 1500, seed: 80 },
    );
  });
});
