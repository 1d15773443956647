/**
 * A box's, a triangle's or a convex hull's edge or face across a cylinder's or cone's rim, or a
 * triangle's or hull's edge across a cylinder's generator, answered exactly (issue 16,
 * point-rim-facing, replay-facing and hull-rim-facing).
 *
 * Where a polytope (a box, a convex hull, or a triangle or flat hull: flat, seen from both
 * sides) overlaps or touches a
 * cylinder or a cone across the solid's rim (a circle: either end of a cylinder, a cone's base)
 * and the least overlap's normal lies in the rim's fan of normals (from the cap's normal to the
 * side's at that azimuth) or at an end of it, the solid's support along the normal is one rim
 * point a, and the polytope's along its reverse is one of its edges or faces. The pair's least
 * overlap along a candidate normal n, f(n) = h_solid(n) + h_poly(−n), is an upper bound of the
 * penetration depth (any direction's is), achieved by n by definition. The answer is the
 * candidate of least f whose witnesses face each other across it: a (the solid's support) and
 * b = a − f(n)·n, b on the polytope (it then lies on the polytope's supporting plane, so it is
 * the polytope's support point facing a). Candidates, each a closed form or a 1-D root:
 *
 * - an edge of the polytope against a rim circle: the common perpendicular of the segment and
 *   the circle, a local minimum over the segment's parameter t of the squared distance
 *   g(t) = (ρ(t) − r)² + (y(t) − y_c)² from the segment's point to the circle (ρ its distance
 *   from the axis, y_c the rim's plane), bracketed on a sampling of the sign of g′ (with the
 *   segment's points nearest the axis and on the rim's cylinder among the samples) and bisected
 *   on that sign to the rounding; a the circle's point at the segment point's azimuth, n the
 *   edge's direction across the circle's tangent there (not a − b: at a depth of 1e-12 beside a
 *   rim of 32 the difference of the two points fixes the normal to 1e-3 rad only), turned into
 *   the fan;
 * - an edge against a rim circle at the edge's crossing of the rim's cylinder ρ = r (the roots
 *   of a quadratic, solved about the edge's point nearest the axis, where a far end's |p0|² − r²
 *   would cancel): where the common perpendicular turns out of the fan (the edge rising from
 *   a corner beyond the rim at 2^-30 rad; a triangle's edge touching a cap 2^-23..2^-39 rad off
 *   its plane, the normal on the fan between the cap's and the side's), the least overlap's
 *   normal is the kink where the edge joins the polytope's support, normal to the edge, and a
 *   the rim's point above the crossing;
 * - an edge against a cylinder's side at the edge's point nearest the axis (a line's closed
 *   form): n the side's normal at that point's azimuth, a the side's point at its height (a
 *   triangle's edge touching a generator 2^-39 rad off the tangent plane);
 * - a face of the polytope: n its inward normal (a triangle's, so a flat hull's, either way;
 *   the solid's support along it is then the rim's point at n's azimuth when n lies inside the fan).
 *
 * Each candidate is kept only where b lies on the polytope and a is the solid's support along n
 * to the rounding: the answer's witnesses face each other across its normal and its normal
 * achieves its depth by construction, whichever candidate it is. An overlap within the rounding
 * below 0 (a touch: the polytope on a supporting plane of the solid) is taken as 0.
 *
 * The iterative solver (GJK/EPA, the refinement and the witness polish in convex-convex.ts)
 * reaches the depth there to its bar but its witnesses stay apart sideways: along the cap's
 * normal the polytope's support is a corner beyond the rim, with no point of the cap's disc
 * below it. {@link rimContact} runs after it, only where its witnesses do not face each other
 * across its normal (beyond the rounding of the coordinates, TOUCH_TOLERANCE of their
 * magnitude), and replaces it with the certified candidate of least overlap when that is no
 * deeper than the solver's depth beyond the same rounding.
 *
 * Frames: the routine works in the solid's local frame (axis +y); its inputs and outputs are the
 * caller's (A's frame, B posed by `bInA`). No allocation per call.
 */
