/**
 * A polytope's corner against a cylinder or a cone, answered exactly (issue 16, point-rim).
 *
 * When the polytope's support along the contact's normal is one corner V, the pair's signed
 * distance is pinned between two closed forms. V's signed distance s from the solid (its nearest
 * boundary point Q: src/geometry/revolution.ts, no iteration) is an upper bound: V is a point of
 * the polytope, so the pair is no farther apart than V from the solid, and overlaps at least as
 * deeply as V lies inside it. The separation along the boundary's outward normal c at Q,
 * min over the polytope's vertices of c·w − h(c), is a lower bound (any direction's is). Where V
 * is the polytope's only support along −c (every edge from V turns away from the solid, however
 * little), that separation is c·(V − Q) = s: the two bounds meet, and V, Q, c and s are the
 * answer, the witnesses facing each other across c by construction. Outside the solid near its
 * rim, Q is the rim's point at V's azimuth and c the direction from it to V, anywhere in the
 * rim's fan of normals; inside, Q is V's foot on the nearer of the cap and the side, c an end of
 * that fan. For a gap, the polytope's edges and faces at V are tried alike (a triangle's three
 * edges and its face: a triangle is read as a hull of its three corners): an edge's least point
 * (the signed distance is convex along a segment) and its projection, the normal there made
 * perpendicular to the edge — and, on a rim, to the rim's tangent, the two lines' common
 * perpendicular, since the fan's normal from the points' difference rounds at their coordinates,
 * not at the gap (5e-6 rad off at a gap of 4e-5 beside a box of 1e6), unless the edge runs along
 * the tangent within that rounding (then the points' difference); a face's own normal, with
 * the solid's support across it when its foot lies inside the face. The nearest is certified the
 * same way.
 *
 * The iterative solver (GJK, the refinement and the witness polish in convex-convex.ts) reaches
 * this answer only in its limit: where an edge or a face of a large box lies within a few 2^-32
 * rad of the tangent plane at the rim, its normal is off by the square root of its tolerance and
 * the separation along it falls short of its distance. {@link cornerRevolution} runs after it,
 * only where its answer's witnesses do not face each other across its normal or its normal does
 * not achieve its distance (beyond the rounding of the coordinates, TOUCH_TOLERANCE of their
 * magnitude), and replaces it where the two bounds meet to that rounding; where an edge from V
 * lies along the tangent plane (its turn from it below {@link CORNER_EDGE_SIN}) V is no unique
 * support, and the solver's answer stays. A box's edge crossing the rim into the solid (depth
 * along an end of the fan, the witnesses apart sideways) has no such closed form and is not
 * answered here: src/narrowphase/rim-contact.ts runs after this routine for those.
 *
 * Frames: the routine works in the solid's local frame; its inputs and outputs are the caller's
 * (A's frame, B posed by `bInA`). No allocation per call.
 */
import { TOUCH_TOLERANCE } from "../constants.js";
import {
  closestSegmentRevolutionOf,
  makeRevolutionProjection,
  makeSegmentRevolutionResult,
  projectRevolutionDims,
  revolutionDims,
} from "../geometry/revolution.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import { shapeDef } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Revolution } from "../shapes/shape-def.js";
import type { Triangle } from "../shapes/triangle.js";

/** A cylinder or a cone: its half height and radius, scene units. */
type RevolutionSolid = { readonly halfHeight: number; readonly radius: number };

/**
 * Sine of the angle from the tangent plane below which an edge from the corner is taken for
 * lying along it (a face or an edge of the polytope on the solid: the contact has more than one
 * point and the solver's witnesses stay). Unitless; far above the rounding of a unit direction
 * (2^-52), below the turns of the class's edges (2^-40 rad).
 */
export const CORNER_EDGE_SIN = 2 ** -46;

/**
 * {@link cornerRevolution}'s certified bounds of the pair's signed distance when it answers:
 * [0] the lower (the separation along the answer's normal), [1] the upper (the corner's signed
 * distance from the solid); scene units.
 */
export const cornerIo = new Float64Array(2);

/** The solid's sizes: [0] half height, [1] radius. */
const dims = new Float64Array(2);
/**
 * Scratch doubles: [0] the corner's signed distance, [1] the tolerance, [2] the separation along
 * the candidate normal, [3] 1 when every edge from the corner turns away from the solid.
 */
