/**
 * The world's sweeps and rays against composite bodies — a heightfield, a triangle mesh and a
 * compound — over many poses (issue 14, item 3: no body skipped, every answer right).
 *
 * Oracle, independent of the conservative advancement and of the composite mid-phase: brute
 * force over the parts. Each part (a triangle of the terrain or of the soup, written out here
 * from the heights and the indices; a compound's child) is convex, so the signed gap of a sphere
 * moving on a line to it is a convex function of time (the signed distance of a point moving on
 * a line to a convex set, the Minkowski difference): its minimum by ternary search, its first
 * root by bisection, with the `contact` query of the sphere and that one part. The body's time
 * of impact is the smallest over its parts. Rays: Möller–Trumbore over every triangle (Möller &
 * Trumbore 1997). Grazing cases (a part's smallest gap within 1e-4 of zero) are left out.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom, randomRotation } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import {
  makeCompound,
  makeCuboid,
  makeHeightfield,
  makeSphere,
  makeTriangle,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { ConvexShape, Shape } from "../../src/shapes/shape.js";
import { castShape } from "../../src/world/cast-shape.js";
import { CollisionWorld, type WorldBroadPhase } from "../../src/world/collision-world.js";
import { castRayClosest } from "../../src/world/ray-cast.js";

const AMBIGUOUS_GAP = 1e-4;
const TOI_TOLERANCE = 1e-6;
const BROAD_PHASES: WorldBroadPhase[] = ["brute", "sap", "grid", "tree"];

/** A convex part of a body in the world frame: its shape and pose. */
interface Part {
  shape: ConvexShape;
  pose: Isometry;
}

interface Body {
  shape: Shape;
  pose: Isometry;
  /** The body's convex parts, world frame. */
  parts: Part[];
}

const IDENTITY = iso.identity();

function worldTriangle(pose: Isometry, a: Vec3, b: Vec3, c: Vec3): Part {
  const w = (p: Vec3) => iso.transformPoint(vec3.create(), pose, p);
  return { shape: makeTriangle(w(a), w(b), w(c)), pose: IDENTITY };
}

/** A random terrain of rows × cols heights at `pose`, with its triangles from the heights. */
function terrain(rng: () => number, pose: Isometry): Body {
  const rows = 6;
  const cols = 5;
  const heights = new Float64Array(rows * cols);
  for (let i = 0; i < heights.length; i++) heights[i] = rng() - 0.5;
  const sx = 0.9;
  const sy = 1.3;
  const sz = 0.8;
  const shape = makeHeightfield({ rows, cols, heights, scale: { x: sx, y: sy, z: sz } });
  // Vertex (r, c) at (c·sx, h·sy, r·sz); cell (r, c) split along v00–v11 (docs/FORMATS.md).
  const v = (r: number, c: number) => vec3.create(c * sx, heights[r * cols + c] * sy, r * sz);
  const parts: Part[] = [];
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      parts.push(worldTriangle(pose, v(r, c), v(r + 1, c), v(r + 1, c + 1)));
      parts.push(worldTriangle(pose, v(r, c), v(r + 1, c + 1), v(r, c + 1)));
    }
  }
  return { shape, pose, parts };
}

/** A soup of `n` random triangles at `pose`. */
function soup(rng: () => number, pose: Isometry, n: number): Body {
  const verts: number[] = [];
  const idx: number[] = [];
  const parts: Part[] = [];
  for (let t = 0; t < n; t++) {
    const c = [rng() - 0.5, rng() - 0.5, rng() - 0.5].map((x) => 3 * x);
    const corners: Vec3[] = [];
    for (let k = 0; k < 3; k++) {
      const p = vec3.create(c[0] + rng() - 0.5, c[1] + rng() - 0.5, c[2] + rng() - 0.5);
      corners.push(p);
      verts.push(p.x, p.y, p.z);
      idx.push(3 * t + k);
    }
    parts.push(worldTriangle(pose, corners[0], corners[1], corners[2]));
  }
  return { shape: makeTriangleMesh(verts, idx), pose, parts };
}

/** A compound of a sphere and a cuboid at `pose`. */
function compound(pose: Isometry): Body {
  const children = [
    {
      shape: makeSphere(0.4),
      pose: iso.create({ x: 0, y: 0.5, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }),
    },
    {
      shape: makeCuboid({ x: 0.3, y: 0.2, z: 0.6 }),
      pose: iso.create({ x: 0.5, y: 0, z: 0 }, { x: 0, y: 0.6, z: 0, w: 0.8 }),
    },
  ];
  const parts = children.map((ch) => ({
    shape: ch.shape as ConvexShape,
    pose: iso.multiply(iso.identity(), pose, ch.pose),
  }));
  return { shape: makeCompound(children), pose, parts };
}