import { TOUCH_TOLERANCE } from "../constants.js";
import {
  makeRevolutionProjection,
  projectRevolutionDims,
  RevolutionKind,
  revolutionDims,
} from "../geometry/revolution.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Cone } from "../shapes/cone.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Cylinder } from "../shapes/cylinder.js";
import { shapeDef } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import { polytopeToSolid, solidToPolytope } from "./corner-revolution.js";

/** Samples of g′'s sign along an edge that bracket its roots. Count. */
export const RIM_EDGE_SAMPLES = 64;

/**
 * Sine of the angle below which an edge runs along the rim's tangent (no unique common
 * perpendicular: the edge lies on the rim's circle of supports, a corner's or the solver's case).
 */
const SEGMENT_TANGENT_SIN = 2 ** -40;

/** Bisection steps on g′'s sign within a bracket at most (it stops where the midpoint rounds to an end). */
const RIM_EDGE_BISECTIONS = 200;

/** The polytope's kinds in counts[2]. */
const POLY_BOX = 0;
const POLY_TRIANGLE = 1;
const POLY_HULL = 2;

/**
 * The polytope's corners in the solid's frame, x y z interleaved: a box's eight (corner i's
 * signs from its bits), a triangle's three, a hull's vertices (grown to the largest hull seen).
 */
let corners = new Float64Array(24);
/** The polytope's edges as corner index pairs: a box's twelve, a triangle's three, a hull's. */
let edgeEnds = new Uint32Array(24);
/** [0] the polytope's corner count, [1] its edge count, [2] its kind (POLY_*). */
const counts = new Uint32Array(3);
/** A triangle's corners in its own frame, x y z interleaved (its face as a flat polygon). */
const triCorners = new Float64Array(9);
/** A triangle's unit normal in its own frame (the candidate of its face, either way). */
const triNormal = vec3.create();
const triE0 = vec3.create();
const triM = vec3.create();
/** The sample parameters of an edge's search, sorted. */
const samples = new Float64Array(RIM_EDGE_SAMPLES + 4);
/**
 * Scratch doubles: [0] the best overlap, [1] the tolerance, [2] the rim's plane y_c, [3] its
 * radius, [4] the polytope's corners' largest coordinate magnitude.
 */
const work = new Float64Array(5);
const sides = new Uint8Array(1);
const cand = vec3.create();
const support = vec3.create();
const bestN = vec3.create();
const bestA = vec3.create();
const bestB = vec3.create();
const candB = vec3.create();
/** The rim's point of an edge candidate (solid frame). */
const rimPoint = vec3.create();
const proj = makeRevolutionProjection();
const local = vec3.create();
const boxAxis = vec3.create();
const p0 = vec3.create();
const p1 = vec3.create();

/** out = a polytope-local direction in the solid's frame. */
function dirToSolid(out: Vec3, bInA: Isometry, d: Vec3): void {
  if (sides[0] === 0) quat.rotate(out, bInA.rotation, d);
  else quat.inverseRotate(out, bInA.rotation, d);
}

/**
 * True when the polytope-local point `local` lies on the flat polygon of `count` corners
 * `ids[o ..]` of `v` (x y z interleaved; ids null: 0, 1, 2, …), counter-clockwise about the unit
 * normal `n`, within the tolerance `tol` (scene units): its plane and the inner sides of its
 * edges. A triangle, or a flat hull's face 0.
 */
function onPolygon(
  v: Float64Array,
  ids: Uint32Array | null,
  o: number,
  count: number,
  n: Vec3,
  tol: number,
): boolean {
  const i0 = 3 * (ids === null ? 0 : ids[o]);
  const off = (local.x - v[i0]) * n.x + (local.y - v[i0 + 1]) * n.y + (local.z - v[i0 + 2]) * n.z;
  if (!(Math.abs(off) <= tol)) return false;
  for (let i = 0; i < count; i++) {
    const iu = 3 * (ids === null ? i : ids[o + i]);
    const iv = 3 * (ids === null ? (i + 1) % count : ids[o + ((i + 1) % count)]);
    // The edge's outward normal in the plane, (v − u) × n.
    triE0.x = v[iv] - v[iu];
    triE0.y = v[iv + 1] - v[iu + 1];
    triE0.z = v[iv + 2] - v[iu + 2];
    triM.x = triE0.y * n.z - triE0.z * n.y;
    triM.y = triE0.z * n.x - triE0.x * n.z;
    triM.z = triE0.x * n.y - triE0.y * n.x;
    const ml = Math.sqrt(triM.x * triM.x + triM.y * triM.y + triM.z * triM.z);
    const out =
      (local.x - v[iu]) * triM.x + (local.y - v[iu + 1]) * triM.y + (local.z - v[iu + 2]) * triM.z;
    if (!(out <= tol * ml)) return false;
  }
  return true;
}

