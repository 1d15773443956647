/**
 * Regressions of issue 16, castShapes "toi after the shapes meet" (cast-graze.cases.json: the fuzzer
 * at 10^6 queries, seeds 52 and 51, main 55602dc).
 *
 * 1. triangle-compound: a compound (a box child and a sphere child) at 2.5e7 from the origin and
 *    a triangle whose corner lies 1.02e-9 from a corner of the box (a "touching" scenario
 *    rounded at 2.5e7), the triangle moving at 63. Collide answered the sphere's contact at
 *    0.1872; the fuzzer saw the box within its bar (2e-7) closing at 1.4 along the witnesses and
 *    called the toi 0.265 late. An exact separating-axis bound says otherwise: the box and the
 *    triangle never touch — along the fixed axes (box x) × (c − b) and (box z) × (c − b) their
 *    separations are linear in t, one rising and one falling, and the larger of the two is at
 *    least 9.4e-10 for every t ≥ 0. The corner grazes past: the library's answer (the sphere's
 *    first contact) stands, and the fuzzer's late check now asks that the shapes certainly meet
 *    (its `clearlyMeet`, as for a null answer) before it calls a later toi wrong
 *    (docs/FORMATS.md, castShapes: "a pair that only comes within the bar and grazes or
 *    separates may get either answer").
 * 2. halfspace-compound: a compound of 2e-6 at 3e3 from the origin cast against a plane 3115 from
 *    it, answered 1.3e-13 late (bar 1.1e-13): the cast posed each child at the compound's pose
 *    and its position along the motion in the half-space's frame, at the world origin, so every
 *    gap rounded at ulps of 3e3. Fixed in src/query/cast-shapes.ts (`rebaseHalfSpace`): a linear
 *    cast moves the plane to the other body's origin, its offset from there formed exactly
 *    (Dot2) and rounded once, so the search rounds at the bounded body's size.
 *
 * The properties generate the classes against oracles of their own, independent of the library:
 * a compound of boxes, spheres and capsules (sizes 1e-6..1e6, offsets up to 1e9, both argument
 * orders) cast against a triangle, each child's signed separation from the moving triangle
 * computed directly (closest points of points, segments and the triangle; the box's by its
 * vertices, edges and 13 separating axes) — convex in t, so its minimum and first root follow
 * by ternary search and bisection; and such a compound cast against a far half-space, whose time
 * of impact is the children's least gap over the closing speed, the plane's offset from the
 * compound's origin formed in exact rational arithmetic.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { unitQuatArrayOf } from "./arbitraries.js";
import { closestOnTriangleVoronoi, segmentSegmentDistance } from "./oracle-shapes.js";
import { loadCases, replayCases } from "./recorded-cases.js";

type V3 = [number, number, number];
type J = Record<string, unknown>;
type Hit = { toi: number; normal: V3; pointA: V3; pointB: V3 } | null;
const EPS = Number.EPSILON;
/** A coordinate in [−1, 1], 2^-30 apart (fast-check's doubles crowd at 0 and ±1). */
const UNIT = fc.integer({ min: -(2 ** 30), max: 2 ** 30 }).map((i) => i / 2 ** 30);

const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: V3, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: V3): number => Math.hypot(a[0], a[1], a[2]);

