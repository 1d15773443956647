/**
 * Convex shapes and surface parts against a NON-convex solid mesh (issue 16, a fresh user's
 * attack, session 39b, findings 1–3): a sheet wholly inside the L of three voxels with its edges
 * on the L's faces answered distance 0 (depth 0.5), and shapes crossing the L answered the
 * deepest triangle's contact with errorBound 0 (a box 0.4 deep read −0.2). Now the contact is a
 * certified bracket of the solid's depth D (src/narrowphase/mesh-solid.ts,
 * `boundedSolidContact`): D ∈ [−distance − errorBound, −distance]; witnesses on their shapes,
 * (pointB − pointA)·normal = distance.
 *
 * Oracle, independent of the library, for solids that are unions of unit voxels (the L, and a U of
 * five voxels), in unit coordinates:
 * - from below: dense sample points of the shape inside the union, each at its exact distance
 *   to the union's boundary (the distance to the nearest empty cell of the padded grid); every
 *   separating translation moves that point out, so D ≥ the deepest;
 * - from above: along each of the six axis directions the least t ≥ 0 at which the shape moved
 *   by t parts the voxels' open interiors — exact for polytopes by the separating-axis test of
 *   each part (a box, a triangle) against each piece of the union's interior (the open voxels and
 *   the open faces two filled voxels share), t stepped through every value where a projection's
 *   end meets a piece's; for curved or general shapes the clearance of the
 *   union's bounding box, max voxel coordinate less min shape coordinate — so D ≤ the least.
 * The pair is scaled by s ∈ [1e-3, 1e3] and moved by an offset to 1e6; the oracle bounds scale
 * by s.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollisionWorld, makeTriangleMesh } from "../../src/index.js";
import { answerQuery } from "../../src/io/query.js";

type V = [number, number, number];

interface ContactAnswer {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
  errorBound: number;
}

const L_VOXELS: V[] = [
  [0, 0, 0],
  [1, 0, 0],
  [0, 1, 0],
];
const U_VOXELS: V[] = [
  [0, 0, 0],
  [1, 0, 0],
  [2, 0, 0],
  [0, 1, 0],
  [2, 1, 0],
];

const key = (v: V) => v.join(",");

/** The closed boundary mesh of a union of unit voxels (outward faces, shared vertices). */
function voxelMesh(voxels: V[]): { vertices: V[]; indices: number[][] } {
  const filled = new Set(voxels.map(key));
  const vertices: V[] = [];
  const index = new Map<string, number>();
  const vid = (v: V) => {
    const k = key(v);
    let i = index.get(k);
    if (i === undefined) {
      i = vertices.length;
      vertices.push(v);
      index.set(k, i);
    }
    return i;
  };
  const indices: number[][] = [];
  for (const [x, y, z] of voxels) {
    for (let axis = 0; axis < 3; axis++) {
      for (const side of [0, 1]) {
        const nb: V = [x, y, z];
        nb[axis] += side === 0 ? -1 : 1;
        if (filled.has(key(nb))) continue;
        // The face's four corners, counter-clockwise seen from outside.
        const u = (axis + 1) % 3;
        const w = (axis + 2) % 3;
        const corner = (du: number, dw: number): V => {
          const p: V = [x, y, z];
          p[axis] += side;
          p[u] += du;
          p[w] += dw;
          return p;
        };
        const q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)].map(vid);
        if (side === 1) indices.push([q[0], q[1], q[2]], [q[0], q[2], q[3]]);
        else indices.push([q[0], q[2], q[1]], [q[0], q[3], q[2]]);
      }
    }
  }
  return { vertices, indices };
}

/** Distance from p to the boundary of the voxel union when p is inside it (closed), else null. */
function depthInside(voxels: V[], p: V): number | null {
  const filled = new Set(voxels.map(key));
  const inside = voxels.some((v) => [0, 1, 2].every((i) => p[i] >= v[i] && p[i] <= v[i] + 1));
  if (!inside) return null;
  let lo: V = [Infinity, Infinity, Infinity];
  let hi: V = [-Infinity, -Infinity, -Infinity];
  for (const v of voxels) {
    lo = lo.map((c, i) => Math.min(c, v[i] - 1)) as V;
    hi = hi.map((c, i) => Math.max(c, v[i] + 1)) as V;
  }
  let best = Infinity;
  for (let x = lo[0]; x <= hi[0]; x++)
    for (let y = lo[1]; y <= hi[1]; y++)
      for (let z = lo[2]; z <= hi[2]; z++) {
        if (filled.has(key([x, y, z]))) continue;
        const c = [x, y, z];
        let d2 = 0;
        for (let i = 0; i < 3; i++) {
          const g = Math.max(0, c[i] - p[i], p[i] - (c[i] + 1));
          d2 += g * g;
        }
        best = Math.min(best, Math.sqrt(d2));
      }
  return best;
}