/**
 * True when the polytope-local point `local` lies on the polytope within the tolerance `tol`
 * (scene units): a box's half extents; a triangle's or a flat hull's polygon; a hull's face
 * planes.
 */
function onPolytope(poly: ConvexShape, tol: number): boolean {
  if (counts[2] === POLY_BOX) {
    const h = (poly as Cuboid).halfExtents;
    if (!(Math.abs(local.x) <= h.x + tol)) return false;
    if (!(Math.abs(local.y) <= h.y + tol)) return false;
    return Math.abs(local.z) <= h.z + tol;
  }
  if (counts[2] === POLY_TRIANGLE) return onPolygon(triCorners, null, 0, 3, triNormal, tol);
  const hull = poly as ConvexPolyhedron;
  const fn = hull.faceNormals;
  if (hull.flat) {
    vec3.set(triNormal, fn[0], fn[1], fn[2]);
    const o = hull.faceOffsets[0];
    return onPolygon(hull.vertices, hull.faceVertices, o, hull.faceOffsets[1] - o, triNormal, tol);
  }
  const d = hull.facePlaneOffsets;
  for (let f = 0; f < d.length; f++) {
    const off = local.x * fn[3 * f] + local.y * fn[3 * f + 1] + local.z * fn[3 * f + 2] - d[f];
    if (!(off <= tol)) return false;
  }
  return true;
}

/**
 * Tries the unit candidate normal `cand` (solid frame, from the solid toward the polytope): its
 * overlap f = h_solid(cand) − min over the polytope's corners of cand·c (one within the
 * tolerance below 0 taken as 0, a touch), the solid's witness a (its support along cand, or
 * with `atRim` the point in `rimPoint` where that is the support to the tolerance) and
 * b = a − f·cand; kept in best* when b lies on the polytope (within the tolerance) and f is
 * below the best so far.
 */
function tryNormal(solid: ConvexShape, poly: ConvexShape, bInA: Isometry, atRim: boolean): void {
  const sup = shapeDef(solid.type).coreSupport as (out: Vec3, s: ConvexShape, d: Vec3) => Vec3;
  sup(support, solid, cand);
  let least = Number.POSITIVE_INFINITY;
  const nc = 3 * counts[0];
  for (let i = 0; i < nc; i += 3) {
    const t = cand.x * corners[i] + cand.y * corners[i + 1] + cand.z * corners[i + 2];
    if (t < least) least = t;
  }
  const hs = cand.x * support.x + cand.y * support.y + cand.z * support.z;
  const tol = work[1];
  let f = hs - least;
  if (!(f > -tol) || !(f < work[0])) return;
  if (!(f > 0)) f = 0;
  if (atRim) {
    if (!(cand.x * rimPoint.x + cand.y * rimPoint.y + cand.z * rimPoint.z >= hs - tol)) return;
    vec3.copy(support, rimPoint);
  }
  candB.x = support.x - f * cand.x;
  candB.y = support.y - f * cand.y;
  candB.z = support.z - f * cand.z;
  solidToPolytope(local, bInA, candB, sides[0] === 0);
  if (!onPolytope(poly, tol)) return;
  work[0] = f;
  vec3.copy(bestN, cand);
  vec3.copy(bestA, support);
  vec3.copy(bestB, candB);
}

