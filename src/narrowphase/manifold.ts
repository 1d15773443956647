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
 *    `MANIFOLD_REFERENCE_FACE_TOLERANCE`), provided it is aligned within `MANIFOLD_FEATURE_COS`.
 *    The other feature, the incident one, is clipped against the reference face's side planes
 *    (planes through its edges containing the normal; Ericson 2005, §8.3.4).
 * 3. When no face is aligned (an edge–edge contact), polyhedral shapes fall back to their
 *    supporting edges; two parallel segments are clipped to each other's slab, and anything
 *    else is a single-point contact.
 * 4. Each clipped point p is measured along the normal against the reference plane: its signed
 *    distance t is exact relative to that plane, the reference-side witness is p moved by t
 *    along the normal onto the plane, and points farther than the prediction distance plus a
 *    plane tolerance (`MANIFOLD_TOLERANCE`, or `MANIFOLD_RELATIVE_TOLERANCE` of the reference
 *    feature's size when that is smaller, so millimetre shapes keep their own scale) are dropped. The rest are reduced to at most 4 that keep the
 *    largest area (src/geometry/clip.ts).
 *
 * If nothing survives (a numerical corner case, or a point feature), the manifold is the single
 * given contact. Cylinder caps and cone bases are approximated by an inscribed regular octagon
 * that includes the exact deepest rim point; it only chooses where manifold points go, and
 * every point's distance is still computed exactly against the reference plane.
 *
 * Feature ids are deterministic integers below 2^53:
 * `((refIsB · 2^12 + refFeature) · 2^12 + incidentFeature) · 2^28 + vertexTag`, where features
 * are numbered per shape (box faces 0–5 as axis·2 + [negative side], box edges from 6, hull
 * faces by index and hull edges from faceCount, triangle face 0 and edges 1–3, capsule core 0,
 * cylinder caps 0 (+Y) and 1 (−Y) and side 2, cone base 0 and side 1) and vertex tags come from
 * the clipper (≥ 1, below 2^26; a tag repeated within one manifold, possible only in degenerate
 * clips, gets 2^26 added per repeat). The single-contact fallback has feature id 0.
 */

import {
  MANIFOLD_FEATURE_COS,
  MANIFOLD_PARALLEL_SIN,
  MANIFOLD_REFERENCE_FACE_TOLERANCE,
  MANIFOLD_RELATIVE_TOLERANCE,
  MANIFOLD_TOLERANCE,
} from "../constants.js";
import {
  type ClipPolygon,
  clipPolygonAgainstPolygon,
  makeClipPolygon,
  pushClipVertex,
  reduceManifoldPoints,
  reserveClipPolygon,
} from "../geometry/clip.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { hypot2, hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Cone } from "../shapes/cone.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Cylinder } from "../shapes/cylinder.js";
import type { RoundedShape } from "../shapes/rounded.js";
import type { ConvexShape } from "../shapes/shape.js";
import { SHAPE_TYPE_COUNT, ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact, ContactManifold } from "./contact.js";
import { MAX_MANIFOLD_POINTS } from "./contact.js";

/** Vertices of the regular polygon inscribed in a cylinder cap or cone base (fixed at 8). */
export const MANIFOLD_CAP_POLYGON_VERTICES = 8;

/** Largest sine of a segment's angle to the contact plane for it to be a contact feature. */
const SEGMENT_SIN = Math.sqrt(1 - MANIFOLD_FEATURE_COS * MANIFOLD_FEATURE_COS);

/** cos and sin of k · 45°, exact to rounding without trigonometric calls. */
const OCTAGON_COS = [1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2, 0, Math.SQRT1_2];
const OCTAGON_SIN = [0, Math.SQRT1_2, 1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2];

const FEATURE_FIELD = 4096;
const TAG_FIELD = 268435456;
/** Clipper tags stay below 2^26; the two bits above count repeats of a tag within a manifold. */
const DUPLICATE_TAG = 67108864;

const NONE = 0;
const POINT = 1;
const SEGMENT = 2;
const POLYGON = 3;

