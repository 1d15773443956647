/**
 * `projectPoint` from far away (issue 16, fresh39b's finding A): beyond about 1e16 times the
 * shape's size the returned point was a corner, not the nearest point of the nearest edge or
 * face (the distance was right); from 1e3 sizes on it drifted by ε·distance. The oracle is
 * independent of src/geometry/exact-nearest.ts: every double is turned into a rational by
 * doubling until it is an integer, and the nearest point is the nearest of all candidates —
 * corners, each edge's clamped foot, each face's foot when it lies inside the face (by the signs
 * of exact cross products) — compared by exact squared distances (no Voronoi walk).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makePolygon } from "../../src/dim2/shapes.js";
import * as api from "../../src/index.js";

type R = { n: bigint; d: bigint };
type RV = [R, R, R];

function rat(x: number): R {
  let e = 0n;
  let v = x;
  while (!Number.isInteger(v)) {
    v *= 2;
    e++;
  }
  return { n: BigInt(v), d: 1n << e };
}
const add = (a: R, b: R): R => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
const sub = (a: R, b: R): R => ({ n: a.n * b.d - b.n * a.d, d: a.d * b.d });
const mul = (a: R, b: R): R => ({ n: a.n * b.n, d: a.d * b.d });
const div = (a: R, b: R): R =>
  b.n < 0n ? { n: -a.n * b.d, d: a.d * -b.n } : { n: a.n * b.d, d: a.d * b.n };
const cmp = (a: R, b: R): number => {
  const x = a.n * b.d - b.n * a.d;
  return x < 0n ? -1 : x > 0n ? 1 : 0;
};
const ZERO: R = { n: 0n, d: 1n };
const ONE: R = { n: 1n, d: 1n };
const vr = (p: api.Vec3): RV => [rat(p.x), rat(p.y), rat(p.z)];
const vsub = (a: RV, b: RV): RV => [sub(a[0], b[0]), sub(a[1], b[1]), sub(a[2], b[2])];
const vadd = (a: RV, b: RV): RV => [add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2])];
const vscale = (a: RV, s: R): RV => [mul(a[0], s), mul(a[1], s), mul(a[2], s)];
const vdot = (a: RV, b: RV): R => add(add(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2]));
const vcross = (a: RV, b: RV): RV => [
  sub(mul(a[1], b[2]), mul(a[2], b[1])),
  sub(mul(a[2], b[0]), mul(a[0], b[2])),
  sub(mul(a[0], b[1]), mul(a[1], b[0])),
];

/** A positive rational as a double (60 bits, then scaled; enough for these checks). */
function toNum(r: R): number {
  if (r.n === 0n) return 0;
  const neg = r.n < 0n !== r.d < 0n;
  const n = r.n < 0n ? -r.n : r.n;
  const d = r.d < 0n ? -r.d : r.d;
  const s = 64 - (n.toString(2).length - d.toString(2).length);
  const q = s >= 0 ? (n << BigInt(s)) / d : n / (d << BigInt(-s));
  let v = Number(q);
  let k = -s;
  while (k > 1000) {
    v *= 2 ** 1000;
    k -= 1000;
  }
  while (k < -1000) {
    v *= 2 ** -1000;
    k += 1000;
  }
  v *= 2 ** k;
  return neg ? -v : v;
}

function segFoot(a: RV, b: RV, p: RV): RV {
  const e = vsub(b, a);
  const ee = vdot(e, e);
  if (ee.n === 0n) return a;
  let t = div(vdot(vsub(p, a), e), ee);
  if (cmp(t, ZERO) < 0) t = ZERO;
  if (cmp(t, ONE) > 0) t = ONE;
  return vadd(a, vscale(e, t));
}

/** The candidates of triangle abc for p: corners, edges' feet, the face's foot if inside. */
function triangleCandidates(a: RV, b: RV, c: RV, p: RV, out: RV[]): void {
  out.push(a, b, c, segFoot(a, b, p), segFoot(b, c, p), segFoot(c, a, p));
  const n = vcross(vsub(b, a), vsub(c, a));
  const nn = vdot(n, n);
  if (nn.n === 0n) return;
  const f = vsub(p, vscale(n, div(vdot(vsub(p, a), n), nn)));
  const s1 = vdot(vcross(vsub(b, a), vsub(f, a)), n).n;
  const s2 = vdot(vcross(vsub(c, b), vsub(f, b)), n).n;
  const s3 = vdot(vcross(vsub(a, c), vsub(f, c)), n).n;
  if (s1 >= 0n && s2 >= 0n && s3 >= 0n) out.push(f);
}