/** Rotation matrix (columns: the rotated axes) of quaternion [x, y, z, w], normalised. */
function quatMatrix(q: readonly number[] | undefined): [V3, V3, V3] {
  if (!q)
    return [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  const [x, y, z, w] = q.map((c) => c / l);
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
    [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
    [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
  ];
}
/** m·v for m given by its columns. */
const mulMV = (m: [V3, V3, V3], v: readonly number[]): V3 =>
  add(add(scale(m[0], v[0]), scale(m[1], v[1])), scale(m[2], v[2]));
/** m·n (columns of n rotated by m). */
const mulMM = (m: [V3, V3, V3], n: [V3, V3, V3]): [V3, V3, V3] => [
  mulMV(m, n[0]),
  mulMV(m, n[1]),
  mulMV(m, n[2]),
];

const pointTriangle = (p: V3, t: V3[]): number =>
  norm(sub(p, closestOnTriangleVoronoi(p, t[0], t[1], t[2])));

/** Distance of segment p0p1 and triangle t (0 when the segment crosses it). */
function segmentTriangle(p0: V3, p1: V3, t: V3[]): number {
  const n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
  const s0 = dot(n, sub(p0, t[0]));
  const s1 = dot(n, sub(p1, t[0]));
  if (s0 !== s1 && ((s0 <= 0 && s1 >= 0) || (s0 >= 0 && s1 <= 0))) {
    const x = add(p0, scale(sub(p1, p0), s0 / (s0 - s1)));
    if (pointTriangle(x, t) === 0 || insideTriangle(x, t, n)) return 0;
  }
  let d = Math.min(pointTriangle(p0, t), pointTriangle(p1, t));
  for (let i = 0; i < 3; i++) d = Math.min(d, segmentSegmentDistance(p0, p1, t[i], t[(i + 1) % 3]));
  return d;
}
function insideTriangle(x: V3, t: V3[], n: V3): boolean {
  for (let i = 0; i < 3; i++) {
    if (dot(cross(sub(t[(i + 1) % 3], t[i]), sub(x, t[i])), n) < 0) return false;
  }
  return true;
}

/** A compound's child in the compound's frame (the compound's rotation applied, origin at its position). */
type Child =
  | { kind: "sphere"; c: V3; r: number }
  | { kind: "capsule"; a: V3; b: V3; r: number }
  | { kind: "box"; c: V3; m: [V3, V3, V3]; h: V3 }
  | { kind: "cylinder" | "cone"; c: V3; m: [V3, V3, V3]; hh: number; r: number };

/** The children of compound JSON `j` posed in its frame, rotation included (origin at its position). */
function children(j: J): Child[] {
  const rc = quatMatrix(j.rotation as number[] | undefined);
  return (j.children as J[]).map((ch) => {
    const rch = mulMM(rc, quatMatrix(ch.rotation as number[] | undefined));
    const at = mulMV(rc, (ch.position as V3) ?? [0, 0, 0]);
    const s = ch.shape as J;
    if (s.type === "sphere") {
      return { kind: "sphere", c: add(at, mulMV(rch, s.center as V3)), r: s.radius as number };
    }
    if (s.type === "capsule") {
      return {
        kind: "capsule",
        a: add(at, mulMV(rch, s.a as V3)),
        b: add(at, mulMV(rch, s.b as V3)),
        r: s.radius as number,
      };
    }
    const rs = quatMatrix(s.rotation as number[] | undefined);
    if (s.type === "cylinder" || s.type === "cone") {
      return {
        kind: s.type,
        c: add(at, mulMV(rch, s.center as V3)),
        m: mulMM(rch, rs),
        hh: s.halfHeight as number,
        r: s.radius as number,
      };
    }
    return {
      kind: "box",
      c: add(at, mulMV(rch, s.center as V3)),
      m: mulMM(rch, rs),
      h: s.halfExtents as V3,
    };
  });
}

type Box = { c: V3; m: [V3, V3, V3]; h: V3 };
function boxCorners(b: Box): V3[] {
  const out: V3[] = [];
  for (const x of [-1, 1])
    for (const y of [-1, 1])
      for (const z of [-1, 1]) out.push(add(b.c, mulMV(b.m, [x * b.h[0], y * b.h[1], z * b.h[2]])));
  return out;
}
function pointBox(p: V3, b: Box): number {
  const d = sub(p, b.c);
  let s = 0;
  for (let i = 0; i < 3; i++) {
    const u = dot(d, b.m[i]);
    const e = Math.abs(u) - b.h[i];
    if (e > 0) s += e * e;
  }
  return Math.sqrt(s);
}
/** The axes' separation of two point sets (max over the axes; negative: the least overlap). */
function satSeparation(axes: V3[], pa: V3[], pb: V3[]): number {
  let best = -Infinity;
  for (const n0 of axes) {
    const l = norm(n0);
    if (!(l > 1e-12 * Math.max(...n0.map(Math.abs), 1e-300) * 3) || l === 0) continue;
    const n = scale(n0, 1 / l);
    let aMin = Infinity;
    let aMax = -Infinity;
    let bMin = Infinity;
    let bMax = -Infinity;
    for (const p of pa) {
      const x = dot(n, p);
      aMin = Math.min(aMin, x);
      aMax = Math.max(aMax, x);
    }
    for (const p of pb) {
      const x = dot(n, p);
      bMin = Math.min(bMin, x);
      bMax = Math.max(bMax, x);
    }
    best = Math.max(best, bMin - aMax, aMin - bMax);
  }
  return best;
}

/**
 * Signed separation of child `c` and triangle `t` (the child's frame): their distance when apart,
 * minus a penetration depth (the sphere's and capsule's radius less the core's distance; the
 * box's least overlap over the 13 separating axes) when they overlap. Convex under translation.
 */
function separation(c: Child, t: V3[]): number {
  if (c.kind === "sphere") return pointTriangle(c.c, t) - c.r;
  if (c.kind === "capsule") return segmentTriangle(c.a, c.b, t) - c.r;
  if (c.kind !== "box") throw new Error("a child kind the triangle oracle does not take");
  const corners = boxCorners(c);
  const edges = [sub(t[1], t[0]), sub(t[2], t[1]), sub(t[0], t[2])];
  const axes: V3[] = [c.m[0], c.m[1], c.m[2], cross(edges[0], edges[1])];
  for (const a of c.m) for (const e of edges) axes.push(cross(a, e));
  const sat = satSeparation(axes, corners, t);
  if (sat <= 0) return sat;
  let d = Infinity;
  for (const p of corners) d = Math.min(d, pointTriangle(p, t));
  for (const p of t) d = Math.min(d, pointBox(p, c));
  for (let i = 0; i < 8; i++) {
    for (const k of [1, 2, 4]) {
      if (i & k) continue;
      for (let e = 0; e < 3; e++)
        d = Math.min(d, segmentSegmentDistance(corners[i], corners[i | k], t[e], t[(e + 1) % 3]));
    }
  }
  return d;
}

/** Least value of convex f over [lo, hi] and where (ternary search). */
function convexMin(f: (t: number) => number, lo: number, hi: number): [number, number] {
  let a = lo;
  let b = hi;
  for (let i = 0; i < 200 && b - a > 1e-17 * hi; i++) {
    const m1 = a + (b - a) / 3;
    const m2 = b - (b - a) / 3;
    if (f(m1) < f(m2)) b = m2;
    else a = m1;
  }
  const t = 0.5 * (a + b);
  const candidates: [number, number][] = [
    [f(lo), lo],
    [f(t), t],
    [f(hi), hi],
  ];
  return candidates.reduce((x, y) => (y[0] < x[0] ? y : x));
}

/**
 * The oracle of a compound (JSON `comp`, position removed) against triangle `tri` (corners in the
 * compound's frame) moving by `w` (relative to the compound) over [0, T]: each child's least
 * signed separation over [0, T], over [0, toi], and at toi.
 */
function compoundTriangle(comp: J, tri: V3[], w: V3) {
  const kids = children(comp);
  const at = (c: Child, t: number) =>
    separation(
      c,
      tri.map((p) => add(p, scale(w, t))),
    );
  return {
    least: (lo: number, hi: number) =>
      Math.min(...kids.map((c) => convexMin((t) => at(c, t), lo, hi)[0])),
    at: (t: number) => Math.min(...kids.map((c) => at(c, t))),
  };
}

/** The castShapes bar of docs/FORMATS.md for shapes of radii rA, rB, centres `span` apart. */
function castBar(rA: number, rB: number, span: number, speed: number, toi: number): number {
  const s = Math.min(rA, rB);
  const L = Math.max(rA, rB, span);
  return 16 * (1e-9 * s + 64 * EPS * L) + 64 * EPS * speed * toi;
}

describe("castShapes: a graze within the bar and a far half-space (issue 16)", () => {
  replayCases(loadCases("./cast-graze.cases.json"), 2);

  it("the recorded box child never touches the triangle; the sphere child meets it at the answer", () => {
    const c = loadCases("./cast-graze.cases.json")[0];
    const line = {
      op: "castShapes",
      a: c.scenario.worldA,
      velocityA: c.scenario.velocityA,
      b: c.scenario.worldB,
      velocityB: c.scenario.velocityB,
      maxToi: c.scenario.maxToi,
    };
    const comp = line.a as J;
    const o = comp.position as V3;
    const wt = line.b as J;
    // The triangle's corners less the compound's position: exact (Sterbenz, both near 2.5e7).
    const tri = (["a", "b", "c"] as const).map((k) => sub(wt[k] as V3, o));
    const w = sub(line.velocityB as V3, line.velocityA as V3);
    const [box, sphere] = children({ ...comp, position: [0, 0, 0] });
    if (box.kind !== "box" || sphere.kind !== "sphere") throw new Error("recorded children");
    const corners = boxCorners(box);
    // Along a fixed axis n (oriented to separate at t = 0) the separation of the triangle from
    // the box, min n·(p + w·t) − max n·q, is linear in t: s0 + (n·w)·t.
    const e = sub(tri[2], tri[1]);
    const line0 = (axis: V3): [number, number] => {
      const n = scale(axis, 1 / norm(axis));
      const up =
        Math.min(...tri.map((p) => dot(n, p))) - Math.max(...corners.map((q) => dot(n, q)));
      const down =
        Math.min(...corners.map((q) => dot(n, q))) - Math.max(...tri.map((p) => dot(n, p)));
      return up >= down ? [up, dot(n, w)] : [down, -dot(n, w)];
    };
    const [s5, k5] = line0(cross(box.m[0], e));
    const [s11, k11] = line0(cross(box.m[2], e));
    expect(Math.min(s5, s11)).toBeGreaterThan(0);
    expect(k5).toBeGreaterThan(0);
    expect(k11).toBeLessThan(0);
    // The larger of the two is least where they cross: at least 9.4e-10 for every t ≥ 0.
    const tx = (s11 - s5) / (k5 - k11);
    expect(tx).toBeGreaterThan(0);
    const least = s5 + k5 * tx;
    expect(least).toBeGreaterThan(9.4e-10);
    expect(least).toBeLessThan(9.5e-10);
    // The sphere child's gap falls to 0 at the answer (a convex function of t, positive before).
    const hit = answerQuery(line) as Hit;
    expect(hit).not.toBeNull();
    const toi = (hit as { toi: number }).toi;
    const gap = (t: number) =>
      separation(
        sphere,
        tri.map((p) => add(p, scale(w, t))),
      );
    expect(Math.abs(gap(toi))).toBeLessThan(1e-12);
    expect(gap(toi * (1 - 1e-9))).toBeGreaterThan(0);
    expect(
      convexMin(
        (t) =>
          separation(
            box,
            tri.map((p) => add(p, scale(w, t))),
          ),
        0,
        toi,
      )[0],
    ).toBeGreaterThan(9e-10);
  });

  it("the recorded half-space line: toi the least gap over the closing speed", () => {
    const c = loadCases("./cast-graze.cases.json")[1];
    const h = c.scenario.worldA as J;
    const comp = c.scenario.worldB as J;
    const w = sub(c.scenario.velocityB as V3, c.scenario.velocityA as V3);
    const { gap, mu } = halfSpaceGap(h, comp, w);
    const expected = gap / mu;
    const hit = answerQuery({
      op: "castShapes",
      a: h,
      velocityA: c.scenario.velocityA,
      b: comp,
      velocityB: c.scenario.velocityB,
      maxToi: c.scenario.maxToi,
    }) as Hit;
    expect(hit).not.toBeNull();
    // 3.99422901826663e-17 by 60-digit arithmetic; the bar 1.1e-13 over μ = 2505 is 4.4e-17.
    expect(Math.abs((hit as { toi: number }).toi - expected) * mu).toBeLessThan(1e-20);
    expect(Math.abs(expected - 3.99422901826663e-17)).toBeLessThan(1e-23);
  });

  it("property: a compound of boxes, spheres and capsules cast against a triangle, sizes 1e-6..1e6, offsets to 1e9, both orders", () => {
    const unit = UNIT;
    const v3 = fc.tuple(unit, unit, unit);
    const quat = unitQuatArrayOf(unit);
    const child = fc.record({
      kind: fc.constantFrom("box", "sphere", "capsule"),
      at: v3,
      size: v3,
      rot: quat,
    });
    fc.assert(
      fc.property(
        fc.array(child, { minLength: 1, maxLength: 3 }),
        quat,
        // A triangle, not a segment or a point (those are refused or answered as the others).
        fc.tuple(v3, v3, v3).filter(([p, q, r]) => norm(cross(sub(q, p), sub(r, p))) > 0.05),
        v3.filter((d) => norm(d) > 0.1),
        v3,
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -1, max: 30 }),
        v3,
        fc.boolean(),
        (kids, rot, corners, from, aim, e, offExp, offDir, flip) => {
          const S = 2 ** e;
          const comp: J = {
            type: "compound",
            children: kids.map((k) => compoundChild(k, S)),
            rotation: rot,
          };
          const O = (offExp < 0 ? [0, 0, 0] : offDir.map((x) => x * 2 ** offExp)) as V3;
          // The triangle starts 5S from the compound's origin (apart: the children reach 2.8S, its
          // corners 1.8S from its start) and moves toward a point within 2S of it.
          const start = scale(from, (5 * S) / norm(from));
          const triLocal = corners.map((p) => add(start, scale(p, S))) as V3[];
          const triWorld = triLocal.map((p) => add(p, O)) as V3[];
          const tri = triWorld.map((p) => sub(p, O)) as V3[];
          const target = scale(aim, S);
          const w = scale(sub(target, start), 1.5);
          const a: J = { ...comp, position: O };
          const b: J = { type: "triangle", a: triWorld[0], b: triWorld[1], c: triWorld[2] };
          const line = flip
            ? { op: "castShapes", a: b, velocityA: w, b: a, velocityB: [0, 0, 0], maxToi: 1 }
            : { op: "castShapes", a, velocityA: [0, 0, 0], b, velocityB: w, maxToi: 1 };
          const hit = answerQuery(line) as Hit;
          const oracle = compoundTriangle(comp, tri, w);
          const rC = compoundRadius(comp);
          const rT = Math.max(...tri.map((p) => norm(sub(p, tri[0]))));
          const speed = norm(w);
          if (hit === null) {
            // Never deeper than the bar over the whole motion (a graze within it may miss).
            expect(oracle.least(0, 1)).toBeGreaterThanOrEqual(-castBar(rC, rT, 5 * S, speed, 1));
            return;
          }
          const bar = castBar(rC, rT, 5 * S, speed, hit.toi);
          expect(hit.toi).toBeGreaterThanOrEqual(0);
          expect(hit.toi).toBeLessThanOrEqual(1);
          // In contact at toi (within the bar), and never deeper than the bar before it (toi 0:
          // touching at the start, any depth).
          expect(oracle.at(hit.toi)).toBeLessThanOrEqual(bar);
          if (hit.toi > 0) expect(oracle.least(0, hit.toi)).toBeGreaterThanOrEqual(-bar);
        },
      ),
      { numRuns: 100, seed: 1624 },
    );
  });

  it("property: a compound cast against a half-space far from the origin, sizes 1e-6..1e6, offsets to 1e9, both orders", () => {
    const unit = UNIT;
    const v3 = fc.tuple(unit, unit, unit);
    const quat = unitQuatArrayOf(unit);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom("box", "sphere", "capsule"),
            at: v3,
            size: v3,
            rot: quat,
          }),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        quat,
        v3.filter((n) => norm(n) > 0.1),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 0, max: 30 }),
        v3,
        UNIT.map((x) => 3.5 + 4.5 * x),
        v3,
        fc.boolean(),
        (kids, rot, n0, e, offExp, offDir, gapS, drift, flip) => {
          const S = 2 ** e;
          const comp: J = {
            type: "compound",
            children: kids.map((k) => compoundChild(k, S)),
            rotation: rot,
            position: offDir.map((x) => x * 2 ** offExp),
          };
          const n = scale(n0, 1 / norm(n0));
          const P = comp.position as V3;
          // The plane about 3.5S below the compound's origin along n (its offset rounded at |P|;
          // the children reach 2.8S), the compound moving toward it at up to 8S per second, with
          // a drift (or away from it).
          const h: J = { type: "halfspace", normal: n, offset: dot(n, P) - 3.5 * S };
          const w = add(scale(n, -S * gapS), scale(drift, 0.5 * S));
          const { gap, mu } = halfSpaceGap(h, comp, w);
          const line = flip
            ? { op: "castShapes", a: comp, velocityA: w, b: h, velocityB: [0, 0, 0], maxToi: 1 }
            : { op: "castShapes", a: h, velocityA: [0, 0, 0], b: comp, velocityB: w, maxToi: 1 };
          const hit = answerQuery(line) as Hit;
          const rC = compoundRadius(comp);
          const bar = castBar(rC, rC, 0, norm(w), 1);
          if (gap <= -bar) {
            expect(hit?.toi).toBe(0);
          } else if (gap <= bar) {
            if (hit !== null) expect(hit.toi * Math.max(mu, 0)).toBeLessThanOrEqual(2 * bar);
          } else if (mu > 0 && gap - mu < -bar) {
            expect(hit).not.toBeNull();
            expect(Math.abs((hit as { toi: number }).toi * mu - gap)).toBeLessThanOrEqual(bar);
          } else if (!(mu > 0) || gap - mu > bar) {
            expect(hit).toBeNull();
          }
        },
      ),
      { numRuns: 200, seed: 1625 },
    );
  });
});

