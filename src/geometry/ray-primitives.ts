/**
 * Closed-form ray casts against the convex primitives, in the primitive's local frame.
 *
 * Every solid primitive is cast the same way: compute the closed interval [tEnter, tExit] of the
 * LINE o + t·d (t ∈ ℝ) inside the primitive, with the outward unit normal at both ends, then
 * {@link selectRayHit} turns the interval into the answer of a ray with t ∈ [0, maxToi]:
 *
 * - tEnter > 0: the ray enters at tEnter;
 * - tEnter = 0 (the origin on the surface): a solid shape answers t = 0 with the outward normal
 *   there; a hollow one answers tExit with the normal where the ray leaves, as from inside (the
 *   origin lies in the closed shape; parry's hollow cast, and the 2D routines): the far side for
 *   a ray into the interior, t = 0 for one that leaves at once (tangent, or out through another
 *   face at an edge);
 * - tEnter < 0 ≤ tExit: the origin is inside; a solid shape answers t = 0 with a zero normal,
 *   a hollow one answers tExit with the outward normal where the ray leaves;
 * - otherwise the ray misses.
 *
 * The interval is closed, so grazing rays (tangent to a sphere, along a box face or edge,
 * parallel to a face inside its slab) hit. Sources: the slab test (Kay & Kajiya 1986; Ericson
 * 2005, §5.3.3), ray–sphere by the numerically stable quadratic (Ericson 2005, §5.3.2; Haines et
 * al., "Precision Improvements for Ray/Sphere Intersection", Ray Tracing Gems 2019, ch. 7),
 * capsules as the union of two balls and a finite cylinder side (Ericson 2005, §5.3.7),
 * cylinders and cones as a quadric intersected with a slab, convex polyhedra by clipping the
 * line against every face plane (Ericson 2005, §5.3.8; Cyrus & Beck 1978), and the watertight
 * ray–triangle test of Woop, Benthin & Wald 2013 ("Watertight Ray/Triangle Intersection",
 * JCGT 2(1)).
 *
 * This layer knows no shapes: each routine takes the primitive's numbers. No routine allocates.
 * Directions need not be unit; a zero direction gives the whole line (t from −∞ to ∞) when the
 * origin is inside, which {@link selectRayHit} answers as t = 0 for a solid shape and a miss
 * for a hollow one — never NaN.
 */

import {
  HYPOT_SAFE_MAX,
  HYPOT_SAFE_MIN,
  hypot2,
  hypot3,
  hypotIo,
  unitScaleFactor,
} from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import {
  detIo,
  orient3dSign,
  orient3dValue,
  tripleVectorSign,
  tripleVectorValue,
} from "./exact-predicates.js";

/** The part of a line o + t·d inside a convex primitive: [tEnter, tExit], with end normals. */
export interface RayInterval {
  /** Parameter where the line enters (−∞ when it never leaves the shape backwards). */
  tEnter: number;
  /** Parameter where the line leaves (+∞ when it never leaves). */
  tExit: number;
  /** Outward unit normal at the entry point (local frame); zero when tEnter is infinite. */
  readonly normalEnter: Vec3;
  /** Outward unit normal at the exit point (local frame); zero when tExit is infinite. */
  readonly normalExit: Vec3;
}

/** A new empty interval (allocates). */
export function makeRayInterval(): RayInterval {
  return {
    tEnter: Infinity,
    tExit: -Infinity,
    normalEnter: vec3.create(),
    normalExit: vec3.create(),
  };
}

/** Value returned by {@link selectRayHit} when the ray misses. */
export const RAY_MISS = -1;

/**
 * The ray's answer from the line interval `iv` (see the file comment): returns the time of
 * impact t ∈ [0, maxToi] and writes the outward unit normal to `outNormal` (zero for a solid
 * shape hit from inside), or returns {@link RAY_MISS}. Never returns an infinite t.
 */
export function selectRayHit(
  outNormal: Vec3,
  iv: RayInterval,
  maxToi: number,
  solid: boolean,
): number {
  rayHitIo[0] = maxToi;
  return selectRayHitIo(outNormal, iv, solid) ? rayHitIo[1] : RAY_MISS;
}

/** [0] the limit maxToi read by {@link selectRayHitIo}, [1] the time of impact it writes. */
export const rayHitIo = /* @__PURE__ */ new Float64Array(2);

/**
 * {@link selectRayHit} through `rayHitIo` (a double passed to or returned from a call V8 does
 * not inline is boxed): true with the time of impact in rayHitIo[1], false on a miss.
 */
