/**
 * A cylinder's or a cone's rim (or a cone's apex) exactly touching a triangle's or a convex
 * hull's face, decided exactly (issue 16, fresh-user finding 43b/05: a cylinder whose bottom rim
 * touched a tilted triangle exactly was 7e-15 apart, while the same triangle as a one-triangle
 * mesh answered 0).
 *
 * The solid's point nearest a face's plane is a rim point, irrational in general; whether it
 * lies exactly on the plane is a polynomial sign in the inputs, decided by squares in
 * floating-point expansions (src/geometry/exact-predicates.ts `rimGapSignIo`). That sign is
 * exact where the solid's axis and centre are exactly known in the polytope's frame. With the
 * polytope as A (a mesh's or a heightfield's triangle, part-first): the centre is B's
 * translation, the axis B's rotated +y, taken as exact when the rotation is a signed permutation
 * of the axes (a rotation whose rotated basis vectors lie within {@link SNAP} of signed basis
 * vectors is taken as that permutation: a 90° turn's quaternion, √½ rounded, is one). With the
 * solid as A (the table's order for a bare triangle or hull): the centre is −R^T t from the
 * polytope's pose (R, t) in the solid's frame, exact for an identity rotation or a half turn
 * about a coordinate axis (components 0, ±1); under a 90° turn the query has already rounded t
 * and the pair is left to the solver. Any other rotation is left to the iterative solver too
 * (its rotated axis is not exact, and no double vector is a unit vector off the axes). The
 * centre is otherwise the one the query formed (a polytope posed off the origin: its
 * translation's difference from the solid's, rounded by the query).
 *
 * The answer, for a pair whose floating-point gap against the face of greatest separation lies
 * within {@link RIM_BAND} of the coordinates' magnitude:
 * - {@link RIM_APART}: the solid lies strictly beyond a triangle's plane (the bare triangle) or
 *   beyond a hull face's plane with every hull vertex exactly on or behind it;
 * - {@link RIM_TOUCH}: the lowest point lies exactly on the plane and inside the triangle (a
 *   hull's: a fan triangle of the face, every vertex on or behind its plane) by more than a
 *   bound on its rounding (the point is irrational: computed in doubles, its in-plane distances
 *   to the edges compared with that bound); the bare triangle with the point outside it by more
 *   than the bound, the point the solid's only one on the plane: {@link RIM_APART};
 * - {@link RIM_OVERLAP}: the lowest point lies below the plane and the segment from it to the
 *   centre crosses the plane inside the triangle by the same kind of bound;
 * - {@link RIM_UNDECIDED} otherwise (the pair's float answer stands): outside the band, a point
 *   too near an edge, a cap face-on or a cylinder's side parallel to the face (the lowest set a
 *   disc or a segment), a degenerate triangle, inputs outside the predicate's range.
 *
 * The last answer is kept with its inputs: a query asks a pair two or three times (its routine,
 * then the touching agreement). Nothing allocated.
 */

