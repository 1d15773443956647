/**
 * The convex polyhedron's definition: the convex hull of its vertices, a polytope (SAT applies),
 * or a flat convex polygon (`flat`: two opposite faces over one loop). Ray cast by clipping
 * against the face planes (Ericson 2005, §5.3.8), point projection by the face planes inside and
 * the closest point over the face polygons outside (each the foot on its plane or the nearest
 * point of a side it lies beyond, §5.1.5's regions without barycentric coordinates); supporting
 * faces and edges for manifolds.
 */

import { invalidValue } from "../../errors.js";
import { reserveClipPolygon } from "../../geometry/clip.js";
import {
  commonExponent,
  EXACT_FAR_RATIO,
  type ExactNearest,
  exactCloser,
  exactFarActive,
  exactNearestOnTriangle,
  exactPathFor,
  roundNearest,
  toScaledVec,
} from "../../geometry/exact-nearest.js";
import {
  FEATURE_POLYGON,
  featureIo,
  SEGMENT_SIN,
  type SupportFeature,
  segmentSin,
  setPoint,
  setSegment,
} from "../../geometry/feature.js";
import {
  rayIntervalConvexPolyhedron,
  rayIntervalFlatPolygon,
} from "../../geometry/ray-primitives.js";
import type { Vec3 } from "../../math/vec3.js";
import * as vec3 from "../../math/vec3.js";
import {
  aabbConvexPolyhedron,
  type ConvexPolyhedron,
  makeConvexPolyhedron,
  SUPPORT_START_CELLS,
  supportConvexPolyhedron,
} from "../convex-polyhedron.js";
import { arrayOrder } from "../data-order.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shape.js";
import type { LocalRayHit, PointProjection, ShapeDef } from "../shape-def.js";
import { boundingRadiusWith, registerShape } from "../shape-def.js";
import { checkFinite, checkFiniteArray, checkNonNegative, checkTypedArray } from "../validate.js";
import {
  cachedPerShapeOf,
  fin,
  finishRayHit,
  finiteArray,
  maxVertexDistance,
  rayInterval,
} from "./helpers.js";

/**
 * [0] the hull's support vertex along the direction last given to {@link supportingEdge} (the
 * first of a tie), [1] the other end of its flattest edge (−1: no edge), [2] that edge's index in
 * `edges`; integers through a typed array (a returned value would be boxed).
 */
const edgeIo = new Int32Array(3);

/**
 * edgeIo = the support vertex of hull `p` along local direction d and its edge most nearly
 * perpendicular to d (featureIo[6] = the sine of that edge's angle to the plane ⟂ d).
 */
function supportingEdge(p: ConvexPolyhedron, d: Vec3): void {
  const v = p.vertices;
  let sv = 0;
  let top = -Infinity;
  for (let i = 0; i < p.vertexCount; i++) {
    const dd = v[3 * i] * d.x + v[3 * i + 1] * d.y + v[3 * i + 2] * d.z;
    if (dd > top) {
      top = dd;
      sv = i;
    }
  }
  const e = p.edges;
  let best = -1;
  let other = -1;
  let bestSin = Infinity;
  for (let q = 0; q + 1 < e.length; q += 2) {
    let o: number;
    if (e[q] === sv) o = e[q + 1];
    else if (e[q + 1] === sv) o = e[q];
    else continue;
    featureIo[0] = v[3 * o] - v[3 * sv];
    featureIo[1] = v[3 * o + 1] - v[3 * sv + 1];
    featureIo[2] = v[3 * o + 2] - v[3 * sv + 2];
    segmentSin(d);
    const sn = featureIo[6];
    if (sn < bestSin) {
      bestSin = sn;
      best = q >> 1;
      other = o;
    }
  }
  edgeIo[0] = sv;
  edgeIo[1] = other;
  edgeIo[2] = best;
  featureIo[6] = bestSin;
}

/** True when face `i` of hull `p` has vertex `k` (any k < 0 counts as present). */
function faceHas(p: ConvexPolyhedron, i: number, k: number): boolean {
  if (k < 0) return true;
  const fv = p.faceVertices;
  const end = p.faceOffsets[i + 1];
  for (let q = p.faceOffsets[i]; q < end; q++) if (fv[q] === k) return true;
  return false;
}