const work = new Float64Array(4);

const proj = makeRevolutionProjection();
/** The solid's side (0 A, 1 B) and the polytope's, as integers. */
const sides = new Uint8Array(2);
/** The corner in the polytope's local frame, and in the solid's. */
const cornerLocal = vec3.create();
const cornerS = vec3.create();
/** A direction in the solid's frame and the polytope's. */
const dirS = vec3.create();
const dirP = vec3.create();
/** The candidate normal (solid frame, from the solid toward the polytope) and the solid's support along it. */
const cand = vec3.create();
const supportS = vec3.create();
const scratch = vec3.create();
/** A box's edge's far end and nearest point (solid frame), its search, and [0] 1 when the answer is an edge's point. */
const edgeEnd = vec3.create();
const edgePoint = vec3.create();
const edgeSearch = makeSegmentRevolutionResult();
const edgeIo = new Uint8Array(1);
/** A triangle's corners, packed xyz (its local frame): the triangle read as a hull of three points. */
const triangleV = new Float64Array(9);
/** The corner's index among the polytope's vertices (a hull's or a triangle's). */
const cornerIndex = new Uint32Array(1);
/** [0] the least distance of the gap's features so far ({@link gapFeatures}), scene units. */
const gapIo = new Float64Array(1);
/** A face's outward normal (polytope frame, then the solid's), the solid's point along it, its foot. */
const faceNP = vec3.create();
const faceNS = vec3.create();
const faceS = vec3.create();
const faceFoot = vec3.create();

/**
 * The vertices of a hull or a triangle, packed xyz in its local frame (a triangle's copied into
 * {@link triangleV}); null for a box.
 */
function polytopeVertices(poly: ConvexShape): Float64Array | null {
  if (poly.type === ShapeType.ConvexPolyhedron) return (poly as ConvexPolyhedron).vertices;
  if (poly.type !== ShapeType.Triangle) return null;
  const t = poly as Triangle;
  triangleV[0] = t.a.x;
  triangleV[1] = t.a.y;
  triangleV[2] = t.a.z;
  triangleV[3] = t.b.x;
  triangleV[4] = t.b.y;
  triangleV[5] = t.b.z;
  triangleV[6] = t.c.x;
  triangleV[7] = t.c.y;
  triangleV[8] = t.c.z;
  return triangleV;
}

/**
 * work[2] = the separation along cand (solid frame, unit) of the whole polytope from the solid:
 * the corner's ({@link separationAlong}) less how far the polytope reaches past the corner
 * toward the solid (a box's edges turned toward it; a hull's vertices below the corner). A
 * certified lower bound of the pair's signed distance (written, not returned: a double returned
 * by a call V8 does not inline is boxed).
 */
function cornerSeparation(poly: ConvexShape): void {
  let below = 0;
  if (poly.type === ShapeType.Cuboid) {
    const h = (poly as Cuboid).halfExtents;
    const ex = -(cornerLocal.x > 0 ? 2 : -2) * h.x * dirP.x;
    const ey = -(cornerLocal.y > 0 ? 2 : -2) * h.y * dirP.y;
    const ez = -(cornerLocal.z > 0 ? 2 : -2) * h.z * dirP.z;
    below = Math.min(0, ex) + Math.min(0, ey) + Math.min(0, ez);
  } else {
    const v = polytopeVertices(poly) as Float64Array;
    for (let i = 0; i < v.length; i += 3) {
      const t =
        (v[i] - cornerLocal.x) * dirP.x +
        (v[i + 1] - cornerLocal.y) * dirP.y +
        (v[i + 2] - cornerLocal.z) * dirP.z;
      if (t < below) below = t;
    }
  }
  work[2] += below;
}

/**
 * out = a polytope-local point p in the solid's frame: `bInA` is B's pose in A's frame (a unit
 * quaternion and a translation, scene units), the polytope is B when `solidIsA`, else A. No
 * allocation. Shared by the corner and rim routines (rim-contact.ts).
 */
export function polytopeToSolid(out: Vec3, bInA: Isometry, p: Vec3, solidIsA: boolean): void {
  if (solidIsA) {
    quat.rotate(out, bInA.rotation, p);
    out.x += bInA.translation.x;
    out.y += bInA.translation.y;
    out.z += bInA.translation.z;
  } else {
    out.x = p.x - bInA.translation.x;
    out.y = p.y - bInA.translation.y;
    out.z = p.z - bInA.translation.z;
    quat.inverseRotate(out, bInA.rotation, out);
  }
}

