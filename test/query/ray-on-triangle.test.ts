/**
 * A ray from on or next to a triangle, grazing its plane, answers the same — bit for bit — as a
 * bare `triangle`, a one-triangle `mesh`, a `compound` holding it and a larger mesh holding it
 * (issue 16, attack 29 G3: a ray whose origin lay on a triangle 4e-7 from its diagonal, sloping
 * 1e-12 out of its plane, hit the triangle and the compound at toi 1.75e-24 and missed the
 * mesh: two copies of the watertight shear test whose rounded time of impact came out +1.75e-24
 * in one and −4.0e-26 in the other; now one exact routine, `rayTriangleHit` in
 * src/geometry/ray-primitives.ts).
 *
 * Oracle: exact rational arithmetic on the input doubles (test/fuzz/exact.ts). The line o + t·d
 * meets the closed triangle abc when the signed volumes ((p − o) × (q − o))·d of its three edges
 * share a sign or are 0, not all 0; the time of impact t = n·(a − o) / n·d, n = (b − a) × (c − a),
 * is a hit when t ≥ 0; n·d = 0 (a ray parallel to the plane) is a miss for a surface.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { type RayHit, raycast } from "../../src/query/raycast.js";
import { makeCompound, makeTriangle, makeTriangleMesh } from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { type Dy, dadd, dcmp, dmul, dneg, dsign, dsub, dy } from "../fuzz/exact.js";

type V3 = [number, number, number];

const v = (a: readonly number[]): Vec3 => vec3.create(a[0], a[1], a[2]);
const ID = iso.identity();

/** The three containers of triangle abc: bare, a one-triangle mesh, a compound's child. */
function containers(a: V3, b: V3, c: V3): [string, Shape][] {
  const tri = makeTriangle(v(a), v(b), v(c));
  return [
    ["triangle", tri],
    ["mesh", makeTriangleMesh([...a, ...b, ...c], [0, 1, 2])],
    ["compound", makeCompound([{ shape: tri, pose: iso.identity() }])],
  ];
}

/** The hit as plain numbers (null on a miss), compared with Object.is (−0 ≠ +0). */
function flat(h: RayHit | null): number[] | null {
  return h === null
    ? null
    : [h.toi, h.point.x, h.point.y, h.point.z, h.normal.x, h.normal.y, h.normal.z];
}

function sameBits(x: number[] | null, y: number[] | null): boolean {
  if (x === null || y === null) return x === y;
  return x.every((e, i) => Object.is(e, y[i]));
}

const D = (p: readonly number[]): Dy[] => [dy(p[0]), dy(p[1]), dy(p[2])];
const sub3 = (p: Dy[], q: Dy[]): Dy[] => [dsub(p[0], q[0]), dsub(p[1], q[1]), dsub(p[2], q[2])];
const cross3 = (p: Dy[], q: Dy[]): Dy[] => [
  dsub(dmul(p[1], q[2]), dmul(p[2], q[1])),
  dsub(dmul(p[2], q[0]), dmul(p[0], q[2])),
  dsub(dmul(p[0], q[1]), dmul(p[1], q[0])),
];
const dot3 = (p: Dy[], q: Dy[]): Dy =>
  dadd(dadd(dmul(p[0], q[0]), dmul(p[1], q[1])), dmul(p[2], q[2]));

/** The exact answer: null (a miss) or t = num/den ≥ 0 as the pair [num, den]. */
function exactRay(a: V3, b: V3, c: V3, o: V3, d: V3): [Dy, Dy] | null {
  const [A, B, C, O, Dd] = [D(a), D(b), D(c), D(o), D(d)];
  const side = (p: Dy[], q: Dy[]) => dsign(dot3(cross3(sub3(p, O), sub3(q, O)), Dd));
  const s = [side(B, C), side(C, A), side(A, B)];
  if (s.some((x) => x > 0) && s.some((x) => x < 0)) return null;
  const n = cross3(sub3(B, A), sub3(C, A));
  const den = dot3(n, Dd);
  if (dsign(den) === 0) return null;
  const num = dot3(n, sub3(A, O));
  if (dsign(num) * dsign(den) < 0) return null;
  return [num, den];
}

/** |toi·den − num| ≤ 2^-40·|num| exactly (toi within a few ulps of num/den), or both 0. */
function toiMatches(toi: number, [num, den]: [Dy, Dy]): boolean {
  if (dsign(num) === 0) return toi === 0;
  const err = dsub(dmul(dy(toi), den), num);
  const abs = (x: Dy) => (dsign(x) < 0 ? dneg(x) : x);
  return dcmp(dmul(abs(err), dy(2 ** 40)), abs(num)) <= 0;
}

