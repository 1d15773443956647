/**
 * The `raycast` query: the first point of a posed shape along a ray origin + t·dir,
 * t ∈ [0, maxToi], in the world frame.
 *
 * The ray is taken into the shape's local frame once (the pose is rigid, so t is unchanged) with
 * its direction normalised, so that every closed form works on a unit direction whatever the
 * caller's scale; the time of impact is then converted back to multiples of `dir` and the hit
 * point computed in the world as origin + toi·dir — from an origin beyond the shape's bounding ball
 * first moved along the ray to just before it (`advanceNearShape`). Closed forms per shape (see
 * src/geometry/ray-primitives.ts): slab test for boxes, stable quadratics for spheres, capsules,
 * cylinders and cones, plane clipping for convex polyhedra, the exact ray–triangle test for triangles
 * (a surface: a ray lying in a triangle's plane, or meeting a zero-area one, misses it, as on a
 * mesh or a heightfield; the shape definition's `surfaceRayCast`).
 *
 * Semantics (docs/FORMATS.md): the normal is the outward unit normal at the hit (for a
 * triangle, the side facing the ray's origin); a solid shape hit from inside gives toi 0,
 * point = origin and normal 0; with `solid: false` a ray from inside reports where it leaves,
 * with the outward normal there — an origin on the surface counts as inside, so a hollow ray from
 * it into the interior reports its exit (src/geometry/ray-primitives.ts `selectRayHitIo`).
 */
import { checkOutRecord, invalidValue } from "../errors.js";
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import { makeMeshBvhHits } from "../geometry/mesh-bvh.js";
import { RAY_MISS } from "../geometry/ray-primitives.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { productError, sumError, unitScale } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { farFromUnitScale, pointRescaleFactor, scaledShape } from "../narrowphase/extreme-scale.js";
import type { CompositePart, CompositeView } from "../shapes/composite.js";
import { compositeView, makeCompositePart } from "../shapes/composite.js";
import { aabbOf, type LocalRayHit, shapeDef } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { writeBoundingRadiusOf } from "../shapes/shape-def.js";
import { checkVec3, isShapeFinite } from "../shapes/validate.js";
import { checkOffset, checkPose, checkShapeArg } from "./frames.js";
import { hasNaN3, refuseBadInputs } from "./guard.js";
import { makePointProjection, projectPointLocal, unsupportedShape } from "./project-point.js";
// The deferred shape operations this module calls (features, ray casts, point projections).
import "../shapes/defs/ops.js";

/** A ray hit in the world frame. */
export interface RayHit {
  /** Time of impact, in multiples of the ray direction (the hit is origin + toi·dir). */
  toi: number;
  /** The hit point, world frame. */
  point: Vec3;
  /** Outward unit normal at the hit, world frame; zero for a solid shape hit from inside. */
  normal: Vec3;
}

/** A new zeroed ray hit (allocates). */
export function makeRayHit(): RayHit {
  return { toi: 0, point: vec3.create(), normal: vec3.create() };
}

const oL = vec3.create();
const dL = vec3.create();
const dR = vec3.create();
const nL = vec3.create();
const projection = makePointProjection();

const localHit: LocalRayHit = { toi: 0, normal: nL };
/**
 * [0] the t of the last local cast that hit ({@link castLocal} and the routines under it): a
 * register, not a returned double, which V8 boxes when it does not inline the call — one heap
 * number per ray and per composite part.
 */
const castT = new Float64Array(1);

/**
 * Local cast of the ray in oL, dL (unit), dR (raw; len = |dR|): true on a hit, with t ≥ 0 in
 * multiples of the caller's direction in castT[0] and the normal in nL — the shape definition's
 * ray cast (src/shapes/defs/: the quadrics on the unit direction, the flat shapes on the raw one,
 * which keeps their answers exact), or for a composite the nearest over its parts.
 */
function castLocal(shape: Shape, maxToi: number, len: number, solid: boolean): boolean {
  if (compositeView(shape.type) !== null && rayOriginFar(shape))
    return castFromNear(shape, maxToi, len, solid);
  return castLocalNear(shape, maxToi, len, solid);
}