export function selectRayHitIo(outNormal: Vec3, iv: RayInterval, solid: boolean): boolean {
  const maxToi = rayHitIo[0];
  const t0 = iv.tEnter;
  const t1 = iv.tExit;
  if (!(t0 <= t1) || !(t1 >= 0)) return false;
  // An origin on the surface (tEnter 0) is in the closed shape: a hollow ray reports where it
  // leaves, as from inside (parry's hollow cast; the 2D routines) — tExit, 0 when it leaves at
  // once (outward, tangent, or out through another face at an edge).
  if (t0 > 0 || (t0 >= 0 && solid)) {
    if (!(t0 <= maxToi) || !Number.isFinite(t0)) return false;
    vec3.copy(outNormal, iv.normalEnter);
    rayHitIo[1] = t0 + 0; // −0 (a slab time on the surface) becomes 0
    return true;
  }
  if (solid) {
    vec3.set(outNormal, 0, 0, 0);
    rayHitIo[1] = 0;
    return true;
  }
  if (!(t1 <= maxToi) || !Number.isFinite(t1)) return false;
  vec3.copy(outNormal, iv.normalExit);
  rayHitIo[1] = t1 + 0;
  return true;
}

/** Sets the interval to the whole line (the origin is inside and the direction is zero). */
function wholeLine(out: RayInterval): true {
  out.tEnter = -Infinity;
  out.tExit = Infinity;
  vec3.set(out.normalEnter, 0, 0, 0);
  vec3.set(out.normalExit, 0, 0, 0);
  return true;
}

/*
 * The numbers passed between this module's helpers, in typed arrays: V8 boxes (allocates) a
 * double stored in a module `let` or passed to or returned from a call it does not inline, and a
 * rounded shape's ray cast (12 capsules for a box, three line–ball tests each; the world's
 * rounded manifolds cast one per point) allocated ≈ 0.2 MB per world step so (issue 15).
 */
/** Roots of the last quadratic solved, [0] = t0 ≤ [1] = t1. */
const roots = /* @__PURE__ */ new Float64Array(2);
/** {@link solveQuadratic}'s arguments a, b, c, disc. */
const quadIn = /* @__PURE__ */ new Float64Array(4);
/** {@link lineBall}'s range of lengths used unscaled: squares and products stay normal doubles. */
const LINE_BALL_SCALE_MIN = 2 ** -400;
/** Upper end of {@link LINE_BALL_SCALE_MIN}'s range. */
const LINE_BALL_SCALE_MAX = 2 ** 400;
/** {@link lineBall}'s arguments mx, my, mz, dx, dy, dz, r. */
const lineIn = /* @__PURE__ */ new Float64Array(7);

/**
 * Roots of a·t² + 2b·t + c = 0 given the discriminant b² − ac (≥ 0) and a ≠ 0, by the stable
 * form q = −(b + sign(b)·√disc), roots q/a and c/q (Press et al., Numerical Recipes §5.6;
 * Ericson 2005, §5.3.2), a, b, c, disc read from {@link quadIn}. Writes roots[0] ≤ roots[1].
 */
function solveQuadratic(): void {
  const a = quadIn[0];
  const b = quadIn[1];
  const c = quadIn[2];
  const sq = Math.sqrt(quadIn[3]);
  const q = b >= 0 ? -(b + sq) : -(b - sq);
  if (q === 0) {
    // b = 0 and disc = 0 (hence c = 0): a double root at 0.
    roots[0] = 0;
    roots[1] = 0;
    return;
  }
  const r0 = q / a;
  const r1 = c / q;
  roots[0] = Math.min(r0, r1);
  roots[1] = Math.max(r0, r1);
}

/**
 * Solves |m + t·d| ≤ r for t with m, d given by components (read from {@link lineIn}): the interval of a line inside a
 * ball of radius r centred on the origin (or inside an infinite cylinder when m, d are the
 * components perpendicular to its axis). Writes roots[0] ≤ roots[1] and returns 1; returns 0 when the
 * line misses; returns 2 when d = 0 and |m| ≤ r (the whole line). The direction is normalised
 * first (rescaled by its largest component, so a tiny or subnormal d keeps its precision) and the
 * discriminant is r² − |m − (m·u)u|², the squared distance of the centre from the line, which
 * stays accurate for a distant origin (Ray Tracing Gems 2019, ch. 7). The quadratic's c and
 * discriminant are products of lengths: when the radius or the origin's largest coordinate lies
 * outside [2^-400, 2^400] they are first scaled by a power of two near 1 (`unitScaleFactor`,
 * exact) and the roots scaled back — a ray from inside a ball of radius 1e155 had c = −∞ and
 * missed (session 36's second attack), and a radius of 1e-160 squared to 0.
 */
