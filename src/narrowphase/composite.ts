/**
 * The generic composite mid-phase (parry's `composite_shape_*` queries): any shape A against a
 * composite shape B — one whose type registered a {@link CompositeView} (a triangle mesh, a
 * compound; a heightfield when it comes) — answered part by part through the pair table, so a
 * pair of the part's type with A's type that the table answers is answered for the composite.
 *
 * A's bounding box in B's frame (grown by the prediction distance) selects the candidate parts
 * through the view's bounding-volume query; each part is posed in A's frame
 * (`bInA ∘ partPose`) and handed to the pair table, which flips, rescales and specialises as
 * for any pair, and recurses when A is composite too.
 *
 * - intersects: some part intersects A.
 * - contact: the part contact with the smallest signed distance (ties to the first part in
 *   the view's order, so deterministic).
 * - distance: through contact with an unbounded prediction: the smallest signed distance is the
 *   distance when apart and the deepest contact when overlapping (the `distance` contract).
 * - manifold: the manifold of the deepest part (whose contact is the pair's contact).
 *
 * The pair table registers these for every pair with a composite B that has no specialised
 * routine (src/narrowphase/dispatch.ts), in both orders. Triangle meshes keep specialised
 * routines against convex shapes, half-spaces and meshes (convex-mesh, mesh-half-space,
 * mesh-mesh: the BVH branch-and-bound and internal-edge normals); this path serves compounds in
 * every query, meshes against compounds, and the ray, point and shape casts of every composite
 * (src/query/).
 *
 * Recursion: a level of scratch per nesting depth (a compound's children are convex, so a pair
 * nests at most a few levels); `bInA` is copied at entry and `out` written only after the last
 * nested call, as the pair table's flip requires.
 */
import { MESH_MANIFOLD_MERGE_COS } from "../constants.js";
import { CollideError } from "../errors.js";
import { reduceManifoldPoints } from "../geometry/clip.js";
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import { makeMeshBvhHits } from "../geometry/mesh-bvh.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { growFloat64 } from "../math/typed-arrays.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { CompositePart, CompositeView } from "../shapes/composite.js";
import { compositeView, makeCompositePart } from "../shapes/composite.js";
import { aabbShape, isSupportMappedType } from "../shapes/registry.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { copyManifold, MAX_MANIFOLD_POINTS, makeContact, makeContactManifold } from "./contact.js";
import { fixInternalEdgeContact } from "./face-depth.js";
import { manifoldFromContact } from "./manifold.js";
import { contactPair, intersectsPair, manifoldPair, unsupportedPair } from "./pair-table.js";

/** Deepest nesting of composite levels (compounds of convex children need 2, meshes 1). */
const MAX_COMPOSITE_DEPTH = 8;

/** Scratch of one nesting level. */
interface Level {
  hits: MeshBvhHits;
  part: CompositePart;
  bInA: Isometry;
  aInB: Isometry;
  partInA: Isometry;
  /** The distance query's own copy of B's pose (its caller's may be a scratch that nested calls reuse). */
  distanceBInA: Isometry;
  box: Aabb;
  contact: Contact;
  best: Contact;
  manifold: ContactManifold;
  /** Surface manifolds: the part contacts, [part, distance, normal xyz, pointA xyz, pointB xyz]. */
  stored: Float64Array<ArrayBuffer>;
  /** Surface manifolds: merged points, the other shape's point (xyz) and the part's (xyz). */
  pointOther: Float64Array<ArrayBuffer>;
  pointPart: Float64Array<ArrayBuffer>;
  pointDist: Float64Array<ArrayBuffer>;
  pointFeature: Float64Array<ArrayBuffer>;
}

