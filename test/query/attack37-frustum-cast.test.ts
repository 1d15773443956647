/**
 * Session 36's second fresh-user attack, items 1, 2, 9 and 12 (test/fuzz/open/README.md):
 *
 * 1. A frustum thinner than the convex hull's flatness bar (about 4e-10 of its extent) had a flat
 *    polytope, so the exact tests (`frustumIntersectsShape`, the CLI `frustum` op) saw nothing
 *    inside where the plane tests and the world's `overlapFrustum` did. Now refused at
 *    construction naming the camera field that makes it thin; every accepted frustum is answered
 *    alike by the four. Oracle: the camera's frustum in its own frame, by hand — the points
 *    (x, y, z) with near ≤ −z ≤ far, |x| ≤ tx·(−z), |y| ≤ ty·(−z), ty = tan(fovY/2), tx = ty·aspect
 *    — and a ball's clearance from its six planes.
 * 2. `castShapes` of a half-space and a sphere 1e10 above closing at 1e-300 with maxToi Infinity
 *    threw "no finite horizon", the world's `castShape` "too slow for the distance" (for any
 *    body); the meeting, at 1e310, lies beyond the doubles: null (docs/FORMATS.md). Oracle: the
 *    gap over the closing speed.
 * 9. `makeFrustum` used a rotation of length 1 ± 9e-7 unnormalised. Oracle: the corners
 *    (±tx·d, ±ty·d, −d), d ∈ {near, far}, turned by the normalised quaternion by hand.
 * 12. `makeTriangleMesh(…, { indexPath: "flat" })` accepted; options read through the
 *    prototype; `makeFrustumFromMatrix` of a matrix whose determinant overflows called singular
 *    (oracle: the hand-derived corners of the camera whose clip-from-world matrix it is, times
 *    any factor); the heightfield's hole flags (exactly true, false, 1, 0).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import {
  CollisionWorld,
  castRayClosest,
  castShape,
  castShapes,
  computeConvexHull,
  computePairs,
  FrustumTest,
  frustumIntersectsShape,
  frustumTestSphere,
  makeCompound,
  makeCuboid,
  makeFrustum,
  makeFrustumFromMatrix,
  makeHalfSpace,
  makeHeightfield,
  makeSphere,
  makeTriangleMesh,
  overlapVolume,
  raycast,
} from "../../src/index.js";
import { answerQuery } from "../../src/io/query.js";
import { refusal } from "../support/refusal.js";

type V = { x: number; y: number; z: number };
type Q = V & { w: number };
const I: Q = { x: 0, y: 0, z: 0, w: 1 };
const ORIGIN: V = { x: 0, y: 0, z: 0 };
const at = (x: number, y: number, z: number, rotation: Q = I) => ({
  translation: { x, y, z },
  rotation,
});

/** v turned by the unit quaternion q (v + 2w(u×v) + 2u×(u×v), u = q's vector part), by hand. */
function rotate(q: Q, v: V): V {
  const cx = q.y * v.z - q.z * v.y;
  const cy = q.z * v.x - q.x * v.z;
  const cz = q.x * v.y - q.y * v.x;
  const ex = q.y * cz - q.z * cy;
  const ey = q.z * cx - q.x * cz;
  const ez = q.x * cy - q.y * cx;
  return {
    x: v.x + 2 * (q.w * cx + ex),
    y: v.y + 2 * (q.w * cy + ey),
    z: v.z + 2 * (q.w * cz + ez),
  };
}

function unit(q: Q): Q {
  const l = Math.hypot(q.x, q.y, q.z, q.w);
  return { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l };
}

interface Camera {
  position: V;
  rotation: Q;
  fovY: number;
  aspect: number;
  near: number;
  far: number;
}

/** The camera's local point p in the world frame (the rotation normalised). */
function toWorld(c: Camera, p: V): V {
  const r = rotate(unit(c.rotation), p);
  return { x: c.position.x + r.x, y: c.position.y + r.y, z: c.position.z + r.z };
}

