/**
 * Regression of issue 16: rounded boxes and hulls against each other and against plain boxes and
 * hulls. The pairs went to the general narrow phase (EPA on the swept shapes), whose depth came
 * out too deep: a rounded box of 1e-4 against one of 178 at 2.4e7, 1.68e-5 too deep (bar
 * 1.49e-5); a small rounded hull deep in a rounded box, 9.5e-6 too deep. Fixed in
 * src/narrowphase/rounded-polytope.ts: the cores by their exact routines, the radii added.
 *
 * The oracle is independent of the library, brute force on the cores: when they overlap, their
 * least overlap over the directions along which their Minkowski difference has a face (both
 * cores' face normals and every edge crossed with every edge: exact for polytopes), plus the
 * radii; when apart, the least distance over every vertex–triangle and edge–edge pair of their
 * triangulated boundaries, less the radii. The pairs are also replayed through the fuzzer's checks
 * (test/fuzz/fuzz.ts, its own model of the rounded shapes) in both orders at offsets to 1e9.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { offsetArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import {
  add,
  closestOnTriangle,
  cross,
  dist,
  dot,
  hullFaces,
  norm,
  rotate,
  scale,
  segmentSegmentDistance,
  sub,
  type V,
} from "./oracle-shapes.js";
import { expectPassesBothOrders, loadCases, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;

interface Poly {
  vs: V[];
  ns: V[];
  es: [V, V][];
}

/** The core of a (rounded) box or hull JSON, world frame, and its radius. */
function coreOf(j: J): [Poly, number] {
  const r = (j.radius as number | undefined) ?? 0;
  let vs: V[];
  if (j.type === "box" || j.type === "roundedBox") {
    const h = j.halfExtents as number[];
    const c = j.center as V;
    const q = j.rotation as number[] | undefined;
    vs = [];
    for (const x of [-1, 1])
      for (const y of [-1, 1])
        for (const z of [-1, 1]) vs.push(add(rotate(q, [x * h[0], y * h[1], z * h[2]]), c));
  } else {
    vs = (j.points as V[]).map((p) => [...p] as V);
  }
  const faces = hullFaces(vs);
  const es: [V, V][] = [];
  for (const f of faces) for (let i = 0; i < 3; i++) es.push([f.tri[i], f.tri[(i + 1) % 3]]);
  const tris = faces.map((f) => f.tri);
  return [{ vs, ns: faces.map((f) => f.n), es, tris } as Poly & { tris: [V, V, V][] }, r];
}

/** The cores' signed distance: −(least overlap) when they overlap, else their least distance. */
function coreSigned(A: Poly, B: Poly): number {
  const axes: V[] = [...A.ns, ...B.ns];
  for (const [a0, a1] of A.es)
    for (const [b0, b1] of B.es) axes.push(cross(sub(a1, a0), sub(b1, b0)));
  let least = Number.POSITIVE_INFINITY;
  for (const x of axes) {
    const l = norm(x);
    if (!(l > 1e-12 * Math.max(...x.map(Math.abs)) && l > 0)) continue;
    const u = scale(x, 1 / l);
    const pa = A.vs.map((p) => dot(p, u));
    const pb = B.vs.map((p) => dot(p, u));
    least = Math.min(least, Math.max(...pa) - Math.min(...pb), Math.max(...pb) - Math.min(...pa));
  }
  if (least > 0) return -least;
  let best = Number.POSITIVE_INFINITY;
  const ta = (A as Poly & { tris: [V, V, V][] }).tris;
  const tb = (B as Poly & { tris: [V, V, V][] }).tris;
  for (const p of A.vs)
    for (const t of tb) best = Math.min(best, dist(p, closestOnTriangle(p, ...t)));
  for (const p of B.vs)
    for (const t of ta) best = Math.min(best, dist(p, closestOnTriangle(p, ...t)));
  for (const [a0, a1] of A.es)
    for (const [b0, b1] of B.es) best = Math.min(best, segmentSegmentDistance(a0, a1, b0, b1));
  return best;
}

/** Contact and distance of `a`, `b` (both orders) against the oracle, within `tol`. */
function expectOracle(a: J, b: J, tol: number): void {
  const [A, rA] = coreOf(a);
  const [B, rB] = coreOf(b);
  const want = coreSigned(A, B) - rA - rB;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    const c = answerQuery({
      op: "contact",
      a: x,
      b: y,
      prediction: Math.max(0, want) * 2 + tol,
    }) as {
      distance: number;
    } | null;
    expect(c).not.toBeNull();
    expect(Math.abs((c as { distance: number }).distance - want)).toBeLessThanOrEqual(tol);
    const d = answerQuery({ op: "distance", a: x, b: y }) as { distance: number };
    expect(Math.abs(d.distance - Math.max(0, want))).toBeLessThanOrEqual(tol);
    const i = answerQuery({ op: "intersects", a: x, b: y }) as { intersects: boolean };
    if (Math.abs(want) > tol) expect(i.intersects).toBe(want < 0);
  }
}

const OPS = { ops: ["intersects", "distance", "contact", "manifold"] };

const unitQ = (q: number[]) => q.map((x) => x / Math.hypot(...q));

const KINDS = ["box", "roundedBox", "convex", "roundedConvex"] as const;

/**
 * One generated pair: A (kind `ka`, size 2^e) about the origin, B (kind `kb`, size 2^(e + ratio))
 * about `at` times reach/10 of A's size, checked against the oracle and replayed through the
 * fuzzer's checks at the offset.
 */
