/**
 * `collide demo`: Collide on real data, with nothing to fetch. First the Stanford bunny's
 * bounding volumes by every method (mean, Ritter and exact spheres, the PCA-fitted OBB, the AABB,
 * the convex hull) and an interference check of a seeded cloud of spheres and rotated boxes
 * against each; then the demo scene (src/cli/demo-scene.ts): a crowd of mixed bodies moving
 * through the bunny as a mesh and as hulls for a few hundred frames, with a progress bar and a
 * summary of pairs, contacts, timings and the deepest penetration left.
 */
import { PairSet } from "../broadphase/pair-set.js";
import { SweepAndPrune } from "../broadphase/sweep-and-prune.js";
import {
  DEMO_PENETRATION_TOLERANCE,
  DEMO_RELAXATION_PASSES,
  DemoScene,
} from "../debug/demo-scene.js";
import { invalidValue } from "../errors.js";
import {
  boundingSphereExact,
  boundingSphereMean,
  boundingSphereRitter,
  makeBoundingSphere,
} from "../geometry/bounding-sphere.js";
import { fitObbPca, makeObb } from "../geometry/obb-fit.js";
import * as aabb from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import { makeRandom, uniform } from "../math/random.js";
import * as vec3 from "../math/vec3.js";
import { loadBunny } from "../node.js";
import { intersects } from "../query/intersects.js";
import { makeConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import { makeCuboid } from "../shapes/cuboid.js";
import { aabbShape } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { makeSphere } from "../shapes/sphere.js";
import { count } from "./output.js";

/** Options of {@link runBoundingVolumes}. */
export interface BoundingVolumeOptions {
  /** Number of bodies in the cloud. @default 3000 */
  bodies: number;
  /** Seed of the cloud. @default 1 */
  seed: number;
}

/** One bounding volume of the bunny and how many cloud bodies touch it. */
export interface DemoVolume {
  name: string;
  /** Volume of the bounding shape, cubic scene units. */
  volume: number;
  /** Its size: radius (spheres), half extents (boxes) or counts (hull), as text. */
  detail: string;
  /** Time to compute the volume, ms. */
  buildMs: number;
  /** Cloud bodies that intersect or touch it. */
  hits: number;
  /** Time of the interference check of the whole cloud against it, ms. */
  checkMs: number;
}

/** What the bounding-volume part of the demo reports. */
export interface BoundingVolumeResult {
  model: { name: string; vertices: number; triangles: number };
  volumes: DemoVolume[];
  cloud: { bodies: number; seed: number; pairs: number; candidatePairs: number; ms: number };
}

function halfText(h: vec3.Vec3): string {
  return `h = ${h.x.toFixed(3)}, ${h.y.toFixed(3)}, ${h.z.toFixed(3)}`;
}

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

/** Measures the bunny's bounding volumes and checks a seeded cloud against them. */
export function runBoundingVolumes(
  options: Partial<BoundingVolumeOptions> = {},
): BoundingVolumeResult {
  const n = options.bodies ?? 3000;
  const seed = options.seed ?? 1;
  const bunny = loadBunny();
  const pts = bunny.positions;
  const identity: Isometry = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };

  const volumes: {
    name: string;
    shape: Shape;
    pose: Isometry;
    volume: number;
    detail: string;
    buildMs: number;
  }[] = [];
  for (const [name, f] of [
    ["sphere (mean)", boundingSphereMean],
    ["sphere (Ritter)", boundingSphereRitter],
    ["sphere (exact, Welzl)", boundingSphereExact],
  ] as const) {
    const [s, ms] = time(() => f(makeBoundingSphere(), pts));
    volumes.push({
      name,
      shape: makeSphere(s.radius),
      pose: { translation: s.center, rotation: { x: 0, y: 0, z: 0, w: 1 } },
      volume: (4 / 3) * Math.PI * s.radius ** 3,
      detail: `r = ${s.radius.toFixed(4)}`,
      buildMs: ms,
    });
  }
  const [obb, obbMs] = time(() => fitObbPca(makeObb(), pts));
  const h = obb.halfExtents;
  volumes.push({
    name: "OBB (PCA)",
    shape: makeCuboid(h),
    pose: { translation: obb.center, rotation: obb.rotation },
    volume: 8 * h.x * h.y * h.z,
    detail: halfText(h),
    buildMs: obbMs,
  });
  const [box, boxMs] = time(() => {
    const b = aabb.empty();
    for (let i = 0; i < pts.length; i += 3) {
      aabb.expandByPoint(b, b, vec3.create(pts[i], pts[i + 1], pts[i + 2]));
    }
    return b;
  });
  const bh = aabb.halfExtents(vec3.create(), box);
  volumes.push({
    name: "AABB",
    shape: makeCuboid(bh),
    pose: { translation: aabb.center(vec3.create(), box), rotation: { x: 0, y: 0, z: 0, w: 1 } },
    volume: aabb.volume(box),
    detail: halfText(bh),
    buildMs: boxMs,
  });
  const [hull, hullMs] = time(() => makeConvexPolyhedron(pts));
  let hullVolume = 0;
  for (let f = 0; f < hull.faceCount; f++) {
    const o = hull.faceOffsets[f];
    const k = hull.faceOffsets[f + 1] - o;
    const area = polygonArea(hull, o, k, f);
    hullVolume += (area * hull.facePlaneOffsets[f]) / 3;
  }
  volumes.push({
    name: "convex hull (quickhull)",
    shape: hull,
    pose: identity,
    volume: hullVolume,
    detail: `${hull.vertexCount} vertices, ${hull.faceCount} faces`,
    buildMs: hullMs,
  });

  // A seeded cloud of spheres and rotated boxes around the bunny.
  const rng = makeRandom(seed);
  const cloud: { shape: Shape; pose: Isometry }[] = [];
  for (let i = 0; i < n; i++) {
    const t = vec3.create(uniform(rng, -8, 8), uniform(rng, -3, 13), uniform(rng, -7, 7));
    const size = uniform(rng, 0.1, 0.5);
    if (i % 2 === 0) {
      cloud.push({
        shape: makeSphere(size),
        pose: { translation: t, rotation: { x: 0, y: 0, z: 0, w: 1 } },
      });
    } else {
      const q = { x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5, w: rng() - 0.5 };
      const len = Math.hypot(q.x, q.y, q.z, q.w) || 1;
      const rotation = { x: q.x / len, y: q.y / len, z: q.z / len, w: q.w / len };
      cloud.push({
        shape: makeCuboid(vec3.create(size, size * 0.6, size * 0.8)),
        pose: { translation: t, rotation },
      });
    }
  }
  const result: DemoVolume[] = volumes.map((v) => {
    const [hits, checkMs] = time(() => {
      let c = 0;
      for (const b of cloud) if (intersects(v.shape, v.pose, b.shape, b.pose)) c++;
      return c;
    });
    return { name: v.name, volume: v.volume, detail: v.detail, buildMs: v.buildMs, hits, checkMs };
  });

  const [pairInfo, pairMs] = time(() => {
    const sap = new SweepAndPrune();
    const b = aabb.empty();
    cloud.forEach((c, i) => {
      aabbShape(b, c.shape, c.pose);
      sap.insert(i, b.min, b.max);
    });
    const cand = sap.computePairs(new PairSet());
    let pairs = 0;
    cand.forEach((i, j) => {
      if (intersects(cloud[i].shape, cloud[i].pose, cloud[j].shape, cloud[j].pose)) pairs++;
    });
    return { pairs, candidatePairs: cand.size };
  });

  return {
    model: { name: "Stanford bunny", vertices: pts.length / 3, triangles: bunny.cells.length / 3 },
    volumes: result,
    cloud: { bodies: n, seed, ...pairInfo, ms: pairMs },
  };
}

