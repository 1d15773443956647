/**
 * Generator of the class "polytopes sharing exactly one point" (session 23's findings F1/F2):
 * exactly representable placements where a vertex of one polytope coincides with a vertex of
 * the other, lies on its edge or inside its face, the two on opposite sides of a plane through
 * the point — so the shapes touch (share that point) by construction, decided with integer
 * arithmetic on the generating vectors, not by any library routine.
 */
import fc from "fast-check";

export type V = number[];
export type J = Record<string, unknown>;

/**
 * How the shared point sits: A's vertex on B's vertex, inside B's edge or inside B's face; or
 * ("ee") an edge of A crossing an edge of B at interior points of both (hulls and triangles).
 */
export type Kind = "vv" | "ve" | "vf" | "ee";
export type Type3 = "hull" | "aabb" | "box" | "tri";

const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const dot = (a: V, b: V) => a.reduce((s, x, i) => s + x * b[i], 0);
const zero = (a: V) => a.every((x) => x === 0);

export interface TouchCase3 {
  kind: Kind;
  a: J;
  b: J;
  /** The shared point (world). */
  p: V;
  /** The local generating data, for messages. */
  note: string;
}

/** P + g·w, each coordinate exact (checked by the caller). */
function at(p: V, g: number, w: V): V {
  return p.map((x, i) => x + g * w[i]);
}

/**
 * A of type `ta` with a vertex at p and every other point strictly on n·(x − p) < 0; integer
 * vectors `ws` (scaled by g) give its other points. Returns null when the type cannot be placed
 * (an aabb needs n's components to fix a corner: any sign works, zero components free).
 */
function vertexShape(ta: Type3, p: V, g: number, n: V, ws: V[], edge: V | null): J | null {
  if (ta === "hull" || ta === "tri") {
    const pts: V[] =
      edge === null
        ? [p]
        : [
            at(p, g, edge),
            at(
              p,
              g,
              edge.map((x) => -2 * x),
            ),
          ];
    for (const w of ws) {
      const s = dot(n, w);
      if (s === 0) continue;
      pts.push(at(p, g, s < 0 ? w : w.map((x) => -x)));
      if (ta === "tri" && pts.length === 3) break;
    }
    if (ta === "tri") {
      if (pts.length < 3) return null;
      if (edge !== null) return { type: "triangle", a: pts[0], b: pts[1], c: pts[2] };
      const e = cross(
        pts[1].map((x, i) => x - pts[0][i]),
        pts[2].map((x, i) => x - pts[0][i]),
      );
      if (zero(e)) return null;
      return { type: "triangle", a: pts[0], b: pts[1], c: pts[2] };
    }
    if (pts.length < 5) return null;
    return hullAt(pts, p);
  }
  // A box with its corner at p, extending along σ_i = −sign(n_i) (n_i = 0: the sign of ws[0]).
  const ext = ws[1].map((x) => 1 + (Math.abs(x) % 17));
  const sig = n.map((x, i) => (x > 0 ? -1 : x < 0 ? 1 : ws[0][i] >= 0 ? 1 : -1));
  const far = p.map((x, i) => x + g * sig[i] * ext[i]);
  if (ta === "aabb") {
    return {
      type: "aabb",
      min: p.map((x, i) => Math.min(x, far[i])),
      max: p.map((x, i) => Math.max(x, far[i])),
    };
  }
  const h = ext.map((e) => (g * e) / 2);
  return {
    type: "box",
    center: p.map((x, i) => x + sig[i] * h[i]),
    halfExtents: h,
    rotation: [0, 0, 0, 1],
  };
}

/**
 * B of type `tb` on n·(x − p) ≥ 0 holding p as a vertex ("vv"), inside an edge ("ve") or
 * inside a face ("vf"), its other points strictly on the positive side. Integer data `ws`.
 * For a box, n is replaced by one fitting the box (returned in `nOut`).
 */