const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const AXES: V[] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/** A convex polytope part of the shape for the separating-axis oracle: vertices and test axes. */
interface Part {
  verts: V[];
  axes: V[];
}

function boxPart(lo: V, hi: V): Part {
  const verts: V[] = [];
  for (const x of [lo[0], hi[0]])
    for (const y of [lo[1], hi[1]]) for (const z of [lo[2], hi[2]]) verts.push([x, y, z]);
  return { verts, axes: AXES };
}

function trianglePart(t: V[]): Part {
  const e = [sub(t[1], t[0]), sub(t[2], t[1]), sub(t[0], t[2])];
  const axes: V[] = [...AXES, cross(e[0], e[1])];
  for (const a of AXES) for (const b of e) axes.push(cross(a, b));
  return { verts: t, axes: axes.filter((a) => dot(a, a) > 1e-24) };
}

const OPEN_TOL = 1e-12;

/**
 * The union's interior as relatively open boxes [lo, hi]: each voxel's open interior and each
 * open face shared by two filled voxels (flat: lo = hi across it). For the L and the U (one
 * layer) no edge or corner is surrounded by filled voxels, so these cover the interior.
 */
function interiorPieces(voxels: V[]): { lo: V; hi: V }[] {
  const filled = new Set(voxels.map(key));
  const out: { lo: V; hi: V }[] = [];
  for (const v of voxels) {
    out.push({ lo: v, hi: [v[0] + 1, v[1] + 1, v[2] + 1] });
    for (let axis = 0; axis < 3; axis++) {
      const nb: V = [v[0], v[1], v[2]];
      nb[axis] += 1;
      if (!filled.has(key(nb))) continue;
      const lo: V = [v[0], v[1], v[2]];
      const hi: V = [v[0] + 1, v[1] + 1, v[2] + 1];
      lo[axis] = v[axis] + 1;
      out.push({ lo, hi });
    }
  }
  return out;
}

function boxCorners(b: { lo: V; hi: V }): V[] {
  const out: V[] = [];
  for (let c = 0; c < 8; c++)
    out.push([
      c & 1 ? b.hi[0] : b.lo[0],
      (c >> 1) & 1 ? b.hi[1] : b.lo[1],
      (c >> 2) & 1 ? b.hi[2] : b.lo[2],
    ]);
  return out;
}

/**
 * True when part moved by t·d meets the relatively open box b (the separating-axis test of two
 * convex polytopes, the box's projections open unless it is flat across the axis).
 */
function partMeetsPiece(p: Part, b: { lo: V; hi: V }, d: V, t: number): boolean {
  const corners = boxCorners(b);
  for (const k of p.axes) {
    const sh = t * dot(k, d);
    let pmin = Infinity;
    let pmax = -Infinity;
    for (const x of p.verts) {
      const s = dot(k, x) + sh;
      pmin = Math.min(pmin, s);
      pmax = Math.max(pmax, s);
    }
    let bmin = Infinity;
    let bmax = -Infinity;
    for (const c of corners) {
      const s = dot(k, c);
      bmin = Math.min(bmin, s);
      bmax = Math.max(bmax, s);
    }
    const tol = OPEN_TOL * Math.sqrt(dot(k, k));
    if (bmax - bmin <= tol) {
      if (pmax < bmin - tol || pmin > bmax + tol) return false;
    } else if (pmax <= bmin + tol || pmin >= bmax - tol) return false;
  }
  return true;
}

/** Least t ≥ 0 along unit axis d at which no part meets the union's interior (exact for polytopes). */
function axisClearance(voxels: V[], parts: Part[], d: V): number {
  const pieces = interiorPieces(voxels);
  const ts = [0];
  for (const p of parts)
    for (const b of pieces)
      for (const k of p.axes) {
        const kd = dot(k, d);
        if (kd === 0) continue;
        const proj = p.verts.map((x) => dot(k, x));
        const pmin = Math.min(...proj);
        const pmax = Math.max(...proj);
        for (const c of boxCorners(b)) {
          const s = dot(k, c);
          for (const e of [pmin, pmax]) {
            const t = (s - e) / kd;
            if (t > 0) ts.push(t);
          }
        }
      }
  ts.sort((a, b) => a - b);
  for (const t of ts) {
    if (!parts.some((p) => pieces.some((b) => partMeetsPiece(p, b, d, t)))) return t;
  }
  return Infinity;
}

