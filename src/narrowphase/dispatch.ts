/**
 * The narrow-phase dispatch: one table per query, indexed by the pair of `ShapeType`s, holding
 * the specialised routine where there is one (sphere–sphere, sphere–cuboid, cuboid–cuboid, …)
 * and GJK/EPA (`convex-convex`) for every other pair of convex shapes, as Box2D's contact
 * registers and parry's default query dispatcher do. A routine is registered once, for
 * `(typeA, typeB)` in `ShapeType` order; the mirrored order is answered by the same routine
 * with A and B swapped and the result flipped (normal negated, witness points exchanged).
 * A pair with no routine throws `CollideError("unsupported_pair")`.
 *
 * Every routine works in A's frame with B's pose in A's frame (`bInA`).
 */
import { CollideError } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Compound } from "../shapes/compound.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import {
  CONVEX_SHAPE_TYPE_LIST,
  isConvexShapeType,
  SHAPE_TYPE_COUNT,
  SHAPE_TYPE_NAMES,
  ShapeType,
} from "../shapes/shape.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { flipContact, MAX_MANIFOLD_POINTS } from "./contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";
import {
  contactConvexHalfSpace,
  distanceConvexHalfSpace,
  intersectsConvexHalfSpace,
  intersectsHalfSpaceHalfSpace,
  manifoldConvexHalfSpace,
} from "./convex-half-space.js";
import { contactCuboidCuboidSat, intersectsCuboidCuboid } from "./cuboid-cuboid.js";
import {
  isScalablePair,
  offsetOutOfRange,
  pairRescaleFactor,
  scaledPose,
  scaledShape,
} from "./extreme-scale.js";
import { manifoldFromContact } from "./manifold.js";
import {
  contactConvexMesh,
  distanceConvexMesh,
  intersectsConvexMesh,
  manifoldConvexMesh,
} from "./mesh-convex.js";
import {
  contactMeshHalfSpace,
  distanceMeshHalfSpace,
  intersectsMeshHalfSpace,
  manifoldMeshHalfSpace,
} from "./mesh-half-space.js";
import {
  contactMeshMesh,
  distanceMeshMesh,
  intersectsMeshMesh,
  manifoldMeshMesh,
} from "./mesh-mesh.js";
import {
  contactCapsuleCapsule,
  contactSphereCapsule,
  intersectsCapsuleCapsule,
  intersectsSphereCapsule,
} from "./sphere-capsule.js";
import {
  contactSphereCuboid,
  distanceSphereCuboid,
  intersectsSphereCuboid,
} from "./sphere-cuboid.js";
import {
  contactSphereSphere,
  distanceSphereSphere,
  intersectsSphereSphere,
} from "./sphere-sphere.js";
import {
  contactSphereTriangle,
  distanceSphereTriangle,
  intersectsSphereTriangle,
} from "./sphere-triangle.js";

/** Boolean overlap routine of a pair (touching counts). */
export type IntersectsFn = (a: Shape, b: Shape, bInA: Isometry) => boolean;
/** Closest-points routine of a pair; outputs in A's frame. */
export type DistanceFn = (
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
) => DistanceResult;
/**
 * Manifold routine of a pair, given the pair's contact (A's frame) from its contact routine;
 * fills `out` with 1–4 points.
 */
export type ManifoldFn = (
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
) => ContactManifold;
/** Contact routine of a pair; false when the gap exceeds `prediction`; outputs in A's frame. */
export type ContactFn = (
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
) => boolean;

const N = SHAPE_TYPE_COUNT;
const intersectsTable: (IntersectsFn | null)[] = new Array(N * N).fill(null);
const distanceTable: (DistanceFn | null)[] = new Array(N * N).fill(null);
const contactTable: (ContactFn | null)[] = new Array(N * N).fill(null);
const manifoldTable: (ManifoldFn | null)[] = new Array(N * N).fill(null);

const CONVEX_TYPES = CONVEX_SHAPE_TYPE_LIST;

