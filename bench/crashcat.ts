/**
 * crashcat (`crashcat`, Isaac Mason's pure-TypeScript engine after Jolt's design) as a peer of
 * the world and pair-query benchmarks, on the very same seeded scene (bench/world-scene.ts).
 *
 * World step, detection only: every body is a KINEMATIC body with
 * `collideKinematicVsNonDynamic` (crashcat, like Jolt, otherwise never pairs two non-dynamic
 * bodies) and sleeping off, moved each frame by teleporting it with `rigidBody.setPosition`
 * (which refits its broad-phase leaf and marks it moved), then `updateWorld(world, listener, 0)`.
 * With a time step of 0 crashcat runs its broad phase (`findCollidingPairs`, persistent pairs
 * over a dynamic AABB tree per broad-phase layer) and its narrow phase (GJK/EPA, manifold
 * clipping, its body-pair contact cache) and skips the whole island / solver / integration /
 * CCD block, so there is no dynamics response at all; kinematic bodies would not respond anyway.
 *
 * Geometry: crashcat boxes default to a convex radius of 0.05 (the box is shrunk by it and
 * rounded back: edges and corners are rounded, a different shape). We build them with convex
 * radius 0 so the box is the exact box Collide, Rapier and cannon-es test; the standalone run also
 * prints the default-radius count for reference.
 *
 * Touching pairs: crashcat keeps speculative contacts up to `speculativeContactDistance` (2 cm by
 * default) of separation, like Rapier's prediction distance, so we count the pairs whose manifold
 * has `penetrationDepth ≥ 0` (signed distance ≤ 0) from the listener's onContactAdded /
 * onContactPersisted calls of the frame. Its GJK treats shapes closer than `collisionTolerance`
 * (1e-4) as touching and EPA stops at a relative `penetrationTolerance` (1e-4), so pairs whose
 * exact signed distance is within about 1e-4 of 0 may be counted either way.
 *
 * Pair queries: crashcat exposes shape-vs-shape queries (`collideShapeVsShape` with any / closest
 * collectors and `maxSeparationDistance` as the prediction), which {@link crashcatPairQueries}
 * wraps like bench/pairs.ts wraps Rapier's `intersectsShape` / `contactShape`.
 *
 * Run alone: `node --import tsx bench/crashcat.ts [--frames F] [--sizes 1000,10000]
 * [--only world|pairs]` prints ms
 * per step and touching pairs beside Collide's `CollisionWorld` (tree broad phase) on the same
 * scene, the pair-set agreement with Collide's signed distance of every disagreeing pair, and
 * the pair-query timings and hit agreement.
 */
import {
  addBroadphaseLayer,
  addObjectLayer,
  box,
  type CollideShapeSettings,
  type ContactManifold,
  type Shape as CrashcatShape,
  collideShapeVsShape,
  createAnyCollideShapeCollector,
  createClosestCollideShapeCollector,
  createDefaultCollideShapeSettings,
  createWorld,
  createWorldSettings,
  EMPTY_SUB_SHAPE_ID,
  enableCollision,
  type Listener,
  MotionType,
  type RigidBody,
  registerAll,
  rigidBody,
  sphere,
  updateWorld,
  type World,
} from "crashcat";
import {
  contact,
  type Isometry,
  intersects,
  makeContact,
  makeCuboid,
  makeRandom,
  makeSphere,
  type Quat,
  type Shape,
  type Vec3,
} from "../src/index.js";
import { type BodyHandle, CollisionWorld } from "../src/world/index.js";
import { type BenchScene, makeBenchScene, moveScene } from "./world-scene.js";

/**
 * One benchmark engine, structurally the same as the `Engine` interface of bench/world.ts: move
 * every body to the scene's current positions and run one collision step, read the touching
 * pairs after the last frame, the broad/narrow split (Collide only, so null here), free.
 */
