/**
 * The demo scene of `collide demo` and `collide view --demo`: the Stanford bunny as a triangle
 * mesh, the bunny as its convex hull and as four convex pieces, a rotated box platform, and a
 * seeded crowd of spheres, boxes, capsules, cylinders and small hulls that move through them.
 *
 * The response is deliberately simple — it shows the contacts' quality, not a physics engine:
 * each frame the world is stepped and every penetrating body is pushed out along the contact
 * normal by the depth (half each when both move) and its velocity reflected about the normal
 * (moving bodies of equal mass exchange their normal velocities). A few relaxation passes per
 * frame settle stacked contacts, and the deepest penetration left at the end is reported.
 */
import { LINEAR_SLOP } from "../constants.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import * as quat from "../math/quat.js";
import { makeRandom, type Random, uniform } from "../math/random.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { loadBunny } from "../node.js";
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

/** Options of the demo scene. */
export interface DemoSceneOptions {
  /** Moving bodies. @default 2000 */
  bodies: number;
  /** Seed of the crowd. @default 1 */
  seed: number;
}

/**
 * The deepest penetration the demo tolerates at the end of a run, scene units: twice Box2D's
 * linear slop, about 2 % of the smallest body.
 */
export const DEMO_PENETRATION_TOLERANCE = 2 * LINEAR_SLOP;

/** Frame time step of the demo, seconds. */
export const DEMO_TIME_STEP = 1 / 60;

/** Relaxation passes (step + push out) per frame. */
const RELAXATION_PASSES = 3;

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
  /** Deepest penetration after the frame's relaxation, scene units. */
  maxPenetration: number;
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

  constructor(options: Partial<DemoSceneOptions> = {}) {
    const n = options.bodies ?? 2000;
    const rng = makeRandom(options.seed ?? 1);
    this.world = new CollisionWorld({ broadphase: "tree", profile: true });
    const bunny = loadBunny();
    const addStatic = (name: string, shape: Shape, pose: Isometry) => {
      const handle = this.world.addBody({ shape, pose, userData: name });
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
      this.velocity.set(handle, vec3.scale(d, d, speed));
      i++;
    }
  }

  /** Number of moving bodies. */
  get movingBodies(): number {
    return this.dynamic.size;
  }

  /**
   * Advances one frame: moves the crowd by its velocity (reflecting at the region's walls), then
   * steps the world and pushes penetrating bodies out, a few relaxation passes.
   */
  frame(): DemoFrameStats {
    const t0 = performance.now();
    const w = this.world;
    for (const h of this.dynamic) {
      const handle = h as BodyHandle;
      const v = this.velocity.get(h) as Vec3;
      w.getPose(handle, this.pose);
      const t = this.pose.translation;
      vec3.addScaled(t, t, v, DEMO_TIME_STEP);
      for (const axis of ["x", "y", "z"] as const) {
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
    for (let pass = 0; pass < RELAXATION_PASSES; pass++) {
      w.step();
      const s = w.stats;
      broad += s.broadPhaseMs;
      narrow += s.narrowPhaseMs;
      if (pass === 0) {
        candidates = s.candidatePairs;
        contacts = s.contactPairs;
      }
      maxPenetration = this.resolve(pass === 0);
      if (maxPenetration === 0) break;
    }
    return {
      candidatePairs: candidates,
      contactPairs: contacts,
      broadMs: broad,
      narrowMs: narrow,
      totalMs: performance.now() - t0,
      maxPenetration,
    };
  }

  /**
   * Pushes every penetrating moving body out of what it touches (and reflects its velocity on
   * the first pass of a frame). Returns the deepest penetration found before pushing.
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
      deepest = Math.max(deepest, depth);
      const n = c.manifold.normal;
      const da = this.dynamic.has(c.a);
      const db = this.dynamic.has(c.b);
      if (!da && !db) continue;
      const share = da && db ? 0.5 : 1;
      if (da) this.addPush(c.a, n, -depth * share);
      if (db) this.addPush(c.b, n, depth * share);
      if (!reflect) continue;
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

  /** Accumulates the largest push per axis direction (so that two contacts don't double it). */
  private addPush(h: number, n: Vec3, amount: number): void {
    let p = this.push.get(h);
    if (!p) {
      p = vec3.create();
      this.push.set(h, p);
    }
    vec3.addScaled(p, p, n, amount);
  }

  /** The deepest penetration between any two bodies now (a fresh step), scene units. */
  measurePenetration(): number {
    const w = this.world;
    w.step();
    let deepest = 0;
    const c = this.contactScratch;
    for (let i = 0; i < w.contactCount; i++) {
      w.readContact(i, c);
      if (!this.dynamic.has(c.a) && !this.dynamic.has(c.b)) continue;
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