/**
 * The hull's supporting face along local direction d: of the faces through the support vertex
 * and its edge most nearly perpendicular to d ({@link supportingEdge}), the one whose normal is
 * most aligned with d. So the face holds the deepest vertex and, where the support is an edge
 * (its ends tied along d to rounding, as along an edge–edge contact's normal), the whole edge.
 * The face most aligned of all need not hold that vertex (a vertex whose cone of normals is long
 * and thin reaches past a neighbouring face's normal), nor the most aligned face through one end
 * the whole edge, and a manifold clipped from such a face lost the deepest point (issue 16, attack
 * report 32 F3: a box's manifold 0.375 deep on a hull whose vertex lay 0.625 inside it; an
 * edge–edge contact 204,363 deep with one manifold point 176,364 deep).
 */
function polyhedronFace(f: SupportFeature, p: ConvexPolyhedron, d: Vec3): void {
  supportingEdge(p, d);
  const sv = edgeIo[0];
  const other = edgeIo[1];
  const fn = p.faceNormals;
  let best = -1;
  let bestDot = -Infinity;
  for (let i = 0; i < p.faceCount; i++) {
    const dd = fn[3 * i] * d.x + fn[3 * i + 1] * d.y + fn[3 * i + 2] * d.z;
    if (dd > bestDot && faceHas(p, i, sv) && faceHas(p, i, other)) {
      bestDot = dd;
      best = i;
    }
  }
  if (best < 0) best = 0;
  f.kind = FEATURE_POLYGON;
  f.index = best;
  f.cos = bestDot;
  vec3.set(f.normal, fn[3 * best], fn[3 * best + 1], fn[3 * best + 2]);
  const v = p.vertices;
  const start = p.faceOffsets[best];
  const end = p.faceOffsets[best + 1];
  const poly = f.poly;
  poly.count = 0;
  reserveClipPolygon(poly, end - start);
  // Written straight into the polygon: a double passed to a call V8 does not inline is boxed.
  const xyz = poly.xyz;
  for (let q = start; q < end; q++) {
    const vi = p.faceVertices[q];
    const k = 3 * (q - start);
    xyz[k] = v[3 * vi];
    xyz[k + 1] = v[3 * vi + 1];
    xyz[k + 2] = v[3 * vi + 2];
    poly.tags[q - start] = vi + 1;
  }
  poly.count = end - start;
}

function polyhedronEdge(f: SupportFeature, p: ConvexPolyhedron, d: Vec3): void {
  supportingEdge(p, d);
  const sv = edgeIo[0];
  const other = edgeIo[1];
  if (other < 0 || featureIo[6] > SEGMENT_SIN) {
    setPoint(f, p.faceCount + p.edges.length / 2 + sv);
    return;
  }
  const v = p.vertices;
  featureIo[0] = v[3 * sv];
  featureIo[1] = v[3 * sv + 1];
  featureIo[2] = v[3 * sv + 2];
  featureIo[3] = v[3 * other];
  featureIo[4] = v[3 * other + 1];
  featureIo[5] = v[3 * other + 2];
  setSegment(f, p.faceCount + edgeIo[2], sv + 1, other + 1);
}

const c2 = vec3.create();
const cq = vec3.create();

/**
 * Whether `p` (on the plane of the flat polygon `c`) is inside or on every side of it: the side
 * planes through its edges, outward normals (b − a) × n for face 0's counter-clockwise loop.
 */
function insideFlatSides(c: ConvexPolyhedron, p: Vec3): boolean {
  const v = c.vertices;
  const loop = c.faceVertices;
  const count = c.faceOffsets[1];
  const nx = c.faceNormals[0];
  const ny = c.faceNormals[1];
  const nz = c.faceNormals[2];
  for (let k = 0; k < count; k++) {
    const a = 3 * loop[k];
    const b = 3 * loop[k + 1 < count ? k + 1 : 0];
    const ex = v[b] - v[a];
    const ey = v[b + 1] - v[a + 1];
    const ez = v[b + 2] - v[a + 2];
    const s =
      (ey * nz - ez * ny) * (p.x - v[a]) +
      (ez * nx - ex * nz) * (p.y - v[a + 1]) +
      (ex * ny - ey * nx) * (p.z - v[a + 2]);
    if (s > 0) return false;
  }
  return true;
}

