/**
 * Ray casts whose origin and direction are of any finite magnitude (attack report of 2026-12-05,
 * finding 5). A ray from 1e155 along a direction of length 1e155 squared that length to infinity:
 * a unit sphere was hit at (0, 0.5, 0) with the normal (0, 1, 0) (right: (0.866, 0.5, 0)), a unit
 * box from 1e200 one unit off its face; a direction shorter than 1 from 1e300 overflowed the far
 * origin's exact move (its Dekker split) and was hit 1 unit off too. The direction is now
 * rescaled by a power of two (src/query/raycast.ts `castRayRescaled`), which the toi undoes exactly.
 *
 * Oracle: the hand-derived hit of each shape (a sphere, capsule, cylinder, box, triangle,
 * heightfield) and, for every shape type, the same ray cast from a few units away along a unit
 * direction (the cases of test/query/raycast.test.ts): the far ray's point and normal must be
 * that hit's, its toi the distance over the direction's length. Origins 1e100 … 1.7e308 along
 * an axis and along (3, 4, 12) through the shape's centre (exact doubles on the ray), directions
 * 1e-100 … 1e300, solid and not.
 */
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import type { Shape } from "../../src/shapes/shape.js";

type V = { x: number; y: number; z: number };
const Q = { x: 0, y: 0, z: 0, w: 1 };
const I = { translation: { x: 0, y: 0, z: 0 }, rotation: Q };

function boxMesh(): { v: number[]; i: number[] } {
  const v: number[] = [];
  for (let k = 0; k < 8; k++) v.push(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1);
  // Outward-wound quads of the unit box (corner k at bits x = 1, y = 2, z = 4).
  const quads = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  const i: number[] = [];
  for (const [a, b, c, d] of quads) i.push(a, b, c, a, c, d);
  return { v, i };
}

const corners: V[] = [];
for (let k = 0; k < 8; k++)
  corners.push({ x: k & 1 ? 1 : -1, y: k & 2 ? 1 : -1, z: k & 4 ? 1 : -1 });
const bm = boxMesh();

/** Every shape type with a ray cast, each about the unit ball around its pose's origin. */
const SHAPES: [string, Shape, typeof I][] = [
  ["sphere", api.makeSphere(1), I],
  ["box", api.makeCuboid({ x: 1, y: 1, z: 1 }), I],
  ["capsule", api.makeCapsule({ x: 0, y: -1, z: 0 }, { x: 0, y: 1, z: 0 }, 1), I],
  ["cylinder", api.makeCylinder(1, 1), I],
  ["cone", api.makeCone(1, 1), I],
  ["hull", api.makeConvexPolyhedron(corners), I],
  ["roundedBox", api.makeRoundedCuboid({ x: 0.75, y: 0.75, z: 0.75 }, 0.25), I],
  ["roundedConvex", api.makeRoundedConvexPolyhedron(corners, 0.25), I],
  [
    "triangle",
    api.makeTriangle({ x: 1, y: -2, z: -2 }, { x: 1, y: 2, z: -2 }, { x: 1, y: 0, z: 2 }),
    I,
  ],
  ["mesh", api.makeTriangleMesh(bm.v, bm.i), I],
  ["solidMesh", api.makeTriangleMesh(bm.v, bm.i, "", { solid: true }), I],
  [
    "compound",
    api.makeCompound([
      { shape: api.makeCuboid({ x: 1, y: 1, z: 1 }), pose: I },
      { shape: api.makeSphere(0.5), pose: { translation: { x: 0, y: 0, z: 0.75 }, rotation: Q } },
    ]),
    I,
  ],
  [
    "heightfield",
    api.makeHeightfield({
      rows: 3,
      cols: 3,
      heights: [0, 0, 0, 0, 0.5, 0, 0, 0, 0],
      scale: { x: 1, y: 1, z: 1 },
    }),
    { translation: { x: -1, y: 0, z: -1 }, rotation: Q },
  ],
];

/** Hand-derived hits of the ray along −x at y = 0.5, z = 0.25 (point x, normal). */
const AXIS_HITS: Record<string, [number, V]> = {
  sphere: [Math.sqrt(0.6875), { x: Math.sqrt(0.6875), y: 0.5, z: 0.25 }],
  box: [1, { x: 1, y: 0, z: 0 }],
  capsule: [Math.sqrt(0.9375), { x: Math.sqrt(0.9375), y: 0, z: 0.25 }],
  cylinder: [Math.sqrt(0.9375), { x: Math.sqrt(0.9375), y: 0, z: 0.25 }],
  triangle: [1, { x: 1, y: 0, z: 0 }],
  mesh: [1, { x: 1, y: 0, z: 0 }],
  solidMesh: [1, { x: 1, y: 0, z: 0 }],
  hull: [1, { x: 1, y: 0, z: 0 }],
};