/** {@link castLocal} for an origin not far from the shape (see {@link castFromNear}). */
function castLocalNear(shape: Shape, maxToi: number, len: number, solid: boolean): boolean {
  const def = shapeDef(shape.type);
  const cast = def.surfaceRayCast ?? def.rayCast;
  if (cast) {
    const k = pointRescaleFactor(shape, oL);
    if (k !== 1) return castScaled(shape, maxToi, len, solid, k);
    // A mesh far from unit scale: its triangles one by one, each rescaled.
    if (farFromUnitScale(shape, oL) && compositeView(shape.type))
      return castComposite(shape, maxToi, len, solid);
    if (!cast(localHit, shape, oL, dL, dR, len, maxToi, solid)) return false;
    castT[0] = localHit.toi;
    return true;
  }
  if (compositeView(shape.type)) return castComposite(shape, maxToi, len, solid);
  return unsupportedShape(shape, "raycast");
}

/** An origin this many times the composite's bounding radius away is moved near it first. */
const FAR_RAY = 2 ** 40;
const farBox: Aabb = { min: vec3.create(), max: vec3.create() };
const FAR_IDENTITY = iso.identity();

/** True when the local origin oL lies farther than {@link FAR_RAY} × the shape's bounding radius. */
function rayOriginFar(shape: Shape): boolean {
  const m = Math.max(Math.abs(oL.x), Math.abs(oL.y), Math.abs(oL.z));
  return m > FAR_RAY * shapeDef(shape.type).boundingRadius(shape);
}

/**
 * A composite's ray from far away: every triangle's time of impact rounds to the same double when
 * the origin is 1e100 from a unit mesh, and the products of a small copy's coordinates (the
 * change of units brings the origin near 1) underflow, so a ray from 1e200 missed a unit mesh
 * and one from 1e100 took a surface mesh's normal from its far side. The origin first moves along
 * the ray to the plane, across the direction's largest axis, one box size before the shape's box
 * (that coordinate set exactly; the others moved by the ray's own rounding, exact for a ray along
 * an axis), and the cast from there adds its toi to the move's. No hit lies before that plane.
 */
function castFromNear(shape: Shape, maxToi: number, len: number, solid: boolean): boolean {
  aabbOf(farBox, shape, FAR_IDENTITY);
  const lo = farBox.min;
  const hi = farBox.max;
  const ext = Math.max(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z);
  const ax = Math.abs(dR.x);
  const ay = Math.abs(dR.y);
  const az = Math.abs(dR.z);
  const a = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const d = a === 0 ? dR.x : a === 1 ? dR.y : dR.z;
  const o = a === 0 ? oL.x : a === 1 ? oL.y : oL.z;
  const x =
    d < 0
      ? (a === 0 ? hi.x : a === 1 ? hi.y : hi.z) + ext
      : (a === 0 ? lo.x : a === 1 ? lo.y : lo.z) - ext;
  // Not before that plane (moving away, or beside the box on this axis): the cast as it is.
  if (!(d < 0 ? o > x : o < x) || !Number.isFinite(x))
    return castLocalNear(shape, maxToi, len, solid);
  const t = (x - o) / d;
  if (!(t <= maxToi)) return false;
  vec3.copy(savedO, oL);
  oL.x = a === 0 ? x : oL.x + dR.x * t;
  oL.y = a === 1 ? x : oL.y + dR.y * t;
  oL.z = a === 2 ? x : oL.z + dR.z * t;
  const hit = castLocalNear(shape, maxToi - t, len, solid);
  vec3.copy(oL, savedO);
  if (hit) castT[0] = t + castT[0];
  return hit;
}

const savedO = vec3.create();
const savedD = vec3.create();