const checkGenerated = (
  e: number,
  ratio: number,
  ka: string,
  kb: string,
  at: V,
  [ha, hb]: [V, V],
  [ra, rb]: [number, number],
  pts: V[],
  [reach, [ou, om]]: [number, [number[], number]],
): void => {
  if (!ka.startsWith("rounded") && !kb.startsWith("rounded")) kb = "roundedBox";
  const s = 2 ** e;
  const bs = s * 2 ** ratio;
  // A about the origin, sized s; B about a point at up to 3 s from it, sized bs.
  const c = at.map((x) => (x * reach * s) / 10) as V;
  const make = (k: string, size: number, h: V, r: number, centre: V, q: number[]): J =>
    k === "box" || k === "roundedBox"
      ? {
          type: k,
          center: centre,
          halfExtents: h.map((x) => (0.5 + 0.5 * Math.abs(x)) * size),
          rotation: unitQ(q),
          ...(k === "roundedBox" ? { radius: r * size } : {}),
        }
      : {
          type: k,
          points: [
            ...pts.map((p) => p.map((x, i) => centre[i] + x * size)),
            [size, size, size],
            [-size, -size, size],
            [-size, size, -size],
            [size, -size, -size],
          ].map((p, i) => (i >= pts.length ? p.map((x, j) => centre[j] + x) : p)),
          ...(k === "roundedConvex" ? { radius: r * size } : {}),
        };
  const a = make(ka, s, ha, ra, [0, 0, 0], [0.3, -0.5, 0.1, 0.8]);
  const b = make(kb, bs, hb, rb, c, [-0.2, 0.4, 0.7, 0.5]);
  expectOracle(a, b, 1e-9 * Math.max(s, bs, norm(c)));
  const name = (k: string) => (k === "box" ? 0 : k === "convex" ? 1 : k === "roundedBox" ? 2 : 3);
  const pair = name(ka) <= name(kb) ? `${ka}-${kb}` : `${kb}-${ka}`;
  const off = exactOffset(ou, Math.min(1e9, om * Math.max(s, bs) * 1e4));
  expectPassesBothOrders(a, b, off, pair, OPS);
};

describe("rounded boxes and hulls against each other and against boxes and hulls (issue 16)", () => {
  // The first version of the fix, at seed 72 (10^5 queries, --types roundedBox,roundedConvex,box,
  // convex,sphere,capsule): exactly touching rounded boxes whose cores' gap rounded one ulp above
  // the radii (intersects false). Now a gap within the rounding of the pair's coordinates touches.
  replayCases(loadCases("./rounded-polytope.cases.json"), 3);

  it("a rounded box of 1e-4 deep in one of 178 at 2.4e7: depth = the cores' least overlap + radii", () => {
    const big: J = {
      type: "roundedBox",
      center: [0, 0, 0],
      halfExtents: [178, 61, 95],
      radius: 3.5,
      rotation: unitQ([0.3, -0.5, 0.1, 0.8]),
    };
    const small: J = {
      type: "roundedBox",
      center: [12.5, -7.25, 40.125],
      halfExtents: [1e-4, 6e-5, 8e-5],
      radius: 2e-5,
      rotation: unitQ([-0.2, 0.4, 0.7, 0.5]),
    };
    expectOracle(big, small, 1e-9 * 200);
    expectPassesBothOrders(
      big,
      small,
      exactOffset([0.6, -0.8, 0], 2.4e7),
      "roundedBox-roundedBox",
      OPS,
    );
  });

  it("a small rounded hull deep in a rounded box", () => {
    const box: J = {
      type: "roundedBox",
      center: [0, 0, 0],
      halfExtents: [5.6e-4, 2.5e-4, 2.5e-4],
      radius: 8e-6,
      rotation: unitQ([-0.105, -0.55, 0.644, -0.521]),
    };
    const hull: J = {
      type: "roundedConvex",
      points: [
        [1e-4, 2e-5, 0],
        [1.2e-4, 2.1e-5, 1e-6],
        [1.1e-4, 3e-5, -2e-6],
        [1.05e-4, 2.4e-5, 8e-6],
      ],
      radius: 3e-7,
    };
    expectOracle(box, hull, 1e-9 * 6e-4);
    expectPassesBothOrders(box, hull, [0, 0, 0], "roundedBox-roundedConvex", OPS);
  });

  it("found by the property against main: a rounded box of 1e-6 in a rounded hull of 0.06 (was 2.5e-8 too deep)", () => {
    checkGenerated(
      -20,
      16,
      "roundedBox",
      "roundedConvex",
      [0.7548828125, 0.1787109375, -0.5615234375],
      [
        [0.6298828125, 0.4091796875, -0.34375],
        [0.0048828125, -0.9970703125, -0.0068359375],
      ],
      [0.884, 0.998],
      [
        [-0.6103515625, 0.3251953125, 0.921875],
        [0.470703125, -0.4365234375, -0.611328125],
        [0.2998046875, -0.1787109375, -0.9873046875],
        [-0.21484375, 0.6455078125, -0.1875],
      ],
      [5, [[-1, -1.0376887129097522e-107, -9e-323], 0]],
    );
  });

  it("property: signed distance = the cores' + radii; sizes 2^-20..2^20, ratios to 2^±20, offsets to 1e9", () => {
    const unit = fc.integer({ min: -1024, max: 1024 }).map((k) => k / 1024);
    const p3 = fc.tuple(unit, unit, unit);
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -20, max: 20 }),
        fc.constantFrom(...KINDS),
        fc.constantFrom(...KINDS),
        p3,
        fc.tuple(p3, p3),
        fc.tuple(
          fc.integer({ min: 1, max: 1000 }).map((k) => k / 1000),
          fc.integer({ min: 1, max: 1000 }).map((k) => k / 1000),
        ),
        fc.array(p3, { minLength: 4, maxLength: 8 }),
        fc.tuple(fc.integer({ min: 1, max: 30 }), offsetArb),
        checkGenerated,
      ),
      { numRuns: 150 },
    );
  });
});
