/**
 * The contact cache packs its records (src/world/core/pair-cache.ts): each takes the header and
 * the points its manifold has, one after the other. A world stepped over frames in which some
 * bodies move and others stay put (their pairs carried over from the last frame's packed
 * records) reports, at every step, bitwise the contacts of a fresh world built on the same poses
 * and stepped once (every pair computed, nothing carried: the oracle) — on stacks of boxes (4-
 * point face manifolds), boxes on edges (2 points), spheres (1 point) and static bodies, so that
 * records of every length sit side by side and are skipped and copied by the carry.
 */
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import {
  type BodyHandle,
  CollisionWorld,
  makeWorldContact,
  type WorldContact,
} from "../../src/world/index.js";

interface Body {
  shape: Shape;
  pose: Isometry;
  kind: "static" | "dynamic";
}

const S = Math.SQRT1_2;

/** Columns of three boxes resting face on face, a box on an edge, spheres between them. */
function scene(): Body[] {
  const out: Body[] = [];
  const box = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
  for (let c = 0; c < 6; c++) {
    const x = 3 * c;
    out.push({ shape: box, pose: at(x, -0.5, 0), kind: "static" });
    out.push({ shape: box, pose: at(x, 0.5, 0), kind: "dynamic" });
    out.push({ shape: box, pose: at(x + 0.2, 1.5, 0.1), kind: "dynamic" });
    // A box turned 45° about z resting on its edge (2 points), a sphere touching a face.
    out.push({
      shape: box,
      pose: at(x, 2.0 + S, 0, { x: 0, y: 0, z: Math.sin(Math.PI / 8), w: Math.cos(Math.PI / 8) }),
      kind: "dynamic",
    });
    out.push({ shape: makeSphere(0.4), pose: at(x + 0.9, 0.5, 0), kind: "dynamic" });
    out.push({ shape: makeSphere(0.3), pose: at(x - 0.79, -0.5, 0), kind: "dynamic" });
  }
  return out;
}

function at(x: number, y: number, z: number, rotation = { x: 0, y: 0, z: 0, w: 1 }): Isometry {
  return { translation: { x, y, z }, rotation };
}

function contacts(world: CollisionWorld): WorldContact[] {
  const out: WorldContact[] = [];
  for (let i = 0; i < world.contactCount; i++) out.push(world.readContact(i, makeWorldContact()));
  return out;
}

function fresh(bodies: Body[]): CollisionWorld {
  const w = new CollisionWorld({ prediction: 0.01 });
  for (const b of bodies) w.addBody({ shape: b.shape, pose: b.pose, kind: b.kind });
  w.step();
  return w;
}

describe("packed contact records", () => {
  it("a world carrying pairs over frames reports bitwise a fresh world's contacts, records of 1, 2 and 4 points side by side", () => {
    const bodies = scene();
    const world = new CollisionWorld({ prediction: 0.01 });
    const handles: BodyHandle[] = bodies.map((b) =>
      world.addBody({ shape: b.shape, pose: b.pose, kind: b.kind }),
    );
    const rng = makeRandom(18);
    const counts = new Set<number>();
    for (let step = 0; step < 12; step++) {
      if (step > 0) {
        // Some frames move nothing; others move a few bodies by a hair (their pairs are
        // recomputed while their neighbours' are carried).
        for (let i = 0; i < bodies.length; i++) {
          if (bodies[i].kind === "static" || step % 4 === 3 || rng() < 0.7) continue;
          const t = bodies[i].pose.translation;
          const p = at(
            t.x + 0.002 * (rng() - 0.5),
            t.y,
            t.z + 0.002 * (rng() - 0.5),
            bodies[i].pose.rotation,
          );
          bodies[i] = { ...bodies[i], pose: p };
          world.setPose(handles[i], p);
        }
      }
      world.step();
      const got = contacts(world);
      const want = contacts(fresh(bodies));
      expect(got.length).toBe(want.length);
      for (let i = 0; i < got.length; i++) {
        counts.add(got[i].manifold.count);
        const m = got[i].manifold;
        const n = want[i].manifold;
        expect([got[i].a, got[i].b, got[i].distance, m.count]).toEqual([
          want[i].a,
          want[i].b,
          want[i].distance,
          n.count,
        ]);
        expect([m.normal.x, m.normal.y, m.normal.z]).toEqual([n.normal.x, n.normal.y, n.normal.z]);
        for (let q = 0; q < m.count; q++) {
          expect(m.points[q]).toEqual(n.points[q]);
        }
      }
    }
    // Records of one, two and four points were all there.
    expect([1, 2, 4].every((c) => counts.has(c))).toBe(true);
  });
});
