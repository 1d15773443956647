/**
 * Closest points on the simplices — segment, triangle, tetrahedron — to a query point, with the
 * barycentric weights of the answer (Ericson 2005, §5.1.2, §5.1.5, §5.1.6). Every routine
 * accepts degenerate input (a zero-length segment, a zero-area triangle, a flat tetrahedron)
 * and returns a finite point of the set: a degenerate simplex is treated as the union of its
 * faces. Weights go to an optional `weights` array (one per vertex, summing to 1).
 */
import {
  GJK_DEGENERATE_SIMPLEX_TOLERANCE,
  TRIANGLE_SLIVER_RATIO,
  TRIANGLE_THIN_RATIO,
} from "../constants.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot3, unitScaleFactor } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import {
  detIo,
  exactRange,
  orient3dValue,
  tripleVectorSign,
  tripleVectorValue,
} from "./exact-predicates.js";

/** A writable array of barycentric weights (length ≥ the simplex's vertex count). */
export type Weights = { [index: number]: number };

const ab = vec3.create();
const ap = vec3.create();

/**
 * out = the point of segment [a, b] closest to p (Ericson 2005, §5.1.2). Writes weights
 * (wa, wb) with out = wa·a + wb·b. A zero-length segment gives a. `out` may alias any input.
 * A segment whose squared length leaves [HYPOT_SAFE_MIN, HYPOT_SAFE_MAX] (longer than ~1e145 or
 * shorter than ~1e-145) has its parameter taken in units of its length
 * ({@link segmentParameterScaled}): |b − a|² had overflowed from 1.3e154 on, and a unit ball
 * beside a capsule of 1e160 was answered with NaN. A point nearer b and within 2^-13 of the
 * segment's length from it is measured from b ({@link closestFromNearerEnd}), so its error is a
 * fraction of its offset from b rather than 2^-53 of the whole length.
 */
export function closestPointOnSegment(
  out: Vec3,
  p: Vec3,
  a: Vec3,
  b: Vec3,
  weights?: Weights,
): Vec3 {
  vec3.sub(ab, b, a);
  vec3.sub(ap, p, a);
  // Dot products written out here and below: a double returned by a call V8 does not inline is
  // boxed (allocated), and these run per triangle under the mesh pairs' deep call chains.
  const ee = ab.x * ab.x + ab.y * ab.y + ab.z * ab.z;
  let t = 0;
  if (ee > HYPOT_SAFE_MIN && ee < HYPOT_SAFE_MAX) {
    t = (ap.x * ab.x + ap.y * ab.y + ap.z * ab.z) / ee;
    t = Math.min(Math.max(t, 0), 1);
    if (t > 0.5) {
      // Near the b end a + ab·t carries t's rounding at 1's ulp, 2^-53·|ab| along the segment:
      // measured from b instead when that could tilt p's offset by more than 2^-40 rad.
      const dx = p.x - (a.x + ab.x * t);
      const dy = p.y - (a.y + ab.y * t);
      const dz = p.z - (a.z + ab.z * t);
      if (dx * dx + dy * dy + dz * dz < ee * NEAR_END_RATIO) {
        return closestFromNearerEnd(out, p, b, weights);
      }
    }
  } else if (ab.x !== 0 || ab.y !== 0 || ab.z !== 0) {
    // (Through a register: a double returned by a call V8 does not inline is boxed.)
    segmentParameterScaled();
    t = segmentIo[0];
  }
  if (weights) {
    weights[0] = 1 - t;
    weights[1] = t;
  }
  if (t === 1) return vec3.copy(out, b);
  // out = a + ab·t, written out (t would be boxed passed to a call V8 does not inline).
  out.x = a.x + ab.x * t;
  out.y = a.y + ab.y * t;
  out.z = a.z + ab.z * t;
  return out;
}

/**
 * A point nearer b than a whose distance from the segment is below 2^-13 of its length
 * (squared: 2^-26 of |ab|²) is measured from b: a + ab·t's error along the segment, up to 2^-53 of
 * |ab|, then tilts the offset p − out by up to 2^-40 rad.
 */
