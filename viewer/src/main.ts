/**
 * The Collide debug viewer's page. It loads the scene once (`api/scene`, from `collide view` or
 * any static host), hands it to a Web Worker (worker.ts) that runs the Collide world, and draws
 * what the worker reports with three.js at the display's frame rate. The bodies take few draw
 * calls and few triangles (bodies.ts: at most three merged meshes with baked shading, one
 * wireframe buffer); per frame only the moved bodies' vertices and colours, the AABBs, the
 * contacts, the candidate pairs and the overlays change, written into buffers that only grow.
 * Layers of many line segments (wireframes, AABBs) start off in big scenes; the drawing
 * buffer's resolution adapts to keep up with the display (resolution.ts). The panel's text
 * follows at most 4 times a second.
 *
 * The mouse: orbit and click to pick a body (two picked bodies show GJK and EPA step by step,
 * or the closest triangle and the contact when one is a mesh); drag a body (contacts and events
 * update live); cast a ray (hit point and normal drawn). Every pick, drag and ray is Collide's
 * world ray cast, in the worker.
 */
import { type DebugDrawData, debugDrawToLineSegments, debugDrawToPoints } from "collide/three";
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { BodyMeshes, WireBuffer } from "./bodies.js";
import type { ViewGjk, ViewMeshPair } from "./collide.js";
import type { BodyInfo, FrameMessage, FromWorker, RayInput, ToWorker } from "./protocol.js";
import { ResolutionScale } from "./resolution.js";

const PALETTE = [
  0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f,
  0xbab0ac,
];
const COLORS = {
  wire: 0xd0d0d0,
  selectedWire: 0xff44ff,
  aabb: 0x3fa7ff,
  candidate: 0x7fff7f,
  contactPoint: 0xff3030,
  contactNormal: 0xffee33,
  ray: 0x00e5ff,
  rayHit: 0xffffff,
  /** Mixed into a body's colour while it is in a contact. */
  touching: 0xff2020,
};
/** Least time between two updates of the panel's text, ms (the DOM is slow: ~4 per second). */
const TEXT_REFRESH_MS = 250;
/** Overlays drawn after the bodies and through them (contacts, ray, GJK). */
const OVERLAY_ORDER = 10;
/**
 * Line segments above which the wireframes, and the AABBs, start switched off (each layer
 * counted alone): software WebGL draws a segment for about the price of two triangles.
 */
const LINE_BUDGET = 3000;
/** The lowest resolution scale of the adaptive resolution (resolution.ts). */
const MIN_RESOLUTION = 0.5;

function el<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`missing element #${id}`);
  return e as T;
}

const status = el("status");
function setStatus(state: string, text: string): void {
  status.dataset.state = state;
  status.textContent = text;
}
function fail(e: unknown): void {
  setStatus("error", e instanceof Error ? e.message : String(e));
}

// ---------------------------------------------------------------------------------------------
// three.js scene

const container = el("view");
let renderer: THREE.WebGLRenderer;
try {
  renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: true });
} catch (e) {
  setStatus("error", `WebGL is not available: ${e instanceof Error ? e.message : String(e)}`);
  throw e;
}
/**
 * The resolution scale: adaptive (resolution.ts), or fixed by the page's `?resolution=` (a
 * number in (0, 1], e.g. `?resolution=1` for full resolution always).
 */
const resolution = new ResolutionScale(MIN_RESOLUTION, fixedResolution());
renderer.setPixelRatio(window.devicePixelRatio * resolution.scale);
container.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x15171c);
// No lights: the bodies' shading is baked into their vertex colours (bodies.ts).
const camera = new THREE.PerspectiveCamera(50, 1, 0.01, 10_000);
const controls = new OrbitControls(camera, renderer.domElement);

/**
 * A line-segment (or point) layer whose vertex buffer grows and is refilled per frame. An
 * overlay is drawn last and through the bodies.
 */
