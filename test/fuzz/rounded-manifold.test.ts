/**
 * Regression of issue 16, session 23's outside attack F3 (main 55602dc): manifold points of
 * rounded shapes off their surfaces. A rounded shape's manifold was its core's, every point
 * pushed out by the radius along the contact normal — on the rounded surface only where the
 * normal is the core's own normal at that point. A box resting on a rounded box's rounded edge
 * (the normal between two core faces) had two of four pointB on the core's bottom face moved
 * along the tilted normal, 1.365 and 1.354 inside the rounded box (bar ≈ 3.5e-6), their
 * distances not the separation there; in random pairs 955 of 2598 points of rounded hulls were
 * off by more than 1e-6. Fixed in src/narrowphase/manifold.ts (`roundedExit`): each core point
 * is moved along the normal to where that line leaves the rounded shape (the radius exactly
 * where the core point supports the normal), its distance the separation along the normal.
 *
 * The oracle is independent of the library: the signed distance to a box in closed form, to a
 * hull the fuzzer's (test/fuzz/oracle-shapes.ts), and to a rounded shape its core's less the
 * radius. The recorded line, and a fast-check property over box / hull / rounded box / rounded
 * hull pairs at sizes 1e-6..1e6 and offsets to 1e9, check every manifold point on both surfaces,
 * its distance (pointB − pointA)·normal and no point deeper than the contact (docs/FORMATS.md,
 * `manifold`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { unitQuatArrayOf } from "./arbitraries.js";
import { dot, oshape, sub, unrotate, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;
const EPS = 2 ** -52;

/** Signed distance from world point p to the solid box of centre c, half extents h, rotation q. */
function boxSigned(p: V, c: V, h: V, q: number[] | undefined): number {
  const l = unrotate(q, sub(p, c));
  const d = l.map((x, i) => Math.abs(x) - h[i]) as V;
  const out = Math.hypot(...d.map((x) => Math.max(x, 0)));
  return out > 0 ? out : Math.max(...d);
}

/** Signed distance from world point p to shape j (box, convex, roundedBox, roundedConvex). */
function signed(j: J, p: V): number {
  const r = (j.radius as number | undefined) ?? 0;
  if (j.type === "box" || j.type === "roundedBox") {
    return boxSigned(p, j.center as V, j.halfExtents as V, j.rotation as number[]) - r;
  }
  const core = { type: "convex", points: j.points, position: j.position, rotation: j.rotation };
  return oshape(core).pieces[0].signed(p) - r;
}

/** Largest coordinate magnitude of a shape's JSON (its position fields and sizes). */
function magnitude(j: J): number {
  let m = 0;
  for (const k of ["center", "position", "halfExtents"]) {
    if (j[k]) for (const x of j[k] as number[]) m = Math.max(m, Math.abs(x));
  }
  if (j.points) for (const p of j.points as V[]) for (const x of p) m = Math.max(m, Math.abs(x));
  return m + ((j.radius as number | undefined) ?? 0);
}

/**
 * Every point of the manifold of a and b on both surfaces within `tol`, its distance
 * (pB − pA)·n and not deeper than the contact; returns the number of points.
 */
function checkManifold(a: J, b: J, tol: number): number {
  const m = answerQuery({ op: "manifold", a, b }) as {
    normal: V;
    points: { pointA: V; pointB: V; distance: number }[];
  } | null;
  const c = answerQuery({ op: "contact", a, b }) as { distance: number } | null;
  expect(m === null).toBe(c === null);
  if (m === null || c === null) return 0;
  for (const p of m.points) {
    expect(Math.abs(signed(a, p.pointA))).toBeLessThanOrEqual(tol);
    expect(Math.abs(signed(b, p.pointB))).toBeLessThanOrEqual(tol);
    expect(Math.abs(dot(sub(p.pointB, p.pointA), m.normal) - p.distance)).toBeLessThanOrEqual(tol);
    expect(p.distance).toBeGreaterThanOrEqual(c.distance - tol);
  }
  return m.points.length;
}

