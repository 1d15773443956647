/**
 * Gravity and the contact response: a ball falls on a rotated platform and bounces. The world
 * finds the contact (normal from the platform toward the ball, signed distance); the page does
 * the response of the textbooks (e.g. Millington 2010, ch. 7; Box2D's restitution threshold):
 * reflect the normal velocity with restitution e when the ball approaches, take friction from
 * the tangential velocity up to μ times the normal impulse, and push the ball out along the
 * normal by the penetration depth. Fixed time steps of 1/120 s. Drag the ball to lift it and let
 * go to drop it again.
 */
import { CollisionWorld, isometry, makeCuboid, makeSphere, quat, type Vec3, vec3 } from "collide";
import * as THREE from "three";
import { arr, draggable, makeStage, material, publish, quatArr, readout } from "./common.js";

const GRAVITY = { x: 0, y: -9.81, z: 0 }; // m/s²
const DT = 1 / 120; // s
const RESTITUTION = 0.6;
const RESTITUTION_THRESHOLD = 0.5; // m/s: slower impacts do not bounce (resting contact)
const FRICTION = 0.5;

const platformHalf = { x: 2.5, y: 0.2, z: 1.5 };
const platformPose = isometry.create(
  { x: 0, y: 0, z: 0 },
  quat.fromAxisAngle(quat.identity(), { x: 0, y: 0, z: 1 }, 0.2),
);
const radius = 0.4;
const start = { x: 0.6, y: 3, z: 0 };

const world = new CollisionWorld();
world.addBody({ shape: makeCuboid(platformHalf), pose: platformPose });
const ball = world.addBody({ shape: makeSphere(radius), pose: isometry.create(start) });
const position = vec3.clone(start);
const velocity = vec3.create();

const stage = makeStage({ eye: [0, 2, 9], target: [0, 0.8, 0] });
const platformMesh = new THREE.Mesh(
  new THREE.BoxGeometry(2 * platformHalf.x, 2 * platformHalf.y, 2 * platformHalf.z),
  material(0x6f8fb0),
);
const r = platformPose.rotation;
platformMesh.quaternion.set(r.x, r.y, r.z, r.w);
const ballMesh = new THREE.Mesh(new THREE.SphereGeometry(radius, 32, 16), material(0xe0a050));
ballMesh.position.set(start.x, start.y, start.z);
stage.scene.add(platformMesh, ballMesh);

let bounces = 0;
let lastContact: { distance: number; normal: Vec3 } | null = null;
const isDragging = draggable(stage, ballMesh, (p) => {
  vec3.copy(position, p);
  vec3.set(velocity, 0, 0, 0);
  world.setPose(ball, isometry.create(position));
  world.step();
  report();
});

function simulate(): void {
  vec3.addScaled(velocity, velocity, GRAVITY, DT);
  vec3.addScaled(position, position, velocity, DT);
  if (position.y < -8) {
    // Fell off the platform: start again.
    vec3.copy(position, start);
    vec3.set(velocity, 0, 0, 0);
  }
  world.setPose(ball, isometry.create(position));
  world.step();
  for (const c of world.contacts()) {
    const n = c.manifold.normal; // from the platform (a) toward the ball (b)
    const vn = vec3.dot(velocity, n);
    if (vn < 0) {
      const e = -vn > RESTITUTION_THRESHOLD ? RESTITUTION : 0;
      if (e > 0) bounces++;
      const jn = -(1 + e) * vn; // normal impulse per unit mass
      vec3.addScaled(velocity, velocity, n, jn);
      const tangent = vec3.addScaled(vec3.create(), velocity, n, -vec3.dot(velocity, n));
      const vt = vec3.length(tangent);
      if (vt > 0) vec3.addScaled(velocity, velocity, tangent, -Math.min(vt, FRICTION * jn) / vt);
    }
    // Pushed out now, the world sees the corrected pose at the next step.
    if (c.distance < 0) vec3.addScaled(position, position, n, -c.distance);
  }
}

function report(): void {
  const count = world.contactCount;
  const c = count > 0 ? world.readContact(0) : null;
  lastContact = c && { distance: c.distance, normal: vec3.clone(c.manifold.normal) };
  ballMesh.position.set(position.x, position.y, position.z);
  const speed = vec3.length(velocity);
  readout(
    [
      `ball at ${arr(position)
        .map((x) => x.toFixed(3))
        .join(" ")}`,
      `speed ${speed.toFixed(3)} m/s, bounces ${bounces}`,
      `contacts ${count}${c ? `, distance ${c.distance.toFixed(4)}` : ""}`,
    ].join("\n"),
  );
  const pose = world.getPose(ball); // the pose of the last step
  publish({
    ready: true,
    contacts: count,
    bounces,
    speed,
    height: position.y,
    resting: count === 1 && speed < 0.05,
    queries: [
      {
        op: "contact",
        a: { type: "box", center: [0, 0, 0], halfExtents: arr(platformHalf), rotation: quatArr(r) },
        b: { type: "sphere", center: arr(pose.translation), radius },
      },
    ],
    answers: [lastContact && { distance: lastContact.distance, normal: arr(lastContact.normal) }],
  });
}

let accumulator = 0;
stage.onFrame.push((dt) => {
  if (isDragging()) return;
  for (accumulator += dt; accumulator >= DT; accumulator -= DT) simulate();
  report();
});
report();