/** A supporting feature: its vertices, kind, outward normal (polygons) and alignment. */
interface Feature {
  poly: ClipPolygon;
  kind: number;
  normal: Vec3;
  cos: number;
  index: number;
}

function makeFeature(): Feature {
  return { poly: makeClipPolygon(), kind: NONE, normal: vec3.create(), cos: 0, index: 0 };
}

const featA = makeFeature();
const featB = makeFeature();
const clipped = makeClipPolygon();
const clipScratch = makeClipPolygon();
const candidates = makeClipPolygon();
let candidateDistances = new Float64Array(candidates.tags.length);
const chosen = new Int32Array(MAX_MANIFOLD_POINTS);
const nrm = vec3.create();
const dirB = vec3.create();
const tmp = vec3.create();
const signs = vec3.create();
const planeN = vec3.create();
const edgeA = vec3.create();
const edgeB = vec3.create();

function setPoint(f: Feature, index: number): void {
  f.kind = POINT;
  f.poly.count = 0;
  f.index = index;
  f.cos = 0;
}

function setSegment(
  f: Feature,
  index: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  tagA: number,
  tagB: number,
): void {
  f.kind = SEGMENT;
  f.index = index;
  f.cos = 0;
  f.poly.count = 0;
  pushClipVertex(f.poly, ax, ay, az, tagA);
  pushClipVertex(f.poly, bx, by, bz, tagB);
}

/** Sine of the angle between segment (x, y, z) and the plane ⟂ unit d; 1 for zero length. */
function segmentSin(x: number, y: number, z: number, d: Vec3): number {
  const len = hypot3(x, y, z);
  if (!(len > 0)) return 1;
  return Math.abs(x * d.x + y * d.y + z * d.z) / len;
}

// ---------------------------------------------------------------------------------------------
// Supporting features in the shape's local frame (d is a unit direction)
// ---------------------------------------------------------------------------------------------

function cuboidFace(f: Feature, c: Cuboid, d: Vec3): void {
  const i = vec3.maxAbsAxis(d);
  const s = vec3.getAxis(d, i) >= 0 ? 1 : -1;
  const j = (i + 1) % 3;
  const k = (i + 2) % 3;
  f.kind = POLYGON;
  f.index = 2 * i + (s < 0 ? 1 : 0);
  f.cos = Math.abs(vec3.getAxis(d, i));
  vec3.set(f.normal, 0, 0, 0);
  vec3.setAxis(f.normal, i, s);
  f.poly.count = 0;
  for (let q = 0; q < 4; q++) {
    // Counter-clockwise about +e_i is (+,+), (−,+), (−,−), (+,−) in (j, k); reversed for −e_i.
    const qq = s > 0 ? q : (4 - q) % 4;
    vec3.set(signs, 0, 0, 0);
    vec3.setAxis(signs, i, s);
    vec3.setAxis(signs, j, qq === 0 || qq === 3 ? 1 : -1);
    vec3.setAxis(signs, k, qq < 2 ? 1 : -1);
    pushCorner(f.poly, c, signs);
  }
}

/** Appends the box corner with the given ±1 signs, tagged 1 + its corner index. */
function pushCorner(poly: ClipPolygon, c: Cuboid, sg: Vec3): void {
  const h = c.halfExtents;
  const tag = 1 + (sg.x > 0 ? 1 : 0) + (sg.y > 0 ? 2 : 0) + (sg.z > 0 ? 4 : 0);
  pushClipVertex(poly, sg.x * h.x, sg.y * h.y, sg.z * h.z, tag);
}

