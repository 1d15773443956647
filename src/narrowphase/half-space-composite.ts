/**
 * Half-space (A) against a composite (B): the plane moved exactly into the composite's frame,
 * then the generic composite mid-phase (src/narrowphase/composite.ts) run there with the
 * composite at the identity. Registered for the compound (src/narrowphase/default-pairs.ts);
 * the triangle mesh and the heightfield have routines of their own over their vertices, in
 * their own frames (src/narrowphase/half-space-vertices.ts).
 *
 * Run in A's frame, the mid-phase poses each part as `bInA ∘ partPose`, rounded at the ulp of
 * the composite's distance from the origin: a sphere child of radius 10 in a compound at 3.5e4
 * had its centre moved by 3e-12, and the contact's normal missed the depth by that (issue 16,
 * the fuzzer's seed 16). Here the plane's offset from the composite's origin, o − n·t, is formed
 * with Dot2 and rounded once (src/narrowphase/convex-half-space.ts's `planeOffsetAt`), its
 * normal rotated into the composite's frame (Rᵀn), and each part then sees the plane in its own
 * frame from its exact pose in the composite: the answer is accurate to the composite's size,
 * wherever it is. The results come back into A's frame: the normal is A's own n (exactly),
 * `pointB` the part's witness moved by `bInA`, and `pointA` its projection onto the plane along
 * n by the gap measured in the composite's frame.
 *
 * No allocation per call: one plane record per nesting depth (a part that is itself a composite
 * comes back here with the next record), module scratch for the answers in the composite's frame.
 */
import { CollideError } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { HalfSpace } from "../shapes/half-space.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import {
  contactShapeComposite,
  distanceShapeComposite,
  intersectsShapeComposite,
  manifoldShapeComposite,
} from "./composite.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { makeContact, makeContactManifold, makeDistanceResult } from "./contact.js";
import { planeOffsetAt } from "./convex-half-space.js";

/** A half-space record (a class: a map of its own, its `offset` an untagged double). */
class PlaneRecord implements HalfSpace {
  readonly type = ShapeType.HalfSpace;
  normal: Vec3 = vec3.create(0, 0, 1);
  offset = 0;
}

/** Deepest nesting handled (a compound's children are convex: one level, two with a margin). */
const MAX_DEPTH = 8;
const planes: PlaneRecord[] = [];
const contacts: Contact[] = [];
const distances: DistanceResult[] = [];
const manifolds: ContactManifold[] = [];
for (let i = 0; i < MAX_DEPTH; i++) {
  planes.push(new PlaneRecord());
  contacts.push(makeContact());
  distances.push(makeDistanceResult());
  manifolds.push(makeContactManifold());
}
let depth = 0;
const IDENTITY = iso.identity();
const offsetIo = new Float64Array(1);

/** Loads A's plane in B's frame into the record of the current depth and returns it. */
function planeInB(a: HalfSpace, bInA: Isometry): PlaneRecord {
  if (depth >= MAX_DEPTH) {
    throw new CollideError(
      "invalid_value",
      "shape",
      depth,
      `composite shapes nest deeper than ${MAX_DEPTH} levels`,
    );
  }
  const p = planes[depth];
  planeOffsetAt(offsetIo, a, bInA.translation);
  p.offset = offsetIo[0];
  iso.inverseTransformVector(p.normal, bInA, a.normal);
  return p;
}

/**
 * Writes witness `pB` (B's frame) into A's frame as `pointB`, and its projection onto the plane
 * along A's normal, by its gap to plane `p` measured in B's frame, as `pointA`.
 */
function witnesses(
  pointA: Vec3,
  pointB: Vec3,
  a: HalfSpace,
  p: HalfSpace,
  bInA: Isometry,
  pB: Vec3,
): void {
  const g = vec3.dot(p.normal, pB) - p.offset;
  iso.transformPoint(pointB, bInA, pB);
  vec3.addScaled(pointA, pointB, a.normal, -g);
}

/** True when half-space A touches or overlaps some part of composite B (B at `bInA`, A's frame). */
export function intersectsHalfSpaceComposite(a: HalfSpace, b: Shape, bInA: Isometry): boolean {
  const p = planeInB(a, bInA);
  depth++;
  try {
    return intersectsShapeComposite(p, b, IDENTITY);
  } finally {
    depth--;
  }
}

/**
 * Contact of half-space A and composite B within `prediction`, in A's frame: the deepest part's
 * signed distance, A's normal n (from A toward B) and the witnesses (module docs); false when no
 * part is that close.
 */
export function contactHalfSpaceComposite(
  out: Contact,
  a: HalfSpace,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const p = planeInB(a, bInA);
  const c = contacts[depth];
  depth++;
  let hit: boolean;
  try {
    hit = contactShapeComposite(c, p, b, IDENTITY, prediction);
  } finally {
    depth--;
  }
  if (!hit) return false;
  out.distance = c.distance;
  vec3.copy(out.normal, a.normal);
  witnesses(out.pointA, out.pointB, a, p, bInA, c.pointB);
  return true;
}

/**
 * Distance (≥ 0) and closest points of half-space A and composite B, in A's frame; when they
 * overlap, 0 with the deepest part's points (module docs).
 */
export function distanceHalfSpaceComposite(
  out: DistanceResult,
  a: HalfSpace,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  const p = planeInB(a, bInA);
  const d = distances[depth];
  depth++;
  try {
    distanceShapeComposite(d, p, b, IDENTITY);
  } finally {
    depth--;
  }
  out.distance = d.distance;
  witnesses(out.pointA, out.pointB, a, p, bInA, d.pointB);
  return out;
}

/**
 * Contact manifold of half-space A and composite B within `prediction`, in A's frame: the
 * mid-phase's manifold in B's frame, each point's `pointB` moved by `bInA` and projected onto
 * the plane for `pointA`, the normal A's n; false when no part is that close.
 */
export function manifoldHalfSpaceComposite(
  out: ContactManifold,
  a: HalfSpace,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const p = planeInB(a, bInA);
  const m = manifolds[depth];
  depth++;
  let hit: boolean;
  try {
    hit = manifoldShapeComposite(m, p, b, IDENTITY, prediction);
  } finally {
    depth--;
  }
  if (!hit) return false;
  vec3.copy(out.normal, a.normal);
  for (let q = 0; q < m.count; q++) {
    const s = m.points[q];
    const d = out.points[q];
    witnesses(d.pointA, d.pointB, a, p, bInA, s.pointB);
    d.distance = s.distance;
    d.featureId = s.featureId;
  }
  out.count = m.count;
  return true;
}
