/**
 * `prepareWorld` (src/world/prepare.ts) changes no answer: two worlds built alike — a packed slab
 * of static unit boxes (neighbours touching), a static half-space, moving spheres and boxes of
 * mixed sizes and rotations resting on and above the slab, a sensor, a filtered body and a `ccd`
 * body — one prepared and one not, stepped through the same random walk and teleports, report
 * bit for bit the same contacts (points, normals, distances, feature ids), events and pair
 * counts at every step; the oracle is the unprepared world. Also: the prepared world keeps its
 * bodies, poses and kinds, and worlds with no moving body, no static body or no body at all are
 * prepared without error.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BroadPhase } from "../../src/broadphase/broad-phase.js";
import { DynamicTree } from "../../src/broadphase/dynamic-tree.js";
import { makeRandom, randomRotation } from "../../src/math/random.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import {
  type BodyHandle,
  CollisionWorld,
  prepareWorld,
  type WorldContact,
} from "../../src/world/index.js";

function bits(x: number): string {
  const b = new Float64Array([x]);
  return Buffer.from(b.buffer).toString("hex");
}

function contactBits(c: WorldContact): string {
  const m = c.manifold;
  const p: string[] = [`${c.a}-${c.b}`, bits(c.distance), bits(m.normal.x), bits(m.normal.y)];
  p.push(bits(m.normal.z), String(m.count));
  for (let i = 0; i < m.count; i++) {
    const q = m.points[i];
    for (const v of [q.pointA, q.pointB]) p.push(bits(v.x), bits(v.y), bits(v.z));
    p.push(bits(q.distance), String(q.featureId));
  }
  return p.join(",");
}

/** Everything a world reports at a step, doubles as bit strings. */
function snapshot(w: CollisionWorld): string {
  const ev = w.events();
  const parts: string[] = [];
  for (const [name, list] of [
    ["begin", ev.begin],
    ["persist", ev.persist],
    ["end", ev.end],
  ] as const) {
    for (let i = 0; i < list.count; i++) {
      parts.push(`${name}:${list.a(i)}-${list.b(i)}:${list.isSensor(i) ? "s" : "c"}`);
    }
  }
  for (const c of w.contacts()) parts.push(contactBits(c));
  parts.push(`stats:${w.stats.candidatePairs}/${w.stats.filteredPairs}/${w.stats.contactPairs}`);
  return parts.join("\n");
}

interface Built {
  world: CollisionWorld;
  moving: BodyHandle[];
}

/** The scene of seed `seed`: an `nx` × `nz` × 2 slab, a half-space below it, `m` moving bodies. */
function build(
  seed: number,
  nx: number,
  nz: number,
  m: number,
  scale: number,
  broadphase?: BroadPhase,
): Built {
  const rng = makeRandom(seed);
  const world = new CollisionWorld({
    prediction: 0.01 * scale,
    ...(broadphase === undefined ? {} : { broadphase }),
  });
  const unit = makeCuboid({ x: 0.5 * scale, y: 0.5 * scale, z: 0.5 * scale });
  for (let y = 0; y < 2; y++) {
    for (let x = 0; x < nx; x++) {
      for (let z = 0; z < nz; z++) {
        world.addBody({
          shape: unit,
          pose: {
            translation: { x: x * scale, y: (y - 1) * scale, z: z * scale },
            rotation: { x: 0, y: 0, z: 0, w: 1 },
          },
          kind: "static",
        });
      }
    }
  }
  world.addBody({
    shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, -1.6 * scale),
    pose: { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
    kind: "static",
  });
  const moving: BodyHandle[] = [];
  for (let i = 0; i < m; i++) {
    const r = (0.25 + 0.45 * rng()) * scale;
    const shape =
      i % 2 === 0
        ? makeSphere(r)
        : makeCuboid({ x: r, y: r * (0.5 + rng()), z: r * (0.5 + rng()) });
    // Most rest on the slab's top (y = 0.5) within a fraction of their size; some float above.
    const y = i % 5 === 0 ? (1.5 + 2 * rng()) * scale : 0.5 * scale + r * (0.6 + 0.5 * rng());
    moving.push(
      world.addBody({
        shape,
        pose: {
          translation: { x: (nx - 1) * scale * rng(), y, z: (nz - 1) * scale * rng() },
          rotation: i % 3 === 0 ? { x: 0, y: 0, z: 0, w: 1 } : randomRotation(rng),
        },
        sensor: i === 3,
        layer: i === 5 ? 2 : 1,
        mask: i === 5 ? 1 : 0xffffffff,
        ccd: i === 7,
      }),
    );
  }
  return { world, moving };
}

