/**
 * The WGSL kernel of the GPU batch narrow phase (src/gpu/narrow-phase.ts). One thread per pair,
 * in shape A's local frame, with A the pair's "larger" type (cuboid > capsule > sphere). Each
 * routine bounds the signed distance `d` of the pair (negative = penetration) and, against the
 * pair's error bound `eps` (host-computed, see {@link GPU_NARROW_RELATIVE_ERROR}), decides:
 *
 * - `SEPARATED` when a lower bound on `d` exceeds `eps`;
 * - `CONTACT` when `d < −eps` and the normal is well defined (sphere and capsule pairs with cores
 *   farther apart than `eps`): `d` and the normal are the kernel's;
 * - `INTERSECTING` when an upper bound on `d` is below `−eps` but the contact is the host's to give
 *   (boxes: SAT's deepest axis may tie; a core inside the other shape);
 * - `AMBIGUOUS` otherwise (near touching, or an axis too degenerate to trust in f32): the host
 *   decides with the CPU routine.
 *
 * Closed forms: sphere–sphere, segment–point and segment–segment closest points (Ericson 2005,
 * §5.1.2, §5.1.9), point–box (§5.1.3); separating axes for box–box (Gottschalk's 15 axes,
 * Ericson §4.4.1) and box–segment (the 3 face normals and 3 edge–segment crosses, §5.2.1).
 */
import { WORKGROUP_SIZE } from "./device.js";

/** Status codes written per pair (see the module docs). */
export const STATUS_SEPARATED = 0;
/** The pair intersects; distance and normal from the GPU. */
export const STATUS_CONTACT = 1;
/** The pair intersects; the host computes the contact. */
export const STATUS_INTERSECTING = 2;
/** The host decides. */
export const STATUS_AMBIGUOUS = 3;

/** Pair kinds (A's type, B's type). */
export const KIND_SPHERE_SPHERE = 0;
/** Capsule A, sphere B. */
export const KIND_CAPSULE_SPHERE = 1;
/** Capsule A, capsule B. */
export const KIND_CAPSULE_CAPSULE = 2;
/** Cuboid A, sphere B. */
export const KIND_CUBOID_SPHERE = 3;
/** Cuboid A, capsule B. */
export const KIND_CUBOID_CAPSULE = 4;
/** Cuboid A, cuboid B. */
export const KIND_CUBOID_CUBOID = 5;

/** f32 values (vec4s) of one pair record; see `Pair` in the kernel. */
export const PAIR_RECORD_VEC4 = 8;

/**
 * Cross-product axes whose squared length (of unit factors) is below this are not trusted to
 * decide in f32 (edges within about 3.6° of parallel): the pair is separated only by another
 * axis, else ambiguous. Exactly zero axes (parallel edges) are skipped, as SAT allows.
 */
export const SAT_TRUSTED_AXIS_SQ = 1 / 256;