function projectConvexPolyhedron(
  out: PointProjection,
  c: ConvexPolyhedron,
  p: Vec3,
  solid: boolean,
): PointProjection {
  const n = c.faceNormals;
  const off = c.facePlaneOffsets;
  const faces = off.length;
  let maxSep = -Infinity;
  let maxFace = 0;
  for (let f = 0; f < faces; f++) {
    const sep = n[3 * f] * p.x + n[3 * f + 1] * p.y + n[3 * f + 2] * p.z - off[f];
    if (sep > maxSep) {
      maxSep = sep;
      maxFace = f;
    }
  }
  // A flat polygon's two planes coincide: a point on them is inside only within its sides.
  const inside = maxSep <= 0 && (!c.flat || insideFlatSides(c, p));
  out.inside = inside;
  if (inside) {
    if (solid) {
      vec3.copy(out.point, p);
      out.distance = 0;
      return out;
    }
    // The nearest face plane of an interior point is touched inside that face.
    vec3.set(c2, n[3 * maxFace], n[3 * maxFace + 1], n[3 * maxFace + 2]);
    vec3.addScaled(out.point, p, c2, -maxSep);
    out.distance = -maxSep;
    return out;
  }
  // Outside: a face p lies beyond whose foot of p is within the face holds the closest point
  // (the hull lies behind the face's plane; Ericson 2005, §5.1.2's Voronoi regions), taken
  // outright (the largest separation on a rounding tie). Far away (1e8 from a unit prism) the
  // squared distances to that foot and to a corner round to the same double, and the scan by
  // distance returned the corner. Otherwise the nearest point over the face polygons, compared
  // by {@link nearerTo} (not by rounded squared distances).
  let bestSep = -Infinity;
  for (let f = 0; f < faces; f++) {
    const sep = n[3 * f] * p.x + n[3 * f + 1] * p.y + n[3 * f + 2] * p.z - off[f];
    if (!(sep > 0) || !(sep > bestSep)) continue;
    closestOnFace(c, f, p);
    if (!faceWithin[0]) continue;
    bestSep = sep;
    vec3.copy(out.point, cq);
  }
  if (bestSep > -Infinity) {
    out.distance = vec3.distance(out.point, p);
    exactHullWhenFar(out, c, p);
    return out;
  }
  let found = false;
  for (let f = 0; f < faces; f++) {
    closestOnFace(c, f, p);
    if (!found || nearerTo(cq.x, cq.y, cq.z, out.point.x, out.point.y, out.point.z, p)) {
      found = true;
      vec3.copy(out.point, cq);
    }
  }
  out.distance = vec3.distance(out.point, p);
  exactHullWhenFar(out, c, p);
  return out;
}

/**
 * Whether the corners fv[from..to) of a face (integers, `vi[1 + index]`) lie exactly on one plane
 * through its first three (those not collinear). A hull's face may hold corners merged within
 * its tolerance (a sliver's), off its stored plane: its fan triangles are then not the hull's
 * surface, and {@link exactHullWhenFar} takes every triangle of its corners instead.
 */
function planarFace(vi: bigint[][], fv: Uint32Array, from: number, to: number): boolean {
  const a = vi[1 + fv[from]];
  const b = vi[1 + fv[from + 1]];
  const c = vi[1 + fv[from + 2]];
  const ux = b[0] - a[0];
  const uy = b[1] - a[1];
  const uz = b[2] - a[2];
  const wx = c[0] - a[0];
  const wy = c[1] - a[1];
  const wz = c[2] - a[2];
  const nx = uy * wz - uz * wy;
  const ny = uz * wx - ux * wz;
  const nz = ux * wy - uy * wx;
  if (nx === 0n && ny === 0n && nz === 0n) return false;
  for (let k = from + 3; k < to; k++) {
    const d = vi[1 + fv[k]];
    if (nx * (d[0] - a[0]) + ny * (d[1] - a[1]) + nz * (d[2] - a[2]) !== 0n) return false;
  }
  return true;
}

/**
 * The exact nearest point over the triangles of face f: its fan when its corners are exactly
 * coplanar, else every triangle of three of its corners (the hull's true surface over a merged
 * face is some of them, and each lies in the hull, so none is nearer than the hull's nearest
 * point). Returns the better of `best` and those.
 */
