/**
 * A triangle against a polytope — a box, another triangle or a convex polyhedron (a flat convex
 * polygon included) — by exact feature computations instead of GJK/EPA (issue 16: a touching
 * box mesh's witness at the far corner of a box of 7e5, a triangle's witness 2e-7 off a
 * triangle of 1e4, normals of touching pairs that cut through the other shape).
 *
 * Everything happens in a local frame: the triangle's first corner is the origin, and B's
 * vertices are rotated into A's frame and moved by (B's offset − that corner), so the
 * arithmetic is relative to the pair's size and not to its distance from the origin (issue 16,
 * class 7). The answers are moved back at the end.
 *
 * - Penetration (and `intersects`): the separating axis test over every direction along which
 *   the Minkowski difference has a face — the triangle's normal, B's face normals, the cross
 *   products of a triangle edge with a B edge — plus the in-plane normals of the edges of the
 *   flat shapes (coplanar pairs). For polytopes that set contains the direction of least
 *   overlap, so its smallest overlap is the penetration depth and its axis a normal that
 *   achieves it (Ericson 2005, §4.4 and §5.2.1; Gottschalk, Lin & Manocha 1996). Touching within
 *   the coordinates' rounding (a few ulps of the local frame) counts as touching.
 * - Closest points (apart): the least of the distances of a triangle corner to a face of B
 *   (its projection inside the face), of a B vertex to the triangle's face, and of the
 *   triangle's edges to B's edges (Ericson 2005, §5.1.9): the closest features of two convex
 *   polytopes are one of those pairs, so the witnesses lie on the features exactly (to their
 *   rounding).
 * - Degenerate triangles (a segment or a point; a sliver thinner than `PARALLEL` of its edges
 *   counts as one): their face normal is no axis; a segment in a flat B's plane adds its in-plane
 *   normal (B's normal × the segment), and two of them against each other are decided by their
 *   exact closest points (the gap, or at a touch a normal to both, along which the overlap is 0).
 * - Slivers (least height at most 2^-20 of the longest edge, `triangleIsSliver`, with a face
 *   normal): that normal from exact products of the input corners ({@link exactFaceNormal}; in
 *   doubles ε/h rad off for a relative height h), the corners also projected onto the other
 *   shape's edges ({@link cornerEdgePairs}: the edges' closed form is ill-conditioned for near
 *   parallel edges); every other triangle's arithmetic is unchanged.
 * - A gap whose closest pair is a corner against an edge's inside: the corner's perpendicular to
 *   the edge preferred to the SAT's axis that ties with it ({@link cornerEdgeFirst}; slivers only
 *   until session 41), and an SAT axis kept whose witnesses do not face along it gives way to a
 *   tied edge pair's own normal ({@link tiedFacingPair}): a tied axis need not have facing
 *   features (a capsule's segment perpendicular to a triangle's edge, level with its end).
 * - Witnesses of a penetration: B moved along the normal past its depth d by a clearance c is
 *   apart from A by exactly c along the normal (the origin projects into the Minkowski
 *   difference's face of that normal), and the closest points of that pair, B's moved back by
 *   d + c, are a pair on A and B spanning d along the normal.
 *
 * The manifold clips the contact's faces as for every polytope pair (src/narrowphase/manifold.ts).
 * Runs in the world's step (triangle meshes against boxes and hulls): every temporary lives in
 * module scratch (typed arrays and preallocated vectors), no double crosses a call that V8 may
 * leave out of line, nothing is allocated once a hull's vertex count has been seen.
 */

import {
  closestPointOnTriangle,
  sliverNormal,
  triangleIsSliver,
} from "../geometry/closest-point.js";
import {
  closestPointsSegmentSegment,
  type SegmentParameters,
} from "../geometry/closest-segments.js";
import { exactRange, trianglesMeet } from "../geometry/exact-predicates.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as mat3 from "../math/mat3.js";
import { unitScaleFactor } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import { canonicalOrder } from "./canonical-order.js";
import type { Contact, DistanceResult } from "./contact.js";

/** The polytopes a triangle is paired with here. */
export type TrianglePolytopeOther = Cuboid | Triangle | ConvexPolyhedron;

const EPS = 2 ** -52;
/** Veltkamp's splitting constant 2^27 + 1 (Dekker's exact product). */
const SPLIT = 134217729;
/** Touching band of the overlap test, in ulps of the local frame's largest coordinate. */
const TOUCH_ULPS = 16;
/** A cross product of two edges shorter than this times their lengths' product is no axis. */
const PARALLEL = 2 ** -40;
/**
 * Clearance by which B is moved past its depth to find the witnesses, relative to the pair's
 * shortest edge (see {@link penetrationWitnesses}).
 */
const CLEARANCE = 2 ** -10;
/** Least clearance, in ulps of the local frame: far above the SAT's rounding ({@link TOUCH_ULPS}). */
const CLEARANCE_FLOOR_ULPS = 2 ** 10;

// The triangle A (local frame: corner a at the origin).
const av = new Float64Array(9);
/** A's unnormalised face normal (b − a) × (c − a). */
const an = new Float64Array(3);
// B in A's local frame.
let bv = new Float64Array(24);
let bvCount = 0;
let bn = new Float64Array(18);
let bfCount = 0;
/**
 * Per face of B, 1 when it has no area (a box with a zero half extent: its side faces are
 * segments): no corner of A projects into it, its points are its edges' (the edge pairs).
 */
let bFaceFlat = new Uint8Array(6);
let bFaceOffsets: Uint32Array = new Uint32Array(0);
let bFaceVertices: Uint32Array = new Uint32Array(0);
let bEdges: Uint32Array = new Uint32Array(0);
/** Edge directions of B for the cross axes, packed xyz. */
let bd = new Float64Array(36);
let bdCount = 0;
let bFlat = false;
const rot = mat3.create();
/** [0] the local frame's largest coordinate magnitude. */
const frame = new Float64Array(1);
/** The local frame's origin (A's frame). */
const origin = vec3.create();

const CUBOID_FACE_OFFSETS = new Uint32Array([0, 4, 8, 12, 16, 20, 24]);
// Corner i has x = +h when bit 1 is set, y when bit 2, z when bit 4; faces +x −x +y −y +z −z.
const CUBOID_FACE_VERTICES = new Uint32Array([
  1, 3, 7, 5, 0, 2, 6, 4, 2, 3, 7, 6, 0, 1, 5, 4, 4, 5, 7, 6, 0, 1, 3, 2,
]);
const CUBOID_EDGES = new Uint32Array([
  0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7,
]);
const TRIANGLE_FACE_OFFSETS = new Uint32Array([0, 3, 6]);
const TRIANGLE_FACE_VERTICES = new Uint32Array([0, 1, 2, 0, 2, 1]);
const TRIANGLE_EDGES = new Uint32Array([0, 1, 1, 2, 2, 0]);

function growB(vertices: number, faces: number, dirs: number): void {
  if (bv.length < 3 * vertices) bv = new Float64Array(3 * vertices);
  if (bn.length < 3 * faces) {
    bn = new Float64Array(3 * faces);
    bFaceFlat = new Uint8Array(faces);
  }
  if (bd.length < 3 * dirs) bd = new Float64Array(3 * dirs);
}

/** Writes B's local vertex (x, y, z) rotated and moved into slot i of `bv` (shift in `shift`). */
const shift = new Float64Array(3);
const local = new Float64Array(3);
function putVertex(i: number): void {
  const x = local[0];
  const y = local[1];
  const z = local[2];
  bv[3 * i] = rot[0] * x + rot[1] * y + rot[2] * z + shift[0];
  bv[3 * i + 1] = rot[3] * x + rot[4] * y + rot[5] * z + shift[1];
  bv[3 * i + 2] = rot[6] * x + rot[7] * y + rot[8] * z + shift[2];
}

/** Normalises the 3-vector at `o` of `arr` in place (left as is when zero). */
function normalizeAt(arr: Float64Array, o: number): void {
  const x = arr[o];
  const y = arr[o + 1];
  const z = arr[o + 2];
  const s = x * x + y * y + z * z;
  if (s > 1e-280 && s < 1e280) {
    const k = 1 / Math.sqrt(s);
    arr[o] = x * k;
    arr[o + 1] = y * k;
    arr[o + 2] = z * k;
    return;
  }
  // A zero vector (or NaN) is left as is; a tiny or huge one by its largest component first
  // (its squared length underflows or overflows: the face normal of a triangle of 1e-108 in a
  // pair of size 1, whose square underflowed to 0 and was kept unnormalised, made every
  // point-in-face test round to 0, "inside", and a point 0.77 away a witness at distance 0).
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (!(m > 0)) return;
  const u = x / m;
  const v = y / m;
  const w = z / m;
  const k = 1 / Math.sqrt(u * u + v * v + w * w);
  arr[o] = u * k;
  arr[o + 1] = v * k;
  arr[o + 2] = w * k;
}

/** The unit face normal of the last {@link exactFaceNormal} (the triangle's own frame). */
const faceUnit = vec3.create();
/** [0] 1 when the last {@link exactFaceNormal} found the normal, else 0. */
const faceIo = new Int32Array(1);
/**
 * [0] 1 when the loaded pair has a sliver triangle whose face normal {@link exactFaceNormal}
 * expanded exactly (then {@link closestFeatures} also offers the corners against the edges,
 * {@link cornerEdgePairs}), else 0.
 */
const sliverPair = new Int32Array(1);

/**
 * faceUnit = the unit face normal (b − a) × (c − a)/|…| of sliver triangle `t` in its own frame,
 * each component of the cross product expanded exactly from the input corners and rounded once
 * (`sliverNormal`, src/geometry/closest-point.ts; Shewchuk 1997), faceIo[0] = 1; 0 when the
 * corners are collinear in exact arithmetic or out of the exact predicates' range. A sliver's
 * (least height h below 2^-20 of its longest edge L, `triangleIsSliver`) cross product rounded
 * in doubles is off by ε·L/h rad, and its corners' local-frame coordinates, rounded at the
 * frame's magnitude, turn it as much (issue 16: a capsule against a sliver of relative height
 * 1.2e-8, its vertex–face distance 1.5e-10 off along the rounded normal). Only slivers take it:
 * every other triangle keeps its rounded normal to the last bit.
 */
function exactFaceNormal(t: Triangle): void {
  faceIo[0] = sliverNormal(faceUnit, t.a, t.b, t.c) ? 1 : 0;
}

/** Loads the pair into the local frame (see the module doc). */
function load(a: Triangle, b: TrianglePolytopeOther, bInA: Isometry): void {
  sliverPair[0] = 0;
  vec3.copy(origin, a.a);
  av[0] = 0;
  av[1] = 0;
  av[2] = 0;
  av[3] = a.b.x - origin.x;
  av[4] = a.b.y - origin.y;
  av[5] = a.b.z - origin.z;
  av[6] = a.c.x - origin.x;
  av[7] = a.c.y - origin.y;
  av[8] = a.c.z - origin.z;
  an[0] = av[4] * av[8] - av[5] * av[7];
  an[1] = av[5] * av[6] - av[3] * av[8];
  an[2] = av[3] * av[7] - av[4] * av[6];
  if ((an[0] !== 0 || an[1] !== 0 || an[2] !== 0) && triangleIsSliver(a.a, a.b, a.c)) {
    exactFaceNormal(a);
    const l = Math.sqrt(an[0] * an[0] + an[1] * an[1] + an[2] * an[2]);
    if (faceIo[0] === 1 && l > 0 && l < Infinity) {
      sliverPair[0] = 1;
      an[0] = faceUnit.x * l;
      an[1] = faceUnit.y * l;
      an[2] = faceUnit.z * l;
    }
  }
  mat3.fromQuat(rot, bInA.rotation);
  const t = bInA.translation;
  shift[0] = t.x - origin.x;
  shift[1] = t.y - origin.y;
  shift[2] = t.z - origin.z;
  if (b.type === ShapeType.Cuboid) loadCuboid(b);
  else if (b.type === ShapeType.Triangle) loadTriangle(b);
  else loadHull(b);
  let m = 0;
  for (let i = 0; i < 9; i++) m = Math.max(m, Math.abs(av[i]));
  for (let i = 0; i < 3 * bvCount; i++) m = Math.max(m, Math.abs(bv[i]));
  frame[0] = m;
}

