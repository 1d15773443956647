/**
 * The demo scene of `collide demo` and `collide view --demo`: the Stanford bunny as a triangle
 * mesh, the bunny as its convex hull and as four convex pieces, a rotated box platform, and a
 * seeded crowd of spheres, boxes, capsules, cylinders and small hulls that move through them.
 * The model comes in as arrays ({@link DemoModel}), so the scene runs anywhere: the command
 * passes `loadBunny()` (src/models, Node), the viewer's Web Worker the arrays its server sent.
 *
 * The response is deliberately simple — it shows the contacts' quality, not a physics engine.
 * Each frame moves the crowd by its velocity, then runs up to {@link DEMO_RELAXATION_PASSES}
 * relaxation passes (step the world, push every penetrating moving body out along the contact
 * normal by the depth, half each when both move); the loop ends early once no pair with a
 * moving body is deeper than {@link DEMO_RELAXATION_TOLERANCE}. Pairs of two static bodies (the
 * bunny's overlapping convex pieces) never count: nothing can move them apart.
 *
 * Two modes. Without gravity the crowd drifts at constant speed, reflecting its velocity about
 * each contact normal (moving bodies of equal mass exchange their normal velocities) and at the
 * walls of its region. With gravity (`gravity: true`) the crowd starts at rest above the scene
 * and falls; the first pass of a frame applies the velocity response of the reference texts
 * (Ericson 2005, §5.x's sphere–plane example; Millington, *Game Physics Engine Development*,
 * ch. 7: an impulse along the normal with a restitution coefficient, position correction by
 * projection): the normal closing speed is reversed and scaled by {@link DEMO_RESTITUTION}
 * (zero below {@link DEMO_RESTING_SPEED}, so resting bodies do not jitter) and the tangential
 * speed is damped by {@link DEMO_FRICTION_KEEP} per frame of contact (and removed below the
 * resting speed, as static friction would hold it); bodies come to rest on the
 * platform, the bunny and each other. Bodies do not rotate.
 */
