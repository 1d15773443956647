/**
 * Regression of issue 16: triangle–triangle touching decided exactly. The fuzzer (10^5 queries,
 * seed 72, `--types triangle,mesh,roundedBox,roundedConvex,capsule`, main a9cd145) found two box
 * meshes 1.6e-14 apart at 8e2 called intersecting — Möller's test of the mesh pairs snaps plane
 * distances below 1e-12 of the pair's scale to 0 — while their distance was 1.6e-14 (the outside
 * fuzzer's case: 4.5e-13 apart). Fixed in src/geometry/exact-predicates.ts (`trianglesMeet`,
 * `segmentMeetsTriangle`), used by src/narrowphase/mesh-mesh.ts (`intersectsTriangleTriangle`)
 * and src/narrowphase/triangle-polytope.ts (`touching`: the pair's intersects, distance and
 * contact), so `intersects` ⇔ `distance` = 0 ⇔ `contact` at prediction 0, on the doubles given.
 *
 * The property's oracle is independent of the library: exact rational arithmetic (dyadics,
 * test/fuzz/exact.ts) over the separating axes of two triangles — both normals, the nine edge
 * crosses and the six in-plane edge normals (complete for two triangles: the faces of their
 * Minkowski difference, flat or not) — the triangles are apart exactly when one of those axes
 * separates them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { exactTrianglesMeet as exactMeet } from "./exact.js";
import { loadCases, replayCases } from "./recorded-cases.js";

type P = number[];

const tri = (p: P[]) => ({ type: "triangle", a: p[0], b: p[1], c: p[2] });

/** The library's three answers for (a, b) must agree with `meet`. */
function expectAgrees(a: P[], b: P[], meet: boolean): void {
  const q = { a: tri(a), b: tri(b) };
  const hit = (answerQuery({ op: "intersects", ...q }) as { intersects: boolean }).intersects;
  const d = (answerQuery({ op: "distance", ...q }) as { distance: number }).distance;
  const c = answerQuery({ op: "contact", ...q });
  expect({ hit, apart: d > 0, contact: c !== null }).toEqual({
    hit: meet,
    apart: !meet,
    contact: meet,
  });
}

describe("triangle–triangle touching decided exactly (issue 16)", () => {
  replayCases(loadCases("./triangle-exact-touch.cases.json"), 1);

  it("the oracle: a shared corner meets, one ulp off does not", () => {
    const a = [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
    ];
    const b = [
      [0.25, 0.25, 0],
      [1, 1, 1],
      [0, 1, 1],
    ];
    expect(exactMeet(a, b)).toBe(true);
    const up = b.map((p) => [p[0], p[1], p[2] + 2 ** -54]);
    expect(exactMeet(a, up)).toBe(false);
    expectAgrees(a, b, true);
    expectAgrees(a, up, false);
  });

  it("property: a corner, an edge point or an inside point of A touched by B, moved by 0..4 ulps, sizes 2^-20..2^20, offsets to 2^30", () => {
    const int = (n: number) => fc.integer({ min: -n, max: n });
    const pt = fc.tuple(int(1024), int(1024), int(1024));
    fc.assert(
      fc.property(
        fc.tuple(pt, pt, pt),
        fc.tuple(pt, pt),
        fc.integer({ min: -20, max: 20 }),
        fc.tuple(int(2 ** 30), int(2 ** 30), int(2 ** 30)),
        fc.integer({ min: 0, max: 2 }),
        fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: -4, max: 4 })),
        fc.boolean(),
        (ac, bd, e, off, where, [axis, ulps], swap) => {
          // Corners on the grid 4g (g = 2^(e−10)), so the touching point below is exact; the
          // offset a multiple of 2^(e+14), few bits above the triangles' own.
          const g = 2 ** (e - 10);
          const o = off.map((k) => k * 2 ** (e + 14));
          const a = ac.map((p) => p.map((k, i) => 4 * k * g + o[i]));
          // P: A's corner a, the middle of edge ab, or the inside point (a + b + 2c)/4.
          const w = where === 0 ? [1, 0, 0] : where === 1 ? [0.5, 0.5, 0] : [0.25, 0.25, 0.5];
          const p = [0, 1, 2].map((i) => w[0] * a[0][i] + w[1] * a[1][i] + w[2] * a[2][i]);
          // B: a corner at P, the two others at offsets from it.
          const b = [p, ...bd.map((d) => d.map((k, i) => p[i] + k * g))];
          // Moved by `ulps` units of the largest coordinate along `axis`.
          const m = Math.max(...a.flat().map(Math.abs), ...b.flat().map(Math.abs));
          const u = 2 ** (Math.floor(Math.log2(m)) - 52);
          const moved = b.map((q) => q.map((x, i) => (i === axis ? x + ulps * u : x)));
          const meet = exactMeet(a, moved);
          if (swap) expectAgrees(moved, a, meet);
          else expectAgrees(a, moved, meet);
        },
      ),
      { numRuns: 300 },
    );
  });
});