function loadCuboid(b: Cuboid): void {
  growB(8, 6, 3);
  const h = b.halfExtents;
  for (let i = 0; i < 8; i++) {
    local[0] = i & 1 ? h.x : -h.x;
    local[1] = i & 2 ? h.y : -h.y;
    local[2] = i & 4 ? h.z : -h.z;
    putVertex(i);
  }
  bvCount = 8;
  // Faces +x −x +y −y +z −z: ± the rotation's columns.
  for (let k = 0; k < 3; k++) {
    bn[6 * k] = rot[k];
    bn[6 * k + 1] = rot[3 + k];
    bn[6 * k + 2] = rot[6 + k];
    bn[6 * k + 3] = -rot[k];
    bn[6 * k + 4] = -rot[3 + k];
    bn[6 * k + 5] = -rot[6 + k];
    bd[3 * k] = rot[k];
    bd[3 * k + 1] = rot[3 + k];
    bd[3 * k + 2] = rot[6 + k];
  }
  bfCount = 6;
  bdCount = 3;
  // Face pair k spans the two other axes: flat when either half extent is 0.
  const fx = h.y === 0 || h.z === 0 ? 1 : 0;
  const fy = h.x === 0 || h.z === 0 ? 1 : 0;
  const fz = h.x === 0 || h.y === 0 ? 1 : 0;
  bFaceFlat[0] = fx;
  bFaceFlat[1] = fx;
  bFaceFlat[2] = fy;
  bFaceFlat[3] = fy;
  bFaceFlat[4] = fz;
  bFaceFlat[5] = fz;
  bFaceOffsets = CUBOID_FACE_OFFSETS;
  bFaceVertices = CUBOID_FACE_VERTICES;
  bEdges = CUBOID_EDGES;
  bFlat = false;
}

function loadTriangle(b: Triangle): void {
  growB(3, 2, 3);
  local[0] = b.a.x;
  local[1] = b.a.y;
  local[2] = b.a.z;
  putVertex(0);
  local[0] = b.b.x;
  local[1] = b.b.y;
  local[2] = b.b.z;
  putVertex(1);
  local[0] = b.c.x;
  local[1] = b.c.y;
  local[2] = b.c.z;
  putVertex(2);
  bvCount = 3;
  const ux = bv[3] - bv[0];
  const uy = bv[4] - bv[1];
  const uz = bv[5] - bv[2];
  const wx = bv[6] - bv[0];
  const wy = bv[7] - bv[1];
  const wz = bv[8] - bv[2];
  bn[0] = uy * wz - uz * wy;
  bn[1] = uz * wx - ux * wz;
  bn[2] = ux * wy - uy * wx;
  // A sliver, a segment or a point (the rule that drops A's face normal in `runSat`): no face
  // normal, so that no noise direction stands in for it; `runSat` then treats B as its edges.
  const l2 = bn[0] * bn[0] + bn[1] * bn[1] + bn[2] * bn[2];
  const scale2 = (ux * ux + uy * uy + uz * uz) * (wx * wx + wy * wy + wz * wz);
  if (!(l2 > PARALLEL * PARALLEL * scale2) || !(l2 > 0)) {
    bn[0] = 0;
    bn[1] = 0;
    bn[2] = 0;
  }
  if ((bn[0] !== 0 || bn[1] !== 0 || bn[2] !== 0) && triangleIsSliver(b.a, b.b, b.c)) {
    exactFaceNormal(b);
    if (faceIo[0] === 1) {
      sliverPair[0] = 1;
      const x = faceUnit.x;
      const y = faceUnit.y;
      const z = faceUnit.z;
      bn[0] = rot[0] * x + rot[1] * y + rot[2] * z;
      bn[1] = rot[3] * x + rot[4] * y + rot[5] * z;
      bn[2] = rot[6] * x + rot[7] * y + rot[8] * z;
    }
  }
  normalizeAt(bn, 0);
  bn[3] = -bn[0];
  bn[4] = -bn[1];
  bn[5] = -bn[2];
  bfCount = 2;
  bFaceFlat[0] = 0;
  bFaceFlat[1] = 0;
  for (let k = 0; k < 3; k++) {
    const p = k;
    const q = (k + 1) % 3;
    bd[3 * k] = bv[3 * q] - bv[3 * p];
    bd[3 * k + 1] = bv[3 * q + 1] - bv[3 * p + 1];
    bd[3 * k + 2] = bv[3 * q + 2] - bv[3 * p + 2];
  }
  bdCount = 3;
  bFaceOffsets = TRIANGLE_FACE_OFFSETS;
  bFaceVertices = TRIANGLE_FACE_VERTICES;
  bEdges = TRIANGLE_EDGES;
  bFlat = true;
}

function loadHull(b: ConvexPolyhedron): void {
  const n = b.vertexCount;
  const f = b.faceCount;
  const e = b.edges.length / 2;
  growB(n, f, e);
  const v = b.vertices;
  for (let i = 0; i < n; i++) {
    local[0] = v[3 * i];
    local[1] = v[3 * i + 1];
    local[2] = v[3 * i + 2];
    putVertex(i);
  }
  bvCount = n;
  const fn = b.faceNormals;
  for (let i = 0; i < f; i++) {
    const x = fn[3 * i];
    const y = fn[3 * i + 1];
    const z = fn[3 * i + 2];
    bn[3 * i] = rot[0] * x + rot[1] * y + rot[2] * z;
    bn[3 * i + 1] = rot[3] * x + rot[4] * y + rot[5] * z;
    bn[3 * i + 2] = rot[6] * x + rot[7] * y + rot[8] * z;
  }
  bfCount = f;
  bFaceFlat.fill(0, 0, f);
  const ed = b.edges;
  for (let i = 0; i < e; i++) {
    const p = ed[2 * i];
    const q = ed[2 * i + 1];
    bd[3 * i] = bv[3 * q] - bv[3 * p];
    bd[3 * i + 1] = bv[3 * q + 1] - bv[3 * p + 1];
    bd[3 * i + 2] = bv[3 * q + 2] - bv[3 * p + 2];
  }
  bdCount = e;
  bFaceOffsets = b.faceOffsets;
  bFaceVertices = b.faceVertices;
  bEdges = b.edges;
  bFlat = b.flat;
}

// ---------------------------------------------------------------------------------------------
// Separating axis test
// ---------------------------------------------------------------------------------------------

/** The axis under test (unnormalised) and the best one so far (unit). */
const axis = new Float64Array(3);
/**
 * [0] the squared lengths' product of the axis's factors (its degeneracy threshold): a double in
 * a typed array, not an argument (a double passed to a call V8 does not inline is boxed).
 */
const axisScale = new Float64Array(1);
/**
 * [0] least overlap so far (B's motion along the normal that clears A; negative: a gap), [1..3]
 * its unit normal (A toward B), [4] the largest gap found (a separating axis's), [5] 1 once an
 * axis was tested.
 */
const sat = new Float64Array(6);

/** Tests `axis` (skipped when degenerate relative to `scale2`, its factors' squared lengths). */
function testAxis(): void {
  const scale2 = axisScale[0];
  const x = axis[0];
  const y = axis[1];
  const z = axis[2];
  const l2 = x * x + y * y + z * z;
  if (!(l2 > PARALLEL * PARALLEL * scale2) || !(l2 > 0)) return;
  normalizeAt(axis, 0);
  const ux = axis[0];
  const uy = axis[1];
  const uz = axis[2];
  let minA = Infinity;
  let maxA = -Infinity;
  for (let i = 0; i < 9; i += 3) {
    const d = av[i] * ux + av[i + 1] * uy + av[i + 2] * uz;
    if (d < minA) minA = d;
    if (d > maxA) maxA = d;
  }
  let minB = Infinity;
  let maxB = -Infinity;
  for (let i = 0; i < 3 * bvCount; i += 3) {
    const d = bv[i] * ux + bv[i + 1] * uy + bv[i + 2] * uz;
    if (d < minB) minB = d;
    if (d > maxB) maxB = d;
  }
  // B moved along +u by maxA − minB clears A; along −u by maxB − minA.
  const plus = maxA - minB;
  const minus = maxB - minA;
  const o = Math.min(plus, minus);
  if (sat[5] === 0 || o < sat[0]) {
    sat[0] = o;
    const s = plus <= minus ? 1 : -1;
    sat[1] = s * ux;
    sat[2] = s * uy;
    sat[3] = s * uz;
  }
  sat[5] = 1;
}

const ea = new Float64Array(9);
/**
 * Magnitude of A's unnormalised face normal beyond which (or below whose inverse) `runSat` scales
 * it by a power of two first (2^250: its 6th-power products stay finite and normal below it).
 */
const NORMAL_RANGE = 2 ** 250;

