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
 * - `…CompositeComposite` (both composites with a `tree`: mesh–mesh, mesh–compound,
 *   compound–compound) — the two trees descended together (Gottschalk, Lin & Manocha 1996;
 *   Ericson 2005, §6.3.2: the larger node split first; B's node boxes brought into A's frame as
 *   the boxes of their rotated boxes), node pairs farther apart than the prediction dropped, and
 *   at a pair of leaves each part pair whose boxes are that close asked through the table: in A's
 *   frame, A's part first (B's bare triangles moved into A's frame, as mesh–mesh always did;
 *   GJK/EPA directly where the table's entry is a flipped one, as part-first), or, when A's part
 *   has a pose (a compound's child), from B's part, B's part first and flipped back — the frames
 *   the nested compound queries used, so the answers are theirs. Internal edges are fixed on a
 *   surface's part against a part of a solid kind (two surfaces: none, as mesh–mesh). A solid
 *   (`containsPoint`) holding the other solid's surface is decided by one point of that surface
 *   and answered through the nearest surface with the enclosed surface's extreme part point. A
 *   solid mesh and a composite that is not a solid (a compound, a surface mesh, a heightfield;
 *   either order) skip the two trees: a convex solid against a surface is its hull
 *   (`solidAsConvex`), else the other is the composite and the whole solid its S, each part
 *   asked against the solid through the table as the bare part is, the deepest answering
 *   (`solidAgainstParts`). Distance is a
 *   branch and bound over node pairs. Manifold: two surfaces merge the agreeing part-pair
 *   manifolds; else A against B's deepest part through the table (B not a surface), or A's
 *   deepest part against B.
 *
 * S's bounding box in C's frame (grown by the prediction distance) selects the candidate parts
 * through the view's bounding-volume query; each part is posed (`bInA ∘ partPose` when C is B;
 * S in the part's frame when C is A) and handed to the pair table, which flips, rescales and
 * specialises as for any pair, and recurses when S is composite too.
 *
 * - intersects: some part intersects S (or a solid C holds S, below).
 * - contact: the part contact with the smallest signed distance (ties to the first part in the
 *   view's order, so deterministic).
 * - distance: with a view `tree` (meshes, compounds, heightfields), branch and bound over it:
 *   nodes farther (box to box) than the best part distance so far are skipped, the nearest child
 *   is visited first; without one, contact with a growing prediction. When some part
 *   intersects S, 0 with the deepest contact's points.
 * - manifold: for a surface (a view with `edgeFlags`: mesh, heightfield) the manifolds of every
 *   part whose contact normal agrees with the deepest one's (within `MESH_MANIFOLD_MERGE_COS`),
 *   each point re-paired to face across that normal ({@link facingPoint}), measured along it and
 *   reduced to at most 4 points that keep the largest area (src/geometry/clip.ts); for a
 *   compound the manifold of the deepest part. Either way each point lies on the surface of the
 *   part it comes from, which for a compound may lie inside another child (docs/FORMATS.md;
 *   parry's, Jolt's and Box2D's per-child manifolds alike; dropping such points would leave the
 *   contact's own witness, which can lie inside a sibling too, out of the manifold).
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
import { MESH_MANIFOLD_MERGE_COS, WORLD_AABB_ROUNDING_PAD } from "../constants.js";
import { CollideError } from "../errors.js";
import { reduceManifoldPoints } from "../geometry/clip.js";
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import { makeMeshBvhHits } from "../geometry/mesh-bvh.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Mat3 } from "../math/mat3.js";
import * as mat3 from "../math/mat3.js";
import * as quat from "../math/quat.js";
import {
  HYPOT_SAFE_MAX,
  HYPOT_SAFE_MIN,
  hypot3Into,
  hypotIo,
  unitScaleFactor,
} from "../math/scalar.js";
import { growFloat64, growInt32 } from "../math/typed-arrays.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { CompositePart, CompositeTree, CompositeView } from "../shapes/composite.js";
import {
  COMPOSITE_TREE_MAX_CHILDREN,
  compositeView,
  makeCompositePart,
} from "../shapes/composite.js";
import {
  aabbShape,
  isSupportMappedType,
  shapeDef,
  supportOf,
  supportShape,
} from "../shapes/registry.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { LocalRayHit } from "../shapes/shape-def.js";
import { writeBoundingRadiusOf } from "../shapes/shape-def.js";
import type { Triangle } from "../shapes/triangle.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { convexSolidOfTriangleMesh } from "../shapes/triangle-mesh.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import {
  copyManifold,
  flipContact,
  flipContactInto,
  flipDistanceInto,
  flipManifold,
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
import {
  UNIT_RANGE_MAX as SHARED_RANGE_MAX,
  UNIT_RANGE_MIN as SHARED_RANGE_MIN,
  scaledPose,
  scaledShape,
  triangleRescaleFactor,
} from "./extreme-scale.js";
import { fixInternalEdgeContact } from "./face-depth.js";
import { manifoldFromContact } from "./manifold.js";
import {
  boundedSolidContact,
  containedConvexContact,
  containedWayOut,
  crossingSolidsContact,
  isNonConvexSolidPair,
  pointOfConvex,
  solidMeshContact,
  solidMeshManifold,
  solidTouchBand,
  touchingSolidsOverlap,
} from "./mesh-solid.js";
import {
  contactFlipped,
  contactPair,
  contactRoutine,
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
  /** Branch and bound: node stack (two ids per entry for two trees) and each entry's squared box distance. */
  nodes: Int32Array<ArrayBuffer>;
  lower: Float64Array<ArrayBuffer>;
  /** A node's children and their squared box distances; their visiting order. */
  kids: Int32Array<ArrayBuffer>;
  kidLower: Float64Array<ArrayBuffer>;
  kidOrder: Int32Array<ArrayBuffer>;
  /** Node boxes (the composite's; the other composite's, and it in the composite's frame). */
  nodeBox: Float64Array<ArrayBuffer>;
  otherBox: Float64Array<ArrayBuffer>;
  otherInA: Float64Array<ArrayBuffer>;
  /** Two composites: the other's view, part slot, part ids of a leaf, rotation of the pose. */
  otherView: CompositeView;
  otherPart: CompositePart;
  otherHits: MeshBvhHits;
  rot: Mat3;
  /** Two composites: B's part pose in A's frame (identity once its corners are moved there). */
  otherPose: Isometry;
  /** Two composites: the part boxes in A's frame (min xyz, max xyz; A's then B's). */
  partBoxes: Float64Array<ArrayBuffer>;
  /**
   * Two composites: a posed B part's own box (its frame; `otherFramed`) and A's frame seen from
   * it (the inverse of `otherPose`), for the part pairs' second box test ({@link partsNearInFrame}).
   */
  otherLocal: Float64Array<ArrayBuffer>;
  otherInv: Isometry;
  otherFramed: boolean;
  otherLocalReady: boolean;
  frameRot: Mat3;
  frameMargin: number;
  /** Two composites: the stored part-pair contacts' B parts (the A part is `stored[k·STRIDE]`). */
  otherIds: Int32Array<ArrayBuffer>;
  storedCount: number;
  /** Two composites: the parts of the deepest contact (−1: none on that side). */
  bestPart: number;
  bestOther: number;
  /** Two composites: the last contact was a solid's holding the other's surface. */
  contained: boolean;
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
    nodes: new Int32Array(256),
    lower: new Float64Array(128),
    kids: new Int32Array(COMPOSITE_TREE_MAX_CHILDREN),
    kidLower: new Float64Array(COMPOSITE_TREE_MAX_CHILDREN),
    kidOrder: new Int32Array(COMPOSITE_TREE_MAX_CHILDREN),
    nodeBox: new Float64Array(6),
    otherBox: new Float64Array(6),
    otherInA: new Float64Array(6),
    otherView: NO_VIEW,
    otherPart: makeCompositePart(),
    otherHits: makeMeshBvhHits(16),
    rot: mat3.create(),
    otherPose: iso.identity(),
    partBoxes: new Float64Array(12),
    otherLocal: new Float64Array(6),
    otherInv: iso.identity(),
    otherFramed: false,
    otherLocalReady: false,
    frameRot: mat3.create(),
    frameMargin: 0,
    otherIds: new Int32Array(16),
    storedCount: 0,
    bestPart: -1,
    bestOther: -1,
    contained: false,
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
  // The pad (see candidatePad) written out, and the box passed in a typed array: a double passed
  // to or returned by a call V8 does not inline is boxed (allocated), as under the mesh pairs'
  // deep call chains.
  const c = Math.max(
    Math.abs(lo.x),
    Math.abs(lo.y),
    Math.abs(lo.z),
    Math.abs(hi.x),
    Math.abs(hi.y),
    Math.abs(hi.z),
  );
  m += c < Infinity ? c * WORLD_AABB_ROUNDING_PAD : 0;
  const q = l.view.queryBox;
  if (q === undefined) {
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
  const b = queryBox;
  b[0] = lo.x - m;
  b[1] = lo.y - m;
  b[2] = lo.z - m;
  b[3] = hi.x + m;
  b[4] = hi.y + m;
  b[5] = hi.z + m;
  return q(l.hits, l.comp, b);
}

/** The candidate box of {@link candidates} (min xyz, max xyz). */
const queryBox = new Float64Array(6);

/*
 * candidatePad: the rounding pad of a candidate box (issue 16, one truth across operations): S's
 * box in the composite's frame and the parts' boxes are each rounded by their frame changes, so a
 * part that exactly touches S can miss a box query with no margin by a few ulps of the
 * coordinates — `intersects` and `contact` then skipped a part that `distance`'s branch and bound
 * (which culls by a strict comparison) found at distance 0. The pad, the world's broad-phase
 * rounding pad (`WORLD_AABB_ROUNDING_PAD`, 1e-12) times the box's largest coordinate magnitude,
 * only adds candidates; each is still decided by its pair routine. (Written out in candidates.)
 */

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
  return (
    contactFlipped(t, l.other.type) &&
    contactRoutine(t, l.other.type) === contactConvexConvex &&
    isSupportMappedType(l.other.type)
  );
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
    // Math.max(prediction, 0) as a choice of the argument: a computed double is boxed passed to a
    // call V8 does not inline; the caller's own number is not.
    const maxGap = prediction > 0 || Number.isNaN(prediction) ? prediction : 0;
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
  for (let pass = 0; pass < 2; pass++) {
    found = false;
    let bestPart = -1;
    tieSeen[0] = 0;
    for (let h = 0; h < n; h++) {
      const i = l.hits.ids[h];
      const p = loadPart(l, i);
      if (!contactPart(l.contact, l, i, p, prediction)) continue;
      if (found && !takesNew(l, bestPart, i, p)) continue;
      found = true;
      bestPart = i;
      copyContact(l.best, l.contact);
    }
    if (!retryInPartOrder(l, n)) break;
  }
  return found;
}

/**
 * [0] non-zero when {@link deeperPart} met a near tie in the current pass (a typed-array slot,
 * as the tie's other state).
 */
const tieSeen = new Int32Array(1);

/**
 * After a pass over the `n` candidates that met a near tie on a surface of bare triangles: sorts
 * the candidates in {@link lowerPart}'s order and returns true (the caller passes again). The
 * pairwise tie rule of {@link takesNew} is not transitive among three or more tied triangles (a
 * capsule through a field's vertex), so the winner followed the view's order, which differs
 * between a heightfield and the mesh of its triangles; in the parts' own order it does not.
 */
function retryInPartOrder(l: Level, n: number): boolean {
  if (tieSeen[0] === 0 || l.view.edgeFlags === undefined) return false;
  const ids = l.hits.ids;
  if (n > PART_ORDER_INSERTION) {
    sortInPartOrder(l, n);
    return true;
  }
  // Insertion sort (a few candidates; only on ties).
  for (let h = 1; h < n; h++) {
    const id = ids[h];
    let k = h - 1;
    while (k >= 0 && lowerPart(l, id, ids[k])) {
      ids[k + 1] = ids[k];
      k--;
    }
    ids[k + 1] = id;
  }
  return true;
}

/** Candidates beyond which {@link retryInPartOrder} sorts by keys, not by insertion (O(n²) loads). */
const PART_ORDER_INSERTION = 16;

/** {@link sortInPartOrder}'s keys: per candidate its sorted corners (9) and its index. */
let partKeys = new Float64Array(0);
let partOrder = new Int32Array(0);

/**
 * {@link retryInPartOrder} for many candidates (a sphere on a vertex of 16k triangles, a box on
 * 10k cells of a heightfield: the insertion sort's O(n²) loads of two triangles had taken seconds
 * to minutes): each candidate loaded once for its key — {@link lowerPart}'s: the sorted corners of
 * a surface's triangle, then the index; parts with a pose by index alone — and the candidates
 * sorted by key, the same order. The key arrays grow to the largest tie seen and are reused.
 */
function sortInPartOrder(l: Level, n: number): void {
  const ids = l.hits.ids;
  if (partOrder.length < n) {
    partOrder = new Int32Array(Math.max(n, 2 * partOrder.length));
    partKeys = new Float64Array(10 * partOrder.length);
  }
  const keys = partKeys;
  const byIndex = l.part.hasPose;
  for (let h = 0; h < n; h++) {
    const id = ids[h];
    const o = 10 * h;
    if (byIndex) keys.fill(0, o, o + 9);
    else {
      l.view.part(l.part, l.comp, id);
      sortedCorners(cornersNew, l.part.triangle);
      for (let k = 0; k < 9; k++) keys[o + k] = cornersNew[k];
    }
    keys[o + 9] = id;
  }
  const order = partOrder.subarray(0, n);
  for (let h = 0; h < n; h++) order[h] = h;
  order.sort((x, y) => {
    const ox = 10 * x;
    const oy = 10 * y;
    for (let k = 0; k < 10; k++) {
      const d = keys[ox + k] - keys[oy + k];
      if (d !== 0) return d < 0 ? -1 : 1;
    }
    return 0;
  });
  for (let h = 0; h < n; h++) ids[h] = keys[10 * order[h] + 9];
}

/**
 * Whether the new part's contact (`l.contact`, part loaded) replaces the best one (part
 * `bestPart`): when deeper by more than rounding; at the same depth to rounding (typically both
 * touching, where a part's normal is not unique), when the best normal does not achieve the
 * depth on the new part while the new normal achieves it on the best part, else by
 * {@link deeperPart} (near ties to the lower part, the same in both argument orders). A
 * cylinder beside a box mesh, its end faces in the planes of the box's top and bottom, touches
 * the bottom triangles with any normal between the side face's and (0,1,0), and the first part's
 * (0,1,0) cut through the side face (a fresh user's report). The tie rule needs support-mapped
 * parts and S. The loaded part may change (callers reload before use). Allocation free.
 */
function takesNew(l: Level, bestPart: number, newPart: number, newQueryPose: Isometry): boolean {
  const c = l.contact;
  const b = l.best;
  // Deeper beyond rounding, or a near tie to the lower part (order-independent).
  const deeper = deeperPart(l, c, newPart, b, bestPart);
  if (!isSupportMappedType(l.part.shape.type) || !isSupportMappedType(l.other.type)) return deeper;
  const scale = Math.max(
    Math.abs(c.pointA.x),
    Math.abs(c.pointA.y),
    Math.abs(c.pointA.z),
    Math.abs(b.pointA.x),
    Math.abs(b.pointA.y),
    Math.abs(b.pointA.z),
  );
  if (!(Math.abs(c.distance - b.distance) <= TIE_RELATIVE * scale)) return deeper;
  const depth = -Math.min(c.distance, b.distance);
  // The new part's query pose may be the level's scratch, which loading the best part rewrites.
  const newPose = iso.copy(tiePose, newQueryPose);
  tieIo[0] = depth;
  const bestOnNew = partOverlapWithin(l, b.normal);
  vec3.copy(tieNormal, c.normal);
  const p = loadPart(l, bestPart);
  const newOnBest = partOverlapWithin(l, tieNormal);
  if (bestOnNew !== newOnBest) return newOnBest;
  if (bestOnNew) return deeper;
  // Neither normal achieves the depth on the other part. Penetrating parts keep their own
  // contacts: another normal would not run through their witness points (a box mesh inside a
  // box: the faces' contacts, measured along the face normals past the diagonal internal edges,
  // tie on opposite faces, and the edge–edge normal of GJK/EPA with the first face's depth and
  // points was no contact of either; issue 16).
  if (depth > TIE_RELATIVE * scale) return deeper;
  // A touching pair's normal is not unique
  // (a vertex on a vertex takes any direction of a cone), and the pair asked in the other
  // argument order gives another of its normals: the first of the best part's and the new
  // part's that achieves the depth on both parts is taken (a polyhedron's edge resting on the
  // boundary vertex of two terrain triangles: the lone triangles' normals cut through each
  // other, the edge–edge normal separates both; heightfield.test.ts).
  for (let k = 0; k < 2; k++) {
    const onBest = k === 0;
    if (!onBest) loadPart(l, newPart);
    if (!reverseNormal(tieAlt, l, onBest ? p : newPose)) continue;
    if (!partOverlapWithin(l, tieAlt)) continue;
    loadPart(l, onBest ? newPart : bestPart);
    if (!partOverlapWithin(l, tieAlt)) continue;
    vec3.copy(deeper ? c.normal : b.normal, tieAlt);
    return deeper;
  }
  return deeper;
}

const tiePose = iso.identity();
const tieAlt = vec3.create();
const tieContact = makeContact();
const tieInv = iso.identity();

/**
 * The normal (caller's frame and order) of the loaded part and S asked in the other argument
 * order by GJK/EPA (`p` the part query's pose from {@link loadPart}); false when they are apart.
 * Support-mapped part and S only.
 */
function reverseNormal(out: Vec3, l: Level, p: Isometry): boolean {
  const t = tieContact;
  iso.invert(tieInv, p);
  const part = l.part.shape as ConvexShape;
  const s = l.other as ConvexShape;
  // C as A: the part at the origin, S at p → S first, the part at inv(p) (S's frame).
  // C as B: S at the origin, the part at p → the part first, S at inv(p) (the part's frame).
  if (
    !(l.first
      ? contactConvexConvex(t, s, part, tieInv, 0)
      : contactConvexConvex(t, part, s, tieInv, 0))
  )
    return false;
  if (t.distance > 0) return false;
  iso.transformVector(out, p, t.normal);
  vec3.negate(out, out);
  if (l.first && l.part.hasPose) iso.transformVector(out, l.part.pose, out);
  return true;
}

/** Depths equal to this much of the contact points' magnitude are a tie ({@link takesNew}). */
const TIE_RELATIVE = 2 ** -40;

const tieNormal = vec3.create();
const tieDir = vec3.create();
const tieP = vec3.create();
const tieQ = vec3.create();
/**
 * [0] the tie's depth (set by {@link takesNew}): a double in a typed array, not an argument or a
 * module variable (either boxes it).
 */
const tieIo = new Float64Array(1);

/**
 * Whether the overlap of the loaded part and S along unit `n` (the caller's frame, from the
 * caller's A toward B), h_A(n) + h_B(−n) (positive when they overlap along n), is at most the
 * tie's depth `tieIo[0]` plus its rounding bound (2^-40 of the support points' magnitude).
 */
function partOverlapWithin(l: Level, n: Vec3): boolean {
  const part = l.part.shape as ConvexShape;
  const s = l.other as ConvexShape;
  // The part in the caller's frame: C as A, its own pose (or none); C as B, partPose.
  // S in the caller's frame: C as A, l.pose; C as B, the identity.
  const sign = l.first ? 1 : -1;
  vec3.scale(tieDir, n, sign);
  if (l.first && l.part.hasPose) {
    iso.inverseTransformVector(tieP, l.part.pose, tieDir);
    supportOf(tieP, part, vec3.copy(tieDir, tieP));
    iso.transformPoint(tieP, l.part.pose, tieP);
  } else if (l.first) supportOf(tieP, part, tieDir);
  else {
    iso.inverseTransformVector(tieP, l.partPose, tieDir);
    supportOf(tieP, part, vec3.copy(tieDir, tieP));
    iso.transformPoint(tieP, l.partPose, tieP);
  }
  vec3.scale(tieDir, n, -sign);
  if (l.first) {
    iso.inverseTransformVector(tieQ, l.pose, tieDir);
    supportOf(tieQ, s, vec3.copy(tieDir, tieQ));
    iso.transformPoint(tieQ, l.pose, tieQ);
  } else supportOf(tieQ, s, tieDir);
  const slack =
    TIE_RELATIVE *
    Math.max(
      Math.abs(tieP.x),
      Math.abs(tieP.y),
      Math.abs(tieP.z),
      Math.abs(tieQ.x),
      Math.abs(tieQ.y),
      Math.abs(tieQ.z),
    );
  // A's point along n minus B's point along n: positive when A reaches past B.
  const overlap =
    sign *
    (tieP.x * n.x + tieP.y * n.y + tieP.z * n.z - (tieQ.x * n.x + tieQ.y * n.y + tieQ.z * n.z));
  return overlap <= tieIo[0] + slack;
}

/**
 * True when part contact `c` of part `i` beats the best so far (`best`, part `bestPart`): deeper
 * by more than the rounding of its coordinates, or as deep within that rounding and the lower
 * part ({@link lowerPart}). A vertex or edge touching several parts gives them depths that differ
 * only by the rounding of the pose, which differs between contact(A, B) and contact(B, A) (one
 * pose is the other's inverse); taking the first in the view's hit order then chose different
 * parts, with unrelated normals, in the two orders (issue 16: the flipped normal not negated).
 * The order is the same in both argument orders, so the near tie goes to the same part. Part `i`
 * is loaded again on return.
 */
function deeperPart(l: Level, c: Contact, i: number, best: Contact, bestPart: number): boolean {
  const tie =
    PART_TIE *
    Math.max(
      Math.abs(c.pointA.x),
      Math.abs(c.pointA.y),
      Math.abs(c.pointA.z),
      Math.abs(best.pointA.x),
      Math.abs(best.pointA.y),
      Math.abs(best.pointA.z),
    );
  const d = c.distance;
  const b = best.distance;
  if (d < b - tie) return true;
  if (d > b + tie) return false;
  tieSeen[0] = 1;
  return lowerPart(l, i, bestPart);
}

const cornersNew = new Float64Array(9);
const cornersBest = new Float64Array(9);

/**
 * The order of near-tied parts `i` and `j` (true when `i` comes first; `i` loaded on return). Two
 * triangles of a surface (parts with no pose: a mesh's, a heightfield's cells) by their corners
 * in the composite's frame, each sorted lexicographically (x, then y, then z), compared
 * lexicographically — their geometry, not their indices, so a heightfield and the mesh of its
 * triangles listed in any order or winding take the same one (a capsule through a field's corner
 * vertex, pushed out across either cell triangle, got opposite normals). Other parts (a
 * compound's children), or two triangles with the same corners, by index.
 */
function lowerPart(l: Level, i: number, j: number): boolean {
  if (l.view.edgeFlags === undefined || l.part.hasPose) return i < j;
  l.view.part(l.part, l.comp, j);
  sortedCorners(cornersBest, l.part.triangle);
  l.view.part(l.part, l.comp, i);
  sortedCorners(cornersNew, l.part.triangle);
  for (let k = 0; k < 9; k++) {
    if (cornersNew[k] !== cornersBest[k]) return cornersNew[k] < cornersBest[k];
  }
  return i < j;
}

/** out = the corners of `t` (x, y, z each), sorted lexicographically. */
function sortedCorners(out: Float64Array, t: Triangle): void {
  writeCorner(out, 0, t.a);
  writeCorner(out, 3, t.b);
  writeCorner(out, 6, t.c);
  if (cornerAfter(out, 0, 3)) swapCorners(out, 0, 3);
  if (cornerAfter(out, 3, 6)) swapCorners(out, 3, 6);
  if (cornerAfter(out, 0, 3)) swapCorners(out, 0, 3);
}

function writeCorner(out: Float64Array, o: number, p: Vec3): void {
  out[o] = p.x;
  out[o + 1] = p.y;
  out[o + 2] = p.z;
}

/** True when the corner at `o` comes after the one at `q` (lexicographically). */
function cornerAfter(v: Float64Array, o: number, q: number): boolean {
  if (v[o] !== v[q]) return v[o] > v[q];
  if (v[o + 1] !== v[q + 1]) return v[o + 1] > v[q + 1];
  return v[o + 2] > v[q + 2];
}

function swapCorners(v: Float64Array, o: number, q: number): void {
  for (let k = 0; k < 3; k++) {
    const t = v[o + k];
    v[o + k] = v[q + k];
    v[q + k] = t;
  }
}

/** Relative rounding band of {@link deeperPart}: 16 ulps of the contact's coordinates. */
const PART_TIE = 2 ** -48;

/**
 * True when the composite is a solid (C as A) and S support-mapped: S meeting its surface is
 * answered as the solid (mesh-solid.ts's `solidMeshContact`), not by its two-sided triangles.
 */
function solidPair(l: Level): boolean {
  return l.first && l.view.isSolid?.(l.comp) === true && isSupportMappedType(l.other.type);
}

/**
 * The solid's contact of S crossing or inside it into `out` (see {@link solidPair}); false when
 * mesh-solid.ts has none for the pair (a non-convex solid and S not a sphere).
 */
function solidContact(out: Contact, l: Level, prediction: number): boolean {
  const c = l.contact;
  if (!solidMeshContact(c, l.comp as TriangleMesh, l.other as ConvexShape, l.pose, prediction))
    return false;
  copyContact(out, c);
  return true;
}

/** The level's contact (see {@link contactShapeComposite}), solids included. */
function contactLevel(out: Contact, l: Level, prediction: number): boolean {
  const found = bestPartContact(l, prediction);
  const overlaps = found && l.best.distance <= 0;
  if (overlaps && solidPair(l)) {
    if (solidContact(out, l, prediction)) return true;
    // A non-convex solid: the certified bracket of the solid's depth when S crosses the
    // surface or lies on it with points inside (mesh-solid.ts), else the touching triangles'.
    const c = l.contact;
    if (
      boundedSolidContact(c, l.comp as TriangleMesh, l.other as ConvexShape, l.pose, l.best, false)
    ) {
      copyContact(out, c);
      return true;
    }
  }
  if (!overlaps && holds(l)) {
    // S inside the solid, touching no part: the solid's contact, else through the nearest surface.
    if (solidContact(out, l, prediction)) return true;
    if (found) {
      vec3.copy(l.solidA, l.best.pointA);
      vec3.copy(l.solidB, l.best.pointB);
    } else {
      surfaceDistance(l.dist, l);
      vec3.copy(l.solidA, l.dist.pointA);
      vec3.copy(l.solidB, l.dist.pointB);
    }
    // The way out through the nearest surface as the first direction of the certified bracket
    // (its own overlap along that way is no bound for a non-convex solid).
    containedWayOut(l.contact, l.solidA, l.solidB);
    if (
      boundedSolidContact(
        out,
        l.comp as TriangleMesh,
        l.other as ConvexShape,
        l.pose,
        l.contact,
        true,
      )
    )
      return true;
    containedConvexContact(
      out,
      l.comp as TriangleMesh,
      l.other as ConvexShape,
      l.pose,
      l.solidA,
      l.solidB,
    );
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

/** Squared distance between box `b` (min xyz, max xyz) and the box [lo, hi] (0 when they overlap). */
function boxDistanceSq(b: Float64Array, lo: Vec3, hi: Vec3): number {
  const dx = Math.max(0, b[0] - hi.x, lo.x - b[3]);
  const dy = Math.max(0, b[1] - hi.y, lo.y - b[4]);
  const dz = Math.max(0, b[2] - hi.z, lo.z - b[5]);
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Orders the first `k` children of `l.kids` by `l.kidLower` into `l.kidOrder`, nearest first
 * (stable: equal bounds keep the tree's order, so of two the first child is visited first).
 */
function orderKids(l: Level, k: number): void {
  const order = l.kidOrder;
  const lower = l.kidLower;
  for (let a = 0; a < k; a++) {
    let b = a;
    while (b > 0 && lower[order[b - 1]] > lower[a]) {
      order[b] = order[b - 1];
      b--;
    }
    order[b] = a;
  }
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
  const tree = l.view.tree;
  const root = tree ? tree.root(l.comp) : -1;
  if (!tree || root < 0) return growingDistance(out, l);
  // `out` may be the pair table's flip scratch, which the part queries below reuse when a
  // part's pair is itself flipped: the nearest points are kept in the level and written last.
  vec3.copy(l.nearA, l.pose.translation);
  vec3.copy(l.nearB, l.pose.translation);
  aabbShape(l.box, l.other, l.rel);
  const lo = l.box.min;
  const hi = l.box.max;
  const d = l.partDist;
  let best = Infinity;
  let top = pushNode(l, 0, root, 0);
  while (top > 0) {
    top--;
    const i = l.nodes[top];
    if (l.lower[top] > best * best) continue;
    if (tree.isLeaf(l.comp, i)) {
      const n = tree.leafParts(l.hits, l.comp, i);
      for (let h = 0; h < n; h++) {
        const p = loadPart(l, l.hits.ids[h]);
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
    const k = tree.children(l.kids, l.comp, i);
    for (let c = 0; c < k; c++) {
      tree.box(l.nodeBox, l.comp, l.kids[c]);
      l.kidLower[c] = boxDistanceSq(l.nodeBox, lo, hi);
    }
    // Pushed farthest first, so that the nearest is visited next.
    orderKids(l, k);
    for (let c = k - 1; c >= 0; c--) {
      const o = l.kidOrder[c];
      top = pushNode(l, top, l.kids[o], l.kidLower[o]);
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
    if (!solidMeshContact(l.contact, l.comp as TriangleMesh, l.other as ConvexShape, l.pose, 0))
      containedConvexContact(
        l.contact,
        l.comp as TriangleMesh,
        l.other as ConvexShape,
        l.pose,
        out.pointA,
        out.pointB,
      );
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
// The routines the pair table calls, both orders and two composites, through one wrapper
// ---------------------------------------------------------------------------------------------

const OP_INTERSECTS = 0;
const OP_DISTANCE = 1;
const OP_CONTACT = 2;
const OP_MANIFOLD = 3;
const OP_NAMES = ["intersects", "distance", "contact", "manifold"];

/** The composite is the caller's B (S is A). */
const COMPOSITE_B = 0;
/** The composite is the caller's A (part-first). */
const COMPOSITE_A = 1;
/** Both are composites with trees, descended together (A's and B's). */
const TWO_TREES = 2;

/**
 * The one entry of the composite routines: takes a level for composite `c` and shape `s` (B at
 * `bInA` in A's frame; `mode` says which is A), runs operation `op` into `out` and leaves the
 * level whatever happens. Returns the operation's boolean (true for distance).
 */
function run(
  op: number,
  out: Contact | DistanceResult | ContactManifold | null,
  mode: number,
  c: Shape,
  s: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const l = enter(viewOf(c, s, OP_NAMES[op]), c, s, bInA, mode !== COMPOSITE_B);
  try {
    if (mode === TWO_TREES) {
      l.otherView = viewOf(s, c, OP_NAMES[op]);
      if (op === OP_INTERSECTS) return intersectsTwoTrees(l);
      if (op === OP_DISTANCE) {
        distanceTwoTrees(out as DistanceResult, l);
        return true;
      }
      if (op === OP_CONTACT) return contactTwoTrees(out as Contact, l, prediction);
      return manifoldTwoTrees(out as ContactManifold, l, prediction);
    }
    if (op === OP_INTERSECTS) return intersectsLevel(l);
    if (op === OP_DISTANCE) {
      distanceLevel(out as DistanceResult, l);
      return true;
    }
    if (op === OP_CONTACT) return contactLevel(out as Contact, l, prediction);
    return manifoldLevel(out as ContactManifold, l, prediction);
  } finally {
    l.otherView = NO_VIEW;
    leave(l);
  }
}

/**
 * `s` as one convex shape when it is a `solid: true` mesh whose solid is convex (the convex hull
 * of its vertices, src/shapes/triangle-mesh.ts `convexSolidOfTriangleMesh`, cached per mesh), else
 * `s`: against another solid mesh a convex solid mesh answers exactly as that hull does (issue
 * 16: two solid meshes whose surfaces cross got the triangles' 0, not the solids' depth), and
 * against a surface (a mesh without `solid`, a heightfield) the surface's triangles each meet the
 * hull, so the pair is the composite against one convex shape: the deepest triangle's exact
 * contact with the solid, each triangle pushed out through the nearest face (issue 16, session
 * 39: a sheet at y = 0.5 in the cube [−1, 1]^3 had been pushed out whole, sideways, −1.9).
 */
function solidAsConvex(s: Shape, o: Shape): Shape {
  if (s.type !== ShapeType.TriangleMesh || !(s as TriangleMesh).solid) return s;
  if (o.type === ShapeType.TriangleMesh) {
    // Against a non-convex solid mesh both stay meshes: the two-tree path and
    // crossingSolidsContact (src/narrowphase/mesh-solid.ts) answer the two solids.
    if ((o as TriangleMesh).solid && isNonConvexSolidPair(s, o)) return s;
  } else if (o.type !== ShapeType.Heightfield) {
    // A compound keeps the composite path (solidAgainstParts: each child against the solid,
    // which is the hull's answer for a convex solid); a convex shape is the mesh's own pair.
    return s;
  }
  return convexSolidOfTriangleMesh(s as TriangleMesh) ?? s;
}

const solidPairScratch: Contact = /* @__PURE__ */ makeContact();

/** The solid of a two-tree pair is A ({@link solidAgainstParts}). */
const SOLID_A = 1;
/** The solid of a two-tree pair is B ({@link solidAgainstParts}). */
const SOLID_B = 2;

/**
 * Which side of a two-tree pair is a closed solid (its view's `isSolid`: a `solid: true` mesh)
 * against a composite of parts that is not a solid (a compound, a surface mesh, a heightfield):
 * SOLID_A, SOLID_B, else 0. Such a pair is answered part by part, the other composite as the
 * composite and the whole solid as S, so each part meets the solid through the table exactly as
 * the bare part does (mesh-solid.ts: depth the solid's, not a crossed triangle's two-sided one)
 * and the deepest part answers; a nested compound child recurses here. (A part's two-sided
 * triangle depth is never deeper than its depth against the solid that holds the triangle, so no
 * triangle pair is needed.) A convex solid against a surface never gets here: it is its hull
 * ({@link solidAsConvex}); a non-convex one does (issue 16, session 39: a surface inside it had
 * been pushed out whole, its extent along the nearest way out, errorBound 0).
 */
function solidAgainstParts(a: Shape, b: Shape): number {
  const va = compositeView(a.type);
  const vb = compositeView(b.type);
  if (!va || !vb) return 0;
  const aSolid = va.isSolid?.(a) === true;
  const bSolid = vb.isSolid?.(b) === true;
  if (aSolid && !bSolid) return SOLID_A;
  if (bSolid && !aSolid) return SOLID_B;
  return 0;
}

/** True when A touches or overlaps some part of composite B (B at `bInA`, A's frame). */
export function intersectsShapeComposite(a: Shape, b: Shape, bInA: Isometry): boolean {
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return intersectsPair(ha, hb, bInA);
  return run(OP_INTERSECTS, null, COMPOSITE_B, b, a, bInA, 0);
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
  if (frameOverflows(a, b, bInA)) return contactInBFrame(out, a, b, bInA, prediction);
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return contactPair(out, ha, hb, bInA, prediction);
  return run(OP_CONTACT, out, COMPOSITE_B, b, a, bInA, prediction);
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
  if (frameOverflows(a, b, bInA)) return distanceInBFrame(out, a, b, bInA);
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return distancePair(out, ha, hb, bInA);
  run(OP_DISTANCE, out, COMPOSITE_B, b, a, bInA, 0);
  return out;
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
  if (frameOverflows(a, b, bInA)) return manifoldInBFrame(out, a, b, bInA, prediction);
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return manifoldPair(out, ha, hb, bInA, prediction);
  return run(OP_MANIFOLD, out, COMPOSITE_B, b, a, bInA, prediction);
}

/** True when composite A and B (B at `bInA`, A's frame) touch or overlap (a solid A holding B counts). */
export function intersectsCompositeShape(a: Shape, b: Shape, bInA: Isometry): boolean {
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return intersectsPair(ha, hb, bInA);
  return run(OP_INTERSECTS, null, COMPOSITE_A, a, b, bInA, 0);
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
  if (frameOverflows(a, b, bInA)) return contactInBFrame(out, a, b, bInA, prediction);
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return contactPair(out, ha, hb, bInA, prediction);
  return run(OP_CONTACT, out, COMPOSITE_A, a, b, bInA, prediction);
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
  if (frameOverflows(a, b, bInA)) return distanceInBFrame(out, a, b, bInA);
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return distancePair(out, ha, hb, bInA);
  run(OP_DISTANCE, out, COMPOSITE_A, a, b, bInA, 0);
  return out;
}

/** Contact manifold of composite A and B within `prediction` (A's frame; see the module doc). */
export function manifoldCompositeShape(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (frameOverflows(a, b, bInA)) return manifoldInBFrame(out, a, b, bInA, prediction);
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return manifoldPair(out, ha, hb, bInA, prediction);
  return run(OP_MANIFOLD, out, COMPOSITE_A, a, b, bInA, prediction);
}

/**
 * True when composites A and B (both with a `tree`; B at `bInA`, A's frame) touch or overlap:
 * some part pair does, or a solid holds the other (see the module doc).
 */
export function intersectsCompositeComposite(a: Shape, b: Shape, bInA: Isometry): boolean {
  if (frameOverflows(a, b, bInA))
    return intersectsCompositeComposite(b, a, iso.invert(aInBFar, bInA));
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return intersectsPair(ha, hb, bInA);
  const k = solidAgainstParts(a, b);
  if (k === SOLID_A) return run(OP_INTERSECTS, null, COMPOSITE_B, b, a, bInA, 0);
  if (k === SOLID_B) return run(OP_INTERSECTS, null, COMPOSITE_A, a, b, bInA, 0);
  return run(OP_INTERSECTS, null, TWO_TREES, a, b, bInA, 0);
}

/** Contact of composites A and B within `prediction` (A's frame): the deepest part-pair contact. */
export function contactCompositeComposite(
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (frameOverflows(a, b, bInA)) return contactInBFrame(out, a, b, bInA, prediction);
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return contactPair(out, ha, hb, bInA, prediction);
  const k = solidAgainstParts(a, b);
  if (k === SOLID_A) return run(OP_CONTACT, out, COMPOSITE_B, b, a, bInA, prediction);
  if (k === SOLID_B) return run(OP_CONTACT, out, COMPOSITE_A, a, b, bInA, prediction);
  if (!run(OP_CONTACT, out, TWO_TREES, a, b, bInA, prediction)) return false;
  if (isNonConvexSolidPair(a, b) && solidsOverlap(out, a, b, bInA))
    crossingSolidsContact(out, a as TriangleMesh, b as TriangleMesh, bInA);
  return true;
}

const touchPairs: PartPairs = /* @__PURE__ */ makePartPairs();

/**
 * True when solid meshes A and B, whose two-tree contact is `c`, overlap as solids: their
 * surfaces cross properly or one holds the other (`c` deeper than the rounding band of
 * mesh-solid.ts's `solidTouchBand`), or they meet only in coplanar faces or along edges (`c` at
 * 0, or within that band: coplanar faces turned and moved cross by a few ulps) and mesh-solid.ts's
 * `touchingSolidsOverlap` finds their interiors overlapping over their touching triangle pairs.
 */
function solidsOverlap(c: Contact, a: Shape, b: Shape, bInA: Isometry): boolean {
  if (c.distance > 0) return false;
  if (c.distance < -solidTouchBand(a as TriangleMesh, b as TriangleMesh, bInA)) return true;
  const n = touchingPartPairs(touchPairs, a, b, bInA);
  return touchingSolidsOverlap(a as TriangleMesh, b as TriangleMesh, bInA, touchPairs.pairs, n);
}

/** [0] the bounding radius read by {@link frameOverflows} (a typed array, not a returned double). */
const frameRadiusIo = new Float64Array(1);
/** Below this, B's coordinates in A's frame (|offset| + B's bounding radius) are kept finite. */
const FRAME_FINITE = 2 ** 1023 * 1.99;
/** Scratch of the frame swap ({@link frameOverflows}). */
const aInBFar = iso.identity();
const farDistance = makeDistanceResult();
const farContact = makeContact();
const farManifold = makeContactManifold();

/**
 * True when two composites are to be answered in B's frame instead of A's: B's parts moved into
 * A's frame can reach past the doubles (B's offset plus its bounding radius not below 1.99·2^1023)
 * while A's moved into B's frame cannot. A unit mesh 1.7e308 from a 1e307 mesh, in the unit
 * mesh's frame, had the big triangle's corners at 1.8e308 = ∞ (fresh41 06: first an unbounded
 * rescale, "Maximum call stack size exceeded", then a distance of 3.8e292 for 1.6e308); in the
 * big mesh's frame the unit mesh lies at −1.7e308, finite. Two comparisons for every other pair.
 */
function frameOverflows(a: Shape, b: Shape, bInA: Isometry): boolean {
  const t = bInA.translation;
  const m = Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
  if (m < 2 ** 1000) return false;
  writeBoundingRadiusOf(frameRadiusIo, b);
  if (m + frameRadiusIo[0] < FRAME_FINITE) return false;
  writeBoundingRadiusOf(frameRadiusIo, a);
  return m + frameRadiusIo[0] < FRAME_FINITE;
}

/**
 * The contact of composites A and B answered in B's frame ({@link frameOverflows}): the pair
 * (B, A) there, flipped back into A's frame and order.
 */
function contactInBFrame(
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const t = farContact;
  if (!contactCompositeComposite(t, b, a, iso.invert(aInBFar, bInA), prediction)) return false;
  flipContactInto(out, t, bInA);
  return true;
}

/** {@link contactInBFrame} for the closest points. */
function distanceInBFrame(out: DistanceResult, a: Shape, b: Shape, bInA: Isometry): DistanceResult {
  const t = farDistance;
  distanceCompositeComposite(t, b, a, iso.invert(aInBFar, bInA));
  return flipDistanceInto(out, t, bInA);
}

/** {@link contactInBFrame} for the contact manifold. */
function manifoldInBFrame(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const t = farManifold;
  if (!manifoldCompositeComposite(t, b, a, iso.invert(aInBFar, bInA), prediction)) return false;
  flipManifold(out, t, bInA);
  return true;
}

/** Closest points of composites A and B (A's frame): branch and bound over node pairs. */
export function distanceCompositeComposite(
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  if (frameOverflows(a, b, bInA)) return distanceInBFrame(out, a, b, bInA);
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return distancePair(out, ha, hb, bInA);
  const k = solidAgainstParts(a, b);
  if (k !== 0) {
    if (k === SOLID_A) run(OP_DISTANCE, out, COMPOSITE_B, b, a, bInA, 0);
    else run(OP_DISTANCE, out, COMPOSITE_A, a, b, bInA, 0);
    return out;
  }
  run(OP_DISTANCE, out, TWO_TREES, a, b, bInA, 0);
  return out;
}

/** Contact manifold of composites A and B within `prediction` (A's frame; see the module doc). */
export function manifoldCompositeComposite(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (frameOverflows(a, b, bInA)) return manifoldInBFrame(out, a, b, bInA, prediction);
  const ha = solidAsConvex(a, b);
  const hb = solidAsConvex(b, a);
  if (ha !== a || hb !== b) return manifoldPair(out, ha, hb, bInA, prediction);
  const k = solidAgainstParts(a, b);
  if (k === SOLID_A) return run(OP_MANIFOLD, out, COMPOSITE_B, b, a, bInA, prediction);
  if (k === SOLID_B) return run(OP_MANIFOLD, out, COMPOSITE_A, a, b, bInA, prediction);
  if (isNonConvexSolidPair(a, b)) {
    // Overlapping solids: the one point of the solids' contact (crossingSolidsContact).
    const c = solidPairScratch;
    if (!run(OP_CONTACT, c, TWO_TREES, a, b, bInA, prediction)) return false;
    if (solidsOverlap(c, a, b, bInA)) {
      crossingSolidsContact(c, a as TriangleMesh, b as TriangleMesh, bInA);
      singleContactManifold(out, c);
      return true;
    }
  }
  return run(OP_MANIFOLD, out, TWO_TREES, a, b, bInA, prediction);
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
  // A surface's part against a whole solid mesh (solidAgainstParts): the contact is the solid's
  // depth for that triangle, whose normal the rule would turn to the face's without measuring
  // the solid along it (no support function), so it is kept as the solid answered it.
  if (l.other.type === ShapeType.TriangleMesh && (l.other as TriangleMesh).solid) return;
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
  let bestPart = -1;
  for (let pass = 0; pass < 2; pass++) {
    stored = 0;
    best = -1;
    bestDistance = Infinity;
    bestPart = -1;
    tieSeen[0] = 0;
    for (let h = 0; h < n; h++) {
      const i = l.hits.ids[h];
      const p = loadPart(l, i);
      if (!contactPart(l.contact, l, i, p, prediction)) continue;
      // The contact's rule (takesNew), so that the manifold's normal is the contact's.
      if (best < 0 || takesNew(l, bestPart, i, p)) {
        bestDistance = l.contact.distance;
        best = stored;
        bestPart = i;
        copyContact(l.best, l.contact);
      }
      storeContact(l, stored++, i, l.contact);
    }
    if (!retryInPartOrder(l, n)) break;
  }
  // takesNew may have given the kept best another of its tied normals.
  if (best >= 0) storeContact(l, best, bestPart, l.best);
  const overlaps = best >= 0 && bestDistance <= 0;
  if ((overlaps && solidPair(l)) || (!overlaps && holds(l))) {
    // S crossing or inside the solid: the solid's manifold (mesh-solid.ts).
    const m = l.manifold;
    const other = l.other as ConvexShape;
    if (solidMeshManifold(m, l.contact, l.comp as TriangleMesh, other, l.pose, prediction)) {
      copyManifold(out, m);
      return true;
    }
    // A non-convex solid: the one point of the certified contact (contactLevel) when it is
    // deeper than the triangles' (S crossing, or on the surface with points inside), else the
    // triangles' merged manifold (S resting on the surface, its depth theirs).
    if (
      overlaps &&
      boundedSolidContact(l.contact, l.comp as TriangleMesh, other, l.pose, l.best, false) &&
      l.contact.distance < bestDistance - 2 ** -30 * Math.abs(bestDistance)
    ) {
      singleContactManifold(out, l.contact);
      return true;
    }
  }
  if (!overlaps && holds(l)) {
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
      if (l.first) partManifold(m, l.part.shape, l.other as ConvexShape, p, l.contact, prediction);
      else partManifold(m, l.other as ConvexShape, l.part.shape, p, l.contact, prediction);
    } else if (!manifoldPart(m, l, p, prediction)) continue;
    if (vec3.dot(m.normal, mergeN) < MESH_MANIFOLD_MERGE_COS) continue;
    // The part's shape and S posed in the caller's frame, in the caller's order.
    const partPose = l.first ? (l.part.hasPose ? l.part.pose : IDENTITY) : l.partPose;
    const shapeA = l.first ? l.part.shape : l.other;
    const shapeB = l.first ? l.other : l.part.shape;
    const poseA = l.first ? partPose : IDENTITY;
    const poseB = l.first ? l.pose : partPose;
    for (let q = 0; q < m.count; q++) {
      const pt = m.points[q];
      // Set here: a nested composite query (manifoldPart) may have used the slot.
      lineIo[2] = bestDistance;
      if (!facingPoint(pt.pointA, pt.pointB, mergeN, shapeA, poseA, shapeB, poseB)) continue;
      count = pushPoint(
        l,
        count,
        facedA,
        facedB,
        i * PART_FEATURE_FIELD + (pt.featureId % PART_FEATURE_FIELD),
      );
    }
  }
  if (!finishMerge(out, l, count, l.first ? l.pointB : l.pointA, bestDistance === 0)) {
    // Every merged point was dropped (none faced the deepest contact's): that contact alone.
    loadContact(l, l.contact, best);
    singleContactManifold(out, l.contact);
  }
  return true;
}

const partScaled = makeContact();
/**
 * The unit range of src/narrowphase/extreme-scale.ts ([2^-128, 2^128]), bound to module constants
 * once at load (an imported binding is read through a cell on every access).
 */
const UNIT_RANGE_MAX = SHARED_RANGE_MAX;
const UNIT_RANGE_MIN = SHARED_RANGE_MIN;

/**
 * `manifoldFromContact` of a surface's part pair (A, B at `bInA`, the caller's frame) widening
 * `contact`, with the pair table's change of units far from unit scale (src/narrowphase/
 * extreme-scale.ts): when the contact's points or B's offset lie outside [2^-128, 2^128] (or are
 * all 0), the pair, the contact and the prediction are multiplied by the power of two of
 * `triangleRescaleFactor` and the manifold's lengths divided by it (exact). Its clipping forms
 * face normals and areas from products of lengths, which had underflowed for a field of 2^-270
 * and overflowed for one of 2^511 (one point kept where scale 1 has four; attack 38).
 * Allocates the scaled copies only out of range.
 */
function partManifold(
  m: ContactManifold,
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): void {
  const t = bInA.translation;
  let r = Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
  r = Math.max(
    r,
    Math.abs(contact.pointA.x),
    Math.abs(contact.pointA.y),
    Math.abs(contact.pointA.z),
  );
  r = Math.max(
    r,
    Math.abs(contact.pointB.x),
    Math.abs(contact.pointB.y),
    Math.abs(contact.pointB.z),
  );
  // The range test written out (a double passed to a call V8 does not inline is boxed).
  const k =
    r === 0 || r > UNIT_RANGE_MAX || r < UNIT_RANGE_MIN ? triangleRescaleFactor(a, b, bInA) : 1;
  if (k === 1) {
    manifoldFromContact(m, a, b, bInA, contact, prediction);
    return;
  }
  const c = partScaled;
  c.distance = contact.distance * k;
  vec3.copy(c.normal, contact.normal);
  vec3.scale(c.pointA, contact.pointA, k);
  vec3.scale(c.pointB, contact.pointB, k);
  manifoldFromContact(
    m,
    scaledShape(a, k) as ConvexShape,
    scaledShape(b, k) as ConvexShape,
    scaledPose(bInA, k),
    c,
    prediction * k,
  );
  const inv = 1 / k;
  for (let q = 0; q < m.count; q++) {
    const pt = m.points[q];
    pt.distance *= inv;
    vec3.scale(pt.pointA, pt.pointA, inv);
    vec3.scale(pt.pointB, pt.pointB, inv);
  }
}

// ---------------------------------------------------------------------------------------------
// Merged points facing each other across the merge normal
// ---------------------------------------------------------------------------------------------

/*
 * A part's manifold faces across its own normal: each pair of points differs by distance·n_part.
 * Merged under the deepest contact's normal n (within MESH_MANIFOLD_MERGE_COS of n_part, up to
 * 18°), such a pair is skewed by up to |distance|·sin 18° across n: its distance (pB − pA)·n
 * no longer belongs to a pair of points that face each other (a box resting across a box mesh's
 * corner, the edge contact's normal tilted off the top face: points 0.3 of the depth apart
 * sideways; issue 16). Such a pair is re-paired along n: A's point kept and B's taken where the
 * line through it along n first meets B (B's side facing A), or, when that line misses B, B's
 * point kept and A's taken where the line along −n first meets A; both points are then on their
 * shapes (each shape's own ray cast) and face each other. A pair that neither line joins, or
 * whose distance along n is deeper than the contact's or farther than the part's own manifold
 * allowed, is dropped (the deepest part's own points, along n already, always stay).
 */

/** The re-paired points of {@link facingPoint} (caller's frame). */
const facedA = vec3.create();
const facedB = vec3.create();
const lineFrom = vec3.create();
const lineDir = vec3.create();
const lineBack = vec3.create();
const lineHit: LocalRayHit = { toi: 0, normal: vec3.create() };
/**
 * [0] a bounding radius, then the line parameter of {@link lineEntry}; [2] the contact's
 * distance for {@link facingPoint} (typed-array slots: doubles passed to or returned by calls are
 * boxed).
 */
const lineIo = new Float64Array(3);

/**
 * Relative facing tolerance of a merged pair, in ulps of its largest coordinate: a pair already
 * along the normal to rounding is kept as it is.
 */
const FACING_ULPS = 64;

/**
 * True, with lineIo[0] = t, when the line p + t·d (caller's frame, d unit) meets shape `s`
 * posed by `pose`: t the parameter of its first point of `s` coming from t = −∞ (a flat triangle:
 * where it crosses it). False when it misses or `s` has no ray cast (a composite). The ray is cast
 * in `s`'s frame from a point beyond its bounding sphere (the shape's own closed-form ray cast).
 */
function lineEntry(s: Shape, pose: Isometry, p: Vec3, d: Vec3): boolean {
  const cast = shapeDef(s.type).rayCast;
  if (cast === null) return false;
  iso.inverseTransformPoint(lineFrom, pose, p);
  iso.inverseTransformVector(lineDir, pose, d);
  if (!vec3.tryNormalize(lineDir, lineDir)) return false;
  writeBoundingRadiusOf(lineIo, s);
  const o = lineFrom;
  // Far from unit scale (the line's point or the shape beyond 2^128 or below 2^-128) the line and
  // a copy of the shape multiplied by a power of two k first, t divided by it (exact): |o|² and
  // the shapes' own ray casts square lengths, which had overflowed beyond 2^512, so every merged
  // point of a mesh of 2^513 was dropped (attack 38).
  const m = Math.max(Math.abs(o.x), Math.abs(o.y), Math.abs(o.z), lineIo[0]);
  let shape = s;
  let k = 1;
  if (
    (m > UNIT_RANGE_MAX || (m > 0 && m < UNIT_RANGE_MIN)) &&
    m < Infinity &&
    shapeDef(s.type).scaled !== null
  ) {
    k = unitScaleFactor(m);
    shape = scaledShape(s, k);
    vec3.scale(o, o, k);
    lineIo[0] *= k;
  }
  const back = Math.sqrt(o.x * o.x + o.y * o.y + o.z * o.z) + 2 * lineIo[0];
  if (!(back < Infinity)) return false;
  lineBack.x = o.x - back * lineDir.x;
  lineBack.y = o.y - back * lineDir.y;
  lineBack.z = o.z - back * lineDir.z;
  if (!cast(lineHit, shape, lineBack, lineDir, lineDir, 1, Infinity, true)) return false;
  lineIo[0] = (lineHit.toi - back) / k;
  return true;
}

const negN = vec3.create();

/**
 * Writes to facedA, facedB the merged pair (pa on A, pb on B; caller's frame and order) facing
 * across unit `n` (A toward B): as given when it already does to rounding, else re-paired (see
 * above). False when it is dropped: no line joins it, or its distance along n is below the
 * contact's (lineIo[2]) or above both the given pair's and 0.
 */
function facingPoint(
  pa: Vec3,
  pb: Vec3,
  n: Vec3,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
): boolean {
  const dx = pb.x - pa.x;
  const dy = pb.y - pa.y;
  const dz = pb.z - pa.z;
  const along = dx * n.x + dy * n.y + dz * n.z;
  const sx = dx - along * n.x;
  const sy = dy - along * n.y;
  const sz = dz - along * n.z;
  const scale = Math.max(
    Math.abs(pa.x),
    Math.abs(pa.y),
    Math.abs(pa.z),
    Math.abs(pb.x),
    Math.abs(pb.y),
    Math.abs(pb.z),
  );
  vec3.copy(facedA, pa);
  vec3.copy(facedB, pb);
  // The sideways offset's length, without overflow for points beyond 2^511 (attack 38: the
  // squares overflowed, so every pair of a field of 2^515 was re-paired or dropped).
  const ss = sx * sx + sy * sy + sz * sz;
  if (ss > HYPOT_SAFE_MIN && ss < HYPOT_SAFE_MAX) hypotIo[0] = Math.sqrt(ss);
  else hypot3Into(sx, sy, sz);
  if (hypotIo[0] <= FACING_ULPS * Number.EPSILON * scale) return true;
  let t = 0;
  if (lineEntry(b, poseB, pa, n)) {
    t = lineIo[0];
    facedB.x = pa.x + t * n.x;
    facedB.y = pa.y + t * n.y;
    facedB.z = pa.z + t * n.z;
  } else {
    vec3.negate(negN, n);
    if (!lineEntry(a, poseA, pb, negN)) return false;
    t = lineIo[0];
    facedA.x = pb.x - t * n.x;
    facedA.y = pb.y - t * n.y;
    facedA.z = pb.z - t * n.z;
  }
  return t >= lineIo[2] && t <= Math.max(along, 0);
}

/**
 * Relative width (times a merged point's coordinates) of the depths below 0 that a touching
 * contact's merged points take as 0 ({@link finishMerge}).
 */
const MERGE_TOUCH_BAND = 2 ** -36;

/**
 * Writes `out` from the `count` merged points of `l` (normal `l.mergeN`), reduced to ≤ 4 along
 * `l.reduceN` by their points `ranked` (S's side); false when there are none. `touch`: the
 * deepest contact is distance exactly 0, so a point's depth within {@link MERGE_TOUCH_BAND} below
 * 0 (its re-measure's rounding: a sphere on a heightfield's cell diagonal was −3e-16) is 0.
 */
function finishMerge(
  out: ContactManifold,
  l: Level,
  count: number,
  ranked: Float64Array<ArrayBuffer>,
  touch: boolean,
): boolean {
  if (count === 0) return false;
  const kept = reduceInUnits(ranked, l.pointDist, count, l.reduceN);
  vec3.copy(out.normal, l.mergeN);
  for (let q = 0; q < kept; q++) {
    const j = chosen[q];
    const p = out.points[q];
    vec3.set(p.pointA, l.pointA[3 * j], l.pointA[3 * j + 1], l.pointA[3 * j + 2]);
    vec3.set(p.pointB, l.pointB[3 * j], l.pointB[3 * j + 1], l.pointB[3 * j + 2]);
    p.distance = l.pointDist[j];
    if (touch && p.distance < 0) {
      const a = p.pointA;
      const b = p.pointB;
      const mag = Math.max(
        Math.abs(a.x),
        Math.abs(a.y),
        Math.abs(a.z),
        Math.abs(b.x),
        Math.abs(b.y),
        Math.abs(b.z),
      );
      if (-p.distance <= MERGE_TOUCH_BAND * mag) p.distance = 0;
    }
    p.featureId = l.pointFeature[j];
  }
  out.count = kept;
  return true;
}

/** {@link reduceInUnits}'s scaled copies of the points and their distances (grown, reused). */
let reduceXyz = new Float64Array(0);
let reduceDist = new Float64Array(0);

/**
 * `reduceManifoldPoints(chosen, xyz, dist, count, n)`, the kept count returned: the points and
 * distances first multiplied by a power of two (exact) when their largest coordinate lies outside
 * [2^-128, 2^128]: the reduction compares squared lengths and areas (4th powers), which had
 * overflowed for the merged points of a field of 2^515 (attack 38). The same choice as at unit
 * scale, bit for bit. Allocation free in steady state.
 */
function reduceInUnits(
  xyz: Float64Array<ArrayBuffer>,
  dist: Float64Array<ArrayBuffer>,
  count: number,
  n: Vec3,
): number {
  let m = 0;
  for (let i = 0; i < 3 * count; i++) m = Math.max(m, Math.abs(xyz[i]));
  if (!(m > UNIT_RANGE_MAX || (m > 0 && m < UNIT_RANGE_MIN)) || !Number.isFinite(m))
    return reduceManifoldPoints(chosen, xyz, dist, count, n);
  const k = unitScaleFactor(m);
  reduceXyz = growFloat64(reduceXyz, 3 * count);
  reduceDist = growFloat64(reduceDist, count);
  for (let i = 0; i < 3 * count; i++) reduceXyz[i] = xyz[i] * k;
  for (let i = 0; i < count; i++) reduceDist[i] = dist[i] * k;
  return reduceManifoldPoints(chosen, reduceXyz, reduceDist, count, n);
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
// Two composites: their trees descended together
// ---------------------------------------------------------------------------------------------

/** Intersecting part pairs: `count` pairs (A's part, B's part) packed in `pairs`. */
export interface PartPairs {
  /** Number of pairs. */
  count: number;
  /** 2 per pair: A's part, B's part; grown as needed. */
  pairs: Uint32Array;
}

/** A new empty pair list (allocates). */
export function makePartPairs(capacity = 64): PartPairs {
  return { count: 0, pairs: new Uint32Array(2 * Math.max(1, capacity)) };
}

function pushPartPair(out: PartPairs, ia: number, ib: number): void {
  if (2 * out.count === out.pairs.length) {
    const p = new Uint32Array(2 * out.pairs.length);
    p.set(out.pairs);
    out.pairs = p;
  }
  out.pairs[2 * out.count] = ia;
  out.pairs[2 * out.count + 1] = ib;
  out.count++;
}

/**
 * Every intersecting (or touching) part pair of composites `a` and `b` (both with a `tree`; B at
 * `bInA`, A's frame) into `out` (reset first) as (A's part, B's part), sorted by A's then B's
 * part. Returns their number. Allocates only when `out` must grow (and to sort).
 */
export function intersectingPartPairs(out: PartPairs, a: Shape, b: Shape, bInA: Isometry): number {
  const n = touchingPartPairs(out, a, b, bInA);
  if (n < 2) return n;
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) keys[k] = out.pairs[2 * k] * 2 ** 32 + out.pairs[2 * k + 1];
  keys.sort();
  for (let k = 0; k < n; k++) {
    out.pairs[2 * k] = Math.floor(keys[k] / 2 ** 32);
    out.pairs[2 * k + 1] = keys[k] % 2 ** 32;
  }
  return n;
}

/** {@link intersectingPartPairs} in the trees' order (unsorted; allocates only to grow `out`). */
function touchingPartPairs(out: PartPairs, a: Shape, b: Shape, bInA: Isometry): number {
  out.count = 0;
  const l = enter(viewOf(a, b, "intersects"), a, b, bInA, true);
  try {
    l.otherView = viewOf(b, a, "intersects");
    walkTwoTrees(l, 0, WALK_PAIRS, 0, out);
  } finally {
    l.otherView = NO_VIEW;
    leave(l);
  }
  return out.count;
}

const WALK_ANY = 0;
const WALK_CONTACTS = 1;
const WALK_PAIRS = 2;

/** A stack of node pairs (two ids per entry) with each entry's lower bound. */
interface PairStack {
  nodes: Int32Array<ArrayBuffer>;
  lower: Float64Array<ArrayBuffer>;
}

function pushPairNode(l: PairStack, top: number, i: number, j: number, lower: number): number {
  l.nodes = growInt32(l.nodes, 2 * (top + 1));
  l.lower = growFloat64(l.lower, top + 1);
  l.nodes[2 * top] = i;
  l.nodes[2 * top + 1] = j;
  l.lower[top] = lower;
  return top + 1;
}

/** B's node `j`: its box (B's frame) into `l.otherBox`, the AABB of that box in A's frame into `l.otherInA`. */
function otherNodeInA(l: Level, tree: CompositeTree, j: number): void {
  tree.box(l.otherBox, l.other, j);
  const b = l.otherBox;
  const cx = 0.5 * (b[0] + b[3]);
  const cy = 0.5 * (b[1] + b[4]);
  const cz = 0.5 * (b[2] + b[5]);
  const hx = 0.5 * (b[3] - b[0]);
  const hy = 0.5 * (b[4] - b[1]);
  const hz = 0.5 * (b[5] - b[2]);
  const t = l.pose.translation;
  const m = l.rot;
  // mat3 is row-major: m[3·row + col].
  const wx = m[0] * cx + m[1] * cy + m[2] * cz + t.x;
  const wy = m[3] * cx + m[4] * cy + m[5] * cz + t.y;
  const wz = m[6] * cx + m[7] * cy + m[8] * cz + t.z;
  // Widened by a bound on the rounding of this box and of the corners B's parts take in A's
  // frame (iso.transformPoint, then the exact triangle test): both err by a few ulps of the
  // node's and the offset's magnitude, so an unpadded box could sit an ulp past a part that
  // touches A's exactly (issue 16: an L mesh and a cube of 0.1 meeting along an edge,
  // intersects false, as the node's z-range [0, 0.1] moved by 0.1 came out [0.1 + 1 ulp, …]).
  const pad =
    (Math.abs(t.x) +
      Math.abs(t.y) +
      Math.abs(t.z) +
      Math.abs(cx) +
      Math.abs(cy) +
      Math.abs(cz) +
      hx +
      hy +
      hz) *
    NODE_FRAME_PAD;
  const ex = Math.abs(m[0]) * hx + Math.abs(m[1]) * hy + Math.abs(m[2]) * hz + pad;
  const ey = Math.abs(m[3]) * hx + Math.abs(m[4]) * hy + Math.abs(m[5]) * hz + pad;
  const ez = Math.abs(m[6]) * hx + Math.abs(m[7]) * hy + Math.abs(m[8]) * hz + pad;
  const o = l.otherInA;
  o[0] = wx - ex;
  o[1] = wy - ey;
  o[2] = wz - ez;
  o[3] = wx + ex;
  o[4] = wy + ey;
  o[5] = wz + ez;
}

/**
 * Relative pad of {@link otherNodeInA}'s box (of the offset's, centre's and half-sides' summed
 * magnitudes): 2^-40, far above the rounding of a unit-quaternion rotation and a translation (a
 * few ulps, 2^-50), far below any gap the trees prune for speed.
 */
const NODE_FRAME_PAD = 2 ** -40;

/**
 * [0] the squared gap of {@link nodeGapSq}: a double returned by a call V8 does not inline is
 * boxed (allocated), as under the mesh pairs' deep call chains.
 */
const gapIo = new Float64Array(1);

/** A's node `i`: its box into `l.nodeBox`; its squared gap to `l.otherInA` (0 when they overlap) into `gapIo[0]`. */
function nodeGapSq(l: Level, tree: CompositeTree, i: number): void {
  tree.box(l.nodeBox, l.comp, i);
  const a = l.nodeBox;
  const b = l.otherInA;
  const dx = Math.max(0, a[0] - b[3], b[0] - a[3]);
  const dy = Math.max(0, a[1] - b[4], b[1] - a[4]);
  const dz = Math.max(0, a[2] - b[5], b[2] - a[5]);
  gapIo[0] = dx * dx + dy * dy + dz * dz;
}

/** Whether box `a`'s surface measure (dx·dy + dy·dz + dz·dx) is at least box `b`'s. */
function areaNotLess(a: Float64Array, b: Float64Array): boolean {
  const ax = a[3] - a[0];
  const ay = a[4] - a[1];
  const az = a[5] - a[2];
  const bx = b[3] - b[0];
  const by = b[4] - b[1];
  const bz = b[5] - b[2];
  return ax * ay + ay * az + az * ax >= bx * by + by * bz + bz * bx;
}

const partAabb: Aabb = { min: vec3.create(), max: vec3.create() };

function writeBox(out: Float64Array, o: number, box: Aabb): void {
  out[o] = box.min.x;
  out[o + 1] = box.min.y;
  out[o + 2] = box.min.z;
  out[o + 3] = box.max.x;
  out[o + 4] = box.max.y;
  out[o + 5] = box.max.z;
}

function triangleBox(out: Float64Array, o: number, t: Triangle): void {
  out[o] = Math.min(t.a.x, t.b.x, t.c.x);
  out[o + 1] = Math.min(t.a.y, t.b.y, t.c.y);
  out[o + 2] = Math.min(t.a.z, t.b.z, t.c.z);
  out[o + 3] = Math.max(t.a.x, t.b.x, t.c.x);
  out[o + 4] = Math.max(t.a.y, t.b.y, t.c.y);
  out[o + 5] = Math.max(t.a.z, t.b.z, t.c.z);
}

/** True when the slot's part is a bare triangle (no pose): its corners can be moved instead of posed. */
function bareTriangle(p: CompositePart): boolean {
  return !p.hasPose && p.shape === p.triangle;
}

/**
 * Loads B's part `i` into `l.otherPart` with `l.otherPose` its pose in A's frame — a bare
 * triangle's corners are moved into A's frame and the pose is the identity — and its box in
 * A's frame into `l.partBoxes[6..12)`.
 */
function loadOtherPart(l: Level, i: number): void {
  const q = l.otherPart;
  l.otherView.part(q, l.other, i);
  if (bareTriangle(q)) {
    const t = q.triangle;
    iso.transformPoint(t.a, l.pose, t.a);
    iso.transformPoint(t.b, l.pose, t.b);
    iso.transformPoint(t.c, l.pose, t.c);
    iso.copy(l.otherPose, IDENTITY);
    triangleBox(l.partBoxes, 6, t);
    l.otherFramed = false;
    return;
  }
  if (q.hasPose) iso.multiply(l.otherPose, l.pose, q.pose);
  else iso.copy(l.otherPose, l.pose);
  writeBox(l.partBoxes, 6, aabbShape(partAabb, q.shape, l.otherPose));
  // Its own box and A's frame seen from it: computed when a part pair first needs them.
  l.otherFramed = q.shape.type !== ShapeType.Sphere;
  l.otherLocalReady = false;
}

/** Loads A's part `i` into `l.part` and its box (A's frame) into `l.partBoxes[0..6)`. */
function loadPairPart(l: Level, i: number): void {
  const q = l.part;
  l.view.part(q, l.comp, i);
  if (bareTriangle(q)) triangleBox(l.partBoxes, 0, q.triangle);
  else writeBox(l.partBoxes, 0, aabbShape(partAabb, q.shape, q.hasPose ? q.pose : IDENTITY));
}

/** True when the loaded parts' boxes are within `margin` of each other. */
function partBoxesNear(l: Level, margin: number): boolean {
  const b = l.partBoxes;
  return !(
    b[3] + margin < b[6] ||
    b[9] + margin < b[0] ||
    b[4] + margin < b[7] ||
    b[10] + margin < b[1] ||
    b[5] + margin < b[8] ||
    b[11] + margin < b[2]
  );
}

/**
 * The loaded part pair's second box test, for a bare triangle of A against a posed B part (a
 * compound's child): the triangle's corners moved into the part's own frame against its own box,
 * which is tight there (the part's box in A's frame, of its rotated box, can be √3 times wider a
 * side). Both are boxes of the parts, so it drops only pairs farther apart than `margin` (which
 * the part query finds apart), the margin padded by 2^-36 of the coordinates' magnitude for the
 * frame change's rounding. Spheres (the same box in every frame) and other pairs pass.
 */
function partsNearInFrame(l: Level, margin: number): boolean {
  if (!l.otherFramed || !bareTriangle(l.part)) return true;
  const own = l.otherLocal;
  const m = l.frameRot;
  if (!l.otherLocalReady) {
    writeBox(own, 0, aabbShape(partAabb, l.otherPart.shape, IDENTITY));
    iso.invert(l.otherInv, l.otherPose);
    mat3.fromQuat(m, l.otherInv.rotation);
    let scale = 0;
    for (let k = 6; k < 12; k++) scale = Math.max(scale, Math.abs(l.partBoxes[k]));
    l.frameMargin = margin + (scale + margin) * FRAME_PAD;
    l.otherLocalReady = true;
  }
  const t = l.part.triangle;
  const tr = l.otherInv.translation;
  const g = l.frameMargin;
  // Per axis (row r of the rotation): the corners' extent against the own box's.
  for (let r = 0; r < 3; r++) {
    const m0 = m[3 * r];
    const m1 = m[3 * r + 1];
    const m2 = m[3 * r + 2];
    const o = r === 0 ? tr.x : r === 1 ? tr.y : tr.z;
    const a = m0 * t.a.x + m1 * t.a.y + m2 * t.a.z + o;
    const b = m0 * t.b.x + m1 * t.b.y + m2 * t.b.z + o;
    const c = m0 * t.c.x + m1 * t.c.y + m2 * t.c.z + o;
    if (Math.max(a, b, c) + g < own[r] || own[r + 3] + g < Math.min(a, b, c)) return false;
  }
  return true;
}

/** Relative pad of {@link partsNearInFrame}'s margin. */
const FRAME_PAD = 2 ** -36;

/**
 * The frame of a part pair's query: A's (A's part first, B's at `l.otherPose`) when A's part has
 * no pose; else B's part's (B's part first, A's part at inv(`l.otherPose`) ∘ its pose, into
 * `l.partPose`), the order the pair takes when a compound's parts meet through the table.
 */
function posedInOther(l: Level): Isometry {
  iso.invert(l.partInv, l.otherPose);
  return iso.multiply(l.partPose, l.partInv, l.part.pose);
}

/** True when the (A part, B part) query goes to GJK/EPA directly (see {@link direct}). */
function directPair(l: Level): boolean {
  const ta = l.part.shape.type;
  const tb = l.otherPart.shape.type;
  return (
    contactFlipped(ta, tb) &&
    contactRoutine(ta, tb) === contactConvexConvex &&
    isSupportMappedType(tb)
  );
}

/**
 * The part-pair `intersects` of two bare triangles in one frame (two surfaces' parts, B's moved
 * into A's frame): Möller's test (mesh-mesh.ts), set by `registerDefaultPairs`; null, the
 * table's (triangle, triangle) routine.
 */
let bareTrianglesIntersect: ((a: Triangle, b: Triangle) => boolean) | null = null;

/** Sets the part-pair test of two bare triangles (see {@link bareTrianglesIntersect}). */
export function setBareTrianglesIntersect(fn: ((a: Triangle, b: Triangle) => boolean) | null) {
  bareTrianglesIntersect = fn;
}

function intersectsPartPair(l: Level): boolean {
  const pa = l.part.shape;
  const pb = l.otherPart.shape;
  if (bareTrianglesIntersect !== null && bareTriangle(l.part) && bareTriangle(l.otherPart))
    return bareTrianglesIntersect(l.part.triangle, l.otherPart.triangle);
  if (l.part.hasPose) return intersectsPair(pb, pa, posedInOther(l));
  if (directPair(l)) return intersectsConvexConvex(pa, pb as ConvexShape, l.otherPose);
  return intersectsPair(pa, pb, l.otherPose);
}

const pairFlip = makeContact();

/** Contact of the loaded part pair within `prediction`, A's frame and order, internal edges fixed. */
function contactPartPair(
  c: Contact,
  l: Level,
  ia: number,
  ib: number,
  prediction: number,
): boolean {
  const pa = l.part;
  const pb = l.otherPart;
  if (pa.hasPose) {
    const t = pairFlip;
    if (!contactPair(t, pb.shape, pa.shape, posedInOther(l), prediction)) return false;
    flipContactInto(c, t, l.otherPose);
  } else {
    const maxGap = Math.max(prediction, 0);
    if (directPair(l)) {
      if (!contactConvexConvex(c, pa.shape, pb.shape as ConvexShape, l.otherPose, maxGap))
        return false;
    } else if (!contactPair(c, pa.shape, pb.shape, l.otherPose, maxGap)) return false;
  }
  if (c.distance > 0) return true;
  // Internal edges: a surface's part against a part of a solid kind (two surfaces: none).
  const edgesA = l.view.edgeFlags;
  const edgesB = l.otherView.edgeFlags;
  if (edgesA && !edgesB && bareTriangle(pa)) {
    const flags = edgesA(l.comp, ia);
    if (flags === 7) return true;
    const s = isSupportMappedType(pb.shape.type) ? (pb.shape as ConvexShape) : null;
    fixInternalEdgeContact(c, pa.triangle, flags, s, l.otherPose);
  } else if (edgesB && !edgesA && bareTriangle(pb)) {
    const flags = edgesB(l.other, ib);
    if (flags === 7) return true;
    const s = isSupportMappedType(pa.shape.type) ? (pa.shape as ConvexShape) : null;
    const f = flipContact(flippedContact, c);
    fixInternalEdgeContact(f, pb.triangle, flags, s, pa.hasPose ? pa.pose : IDENTITY);
    flipContact(c, f);
  }
  return true;
}

const pairFlipDistance = makeDistanceResult();

/** Distance of the loaded part pair, A's frame and order. */
function distancePartPair(d: DistanceResult, l: Level): DistanceResult {
  const pa = l.part.shape;
  const pb = l.otherPart.shape;
  if (l.part.hasPose) {
    distancePair(pairFlipDistance, pb, pa, posedInOther(l));
    return flipDistanceInto(d, pairFlipDistance, l.otherPose);
  }
  if (directPair(l)) return distanceConvexConvex(d, pa, pb as ConvexShape, l.otherPose);
  return distancePair(d, pa, pb, l.otherPose);
}

/**
 * Descends both trees over the node pairs whose boxes are within `margin` (the larger node split
 * first; Gottschalk, Lin & Manocha 1996; Ericson 2005, §6.3.2) and at leaf pairs tests the part
 * pairs whose boxes are that close: `WALK_ANY` returns true at the first intersecting pair,
 * `WALK_CONTACTS` stores every part-pair contact within `prediction` (`l.stored`, count in
 * `l.storedCount`), `WALK_PAIRS` lists the intersecting pairs in `pairs`.
 */
function walkTwoTrees(
  l: Level,
  margin: number,
  walk: number,
  prediction: number,
  pairs: PartPairs | null,
): boolean {
  l.storedCount = 0;
  const tA = l.view.tree as CompositeTree;
  const tB = l.otherView.tree as CompositeTree;
  const rA = tA.root(l.comp);
  const rB = tB.root(l.other);
  if (rA < 0 || rB < 0) return false;
  mat3.fromQuat(l.rot, l.pose.rotation);
  // Padded as the one-tree candidate boxes are (see candidatePad): a part pair that its routine
  // calls touching within its rounding band lies a few ulps apart by boxes (issue 16, seed 53: a
  // box of 1e-5 on the edge of a mesh's triangle of 9e3, 2.9e-12 apart, intersects false while
  // the part's distance, by the branch and bound, was 0 — and distance took that disagreement
  // for a gap of 3.9e-8, its penetration witnesses' spread). Only where a compound is one side:
  // triangle against triangle, so padded, called two box meshes 4.5e-13 apart (an exact gap at
  // size 0.8) touching (the CI fuzzer's seed 16, 13 lines): that pair routine's near-touch is
  // not yet decided exactly, and the boxes' exact pruning is what keeps it right.
  if (l.comp.type === ShapeType.Compound || l.other.type === ShapeType.Compound) {
    otherNodeInA(l, tB, rB);
    tA.box(l.nodeBox, l.comp, rA);
    let c = 0;
    for (let k = 0; k < 6; k++) c = Math.max(c, Math.abs(l.nodeBox[k]), Math.abs(l.otherInA[k]));
    if (c < Infinity) margin += c * WORLD_AABB_ROUNDING_PAD;
  }
  const m2 = margin * margin;
  // B's node box in A's frame and B's loaded part are kept while they stay the same: a deep A
  // against a small B (a mesh against a compound) pops many pairs with one B node and one B part.
  let boxOf = -1;
  let leafB = false;
  let loaded = -1;
  let top = pushPairNode(l, 0, rA, rB, 0);
  while (top > 0) {
    top--;
    const i = l.nodes[2 * top];
    const j = l.nodes[2 * top + 1];
    if (j !== boxOf) {
      otherNodeInA(l, tB, j);
      leafB = tB.isLeaf(l.other, j);
      boxOf = j;
    }
    nodeGapSq(l, tA, i);
    if (gapIo[0] > m2) continue;
    const leafA = tA.isLeaf(l.comp, i);
    if (leafA && leafB) {
      const nB = tB.leafParts(l.otherHits, l.other, j);
      const nA = tA.leafParts(l.hits, l.comp, i);
      for (let p = 0; p < nB; p++) {
        const ib = l.otherHits.ids[p];
        if (ib !== loaded) {
          loadOtherPart(l, ib);
          loaded = ib;
        }
        for (let q = 0; q < nA; q++) {
          const ia = l.hits.ids[q];
          loadPairPart(l, ia);
          if (!partBoxesNear(l, margin) || !partsNearInFrame(l, margin)) continue;
          if (walk === WALK_CONTACTS) {
            if (contactPartPair(l.contact, l, ia, ib, prediction)) storePairContact(l, ia, ib);
            continue;
          }
          if (!intersectsPartPair(l)) continue;
          if (walk === WALK_ANY) return true;
          if (pairs) pushPartPair(pairs, ia, ib);
        }
      }
      continue;
    }
    if (leafB || (!leafA && areaNotLess(l.nodeBox, l.otherBox))) {
      const k = tA.children(l.kids, l.comp, i);
      for (let c = k - 1; c >= 0; c--) top = pushPairNode(l, top, l.kids[c], j, 0);
    } else {
      const k = tB.children(l.kids, l.other, j);
      for (let c = k - 1; c >= 0; c--) top = pushPairNode(l, top, i, l.kids[c], 0);
    }
  }
  return false;
}

function storePairContact(l: Level, ia: number, ib: number): void {
  const k = l.storedCount++;
  storeContact(l, k, ia, l.contact);
  l.otherIds = growInt32(l.otherIds, k + 1);
  l.otherIds[k] = ib;
}

/**
 * Closest points of the two composites' parts (A's frame): branch and bound over node pairs
 * (a pair whose boxes are farther apart than the best part distance so far is dropped; of a
 * node's children the nearer pair is visited first). When some pair meets, 0 with the deepest
 * contact's points. Returns the distance, with the points in `l.nearA`, `l.nearB`.
 */
function surfaceDistanceTwoTrees(l: Level): number {
  vec3.set(l.nearA, 0, 0, 0);
  vec3.copy(l.nearB, l.pose.translation);
  const tA = l.view.tree as CompositeTree;
  const tB = l.otherView.tree as CompositeTree;
  const rA = tA.root(l.comp);
  const rB = tB.root(l.other);
  if (rA < 0 || rB < 0) return Infinity;
  mat3.fromQuat(l.rot, l.pose.rotation);
  const d = l.partDist;
  let best = Infinity;
  otherNodeInA(l, tB, rB);
  nodeGapSq(l, tA, rA);
  let top = pushPairNode(l, 0, rA, rB, gapIo[0]);
  while (top > 0 && best > 0) {
    top--;
    const i = l.nodes[2 * top];
    const j = l.nodes[2 * top + 1];
    if (l.lower[top] > best * best) continue;
    const leafA = tA.isLeaf(l.comp, i);
    const leafB = tB.isLeaf(l.other, j);
    if (leafA && leafB) {
      const nB = tB.leafParts(l.otherHits, l.other, j);
      const nA = tA.leafParts(l.hits, l.comp, i);
      for (let p = 0; p < nB && best > 0; p++) {
        loadOtherPart(l, l.otherHits.ids[p]);
        for (let q = 0; q < nA; q++) {
          l.view.part(l.part, l.comp, l.hits.ids[q]);
          distancePartPair(d, l);
          if (d.distance < best) {
            best = d.distance;
            vec3.copy(l.nearA, d.pointA);
            vec3.copy(l.nearB, d.pointB);
            if (best === 0) break;
          }
        }
      }
      continue;
    }
    // The children of the larger node, each paired with the other node, nearest pushed last.
    let k: number;
    if (leafB || (!leafA && nodeNotSmaller(l, tA, i, tB, j))) {
      k = tA.children(l.kids, l.comp, i);
      otherNodeInA(l, tB, j);
      for (let c = 0; c < k; c++) {
        nodeGapSq(l, tA, l.kids[c]);
        l.kidLower[c] = gapIo[0];
      }
      orderKids(l, k);
      for (let c = k - 1; c >= 0; c--) {
        const o = l.kidOrder[c];
        top = pushPairNode(l, top, l.kids[o], j, l.kidLower[o]);
      }
    } else {
      k = tB.children(l.kids, l.other, j);
      for (let c = 0; c < k; c++) {
        otherNodeInA(l, tB, l.kids[c]);
        nodeGapSq(l, tA, i);
        l.kidLower[c] = gapIo[0];
      }
      orderKids(l, k);
      for (let c = k - 1; c >= 0; c--) {
        const o = l.kidOrder[c];
        top = pushPairNode(l, top, i, l.kids[o], l.kidLower[o]);
      }
    }
  }
  if (best === 0 && contactTwoTrees(l.contact, l, 0)) {
    vec3.copy(l.nearA, l.contact.pointA);
    vec3.copy(l.nearB, l.contact.pointB);
  }
  return best;
}

/** Whether A's node `i` (box into `l.nodeBox`) measures at least B's node `j` (box into `l.otherBox`). */
function nodeNotSmaller(
  l: Level,
  tA: CompositeTree,
  i: number,
  tB: CompositeTree,
  j: number,
): boolean {
  tA.box(l.nodeBox, l.comp, i);
  tB.box(l.otherBox, l.other, j);
  return areaNotLess(l.nodeBox, l.otherBox);
}

/**
 * A solid composite holding the other composite's surface (two meshes, one solid): 1 when A
 * holds B, −1 when B holds A, 0 otherwise; one point of the surface decides (its surface meets
 * none of the solid's parts: see mesh-solid.ts).
 */
function nestedSurface(l: Level): number {
  const inA = l.view.containsPoint;
  const inB = l.otherView.containsPoint;
  if (inA && l.otherView.edgeFlags && l.otherView.partCount(l.other) > 0) {
    loadOtherPart(l, 0);
    const q = l.otherPart;
    if (inA(l.comp, pointOfConvex(l.point, q.shape as ConvexShape, l.otherPose))) return 1;
  }
  if (inB && l.view.edgeFlags && l.view.partCount(l.comp) > 0) {
    l.view.part(l.part, l.comp, 0);
    const q = l.part;
    pointOfConvex(l.point, q.shape as ConvexShape, q.hasPose ? q.pose : IDENTITY);
    iso.inverseTransformPoint(l.point, l.pose, l.point);
    if (inB(l.other, l.point)) return -1;
  }
  return 0;
}

const extremeDir = vec3.create();

/**
 * The contact of a surface wholly inside the solid other (`bInside`: B inside A), from the
 * surfaces' closest points `pA`, `pB` (A's frame): the normal the way out (pA − pB), the depth
 * the enclosed surface's extreme part point along it (mesh-solid.ts's rule, over the parts).
 */
function containedSurfaceContact(
  out: Contact,
  l: Level,
  pA: Vec3,
  pB: Vec3,
  bInside: boolean,
): void {
  const n = l.mergeN;
  vec3.sub(n, pA, pB);
  const len = vec3.length(n);
  if (len > 0) vec3.scale(n, n, 1 / len);
  else vec3.set(n, 0, 1, 0);
  const view = bInside ? l.otherView : l.view;
  const s = bInside ? l.other : l.comp;
  const count = view.partCount(s);
  let best = bInside ? Infinity : -Infinity;
  const p = l.solidA;
  for (let i = 0; i < count; i++) {
    let pose: Isometry;
    let q: CompositePart;
    if (bInside) {
      loadOtherPart(l, i);
      q = l.otherPart;
      pose = l.otherPose;
    } else {
      l.view.part(l.part, l.comp, i);
      q = l.part;
      pose = q.hasPose ? q.pose : IDENTITY;
    }
    if (bareTriangle(q)) {
      best = extremeCorner(q.triangle.a, n, best, bInside, p);
      best = extremeCorner(q.triangle.b, n, best, bInside, p);
      best = extremeCorner(q.triangle.c, n, best, bInside, p);
      continue;
    }
    quat.inverseRotate(extremeDir, pose.rotation, n);
    if (bInside) vec3.negate(extremeDir, extremeDir);
    supportShape(l.solidB, q.shape as ConvexShape, extremeDir);
    iso.transformPoint(l.solidB, pose, l.solidB);
    best = extremeCorner(l.solidB, n, best, bInside, p);
  }
  vec3.copy(out.normal, n);
  if (bInside) {
    vec3.copy(out.pointA, pA);
    vec3.copy(out.pointB, p);
  } else {
    vec3.copy(out.pointA, p);
    vec3.copy(out.pointB, pB);
  }
  out.distance = Math.min(0, vec3.dot(n, out.pointB) - vec3.dot(n, out.pointA));
}

/** The running extreme along `n` (least when `least`), `p` the point achieving it. */
function extremeCorner(v: Vec3, n: Vec3, best: number, least: boolean, p: Vec3): number {
  const s = vec3.dot(n, v);
  if (least ? s < best : s > best) {
    vec3.copy(p, v);
    return s;
  }
  return best;
}

/** The two composites' contact within `prediction` into `out` (see the module doc). */
function contactTwoTrees(out: Contact, l: Level, prediction: number): boolean {
  const p = Math.max(0, prediction);
  walkTwoTrees(l, p, WALK_CONTACTS, p, null);
  l.contained = false;
  const found = l.storedCount > 0;
  if (found) {
    let best = 0;
    for (let k = 1; k < l.storedCount; k++)
      if (l.stored[STRIDE * k + 1] < l.stored[STRIDE * best + 1]) best = k;
    if (l.storedCount > 1) best = tiedTrianglePair(l, best);
    l.bestPart = loadContact(l, l.best, best);
    l.bestOther = l.otherIds[best];
  }
  if (!(found && l.best.distance <= 0)) {
    const k = nestedSurface(l);
    if (k !== 0) {
      // The surfaces' closest points (their distance is positive: no pair meets).
      surfaceDistanceTwoTrees(l);
      containedSurfaceContact(out, l, l.nearA, l.nearB, k > 0);
      l.contained = true;
      return true;
    }
  }
  if (found) copyContact(out, l.best);
  return found;
}

/** At most this many tied contacts' normals are tried ({@link tiedTrianglePair}): bounded work. */
const TIE_TRIES = 8;

/**
 * Among the stored part-pair contacts of two surfaces at the deepest depth (to rounding, 2^-40
 * of the points' magnitude), the first whose normal achieves that depth on every tied triangle
 * pair (their corners overlap by no more along it), so that the normal separates the surfaces
 * where they touch; else `best` (the first deepest). Coplanar triangles touching face to face
 * touch with either normal, and the first pair's could point from B into A: two box meshes face
 * to face gave the normal toward A in one order (a fresh user's report: swapped casts not
 * negations). Bare triangles only; O(TIE_TRIES · tied pairs), allocation free.
 */
function tiedTrianglePair(l: Level, best: number): number {
  const s = l.stored;
  const ob = STRIDE * best;
  const d = s[ob + 1];
  let scale = 0;
  for (let c = 5; c < 11; c++) scale = Math.max(scale, Math.abs(s[ob + c]));
  const band = TIE_RELATIVE * scale;
  const n = tieNormal;
  let tries = 0;
  // A touch (d ≤ 0) ties only with touches: a pair proven apart by a gap that rounds below the
  // band (Number.MIN_VALUE, src/narrowphase/triangle-polytope.ts) taken as the best made the
  // contact positive, and the surfaces then read as nested (issue 16: an L and a cube of 0.1
  // touching face to face, depth −0.1).
  const cap = d <= 0 ? 0 : Infinity;
  for (let j = 0; j < l.storedCount && tries < TIE_TRIES; j++) {
    if (!(s[STRIDE * j + 1] - d <= band && s[STRIDE * j + 1] <= cap)) continue;
    tries++;
    vec3.set(n, s[STRIDE * j + 2], s[STRIDE * j + 3], s[STRIDE * j + 4]);
    let valid = true;
    for (let k = 0; k < l.storedCount && valid; k++) {
      if (k === j || !(s[STRIDE * k + 1] - d <= band && s[STRIDE * k + 1] <= cap)) continue;
      l.view.part(l.part, l.comp, s[STRIDE * k]);
      loadOtherPart(l, l.otherIds[k]);
      if (!bareTriangle(l.part) || !bareTriangle(l.otherPart)) return best;
      const ta = l.part.triangle;
      const tb = l.otherPart.triangle;
      // Overlap along n of A's triangle (max n·p) and B's (min n·q): past the depth, n cuts it.
      const hA = Math.max(vec3.dot(n, ta.a), vec3.dot(n, ta.b), vec3.dot(n, ta.c));
      const lB = Math.min(vec3.dot(n, tb.a), vec3.dot(n, tb.b), vec3.dot(n, tb.c));
      valid = hA - lB <= -d + band + TIE_RELATIVE * Math.max(Math.abs(hA), Math.abs(lB));
    }
    if (valid) return j;
  }
  return best;
}

function intersectsTwoTrees(l: Level): boolean {
  if (walkTwoTrees(l, 0, WALK_ANY, 0, null)) return true;
  return nestedSurface(l) !== 0;
}

function distanceTwoTrees(out: DistanceResult, l: Level): void {
  let d = surfaceDistanceTwoTrees(l);
  if (d > 0 && Number.isFinite(d)) {
    const k = nestedSurface(l);
    if (k !== 0) {
      containedSurfaceContact(l.contact, l, l.nearA, l.nearB, k > 0);
      vec3.copy(l.nearA, l.contact.pointA);
      vec3.copy(l.nearB, l.contact.pointB);
      d = 0;
    }
  }
  out.distance = d;
  vec3.copy(out.pointA, l.nearA);
  vec3.copy(out.pointB, l.nearB);
}

/**
 * The two composites' manifold within `prediction`: two surfaces merge the manifolds of the
 * part pairs whose normals agree with the deepest contact's (as a surface against a shape);
 * otherwise the manifold of the surface-or-whole side against the deepest part of the other:
 * when B is not a surface, A against B's deepest part through the table; else A's deepest part
 * against B. A solid holding a surface gives its one contact.
 */
function manifoldTwoTrees(out: ContactManifold, l: Level, prediction: number): boolean {
  if (!contactTwoTrees(l.best, l, prediction)) return false;
  if (l.contained) {
    singleContactManifold(out, l.best);
    return true;
  }
  const p = Math.max(0, prediction);
  const m = l.manifold;
  if (!l.otherView.edgeFlags) {
    loadOtherPart(l, l.bestOther);
    if (!manifoldPair(m, l.comp, l.otherPart.shape, l.otherPose, prediction)) return false;
    copyManifold(out, m);
    return true;
  }
  if (!l.view.edgeFlags) {
    l.view.part(l.part, l.comp, l.bestPart);
    const q = l.part;
    // B in the part's frame, then the manifold into A's frame.
    if (q.hasPose) {
      iso.invert(l.partInv, q.pose);
      iso.multiply(l.partPose, l.partInv, l.pose);
    } else iso.copy(l.partPose, l.pose);
    if (!manifoldPair(m, q.shape, l.other, l.partPose, prediction)) return false;
    if (q.hasPose) {
      iso.transformVector(m.normal, q.pose, m.normal);
      for (let k = 0; k < m.count; k++) {
        iso.transformPoint(m.points[k].pointA, q.pose, m.points[k].pointA);
        iso.transformPoint(m.points[k].pointB, q.pose, m.points[k].pointB);
      }
    }
    copyManifold(out, m);
    return true;
  }
  // Two surfaces: merge over the stored part pairs (`contactTwoTrees` left them in the level).
  vec3.copy(l.mergeN, l.best.normal);
  vec3.copy(l.reduceN, l.mergeN);
  let count = 0;
  for (let k = 0; k < l.storedCount; k++) {
    const ia = loadContact(l, l.contact, k);
    if (vec3.dot(l.contact.normal, l.mergeN) < MESH_MANIFOLD_MERGE_COS) continue;
    l.view.part(l.part, l.comp, ia);
    loadOtherPart(l, l.otherIds[k]);
    const pb = l.otherPart.shape;
    if (!l.part.hasPose && isSupportMappedType(pb.type) && isSupportMappedType(l.part.shape.type))
      manifoldFromContact(m, l.part.shape, pb as ConvexShape, l.otherPose, l.contact, p);
    else continue;
    if (vec3.dot(m.normal, l.mergeN) < MESH_MANIFOLD_MERGE_COS) continue;
    for (let q = 0; q < m.count; q++) {
      const pt = m.points[q];
      lineIo[2] = l.best.distance;
      if (!facingPoint(pt.pointA, pt.pointB, l.mergeN, l.part.shape, IDENTITY, pb, l.otherPose))
        continue;
      count = pushPoint(
        l,
        count,
        facedA,
        facedB,
        ia * PART_FEATURE_FIELD + (pt.featureId % PART_FEATURE_FIELD),
      );
    }
  }
  if (!finishMerge(out, l, count, l.pointB, l.best.distance === 0))
    singleContactManifold(out, l.best);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Least key over part pairs (castShapes' time of impact of two composites)
// ---------------------------------------------------------------------------------------------

/**
 * A search for the least key over the part pairs of two composites (castShapes: the time of
 * impact), given by the caller: a lower bound of the key over the parts under two node boxes
 * (each in its composite's frame), and the key of one part pair.
 */
export interface PartPairSearch {
  /**
   * A lower bound of the key of every part pair under A's node box `boxA` and B's `boxB` (min x,
   * y, z, max x, y, z, each in its composite's frame); Infinity drops the pair.
   */
  lower(boxA: Float64Array, boxB: Float64Array): number;
  /** The key of A's part `ia` against B's part `ib` when below `limit` (else anything ≥ it). */
  pair(ia: number, ib: number, limit: number): number;
}

/** Scratch of one nesting depth of {@link leastOverPartPairs} (a part pair may nest one). */
interface PairSearchLevel extends PairStack {
  kidsA: Int32Array<ArrayBuffer>;
  kidsB: Int32Array<ArrayBuffer>;
  boxA: Float64Array<ArrayBuffer>;
  boxB: Float64Array<ArrayBuffer>;
  hitsA: MeshBvhHits;
  hitsB: MeshBvhHits;
}

const pairSearchLevels: PairSearchLevel[] = [];
let pairSearchDepth = 0;

function pairSearchLevel(): PairSearchLevel {
  while (pairSearchLevels.length <= pairSearchDepth)
    pairSearchLevels.push({
      nodes: new Int32Array(64),
      lower: new Float64Array(32),
      kidsA: new Int32Array(COMPOSITE_TREE_MAX_CHILDREN),
      kidsB: new Int32Array(COMPOSITE_TREE_MAX_CHILDREN),
      boxA: new Float64Array(6),
      boxB: new Float64Array(6),
      hitsA: makeMeshBvhHits(16),
      hitsB: makeMeshBvhHits(16),
    });
  return pairSearchLevels[pairSearchDepth];
}

/**
 * The least key below `limit` over the part pairs of composites `a` and `b` (both with a view
 * `tree`), by branch and bound over node pairs: a pair whose lower bound is not below the best
 * key so far (or `limit`) is dropped; of a node's children (the node of larger box area split,
 * as the two-tree walk) the pairs are pushed so that the least bound is visited first. Returns
 * the least key found, or `limit` when no pair is below it; the caller keeps its own answer of
 * the pair that gave it. Re-entrant (a part pair may run another search).
 */
export function leastOverPartPairs(
  a: Shape,
  b: Shape,
  search: PartPairSearch,
  limit: number,
): number {
  const tA = (compositeView(a.type) as CompositeView).tree as CompositeTree;
  const tB = (compositeView(b.type) as CompositeView).tree as CompositeTree;
  const rA = tA.root(a);
  const rB = tB.root(b);
  if (rA < 0 || rB < 0) return limit;
  const s = pairSearchLevel();
  pairSearchDepth++;
  try {
    let best = limit;
    tA.box(s.boxA, a, rA);
    tB.box(s.boxB, b, rB);
    let top = pushPairNode(s, 0, rA, rB, search.lower(s.boxA, s.boxB));
    while (top > 0) {
      top--;
      if (!(s.lower[top] < best)) continue;
      const i = s.nodes[2 * top];
      const j = s.nodes[2 * top + 1];
      const leafA = tA.isLeaf(a, i);
      const leafB = tB.isLeaf(b, j);
      if (leafA && leafB) {
        const nA = tA.leafParts(s.hitsA, a, i);
        const nB = tB.leafParts(s.hitsB, b, j);
        for (let p = 0; p < nA; p++) {
          const ia = s.hitsA.ids[p];
          for (let q = 0; q < nB; q++) {
            const key = search.pair(ia, s.hitsB.ids[q], best);
            if (key < best) best = key;
          }
        }
        continue;
      }
      tA.box(s.boxA, a, i);
      tB.box(s.boxB, b, j);
      const splitA = leafB || (!leafA && areaNotLess(s.boxA, s.boxB));
      const k = splitA ? tA.children(s.kidsA, a, i) : tB.children(s.kidsB, b, j);
      const base = top;
      for (let c = 0; c < k; c++) {
        const ci = splitA ? s.kidsA[c] : i;
        const cj = splitA ? j : s.kidsB[c];
        tA.box(s.boxA, a, ci);
        tB.box(s.boxB, b, cj);
        const lo = search.lower(s.boxA, s.boxB);
        if (!(lo < best)) continue;
        top = pushPairNode(s, top, ci, cj, lo);
      }
      // Insertion sort of the pushed children by bound, greatest deepest (least popped first).
      for (let x = base + 1; x < top; x++) {
        const lo = s.lower[x];
        const ni = s.nodes[2 * x];
        const nj = s.nodes[2 * x + 1];
        let y = x - 1;
        while (y >= base && s.lower[y] < lo) {
          s.lower[y + 1] = s.lower[y];
          s.nodes[2 * y + 2] = s.nodes[2 * y];
          s.nodes[2 * y + 3] = s.nodes[2 * y + 1];
          y--;
        }
        s.lower[y + 1] = lo;
        s.nodes[2 * y + 2] = ni;
        s.nodes[2 * y + 3] = nj;
      }
    }
    return best;
  } finally {
    pairSearchDepth--;
  }
}
