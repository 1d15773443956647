/**
 * Issue 16, attack 31 (2D, far from the origin): F-A — a JSON `rect` (min, max) was stored as a
 * centre (min + max)/2 and half extents, both rounded at the offset, so its faces moved by up to
 * half an ulp of the offset (a circle 4.35e-6 from a rect at 2e7 read 4.3495e-6; two rects 3.7e-9
 * apart at 4.7e7 intersected); now posed at the corners' exact local origin, its faces are min
 * and max exactly for every op. F-B — `castShapes` moved the shapes in world coordinates, where a
 * step smaller than an ulp of the offset is lost: two small circles at 3.6e4 stopped at twice the
 * time of impact; now it runs in the pair's frame (A at rest at the origin). The right answers
 * are exact: BigInt arithmetic on the doubles, or differences exact by Sterbenz's lemma, and the
 * properties generate each class at sizes 1e-6..1e6 and offsets to 1e9.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery2D } from "../../src/io/query-2d.js";
import { logOffsetArb, logSizeArb } from "./arbitraries.js";
import { big, unbig } from "./oracle.js";

type P = [number, number];
type Line = Record<string, unknown>;

function q(op: string, line: Line): Record<string, unknown> | null {
  return answerQuery2D({ dim: 2, op, ...line }) as Record<string, unknown> | null;
}

/** The exact distance from point c to the box [lo, hi] (0 inside), rounded at the end. */
function boxPointDistance(lo: P, hi: P, c: P): number {
  const gap = (i: number): bigint => {
    const x = big(c[i]);
    if (x < big(lo[i])) return big(lo[i]) - x;
    if (x > big(hi[i])) return x - big(hi[i]);
    return 0n;
  };
  return Math.hypot(unbig(gap(0)), unbig(gap(1)));
}

/** The exact gap of two boxes (0 when they overlap or touch), rounded at the end. */
function boxBoxDistance(a: { min: P; max: P }, b: { min: P; max: P }): number {
  const gap = (i: number): bigint => {
    const g1 = big(b.min[i]) - big(a.max[i]);
    const g2 = big(a.min[i]) - big(b.max[i]);
    if (g1 > 0n) return g1;
    if (g2 > 0n) return g2;
    return 0n;
  };
  return Math.hypot(unbig(gap(0)), unbig(gap(1)));
}

const rect = (min: P, max: P) => ({ type: "rect", min, max });
const circle = (center: P, radius: number) => ({ type: "circle", center, radius });
const seg = (a: P, b: P) => ({ type: "segment", a, b });

/** The next double above x. */
function nextUp(x: number): number {
  const f = new Float64Array([x]);
  const i = new BigInt64Array(f.buffer);
  if (x === 0) return Number.MIN_VALUE;
  i[0] += x > 0 ? 1n : -1n;
  return f[0];
}

