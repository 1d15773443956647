/**
 * Small helpers shared by the shape definitions (src/shapes/defs/): JSON vectors, the
 * allocation-free finiteness probes, per-object caches, a support map over any support-mapped
 * shape (for the GJK ray cast), and the point projections shared by several types (a ball around
 * a point or a segment, the 2D profile of a solid of revolution; Ericson 2005, §5.1), and the
 * building blocks of a rounded type (a core swept by a ball: {@link roundedShapeDef},
 * {@link projectRounded}, {@link aabbRounded}, {@link checkRoundingRadius}), which a new rounded
 * type's definition imports from here.
 */
import { GJK_ROUNDING_TOLERANCE } from "../../constants.js";
import { invalidValue } from "../../errors.js";
import type { SupportFeature } from "../../geometry/feature.js";
import { gjkRayCast, makeGjkRayHit } from "../../geometry/gjk-raycast.js";
import {
  makeRayInterval,
  type RayInterval,
  rayHitIo,
  selectRayHit,
  selectRayHitIo,
} from "../../geometry/ray-primitives.js";
import type { RevolutionKind } from "../../geometry/revolution.js";
import type { SupportMap } from "../../geometry/support.js";
import type { Aabb } from "../../math/aabb.js";
import * as aabb from "../../math/aabb.js";
import type { Isometry } from "../../math/isometry.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot2, hypot3 } from "../../math/scalar.js";
import type { Vec3 } from "../../math/vec3.js";
import * as vec3 from "../../math/vec3.js";
import { numberOrder, shapeDataOrder } from "../data-order.js";
import type { Shape } from "../shape.js";
import { SHAPE_TYPE_NAMES, shapeTypeName } from "../shape.js";
import type { LocalRayHit, PointProjection, ShapeDef, ShapeView, Vec3Json } from "../shape-def.js";
import { boundingRadiusWith, marginWith, shapeDef, writeBoundingRadiusOf } from "../shape-def.js";
import {
  checkFinite,
  checkNonNegative,
  checkObject,
  checkPositive,
  checkShape,
  checkShapeExtent,
} from "../validate.js";

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

/**
 * {@link cachedPerShape} with a function of one argument instead of a closure: for per-step
 * callers, where creating the closure would allocate on every call (a hit included).
 */