export interface CrashcatEngine {
  /** Moves every body to `scene.pos` and runs one detection-only `updateWorld`. */
  frame(): void;
  /** Touching pairs (manifold penetration depth ≥ 0) after the last frame. */
  pairs(): number;
  /** Always null (crashcat gives no broad/narrow split). */
  split(): [number, number] | null;
  /** Releases nothing (plain JavaScript objects); kept for the interface. */
  free(): void;
}

/** Options of {@link makeCrashcatWorld}. */
interface CrashcatWorldOptions {
  /** Box convex radius, scene units; 0 = exact box, crashcat's default is 0.05. */
  convexRadius: number;
  /** Keep the touching pairs of each frame as (i, j) body indices, for validation. */
  keepPairs: boolean;
}

/** The crashcat world of a scene, with its engine and (optionally) the touching-pair list. */
interface CrashcatWorld {
  engine: CrashcatEngine;
  /** Touching pairs of the last frame as scene indices i < j, flat (only with keepPairs). */
  touching: number[];
  world: World;
}

let registered = false;
/** Registers crashcat's shapes once (it dispatches narrow-phase pairs by registration). */
function ensureRegistered(): void {
  if (!registered) {
    registerAll();
    registered = true;
  }
}

/** Scene index of a crashcat body (set as userData at creation). */
function indexOf(b: RigidBody): number {
  return b.userData as number;
}

function makeCrashcatWorld(scene: BenchScene, options: CrashcatWorldOptions): CrashcatWorld {
  ensureRegistered();
  const settings = createWorldSettings();
  settings.gravity = [0, 0, 0];
  settings.gravityEnabled = false;
  settings.sleeping.allowSleeping = false;
  const bpLayer = addBroadphaseLayer(settings);
  const layer = addObjectLayer(settings, bpLayer);
  enableCollision(settings, layer, layer);
  const world = createWorld(settings);
  const bodies: RigidBody[] = [];
  const { size, rot, pos } = scene;
  for (let i = 0; i < scene.n; i++) {
    const shape =
      scene.kind[i] === 0
        ? sphere.create({ radius: size[3 * i] })
        : box.create({
            halfExtents: [size[3 * i], size[3 * i + 1], size[3 * i + 2]],
            convexRadius: options.convexRadius,
          });
    bodies.push(
      rigidBody.create(world, {
        shape,
        objectLayer: layer,
        motionType: MotionType.KINEMATIC,
        collideKinematicVsNonDynamic: true,
        allowSleeping: false,
        position: [pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]],
        quaternion: [rot[4 * i], rot[4 * i + 1], rot[4 * i + 2], rot[4 * i + 3]],
        userData: i,
      }),
    );
  }
  const touching: number[] = [];
  let count = 0;
  // The manifolds of one body pair arrive one after another; count the pair once.
  let lastA = -1;
  let lastB = -1;
  const onContact = (a: RigidBody, b: RigidBody, m: ContactManifold) => {
    if (m.penetrationDepth < 0) return;
    if (a.id === lastA && b.id === lastB) return;
    lastA = a.id;
    lastB = b.id;
    count++;
    if (options.keepPairs) {
      const i = indexOf(a);
      const j = indexOf(b);
      touching.push(Math.min(i, j), Math.max(i, j));
    }
  };
  const listener: Listener = { onContactAdded: onContact, onContactPersisted: onContact };
  const p: [number, number, number] = [0, 0, 0];
  const engine: CrashcatEngine = {
    frame() {
      for (let i = 0; i < scene.n; i++) {
        p[0] = pos[3 * i];
        p[1] = pos[3 * i + 1];
        p[2] = pos[3 * i + 2];
        rigidBody.setPosition(world, bodies[i], p, false);
      }
      count = 0;
      lastA = -1;
      lastB = -1;
      touching.length = 0;
      updateWorld(world, listener, 0);
    },
    pairs: () => count,
    split: () => null,
    free() {},
  };
  return { engine, touching, world };
}

