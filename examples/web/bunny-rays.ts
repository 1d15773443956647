/**
 * Ray casts on the Stanford bunny (3,674 triangles, the npm package `bunny`) as a triangle mesh:
 * `makeTriangleMesh` builds its BVH once, and `raycast` walks it nearest child first with a
 * watertight ray–triangle test (Woop, Benthin & Wald 2013), returning the time of impact, the
 * point and the face normal on the side facing the ray. A fan of rays is cast from a fixed
 * point; move the mouse to cast a ray from the camera.
 */

import { cells, positions } from "bunny";
import { isometry, makeTriangleMesh, raycast, type Vec3 } from "collide";
import * as THREE from "three";
import {
  arr,
  makeStage,
  marker,
  material,
  publish,
  readout,
  segment,
  setSegment,
  v3,
} from "./common.js";

const bunny = makeTriangleMesh(positions.flat(), cells.flat());
const pose = isometry.identity();

const stage = makeStage({ eye: [4, 9, 20], target: [0, 4, 0] });
const geometry = new THREE.BufferGeometry();
geometry.setAttribute("position", new THREE.Float32BufferAttribute(positions.flat(), 3));
geometry.setIndex(cells.flat());
geometry.computeVertexNormals();
const bunnyMesh = new THREE.Mesh(geometry, material(0xc8b89a));
stage.scene.add(bunnyMesh);

// The fan: from a point in front of the bunny towards a grid over its bounding box.
const origin = { x: 1, y: 6, z: 14 };
const rays: { origin: Vec3; direction: Vec3; maxToi: number }[] = [];
for (let i = 0; i < 8; i++) {
  for (let j = 0; j < 8; j++) {
    const target = { x: -7 + 2 * i, y: 0.5 + 1.2 * j, z: 0 };
    rays.push({
      origin,
      direction: { x: target.x - origin.x, y: target.y - origin.y, z: target.z - origin.z },
      maxToi: 2,
    });
  }
}
let hits = 0;
const answers = rays.map((r) => {
  const hit = raycast(bunny, pose, r.origin, r.direction, r.maxToi);
  const end = hit
    ? hit.point
    : {
        x: r.origin.x + r.direction.x * 1.3,
        y: r.origin.y + r.direction.y * 1.3,
        z: r.origin.z + r.direction.z * 1.3,
      };
  stage.scene.add(segment(r.origin, end, hit ? 0x50d070 : 0x444a55));
  if (hit) {
    hits++;
    const m = marker(0x50d070, 0.08);
    m.position.copy(v3(hit.point));
    stage.scene.add(
      m,
      segment(
        hit.point,
        {
          x: hit.point.x + hit.normal.x,
          y: hit.point.y + hit.normal.y,
          z: hit.point.z + hit.normal.z,
        },
        0xffffff,
      ),
    );
  }
  return hit && { toi: hit.toi, point: arr(hit.point), normal: arr(hit.normal) };
});

// The mouse ray: from the camera through the pointer, cast by the library (not by three.js).
const mouseMarker = marker(0xff5050, 0.12);
const mouseNormal = segment({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, 0xff5050);
mouseMarker.visible = mouseNormal.visible = false;
stage.scene.add(mouseMarker, mouseNormal);
const raycaster = new THREE.Raycaster();
let mouseHit: unknown = null;
stage.renderer.domElement.addEventListener("pointermove", (e) => {
  const rect = stage.renderer.domElement.getBoundingClientRect();
  raycaster.setFromCamera(
    new THREE.Vector2(
      ((e.clientX - rect.left) / rect.width) * 2 - 1,
      -((e.clientY - rect.top) / rect.height) * 2 + 1,
    ),
    stage.camera,
  );
  const { origin: o, direction: d } = raycaster.ray;
  const hit = raycast(bunny, pose, o, d, 1000);
  mouseMarker.visible = mouseNormal.visible = hit !== null;
  if (hit) {
    mouseMarker.position.copy(v3(hit.point));
    setSegment(mouseNormal, hit.point, {
      x: hit.point.x + 1.5 * hit.normal.x,
      y: hit.point.y + 1.5 * hit.normal.y,
      z: hit.point.z + 1.5 * hit.normal.z,
    });
  }
  mouseHit = hit && {
    origin: arr(o),
    direction: arr(d),
    toi: hit.toi,
    point: arr(hit.point),
    normal: arr(hit.normal),
  };
  publish({ mouseHit });
  show();
});

function show(): void {
  const m = mouseHit as { point: number[] } | null;
  readout(
    `${bunny.triangleCount} triangles\nfan: ${hits} of ${rays.length} rays hit\n` +
      `mouse ray: ${m ? `hit at ${m.point.map((x) => x.toFixed(3)).join(" ")}` : "miss"}`,
  );
}

publish({
  ready: true,
  hits,
  rays: rays.map((r) => ({ origin: arr(r.origin), direction: arr(r.direction), maxToi: r.maxToi })),
  answers,
  mouseHit,
});
show();
