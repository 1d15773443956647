/**
 * A bitwise fingerprint of the world's answers on a scene of bench/scenes.ts: every step's
 * contact records (handles, distance, normal, every manifold point's witnesses, distance and
 * feature id, as the bits of the doubles) and its `begin` / `persist` / `end` event lists,
 * hashed (FNV-1a over 32-bit words) into one number per run. A change meant to make the step
 * faster without changing an answer must leave it equal: run it on the tree before and after.
 * `node --import tsx bench/contact-fingerprint.ts [random|piles|lattice|level] [n=5000]
 * [steps=300]`; `ROOT=/path/to/checkout` fingerprints another tree's src/ (with this tree's
 * scenes); `BP=tree` sets the broad phase, `WARM=1` turns warm starts on.
 */
import { makeScene, type SceneName } from "./scenes.js";

const root = process.env.ROOT;
type WorldModule = typeof import("../src/world/index.js");
type CuboidModule = typeof import("../src/shapes/cuboid.js");
type SphereModule = typeof import("../src/shapes/sphere.js");
const W: WorldModule = await import(root ? `${root}/src/world/index.ts` : "../src/world/index.js");
const C: CuboidModule = await import(
  root ? `${root}/src/shapes/cuboid.ts` : "../src/shapes/cuboid.js"
);
const S: SphereModule = await import(
  root ? `${root}/src/shapes/sphere.ts` : "../src/shapes/sphere.js"
);

const sceneName = (process.argv[2] ?? "random") as SceneName;
const n = Number(process.argv[3] ?? 5000);
const steps = Number(process.argv[4] ?? 300);
const scene = makeScene(sceneName, n, 1);
scene.move(0);
const world = new W.CollisionWorld({
  ...(process.env.BP ? { broadphase: process.env.BP as "grid" } : {}),
  ...(process.env.WARM === "1" ? { warmStart: true } : {}),
});
const { size, rot, pos } = scene;
const handles: number[] = [];
for (let i = 0; i < scene.n; i++) {
  const shape =
    scene.kind[i] === 0
      ? S.makeSphere(size[3 * i])
      : C.makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
  const pose = {
    translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
    rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
  };
  handles.push(
    i < scene.staticCount
      ? world.addBody({ shape, pose, kind: "static" })
      : world.addBody({ shape, pose }),
  );
}
const moving = handles.slice(scene.staticCount) as Parameters<typeof world.setPoses>[0];
const bulk = new Float64Array(7 * (scene.n - scene.staticCount));
for (let j = 0; j < scene.n - scene.staticCount; j++) {
  const k = scene.staticCount + j;
  bulk.set(rot.subarray(4 * k, 4 * k + 4), 7 * j + 3);
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
let h = 0x811c9dc5;
function word(x: number): void {
  h ^= x >>> 0;
  h = Math.imul(h, 0x01000193) >>> 0;
}
function double(x: number): void {
  f64[0] = x;
  word(u32[0]);
  word(u32[1]);
}

const out = W.makeWorldContact();
let contacts = 0;
let points = 0;
for (let f = 1; f <= steps; f++) {
  scene.move(f);
  for (let j = 0; j < moving.length; j++) {
    const k = 3 * (scene.staticCount + j);
    bulk[7 * j] = pos[k];
    bulk[7 * j + 1] = pos[k + 1];
    bulk[7 * j + 2] = pos[k + 2];
  }
  world.setPoses(moving, bulk);
  world.step();
  word(world.contactCount);
  for (let i = 0; i < world.contactCount; i++) {
    const c = world.readContact(i, out);
    double(c.a);
    double(c.b);
    double(c.distance);
    const m = c.manifold;
    double(m.normal.x);
    double(m.normal.y);
    double(m.normal.z);
    word(m.count);
    for (let p = 0; p < m.count; p++) {
      const q = m.points[p];
      double(q.pointA.x);
      double(q.pointA.y);
      double(q.pointA.z);
      double(q.pointB.x);
      double(q.pointB.y);
      double(q.pointB.z);
      double(q.distance);
      double(q.featureId);
    }
    points += m.count;
  }
  contacts += world.contactCount;
  const ev = world.events();
  for (const list of [ev.begin, ev.persist, ev.end]) {
    word(list.count);
    for (let i = 0; i < list.count; i++) {
      double(list.a(i));
      double(list.b(i));
      word(list.isSensor(i) ? 1 : 0);
    }
  }
}
console.log(
  JSON.stringify({
    scene: sceneName,
    n,
    steps,
    root: root ?? ".",
    contacts,
    points,
    fingerprint: h.toString(16).padStart(8, "0"),
  }),
);