function featureShape(tb: Type3, kind: Kind, p: V, g: number, n: V, ws: V[], nOut: V): J | null {
  for (let i = 0; i < 3; i++) nOut[i] = n[i];
  if (tb === "aabb" || tb === "box") {
    // The box's extent per axis [lo, hi]·g about p: `kind` decides how many axes are fixed at p
    // (vv: 3, ve: 2, vf: 1); the fixed axes' side gives n.
    const fixed = kind === "vv" ? 3 : kind === "ve" ? 2 : 1;
    const first = Math.abs(ws[0][0]) % 3;
    const lo: V = [];
    const hi: V = [];
    for (let k = 0; k < 3; k++) {
      const i = (first + k) % 3;
      const e = 1 + (Math.abs(ws[2][i]) % 13);
      if (k < fixed) {
        const s = ws[3][i] >= 0 ? 1 : -1;
        lo[i] = s > 0 ? 0 : -e;
        hi[i] = s > 0 ? e : 0;
        nOut[i] = s;
      } else {
        lo[i] = -(1 + (Math.abs(ws[4][i]) % 11));
        hi[i] = 1 + (Math.abs(ws[5][i]) % 11);
        nOut[i] = 0;
      }
    }
    const mn = p.map((x, i) => x + g * lo[i]);
    const mx = p.map((x, i) => x + g * hi[i]);
    if (tb === "aabb") return { type: "aabb", min: mn, max: mx };
    // Box centre and half extents exact: the extents even multiples of g/2.
    return {
      type: "box",
      center: mn.map((x, i) => (x + mx[i]) / 2),
      halfExtents: mn.map((x, i) => (mx[i] - x) / 2),
      rotation: [0, 0, 0, 1],
    };
  }
  const pts: V[] = [];
  if (kind === "vv") pts.push(p);
  else if (kind === "ve" || kind === "ee") {
    let e = cross(n, ws[0]);
    if (zero(e)) e = cross(n, ws[1]);
    if (zero(e)) return null;
    const k = 1 + (Math.abs(ws[2][0]) % 5);
    pts.push(
      at(p, g, e),
      at(
        p,
        g,
        e.map((x) => -k * x),
      ),
    );
  } else {
    const u = cross(n, ws[0]);
    const v = cross(n, ws[1]);
    if (zero(cross(u, v))) return null;
    pts.push(
      at(p, g, u),
      at(p, g, v),
      at(
        p,
        g,
        u.map((x, i) => -x - v[i]),
      ),
    );
  }
  const need = tb === "tri" ? 3 : pts.length + 3;
  for (const w of ws.slice(3)) {
    if (pts.length >= need) break;
    const s = dot(n, w);
    if (s === 0) continue;
    pts.push(at(p, g, s > 0 ? w : w.map((x) => -x)));
  }
  if (pts.length < need) return null;
  if (tb === "tri") {
    if (kind === "vf") return { type: "triangle", a: pts[0], b: pts[1], c: pts[2] };
    const e = cross(
      pts[1].map((x, i) => x - pts[0][i]),
      pts[2].map((x, i) => x - pts[0][i]),
    );
    if (zero(e)) return null;
    return { type: "triangle", a: pts[0], b: pts[1], c: pts[2] };
  }
  return hullAt(pts, p);
}

/**
 * A hull of world points `pts` placed as the fuzzer places one: its points relative to `p`
 * (exact: each is p plus a multiple of a grid step p is a multiple of) at `position` p; at
 * p = 0 the world points themselves, as a scene gives them.
 */
function hullAt(pts: V[], p: V): J {
  if (p.every((x) => x === 0)) return { type: "convex", points: pts };
  return { type: "convex", points: pts.map((q) => q.map((x, i) => x - p[i])), position: p };
}

/** Every number of the JSON shape, for the exactness check. */
function numbers(j: J): number[] {
  const out: number[] = [];
  for (const v of Object.values(j)) {
    if (Array.isArray(v))
      for (const x of v) Array.isArray(x) ? out.push(...x) : out.push(x as number);
  }
  return out.filter((x) => typeof x === "number");
}

const small = fc.integer({ min: -40, max: 40 });
const vec = fc.tuple(small, small, small).map((t) => [...t] as V);
const normal = fc
  .tuple(
    fc.integer({ min: -2, max: 2 }),
    fc.integer({ min: -2, max: 2 }),
    fc.integer({ min: -2, max: 2 }),
  )
  .map((t) => [...t] as V)
  .filter((n) => !zero(n));