/**
 * crashcat's detection-only world of `scene` (see the module docs): one kinematic body per scene
 * body (spheres, exact boxes with convex radius 0) in one object layer colliding with itself,
 * moved by `rigidBody.setPosition` each frame and stepped by `updateWorld(world, listener, 0)`.
 * Returns an engine with the interface of bench/world.ts's engines; `pairs()` counts body pairs
 * with a manifold of penetration depth ≥ 0 (signed distance ≤ 0) at the last frame.
 */
export function crashcatWorldEngine(scene: BenchScene): CrashcatEngine {
  return makeCrashcatWorld(scene, { convexRadius: 0, keepPairs: false }).engine;
}

/**
 * crashcat's shape-vs-shape pair queries on one sphere (radius `radius`) and one box (half
 * extents `half`, box convex radius `convexRadius`, default 0 = the exact box; crashcat's own
 * default 0.05 rounds its edges but lets shallow overlaps finish in GJK without EPA), in the shape of bench/pairs.ts's
 * Rapier calls: poses are Collide `Isometry`s (world frame, translation + unit quaternion).
 * `…Intersects` use `collideShapeVsShape` with an any-hit collector and zero separation (crashcat
 * has no boolean-only overlap test: it runs GJK and, when overlapping, EPA); `…Contact` use the
 * closest-hit collector with `maxSeparationDistance = prediction` (crashcat clamps it to [0, 1])
 * and return the signed distance (−penetration) or null when farther than `prediction`.
 * Allocates nothing per call.
 */
export function crashcatPairQueries(
  radius = 0.4,
  half: Vec3 = { x: 0.5, y: 0.3, z: 0.4 },
  convexRadius = 0,
): {
  sphereBoxIntersects(sphere: Isometry, box: Isometry): boolean;
  sphereBoxContact(sphere: Isometry, box: Isometry, prediction?: number): number | null;
  boxBoxIntersects(a: Isometry, b: Isometry): boolean;
  boxBoxContact(a: Isometry, b: Isometry, prediction?: number): number | null;
} {
  ensureRegistered();
  const s = sphere.create({ radius });
  const b = box.create({ halfExtents: [half.x, half.y, half.z], convexRadius });
  const anySettings = createDefaultCollideShapeSettings();
  anySettings.maxSeparationDistance = 0;
  anySettings.collectFaces = false;
  const closestSettings = createDefaultCollideShapeSettings();
  closestSettings.collectFaces = false;
  const any = createAnyCollideShapeCollector();
  const closest = createClosestCollideShapeCollector();
  const run = (
    collector: Parameters<typeof collideShapeVsShape>[0],
    settings: CollideShapeSettings,
    sa: CrashcatShape,
    pa: Isometry,
    sb: CrashcatShape,
    pb: Isometry,
  ) => {
    const ta = pa.translation;
    const qa = pa.rotation;
    const tb = pb.translation;
    const qb = pb.rotation;
    collideShapeVsShape(
      collector,
      settings,
      sa,
      EMPTY_SUB_SHAPE_ID,
      0,
      ta.x,
      ta.y,
      ta.z,
      qa.x,
      qa.y,
      qa.z,
      qa.w,
      1,
      1,
      1,
      sb,
      EMPTY_SUB_SHAPE_ID,
      0,
      tb.x,
      tb.y,
      tb.z,
      qb.x,
      qb.y,
      qb.z,
      qb.w,
      1,
      1,
      1,
    );
  };
  const hitAny = (sa: CrashcatShape, pa: Isometry, sb: CrashcatShape, pb: Isometry) => {
    any.reset();
    run(any, anySettings, sa, pa, sb, pb);
    return any.hit !== null;
  };
  const hitClosest = (
    sa: CrashcatShape,
    pa: Isometry,
    sb: CrashcatShape,
    pb: Isometry,
    prediction: number,
  ) => {
    closest.reset();
    closestSettings.maxSeparationDistance = prediction;
    run(closest, closestSettings, sa, pa, sb, pb);
    return closest.hit === null ? null : -closest.hit.penetration;
  };
  return {
    sphereBoxIntersects: (ps, pb) => hitAny(s, ps, b, pb),
    sphereBoxContact: (ps, pb, prediction = 0) => hitClosest(s, ps, b, pb, prediction),
    boxBoxIntersects: (pa, pb) => hitAny(b, pa, b, pb),
    boxBoxContact: (pa, pb, prediction = 0) => hitClosest(b, pa, b, pb, prediction),
  };
}