/**
 * The signed clearance of the local point p inside the camera's frustum: the least distance to
 * its six planes, positive inside (by hand from the frustum's definition: a side plane through
 * the eye with the slope t has the unit normal (1, 0, t)/√(1 + t²) in (x, z), and so on).
 */
function clearance(c: Camera, p: V): number {
  const ty = Math.tan(c.fovY / 2);
  const tx = ty * c.aspect;
  const d = -p.z;
  return Math.min(
    (tx * d - Math.abs(p.x)) / Math.hypot(1, tx),
    (ty * d - Math.abs(p.y)) / Math.hypot(1, ty),
    d - c.near,
    c.far - d,
  );
}

/** The frustum's extent: the largest of its far face's width and height and its depth. */
function extent(c: Camera): number {
  const ty = Math.tan(c.fovY / 2);
  return Math.max(2 * ty * c.aspect * c.far, 2 * ty * c.far, c.far - c.near);
}

/** Every answer the library gives for "does the ball (world centre, radius) share a point". */
function answers(c: Camera, center: V, radius: number) {
  const f = makeFrustum(c);
  const w = new CollisionWorld();
  const h = w.addBody({ shape: makeSphere(radius), pose: at(center.x, center.y, center.z) });
  const cli = answerQuery({
    op: "frustum",
    frustum: {
      position: [c.position.x, c.position.y, c.position.z],
      rotation: [c.rotation.x, c.rotation.y, c.rotation.z, c.rotation.w],
      fovY: c.fovY,
      aspect: c.aspect,
      near: c.near,
      far: c.far,
    },
    shapes: [{ type: "sphere", center: [center.x, center.y, center.z], radius }],
  }) as { visible: number[] };
  return {
    conservative: frustumTestSphere(f, center, radius),
    exact: frustumTestSphere(f, center, radius, "exact"),
    shape: frustumIntersectsShape(f, makeSphere(radius), at(center.x, center.y, center.z)),
    world: w.overlapFrustum(f).includes(h),
    worldConservative: w.overlapFrustum(f, { mode: "conservative" }).includes(h),
    cli: cli.visible.includes(0),
  };
}

/** The attack's fields of view, 3.141592653 and 3.14159265 (written so: π's digits, cut). */
const FOV_CUT_9 = 3141592653e-9;
const FOV_CUT_8 = 314159265e-8;

const cam = (o: Partial<Camera>): Camera => ({
  position: ORIGIN,
  rotation: I,
  fovY: 1,
  aspect: 1,
  near: 1,
  far: 10,
  ...o,
});