/**
 * Touching polytope pairs: grid sizes 2^eA and 2^eB (eA in [−20, 14], |eA − eB| ≤ 27: sizes
 * 1e-6..1e6, ratios to 1e8), the shared point at up to ±2^30 ≈ 1e9 on the finer grid, types
 * among hull / aabb / box / triangle. Null-mapped draws (a type that cannot be placed, a
 * coordinate not exact) are filtered out.
 */
export const touchCase3 = (types: Type3[] = ["hull", "aabb", "box", "tri"]) =>
  fc
    .record({
      kind: fc.constantFrom<Kind>("vv", "ve", "vf", "ee"),
      ta: fc.constantFrom(...types),
      tb: fc.constantFrom(...types),
      eA: fc.integer({ min: -20, max: 14 }),
      dE: fc.integer({ min: -27, max: 27 }),
      offE: fc.integer({ min: -30, max: 30 }),
      off: vec,
      n: normal,
      wa: fc.array(vec, { minLength: 10, maxLength: 10 }),
      wb: fc.array(vec, { minLength: 10, maxLength: 10 }),
    })
    .map((r): TouchCase3 | null => {
      const eB = Math.max(-20, Math.min(14, r.eA + r.dE));
      const gA = 2 ** r.eA;
      const gB = 2 ** eB;
      const fine = Math.min(gA, gB);
      // The shared point: a multiple of the finer grid, up to 40·2^offE (≤ ~4e10 — clamped so
      // that it stays within 2^52 grid steps).
      const p = r.off.map((k) => {
        const x = k * 2 ** r.offE;
        return Math.round(x / fine) * fine;
      });
      if (
        r.kind === "ee" &&
        (r.ta === "aabb" || r.ta === "box" || r.tb === "aabb" || r.tb === "box")
      ) {
        return null;
      }
      const nB: V = [0, 0, 0];
      const b = featureShape(r.tb, r.kind, p, gB, r.n, r.wb, nB);
      if (b === null) return null;
      // A on the other side of the plane with normal nB through p; for "ee", A's edge through p
      // along n × wa[9], not parallel to B's edge (n × wb[0]).
      let edge: V | null = null;
      if (r.kind === "ee") {
        edge = cross(nB, r.wa[9]);
        if (zero(edge) || zero(cross(edge, cross(nB, r.wb[0])))) return null;
      }
      const a = vertexShape(r.ta, p, gA, nB, r.wa, edge);
      if (a === null) return null;
      // Exactness: every coordinate an integer multiple of its grid within 2^52 steps.
      for (const [j, g] of [
        [a, gA],
        [b, gB],
      ] as [J, number][]) {
        for (const x of numbers(j)) {
          if (
            !Number.isFinite(x) ||
            Math.abs(x / (g / 2)) > 2 ** 52 ||
            Math.abs(x / fine) > 2 ** 52
          )
            return null;
        }
      }
      for (const x of p) if (Math.abs(x / fine) > 2 ** 50) return null;
      return { kind: r.kind, a, b, p, note: `${r.ta}-${r.tb} ${r.kind} gA=2^${r.eA} gB=2^${eB}` };
    })
    .filter((c): c is TouchCase3 => c !== null);

/** Convex hull (counter-clockwise, no collinear points) of integer points: Andrew's monotone chain. */
export function hull2(points: V[]): V[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const turn = (o: V, a: V, b: V) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: V[] = [];
  for (const q of p) {
    while (lower.length >= 2 && turn(lower[lower.length - 2], lower[lower.length - 1], q) <= 0)
      lower.pop();
    lower.push(q);
  }
  const upper: V[] = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i];
    while (upper.length >= 2 && turn(upper[upper.length - 2], upper[upper.length - 1], q) <= 0)
      upper.pop();
    upper.push(q);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

export interface TouchCase2 {
  kind: "vv" | "ve";
  a: J;
  b: J;
  p: V;
  note: string;
}

const vec2 = fc.tuple(small, small).map((t) => [...t] as V);

/**
 * Touching 2D polygon pairs (a `polygon` or a `rect`): A holds p as a vertex, B holds it as a
 * vertex ("vv") or inside an edge ("ve"), on either side of a line through p; grids and offsets
 * as {@link touchCase3}. The polygons' points are the exact convex hulls of their integer
 * generating points, in a random winding.
 */
