/**
 * Capability dispatch: the registrations of the pair table (src/narrowphase/pair-table.ts),
 * as parry's default query dispatcher decides by what a shape can do, not by what it is.
 *
 * 1. Support-mapped × support-mapped (every type whose definition has a support function,
 *    src/shapes/registry.ts) → GJK/EPA on cores plus margins (convex-convex.ts), with the
 *    manifold widened by reference-face clipping (manifold.ts).
 * 2. Support-mapped × half-space → the deepest support point (convex-half-space.ts); half-space
 *    × half-space → its own closed forms in every query (half-space-half-space.ts).
 * 3. Anything × composite (a type with a composite view: triangle mesh, compound, heightfield) → the one
 *    generic composite mid-phase (composite.ts), part by part through this same table.
 * 4. Specialised pairs override those defaults: sphere–sphere, sphere–cuboid, sphere–capsule,
 *    sphere–triangle, capsule–capsule, cuboid–cuboid (SAT), and the triangle mesh against
 *    convex shapes, half-spaces and meshes (BVH branch and bound with internal-edge normals).
 *
 * Each registration names the pair once in any order; the table writes the mirrored entry as a
 * flipped one. Importing this module installs the table; the dispatchers are re-exported here.
 */
import type { Isometry } from "../math/isometry.js";
import { isCompositeType } from "../shapes/composite.js";
import { HEIGHTFIELD_SHAPE_TYPE } from "../shapes/heightfield.js";
import { isSupportMappedType } from "../shapes/registry.js";
import { ROUNDED_SHAPE_TYPES } from "../shapes/rounded.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_COUNT, ShapeType } from "../shapes/shape.js";
import {
  contactShapeComposite,
  distanceShapeComposite,
  intersectsShapeComposite,
  manifoldShapeComposite,
} from "./composite.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { makeContact } from "./contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";
import {
  contactConvexHalfSpace,
  distanceConvexHalfSpace,
  intersectsConvexHalfSpace,
  manifoldConvexHalfSpace,
} from "./convex-half-space.js";
import { contactCuboidCuboid, intersectsCuboidCuboid } from "./cuboid-cuboid.js";
import {
  contactHalfSpaceHalfSpace,
  distanceHalfSpaceHalfSpace,
  intersectsHalfSpaceHalfSpace,
  manifoldHalfSpaceHalfSpace,
} from "./half-space-half-space.js";
import { manifoldFromContact } from "./manifold.js";
import {
  contactMeshConvex,
  distanceMeshConvex,
  intersectsMeshConvex,
  manifoldMeshConvex,
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
import type { ContactFn, ManifoldFn } from "./pair-table.js";
import {
  contactPair as contactPairOfTable,
  distancePair as distancePairOfTable,
  intersectsPair as intersectsPairOfTable,
  manifoldPair as manifoldPairOfTable,
  registerPair,
} from "./pair-table.js";
import { registerRevolutionPairs } from "./revolution-pairs.js";
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

export { contactCuboidCuboid } from "./cuboid-cuboid.js";
export type { ContactFn, DistanceFn, IntersectsFn, ManifoldFn } from "./pair-table.js";
export { hasPairRoutine, registerPair } from "./pair-table.js";

/** A manifold routine that widens the pair's contact (the `…FromContact` routines' form). */
type FromContactFn<A extends Shape, B extends Shape> = (
  out: ContactManifold,
  a: A,
  b: B,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
) => unknown;

/**
 * The table's manifold routine of a pair from its contact routine and a routine that widens a
 * contact into a manifold (each such pair gets its own contact scratch).
 */
export function manifoldViaContact<A extends Shape, B extends Shape>(
  contactFn: ContactFn<A, B>,
  widen: FromContactFn<A, B>,
): ManifoldFn<A, B> {
  const c = makeContact();
  return (out, a, b, bInA, prediction) => {
    if (!contactFn(c, a, b, bInA, prediction)) return false;
    widen(out, a, b, bInA, c, prediction);
    return true;
  };
}

/**
 * True when `type` has a support function (GJK/EPA applies): the shape definitions' table
 * (src/shapes/registry.ts), so the world's validation and the dispatch agree by construction.
 */
export function isConvexType(type: ShapeType): boolean {
  return isSupportMappedType(type);
}

/** Installs the capability defaults and the specialised overrides (see the module docs). */
export function registerDefaultPairs(): void {
  // The rounded types register from their own module, imported above, so before this runs.
  void ROUNDED_SHAPE_TYPES;
  // The heightfield registers its definition and composite view from its module, imported above.
  void HEIGHTFIELD_SHAPE_TYPE;
  const all: number[] = [];
  for (let t = 0; t < SHAPE_TYPE_COUNT; t++) all.push(t);
  const supportMapped = all.filter(isSupportMappedType);
  // 1–2. Support-mapped × support-mapped, × half-space; half-space × half-space.
  for (const ta of supportMapped) {
    for (const tb of supportMapped) {
      if (tb < ta) continue;
      registerPair<ConvexShape, ConvexShape>(ta as ConvexShape["type"], tb as ConvexShape["type"], {
        intersects: intersectsConvexConvex,
        distance: distanceConvexConvex,
        contact: contactConvexConvex,
        manifold: manifoldViaContact(contactConvexConvex, manifoldFromContact),
      });
    }
    registerPair(ta as ConvexShape["type"], ShapeType.HalfSpace, {
      intersects: intersectsConvexHalfSpace,
      distance: distanceConvexHalfSpace,
      contact: contactConvexHalfSpace,
      manifold: manifoldViaContact(contactConvexHalfSpace, manifoldConvexHalfSpace),
    });
  }
  registerPair(ShapeType.HalfSpace, ShapeType.HalfSpace, {
    intersects: intersectsHalfSpaceHalfSpace,
    distance: distanceHalfSpaceHalfSpace,
    contact: contactHalfSpaceHalfSpace,
    manifold: manifoldHalfSpaceHalfSpace,
  });
  // 3. Anything × composite: the generic composite mid-phase.
  for (const tc of all.filter(isCompositeType)) {
    for (const t of all) {
      registerPair(t as Shape["type"], tc as Shape["type"], {
        intersects: intersectsShapeComposite,
        distance: distanceShapeComposite,
        contact: contactShapeComposite,
        manifold: manifoldShapeComposite,
      });
    }
  }
  // 4. Specialised overrides.
  registerPair(ShapeType.Sphere, ShapeType.Sphere, {
    intersects: intersectsSphereSphere,
    distance: distanceSphereSphere,
    contact: contactSphereSphere,
    manifold: manifoldViaContact(contactSphereSphere, manifoldFromContact),
  });
  registerPair(ShapeType.Sphere, ShapeType.Capsule, {
    intersects: intersectsSphereCapsule,
    contact: contactSphereCapsule,
    manifold: manifoldViaContact(contactSphereCapsule, manifoldFromContact),
  });
  registerPair(ShapeType.Capsule, ShapeType.Capsule, {
    intersects: intersectsCapsuleCapsule,
    contact: contactCapsuleCapsule,
    manifold: manifoldViaContact(contactCapsuleCapsule, manifoldFromContact),
  });
  registerPair(ShapeType.Sphere, ShapeType.Triangle, {
    intersects: intersectsSphereTriangle,
    distance: distanceSphereTriangle,
    contact: contactSphereTriangle,
    manifold: manifoldViaContact(contactSphereTriangle, manifoldFromContact),
  });
  registerPair(ShapeType.Sphere, ShapeType.Cuboid, {
    intersects: intersectsSphereCuboid,
    distance: distanceSphereCuboid,
    contact: contactSphereCuboid,
    manifold: manifoldViaContact(contactSphereCuboid, manifoldFromContact),
  });
  registerPair(ShapeType.Cuboid, ShapeType.Cuboid, {
    intersects: intersectsCuboidCuboid,
    contact: contactCuboidCuboid,
    manifold: manifoldViaContact(contactCuboidCuboid, manifoldFromContact),
  });
  // Sphere and capsule against cylinder and cone: closed forms (revolution-pairs.ts).
  registerRevolutionPairs();
  // The triangle mesh's own routines against support-mapped shapes, half-spaces and meshes.
  for (const t of supportMapped) {
    registerPair(ShapeType.TriangleMesh, t as ConvexShape["type"], {
      intersects: intersectsMeshConvex,
      distance: distanceMeshConvex,
      contact: contactMeshConvex,
      manifold: manifoldMeshConvex,
    });
  }
  registerPair(ShapeType.TriangleMesh, ShapeType.HalfSpace, {
    intersects: intersectsMeshHalfSpace,
    distance: distanceMeshHalfSpace,
    contact: contactMeshHalfSpace,
    manifold: manifoldViaContact(contactMeshHalfSpace, manifoldMeshHalfSpace),
  });
  registerPair(ShapeType.TriangleMesh, ShapeType.TriangleMesh, {
    intersects: intersectsMeshMesh,
    distance: distanceMeshMesh,
    contact: contactMeshMesh,
    manifold: manifoldViaContact(contactMeshMesh, manifoldMeshMesh),
  });
}

registerDefaultPairs();

// The dispatchers are defined here, not re-exported, so that a bundler that trusts
// `"sideEffects": false` keeps this module (and so the registrations above) in any app that
// queries a pair: a re-export would let it reach src/narrowphase/pair-table.ts directly.

/** True when A and B (B at `bInA`, A's frame) overlap or touch (src/narrowphase/pair-table.ts). */
export function intersectsPair(a: Shape, b: Shape, bInA: Isometry): boolean {
  return intersectsPairOfTable(a, b, bInA);
}

/** Closest points of A and B in A's frame (src/narrowphase/pair-table.ts). */
export function distancePair(
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  return distancePairOfTable(out, a, b, bInA);
}

/** Contact of A and B within `prediction`, A's frame (src/narrowphase/pair-table.ts). */
export function contactPair(
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  return contactPairOfTable(out, a, b, bInA, prediction);
}

/** Contact manifold of A and B within `prediction`, A's frame (src/narrowphase/pair-table.ts). */
export function manifoldPair(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  return manifoldPairOfTable(out, a, b, bInA, prediction);
}