/** The SAT over the loaded pair: `sat` holds the least overlap and its normal. */
function runSat(): void {
  sat[0] = 0;
  sat[5] = 0;
  for (let k = 0; k < 3; k++) {
    const p = 3 * k;
    const q = 3 * ((k + 1) % 3);
    ea[p] = av[q] - av[p];
    ea[p + 1] = av[q + 1] - av[p + 1];
    ea[p + 2] = av[q + 2] - av[p + 2];
  }
  const la2 = ea[0] * ea[0] + ea[1] * ea[1] + ea[2] * ea[2];
  const lb2 = ea[3] * ea[3] + ea[4] * ea[4] + ea[5] * ea[5];
  // A's face normal, by a power of two brought near 1 when its magnitude (A's size squared) is
  // beyond 2^±250: its squared length is a 4th power of A's size and the in-plane axes' below
  // a 6th, which over- or underflowed at the sizes a pair spanning 2^480 and more is rescaled to
  // (issue 16: a unit mesh 4e200 below a 1e200 triangle, A's size 2^185 there: the in-plane axes'
  // squares overflowed, were skipped, and the face normal's overlap 0 called the pair touching).
  // Exact, and the axes normalised are the same bits; 1 for every other triangle.
  const mn = Math.max(Math.abs(an[0]), Math.abs(an[1]), Math.abs(an[2]));
  const kn = mn > NORMAL_RANGE || (mn > 0 && mn < 1 / NORMAL_RANGE) ? unitScaleFactor(mn) : 1;
  const nx = an[0] * kn;
  const ny = an[1] * kn;
  const nz = an[2] * kn;
  axis[0] = nx;
  axis[1] = ny;
  axis[2] = nz;
  axisScale[0] = la2 * kn * (lb2 * kn);
  testAxis();
  // A has area when its face normal was an axis; else it is a segment or a point (or a sliver).
  const aHasArea = sat[5] === 1;
  // B's face normals (unit).
  for (let f = 0; f < bfCount; f++) {
    axis[0] = bn[3 * f];
    axis[1] = bn[3 * f + 1];
    axis[2] = bn[3 * f + 2];
    axisScale[0] = 1;
    testAxis();
  }
  // Edge × edge.
  for (let i = 0; i < 3; i++) {
    const ex = ea[3 * i];
    const ey = ea[3 * i + 1];
    const ez = ea[3 * i + 2];
    const le2 = ex * ex + ey * ey + ez * ez;
    for (let j = 0; j < bdCount; j++) {
      const dx = bd[3 * j];
      const dy = bd[3 * j + 1];
      const dz = bd[3 * j + 2];
      axis[0] = ey * dz - ez * dy;
      axis[1] = ez * dx - ex * dz;
      axis[2] = ex * dy - ey * dx;
      axisScale[0] = le2 * (dx * dx + dy * dy + dz * dz);
      testAxis();
    }
    // In A's plane, perpendicular to the edge (coplanar pairs).
    axis[0] = ny * ez - nz * ey;
    axis[1] = nz * ex - nx * ez;
    axis[2] = nx * ey - ny * ex;
    axisScale[0] = le2 * (nx * nx + ny * ny + nz * nz);
    testAxis();
    if (!aHasArea && bFlat) {
      // A segment in a flat B's plane: the in-plane normal of the segment is a face of the
      // Minkowski difference that A's own plane (it has none) cannot give.
      axis[0] = bn[1] * ez - bn[2] * ey;
      axis[1] = bn[2] * ex - bn[0] * ez;
      axis[2] = bn[0] * ey - bn[1] * ex;
      axisScale[0] = le2;
      testAxis();
    }
  }
  if (bFlat) {
    // In B's plane, perpendicular to its edges.
    const nx = bn[0];
    const ny = bn[1];
    const nz = bn[2];
    for (let j = 0; j < bEdges.length; j += 2) {
      const p = 3 * bEdges[j];
      const q = 3 * bEdges[j + 1];
      const dx = bv[q] - bv[p];
      const dy = bv[q + 1] - bv[p + 1];
      const dz = bv[q + 2] - bv[p + 2];
      axis[0] = ny * dz - nz * dy;
      axis[1] = nz * dx - nx * dz;
      axis[2] = nx * dy - ny * dx;
      axisScale[0] = dx * dx + dy * dy + dz * dz;
      testAxis();
    }
    // Two segments or points (A without area, B a triangle without a face normal): the axes
    // above miss the directions in their common plane, so the exact closest features decide.
    if (!aHasArea && bn[0] === 0 && bn[1] === 0 && bn[2] === 0) segmentsSat();
  }
}

/** [0..2] the longest edge of A, [3..5] of B (for {@link segmentsSat}). */
const longest = new Float64Array(6);

/** The longest of the `count` edge vectors packed at `src` into `longest` at `o`. */
function longestEdge(src: Float64Array, count: number, o: number): void {
  let b = -1;
  longest[o] = 0;
  longest[o + 1] = 0;
  longest[o + 2] = 0;
  for (let k = 0; k < 3 * count; k += 3) {
    const l2 = src[k] * src[k] + src[k + 1] * src[k + 1] + src[k + 2] * src[k + 2];
    if (l2 > b) {
      b = l2;
      longest[o] = src[k];
      longest[o + 1] = src[k + 1];
      longest[o + 2] = src[k + 2];
    }
  }
}

/**
 * The SAT's answer for two segments or points (A and B triangles without area) from their exact
 * closest points: the overlap −gap, along the direction from A's closest point to B's when apart;
 * at a touch along a direction normal to both (their common plane's normal when they cross,
 * else normal to the longer one), along which the overlap is 0.
 */
function segmentsSat(): void {
  closestFeatures();
  bestGap();
  sat[5] = 1;
  sat[0] = -gap[0];
  if (gap[0] > 0) {
    sat[1] = best[4] - best[1];
    sat[2] = best[5] - best[2];
    sat[3] = best[6] - best[3];
    normalizeAt(sat, 1);
    return;
  }
  longestEdge(ea, 3, 0);
  longestEdge(bd, bdCount, 3);
  const ax = longest[0];
  const ay = longest[1];
  const az = longest[2];
  const bx = longest[3];
  const by = longest[4];
  const bz = longest[5];
  const la = ax * ax + ay * ay + az * az;
  const lb = bx * bx + by * by + bz * bz;
  let nx = ay * bz - az * by;
  let ny = az * bx - ax * bz;
  let nz = ax * by - ay * bx;
  if (!(nx * nx + ny * ny + nz * nz > PARALLEL * PARALLEL * la * lb)) {
    // Parallel, or a point: normal to the longer direction (any normal for two points).
    const dx = la >= lb ? ax : bx;
    const dy = la >= lb ? ay : by;
    const dz = la >= lb ? az : bz;
    const mx = Math.abs(dx);
    const my = Math.abs(dy);
    const mz = Math.abs(dz);
    // d × e, e the coordinate axis along which d is shortest.
    if (mx <= my && mx <= mz) {
      nx = 0;
      ny = dz;
      nz = -dy;
    } else if (my <= mz) {
      nx = -dz;
      ny = 0;
      nz = dx;
    } else {
      nx = dy;
      ny = -dx;
      nz = 0;
    }
    if (nx === 0 && ny === 0 && nz === 0) nz = 1;
  }
  sat[1] = nx;
  sat[2] = ny;
  sat[3] = nz;
  normalizeAt(sat, 1);
}

/** True when the SAT's least overlap is a touch or an overlap (within the frame's rounding). */
function satTouching(): boolean {
  return sat[5] === 1 && sat[0] >= -TOUCH_ULPS * EPS * frame[0];
}

/** B's corners in A's frame (a triangle B), for {@link meetsExactly}. */
const tb0 = vec3.create();
const tb1 = vec3.create();
const tb2 = vec3.create();
/**
 * [0] 1 when the last {@link touching} decided exactly (two triangles whose coordinates are
 * within `exactRange`), so that its "apart" is a proof: a gap that rounds to 0 is then reported
 * as the least positive double, not as a touch.
 */
const exactIo = new Int32Array(1);

/**
 * Whether triangle `a` and `b` (B at `bInA`, A's frame) touch or overlap: for two triangles,
 * exactly on A's corners and B's moved into A's frame (issue 16: box meshes 4.5e-13 apart were
 * touching for the pad of the SAT; Möller's test of the mesh pairs, mesh-mesh.ts, takes the
 * same predicate), else the SAT's overlap within the frame's rounding (the SAT already run).
 * `satRun`: the SAT has run on this pair (not the stale registers of an earlier one), so that a
 * clear gap by it ({@link satClearlyApart}) may answer "apart" before the exact test.
 */
function touching(a: Triangle, b: TrianglePolytopeOther, bInA: Isometry, satRun: boolean): boolean {
  exactIo[0] = 0;
  if (b.type !== ShapeType.Triangle) return satTouching();
  iso.transformPoint(tb0, bInA, b.a);
  iso.transformPoint(tb1, bInA, b.b);
  iso.transformPoint(tb2, bInA, b.c);
  if (
    !exactRange(a.a) ||
    !exactRange(a.b) ||
    !exactRange(a.c) ||
    !exactRange(tb0) ||
    !exactRange(tb1) ||
    !exactRange(tb2)
  )
    return satTouching();
  exactIo[0] = 1;
  if (satRun && satClearlyApart(a, b, bInA)) return false;
  return trianglesMeet(a.a, a.b, a.c, tb0, tb1, tb2);
}

/**
 * A SAT gap beyond this fraction of the pair's magnitude ({@link satClearlyApart}) proves two
 * triangles apart: 2^-30, far above the rounding of the SAT's projections and of B's corners
 * moved into A's frame (a few ulps of that magnitude).
 */
const CLEAR_GAP = 2 ** -30;

/**
 * True when the SAT already run on the loaded pair found a separating axis along which triangles
 * `a` and `b` (B at `bInA`, A's frame) are apart by more than {@link CLEAR_GAP} of the pair's
 * magnitude (the largest of A's and B's corners' coordinates and B's offset, each pair in its own
 * frame, and the local frame's): the exact test (`trianglesMeet`, two orient3d expansions per
 * edge and face) would answer "apart" too, so {@link touching} skips it — most of a mesh's
 * triangles near a capsule are apart (session 41: the capsule–triangle pairs' exact route spent
 * about half its time in those predicates). A boolean; reads the SAT's registers.
 */
function satClearlyApart(a: Triangle, b: Triangle, bInA: Isometry): boolean {
  if (sat[5] !== 1) return false;
  writePairMagnitude(clearIo, a, b, bInA);
  return -sat[0] > CLEAR_GAP * Math.max(frame[0], clearIo[0]);
}

/** [0] the pair's magnitude read by {@link satClearlyApart}. */
const clearIo = new Float64Array(1);

/**
 * io[0] = the magnitude of triangles `a` and `b` (B at `bInA`, A's frame): the largest absolute
 * coordinate of A's corners, B's corners and B's offset, each in its own frame (scene units). A
 * segment passes as a triangle whose last two corners coincide. Written, not returned (a
 * returned double is boxed where the call is not inlined): the scale of the "clearly apart" bars
 * of {@link satClearlyApart} and capsule-polytope.ts's `rejectGap`.
 */
export function writePairMagnitude(
  io: Float64Array,
  a: Triangle,
  b: Triangle,
  bInA: Isometry,
): void {
  const t = bInA.translation;
  io[0] = Math.max(
    Math.abs(t.x),
    Math.abs(t.y),
    Math.abs(t.z),
    Math.abs(a.a.x),
    Math.abs(a.a.y),
    Math.abs(a.a.z),
    Math.abs(a.b.x),
    Math.abs(a.b.y),
    Math.abs(a.b.z),
    Math.abs(a.c.x),
    Math.abs(a.c.y),
    Math.abs(a.c.z),
    Math.abs(b.a.x),
    Math.abs(b.a.y),
    Math.abs(b.a.z),
    Math.abs(b.b.x),
    Math.abs(b.b.y),
    Math.abs(b.b.z),
    Math.abs(b.c.x),
    Math.abs(b.c.y),
    Math.abs(b.c.z),
  );
}

// ---------------------------------------------------------------------------------------------
// Closest features
// ---------------------------------------------------------------------------------------------

/** [0] squared distance of the best pair, [1..3] its point on A, [4..6] its point on B (local). */
const best = new Float64Array(7);
const s1 = vec3.create();
const s2 = vec3.create();
const s3 = vec3.create();
const s4 = vec3.create();
const c1 = vec3.create();
const c2 = vec3.create();
const params: SegmentParameters = { s: 0, t: 0 };
/** [0..2] a point projected onto a face plane, [3] its squared distance (for {@link offer}). */
const q = new Float64Array(4);

/**
 * True when point q (on the plane of the face) lies in the convex polygon `verts[offsets[f] ..
 * offsets[f + 1]]` of `pts` with unit normal `n` at `no`: every edge sees it on one side.
 */