/** out = a direction of the solid's frame in the polytope's local frame. */
function dirToPolytope(out: Vec3, bInA: Isometry, d: Vec3): void {
  if (sides[0] === 0) quat.inverseRotate(out, bInA.rotation, d);
  else quat.rotate(out, bInA.rotation, d);
}

/**
 * cornerLocal = the polytope's support along local direction d (a box's corner by the signs, a
 * hull's or a triangle's vertex by a scan, its index in cornerIndex). False for a polytope this
 * routine does not answer.
 */
function polytopeSupport(poly: ConvexShape, d: Vec3): boolean {
  if (poly.type === ShapeType.Cuboid) {
    const h = (poly as Cuboid).halfExtents;
    cornerLocal.x = d.x >= 0 ? h.x : -h.x;
    cornerLocal.y = d.y >= 0 ? h.y : -h.y;
    cornerLocal.z = d.z >= 0 ? h.z : -h.z;
    return true;
  }
  const v = polytopeVertices(poly);
  if (v === null) return false;
  let best = 0;
  let bestDot = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < v.length; i += 3) {
    const t = v[i] * d.x + v[i + 1] * d.y + v[i + 2] * d.z;
    if (t > bestDot) {
      bestDot = t;
      best = i;
    }
  }
  vec3.set(cornerLocal, v[best], v[best + 1], v[best + 2]);
  cornerIndex[0] = best / 3;
  return true;
}

/**
 * work[3] = 1 when every edge from the corner turns from the plane normal to the polytope-local
 * direction c toward c by a sine above {@link CORNER_EDGE_SIN} (the corner the only support
 * along −c), else 0. A box's edges are its axes; a hull's, the chords to its other vertices (a
 * vertex beyond the plane of all of them lies beyond it on every edge, and conversely).
 */
function cornerTurnsAway(poly: ConvexShape, c: Vec3): void {
  work[3] = 0;
  if (poly.type === ShapeType.Cuboid) {
    const h = (poly as Cuboid).halfExtents;
    // The edge along axis i runs from the corner's coordinate ±h_i to ∓h_i: its turn toward c is
    // −sign(corner_i)·c_i (unit c; a zero extent has no edge).
    if (h.x > 0 && !(-(cornerLocal.x > 0 ? 1 : -1) * c.x > CORNER_EDGE_SIN)) return;
    if (h.y > 0 && !(-(cornerLocal.y > 0 ? 1 : -1) * c.y > CORNER_EDGE_SIN)) return;
    if (h.z > 0 && !(-(cornerLocal.z > 0 ? 1 : -1) * c.z > CORNER_EDGE_SIN)) return;
    work[3] = 1;
    return;
  }
  const v = polytopeVertices(poly) as Float64Array;
  for (let i = 0; i < v.length; i += 3) {
    const ex = v[i] - cornerLocal.x;
    const ey = v[i + 1] - cornerLocal.y;
    const ez = v[i + 2] - cornerLocal.z;
    const l = Math.sqrt(ex * ex + ey * ey + ez * ez);
    if (l === 0) continue;
    if (!(ex * c.x + ey * c.y + ez * c.z > CORNER_EDGE_SIN * l)) return;
  }
  work[3] = 1;
}

/**
 * work[2] = the separation along cand (solid frame, unit) of the corner from the solid,
 * cand·(V − S) with S the solid's support along cand, and work[3] whether the corner is the
 * polytope's only support along −cand ({@link cornerTurnsAway}).
 */
function separationAlong(solid: ConvexShape, poly: ConvexShape, bInA: Isometry): void {
  const support = shapeDef(solid.type).coreSupport as (out: Vec3, s: ConvexShape, d: Vec3) => Vec3;
  support(supportS, solid, cand);
  work[2] =
    cand.x * (cornerS.x - supportS.x) +
    cand.y * (cornerS.y - supportS.y) +
    cand.z * (cornerS.z - supportS.z);
  dirToPolytope(dirP, bInA, cand);
  cornerTurnsAway(poly, dirP);
}

