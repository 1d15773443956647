/**
 * Issue 16, attack 30 (2D pair queries): F1 — gaps and overlaps of about 1e-9 of the larger
 * shape were nothing (GJK's tolerance followed the larger shape: a segment crossing a unit
 * polygon's tip, a segment half inside a rect of 9e5, distances near a tip 4.2 times the gap,
 * casts ending inside); F2 — shapes sharing an exact input point were apart (the posed
 * constructors' local origin rounded the shared point, and GJK decided touching by a relative
 * tolerance); F3 — a circle against a long segment took its normal from two rounded points 1e3
 * from the origin. Each line's right answer is by hand or exact (BigInt) arithmetic; the
 * properties generate each class at sizes 1e-6..1e6 mixed and offsets to 1e9.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as pose2 from "../../src/dim2/pose2.js";
import { makePolygon, makeSegment } from "../../src/dim2/shapes.js";
import { CollisionWorld2D } from "../../src/dim2/world2.js";
import { answerQuery2D } from "../../src/io/query-2d.js";
import { logSizeArb } from "./arbitraries.js";
import { big } from "./oracle.js";

type P = [number, number];
type Line = Record<string, unknown>;

function q(op: string, line: Line): Record<string, unknown> {
  return answerQuery2D({ dim: 2, op, ...line }) as Record<string, unknown>;
}

/** The three answers of a pair that must agree: intersects ⇔ distance 0 ⇔ contact non-null. */
function answers(line: Line): { hit: boolean; distance: number; contact: unknown } {
  return {
    hit: q("intersects", line).intersects as boolean,
    distance: q("distance", line).distance as number,
    contact: q("contact", line),
  };
}

const seg = (a: P, b: P) => ({ type: "segment", a, b });
const poly = (points: P[]) => ({ type: "polygon", points });

/** The exact distance from point c to the line through a, b, rounded once at the end. */
function exactLineDistance(a: P, b: P, c: P): number {
  const ex = big(b[0]) - big(a[0]);
  const ey = big(b[1]) - big(a[1]);
  const dx = big(c[0]) - big(a[0]);
  const dy = big(c[1]) - big(a[1]);
  const cross = ex * dy - ey * dx;
  const ee = ex * ex + ey * ey;
  // Both carry 2^2200: shifted to about 2^200 of their size, each rounds once to a double.
  const abs = cross < 0n ? -cross : cross;
  const cr = Number(abs >> 2000n);
  const en = Number(ee >> 2000n);
  return cr / 2 ** 100 / Math.sqrt(en);
}

const tip: P[] = [
  [2, 0],
  [1, -1],
  [1e-9, 0],
  [1, 1],
];

describe("attack 30, F1: a gap or overlap of 1e-9 of the larger shape", () => {
  it("a segment half inside a rect of 9e5 intersects it (the point (−3.5e-5, −3.5e-5) is inside)", () => {
    const line = {
      a: seg([5e-5, 5e-5], [-5e-5, -5e-5]),
      b: { type: "rect", min: [-4e-5, -9e5], max: [2e5, -3e-5] },
    };
    const r = answers(line);
    expect(r.hit).toBe(true);
    expect(r.distance).toBe(0);
    expect(r.contact).not.toBeNull();
    // Already overlapping: a cast starts at toi 0.
    const cast = q("castShapes", { ...line, velocityA: [0, -1], velocityB: [0, 0] });
    expect(cast.toi).toBe(0);
  });

  it("a segment through a unit polygon's tip intersects it, in every query and the world", () => {
    const line = { a: seg([1.5e-9, -5e-9], [1.5e-9, 5e-9]), b: poly(tip) };
    const r = answers(line);
    expect(r.hit).toBe(true);
    expect(r.distance).toBe(0);
    expect(r.contact).not.toBeNull();
    expect((q("manifold", line).points as unknown[]).length).toBeGreaterThan(0);
    const polygon = makePolygon(tip.map(([x, y]) => ({ x, y })));
    const s = makeSegment({ x: 0, y: -5e-9 }, { x: 0, y: 5e-9 });
    for (const broadphase of ["brute", "grid", "tree"] as const) {
      const w = new CollisionWorld2D({ broadphase });
      w.addBody({ shape: polygon, pose: pose2.fromAngle(0, 0) });
      w.addBody({ shape: s, pose: pose2.fromAngle(1.5e-9, 0) });
      w.step();
      expect(w.contacts().length).toBe(1);
    }
  });

  it("a segment 1e-9 from the tip: distance 1e-9, and a cast reaches the tip at toi 1e-9", () => {
    const line = { a: seg([0, -5e-9], [0, 5e-9]), b: poly(tip) };
    expect(q("distance", line).distance).toBe(1e-9);
    const cast = q("castShapes", { ...line, velocityA: [1, 0], velocityB: [0, 0] });
    expect(cast.toi).toBe(1e-9);
  });
});

