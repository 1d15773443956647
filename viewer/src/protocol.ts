/**
 * Messages between the viewer's page (main.ts) and its Web Worker (worker.ts). The worker owns
 * the Collide world and steps it; the page draws and sends the mouse. Bodies are indices into
 * the `ready` message's list; arrays of numbers travel as typed arrays (transferred, not copied).
 */
import type { SceneTransfer, ShapeView, ViewGjk, ViewMeshPair } from "./collide.js";

/** A ray from the mouse, world frame: origin and unit direction. */
export interface RayInput {
  origin: [number, number, number];
  dir: [number, number, number];
}

/** Page → worker. */
export type ToWorker =
  | { type: "init"; scene: SceneTransfer }
  /** The page drew the last frame: the worker may post the next. */
  | { type: "ack" }
  | { type: "play"; playing: boolean }
  /** Run the scene on the GPU path (`createGpuBroadPhase`) or back on the CPU. */
  | { type: "backend"; gpu: boolean }
  | { type: "step" }
  /** Grab the body under the ray (drag starts). */
  | ({ type: "grab" } & RayInput)
  /** Move the grabbed body to where the ray meets its drag plane. */
  | ({ type: "drag" } & RayInput)
  | { type: "release" }
  /** Cast the ray and report the hit (the ray tool). */
  | ({ type: "ray" } & RayInput)
  | { type: "ray-off" }
  /** Toggle the selection of the body under the ray (a click). */
  | ({ type: "pick" } & RayInput)
  /** Select bodies by index (the list's buttons). */
  | { type: "select"; bodies: number[] };

/** One body as the page needs it to build its meshes once. */
export interface BodyInfo {
  id: string;
  shape: ShapeView;
  /** True when it moves by itself (the demo's crowd). */
  moving: boolean;
  /** The shape's wireframe in its local frame, 6 numbers per segment. */
  wire: Float32Array;
}

/** What the worker reports after each step, world frame. */
export interface FrameMessage {
  type: "frame";
  frame: number;
  playing: boolean;
  /** tx, ty, tz, qx, qy, qz, qw per body. */
  poses: Float64Array;
  /** min xyz, max xyz per body (tight world AABB; NaN when unbounded). */
  aabbs: Float32Array;
  /** Contact witness points, 3 numbers each. */
  contactPoints: Float32Array;
  /** Contact normals from the witnesses' midpoint, 6 numbers per segment. */
  contactNormals: Float32Array;
  /** Candidate pairs of the broad phase as body indices, 2 per pair. */
  candidates: Int32Array;
  /** 1 for each body in at least one of the frame's contacts, else 0. */
  touching: Uint8Array;
  contactCount: number;
  /** The first contacts (at most {@link LISTED_CONTACTS}) for the panel. */
  contacts: { a: number; b: number; distance: number }[];
  /** Events of the step: counts, and the first begin/end pairs. */
  events: { begin: number; persist: number; end: number; log: string[] };
  /** Milliseconds the worker spent on the frame (demo motion + world steps). */
  stepMs: number;
  /** Which path produced the contacts: `"gpu"` (the GPU broad phase) or `"cpu"`. */
  backend: "cpu" | "gpu";
  /** The same for people: "CPU (dynamic tree broad phase)" or "GPU broad phase (adapter)". */
  backendLabel: string;
  /** The grabbed body, or −1. */
  dragging: number;
  /** Selected bodies. */
  selected: number[];
  /** The view of the selected pair, when two are selected and it changed. */
  pair?: ViewGjk | ViewMeshPair | { ok: false; a: string; b: string; error: string } | null;
  /** The ray tool's cast, when active. */
  ray?: RayReport | null;
}

/** The ray tool's answer. */
export interface RayReport {
  origin: [number, number, number];
  dir: [number, number, number];
  /** Hit body, point and outward normal, or body −1 for a miss. */
  body: number;
  toi: number;
  point: [number, number, number];
  normal: [number, number, number];
}

/** Whether the worker can run the scene on the GPU path, and if not, why. */
export type GpuStatus =
  | { type: "gpu"; available: true; adapter: string }
  | { type: "gpu"; available: false; reason: string };

/** Worker → page. */
export type FromWorker =
  | { type: "ready"; title: string; mode: "scene" | "demo"; bodies: BodyInfo[] }
  | GpuStatus
  | FrameMessage
  | { type: "error"; message: string };

/** Contacts listed by name in the panel per frame. */
export const LISTED_CONTACTS = 60;
