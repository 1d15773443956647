/**
 * The `projectPoint` query: the point of a posed shape closest to a query point.
 *
 * For a solid shape a point inside projects onto itself (distance 0); for a hollow one
 * (`solid: false`) it projects onto the closest point of the boundary even from inside. Every
 * shape has a closed form in its local frame: clamping for the box (Ericson 2005, §5.1.3), the
 * closest point on the core segment plus the radius for spheres and capsules (§5.1.2), the 2D
 * profile of the solid of revolution — a rectangle for the cylinder, a triangle for the cone —
 * in the half-plane through the axis and the point, the faces (fan triangles, §5.1.5) of a
 * convex polyhedron, and the closest point on a triangle (§5.1.5). Flat shapes (a triangle)
 * have no interior: a point is inside only when it lies on them.
 */

import { GJK_ROUNDING_TOLERANCE } from "../constants.js";
import { CollideError, invalidValue } from "../errors.js";
import { closestPointOnSegment, closestPointOnTriangle } from "../geometry/closest-point.js";
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import { makeMeshBvhHits } from "../geometry/mesh-bvh.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { hypot2 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { CompositePart, CompositeView } from "../shapes/composite.js";
import { compositeView, makeCompositePart } from "../shapes/composite.js";
import type { Cone } from "../shapes/cone.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Cylinder } from "../shapes/cylinder.js";
import { aabbOf } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { checkVec3 } from "../shapes/validate.js";
import { checkOffset, checkPose, checkShapeArg } from "./frames.js";
import { hasNaN3, refuseBadInputs } from "./guard.js";
import { closestPointOnMesh, makeMeshPointQuery } from "./mesh-distance.js";

/** The answer of {@link projectPoint}: closest point, its distance, whether the point is inside. */
export interface PointProjection {
  /** The closest point of the shape (of its boundary when hollow), world frame. */
  point: Vec3;
  /** Distance from the query point to `point`, scene units (0 inside a solid shape). */
  distance: number;
  /** True when the query point is inside the shape or on its boundary. */
  inside: boolean;
  /** For a triangle mesh, the index of the triangle holding `point`; −1 for other shapes. */
  triangle?: number;
}

/** A new zeroed projection (allocates). */
export function makePointProjection(): PointProjection {
  return { point: vec3.create(), distance: 0, inside: false, triangle: -1 };
}

/**
 * Throws `CollideError("unsupported_pair")` for a shape type that query `op` cannot answer
 * (shared by the shape-level queries of this folder).
 */
export function unsupportedShape(shape: { type: number }, op: string): never {
  const name = SHAPE_TYPE_NAMES[shape.type] ?? String(shape.type);
  throw new CollideError("unsupported_pair", "", name, `${op} is not supported for ${name}`);
}

const q = vec3.create();
const t1 = vec3.create();
const t2 = vec3.create();
const t3 = vec3.create();
const basisU = vec3.create();
const meshQuery = makeMeshPointQuery();
const basisV = vec3.create();

/**
 * Writes to `out` the projection of the local point `p` onto `shape` in its own frame
 * (out.point local). Allocation free. Throws `unsupported_pair` for a shape type it cannot
 * answer.
 */
