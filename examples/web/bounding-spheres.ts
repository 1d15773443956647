/**
 * Bounding spheres of a point cloud: `mean` (the centroid and its farthest point), Ritter's
 * two-pass method (Ritter 1990; Ericson 2005, §4.3.2) and the exact minimum enclosing sphere
 * (Welzl 1991). Each contains every point; the exact one is the smallest. "New cloud" draws
 * another seeded cloud.
 */
import { type BoundingSphereMethod, boundingSphereOfPoints, makeRandom } from "collide";
import * as THREE from "three";
import { button, makeStage, publish, readout } from "./common.js";

const methods: { method: BoundingSphereMethod; color: number }[] = [
  { method: "mean", color: 0xe0a050 },
  { method: "ritter", color: 0x50d070 },
  { method: "exact", color: 0x5090e0 },
];

const stage = makeStage({ eye: [0, 3, 9] });
const cloud = new THREE.Points(
  new THREE.BufferGeometry(),
  new THREE.PointsMaterial({ color: 0xffffff, size: 0.07 }),
);
const spheres = methods.map(({ color }) => {
  const s = new THREE.Mesh(
    new THREE.SphereGeometry(1, 32, 16),
    new THREE.MeshBasicMaterial({ color, wireframe: true, transparent: true, opacity: 0.35 }),
  );
  stage.scene.add(s);
  return s;
});
stage.scene.add(cloud);

let seed = 1;
function update(): void {
  // An elongated, lopsided cloud: the three methods then differ visibly.
  const random = makeRandom(seed);
  const n = 200;
  const points = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const t = random();
    points[3 * i] = 4 * t * t - 1.5 + 0.6 * (random() - 0.5);
    points[3 * i + 1] = 1.2 * (random() - 0.5) + t;
    points[3 * i + 2] = 1.2 * (random() - 0.5);
  }
  cloud.geometry.setAttribute("position", new THREE.Float32BufferAttribute(points, 3));
  const lines = [`${n} points, seed ${seed}`];
  const answers = methods.map(({ method }, k) => {
    const s = boundingSphereOfPoints(points, method);
    spheres[k].position.set(s.center.x, s.center.y, s.center.z);
    spheres[k].scale.setScalar(s.radius);
    lines.push(`${method.padEnd(7)} radius ${s.radius.toFixed(4)}`);
    return { center: [s.center.x, s.center.y, s.center.z], radius: s.radius };
  });
  readout(lines.join("\n"));
  const pts = Array.from({ length: n }, (_, i) => Array.from(points.subarray(3 * i, 3 * i + 3)));
  publish({
    ready: true,
    seed,
    queries: methods.map(({ method }) => ({ op: "boundingSphere", points: pts, method })),
    answers,
  });
}

button("new cloud", () => {
  seed += 1;
  update();
});
update();
