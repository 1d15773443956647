/**
 * Capability dispatch: the default registrations of the pair table
 * (src/narrowphase/pair-table.ts), as parry's default query dispatcher decides by what a shape
 * can do, not by what it is.
 *
 * 1. Support-mapped × support-mapped (every type whose definition has a support function,
 *    src/shapes/registry.ts) → GJK/EPA on cores plus margins (convex-convex.ts), with the
 *    manifold widened by reference-face clipping (manifold.ts).
 * 2. Support-mapped × half-space → the deepest support point (convex-half-space.ts); half-space
 *    × triangle mesh and × heightfield → the deepest vertex, in the composite's frame
 *    (mesh-half-space.ts, half-space-heightfield.ts); half-space × half-space → its own closed
 *    forms in every query (half-space-half-space.ts).
 * 3. Anything × composite (a type with a composite view: triangle mesh, compound, heightfield) → the one
 *    generic composite mid-phase (composite.ts), part by part through this same table.
 * 4. Specialised pairs override those defaults: sphere–sphere and sphere–cuboid (with world-pose
 *    overlap tests), sphere–capsule, sphere–hull, sphere–rounded box and hull (the plain pairs'
 *    closed forms on the core, the radii summed), sphere–triangle (an unflipped entry per order),
 *    capsule–capsule, capsule–box and capsule–hull, plain or rounded (the segment's exact features), cuboid–cuboid (SAT), and
 *    rounded boxes and hulls against each other, against boxes and hulls and against cylinders
 *    and cones (their cores' routines, the radii added), the triangle mesh against convex shapes, half-spaces and meshes (BVH branch and bound with
 *    internal-edge normals).
 *
 * Each registration names the pair once in any order; the table writes the mirrored entry as a
 * flipped one. The overrides are registered first, by type id; the capability defaults then fill
 * only the operations left empty, for every registered type and, through `onShapeRegistered`,
 * for every type whose definition loads later (each `make…` module loads its own type's, so the
 * order in which modules load does not matter). This module only defines
 * {@link registerDefaultPairs}; src/narrowphase/dispatch.ts
 * calls it when loaded (the main entry `collide` loads that), and `collide/core` leaves it to the
 * application.
 */
