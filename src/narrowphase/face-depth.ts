/**
 * The contact of a convex shape S with one triangle T of a surface (a triangle mesh, a
 * heightfield) along T's face normal: what a contact on an internal edge becomes
 * (src/narrowphase/convex-mesh.ts, src/narrowphase/composite.ts).
 *
 * A contact that lands on an inactive (coplanar or concave) edge takes the face normal n instead
 * of the edge normal (Jolt's `ActiveEdges::FixNormal`). Its depth must then be measured along n
 * too: the closest-feature depth belongs to the edge direction, and near an edge it is the short
 * sideways push off the triangle, not the depth of S below the surface. So a box whose deepest
 * corner sits just inside a triangle, near its edge, got the sideways depth, and the deepest
 * contact of the whole surface came out too shallow.
 *
 * The depth along n is the distance S must move along n to clear T:
 * s* = max { s : (S + s·n) ∩ T ≠ ∅ } = max { s : s·n ∈ T − S }, the exit of the ray from the
 * origin along n through the Minkowski difference T − S (the "directional penetration depth").
 * It is at least the penetration depth (the smallest over all directions) and at most the depth
 * of S's support point below T's plane; it equals the latter when that support point lies over T
 * (in the prism T + ℝ·n), which is the closed form taken first. Otherwise the GJK ray cast
 * (van den Bergen 2004; src/geometry/gjk-raycast.ts) from inside T − S finds the exit — exact
 * for polytopes, to `GJK_RAYCAST_TOLERANCE` for curved shapes — and the witnesses are the
 * closest points of T and of S moved by s*·n (they touch there), from the pair's own exact
 * `distance` in the triangle-first order, looked up in the pair table (a box, hull, triangle or
 * sphere S), else from GJK.
 *
 * Over a surface whose triangles share a plane, the deepest of these contacts is the depth of
 * S's support point below the plane wherever that point lies over the surface.
 *
 * {@link fixInternalEdgeContact} is the one internal-edge rule of the library: it decides from a
 * triangle's active-edge bits whether a contact lies on an inactive edge or corner and, if so,
 * rewrites it along the face normal with this depth. The triangle mesh
 * (src/narrowphase/convex-mesh.ts) and the surfaces of the generic composite mid-phase
 * (src/narrowphase/composite.ts: heightfields) both call it.
 */
import { FACE_SIDE_TIE_TOLERANCE, MESH_FEATURE_BARYCENTRIC_TOLERANCE } from "../constants.js";
import { closestPointOnTriangle } from "../geometry/closest-point.js";
import {
  exactRange,
  footInTriangleIo,
  planeGapIo,
  planeGapSignIo,
} from "../geometry/exact-predicates.js";
import { gjkRayCast, makeGjkRayHit } from "../geometry/gjk-raycast.js";
import { MinkowskiDifference, TransformedSupport } from "../geometry/support.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { shapeDef, supportOf } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact, DistanceResult } from "./contact.js";
import { contactErrorIo, makeContact, makeDistanceResult } from "./contact.js";
import { distanceConvexConvex, ShapeCoreSupport } from "./convex-convex.js";
import { convexPair } from "./convex-pair.js";
import {
  pairRescaleFactor,
  UNIT_RANGE_MAX as SHARED_RANGE_MAX,
  UNIT_RANGE_MIN as SHARED_RANGE_MIN,
  scaledPose,
  scaledShape,
} from "./extreme-scale.js";
import { distanceRoutine } from "./pair-table.js";

const { triangleWitnessIo } = convexPair;
const down = vec3.create();
const deepest = vec3.create();
const highest = vec3.create();
const normal = vec3.create();
const raw = vec3.create();
const e = vec3.create();
const r = vec3.create();
const origin = vec3.create();
const coreT = new ShapeCoreSupport();
const coreS = new ShapeCoreSupport();
const posedS = new TransformedSupport();
const difference = new MinkowskiDifference();
const hit = makeGjkRayHit();
const moved: Isometry = iso.identity();
const touch: DistanceResult = makeDistanceResult();

/** (edge (v → w) × (p − v))·N ≥ 0: p lies on the inner side of the edge, seen along N. */
function insideEdge(v: Vec3, w: Vec3, p: Vec3, n: Vec3): boolean {
  vec3.sub(e, w, v);
  vec3.sub(r, p, v);
  vec3.cross(e, e, r);
  return e.x * n.x + e.y * n.y + e.z * n.z >= 0;
}

