/**
 * Solid triangle meshes (issue 16, class 9): a closed mesh built with `solid: true`
 * (src/shapes/triangle-mesh.ts) is the solid it bounds in every query, a mesh without it the
 * surface. The triangle routines (convex-mesh, mesh-mesh) answer every pair whose surfaces meet;
 * what they cannot see is a shape wholly inside a solid mesh, touching no triangle. Since the
 * surfaces do not meet, the other shape is then entirely on one side of the mesh's surface, so
 * one of its points decides (the generalized winding number of
 * {@link containsPointTriangleMesh}, Jacobson, Kavan & Sorkine-Hornung 2013), and the contact
 * is built from the closest points of the two surfaces, pA on the mesh and pB on the enclosed
 * shape: the normal n = (pA − pB)/|pA − pB| (the way out through the nearest part of the mesh's
 * surface, from A toward B), the depth the overlap along n of the enclosed shape with the
 * half-space behind pA — n·pA − min_B n·x for an enclosed B, max_A n·x − n·pB for an enclosed A —
 * and the witness points pA (on the mesh's surface) and the enclosed shape's extreme point
 * along n (on its surface), so that (pointB − pointA)·n = distance. For a convex mesh and an
 * enclosed shape whose closest point lies on a face this is the exact penetration depth; for a
 * non-convex mesh the overlap along that way out is no bound (the way may be blocked by another
 * part of the solid), so the composite path takes that way only as the first direction of
 * {@link boundedSolidContact}, and this contact only where that finds none.
 *
 * A surface mesh or a heightfield against a solid mesh is a composite of triangles, each meeting
 * the solid as a bare triangle does (src/narrowphase/composite.ts: a convex solid as its hull,
 * `solidAsConvex`; a non-convex one whole, per triangle here, `solidAgainstParts`), the deepest
 * answering (session 39). A solid mesh wholly inside another solid mesh is answered the same way
 * as a shape by the composite path's two-tree routines (over the enclosed surface's parts).
 *
 * A shape crossing the surface (issue 16, session 19) has triangle contacts, but a triangle is
 * two-sided: a sphere whose centre is just inside a face got the depth r − d toward the inside
 * (the way through the thin triangle), not r + d out of the solid, and a box more than half in
 * was pushed in. So a support-mapped shape that meets the surface or lies inside is answered as
 * the solid: a sphere by the mesh's signed distance at its centre (any closed mesh: the depth
 * r − sd(c), the normal from the nearest surface point q toward the centre outside and from the
 * centre toward q inside, witnesses q and c − r·n — the exact depth, and the answer
 * `projectPoint` implies), any other shape, when the solid is convex, as the convex hull of the
 * mesh's vertices through the pair table (the view's `convexSolid`: the exact penetration depth
 * of the same solid as a convex polyhedron, with its manifold). On a non-convex solid any other
 * shape crossing the surface, inside it, or lying on it with points inside gets a certified
 * bracket of the solid's depth ({@link boundedSolidContact}, session 40; it had kept the deepest
 * triangle contact, 0 for a sheet lying across the L's foot); one only touching keeps the
 * triangles'. All in the mesh's (A's) frame; nothing allocates after the buffers' first growth.
 *
 * Two solid meshes (session 25): a convex one is its convex hull in every composite pair
 * (composite.ts's `solidAsConvex`), so two convex solids, or one against a compound or a
 * heightfield, get the hulls' exact answers; two of which one is not convex, whose surfaces
 * cross properly (a triangle-pair depth < 0) or one holding the other, get an upper bound of the
 * solids' depth with a normal that achieves it ({@link crossingSolidsContact}). Surfaces that meet
 * only in coplanar faces or along edges, no triangle pair crossing properly, give the triangles'
 * depth 0 whether the solids touch or overlap: {@link touchingSolidsOverlap} tells them apart
 * (session 26), and overlapping ones get that bound too, touching ones keep 0.
 */
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import { makeMeshBvhHits, queryMeshBvhAabb } from "../geometry/mesh-bvh.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { aabbShape, type PointProjection, shapeDef, supportShape } from "../shapes/registry.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Triangle } from "../shapes/triangle.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import {
  containsPointTriangleMesh,
  convexSolidOfTriangleMesh,
  getMeshTriangle,
  meshMagnitude,
  meshTriangleNormal,
  positionHullOfTriangleMesh,
} from "../shapes/triangle-mesh.js";
import type { Contact, ContactManifold } from "./contact.js";
import { contactErrorIo, makeContact, singleContactManifold } from "./contact.js";
import { contactPair, manifoldPair } from "./pair-table.js";

const dirLocal = vec3.create();
const point = vec3.create();
const n = vec3.create();
const X = { x: 1, y: 0, z: 0 };
const pointLocal = vec3.create();

/** out = a point of convex B (posed by `bInA`) in A's frame: its support along its local +x. */
export function pointOfConvex(out: Vec3, b: ConvexShape, bInA: Isometry): Vec3 {
  // The support into this module's own vector, then iso.transformPoint's arithmetic written out
  // (bitwise the same): inlined here, quat.rotate's stores used that shared helper's megamorphic
  // feedback, a generic store that boxed each double, and reading the callers' `out` (vectors
  // of several maps, a field Smi in one and double in another) merged the loads at a tagged phi,
  // boxing them (issue 15: 1.6 KB per step in the six curved kinds' probe).
  const v = pointLocal;
  supportShape(v, b, X);
  const q = bInA.rotation;
  const t = bInA.translation;
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  const x = v.x + q.w * tx + (q.y * tz - q.z * ty);
  const y = v.y + q.w * ty + (q.z * tx - q.x * tz);
  const z = v.z + q.w * tz + (q.x * ty - q.y * tx);
  out.x = x + t.x;
  out.y = y + t.y;
  out.z = z + t.z;
  return out;
}

/** True when solid mesh `a` holds convex B (B touching none of `a`'s triangles). */
export function solidMeshHoldsConvex(a: TriangleMesh, b: ConvexShape, bInA: Isometry): boolean {
  return a.solid && containsPointTriangleMesh(a, pointOfConvex(point, b, bInA));
}

/** n = unit(pA − pB); false when the points coincide (the surfaces meet). */
function wayOut(pA: Vec3, pB: Vec3): boolean {
  vec3.sub(n, pA, pB);
  const l = vec3.length(n);
  if (!(l > 0)) return false;
  vec3.scale(n, n, 1 / l);
  return true;
}

/** c.normal = the way out unit(pA − pB) (+y when the points coincide); c.distance = 0. */
export function containedWayOut(c: Contact, pA: Vec3, pB: Vec3): void {
  if (!wayOut(pA, pB)) vec3.set(n, 0, 1, 0);
  vec3.copy(c.normal, n);
  c.distance = 0;
}

/**
 * The contact of convex B wholly inside solid mesh A, from the surfaces' closest points `pA`
 * (on the mesh) and `pB` (on B), A's frame (see the module doc). `out` may alias neither point.
 */
export function containedConvexContact(
  out: Contact,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
  pA: Vec3,
  pB: Vec3,
): void {
  if (!wayOut(pA, pB)) vec3.set(n, 0, 1, 0);
  // B's extreme point along −n, in A's frame.
  quat.inverseRotate(dirLocal, bInA.rotation, n);
  vec3.negate(dirLocal, dirLocal);
  supportShape(point, b, dirLocal);
  iso.transformPoint(point, bInA, point);
  vec3.copy(out.pointA, pA);
  vec3.copy(out.pointB, point);
  vec3.copy(out.normal, n);
  out.distance = Math.min(0, vec3.dot(n, point) - vec3.dot(n, pA));
  if (contactErrorIo[1] !== 0) certifyContained(out.distance, a, b, bInA);
}

const AXES = [
  vec3.create(1, 0, 0),
  vec3.create(-1, 0, 0),
  vec3.create(0, 1, 0),
  vec3.create(0, -1, 0),
  vec3.create(0, 0, 1),
  vec3.create(0, 0, -1),
];
const mean = vec3.create();
/** [0] the depth lower bound of the helpers below (a double kept out of the calls' frames). */
const lowerIo = new Float64Array(1);

/**
 * lowerIo[0] = max(lowerIo[0], the depth of `p` (`m`'s frame) inside solid mesh `m`): its
 * distance to the surface when inside, else unchanged. Every translation that moves a point at
 * that depth out of the solid is at least that long, so this bounds a penetration depth from
 * below.
 */
