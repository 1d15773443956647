/**
 * The floor of the world benchmark: the simplest correct program for a scene's touching pairs. A
 * uniform grid rebuilt from scratch every frame (cell = twice the median box side, or a third of the 99th percentile; each body in
 * every cell its box covers, bucketed by a hash with a counting sort; a pair reported in the
 * lowest cell both cover), then exact boolean tests: sphere–sphere by distance, sphere–box by
 * the closest point, box–box by the 15 separating axes (Ericson 2005, §4.4.1). Pairs of two
 * static bodies are skipped. No fat boxes, no persistence, no manifolds.
 */
import type { Scene } from "./scenes.js";

/** A naive grid over `scene`; `step()` returns the touching pairs at the current poses. */
export function makeNaiveGrid(scene: Scene): { step(): number } {
  const { n, kind, size, rot, pos, staticCount } = scene;
  const box = new Float64Array(6 * n);
  const axes = new Float64Array(9 * n);
  const range = new Int32Array(6 * n);
  let entryCell = new Int32Array(4 * n);
  let entryBody = new Int32Array(2 * n);
  let sorted = new Int32Array(2 * n);
  let sortedCell = new Int32Array(6 * n);
  const tableBits = Math.max(10, Math.ceil(Math.log2(2 * n)));
  const table = new Int32Array((1 << tableBits) + 1);
  const mask = (1 << tableBits) - 1;
  const sides = new Float64Array(n);
  // Rotation matrices once (the scenes do not rotate bodies).
  for (let i = 0; i < n; i++) {
    const x = rot[4 * i];
    const y = rot[4 * i + 1];
    const z = rot[4 * i + 2];
    const w = rot[4 * i + 3];
    const m = axes;
    const o = 9 * i;
    // Columns are the box's axes in world space.
    m[o] = 1 - 2 * (y * y + z * z);
    m[o + 1] = 2 * (x * y + w * z);
    m[o + 2] = 2 * (x * z - w * y);
    m[o + 3] = 2 * (x * y - w * z);
    m[o + 4] = 1 - 2 * (x * x + z * z);
    m[o + 5] = 2 * (y * z + w * x);
    m[o + 6] = 2 * (x * z + w * y);
    m[o + 7] = 2 * (y * z - w * x);
    m[o + 8] = 1 - 2 * (x * x + y * y);
  }
  const half = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      let e = 0;
      if (kind[i] === 0) e = size[3 * i];
      else {
        for (let b = 0; b < 3; b++) e += Math.abs(axes[9 * i + 3 * b + a]) * size[3 * i + b];
      }
      half[3 * i + a] = e;
    }
    sides[i] = 2 * Math.max(half[3 * i], half[3 * i + 1], half[3 * i + 2]);
  }
  // Twice the median box side, raised so that the 99th percentile covers at most 4 cells per
  // axis (so that a scene with sizes spanning 1:100 does not put a large box in 10⁵ cells).
  const sortedSides = Float64Array.from(sides).sort();
  const cell = Math.max(2 * sortedSides[n >> 1], sortedSides[Math.floor(0.99 * (n - 1))] / 3);
  const hash = (x: number, y: number, z: number) =>
    ((Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) >>> 0) & mask;

  function touching(a: number, b: number): boolean {
    if (kind[a] === 0 && kind[b] === 0) {
      const dx = pos[3 * a] - pos[3 * b];
      const dy = pos[3 * a + 1] - pos[3 * b + 1];
      const dz = pos[3 * a + 2] - pos[3 * b + 2];
      const r = size[3 * a] + size[3 * b];
      return dx * dx + dy * dy + dz * dz <= r * r;
    }
    if (kind[a] === 0 || kind[b] === 0) {
      const s = kind[a] === 0 ? a : b;
      const c = s === a ? b : a;
      let d2 = 0;
      for (let k = 0; k < 3; k++) {
        const ax = axes[9 * c + 3 * k];
        const ay = axes[9 * c + 3 * k + 1];
        const az = axes[9 * c + 3 * k + 2];
        const t =
          (pos[3 * s] - pos[3 * c]) * ax +
          (pos[3 * s + 1] - pos[3 * c + 1]) * ay +
          (pos[3 * s + 2] - pos[3 * c + 2]) * az;
        const e = size[3 * c + k];
        const d = t > e ? t - e : t < -e ? -e - t : 0;
        d2 += d * d;
      }
      return d2 <= size[3 * s] * size[3 * s];
    }
    return boxesTouch(a, b);
  }

  const R = new Float64Array(9);
  const t = new Float64Array(3);
  const ea = new Float64Array(3);
  const eb = new Float64Array(3);
  const AR = new Float64Array(9);
  function boxesTouch(a: number, b: number): boolean {
    const A = 9 * a;
    const B = 9 * b;
    const tx = pos[3 * b] - pos[3 * a];
    const ty = pos[3 * b + 1] - pos[3 * a + 1];
    const tz = pos[3 * b + 2] - pos[3 * a + 2];
    for (let i = 0; i < 3; i++) {
      t[i] = tx * axes[A + 3 * i] + ty * axes[A + 3 * i + 1] + tz * axes[A + 3 * i + 2];
      for (let j = 0; j < 3; j++) {
        const r =
          axes[A + 3 * i] * axes[B + 3 * j] +
          axes[A + 3 * i + 1] * axes[B + 3 * j + 1] +
          axes[A + 3 * i + 2] * axes[B + 3 * j + 2];
        R[3 * i + j] = r;
        AR[3 * i + j] = Math.abs(r) + 1e-12;
      }
    }
    for (let k = 0; k < 3; k++) {
      ea[k] = size[3 * a + k];
      eb[k] = size[3 * b + k];
    }
    for (let i = 0; i < 3; i++) {
      const ra = ea[i];
      const rb = eb[0] * AR[3 * i] + eb[1] * AR[3 * i + 1] + eb[2] * AR[3 * i + 2];
      if (Math.abs(t[i]) > ra + rb) return false;
    }
    for (let j = 0; j < 3; j++) {
      const ra = ea[0] * AR[j] + ea[1] * AR[3 + j] + ea[2] * AR[6 + j];
      const rb = eb[j];
      if (Math.abs(t[0] * R[j] + t[1] * R[3 + j] + t[2] * R[6 + j]) > ra + rb) return false;
    }
    for (let i = 0; i < 3; i++) {
      const i1 = (i + 1) % 3;
      const i2 = (i + 2) % 3;
      for (let j = 0; j < 3; j++) {
        const j1 = (j + 1) % 3;
        const j2 = (j + 2) % 3;
        const ra = ea[i1] * AR[3 * i2 + j] + ea[i2] * AR[3 * i1 + j];
        const rb = eb[j1] * AR[3 * i + j2] + eb[j2] * AR[3 * i + j1];
        const d = Math.abs(t[i2] * R[3 * i1 + j] - t[i1] * R[3 * i2 + j]);
        if (d > ra + rb) return false;
      }
    }
    return true;
  }

  return {
    step(): number {
      let entries = 0;
      for (let i = 0; i < n; i++) {
        for (let a = 0; a < 3; a++) {
          const c = pos[3 * i + a];
          const h = half[3 * i + a];
          box[6 * i + a] = c - h;
          box[6 * i + 3 + a] = c + h;
          range[6 * i + a] = Math.floor((c - h) / cell);
          range[6 * i + 3 + a] = Math.floor((c + h) / cell);
        }
        entries +=
          (range[6 * i + 3] - range[6 * i] + 1) *
          (range[6 * i + 4] - range[6 * i + 1] + 1) *
          (range[6 * i + 5] - range[6 * i + 2] + 1);
      }
      if (entryBody.length < entries) {
        entryBody = new Int32Array(2 * entries);
        entryCell = new Int32Array(6 * entries);
        sorted = new Int32Array(2 * entries);
        sortedCell = new Int32Array(6 * entries);
      }
      table.fill(0);
      let e = 0;
      for (let i = 0; i < n; i++) {
        for (let x = range[6 * i]; x <= range[6 * i + 3]; x++) {
          for (let y = range[6 * i + 1]; y <= range[6 * i + 4]; y++) {
            for (let z = range[6 * i + 2]; z <= range[6 * i + 5]; z++) {
              entryBody[e] = i;
              entryCell[3 * e] = x;
              entryCell[3 * e + 1] = y;
              entryCell[3 * e + 2] = z;
              table[hash(x, y, z) + 1]++;
              e++;
            }
          }
        }
      }
      for (let h = 1; h <= mask + 1; h++) table[h] += table[h - 1];
      for (let k = 0; k < e; k++) {
        const x = entryCell[3 * k];
        const y = entryCell[3 * k + 1];
        const z = entryCell[3 * k + 2];
        const at = table[hash(x, y, z)]++;
        sorted[at] = entryBody[k];
        sortedCell[3 * at] = x;
        sortedCell[3 * at + 1] = y;
        sortedCell[3 * at + 2] = z;
      }
      // table[h] is now the end of bucket h (and the start of bucket h + 1).
      let pairs = 0;
      let start = 0;
      for (let h = 0; h <= mask; h++) {
        const end = table[h];
        for (let p = start; p < end; p++) {
          const a = sorted[p];
          const cx = sortedCell[3 * p];
          const cy = sortedCell[3 * p + 1];
          const cz = sortedCell[3 * p + 2];
          for (let q = p + 1; q < end; q++) {
            if (sortedCell[3 * q] !== cx || sortedCell[3 * q + 1] !== cy) continue;
            if (sortedCell[3 * q + 2] !== cz) continue;
            const b = sorted[q];
            if (a < staticCount && b < staticCount) continue;
            const A = 6 * a;
            const B = 6 * b;
            if (box[A] > box[B + 3] || box[B] > box[A + 3]) continue;
            if (box[A + 1] > box[B + 4] || box[B + 1] > box[A + 4]) continue;
            if (box[A + 2] > box[B + 5] || box[B + 2] > box[A + 5]) continue;
            // The lowest cell both boxes cover reports the pair.
            if (Math.max(range[A], range[B]) !== cx) continue;
            if (Math.max(range[A + 1], range[B + 1]) !== cy) continue;
            if (Math.max(range[A + 2], range[B + 2]) !== cz) continue;
            if (touching(a, b)) pairs++;
          }
        }
        start = end;
      }
      return pairs;
    },
  };
}