import {
  exactRange,
  orient3dSign,
  PLANE_GAP_UNDECIDED,
  rimGapSignIo,
  rimIo,
} from "../geometry/exact-predicates.js";
import type { Isometry } from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { ConvexShape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";

/** The solid lies apart from the polytope (proven). */
export const RIM_APART = 1;
/** The solid touches the polytope: they share a point and the solid lies on one side of the face. */
export const RIM_TOUCH = 0;
/** The solid and the polytope overlap (proven). */
export const RIM_OVERLAP = -1;
/** Not decided here: the float answer stands. */
export const RIM_UNDECIDED = 2;

/** The float gap, relative to the coordinates' magnitude, within which the exact test is asked. */
const RIM_BAND = 2 ** -36;
/** A bound, relative to the coordinates' magnitude, on the rounding of the lowest point and of its in-plane distances. */
const ROUND = 2 ** -40;
/** Distance of a rotated basis vector's components from 0 and ±1 within which it is taken as a signed basis vector. */
const SNAP = 2 ** -50;

/**
 * Scalars (no double crosses a call): [0..2] the centre in the polytope's frame, [3] the half
 * height, [4] the radius, [5] axis coordinate k, [6] its sign, [7] 1 for a cone, [8] the
 * magnitude S, [9] the float gap, [10..12] the unit normal n̂ (toward the centre), [13] the
 * centre's distance from the plane, [14] +1 when n̂ is (pb − pa) × (pc − pa)'s direction, −1
 * when its reverse.
 */
const rt = new Float64Array(16);
/** The signed permutation of the pose's rotation: [axis i] the coordinate and sign R^T e_i lands on. */
const permAxis = new Int32Array(3);
const permSign = new Float64Array(3);
const rotated = { x: 0, y: 0, z: 0 };
const unit = { x: 0, y: 0, z: 0 };
const pa = { x: 0, y: 0, z: 0 };
const pb = { x: 0, y: 0, z: 0 };
const pc = { x: 0, y: 0, z: 0 };
const pv = { x: 0, y: 0, z: 0 };
/** The lowest point, in doubles. */
const low = new Float64Array(3);

/** The last inputs and answer (see the module docs). */
const lastKey = new Float64Array(8);
let lastPoly: unknown = null;
let lastAnswer = RIM_UNDECIDED;

/** True when `s` is a cylinder or a cone. */
function revolution(s: ConvexShape): boolean {
  return s.type === ShapeType.Cylinder || s.type === ShapeType.Cone;
}

/** True when `s` is a triangle or a convex hull. */
function flatFaced(s: ConvexShape): boolean {
  return s.type === ShapeType.Triangle || s.type === ShapeType.ConvexPolyhedron;
}

/** True when the pair is a cylinder or a cone against a triangle or a hull, in either order. */
export function rimTouchPair(a: ConvexShape, b: ConvexShape): boolean {
  return (revolution(a) && flatFaced(b)) || (revolution(b) && flatFaced(a));
}

/**
 * Writes into permAxis/permSign where q^{-1} (inverse true) or q sends each basis vector, when
 * each lands within SNAP of a signed basis vector and they form a permutation; false otherwise.
 */
function signedPermutation(q: Quat, inverse: boolean): boolean {
  let used = 0;
  for (let i = 0; i < 3; i++) {
    unit.x = i === 0 ? 1 : 0;
    unit.y = i === 1 ? 1 : 0;
    unit.z = i === 2 ? 1 : 0;
    rotateInto(q, inverse);
    let k = -1;
    for (let j = 0; j < 3; j++) {
      const v = j === 0 ? rotated.x : j === 1 ? rotated.y : rotated.z;
      const m = Math.abs(v);
      if (Math.abs(m - 1) <= SNAP) {
        if (k >= 0) return false;
        k = j;
        permSign[i] = v > 0 ? 1 : -1;
      } else if (!(m <= SNAP)) return false;
    }
    if (k < 0 || (used & (1 << k)) !== 0) return false;
    used |= 1 << k;
    permAxis[i] = k;
  }
  return true;
}

/** True when every component of `q` is 0 or ±1 (a half turn about a coordinate axis, exact). */
function halfTurn(q: Quat): boolean {
  for (let i = 0; i < 4; i++) {
    const v = i === 0 ? q.x : i === 1 ? q.y : i === 2 ? q.z : q.w;
    if (!(v === 0 || v === 1 || v === -1)) return false;
  }
  return true;
}

/** rotated = q (or q^{-1}) applied to `unit` (quat.rotate's arithmetic, written out). */
function rotateInto(q: Quat, inverse: boolean): void {
  const s = inverse ? -1 : 1;
  const qx = s * q.x;
  const qy = s * q.y;
  const qz = s * q.z;
  const v = unit;
  const tx = 2 * (qy * v.z - qz * v.y);
  const ty = 2 * (qz * v.x - qx * v.z);
  const tz = 2 * (qx * v.y - qy * v.x);
  rotated.x = v.x + q.w * tx + (qy * tz - qz * ty);
  rotated.y = v.y + q.w * ty + (qz * tx - qx * tz);
  rotated.z = v.z + q.w * tz + (qx * ty - qy * tx);
}

/**
 * The exact answer for convex shapes `a`, `b` (B posed by `bInA` in A's frame) when one is a
 * cylinder or a cone and the other a triangle or a hull (see the module docs):
 * {@link RIM_APART}, {@link RIM_TOUCH}, {@link RIM_OVERLAP} or {@link RIM_UNDECIDED}.
 */
export function exactRimTouch(a: ConvexShape, b: ConvexShape, bInA: Isometry): number {
  const polyFirst = flatFaced(a);
  const solid = (polyFirst ? b : a) as { type: number; halfHeight: number; radius: number };
  const poly = polyFirst ? a : b;
  const q = bInA.rotation;
  const t = bInA.translation;
  const identity = q.x === 0 && q.y === 0 && q.z === 0;
  if (polyFirst) {
    // The solid's centre is B's translation; its axis the rotated +y.
    rt[0] = t.x;
    rt[1] = t.y;
    rt[2] = t.z;
    if (identity) {
      rt[5] = 1;
      rt[6] = 1;
    } else {
      if (!signedPermutation(q, false)) return RIM_UNDECIDED;
      rt[5] = permAxis[1];
      rt[6] = permSign[1];
    }
  } else {
    // The polytope is B: the centre is −R^T t, the axis R^T e_y (R B's rotation in A's frame).
    if (identity) {
      rt[0] = -t.x;
      rt[1] = -t.y;
      rt[2] = -t.z;
      rt[5] = 1;
      rt[6] = 1;
    } else {
      // Only a rotation the pose holds exactly (a half turn about an axis): under any other,
      // B's translation in A's frame was rounded when the query formed it.
      if (!halfTurn(q) || !signedPermutation(q, true)) return RIM_UNDECIDED;
      for (let i = 0; i < 3; i++) {
        const v = i === 0 ? t.x : i === 1 ? t.y : t.z;
        rt[permAxis[i]] = -permSign[i] * v;
      }
      rt[5] = permAxis[1];
      rt[6] = permSign[1];
    }
  }
  rt[3] = solid.halfHeight;
  rt[4] = solid.radius;
  rt[7] = solid.type === ShapeType.Cone ? 1 : 0;
  if (poly === lastPoly) {
    let same = true;
    for (let i = 0; i < 8 && same; i++) same = Object.is(rt[i], lastKey[i]);
    if (same) return lastAnswer;
  }
  const answer =
    poly.type === ShapeType.Triangle
      ? triangleAnswer(poly as Triangle)
      : hullAnswer(poly as ConvexPolyhedron);
  for (let i = 0; i < 8; i++) lastKey[i] = rt[i];
  lastPoly = poly;
  lastAnswer = answer;
  return answer;
}

/** The answer against a bare triangle (see {@link exactRimTouch}). */
function triangleAnswer(tri: Triangle): number {
  copy(pa, tri.a);
  copy(pb, tri.b);
  copy(pc, tri.c);
  // (Written out: a double returned from a call V8 does not inline is boxed.)
  rt[8] = Math.max(
    Math.abs(pa.x),
    Math.abs(pa.y),
    Math.abs(pa.z),
    Math.abs(pb.x),
    Math.abs(pb.y),
    Math.abs(pb.z),
    Math.abs(pc.x),
    Math.abs(pc.y),
    Math.abs(pc.z),
  );
  if (!floatGap(false)) return RIM_UNDECIDED;
  const s = exactSign();
  if (s === PLANE_GAP_UNDECIDED) return RIM_UNDECIDED;
  if (s > 0) return RIM_APART;
  const f = lowestInside(s);
  if (f > 0) return s === 0 ? RIM_TOUCH : RIM_OVERLAP;
  // Outside the triangle at a touch, the solid's only point on the plane: apart.
  if (f < 0 && s === 0 && (rt[7] !== 1 || rimIo[18] !== rimIo[19])) return RIM_APART;
  return RIM_UNDECIDED;
}

/** The answer against a hull: its face of greatest separation, by the fan of its triangles. */
function hullAnswer(h: ConvexPolyhedron): number {
  const nrm = h.faceNormals;
  const off = h.facePlaneOffsets;
  let best = -1;
  let bestGap = Number.NEGATIVE_INFINITY;
  for (let f = 0; f < h.faceCount; f++) {
    rt[10] = nrm[3 * f];
    rt[11] = nrm[3 * f + 1];
    rt[12] = nrm[3 * f + 2];
    rt[13] = rt[10] * rt[0] + rt[11] * rt[1] + rt[12] * rt[2] - off[f];
    solidGap();
    if (rt[9] > bestGap) {
      bestGap = rt[9];
      best = f;
    }
  }
  if (best < 0) return RIM_UNDECIDED;
  const v = h.vertices;
  const fv = h.faceVertices;
  const o0 = h.faceOffsets[best];
  const o1 = h.faceOffsets[best + 1];
  let m = 0;
  for (let i = o0; i < o1; i++) {
    const j = 3 * fv[i];
    m = Math.max(m, Math.abs(v[j]), Math.abs(v[j + 1]), Math.abs(v[j + 2]));
  }
  rt[8] = m;
  const i0 = 3 * fv[o0];
  setPoint(pa, v, i0);
  for (let i = o0 + 1; i + 1 < o1; i++) {
    setPoint(pb, v, 3 * fv[i]);
    setPoint(pc, v, 3 * fv[i + 1]);
    if (!floatGap(true)) return RIM_UNDECIDED;
    const s = exactSign();
    // The centre on the face's outer side (the hull behind the plane), else not this case.
    if (s === PLANE_GAP_UNDECIDED || rimIo[17] <= 0) continue;
    if (s > 0) {
      if (hullBehind(h)) return RIM_APART;
      continue;
    }
    if (lowestInside(s) > 0 && hullBehind(h)) return s === 0 ? RIM_TOUCH : RIM_OVERLAP;
  }
  return RIM_UNDECIDED;
}

/** True when every vertex of hull `h` lies exactly on or behind the plane of (pa, pb, pc). */
function hullBehind(h: ConvexPolyhedron): boolean {
  const v = h.vertices;
  for (let i = 0; i < h.vertexCount; i++) {
    setPoint(pv, v, 3 * i);
    if (orient3dSign(pa, pb, pc, pv) > 0) return false;
  }
  return true;
}

/**
 * The float gap of the solid against the plane of (pa, pb, pc) into rt[9] (the unit normal
 * toward the centre into rt[10..12], the centre's distance into rt[13]); false when it lies
 * outside the band, the triangle is degenerate or a coordinate is outside the exact range.
 * `outward`: the normal as (pb − pa) × (pc − pa) points, whatever the centre's side.
 */
function floatGap(outward: boolean): boolean {
  if (!exactRange(pa) || !exactRange(pb) || !exactRange(pc)) return false;
  const e0x = pb.x - pa.x;
  const e0y = pb.y - pa.y;
  const e0z = pb.z - pa.z;
  const e1x = pc.x - pa.x;
  const e1y = pc.y - pa.y;
  const e1z = pc.z - pa.z;
  let nx = e0y * e1z - e0z * e1y;
  let ny = e0z * e1x - e0x * e1z;
  let nz = e0x * e1y - e0y * e1x;
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(len > 0 && len < Number.POSITIVE_INFINITY)) return false;
  nx /= len;
  ny /= len;
  nz /= len;
  let d = nx * (rt[0] - pa.x) + ny * (rt[1] - pa.y) + nz * (rt[2] - pa.z);
  rt[14] = 1;
  if (d < 0 && !outward) {
    nx = -nx;
    ny = -ny;
    nz = -nz;
    d = -d;
    rt[14] = -1;
  }
  rt[10] = nx;
  rt[11] = ny;
  rt[12] = nz;
  rt[13] = d;
  solidGap();
  const S = Math.max(rt[8], Math.abs(rt[0]), Math.abs(rt[1]), Math.abs(rt[2]), rt[3], rt[4]);
  rt[8] = S;
  return Math.abs(rt[9]) <= RIM_BAND * S;
}