describe("item 1: a frustum too thin for its polytope is refused; the tests agree on the rest", () => {
  it("the attack's line: fovY 3.141592653 (π − 5.9e-10) at near 1, far 10 is refused naming frustum.fovY", () => {
    // Hand-derived: tan(fovY/2) ≈ 2/(π − fovY) ≈ 3.4e9, the far face ~6.8e10 wide against a
    // depth of 9: 1.3e-10 of its extent, under the hull's flatness bar of ~4e-10.
    const line = {
      op: "frustum",
      frustum: { position: [0, 0, 0], fovY: FOV_CUT_9, aspect: 1, near: 1, far: 10 },
      shapes: [{ type: "sphere", center: [0, 0, -5], radius: 0.5 }],
    };
    const e = refusal(() => answerQuery(line));
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("frustum.fovY");
    expect(e.value).toBe(FOV_CUT_9);
    expect(e.message).toContain("too thin");
    // π − 3.6e-9: tan ≈ 5.6e8, the face 1.1e10 wide, 8e-10 of it deep: a solid. The ball at
    // (0, 0, −5) is 4 from the near plane, 5 from the far one and ~5 from the side planes (each
    // nearly the plane z = 0, its normal (1, 0, t)/√(1 + t²)): inside.
    const ok = answers(cam({ fovY: FOV_CUT_8 }), { x: 0, y: 0, z: -5 }, 0.5);
    expect(ok).toEqual({
      conservative: FrustumTest.Inside,
      exact: FrustumTest.Inside,
      shape: true,
      world: true,
      worldConservative: true,
      cli: true,
    });
  });

  it("near 1, far 1.0000000001 is refused naming frustum.far; aspect 1e-300 and 1e300 naming frustum.aspect", () => {
    const far = refusal(() => makeFrustum(cam({ far: 1.0000000001 })));
    expect(far.field).toBe("frustum.far");
    expect(far.value).toBe(1.0000000001);
    for (const aspect of [1e-300, 1e300]) {
      const e = refusal(() => makeFrustum(cam({ aspect })));
      expect(e.field).toBe("frustum.aspect");
      expect(e.value).toBe(aspect);
    }
    // A narrow field of view far beyond the bar: 1e-10 rad over a depth of 9, 1e-9 high.
    expect(refusal(() => makeFrustum(cam({ fovY: 1e-11 }))).field).toBe("frustum.fovY");
    // Inside the bar: accepted (a depth of 1e-9 at a face ~1.1 wide is 9e-10 of it).
    expect(() => makeFrustum(cam({ far: 1 + 1e-9 }))).not.toThrow();
    // The matrix form of the same too-thin camera is refused naming the matrix.
    const m = clipFromWorld(cam({ fovY: FOV_CUT_9 }));
    expect(refusal(() => makeFrustumFromMatrix(m)).field).toBe("matrix");
  });

  it("every camera is refused naming one of its fields, or answered alike by the plane tests, the exact tests, the world and the CLI (fast-check)", () => {
    const fields = ["frustum.fovY", "frustum.aspect", "frustum.near", "frustum.far"];
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: 1e-3, max: 3.1, noNaN: true }),
          fc.integer({ min: 0, max: 12 }).map((k) => Math.PI - 10 ** -k),
          fc.integer({ min: 3, max: 14 }).map((k) => 10 ** -k),
        ),
        fc.integer({ min: -12, max: 12 }).map((k) => 10 ** k),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.integer({ min: -6, max: 6 }).map((k) => 10 ** k),
        fc.integer({ min: -12, max: 6 }).map((k) => 10 ** k),
        fc.record({
          x: fc.double({ min: -1, max: 1, noNaN: true }),
          y: fc.double({ min: -1, max: 1, noNaN: true }),
          z: fc.double({ min: -1, max: 1, noNaN: true }),
          w: fc.double({ min: 0.1, max: 1, noNaN: true }),
        }),
        fc.constantFrom(0, 1, 1e3, 1e9),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        (fovY, aspectPow, aspectJitter, near, depthRatio, q, offset, u, v) => {
          const c: Camera = {
            position: { x: offset, y: -offset, z: 0.5 * offset },
            rotation: unit(q),
            fovY,
            aspect: aspectPow * aspectJitter,
            near,
            far: near * (1 + depthRatio),
          };
          if (!(c.far > c.near) || !(fovY > 0 && fovY < Math.PI)) return;
          let f: ReturnType<typeof makeFrustum>;
          try {
            f = makeFrustum(c);
          } catch (e) {
            expect(e).toBeInstanceOf(CollideError);
            expect(fields).toContain((e as CollideError).field);
            // Only a frustum near or past the bar is refused (here: thinner than 1e-8 of its
            // extent across some direction), or one thinner than a thousand roundings of its
            // position (its corners, rounded there, are flat: 1e-9 deep at 1e9).
            const ty = Math.tan(fovY / 2);
            const dims = [2 * ty * c.aspect * c.far, 2 * ty * c.far, c.far - c.near];
            expect(Math.min(...dims)).toBeLessThan(
              1e-8 * Math.max(...dims) + 1e3 * Number.EPSILON * offset,
            );
            return;
          }
          accepted++;
          const ty = Math.tan(fovY / 2);
          const tx = ty * c.aspect;
          const E = extent(c);
          const slack = 1e-7 * E + 64 * Number.EPSILON * (Math.abs(offset) + E);
          // A ball inside: a point of the middle depth within half the half-widths, radius half
          // its clearance.
          const z = -0.5 * (c.near + c.far);
          const pIn = { x: u * tx * -z, y: v * ty * -z, z };
          const rIn = 0.5 * clearance(c, pIn);
          if (rIn > slack) {
            const a = answers(c, toWorld(c, pIn), rIn);
            expect(a, JSON.stringify(c)).toEqual({
              conservative: FrustumTest.Inside,
              exact: FrustumTest.Inside,
              shape: true,
              world: true,
              worldConservative: true,
              cli: true,
            });
          }
          // A ball beyond the far plane by g, radius g/2: outside (no point has −z > far).
          const g = Math.max(c.far - c.near, E);
          const pOut = { x: u * tx * c.far, y: v * ty * c.far, z: -c.far - g };
          const aOut = answers(c, toWorld(c, pOut), 0.5 * g);
          expect(aOut.exact).toBe(FrustumTest.Outside);
          expect(aOut.conservative).toBe(FrustumTest.Outside);
          expect(aOut.shape).toBe(false);
          expect(aOut.world).toBe(false);
          expect(aOut.cli).toBe(false);
          // A ball beside the frustum, past the +x side plane at the middle depth.
          const pSide = { x: 2 * tx * -z + 0.5 * (c.far - c.near), y: 0, z };
          const rSide = -0.5 * clearance(c, pSide);
          if (rSide > slack) {
            const a = answers(c, toWorld(c, pSide), rSide);
            expect(a.exact).toBe(FrustumTest.Outside);
            expect(a.shape).toBe(false);
            expect(a.world).toBe(false);
            expect(a.cli).toBe(false);
          }
          // The polytope holds the frustum's solid: never flat.
          expect(f.hull.flat).toBe(false);
        },
      ),
      { numRuns: 300, seed: 37 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});

