/**
 * The overlap volume when one convex shape lies inside the other (src/query/overlap-volume.ts):
 * the overlap is then the inner shape, whose volume has a closed form. This answers exactly,
 * and at once, the overlaps the adaptive octree finds hardest: a shape much thinner in one
 * direction than in the others (a disc, a slab, a needle) inside a larger one, where every
 * octree cell the thin shape crosses is a boundary cell.
 *
 * Containment X ⊂ Y of convex shapes is decided by probe points: X lies in the convex hull of
 * its probe points swept by a ball of radius `inset` (its "core"), so X ⊂ Y when Y's signed
 * distance ψ_Y (negative inside, convex) is ≤ −inset at every probe point — ψ_Y is convex, so
 * it is ≤ −inset on the whole hull of the points, whose ball of radius `inset` then lies in Y.
 * The probes: a sphere's centre (inset its radius), a capsule's segment ends (its radius), a
 * rounded box's or rounded hull's core vertices (its radius), a polytope's vertices (0), and for
 * a cylinder or a cone the vertices of the circumscribed prism or pyramid over a regular
 * {@link RIM_SIDES}-gon (0). The test is sufficient, not necessary: a shape whose circumscribed
 * polygon pokes out of Y, or one within the rounding margin of Y's boundary, goes to the other
 * methods. The margin: every probe must clear −inset by {@link containmentMargin} (the rounding
 * of the probe's transform into Y's frame and of ψ_Y), so a decision "inside" is never made by
 * rounding alone.
 */

import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Cone } from "../shapes/cone.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Cylinder } from "../shapes/cylinder.js";
import { boundingRadiusOf, type PolytopeAxes, shapeDef } from "../shapes/registry.js";
import type { RoundedConvexPolyhedron, RoundedCuboid } from "../shapes/rounded.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import { makePointProjection, projectPointLocal } from "./project-point.js";

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;
/**
 * Sides of the regular polygon circumscribed about a cylinder's or a cone's rim for the
 * containment probes: the polygon reaches 1/cos(π/128) − 1 ≈ 3.0e-4 of the radius beyond the
 * rim, so a disc within that of Y's boundary is left to the other methods.
 */
export const RIM_SIDES = 128;

/** The probe points of a convex shape (local frame, packed xyz) and the ball swept about them. */
export interface ContainmentProbe {
  points: number[];
  inset: number;
}

/** The vertices of a polytope's closed faces (local frame; repeated vertices are harmless). */
function polytopeVertices(s: Shape): number[] | null {
  const p = shapeDef(s.type).polytope as PolytopeAxes | null;
  if (p === null || p.faces === null || p.flat) return null;
  const faces = (p.faces as (s: Shape) => number[][])(s);
  const out: number[] = [];
  for (const f of faces) for (const c of f) out.push(c);
  return out;
}

/**
 * The probe points of convex shape `s` (module doc), local frame; null for a type without
 * probes (a flat shape). The circumscribed polygon's radius is rounded up by a few ulps so the
 * computed vertices still enclose the rim.
 */
export function containmentProbe(s: Shape): ContainmentProbe | null {
  switch (s.type) {
    case ShapeType.Sphere:
      return { points: [0, 0, 0], inset: (s as Sphere).radius };
    case ShapeType.Capsule: {
      const c = s as Capsule;
      return { points: [c.a.x, c.a.y, c.a.z, c.b.x, c.b.y, c.b.z], inset: c.radius };
    }
    case ShapeType.RoundedCuboid:
    case ShapeType.RoundedConvexPolyhedron: {
      const r = s as RoundedCuboid | RoundedConvexPolyhedron;
      const v = polytopeVertices(r.core);
      return v === null ? null : { points: v, inset: r.radius };
    }
    case ShapeType.Cylinder:
    case ShapeType.Cone: {
      const c = s as Cylinder | Cone;
      const rr = (c.radius / Math.cos(Math.PI / RIM_SIDES)) * (1 + 8 * UNIT_ROUNDOFF);
      const h = c.halfHeight;
      const points: number[] = [];
      for (let i = 0; i < RIM_SIDES; i++) {
        const phi = (2 * Math.PI * i) / RIM_SIDES;
        const x = rr * Math.cos(phi);
        const z = rr * Math.sin(phi);
        points.push(x, -h, z);
        if (s.type === ShapeType.Cylinder) points.push(x, h, z);
      }
      if (s.type === ShapeType.Cone) points.push(0, h, 0);
      return { points, inset: 0 };
    }
    default: {
      const v = polytopeVertices(s);
      return v === null ? null : { points: v, inset: 0 };
    }
  }
}

