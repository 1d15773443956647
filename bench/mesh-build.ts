/**
 * Mesh BVH build alone, Collide against three-mesh-bvh, as CPU time (`process.cpuUsage`: on a
 * loaded machine other processes count less than in wall time), the two builds interleaved in
 * one process, each build's time listed (the first ones include JIT compilation and, for the
 * large mesh, fresh pages; bench/mesh.ts times the second build of the large mesh).
 * Collide's time includes the triangle boxes, as in bench/mesh.ts. three-mesh-bvh reorders the
 * geometry's index in place, so the index is restored to the mesh's order before each of its
 * builds (untimed): every build of both starts from the same triangle order.
 *
 * `node --import tsx bench/mesh-build.ts [bunny|big|soup|grid] [runs] [collide|three]`
 * (`big`: the bunny subdivided 4 times, 940,544 triangles; `soup`: 200,000 unconnected random
 * triangles, ids in no spatial order; `grid`: a 400 × 400 heightfield-like grid, 318,402
 * triangles; `FAULTS=1`: minor page faults and user/system CPU of each build).
 */

import { loadavg } from "node:os";
import * as THREE from "three";
import { MeshBVH } from "three-mesh-bvh";
import { buildMeshBvh } from "../src/geometry/mesh-bvh.js";
import { bunnyMeshData, type MeshData } from "../src/io/mesh-loaders.js";
import { makeRandom } from "../src/math/random.js";

function subdivide(data: MeshData, levels: number): MeshData {
  const v = Array.from(data.vertices);
  let idx = Array.from(data.indices);
  for (let l = 0; l < levels; l++) {
    const mids = new Map<number, number>();
    const n = v.length / 3;
    const mid = (a: number, b: number) => {
      const key = Math.min(a, b) * n + Math.max(a, b);
      let m = mids.get(key);
      if (m === undefined) {
        m = v.length / 3;
        v.push(
          0.5 * (v[3 * a] + v[3 * b]),
          0.5 * (v[3 * a + 1] + v[3 * b + 1]),
          0.5 * (v[3 * a + 2] + v[3 * b + 2]),
        );
        mids.set(key, m);
      }
      return m;
    };
    const next: number[] = [];
    for (let t = 0; t < idx.length; t += 3) {
      const a = idx[t],
        b = idx[t + 1],
        c = idx[t + 2];
      const ab = mid(a, b),
        bc = mid(b, c),
        ca = mid(c, a);
      next.push(a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca);
    }
    idx = next;
  }
  return { vertices: Float64Array.from(v), indices: Uint32Array.from(idx) };
}
/** `n` unconnected triangles of side up to 0.03 at random in the unit cube, seeded. */
function soup(n: number, seed: number): MeshData {
  const rng = makeRandom(seed);
  const vertices = new Float64Array(9 * n);
  const indices = new Uint32Array(3 * n);
  for (let t = 0; t < n; t++) {
    const c = [rng(), rng(), rng()];
    for (let i = 0; i < 9; i++) vertices[9 * t + i] = c[i % 3] + 0.03 * (rng() - 0.5);
    indices.set([3 * t, 3 * t + 1, 3 * t + 2], 3 * t);
  }
  return { vertices, indices };
}

/** A `side` × `side` vertex grid in x, z with rolling, noisy heights in y (two triangles a cell). */
function grid(side: number, seed: number): MeshData {
  const rng = makeRandom(seed);
  const vertices = new Float64Array(3 * side * side);
  for (let j = 0; j < side; j++) {
    for (let i = 0; i < side; i++) {
      const y = 8 * Math.sin(0.05 * i) * Math.cos(0.07 * j) + rng();
      vertices.set([i, y, j], 3 * (j * side + i));
    }
  }
  const indices = new Uint32Array(6 * (side - 1) * (side - 1));
  for (let j = 0, q = 0; j < side - 1; j++) {
    for (let i = 0; i < side - 1; i++, q += 6) {
      const a = j * side + i;
      indices.set([a, a + side, a + 1, a + 1, a + side, a + side + 1], q);
    }
  }
  return { vertices, indices };
}

