/**
 * Issue 16: a cylinder's or cone's contact manifold holds the contact's deepest point (a solver
 * reading only the manifold otherwise corrects less than the overlap).
 *
 * Found by random pairs (600..4,000 per kind, sizes 0.25..1.5, half of them rotated): the
 * manifold's deepest point fell short of the `contact` query's depth in 0.03–0.4% of the
 * contacts of a cylinder or cone with a box, triangle, capsule, cylinder, cone or hull — by up
 * to 2% of the depth, 20% for a cone's side line along a hull's face, and a point 5.5e-10 apart
 * for a touching triangle. Two causes, one class: the clip missed the contact's deepest point.
 * - A cylinder cap or cone base is the reference face, clipped against as its inscribed
 *   octagon: the incident feature's deepest part reached the rim between two of its vertices
 *   (a box face's corner, a cylinder's or cone's side line or a capsule's core poking through
 *   the disc 0.97 of the radius out) and the octagon's side cut it off.
 * - A hull's or triangle's face tilted off the normal is the reference (the contact on its
 *   boundary), and a cylinder's or cone's side line crosses it: the clip kept the part of the
 *   line over the face, the contact lies past its edge.
 * Now the contact's own pair joins the manifold's points when the clipped points' deepest is
 * shallower than the contact's distance by more than `MANIFOLD_DEPTH_ULPS` ulps of the contact's
 * coordinates (src/narrowphase/manifold.ts, `joinContactIf`).
 *
 * Oracles: closed forms (a box's corner, a tilted cylinder's rim point 0.97 of the radius out
 * between two octagon vertices, δ through a cylinder's or cone's flat disc: depth δ), the
 * fuzzer's independent shapes (test/fuzz/oracle-shapes.ts, oracle-pairs.ts): the contact's
 * depth is the shapes' overlap along its normal (their support functions), every manifold point
 * lies on both shapes with its distance (pointB − pointA)·normal, the deepest is the contact's
 * distance within the fuzzer's depth bar (1e-6 of the depth plus 64 ε of the pair's size) and
 * none is deeper.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ManifoldJson } from "../support/answers.js";
import { quatArb } from "./arbitraries.js";
import CASES from "./curved-manifold-deepest.cases.json" with { type: "json" };
import { overlapPieces, surfaceDistance } from "./oracle-pairs.js";
import { cross, dot, oshape, quatMatrix, sub, unit, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;
interface ContactJ {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
}

const EPS = Number.EPSILON;
const maxAbs = (...ps: V[]) => Math.max(...ps.flatMap((p) => p.map(Math.abs)));
const lin = (...terms: [number, V][]): V =>
  [0, 1, 2].map((i) => terms.reduce((s, [k, v]) => s + k * v[i], 0)) as V;

/**
 * The failures of (a, b)'s manifold at `prediction` against its contact and the oracle: null
 * exactly when the contact is; the contact's depth the shapes' overlap along its normal; the
 * deepest point at the contact's distance and none deeper (bar: 1e-6 of the depth plus 64 ulps
 * of the pair's magnitude); each point on both shapes, its distance (pointB − pointA)·normal.
 * Returns the contact's distance too (NaN when none).
 */
function agreement(a: J, b: J, prediction: number): [string[], number] {
  const c = answerQuery({ op: "contact", a, b, prediction } as never) as ContactJ | null;
  const m = answerQuery({ op: "manifold", a, b, prediction } as never) as ManifoldJson | null;
  if ((c === null) !== (m === null)) return [[`manifold ${m === null ? "null" : "non-null"}`], NaN];
  if (c === null || m === null) return [[], NaN];
  if (m.points.length === 0) return [["manifold with no point"], c.distance];
  const A = oshape(a);
  const B = oshape(b);
  const L = Math.max(
    maxAbs(c.pointA, c.pointB),
    A.radius + Math.hypot(...A.center),
    B.radius + Math.hypot(...B.center),
  );
  const bar = 1e-6 * Math.abs(c.distance) + 64 * EPS * L;
  const out: string[] = [];
  const overlap = overlapPieces(A.pieces[0], B.pieces[0], c.normal);
  if (!(Math.abs(c.distance + overlap) <= bar)) {
    out.push(`contact ${c.distance}, overlap along its normal ${overlap}`);
  }
  const least = Math.min(...m.points.map((p) => p.distance));
  if (!(least <= c.distance + bar)) out.push(`deepest point ${least}, contact ${c.distance}`);
  if (!(least >= c.distance - bar)) out.push(`a point at ${least}, deeper than ${c.distance}`);
  for (const p of m.points) {
    const pBar = bar + 4 * EPS * maxAbs(p.pointA, p.pointB);
    const offA = surfaceDistance(A, p.pointA);
    const offB = surfaceDistance(B, p.pointB);
    if (!(offA <= pBar)) out.push(`pointA ${offA} off A (bar ${pBar})`);
    if (!(offB <= pBar)) out.push(`pointB ${offB} off B (bar ${pBar})`);
    const along = dot(sub(p.pointB, p.pointA), m.normal);
    if (!(Math.abs(along - p.distance) <= pBar)) out.push(`(pB − pA)·n ${along}, ${p.distance}`);
  }
  return [out, c.distance];
}