import type { Capsule } from "../shapes/capsule.js";
import { compositeView, isCompositeType } from "../shapes/composite.js";
import { findShapeDef, isSupportMappedType } from "../shapes/registry.js";
import type { RoundedConvexPolyhedron, RoundedCuboid, RoundedShape } from "../shapes/rounded.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_COUNT, ShapeType } from "../shapes/shape.js";
import { onShapeRegistered } from "../shapes/shape-def.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Triangle } from "../shapes/triangle.js";
import { contactCapsuleCapsule, intersectsCapsuleCapsule } from "./capsule-capsule.js";
import { type CapsulePolytopeOther, contactCapsulePolytope } from "./capsule-polytope.js";
import {
  contactCapsuleTriangle,
  distanceCapsuleTriangle,
  intersectsCapsuleTriangle,
} from "./capsule-triangle.js";
import {
  contactCompositeComposite,
  contactCompositeShape,
  contactShapeComposite,
  distanceCompositeComposite,
  distanceCompositeShape,
  distanceShapeComposite,
  intersectsCompositeComposite,
  intersectsCompositeShape,
  intersectsShapeComposite,
  manifoldCompositeComposite,
  manifoldCompositeShape,
  manifoldShapeComposite,
  setBareTrianglesIntersect,
} from "./composite.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";
import {
  contactHalfSpaceConvex,
  distanceHalfSpaceConvex,
  intersectsHalfSpaceConvex,
  manifoldHalfSpaceConvex,
} from "./convex-half-space.js";
import {
  contactMeshConvex,
  distanceMeshConvex,
  intersectsMeshConvex,
  manifoldMeshConvex,
} from "./convex-mesh.js";
import {
  contactCuboidCuboid,
  distanceCuboidCuboid,
  intersectsCuboidCuboid,
  manifoldCuboidCuboid,
} from "./cuboid-cuboid.js";
import {
  contactHalfSpaceComposite,
  distanceHalfSpaceComposite,
  intersectsHalfSpaceComposite,
  manifoldHalfSpaceComposite,
} from "./half-space-composite.js";
import {
  contactHalfSpaceHalfSpace,
  distanceHalfSpaceHalfSpace,
  intersectsHalfSpaceHalfSpace,
  manifoldHalfSpaceHalfSpace,
} from "./half-space-half-space.js";
import {
  contactHalfSpaceHeightfield,
  distanceHalfSpaceHeightfield,
  intersectsHalfSpaceHeightfield,
  manifoldHalfSpaceHeightfield,
} from "./half-space-heightfield.js";
import { snapHeightfieldNormal } from "./heightfield-normal.js";
import { manifoldFromContact } from "./manifold.js";
import {
  contactHalfSpaceMesh,
  distanceHalfSpaceMesh,
  intersectsHalfSpaceMesh,
  manifoldHalfSpaceMesh,
} from "./mesh-half-space.js";
import { intersectsTrianglesInFrame } from "./mesh-mesh.js";
import {
  distanceViaContact,
  hasPairRoutine,
  intersectsViaContact,
  manifoldOfSingleContact,
  manifoldViaContact,
  type PairRoutines,
  registerFaceNormalSnap,
  registerOrderedPair,
  registerPair,
} from "./pair-table.js";
import { registerRevolutionPairs } from "./revolution-pairs.js";
import { contactRoundedPolytope, type RoundedPolytopeOther } from "./rounded-polytope.js";
import { contactSphereCapsule, intersectsSphereCapsule } from "./sphere-capsule.js";
import {
  contactSphereConvexPolyhedron,
  distanceSphereConvexPolyhedron,
  intersectsSphereConvexPolyhedron,
} from "./sphere-convex-polyhedron.js";
import {
  contactCuboidSphere,
  contactSphereCuboid,
  distanceCuboidSphere,
  distanceSphereCuboid,
  intersectsCuboidSphere,
  intersectsSphereCuboid,
  intersectsSphereCuboidPoses,
} from "./sphere-cuboid.js";
import {
  contactRoundedCuboidSphere,
  contactSphereRoundedConvexPolyhedron,
  contactSphereRoundedCuboid,
} from "./sphere-rounded.js";
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
import {
  contactTrianglePolytope,
  distanceTrianglePolytope,
  intersectsTrianglePolytope,
  type TrianglePolytopeOther,
} from "./triangle-polytope.js";
import {
  contactTriangleRounded,
  distanceTriangleRounded,
  intersectsTriangleRounded,
} from "./triangle-rounded.js";

type Op = "intersects" | "distance" | "contact" | "manifold";

/**
 * Registers, for pair (ta, tb), the routines of `fns` whose operation has none yet (a routine
 * registered before — a specialised override, the application's own — stays).
 *
 * The partial set is one object literal with its four keys always present, in a fixed order, the
 * ones not wanted `undefined`; never an empty `{}` given keys one by one. An empty literal has
 * the same root map as every four-property literal, so `{}` whose first key became `distance`
 * (a function) shared its map with the `Contact` records ({ distance: 0, normal, pointA,
 * pointB }) and made their `distance` field tagged: every double stored there was then boxed in
 * a new heap number, 3.5 KB per world step (see docs/DESIGN.md, the rules).
 */
function fill<A extends Shape, B extends Shape>(
  ta: A["type"],
  tb: B["type"],
  fns: PairRoutines<A, B>,
): void {
  const want = (op: Op) => fns[op] !== undefined && !hasPairRoutine(op, ta, tb);
  const missing: PairRoutines<A, B> = {
    intersects: want("intersects") ? fns.intersects : undefined,
    distance: want("distance") ? fns.distance : undefined,
    contact: want("contact") ? fns.contact : undefined,
    manifold: want("manifold") ? fns.manifold : undefined,
  };
  if (missing.intersects || missing.distance || missing.contact || missing.manifold) {
    registerPair(ta, tb, missing);
  }
}