const NEAR_END_RATIO = 2 ** -26;

/**
 * The point of segment [a, b] closest to p, for a point whose parameter t lies in (½, 1): out =
 * b − ab·s with s = ((b − p)·ab)/(ab·ab) = 1 − t measured from b, so it keeps its relative
 * precision where t, rounded at 1's ulp, would not (a point 5 up a wall 1e18 long projected from
 * its far end at t = 1 − 5e-18 landed on the near corner, 5 away). Uses the module's `ab`;
 * writes weights (s, 1 − s). Taken only under {@link NEAR_END_RATIO}: taken for every t > ½ its
 * last-bit differences sent the curved world's contacts into rarer, not yet optimized routines
 * (2–3 KB more per step after a 300-step warm-up, the same after 1,500; session 37).
 */
function closestFromNearerEnd(out: Vec3, p: Vec3, b: Vec3, weights?: Weights): Vec3 {
  const ee = ab.x * ab.x + ab.y * ab.y + ab.z * ab.z;
  const s = Math.max(0, ((b.x - p.x) * ab.x + (b.y - p.y) * ab.y + (b.z - p.z) * ab.z) / ee);
  if (weights) {
    weights[0] = s;
    weights[1] = 1 - s;
  }
  out.x = b.x - ab.x * s;
  out.y = b.y - ab.y * s;
  out.z = b.z - ab.z * s;
  return out;
}

/** [0]: the parameter {@link segmentParameterScaled} found. */
const segmentIo = /* @__PURE__ */ new Float64Array(1);

/**
 * segmentIo[0] = the clamped parameter t ∈ [0, 1] of the point of the segment `ab` (module
 * scratch, non-zero) nearest `a + ap`, with both vectors in units of |ab|'s largest component
 * (a power of two, exact): (ap·ab)/(ab·ab) stays a ratio of normal doubles at any length. When
 * even the scaled ap·ab overflows (|ap| beyond 1e308 of |ab|), its sign decides the end.
 */
function segmentParameterScaled(): void {
  const k = unitScaleFactor(Math.max(Math.abs(ab.x), Math.abs(ab.y), Math.abs(ab.z)));
  const ux = ab.x * k;
  const uy = ab.y * k;
  const uz = ab.z * k;
  const dot = ap.x * k * ux + ap.y * k * uy + ap.z * k * uz;
  let t: number;
  if (Number.isFinite(dot)) t = dot / (ux * ux + uy * uy + uz * uz);
  else {
    const j = unitScaleFactor(Math.max(Math.abs(ap.x), Math.abs(ap.y), Math.abs(ap.z)));
    t = ap.x * j * ux + ap.y * j * uy + ap.z * j * uz > 0 ? 1 : 0;
  }
  segmentIo[0] = Math.min(Math.max(t, 0), 1);
}

const segW = new Float64Array(2);
const segP = vec3.create();

/**
 * Closest point over the three edges of triangle abc (the fallback for zero area); writes
 * weights of the winner.
 */
function closestOnTriangleEdges(
  out: Vec3,
  p: Vec3,
  a: Vec3,
  b: Vec3,
  c: Vec3,
  weights?: Weights,
): Vec3 {
  const px = p.x;
  const py = p.y;
  const pz = p.z;
  let best = Infinity;
  let bi = 0;
  let bj = 1;
  let bt = 0;
  let bx = a.x;
  let by = a.y;
  let bz = a.z;
  for (let e = 0; e < 3; e++) {
    const u = e === 0 ? a : e === 1 ? b : c;
    const v = e === 0 ? b : e === 1 ? c : a;
    segP.x = px;
    segP.y = py;
    segP.z = pz;
    closestPointOnSegment(segP, segP, u, v, segW);
    const d = (segP.x - px) ** 2 + (segP.y - py) ** 2 + (segP.z - pz) ** 2;
    if (d < best) {
      best = d;
      bi = e;
      bj = (e + 1) % 3;
      bt = segW[1];
      bx = segP.x;
      by = segP.y;
      bz = segP.z;
    }
  }
  if (weights) {
    weights[0] = 0;
    weights[1] = 0;
    weights[2] = 0;
    weights[bi] = 1 - bt;
    weights[bj] = bt;
  }
  out.x = bx;
  out.y = by;
  out.z = bz;
  return out;
}