/** The largest distance of a compound's point from its origin (its children's reach). */
function compoundRadius(comp: J): number {
  const reach = (c: Child): number => {
    if (c.kind === "box") return norm(c.c) + norm(c.h);
    if (c.kind === "sphere") return norm(c.c) + c.r;
    if (c.kind === "capsule") return Math.max(norm(c.a), norm(c.b)) + c.r;
    return norm(c.c) + Math.hypot(c.hh, c.r);
  };
  return Math.max(...children({ ...comp, position: [0, 0, 0] }).map(reach));
}

/** A double as an exact rational m·2^e (m a BigInt). */
function exactOf(x: number): [bigint, number] {
  if (x === 0) return [0n, 0];
  let e = 0;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  return [BigInt(m), e];
}

/** n·p − o in exact rational arithmetic, rounded to a double. */
function exactPlaneGap(n: V3, p: V3, o: number): number {
  const terms: [bigint, number][] = [];
  for (let i = 0; i < 3; i++) {
    const [a, ea] = exactOf(n[i]);
    const [b, eb] = exactOf(p[i]);
    terms.push([a * b, ea + eb]);
  }
  const [m, eo] = exactOf(o);
  terms.push([-m, eo]);
  const e = Math.min(...terms.map((t) => t[1]));
  let sum = 0n;
  for (const [t, et] of terms) sum += t * 2n ** BigInt(et - e);
  // Keep ~64 significant bits before the conversion (no overflow of Number(sum)).
  let shift = 0;
  const bits = sum.toString(2).length;
  if (bits > 64) {
    shift = bits - 64;
    sum /= 2n ** BigInt(shift);
  }
  return Number(sum) * 2 ** (e + shift);
}

