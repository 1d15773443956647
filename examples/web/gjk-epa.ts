/**
 * GJK and EPA step by step (Gilbert, Johnson & Keerthi 1988; van den Bergen 2001). GJK looks for
 * the point of the Minkowski difference A − B closest to the origin with a simplex of at most 4
 * of its points; the shapes touch when the difference holds the origin. Then EPA grows a
 * polytope inside the difference until its face nearest the origin is on the boundary: that
 * face's distance is the penetration depth and its normal the contact normal. `traceGjkPair`
 * (collide/debug) records every iteration in the world frame. Drag the hull; step with the buttons.
 */
import {
  computeConvexHull,
  contact,
  distance,
  isometry,
  makeConvexPolyhedron,
  makeCuboid,
  quat,
  type Vec3,
  vec3,
} from "collide";
import { type GjkPairTrace, traceGjkPair } from "collide/debug";
import * as THREE from "three";
import {
  arr,
  button,
  contactJson,
  draggable,
  makeStage,
  marker,
  material,
  publish,
  quatArr,
  readout,
} from "./common.js";

const half = { x: 0.8, y: 0.6, z: 0.5 };
const box = makeCuboid(half);
const boxPose = isometry.create(
  { x: 0, y: 0, z: 0 },
  quat.fromAxisAngle(quat.identity(), { x: 0, y: 1, z: 0 }, 0.5),
);
const hullPoints = [
  [0.7, 0, 0],
  [-0.7, 0, 0],
  [0, 0.8, 0],
  [0, -0.6, 0],
  [0, 0, 0.6],
  [0, 0, -0.6],
  [0.4, 0.4, 0.4],
];
const hull = makeConvexPolyhedron(hullPoints.map(([x, y, z]) => ({ x, y, z })));

const stage = makeStage({ eye: [0, 2, 9] });
/** A mesh of the convex hull of packed points (fan-triangulated faces). */
function hullGeometry(points: ArrayLike<number>): THREE.BufferGeometry {
  const h = computeConvexHull(points);
  const index: number[] = [];
  for (let f = 0; f + 1 < h.faceOffsets.length; f++) {
    for (let k = h.faceOffsets[f] + 1; k + 1 < h.faceOffsets[f + 1]; k++) {
      index.push(h.faceVertices[h.faceOffsets[f]], h.faceVertices[k], h.faceVertices[k + 1]);
    }
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.Float32BufferAttribute(Array.from(h.vertices), 3));
  g.setIndex(index);
  g.computeVertexNormals();
  return g;
}
const boxMesh = new THREE.Mesh(
  new THREE.BoxGeometry(2 * half.x, 2 * half.y, 2 * half.z),
  material(0x6f8fb0, 0.6),
);
boxMesh.quaternion.set(
  boxPose.rotation.x,
  boxPose.rotation.y,
  boxPose.rotation.z,
  boxPose.rotation.w,
);
const hullMesh = new THREE.Mesh(hullGeometry(hullPoints.flat()), material(0xe0a050, 0.8));
hullMesh.position.set(2.2, 0.5, 0);
const minkowski = new THREE.LineSegments(
  new THREE.BufferGeometry(),
  new THREE.LineBasicMaterial({ color: 0x888888 }),
);
const simplex = new THREE.LineSegments(
  new THREE.BufferGeometry(),
  new THREE.LineBasicMaterial({ color: 0x50d0ff }),
);
const closestV = marker(0xffff40, 0.06);
stage.scene.add(boxMesh, hullMesh, minkowski, simplex, closestV, marker(0xffffff, 0.08));

let trace: GjkPairTrace;
let step = 0;