/**
 * Writes to `out` the contact of triangle `tri` (as A) with convex shape `s` (as B, posed by
 * `sPose`) along T's unit face normal `n`, all in one frame: distance −s* (s*, the distance S
 * must move along the normal to clear T, see the module doc), the normal, pointA on T, pointB on
 * S. The normal is n or −n: the side of T's plane that S reaches less far past — the one it
 * stands on — with ties (to `FACE_SIDE_TIE_TOLERANCE` of the coordinates) to n. Returns false,
 * leaving `out` unchanged, when no depth is found (S does not reach T along the normal).
 * Allocation free.
 */
export function faceContactTriangleConvex(
  out: Contact,
  tri: Triangle,
  n: Vec3,
  s: ConvexShape,
  sPose: Isometry,
): boolean {
  // S's farthest points along −n and along n, in the common frame.
  iso.inverseTransformVector(down, sPose, n);
  supportOf(highest, s, down);
  iso.transformPoint(highest, sPose, highest);
  vec3.negate(down, down);
  supportOf(deepest, s, down);
  iso.transformPoint(deepest, sPose, deepest);
  // Dot products and vector updates written out here and below: a double passed to or returned
  // by a call V8 does not inline is boxed (allocated), as under the mesh pairs' deep call chains.
  const plane = n.x * tri.a.x + n.y * tri.a.y + n.z * tri.a.z;
  const pastAlongN = plane - (n.x * deepest.x + n.y * deepest.y + n.z * deepest.z);
  const pastAgainstN = n.x * highest.x + n.y * highest.y + n.z * highest.z - plane;
  vec3.copy(normal, n);
  // A tie (S's reach past the plane equal on both sides to the rounding of the coordinates: S's
  // centre in T's plane) goes to n, T's own front: a rule of the triangle alone, so a heightfield
  // and the mesh of its triangles, answered in different frames and orders, take the same side.
  magnitudeOf(tri, highest, deepest);
  const flip = pastAlongN - pastAgainstN > FACE_SIDE_TIE_TOLERANCE * magnitudeIo[0];
  if (flip) {
    vec3.negate(normal, n);
    vec3.copy(deepest, highest);
  }
  vec3.sub(raw, tri.b, tri.a);
  vec3.sub(r, tri.c, tri.a);
  vec3.cross(raw, raw, r);
  if (
    insideEdge(tri.a, tri.b, deepest, raw) &&
    insideEdge(tri.b, tri.c, deepest, raw) &&
    insideEdge(tri.c, tri.a, deepest, raw)
  ) {
    // Over the triangle: its depth past the plane.
    vec3.sub(r, tri.a, deepest);
    let depth = r.x * normal.x + r.y * normal.y + r.z * normal.z;
    // A depth within rounding of 0 whose core witness touches T's plane exactly over T is 0.
    if (depth > 0 && exactFaceTouch(tri, s, sPose, flip, depth)) depth = 0;
    out.distance = depth > 0 ? -depth : 0; // never −0
    vec3.copy(out.normal, normal);
    vec3.copy(out.pointB, deepest);
    out.pointA.x = deepest.x + normal.x * depth;
    out.pointA.y = deepest.y + normal.y * depth;
    out.pointA.z = deepest.z + normal.z * depth;
    return true;
  }
  coreT.reset(tri);
  coreS.reset(s);
  posedS.reset(coreS, sPose);
  difference.reset(coreT, posedS);
  vec3.set(origin, 0, 0, 0);
  if (!gjkRayCast(hit, difference, origin, normal, Infinity, false)) return false;
  if (!Number.isFinite(hit.toi)) return false;
  // s* is at most S's depth past the plane (S moved by that lies wholly on the normal's side of
  // the plane): the ray cast's tolerance must not deepen it. A curved S whose flat side lies in
  // the plane (a cylinder standing beside a box mesh) touches with depth exactly 0, not −8e-9.
  const past = flip ? pastAgainstN : pastAlongN;
  let depth = Math.max(0, Math.min(hit.toi, past));
  const t = sPose.translation;
  moved.rotation.x = sPose.rotation.x;
  moved.rotation.y = sPose.rotation.y;
  moved.rotation.z = sPose.rotation.z;
  moved.rotation.w = sPose.rotation.w;
  // S moved by the depth along the normal touches T: when the ray cast overshot (its stopping
  // rule on a curved S: a cone's rim on a triangle's corner was left 8e-6 apart at depth 3.3,
  // so (pointB − pointA)·n missed the distance by 2.5e-6 relative; issue 16), Newton steps on
  // the gap g(s) of S moved by s: g' = u·n (u the gap's unit direction), s ← s − g²/((pB − pA)·n).
  // The touch measured by the pair's own `distance` routine in the triangle-first order, the
  // pair table's (a box, hull or triangle S: the triangle–polytope pair's exact features; a
  // sphere: its closed form; src/narrowphase/triangle-polytope.ts, sphere-triangle.ts), not by
  // GJK, whose touching pair is undecided at its rounding level and costs a refined search for a
  // separating axis; GJK when the table holds none in that order (capsule, cylinder, cone: the
  // mirrored pair's) and for a rounded S, whose triangle–rounded routine would move its touch by
  // up to 5e-13 of its size from GJK's (a change of results of its own, not made here).
  const exact = "core" in s ? null : distanceRoutine(ShapeType.Triangle, s.type);
  let gapN = 0;
  // The steps' touches leave a triangle's witness as the witness routines put it (convex-pair.ts).
  triangleWitnessIo[0] = 1;
  for (let k = 0; k <= FACE_DEPTH_NEWTON_STEPS; k++) {
    moved.translation.x = t.x + normal.x * depth;
    moved.translation.y = t.y + normal.y * depth;
    moved.translation.z = t.z + normal.z * depth;
    if (exact !== null) exact(touch, tri, s, moved);
    else distanceConvexConvex(touch, tri, s, moved);
    const g = touch.distance;
    gapN =
      (touch.pointB.x - touch.pointA.x) * normal.x +
      (touch.pointB.y - touch.pointA.y) * normal.y +
      (touch.pointB.z - touch.pointA.z) * normal.z;
    if (!(g > 0 && gapN > 0) || k === FACE_DEPTH_NEWTON_STEPS) break;
    const next = depth - (g * g) / gapN;
    if (!(next < depth)) break;
    if (!(next >= 0)) {
      if (depth === 0) break;
      depth = 0;
      continue;
    }
    depth = next;
  }
  triangleWitnessIo[0] = 0;
  // The depth the witnesses span along the normal (a gap left by the last step shortens it).
  const spanned = gapN > 0 && gapN < depth ? depth - gapN : depth;
  out.distance = spanned > 0 ? -spanned : 0; // never −0
  vec3.copy(out.normal, normal);
  vec3.copy(out.pointA, touch.pointA);
  out.pointB.x = touch.pointB.x + normal.x * -depth;
  out.pointB.y = touch.pointB.y + normal.y * -depth;
  out.pointB.z = touch.pointB.z + normal.z * -depth;
  return true;
}