describe("attack 30, F2: shapes sharing an exact input point touch", () => {
  it("a chain of two segments: intersects, distance 0 at the joint, contact at depth 0", () => {
    const line = {
      a: seg([-0.026, 0.073], [0.148, 0.098]),
      b: seg([0.148, 0.098], [-0.451, 0.047]),
    };
    const r = answers(line);
    expect(r.hit).toBe(true);
    expect(r.distance).toBe(0);
    const c = r.contact as { distance: number; pointA: P; pointB: P };
    expect(c.distance).toBe(0);
    expect(c.pointA).toEqual([0.148, 0.098]);
    expect(c.pointB).toEqual([0.148, 0.098]);
  });
});

describe("attack 30, F3: a circle against a long segment", () => {
  it("the normal achieves the depth (r less the exact perpendicular distance)", () => {
    const center: P = [-1106.9423094354663, -1117.876742680268];
    const radius = 0.0012318022032720595;
    const a: P = [1503.1857398359343, 2210.5132843969454];
    const b: P = [-1106.9433265549055, -1117.8776143687219];
    const c = q("contact", { a: { type: "circle", center, radius }, b: seg(a, b) }) as {
      distance: number;
      normal: P;
    };
    const right = exactLineDistance(a, b, center) - radius;
    expect(Math.abs(c.distance - right)).toBeLessThanOrEqual(1e-6 * Math.abs(right));
    // Along the normal, the segment's nearer end (the support of B along −n: the segment is
    // perpendicular to n, so both ends) is |distance| + r from the centre less the radius.
    const n = c.normal;
    for (const e of [a, b]) {
      const along = n[0] * (e[0] - center[0]) + n[1] * (e[1] - center[1]) - radius;
      // The projection of the far end rounds at 4e3 · ε.
      expect(Math.abs(along - c.distance)).toBeLessThanOrEqual(1e-6 * Math.abs(right) + 1e-11);
    }
  });
});

/**
 * The attack's four `collide query` lines as they were kept in test/fuzz/open/attack30-2d.jsonl
 * (session 30, on 1751ba2): F1rect, F1tip and F2shared intersect; F3normal's contact is r less
 * the exact perpendicular distance deep (−9.6934e-4), along a normal that achieves it.
 */
const OPEN_LINES: (Line & { id: string; op: string })[] = [
  {
    id: "F1rect",
    op: "intersects",
    a: { type: "segment", a: [5e-5, 5e-5], b: [-5e-5, -5e-5] },
    b: { type: "rect", min: [-4e-5, -9e5], max: [2e5, -3e-5] },
  },
  {
    id: "F1tip",
    op: "intersects",
    a: { type: "segment", a: [1.5e-9, -5e-9], b: [1.5e-9, 5e-9] },
    b: {
      type: "polygon",
      points: [
        [2, 0],
        [1, -1],
        [1e-9, 0],
        [1, 1],
      ],
    },
  },
  {
    id: "F2shared",
    op: "intersects",
    a: { type: "segment", a: [-0.026, 0.073], b: [0.148, 0.098] },
    b: { type: "segment", a: [0.148, 0.098], b: [-0.451, 0.047] },
  },
  {
    id: "F3normal",
    op: "contact",
    a: {
      type: "circle",
      center: [-1106.9423094354663, -1117.876742680268],
      radius: 0.0012318022032720595,
    },
    b: {
      type: "segment",
      a: [1503.1857398359343, 2210.5132843969454],
      b: [-1106.9433265549055, -1117.8776143687219],
    },
  },
];