function randomPose(rng: () => number, spread: number): Isometry {
  const t = vec3.create((rng() - 0.5) * spread, (rng() - 0.5) * spread, (rng() - 0.5) * spread);
  return iso.create(t, randomRotation(rng));
}

/** {minGap, first root} of the convex gap g over t ∈ [0, 1] (root null when no contact). */
function firstRoot(g: (t: number) => number): { minGap: number; toi: number | null } {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 100; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (g(m1) <= g(m2)) hi = m2;
    else lo = m1;
  }
  let tMin = (lo + hi) / 2;
  if (g(0) <= g(tMin)) tMin = 0;
  const minGap = g(tMin);
  if (minGap > 0) return { minGap, toi: null };
  if (g(0) <= 0) return { minGap, toi: 0 };
  let a = 0;
  let b = tMin;
  for (let i = 0; i < 100; i++) {
    const m = (a + b) / 2;
    if (g(m) > 0) a = m;
    else b = m;
  }
  return { minGap, toi: b };
}

/**
 * The brute-force time of impact of sphere `s` moving from `p0` by `v` (t ∈ [0, 1]) with body
 * `b`: the smallest first root over its parts; `ambiguous` when some part grazes.
 */
function bodyToi(
  s: ConvexShape,
  p0: Isometry,
  v: Vec3,
  b: Body,
): { toi: number | null; ambiguous: boolean } {
  let best: number | null = null;
  let ambiguous = false;
  const pose = iso.identity();
  for (const part of b.parts) {
    const g = (t: number) => {
      vec3.addScaled(pose.translation, p0.translation, v, t);
      pose.rotation = p0.rotation;
      const c = contact(s, pose, part.shape, part.pose, Infinity);
      return (c as { distance: number }).distance;
    };
    const r = firstRoot(g);
    if (Math.abs(r.minGap) <= AMBIGUOUS_GAP) ambiguous = true;
    if (r.toi !== null && (best === null || r.toi < best)) best = r.toi;
  }
  return { toi: best, ambiguous };
}

/** A rotation near the identity (a terrain tilted a little, turned about y). */
function nearIdentity(rng: () => number): { x: number; y: number; z: number; w: number } {
  const q = { x: 0.2 * (rng() - 0.5), y: rng() - 0.5, z: 0.2 * (rng() - 0.5), w: 1 };
  const n = Math.hypot(q.x, q.y, q.z, q.w);
  return { x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n };
}

function scene(seed: number): Body[] {
  const rng = makeRandom(seed);
  return [
    terrain(rng, iso.create({ x: -1.8, y: -1, z: -2 }, nearIdentity(rng))),
    soup(rng, randomPose(rng, 3), 8),
    compound(randomPose(rng, 3)),
  ];
}

describe("world castShape against a heightfield, a mesh and a compound (brute force over parts)", () => {
  it("the first body and its time of impact, over many poses and every broad phase", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 3 }), (seed, k) => {
        const bodies = scene(seed);
        const rng = makeRandom(seed ^ 0x5bd1e995);
        const w = new CollisionWorld({ broadphase: BROAD_PHASES[k] });
        const handles = bodies.map((b) => w.addBody({ shape: b.shape, pose: b.pose }));
        const sphere = makeSphere(0.2);
        const start = iso.create(
          vec3.create((rng() - 0.5) * 8, 2 + rng() * 2, (rng() - 0.5) * 8),
          iso.identity().rotation,
        );
        const target = vec3.create((rng() - 0.5) * 4, -1 - rng(), (rng() - 0.5) * 4);
        const v = vec3.sub(vec3.create(), target, start.translation);
        let best: number | null = null;
        let bestHandle = 0;
        for (let i = 0; i < bodies.length; i++) {
          const o = bodyToi(sphere, start, v, bodies[i]);
          if (o.ambiguous) return;
          if (o.toi !== null && (best === null || o.toi < best - TOI_TOLERANCE)) {
            best = o.toi;
            bestHandle = handles[i];
          }
        }
        const got = castShape(w, sphere, start, v, 1);
        if (best === null) {
          expect(got).toBeNull();
          return;
        }
        expect(got).not.toBeNull();
        expect(Math.abs((got?.toi ?? -1) - best)).toBeLessThanOrEqual(TOI_TOLERANCE);
        // Two bodies hit within the tolerance of each other may come in either order.
        const other = bodies.findIndex((b, i) => {
          if (handles[i] === bestHandle) return false;
          const t = bodyToi(sphere, start, v, b).toi;
          return t !== null && Math.abs(t - best!) <= TOI_TOLERANCE;
        });
        if (other < 0) expect(got?.handle).toBe(bestHandle);
      }),
      { numRuns: 25 },
    );
  });
});