function insideFace(
  pts: Float64Array,
  verts: Uint32Array,
  start: number,
  end: number,
  n: Float64Array,
  no: number,
): boolean {
  let pos = false;
  let neg = false;
  const qx = q[0];
  const qy = q[1];
  const qz = q[2];
  for (let k = start; k < end; k++) {
    const p = 3 * verts[k];
    const r = 3 * verts[k + 1 < end ? k + 1 : start];
    const ex = pts[r] - pts[p];
    const ey = pts[r + 1] - pts[p + 1];
    const ez = pts[r + 2] - pts[p + 2];
    const rx = qx - pts[p];
    const ry = qy - pts[p + 1];
    const rz = qz - pts[p + 2];
    const s =
      (ey * rz - ez * ry) * n[no] +
      (ez * rx - ex * rz) * n[no + 1] +
      (ex * ry - ey * rx) * n[no + 2];
    if (s > 0) pos = true;
    else if (s < 0) neg = true;
    if (pos && neg) return false;
  }
  // No edge saw q on either side: the face has no extent to rounding (a unit box's face beside a
  // triangle of 1e16, its corners rounded together in the local frame; a face whose products
  // underflow), so q is not shown inside it; its edges and corners are offered as edge pairs.
  return pos || neg;
}

const A_FACE = new Uint32Array([0, 1, 2]);
const anUnit = new Float64Array(3);

/** Offers the pair (A point at `pa` of `ap`, B point `q`) with squared distance `d2` to `best`. */
function offer(ap: Float64Array, pa: number, aIsQ: boolean): void {
  const d2 = q[3];
  if (!(d2 < best[0])) return;
  best[0] = d2;
  bestEdge[0] = 0;
  if (aIsQ) {
    best[1] = q[0];
    best[2] = q[1];
    best[3] = q[2];
    best[4] = ap[pa];
    best[5] = ap[pa + 1];
    best[6] = ap[pa + 2];
  } else {
    best[1] = ap[pa];
    best[2] = ap[pa + 1];
    best[3] = ap[pa + 2];
    best[4] = q[0];
    best[5] = q[1];
    best[6] = q[2];
  }
}

/**
 * [0] 1 when `best` is a corner against an edge's interior (a vertex–edge pair: the one closest
 * pair whose direction is no face of the Minkowski difference, so no SAT axis), 2 when it is two
 * edges' interiors (their common perpendicular), else 0; [1..3] that edge's vector (A's edge for
 * two interiors), [4..6] B's edge, [7..9] A's edge's start and [10..12] B's, for two interiors
 * (local frame).
 */
const bestEdge = new Float64Array(13);

/**
 * The nearest corner against an edge's interior among the edge pairs, kept apart from `best`
 * (which a corner–corner pair a few ulps nearer can take): [0] its squared distance, [1..3] the
 * edge's vector, [4..6] its point on A, [7..9] its point on B (local frame). For
 * {@link gapNormal}.
 */
const tieEdge = new Float64Array(10);

/** The closest points of the loaded pair into `best` (local frame). */
function closestFeatures(): void {
  best[0] = Infinity;
  bestEdge[0] = 0;
  tieEdge[0] = Infinity;
  // A's corners against B's faces.
  for (let f = 0; f < bfCount; f++) {
    const nx = bn[3 * f];
    const ny = bn[3 * f + 1];
    const nz = bn[3 * f + 2];
    if ((nx === 0 && ny === 0 && nz === 0) || bFaceFlat[f] === 1) continue;
    const start = bFaceOffsets[f];
    const end = bFaceOffsets[f + 1];
    const v0 = 3 * bFaceVertices[start];
    const off = nx * bv[v0] + ny * bv[v0 + 1] + nz * bv[v0 + 2];
    for (let i = 0; i < 9; i += 3) {
      const h = nx * av[i] + ny * av[i + 1] + nz * av[i + 2] - off;
      if (!(h >= 0) || !(h * h < best[0])) continue;
      q[0] = av[i] - h * nx;
      q[1] = av[i + 1] - h * ny;
      q[2] = av[i + 2] - h * nz;
      if (insideFace(bv, bFaceVertices, start, end, bn, 3 * f)) {
        q[3] = h * h;
        offer(av, i, false);
      }
    }
  }
  // B's vertices against A's face, on either side.
  anUnit[0] = an[0];
  anUnit[1] = an[1];
  anUnit[2] = an[2];
  normalizeAt(anUnit, 0);
  const nx = anUnit[0];
  const ny = anUnit[1];
  const nz = anUnit[2];
  if (nx !== 0 || ny !== 0 || nz !== 0) {
    for (let i = 0; i < 3 * bvCount; i += 3) {
      const h = nx * bv[i] + ny * bv[i + 1] + nz * bv[i + 2];
      if (!(h * h < best[0])) continue;
      q[0] = bv[i] - h * nx;
      q[1] = bv[i + 1] - h * ny;
      q[2] = bv[i + 2] - h * nz;
      if (insideFace(av, A_FACE, 0, 3, anUnit, 0)) {
        q[3] = h * h;
        offer(bv, i, true);
      }
    }
  }
  // Edges against edges.
  visitEdgePairs(false, offerEdgePair);
  if (sliverPair[0] === 1) cornerEdgePairs();
}

/**
 * {@link closestFeatures}' corners against the other shape's edges, each by its clamped
 * projection, offered as edge pairs ({@link offerEdgePair}) — for a pair with a sliver triangle
 * ({@link sliverPair}). The edge pairs' closed form (Ericson 2005, §5.1.9) divides by
 * |d1|²|d2|² sin²θ, which cancels for edges θ apart to ε/θ² of itself: a capsule's segment lying
 * 1.5e-10 rad off a sliver's long edge (relative height 1.2e-8, issue 16) had its parameters
 * clamped to the wrong ends, the corner–corner pair 1.5e-10 farther than the segment's end over
 * the edge's inside taken. A corner's projection onto an edge is conditioned by the edge alone.
 */
function cornerEdgePairs(): void {
  for (let k = 0; k < 9; k += 3) {
    s1.x = av[k];
    s1.y = av[k + 1];
    s1.z = av[k + 2];
    vec3.copy(s2, s1);
    vec3.copy(c1, s1);
    for (let j = 0; j < bEdges.length; j += 2) {
      const u = 3 * bEdges[j];
      const w = 3 * bEdges[j + 1];
      s3.x = bv[u];
      s3.y = bv[u + 1];
      s3.z = bv[u + 2];
      s4.x = bv[w];
      s4.y = bv[w + 1];
      s4.z = bv[w + 2];
      projectOntoEdge(c2, c1, s3, s4);
      params.s = 0;
      offerEdgePair();
    }
  }
  for (let i = 0; i < 3 * bvCount; i += 3) {
    s3.x = bv[i];
    s3.y = bv[i + 1];
    s3.z = bv[i + 2];
    vec3.copy(s4, s3);
    vec3.copy(c2, s3);
    for (let k = 0; k < 3; k++) {
      const p = 3 * k;
      const r = 3 * ((k + 1) % 3);
      s1.x = av[p];
      s1.y = av[p + 1];
      s1.z = av[p + 2];
      s2.x = av[r];
      s2.y = av[r + 1];
      s2.z = av[r + 2];
      projectOntoEdge(c1, c2, s1, s2);
      params.s = params.t;
      params.t = 0;
      offerEdgePair();
    }
  }
}

/**
 * out = the point of segment pq nearest x (its projection clamped to the segment), params.t its
 * parameter (0 for a segment of no length). Local frame.
 */
function projectOntoEdge(out: Vec3, x: Vec3, p: Vec3, q: Vec3): void {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const dz = q.z - p.z;
  const dd = dx * dx + dy * dy + dz * dz;
  const w = (x.x - p.x) * dx + (x.y - p.y) * dy + (x.z - p.z) * dz;
  const t = dd > 0 ? (w > 0 ? Math.min(w / dd, 1) : 0) : 0;
  out.x = p.x + dx * t;
  out.y = p.y + dy * t;
  out.z = p.z + dz * t;
  params.t = t;
}

/**
 * Walks the loaded pair's edge pairs, each edge of the triangle A against each edge of B (local
 * frame), in that order: A's edge into s1 s2, B's into s3 s4, their closest points into c1 (on
 * A's) and c2 (on B's) with the parameters in `params` (Ericson 2005, §5.1.9), then `visit`, which
 * ends the walk by returning true. With `supporting`, only the edges whose two ends lie on their
 * shape's supporting plane along the SAT's normal ({@link onSupportingPlane}). True when a visit
 * ended it. The visits are module functions and read their inputs from scratch: nothing is
 * allocated and no double crosses the call.
 */
function visitEdgePairs(supporting: boolean, visit: () => boolean): boolean {
  for (let k = 0; k < 3; k++) {
    const p = 3 * k;
    const r = 3 * ((k + 1) % 3);
    if (supporting && (!onSupportingPlane(av, p) || !onSupportingPlane(av, r))) continue;
    s1.x = av[p];
    s1.y = av[p + 1];
    s1.z = av[p + 2];
    s2.x = av[r];
    s2.y = av[r + 1];
    s2.z = av[r + 2];
    for (let j = 0; j < bEdges.length; j += 2) {
      const u = 3 * bEdges[j];
      const w = 3 * bEdges[j + 1];
      if (supporting && (!onSupportingPlane(bv, u) || !onSupportingPlane(bv, w))) continue;
      s3.x = bv[u];
      s3.y = bv[u + 1];
      s3.z = bv[u + 2];
      s4.x = bv[w];
      s4.y = bv[w + 1];
      s4.z = bv[w + 2];
      closestPointsSegmentSegment(c1, c2, s1, s2, s3, s4, params);
      if (visit()) return true;
    }
  }
  return false;
}

/**
 * {@link closestFeatures}' visit: the edge pair's closest points c1 c2 kept in `best` when nearer
 * (squared distance), and in `bestEdge` whether it is a corner against the other edge's interior.
 * Never ends the walk.
 */
function offerEdgePair(): boolean {
  const dx = c2.x - c1.x;
  const dy = c2.y - c1.y;
  const dz = c2.z - c1.z;
  const d2 = dx * dx + dy * dy + dz * dz;
  // A corner (one parameter at an end) against the other edge's interior.
  const sIn = params.s > 0 && params.s < 1;
  const tIn = params.t > 0 && params.t < 1;
  if (sIn !== tIn && d2 < tieEdge[0]) {
    tieEdge[0] = d2;
    tieEdge[1] = sIn ? s2.x - s1.x : s4.x - s3.x;
    tieEdge[2] = sIn ? s2.y - s1.y : s4.y - s3.y;
    tieEdge[3] = sIn ? s2.z - s1.z : s4.z - s3.z;
    tieEdge[4] = c1.x;
    tieEdge[5] = c1.y;
    tieEdge[6] = c1.z;
    tieEdge[7] = c2.x;
    tieEdge[8] = c2.y;
    tieEdge[9] = c2.z;
  }
  if (!(d2 < best[0])) return false;
  best[0] = d2;
  bestEdge[0] = sIn !== tIn ? 1 : sIn ? 2 : 0;
  bestEdge[1] = sIn ? s2.x - s1.x : s4.x - s3.x;
  bestEdge[2] = sIn ? s2.y - s1.y : s4.y - s3.y;
  bestEdge[3] = sIn ? s2.z - s1.z : s4.z - s3.z;
  bestEdge[4] = s4.x - s3.x;
  bestEdge[5] = s4.y - s3.y;
  bestEdge[6] = s4.z - s3.z;
  bestEdge[7] = s1.x;
  bestEdge[8] = s1.y;
  bestEdge[9] = s1.z;
  bestEdge[10] = s3.x;
  bestEdge[11] = s3.y;
  bestEdge[12] = s3.z;
  edgePairIntoBest();
  return false;
}

