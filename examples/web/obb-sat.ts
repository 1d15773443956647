/**
 * OBB–OBB separating axis test (Gottschalk, Lin & Manocha 1996; Ericson 2005, §4.4.1): two
 * oriented boxes are apart exactly when their projections on one of 15 axes are apart — the 3
 * face normals of each box and the 9 cross products of an edge of A with an edge of B. This page
 * projects both boxes on every axis itself, to draw them, and asks the library for the answer
 * (`intersects`) and the contact (`contact`, which runs the same test with the deepest axis).
 * Drag box B.
 */
import { contact, intersects, isometry, makeCuboid, quat, type Vec3, vec3 } from "collide";
import * as THREE from "three";
import {
  arr,
  contactJson,
  draggable,
  makeStage,
  material,
  publish,
  quatArr,
  readout,
  segment,
  setSegment,
  unit,
} from "./common.js";

const halfA = { x: 1, y: 0.5, z: 0.7 };
const halfB = { x: 0.6, y: 0.9, z: 0.4 };
const boxA = makeCuboid(halfA);
const boxB = makeCuboid(halfB);
const poseA = isometry.create(
  { x: 0, y: 0, z: 0 },
  quat.fromAxisAngle(quat.identity(), { x: 0, y: 0, z: 1 }, 0.35),
);
const rotB = quat.fromAxisAngle(quat.identity(), unit({ x: 1, y: 1, z: 0.2 }), 0.9);

const stage = makeStage({ eye: [1.5, 2.5, 8] });
function boxMesh(h: Vec3, q: { x: number; y: number; z: number; w: number }, color: number) {
  const m = new THREE.Mesh(new THREE.BoxGeometry(2 * h.x, 2 * h.y, 2 * h.z), material(color, 0.75));
  m.quaternion.set(q.x, q.y, q.z, q.w);
  return m;
}
const meshA = boxMesh(halfA, poseA.rotation, 0x6f8fb0);
const meshB = boxMesh(halfB, rotB, 0xe0a050);
meshB.position.set(2.4, 0.3, 0);
stage.scene.add(meshA, meshB);
const axisLines = Array.from({ length: 15 }, () => segment(vec3.create(), vec3.create(), 0xffffff));
stage.scene.add(...axisLines);

/** The box's three unit axes (columns of its rotation), world frame. */
function axesOf(q: { x: number; y: number; z: number; w: number }): Vec3[] {
  return [vec3.create(1, 0, 0), vec3.create(0, 1, 0), vec3.create(0, 0, 1)].map((e) =>
    quat.rotate(vec3.create(), q, e),
  );
}

/** Radius of the box's projection on unit axis L: Σ h_i |u_i · L|. */
function projectedRadius(h: Vec3, u: Vec3[], L: Vec3): number {
  return (
    h.x * Math.abs(vec3.dot(u[0], L)) +
    h.y * Math.abs(vec3.dot(u[1], L)) +
    h.z * Math.abs(vec3.dot(u[2], L))
  );
}

function update(cB: Vec3): void {
  const poseB = isometry.create(cB, rotB);
  const uA = axesOf(poseA.rotation);
  const uB = axesOf(rotB);
  const axes: { name: string; L: Vec3 }[] = [
    ...uA.map((L, i) => ({ name: `A${i}`, L })),
    ...uB.map((L, i) => ({ name: `B${i}`, L })),
  ];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++)
      axes.push({ name: `A${i}×B${j}`, L: vec3.cross(vec3.create(), uA[i], uB[j]) });
  }
  const t = vec3.sub(vec3.create(), cB, poseA.translation);
  const lines: string[] = [];
  let separating = 0;
  axes.forEach(({ name, L }, k) => {
    const len = vec3.length(L);
    const line = axisLines[k];
    if (len < 1e-9) {
      // Parallel edges: the cross product vanishes and the axis is skipped.
      line.visible = false;
      lines.push(`${name.padEnd(6)}  (parallel edges: skipped)`);
      return;
    }
    vec3.scale(L, L, 1 / len);
    const gap =
      Math.abs(vec3.dot(t, L)) - projectedRadius(halfA, uA, L) - projectedRadius(halfB, uB, L);
    if (gap > 0) separating++;
    line.visible = true;
    setSegment(line, vec3.scale(vec3.create(), L, -3), vec3.scale(vec3.create(), L, 3));
    (line.material as THREE.LineBasicMaterial).color.set(gap > 0 ? 0xff5050 : 0x50d070);
    lines.push(`${name.padEnd(6)}  gap ${gap.toFixed(3)}${gap > 0 ? "  separating" : ""}`);
  });
  const touching = intersects(boxA, poseA, boxB, poseB);
  const hit = contact(boxA, poseA, boxB, poseB);
  readout(
    [
      `separating axes: ${separating} of 15 → ${touching ? "overlap" : "apart"}`,
      hit
        ? `depth ${(-hit.distance).toFixed(4)} along ${arr(hit.normal)
            .map((x) => x.toFixed(3))
            .join(" ")}`
        : "",
      "",
      ...lines,
    ].join("\n"),
  );
  const a = {
    type: "box",
    center: arr(poseA.translation),
    halfExtents: arr(halfA),
    rotation: quatArr(poseA.rotation),
  };
  const b = { type: "box", center: arr(cB), halfExtents: arr(halfB), rotation: quatArr(rotB) };
  publish({
    ready: true,
    contacts: touching ? 1 : 0,
    separatingAxes: separating,
    queries: [
      { op: "intersects", a, b },
      { op: "contact", a, b },
    ],
    answers: [{ intersects: touching }, contactJson(hit)],
  });
}

draggable(stage, meshB, update);
update({ x: meshB.position.x, y: meshB.position.y, z: meshB.position.z });