/**
 * True when triangle (a, b, c) is a sliver: its rounded |(b − a) × (c − a)| (twice its area) at
 * most {@link TRIANGLE_SLIVER_RATIO} times its longest edge squared (its least height that ratio
 * of its longest edge), collinear or coincident corners and non-finite ones included. Its face
 * normal is then to be taken from {@link sliverNormal}.
 */
export function triangleIsSliver(a: Vec3, b: Vec3, c: Vec3): boolean {
  return triangleThinnerThan(a, b, c, TRIANGLE_SLIVER_RATIO);
}

/**
 * True when triangle (a, b, c)'s rounded |(b − a) × (c − a)| (twice its area) is at most `ratio`
 * times its longest edge squared — its least height at most `ratio` of its longest edge —
 * collinear or coincident corners and non-finite ones included (the comparison fails on NaN).
 */
export function triangleThinnerThan(a: Vec3, b: Vec3, c: Vec3, ratio: number): boolean {
  const ux = b.x - a.x;
  const uy = b.y - a.y;
  const uz = b.z - a.z;
  const vx = c.x - a.x;
  const vy = c.y - a.y;
  const vz = c.z - a.z;
  const wx = c.x - b.x;
  const wy = c.y - b.y;
  const wz = c.z - b.z;
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  const l2 = Math.max(
    ux * ux + uy * uy + uz * uz,
    vx * vx + vy * vy + vz * vz,
    wx * wx + wy * wy + wz * wz,
  );
  return !(Math.sqrt(nx * nx + ny * ny + nz * nz) > ratio * l2);
}

const AXIS_X = vec3.create(1, 0, 0);
const AXIS_Y = vec3.create(0, 1, 0);
const AXIS_Z = vec3.create(0, 0, 1);
const sliverN = vec3.create();
/** [0] |(b − a) × (c − a)| of the last {@link sliverNormal} (a double would be boxed returned). */
const sliverIo = new Float64Array(1);

/**
 * out = the unit normal (b − a) × (c − a) / |…| of triangle (a, b, c), each component of the
 * cross product expanded exactly and rounded once (Shewchuk 1997, through
 * src/geometry/exact-predicates.ts), so that it is right to a few ulps however thin the
 * triangle; sliverIo[0] = the cross product's length. False (out left) when the corners are
 * collinear in exact arithmetic, or a coordinate lies outside the exact predicates' range.
 */
export function sliverNormal(out: Vec3, a: Vec3, b: Vec3, c: Vec3): boolean {
  if (!exactRange(a) || !exactRange(b) || !exactRange(c)) return false;
  tripleVectorValue(b, c, a, AXIS_X);
  sliverN.x = detIo[0];
  tripleVectorValue(b, c, a, AXIS_Y);
  sliverN.y = detIo[0];
  tripleVectorValue(b, c, a, AXIS_Z);
  sliverN.z = detIo[0];
  lengthInto(sliverN, sliverIo, 0);
  return vec3.tryNormalize(out, sliverN);
}

const sliverUnit = vec3.create();

/**
 * The closest point of a sliver triangle (see {@link triangleIsSliver}) to p: p's projection
 * along the exact normal when the line through p along it meets the triangle (Plücker's side
 * tests, exact: src/geometry/exact-predicates.ts `tripleVectorSign`), the distance then
 * p's exact signed height over the plane; else the nearest of its three edges' closest points
 * (a triangle collinear in exact arithmetic is the union of its edges; Ericson 2005, §5.1.5,
 * without the Voronoi regions' products, whose rounding is the sliver's size).
 */
