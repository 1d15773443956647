/**
 * Contact manifolds by reference-face / incident-face clipping (Box2D, Bullet, Jolt).
 *
 * The narrow phase (SAT, GJK/EPA, an analytic pair routine) finds one contact: a normal from A
 * to B, a signed distance and witness points. A resting box needs more than one point, so this
 * module widens that contact into a manifold of up to 4 points:
 *
 * 1. Each shape's supporting feature along the normal (A along +n, B along −n): a polygon
 *    (a box face, a hull face, the triangle, a cylinder cap, a cone base), a segment (a
 *    capsule's core pushed out by its radius, a cylinder's or cone's side line, an edge), or a
 *    point (a sphere, a cone apex, any curved patch).
 * 2. The reference face is the polygon most aligned with the normal (ties favour A, within
 *    `MANIFOLD_REFERENCE_FACE_TOLERANCE`), provided it is aligned within `MANIFOLD_FEATURE_COS`
 *    and has an area (a face collapsed to a segment, of a box of zero thickness, gives way).
 *    The other feature, the incident one, is clipped against the reference face's side planes
 *    (planes through its edges containing the normal; Ericson 2005, §8.3.4).
 * 3. When no face is aligned (an edge–edge contact), polyhedral shapes fall back to their
 *    supporting edges; two parallel segments are clipped to each other's slab, and anything
 *    else is a single-point contact. Each clipped point of B's segment is paired with the point
 *    of A's segment abreast of it and their distance measured along the normal: both points lie
 *    on their segments even when the segments are offset sideways (a deep cone–cone or box-edge–
 *    cone contact, issue 16), and no point is deeper than the shapes' overlap along the normal.
 *    A pair apart sideways across the normal (segments not quite parallel, or offset) is made to
 *    face across it: the deeper of A's top along the normal on the line through B's point and
 *    B's bottom on the line through A's point, by the shapes' ray casts (`facingPair`), so
 *    pointB − pointA = distance·normal with both points on their shapes.
 * 4. Each clipped point p of a face contact is measured along the normal against the reference plane: its signed
 *    distance t is exact relative to that plane, the reference-side witness is p moved by t
 *    along the normal onto the plane, and points farther than the prediction distance plus a
 *    plane tolerance (`MANIFOLD_TOLERANCE`, or `MANIFOLD_RELATIVE_TOLERANCE` of the reference
 *    feature's size when that is smaller, so millimetre shapes keep their own scale) are dropped. The rest are reduced to at most 4 that keep the
 *    largest area (src/geometry/clip.ts).
 *
 * A clip that rounding emptied (features touching exactly, their coordinates a unit apart) is
 * done once more with the side planes moved out by `MANIFOLD_CLIP_SLACK_ULPS` ulps of the
 * features' largest coordinate. If nothing survives (a numerical corner case, or a point
 * feature), the manifold is the single given contact. Cylinder caps and cone bases are
 * approximated by an inscribed regular octagon that includes the exact deepest rim point; it
 * only chooses where manifold points go, and every point's distance is still computed exactly
 * against the reference plane. Points that leave the contact out (their deepest shallower than
 * it: a reference face among nearly parallel faces — a sliver hull's — bounds only its part of
 * the contact region; an octagon's sides cut off what reaches the rim between two vertices; a
 * cylinder's or cone's side line across a face tilted off the normal keeps only its part over
 * the face) are joined by the contact's own pair (`keepContactIf`), so the manifold's deepest
 * point is the contact's depth.
 *
 * Feature ids are deterministic integers below 2^53:
 * `((refIsB · 2^12 + refFeature) · 2^12 + incidentFeature) · 2^28 + vertexTag`, where features
 * are numbered per shape (box faces 0–5 as axis·2 + [negative side], box edges from 6, hull
 * faces by index and hull edges from faceCount, triangle face 0 and edges 1–3, capsule core 0,
 * cylinder caps 0 (+Y) and 1 (−Y) and side 2, cone base 0 and side 1) and vertex tags come from
 * the clipper (≥ 1, below 2^26 − 1, the contact's own pair's tag; a tag repeated within one
 * manifold, possible only in degenerate clips, gets 2^26 added per repeat). The single-contact fallback has feature id 0.
 */

import {
  MANIFOLD_CLIP_SLACK_ULPS,
  MANIFOLD_CONTACT_KEEP_DEPTH,
  MANIFOLD_CONTACT_KEEP_ULPS,
  MANIFOLD_FACE_AREA_ULPS,
  MANIFOLD_FACE_TILT_COS,
  MANIFOLD_FACING_ULPS,
  MANIFOLD_FEATURE_COS,
  MANIFOLD_PARALLEL_SIN,
  MANIFOLD_REFERENCE_FACE_TOLERANCE,
  MANIFOLD_RELATIVE_TOLERANCE,
  MANIFOLD_ROUNDED_SUPPORT_ULPS,
  MANIFOLD_TOLERANCE,
} from "../constants.js";
import {
  type ClipPolygon,
  clipPolygonAgainstPolygon,
  makeClipPolygon,
  reduceManifoldPoints,
  reserveClipPolygon,
} from "../geometry/clip.js";
import {
  FEATURE_NONE,
  FEATURE_POINT,
  FEATURE_POLYGON,
  FEATURE_SEGMENT,
  makeSupportFeature,
  type SupportFeature,
  setPoint,
} from "../geometry/feature.js";
import type { Isometry } from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { isPointFeatureType, isRoundedType, shapeDef } from "../shapes/registry.js";
import { type ConvexShape, ShapeType } from "../shapes/shape.js";
import type { LocalRayHit } from "../shapes/shape-def.js";
import type { Contact, ContactManifold } from "./contact.js";
import { MAX_MANIFOLD_POINTS, makeContact } from "./contact.js";
// The deferred shape operations this module calls (features, ray casts, point projections).
import "../shapes/defs/ops.js";

/** Vertices of the regular polygon inscribed in a cylinder cap or cone base (fixed at 8). */
export { MANIFOLD_CAP_POLYGON_VERTICES } from "../geometry/feature.js";

/** Relative width (times the point's coordinates) of a touching contact's point depths taken as 0. */
const MANIFOLD_TOUCH_BAND = 2 ** -36;

const FEATURE_FIELD = 4096;
const TAG_FIELD = 268435456;
/** Clipper tags stay below 2^26; the two bits above count repeats of a tag within a manifold. */
const DUPLICATE_TAG = 67108864;

const _NONE = FEATURE_NONE;
const _POINT = FEATURE_POINT;
const SEGMENT = FEATURE_SEGMENT;
const POLYGON = FEATURE_POLYGON;

/** A supporting feature (src/geometry/feature.ts). */
type Feature = SupportFeature;

const makeFeature = makeSupportFeature;