describe("item 2: a cast whose meeting lies beyond the doubles is null with maxToi Infinity", () => {
  const plane = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0);
  const ball = makeSphere(1);
  const still = { x: 0, y: 0, z: 0 };

  it("the attack's pair: a sphere 1e10 above a half-space closing at 1e-300 meets at ~1e310 > MAX: null, either order, and the world's castShape too", () => {
    const down = { x: 0, y: -1e-300, z: 0 };
    expect(castShapes(plane, at(0, 0, 0), still, ball, at(0, 1e10, 0), down, Infinity)).toBeNull();
    expect(castShapes(ball, at(0, 1e10, 0), down, plane, at(0, 0, 0), still, Infinity)).toBeNull();
    // Two spheres answered null already.
    expect(castShapes(ball, at(0, 0, 0), still, ball, at(0, 1e10, 0), down, Infinity)).toBeNull();
    for (const body of [plane, ball, makeCuboid({ x: 1, y: 1, z: 1 })]) {
      const w = new CollisionWorld();
      w.addBody({ shape: body, pose: at(0, 0, 0) });
      expect(castShape(w, ball, at(0, 1e10, 0), down, Infinity)).toBeNull();
    }
    // A speed at which the gap closes within the doubles: (1e10 − 1)/1e-290 = 1e300 − 1e290.
    const slow = { x: 0, y: -1e-290, z: 0 };
    const hit = castShapes(plane, at(0, 0, 0), still, ball, at(0, 1e10, 0), slow, Infinity);
    expect(hit).not.toBeNull();
    expect(Math.abs((hit?.toi ?? 0) / ((1e10 - 1) / 1e-290) - 1)).toBeLessThan(1e-9);
    const w = new CollisionWorld();
    w.addBody({ shape: plane, pose: at(0, 0, 0) });
    const wHit = castShape(w, ball, at(0, 1e10, 0), slow, Infinity);
    expect(Math.abs((wHit?.toi ?? 0) / ((1e10 - 1) / 1e-290) - 1)).toBeLessThan(1e-9);
  });

  it("a ball above a plane or a ball closing at any speed: the gap over the speed, or null past the doubles, pair and world alike (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }).map((k) => 10 ** k),
        fc.double({ min: 1, max: 9.9, noNaN: true }),
        fc.integer({ min: -323, max: 0 }).map((k) => 10 ** k),
        fc.double({ min: 1, max: 9.9, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.boolean(),
        (hPow, hMant, vPow, vMant, sideways, withPlane) => {
          const h = hPow * hMant;
          const speed = vPow * vMant;
          if (!(h > 2) || !(speed > 0)) return;
          // Sideways no faster than down: the sideways travel at the meeting stays below h.
          const vel = { x: sideways * speed, y: -speed, z: 0 };
          const body = withPlane ? plane : ball;
          // The gap: to the plane y ≤ 0 the ball's lowest point h − 1; to the ball at the origin
          // along y, h − 2, when the sideways travel at the meeting is negligible — only
          // `sideways` 0 is checked against a number for two balls.
          const gap = withPlane ? h - 1 : h - 2;
          const meet = gap / speed;
          const pair = castShapes(body, at(0, 0, 0), still, ball, at(0, h, 0), vel, Infinity);
          const w = new CollisionWorld();
          w.addBody({ shape: body, pose: at(0, 0, 0) });
          const world = castShape(w, ball, at(0, h, 0), vel, Infinity);
          if (meet === Number.POSITIVE_INFINITY) {
            expect(pair).toBeNull();
            expect(world).toBeNull();
            return;
          }
          if (!(meet < 1e307) || (!withPlane && sideways !== 0)) return;
          expect(pair).not.toBeNull();
          expect(world).not.toBeNull();
          expect(Math.abs((pair?.toi ?? 0) / meet - 1)).toBeLessThan(1e-8);
          expect(Math.abs((world?.toi ?? 0) / meet - 1)).toBeLessThan(1e-8);
        },
      ),
      { numRuns: 300, seed: 37 },
    );
  });
});

