/**
 * The GJK ray cast: the first point of a ray o + λ·d (λ ∈ [0, maxToi]) in any convex set known
 * only by its support function (van den Bergen 2004, "Ray Casting against General Convex
 * Objects with Application to Continuous Collision Detection"; van den Bergen 2003, §5.5.1).
 *
 * The algorithm keeps a point x = o + λ·d on the ray, a lower bound λ of the time of impact,
 * and a simplex of support points p_i of the set C. Each iteration takes the vector v from the
 * simplex's closest point to x, asks for the support point p of C in direction v, and, when the
 * plane through p with normal v separates x from C (v·(x − p) > 0), either proves a miss (the
 * ray runs away from that plane, v·d ≥ 0) or advances x to the plane (λ += v·(x − p)/(−v·d)),
 * which can never pass the first point of C on the ray. The loop ends when x is within
 * GJK_RAYCAST_TOLERANCE (relative to the set's size) of the simplex: x is the hit point and the
 * last separating v the outward normal there. λ = 0 at the end means the origin is inside.
 *
 * The set is the support map's core swept by its `margin` (s(v) + margin·v/|v|). A hollow cast
 * from inside is answered by casting back from a point beyond the set. Every loop is capped by
 * GJK_MAX_ITERATIONS; at the cap the current λ (a lower bound on the time of impact) is
 * reported as the hit. No allocation.
 */
import { GJK_MAX_ITERATIONS, GJK_RAYCAST_TOLERANCE, GJK_ROUNDING_TOLERANCE } from "../constants.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import {
  closestPointOnSegment,
  closestPointOnTetrahedron,
  closestPointOnTriangle,
} from "./closest-point.js";
import type { SupportMap } from "./support.js";

/** A ray hit in the support map's frame: time of impact in multiples of d, outward unit normal. */
export interface GjkRayHit {
  /** Time of impact λ ∈ [0, maxToi], in multiples of the ray direction. */
  toi: number;
  /** Outward unit normal at the hit; zero for a solid set hit from inside. */
  readonly normal: Vec3;
}

/** A new zeroed ray hit (allocates). */
export function makeGjkRayHit(): GjkRayHit {
  return { toi: 0, normal: vec3.create() };
}

const simplex = [
  /* @__PURE__ */ vec3.create(),
  /* @__PURE__ */ vec3.create(),
  /* @__PURE__ */ vec3.create(),
  /* @__PURE__ */ vec3.create(),
];
const weights = /* @__PURE__ */ new Float64Array(4);
const x = /* @__PURE__ */ vec3.create();
const v = /* @__PURE__ */ vec3.create();
const p = /* @__PURE__ */ vec3.create();
const closest = /* @__PURE__ */ vec3.create();
const tmp = /* @__PURE__ */ vec3.create();
const lastN = /* @__PURE__ */ vec3.create();
const farOrigin = /* @__PURE__ */ vec3.create();
const backDir = /* @__PURE__ */ vec3.create();
/**
 * Doubles that would otherwise cross a call (boxed when V8 does not inline it, as under the mesh
 * pairs' deep call chains): [0] the `maxToi` of {@link cast}, [1] its λ, [2] {@link setExtent}'s
 * size, [3] a length of {@link lengthInto}.
 */
const io = /* @__PURE__ */ new Float64Array(4);

/** io[3] = |a| as `vec3.length` (hypot3) computes it, its common case inline. */
function lengthInto(a: Vec3): void {
  const ax = a.x;
  const ay = a.y;
  const az = a.z;
  const s = ax * ax + ay * ay + az * az;
  // Two stores, not one of a conditional: a merge of √s with hypot3's (tagged) result is tagged,
  // so V8 boxed √s on the common path.
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) io[3] = Math.sqrt(s);
  // A zero vector (an origin, a pair at the identity) answered here: hypot3's call would box
  // its three coordinates when V8 does not inline it (27 KB per step in the mesh probe once).
  else if (ax === 0 && ay === 0 && az === 0) io[3] = 0;
  else io[3] = hypot3(ax, ay, az);
}

/** out = the full set's support point in direction dir (core support + margin along dir). */
function supportFull(out: Vec3, map: SupportMap, dir: Vec3): Vec3 {
  map.support(out, dir);
  const m = map.margin;
  if (m > 0) {
    lengthInto(dir);
    const len = io[3];
    if (len > 0) {
      // out += dir·(m / len), written out: a double passed to a call V8 does not inline is boxed.
      const k = m / len;
      out.x = out.x + dir.x * k;
      out.y = out.y + dir.y * k;
      out.z = out.z + dir.z * k;
    }
  }
  return out;
}

/** io[2] = size of the set: the largest width along the coordinate axes (plus the margin's). */
function setExtent(map: SupportMap): void {
  let ext = 0;
  for (let i = 0; i < 3; i++) {
    vec3.set(tmp, 0, 0, 0);
    vec3.setAxis(tmp, i, 1);
    map.support(p, tmp);
    const hi = i === 0 ? p.x : i === 1 ? p.y : p.z;
    vec3.setAxis(tmp, i, -1);
    map.support(p, tmp);
    ext = Math.max(ext, hi - (i === 0 ? p.x : i === 1 ? p.y : p.z));
  }
  io[2] = ext + 2 * map.margin;
}

/**
 * v = x − (closest point of the simplex's hull to x); drops the vertices with zero weight.
 * Returns the new vertex count.
 */