/**
 * Tries the unit normal `cand` with the polytope's supporting corners as its witnesses: its
 * overlap f as {@link tryNormal}'s, and for each corner c within the tolerance of the
 * polytope's support along −cand, a = c + f·cand, kept when a lies on the solid's boundary
 * within the tolerance (its signed distance by the closed form of src/geometry/revolution.ts):
 * the solver's normal on the cap where the box's supporting edge or face lies over the cap's
 * disc (its witnesses 0.03 apart beside a box of 1e-4 at 1e9).
 */
function tryCorners(solid: ConvexShape, kind: RevolutionKind): void {
  const sup = shapeDef(solid.type).coreSupport as (out: Vec3, s: ConvexShape, d: Vec3) => Vec3;
  sup(support, solid, cand);
  let least = Number.POSITIVE_INFINITY;
  const nc = 3 * counts[0];
  for (let i = 0; i < nc; i += 3) {
    const t = cand.x * corners[i] + cand.y * corners[i + 1] + cand.z * corners[i + 2];
    if (t < least) least = t;
  }
  const tol = work[1];
  let f = cand.x * support.x + cand.y * support.y + cand.z * support.z - least;
  if (!(f > -tol) || !(f < work[0])) return;
  if (!(f > 0)) f = 0;
  for (let i = 0; i < nc; i += 3) {
    const t = cand.x * corners[i] + cand.y * corners[i + 1] + cand.z * corners[i + 2];
    if (!(t <= least + tol)) continue;
    candB.x = corners[i];
    candB.y = corners[i + 1];
    candB.z = corners[i + 2];
    rimPoint.x = candB.x + f * cand.x;
    rimPoint.y = candB.y + f * cand.y;
    rimPoint.z = candB.z + f * cand.z;
    projectRevolutionDims(proj, kind, rimPoint);
    if (!(Math.abs(proj.distance) <= tol)) continue;
    work[0] = f;
    vec3.copy(bestN, cand);
    vec3.copy(bestA, rimPoint);
    vec3.copy(bestB, candB);
    return;
  }
}

/** g′(t)/2 along p0 + t(p1 − p0) for the rim circle y = work[2], radius work[3], about the y axis. */
function slope(t: number): number {
  const dx = p1.x - p0.x;
  const dy = p1.y - p0.y;
  const dz = p1.z - p0.z;
  const x = p0.x + t * dx;
  const y = p0.y + t * dy;
  const z = p0.z + t * dz;
  const rho = Math.sqrt(x * x + z * z);
  if (!(rho > 0)) return Number.NaN;
  return ((rho - work[3]) * (x * dx + z * dz)) / rho + (y - work[2]) * dy;
}

/**
 * rimPoint = the rim circle's point at the azimuth of the edge's point at t, and cand = the
 * unit common perpendicular of the edge and the circle there (the edge's direction across the
 * circle's tangent: well conditioned where the two points are within rounding of each other),
 * turned into the rim's fan (positive along the bisector of the cap's normal and the side's at
 * that azimuth). False where the edge's point is on the axis or the edge runs along the tangent.
 */
function edgeNormal(solid: ConvexShape, t: number): boolean {
  const dx = p1.x - p0.x;
  const dy = p1.y - p0.y;
  const dz = p1.z - p0.z;
  const x = p0.x + t * dx;
  const z = p0.z + t * dz;
  const rho = Math.sqrt(x * x + z * z);
  if (!(rho > 0)) return false;
  const ux = x / rho;
  const uz = z / rho;
  rimPoint.x = work[3] * ux;
  rimPoint.y = work[2];
  rimPoint.z = work[3] * uz;
  // The tangent (−uz, 0, ux); cand = D × tangent.
  cand.x = dy * ux;
  cand.y = dz * -uz - dx * ux;
  cand.z = dy * uz;
  const l = Math.sqrt(cand.x * cand.x + cand.y * cand.y + cand.z * cand.z);
  const dl = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (!(l > SEGMENT_TANGENT_SIN * dl)) return false;
  // The fan's bisector: the cap's normal ±y plus the side's (a cone's side: (h·2, r)/… up).
  const cap = work[2] > 0 ? 1 : -1;
  let sideY = 0;
  let sideR = 1;
  if (solid.type === ShapeType.Cone) {
    const hh = -work[2];
    const r = work[3];
    const sl = Math.sqrt(4 * hh * hh + r * r);
    sideY = r / sl;
    sideR = (2 * hh) / sl;
  }
  const side = cand.x * ux * sideR + cand.z * uz * sideR + cand.y * sideY;
  const s = side + cand.y * cap >= 0 ? 1 / l : -1 / l;
  cand.x *= s;
  cand.y *= s;
  cand.z *= s;
  return true;
}

