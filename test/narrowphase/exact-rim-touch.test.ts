/**
 * A cylinder's or a cone's rim exactly touching a tilted triangle's, hull's, mesh's or
 * heightfield's face (issue 16, fresh-user finding 43b/05: the bare triangle and the hull were
 * 7e-15 apart where the one-triangle mesh touched).
 *
 * Oracle, exact by construction: Pythagorean triples (p, q, s) and (s, t, w) give the face
 * normal n with n_k = ±t along the solid's axis e_k and (n_i, n_j) = (±p, ±q) across it, |n| = w,
 * |n_perp| = s. A solid of radius r = s·K whose centre is c = f + sign(n_k)·h·e_k + K·n_perp has
 * its lowest point along n at f exactly (the cap toward the plane, then −r along n_perp / s), so
 * it touches the plane n·x = n·f at f; the triangle's corners are f plus integer vectors
 * orthogonal to n (f their centroid). Every coordinate is an integer times a power of two, so
 * every double is exact. ±1 ulp of r or of the centre gives the two sides; the predicate's sign
 * is checked against BigInt arithmetic.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rimGapSignIo, rimIo } from "../../src/geometry/exact-predicates.js";
import * as C from "../../src/index.js";

const I = { x: 0, y: 0, z: 0, w: 1 };
const O = { translation: { x: 0, y: 0, z: 0 }, rotation: I };
type V = { x: number; y: number; z: number };
const at = (v: V, k: number) => (k === 0 ? v.x : k === 1 ? v.y : v.z);
const vec = (a: number[]): V => ({ x: a[0], y: a[1], z: a[2] });

/** [p, q, s, t, w]: p² + q² = s², s² + t² = w². */
const TRIPLES = [
  [3, 4, 5, 12, 13],
  [5, 12, 13, 84, 85],
  [8, 15, 17, 144, 145],
  [7, 24, 25, 60, 65],
  [20, 21, 29, 420, 421],
] as const;

const H = Math.SQRT1_2;
/** Rotations taking the solid's +y to ±e_k exactly or within rounding: [quaternion, k, sign]. */
const ROTATIONS = [
  [I, 1, 1],
  [{ x: 1, y: 0, z: 0, w: 0 }, 1, -1],
  [{ x: 0, y: 0, z: H, w: H }, 0, -1],
  [{ x: H, y: 0, z: 0, w: H }, 2, 1],
  [{ x: 0, y: 0, z: -H, w: H }, 0, 1],
] as const;

function nextUp(x: number): number {
  const f = new Float64Array([x]);
  const b = new BigInt64Array(f.buffer);
  b[0] += x >= 0 ? 1n : -1n;
  return f[0];
}
function nextDown(x: number): number {
  const f = new Float64Array([x]);
  const b = new BigInt64Array(f.buffer);
  b[0] += x > 0 ? -1n : 1n;
  return f[0];
}

interface Case {
  cone: boolean;
  tri: [V, V, V];
  normal: number[];
  centre: V;
  rotation: { x: number; y: number; z: number; w: number };
  h: number;
  r: number;
  k: number;
  su: number;
}

/**
 * An exact touch: triple index, rotation index, signs, integers K, Hh (half height), L (the
 * triangle's size), foot f (integers), all times 2^e.
 */
function build(
  cone: boolean,
  ti: number,
  ri: number,
  signs: number,
  K: number,
  Hh: number,
  L: number,
  foot: number[],
  e: number,
): Case {
  const [p, q, s, t] = TRIPLES[ti];
  const [rotation, k, su] = ROTATIONS[ri];
  const i = (k + 1) % 3;
  const j = (k + 2) % 3;
  const n = [0, 0, 0];
  // A cone's base toward the plane: its axis away from it (sign(n_k) = su).
  n[k] = cone ? su * t : signs & 1 ? t : -t;
  n[i] = signs & 2 ? p : -p;
  n[j] = signs & 4 ? q : -q;
  const g = 2 ** e;
  const c = [0, 0, 0];
  c[k] = foot[k] + Math.sign(n[k]) * Hh;
  c[i] = foot[i] + K * n[i];
  c[j] = foot[j] + K * n[j];
  // Two integer vectors orthogonal to n (n[0] ≠ 0 whichever axis k is: |n_i| ≥ 3).
  const a0 = n[0] !== 0 ? 0 : 1;
  const e1 = [0, 0, 0];
  const e2 = [0, 0, 0];
  const o1 = (a0 + 1) % 3;
  const o2 = (a0 + 2) % 3;
  e1[a0] = n[o1];
  e1[o1] = -n[a0];
  e2[a0] = n[o2];
  e2[o2] = -n[a0];
  const corner = (u: number, v: number) =>
    vec([0, 1, 2].map((m) => (foot[m] + L * (u * e1[m] + v * e2[m])) * g));
  const tri: [V, V, V] = [corner(-1, -1), corner(2, -1), corner(-1, 2)];
  for (const x of [...foot, ...c, K, Hh, L])
    if (!Number.isSafeInteger(x)) throw new Error("not exact");
  return {
    cone,
    tri,
    normal: n,
    centre: vec(c.map((x) => x * g)),
    rotation,
    h: Hh * g,
    r: s * K * g,
    k,
    su,
  };
}