export function projectPointLocal(
  out: PointProjection,
  shape: Shape,
  p: Vec3,
  solid: boolean,
): PointProjection {
  if (out.triangle !== undefined) out.triangle = -1;
  if (shape.type === ShapeType.Compound || shape.type === ShapeType.Heightfield)
    return projectPointComposite(out, shape, p, solid);
  switch (shape.type) {
    case ShapeType.Sphere:
      return projectOnBall(out, p, vec3.set(t1, 0, 0, 0), shape.radius, null, solid);
    case ShapeType.Cuboid:
      return projectCuboid(out, shape, p, solid);
    case ShapeType.Capsule:
      return projectCapsule(out, shape, p, solid);
    case ShapeType.Cylinder:
      return projectCylinder(out, shape, p, solid);
    case ShapeType.Cone:
      return projectCone(out, shape, p, solid);
    case ShapeType.ConvexPolyhedron:
      return projectConvexPolyhedron(out, shape, p, solid);
    case ShapeType.TriangleMesh: {
      // Closest triangle through the BVH; inside only for a solid mesh (a surface has no
      // inside), by the angle-weighted pseudo-normal of the closest feature
      // (src/query/mesh-distance.ts).
      closestPointOnMesh(meshQuery, shape, p);
      out.inside = shape.solid && meshQuery.inside;
      out.triangle = meshQuery.triangle;
      if (meshQuery.triangle < 0) {
        // No triangles: nothing to project onto; the point stays where it is, infinitely far.
        vec3.copy(out.point, p);
        out.distance = Infinity;
      } else if (out.inside && solid) {
        vec3.copy(out.point, p);
        out.distance = 0;
      } else {
        vec3.copy(out.point, meshQuery.point);
        out.distance = meshQuery.distance;
      }
      return out;
    }
    case ShapeType.HalfSpace: {
      // The plane n·p = offset bounds the solid side n·p ≤ offset (Ericson 2005, §5.1.1).
      const s = vec3.dot(shape.normal, p) - shape.offset;
      out.inside = s <= 0;
      if (out.inside && solid) {
        vec3.copy(out.point, p);
        out.distance = 0;
      } else {
        vec3.addScaled(out.point, p, shape.normal, -s);
        out.distance = Math.abs(s);
      }
      return out;
    }
    case ShapeType.Triangle: {
      // Flat: "inside" means on the triangle, up to the rounding of the closest point.
      closestPointOnTriangle(out.point, p, shape.a, shape.b, shape.c);
      out.distance = vec3.distance(p, out.point);
      const size = Math.max(
        vec3.length(shape.a),
        vec3.length(shape.b),
        vec3.length(shape.c),
        vec3.length(p),
      );
      out.inside = out.distance <= GJK_ROUNDING_TOLERANCE * size;
      if (out.inside) {
        vec3.copy(out.point, p);
        out.distance = 0;
      }
      return out;
    }
    case ShapeType.RoundedCuboid:
    case ShapeType.RoundedConvexPolyhedron:
      return projectRounded(out, shape.core, shape.radius, p, solid);
  }
  return unsupportedShape(shape, "projectPoint");
}

const roundedDir = vec3.create();

/**
 * Projection onto a rounded shape: the core `core` swept by a ball of `radius` (Ericson 2005,
 * §5.1: the closest point of a sphere-swept volume is the core's closest point moved by the
 * radius toward the query point). Outside the core, the core's closest point q at distance d:
 * inside when d ≤ radius, the surface point q + radius·(p − q)/d. Inside the core (hollow
 * query), the core's nearest boundary point q at depth d moved on outward: q + radius·(q − p)/d,
 * at distance d + radius (the rounded face over a core face is that face moved by the radius).
 */
function projectRounded(
  out: PointProjection,
  core: Shape,
  radius: number,
  p: Vec3,
  solid: boolean,
): PointProjection {
  projectPointLocal(out, core, p, false);
  const d = out.distance;
  if (!out.inside) {
    out.inside = d <= radius;
    if (out.inside && solid) {
      vec3.copy(out.point, p);
      out.distance = 0;
      return out;
    }
    vec3.sub(roundedDir, p, out.point);
    vec3.scale(roundedDir, roundedDir, 1 / d);
    vec3.addScaled(out.point, out.point, roundedDir, radius);
    out.distance = Math.abs(d - radius);
    return out;
  }
  out.inside = true;
  if (solid) {
    vec3.copy(out.point, p);
    out.distance = 0;
    return out;
  }
  if (d > 0) {
    vec3.sub(roundedDir, out.point, p);
    vec3.scale(roundedDir, roundedDir, 1 / d);
  } else vec3.set(roundedDir, 0, 0, 0);
  vec3.addScaled(out.point, out.point, roundedDir, radius);
  out.distance = d + radius;
  return out;
}

/** Scratch of one composite level of a projection. */
interface ProjectLevel {
  hits: MeshBvhHits;
  part: CompositePart;
  local: Vec3;
  best: PointProjection;
  one: PointProjection;
  found: boolean;
  inside: boolean;
}
const projectLevels: ProjectLevel[] = [];
let projectDepth = 0;

/**
 * Projection onto a composite through its view (src/shapes/composite.ts): the nearest of the
 * parts' projections, each in its part's frame. `inside` when the point is inside (or on) some
 * part; a solid composite then projects the point onto itself. Hollow (`solid` false), the
 * answer is the nearest point of the parts' surfaces.
 */