function cuboidEdge(f: Feature, c: Cuboid, d: Vec3): void {
  const h = c.halfExtents;
  vec3.set(signs, d.x >= 0 ? 1 : -1, d.y >= 0 ? 1 : -1, d.z >= 0 ? 1 : -1);
  let best = -1;
  let bestSin = Infinity;
  for (let j = 0; j < 3; j++) {
    if (!(vec3.getAxis(h, j) > 0)) continue;
    const sn = Math.abs(vec3.getAxis(d, j));
    if (sn < bestSin) {
      bestSin = sn;
      best = j;
    }
  }
  const corner = (signs.x > 0 ? 1 : 0) + (signs.y > 0 ? 2 : 0) + (signs.z > 0 ? 4 : 0);
  if (best < 0 || bestSin > SEGMENT_SIN) {
    setPoint(f, 6 + 3 * corner);
    return;
  }
  f.kind = SEGMENT;
  f.index = 6 + 3 * corner + best;
  f.cos = 0;
  f.poly.count = 0;
  pushCorner(f.poly, c, signs);
  vec3.setAxis(signs, best, -vec3.getAxis(signs, best));
  pushCorner(f.poly, c, signs);
}

function polyhedronFace(f: Feature, p: ConvexPolyhedron, d: Vec3): void {
  const fn = p.faceNormals;
  let best = 0;
  let bestDot = -Infinity;
  for (let i = 0; i < p.faceCount; i++) {
    const dd = fn[3 * i] * d.x + fn[3 * i + 1] * d.y + fn[3 * i + 2] * d.z;
    if (dd > bestDot) {
      bestDot = dd;
      best = i;
    }
  }
  f.kind = POLYGON;
  f.index = best;
  f.cos = bestDot;
  vec3.set(f.normal, fn[3 * best], fn[3 * best + 1], fn[3 * best + 2]);
  const v = p.vertices;
  const start = p.faceOffsets[best];
  const end = p.faceOffsets[best + 1];
  f.poly.count = 0;
  reserveClipPolygon(f.poly, end - start);
  for (let q = start; q < end; q++) {
    const vi = p.faceVertices[q];
    pushClipVertex(f.poly, v[3 * vi], v[3 * vi + 1], v[3 * vi + 2], vi + 1);
  }
}

function polyhedronEdge(f: Feature, p: ConvexPolyhedron, d: Vec3): void {
  const v = p.vertices;
  let sv = 0;
  let bestDot = -Infinity;
  for (let i = 0; i < p.vertexCount; i++) {
    const dd = v[3 * i] * d.x + v[3 * i + 1] * d.y + v[3 * i + 2] * d.z;
    if (dd > bestDot) {
      bestDot = dd;
      sv = i;
    }
  }
  const e = p.edges;
  let best = -1;
  let other = 0;
  let bestSin = Infinity;
  for (let q = 0; q + 1 < e.length; q += 2) {
    let o: number;
    if (e[q] === sv) o = e[q + 1];
    else if (e[q + 1] === sv) o = e[q];
    else continue;
    const sn = segmentSin(
      v[3 * o] - v[3 * sv],
      v[3 * o + 1] - v[3 * sv + 1],
      v[3 * o + 2] - v[3 * sv + 2],
      d,
    );
    if (sn < bestSin) {
      bestSin = sn;
      best = q >> 1;
      other = o;
    }
  }
  if (best < 0 || bestSin > SEGMENT_SIN) {
    setPoint(f, p.faceCount + p.edges.length / 2 + sv);
    return;
  }
  setSegment(
    f,
    p.faceCount + best,
    v[3 * sv],
    v[3 * sv + 1],
    v[3 * sv + 2],
    v[3 * other],
    v[3 * other + 1],
    v[3 * other + 2],
    sv + 1,
    other + 1,
  );
}

