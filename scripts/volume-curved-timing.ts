/**
 * Times overlapVolume (warm, ms per query) and prints volume ± errorBound for the curved pairs
 * of issue 16's overlap-volume item (rounded shapes, two curved shapes partly inside).
 * Usage: npx tsx scripts/volume-curved-timing.ts
 */
import type { Isometry } from "../src/math/isometry.js";
import { overlapVolume } from "../src/query/overlap-volume.js";
import {
  makeCapsule,
  makeCone,
  makeCuboid,
  makeCylinder,
  makeRoundedCuboid,
  makeSphere,
  type Shape,
} from "../src/shapes/index.js";

const s2 = Math.SQRT1_2;
const pose = (x: number, y: number, z: number, q = { x: 0, y: 0, z: 0, w: 1 }): Isometry => ({
  translation: { x, y, z },
  rotation: q,
});
const turn = { x: 0.2, y: 0.3, z: 0.1, w: Math.sqrt(1 - 0.04 - 0.09 - 0.01) };
const cases: [string, Shape, Isometry, Shape, Isometry][] = [
  [
    "rounded box vs box",
    makeRoundedCuboid({ x: 0.5, y: 0.4, z: 0.3 }, 0.2),
    pose(0, 0, 0),
    makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }),
    pose(0.6, 0.3, 0.2, turn),
  ],
  [
    "rounded box vs sphere",
    makeRoundedCuboid({ x: 0.5, y: 0.4, z: 0.3 }, 0.2),
    pose(0, 0, 0),
    makeSphere(0.6),
    pose(0.7, 0.4, 0.3),
  ],
  [
    "cylinder vs cylinder (crossing axes)",
    makeCylinder(1, 0.5),
    pose(0, 0, 0),
    makeCylinder(1, 0.5),
    pose(0.1, 0, 0, { x: s2, y: 0, z: 0, w: s2 }),
  ],
  [
    "cone vs capsule",
    makeCone(1, 0.8),
    pose(0, 0, 0),
    makeCapsule({ x: -1, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, 0.3),
    pose(0.1, -0.2, 0.1, turn),
  ],
  [
    "sphere vs cone partly inside",
    makeSphere(0.5),
    pose(0.2, -0.3, 0.1),
    makeCone(1, 1),
    pose(0, 0, 0),
  ],
  [
    "capsule vs cylinder",
    makeCapsule({ x: 0, y: -0.8, z: 0 }, { x: 0, y: 0.8, z: 0 }, 0.4),
    pose(0.5, 0.1, 0, turn),
    makeCylinder(0.7, 0.6),
    pose(0, 0, 0),
  ],
];

for (const [name, a, pa, b, pb] of cases) {
  let r = overlapVolume(a, pa, b, pb);
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 3000 && n < 200) {
    r = overlapVolume(a, pa, b, pb);
    n++;
  }
  const ms = (performance.now() - t0) / n;
  console.log(
    `${name.padEnd(38)} ${ms.toFixed(3).padStart(10)} ms  volume ${r.volume.toPrecision(8)}  errorBound ${r.errorBound.toPrecision(3)} (${((100 * r.errorBound) / r.volume).toPrecision(3)} %)`,
  );
}
// Thin shapes partly inside a curved one (the octree's slow case).
for (const hh of [1e-3, 1e-6, 1e-9]) {
  const disc = makeCylinder(hh, 1);
  const p = pose(0.3, 0, 0.2, { x: 0.1, y: 0, z: 0.05, w: Math.sqrt(1 - 0.01 - 0.0025) });
  for (const [name, other] of [
    ["cylinder", makeCylinder(2, 0.6)],
    ["rounded box", makeRoundedCuboid({ x: 0.4, y: 0.4, z: 0.4 }, 0.2)],
  ] as [string, Shape][]) {
    const t0 = performance.now();
    const r = overlapVolume(disc, p, other, pose(0.8, 0, 0, { x: 0, y: 0, z: s2, w: s2 }));
    console.log(
      `disc h ${hh} vs ${name}: ${(performance.now() - t0).toFixed(1)} ms (first call) volume ${r.volume.toPrecision(8)} ± ${r.errorBound.toPrecision(3)} (${((100 * r.errorBound) / r.volume).toPrecision(3)} %)`,
    );
  }
}