/** A test shape in unit coordinates: its JSON (before scaling), sample points, oracle parts. */
interface TestShape {
  kind: string;
  json: (s: number, o: V) => unknown;
  samples: V[];
  /** Polytope parts for the exact axis clearance, or null (bounding-box clearance). */
  parts: Part[] | null;
  /** The shape's extreme coordinates along ±axes (for the bounding-box clearance). */
  lo: V;
  hi: V;
}

const place = (p: V, s: number, o: V): V => [p[0] * s + o[0], p[1] * s + o[1], p[2] * s + o[2]];

function extent(points: V[], pad = 0): { lo: V; hi: V } {
  const lo: V = [0, 1, 2].map((i) => Math.min(...points.map((p) => p[i])) - pad) as V;
  const hi: V = [0, 1, 2].map((i) => Math.max(...points.map((p) => p[i])) + pad) as V;
  return { lo, hi };
}

function triangleSamples(t: V[], n = 12): V[] {
  const out: V[] = [];
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= n - i; j++) {
      const a = i / n;
      const b = j / n;
      const c = 1 - a - b;
      out.push([0, 1, 2].map((k) => a * t[0][k] + b * t[1][k] + c * t[2][k]) as V);
    }
  return out;
}

function boxShape(center: V, half: V): TestShape {
  const lo = sub(center, half);
  const hi: V = [center[0] + half[0], center[1] + half[1], center[2] + half[2]];
  const samples: V[] = [];
  const n = 6;
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= n; j++)
      for (let k = 0; k <= n; k++)
        samples.push([
          lo[0] + ((hi[0] - lo[0]) * i) / n,
          lo[1] + ((hi[1] - lo[1]) * j) / n,
          lo[2] + ((hi[2] - lo[2]) * k) / n,
        ]);
  return {
    kind: "box",
    json: (s, o) => ({
      type: "box",
      center: place(center, s, o),
      halfExtents: half.map((h) => h * s),
    }),
    samples,
    parts: [boxPart(lo, hi)],
    lo,
    hi,
  };
}

function triangleShape(t: V[]): TestShape {
  return {
    kind: "triangle",
    json: (s, o) => ({
      type: "triangle",
      a: place(t[0], s, o),
      b: place(t[1], s, o),
      c: place(t[2], s, o),
    }),
    samples: triangleSamples(t),
    parts: [trianglePart(t)],
    ...extent(t),
  };
}

/** A rectangle sheet (a surface mesh of two triangles). */
function sheetShape(c: V[]): TestShape {
  const t1 = [c[0], c[1], c[2]];
  const t2 = [c[0], c[2], c[3]];
  return {
    kind: "sheet",
    json: (s, o) => ({
      type: "mesh",
      vertices: c.map((p) => place(p, s, o)),
      indices: [
        [0, 1, 2],
        [0, 2, 3],
      ],
    }),
    samples: [...triangleSamples(t1), ...triangleSamples(t2)],
    parts: [trianglePart(t1), trianglePart(t2)],
    ...extent(c),
  };
}

function capsuleShape(a: V, b: V, r: number): TestShape {
  const samples: V[] = [];
  for (let i = 0; i <= 10; i++) {
    const p = [0, 1, 2].map((k) => a[k] + ((b[k] - a[k]) * i) / 10) as V;
    samples.push(p);
    for (const ax of AXES)
      for (const sg of [-1, 1])
        samples.push([p[0] + sg * r * ax[0], p[1] + sg * r * ax[1], p[2] + sg * r * ax[2]]);
  }
  return {
    kind: "capsule",
    json: (s, o) => ({ type: "capsule", a: place(a, s, o), b: place(b, s, o), radius: r * s }),
    samples,
    parts: null,
    ...extent([a, b], r),
  };
}

function sphereShape(c: V, r: number): TestShape {
  const samples: V[] = [c];
  for (const ax of AXES)
    for (const sg of [-1, 1])
      samples.push([c[0] + sg * r * ax[0], c[1] + sg * r * ax[1], c[2] + sg * r * ax[2]]);
  return {
    kind: "sphere",
    json: (s, o) => ({ type: "sphere", center: place(c, s, o), radius: r * s }),
    samples,
    parts: null,
    ...extent([c], r),
  };
}