function closestOnSliver(out: Vec3, p: Vec3, a: Vec3, b: Vec3, c: Vec3, weights?: Weights): Vec3 {
  if (!exactRange(p) || !sliverNormal(sliverUnit, a, b, c)) {
    return closestOnTriangleEdges(out, p, a, b, c, weights);
  }
  const n = sliverUnit;
  // Signs of ((b − p) × (c − p))·n and its two cycles: each twice the signed area of the
  // sub-triangle opposite a corner, seen along n; all ≥ 0 when the line meets the triangle.
  if (tripleVectorSign(b, c, p, n) < 0) return closestOnTriangleEdges(out, p, a, b, c, weights);
  if (tripleVectorSign(c, a, p, n) < 0) return closestOnTriangleEdges(out, p, a, b, c, weights);
  if (tripleVectorSign(a, b, p, n) < 0) return closestOnTriangleEdges(out, p, a, b, c, weights);
  // Height of p over the plane: det[b − a; c − a; p − a] / |(b − a) × (c − a)|.
  orient3dValue(a, b, c, p);
  const h = detIo[0] / sliverIo[0];
  if (weights) {
    tripleVectorValue(b, c, p, n);
    const wa = detIo[0];
    tripleVectorValue(c, a, p, n);
    const wb = detIo[0];
    tripleVectorValue(a, b, p, n);
    const wc = detIo[0];
    const sum = wa + wb + wc;
    weights[0] = wa / sum;
    weights[1] = wb / sum;
    weights[2] = wc / sum;
  }
  out.x = p.x - h * n.x;
  out.y = p.y - h * n.y;
  out.z = p.z - h * n.z;
  return out;
}

/**
 * out = the point of triangle abc closest to p, by Voronoi regions (Ericson 2005, §5.1.5).
 * Writes weights (wa, wb, wc) with out = wa·a + wb·b + wc·c. A thin triangle (height at most
 * TRIANGLE_THIN_RATIO of its longest edge) is projected along its exactly expanded normal or,
 * its corners collinear in exact arithmetic, treated as its three edges. `out` may alias any
 * input. The work is {@link closestOnTriangleArray}'s on the corners copied to registers.
 */
export function closestPointOnTriangle(
  out: Vec3,
  p: Vec3,
  a: Vec3,
  b: Vec3,
  c: Vec3,
  weights?: Weights,
): Vec3 {
  const r = triRegs;
  r[0] = a.x;
  r[1] = a.y;
  r[2] = a.z;
  r[3] = b.x;
  r[4] = b.y;
  r[5] = b.z;
  r[6] = c.x;
  r[7] = c.y;
  r[8] = c.z;
  r[9] = p.x;
  r[10] = p.y;
  r[11] = p.z;
  closestOnTriangleArray(r, 0, 3, 6, r, 9);
  const o = triangleIo;
  if (weights) {
    weights[0] = o[3];
    weights[1] = o[4];
    weights[2] = o[5];
  }
  out.x = o[0];
  out.y = o[1];
  out.z = o[2];
  return out;
}

/** The corners (0–8) and point (9–11) {@link closestPointOnTriangle} hands to the array form. */
const triRegs = new Float64Array(12);

/**
 * The answer of {@link closestOnTriangleArray}: the closest point (0–2) and its barycentric
 * weights (3–5).
 */
export const triangleIo = new Float64Array(6);

const thinA = vec3.create();
const thinB = vec3.create();
const thinC = vec3.create();
const thinP = vec3.create();
const thinQ = vec3.create();
const thinW = new Float64Array(3);

/**
 * triangleIo = {@link closestOnSliver}'s answer (`edgesOnly`: {@link closestOnTriangleEdges}'s)
 * for the triangle whose corners start at offsets a, b, c of `v` and the point at offset po of
 * `pv`, its corners and point copied into vector registers — the thin and the degenerate branches
 * of {@link closestOnTriangleArray}. No allocation; only offsets cross the call.
 */