function makeLevel(): Level {
  return {
    hits: makeMeshBvhHits(16),
    part: makeCompositePart(),
    bInA: iso.identity(),
    aInB: iso.identity(),
    partInA: iso.identity(),
    distanceBInA: iso.identity(),
    box: { min: vec3.create(), max: vec3.create() },
    contact: makeContact(),
    best: makeContact(),
    manifold: makeContactManifold(),
    stored: new Float64Array(STRIDE * 16),
    pointOther: new Float64Array(3 * 64),
    pointPart: new Float64Array(3 * 64),
    pointDist: new Float64Array(64),
    pointFeature: new Float64Array(64),
  };
}

/** Doubles per stored part contact of a surface manifold. */
const STRIDE = 11;

const levels: Level[] = [];
for (let i = 0; i < MAX_COMPOSITE_DEPTH; i++) levels.push(makeLevel());
let depth = 0;

/** Takes the next level's scratch with `bInA` copied in. */
function enter(bInA: Isometry): Level {
  if (depth >= MAX_COMPOSITE_DEPTH) {
    throw new CollideError(
      "invalid_value",
      "shape",
      depth,
      `composite shapes nest deeper than ${MAX_COMPOSITE_DEPTH} levels`,
    );
  }
  const l = levels[depth++];
  iso.copy(l.bInA, bInA);
  return l;
}

/** The view of composite `b` (the table registers these routines for composites only). */
function viewOf(a: Shape, b: Shape, op: string): CompositeView {
  const v = compositeView(b.type);
  if (!v) return unsupportedPair(a, b, op);
  return v;
}

/**
 * Collects in `l.hits` the parts of composite `b` whose bounds may come within `margin` of A
 * (A's box in B's frame; an unbounded A, a half-space, selects every part). Returns their count.
 */
function candidates(l: Level, view: CompositeView, a: Shape, b: Shape, margin: number): number {
  iso.invert(l.aInB, l.bInA);
  aabbShape(l.box, a, l.aInB);
  let m = margin;
  if (!(m > 0)) m = 0; // NaN or negative: no margin
  const lo = l.box.min;
  const hi = l.box.max;
  return view.queryAabb(l.hits, b, lo.x - m, lo.y - m, lo.z - m, hi.x + m, hi.y + m, hi.z + m);
}

/** Writes part `i` of `b` into the level and returns its pose in A's frame. */
function partPose(l: Level, view: CompositeView, b: Shape, i: number): Isometry {
  view.part(l.part, b, i);
  if (l.part.hasPose) return iso.multiply(l.partInA, l.bInA, l.part.pose);
  return iso.copy(l.partInA, l.bInA);
}

/** True when A touches or overlaps some part of composite B (B at `bInA`, A's frame). */
export function intersectsShapeComposite(a: Shape, b: Shape, bInA: Isometry): boolean {
  const view = viewOf(a, b, "intersects");
  const l = enter(bInA);
  try {
    const n = candidates(l, view, a, b, 0);
    for (let h = 0; h < n; h++) {
      const pose = partPose(l, view, b, l.hits.ids[h]);
      if (intersectsPair(a, l.part.shape, pose)) return true;
    }
    return false;
  } finally {
    depth--;
  }
}

/**
 * Contact of A and composite B within `prediction` (A's frame): the part contact with the
 * smallest signed distance; false when no part is that close.
 */
export function contactShapeComposite(
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const view = viewOf(a, b, "contact");
  const l = enter(bInA);
  try {
    const n = candidates(l, view, a, b, prediction);
    let found = false;
    for (let h = 0; h < n; h++) {
      const i = l.hits.ids[h];
      const pose = partPose(l, view, b, i);
      if (!contactPair(l.contact, a, l.part.shape, pose, prediction)) continue;
      if (view.edgeFlags) fixInternalEdge(l.contact, view, a, b, i, l);
      if (found && !(l.contact.distance < l.best.distance)) continue;
      found = true;
      copyContact(l.best, l.contact);
    }
    if (found) copyContact(out, l.best);
    return found;
  } finally {
    depth--;
  }
}

