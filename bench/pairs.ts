/**
 * Pair-query micro benchmarks: Collide's sphere–box, box–box, GJK hull–hull distance, EPA on
 * overlapping hulls and the box–box manifold, beside a bare hand-written function (where one is
 * short enough to write) and Rapier's shape queries (`@dimforge/rapier3d-compat`, WebAssembly)
 * on the very same configurations, in one process. Reports ns per call and ratios.
 */
import RAPIER from "@dimforge/rapier3d-compat";
import { Bench } from "tinybench";
import {
  contact,
  distance,
  type Isometry,
  intersects,
  makeContact,
  makeContactManifold,
  makeConvexPolyhedron,
  makeCuboid,
  makeDistanceResult,
  makeRandom,
  makeSphere,
  manifold,
  type Quat,
  type Shape,
  type Vec3,
} from "../src/index.js";
import { crashcatPairQueries } from "./crashcat.js";

/** One row of the table: a query, each engine's ns per call, Collide's ratios. */
export interface PairBenchRow {
  name: string;
  n: number;
  engines: Record<string, { medianMs: number; nsPerCall: number; hits: number }>;
}

const CONFIGS = 256;

function randomQuat(rng: () => number): Quat {
  const x = rng() - 0.5;
  const y = rng() - 0.5;
  const z = rng() - 0.5;
  const w = rng() - 0.5;
  const l = Math.hypot(x, y, z, w) || 1;
  return { x: x / l, y: y / l, z: z / l, w: w / l };
}

function poses(seed: number, spread: number): Isometry[] {
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

function hullPoints(seed: number, n: number): Float64Array {
  const rng = makeRandom(seed);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    // Points on a slightly squashed sphere: all are hull vertices.
    const u = rng() * 2 - 1;
    const t = rng() * 2 * Math.PI;
    const r = Math.sqrt(1 - u * u);
    p[3 * i] = r * Math.cos(t);
    p[3 * i + 1] = 0.8 * u;
    p[3 * i + 2] = r * Math.sin(t);
  }
  return p;
}

/** The bare hand-written sphere–OBB overlap test (Ericson 2005, §5.2.5), as a baseline. */
function bareSphereObb(c: Vec3, r: number, t: Vec3, q: Quat, h: Vec3): boolean {
  const dx = c.x - t.x;
  const dy = c.y - t.y;
  const dz = c.z - t.z;
  // Inverse-rotate d by q.
  const ix = q.w * dx - q.y * dz + q.z * dy;
  const iy = q.w * dy - q.z * dx + q.x * dz;
  const iz = q.w * dz - q.x * dy + q.y * dx;
  const iw = q.x * dx + q.y * dy + q.z * dz;
  const lx = ix * q.w + iw * q.x + iy * q.z - iz * q.y;
  const ly = iy * q.w + iw * q.y + iz * q.x - ix * q.z;
  const lz = iz * q.w + iw * q.z + ix * q.y - iy * q.x;
  const ex = Math.max(Math.abs(lx) - h.x, 0);
  const ey = Math.max(Math.abs(ly) - h.y, 0);
  const ez = Math.max(Math.abs(lz) - h.z, 0);
  return ex * ex + ey * ey + ez * ez <= r * r;
}

/** Row-major rotation matrix of unit quaternion q into `m` (9 numbers). */
function bareMatrix(m: Float64Array, q: Quat): void {
  const { x, y, z, w } = q;
  m[0] = 1 - 2 * (y * y + z * z);
  m[1] = 2 * (x * y - w * z);
  m[2] = 2 * (x * z + w * y);
  m[3] = 2 * (x * y + w * z);
  m[4] = 1 - 2 * (x * x + z * z);
  m[5] = 2 * (y * z - w * x);
  m[6] = 2 * (x * z - w * y);
  m[7] = 2 * (y * z + w * x);
  m[8] = 1 - 2 * (x * x + y * y);
}

const bareA = new Float64Array(9);
const bareB = new Float64Array(9);
const bareR = new Float64Array(9);
const bareAbsR = new Float64Array(9);
const bareT = new Float64Array(3);
const bareHa = new Float64Array(3);
const bareHb = new Float64Array(3);

