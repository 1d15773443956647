/** The `intersects` query: do two posed shapes overlap or touch? */
import { UNIT_QUATERNION_TOLERANCE } from "../constants.js";
import type { Isometry } from "../math/isometry.js";
import { intersectsPair } from "../narrowphase/dispatch.js";
import type { Cuboid } from "../shapes/cuboid.js";
import { isBrandedShape, type Shape, ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import { isShapeFinite } from "../shapes/validate.js";
import { pairPose, poseOk, relativePose } from "./frames.js";
import { refusePair } from "./guard.js";

const UNIT_SQ_MIN = (1 - UNIT_QUATERNION_TOLERANCE) ** 2;
const UNIT_SQ_MAX = (1 + UNIT_QUATERNION_TOLERANCE) ** 2;

/**
 * True when shape `a` at world pose `poseA` and shape `b` at `poseB` overlap or touch (exact:
 * no slop; touching counts, a gap of 1e-9 is a gap). Poses are translations plus unit
 * quaternions `{x,y,z,w}`. Throws `CollideError`: `invalid_value` naming the argument for a bad pose
 * (non-finite translation, non-unit rotation), or naming the shape field (`a.radius`,
 * `b.halfExtents`, …) when a shape holds a NaN or infinite number — checked after answering
 * (src/query/guard.ts), so a yes/no answer never comes from a NaN comparison;
 * `unsupported_pair` for a pair this version cannot answer. Accuracy (docs/FORMATS.md,
 * "Accuracy"): true whenever the shapes share a point, false when apart by more than 32 ulps of
 * the pair's size (L·2⁻⁴⁷); agrees with `distance` = 0 and a non-null `contact`.
 */
export function intersects(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): boolean {
  // Sphere–box, the commonest pair, in the world frame: one inverse rotation, no relative pose.
  if (a !== null && typeof a === "object" && b !== null && typeof b === "object") {
    // (Only for constructor-built shapes; a hand-built one is validated on the general path.)
    const built = isBrandedShape(a) && isBrandedShape(b);
    if (built && a.type === ShapeType.Sphere && b.type === ShapeType.Cuboid) {
      const hit = sphereCuboidFast(a, poseA, b, poseB);
      if (hit >= 0) return hit === 1;
      return sphereCuboid(a, poseA, b, poseB, true);
    }
    if (built && a.type === ShapeType.Cuboid && b.type === ShapeType.Sphere) {
      const hit = sphereCuboidFast(b, poseB, a, poseA);
      if (hit >= 0) return hit === 1;
      return sphereCuboid(b, poseB, a, poseA, false);
    }
  }
  return intersectsGeneral(a, poseA, b, poseB);
}

/**
 * The sphere–box answer (1 or 0) straight from the poses, each field read once, validated and
 * passed on as a number (reading them twice, once to validate and once to compute, cost as
 * much as the test itself); −1 when a pose is not a finite translation with a unit quaternion,
 * or the unscaled test cannot tell (below): the caller then takes the validating path.
 */
function sphereCuboidFast(s: Sphere, ps: Isometry, c: Cuboid, pc: Isometry): number {
  if (ps == null || pc == null) return -1;
  const ts = ps.translation;
  const qs = ps.rotation;
  const tc = pc.translation;
  const q = pc.rotation;
  if (ts == null || qs == null || tc == null || q == null) return -1;
  const cx = ts.x;
  const cy = ts.y;
  const cz = ts.z;
  const tx = tc.x;
  const ty = tc.y;
  const tz = tc.z;
  const qx = q.x;
  const qy = q.y;
  const qz = q.z;
  const qw = q.w;
  const sx = qs.x;
  const sy = qs.y;
  const sz = qs.z;
  const sw = qs.w;
  if (
    typeof cx !== "number" ||
    typeof cy !== "number" ||
    typeof cz !== "number" ||
    typeof tx !== "number" ||
    typeof ty !== "number" ||
    typeof tz !== "number" ||
    typeof qx !== "number" ||
    typeof qy !== "number" ||
    typeof qz !== "number" ||
    typeof qw !== "number" ||
    typeof sx !== "number" ||
    typeof sy !== "number" ||
    typeof sz !== "number" ||
    typeof sw !== "number"
  ) {
    return -1;
  }
  // x − x is 0 exactly for finite x (NaN for NaN and ±Infinity); a quaternion field that is not
  // a number makes its squared norm NaN, which fails the range test.
  const finite =
    cx - cx === 0 &&
    cy - cy === 0 &&
    cz - cz === 0 &&
    tx - tx === 0 &&
    ty - ty === 0 &&
    tz - tz === 0;
  const ns = sx * sx + sy * sy + sz * sz + sw * sw;
  const nq = qx * qx + qy * qy + qz * qz + qw * qw;
  if (
    !finite ||
    !(ns >= UNIT_SQ_MIN && ns <= UNIT_SQ_MAX && nq >= UNIT_SQ_MIN && nq <= UNIT_SQ_MAX)
  ) {
    return -1;
  }
  // The centre into the box's frame by conj(q) (quat.inverseRotate's formula), clamped
  // (Ericson 2005, §5.2.5); written out here, since doubles passed to a call V8 does not inline
  // are boxed.
  const h = c.halfExtents;
  const r = s.radius;
  const dx = cx - tx;
  const dy = cy - ty;
  const dz = cz - tz;
  const ux = 2 * (-qy * dz + qz * dy);
  const uy = 2 * (-qz * dx + qx * dz);
  const uz = 2 * (-qx * dy + qy * dx);
  const px = dx + qw * ux + (-qy * uz + qz * uy);
  const py = dy + qw * uy + (-qz * ux + qx * uz);
  const pz = dz + qw * uz + (-qx * uy + qy * ux);
  const ex = Math.max(Math.abs(px) - h.x, 0);
  const ey = Math.max(Math.abs(py) - h.y, 0);
  const ez = Math.max(Math.abs(pz) - h.z, 0);
  const d2 = ex * ex + ey * ey + ez * ez;
  const r2 = r * r;
  // With r² in [2^-256, 2^256] the comparison of squares is the one of power-of-two rescaled
  // units (a square that overflows is far beyond r², one that underflows far below); outside
  // it, or with a NaN, the caller takes the rescaling, validating path.
  if (r2 >= SPHERE_BOX_R2_MIN && r2 <= SPHERE_BOX_R2_MAX) {
    if (d2 <= r2) return 1;
    if (d2 > r2) return 0;
  }
  return -1;
}

/** Smallest r² the unscaled sphere–box test trusts (2^-256). */
const SPHERE_BOX_R2_MIN = 2 ** -256;
/** Largest r² the unscaled sphere–box test trusts (2^256). */
const SPHERE_BOX_R2_MAX = 2 ** 256;

/** Every pair but the world-frame sphere–box path, through the dispatch table. */
function intersectsGeneral(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): boolean {
  const hit = intersectsPair(a, b, pairPose(a, poseA, b, poseB));
  // The deciding comparisons are the pair routine's: NaN makes them false (or, negated, true),
  // so the answer stands only when both shapes are finite.
  if (isShapeFinite(a) && isShapeFinite(b)) return hit;
  return refusePair("intersects", a, poseA, b, poseB);
}

/**
 * Sphere `s` at `ps` against box `c` at `pc` when the fast path could not answer: a bad pose is
 * refused by the general path's checks, a shape far from unit scale answered in rescaled units,
 * a non-finite shape refused. `sphereIsA` tells which was the caller's `a` (for the names in
 * the errors).
 */
function sphereCuboid(
  s: Sphere,
  ps: Isometry,
  c: Cuboid,
  pc: Isometry,
  sphereIsA: boolean,
): boolean {
  if (!poseOk(ps) || !poseOk(pc)) {
    return sphereIsA ? intersectsGeneral(s, ps, c, pc) : intersectsGeneral(c, pc, s, ps);
  }
  const ts = ps.translation;
  const tc = pc.translation;
  const h = c.halfExtents;
  const m = Math.max(
    s.radius,
    Math.abs(h.x),
    Math.abs(h.y),
    Math.abs(h.z),
    Math.abs(tc.x - ts.x),
    Math.abs(tc.y - ts.y),
    Math.abs(tc.z - ts.z),
  );
  return sphereCuboidRescaled(s, ps, c, pc, sphereIsA, m);
}

/**
 * The sphere–box pair far from unit scale (magnitude `m`), answered by the dispatch in rescaled
 * units (src/narrowphase/extreme-scale.ts), or refused when `m` is NaN or a shape is not finite.
 * Kept out of {@link sphereCuboid} so that the fast path stays small.
 */
function sphereCuboidRescaled(
  s: Sphere,
  ps: Isometry,
  c: Cuboid,
  pc: Isometry,
  sphereIsA: boolean,
  m: number,
): boolean {
  const hit = !Number.isNaN(m) && intersectsPair(s, c, relativePose(ps, pc));
  if (isShapeFinite(s) && isShapeFinite(c)) return hit;
  return sphereIsA
    ? refusePair("intersects", s, ps, c, pc)
    : refusePair("intersects", c, pc, s, ps);
}