/**
 * out = a point p of the solid's frame in the polytope's local frame, the inverse of
 * {@link polytopeToSolid} (`bInA` B's pose in A's frame; the solid is A when `solidIsA`, else B;
 * scene units). No allocation. Shared by the corner and rim routines (rim-contact.ts).
 */
export function solidToPolytope(out: Vec3, bInA: Isometry, p: Vec3, solidIsA: boolean): void {
  if (solidIsA) {
    out.x = p.x - bInA.translation.x;
    out.y = p.y - bInA.translation.y;
    out.z = p.z - bInA.translation.z;
    quat.inverseRotate(out, bInA.rotation, out);
  } else {
    quat.rotate(out, bInA.rotation, p);
    out.x += bInA.translation.x;
    out.y += bInA.translation.y;
    out.z += bInA.translation.z;
  }
}

/**
 * The segment from p0 to p1 (polytope frame): its nearest point to the solid, when nearer than
 * gapIo[0], taken (gapIo[0] its distance, edgePoint it in the solid's frame, proj the solid's
 * point and outward normal there).
 */
function gapEdge(solid: ConvexShape, rev: Revolution, bInA: Isometry, p0: Vec3, p1: Vec3): void {
  polytopeToSolid(scratch, bInA, p0, sides[0] === 0);
  polytopeToSolid(edgeEnd, bInA, p1, sides[0] === 0);
  closestSegmentRevolutionOf(edgeSearch, rev.kind, solid as RevolutionSolid, scratch, edgeEnd);
  const d = edgeSearch.projection.distance;
  if (!(d > 0 && d < gapIo[0])) return;
  gapIo[0] = d;
  vec3.copy(edgePoint, edgeSearch.segmentPoint);
  vec3.copy(proj.point, edgeSearch.projection.point);
  vec3.copy(proj.normal, edgeSearch.projection.normal);
  const t = edgeSearch.t;
  if (!(t > 0 && t < 1)) return;
  // The nearest point inside the edge: the normal is perpendicular to it. Where the solid's point
  // is on a rim (its normal in the rim's fan, computed from the points' difference, which rounds
  // at their coordinates, not at the gap: 5e-6 rad off for a gap of 4e-5 at 1e6, issue 16), also
  // to the rim's tangent there — the common perpendicular e × t of the two lines, where that
  // is better conditioned than the points' difference: its direction rounds at ε/sin θ (θ the
  // angle of the edge from the tangent), the difference's at ε·|q|/d. An edge along the tangent
  // (a horizontal edge at its point nearest the axis, just outside the rim: e ∥ t exactly at the
  // answer) leaves e × t the rounding of the tangent, always along the axis — the cap's normal,
  // 1e-8 rad off the witnesses' direction across a gap of 48 beside a rim of 66 that the edge
  // passed 4.8e-7 outside (issue 16, seed 110). Else the projection's normal with its part along
  // the edge taken out.
  const ex = edgeEnd.x - scratch.x;
  const ey = edgeEnd.y - scratch.y;
  const ez = edgeEnd.z - scratch.z;
  const ee = ex * ex + ey * ey + ez * ez;
  const n = proj.normal;
  const q = proj.point;
  let nx = 0;
  let ny = 0;
  let nz = 0;
  let across = false;
  const rho = Math.sqrt(q.x * q.x + q.z * q.z);
  if (n.y !== 0 && (n.x !== 0 || n.z !== 0) && Math.abs(q.y) === dims[0] && rho > 0) {
    // The rim's tangent (−z, 0, x)/ρ at the point.
    const tx = -q.z / rho;
    const tz = q.x / rho;
    nx = ey * tz;
    ny = ez * tx - ex * tz;
    nz = -ey * tx;
    // |e × t| / |e| = sin θ against d / |q| (|q| ≤ ρ + |y| bounds the coordinates' magnitude).
    const cross = Math.sqrt(nx * nx + ny * ny + nz * nz);
    across = cross * (rho + Math.abs(q.y) + d) >= Math.sqrt(ee) * d;
  }
  if (!across) {
    const along = (n.x * ex + n.y * ey + n.z * ez) / ee;
    nx = n.x - along * ex;
    ny = n.y - along * ey;
    nz = n.z - along * ez;
  }
  let l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(l > 0) || !(l < Number.POSITIVE_INFINITY)) return;
  if (nx * n.x + ny * n.y + nz * n.z < 0) l = -l;
  n.x = nx / l;
  n.y = ny / l;
  n.z = nz / l;
}