function reduce(count: number): number {
  const s = simplex;
  if (count === 1) vec3.copy(closest, s[0]);
  else if (count === 2) closestPointOnSegment(closest, x, s[0], s[1], weights);
  else if (count === 3) closestPointOnTriangle(closest, x, s[0], s[1], s[2], weights);
  else closestPointOnTetrahedron(closest, x, s[0], s[1], s[2], s[3], weights);
  vec3.sub(v, x, closest);
  if (count === 1) return 1;
  let k = 0;
  for (let i = 0; i < count; i++) {
    if (weights[i] > 0) {
      if (k !== i) vec3.copy(s[k], s[i]);
      k++;
    }
  }
  return k > 0 ? k : 1;
}

/**
 * Core loop: casts from `o` along `d` up to λ = maxToi = io[0]; returns false on a miss or when
 * λ would exceed maxToi, else true with λ ≥ 0 in io[1] (and the unit normal in `lastN`, or zero
 * when λ = 0 and the origin is inside).
 */
function cast(map: SupportMap, o: Vec3, d: Vec3): boolean {
  const maxToi = io[0];
  let lambda = 0;
  vec3.copy(x, o);
  vec3.set(lastN, 0, 0, 0);
  supportFull(simplex[0], map, d);
  let count = 1;
  vec3.sub(v, x, simplex[0]);
  setExtent(map);
  const size = io[2];
  lengthInto(o);
  const lenO = io[3];
  lengthInto(simplex[0]);
  const coord = Math.max(lenO, io[3]);
  const eps = GJK_RAYCAST_TOLERANCE * size + GJK_ROUNDING_TOLERANCE * coord;
  const eps2 = eps * eps;
  let prevVV = Infinity;
  for (let iter = 0; iter < GJK_MAX_ITERATIONS; iter++) {
    const vv = v.x * v.x + v.y * v.y + v.z * v.z;
    if (vv <= eps2) break;
    supportFull(p, map, v);
    vec3.sub(tmp, x, p);
    const vw = v.x * tmp.x + v.y * tmp.y + v.z * tmp.z;
    let advanced = false;
    if (vw > 0) {
      const vd = v.x * d.x + v.y * d.y + v.z * d.z;
      if (vd >= 0) return false;
      lambda -= vw / vd;
      if (!(lambda <= maxToi)) return false;
      x.x = o.x + d.x * lambda;
      x.y = o.y + d.y * lambda;
      x.z = o.z + d.z * lambda;
      vec3.copy(lastN, v);
      advanced = true;
    }
    if (!advanced && !(vv < prevVV)) break; // no progress: x is as close as rounding allows
    prevVV = advanced ? Infinity : vv;
    let dup = false;
    for (let i = 0; i < count; i++) if (vec3.exactEquals(simplex[i], p)) dup = true;
    // count < 4 here: a 4-point simplex holds x, so v = 0 and the loop has ended.
    if (!dup && count < 4) {
      vec3.copy(simplex[count], p);
      count++;
    }
    count = reduce(count);
    if (count === 4) vec3.set(v, 0, 0, 0);
  }
  // lastN was set with v·(x − p) > 0, so it is non-zero whenever λ > 0.
  if (lambda === 0 || !vec3.tryNormalize(lastN, lastN)) vec3.set(lastN, 0, 0, 0);
  io[1] = lambda;
  return true;
}

/**
 * Casts the ray `o + λ·d` (λ ∈ [0, maxToi], d ≠ 0; o and d in the support map's frame) against
 * the convex set of `map` (its core swept by its margin). On a hit writes the time of impact and
 * the outward unit normal to `out` and returns true. A ray starting inside gives λ = 0 and a
 * zero normal when `solid`; when not `solid` it reports where the ray leaves the set, with the
 * outward normal there. Returns false on a miss or when d = 0 and the cast is hollow.
 * Source: van den Bergen 2004 (the GJK ray cast).
 */
export function gjkRayCast(
  out: GjkRayHit,
  map: SupportMap,
  o: Vec3,
  d: Vec3,
  maxToi: number,
  solid: boolean,
): boolean {
  lengthInto(d);
  const dLen = io[3];
  if (!(dLen > 0)) {
    // A point: inside (a zero-length cast from it "hits" a solid set) or not.
    if (!solid) return false;
    io[0] = 0;
    if (!cast(map, o, vec3.set(tmp, 1, 0, 0)) || io[1] !== 0) return false;
    out.toi = 0;
    vec3.set(out.normal, 0, 0, 0);
    return true;
  }
  io[0] = maxToi;
  if (!cast(map, o, d)) return false;
  const lam = io[1];
  if (lam > 0 || solid) {
    out.toi = lam;
    vec3.copy(out.normal, lastN);
    return true;
  }
  // Hollow from inside: cast back from a point beyond the set.
  supportFull(p, map, d);
  // |o − p| and o + far·d written out (through io): no double crosses a call.
  vec3.sub(tmp, o, p);
  lengthInto(tmp);
  const toP = io[3];
  setExtent(map); // (uses p and tmp)
  const reach = toP + io[2];
  // Twice the reach: beyond the set (its points lie within |o − p| + √3·extent of o). No
  // absolute term: `far − back` below rounds at ulp(far), so a `+ 1` there had quantized the
  // exit of a set of size 1e-17 to multiples of 2^-52 (a sphere's face depth on a heightfield
  // of 2^-53 came out 0; attack 38). 1 only for a set that is one point at o.
  const far = reach > 0 ? (2 * reach) / dLen : 1 / dLen;
  farOrigin.x = o.x + d.x * far;
  farOrigin.y = o.y + d.y * far;
  farOrigin.z = o.z + d.z * far;
  vec3.negate(backDir, d);
  io[0] = far;
  if (!cast(map, farOrigin, backDir)) return false;
  const back = io[1];
  const toi = Math.max(0, far - back);
  if (!(toi <= maxToi)) return false;
  out.toi = toi;
  vec3.copy(out.normal, lastN);
  return true;
}
