/**
 * 2D benchmarks: polygon–polygon SAT (contact with minimum translation vector) and a 2D world
 * step, Collide beside `detect-collisions` (SAT with a response, and its BVH `System.checkAll`)
 * and `planck` (Box2D's `CollidePolygons` manifold, and a world of sensor bodies whose contacts
 * it updates every step) on the very same scene, in one run. Prints ms, ns per call and each
 * peer's time over Collide's (a ratio > 1: Collide is faster). Run alone with
 * `node --import tsx bench/dim2.ts [--json]`.
 */
import * as dc from "detect-collisions";
import * as planck from "planck";
import {
  CollisionWorld2D,
  contact2D,
  makeContact2,
  makePolygon,
  type Pose2,
  pose2,
  type Shape2,
} from "../src/dim2/index.js";
import { makeRandom } from "../src/math/random.js";

interface Row {
  name: string;
  n: number;
  engines: Record<string, { ms: number; nsPerOp: number; hits: number }>;
}

function time(fn: () => number, repeats: number): { ms: number; hits: number } {
  let best = Infinity;
  let hits = 0;
  fn(); // warm-up
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    hits = fn();
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, hits };
}

/** A convex k-gon of radius r (local points, counter-clockwise). */
function ngon(k: number, r: number, phase: number): { x: number; y: number }[] {
  const pts = [];
  for (let i = 0; i < k; i++) {
    const t = phase + (2 * Math.PI * i) / k;
    pts.push({ x: r * Math.cos(t), y: r * Math.sin(t) });
  }
  return pts;
}

interface SceneBody {
  local: { x: number; y: number }[];
  x: number;
  y: number;
  angle: number;
}

/** `n` hexagons of radius 0.5 in a square sized so that each touches about one or two others. */
function scene(n: number, seed: number): SceneBody[] {
  const rng = makeRandom(seed);
  const side = Math.sqrt(n) * 1.3;
  const out: SceneBody[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      local: ngon(6, 0.5, rng()),
      x: rng() * side,
      y: rng() * side,
      angle: rng() * 2 * Math.PI,
    });
  }
  return out;
}

function satBench(pairs: number, repeats: number): Row {
  const rng = makeRandom(7);
  const shapes: Shape2[] = [];
  const poses: Pose2[] = [];
  const dcBodies: dc.Polygon[] = [];
  const plShapes: planck.PolygonShape[] = [];
  const plXf: planck.Transform[] = [];
  for (let i = 0; i < 2 * pairs; i++) {
    const k = 3 + Math.floor(rng() * 6);
    const local = ngon(k, 0.5 + rng() * 0.5, rng());
    const x = (i % 2) * (0.5 + rng());
    const y = rng() - 0.5;
    const angle = rng() * 2 * Math.PI;
    shapes.push(makePolygon(local));
    poses.push(pose2.fromAngle(x, y, angle));
    const p = new dc.Polygon({ x, y }, local);
    p.setAngle(angle);
    dcBodies.push(p);
    plShapes.push(new planck.PolygonShape(local.map((v) => planck.Vec2(v.x, v.y))));
    plXf.push(planck.Transform(planck.Vec2(x, y), angle));
  }
  const out = makeContact2();
  const collide = time(() => {
    let h = 0;
    for (let i = 0; i < pairs; i++) {
      if (contact2D(shapes[2 * i], poses[2 * i], shapes[2 * i + 1], poses[2 * i + 1], 0, out)) h++;
    }
    return h;
  }, repeats);
  const system = new dc.System();
  for (const b of dcBodies) system.insert(b);
  const response = new dc.Response();
  const dcr = time(() => {
    let h = 0;
    for (let i = 0; i < pairs; i++) {
      response.clear();
      if (system.checkCollision(dcBodies[2 * i], dcBodies[2 * i + 1], response)) h++;
    }
    return h;
  }, repeats);
  const manifold = new planck.Manifold();
  const pl = time(() => {
    let h = 0;
    for (let i = 0; i < pairs; i++) {
      planck.CollidePolygons(
        manifold,
        plShapes[2 * i],
        plXf[2 * i],
        plShapes[2 * i + 1],
        plXf[2 * i + 1],
      );
      if (manifold.pointCount > 0) h++;
    }
    return h;
  }, repeats);
  const row: Row = { name: "polygon–polygon SAT (contact + MTV)", n: pairs, engines: {} };
  for (const [name, r] of [
    ["collide", collide],
    ["detect-collisions", dcr],
    ["planck (manifold)", pl],
  ] as const) {
    row.engines[name] = { ms: r.ms, nsPerOp: (1e6 * r.ms) / pairs, hits: r.hits };
  }
  return row;
}