/** Inserts t ∈ (0, 1) into the first `n` sorted entries of `samples`; returns the new count. */
function insertSample(n: number, t: number): number {
  if (!(t > 0 && t < 1)) return n;
  let i = n;
  while (i > 0 && samples[i - 1] > t) {
    samples[i] = samples[i - 1];
    i--;
  }
  samples[i] = t;
  return n + 1;
}

/**
 * Every interior local minimum of the squared distance from edge p0–p1 to the rim circle,
 * tried. g′'s sign is sampled at {@link RIM_EDGE_SAMPLES} even steps and at the edge's points
 * nearest the axis and on the rim's cylinder ρ = r (exact roots of a quadratic): between those
 * ρ is monotone and the minima near the rim's crossings are bracketed apart from the maximum
 * near the axis, however short the circle against the edge.
 */
function edgeAgainstRim(solid: ConvexShape, poly: ConvexShape, bInA: Isometry): void {
  let n = 0;
  for (let k = 0; k <= RIM_EDGE_SAMPLES; k++) samples[n++] = k / RIM_EDGE_SAMPLES;
  const dx = p1.x - p0.x;
  const dz = p1.z - p0.z;
  const qa = dx * dx + dz * dz;
  if (qa > 0) {
    // The roots about the point nearest the axis, tm ± √((r² − ρm²)/qa): from the edge's end,
    // (|p0|² − r²) cancels where the end lies far beyond the rim (a hull's edge of 1e5 across a
    // rim of 64: the crossing 1.6e-8 along it off, its witness that far off the edge).
    const tm = -(p0.x * dx + p0.z * dz) / qa;
    n = insertSample(n, tm);
    const mx = p0.x + tm * dx;
    const mz = p0.z + tm * dz;
    const rm = Math.sqrt(mx * mx + mz * mz);
    const r = work[3];
    const disc = ((r - rm) * (r + rm)) / qa;
    if (disc >= 0) {
      const hw = Math.sqrt(disc);
      const ta = tm - hw;
      const tb = tm + hw;
      n = insertSample(n, ta);
      if (tb !== ta) n = insertSample(n, tb);
      // The edge's crossings of the rim's cylinder: where the common perpendicular turns out of
      // the fan, the least overlap's normal is the kink where the edge joins the box's support
      // (normal to the edge, in the fan), the rim's point right above the crossing.
      if (ta > 0 && ta < 1 && edgeNormal(solid, ta)) tryNormal(solid, poly, bInA, true);
      if (tb !== ta && tb > 0 && tb < 1 && edgeNormal(solid, tb))
        tryNormal(solid, poly, bInA, true);
    }
  }
  let prevT = samples[0];
  let prev = slope(prevT);
  for (let k = 1; k < n; k++) {
    const t = samples[k];
    const cur = slope(t);
    if (prev < 0 && cur > 0) {
      let lo = prevT;
      let hi = t;
      for (let i = 0; i < RIM_EDGE_BISECTIONS; i++) {
        const mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        const s = slope(mid);
        if (s < 0) lo = mid;
        else if (s > 0) hi = mid;
        else {
          lo = mid;
          hi = mid;
          break;
        }
      }
      if (edgeNormal(solid, 0.5 * (lo + hi))) tryNormal(solid, poly, bInA, true);
    } else if (cur === 0 && edgeNormal(solid, t)) tryNormal(solid, poly, bInA, true);
    prevT = t;
    prev = cur;
  }
}

/**
 * Candidate of a cylinder's side against edge p0–p1: the edge's point nearest the axis (inside
 * the edge and between the caps), n the side's normal at its azimuth, a the side's point at its
 * height. The solid's radius in work[3], its half height in work[2]'s magnitude (a double passed
 * to a call V8 does not inline is boxed).
 */