function hullShape(points: V[], weights: number[][]): TestShape {
  const samples: V[] = [...points];
  for (const w of weights) {
    const sum = w.reduce((x, y) => x + y, 0);
    samples.push(
      [0, 1, 2].map((k) => points.reduce((acc, p, i) => acc + (w[i] / sum) * p[k], 0)) as V,
    );
  }
  return {
    kind: "hull",
    json: (s, o) => ({ type: "convex", points: points.map((p) => place(p, s, o)) }),
    samples,
    parts: null,
    ...extent(points),
  };
}

/** A flat heightfield at height h over [0, 2] × [0, 1] (x, z): 3 × 3 vertices, 8 triangles. */
function flatFieldShape(h: number): TestShape {
  const tris: V[][] = [];
  for (let r = 0; r < 2; r++)
    for (let c = 0; c < 2; c++) {
      const p = (rr: number, cc: number): V => [cc, h, rr * 0.5];
      tris.push([p(r, c), p(r + 1, c + 1), p(r, c + 1)], [p(r, c), p(r + 1, c), p(r + 1, c + 1)]);
    }
  return {
    kind: "heightfield",
    json: (s, o) => ({
      type: "heightfield",
      rows: 3,
      cols: 3,
      heights: Array(9).fill(h),
      scale: [s, s, 0.5 * s],
      position: o,
    }),
    samples: tris.flatMap((t) => triangleSamples(t, 6)),
    parts: tris.map(trianglePart),
    ...extent(tris.flat()),
  };
}

/** A compound of boxes (centres, half extents); the union's samples and parts. */
function compoundShape(boxes: [V, V][]): TestShape {
  const shapes = boxes.map(([c, h]) => boxShape(c, h));
  return {
    kind: "compound",
    json: (s, o) => ({
      type: "compound",
      children: boxes.map(([c, h]) => ({
        shape: { type: "box", center: [0, 0, 0], halfExtents: h.map((x) => x * s) },
        position: place(c, s, o),
      })),
    }),
    samples: shapes.flatMap((x) => x.samples),
    parts: shapes.flatMap((x) => x.parts ?? []),
    ...extent(shapes.flatMap((x) => [x.lo, x.hi])),
  };
}

/** The oracle's bracket of the depth in unit coordinates: [lower, upper]. */
function oracle(voxels: V[], shape: TestShape): { lower: number; upper: number } {
  let lower = 0;
  for (const p of shape.samples) {
    const d = depthInside(voxels, p);
    if (d !== null && d > lower) lower = d;
  }
  let upper = Infinity;
  if (shape.parts !== null) {
    for (const ax of AXES)
      for (const sg of [-1, 1]) {
        const d: V = [sg * ax[0], sg * ax[1], sg * ax[2]];
        upper = Math.min(upper, axisClearance(voxels, shape.parts, d));
      }
  } else {
    const { lo, hi } = extent(voxels.flatMap((v) => [v, [v[0] + 1, v[1] + 1, v[2] + 1] as V]));
    for (let i = 0; i < 3; i++) upper = Math.min(upper, hi[i] - shape.lo[i], shape.hi[i] - lo[i]);
    upper = Math.max(0, upper);
  }
  return { lower, upper };
}

function solidJson(voxels: V[], s: number, o: V) {
  const m = voxelMesh(voxels);
  return {
    type: "mesh",
    vertices: m.vertices.map((v) => [v[0] * s, v[1] * s, v[2] * s]),
    indices: m.indices,
    position: o,
    solid: true,
  };
}

/** Asserts the answer's bracket meets the oracle's (both orders), scale s, offset o. */
function checkBracket(voxels: V[], shape: TestShape, s: number, o: V): void {
  const { lower, upper } = oracle(voxels, shape);
  const tol = 1e-9 * s + 256 * Number.EPSILON * (Math.max(...o.map(Math.abs)) + 4 * s);
  const solid = solidJson(voxels, s, o);
  const other = shape.json(s, o);
  for (const swap of [false, true]) {
    const q = swap ? { op: "contact", a: other, b: solid } : { op: "contact", a: solid, b: other };
    const c = answerQuery(q) as ContactAnswer | null;
    const what = `${shape.kind} ${JSON.stringify(q.a === solid ? other : other)} swap=${swap} s=${s} o=${o} oracle [${lower}, ${upper}] got ${JSON.stringify(c)}`;
    if (c === null) {
      // Apart: nothing of the shape is inside.
      expect(lower * s, what).toBeLessThanOrEqual(tol);
      continue;
    }
    expect(Number.isNaN(c.distance) || Number.isNaN(c.errorBound), what).toBe(false);
    const hi = -c.distance;
    const lo = hi - c.errorBound;
    expect(hi, what).toBeGreaterThanOrEqual(lower * s - tol);
    expect(lo, what).toBeLessThanOrEqual(upper * s + tol);
    // Witnesses: (pointB − pointA)·normal = distance.
    const gap = dot(sub(c.pointB, c.pointA), c.normal);
    expect(Math.abs(gap - c.distance), what).toBeLessThanOrEqual(tol + 1e-9 * Math.abs(c.distance));
  }
}