export const NARROW_WGSL = /* wgsl */ `
struct Pair {
  a: vec4f,   // cuboid: half extents; capsule/sphere: (0, 0, 0, radius)
  a0: vec4f,  // capsule A: endpoint a (A frame); w = eps, the pair's error bound
  a1: vec4f,  // capsule A: endpoint b (A frame); w = kind
  bt: vec4f,  // B's origin in A's frame
  bx: vec4f,  // cuboid B: rotation columns in A's frame
  by: vec4f,
  bz: vec4f,
  b: vec4f,   // cuboid B: half extents; sphere: (0, 0, 0, radius); capsule: (b − a in A's frame, radius)
}
struct Params { count: u32, pad0: u32, pad1: u32, pad2: u32 }
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> pairs: array<Pair>;
@group(0) @binding(2) var<storage, read_write> results: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> status: array<u32>;

const SEPARATED = ${STATUS_SEPARATED}u;
const CONTACT = ${STATUS_CONTACT}u;
const INTERSECTING = ${STATUS_INTERSECTING}u;
const AMBIGUOUS = ${STATUS_AMBIGUOUS}u;
const TRUSTED_SQ = ${SAT_TRUSTED_AXIS_SQ};

struct Res { d: f32, n: vec3f, s: u32 }

// Decision for a distance d known to within eps, with a normal n that is good when nOk.
fn decide(d: f32, n: vec3f, eps: f32, nOk: bool) -> Res {
  if (d > eps) { return Res(d, n, SEPARATED); }
  if (d < -eps) {
    if (nOk) { return Res(d, n, CONTACT); }
    return Res(d, n, INTERSECTING);
  }
  return Res(d, n, AMBIGUOUS);
}

fn closestOnSegment(p: vec3f, a: vec3f, b: vec3f) -> vec3f {
  let ab = b - a;
  let l2 = dot(ab, ab);
  if (l2 <= 0.0) { return a; }
  let t = clamp(dot(p - a, ab) / l2, 0.0, 1.0);
  return a + t * ab;
}

// Closest points of segments p1q1 and p2q2 (Ericson 2005, §5.1.9); returns (c2 − c1).
fn segmentSegment(p1: vec3f, q1: vec3f, p2: vec3f, q2: vec3f) -> vec3f {
  let d1 = q1 - p1;
  let d2 = q2 - p2;
  let r = p1 - p2;
  let a = dot(d1, d1);
  let e = dot(d2, d2);
  let f = dot(d2, r);
  var s = 0.0;
  var t = 0.0;
  if (a <= 0.0 && e <= 0.0) {
    return p2 - p1;
  }
  if (a <= 0.0) {
    t = clamp(f / e, 0.0, 1.0);
  } else {
    let c = dot(d1, r);
    if (e <= 0.0) {
      s = clamp(-c / a, 0.0, 1.0);
    } else {
      let b = dot(d1, d2);
      let denom = a * e - b * b;
      if (denom > 0.0) { s = clamp((b * f - c * e) / denom, 0.0, 1.0); }
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return (p2 + d2 * t) - (p1 + d1 * s);
}

fn pointCore(v: vec3f, r: f32, eps: f32) -> Res {
  let l = length(v);
  var n = vec3f(0.0, 0.0, 1.0);
  if (l > 0.0) { n = v / l; }
  return decide(l - r, n, eps, l > eps);
}

// Distance from p to the box [-h, h] (0 inside) and the outward direction when outside.
fn pointBox(p: vec3f, h: vec3f) -> vec4f {
  let q = clamp(p, -h, h);
  let v = p - q;
  return vec4f(v, length(v));
}

// Separation of the segment (mid m, half vector hv) from the box [-h, h] along unit-ish axis L.
fn segAxis(L: vec3f, m: vec3f, hv: vec3f, h: vec3f) -> f32 {
  return abs(dot(m, L)) - dot(h, abs(L)) - abs(dot(hv, L));
}

fn cuboidCapsule(p: Pair, eps: f32) -> Res {
  let h = p.a.xyz;
  let s0 = p.bt.xyz;
  let s1 = p.bt.xyz + p.b.xyz;
  let r = p.b.w;
  let m = 0.5 * (s0 + s1);
  let hv = 0.5 * (s1 - s0);
  // Lower bound: the best trusted separating axis; segment crosses the box when none separates.
  var lower = -3.4e38;
  var crosses = true;
  for (var i = 0u; i < 3u; i++) {
    var e = vec3f(0.0);
    e[i] = 1.0;
    let s = segAxis(e, m, hv, h);
    lower = max(lower, s);
    if (s >= -eps) { crosses = false; }
    let c = cross(e, hv);
    let c2 = dot(c, c);
    let hv2 = dot(hv, hv);
    if (c2 > 0.0) {
      let L = c / sqrt(c2);
      let sc = segAxis(L, m, hv, h);
      if (c2 >= TRUSTED_SQ * hv2) {
        lower = max(lower, sc);
        if (sc >= -eps) { crosses = false; }
      } else {
        crosses = false;
      }
    }
  }
  if (lower - r > eps) { return Res(lower - r, vec3f(0.0), SEPARATED); }
  // Upper bound: a point of the segment (an endpoint or the middle) near the box, or a crossing.
  var upper = min(min(pointBox(s0, h).w, pointBox(s1, h).w), pointBox(m, h).w);
  if (crosses) { upper = 0.0; }
  if (upper - r < -eps) { return Res(upper - r, vec3f(0.0), INTERSECTING); }
  return Res(0.0, vec3f(0.0), AMBIGUOUS);
}

fn cuboidCuboid(p: Pair, eps: f32) -> Res {
  let ha = p.a.xyz;
  let hb = p.b.xyz;
  let t = p.bt.xyz;
  let B = mat3x3f(p.bx.xyz, p.by.xyz, p.bz.xyz);
  var lower = -3.4e38;
  var allTrusted = true;
  var allOverlap = true;
  for (var k = 0u; k < 15u; k++) {
    var L = vec3f(0.0);
    var trusted = true;
    if (k < 3u) {
      L[k] = 1.0;
    } else if (k < 6u) {
      L = B[k - 3u];
    } else {
      let i = (k - 6u) / 3u;
      let j = (k - 6u) % 3u;
      var e = vec3f(0.0);
      e[i] = 1.0;
      let c = cross(e, B[j]);
      let c2 = dot(c, c);
      if (c2 <= 0.0) { continue; }
      trusted = c2 >= TRUSTED_SQ;
      L = c / sqrt(c2);
    }
    let proj = abs(dot(t, L)) - dot(ha, abs(L)) - dot(hb, abs(transpose(B) * L));
    if (trusted) {
      lower = max(lower, proj);
      if (proj >= -eps) { allOverlap = false; }
    } else {
      allTrusted = false;
    }
  }
  if (lower > eps) { return Res(lower, vec3f(0.0), SEPARATED); }
  if (allTrusted && allOverlap) { return Res(lower, vec3f(0.0), INTERSECTING); }
  return Res(0.0, vec3f(0.0), AMBIGUOUS);
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  if (i >= prm.count) { return; }
  let p = pairs[i];
  let eps = p.a0.w;
  let kind = u32(p.a1.w);
  var res = Res(0.0, vec3f(0.0), AMBIGUOUS);
  switch kind {
    case ${KIND_SPHERE_SPHERE}u: {
      res = pointCore(p.bt.xyz, p.a.w + p.b.w, eps);
    }
    case ${KIND_CAPSULE_SPHERE}u: {
      let q = closestOnSegment(p.bt.xyz, p.a0.xyz, p.a1.xyz);
      res = pointCore(p.bt.xyz - q, p.a.w + p.b.w, eps);
    }
    case ${KIND_CAPSULE_CAPSULE}u: {
      let v = segmentSegment(p.a0.xyz, p.a1.xyz, p.bt.xyz, p.bt.xyz + p.b.xyz);
      res = pointCore(v, p.a.w + p.b.w, eps);
    }
    case ${KIND_CUBOID_SPHERE}u: {
      let pb = pointBox(p.bt.xyz, p.a.xyz);
      var n = vec3f(0.0, 0.0, 1.0);
      if (pb.w > 0.0) { n = pb.xyz / pb.w; }
      res = decide(pb.w - p.b.w, n, eps, pb.w > eps);
    }
    case ${KIND_CUBOID_CAPSULE}u: {
      res = cuboidCapsule(p, eps);
    }
    case ${KIND_CUBOID_CUBOID}u: {
      res = cuboidCuboid(p, eps);
    }
    default: {}
  }
  results[i] = vec4f(res.n, res.d);
  status[i] = res.s;
}
`;
