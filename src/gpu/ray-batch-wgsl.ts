/**
 * The WGSL kernel of the GPU ray batch (src/gpu/ray-batch.ts): one thread per ray walks a
 * bounding volume hierarchy stored in a storage buffer (depth-first: the left child follows its
 * parent, a node keeps its right child's index; Ericson 2005, §6.6.2), with a small stack, and
 * keeps the closest hit that is SURE — the ray hits the primitive shrunk by `eta` (the ray's f32
 * error bound) — together with the lowest entry time of every primitive that MIGHT be hit (the
 * primitive grown by `eta`). Per ray it writes the best time of impact, its error, the lowest
 * competing entry time, and the primitive index; the host keeps the GPU's answer only when no
 * competitor can come before it (see src/gpu/ray-batch.ts). Grown/shrunk shapes bracket the true
 * entry time because entry time is monotone in the shape (a larger shape is entered no later).
 */
import { WORKGROUP_SIZE } from "./device.js";

/** Primitive kinds. */
export const PRIM_SPHERE = 0;
/** An oriented box (cuboid). */
export const PRIM_BOX = 1;
/** A capsule, tested only through its bounding box: a hit is always left to the CPU. */
export const PRIM_BOUND_ONLY = 2;
/** A triangle of a mesh. */
export const PRIM_TRIANGLE = 3;

/** Depth of the traversal stack; the host builds BVHs no deeper. */
export const RAY_STACK_DEPTH = 48;

/** A large finite f32 standing for "none" (WGSL may assume no infinities). */
export const F32_NONE = 3.0e38;