describe("the fresh user's repros (solidL.exp, by hand)", () => {
  const L = L_VOXELS;
  it("a sheet at y = 0.5 across the L's foot, edges on its faces: depth 0.5 (was 0)", () => {
    const sheet = sheetShape([
      [0, 0.5, 0],
      [2, 0.5, 0],
      [2, 0.5, 1],
      [0, 0.5, 1],
    ]);
    const c = answerQuery({
      op: "contact",
      a: solidJson(L, 1, [0, 0, 0]),
      b: sheet.json(1, [0, 0, 0]),
    }) as ContactAnswer;
    expect(-c.distance).toBeGreaterThanOrEqual(0.5 - 1e-12);
    expect(-c.distance - c.errorBound).toBeLessThanOrEqual(0.5 + 1e-12);
    checkBracket(L, sheet, 1, [0, 0, 0]);
  });
  it("the triangle (0,.5,0) (1,.5,1) (1,.5,0) inside the foot: 0.5 (was 0)", () => {
    const t = triangleShape([
      [0, 0.5, 0],
      [1, 0.5, 1],
      [1, 0.5, 0],
    ]);
    const c = answerQuery({
      op: "contact",
      a: t.json(1, [0, 0, 0]),
      b: solidJson(L, 1, [0, 0, 0]),
    }) as ContactAnswer;
    expect(-c.distance).toBeCloseTo(0.5, 12);
    expect(-c.distance - c.errorBound).toBeLessThanOrEqual(0.5 + 1e-12);
    checkBracket(L, t, 1, [0, 0, 0]);
  });
  it("a box crossing the foot's top: depth 0.4 along +y (was −0.2, errorBound 0)", () => {
    const b = boxShape([1.5, 0.9, 0.5], [0.3, 0.3, 0.3]);
    const c = answerQuery({
      op: "contact",
      a: b.json(1, [0, 0, 0]),
      b: solidJson(L, 1, [0, 0, 0]),
    }) as ContactAnswer;
    expect(-c.distance).toBeCloseTo(0.4, 12);
    expect(-c.distance - c.errorBound).toBeLessThanOrEqual(0.4 + 1e-12);
    expect(c.normal[1]).toBeCloseTo(-1, 12);
    checkBracket(L, b, 1, [0, 0, 0]);
  });
  it("triangle L6 crossing the L (a point 0.498 deep; was −0.0013): within its bracket", () => {
    const t = triangleShape([
      [0.5156900959760595, 0.8572191734534773, 0.10968040766900097],
      [-0.0013292448664337653, 1.0411635609145486, 0.7698885344357257],
      [0.7073257512211446, 1.082383768131018, 0.6666118022720607],
    ]);
    const c = answerQuery({
      op: "contact",
      a: t.json(1, [0, 0, 0]),
      b: solidJson(L, 1, [0, 0, 0]),
    }) as ContactAnswer;
    expect(-c.distance).toBeGreaterThanOrEqual(0.498);
    checkBracket(L, t, 1, [0, 0, 0]);
  });
  it("a box resting on the foot's top (touching) keeps 0 with errorBound 0", () => {
    const b = boxShape([1.5, 1.3, 0.5], [0.3, 0.3, 0.3]);
    const c = answerQuery({
      op: "contact",
      a: solidJson(L, 1, [0, 0, 0]),
      b: b.json(1, [0, 0, 0]),
    }) as ContactAnswer;
    expect(c.distance).toBe(0);
    expect(c.errorBound).toBe(0);
  });
  it("a box in the foot whose nearest way out is blocked by the arm: the bracket holds", () => {
    // Nearest surface the foot's top at x > 1 (0.05 away), but pushing up along +y meets the arm.
    const b = boxShape([1, 0.75, 0.5], [0.5, 0.2, 0.2]);
    checkBracket(L, b, 1, [0, 0, 0]);
  });
});