class DynamicLayer {
  readonly object: THREE.LineSegments | THREE.Points;
  private capacity = 0;
  private readonly geometry = new THREE.BufferGeometry();
  constructor(kind: "lines" | "points", color: number, size = 6, overlay = false) {
    const depthTest = !overlay;
    this.object =
      kind === "lines"
        ? new THREE.LineSegments(this.geometry, new THREE.LineBasicMaterial({ color, depthTest }))
        : new THREE.Points(
            this.geometry,
            new THREE.PointsMaterial({ color, size, sizeAttenuation: false, depthTest }),
          );
    this.object.frustumCulled = false;
    if (overlay) this.object.renderOrder = OVERLAY_ORDER;
    this.reserve(64);
    scene.add(this.object);
  }
  private reserve(vertices: number): void {
    if (vertices <= this.capacity) return;
    let cap = Math.max(64, this.capacity);
    while (cap < vertices) cap *= 2;
    this.capacity = cap;
    const attr = new THREE.BufferAttribute(new Float32Array(3 * cap), 3);
    attr.setUsage(THREE.DynamicDrawUsage);
    this.geometry.setAttribute("position", attr);
  }
  /**
   * The array to write the layer's next `vertices` xyz triples into (uploaded at the next
   * render; no allocation unless the layer grows).
   */
  write(vertices: number): Float32Array {
    this.reserve(vertices);
    const attr = this.geometry.getAttribute("position") as THREE.BufferAttribute;
    attr.needsUpdate = true;
    this.geometry.setDrawRange(0, vertices);
    return attr.array as Float32Array;
  }
}

const bodyGroup = new THREE.Group();
const wireGroup = new THREE.Group();
scene.add(bodyGroup, wireGroup);
const aabbLayer = new DynamicLayer("lines", COLORS.aabb);
const candidateLayer = new DynamicLayer("lines", COLORS.candidate);
const contactPointLayer = new DynamicLayer("points", COLORS.contactPoint, 7, true);
const contactNormalLayer = new DynamicLayer("lines", COLORS.contactNormal, 6, true);
const rayLayer = new DynamicLayer("lines", COLORS.ray, 6, true);
const rayHitLayer = new DynamicLayer("points", COLORS.rayHit, 9, true);
const emptyDraw = (): DebugDrawData => ({ lines: [], lineColors: [], points: [], pointColors: [] });
const gjkLines = debugDrawToLineSegments(emptyDraw());
const gjkPoints = debugDrawToPoints(emptyDraw(), 8);
for (const o of [gjkLines, gjkPoints]) {
  o.renderOrder = OVERLAY_ORDER;
  (o.material as THREE.Material).depthTest = false;
}
scene.add(gjkLines, gjkPoints);

function fixedResolution(): number | undefined {
  const v = new URLSearchParams(location.search).get("resolution");
  if (v === null) return undefined;
  const x = Number(v);
  if (!(x > 0 && x <= 1)) {
    setStatus("error", `?resolution= must be a number in (0, 1], got ${JSON.stringify(v)}`);
    return undefined;
  }
  return x;
}

function resize(): void {
  dirty = true;
  const w = Math.max(1, container.clientWidth);
  const h = Math.max(1, container.clientHeight);
  renderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
}
window.addEventListener("resize", resize);