function expectNear(got: V, want: V, tol: number, what: string): void {
  expect(Math.abs(got.x - want.x), `${what} x`).toBeLessThanOrEqual(tol);
  expect(Math.abs(got.y - want.y), `${what} y`).toBeLessThanOrEqual(tol);
  expect(Math.abs(got.z - want.z), `${what} z`).toBeLessThanOrEqual(tol);
}

/**
 * Casts from `far` along `dir` and checks it against the reference hit `ref` (null: a miss):
 * the same point and normal within 1e-9 (unit shapes), toi = |far − point| / |dir| to 1e-12.
 */
function checkFar(
  name: string,
  shape: Shape,
  pose: typeof I,
  far: V,
  dir: V,
  ref: api.RayHit | null,
  solid: boolean,
): void {
  const what = `${name} from ${far.x},${far.y},${far.z} along ${dir.x},${dir.y},${dir.z} solid ${solid}`;
  const hit = api.raycast(shape, pose, far, dir, Infinity, solid);
  if (ref === null) {
    expect(hit, what).toBeNull();
    return;
  }
  expect(hit, what).not.toBeNull();
  if (!hit) return;
  expectNear(hit.point, ref.point, 1e-9, `${what} point`);
  expectNear(hit.normal, ref.normal, 1e-9, `${what} normal`);
  // |far − point| / |dir|, both scaled into range first (exact powers of two).
  const m = Math.max(Math.abs(dir.x), Math.abs(dir.y), Math.abs(dir.z));
  const s = 2 ** -Math.ceil(Math.log2(m));
  const dist = Math.hypot(far.x - ref.point.x, far.y - ref.point.y, far.z - ref.point.z);
  const toi = (dist * s) / Math.hypot(dir.x * s, dir.y * s, dir.z * s);
  expect(Math.abs(hit.toi - toi), `${what} toi ${hit.toi} vs ${toi}`).toBeLessThanOrEqual(
    1e-12 * toi,
  );
  // A reach just short of the hit misses it.
  expect(
    api.raycast(shape, pose, far, dir, hit.toi * (1 - 1e-9), solid),
    `${what} short`,
  ).toBeNull();
}

const FAR = [1e100, 1e155, 1e200, 1e300, 1.7e308];
const LENGTHS = [1e-100, 1e-20, 1, 1e20, 1e100, 1e155, 1e200, 1e300];