function projectPointComposite(
  out: PointProjection,
  shape: Shape,
  p: Vec3,
  solid: boolean,
): PointProjection {
  const view = compositeView(shape.type) as CompositeView;
  while (projectLevels.length <= projectDepth) {
    projectLevels.push({
      hits: makeMeshBvhHits(16),
      part: makeCompositePart(),
      local: vec3.create(),
      best: makePointProjection(),
      one: makePointProjection(),
      found: false,
      inside: false,
    });
  }
  const l = projectLevels[projectDepth++];
  try {
    // A growing box around p: once some part lies within distance d ≤ the box's half side r,
    // every part as near as d overlaps the box of half side d, and that box's parts give the
    // answer (the same as scanning every part, ties included), so far parts are never projected.
    aabbOf(projectBounds, shape, PROJECT_IDENTITY);
    const lo = projectBounds.min;
    const hi = projectBounds.max;
    const gap = Math.max(lo.x - p.x, p.x - hi.x, lo.y - p.y, p.y - hi.y, lo.z - p.z, p.z - hi.z);
    const side = Math.max(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z);
    let r = Math.max(gap, side / PROJECT_START_FRACTION);
    if (!(r > 0 && Number.isFinite(r))) r = Infinity;
    for (let k = 0; ; k++) {
      if (nearestPart(l, view, shape, p, solid, r) && l.best.distance <= r) break;
      if (r === Infinity) break;
      r = k >= PROJECT_MAX_GROWTHS ? Infinity : l.found ? l.best.distance : 4 * r;
    }
    out.inside = l.inside;
    if (l.inside && solid) {
      vec3.copy(out.point, p);
      out.distance = 0;
    } else {
      vec3.copy(out.point, l.best.point);
      out.distance = l.best.distance;
    }
    return out;
  } finally {
    projectDepth--;
  }
}

/** Growths of the projection's box before it takes every part. */
const PROJECT_MAX_GROWTHS = 24;
/** The projection's first box: 1/16 of the composite's largest side (or the gap to its box). */
const PROJECT_START_FRACTION = 16;
const projectBounds: Aabb = { min: vec3.create(), max: vec3.create() };
const PROJECT_IDENTITY = iso.identity();

/**
 * The nearest part projection among the parts in the box of half side `r` around p, into
 * `l.best` (`l.found`, `l.inside` set); false when the box holds no part.
 */
function nearestPart(
  l: ProjectLevel,
  view: CompositeView,
  shape: Shape,
  p: Vec3,
  solid: boolean,
  r: number,
): boolean {
  const n = view.queryAabb(l.hits, shape, p.x - r, p.y - r, p.z - r, p.x + r, p.y + r, p.z + r);
  let found = false;
  let inside = false;
  for (let h = 0; h < n; h++) {
    view.part(l.part, shape, l.hits.ids[h]);
    if (l.part.hasPose) iso.inverseTransformPoint(l.local, l.part.pose, p);
    else vec3.copy(l.local, p);
    projectPointLocal(l.one, l.part.shape, l.local, solid);
    if (l.part.hasPose) iso.transformPoint(l.one.point, l.part.pose, l.one.point);
    inside = inside || l.one.inside;
    if (found && !(l.one.distance < l.best.distance)) continue;
    found = true;
    vec3.copy(l.best.point, l.one.point);
    l.best.distance = l.one.distance;
  }
  l.found = found;
  l.inside = inside;
  return found;
}

/**
 * Projection onto the ball of `radius` around `c` (a capsule's closest core point when `axis`
 * is its unit axis, else null): the radial direction from c, or, for p = c, any direction
 * perpendicular to the axis.
 */
function projectOnBall(
  out: PointProjection,
  p: Vec3,
  c: Vec3,
  radius: number,
  axis: Vec3 | null,
  solid: boolean,
): PointProjection {
  vec3.sub(t2, p, c);
  let dist = vec3.length(t2);
  if (axis) {
    // On the core segment up to rounding: the direction of p − c is noise (it may even point
    // along the axis), so take a perpendicular one.
    const size = vec3.length(p) + vec3.length(c) + radius;
    if (dist <= GJK_ROUNDING_TOLERANCE * size) {
      dist = 0;
      vec3.set(t2, 0, 0, 0);
    }
  }
  out.inside = dist <= radius;
  if (out.inside && solid) {
    vec3.copy(out.point, p);
    out.distance = 0;
    return out;
  }
  if (vec3.normalize(t2, t2) === 0) {
    if (axis) {
      vec3.orthonormalBasis(basisU, basisV, axis);
      vec3.copy(t2, basisU);
    } else vec3.set(t2, 1, 0, 0);
  }
  vec3.addScaled(out.point, c, t2, radius);
  out.distance = Math.abs(dist - radius);
  return out;
}