function nearestOnFace(
  vi: bigint[][],
  pi: bigint[],
  fv: Uint32Array,
  from: number,
  to: number,
  best: ExactNearest | null,
): ExactNearest | null {
  const a = vi[1 + fv[from]];
  if (planarFace(vi, fv, from, to)) {
    for (let k = from + 1; k + 1 < to; k++) {
      const r = exactNearestOnTriangle(a, vi[1 + fv[k]], vi[1 + fv[k + 1]], pi);
      if (best === null || exactCloser(r, best)) best = r;
    }
    return best;
  }
  for (let i = from; i < to; i++)
    for (let j = i + 1; j < to; j++)
      for (let k = j + 1; k < to; k++) {
        const r = exactNearestOnTriangle(vi[1 + fv[i]], vi[1 + fv[j]], vi[1 + fv[k]], pi);
        if (best === null || exactCloser(r, best)) best = r;
      }
  return best;
}

/**
 * Whether the point q = r.num/r.den of the hull is its nearest point to p: every vertex v on the
 * far side of the plane through q perpendicular to p − q, (v − q)·(p − q) ≤ 0, in exact integers
 * (then the hull, their convex hull, lies there too).
 */
function certifiedNearest(vi: bigint[][], r: ExactNearest): boolean {
  const [nx, ny, nz] = r.num;
  const d = r.den;
  const p = vi[0];
  const gx = p[0] * d - nx;
  const gy = p[1] * d - ny;
  const gz = p[2] * d - nz;
  for (let i = 1; i < vi.length; i++) {
    const v = vi[i];
    if ((v[0] * d - nx) * gx + (v[1] * d - ny) * gy + (v[2] * d - nz) * gz > 0n) return false;
  }
  return true;
}

/**
 * Whether every face of a hull has exactly coplanar corners ({@link planarFace}; a power-of-two
 * scaling keeps it), kept per hull once a far query has asked.
 */
const planarHulls = new WeakMap<ConvexPolyhedron, boolean>();

/**
 * A point outside the hull farther than {@link EXACT_FAR_RATIO} times its extent: the nearest
 * point again in exact rationals over the triangles of the faces p lies beyond
 * (src/geometry/exact-nearest.ts; the nearest point of a convex body lies on a face whose plane
 * separates it from p), rounded once. The double path projects along the rounded unit normals,
 * whose error ε tilts the answer by ε·distance (a rotated box seen from 1e14 along a face
 * normal answered 1e-2 off its face's foot, from 1e100 a corner). The double distance is kept
 * unless the exact point's offset gives it. A face whose corners are not exactly coplanar (merged
 * within the hull's tolerance, {@link planarFace}) contributes every triangle of its corners;
 * since its stored plane only approximates them, the answer of such a hull is certified
 * ({@link certifiedNearest}) and, if that fails, sought again over every face (and the double
 * answer kept if that fails too). Allocates (BigInt) only for such far points.
 */
export function exactHullWhenFar(out: PointProjection, c: ConvexPolyhedron, p: Vec3): void {
  if (!exactFarActive()) return;
  const v = c.vertices;
  let ext = 0;
  let coord = 0;
  for (let axis = 0; axis < 3; axis++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = axis; i < v.length; i += 3) {
      lo = Math.min(lo, v[i]);
      hi = Math.max(hi, v[i]);
    }
    ext = Math.max(ext, hi - lo);
    coord = Math.max(coord, Math.abs(lo), Math.abs(hi));
  }
  if (!exactPathFor(out.distance, ext, coord)) return;
  const n = c.faceNormals;
  const off = c.facePlaneOffsets;
  const corners: Vec3[] = [p];
  for (let i = 0; i < v.length; i += 3) corners.push({ x: v[i], y: v[i + 1], z: v[i + 2] });
  const e = commonExponent(corners);
  const pi = toScaledVec(p, e);
  const vi = corners.map((q) => toScaledVec(q, e));
  const fo = c.faceOffsets;
  const fv = c.faceVertices;
  let best: ExactNearest | null = null;
  const pm = Math.abs(p.x) + Math.abs(p.y) + Math.abs(p.z);
  for (let f = 0; f + 1 < fo.length; f++) {
    const sep = n[3 * f] * p.x + n[3 * f + 1] * p.y + n[3 * f + 2] * p.z - off[f];
    // Faces p is beyond, up to the rounding of the separation.
    if (!(sep > -64 * Number.EPSILON * (pm + Math.abs(off[f])))) continue;
    best = nearestOnFace(vi, pi, fv, fo[f], fo[f + 1], best);
  }
  let planar = planarHulls.get(c);
  if (planar === undefined) {
    planar = true;
    for (let f = 0; planar && f + 1 < fo.length; f++) planar = planarFace(vi, fv, fo[f], fo[f + 1]);
    planarHulls.set(c, planar);
  }
  // A merged face's stored plane may call p behind a true facet that p lies beyond: certify the
  // answer, else take every face, else keep the double answer.
  if (!planar && (best === null || !certifiedNearest(vi, best))) {
    best = null;
    for (let f = 0; f + 1 < fo.length; f++)
      best = nearestOnFace(vi, pi, fv, fo[f], fo[f + 1], best);
    if (best === null || !certifiedNearest(vi, best)) return;
  }
  if (best === null) return;
  roundNearest(out.point, best, e);
  const d = vec3.distance(out.point, p);
  if (Number.isFinite(d)) out.distance = d;
}

