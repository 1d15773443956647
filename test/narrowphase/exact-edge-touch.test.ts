/**
 * A rounded point — a sphere's centre, a zero-extent rounded box's core, a rounded hull's core
 * vertex — exactly its radius from a tilted triangle's EDGE or CORNER (its foot outside the face)
 * is touching (issue 16): intersects true, distance 0, contact at distance 0, in both orders, for
 * a bare triangle, a one-triangle mesh, a heightfield's border, a convex hull's edge and corner;
 * one ulp less radius is apart, one ulp more overlaps. The oracle is exact: every input is a
 * dyadic double (integers times a power of two, far below 2^53), the touch is built from
 * orthogonal integer directions of length 7 (2² + 3² + 6² = 7²: D0, D1, D2) and Pythagorean
 * offsets, so that the true distance is exactly the radius; a BigInt check of the squared
 * distance to the segment confirms each construction.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  contact,
  distance,
  intersects,
  makeConvexPolyhedron,
  makeHeightfield,
  makeRoundedConvexPolyhedron,
  makeRoundedCuboid,
  makeSphere,
  makeTriangle,
  makeTriangleMesh,
  type Shape,
} from "../../src/index.js";
import { big } from "../dim2/oracle.js";
import { stepUlps } from "../support/ulp.js";

type V = { x: number; y: number; z: number };
const I = { x: 0, y: 0, z: 0, w: 1 };
const at = (t: number[]) => ({ translation: { x: t[0], y: t[1], z: t[2] }, rotation: I });
const O = at([0, 0, 0]);
const vec = (v: number[]): V => ({ x: v[0], y: v[1], z: v[2] });

/** want: 1 apart, 0 touching, −1 overlapping; checked in both orders. */
function expectAnswer(A: Shape, pa: typeof O, B: Shape, pb: typeof O, want: number, tag: string) {
  const hit = want <= 0;
  expect(intersects(A, pa, B, pb), tag).toBe(hit);
  expect(intersects(B, pb, A, pa), tag).toBe(hit);
  const d1 = distance(A, pa, B, pb).distance;
  const d2 = distance(B, pb, A, pa).distance;
  if (hit) {
    expect(d1, tag).toBe(0);
    expect(d2, tag).toBe(0);
  } else {
    expect(d1, tag).toBeGreaterThan(0);
    expect(d2, tag).toBeGreaterThan(0);
  }
  const c1 = contact(A, pa, B, pb);
  const c2 = contact(B, pb, A, pa);
  if (hit) {
    expect(c1, tag).not.toBeNull();
    expect(c2, tag).not.toBeNull();
    if (want === 0) {
      expect(c1?.distance, tag).toBe(0);
      expect(c2?.distance, tag).toBe(0);
    } else {
      expect(c1?.distance, tag).toBeLessThanOrEqual(0);
      expect(c2?.distance, tag).toBeLessThanOrEqual(0);
    }
  } else {
    expect(c1, tag).toBeNull();
    expect(c2, tag).toBeNull();
  }
}

/** BigInt: |p − [a, b]|² − r² exactly 0 (the construction's touch). */
function touchesExactly(
  p: readonly number[],
  a: readonly number[],
  b: readonly number[],
  r: number,
): boolean {
  const P = p.map(big);
  const A = a.map(big);
  const B = b.map(big);
  const e = B.map((x, i) => x - A[i]);
  const w = P.map((x, i) => x - A[i]);
  const l = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
  const t = w[0] * e[0] + w[1] * e[1] + w[2] * e[2];
  const R = big(r);
  const sq = (v: bigint[]) => v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  if (t <= 0n) return sq(w) === R * R;
  if (t >= l) return sq(P.map((x, i) => x - B[i])) === R * R;
  const x = [w[1] * e[2] - w[2] * e[1], w[2] * e[0] - w[0] * e[2], w[0] * e[1] - w[1] * e[0]];
  return sq(x) === R * R * l;
}

const D0 = [2, 3, 6];
const D1 = [6, 2, -3];
const D2 = [3, -6, 2];
/** c0·D0 + c2·D2 + c1·D1, times f. */
const comb = (c0: number, c2: number, c1: number, f: number) =>
  [0, 1, 2].map((i) => (c0 * D0[i] + c2 * D2[i] + c1 * D1[i]) * f);

