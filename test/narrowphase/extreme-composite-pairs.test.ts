/**
 * A huge surface (a mesh's triangle, a heightfield's cells) against a much smaller composite or
 * box far away, sizes spanning 1 to 1e300 (issue 16, fresh41 finding 05). Two faults of the
 * triangle–polytope routine (src/narrowphase/triangle-polytope.ts) at the sizes the change of
 * units (src/narrowphase/extreme-scale.ts) brings such a pair to:
 *
 * - the small triangle's face normal, its squared length underflowed to 0, was left
 *   unnormalised by `normalizeAt`, so every point-in-face product rounded to 0 ("inside") and a
 *   point 9·S away was a witness at distance 0 (mesh vs unit mesh at −10·S, S ≥ 1e107: distance
 *   2.2e105 with pointA = pointB);
 * - the big triangle's in-plane axes (a cross product of a cross product, squared: a 6th power
 *   of its size 2^185) overflowed and were skipped, the face normal's overlap 0 left alone
 *   (a unit mesh 4·S below a 1e200 triangle: distance 0);
 * - a face of a unit box beside a triangle of 1e16 or more, its corners rounded together in the
 *   triangle's local frame, counted every projected point inside it (distance 0.5·S for 2.32·S).
 *
 * Oracle: the small shape is below the big one's resolution (its size under ε·S), so the answer
 * is the distance of its position from the big triangle (or the big square), computed at unit
 * scale by hand — the plane distance when the projection is inside, else the nearest of the
 * three edges' clamped projections — times S; the bar is 1e-9·S plus the small shape's size.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
/** |a|, overflow-safe (the witnesses lie up to 1e307 apart). */
const len = (a: V): number => Math.hypot(a[0], a[1], a[2]);

/** Distance of p from segment ab (clamped projection), unit scale. */
function segmentDistance(p: V, a: V, b: V): number {
  const d = sub(b, a);
  const t = Math.max(0, Math.min(1, dot(sub(p, a), d) / dot(d, d)));
  return len(sub(p, [a[0] + d[0] * t, a[1] + d[1] * t, a[2] + d[2] * t]));
}

/** Distance of p from triangle abc, unit scale: the plane when p projects inside, else the edges. */
function triangleDistance(p: V, a: V, b: V, c: V): number {
  const n = cross(sub(b, a), sub(c, a));
  const h = dot(sub(p, a), n) / len(n);
  const inside =
    dot(cross(sub(b, a), sub(p, a)), n) >= 0 &&
    dot(cross(sub(c, b), sub(p, b)), n) >= 0 &&
    dot(cross(sub(a, c), sub(p, c)), n) >= 0;
  if (inside) return Math.abs(h);
  return Math.min(segmentDistance(p, a, b), segmentDistance(p, b, c), segmentDistance(p, c, a));
}

const T: V[] = [
  [-1, 0, 0],
  [1, 0, 0],
  [0.3, 1, 0.2],
];

const bigMesh = (s: number) => ({
  type: "mesh",
  vertices: T.map((v) => v.map((c) => c * s)),
  indices: [[0, 1, 2]],
});

function smallShape(kind: string, pos: V, s: number, q: number[]): object {
  if (kind === "mesh")
    return {
      type: "mesh",
      vertices: [
        [0, 0, 0],
        [s, 0, 0],
        [0, s, 0],
      ],
      indices: [[0, 1, 2]],
      position: pos,
      rotation: q,
    };
  if (kind === "heightfield")
    return {
      type: "heightfield",
      rows: 2,
      cols: 2,
      heights: [0, s, 0, -s],
      scale: [s, 1, s],
      position: pos,
      rotation: q,
    };
  return { type: "box", center: pos, halfExtents: [s, s, s], rotation: q };
}

type Answer = { distance?: number; pointA?: V; pointB?: V; intersects?: boolean };
const ask = (line: object) => answerQuery(line) as Answer;

