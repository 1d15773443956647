import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import {
  type SphereSphereIntersection,
  sphereSphereIntersection,
  sphereSphereIntersectionInto,
  sphereVolume,
  sphericalCapArea,
  sphericalCapVolume,
} from "../../src/query/volume.js";

type V = { x: number; y: number; z: number };
const { PI } = Math;

/** Seeded PRNG (mulberry32) so every random case is reproducible from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const v = (x: number, y = 0, z = 0): V => ({ x, y, z });
const ball = (r: number) => (4 / 3) * PI * r ** 3;

/** Oracle: volume by integrating the intersection's disc areas along the centre line. */
function sliceVolume(r1: number, r2: number, d: number, steps = 4000): number {
  const lo = Math.max(-r1, d - r2);
  const hi = Math.min(r1, d + r2);
  if (!(hi > lo)) return 0;
  const h = (hi - lo) / steps;
  let sum = 0;
  for (let i = 0; i < steps; i++) {
    const z = lo + (i + 0.5) * h;
    const a = Math.min(r1 * r1 - z * z, r2 * r2 - (z - d) * (z - d));
    if (a > 0) sum += PI * a;
  }
  return sum * h;
}

/**
 * Oracle: area of the intersection's boundary, integrating each sphere's rings (area
 * 2πr² sin θ dθ, θ measured from the direction to the other centre) that lie inside the other
 * ball, by the midpoint rule in θ.
 */
function ringArea(r1: number, r2: number, d: number, steps = 20000): number {
  // Where the two spheres coincide the shared surface is counted once (strict on one side).
  const part = (ra: number, rb: number, strict: boolean) => {
    const h = PI / steps;
    let sum = 0;
    for (let i = 0; i < steps; i++) {
      const t = (i + 0.5) * h;
      const dist2 = ra * ra + d * d - 2 * ra * d * Math.cos(t);
      if (strict ? dist2 < rb * rb : dist2 <= rb * rb) sum += 2 * PI * ra * ra * Math.sin(t);
    }
    return sum * h;
  };
  return part(r1, r2, false) + part(r2, r1, true);
}

describe("sphereSphereIntersection: worked examples", () => {
  it("r = 5 and r = 3 with centres 4 apart: 68π/3 ≈ 71.2094", () => {
    const out = sphereSphereIntersection(v(0), 5, v(4), 3);
    expect(out.volume).toBeCloseTo((68 * PI) / 3, 12);
    expect(out.volume).toBeCloseTo(71.2094, 4);
    // Cap heights 1 (on r = 5) and 3 (on r = 3): 2π·5·1 + 2π·3·3 = 28π.
    expect(out.surfaceArea).toBeCloseTo(28 * PI, 12);
    // Union: 500π/3 + 108π/3 − 68π/3 = 540π/3.
    expect(out.iou).toBeCloseTo(68 / 540, 14);
  });

  it("r = 5 and r = 2 with centres 3 apart (internally tangent): the small ball, 32π/3", () => {
    const out = sphereSphereIntersection(v(1, 2, 3), 5, v(1, 5, 3), 2);
    expect(out.volume).toBeCloseTo((32 * PI) / 3, 12);
    expect(out.volume).toBeCloseTo(33.5103, 4);
    expect(out.surfaceArea).toBeCloseTo(16 * PI, 12);
    expect(out.iou).toBeCloseTo(8 / 125, 14);
  });

  it("apart and externally tangent balls give exactly 0, 0, 0", () => {
    expect(sphereSphereIntersection(v(0), 5, v(9), 3)).toEqual({
      volume: 0,
      surfaceArea: 0,
      iou: 0,
    });
    expect(sphereSphereIntersection(v(0), 5, v(8), 3)).toEqual({
      volume: 0,
      surfaceArea: 0,
      iou: 0,
    });
  });

  it("equal concentric balls: the ball itself, IoU 1", () => {
    const out = sphereSphereIntersection(v(2, 2, 2), 1.5, v(2, 2, 2), 1.5);
    expect(out.volume).toBeCloseTo(ball(1.5), 13);
    expect(out.surfaceArea).toBeCloseTo(4 * PI * 2.25, 13);
    expect(out.iou).toBe(1);
  });

  it("equal balls one radius apart: two caps of height r/2 each (5πr³/12)", () => {
    const out = sphereSphereIntersection(v(0), 2, v(0, 0, 2), 2);
    expect(out.volume).toBeCloseTo((5 * PI * 8) / 12, 12);
    expect(out.surfaceArea).toBeCloseTo(2 * (2 * PI * 2 * 1), 12);
  });

  it("cap helpers: a hemisphere and a full ball", () => {
    expect(sphericalCapVolume(3, 3)).toBeCloseTo(ball(3) / 2, 12);
    expect(sphericalCapVolume(3, 6)).toBeCloseTo(ball(3), 12);
    expect(sphericalCapArea(3, 6)).toBeCloseTo(4 * PI * 9, 12);
    expect(sphereVolume(2)).toBeCloseTo(ball(2), 14);
  });

  it("writes into out and returns it", () => {
    const out: SphereSphereIntersection = { volume: -1, surfaceArea: -1, iou: -1 };
    expect(sphereSphereIntersectionInto(out, v(0), 5, v(4), 3)).toBe(out);
    expect(out.volume).toBeCloseTo((68 * PI) / 3, 12);
  });
});

