/**
 * A rounded point — a sphere's centre, a rounded box's or hull's core vertex — exactly its radius
 * from a tilted face is touching (issue 16; fresh43 findings 01, 02, 06): intersects true,
 * distance 0, contact at distance 0, in both orders, for a bare triangle, a one-triangle mesh, a
 * heightfield, a convex hull's face; one ulp less radius is apart, one ulp more overlaps. The
 * oracle is exact: every input is a dyadic double, the touch is built from an integer normal of
 * integer length (Pythagorean quadruples) and a foot inside the face by dyadic barycentrics, and
 * a BigInt computation of d² − r²|n|² (the point's squared distance to the plane against the
 * squared radius, over |n|²) with the foot's containment confirms each case.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  footInTriangleIo,
  PLANE_GAP_UNDECIDED,
  planeGapIo,
  planeGapSignIo,
} from "../../src/geometry/exact-predicates.js";
import {
  contact,
  distance,
  intersects,
  makeConvexPolyhedron,
  makeCuboid,
  makeRoundedConvexPolyhedron,
  makeRoundedCuboid,
  makeSphere,
  makeTriangle,
  makeTriangleMesh,
  type Shape,
} from "../../src/index.js";
import { planeField } from "../support/field-mesh.js";
import { at } from "../support/pose.js";
import { nextDown, nextUp } from "../support/ulp.js";

type V = { x: number; y: number; z: number };
const O = at({ x: 0, y: 0, z: 0 });

/** x as an integer numerator over 2^1200 (exact for every double used here). */
function big(x: number): bigint {
  if (x === 0) return 0n;
  let m = x;
  let e = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  return BigInt(m) * (1n << BigInt(1200 - e));
}
type B3 = [bigint, bigint, bigint];
const b3 = (v: V): B3 => [big(v.x), big(v.y), big(v.z)];
const sub = (p: B3, q: B3): B3 => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
const cross = (p: B3, q: B3): B3 => [
  p[1] * q[2] - p[2] * q[1],
  p[2] * q[0] - p[0] * q[2],
  p[0] * q[1] - p[1] * q[0],
];
const dot = (p: B3, q: B3): bigint => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];

/**
 * The exact oracle: the sign of dist(p, plane(a, b, c)) − r (p = p1 + p2) and whether the foot
 * lies in the closed triangle, in BigInt.
 */
function oracle(p1: V, p2: V, a: V, b: V, c: V, r1: number, r2: number) {
  const P: B3 = [big(p1.x) + big(p2.x), big(p1.y) + big(p2.y), big(p1.z) + big(p2.z)];
  const A = b3(a);
  const B = b3(b);
  const C = b3(c);
  const n = cross(sub(B, A), sub(C, A));
  const d = dot(n, sub(P, A));
  const r = big(r1) + big(r2);
  const g = d * d - r * r * dot(n, n);
  const inside = [
    [A, B],
    [B, C],
    [C, A],
  ].every(([u, w]) => dot(cross(sub(w, u), sub(P, u)), n) >= 0n);
  return { sign: g > 0n ? 1 : g < 0n ? -1 : 0, inside };
}

/** Integer normals of integer length (Pythagorean quadruples), by length. */
const QUADRUPLES: [number, number, number, number][] = [
  [1, 4, 8, 9],
  [2, 3, 6, 7],
  [1, 2, 2, 3],
  [2, 6, 9, 11],
  [4, 4, 7, 9],
  [3, 4, 12, 13],
  [2, 10, 11, 15],
  [6, 6, 7, 11],
  [3, 4, 0, 5],
  [5, 12, 0, 13],
  [1, 12, 12, 17],
  [8, 9, 12, 17],
];

/** One exact touch: a triangle (a, b, c), its foot f, the point p = f + k·n at radius k·|n|. */
interface Touch {
  a: V;
  b: V;
  c: V;
  p: V;
  r: number;
  n: V;
  len: number;
  k: number;
}

const PERMS = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
];

/**
 * The touch of the parameters, or null when a coordinate would not be exact (then the case is
 * skipped): normal `q` permuted and signed, in-plane integer vectors u = n × e, w = n × u, corners
 * origin + s·(x u + y w) for (x, y) = (−i, −j), (i2, −j2), (0, j3) (the origin strictly inside),
 * the foot at the origin (barycentrics from the corners: the point s·0 + origin), the point at
 * origin + k·n.
 */