describe("raycast: origins and directions of any finite magnitude", () => {
  it("the report's reproducers: a unit sphere from 1e155, a unit box from 1e200", () => {
    const s = api.raycast(
      api.makeSphere(1),
      I,
      { x: 1e155, y: 0.5, z: 0 },
      { x: -1e155, y: 0, z: 0 },
      Infinity,
    );
    expect(s).not.toBeNull();
    expectNear(s?.point as V, { x: Math.sqrt(0.75), y: 0.5, z: 0 }, 1e-15, "sphere point");
    expectNear(s?.normal as V, { x: Math.sqrt(0.75), y: 0.5, z: 0 }, 1e-15, "sphere normal");
    expect(s?.toi).toBe(1);
    for (const e of [130, 150, 155, 160, 170, 190, 200, 300]) {
      const X = 10 ** e;
      const b = api.raycast(
        api.makeCuboid({ x: 1, y: 1, z: 1 }),
        I,
        { x: X, y: 0.5, z: 0 },
        { x: -X, y: 0, z: 0 },
        Infinity,
      );
      expect(b?.point, `box from 1e${e}`).toEqual({ x: 1, y: 0.5, z: 0 });
      expect(b?.normal).toEqual({ x: 1, y: 0, z: 0 });
      expect(b?.toi).toBe(1);
    }
  });

  it("along an axis, every shape type: the hand-derived hit and the near ray's", () => {
    for (const [name, shape, pose] of SHAPES) {
      // The heightfield is hit from above (−y), the others from +x.
      const up = name === "heightfield";
      const at = (d: number): V => (up ? { x: 0.5, y: d, z: 0.25 } : { x: d, y: 0.5, z: 0.25 });
      const axis = (l: number): V => (up ? { x: 0, y: -l, z: 0 } : { x: -l, y: 0, z: 0 });
      for (const solid of [true, false]) {
        const ref = api.raycast(shape, pose, at(5), axis(1), Infinity, solid);
        const hand = AXIS_HITS[name];
        if (hand) {
          expect(ref, name).not.toBeNull();
          expectNear(ref?.point as V, { x: hand[0], y: 0.5, z: 0.25 }, 1e-12, `${name} hand point`);
          expectNear(ref?.normal as V, hand[1], 1e-12, `${name} hand normal`);
        }
        if (up)
          expectNear(
            ref?.point as V,
            { x: 0.5, y: 0.25, z: 0.25 },
            1e-12,
            "heightfield hand point",
          );
        for (const X of FAR) {
          for (const L of LENGTHS) {
            if (!(X / L < 1e300)) continue; // its toi is beyond the doubles
            checkFar(name, shape, pose, at(X), axis(L), ref, solid);
          }
        }
      }
    }
  });

  it("along (3, 4, 12) through the shape's centre, every shape type", () => {
    for (const [name, shape, pose] of SHAPES) {
      const g = name === "heightfield" ? { x: 3, y: 12, z: 4 } : { x: 3, y: 4, z: 12 };
      for (const solid of [true, false]) {
        const ref = api.raycast(
          shape,
          pose,
          { x: 2 * g.x, y: 2 * g.y, z: 2 * g.z },
          { x: -g.x, y: -g.y, z: -g.z },
          Infinity,
          solid,
        );
        if (name === "sphere") {
          expectNear(
            ref?.point as V,
            { x: 3 / 13, y: 4 / 13, z: 12 / 13 },
            1e-15,
            "sphere hand point",
          );
          expectNear(
            ref?.normal as V,
            { x: 3 / 13, y: 4 / 13, z: 12 / 13 },
            1e-15,
            "sphere hand normal",
          );
        }
        if (name === "box") {
          expectNear(ref?.point as V, { x: 0.25, y: 1 / 3, z: 1 }, 1e-15, "box hand point");
          expect(ref?.normal).toEqual({ x: 0, y: 0, z: 1 });
        }
        for (const j of [332, 515, 664, 996, 1018]) {
          const far = { x: g.x * 2 ** j, y: g.y * 2 ** j, z: g.z * 2 ** j };
          for (const m of [-332, -66, 0, 66, 332, 515, 664, 996]) {
            if (j - m > 990) continue; // its toi is beyond the doubles
            const k = 2 ** m;
            checkFar(name, shape, pose, far, { x: -g.x * k, y: -g.y * k, z: -g.z * k }, ref, solid);
          }
        }
      }
    }
  });

  it("from inside with a huge or tiny direction: toi 0 when solid, the exit when not", () => {
    for (const L of [1e-300, 1e-100, 1e100, 1e155, 1e300]) {
      const o = { x: 0, y: 0.5, z: 0 };
      const solid = api.raycast(api.makeSphere(1), I, o, { x: L, y: 0, z: 0 }, Infinity, true);
      expect(solid?.toi).toBe(0);
      const out = api.raycast(api.makeSphere(1), I, o, { x: L, y: 0, z: 0 }, Infinity, false);
      expect(out).not.toBeNull();
      expectNear(out?.point as V, { x: Math.sqrt(0.75), y: 0.5, z: 0 }, 1e-15, `exit ${L}`);
      expectNear(out?.normal as V, { x: Math.sqrt(0.75), y: 0.5, z: 0 }, 1e-15, `exit normal ${L}`);
      expect(Math.abs((out?.toi as number) - Math.sqrt(0.75) / L)).toBeLessThanOrEqual(1e-15 / L);
    }
  });

  it("maxToi in multiples of a huge direction: a hit at toi 1 within maxToi 1, none within 0.99", () => {
    const b = api.makeCuboid({ x: 1, y: 1, z: 1 });
    for (const X of [1e200, 1e300]) {
      const o = { x: X + 0, y: 0.5, z: 0 };
      const d = { x: -X, y: 0, z: 0 };
      expect(api.raycast(b, I, o, d, 1)?.toi).toBe(1);
      expect(api.raycast(b, I, o, d, 0.99)).toBeNull();
    }
  });
});
