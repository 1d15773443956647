/**
 * The generic composite mid-phase (parry's `composite_shape_*` queries): a composite shape C —
 * one whose type registered a {@link CompositeView} (a triangle mesh, a compound, a heightfield)
 * — against any shape S, answered part by part through the pair table, so a pair of the part's
 * type with S's type that the table answers is answered for the composite. One traversal serves
 * every composite type and both orders:
 *
 * - `…ShapeComposite` (S as A, the composite as B) — compounds and heightfields against
 *   anything, meshes against compounds and heightfields;
 * - `…CompositeShape` (the composite as A, S as B; the "part-first" order) — the triangle mesh
 *   against support-mapped shapes (src/narrowphase/convex-mesh.ts names them for that pair): each
 *   triangle goes to the pair table as A, or, when the table's (triangle, S) entry is the flip of
 *   a GJK/EPA registration, to GJK/EPA in the triangle-first order directly (the order the
 *   fuzzer's ratchet and the mesh tests were measured with).
 *
 * S's bounding box in C's frame (grown by the prediction distance) selects the candidate parts
 * through the view's bounding-volume query; each part is posed (`bInA ∘ partPose` when C is B;
 * S in the part's frame when C is A) and handed to the pair table, which flips, rescales and
 * specialises as for any pair, and recurses when S is composite too.
 *
 * - intersects: some part intersects S (or a solid C holds S, below).
 * - contact: the part contact with the smallest signed distance (ties to the first part in the
 *   view's order, so deterministic).
 * - distance: with a view `tree` (meshes, compounds), branch and bound over it: nodes farther
 *   (box to box) than the best part distance so far are skipped, the nearer child is visited
 *   first; without one (heightfields), contact with a growing prediction. When some part
 *   intersects S, 0 with the deepest contact's points.
 * - manifold: for a surface (a view with `edgeFlags`: mesh, heightfield) the manifolds of every
 *   part whose contact normal agrees with the deepest one's (within `MESH_MANIFOLD_MERGE_COS`),
 *   measured along that normal and reduced to at most 4 points that keep the largest area
 *   (src/geometry/clip.ts); for a compound the manifold of the deepest part.
 *
 * Internal edges (views with `edgeFlags`): a penetrating part contact on an inactive edge or
 * corner of its triangle takes the face normal, its depth measured again along it
 * (src/narrowphase/face-depth.ts's `fixInternalEdgeContact`, the library's one rule).
 *
 * Solids (views with `containsPoint`: a mesh made with `solid: true`, composite as A against a
 * support-mapped S): when no part meets S but one point of S is inside, S is wholly inside and
 * the pair touches, with the contact through the nearest surface (src/narrowphase/mesh-solid.ts).
 *
 * Recursion: a level of scratch per nesting depth (a compound's children are convex, so a pair
 * nests at most a few levels); `bInA` is copied at entry and `out` written only after the last
 * nested call, as the pair table's flip requires. No allocation per call in steady state (the
 * buffers grow only for a query larger than any before).
 */
import { MESH_MANIFOLD_MERGE_COS } from "../constants.js";
import { CollideError } from "../errors.js";
import { reduceManifoldPoints } from "../geometry/clip.js";
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import {
  isMeshBvhLeaf,
  makeMeshBvhHits,
  meshBvhLeafCount,
  meshBvhLeafOffset,
  meshBvhNodeBoxDistanceSq,
  meshBvhRightChild,
} from "../geometry/mesh-bvh.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { growFloat64, growInt32 } from "../math/typed-arrays.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { CompositePart, CompositeView } from "../shapes/composite.js";
import { compositeView, makeCompositePart } from "../shapes/composite.js";
import { aabbShape, isSupportMappedType } from "../shapes/registry.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import {
  copyManifold,
  MAX_MANIFOLD_POINTS,
  makeContact,
  makeContactManifold,
  makeDistanceResult,
  singleContactManifold,
} from "./contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";
import { fixInternalEdgeContact } from "./face-depth.js";
import { manifoldFromContact } from "./manifold.js";
import { containedConvexContact, pointOfConvex } from "./mesh-solid.js";
import {
  contactFlipped,
  contactPair,
  distancePair,
  intersectsPair,
  manifoldPair,
  unsupportedPair,
} from "./pair-table.js";

