/**
 * Issue 16, a fresh-user attack's F-C: a sphere touching a rounded box tilted 2^-26 rad at an
 * offset of 3.7e8 got a normal 1.7e-8 rad off (its separation along it 6.65e-9 for a distance of
 * 9.67e-9; exact at offset 0). The pair had no routine of its own and went through GJK/EPA on
 * the swept shapes. Fixed in src/narrowphase/sphere-rounded.ts: the sphere's centre against the
 * core box or hull by the plain pairs' closed forms, the radii summed.
 *
 * Oracle, written without the library: the sphere's centre in the box's frame exactly, from the
 * input doubles (BigInt dyadics, test/fuzz/exact.ts): p = Rᵀ(c_A − c_B) with R = M(q)/|q|², M
 * the quaternion's matrix without its normalisation (quadratic in q, so exact in rationals);
 * then the distance from p to the core box (the clamp's excess, or the nearest face inside)
 * less the two radii. For the recorded line the centre is under the −z face, so the truth is
 * rational: −p_z − h_z − r_S − r_B, and the normal R·(0, 0, 1) (M's third column over |q|²),
 * which agrees with mpmath's 9.66795174e-9.
 *
 * The property generates the class: a sphere against a rounded box and a rounded hull (the box's
 * eight corners as its points), tilted 2^-5..2^-45 rad about a random axis, the centre over a
 * face, an edge or a corner or inside the core, touching, ±1e-9 relative, deep or apart, sizes
 * 1e-6..1e6, offsets to 1e9, both orders: the distance exact to 1e-9 of the sizes, the normal
 * achieving it (the separation of the shapes along it), the witnesses on the shapes and facing,
 * the swapped order the same answer mirrored, and intersects, distance and contact agreeing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { makeRoundedCuboid } from "../../src/shapes/rounded.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld, makeWorldContact } from "../../src/world/index.js";
import { unitArb } from "./arbitraries.js";
import type { ContactAnswer } from "./contact-checks.js";
import { type Dy, dadd, dmul, dsub, dy } from "./exact.js";
import { exactOffset } from "./generate.js";
import { add, dot, norm, scale, sub, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;
/** `contact`'s answer with its error bound. */
interface Answer extends ContactAnswer {
  errorBound: number;
}

/** A dyadic to the nearest double (its mantissa cut to 60 bits first). */
function toNum(a: Dy): number {
  let m = a.m;
  let e = a.e;
  const bits = (m < 0n ? -m : m).toString(2).length;
  if (bits > 60) {
    const k = bits - 60;
    m >>= BigInt(k);
    e += k;
  }
  return Number(m) * 2 ** e;
}

/**
 * The quaternion's matrix without normalisation (M = |q|² R) and |q|², exactly: q = [x, y, z, w].
 */
function quatM(q: readonly number[]): { m: Dy[][]; s: Dy } {
  const [x, y, z, w] = q.map(dy);
  const two = dy(2);
  const sq = (a: Dy) => dmul(a, a);
  const p = (a: Dy, b: Dy) => dmul(two, dmul(a, b));
  const xx = sq(x);
  const yy = sq(y);
  const zz = sq(z);
  const ww = sq(w);
  return {
    m: [
      [dsub(dsub(dadd(ww, xx), yy), zz), dsub(p(x, y), p(z, w)), dadd(p(x, z), p(y, w))],
      [dadd(p(x, y), p(z, w)), dsub(dsub(dadd(ww, yy), xx), zz), dsub(p(y, z), p(x, w))],
      [dsub(p(x, z), p(y, w)), dadd(p(y, z), p(x, w)), dsub(dsub(dadd(ww, zz), xx), yy)],
    ],
    s: dadd(dadd(xx, yy), dadd(zz, ww)),
  };
}

/** Point `c` (world) in the frame of a box at `centre` rotated by `q`, exactly then rounded. */
function inBoxFrame(c: readonly number[], centre: readonly number[], q: readonly number[]): V {
  const { m, s } = quatM(q);
  const d = [0, 1, 2].map((i) => dsub(dy(c[i]), dy(centre[i])));
  const sn = toNum(s);
  return [0, 1, 2].map((i) => {
    let acc = dmul(m[0][i], d[0]);
    acc = dadd(acc, dmul(m[1][i], d[1]));
    acc = dadd(acc, dmul(m[2][i], d[2]));
    return toNum(acc) / sn;
  }) as V;
}