/**
 * {@link castLocal} far from unit scale (src/narrowphase/extreme-scale.ts): the shape's copy and
 * the ray's origin and raw direction multiplied by the power of two `k` (exact), so that the
 * closed forms' squares neither overflow nor underflow. The time of impact, in multiples of the
 * direction, and the unit normal are the same in both units. Allocates the scaled copy (only
 * for such rays).
 */
function castScaled(shape: Shape, maxToi: number, len: number, solid: boolean, k: number): boolean {
  const def = shapeDef(shape.type);
  const cast = (def.surfaceRayCast ?? def.rayCast) as NonNullable<
    ReturnType<typeof shapeDef>["rayCast"]
  >;
  vec3.copy(savedO, oL);
  vec3.copy(savedD, dR);
  vec3.scale(oL, oL, k);
  vec3.scale(dR, dR, k);
  const hit = cast(localHit, scaledShape(shape, k), oL, dL, dR, len * k, maxToi, solid);
  vec3.copy(oL, savedO);
  vec3.copy(dR, savedD);
  if (hit) castT[0] = localHit.toi;
  return hit;
}

/** Scratch of one composite level of a ray cast. */
interface RayLevel {
  hits: MeshBvhHits;
  part: CompositePart;
  o: Vec3;
  dRaw: Vec3;
  dUnit: Vec3;
  n: Vec3;
}
const rayLevels: RayLevel[] = [];
let rayDepth = 0;

/**
 * Ray cast against a composite through its view (src/shapes/composite.ts), in its local frame
 * (the ray in oL, dR, dL): the earliest hit over the parts that the ray's box can reach, each
 * cast in its part's frame; ties to the first part in the view's order; or the view's own
 * ordered walk when it has one (a heightfield's 2D DDA over its cells). Writes nL.
 */
function castComposite(shape: Shape, maxToi: number, len: number, solid: boolean): boolean {
  const view = compositeView(shape.type) as CompositeView;
  // A view with an ordered walk of its own (a heightfield's cells) answers with it.
  if (view.castRay) {
    const t = view.castRay(nL, shape, oL, dR, maxToi);
    if (t < 0) return false;
    castT[0] = t;
    return true;
  }
  while (rayLevels.length <= rayDepth) {
    rayLevels.push({
      hits: makeMeshBvhHits(16),
      part: makeCompositePart(),
      o: vec3.create(),
      dRaw: vec3.create(),
      dUnit: vec3.create(),
      n: vec3.create(),
    });
  }
  const l = rayLevels[rayDepth++];
  try {
    vec3.copy(l.o, oL);
    vec3.copy(l.dRaw, dR);
    vec3.copy(l.dUnit, dL);
    const ex = l.o.x + l.dRaw.x * maxToi;
    const ey = l.o.y + l.dRaw.y * maxToi;
    const ez = l.o.z + l.dRaw.z * maxToi;
    const n = view.queryAabb(
      l.hits,
      shape,
      Number.isFinite(ex) ? Math.min(l.o.x, ex) : -Infinity,
      Number.isFinite(ey) ? Math.min(l.o.y, ey) : -Infinity,
      Number.isFinite(ez) ? Math.min(l.o.z, ez) : -Infinity,
      Number.isFinite(ex) ? Math.max(l.o.x, ex) : Infinity,
      Number.isFinite(ey) ? Math.max(l.o.y, ey) : Infinity,
      Number.isFinite(ez) ? Math.max(l.o.z, ez) : Infinity,
    );
    let best = RAY_MISS;
    let limit = maxToi;
    for (let h = 0; h < n; h++) {
      view.part(l.part, shape, l.hits.ids[h]);
      if (l.part.hasPose) {
        iso.inverseTransformPoint(oL, l.part.pose, l.o);
        iso.inverseTransformVector(dR, l.part.pose, l.dRaw);
        iso.inverseTransformVector(dL, l.part.pose, l.dUnit);
      } else {
        vec3.copy(oL, l.o);
        vec3.copy(dR, l.dRaw);
        vec3.copy(dL, l.dUnit);
      }
      if (!castLocal(l.part.shape, limit, len, solid)) continue;
      const t = castT[0];
      if (best >= 0 && !(t < best)) continue;
      best = t;
      limit = Math.min(limit, t);
      if (l.part.hasPose) iso.transformVector(l.n, l.part.pose, nL);
      else vec3.copy(l.n, nL);
    }
    vec3.copy(oL, l.o);
    vec3.copy(dR, l.dRaw);
    vec3.copy(dL, l.dUnit);
    if (best < 0) return false;
    vec3.copy(nL, l.n);
    castT[0] = best;
    return true;
  } finally {
    rayDepth--;
  }
}