function solidOf(c: Case, r = c.r): C.Shape {
  return c.cone ? C.makeCone(c.h, r) : C.makeCylinder(c.h, r);
}

function polys(c: Case): [string, C.Shape][] {
  const [A, B, Cc] = c.tri;
  const n = c.normal;
  // The hull: the triangle and a point behind its plane (away from the solid).
  const back = { x: A.x - n[0] * 2 ** 10, y: A.y - n[1] * 2 ** 10, z: A.z - n[2] * 2 ** 10 };
  return [
    ["triangle", C.makeTriangle(A, B, Cc)],
    ["hull", C.makeConvexPolyhedron([A, B, Cc, back])],
    ["mesh", C.makeTriangleMesh([A.x, A.y, A.z, B.x, B.y, B.z, Cc.x, Cc.y, Cc.z], [0, 1, 2])],
  ];
}

/** Every query in both orders: touching (expected 0), overlapping (−1) or apart (1). */
function expectSide(poly: C.Shape, solid: C.Shape, pose: C.Isometry, side: number, tag: string) {
  for (const flip of [false, true]) {
    const q = (f: typeof C.intersects) =>
      flip ? f(solid, pose, poly, O) : f(poly, O, solid, pose);
    const t = `${tag}${flip ? " (solid first)" : ""}`;
    const hit = q(C.intersects);
    const d = (flip ? C.distance(solid, pose, poly, O) : C.distance(poly, O, solid, pose)).distance;
    const ct = flip ? C.contact(solid, pose, poly, O) : C.contact(poly, O, solid, pose);
    if (side <= 0) {
      expect(hit, t).toBe(true);
      expect(d, t).toBe(0);
      expect(ct, t).not.toBeNull();
      if (side === 0) expect(ct?.distance, t).toBe(0);
      else expect(ct?.distance ?? 1, t).toBeLessThanOrEqual(0);
    } else {
      expect(hit, t).toBe(false);
      expect(d, t).toBeGreaterThan(0);
      expect(ct, t).toBeNull();
    }
  }
}

/** The exact sign (BigInt) of the predicate's gap: inputs scaled by 2^1200 to integers. */
function bigSign(
  c: V,
  a: V,
  b: V,
  cc: V,
  h: number,
  r: number,
  k: number,
  su: number,
  cone: boolean,
) {
  const big = (x: number): bigint => {
    if (x === 0) return 0n;
    const f = new Float64Array([Math.abs(x)]);
    const bits = new BigUint64Array(f.buffer)[0];
    const ex = Number((bits >> 52n) & 0x7ffn);
    const m = ex === 0 ? bits & 0xfffffffffffffn : (bits & 0xfffffffffffffn) | (1n << 52n);
    const e2 = (ex === 0 ? -1074 : ex - 1075) + 1200;
    const v = m << BigInt(e2);
    return x < 0 ? -v : v;
  };
  const P = (v: V) => [big(v.x), big(v.y), big(v.z)];
  const [A, B, Cc, Ce] = [P(a), P(b), P(cc), P(c)];
  const E = B.map((x, i) => x - A[i]);
  const F = Cc.map((x, i) => x - A[i]);
  const n = [E[1] * F[2] - E[2] * F[1], E[2] * F[0] - E[0] * F[2], E[0] * F[1] - E[1] * F[0]];
  const D = n[0] * (Ce[0] - A[0]) + n[1] * (Ce[1] - A[1]) + n[2] * (Ce[2] - A[2]);
  if (D === 0n) return -1;
  const sg = D > 0n ? 1n : -1n;
  const hk = big(h) * n[k];
  const i = (k + 1) % 3;
  const j = (k + 2) % 3;
  const rr = big(r);
  const S2 = n[i] * n[i] + n[j] * n[j];
  const sign = (x: bigint) => (x > 0n ? 1 : x < 0n ? -1 : 0);
  const rimOf = (K: bigint) => (K < 0n ? -1 : sign(K * K - rr * rr * S2));
  if (!cone) {
    const absHk = hk < 0n ? -hk : hk;
    return rimOf(sg * D - absHk);
  }
  const hm = sg * BigInt(su) * hk;
  const rim = rimOf(sg * D - hm);
  const apex = sign(sg * D + hm);
  return Math.min(rim, apex);
}