/** Most corrections of a face foot onto its plane ({@link closestOnFace}). */
const FOOT_STEPS = 24;

/** Whether {@link closestOnFace}'s last point was the foot within the face (a register). */
const faceWithin = new Uint8Array(1);

/**
 * True when q is strictly nearer to p than r is: |p − q|² − |p − r|² = (q − r)·(q + r − 2p) < 0,
 * formed as that product so that the two nearly equal squared distances of a far p (1e8 from a
 * unit face) are not subtracted after rounding: the difference's factor q − r is at the shape's
 * scale and exact or nearly so.
 */
function nearerTo(
  qx: number,
  qy: number,
  qz: number,
  rx: number,
  ry: number,
  rz: number,
  p: Vec3,
): boolean {
  // q − r over its largest component (the sign is kept): a 1e-200 hull rescaled beside a unit
  // offset would square its lengths to 0.
  const ax = qx - rx;
  const ay = qy - ry;
  const az = qz - rz;
  const m = Math.max(Math.abs(ax), Math.abs(ay), Math.abs(az));
  if (!(m > 0)) return false;
  const d =
    (ax / m) * (qx + rx - 2 * p.x) +
    (ay / m) * (qy + ry - 2 * p.y) +
    (az / m) * (qz + rz - 2 * p.z);
  return d < 0;
}

/**
 * cq = the point of face f's polygon closest to `p`; returns its squared distance. The foot of p
 * on the face's stored plane when it lies within every side of the loop (each side's outward
 * normal in the plane (b − a) × n, so the test holds however thin the face), else the nearest
 * point of the sides that p lies beyond (a convex polygon's nearest boundary point is on one of
 * them), each by its clamped projection from its nearer end. The stored plane fits the loop
 * within the hull's merging tolerance; a fan triangle's own plane, from its corners' barycentric
 * coordinates, is lost on a sliver (a ribbon's cap triangle of 1e-6 rad put its point 3.5e-5 of
 * its length along it, issue 16).
 */
