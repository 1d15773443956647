/**
 * Sphere–sphere intersection volume and IoU: two overlapping balls meet in a lens made of two
 * spherical caps, whose heights follow from the distance of the centres; its volume, its surface
 * area and the intersection over union (volume / (V1 + V2 − volume)) are closed forms
 * (`sphereSphereIntersection`). Drag the right sphere.
 */
import { sphereSphereIntersection, type Vec3 } from "collide";
import * as THREE from "three";
import { arr, draggable, makeStage, material, publish, readout } from "./common.js";

const c1 = { x: -0.8, y: 0, z: 0 };
const r1 = 1.5;
const r2 = 1.1;

const stage = makeStage({ eye: [0, 1.5, 8] });
const ball1 = new THREE.Mesh(new THREE.SphereGeometry(r1, 48, 24), material(0x6f8fb0, 0.45));
ball1.position.set(c1.x, c1.y, c1.z);
const ball2 = new THREE.Mesh(new THREE.SphereGeometry(r2, 48, 24), material(0xe0a050, 0.45));
ball2.position.set(1.6, 0.2, 0);
stage.scene.add(ball1, ball2);

function update(c2: Vec3): void {
  const lens = sphereSphereIntersection(c1, r1, c2, r2);
  readout(
    [
      `centre distance  ${Math.hypot(c2.x - c1.x, c2.y - c1.y, c2.z - c1.z).toFixed(4)}`,
      `lens volume      ${lens.volume.toFixed(5)}`,
      `lens area        ${lens.surfaceArea.toFixed(5)}`,
      `IoU              ${lens.iou.toFixed(5)}`,
    ].join("\n"),
  );
  publish({
    ready: true,
    contacts: lens.volume > 0 ? 1 : 0,
    queries: [
      {
        op: "volume",
        a: { type: "sphere", center: arr(c1), radius: r1 },
        b: { type: "sphere", center: arr(c2), radius: r2 },
      },
    ],
    answers: [{ volume: lens.volume, surfaceArea: lens.surfaceArea, iou: lens.iou }],
  });
}

draggable(stage, ball2, update);
update({ x: ball2.position.x, y: ball2.position.y, z: ball2.position.z });