const featA = makeFeature();
const featB = makeFeature();
/** The supporting edge of a tilted reference face's shape (its choice, not its clip). */
const featEdge = makeFeature();
const clipped = makeClipPolygon();
const clipScratch = makeClipPolygon();
const candidates = makeClipPolygon();
let candidateDistances = new Float64Array(candidates.tags.length);
/** A's point (x, y, z) of each candidate of a two-segment manifold (B's is the candidate). */
let candidatePartners = new Float64Array(3 * candidates.tags.length);
const chosen = new Int32Array(MAX_MANIFOLD_POINTS);
const nrm = vec3.create();
const dirB = vec3.create();
const tmp = vec3.create();
const _signs = vec3.create();
const planeN = vec3.create();
const edgeA = vec3.create();
const edgeB = vec3.create();

/** The primary supporting feature of `s` along unit local direction d (its definition's). */
function primaryFeature(f: Feature, s: ConvexShape, d: Vec3): void {
  const feature = shapeDef(s.type).feature;
  if (feature) feature(f, s, d);
  else setPoint(f, 0);
}

/** Replaces a polyhedral shape's face feature by its supporting edge (or vertex). */
function edgeFeature(f: Feature, s: ConvexShape, d: Vec3): void {
  const edge = shapeDef(s.type).edgeFeature;
  if (edge) edge(f, s, d);
  else setPoint(f, f.index);
}

