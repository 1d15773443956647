/**
 * 2D polygon SAT and the minimum translation vector (Ericson 2005, §5.2.1 in 2D; Box2D's
 * polygon collider): two convex polygons overlap unless some edge normal of one of them
 * separates them; when they overlap, the edge normal with the least overlap gives the minimum
 * translation vector (MTV), the shortest move of B that separates them. `dim2.contact2D` returns
 * it as the contact normal (from A toward B) times the depth. Drag the blue polygon.
 */
import { dim2 } from "collide";
import * as THREE from "three";
import { draggable, makeStage, publish, readout } from "./common.js";

type P = { x: number; y: number };
const pointsA: P[] = [
  { x: -1.5, y: -1 },
  { x: 1.2, y: -1.3 },
  { x: 1.8, y: 0.4 },
  { x: 0.2, y: 1.5 },
  { x: -1.4, y: 0.8 },
];
const localB: P[] = [
  { x: -0.9, y: -0.6 },
  { x: 1, y: -0.5 },
  { x: 0.1, y: 1 },
];

const stage = makeStage({ eye: [0, 0, 10], ortho: 3.5 });
function polygonMesh(points: P[], color: number, opacity = 0.8): THREE.Mesh {
  const shape = new THREE.Shape(points.map((p) => new THREE.Vector2(p.x, p.y)));
  return new THREE.Mesh(
    new THREE.ShapeGeometry(shape),
    new THREE.MeshBasicMaterial({ color, transparent: true, opacity }),
  );
}
const meshA = polygonMesh(pointsA, 0xe0a050);
const meshB = polygonMesh(localB, 0x5090e0);
meshB.position.set(2.6, 1.6, 0.01);
const ghost = polygonMesh(localB, 0x5090e0, 0.25);
const arrow = new THREE.ArrowHelper(
  new THREE.Vector3(1, 0, 0),
  new THREE.Vector3(),
  1,
  0xffffff,
  0.15,
  0.1,
);
stage.scene.add(meshA, meshB, ghost, arrow);

function update(c: { x: number; y: number }): void {
  const pointsB = localB.map((p) => ({ x: p.x + c.x, y: p.y + c.y }));
  const a = dim2.polygonAt(pointsA);
  const b = dim2.polygonAt(pointsB);
  const hit = dim2.contact2D(a.shape, a.pose, b.shape, b.pose);
  const overlap = hit !== null && hit.distance <= 0;
  const depth = hit ? -hit.distance : 0;
  arrow.visible = ghost.visible = overlap && depth > 0;
  if (hit && overlap) {
    // The MTV moves B by depth along the normal: B's deepest point lands on A's surface.
    arrow.position.set(hit.pointB.x, hit.pointB.y, 0.02);
    arrow.setDirection(new THREE.Vector3(hit.normal.x, hit.normal.y, 0));
    arrow.setLength(Math.max(depth, 1e-3), Math.min(0.15, depth / 2), 0.1);
    ghost.position.set(c.x + hit.normal.x * depth, c.y + hit.normal.y * depth, 0.005);
  }
  readout(
    overlap && hit
      ? `overlap, depth ${depth.toFixed(4)}\nMTV (${(hit.normal.x * depth).toFixed(4)}, ${(hit.normal.y * depth).toFixed(4)})`
      : "apart: some edge normal separates the polygons",
  );
  const json = (points: P[]) => ({ type: "polygon", points: points.map((p) => [p.x, p.y]) });
  publish({
    ready: true,
    contacts: overlap ? 1 : 0,
    mtv: overlap && hit ? [hit.normal.x * depth, hit.normal.y * depth] : null,
    queries: [{ op: "contact", dim: 2, a: json(pointsA), b: json(pointsB) }],
    answers: [
      hit && {
        distance: hit.distance,
        normal: [hit.normal.x, hit.normal.y],
        pointA: [hit.pointA.x, hit.pointA.y],
        pointB: [hit.pointB.x, hit.pointB.y],
      },
    ],
  });
}

draggable(stage, meshB, update);
update({ x: meshB.position.x, y: meshB.position.y });