/**
 * The bare hand-written OBB–OBB test with the 15 separating axes (Ericson 2005, §4.4.1,
 * `TestOBBOBB`), taking world poses, as a baseline; touching counts as overlapping, and the
 * 1e-12 added to |R| stands for Ericson's epsilon against near-parallel edge axes.
 */
function bareObbObb(ta: Vec3, qa: Quat, ha: Vec3, tb: Vec3, qb: Quat, hb: Vec3): boolean {
  bareMatrix(bareA, qa);
  bareMatrix(bareB, qb);
  const A = bareA;
  const B = bareB;
  const R = bareR;
  const AR = bareAbsR;
  // R = Aᵀ B (B's axes in A's frame); column j of a matrix is its j-th local axis.
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      R[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
      AR[3 * i + j] = Math.abs(R[3 * i + j]) + 1e-12;
    }
  }
  const dx = tb.x - ta.x;
  const dy = tb.y - ta.y;
  const dz = tb.z - ta.z;
  const t = bareT;
  for (let i = 0; i < 3; i++) t[i] = A[i] * dx + A[3 + i] * dy + A[6 + i] * dz;
  const a = bareHa;
  const b = bareHb;
  a[0] = ha.x;
  a[1] = ha.y;
  a[2] = ha.z;
  b[0] = hb.x;
  b[1] = hb.y;
  b[2] = hb.z;
  for (let i = 0; i < 3; i++) {
    const rb = b[0] * AR[3 * i] + b[1] * AR[3 * i + 1] + b[2] * AR[3 * i + 2];
    if (Math.abs(t[i]) > a[i] + rb) return false;
  }
  for (let j = 0; j < 3; j++) {
    const ra = a[0] * AR[j] + a[1] * AR[3 + j] + a[2] * AR[6 + j];
    if (Math.abs(t[0] * R[j] + t[1] * R[3 + j] + t[2] * R[6 + j]) > ra + b[j]) return false;
  }
  for (let i = 0; i < 3; i++) {
    const i1 = (i + 1) % 3;
    const i2 = (i + 2) % 3;
    for (let j = 0; j < 3; j++) {
      const j1 = (j + 1) % 3;
      const j2 = (j + 2) % 3;
      const ra = a[i1] * AR[3 * i2 + j] + a[i2] * AR[3 * i1 + j];
      const rb = b[j1] * AR[3 * i + j2] + b[j2] * AR[3 * i + j1];
      if (Math.abs(t[i2] * R[3 * i1 + j] - t[i1] * R[3 * i2 + j]) > ra + rb) return false;
    }
  }
  return true;
}

type Case = {
  name: string;
  a: Shape;
  b: Shape;
  rapierA: RAPIER.Shape;
  rapierB: RAPIER.Shape;
  posesA: Isometry[];
  posesB: Isometry[];
  bare?: (i: number) => boolean;
  /** crashcat's query for configuration i (intersects; contact when `contact`), if it has one. */
  crashcat?: (i: number, contact: boolean) => boolean;
};