function lineBall(): number {
  let mx = lineIn[0];
  let my = lineIn[1];
  let mz = lineIn[2];
  const dx = lineIn[3];
  const dy = lineIn[4];
  const dz = lineIn[5];
  let r = lineIn[6];
  // The lengths' scale: a power of two k taking them near 1 when out of range (rare; the roots
  // are divided by k at the end). Doubles in locals: nothing is boxed on the common path.
  const size = Math.max(Math.abs(mx), Math.abs(my), Math.abs(mz), r);
  let k = 1;
  if (!(size > LINE_BALL_SCALE_MIN && size < LINE_BALL_SCALE_MAX) && size > 0) {
    k = unitScaleFactor(size);
    mx *= k;
    my *= k;
    mz *= k;
    r *= k;
  }
  // hypot3's values written out (its common case and the zero vector, as `vec3.length` does):
  // a call V8 does not inline would box its arguments and result.
  const sm = mx * mx + my * my + mz * mz;
  const mLen =
    sm > HYPOT_SAFE_MIN && sm < HYPOT_SAFE_MAX
      ? Math.sqrt(sm)
      : mx === 0 && my === 0 && mz === 0
        ? 0
        : +hypot3(mx, my, mz);
  const c = (mLen - r) * (mLen + r);
  const big = Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz));
  if (!(big > 0)) return c <= 0 ? 2 : 0;
  let ux = dx / big;
  let uy = dy / big;
  let uz = dz / big;
  // 1 ≤ |u|² ≤ 3: hypot3's common case.
  const l = Math.sqrt(ux * ux + uy * uy + uz * uz);
  ux /= l;
  uy /= l;
  uz /= l;
  const dLen = big * l;
  const b = mx * ux + my * uy + mz * uz;
  const fx = mx - b * ux;
  const fy = my - b * uy;
  const fz = mz - b * uz;
  const sf = fx * fx + fy * fy + fz * fz;
  const fLen =
    sf > HYPOT_SAFE_MIN && sf < HYPOT_SAFE_MAX
      ? Math.sqrt(sf)
      : fx === 0 && fy === 0 && fz === 0
        ? 0
        : +hypot3(fx, fy, fz);
  const h2 = (r - fLen) * (r + fLen);
  if (h2 < 0) return 0;
  // Unit-direction roots τ of τ² + 2bτ + c = 0, then t = τ / |d|.
  quadIn[0] = 1;
  quadIn[1] = b;
  quadIn[2] = c;
  quadIn[3] = h2;
  solveQuadratic();
  roots[0] = roots[0] / dLen / k;
  roots[1] = roots[1] / dLen / k;
  if (c <= 0) {
    // The origin is inside or on the ball: the entry is at or before 0, the exit at or after.
    roots[0] = Math.min(roots[0], 0);
    roots[1] = Math.max(roots[1], 0);
  }
  return 1;
}

/**
 * out = out's unit vector, or `fallback` negated when it is zero (the caller writes the vector
 * into `out` first: passed as three numbers they would be boxed).
 */
function unitOr(out: Vec3, fallback: Vec3): Vec3 {
  if (!vec3.tryNormalize(out, out)) {
    vec3.negate(out, fallback);
    if (!vec3.tryNormalize(out, out)) vec3.set(out, 1, 0, 0);
  }
  return out;
}

/**
 * The line o + t·d inside the ball of `radius` centred on the local origin. Returns false when
 * it misses; otherwise writes the interval and the normals (p − centre)/radius at both ends.
 */
export function rayIntervalSphere(out: RayInterval, radius: number, o: Vec3, d: Vec3): boolean {
  lineIn[0] = o.x;
  lineIn[1] = o.y;
  lineIn[2] = o.z;
  lineIn[3] = d.x;
  lineIn[4] = d.y;
  lineIn[5] = d.z;
  lineIn[6] = radius;
  const k = lineBall();
  if (k === 0) return false;
  if (k === 2) return wholeLine(out);
  const t0 = roots[0];
  const t1 = roots[1];
  out.tEnter = t0;
  out.tExit = t1;
  const nIn = out.normalEnter;
  nIn.x = o.x + t0 * d.x;
  nIn.y = o.y + t0 * d.y;
  nIn.z = o.z + t0 * d.z;
  unitOr(nIn, d);
  const nOut = out.normalExit;
  nOut.x = o.x + t1 * d.x;
  nOut.y = o.y + t1 * d.y;
  nOut.z = o.z + t1 * d.z;
  unitOr(nOut, d);
  return true;
}

/**
 * The slab test (Kay & Kajiya 1986; Ericson 2005, §5.3.3): the line o + t·d inside the box
 * |x| ≤ h.x, |y| ≤ h.y, |z| ≤ h.z (half extents ≥ 0; zero gives a flat box). A direction
 * component of exactly 0 is handled without division: the line is inside that slab (closed,
 * so a ray along a face hits) or misses. The normals are the entry and exit face normals
 * (±axis); ties through edges and corners take the first axis. Returns false on a miss.
 */
