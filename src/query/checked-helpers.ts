/**
 * The public, argument-checked forms of shape helpers that the library also calls internally on
 * hot paths (the world step, the mesh ray walk, the mesh narrow phase): `aabbShape` and the
 * triangle mesh's `getMeshTriangle`, `meshTriangleNormal`, `windingNumberTriangleMesh` and
 * `containsPointTriangleMesh`. The main entry exports these; library code keeps calling the
 * unchecked routines of src/shapes/registry.ts and src/shapes/triangle-mesh.ts, so the checks
 * cost nothing inside a step. Each check throws a `CollideError` naming the argument and its
 * value, with the validators and messages of the queries (src/query/frames.ts,
 * src/shapes/validate.ts); the valid case allocates nothing.
 */
import { invalidValue } from "../errors.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { unitScale } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import {
  aabbShape as aabbShapeUnchecked,
  supportShape as supportShapeUnchecked,
} from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import { type Shape, ShapeType, shapeTypeName } from "../shapes/shape.js";
import { isSupportMappedType } from "../shapes/shape-def.js";
import {
  containsPointTriangleMesh as containsUnchecked,
  getMeshTriangle as getTriangleUnchecked,
  type TriangleMesh,
  meshTriangleNormal as triangleNormalUnchecked,
  windingNumberTriangleMesh as windingUnchecked,
} from "../shapes/triangle-mesh.js";
import { checkObject, checkVec3 } from "../shapes/validate.js";
import { checkOffset, checkPose, checkShapeArg } from "./frames.js";

const unitPoseScratch = iso.identity();
const boxLo = { x: 0, y: 0, z: 0 };
const boxHi = { x: 0, y: 0, z: 0 };

/** Throws `CollideError` naming `field` unless `mesh` is a triangle mesh made by makeTriangleMesh. */
function checkMeshArg(field: string, mesh: TriangleMesh): void {
  checkShapeArg(field, mesh);
  if (mesh.type !== ShapeType.TriangleMesh) {
    // Quoted by name ("sphere"), as every message names a shape's kind, never its type number.
    invalidValue(
      `${field}.type`,
      shapeTypeName(mesh.type),
      'must be "mesh" (ShapeType.TriangleMesh, a triangle mesh)',
    );
  }
}

/** Throws `CollideError` unless `t` is an integer triangle index of `mesh`. */
function checkTriangleIndex(mesh: TriangleMesh, t: number): void {
  if (!(Number.isInteger(t) && t >= 0 && t < mesh.triangleCount)) {
    invalidValue("triangle", t, `must be an integer in [0, ${mesh.triangleCount})`);
  }
}

/**
 * Throws `CollideError` naming `point` when its offset from a corner of the mesh's box overflows
 * double precision (a point at 1e308 and a vertex at −1e308): the winding number's corner
 * offsets would be infinite and its solid angles NaN. Both corners' offsets finite bound every
 * vertex's.
 */
function checkMeshOffset(mesh: TriangleMesh, p: Vec3): void {
  if (mesh.bvh.nodeCount === 0) return;
  const b = mesh.bvh.bounds;
  boxLo.x = b[0];
  boxLo.y = b[1];
  boxLo.z = b[2];
  boxHi.x = b[3];
  boxHi.y = b[4];
  boxHi.z = b[5];
  checkOffset("point", p, boxLo, "the mesh's vertices");
  checkOffset("point", p, boxHi, "the mesh's vertices");
}

/**
 * out = the tight world AABB of shape `s` placed at `pose`; returns `out`. A rotation within the
 * tolerance of unit length is used normalised (docs/FORMATS.md). Throws `CollideError` naming
 * the argument for an invalid shape (`shape`), a pose with a non-finite translation or a
 * rotation that is not a unit quaternion (`pose.translation`, `pose.rotation`: the zero
 * quaternion too), or an `out` that is not an `{min, max}` box of objects.
 */
export function aabbShape(out: Aabb, s: Shape, pose: Isometry): Aabb {
  checkShapeArg("shape", s);
  pose = iso.unitPose(unitPoseScratch, pose);
  checkPose("pose", pose);
  checkObject("out", out);
  checkObject("out.min", out.min);
  checkObject("out.max", out.max);
  return aabbShapeUnchecked(out, s, pose);
}