describe("item 9: makeFrustum normalises a rotation within the tolerance of unit length", () => {
  /** The hand-derived world corners of the camera (near then far, (−x−y, +x−y, −x+y, +x+y)). */
  function corners(c: Camera): number[] {
    const ty = Math.tan(c.fovY / 2);
    const tx = ty * c.aspect;
    const out: number[] = [];
    for (const d of [c.near, c.far]) {
      for (let k = 0; k < 4; k++) {
        const p = toWorld(c, { x: (k & 1 ? 1 : -1) * tx * d, y: (k & 2 ? 1 : -1) * ty * d, z: -d });
        out.push(p.x, p.y, p.z);
      }
    }
    return out;
  }

  it("a rotation of length 1 ± 9e-7: the corners of the normalised one (to 1e-14 of the extent), the planes' normals unit (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.record({
          x: fc.double({ min: -1, max: 1, noNaN: true }),
          y: fc.double({ min: -1, max: 1, noNaN: true }),
          z: fc.double({ min: -1, max: 1, noNaN: true }),
          w: fc.double({ min: 0.1, max: 1, noNaN: true }),
        }),
        fc.double({ min: -9.9e-7, max: 9.9e-7, noNaN: true }),
        (q0, dk) => {
          const q = unit(q0);
          const k = 1 + dk;
          const c = cam({
            position: { x: 3, y: -2, z: 1 },
            rotation: { x: q.x * k, y: q.y * k, z: q.z * k, w: q.w * k },
            fovY: 1.2,
            aspect: 1.5,
            far: 100,
          });
          const f = makeFrustum(c);
          const want = corners({ ...c, rotation: q });
          const E = 100 * Math.tan(0.6) * 3;
          for (let i = 0; i < 24; i++)
            expect(Math.abs(f.corners[i] - want[i])).toBeLessThan(1e-13 * E);
          for (let i = 0; i < 24; i += 4) {
            expect(
              Math.abs(Math.hypot(f.planes[i], f.planes[i + 1], f.planes[i + 2]) - 1),
            ).toBeLessThan(8 * Number.EPSILON);
          }
        },
      ),
      { numRuns: 200, seed: 37 },
    );
  });

  it("the attack's case: length 1 + 9e-7 off in the 6th digit before, now the unit rotation's corners", () => {
    const s = Math.sin(0.3);
    const co = Math.cos(0.3);
    const k = 1 + 9e-7;
    const c = cam({ rotation: { x: s * k, y: 0, z: 0, w: co * k }, far: 100 });
    const f = makeFrustum(c);
    const want = corners({ ...c, rotation: { x: s, y: 0, z: 0, w: co } });
    for (let i = 0; i < 24; i++) expect(Math.abs(f.corners[i] - want[i])).toBeLessThan(1e-12);
    // Beyond the tolerance: refused.
    const far = refusal(() => makeFrustum(cam({ rotation: { x: 0, y: 0, z: 0, w: 1 + 2e-6 } })));
    expect(far.field).toBe("frustum.rotation");
  });
});