export function rayIntervalCuboid(out: RayInterval, h: Vec3, o: Vec3, d: Vec3): boolean {
  // The three slabs written out: a helper returning a component (vec3.getAxis) is a double
  // returned by a call, boxed whenever the caller is past V8's inlining budget (ray casts
  // allocated in every cuboid hit test before).
  let tMin = -Infinity;
  let tMax = Infinity;
  let axisIn = -1;
  let signIn = 0;
  let axisOut = -1;
  let signOut = 0;
  for (let i = 0; i < 3; i++) {
    const oi = i === 0 ? o.x : i === 1 ? o.y : o.z;
    const di = i === 0 ? d.x : i === 1 ? d.y : d.z;
    const hi = i === 0 ? h.x : i === 1 ? h.y : h.z;
    if (di === 0) {
      if (oi < -hi || oi > hi) return false;
      continue;
    }
    const tLo = (-hi - oi) / di;
    const tHi = (hi - oi) / di;
    const near = di > 0 ? tLo : tHi;
    const far = di > 0 ? tHi : tLo;
    if (near > tMin) {
      tMin = near;
      axisIn = i;
      signIn = di > 0 ? -1 : 1;
    }
    if (far < tMax) {
      tMax = far;
      axisOut = i;
      signOut = di > 0 ? 1 : -1;
    }
    if (tMin > tMax) return false;
  }
  out.tEnter = tMin;
  out.tExit = tMax;
  const nIn = out.normalEnter;
  nIn.x = axisIn === 0 ? signIn : 0;
  nIn.y = axisIn === 1 ? signIn : 0;
  nIn.z = axisIn === 2 ? signIn : 0;
  const nOut = out.normalExit;
  nOut.x = axisOut === 0 ? signOut : 0;
  nOut.y = axisOut === 1 ? signOut : 0;
  nOut.z = axisOut === 2 ? signOut : 0;
  return true;
}

const capU = /* @__PURE__ */ vec3.create();

/**
 * The line o + t·d inside the capsule of radius r around segment a–b (a = b is a ball). The
 * capsule is the union of the balls at a and b and the side of the finite cylinder between
 * them, a convex set, so the interval runs from the earliest entry to the latest exit over the
 * three pieces; a side entry or exit counts only where it lies between the end planes (beyond
 * them a ball holds the boundary). Normals: radial from the core segment. Returns false on a
 * miss. Ericson 2005, §5.3.7.
 */
export function rayIntervalCapsule(
  out: RayInterval,
  a: Vec3,
  b: Vec3,
  r: number,
  o: Vec3,
  d: Vec3,
): boolean {
  capsuleIn[0] = r;
  return rayIntervalCapsuleIn(out, a, b, o, d);
}

/** The radius read by {@link rayIntervalCapsuleIn}. */
export const capsuleIn = /* @__PURE__ */ new Float64Array(1);

/**
 * {@link rayIntervalCapsule} with the radius read from `capsuleIn[0]`: for callers that loop
 * over many capsules (a rounded polytope's edges), where a radius passed to a call V8 does not
 * inline would be boxed per call.
 */
export function rayIntervalCapsuleIn(
  out: RayInterval,
  a: Vec3,
  b: Vec3,
  o: Vec3,
  d: Vec3,
): boolean {
  const r = capsuleIn[0];
  let tIn = Infinity;
  let tOut = -Infinity;
  let inX = 0;
  let inY = 0;
  let inZ = 0;
  let outX = 0;
  let outY = 0;
  let outZ = 0;
  for (let e = 0; e < 2; e++) {
    const c = e === 0 ? a : b;
    const mx = o.x - c.x;
    const my = o.y - c.y;
    const mz = o.z - c.z;
    lineIn[0] = mx;
    lineIn[1] = my;
    lineIn[2] = mz;
    lineIn[3] = d.x;
    lineIn[4] = d.y;
    lineIn[5] = d.z;
    lineIn[6] = r;
    const k = lineBall();
    if (k === 2) return wholeLine(out);
    if (k === 0) continue;
    const t0 = roots[0];
    const t1 = roots[1];
    if (t0 < tIn) {
      tIn = t0;
      inX = mx + t0 * d.x;
      inY = my + t0 * d.y;
      inZ = mz + t0 * d.z;
    }
    if (t1 > tOut) {
      tOut = t1;
      outX = mx + t1 * d.x;
      outY = my + t1 * d.y;
      outZ = mz + t1 * d.z;
    }
  }
  // The axis normalised as `vec3.normalize` does, its length not returned by a call (boxed).
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const ez = b.z - a.z;
  const se = ex * ex + ey * ey + ez * ez;
  let len = 0;
  if (se > HYPOT_SAFE_MIN && se < HYPOT_SAFE_MAX) {
    len = Math.sqrt(se);
    const inv = 1 / len;
    capU.x = ex * inv;
    capU.y = ey * inv;
    capU.z = ez * inv;
  } else {
    vec3.set(capU, ex, ey, ez);
    vec3.tryNormalize(capU, capU);
    len = hypotIo[0];
  }
  if (len > 0) {
    const ux = capU.x;
    const uy = capU.y;
    const uz = capU.z;
    const mx = o.x - a.x;
    const my = o.y - a.y;
    const mz = o.z - a.z;
    const ms = mx * ux + my * uy + mz * uz;
    const ds = d.x * ux + d.y * uy + d.z * uz;
    lineIn[0] = mx - ms * ux;
    lineIn[1] = my - ms * uy;
    lineIn[2] = mz - ms * uz;
    lineIn[3] = d.x - ds * ux;
    lineIn[4] = d.y - ds * uy;
    lineIn[5] = d.z - ds * uz;
    lineIn[6] = r;
    const k = lineBall();
    if (k === 1) {
      for (let e = 0; e < 2; e++) {
        const t = roots[e];
        const s = ms + t * ds;
        if (!(s >= 0 && s <= len)) continue;
        // Radial vector from the axis at parameter t.
        const px = mx + t * d.x - s * ux;
        const py = my + t * d.y - s * uy;
        const pz = mz + t * d.z - s * uz;
        if (e === 0 && t < tIn) {
          tIn = t;
          inX = px;
          inY = py;
          inZ = pz;
        }
        if (e === 1 && t > tOut) {
          tOut = t;
          outX = px;
          outY = py;
          outZ = pz;
        }
      }
    }
  }
  if (!(tIn <= tOut)) return false;
  out.tEnter = tIn;
  out.tExit = tOut;
  const nIn = out.normalEnter;
  nIn.x = inX;
  nIn.y = inY;
  nIn.z = inZ;
  unitOr(nIn, d);
  const nOut = out.normalExit;
  nOut.x = outX;
  nOut.y = outY;
  nOut.z = outZ;
  unitOr(nOut, d);
  return true;
}