describe("exact touches at a tilted triangle's edge and corner", () => {
  it("triangle, one-triangle mesh, convex hull: sphere, zero-extent rounded box, rounded hull's vertex", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -30, max: 30 }),
        fc.array(fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), { minLength: 3, maxLength: 3 }),
        fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 2 ** 24, max: 2 ** 27 })),
        fc.constantFrom("edge", "corner"),
        fc.constantFrom(-1, 0, 1),
        (e, off, m, where, ulps) => {
          const k = 2 ** e;
          // Triangle a, b = a + 3·D0, c = a + 4·D2 (normal along D1): the foot of an edge touch
          // lies a third of the way along a–b (no dyadic nearest point: the doubles round).
          const a = off.map((x) => x * k);
          const b = a.map((x, i) => x + 3 * D0[i] * k);
          const c = a.map((x, i) => x + 4 * D2[i] * k);
          // Edge: across a–b by 4m, above by 3m: 35m from the edge. Corner: (−2, −1, 2)m from a
          // (behind a along D0 and D2): 21m.
          const u = where === "edge" ? [0, -4, 3] : [-2, -1, 2];
          const along = where === "edge" ? 1 : 0;
          const p = a.map(
            (x, i) => x + (along * D0[i] + m * (u[0] * D0[i] + u[1] * D2[i] + u[2] * D1[i])) * k,
          );
          const r = (where === "edge" ? 35 : 21) * m * k;
          expect(touchesExactly(p, a, where === "edge" ? b : a, r)).toBe(true);
          const tri = makeTriangle(vec(a), vec(b), vec(c));
          const mesh = makeTriangleMesh([vec(a), vec(b), vec(c)], [0, 1, 2]);
          const hull = makeConvexPolyhedron([
            vec(a),
            vec(b),
            vec(c),
            vec(a.map((x, i) => x - 5 * D1[i] * k)),
          ]);
          // A rounded hull whose core vertex at its origin is the nearest (the others farther
          // along the same direction, spread normal to it).
          const p1 = where === "edge" ? [1, 0, 0] : [1, -2, 0];
          const p2 = where === "edge" ? [0, 3, 4] : [4, 2, 5];
          const core = [
            [0, 0, 0],
            comb(u[0], u[1], u[2], k / 4),
            comb(u[0] + p1[0], u[1] + p1[1], u[2] + p1[2], k / 4),
            comb(u[0] + p2[0], u[1] + p2[1], u[2] + p2[2], k / 4),
          ].map(vec);
          const rr = stepUlps(r, ulps);
          const want = -ulps;
          const pose = at(p);
          const tag = `${where} k=2^${e} off=${off} m=${m} ulps=${ulps}`;
          for (const S of [
            makeSphere(rr),
            makeRoundedCuboid({ x: 0, y: 0, z: 0 }, rr),
            makeRoundedConvexPolyhedron(core, rr),
          ]) {
            expectAnswer(tri, O, S, pose, want, `${tag} triangle ${S.type}`);
            expectAnswer(mesh, O, S, pose, want, `${tag} mesh ${S.type}`);
          }
          expectAnswer(hull, O, makeSphere(rr), pose, want, `${tag} hull sphere`);
        },
      ),
      { numRuns: 200, seed: 4511 },
    );
  });

  it("a heightfield's border edge and corner (a cell tilted y = 4x/3), and its mesh", () => {
    // [scale, x0, z0, M]: the last two were apart by 1.2e-7 and 3.1e-5 before the edge was decided exactly.
    const cases: number[][] = [];
    for (const sc of [2 ** -20, 1, 2 ** 18]) {
      for (const [x0, z0, M] of [
        [0, 0, 1],
        [2 ** 20, 3, 1],
        [0, 0, 2 ** 26 + 3],
        [2 ** 20, 3, 98765431],
      ]) {
        cases.push([sc, x0, z0, M]);
      }
    }
    cases.push([4, 15635528, 7541512, 131880513], [1024, 16636470, 5660000, 63443457]);
    for (const [s, x0, z0, M] of cases) {
      {
        // One cell: corners (0, 0, 0), (3, 4, 0), (0, 0, 3), (3, 4, 3), times s, offset (x0, 0, z0)·s.
        const hf = makeHeightfield({
          rows: 2,
          cols: 2,
          heights: [0, 4, 0, 4],
          scale: { x: 3 * s, y: s, z: 3 * s },
        });
        const pose = at([x0 * s, 0, z0 * s]);
        const mesh = makeTriangleMesh(
          [vec([0, 0, 0]), vec([3 * s, 4 * s, 0]), vec([0, 0, 3 * s]), vec([3 * s, 4 * s, 3 * s])],
          [0, 2, 3, 0, 3, 1],
        );
        for (const [where, p, r] of [
          // Border edge z = 0 from (0, 0, 0) to (3, 4, 0): half-way, (−12, 9, −20) off: 25.
          ["edge", [1.5 - 12 * M, 2 + 9 * M, -20 * M], 25 * M],
          // Corner (0, 0, 0): (−2, 1, −2) off: 3 (times M).
          ["corner", [-2 * M, M, -2 * M], 3 * M],
        ] as const) {
          const q = at([(p[0] + x0) * s, p[1] * s, (p[2] + z0) * s]);
          expect(touchesExactly(p, [0, 0, 0], where === "edge" ? [3, 4, 0] : [0, 0, 0], r)).toBe(
            true,
          );
          for (const ulps of [-1, 0, 1]) {
            const rr = stepUlps(r * s, ulps);
            for (const S of [makeSphere(rr), makeRoundedCuboid({ x: 0, y: 0, z: 0 }, rr)]) {
              const tag = `${where} s=${s} x0=${x0} M=${M} ulps=${ulps} ${S.type}`;
              expectAnswer(hf, pose, S, q, -ulps, `heightfield ${tag}`);
              expectAnswer(mesh, pose, S, q, -ulps, `mesh ${tag}`);
            }
          }
        }
      }
    }
  });
});
