/**
 * Issue 16: a ray cast from far away answers the hit point on the shape's surface and the
 * surface normal there, to the FORMATS bar 1e-9·R + 256·ε·R + 4u, for every shape type, from
 * origins 1e3 to 1e16 away, with the shape at the origin or at 1e9. Before, the point was
 * origin + toi·dir with toi rounded at the origin's distance: from (−1e9, 0.5, 0) a unit sphere
 * was hit 2.2e-8 off its surface, from (−1e16, 0.5, 0) at its top (0, 0.5, 0) with normal +y.
 *
 * Oracles, independent of the library: the point's distance to the shape's surface from closed
 * forms and triangle lists written here (test/oracles/polytope-distance.ts for triangles); the
 * point's distance from the given ray, and its parameter along it, in exact dyadic arithmetic on
 * the input doubles (test/fuzz/exact.ts). Hit or miss, and the normal, against the library's cast
 * from a point of the same ray 8 units before the aim (formed exactly, rounded once), where the
 * rounding of the origin is the shape's own.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { raycast } from "../../src/query/raycast.js";
import {
  makeCapsule,
  makeCompound,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeHeightfield,
  makeRoundedCuboid,
  makeSphere,
  makeTriangle,
} from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { type Dy, dadd, dmul, dsub, dy } from "../fuzz/exact.js";
import { unitQuat } from "../oracles/arbitraries.js";
import { dyToNumber } from "../oracles/exact-plane.js";
import { pointSegmentDistSq, pointTriangleDistSq } from "../oracles/polytope-distance.js";
import { BOX_TRIANGLES, boxCorners, boxMesh, type V3 } from "../support/box-mesh.js";
import { type Q4, rotateVec } from "../support/quat.js";

const EPS = 2 ** -52;

/** Unsigned distance from local point p to the boundary of an axis-aligned box. */
function boxSurface(p: V3, h: V3): number {
  const q = p.map((c, i) => Math.abs(c) - h[i]);
  const outside = Math.hypot(...q.map((c) => Math.max(c, 0)));
  return Math.abs(outside > 0 ? outside : Math.max(...q));
}

/** Unsigned distance from (ρ, y) to a polyline of the meridian plane. */
function profileDistance(rho: number, y: number, pts: [number, number][]): number {
  let best = Infinity;
  for (let i = 0; i + 1 < pts.length; i++) {
    const a: V3 = [pts[i][0], pts[i][1], 0];
    const b: V3 = [pts[i + 1][0], pts[i + 1][1], 0];
    best = Math.min(best, Math.sqrt(pointSegmentDistSq([rho, y, 0], a, b)));
  }
  return best;
}

function trianglesDistance(p: V3, tris: V3[][]): number {
  let best = Infinity;
  for (const [a, b, c] of tris) best = Math.min(best, pointTriangleDistSq(p, a, b, c));
  return Math.sqrt(best);
}

const corners = boxCorners(0.8, 0.6, 0.7);
const boxTris = BOX_TRIANGLES.map((t) => t.map((i) => corners[i]));
const OCTA: V3[] = [
  [0.9, 0, 0],
  [-0.9, 0, 0],
  [0, 0.9, 0],
  [0, -0.9, 0],
  [0, 0, 0.9],
  [0, 0, -0.9],
];
const octaTris: V3[][] = [];
for (const x of [0, 1])
  for (const y of [2, 3]) for (const z of [4, 5]) octaTris.push([OCTA[x], OCTA[y], OCTA[z]]);
const TRI: V3[] = [
  [-1, -1, 0],
  [1, -1, 0.2],
  [0, 1, -0.1],
];
const HF = [0.1, 0.3, 0.0, 0.2, 0.5, 0.1, 0.0, 0.2, 0.4];
const hfTris: V3[][] = [];
{
  const v = (r: number, c: number): V3 => [c, HF[r * 3 + c], r];
  for (let r = 0; r < 2; r++)
    for (let c = 0; c < 2; c++) {
      hfTris.push([v(r, c), v(r + 1, c + 1), v(r, c + 1)]);
      hfTris.push([v(r, c), v(r + 1, c), v(r + 1, c + 1)]);
    }
}

