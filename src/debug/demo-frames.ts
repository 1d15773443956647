/**
 * Frames of a moving scene for `collide view --demo`. A {@link DemoScene} is anything that owns
 * bodies (an id, a shape, a current world pose) and advances them one frame at a time,
 * reporting the contacts it found at the poses it started the frame with; {@link recordDemoFrames}
 * runs one and keeps every frame's poses and contacts for the viewer to play back.
 *
 * {@link makeDemoScene} is a small built-in scene — a few dozen spheres and boxes falling onto
 * a tilted box platform on a {@link CollisionWorld}, with the simplest response: push each
 * body out along the contact normal by the depth and reflect the normal velocity. The main
 * demo (`collide demo`) may replace it through the same interface.
 */
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { makeRandom, uniform } from "../math/random.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { makeCuboid } from "../shapes/cuboid.js";
import type { Shape } from "../shapes/shape.js";
import { makeSphere } from "../shapes/sphere.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { CollisionWorld } from "../world/collision-world.js";
import { makeWorldContact } from "../world/contact-cache.js";
import type { BodyHandle } from "../world/handles.js";

/** A body of a demo scene; `pose` is its current world pose (updated by `step`). */
export interface DemoBody {
  /** Unique id shown by the viewer. */
  readonly id: string;
  /** The shape, local frame. */
  readonly shape: Shape | TriangleMesh;
  /** Current world pose. */
  readonly pose: Isometry;
}

/** One contact of a demo frame, world frame; `a`, `b` are body indices (a < b). */
export interface DemoContact {
  a: number;
  b: number;
  /** Signed distance, scene units (negative: penetration). */
  distance: number;
  /** Unit normal from a toward b. */
  normal: Vec3;
  /** Manifold points: witnesses on a and b. */
  points: { pointA: Vec3; pointB: Vec3 }[];
}

/** A scene of moving bodies (see the module docs). */
export interface DemoScene {
  /** The bodies, in a fixed order; their poses change with `step`. */
  readonly bodies: readonly DemoBody[];
  /** Number of frames the scene is meant to run. */
  readonly frameCount: number;
  /** Finds the contacts at the current poses, responds, advances the poses by one frame. */
  step(): DemoContact[];
}

/** Options of {@link makeDemoScene}. */
export interface DemoSceneOptions {
  /** Falling bodies (half spheres, half boxes). @default 36 */
  bodies: number;
  /** Frames to run. @default 240 */
  frames: number;
  /** Seed of the bodies' sizes, places and rotations. @default 1 */
  seed: number;
}

/** Time step of the built-in demo, seconds. */
const DEMO_DT = 1 / 60;
/** Gravity of the built-in demo, scene units per second squared (metres: Earth's). */
const DEMO_GRAVITY = -9.81;
/** Fraction of the normal speed kept when a body bounces. */
const DEMO_RESTITUTION = 0.3;
/** Fraction of the tangential speed kept per frame of contact (a crude friction). */
const DEMO_TANGENT_KEEP = 0.9;
/** Tilt of the platform about the z axis, radians. */
const PLATFORM_TILT = 0.12;

/**
 * The built-in demo scene (see the module docs): a static box platform (half extents 6 × 0.5 × 6,
 * tilted by 0.12 rad) and `bodies` spheres and boxes dropped from 2–8 units above it. Runs on a
 * CollisionWorld with the dynamic tree. Deterministic for a given seed.
 */
