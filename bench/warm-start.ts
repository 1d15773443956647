/**
 * Warm starts of the world's narrow phase (src/world/warm-start-cache.ts) on a scene of resting boxes:
 * stacks of unit boxes on a square lattice, each box touching the one below and above it face
 * to face and its lattice neighbours side to side (rotated by a small random angle about the
 * vertical, so the side pairs are near-touching boxes that the SAT must separate), plus a
 * fraction of the boxes on a small random walk each step. The same scene is stepped with
 * `warmStart: true` and `warmStart: false`, interleaved, each step timed in CPU time
 * (`process.cpuUsage`, the machine may be shared); medians in ms per step, and the counters of
 * the warm world (answers reused, pairs settled by their cached axis, cold pairs).
 *
 * Run: `node --import tsx bench/warm-start.ts [--side 30] [--height 4] [--moving 0,0.1]
 * [--steps 60]`.
 */
import { CollisionWorld, type Isometry, makeCuboid, makeRandom } from "../src/index.js";

/** One configuration's result. */
export interface WarmStartRow {
  bodies: number;
  movingFraction: number;
  coldMs: number;
  warmMs: number;
  contacts: number;
  reused: number;
  axisEarlyOuts: number;
  cold: number;
}

function median(a: number[]): number {
  const b = [...a].sort((x, y) => x - y);
  return b[b.length >> 1];
}

/** Steps the resting-boxes scene with and without warm starts. */
export function runWarmStartBench(options: {
  side?: number;
  height?: number;
  moving?: number[];
  steps?: number;
}): WarmStartRow[] {
  const side = options.side ?? 30;
  const height = options.height ?? 4;
  const steps = options.steps ?? 60;
  const rows: WarmStartRow[] = [];
  for (const fraction of options.moving ?? [0, 0.1]) {
    const rng = makeRandom(11);
    const box = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
    const poses: Isometry[] = [];
    for (let i = 0; i < side; i++) {
      for (let j = 0; j < side; j++) {
        for (let k = 0; k < height; k++) {
          const a = (rng() - 0.5) * 0.02;
          poses.push({
            translation: { x: i * 1.001, y: k, z: j * 1.001 },
            rotation: { x: 0, y: Math.sin(a / 2), z: 0, w: Math.cos(a / 2) },
          });
        }
      }
    }
    const worlds = [true, false].map((warmStart) => {
      const w = new CollisionWorld({ warmStart });
      const handles = poses.map((pose) => w.addBody({ shape: box, pose }));
      return { w, handles, times: [] as number[] };
    });
    const moving: number[] = [];
    for (let i = 0; i < poses.length; i++) if (rng() < fraction) moving.push(i);
    const current = poses.map((p) => ({
      translation: { ...p.translation },
      rotation: { ...p.rotation },
    }));
    for (let s = 0; s < steps + 10; s++) {
      for (const i of moving) {
        const t = current[i].translation;
        t.x += (rng() - 0.5) * 0.01;
        t.y += (rng() - 0.5) * 0.01;
        t.z += (rng() - 0.5) * 0.01;
      }
      for (const x of worlds) {
        for (const i of moving) x.w.setPose(x.handles[i], current[i]);
        const c0 = process.cpuUsage();
        x.w.step();
        const d = process.cpuUsage(c0);
        if (s >= 10) x.times.push((d.user + d.system) / 1000);
      }
    }
    const [warm, cold] = worlds;
    if (warm.w.contactCount !== cold.w.contactCount) throw new Error("warm and cold differ");
    const st = warm.w.warmStartStats();
    rows.push({
      bodies: poses.length,
      movingFraction: fraction,
      coldMs: median(cold.times),
      warmMs: median(warm.times),
      contacts: warm.w.contactCount,
      reused: st.reused,
      axisEarlyOuts: st.axisEarlyOuts,
      cold: st.cold,
    });
  }
  return rows;
}

if (process.argv[1]?.endsWith("warm-start.ts")) {
  const arg = (name: string, d: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : d;
  };
  const rows = runWarmStartBench({
    side: Number(arg("--side", "30")),
    height: Number(arg("--height", "4")),
    moving: arg("--moving", "0,0.1").split(",").map(Number),
    steps: Number(arg("--steps", "60")),
  });
  console.log("resting boxes, ms per step (median, CPU time), warm starts off / on");
  console.log("bodies  moving  cold ms  warm ms  speed-up  contacts  reused/axis/cold pairs");
  for (const r of rows) {
    console.log(
      `${String(r.bodies).padStart(6)}  ${`${(r.movingFraction * 100).toFixed(0)}%`.padStart(6)}  ${r.coldMs.toFixed(2).padStart(7)}  ${r.warmMs.toFixed(2).padStart(7)}  ${(r.coldMs / r.warmMs).toFixed(2).padStart(7)}×  ${String(r.contacts).padStart(8)}  ${r.reused}/${r.axisEarlyOuts}/${r.cold}`,
    );
  }
}