describe("attack 31, F-A: a far rect's faces are its min and max exactly", () => {
  it("a circle 4.351405566356424e-6 below a rect at 2e7 (the line's distance, exact)", () => {
    const c: P = [20653180.67091962, -10326590.335461093];
    const r = 0.000022234128648617025;
    const min: P = [20653180.670903616, -10326590.335434508];
    const max: P = [20653180.670947935, -10326590.33538867];
    // The centre is over the rect (min.x ≤ c.x ≤ max.x): the gap is min.y − c.y − r.
    const exact = unbig(big(min[1]) - big(c[1]) - big(r));
    expect(exact).toBe(4.351405566356424e-6);
    const d = q("distance", { a: circle(c, r), b: rect(min, max) });
    expect(d?.distance).toBe(exact);
    expect(((d as Line).pointB as P)[1]).toBe(min[1]);
    expect(q("intersects", { a: circle(c, r), b: rect(min, max) })?.intersects).toBe(false);
    const k = q("contact", { a: circle(c, r), b: rect(min, max), prediction: 1 });
    expect(k?.distance).toBe(exact);
  });

  it("two rects 3.7e-9 apart at 4.7e7 do not intersect (the gap a.min.y − b.max.y, exact)", () => {
    const a = {
      min: [46677919.45214884, -23338959.72617931] as P,
      max: [46677919.452376254, -23338959.72606632] as P,
    };
    const b = {
      min: [46677914.39222662, -23338968.951494254] as P,
      max: [46677919.836171724, -23338959.726179313] as P,
    };
    const line = { a: rect(a.min, a.max), b: rect(b.min, b.max) };
    const gap = boxBoxDistance(a, b);
    expect(gap).toBeGreaterThan(3.7e-9);
    expect(q("intersects", line)?.intersects).toBe(false);
    expect(q("distance", line)?.distance).toBe(gap);
    expect(q("contact", { ...line, prediction: 0 })).toBeNull();
    expect(q("pairs", { shapes: [line.a, line.b] })?.pairs).toEqual([]);
  });

  it("property: rects against circles, rects and face segments at offsets to 1e9 — exact answers", () => {
    const frac = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        logOffsetArb,
        fc.double({ min: -1, max: 1, noNaN: true }),
        logSizeArb,
        logSizeArb,
        logSizeArb,
        frac,
        frac,
        fc.integer({ min: 0, max: 3 }),
        (o, t, w, h, s2, u, v, kind) => {
          const min: P = [o, -o * t];
          const max: P = [o + w, -o * t + h];
          if (!(max[0] > min[0] && max[1] > min[1])) return;
          const A = rect(min, max);
          if (kind === 0) {
            // A circle of radius s2 beside the top face, over it at fraction u of its width.
            const cx = min[0] + u * (max[0] - min[0]);
            const c: P = [cx, max[1] + s2 * (0.5 + v)];
            const r = 0.5 * s2;
            const exact = boxPointDistance(min, max, c) - r;
            const d = q("distance", { a: A, b: circle(c, r) })?.distance as number;
            const bar = 1e-12 * (Math.min(r, Math.max(w, h)) + Math.abs(exact));
            expect(Math.abs(d - Math.max(0, exact))).toBeLessThanOrEqual(bar);
          } else if (kind === 1) {
            // A rect of size s2 beside A's right face at a gap of v·s2 (0: touching).
            const gx = v < 0.2 ? 0 : v * s2;
            const bmin: P = [max[0] + gx, min[1] + u * h];
            const bmax: P = [bmin[0] + s2, bmin[1] + s2];
            const B = rect(bmin, bmax);
            const exact = boxBoxDistance({ min, max }, { min: bmin, max: bmax });
            const line = { a: A, b: B };
            expect(q("intersects", line)?.intersects).toBe(exact === 0);
            const d = q("distance", line)?.distance as number;
            expect(Math.abs(d - exact)).toBeLessThanOrEqual(
              1e-12 * Math.min(s2, w, h) + 4e-16 * exact,
            );
            expect(q("contact", { ...line, prediction: 0 }) !== null).toBe(exact === 0);
            expect(((q("pairs", { shapes: [A, B] }) as Line).pairs as unknown[]).length).toBe(
              exact === 0 ? 1 : 0,
            );
          } else {
            // A segment on the right face's line (touching) or one double beyond it (apart).
            const x = kind === 2 ? max[0] : nextUp(max[0]);
            const y0 = min[1] + u * h;
            const line = { a: A, b: seg([x, y0], [x, y0 + s2]) };
            const exact = x - max[0];
            expect(q("intersects", line)?.intersects).toBe(exact === 0);
            expect(q("distance", line)?.distance).toBe(exact);
            // A ray along +x from inside the rect's height, from s2 to the left of the left face.
            const ox = min[0] - s2;
            const hit = q("raycast", { shape: A, origin: [ox, y0], direction: [1, 0] });
            const want = unbig(big(min[0]) - big(ox));
            // To the rounding of the origin in the rect's frame (its size and the ray's length,
            // not the offset: half an ulp of 1e9 is 6e-8).
            expect(Math.abs((hit?.toi as number) - want)).toBeLessThanOrEqual(
              4e-16 * (want + w + h),
            );
          }
        },
      ),
      { seed: 31, numRuns: 400 },
    );
  });

  it("property: a circle cast toward a far rect stops within the tolerance of the exact face", () => {
    fc.assert(
      fc.property(
        logOffsetArb,
        logSizeArb,
        logSizeArb,
        fc.double({ min: 1.25, max: 4, noNaN: true }),
        (o, w, r, g) => {
          const min: P = [o, -0.5 * o];
          const max: P = [o + w, -0.5 * o + w];
          if (!(max[0] > min[0] && max[1] > min[1])) return;
          // The circle's centre g·r left of the left face, at its middle height, moving at +1 in x.
          const c: P = [min[0] - g * r, min[1] + 0.5 * (max[1] - min[1])];
          if (!(c[1] > min[1] && c[1] < max[1])) return;
          const exact = unbig(big(min[0]) - big(c[0]) - big(r));
          const hit = q("castShapes", {
            a: rect(min, max),
            velocityA: [0, 0],
            b: circle(c, r),
            velocityB: [1, 0],
            maxToi: 1e12,
          });
          const toi = hit?.toi as number;
          const small = Math.min(r, w);
          // Never late beyond the rounding of the pair's offset; early by at most the tolerance.
          expect(toi).toBeLessThanOrEqual(exact + 4e-16 * (g * r + w));
          expect(toi).toBeGreaterThanOrEqual(exact - 2e-9 * small - 4e-16 * (g * r + w));
        },
      ),
      { seed: 311, numRuns: 300 },
    );
  });
});

