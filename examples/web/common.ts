/**
 * What every example page shares, so each page's own file is only its example: a three.js stage
 * (renderer, camera, orbit controls, lights, a draw loop), dragging an object with the mouse on
 * the plane z = its z, a readout panel, and `window.__example`, where each page publishes its
 * inputs (as `collide query` lines, docs/FORMATS.md) and its answers, for the browser tests.
 */
import type { Quat, Vec3 } from "collide";
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

/** The renderer, camera and scene of a page. */
export interface Stage {
  scene: THREE.Scene;
  camera: THREE.PerspectiveCamera | THREE.OrthographicCamera;
  renderer: THREE.WebGLRenderer;
  controls: OrbitControls;
  /** Called before each frame is drawn, with the frame's time step in seconds. */
  onFrame: ((dt: number) => void)[];
}

/** What a page publishes on `window.__example` (see the module docs). */
export interface ExampleState {
  /** True once the page has computed its first answers. */
  ready: boolean;
  /** Frames drawn so far. */
  frames: number;
  /** CSS pixel position of world point (x, y, z) in the page (for mouse tests). */
  screen: (x: number, y: number, z: number) => { x: number; y: number };
  [key: string]: unknown;
}

declare global {
  interface Window {
    __example: ExampleState;
  }
}

/**
 * Makes the stage in `#view`: a perspective camera at `eye` looking at `target` (or, with
 * `ortho` = the half height of the view, an orthographic camera looking down −z for 2D pages).
 */
export function makeStage(options: {
  eye: [number, number, number];
  target?: [number, number, number];
  ortho?: number;
}): Stage {
  const host = document.getElementById("view") as HTMLElement;
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio);
  renderer.setSize(host.clientWidth, host.clientHeight);
  host.appendChild(renderer.domElement);
  const aspect = host.clientWidth / host.clientHeight;
  const camera =
    options.ortho === undefined
      ? new THREE.PerspectiveCamera(45, aspect, 0.05, 500)
      : new THREE.OrthographicCamera(
          -options.ortho * aspect,
          options.ortho * aspect,
          options.ortho,
          -options.ortho,
          -100,
          100,
        );
  camera.position.set(...options.eye);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x1b1e24);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.5);
  sun.position.set(3, 8, 5);
  scene.add(sun);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.set(...(options.target ?? [0, 0, 0]));
  if (options.ortho !== undefined) controls.enableRotate = false;
  controls.update();
  const stage: Stage = { scene, camera, renderer, controls, onFrame: [] };
  const state: ExampleState = {
    ready: false,
    frames: 0,
    screen: (x, y, z) => {
      const p = new THREE.Vector3(x, y, z).project(camera);
      const r = renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    },
  };
  window.__example = state;
  let last = performance.now();
  renderer.setAnimationLoop((now: number) => {
    const dt = Math.min((now - last) / 1000, 0.05);
    last = now;
    for (const f of stage.onFrame) f(dt);
    renderer.render(scene, camera);
    state.frames++;
  });
  return stage;
}

/** Merges `data` into `window.__example` (numbers for the tests and the curious). */
export function publish(data: Record<string, unknown>): void {
  Object.assign(window.__example, data);
}

/** Shows `text` in the page's readout panel. */
export function readout(text: string): void {
  (document.getElementById("readout") as HTMLElement).textContent = text;
}

/** Adds a button to the page's controls panel. */
export function button(label: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement("button");
  b.textContent = label;
  b.addEventListener("click", onClick);
  (document.getElementById("controls") as HTMLElement).appendChild(b);
  return b;
}

/**
 * Lets the mouse drag `object` on the plane z = object.position.z (orbiting is paused while
 * dragging); `onDrag` gets the new position after each move. The returned function tells
 * whether a drag is under way.
 */
export function draggable(
  stage: Stage,
  object: THREE.Object3D,
  onDrag: (p: Vec3) => void,
): () => boolean {
  const canvas = stage.renderer.domElement;
  const raycaster = new THREE.Raycaster();
  const plane = new THREE.Plane(new THREE.Vector3(0, 0, 1), 0);
  const hit = new THREE.Vector3();
  const offset = new THREE.Vector3();
  let dragging = false;
  const rayAt = (e: PointerEvent): THREE.Ray => {
    const r = canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(
      ((e.clientX - r.left) / r.width) * 2 - 1,
      -((e.clientY - r.top) / r.height) * 2 + 1,
    );
    raycaster.setFromCamera(ndc, stage.camera);
    return raycaster.ray;
  };
  canvas.addEventListener("pointerdown", (e) => {
    const ray = rayAt(e);
    if (raycaster.intersectObject(object, true).length === 0) return;
    plane.constant = -object.position.z;
    if (ray.intersectPlane(plane, hit) === null) return;
    offset.copy(object.position).sub(hit);
    dragging = true;
    stage.controls.enabled = false;
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!dragging || rayAt(e).intersectPlane(plane, hit) === null) return;
    object.position.copy(hit).add(offset);
    onDrag({ x: object.position.x, y: object.position.y, z: object.position.z });
  });
  const end = (): void => {
    dragging = false;
    stage.controls.enabled = true;
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);
  return () => dragging;
}

/** A library vector as a three.js vector. */
export function v3(v: Vec3): THREE.Vector3 {
  return new THREE.Vector3(v.x, v.y, v.z);
}

/** `v` scaled to length 1 (rotation axes must be unit vectors). */
export function unit(v: Vec3): Vec3 {
  const n = Math.hypot(v.x, v.y, v.z);
  return { x: v.x / n, y: v.y / n, z: v.z / n };
}

/** A vector as the `[x, y, z]` array of the JSON formats. */
export function arr(v: Vec3): [number, number, number] {
  return [v.x, v.y, v.z];
}

/** A contact (or null) as the `contact` answer of `collide query` (docs/FORMATS.md). */
export function contactJson(
  hit: { distance: number; normal: Vec3; pointA: Vec3; pointB: Vec3 } | null,
): Record<string, unknown> | null {
  if (hit === null) return null;
  const { distance, normal, pointA, pointB } = hit;
  return { distance, normal: arr(normal), pointA: arr(pointA), pointB: arr(pointB) };
}

/** A quaternion as the `[x, y, z, w]` array of the JSON formats. */
export function quatArr(q: Quat): [number, number, number, number] {
  return [q.x, q.y, q.z, q.w];
}

/** A line segment object from a to b (world frame). */
export function segment(a: Vec3, b: Vec3, color: number): THREE.Line {
  const g = new THREE.BufferGeometry().setFromPoints([v3(a), v3(b)]);
  return new THREE.Line(g, new THREE.LineBasicMaterial({ color }));
}

/** Moves the two ends of a line made by {@link segment}. */
export function setSegment(line: THREE.Line, a: Vec3, b: Vec3): void {
  const p = line.geometry.getAttribute("position") as THREE.BufferAttribute;
  p.setXYZ(0, a.x, a.y, a.z);
  p.setXYZ(1, b.x, b.y, b.z);
  p.needsUpdate = true;
  line.geometry.computeBoundingSphere();
}

/** A small ball marking a point. */
export function marker(color: number, radius = 0.04): THREE.Mesh {
  return new THREE.Mesh(
    new THREE.SphereGeometry(radius, 12, 8),
    new THREE.MeshBasicMaterial({ color }),
  );
}

/** A standard lit material; `opacity` < 1 makes it see-through. */
export function material(color: number, opacity = 1): THREE.MeshStandardMaterial {
  return new THREE.MeshStandardMaterial({
    color,
    transparent: opacity < 1,
    opacity,
    roughness: 0.6,
  });
}