export const RAY_WGSL = /* wgsl */ `
struct Ray { o: vec4f, d: vec4f }        // o.w = eta (length), d.w = maxToi
struct Prim { p0: vec4f, p1: vec4f, p2: vec4f, p3: vec4f }
struct Node { mn: vec4f, mx: vec4f }     // mn.w: first primitive (leaf) or right child (bits); mx.w: count (bits), 0 = inner
struct Params { count: u32, pad0: u32, pad1: u32, pad2: u32 }
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> rays: array<Ray>;
@group(0) @binding(2) var<storage, read> prims: array<Prim>;
@group(0) @binding(3) var<storage, read> nodes: array<Node>;
@group(0) @binding(4) var<storage, read_write> outp: array<vec4u>;

const NONE = ${F32_NONE};
const MISS = -1.0;

// Entry time t >= 0 of the ray into the box [mn, mx] (0 when inside), or MISS.
fn boxEntry(o: vec3f, d: vec3f, mn: vec3f, mx: vec3f) -> f32 {
  var t0 = 0.0;
  var t1 = NONE;
  for (var k = 0u; k < 3u; k++) {
    if (d[k] == 0.0) {
      if (o[k] < mn[k] || o[k] > mx[k]) { return MISS; }
    } else {
      var a = (mn[k] - o[k]) / d[k];
      var b = (mx[k] - o[k]) / d[k];
      if (a > b) { let s = a; a = b; b = s; }
      t0 = max(t0, a);
      t1 = min(t1, b);
      if (t0 > t1) { return MISS; }
    }
  }
  return t0;
}

fn sphereEntry(m: vec3f, d: vec3f, r: f32) -> f32 {
  if (r <= 0.0) { return MISS; }
  let cc = dot(m, m) - r * r;
  if (cc <= 0.0) { return 0.0; }
  let a = dot(d, d);
  let b = dot(m, d);
  if (b >= 0.0) { return MISS; }
  let disc = b * b - a * cc;
  if (disc < 0.0) { return MISS; }
  return max((-b - sqrt(disc)) / a, 0.0);
}

struct Hit { sure: bool, t: f32, err: f32, low: f32 }  // low = MISS: surely missed

// The bracket from the grown (tIn) and shrunk (tSure) shapes, with the nominal time tNom.
fn bracket(tIn: f32, tSure: f32, tNom: f32, tmax: f32, slack: f32) -> Hit {
  if (tIn < 0.0 || tIn > tmax) { return Hit(false, 0.0, 0.0, MISS); }
  if (tSure >= 0.0 && tSure <= tmax) {
    var t = tNom;
    if (t < 0.0) { t = tSure; }
    let err = max(t - tIn, tSure - t) + slack + 1e-6 * t;
    return Hit(true, t, err, tIn);
  }
  return Hit(false, 0.0, 0.0, tIn);
}

fn testPrim(p: Prim, o: vec3f, d: vec3f, eta: f32, tmax: f32) -> Hit {
  let kind = u32(p.p0.w);
  let dl = length(d);
  let slack = 2.0 * eta / dl;
  if (kind == ${PRIM_SPHERE}u) {
    let m = o - p.p0.xyz;
    let r = p.p1.x;
    return bracket(sphereEntry(m, d, r + eta), sphereEntry(m, d, r - eta), sphereEntry(m, d, r), tmax, slack);
  }
  if (kind == ${PRIM_BOX}u || kind == ${PRIM_BOUND_ONLY}u) {
    let R = mat3x3f(p.p1.xyz, p.p2.xyz, p.p3.xyz);
    let h = vec3f(p.p1.w, p.p2.w, p.p3.w);
    let ol = transpose(R) * (o - p.p0.xyz);
    let dlc = transpose(R) * d;
    let e = vec3f(eta);
    let tIn = boxEntry(ol, dlc, -h - e, h + e);
    if (kind == ${PRIM_BOUND_ONLY}u) {
      if (tIn < 0.0 || tIn > tmax) { return Hit(false, 0.0, 0.0, MISS); }
      return Hit(false, 0.0, 0.0, tIn);
    }
    var tSure = MISS;
    if (all(h > e)) { tSure = boxEntry(ol, dlc, -h + e, h - e); }
    return bracket(tIn, tSure, boxEntry(ol, dlc, -h, h), tmax, slack);
  }
  // Triangle.
  let v0 = p.p0.xyz;
  let v1 = p.p1.xyz;
  let v2 = p.p2.xyz;
  let n = cross(v1 - v0, v2 - v0);
  let nl = length(n);
  let denom = dot(n, d);
  let cosang = abs(denom) / (nl * dl);
  if (!(nl > 0.0) || cosang < ${2 ** -8}) {
    // Degenerate or nearly parallel: its grown bounding box stands in.
    let e = vec3f(eta);
    let tIn = boxEntry(o, d, min(min(v0, v1), v2) - e, max(max(v0, v1), v2) + e);
    if (tIn < 0.0 || tIn > tmax) { return Hit(false, 0.0, 0.0, MISS); }
    return Hit(false, 0.0, 0.0, tIn);
  }
  let t = dot(n, v0 - o) / denom;
  let terr = 2.0 * eta / (dl * cosang) + 1e-6 * abs(t);
  if (t + terr < 0.0 || t - terr > tmax) { return Hit(false, 0.0, 0.0, MISS); }
  let q = o + t * d;
  let d0 = dot(cross(v1 - v0, q - v0), n) / (nl * length(v1 - v0));
  let d1 = dot(cross(v2 - v1, q - v1), n) / (nl * length(v2 - v1));
  let d2 = dot(cross(v0 - v2, q - v2), n) / (nl * length(v0 - v2));
  let inside = min(min(d0, d1), d2);
  let etaP = 2.0 * eta * (1.0 + 2.0 / cosang);
  if (inside < -etaP) { return Hit(false, 0.0, 0.0, MISS); }
  let low = max(t - terr, 0.0);
  if (inside > etaP && t - terr >= 0.0 && t + terr <= tmax) { return Hit(true, t, terr, low); }
  return Hit(false, 0.0, 0.0, low);
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  if (i >= prm.count) { return; }
  let ray = rays[i];
  let o = ray.o.xyz;
  let d = ray.d.xyz;
  let eta = ray.o.w;
  let tmax = ray.d.w;
  let e = vec3f(eta);
  var best = NONE;
  var bestErr = 0.0;
  var bestIdx = 0xffffffffu;
  var comp = NONE;
  var stack: array<u32, ${RAY_STACK_DEPTH}>;
  var sp = 1u;
  stack[0] = 0u;
  loop {
    if (sp == 0u) { break; }
    sp -= 1u;
    let idx = stack[sp];
    let nd = nodes[idx];
    let limit = min(tmax, best + bestErr);
    let tn = boxEntry(o, d, nd.mn.xyz - e, nd.mx.xyz + e);
    if (tn < 0.0 || tn > limit) { continue; }
    let cnt = bitcast<u32>(nd.mx.w);
    let w = bitcast<u32>(nd.mn.w);
    if (cnt == 0u) {
      stack[sp] = w;
      stack[sp + 1u] = idx + 1u;
      sp += 2u;
      continue;
    }
    for (var k = w; k < w + cnt; k++) {
      let h = testPrim(prims[k], o, d, eta, tmax);
      if (h.low < 0.0) { continue; }
      if (h.sure && h.t < best) {
        if (bestIdx != 0xffffffffu) { comp = min(comp, best - bestErr); }
        best = h.t;
        bestErr = h.err;
        bestIdx = k;
      } else {
        comp = min(comp, h.low);
      }
    }
  }
  outp[i] = vec4u(bitcast<u32>(best), bitcast<u32>(bestErr), bitcast<u32>(comp), bestIdx);
}
`;
