/**
 * Heightfield against the same terrain as a triangle mesh (`npx tsx bench/heightfield.ts`):
 * build time and memory of a 1024 × 1024 field, and per-query times of ray casts (random rays
 * from above, and nearly horizontal ones) and of sphere/box contacts over the terrain.
 * Times are CPU time (process.cpuUsage), per query after a warm-up. Prints a small table; the
 * figures in docs/DESIGN.md and README.md come from it. `npx tsx bench/heightfield.ts 256` for a
 * smaller terrain.
 */
import {
  contact,
  heightfieldByteLength,
  heightfieldGeometry,
  makeCuboid,
  makeHeightfield,
  makeRandom,
  makeSphere,
  makeTriangleMesh,
  manifold,
  raycast,
  type Shape,
} from "../src/index.js";

const N = Number(process.argv[2] ?? 1024);
const rng = makeRandom(7);
const heights = new Float64Array(N * N);
for (let r = 0; r < N; r++)
  for (let c = 0; c < N; c++)
    heights[r * N + c] =
      4 * Math.sin(r / 37) * Math.cos(c / 53) + 0.5 * Math.sin((r + 2 * c) / 7) + 0.05 * rng();
const scale = { x: 1, y: 1, z: 1 };

/** f's value and the CPU time it took (user + system, ms): steadier than wall time on a shared machine. */
function time<T>(f: () => T): [T, number] {
  const t = process.cpuUsage();
  const v = f();
  const d = process.cpuUsage(t);
  return [v, (d.user + d.system) / 1000];
}

// The build once cold, then the best of 5 (the first run includes compiling the builder).
const [hf, hfCold] = time(() => makeHeightfield({ rows: N, cols: N, heights, scale }));
let hfBuild = Infinity;
for (let k = 0; k < 5; k++)
  hfBuild = Math.min(hfBuild, time(() => makeHeightfield({ rows: N, cols: N, heights, scale }))[1]);
const hfBytes = heightfieldByteLength(hf);
const g = heightfieldGeometry(hf);
const [mesh, meshBuild] = time(() => makeTriangleMesh(g.vertices, g.indices));
const meshBytes =
  mesh.vertices.byteLength +
  mesh.indices.byteLength +
  mesh.activeEdges.byteLength +
  mesh.edgeNeighbors.byteLength +
  mesh.bvh.bounds.byteLength +
  mesh.bvh.data.byteLength +
  mesh.bvh.primitives.byteLength;

const ID = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
const W = N - 1;

/** CPU time per call of f over `count` calls after a warm-up, µs. */
function perQuery(count: number, f: (i: number) => unknown): number {
  for (let i = 0; i < Math.min(count, 200); i++) f(i);
  const [, ms] = time(() => {
    for (let i = 0; i < count; i++) f(i);
  });
  return (ms / count) * 1000;
}

const RAYS = 20000;
const down = Array.from({ length: RAYS }, () => ({
  o: { x: rng() * W, y: 20, z: rng() * W },
  d: { x: rng() - 0.5, y: -1, z: rng() - 0.5 },
}));
const grazing = Array.from({ length: RAYS / 10 }, () => ({
  o: { x: rng() * W, y: 3 + rng(), z: rng() * W },
  d: { x: rng() - 0.5, y: -0.01, z: rng() - 0.5 },
}));
const CONTACTS = 5000;
const bodies: { s: Shape; p: typeof ID }[] = Array.from({ length: CONTACTS }, (_, i) => {
  const x = 2 + rng() * (W - 4);
  const z = 2 + rng() * (W - 4);
  const r = Math.floor(z);
  const c = Math.floor(x);
  const y = heights[r * N + c];
  return {
    s: i % 2 === 0 ? makeSphere(0.5) : makeCuboid({ x: 0.6, y: 0.3, z: 0.4 }),
    p: { translation: { x, y: y + 0.2, z }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
  };
});

const rows: [string, number, number][] = [];
for (const [label, shape] of [
  ["heightfield", hf],
  ["mesh", mesh],
] as const) {
  const rd = perQuery(RAYS, (i) => raycast(shape, ID, down[i].o, down[i].d, Infinity));
  const rg = perQuery(grazing.length, (i) =>
    raycast(shape, ID, grazing[i].o, grazing[i].d, Infinity),
  );
  const ct = perQuery(CONTACTS, (i) => contact(shape, ID, bodies[i].s, bodies[i].p, 0.1));
  const mf = perQuery(CONTACTS, (i) => manifold(shape, ID, bodies[i].s, bodies[i].p, 0.1));
  rows.push([`${label} ray (from above) µs`, rd, 0]);
  rows.push([`${label} ray (grazing) µs`, rg, 0]);
  rows.push([`${label} contact µs`, ct, 0]);
  rows.push([`${label} manifold µs`, mf, 0]);
}

console.log(`terrain ${N} × ${N} (${2 * (N - 1) ** 2} triangles)`);
console.log(
  `heightfield build ${hfBuild.toFixed(1)} ms CPU (first ${hfCold.toFixed(1)} ms), ${(hfBytes / 2 ** 20).toFixed(2)} MiB (heights ${(heights.byteLength / 2 ** 20).toFixed(2)} MiB, tree ${((hfBytes - heights.byteLength) / 2 ** 10).toFixed(1)} KiB)`,
);
console.log(`mesh build ${meshBuild.toFixed(1)} ms CPU, ${(meshBytes / 2 ** 20).toFixed(2)} MiB`);
for (const [k, v] of rows) console.log(`${k.padEnd(34)} ${v.toFixed(2)}`);