/**
 * True when `type` has a support function (GJK/EPA applies): the shapes layer's table
 * (`isConvexShapeType`), so the world's validation and the dispatch agree by construction.
 */
export function isConvexType(type: ShapeType): boolean {
  return isConvexShapeType(type);
}

/**
 * Registers the routines of pair `(typeA, typeB)` with typeA ≤ typeB; the mirrored order is
 * derived. Any of the three may be omitted (the entry is left as it was).
 */
export function registerPair(
  typeA: ShapeType,
  typeB: ShapeType,
  fns: {
    intersects?: IntersectsFn;
    distance?: DistanceFn;
    contact?: ContactFn;
    manifold?: ManifoldFn;
  },
): void {
  const k = typeA * N + typeB;
  if (fns.intersects) intersectsTable[k] = fns.intersects;
  if (fns.distance) distanceTable[k] = fns.distance;
  if (fns.contact) contactTable[k] = fns.contact;
  if (fns.manifold) manifoldTable[k] = fns.manifold;
}

for (const ta of CONVEX_TYPES) {
  for (const tb of CONVEX_TYPES) {
    if (tb < ta) continue;
    registerPair(ta, tb, {
      intersects: intersectsConvexConvex as IntersectsFn,
      distance: distanceConvexConvex as DistanceFn,
      contact: contactConvexConvex as ContactFn,
      manifold: manifoldFromContact as ManifoldFn,
    });
  }
  registerPair(ta, ShapeType.HalfSpace, {
    intersects: intersectsConvexHalfSpace as IntersectsFn,
    distance: distanceConvexHalfSpace as DistanceFn,
    contact: contactConvexHalfSpace as ContactFn,
    manifold: manifoldConvexHalfSpace as ManifoldFn,
  });
}

registerPair(ShapeType.TriangleMesh, ShapeType.HalfSpace, {
  intersects: intersectsMeshHalfSpace as unknown as IntersectsFn,
  distance: distanceMeshHalfSpace as unknown as DistanceFn,
  contact: contactMeshHalfSpace as unknown as ContactFn,
  manifold: manifoldMeshHalfSpace as unknown as ManifoldFn,
});

registerPair(ShapeType.HalfSpace, ShapeType.HalfSpace, {
  intersects: intersectsHalfSpaceHalfSpace as IntersectsFn,
});

registerPair(ShapeType.Sphere, ShapeType.Sphere, {
  intersects: intersectsSphereSphere as IntersectsFn,
  distance: distanceSphereSphere as DistanceFn,
  contact: contactSphereSphere as ContactFn,
});

registerPair(ShapeType.Sphere, ShapeType.Capsule, {
  intersects: intersectsSphereCapsule as IntersectsFn,
  contact: contactSphereCapsule as ContactFn,
});

registerPair(ShapeType.Capsule, ShapeType.Capsule, {
  intersects: intersectsCapsuleCapsule as IntersectsFn,
  contact: contactCapsuleCapsule as ContactFn,
});

registerPair(ShapeType.Sphere, ShapeType.Triangle, {
  intersects: intersectsSphereTriangle as IntersectsFn,
  distance: distanceSphereTriangle as DistanceFn,
  contact: contactSphereTriangle as ContactFn,
});

registerPair(ShapeType.Sphere, ShapeType.Cuboid, {
  intersects: intersectsSphereCuboid as IntersectsFn,
  distance: distanceSphereCuboid as DistanceFn,
  contact: contactSphereCuboid as ContactFn,
});

/**
 * Box–box contact: the 15-axis SAT when the boxes overlap or touch; when they are apart but
 * within a positive prediction distance, GJK gives the true gap (SAT only bounds it).
 */
export function contactCuboidCuboid(
  out: Contact,
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (contactCuboidCuboidSat(out, a, b, bInA)) return true;
  if (prediction <= 0) return false;
  return contactConvexConvex(out, a, b, bInA, prediction);
}