export function cachedPerShapeOf<T>(s: object, f: (arg: T) => number, arg: T): number {
  let r = perShapeCache.get(s);
  if (r === undefined) {
    r = f(arg);
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

/**
 * {@link finishRayHit} with `maxT` read from `rayHitIo[0]` (src/geometry/ray-primitives.ts): a
 * limit computed by the caller, or a time returned, across a call V8 does not inline is boxed.
 */
export function finishRayHitIn(out: LocalRayHit, len: number, solid: boolean): boolean {
  if (!selectRayHitIo(out.normal, rayInterval, solid)) return false;
  out.toi = rayHitIo[1] / len;
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

/** A zeroed point projection (allocates; a call, so that the bundler may drop it when unused). */
function newProjection(): PointProjection {
  return { point: vec3.create(), distance: 0, inside: false };
}

const refineProj = /* @__PURE__ */ newProjection();
const refineO = /* @__PURE__ */ vec3.create();
const refineD = /* @__PURE__ */ vec3.create();
const refineFrom = /* @__PURE__ */ vec3.create();
/** [0] the refined time (unit-direction units), [1] the extent scale of the tolerance. */
const refineIo = /* @__PURE__ */ new Float64Array(2);
/** Newton steps of {@link refineRoundedEntry} at most (quadratic: a handful suffice). */
const REFINE_STEPS = 32;

/**
 * Refines the entry time refineIo[0] of the ray `o + t·u` (u unit) into rounded `s` — a lower
 * bound from the GJK ray cast, within its tolerance — by Newton's method on
 * f(t) = dist(o + t·u, core) − radius, the distance through the core's exact projection. f is
 * convex along a line (the distance to a convex set is), so every Newton step lands at or before
 * the root: the bound stays a lower bound and rises monotonically, quadratically near a root the
 * ray crosses. Stops when f is within rounding of 0, when the ray no longer approaches the core
 * (a graze: the GJK answer stands), or after {@link REFINE_STEPS}. The outward normal, the
 * direction from the core's closest point, goes to `normal`. Returns false when the refined time
 * passes `tMax` (the root is beyond it).
 */
function refineRoundedEntry(normal: Vec3, s: RoundedLike, o: Vec3, u: Vec3, tMax: number): boolean {
  const core = s.core as Shape;
  const r = s.radius;
  const project = shapeDef(core.type).projectPoint as NonNullable<ShapeDef["projectPoint"]>;
  const q = refineProj;
  const x = refineO;
  for (let i = 0; i < REFINE_STEPS; i++) {
    const t = refineIo[0];
    x.x = o.x + t * u.x;
    x.y = o.y + t * u.y;
    x.z = o.z + t * u.z;
    project(q, core, x, true);
    const dist = q.distance;
    if (!(dist > 0)) return true; // in the core: past the surface by rounding; keep t
    const nx = (x.x - q.point.x) / dist;
    const ny = (x.y - q.point.y) / dist;
    const nz = (x.z - q.point.z) / dist;
    vec3.set(normal, nx, ny, nz);
    const f = dist - r;
    // Rounding of the distance: a few ulps of the coordinates and the radius.
    const tol =
      GJK_ROUNDING_TOLERANCE * (refineIo[1] + Math.abs(x.x) + Math.abs(x.y) + Math.abs(x.z));
    if (!(f > tol)) return true;
    const slope = nx * u.x + ny * u.y + nz * u.z;
    if (!(slope < 0)) return true;
    const next = t - f / slope;
    if (!(next > t)) return true;
    if (!(next <= tMax)) return false;
    refineIo[0] = next;
  }
  return true;
}

/**
 * The ray cast of a rounded shape without a closed form (a recipe-defined type built by
 * {@link roundedShapeDef}): the GJK ray cast's hit (van den Bergen 2004; its tolerance leaves
 * the hit up to ~1e-5 early on the curved parts), refined by Newton's method on the core's exact
 * distance ({@link refineRoundedEntry}) to rounding, so the hit is on the surface within 1e-9
 * relative. A hollow cast from inside refines the exit as the entry of the reversed ray from a
 * point beyond the shape.
 */
export function rayCastRounded(
  out: LocalRayHit,
  s: Shape & RoundedLike,
  o: Vec3,
  dUnit: Vec3,
  len: number,
  maxToi: number,
  solid: boolean,
): boolean {
  if (!rayCastSupportMapped(out, s, o, dUnit, len, maxToi, solid)) return false;
  const t = out.toi * len;
  if (t === 0) return true; // from inside (solid), or entering at the origin
  const size = shapeDef(s.type).boundingRadius(s);
  refineIo[1] = size;
  const inside = !solid && projectRounded(refineProj, s, o, true).inside;
  if (!inside) {
    refineIo[0] = t;
    if (!refineRoundedEntry(out.normal, s, o, dUnit, maxToi * len)) return false;
    out.toi = refineIo[0] / len;
    return true;
  }
  // The exit: the entry of the reversed ray from beyond the shape (at least 2·size past it).
  const far = t + 2 * size + vec3.length(o);
  refineD.x = -dUnit.x;
  refineD.y = -dUnit.y;
  refineD.z = -dUnit.z;
  const from = refineFrom;
  vec3.addScaled(from, o, dUnit, far);
  refineIo[0] = far - t;
  if (!refineRoundedEntry(out.normal, s, from, refineD, far)) return true;
  out.toi = (far - refineIo[0]) / len;
  return true;
}

/** What every rounded shape holds: a support-mapped `core` swept by a ball of `radius`. */
export interface RoundedLike {
  readonly type: number;
  /** The core (its own type's shape, local frame). */
  readonly core: Shape;
  /** Radius of the ball (≥ 0, scene units). */
  readonly radius: number;
}

/** Throws `CollideError` naming `field` unless the rounding radius `r` is finite and ≥ 0. */
export function checkRoundingRadius(field: string, r: number): void {
  checkFinite(field, r);
  checkNonNegative(field, r);
}

/** out = the world AABB of rounded `s` at `pose`: the core's, grown by the radius. */
export function aabbRounded(out: Aabb, s: RoundedLike, pose: Isometry): Aabb {
  shapeDef(s.core.type).aabb(out, s.core, pose);
  const r = s.radius;
  out.min.x -= r;
  out.min.y -= r;
  out.min.z -= r;
  out.max.x += r;
  out.max.y += r;
  out.max.z += r;
  return out;
}

const roundedDir = vec3.create();
/** The check's scratch box and the identity pose it is taken at. */
const checkBox: Aabb = { min: vec3.create(), max: vec3.create() };
const CHECK_POSE: Isometry = {
  translation: vec3.create(),
  rotation: { x: 0, y: 0, z: 0, w: 1 },
};

/**
 * Projection onto a rounded shape: the core swept by a ball of `radius` (Ericson 2005, §5.1:
 * the closest point of a sphere-swept volume is the core's closest point moved by the radius
 * toward the query point). Outside the core, the core's closest point q at distance d: inside
 * when d ≤ radius, the surface point q + radius·(p − q)/d. Inside the core (hollow query), the
 * core's nearest boundary point q at depth d moved on outward: q + radius·(q − p)/d, at distance
 * d + radius (the rounded face over a core face is that face moved by the radius).
 */
export function projectRounded(
  out: PointProjection,
  s: RoundedLike,
  p: Vec3,
  solid: boolean,
): PointProjection {
  const core = s.core as Shape;
  const radius = s.radius;
  const project = shapeDef(core.type).projectPoint as NonNullable<ShapeDef["projectPoint"]>;
  project(out, core, p, false);
  const d = out.distance;
  if (!out.inside) {
    out.inside = d <= radius;
    if (out.inside && solid) {
      vec3.copy(out.point, p);
      out.distance = 0;
      return out;
    }
    // Normalised with rescaling: a subnormal gap would overflow 1/d (and 0·∞ is NaN).
    vec3.sub(roundedDir, p, out.point);
    if (vec3.normalize(roundedDir, roundedDir) === 0) vec3.set(roundedDir, 0, 0, 0);
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
  vec3.sub(roundedDir, out.point, p);
  if (vec3.normalize(roundedDir, roundedDir) === 0) vec3.set(roundedDir, 0, 0, 0);
  vec3.addScaled(out.point, out.point, roundedDir, radius);
  out.distance = d + radius;
  return out;
}

/**
 * The record of a rounded type `type` whose core is of type `coreType` (its objects hold `core`
 * and `radius`, made by a `make…` that checks the core and `checkRoundingRadius`): everything but
 * its debug `view` and its `json` form, which the caller gives. Support = the core's + the
 * radius as margin; AABB, bounding radius and magnitude grown by the radius; manifold from the
 * core's features (`roundedCore`); ray cast by the GJK ray cast refined on the core's exact
 * distance ({@link rayCastRounded}); projection by
 * {@link projectRounded}; checks of the core (of `coreType`) and the radius. The rounded cuboid
 * and rounded convex polyhedron (src/shapes/rounded.ts) are built by it; so is a new rounded
 * type (docs/DESIGN.md, "Adding a shape").
 */
export function roundedShapeDef<S extends Shape & RoundedLike>(
  type: S["type"],
  coreType: number,
  view: (s: S) => ShapeView,
  json: ShapeDef<S>["json"],
): ShapeDef<S> {
  return {
    type,
    name: SHAPE_TYPE_NAMES[type],
    supportMapped: true,
    composite: false,
    polytope: null,
    revolution: null,
    unbounded: false,
    pointFeature: false,
    aabb: aabbRounded,
    ...boundingRadiusWith<S>(
      (s) => shapeDef(s.core.type).boundingRadius(s.core) + s.radius,
      (out, s) => {
        writeBoundingRadiusOf(out, s.core);
        out[0] += s.radius;
      },
    ),
    writeMagnitude: (out, s) => {
      shapeDef(s.core.type).writeMagnitude(out, s.core);
      out[0] += s.radius;
    },
    // The core's scaled copy and the radius times k (null when the core has none).
    scaled:
      shapeDef(coreType).scaled === null
        ? null
        : (s, k) => ({
            ...s,
            core: (shapeDef(coreType).scaled as (c: Shape, f: number) => Shape)(s.core, k),
            radius: s.radius * k,
          }),
    coreSupport: (out, s, dir) =>
      (shapeDef(s.core.type).coreSupport as (o: Vec3, c: Shape, d: Vec3) => Vec3)(out, s.core, dir),
    ...marginWith<S>(
      (s) => s.radius,
      (out, s) => {
        out[0] = s.radius;
      },
    ),
    roundedCore: (s) => s.core,
    // The manifold builder clips the core's features (roundedCore) and pushes them out.
    feature: null,
    edgeFeature: null,
    rayCast: (out, s, o, dUnit, _dRaw, len, maxToi, solid) =>
      rayCastRounded(out, s, o, dUnit, len, maxToi, solid),
    projectPoint: projectRounded,
    dataOrder: (a, b) => shapeDataOrder(a.core, b.core) || numberOrder(a.radius, b.radius),
    check: (field, s) => {
      checkObject(`${field}.core`, s.core);
      if (s.core.type !== coreType) {
        invalidValue(`${field}.core.type`, s.core.type, `must be ${shapeTypeName(coreType)}`);
      }
      checkShape(`${field}.core`, s.core);
      checkFinite(`${field}.radius`, s.radius);
      checkNonNegative(`${field}.radius`, s.radius);
      // The constructors' size limit (src/shapes/rounded.ts): the core's box grown by the radius.
      const box = aabbRounded(checkBox, s, CHECK_POSE);
      const e = aabb.reach(box);
      checkShapeExtent(
        `${field}.radius`,
        s.radius,
        e,
        "the radius added to the core's largest coordinate",
      );
    },
    isFinite: (s) => {
      const c = s.core;
      return fin(s.radius) && c !== null && typeof c === "object" && shapeDef(c.type).isFinite(c);
    },
    view,
    json,
  };
}

/** A solid of revolution about local Y sized by a `halfHeight` and a `radius` (cylinder, cone). */
export type RevolutionSolid = Shape & { readonly halfHeight: number; readonly radius: number };

/** What tells one {@link revolutionSolidDef} from another: the type's own routines. */
export interface RevolutionSolidParts<S extends RevolutionSolid> {
  /** The shape's type id. */
  type: S["type"];
  /** The JSON `type` name, also its view's type. */
  jsonName: "cylinder" | "cone";
  /** Its kind for the closed-form pair routines (src/geometry/revolution.ts). */
  kind: RevolutionKind;
  /** World AABB at a pose. */
  aabb: ShapeDef<S>["aabb"];
  /** Local support point along a direction. */
  support: (out: Vec3, s: S, dir: Vec3) => Vec3;
  /** Supporting feature (cap polygon, side line, apex) along a direction, for manifolds. */
  feature: (f: SupportFeature, s: S, d: Vec3) => void;
  /** The ray's entry/exit interval against the solid (src/geometry/ray-primitives.ts). */
  rayInterval: (out: RayInterval, h: number, r: number, o: Vec3, d: Vec3) => boolean;
  /** Closest boundary point (local frame). */
  projectPoint: ShapeDef<S>["projectPoint"];
  /** The type's constructor, which validates and names `field` in its errors. */
  make: (halfHeight: number, radius: number, field: string) => S;
}

/**
 * The record of a solid of revolution sized by `halfHeight` and `radius` about local Y (the
 * cylinder and the cone share every entry but their own routines, given in `p`): support mapped,
 * no margin, bounding radius √(h² + r²), a ray cast by the exact interval of
 * `p.rayInterval`, checks that both sizes are positive.
 */
export function revolutionSolidDef<S extends RevolutionSolid>(
  p: RevolutionSolidParts<S>,
): ShapeDef<S> {
  const name = p.jsonName;
  return {
    type: p.type,
    name: SHAPE_TYPE_NAMES[p.type],
    supportMapped: true,
    composite: false,
    polytope: null,
    revolution: {
      kind: p.kind,
      dims: (out, s) => {
        out[0] = s.halfHeight;
        out[1] = s.radius;
      },
    },
    unbounded: false,
    pointFeature: false,
    aabb: p.aabb,
    ...boundingRadiusWith<S>(
      (s) => hypot2(s.halfHeight, s.radius),
      (out, s) => {
        // hypot2's common case written out (its call would box its two arguments).
        const x = s.halfHeight;
        const y = s.radius;
        const q = x * x + y * y;
        if (q > HYPOT_SAFE_MIN && q < HYPOT_SAFE_MAX) out[0] = Math.sqrt(q);
        else out[0] = hypot2(x, y);
      },
    ),
    writeMagnitude: (out, s) => {
      out[0] = Math.max(s.halfHeight, s.radius);
    },
    scaled: (s, k) => ({ ...s, halfHeight: s.halfHeight * k, radius: s.radius * k }),
    coreSupport: p.support,
    margin: () => 0,
    feature: p.feature,
    edgeFeature: null,
    rayCast: (out, s, o, dUnit, _dRaw, len, maxToi, solid) =>
      p.rayInterval(rayInterval, s.halfHeight, s.radius, o, dUnit) &&
      finishRayHit(out, maxToi * len, len, solid),
    projectPoint: p.projectPoint,
    dataOrder: (a, b) => numberOrder(a.radius, b.radius) || numberOrder(a.halfHeight, b.halfHeight),
    check: (field, s) => {
      checkPositive(`${field}.halfHeight`, s.halfHeight);
      checkPositive(`${field}.radius`, s.radius);
      checkShapeExtent(`${field}.halfHeight`, s.halfHeight, s.halfHeight, "the half height");
      checkShapeExtent(`${field}.radius`, s.radius, s.radius, "the radius");
    },
    isFinite: (s) => fin(s.halfHeight) && fin(s.radius),
    view: (s) => ({ type: name, halfHeight: s.halfHeight, radius: s.radius }),
    json: {
      name,
      schema: (z) =>
        z.strictObject({ type: z.literal(name), halfHeight: z.number(), radius: z.number() }),
      toJson: (s) => ({ type: name, halfHeight: s.halfHeight, radius: s.radius }),
      fromJson: (j, field) => p.make(j.halfHeight as number, j.radius as number, field),
    },
  };
}