/** Deepest nesting of composite levels (compounds of convex children need 2, meshes 1). */
const MAX_COMPOSITE_DEPTH = 8;

/** Scratch and state of one nesting level. */
interface Level {
  hits: MeshBvhHits;
  part: CompositePart;
  view: CompositeView;
  /** The composite shape and the other shape S. */
  comp: Shape;
  other: Shape;
  /** True when the composite is the caller's A (part-first order). */
  first: boolean;
  /** The caller's B-in-A pose (a copy: the caller's may be a scratch that nested calls reuse). */
  pose: Isometry;
  /** S's pose in the composite's frame. */
  rel: Isometry;
  /** C as B: the part's pose in A's frame. C as A: S's pose in the part's frame (posed parts). */
  partPose: Isometry;
  partInv: Isometry;
  box: Aabb;
  contact: Contact;
  best: Contact;
  dist: DistanceResult;
  partDist: DistanceResult;
  manifold: ContactManifold;
  /** Surface manifolds: the merge normal (caller's A toward B) and the ranking direction. */
  mergeN: Vec3;
  reduceN: Vec3;
  solidA: Vec3;
  solidB: Vec3;
  /** Branch and bound: the nearest part's points so far (`out` is written after the search). */
  nearA: Vec3;
  nearB: Vec3;
  point: Vec3;
  /** Surface manifolds: the part contacts, [part, distance, normal xyz, pointA xyz, pointB xyz]. */
  stored: Float64Array<ArrayBuffer>;
  /** Surface manifolds: merged points in the caller's order, A's (xyz) and B's (xyz). */
  pointA: Float64Array<ArrayBuffer>;
  pointB: Float64Array<ArrayBuffer>;
  pointDist: Float64Array<ArrayBuffer>;
  pointFeature: Float64Array<ArrayBuffer>;
  /** Branch and bound: node stack and each node's squared box distance. */
  nodes: Int32Array<ArrayBuffer>;
  lower: Float64Array<ArrayBuffer>;
}

const NO_VIEW: CompositeView = {
  partCount: () => 0,
  queryAabb: (out) => {
    out.count = 0;
    return 0;
  },
  part: () => {},
};

function makeLevel(): Level {
  return {
    hits: makeMeshBvhHits(16),
    part: makeCompositePart(),
    view: NO_VIEW,
    comp: NO_SHAPE,
    other: NO_SHAPE,
    first: false,
    pose: iso.identity(),
    rel: iso.identity(),
    partPose: iso.identity(),
    partInv: iso.identity(),
    box: { min: vec3.create(), max: vec3.create() },
    contact: makeContact(),
    best: makeContact(),
    dist: makeDistanceResult(),
    partDist: makeDistanceResult(),
    manifold: makeContactManifold(),
    mergeN: vec3.create(),
    reduceN: vec3.create(),
    solidA: vec3.create(),
    solidB: vec3.create(),
    nearA: vec3.create(),
    nearB: vec3.create(),
    point: vec3.create(),
    stored: new Float64Array(STRIDE * 16),
    pointA: new Float64Array(3 * 64),
    pointB: new Float64Array(3 * 64),
    pointDist: new Float64Array(64),
    pointFeature: new Float64Array(64),
    nodes: new Int32Array(128),
    lower: new Float64Array(128),
  };
}

/** Doubles per stored part contact of a surface manifold. */
const STRIDE = 11;

const NO_SHAPE: Shape = { type: ShapeType.Sphere, radius: 0 } as Shape;

const levels: Level[] = [];
for (let i = 0; i < MAX_COMPOSITE_DEPTH; i++) levels.push(makeLevel());
let depth = 0;

/**
 * Takes the next level's scratch for composite `comp` against `other` (`first`: the composite
 * is the caller's A), with the caller's pose copied in.
 */
function enter(
  view: CompositeView,
  comp: Shape,
  other: Shape,
  bInA: Isometry,
  first: boolean,
): Level {
  if (depth >= MAX_COMPOSITE_DEPTH) {
    throw new CollideError(
      "invalid_value",
      "shape",
      depth,
      `composite shapes nest deeper than ${MAX_COMPOSITE_DEPTH} levels`,
    );
  }
  const l = levels[depth++];
  l.view = view;
  l.comp = comp;
  l.other = other;
  l.first = first;
  iso.copy(l.pose, bInA);
  if (first) iso.copy(l.rel, bInA);
  else iso.invert(l.rel, bInA);
  return l;
}