/**
 * Closest points of A and composite B (A's frame): distance ≥ 0 and the witness points; when
 * they overlap, distance 0 and the deepest contact's points.
 */
export function distanceShapeComposite(
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  const l = levels[depth];
  if (!l) return unsupportedPair(a, b, "distance");
  // Growing prediction: a contact found within m is the nearest of all (every part closer than
  // m is a candidate of the box grown by m), so the parts far from A are never tested.
  const pose = iso.copy(l.distanceBInA, bInA);
  let m = initialReach(l, a, b, pose);
  for (let k = 0; ; k++) {
    if (contactShapeComposite(l.best, a, b, pose, m)) break;
    if (m === Infinity) return unsupportedPair(a, b, "distance");
    m = k >= DISTANCE_MAX_GROWTHS ? Infinity : 4 * m;
  }
  out.distance = Math.max(0, l.best.distance);
  vec3.copy(out.pointA, l.best.pointA);
  vec3.copy(out.pointB, l.best.pointB);
  return out;
}

/** Growths (×4 each) of the distance query's reach before it takes every part. */
const DISTANCE_MAX_GROWTHS = 24;

const boundsB: Aabb = { min: vec3.create(), max: vec3.create() };

/**
 * A first reach for the distance query: the gap between A's box and B's box in B's frame
 * (per axis, the largest: a lower bound of the distance), or when they overlap 1/16 of the
 * smaller box's largest side (a positive start; the search grows it by 4× until it finds a part).
 */
function initialReach(l: Level, a: Shape, b: Shape, bInA: Isometry): number {
  iso.invert(l.aInB, bInA);
  aabbShape(l.box, a, l.aInB);
  aabbShape(boundsB, b, IDENTITY);
  const lo = l.box.min;
  const hi = l.box.max;
  const gap = Math.max(
    boundsB.min.x - hi.x,
    lo.x - boundsB.max.x,
    boundsB.min.y - hi.y,
    lo.y - boundsB.max.y,
    boundsB.min.z - hi.z,
    lo.z - boundsB.max.z,
  );
  const sideA = Math.max(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z);
  const sideB = Math.max(
    boundsB.max.x - boundsB.min.x,
    boundsB.max.y - boundsB.min.y,
    boundsB.max.z - boundsB.min.z,
  );
  const start = Math.min(sideA, sideB) / 16;
  const m = Math.max(gap, start);
  return m > 0 && Number.isFinite(m) ? m : Infinity;
}

const IDENTITY = iso.identity();

/**
 * Contact manifold of A and composite B within `prediction` (A's frame): the manifold of the
 * part with the deepest contact; false when no part is that close. For a surface (a view with
 * `edgeFlags`: a heightfield) the manifolds of every part whose contact normal agrees with the
 * deepest one's are merged instead, as a triangle mesh's are (src/narrowphase/convex-mesh.ts).
 */
export function manifoldShapeComposite(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const view = viewOf(a, b, "manifold");
  const l = enter(bInA);
  try {
    if (view.edgeFlags) return manifoldSurface(out, l, view, a, b, prediction);
    const n = candidates(l, view, a, b, prediction);
    let bestPart = -1;
    let bestDistance = Infinity;
    for (let h = 0; h < n; h++) {
      const i = l.hits.ids[h];
      const pose = partPose(l, view, b, i);
      if (!contactPair(l.contact, a, l.part.shape, pose, prediction)) continue;
      if (bestPart >= 0 && !(l.contact.distance < bestDistance)) continue;
      bestDistance = l.contact.distance;
      bestPart = i;
    }
    if (bestPart < 0) return false;
    const pose = partPose(l, view, b, bestPart);
    if (!manifoldPair(l.manifold, a, l.part.shape, pose, prediction)) return false;
    copyManifold(out, l.manifold);
    return true;
  } finally {
    depth--;
  }
}

