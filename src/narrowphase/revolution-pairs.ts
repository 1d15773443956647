/**
 * The pair-table overrides of the closed forms against solids of revolution (issue 16): sphere
 * and capsule against cylinder and cone. One call, {@link registerRevolutionPairs}, from the
 * dispatch's specialised overrides (src/narrowphase/default-pairs.ts), so the registration stays a
 * small hook there.
 */

import type { ConvexShape, Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { contactCapsuleCone, intersectsCapsuleCone } from "./capsule-cone.js";
import { contactCapsuleCylinder, intersectsCapsuleCylinder } from "./capsule-cylinder.js";
import { makeContact } from "./contact.js";
import {
  contactCylinderCylinder,
  distanceCylinderCylinder,
  intersectsCylinderCylinder,
} from "./cylinder-cylinder.js";
import { manifoldFromContact } from "./manifold.js";
import type { ContactFn, ManifoldFn } from "./pair-table.js";
import { distanceViaContact, registerPair } from "./pair-table.js";
import { contactSphereCone, intersectsSphereCone } from "./sphere-cone.js";
import { contactSphereCylinder, intersectsSphereCylinder } from "./sphere-cylinder.js";

/** The manifold routine of a convex pair from its contact routine (reference-face clipping). */
function manifoldOf<A extends ConvexShape & Shape, B extends ConvexShape & Shape>(
  contactFn: ContactFn<A, B>,
): ManifoldFn<A, B> {
  const c = makeContact();
  return (out, a, b, bInA, prediction) => {
    if (!contactFn(c, a, b, bInA, prediction)) return false;
    manifoldFromContact(out, a, b, bInA, c, prediction);
    return true;
  };
}

/**
 * Registers sphere–cylinder, sphere–cone, capsule–cylinder, capsule–cone and cylinder–cylinder
 * (closed form for parallel axes, the general narrow phase otherwise).
 */
export function registerRevolutionPairs(): void {
  registerPair(ShapeType.Sphere, ShapeType.Cylinder, {
    intersects: intersectsSphereCylinder,
    distance: distanceViaContact(contactSphereCylinder),
    contact: contactSphereCylinder,
    manifold: manifoldOf(contactSphereCylinder),
  });
  registerPair(ShapeType.Sphere, ShapeType.Cone, {
    intersects: intersectsSphereCone,
    distance: distanceViaContact(contactSphereCone),
    contact: contactSphereCone,
    manifold: manifoldOf(contactSphereCone),
  });
  registerPair(ShapeType.Capsule, ShapeType.Cylinder, {
    intersects: intersectsCapsuleCylinder,
    distance: distanceViaContact(contactCapsuleCylinder),
    contact: contactCapsuleCylinder,
    manifold: manifoldOf(contactCapsuleCylinder),
  });
  registerPair(ShapeType.Capsule, ShapeType.Cone, {
    intersects: intersectsCapsuleCone,
    distance: distanceViaContact(contactCapsuleCone),
    contact: contactCapsuleCone,
    manifold: manifoldOf(contactCapsuleCone),
  });
  registerPair(ShapeType.Cylinder, ShapeType.Cylinder, {
    intersects: intersectsCylinderCylinder,
    distance: distanceCylinderCylinder,
    contact: contactCylinderCylinder,
    manifold: manifoldOf(contactCylinderCylinder),
  });
}