function predicate(
  c: V,
  a: V,
  b: V,
  cc: V,
  h: number,
  r: number,
  k: number,
  su: number,
  cone: boolean,
) {
  const io = rimIo;
  [
    c.x,
    c.y,
    c.z,
    a.x,
    a.y,
    a.z,
    b.x,
    b.y,
    b.z,
    cc.x,
    cc.y,
    cc.z,
    h,
    r,
    k,
    su,
    cone ? 1 : 0,
  ].forEach((x, i) => {
    io[i] = x;
  });
  return rimGapSignIo();
}

describe("exact rim touch", () => {
  it("the fresh-user repro (43b/05): triangle, hull, mesh and heightfield, both orders", () => {
    const A = { x: -102, y: 42.25, z: -253.25 };
    const B = { x: 108, y: -42.25, z: 250.75 };
    const Cc = { x: 102, y: -42.25, z: 253.25 };
    const f = {
      x: (7 * A.x + 3 * B.x + 6 * Cc.x) / 16,
      y: (7 * A.y + 3 * B.y + 6 * Cc.y) / 16,
      z: (7 * A.z + 3 * B.z + 6 * Cc.z) / 16,
    };
    const k = 2 ** -16;
    const r = 13 * k;
    const h = 3 * k;
    const pose = { translation: { x: f.x + 5 * k, y: f.y + h, z: f.z + 12 * k }, rotation: I };
    const tri = C.makeTriangle(A, B, Cc);
    const hull = C.makeConvexPolyhedron([A, B, Cc, { x: A.x - 5, y: A.y - 84, z: A.z - 12 }]);
    const mesh = C.makeTriangleMesh([A.x, A.y, A.z, B.x, B.y, B.z, Cc.x, Cc.y, Cc.z], [0, 1, 2]);
    // Heightfield on the plane 5x + 84y + 12z = 0: vertex (84c, −5c − 12r, 84r).
    const hs: number[] = [];
    for (let row = 0; row < 4; row++)
      for (let col = 0; col < 4; col++) hs.push(-5 * col - 12 * row);
    const hf = C.makeHeightfield({ rows: 4, cols: 4, heights: hs, scale: { x: 84, y: 1, z: 84 } });
    // Its foot (84·1.25, −(5·1.25 + 12·1.5), 84·1.5), inside a cell's triangle.
    const fh = { x: 105, y: -24.25, z: 126 };
    const poseH = { translation: { x: fh.x + 5 * k, y: fh.y + h, z: fh.z + 12 * k }, rotation: I };
    for (const [sn, S] of [
      ["cylinder", C.makeCylinder(h, r)],
      ["cone", C.makeCone(h, r)],
    ] as const) {
      for (const [bn, X] of [
        ["triangle", tri],
        ["hull", hull],
        ["mesh", mesh],
      ] as const)
        expectSide(X, S, pose, 0, `${bn}-${sn}`);
      expectSide(hf, S, poseH, 0, `heightfield-${sn}`);
      // One ulp of the radius either way: overlapping, apart.
      const up = sn === "cylinder" ? C.makeCylinder(h, nextUp(r)) : C.makeCone(h, nextUp(r));
      const down = sn === "cylinder" ? C.makeCylinder(h, nextDown(r)) : C.makeCone(h, nextDown(r));
      for (const [bn, X] of [
        ["triangle", tri],
        ["hull", hull],
        ["mesh", mesh],
      ] as const) {
        expectSide(X, up, pose, -1, `${bn}-${sn} r+ulp`);
        expectSide(X, down, pose, 1, `${bn}-${sn} r-ulp`);
      }
    }
  });

  it("hand-built touches from Pythagorean quadruples: touching, and ±1 ulp either side (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 0, max: TRIPLES.length - 1 }),
        fc.integer({ min: 0, max: ROTATIONS.length - 1 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 256 }),
        fc.integer({ min: -20, max: 20 }),
        fc.tuple(
          fc.integer({ min: -(2 ** 20), max: 2 ** 20 }),
          fc.integer({ min: -(2 ** 20), max: 2 ** 20 }),
          fc.integer({ min: -(2 ** 20), max: 2 ** 20 }),
        ),
        fc.integer({ min: 0, max: 3 }),
        (cone, ti, ri, signs, K, Hh, e, off, which) => {
          const size = Math.max(TRIPLES[ti][2] * K, Hh);
          const L = 4 * size;
          const foot = off.map((o) => Math.round((o * size) / 2 ** 6));
          // A bare triangle or hull is solved in the solid's frame, exact under half turns only
          // (a 90° turn's quaternion rounds the pose the query forms).
          const c = build(cone, ti, which % 3 === 2 ? ri : ri % 2, signs, K, Hh, L, foot, e - 8);
          const pose = { translation: c.centre, rotation: c.rotation };
          const [name, poly] = polys(c)[which % 3];
          expectSide(poly, solidOf(c), pose, 0, `${name} touch`);
          if (which === 3) return;
          // ±1 ulp of the radius.
          expectSide(poly, solidOf(c, nextUp(c.r)), pose, -1, `${name} r+ulp`);
          expectSide(poly, solidOf(c, nextDown(c.r)), pose, 1, `${name} r-ulp`);
          // ±1 ulp of the centre along the axis: toward the plane overlaps, away is apart.
          const ck = at(c.centre, c.k);
          const away = Math.sign(c.normal[c.k]) > 0 ? nextUp(ck) : nextDown(ck);
          const toward = Math.sign(c.normal[c.k]) > 0 ? nextDown(ck) : nextUp(ck);
          const moved = (v: number) => {
            const t = { ...c.centre };
            if (c.k === 0) t.x = v;
            else if (c.k === 1) t.y = v;
            else t.z = v;
            return { translation: t, rotation: c.rotation };
          };
          expectSide(poly, solidOf(c), moved(away), 1, `${name} centre away`);
          expectSide(poly, solidOf(c), moved(toward), -1, `${name} centre toward`);
        },
      ),
      { numRuns: 60, seed: 45 },
    );
  });

  it("the predicate's sign agrees with BigInt arithmetic on touches and their ulp neighbours", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 0, max: TRIPLES.length - 1 }),
        fc.integer({ min: 0, max: ROTATIONS.length - 1 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 1, max: 1024 }),
        fc.integer({ min: 1, max: 4096 }),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -(2 ** 20), max: 2 ** 20 }),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: -3, max: 3 }),
        (cone, ti, ri, signs, K, Hh, e, o, dr, dc) => {
          const size = Math.max(TRIPLES[ti][2] * K, Hh);
          const foot = [o, -o, 3 * o].map((x) => Math.round((x * size) / 64));
          const c = build(cone, ti, ri, signs, K, Hh, 4 * size, foot, e);
          let r = c.r;
          for (let q = 0; q < Math.abs(dr); q++) r = dr > 0 ? nextUp(r) : nextDown(r);
          const ctr = { ...c.centre };
          for (let q = 0; q < Math.abs(dc); q++) ctr.x = dc > 0 ? nextUp(ctr.x) : nextDown(ctr.x);
          const [A, B, Cc] = c.tri;
          const want = bigSign(ctr, A, B, Cc, c.h, r, c.k, c.su, cone);
          const got = predicate(ctr, A, B, Cc, c.h, r, c.k, c.su, cone);
          // Undecided only for an input outside [2^-120, 2^120) (a centre at a subnormal).
          const out = [ctr.x, ctr.y, ctr.z].some((x) => x !== 0 && Math.abs(x) < 2 ** -120);
          if (out) expect(got).toBe(2);
          else expect(got).toBe(want);
          if (dr === 0 && dc === 0) expect(want).toBe(0);
        },
      ),
      { numRuns: 300, seed: 46 },
    );
  });

  it("a cone's apex exactly on a tilted face touches; a turned cylinder is left to the solver", () => {
    // Apex at f = (0, 0, 0) on the plane 5x + 84y + 12z = 0 with the cone pointing down (axis −y):
    // its apex is its lowest point when 2h·84 > r·13 (h = 1, r = 1).
    const A = { x: -102, y: 42.25, z: -253.25 };
    const B = { x: 108, y: -42.25, z: 250.75 };
    const Cc = { x: 102, y: -42.25, z: 253.25 };
    const f = {
      x: (7 * A.x + 3 * B.x + 6 * Cc.x) / 16,
      y: (7 * A.y + 3 * B.y + 6 * Cc.y) / 16,
      z: (7 * A.z + 3 * B.z + 6 * Cc.z) / 16,
    };
    expect(5 * f.x + 84 * f.y + 12 * f.z).toBe(0);
    const down = { x: 1, y: 0, z: 0, w: 0 };
    const pose = { translation: { x: f.x, y: f.y + 1, z: f.z }, rotation: down };
    expectSide(C.makeTriangle(A, B, Cc), C.makeCone(1, 1), pose, 0, "apex");
    const apart = { translation: { x: f.x, y: nextUp(f.y + 1), z: f.z }, rotation: down };
    expectSide(C.makeTriangle(A, B, Cc), C.makeCone(1, 1), apart, 1, "apex + ulp");
  });
});