function copyContact(out: Contact, c: Contact): void {
  out.distance = c.distance;
  vec3.copy(out.normal, c.normal);
  vec3.copy(out.pointA, c.pointA);
  vec3.copy(out.pointB, c.pointB);
}

const ca = vec3.create();
const cb = vec3.create();
const cc = vec3.create();
const flippedContact = makeContact();

/**
 * Internal edges of a surface part (A's frame; the part, a triangle, is B): the library's one
 * internal-edge rule (src/narrowphase/face-depth.ts's `fixInternalEdgeContact`, as a triangle
 * mesh applies it) on the contact seen from the triangle, with A as the shape re-measured along
 * the face normal when A is support-mapped (else the depth and the triangle's point are kept).
 * `l.part` holds part i and `l.partInA` its pose.
 */
function fixInternalEdge(
  c: Contact,
  view: CompositeView,
  a: Shape,
  b: Shape,
  i: number,
  l: Level,
): void {
  if (c.distance > 0) return;
  const flags = (view.edgeFlags as (s: Shape, i: number) => number)(b, i);
  if (flags === 7) return;
  const t = l.part.triangle;
  iso.transformPoint(triInA.a, l.partInA, t.a);
  iso.transformPoint(triInA.b, l.partInA, t.b);
  iso.transformPoint(triInA.c, l.partInA, t.c);
  // The contact seen from the triangle (its A), so the rule reads it in its own order.
  const f = flippedContact;
  f.distance = c.distance;
  vec3.negate(f.normal, c.normal);
  vec3.copy(f.pointA, c.pointB);
  vec3.copy(f.pointB, c.pointA);
  const convexA = isSupportMappedType(a.type) ? (a as ConvexShape) : null;
  fixInternalEdgeContact(f, triInA, flags, convexA, IDENTITY);
  c.distance = f.distance;
  vec3.negate(c.normal, f.normal);
  vec3.copy(c.pointA, f.pointB);
  vec3.copy(c.pointB, f.pointA);
}

const triInA: Triangle = {
  type: ShapeType.Triangle,
  a: ca,
  b: cb,
  c: cc,
};

function storeContact(l: Level, k: number, part: number, c: Contact): void {
  l.stored = growFloat64(l.stored, STRIDE * (k + 1));
  const s = l.stored;
  const o = STRIDE * k;
  s[o] = part;
  s[o + 1] = c.distance;
  s[o + 2] = c.normal.x;
  s[o + 3] = c.normal.y;
  s[o + 4] = c.normal.z;
  s[o + 5] = c.pointA.x;
  s[o + 6] = c.pointA.y;
  s[o + 7] = c.pointA.z;
  s[o + 8] = c.pointB.x;
  s[o + 9] = c.pointB.y;
  s[o + 10] = c.pointB.z;
}

function loadContact(l: Level, c: Contact, k: number): number {
  const s = l.stored;
  const o = STRIDE * k;
  c.distance = s[o + 1];
  vec3.set(c.normal, s[o + 2], s[o + 3], s[o + 4]);
  vec3.set(c.pointA, s[o + 5], s[o + 6], s[o + 7]);
  vec3.set(c.pointB, s[o + 8], s[o + 9], s[o + 10]);
  return s[o];
}

/** Feature ids of surface manifold points: part index · 2^21 + the part's own id mod 2^21. */
const PART_FEATURE_FIELD = 2 ** 21;

const mergeN = vec3.create();
const reduceN = vec3.create();
const chosen = new Int32Array(MAX_MANIFOLD_POINTS);

/**
 * The merged manifold of A and a surface composite B (see {@link manifoldShapeComposite}): each
 * part contact within `prediction` (internal edges fixed) is kept; the parts whose normals lie
 * within `MESH_MANIFOLD_MERGE_COS` of the deepest contact's are widened to their own manifolds
 * (from the fixed contact when A is support-mapped), their points measured along that normal
 * and reduced to at most 4 that keep the largest area (src/geometry/clip.ts) — the points are
 * ranked on A's side, as the triangle mesh ranks them on the side of the shape it touches.
 */