/** Runs the pair benchmarks; `time` is tinybench's time budget per task, ms. */
export async function runPairBench(options: { time?: number } = {}): Promise<PairBenchRow[]> {
  await RAPIER.init();
  const time = options.time ?? 300;
  const hullA = makeConvexPolyhedron(hullPoints(1, 32));
  const hullB = makeConvexPolyhedron(hullPoints(2, 32));
  const toF32 = (p: Float64Array) => Float32Array.from(p);
  const rHullA = new RAPIER.ConvexPolyhedron(toF32(hullA.vertices), null);
  const rHullB = new RAPIER.ConvexPolyhedron(toF32(hullB.vertices), null);
  const hBox = { x: 0.5, y: 0.3, z: 0.4 };
  const box = makeCuboid(hBox);
  const sphere = makeSphere(0.4);
  const identity = poses(3, 0).map((p) => ({
    translation: p.translation,
    rotation: { x: 0, y: 0, z: 0, w: 1 },
  }));
  const spherePoses = poses(4, 2.2).map((p) => ({
    translation: p.translation,
    rotation: { x: 0, y: 0, z: 0, w: 1 },
  }));
  const boxPoses = poses(5, 1.2);
  const boxPosesB = poses(6, 2.4);
  const cases: Case[] = [
    {
      name: "sphere–box intersects",
      a: sphere,
      b: box,
      rapierA: new RAPIER.Ball(0.4),
      rapierB: new RAPIER.Cuboid(hBox.x, hBox.y, hBox.z),
      posesA: spherePoses,
      posesB: boxPoses,
      bare: (i) =>
        bareSphereObb(
          spherePoses[i].translation,
          0.4,
          boxPoses[i].translation,
          boxPoses[i].rotation,
          hBox,
        ),
    },
    {
      name: "box–box intersects",
      a: box,
      b: box,
      rapierA: new RAPIER.Cuboid(hBox.x, hBox.y, hBox.z),
      rapierB: new RAPIER.Cuboid(hBox.x, hBox.y, hBox.z),
      posesA: boxPoses,
      posesB: boxPosesB,
      bare: (i) =>
        bareObbObb(
          boxPoses[i].translation,
          boxPoses[i].rotation,
          hBox,
          boxPosesB[i].translation,
          boxPosesB[i].rotation,
          hBox,
        ),
    },
    {
      name: "hull–hull (32 v) intersects",
      a: hullA,
      b: hullB,
      rapierA: rHullA,
      rapierB: rHullB,
      posesA: identity,
      posesB: poses(7, 4),
    },
  ];
  const cc = crashcatPairQueries(0.4, hBox, 0);
  cases[0].crashcat = (i, withContact) =>
    withContact
      ? cc.sphereBoxContact(spherePoses[i], boxPoses[i]) !== null
      : cc.sphereBoxIntersects(spherePoses[i], boxPoses[i]);
  cases[1].crashcat = (i, withContact) =>
    withContact
      ? cc.boxBoxContact(boxPoses[i], boxPosesB[i]) !== null
      : cc.boxBoxIntersects(boxPoses[i], boxPosesB[i]);
  const rows: PairBenchRow[] = [];
  const c = makeContact();
  const d = makeDistanceResult();
  const m = makeContactManifold();
  for (const k of cases) {
    const bench = new Bench({ time, warmup: true });
    const hits: Record<string, number> = {};
    const rv = (p: Isometry) => ({ x: p.translation.x, y: p.translation.y, z: p.translation.z });
    const rPosA = k.posesA.map(rv);
    const rPosB = k.posesB.map(rv);
    bench.add("collide", () => {
      let h = 0;
      for (let i = 0; i < CONFIGS; i++) if (intersects(k.a, k.posesA[i], k.b, k.posesB[i])) h++;
      hits.collide = h;
    });
    bench.add("rapier", () => {
      let h = 0;
      for (let i = 0; i < CONFIGS; i++) {
        if (
          k.rapierA.intersectsShape(
            rPosA[i],
            k.posesA[i].rotation,
            k.rapierB,
            rPosB[i],
            k.posesB[i].rotation,
          )
        )
          h++;
      }
      hits.rapier = h;
    });
    if (k.crashcat) {
      const q = k.crashcat;
      bench.add("crashcat", () => {
        let h = 0;
        for (let i = 0; i < CONFIGS; i++) if (q(i, false)) h++;
        hits.crashcat = h;
      });
    }
    if (k.bare) {
      const bare = k.bare;
      bench.add("bare", () => {
        let h = 0;
        for (let i = 0; i < CONFIGS; i++) if (bare(i)) h++;
        hits.bare = h;
      });
    }
    await bench.run();
    rows.push(toRow(k.name, bench, hits));

    // Contact (signed distance + normal + points).
    const cb = new Bench({ time, warmup: true });
    cb.add("collide", () => {
      let h = 0;
      for (let i = 0; i < CONFIGS; i++) if (contact(k.a, k.posesA[i], k.b, k.posesB[i], 0, c)) h++;
      hits.collide = h;
    });
    cb.add("rapier", () => {
      let h = 0;
      for (let i = 0; i < CONFIGS; i++) {
        if (
          k.rapierA.contactShape(
            rPosA[i],
            k.posesA[i].rotation,
            k.rapierB,
            rPosB[i],
            k.posesB[i].rotation,
            0,
          )
        )
          h++;
      }
      hits.rapier = h;
    });
    if (k.crashcat) {
      const q = k.crashcat;
      cb.add("crashcat", () => {
        let h = 0;
        for (let i = 0; i < CONFIGS; i++) if (q(i, true)) h++;
        hits.crashcat = h;
      });
    }
    delete hits.bare;
    await cb.run();
    rows.push(toRow(k.name.replace("intersects", "contact"), cb, hits));
  }
  // GJK distance between separated hulls and the box–box manifold (Collide only has these shapes
  // of query in one call; Rapier's distance is `contactShape` with a large prediction).
  const far = poses(8, 6).map((p) => ({
    translation: { x: p.translation.x + 4, y: p.translation.y, z: p.translation.z },
    rotation: p.rotation,
  }));
  const gb = new Bench({ time, warmup: true });
  const hits: Record<string, number> = {};
  gb.add("collide", () => {
    let s = 0;
    for (let i = 0; i < CONFIGS; i++)
      s += distance(hullA, identity[i], hullB, far[i], d).distance > 0 ? 1 : 0;
    hits.collide = s;
  });
  gb.add("rapier", () => {
    let s = 0;
    for (let i = 0; i < CONFIGS; i++) {
      const r = rHullA.contactShape(
        { x: 0, y: 0, z: 0 },
        identity[i].rotation,
        rHullB,
        far[i].translation,
        far[i].rotation,
        100,
      );
      if (r && r.distance > 0) s++;
    }
    hits.rapier = s;
  });
  await gb.run();
  rows.push(toRow("hull–hull (32 v) GJK distance", gb, hits));
  const mb = new Bench({ time, warmup: true });
  mb.add("collide", () => {
    let s = 0;
    for (let i = 0; i < CONFIGS; i++) if (manifold(box, boxPoses[i], box, boxPosesB[i], 0, m)) s++;
    hits.collide = s;
  });
  delete hits.rapier;
  await mb.run();
  rows.push(toRow("box–box manifold", mb, hits));
  return rows;
}