/** [0] |pB − pA| of `best` (overflow-safe). */
const gap = new Float64Array(1);
function bestGap(): void {
  const dx = best[4] - best[1];
  const dy = best[5] - best[2];
  const dz = best[6] - best[3];
  const s = dx * dx + dy * dy + dz * dz;
  if (s > 1e-280 && s < 1e280) {
    gap[0] = Math.sqrt(s);
    return;
  }
  const m = Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz));
  if (m === 0) {
    gap[0] = 0;
    return;
  }
  const u = dx / m;
  const v = dy / m;
  const w = dz / m;
  gap[0] = m * Math.sqrt(u * u + v * v + w * w);
}

/** [0] the loaded pair's separation along unit `axis` (B's least extent minus A's greatest). */
const sepIo = new Float64Array(1);
function separationAlong(): void {
  supportingPlanes(axis, 0);
  sepIo[0] = supportIo[1] - supportIo[0];
}

/**
 * [0] A's greatest extent along the last {@link supportingPlanes} direction, [1] B's least (the
 * offsets of their supporting planes facing each other), [2] the tolerance of a supporting
 * feature (for {@link supportingWitnesses}, {@link onSupportingPlane}).
 */
const supportIo = new Float64Array(3);

/**
 * The supporting planes of the loaded pair along the unit direction `u[o..o+2]` (local frame,
 * A toward B) into `supportIo`: [0] the greatest of A's corners' extents along it, [1] the least
 * of B's.
 */
function supportingPlanes(u: Float64Array, o: number): void {
  const ux = u[o];
  const uy = u[o + 1];
  const uz = u[o + 2];
  let maxA = -Infinity;
  for (let i = 0; i < 9; i += 3) {
    const d = av[i] * ux + av[i + 1] * uy + av[i + 2] * uz;
    if (d > maxA) maxA = d;
  }
  let minB = Infinity;
  for (let i = 0; i < 3 * bvCount; i += 3) {
    const d = bv[i] * ux + bv[i + 1] * uy + bv[i + 2] * uz;
    if (d < minB) minB = d;
  }
  supportIo[0] = maxA;
  supportIo[1] = minB;
}

/** The best normal so far (unit, local frame) and its separation, for {@link gapNormal}. */
const chosen = new Float64Array(4);

function keepIfBetter(): void {
  separationAlong();
  if (!(sepIo[0] > chosen[3])) return;
  chosen[0] = axis[0];
  chosen[1] = axis[1];
  chosen[2] = axis[2];
  chosen[3] = sepIo[0];
}

/**
 * The unit normal of a gap `gap[0]` > 0 between the closest points `best` into `axis`: their
 * direction (pB − pA)/|pB − pA|, unless the separation of the pair along it falls short of the
 * gap by more than the frame's rounding. That direction carries the rounding of the points'
 * coordinates, ε times the frame over the gap, a tilt that a long edge turns into an overlap
 * (issue 16: a box 4.9e-6 from the edge of a triangle of 1e6, the normal 4e-5 off and the pair
 * overlapping by 49 along it). Then the normal is the best by separation of that direction, the
 * SAT's best axis (a face normal or an edge pair's cross product: the exact normal of a
 * vertex–face or edge–edge pair, and of every pair near one), by the separation measured along it
 * (two segments' `segmentsSat` records their closest points' direction with the gap for its
 * separation: issue 16, a capsule over a needle triangle, the normal kept 3.1e-13 short), for a
 * corner against an edge the direction made perpendicular to the edge (the difference less its
 * part along the edge, so the edge's far end is no nearer along it), and for two edges' insides
 * their common perpendicular with their points on it ({@link edgesCross},
 * {@link edgesCrossWitnesses}); then the tied pairs ({@link tiedEdgePair}). A normal kept other
 * than the witnesses' own direction has them faced along it by the gap.
 */
function gapNormal(): void {
  axis[0] = best[4] - best[1];
  axis[1] = best[5] - best[2];
  axis[2] = best[6] - best[3];
  normalizeAt(axis, 0);
  own[0] = axis[0];
  own[1] = axis[1];
  own[2] = axis[2];
  const tol = TOUCH_ULPS * EPS * frame[0];
  separationAlong();
  if (sepIo[0] >= gap[0] - tol) return;
  chosen[0] = axis[0];
  chosen[1] = axis[1];
  chosen[2] = axis[2];
  chosen[3] = sepIo[0];
  if (bestEdge[0] === 1 && cornerEdgeFirst()) return;
  if (sat[5] === 1) {
    // The SAT's axis by its separation measured here: two segments' `segmentsSat` records the
    // gap as its overlap, not the separation along its rounded direction (issue 16, below).
    axis[0] = sat[1];
    axis[1] = sat[2];
    axis[2] = sat[3];
    keepIfBetter();
  }
  if (bestEdge[0] === 1) {
    axis[0] = best[4] - best[1];
    axis[1] = best[5] - best[2];
    axis[2] = best[6] - best[3];
    if (axisOffEdge(bestEdge)) keepIfBetter();
  } else if (bestEdge[0] === 2) {
    // Two edges' interiors: their common perpendicular, and their closest points on it (those of
    // the closed form slide along the edges by ε/θ² of the frame, θ the angle between them).
    for (let k = 0; k < 6; k++) crossIo[k] = bestEdge[k + 1];
    crossIo[6] = best[4] - best[1];
    crossIo[7] = best[5] - best[2];
    crossIo[8] = best[6] - best[3];
    for (let k = 9; k < 15; k++) crossIo[k] = bestEdge[k - 2];
    if (edgesCross()) {
      keepIfBetter();
      edgesCrossWitnesses();
    }
  } else if (Math.sqrt(tieEdge[0]) - gap[0] <= tol) tiedCornerEdge();
  // Still short, or two interiors whose normal any of the tied pairs' crosses may beat.
  if (chosen[3] < gap[0] - tol || bestEdge[0] === 2) {
    tieIo[0] = gap[0] + tol;
    tieIo[1] = gap[0] - tol;
    visitEdgePairs(false, tiedEdgePair);
  }
  axis[0] = chosen[0];
  axis[1] = chosen[1];
  axis[2] = chosen[2];
  if (chosen[0] === sat[1] && chosen[1] === sat[2] && chosen[2] === sat[3]) {
    gapFacingWitnesses();
    if (witnessesFace() || !tiedFacingPair()) return;
  }
  if (chosen[0] !== own[0] || chosen[1] !== own[1] || chosen[2] !== own[2]) gapFacingChosen();
}

/**
 * True when `best`'s witnesses face along the unit `axis`: pB − pA less its part along it within
 * {@link FACING_ULPS} of the frame.
 */
function witnessesFace(): boolean {
  const dx = best[4] - best[1];
  const dy = best[5] - best[2];
  const dz = best[6] - best[3];
  const t = dx * axis[0] + dy * axis[1] + dz * axis[2];
  const lx = dx - t * axis[0];
  const ly = dy - t * axis[1];
  const lz = dz - t * axis[2];
  const tol = FACING_ULPS * EPS * frame[0];
  return lx * lx + ly * ly + lz * lz <= tol * tol;
}

/**
 * {@link gapNormal}'s SAT axis kept at the gap (within `tol` = TOUCH_ULPS·ε of the frame, its
 * rounding; computed here, not passed: a double crossing a call is boxed) whose
 * witnesses do not face along it: the tied edge pairs ({@link tiedEdgePair}) walked for one whose
 * own normal — a corner's perpendicular to the edge whose inside it meets, or two insides' common
 * perpendicular — reaches the gap within `tol` as well; true with it in `chosen` and its points in
 * `best`, else false with both kept. A separating axis that ties with the closest features'
 * normal need not have facing features: a capsule's segment perpendicular to a triangle's edge,
 * level with its end e beside it, has the segment × edge axis, the lines' common perpendicular,
 * short of the end's gap g only by x²/(2g) for the lines' closest point x beyond the end (issue
 * 16, seed 100's segment corner: 2.1e-14 beyond at g = 5.5e-9, the axis 4e-20 short, its
 * witnesses 2.1e-14 apart across it), and an end over a triangle's corner ties with both edges
 * there, the nearer in doubles the one whose perpendicular falls short.
 */
function tiedFacingPair(): boolean {
  const tol = TOUCH_ULPS * EPS * frame[0];
  for (let k = 0; k < 4; k++) satKept[k] = chosen[k];
  chosen[3] = gap[0] - tol;
  tieIo[0] = gap[0] + tol;
  tieIo[1] = gap[0] - tol;
  visitEdgePairs(false, tiedEdgePair);
  if (chosen[3] > gap[0] - tol) return true;
  for (let k = 0; k < 4; k++) chosen[k] = satKept[k];
  return false;
}

/**
 * {@link gapNormal} for a closest pair that is a corner against an edge's inside: their direction
 * made perpendicular to the edge ({@link axisOffEdge}) kept, with the witnesses faced along it,
 * when the pair's separation along it reaches the gap within `tol` (TOUCH_ULPS·ε of the frame,
 * its rounding; computed here, not passed: a double crossing a call is boxed); true
 * then. Tried before the SAT's axis, which can tie with it while its witnesses do not face: at a
 * sliver the in-plane normal of the sliver's edge, 5.2e-9 rad off the perpendicular from a
 * capsule's segment end 1e-3 away across the edge's plane, reached the gap as nearly and was kept
 * (issue 16, 5.2e-12 apart across the normal); for any triangle a capsule's segment perpendicular
 * to a triangle's edge and level with its end, whose segment × edge axis is the lines' common
 * perpendicular, meeting the segment's line x beyond the end and so short of the gap g by only
 * x²/(2g) (issue 16, seed-100-segment-corner: x = 2.1e-14 at g = 5.5e-9, the axis 4e-20 short,
 * both separations 5.5282746366791535e-9 in doubles; the witnesses, the end and its foot, 2.1e-14
 * apart across the axis). Sliver pairs only until session 41.
 */
function cornerEdgeFirst(): boolean {
  const tol = TOUCH_ULPS * EPS * frame[0];
  axis[0] = best[4] - best[1];
  axis[1] = best[5] - best[2];
  axis[2] = best[6] - best[3];
  if (!axisOffEdge(bestEdge)) return false;
  separationAlong();
  if (!(sepIo[0] >= gap[0] - tol)) return false;
  if (axis[0] !== own[0] || axis[1] !== own[1] || axis[2] !== own[2]) gapFacingChosen();
  return true;
}

/** The witnesses' own direction (pB − pA)/|pB − pA| in {@link gapNormal}. */
const own = new Float64Array(3);
/** The SAT's answer kept aside while {@link gapFacingChosen} borrows its normal. */
const satKept = new Float64Array(4);

/**
 * {@link gapNormal}'s witnesses made to face along the chosen normal `axis` when it is neither
 * their own direction nor the SAT's axis (a perpendicular of a corner and an edge, two edges'
 * common perpendicular): pB − pA = gap·n, by {@link facingWitnesses} with that normal and the
 * depth −gap. Two edges crossing at a small angle θ have their closest points ε/θ of the frame
 * off along them (issue 16: 7.5e-14 apart across the exact common perpendicular, at 2^-9 rad).
 */
function gapFacingChosen(): void {
  for (let k = 0; k < 4; k++) satKept[k] = sat[k];
  sat[1] = axis[0];
  sat[2] = axis[1];
  sat[3] = axis[2];
  facingIo[0] = -gap[0];
  facingWitnesses();
  for (let k = 0; k < 4; k++) sat[k] = satKept[k];
}