describe("attack 31, F-B: castShapes far from the origin is not late", () => {
  it("two small circles at 3.6e4 meet at 2.2193379e-7, as in 3D (was 4.4387e-7)", () => {
    const hit = q("castShapes", {
      a: circle([36418.83314289626, -18209.41657175464], 6.791475626401846e-7),
      b: circle([36418.83313922828, -18209.416573491304], 0.00000337919047816946),
      velocityA: [0, 0],
      velocityB: [0.000005503162719708463, 0.000004713581699135353],
      maxToi: 100,
    });
    // The exact root of |d + v·t| = rA + rB (d from the BigInt differences, rounded once).
    const dx = unbig(big(36418.83313922828) - big(36418.83314289626));
    const dy = unbig(big(-18209.416573491304) - big(-18209.41657175464));
    const vx = 0.000005503162719708463;
    const vy = 0.000004713581699135353;
    const R = 6.791475626401846e-7 + 0.00000337919047816946;
    const A = vx * vx + vy * vy;
    const B = dx * vx + dy * vy;
    const C = (Math.hypot(dx, dy) - R) * (Math.hypot(dx, dy) + R);
    const exact = (-B - Math.sqrt(B * B - A * C)) / A;
    expect(exact).toBeCloseTo(2.2193379e-7, 13);
    const toi = hit?.toi as number;
    expect(toi).toBeLessThanOrEqual(exact * (1 + 1e-9));
    expect(toi).toBeGreaterThanOrEqual(exact - (2e-9 * 6.8e-7) / Math.hypot(vx, vy));
  });

  it("property: two circles at offsets to 1e9, a gap far below the offset's ulp, closing obliquely", () => {
    fc.assert(
      fc.property(
        logOffsetArb,
        logSizeArb,
        logSizeArb,
        fc.double({ min: -9, max: 0, noNaN: true }).map((e) => 10 ** e),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: -6, max: 3, noNaN: true }).map((e) => 10 ** e),
        (o, rA, rB, gf, th, speed) => {
          const cA: P = [o, -0.5 * o];
          const ux = Math.cos(th);
          const uy = Math.sin(th);
          const dist = rA + rB + gf * Math.min(rA, rB);
          const cB: P = [cA[0] + dist * ux, cA[1] + dist * uy];
          // The offset B − A exactly (BigInt), then the root of |d + v·t| = rA + rB in that frame.
          const dx = unbig(big(cB[0]) - big(cA[0]));
          const dy = unbig(big(cB[1]) - big(cA[1]));
          const d = Math.hypot(dx, dy);
          const R = rA + rB;
          if (!(d > R * (1 + 1e-12))) return;
          const vx = (-speed * dx) / d;
          const vy = (-speed * dy) / d;
          const a2 = vx * vx + vy * vy;
          const b1 = dx * vx + dy * vy;
          const c0 = (d - R) * (d + R);
          const exact = c0 / (-b1 + Math.sqrt(Math.max(0, b1 * b1 - a2 * c0)));
          const hit = q("castShapes", {
            a: circle(cA, rA),
            velocityA: [0, 0],
            b: circle(cB, rB),
            velocityB: [vx, vy],
            maxToi: 1e15,
          });
          const toi = hit?.toi as number;
          const sp = Math.hypot(vx, vy);
          const round = (8e-16 * d) / sp;
          expect(toi).toBeLessThanOrEqual(exact + round);
          expect(toi).toBeGreaterThanOrEqual(exact - (2e-9 * Math.min(rA, rB)) / sp - round);
        },
      ),
      { seed: 313, numRuns: 400 },
    );
  });

  it("property: segments, rects (as polygons) and circles at offsets to 1e9 meet at gap / speed", () => {
    fc.assert(
      fc.property(
        logOffsetArb,
        logSizeArb,
        logSizeArb,
        fc.double({ min: 0.01, max: 4, noNaN: true }),
        fc.double({ min: -6, max: 3, noNaN: true }).map((e) => 10 ** e),
        fc.integer({ min: 0, max: 2 }),
        (o, s, gs, gk, speed, kind) => {
          // A horizontal segment (or a square polygon, or a circle) of size s at (o, −o/2); B a
          // vertical segment (or square) of size s below it at a gap gk·gs, moving up at `speed`.
          const y0 = -0.5 * o;
          const topB = y0 - gk * gs;
          if (!(topB < y0) || !(topB - s < topB)) return;
          const x0 = o;
          const x1 = o + s;
          if (!(x1 > x0)) return;
          const xm = x0 + 0.5 * (x1 - x0);
          let a: Record<string, unknown>;
          let b: Record<string, unknown>;
          let faceA = y0;
          if (kind === 0) {
            a = seg([x0, y0], [x1, y0]);
            b = seg([xm, topB - s], [xm, topB]);
          } else if (kind === 1) {
            a = {
              type: "polygon",
              points: [
                [x0, y0],
                [x1, y0],
                [x1, y0 + s],
                [x0, y0 + s],
              ],
            };
            b = {
              type: "polygon",
              points: [
                [x0, topB - s],
                [x1, topB - s],
                [x1, topB],
                [x0, topB],
              ],
            };
          } else {
            a = seg([x0, y0], [x1, y0]);
            // A circle of radius s/2 whose top is at topB: its centre on the grid of topB's ulp.
            const cy = topB - 0.5 * s;
            b = circle([xm, cy], 0.5 * s);
            faceA = y0;
            const gapExact = unbig(big(faceA) - big(cy) - big(0.5 * s));
            if (!(gapExact > 0)) return;
            check(a, b, gapExact, speed, s);
            return;
          }
          const gapExact = unbig(big(faceA) - big(topB));
          check(a, b, gapExact, speed, s);
        },
      ),
      { seed: 312, numRuns: 300 },
    );
    function check(
      a: Record<string, unknown>,
      b: Record<string, unknown>,
      gap: number,
      speed: number,
      s: number,
    ): void {
      const exact = gap / speed;
      const hit = q("castShapes", { a, velocityA: [0, 0], b, velocityB: [0, speed], maxToi: 1e15 });
      const toi = hit?.toi as number;
      // Late by at most the rounding of the pair's offset; early by at most the tolerance.
      const round = (8e-16 * (gap + 2 * s)) / speed;
      expect(toi).toBeLessThanOrEqual(exact + round);
      expect(toi).toBeGreaterThanOrEqual(exact - (2e-9 * s) / speed - round);
    }
  });
});