function buildTouch(
  qi: number,
  perm: number,
  signs: number,
  ij: [number, number, number, number, number],
  s: number,
  k: number,
  origin: V,
  shift: [number, number],
): Touch | null {
  const q = QUADRUPLES[qi];
  const pr = PERMS[perm];
  const raw = [q[pr[0]], q[pr[1]], q[pr[2]]].map((x, i) => (signs & (1 << i) ? -x : x));
  const n = { x: raw[0], y: raw[1], z: raw[2] };
  const len = q[3];
  // u = n × e (e the axis of n's smallest magnitude), w = n × u: both integer, in the plane.
  const ax = [Math.abs(n.x), Math.abs(n.y), Math.abs(n.z)];
  const m = ax.indexOf(Math.min(...ax));
  const e = { x: m === 0 ? 1 : 0, y: m === 1 ? 1 : 0, z: m === 2 ? 1 : 0 };
  const cr = (p: V, w: V): V => ({
    x: p.y * w.z - p.z * w.y,
    y: p.z * w.x - p.x * w.z,
    z: p.x * w.y - p.y * w.x,
  });
  const u = cr(n, e);
  const w = cr(n, u);
  const [i1, j1, i2, j2, j3] = ij;
  // The foot off the corners' centre: the corners shifted by −(sx u + sy w)·s keep it inside
  // when the shift is small against the corners' own offsets (|shift| < 1).
  const corner = (x: number, y: number): V => ({
    x: origin.x + s * (x * u.x + y * w.x),
    y: origin.y + s * (x * u.y + y * w.y),
    z: origin.z + s * (x * u.z + y * w.z),
  });
  const a = corner(-i1 + shift[0], -j1 + shift[1]);
  const b = corner(i2 + shift[0], -j2 + shift[1]);
  const c = corner(shift[0], j3 + shift[1]);
  const p = { x: origin.x + k * n.x, y: origin.y + k * n.y, z: origin.z + k * n.z };
  const r = k * len;
  // Exactness: every corner's offset from the origin and the point's, recovered exactly.
  const exact = (pt: V, ex: V) =>
    pt.x - origin.x === ex.x && pt.y - origin.y === ex.y && pt.z - origin.z === ex.z;
  const off = (x: number, y: number): V => ({
    x: s * (x * u.x + y * w.x),
    y: s * (x * u.y + y * w.y),
    z: s * (x * u.z + y * w.z),
  });
  if (!exact(a, off(-i1 + shift[0], -j1 + shift[1]))) return null;
  if (!exact(b, off(i2 + shift[0], -j2 + shift[1]))) return null;
  if (!exact(c, off(shift[0], j3 + shift[1]))) return null;
  if (!exact(p, { x: k * n.x, y: k * n.y, z: k * n.z })) return null;
  return { a, b, c, p, r, n, len, k };
}

/** Touching, overlapping or apart, as every query reports it, in both orders. */
function expectAnswer(A: Shape, pa: ReturnType<typeof at>, B: Shape, pb: typeof pa, want: number) {
  const hit = want <= 0;
  expect(intersects(A, pa, B, pb)).toBe(hit);
  expect(intersects(B, pb, A, pa)).toBe(hit);
  const d1 = distance(A, pa, B, pb).distance;
  const d2 = distance(B, pb, A, pa).distance;
  if (hit) {
    expect(d1).toBe(0);
    expect(d2).toBe(0);
  } else {
    expect(d1).toBeGreaterThan(0);
    expect(d2).toBeGreaterThan(0);
  }
  const c1 = contact(A, pa, B, pb);
  const c2 = contact(B, pb, A, pa);
  if (hit) {
    expect(c1).not.toBeNull();
    expect(c2).not.toBeNull();
    if (want === 0) {
      expect(c1?.distance).toBe(0);
      expect(c2?.distance).toBe(0);
    } else {
      expect(c1?.distance).toBeLessThanOrEqual(0);
      expect(c2?.distance).toBeLessThanOrEqual(0);
    }
  } else {
    expect(c1).toBeNull();
    expect(c2).toBeNull();
  }
}

