/**
 * The WGSL kernels of the GPU broad phase (src/gpu/broad-phase.ts): a sort-based uniform grid
 * (Le Grand 2007, "Broad-phase collision detection with CUDA", GPU Gems 3 ch. 32; Ericson 2005,
 * §7.1). Each body's home cell (of its box centre, computed on the host in f64) is hashed to a
 * bucket; a counting sort on the GPU (count with atomics, one-workgroup prefix sum, scatter with
 * atomics) lists the bodies bucket by bucket; each body then scans the 27 buckets around its
 * cell. Bodies larger than a cell ("large") skip the grid and test every body. Five kernel
 * launches per step, whatever N.
 */
import { WORKGROUP_SIZE } from "./device.js";

/** Hash of integer cell coordinates (Teschner et al. 2003), masked to the table size. */
const HASH_WGSL = /* wgsl */ `
fn cellHash(c: vec3i, mask: u32) -> u32 {
  let h = (bitcast<u32>(c.x) * 73856093u) ^ (bitcast<u32>(c.y) * 19349663u) ^ (bitcast<u32>(c.z) * 83492791u);
  return h & mask;
}
`;

/** Host twin of the kernels' cell hash (u32 arithmetic with Math.imul). */
export function cellHash(x: number, y: number, z: number, mask: number): number {
  return ((Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & mask) >>> 0;
}

/** Cell x coordinate that marks a "large" body (tested against every body, not through the grid). */
export const LARGE_CELL = -2147483648;

const GRID_PARAMS = /* wgsl */ `
struct Params { n: u32, padded: u32, large: u32, capacity: u32 }
`;

/** Counting sort, pass 1: the number of normal bodies in each bucket. */
export const COUNT_WGSL = /* wgsl */ `${GRID_PARAMS}
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<atomic<u32>>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  if (i >= prm.n) { return; }
  let k = keys[i];
  if (k < prm.padded) { atomicAdd(&counts[k], 1u); }
}
`;

/**
 * Counting sort, pass 2: exclusive prefix sums of the bucket counts into `starts` and `cursor`,
 * in one workgroup: each thread sums its run of buckets, the run totals are scanned in workgroup
 * memory (Hillis and Steele 1986), then each thread writes its run's offsets.
 */
export const SCAN_WGSL = /* wgsl */ `${GRID_PARAMS}
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> counts: array<u32>;
@group(0) @binding(2) var<storage, read_write> starts: array<u32>;
@group(0) @binding(3) var<storage, read_write> cursor: array<u32>;
var<workgroup> part: array<u32, ${WORKGROUP_SIZE}>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(local_invocation_id) lid: vec3u) {
  let t = lid.x;
  let run = prm.padded / ${WORKGROUP_SIZE}u;
  let first = t * run;
  var sum = 0u;
  for (var k = first; k < first + run; k++) { sum += counts[k]; }
  part[t] = sum;
  workgroupBarrier();
  for (var step = 1u; step < ${WORKGROUP_SIZE}u; step = step << 1u) {
    var v = 0u;
    if (t >= step) { v = part[t - step]; }
    workgroupBarrier();
    part[t] += v;
    workgroupBarrier();
  }
  var off = part[t] - sum;
  for (var k = first; k < first + run; k++) {
    starts[k] = off;
    cursor[k] = off;
    off += counts[k];
  }
}
`;

/** Counting sort, pass 3: each normal body takes a slot in its bucket's range. */
export const SCATTER_WGSL = /* wgsl */ `${GRID_PARAMS}
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> cursor: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> sorted: array<u32>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  if (i >= prm.n) { return; }
  let k = keys[i];
  if (k < prm.padded) { sorted[atomicAdd(&cursor[k], 1u)] = i; }
}
`;

const PAIR_COMMON = /* wgsl */ `${GRID_PARAMS}
struct Out { count: atomic<u32>, pad: u32, pairs: array<vec2u> }
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> boxes: array<f32>;
@group(0) @binding(2) var<storage, read> list: array<u32>;
@group(0) @binding(3) var<storage, read> ids: array<u32>;
@group(0) @binding(4) var<storage, read> cells: array<i32>;
@group(0) @binding(5) var<storage, read> starts: array<u32>;
@group(0) @binding(6) var<storage, read> counts: array<u32>;
@group(0) @binding(7) var<storage, read_write> outp: Out;
${HASH_WGSL}
fn boxMin(a: u32) -> vec3f { return vec3f(boxes[6u * a], boxes[6u * a + 1u], boxes[6u * a + 2u]); }
fn boxMax(a: u32) -> vec3f { return vec3f(boxes[6u * a + 3u], boxes[6u * a + 4u], boxes[6u * a + 5u]); }
fn emit(a: u32, b: u32) {
  let slot = atomicAdd(&outp.count, 1u);
  if (slot < prm.capacity) { outp.pairs[slot] = vec2u(ids[a], ids[b]); }
}
`;

/**
 * Grid pairs: normal body `a` scans the 27 buckets of its cell's neighbourhood (`list` is the
 * bodies sorted by bucket) and emits each overlapping body of higher index (closed intervals, so
 * touching boxes overlap). Buckets shared by two neighbour cells are scanned twice; the host
 * removes the duplicates.
 */
export const GRID_PAIRS_WGSL = /* wgsl */ `${PAIR_COMMON}
@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) g: vec3u) {
  let a = g.x;
  if (a >= prm.n) { return; }
  let c = vec3i(cells[3u * a], cells[3u * a + 1u], cells[3u * a + 2u]);
  if (c.x == ${LARGE_CELL}) { return; }
  let amin = boxMin(a);
  let amax = boxMax(a);
  let mask = prm.padded - 1u;
  for (var dz = -1; dz <= 1; dz++) {
    for (var dy = -1; dy <= 1; dy++) {
      for (var dx = -1; dx <= 1; dx++) {
        let h = cellHash(c + vec3i(dx, dy, dz), mask);
        let s = starts[h];
        let e = s + counts[h];
        for (var j = s; j < e; j++) {
          let b = list[j];
          if (b <= a) { continue; }
          if (all(amin <= boxMax(b)) && all(boxMin(b) <= amax)) { emit(a, b); }
        }
      }
    }
  }
}
`;

/**
 * Large-body pairs: large body `list[t]` tests every body; among large bodies only the higher
 * index is emitted, so each pair appears once.
 */
export const LARGE_PAIRS_WGSL = /* wgsl */ `${PAIR_COMMON}
@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) g: vec3u) {
  let t = g.x;
  if (t >= prm.large) { return; }
  let a = list[t];
  let amin = boxMin(a);
  let amax = boxMax(a);
  for (var b = 0u; b < prm.n; b++) {
    if (b == a) { continue; }
    if (cells[3u * b] == ${LARGE_CELL} && b < a) { continue; }
    if (all(amin <= boxMax(b)) && all(boxMin(b) <= amax)) { emit(a, b); }
  }
}
`;
