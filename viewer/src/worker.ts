/**
 * The viewer's Web Worker: it owns the Collide world (a scene's bodies, or the demo scene of
 * src/debug/demo-scene.ts) and steps it in the browser, 60 times a second while playing and
 * whenever the page moves a body; after each step it posts the poses, AABBs, contacts, candidate
 * pairs and events as typed arrays (protocol.ts). Mouse rays from the page are answered with
 * Collide's world ray cast (picking, dragging, the ray tool).
 *
 * The GPU path: when `navigator.gpu` gives an adapter and a device here, the page may switch a
 * scene's world to `createGpuBroadPhase(device)` of `collide/gpu` (same bodies and poses, a new
 * world), stepped with `await world.stepAsync()`. One step at a time: while a step or a switch
 * is in flight, the page's messages wait in a queue and run after it.
 */
import { DebugDraw } from "../../src/debug/draw.js";
import { drawShape } from "../../src/debug/shapes.js";
import {
  aabb,
  aabbOfShape,
  type BodyHandle,
  buildViewGjk,
  buildViewMeshPair,
  CollisionWorld,
  castRayClosest,
  createGpuBroadPhase,
  DemoScene,
  type Isometry,
  isometry,
  isTraceable,
  makeWorldContact,
  poseFromTransfer,
  type SceneTransfer,
  type Shape,
  ShapeType,
  sceneSize,
  shapeFromTransfer,
  shapeView,
  type Vec3,
  vec3,
} from "./collide.js";
import {
  type BodyInfo,
  type FrameMessage,
  type FromWorker,
  type GpuStatus,
  LISTED_CONTACTS,
  type RayInput,
  type RayReport,
  type ToWorker,
} from "./protocol.js";

/** Frames per second of the demo's motion (its time step is 1/60 s). */
const TICK_HZ = 60;
/** Least time between two recomputations of the selected pair's view while it moves, ms. */
const PAIR_REFRESH_MS = 200;
/** Length of the drawn contact normals relative to the scene's size (unitless). */
const NORMAL_LENGTH_FRACTION = 0.03;
/** Begin/end events listed by name per frame. */
const LISTED_EVENTS = 8;

interface Body {
  id: string;
  shape: Shape;
  handle: BodyHandle;
  moving: boolean;
  layer?: number;
  mask?: number;
}

/** The label of the CPU path's contacts (the viewer's CPU world uses the dynamic tree). */
const CPU_LABEL = "CPU (dynamic tree broad phase)";

let world: CollisionWorld | null = null;
let demo: DemoScene | null = null;
let bodies: Body[] = [];
const indexOf = new Map<number, number>();
/** Wireframe options of the moving bodies: curves as 12-piece loops (the default is 32). */
const CROWD_WIRE = { segments: 12 };
let normalLength = 0.1;
let playing = false;
let frame = 0;
let needsStep = false;
let needsPost = false;
let selected: number[] = [];
let pairDirty = false;
let pairAt = 0;
let rayIn: RayInput | null = null;
let grab: { i: number; offset: Vec3; planePoint: Vec3; planeNormal: Vec3 } | null = null;
let lastStepMs = 0;
/** A posted frame the page has not drawn yet: the next one waits (the page acks each). */
let awaitingAck = false;
/** Which path steps the world: the label shown as "contacts from". */
let backend: { gpu: boolean; label: string } = { gpu: false, label: CPU_LABEL };
/** A step or a switch of path in flight: messages wait in `queue`, ticks do nothing. */
let busy = false;
const queue: ToWorker[] = [];

/** The WebGPU device of this worker, or why there is none. */
type GpuProbe = { device: GPUDevice; adapter: string } | { device: null; reason: string };