function closestOnThinArray(
  v: Float64Array,
  a: number,
  b: number,
  c: number,
  pv: Float64Array,
  po: number,
  edgesOnly: boolean,
): void {
  const o = triangleIo;
  vec3.set(thinA, v[a], v[a + 1], v[a + 2]);
  vec3.set(thinB, v[b], v[b + 1], v[b + 2]);
  vec3.set(thinC, v[c], v[c + 1], v[c + 2]);
  vec3.set(thinP, pv[po], pv[po + 1], pv[po + 2]);
  if (edgesOnly) closestOnTriangleEdges(thinQ, thinP, thinA, thinB, thinC, thinW);
  else closestOnSliver(thinQ, thinP, thinA, thinB, thinC, thinW);
  o[0] = thinQ.x;
  o[1] = thinQ.y;
  o[2] = thinQ.z;
  o[3] = thinW[0];
  o[4] = thinW[1];
  o[5] = thinW[2];
}

/**
 * triangleIo = the point of the triangle whose corners start at offsets a, b, c of `v` closest
 * to the point at offset po of `pv`, and its weights: the one body of {@link closestPointOnTriangle}
 * (on scalars read from arrays, so that the mesh's closest-triangle walk in
 * src/query/mesh-distance.ts ranks its triangles by this very number without copying corners
 * into vectors; no double crosses a call). Voronoi regions (Ericson 2005, §5.1.5); a thin
 * triangle — its rounded |(b − a) × (c − a)| at most TRIANGLE_THIN_RATIO times its longest edge
 * squared, collinear and non-finite corners included — goes to {@link closestOnSliver}: the
 * regions' products d1·d4 − d3·d2, … cancel to the rounding of the long edge's squares and mislay
 * its face point along it (see the constant). Lagrange's |ab|²|ac|² − (ab·ac)², which the thin
 * test once used, rounds at ε|ab|²|ac|² and passed a triangle collinear in doubles into the
 * face's region (issue 16).
 */
export function closestOnTriangleArray(
  v: Float64Array,
  a: number,
  b: number,
  c: number,
  pv: Float64Array,
  po: number,
): void {
  const o = triangleIo;
  const ax = v[a];
  const ay = v[a + 1];
  const az = v[a + 2];
  const bx = v[b];
  const by = v[b + 1];
  const bz = v[b + 2];
  const cx = v[c];
  const cy = v[c + 1];
  const cz = v[c + 2];
  const px = pv[po];
  const py = pv[po + 1];
  const pz = pv[po + 2];
  const abx = bx - ax;
  const aby = by - ay;
  const abz = bz - az;
  const acx = cx - ax;
  const acy = cy - ay;
  const acz = cz - az;
  const bcx = cx - bx;
  const bcy = cy - by;
  const bcz = cz - bz;
  // The thin test: triangleThinnerThan's arithmetic written out on these edges (through a call,
  // which recomputed the edges, the mesh's closest-triangle walk took 15 % longer).
  const nx = aby * acz - abz * acy;
  const ny = abz * acx - abx * acz;
  const nz = abx * acy - aby * acx;
  const l2 = Math.max(
    abx * abx + aby * aby + abz * abz,
    acx * acx + acy * acy + acz * acz,
    bcx * bcx + bcy * bcy + bcz * bcz,
  );
  if (!(Math.sqrt(nx * nx + ny * ny + nz * nz) > TRIANGLE_THIN_RATIO * l2)) {
    closestOnThinArray(v, a, b, c, pv, po, false);
    return;
  }
  const apx = px - ax;
  const apy = py - ay;
  const apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) {
    o[0] = ax;
    o[1] = ay;
    o[2] = az;
    o[3] = 1;
    o[4] = 0;
    o[5] = 0;
    return;
  }
  const bpx = px - bx;
  const bpy = py - by;
  const bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) {
    o[0] = bx;
    o[1] = by;
    o[2] = bz;
    o[3] = 0;
    o[4] = 1;
    o[5] = 0;
    return;
  }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const t = d1 - d3 > 0 ? d1 / (d1 - d3) : 0;
    o[0] = ax + abx * t;
    o[1] = ay + aby * t;
    o[2] = az + abz * t;
    o[3] = 1 - t;
    o[4] = t;
    o[5] = 0;
    return;
  }
  const cpx = px - cx;
  const cpy = py - cy;
  const cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) {
    o[0] = cx;
    o[1] = cy;
    o[2] = cz;
    o[3] = 0;
    o[4] = 0;
    o[5] = 1;
    return;
  }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const t = d2 - d6 > 0 ? d2 / (d2 - d6) : 0;
    o[0] = ax + acx * t;
    o[1] = ay + acy * t;
    o[2] = az + acz * t;
    o[3] = 1 - t;
    o[4] = 0;
    o[5] = t;
    return;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const den = d4 - d3 + (d5 - d6);
    const t = den > 0 ? (d4 - d3) / den : 0;
    o[0] = bx + bcx * t;
    o[1] = by + bcy * t;
    o[2] = bz + bcz * t;
    o[3] = 0;
    o[4] = 1 - t;
    o[5] = t;
    return;
  }
  const denom = va + vb + vc;
  if (!(denom > 0)) {
    closestOnThinArray(v, a, b, c, pv, po, true);
    return;
  }
  const sv = vb / denom;
  const sw = vc / denom;
  o[3] = 1 - sv - sw;
  o[4] = sv;
  o[5] = sw;
  // The face's point. Within the longest edge L of the plane: p moved along the normal onto it,
  // p − m (m·ap)/|m|² with m the normal ab × ac over its largest component (|m|² in 1..3 at any
  // scale), which rounds at ε of |ap| — a point on the face stays within ulps of itself — where
  // the blend a + ab·sv + ac·sw of the weights rounds at about ε·(L/h)² of L over the least
  // height h (the products d1·d4 − d3·d2, … cancel): 450 ulps, 1e-13 of a point already on a
  // triangle of 0.6 with L/h = 60 — a cylinder's generator touching the face had the triangle's
  // witness moved off the generator, the pair no longer facing (issue 16, seed 97). Farther off,
  // the blend: it lies on the plane to ε·L where the projection's foot lies on it only to ε of the
  // height (at 1e9 over a mesh's coplanar triangles the walk's tie-break between their points,
  // src/query/mesh-distance.ts, then read that rounding times the height). The weights are the
  // blend's.
  const nm = Math.max(Math.abs(nx), Math.abs(ny), Math.abs(nz));
  const mx = nx / nm;
  const my = ny / nm;
  const mz = nz / nm;
  const mm = mx * mx + my * my + mz * mz;
  const h = (mx * apx + my * apy + mz * apz) / mm;
  if (h * h * mm <= l2) {
    o[0] = px - mx * h;
    o[1] = py - my * h;
    o[2] = pz - mz * h;
    return;
  }
  o[0] = ax + abx * sv + acx * sw;
  o[1] = ay + aby * sv + acy * sw;
  o[2] = az + abz * sv + acz * sw;
}