function deepenLower(m: TriangleMesh, p: Vec3): void {
  shapeDef(m.type).projectPoint?.(lowerProjection, m, p, false);
  if (lowerProjection.inside && lowerProjection.distance > lowerIo[0])
    lowerIo[0] = lowerProjection.distance;
}

const lowerProjection: PointProjection = {
  point: vec3.create(),
  distance: 0,
  inside: false,
  triangle: -1,
};

/**
 * The error register (src/narrowphase/contact.ts) for convex B wholly inside non-convex solid A
 * answered at `distance` (an upper bound of the depth, negated): the depth is at least the
 * deepest of B's points inside A (its six axis support points and their mean, in B by
 * convexity), so the error is at most −distance less that, plus the rounding band.
 */
function certifyContained(distance: number, a: TriangleMesh, b: ConvexShape, bInA: Isometry) {
  lowerIo[0] = 0;
  vec3.set(mean, 0, 0, 0);
  for (let k = 0; k < 6; k++) {
    supportShape(point, b, AXES[k]);
    vec3.add(mean, mean, point);
    iso.transformPoint(point, bInA, point);
    deepenLower(a, point);
  }
  vec3.scale(mean, mean, 1 / 6);
  iso.transformPoint(mean, bInA, mean);
  deepenLower(a, mean);
  const t = bInA.translation;
  const band =
    SOLID_TOUCH_ULPS *
    Number.EPSILON *
    (meshMagnitude(a) + Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z)) + lowerIo[0]);
  const bound = Math.max(0, -distance - lowerIo[0]) + band;
  if (bound > contactErrorIo[0]) contactErrorIo[0] = bound;
}

/** Offsets longer than this (and shorter than its inverse) are normalized by one division. */
const DIVIDE_MIN_LENGTH = 2 ** -500;

const projection: PointProjection = {
  point: vec3.create(),
  distance: 0,
  inside: false,
  triangle: -1,
};
const centre = vec3.create();

/**
 * The contact of sphere B (centre `bInA`'s translation) and solid mesh A from A's signed
 * distance at the centre (see the module doc), A's frame; its distance at most 0 (the caller
 * has found the sphere touching the surface or inside). False for a mesh without triangles.
 */
function sphereSolidContact(out: Contact, a: TriangleMesh, b: Sphere, bInA: Isometry): boolean {
  vec3.copy(centre, bInA.translation);
  shapeDef(a.type).projectPoint?.(projection, a, centre, false);
  const d = projection.distance;
  if (!(d < Infinity)) return false;
  const q = projection.point;
  vec3.sub(n, centre, q);
  if (projection.inside) vec3.negate(n, n);
  // Divided by its length (exact along an axis); tryNormalize rescales an offset whose square
  // underflows (1/d overflows for a subnormal d).
  const l = vec3.length(n);
  let unit = true;
  if (l > DIVIDE_MIN_LENGTH && l < 1 / DIVIDE_MIN_LENGTH) vec3.set(n, n.x / l, n.y / l, n.z / l);
  else unit = vec3.tryNormalize(n, n);
  if (!(d > 0) || !unit) {
    // The centre on the surface: the outward normal of its triangle.
    const t = projection.triangle ?? -1;
    if (t < 0 || meshTriangleNormal(n, a, t) === 0) vec3.set(n, 0, 1, 0);
    vec3.scale(n, n, a.pseudoNormals?.orientation ?? 1);
  }
  vec3.copy(out.pointA, q);
  vec3.addScaled(out.pointB, centre, n, -b.radius);
  vec3.copy(out.normal, n);
  out.distance = Math.min(0, (projection.inside ? -d : d) - b.radius);
  return true;
}

/**
 * The contact of support-mapped B crossing solid mesh A's surface or inside it, as the solid
 * (see the module doc), A's frame, within `prediction`: a sphere by the signed distance, another
 * shape against the convex hull of a convex solid. False when neither applies (a non-convex
 * solid and a shape other than a sphere) or the hull's pair finds nothing.
 */
export function solidMeshContact(
  out: Contact,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (b.type === ShapeType.Sphere) return sphereSolidContact(out, a, b as Sphere, bInA);
  const hull = convexSolidOfTriangleMesh(a);
  return hull !== null && contactPair(out, hull, b, bInA, prediction);
}

/**
 * The manifold of {@link solidMeshContact}: the hull's manifold for a convex solid, the sphere's
 * one point; false when neither applies. `scratch` holds the sphere's contact.
 */
export function solidMeshManifold(
  out: ContactManifold,
  scratch: Contact,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (b.type === ShapeType.Sphere) {
    if (!sphereSolidContact(scratch, a, b as Sphere, bInA)) return false;
    singleContactManifold(out, scratch);
    return true;
  }
  const hull = convexSolidOfTriangleMesh(a);
  return hull !== null && manifoldPair(out, hull, b, bInA, prediction);
}

// ---------------------------------------------------------------------------------------------
// Two solid meshes whose surfaces cross, one of them not convex (issue 16, session 25)
// ---------------------------------------------------------------------------------------------

const hullContact: Contact = /* @__PURE__ */ makeContact();
const dirB = vec3.create();
const topA = vec3.create();
const lowB = vec3.create();
const bestA = vec3.create();
const bestB = vec3.create();
const bestN = vec3.create();

/**
 * True when position (x, y, z) comes after `p` in lexicographic (x, y, z) order: the tie-break
 * of tied extreme vertices, so the witness is a function of the positions, not of their order
 * (−0 and +0 compare equal, as the weld has them).
 */
function lexAfter(x: number, y: number, z: number, p: Vec3): boolean {
  return x > p.x || (x === p.x && (y > p.y || (y === p.y && z > p.z)));
}

/** True when position `p` comes after `q` in lexicographic order (see {@link lexAfter}). */
function lexAfterVec(p: Vec3, q: Vec3): boolean {
  return lexAfter(p.x, p.y, p.z, q);
}

/**
 * out = the vertex of mesh `m` (its frame) farthest along `d`, of tied ones the last in
 * lexicographic order (the same for any order of the vertices); returns d·out.
 */
function vertexSupport(out: Vec3, m: TriangleMesh, d: Vec3): number {
  const v = m.vertices;
  let best = Number.NEGATIVE_INFINITY;
  vec3.set(out, 0, 0, 0);
  for (let o = 0; o < v.length; o += 3) {
    const x = v[o];
    const y = v[o + 1];
    const z = v[o + 2];
    const s = d.x * x + d.y * y + d.z * z;
    if (s > best || (s === best && lexAfter(x, y, z, out))) {
      best = s;
      vec3.set(out, x + 0, y + 0, z + 0);
    }
  }
  return best;
}

/**
 * The overlap along unit `u` (A's frame, from A toward B) of the vertex sets of A and B (B posed
 * by `bInA`): max_A u·x − min_B u·y, with those vertices in topA and lowB (A's frame). Moving B
 * by that much along u separates the convex hulls, so the solids too.
 */
function vertexOverlapAlong(a: TriangleMesh, b: TriangleMesh, bInA: Isometry, u: Vec3): number {
  vertexSupport(topA, a, u);
  quat.inverseRotate(dirB, bInA.rotation, u);
  vec3.negate(dirB, dirB);
  vertexSupport(lowB, b, dirB);
  iso.transformPoint(lowB, bInA, lowB);
  return vec3.dot(u, topA) - vec3.dot(u, lowB);
}

/** Keeps `u` as the best normal when its overlap is smaller than `best`; returns the new best. */
function tryNormal(a: TriangleMesh, b: TriangleMesh, bInA: Isometry, u: Vec3, best: number) {
  const d = vertexOverlapAlong(a, b, bInA, u);
  if (!(d < best)) return best;
  vec3.copy(bestN, u);
  vec3.copy(bestA, topA);
  vec3.copy(bestB, lowB);
  return d;
}

/** True for two solid meshes of which at least one is not convex (see {@link crossingSolidsContact}). */
export function isNonConvexSolidPair(a: Shape, b: Shape): boolean {
  return (
    a.type === ShapeType.TriangleMesh &&
    b.type === ShapeType.TriangleMesh &&
    (a as TriangleMesh).solid &&
    (b as TriangleMesh).solid &&
    (convexSolidOfTriangleMesh(a as TriangleMesh) === null ||
      convexSolidOfTriangleMesh(b as TriangleMesh) === null)
  );
}

