/**
 * Whole-step A/B of two builds in one process: the default world of a base tree (env `BASE`, a
 * checkout's root holding `src/`, e.g. `git archive <commit> src | tar -x -C /tmp/base`) and of
 * this tree on the same scene of bench/scenes.ts, stepped alternately frame by frame (the order
 * swapped every frame), CPU milliseconds per step (process.cpuUsage: a loaded machine inflates it
 * less than wall time). `AA=1` runs this tree against itself (the A/A noise). Also counts the
 * frames whose contact counts differ.
 * `BASE=/tmp/base node --import tsx bench/step-ab.ts piles 10000 [frames] [warm-up]`; `BP=grid`
 * sets the broad phase, `FIRST=k` instead times the first step of k fresh world pairs (built and
 * stepped alternately, the order swapped each round). The base root needs this tree's
 * `tsconfig.json` and `package.json` (and `node_modules`): without them tsx compiled the base
 * differently and its step measured 2.6× slower than the same source here.
 */
import { makeScene, type SceneName } from "./scenes.js";

const base = process.env.BASE ?? "/tmp/piles/base";
const same = process.env.AA === "1";
const Aw: typeof Bw = await import(same ? "../src/world/index.js" : `${base}/src/world/index.ts`);
const Ac: typeof Bc = await import(
  same ? "../src/shapes/cuboid.js" : `${base}/src/shapes/cuboid.ts`
);
const As: typeof Bs = await import(
  same ? "../src/shapes/sphere.js" : `${base}/src/shapes/sphere.ts`
);
const Bw = await import("../src/world/index.js");
const Bc = await import("../src/shapes/cuboid.js");
const Bs = await import("../src/shapes/sphere.js");
const sceneName = (process.argv[2] ?? "piles") as SceneName;
const n = Number(process.argv[3] ?? 10000);
const frames = Number(process.argv[4] ?? 40);
const warm = Number(process.argv[5] ?? 20);
const scene = makeScene(sceneName, n, 1);
scene.move(0);
/** The base tree's modules have the same shape as this tree's (typed as this tree's). */
type WorldModule = typeof Bw;
type CuboidModule = typeof Bc;
type SphereModule = typeof Bs;
function build(W: WorldModule, mc: CuboidModule["makeCuboid"], ms: SphereModule["makeSphere"]) {
  const world = new W.CollisionWorld({
    profile: true,
    ...(process.env.BP ? { broadphase: process.env.BP as "grid" } : {}),
  });
  const { size, rot, pos } = scene;
  const hs: number[] = [];
  for (let i = 0; i < scene.n; i++) {
    const shape =
      scene.kind[i] === 0
        ? ms(size[3 * i])
        : mc({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
    const pose = {
      translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
      rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
    };
    hs.push(
      i < scene.staticCount
        ? world.addBody({ shape, pose, kind: "static" })
        : world.addBody({ shape, pose }),
    );
  }
  const moving = hs.slice(scene.staticCount);
  const bulk = new Float64Array(7 * moving.length);
  for (let j = 0; j < moving.length; j++)
    bulk.set(rot.subarray(4 * (scene.staticCount + j), 4 * (scene.staticCount + j) + 4), 7 * j + 3);
  return {
    world,
    step() {
      for (let j = 0; j < moving.length; j++) {
        const k = 3 * (scene.staticCount + j);
        bulk[7 * j] = pos[k];
        bulk[7 * j + 1] = pos[k + 1];
        bulk[7 * j + 2] = pos[k + 2];
      }
      world.setPoses(moving, bulk);
      world.step();
    },
  };
}
const firstRounds = Number(process.env.FIRST ?? 0);
if (firstRounds > 0) {
  const fA: number[] = [];
  const fB: number[] = [];
  scene.move(1);
  for (let r = 0; r < firstRounds; r++) {
    for (const side of r % 2 === 0 ? ["A", "B"] : ["B", "A"]) {
      const e =
        side === "A"
          ? build(Aw, Ac.makeCuboid, As.makeSphere)
          : build(Bw, Bc.makeCuboid, Bs.makeSphere);
      const c0 = process.cpuUsage();
      e.step();
      const c = process.cpuUsage(c0);
      (side === "A" ? fA : fB).push((c.user + c.system) / 1000);
    }
  }
  const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
  const mA = sorted(fA)[fA.length >> 1];
  const mB = sorted(fB)[fB.length >> 1];
  console.log(
    JSON.stringify({
      scene: sceneName,
      n,
      first: true,
      aa: same,
      base: fA,
      new: fB,
      ratio: +(mB / mA).toFixed(3),
    }),
  );
  process.exit(0);
}
const A = build(Aw, Ac.makeCuboid, As.makeSphere);
const B = build(Bw, Bc.makeCuboid, Bs.makeSphere);
const tA: number[] = [];
const tB: number[] = [];
let mismatch = 0;
for (let f = 1; f <= warm + frames; f++) {
  scene.move(f);
  const order = f % 2 === 0 ? [A, B] : [B, A];
  for (const e of order) {
    const c0 = process.cpuUsage();
    e.step();
    const c = process.cpuUsage(c0);
    if (f > warm) (e === A ? tA : tB).push((c.user + c.system) / 1000);
  }
  if (A.world.contactCount !== B.world.contactCount) mismatch++;
}
const med = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1];
};
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const st = B.world.stats;
console.log(
  JSON.stringify({
    scene: sceneName,
    n,
    frames,
    aa: same,
    baseMedian: +med(tA).toFixed(2),
    newMedian: +med(tB).toFixed(2),
    baseMean: +mean(tA).toFixed(2),
    newMean: +mean(tB).toFixed(2),
    ratio: +(med(tB) / med(tA)).toFixed(3),
    contactMismatchFrames: mismatch,
    contacts: B.world.contactCount,
    candidates: st.candidatePairs,
  }),
);