export const touchCase2 = () =>
  fc
    .record({
      kind: fc.constantFrom<"vv" | "ve">("vv", "ve"),
      ta: fc.constantFrom("polygon", "rect"),
      tb: fc.constantFrom("polygon", "rect"),
      eA: fc.integer({ min: -20, max: 14 }),
      dE: fc.integer({ min: -27, max: 27 }),
      offE: fc.integer({ min: -30, max: 30 }),
      off: vec2,
      n: fc
        .tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }))
        .map((t) => [...t] as V)
        .filter((n) => n[0] !== 0 || n[1] !== 0),
      wa: fc.array(vec2, { minLength: 8, maxLength: 8 }),
      wb: fc.array(vec2, { minLength: 8, maxLength: 8 }),
      cw: fc.boolean(),
    })
    .map((r): TouchCase2 | null => {
      const eB = Math.max(-20, Math.min(14, r.eA + r.dE));
      const gA = 2 ** r.eA;
      const gB = 2 ** eB;
      const fine = Math.min(gA, gB);
      const p = r.off.map((k) => Math.round((k * 2 ** r.offE) / fine) * fine);
      let n = r.n;
      const place = (g: number, pts: V[]) => pts.map((w) => [p[0] + g * w[0], p[1] + g * w[1]]);
      const poly = (g: number, pts: V[]): J | null => {
        const h = hull2(pts);
        if (h.length < 3) return null;
        const w = place(g, h);
        return { type: "polygon", points: r.cw ? w.reverse() : w };
      };
      // B first (a rect fixes the line's normal), then A on the other side.
      let b: J | null;
      if (r.tb === "rect") {
        const ext = r.wb[0].map((x) => 1 + (Math.abs(x) % 13));
        const s = r.wb[1].map((x) => (x >= 0 ? 1 : -1));
        const lo = [s[0] > 0 ? 0 : -ext[0], s[1] > 0 ? 0 : -ext[1]];
        const hi = [s[0] > 0 ? ext[0] : 0, s[1] > 0 ? ext[1] : 0];
        if (r.kind === "ve") {
          // p inside the edge normal to axis 0.
          lo[1] = -1 - (Math.abs(r.wb[2][1]) % 7);
          hi[1] = 1 + (Math.abs(r.wb[3][1]) % 7);
          n = [s[0], 0];
        } else n = [s[0], s[1]];
        b = { type: "rect", min: place(gB, [lo])[0], max: place(gB, [hi])[0] };
      } else {
        const pts: V[] = [];
        if (r.kind === "vv") pts.push([0, 0]);
        else {
          const e = [-n[1], n[0]];
          const k = 1 + (Math.abs(r.wb[0][0]) % 5);
          pts.push(e, [-k * e[0], -k * e[1]]);
        }
        for (const w of r.wb) {
          const d = n[0] * w[0] + n[1] * w[1];
          if (d !== 0) pts.push(d > 0 ? w : [-w[0], -w[1]]);
        }
        b = poly(gB, pts);
      }
      if (b === null) return null;
      let a: J | null;
      if (r.ta === "rect") {
        const ext = r.wa[0].map((x) => 1 + (Math.abs(x) % 13));
        const sig = n.map((x, i) => (x > 0 ? -1 : x < 0 ? 1 : r.wa[1][i] >= 0 ? 1 : -1));
        const far = [sig[0] * ext[0], sig[1] * ext[1]];
        const q = place(gA, [far])[0];
        a = {
          type: "rect",
          min: [Math.min(p[0], q[0]), Math.min(p[1], q[1])],
          max: [Math.max(p[0], q[0]), Math.max(p[1], q[1])],
        };
      } else {
        const pts: V[] = [[0, 0]];
        for (const w of r.wa) {
          const d = n[0] * w[0] + n[1] * w[1];
          if (d !== 0) pts.push(d < 0 ? w : [-w[0], -w[1]]);
        }
        a = poly(gA, pts);
      }
      if (a === null) return null;
      for (const x of p) if (Math.abs(x / fine) > 2 ** 50) return null;
      return { kind: r.kind, a, b, p, note: `${r.ta}-${r.tb} ${r.kind} gA=2^${r.eA} gB=2^${eB}` };
    })
    .filter((c): c is TouchCase2 => c !== null);