/**
 * Solid meshes A and B (both `solid: true`, one not convex) whose solids overlap: `out` holds the
 * composite path's contact (its distance < 0 — the surfaces cross properly or one solid holds the
 * other) and is replaced by an upper bound of the solids' penetration depth with a normal that
 * achieves it. For a unit u the solids' overlap along u (the least push of B along u that parts
 * them) is at most max_A u·x − min_B u·y over their vertices (moving B that far parts the convex
 * hulls, which hold the solids); the answer is that bound at the better of two normals — the
 * composite contact's and the hulls' penetration normal (EPA on the hulls, which minimises the
 * bound over all directions) — with depth −distance = the bound, pointA A's extreme vertex and
 * pointB B's (so (pointB − pointA)·n = distance). Never less deep than the true depth; equal to it
 * when the hulls' overlap is the solids' (e.g. a non-convex part that does not reach into the
 * other). A's frame; allocates nothing after a mesh's first call (its hull, kept per mesh).
 */
export function crossingSolidsContact(
  out: Contact,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
): void {
  let best = tryNormal(a, b, bInA, out.normal, Number.POSITIVE_INFINITY);
  const hullA = positionHullOfTriangleMesh(a);
  const hullB = positionHullOfTriangleMesh(b);
  if (hullA !== null && hullB !== null && contactPair(hullContact, hullA, hullB, bInA, 0))
    best = tryNormal(a, b, bInA, hullContact.normal, best);
  if (!(best > 0) || !(best < Number.POSITIVE_INFINITY)) return;
  vec3.copy(out.normal, bestN);
  vec3.copy(out.pointA, bestA);
  vec3.copy(out.pointB, bestB);
  out.distance = -best;
  if (contactErrorIo[1] !== 0) certifySolids(best, a, b, bInA);
}

const vertexIn = vec3.create();

/**
 * The error register (src/narrowphase/contact.ts) for the solids' depth bound `best` of
 * {@link crossingSolidsContact}: a vertex of A inside B at depth δ (its distance to B's surface)
 * stays in B under every translation shorter than δ, and so does one of B inside A, so the
 * true depth is at least the deepest such vertex's δ, and the error at most `best` less that,
 * plus the rounding band ({@link solidTouchBand}). O(vertices) point projections, done only when
 * the `contact` query asks for the bound.
 */
function certifySolids(best: number, a: TriangleMesh, b: TriangleMesh, bInA: Isometry): void {
  lowerIo[0] = 0;
  const va = a.vertices;
  for (let o = 0; o < va.length; o += 3) {
    vec3.set(vertexIn, va[o], va[o + 1], va[o + 2]);
    iso.inverseTransformPoint(vertexIn, bInA, vertexIn);
    deepenLower(b, vertexIn);
  }
  const vb = b.vertices;
  for (let o = 0; o < vb.length; o += 3) {
    vec3.set(vertexIn, vb[o], vb[o + 1], vb[o + 2]);
    iso.transformPoint(vertexIn, bInA, vertexIn);
    deepenLower(a, vertexIn);
  }
  const bound = Math.max(0, best - lowerIo[0]) + solidTouchBand(a, b, bInA);
  if (bound > contactErrorIo[0]) contactErrorIo[0] = bound;
}

// ---------------------------------------------------------------------------------------------
// Two solid meshes whose surfaces only touch: touching or overlapping? (issue 16, session 26)
// ---------------------------------------------------------------------------------------------

/*
 * When no triangle pair of two solid meshes crosses properly, every triangle contact has depth 0
 * — the surfaces meet only in coplanar faces or along edges — and the solids may still overlap:
 * a unit cube inside the arm of an L, its faces on the L's, or two Ls at one pose. The solids
 * overlap exactly when (closed, consistently wound meshes):
 *
 * - two touching triangles are coplanar with the same outward side and overlap in an area: just
 *   behind that area lie both solids; two that face each other (opposite outward sides) only
 *   touch — two cubes sharing a face;
 * - or a point of one surface lies strictly inside the other solid (farther than rounding from
 *   its surface, on its inner side): the first solid's interior is next to that point. Each
 *   triangle of a touching pair is sampled at its centroid and at the three points halfway from
 *   it to the corners; a surface that enters the other solid without crossing its surface
 *   properly does so over whole regions of its triangles bounded by the other's edges and
 *   faces (the cube's inner face in the L's arm).
 *
 * Both tests are decided to the rounding of the meshes' coordinates in A's frame and of B's pose
 * there ({@link solidTouchBand}): an overlap thinner than that counts as touching.
 */

/** Rounding band of {@link touchingSolidsOverlap}, in ulps of the coordinates' magnitude. */
const SOLID_TOUCH_ULPS = 64;
/**
 * Its part relative to the smaller mesh's size: the rounding of the pose that placed B in A's
 * frame (two world poses composed at an offset of up to 2^22 sizes: coplanar faces 1.8e-15 apart
 * for cubes of 1e-3 at 10).
 */
const SOLID_TOUCH_RELATIVE = 2 ** -30;

const triA: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const triB: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const triOther: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const aInB: Isometry = iso.identity();
const normalA = vec3.create();
const normalB = vec3.create();
const edge = vec3.create();
const axis = vec3.create();
const sample = vec3.create();
const touchProjection: PointProjection = {
  point: vec3.create(),
  distance: 0,
  inside: false,
  triangle: -1,
};
/** Per mesh triangle, the call that last sampled it (each triangle sampled once a call). */
let sampledA = new Uint32Array(64);
let sampledB = new Uint32Array(64);
let touchCall = 0;

/**
 * The rounding band of two solid meshes' touch (B at `bInA`, A's frame; scene units):
 * `SOLID_TOUCH_ULPS` ulps of the magnitude of their coordinates there. A triangle contact no
 * deeper is a touch to rounding (faces made coplanar by rotations and offsets cross by a few
 * ulps), decided by {@link touchingSolidsOverlap}; a deeper one crosses properly.
 */
export function solidTouchBand(a: TriangleMesh, b: TriangleMesh, bInA: Isometry): number {
  const t = bInA.translation;
  const mag =
    Math.max(meshMagnitude(a), meshMagnitude(b)) +
    Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
  return (
    SOLID_TOUCH_ULPS * Number.EPSILON * mag +
    SOLID_TOUCH_RELATIVE * Math.min(meshExtent(a), meshExtent(b))
  );
}

/** The largest side of the mesh's box (its BVH's root box). */
function meshExtent(m: TriangleMesh): number {
  const b = m.bvh.bounds;
  if (m.bvh.nodeCount === 0) return 0;
  return Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
}

/** out = the unit normal of `t` times `side` (±1, the mesh's outward orientation); false if flat. */
function outwardNormal(out: Vec3, t: Triangle, side: number): boolean {
  vec3.sub(edge, t.b, t.a);
  vec3.sub(axis, t.c, t.a);
  vec3.cross(out, edge, axis);
  if (!vec3.tryNormalize(out, out)) return false;
  vec3.scale(out, out, side);
  return true;
}

/** True when every corner of `t` lies within `tol` of the plane through `p` with unit normal `n`. */
function onPlane(t: Triangle, p: Vec3, n: Vec3, tol: number): boolean {
  return (
    Math.abs(n.x * (t.a.x - p.x) + n.y * (t.a.y - p.y) + n.z * (t.a.z - p.z)) <= tol &&
    Math.abs(n.x * (t.b.x - p.x) + n.y * (t.b.y - p.y) + n.z * (t.b.z - p.z)) <= tol &&
    Math.abs(n.x * (t.c.x - p.x) + n.y * (t.c.y - p.y) + n.z * (t.c.z - p.z)) <= tol
  );
}

/**
 * True when the edge (v → w) of a triangle in the plane of unit normal `n` separates triangles
 * `s` and `t` (both in that plane) to within `tol`: their projections on the in-plane axis
 * (w − v) × n overlap by no more than tol.
 */