// ---------------------------------------------------------------------------------------------
// Standalone run: crashcat beside Collide's CollisionWorld, and the pair queries.

const WARMUP_FRAMES = 10;
/** Frame at which the pairs are counted (the same as bench/world.ts). */
const COUNT_FRAME = 100000;
/** Collide's signed distance is asked with this prediction to explain disagreeing pairs. */
const EXPLAIN_PREDICTION = 0.05;

/** Collide's world of the scene, engine-shaped, with the touching pairs as scene indices. */
function makeCollideWorld(scene: BenchScene): {
  engine: CrashcatEngine;
  touching: () => number[];
  shapes: Shape[];
  poses: Isometry[];
} {
  const world = new CollisionWorld({ broadphase: "tree" });
  const poses: Isometry[] = [];
  const handles: BodyHandle[] = [];
  const shapes: Shape[] = [];
  const index = new Map<number, number>();
  const { size, rot, pos } = scene;
  for (let i = 0; i < scene.n; i++) {
    const shape =
      scene.kind[i] === 0
        ? makeSphere(size[3 * i])
        : makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
    const p: Isometry = {
      translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
      rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
    };
    shapes.push(shape);
    poses.push(p);
    const h = world.addBody({ shape, pose: p });
    handles.push(h);
    index.set(h, i);
  }
  const engine: CrashcatEngine = {
    frame() {
      for (let i = 0; i < scene.n; i++) {
        const t = poses[i].translation;
        t.x = pos[3 * i];
        t.y = pos[3 * i + 1];
        t.z = pos[3 * i + 2];
        world.setPose(handles[i], poses[i]);
      }
      world.step();
    },
    pairs: () => world.contactCount,
    split: () => null,
    free() {},
  };
  const touching = () => {
    const out: number[] = [];
    for (const c of world.contacts()) {
      const i = index.get(c.a) ?? -1;
      const j = index.get(c.b) ?? -1;
      out.push(Math.min(i, j), Math.max(i, j));
    }
    return out;
  };
  return { engine, touching, shapes, poses };
}

/** Mean ms per measured frame, as bench/world.ts's `measure` does (warm-up, then frames). */
function timeFrames(scene: BenchScene, engine: CrashcatEngine, frames: number): number {
  let frame = 0;
  for (let i = 0; i < WARMUP_FRAMES; i++) {
    moveScene(scene, ++frame);
    engine.frame();
  }
  let total = 0;
  for (let i = 0; i < frames; i++) {
    moveScene(scene, ++frame);
    const s = performance.now();
    engine.frame();
    total += performance.now() - s;
  }
  return total / frames;
}

function pairKeys(flat: number[], n: number): Set<number> {
  const s = new Set<number>();
  for (let k = 0; k < flat.length; k += 2) s.add(flat[k] * n + flat[k + 1]);
  return s;
}

