/**
 * A heightfield's contact normal made exact: the face normal of the triangle under the contact,
 * rotated once into the world, instead of the same direction carried through a chain of frames.
 *
 * The generic composite mid-phase (src/narrowphase/composite.ts) answers a pair against a
 * heightfield in the other shape's frame: a triangle's face normal there is the field's normal
 * rotated by the inverse of the other shape's rotation, and the answer goes back to the world
 * through that rotation — through the pair table's flip too when the heightfield is shape A
 * (src/narrowphase/pair-table.ts). Each rotation rounds, so on a flat field the normal came out
 * one ulp off (0, 1, 0) whenever the other shape was rotated. The normal the routine means is
 * the face normal of the field's triangle; this module restores it: when the world normal lies
 * within {@link HEIGHTFIELD_NORMAL_SNAP} (per component) of ± the world face normal of a triangle
 * touching the contact point on the field, the normal becomes that face normal exactly — for an
 * unrotated field, the triangle's own unit normal ((b − a) × (c − a), normalised: (0, 1, 0) on a
 * flat field), whatever the rotation of the other shape and in either argument order. A normal
 * that is not a face normal (on a ridge or a vertex) is left as it was.
 */
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Heightfield } from "../shapes/heightfield.js";
import { getHeightfieldTriangle, isHeightfieldHole } from "../shapes/heightfield.js";
import type { Shape } from "../shapes/shape.js";

/**
 * Largest per-component difference between a contact normal and a face normal that counts as
 * rounding of the frame changes (a unit vector through three rotations rounds by a few ulps;
 * 2^-46 ≈ 1.4e-14 leaves a margin of about 30).
 */
export const HEIGHTFIELD_NORMAL_SNAP = 2 ** -46;

const local = vec3.create();
const ta = vec3.create();
const tb = vec3.create();
const tc = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const face = vec3.create();
const best = vec3.create();

/**
 * Replaces the world contact normal `normal` by the exact world face normal of heightfield `hf`
 * (at world `pose`) when it is one up to rounding (see the module doc). `point` is the contact's
 * point on the field (world frame); `sign` is +1 when `normal` points out of the field (the field
 * is shape A), −1 when into it (the field is shape B). The triangles tried are those of the
 * cells around the point's cell (3 × 3, holes skipped), so a point on a cell edge or corner
 * finds every triangle that holds it. Allocation free.
 */
export function snapHeightfieldNormal(
  normal: Vec3,
  hf: Shape,
  pose: Isometry,
  point: Vec3,
  sign: number,
): void {
  const h = hf as Heightfield;
  iso.inverseTransformPoint(local, pose, point);
  const cc = h.cols - 1;
  const rc = h.rows - 1;
  const c0 = Math.floor(local.x / h.scale.x);
  const r0 = Math.floor(local.z / h.scale.z);
  if (!(Number.isFinite(c0) && Number.isFinite(r0))) return;
  let bestErr = HEIGHTFIELD_NORMAL_SNAP;
  let found = false;
  for (let r = Math.max(0, r0 - 1); r <= Math.min(rc - 1, r0 + 1); r++) {
    for (let c = Math.max(0, c0 - 1); c <= Math.min(cc - 1, c0 + 1); c++) {
      const cell = r * cc + c;
      if (isHeightfieldHole(h, cell)) continue;
      for (let k = 0; k < 2; k++) {
        getHeightfieldTriangle(h, 2 * cell + k, ta, tb, tc);
        vec3.sub(e1, tb, ta);
        vec3.sub(e2, tc, ta);
        vec3.crossDirection(face, e1, e2); // a field of 2^600 or 2^-300 too
        // Divided by its largest component first, so an axis-aligned normal (a flat cell, at
        // any scale) comes out exactly ±1 along its axis: |y| / √(y²) may round below 1.
        const big = Math.max(Math.abs(face.x), Math.abs(face.y), Math.abs(face.z));
        if (!(big > 0 && big < Number.POSITIVE_INFINITY)) continue;
        vec3.set(face, face.x / big, face.y / big, face.z / big);
        if (!(vec3.normalize(face, face) > 0)) continue;
        iso.transformVector(face, pose, face);
        if (sign < 0) vec3.negate(face, face);
        const err = Math.max(
          Math.abs(normal.x - face.x),
          Math.abs(normal.y - face.y),
          Math.abs(normal.z - face.z),
        );
        if (err <= bestErr) {
          bestErr = err;
          vec3.copy(best, face);
          found = true;
        }
      }
    }
  }
  if (found) vec3.copy(normal, best);
}