function edgeAgainstSide(solid: ConvexShape, poly: ConvexShape, bInA: Isometry): void {
  const hh = work[2] < 0 ? -work[2] : work[2];
  const dx = p1.x - p0.x;
  const dy = p1.y - p0.y;
  const dz = p1.z - p0.z;
  const qa = dx * dx + dz * dz;
  if (!(qa > 0)) return;
  const t = -(p0.x * dx + p0.z * dz) / qa;
  if (!(t > 0 && t < 1)) return;
  const x = p0.x + t * dx;
  const y = p0.y + t * dy;
  const z = p0.z + t * dz;
  const rho = Math.sqrt(x * x + z * z);
  if (!(rho > 0) || !(Math.abs(y) <= hh)) return;
  // The common perpendicular of the edge and the axis, from the edge's direction: the point's
  // azimuth x / ρ carries its coordinates' rounding (a hull's edge of 2.6e5 along a generator of
  // a cylinder of 128: 1e-13 rad, 4e-9 of overlap over the edge's length).
  const ql = Math.sqrt(qa);
  const sgn = dz * x - dx * z >= 0 ? 1 / ql : -1 / ql;
  cand.x = dz * sgn;
  cand.y = 0;
  cand.z = -dx * sgn;
  rimPoint.x = work[3] * cand.x;
  rimPoint.y = y;
  rimPoint.z = work[3] * cand.z;
  tryNormal(solid, poly, bInA, true);
}

/**
 * Loads the polytope `poly` (a box, a triangle or a convex hull; the polytope is B when
 * `solidIsA`) into corners, edgeEnds and counts, in the solid's frame, and the corners' largest
 * coordinate magnitude (scene units) into work[4]; false for another type or a degenerate
 * triangle.
 */