/**
 * {@link gapNormal}'s witnesses when the normal kept is the SAT's axis, not their own direction:
 * made to face along it, pB − pA = g·n for the gap g the contact reports (as
 * {@link facingWitnesses} does for a penetration, with the depth −g; the separation along the
 * axis had been taken, up to the frame's rounding below g, which moved a witness that far off its
 * shape: issue 16, a capsule's segment crossing a needle 2^-6 rad off). The closest pair is
 * ranked by squared distances, whose rounding (ε·gap·frame) hides a sideways offset δ of
 * δ² below it: a corner whose projection falls inside a face δ from its edge ties with its
 * foot on the edge, and the edge's rounded distance may come out nearer, so the witnesses were
 * the edge's point while the normal was the face's (issue 16, seed 85: a triangle of 1e-4 at the
 * centre of a box mesh of 5e4, its corner 2.4e-5 from the face's diagonal, 13417 away: the
 * witnesses 2.4e-5 apart across the normal). Kept as they are when already facing or when no
 * supporting feature faces.
 */
function gapFacingWitnesses(): void {
  facingIo[0] = -gap[0];
  facingWitnesses();
}

/**
 * `axis` made perpendicular to the edge direction at edge[1..3] and unit: its part along the edge
 * taken off twice (the second pass removes what the first one's rounding left along it). False,
 * `axis` unchanged, for an edge of zero or infinite squared length, and for an axis along the
 * edge: what is left across it (within {@link OFF_EDGE_ULPS} ulps of the axis) is rounding, no
 * direction — two witnesses 2e-17 apart along a box mesh's edge had left a zero normal (issue
 * 16, fuzz seed 112).
 */
function axisOffEdge(edge: Float64Array): boolean {
  const ex = edge[1];
  const ey = edge[2];
  const ez = edge[3];
  const ee = ex * ex + ey * ey + ez * ez;
  if (!(ee > 0 && ee < Infinity)) return false;
  const ax = axis[0];
  const ay = axis[1];
  const az = axis[2];
  const aa = ax * ax + ay * ay + az * az;
  for (let k = 0; k < 2; k++) {
    const t = (axis[0] * ex + axis[1] * ey + axis[2] * ez) / ee;
    axis[0] -= t * ex;
    axis[1] -= t * ey;
    axis[2] -= t * ez;
    const rr = axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2];
    if (k === 0 && !(rr > OFF_EDGE_ULPS * OFF_EDGE_ULPS * EPS * EPS * aa)) {
      axis[0] = ax;
      axis[1] = ay;
      axis[2] = az;
      return false;
    }
    normalizeAt(axis, 0);
  }
  return true;
}

/** {@link axisOffEdge}: an axis's part across an edge below this many ulps of it is rounding. */
const OFF_EDGE_ULPS = 16;

/**
 * Two edges for {@link edgesCross} and {@link edgesCrossWitnesses} (local frame): [0..2] A's edge
 * vector, [3..5] B's, [6..8] a direction that orients their cross (A toward B), [9..11] A's
 * edge's start, [12..14] B's.
 */
const crossIo = new Float64Array(15);

/**
 * `axis` = the unit cross product c = d1 × d2 of the edge vectors crossIo[0..2] × crossIo[3..5]
 * (local frame), turned to point along crossIo[6..8]: the common perpendicular of two edges whose
 * interiors are the closest pair. Each component a_i·b_j − a_j·b_i from Dekker's exact products
 * and Knuth's TwoSum (Shewchuk 1997, §2), a double-double in `dd` ({@link crossDD}), so that it
 * is accurate to its own rounding, not to ε|d1||d2|: in doubles two edges θ apart get a cross
 * ε/θ rad off, tilted along the edges, which the pair's far ends turn into a separation short of
 * the gap by ε/θ of their length (issue 16: a capsule's segment crossing a needle triangle's long
 * edge at 2^-9 rad, 1e-3 from it, the closest points' direction 2.9e-13 rad off and 3.1e-13 short
 * of the depth along it over a bar of 1.3e-14). The edge vectors' own rounding (ε of their
 * length) turns the exact cross only about an axis in the edges' plane across them, which moves
 * the pair's extents by ε of their length. False, `axis` unchanged, when the cross is zero or not
 * finite.
 */
function edgesCross(): boolean {
  for (let k = 0; k < 6; k++) dd[k] = crossIo[k];
  crossDD(0, 3, 9, 12);
  const x = dd[9] + dd[12];
  const y = dd[10] + dd[13];
  const z = dd[11] + dd[14];
  if (!(x * x + y * y + z * z > 0) || !Number.isFinite(x + y + z)) return false;
  const s = x * crossIo[6] + y * crossIo[7] + z * crossIo[8] < 0 ? -1 : 1;
  axis[0] = s * x;
  axis[1] = s * y;
  axis[2] = s * z;
  normalizeAt(axis, 0);
  return true;
}

/**
 * `best`'s witnesses = the points of the two edges of `crossIo` (two interiors) where their
 * common perpendicular c = d1 × d2 ({@link edgesCross}, its double-double in `dd`) meets them:
 * with w the vector between the edges' starts, s = w·(d2 × c)/|c|² along A's and
 * t = w·(d1 × c)/|c|² along B's (the lines' closest points, Ericson 2005, §5.1.8, by the scalar
 * triple product), each clamped to its edge. The triple products are summed from exact products
 * ({@link tripleDD}), so s and t are those of the rounded w, d1 and d2 to their own rounding: in
 * doubles their error is ε|w|/θ of the edges for edges θ apart, and the closed form of
 * closestPointsSegmentSegment, dividing by |d1|²|d2|² − (d1·d2)², ε/θ² (5e-11 at 2^-9 rad:
 * witnesses 7.5e-14 apart across the common perpendicular, over the fuzzer's bar of 1.3e-14).
 */
function edgesCrossWitnesses(): void {
  dd[6] = crossIo[12] - crossIo[9];
  dd[7] = crossIo[13] - crossIo[10];
  dd[8] = crossIo[14] - crossIo[11];
  let cc = 0;
  for (let k = 9; k < 12; k++) cc += dd[k] * dd[k] + 2 * dd[k] * dd[k + 3];
  tripleDD(3);
  let s = dd[23] / cc;
  tripleDD(0);
  let t = dd[23] / cc;
  if (!(s >= 0)) s = 0;
  else if (s > 1) s = 1;
  if (!(t >= 0)) t = 0;
  else if (t > 1) t = 1;
  best[1] = crossIo[9] + s * crossIo[0];
  best[2] = crossIo[10] + s * crossIo[1];
  best[3] = crossIo[11] + s * crossIo[2];
  best[4] = crossIo[12] + t * crossIo[3];
  best[5] = crossIo[13] + t * crossIo[4];
  best[6] = crossIo[14] + t * crossIo[5];
}

/**
 * Double-double registers of {@link edgesCross} and {@link edgesCrossWitnesses}: [0..2] d1,
 * [3..5] d2, [6..8] w, [9..11] c = d1 × d2's high parts and [12..14] its low parts, [15..17] and
 * [18..20] a cross v × c's ({@link tripleDD}), [21] [22] {@link diffOfProducts}' high and low
 * parts, [23] {@link tripleDD}'s sum.
 */
const dd = new Float64Array(24);

/**
 * dd[21] + dd[22] = dd[x1]·dd[y1] − dd[x2]·dd[y2] to ε² of the products: each product exact
 * (Veltkamp's split, Dekker's TwoProduct), their difference by TwoSum (Shewchuk 1997, §2).
 */
function diffOfProducts(x1: number, y1: number, x2: number, y2: number): void {
  const a1 = dd[x1];
  const b1 = dd[y1];
  const a2 = dd[x2];
  const b2 = dd[y2];
  const p = a1 * b1;
  let c = SPLIT * a1;
  const a1h = c - (c - a1);
  const a1l = a1 - a1h;
  c = SPLIT * b1;
  const b1h = c - (c - b1);
  const b1l = b1 - b1h;
  const pe = a1l * b1l - (p - a1h * b1h - a1l * b1h - a1h * b1l);
  const q = a2 * b2;
  c = SPLIT * a2;
  const a2h = c - (c - a2);
  const a2l = a2 - a2h;
  c = SPLIT * b2;
  const b2h = c - (c - b2);
  const b2l = b2 - b2h;
  const qe = a2l * b2l - (q - a2h * b2h - a2l * b2h - a2h * b2l);
  const h = p - q;
  const v = h - p;
  const he = p - (h - v) + (-q - v);
  dd[21] = h;
  dd[22] = he + (pe - qe);
}

/**
 * The cross product of the double vectors dd[a..a+2] × dd[b..b+2] as double-doubles: high parts
 * into dd[hi..hi+2], low parts into dd[lo..lo+2] ({@link diffOfProducts}).
 */
function crossDD(a: number, b: number, hi: number, lo: number): void {
  for (let k = 0; k < 3; k++) {
    const i = k === 2 ? 0 : k + 1;
    const j = k === 0 ? 2 : k - 1;
    diffOfProducts(a + i, b + j, a + j, b + i);
    dd[hi + k] = dd[21];
    dd[lo + k] = dd[22];
  }
}

/**
 * dd[23] = w·(v × c) for w = dd[6..8], v = dd[v..v+2] and c the double-double dd[9..14]: v × c's
 * high part from exact products ({@link crossDD}), the low part's term in doubles (ε of a term ε
 * of the whole), and the dot product with w summed from exact products by TwoSum (Ogita, Rump &
 * Oishi 2005, Dot2), so that the sum is accurate to its own rounding and ε² of its terms.
 */
function tripleDD(v: number): void {
  crossDD(v, 9, 15, 18);
  let sum = 0;
  let err = 0;
  for (let k = 0; k < 3; k++) {
    const i = k === 2 ? 0 : k + 1;
    const j = k === 0 ? 2 : k - 1;
    // v × c_lo, in doubles.
    const low = dd[18 + k] + (dd[v + i] * dd[12 + j] - dd[v + j] * dd[12 + i]);
    const a = dd[6 + k];
    const b = dd[15 + k];
    const p = a * b;
    let c = SPLIT * a;
    const ah = c - (c - a);
    const al = a - ah;
    c = SPLIT * b;
    const bh = c - (c - b);
    const bl = b - bh;
    const pe = al * bl - (p - ah * bh - al * bh - ah * bl);
    const t = sum + p;
    const z = t - sum;
    err += sum - (t - z) + (p - z) + pe + a * low;
    sum = t;
  }
  dd[23] = sum + err;
}

/**
 * {@link gapNormal}'s corner against an edge's interior that ties within the frame's rounding
 * with the nearest pair, two corners (issue 16: a capsule's cap 0.25 from a hull's corner and
 * from the hull's edge 5.7e-10 beside it, the distances equal in doubles, the corners' direction
 * 1.6e-9 rad off the edge's perpendicular and short of the gap by 9.8e-10 along it): that pair's
 * difference made perpendicular to its edge, kept with its points as the witnesses when it
 * separates the pair further than the chosen normal.
 */
function tiedCornerEdge(): void {
  axis[0] = tieEdge[7] - tieEdge[4];
  axis[1] = tieEdge[8] - tieEdge[5];
  axis[2] = tieEdge[9] - tieEdge[6];
  if (!axisOffEdge(tieEdge)) return;
  const before = chosen[3];
  keepIfBetter();
  if (!(chosen[3] > before)) return;
  for (let k = 1; k < 7; k++) best[k] = tieEdge[k + 3];
}

