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
 * routines against convex shapes, half-spaces and meshes (mesh-convex, mesh-half-space,
 * mesh-mesh: the BVH branch-and-bound and internal-edge normals); this path serves compounds in
 * every query, meshes against compounds, and the ray, point and shape casts of every composite
 * (src/query/).
 *
 * Recursion: a level of scratch per nesting depth (a compound's children are convex, so a pair
 * nests at most a few levels); `bInA` is copied at entry and `out` written only after the last
 * nested call, as the pair table's flip requires.
 */
import { CollideError } from "../errors.js";
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import { makeMeshBvhHits } from "../geometry/mesh-bvh.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { CompositePart, CompositeView } from "../shapes/composite.js";
import { compositeView, makeCompositePart } from "../shapes/composite.js";
import { aabbShape } from "../shapes/index.js";
import type { Shape } from "../shapes/shape.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { copyManifold, makeContact, makeContactManifold } from "./contact.js";
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
  box: Aabb;
  contact: Contact;
  best: Contact;
  manifold: ContactManifold;
}

function makeLevel(): Level {
  return {
    hits: makeMeshBvhHits(16),
    part: makeCompositePart(),
    bInA: iso.identity(),
    aInB: iso.identity(),
    partInA: iso.identity(),
    box: { min: vec3.create(), max: vec3.create() },
    contact: makeContact(),
    best: makeContact(),
    manifold: makeContactManifold(),
  };
}

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
      const pose = partPose(l, view, b, l.hits.ids[h]);
      if (!contactPair(l.contact, a, l.part.shape, pose, prediction)) continue;
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
  if (!l || !contactShapeComposite(l.best, a, b, bInA, Infinity)) {
    return unsupportedPair(a, b, "distance");
  }
  out.distance = Math.max(0, l.best.distance);
  vec3.copy(out.pointA, l.best.pointA);
  vec3.copy(out.pointB, l.best.pointB);
  return out;
}

/**
 * Contact manifold of A and composite B within `prediction` (A's frame): the manifold of the
 * part with the deepest contact; false when no part is that close.
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