function closestOnFace(c: ConvexPolyhedron, f: number, p: Vec3): number {
  const v = c.vertices;
  const fv = c.faceVertices;
  const start = c.faceOffsets[f];
  const end = c.faceOffsets[f + 1];
  const nx = c.faceNormals[3 * f];
  const ny = c.faceNormals[3 * f + 1];
  const nz = c.faceNormals[3 * f + 2];
  let best = Infinity;
  let within = true;
  for (let k = start; k < end; k++) {
    const a = 3 * fv[k];
    const b = 3 * fv[k + 1 < end ? k + 1 : start];
    // The side over its largest component: its products with p's offset must not underflow (a
    // 1e-200 hull rescaled beside a unit offset, the side test then 0 and the face "within").
    const em = Math.max(
      Math.abs(v[b] - v[a]),
      Math.abs(v[b + 1] - v[a + 1]),
      Math.abs(v[b + 2] - v[a + 2]),
    );
    const es = em > 0 ? em : 1;
    const ex = (v[b] - v[a]) / es;
    const ey = (v[b + 1] - v[a + 1]) / es;
    const ez = (v[b + 2] - v[a + 2]) / es;
    // From the side's end nearer p: the side test's terms then have p's offset from it, not the
    // side's length (beyond a needle's tip the far end's offset rounds above the answer).
    let o = a;
    let sx = ex;
    let sy = ey;
    let sz = ez;
    let wx = p.x - v[a];
    let wy = p.y - v[a + 1];
    let wz = p.z - v[a + 2];
    const bx = p.x - v[b];
    const by = p.y - v[b + 1];
    const bz = p.z - v[b + 2];
    if (bx * bx + by * by + bz * bz < wx * wx + wy * wy + wz * wz) {
      o = b;
      sx = -ex;
      sy = -ey;
      sz = -ez;
      wx = bx;
      wy = by;
      wz = bz;
    }
    const side = (ey * nz - ez * ny) * wx + (ez * nx - ex * nz) * wy + (ex * ny - ey * nx) * wz;
    if (!(side > 0)) continue;
    within = false;
    // Beyond this side: its nearest point, clamped, measured from that end.
    // t along the side in its own length (s is the side over em).
    const ee = sx * sx + sy * sy + sz * sz;
    const t = ee > 0 ? (wx * sx + wy * sy + wz * sz) / ee / em : 0;
    let qx = v[o];
    let qy = v[o + 1];
    let qz = v[o + 2];
    if (!(t < 1)) {
      const f = o === a ? b : a;
      qx = v[f];
      qy = v[f + 1];
      qz = v[f + 2];
    } else if (t > 0) {
      qx += t * sx * em;
      qy += t * sy * em;
      qz += t * sz * em;
    }
    const dx = p.x - qx;
    const dy = p.y - qy;
    const dz = p.z - qz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (best === Infinity || nearerTo(qx, qy, qz, cq.x, cq.y, cq.z, p)) {
      best = d2;
      vec3.set(cq, qx, qy, qz);
    }
  }
  faceWithin[0] = within ? 1 : 0;
  if (!within) return best;
  const sep = nx * p.x + ny * p.y + nz * p.z - c.facePlaneOffsets[f];
  // The foot p − sep·n, moved onto the plane along n once more: from far away (1e200 from a
  // unit face) p − sep·n cancels to the rounding of p and lost the face's offset (the foot at 0).
  // Over n·n: a stored normal a rounding from unit length (0.9999999999999999) left the foot
  // 2ε·|p| off the plane, far above a tiny hull's size.
  const nn = nx * nx + ny * ny + nz * nz;
  let fx = p.x - (sep / nn) * nx;
  let fy = p.y - (sep / nn) * ny;
  let fz = p.z - (sep / nn) * nz;
  // Each step removes all but about ε of the residue (from ε·|p|): a few steps from 1e300.
  let last = Infinity;
  for (let i = 0; i < FOOT_STEPS; i++) {
    const back = (nx * fx + ny * fy + nz * fz - c.facePlaneOffsets[f]) / nn;
    if (!(Math.abs(back) < last) || back === 0) break;
    last = Math.abs(back);
    fx -= back * nx;
    fy -= back * ny;
    fz -= back * nz;
  }
  vec3.set(cq, fx, fy, fz);
  return sep * sep;
}

function rayCastConvexPolyhedron(
  out: LocalRayHit,
  s: ConvexPolyhedron,
  o: Vec3,
  dRaw: Vec3,
  maxToi: number,
  solid: boolean,
): boolean {
  if (s.flat) {
    const count = s.faceOffsets[1];
    if (
      !rayIntervalFlatPolygon(
        rayInterval,
        s.vertices,
        s.faceVertices,
        count,
        s.faceNormals,
        s.facePlaneOffsets,
        o,
        dRaw,
      )
    )
      return false;
  } else if (!rayIntervalConvexPolyhedron(rayInterval, s.faceNormals, s.facePlaneOffsets, o, dRaw))
    return false;
  return finishRayHit(out, maxToi, 1, solid);
}

/** A cube-map table of the support (one entry per cell of makeConvexPolyhedron's map). */
function checkCellTable(field: string, t: Uint32Array | Uint8Array): void {
  if (t.length !== SUPPORT_START_CELLS) {
    invalidValue(field, t.length, `must hold ${SUPPORT_START_CELLS} cells (one per cube-map cell)`);
  }
}