interface Case {
  name: string;
  shape: Shape;
  /** Size R of the bar. */
  size: number;
  /** A point of the shape (local) the random rays aim at. */
  aim: V3;
  /** Unsigned distance from a local point to the surface. */
  surface: (p: V3) => number;
}

const CASES: Case[] = [
  {
    name: "sphere",
    shape: makeSphere(1),
    size: 1,
    aim: [0.1, 0.05, -0.07],
    surface: (p) => Math.abs(Math.hypot(...p) - 1),
  },
  {
    name: "box",
    shape: makeCuboid({ x: 1, y: 0.7, z: 0.5 }),
    size: 1.3,
    aim: [0.1, 0.05, -0.07],
    surface: (p) => boxSurface(p, [1, 0.7, 0.5]),
  },
  {
    name: "capsule",
    shape: makeCapsule({ x: 0, y: -0.5, z: 0 }, { x: 0, y: 0.5, z: 0 }, 0.5),
    size: 1,
    aim: [0.1, 0.05, -0.07],
    surface: (p) => Math.abs(Math.sqrt(pointSegmentDistSq(p, [0, -0.5, 0], [0, 0.5, 0])) - 0.5),
  },
  {
    name: "cylinder",
    shape: makeCylinder(0.8, 0.6),
    size: 1,
    aim: [0.1, 0.05, -0.07],
    surface: (p) =>
      profileDistance(Math.hypot(p[0], p[2]), p[1], [
        [0, 0.8],
        [0.6, 0.8],
        [0.6, -0.8],
        [0, -0.8],
      ]),
  },
  {
    name: "cone",
    shape: makeCone(0.8, 0.6),
    size: 1,
    aim: [0.1, -0.3, -0.07],
    surface: (p) =>
      profileDistance(Math.hypot(p[0], p[2]), p[1], [
        [0, 0.8],
        [0.6, -0.8],
        [0, -0.8],
      ]),
  },
  {
    name: "hull",
    shape: makeConvexPolyhedron(OCTA.map(([x, y, z]) => ({ x, y, z }))),
    size: 0.9,
    aim: [0.1, 0.05, -0.07],
    surface: (p) => trianglesDistance(p, octaTris),
  },
  {
    name: "rounded box",
    shape: makeRoundedCuboid({ x: 0.6, y: 0.5, z: 0.4 }, 0.2),
    size: 1,
    aim: [0.1, 0.05, -0.07],
    surface: (p) => {
      const q = p.map((c, i) => Math.abs(c) - [0.6, 0.5, 0.4][i]);
      const out = Math.hypot(...q.map((c) => Math.max(c, 0)));
      const d = out > 0 ? out : Math.max(...q);
      return Math.abs(d - 0.2);
    },
  },
  {
    name: "triangle",
    shape: makeTriangle(...(TRI.map(([x, y, z]) => ({ x, y, z })) as [Vec3, Vec3, Vec3])),
    size: 1.5,
    aim: [0, -1 / 3, 0.1 / 3],
    surface: (p) => trianglesDistance(p, [TRI]),
  },
  {
    name: "mesh",
    shape: boxMesh(0.8, 0.6, 0.7),
    size: 1.2,
    aim: [0.1, 0.05, -0.07],
    surface: (p) => trianglesDistance(p, boxTris),
  },
  {
    name: "heightfield",
    shape: makeHeightfield({ rows: 3, cols: 3, heights: HF, scale: { x: 1, y: 1, z: 1 } }),
    size: 3,
    aim: [1.3, (0.5 + 0.2 + 0.4) / 3, 1.6], // centroid of cell (1, 1)'s triangle (r, c), (r+1, c), (r+1, c+1)
    surface: (p) => trianglesDistance(p, hfTris),
  },
  {
    name: "compound",
    shape: makeCompound([
      { shape: makeSphere(0.5), pose: iso.create({ x: -0.5, y: 0, z: 0 }) },
      { shape: makeCuboid({ x: 0.4, y: 0.4, z: 0.4 }), pose: iso.create({ x: 0.5, y: 0, z: 0 }) },
    ]),
    size: 1,
    aim: [-0.4, 0.05, -0.07], // inside the sphere child, off the box child's faces
    surface: (p) =>
      Math.min(
        Math.abs(Math.hypot(p[0] + 0.5, p[1], p[2]) - 0.5),
        boxSurface([p[0] - 0.5, p[1], p[2]], [0.4, 0.4, 0.4]),
      ),
  },
];

