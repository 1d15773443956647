/**
 * The canonical order of a pair of shapes of one type (issue 16: swapping A and B flips the
 * answer exactly): a leaf module, so that the queries' touching rule and the world can ask it
 * without loading the GJK/EPA pair routine.
 */
import type { Isometry } from "../math/isometry.js";
import type { Compound } from "../shapes/compound.js";
import { type Shape, ShapeType } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";

/** Quaternion components (and translation components, relative) below this decide nothing. */
const CANONICAL_TINY = 2 ** -40;

/**
 * For two shapes of one type: true when (A, B) at `bInA` is the order solved directly, false
 * when the pair is solved as (B, A) at bInA⁻¹ and flipped, so that both orders run the same
 * computation and contact(B, A) is contact(A, B) flipped up to the rounding of the inverse pose
 * (issue 16: flips; GJK's start, EPA's polytope and the refinement's local minimum otherwise
 * depend on the order). Decided by the relative rotation, whose inverse is its conjugate
 * exactly (taken with w ≥ 0: the first clearly non-zero of x, y, z positive), then, for a
 * relative rotation at the identity, by the translation (its inverse then −t): the two orders
 * get complementary answers. Returns 1 (this order), −1 (the other) or 0 (the relative pose is
 * the identity to 2^-40, or a half turn whose axis is normal to the translation: the caller
 * decides by the shapes).
 */
export function canonicalOrder(bInA: Isometry): number {
  // Every component read once and the first-sign rule written out three times: this runs for
  // every same-type pair of a world step, and a double passed to a helper V8 does not inline is
  // boxed (three coordinates per call: 16.7 KB per step in the steady-state probe once).
  const q = bInA.rotation;
  const t = bInA.translation;
  const qx = q.x;
  const qy = q.y;
  const qz = q.z;
  const tx = t.x;
  const ty = t.y;
  const tz = t.z;
  const m = CANONICAL_TINY * Math.max(Math.abs(tx), Math.abs(ty), Math.abs(tz));
  // The sign of the first of q.x, q.y, q.z whose magnitude exceeds CANONICAL_TINY (0 when none).
  const qv =
    Math.abs(qx) > CANONICAL_TINY
      ? qx
      : Math.abs(qy) > CANONICAL_TINY
        ? qy
        : Math.abs(qz) > CANONICAL_TINY
          ? qz
          : 0;
  const r = qv > 0 ? 1 : qv < 0 ? -1 : 0;
  if (Math.abs(q.w) <= CANONICAL_TINY) {
    // A half turn is its own inverse: the two orders have the same rotation and the sign of w is
    // rounding (it had made a cap-on-cap pair under a half turn take different ties in the two
    // orders). The inverse pose's translation −R⁻¹t = t − 2(t·k)k for the half turn's axis k
    // (sign fixed: its first clearly non-zero component positive; a unit quaternion with w ≈ 0
    // has one) reverses t·k: decide by it (its sign, when its magnitude exceeds m).
    const d = r * (tx * qx + ty * qy + tz * qz);
    const v = Math.abs(d) > m ? d : 0;
    return v > 0 ? 1 : v < 0 ? -1 : 0;
  }
  if (r !== 0) return q.w < 0 ? -r : r;
  // The sign of the first translation component whose magnitude exceeds m.
  const tv = Math.abs(tx) > m ? tx : Math.abs(ty) > m ? ty : Math.abs(tz) > m ? tz : 0;
  return tv > 0 ? 1 : tv < 0 ? -1 : 0;
}

/**
 * For two shapes of one type: true when the queries solve (A, B) at `bInA` as (B, A) and flip
 * the answer — {@link canonicalOrder}, and where the relative pose decides nothing (the identity,
 * or a symmetric half turn) for two meshes or two compounds their data
 * ({@link compositeDataOrder}): the composite mid-phase keeps the first of its tied part pairs
 * in its walk's order, which is not the other order's (issue 16, seed 56: two open box meshes
 * of 3e-5 given concentric, each pair of faces tied at one depth with opposite normals, and each
 * order kept another). Other types decide the identity inside their routines (convex-convex.ts,
 * `solveDirect`; triangle-polytope.ts, `loadOrdered`).
 */
export function sameTypeSwapped(a: Shape, b: Shape, bInA: Isometry): boolean {
  const c = canonicalOrder(bInA);
  if (c !== 0) return c < 0;
  return compositeDataOrder(a, b) > 0;
}

/**
 * The sign of the first difference between the numbers that define composites `a` and `b` of
 * one type — a mesh's vertex count, vertices, then indices; a compound's child count, then each
 * child's type, pose and own numeric fields ({@link fieldOrder}) — 0 when they are equal or not
 * meshes or compounds. Antisymmetric: swapping a and b negates it. Allocation free.
 */
export function compositeDataOrder(a: Shape, b: Shape): number {
  if (a.type === ShapeType.TriangleMesh && b.type === ShapeType.TriangleMesh) {
    const ma = a as TriangleMesh;
    const mb = b as TriangleMesh;
    return arrayOrder(ma.vertices, mb.vertices) || arrayOrder(ma.indices, mb.indices);
  }
  if (a.type !== ShapeType.Compound || b.type !== ShapeType.Compound) return 0;
  const ca = (a as Compound).children;
  const cb = (b as Compound).children;
  if (ca.length !== cb.length) return ca.length < cb.length ? -1 : 1;
  for (let i = 0; i < ca.length; i++) {
    const p = ca[i];
    const q = cb[i];
    const k =
      numberOrder(p.shape.type, q.shape.type) ||
      fieldOrder(p.pose.translation, q.pose.translation) ||
      fieldOrder(p.pose.rotation, q.pose.rotation) ||
      fieldOrder(p.shape, q.shape);
    if (k !== 0) return k;
  }
  return 0;
}

function numberOrder(x: number, y: number): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

function arrayOrder(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/**
 * The first difference of the numeric fields of two objects of one kind (one constructor: the
 * same keys in the same order): numbers, typed arrays, and vectors or quaternions one level
 * down. Other fields (derived caches) are skipped.
 */
function fieldOrder(x: object, y: object): number {
  const rx = x as Record<string, unknown>;
  const ry = y as Record<string, unknown>;
  for (const key in rx) {
    const u = rx[key];
    const v = ry[key];
    if (typeof u === "number" && typeof v === "number") {
      const k = numberOrder(u, v);
      if (k !== 0) return k;
    } else if (ArrayBuffer.isView(u) && ArrayBuffer.isView(v)) {
      const k = arrayOrder(u as unknown as ArrayLike<number>, v as unknown as ArrayLike<number>);
      if (k !== 0) return k;
    } else if (isVector(u) && isVector(v)) {
      const k = fieldOrder(u, v);
      if (k !== 0) return k;
    }
  }
  return 0;
}

/** True for a plain {x, y, z} vector or {x, y, z, w} quaternion. */
function isVector(u: unknown): u is object {
  return typeof u === "object" && u !== null && typeof (u as { x?: unknown }).x === "number";
}