function checkConvexPolyhedron(field: string, s: ConvexPolyhedron): void {
  checkTypedArray(`${field}.vertices`, s.vertices, Float64Array);
  checkTypedArray(`${field}.faceOffsets`, s.faceOffsets, Uint32Array);
  checkTypedArray(`${field}.faceVertices`, s.faceVertices, Uint32Array);
  checkTypedArray(`${field}.faceNormals`, s.faceNormals, Float64Array);
  checkTypedArray(`${field}.facePlaneOffsets`, s.facePlaneOffsets, Float64Array);
  checkTypedArray(`${field}.edges`, s.edges, Uint32Array);
  // The support's climb data, made by makeConvexPolyhedron; optional on a record built by hand.
  if (s.vertexNeighborOffsets !== undefined) {
    checkTypedArray(`${field}.vertexNeighborOffsets`, s.vertexNeighborOffsets, Uint32Array);
  }
  if (s.vertexNeighbors !== undefined) {
    checkTypedArray(`${field}.vertexNeighbors`, s.vertexNeighbors, Uint32Array);
  }
  if (s.supportStarts !== undefined) {
    checkTypedArray(`${field}.supportStarts`, s.supportStarts, Uint32Array);
    checkCellTable(`${field}.supportStarts`, s.supportStarts);
  }
  if (s.supportSettled !== undefined) {
    checkTypedArray(`${field}.supportSettled`, s.supportSettled, Uint8Array);
    checkCellTable(`${field}.supportSettled`, s.supportSettled);
  }
  if (s.supportClimbSlack !== undefined) {
    checkNonNegative(`${field}.supportClimbSlack`, s.supportClimbSlack);
  }
  checkFinite(`${field}.vertexCount`, s.vertexCount);
  const v = s.vertices;
  const flat = s.flat === true;
  if (s.flat !== undefined && typeof s.flat !== "boolean") {
    invalidValue(`${field}.flat`, s.flat, "must be a boolean when given");
  }
  if (v.length < (flat ? 9 : 12) || v.length % 3 !== 0 || s.vertexCount !== v.length / 3) {
    invalidValue(
      `${field}.vertices`,
      v.length,
      flat
        ? "must hold at least 3 packed xyz vertices (flat)"
        : "must hold at least 4 packed xyz vertices",
    );
  }
  checkFiniteArray(`${field}.vertices`, v);
  if ((flat ? s.faceCount !== 2 : s.faceCount < 4) || s.faceOffsets.length !== s.faceCount + 1) {
    invalidValue(
      `${field}.faceCount`,
      s.faceCount,
      flat ? "must match faceOffsets (2 faces, flat)" : "must match faceOffsets (≥ 4 faces)",
    );
  }
  checkFiniteArray(`${field}.faceNormals`, s.faceNormals);
  checkFiniteArray(`${field}.facePlaneOffsets`, s.facePlaneOffsets);
}

/** Polyhedra already found finite (shapes are immutable, as for their AABBs). */
const finitePolyhedra = new WeakSet<object>();
/**
 * The two polyhedra most recently found finite: a pair query asks about the same two over and
 * over, and a reference comparison is cheaper than a `WeakSet` lookup. Holds at most two shapes.
 */
let recentFinite0: object | null = null;
let recentFinite1: object | null = null;

function finitePolyhedron(c: ConvexPolyhedron): boolean {
  if (c === recentFinite0 || c === recentFinite1) return true;
  if (!finitePolyhedra.has(c)) {
    const ok =
      fin(c.vertexCount) &&
      fin(c.faceCount) &&
      (c.supportClimbSlack === undefined || fin(c.supportClimbSlack)) &&
      finiteArray(c.vertices) &&
      finiteArray(c.faceNormals) &&
      finiteArray(c.facePlaneOffsets);
    if (!ok) return false;
    finitePolyhedra.add(c);
  }
  recentFinite1 = recentFinite0;
  recentFinite0 = c;
  return true;
}

/** Largest |vertex coordinate| per hull object, computed once (shapes are immutable). */
function hullMagnitude(s: ConvexPolyhedron): number {
  // No closure: this runs for every pair (the change-of-units check), where one was allocated
  // per call (115 KB per step in the curved steady-state probe's rounded polyhedra).
  return cachedPerShapeOf(s.vertices, largestAbsCoordinate, s.vertices);
}

/** The largest |coordinate| of packed vertices. */
function largestAbsCoordinate(vertices: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < vertices.length; i++) m = Math.max(m, Math.abs(vertices[i]));
  return m;
}

/** The face polygons of hull `c`, each packed xyz in its stored (cyclic) order. */
function hullFaces(c: ConvexPolyhedron): number[][] {
  const faces: number[][] = [];
  for (let f = 0; f < c.faceCount; f++) {
    const face: number[] = [];
    for (let k = c.faceOffsets[f]; k < c.faceOffsets[f + 1]; k++) {
      const i = c.faceVertices[k];
      face.push(c.vertices[3 * i], c.vertices[3 * i + 1], c.vertices[3 * i + 2]);
    }
    faces.push(face);
  }
  return faces;
}

