/**
 * The `contact` query's `errorBound` on the depths FORMATS calls upper bounds (a fresh user's
 * attack, finding 2): two solid meshes one of which is not convex get max_A n·x − min_B n·y, and a
 * convex shape wholly inside a non-convex solid its overlap along the way out — yet errorBound was
 * ~1e-14 where a translation of 0.1386 parts two dented octahedra answered −0.2514
 * (/work/wt/attack-scripts/repro-solid-nonconvex.jsonl). Now the bound is certified from below:
 * a point of one solid at depth δ inside the other stays inside under any shorter translation, so
 * the deepest such vertex (or point of the enclosed shape) bounds the true depth from below
 * (src/narrowphase/mesh-solid.ts).
 *
 * Oracle, independent of the library: the solids as triangle lists in world coordinates; their
 * interiors overlap when an edge of one crosses a triangle of the other or a vertex of one lies
 * inside the other (ray parity); a translation separates them when that test fails. For sampled
 * directions the translation is grown until it separates and bisected; each end found is checked
 * to separate, so their minimum U bounds the true depth from above, and the true depth D must lie
 * in [−distance − errorBound, −distance]: U ≥ −distance − errorBound. From below: a vertex inside
 * the other solid at plane distance ≥ h from every triangle plane is at least h deep, so the
 * largest such h is ≤ D ≤ −distance.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { makeRandom } from "../../src/math/random.js";
import { unitQuat } from "../oracles/arbitraries.js";

type V = [number, number, number];
type Tri = [V, V, V];

const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const mul = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** Rotates v by unit quaternion q = [x, y, z, w]. */
function rotate(q: number[], v: V): V {
  const u: V = [q[0], q[1], q[2]];
  const t = mul(cross(u, v), 2);
  return add(add(v, mul(t, q[3])), cross(u, t));
}

interface MeshLine {
  vertices: V[];
  indices: number[][];
  position?: V;
  rotation?: number[];
}

/** The mesh's triangles in world coordinates. */
function worldTriangles(m: MeshLine): Tri[] {
  const q = m.rotation ?? [0, 0, 0, 1];
  const p = m.position ?? [0, 0, 0];
  const w = m.vertices.map((v) => add(rotate(q, v), p));
  return m.indices.map(([i, j, k]) => [w[i], w[j], w[k]] as Tri);
}

/** Parameter s ≥ 0 where the ray o + s·d crosses triangle t (Möller–Trumbore), else null. */
function rayTriangle(o: V, d: V, [a, b, c]: Tri): number | null {
  const e1 = sub(b, a);
  const e2 = sub(c, a);
  const p = cross(d, e2);
  const det = dot(e1, p);
  if (Math.abs(det) < 1e-300) return null;
  const inv = 1 / det;
  const s = sub(o, a);
  const u = dot(s, p) * inv;
  if (u < 0 || u > 1) return null;
  const q = cross(s, e1);
  const v = dot(d, q) * inv;
  if (v < 0 || u + v > 1) return null;
  const t = dot(e2, q) * inv;
  return t >= 0 ? t : null;
}

const PARITY_DIR: V = [0.5773, 0.5774, 0.5775];

function inside(tris: Tri[], p: V): boolean {
  let n = 0;
  for (const t of tris) if (rayTriangle(p, PARITY_DIR, t) !== null) n++;
  return n % 2 === 1;
}

function overlap(ta: Tri[], tb: Tri[]): boolean {
  const crosses = (t1: Tri[], t2: Tri[]) => {
    for (const t of t1) {
      for (let k = 0; k < 3; k++) {
        const p = t[k];
        const d = sub(t[(k + 1) % 3], p);
        for (const s of t2) {
          const h = rayTriangle(p, d, s);
          if (h !== null && h <= 1) return true;
        }
      }
    }
    return false;
  };
  return crosses(ta, tb) || crosses(tb, ta) || inside(tb, ta[0][0]) || inside(ta, tb[0][0]);
}

const moved = (ts: Tri[], t: V): Tri[] => ts.map((x) => x.map((v) => add(v, t)) as Tri);