/** [0] the greatest distance of a tied pair, [1] the separation that ends the walk ({@link tiedEdgePair}). */
const tieIo = new Float64Array(2);
/** [1..3] the edge of the pair under {@link tiedEdgePair} (for {@link axisOffEdge}). */
const tieEdgeIo = new Float64Array(4);

/**
 * {@link gapNormal}'s last resort, a visit of {@link visitEdgePairs}: every edge pair within the
 * frame's rounding of the gap, not only the nearest corner against an edge (issue 16: a
 * segment triangle along a rounded box's core edge 2.8e-14 rad off parallel, its corner against
 * the box's edge and the box's corner against its short edge tied to 1e-21, the nearest in doubles
 * the latter, whose normal perpendicular to the segment falls short of the gap by 5e-14 along the
 * box's far corner; a capsule's end 2.2e-16 beside a box's corner along the box's edge, the
 * segments' closest points rounded onto the corner, the corners' direction 2.3e-13 rad off the
 * edge's perpendicular and 4.5e-13 short along the edge's far end): the pair's difference made
 * perpendicular to the edge whose interior it meets or, two corners, to either edge, or two
 * interiors their common perpendicular ({@link tiedEdgesCross}), kept with its points as the
 * witnesses when it separates the pair further than the chosen normal (any direction's separation
 * is a lower bound of the gap). Ends the walk once the separation meets the gap.
 */
function tiedEdgePair(): boolean {
  const sIn = params.s > 0 && params.s < 1;
  const tIn = params.t > 0 && params.t < 1;
  const dx = c2.x - c1.x;
  const dy = c2.y - c1.y;
  const dz = c2.z - c1.z;
  if (!(Math.sqrt(dx * dx + dy * dy + dz * dz) <= tieIo[0])) return false;
  if (sIn && tIn) return tiedEdgesCross();
  if (!tIn) {
    tieEdgeIo[1] = s2.x - s1.x;
    tieEdgeIo[2] = s2.y - s1.y;
    tieEdgeIo[3] = s2.z - s1.z;
    if (tiedAxisOffEdge()) return true;
  }
  if (!sIn) {
    tieEdgeIo[1] = s4.x - s3.x;
    tieEdgeIo[2] = s4.y - s3.y;
    tieEdgeIo[3] = s4.z - s3.z;
    if (tiedAxisOffEdge()) return true;
  }
  return false;
}

/**
 * {@link tiedEdgePair}'s two interiors: their common perpendicular ({@link edgesCross}), kept with
 * the edges' points on it as the witnesses when it separates the pair further than the chosen
 * normal (issue 16: a capsule's segment crossing a needle's two long edges, which meet at its
 * corner 1e-3 of their length away, 2^-8 rad off; the edge nearest in doubles by 3.9e-17 the
 * wrong one, its perpendicular 4e-14 short of the gap along the needle's third corner). True
 * once the chosen normal's separation meets the gap.
 */
function tiedEdgesCross(): boolean {
  crossIo[0] = s2.x - s1.x;
  crossIo[1] = s2.y - s1.y;
  crossIo[2] = s2.z - s1.z;
  crossIo[3] = s4.x - s3.x;
  crossIo[4] = s4.y - s3.y;
  crossIo[5] = s4.z - s3.z;
  crossIo[6] = c2.x - c1.x;
  crossIo[7] = c2.y - c1.y;
  crossIo[8] = c2.z - c1.z;
  crossIo[9] = s1.x;
  crossIo[10] = s1.y;
  crossIo[11] = s1.z;
  crossIo[12] = s3.x;
  crossIo[13] = s3.y;
  crossIo[14] = s3.z;
  if (!edgesCross()) return false;
  const before = chosen[3];
  keepIfBetter();
  if (!(chosen[3] > before)) return false;
  edgesCrossWitnesses();
  return chosen[3] >= tieIo[1];
}

/**
 * {@link tiedEdgePair}'s direction c2 − c1 made perpendicular to `tieEdgeIo`, kept (with c1 c2 as
 * the witnesses) when it separates the pair further than the chosen normal. True once the
 * chosen normal's separation meets the gap.
 */
function tiedAxisOffEdge(): boolean {
  axis[0] = c2.x - c1.x;
  axis[1] = c2.y - c1.y;
  axis[2] = c2.z - c1.z;
  if (!axisOffEdge(tieEdgeIo)) return false;
  const before = chosen[3];
  keepIfBetter();
  if (!(chosen[3] > before)) return false;
  best[1] = c1.x;
  best[2] = c1.y;
  best[3] = c1.z;
  best[4] = c2.x;
  best[5] = c2.y;
  best[6] = c2.z;
  return chosen[3] >= tieIo[1];
}

/**
 * The witnesses of the penetration found by the SAT (depth `sat[0]` ≥ 0 taken as at least 0,
 * normal `sat[1..3]`) into `best`: B moved by depth + clearance along the normal, the closest
 * points, B's moved back.
 *
 * The clearance is a fraction of the pair's shortest edge (at least {@link CLEARANCE_FLOOR_ULPS}
 * of the frame, at most a fraction of the frame). The closest points of the moved pair slide
 * sideways by the clearance times the angle between the normal and the pair's true normal
 * there, and an edge e long carries a direction error of up to ε·m/e, m its coordinates'
 * magnitude: B's vertices are rounded to the frame, and a small shape's corners given at a large
 * offset were rounded there, so the SAT's axes that a shape's intended geometry made equal (an
 * edge's cross product, the other's in-plane normal) tie at a touch while ε·m/e apart. A
 * clearance of the frame's size had put a box of 5e-3 touching the edge of a triangle of 3e5
 * with its witness 3.9e-7 beside the triangle's (issue 16, seed 16: a box mesh; the bar 4.5e-9),
 * a triangle of 1e-6 crossing the edge of one of 100 its witness 8e-11 beside (the bar 1.4e-12).
 */
function penetrationWitnesses(): void {
  const d = Math.max(sat[0], 0);
  // The shortest edge of A (its edge vectors `ea`, from runSat) and of B.
  let e2 = Infinity;
  for (let k = 0; k < 9; k += 3) {
    const l2 = ea[k] * ea[k] + ea[k + 1] * ea[k + 1] + ea[k + 2] * ea[k + 2];
    if (l2 > 0 && l2 < e2) e2 = l2;
  }
  for (let j = 0; j < bEdges.length; j += 2) {
    const p = 3 * bEdges[j];
    const r = 3 * bEdges[j + 1];
    const dx = bv[r] - bv[p];
    const dy = bv[r + 1] - bv[p + 1];
    const dz = bv[r + 2] - bv[p + 2];
    const l2 = dx * dx + dy * dy + dz * dz;
    if (l2 > 0 && l2 < e2) e2 = l2;
  }
  const f = frame[0];
  const c = CLEARANCE * Math.min(f, Math.sqrt(e2));
  const move = d + Math.max(c, CLEARANCE_FLOOR_ULPS * EPS * f);
  const nx = sat[1] * move;
  const ny = sat[2] * move;
  const nz = sat[3] * move;
  for (let i = 0; i < 3 * bvCount; i += 3) {
    bv[i] += nx;
    bv[i + 1] += ny;
    bv[i + 2] += nz;
  }
  closestFeatures();
  for (let i = 0; i < 3 * bvCount; i += 3) {
    bv[i] -= nx;
    bv[i + 1] -= ny;
    bv[i + 2] -= nz;
  }
  best[4] -= nx;
  best[5] -= ny;
  best[6] -= nz;
  facingIo[0] = d;
  facingWitnesses();
}

const facingP = vec3.create();
const facingQ = vec3.create();
const facingA = vec3.create();
const facingB = vec3.create();
const facingC = vec3.create();

/**
 * [0] the depth for {@link facingWitnesses}, [1] its tolerance for {@link onTriangle} and
 * {@link insideB}: read from here, not passed, so that no double is boxed across a call V8 keeps
 * out of line (the mesh bodies' steady step allocated 52 KB per step when they were arguments).
 */
const facingIo = new Float64Array(2);

/** Distance of a moved witness from its shape, in ulps of the local frame, taken for on it. */
const FACING_ULPS = 8;

/**
 * The penetration's witnesses made to face each other: pB − pA = −depth·n. The closest points of
 * B moved past its depth lie apart sideways where the moved pair's closest direction is not
 * quite the SAT's normal (at a touch many axes tie: a box's witness 3.6e-5 beside a triangle's
 * corner at 7e4, issue 16, session 24), and a flat feature's point can then be anywhere on it.
 * A's witness moved opposite B's is kept when it lies on the triangle, else B's opposite A's
 * when inside the polytope (within {@link FACING_ULPS} of the frame); both stay on their
 * supporting planes. When both miss, {@link supportingWitnesses}.
 */
function facingWitnesses(): void {
  const d = facingIo[0];
  const nx = sat[1];
  const ny = sat[2];
  const nz = sat[3];
  const dx = best[4] - best[1];
  const dy = best[5] - best[2];
  const dz = best[6] - best[3];
  const t = dx * nx + dy * ny + dz * nz;
  const tol = FACING_ULPS * EPS * frame[0];
  facingIo[1] = tol;
  const lx = dx - t * nx;
  const ly = dy - t * ny;
  const lz = dz - t * nz;
  if (!(Math.sqrt(lx * lx + ly * ly + lz * lz) > tol)) return;
  // A's witness opposite B's, on the triangle?
  facingP.x = best[4] + d * nx;
  facingP.y = best[5] + d * ny;
  facingP.z = best[6] + d * nz;
  if (onTriangle(av, 0, facingP)) {
    best[1] = facingP.x;
    best[2] = facingP.y;
    best[3] = facingP.z;
    return;
  }
  facingP.x = best[1] - d * nx;
  facingP.y = best[2] - d * ny;
  facingP.z = best[3] - d * nz;
  if (bvCount === 3 ? onTriangle(bv, 0, facingP) : insideB(facingP)) {
    best[4] = facingP.x;
    best[5] = facingP.y;
    best[6] = facingP.z;
    return;
  }
  supportingWitnesses();
}

/**
 * The witnesses from the features supporting the pair along the SAT's normal n, for when the
 * re-pairings of {@link facingWitnesses} miss (issue 16, seed 62: an aabb's edge crossing a
 * triangle's edge 1.2e-8 deep, the moved closest points the aabb's corner against the edge,
 * 2.3e-8 apart sideways; a hull's corner on a triangle's corner 2.2e-9 apart). The first that
 * faces: a corner of A on its supporting plane and the point −depth·n from it inside B; a corner
 * of B on its plane and the point +depth·n from it on A; the closest points of two edges on their
 * supporting planes (an edge × edge axis: the common perpendicular's feet, along n) whose
 * difference lies along n within the facing tolerance. Else `best` is kept.
 */
function supportingWitnesses(): void {
  const tol = facingIo[1];
  supportingPlanes(sat, 1);
  supportIo[2] = tol;
  if (supportingCornerFaces(av, 3)) return;
  if (supportingCornerFaces(bv, bvCount)) return;
  // Supporting edges against supporting edges.
  visitEdgePairs(true, facingEdgePair);
}

/** `best`'s witnesses = the visited edge pair's closest points, c1 on A and c2 on B (local frame). */
function edgePairIntoBest(): void {
  best[1] = c1.x;
  best[2] = c1.y;
  best[3] = c1.z;
  best[4] = c2.x;
  best[5] = c2.y;
  best[6] = c2.z;
}