/**
 * Intersects the interval with the slab |y| ≤ h of the cylinder and cone (normals ∓y at the
 * planes): updates out in place, returns false when the result is empty.
 */
function clipSlabY(out: RayInterval, h: number, oy: number, dy: number): boolean {
  if (dy === 0) return oy >= -h && oy <= h;
  const tLo = (-h - oy) / dy;
  const tHi = (h - oy) / dy;
  const near = dy > 0 ? tLo : tHi;
  const far = dy > 0 ? tHi : tLo;
  if (near > out.tEnter) {
    out.tEnter = near;
    vec3.set(out.normalEnter, 0, dy > 0 ? -1 : 1, 0);
  }
  if (far < out.tExit) {
    out.tExit = far;
    vec3.set(out.normalExit, 0, dy > 0 ? 1 : -1, 0);
  }
  return out.tEnter <= out.tExit;
}

/**
 * The line o + t·d inside the cylinder x² + z² ≤ r², |y| ≤ h (axis local +Y): the infinite
 * cylinder's interval (a 2D ray–disc quadratic) intersected with the slab of the caps. Normals:
 * radial on the side, ±y on the caps. Returns false on a miss.
 */
export function rayIntervalCylinder(
  out: RayInterval,
  h: number,
  r: number,
  o: Vec3,
  d: Vec3,
): boolean {
  lineIn[0] = o.x;
  lineIn[1] = 0;
  lineIn[2] = o.z;
  lineIn[3] = d.x;
  lineIn[4] = 0;
  lineIn[5] = d.z;
  lineIn[6] = r;
  const k = lineBall();
  if (k === 0) return false;
  if (k === 2) {
    out.tEnter = -Infinity;
    out.tExit = Infinity;
    vec3.set(out.normalEnter, 0, 0, 0);
    vec3.set(out.normalExit, 0, 0, 0);
  } else {
    const t0 = roots[0];
    const t1 = roots[1];
    out.tEnter = t0;
    out.tExit = t1;
    const nIn = out.normalEnter;
    nIn.x = o.x + t0 * d.x;
    nIn.y = 0;
    nIn.z = o.z + t0 * d.z;
    unitOr(nIn, d);
    const nOut = out.normalExit;
    nOut.x = o.x + t1 * d.x;
    nOut.y = 0;
    nOut.z = o.z + t1 * d.z;
    unitOr(nOut, d);
    out.normalEnter.y = 0;
    out.normalExit.y = 0;
  }
  return clipSlabY(out, h, o.y, d.y);
}

/** out = the cone's outward side normal at local point (x, y, z): ∇(ρ + k·y), unit. */
function coneSideNormal(out: Vec3, x: number, z: number, k: number): Vec3 {
  const rho = hypot2(x, z);
  if (!(rho > 0)) return vec3.set(out, 0, 1, 0);
  vec3.set(out, x / rho, k, z / rho);
  vec3.normalize(out, out);
  return out;
}

/**
 * The line o + t·d inside the cone with apex (0, h, 0) and base disc of radius r at y = −h:
 * the quadric ρ² = k²(h − y)², k = r/(2h), selects one or two pieces of the line; the lower
 * nappe's piece is kept and intersected with the slab |y| ≤ h (which also cuts away the upper
 * nappe). Normals: ∇(ρ + k·y) on the side, (0, −1, 0) on the base, (0, 1, 0) at the apex.
 * Returns false on a miss. The quadric's c and discriminant are products of lengths: a cone or
 * origin outside [2^-400, 2^400] is first scaled by a power of two near 1 (exact; `lineBall`'s
 * rule) and the interval scaled back (a ray from inside a cone of 1e155 had missed).
 */