async function probeGpu(): Promise<GpuProbe> {
  const gpu = (self.navigator as Navigator & { gpu?: GPU }).gpu;
  if (!gpu) return { device: null, reason: "this browser has no WebGPU (navigator.gpu)" };
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) return { device: null, reason: "WebGPU gave no adapter" };
    const device = await adapter.requestDevice();
    const i = adapter.info;
    const name = [i.vendor, i.architecture, i.device, i.description].filter(Boolean).join(" ");
    void device.lost.then((info) => {
      gpuProbe = Promise.resolve({
        device: null,
        reason: `the WebGPU device was lost: ${info.message || info.reason}`,
      });
      void reportGpu();
      if (backend.gpu) enqueue({ type: "backend", gpu: false });
    });
    return { device, adapter: name || "unnamed adapter" };
  } catch (e) {
    return { device: null, reason: `WebGPU failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

let gpuProbe: Promise<GpuProbe> = probeGpu();

/** Tells the page whether the GPU toggle can be used (and why not). */
async function reportGpu(): Promise<void> {
  const g = await gpuProbe;
  let status: GpuStatus;
  if (demo) {
    status = {
      type: "gpu",
      available: false,
      reason: "the demo steps its own world on the CPU; open a scene for the GPU path",
    };
  } else if (g.device) status = { type: "gpu", available: true, adapter: g.adapter };
  else status = { type: "gpu", available: false, reason: g.reason };
  post(status);
}

/**
 * A new world for the scene's bodies at their current poses, on the CPU (dynamic tree) or with
 * the GPU broad phase; the handles change, everything the page knows (indices) stays.
 */
async function rebuild(gpu: boolean): Promise<void> {
  if (!world || demo) return;
  const old = world;
  let broadphase: ConstructorParameters<typeof CollisionWorld>[0] = { broadphase: "tree" };
  let label = CPU_LABEL;
  if (gpu) {
    const g = await gpuProbe;
    if (!g.device) throw new Error(`no GPU path: ${g.reason}`);
    broadphase = { broadphase: createGpuBroadPhase(g.device) };
    label = `GPU broad phase (${g.adapter})`;
  }
  const w = new CollisionWorld(broadphase);
  const handles = bodies.map((b) =>
    w.addBody({ shape: b.shape, pose: old.getPose(b.handle), layer: b.layer, mask: b.mask }),
  );
  // The first step on the new path must succeed before the page sees it.
  if (gpu) await w.stepAsync();
  else w.step();
  world = w;
  bodies.forEach((b, i) => {
    b.handle = handles[i];
  });
  indexOf.clear();
  bodies.forEach((b, i) => {
    indexOf.set(b.handle, i);
  });
  backend = { gpu, label };
  needsStep = false;
  needsPost = true;
  pairDirty = selected.length === 2;
}

const post = (m: FromWorker, transfer: Transferable[] = []) =>
  (self as unknown as Worker).postMessage(m, transfer);

function init(scene: SceneTransfer): void {
  if (scene.mode === "demo") {
    const d = scene.demo;
    demo = new DemoScene({
      model: {
        positions: Float64Array.from(d.model.positions),
        cells: Uint32Array.from(d.model.cells),
      },
      bodies: d.bodies,
      seed: d.seed,
      gravity: d.gravity,
    });
    world = demo.world;
    backend = { gpu: false, label: CPU_LABEL };
    bodies = demo.bodies.map((b) => ({
      id: b.name,
      shape: b.shape,
      handle: b.handle,
      moving: b.dynamic,
    }));
  } else {
    const w = new CollisionWorld({ broadphase: "tree" });
    world = w;
    backend = { gpu: false, label: CPU_LABEL };
    bodies = scene.bodies.map((b, i) => {
      const shape = shapeFromTransfer(b.shape, `bodies[${i}].shape`);
      const handle = w.addBody({
        shape,
        pose: poseFromTransfer(b.pose),
        layer: b.layer,
        mask: b.mask,
      });
      return { id: b.id, shape, handle, moving: false, layer: b.layer, mask: b.mask };
    });
  }
  indexOf.clear();
  bodies.forEach((b, i) => {
    indexOf.set(b.handle, i);
  });
  const w = world;
  normalLength =
    NORMAL_LENGTH_FRACTION *
    sceneSize(
      bodies,
      bodies.map((b) => w.getPose(b.handle)),
    );
  const dd = new DebugDraw();
  const infos: BodyInfo[] = bodies.map((b) => {
    dd.clear();
    // The moving crowd's curves with fewer pieces (as its meshes): software WebGL draws every
    // segment each frame.
    drawShape(dd, b.shape, isometry.identity(), undefined, b.moving ? CROWD_WIRE : {});
    return {
      id: b.id,
      shape: shapeView(b.shape),
      moving: b.moving,
      wire: Float32Array.from(dd.linePositions),
    };
  });
  post(
    { type: "ready", title: scene.title, mode: scene.mode, bodies: infos },
    infos.map((b) => b.wire.buffer),
  );
  needsStep = true;
  needsPost = true;
  void reportGpu();
}

const pose = isometry.identity();
const box = aabb.empty();
const wc = makeWorldContact();
const mid = vec3.create();
const rayOrigin = vec3.create();
const rayDir = vec3.create();
const candidates: BodyHandle[] = [];

function setRay(r: RayInput): void {
  vec3.set(rayOrigin, r.origin[0], r.origin[1], r.origin[2]);
  vec3.set(rayDir, r.dir[0], r.dir[1], r.dir[2]);
}

/** The closest body on the ray, or null. */
function castRay(r: RayInput) {
  setRay(r);
  if (!world || vec3.length(rayDir) === 0) return null;
  return castRayClosest(world, rayOrigin, rayDir);
}

function rayReport(r: RayInput): RayReport {
  const hit = castRay(r);
  if (!hit)
    return { origin: r.origin, dir: r.dir, body: -1, toi: 0, point: [0, 0, 0], normal: [0, 0, 0] };
  return {
    origin: r.origin,
    dir: r.dir,
    body: indexOf.get(hit.handle) ?? -1,
    toi: hit.toi,
    point: [hit.point.x, hit.point.y, hit.point.z],
    normal: [hit.normal.x, hit.normal.y, hit.normal.z],
  };
}

function pairView(): FrameMessage["pair"] {
  if (!world || selected.length < 2) return null;
  const w = world;
  const [a, b] = selected;
  const poses: Isometry[] = [];
  poses[a] = w.getPose(bodies[a].handle);
  poses[b] = w.getPose(bodies[b].handle);
  const A = bodies[a];
  const B = bodies[b];
  try {
    if (isTraceable(A.shape) && isTraceable(B.shape)) return buildViewGjk(bodies, poses, a, b);
    if (A.shape.type === ShapeType.TriangleMesh || B.shape.type === ShapeType.TriangleMesh) {
      return buildViewMeshPair(bodies, poses, a, b);
    }
    return buildViewGjk(bodies, poses, a, b);
  } catch (e) {
    return { ok: false, a: A.id, b: B.id, error: e instanceof Error ? e.message : String(e) };
  }
}

function makeFrame(): FrameMessage {
  const w = world as CollisionWorld;
  const n = bodies.length;
  const poses = new Float64Array(7 * n);
  const aabbs = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    const b = bodies[i];
    w.getPose(b.handle, pose);
    const t = pose.translation;
    const q = pose.rotation;
    poses.set([t.x, t.y, t.z, q.x, q.y, q.z, q.w], 7 * i);
    aabbOfShape(box, b.shape, pose);
    aabbs.set([box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z], 6 * i);
  }
  let pointCount = 0;
  const count = w.contactCount;
  for (let i = 0; i < count; i++) pointCount += w.readContact(i, wc).manifold.count;
  const contactPoints = new Float32Array(6 * pointCount);
  const contactNormals = new Float32Array(6 * pointCount);
  const listed: FrameMessage["contacts"] = [];
  const touching = new Uint8Array(n);
  let k = 0;
  for (let i = 0; i < count; i++) {
    w.readContact(i, wc);
    const m = wc.manifold;
    const ia = indexOf.get(wc.a);
    const ib = indexOf.get(wc.b);
    if (ia !== undefined) touching[ia] = 1;
    if (ib !== undefined) touching[ib] = 1;
    if (listed.length < LISTED_CONTACTS) {
      listed.push({
        a: indexOf.get(wc.a) ?? -1,
        b: indexOf.get(wc.b) ?? -1,
        distance: wc.distance,
      });
    }
    for (let p = 0; p < m.count; p++) {
      const pa = m.points[p].pointA;
      const pb = m.points[p].pointB;
      contactPoints.set([pa.x, pa.y, pa.z, pb.x, pb.y, pb.z], 6 * k);
      vec3.lerp(mid, pa, pb, 0.5);
      contactNormals.set(
        [
          mid.x,
          mid.y,
          mid.z,
          mid.x + normalLength * m.normal.x,
          mid.y + normalLength * m.normal.y,
          mid.z + normalLength * m.normal.z,
        ],
        6 * k,
      );
      k++;
    }
  }
  candidates.length = 0;
  w.candidatePairs(candidates);
  const cand = new Int32Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) cand[i] = indexOf.get(candidates[i]) ?? -1;
  const ev = w.events();
  const log = pendingLog.splice(0);
  return {
    type: "frame",
    frame,
    playing,
    poses,
    aabbs,
    contactPoints,
    contactNormals,
    candidates: cand,
    touching,
    contactCount: count,
    contacts: listed,
    events: { begin: ev.begin.count, persist: ev.persist.count, end: ev.end.count, log },
    stepMs: lastStepMs,
    backend: backend.gpu ? "gpu" : "cpu",
    backendLabel: backend.label,
    dragging: grab ? grab.i : -1,
    selected: selected.slice(),
  };
}

/**
 * Event lines of the steps since the last posted frame (the latest LISTED_EVENTS): the worker
 * keeps stepping while the page draws, so a frame must carry every step's begin/end events,
 * not only the last step's.
 */
const pendingLog: string[] = [];

/** Appends the last step's begin and end events to {@link pendingLog}. */
function collectEvents(w: CollisionWorld): void {
  const ev = w.events();
  for (const [name, list] of [
    ["begin", ev.begin],
    ["end", ev.end],
  ] as const) {
    for (let i = 0; i < list.count; i++) {
      const a = bodies[indexOf.get(list.a(i)) ?? 0]?.id;
      const b = bodies[indexOf.get(list.b(i)) ?? 0]?.id;
      pendingLog.push(`${name}: ${a} – ${b}`);
    }
  }
  if (pendingLog.length > LISTED_EVENTS) pendingLog.splice(0, pendingLog.length - LISTED_EVENTS);
}

function tick(): void {
  if (!world || busy) return;
  const t0 = performance.now();
  let stepped = false;
  if (playing && demo) {
    demo.frame();
    frame++;
    stepped = true;
  } else if (needsStep && backend.gpu) {
    // The GPU path: one asynchronous step at a time; messages queue meanwhile.
    needsStep = false;
    const w = world;
    runBusy(async () => {
      await w.stepAsync();
      collectEvents(w);
      lastStepMs = performance.now() - t0;
      needsPost = true;
    });
    return;
  } else if (needsStep) {
    world.step();
    stepped = true;
  }
  if (stepped) collectEvents(world);
  if (stepped) lastStepMs = performance.now() - t0;
  needsStep = false;
  if (stepped) needsPost = true;
  postFrame();
}

/** Runs `job` with the worker busy, then the queued messages, then a tick. */
function runBusy(job: () => Promise<void>): void {
  busy = true;
  job()
    .catch((err) => {
      post({ type: "error", message: err instanceof Error ? err.message : String(err) });
    })
    .finally(() => {
      busy = false;
      drain();
    });
}

/** Handles the queued messages in order (stopping if one starts an asynchronous job). */
function drain(): void {
  try {
    while (!busy && queue.length > 0) onMessage(queue.shift() as ToWorker);
    // While the demo plays, only the interval steps it (its time step is real time): a message
    // (the page's ack) posts the frame that waits, if any.
    if (playing && demo) postFrame();
    else tick();
  } catch (err) {
    post({ type: "error", message: err instanceof Error ? err.message : String(err) });
  }
}

function enqueue(m: ToWorker): void {
  queue.push(m);
  if (!busy) drain();
}

/** Posts a frame when one is due and the page drew the last. */
function postFrame(): void {
  // Backpressure: while the page has not drawn the last frame, keep stepping, post later.
  if (!needsPost || awaitingAck) return;
  needsPost = false;
  awaitingAck = true;
  const msg = makeFrame();
  const now = performance.now();
  const moved = selected.some((i) => bodies[i].moving || grab?.i === i);
  if (pairDirty || (moved && now - pairAt > PAIR_REFRESH_MS)) {
    msg.pair = pairView();
    pairDirty = false;
    pairAt = now;
  }
  if (rayIn) msg.ray = rayReport(rayIn);
  post(msg, [
    msg.poses.buffer,
    msg.aabbs.buffer,
    msg.contactPoints.buffer,
    msg.contactNormals.buffer,
    msg.candidates.buffer,
    msg.touching.buffer,
  ]);
}

const grabPose = isometry.identity();
const target = vec3.create();

function onMessage(m: ToWorker): void {
  switch (m.type) {
    case "ack":
      awaitingAck = false;
      break;
    case "backend": {
      const gpu = m.gpu;
      if (gpu === backend.gpu || demo) {
        needsPost = true;
        break;
      }
      runBusy(() =>
        rebuild(gpu).catch((err) => {
          // The world stays on the path it was on (the frames say which); the toggle is
          // disabled with the reason.
          const reason = `the GPU path failed: ${err instanceof Error ? err.message : String(err)}`;
          gpuProbe = Promise.resolve({ device: null, reason });
          needsPost = true;
          return reportGpu();
        }),
      );
      break;
    }
    case "init":
      init(m.scene);
      break;
    case "play":
      playing = m.playing && demo !== null;
      needsPost = true;
      break;
    case "step":
      if (demo) {
        demo.frame();
        frame++;
      }
      playing = false;
      needsStep = !demo;
      needsPost = true;
      break;
    case "grab": {
      const hit = castRay(m);
      if (!hit || !world) break;
      const i = indexOf.get(hit.handle) ?? -1;
      if (i < 0) break;
      world.getPose(bodies[i].handle, grabPose);
      const offset = vec3.sub(vec3.create(), grabPose.translation, hit.point);
      grab = {
        i,
        offset,
        planePoint: vec3.clone(hit.point),
        planeNormal: vec3.negate(vec3.create(), rayDir),
      };
      vec3.normalize(grab.planeNormal, grab.planeNormal);
      demo?.hold(bodies[i].handle);
      needsPost = true;
      break;
    }
    case "drag": {
      if (!grab || !world) break;
      setRay(m);
      const denom = vec3.dot(rayDir, grab.planeNormal);
      if (Math.abs(denom) < 1e-9) break;
      const t = vec3.dot(vec3.sub(target, grab.planePoint, rayOrigin), grab.planeNormal) / denom;
      if (!(t > 0)) break;
      vec3.addScaled(target, rayOrigin, rayDir, t);
      const h = bodies[grab.i].handle;
      world.getPose(h, grabPose);
      vec3.add(grabPose.translation, target, grab.offset);
      world.setPose(h, grabPose);
      needsStep = true;
      break;
    }
    case "release":
      grab = null;
      demo?.hold(null);
      needsPost = true;
      break;
    case "ray":
      rayIn = { origin: m.origin, dir: m.dir };
      needsPost = true;
      break;
    case "ray-off":
      rayIn = null;
      needsPost = true;
      break;
    case "pick": {
      const hit = castRay(m);
      const i = hit ? (indexOf.get(hit.handle) ?? -1) : -1;
      if (i >= 0) {
        const at = selected.indexOf(i);
        if (at >= 0) selected.splice(at, 1);
        else {
          if (selected.length === 2) selected.shift();
          selected.push(i);
        }
        pairDirty = true;
      }
      needsPost = true;
      break;
    }
    case "select":
      selected = m.bodies
        .filter((i) => Number.isInteger(i) && i >= 0 && i < bodies.length)
        .slice(-2);
      pairDirty = true;
      needsPost = true;
      break;
  }
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  // "ack" never touches the world: it may pass a step in flight.
  if (e.data.type === "ack" && busy) {
    awaitingAck = false;
    return;
  }
  enqueue(e.data);
};

setInterval(() => {
  try {
    if (!busy) tick();
  } catch (err) {
    playing = false;
    post({ type: "error", message: err instanceof Error ? err.message : String(err) });
  }
}, 1000 / TICK_HZ);