describe("sphereSphereIntersection: Monte Carlo oracle for the volume", () => {
  const cases: [number, number, number][] = [
    [5, 3, 4],
    [1, 1, 1],
    [2, 0.5, 2.2],
    [1, 0.8, 0.3],
    [3, 3, 5.5],
    [1, 2, 2.9],
  ];
  for (const [r1, r2, d] of cases) {
    it(`r1 = ${r1}, r2 = ${r2}, d = ${d}: within 3σ of 200k samples`, () => {
      const seed = Math.round(1000 * (r1 + 7 * r2 + 13 * d));
      const r = rng(seed);
      // Sample the bounding box of the smaller ball (ball 2 when r2 ≤ r1).
      const small = r2 <= r1 ? { c: d, r: r2 } : { c: 0, r: r1 };
      const n = 200_000;
      let hits = 0;
      for (let i = 0; i < n; i++) {
        const x = small.c + (2 * r() - 1) * small.r;
        const y = (2 * r() - 1) * small.r;
        const z = (2 * r() - 1) * small.r;
        const in1 = x * x + y * y + z * z <= r1 * r1;
        const in2 = (x - d) ** 2 + y * y + z * z <= r2 * r2;
        if (in1 && in2) hits++;
      }
      const box = (2 * small.r) ** 3;
      const p = hits / n;
      const estimate = p * box;
      const sigma = box * Math.sqrt((p * (1 - p)) / n);
      const exact = sphereSphereIntersection(v(0), r1, v(d), r2).volume;
      expect(Math.abs(exact - estimate), `seed ${seed}`).toBeLessThanOrEqual(3 * sigma);
    });
  }
});