describe("world CCD against a heightfield, a mesh and a compound (brute force over parts)", () => {
  it("a fast sphere's impacts are those of the oracle, at its times", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 3 }), (seed, k) => {
        const bodies = scene(seed);
        const rng = makeRandom(seed ^ 0x27d4eb2f);
        const w = new CollisionWorld({ broadphase: BROAD_PHASES[k] });
        const handles = bodies.map((b) => w.addBody({ shape: b.shape, pose: b.pose }));
        const sphere = makeSphere(0.15);
        const p0 = iso.create(
          vec3.create((rng() - 0.5) * 8, 2.5 + rng() * 2, (rng() - 0.5) * 8),
          iso.identity().rotation,
        );
        const p1 = iso.create(
          vec3.create((rng() - 0.5) * 6, -2 - rng() * 2, (rng() - 0.5) * 6),
          iso.identity().rotation,
        );
        const v = vec3.sub(vec3.create(), p1.translation, p0.translation);
        const oracle = bodies.map((b) => bodyToi(sphere, p0, v, b));
        if (oracle.some((o) => o.ambiguous)) return;
        const fast = w.addBody({ shape: sphere, pose: p0, ccd: true });
        w.step();
        w.setPose(fast, p1);
        w.step();
        const impacts = w.impacts().toArray();
        for (let i = 0; i < bodies.length; i++) {
          const hit = impacts.find((m) => m.a === handles[i] || m.b === handles[i]);
          const want = oracle[i].toi;
          if (want === null) expect(hit).toBeUndefined();
          else {
            expect(hit).toBeDefined();
            expect(Math.abs((hit?.toi ?? -1) - want)).toBeLessThanOrEqual(TOI_TOLERANCE);
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});

/** Möller–Trumbore: the ray parameter of o + t·d hitting triangle (a, b, c), or null. */
function rayTriangle(o: Vec3, d: Vec3, a: Vec3, b: Vec3, c: Vec3): number | null {
  const e1 = vec3.sub(vec3.create(), b, a);
  const e2 = vec3.sub(vec3.create(), c, a);
  const p = vec3.cross(vec3.create(), d, e2);
  const det = vec3.dot(e1, p);
  if (Math.abs(det) < 1e-14) return null;
  const inv = 1 / det;
  const s = vec3.sub(vec3.create(), o, a);
  const u = vec3.dot(s, p) * inv;
  if (u < 0 || u > 1) return null;
  const q = vec3.cross(vec3.create(), s, e1);
  const w = vec3.dot(d, q) * inv;
  if (w < 0 || u + w > 1) return null;
  const t = vec3.dot(e2, q) * inv;
  return t >= 0 ? t : null;
}

describe("world ray casts against a heightfield and a mesh (Möller–Trumbore over the triangles)", () => {
  it("the closest hit equals brute force, over many rays", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
        const bodies = scene(seed).slice(0, 2);
        const rng = makeRandom(seed ^ 0x165667b1);
        const w = new CollisionWorld({ broadphase: BROAD_PHASES[seed % 4] });
        for (const b of bodies) w.addBody({ shape: b.shape, pose: b.pose });
        const o = vec3.create((rng() - 0.5) * 8, 3, (rng() - 0.5) * 8);
        const d = vec3.sub(vec3.create(), vec3.create((rng() - 0.5) * 5, -2, (rng() - 0.5) * 5), o);
        vec3.normalize(d, d);
        let best: number | null = null;
        for (const b of bodies) {
          for (const part of b.parts) {
            const t = part.shape as unknown as { a: Vec3; b: Vec3; c: Vec3 };
            const h = rayTriangle(o, d, t.a, t.b, t.c);
            if (h !== null && h <= 20 && (best === null || h < best)) best = h;
          }
        }
        const got = castRayClosest(w, o, d, 20);
        if (best === null) expect(got).toBeNull();
        else expect(Math.abs((got?.toi ?? -1) - best)).toBeLessThanOrEqual(1e-9 * (1 + best));
      }),
      { numRuns: 200 },
    );
  });
});