/**
 * The face through the corner whose outward unit normal is faceNP (polytope frame): the solid's
 * support S across it (along −faceNP) and S's foot on the face's plane; when the foot lies inside
 * the face ({@link footInFace}: `face` the box's axis, a hull's face index, 0 for a triangle) and
 * S's height over the plane is a gap nearer than gapIo[0], taken as {@link gapEdge} takes an edge's.
 */
function gapFace(poly: ConvexShape, solid: ConvexShape, bInA: Isometry, face: number): void {
  if (sides[0] === 0) quat.rotate(faceNS, bInA.rotation, faceNP);
  else quat.inverseRotate(faceNS, bInA.rotation, faceNP);
  vec3.negate(dirS, faceNS);
  const support = shapeDef(solid.type).coreSupport as (out: Vec3, s: ConvexShape, d: Vec3) => Vec3;
  support(faceS, solid, dirS);
  solidToPolytope(faceFoot, bInA, faceS, sides[0] === 0);
  const gap =
    faceNP.x * (faceFoot.x - cornerLocal.x) +
    faceNP.y * (faceFoot.y - cornerLocal.y) +
    faceNP.z * (faceFoot.z - cornerLocal.z);
  if (!(gap > 0 && gap < gapIo[0])) return;
  faceFoot.x -= gap * faceNP.x;
  faceFoot.y -= gap * faceNP.y;
  faceFoot.z -= gap * faceNP.z;
  if (!footInFace(poly, face)) return;
  gapIo[0] = gap;
  polytopeToSolid(edgePoint, bInA, faceFoot, sides[0] === 0);
  vec3.copy(proj.point, faceS);
  vec3.copy(proj.normal, dirS);
}

/**
 * True when faceFoot (polytope frame, on the face's plane) lies inside the face: a box's across
 * axis `face` within the half extents of the other two; a hull's face `face` or a triangle inside
 * each of its edges (the edge's cross product with the foot along the face's normal not negative).
 */
function footInFace(poly: ConvexShape, face: number): boolean {
  if (poly.type === ShapeType.Cuboid) {
    const h = (poly as Cuboid).halfExtents;
    return (
      (face === 0 || Math.abs(faceFoot.x) <= h.x) &&
      (face === 1 || Math.abs(faceFoot.y) <= h.y) &&
      (face === 2 || Math.abs(faceFoot.z) <= h.z)
    );
  }
  const v = polytopeVertices(poly) as Float64Array;
  let o = 0;
  let count = 3;
  let ids: Uint32Array | null = null;
  if (poly.type === ShapeType.ConvexPolyhedron) {
    const hull = poly as ConvexPolyhedron;
    o = hull.faceOffsets[face];
    count = hull.faceOffsets[face + 1] - o;
    ids = hull.faceVertices;
  }
  for (let i = 0; i < count; i++) {
    const p = 3 * (ids === null ? i : ids[o + i]);
    const q = 3 * (ids === null ? (i + 1) % count : ids[o + ((i + 1) % count)]);
    const ex = v[q] - v[p];
    const ey = v[q + 1] - v[p + 1];
    const ez = v[q + 2] - v[p + 2];
    const fx = faceFoot.x - v[p];
    const fy = faceFoot.y - v[p + 1];
    const fz = faceFoot.z - v[p + 2];
    const c =
      (ey * fz - ez * fy) * faceNP.x +
      (ez * fx - ex * fz) * faceNP.y +
      (ex * fy - ey * fx) * faceNP.z;
    if (c < 0) return false;
  }
  return true;
}

const edgeStart = vec3.create();

/**
 * gapIo[0] = the least distance from the solid of the polytope's edges and faces at the corner
 * (a box's three of each; a hull's faces holding it and their edges from it; a triangle's three
 * edges and its face, either side), with edgePoint and proj as {@link gapEdge} leaves them;
 * +∞ when none is apart from the solid.
 */