/** The least verified separating translation over `dirs` (an upper bound of the depth). */
function sampledDepth(ta: Tri[], tb: Tri[], dirs: V[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const n of dirs) {
    let lo = 0;
    let hi = 0.01;
    while (overlap(ta, moved(tb, mul(n, hi)))) {
      lo = hi;
      hi *= 1.5;
      if (hi > 50) break;
    }
    if (hi > 50 || lo >= best) continue;
    for (let k = 0; k < 40; k++) {
      const m = (lo + hi) / 2;
      if (overlap(ta, moved(tb, mul(n, m)))) lo = m;
      else hi = m;
    }
    if (!overlap(ta, moved(tb, mul(n, hi)))) best = Math.min(best, hi);
  }
  return best;
}

/** Largest plane distance of a vertex of one solid inside the other (a lower bound of the depth). */
function planeLowerBound(ta: Tri[], tb: Tri[]): number {
  let l = 0;
  const one = (t1: Tri[], t2: Tri[]) => {
    for (const t of t1) {
      for (const p of t) {
        if (!inside(t2, p)) continue;
        let h = Number.POSITIVE_INFINITY;
        for (const [a, b, c] of t2) {
          const n = cross(sub(b, a), sub(c, a));
          const len = Math.hypot(...n);
          if (len > 0) h = Math.min(h, Math.abs(dot(n, sub(p, a))) / len);
        }
        l = Math.max(l, h);
      }
    }
  };
  one(ta, tb);
  one(tb, ta);
  return l;
}

function directions(seed: number, count: number, extra: V[]): V[] {
  const rng = makeRandom(seed);
  const out: V[] = [...extra];
  while (out.length < count) {
    const v: V = [rng() * 2 - 1, rng() * 2 - 1, rng() * 2 - 1];
    const l = Math.hypot(...v);
    if (l > 0.1 && l <= 1) out.push(mul(v, 1 / l));
  }
  return out;
}

/** An octahedron with semi-axes s whose +x+y+z face is dented to (0.1, 0.1, 0.1): not convex. */
function dented(s: V, position: V, rotation: number[]): MeshLine & { type: string; solid: true } {
  return {
    type: "mesh",
    vertices: [
      [s[0], 0, 0],
      [-s[0], 0, 0],
      [0, s[1], 0],
      [0, -s[1], 0],
      [0, 0, s[2]],
      [0, 0, -s[2]],
      [0.1, 0.1, 0.1],
    ],
    indices: [
      [0, 2, 6],
      [2, 4, 6],
      [4, 0, 6],
      [2, 1, 4],
      [1, 3, 4],
      [3, 0, 4],
      [2, 0, 5],
      [1, 2, 5],
      [3, 1, 5],
      [0, 3, 5],
    ],
    position,
    rotation,
    solid: true,
  };
}

interface ContactAnswer {
  distance: number;
  normal: V;
  errorBound: number;
}

/** Checks the contact of two solid meshes against the oracle; returns the answer. */
function checkSolids(a: MeshLine, b: MeshLine, dirCount: number, seed: number) {
  const c = answerQuery({ op: "contact", a, b }) as unknown as ContactAnswer | null;
  expect(c).not.toBeNull();
  if (c === null) return null;
  const ta = worldTriangles(a);
  const tb = worldTriangles(b);
  expect(overlap(ta, tb)).toBe(true);
  const depth = -c.distance;
  expect(c.errorBound).toBeGreaterThanOrEqual(0);
  expect(c.errorBound).toBeLessThanOrEqual(depth + 1e-9);
  const upper = sampledDepth(ta, tb, directions(seed, dirCount, [c.normal]));
  expect(upper).toBeGreaterThanOrEqual(depth - c.errorBound - 1e-12);
  expect(depth).toBeGreaterThanOrEqual(planeLowerBound(ta, tb) - 1e-12);
  return { c, upper };
}

