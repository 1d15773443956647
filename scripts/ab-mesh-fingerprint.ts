// A/B fingerprint for allocation refactors that must not change any answer: contact, manifold and
// distance of N random mesh–convex pairs (box meshes, bumpy grids; spheres, cuboids, box meshes,
// capsules), printed as an FNV hash of every output double's bits. Run before and after:
// `npx tsx scripts/ab-mesh-fingerprint.ts <seed> <N>`; equal hashes = bitwise-equal results.
import { contact, distance, manifold } from "../src/index.js";
import { makeCapsule } from "../src/shapes/capsule.js";
import { makeCuboid } from "../src/shapes/cuboid.js";
import { makeSphere } from "../src/shapes/sphere.js";
import { makeTriangleMesh } from "../src/shapes/triangle-mesh.js";
import { boxMesh } from "../test/support/box-mesh.js";

let seed = Number(process.argv[2] ?? 1);
const rnd = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed / 4294967296;
};
function bumpy() {
  // a random height grid mesh 4x4
  const v: number[] = [];
  const idx: number[] = [];
  for (let i = 0; i < 5; i++)
    for (let j = 0; j < 5; j++) v.push(i * 0.4 - 0.8, (rnd() - 0.5) * 0.3, j * 0.4 - 0.8);
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++) {
      const a = i * 5 + j;
      idx.push(a, a + 1, a + 5, a + 1, a + 6, a + 5);
    }
  return makeTriangleMesh(v, idx);
}
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
let h = 2166136261 >>> 0;
let count = 0;
const mix = (x: number) => {
  f64[0] = x;
  for (const w of [u32[0], u32[1]]) {
    h ^= w;
    h = Math.imul(h, 16777619) >>> 0;
  }
  count++;
};
const v3 = (p: { x: number; y: number; z: number }) => {
  mix(p.x);
  mix(p.y);
  mix(p.z);
};
function pose(spread: number) {
  let x = rnd() - 0.5,
    y = rnd() - 0.5,
    z = rnd() - 0.5,
    w = rnd() - 0.5;
  const l = Math.hypot(x, y, z, w);
  x /= l;
  y /= l;
  z /= l;
  w /= l;
  return {
    translation: {
      x: (rnd() - 0.5) * spread,
      y: (rnd() - 0.5) * spread,
      z: (rnd() - 0.5) * spread,
    },
    rotation: { x, y, z, w },
  };
}
const N = Number(process.argv[3] ?? 20000);
let hits = 0;
for (let i = 0; i < N; i++) {
  const mesh = i % 3 === 0 ? bumpy() : boxMesh(0.2 + rnd(), 0.2 + rnd(), 0.2 + rnd());
  const k = i % 4;
  const other =
    k === 0
      ? makeSphere(0.1 + rnd())
      : k === 1
        ? makeCuboid({ x: 0.1 + rnd(), y: 0.1 + rnd(), z: 0.1 + rnd() })
        : k === 2
          ? boxMesh(0.1 + rnd(), 0.1 + rnd(), 0.1 + rnd())
          : makeCapsule(
              { x: 0, y: -0.1 - rnd(), z: 0 },
              { x: 0, y: 0.1 + rnd(), z: 0 },
              0.1 + rnd() * 0.5,
            );
  const pa = pose(0.5);
  const pb = pose(2.5);
  const swap = rnd() < 0.5;
  const [A, PA, B, PB] = swap ? [other, pb, mesh, pa] : [mesh, pa, other, pb];
  const pred = rnd() < 0.3 ? 0.2 : 0;
  const c = contact(A, PA, B, PB, pred);
  if (c) {
    hits++;
    mix(c.distance);
    v3(c.pointA);
    v3(c.pointB);
    v3(c.normal);
  } else mix(-7);
  const m = manifold(A, PA, B, PB, pred);
  if (m) {
    mix(m.count);
    v3(m.normal);
    for (let p = 0; p < m.count; p++) {
      const q = m.points[p];
      mix(q.distance);
      mix(q.featureId);
      v3(q.pointA);
      v3(q.pointB);
    }
  } else mix(-9);
  const d = distance(A, PA, B, PB);
  if (d) {
    mix(d.distance);
    v3(d.pointA);
    v3(d.pointB);
  } else mix(-11);
}
console.log(JSON.stringify({ seed: process.argv[2], N, hits, count, hash: h.toString(16) }));
