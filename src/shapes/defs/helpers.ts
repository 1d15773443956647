/**
 * Small helpers shared by the shape definitions (src/shapes/defs/): JSON vectors, the
 * allocation-free finiteness probes, per-object caches, a support map over any support-mapped
 * shape (for the GJK ray cast), and the point projections shared by several types (a ball around
 * a point or a segment, the 2D profile of a solid of revolution; Ericson 2005, §5.1).
 */
import { GJK_ROUNDING_TOLERANCE } from "../../constants.js";
import { gjkRayCast, makeGjkRayHit } from "../../geometry/gjk-raycast.js";
import { makeRayInterval, type RayInterval, selectRayHit } from "../../geometry/ray-primitives.js";
import type { SupportMap } from "../../geometry/support.js";
import { hypot2, hypot3 } from "../../math/scalar.js";
import type { Vec3 } from "../../math/vec3.js";
import * as vec3 from "../../math/vec3.js";
import type { Shape } from "../shape.js";
import type { LocalRayHit, PointProjection, Vec3Json } from "../shape-def.js";
import { shapeDef } from "../shape-def.js";

/** `[x, y, z]` of a vector (allocates). */
export function vecJson(v: Vec3): Vec3Json {
  return [v.x, v.y, v.z];
}

/** The vector of `[x, y, z]` (allocates). */
export function vecFromJson(a: readonly number[]): Vec3 {
  return { x: a[0], y: a[1], z: a[2] };
}

/** True when `x` is a finite number: x − x is 0 exactly for finite x, NaN for NaN, ±∞ or junk. */
export function fin(x: number): boolean {
  return x - x === 0;
}

/** True when `v` is an object with three finite components. */
export function finite3(v: Vec3): boolean {
  return v !== null && typeof v === "object" && fin(v.x) && fin(v.y) && fin(v.z);
}

/** True when `a` is a `Float64Array` of finite numbers. */
export function finiteArray(a: Float64Array): boolean {
  if (!(a instanceof Float64Array)) return false;
  for (let i = 0; i < a.length; i++) if (!fin(a[i])) return false;
  return true;
}

/** Largest |vertex| of a packed xyz vertex array. */
export function maxVertexDistance(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < v.length; i += 3) m = Math.max(m, hypot3(v[i], v[i + 1], v[i + 2]));
  return m;
}

/** Cached per object: shapes are immutable, and a mesh's or hull's scan is O(vertices). */
const perShapeCache = new WeakMap<object, number>();

/** The value of `f()` computed once per shape object `s`. */
export function cachedPerShape(s: object, f: () => number): number {
  let r = perShapeCache.get(s);
  if (r === undefined) {
    r = f();
    perShapeCache.set(s, r);
  }
  return r;
}

/** Largest |component| of `v`. */
export function maxAbs(v: Vec3): number {
  return Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
}

/** `v` times `k` (allocates). */
export function scaledVec(v: Vec3, k: number): Vec3 {
  return { x: v.x * k, y: v.y * k, z: v.z * k };
}

/**
 * A support map over any support-mapped shape through its definition: the core's support and
 * the margin (for the GJK ray cast, src/geometry/gjk-raycast.ts). Reset per use.
 */
export class DefSupportMap implements SupportMap {
  /** The wrapped shape. */
  shape: Shape | null = null;
  /** Radius swept around the core, scene units. */
  margin = 0;
  private core: ((out: Vec3, s: Shape, dir: Vec3) => Vec3) | null = null;

  /** Wraps support-mapped `shape`; returns this. */
  reset(shape: Shape): this {
    const d = shapeDef(shape.type);
    this.shape = shape;
    this.margin = d.margin(shape);
    this.core = d.coreSupport;
    return this;
  }

  /** out = the core's support point along `dir` (local frame). */
  support(out: Vec3, dir: Vec3): Vec3 {
    return (this.core as (out: Vec3, s: Shape, dir: Vec3) => Vec3)(out, this.shape as Shape, dir);
  }
}

const ballDir = /* @__PURE__ */ vec3.create();
const basisU = /* @__PURE__ */ vec3.create();
const basisV = /* @__PURE__ */ vec3.create();

/**
 * Projection onto the ball of `radius` around `c` (a capsule's closest core point when `axis`
 * is its unit axis, else null): the radial direction from c, or, for p = c, any direction
 * perpendicular to the axis.
 */
export function projectOnBall(
  out: PointProjection,
  p: Vec3,
  c: Vec3,
  radius: number,
  axis: Vec3 | null,
  solid: boolean,
): PointProjection {
  const t2 = ballDir;
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

/** The unit azimuth (x, 0, z) of the last {@link azimuth} call; (1, 0, 0) on the axis. */
export const azimuthDir = /* @__PURE__ */ vec3.create();

/**
 * Distance ρ of p from the local Y axis, with its azimuth as a unit (x, 0, z) in
 * {@link azimuthDir} (the half-plane of a solid of revolution's 2D profile).
 */
export function azimuth(p: Vec3): number {
  // Rescaled by the larger component first, so that subnormal coordinates stay unit.
  const m = Math.max(Math.abs(p.x), Math.abs(p.z));
  if (!(m > 0)) {
    vec3.set(azimuthDir, 1, 0, 0);
    return 0;
  }
  const x = p.x / m;
  const z = p.z / m;
  const l = hypot2(x, z);
  vec3.set(azimuthDir, x / l, 0, z / l);
  return m * l;
}

/** out.point = the profile point (ρ, y) rotated back to the azimuth in {@link azimuthDir}. */
export function fromProfile(out: PointProjection, rho: number, y: number): void {
  vec3.set(out.point, rho * azimuthDir.x, y, rho * azimuthDir.z);
}

/** Sets `out` to p itself at distance 0 (a solid shape's projection of an interior point). */
export function projectInside(out: PointProjection, p: Vec3): PointProjection {
  vec3.copy(out.point, p);
  out.distance = 0;
  out.inside = true;
  return out;
}

/** The ray interval scratch of the definitions' closed-form ray casts. */
export const rayInterval: RayInterval = /* @__PURE__ */ makeRayInterval();

/**
 * Finishes a closed-form ray cast on {@link rayInterval}: the entry (or, hollow from inside, the
 * exit) within `maxT` in the interval's own units, divided by `len` into multiples of the
 * caller's direction, with its normal into `out`. False on a miss.
 */
export function finishRayHit(out: LocalRayHit, maxT: number, len: number, solid: boolean): boolean {
  const t = selectRayHit(out.normal, rayInterval, maxT, solid);
  if (t < 0) return false;
  out.toi = t / len;
  return true;
}

const gjkHit = /* @__PURE__ */ makeGjkRayHit();
const defSupport = /* @__PURE__ */ new DefSupportMap();

/**
 * The GJK ray cast (van den Bergen 2004) of support-mapped `s` through its definition's core and
 * margin: the ray cast of any convex type without a closed form (a rounded shape).
 */
export function rayCastSupportMapped(
  out: LocalRayHit,
  s: Shape,
  o: Vec3,
  dUnit: Vec3,
  len: number,
  maxToi: number,
  solid: boolean,
): boolean {
  if (!gjkRayCast(gjkHit, defSupport.reset(s), o, dUnit, maxToi * len, solid)) return false;
  vec3.copy(out.normal, gjkHit.normal);
  out.toi = gjkHit.toi / len;
  return true;
}