function worldBench(n: number, frames: number): Row {
  const bodies = scene(n, 11);
  const rng = makeRandom(3);
  const moves: number[] = [];
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < n; i++) moves.push((rng() - 0.5) * 0.02, (rng() - 0.5) * 0.02);
  }
  // Collide.
  const world = new CollisionWorld2D({ broadphase: "tree" });
  const handles = bodies.map((b) =>
    world.addBody({ shape: makePolygon(b.local), pose: pose2.fromAngle(b.x, b.y, b.angle) }),
  );
  const poseScratch = pose2.identity();
  const collide = time(() => {
    let pairs = 0;
    for (let f = 0; f < frames; f++) {
      for (let i = 0; i < n; i++) {
        world.getPose(handles[i], poseScratch);
        poseScratch.p.x += moves[2 * (f * n + i)];
        poseScratch.p.y += moves[2 * (f * n + i) + 1];
        world.setPose(handles[i], poseScratch);
      }
      world.step();
      pairs = world.contactCount;
    }
    return pairs;
  }, 1);
  // detect-collisions: a BVH system, every body moved, then checkAll.
  const system = new dc.System();
  const dcBodies = bodies.map((b) => {
    const p = system.createPolygon({ x: b.x, y: b.y }, b.local);
    p.setAngle(b.angle);
    return p;
  });
  const dcr = time(() => {
    let pairs = 0;
    for (let f = 0; f < frames; f++) {
      for (let i = 0; i < n; i++) {
        const p = dcBodies[i];
        p.setPosition(p.pos.x + moves[2 * (f * n + i)], p.pos.y + moves[2 * (f * n + i) + 1]);
      }
      pairs = 0;
      system.checkAll(() => {
        pairs++;
      });
      pairs /= 2; // checkAll reports each pair from both sides
    }
    return pairs;
  }, 1);
  // planck: dynamic sensor bodies, zero gravity, moved by setTransform, contacts from step().
  const pw = planck.World({ gravity: planck.Vec2(0, 0) });
  const plBodies = bodies.map((b) => {
    const body = pw.createBody({
      type: "dynamic",
      position: planck.Vec2(b.x, b.y),
      angle: b.angle,
    });
    body.createFixture({
      shape: new planck.PolygonShape(b.local.map((v) => planck.Vec2(v.x, v.y))),
      isSensor: true,
    });
    return body;
  });
  const pl = time(() => {
    let pairs = 0;
    for (let f = 0; f < frames; f++) {
      for (let i = 0; i < n; i++) {
        const b = plBodies[i];
        const p = b.getPosition();
        b.setTransform(
          planck.Vec2(p.x + moves[2 * (f * n + i)], p.y + moves[2 * (f * n + i) + 1]),
          b.getAngle(),
        );
      }
      pw.step(1 / 60);
      pairs = 0;
      for (let c = pw.getContactList(); c; c = c.getNext()) if (c.isTouching()) pairs++;
    }
    return pairs;
  }, 1);
  const row: Row = { name: `2D world, ${n} hexagons, ${frames} frames`, n: frames, engines: {} };
  for (const [name, r] of [
    ["collide (tree)", collide],
    ["detect-collisions", dcr],
    ["planck (sensors)", pl],
  ] as const) {
    row.engines[name] = { ms: r.ms, nsPerOp: (1e6 * r.ms) / frames, hits: r.hits };
  }
  return row;
}

function print(rows: Row[]): void {
  for (const row of rows) {
    console.log(`\n${row.name} (n = ${row.n})`);
    const names = Object.keys(row.engines);
    const base = row.engines[names[0]];
    for (const name of names) {
      const e = row.engines[name];
      const ratio = e.ms / base.ms;
      console.log(
        `  ${name.padEnd(22)} ${e.ms.toFixed(2).padStart(9)} ms  ${e.nsPerOp.toFixed(0).padStart(10)} ns/op  hits ${String(e.hits).padStart(6)}  ratio ${ratio.toFixed(2)}`,
      );
    }
  }
  console.log(
    "\nratio = engine time / Collide time (> 1: Collide faster). Hits differ where engines differ on touching (detect-collisions and planck use small tolerances).",
  );
}

/**
 * Runs the 2D benchmarks and prints a table (or, with `json`, one JSON object); returns the rows.
 */
export async function runDim2Bench(options: { json: boolean }): Promise<unknown> {
  const rows = [satBench(20000, 5), worldBench(2000, 60)];
  if (options.json) console.log(JSON.stringify({ dim2: rows }));
  else print(rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runDim2Bench({ json: process.argv.includes("--json") });
}