function runWorld(sizes: number[], frames: number): void {
  // JIT warm-up on a small scene for both engines.
  const warm = makeBenchScene(2000, 99);
  timeFrames(warm, makeCollideWorld(warm).engine, 20);
  timeFrames(warm, crashcatWorldEngine(warm), 20);
  console.log(`world step: ${frames} frames, every body moved each frame`);
  for (const n of sizes) {
    const scene = makeBenchScene(n, 1);
    moveScene(scene, 0);
    let t0 = performance.now();
    const col = makeCollideWorld(scene);
    const colSetup = performance.now() - t0;
    const colMs = timeFrames(scene, col.engine, frames);
    moveScene(scene, 0);
    t0 = performance.now();
    const cc = makeCrashcatWorld(scene, { convexRadius: 0, keepPairs: true });
    const ccSetup = performance.now() - t0;
    const ccMs = timeFrames(scene, cc.engine, frames);
    moveScene(scene, 0);
    const rounded = makeCrashcatWorld(scene, { convexRadius: 0.05, keepPairs: false });
    const roundedMs = timeFrames(scene, rounded.engine, frames);
    moveScene(scene, COUNT_FRAME);
    col.engine.frame();
    cc.engine.frame();
    rounded.engine.frame();
    const a = pairKeys(col.touching(), n);
    const b = pairKeys(cc.touching, n);
    const onlyCollide: number[] = [];
    const onlyCrashcat: number[] = [];
    for (const k of a) if (!b.has(k)) onlyCollide.push(k);
    for (const k of b) if (!a.has(k)) onlyCrashcat.push(k);
    const c = makeContact();
    const explain = (k: number) => {
      const i = Math.floor(k / n);
      const j = k % n;
      const r = contact(
        col.shapes[i],
        col.poses[i],
        col.shapes[j],
        col.poses[j],
        EXPLAIN_PREDICTION,
        c,
      );
      return r === null ? `>${EXPLAIN_PREDICTION}` : r.distance.toExponential(2);
    };
    console.log(`\nN = ${n}`);
    console.log(
      `${"engine".padEnd(26)}${"ms/step".padStart(10)}${"× collide".padStart(11)}${"pairs".padStart(8)}${"setup ms".padStart(10)}`,
    );
    const row = (name: string, ms: number, pairs: number, setup: number | null) =>
      console.log(
        `${name.padEnd(26)}${ms.toFixed(2).padStart(10)}${(ms / colMs).toFixed(2).padStart(11)}${String(pairs).padStart(8)}${(setup === null ? "—" : setup.toFixed(0)).padStart(10)}`,
      );
    row("collide/tree", colMs, col.engine.pairs(), colSetup);
    row("crashcat (exact box)", ccMs, cc.engine.pairs(), ccSetup);
    row("crashcat (box radius .05)", roundedMs, rounded.engine.pairs(), null);
    console.log(
      `pair sets at frame ${COUNT_FRAME}: ${a.size - onlyCollide.length} common, ${onlyCollide.length} only Collide, ${onlyCrashcat.length} only crashcat (exact box)`,
    );
    for (const k of onlyCollide.slice(0, 10))
      console.log(`  only Collide:  Collide distance ${explain(k)}`);
    for (const k of onlyCrashcat.slice(0, 10))
      console.log(`  only crashcat: Collide distance ${explain(k)}`);
  }
}

function randomPoses(seed: number, spread: number, rotate: boolean): Isometry[] {
  const rng = makeRandom(seed);
  const out: Isometry[] = [];
  for (let i = 0; i < 256; i++) {
    const t = { x: (rng() - 0.5) * spread, y: (rng() - 0.5) * spread, z: (rng() - 0.5) * spread };
    let q: Quat = { x: 0, y: 0, z: 0, w: 1 };
    const x = rng() - 0.5;
    const y = rng() - 0.5;
    const z = rng() - 0.5;
    const w = rng() - 0.5;
    const l = Math.hypot(x, y, z, w) || 1;
    if (rotate) q = { x: x / l, y: y / l, z: z / l, w: w / l };
    out.push({ translation: t, rotation: q });
  }
  return out;
}

/** ns per call of `f` over `count` configurations (median of repeated batches). */
function nsPerCall(count: number, f: () => number): { ns: number; hits: number } {
  let hits = 0;
  const samples: number[] = [];
  const end = performance.now() + 300;
  while (performance.now() < end || samples.length < 5) {
    const s = performance.now();
    hits = f();
    samples.push(performance.now() - s);
  }
  samples.sort((x, y) => x - y);
  return { ns: (samples[samples.length >> 1] * 1e6) / count, hits };
}

