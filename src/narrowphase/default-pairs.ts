/**
 * Capability dispatch: the default registrations of the pair table
 * (src/narrowphase/pair-table.ts), as parry's default query dispatcher decides by what a shape
 * can do, not by what it is.
 *
 * 1. Support-mapped × support-mapped (every type whose definition has a support function,
 *    src/shapes/registry.ts) → GJK/EPA on cores plus margins (convex-convex.ts), with the
 *    manifold widened by reference-face clipping (manifold.ts).
 * 2. Support-mapped × half-space → the deepest support point (convex-half-space.ts); half-space
 *    × half-space → its own closed forms in every query (half-space-half-space.ts).
 * 3. Anything × composite (a type with a composite view: triangle mesh, compound, heightfield) → the one
 *    generic composite mid-phase (composite.ts), part by part through this same table.
 * 4. Specialised pairs override those defaults: sphere–sphere and sphere–cuboid (with world-pose
 *    overlap tests), sphere–capsule, sphere–triangle (an unflipped entry per order), capsule–capsule, cuboid–cuboid (SAT), and
 *    the triangle mesh against convex shapes, half-spaces and meshes (BVH branch and bound with
 *    internal-edge normals).
 *
 * Each registration names the pair once in any order; the table writes the mirrored entry as a
 * flipped one. This module only defines {@link registerDefaultPairs}; src/narrowphase/dispatch.ts
 * calls it when loaded (the main entry `collide` loads that), and `collide/core` leaves it to the
 * application.
 */
import { isCompositeType } from "../shapes/composite.js";
import { HEIGHTFIELD_SHAPE_TYPE } from "../shapes/heightfield.js";
import { isSupportMappedType } from "../shapes/registry.js";
import { ROUNDED_SHAPE_TYPES } from "../shapes/rounded.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_COUNT, ShapeType } from "../shapes/shape.js";
import { contactCapsuleCapsule, intersectsCapsuleCapsule } from "./capsule-capsule.js";
import {
  contactShapeComposite,
  distanceShapeComposite,
  intersectsShapeComposite,
  manifoldShapeComposite,
} from "./composite.js";
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
import {
  contactMeshConvex,
  distanceMeshConvex,
  intersectsMeshConvex,
  manifoldMeshConvex,
} from "./convex-mesh.js";
import { contactCuboidCuboid, intersectsCuboidCuboid } from "./cuboid-cuboid.js";
import {
  contactHalfSpaceHalfSpace,
  distanceHalfSpaceHalfSpace,
  intersectsHalfSpaceHalfSpace,
  manifoldHalfSpaceHalfSpace,
} from "./half-space-half-space.js";
import { snapHeightfieldNormal } from "./heightfield-normal.js";
import { manifoldFromContact } from "./manifold.js";
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
  distanceViaContact,
  manifoldOfSingleContact,
  manifoldViaContact,
  registerFaceNormalSnap,
  registerOrderedPair,
  registerPair,
} from "./pair-table.js";
import { registerRevolutionPairs } from "./revolution-pairs.js";
import { contactSphereCapsule, intersectsSphereCapsule } from "./sphere-capsule.js";
import {
  contactSphereCuboid,
  distanceSphereCuboid,
  intersectsSphereCuboid,
  intersectsSphereCuboidPoses,
} from "./sphere-cuboid.js";
import {
  contactSphereSphere,
  distanceSphereSphere,
  intersectsSphereSphere,
  intersectsSphereSpherePoses,
} from "./sphere-sphere.js";
import {
  contactSphereTriangle,
  contactTriangleSphere,
  distanceSphereTriangle,
  distanceTriangleSphere,
  intersectsSphereTriangle,
  intersectsTriangleSphere,
} from "./sphere-triangle.js";

/**
 * Installs the capability defaults and the specialised overrides (see the module docs): after
 * it, every pair of the built-in shape types is answered. Loading this module calls it; with
 * `collide/core` the application calls it when it wants every pair.
 */
export function registerDefaultPairs(): void {
  // The rounded types register from their own module, imported above, so before this runs.
  void ROUNDED_SHAPE_TYPES;
  // The heightfield registers its definition and composite view from its module, imported above;
  // its contact normals are snapped to its exact face normals (src/narrowphase/heightfield-normal.ts).
  registerFaceNormalSnap(HEIGHTFIELD_SHAPE_TYPE, snapHeightfieldNormal);
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
    intersectsPoses: intersectsSphereSpherePoses,
    distance: distanceSphereSphere,
    contact: contactSphereSphere,
    manifold: manifoldOfSingleContact(contactSphereSphere),
  });
  // Distance through the same closed form as intersects and contact (one truth on touching
  // pairs; GJK's distance decided touching by its own tolerance).
  registerPair(ShapeType.Sphere, ShapeType.Capsule, {
    intersects: intersectsSphereCapsule,
    distance: distanceViaContact(contactSphereCapsule),
    contact: contactSphereCapsule,
    manifold: manifoldOfSingleContact(contactSphereCapsule),
  });
  registerPair(ShapeType.Capsule, ShapeType.Capsule, {
    intersects: intersectsCapsuleCapsule,
    distance: distanceViaContact(contactCapsuleCapsule),
    contact: contactCapsuleCapsule,
    manifold: manifoldViaContact(contactCapsuleCapsule, manifoldFromContact),
  });
  // One closed form, an unflipped entry per order (the mesh's triangles come as A, the
  // composite's parts as B; src/narrowphase/sphere-triangle.ts).
  registerPair(ShapeType.Sphere, ShapeType.Triangle, {
    intersects: intersectsSphereTriangle,
    distance: distanceSphereTriangle,
    contact: contactSphereTriangle,
    manifold: manifoldOfSingleContact(contactSphereTriangle),
  });
  registerOrderedPair(ShapeType.Triangle, ShapeType.Sphere, {
    intersects: intersectsTriangleSphere,
    distance: distanceTriangleSphere,
    contact: contactTriangleSphere,
    manifold: manifoldOfSingleContact(contactTriangleSphere),
  });
  registerPair(ShapeType.Sphere, ShapeType.Cuboid, {
    intersects: intersectsSphereCuboid,
    intersectsPoses: intersectsSphereCuboidPoses,
    distance: distanceSphereCuboid,
    contact: contactSphereCuboid,
    manifold: manifoldOfSingleContact(contactSphereCuboid),
  });
  registerPair(ShapeType.Cuboid, ShapeType.Cuboid, {
    intersects: intersectsCuboidCuboid,
    contact: contactCuboidCuboid,
    manifold: manifoldViaContact(contactCuboidCuboid, manifoldFromContact),
  });
  // Closed forms of sphere and capsule against cylinder and cone (src/narrowphase/revolution-pairs.ts).
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