/** Leaves a level (drops its shape references). */
function leave(l: Level): void {
  l.comp = NO_SHAPE;
  l.other = NO_SHAPE;
  depth--;
}

/** The view of composite `c` (the table registers these routines for composites only). */
function viewOf(c: Shape, s: Shape, op: string): CompositeView {
  const v = compositeView(c.type);
  if (!v) return unsupportedPair(s, c, op);
  return v;
}

/**
 * Collects in `l.hits` the parts whose bounds may come within `margin` of S (S's box in the
 * composite's frame; an unbounded S, a half-space, selects every part). Returns their count.
 */
function candidates(l: Level, margin: number): number {
  aabbShape(l.box, l.other, l.rel);
  let m = margin;
  if (!(m > 0)) m = 0; // NaN or negative: no margin
  const lo = l.box.min;
  const hi = l.box.max;
  return l.view.queryAabb(
    l.hits,
    l.comp,
    lo.x - m,
    lo.y - m,
    lo.z - m,
    hi.x + m,
    hi.y + m,
    hi.z + m,
  );
}

/**
 * Writes part `i` into the level and forms the pose its pair query takes, returned: C as B, the
 * part's pose in A's frame; C as A, S's pose in the part's frame.
 */
function loadPart(l: Level, i: number): Isometry {
  l.view.part(l.part, l.comp, i);
  if (l.first) {
    if (!l.part.hasPose) return l.pose;
    iso.invert(l.partInv, l.part.pose);
    return iso.multiply(l.partPose, l.partInv, l.pose);
  }
  if (l.part.hasPose) return iso.multiply(l.partPose, l.pose, l.part.pose);
  return iso.copy(l.partPose, l.pose);
}

/**
 * True when the part-first query of the loaded part goes to GJK/EPA directly: the table's (part,
 * S) entry is the flip of a registration in S's order and both are support-mapped.
 */
function direct(l: Level): boolean {
  const t = l.part.shape.type;
  return contactFlipped(t, l.other.type) && isSupportMappedType(l.other.type);
}

/** True when the loaded part (its query pose `p`) and S intersect. */
function intersectsPart(l: Level, p: Isometry): boolean {
  if (!l.first) return intersectsPair(l.other, l.part.shape, p);
  if (direct(l)) return intersectsConvexConvex(l.part.shape, l.other as ConvexShape, p);
  return intersectsPair(l.part.shape, l.other, p);
}

/** Contact of the loaded part and S in the caller's frame and order, internal edges fixed. */
function contactPart(c: Contact, l: Level, i: number, p: Isometry, prediction: number): boolean {
  if (l.first) {
    const maxGap = Math.max(prediction, 0);
    if (direct(l)) {
      if (!contactConvexConvex(c, l.part.shape, l.other as ConvexShape, p, maxGap)) return false;
    } else if (!contactPair(c, l.part.shape, l.other, p, maxGap)) return false;
    if (l.part.hasPose) contactToComposite(c, l.part.pose);
  } else if (!contactPair(c, l.other, l.part.shape, p, prediction)) return false;
  if (l.view.edgeFlags) fixInternalEdge(c, l, i);
  return true;
}

/** Distance of the loaded part and S in the caller's frame and order. */
function distancePart(d: DistanceResult, l: Level, p: Isometry): DistanceResult {
  if (!l.first) return distancePair(d, l.other, l.part.shape, p);
  if (direct(l)) distanceConvexConvex(d, l.part.shape, l.other as ConvexShape, p);
  else distancePair(d, l.part.shape, l.other, p);
  if (l.part.hasPose) {
    iso.transformPoint(d.pointA, l.part.pose, d.pointA);
    iso.transformPoint(d.pointB, l.part.pose, d.pointB);
  }
  return d;
}