/** Area of hull face `f` (k vertices from offset o), by the cross-product sum along its normal. */
function polygonArea(
  hull: ReturnType<typeof makeConvexPolyhedron>,
  o: number,
  k: number,
  f: number,
): number {
  const v = hull.vertices;
  const ids = hull.faceVertices;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  for (let i = 0; i < k; i++) {
    const p = ids[o + i] * 3;
    const q = ids[o + ((i + 1) % k)] * 3;
    sx += v[p + 1] * v[q + 2] - v[p + 2] * v[q + 1];
    sy += v[p + 2] * v[q] - v[p] * v[q + 2];
    sz += v[p] * v[q + 1] - v[p + 1] * v[q];
  }
  const nrm = hull.faceNormals;
  return 0.5 * (sx * nrm[3 * f] + sy * nrm[3 * f + 1] + sz * nrm[3 * f + 2]);
}

/** The bounding-volume summary as text lines. */
export function formatBoundingVolumes(r: BoundingVolumeResult): string {
  const lines: string[] = [];
  lines.push(
    `Collide demo — ${r.model.name}: ${r.model.vertices} vertices, ${r.model.triangles} triangles`,
  );
  lines.push("");
  lines.push("Bounding volumes of the bunny, and an interference check of the cloud against each:");
  lines.push(
    `  ${"volume".padEnd(26)}${"size".padStart(30)}${"volume³".padStart(11)}${"build ms".padStart(10)}${"touching".padStart(10)}${"check ms".padStart(10)}`,
  );
  for (const v of r.volumes) {
    const size = v.detail;
    lines.push(
      `  ${v.name.padEnd(26)}${size.padStart(30)}${v.volume.toFixed(1).padStart(11)}${v.buildMs.toFixed(2).padStart(10)}${String(v.hits).padStart(10)}${v.checkMs.toFixed(2).padStart(10)}`,
    );
  }
  lines.push("");
  lines.push(
    `Cloud: ${r.cloud.bodies} spheres and rotated boxes (seed ${r.cloud.seed}): ${r.cloud.candidatePairs} AABB pairs (sweep and prune), ${r.cloud.pairs} touching, ${r.cloud.ms.toFixed(1)} ms`,
  );
  return lines.join("\n");
}