function separatesInPlane(v: Vec3, w: Vec3, n: Vec3, s: Triangle, t: Triangle, tol: number) {
  vec3.sub(edge, w, v);
  vec3.cross(axis, edge, n);
  const len = vec3.length(axis);
  if (!(len > 0)) return false;
  const sa = vec3.dot(axis, s.a);
  const sb = vec3.dot(axis, s.b);
  const sc = vec3.dot(axis, s.c);
  const ta = vec3.dot(axis, t.a);
  const tb = vec3.dot(axis, t.b);
  const tc = vec3.dot(axis, t.c);
  const band = tol * len;
  return (
    Math.min(ta, tb, tc) >= Math.max(sa, sb, sc) - band ||
    Math.min(sa, sb, sc) >= Math.max(ta, tb, tc) - band
  );
}

/**
 * True when triangles `s` (outward unit normal `ns`) and `t` (`nt`), one frame, lie in one plane
 * with the same outward side and overlap in an area wider than `tol` (see above).
 */
function coplanarSameSide(s: Triangle, ns: Vec3, t: Triangle, nt: Vec3, tol: number): boolean {
  if (!(vec3.dot(ns, nt) > 0)) return false;
  if (!onPlane(t, s.a, ns, tol) || !onPlane(s, t.a, nt, tol)) return false;
  return !(
    separatesInPlane(s.a, s.b, ns, s, t, tol) ||
    separatesInPlane(s.b, s.c, ns, s, t, tol) ||
    separatesInPlane(s.c, s.a, ns, s, t, tol) ||
    separatesInPlane(t.a, t.b, ns, s, t, tol) ||
    separatesInPlane(t.b, t.c, ns, s, t, tol) ||
    separatesInPlane(t.c, t.a, ns, s, t, tol)
  );
}

/**
 * True when a sample point of triangle `t` (in solid mesh `m`'s frame) lies inside `m` farther
 * than `tol` from its surface: the centroid and the points halfway from it to each corner.
 */
function sampleInside(m: TriangleMesh, t: Triangle, tol: number): boolean {
  const project = shapeDef(m.type).projectPoint;
  if (project === null) return false;
  for (let k = 0; k < 4; k++) {
    // Barycentric weights (1/3, 1/3, 1/3), then (2/3, 1/6, 1/6) and its turns.
    const wa = k === 0 ? 1 / 3 : k === 1 ? 2 / 3 : 1 / 6;
    const wb = k === 0 ? 1 / 3 : k === 2 ? 2 / 3 : 1 / 6;
    const wc = k === 0 ? 1 / 3 : k === 3 ? 2 / 3 : 1 / 6;
    sample.x = wa * t.a.x + wb * t.b.x + wc * t.c.x;
    sample.y = wa * t.a.y + wb * t.b.y + wc * t.c.y;
    sample.z = wa * t.a.z + wb * t.b.z + wc * t.c.z;
    project(touchProjection, m, sample, false);
    if (touchProjection.inside && touchProjection.distance > tol) return true;
  }
  return false;
}

/**
 * Whether solid meshes A and B (B at `bInA`, A's frame), whose surfaces meet with no triangle pair
 * crossing deeper than {@link solidTouchBand}, overlap as solids (true) or only touch (false): decided on their touching
 * triangle pairs, `count` pairs (A's triangle, B's) in `pairs` (see above). Allocates only to grow
 * its per-triangle marks for a mesh larger than any before.
 */