/** Deterministic generator (mulberry32) for the shapes' numbers. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random shape in or across the solid's box [0, w] × [0, 2] × [0, 1]; snapped to quarters half the time. */
function randomShape(seed: number, w: number): TestShape {
  const r = rng(seed);
  const snap = r() < 0.5;
  const q = (x: number) => (snap ? Math.round(x * 4) / 4 : x);
  const pt = (): V => [q(-0.3 + r() * (w + 0.6)), q(-0.3 + r() * 2.6), q(-0.3 + r() * 1.6)];
  const near = (c: V, k: number): V => [
    q(c[0] + (r() - 0.5) * k),
    q(c[1] + (r() - 0.5) * k),
    q(c[2] + (r() - 0.5) * k),
  ];
  const kind = Math.floor(r() * 6);
  const c = pt();
  if (kind === 0) {
    const h: V = [
      q(0.05 + r() * 0.7) || 0.25,
      q(0.05 + r() * 0.7) || 0.25,
      q(0.05 + r() * 0.5) || 0.25,
    ];
    return boxShape(c, h);
  }
  if (kind === 1) return triangleShape([near(c, 1.4), near(c, 1.4), near(c, 1.4)]);
  if (kind === 2) {
    // An axis-aligned rectangle sheet.
    const axis = Math.floor(r() * 3);
    const u = (axis + 1) % 3;
    const v = (axis + 2) % 3;
    const a0 = q(r() * w * 0.8);
    const a1 = q(a0 + 0.25 + r() * 1.5);
    const b0 = q(r() * 0.8);
    const b1 = q(b0 + 0.25 + r() * 1.2);
    const corner = (x: number, y: number): V => {
      const p: V = [0, 0, 0];
      p[axis] = c[axis];
      p[u] = x;
      p[v] = y;
      return p;
    };
    return sheetShape([corner(a0, b0), corner(a1, b0), corner(a1, b1), corner(a0, b1)]);
  }
  if (kind === 3) return capsuleShape(c, near(c, 1.5), q(0.05 + r() * 0.4) || 0.25);
  if (kind === 4) return sphereShape(c, q(0.05 + r() * 0.6) || 0.25);
  const pts = [0, 1, 2, 3, 4, 5].map(() => near(c, 1.2));
  const weights = Array.from({ length: 40 }, () => pts.map(() => r()));
  return hullShape(pts, weights);
}

describe("the manifold and the world (finding 1's world repro)", () => {
  it("the manifold of a sheet across the L's foot is the contact's one point at −0.5", () => {
    const m = answerQuery({
      op: "manifold",
      a: solidJson(L_VOXELS, 1, [0, 0, 0]),
      b: sheetShape([
        [0, 0.5, 0],
        [1, 0.5, 0],
        [1, 0.5, 1],
        [0, 0.5, 1],
      ]).json(1, [0, 0, 0]),
    }) as { normal: V; points: { distance: number }[] };
    expect(Math.min(...m.points.map((p) => p.distance))).toBeCloseTo(-0.5, 12);
  });
  it("a world of the L and the sheet: a contact at depth 0.5 (was 0)", () => {
    const L = voxelMesh(L_VOXELS);
    const solid = makeTriangleMesh(
      new Float64Array(L.vertices.flat()),
      new Uint32Array(L.indices.flat()),
      undefined,
      { solid: true },
    );
    const sheet = makeTriangleMesh(
      new Float64Array([0, 0.5, 0, 1, 0.5, 0, 1, 0.5, 1, 0, 0.5, 1]),
      new Uint32Array([0, 2, 1, 0, 3, 2]),
    );
    const pose = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
    const w = new CollisionWorld({});
    w.addBody({ shape: solid, pose });
    w.addBody({ shape: sheet, pose });
    w.step();
    const cs = [...w.contacts()];
    expect(cs.length).toBe(1);
    expect(cs[0].distance).toBeCloseTo(-0.5, 12);
  });
  it("a box resting 1e-3 deep on the L's top keeps the triangles' manifold (four points, 1e-3)", () => {
    const m = answerQuery({
      op: "manifold",
      a: solidJson(L_VOXELS, 1, [0, 0, 0]),
      b: boxShape([1.5, 1.299, 0.5], [0.3, 0.3, 0.3]).json(1, [0, 0, 0]),
    }) as { normal: V; points: { distance: number }[] };
    expect(m.points.length).toBe(4);
    for (const p of m.points) expect(p.distance).toBeCloseTo(-1e-3, 12);
    const c = answerQuery({
      op: "contact",
      a: solidJson(L_VOXELS, 1, [0, 0, 0]),
      b: boxShape([1.5, 1.299, 0.5], [0.3, 0.3, 0.3]).json(1, [0, 0, 0]),
    }) as ContactAnswer;
    expect(c.distance).toBeCloseTo(-1e-3, 12);
    // The rounding band only (2^-30 of the box's size): the sample corners are 1e-3 deep.
    expect(c.errorBound).toBeLessThan(1e-9);
  });
});

