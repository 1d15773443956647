/**
 * EPA from the octahedron of support points (src/geometry/epa.ts `epaOctahedron`, the start for
 * polytope pairs that surely overlap deeply) against EPA from GJK's simplex and against the SAT
 * oracle (test/oracles/polytope-distance.ts: every face normal and edge × edge axis of two point
 * sets), on random hull pairs: deep, shallow, touching, apart, and far from the origin; and the
 * narrow phase's answers on the pairs that take it (src/narrowphase/inner-sphere.ts gates it).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EPA_POLYTOPE_TOLERANCE } from "../../src/constants.js";
import { EpaStatus, epa, epaOctahedron, makeEpaResult } from "../../src/geometry/epa.js";
import { GjkStatus, gjk, makeGjkResult } from "../../src/geometry/gjk.js";
import { PointCloudSupport, TransformedSupport } from "../../src/geometry/support.js";
import { contact, makeContact } from "../../src/index.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { deepBallOverlap } from "../../src/narrowphase/inner-sphere.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { unitQuat, vec } from "../oracles/arbitraries.js";
import { overlapAlong, satOverlap } from "../oracles/polytope-distance.js";

function pack(pts: readonly Vec3[]): Float64Array {
  return Float64Array.from(pts.flatMap((p) => [p.x, p.y, p.z]));
}

function unpack(v: Float64Array): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < v.length; i += 3) out.push({ x: v[i], y: v[i + 1], z: v[i + 2] });
  return out;
}

/** Random point clouds (hull corners and points inside), and boxes. */
const cloud: fc.Arbitrary<Vec3[]> = fc
  .tuple(
    fc.array(vec(-1, 1), { minLength: 4, maxLength: 14 }),
    fc.constantFrom("plain", "plain", "plain", "box"),
  )
  .map(([pts, kind]) => {
    if (kind !== "box") return pts;
    const h = {
      x: Math.abs(pts[0].x) + 0.1,
      y: Math.abs(pts[0].y) + 0.1,
      z: Math.abs(pts[0].z) + 0.1,
    };
    const out: Vec3[] = [];
    for (const sx of [-1, 1])
      for (const sy of [-1, 1])
        for (const sz of [-1, 1]) out.push({ x: sx * h.x, y: sy * h.y, z: sz * h.z });
    return out;
  });

/** B's offset from A: deep, shallow (near the surface), far apart, and the touching box pair. */
const spread = fc.constantFrom(0.05, 0.3, 0.8, 1.5, 2.5);

const supA = new PointCloudSupport();
const supBLocal = new PointCloudSupport();
const supB = new TransformedSupport();
const g = makeGjkResult();
const eOct = makeEpaResult();
const eGjk = makeEpaResult();

