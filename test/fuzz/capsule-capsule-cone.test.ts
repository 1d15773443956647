/**
 * Regression of issue 16 from the fuzzer at 10^5 queries, seed 74 (capsules only), main a20e264:
 * a capsule of 2e-5 crossing one of 7e5 at their common centre answered the depth rA + rB along
 * a normal 5.6e-6 off the common perpendicular, so the overlap along it exceeded the depth by
 * 1.9 (the bar 6e-2). The closest points' offset, a few ulps of the larger coordinates, was
 * rebuilt as c1 + m and subtracted again at c1's ulp: its direction was noise. The same held for
 * an end of one segment within rounding of the other (a T), a V of two ends, near-parallel
 * axes and a zero-length segment, at any size ratio. Fixed in
 * src/narrowphase/capsule-capsule.ts: the normal is the candidate offset (natural, the common
 * perpendicular, an axis dropped) whose direction separates the cores by the most, so the
 * overlap along it is the depth.
 *
 * Oracles: the recorded scenarios and the property below go through the fuzzer's checks (its
 * independent oracle, the bars of docs/FORMATS.md); for segments crossing exactly at the origin
 * the depth is rA + rB exactly and the overlap along the returned normal is computed exactly in
 * dyadic rationals on the answer's doubles (test/fuzz/exact.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as vec3 from "../../src/math/vec3.js";
import { contactCapsuleCapsule } from "../../src/narrowphase/capsule-capsule.js";
import { makeContact } from "../../src/narrowphase/contact.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { offsetArb, unitArb } from "./arbitraries.js";
import { type Dy, dadd, dmax, dmin, dmul, dsub, dy } from "./exact.js";
import { exactOffset } from "./generate.js";
import { expectPassesBothOrders, loadCases, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;

/** The double nearest to the dyadic `d` (|d| well inside the range of doubles). */
function toNumber(d: Dy): number {
  if (d.m === 0n) return 0;
  const bits = d.m < 0n ? (-d.m).toString(2).length : d.m.toString(2).length;
  const shift = Math.max(0, bits - 60);
  return Number(d.m >> BigInt(shift)) * 2 ** (d.e + shift);
}

/** n·p exactly, on the doubles of n and p. */
function dotExact(n: number[], p: number[]): Dy {
  return dadd(dadd(dmul(dy(n[0]), dy(p[0])), dmul(dy(n[1]), dy(p[1]))), dmul(dy(n[2]), dy(p[2])));
}

/**
 * The overlap of capsules (segments p1–q1, p2–q2, radii r1, r2) along n (from the first toward
 * the second): the first's support max n·x less the second's least n·x, exact up to the final
 * division by |n| (a unit normal to 1e-15) and the radii's sum.
 */
function overlapAlong(n: number[], p1: number[], q1: number[], p2: number[], q2: number[]): number {
  const s = dsub(dmax(dotExact(n, p1), dotExact(n, q1)), dmin(dotExact(n, p2), dotExact(n, q2)));
  return toNumber(s) / Math.hypot(n[0], n[1], n[2]);
}

const v = (a: number[]) => vec3.create(a[0], a[1], a[2]);