describe("surface parts: heightfield triangles and compound children", () => {
  it("a flat field at y = 0.5 across the L's foot: 0.5 (each triangle's), every scale and offset", () => {
    for (const s of [1e-3, 1, 1e3])
      for (const o of [0, 1e6]) checkBracket(L_VOXELS, flatFieldShape(0.5), s, [o, -o, 0.5 * o]);
    const c = answerQuery({
      op: "contact",
      a: solidJson(L_VOXELS, 1, [0, 0, 0]),
      b: flatFieldShape(0.5).json(1, [0, 0, 0]),
    }) as ContactAnswer;
    expect(-c.distance).toBeGreaterThanOrEqual(0.5 - 1e-12);
  });
  it("a compound of two boxes, one across the foot's top, one in the arm", () => {
    const shape = compoundShape([
      [
        [1.5, 0.9, 0.5],
        [0.3, 0.3, 0.3],
      ],
      [
        [0.5, 1.5, 0.5],
        [0.2, 0.2, 0.2],
      ],
    ]);
    for (const s of [1e-3, 1, 1e3])
      for (const o of [0, 1e6]) checkBracket(L_VOXELS, shape, s, [o, o, -o]);
  });
});

describe("random shapes in and across non-convex voxel solids (fast-check)", () => {
  for (const [name, voxels, w] of [
    ["L", L_VOXELS, 2],
    ["U", U_VOXELS, 3],
  ] as const) {
    it(`${name}: the oracle's bracket meets the answer's, scales 1e-3..1e3, offsets to 1e6`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          fc.integer({ min: -3, max: 3 }),
          fc.constantFrom(0, 1, 1e3, 1e6),
          (seed, e, off) => {
            const shape = randomShape(seed, w);
            const s = 10 ** e;
            const o: V = [off, -0.5 * off, 0.25 * off];
            checkBracket(voxels as V[], shape, s, o);
          },
        ),
        { numRuns: 250, seed: 40 },
      );
    });
  }
});

/**
 * Least clearance of an axis-aligned box over the 26 directions (±1, 0)³ (normalized), each by
 * the exact separating-axis clearance along it ({@link axisClearance}): an upper bound of D.
 */
function gridDirectionUpper(voxels: V[], lo: V, hi: V): number {
  let best = Infinity;
  for (const x of [-1, 0, 1])
    for (const y of [-1, 0, 1])
      for (const z of [-1, 0, 1]) {
        const l = Math.hypot(x, y, z);
        if (l === 0) continue;
        best = Math.min(best, axisClearance(voxels, [boxPart(lo, hi)], [x / l, y / l, z / l]));
      }
  return best;
}

/** The contact of the solid (A) and the shape (B), both orders, scale s, offset o. */
function bothOrders(voxels: V[], shape: TestShape, s: number, o: V): ContactAnswer[] {
  const solid = solidJson(voxels, s, o);
  const other = shape.json(s, o);
  return [
    answerQuery({ op: "contact", a: solid, b: other }) as ContactAnswer,
    answerQuery({ op: "contact", a: other, b: solid }) as ContactAnswer,
  ];
}