/**
 * The clip-from-world matrix (column-major, OpenGL clip space) of a camera, by hand: the
 * perspective projection (f/aspect, f, (far + near)/(near − far), 2·far·near/(near − far), −1;
 * f = 1/tan(fovY/2)) times the view matrix (the camera pose's inverse: Rᵀ, −Rᵀ·position).
 */
function clipFromWorld(c: Camera): number[] {
  const q = unit(c.rotation);
  const inv = { x: -q.x, y: -q.y, z: -q.z, w: q.w };
  const cols = [
    rotate(inv, { x: 1, y: 0, z: 0 }),
    rotate(inv, { x: 0, y: 1, z: 0 }),
    rotate(inv, { x: 0, y: 0, z: 1 }),
  ];
  const t = rotate(inv, c.position);
  // View matrix V (rows): V = [Rᵀ | −Rᵀp].
  const V = [
    [cols[0].x, cols[1].x, cols[2].x, -t.x],
    [cols[0].y, cols[1].y, cols[2].y, -t.y],
    [cols[0].z, cols[1].z, cols[2].z, -t.z],
    [0, 0, 0, 1],
  ];
  const f = 1 / Math.tan(c.fovY / 2);
  const P = [
    [f / c.aspect, 0, 0, 0],
    [0, f, 0, 0],
    [0, 0, (c.far + c.near) / (c.near - c.far), (2 * c.far * c.near) / (c.near - c.far)],
    [0, 0, -1, 0],
  ];
  const m = new Array<number>(16);
  for (let r = 0; r < 4; r++) {
    for (let col = 0; col < 4; col++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += P[r][k] * V[k][col];
      m[4 * col + r] = s;
    }
  }
  return m;
}