function triangleFace(f: Feature, t: Triangle, d: Vec3): void {
  const ux = t.b.x - t.a.x;
  const uy = t.b.y - t.a.y;
  const uz = t.b.z - t.a.z;
  const vx = t.c.x - t.a.x;
  const vy = t.c.y - t.a.y;
  const vz = t.c.z - t.a.z;
  vec3.set(f.normal, uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  if (vec3.normalize(f.normal, f.normal) === 0) {
    triangleEdge(f, t, d);
    return;
  }
  let cos = vec3.dot(f.normal, d);
  const flip = cos < 0;
  if (flip) {
    vec3.negate(f.normal, f.normal);
    cos = -cos;
  }
  f.kind = POLYGON;
  f.index = 0;
  f.cos = cos;
  f.poly.count = 0;
  pushClipVertex(f.poly, t.a.x, t.a.y, t.a.z, 1);
  if (flip) {
    pushClipVertex(f.poly, t.c.x, t.c.y, t.c.z, 3);
    pushClipVertex(f.poly, t.b.x, t.b.y, t.b.z, 2);
  } else {
    pushClipVertex(f.poly, t.b.x, t.b.y, t.b.z, 2);
    pushClipVertex(f.poly, t.c.x, t.c.y, t.c.z, 3);
  }
}

function triangleEdge(f: Feature, t: Triangle, d: Vec3): void {
  const da = vec3.dot(t.a, d);
  const db = vec3.dot(t.b, d);
  const dc = vec3.dot(t.c, d);
  // The supporting edge is the one opposite the lowest corner.
  let p: Vec3;
  let q: Vec3;
  let edge: number;
  let tp: number;
  let tq: number;
  if (dc <= da && dc <= db) {
    p = t.a;
    q = t.b;
    edge = 1;
    tp = 1;
    tq = 2;
  } else if (da <= db) {
    p = t.b;
    q = t.c;
    edge = 2;
    tp = 2;
    tq = 3;
  } else {
    p = t.c;
    q = t.a;
    edge = 3;
    tp = 3;
    tq = 1;
  }
  if (segmentSin(q.x - p.x, q.y - p.y, q.z - p.z, d) > SEGMENT_SIN) {
    setPoint(f, edge);
    return;
  }
  setSegment(f, edge, p.x, p.y, p.z, q.x, q.y, q.z, tp, tq);
}

function capsuleFeature(f: Feature, c: Capsule, d: Vec3): void {
  if (segmentSin(c.b.x - c.a.x, c.b.y - c.a.y, c.b.z - c.a.z, d) > SEGMENT_SIN) {
    setPoint(f, 0);
    return;
  }
  const r = c.radius;
  setSegment(
    f,
    0,
    c.a.x + r * d.x,
    c.a.y + r * d.y,
    c.a.z + r * d.z,
    c.b.x + r * d.x,
    c.b.y + r * d.y,
    c.b.z + r * d.z,
    1,
    2,
  );
}

/** Regular octagon inscribed in the disc of `radius` at height y, first vertex along (ux, uz). */
function discPolygon(
  f: Feature,
  y: number,
  radius: number,
  ux: number,
  uz: number,
  up: boolean,
): void {
  f.kind = POLYGON;
  f.poly.count = 0;
  for (let q = 0; q < MANIFOLD_CAP_POLYGON_VERTICES; q++) {
    // Increasing angle about +Y turns z toward x, clockwise seen from +Y; reverse for the top.
    const k = up ? (MANIFOLD_CAP_POLYGON_VERTICES - q) % MANIFOLD_CAP_POLYGON_VERTICES : q;
    const cs = OCTAGON_COS[k];
    const sn = OCTAGON_SIN[k];
    pushClipVertex(f.poly, radius * (ux * cs - uz * sn), y, radius * (ux * sn + uz * cs), q + 1);
  }
}

function cylinderFeature(f: Feature, c: Cylinder, d: Vec3): void {
  const rho = hypot2(d.x, d.z);
  const ux = rho > 0 ? d.x / rho : 1;
  const uz = rho > 0 ? d.z / rho : 0;
  const ay = Math.abs(d.y);
  if (ay >= MANIFOLD_FEATURE_COS) {
    const up = d.y >= 0;
    discPolygon(f, up ? c.halfHeight : -c.halfHeight, c.radius, ux, uz, up);
    f.index = up ? 0 : 1;
    f.cos = ay;
    vec3.set(f.normal, 0, up ? 1 : -1, 0);
    return;
  }
  if (ay <= SEGMENT_SIN) {
    const x = c.radius * ux;
    const z = c.radius * uz;
    setSegment(f, 2, x, -c.halfHeight, z, x, c.halfHeight, z, 1, 2);
    return;
  }
  setPoint(f, 2);
}

function coneFeature(f: Feature, c: Cone, d: Vec3): void {
  const rho = hypot2(d.x, d.z);
  const ux = rho > 0 ? d.x / rho : 1;
  const uz = rho > 0 ? d.z / rho : 0;
  if (-d.y >= MANIFOLD_FEATURE_COS) {
    discPolygon(f, -c.halfHeight, c.radius, ux, uz, false);
    f.index = 0;
    f.cos = -d.y;
    vec3.set(f.normal, 0, -1, 0);
    return;
  }
  const x = c.radius * ux;
  const z = c.radius * uz;
  const h = c.halfHeight;
  if (rho > 0 && segmentSin(x, -2 * h, z, d) <= SEGMENT_SIN) {
    setSegment(f, 1, 0, h, 0, x, -h, z, 1, 2);
    return;
  }
  setPoint(f, 1);
}

/** The primary supporting feature of `s` along unit local direction d. */
function primaryFeature(f: Feature, s: ConvexShape, d: Vec3): void {
  switch (s.type) {
    case ShapeType.Sphere:
      setPoint(f, 0);
      return;
    case ShapeType.Cuboid:
      cuboidFace(f, s, d);
      return;
    case ShapeType.Capsule:
      capsuleFeature(f, s, d);
      return;
    case ShapeType.Cylinder:
      cylinderFeature(f, s, d);
      return;
    case ShapeType.Cone:
      coneFeature(f, s, d);
      return;
    case ShapeType.ConvexPolyhedron:
      polyhedronFace(f, s, d);
      return;
    case ShapeType.Triangle:
      triangleFace(f, s, d);
      return;
  }
}

/** Replaces a polyhedral shape's face feature by its supporting edge (or vertex). */
function edgeFeature(f: Feature, s: ConvexShape, d: Vec3): void {
  if (s.type === ShapeType.Cuboid) cuboidEdge(f, s, d);
  else if (s.type === ShapeType.ConvexPolyhedron) polyhedronEdge(f, s, d);
  else if (s.type === ShapeType.Triangle) triangleEdge(f, s, d);
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

function singleContact(out: ContactManifold, contact: Contact): ContactManifold {
  const p = out.points[0];
  vec3.copy(p.pointA, contact.pointA);
  vec3.copy(p.pointB, contact.pointB);
  p.distance = contact.distance;
  p.featureId = 0;
  out.count = 1;
  return out;
}

/** Per shape type: 1 for a rounded shape (a core swept by a ball, src/shapes/rounded.ts). */
const ROUNDED = new Uint8Array(SHAPE_TYPE_COUNT);
ROUNDED[ShapeType.RoundedCuboid] = 1;
ROUNDED[ShapeType.RoundedConvexPolyhedron] = 1;

const coreContact: Contact = {
  distance: 0,
  normal: vec3.create(),
  pointA: vec3.create(),
  pointB: vec3.create(),
};

/**
 * The manifold of a pair with a rounded shape: the manifold of the cores, with the contact
 * moved onto the cores (each witness moved by its radius along the normal, the distance grown
 * by both radii and the prediction too), then every point pushed back out by the radii (A's
 * point along +n, B's along −n) and its distance shrunk by rA + rB — exact for the flat
 * features that clipping uses, as a rounded face is its core face moved by the radius (Jolt's
 * convex radius; van den Bergen 2003, §4.3.4).
 */
function manifoldRounded(
  out: ContactManifold,
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): ContactManifold {
  const rA = ROUNDED[a.type] === 1 ? (a as RoundedShape).radius : 0;
  const rB = ROUNDED[b.type] === 1 ? (b as RoundedShape).radius : 0;
  const ca = ROUNDED[a.type] === 1 ? ((a as RoundedShape).core as ConvexShape) : a;
  const cb = ROUNDED[b.type] === 1 ? ((b as RoundedShape).core as ConvexShape) : b;
  const n = contact.normal;
  coreContact.distance = contact.distance + rA + rB;
  vec3.copy(coreContact.normal, n);
  vec3.addScaled(coreContact.pointA, contact.pointA, n, -rA);
  vec3.addScaled(coreContact.pointB, contact.pointB, n, rB);
  manifoldFromContact(out, ca, cb, bInA, coreContact, prediction + rA + rB);
  const m = out.normal;
  for (let i = 0; i < out.count; i++) {
    const p = out.points[i];
    vec3.addScaled(p.pointA, p.pointA, m, rA);
    vec3.addScaled(p.pointB, p.pointB, m, -rB);
    p.distance -= rA + rB;
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
  if (ROUNDED[a.type] === 1 || ROUNDED[b.type] === 1) {
    return manifoldRounded(out, a, b, bInA, contact, prediction);
  }
  // Helpers that return doubles are avoided here: this function is too large for V8 to inline
  // them, and a double returned by a call that is not inlined is boxed (allocated).
  const unit = vec3.tryNormalize(nrm, contact.normal);
  vec3.copy(out.normal, unit ? nrm : contact.normal);
  if (!unit) return singleContact(out, contact);
  // A sphere's supporting feature is its one point, so the manifold is the contact itself:
  // answered before the features are built (the same result the clipping path gives).
  if (a.type === ShapeType.Sphere || b.type === ShapeType.Sphere) {
    return singleContact(out, contact);
  }
  vec3.negate(tmp, nrm);
  quat.inverseRotate(dirB, bInA.rotation, tmp);

  primaryFeature(featA, a, nrm);
  primaryFeature(featB, b, dirB);
  transformFeature(featB, bInA);

  const faceA = featA.kind === POLYGON && featA.cos >= MANIFOLD_FEATURE_COS;
  const faceB = featB.kind === POLYGON && featB.cos >= MANIFOLD_FEATURE_COS;
  let ref: Feature;
  let inc: Feature;
  let refIsB: boolean;
  if (faceA || faceB) {
    refIsB = !faceA || (faceB && featB.cos * (1 - MANIFOLD_REFERENCE_FACE_TOLERANCE) > featA.cos);
    ref = refIsB ? featB : featA;
    inc = refIsB ? featA : featB;
    if (inc.kind !== POLYGON && inc.kind !== SEGMENT) return singleContact(out, contact);
    clipPolygonAgainstPolygon(clipped, inc.poly, ref.poly, nrm, clipScratch);
    vec3.copy(planeN, ref.normal);
  } else {
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
    clipPolygonAgainstPolygon(clipped, inc.poly, ref.poly, nrm, clipScratch);
  }

  const ro = ref.poly.xyz;
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
  const limit = Math.max(prediction, contact.distance) + planeTolerance;
  const cv = clipped.xyz;
  candidates.count = 0;
  reserveClipPolygon(candidates, clipped.count);
  if (candidateDistances.length < candidates.tags.length) {
    candidateDistances = new Float64Array(candidates.tags.length);
  }
  for (let i = 0; i < clipped.count; i++) {
    const x = cv[3 * i];
    const y = cv[3 * i + 1];
    const z = cv[3 * i + 2];
    const t = (planeN.x * (x - ox) + planeN.y * (y - oy) + planeN.z * (z - oz)) / mn;
    if (!(t <= limit)) continue;
    // Written in place (room reserved above): doubles passed to a call are boxed by V8.
    const q = candidates.count++;
    candidateDistances[q] = t;
    candidates.xyz[3 * q] = x;
    candidates.xyz[3 * q + 1] = y;
    candidates.xyz[3 * q + 2] = z;
    candidates.tags[q] = clipped.tags[i];
  }
  if (candidates.count === 0) return singleContact(out, contact);

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
    onRef.x = ix + nrm.x * st;
    onRef.y = iy + nrm.y * st;
    onRef.z = iz + nrm.z * st;
    p.distance = t;
    let id = featurePrefix * TAG_FIELD + (candidates.tags[i] % DUPLICATE_TAG);
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