function runPairs(): void {
  // The configurations of bench/pairs.ts: sphere 0.4, box half extents (0.5, 0.3, 0.4).
  const q = crashcatPairQueries();
  const qr = crashcatPairQueries(0.4, { x: 0.5, y: 0.3, z: 0.4 }, 0.05);
  const sph = makeSphere(0.4);
  const bx = makeCuboid({ x: 0.5, y: 0.3, z: 0.4 });
  const sp = randomPoses(4, 2.2, false);
  const bp = randomPoses(5, 1.2, true);
  const bp2 = randomPoses(6, 2.4, true);
  const c = makeContact();
  const n = sp.length;
  type Q = ReturnType<typeof crashcatPairQueries>;
  const count = (f: (i: number) => boolean) => () => {
    let h = 0;
    for (let i = 0; i < n; i++) if (f(i)) h++;
    return h;
  };
  const cases: [string, () => number, (k: Q) => () => number][] = [
    [
      "sphere–box intersects",
      count((i) => intersects(sph, sp[i], bx, bp[i])),
      (k) => count((i) => k.sphereBoxIntersects(sp[i], bp[i])),
    ],
    [
      "sphere–box contact",
      count((i) => contact(sph, sp[i], bx, bp[i], 0, c) !== null),
      (k) => count((i) => k.sphereBoxContact(sp[i], bp[i]) !== null),
    ],
    [
      "box–box intersects",
      count((i) => intersects(bx, bp[i], bx, bp2[i])),
      (k) => count((i) => k.boxBoxIntersects(bp[i], bp2[i])),
    ],
    [
      "box–box contact",
      count((i) => contact(bx, bp[i], bx, bp2[i], 0, c) !== null),
      (k) => count((i) => k.boxBoxContact(bp[i], bp2[i]) !== null),
    ],
  ];
  console.log(
    `\n${"pair query".padEnd(24)}${"collide ns".padStart(12)}${"crashcat ns".padStart(13)}${"× collide".padStart(11)}${"cc r=.05 ns".padStart(13)}  hits (collide/crashcat/r=.05, of ${n})`,
  );
  for (const [name, fc, fk] of cases) {
    const a = nsPerCall(n, fc);
    const b = nsPerCall(n, fk(q));
    const r = nsPerCall(n, fk(qr));
    console.log(
      `${name.padEnd(24)}${a.ns.toFixed(1).padStart(12)}${b.ns.toFixed(1).padStart(13)}${(b.ns / a.ns).toFixed(2).padStart(11)}${r.ns.toFixed(1).padStart(13)}  ${a.hits}/${b.hits}/${r.hits}`,
    );
  }
  // Signed-distance agreement of the contact queries on the overlapping configurations.
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const d = q.boxBoxContact(bp[i], bp2[i], 0.5);
    const e = contact(bx, bp[i], bx, bp2[i], 0.5, c);
    if (d !== null && e !== null) worst = Math.max(worst, Math.abs(d - e.distance));
  }
  console.log(
    `box–box contact: largest |crashcat − Collide| signed distance ${worst.toExponential(2)}`,
  );
}

function parseArgs(argv: string[]): { sizes: number[]; frames: number; only: string } {
  const o = { sizes: [1000, 10000], frames: 30, only: "" };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--frames") o.frames = Number(argv[++i]);
    else if (argv[i] === "--sizes") o.sizes = argv[++i].split(",").map(Number);
    else if (argv[i] === "--only") o.only = argv[++i];
  }
  return o;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const o = parseArgs(process.argv.slice(2));
  if (o.only !== "pairs") runWorld(o.sizes, o.frames);
  if (o.only !== "world") runPairs();
}