function nearest(cands: RV[], p: RV): { point: RV; sq: R } {
  let best = cands[0];
  let bestSq = vdot(vsub(p, best), vsub(p, best));
  for (const c of cands) {
    const sq = vdot(vsub(p, c), vsub(p, c));
    if (cmp(sq, bestSq) < 0) {
      best = c;
      bestSq = sq;
    }
  }
  return { point: best, sq: bestSq };
}

const ID = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };

/** Asserts the answer against the exact nearest point (few ulps of `scale`) and distance. */
function expectExact(
  got: { point: api.Vec3; distance: number },
  exact: { point: RV; sq: R },
  scale: number,
): void {
  const tol = 4 * Number.EPSILON * scale;
  const ex = exact.point.map(toNum);
  expect(Math.abs(got.point.x - ex[0])).toBeLessThanOrEqual(tol);
  expect(Math.abs(got.point.y - ex[1])).toBeLessThanOrEqual(tol);
  expect(Math.abs(got.point.z - ex[2])).toBeLessThanOrEqual(tol);
  const d = Math.sqrt(toNum(exact.sq));
  expect(Math.abs(got.distance - d)).toBeLessThanOrEqual(1e-15 * d + tol);
}

function maxCoord(ps: api.Vec3[]): number {
  return Math.max(...ps.map((p) => Math.max(Math.abs(p.x), Math.abs(p.y), Math.abs(p.z))));
}