/** The deepest manifold point's distance of (a, b). */
function deepest(a: J, b: J): number {
  const m = answerQuery({ op: "manifold", a, b } as never) as ManifoldJson;
  return Math.min(...m.points.map((p) => p.distance));
}

/** The unit quaternion [x, y, z, w] of the rotation whose matrix has columns X, Y, Z. */
function quatOfColumns(X: V, Y: V, Z: V): number[] {
  const [m00, m10, m20] = X;
  const [m01, m11, m21] = Y;
  const [m02, m12, m22] = Z;
  const tr = m00 + m11 + m22;
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    return [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4];
  }
  if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    return [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  }
  if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    return [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s];
  }
  const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
  return [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s];
}

/**
 * A shape of kind `other` below the flat disc of a cylinder or cone (radius R, half height H,
 * at the origin, axis +Y; the disc at y = −H) whose highest point P lies δ above the disc, ρ
 * from the axis at azimuth φ (degrees), its top tilted 5° down toward the axis: a box's top
 * face (its corner at P, its diagonal along the radius), a cylinder's side line (its upper
 * rim point at P, its axis in the radial plane). The overlap is a sliver near P; moving B
 * sideways out of the disc takes more than ρ's gap to the rim, so the depth is δ, along Y.
 */
function belowDisc(other: string, S: number, H: number, phi: number, rho: number, delta: number) {
  const tilt = (5 * Math.PI) / 180;
  const f = (phi * Math.PI) / 180;
  const out: V = [Math.cos(f), 0, Math.sin(f)];
  const P: V = [rho * out[0], -H + delta, rho * out[2]];
  // Outward and up by the tilt: the box's diagonal, the cylinder's axis toward its upper end.
  const u = unit([out[0] * Math.cos(tilt), Math.sin(tilt), out[2] * Math.cos(tilt)]);
  if (other === "box") {
    const side = unit(cross([0, 1, 0], out));
    const X = unit(lin([1, u], [1, side]));
    const Z = unit(lin([1, u], [-1, side]));
    const Y = unit(cross(Z, X));
    const h: V = [0.5 * S, 0.4 * S, 0.5 * S];
    const corner = lin([h[0], X], [h[1], Y], [h[2], Z]);
    return {
      type: "box",
      center: sub(P, corner),
      halfExtents: h,
      rotation: quatOfColumns(X, Y, Z),
    };
  }
  // The cylinder's highest point: its upper end's rim point along w, Y's part ⟂ the axis.
  const w = unit(lin([1, [0, 1, 0]], [-u[1], u]));
  const r = 0.3 * S;
  const hb = 0.6 * S;
  return {
    type: "cylinder",
    center: lin([1, P], [-r, w], [-hb, u]),
    halfHeight: hb,
    radius: r,
    rotation: quatOfColumns(w, u, cross(w, u)),
  };
}