/**
 * The capability defaults (see the module docs) of every pair of registered types that involves
 * type `only` (every pair when −1), for the operations that have no routine yet, in order of
 * priority: the triangle mesh's own routines, support-mapped pairs, half-spaces, then the generic
 * composite mid-phase (composites from the highest type id down, so that of two composites the
 * one with the higher id is B, as the composite routine takes it).
 */
function fillCapabilityPairs(only: number): void {
  const all: number[] = [];
  for (let t = 0; t < SHAPE_TYPE_COUNT; t++) all.push(t);
  const involves = (ta: number, tb: number) => only < 0 || ta === only || tb === only;
  const supportMapped = all.filter(isSupportMappedType);
  // Composite × convex, the composite as A: the triangle mesh with its own routines; the
  // heightfield as the mesh of its triangles, by the composite mid-phase in the part-first order
  // (the table flips (convex, heightfield)), so that both answer alike (docs/FORMATS.md).
  const fillCompositeConvex = <A extends Shape>(
    composite: A["type"],
    fns: PairRoutines<A, ConvexShape>,
  ): void => {
    if (!findShapeDef(composite)) return;
    for (const t of supportMapped) {
      if (involves(composite, t)) fill(composite, t as ConvexShape["type"], fns);
    }
  };
  fillCompositeConvex(ShapeType.TriangleMesh, {
    intersects: intersectsMeshConvex,
    distance: distanceMeshConvex,
    contact: contactMeshConvex,
    manifold: manifoldMeshConvex,
  });
  fillCompositeConvex(ShapeType.Heightfield, {
    intersects: intersectsCompositeShape,
    distance: distanceCompositeShape,
    contact: contactCompositeShape,
    manifold: manifoldCompositeShape,
  });
  const mesh = ShapeType.TriangleMesh;
  if (
    findShapeDef(mesh) &&
    findShapeDef(ShapeType.HalfSpace) &&
    involves(mesh, ShapeType.HalfSpace)
  ) {
    // In the half-space's order, computed in the mesh's frame (src/narrowphase/mesh-half-space.ts).
    fill(ShapeType.HalfSpace, mesh, {
      intersects: intersectsHalfSpaceMesh,
      distance: distanceHalfSpaceMesh,
      contact: contactHalfSpaceMesh,
      manifold: manifoldViaContact(contactHalfSpaceMesh, manifoldHalfSpaceMesh),
    });
  }
  for (const ta of supportMapped) {
    for (const tb of supportMapped) {
      if (tb < ta || !involves(ta, tb)) continue;
      fill<ConvexShape, ConvexShape>(ta as ConvexShape["type"], tb as ConvexShape["type"], {
        intersects: intersectsConvexConvex,
        distance: distanceConvexConvex,
        contact: contactConvexConvex,
        manifold: manifoldViaContact(contactConvexConvex, manifoldFromContact),
      });
    }
    if (!findShapeDef(ShapeType.HalfSpace) || !involves(ta, ShapeType.HalfSpace)) continue;
    // In the half-space's order: the routines take B's pose in the half-space's frame, where a
    // world half-space sees B's world pose exactly (src/narrowphase/convex-half-space.ts).
    fill(ShapeType.HalfSpace, ta as ConvexShape["type"], {
      intersects: intersectsHalfSpaceConvex,
      distance: distanceHalfSpaceConvex,
      contact: contactHalfSpaceConvex,
      manifold: manifoldViaContact(contactHalfSpaceConvex, manifoldHalfSpaceConvex),
    });
  }
  const registered = all.filter((t) => findShapeDef(t) !== null);
  const composites = registered.filter(isCompositeType).reverse();
  // Two composites with trees: the trees descended together.
  for (const tc of composites) {
    for (const t of composites) {
      if (t > tc || !involves(t, tc) || !twoTrees(t, tc)) continue;
      const [ta, tb] = treeOrder(t, tc);
      fill(ta as Shape["type"], tb as Shape["type"], {
        intersects: intersectsCompositeComposite,
        distance: distanceCompositeComposite,
        contact: contactCompositeComposite,
        manifold: manifoldCompositeComposite,
      });
    }
  }
  // A half-space against a compound: the plane moved exactly into the compound's frame
  // (src/narrowphase/half-space-composite.ts), then the mid-phase there.
  if (
    findShapeDef(ShapeType.HalfSpace) &&
    findShapeDef(ShapeType.Compound) &&
    involves(ShapeType.HalfSpace, ShapeType.Compound)
  ) {
    fill(ShapeType.HalfSpace, ShapeType.Compound, {
      intersects: intersectsHalfSpaceComposite,
      distance: distanceHalfSpaceComposite,
      contact: contactHalfSpaceComposite,
      manifold: manifoldHalfSpaceComposite,
    });
  }
  // A half-space against a heightfield: its deepest vertex, in the field's frame
  // (src/narrowphase/half-space-heightfield.ts).
  if (
    findShapeDef(ShapeType.HalfSpace) &&
    findShapeDef(ShapeType.Heightfield) &&
    involves(ShapeType.HalfSpace, ShapeType.Heightfield)
  ) {
    fill(ShapeType.HalfSpace, ShapeType.Heightfield, {
      intersects: intersectsHalfSpaceHeightfield,
      distance: distanceHalfSpaceHeightfield,
      contact: contactHalfSpaceHeightfield,
      manifold: manifoldViaContact(contactHalfSpaceHeightfield, manifoldHalfSpaceHeightfield),
    });
  }
  for (const tc of composites) {
    for (const t of registered) {
      if (!involves(t, tc)) continue;
      fill(t as Shape["type"], tc as Shape["type"], {
        intersects: intersectsShapeComposite,
        distance: distanceShapeComposite,
        contact: contactShapeComposite,
        manifold: manifoldShapeComposite,
      });
    }
  }
}