function manifoldSurface(
  out: ContactManifold,
  l: Level,
  view: CompositeView,
  a: Shape,
  b: Shape,
  prediction: number,
): boolean {
  const n = candidates(l, view, a, b, prediction);
  let stored = 0;
  let best = -1;
  let bestDistance = Infinity;
  for (let h = 0; h < n; h++) {
    const i = l.hits.ids[h];
    const pose = partPose(l, view, b, i);
    if (!contactPair(l.contact, a, l.part.shape, pose, prediction)) continue;
    fixInternalEdge(l.contact, view, a, b, i, l);
    if (l.contact.distance < bestDistance) {
      bestDistance = l.contact.distance;
      best = stored;
    }
    storeContact(l, stored++, i, l.contact);
  }
  if (best < 0) return false;
  loadContact(l, l.contact, best);
  vec3.copy(mergeN, l.contact.normal);
  // Points are measured along the normal from B toward A (the mesh's convention) and ranked by
  // their point on A, so the choice is the one a triangle mesh makes for the same terrain.
  vec3.negate(reduceN, mergeN);
  const convexA = isSupportMappedType(a.type);
  let count = 0;
  for (let k = 0; k < stored; k++) {
    const i = loadContact(l, l.contact, k);
    if (vec3.dot(l.contact.normal, mergeN) < MESH_MANIFOLD_MERGE_COS) continue;
    const pose = partPose(l, view, b, i);
    const m = l.manifold;
    if (convexA) {
      manifoldFromContact(m, a as ConvexShape, l.part.shape, pose, l.contact, prediction);
    } else if (!manifoldPair(m, a, l.part.shape, pose, prediction)) continue;
    if (vec3.dot(m.normal, mergeN) < MESH_MANIFOLD_MERGE_COS) continue;
    for (let q = 0; q < m.count; q++) {
      const p = m.points[q];
      count = pushPoint(
        l,
        count,
        p.pointA,
        p.pointB,
        i * PART_FEATURE_FIELD + (p.featureId % PART_FEATURE_FIELD),
      );
    }
  }
  if (count === 0) return false;
  const kept = reduceManifoldPoints(chosen, l.pointOther, l.pointDist, count, reduceN);
  vec3.copy(out.normal, mergeN);
  for (let q = 0; q < kept; q++) {
    const j = chosen[q];
    const p = out.points[q];
    vec3.set(p.pointA, l.pointOther[3 * j], l.pointOther[3 * j + 1], l.pointOther[3 * j + 2]);
    vec3.set(p.pointB, l.pointPart[3 * j], l.pointPart[3 * j + 1], l.pointPart[3 * j + 2]);
    p.distance = l.pointDist[j];
    p.featureId = l.pointFeature[j];
  }
  out.count = kept;
  return true;
}

/** Appends a merged point (A's point, the part's point) measured along `mergeN`; returns the count. */
function pushPoint(l: Level, count: number, pa: Vec3, pb: Vec3, feature: number): number {
  l.pointOther = growFloat64(l.pointOther, 3 * (count + 1));
  l.pointPart = growFloat64(l.pointPart, 3 * (count + 1));
  l.pointDist = growFloat64(l.pointDist, count + 1);
  l.pointFeature = growFloat64(l.pointFeature, count + 1);
  l.pointOther[3 * count] = pa.x;
  l.pointOther[3 * count + 1] = pa.y;
  l.pointOther[3 * count + 2] = pa.z;
  l.pointPart[3 * count] = pb.x;
  l.pointPart[3 * count + 1] = pb.y;
  l.pointPart[3 * count + 2] = pb.z;
  l.pointDist[count] =
    (pb.x - pa.x) * mergeN.x + (pb.y - pa.y) * mergeN.y + (pb.z - pa.z) * mergeN.z;
  l.pointFeature[count] = feature;
  return count + 1;
}