describe("epaOctahedron on random point-set polytopes", () => {
  it("accepts only overlapping pairs; where it does, its depth is EPA's from GJK's simplex and SAT's, and its normal attains it", () => {
    let accepted = 0;
    let deepPairs = 0;
    fc.assert(
      fc.property(
        cloud,
        cloud,
        vec(-1, 1),
        spread,
        unitQuat,
        fc.constantFrom(0, 0, 1e3, -3e5),
        (a0, b0, dir, s, rotation, far) => {
          // Both shapes moved by `far` along (1, 1, 1): the same pair, coordinates far from the
          // origin of the support maps' frame.
          const c = { x: far, y: far, z: far };
          const a = a0.map((p) => vec3.add(vec3.create(), p, c));
          const t = vec3.add(vec3.create(), vec3.scale(vec3.create(), dir, s), c);
          const pose = iso.create(t, rotation);
          const bWorld = b0.map((p) => iso.transformPoint(vec3.create(), pose, p));
          supA.reset(pack(a));
          supBLocal.reset(pack(b0));
          supB.reset(supBLocal, pose);
          const sat = satOverlap(a, bWorld);
          const size = 2 + 2 * Math.abs(far);
          const round = 1e-12 * size;
          const ok = epaOctahedron(eOct, supA, supB, EPA_POLYTOPE_TOLERANCE);
          // Never on a pair apart or touching: the octahedron holds the origin strictly.
          if (!(sat.depth > round)) {
            expect(ok).toBe(false);
            return;
          }
          if (sat.depth > 0.2) deepPairs++;
          if (!ok) return;
          accepted++;
          expect(eOct.status).toBe(EpaStatus.Converged);
          expect(Math.abs(vec3.length(eOct.normal) - 1)).toBeLessThan(1e-12);
          const tol = 1e-9 * size;
          expect(Math.abs(eOct.depth - sat.depth)).toBeLessThanOrEqual(tol);
          expect(Math.abs(overlapAlong(a, bWorld, eOct.normal) - eOct.depth)).toBeLessThanOrEqual(
            tol,
          );
          // The witnesses: pointA − pointB = depth · normal.
          const diff = vec3.sub(vec3.create(), eOct.pointA, eOct.pointB);
          expect(
            vec3.distance(diff, vec3.scale(vec3.create(), eOct.normal, eOct.depth)),
          ).toBeLessThanOrEqual(tol);
          // EPA from GJK's simplex: the same depth, and a normal as good.
          gjk(g, supA, supB, t);
          expect(g.status).toBe(GjkStatus.Intersecting);
          epa(eGjk, supA, supB, g.simplex, g.direction, EPA_POLYTOPE_TOLERANCE);
          expect(Math.abs(eOct.depth - eGjk.depth)).toBeLessThanOrEqual(tol);
          expect(
            overlapAlong(a, bWorld, eOct.normal) - overlapAlong(a, bWorld, eGjk.normal),
          ).toBeLessThanOrEqual(tol);
        },
      ),
      { numRuns: 400 },
    );
    // The start is taken on most deep pairs (the reason for it).
    expect(accepted).toBeGreaterThan(0.5 * deepPairs);
  });

  it("refuses a flat difference (two coplanar squares) and a box touching another", () => {
    const square = (h: number) =>
      pack([
        { x: -h, y: -h, z: 0 },
        { x: h, y: -h, z: 0 },
        { x: h, y: h, z: 0 },
        { x: -h, y: h, z: 0 },
      ]);
    supA.reset(square(1));
    supBLocal.reset(square(0.5));
    expect(epaOctahedron(eOct, supA, supBLocal, EPA_POLYTOPE_TOLERANCE)).toBe(false);
    const box = (cx: number) => {
      const out: Vec3[] = [];
      for (const sx of [-1, 1])
        for (const sy of [-1, 1]) for (const sz of [-1, 1]) out.push({ x: cx + sx, y: sy, z: sz });
      return pack(out);
    };
    supA.reset(box(0));
    supBLocal.reset(box(2));
    expect(epaOctahedron(eOct, supA, supBLocal, EPA_POLYTOPE_TOLERANCE)).toBe(false);
  });
});

/** Points on a unit sphere squashed to 0.8 in y, as bench/hull-contact.ts. */
function spherePoints(rng: () => number, n: number): Float64Array {
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const u = rng() * 2 - 1;
    const t = rng() * 2 * Math.PI;
    const r = Math.sqrt(1 - u * u);
    p[3 * i] = r * Math.cos(t);
    p[3 * i + 1] = 0.8 * u;
    p[3 * i + 2] = r * Math.sin(t);
  }
  return p;
}

describe("contact of hull pairs that take the octahedron start", () => {
  it("depth and normal of the SAT oracle to rounding (the exact polytope axis)", () => {
    const out = makeContact();
    const identity = iso.identity();
    let deep = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 8, max: 24 }),
        vec(-0.4, 0.4),
        unitQuat,
        fc.boolean(),
        (seed, n, t, rotation, boxB) => {
          let s = seed;
          const rng = () => {
            s = (Math.imul(s, 1103515245) + 12345) >>> 0;
            return s / 2 ** 32;
          };
          const pa = spherePoints(rng, n);
          const hullA = makeConvexPolyhedron(pa);
          const b = boxB
            ? makeCuboid({ x: 0.7, y: 0.5, z: 0.6 })
            : makeConvexPolyhedron(spherePoints(rng, n));
          const pose = iso.create(t, rotation);
          if (deepBallOverlap(hullA, b, pose)) deep++;
          expect(contact(hullA, identity, b, pose, 0, out)).not.toBeNull();
          const aPts = unpack(hullA.vertices);
          const bLocal = boxB
            ? [-1, 1].flatMap((x) =>
                [-1, 1].flatMap((y) =>
                  [-1, 1].map((z) => ({ x: 0.7 * x, y: 0.5 * y, z: 0.6 * z })),
                ),
              )
            : unpack((b as ReturnType<typeof makeConvexPolyhedron>).vertices);
          const bWorld = bLocal.map((p) => iso.transformPoint(vec3.create(), pose, p));
          const sat = satOverlap(aPts, bWorld);
          expect(Math.abs(-out.distance - sat.depth)).toBeLessThanOrEqual(1e-12);
          expect(
            Math.abs(overlapAlong(aPts, bWorld, out.normal) + out.distance),
          ).toBeLessThanOrEqual(1e-12);
        },
      ),
      { numRuns: 60 },
    );
    expect(deep).toBeGreaterThan(30);
  });
});