describe("sphereSphereIntersection: properties", () => {
  const radius = fc.double({ min: 0.05, max: 3, noNaN: true });
  const unit = fc
    .tuple(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
    )
    .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1)
    .map(([x, y, z]) => {
      const l = Math.hypot(x, y, z);
      return v(x / l, y / l, z / l);
    });
  /** Two balls and a centre distance as a fraction in [0, 1.2] of r1 + r2. */
  const config = fc.tuple(radius, radius, fc.double({ min: 0, max: 1.2, noNaN: true }), unit);

  it("volume matches the slice-integration oracle and the area the ring-integration oracle", () => {
    fc.assert(
      fc.property(config, ([r1, r2, f, dir]) => {
        const d = f * (r1 + r2);
        const c2 = v(dir.x * d, dir.y * d, dir.z * d);
        const out = sphereSphereIntersection(v(0), r1, c2, r2);
        const dd = Math.hypot(c2.x, c2.y, c2.z);
        const scaleV = ball(Math.min(r1, r2));
        expect(Math.abs(out.volume - sliceVolume(r1, r2, dd))).toBeLessThanOrEqual(1e-5 * scaleV);
        const areaTol = (2 * PI * (r1 * r1 + r2 * r2) * (2 * PI)) / 20000;
        expect(Math.abs(out.surfaceArea - ringArea(r1, r2, dd))).toBeLessThanOrEqual(areaTol);
      }),
      { numRuns: 150 },
    );
  });

  it("is symmetric in its two balls (bitwise)", () => {
    fc.assert(
      fc.property(config, fc.double({ min: -10, max: 10, noNaN: true }), ([r1, r2, f, dir], o) => {
        const d = f * (r1 + r2);
        const c1 = v(o, -o, 2 * o);
        const c2 = v(o + dir.x * d, -o + dir.y * d, 2 * o + dir.z * d);
        expect(sphereSphereIntersection(c2, r2, c1, r1)).toEqual(
          sphereSphereIntersection(c1, r1, c2, r2),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("is bounded (0 ≤ volume ≤ min ball, 0 ≤ IoU ≤ 1) and non-increasing in distance", () => {
    fc.assert(
      fc.property(config, fc.double({ min: 0, max: 1.2, noNaN: true }), ([r1, r2, f], g) => {
        const [fa, fb] = f < g ? [f, g] : [g, f];
        const near = sphereSphereIntersection(v(0), r1, v(fa * (r1 + r2)), r2);
        const far = sphereSphereIntersection(v(0), r1, v(fb * (r1 + r2)), r2);
        for (const o of [near, far]) {
          expect(o.volume).toBeGreaterThanOrEqual(0);
          expect(o.volume).toBeLessThanOrEqual(Math.min(ball(r1), ball(r2)) * (1 + 1e-15));
          expect(o.iou).toBeGreaterThanOrEqual(0);
          expect(o.iou).toBeLessThanOrEqual(1);
          expect(Number.isFinite(o.surfaceArea)).toBe(true);
        }
        expect(far.volume).toBeLessThanOrEqual(near.volume + 1e-13 * ball(Math.min(r1, r2)));
      }),
      { numRuns: 200 },
    );
  });

  it("scales as s³ (volume) and s² (area) for s in 1e-3..1e4, with centres up to 1e6", () => {
    fc.assert(
      fc.property(
        config,
        fc.constantFrom(1e-3, 1, 1e4),
        fc.constantFrom(0, 1e6),
        ([r1, r2, f, dir], s, off) => {
          const d = f * (r1 + r2);
          const base = sphereSphereIntersection(v(0), r1, v(dir.x * d, dir.y * d, dir.z * d), r2);
          const c1 = v(off, -off, off);
          const c2 = v(off + s * dir.x * d, -off + s * dir.y * d, off + s * dir.z * d);
          const out = sphereSphereIntersection(c1, s * r1, c2, s * r2);
          // The far centres round the distance by about ε·1e6; the volume moves by at most the
          // lens's cross-section π·min(r)² times that (dV/dd = −π a²), the area by 2π(r1+r2).
          const dd = 16 * Number.EPSILON * (off + s * (r1 + r2));
          const rs = s * Math.min(r1, r2);
          const volTol = 1e-12 * ball(rs) + PI * rs * rs * dd;
          const areaTol = 1e-12 * 4 * PI * rs * rs + 2 * PI * s * (r1 + r2) * dd * 4;
          expect(Math.abs(out.volume - s ** 3 * base.volume)).toBeLessThanOrEqual(volTol);
          expect(Math.abs(out.surfaceArea - s ** 2 * base.surfaceArea)).toBeLessThanOrEqual(
            areaTol,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("sphereSphereIntersection: continuity at tangency", () => {
  it("external tangency: volume → 0 like π g² r1 r2 / (r1 + r2), area → 0", () => {
    for (const [r1, r2] of [
      [5, 3],
      [1, 1],
      [1e-3, 2e-3],
      [1e4, 1],
    ]) {
      for (const eps of [1e-4, 1e-7, 1e-10]) {
        const d = r1 + r2 - eps * Math.min(r1, r2);
        const g = r1 + r2 - d; // the gap actually represented (exact by Sterbenz's lemma)
        const out = sphereSphereIntersection(v(0), r1, v(d), r2);
        const lead = (PI * g * g * r1 * r2) / (r1 + r2);
        expect(out.volume / lead).toBeCloseTo(1, 3);
        // Area to leading order: 2π g r1 r2 / (r1 + r2) on each side, 2 of them.
        expect(out.surfaceArea / ((4 * PI * g * r1 * r2) / (r1 + r2))).toBeCloseTo(1, 3);
      }
    }
  });

  it("internal tangency: the lens tends to the smaller ball from outside the contained case", () => {
    for (const [r1, r2] of [
      [5, 2],
      [1, 0.999],
      [1e4, 1],
      [2e-3, 1e-3],
    ]) {
      const delta = Math.abs(r1 - r2);
      const small = Math.min(r1, r2);
      const at = sphereSphereIntersection(v(0), r1, v(delta), r2);
      for (const eps of [1e-6, 1e-9, 1e-12]) {
        const out = sphereSphereIntersection(v(0), r1, v(delta + eps * small), r2);
        expect(Math.abs(out.volume - at.volume)).toBeLessThanOrEqual(10 * eps * ball(small));
        expect(Math.abs(out.surfaceArea - at.surfaceArea)).toBeLessThanOrEqual(
          10 * eps * 4 * PI * small * small,
        );
        expect(Math.abs(out.iou - at.iou)).toBeLessThanOrEqual(10 * eps);
      }
    }
  });

  it("nearly equal, nearly concentric balls give nearly the whole ball (no cancellation)", () => {
    const out = sphereSphereIntersection(v(0), 1, v(1e-12), 1);
    expect(out.volume).toBeCloseTo(ball(1), 10);
    expect(out.surfaceArea).toBeCloseTo(4 * PI, 10);
    expect(out.iou).toBeCloseTo(1, 10);
  });
});

describe("sphereSphereIntersection: extreme magnitudes", () => {
  it("IoU stays the scale-free ratio where r³ would under- or overflow; never NaN", () => {
    const base = sphereSphereIntersection(v(0), 1, v(1.5), 2);
    const contained = sphereSphereIntersection(v(0), 1, v(0.5), 2);
    // (At 1e300 the volume overflows: refused, test/query/attack40-api.test.ts.)
    for (const s of [1e-110, 1e-300, 5e-324, 1e100]) {
      const lens = sphereSphereIntersection(v(0), s, v(1.5 * s), 2 * s);
      const inner = sphereSphereIntersection(v(0), s, v(0.5 * s), 2 * s);
      for (const o of [lens, inner]) {
        expect(Number.isNaN(o.volume) || Number.isNaN(o.surfaceArea)).toBe(false);
        expect(o.iou).toBeGreaterThan(0);
      }
      if (s !== 5e-324) {
        expect(lens.iou).toBeCloseTo(base.iou, 10);
        expect(inner.iou).toBeCloseTo(contained.iou, 10);
      }
    }
    const small = sphereSphereIntersection(v(0), 1e-100, v(1.5e-100), 2e-100);
    expect(small.volume / 1e-300).toBeCloseTo(base.volume, 10);
  });
});

describe("sphereSphereIntersection: bad input", () => {
  const cases: [string, () => unknown, string][] = [
    ["zero radius", () => sphereSphereIntersection(v(0), 0, v(1), 1), "a.radius"],
    ["negative radius", () => sphereSphereIntersection(v(0), 1, v(1), -2), "b.radius"],
    ["NaN radius", () => sphereSphereIntersection(v(0), Number.NaN, v(1), 1), "a.radius"],
    ["infinite radius", () => sphereSphereIntersection(v(0), 1, v(1), Infinity), "b.radius"],
    ["NaN centre", () => sphereSphereIntersection(v(Number.NaN), 1, v(1), 1), "a.center"],
    ["infinite centre", () => sphereSphereIntersection(v(0), 1, v(0, -Infinity), 1), "b.center"],
    [
      "custom prefix",
      () => sphereSphereIntersection(v(0), 1, v(1), 0, "spheres[0]", "spheres[1]"),
      "spheres[1].radius",
    ],
  ];
  for (const [name, call, field] of cases) {
    it(`rejects ${name} naming ${field}`, () => {
      let err: unknown;
      try {
        call();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CollideError);
      expect((err as CollideError).code).toBe("invalid_value");
      expect((err as CollideError).field).toBe(field);
    });
  }
});