describe("a huge surface against a much smaller composite (fresh41 finding 05)", () => {
  it("the report's lines: triangle (±S,0,0),(0,S,0) vs a unit mesh or heightfield at −10·S is 9·S away", () => {
    for (const S of [1e105, 1e107, 1e108, 1e120, 1e200, 1e300]) {
      const a = {
        type: "mesh",
        vertices: [
          [-S, 0, 0],
          [S, 0, 0],
          [0, S, 0],
        ],
        indices: [[0, 1, 2]],
      };
      for (const b of [
        {
          type: "mesh",
          vertices: [
            [0, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
          ],
          indices: [[0, 1, 2]],
          position: [-10 * S, 0, 0],
        },
        {
          type: "heightfield",
          rows: 2,
          cols: 2,
          heights: [0, 0, 0, 0],
          scale: [1, 1, 1],
          position: [-10 * S, 0, 0],
        },
      ]) {
        const r = ask({ op: "distance", a, b });
        expect(Math.abs((r.distance as number) - 9 * S)).toBeLessThanOrEqual(1e-12 * S);
        expect(Math.abs((r.pointA as V)[0] + S)).toBeLessThanOrEqual(1e-12 * S);
        expect(Math.abs((r.pointB as V)[0] + 10 * S)).toBeLessThanOrEqual(1e-12 * S);
        const s = ask({ op: "distance", a: b, b: a });
        expect(s.distance).toBe(r.distance);
        const c = ask({ op: "contact", a, b, prediction: 10 * S });
        expect(Math.abs((c.distance as number) - 9 * S)).toBeLessThanOrEqual(1e-12 * S);
        expect(ask({ op: "intersects", a, b }).intersects).toBe(false);
      }
    }
  });

  it("a unit mesh 4·S below the big triangle's edge (its in-plane axes' squares had overflowed)", () => {
    for (const S of [1e200, 1e250, 1e300]) {
      const a = {
        type: "mesh",
        vertices: [
          [-S, 0, 0],
          [S, 0, 0],
          [0, S, 0],
        ],
        indices: [[0, 1, 2]],
      };
      const b = smallShape("mesh", [0, -4 * S, 0], 1, [0, 0, 0, 1]);
      for (const [x, y] of [
        [a, b],
        [b, a],
      ]) {
        const r = ask({ op: "distance", a: x, b: y });
        expect(r.distance).toBe(4 * S);
      }
    }
  });

  it("property: mesh, heightfield and box of 1e-3..1e2 at d·S from a triangle of S = 1e100..1e306, both orders, distance, contact, intersects", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 306 }),
        fc.double({ min: 1, max: 1.9, noNaN: true }),
        fc.integer({ min: -3, max: 2 }),
        fc.tuple(
          fc.double({ min: -4, max: 4, noNaN: true }),
          fc.double({ min: -4, max: 4, noNaN: true }),
          fc.oneof(fc.constant(0), fc.double({ min: -4, max: 4, noNaN: true })),
        ),
        fc.constantFrom("mesh", "heightfield", "box"),
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: 0.1, max: 1, noNaN: true }),
        ),
        fc.boolean(),
        fc.constantFrom("distance", "contact", "intersects"),
        (e, m, se, d, kind, q4, swap, op) => {
          const S = Number(`1e${e}`) * m;
          const s = 10 ** se;
          const pos: V = [d[0] * S, d[1] * S, d[2] * S];
          fc.pre(pos.every((x) => Math.abs(x) < 8e307));
          const qn = Math.hypot(...q4);
          const q = q4.map((x) => x / qn);
          const big = bigMesh(S);
          const small = smallShape(kind, pos, s, q);
          const line: Record<string, unknown> = swap
            ? { op, a: small, b: big }
            : { op, a: big, b: small };
          if (op === "contact") line.prediction = 1e308;
          const want = S * triangleDistance(d as V, T[0], T[1], T[2]);
          const r = ask(line);
          if (op === "intersects") {
            if (want > 1e-9 * S + 10 * s) expect(r.intersects).toBe(false);
            return;
          }
          expect(Math.abs((r.distance as number) - want)).toBeLessThanOrEqual(1e-9 * S + 10 * s);
          if (want > 1e-6 * S) {
            const pb = (swap ? r.pointA : r.pointB) as V;
            expect(len(sub(pb, pos))).toBeLessThanOrEqual(10 * s + 1e-12 * S);
          }
        },
      ),
      { numRuns: 600 },
    );
  });

  it("property: a unit box, mesh or sphere at d·S from a heightfield square [−S, S]² of S = 1e10..1e300 (a unit box's faces had rounded to points)", () => {
    const squareDistance = (p: V) =>
      Math.hypot(Math.max(0, Math.abs(p[0]) - 1), p[1], Math.max(0, Math.abs(p[2]) - 1));
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 300 }),
        fc.tuple(
          fc.double({ min: -4, max: 4, noNaN: true }),
          fc.double({ min: -4, max: 4, noNaN: true }),
          fc.double({ min: -4, max: 4, noNaN: true }),
        ),
        fc.constantFrom("mesh", "box"),
        fc.boolean(),
        fc.constantFrom("distance", "contact"),
        (e, d, kind, swap, op) => {
          const S = Number(`1e${e}`);
          const pos: V = [d[0] * S, d[1] * S, d[2] * S];
          const field = {
            type: "heightfield",
            rows: 2,
            cols: 2,
            heights: [0, 0, 0, 0],
            scale: [2 * S, 1, 2 * S],
            position: [-S, 0, -S],
          };
          const small = smallShape(kind, pos, 1, [0, 0, 0, 1]);
          const line: Record<string, unknown> = swap
            ? { op, a: small, b: field }
            : { op, a: field, b: small };
          if (op === "contact") line.prediction = 1e308;
          const want = S * squareDistance(d);
          const r = ask(line);
          expect(Math.abs((r.distance as number) - want)).toBeLessThanOrEqual(1e-9 * S + 4);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("fresh41 06: a unit mesh or heightfield 1.7e308 from a 1e307 mesh answers 1.6e308 in every op, both orders (was: Maximum call stack size exceeded)", () => {
    const big = {
      type: "mesh",
      vertices: [
        [-1e307, 0, 0],
        [1e307, 0, 0],
        [0, 1e307, 0],
      ],
      indices: [[0, 1, 2]],
    };
    const smalls = [
      {
        type: "mesh",
        vertices: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
        ],
        indices: [[0, 1, 2]],
        position: [-1.7e308, 0, 0],
      },
      {
        type: "heightfield",
        rows: 2,
        cols: 2,
        heights: [0, 1, 0, -1],
        scale: [1, 1, 1],
        position: [-1.7e308, 0, 0],
      },
    ];
    // Hand-derived: the small shape's x is −1.7e308 (+1 lost to rounding), the big triangle's
    // nearest point its corner (−1e307, 0, 0): 1.6e308, to the rounding of 1.7e308 − 1e307.
    const want = 1.7e308 - 1e307;
    for (const small of smalls) {
      for (const swap of [false, true]) {
        const [a, b] = swap ? [small, big] : [big, small];
        const d = ask({ op: "distance", a, b });
        expect(Math.abs((d.distance as number) - want)).toBeLessThanOrEqual(1e-12 * want);
        const onBig = (swap ? d.pointB : d.pointA) as V;
        const onSmall = (swap ? d.pointA : d.pointB) as V;
        expect(Math.abs(onBig[0] + 1e307)).toBeLessThanOrEqual(1e-12 * 1e307);
        expect(Math.abs(onSmall[0] + 1.7e308)).toBeLessThanOrEqual(1e-12 * 1.7e308);
        expect(ask({ op: "intersects", a, b }).intersects).toBe(false);
        const c = ask({ op: "contact", a, b, prediction: 1.7e308 });
        expect(Math.abs((c.distance as number) - want)).toBeLessThanOrEqual(1e-12 * want);
        expect(ask({ op: "contact", a, b, prediction: 1e308 })).toBeNull();
        const m = answerQuery({ op: "manifold", a, b, prediction: 1.7e308 }) as {
          points: { distance: number }[];
        };
        expect(Math.abs(m.points[0].distance - want)).toBeLessThanOrEqual(1e-12 * want);
      }
    }
  });
});