function projectCuboid(out: PointProjection, c: Cuboid, p: Vec3, solid: boolean): PointProjection {
  const h = c.halfExtents;
  const inside = Math.abs(p.x) <= h.x && Math.abs(p.y) <= h.y && Math.abs(p.z) <= h.z;
  out.inside = inside;
  if (!inside) {
    vec3.set(
      out.point,
      Math.min(Math.max(p.x, -h.x), h.x),
      Math.min(Math.max(p.y, -h.y), h.y),
      Math.min(Math.max(p.z, -h.z), h.z),
    );
    out.distance = vec3.distance(p, out.point);
    return out;
  }
  vec3.copy(out.point, p);
  if (solid) {
    out.distance = 0;
    return out;
  }
  // Hollow from inside: push to the nearest face (first axis on ties).
  let best = 0;
  let bestGap = Infinity;
  for (let i = 0; i < 3; i++) {
    const gap = vec3.getAxis(h, i) - Math.abs(vec3.getAxis(p, i));
    if (gap < bestGap) {
      bestGap = gap;
      best = i;
    }
  }
  const pi = vec3.getAxis(p, best);
  vec3.setAxis(out.point, best, pi < 0 ? -vec3.getAxis(h, best) : vec3.getAxis(h, best));
  out.distance = bestGap;
  return out;
}

function projectCapsule(
  out: PointProjection,
  c: Capsule,
  p: Vec3,
  solid: boolean,
): PointProjection {
  closestPointOnSegment(q, p, c.a, c.b);
  vec3.sub(t3, c.b, c.a);
  const axis = vec3.normalize(t3, t3) > 0 ? t3 : null;
  return projectOnBall(out, p, q, c.radius, axis, solid);
}

/** Azimuth of p about the local Y axis as a unit (x, 0, z) in t1; (1, 0, 0) on the axis. */
function azimuth(p: Vec3): number {
  // Rescaled by the larger component first, so that subnormal coordinates stay unit.
  const m = Math.max(Math.abs(p.x), Math.abs(p.z));
  if (!(m > 0)) {
    vec3.set(t1, 1, 0, 0);
    return 0;
  }
  const x = p.x / m;
  const z = p.z / m;
  const l = hypot2(x, z);
  vec3.set(t1, x / l, 0, z / l);
  return m * l;
}

/** out.point = the profile point (ρ, y) rotated back to the azimuth in t1. */
function fromProfile(out: PointProjection, rho: number, y: number): void {
  vec3.set(out.point, rho * t1.x, y, rho * t1.z);
}

function projectCylinder(
  out: PointProjection,
  c: Cylinder,
  p: Vec3,
  solid: boolean,
): PointProjection {
  const rho = azimuth(p);
  const h = c.halfHeight;
  const r = c.radius;
  const inside = rho <= r && Math.abs(p.y) <= h;
  out.inside = inside;
  if (inside && solid) {
    vec3.copy(out.point, p);
    out.distance = 0;
    return out;
  }
  if (!inside) {
    fromProfile(out, Math.min(rho, r), Math.min(Math.max(p.y, -h), h));
    out.distance = vec3.distance(p, out.point);
    return out;
  }
  const sideGap = r - rho;
  const capGap = h - Math.abs(p.y);
  if (sideGap <= capGap) {
    fromProfile(out, r, p.y);
    out.distance = sideGap;
  } else {
    fromProfile(out, rho, p.y < 0 ? -h : h);
    out.distance = capGap;
  }
  return out;
}

const prof = vec3.create();
const apex2 = vec3.create();
const rim2 = vec3.create();
const base2 = vec3.create();
const c2a = vec3.create();
const c2b = vec3.create();

function projectCone(out: PointProjection, c: Cone, p: Vec3, solid: boolean): PointProjection {
  const rho = azimuth(p);
  const h = c.halfHeight;
  const r = c.radius;
  // The profile triangle in the (ρ, y) half-plane, embedded as (ρ, y, 0).
  vec3.set(prof, rho, p.y, 0);
  vec3.set(apex2, 0, h, 0);
  vec3.set(rim2, r, -h, 0);
  vec3.set(base2, 0, -h, 0);
  // Inside: below the side line ρ = r·(h − y)/(2h), above the base.
  const inside = p.y >= -h && p.y <= h && 2 * h * rho <= r * (h - p.y);
  out.inside = inside;
  if (inside && solid) {
    vec3.copy(out.point, p);
    out.distance = 0;
    return out;
  }
  if (!inside) {
    closestPointOnTriangle(c2a, prof, apex2, rim2, base2);
  } else {
    // Hollow from inside: the nearer of the side and the base (the axis is not boundary).
    closestPointOnSegment(c2a, prof, apex2, rim2);
    closestPointOnSegment(c2b, prof, rim2, base2);
    if (vec3.distanceSq(c2b, prof) < vec3.distanceSq(c2a, prof)) vec3.copy(c2a, c2b);
  }
  fromProfile(out, Math.max(0, c2a.x), c2a.y);
  out.distance = vec3.distance(p, out.point);
  return out;
}