/**
 * Relative width (times the largest coordinate of T's corners, S's offset and core point, and
 * S's radius) of the band of depths decided exactly by {@link exactFaceTouch}: far wider than
 * the depth's rounding (a few ε of those coordinates).
 */
const FACE_TOUCH_BAND = 2 ** -36;

const coreLocal = vec3.create();
const corePlaced = vec3.create();

/**
 * True when S's deepest core point over T (its core's support along the normal's reverse, in
 * S's frame — `down` as {@link faceContactTriangleConvex} leaves it, reversed when `flip` —
 * placed at R·v + t, the rotation rounded as the queries round it and the offset added exactly)
 * lies exactly its radius (the core's margin) from T's plane with its foot in the closed
 * triangle (src/geometry/exact-predicates.ts `planeGapSignIo`, `footInTriangleIo`): S then
 * touches T there, and a small positive `depth` is rounding (a sphere on a heightfield's vertex
 * or cell diagonal was −2.2e-16 deep). Only for depths within {@link FACE_TOUCH_BAND}; inputs in
 * `exactRange`. Nothing allocated.
 */
function exactFaceTouch(
  tri: Triangle,
  s: ConvexShape,
  sPose: Isometry,
  flip: boolean,
  depth: number,
): boolean {
  const t = sPose.translation;
  coreS.reset(s);
  const radius = coreS.margin;
  if (flip) vec3.negate(down, down);
  coreS.support(coreLocal, down);
  if (flip) vec3.negate(down, down);
  const q = sPose.rotation;
  if (q.x === 0 && q.y === 0 && q.z === 0) vec3.copy(corePlaced, coreLocal);
  else quat.rotate(corePlaced, q, coreLocal);
  let m = Math.max(radius, Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
  m = Math.max(m, Math.abs(corePlaced.x), Math.abs(corePlaced.y), Math.abs(corePlaced.z));
  m = Math.max(m, Math.abs(tri.a.x), Math.abs(tri.a.y), Math.abs(tri.a.z));
  m = Math.max(m, Math.abs(tri.b.x), Math.abs(tri.b.y), Math.abs(tri.b.z));
  m = Math.max(m, Math.abs(tri.c.x), Math.abs(tri.c.y), Math.abs(tri.c.z));
  if (!(depth <= FACE_TOUCH_BAND * m)) return false;
  if (!exactRange(t) || !exactRange(corePlaced)) return false;
  if (!exactRange(tri.a) || !exactRange(tri.b) || !exactRange(tri.c)) return false;
  if (!(radius === 0 || (radius < 2 ** 300 && radius >= 2 ** -300))) return false;
  const v = planeGapIo;
  v[0] = corePlaced.x;
  v[1] = corePlaced.y;
  v[2] = corePlaced.z;
  v[3] = t.x;
  v[4] = t.y;
  v[5] = t.z;
  v[6] = tri.a.x;
  v[7] = tri.a.y;
  v[8] = tri.a.z;
  v[9] = tri.b.x;
  v[10] = tri.b.y;
  v[11] = tri.b.z;
  v[12] = tri.c.x;
  v[13] = tri.c.y;
  v[14] = tri.c.z;
  v[15] = radius;
  v[16] = 0;
  return planeGapSignIo() === 0 && footInTriangleIo();
}

/** [0] the result of {@link magnitudeOf} (a double kept out of the call's frame). */
const magnitudeIo = new Float64Array(1);

/** magnitudeIo[0] = the largest coordinate magnitude of T's corners and of p and q. */
function magnitudeOf(tri: Triangle, p: Vec3, q: Vec3): void {
  let m = Math.max(Math.abs(tri.a.x), Math.abs(tri.a.y), Math.abs(tri.a.z));
  m = Math.max(m, Math.abs(tri.b.x), Math.abs(tri.b.y), Math.abs(tri.b.z));
  m = Math.max(m, Math.abs(tri.c.x), Math.abs(tri.c.y), Math.abs(tri.c.z));
  m = Math.max(m, Math.abs(p.x), Math.abs(p.y), Math.abs(p.z));
  magnitudeIo[0] = Math.max(m, Math.abs(q.x), Math.abs(q.y), Math.abs(q.z));
}

/** Newton steps of {@link faceContactTriangleConvex} on an overshot ray cast (each one GJK run). */
const FACE_DEPTH_NEWTON_STEPS = 3;

/** The witnesses' rounding in ulps of the pair's coordinates ({@link fixInternalEdgeContact}). */
const WITNESS_ROUNDING_ULPS = 16;

const faceN = vec3.create();
const closest = vec3.create();
const weights = new Float64Array(3);
const faceContact = makeContact();

/**
 * The internal-edge rule (Jolt's `ActiveEdges::FixNormal`; Bullet's
 * `btAdjustInternalEdgeContacts`), for the contact `c` of triangle `tri` (as A: normal from T
 * toward S, pointA on T, pointB on S, all in one frame) with a shape S posed by `sPose` in that
 * frame. `flags` are T's active-edge bits (bit e set when the edge from corner e to corner e + 1
 * is a real ridge; src/shapes/triangle-mesh.ts).
 *
 * A penetrating contact (distance ≤ 0) whose point on T lies on an inactive edge (barycentric
 * weight of the opposite corner below `MESH_FEATURE_BARYCENTRIC_TOLERANCE`), or on a corner
 * whose two edges in T are both inactive, takes T's face normal. When S is support-mapped (`s`
 * given) the side is the one S stands on (ties to T's front) and the depth and the witnesses are
 * measured again along that normal over T ({@link faceContactTriangleConvex}); otherwise (or
 * when that finds no depth) it takes the side the contact normal points to (for a zero normal,
 * the side of S's origin), the depth and T's point are kept and S's point is moved along the new
 * normal. Any other contact is left as it is; a separated contact keeps its exact closest-point normal.
 * Far from unit scale (the pair's magnitude outside [2^-128, 2^128]) the rule runs on the pair
 * multiplied by a power of two ({@link fixRescaled}), so a pair scaled as a whole by 2^k gets 2^k
 * times its answer. Allocation free in range.
 */
export function fixInternalEdgeContact(
  c: Contact,
  tri: Triangle,
  flags: number,
  s: ConvexShape | null,
  sPose: Isometry,
): void {
  if (c.distance > 0 || flags === 7) return;
  if (edgeRuleOutOfRange(c, tri, s, sPose)) fixRescaled(c, tri, flags, s, sPose);
  else fixInUnits(c, tri, flags, s, sPose);
}

/**
 * The unit range of src/narrowphase/extreme-scale.ts ([2^-128, 2^128]), bound to module constants
 * once at load (an imported binding is read through a cell on every access).
 */
const UNIT_RANGE_MAX = SHARED_RANGE_MAX;
const UNIT_RANGE_MIN = SHARED_RANGE_MIN;

/** [0] the largest magnitude of {@link edgeRuleOutOfRange}'s pair (a double kept off the stack). */
const rangeIo = new Float64Array(1);

/**
 * True when the internal-edge rule's pair — T's corners, S's pose offset, the contact's points
 * and S's size (its definition's magnitude) — has a magnitude outside the unit range
 * [2^-128, 2^128] (src/narrowphase/extreme-scale.ts). The rule forms T's face normal from a
 * cross product (lengths squared), its area's square under a root and triple products (lengths
 * to the 4th) on the way to the depth; at a triangle of 2^-300 those underflowed to 0 and at
 * 2^600 overflowed, so a composite scaled by a power of two as a whole had kept the edge
 * contact's sideways depth there while at unit scale the face depth won (attack 38: a box on a
 * heightfield, depth 0.7775 at scale 1, 0.5547 outside 2^-269 … 2^508). Allocation free.
 */
function edgeRuleOutOfRange(
  c: Contact,
  tri: Triangle,
  s: ConvexShape | null,
  sPose: Isometry,
): boolean {
  const t = sPose.translation;
  let m = Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
  m = Math.max(m, Math.abs(tri.a.x), Math.abs(tri.a.y), Math.abs(tri.a.z));
  m = Math.max(m, Math.abs(tri.b.x), Math.abs(tri.b.y), Math.abs(tri.b.z));
  m = Math.max(m, Math.abs(tri.c.x), Math.abs(tri.c.y), Math.abs(tri.c.z));
  m = Math.max(m, Math.abs(c.pointA.x), Math.abs(c.pointA.y), Math.abs(c.pointA.z));
  m = Math.max(m, Math.abs(c.pointB.x), Math.abs(c.pointB.y), Math.abs(c.pointB.z));
  if (s !== null) {
    shapeDef(s.type).writeMagnitude(rangeIo, s);
    m = Math.max(m, rangeIo[0]);
  }
  // Written out, not `outOfUnitRange(m)`: a double passed to a call V8 does not inline is boxed
  // (this runs on every inactive-edge contact of the world's meshes).
  return m > UNIT_RANGE_MAX || (m > 0 && m < UNIT_RANGE_MIN);
}

const scaledContact = makeContact();

/**
 * {@link fixInUnits} far from unit scale: the pair — T, S, S's pose and the contact — multiplied
 * by the power of two k of the pair table's change of units (`pairRescaleFactor`, from T's and
 * S's sizes and S's offset; T's alone when S is not support-mapped), answered there, and the
 * contact's lengths divided by k (exact). So the rule's answer at scale 2^j times a pair is 2^j
 * times its answer for the pair, bit for bit, wherever the unscaled rule is homogeneous.
 * Allocates the scaled copies (only out-of-range pairs get here).
 */
function fixRescaled(
  c: Contact,
  tri: Triangle,
  flags: number,
  s: ConvexShape | null,
  sPose: Isometry,
): void {
  const k = s !== null ? pairRescaleFactor(tri, s, sPose) : pairRescaleFactor(tri, tri, sPose);
  if (k === 1) {
    fixInUnits(c, tri, flags, s, sPose);
    return;
  }
  // The error register (src/narrowphase/contact.ts), raised by the re-measure's distance runs in
  // the scaled units, brought back by 1/k as the pair table's change of units does.
  const e0 = contactErrorIo[0];
  contactErrorIo[0] = 0;
  const sc = scaledContact;
  sc.distance = c.distance * k;
  vec3.copy(sc.normal, c.normal);
  vec3.scale(sc.pointA, c.pointA, k);
  vec3.scale(sc.pointB, c.pointB, k);
  fixInUnits(
    sc,
    scaledShape(tri, k) as Triangle,
    flags,
    s === null ? null : (scaledShape(s, k) as ConvexShape),
    scaledPose(sPose, k),
  );
  const inv = 1 / k;
  contactErrorIo[0] = Math.max(contactErrorIo[0] * inv, e0);
  c.distance = sc.distance * inv;
  vec3.copy(c.normal, sc.normal);
  vec3.scale(c.pointA, sc.pointA, inv);
  vec3.scale(c.pointB, sc.pointB, inv);
}

/** {@link fixInternalEdgeContact} at a magnitude inside the unit range. */
function fixInUnits(
  c: Contact,
  tri: Triangle,
  flags: number,
  s: ConvexShape | null,
  sPose: Isometry,
): void {
  vec3.sub(e, tri.b, tri.a);
  vec3.sub(r, tri.c, tri.a);
  vec3.cross(faceN, e, r);
  closestPointOnTriangle(closest, c.pointA, tri.a, tri.b, tri.c, weights);
  // The witness on T is only as exact as the pair's arithmetic: rounded at the coordinates of S
  // (its pose, its point), which for a large S beside a small T (a cylinder of 4e4 touching a box
  // mesh of 5e-7: witnesses 7e-13 off the active edge they lie on, weight 1.3e-6) exceed the
  // fixed tolerance in weight. A weight within that rounding of 0 is 0: the point may lie on an
  // active edge, and the contact is kept (issue 16). The rounding ~ε·m in length, m the largest
  // coordinate magnitude of S's pose, S's point and T; in weight over T's least height 2A/L.
  let m = Math.max(
    Math.abs(sPose.translation.x),
    Math.abs(sPose.translation.y),
    Math.abs(sPose.translation.z),
    Math.abs(c.pointB.x),
    Math.abs(c.pointB.y),
    Math.abs(c.pointB.z),
  );
  m = Math.max(m, Math.abs(tri.a.x), Math.abs(tri.a.y), Math.abs(tri.a.z));
  m = Math.max(m, Math.abs(tri.b.x), Math.abs(tri.b.y), Math.abs(tri.b.z));
  m = Math.max(m, Math.abs(tri.c.x), Math.abs(tri.c.y), Math.abs(tri.c.z));
  // |faceN| = 2A before normalising; the longest edge L squared.
  const twiceArea = Math.sqrt(faceN.x * faceN.x + faceN.y * faceN.y + faceN.z * faceN.z);
  let longest = e.x * e.x + e.y * e.y + e.z * e.z;
  longest = Math.max(longest, r.x * r.x + r.y * r.y + r.z * r.z);
  longest = Math.max(
    longest,
    (tri.c.x - tri.b.x) ** 2 + (tri.c.y - tri.b.y) ** 2 + (tri.c.z - tri.b.z) ** 2,
  );
  const eps = Math.max(
    MESH_FEATURE_BARYCENTRIC_TOLERANCE,
    (WITNESS_ROUNDING_ULPS * Number.EPSILON * m * Math.sqrt(longest)) / twiceArea,
  );
  if (!vec3.tryNormalize(faceN, faceN)) return;
  let small = 0;
  let k0 = -1;
  let big = -1;
  for (let k = 0; k < 3; k++) {
    if (weights[k] < eps) {
      small++;
      k0 = k;
    } else big = k;
  }
  if (small === 0) return;
  if (small === 1) {
    // On the edge opposite corner k0: edge (k0 + 1) runs from corner k0+1 to k0+2.
    if (flags & (1 << ((k0 + 1) % 3))) return;
  } else {
    // On corner `big`: its edges in this triangle are `big` and `big + 2`.
    if (big < 0 || flags & (1 << big) || flags & (1 << ((big + 2) % 3))) return;
  }
  let side = faceN.x * c.normal.x + faceN.y * c.normal.y + faceN.z * c.normal.z;
  if (side === 0) {
    vec3.sub(r, sPose.translation, tri.a);
    side = faceN.x * r.x + faceN.y * r.y + faceN.z * r.z;
  }
  // The depth along the face normal, over this triangle only: the edge contact's depth is a
  // sideways push, too shallow; the depth below the whole plane would overstate it wherever S
  // reaches past the face.
  if (s !== null && faceContactTriangleConvex(faceContact, tri, faceN, s, sPose)) {
    c.distance = faceContact.distance;
    vec3.copy(c.normal, faceContact.normal);
    vec3.copy(c.pointA, faceContact.pointA);
    vec3.copy(c.pointB, faceContact.pointB);
    return;
  }
  if (side < 0) vec3.negate(faceN, faceN);
  vec3.copy(c.normal, faceN);
  const d = c.distance;
  c.pointB.x = c.pointA.x + faceN.x * d;
  c.pointB.y = c.pointA.y + faceN.y * d;
  c.pointB.z = c.pointA.z + faceN.z * d;
}