// The page draws on animation frames (the display's rate) whenever something changed: a new
// frame from the worker, the camera, a toggle or an overlay. Frames drawn are counted and shown
// per second.
const stats = window as unknown as {
  __collideFrames: number;
  __collideFps: number;
  __collideWorkerFrame: number;
  __collideStepMs: number;
  __collideResolution: number;
};
stats.__collideFrames = 0;
stats.__collideStepMs = 0;
stats.__collideResolution = resolution.scale;
stats.__collideWorkerFrame = 0;
stats.__collideFps = 0;
let fpsFrames = 0;
let fpsSince = performance.now();
let dirty = true;
let pendingFrame: FrameMessage | null = null;
controls.addEventListener("change", () => {
  dirty = true;
});
function animate(time: number): void {
  requestAnimationFrame(animate);
  let drew = false;
  if (pendingFrame) {
    const f = pendingFrame;
    pendingFrame = null;
    try {
      onFrame(f);
    } catch (err) {
      fail(err);
    }
    send({ type: "ack" });
    dirty = true;
  }
  if (textFrame && performance.now() - textAt >= TEXT_REFRESH_MS) showText(textFrame);
  controls.update();
  if (dirty) {
    renderer.render(scene, camera);
    dirty = false;
    drew = true;
    stats.__collideFrames++;
    fpsFrames++;
  }
  if (resolution.frame(time, drew)) {
    renderer.setPixelRatio(window.devicePixelRatio * resolution.scale);
    stats.__collideResolution = resolution.scale;
    dirty = true;
  }
  const now = performance.now();
  if (now - fpsSince >= 500) {
    stats.__collideFps = (1000 * fpsFrames) / (now - fpsSince);
    el("fps").textContent = stats.__collideFps.toFixed(0);
    el("resolution").textContent = `${Math.round(100 * resolution.scale)}%`;
    fpsFrames = 0;
    fpsSince = now;
  }
}

// ---------------------------------------------------------------------------------------------
// the worker

const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
const send = (m: ToWorker) => worker.postMessage(m);

let bodies: BodyInfo[] = [];
let bodyMeshes: BodyMeshes | null = null;
let wireBuffer: WireBuffer | null = null;
let selected: number[] = [];
let firstFrame = true;
let playing = false;
let pair: ViewGjk | ViewMeshPair | null = null;
/** 0 = nothing shown; 1..N GJK steps; N+1..N+M EPA iterations (when the EPA toggle is on). */
let stepIndex = 0;
let lastAabbs: Float32Array = new Float32Array(0);
/** The latest frame whose numbers the panel does not show yet, or null. */
let textFrame: FrameMessage | null = null;
let textAt = 0;
/** Event lines of the frames since the panel last showed them (at most {@link LOG_LINES}). */
const eventLines: string[] = [];
const LOG_LINES = 40;

const toggles = {
  meshes: el<HTMLInputElement>("show-meshes"),
  wire: el<HTMLInputElement>("show-wire"),
  aabbs: el<HTMLInputElement>("show-aabbs"),
  candidates: el<HTMLInputElement>("show-candidates"),
  contacts: el<HTMLInputElement>("show-contacts"),
  epa: el<HTMLInputElement>("epa-toggle"),
};
/** Line segments of the wireframes and of the AABBs (the panel shows what is drawn). */
let wireSegments = 0;
let aabbSegments = 0;
function applyToggles(): void {
  const t = (on: boolean, n: number) => (on ? n : 0);
  el("triangles").textContent = String(t(toggles.meshes.checked, bodyMeshes?.triangles ?? 0));
  el("segments").textContent = String(
    t(toggles.wire.checked, wireSegments) + t(toggles.aabbs.checked, aabbSegments),
  );
  bodyGroup.visible = toggles.meshes.checked;
  wireGroup.visible = toggles.wire.checked;
  aabbLayer.object.visible = toggles.aabbs.checked;
  candidateLayer.object.visible = toggles.candidates.checked;
  contactPointLayer.object.visible = toggles.contacts.checked;
  contactNormalLayer.object.visible = toggles.contacts.checked;
  dirty = true;
}
for (const t of [
  toggles.meshes,
  toggles.wire,
  toggles.aabbs,
  toggles.candidates,
  toggles.contacts,
]) {
  t.addEventListener("change", applyToggles);
}
toggles.epa.addEventListener("change", () => {
  const n = pair?.ok && !("kind" in pair) ? pair.steps.length : 0;
  if (!toggles.epa.checked && stepIndex > n) stepIndex = n;
  showStep();
});