/**
 * Whether `p` (on the plane of the flat polygon `c`) is inside or on every side of it: the side
 * planes through its edges, outward normals (b − a) × n for face 0's counter-clockwise loop.
 */
function insideFlatSides(c: ConvexPolyhedron, p: Vec3): boolean {
  const v = c.vertices;
  const loop = c.faceVertices;
  const count = c.faceOffsets[1];
  const nx = c.faceNormals[0];
  const ny = c.faceNormals[1];
  const nz = c.faceNormals[2];
  for (let k = 0; k < count; k++) {
    const a = 3 * loop[k];
    const b = 3 * loop[k + 1 < count ? k + 1 : 0];
    const ex = v[b] - v[a];
    const ey = v[b + 1] - v[a + 1];
    const ez = v[b + 2] - v[a + 2];
    const s =
      (ey * nz - ez * ny) * (p.x - v[a]) +
      (ez * nx - ex * nz) * (p.y - v[a + 1]) +
      (ex * ny - ey * nx) * (p.z - v[a + 2]);
    if (s > 0) return false;
  }
  return true;
}

function projectConvexPolyhedron(
  out: PointProjection,
  c: ConvexPolyhedron,
  p: Vec3,
  solid: boolean,
): PointProjection {
  const n = c.faceNormals;
  const off = c.facePlaneOffsets;
  const faces = off.length;
  let maxSep = -Infinity;
  let maxFace = 0;
  for (let f = 0; f < faces; f++) {
    const sep = n[3 * f] * p.x + n[3 * f + 1] * p.y + n[3 * f + 2] * p.z - off[f];
    if (sep > maxSep) {
      maxSep = sep;
      maxFace = f;
    }
  }
  // A flat polygon's two planes coincide: a point on them is inside only within its sides.
  const inside = maxSep <= 0 && (!c.flat || insideFlatSides(c, p));
  out.inside = inside;
  if (inside) {
    if (solid) {
      vec3.copy(out.point, p);
      out.distance = 0;
      return out;
    }
    // The nearest face plane of an interior point is touched inside that face.
    vec3.set(t2, n[3 * maxFace], n[3 * maxFace + 1], n[3 * maxFace + 2]);
    vec3.addScaled(out.point, p, t2, -maxSep);
    out.distance = -maxSep;
    return out;
  }
  // Outside: the nearest point over the faces' fan triangles.
  const v = c.vertices;
  const fo = c.faceOffsets;
  const fv = c.faceVertices;
  let best = Infinity;
  for (let f = 0; f < faces; f++) {
    const i0 = fv[fo[f]];
    vec3.set(t1, v[3 * i0], v[3 * i0 + 1], v[3 * i0 + 2]);
    for (let k = fo[f] + 1; k + 1 < fo[f + 1]; k++) {
      const i1 = fv[k];
      const i2 = fv[k + 1];
      vec3.set(t2, v[3 * i1], v[3 * i1 + 1], v[3 * i1 + 2]);
      vec3.set(t3, v[3 * i2], v[3 * i2 + 1], v[3 * i2 + 2]);
      closestPointOnTriangle(q, p, t1, t2, t3);
      const d2 = vec3.distanceSq(p, q);
      if (d2 < best) {
        best = d2;
        vec3.copy(out.point, q);
      }
    }
  }
  out.distance = vec3.distance(p, out.point);
  return out;
}

const pLocal = vec3.create();

/**
 * Projection of the world point `point` onto `shape` at world pose `pose`, written to `out`
 * (world frame; no allocation, no validation — the hot-path form of {@link projectPoint}).
 */
export function projectPointShape(
  out: PointProjection,
  shape: Shape,
  pose: Isometry,
  point: Vec3,
  solid: boolean,
): PointProjection {
  iso.inverseTransformPoint(pLocal, pose, point);
  projectPointLocal(out, shape, pLocal, solid);
  if (out.inside && solid) vec3.copy(out.point, point);
  else iso.transformPoint(out.point, pose, out.point);
  return out;
}