/** Maps a feature from B's local frame into A's frame. */
function transformFeature(f: Feature, bInA: Isometry): void {
  const v = f.poly.xyz;
  const t = bInA.translation;
  for (let i = 0; i < f.poly.count; i++) {
    vec3.set(tmp, v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    quat.rotate(tmp, bInA.rotation, tmp);
    v[3 * i] = tmp.x + t.x;
    v[3 * i + 1] = tmp.y + t.y;
    v[3 * i + 2] = tmp.z + t.z;
  }
  quat.rotate(f.normal, bInA.rotation, f.normal);
}

/**
 * True when polygon `poly` has an area seen along unit `n`: twice its area about its first
 * vertex, |Σ (v_i − v_0) × (v_i+1 − v_0) · n|, above `MANIFOLD_FACE_AREA_ULPS` ulps of its
 * largest squared extent from v_0. A face collapsed to a segment (each end listed twice) has
 * none: its terms vanish exactly.
 */
function hasArea(poly: ClipPolygon, n: Vec3): boolean {
  const v = poly.xyz;
  const ox = v[0];
  const oy = v[1];
  const oz = v[2];
  let area = 0;
  let extent = 0;
  let px = 0;
  let py = 0;
  let pz = 0;
  for (let i = 1; i < poly.count; i++) {
    const x = v[3 * i] - ox;
    const y = v[3 * i + 1] - oy;
    const z = v[3 * i + 2] - oz;
    area += (py * z - pz * y) * n.x + (pz * x - px * z) * n.y + (px * y - py * x) * n.z;
    extent = Math.max(extent, x * x + y * y + z * z);
    px = x;
    py = y;
    pz = z;
  }
  return Math.abs(area) > MANIFOLD_FACE_AREA_ULPS * Number.EPSILON * extent;
}

function singleContact(out: ContactManifold, contact: Contact): ContactManifold {
  const p = out.points[0];
  vec3.copy(p.pointA, contact.pointA);
  vec3.copy(p.pointB, contact.pointB);
  p.distance = contact.distance;
  p.featureId = 0;
  out.count = 1;
  return out;
}

const coreContact: Contact = makeContact();
const exitHit: LocalRayHit = { toi: 0, normal: vec3.create() };
const exitFrom = vec3.create();
const exitDir = vec3.create();
const exitDirA = vec3.create();
const exitSupport = vec3.create();
/**
 * [0] in: the rounded shape's radius; out: the distance from a core point to its surface along a
 * direction (through a typed array: a double passed to a call V8 does not inline is boxed).
 */
const exitIo = new Float64Array(1);
/**
 * [0] the prediction of {@link manifoldOfPolytopes}, [1], [2] the radii of a rounded pair
 * (`ShapeDef.writeMargin`): typed-array slots, not arguments or returned values (boxed).
 */
const manifoldIo = new Float64Array(3);

/**
 * True, with exitIo[0] (given: the radius r) set, when core point `c` lies on polygon feature
 * `f` (its face F, outward unit normal n) and the line from c along unit `u` leaves the rounded
 * shape through F moved out by r: at t = r / (u·n), where the line's point less r·n lies in F's
 * polygon. The core lies behind F's plane, so the distance there is at least t·(u·n) = r, and
 * at most r (that point of F lies r away): a test of the face's few vertices in place of the
 * shape's ray cast. A's frame for every argument.
 */
function faceExit(f: Feature, c: Vec3, u: Vec3): boolean {
  if (f.kind !== POLYGON) return false;
  const r = exitIo[0];
  const n = f.normal;
  const un = u.x * n.x + u.y * n.y + u.z * n.z;
  if (!(un > 0)) return false;
  const v = f.poly.xyz;
  const h = (c.x - v[0]) * n.x + (c.y - v[1]) * n.y + (c.z - v[2]) * n.z;
  const m = Math.max(
    Math.abs(c.x),
    Math.abs(c.y),
    Math.abs(c.z),
    Math.abs(v[0]),
    Math.abs(v[1]),
    Math.abs(v[2]),
  );
  if (!(Math.abs(h) <= MANIFOLD_ROUNDED_SUPPORT_ULPS * Number.EPSILON * m)) return false;
  const t = r / un;
  const px = c.x + t * u.x - r * n.x;
  const py = c.y + t * u.y - r * n.y;
  const pz = c.z + t * u.z - r * n.z;
  let pos = false;
  let neg = false;
  const count = f.poly.count;
  for (let k = 0; k < count; k++) {
    const i = 3 * k;
    const j = 3 * (k + 1 < count ? k + 1 : 0);
    const ex = v[j] - v[i];
    const ey = v[j + 1] - v[i + 1];
    const ez = v[j + 2] - v[i + 2];
    const rx = px - v[i];
    const ry = py - v[i + 1];
    const rz = pz - v[i + 2];
    const side = (ey * rz - ez * ry) * n.x + (ez * rx - ex * rz) * n.y + (ex * ry - ey * rx) * n.z;
    if (side > 0) pos = true;
    else if (side < 0) neg = true;
  }
  if (pos && neg) return false;
  exitIo[0] = t;
  return true;
}

/**
 * exitIo[0] = the distance from point `c` of rounded shape `s`'s core (local frame) along unit
 * local direction `u` to the shape's surface (its radius r given in exitIo[0]): r when c is the
 * core's support point along u (its gap δ = h(u) − c·u below the support plane within
 * `MANIFOLD_ROUNDED_SUPPORT_ULPS` ulps of the point's magnitude), else where the ray from c
 * along u leaves the shape (c lies r deep): through the face of feature `f` by {@link faceExit}
 * (c and u in A's frame as `cA`, `uA`), else by the shape's hollow ray cast. Along the ray the
 * distance to the core is at least t − δ and at most t, so the exit lies in [r, r + δ]: a point
 * of a rounded face reached along a normal tilted by θ from the face's is r / cos θ out, not r
 * (issue 16: a box on a rounded box's edge, two manifold points 1.36 inside the rounded box).
 */
function roundedExit(s: ConvexShape, c: Vec3, u: Vec3, f: Feature, cA: Vec3, uA: Vec3): void {
  const r = exitIo[0];
  const def = shapeDef(s.type);
  const support = def.coreSupport;
  const cast = def.rayCast;
  if (support === null || cast === null) return;
  support(exitSupport, s, u);
  const delta =
    (exitSupport.x - c.x) * u.x + (exitSupport.y - c.y) * u.y + (exitSupport.z - c.z) * u.z;
  const m = r + Math.max(Math.abs(c.x), Math.abs(c.y), Math.abs(c.z));
  if (!(delta > MANIFOLD_ROUNDED_SUPPORT_ULPS * Number.EPSILON * m)) return;
  if (faceExit(f, cA, uA)) return;
  // Cast without a limit (a computed one passed to the cast would be boxed): an exit farther
  // than 2(r + δ) > r + δ fails the test below as it would have missed within that limit.
  if (!cast(exitHit, s, c, u, u, 1, Infinity, false)) return;
  const t = exitHit.toi;
  if (t >= r && t <= r + delta) exitIo[0] = t;
}

// manifoldRounded's own out = a, −a, a + b·s and q⁻¹ v (the vec3 and quat helpers' arithmetic,
// bitwise): inlined from the shared helpers, a store took their megamorphic property feedback,
// a generic store that boxed each double (1.2 KB per step in the six curved kinds' probe; issue 15).
function roundCopy(out: Vec3, a: Vec3): void {
  out.x = a.x;
  out.y = a.y;
  out.z = a.z;
}

function roundNegate(out: Vec3, a: Vec3): void {
  out.x = -a.x;
  out.y = -a.y;
  out.z = -a.z;
}

function roundAddScaled(out: Vec3, a: Vec3, b: Vec3, s: number): void {
  out.x = a.x + b.x * s;
  out.y = a.y + b.y * s;
  out.z = a.z + b.z * s;
}

function roundInverseRotate(out: Vec3, q: Quat, v: Vec3): void {
  const tx = 2 * (-q.y * v.z + q.z * v.y);
  const ty = 2 * (-q.z * v.x + q.x * v.z);
  const tz = 2 * (-q.x * v.y + q.y * v.x);
  const x = v.x + q.w * tx + (-q.y * tz + q.z * ty);
  const y = v.y + q.w * ty + (-q.z * tx + q.x * tz);
  const z = v.z + q.w * tz + (-q.x * ty + q.y * tx);
  out.x = x;
  out.y = y;
  out.z = z;
}

/** The pair {@link facingPair} makes face across the normal: B's point and A's (A's frame). */
const facingB = vec3.create();
const facingA = vec3.create();
const facingHit: LocalRayHit = { toi: 0, normal: vec3.create() };
const facingFrom = vec3.create();
const facingDir = vec3.create();
const facingSupport = vec3.create();
const facingLocal = vec3.create();
const facingDown = vec3.create();
const facingOnA = vec3.create();
const facingOnB = vec3.create();

/** q's conjugate, for {@link facingRotate}. */
const facingConj = quat.create();

/**
 * out = q applied to v (v rotated by q): {@link roundInverseRotate} by q's conjugate, the same
 * arithmetic bit for bit (each term of the inverse rotation by −q.xyz is the rotation's, negated
 * exactly, and a + (−b) rounds as a − b). Its callers ({@link facingPair},
 * {@link seatOnSurface}) run too rarely for V8 to optimize them or a rotation of their own, where
 * every double is a heap number (0.4 KB per step of the six-curved-kinds world); the inverse
 * rotation runs for every rounded manifold point and is optimized.
 */
function facingRotate(out: Vec3, q: Quat, v: Vec3): void {
  facingConj.x = -q.x;
  facingConj.y = -q.y;
  facingConj.z = -q.z;
  facingConj.w = q.w;
  roundInverseRotate(out, facingConj, v);
}

/**
 * facingFrom = the top of convex `s` (local frame) along unit local `u` on the line through
 * `p` along u, the point of s on that line farthest along u, found by the shape's solid ray cast
 * along −u from p raised to s's support plane (not raised when above it); false when the line
 * misses s.
 */
function topAlong(s: ConvexShape, p: Vec3, u: Vec3): boolean {
  const def = shapeDef(s.type);
  const support = def.coreSupport;
  const cast = def.rayCast;
  if (support === null || cast === null) return false;
  support(facingSupport, s, u);
  // Lifted past the core's support by twice the margin (a capsule's radius), so that the solid
  // cast starts outside a rounded shape (it started inside a capsule of 2.3e3 and answered its
  // own start, 2.2e3 off the surface: seed 65).
  if (def.writeMargin) def.writeMargin(exitIo, s);
  else exitIo[0] = def.margin(s);
  const lift = Math.max(
    0,
    (facingSupport.x - p.x) * u.x +
      (facingSupport.y - p.y) * u.y +
      (facingSupport.z - p.z) * u.z +
      2 * exitIo[0],
  );
  facingFrom.x = p.x + lift * u.x;
  facingFrom.y = p.y + lift * u.y;
  facingFrom.z = p.z + lift * u.z;
  facingDir.x = -u.x;
  facingDir.y = -u.y;
  facingDir.z = -u.z;
  if (!cast(facingHit, s, facingFrom, facingDir, facingDir, 1, Infinity, true)) return false;
  const t = facingHit.toi;
  facingFrom.x -= t * u.x;
  facingFrom.y -= t * u.y;
  facingFrom.z -= t * u.z;
  return true;
}

/**
 * Makes a two-segment manifold point face across unit normal `n` (A's frame): given B's point
 * p in facingB and A's point q abreast of it in facingA, each on its supporting segment but
 * apart sideways (segments not quite parallel, or offset across the normal: a box's edge along
 * a cone's generator, two cones' generators a deep overlap apart), either A's point becomes the
 * top of A along n on p's line, or B's point the bottom of B along −n on q's line (both by the
 * shapes' ray casts, {@link topAlong}), whichever pair is deeper: pointB − pointA then lies
 * along n and both points on their shapes. No pair on one line along n is deeper than the
 * shapes' overlap along n; the deeper of the two keeps a box's corner poking into a cone beside
 * its generator at its depth (p's line met the box's face where the generator crosses it, at
 * distance 0). False, the point to be dropped, when both lines miss.
 */
function facingPair(a: ConvexShape, b: ConvexShape, bInA: Isometry, n: Vec3): boolean {
  const hitA = topAlong(a, facingB, n);
  if (hitA) roundCopy(facingOnA, facingFrom);
  // q and −n in B's frame.
  const tr = bInA.translation;
  facingLocal.x = facingA.x - tr.x;
  facingLocal.y = facingA.y - tr.y;
  facingLocal.z = facingA.z - tr.z;
  roundInverseRotate(facingLocal, bInA.rotation, facingLocal);
  roundNegate(facingDown, n);
  roundInverseRotate(facingDown, bInA.rotation, facingDown);
  const hitB = topAlong(b, facingLocal, facingDown);
  if (hitB) {
    facingRotate(facingOnB, bInA.rotation, facingFrom);
    facingOnB.x += tr.x;
    facingOnB.y += tr.y;
    facingOnB.z += tr.z;
  }
  if (!hitA && !hitB) return false;
  // Depths along n of (p, A's top) and (B's bottom, q).
  const depthA =
    n.x * (facingB.x - facingOnA.x) +
    n.y * (facingB.y - facingOnA.y) +
    n.z * (facingB.z - facingOnA.z);
  const depthB =
    n.x * (facingOnB.x - facingA.x) +
    n.y * (facingOnB.y - facingA.y) +
    n.z * (facingOnB.z - facingA.z);
  if (hitA && (!hitB || depthA <= depthB)) roundCopy(facingA, facingOnA);
  else roundCopy(facingB, facingOnB);
  return true;
}

/** The point {@link seatOnSurface} moves (A's frame). */
const seatPoint = vec3.create();

/**
 * True when a convex shape of type `type` has a margin and a segment feature (its surface its core swept by a ball):
 * a capsule, the one such shape (rounded boxes and hulls reach the builder as their cores). By
 * type, not by the definition's `margin`, whose double returned from a call V8 does not inline is
 * boxed: every box edge's manifold asked it (4 KB per step of the six-curved-kinds world). The
 * type is read by the caller, where every kind of shape has been seen (a read here, inlined, met a
 * kind first after optimization: a deoptimization).
 */
function hasMargin(type: ShapeType): boolean {
  return type === ShapeType.Capsule;
}

/**
 * Moves seatPoint (A's frame) along unit normal `n`'s line onto the surface of `s`: A's top along
 * n when `onB` is false, else B's bottom along −n (B at `bInA`), by {@link topAlong}; left where
 * it is when the line misses s. A segment feature of a shape with a margin is its core moved by
 * the margin along the direction (a capsule's), inside the shape where its axis slopes: each
 * clipped point is seated so that it lies on the surface and no shallower than the shape there
 * (a capsule 5° off a face had its one manifold point 38% shallower than its contact; issue 16).
 */
function seatOnSurface(s: ConvexShape, bInA: Isometry, n: Vec3, onB: boolean): void {
  if (!onB) {
    if (topAlong(s, seatPoint, n)) roundCopy(seatPoint, facingFrom);
    return;
  }
  const tr = bInA.translation;
  facingLocal.x = seatPoint.x - tr.x;
  facingLocal.y = seatPoint.y - tr.y;
  facingLocal.z = seatPoint.z - tr.z;
  roundInverseRotate(facingLocal, bInA.rotation, facingLocal);
  roundNegate(facingDown, n);
  roundInverseRotate(facingDown, bInA.rotation, facingDown);
  if (!topAlong(s, facingLocal, facingDown)) return;
  facingRotate(seatPoint, bInA.rotation, facingFrom);
  seatPoint.x += tr.x;
  seatPoint.y += tr.y;
  seatPoint.z += tr.z;
}

/** The clipper's tags stay below this one, the contact's own pair's ({@link keepContactIf}). */
const CONTACT_TAG = DUPLICATE_TAG - 1;

/**
 * Clips incident feature `inc` against reference feature `ref` along the unit normal nrm into
 * `clipped`; emptied by rounding (features touching exactly), once more with the planes moved
 * out by `MANIFOLD_CLIP_SLACK_ULPS`. One function for both clips of
 * {@link manifoldOfPolytopes}, so that its rare second call has type feedback there.
 */
function clipFeatures(inc: Feature, ref: Feature): void {
  clipPolygonAgainstPolygon(clipped, inc.poly, ref.poly, nrm, clipScratch);
  if (clipped.count === 0) {
    clipPolygonAgainstPolygon(
      clipped,
      inc.poly,
      ref.poly,
      nrm,
      clipScratch,
      MANIFOLD_CLIP_SLACK_ULPS,
    );
  }
}

/**
 * {@link seatOnSurface} when `go`, else nothing: called on every pass by
 * {@link manifoldOfPolytopes}, so that its call site has type feedback where the seat is rare (an
 * optimized function deoptimizes at a call first reached after it was optimized).
 */
function seatOnSurfaceIf(go: boolean, s: ConvexShape, bInA: Isometry, n: Vec3, onB: boolean): void {
  if (go) seatOnSurface(s, bInA, n, onB);
}

/**
 * {@link facingPair} when `go`, else true (facingA and facingB left as they are): called on every
 * pass by {@link manifoldOfPolytopes}, as {@link seatOnSurfaceIf}.
 */
function facingPairIf(
  go: boolean,
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  n: Vec3,
): boolean {
  return !go || facingPair(a, b, bInA, n);
}

/**
 * True when the clip of segment `inc` against tilted reference face `ref` (its normal more than
 * `MANIFOLD_FACE_TILT_COS` off the unit normal nrm: the contact on the face's boundary), left in
 * `clipped` with planeN the face's normal, leaves the contact out — its deepest point shallower
 * than the contact's distance by more than `MANIFOLD_ROUNDED_SUPPORT_ULPS` of the points'
 * magnitude, or nothing kept — and the segment lies along the side plane through the face's
 * supporting edge there (the sine of its angle to that plane within `MANIFOLD_PARALLEL_SIN`):
 * crossing that plane at a grazing angle, the clip kept only a part far along it, shallower than
 * the contact by the segment's slope times that distance (a cylinder along a box's edge, the face
 * 4° off the normal: 0.06 for a contact of −1.5e-10; a capsule's pole on a triangle's edge, its
 * face 3° off: 6.2e-8 for 1e-19; issue 16). The manifold is then built from the two segments.
 * `s` is the face's shape, B (at `bInA`) when `refIsB`. Asked only when the clip fails, so that
 * the two segments' facing casts (run rarely, so unoptimized, where every double is allocated)
 * are not paid by the clips that hold the contact. The test of the clip
 * ({@link tiltedClipLeavesContact}, every call) and of the segment's direction
 * ({@link segmentAlongSidePlane}, rare) are functions of their own: in one, the rare part's first
 * calls kept resetting V8's feedback ticks and then deoptimized it, so the clip's loop ran
 * unoptimized, every double a heap number (2.2 KB per step of the six-curved-kinds world).
 */
function tiltedFaceGivesWay(
  ref: Feature,
  inc: Feature,
  s: ConvexShape,
  bInA: Isometry,
  refIsB: boolean,
  contact: Contact,
): boolean {
  if (!tiltedClipLeavesContact(ref, contact)) return false;
  return segmentAlongSidePlane(inc, s, bInA, refIsB);
}

/**
 * True when the clip left in `clipped` (against reference face `ref`, planeN its normal, nrm the
 * contact's unit normal) leaves the contact out: its deepest point, measured along nrm from the
 * face's plane through its first corner, shallower than the contact's distance by more than
 * `MANIFOLD_ROUNDED_SUPPORT_ULPS` of the points' magnitude, or nothing kept
 * ({@link tiltedFaceGivesWay}).
 */
function tiltedClipLeavesContact(ref: Feature, contact: Contact): boolean {
  const v = ref.poly.xyz;
  const ox = v[0];
  const oy = v[1];
  const oz = v[2];
  const mn = Math.abs(planeN.x * nrm.x + planeN.y * nrm.y + planeN.z * nrm.z);
  const cv = clipped.xyz;
  let least = Infinity;
  let m = Math.max(Math.abs(ox), Math.abs(oy), Math.abs(oz));
  for (let i = 0; i < clipped.count; i++) {
    const x = cv[3 * i];
    const y = cv[3 * i + 1];
    const z = cv[3 * i + 2];
    least = Math.min(least, (planeN.x * (x - ox) + planeN.y * (y - oy) + planeN.z * (z - oz)) / mn);
    m = Math.max(m, Math.abs(x), Math.abs(y), Math.abs(z));
  }
  return !(least - contact.distance <= MANIFOLD_ROUNDED_SUPPORT_ULPS * Number.EPSILON * m);
}

/**
 * True when segment `inc` (A's frame) lies along the side plane through the supporting edge of
 * `s` (the reference face's shape, B at `bInA` when `refIsB`) along the contact's normal nrm: the
 * sine of its angle to that plane within `MANIFOLD_PARALLEL_SIN` ({@link tiltedFaceGivesWay}).
 */
function segmentAlongSidePlane(
  inc: Feature,
  s: ConvexShape,
  bInA: Isometry,
  refIsB: boolean,
): boolean {
  if (refIsB) {
    edgeFeature(featEdge, s, dirB);
    transformFeature(featEdge, bInA);
  } else edgeFeature(featEdge, s, nrm);
  if (featEdge.kind !== SEGMENT) return false;
  const pe = featEdge.poly.xyz;
  const po = inc.poly.xyz;
  edgeA.x = pe[3] - pe[0];
  edgeA.y = pe[4] - pe[1];
  edgeA.z = pe[5] - pe[2];
  edgeB.x = po[3] - po[0];
  edgeB.y = po[4] - po[1];
  edgeB.z = po[5] - po[2];
  // The side plane through the edge holds the normal: its normal is edge × n.
  vec3.cross(tmp, edgeA, nrm);
  if (!vec3.tryNormalize(tmp, tmp) || !vec3.tryNormalize(edgeB, edgeB)) return false;
  const across = tmp.x * edgeB.x + tmp.y * edgeB.y + tmp.z * edgeB.z;
  return Math.abs(across) <= MANIFOLD_PARALLEL_SIN;
}

/**
 * [0] 1 when the last manifold built from polytopes' features kept the contact's own point
 * ({@link keepContactIf}), which depends on the contact's witnesses and not only on its normal
 * and distance (src/narrowphase/cuboid-cuboid.ts reuses a manifold by those), else 0.
 */
export const keptContactIo = new Uint8Array(1);
/**
 * [0] 1 while a caller builds a manifold only to read its clipped points (the box–box contact's
 * witnesses, src/narrowphase/cuboid-cuboid.ts): {@link keepContactIf} then marks
 * {@link keptContactIo} where it would keep the contact's pair but adds nothing — the contact
 * given there is provisional, its witnesses a support point that may lie off the overlap.
 */
export const keepContactOffIo = new Uint8Array(1);

/**
 * Adds the contact's own pair to the manifold's candidates when the clip left the contact out:
 * the deepest candidate shallower than the contact's distance by more than
 * `MANIFOLD_CONTACT_KEEP_ULPS` ulps of the points' magnitude and `MANIFOLD_CONTACT_KEEP_DEPTH`
 * of the depth (a face tilted to rounding over a long box loses 1e-11: the clip holds the
 * contact there), {@link keptContactIo}[0] then 1, else 0; returns the pair's candidate index,
 * else −1. candidates.xyz holds the incident shape's witness of the contact (B's when `refIsB`
 * is false), as for the clipped points, with the contact's distance and tag `CONTACT_TAG`; the
 * output takes both of the contact's witnesses, which lie on the shapes and face each other
 * across the normal. The clip leaves the contact out where a reference face among faces nearly
 * parallel to it — a sliver hull's or a finely faceted hull's top — bounds only its own part of
 * the contact region, the incident feature's deepest point over a neighbouring face, beyond its
 * side planes (a flat hull across a sliver hull of 10^3 whose triangles turn by up to 7e-5 rad
 * from each other: the manifold's deepest point 100.5 deep for a contact 127.1 deep); where a
 * cylinder cap or cone base is the reference face, clipped against as its inscribed octagon,
 * whose sides cut off the part of the incident feature reaching the rim between two vertices (a
 * box's corner or a cylinder's side line through a cone's base 0.97 of its radius out: 6–20 %
 * shallower); and where a cylinder's or cone's side line crosses a hull's or triangle's face
 * tilted off the normal, the contact past the face's edge (20 % shallower; issue 16). Reads the
 * candidates of {@link manifoldOfPolytopes} and appends to them (room reserved there).
 */
function keepContactIf(contact: Contact, refIsB: boolean): number {
  const d = candidateDistances;
  const cx = candidates.xyz;
  const count = candidates.count;
  let least = Infinity;
  let m = 0;
  for (let i = 0; i < count; i++) {
    least = Math.min(least, d[i]);
    m = Math.max(m, Math.abs(cx[3 * i]), Math.abs(cx[3 * i + 1]), Math.abs(cx[3 * i + 2]));
  }
  const w = refIsB ? contact.pointA : contact.pointB;
  const v = refIsB ? contact.pointB : contact.pointA;
  m = Math.max(m, Math.abs(w.x), Math.abs(w.y), Math.abs(w.z));
  m = Math.max(m, Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
  const t = contact.distance;
  const slack = Math.max(
    MANIFOLD_CONTACT_KEEP_ULPS * Number.EPSILON * m,
    MANIFOLD_CONTACT_KEEP_DEPTH * Math.abs(t),
  );
  if (!(least - t > slack)) return -1;
  keptContactIo[0] = 1;
  if (keepContactOffIo[0] === 1) return -1;
  const q = candidates.count++;
  d[q] = t;
  cx[3 * q] = w.x;
  cx[3 * q + 1] = w.y;
  cx[3 * q + 2] = w.z;
  candidatePartners[3 * q] = v.x;
  candidatePartners[3 * q + 1] = v.y;
  candidatePartners[3 * q + 2] = v.z;
  candidates.tags[q] = CONTACT_TAG;
  return q;
}

/**
 * The manifold of a pair with a rounded shape: the manifold of the cores, with the contact
 * moved onto the cores (each witness moved by its radius along the normal, the distance grown
 * by both radii and the prediction too), then every point pushed back out onto the rounded
 * surfaces along the normal (A's core point along +n, B's along −n) by {@link roundedExit}: by
 * the radius where the normal is the core's own there — a rounded face is its core face moved by
 * the radius (Jolt's convex radius; van den Bergen 2003, §4.3.4) — and farther where the normal
 * leans off the core face the point lies on; its distance shrinks by both moves, so it stays
 * (pB − pA)·n. A manifold that is the single contact keeps the contact's points.
 */
function manifoldRounded(
  out: ContactManifold,
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): ContactManifold {
  // The core and the radius through the records (`roundedCore`, `margin`), not the built-in
  // rounded types' field names, so that a rounded type added by the recipe (docs/DESIGN.md,
  // "Adding a shape") with fields of its own gets its manifold (it was NaN).
  // The radii through `writeMargin` where there is one, and the cores' prediction through
  // manifoldIo: doubles returned by or passed to these calls would be boxed.
  const defA = shapeDef(a.type);
  const defB = shapeDef(b.type);
  manifoldIo[1] = 0;
  manifoldIo[2] = 0;
  if (defA.roundedCore) {
    if (defA.writeMargin) defA.writeMargin(exitIo, a);
    else exitIo[0] = defA.margin(a);
    manifoldIo[1] = exitIo[0];
  }
  if (defB.roundedCore) {
    if (defB.writeMargin) defB.writeMargin(exitIo, b);
    else exitIo[0] = defB.margin(b);
    manifoldIo[2] = exitIo[0];
  }
  const rA = manifoldIo[1];
  const rB = manifoldIo[2];
  const ca = defA.roundedCore ? (defA.roundedCore(a) as ConvexShape) : a;
  const cb = defB.roundedCore ? (defB.roundedCore(b) as ConvexShape) : b;
  const n = contact.normal;
  coreContact.distance = contact.distance + rA + rB;
  roundCopy(coreContact.normal, n);
  roundAddScaled(coreContact.pointA, contact.pointA, n, -rA);
  roundAddScaled(coreContact.pointB, contact.pointB, n, rB);
  if (isRoundedType(ca.type) || isRoundedType(cb.type)) {
    manifoldFromContact(out, ca, cb, bInA, coreContact, prediction + rA + rB);
  } else {
    manifoldIo[0] = prediction + rA + rB;
    manifoldOfPolytopes(out, ca, cb, bInA, coreContact);
  }
  const m = out.normal;
  // The single contact (feature id 0) is the given contact moved in and out by the radii.
  const single = out.count === 1 && out.points[0].featureId === 0;
  for (let i = 0; i < out.count; i++) {
    const p = out.points[i];
    let sA = rA;
    let sB = rB;
    if (!single && rA > 0) {
      exitIo[0] = rA;
      roundedExit(a, p.pointA, m, featA, p.pointA, m);
      sA = exitIo[0];
    }
    if (!single && rB > 0) {
      // B's core point and the direction −n in B's frame.
      const t = bInA.translation;
      exitFrom.x = p.pointB.x - t.x;
      exitFrom.y = p.pointB.y - t.y;
      exitFrom.z = p.pointB.z - t.z;
      roundInverseRotate(exitFrom, bInA.rotation, exitFrom);
      roundNegate(exitDir, m);
      roundInverseRotate(exitDir, bInA.rotation, exitDir);
      roundNegate(exitDirA, m);
      exitIo[0] = rB;
      roundedExit(b, exitFrom, exitDir, featB, p.pointB, exitDirA);
      sB = exitIo[0];
    }
    roundAddScaled(p.pointA, p.pointA, m, sA);
    roundAddScaled(p.pointB, p.pointB, m, -sB);
    p.distance -= sA + sB;
  }
  return out;
}

/**
 * Builds the contact manifold of convex shapes `a` and `b` from one contact already found by
 * the narrow phase, by reference-face / incident-face clipping (Box2D, Bullet, Jolt; Ericson
 * 2005, §8.3.4 for the clipping).
 *
 * - `out`: the manifold to fill (from `makeContactManifold`); its normal is set to the unit
 *   contact normal and it receives 1 to `MAX_MANIFOLD_POINTS` points.
 * - `a`, `b`: the shapes, each in its own local frame; `bInA` is B's pose in A's frame.
 * - `contact`: normal (unit, from A toward B), signed distance (negative = penetration) and
 *   witness points, all in A's frame.
 * - `prediction`: points with signed distance up to max(prediction, contact.distance) + the
 *   plane tolerance (at most `MANIFOLD_TOLERANCE`) are kept (scene units, ≥ 0; the speculative
 *   distance in a world).
 *
 * Every point has `pointA` on A's side, `pointB` on B's side (A's frame), its own signed
 * distance (pointB − pointA)·normal, and a deterministic feature id. When the features give
 * nothing (a point feature, crossing edges, a numerical corner case, a zero normal), the
 * manifold is the single given contact with feature id 0. Never throws, allocates nothing in
 * steady state (scratch buffers grow only for a face larger than any seen before). Returns out.
 */
export function manifoldFromContact(
  out: ContactManifold,
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): ContactManifold {
  if (isRoundedType(a.type) || isRoundedType(b.type)) {
    return manifoldRounded(out, a, b, bInA, contact, prediction);
  }
  manifoldIo[0] = prediction;
  return manifoldOfPolytopes(out, a, b, bInA, contact);
}

/**
 * {@link manifoldFromContact} of two shapes neither of them rounded, the prediction read from
 * manifoldIo[0] (a rounded pair's cores are given a prediction grown by the radii: passed to
 * this large function, which V8 does not inline, the sum would be boxed).
 */
function manifoldOfPolytopes(
  out: ContactManifold,
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  contact: Contact,
): ContactManifold {
  const prediction = manifoldIo[0];
  keptContactIo[0] = 0;
  // Helpers that return doubles are avoided here: this function is too large for V8 to inline
  // them, and a double returned by a call that is not inlined is boxed (allocated).
  const unit = vec3.tryNormalize(nrm, contact.normal);
  vec3.copy(out.normal, unit ? nrm : contact.normal);
  if (!unit) return singleContact(out, contact);
  // A sphere's supporting feature is its one point (its record's `pointFeature`), so the manifold
  // is the contact itself: answered before the features are built (the same result the clipping
  // path gives).
  const typeA = a.type;
  const typeB = b.type;
  if (isPointFeatureType(typeA) || isPointFeatureType(typeB)) {
    return singleContact(out, contact);
  }
  vec3.negate(tmp, nrm);
  quat.inverseRotate(dirB, bInA.rotation, tmp);

  primaryFeature(featA, a, nrm);
  primaryFeature(featB, b, dirB);
  transformFeature(featB, bInA);

  // A face with no area (a box of zero thickness lists its side faces as segments) is no
  // reference: the other face is, or the supporting edges are (clipping against it bounded one
  // side only, and kept points 22 deeper than the contact; issue 16).
  const faceA =
    featA.kind === POLYGON && featA.cos >= MANIFOLD_FEATURE_COS && hasArea(featA.poly, nrm);
  const faceB =
    featB.kind === POLYGON && featB.cos >= MANIFOLD_FEATURE_COS && hasArea(featB.poly, nrm);
  let ref: Feature = featA;
  let inc: Feature = featB;
  let refIsB = false;
  // Two parallel segments: each clipped point of B's segment faces the point of A's segment at
  // its own position along it (measured along the normal), not the reference plane's point,
  // which lies off A's segment by the segments' sideways offset.
  let segmentRef = false;
  // A face tilted off the normal (the contact on its boundary) whose clip leaves the contact out,
  // against a segment lying along the side plane through its supporting edge there: the two
  // segments are the features instead ({@link tiltedFaceGivesWay}).
  let faceClip = faceA || faceB;
  if (faceClip) {
    refIsB = !faceA || (faceB && featB.cos * (1 - MANIFOLD_REFERENCE_FACE_TOLERANCE) > featA.cos);
    ref = refIsB ? featB : featA;
    inc = refIsB ? featA : featB;
    if (inc.kind !== POLYGON && inc.kind !== SEGMENT) return singleContact(out, contact);
    clipFeatures(inc, ref);
    vec3.copy(planeN, ref.normal);
    if (inc.kind === SEGMENT && ref.cos < MANIFOLD_FACE_TILT_COS) {
      faceClip = !tiltedFaceGivesWay(ref, inc, refIsB ? b : a, bInA, refIsB, contact);
    }
  }
  if (!faceClip) {
    if (featA.kind === POLYGON) edgeFeature(featA, a, nrm);
    if (featB.kind === POLYGON) {
      edgeFeature(featB, b, dirB);
      transformFeature(featB, bInA);
    }
    if (featA.kind !== SEGMENT || featB.kind !== SEGMENT) return singleContact(out, contact);
    const pa = featA.poly.xyz;
    const pb = featB.poly.xyz;
    edgeA.x = pa[3] - pa[0];
    edgeA.y = pa[4] - pa[1];
    edgeA.z = pa[5] - pa[2];
    edgeB.x = pb[3] - pb[0];
    edgeB.y = pb[4] - pb[1];
    edgeB.z = pb[5] - pb[2];
    if (!vec3.tryNormalize(edgeA, edgeA) || !vec3.tryNormalize(edgeB, edgeB)) {
      return singleContact(out, contact);
    }
    vec3.cross(tmp, edgeA, edgeB);
    const sin2 = tmp.x * tmp.x + tmp.y * tmp.y + tmp.z * tmp.z;
    if (sin2 > MANIFOLD_PARALLEL_SIN * MANIFOLD_PARALLEL_SIN) return singleContact(out, contact);
    // The reference plane contains A's segment and faces along the normal's part ⟂ to it.
    const along = nrm.x * edgeA.x + nrm.y * edgeA.y + nrm.z * edgeA.z;
    planeN.x = nrm.x - along * edgeA.x;
    planeN.y = nrm.y - along * edgeA.y;
    planeN.z = nrm.z - along * edgeA.z;
    if (!vec3.tryNormalize(planeN, planeN)) return singleContact(out, contact);
    refIsB = false;
    ref = featA;
    inc = featB;
    segmentRef = true;
    clipFeatures(inc, ref);
  }

  // A segment of a shape with a margin (a capsule's core moved by its radius) is seated point by
  // point where it lies below its top along the direction (its end there, the pole, is the top):
  // the incident one along −n when it is B's (+n when A's), A's reference segment along +n.
  const incOnB = !refIsB;
  const seatInc = inc.kind === SEGMENT && hasMargin(incOnB ? typeB : typeA);
  const seatRef = segmentRef && hasMargin(typeA);
  const iv = inc.poly.xyz;
  const incSign = incOnB ? -1 : 1;
  const incTop =
    incSign *
    Math.max(
      incSign * (nrm.x * iv[0] + nrm.y * iv[1] + nrm.z * iv[2]),
      incSign * (nrm.x * iv[3] + nrm.y * iv[4] + nrm.z * iv[5]),
    );
  const incSlack =
    MANIFOLD_ROUNDED_SUPPORT_ULPS *
    Number.EPSILON *
    Math.max(
      Math.abs(iv[0]),
      Math.abs(iv[1]),
      Math.abs(iv[2]),
      Math.abs(iv[3]),
      Math.abs(iv[4]),
      Math.abs(iv[5]),
    );
  const ro = ref.poly.xyz;
  const refTop = Math.max(
    nrm.x * ro[0] + nrm.y * ro[1] + nrm.z * ro[2],
    nrm.x * ro[3] + nrm.y * ro[4] + nrm.z * ro[5],
  );
  const refSlack =
    MANIFOLD_ROUNDED_SUPPORT_ULPS *
    Number.EPSILON *
    Math.max(
      Math.abs(ro[0]),
      Math.abs(ro[1]),
      Math.abs(ro[2]),
      Math.abs(ro[3]),
      Math.abs(ro[4]),
      Math.abs(ro[5]),
    );
  const ox = ro[0];
  const oy = ro[1];
  const oz = ro[2];
  const mn = Math.abs(planeN.x * nrm.x + planeN.y * nrm.y + planeN.z * nrm.z);
  let size2 = 0;
  for (let i = 1; i < ref.poly.count; i++) {
    const dx = ro[3 * i] - ox;
    const dy = ro[3 * i + 1] - oy;
    const dz = ro[3 * i + 2] - oz;
    size2 = Math.max(size2, dx * dx + dy * dy + dz * dz);
  }
  const planeTolerance = Math.min(
    MANIFOLD_TOLERANCE,
    MANIFOLD_RELATIVE_TOLERANCE * Math.sqrt(size2),
  );
  // A clipped point's distance from the reference plane is measured from the reference corner
  // nearest the incident feature's centroid, not its first: the face's normal is rounded (by ε
  // over the sine of a thin triangle's angle), and measured across the face from a far corner
  // that rounding lifts a point by its distance from that corner — a sliver sharing the far
  // corner of a triangle 2e-3 rad thin was "1.3e-14 deeper than the contact" at that corner over a
  // bar of 8.4e-15 (issue 16, seed 81's class). From the nearest corner, a shared corner is 0.
  let px = ox;
  let py = oy;
  let pz = oz;
  if (!segmentRef) {
    let gx = 0;
    let gy = 0;
    let gz = 0;
    for (let i = 0; i < inc.poly.count; i++) {
      gx += iv[3 * i];
      gy += iv[3 * i + 1];
      gz += iv[3 * i + 2];
    }
    gx /= inc.poly.count;
    gy /= inc.poly.count;
    gz /= inc.poly.count;
    let near = Number.POSITIVE_INFINITY;
    for (let i = 0; i < ref.poly.count; i++) {
      const dx = ro[3 * i] - gx;
      const dy = ro[3 * i + 1] - gy;
      const dz = ro[3 * i + 2] - gz;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 < near) {
        near = d2;
        px = ro[3 * i];
        py = ro[3 * i + 1];
        pz = ro[3 * i + 2];
      }
    }
  }
  const limit = Math.max(prediction, contact.distance) + planeTolerance;
  const cv = clipped.xyz;
  candidates.count = 0;
  // One more slot: the contact's own pair, when the clip leaves it out (keepContactIf).
  reserveClipPolygon(candidates, clipped.count + 1);
  if (candidateDistances.length < candidates.tags.length) {
    candidateDistances = new Float64Array(candidates.tags.length);
    candidatePartners = new Float64Array(3 * candidates.tags.length);
  }
  for (let i = 0; i < clipped.count; i++) {
    let x = cv[3 * i];
    let y = cv[3 * i + 1];
    let z = cv[3 * i + 2];
    // Every pass asks (seatOnSurfaceIf), so that the rare seat leaves this function optimized.
    const belowInc = incSign * (incTop - (nrm.x * x + nrm.y * y + nrm.z * z)) > incSlack;
    seatPoint.x = x;
    seatPoint.y = y;
    seatPoint.z = z;
    seatOnSurfaceIf(seatInc && belowInc, incOnB ? b : a, bInA, nrm, incOnB);
    x = seatPoint.x;
    y = seatPoint.y;
    z = seatPoint.z;
    let t = (planeN.x * (x - px) + planeN.y * (y - py) + planeN.z * (z - pz)) / mn;
    let ax = 0;
    let ay = 0;
    let az = 0;
    if (segmentRef) {
      // (p − q)·n, q = o + e ((p − o)·e) the point of A's segment (unit direction edgeA) abreast
      // of p: the pair of points on the two segments, never deeper than their supports allow.
      const s = edgeA.x * (x - ox) + edgeA.y * (y - oy) + edgeA.z * (z - oz);
      ax = ox + s * edgeA.x;
      ay = oy + s * edgeA.y;
      az = oz + s * edgeA.z;
      const belowRef = refTop - (nrm.x * ax + nrm.y * ay + nrm.z * az) > refSlack;
      seatPoint.x = ax;
      seatPoint.y = ay;
      seatPoint.z = az;
      seatOnSurfaceIf(seatRef && belowRef, a, bInA, nrm, false);
      ax = seatPoint.x;
      ay = seatPoint.y;
      az = seatPoint.z;
      const dx = x - ax;
      const dy = y - ay;
      const dz = z - az;
      t = nrm.x * dx + nrm.y * dy + nrm.z * dz;
      // Segments offset sideways or not quite parallel: p − q leaves the normal's line, so the
      // pair is made to face across it (`facingPair`), or dropped when no pair along p's or
      // q's line exists.
      const sx = dx - t * nrm.x;
      const sy = dy - t * nrm.y;
      const sz = dz - t * nrm.z;
      const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z), Math.abs(ax), Math.abs(ay));
      const side = MANIFOLD_FACING_ULPS * Number.EPSILON * Math.max(m, Math.abs(az));
      // Asked on every pass (facingPairIf): unchanged points give the same t again.
      facingB.x = x;
      facingB.y = y;
      facingB.z = z;
      facingA.x = ax;
      facingA.y = ay;
      facingA.z = az;
      if (!facingPairIf(sx * sx + sy * sy + sz * sz > side * side, a, b, bInA, nrm)) continue;
      x = facingB.x;
      y = facingB.y;
      z = facingB.z;
      ax = facingA.x;
      ay = facingA.y;
      az = facingA.z;
      t = nrm.x * (x - ax) + nrm.y * (y - ay) + nrm.z * (z - az);
    }
    if (!(t <= limit)) continue;
    // Written in place (room reserved above): doubles passed to a call are boxed by V8.
    const q = candidates.count++;
    candidateDistances[q] = t;
    candidates.xyz[3 * q] = x;
    candidates.xyz[3 * q + 1] = y;
    candidates.xyz[3 * q + 2] = z;
    candidatePartners[3 * q] = ax;
    candidatePartners[3 * q + 1] = ay;
    candidatePartners[3 * q + 2] = az;
    candidates.tags[q] = clipped.tags[i];
  }
  if (candidates.count === 0) return singleContact(out, contact);
  const kept = keepContactIf(contact, refIsB);

  const count = reduceManifoldPoints(
    chosen,
    candidates.xyz,
    candidateDistances,
    candidates.count,
    nrm,
  );
  const featurePrefix =
    ((refIsB ? FEATURE_FIELD : 0) + (ref.index % FEATURE_FIELD)) * FEATURE_FIELD +
    (inc.index % FEATURE_FIELD);
  const cx = candidates.xyz;
  for (let q = 0; q < count; q++) {
    const i = chosen[q];
    const t = candidateDistances[i];
    const p = out.points[q];
    const onInc = refIsB ? p.pointA : p.pointB;
    const onRef = refIsB ? p.pointB : p.pointA;
    const ix = cx[3 * i];
    const iy = cx[3 * i + 1];
    const iz = cx[3 * i + 2];
    const st = refIsB ? t : -t;
    onInc.x = ix;
    onInc.y = iy;
    onInc.z = iz;
    if (i === kept) {
      roundCopy(p.pointA, contact.pointA);
      roundCopy(p.pointB, contact.pointB);
    } else if (segmentRef) {
      onRef.x = candidatePartners[3 * i];
      onRef.y = candidatePartners[3 * i + 1];
      onRef.z = candidatePartners[3 * i + 2];
    } else {
      onRef.x = ix + nrm.x * st;
      onRef.y = iy + nrm.y * st;
      onRef.z = iz + nrm.z * st;
    }
    p.distance = t;
    // A touching contact (distance exactly 0) has no point deeper than it: the shapes are convex
    // and touching, so the contact normal's plane separates them and every point's separation
    // along it is ≥ 0 (or the pair's overlap rounded to 0, and the point's depth is within the
    // same rounding). A point within that rounding below 0 is 0 (a capsule lying flat on a
    // tilted face had its second end at −4.4e-16).
    if (t < 0 && contact.distance === 0) {
      const m = Math.max(
        Math.abs(ix),
        Math.abs(iy),
        Math.abs(iz),
        Math.abs(onRef.x),
        Math.abs(onRef.y),
        Math.abs(onRef.z),
      );
      if (-t <= MANIFOLD_TOUCH_BAND * m) p.distance = 0;
    }
    // The tag modulo 2^26, written out: `%` of a double is a call to fmod in V8. Dividing by a
    // power of two is exact, so are the truncation and the product, and so the difference: the
    // same value (up to the sign of a zero, which the sum drops).
    const tag = candidates.tags[i];
    let id = featurePrefix * TAG_FIELD + (tag - Math.trunc(tag / DUPLICATE_TAG) * DUPLICATE_TAG);
    // Degenerate clips (vertices exactly on side planes) can repeat a tag; keep ids unique.
    for (let r = 0; r < q; r++) {
      if (out.points[r].featureId === id) {
        id += DUPLICATE_TAG;
        r = -1;
      }
    }
    p.featureId = id;
  }
  out.count = count;
  return out;
}