/**
 * True when composite types `ta` and `tb` take the two-tree routines: both views have a tree
 * (mesh, compound, heightfield: the heightfield's min/max tree refined to cells). A heightfield
 * is then a mesh of its cell triangles: against a mesh or another field (two surfaces) no
 * internal edge is fixed, against a compound's children its own are.
 */
function twoTrees(ta: number, tb: number): boolean {
  return compositeView(ta)?.tree !== undefined && compositeView(tb)?.tree !== undefined;
}

/**
 * The order (A, B) in which the two-tree routines take composite types `t` < `tc`: a flat tree
 * (the heightfield's, its view's `flatTree`) as A, else `tc` as B. The walk tests B's node boxes moved into A's frame as the
 * boxes of their rotated boxes; a field's nodes are wide and flat, so rotated they would grow far
 * beyond the field (a 16 × 2 × 16 block tilted 30° spans 16 × 10 × 16) and keep many more node
 * pairs. The table answers the other order through its flip.
 */
function treeOrder(t: number, tc: number): [number, number] {
  return compositeView(tc)?.flatTree === true && t !== tc ? [tc, t] : [t, tc];
}

let installed = false;

/**
 * Installs the specialised overrides and the capability defaults (see the module docs): after
 * it, every pair of the registered shape types is answered, and a type whose definition
 * registers later (its module loads later) gets its capability pairs then. Loading
 * src/narrowphase/dispatch.ts calls it; with `collide/core` the application calls it when it
 * wants every pair. Calling it again restores the defaults.
 */
