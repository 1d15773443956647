/**
 * The WGSL kernels of the GPU broad phase (src/gpu/broad-phase.ts): sort-based sweep and prune
 * on the GPU (Liu, Harada, Lee and Kim 2010, "Real-time collision culling of a million bodies on
 * graphics processing units"; Ericson 2005, §7.5). The boxes are sorted by their minimum on the
 * axis of largest spread with a bitonic sort (Batcher 1968), then each box sweeps forward through
 * the sorted list until a box starts past its end, testing the other axes.
 */
import { WORKGROUP_SIZE } from "./device.js";

/** Elements one workgroup sorts in shared memory (two per thread). */
export const SORT_BLOCK = 2 * WORKGROUP_SIZE;

/** Keys: the sortable bits of each box's minimum on the sweep axis; padding sorts last. */
export const KEYS_WGSL = /* wgsl */ `
struct Params { n: u32, padded: u32, axis: u32, capacity: u32 }
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> boxes: array<f32>;
@group(0) @binding(2) var<storage, read_write> keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> vals: array<u32>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  if (i >= prm.padded) { return; }
  if (i < prm.n) {
    let b = bitcast<u32>(boxes[6u * i + prm.axis]);
    // IEEE order as unsigned order: flip every bit of a negative, the sign bit of a positive.
    keys[i] = select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
    vals[i] = i;
  } else {
    keys[i] = 0xffffffffu;
    vals[i] = 0xffffffffu;
  }
}
`;

const SORT_COMMON = /* wgsl */ `
struct Step { k: u32, j: u32, pad0: u32, pad1: u32 }
@group(0) @binding(0) var<uniform> stp: Step;
@group(0) @binding(1) var<storage, read_write> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> vals: array<u32>;
`;

/** One global compare-exchange pass of the bitonic sort for `(k, j)`, `j ≥ SORT_BLOCK`. */
export const BITONIC_GLOBAL_WGSL = /* wgsl */ `${SORT_COMMON}
@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) g: vec3u) {
  // Thread t handles the pair (i, i + j) where i has bit j clear.
  let t = g.x;
  let j = stp.j;
  let i = ((t & ~(j - 1u)) << 1u) | (t & (j - 1u));
  let l = i + j;
  if (l >= arrayLength(&keys)) { return; }
  let up = (i & stp.k) == 0u;
  let a = keys[i];
  let b = keys[l];
  if ((a > b) == up && a != b) {
    keys[i] = b;
    keys[l] = a;
    let v = vals[i];
    vals[i] = vals[l];
    vals[l] = v;
  }
}
`;

/**
 * The bitonic passes with `j < SORT_BLOCK` in workgroup memory: for `stp.k = 0` every stage
 * `k = 2 … SORT_BLOCK` (the block sort), otherwise the tail `j = SORT_BLOCK/2 … 1` of stage `k`.
 */
export const BITONIC_LOCAL_WGSL = /* wgsl */ `${SORT_COMMON}
var<workgroup> sk: array<u32, ${SORT_BLOCK}>;
var<workgroup> sv: array<u32, ${SORT_BLOCK}>;

fn exchange(li: u32, j: u32, k: u32, base: u32) {
  let i = ((li & ~(j - 1u)) << 1u) | (li & (j - 1u));
  let l = i + j;
  let up = ((base + i) & k) == 0u;
  let a = sk[i];
  let b = sk[l];
  if ((a > b) == up && a != b) {
    sk[i] = b;
    sk[l] = a;
    let v = sv[i];
    sv[i] = sv[l];
    sv[l] = v;
  }
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(local_invocation_id) lid: vec3u, @builtin(workgroup_id) wid: vec3u) {
  let li = lid.x;
  let base = wid.x * ${SORT_BLOCK}u;
  sk[li] = keys[base + li];
  sv[li] = vals[base + li];
  sk[li + ${WORKGROUP_SIZE}u] = keys[base + li + ${WORKGROUP_SIZE}u];
  sv[li + ${WORKGROUP_SIZE}u] = vals[base + li + ${WORKGROUP_SIZE}u];
  workgroupBarrier();
  if (stp.k == 0u) {
    for (var k = 2u; k <= ${SORT_BLOCK}u; k = k << 1u) {
      for (var j = k >> 1u; j > 0u; j = j >> 1u) {
        exchange(li, j, k, base);
        workgroupBarrier();
      }
    }
  } else {
    for (var j = ${WORKGROUP_SIZE}u; j > 0u; j = j >> 1u) {
      exchange(li, j, stp.k, base);
      workgroupBarrier();
    }
  }
  keys[base + li] = sk[li];
  vals[base + li] = sv[li];
  keys[base + li + ${WORKGROUP_SIZE}u] = sk[li + ${WORKGROUP_SIZE}u];
  vals[base + li + ${WORKGROUP_SIZE}u] = sv[li + ${WORKGROUP_SIZE}u];
}
`;

/**
 * The sweep: box at sorted position `i` tests the boxes after it until one starts past its end
 * on the sweep axis, and appends each overlapping pair `(ids[a], ids[b])` (closed intervals, so
 * touching boxes overlap). The count goes on past `capacity` so the host can grow and rerun.
 */
export const SWEEP_WGSL = /* wgsl */ `
struct Params { n: u32, padded: u32, axis: u32, capacity: u32 }
struct Out { count: atomic<u32>, pad: u32, pairs: array<vec2u> }
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> boxes: array<f32>;
@group(0) @binding(2) var<storage, read> vals: array<u32>;
@group(0) @binding(3) var<storage, read> ids: array<u32>;
@group(0) @binding(4) var<storage, read_write> outp: Out;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  if (i >= prm.n) { return; }
  let a = vals[i];
  let amin = vec3f(boxes[6u * a], boxes[6u * a + 1u], boxes[6u * a + 2u]);
  let amax = vec3f(boxes[6u * a + 3u], boxes[6u * a + 4u], boxes[6u * a + 5u]);
  let aend = boxes[6u * a + 3u + prm.axis];
  for (var s = i + 1u; s < prm.n; s++) {
    let b = vals[s];
    if (boxes[6u * b + prm.axis] > aend) { break; }
    let bmin = vec3f(boxes[6u * b], boxes[6u * b + 1u], boxes[6u * b + 2u]);
    let bmax = vec3f(boxes[6u * b + 3u], boxes[6u * b + 4u], boxes[6u * b + 5u]);
    if (all(amin <= bmax) && all(bmin <= amax)) {
      let slot = atomicAdd(&outp.count, 1u);
      if (slot < prm.capacity) {
        outp.pairs[slot] = vec2u(ids[a], ids[b]);
      }
    }
  }
}
`;