describe("manifold points of rounded shapes lie on their surfaces (attack 23, F3)", () => {
  it("a box on a rounded box's edge: every pointB on the rounded box", () => {
    const a: J = {
      type: "box",
      center: [-460.82936096191406, -449.0195846557617, -121.01388168334961],
      halfExtents: [3.4119529724121094, 4.558055877685547, 6.1216278076171875],
      rotation: [
        -0.07112207287489476, -0.6931530815732533, -0.2891372989223085, -0.6564145630829594,
      ],
    };
    const b: J = {
      type: "roundedBox",
      center: [-475.1719665527344, -467.50276947021484, -88.45884323120117],
      halfExtents: [15.557716369628906, 12.724571228027344, 23.996047973632812],
      radius: 9.559120178222656,
    };
    // Before: two pointB 1.365 and 1.354 inside B; distances −0.198 and −0.387.
    const tol = 1e-9 * 10 + 64 * EPS * 500;
    expect(checkManifold(a, b, tol)).toBeGreaterThanOrEqual(2);
    expect(checkManifold(b, a, tol)).toBeGreaterThanOrEqual(2);
  });

  const kinds = ["box", "convex", "roundedBox", "roundedConvex"] as const;

  /** Shape of kind k, size s, at world point c with rotation q (sizes and hull jitter u). */
  function shapeOf(k: string, s: number, c: V, q: number[], u: number[], rr: number): J {
    const h = [0, 1, 2].map((i) => s * (0.3 + 0.7 * Math.abs(u[i]))) as V;
    const r = s * rr;
    if (k === "box") return { type: "box", center: c, halfExtents: h, rotation: q };
    if (k === "roundedBox")
      return { type: "roundedBox", center: c, halfExtents: h, radius: r, rotation: q };
    const points: V[] = [];
    for (let i = 0; i < 8; i++) {
      points.push(
        [0, 1, 2].map(
          (j) => h[j] * (i & (1 << j) ? 1 : -1) * (1 + 0.3 * u[(3 * i + j) % u.length]),
        ) as V,
      );
    }
    if (k === "convex") return { type: "convex", points, position: c, rotation: q };
    return { type: "roundedConvex", points, radius: r, position: c, rotation: q };
  }

  it("property: box / hull / rounded pairs, every point on both surfaces (sizes 1e-6..1e6, offsets to 1e9)", () => {
    // Uniform on a grid of 2^-20 (fast-check's doubles favour 0, ±1 and tiny values).
    const unitArb = fc
      .noBias(fc.integer({ min: -(2 ** 20), max: 2 ** 20 }))
      .map((k) => k / 2 ** 20);
    const rotationArb = unitQuatArrayOf(unitArb);
    let points = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.constantFrom("roundedBox", "roundedConvex"),
        fc.boolean(),
        fc.integer({ min: -6, max: 6 }),
        fc.integer({ min: 0, max: 9 }),
        fc.tuple(unitArb, unitArb, unitArb),
        fc.tuple(unitArb, unitArb, unitArb),
        rotationArb,
        rotationArb,
        fc.array(unitArb, { minLength: 24, maxLength: 24 }),
        unitArb.map((x) => 0.31 + 0.3 * x),
        unitArb.map((x) => 0.95 + 0.65 * x),
        (ka, kb, swap, e, eo, dir, off, qa, qb, u, rr, reach) => {
          const s = 10 ** e;
          const o = off.map((x) => x * 10 ** eo) as V;
          const l = Math.hypot(...dir) || 1;
          const cb = o.map((x, i) => x + (dir[i] / l) * s * 2 * reach) as V;
          const a = shapeOf(ka, s, o, qa, u, rr);
          const b = shapeOf(kb, s, cb, qb, u.slice(3), rr);
          const L = Math.max(magnitude(a), magnitude(b));
          const tol = 1e-9 * s + 64 * EPS * L;
          points += swap ? checkManifold(b, a, tol) : checkManifold(a, b, tol);
        },
      ),
      { numRuns: 400 },
    );
    // Most draws overlap, with several points each.
    expect(points).toBeGreaterThan(600);
  });
});