/** rt[9] = the float gap of the solid's lowest point along the unit normal rt[10..12], the centre at rt[13]. */
function solidGap(): void {
  const k = rt[5];
  const m = (k === 0 ? rt[10] : k === 1 ? rt[11] : rt[12]) * rt[6];
  const side = Math.sqrt(Math.max(0, 1 - m * m));
  const d = rt[13];
  const h = rt[3];
  const r = rt[4];
  if (rt[7] === 1) {
    // A cone: its apex (c + h·u) or its base rim (at c − h·u).
    rt[9] = Math.min(d + h * m, d - h * m - r * side);
  } else rt[9] = d - h * Math.abs(m) - r * side;
}

/** The exact sign of {@link rimGapSignIo} for the triangle (pa, pb, pc) and the solid in rt. */
function exactSign(): number {
  const io = rimIo;
  io[0] = rt[0];
  io[1] = rt[1];
  io[2] = rt[2];
  io[3] = pa.x;
  io[4] = pa.y;
  io[5] = pa.z;
  io[6] = pb.x;
  io[7] = pb.y;
  io[8] = pb.z;
  io[9] = pc.x;
  io[10] = pc.y;
  io[11] = pc.z;
  io[12] = rt[3];
  io[13] = rt[4];
  io[14] = rt[5];
  io[15] = rt[6];
  io[16] = rt[7];
  return rimGapSignIo();
}