/** Steps `a` and `b` alike through `steps` walk steps (a teleport every fifth), comparing. */
function stepBoth(a: Built, b: Built, seed: number, steps: number, scale: number): number {
  const rng = makeRandom(seed);
  const poses = new Float64Array(7 * a.moving.length);
  const pose = a.world.getPose(a.moving[0]);
  for (let i = 0; i < a.moving.length; i++) {
    a.world.getPose(a.moving[i], pose);
    poses.set(
      [
        pose.translation.x,
        pose.translation.y,
        pose.translation.z,
        pose.rotation.x,
        pose.rotation.y,
        pose.rotation.z,
        pose.rotation.w,
      ],
      7 * i,
    );
  }
  let contacts = 0;
  for (let s = 0; s < steps; s++) {
    if (s > 0) {
      for (let i = 0; i < a.moving.length; i++) {
        const teleport = s % 5 === 0 && i % 7 === s % 7;
        for (let j = 0; j < 3; j++) {
          poses[7 * i + j] += (teleport ? 3 : 0.05) * scale * (2 * rng() - 1);
        }
      }
      a.world.setPoses(a.moving, poses);
      b.world.setPoses(b.moving, poses);
    }
    a.world.step();
    b.world.step();
    expect(snapshot(b.world)).toBe(snapshot(a.world));
    contacts += a.world.contactCount;
  }
  return contacts;
}

describe("prepareWorld", () => {
  it("changes no contact, event or pair count of a level's steps", () => {
    const a = build(1, 16, 16, 80, 1);
    const b = build(1, 16, 16, 80, 1);
    expect(prepareWorld(b.world)).toBeGreaterThan(0);
    // The prepared world keeps its bodies, kinds and poses.
    expect(b.world.handles()).toEqual(a.world.handles());
    for (const h of a.world.handles()) {
      expect(b.world.getKind(h)).toBe(a.world.getKind(h));
      expect(b.world.getPose(h)).toEqual(a.world.getPose(h));
    }
    const contacts = stepBoth(a, b, 2, 12, 1);
    // The scene is a level: most moving bodies rest on the slab.
    expect(contacts).toBeGreaterThan(12 * 40);
  });

  it("leaves a running world's state untouched: events, contacts and pairs of its last step", () => {
    // Called between steps of a world that already has touching pairs (begin / persist events,
    // warm-start state), as a level loaded while another plays: what the world reports right
    // after the call is what it reported before it, and its next steps match an unprepared twin.
    const a = build(4, 12, 12, 60, 1);
    const b = build(4, 12, 12, 60, 1);
    stepBoth(a, b, 5, 3, 1);
    const before = snapshot(b.world);
    const count = b.world.contactCount;
    expect(count).toBeGreaterThan(0);
    expect(prepareWorld(b.world)).toBeGreaterThan(0);
    expect(snapshot(b.world)).toBe(before);
    expect(b.world.contactCount).toBe(count);
    stepBoth(a, b, 6, 8, 1);
  });

  it("leaves a world's own broad phase instance to that world alone", () => {
    // A BroadPhase instance given in the options is "used by this world only": the private
    // sample world must not add its bodies to it (they would be paired with the world's own).
    const a = build(7, 10, 10, 40, 1, new DynamicTree());
    const b = build(7, 10, 10, 40, 1, new DynamicTree());
    expect(prepareWorld(b.world)).toBeGreaterThan(0);
    stepBoth(a, b, 8, 6, 1);
  });

  it("changes no answer at any scale and seed (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.constantFrom(1e-6, 1e-3, 1, 1e3, 1e6),
        fc.integer({ min: 1, max: 40 }),
        (seed, scale, m) => {
          const a = build(seed, 6, 6, m, scale);
          const b = build(seed, 6, 6, m, scale);
          prepareWorld(b.world);
          stepBoth(a, b, seed + 1, 4, scale);
        },
      ),
      { numRuns: 12 },
    );
  });

  it("prepares worlds with no moving body, no static body or no body", () => {
    const statics = build(3, 8, 8, 0, 1);
    expect(prepareWorld(statics.world)).toBe(0);
    statics.world.step();
    expect(statics.world.contactCount).toBe(0);
    const moving = new CollisionWorld();
    moving.addBody({
      shape: makeSphere(1),
      pose: { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
    });
    moving.addBody({
      shape: makeSphere(1),
      pose: { translation: { x: 1.5, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
    });
    expect(prepareWorld(moving)).toBeGreaterThan(0);
    moving.step();
    expect(moving.contactCount).toBe(1);
    expect(prepareWorld(new CollisionWorld())).toBe(0);
  });
});