const tetW = new Float64Array(3);
/** The three edge lengths of {@link closestPointOnTetrahedron}. */
const lens = new Float64Array(3);

/** out[i] = |a| as {@link hypot3} computes it (its common case inline: no double crosses a call). */
function lengthInto(a: Vec3, out: Float64Array, i: number): void {
  const x = a.x;
  const y = a.y;
  const z = a.z;
  const s = x * x + y * y + z * z;
  // Two stores: a conditional merging √s with hypot3's tagged result would box √s.
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) out[i] = Math.sqrt(s);
  // A zero vector (an origin, a pair at the identity) answered here: hypot3's call would box
  // its three coordinates when V8 does not inline it (27 KB per step in the mesh probe once).
  else if (x === 0 && y === 0 && z === 0) out[i] = 0;
  else out[i] = hypot3(x, y, z);
}
const faceP = vec3.create();
const n = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const e3 = vec3.create();

/** Face k of a tetrahedron omits vertex k; these are its corners (indices into a, b, c, d). */
const TET_FACES = [1, 2, 3, 0, 3, 2, 0, 1, 3, 0, 2, 1];
const tetVerts: Vec3[] = [ab, ab, ab, ab];
const tetSigns = new Float64Array(4);

/**
 * out = the point of tetrahedron abcd closest to p (Ericson 2005, §5.1.6): p itself when inside,
 * else the closest point over the faces p lies outside of. Writes weights (wa, wb, wc, wd). A
 * flat tetrahedron (zero volume) is treated as its four triangles. `out` may alias any input.
 */