function onReady(m: Extract<FromWorker, { type: "ready" }>): void {
  bodies = m.bodies;
  el("title").textContent = m.title;
  document.title = `Collide viewer: ${m.title}`;
  el("frame-row").hidden = m.mode !== "demo";
  bodyMeshes = new BodyMeshes(bodies, PALETTE, COLORS.touching, COLORS.selectedWire);
  bodyGroup.add(bodyMeshes.group);
  wireBuffer = new WireBuffer(bodies, COLORS.wire, COLORS.selectedWire);
  wireGroup.add(wireBuffer.object);
  buildBodyList();
  // Layers of many line segments start off (LINE_BUDGET); the panel says so.
  wireSegments = 0;
  for (const b of bodies) wireSegments += b.wire.length / 6;
  aabbSegments = 12 * bodies.length;
  if (wireSegments > LINE_BUDGET) toggles.wire.checked = false;
  if (aabbSegments > LINE_BUDGET) toggles.aabbs.checked = false;
  el("line-budget").textContent = String(LINE_BUDGET);
  el("lines-note").hidden = wireSegments <= LINE_BUDGET && aabbSegments <= LINE_BUDGET;
  applyToggles();
  // The demo plays as soon as it is loaded (`?play=0` opens it paused, at frame 0).
  if (m.mode === "demo" && new URLSearchParams(location.search).get("play") !== "0") {
    send({ type: "play", playing: true });
  }
}

function onFrame(f: FrameMessage): void {
  stats.__collideWorkerFrame = f.frame;
  stats.__collideStepMs = f.stepMs;
  bodyMeshes?.update(f.poses, f.touching);
  wireBuffer?.update(f.poses);
  const a = f.aabbs;
  lastAabbs = a;
  const boxes = aabbLayer.write(24 * bodies.length);
  for (let i = 0; i < bodies.length; i++) writeBox(boxes, 72 * i, a, 6 * i);
  const c = f.candidates;
  const out = candidateLayer.write(c.length);
  for (let k = 0; k < c.length; k++) {
    const i = 6 * c[k];
    out[3 * k] = (a[i] + a[i + 3]) / 2;
    out[3 * k + 1] = (a[i + 1] + a[i + 4]) / 2;
    out[3 * k + 2] = (a[i + 2] + a[i + 5]) / 2;
    if (!Number.isFinite(out[3 * k] + out[3 * k + 1] + out[3 * k + 2])) {
      out[3 * k] = out[3 * k + 1] = out[3 * k + 2] = 0;
    }
  }
  contactPointLayer.write(f.contactPoints.length / 3).set(f.contactPoints);
  contactNormalLayer.write(f.contactNormals.length / 3).set(f.contactNormals);
  for (const line of f.events.log) eventLines.push(line);
  if (eventLines.length > LOG_LINES) eventLines.splice(0, eventLines.length - LOG_LINES);
  textFrame = f;
  if (firstFrame || performance.now() - textAt >= TEXT_REFRESH_MS) showText(f);
  finishFrame(f);
}

/**
 * The panel's numbers, lists and labels for frame `f`: at most every {@link TEXT_REFRESH_MS}
 * (the DOM is slow); the page's animation loop shows a frame left waiting.
 */
function showText(f: FrameMessage): void {
  textFrame = null;
  textAt = performance.now();
  el("contact-count").textContent = String(f.contactCount);
  el("candidate-count").textContent = String(f.candidates.length / 2);
  el("frame-index").textContent = String(f.frame);
  el("step-ms").textContent = f.stepMs.toFixed(1);
  showBackend(f);
  const ev = f.events;
  const events = el("events");
  events.textContent = `begin ${ev.begin} · persist ${ev.persist} · end ${ev.end}`;
  events.dataset.begin = String(ev.begin);
  events.dataset.end = String(ev.end);
  if (eventLines.length > 0) {
    el("event-log").replaceChildren(
      ...eventLines.map((line) => {
        const li = document.createElement("li");
        li.textContent = line;
        return li;
      }),
    );
    eventLines.length = 0;
  }
  el("pairs").replaceChildren(
    ...f.contacts.map((q) => {
      const li = document.createElement("li");
      li.textContent = `${bodies[q.a]?.id} – ${bodies[q.b]?.id}: ${q.distance.toFixed(4)}`;
      return li;
    }),
  );
}