/** Line segments joining every pair of `points` (a simplex) or the edges of `faces`. */
function setLines(
  lines: THREE.LineSegments,
  points: Vec3[],
  faces?: [number, number, number][],
): void {
  const p: number[] = [];
  const join = (a: Vec3, b: Vec3) => p.push(a.x, a.y, a.z, b.x, b.y, b.z);
  if (faces) {
    for (const [i, j, k] of faces) {
      join(points[i], points[j]);
      join(points[j], points[k]);
      join(points[k], points[i]);
    }
  } else {
    for (let i = 0; i < points.length; i++) {
      for (let j = i + 1; j < points.length; j++) join(points[i], points[j]);
    }
  }
  if (points.length === 1) join(points[0], points[0]);
  lines.geometry.setAttribute("position", new THREE.Float32BufferAttribute(p, 3));
}

function show(): void {
  const gjkSteps = trace.steps.length;
  const epaSteps = trace.epa?.steps.length ?? 0;
  step = Math.max(0, Math.min(step, gjkSteps + epaSteps - 1));
  let text: string;
  if (step < gjkSteps) {
    const s = trace.steps[step];
    setLines(simplex, s.simplex);
    closestV.position.set(s.v.x, s.v.y, s.v.z);
    closestV.visible = true;
    text = `GJK step ${step + 1} of ${gjkSteps}: simplex of ${s.simplex.length} point(s)\n|v| = ${vec3.length(s.v).toFixed(4)}`;
  } else {
    const e = trace.epa!.steps[step - gjkSteps];
    setLines(simplex, e.vertices, e.faces);
    closestV.position.set(
      e.normal.x * e.distance,
      e.normal.y * e.distance,
      e.normal.z * e.distance,
    );
    text = `EPA step ${step - gjkSteps + 1} of ${epaSteps}: ${e.vertices.length} vertices\nclosest face at ${e.distance.toFixed(4)}`;
  }
  readout(
    `${text}\n\nGJK: ${trace.status}, core distance ${trace.coreDistance.toFixed(4)}\n` +
      `signed distance ${trace.distance.toFixed(4)} (negative: depth)\n` +
      `normal ${arr(trace.normal)
        .map((x) => x.toFixed(3))
        .join(" ")}`,
  );
}

function update(c: Vec3): void {
  const hullPose = isometry.create(c);
  trace = traceGjkPair(box, boxPose, hull, hullPose);
  // The Minkowski difference A − B: the hull of every corner of A minus every point of B.
  const diff: number[] = [];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1]) {
        const a = isometry.transformPoint(vec3.create(), boxPose, {
          x: sx * half.x,
          y: sy * half.y,
          z: sz * half.z,
        });
        for (const [x, y, z] of hullPoints) diff.push(a.x - x - c.x, a.y - y - c.y, a.z - z - c.z);
      }
  minkowski.geometry = new THREE.WireframeGeometry(hullGeometry(diff));
  const hit = contact(box, boxPose, hull, hullPose);
  const d = distance(box, boxPose, hull, hullPose);
  const a = {
    type: "box",
    center: [0, 0, 0],
    halfExtents: arr(half),
    rotation: quatArr(boxPose.rotation),
  };
  const b = { type: "convex", points: hullPoints, position: arr(c) };
  publish({
    ready: true,
    contacts: hit ? 1 : 0,
    gjkSteps: trace.steps.length,
    epaSteps: trace.epa?.steps.length ?? 0,
    traceDistance: trace.distance,
    queries: [
      { op: "distance", a, b },
      { op: "contact", a, b },
    ],
    answers: [
      { distance: d.distance, pointA: arr(d.pointA), pointB: arr(d.pointB) },
      contactJson(hit),
    ],
  });
  step = Math.min(step, trace.steps.length + (trace.epa?.steps.length ?? 0) - 1);
  show();
}

/** Shows step `s` (clamped to the trace). */
function go(s: number): void {
  step = s;
  show();
}
button("◀ step", () => go(step - 1));
button("step ▶", () => go(step + 1));
button("last", () => go(Number.MAX_SAFE_INTEGER));
draggable(stage, hullMesh, update);
update({ x: hullMesh.position.x, y: hullMesh.position.y, z: hullMesh.position.z });