export function makeDemoScene(options: Partial<DemoSceneOptions> = {}): DemoScene {
  const o: DemoSceneOptions = { bodies: 36, frames: 240, seed: 1, ...options };
  const rng = makeRandom(o.seed);
  const bodies: DemoBody[] = [];
  const velocity: Vec3[] = [];
  const dynamic: boolean[] = [];
  bodies.push({
    id: "platform",
    shape: makeCuboid({ x: 6, y: 0.5, z: 6 }),
    pose: iso.create(
      vec3.create(0, 0, 0),
      quat.fromAxisAngle(quat.identity(), { x: 0, y: 0, z: 1 }, PLATFORM_TILT),
    ),
  });
  velocity.push(vec3.create());
  dynamic.push(false);
  const side = Math.ceil(Math.sqrt(o.bodies));
  for (let i = 0; i < o.bodies; i++) {
    const gx = (i % side) - (side - 1) / 2;
    const gz = Math.floor(i / side) - (side - 1) / 2;
    const spacing = 8 / side;
    const t = vec3.create(
      gx * spacing + uniform(rng, -0.2, 0.2),
      uniform(rng, 2.5, 8),
      gz * spacing + uniform(rng, -0.2, 0.2),
    );
    if (i % 2 === 0) {
      bodies.push({
        id: `ball-${i}`,
        shape: makeSphere(uniform(rng, 0.25, 0.45)),
        pose: iso.create(t),
      });
    } else {
      const axis = vec3.create(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
      if (vec3.normalize(axis, axis) === 0) vec3.set(axis, 0, 1, 0);
      const h = uniform(rng, 0.2, 0.4);
      bodies.push({
        id: `box-${i}`,
        shape: makeCuboid({ x: h, y: uniform(rng, 0.2, 0.4), z: h }),
        pose: iso.create(t, quat.fromAxisAngle(quat.identity(), axis, uniform(rng, 0, Math.PI))),
      });
    }
    velocity.push(vec3.create(0, uniform(rng, -1, 0), 0));
    dynamic.push(true);
  }

  // Contacts in body order, a < b (DemoContact): no spatial reordering of the slots.
  const world = new CollisionWorld({
    broadphase: "tree",
    reorderSlotsAt: Number.POSITIVE_INFINITY,
  });
  const index = new Map<BodyHandle, number>();
  const handles: BodyHandle[] = bodies.map((b, i) => {
    const h = world.addBody({
      shape: b.shape as Shape,
      pose: b.pose,
      kind: dynamic[i] ? "dynamic" : "static",
    });
    index.set(h, i);
    return h;
  });
  const wc = makeWorldContact();
  const push = bodies.map(() => vec3.create());
  const dv = vec3.create();

  return {
    bodies,
    frameCount: o.frames,
    step(): DemoContact[] {
      for (let i = 0; i < bodies.length; i++) world.setPose(handles[i], bodies[i].pose);
      world.step();
      const contacts: DemoContact[] = [];
      for (const p of push) vec3.set(p, 0, 0, 0);
      for (let k = 0; k < world.contactCount; k++) {
        world.readContact(k, wc);
        let a = index.get(wc.a) as number;
        let b = index.get(wc.b) as number;
        const m = wc.manifold;
        const n = vec3.clone(m.normal);
        const points: DemoContact["points"] = [];
        for (let q = 0; q < m.count; q++) {
          points.push({
            pointA: vec3.clone(m.points[q].pointA),
            pointB: vec3.clone(m.points[q].pointB),
          });
        }
        if (a > b) {
          [a, b] = [b, a];
          vec3.negate(n, n);
          for (const p of points) [p.pointA, p.pointB] = [p.pointB, p.pointA];
        }
        contacts.push({ a, b, distance: wc.distance, normal: n, points });
        const depth = Math.max(0, -wc.distance);
        const share = dynamic[a] && dynamic[b] ? 0.5 : 1;
        // The normal points from a toward b: b moves along it, a against it.
        if (dynamic[b]) {
          vec3.addScaled(push[b], push[b], n, depth * share);
          respond(velocity[b], n, 1);
        }
        if (dynamic[a]) {
          vec3.addScaled(push[a], push[a], n, -depth * share);
          respond(velocity[a], n, -1);
        }
      }
      for (let i = 0; i < bodies.length; i++) {
        if (!dynamic[i]) continue;
        const v = velocity[i];
        v.y += DEMO_GRAVITY * DEMO_DT;
        const t = bodies[i].pose.translation;
        vec3.add(t, t, push[i]);
        vec3.addScaled(t, t, v, DEMO_DT);
      }
      return contacts;
    },
  };

  /** Reflects the part of v moving against `sign`·n (restitution) and damps the rest. */
  function respond(v: Vec3, n: Vec3, sign: number): void {
    const vn = sign * vec3.dot(v, n);
    if (vn >= 0) return;
    vec3.scale(dv, n, sign * vn);
    vec3.sub(v, v, dv);
    vec3.scale(v, v, DEMO_TANGENT_KEEP);
    vec3.addScaled(v, v, n, -sign * vn * DEMO_RESTITUTION);
  }
}

/** Recorded frames of a demo scene: per frame, 7 numbers per body and the contacts. */
export interface DemoFrames {
  /** The bodies (poses as of the first frame). */
  bodies: { id: string; shape: Shape | TriangleMesh }[];
  /** Per frame, tx, ty, tz, qx, qy, qz, qw for each body in order. */
  poses: Float64Array[];
  /** Per frame, the contacts found at that frame's poses. */
  contacts: DemoContact[][];
}

/**
 * Runs `scene` for `frames` frames (default its `frameCount`, at least 1) and records each
 * frame's poses — taken before the step — with the contacts the step found at them.
 */
export function recordDemoFrames(scene: DemoScene, frames: number = scene.frameCount): DemoFrames {
  const n = Math.max(1, Math.floor(frames));
  const out: DemoFrames = {
    bodies: scene.bodies.map((b) => ({ id: b.id, shape: b.shape })),
    poses: [],
    contacts: [],
  };
  for (let f = 0; f < n; f++) {
    const p = new Float64Array(7 * scene.bodies.length);
    scene.bodies.forEach((b, i) => {
      const t = b.pose.translation;
      const q = b.pose.rotation;
      p.set([t.x, t.y, t.z, q.x, q.y, q.z, q.w], 7 * i);
    });
    out.poses.push(p);
    out.contacts.push(scene.step());
  }
  return out;
}

/** The pose of body `i` in a frame's packed poses (allocates). */
export function framePose(poses: Float64Array, i: number): Isometry {
  const k = 7 * i;
  return {
    translation: { x: poses[k], y: poses[k + 1], z: poses[k + 2] },
    rotation: { x: poses[k + 3], y: poses[k + 4], z: poses[k + 5], w: poses[k + 6] },
  };
}