/**
 * Casts the ray origin + t·dir, t ∈ [0, maxToi], against `shape` at world pose `pose`; on a hit
 * writes the time of impact (multiples of `dir`, which need not be unit), the world hit point
 * and the outward unit world normal to `out` and returns true; returns false on a miss. A solid
 * shape hit from inside gives toi 0, point = origin, normal 0; with `solid` false a ray from
 * inside reports where it leaves. Hot-path form: only `out` is checked, no allocation; a zero `dir`
 * is answered as a point (a solid shape containing `origin` gives toi 0, otherwise a miss).
 * Throws `invalid_value` naming `out` unless it is a ray hit record (makeRayHit()), and
 * `unsupported_pair` for a shape type it cannot cast against, and `invalid_value`
 * naming the argument (`shape.radius`, `pose.rotation`, `origin`, …) when a hit would hold a
 * NaN (src/query/guard.ts; a miss is not checked, to keep the world's ray path free).
 * Sources: Ericson 2005, §5.3; Woop, Benthin & Wald 2013; van den Bergen 2004.
 */
export function castRayShape(
  out: RayHit,
  shape: Shape,
  pose: Isometry,
  origin: Vec3,
  dir: Vec3,
  maxToi: number,
  solid: boolean,
): boolean {
  // A null, `{}` or frozen out had thrown a TypeError after the cast, when the hit was written.
  checkOutRecord("out", out, RAY_HIT_PARTS, "a ray hit record {toi, point, normal} (makeRayHit())");
  return castRayShapeInto(out, shape, pose, origin, dir, maxToi, solid);
}

const RAY_HIT_PARTS = ["point", "normal"] as const;

/**
 * {@link castRayShape} without the check of `out` (the world's ray casts and `raycast` pass
 * their own scratch record): the per-candidate routine of the world's ray queries.
 */
export function castRayShapeInto(
  out: RayHit,
  shape: Shape,
  pose: Isometry,
  origin: Vec3,
  dir: Vec3,
  maxToi: number,
  solid: boolean,
): boolean {
  const m = Math.max(Math.abs(dir.x), Math.abs(dir.y), Math.abs(dir.z));
  const t = pose.translation;
  if (
    m === 0 ||
    !(m < Infinity) ||
    (m >= RAY_DIRECTION_MIN &&
      m <= RAY_DIRECTION_MAX &&
      Math.max(
        Math.abs(origin.x),
        Math.abs(origin.y),
        Math.abs(origin.z),
        Math.abs(t.x),
        Math.abs(t.y),
        Math.abs(t.z),
      ) <= RAY_PLACE_MAX)
  )
    return castRayInRange(out, shape, pose, origin, dir, maxToi, solid);
  return castRayRescaled(out, shape, pose, origin, dir, maxToi, solid, m);
}

/**
 * A direction whose largest component lies in [2^-32, 2^32] is cast as it is when the origin and
 * the pose's translation lie within 2^960 (≈ 1e289) of the world's origin: the ray's squared
 * length, and the products of the direction with the origin's offset from the shape (at most
 * 2^962 · 2^32), then stay finite. Any other is first rescaled ({@link castRayRescaled}).
 */
const RAY_DIRECTION_MIN = 2 ** -32;
/** See {@link RAY_DIRECTION_MIN}. */
const RAY_DIRECTION_MAX = 2 ** 32;
/** See {@link RAY_DIRECTION_MIN}. */
const RAY_PLACE_MAX = 2 ** 960;