/**
 * {@link supportingWitnesses}' visit: the edge pair's closest points c1 c2 taken as `best`'s
 * witnesses, ending the walk, when their difference lies along the SAT's normal within the
 * facing tolerance facingIo[1].
 */
function facingEdgePair(): boolean {
  const tol = facingIo[1];
  const nx = sat[1];
  const ny = sat[2];
  const nz = sat[3];
  const dx = c2.x - c1.x;
  const dy = c2.y - c1.y;
  const dz = c2.z - c1.z;
  const t = dx * nx + dy * ny + dz * nz;
  const lx = dx - t * nx;
  const ly = dy - t * ny;
  const lz = dz - t * nz;
  if (!(lx * lx + ly * ly + lz * lz <= tol * tol)) return false;
  edgePairIntoBest();
  return true;
}

/**
 * True when corner `i` (its x's index) of `v` — A's corners `av` or B's `bv` — lies on its
 * shape's supporting plane along the SAT's normal: within supportIo[2] of A's greatest extent
 * or of B's least ({@link supportingPlanes}).
 */
function onSupportingPlane(v: Float64Array, i: number): boolean {
  const h = v[i] * sat[1] + v[i + 1] * sat[2] + v[i + 2] * sat[3];
  return v === av ? h >= supportIo[0] - supportIo[2] : h <= supportIo[1] + supportIo[2];
}

/**
 * The first of the `count` corners of `v` (A's `av` or B's `bv`) on its supporting plane whose
 * point the depth facingIo[0] from it across the normal (−depth·n from A's, +depth·n from B's)
 * lies on the other shape: true with that corner and point as `best`'s witnesses, else false
 * with `best` kept.
 */
function supportingCornerFaces(v: Float64Array, count: number): boolean {
  const fromA = v === av;
  const s = fromA ? -facingIo[0] : facingIo[0];
  for (let i = 0; i < 3 * count; i += 3) {
    if (!onSupportingPlane(v, i)) continue;
    facingP.x = v[i] + s * sat[1];
    facingP.y = v[i + 1] + s * sat[2];
    facingP.z = v[i + 2] + s * sat[3];
    if (
      fromA
        ? !(bvCount === 3 ? onTriangle(bv, 0, facingP) : insideB(facingP))
        : !onTriangle(av, 0, facingP)
    )
      continue;
    const pa = fromA ? 1 : 4;
    const pb = fromA ? 4 : 1;
    best[pa] = v[i];
    best[pa + 1] = v[i + 1];
    best[pa + 2] = v[i + 2];
    best[pb] = facingP.x;
    best[pb + 1] = facingP.y;
    best[pb + 2] = facingP.z;
    return true;
  }
  return false;
}

/** True when p lies within facingIo[1] of the triangle of corners v[o..o+8]. */
function onTriangle(v: Float64Array, o: number, p: Vec3): boolean {
  const tol = facingIo[1];
  vec3.set(facingA, v[o], v[o + 1], v[o + 2]);
  vec3.set(facingB, v[o + 3], v[o + 4], v[o + 5]);
  vec3.set(facingC, v[o + 6], v[o + 7], v[o + 8]);
  closestPointOnTriangle(facingQ, p, facingA, facingB, facingC);
  const x = facingQ.x - p.x;
  const y = facingQ.y - p.y;
  const z = facingQ.z - p.z;
  return x * x + y * y + z * z <= tol * tol;
}

/** True when p lies within facingIo[1] inside every face plane of the polytope B (local frame). */
function insideB(p: Vec3): boolean {
  const tol = facingIo[1];
  for (let f = 0; f < bfCount; f++) {
    const v = 3 * bFaceVertices[bFaceOffsets[f]];
    const fx = bn[3 * f];
    const fy = bn[3 * f + 1];
    const fz = bn[3 * f + 2];
    const h = (p.x - bv[v]) * fx + (p.y - bv[v + 1]) * fy + (p.z - bv[v + 2]) * fz;
    if (h > tol * Math.sqrt(fx * fx + fy * fy + fz * fz)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The pair routines (triangle as A, B posed by `bInA` in A's frame)
// ---------------------------------------------------------------------------------------------

/** B's pose inverted (the swapped order of two triangles). */
const aInB: Isometry = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };

/**
 * True when two triangles are solved in the order (B, A) and flipped (issue 16: swapping A and B
 * must flip the answer exactly; at a shared corner many axes tie at overlap 0 and each order
 * took another): by the relative pose ({@link canonicalOrder}), and at a symmetric one (two
 * triangles given in one frame, as the queries pose them) by the corners' coordinates, the
 * lexicographically smaller triangle first. Loads the pair in the order chosen.
 */
function loadOrdered(a: Triangle, b: TrianglePolytopeOther, bInA: Isometry): boolean {
  let swap = false;
  if (b.type === ShapeType.Triangle) {
    const c = canonicalOrder(bInA);
    swap = c !== 0 ? c < 0 : triangleAfter(a, b);
  }
  if (!swap) {
    load(a, b, bInA);
    return false;
  }
  iso.invert(aInB, bInA);
  load(b as Triangle, a, aInB);
  return true;
}

/** True when triangle `a`'s corners come after `b`'s, lexicographically (a, b, c; x, y, z). */
function triangleAfter(a: Triangle, b: Triangle): boolean {
  const k = cmp(a.a, b.a) || cmp(a.b, b.b) || cmp(a.c, b.c);
  return k > 0;
}

function cmp(p: Vec3, r: Vec3): number {
  if (p.x !== r.x) return p.x > r.x ? 1 : -1;
  if (p.y !== r.y) return p.y > r.y ? 1 : -1;
  if (p.z !== r.z) return p.z > r.z ? 1 : -1;
  return 0;
}

/**
 * Writes `best`'s points (local frame) to the caller's frame and order. One branch per order, each
 * storing to `pa` and `pb` by name: stores through `swapped ? pb : pa` had lost the points' map
 * and boxed every coordinate (session 41: 37 KB a step in the capsule-and-solid-mesh world).
 */
function writePoints(pa: Vec3, pb: Vec3, swapped: boolean, bInA: Isometry): void {
  const ox = origin.x;
  const oy = origin.y;
  const oz = origin.z;
  if (!swapped) {
    pa.x = best[1] + ox;
    pa.y = best[2] + oy;
    pa.z = best[3] + oz;
    pb.x = best[4] + ox;
    pb.y = best[5] + oy;
    pb.z = best[6] + oz;
    return;
  }
  pb.x = best[1] + ox;
  pb.y = best[2] + oy;
  pb.z = best[3] + oz;
  pa.x = best[4] + ox;
  pa.y = best[5] + oy;
  pa.z = best[6] + oz;
  iso.transformPoint(pa, bInA, pa);
  iso.transformPoint(pb, bInA, pb);
}

/** Writes the loaded frame's unit normal `axis` to `n` in the caller's frame and order. */
function writeNormal(n: Vec3, swapped: boolean, bInA: Isometry): void {
  n.x = axis[0];
  n.y = axis[1];
  n.z = axis[2];
  if (swapped) {
    iso.transformVector(n, bInA, n);
    n.x = -n.x;
    n.y = -n.y;
    n.z = -n.z;
  }
}

/** True when triangle `a` and polytope `b` (B at `bInA`, A's frame) overlap or touch. */
export function intersectsTrianglePolytope(
  a: Triangle,
  b: TrianglePolytopeOther,
  bInA: Isometry,
): boolean {
  if (b.type === ShapeType.Triangle) {
    const t = touching(a, b, bInA, false);
    if (exactIo[0] === 1) return t;
  }
  loadOrdered(a, b, bInA);
  runSat();
  return satTouching();
}

/**
 * Closest points of triangle `a` and polytope `b` (A's frame): the distance (≥ 0) and the points
 * on A and on B; when they overlap or touch, distance 0 and the witnesses of the penetration
 * (on A and on B, spanning its depth along the least-overlap normal). Returns `out`.
 */
export function distanceTrianglePolytope(
  out: DistanceResult,
  a: Triangle,
  b: TrianglePolytopeOther,
  bInA: Isometry,
): DistanceResult {
  const swapped = loadOrdered(a, b, bInA);
  runSat();
  if (touching(a, b, bInA, true)) {
    penetrationWitnesses();
    out.distance = 0;
  } else {
    closestFeatures();
    bestGap();
    // Proven apart: a gap that rounds to 0 is still a gap.
    out.distance = gap[0] > 0 || exactIo[0] === 0 ? gap[0] : Number.MIN_VALUE;
  }
  writePoints(out.pointA, out.pointB, swapped, bInA);
  return out;
}

/**
 * Contact of triangle `a` and polytope `b` (A's frame) within `prediction` (≥ 0): when they
 * overlap or touch, distance −depth (the least overlap of the SAT, 0 for a touch), its normal
 * (A toward B) and witnesses on A and on B spanning the depth along it; when apart by at most
 * `prediction`, the gap, the unit direction from A's closest point to B's and those points.
 * False when apart by more.
 */
export function contactTrianglePolytope(
  out: Contact,
  a: Triangle,
  b: TrianglePolytopeOther,
  bInA: Isometry,
  prediction: number,
): boolean {
  contactPredictionIo[0] = prediction;
  return contactTrianglePolytopeIo(out, a, b, bInA);
}

/**
 * [0] the prediction of {@link contactTrianglePolytopeIo}: a double passed to a call V8 does not
 * inline is boxed (allocated), as the rounded pairs' prediction plus radius would be.
 */
export const contactPredictionIo = new Float64Array(1);

/**
 * [0] a gap (scene units, the loaded frame's; +∞ for none) beyond which
 * {@link contactTrianglePolytopeIo} answers "apart" from the SAT alone, before the closest
 * features: the SAT's least overlap is a lower bound of the distance to its rounding, so a caller
 * whose own answer would be apart beyond it (a capsule's segment: its prediction, radius and
 * touch tolerance, with a margin far above that rounding) skips the features and the exact test.
 * Read once per call; callers that do not set it leave it at +∞.
 */
export const contactRejectIo = new Float64Array([Number.POSITIVE_INFINITY]);

/** {@link contactTrianglePolytope} with the prediction in {@link contactPredictionIo}[0]. */
export function contactTrianglePolytopeIo(
  out: Contact,
  a: Triangle,
  b: TrianglePolytopeOther,
  bInA: Isometry,
): boolean {
  const prediction = contactPredictionIo[0];
  const swapped = loadOrdered(a, b, bInA);
  runSat();
  if (sat[5] === 1 && -sat[0] > contactRejectIo[0]) return false;
  if (touching(a, b, bInA, true)) {
    penetrationWitnesses();
    const d = Math.max(sat[0], 0);
    out.distance = d > 0 ? -d : 0;
    axis[0] = sat[1];
    axis[1] = sat[2];
    axis[2] = sat[3];
  } else {
    // Apart: the SAT's gap is a lower bound of the distance.
    if (-sat[0] > prediction) return false;
    closestFeatures();
    bestGap();
    // Proven apart (two triangles decided exactly): a gap that rounds to 0 is still a gap.
    const g = gap[0] > 0 || exactIo[0] === 0 ? gap[0] : Number.MIN_VALUE;
    if (!(g <= prediction)) return false;
    out.distance = g;
    if (gap[0] > 0) {
      gapNormal();
    } else {
      axis[0] = sat[1];
      axis[1] = sat[2];
      axis[2] = sat[3];
    }
  }
  writeNormal(out.normal, swapped, bInA);
  writePoints(out.pointA, out.pointB, swapped, bInA);
  return true;
}