/** Rᵀ v for the normalised rotation of q (doubles: a direction, rounding relative to it). */
function unrotateQ(q: readonly number[], v: V): V {
  const { m, s } = quatM(q);
  const sn = toNum(s);
  return [0, 1, 2].map(
    (i) => (toNum(m[0][i]) * v[0] + toNum(m[1][i]) * v[1] + toNum(m[2][i]) * v[2]) / sn,
  ) as V;
}

/** Signed distance from local point p to the box of half extents h. */
function boxSigned(p: V, h: V): number {
  const e = [0, 1, 2].map((i) => Math.max(Math.abs(p[i]) - h[i], 0));
  const out = Math.hypot(e[0], e[1], e[2]);
  if (out > 0) return out;
  return -Math.min(h[0] - Math.abs(p[0]), h[1] - Math.abs(p[1]), h[2] - Math.abs(p[2]));
}

const ulp = (x: number) => (x === 0 ? 0 : 2 ** (Math.floor(Math.log2(Math.abs(x))) - 52));

const LINE = {
  a: {
    type: "sphere",
    center: [372460692.3683662, -186230346.1841831, 93115173.09209155],
    radius: 0.2534749899140663,
  },
  b: {
    type: "roundedBox",
    center: [372460692.3683662, -186230346.1841831, 93115173.5242266],
    halfExtents: [0.16959563391031393, 0.10820483403462057, 0.16002273356213623],
    radius: 0.0186373272854185,
    rotation: [
      -1.3774106342345131e-8, -1.1912450244273466e-8, 5.675456988162251e-8, 0.9999999999999982,
    ],
  },
};

/**
 * The checks of one sphere (`a`) – rounded box or hull (`b`, its core the box of half extents
 * `h`, radius `rB`, at `cB` rotated by `q`) pair against the exact truth; returns the truth.
 */
function checkPair(a: J, b: J, h: V, rB: number, cB: V, q: number[]): number {
  const cA = a.center as V;
  const rS = a.radius as number;
  const p = inBoxFrame(cA, cB, q);
  const truth = boxSigned(p, h) - rS - rB;
  const size = Math.max(rS, rB + Math.max(...h));
  const bar = 1e-9 * size;
  // Witnesses are written in world coordinates: rounded to the offset's ulp.
  const wbar = bar + 4 * ulp(Math.max(...cB.map(Math.abs), ...cA.map(Math.abs)));
  const r = answerQuery({ op: "contact", a, b, prediction: 2 * size }) as Answer | null;
  if (truth > 2 * size) {
    expect(r).toBeNull();
    return truth;
  }
  expect(r).not.toBeNull();
  const c = r as Answer;
  expect(Math.abs(c.distance - truth)).toBeLessThanOrEqual(bar);
  expect(Math.abs(norm(c.normal) - 1)).toBeLessThanOrEqual(1e-12);
  // The normal achieves the distance: the separation of the shapes along it (A → B).
  const nl = unrotateQ(q, c.normal);
  const sep =
    -dot(p, nl) -
    rS -
    (h[0] * Math.abs(nl[0]) + h[1] * Math.abs(nl[1]) + h[2] * Math.abs(nl[2])) -
    rB;
  expect(Math.abs(sep - truth)).toBeLessThanOrEqual(bar);
  // Witnesses on their shapes (differences with the centres exact: Sterbenz) and facing.
  expect(Math.abs(norm(sub(c.pointA, cA)) - rS)).toBeLessThanOrEqual(wbar);
  const pbl = unrotateQ(q, sub(c.pointB, cB));
  expect(Math.abs(boxSigned(pbl, h) - rB)).toBeLessThanOrEqual(wbar);
  const gapV = sub(sub(c.pointB, c.pointA), scale(c.normal, c.distance));
  expect(norm(gapV)).toBeLessThanOrEqual(2 * wbar);
  // The other order: the same answer mirrored.
  const s = answerQuery({ op: "contact", a: b, b: a, prediction: 2 * size }) as Answer;
  expect(s).not.toBeNull();
  expect(s.distance).toBe(c.distance);
  // (Equal as numbers: a zero may change its sign.)
  const same = (x: V, y: V) => x.every((v, i) => v === y[i]);
  expect(same(s.normal, scale(c.normal, -1))).toBe(true);
  expect(same(s.pointA, c.pointB)).toBe(true);
  expect(same(s.pointB, c.pointA)).toBe(true);
  // intersects ⇔ distance 0 ⇔ contact at prediction 0.
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    const hit = (answerQuery({ op: "intersects", a: x, b: y }) as { intersects: boolean })
      .intersects;
    const d = (answerQuery({ op: "distance", a: x, b: y }) as { distance: number }).distance;
    expect(hit).toBe(c.distance <= 0);
    expect(d === 0).toBe(hit);
    expect(Math.abs(d - Math.max(truth, 0))).toBeLessThanOrEqual(bar);
  }
  return truth;
}