/** The rest of a frame: selection, pair view, ray, play state, the first frame's camera. */
function finishFrame(f: FrameMessage): void {
  const a = f.aabbs;
  if (!sameList(f.selected, selected)) {
    selected = f.selected;
    markSelection();
  }
  if (f.pair !== undefined) {
    const before = pair;
    pair = f.pair?.ok ? f.pair : null;
    if (!before || !pair || before.a !== pair.a || before.b !== pair.b) stepIndex = 0;
    showPair(f.pair ?? null);
  }
  if (f.ray !== undefined) showRay(f.ray);
  if (playing !== f.playing) {
    playing = f.playing;
    el("demo-play").textContent = playing ? "pause" : "play";
  }
  if (firstFrame) {
    firstFrame = false;
    fitCamera(a);
    resize();
    setStatus("drawn", `${bodies.length} bodies, stepped in a Web Worker`);
  }
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** The 12 edges of the box at `a[i..i+6]` (min, max) as 24 vertices at `out[o..]`. */
function writeBox(out: Float32Array, o: number, a: Float32Array, i: number): void {
  let finite = true;
  for (let d = 0; d < 6; d++) finite &&= Number.isFinite(a[i + d]);
  let k = o;
  for (let c = 0; c < 8; c++) {
    for (let axis = 0; axis < 3; axis++) {
      if (c & (1 << axis)) continue;
      for (let end = 0; end < 2; end++) {
        const corner = end === 0 ? c : c | (1 << axis);
        for (let d = 0; d < 3; d++) {
          out[k++] = finite ? a[i + (corner & (1 << d) ? 3 + d : d)] : 0;
        }
      }
    }
  }
}

/**
 * Frames the camera on the bodies' AABBs, leaving out boxes more than half the size of the
 * whole (a floor) and unbounded ones, so that the bodies fill the view.
 */
function fitCamera(a: Float32Array): void {
  const boxes: THREE.Box3[] = [];
  for (let i = 0; i + 6 <= a.length; i += 6) {
    const b = new THREE.Box3(
      new THREE.Vector3(a[i], a[i + 1], a[i + 2]),
      new THREE.Vector3(a[i + 3], a[i + 4], a[i + 5]),
    );
    if ([a[i], a[i + 1], a[i + 2], a[i + 3], a[i + 4], a[i + 5]].every(Number.isFinite)) {
      boxes.push(b);
    }
  }
  const all = new THREE.Box3();
  for (const b of boxes) all.union(b);
  const whole = all.getSize(new THREE.Vector3()).length();
  const box = new THREE.Box3();
  const s = new THREE.Vector3();
  for (const b of boxes) if (b.getSize(s).length() <= 0.5 * whole) box.union(b);
  if (box.isEmpty()) box.copy(all);
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const c = box.getCenter(new THREE.Vector3());
  const r = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-3);
  controls.target.copy(c);
  camera.position.set(c.x + 0.5 * r, c.y + 1.3 * r, c.z + 1.9 * r);
  camera.near = r / 1000;
  camera.far = r * 100;
  camera.updateProjectionMatrix();
  controls.update();
}

// ---------------------------------------------------------------------------------------------
// selection, GJK / EPA and mesh pairs

function markSelection(): void {
  const buttons = Array.from(el("bodies").querySelectorAll("button"));
  buttons.forEach((node, k) => {
    node.classList.toggle("selected", selected.includes(k));
  });
  wireBuffer?.select(selected);
  bodyMeshes?.select(selected);
  dirty = true;
  if (selected.length < 2) {
    pair = null;
    el("pair").textContent =
      selected.length === 1 ? `${bodies[selected[0]].id} + …` : "no pair selected";
    showStep();
  }
}

function buildBodyList(): void {
  const list = el("bodies");
  list.replaceChildren(
    ...bodies.map((b, i) => {
      const li = document.createElement("li");
      const btn = document.createElement("button");
      btn.type = "button";
      btn.dataset.testid = `body-${b.id}`;
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = `#${PALETTE[i % PALETTE.length].toString(16).padStart(6, "0")}`;
      btn.append(sw, `${b.id} (${b.shape.type})`);
      btn.addEventListener("click", () => {
        const next = selected.slice();
        const at = next.indexOf(i);
        if (at >= 0) next.splice(at, 1);
        else {
          if (next.length === 2) next.shift();
          next.push(i);
        }
        send({ type: "select", bodies: next });
      });
      li.append(btn);
      return li;
    }),
  );
}

