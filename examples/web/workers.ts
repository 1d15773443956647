/**
 * Web Worker threads: the same world stepped on one thread and with `WorkerExecutor` from
 * `collide/parallel/browser` (Web Workers over SharedArrayBuffer), compared bitwise contact by
 * contact. The page must be cross-origin isolated (COOP/COEP headers; `npm run examples:serve`
 * and Vite's dev server send them), or `SharedArrayBuffer` does not exist.
 */
import { CollisionWorld, isometry, makeCuboid, makeRandom, makeSphere, quat } from "collide";
import { WorkerExecutor } from "collide/parallel/browser";
import * as THREE from "three";
import { button, makeStage, publish, readout, unit } from "./common.js";

const BODIES = 4000;
const STEPS = 5;
const threads = Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2));

/** Adds the same seeded crowd of spheres and rotated boxes to `world`; returns their poses. */
function populate(world: CollisionWorld, seed: number) {
  const random = makeRandom(seed);
  const bodies = [];
  for (let i = 0; i < BODIES; i++) {
    const shape =
      i % 2 === 0 ? makeSphere(0.3 + 0.2 * random()) : makeCuboid({ x: 0.3, y: 0.2, z: 0.4 });
    const pose = isometry.create(
      { x: 30 * random(), y: 30 * random(), z: 6 * random() },
      quat.fromAxisAngle(quat.identity(), unit({ x: random(), y: random(), z: 1 }), 6 * random()),
    );
    bodies.push({
      handle: world.addBody({ shape, pose }),
      pose,
      velocity: { x: random() - 0.5, y: random() - 0.5, z: 0 },
    });
  }
  return bodies;
}

/** Steps `world` STEPS times (everything moving); returns every contact's numbers and the time. */
function run(
  world: CollisionWorld,
  seed: number,
): { numbers: Float64Array; ms: number; contacts: number } {
  const bodies = populate(world, seed);
  const numbers: number[] = [];
  let ms = 0;
  for (let s = 0; s < STEPS; s++) {
    for (const b of bodies) {
      b.pose.translation.x += 0.05 * b.velocity.x;
      b.pose.translation.y += 0.05 * b.velocity.y;
      world.setPose(b.handle, b.pose);
    }
    const t0 = performance.now();
    world.step();
    ms += performance.now() - t0;
    for (const c of world.contacts()) {
      const m = c.manifold;
      numbers.push(c.a, c.b, c.distance, m.normal.x, m.normal.y, m.normal.z, m.count);
      for (let k = 0; k < m.count; k++) {
        const p = m.points[k];
        numbers.push(
          p.pointA.x,
          p.pointA.y,
          p.pointA.z,
          p.pointB.x,
          p.pointB.y,
          p.pointB.z,
          p.distance,
        );
      }
    }
  }
  return { numbers: Float64Array.from(numbers), ms: ms / STEPS, contacts: world.contactCount };
}

const stage = makeStage({ eye: [15, 15, 45], target: [15, 15, 0] });
const dots = new THREE.Points(
  new THREE.BufferGeometry(),
  new THREE.PointsMaterial({ color: 0x8ab4f8, size: 0.25 }),
);
stage.scene.add(dots);

let seed = 7;
async function compare(): Promise<void> {
  readout("running…");
  const executor = new WorkerExecutor({ threads, minPairs: 0 });
  await executor.ready();
  const one = run(new CollisionWorld({ broadphase: "grid" }), seed);
  const threaded = new CollisionWorld({ broadphase: "grid", executor });
  const many = run(threaded, seed);
  const { blocks, callerBlocks } = executor.lastJob;
  await executor.dispose();
  // Bitwise: every double the same, −0 and +0 told apart.
  let identical = one.numbers.length === many.numbers.length;
  for (let i = 0; identical && i < one.numbers.length; i++)
    identical = Object.is(one.numbers[i], many.numbers[i]);
  const positions = new Float32Array(3 * BODIES);
  threaded.handles().forEach((h, i) => {
    const t = threaded.getPose(h).translation;
    positions.set([t.x, t.y, t.z], 3 * i);
  });
  dots.geometry.setAttribute("position", new THREE.BufferAttribute(positions, 3));
  readout(
    [
      `${BODIES} bodies, ${STEPS} steps, seed ${seed}`,
      `contacts at the last step: ${many.contacts}`,
      `1 thread:  ${one.ms.toFixed(2)} ms per step`,
      `${threads} threads: ${many.ms.toFixed(2)} ms per step (workers ran ${blocks - callerBlocks} of ${blocks} blocks at the last step)`,
      `contacts bitwise identical: ${identical ? "yes" : "NO"} (${one.numbers.length} numbers)`,
    ].join("\n"),
  );
  publish({
    ready: true,
    crossOriginIsolated,
    threads,
    identical,
    numbers: one.numbers.length,
    contacts: many.contacts,
    workerBlocks: blocks - callerBlocks,
    blocks,
    msOneThread: one.ms,
    msThreads: many.ms,
  });
}

button("run again", () => {
  seed += 1;
  void compare();
});
compare().catch((e: unknown) => {
  readout(String(e));
  publish({ ready: true, error: String(e) });
});