const dirScaled = vec3.create();

/**
 * {@link castRayShape} with the direction multiplied by the power of two `k` that brings its
 * largest component `m` into [1, 2] (exact in binary floating point): the ray origin + t·dir is
 * origin + (t / k)·(k·dir), so the cast of k·dir up to maxToi / k answers it with toi multiplied
 * back by k (exact too), the same point and normal. Without it a ray from 1e155 along a direction
 * of length 1e155 squared that length to infinity and hit a unit sphere at (0, 0.5, 0) with the
 * normal (0, 1, 0) (right: (0.866, 0.5, 0)), and one of length 1e100 from 1e300 overflowed the
 * far origin's move.
 */
function castRayRescaled(
  out: RayHit,
  shape: Shape,
  pose: Isometry,
  origin: Vec3,
  dir: Vec3,
  maxToi: number,
  solid: boolean,
  m: number,
): boolean {
  // Into [1, 2]: the toi in multiples of it is at most the distance (finite from 1.7e308).
  const k = 2 * unitScale(m);
  vec3.set(dirScaled, dir.x * k, dir.y * k, dir.z * k);
  if (!castRayInRange(out, shape, pose, origin, dirScaled, maxToi / k, solid)) return false;
  const toi = out.toi * k;
  // maxToi / k may have overflowed (a huge direction and maxToi): the hit must be within maxToi.
  if (!(toi <= maxToi) || !Number.isFinite(toi)) return false;
  out.toi = toi;
  return true;
}

/** {@link castRayShape} for a direction and a place whose products stay finite. */
function castRayInRange(
  out: RayHit,
  shape: Shape,
  pose: Isometry,
  origin: Vec3,
  dir: Vec3,
  maxToi: number,
  solid: boolean,
): boolean {
  iso.inverseTransformPoint(oL, pose, origin);
  iso.inverseTransformVector(dR, pose, dir);
  const len = vec3.normalize(dL, dR);
  if (len === 0) {
    if (!solid || !projectPointLocal(projection, shape, oL, true).inside) return false;
    out.toi = 0;
    vec3.copy(out.point, origin);
    vec3.set(out.normal, 0, 0, 0);
    return true;
  }
  // From far away, first along the ray to just before the shape's bounding ball (exactly on
  // the ray), so the local cast and the hit point see the shape's rounding, not the origin's.
  const t0 = advanceNearShape(nearO, shape, pose, origin, dir);
  if (t0 > 0) {
    if (!(t0 <= maxToi)) return false;
    iso.inverseTransformPoint(oL, pose, nearO);
  }
  // Without a move, the caller's maxToi is passed on as it came (a recomputed double is boxed).
  if (
    !(t0 > 0
      ? castLocal(shape, maxToi - t0 + t0 * NEAR_TOI_SLACK, len, solid)
      : castLocal(shape, maxToi, len, solid))
  )
    return false;
  const t = castT[0];
  const toi = Math.min(t0 > 0 ? t0 + t : t, maxToi);
  if (!Number.isFinite(toi)) return false; // beyond the doubles (a subnormal direction)
  out.toi = toi;
  // Written out (vec3.addScaled's double argument is boxed where the call is not inlined).
  const from = t0 > 0 ? nearO : origin;
  const k = t0 > 0 ? t : toi;
  out.point.x = from.x + dir.x * k;
  out.point.y = from.y + dir.y * k;
  out.point.z = from.z + dir.z * k;
  iso.transformVector(out.normal, pose, nL);
  if (hasNaN3(out.point) || hasNaN3(out.normal))
    refuseRay("castRayShape", shape, pose, origin, dir);
  return true;
}

const nearO = vec3.create();
const radiusOut = new Float64Array(1);

/**
 * An origin moved by {@link advanceNearShape} keeps the time left to `maxToi` this much longer
 * (relative to the move): the move's parameter is a rounded double, so a hit at `maxToi` exactly
 * would otherwise be lost to the subtraction's rounding; the toi is clamped to `maxToi` after.
 */