registerPair(ShapeType.Cuboid, ShapeType.Cuboid, {
  intersects: intersectsCuboidCuboid as IntersectsFn,
  contact: contactCuboidCuboid as ContactFn,
});

// Triangle meshes: against every convex shape (BVH, then per-triangle convex tests with
// active-edge normals, src/narrowphase/mesh-convex.ts) and against meshes (tree against tree,
// then triangle–triangle, src/narrowphase/mesh-mesh.ts).
for (const ta of CONVEX_TYPES) {
  registerPair(ta, ShapeType.TriangleMesh, {
    intersects: intersectsConvexMesh as unknown as IntersectsFn,
    distance: distanceConvexMesh as unknown as DistanceFn,
    contact: contactConvexMesh as unknown as ContactFn,
    manifold: manifoldConvexMesh as unknown as ManifoldFn,
  });
}
registerPair(ShapeType.TriangleMesh, ShapeType.TriangleMesh, {
  intersects: intersectsMeshMesh as unknown as IntersectsFn,
  distance: distanceMeshMesh as unknown as DistanceFn,
  contact: contactMeshMesh as unknown as ContactFn,
  manifold: manifoldMeshMesh as unknown as ManifoldFn,
});

function unsupported(a: Shape, b: Shape, op: string): never {
  const na = SHAPE_TYPE_NAMES[a.type];
  const nb = SHAPE_TYPE_NAMES[b.type];
  throw new CollideError(
    "unsupported_pair",
    "",
    [na, nb],
    `${op} is not supported for the pair ${na}–${nb}`,
  );
}

const aInB = iso.identity();
const tmpContact: Contact = {
  distance: 0,
  normal: vec3.create(),
  pointA: vec3.create(),
  pointB: vec3.create(),
};
const tmpDistance: DistanceResult = { distance: 0, pointA: vec3.create(), pointB: vec3.create() };

/** aInB = inverse of bInA. */
function invert(bInA: Isometry): Isometry {
  return iso.invert(aInB, bInA);
}

/**
 * Scratch for the compound recursion, one slot per level (children are convex, so a compound
 * pair recurses at most twice: A's children, then B's).
 */
interface CompoundScratch {
  childInA: Isometry;
  bInChild: Isometry;
  contact: Contact;
  best: Contact;
  distance: DistanceResult;
}
const compoundScratch: CompoundScratch[] = [0, 1].map(() => ({
  childInA: iso.identity(),
  bInChild: iso.identity(),
  contact: { distance: 0, normal: vec3.create(), pointA: vec3.create(), pointB: vec3.create() },
  best: { distance: 0, normal: vec3.create(), pointA: vec3.create(), pointB: vec3.create() },
  distance: { distance: 0, pointA: vec3.create(), pointB: vec3.create() },
}));
let compoundDepth = 0;

/** The pose of B relative to child `childPose` of A: childPose⁻¹ ∘ bInA. */
function bInChildOf(out: Isometry, childPose: Isometry, bInA: Isometry): Isometry {
  return iso.invMul(out, childPose, bInA);
}

/** True when A and B (B at `bInA`) overlap or touch. Throws `unsupported_pair`. */
export function intersectsPair(a: Shape, b: Shape, bInA: Isometry): boolean {
  if (a.type === ShapeType.Compound || b.type === ShapeType.Compound) {
    const sc = compoundScratch[compoundDepth++];
    try {
      if (a.type === ShapeType.Compound) {
        for (const c of (a as Compound).children) {
          if (intersectsPair(c.shape, b, bInChildOf(sc.bInChild, c.pose, bInA))) return true;
        }
        return false;
      }
      for (const c of (b as Compound).children) {
        if (intersectsPair(a, c.shape, iso.multiply(sc.childInA, bInA, c.pose))) return true;
      }
      return false;
    } finally {
      compoundDepth--;
    }
  }
  return intersectsLeaf(a, b, bInA);
}