export function rayIntervalCone(
  out: RayInterval,
  hIn: number,
  rIn: number,
  o: Vec3,
  d: Vec3,
): boolean {
  let h = hIn;
  let r = rIn;
  let ox = o.x;
  let oy = o.y;
  let oz = o.z;
  const size = Math.max(Math.abs(ox), Math.abs(oy), Math.abs(oz), h, r);
  let s = 1;
  if (!(size > LINE_BALL_SCALE_MIN && size < LINE_BALL_SCALE_MAX) && size > 0) {
    s = unitScaleFactor(size);
    h *= s;
    r *= s;
    ox *= s;
    oy *= s;
    oz *= s;
  }
  const k = r / (2 * h);
  const k2 = k * k;
  // Work relative to the apex: Q(v) = vx² + vz² − k²·vy² is the cone's quadratic form and the
  // line meets the side where Q(m + t·d) = 0, m = o − apex.
  const mx = ox;
  const my = oy - h;
  const mz = oz;
  const rhoM = hypot2(mx, mz);
  const kYm = k * Math.abs(my);
  const a = d.x * d.x + d.z * d.z - k2 * d.y * d.y;
  const b = mx * d.x + mz * d.z - k2 * my * d.y;
  const c = (rhoM - kYm) * (rhoM + kYm);
  // b² − ac by the identity −det(Q)·(m × d)ᵀQ⁻¹(m × d) = k²(wx² + wz²) − wy², w = m × d: no
  // cancellation of squares for a line near the apex (the analogue of the perpendicular
  // distance in the stable ray–sphere test).
  const wx = my * d.z - mz * d.y;
  const wy = mz * d.x - mx * d.z;
  const wz = mx * d.y - my * d.x;
  let tIn = -Infinity;
  let tOut = Infinity;
  let sideIn = false;
  let sideOut = false;
  if (a === 0) {
    // Parallel to a generator: the quadric is linear in t, 2b·t + c ≤ 0.
    if (b === 0) {
      if (c > 0) return false;
    } else if (b > 0) {
      tOut = -c / (2 * b);
      sideOut = true;
    } else {
      tIn = -c / (2 * b);
      sideIn = true;
    }
  } else {
    let disc = k2 * (wx * wx + wz * wz) - wy * wy;
    if (disc < 0) {
      if (a > 0) return false;
      disc = 0; // a < 0: the roots exist; rounding only.
    }
    quadIn[0] = a;
    quadIn[1] = b;
    quadIn[2] = c;
    quadIn[3] = disc;
    solveQuadratic();
    if (a > 0) {
      tIn = roots[0];
      tOut = roots[1];
      sideIn = true;
      sideOut = true;
    } else if (d.y < 0) {
      // Going down: the lower nappe holds the far half-line.
      tIn = roots[1];
      sideIn = true;
    } else {
      tOut = roots[0];
      sideOut = true;
    }
  }
  out.tEnter = tIn;
  out.tExit = tOut;
  if (sideIn) coneSideNormal(out.normalEnter, ox + tIn * d.x, oz + tIn * d.z, k);
  else vec3.set(out.normalEnter, 0, 0, 0);
  if (sideOut) coneSideNormal(out.normalExit, ox + tOut * d.x, oz + tOut * d.z, k);
  else vec3.set(out.normalExit, 0, 0, 0);
  const hit = clipSlabY(out, h, oy, d.y);
  if (s !== 1) {
    out.tEnter /= s;
    out.tExit /= s;
  }
  return hit;
}

/**
 * The line o + t·d inside the convex polyhedron {p : nᵢ·p ≤ offsetᵢ for every face i}, by
 * clipping against every plane (Ericson 2005, §5.3.8; Cyrus & Beck 1978): `normals` packed xyz
 * (unit, outward), `offsets` one per face. A plane parallel to the line keeps it when the
 * origin is on its inner side or exactly on it (so a ray along a face hits) and rejects it
 * otherwise. Normals are the entry and exit face normals. Returns false on a miss.
 */
export function rayIntervalConvexPolyhedron(
  out: RayInterval,
  normals: ArrayLike<number>,
  offsets: ArrayLike<number>,
  o: Vec3,
  d: Vec3,
): boolean {
  let tMin = -Infinity;
  let tMax = Infinity;
  let faceIn = -1;
  let faceOut = -1;
  const n = offsets.length;
  for (let f = 0; f < n; f++) {
    const nx = normals[3 * f];
    const ny = normals[3 * f + 1];
    const nz = normals[3 * f + 2];
    const denom = nx * d.x + ny * d.y + nz * d.z;
    const dist = offsets[f] - (nx * o.x + ny * o.y + nz * o.z);
    if (denom === 0) {
      if (dist < 0) return false;
      continue;
    }
    const t = dist / denom;
    if (denom < 0) {
      if (t > tMin) {
        tMin = t;
        faceIn = f;
      }
    } else if (t < tMax) {
      tMax = t;
      faceOut = f;
    }
    if (tMin > tMax) return false;
  }
  out.tEnter = tMin;
  out.tExit = tMax;
  if (faceIn >= 0) {
    vec3.set(
      out.normalEnter,
      normals[3 * faceIn],
      normals[3 * faceIn + 1],
      normals[3 * faceIn + 2],
    );
  } else vec3.set(out.normalEnter, 0, 0, 0);
  if (faceOut >= 0) {
    vec3.set(
      out.normalExit,
      normals[3 * faceOut],
      normals[3 * faceOut + 1],
      normals[3 * faceOut + 2],
    );
  } else vec3.set(out.normalExit, 0, 0, 0);
  return true;
}

