/**
 * Sphere–box by closest point (Ericson 2005, §5.2.5): the sphere touches the box when the box's
 * closest point to the sphere's centre is within the radius. Drag the sphere.
 */
import {
  contact,
  intersects,
  isometry,
  makeCuboid,
  makeSphere,
  projectPoint,
  quat,
  type Vec3,
} from "collide";
import * as THREE from "three";
import {
  arr,
  contactJson,
  draggable,
  makeStage,
  marker,
  material,
  publish,
  quatArr,
  readout,
  segment,
  setSegment,
  unit,
} from "./common.js";

const halfExtents = { x: 1.2, y: 0.6, z: 0.8 };
const box = makeCuboid(halfExtents);
const boxPose = isometry.create(
  { x: 0, y: 0, z: 0 },
  quat.fromAxisAngle(quat.identity(), unit({ x: 0.3, y: 1, z: 0.5 }), 0.7),
);
const radius = 0.5;
const sphere = makeSphere(radius);

const stage = makeStage({ eye: [0, 1.5, 7] });
const boxMesh = new THREE.Mesh(
  new THREE.BoxGeometry(2 * halfExtents.x, 2 * halfExtents.y, 2 * halfExtents.z),
  material(0x6f8fb0),
);
const r = boxPose.rotation;
boxMesh.quaternion.set(r.x, r.y, r.z, r.w);
const ball = new THREE.Mesh(new THREE.SphereGeometry(radius, 32, 16), material(0xe0a050));
ball.position.set(2.2, 0.4, 0);
const closest = marker(0xffffff, 0.06);
const toCentre = segment({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, 0xffffff);
stage.scene.add(boxMesh, ball, closest, toCentre);

function update(c: Vec3): void {
  const spherePose = isometry.create(c);
  const q = projectPoint(box, boxPose, c); // the box's closest point to the centre
  const touching = intersects(sphere, spherePose, box, boxPose);
  const hit = contact(sphere, spherePose, box, boxPose); // null when apart
  closest.position.set(q.point.x, q.point.y, q.point.z);
  setSegment(toCentre, c, q.point);
  (ball.material as THREE.MeshStandardMaterial).color.set(touching ? 0xe05050 : 0xe0a050);
  readout(
    [
      `sphere centre   ${c.x.toFixed(3)} ${c.y.toFixed(3)} ${c.z.toFixed(3)}`,
      `closest point   ${q.point.x.toFixed(3)} ${q.point.y.toFixed(3)} ${q.point.z.toFixed(3)}`,
      `|centre − q|    ${q.distance.toFixed(4)} (radius ${radius})`,
      `touching        ${touching ? "yes" : "no"}`,
      hit ? `depth           ${(-hit.distance).toFixed(4)}` : "",
    ].join("\n"),
  );
  const sphereJson = { type: "sphere", center: arr(c), radius };
  const boxJson = {
    type: "box",
    center: [0, 0, 0],
    halfExtents: arr(halfExtents),
    rotation: quatArr(r),
  };
  publish({
    ready: true,
    contacts: touching ? 1 : 0,
    queries: [
      { op: "intersects", a: sphereJson, b: boxJson },
      { op: "projectPoint", shape: boxJson, point: arr(c) },
      { op: "contact", a: sphereJson, b: boxJson },
    ],
    answers: [
      { intersects: touching },
      { point: arr(q.point), distance: q.distance, inside: q.inside },
      contactJson(hit),
    ],
  });
}

draggable(stage, ball, update);
update({ x: ball.position.x, y: ball.position.y, z: ball.position.z });