describe("attack 30: the open lines, as kept", () => {
  for (const { id, op, ...line } of OPEN_LINES) {
    it(`${id}: ${op}`, () => {
      if (op === "intersects") {
        expect(q(op, line).intersects).toBe(true);
        return;
      }
      const circle = line.a as { center: P; radius: number };
      const segment = line.b as { a: P; b: P };
      const right = exactLineDistance(segment.a, segment.b, circle.center) - circle.radius;
      expect(right).toBeCloseTo(-9.6934e-4, 7);
      const c = q(op, line) as { distance: number; normal: P };
      expect(Math.abs(c.distance - right)).toBeLessThanOrEqual(1e-6 * Math.abs(right));
      // The normal achieves the depth: B's support along −n (both ends: the segment is
      // perpendicular to n) lies |distance| inside the circle, up to the far end's rounding.
      for (const e of [segment.a, segment.b]) {
        const along =
          c.normal[0] * (e[0] - circle.center[0]) +
          c.normal[1] * (e[1] - circle.center[1]) -
          circle.radius;
        expect(Math.abs(along - c.distance)).toBeLessThanOrEqual(1e-6 * Math.abs(right) + 1e-11);
      }
    });
  }
});

/**
 * Offsets below 1e-6 flushed to 0 (as test/dim2/arbitraries.ts flushes): coordinates under
 * 2^-300 beside unit ones are outside the exact predicates' range.
 */
const offset = fc
  .double({ min: -1e9, max: 1e9, noNaN: true })
  .map((v) => (Math.abs(v) < 1e-6 ? 0 : v));

/** True when `makePolygon` takes the points (the rounded ones may be collinear or repeat). */
function validPolygon(points: P[]): boolean {
  try {
    makePolygon(points.map(([x, y]) => ({ x, y })));
    return true;
  } catch {
    return false;
  }
}