/**
 * The point of `shape` (at world `pose`) closest to the world point `point`: `{point, distance,
 * inside}` in the world frame. With `solid` (default) a point inside projects onto itself with
 * distance 0; with `solid: false` onto the nearest point of the boundary even from inside.
 * `inside` tells whether `point` is inside (boundary included). Throws `CollideError`
 * (`invalid_value`) for a non-finite point or a bad pose, or naming the shape field
 * (`shape.radius`, …) when the answer would hold a NaN (src/query/guard.ts); `unsupported_pair`
 * for a shape type without a projection. Sources: Ericson 2005, §5.1.
 */
export function projectPoint(
  shape: Shape,
  pose: Isometry,
  point: Vec3,
  solid = true,
  out: PointProjection = makePointProjection(),
): PointProjection {
  checkShapeArg("shape", shape);
  checkVec3("point", point);
  checkPose("pose", pose);
  checkOffset("point", point, pose.translation, "pose.translation");
  projectPointShape(out, shape, pose, point, solid);
  if (Number.isNaN(out.distance) || hasNaN3(out.point)) {
    refuseBadInputs("projectPoint", [["shape", shape]], [["pose", pose]], [["point", point]]);
  }
  return out;
}

/** The answers of {@link projectPoints}, one entry per query point (arrays reused when given). */
export interface PointProjections {
  /** Closest points of the mesh, packed xyz, world frame. */
  points: Float64Array;
  /** Signed distances: positive outside, negative inside a closed mesh (scene units). */
  signedDistances: Float64Array;
  /** Index of the closest triangle per point. */
  triangles: Int32Array;
}

const batchLocal = vec3.create();
const batchWorld = vec3.create();

/**
 * Batch signed distance of many points to a triangle mesh (particles against a closed mesh):
 * for each point of `points` (packed xyz, world frame) the closest point of `mesh` at `pose`,
 * the signed distance (negative inside a closed mesh, by the angle-weighted pseudo-normal;
 * positive everywhere for an open one) and the closest triangle's index, written to `out`'s
 * arrays when they are long enough (else new arrays). The per-point work allocates nothing.
 * Throws `CollideError` (`invalid_value`) for a shape that is not a triangle mesh, a mesh
 * without triangles, a bad pose, `points` not a Float64Array of 3n finite numbers (naming
 * `points[i]`). Source: Bærentzen & Aanæs 2005.
 */
export function projectPoints(
  mesh: TriangleMesh,
  pose: Isometry,
  points: Float64Array,
  out?: PointProjections,
): PointProjections {
  checkShapeArg("mesh", mesh);
  if (mesh.type !== ShapeType.TriangleMesh)
    invalidValue("mesh.type", SHAPE_TYPE_NAMES[mesh.type] ?? mesh.type, "must be a triangle mesh");
  if (mesh.triangleCount === 0) invalidValue("mesh.triangleCount", 0, "must be > 0");
  checkPose("pose", pose);
  if (!(points instanceof Float64Array) || points.length % 3 !== 0)
    invalidValue("points", points, "must be a Float64Array of packed xyz (length a multiple of 3)");
  const n = points.length / 3;
  for (let i = 0; i < points.length; i++) {
    if (!Number.isFinite(points[i])) invalidValue(`points[${i}]`, points[i], "must be finite");
  }
  const r: PointProjections = {
    points: out && out.points.length >= 3 * n ? out.points : new Float64Array(3 * n),
    signedDistances:
      out && out.signedDistances.length >= n ? out.signedDistances : new Float64Array(n),
    triangles: out && out.triangles.length >= n ? out.triangles : new Int32Array(n),
  };
  for (let i = 0; i < n; i++) {
    vec3.set(batchWorld, points[3 * i], points[3 * i + 1], points[3 * i + 2]);
    iso.inverseTransformPoint(batchLocal, pose, batchWorld);
    closestPointOnMesh(meshQuery, mesh, batchLocal);
    iso.transformPoint(batchWorld, pose, meshQuery.point);
    r.points[3 * i] = batchWorld.x;
    r.points[3 * i + 1] = batchWorld.y;
    r.points[3 * i + 2] = batchWorld.z;
    r.signedDistances[i] = meshQuery.inside ? -meshQuery.distance : meshQuery.distance;
    r.triangles[i] = meshQuery.triangle;
  }
  return r;
}