/**
 * Whether the solid's lowest point (exact sign `s` ≤ 0, rimIo's apex and rim signs) lies inside
 * the triangle (pa, pb, pc): 1 inside by more than the bound, −1 outside by more, 0 undecided
 * (or a lowest set that is not one point). At s < 0 the point is below the plane by at most the
 * band; the segment from it to the centre (both in the solid) crosses the plane within
 * δ·|c − x|/(δ + d_c) of it, so the bound grows by that.
 */
function lowestInside(s: number): number {
  const k = rt[5];
  const su = rt[6];
  const h = rt[3];
  const r = rt[4];
  // The unit normal toward the centre (floatGap's), on the side the exact sign gives.
  const nx = rt[10];
  const ny = rt[11];
  const nz = rt[12];
  if (rimIo[17] !== rt[14] || !(rt[13] > 0)) return 0;
  const m = (k === 0 ? nx : k === 1 ? ny : nz) * su;
  const apex = rt[7] === 1 && rimIo[18] < rimIo[19];
  if (apex) {
    low[0] = rt[0];
    low[1] = rt[1];
    low[2] = rt[2];
    low[k] += su * h;
  } else {
    // The rim point: the cap at −sign(m)·h (a cone's base at −h), then −r along n's part
    // across the axis.
    if (rt[7] !== 1 && m === 0) return 0;
    const px = k === 0 ? 0 : nx;
    const py = k === 1 ? 0 : ny;
    const pz = k === 2 ? 0 : nz;
    const pl = Math.sqrt(px * px + py * py + pz * pz);
    if (!(pl > 2 ** -20)) return 0;
    const cap = rt[7] === 1 ? -h : m > 0 ? -h : h;
    low[0] = rt[0] - (r * px) / pl;
    low[1] = rt[1] - (r * py) / pl;
    low[2] = rt[2] - (r * pz) / pl;
    low[k] += su * cap;
  }
  const S = rt[8];
  let bound = ROUND * S;
  if (s < 0) {
    const delta = Math.abs(rt[9]) + ROUND * S;
    const dc = Math.abs(rt[13]) - ROUND * S;
    if (!(dc > 0)) return 0;
    bound += (delta * (h + r)) / dc + delta;
  }
  // The in-plane distance of the point from each edge's line, positive inside.
  let all = 1;
  for (let e = 0; e < 3; e++) {
    const v = e === 0 ? pa : e === 1 ? pb : pc;
    const w = e === 0 ? pb : e === 1 ? pc : pa;
    const ex = w.x - v.x;
    const ey = w.y - v.y;
    const ez = w.z - v.z;
    const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
    if (!(el > 0)) return 0;
    const wx = low[0] - v.x;
    const wy = low[1] - v.y;
    const wz = low[2] - v.z;
    // ((w − v) × (x − v))·n̂ / |w − v|, n̂ the triangle's orientation's unit normal.
    const cx = ey * wz - ez * wy;
    const cy = ez * wx - ex * wz;
    const cz = ex * wy - ey * wx;
    const dist = (cx * nx + cy * ny + cz * nz) / el;
    // (n̂ toward the centre is the triangle's orientation times rt[14].)
    const inside = rt[14] * dist;
    if (inside < -bound) return -1;
    if (!(inside > bound)) all = 0;
  }
  return all;
}

function copy(out: { x: number; y: number; z: number }, p: Vec3): void {
  out.x = p.x;
  out.y = p.y;
  out.z = p.z;
}

function setPoint(out: { x: number; y: number; z: number }, v: Float64Array, i: number): void {
  out.x = v[i];
  out.y = v[i + 1];
  out.z = v[i + 2];
}