describe("item 12: option validation, inherited options, the matrix frustum's scale, hole flags", () => {
  const tri = [0, 0, 0, 1, 0, 0, 0, 1, 0];

  it('makeTriangleMesh refuses an indexPath other than "packed" or "nested", naming options.indexPath', () => {
    const e = refusal(() => makeTriangleMesh(tri, [0, 1, 2], "", { indexPath: "flat" } as never));
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("options.indexPath");
    expect(e.value).toBe("flat");
    expect(() => makeTriangleMesh(tri, [0, 1, 2], "", { indexPath: "packed" })).not.toThrow();
    expect(() => makeTriangleMesh(tri, [0, 1, 2], "", { indexPath: "nested" })).not.toThrow();
    // The nested path names the index as JSON's [[i, j, k]] does.
    expect(refusal(() => makeTriangleMesh(tri, [0, 1, 7], "", { indexPath: "nested" })).field).toBe(
      "indices[0][2]",
    );
  });

  it("an option set through the prototype (or a prototype getter) is refused naming it, for every kind of options object; other inherited properties are not read", () => {
    const world = () => {
      const w = new CollisionWorld();
      w.addBody({ shape: makeSphere(1), pose: at(0, 0, 0) });
      return w;
    };
    const o = (proto: object, own: object = {}) => Object.assign(Object.create(proto), own);
    const camera = {
      position: ORIGIN,
      rotation: I,
      fovY: 1,
      aspect: 1,
      near: 0.1,
      far: 10,
    };
    const cases: [string, () => unknown][] = [
      ["options.solid", () => makeTriangleMesh(tri, [0, 1, 2], "", o({ solid: true }))],
      ["options.prediction", () => new CollisionWorld(o({ prediction: 3 }))],
      [
        "options.includeSensors",
        () =>
          castRayClosest(world(), ORIGIN, { x: 1, y: 0, z: 0 }, 10, o({ includeSensors: true })),
      ],
      [
        "filter.mask",
        () => castShape(world(), makeSphere(1), at(5, 0, 0), ORIGIN, 1, o({ mask: 0 })),
      ],
      [
        "options.mode",
        () => world().overlapFrustum(makeFrustum(camera), o({ mode: "conservative" })),
      ],
      [
        "options.allowFlat",
        () => computeConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0], "points", o({ allowFlat: true })),
      ],
      ["options.maxPairs", () => computePairs([], "brute", o({ maxPairs: 3 }))],
      [
        "options.tolerance",
        () =>
          overlapVolume(
            makeSphere(1),
            at(0, 0, 0),
            makeSphere(1),
            at(0, 0, 0),
            o({ tolerance: 0.1 }),
          ),
      ],
      [
        "frustum.far",
        () =>
          makeFrustum(
            o({ far: 10 }, { position: ORIGIN, rotation: I, fovY: 1, aspect: 1, near: 0.1 }),
          ),
      ],
      [
        "body.sensor",
        () => world().addBody(o({ sensor: true }, { shape: makeSphere(1), pose: at(0, 0, 0) })),
      ],
      [
        "heightfield.holes",
        () =>
          makeHeightfield(
            o(
              { holes: [1, 0, 0, 0] },
              { rows: 3, cols: 3, heights: new Array(9).fill(0), scale: { x: 1, y: 1, z: 1 } },
            ),
          ),
      ],
      [
        "children[0].pose",
        () => makeCompound([o({ pose: at(0, 0, 0) }, { shape: makeSphere(1) })]),
      ],
    ];
    for (const [field, call] of cases) {
      let e: CollideError | null = null;
      try {
        call();
      } catch (x) {
        e = x as CollideError;
      }
      expect(e, field).toBeInstanceOf(CollideError);
      if (e === null) continue;
      expect(e.code, field).toBe("invalid_value");
      expect(e.field, field).toBe(field);
      expect(e.message, field).toContain("inherited");
    }
    // A class's getter is read through the prototype as well.
    class Opts {
      get solid() {
        return true;
      }
    }
    expect(refusal(() => makeTriangleMesh(tri, [0, 1, 2], "", new Opts() as never)).field).toBe(
      "options.solid",
    );
    // An option assigned on a polluted Object.prototype reaches every plain object: refused.
    const proto = Object.prototype as Record<string, unknown>;
    proto.solid = true;
    try {
      expect(refusal(() => makeTriangleMesh(tri, [0, 1, 2])).field).toBe("options.solid");
    } finally {
      delete proto.solid;
    }
    // Inherited properties that are no option are not read: accepted (a surface mesh).
    const m = makeTriangleMesh(tri, [0, 1, 2], "", o({ colour: "red" }, { solid: false }));
    expect(m.solid).toBe(false);
    // An own option undefined means "not set", as before.
    expect(
      raycast(makeSphere(1), at(0, 0, 0), { x: -5, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, 10),
    ).not.toBeNull();
  });

  it("makeFrustumFromMatrix of any camera's matrix times any positive factor is the camera's frustum; times a negative one, refused (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        fc.double({ min: 0.2, max: 5, noNaN: true }),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        fc.double({ min: 2, max: 1000, noNaN: true }),
        fc.record({
          x: fc.double({ min: -1, max: 1, noNaN: true }),
          y: fc.double({ min: -1, max: 1, noNaN: true }),
          z: fc.double({ min: -1, max: 1, noNaN: true }),
          w: fc.double({ min: 0.1, max: 1, noNaN: true }),
        }),
        fc.record({
          x: fc.double({ min: -100, max: 100, noNaN: true }),
          y: fc.double({ min: -100, max: 100, noNaN: true }),
          z: fc.double({ min: -100, max: 100, noNaN: true }),
        }),
        fc.oneof(
          fc.integer({ min: -290, max: 290 }).map((k) => 10 ** k),
          fc.constantFrom(1, 1e300, 1e-300, 2 ** 1000, 2 ** -1000),
        ),
        (fovY, aspect, near, farRatio, q, position, s) => {
          const c: Camera = {
            position,
            rotation: unit(q),
            fovY,
            aspect,
            near,
            far: near * farRatio,
          };
          const m = clipFromWorld(c).map((x) => x * s);
          const f = makeFrustumFromMatrix(m);
          // A negative factor flips the clip w: −w ≤ x ≤ w holds for no unprojected corner
          // (their w < 0), and its planes r3 ± r_i would hold the outside: refused.
          const neg = refusal(() => makeFrustumFromMatrix(m.map((x) => -x)));
          expect(neg.field).toBe("matrix");
          expect(neg.message).toContain("behind the eye");
          const ty = Math.tan(fovY / 2);
          const tx = ty * aspect;
          const E =
            Math.max(2 * tx * c.far, 2 * ty * c.far, c.far) +
            Math.hypot(position.x, position.y, position.z);
          let k = 0;
          for (const d of [c.near, c.far]) {
            for (let j = 0; j < 4; j++) {
              const p = toWorld(c, {
                x: (j & 1 ? 1 : -1) * tx * d,
                y: (j & 2 ? 1 : -1) * ty * d,
                z: -d,
              });
              expect(Math.abs(f.corners[k++] - p.x)).toBeLessThan(1e-9 * E);
              expect(Math.abs(f.corners[k++] - p.y)).toBeLessThan(1e-9 * E);
              expect(Math.abs(f.corners[k++] - p.z)).toBeLessThan(1e-9 * E);
            }
          }
        },
      ),
      { numRuns: 200, seed: 37 },
    );
  });

  it("the attack's matrix: a perspective times 1e100 (determinant ~1e400) and times 1e-100 are the unscaled frustum", () => {
    const c = cam({});
    const want = makeFrustumFromMatrix(clipFromWorld(c));
    for (const s of [1e100, 1e-100, 1e300, 2 ** 1000]) {
      const f = makeFrustumFromMatrix(clipFromWorld(c).map((x) => x * s));
      for (let i = 0; i < 24; i++)
        expect(Math.abs(f.corners[i] - want.corners[i])).toBeLessThan(1e-13);
      for (let i = 0; i < 24; i++)
        expect(Math.abs(f.planes[i] - want.planes[i])).toBeLessThan(1e-14);
    }
    // A truly singular matrix stays refused.
    expect(refusal(() => makeFrustumFromMatrix(new Array(16).fill(1))).field).toBe("matrix");
  });

  it("heightfield hole flags: exactly true and 1 make a hole, false and 0 a solid cell; anything else is refused naming holes[i]", () => {
    const desc = (holes: unknown[]) => ({
      rows: 2,
      cols: 3,
      heights: [0, 0, 0, 0, 0, 0],
      scale: { x: 1, y: 1, z: 1 },
      holes: holes as never,
    });
    const down = { x: 0, y: -1, z: 0 };
    // Cells 0 (x in [0, 1]) and 1 (x in [1, 2]); a ray down at x = 0.5 meets cell 0 unless a hole.
    for (const [flag, hole] of [
      [true, true],
      [1, true],
      [false, false],
      [0, false],
    ] as const) {
      const hf = makeHeightfield(desc([flag, 0]));
      const hit = raycast(hf, at(0, 0, 0), { x: 0.5, y: 1, z: 0.5 }, down, 10);
      expect(hit === null, String(flag)).toBe(hole);
    }
    for (const bad of [2, -1, 0.5, "1", "true", null, Number.NaN, {}]) {
      const e = refusal(() => makeHeightfield(desc([bad, 0])));
      expect(e.field).toBe("holes[0]");
    }
  });
});