export function touchingSolidsOverlap(
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
  pairs: Uint32Array,
  count: number,
): boolean {
  if (!a.solid || !b.solid) return false;
  iso.invert(aInB, bInA);
  const tol = solidTouchBand(a, b, bInA);
  const sideA = a.pseudoNormals?.orientation ?? 1;
  const sideB = b.pseudoNormals?.orientation ?? 1;
  if (sampledA.length < a.triangleCount) sampledA = new Uint32Array(a.triangleCount);
  if (sampledB.length < b.triangleCount) sampledB = new Uint32Array(b.triangleCount);
  if (touchCall === 0xffffffff) {
    sampledA.fill(0);
    sampledB.fill(0);
    touchCall = 0;
  }
  const call = ++touchCall;
  for (let k = 0; k < count; k++) {
    const ia = pairs[2 * k];
    const ib = pairs[2 * k + 1];
    getMeshTriangle(a, ia, triA.a, triA.b, triA.c);
    getMeshTriangle(b, ib, triB.a, triB.b, triB.c);
    iso.transformPoint(triB.a, bInA, triB.a);
    iso.transformPoint(triB.b, bInA, triB.b);
    iso.transformPoint(triB.c, bInA, triB.c);
    if (
      outwardNormal(normalA, triA, sideA) &&
      outwardNormal(normalB, triB, sideB) &&
      coplanarSameSide(triA, normalA, triB, normalB, tol)
    )
      return true;
    if (sampledB[ib] !== call) {
      sampledB[ib] = call;
      if (sampleInside(a, triB, tol)) return true;
    }
    if (sampledA[ia] !== call) {
      sampledA[ia] = call;
      iso.transformPoint(triOther.a, aInB, triA.a);
      iso.transformPoint(triOther.b, aInB, triA.b);
      iso.transformPoint(triOther.c, aInB, triA.c);
      if (sampleInside(b, triOther, tol)) return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// A convex shape crossing, inside or lying in a non-convex solid mesh (issue 16, session 40)
// ---------------------------------------------------------------------------------------------

/*
 * The depth D of convex B in non-convex solid A is the least |v| over translations v that leave
 * B's interior disjoint from A's. No closed form; the contact reports a certified bracket
 * [lower, upper] as distance = −upper, errorBound = upper − lower (+ the rounding band):
 *
 * - lower: the deepest of B's sample points inside A ({@link sampleConvex}: its six axis support
 *   points, their mean and the points halfway from the mean to each, all in B by convexity), its
 *   distance to A's surface — every separating translation moves that point out of A, so it is
 *   at least that long; for the contact query's errorBound also deeper points of B found by
 *   {@link ascendLower}.
 * - upper: the least of the clearances found along a few candidate unit directions u (the
 *   triangle contact's normal, the nearest surface's way out when B is inside, the hulls'
 *   penetration normal, the six axes), then the planes' pushes ({@link tryPlanePushes}). Along u, two clearances are tried, each a translation
 *   t·u that provably parts the solids:
 *   the hull clearance max_A u·x − min_B u·y (B moved that far lies beyond the convex hull of
 *   A's vertices, which holds A), and the swept clearance ({@link sweptClearance}): t stepped
 *   through the triangles' plane offsets max_T u·x − min_B u·y and kept at the first t where B
 *   moved by t·u crosses no triangle deeper than the band and has no sample point inside A deeper
 *   than the band (B convex and crossing no triangle lies on one side of A's surface, and a point
 *   outside puts it outside). Every kept t is checked, so it is an upper bound whatever the steps.
 *   Witnesses: pointA a vertex of A (the hull's top vertex along u, or the vertex of the last
 *   stepped triangle), pointB B's support point along −u, so (pointB − pointA)·u = −t and each
 *   lies on its shape (the witnesses do not face each other in general); a plane push's pointA is
 *   the point of a nearby triangle's edge at its level ({@link surfaceAtLevel}).
 *
 * B meeting A's surface only in touching (no triangle contact deeper than the band, no sample
 * point inside deeper than it) is not a penetration: the caller keeps the triangles' contact.
 */

/** 13 sample points of B in A's frame (xyz), see {@link sampleConvex}. */
const samples = new Float64Array(39);
const sampleP = vec3.create();
const supportP = vec3.create();
/** [0] the band, [1] min_B u·y of the current direction, [2] the best upper bound. */
const boundIo = new Float64Array(3);

/**
 * samples = B's support points along its local ±x, ±y, ±z, their mean, and the points halfway
 * from the mean to each support point, posed by `bInA` (A's frame); lowerIo[0] = the deepest of
 * them inside A (0 if none).
 */
function sampleConvex(a: TriangleMesh, b: ConvexShape, bInA: Isometry): void {
  vec3.set(mean, 0, 0, 0);
  for (let k = 0; k < 6; k++) {
    supportShape(supportP, b, AXES[k]);
    iso.transformPoint(supportP, bInA, supportP);
    samples[3 * k] = supportP.x;
    samples[3 * k + 1] = supportP.y;
    samples[3 * k + 2] = supportP.z;
    vec3.add(mean, mean, supportP);
  }
  vec3.scale(mean, mean, 1 / 6);
  samples[18] = mean.x;
  samples[19] = mean.y;
  samples[20] = mean.z;
  for (let k = 0; k < 6; k++) {
    samples[21 + 3 * k] = 0.5 * (mean.x + samples[3 * k]);
    samples[22 + 3 * k] = 0.5 * (mean.y + samples[3 * k + 1]);
    samples[23 + 3 * k] = 0.5 * (mean.z + samples[3 * k + 2]);
  }
  lowerIo[0] = 0;
  deepestSample = 12;
  for (let k = 0; k < 13; k++) {
    vec3.set(sampleP, samples[3 * k], samples[3 * k + 1], samples[3 * k + 2]);
    const before = lowerIo[0];
    deepenLower(a, sampleP);
    if (lowerIo[0] > before) deepestSample = k;
  }
}

/** The sample of {@link sampleConvex} deepest inside A (the mean when none is inside). */
let deepestSample = 12;
const ascentP = vec3.create();
const ascentC = vec3.create();
const ascentLocal = vec3.create();
const ascentProjection: PointProjection = {
  point: vec3.create(),
  distance: 0,
  inside: false,
  triangle: -1,
};
/** Steps of {@link ascendLower}. */
const ASCENT_STEPS = 12;

/**
 * lowerIo[0] raised by a point of B deeper inside A than the samples: from a start p — `start`
 * 0 the deepest sample, 1 the centre of B's box taken into B, 2 the deepest of B's support
 * points along the 26 directions of its frame's 3 × 3 × 3 grid — steps away from p's nearest point q of A's surface (along (p − q)/|p − q|, where the
 * distance to the surface grows), each step's point taken back into B by B's own point
 * projection (its closest point of the solid B), kept when deeper; else, the new point nearer
 * another part of the surface, along the sum of the two ways out, and failing that the step
 * halved (ASCENT_STEPS steps from |p − q|). Every point it keeps lies in B, so its depth bounds the
 * solid's depth from below as a sample's does ({@link deepenLower}); the contact query's
 * errorBound only (no answer reads it).
 */
function ascendLower(a: TriangleMesh, b: ConvexShape, bInA: Isometry, start: number): void {
  const projectA = shapeDef(a.type).projectPoint;
  const projectB = shapeDef(b.type).projectPoint;
  if (projectA === null || projectB === null) return;
  if (start === 2) {
    // The deepest of B's support points along the 26 directions (±1, 0)³ of its frame.
    let deepest = -1;
    for (let c = 0; c < 27; c++) {
      if (c === 13) continue;
      vec3.set(dirB, (c % 3) - 1, (Math.floor(c / 3) % 3) - 1, Math.floor(c / 9) - 1);
      supportShape(ascentLocal, b, dirB);
      iso.transformPoint(ascentC, bInA, ascentLocal);
      projectA(lowerProjection, a, ascentC, false);
      if (lowerProjection.inside && lowerProjection.distance > deepest) {
        deepest = lowerProjection.distance;
        vec3.copy(ascentP, ascentC);
      }
    }
    if (deepest < 0) return;
  } else if (start === 1) {
    // The centre of B's box (A's frame), taken into B.
    vec3.set(
      ascentC,
      0.5 * (bAabb.min.x + bAabb.max.x),
      0.5 * (bAabb.min.y + bAabb.max.y),
      0.5 * (bAabb.min.z + bAabb.max.z),
    );
    iso.inverseTransformPoint(ascentLocal, bInA, ascentC);
    projectB(lowerProjection, b, ascentLocal, true);
    iso.transformPoint(ascentP, bInA, lowerProjection.point);
  } else {
    const k = deepestSample;
    vec3.set(ascentP, samples[3 * k], samples[3 * k + 1], samples[3 * k + 2]);
  }
  projectA(ascentProjection, a, ascentP, false);
  if (!ascentProjection.inside) return;
  let depth = ascentProjection.distance;
  if (depth > lowerIo[0]) lowerIo[0] = depth;
  let step = depth;
  for (let i = 0; i < ASCENT_STEPS && depth > 0 && step > 0; i++) {
    // Away from the nearest surface point, then into B.
    const q = ascentProjection.point;
    const f = step / depth;
    vec3.set(
      ascentC,
      ascentP.x + f * (ascentP.x - q.x),
      ascentP.y + f * (ascentP.y - q.y),
      ascentP.z + f * (ascentP.z - q.z),
    );
    iso.inverseTransformPoint(ascentLocal, bInA, ascentC);
    projectB(lowerProjection, b, ascentLocal, true);
    iso.transformPoint(ascentC, bInA, lowerProjection.point);
    projectA(lowerProjection, a, ascentC, false);
    if (!(lowerProjection.inside && lowerProjection.distance > depth) && lowerProjection.inside) {
      // Nearer another part of the surface (a ridge of the distance): away from both nearest
      // points, along the sum of the two unit directions.
      const q2 = lowerProjection.point;
      const l1 = depth;
      const l2 = lowerProjection.distance;
      if (l2 > 0) {
        const gx = (ascentP.x - q.x) / l1 + (ascentC.x - q2.x) / l2;
        const gy = (ascentP.y - q.y) / l1 + (ascentC.y - q2.y) / l2;
        const gz = (ascentP.z - q.z) / l1 + (ascentC.z - q2.z) / l2;
        const g = Math.sqrt(gx * gx + gy * gy + gz * gz);
        if (g > 0) {
          const h = step / g;
          vec3.set(ascentC, ascentP.x + h * gx, ascentP.y + h * gy, ascentP.z + h * gz);
          iso.inverseTransformPoint(ascentLocal, bInA, ascentC);
          projectB(lowerProjection, b, ascentLocal, true);
          iso.transformPoint(ascentC, bInA, lowerProjection.point);
          projectA(lowerProjection, a, ascentC, false);
        }
      }
    }
    if (lowerProjection.inside && lowerProjection.distance > depth) {
      depth = lowerProjection.distance;
      vec3.copy(ascentP, ascentC);
      vec3.copy(ascentProjection.point, lowerProjection.point);
      ascentProjection.distance = depth;
      if (depth > lowerIo[0]) lowerIo[0] = depth;
    } else step *= 0.5;
  }
}

/** True when no sample point moved by t·u lies inside A deeper than `band`. */
function samplesOutside(a: TriangleMesh, u: Vec3, t: number, band: number): boolean {
  const project = shapeDef(a.type).projectPoint;
  if (project === null) return false;
  for (let k = 0; k < 13; k++) {
    vec3.set(
      sampleP,
      samples[3 * k] + t * u.x,
      samples[3 * k + 1] + t * u.y,
      samples[3 * k + 2] + t * u.z,
    );
    project(lowerProjection, a, sampleP, false);
    if (lowerProjection.inside && lowerProjection.distance > band) return false;
  }
  return true;
}

const sweepHits: MeshBvhHits = /* @__PURE__ */ makeMeshBvhHits();
const sweepTri: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const sweepContact: Contact = /* @__PURE__ */ makeContact();
const shifted: Isometry = iso.identity();
const boxLo = vec3.create();
const boxHi = vec3.create();
const stepVertex = vec3.create();
const sweptVertex = vec3.create();
const bAabb: Aabb = { min: vec3.create(), max: vec3.create() };
/** Steps of {@link sweptClearance} per direction. */
const SWEEP_STEPS = 8;

const crossN = vec3.create();
const crossEdge = vec3.create();
const crossDir = vec3.create();
const crossP = vec3.create();

/**
 * True when convex B (posed by `pose`, A's frame) crosses triangle `t` (A's frame) deeper than
 * `band`: the pair's contact depth beyond it. B's extent along the triangle's normal is read
 * first: when B lies on one side of the triangle's plane to within the band, its overlap along
 * that axis — which bounds the separating-axis depth from above — is at most the band, and the
 * pair's contact (its witnesses and closest features, most of a sweep's time) is not asked.
 */
function crossesTriangle(t: Triangle, b: ConvexShape, pose: Isometry, band: number): boolean {
  vec3.sub(crossEdge, t.b, t.a);
  vec3.sub(crossN, t.c, t.a);
  vec3.cross(crossN, crossEdge, crossN);
  if (vec3.tryNormalize(crossN, crossN)) {
    const d = vec3.dot(crossN, t.a);
    quat.inverseRotate(crossDir, pose.rotation, crossN);
    supportShape(crossP, b, crossDir);
    iso.transformPoint(crossP, pose, crossP);
    if (!(vec3.dot(crossN, crossP) - d > band)) return false;
    vec3.negate(crossDir, crossDir);
    supportShape(crossP, b, crossDir);
    iso.transformPoint(crossP, pose, crossP);
    if (!(d - vec3.dot(crossN, crossP) > band)) return false;
  }
  return contactPair(sweepContact, t, b, pose, 0) && sweepContact.distance < -band;
}

/**
 * The corner of triangle `t` farthest along u into stepVertex, of tied corners the last in
 * lexicographic order (the same for any order of the corners); returns u·that corner.
 */
function triangleTop(t: Triangle, u: Vec3): number {
  let best = vec3.dot(u, t.a);
  vec3.set(stepVertex, t.a.x + 0, t.a.y + 0, t.a.z + 0);
  best = cornerAbove(t.b, u, best);
  return cornerAbove(t.c, u, best);
}

/** stepVertex = corner p when it is farther along u than `best` (or tied, lexicographically after). */
function cornerAbove(p: Vec3, u: Vec3, best: number): number {
  const s = vec3.dot(u, p);
  if (s > best || (s === best && lexAfter(p.x, p.y, p.z, stepVertex))) {
    vec3.set(stepVertex, p.x + 0, p.y + 0, p.z + 0);
    return s;
  }
  return best;
}

/** [0] the step t of {@link queryShiftedBox} (a typed array: no double crosses the call). */
const shiftIo = new Float64Array(1);

/**
 * A sweep step's candidates: sweepHits = the triangles of A whose boxes meet B's box (bAabb,
 * A's frame) moved by t·u (t = shiftIo[0]) and padded by the band boundIo[0]; shifted = bInA
 * moved by t·u.
 */
function queryShiftedBox(a: TriangleMesh, bInA: Isometry, u: Vec3): void {
  const band = boundIo[0];
  const t = shiftIo[0];
  queryMeshBvhAabb(
    sweepHits,
    a.bvh,
    bAabb.min.x + t * u.x - band,
    bAabb.min.y + t * u.y - band,
    bAabb.min.z + t * u.z - band,
    bAabb.max.x + t * u.x + band,
    bAabb.max.y + t * u.y + band,
    bAabb.max.z + t * u.z + band,
  );
  iso.copy(shifted, bInA);
  vec3.addScaled(shifted.translation, bInA.translation, u, t);
}

/**
 * The swept clearance of B along unit u (see above): the first checked t in [0, tMax) at which B
 * moved by t·u crosses no triangle of A deeper than boundIo[0] and lies outside A; the vertex
 * of A that set it in sweptVertex. Returns +Infinity when none is found within SWEEP_STEPS
 * steps. boundIo[1] holds min_B u·y (A's frame). The error register is left as found.
 */
function sweptClearance(a: TriangleMesh, b: ConvexShape, bInA: Isometry, u: Vec3, tMax: number) {
  const band = boundIo[0];
  const minB = boundIo[1];
  const e0 = contactErrorIo[0];
  const e1 = contactErrorIo[1];
  contactErrorIo[1] = 0;
  aabbShape(bAabb, b, bInA);
  let t = 0;
  let found = Number.POSITIVE_INFINITY;
  vec3.set(sweptVertex, 0, 0, 0);
  for (let step = 0; step < SWEEP_STEPS && t < tMax; step++) {
    // Triangles near B moved by t·u (its box, padded by the band).
    shiftIo[0] = t;
    queryShiftedBox(a, bInA, u);
    let next = t;
    let crossed = false;
    for (let h = 0; h < sweepHits.count; h++) {
      getMeshTriangle(a, sweepHits.ids[h], sweepTri.a, sweepTri.b, sweepTri.c);
      if (!crossesTriangle(sweepTri, b, shifted, band)) continue;
      crossed = true;
      const top = triangleTop(sweepTri, u) - minB;
      if (top > next || (top === next && top > t && lexAfterVec(stepVertex, sweptVertex))) {
        next = top;
        vec3.copy(sweptVertex, stepVertex);
      }
    }
    if (!crossed) {
      if (samplesOutside(a, u, t, band)) found = t;
      else {
        // Wholly inside at t: on to the nearest triangle plane offset ahead within the sweep.
        vec3.set(
          boxLo,
          Math.min(bAabb.min.x, bAabb.min.x + tMax * u.x),
          Math.min(bAabb.min.y, bAabb.min.y + tMax * u.y),
          Math.min(bAabb.min.z, bAabb.min.z + tMax * u.z),
        );
        vec3.set(
          boxHi,
          Math.max(bAabb.max.x, bAabb.max.x + tMax * u.x),
          Math.max(bAabb.max.y, bAabb.max.y + tMax * u.y),
          Math.max(bAabb.max.z, bAabb.max.z + tMax * u.z),
        );
        queryMeshBvhAabb(sweepHits, a.bvh, boxLo.x, boxLo.y, boxLo.z, boxHi.x, boxHi.y, boxHi.z);
        let ahead = Number.POSITIVE_INFINITY;
        for (let h = 0; h < sweepHits.count; h++) {
          getMeshTriangle(a, sweepHits.ids[h], sweepTri.a, sweepTri.b, sweepTri.c);
          const top = triangleTop(sweepTri, u) - minB;
          if (
            top > t + band &&
            (top < ahead || (top === ahead && lexAfterVec(stepVertex, sweptVertex)))
          ) {
            ahead = top;
            vec3.copy(sweptVertex, stepVertex);
          }
        }
        if (ahead < tMax) {
          t = ahead;
          continue;
        }
      }
      break;
    }
    if (!(next > t)) break;
    t = next;
  }
  contactErrorIo[0] = e0;
  contactErrorIo[1] = e1;
  return found;
}

const candidateU = vec3.create();
const lowOfB = vec3.create();

/**
 * Tries unit direction `u` (A's frame, from A toward B): the hull and swept clearances of B
 * along it (see above); keeps the least below boundIo[2] with its witnesses in bestN, bestA,
 * bestB.
 */
function tryClearance(a: TriangleMesh, b: ConvexShape, bInA: Isometry, u: Vec3): void {
  const l = vec3.length(u);
  if (!(l > 0) || !(l < Number.POSITIVE_INFINITY)) return;
  vec3.scale(candidateU, u, 1 / l);
  const top = vertexSupport(topA, a, candidateU);
  quat.inverseRotate(dirB, bInA.rotation, candidateU);
  vec3.negate(dirB, dirB);
  supportShape(lowOfB, b, dirB);
  iso.transformPoint(lowOfB, bInA, lowOfB);
  const minB = vec3.dot(candidateU, lowOfB);
  const hull = top - minB;
  if (Number.isNaN(hull)) return;
  if (hull < boundIo[2]) {
    boundIo[2] = hull;
    vec3.copy(bestN, candidateU);
    vec3.copy(bestA, topA);
    vec3.copy(bestB, lowOfB);
  }
  boundIo[1] = minB;
  const swept = sweptClearance(a, b, bInA, candidateU, Math.min(hull, boundIo[2]));
  if (swept < boundIo[2]) {
    boundIo[2] = swept;
    vec3.copy(bestN, candidateU);
    vec3.copy(bestB, lowOfB);
    if (swept > 0) vec3.copy(bestA, sweptVertex);
    else vec3.copy(bestA, lowOfB);
  }
}

// The planes' pushes (session 41): B wholly inside A near a re-entrant edge or corner leaves
// the solid fastest across it — the L's arm beside its foot: moved along the bisector of the
// arm's side and the foot's top, not along either face's normal, where the other part blocks
// it. For the planes P_i (outward unit normal n_i, offset d_i) of the triangles near B, the
// push h_i = d_i − min_B n_i·y moves B along n_i beyond P_i; B moved by v lies beyond P_i when
// n_i·v ≥ h_i, and the shortest v beyond one, two or three of them is h_i·n_i, or the point of
// their planes' intersection {n_i·v = h_i} nearest 0 (v = Σ α_i n_i over the Gram matrix, all
// α_i ≥ 0): the least push into the wedge or corner of empty space those planes bound. Each
// such v shorter than the best clearance so far is a candidate, checked like a sweep step (B
// moved by v crosses no triangle deeper than the band, no sample point inside), shortest first.

/** Planes kept (the least pushes), triangles read, candidates checked per call. */
const PLANE_CAP = 12;
const NEAR_TRIANGLE_CAP = 96;
const CERTIFY_CAP = 8;
/** Candidates: PLANE_CAP singles, pairs and triples. */
const CANDIDATE_CAP = PLANE_CAP + (PLANE_CAP * (PLANE_CAP - 1)) / 2 + 220;
/** The planes: unit outward normal (xyz), offset, push; sorted by push. */
const planeN = new Float64Array(3 * PLANE_CAP);
const planeD = new Float64Array(PLANE_CAP);
const planeH = new Float64Array(PLANE_CAP);
/** The candidate pushes v (xyz) and |v|; a checked one's length set to +Infinity. */
const candV = new Float64Array(3 * CANDIDATE_CAP);
const candL = new Float64Array(CANDIDATE_CAP);
const nearHits: MeshBvhHits = /* @__PURE__ */ makeMeshBvhHits();
const planeNormal = vec3.create();
const planeLow = vec3.create();
const candU = vec3.create();
const levelQ = vec3.create();
const crossing = vec3.create();

/**
 * True when plane (n, d, h) comes before kept plane k: the lesser push, ties by the normal's
 * and the offset's coordinates (so no triangle order decides which are kept).
 */
function planeBefore(n: Vec3, d: number, h: number, k: number): boolean {
  if (h !== planeH[k]) return h < planeH[k];
  if (n.x !== planeN[3 * k]) return n.x < planeN[3 * k];
  if (n.y !== planeN[3 * k + 1]) return n.y < planeN[3 * k + 1];
  if (n.z !== planeN[3 * k + 2]) return n.z < planeN[3 * k + 2];
  return d < planeD[k];
}

/**
 * Gathers into planeN/planeD/planeH the planes of A's triangles near B (its box widened by
 * `reach`, narrowed while more than NEAR_TRIANGLE_CAP triangles meet it) whose push is in
 * (band, reach): the PLANE_CAP least, one per plane (normals within 1e-12 and offsets within
 * the band one plane, the larger push kept). Returns their count; the triangles stay in
 * nearHits.
 */
function gatherPlanes(a: TriangleMesh, b: ConvexShape, bInA: Isometry, reach: number): number {
  const band = boundIo[0];
  let r = reach;
  for (let k = 0; ; k++) {
    queryMeshBvhAabb(
      nearHits,
      a.bvh,
      bAabb.min.x - r,
      bAabb.min.y - r,
      bAabb.min.z - r,
      bAabb.max.x + r,
      bAabb.max.y + r,
      bAabb.max.z + r,
    );
    if (nearHits.count <= NEAR_TRIANGLE_CAP) break;
    if (k === 6) return 0;
    r *= 0.25;
  }
  const side = a.pseudoNormals?.orientation ?? 1;
  let count = 0;
  for (let h = 0; h < nearHits.count; h++) {
    const id = nearHits.ids[h];
    if (meshTriangleNormal(planeNormal, a, id) === 0) continue;
    vec3.scale(planeNormal, planeNormal, side);
    getMeshTriangle(a, id, sweepTri.a, sweepTri.b, sweepTri.c);
    const d = vec3.dot(planeNormal, sweepTri.a);
    quat.inverseRotate(dirB, bInA.rotation, planeNormal);
    vec3.negate(dirB, dirB);
    supportShape(planeLow, b, dirB);
    iso.transformPoint(planeLow, bInA, planeLow);
    const push = d - vec3.dot(planeNormal, planeLow);
    if (!(push > band) || !(push < reach)) continue;
    // One plane per set of (nearly) equal normals and offsets: the larger push kept.
    let same = -1;
    for (let k = 0; k < count; k++) {
      const c =
        planeN[3 * k] * planeNormal.x +
        planeN[3 * k + 1] * planeNormal.y +
        planeN[3 * k + 2] * planeNormal.z;
      if (c > 1 - 1e-12 && Math.abs(planeD[k] - d) <= band) {
        same = k;
        break;
      }
    }
    if (same >= 0) {
      if (
        !(push > planeH[same] || (push === planeH[same] && planeBefore(planeNormal, d, push, same)))
      )
        continue;
      // Out of the sorted list, then in again with the larger push.
      for (let k = same; k + 1 < count; k++) movePlane(k, k + 1);
      count--;
    }
    if (count === PLANE_CAP && !planeBefore(planeNormal, d, push, count - 1)) continue;
    let at = count < PLANE_CAP ? count : count - 1;
    while (at > 0 && planeBefore(planeNormal, d, push, at - 1)) {
      movePlane(at, at - 1);
      at--;
    }
    planeN[3 * at] = planeNormal.x;
    planeN[3 * at + 1] = planeNormal.y;
    planeN[3 * at + 2] = planeNormal.z;
    planeD[at] = d;
    planeH[at] = push;
    if (count < PLANE_CAP) count++;
  }
  return count;
}

/** Plane slot `to` = plane slot `from`. */
function movePlane(to: number, from: number): void {
  planeN[3 * to] = planeN[3 * from];
  planeN[3 * to + 1] = planeN[3 * from + 1];
  planeN[3 * to + 2] = planeN[3 * from + 2];
  planeD[to] = planeD[from];
  planeH[to] = planeH[from];
}

/** Appends candidate push v = (x, y, z) when shorter than `limit`; returns the new count. */
function addCandidate(count: number, x: number, y: number, z: number, limit: number): number {
  const l = Math.sqrt(x * x + y * y + z * z);
  if (!(l > 0) || !(l < limit) || count === CANDIDATE_CAP) return count;
  candV[3 * count] = x;
  candV[3 * count + 1] = y;
  candV[3 * count + 2] = z;
  candL[count] = l;
  return count + 1;
}

/** The least |Gram| determinant taken as independent (normals 1e-3 rad or more apart). */
const GRAM_MIN = 1e-6;

/**
 * The candidate pushes of the `planes` kept (see above) shorter than `limit`: each plane's own,
 * each pair's and each triple's nearest common point with all weights ≥ 0. Returns the count.
 */
function planeCandidates(planes: number, limit: number): number {
  let count = 0;
  for (let i = 0; i < planes; i++) {
    const hi = planeH[i];
    count = addCandidate(
      count,
      hi * planeN[3 * i],
      hi * planeN[3 * i + 1],
      hi * planeN[3 * i + 2],
      limit,
    );
    for (let j = i + 1; j < planes; j++) {
      const hj = planeH[j];
      const cij =
        planeN[3 * i] * planeN[3 * j] +
        planeN[3 * i + 1] * planeN[3 * j + 1] +
        planeN[3 * i + 2] * planeN[3 * j + 2];
      const det = 1 - cij * cij;
      if (!(det > GRAM_MIN)) continue;
      const wi = (hi - cij * hj) / det;
      const wj = (hj - cij * hi) / det;
      if (wi < 0 || wj < 0) continue;
      count = addCandidate(
        count,
        wi * planeN[3 * i] + wj * planeN[3 * j],
        wi * planeN[3 * i + 1] + wj * planeN[3 * j + 1],
        wi * planeN[3 * i + 2] + wj * planeN[3 * j + 2],
        limit,
      );
      for (let k = j + 1; k < planes; k++) {
        // The triple: v = Σ w n with n_m·v = h_m, Gram matrix [1 cij cik; cij 1 cjk; cik cjk 1].
        const hk = planeH[k];
        const cik =
          planeN[3 * i] * planeN[3 * k] +
          planeN[3 * i + 1] * planeN[3 * k + 1] +
          planeN[3 * i + 2] * planeN[3 * k + 2];
        const cjk =
          planeN[3 * j] * planeN[3 * k] +
          planeN[3 * j + 1] * planeN[3 * k + 1] +
          planeN[3 * j + 2] * planeN[3 * k + 2];
        const g = 1 + 2 * cij * cik * cjk - cij * cij - cik * cik - cjk * cjk;
        if (!(g > GRAM_MIN)) continue;
        // Cramer's rule over the adjugate of the Gram matrix.
        const w1 = ((1 - cjk * cjk) * hi + (cik * cjk - cij) * hj + (cij * cjk - cik) * hk) / g;
        const w2 = ((cik * cjk - cij) * hi + (1 - cik * cik) * hj + (cij * cik - cjk) * hk) / g;
        const w3 = ((cij * cjk - cik) * hi + (cij * cik - cjk) * hj + (1 - cij * cij) * hk) / g;
        if (w1 < 0 || w2 < 0 || w3 < 0) continue;
        count = addCandidate(
          count,
          w1 * planeN[3 * i] + w2 * planeN[3 * j] + w3 * planeN[3 * k],
          w1 * planeN[3 * i + 1] + w2 * planeN[3 * j + 1] + w3 * planeN[3 * k + 1],
          w1 * planeN[3 * i + 2] + w2 * planeN[3 * j + 2] + w3 * planeN[3 * k + 2],
          limit,
        );
      }
    }
  }
  return count;
}

/**
 * True when B moved by t·u (unit u, A's frame) crosses no triangle of A deeper than the band
 * and no sample point of it lies inside A deeper than it (a sweep step's check, see
 * {@link sweptClearance}). The error register is left as found.
 */
function clearsAt(a: TriangleMesh, b: ConvexShape, bInA: Isometry, u: Vec3, t: number): boolean {
  const band = boundIo[0];
  const e0 = contactErrorIo[0];
  const e1 = contactErrorIo[1];
  contactErrorIo[1] = 0;
  shiftIo[0] = t;
  queryShiftedBox(a, bInA, u);
  let clear = true;
  for (let h = 0; h < sweepHits.count && clear; h++) {
    getMeshTriangle(a, sweepHits.ids[h], sweepTri.a, sweepTri.b, sweepTri.c);
    if (crossesTriangle(sweepTri, b, shifted, band)) clear = false;
  }
  contactErrorIo[0] = e0;
  contactErrorIo[1] = e1;
  return clear && samplesOutside(a, u, t, band);
}

/**
 * bestA = the point of the triangles in nearHits at level u·x = c nearest `q` (on an edge
 * crossing that level), ties by coordinates; q itself when none crosses it.
 */
function surfaceAtLevel(a: TriangleMesh, u: Vec3, c: number, q: Vec3): void {
  let best = Number.POSITIVE_INFINITY;
  vec3.copy(bestA, q);
  for (let h = 0; h < nearHits.count; h++) {
    getMeshTriangle(a, nearHits.ids[h], sweepTri.a, sweepTri.b, sweepTri.c);
    for (let e = 0; e < 3; e++) {
      const p0 = e === 0 ? sweepTri.a : e === 1 ? sweepTri.b : sweepTri.c;
      const p1 = e === 0 ? sweepTri.b : e === 1 ? sweepTri.c : sweepTri.a;
      const s0 = vec3.dot(u, p0) - c;
      const s1 = vec3.dot(u, p1) - c;
      if (s0 > 0 === s1 > 0 && s0 !== 0 && s1 !== 0) continue;
      if (s0 === s1) vec3.copy(crossing, p0);
      else vec3.lerp(crossing, p0, p1, Math.min(1, Math.max(0, s0 / (s0 - s1))));
      const d = vec3.distanceSq(crossing, q);
      if (d < best || (d === best && lexAfterVec(crossing, bestA))) {
        best = d;
        vec3.copy(bestA, crossing);
      }
    }
  }
}

/**
 * The planes' pushes (see above): the shortest candidate push below boundIo[2] that checks out
 * becomes the best clearance, its direction bestN, bestB B's support point along −u and bestA
 * the surface point at its level (u·bestA = u·bestB + t) nearest bestB moved by the push.
 */
function tryPlanePushes(a: TriangleMesh, b: ConvexShape, bInA: Isometry): void {
  const limit = boundIo[2] - boundIo[0];
  if (!(limit > 0) || !(limit < Number.POSITIVE_INFINITY)) return;
  const planes = gatherPlanes(a, b, bInA, limit);
  if (planes === 0) return;
  const count = planeCandidates(planes, limit);
  for (let tries = 0; tries < CERTIFY_CAP; tries++) {
    // The shortest unchecked candidate, ties by coordinates.
    let k = -1;
    for (let c = 0; c < count; c++) {
      if (!(candL[c] < Number.POSITIVE_INFINITY)) continue;
      if (
        k < 0 ||
        candL[c] < candL[k] ||
        (candL[c] === candL[k] &&
          lexAfter(candV[3 * k], candV[3 * k + 1], candV[3 * k + 2], vecOf(candU, c)))
      )
        k = c;
    }
    if (k < 0) return;
    const t = candL[k];
    candL[k] = Number.POSITIVE_INFINITY;
    vec3.set(candU, candV[3 * k] / t, candV[3 * k + 1] / t, candV[3 * k + 2] / t);
    if (!clearsAt(a, b, bInA, candU, t)) continue;
    boundIo[2] = t;
    vec3.copy(bestN, candU);
    quat.inverseRotate(dirB, bInA.rotation, candU);
    vec3.negate(dirB, dirB);
    supportShape(bestB, b, dirB);
    iso.transformPoint(bestB, bInA, bestB);
    vec3.addScaled(levelQ, bestB, candU, t);
    surfaceAtLevel(a, candU, vec3.dot(candU, bestB) + t, levelQ);
    return;
  }
}

/** out = candidate c's push (xyz). */
function vecOf(out: Vec3, c: number): Vec3 {
  return vec3.set(out, candV[3 * c], candV[3 * c + 1], candV[3 * c + 2]);
}

/**
 * The contact of convex B (posed by `bInA`, A's frame) and non-convex solid mesh A when B
 * crosses A's surface, lies inside it, or lies on its faces with points inside (see above):
 * distance = −(the least certified clearance), normal its direction, witnesses a vertex of A
 * and B's support point; the error register raised to that less the deepest sample point's
 * depth, plus the band. `seed` is the caller's contact (the deepest triangle's, or the way out
 * of an enclosed B), whose normal is tried first; `inside` says B is known to lie inside A.
 * False, `out` untouched, when B only touches A's surface (no triangle crossed deeper than the
 * band, no sample point inside deeper than it) and is not inside. `out` may be `seed`.
 */
export function boundedSolidContact(
  out: Contact,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
  seed: Contact,
  inside: boolean,
): boolean {
  sampleConvex(a, b, bInA);
  const lower = lowerIo[0];
  const t = bInA.translation;
  aabbShape(bAabb, b, bInA);
  const sizeB = Math.max(
    bAabb.max.x - bAabb.min.x,
    bAabb.max.y - bAabb.min.y,
    bAabb.max.z - bAabb.min.z,
  );
  const band =
    SOLID_TOUCH_ULPS *
      Number.EPSILON *
      (meshMagnitude(a) + Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z)) + sizeB) +
    SOLID_TOUCH_RELATIVE * Math.min(meshExtent(a), sizeB);
  if (!inside && !(seed.distance < -band) && !(lower > band)) return false;
  boundIo[0] = band;
  boundIo[2] = Number.POSITIVE_INFINITY;
  vec3.copy(n, seed.normal);
  tryClearance(a, b, bInA, n);
  // Done when the bracket is already closed to the band (a shape resting a little into the
  // surface: the seed's normal clears it by the depth of its deepest sample corner).
  if (!(boundIo[2] <= lower + band)) {
    // The hulls' penetration normal (its own error register entry is not this answer's).
    const e0 = contactErrorIo[0];
    const e1 = contactErrorIo[1];
    contactErrorIo[1] = 0;
    const hullA = positionHullOfTriangleMesh(a);
    const hullMet = hullA !== null && contactPair(hullContact, hullA, b, bInA, 0);
    contactErrorIo[0] = e0;
    contactErrorIo[1] = e1;
    if (hullMet) tryClearance(a, b, bInA, hullContact.normal);
    for (let k = 0; k < 6 && !(boundIo[2] <= lower + band); k++) tryClearance(a, b, bInA, AXES[k]);
    if (!(boundIo[2] <= lower + band)) tryPlanePushes(a, b, bInA);
  }
  const best = boundIo[2];
  if (!(best < Number.POSITIVE_INFINITY)) return false;
  vec3.copy(out.normal, bestN);
  vec3.copy(out.pointA, bestA);
  vec3.copy(out.pointB, bestB);
  out.distance = -Math.max(0, best);
  if (contactErrorIo[1] !== 0) {
    // A deeper point of B than the samples, when the bracket is open.
    lowerIo[0] = lower;
    for (let k = 0; k < 3 && best > lowerIo[0] + band; k++) ascendLower(a, b, bInA, k);
    const bound = Math.max(0, best - Math.max(lower, lowerIo[0])) + band;
    if (bound > contactErrorIo[0]) contactErrorIo[0] = bound;
  }
  return true;
}