describe("capsule–capsule normals in the cores' normal cone (issue 16, seed 74)", () => {
  replayCases(loadCases("./capsule-capsule-cone.cases.json"), 2);

  it("seed 74's pair: segments crossing at the origin, depth rA + rB along the common perpendicular (exact)", () => {
    const p = [3.477189278000737e-7, -4.081466803091292e-6, 1.0502023555206407e-5];
    const q = [57837.864455677685, -352361.0976512137, 56194.367153328254];
    const rA = 2.6681423384881435e-5;
    const rB = 59688.894819214016;
    const A = makeCapsule(v(p), v(p.map((x) => -x)), rA);
    const B = makeCapsule(v(q), v(q.map((x) => -x)), rB);
    const c = makeContact();
    const id = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };
    expect(contactCapsuleCapsule(c, A, B, id, 0)).toBe(true);
    const depth = rA + rB;
    expect(Math.abs(-c.distance - depth)).toBeLessThanOrEqual(4 * Number.EPSILON * depth);
    const n = [c.normal.x, c.normal.y, c.normal.z];
    const along =
      overlapAlong(
        n,
        p,
        p.map((x) => -x),
        q,
        q.map((x) => -x),
      ) + depth;
    // Was 1.9 over; the bar 1e-6·depth + 64·ε·L.
    expect(Math.abs(along - depth)).toBeLessThanOrEqual(64 * Number.EPSILON * 4e5);
  });

  it("property: segments crossing exactly at the origin, sizes 2^-20..2^20 each: the overlap along the normal is rA + rB (exact)", () => {
    fc.assert(
      fc.property(
        unitArb,
        unitArb,
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -20, max: 20 }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (u, w, ea, eb, ka, kb) => {
          const sa = 2 ** ea;
          const sb = 2 ** eb;
          const p = u.map((x) => x * sa);
          const q = w.map((x) => x * sb);
          const rA = ka * sa;
          const rB = kb * sb;
          const A = makeCapsule(v(p), v(p.map((x) => -x)), rA);
          const B = makeCapsule(v(q), v(q.map((x) => -x)), rB);
          const c = makeContact();
          const id = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };
          expect(contactCapsuleCapsule(c, A, B, id, 0)).toBe(true);
          const depth = rA + rB;
          const L = Math.max(sa, sb);
          const along =
            overlapAlong(
              [c.normal.x, c.normal.y, c.normal.z],
              p,
              p.map((x) => -x),
              q,
              q.map((x) => -x),
            ) + depth;
          expect(Math.abs(-c.distance - depth)).toBeLessThanOrEqual(64 * Number.EPSILON * L);
          expect(Math.abs(along - depth)).toBeLessThanOrEqual(
            1e-6 * depth + 64 * Number.EPSILON * L,
          );
        },
      ),
      { numRuns: 300, seed: 74 },
    );
  });

  it("property: crossing, T, V, parallel, near-parallel and point cores at mixed sizes 2^-20..2^20, offsets to 1e9, both orders", () => {
    const mode = fc.constantFrom("cross", "T", "V", "parallel", "nearParallel", "point");
    fc.assert(
      fc.property(
        mode,
        unitArb,
        unitArb,
        unitArb,
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -20, max: 20 }),
        fc.tuple(
          fc.double({ min: 0.2, max: 1, noNaN: true }),
          fc.double({ min: 0.2, max: 1, noNaN: true }),
          fc.double({ min: 0.05, max: 0.5, noNaN: true }),
          fc.double({ min: 0.05, max: 0.5, noNaN: true }),
          fc.double({ min: -0.9, max: 0.9, noNaN: true }),
          fc.double({ min: -0.9, max: 0.9, noNaN: true }),
          fc.integer({ min: 1, max: 12 }),
        ),
        offsetArb,
        (m, ua, ub0, side, ea, eb, [fa, fb, ka, kb, ta, tb, tilt], [ou, om]) => {
          const sa = 2 ** ea;
          const sb = 2 ** eb;
          const ha = m === "point" ? 0 : fa * sa;
          const hb = fb * sb;
          let ub = ub0;
          if (m === "parallel") ub = ua;
          if (m === "nearParallel") {
            const e = 10 ** -tilt;
            const t = ua.map((x, k) => x + e * side[k]);
            const l = Math.hypot(...t);
            ub = t.map((x) => x / l) as typeof ub;
          }
          // B's centre: its point at tb on A's point at ta (cross), its end there (T), the two
          // ends meeting (V), or beside A by a small gap across (parallel).
          const pa = ua.map((x) => x * ta * ha);
          let cb = pa.map((x, k) => x - ub[k] * tb * hb);
          if (m === "T") cb = pa.map((x, k) => x - ub[k] * hb);
          if (m === "V") cb = ua.map((x, k) => x * ha + ub[k] * hb);
          if (m === "parallel" || m === "nearParallel")
            cb = cb.map((x, k) => x + side[k] * 1e-3 * (ka * sa + kb * sb));
          const a: J = {
            type: "capsule",
            a: ua.map((x) => -x * ha),
            b: ua.map((x) => x * ha),
            radius: ka * sa,
          };
          const b: J = {
            type: "capsule",
            a: cb.map((x, k) => x - ub[k] * hb),
            b: cb.map((x, k) => x + ub[k] * hb),
            radius: kb * sb,
          };
          const o = exactOffset(ou, Math.min(1e9, om * Math.max(sa, sb) * 1e4));
          expectPassesBothOrders(a, b, o, "capsule-capsule", {
            ops: ["intersects", "distance", "contact"],
          });
        },
      ),
      { numRuns: 150, seed: 74 },
    );
  });
});