function toRow(name: string, bench: Bench, hits: Record<string, number>): PairBenchRow {
  const engines: PairBenchRow["engines"] = {};
  for (const t of bench.tasks) {
    const r = t.result as { latency?: { p50?: number } } | undefined;
    const median = r?.latency?.p50 ?? Number.NaN;
    engines[t.name] = {
      medianMs: median,
      nsPerCall: (median * 1e6) / CONFIGS,
      hits: hits[t.name] ?? 0,
    };
  }
  return { name, n: CONFIGS, engines };
}

/** Formats rows as a table: ns per call for each engine and Collide's speed-up over each. */
export function formatPairRows(rows: PairBenchRow[]): string {
  const lines = [
    `${"pair query".padEnd(34)}${"collide ns".padStart(12)}${"rapier ns".padStart(12)}${"crashcat ns".padStart(13)}${"bare ns".padStart(10)}${"vs rapier".padStart(11)}${"vs crashcat".padStart(13)}${"vs bare".padStart(9)}  hits (c/r/cc)`,
  ];
  for (const r of rows) {
    const c = r.engines.collide?.nsPerCall;
    const ra = r.engines.rapier?.nsPerCall;
    const b = r.engines.bare?.nsPerCall;
    const cc = r.engines.crashcat?.nsPerCall;
    const f = (x?: number) => (x === undefined ? "—" : x.toFixed(1));
    const ratio = (x?: number) =>
      x === undefined || c === undefined ? "—" : `${(x / c).toFixed(2)}×`;
    lines.push(
      `${r.name.padEnd(34)}${f(c).padStart(12)}${f(ra).padStart(12)}${f(cc).padStart(13)}${f(b).padStart(10)}${ratio(ra).padStart(11)}${ratio(cc).padStart(13)}${ratio(b).padStart(9)}  ${r.engines.collide?.hits ?? "—"}/${r.engines.rapier?.hits ?? "—"}/${r.engines.crashcat?.hits ?? "—"}`,
    );
  }
  lines.push(
    "ratios > 1× mean Collide is faster; hits = configurations (of 256) reported touching by each engine",
  );
  return lines.join("\n");
}