describe("projectPoint far from a small polytope: the exact nearest point", () => {
  it("fresh39b's repros: a unit triangle (3D, 2D) and a tetrahedron from (D, D) give the edge's midpoint", () => {
    for (const D of [1e16, 1e20, 1e38, 1e100, 1e300]) {
      const tri = api.makeTriangle(
        { x: 0, y: 0, z: 0 },
        { x: 1, y: 0, z: 0 },
        { x: 0, y: 1, z: 0 },
      );
      const r = api.projectPoint(tri, ID, { x: D, y: D, z: 0 });
      expect([r.point.x, r.point.y, r.point.z]).toEqual([0.5, 0.5, 0]);
      const tet = api.makeConvexPolyhedron(Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]));
      const h = api.projectPoint(tet, ID, { x: D, y: D, z: 0 });
      expect([h.point.x, h.point.y, h.point.z]).toEqual([0.5, 0.5, 0]);
      const poly = makePolygon([
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 0, y: 1 },
      ]);
      const q = api.dim2.projectPoint2D(
        poly,
        { p: { x: 0, y: 0 }, q: { c: 1, s: 0 } },
        { x: D, y: D },
      );
      expect([q.point.x, q.point.y]).toEqual([0.5, 0.5]);
    }
  });

  it("a tetrahedron seen from (D + 0.1, D − 0.05, D − 0.05) lands on the exact foot on its slanted face", () => {
    const tet = api.makeConvexPolyhedron(Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]));
    for (const D of [1e3, 1e8, 1e12, 1e15]) {
      const p = { x: D + 0.1, y: D - 0.05, z: D - 0.05 };
      const pr = vr(p);
      const c: RV[] = [];
      const v = [
        vr({ x: 0, y: 0, z: 0 }),
        vr({ x: 1, y: 0, z: 0 }),
        vr({ x: 0, y: 1, z: 0 }),
        vr({ x: 0, y: 0, z: 1 }),
      ];
      for (const [i, j, k] of [
        [0, 1, 2],
        [0, 1, 3],
        [0, 2, 3],
        [1, 2, 3],
      ])
        triangleCandidates(v[i], v[j], v[k], pr, c);
      expectExact(api.projectPoint(tet, ID, p), nearest(c, pr), 1);
    }
  });

  it("a capsule's core seen from (D, D, 0) off its slanted axis: the core's midpoint", () => {
    const cap = api.makeCapsule({ x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }, 0.25);
    for (const D of [1e16, 1e20, 1e100, 1e300]) {
      const r = api.projectPoint(cap, ID, { x: D, y: D, z: 0 });
      // Core foot t = ((D − 1)(−1) + D)/2 = 1/2: (0.5, 0.5, 0), then 0.25 along (1, 1)/√2.
      expect(r.point.x).toBeCloseTo(0.5 + 0.25 / Math.SQRT2, 15);
      expect(r.point.y).toBeCloseTo(0.5 + 0.25 / Math.SQRT2, 15);
      expect(r.point.z).toBe(0);
    }
  });

  it("a box (identity pose) from far off an edge: the clamp, exact", () => {
    const box = api.makeCuboid({ x: 1, y: 1, z: 1 });
    const r = api.projectPoint(box, ID, { x: 1e300, y: 1e300, z: 0.3 });
    expect([r.point.x, r.point.y, r.point.z]).toEqual([1, 1, 0.3]);
  });

  const logSize = fc.double({ min: -6, max: 6, noNaN: true });
  const logFar = fc.double({ min: 0, max: 300, noNaN: true });
  const corner = fc.tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  );
  const offset = fc.constantFrom(0, 1, 1e3, 1e9);
  /** The query direction: a face normal, an edge's outward normal (in the plane), or between. */
  const dirKind = fc.constantFrom(0, 1, 2, 3);

  function queryPoint(v: api.Vec3[], kind: number, far: number, jitter: number): api.Vec3 {
    const [a, b, c] = v;
    const u = { x: b.x - a.x, y: b.y - a.y, z: b.z - a.z };
    const w = { x: c.x - a.x, y: c.y - a.y, z: c.z - a.z };
    const n = { x: u.y * w.z - u.z * w.y, y: u.z * w.x - u.x * w.z, z: u.x * w.y - u.y * w.x };
    // The in-plane normal of edge ab (pointing away from c): (u × n).
    const m = { x: u.y * n.z - u.z * n.y, y: u.z * n.x - u.x * n.z, z: u.x * n.y - u.y * n.x };
    const d =
      kind === 0
        ? n
        : kind === 1
          ? m
          : kind === 2
            ? { x: n.x + m.x, y: n.y + m.y, z: n.z + m.z }
            : { x: m.x - u.x * jitter, y: m.y - u.y * jitter, z: m.z - u.z * jitter };
    const len = Math.hypot(d.x, d.y, d.z);
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, z: (a.z + b.z) / 2 };
    return {
      x: mid.x + (d.x / len) * far,
      y: mid.y + (d.y / len) * far,
      z: mid.z + (d.z / len) * far,
    };
  }

  it("property: triangles of size 1e-6..1e6 (at offsets 0..1e9) seen from up to 1e300 sizes off a face, an edge or between", () => {
    fc.assert(
      fc.property(
        logSize,
        logFar,
        corner,
        corner,
        corner,
        offset,
        dirKind,
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        (ls, lf, c0, c1, c2, off, kind, jit) => {
          const s = 10 ** ls;
          const v = [c0, c1, c2].map(([x, y, z]) => ({ x: off + x * s, y: y * s, z: z * s }));
          const ext = Math.max(
            ...[v[1], v[2]].map((p) =>
              Math.max(Math.abs(p.x - v[0].x), Math.abs(p.y - v[0].y), Math.abs(p.z - v[0].z)),
            ),
          );
          fc.pre(ext > 1e-3 * s);
          const far = s * 10 ** lf;
          const p = queryPoint(v, kind, far, jit);
          fc.pre(Number.isFinite(p.x) && Number.isFinite(p.y) && Number.isFinite(p.z));
          const tri = api.makeTriangle(v[0], v[1], v[2]);
          const got = api.projectPoint(tri, ID, p);
          const pr = vr(p);
          const c: RV[] = [];
          triangleCandidates(vr(v[0]), vr(v[1]), vr(v[2]), pr, c);
          const ex = nearest(c, pr);
          fc.pre(toNum(ex.sq) > 0);
          if (got.inside) {
            // "On" within the documented rounding bar (1e-13 of the point's and the corners'
            // coordinates): a point 1e-6 beside a needle at 1e9 counts as on it.
            expect(Math.sqrt(toNum(ex.sq))).toBeLessThanOrEqual(4e-13 * maxCoord([...v, p]));
            return;
          }
          expectExact(got, ex, maxCoord(v));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("property: tetrahedra (convex hulls) of size 1e-6..1e6 near the origin seen from up to 1e300 sizes", () => {
    fc.assert(
      fc.property(
        logSize,
        logFar,
        corner,
        corner,
        corner,
        corner,
        dirKind,
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        (ls, lf, c0, c1, c2, c3, kind, jit) => {
          const s = 10 ** ls;
          const v = [c0, c1, c2, c3].map(([x, y, z]) => ({ x: x * s, y: y * s, z: z * s }));
          let hull: api.ConvexPolyhedron;
          try {
            hull = api.makeConvexPolyhedron(Float64Array.from(v.flatMap((p) => [p.x, p.y, p.z])));
          } catch {
            fc.pre(false);
            return;
          }
          fc.pre(!hull.flat && hull.faceCount === 4);
          // Orient the query by a face of the hull (its first face's corners, counter-clockwise).
          const hv = hull.vertices;
          const fv = hull.faceVertices;
          const corners = [0, 1, 2].map((i) => ({
            x: hv[3 * fv[i]],
            y: hv[3 * fv[i] + 1],
            z: hv[3 * fv[i] + 2],
          }));
          const far = s * 10 ** lf;
          const p = queryPoint(corners, kind, far, jit);
          fc.pre(Number.isFinite(p.x) && Number.isFinite(p.y) && Number.isFinite(p.z));
          const got = api.projectPoint(hull, ID, p);
          const pr = vr(p);
          const c: RV[] = [];
          const fo = hull.faceOffsets;
          for (let f = 0; f + 1 < fo.length; f++) {
            const a = vr({
              x: hv[3 * fv[fo[f]]],
              y: hv[3 * fv[fo[f]] + 1],
              z: hv[3 * fv[fo[f]] + 2],
            });
            for (let k = fo[f] + 1; k + 1 < fo[f + 1]; k++) {
              const b = vr({ x: hv[3 * fv[k]], y: hv[3 * fv[k] + 1], z: hv[3 * fv[k] + 2] });
              const cc = vr({
                x: hv[3 * fv[k + 1]],
                y: hv[3 * fv[k + 1] + 1],
                z: hv[3 * fv[k + 1] + 2],
              });
              triangleCandidates(a, b, cc, pr, c);
            }
          }
          const ex = nearest(c, pr);
          fc.pre(!got.inside && toNum(ex.sq) > 0);
          expectExact(got, ex, maxCoord(v));
        },
      ),
      { numRuns: 30 },
    );
  });

  it("property: 2D polygons (triangles) of size 1e-6..1e6 seen from up to 1e300 sizes off an edge", () => {
    fc.assert(
      fc.property(
        logSize,
        logFar,
        corner,
        corner,
        corner,
        fc.constantFrom(0, 1, 2),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        (ls, lf, c0, c1, c2, edge, jit) => {
          const s = 10 ** ls;
          const v = [c0, c1, c2].map(([x, y]) => ({ x: x * s, y: y * s }));
          const cross =
            (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x);
          fc.pre(Math.abs(cross) > 1e-3 * s * s);
          let poly: ReturnType<typeof makePolygon>;
          try {
            poly = makePolygon(v);
          } catch {
            fc.pre(false);
            return;
          }
          // Off edge `edge`'s midpoint along its outward normal, tilted along it by `jit`.
          const a = v[edge];
          const b = v[(edge + 1) % 3];
          const c = v[(edge + 2) % 3];
          let nx = b.y - a.y;
          let ny = a.x - b.x;
          const mx = (a.x + b.x) / 2;
          const my = (a.y + b.y) / 2;
          if (nx * (c.x - mx) + ny * (c.y - my) > 0) {
            nx = -nx;
            ny = -ny;
          }
          const dx = nx + jit * (b.x - a.x);
          const dy = ny + jit * (b.y - a.y);
          const len = Math.hypot(dx, dy);
          const far = s * 10 ** lf;
          const p = { x: mx + (dx / len) * far, y: my + (dy / len) * far };
          fc.pre(Number.isFinite(p.x) && Number.isFinite(p.y));
          const got = api.dim2.projectPoint2D(poly, { p: { x: 0, y: 0 }, q: { c: 1, s: 0 } }, p);
          const pr = vr({ x: p.x, y: p.y, z: 0 });
          const vs = v.map((q) => vr({ x: q.x, y: q.y, z: 0 }));
          const ex = nearest(
            [segFoot(vs[0], vs[1], pr), segFoot(vs[1], vs[2], pr), segFoot(vs[2], vs[0], pr)],
            pr,
          );
          fc.pre(!got.inside && toNum(ex.sq) > 0);
          expectExact(
            { point: { x: got.point.x, y: got.point.y, z: 0 }, distance: got.distance },
            ex,
            maxCoord(v.map((q) => ({ x: q.x, y: q.y, z: 0 }))),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