describe("attack 30: properties of the classes", () => {
  it("F2: segments and triangles sharing a vertex on a grid touch (intersects, distance 0, contact)", () => {
    fc.assert(
      fc.property(
        logSizeArb,
        offset,
        offset,
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 8, maxLength: 8 }),
        fc.constantFrom("segment-segment", "segment-polygon", "polygon-polygon"),
        (s, ox, oy, k, kind) => {
          const g = (i: number, j: number): P => [ox + k[i] * s * 1e-3, oy + k[j] * s * 1e-3];
          const shared = g(0, 1);
          const u = g(2, 3);
          const v = g(4, 5);
          const w = g(6, 7);
          const turn = (p: P, r: P, t: P) =>
            (r[0] - p[0]) * (t[1] - p[1]) - (r[1] - p[1]) * (t[0] - p[0]);
          if (kind !== "segment-segment" && (turn(shared, v, w) === 0 || turn(shared, u, v) === 0))
            return;
          if (u[0] === shared[0] && u[1] === shared[1]) return;
          if (w[0] === shared[0] && w[1] === shared[1]) return;
          const a = kind === "polygon-polygon" ? poly([shared, u, v]) : seg(u, shared);
          const b = kind === "segment-segment" ? seg(shared, w) : poly([shared, v, w]);
          if (kind === "polygon-polygon" && !validPolygon([shared, u, v])) return;
          if (kind !== "segment-segment" && !validPolygon([shared, v, w])) return;
          const r = answers({ a, b });
          expect(r.hit).toBe(true);
          expect(r.distance).toBe(0);
          expect(r.contact).not.toBeNull();
        },
      ),
      { numRuns: 400 },
    );
  });

  it("F1: a segment across a sharp polygon tip meets it; one beside it is exactly its gap away; a cast reaches it", () => {
    fc.assert(
      fc.property(
        logSizeArb,
        logSizeArb,
        fc.double({ min: -6, max: -1, noNaN: true }).map((e) => 10 ** e),
        offset,
        offset,
        fc.double({ min: -12, max: -2, noNaN: true }).map((e) => 10 ** e),
        fc.boolean(),
        (big, small, sharp, ox, oy, gapRel, inside) => {
          // The tip T points toward −x; the polygon reaches 2·big to the right, ± sharp·big wide.
          const T: P = [ox, oy];
          const pts: P[] = [
            [ox + 2 * big, oy],
            [ox + big, oy - sharp * big],
            T,
            [ox + big, oy + sharp * big],
          ];
          const h = 0.5 * small;
          const xs = inside
            ? ox + gapRel * Math.min(big, small)
            : ox - gapRel * Math.min(big, small);
          const gap = ox - xs; // exact (Sterbenz): > 0 beside the tip, < 0 across it
          if (gap === 0 || !validPolygon(pts)) return;
          const line = { a: seg([xs, oy - h], [xs, oy + h]), b: poly(pts) };
          const r = answers(line);
          const size = Math.min(big, small);
          if (gap < 0) {
            expect(r.hit).toBe(true);
            expect(r.distance).toBe(0);
            expect(r.contact).not.toBeNull();
          } else {
            expect(r.hit).toBe(false);
            expect(r.contact).toBeNull();
            expect(Math.abs(r.distance - gap)).toBeLessThanOrEqual(1e-9 * size);
            const cast = q("castShapes", { ...line, velocityA: [1, 0], velocityB: [0, 0] });
            expect(Math.abs((cast.toi as number) - gap)).toBeLessThanOrEqual(1e-9 * size);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("F3: a small circle near a long segment's end: the normal achieves the depth", () => {
    fc.assert(
      fc.property(
        logSizeArb,
        logSizeArb,
        offset,
        offset,
        fc.double({ min: 0, max: 6.28, noNaN: true }),
        fc.double({ min: -0.9, max: 0.9, noNaN: true }),
        (long, r, ox, oy, angle, off) => {
          if (long < 100 * r) return;
          const b: P = [ox, oy];
          const a: P = [ox + long * Math.cos(angle), oy + long * Math.sin(angle)];
          // The centre beside the segment, a tenth of its length in from b, off · r away.
          const t = Math.min(0.1, (10 * r) / long);
          const nx = -Math.sin(angle);
          const ny = Math.cos(angle);
          const c: P = [
            b[0] + t * (a[0] - b[0]) + off * r * nx,
            b[1] + t * (a[1] - b[1]) + off * r * ny,
          ];
          const res = q("contact", {
            a: { type: "circle", center: c, radius: r },
            b: seg(a, b),
          }) as {
            distance: number;
            normal: P;
          } | null;
          const right = exactLineDistance(a, b, c) - r;
          expect(res).not.toBeNull();
          if (res === null) return;
          expect(Math.abs(res.distance - right)).toBeLessThanOrEqual(
            1e-6 * Math.abs(right) + 1e-9 * r,
          );
          const n = res.normal;
          // Rounding of the far end's projection: a few ε of its offset from the centre.
          const far = 8 * Number.EPSILON * (Math.abs(a[0] - c[0]) + Math.abs(a[1] - c[1]));
          for (const e of [a, b]) {
            const along = n[0] * (e[0] - c[0]) + n[1] * (e[1] - c[1]) - r;
            expect(Math.abs(along - res.distance)).toBeLessThanOrEqual(
              1e-6 * Math.abs(right) + 1e-9 * r + far,
            );
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