/**
 * Most moving bodies the demo accepts. The crowd fills a fixed region, so its pairs per frame
 * grow about quadratically with the count: 20,000 bodies take about 0.3 s a frame on a 2-core
 * machine, 100,000 several seconds; more would look like a hang.
 * @default 100000
 */
export const DEMO_MAX_BODIES = 100_000;

/** Most frames the demo runs: 100,000 frames are about 28 minutes of scene time at 60 Hz. @default 100000 */
export const DEMO_MAX_FRAMES = 100_000;

/** Largest seed: seeds are 32-bit unsigned integers (mulberry32, src/math/random.ts). @default 2^32 − 1 */
export const DEMO_MAX_SEED = 0xffffffff;

function checkIntInRange(field: string, v: number, lo: number, hi: number): void {
  if (!Number.isInteger(v) || v < lo || v > hi) {
    invalidValue(field, v, `must be an integer in [${lo}, ${hi}]`);
  }
}

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Moving bodies. @default 2000 */
  bodies: number;
  /** Frames to run. @default 300 */
  frames: number;
  /** Seed. @default 1 */
  seed: number;
  /** The crowd falls under gravity and comes to rest (src/debug/demo-scene.ts). @default false */
  gravity: boolean;
  /** Called after every frame (for a progress bar). */
  onFrame?: (frame: number, frames: number) => void;
}

/** What `collide demo --json` prints (per-frame averages; lengths in scene units). */
export interface DemoResult {
  bodies: number;
  frames: number;
  pairsPerFrame: number;
  contactsPerFrame: number;
  msPerFrame: { broad: number; narrow: number; total: number };
  maxPenetration: number;
  tolerance: number;
  /**
   * Deepest penetration of a pair with a moving body at any frame's last relaxation pass (before
   * the final settle); pairs of two static bodies never count.
   */
  maxPenetrationDuringRun: number;
  /** Relaxation passes per frame, on average (1 to 3: a frame stops once nothing is deep). */
  passesPerFrame: number;
  /** True when the crowd fell under gravity. */
  gravity: boolean;
  staticBodies: string[];
  boundingVolumes: BoundingVolumeResult;
}