function intersectsLeaf(a: Shape, b: Shape, bInA: Isometry): boolean {
  const k = offsetOutOfRange(bInA) && isScalablePair(a, b) ? pairRescaleFactor(a, b, bInA) : 1;
  if (k !== 1) {
    return intersectsLeaf(scaledShape(a, k), scaledShape(b, k), scaledPose(bInA, k));
  }
  if (a.type <= b.type) {
    const f = intersectsTable[a.type * N + b.type];
    if (!f) unsupported(a, b, "intersects");
    return f(a, b, bInA);
  }
  const f = intersectsTable[b.type * N + a.type];
  if (!f) unsupported(a, b, "intersects");
  return f(b, a, invert(bInA));
}

/**
 * Closest points of A and B in A's frame (deepest points when they overlap). For a compound,
 * the child pair with the smallest distance (the deepest contact when several overlap).
 */
export function distancePair(
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  if (a.type === ShapeType.Compound || b.type === ShapeType.Compound) {
    // Through contacts with an unbounded prediction: the smallest signed distance is the
    // distance when apart and the deepest contact when overlapping.
    const sc = compoundScratch[compoundDepth];
    if (!contactPair(sc.best, a, b, bInA, Infinity)) unsupported(a, b, "distance");
    out.distance = Math.max(0, sc.best.distance);
    vec3.copy(out.pointA, sc.best.pointA);
    vec3.copy(out.pointB, sc.best.pointB);
    return out;
  }
  return distanceLeaf(out, a, b, bInA);
}

/**
 * Contact of A and B in A's frame: false when their gap exceeds `prediction` (scene units);
 * otherwise `out` holds the signed distance, the unit normal from A toward B and the witness
 * points. For a compound, the child contact with the smallest signed distance. Throws
 * `unsupported_pair`.
 */
export function contactPair(
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (a.type === ShapeType.Compound || b.type === ShapeType.Compound) {
    const sc = compoundScratch[compoundDepth++];
    try {
      let found = false;
      let bestDistance = Infinity;
      if (a.type === ShapeType.Compound) {
        for (const c of (a as Compound).children) {
          if (
            !contactPair(sc.contact, c.shape, b, bInChildOf(sc.bInChild, c.pose, bInA), prediction)
          )
            continue;
          if (sc.contact.distance >= bestDistance) continue;
          bestDistance = sc.contact.distance;
          found = true;
          // Child frame → A's frame.
          out.distance = sc.contact.distance;
          iso.transformVector(out.normal, c.pose, sc.contact.normal);
          iso.transformPoint(out.pointA, c.pose, sc.contact.pointA);
          iso.transformPoint(out.pointB, c.pose, sc.contact.pointB);
        }
        return found;
      }
      for (const c of (b as Compound).children) {
        if (
          !contactPair(sc.contact, a, c.shape, iso.multiply(sc.childInA, bInA, c.pose), prediction)
        )
          continue;
        if (sc.contact.distance >= bestDistance) continue;
        bestDistance = sc.contact.distance;
        found = true;
        out.distance = sc.contact.distance;
        vec3.copy(out.normal, sc.contact.normal);
        vec3.copy(out.pointA, sc.contact.pointA);
        vec3.copy(out.pointB, sc.contact.pointB);
      }
      return found;
    } finally {
      compoundDepth--;
    }
  }
  return contactLeaf(out, a, b, bInA, prediction);
}

const manifoldScratch: ContactManifold = makeManifoldScratch();
const contactScratch: Contact = {
  distance: 0,
  normal: vec3.create(),
  pointA: vec3.create(),
  pointB: vec3.create(),
};
const poseScratch = iso.identity();

function makeManifoldScratch(): ContactManifold {
  const points = [];
  for (let i = 0; i < MAX_MANIFOLD_POINTS; i++) {
    points.push({ pointA: vec3.create(), pointB: vec3.create(), distance: 0, featureId: 0 });
  }
  return { normal: vec3.create(), points, count: 0 };
}

/**
 * The contact manifold of A and B in A's frame: false when their gap exceeds `prediction`; else
 * `out` holds one normal (A toward B) and 1–4 points. A compound contributes the manifold of
 * its deepest child pair. Throws `unsupported_pair`.
 */