function gapFeatures(poly: ConvexShape, solid: ConvexShape, rev: Revolution, bInA: Isometry): void {
  gapIo[0] = Number.POSITIVE_INFINITY;
  if (poly.type === ShapeType.Cuboid) {
    const h = (poly as Cuboid).halfExtents;
    for (let i = 0; i < 3; i++) {
      if (i === 0 ? !(h.x > 0) : i === 1 ? !(h.y > 0) : !(h.z > 0)) continue;
      vec3.copy(edgeStart, cornerLocal);
      if (i === 0) edgeStart.x = -edgeStart.x;
      else if (i === 1) edgeStart.y = -edgeStart.y;
      else edgeStart.z = -edgeStart.z;
      gapEdge(solid, rev, bInA, cornerLocal, edgeStart);
      faceNP.x = i === 0 ? (cornerLocal.x > 0 ? 1 : -1) : 0;
      faceNP.y = i === 1 ? (cornerLocal.y > 0 ? 1 : -1) : 0;
      faceNP.z = i === 2 ? (cornerLocal.z > 0 ? 1 : -1) : 0;
      gapFace(poly, solid, bInA, i);
    }
    return;
  }
  const v = polytopeVertices(poly) as Float64Array;
  if (poly.type === ShapeType.Triangle) {
    for (let i = 0; i < 3; i++) {
      const p = 3 * i;
      const q = 3 * ((i + 1) % 3);
      vec3.set(edgeStart, v[p], v[p + 1], v[p + 2]);
      vec3.set(faceFoot, v[q], v[q + 1], v[q + 2]);
      gapEdge(solid, rev, bInA, edgeStart, faceFoot);
    }
    const ux = v[3] - v[0];
    const uy = v[4] - v[1];
    const uz = v[5] - v[2];
    const wx = v[6] - v[0];
    const wy = v[7] - v[1];
    const wz = v[8] - v[2];
    const nx = uy * wz - uz * wy;
    const ny = uz * wx - ux * wz;
    const nz = ux * wy - uy * wx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(l > 0) || !(l < Number.POSITIVE_INFINITY)) return;
    for (let side = 0; side < 2; side++) {
      const sign = side === 0 ? 1 / l : -1 / l;
      faceNP.x = nx * sign;
      faceNP.y = ny * sign;
      faceNP.z = nz * sign;
      gapFace(poly, solid, bInA, 0);
    }
    return;
  }
  const hull = poly as ConvexPolyhedron;
  const corner = cornerIndex[0];
  for (let f = 0; f < hull.faceCount; f++) {
    const o = hull.faceOffsets[f];
    const count = hull.faceOffsets[f + 1] - o;
    let at = -1;
    for (let i = 0; i < count; i++) if (hull.faceVertices[o + i] === corner) at = i;
    if (at < 0) continue;
    const q = 3 * hull.faceVertices[o + ((at + 1) % count)];
    vec3.set(edgeStart, v[q], v[q + 1], v[q + 2]);
    gapEdge(solid, rev, bInA, cornerLocal, edgeStart);
    faceNP.x = hull.faceNormals[3 * f];
    faceNP.y = hull.faceNormals[3 * f + 1];
    faceNP.z = hull.faceNormals[3 * f + 2];
    gapFace(poly, solid, bInA, f);
  }
}

/**
 * The contact of a box, hull or triangle and a cylinder or cone (either order) replaced by its exact
 * corner answer where that applies (see the file's comment): reads the solved `normal` (unit,
 * A → B, A's frame) and signed distance `io[0]` (scene units), and on success writes the signed
 * distance, the normal and the witnesses `pointA`, `pointB` (A's frame) and the certified bounds
 * to {@link cornerIo}, and returns true. A distance whose sign differs from the solved one (the
 * intersection test's verdict) is taken only as a touch (0) inside the lower bound; otherwise
 * nothing changes and it returns false.
 */