/** Manifold of the loaded part and S in the caller's frame and order. */
function manifoldPart(m: ContactManifold, l: Level, p: Isometry, prediction: number): boolean {
  if (!l.first) return manifoldPair(m, l.other, l.part.shape, p, prediction);
  if (!manifoldPair(m, l.part.shape, l.other, p, prediction)) return false;
  if (l.part.hasPose) {
    iso.transformVector(m.normal, l.part.pose, m.normal);
    for (let q = 0; q < m.count; q++) {
      iso.transformPoint(m.points[q].pointA, l.part.pose, m.points[q].pointA);
      iso.transformPoint(m.points[q].pointB, l.part.pose, m.points[q].pointB);
    }
  }
  return true;
}

/** A contact found in a part's frame, into the composite's (the part's pose). */
function contactToComposite(c: Contact, pose: Isometry): void {
  iso.transformVector(c.normal, pose, c.normal);
  iso.transformPoint(c.pointA, pose, c.pointA);
  iso.transformPoint(c.pointB, pose, c.pointB);
}

/** True when the solid composite (C as A) holds the support-mapped S; false for surfaces. */
function holds(l: Level): boolean {
  const contains = l.view.containsPoint;
  if (!l.first || !contains || !isSupportMappedType(l.other.type)) return false;
  return contains(l.comp, pointOfConvex(l.point, l.other as ConvexShape, l.pose));
}

/**
 * The deepest part contact within `prediction` into `l.best` (internal edges fixed); false when
 * no part is that close.
 */
function bestPartContact(l: Level, prediction: number): boolean {
  const n = candidates(l, prediction);
  let found = false;
  for (let h = 0; h < n; h++) {
    const i = l.hits.ids[h];
    const p = loadPart(l, i);
    if (!contactPart(l.contact, l, i, p, prediction)) continue;
    if (found && !(l.contact.distance < l.best.distance)) continue;
    found = true;
    copyContact(l.best, l.contact);
  }
  return found;
}

/** The level's contact (see {@link contactShapeComposite}), solids included. */
function contactLevel(out: Contact, l: Level, prediction: number): boolean {
  const found = bestPartContact(l, prediction);
  if (!(found && l.best.distance <= 0) && holds(l)) {
    // S inside the solid, touching no part: the contact through the nearest surface.
    if (found) {
      vec3.copy(l.solidA, l.best.pointA);
      vec3.copy(l.solidB, l.best.pointB);
    } else {
      surfaceDistance(l.dist, l);
      vec3.copy(l.solidA, l.dist.pointA);
      vec3.copy(l.solidB, l.dist.pointB);
    }
    containedConvexContact(out, l.other as ConvexShape, l.pose, l.solidA, l.solidB);
    return true;
  }
  if (found) copyContact(out, l.best);
  return found;
}

function pushNode(l: Level, top: number, i: number, lower: number): number {
  l.nodes = growInt32(l.nodes, top + 1);
  l.lower = growFloat64(l.lower, top + 1);
  l.nodes[top] = i;
  l.lower[top] = lower;
  return top + 1;
}

/**
 * Closest points of the composite's parts (its surface) and S, the caller's frame: branch and
 * bound over the view's tree, else contact with a growing prediction. When some part meets S,
 * distance 0 and the deepest contact's points. No parts: Infinity, both points at B's origin.
 */