export function manifoldPair(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (a.type === ShapeType.Compound || b.type === ShapeType.Compound) {
    // Find the deepest child pair, then build that pair's manifold.
    let bestDistance = Infinity;
    let bestA = -1;
    let bestB = -1;
    const ca = a.type === ShapeType.Compound ? (a as Compound).children : null;
    const cb = b.type === ShapeType.Compound ? (b as Compound).children : null;
    const na = ca ? ca.length : 1;
    const nb = cb ? cb.length : 1;
    for (let i = 0; i < na; i++) {
      for (let j = 0; j < nb; j++) {
        const pose = childPairPose(
          poseScratch,
          ca ? ca[i].pose : null,
          cb ? cb[j].pose : null,
          bInA,
        );
        const sa = ca ? ca[i].shape : a;
        const sb = cb ? cb[j].shape : b;
        if (!contactLeaf(contactScratch, sa, sb, pose, prediction)) continue;
        if (contactScratch.distance < bestDistance) {
          bestDistance = contactScratch.distance;
          bestA = i;
          bestB = j;
        }
      }
    }
    if (bestA < 0) return false;
    const pa = ca ? ca[bestA].pose : null;
    const pose = childPairPose(poseScratch, pa, cb ? cb[bestB].pose : null, bInA);
    if (!manifoldLeaf(out, ca ? ca[bestA].shape : a, cb ? cb[bestB].shape : b, pose, prediction))
      return false;
    if (pa) {
      iso.transformVector(out.normal, pa, out.normal);
      for (let k = 0; k < out.count; k++) {
        iso.transformPoint(out.points[k].pointA, pa, out.points[k].pointA);
        iso.transformPoint(out.points[k].pointB, pa, out.points[k].pointB);
      }
    }
    return true;
  }
  return manifoldLeaf(out, a, b, bInA, prediction);
}

/** Pose of B's child in A's child's frame: childA⁻¹ ∘ bInA ∘ childB (null = no child). */
function childPairPose(
  out: Isometry,
  childA: Isometry | null,
  childB: Isometry | null,
  bInA: Isometry,
): Isometry {
  iso.copy(out, bInA);
  if (childB) iso.multiply(out, out, childB);
  if (childA) iso.invMul(out, childA, out);
  return out;
}

function manifoldLeaf(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const k = offsetOutOfRange(bInA) && isScalablePair(a, b) ? pairRescaleFactor(a, b, bInA) : 1;
  if (k !== 1) {
    const sa = scaledShape(a, k);
    const sb = scaledShape(b, k);
    if (!manifoldLeaf(out, sa, sb, scaledPose(bInA, k), prediction * k)) return false;
    const inv = 1 / k;
    for (let i = 0; i < out.count; i++) {
      const p = out.points[i];
      vec3.scale(p.pointA, p.pointA, inv);
      vec3.scale(p.pointB, p.pointB, inv);
      p.distance *= inv;
    }
    return true;
  }
  if (!contactLeaf(contactScratch, a, b, bInA, prediction)) return false;
  if (a.type <= b.type) {
    const f = manifoldTable[a.type * N + b.type];
    if (!f) unsupported(a, b, "manifold");
    f(out, a, b, bInA, contactScratch, prediction);
    return true;
  }
  const f = manifoldTable[b.type * N + a.type];
  if (!f) unsupported(a, b, "manifold");
  // Answer (B, A) in B's frame, then flip into A's frame.
  const ab = invert(bInA);
  flipContact(tmpContact, contactScratch);
  iso.transformVector(tmpContact.normal, ab, tmpContact.normal);
  iso.transformPoint(tmpContact.pointA, ab, tmpContact.pointA);
  iso.transformPoint(tmpContact.pointB, ab, tmpContact.pointB);
  f(manifoldScratch, b, a, ab, tmpContact, prediction);
  iso.transformVector(out.normal, bInA, manifoldScratch.normal);
  vec3.negate(out.normal, out.normal);
  out.count = manifoldScratch.count;
  for (let k = 0; k < manifoldScratch.count; k++) {
    const src = manifoldScratch.points[k];
    const dst = out.points[k];
    iso.transformPoint(dst.pointA, bInA, src.pointB);
    iso.transformPoint(dst.pointB, bInA, src.pointA);
    dst.distance = src.distance;
    dst.featureId = src.featureId;
  }
  return true;
}