describe("issue 16: a cylinder's or cone's manifold holds the contact's deepest point", () => {
  it("closed form: a box's corner or a tilted cylinder's rim point δ through a cylinder's cap or a cone's base, 0.97 of the radius out between two octagon vertices: deepest −δ (before: −0.80δ..−0.94δ)", () => {
    for (const S of [1e-3, 1, 1e3]) {
      for (const disc of ["cylinder", "cone"]) {
        for (const [other, phi] of [
          ["box", 10],
          ["cylinder", 10],
          ["cylinder", 22.5],
          ["cylinder", 67.5],
        ] as const) {
          const H = 0.8 * S;
          const delta = 0.02 * S;
          const a = { type: disc, center: [0, 0, 0], halfHeight: H, radius: S };
          const b = belowDisc(other, S, H, phi, 0.97 * S, delta);
          for (const [x, y] of [
            [a, b],
            [b, a],
          ] as J[][]) {
            const what = `${disc}–${other} at ${phi}°, size ${S}`;
            const [fails, distance] = agreement(x, y, 0);
            expect(fails, what).toEqual([]);
            expect(Math.abs(distance + delta), what).toBeLessThanOrEqual(1e-9 * delta);
            expect(Math.abs(deepest(x, y) + delta), what).toBeLessThanOrEqual(1e-9 * delta);
            expect(agreement(x, y, 0.05 * S)[0], what).toEqual([]);
          }
        }
      }
    }
  });

  it("recorded random pairs (one per kind, the worst): the deepest point at the contact's depth, the oracle's overlap along its normal", () => {
    for (const c of CASES) {
      const [fails, distance] = agreement(c.a as J, c.b as J, 0);
      expect(fails, c.pair).toEqual([]);
      expect(Math.abs(distance - c.contact), c.pair).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(deepest(c.a as J, c.b as J) - c.contact), c.pair).toBeLessThanOrEqual(
        1e-6 * Math.abs(c.contact) + 1e-15,
      );
      // Before: the deepest point short of the contact (by 5.5e-10 at the touching one).
      expect(c.before, c.pair).toBeGreaterThan(c.contact);
      expect(agreement(c.b as J, c.a as J, 0)[0], `${c.pair} swapped`).toEqual([]);
    }
  });

  // The flat directions of each kind (local frame): faces, a cap, a side line, a base.
  const FLAT: Record<string, V[]> = {
    box: [
      [0, 1, 0],
      [1, 1, 0],
    ],
    cylinder: [
      [0, 1, 0],
      [1, 0, 0],
    ],
    // The side's normal is (2·halfHeight, radius, 0): set per cone below.
    cone: [
      [0, -1, 0],
      [2, 1, 0],
    ],
    capsule: [[0, 1, 0]],
    triangle: [[0, 1, 0]],
    convex: [[0, 1, 0]],
  };
  const unitInt = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);

  /** Shape of `kind`, size S, local frame (its centre at the origin; `g` shapes it). */
  function local(kind: string, S: number, g: number[]): J {
    const [g0, g1, g2] = g.map((x) => 0.3 + 0.7 * Math.abs(x));
    switch (kind) {
      case "box":
        return { type: "box", center: [0, 0, 0], halfExtents: [g0 * S, g1 * S, g2 * S] };
      case "cylinder":
      case "cone":
        return { type: kind, center: [0, 0, 0], halfHeight: g0 * S, radius: g1 * S };
      case "capsule":
        return { type: "capsule", a: [-g0 * S, 0, 0], b: [g0 * S, 0, 0], radius: 0.5 * g2 * S };
      case "triangle":
        return {
          type: "triangle",
          a: [-g0 * S, 0, -g1 * S],
          b: [g0 * S, 0, -g2 * S],
          c: [0.2 * g2 * S, 0, g0 * S],
        };
      default:
        return {
          type: "convex",
          points: [
            [-g0 * S, 0, -g1 * S],
            [g0 * S, 0, -g2 * S],
            [g1 * S, 0, g0 * S],
            [-g2 * S, 0, g1 * S],
            [0.1 * S, -g0 * S, 0.2 * S],
          ],
        };
    }
  }

  /** `s` turned by rotation matrix M (columns) and moved by t (a box's rotation composed). */
  function place(s: J, M: V[], t: V): J {
    const rot = (p: V) => lin([p[0], M[0]], [p[1], M[1]], [p[2], M[2]]);
    const q = quatOfColumns(M[0], M[1], M[2]);
    if (s.type === "capsule") {
      return { ...s, a: lin([1, rot(s.a as V)], [1, t]), b: lin([1, rot(s.b as V)], [1, t]) };
    }
    if (s.type === "triangle") {
      const [a, b, c] = [s.a, s.b, s.c].map((p) => lin([1, rot(p as V)], [1, t]));
      return { ...s, a, b, c };
    }
    if (s.type === "convex") {
      return { ...s, points: (s.points as V[]).map((p) => lin([1, rot(p)], [1, t])) };
    }
    return { ...s, center: t, rotation: q };
  }

  /** The rotation (columns) taking unit ℓ to unit t, spun by σ about ℓ first. */
  function turning(l: V, t: V, sigma: number): V[] {
    const frame = (d: V): V[] => {
      const h: V = Math.abs(d[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0];
      const e1 = unit(cross(d, h));
      return [d, e1, cross(d, e1)];
    };
    const [l0, l1, l2] = frame(l);
    const [t0, t1, t2] = frame(t);
    const c = Math.cos(sigma);
    const s = Math.sin(sigma);
    // Local basis (l0, l1, l2) ↦ (t0, c t1 + s t2, −s t1 + c t2): M = Σ image ⊗ basis.
    const m1 = lin([c, t1], [s, t2]);
    const m2 = lin([-s, t1], [c, t2]);
    return [0, 1, 2].map((j) => lin([l0[j], t0], [l1[j], m1], [l2[j], m2]));
  }

  it("property: cylinders and cones (sizes 1e-3..1e3, rotated) against boxes, triangles, capsules, cylinders, cones and hulls: at random, or with a flat feature (cap, base, face, side line) laid on the disc tilted 0 or 2^-40..2^-4 rad, its top at the rim or inside, touching to 5% deep; both orders; deepest = contact, none deeper, points on both shapes", () => {
    let checked = 0;
    let withContact = 0;
    fc.assert(
      fc.property(
        fc.constantFrom("cylinder", "cone"),
        fc.constantFrom("box", "triangle", "capsule", "cylinder", "cone", "convex"),
        fc.integer({ min: -10, max: 10 }),
        fc.tuple(fc.tuple(unitInt, unitInt, unitInt), fc.tuple(unitInt, unitInt, unitInt)),
        fc.tuple(quatArb, quatArb),
        fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 1 }), unitInt, unitInt),
        fc.tuple(fc.constantFrom(0, 0, 1), fc.integer({ min: -40, max: -4 }), unitInt),
        fc.tuple(unitInt, fc.constantFrom(1, 1, 0.999, 0.9, 0.5), fc.integer({ min: -3, max: 3 })),
        fc.tuple(
          fc.constantFrom(0, 0, 1e-9, 1e-4, 0.01, 0.05),
          fc.tuple(unitInt, unitInt, unitInt),
        ),
        fc.boolean(),
        (
          discKind,
          otherKind,
          e,
          [gA, gB],
          [qA, qB],
          flat,
          tiltSpec,
          [phi, rhoF, eB],
          [dep, jitter],
          swap,
        ) => {
          const S = 2 ** e;
          const SB = S * 2 ** (eB / 2);
          const a0 = local(discKind, S, gA);
          const b0 = local(otherKind, SB, gB);
          const MA = quatMatrix(qA);
          const colA: V[] = [0, 1, 2].map((j) => [MA[0][j], MA[1][j], MA[2][j]] as V);
          const a = place(a0, colA, [0, 0, 0]);
          let b: J;
          const [isFlat, which, azi, spin] = flat;
          if (!isFlat) {
            // At random: B's centre on a sphere about A's, its size's reach away.
            const MB = quatMatrix(qB);
            const colB: V[] = [0, 1, 2].map((j) => [MB[0][j], MB[1][j], MB[2][j]] as V);
            const dir = unit(
              jitter.every((x) => x === 0) ? [0, -1, 0] : (jitter.map((x) => x + 1e-3) as V),
            );
            b = place(b0, colB, lin([(S + SB) * 0.8 * (1 - dep), dir]));
          } else {
            // B's flat direction ℓ onto A's disc normal's opposite (B below the disc, facing it),
            // tilted by τ; its support point along A's axis placed at P on the disc.
            const y = colA[1];
            const e1 = colA[0];
            const e2 = colA[2];
            const flats = FLAT[otherKind];
            const k = which % flats.length;
            const l = unit(
              otherKind === "cone" && k === 1
                ? [2 * (b0.halfHeight as number), b0.radius as number, 0]
                : flats[k],
            );
            const [zero, eT, sT] = tiltSpec;
            const tau = zero === 0 ? 0 : Math.sign(sT || 1) * 2 ** eT;
            const psi = azi * Math.PI;
            const t = unit(
              lin(
                [Math.cos(tau), y],
                [Math.sin(tau) * Math.cos(psi), e1],
                [Math.sin(tau) * Math.sin(psi), e2],
              ),
            );
            const M = turning(l, t, spin * Math.PI);
            const b1 = place(b0, M, [0, 0, 0]);
            const top = oshape(b1).pieces[0].support(y);
            const H = a0.halfHeight as number;
            const R = a0.radius as number;
            const f = phi * Math.PI;
            const rho = rhoF * R;
            const P = lin(
              [-H + dep * Math.min(R, H), y],
              [rho * Math.cos(f), e1],
              [rho * Math.sin(f), e2],
            );
            b = place(b0, M, sub(P, top));
          }
          const [x, z] = swap ? [b, a] : [a, b];
          for (const pred of [0, 1e-3 * S]) {
            const [fails] = agreement(x, z, pred);
            expect(fails, `prediction ${pred}`).toEqual([]);
          }
          if (answerQuery({ op: "contact", a: x, b: z } as never) !== null) withContact++;
          checked++;
        },
      ),
      { numRuns: 1500, seed: 33 },
    );
    expect(checked).toBe(1500);
    expect(withContact).toBeGreaterThan(600);
  });
});