/**
 * out = the support point of convex shape `s` along direction `dir` (both in the shape's local
 * frame, scene units; `dir` any length — a zero `dir` gives some point of the shape): the point of
 * `s` farthest along `dir` (Ericson 2005, §9.5 "support mapping"; GJK's building block). Returns
 * `out`. Throws `CollideError` for a shape without a support function (`s`: a mesh, heightfield,
 * compound or half-space, named by kind), a `dir` that is not finite (`dir`), or an `out` that is
 * not an object (`out`).
 */
export function supportShape(out: Vec3, s: ConvexShape, dir: Vec3): Vec3 {
  checkShapeArg("s", s);
  if (!isSupportMappedType(s.type))
    invalidValue(
      "s",
      shapeTypeName(s.type),
      "has no support function (a convex shape: sphere, box, capsule, cylinder, cone, hull, triangle, rounded shape)",
    );
  checkVec3("dir", dir);
  checkObject("out", out);
  // A direction's length only sets the answer's sign pattern: one far from unit length (a
  // subnormal's squared length underflowed to 0, giving Infinity) is scaled by a power of two.
  const m = Math.max(Math.abs(dir.x), Math.abs(dir.y), Math.abs(dir.z));
  if (m > 0 && (m < 2 ** -500 || m > 2 ** 500)) {
    const k = unitScale(m);
    supportDir.x = dir.x * k;
    supportDir.y = dir.y * k;
    supportDir.z = dir.z * k;
    return supportShapeUnchecked(out, s, supportDir);
  }
  return supportShapeUnchecked(out, s, dir);
}

const supportDir: Vec3 = { x: 0, y: 0, z: 0 };

/**
 * Writes the corners of triangle `t` of `mesh` (local frame, in its winding order) into `a`, `b`,
 * `c`. Throws `CollideError` for a `mesh` that is not a triangle mesh, a triangle index that is
 * not an integer in [0, triangleCount) (`triangle`), or an `a`, `b` or `c` that is not an object.
 */
export function getMeshTriangle(mesh: TriangleMesh, t: number, a: Vec3, b: Vec3, c: Vec3): void {
  checkMeshArg("mesh", mesh);
  checkTriangleIndex(mesh, t);
  checkObject("a", a);
  checkObject("b", b);
  checkObject("c", c);
  getTriangleUnchecked(mesh, t, a, b, c);
}

/**
 * out = the unit normal of triangle `t` of `mesh` by its winding ((b − a) × (c − a), local
 * frame); returns the triangle's doubled area, 0 for a degenerate triangle (then `out` is the
 * zero vector). Throws `CollideError` for a `mesh` that is not a triangle mesh, a triangle index
 * that is not an integer in [0, triangleCount) (`triangle`), or an `out` that is not an object.
 */
export function meshTriangleNormal(out: Vec3, mesh: TriangleMesh, t: number): number {
  checkObject("out", out);
  checkMeshArg("mesh", mesh);
  checkTriangleIndex(mesh, t);
  return triangleNormalUnchecked(out, mesh, t);
}

/**
 * The generalized winding number of `mesh` at the local point `p` (Jacobson et al. 2013): for a
 * closed, outward-wound mesh 1 inside, 0 outside, ½ on the surface; for an open mesh a smooth
 * "insideness". O(triangles). Throws `CollideError` for a `mesh` that is not a triangle mesh, a
 * point that is not three finite numbers (`point`), or a point whose offset from the mesh's
 * vertices overflows double precision.
 */
export function windingNumberTriangleMesh(mesh: TriangleMesh, p: Vec3): number {
  checkMeshArg("mesh", mesh);
  checkVec3("point", p);
  checkMeshOffset(mesh, p);
  return windingUnchecked(mesh, p);
}

/**
 * True when the local point `p` is inside `mesh`: its winding number is at least ½ in magnitude
 * (either winding of a closed mesh; for an open mesh the same rounding of its generalized
 * winding number). O(triangles). Throws `CollideError` as {@link windingNumberTriangleMesh}.
 */
export function containsPointTriangleMesh(mesh: TriangleMesh, p: Vec3): boolean {
  checkMeshArg("mesh", mesh);
  checkVec3("point", p);
  checkMeshOffset(mesh, p);
  return containsUnchecked(mesh, p);
}