const v3 = (p: V3): Vec3 => ({ x: p[0], y: p[1], z: p[2] });
const arr = (p: Vec3): V3 => [p.x, p.y, p.z];

/** o + t·d exactly, as dyadics. */
function onRay(o: V3, d: V3, t: number): Dy[] {
  return o.map((c, i) => dadd(dy(c), dmul(dy(t), dy(d[i]))));
}

/** The exact distance of p from the line o + t·d (rounded once) and p's parameter along it. */
function rayOffset(p: V3, o: V3, d: V3): { lateral: number; t: number } {
  const r = p.map((c, i) => dsub(dy(c), dy(o[i])));
  const D = d.map(dy);
  const cr = [
    dsub(dmul(r[1], D[2]), dmul(r[2], D[1])),
    dsub(dmul(r[2], D[0]), dmul(r[0], D[2])),
    dsub(dmul(r[0], D[1]), dmul(r[1], D[0])),
  ].map(dyToNumber);
  const dot = dyToNumber(dadd(dadd(dmul(r[0], D[0]), dmul(r[1], D[1])), dmul(r[2], D[2])));
  const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  return { lateral: Math.hypot(...cr) / Math.sqrt(dd), t: dot / dd };
}

/**
 * Casts from `o` along `d` at the shape placed at `at` and checks the answer against the
 * oracles; returns whether it hit.
 */
function check(c: Case, at: V3, o: V3, d: V3, q4: Q4 = [0, 0, 0, 1]): boolean {
  const pose = iso.create(v3(at), { x: q4[0], y: q4[1], z: q4[2], w: q4[3] });
  const inv: Q4 = [-q4[0], -q4[1], -q4[2], q4[3]];
  const hit = raycast(c.shape, pose, v3(o), v3(d), Infinity);
  // Reference: the same ray from a point 8 units before the aim, formed exactly, rounded once.
  const len = Math.hypot(...d);
  const aimW = rotateVec(q4, c.aim).map((x, i) => x + at[i]) as V3;
  const k = rayOffset(aimW, o, d).t;
  const tq = k - 8 / len;
  const q = onRay(o, d, tq).map(dyToNumber) as V3;
  const ref = raycast(c.shape, pose, v3(q), v3(d), Infinity);
  expect(hit === null, `${c.name}: far ${JSON.stringify(hit)} near ${JSON.stringify(ref)}`).toBe(
    ref === null,
  );
  if (hit === null || ref === null) return false;
  const p = arr(hit.point);
  const u = EPS * Math.max(...p.map(Math.abs));
  const bar = 1e-9 * c.size + 256 * EPS * c.size + 4 * u;
  const local = rotateVec(
    inv,
    p.map((x, i) => x - at[i]),
  );
  const where = `${c.name} from ${JSON.stringify(o)} along ${JSON.stringify(d)}: ${JSON.stringify(hit)}`;
  expect(c.surface(local), `surface ${where}`).toBeLessThanOrEqual(bar);
  const off = rayOffset(p, o, d);
  expect(off.lateral, `off the ray ${where}`).toBeLessThanOrEqual(bar);
  // toi consistent with the point: within the rounding of toi.
  expect(Math.abs(off.t - hit.toi), `toi ${where}`).toBeLessThanOrEqual(
    4 * EPS * hit.toi + bar / len,
  );
  expect(Math.abs(hit.toi - (tq + ref.toi)), `toi vs near ${where}`).toBeLessThanOrEqual(
    4 * EPS * hit.toi + (2 * bar) / len,
  );
  // The near cast's point and normal (rays apart by the rounding of q only).
  const uq = EPS * Math.max(...q.map(Math.abs));
  for (const a of ["x", "y", "z"] as const) {
    expect(Math.abs(hit.point[a] - ref.point[a]), `point vs near ${where}`).toBeLessThanOrEqual(
      2 * bar + 4 * uq,
    );
    expect(Math.abs(hit.normal[a] - ref.normal[a]), `normal vs near ${where}`).toBeLessThanOrEqual(
      1e-9 + (16 * (u + uq)) / c.size,
    );
  }
  return true;
}