describe("errorBound of the solid depths FORMATS calls upper bounds", () => {
  it("the two reported pairs of dented octahedra: the sampled separating translation within the bound", () => {
    const first = checkSolids(
      dented([1, 1, 1], [0, 0, 0], [0, 0, 0, 1]),
      dented([1.8, 0.8, 1.1], [-0.3, -0.9, -0.6], [0, 0, 0, 1]),
      400,
      7,
    );
    // The attack's numbers: the answer 0.2514, a translation of 0.1386 separates.
    expect(first?.c.distance).toBeCloseTo(-0.25138232574190267, 12);
    expect(first?.upper).toBeLessThan(0.14);
    expect(first?.c.errorBound).toBeGreaterThan(0.2514 - 0.14);
    const second = checkSolids(
      dented(
        [0.6520863379351794, 1.988106593862176, 0.6533598823472857],
        [0, 0, 0],
        [-0.6163793188516214, 0.07040897403202721, -0.2340915706461301, 0.7485454216146115],
      ),
      dented(
        [1.0685292438138276, 0.8488501734565943, 0.6550813490990549],
        [0.31769032111986945, 0.47628618493238045, 0.08244717774644057],
        [-0.15751508393679614, -0.7409175743500632, 0.4662560360740403, 0.4569851804775792],
      ),
      400,
      8,
    );
    expect(second?.upper).toBeLessThan(0.51);
  });

  it("random non-convex solid pairs (fast-check)", () => {
    const axes = fc.tuple(
      fc.double({ min: 0.5, max: 2, noNaN: true }),
      fc.double({ min: 0.5, max: 2, noNaN: true }),
      fc.double({ min: 0.5, max: 2, noNaN: true }),
    );
    const offset = fc.tuple(
      fc.double({ min: -1.2, max: 1.2, noNaN: true }),
      fc.double({ min: -1.2, max: 1.2, noNaN: true }),
      fc.double({ min: -1.2, max: 1.2, noNaN: true }),
    );
    fc.assert(
      fc.property(axes, axes, offset, unitQuat, unitQuat, (sa, sb, off, qa, qb) => {
        const a = dented(sa as V, [0, 0, 0], [qa.x, qa.y, qa.z, qa.w]);
        const b = dented(sb as V, off as V, [qb.x, qb.y, qb.z, qb.w]);
        const c = answerQuery({ op: "contact", a, b }) as unknown as ContactAnswer | null;
        if (c === null || c.distance > -1e-3) return;
        checkSolids(a, b, 60, 11);
      }),
      { numRuns: 40 },
    );
  });

  it("a box wholly inside a non-convex solid: the depth through the nearest surface within its bound", () => {
    const solid = dented([2, 1.5, 1.8], [0, 0, 0], [0, 0, 0, 1]);
    const rng = makeRandom(3);
    for (let k = 0; k < 8; k++) {
      const center: V = [rng() * 0.8 - 0.6, rng() * 0.8 - 0.6, rng() * 0.8 - 0.6];
      const h: V = [0.1 + rng() * 0.15, 0.1 + rng() * 0.15, 0.1 + rng() * 0.15];
      const box = { type: "box", center, halfExtents: h };
      const c = answerQuery({ op: "contact", a: solid, b: box }) as unknown as ContactAnswer;
      expect(c).not.toBeNull();
      const corners: V[] = [];
      for (let m = 0; m < 8; m++) {
        corners.push([
          center[0] + (m & 1 ? h[0] : -h[0]),
          center[1] + (m & 2 ? h[1] : -h[1]),
          center[2] + (m & 4 ? h[2] : -h[2]),
        ]);
      }
      // The box as a closed triangle list (the oracle's own; any triangulation of its faces).
      const faces = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
      ];
      const tb: Tri[] = faces.flatMap(([p, q, r, s]) => [
        [corners[p], corners[q], corners[r]] as Tri,
        [corners[p], corners[r], corners[s]] as Tri,
      ]);
      const ta = worldTriangles(solid);
      expect(inside(ta, center)).toBe(true);
      const depth = -c.distance;
      expect(c.errorBound).toBeGreaterThanOrEqual(0);
      const upper = sampledDepth(ta, tb, directions(20 + k, 120, [c.normal]));
      expect(upper).toBeGreaterThanOrEqual(depth - c.errorBound - 1e-12);
    }
  });
});