import { LINEAR_SLOP } from "../constants.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import * as quat from "../math/quat.js";
import { makeRandom, type Random, uniform } from "../math/random.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { makeCapsule } from "../shapes/capsule.js";
import { makeConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import { makeCuboid } from "../shapes/cuboid.js";
import { makeCylinder } from "../shapes/cylinder.js";
import type { Shape } from "../shapes/shape.js";
import { makeSphere } from "../shapes/sphere.js";
import { makeTriangleMesh } from "../shapes/triangle-mesh.js";
import { makeWorldContact } from "../world/contact-cache.js";
import type { BodyHandle } from "../world/handles.js";
import { CollisionWorld } from "../world/index.js";

/** The model of the demo: packed xyz vertex positions and vertex index triples (the bunny). */
export interface DemoModel {
  positions: Float64Array;
  cells: Uint32Array;
}

/** Options of the demo scene. */
export interface DemoSceneOptions {
  /** The model shown as a mesh, a hull and four hull pieces (`loadBunny()` on Node). */
  model: DemoModel;
  /** Moving bodies. @default 2000 */
  bodies: number;
  /** Seed of the crowd. @default 1 */
  seed: number;
  /** Let the crowd fall under gravity and come to rest (see the module docs). @default false */
  gravity: boolean;
}

/**
 * The deepest penetration the demo tolerates at the end of a run, scene units: twice Box2D's
 * linear slop, about 2 % of the smallest body.
 */
export const DEMO_PENETRATION_TOLERANCE = 2 * LINEAR_SLOP;

/** Frame time step of the demo, seconds. */
export const DEMO_TIME_STEP = 1 / 60;

/** Most relaxation passes (step + push out) per frame. @default 3 */
export const DEMO_RELAXATION_PASSES = 3;

/**
 * A frame's relaxation ends early once no pair with a moving body is deeper than this, scene
 * units: Box2D's linear slop (a penetration that is numerically significant, visually not).
 */
export const DEMO_RELAXATION_TOLERANCE = LINEAR_SLOP;

/** Gravity of the `gravity` mode along −y, scene units per second squared (Earth's, in metres). */
export const DEMO_GRAVITY = 9.81;

/** Fraction of the normal closing speed a body bounces back with (`gravity` mode). @default 0.35 */
export const DEMO_RESTITUTION = 0.35;

/**
 * Closing speeds below this do not bounce (`gravity` mode), scene units per second: one frame of
 * gravity's speed gain times ten, so that a resting body's per-frame sag is absorbed, not
 * reflected (Box2D's restitution threshold plays the same part).
 */
export const DEMO_RESTING_SPEED = (10 * DEMO_GRAVITY) / 60;

/** Fraction of the tangential speed kept per frame in contact (`gravity` mode; a crude friction). */
export const DEMO_FRICTION_KEEP = 0.85;

/** Half extents of the region the crowd moves in (walls reflect the centres). */
const REGION_MIN = vec3.create(-24, 0.2, -9);
const REGION_MAX = vec3.create(24, 16, 9);

/** One body of the scene, for drawing. */
export interface DemoBody {
  handle: BodyHandle;
  name: string;
  shape: Shape;
  dynamic: boolean;
}

/** Statistics of one frame. */
export interface DemoFrameStats {
  candidatePairs: number;
  contactPairs: number;
  broadMs: number;
  narrowMs: number;
  totalMs: number;
  /**
   * Deepest penetration of a pair with a moving body at the frame's last relaxation pass
   * (before its push), scene units; static pairs never count.
   */
  maxPenetration: number;
  /** Relaxation passes the frame ran, 1 to {@link DEMO_RELAXATION_PASSES}. */
  passes: number;
}

/** A rotation by `angle` radians about unit `axis` (scene set-up only). */
function rotation(axis: Vec3, angle: number): Quat {
  return quat.fromAxisAngle(quat.identity(), axis, angle);
}

function randomRotation(rng: Random): Quat {
  for (;;) {
    const q = { x: rng() * 2 - 1, y: rng() * 2 - 1, z: rng() * 2 - 1, w: rng() * 2 - 1 };
    const l = Math.hypot(q.x, q.y, q.z, q.w);
    if (l > 0.1 && l <= 1) return { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l };
  }
}

function randomShape(rng: Random, i: number): Shape {
  const s = uniform(rng, 0.25, 0.5);
  switch (i % 5) {
    case 0:
      return makeSphere(s);
    case 1:
      return makeCuboid(vec3.create(s, s * 0.7, s * 0.5));
    case 2:
      return makeCapsule(vec3.create(0, -s * 0.6, 0), vec3.create(0, s * 0.6, 0), s * 0.5);
    case 3:
      return makeCylinder(s * 0.6, s * 0.7);
    default: {
      const pts: Vec3[] = [];
      for (let k = 0; k < 10; k++) {
        pts.push(vec3.create(uniform(rng, -s, s), uniform(rng, -s, s), uniform(rng, -s, s)));
      }
      pts.push(
        vec3.create(s, 0, 0),
        vec3.create(-s, 0, 0),
        vec3.create(0, s, 0),
        vec3.create(0, 0, s),
      );
      return makeConvexPolyhedron(pts);
    }
  }
}

/** The bunny's vertices split into four overlapping quadrants (in x and z), each hulled. */
function bunnyPieces(positions: Float64Array): Float64Array[] {
  let cx = 0;
  let cz = 0;
  const n = positions.length / 3;
  for (let i = 0; i < n; i++) {
    cx += positions[3 * i];
    cz += positions[3 * i + 2];
  }
  cx /= n;
  cz /= n;
  const overlap = 0.4;
  const parts: number[][] = [[], [], [], []];
  for (let i = 0; i < n; i++) {
    const x = positions[3 * i];
    const z = positions[3 * i + 2];
    for (let q = 0; q < 4; q++) {
      const sx = q & 1 ? 1 : -1;
      const sz = q & 2 ? 1 : -1;
      if ((x - cx) * sx >= -overlap && (z - cz) * sz >= -overlap) {
        parts[q].push(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
      }
    }
  }
  return parts.map((p) => Float64Array.from(p));
}

/**
 * The demo: a collision world with the static scene and the moving crowd, advanced one frame at
 * a time by {@link DemoScene.frame}.
 */
export class DemoScene {
  readonly world: CollisionWorld;
  readonly bodies: DemoBody[] = [];
  /** Velocity of each moving body, by handle, scene units per second. */
  private readonly velocity = new Map<number, Vec3>();
  private readonly dynamic = new Set<number>();
  private readonly pose = iso.identity();
  private readonly push = new Map<number, Vec3>();
  /** True in the `gravity` mode. */
  readonly gravity: boolean;
  /** A body held in place by the caller (the viewer's drag), or −1. */
  private held = -1;

  constructor(options: Partial<DemoSceneOptions> & { model: DemoModel }) {
    const n = options.bodies ?? 2000;
    const rng = makeRandom(options.seed ?? 1);
    this.gravity = options.gravity === true;
    this.world = new CollisionWorld({ broadphase: "tree", profile: true });
    const bunny = options.model;
    const addStatic = (name: string, shape: Shape, pose: Isometry) => {
      // Static: the scenery's constant overlaps (the pieces inside the platform) are no
      // contacts, and the world skips static–static pairs.
      const handle = this.world.addBody({ shape, pose, userData: name, kind: "static" });
      this.bodies.push({ handle, name, shape, dynamic: false });
    };
    addStatic(
      "platform",
      makeCuboid(vec3.create(26, 0.5, 10)),
      iso.create(vec3.create(0, -0.6, 0), rotation(vec3.create(0, 0, 1), 0.02)),
    );
    addStatic("bunny (mesh)", makeTriangleMesh(bunny.positions, bunny.cells), iso.identity());
    addStatic(
      "bunny (convex hull)",
      makeConvexPolyhedron(bunny.positions),
      iso.create(vec3.create(-14, 0, 0)),
    );
    bunnyPieces(bunny.positions).forEach((p, q) => {
      addStatic(
        `bunny piece ${q + 1} (hull)`,
        makeConvexPolyhedron(p),
        iso.create(vec3.create(14, 0, 0)),
      );
    });

    // The crowd: placed where it touches nothing, with random velocities.
    const found: BodyHandle[] = [];
    let attempts = 0;
    for (let i = 0; this.dynamic.size < n && attempts < 50 * n; attempts++) {
      const shape = randomShape(rng, i);
      const pose = iso.create(
        vec3.create(
          uniform(rng, REGION_MIN.x, REGION_MAX.x),
          uniform(rng, REGION_MIN.y + 0.5, REGION_MAX.y),
          uniform(rng, REGION_MIN.z, REGION_MAX.z),
        ),
        randomRotation(rng),
      );
      found.length = 0;
      if (this.world.overlapShape(shape, pose, found).length > 0) continue;
      const handle = this.world.addBody({ shape, pose, userData: `body ${i}` });
      this.bodies.push({ handle, name: `body ${i}`, shape, dynamic: true });
      this.dynamic.add(handle);
      const speed = uniform(rng, 1, 4);
      const d = vec3.create(rng() - 0.5, rng() - 0.5, rng() - 0.5);
      if (vec3.normalize(d, d) === 0) vec3.set(d, 1, 0, 0);
      // Under gravity the crowd starts at rest and falls (the same seed draws the same places).
      this.velocity.set(handle, this.gravity ? vec3.create() : vec3.scale(d, d, speed));
      i++;
    }
  }

  /** Number of moving bodies. */
  get movingBodies(): number {
    return this.dynamic.size;
  }

  /** out = the velocity of body `handle`, scene units per second (zero for a static body). */
  velocityOf(handle: BodyHandle, out: Vec3 = vec3.create()): Vec3 {
    const v = this.velocity.get(handle);
    return v ? vec3.copy(out, v) : vec3.set(out, 0, 0, 0);
  }

  /** True when body `handle` moves (part of the crowd). */
  isMoving(handle: BodyHandle): boolean {
    return this.dynamic.has(handle);
  }

  /**
   * Holds body `handle` where the caller puts it (with `world.setPose`): it no longer moves by
   * itself nor is pushed, and others are pushed out of it as out of a static body. `null`
   * releases it, at rest. The viewer's drag uses this.
   */
  hold(handle: BodyHandle | null): void {
    if (this.held >= 0) {
      const v = this.velocity.get(this.held);
      if (v) vec3.set(v, 0, 0, 0);
    }
    this.held = handle === null ? -1 : handle;
  }

  /** True when body `h` is moved by the scene (a crowd body that is not held). */
  private moves(h: number): boolean {
    return h !== this.held && this.dynamic.has(h);
  }

  /**
   * Advances one frame: moves the crowd by its velocity (with gravity, accelerated first;
   * reflected at the region's walls), then steps the world and pushes penetrating bodies out,
   * up to {@link DEMO_RELAXATION_PASSES} relaxation passes (see the module docs).
   */
  frame(): DemoFrameStats {
    const t0 = performance.now();
    const w = this.world;
    for (const h of this.dynamic) {
      if (h === this.held) continue;
      const handle = h as BodyHandle;
      const v = this.velocity.get(h) as Vec3;
      if (this.gravity) v.y -= DEMO_GRAVITY * DEMO_TIME_STEP;
      w.getPose(handle, this.pose);
      const t = this.pose.translation;
      vec3.addScaled(t, t, v, DEMO_TIME_STEP);
      for (const axis of ["x", "y", "z"] as const) {
        // Under gravity the platform is the floor: only the side walls reflect.
        if (this.gravity && axis === "y") continue;
        if (t[axis] < REGION_MIN[axis] && v[axis] < 0) v[axis] = -v[axis];
        if (t[axis] > REGION_MAX[axis] && v[axis] > 0) v[axis] = -v[axis];
      }
      w.setPose(handle, this.pose);
    }
    let broad = 0;
    let narrow = 0;
    let candidates = 0;
    let contacts = 0;
    let maxPenetration = 0;
    let passes = 0;
    for (let pass = 0; pass < DEMO_RELAXATION_PASSES; pass++) {
      w.step();
      passes++;
      const s = w.stats;
      broad += s.broadPhaseMs;
      narrow += s.narrowPhaseMs;
      if (pass === 0) {
        candidates = s.candidatePairs;
        contacts = s.contactPairs;
      }
      maxPenetration = this.resolve(pass === 0);
      if (maxPenetration <= DEMO_RELAXATION_TOLERANCE) break;
    }
    return {
      passes,
      candidatePairs: candidates,
      contactPairs: contacts,
      broadMs: broad,
      narrowMs: narrow,
      totalMs: performance.now() - t0,
      maxPenetration,
    };
  }

  /**
   * Pushes every penetrating moving body out of what it touches (and responds with its velocity
   * on the first pass of a frame). Returns the deepest penetration found before pushing among
   * the pairs with a moving body.
   */
  private resolve(reflect: boolean): number {
    const w = this.world;
    let deepest = 0;
    this.push.clear();
    const count = w.contactCount;
    const c = this.contactScratch;
    for (let i = 0; i < count; i++) {
      w.readContact(i, c);
      const depth = -c.distance;
      if (!(depth > 0)) continue;
      const n = c.manifold.normal;
      const da = this.moves(c.a);
      const db = this.moves(c.b);
      if (!da && !db) continue;
      deepest = Math.max(deepest, depth);
      const share = da && db ? 0.5 : 1;
      if (da) this.addPush(c.a, n, -depth * share);
      if (db) this.addPush(c.b, n, depth * share);
      if (!reflect) continue;
      if (this.gravity) {
        this.respondGravity(da ? c.a : -1, db ? c.b : -1, n);
        continue;
      }
      const va = da ? (this.velocity.get(c.a) as Vec3) : null;
      const vb = db ? (this.velocity.get(c.b) as Vec3) : null;
      const an = va ? vec3.dot(va, n) : 0;
      const bn = vb ? vec3.dot(vb, n) : 0;
      if (an - bn <= 0) continue; // separating already
      if (va && vb) {
        vec3.addScaled(va, va, n, bn - an);
        vec3.addScaled(vb, vb, n, an - bn);
      } else if (va) {
        vec3.addScaled(va, va, n, -2 * an);
      } else if (vb) {
        vec3.addScaled(vb, vb, n, -2 * bn);
      }
    }
    for (const [h, d] of this.push) {
      const handle = h as BodyHandle;
      w.getPose(handle, this.pose);
      vec3.add(this.pose.translation, this.pose.translation, d);
      w.setPose(handle, this.pose);
    }
    return deepest;
  }

  private readonly contactScratch = makeWorldContact();
  private readonly relative = vec3.create();
  private readonly tangent = vec3.create();

  /**
   * The `gravity` mode's velocity response of one contact with unit normal `n` from a toward b
   * (`a` or `b` is −1 when that side does not move): the relative normal closing speed is
   * reversed times {@link DEMO_RESTITUTION} (zero below {@link DEMO_RESTING_SPEED}), split by
   * equal masses; the tangential relative speed is damped by {@link DEMO_FRICTION_KEEP}.
   */
  private respondGravity(a: number, b: number, n: Vec3): void {
    const va = a >= 0 ? (this.velocity.get(a) as Vec3) : null;
    const vb = b >= 0 ? (this.velocity.get(b) as Vec3) : null;
    const rel = this.relative;
    vec3.set(rel, 0, 0, 0);
    if (vb) vec3.add(rel, rel, vb);
    if (va) vec3.sub(rel, rel, va);
    const vn = vec3.dot(rel, n); // < 0: b closes on a
    if (vn >= 0) return;
    const bounce = -vn > DEMO_RESTING_SPEED ? DEMO_RESTITUTION : 0;
    const dn = -(1 + bounce) * vn; // change of the relative normal speed
    vec3.addScaled(this.tangent, rel, n, -vn);
    // Fraction of the tangential speed removed: all of it below the resting speed (the body
    // sticks, as static friction holds it), else the per-frame damping.
    const dt = vec3.length(this.tangent) < DEMO_RESTING_SPEED ? 1 : 1 - DEMO_FRICTION_KEEP;
    const share = va && vb ? 0.5 : 1;
    if (vb) {
      vec3.addScaled(vb, vb, n, dn * share);
      vec3.addScaled(vb, vb, this.tangent, -dt * share);
    }
    if (va) {
      vec3.addScaled(va, va, n, -dn * share);
      vec3.addScaled(va, va, this.tangent, dt * share);
    }
  }

  /** Accumulates the largest push per axis direction (so that two contacts don't double it). */
  private addPush(h: number, n: Vec3, amount: number): void {
    let p = this.push.get(h);
    if (!p) {
      p = vec3.create();
      this.push.set(h, p);
    }
    vec3.addScaled(p, p, n, amount);
  }

  /** The deepest penetration of a pair with a moving body now (a fresh step), scene units. */
  measurePenetration(): number {
    const w = this.world;
    w.step();
    let deepest = 0;
    const c = this.contactScratch;
    for (let i = 0; i < w.contactCount; i++) {
      w.readContact(i, c);
      if (!this.moves(c.a) && !this.moves(c.b)) continue;
      deepest = Math.max(deepest, -c.distance);
    }
    return deepest;
  }

  /** Settles the crowd at the end of a run: relaxation passes until no penetration is left. */
  settle(maxPasses = 20): number {
    for (let pass = 0; pass < maxPasses; pass++) {
      this.world.step();
      if (this.resolve(false) <= DEMO_PENETRATION_TOLERANCE / 2) break;
    }
    return this.measurePenetration();
  }
}
