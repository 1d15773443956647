/**
 * A far shape's centred copy for `overlapVolume` (src/query/overlap-volume.ts; issue 16,
 * fresh-user finding 44/03): a `solid: true` triangle mesh, a convex hull or a rounded hull
 * whose coordinates
 * lie far from its frame's origin for its size (a 12-triangle box mesh given at world
 * coordinates 2^30 with an identity pose) had every route work at that magnitude: the convex
 * solid mesh's shell (its γ and ε, a few ulps of 2^30 times its surface) and the chords' ε-slab
 * (2^-42 of the pair's magnitude) grew past the tolerance, and a rounded box half-sunk in its face
 * fell to the octree: 33 s of CPU for 1.5 %, where the same mesh placed at 2^30 by a pose took
 * 18 ms to 0.08 %. Such a shape is answered as its copy moved by −c, c the grid centre of its box
 * (src/geometry/far-centre.ts: every moved coordinate exact, checked), placed by its pose moved
 * by c: the translation t + R·c. That sum is exact for an unrotated pose whose t + c is (TwoSum),
 * the common case of a shape given in world coordinates; otherwise it rounds by at most δ
 * (below), which moves the shape by δ and the volume by at most δ times its surface area: the
 * caller widens the bound by that. The copy is made once per shape and kept.
 */

import { twoSumError } from "../geometry/far-centre.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import { farCentredCopy } from "../shapes/far-frame.js";
import { makeRoundedConvexPolyhedron, type RoundedConvexPolyhedron } from "../shapes/rounded.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { centredMesh } from "./project-point.js";

/** A far shape's centred copy, its centre (frame coordinates) and a bound on its surface area. */
export interface FarCentred {
  readonly shape: Shape;
  readonly centre: Vec3;
  /** At least the surface area of the shape (scene units²), rounded up. */
  readonly area: number;
}

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;

const kept = new WeakMap<Shape, FarCentred | null>();
const IDENTITY: Isometry = {
  translation: { x: 0, y: 0, z: 0 },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
};

/**
 * The centred copy of a far solid triangle mesh, convex hull or rounded hull (module doc), or
 * null for any
 * other shape or one that is not far (a surface mesh: no volume, answered before).
 */
export function farCentredSolid(s: Shape): FarCentred | null {
  if (
    s.type !== ShapeType.TriangleMesh &&
    s.type !== ShapeType.ConvexPolyhedron &&
    s.type !== ShapeType.RoundedConvexPolyhedron
  )
    return null;
  const k = kept.get(s);
  if (k !== undefined) return k;
  let r: FarCentred | null = null;
  if (s.type === ShapeType.TriangleMesh) {
    const mesh = s as TriangleMesh;
    const c = mesh.solid ? centredMesh(mesh) : null;
    if (c !== null) r = { shape: c.copy, centre: c.centre, area: meshArea(c.copy) };
  } else if (s.type === ShapeType.ConvexPolyhedron) {
    const centre = vec3.create();
    const copy = farCentredCopy(centre, s, IDENTITY);
    if (copy !== null)
      r = { shape: copy, centre, area: boxArea((copy as ConvexPolyhedron).vertices, 0) };
  } else {
    // A rounded hull: its core's centred copy, rounded by the same radius.
    const rounded = s as RoundedConvexPolyhedron;
    const centre = vec3.create();
    const core = farCentredCopy(centre, rounded.core, IDENTITY) as ConvexPolyhedron | null;
    if (core !== null) {
      const shape = makeRoundedConvexPolyhedron(core.vertices, rounded.radius);
      r = { shape, centre, area: boxArea(core.vertices, rounded.radius) };
    }
  }
  kept.set(s, r);
  return r;
}

/**
 * Writes to `out` the pose of the centred copy: `pose` moved by its centre c (translation
 * t + R·c, rotation R, as `iso.multiply` forms them), and returns δ, a bound on how far that
 * translation lies from the exact one ({@link placementRounding}).
 */
export function farCentredPose(out: Isometry, pose: Isometry, c: Vec3): number {
  const q = pose.rotation;
  const t = pose.translation;
  out.rotation.x = q.x;
  out.rotation.y = q.y;
  out.rotation.z = q.z;
  out.rotation.w = q.w;
  const o = out.translation;
  quat.rotate(o, q, c);
  o.x += t.x;
  o.y += t.y;
  o.z += t.z;
  return placementRounding(pose, c, o);
}

/**
 * A bound δ on |o − (t + R·c)| for o = t + R·c as `iso.multiply` rounds it (pose (R, t), c a
 * point of the placed frame): 0 when R is the identity (the rotation of c is then exact) and
 * every sum t + c exact (TwoSum); else, per coordinate, the rotation's roundings (about ten, of
 * terms up to 2|c|: 32u·|c|₁ bounds their Euclidean sum) and its stretch |q|² − 1, and the sums'
 * one rounding each. A shape placed by o instead of the exact
 * point moves by at most δ, its overlap with anything by at most δ times its surface area.
 */
export function placementRounding(pose: Isometry, c: Vec3, o: Vec3): number {
  const q = pose.rotation;
  const t = pose.translation;
  if (
    q.x === 0 &&
    q.y === 0 &&
    q.z === 0 &&
    (q.w === 1 || q.w === -1) &&
    twoSumError(t.x, c.x, o.x) === 0 &&
    twoSumError(t.y, c.y, o.y) === 0 &&
    twoSumError(t.z, c.z, o.z) === 0
  )
    return 0;
  const stretch = Math.abs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1);
  const c1 = Math.abs(c.x) + Math.abs(c.y) + Math.abs(c.z);
  const o1 = Math.abs(o.x) + Math.abs(o.y) + Math.abs(o.z);
  return ((32 * UNIT_ROUNDOFF + 2 * stretch) * c1 + 2 * UNIT_ROUNDOFF * o1) * (1 + 1e-9);
}

/** The surface area of the box `b`, rounded up (at least that of a convex body inside it). */
export function aabbArea(b: Aabb): number {
  const x = b.max.x - b.min.x;
  const y = b.max.y - b.min.y;
  const z = b.max.z - b.min.z;
  return 2 * (x * y + y * z + z * x) * (1 + 1e-9) + Number.MIN_VALUE;
}

/** The sum of the mesh's triangle areas, rounded up. */
function meshArea(m: TriangleMesh): number {
  const v = m.vertices;
  const idx = m.indices;
  let sum = 0;
  for (let t = 0; t < m.triangleCount; t++) {
    const a = 3 * idx[3 * t];
    const b = 3 * idx[3 * t + 1];
    const c = 3 * idx[3 * t + 2];
    const ux = v[b] - v[a];
    const uy = v[b + 1] - v[a + 1];
    const uz = v[b + 2] - v[a + 2];
    const wx = v[c] - v[a];
    const wy = v[c + 1] - v[a + 1];
    const wz = v[c + 2] - v[a + 2];
    sum += 0.5 * Math.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx);
  }
  return sum * (1 + 1e-9) + Number.MIN_VALUE;
}

/**
 * The surface area of the box of packed points grown by `grow` on every side, rounded up (at
 * least that of their hull, or of the hull rounded by `grow`).
 */
function boxArea(v: ArrayLike<number>, grow: number): number {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < v.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], v[i]);
    hi[i % 3] = Math.max(hi[i % 3], v[i]);
  }
  const x = hi[0] - lo[0] + 2 * grow;
  const y = hi[1] - lo[1] + 2 * grow;
  const z = hi[2] - lo[2] + 2 * grow;
  return 2 * (x * y + y * z + z * x) * (1 + 1e-9) + Number.MIN_VALUE;
}