/**
 * Runs the whole demo: bounding volumes, then the moving scene. Throws `CollideError` for
 * bodies outside [1, {@link DEMO_MAX_BODIES}], frames outside [1, {@link DEMO_MAX_FRAMES}] or a
 * seed outside [0, 2^32 − 1] (or not an integer).
 */
export function runDemo(options: Partial<DemoOptions> = {}): DemoResult {
  const frames = options.frames ?? 300;
  const seed = options.seed ?? 1;
  const bodies = options.bodies ?? 2000;
  checkIntInRange("bodies", bodies, 1, DEMO_MAX_BODIES);
  checkIntInRange("frames", frames, 1, DEMO_MAX_FRAMES);
  checkIntInRange("seed", seed, 0, DEMO_MAX_SEED);
  const boundingVolumes = runBoundingVolumes({ bodies: 3000, seed });
  const gravity = options.gravity === true;
  const scene = new DemoScene({ model: loadBunny(), bodies, seed, gravity });
  let pairs = 0;
  let contacts = 0;
  let broad = 0;
  let narrow = 0;
  let total = 0;
  let during = 0;
  let passes = 0;
  for (let f = 0; f < frames; f++) {
    const s = scene.frame();
    during = Math.max(during, s.maxPenetration);
    passes += s.passes;
    pairs += s.candidatePairs;
    contacts += s.contactPairs;
    broad += s.broadMs;
    narrow += s.narrowMs;
    total += s.totalMs;
    options.onFrame?.(f + 1, frames);
  }
  const maxPenetration = scene.settle();
  const k = Math.max(1, frames);
  return {
    bodies: scene.movingBodies,
    frames,
    pairsPerFrame: pairs / k,
    contactsPerFrame: contacts / k,
    msPerFrame: { broad: broad / k, narrow: narrow / k, total: total / k },
    maxPenetration: Math.max(0, maxPenetration),
    tolerance: DEMO_PENETRATION_TOLERANCE,
    maxPenetrationDuringRun: during,
    passesPerFrame: passes / k,
    gravity,
    staticBodies: scene.bodies.filter((b) => !b.dynamic).map((b) => b.name),
    boundingVolumes,
  };
}

/** The demo's human summary. */
export function formatDemo(r: DemoResult): string {
  const ok = r.maxPenetration <= r.tolerance;
  return [
    formatBoundingVolumes(r.boundingVolumes),
    "",
    `Demo scene: ${count(r.bodies, "moving body", "moving bodies")} (spheres, boxes, capsules, cylinders, hulls) ${r.gravity ? "falling under gravity onto" : "through"} ${r.staticBodies.join(", ")}`,
    `  frames                ${r.frames}`,
    `  pairs per frame       ${r.pairsPerFrame.toFixed(1)} (broad phase, sweep and prune)`,
    `  contacts per frame    ${r.contactsPerFrame.toFixed(1)}`,
    `  ms per frame          ${r.msPerFrame.total.toFixed(2)} total: broad ${r.msPerFrame.broad.toFixed(2)}, narrow ${r.msPerFrame.narrow.toFixed(2)} (${r.passesPerFrame.toFixed(2)} of at most ${DEMO_RELAXATION_PASSES} relaxation passes), response the rest`,
    `  deepest penetration   ${r.maxPenetration.toExponential(3)} at the end (tolerance ${r.tolerance}) — ${ok ? "ok" : "ABOVE TOLERANCE"}; ${r.maxPenetrationDuringRun.toExponential(3)} at worst during the run (pairs with a moving body)`,
  ].join("\n");
}