function surfaceDistance(out: DistanceResult, l: Level): DistanceResult {
  out.distance = Infinity;
  vec3.copy(out.pointA, l.pose.translation);
  vec3.copy(out.pointB, l.pose.translation);
  const treeOf = l.view.tree;
  if (!treeOf) return growingDistance(out, l);
  const bvh = treeOf(l.comp);
  if (bvh.nodeCount === 0) return out;
  // `out` may be the pair table's flip scratch, which the part queries below reuse when a
  // part's pair is itself flipped: the nearest points are kept in the level and written last.
  vec3.copy(l.nearA, l.pose.translation);
  vec3.copy(l.nearB, l.pose.translation);
  aabbShape(l.box, l.other, l.rel);
  const lo = l.box.min;
  const hi = l.box.max;
  const d = l.partDist;
  let best = Infinity;
  let top = pushNode(l, 0, 0, 0);
  while (top > 0) {
    top--;
    const i = l.nodes[top];
    if (l.lower[top] > best * best) continue;
    if (isMeshBvhLeaf(bvh, i)) {
      const start = meshBvhLeafOffset(bvh, i);
      const end = start + meshBvhLeafCount(bvh, i);
      for (let s = start; s < end; s++) {
        const p = loadPart(l, bvh.primitives[s]);
        distancePart(d, l, p);
        if (d.distance < best) {
          best = d.distance;
          vec3.copy(l.nearA, d.pointA);
          vec3.copy(l.nearB, d.pointB);
        }
        if (best === 0) break;
      }
      if (best === 0) break;
      continue;
    }
    const left = i + 1;
    const right = meshBvhRightChild(bvh, i);
    const dl = meshBvhNodeBoxDistanceSq(bvh, left, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    const dr = meshBvhNodeBoxDistanceSq(bvh, right, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    // Push the farther child first so that the nearer is visited next.
    if (dl <= dr) {
      top = pushNode(l, top, right, dr);
      top = pushNode(l, top, left, dl);
    } else {
      top = pushNode(l, top, left, dl);
      top = pushNode(l, top, right, dr);
    }
  }
  if (best === 0 && contactLevel(l.contact, l, 0)) {
    vec3.copy(l.nearA, l.contact.pointA);
    vec3.copy(l.nearB, l.contact.pointB);
  }
  out.distance = best;
  vec3.copy(out.pointA, l.nearA);
  vec3.copy(out.pointB, l.nearB);
  return out;
}

/** Growths (×4 each) of the distance query's reach before it takes every part. */
const DISTANCE_MAX_GROWTHS = 24;

/**
 * Distance without a tree: contact with a growing prediction — a contact found within m is the
 * nearest of all (every part closer than m is a candidate of the box grown by m), so the parts
 * far from S are never tested.
 */
function growingDistance(out: DistanceResult, l: Level): DistanceResult {
  if (l.view.partCount(l.comp) === 0) return out;
  let m = initialReach(l);
  for (let k = 0; ; k++) {
    if (bestPartContact(l, m)) break;
    if (m === Infinity) return unsupportedPair(l.other, l.comp, "distance");
    m = k >= DISTANCE_MAX_GROWTHS ? Infinity : 4 * m;
  }
  out.distance = Math.max(0, l.best.distance);
  vec3.copy(out.pointA, l.best.pointA);
  vec3.copy(out.pointB, l.best.pointB);
  return out;
}

const boundsC: Aabb = { min: vec3.create(), max: vec3.create() };

/**
 * A first reach for the growing distance search: the gap between S's box and the composite's
 * box in its frame (per axis, the largest: a lower bound of the distance), or when they overlap
 * 1/16 of the smaller box's largest side (a positive start; the search grows it by 4×).
 */
function initialReach(l: Level): number {
  aabbShape(l.box, l.other, l.rel);
  aabbShape(boundsC, l.comp, IDENTITY);
  const lo = l.box.min;
  const hi = l.box.max;
  const gap = Math.max(
    boundsC.min.x - hi.x,
    lo.x - boundsC.max.x,
    boundsC.min.y - hi.y,
    lo.y - boundsC.max.y,
    boundsC.min.z - hi.z,
    lo.z - boundsC.max.z,
  );
  const sideS = Math.max(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z);
  const sideC = Math.max(
    boundsC.max.x - boundsC.min.x,
    boundsC.max.y - boundsC.min.y,
    boundsC.max.z - boundsC.min.z,
  );
  const start = Math.min(sideS, sideC) / 16;
  const m = Math.max(gap, start);
  return m > 0 && Number.isFinite(m) ? m : Infinity;
}

const IDENTITY = iso.identity();

// ---------------------------------------------------------------------------------------------
// The level's queries
// ---------------------------------------------------------------------------------------------

function intersectsLevel(l: Level): boolean {
  const n = candidates(l, 0);
  for (let h = 0; h < n; h++) {
    if (intersectsPart(l, loadPart(l, l.hits.ids[h]))) return true;
  }
  return holds(l);
}

function distanceLevel(out: DistanceResult, l: Level): DistanceResult {
  surfaceDistance(out, l);
  if (out.distance > 0 && holds(l)) {
    // S inside the solid: distance 0 at the contact's witness points (mesh-solid.ts).
    containedConvexContact(l.contact, l.other as ConvexShape, l.pose, out.pointA, out.pointB);
    out.distance = 0;
    vec3.copy(out.pointA, l.contact.pointA);
    vec3.copy(out.pointB, l.contact.pointB);
  }
  return out;
}

function manifoldLevel(out: ContactManifold, l: Level, prediction: number): boolean {
  if (l.view.edgeFlags) return manifoldSurface(out, l, prediction);
  const n = candidates(l, prediction);
  let bestPart = -1;
  let bestDistance = Infinity;
  for (let h = 0; h < n; h++) {
    const i = l.hits.ids[h];
    const p = loadPart(l, i);
    if (!contactPart(l.contact, l, i, p, prediction)) continue;
    if (bestPart >= 0 && !(l.contact.distance < bestDistance)) continue;
    bestDistance = l.contact.distance;
    bestPart = i;
  }
  if (!(bestPart >= 0 && bestDistance <= 0) && holds(l)) {
    contactLevel(l.contact, l, prediction);
    singleContactManifold(out, l.contact);
    return true;
  }
  if (bestPart < 0) return false;
  const p = loadPart(l, bestPart);
  if (!manifoldPart(l.manifold, l, p, prediction)) return false;
  copyManifold(out, l.manifold);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Shape against composite: A any shape, B the composite
// ---------------------------------------------------------------------------------------------

/** True when A touches or overlaps some part of composite B (B at `bInA`, A's frame). */
export function intersectsShapeComposite(a: Shape, b: Shape, bInA: Isometry): boolean {
  const l = enter(viewOf(b, a, "intersects"), b, a, bInA, false);
  try {
    return intersectsLevel(l);
  } finally {
    leave(l);
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
  const l = enter(viewOf(b, a, "contact"), b, a, bInA, false);
  try {
    return contactLevel(out, l, prediction);
  } finally {
    leave(l);
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
  const l = enter(viewOf(b, a, "distance"), b, a, bInA, false);
  try {
    return distanceLevel(out, l);
  } finally {
    leave(l);
  }
}

/**
 * Contact manifold of A and composite B within `prediction` (A's frame): for a surface the
 * merged manifold of the parts that agree with the deepest contact, else the deepest part's;
 * false when no part is that close.
 */
export function manifoldShapeComposite(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const l = enter(viewOf(b, a, "manifold"), b, a, bInA, false);
  try {
    return manifoldLevel(out, l, prediction);
  } finally {
    leave(l);
  }
}

// ---------------------------------------------------------------------------------------------
// Composite against shape: A the composite, B any shape (part-first)
// ---------------------------------------------------------------------------------------------

/** True when composite A and B (B at `bInA`, A's frame) touch or overlap (a solid A holding B counts). */
export function intersectsCompositeShape(a: Shape, b: Shape, bInA: Isometry): boolean {
  const l = enter(viewOf(a, b, "intersects"), a, b, bInA, true);
  try {
    return intersectsLevel(l);
  } finally {
    leave(l);
  }
}

/**
 * Contact of composite A and B within `prediction` (A's frame, normal from A toward B): the
 * deepest part contact, internal edges fixed; a solid A holding B gives the contact through its
 * nearest surface. False when nothing is that close.
 */
export function contactCompositeShape(
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const l = enter(viewOf(a, b, "contact"), a, b, bInA, true);
  try {
    return contactLevel(out, l, prediction);
  } finally {
    leave(l);
  }
}

/**
 * Closest points of composite A and B (A's frame): distance ≥ 0 (0 when they meet, with the
 * deepest contact's points, or when a solid A holds B). An empty A gives Infinity with both
 * points at B's origin.
 */
export function distanceCompositeShape(
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  const l = enter(viewOf(a, b, "distance"), a, b, bInA, true);
  try {
    return distanceLevel(out, l);
  } finally {
    leave(l);
  }
}

/** Contact manifold of composite A and B within `prediction` (A's frame; see the module doc). */
export function manifoldCompositeShape(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const l = enter(viewOf(a, b, "manifold"), a, b, bInA, true);
  try {
    return manifoldLevel(out, l, prediction);
  } finally {
    leave(l);
  }
}

// ---------------------------------------------------------------------------------------------
// Internal edges and surface manifolds
// ---------------------------------------------------------------------------------------------

function copyContact(out: Contact, c: Contact): void {
  out.distance = c.distance;
  vec3.copy(out.normal, c.normal);
  vec3.copy(out.pointA, c.pointA);
  vec3.copy(out.pointB, c.pointB);
}

const triInCaller: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const flippedContact = makeContact();

/**
 * Internal edges of surface part `i` (loaded; a triangle): the library's one internal-edge rule
 * (src/narrowphase/face-depth.ts's `fixInternalEdgeContact`) on the contact seen from the
 * triangle, with S re-measured along the face normal when it is support-mapped (else the depth
 * and the triangle's point are kept). `c` is in the caller's frame and order.
 */
function fixInternalEdge(c: Contact, l: Level, i: number): void {
  if (c.distance > 0) return;
  const flags = (l.view.edgeFlags as (s: Shape, i: number) => number)(l.comp, i);
  if (flags === 7) return;
  const convexS = isSupportMappedType(l.other.type) ? (l.other as ConvexShape) : null;
  const t = l.part.triangle;
  if (l.first) {
    // The caller's frame is the composite's: the contact is already seen from the triangle.
    if (!l.part.hasPose) {
      fixInternalEdgeContact(c, t, flags, convexS, l.pose);
      return;
    }
    iso.transformPoint(triInCaller.a, l.part.pose, t.a);
    iso.transformPoint(triInCaller.b, l.part.pose, t.b);
    iso.transformPoint(triInCaller.c, l.part.pose, t.c);
    fixInternalEdgeContact(c, triInCaller, flags, convexS, l.pose);
    return;
  }
  iso.transformPoint(triInCaller.a, l.partPose, t.a);
  iso.transformPoint(triInCaller.b, l.partPose, t.b);
  iso.transformPoint(triInCaller.c, l.partPose, t.c);
  // The contact seen from the triangle (its A), so the rule reads it in its own order.
  const f = flippedContact;
  f.distance = c.distance;
  vec3.negate(f.normal, c.normal);
  vec3.copy(f.pointA, c.pointB);
  vec3.copy(f.pointB, c.pointA);
  fixInternalEdgeContact(f, triInCaller, flags, convexS, IDENTITY);
  c.distance = f.distance;
  vec3.negate(c.normal, f.normal);
  vec3.copy(c.pointA, f.pointB);
  vec3.copy(c.pointB, f.pointA);
}

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

const chosen = new Int32Array(MAX_MANIFOLD_POINTS);

/**
 * The merged manifold of a surface composite and S (see the module doc): each part contact
 * within `prediction` (internal edges fixed) is kept; the parts whose normals lie within
 * `MESH_MANIFOLD_MERGE_COS` of the deepest contact's are widened to their own manifolds (from the
 * fixed contact when S is support-mapped), their points measured along that normal and reduced
 * to at most 4 that keep the largest area, ranked on S's side.
 */
function manifoldSurface(out: ContactManifold, l: Level, prediction: number): boolean {
  const n = candidates(l, prediction);
  let stored = 0;
  let best = -1;
  let bestDistance = Infinity;
  for (let h = 0; h < n; h++) {
    const i = l.hits.ids[h];
    const p = loadPart(l, i);
    if (!contactPart(l.contact, l, i, p, prediction)) continue;
    if (l.contact.distance < bestDistance) {
      bestDistance = l.contact.distance;
      best = stored;
    }
    storeContact(l, stored++, i, l.contact);
  }
  if (!(best >= 0 && bestDistance <= 0) && holds(l)) {
    // S inside the solid: the one-point manifold of the contact through the nearest surface.
    contactLevel(l.contact, l, prediction);
    singleContactManifold(out, l.contact);
    return true;
  }
  if (best < 0) return false;
  loadContact(l, l.contact, best);
  const mergeN = vec3.copy(l.mergeN, l.contact.normal);
  // Points are measured along the normal and ranked by their point on S, seen from the composite.
  if (l.first) vec3.copy(l.reduceN, mergeN);
  else vec3.negate(l.reduceN, mergeN);
  const convexS = isSupportMappedType(l.other.type);
  let count = 0;
  for (let k = 0; k < stored; k++) {
    const i = loadContact(l, l.contact, k);
    if (vec3.dot(l.contact.normal, mergeN) < MESH_MANIFOLD_MERGE_COS) continue;
    const p = loadPart(l, i);
    const m = l.manifold;
    if (convexS && !l.part.hasPose) {
      if (l.first)
        manifoldFromContact(m, l.part.shape, l.other as ConvexShape, p, l.contact, prediction);
      else manifoldFromContact(m, l.other as ConvexShape, l.part.shape, p, l.contact, prediction);
    } else if (!manifoldPart(m, l, p, prediction)) continue;
    if (vec3.dot(m.normal, mergeN) < MESH_MANIFOLD_MERGE_COS) continue;
    for (let q = 0; q < m.count; q++) {
      const pt = m.points[q];
      count = pushPoint(
        l,
        count,
        pt.pointA,
        pt.pointB,
        i * PART_FEATURE_FIELD + (pt.featureId % PART_FEATURE_FIELD),
      );
    }
  }
  return finishMerge(out, l, count, l.first ? l.pointB : l.pointA);
}

/**
 * Writes `out` from the `count` merged points of `l` (normal `l.mergeN`), reduced to ≤ 4 along
 * `l.reduceN` by their points `ranked` (S's side); false when there are none.
 */
function finishMerge(
  out: ContactManifold,
  l: Level,
  count: number,
  ranked: Float64Array<ArrayBuffer>,
): boolean {
  if (count === 0) return false;
  const kept = reduceManifoldPoints(chosen, ranked, l.pointDist, count, l.reduceN);
  vec3.copy(out.normal, l.mergeN);
  for (let q = 0; q < kept; q++) {
    const j = chosen[q];
    const p = out.points[q];
    vec3.set(p.pointA, l.pointA[3 * j], l.pointA[3 * j + 1], l.pointA[3 * j + 2]);
    vec3.set(p.pointB, l.pointB[3 * j], l.pointB[3 * j + 1], l.pointB[3 * j + 2]);
    p.distance = l.pointDist[j];
    p.featureId = l.pointFeature[j];
  }
  out.count = kept;
  return true;
}

/** Appends a merged point (the caller's A and B points) measured along `l.mergeN`; returns the count. */
function pushPoint(l: Level, count: number, pa: Vec3, pb: Vec3, feature: number): number {
  const mergeN = l.mergeN;
  l.pointA = growFloat64(l.pointA, 3 * (count + 1));
  l.pointB = growFloat64(l.pointB, 3 * (count + 1));
  l.pointDist = growFloat64(l.pointDist, count + 1);
  l.pointFeature = growFloat64(l.pointFeature, count + 1);
  l.pointA[3 * count] = pa.x;
  l.pointA[3 * count + 1] = pa.y;
  l.pointA[3 * count + 2] = pa.z;
  l.pointB[3 * count] = pb.x;
  l.pointB[3 * count + 1] = pb.y;
  l.pointB[3 * count + 2] = pb.z;
  l.pointDist[count] =
    (pb.x - pa.x) * mergeN.x + (pb.y - pa.y) * mergeN.y + (pb.z - pa.z) * mergeN.z;
  l.pointFeature[count] = feature;
  return count + 1;
}

// ---------------------------------------------------------------------------------------------
// Merged manifolds for a caller's own traversal (mesh–mesh)
// ---------------------------------------------------------------------------------------------

const merge = makeLevel();
let mergeCount = 0;

/** Starts a merged manifold along unit normal `n` (A toward B; points ranked on B's side). */
export function beginMergedManifold(n: Vec3): void {
  vec3.copy(merge.mergeN, n);
  vec3.copy(merge.reduceN, n);
  mergeCount = 0;
}

/**
 * Adds the points of one part's manifold `m` (kept when its normal lies within
 * `MESH_MANIFOLD_MERGE_COS` of the merge normal), measured along it; feature ids prefixed by
 * `part` (part · 2^21 + the point's id mod 2^21).
 */
export function addMergedManifold(m: ContactManifold, part: number): void {
  if (vec3.dot(m.normal, merge.mergeN) < MESH_MANIFOLD_MERGE_COS) return;
  for (let q = 0; q < m.count; q++) {
    const pt = m.points[q];
    mergeCount = pushPoint(
      merge,
      mergeCount,
      pt.pointA,
      pt.pointB,
      part * PART_FEATURE_FIELD + (pt.featureId % PART_FEATURE_FIELD),
    );
  }
}

/** Ends a merged manifold: the points reduced to ≤ 4 into `out`; false when there are none. */
export function endMergedManifold(out: ContactManifold): boolean {
  return finishMerge(out, merge, mergeCount, merge.pointB);
}