const NEAR_TOI_SLACK = 2 ** -50;

/**
 * Slack of the advance, relative to the origin's distance from the shape's centre: the move
 * stops this much (plus two bounding radii) before the ray's closest approach to the centre,
 * above the rounding of that approach's parameter (a few ε of the distance), so no hit lies
 * before the moved origin.
 */
const ADVANCE_SLACK = 2 ** -48;

/** Most moves of {@link advanceNearShape}: each leaves 2^-48 of the distance, so 1e300 → 1. */
const MAX_ADVANCES = 24;

/**
 * A moved origin is moved again only while this many bounding radii before the shape (the first
 * move leaves 2^-48 of the distance, 35 units from 1e16): nearer, a move gains little and rounds
 * the origin once more.
 */
const FAR_ADVANCE = 16;

/**
 * A move is made only while the origin is this many times farther from the shape's centre (L1)
 * than the moved origin's coordinates are large (the centre's largest coordinate plus r): the
 * moved origin is rounded at its own coordinates, which must be well below the distance whose
 * rounding the move removes. A ray from 5e-4 beside a box of 1e-4 at 1e8 (origin and centre
 * differing exactly) had been moved, its origin rounded at 1e8, so a ray grazing a corner
 * entered 3.4e-8 late on a toi of 7.6e-4.
 */
const ADVANCE_GAIN = 16;

/**
 * Moves a ray origin far from a shape to just before the shape's bounding ball (centred on the
 * pose's translation, radius the shape's bounding radius r, world frame): `out` = origin + t·dir
 * for the returned t > 0, formed exactly (Dekker's product and Knuth's sum of each coordinate,
 * rounded once, so `out` lies on the given ray to the rounding of its own coordinates — near the
 * shape — and not of the origin's), t stopping 2r + 2^-48·|centre − origin|₁ before the ray's
 * closest approach to the centre, so no hit of the shape lies before it. Repeated while the
 * origin is still more than 16·r before the shape, and only while the origin is 16 times farther
 * from the centre than the centre's largest coordinate plus r ({@link ADVANCE_GAIN}) (the parameter t is rounded at the origin's
 * distance, which each move divides by about 2^48: twice from 1e16, a handful from 1e300). Returns the summed t (0: not moved, the origin
 * already near, or the shape unbounded, or a coordinate beyond the exact products' range).
 * Without it a ray from 1e9 hit a unit sphere 2.2e-8 off its surface (origin + toi·dir with toi
 * rounded at 1e9), and from 1e16 at its top. Allocates nothing.
 */
function advanceNearShape(
  out: Vec3,
  shape: Shape,
  pose: Isometry,
  origin: Vec3,
  dir: Vec3,
): number {
  writeBoundingRadiusOf(radiusOut, shape);
  const r = radiusOut[0];
  const c = pose.translation;
  const len = vec3.length(dir);
  if (!(r < Infinity) || !(len > 0 && len < Infinity)) return 0;
  let ox = origin.x;
  let oy = origin.y;
  let oz = origin.z;
  let total = 0;
  const near = ADVANCE_GAIN * (Math.max(Math.abs(c.x), Math.abs(c.y), Math.abs(c.z)) + r);
  for (let i = 0; i < MAX_ADVANCES; i++) {
    const wx = c.x - ox;
    const wy = c.y - oy;
    const wz = c.z - oz;
    const w = Math.abs(wx) + Math.abs(wy) + Math.abs(wz); // ≥ the distance; no overflow
    if (!(w > near)) break;
    // Closest approach to the centre along the unit direction, less the margin (a length).
    let along = (wx * dir.x + wy * dir.y + wz * dir.z) / len;
    // The products overflow from about 1e308 along a direction longer than 1: over the unit one.
    if (!(Math.abs(along) < Infinity))
      along = wx * (dir.x / len) + wy * (dir.y / len) + wz * (dir.z / len);
    const ahead = along - 2 * r - ADVANCE_SLACK * w;
    // Once moved, again only while still far: each move rounds the origin once more.
    if (!(ahead > (i === 0 ? 0 : FAR_ADVANCE * r) && ahead < Infinity)) break;
    const t = ahead / len;
    const px = t * dir.x;
    const py = t * dir.y;
    const pz = t * dir.z;
    const sx = ox + px;
    const sy = oy + py;
    const sz = oz + pz;
    // Dekker's split of t overflows above about 1.3e300 (a direction shorter than 1 from
    // 1e300): the same product as (t·2^-128)·(dir·2^128), exactly.
    const big = t > ADVANCE_SPLIT_MAX;
    const ts = big ? t * 2 ** -128 : t;
    const ds = big ? 2 ** 128 : 1;
    const nx = sx + (sumError(ox, px, sx) + productError(ts, dir.x * ds, px));
    const ny = sy + (sumError(oy, py, sy) + productError(ts, dir.y * ds, py));
    const nz = sz + (sumError(oz, pz, sz) + productError(ts, dir.z * ds, pz));
    if (!(Number.isFinite(nx) && Number.isFinite(ny) && Number.isFinite(nz))) break;
    ox = nx;
    oy = ny;
    oz = nz;
    total += t;
  }
  if (total === 0) return 0;
  vec3.set(out, ox, oy, oz);
  return total;
}

