/**
 * Session 40's fresh-user attack, findings F3 and F4: the bounding spheres did not contain all
 * their points exactly (a third of random sets had a point outside by up to 1.3 ulp of r, for
 * every method), and a radius past the largest double was answered Infinity. The oracle is
 * exact: every double is a dyadic rational (test/fuzz/exact.ts), so |p − c|² ≤ r² is decided
 * exactly for the returned doubles c and r, over random sets at tiny, unit and huge scales and
 * far offsets. The radius stays tight: within a few ulps of the farthest point's distance.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BoundingSphereMethod, boundingSphereOfPoints } from "../../src/index.js";
import { dadd, dcmp, dmul, dsub, dy } from "../fuzz/exact.js";
import { refusal } from "../support/refusal.js";

const METHODS: BoundingSphereMethod[] = ["exact", "ritter", "mean"];

/** True when every point of p lies in the ball (c, r), decided in exact rational arithmetic. */
function containsExactly(p: ArrayLike<number>, c: number[], r: number): boolean {
  const rr = dmul(dy(r), dy(r));
  for (let i = 0; i < p.length; i += 3) {
    let d2 = dy(0);
    for (let k = 0; k < 3; k++) {
      const d = dsub(dy(p[i + k]), dy(c[k]));
      d2 = dadd(d2, dmul(d, d));
    }
    if (dcmp(d2, rr) > 0) return false;
  }
  return true;
}

/** The farthest point's distance from c, in long-double-free high precision (BigInt sqrt bound). */
function farthest(p: ArrayLike<number>, c: number[]): number {
  let m = 0;
  for (let i = 0; i < p.length; i += 3) {
    m = Math.max(m, Math.hypot(p[i] - c[0], p[i + 1] - c[1], p[i + 2] - c[2]));
  }
  return m;
}

function check(points: number[]): void {
  const pts = new Float64Array(points);
  for (const m of METHODS) {
    const s = boundingSphereOfPoints(pts, m);
    const c = [s.center.x, s.center.y, s.center.z];
    expect(containsExactly(pts, c, s.radius), `${m} ${JSON.stringify(points)}`).toBe(true);
    // Tight: the lift is a few ulps of the farthest distance (plus subnormal rounding).
    const f = farthest(pts, c);
    if (m !== "ritter" && Number.isFinite(f) && f > 1e-300) {
      expect(s.radius).toBeLessThanOrEqual(f * (1 + 2 ** -45) + 1e-300);
    }
  }
}

describe("bounding spheres contain every point exactly (F3)", () => {
  it("the attack's two-point set, for every method", () => {
    check([
      459.5069440547377, 480.6334311142564, 408.6476673837751, 606.6363991703838, 460.8824250753969,
      789.0029544942081,
    ]);
  });

  it("random sets at scales 1e-300..1e300 and offsets to 1e9 (property, exact oracle)", () => {
    const scale = fc.constantFrom(1e-300, 1e-200, 1e-6, 1, 1e6, 1e200, 1e300, 5e-324 * 2 ** 20);
    const offset = fc.constantFrom(0, 1, 1e3, 1e9, -1e9);
    fc.assert(
      fc.property(
        scale,
        offset,
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 30 }),
        (s, o, raw) => {
          const n = raw.length - (raw.length % 3);
          const pts = raw.slice(0, n).map((x) => o * s + x * s);
          if (!pts.every(Number.isFinite)) return;
          check(pts);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("clusters at a far offset whose spread is a few ulps (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e15, noNaN: true }),
        fc.array(fc.integer({ min: -8, max: 8 }), { minLength: 6, maxLength: 24 }),
        (base, steps) => {
          const n = steps.length - (steps.length % 3);
          const ulp = base * Number.EPSILON;
          check(steps.slice(0, n).map((k) => base + k * ulp));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("an exact radius stays exact; many points on the sphere still contained (lift past 64 tests)", () => {
    for (const m of METHODS) expect(boundingSphereOfPoints([0, 0, 0, 1, 0, 0], m).radius).toBe(0.5);
    const ring: number[] = [];
    for (let i = 0; i < 300; i++)
      ring.push(Math.cos(i * 0.021) * 1e6 + 1e9, Math.sin(i * 0.021) * 1e6, 0);
    check(ring);
  });

  it("subnormal and single-point sets", () => {
    check([5e-324, 0, 0]);
    check([5e-324, 0, 0, -5e-324, 1e-323, 0]);
    check([1, 2, 3]);
    check([0, 0, 0, 0, 0, 0]);
  });
});

describe("bounding spheres past the largest double (F4)", () => {
  it("a radius that overflows is refused naming points; one that fits is answered", () => {
    for (const m of METHODS) {
      const e = refusal(() =>
        boundingSphereOfPoints([-1.7e308, -1.7e308, 0, 1.7e308, 1.7e308, 0], m),
      );
      expect(e.field).toBe("points");
      expect(e.message).toMatch(/radius overflows/);
    }
    // ±1.7e308 on the x axis, +y and −z: the minimum and Ritter spheres have radius 1.7e308;
    // the mean's centre (0, 4.25e307, −4.25e307) is 1.80e308 from the x ends, past the largest
    // double (1.797e308): refused (it had been answered Infinity).
    const pts = [-1.7e308, 0, 0, 1.7e308, 0, 0, 0, 1.7e308, 0, 0, 0, -1.7e308];
    for (const m of ["exact", "ritter"] as const) {
      const s = boundingSphereOfPoints(pts, m);
      expect(s.radius).toBeGreaterThanOrEqual(1.7e308);
      expect(s.radius).toBeLessThan(1.7e308 * (1 + 2 ** -40));
      expect(containsExactly(pts, [s.center.x, s.center.y, s.center.z], s.radius)).toBe(true);
    }
    expect(refusal(() => boundingSphereOfPoints(pts, "mean")).field).toBe("points");
    // One end nearer: the mean's radius fits and is answered.
    const near = [-1.7e308, 0, 0, 1.7e308, 0, 0, 0, 1e307, 0, 0, 0, -1e307];
    const s = boundingSphereOfPoints(near, "mean");
    expect(containsExactly(near, [s.center.x, s.center.y, s.center.z], s.radius)).toBe(true);
  });
});
