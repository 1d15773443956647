/**
 * 32-vertex hull–hull contact (GJK + EPA on overlapping hulls) beside Jolt (`jolt-physics`,
 * WebAssembly), on the very same configurations, in one process: issue 15's target "32-vertex
 * hull–hull contact (EPA) at least as fast as Jolt's".
 *
 * Configurations: A at the origin (identity rotation), B at a random rotation and a translation
 * of at most 0.3 per axis, so every pair overlaps (the hulls are 32 points on a unit sphere
 * squashed to 0.8 in y, as in bench/pairs.ts): the penetration depth query, the one where EPA
 * runs. Collide: `contact(hullA, poseA, hullB, poseB, 0, out)`. Jolt: a `TransformedShape` of
 * hull A and `CollideShape` of hull B with a closest-hit collector (penetration depth, axis and
 * contact points: the same answer), once with convex radius 0 (the exact hull, the shape Collide
 * tests) and once with Jolt's default convex radius (0.05: the hull shrunk and rounded back, a
 * different shape, where Jolt runs GJK on the shrunk cores and EPA only beyond twice the radius).
 *
 * Run: `node --import tsx bench/hull-contact.ts [--time ms] [--rounds n] [--vertices n]` (points
 * per hull, default 32); prints ns per call
 * for each engine in each round (the median over interleaved batches of 8 passes over the 256
 * configurations, each batch timed in CPU time with `process.cpuUsage`, since the machine may be
 * shared), and the ratio Collide / Jolt. Every task is first warmed up for `time` ms, so the
 * WebAssembly runs at its optimising tier.
 */
import initJolt from "jolt-physics";
import {
  contact,
  type Isometry,
  makeContact,
  makeConvexPolyhedron,
  makeRandom,
  type Quat,
} from "../src/index.js";

const CONFIGS = 256;
/** Passes over the configurations per timed batch. */
const BATCH = 8;

function randomQuat(rng: () => number): Quat {
  const x = rng() - 0.5;
  const y = rng() - 0.5;
  const z = rng() - 0.5;
  const w = rng() - 0.5;
  const l = Math.hypot(x, y, z, w) || 1;
  return { x: x / l, y: y / l, z: z / l, w: w / l };
}

/** 32 points on a unit sphere squashed to 0.8 in y (every one a hull vertex), as bench/pairs.ts. */
export function hullPoints(seed: number, n: number): Float64Array {
  const rng = makeRandom(seed);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const u = rng() * 2 - 1;
    const t = rng() * 2 * Math.PI;
    const r = Math.sqrt(1 - u * u);
    p[3 * i] = r * Math.cos(t);
    p[3 * i + 1] = 0.8 * u;
    p[3 * i + 2] = r * Math.sin(t);
  }
  return p;
}

/** The overlapping configurations: B's pose for each (A at identity). */
export function overlappingPoses(seed: number, spread: number): Isometry[] {
  const rng = makeRandom(seed);
  const out: Isometry[] = [];
  for (let i = 0; i < CONFIGS; i++) {
    out.push({
      translation: {
        x: (rng() - 0.5) * spread,
        y: (rng() - 0.5) * spread,
        z: (rng() - 0.5) * spread,
      },
      rotation: randomQuat(rng),
    });
  }
  return out;
}

/** One round's ns per call. */
export interface HullContactRow {
  collideNs: number;
  joltNs: number;
  joltDefaultRadiusNs: number;
  collideHits: number;
  joltHits: number;
}