/**
 * Largest move parameter whose Dekker split (2^27 + 1 times it) stays finite with room: above
 * it {@link advanceNearShape} splits t·2^-128 against dir·2^128 instead.
 */
const ADVANCE_SPLIT_MAX = 2 ** 960;

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitPoseScratch = iso.identity();

/** Throws for a ray cast that produced NaN, naming the argument at fault (src/query/guard.ts). */
function refuseRay(op: string, shape: Shape, pose: Isometry, origin: Vec3, dir: Vec3): never {
  return refuseBadInputs(
    op,
    [["shape", shape]],
    [["pose", pose]],
    [
      ["origin", origin],
      ["direction", dir],
    ],
  );
}

/**
 * Casts the ray origin + t·dir (t ∈ [0, maxToi]) against `shape` at world pose `pose`:
 * `{toi, point, normal}` in the world frame, or null on a miss (see {@link castRayShape} for the
 * semantics; `maxToi` defaults to Infinity, no limit, as the world's ray casts; `solid` defaults
 * to true). Allocates the answer.
 * @throws CollideError `invalid_value` naming "origin", "direction" (non-finite or zero) or
 * "maxToi" (negative or NaN), or the pose, or the shape field (`shape.radius`, …) when the
 * shape holds a NaN or infinite number (checked after casting, src/query/guard.ts);
 * `unsupported_pair` for a shape type without a ray cast.
 */
export function raycast(
  shape: Shape,
  pose: Isometry,
  origin: Vec3,
  dir: Vec3,
  maxToi = Number.POSITIVE_INFINITY,
  solid = true,
): RayHit | null {
  checkVec3("origin", origin);
  checkVec3("direction", dir);
  if (dir.x === 0 && dir.y === 0 && dir.z === 0) {
    invalidValue("direction", [dir.x, dir.y, dir.z], "must not be the zero vector");
  }
  if (typeof maxToi !== "number" || !(maxToi >= 0))
    invalidValue("maxToi", maxToi, "must be a number ≥ 0");
  // As projectPoint: a truthy "no" was taken as solid.
  if (typeof solid !== "boolean") invalidValue("solid", solid, "must be a boolean");
  checkShapeArg("shape", shape);
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  pose = iso.unitPose(unitPoseScratch, pose);
  checkPose("pose", pose);
  checkOffset("origin", origin, pose.translation, "pose.translation");
  const hit = makeRayHit();
  const found = castRayShapeInto(hit, shape, pose, origin, dir, maxToi, solid);
  // Hit or miss (and "from inside") is decided by comparisons that a NaN makes false: the
  // answer stands only for a finite shape.
  if (isShapeFinite(shape)) return found ? hit : null;
  return refuseRay("raycast", shape, pose, origin, dir);
}
