/**
 * The Collide debug viewer: renders what `collide view` serves (src/debug's line segments,
 * points and shape descriptions) with three.js through `collide/three`. It computes no geometry
 * of its own: every AABB, contact, GJK simplex and EPA polytope comes from the server.
 *
 * Endpoints: `api/info` (bodies, frame count), `api/frame?i=K` (poses and debug draw of frame K),
 * `api/gjk?a=I&b=J&frame=K` (the GJK/EPA trace of bodies I and J at frame K).
 */
import {
  applyPose,
  type DebugDrawData,
  debugDrawToLineSegments,
  debugDrawToPoints,
  shapeViewToObject3D,
  type ViewFrame,
  type ViewGjk,
  type ViewInfo,
} from "collide/three";
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";

const PALETTE = [
  0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f,
  0xbab0ac,
];

function el<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`missing element #${id}`);
  return e as T;
}

async function getJson<T>(path: string): Promise<T> {
  const r = await fetch(path);
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return (await r.json()) as T;
}

const status = el("status");
function setStatus(state: string, text: string): void {
  status.dataset.state = state;
  status.textContent = text;
}

// ---------------------------------------------------------------------------------------------
// three.js scene

const container = el("view");
let renderer: THREE.WebGLRenderer;
try {
  renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
} catch (e) {
  setStatus("error", `WebGL is not available: ${e instanceof Error ? e.message : String(e)}`);
  throw e;
}
renderer.setPixelRatio(window.devicePixelRatio);
container.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x15171c);
scene.add(new THREE.AmbientLight(0xffffff, 0.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(3, 10, 6);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(50, 1, 0.01, 10_000);
const controls = new OrbitControls(camera, renderer.domElement);

const bodyGroup = new THREE.Group();
scene.add(bodyGroup);
const wire = debugDrawToLineSegments({ lines: [], lineColors: [], points: [], pointColors: [] });
const aabbLines = debugDrawToLineSegments({
  lines: [],
  lineColors: [],
  points: [],
  pointColors: [],
});
const contactLines = debugDrawToLineSegments({
  lines: [],
  lineColors: [],
  points: [],
  pointColors: [],
});
const contactPoints = debugDrawToPoints(
  { lines: [], lineColors: [], points: [], pointColors: [] },
  7,
);
const gjkLines = debugDrawToLineSegments({
  lines: [],
  lineColors: [],
  points: [],
  pointColors: [],
});
const gjkPoints = debugDrawToPoints({ lines: [], lineColors: [], points: [], pointColors: [] }, 8);
for (const o of [wire, aabbLines, contactLines, contactPoints, gjkLines, gjkPoints]) scene.add(o);

let frameCounter = 0;
function render(): void {
  renderer.render(scene, camera);
  frameCounter++;
  (window as unknown as { __collideFrames: number }).__collideFrames = frameCounter;
}
controls.addEventListener("change", render);

function resize(): void {
  const w = Math.max(1, container.clientWidth);
  const h = Math.max(1, container.clientHeight);
  renderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  render();
}
window.addEventListener("resize", resize);

/** Numbers per drawn box in the AABB layer: 12 segments of 6 coordinates. */
const BOX_STRIDE = 72;

/**
 * Frames the camera on the bodies' AABBs (12 segments each), leaving out boxes more than half
 * the size of the whole (a floor), so that the bodies fill the view.
 */
function fitCamera(data: DebugDrawData): void {
  const boxes: THREE.Box3[] = [];
  const p = new THREE.Vector3();
  for (let k = 0; k + BOX_STRIDE <= data.lines.length; k += BOX_STRIDE) {
    const b = new THREE.Box3();
    for (let i = k; i < k + BOX_STRIDE; i += 3) {
      b.expandByPoint(p.set(data.lines[i], data.lines[i + 1], data.lines[i + 2]));
    }
    boxes.push(b);
  }
  const all = new THREE.Box3();
  for (const b of boxes) all.union(b);
  const whole = all.getSize(new THREE.Vector3()).length();
  const box = new THREE.Box3();
  for (const b of boxes) if (b.getSize(p).length() <= 0.5 * whole) box.union(b);
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
// state

let info: ViewInfo;
let frameIndex = 0;
const meshes: THREE.Object3D[] = [];
const selected: number[] = [];
let gjk: ViewGjk | null = null;
/** 0 = nothing shown; 1..N GJK steps; N+1..N+M EPA iterations (when the EPA toggle is on). */
let stepIndex = 0;

const toggles = {
  meshes: el<HTMLInputElement>("show-meshes"),
  wire: el<HTMLInputElement>("show-wire"),
  aabbs: el<HTMLInputElement>("show-aabbs"),
  contacts: el<HTMLInputElement>("show-contacts"),
  epa: el<HTMLInputElement>("epa-toggle"),
};

function applyToggles(): void {
  bodyGroup.visible = toggles.meshes.checked;
  wire.visible = toggles.wire.checked;
  aabbLines.visible = toggles.aabbs.checked;
  contactLines.visible = toggles.contacts.checked;
  contactPoints.visible = toggles.contacts.checked;
  render();
}
for (const t of [toggles.meshes, toggles.wire, toggles.aabbs, toggles.contacts]) {
  t.addEventListener("change", applyToggles);
}
toggles.epa.addEventListener("change", () => {
  const n = gjk?.ok ? gjk.steps.length : 0;
  if (!toggles.epa.checked && stepIndex > n) stepIndex = n;
  showStep();
});

function showFrame(f: ViewFrame): void {
  for (let i = 0; i < meshes.length; i++) {
    const k = 7 * i;
    applyPose(meshes[i], {
      translation: { x: f.poses[k], y: f.poses[k + 1], z: f.poses[k + 2] },
      rotation: { x: f.poses[k + 3], y: f.poses[k + 4], z: f.poses[k + 5], w: f.poses[k + 6] },
    });
  }
  debugDrawToLineSegments(f.shapes, wire);
  debugDrawToLineSegments(f.aabbs, aabbLines);
  debugDrawToLineSegments(f.contacts, contactLines);
  debugDrawToPoints(f.contacts, 7, contactPoints);
  el("contact-count").textContent = String(f.contactCount);
  el("frame-index").textContent = String(f.frame);
  const list = el("pairs");
  list.replaceChildren(
    ...f.pairs.map((p) => {
      const li = document.createElement("li");
      li.textContent = `${p.a} – ${p.b}: ${p.distance.toFixed(4)}`;
      return li;
    }),
  );
  render();
}

function fmt(v: readonly number[]): string {
  const f = (x: number) => {
    const t = x.toFixed(4);
    return t === "-0.0000" ? "0.0000" : t;
  };
  return `(${v.map(f).join(", ")})`;
}

function showStep(): void {
  const stepBtn = el<HTMLButtonElement>("gjk-step");
  const resetBtn = el<HTMLButtonElement>("gjk-reset");
  const label = el("gjk-step-index");
  const pre = el("gjk-simplex");
  const empty: DebugDrawData = { lines: [], lineColors: [], points: [], pointColors: [] };
  if (!gjk?.ok) {
    stepBtn.disabled = true;
    resetBtn.disabled = true;
    label.textContent = "step 0 / 0";
    pre.textContent = gjk && !gjk.ok ? gjk.error : "";
    pre.dataset.count = "0";
    pre.dataset.simplex = "[]";
    debugDrawToLineSegments(empty, gjkLines);
    debugDrawToPoints(empty, 8, gjkPoints);
    render();
    return;
  }
  const n = gjk.steps.length;
  const m = toggles.epa.checked && gjk.epa ? gjk.epa.steps.length : 0;
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
  const merged: DebugDrawData = { lines: [], lineColors: [], points: [], pointColors: [] };
  for (const p of parts) {
    merged.lines.push(...p.lines);
    merged.lineColors.push(...p.lineColors);
    merged.points.push(...p.points);
    merged.pointColors.push(...p.pointColors);
  }
  debugDrawToLineSegments(merged, gjkLines);
  debugDrawToPoints(merged, 8, gjkPoints);
  render();
}

async function loadGjk(): Promise<void> {
  stepIndex = 0;
  if (selected.length < 2) {
    gjk = null;
    el("pair").textContent =
      selected.length === 1 ? `${info.bodies[selected[0]].id} + …` : "no pair selected";
    showStep();
    return;
  }
  const [a, b] = selected;
  el("pair").textContent = `${info.bodies[a].id} + ${info.bodies[b].id}`;
  gjk = await getJson<ViewGjk>(`api/gjk?a=${a}&b=${b}&frame=${frameIndex}`);
  showStep();
}

function buildBodyList(): void {
  const list = el("bodies");
  list.replaceChildren(
    ...info.bodies.map((b, i) => {
      const li = document.createElement("li");
      const btn = document.createElement("button");
      btn.dataset.testid = `body-${b.id}`;
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = `#${PALETTE[i % PALETTE.length].toString(16).padStart(6, "0")}`;
      btn.append(sw, `${b.id} (${b.shape.type})`);
      btn.addEventListener("click", () => {
        const at = selected.indexOf(i);
        if (at >= 0) selected.splice(at, 1);
        else {
          if (selected.length === 2) selected.shift();
          selected.push(i);
        }
        for (const [k, node] of Array.from(list.querySelectorAll("button")).entries()) {
          node.classList.toggle("selected", selected.includes(k));
        }
        void loadGjk().catch(fail);
      });
      li.append(btn);
      return li;
    }),
  );
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
// demo playback

let playing = false;
async function gotoFrame(i: number): Promise<void> {
  frameIndex = ((i % info.frameCount) + info.frameCount) % info.frameCount;
  showFrame(await getJson<ViewFrame>(`api/frame?i=${frameIndex}`));
  if (selected.length === 2) await loadGjk();
}
async function playLoop(): Promise<void> {
  while (playing) {
    const t0 = performance.now();
    await gotoFrame(frameIndex + 1);
    const wait = Math.max(0, 1000 / 30 - (performance.now() - t0));
    await new Promise((r) => setTimeout(r, wait));
  }
}
el("demo-play").addEventListener("click", () => {
  playing = !playing;
  el("demo-play").textContent = playing ? "pause" : "play";
  if (playing) void playLoop().catch(fail);
});
el("demo-step").addEventListener("click", () => {
  playing = false;
  el("demo-play").textContent = "play";
  void gotoFrame(frameIndex + 1).catch(fail);
});

function fail(e: unknown): void {
  setStatus("error", e instanceof Error ? e.message : String(e));
}

async function main(): Promise<void> {
  info = await getJson<ViewInfo>("api/info");
  el("title").textContent = info.title;
  document.title = `Collide viewer: ${info.title}`;
  el("frame-count").textContent = String(info.frameCount);
  el("frame-row").hidden = info.mode !== "demo";
  info.bodies.forEach((b, i) => {
    const material = new THREE.MeshStandardMaterial({
      color: PALETTE[i % PALETTE.length],
      transparent: true,
      opacity: 0.35,
      depthWrite: false,
      side: THREE.DoubleSide,
    });
    const o = shapeViewToObject3D(b.shape, material);
    meshes.push(o);
    bodyGroup.add(o);
  });
  buildBodyList();
  const f = await getJson<ViewFrame>("api/frame?i=0");
  fitCamera(f.aabbs);
  resize();
  showFrame(f);
  showStep();
  setStatus("drawn", `${info.bodies.length} bodies, ${info.frameCount} frame(s)`);
}

main().catch(fail);