/** The convex polyhedron's record in the shape definitions' table. */
export const convexPolyhedronDef: ShapeDef<ConvexPolyhedron> = {
  type: ShapeType.ConvexPolyhedron,
  name: SHAPE_TYPE_NAMES[ShapeType.ConvexPolyhedron],
  supportMapped: true,
  composite: false,
  // SAT's axes: the face normals and the unique edges.
  polytope: {
    faceCount: (s) => s.faceCount,
    // Stored here, not through vec3.set: its doubles were passed boxed and its stores, shared by
    // every vector shape, are megamorphic (issue 15).
    faceNormal: (out, s, i) => {
      const n = s.faceNormals;
      out.x = n[3 * i];
      out.y = n[3 * i + 1];
      out.z = n[3 * i + 2];
      return out;
    },
    edgeCount: (s) => s.edges.length / 2,
    edgeDirection: (out, s, i) => {
      const v = s.vertices;
      const i0 = 3 * s.edges[2 * i];
      const i1 = 3 * s.edges[2 * i + 1];
      out.x = v[i1] - v[i0];
      out.y = v[i1 + 1] - v[i0 + 1];
      out.z = v[i1 + 2] - v[i0 + 2];
      return out;
    },
    flat: false,
    faces: hullFaces,
    planes: (s) => {
      const out: number[] = [];
      const n = s.faceNormals;
      for (let f = 0; f < s.faceCount; f++) {
        out.push(n[3 * f], n[3 * f + 1], n[3 * f + 2], s.facePlaneOffsets[f]);
      }
      return out;
    },
  },
  revolution: null,
  unbounded: false,
  pointFeature: false,
  aabb: aabbConvexPolyhedron,
  // cachedPerShapeOf, not a closure: created per call, it allocated on every call (a hit too).
  ...boundingRadiusWith<ConvexPolyhedron>(
    (s) => cachedPerShapeOf(s, maxVertexDistance, s.vertices),
    (out, s) => {
      out[0] = cachedPerShapeOf(s, maxVertexDistance, s.vertices);
    },
  ),
  writeMagnitude: (out, s) => {
    out[0] = hullMagnitude(s);
  },
  // Every length times k (a power of two: exact), the topology and unit normals shared.
  scaled: (s, k) => ({
    ...s,
    vertices: scaledArray(s.vertices, k),
    facePlaneOffsets: scaledArray(s.facePlaneOffsets, k),
    supportClimbSlack: s.supportClimbSlack === undefined ? undefined : s.supportClimbSlack * k,
  }),
  coreSupport: supportConvexPolyhedron,
  margin: () => 0,
  feature: polyhedronFace,
  edgeFeature: polyhedronEdge,
  // The raw direction keeps the plane clipping exact.
  rayCast: (out, s, o, _dUnit, dRaw, _len, maxToi, solid) =>
    rayCastConvexPolyhedron(out, s, o, dRaw, maxToi, solid),
  projectPoint: projectConvexPolyhedron,
  dataOrder: (a, b) => arrayOrder(a.vertices, b.vertices),
  check: checkConvexPolyhedron,
  isFinite: finitePolyhedron,
  view: (s) => {
    // Each face is a convex polygon, counter-clockwise from outside: a fan from its first corner.
    const indices: number[] = [];
    const off = s.faceOffsets;
    const fv = s.faceVertices;
    for (let f = 0; f + 1 < off.length; f++) {
      for (let k = off[f] + 1; k + 1 < off[f + 1]; k++) indices.push(fv[off[f]], fv[k], fv[k + 1]);
    }
    return {
      type: "triangles",
      positions: Array.from(s.vertices),
      indices,
      edges: Array.from(s.edges),
    };
  },
  json: {
    name: "convex",
    schema: (z) => z.strictObject({ type: z.literal("convex"), vertices: z.array(z.number()) }),
    toJson: (s) => ({ type: "convex", vertices: Array.from(s.vertices) }),
    fromJson: (j, field) =>
      makeConvexPolyhedron(Float64Array.from(j.vertices as number[]), `${field}.vertices`),
  },
};

registerShape(convexPolyhedronDef);

/** A copy of `a` with every element times `k` (allocates; only out-of-range queries get here). */
function scaledArray(a: Float64Array, k: number): Float64Array {
  const r = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) r[i] = a[i] * k;
  return r;
}