/** Value returned by {@link rayTriangle} when the ray is exactly parallel to the triangle's plane (see there). */
export const RAY_TRIANGLE_DEGENERATE = -2;

const triN = /* @__PURE__ */ vec3.create();

/**
 * [0] the side of the triangle the last hit of {@link rayTriangleHit} came from: the sign of
 * ((b − a) × (c − a))·d, exact (−1: the ray meets the face (b − a) × (c − a) points out of, from
 * its front); [1] that hit's t (written by {@link rayTriangleTest}). Typed-array slots so that no
 * double is returned through a call (V8 boxes a double returned from a call it does not inline).
 */
export const rayTriangleIo = new Float64Array(2);

/**
 * The exact ray–triangle test: the ray o + t·d (t ≥ 0, d ≠ 0) against triangle abc, the one
 * routine of every triangle a ray meets (a bare triangle, a mesh's, a heightfield's, a
 * compound's child). Its decisions are exact on the input doubles (within
 * `exactRange` of src/geometry/exact-predicates.ts): the line meets the closed triangle when
 * the three signed volumes ((p − o) × (q − o))·d of its edges pq share a sign or are 0 (Plücker's
 * side test: an edge function of 0 counts as inside, and a neighbour sharing the edge gets the
 * exact negative, so a ray through a shared edge or vertex hits at least one of them — no
 * cracks, as Woop, Benthin & Wald's watertight test (JCGT 2013) meant — and every such ray
 * hits, however close to grazing), and its time of impact t = n·(a − o) / n·d (n = (b − a) ×
 * (c − a)) is ≥ 0 exactly when o lies on or before the plane along d (orient3d's exact sign):
 * an origin on the triangle hits at t = 0 exactly, one just behind it misses. t is the exact
 * quotient of two determinants each to a few roundings (their filtered values, else their
 * rounded exact expansions). Returns t, or {@link RAY_MISS}, or {@link RAY_TRIANGLE_DEGENERATE}
 * when n·d = 0 exactly — the ray parallel to the triangle's plane (in it or not), the triangle
 * degenerate (a segment or a point) or d = 0 — for the caller to decide (a surface misses; the
 * narrow phase's flat convex set takes a GJK ray cast). On a hit {@link rayTriangleIo}[0] holds
 * sign(n·d). Allocates nothing but the returned double's box where the call is not inlined
 * ({@link rayTriangleTest} returns none).
 */
export function rayTriangleHit(a: Vec3, b: Vec3, c: Vec3, o: Vec3, d: Vec3): number {
  const code = rayTriangleTest(a, b, c, o, d);
  return code < 0 ? code : rayTriangleIo[1];
}

/**
 * {@link rayTriangleHit} for hot loops: returns 0 on a hit with t in {@link rayTriangleIo}[1]
 * and sign(n·d) in [0], else {@link RAY_MISS} or {@link RAY_TRIANGLE_DEGENERATE} (small
 * integers: nothing is boxed, whether V8 inlines the call or not). The same decisions and t.
 */
export function rayTriangleTest(a: Vec3, b: Vec3, c: Vec3, o: Vec3, d: Vec3): number {
  const sa = tripleVectorSign(b, c, o, d);
  const sb = tripleVectorSign(c, a, o, d);
  if (sa * sb < 0) return RAY_MISS;
  const sc = tripleVectorSign(a, b, o, d);
  if (sa * sc < 0 || sb * sc < 0) return RAY_MISS;
  // Their sum is n·d: all 0 exactly when n·d = 0 (same signs cannot cancel).
  const side = sa !== 0 ? sa : sb !== 0 ? sb : sc;
  if (side === 0) return RAY_TRIANGLE_DEGENERATE;
  // orient3d(a, b, c, o) = sign n·(o − a): t ≥ 0 when it is 0 or opposite to n·d.
  const before = orient3dSign(a, b, c, o);
  if (before * side > 0) return RAY_MISS;
  rayTriangleIo[0] = side;
  if (before === 0) {
    rayTriangleIo[1] = 0;
    return 0;
  }
  orient3dValue(a, b, c, o);
  const num = -detIo[0];
  tripleVectorValue(b, c, a, d);
  const t = num / detIo[0];
  if (!Number.isFinite(t)) return RAY_MISS;
  rayTriangleIo[1] = t;
  return 0;
}

/**
 * {@link rayTriangleHit} with the unit normal of a hit written to `outNormal`: the triangle's
 * geometric normal on the side facing the ray's origin (the −d side; exact, from the test's side
 * of n·d). Returns t ≥ 0, {@link RAY_MISS} or {@link RAY_TRIANGLE_DEGENERATE} (also for a
 * triangle whose normal does not normalise).
 */