function loadPolytope(poly: ConvexShape, bInA: Isometry, solidIsA: boolean): boolean {
  let mag = 0;
  if (poly.type === ShapeType.ConvexPolyhedron) {
    const hull = poly as ConvexPolyhedron;
    const v = hull.vertices;
    const ed = hull.edges;
    if (corners.length < v.length) corners = new Float64Array(v.length);
    if (edgeEnds.length < ed.length) edgeEnds = new Uint32Array(ed.length);
    counts[0] = v.length / 3;
    counts[1] = ed.length / 2;
    counts[2] = POLY_HULL;
    for (let i = 0; i < v.length; i += 3) {
      vec3.set(local, v[i], v[i + 1], v[i + 2]);
      polytopeToSolid(p0, bInA, local, solidIsA);
      corners[i] = p0.x;
      corners[i + 1] = p0.y;
      corners[i + 2] = p0.z;
      mag = Math.max(mag, Math.abs(p0.x), Math.abs(p0.y), Math.abs(p0.z));
    }
    for (let i = 0; i < ed.length; i++) edgeEnds[i] = ed[i];
    work[4] = mag;
    return true;
  }
  if (poly.type === ShapeType.Cuboid) {
    const h = (poly as Cuboid).halfExtents;
    counts[0] = 8;
    counts[2] = POLY_BOX;
    for (let i = 0; i < 8; i++) {
      vec3.set(local, i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
      polytopeToSolid(p0, bInA, local, solidIsA);
      corners[3 * i] = p0.x;
      corners[3 * i + 1] = p0.y;
      corners[3 * i + 2] = p0.z;
      mag = Math.max(mag, Math.abs(p0.x), Math.abs(p0.y), Math.abs(p0.z));
    }
    let e = 0;
    for (let i = 0; i < 8; i++) {
      for (let bit = 1; bit < 8; bit <<= 1) {
        if (i & bit) continue;
        edgeEnds[e++] = i;
        edgeEnds[e++] = i | bit;
      }
    }
    counts[1] = 12;
    work[4] = mag;
    return true;
  }
  if (poly.type !== ShapeType.Triangle) return false;
  const t = poly as Triangle;
  counts[0] = 3;
  counts[1] = 3;
  counts[2] = POLY_TRIANGLE;
  for (let i = 0; i < 3; i++) {
    const c = i === 0 ? t.a : i === 1 ? t.b : t.c;
    triCorners[3 * i] = c.x;
    triCorners[3 * i + 1] = c.y;
    triCorners[3 * i + 2] = c.z;
    polytopeToSolid(p0, bInA, c, solidIsA);
    corners[3 * i] = p0.x;
    corners[3 * i + 1] = p0.y;
    corners[3 * i + 2] = p0.z;
    mag = Math.max(mag, Math.abs(p0.x), Math.abs(p0.y), Math.abs(p0.z));
    edgeEnds[2 * i] = i;
    edgeEnds[2 * i + 1] = i === 2 ? 0 : i + 1;
  }
  // (The vector steps written out: a double returned by a call V8 does not inline is boxed.)
  const e0x = t.b.x - t.a.x;
  const e0y = t.b.y - t.a.y;
  const e0z = t.b.z - t.a.z;
  const e1x = t.c.x - t.a.x;
  const e1y = t.c.y - t.a.y;
  const e1z = t.c.z - t.a.z;
  triNormal.x = e0y * e1z - e0z * e1y;
  triNormal.y = e0z * e1x - e0x * e1z;
  triNormal.z = e0x * e1y - e0y * e1x;
  const l = Math.sqrt(
    triNormal.x * triNormal.x + triNormal.y * triNormal.y + triNormal.z * triNormal.z,
  );
  // A degenerate triangle (a segment or a point) has no face to test its points against: the
  // solver's answer stays.
  if (!(l > 0)) return false;
  triNormal.x /= l;
  triNormal.y /= l;
  triNormal.z /= l;
  work[4] = mag;
  return true;
}

/**
 * The contact of a box, a triangle or a convex hull and a cylinder or cone (either order)
 * replaced by its exact rim answer where that applies (see the file's comment): reads the solved `normal`
 * (unit, A → B, A's frame), the signed distance `io[0]` (< 0, scene units) and the witnesses;
 * on success writes the signed distance (−the overlap, 0 at a touch), the normal and the
 * witnesses `pointA`, `pointB` (A's frame) and returns true; otherwise changes nothing and
 * returns false.
 */
export function rimContact(
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  io: Float64Array,
  normal: Vec3,
  pointA: Vec3,
  pointB: Vec3,
): boolean {
  if (!(io[0] < 0)) return false;
  const revA = a.type === ShapeType.Cylinder || a.type === ShapeType.Cone;
  const revB = b.type === ShapeType.Cylinder || b.type === ShapeType.Cone;
  if (revA && !revB) {
    sides[0] = 0;
    return rimContactOf(a, b, bInA, io, normal, pointA, pointB);
  }
  if (revB && !revA) {
    sides[0] = 1;
    return rimContactOf(b, a, bInA, io, normal, pointA, pointB);
  }
  return false;
}

/**
 * {@link rimContact} for cylinder or cone `solid` and polytope `poly` (`sides[0]` 0 when the solid
 * is A). A function of its own so that the solid's fields are read by their own (monomorphic)
 * feedback: read where the caller's type test had seen the pair's every shape, TurboFan took the
 * dimension's load as one over all those maps, merged a double with `undefined` and boxed it on
 * every call (the six-curved-kinds world: 9 KB per step in rimContact's frame, issue 15).
 */
function rimContactOf(
  solid: ConvexShape,
  poly: ConvexShape,
  bInA: Isometry,
  io: Float64Array,
  normal: Vec3,
  pointA: Vec3,
  pointB: Vec3,
): boolean {
  const cylinder = solid.type === ShapeType.Cylinder;
  // (The dimensions through revolutionDims: a double merged from two shapes' fields is boxed.)
  if (cylinder) {
    revolutionDims[0] = (solid as Cylinder).halfHeight;
    revolutionDims[1] = (solid as Cylinder).radius;
  } else {
    revolutionDims[0] = (solid as Cone).halfHeight;
    revolutionDims[1] = (solid as Cone).radius;
  }
  const hh = revolutionDims[0];
  const r = revolutionDims[1];
  // (The magnitude through work[4]: a double returned by a call V8 does not inline is boxed.)
  if (!loadPolytope(poly, bInA, sides[0] === 0)) return false;
  const mag = Math.max(hh, r, work[4]);
  const tol = TOUCH_TOLERANCE * mag;
  // Only an answer whose witnesses do not face each other across its normal.
  const t0 = io[0];
  const fx = pointB.x - pointA.x - t0 * normal.x;
  const fy = pointB.y - pointA.y - t0 * normal.y;
  const fz = pointB.z - pointA.z - t0 * normal.z;
  if (!(Math.sqrt(fx * fx + fy * fy + fz * fz) > tol)) return false;
  work[0] = -t0 + tol;
  work[1] = tol;
  const before = work[0];
  // The solver's normal, the polytope's supporting corners as the witnesses.
  if (sides[0] === 0) vec3.copy(cand, normal);
  else {
    quat.inverseRotate(cand, bInA.rotation, normal);
    vec3.negate(cand, cand);
  }
  tryCorners(solid, cylinder ? RevolutionKind.Cylinder : RevolutionKind.Cone);
  // The polytope's faces: a box's or a hull's inward normals (a flat hull's two: its normal
  // either way), a triangle's normal either way.
  const hull = poly as ConvexPolyhedron;
  const faces =
    counts[2] === POLY_BOX ? 6 : counts[2] === POLY_TRIANGLE ? 2 : hull.facePlaneOffsets.length;
  for (let i = 0; i < faces; i++) {
    if (counts[2] === POLY_HULL) {
      const fn = hull.faceNormals;
      boxAxis.x = -fn[3 * i];
      boxAxis.y = -fn[3 * i + 1];
      boxAxis.z = -fn[3 * i + 2];
    } else if (counts[2] === POLY_BOX) {
      vec3.set(boxAxis, 0, 0, 0);
      const sgn = i < 3 ? -1 : 1;
      if (i % 3 === 0) boxAxis.x = sgn;
      else if (i % 3 === 1) boxAxis.y = sgn;
      else boxAxis.z = sgn;
    } else {
      const sgn = i === 0 ? 1 : -1;
      boxAxis.x = sgn * triNormal.x;
      boxAxis.y = sgn * triNormal.y;
      boxAxis.z = sgn * triNormal.z;
    }
    dirToSolid(cand, bInA, boxAxis);
    tryNormal(solid, poly, bInA, false);
  }
  // The polytope's edges against each rim (a cylinder's two, a cone's base) and a cylinder's side.
  const ne = 2 * counts[1];
  for (let rim = 0; rim < 3; rim++) {
    if (rim === 0 && !cylinder) continue;
    if (rim === 2 && (!cylinder || counts[2] === POLY_BOX)) continue;
    work[2] = rim === 0 ? hh : -hh;
    work[3] = r;
    for (let e = 0; e < ne; e += 2) {
      const i = 3 * edgeEnds[e];
      const j = 3 * edgeEnds[e + 1];
      p0.x = corners[i];
      p0.y = corners[i + 1];
      p0.z = corners[i + 2];
      p1.x = corners[j];
      p1.y = corners[j + 1];
      p1.z = corners[j + 2];
      if (rim === 2) edgeAgainstSide(solid, poly, bInA);
      else edgeAgainstRim(solid, poly, bInA);
    }
  }
  if (!(work[0] < before)) return false;
  io[0] = 0 - work[0];
  if (sides[0] === 0) {
    vec3.copy(normal, bestN);
    vec3.copy(pointA, bestA);
    vec3.copy(pointB, bestB);
  } else {
    quat.rotate(normal, bInA.rotation, bestN);
    vec3.negate(normal, normal);
    quat.rotate(pointA, bInA.rotation, bestB);
    pointA.x += bInA.translation.x;
    pointA.y += bInA.translation.y;
    pointA.z += bInA.translation.z;
    quat.rotate(pointB, bInA.rotation, bestA);
    pointB.x += bInA.translation.x;
    pointB.y += bInA.translation.y;
    pointB.z += bInA.translation.z;
  }
  return true;
}