const AWAY = [1e3, 1e6, 1e9, 1e12, 1e16];
const PLACES: V3[] = [
  [0, 0, 0],
  [1e9, -1e9, 5e8],
];

describe("raycast from far away (issue 16)", () => {
  it("the issue's sphere: from (−1e9, 0.5, 0) and (−1e16, 0.5, 0), the point on the surface and its normal", () => {
    const s = makeSphere(1);
    const right = Math.sqrt(0.75);
    for (const x of [-1e9, -1e16]) {
      const hit = raycast(s, iso.identity(), { x, y: 0.5, z: 0 }, { x: 1, y: 0, z: 0 }, Infinity);
      expect(hit).not.toBeNull();
      if (!hit) continue;
      expect(Math.abs(hit.point.x + right)).toBeLessThanOrEqual(4 * EPS);
      expect(hit.point.y).toBe(0.5);
      expect(hit.point.z).toBe(0);
      expect(Math.abs(hit.normal.x + right)).toBeLessThanOrEqual(4 * EPS);
      expect(Math.abs(hit.normal.y - 0.5)).toBeLessThanOrEqual(4 * EPS);
      // toi: −x − √0.75, rounded.
      expect(Math.abs(hit.toi - (-x - right))).toBeLessThanOrEqual(EPS * -x);
    }
  });

  it("every shape type, axis rays from 1e3–1e16 (shapes at the origin and at 1e9)", () => {
    let hits = 0;
    for (const c of CASES)
      for (const at of PLACES)
        for (const k of AWAY)
          for (let axis = 0; axis < 3; axis++)
            for (const sign of [1, -1]) {
              const d: V3 = [0, 0, 0];
              d[axis] = sign;
              const o = c.aim.map((x, i) => x + at[i]) as V3;
              o[axis] = at[axis] + c.aim[axis] - sign * k;
              if (check(c, at, o, d)) hits++;
            }
    // The aim is inside (on, for the flat shapes) every shape: rays along its axes through it
    // hit, except a triangle's or a heightfield's edge-on rays.
    expect(hits).toBeGreaterThanOrEqual(CASES.length * PLACES.length * AWAY.length * 4);
  });

  it("every shape type, random rays and rotations aimed from 1e3–1e16 away (fast-check)", () => {
    const dir = fc
      .tuple(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
      )
      .filter((d) => Math.hypot(...d) > 0.25);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: CASES.length - 1 }),
        fc.constantFrom(...PLACES),
        fc.constantFrom(...AWAY),
        dir,
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        unitQuat,
        (ci, at, k, d, scale, q) => {
          const c = CASES[ci];
          const q4: Q4 = [q.x, q.y, q.z, q.w];
          const dd = d.map((x) => x * scale) as V3;
          const len = Math.hypot(...dd);
          const aimW = rotateVec(q4, c.aim);
          const o = aimW.map((x, i) => x + at[i] - (k / len) * dd[i]) as V3;
          check(c, at, o, dd, q4);
        },
      ),
      { numRuns: 600 },
    );
  });
});