export function closestPointOnTetrahedron(
  out: Vec3,
  p: Vec3,
  a: Vec3,
  b: Vec3,
  c: Vec3,
  d: Vec3,
  weights?: Weights,
): Vec3 {
  const px = p.x;
  const py = p.y;
  const pz = p.z;
  vec3.sub(e1, b, a);
  vec3.sub(e2, c, a);
  vec3.sub(e3, d, a);
  vec3.cross(n, e2, e3);
  const vol = e1.x * n.x + e1.y * n.y + e1.z * n.z;
  lengthInto(e1, lens, 0);
  lengthInto(e2, lens, 1);
  lengthInto(e3, lens, 2);
  const scale = lens[0] * lens[1] * lens[2];
  const flat = !(Math.abs(vol) > GJK_DEGENERATE_SIMPLEX_TOLERANCE * scale);
  const verts = tetVerts;
  verts[0] = a;
  verts[1] = b;
  verts[2] = c;
  verts[3] = d;
  if (!flat) {
    // Barycentric weights of p by signed sub-volumes; p is inside when all are ≥ 0.
    ap.x = px - a.x;
    ap.y = py - a.y;
    ap.z = pz - a.z;
    const wb = (ap.x * n.x + ap.y * n.y + ap.z * n.z) / vol;
    vec3.cross(n, e3, e1);
    const wc = (ap.x * n.x + ap.y * n.y + ap.z * n.z) / vol;
    vec3.cross(n, e1, e2);
    const wd = (ap.x * n.x + ap.y * n.y + ap.z * n.z) / vol;
    const wa = 1 - wb - wc - wd;
    if (wa >= 0 && wb >= 0 && wc >= 0 && wd >= 0) {
      if (weights) {
        weights[0] = wa;
        weights[1] = wb;
        weights[2] = wc;
        weights[3] = wd;
      }
      out.x = px;
      out.y = py;
      out.z = pz;
      return out;
    }
    const ws = tetSigns;
    ws[0] = wa;
    ws[1] = wb;
    ws[2] = wc;
    ws[3] = wd;
    return closestOnTetFaces(out, p, verts, ws, weights);
  }
  return closestOnTetFaces(out, p, verts, null, weights);
}

/** The closest point to p over the tetrahedron's faces (those with a negative sign, if signs). */
function closestOnTetFaces(
  out: Vec3,
  p: Vec3,
  verts: Vec3[],
  signs: Float64Array | null,
  weights?: Weights,
): Vec3 {
  // p is read here, before `out` (which may alias it) is written at the end; the vertices are
  // never written.
  const px = p.x;
  const py = p.y;
  const pz = p.z;
  let best = Infinity;
  let bx = verts[0].x;
  let by = verts[0].y;
  let bz = verts[0].z;
  let bw0 = 1;
  let bw1 = 0;
  let bw2 = 0;
  let bf = 0;
  for (let f = 0; f < 4; f++) {
    if (signs && signs[f] >= 0) continue;
    const i = TET_FACES[3 * f];
    const j = TET_FACES[3 * f + 1];
    const k = TET_FACES[3 * f + 2];
    faceP.x = px;
    faceP.y = py;
    faceP.z = pz;
    closestPointOnTriangle(faceP, faceP, verts[i], verts[j], verts[k], tetW);
    const dd = (faceP.x - px) ** 2 + (faceP.y - py) ** 2 + (faceP.z - pz) ** 2;
    if (dd < best) {
      best = dd;
      bx = faceP.x;
      by = faceP.y;
      bz = faceP.z;
      bw0 = tetW[0];
      bw1 = tetW[1];
      bw2 = tetW[2];
      bf = f;
    }
  }
  if (weights) {
    weights[0] = 0;
    weights[1] = 0;
    weights[2] = 0;
    weights[3] = 0;
    weights[TET_FACES[3 * bf]] = bw0;
    weights[TET_FACES[3 * bf + 1]] = bw1;
    weights[TET_FACES[3 * bf + 2]] = bw2;
  }
  out.x = bx;
  out.y = by;
  out.z = bz;
  return out;
}
