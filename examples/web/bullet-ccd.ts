/**
 * Continuous collision: a bullet (radius 0.1) moves 3 units per step through a wall 2 cm thick.
 * A discrete step only looks at the poses at the end of each step, before and behind the wall:
 * no contact, the bullet tunnels through. With `ccd: true` the world also sweeps the bullet from
 * its last pose to the new one (conservative advancement, Mirtich 1996) and reports the impact
 * with its time as a fraction of the step in `world.impacts()`. The steps run in slow motion.
 */
import { CollisionWorld, isometry, makeCuboid, makeSphere, type Vec3 } from "collide";
import * as THREE from "three";
import { arr, makeStage, marker, material, publish, readout, v3 } from "./common.js";

const wallHalf = { x: 0.01, y: 1.5, z: 1.5 };
const radius = 0.1;
const start = -4;
const perStep = 3; // units per step: 180 units/s at 60 steps per second

const world = new CollisionWorld({ broadphase: "tree" });
world.addBody({ shape: makeCuboid(wallHalf), pose: isometry.identity() });
const bullet = makeSphere(radius);
const lanes = [
  { z: -0.7, ccd: true, color: 0x50d070 },
  { z: 0.7, ccd: false, color: 0xff5050 },
].map((lane) => ({
  ...lane,
  handle: world.addBody({
    shape: bullet,
    pose: isometry.create({ x: start, y: 0, z: lane.z }),
    ccd: lane.ccd,
  }),
  mesh: new THREE.Mesh(new THREE.SphereGeometry(radius * 2, 16, 8), material(lane.color)),
}));

const stage = makeStage({ eye: [0, 4, 7] });
stage.scene.add(
  new THREE.Mesh(
    new THREE.BoxGeometry(2 * wallHalf.x, 2 * wallHalf.y, 2 * wallHalf.z),
    material(0x6f8fb0, 0.6),
  ),
);
for (const lane of lanes) stage.scene.add(lane.mesh);
const impactMarker = marker(0xffff40, 0.1);
impactMarker.visible = false;
stage.scene.add(impactMarker);

let x = start;
let step = 0;
let passes = 0;
let firstPass: Record<string, unknown> | null = null;
const seen = { impacts: [] as unknown[], discreteContacts: 0 };

function advance(): void {
  const before = x;
  x = x + perStep > 6 ? start : x + perStep;
  const restart = x === start;
  for (const lane of lanes) {
    // Moving back to the start is a teleport, not a sweep: switch CCD off for that step.
    if (restart && lane.ccd) world.setCcd(lane.handle, false);
    world.setPose(lane.handle, isometry.create({ x, y: 0, z: lane.z }));
    lane.mesh.position.set(x, 0, lane.z);
  }
  world.step();
  if (restart) {
    for (const lane of lanes) if (lane.ccd) world.setCcd(lane.handle, true);
    if (step > 0 && firstPass === null) firstPass = { ...seen };
    passes += step > 0 ? 1 : 0;
    seen.impacts = [];
    seen.discreteContacts = 0;
    impactMarker.visible = false;
  }
  step++;
  seen.discreteContacts += world.contactCount;
  const impacts = world.impacts();
  for (let i = 0; i < impacts.count; i++) {
    const hit = impacts.read(i);
    impactMarker.visible = true;
    impactMarker.position.copy(v3(hit.pointA));
    const from: Vec3 = { x: before, y: 0, z: lanes[0].z };
    seen.impacts.push({
      toi: hit.toi,
      normal: arr(hit.normal),
      // The same sweep as a query line: the bullet from its last pose with the step's displacement.
      query: {
        op: "castShapes",
        a: { type: "box", center: [0, 0, 0], halfExtents: arr(wallHalf) },
        velocityA: [0, 0, 0],
        b: { type: "sphere", center: arr(from), radius },
        velocityB: [x - before, 0, 0],
        maxToi: 1,
      },
    });
  }
  const firstToi = seen.impacts.length ? (seen.impacts[0] as { toi: number }).toi : null;
  readout(
    [
      `step ${step}, bullets at x = ${x.toFixed(2)}`,
      `green (ccd: true): ${seen.impacts.length} impact(s)${firstToi === null ? "" : `, toi ${firstToi.toFixed(4)} of the step`}`,
      `red (discrete only): ${seen.discreteContacts} contact(s) — it tunnels`,
    ].join("\n"),
  );
  publish({ ready: passes > 0, passes, step, current: { ...seen }, firstPass });
}

let clock = 0;
stage.onFrame.push((dt) => {
  clock += dt;
  if (clock >= 0.35) {
    clock = 0;
    advance();
  }
});
for (const lane of lanes) lane.mesh.position.set(x, 0, lane.z);
world.step();