function distanceLeaf(out: DistanceResult, a: Shape, b: Shape, bInA: Isometry): DistanceResult {
  const k = offsetOutOfRange(bInA) && isScalablePair(a, b) ? pairRescaleFactor(a, b, bInA) : 1;
  if (k !== 1) {
    distanceLeaf(out, scaledShape(a, k), scaledShape(b, k), scaledPose(bInA, k));
    unscaleWitnesses(out, 1 / k);
    return out;
  }
  if (a.type <= b.type) {
    const f = distanceTable[a.type * N + b.type];
    if (f) return f(out, a, b, bInA);
    const c = contactTable[a.type * N + b.type];
    if (!c) unsupported(a, b, "distance");
    return distanceFromContact(out, c, a, b, bInA);
  }
  const ab = invert(bInA);
  const f = distanceTable[b.type * N + a.type];
  if (f) f(tmpDistance, b, a, ab);
  else {
    const c = contactTable[b.type * N + a.type];
    if (!c) unsupported(a, b, "distance");
    distanceFromContact(tmpDistance, c, b, a, ab);
  }
  // tmpDistance is in B's frame with roles swapped.
  out.distance = tmpDistance.distance;
  iso.transformPoint(out.pointA, bInA, tmpDistance.pointB);
  iso.transformPoint(out.pointB, bInA, tmpDistance.pointA);
  return out;
}

/** Distance through a contact routine with an unbounded prediction (for pairs with no distance routine). */
function distanceFromContact(
  out: DistanceResult,
  c: ContactFn,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  if (!c(tmpContact, a, b, bInA, Infinity)) {
    // An unbounded prediction always yields a contact for convex shapes; be defensive.
    return distanceConvexConvex(out, a as ConvexShape, b as ConvexShape, bInA);
  }
  out.distance = Math.max(0, tmpContact.distance);
  vec3.copy(out.pointA, tmpContact.pointA);
  vec3.copy(out.pointB, tmpContact.pointB);
  return out;
}

/** Divides a rescaled answer's lengths by the scale (`inv` = 1/k, a power of two: exact). */
function unscaleWitnesses(out: Contact | DistanceResult, inv: number): void {
  out.distance *= inv;
  vec3.scale(out.pointA, out.pointA, inv);
  vec3.scale(out.pointB, out.pointB, inv);
}

function contactLeaf(
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const k = offsetOutOfRange(bInA) && isScalablePair(a, b) ? pairRescaleFactor(a, b, bInA) : 1;
  if (k !== 1) {
    if (
      !contactLeaf(out, scaledShape(a, k), scaledShape(b, k), scaledPose(bInA, k), prediction * k)
    )
      return false;
    unscaleWitnesses(out, 1 / k);
    return true;
  }
  if (a.type <= b.type) {
    const f = contactTable[a.type * N + b.type];
    if (!f) unsupported(a, b, "contact");
    return f(out, a, b, bInA, prediction);
  }
  const f = contactTable[b.type * N + a.type];
  if (!f) unsupported(a, b, "contact");
  if (!f(tmpContact, b, a, invert(bInA), prediction)) return false;
  // Flip: the routine answered in B's frame for the pair (B, A).
  out.distance = tmpContact.distance;
  iso.transformVector(out.normal, bInA, tmpContact.normal);
  vec3.negate(out.normal, out.normal);
  iso.transformPoint(out.pointA, bInA, tmpContact.pointB);
  iso.transformPoint(out.pointB, bInA, tmpContact.pointA);
  return true;
}