export function registerDefaultPairs(): void {
  // Overrides first (by type id: they need no definition loaded), then the capability defaults
  // fill every operation left empty.
  // The heightfield's contact normals are snapped to its exact face normals
  // (src/narrowphase/heightfield-normal.ts).
  registerFaceNormalSnap(ShapeType.Heightfield, snapHeightfieldNormal);
  registerPair(ShapeType.HalfSpace, ShapeType.HalfSpace, {
    intersects: intersectsHalfSpaceHalfSpace,
    distance: distanceHalfSpaceHalfSpace,
    contact: contactHalfSpaceHalfSpace,
    manifold: manifoldHalfSpaceHalfSpace,
  });
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
  // The centre's exact projection onto the hull's vertices, then the radius; a centre inside
  // the hull is GJK/EPA's (src/narrowphase/sphere-convex-polyhedron.ts).
  registerPair(ShapeType.Sphere, ShapeType.ConvexPolyhedron, {
    intersects: intersectsSphereConvexPolyhedron,
    distance: distanceSphereConvexPolyhedron,
    contact: contactSphereConvexPolyhedron,
    manifold: manifoldOfSingleContact(contactSphereConvexPolyhedron),
  });
  registerPair(ShapeType.Capsule, ShapeType.Capsule, {
    intersects: intersectsCapsuleCapsule,
    distance: distanceViaContact(contactCapsuleCapsule),
    contact: contactCapsuleCapsule,
    manifold: manifoldViaContact(contactCapsuleCapsule, manifoldFromContact),
  });
  // A capsule against a box or a hull, plain or rounded: its segment's SAT and closest features
  // against the polytope or core (the triangle routines', the segment a triangle without area),
  // the radii added (src/narrowphase/capsule-polytope.ts).
  for (const t of [
    ShapeType.Cuboid,
    ShapeType.ConvexPolyhedron,
    ShapeType.RoundedCuboid,
    ShapeType.RoundedConvexPolyhedron,
  ] as const) {
    registerPair<Capsule, CapsulePolytopeOther>(ShapeType.Capsule, t, {
      intersects: intersectsViaContact(contactCapsulePolytope),
      distance: distanceViaContact(contactCapsulePolytope, distanceConvexConvex),
      contact: contactCapsulePolytope,
      manifold: manifoldViaContact(contactCapsulePolytope, manifoldFromContact),
    });
  }
  // A point triangle's closed form (point–segment), every other triangle GJK/EPA's
  // (src/narrowphase/capsule-triangle.ts).
  registerPair(ShapeType.Capsule, ShapeType.Triangle, {
    intersects: intersectsCapsuleTriangle,
    distance: distanceCapsuleTriangle,
    contact: contactCapsuleTriangle,
    manifold: manifoldViaContact(contactCapsuleTriangle, manifoldFromContact),
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
  // Möller's triangle–triangle test for the part pairs of two surfaces (mesh–mesh); a triangle
  // pair otherwise is GJK/EPA's.
  setBareTrianglesIntersect(intersectsTrianglesInFrame);
  // A triangle against a box, a triangle or a hull: SAT and closest features in the triangle's
  // local frame (src/narrowphase/triangle-polytope.ts).
  for (const t of [ShapeType.Cuboid, ShapeType.Triangle, ShapeType.ConvexPolyhedron] as const) {
    registerPair<Triangle, TrianglePolytopeOther>(ShapeType.Triangle, t, {
      intersects: intersectsTrianglePolytope,
      distance: distanceTrianglePolytope,
      contact: contactTrianglePolytope,
      manifold: manifoldViaContact(contactTrianglePolytope, manifoldFromContact),
    });
  }
  // A triangle against a rounded box or hull: the triangle against the core (the same SAT and
  // closest features), the radius added (src/narrowphase/triangle-rounded.ts).
  for (const t of [ShapeType.RoundedCuboid, ShapeType.RoundedConvexPolyhedron] as const) {
    registerPair<Triangle, RoundedShape>(ShapeType.Triangle, t, {
      intersects: intersectsTriangleRounded,
      distance: distanceTriangleRounded,
      contact: contactTriangleRounded,
      manifold: manifoldViaContact(contactTriangleRounded, manifoldFromContact),
    });
  }
  // Rounded boxes and hulls against each other and against plain boxes and hulls: the cores'
  // exact routines (box–box SAT, the polytope paths of GJK/EPA), the radii added
  // (src/narrowphase/rounded-polytope.ts).
  const cored = [
    ShapeType.Cuboid,
    ShapeType.ConvexPolyhedron,
    ShapeType.RoundedCuboid,
    ShapeType.RoundedConvexPolyhedron,
  ] as const;
  for (const ta of cored) {
    for (const tb of cored) {
      if (tb < ta || tb < ShapeType.RoundedCuboid) continue;
      registerPair<RoundedPolytopeOther, RoundedPolytopeOther>(ta, tb, {
        intersects: intersectsViaContact(contactRoundedPolytope),
        distance: distanceViaContact(contactRoundedPolytope, distanceConvexConvex),
        contact: contactRoundedPolytope,
        manifold: manifoldViaContact(contactRoundedPolytope, manifoldFromContact),
      });
    }
  }
  // A rounded box or hull against a cylinder or a cone: the core against the solid by the plain
  // polytope's paths of GJK/EPA, the radius added (src/narrowphase/rounded-polytope.ts).
  for (const tc of [ShapeType.Cylinder, ShapeType.Cone] as const) {
    for (const tr of [ShapeType.RoundedCuboid, ShapeType.RoundedConvexPolyhedron] as const) {
      registerPair<RoundedPolytopeOther, RoundedPolytopeOther>(tc, tr, {
        intersects: intersectsViaContact(contactRoundedPolytope),
        distance: distanceViaContact(contactRoundedPolytope, distanceConvexConvex),
        contact: contactRoundedPolytope,
        manifold: manifoldViaContact(contactRoundedPolytope, manifoldFromContact),
      });
    }
  }
  registerPair(ShapeType.Sphere, ShapeType.Cuboid, {
    intersects: intersectsSphereCuboid,
    intersectsPoses: intersectsSphereCuboidPoses,
    distance: distanceSphereCuboid,
    contact: contactSphereCuboid,
    manifold: manifoldOfSingleContact(contactSphereCuboid),
  });
  // The box-first order has routines of its own: the sphere's centre in the box's frame is then
  // B's offset as given, not inverted twice (src/narrowphase/sphere-cuboid.ts).
  registerOrderedPair(ShapeType.Cuboid, ShapeType.Sphere, {
    intersects: intersectsCuboidSphere,
    distance: distanceCuboidSphere,
    contact: contactCuboidSphere,
    manifold: manifoldOfSingleContact(contactCuboidSphere),
  });
  registerPair(ShapeType.Cuboid, ShapeType.Cuboid, {
    intersects: intersectsCuboidCuboid,
    distance: distanceCuboidCuboid,
    contact: contactCuboidCuboid,
    manifold: manifoldViaContact(contactCuboidCuboid, manifoldCuboidCuboid),
  });
  // A sphere against a rounded box or hull: the centre against the core by the plain pairs'
  // closed forms, the radii summed (src/narrowphase/sphere-rounded.ts); the box-first order with
  // its own routine, as the plain box's.
  registerOrderedPair<Sphere, RoundedCuboid>(ShapeType.Sphere, ShapeType.RoundedCuboid, {
    intersects: intersectsViaContact(contactSphereRoundedCuboid),
    distance: distanceViaContact(contactSphereRoundedCuboid),
    contact: contactSphereRoundedCuboid,
    manifold: manifoldOfSingleContact(contactSphereRoundedCuboid),
  });
  registerOrderedPair<RoundedCuboid, Sphere>(ShapeType.RoundedCuboid, ShapeType.Sphere, {
    intersects: intersectsViaContact(contactRoundedCuboidSphere),
    distance: distanceViaContact(contactRoundedCuboidSphere),
    contact: contactRoundedCuboidSphere,
    manifold: manifoldOfSingleContact(contactRoundedCuboidSphere),
  });
  registerPair<Sphere, RoundedConvexPolyhedron>(
    ShapeType.Sphere,
    ShapeType.RoundedConvexPolyhedron,
    {
      intersects: intersectsViaContact(contactSphereRoundedConvexPolyhedron),
      distance: distanceViaContact(contactSphereRoundedConvexPolyhedron),
      contact: contactSphereRoundedConvexPolyhedron,
      manifold: manifoldOfSingleContact(contactSphereRoundedConvexPolyhedron),
    },
  );
  // Closed forms of sphere and capsule against cylinder and cone (src/narrowphase/revolution-pairs.ts).
  registerRevolutionPairs();
  fillCapabilityPairs(-1);
  if (!installed) {
    installed = true;
    onShapeRegistered(fillCapabilityPairs);
  }
}