const which = process.argv[2] ?? "bunny";
const runs = Number(process.argv[3] ?? 9);
const data =
  which === "big"
    ? subdivide(bunnyMeshData(), 4)
    : which === "soup"
      ? soup(200_000, 1)
      : which === "grid"
        ? grid(400, 2)
        : bunnyMeshData();
const v = data.vertices,
  idx = data.indices,
  tris = idx.length / 3;
const boxes = new Float64Array(6 * tris);
const collide = () => {
  for (let t = 0; t < tris; t++) {
    const a = 3 * idx[3 * t],
      b = 3 * idx[3 * t + 1],
      c = 3 * idx[3 * t + 2];
    for (let k = 0; k < 3; k++) {
      boxes[6 * t + k] = Math.min(v[a + k], v[b + k], v[c + k]);
      boxes[6 * t + 3 + k] = Math.max(v[a + k], v[b + k], v[c + k]);
    }
  }
  return buildMeshBvh(boxes, tris, { reorderBounds: true });
};
const geometry = new THREE.BufferGeometry();
geometry.setAttribute("position", new THREE.BufferAttribute(Float32Array.from(v), 3));
geometry.setIndex(new THREE.BufferAttribute(Uint32Array.from(idx), 1));
const three = () => new MeshBVH(geometry);
// three-mesh-bvh sorts the geometry's index into its leaf order in place: a second build on the
// same geometry would partition triangles already in tree order (consecutive memory, few swaps).
// Each of its builds starts from the mesh's own order, as Collide's do (untimed).
const threeIndex = geometry.index?.array as Uint32Array;
const restoreThreeIndex = () => threeIndex.set(idx);
const cpu = () => {
  const c = process.cpuUsage();
  return (process.env.SYS ? c.system : process.env.USR ? c.user : c.user + c.system) / 1000;
};
const tc: number[] = [],
  tt: number[] = [];
const only = process.argv[4];
let sig = 0;
for (let r = 0; r < runs; r++) {
  if (only !== "three") {
    const f0 = process.resourceUsage();
    const a = cpu();
    const b = collide();
    tc.push(cpu() - a);
    sig = b.nodeCount;
    const f1 = process.resourceUsage();
    if (process.env.FAULTS)
      console.log(
        "faults",
        f1.minorPageFault - f0.minorPageFault,
        "user",
        ((f1.userCPUTime - f0.userCPUTime) / 1000).toFixed(0),
        "sys",
        ((f1.systemCPUTime - f0.systemCPUTime) / 1000).toFixed(0),
      );
  }
  if (only !== "collide") {
    restoreThreeIndex();
    const f0 = process.resourceUsage();
    const a = cpu();
    three();
    tt.push(cpu() - a);
    const f1 = process.resourceUsage();
    if (process.env.FAULTS)
      console.log(
        "three faults",
        f1.minorPageFault - f0.minorPageFault,
        "user",
        ((f1.userCPUTime - f0.userCPUTime) / 1000).toFixed(0),
        "sys",
        ((f1.systemCPUTime - f0.systemCPUTime) / 1000).toFixed(0),
      );
  }
}
const med = (x: number[]) => x.slice().sort((a, b) => a - b)[x.length >> 1];
console.log(
  `${which} tris ${tris} load ${loadavg()[0].toFixed(1)} collide first ${tc[0]?.toFixed(1)} med ${med(tc)?.toFixed(2)} [${tc.map((x) => x.toFixed(1)).join(" ")}] three first ${tt[0]?.toFixed(1)} med ${med(tt)?.toFixed(2)} ratio ${(med(tc) / med(tt)).toFixed(2)} nodes ${sig}`,
);