describe("a box wholly inside a non-convex solid: the bracket is tight (session 41)", () => {
  const scales = [1e-3, 1, 1e3];
  const offsets = [0, 1e6];
  it("beside the L's re-entrant edge: D = √0.2 exactly (was [0.308, 0.65])", () => {
    // The box [0.6, 0.7] × [0.8, 1.3] × [0.35, 0.95] in the arm, its lower edge beside the
    // re-entrant edge x = y = 1: its point (0.6, 0.8, 0.5) is √(0.4² + 0.2²) from that edge and
    // farther from every face (0.5 from z = 0 and z = 1), so D ≥ √0.2; the push (0.4, 0.2, 0)
    // takes it into the empty cell [1, 2] × [1, 2] × [0, 1], touching the arm's side and the
    // foot's top, so D ≤ √0.2. Every face's normal needs more (+z: 0.65; −x: 0.7).
    const box = boxShape([0.65, 1.05, 0.65], [0.05, 0.25, 0.3]);
    const D = Math.sqrt(0.2);
    for (const s of scales)
      for (const off of offsets) {
        const o: V = [off, -0.5 * off, 0.25 * off];
        const tol = 1e-9 * s + 256 * Number.EPSILON * (off + 4 * s);
        for (const c of bothOrders(L_VOXELS, box, s, o)) {
          expect(Math.abs(-c.distance - D * s)).toBeLessThanOrEqual(tol);
          expect(c.errorBound).toBeLessThanOrEqual(2 * tol);
          // The normal along (2, 1, 0)/√5, to the push's rounding over its length.
          const bar = 1e-12 + (4 * tol) / (D * s);
          expect(Math.abs(Math.abs(c.normal[0]) - 2 / Math.sqrt(5))).toBeLessThan(bar);
          expect(Math.abs(Math.abs(c.normal[1]) - 1 / Math.sqrt(5))).toBeLessThan(bar);
        }
        checkBracket(L_VOXELS, box, s, o);
      }
  });
  it("in the L's corner cell beside the re-entrant edge: [0.5, 0.4·√2] (lower was 0.3)", () => {
    // The box [0.6, 0.95]² × [0.3, 0.7]: its point (0.6, 0.6, 0.5) is 0.5 from z = 0 and z = 1
    // and farther from the rest, so D ≥ 0.5; the push (0.4, 0.4, 0) into the empty cell parts
    // them, so D ≤ 0.4·√2 (every face's normal needs 0.7 or more).
    const box = boxShape([0.775, 0.775, 0.5], [0.175, 0.175, 0.2]);
    for (const s of scales)
      for (const off of offsets) {
        const o: V = [off, -0.5 * off, 0.25 * off];
        const tol = 1e-9 * s + 256 * Number.EPSILON * (off + 4 * s);
        for (const c of bothOrders(L_VOXELS, box, s, o)) {
          expect(-c.distance).toBeLessThanOrEqual(0.4 * Math.SQRT2 * s + tol);
          expect(-c.distance - c.errorBound).toBeGreaterThanOrEqual(0.5 * s - 1e-6 * s - tol);
        }
        checkBracket(L_VOXELS, box, s, o);
      }
  });
  for (const [name, voxels, w] of [
    ["L", L_VOXELS, 2],
    ["U", U_VOXELS, 3],
  ] as const) {
    it(`${name}: random boxes inside, upper ≤ the 26 directions' exact clearance, lower near the dense samples'`, () => {
      const filled = new Set((voxels as V[]).map(key));
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          fc.integer({ min: -3, max: 3 }),
          fc.constantFrom(0, 1, 1e3, 1e6),
          (seed, e, off) => {
            const r = rng(seed);
            const h: V = [0.05 + r() * 0.45, 0.05 + r() * 0.45, 0.05 + r() * 0.4];
            const c: V = [
              h[0] + 0.01 + r() * (w - 2 * h[0] - 0.02),
              h[1] + 0.01 + r() * (2 - 2 * h[1] - 0.02),
              h[2] + 0.01 + r() * (1 - 2 * h[2] - 0.02),
            ];
            const lo = sub(c, h);
            const hi: V = [c[0] + h[0], c[1] + h[1], c[2] + h[2]];
            // Wholly inside: the box meets no empty cell of the solid's one layer.
            for (let x = 0; x < w; x++)
              for (let y = 0; y < 2; y++)
                if (
                  !filled.has(`${x},${y},0`) &&
                  hi[0] > x &&
                  lo[0] < x + 1 &&
                  hi[1] > y &&
                  lo[1] < y + 1
                )
                  return;
            const box = boxShape(c, h);
            const s = 10 ** e;
            const o: V = [off, -0.5 * off, 0.25 * off];
            const tol = 1e-9 * s + 256 * Number.EPSILON * (off + 4 * s);
            const upper = gridDirectionUpper(voxels as V[], lo, hi);
            const { lower } = oracle(voxels as V[], box);
            for (const a of bothOrders(voxels as V[], box, s, o)) {
              const what = `c=${c} h=${h} s=${s} o=${o} oracle [${lower}, ${upper}] got ${JSON.stringify(a)}`;
              expect(-a.distance, what).toBeLessThanOrEqual(upper * s + tol);
              expect(-a.distance - a.errorBound, what).toBeGreaterThanOrEqual(
                (lower - 0.01) * s - tol,
              );
            }
            checkBracket(voxels as V[], box, s, o);
          },
        ),
        { numRuns: 60, seed: 41 },
      );
    });
  }
});