/**
 * The world position of the scene's local frame (`collide view` poses the bodies there, as
 * `collide check` does); a point shown as a world point is moved by it.
 */
let sceneOrigin: readonly number[] = [0, 0, 0];

/** A point of the page's (local) frame, shown in world coordinates. */
function fmtWorld(v: readonly number[]): string {
  return fmt(v.map((x, i) => x + sceneOrigin[i]));
}

function fmt(v: readonly number[]): string {
  const f = (x: number) => {
    const t = x.toFixed(4);
    return t === "-0.0000" ? "0.0000" : t;
  };
  return `(${v.map(f).join(", ")})`;
}

function showPair(view: FrameMessage["pair"]): void {
  const pre = el("gjk-simplex");
  if (!view) {
    showStep();
    return;
  }
  el("pair").textContent = `${view.a} + ${view.b}`;
  if (!view.ok) {
    pre.textContent = view.error;
    showStep();
    return;
  }
  showStep();
}

function showStep(): void {
  const stepBtn = el<HTMLButtonElement>("gjk-step");
  const resetBtn = el<HTMLButtonElement>("gjk-reset");
  const label = el("gjk-step-index");
  const pre = el("gjk-simplex");
  const setDraw = (d: DebugDrawData) => {
    debugDrawToLineSegments(d, gjkLines);
    debugDrawToPoints(d, 8, gjkPoints);
    dirty = true;
  };
  if (pair && "kind" in pair) {
    // A pair with a mesh: its closest triangle(s) and the contact, no GJK steps.
    stepBtn.disabled = true;
    resetBtn.disabled = true;
    const t = pair.triangles.map((x) => `${x.body}: closest triangle #${x.index}`);
    label.textContent = t.join("\n");
    pre.dataset.count = "0";
    pre.dataset.simplex = "[]";
    pre.dataset.triangle = String(pair.triangles[0]?.index ?? -1);
    pre.textContent = [
      `distance ${pair.distance.toFixed(6)}`,
      `normal = ${fmt(pair.normal)}`,
      `on ${pair.a}: ${fmtWorld(pair.pointA)}`,
      `on ${pair.b}: ${fmtWorld(pair.pointB)}`,
    ].join("\n");
    setDraw(pair.draw);
    return;
  }
  if (!pair?.ok) {
    stepBtn.disabled = true;
    resetBtn.disabled = true;
    label.textContent = "step 0 / 0";
    if (!pair) pre.textContent = selected.length < 2 ? "" : pre.textContent;
    pre.dataset.count = "0";
    pre.dataset.simplex = "[]";
    setDraw(emptyDraw());
    return;
  }
  const gjk = pair;
  const n = gjk.steps.length;
  const m = toggles.epa.checked && gjk.epa ? gjk.epa.steps.length : 0;
  if (stepIndex > n + m) stepIndex = n + m;
  stepBtn.disabled = stepIndex >= n + m;
  resetBtn.disabled = stepIndex === 0;
  const parts: DebugDrawData[] = [];
  if (stepIndex > 0) parts.push(gjk.minkowski);
  if (stepIndex >= 1 && stepIndex <= n) {
    const s = gjk.steps[stepIndex - 1];
    parts.push(s.draw);
    label.textContent = `GJK step ${stepIndex} / ${n}`;
    pre.dataset.count = String(s.simplex.length);
    pre.dataset.simplex = JSON.stringify(s.simplex);
    pre.textContent = [
      `simplex: ${s.simplex.length} point(s)`,
      ...s.simplex.map((p, i) => `  w${i} = ${fmt(p)}`),
      `v = ${fmt(s.v)}`,
      `direction = ${fmt(s.direction)}`,
    ].join("\n");
  } else if (stepIndex > n && gjk.epa) {
    const e = stepIndex - n;
    parts.push(gjk.epa.steps[e - 1]);
    label.textContent = `EPA iteration ${e} / ${m}`;
    pre.textContent = `EPA ${gjk.epa.status}: depth (cores) = ${gjk.epa.depth.toFixed(6)}\nnormal = ${fmt(gjk.epa.normal)}\ndistance (narrow phase) = ${gjk.distance.toFixed(6)}`;
  } else {
    label.textContent = `step 0 / ${n}${m ? ` (+${m} EPA)` : ""}`;
    pre.textContent = `${gjk.status}, distance ${gjk.distance.toFixed(6)}`;
    pre.dataset.count = "0";
    pre.dataset.simplex = "[]";
  }
  if (toggles.epa.checked && gjk.epa && stepIndex <= n && stepIndex > 0) {
    parts.push(gjk.epa.steps[gjk.epa.steps.length - 1]);
  }
  const merged = emptyDraw();
  for (const p of parts) {
    merged.lines.push(...p.lines);
    merged.lineColors.push(...p.lineColors);
    merged.points.push(...p.points);
    merged.pointColors.push(...p.pointColors);
  }
  setDraw(merged);
}