describe("sphere against a rounded box or hull (issue 16, F-C)", () => {
  it("the recorded line: the distance and the box's rotated face normal, exactly", () => {
    const r = answerQuery({ op: "contact", ...LINE, prediction: 1 }) as Answer;
    const q = LINE.b.rotation;
    const p = inBoxFrame(LINE.a.center, LINE.b.center, q);
    const h = LINE.b.halfExtents as V;
    // Under the −z face (|p_x| < h_x, |p_y| < h_y): the truth is rational.
    expect(Math.abs(p[0])).toBeLessThan(h[0]);
    expect(Math.abs(p[1])).toBeLessThan(h[1]);
    const truth = -p[2] - h[2] - LINE.a.radius - LINE.b.radius;
    expect(Math.abs(truth - 9.66795174e-9)).toBeLessThan(1e-16);
    expect(Math.abs(r.distance - truth)).toBeLessThanOrEqual(1e-15);
    const { m, s } = quatM(q);
    const sn = toNum(s);
    const n: V = [toNum(m[0][2]) / sn, toNum(m[1][2]) / sn, toNum(m[2][2]) / sn];
    expect(norm(sub(r.normal, n))).toBeLessThanOrEqual(1e-15);
    expect(r.errorBound).toBeLessThanOrEqual(1e-15);
    checkPair(LINE.a, LINE.b, h, LINE.b.radius, LINE.b.center as V, q);
  });

  it("the line's pair as a compound's child reaches the same routine", () => {
    const { center, ...box } = LINE.b;
    const compound = {
      type: "compound",
      position: center,
      children: [{ shape: { ...box, center: [0, 0, 0] }, position: [0, 0, 0] }],
    };
    const r = answerQuery({ op: "contact", a: LINE.a, b: compound, prediction: 1 }) as Answer;
    const direct = answerQuery({ op: "contact", ...LINE, prediction: 1 }) as Answer;
    expect(Math.abs(r.distance - direct.distance)).toBeLessThanOrEqual(1e-15);
    expect(norm(sub(r.normal, direct.normal))).toBeLessThanOrEqual(1e-14);
    const s = answerQuery({ op: "contact", a: compound, b: LINE.a, prediction: 1 }) as Answer;
    expect(Math.abs(s.distance - direct.distance)).toBeLessThanOrEqual(1e-15);
    expect(norm(add(s.normal, direct.normal))).toBeLessThanOrEqual(1e-14);
  });

  it("the line's pair in the world: the same contact, in either insertion order", () => {
    const direct = answerQuery({ op: "contact", ...LINE, prediction: 1 }) as Answer;
    const [hx, hy, hz] = LINE.b.halfExtents;
    const [qx, qy, qz, qw] = LINE.b.rotation;
    const sphere = makeSphere(LINE.a.radius);
    const box = makeRoundedCuboid({ x: hx, y: hy, z: hz }, LINE.b.radius);
    const at = (c: number[], q = { x: 0, y: 0, z: 0, w: 1 }) => ({
      translation: { x: c[0], y: c[1], z: c[2] },
      rotation: q,
    });
    for (const sphereFirst of [true, false]) {
      const w = new CollisionWorld({ broadphase: "brute", prediction: 1e-3 });
      const bs = { shape: sphere, pose: at(LINE.a.center) };
      const bb = { shape: box, pose: at(LINE.b.center, { x: qx, y: qy, z: qz, w: qw }) };
      const hs = sphereFirst ? w.addBody(bs) : undefined;
      w.addBody(bb);
      const hs2 = sphereFirst ? hs : w.addBody(bs);
      w.step();
      expect(w.contactCount).toBe(1);
      const c = makeWorldContact();
      w.readContact(0, c);
      const sign = c.a === hs2 ? 1 : -1;
      const m = c.manifold;
      expect(m.count).toBe(1);
      expect(Math.abs(m.points[0].distance - direct.distance)).toBeLessThanOrEqual(1e-15);
      const n: V = [m.normal.x * sign, m.normal.y * sign, m.normal.z * sign];
      expect(norm(sub(n, direct.normal))).toBeLessThanOrEqual(1e-15);
    }
  });

  it("property: tilted rounded boxes and hulls, every feature and gap, sizes and offsets", () => {
    const feature = fc.constantFrom("face", "edge", "corner", "inside", "faceCentre");
    const gapKind = fc.constantFrom("touch", "plus", "minus", "deep", "apart");
    fc.assert(
      fc.property(
        fc.integer({ min: -6, max: 6 }),
        fc.tuple(
          fc.double({ min: 0.2, max: 1, noNaN: true }),
          fc.double({ min: 0.2, max: 1, noNaN: true }),
          fc.double({ min: 0.2, max: 1, noNaN: true }),
        ),
        fc.constantFrom(0, 1e-3, 0.05, 0.3),
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        fc.integer({ min: 5, max: 45 }),
        unitArb,
        feature,
        gapKind,
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        fc.tuple(unitArb, fc.constantFrom(0, 1, 1e3, 1e6, 3.7e8, 1e9)),
        fc.boolean(),
        (k, hf, rf, sf, tiltBits, axis, feat, gk, sel, [ou, om], hull) => {
          const s = 10 ** k;
          const h = hf.map((x) => x * s) as V;
          const rB = rf * s;
          const rS = sf * s;
          const th = 2 ** -tiltBits;
          const q = [...axis.map((x) => x * Math.sin(th / 2)), Math.cos(th / 2)];
          // The core's feature point and the outward direction there (the box's frame).
          const sg = sel.map((x) => (x < 0 ? -1 : 1));
          let f: V;
          let u: V;
          if (feat === "inside") {
            f = sel.map((x, i) => 0.9 * x * h[i]) as V;
            u = [0, 0, 0];
          } else {
            const ax = Math.floor(Math.abs(sel[0] * 2.999));
            const on = (i: number): boolean =>
              feat === "corner" || i === ax || (feat === "edge" && i === (ax + 1) % 3);
            f = [0, 1, 2].map((i) =>
              on(i) ? sg[i] * h[i] : feat === "faceCentre" ? 0 : 0.8 * sel[i] * h[i],
            ) as V;
            const w = [0, 1, 2].map((i) => (on(i) ? sg[i] * (0.3 + Math.abs(sel[i])) : 0));
            const l = Math.hypot(w[0], w[1], w[2]);
            u = w.map((x) => x / l) as V;
          }
          const reach = rS + rB;
          const g =
            gk === "touch"
              ? 0
              : gk === "plus"
                ? 1e-9 * s
                : gk === "minus"
                  ? -1e-9 * s
                  : gk === "deep"
                    ? -0.4 * Math.min(reach, s)
                    : 0.5 * s;
          const local = feat === "inside" ? f : add(f, scale(u, reach + g));
          const off = exactOffset(ou, om);
          const cB = off as V;
          const { m, s: qs } = quatM(q);
          const sn = toNum(qs);
          const world: V = [0, 1, 2].map(
            (i) =>
              off[i] +
              (toNum(m[i][0]) * local[0] + toNum(m[i][1]) * local[1] + toNum(m[i][2]) * local[2]) /
                sn,
          ) as V;
          const a: J = { type: "sphere", center: world, radius: rS };
          const b: J = hull
            ? {
                type: "roundedConvex",
                points: [-1, 1].flatMap((x) =>
                  [-1, 1].flatMap((y) => [-1, 1].map((z) => [x * h[0], y * h[1], z * h[2]])),
                ),
                radius: rB,
                position: cB,
                rotation: q,
              }
            : { type: "roundedBox", center: cB, halfExtents: h, radius: rB, rotation: q };
          checkPair(a, b, h, rB, cB, q);
        },
      ),
      { numRuns: 1500, seed: 16031 },
    );
  });
});