/** Runs `rounds` rounds of the three tasks, `time` ms each. */
export async function runHullContactBench(
  options: { time?: number; rounds?: number; vertices?: number } = {},
): Promise<HullContactRow[]> {
  const time = options.time ?? 500;
  const rounds = options.rounds ?? 3;
  const vertices = options.vertices ?? 32;
  const Jolt = await initJolt();
  // The collision dispatch tables are registered when a JoltInterface is made.
  const js = new Jolt.JoltSettings();
  const layers = new Jolt.ObjectLayerPairFilterTable(1);
  const bpLayers = new Jolt.BroadPhaseLayerInterfaceTable(1, 1);
  bpLayers.MapObjectToBroadPhaseLayer(0, new Jolt.BroadPhaseLayer(0));
  js.mObjectLayerPairFilter = layers;
  js.mBroadPhaseLayerInterface = bpLayers;
  js.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(
    bpLayers,
    1,
    layers,
    1,
  );
  new Jolt.JoltInterface(js);
  const pa = hullPoints(1, vertices);
  const pb = hullPoints(2, vertices);
  const hullA = makeConvexPolyhedron(pa);
  const hullB = makeConvexPolyhedron(pb);
  const identity: Isometry = {
    translation: { x: 0, y: 0, z: 0 },
    rotation: { x: 0, y: 0, z: 0, w: 1 },
  };
  const posesB = overlappingPoses(7, 0.6);

  const joltHull = (p: Float64Array, radius: number | null) => {
    const s = new Jolt.ConvexHullShapeSettings();
    for (let i = 0; i < p.length; i += 3)
      s.mPoints.push_back(new Jolt.Vec3(p[i], p[i + 1], p[i + 2]));
    if (radius !== null) s.mMaxConvexRadius = radius;
    const shape = s.Create().Get();
    shape.AddRef();
    return shape;
  };
  const joltCase = (radius: number | null) => {
    const a = joltHull(pa, radius);
    const b = joltHull(pb, radius);
    const ts = new Jolt.TransformedShape();
    ts.mShape = a;
    ts.mShapePositionCOM = new Jolt.RVec3(0, 0, 0);
    ts.mShapeRotation = new Jolt.Quat(0, 0, 0, 1);
    ts.mShapeScale = new Jolt.Float3(1, 1, 1);
    // Hull shapes are centred on their centre of mass: the body pose of B is its COM transform
    // after shifting by B's centre of mass, and A's likewise (A's shift goes into mShapePositionCOM).
    const comA = a.GetCenterOfMass();
    ts.mShapePositionCOM = new Jolt.RVec3(comA.GetX(), comA.GetY(), comA.GetZ());
    const comB = b.GetCenterOfMass();
    const mats = posesB.map((p) => {
      const q = new Jolt.Quat(p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w);
      // COM in world = t + R·com.
      const local = new Jolt.Vec3(comB.GetX(), comB.GetY(), comB.GetZ());
      const rc = q.MulVec3(local);
      const t = new Jolt.RVec3(
        p.translation.x + rc.GetX(),
        p.translation.y + rc.GetY(),
        p.translation.z + rc.GetZ(),
      );
      // sRotationTranslation returns a reference into one static buffer of the bindings, which
      // the next call overwrites: copied into a matrix of its own, or every configuration would
      // be the last one.
      const m = new Jolt.RMat44();
      const tmp = Jolt.RMat44.prototype.sRotationTranslation(q, t);
      for (let col = 0; col < 4; col++) m.SetColumn4(col, tmp.GetColumn4(col));
      return m;
    });
    return { ts, b, mats };
  };
  const exact = joltCase(0);
  const rounded = joltCase(null);
  const settings = new Jolt.CollideShapeSettings();
  const scale = new Jolt.Vec3(1, 1, 1);
  const base = new Jolt.RVec3(0, 0, 0);
  const filter = new Jolt.ShapeFilter();
  const collector = new Jolt.CollideShapeClosestHitCollisionCollector();
  const c = makeContact();
  const collideTask = (): number => {
    let h = 0;
    for (let i = 0; i < CONFIGS; i++) if (contact(hullA, identity, hullB, posesB[i], 0, c)) h++;
    return h;
  };
  const joltTask = (k: typeof exact) => (): number => {
    let h = 0;
    for (let i = 0; i < CONFIGS; i++) {
      collector.Reset();
      k.ts.CollideShape(k.b, scale, k.mats[i], settings, base, collector, filter);
      if (collector.HadHit()) h++;
    }
    return h;
  };
  const tasks = [collideTask, joltTask(exact), joltTask(rounded)];
  const hits = [0, 0, 0];
  // Warm-up: every task until it has run `time` ms (the WebAssembly reaches its optimising tier,
  // V8 optimises the TypeScript).
  for (let t = 0; t < tasks.length; t++) {
    const until = performance.now() + time;
    while (performance.now() < until) hits[t] = tasks[t]();
  }
  const rows: HullContactRow[] = [];
  for (let r = 0; r < rounds; r++) {
    // Interleaved batches of the three tasks, each timed in CPU time (process.cpuUsage: the
    // machine is shared, and wall time would count other processes' turns); median per task.
    const samples: number[][] = [[], [], []];
    const until = performance.now() + time * tasks.length;
    while (performance.now() < until || samples[0].length < 5) {
      for (let t = 0; t < tasks.length; t++) {
        const c0 = process.cpuUsage();
        for (let k = 0; k < BATCH; k++) hits[t] = tasks[t]();
        const c1 = process.cpuUsage(c0);
        samples[t].push(((c1.user + c1.system) * 1000) / (BATCH * CONFIGS));
      }
    }
    const median = (a: number[]) => {
      const b = [...a].sort((x, y) => x - y);
      return b[b.length >> 1];
    };
    rows.push({
      collideNs: median(samples[0]),
      joltNs: median(samples[1]),
      joltDefaultRadiusNs: median(samples[2]),
      collideHits: hits[0],
      joltHits: hits[1],
    });
  }
  return rows;
}

if (process.argv[1]?.endsWith("hull-contact.ts")) {
  const arg = (name: string, d: number) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : d;
  };
  const vertices = arg("--vertices", 32);
  const rows = await runHullContactBench({
    time: arg("--time", 500),
    rounds: arg("--rounds", 3),
    vertices,
  });
  console.log(
    `${vertices}-vertex hull–hull contact, ns per call (median), 256 overlapping configurations`,
  );
  console.log("collide    jolt(r=0)  jolt(default r)  collide/jolt(r=0)  hits c/j");
  for (const r of rows) {
    console.log(
      `${r.collideNs.toFixed(0).padStart(7)}  ${r.joltNs.toFixed(0).padStart(9)}  ${r.joltDefaultRadiusNs.toFixed(0).padStart(15)}  ${(r.collideNs / r.joltNs).toFixed(2).padStart(17)}×  ${r.collideHits}/${r.joltHits}`,
    );
  }
}