/**
 * The volume of convex shape `s` in closed form (unit³), or null for a type without one here (a
 * convex hull, whose volume the caller takes from its faces; a rounded hull). Relative rounding
 * below 16u.
 */
export function closedFormVolume(s: Shape): number | null {
  switch (s.type) {
    case ShapeType.Sphere: {
      const r = (s as Sphere).radius;
      return (4 / 3) * Math.PI * r * r * r;
    }
    case ShapeType.Cuboid: {
      const h = (s as Cuboid).halfExtents;
      return 8 * h.x * h.y * h.z;
    }
    case ShapeType.Cylinder: {
      const c = s as Cylinder;
      return 2 * Math.PI * c.radius * c.radius * c.halfHeight;
    }
    case ShapeType.Cone: {
      const c = s as Cone;
      return (2 / 3) * Math.PI * c.radius * c.radius * c.halfHeight;
    }
    case ShapeType.Capsule: {
      // A cylinder of the segment's length and two half balls.
      const c = s as Capsule;
      const r = c.radius;
      const len = vec3.distance(c.a, c.b);
      return Math.PI * r * r * len + (4 / 3) * Math.PI * r * r * r;
    }
    case ShapeType.RoundedCuboid: {
      // Steiner's formula for a box of half extents (a, b, c) swept by a ball of radius r: the
      // box, its faces pushed out (area 8(ab + bc + ca) times r), a quarter cylinder along each
      // of its edges (total length 8(a + b + c)) and the ball at the corners.
      const rc = s as RoundedCuboid;
      const h = rc.core.halfExtents;
      const r = rc.radius;
      return (
        8 * h.x * h.y * h.z +
        8 * (h.x * h.y + h.y * h.z + h.z * h.x) * r +
        2 * Math.PI * (h.x + h.y + h.z) * r * r +
        (4 / 3) * Math.PI * r * r * r
      );
    }
    default:
      return null;
  }
}

const probePoint = vec3.create();
const projection = makePointProjection();

/**
 * The margin a probe must clear Y's boundary by (unit): the rounding of the probe's transform
 * into Y's frame (`xInY`, composed from world poses of translations up to `moved`) and of Y's
 * signed distance there, 64u times every magnitude involved.
 */
function containmentMargin(x: Shape, y: Shape, xInY: Isometry, moved: number): number {
  return (
    64 *
    UNIT_ROUNDOFF *
    (boundingRadiusOf(x) + boundingRadiusOf(y) + vec3.length(xInY.translation) + moved)
  );
}

/**
 * True when convex shape X (at `xInY`, Y's frame) is certainly inside convex shape Y: every
 * probe of X lies at least its inset plus the rounding margin inside Y (module doc). `moved`:
 * the sum of the lengths of the world translations the pose was composed from (for the
 * margin). False when X has no probes or any probe fails (X may still be inside).
 */
export function containedIn(x: Shape, y: Shape, xInY: Isometry, moved: number): boolean {
  const probe = containmentProbe(x);
  if (probe === null) return false;
  const margin = containmentMargin(x, y, xInY, moved);
  const need = -(probe.inset + margin);
  const pts = probe.points;
  for (let i = 0; i < pts.length; i += 3) {
    vec3.set(probePoint, pts[i], pts[i + 1], pts[i + 2]);
    iso.transformPoint(probePoint, xInY, probePoint);
    projectPointLocal(projection, y, probePoint, false);
    if (!projection.inside || !(-projection.distance <= need)) return false;
  }
  return true;
}