export function cornerRevolution(
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  io: Float64Array,
  normal: Vec3,
  pointA: Vec3,
  pointB: Vec3,
): boolean {
  const revA = shapeDef(a.type).revolution;
  const revB = shapeDef(b.type).revolution;
  let solid: ConvexShape;
  let poly: ConvexShape;
  let rev: Revolution;
  if (revA !== null && revB === null) {
    solid = a;
    poly = b;
    rev = revA as Revolution;
    sides[0] = 0;
  } else if (revB !== null && revA === null) {
    solid = b;
    poly = a;
    rev = revB as Revolution;
    sides[0] = 1;
  } else return false;
  edgeIo[0] = 0;
  if (
    poly.type !== ShapeType.Cuboid &&
    poly.type !== ShapeType.ConvexPolyhedron &&
    poly.type !== ShapeType.Triangle
  )
    return false;
  rev.dims(dims, solid);
  // The solved normal from the solid toward the polytope, in the solid's frame, and the corner
  // supporting the polytope against it.
  if (sides[0] === 0) vec3.copy(dirS, normal);
  else {
    quat.inverseRotate(dirS, bInA.rotation, normal);
    vec3.negate(dirS, dirS);
  }
  dirToPolytope(dirP, bInA, dirS);
  vec3.negate(dirP, dirP);
  if (!polytopeSupport(poly, dirP)) return false;
  polytopeToSolid(cornerS, bInA, cornerLocal, sides[0] === 0);
  const mag = Math.max(
    Math.abs(cornerS.x),
    Math.abs(cornerS.y),
    Math.abs(cornerS.z),
    dims[0],
    dims[1],
  );
  const tol = TOUCH_TOLERANCE * mag;
  work[1] = tol;
  // Only an answer whose witnesses do not face each other across its normal, or whose normal
  // does not achieve its distance, is replaced (either beyond the rounding).
  const t0 = io[0];
  const fx = pointB.x - pointA.x - t0 * normal.x;
  const fy = pointB.y - pointA.y - t0 * normal.y;
  const fz = pointB.z - pointA.z - t0 * normal.z;
  const facing = Math.sqrt(fx * fx + fy * fy + fz * fz);
  vec3.copy(cand, dirS);
  separationAlong(solid, poly, bInA);
  cornerSeparation(poly);
  const achieved = work[2] - t0;
  if (!(facing > tol) && !(Math.abs(achieved) > tol)) return false;
  // The corner's own closed form: the boundary's normal at its nearest point.
  revolutionDims[0] = dims[0];
  revolutionDims[1] = dims[1];
  projectRevolutionDims(proj, rev.kind, cornerS);
  work[0] = proj.distance;
  vec3.copy(cand, proj.normal);
  separationAlong(solid, poly, bInA);
  let s = work[0];
  cornerSeparation(poly);
  let lower = work[2];
  let certified = work[3] === 1 && lower >= s - tol && lower <= s + tol;
  if (!certified && t0 > 0) {
    // A gap: the polytope's edges and faces at the corner (a triangle's all), each's nearest
    // point to the solid (the signed distance is convex along a segment:
    // src/geometry/revolution.ts; a face's, the foot of the solid's support across it when that
    // lies inside the face), the nearest of them certified by the separation along its normal.
    gapFeatures(poly, solid, rev, bInA);
    const best = gapIo[0];
    if (best < Number.POSITIVE_INFINITY) {
      vec3.copy(cand, proj.normal);
      separationAlong(solid, poly, bInA);
      cornerSeparation(poly);
      const l = work[2];
      if (l >= best - tol && l <= best + tol) {
        s = best;
        lower = l;
        certified = true;
        vec3.copy(cornerS, edgePoint);
        edgeIo[0] = 1;
      }
    }
  }
  if (!certified) return false;
  let d = s;
  if (io[0] <= 0 && d > 0) {
    if (!(lower <= tol)) return false;
    d = 0;
  } else if (io[0] > 0 && !(d > 0)) return false;
  io[0] = d;
  cornerIo[0] = Math.min(lower, d);
  cornerIo[1] = Math.max(s, d);
  // Back to A's frame: the corner exact in its polytope's frame, the solid's point moved once.
  if (sides[0] === 0) {
    vec3.copy(normal, cand);
    vec3.copy(pointA, proj.point);
    vec3.copy(pointB, cornerS);
  } else {
    quat.rotate(normal, bInA.rotation, cand);
    vec3.negate(normal, normal);
    if (edgeIo[0] === 1) {
      quat.rotate(pointA, bInA.rotation, cornerS);
      pointA.x += bInA.translation.x;
      pointA.y += bInA.translation.y;
      pointA.z += bInA.translation.z;
    } else vec3.copy(pointA, cornerLocal);
    quat.rotate(pointB, bInA.rotation, proj.point);
    pointB.x += bInA.translation.x;
    pointB.y += bInA.translation.y;
    pointB.z += bInA.translation.z;
  }
  return true;
}