export function rayTriangle(outNormal: Vec3, a: Vec3, b: Vec3, c: Vec3, o: Vec3, d: Vec3): number {
  const t = rayTriangleHit(a, b, c, o, d);
  if (t < 0) return t;
  vec3.set(
    triN,
    (b.y - a.y) * (c.z - a.z) - (b.z - a.z) * (c.y - a.y),
    (b.z - a.z) * (c.x - a.x) - (b.x - a.x) * (c.z - a.z),
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x),
  );
  if (vec3.normalize(triN, triN) === 0) return RAY_TRIANGLE_DEGENERATE;
  if (rayTriangleIo[0] > 0) vec3.negate(triN, triN);
  vec3.copy(outNormal, triN);
  return t + 0;
}

/**
 * The line o + t·d against the half-space {p : n·p ≤ offset} (unit n): one boundary plane, so
 * the interval is [t*, +∞) when the line enters it (n·d < 0), (−∞, t*] when it leaves (n·d > 0),
 * the whole line or nothing when parallel (Ericson 2005, §5.3.1). Returns false for no interval.
 */
export function rayIntervalHalfSpace(
  out: RayInterval,
  n: Vec3,
  offset: number,
  o: Vec3,
  d: Vec3,
): boolean {
  const s0 = vec3.dot(n, o) - offset;
  const nd = vec3.dot(n, d);
  if (nd === 0) {
    if (s0 > 0) return false;
    return wholeLine(out);
  }
  const t = -s0 / nd;
  if (nd < 0) {
    out.tEnter = t;
    out.tExit = Infinity;
    vec3.copy(out.normalEnter, n);
    vec3.set(out.normalExit, 0, 0, 0);
  } else {
    out.tEnter = -Infinity;
    out.tExit = t;
    vec3.set(out.normalEnter, 0, 0, 0);
    vec3.copy(out.normalExit, n);
  }
  return true;
}

/**
 * The line o + t·d inside a flat convex polygon (a hull with `flat` set, src/geometry/hull.ts):
 * the Cyrus–Beck clip of {@link rayIntervalConvexPolyhedron} against its two face planes (±n)
 * and the side planes through its edges, whose outward normals (b − a) × n lie in the polygon's
 * plane (Ericson 2005, §5.3.8). A ray crossing the plane enters and leaves at one time, through
 * the face facing its origin; a ray in the plane enters through a side (normal in the plane).
 * `vertices` packed xyz; `loop` the `count` corner indices of face 0, counter-clockwise about
 * face 0's normal. Returns false on a miss. No allocation.
 */
export function rayIntervalFlatPolygon(
  out: RayInterval,
  vertices: ArrayLike<number>,
  loop: ArrayLike<number>,
  count: number,
  normals: ArrayLike<number>,
  offsets: ArrayLike<number>,
  o: Vec3,
  d: Vec3,
): boolean {
  if (!rayIntervalConvexPolyhedron(out, normals, offsets, o, d)) return false;
  let tMin = out.tEnter;
  let tMax = out.tExit;
  const nx = normals[0];
  const ny = normals[1];
  const nz = normals[2];
  let sideIn = -1;
  let sideOut = -1;
  for (let k = 0; k < count; k++) {
    const a = 3 * loop[k];
    const b = 3 * loop[k + 1 < count ? k + 1 : 0];
    const ex = vertices[b] - vertices[a];
    const ey = vertices[b + 1] - vertices[a + 1];
    const ez = vertices[b + 2] - vertices[a + 2];
    const sx = ey * nz - ez * ny;
    const sy = ez * nx - ex * nz;
    const sz = ex * ny - ey * nx;
    const denom = sx * d.x + sy * d.y + sz * d.z;
    const dist =
      sx * (vertices[a] - o.x) + sy * (vertices[a + 1] - o.y) + sz * (vertices[a + 2] - o.z);
    if (denom === 0) {
      if (dist < 0) return false;
      continue;
    }
    const t = dist / denom;
    if (denom < 0) {
      if (t > tMin) {
        tMin = t;
        sideIn = k;
      }
    } else if (t < tMax) {
      tMax = t;
      sideOut = k;
    }
    if (tMin > tMax) return false;
  }
  out.tEnter = tMin;
  out.tExit = tMax;
  if (sideIn >= 0) sideNormal(out.normalEnter, vertices, loop, count, sideIn, nx, ny, nz);
  if (sideOut >= 0) sideNormal(out.normalExit, vertices, loop, count, sideOut, nx, ny, nz);
  return true;
}

/** out = the unit outward normal (b − a) × n of side k of a flat polygon (see above). */
function sideNormal(
  out: Vec3,
  vertices: ArrayLike<number>,
  loop: ArrayLike<number>,
  count: number,
  k: number,
  nx: number,
  ny: number,
  nz: number,
): void {
  const a = 3 * loop[k];
  const b = 3 * loop[k + 1 < count ? k + 1 : 0];
  const ex = vertices[b] - vertices[a];
  const ey = vertices[b + 1] - vertices[a + 1];
  const ez = vertices[b + 2] - vertices[a + 2];
  vec3.set(out, ey * nz - ez * ny, ez * nx - ex * nz, ex * ny - ey * nx);
  vec3.normalize(out, out);
}