el("gjk-step").addEventListener("click", () => {
  stepIndex++;
  showStep();
});
el("gjk-reset").addEventListener("click", () => {
  stepIndex = 0;
  showStep();
});

// ---------------------------------------------------------------------------------------------
// the mouse: pick, drag, ray

type Tool = "pick" | "drag" | "ray";
let tool: Tool = "pick";
for (const input of Array.from(document.querySelectorAll<HTMLInputElement>('input[name="tool"]'))) {
  input.addEventListener("change", () => {
    if (!input.checked) return;
    tool = input.value as Tool;
    controls.enabled = tool !== "drag";
    if (tool !== "ray") send({ type: "ray-off" });
  });
}

const raycaster = new THREE.Raycaster();
const ndc = new THREE.Vector2();
function mouseRay(e: PointerEvent): RayInput {
  const r = renderer.domElement.getBoundingClientRect();
  ndc.set(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  const o = raycaster.ray.origin;
  const d = raycaster.ray.direction;
  return { origin: [o.x, o.y, o.z], dir: [d.x, d.y, d.z] };
}

let down: { x: number; y: number } | null = null;
let dragging = false;
const canvas = renderer.domElement;
canvas.addEventListener("pointerdown", (e) => {
  down = { x: e.clientX, y: e.clientY };
  if (tool === "drag") {
    dragging = true;
    canvas.setPointerCapture(e.pointerId);
    send({ type: "grab", ...mouseRay(e) });
  }
});
canvas.addEventListener("pointermove", (e) => {
  if (dragging) send({ type: "drag", ...mouseRay(e) });
  else if (tool === "ray") send({ type: "ray", ...mouseRay(e) });
});
canvas.addEventListener("pointerup", (e) => {
  if (dragging) {
    dragging = false;
    send({ type: "release" });
  } else if (tool === "pick" && down && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 4) {
    send({ type: "pick", ...mouseRay(e) });
  }
  down = null;
});

function showRay(r: FrameMessage["ray"]): void {
  const out = el("ray");
  if (!r) {
    rayLayer.write(0);
    rayHitLayer.write(0);
    out.dataset.body = "-1";
    out.textContent = "no ray";
    return;
  }
  const [ox, oy, oz] = r.origin;
  const [dx, dy, dz] = r.dir;
  // A miss is drawn as far as the scene reaches: the camera's far plane.
  const len = r.body >= 0 ? r.toi : camera.far / 2;
  const hit = [ox + dx * len, oy + dy * len, oz + dz * len];
  const nl = 0.06 * camera.position.distanceTo(controls.target);
  const o = rayLayer.write(r.body >= 0 ? 4 : 2);
  o.set([ox, oy, oz, hit[0], hit[1], hit[2]], 0);
  if (r.body >= 0) {
    const [px, py, pz] = r.point;
    const [nx, ny, nz] = r.normal;
    o.set([px, py, pz, px + nx * nl, py + ny * nl, pz + nz * nl], 6);
  }
  rayHitLayer.write(r.body >= 0 ? 1 : 0).set(r.point, 0);
  out.dataset.body = String(r.body);
  out.dataset.origin = JSON.stringify(r.origin);
  out.dataset.dir = JSON.stringify(r.dir);
  out.dataset.point = JSON.stringify(r.point);
  out.dataset.normal = JSON.stringify(r.normal);
  out.textContent =
    r.body >= 0
      ? `ray hits ${bodies[r.body].id} at ${fmtWorld(r.point)}, normal ${fmt(r.normal)}`
      : "ray misses";
}

// ---------------------------------------------------------------------------------------------
// the GPU path: the toggle is enabled when the worker has a WebGPU device; the label says which
// path produced the frame's contacts

const gpuToggle = el<HTMLInputElement>("gpu-toggle");
let gpuAvailable = false;
/** The path asked for and not yet shown by a frame (the toggle waits), or null. */
let switching: "cpu" | "gpu" | null = null;

function onGpu(m: Extract<FromWorker, { type: "gpu" }>): void {
  gpuAvailable = m.available;
  const text = m.available ? `adapter: ${m.adapter}` : `unavailable: ${m.reason}`;
  el("gpu-reason").textContent = text;
  el("gpu-label").title = text;
  if (!m.available) switching = null;
  gpuToggle.disabled = !m.available || switching !== null;
}

function showBackend(f: FrameMessage): void {
  const label = el("backend");
  label.textContent = f.backendLabel;
  label.dataset.path = f.backend;
  if (switching === f.backend || (switching && !gpuAvailable)) switching = null;
  if (switching === null) gpuToggle.checked = f.backend === "gpu";
  gpuToggle.disabled = !gpuAvailable || switching !== null;
}

gpuToggle.addEventListener("change", () => {
  switching = gpuToggle.checked ? "gpu" : "cpu";
  gpuToggle.disabled = true;
  send({ type: "backend", gpu: gpuToggle.checked });
});

// ---------------------------------------------------------------------------------------------
// demo playback

el("demo-play").addEventListener("click", () => {
  send({ type: "play", playing: !playing });
});
el("demo-step").addEventListener("click", () => send({ type: "step" }));

worker.onmessage = (e: MessageEvent<FromWorker>) => {
  const m = e.data;
  try {
    if (m.type === "ready") onReady(m);
    else if (m.type === "frame") pendingFrame = m;
    else if (m.type === "gpu") onGpu(m);
    else fail(new Error(m.message));
  } catch (err) {
    fail(err);
  }
};
worker.onerror = (e) => fail(new Error(e.message || "the worker failed"));

/**
 * Hooks for tests and the console: the latest AABBs (min, max per body), and the page
 * coordinates of the centre of body `i`'s AABB (where to point the mouse at it).
 */
const hooks = window as unknown as {
  __collideAabbs: () => number[];
  __collideProject: (i: number) => [number, number];
};
hooks.__collideAabbs = () => Array.from(lastAabbs);
hooks.__collideProject = (i) => {
  const a = lastAabbs;
  const v = new THREE.Vector3(
    (a[6 * i] + a[6 * i + 3]) / 2,
    (a[6 * i + 1] + a[6 * i + 4]) / 2,
    (a[6 * i + 2] + a[6 * i + 5]) / 2,
  ).project(camera);
  const r = renderer.domElement.getBoundingClientRect();
  return [r.left + ((v.x + 1) / 2) * r.width, r.top + ((1 - v.y) / 2) * r.height];
};

async function main(): Promise<void> {
  resize();
  animate(performance.now());
  const r = await fetch("api/scene");
  if (!r.ok) throw new Error(`api/scene: HTTP ${r.status}`);
  const scene = await r.json();
  if (scene.mode === "scene" && Array.isArray(scene.origin)) sceneOrigin = scene.origin;
  send({ type: "init", scene });
}

main().catch(fail);