/**
 * Gap at time 0 of compound `comp` (JSON, at its position) and half-space `h` (its normal as
 * given), the children's least, the plane's offset from the compound's origin exact; and the
 * closing speed μ = −w·n of the compound moving by w.
 */
function halfSpaceGap(h: J, comp: J, w: V3): { gap: number; mu: number } {
  const n = h.normal as V3;
  const base = exactPlaneGap(n, comp.position as V3, h.offset as number);
  let least = Infinity;
  for (const c of children({ ...comp, position: [0, 0, 0] })) {
    let g: number;
    if (c.kind === "sphere") g = dot(n, c.c) - c.r * norm(n);
    else if (c.kind === "capsule") g = Math.min(dot(n, c.a), dot(n, c.b)) - c.r * norm(n);
    else if (c.kind === "box") {
      g = dot(n, c.c);
      for (let i = 0; i < 3; i++) g -= Math.abs(dot(n, c.m[i])) * c.h[i];
    } else {
      // Axis u (local y): the rim's least n·x is n·centre − r·|n across u|; the cone's apex at +hh.
      const nu = dot(n, c.m[1]);
      const across = norm(sub(n, scale(c.m[1], nu)));
      g =
        c.kind === "cylinder"
          ? dot(n, c.c) - c.hh * Math.abs(nu) - c.r * across
          : dot(n, c.c) + Math.min(c.hh * nu, -c.hh * nu - c.r * across);
    }
    least = Math.min(least, g);
  }
  return { gap: base + least, mu: -dot(w, n) };
}

/** A child of the compounds below: a box, sphere or capsule of size S·(0.2..0.6) at S·at. */
function compoundChild(k: { kind: string; at: V3; size: V3; rot: number[] }, S: number): J {
  const size = k.size.map((x) => S * (0.2 + 0.4 * Math.abs(x))) as V3;
  const position = k.at.map((x) => S * x);
  if (k.kind === "box")
    return {
      shape: { type: "box", center: [0, 0, 0], halfExtents: size, rotation: k.rot },
      position,
    };
  if (k.kind === "sphere")
    return {
      shape: { type: "sphere", center: [0, 0, 0], radius: size[0] },
      position,
      rotation: k.rot,
    };
  return {
    shape: { type: "capsule", a: [0, -size[1], 0], b: [0, size[1], 0], radius: size[0] },
    position,
    rotation: k.rot,
  };
}