describe("raycast from on or next to a triangle: one exact answer in every container", () => {
  it("attack 29 G3: origin on the triangle, ray 1e-12 out of its plane: toi 0 in all three", () => {
    const a: V3 = [0, 0, 0];
    const b: V3 = [1.0347336745208935, 0, 1.185125415137378];
    const c: V3 = [0, 0, 1.185125415137378];
    const o: V3 = [0.989834927580796, 0, 1.1337036154128934];
    const d: V3 = [50371.92127176721, -1e-6, -998730.5289953796];
    // The origin lies in the triangle's plane y = 0 and inside it (exactly): it is the hit.
    const exact = exactRay(a, b, c, o, d);
    expect(exact).not.toBeNull();
    expect(dsign((exact as [Dy, Dy])[0])).toBe(0);
    for (const [name, s] of containers(a, b, c)) {
      const h = raycast(s, ID, v(o), v(d), Infinity);
      expect(flat(h), name).toEqual([0, o[0], 0, o[2], 0, 1, 0]);
    }
  });

  const SCALES = [1e-6, 1e-3, 1, 1e3, 1e6];
  const OFFSETS = [0, 1e3, 1e6, 1e9];
  // Coordinates in [−1, 1], those below 2^-40 flushed to 0 (the exact predicates' range,
  // src/geometry/exact-predicates.ts, is 2^±300 and 0).
  const unit = fc
    .double({ min: -1, max: 1, noNaN: true })
    .map((x) => (Math.abs(x) < 2 ** -40 ? 0 : x));
  const unit3 = fc.tuple(unit, unit, unit);
  const bary = fc
    .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([u, w]) => (u + w > 1 ? [1 - u, 1 - w] : [u, w]));

  /**
   * A triangle (size s at an offset, optionally flat in an axis plane as in the attack), a ray
   * origin on it, on an edge, at a corner, or 2^-60..2^-20 of s above or below it, and a
   * direction 2^-50..2^-10 rad out of its plane (or steep), either way, of length 1e-3..1e6.
   */
  const scenario = fc
    .record({
      s: fc.constantFrom(...SCALES),
      off: fc.constantFrom(...OFFSETS),
      offDir: unit3,
      corners: fc.tuple(unit3, unit3, unit3),
      flatAxis: fc.constantFrom<number>(-1, -1, 0, 1, 2),
      swap: fc.boolean(),
      kind: fc.constantFrom("on", "edge", "corner", "near"),
      bary,
      edge: fc.integer({ min: 0, max: 2 }),
      lambda: fc.double({ min: 0, max: 1, noNaN: true }),
      nearExp: fc.integer({ min: -60, max: -20 }),
      nearSign: fc.constantFrom(-1, 1),
      inPlane: fc.tuple(unit, unit),
      tiltExp: fc.integer({ min: -50, max: -10 }),
      tiltSign: fc.constantFrom(-1, 1),
      steep: fc.boolean(),
      len: fc.constantFrom(1e-3, 1, 1e6),
    })
    .map((r) => {
      const base = r.offDir.map((x) => Math.round(x * r.off));
      const p = r.corners.map((q) => q.map((x, k) => base[k] + x * r.s)) as V3[];
      if (r.flatAxis >= 0) for (const q of p) q[r.flatAxis] = base[r.flatAxis];
      const [a, b0, c0] = p;
      const [b, c] = r.swap ? [c0, b0] : [b0, c0];
      const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const n = [
        e1[1] * e2[2] - e1[2] * e2[1],
        e1[2] * e2[0] - e1[0] * e2[2],
        e1[0] * e2[1] - e1[1] * e2[0],
      ];
      const nl = Math.hypot(n[0], n[1], n[2]);
      const el = Math.max(Math.hypot(e1[0], e1[1], e1[2]), Math.hypot(e2[0], e2[1], e2[2]));
      // Non-degenerate (n of at least 1e-3 of the squared size).
      if (!(nl > 1e-3 * el * el)) return null;
      const nu = n.map((x) => x / nl);
      const pt = (u: number, w: number): V3 =>
        [0, 1, 2].map((k) => a[k] + u * e1[k] + w * e2[k]) as V3;
      let o: V3;
      if (r.kind === "corner") o = [a, b, c][r.edge].slice() as V3;
      else if (r.kind === "edge") {
        const [pp, qq] = [
          [a, b],
          [b, c],
          [c, a],
        ][r.edge];
        o = [0, 1, 2].map((k) => pp[k] + r.lambda * (qq[k] - pp[k])) as V3;
      } else o = pt(r.bary[0], r.bary[1]);
      if (r.kind === "near") {
        const h = r.nearSign * 2 ** r.nearExp * el;
        o = o.map((x, k) => x + h * nu[k]) as V3;
      }
      // In-plane direction: a combination of the edges, normalised.
      const t = [0, 1, 2].map((k) => r.inPlane[0] * e1[k] + r.inPlane[1] * e2[k]);
      const tl = Math.hypot(t[0], t[1], t[2]);
      if (!(tl > 1e-3 * el)) return null;
      const tilt = r.tiltSign * (r.steep ? 1 : 2 ** r.tiltExp);
      const d = [0, 1, 2].map((k) => (t[k] / tl + tilt * nu[k]) * r.len) as V3;
      if (r.flatAxis >= 0 && r.kind !== "near") o[r.flatAxis] = base[r.flatAxis];
      // Coordinates below 2^-200 (products of the tiny tilts) flushed to 0: the exact range.
      const flush = (q: number[]) => q.map((x) => (Math.abs(x) < 2 ** -200 ? 0 : x)) as V3;
      return { a, b, c, o: flush(o), d: flush(d), s: r.s, base };
    })
    .filter((x) => x !== null);

  it("triangle, one-triangle mesh and compound answer bit for bit alike, as the exact oracle says (fast-check)", () => {
    let hits = 0;
    fc.assert(
      fc.property(scenario, (sc) => {
        const { a, b, c, o, d } = sc as NonNullable<typeof sc>;
        const exact = exactRay(a, b, c, o, d);
        const answers = containers(a, b, c).map(
          ([name, s]) => [name, flat(raycast(s, ID, v(o), v(d), Infinity))] as const,
        );
        const [, tri] = answers[0];
        for (const [name, h] of answers) expect(sameBits(h, tri), name).toBe(true);
        // A surface mesh answers alike whether cast solid or hollow.
        const mesh = containers(a, b, c)[1][1];
        expect(sameBits(flat(raycast(mesh, ID, v(o), v(d), Infinity, false)), tri)).toBe(true);
        expect(tri === null, "hit ⇔ the exact oracle's hit").toBe(exact === null);
        if (tri !== null && exact !== null) {
          hits++;
          expect(toiMatches(tri[0], exact), `toi ${tri[0]}`).toBe(true);
          // The normal faces the origin: against d.
          expect(tri[4] * d[0] + tri[5] * d[1] + tri[6] * d[2]).toBeLessThanOrEqual(0);
        }
      }),
      { numRuns: 1000, seed: 29 },
    );
    expect(hits).toBeGreaterThan(300);
  });

  it("inside a larger mesh (a tetrahedron or random soup around it) the mesh's answer is its triangles' nearest (fast-check)", () => {
    fc.assert(
      fc.property(
        scenario,
        fc.array(fc.tuple(unit3, unit3, unit3), { minLength: 0, maxLength: 12 }),
        fc.nat(),
        unit3,
        (sc, extra, at, apexDir) => {
          const { a, b, c, o, d, s, base } = sc as NonNullable<typeof sc>;
          const apex = apexDir.map((x, k) => base[k] + 2 * x * s) as V3;
          // The triangle, its tetrahedron's other three faces, and random triangles near it.
          const tris: V3[][] = [
            [a, c, apex],
            [c, b, apex],
            [b, a, apex],
            ...extra.map((t) => t.map((q) => q.map((x, k) => base[k] + 2 * x * s) as V3)),
          ];
          tris.splice(at % (tris.length + 1), 0, [a, b, c]);
          const verts = tris.flat().flat();
          const idx = tris.flatMap((_, i) => [3 * i, 3 * i + 1, 3 * i + 2]);
          const mesh = makeTriangleMesh(verts, idx);
          const got = flat(raycast(mesh, ID, v(o), v(d), Infinity));
          // Brute force: each triangle alone, the nearest, ties to the lower index.
          let best: number[] | null = null;
          let tied = false;
          for (const t of tris) {
            const h = flat(
              raycast(makeTriangle(v(t[0]), v(t[1]), v(t[2])), ID, v(o), v(d), Infinity),
            );
            if (h === null) continue;
            if (best !== null && h[0] === best[0]) tied = true;
            if (best === null || h[0] < best[0]) {
              best = h;
              tied = false;
            }
          }
          if (got === null || best === null) expect(got).toBe(best);
          else if (tied) expect(got[0]).toBe(best[0]);
          else expect(sameBits(got, best)).toBe(true);
        },
      ),
      { numRuns: 600, seed: 30 },
    );
  });
});