describe("planeGapSignIo, footInTriangleIo against BigInt", () => {
  const dyadic = fc
    .tuple(fc.integer({ min: -4096, max: 4096 }), fc.integer({ min: -30, max: 30 }))
    .map(([m, e]) => m * 2 ** e);
  const vec = fc.record({ x: dyadic, y: dyadic, z: dyadic });
  const radius = fc
    .tuple(fc.integer({ min: 0, max: 4096 }), fc.integer({ min: -30, max: 30 }))
    .map(([m, e]) => m * 2 ** e);

  function run(p1: V, p2: V, a: V, b: V, c: V, r1: number, r2: number) {
    const io = planeGapIo;
    [p1, p2, a, b, c].forEach((v, i) => {
      io[3 * i] = v.x;
      io[3 * i + 1] = v.y;
      io[3 * i + 2] = v.z;
    });
    io[15] = r1;
    io[16] = r2;
    const s = planeGapSignIo();
    const inside = s === PLANE_GAP_UNDECIDED ? null : footInTriangleIo();
    return { s, inside };
  }

  it("random dyadic points, triangles and radii", () => {
    fc.assert(
      fc.property(vec, vec, vec, vec, vec, radius, radius, (p1, p2, a, b, c, r1, r2) => {
        const got = run(p1, p2, a, b, c, r1, r2);
        const want = oracle(p1, p2, a, b, c, r1, r2);
        const nz = dot(
          cross(sub(b3(b), b3(a)), sub(b3(c), b3(a))),
          cross(sub(b3(b), b3(a)), sub(b3(c), b3(a))),
        );
        if (nz === 0n) {
          expect(got.s).toBe(PLANE_GAP_UNDECIDED);
          return;
        }
        expect(got.s).toBe(want.sign);
        expect(got.inside).toBe(want.inside);
      }),
      { numRuns: 2000 },
    );
  });

  it("feet on an edge or a corner, or an ulp across it (the filter undecided: expansions)", () => {
    const small = fc.integer({ min: -3, max: 3 });
    fc.assert(
      fc.property(
        vec,
        vec,
        vec,
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom(0, 0.5, 0.25, 1),
        fc.tuple(small, small, small),
        fc.tuple(small, small, small),
        (a, b, c, edge, t, nudge, lift) => {
          const [u, w] = edge === 0 ? [a, b] : edge === 1 ? [b, c] : [c, a];
          // A point of the edge (t of the way), nudged by a few ulps and lifted off the plane.
          const on = (x: number, y: number) => x + t * (y - x);
          const ulp = (x: number, n: number) => {
            let v = x;
            for (let i = 0; i < Math.abs(n); i++) v = n > 0 ? nextUp(v) : nextDown(v);
            return v;
          };
          const p1 = {
            x: ulp(on(u.x, w.x), nudge[0]),
            y: ulp(on(u.y, w.y), nudge[1]),
            z: ulp(on(u.z, w.z), nudge[2]),
          };
          const p2 = { x: lift[0] * 2 ** -10, y: lift[1] * 2 ** -10, z: lift[2] * 2 ** -10 };
          const got = run(p1, p2, a, b, c, 2 ** -12, 0);
          if (got.s === PLANE_GAP_UNDECIDED) return;
          const want = oracle(p1, p2, a, b, c, 2 ** -12, 0);
          expect(got.s).toBe(want.sign);
          expect(got.inside).toBe(want.inside);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("exact touches (sign 0), and one ulp of radius either side", () => {
    const t = buildTouch(
      0,
      0,
      0,
      [3, 2, 5, 1, 4],
      2 ** -3,
      2 ** -20,
      { x: 5, y: 0.25, z: -1 },
      [0, 0],
    );
    expect(t).not.toBeNull();
    const T = t as Touch;
    // The point split as p1 + p2 (a core vertex and its offset) with p2 far: still exact.
    const p2 = { x: 2 ** 20, y: -(2 ** 21), z: 3 * 2 ** 19 };
    const p1 = { x: T.p.x - p2.x, y: T.p.y - p2.y, z: T.p.z - p2.z };
    expect([p1.x + p2.x, p1.y + p2.y, p1.z + p2.z]).toEqual([T.p.x, T.p.y, T.p.z]);
    expect(run(p1, p2, T.a, T.b, T.c, T.r, 0)).toEqual({ s: 0, inside: true });
    expect(run(p1, p2, T.a, T.b, T.c, nextDown(T.r), 0).s).toBe(1);
    expect(run(T.p, { x: 0, y: 0, z: 0 }, T.a, T.b, T.c, T.r, 0)).toEqual({ s: 0, inside: true });
    expect(oracle(T.p, { x: 0, y: 0, z: 0 }, T.a, T.b, T.c, T.r, 0).sign).toBe(0);
    expect(run(T.p, { x: 0, y: 0, z: 0 }, T.a, T.b, T.c, nextUp(T.r), 0).s).toBe(-1);
    expect(run(T.p, { x: 0, y: 0, z: 0 }, T.a, T.b, T.c, nextDown(T.r), 0).s).toBe(1);
    // r split in two radii.
    expect(run(T.p, { x: 0, y: 0, z: 0 }, T.a, T.b, T.c, T.r / 4, (3 * T.r) / 4).s).toBe(0);
  });
});

describe("fresh43 findings: exact touches on tilted faces (hand-derived)", () => {
  it("01: sphere on a triangle's face (plane x + 4y + 8z = 0), triangle, mesh, rounded box", () => {
    const u = [0, 8, -4];
    const v = [-80, 4, 8];
    const pt = (su: number, sv: number) => ({
      x: (su * u[0] + sv * v[0]) / 8,
      y: (su * u[1] + sv * v[1]) / 8,
      z: (su * u[2] + sv * v[2]) / 8,
    });
    const A = pt(1, 1);
    const B = pt(1, -1);
    const C = pt(-1, -1);
    const tri = makeTriangle(A, B, C);
    const mesh = makeTriangleMesh([A.x, A.y, A.z, B.x, B.y, B.z, C.x, C.y, C.z], [0, 1, 2]);
    const k = 2 ** -20;
    const pb = at({ x: 5 + k, y: -0.25 + 4 * k, z: -0.5 + 8 * k });
    for (const S of [makeSphere(9 * k), makeRoundedCuboid({ x: 0, y: 0, z: 0 }, 9 * k)]) {
      expectAnswer(tri, O, S, pb, 0);
      expectAnswer(mesh, O, S, pb, 0);
    }
    expectAnswer(tri, O, makeSphere(nextDown(9 * k)), pb, 1);
    expectAnswer(tri, O, makeSphere(nextUp(9 * k)), pb, -1);
  });

  it("02: rounded hull whose core vertex lies its radius above a face (plane 3x + 4y = 0)", () => {
    const tri = makeTriangle(
      { x: 0.5, y: -0.375, z: -3.125 },
      { x: 0.5, y: -0.375, z: 3.125 },
      { x: -0.5, y: 0.375, z: 3.125 },
    );
    const k = 1 / 8;
    const core = [
      [0, 0, 0],
      [3, 4, 0],
      [7, 1, 0],
      [3, 4, -25],
    ].map(([x, y, z]) => ({ x: (x * k) / 4, y: (y * k) / 4, z: (z * k) / 4 }));
    const pb = at({ x: 3 / 8, y: 1 / 2, z: 25 / 16 });
    expectAnswer(tri, O, makeRoundedConvexPolyhedron(core, 5 * k), pb, 0);
    expectAnswer(tri, O, makeRoundedCuboid({ x: 0, y: 0, z: 0 }, 5 * k), pb, 0);
    expectAnswer(tri, O, makeSphere(5 * k), pb, 0);
    expectAnswer(tri, O, makeRoundedConvexPolyhedron(core, nextDown(5 * k)), pb, 1);
    expectAnswer(tri, O, makeRoundedConvexPolyhedron(core, nextUp(5 * k)), pb, -1);
  });

  it("02: sphere on a hull's tilted face, and on a box given as a hull", () => {
    const hull = makeConvexPolyhedron([
      { x: -0.25, y: -0.25, z: -1 },
      { x: 0.25, y: -0.25, z: 0 },
      { x: 0, y: -0.25, z: 1 },
      { x: 0, y: 0.25, z: 0 },
    ]);
    const pS = at({ x: 0, y: 0.125, z: 0 });
    const pH = at({ x: 0, y: 0.625, z: 0 });
    expectAnswer(makeSphere(0.25), pS, hull, pH, 0);
    expectAnswer(makeSphere(nextDown(0.25)), pS, hull, pH, 1);
    expectAnswer(makeSphere(nextUp(0.25)), pS, hull, pH, -1);
    const corners = [-1, 1].flatMap((x) =>
      [-1, 1].flatMap((y) => [-0.125, 0.125].map((z) => ({ x, y, z }))),
    );
    const boxHull = makeConvexPolyhedron(corners);
    const pS2 = at({ x: -0.015625, y: 1.5, z: -0.078125 });
    expectAnswer(makeSphere(0.5), pS2, boxHull, O, 0);
    expectAnswer(makeSphere(0.5), pS2, makeRoundedConvexPolyhedron(corners, 0.25), O, -1);
    expectAnswer(makeSphere(0.25), pS2, makeRoundedConvexPolyhedron(corners, 0.25), O, 0);
    // The control: the same box as a cuboid.
    expectAnswer(makeSphere(0.5), pS2, makeCuboid({ x: 1, y: 1, z: 0.125 }), O, 0);
  });

  it("06: sphere and zero-core rounded box on a tilted heightfield face (y = 4x + 8z) and its mesh", () => {
    // Vertex (c, r) at (c, 4c + 8r, r): the plane y = 4x + 8z; its mesh.
    const { field: hf, mesh } = planeField(4, 4, 4, 8, { x: 1, y: 1, z: 1 });
    for (const [fx, fz, k] of [
      [2.42578125, 0.65234375, 2 ** -25],
      [1.77734375, 1.1015625, 2 ** -17],
    ]) {
      const f = { x: fx, y: 4 * fx + 8 * fz, z: fz };
      const pose = at({ x: f.x - 4 * k, y: f.y + k, z: f.z - 8 * k });
      for (const S of [makeSphere(9 * k), makeRoundedCuboid({ x: 0, y: 0, z: 0 }, 9 * k)]) {
        expectAnswer(hf, O, S, pose, 0);
        expectAnswer(mesh, O, S, pose, 0);
      }
      expectAnswer(hf, O, makeSphere(nextDown(9 * k)), pose, 1);
      expectAnswer(mesh, O, makeSphere(nextUp(9 * k)), pose, -1);
    }
  });
});

describe("property: exact touches on tilted faces", () => {
  const touch = fc
    .record({
      qi: fc.integer({ min: 0, max: QUADRUPLES.length - 1 }),
      perm: fc.integer({ min: 0, max: 5 }),
      signs: fc.integer({ min: 0, max: 7 }),
      ij: fc.tuple(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
      ),
      se: fc.integer({ min: -30, max: 30 }),
      ke: fc.integer({ min: -24, max: 8 }),
      far: fc.constantFrom(0, 0, 2 ** 10, 2 ** 20, 2 ** 30),
      o: fc.tuple(
        fc.integer({ min: -64, max: 64 }),
        fc.integer({ min: -64, max: 64 }),
        fc.integer({ min: -64, max: 64 }),
      ),
      shift: fc.tuple(fc.constantFrom(0, 0.25, -0.25, 0.5), fc.constantFrom(0, 0.25, -0.5)),
      posed: fc.boolean(),
      ulp: fc.constantFrom(0, -1, 1),
    })
    .map((g) => {
      const s = 2 ** g.se;
      // k relative to the face's size s (a touch from 2^-24 to 2^8 of it).
      const k = 2 ** (g.se + g.ke);
      const origin = { x: g.o[0] * s, y: g.o[1] * s, z: g.o[2] * s };
      if (g.far !== 0) {
        origin.x += g.far * s * 3;
        origin.y -= g.far * s * 5;
        origin.z += g.far * s;
      }
      return { g, t: buildTouch(g.qi, g.perm, g.signs, g.ij, s, k, origin, g.shift) };
    });

  /** The radius of the case, one ulp either side of the touch's, and the BigInt answer. */
  function caseOf(t: Touch, ulp: number) {
    const r = ulp === 0 ? t.r : ulp < 0 ? nextDown(t.r) : nextUp(t.r);
    const z = { x: 0, y: 0, z: 0 };
    const o = oracle(t.p, z, t.a, t.b, t.c, r, 0);
    // (Corners shifted past the foot: not a face touch, skipped.)
    if (!o.inside) return null;
    expect(o.sign).toBe(ulp === 0 ? 0 : ulp < 0 ? 1 : -1);
    return { r, want: o.sign };
  }

  /** The triangle's and B's poses: world coordinates as built, or both moved by −origin's grid. */
  function placed(t: Touch, posed: boolean) {
    if (!posed) return { a: t.a, b: t.b, c: t.c, pa: O, pb: at(t.p) };
    // The triangle in local coordinates about a corner, its pose at that corner (exact offsets).
    const base = t.a;
    const loc = (v: V) => ({ x: v.x - base.x, y: v.y - base.y, z: v.z - base.z });
    return { a: loc(t.a), b: loc(t.b), c: loc(t.c), pa: at(base), pb: at(t.p) };
  }

  it("sphere against a triangle and a one-triangle mesh, both orders", () => {
    fc.assert(
      fc.property(touch, ({ g, t }) => {
        if (t === null) return;
        const cs = caseOf(t, g.ulp);
        if (cs === null) return;
        const { r, want } = cs;
        const q = placed(t, g.posed);
        // Posed: the local corners and the pose's offset must be exact for the oracle to hold.
        if (g.posed && !exactlyPlaced(t, q)) return;
        const tri = makeTriangle(q.a, q.b, q.c);
        expectAnswer(tri, q.pa, makeSphere(r), q.pb, want);
        const mesh = makeTriangleMesh(
          [q.a.x, q.a.y, q.a.z, q.b.x, q.b.y, q.b.z, q.c.x, q.c.y, q.c.z],
          [0, 1, 2],
        );
        expectAnswer(mesh, q.pa, makeSphere(r), q.pb, want);
      }),
      { numRuns: 300 },
    );
  });

  it("rounded box of zero core and a rounded hull's core vertex against a triangle", () => {
    fc.assert(
      fc.property(touch, ({ g, t }) => {
        if (t === null) return;
        const cs = caseOf(t, g.ulp);
        if (cs === null) return;
        const { r, want } = cs;
        const q = placed(t, g.posed);
        if (g.posed && !exactlyPlaced(t, q)) return;
        const tri = makeTriangle(q.a, q.b, q.c);
        expectAnswer(tri, q.pa, makeRoundedCuboid({ x: 0, y: 0, z: 0 }, r), q.pb, want);
        // A core tetrahedron with its vertex 0 at B's origin, the rest farther along n.
        const s = t.k / 2;
        const n = t.n;
        const core = [
          { x: 0, y: 0, z: 0 },
          { x: n.x * s, y: n.y * s, z: n.z * s },
          { x: (n.x + n.y) * s, y: (n.y - n.x) * s, z: n.z * s },
          { x: n.x * s, y: (n.y + n.z) * s, z: (n.z - n.y) * s },
        ];
        expectAnswer(tri, q.pa, makeRoundedConvexPolyhedron(core, r), q.pb, want);
      }),
      { numRuns: 200 },
    );
  });

  it("sphere against a convex hull's tilted face (a tetrahedron behind the triangle)", () => {
    fc.assert(
      fc.property(touch, ({ g, t }) => {
        if (t === null) return;
        const cs = caseOf(t, g.ulp);
        if (cs === null) return;
        const { r, want } = cs;
        const q = placed(t, g.posed);
        if (g.posed && !exactlyPlaced(t, q)) return;
        // The apex behind the face: corner B moved along −n (a dyadic point; rounding only moves it).
        const depth = t.k * 2 ** 10;
        const apex = {
          x: q.b.x - t.n.x * depth,
          y: q.b.y - t.n.y * depth,
          z: q.b.z - t.n.z * depth,
        };
        const hull = makeConvexPolyhedron([q.a, q.b, q.c, apex]);
        if (hull.vertexCount !== 4) return;
        expectAnswer(makeSphere(r), q.pb, hull, q.pa, want);
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * True when the posed placement is the built one exactly: the local corners plus the pose's
 * offset give the built corners, and the point less the offset (B's pose in A's frame, as the
 * queries form it) is exact.
 */
function exactlyPlaced(
  t: Touch,
  q: { a: V; b: V; c: V; pa: { translation: V }; pb: { translation: V } },
): boolean {
  const o = q.pa.translation;
  const same = (l: V, w: V) => l.x + o.x === w.x && l.y + o.y === w.y && l.z + o.z === w.z;
  const back = (l: V, w: V) => w.x - o.x === l.x && w.y - o.y === l.y && w.z - o.z === l.z;
  const rel = {
    x: t.p.x - o.x,
    y: t.p.y - o.y,
    z: t.p.z - o.z,
  };
  return (
    same(q.a, t.a) &&
    same(q.b, t.b) &&
    same(q.c, t.c) &&
    back(q.a, t.a) &&
    back(q.b, t.b) &&
    back(q.c, t.c) &&
    rel.x + o.x === t.p.x &&
    rel.y + o.y === t.p.y &&
    rel.z + o.z === t.p.z &&
    t.p.x - rel.x === o.x &&
    t.p.y - rel.y === o.y &&
    t.p.z - rel.z === o.z
  );
}
