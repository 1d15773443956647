/**
 * overlapVolume with a solid mesh (or a hull) given far from its frame's origin in world
 * coordinates, identity pose (fresh-user finding 44/03, issue 16): answered as the same shape
 * placed there by a pose (src/query/overlap-volume-far.ts). Oracles: closed forms of a convex
 * shape cut in half by the face plane it is centred on (Steiner's formula for the rounded box,
 * the ball's, the capsule's and the cylinder's halves, the octahedron's), and box ∩ box in exact
 * dyadic rationals (BigInt) for the property over random far translations.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import { overlapVolume } from "../../src/query/overlap-volume.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeRoundedConvexPolyhedron, makeRoundedCuboid } from "../../src/shapes/rounded.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { solidBoxMesh as boxMesh } from "../support/box-mesh.js";
import { boxBox, holds, toNumber } from "../support/exact-box-volume.js";
import { dyadic } from "../support/flat-box.js";
import { lMesh } from "../support/l-mesh.js";

type V3 = { x: number; y: number; z: number };
const v3 = (x: number, y: number, z: number): V3 => ({ x, y, z });
const at = (t: V3): Isometry => ({ translation: t, rotation: { x: 0, y: 0, z: 0, w: 1 } });
const I = at(v3(0, 0, 0));

/** CPU milliseconds of `f()` and its answer. */
function timed<T>(f: () => T): [T, number] {
  const t = process.cpuUsage();
  const r = f();
  return [r, process.cpuUsage(t).user / 1000];
}

const R = 0.25;
const A = 0.4;
/** Convex shapes centred on a face plane (axes along it), each with its exact half volume. */
const HALVES: [string, Shape, number][] = [
  [
    "rounded box",
    makeRoundedCuboid(v3(0.25, 0.25, 0.25), 0.125),
    // Steiner: a cube of edge 0.5 grown by a ball of radius 0.125, halved.
    0.5 *
      (0.5 ** 3 +
        6 * 0.25 * 0.125 +
        3 * Math.PI * 0.125 ** 2 * 0.5 +
        (4 / 3) * Math.PI * 0.125 ** 3),
  ],
  ["sphere", makeSphere(0.4), (2 / 3) * Math.PI * 0.4 ** 3],
  ["box", makeCuboid(v3(0.3, 0.4, 0.25)), 4 * 0.3 * 0.4 * 0.25],
  [
    "capsule",
    makeCapsule(v3(-0.3, 0, 0), v3(0.3, 0, 0), R),
    0.5 * (Math.PI * R * R * 0.6 + (4 / 3) * Math.PI * R ** 3),
  ],
  ["cylinder", makeCylinder(0.3, R), 0.5 * Math.PI * R * R * 0.6],
  [
    "hull",
    makeConvexPolyhedron([A, 0, 0, -A, 0, 0, 0, A, 0, 0, -A, 0, 0, 0, A, 0, 0, -A]),
    (2 / 3) * A ** 3,
  ],
];

describe("overlapVolume with a solid mesh given far away in world coordinates", () => {
  it("fresh44 03: a rounded box half-sunk in a box mesh at 2^30 (was 33 s of CPU, errorBound 1.5 %)", () => {
    const exact = HALVES[0][2];
    for (const C of [1e6, 2 ** 30, 1e9, 1e12]) {
      const mesh = boxMesh([C, C, C], [C + 2, C + 2, C + 1]);
      const [r, ms] = timed(() =>
        overlapVolume(mesh, I, HALVES[0][1], at(v3(C + 1, C + 1, C + 1))),
      );
      expect(Math.abs(r.volume - exact)).toBeLessThanOrEqual(r.errorBound);
      expect(r.errorBound).toBeLessThanOrEqual(1e-3 * exact);
      // The same pair placed by a pose: the same volume within both bounds.
      const posed = overlapVolume(
        boxMesh([0, 0, 0], [2, 2, 1]),
        at(v3(C, C, C)),
        HALVES[0][1],
        at(v3(C + 1, C + 1, C + 1)),
      );
      expect(Math.abs(r.volume - posed.volume)).toBeLessThanOrEqual(
        r.errorBound + posed.errorBound,
      );
      expect(ms).toBeLessThan(3000); // 33 s before; tens of ms now
    }
  });

  it("sphere, box, capsule, cylinder and hull half-sunk in a far box mesh: the closed form, within the tolerance", () => {
    for (const C of [2 ** 30, 1e12]) {
      const mesh = boxMesh([C, C, C], [C + 2, C + 2, C + 1]);
      for (const [name, s, exact] of HALVES) {
        for (const [r, label] of [
          [overlapVolume(mesh, I, s, at(v3(C + 1, C + 1, C + 1))), "mesh first"],
          [overlapVolume(s, at(v3(C + 1, C + 1, C + 1)), mesh, I), "mesh second"],
        ] as const) {
          expect(Math.abs(r.volume - exact), `${name} at ${C}, ${label}`).toBeLessThanOrEqual(
            r.errorBound,
          );
          expect(r.errorBound, `${name} at ${C}, ${label}`).toBeLessThanOrEqual(1e-3 * exact);
        }
      }
    }
  });

  it("a hull and a rounded hull given at 2^30 and 1e12 (a hull with a rounded box: 33 s for 1.4 % before; with a cylinder: errorBound 59 % at 1e12)", () => {
    for (const C of [2 ** 30, 1e12]) {
      const pts: number[] = [];
      for (const x of [C, C + 2])
        for (const y of [C, C + 2]) for (const z of [C, C + 1]) pts.push(x, y, z);
      const hull = makeConvexPolyhedron(pts);
      for (const [name, s, exact] of HALVES) {
        const r = overlapVolume(hull, I, s, at(v3(C + 1, C + 1, C + 1)));
        expect(Math.abs(r.volume - exact), `${name} at ${C}`).toBeLessThanOrEqual(r.errorBound);
        expect(r.errorBound, `${name} at ${C}`).toBeLessThanOrEqual(1e-3 * exact);
      }
      // A rounded hull given there (a cube's corners, radius 1/8: the rounded box's solid),
      // half below a box's top face (21 s for 1.5 % before).
      const core: number[] = [];
      for (const x of [C - 0.25, C + 0.25])
        for (const y of [C - 0.25, C + 0.25])
          for (const z of [C - 0.25, C + 0.25]) core.push(x, y, z);
      const rounded = makeRoundedConvexPolyhedron(core, 0.125);
      const r = overlapVolume(rounded, I, makeCuboid(v3(1, 1, 0.5)), at(v3(C, C, C - 0.5)));
      expect(Math.abs(r.volume - HALVES[0][2])).toBeLessThanOrEqual(r.errorBound);
      expect(r.errorBound).toBeLessThanOrEqual(1e-3 * HALVES[0][2]);
    }
  });

  it("the L-shaped (not convex) prism at 2^30 and 1e12 in world coordinates: as placed by a pose, both holding box ∩ box", () => {
    const g = [0.3125, 0.28125, 0.25]; // dyadic: the corners c ± g exact at 1e12
    for (const C of [2 ** 30, 1e12]) {
      // Across the reflex corner: the two arms' boxes each cut.
      const c = [C + 1.09375, C + 1.09375, C + 1];
      const lo = c.map((x, k) => x - g[k]);
      const hi = c.map((x, k) => x + g[k]);
      const exact =
        boxBox([C, C, C], [C + 2, C + 1, C + 1], lo, hi) +
        boxBox([C, C + 1, C], [C + 1, C + 2, C + 1], lo, hi);
      const box = makeCuboid(v3(g[0], g[1], g[2]));
      const options = { relativeTolerance: 2e-2 };
      const pose = at(v3(c[0], c[1], c[2]));
      const world = overlapVolume(lMesh(1, [C, C, C]), I, box, pose, options);
      const posed = overlapVolume(lMesh(), at(v3(C, C, C)), box, pose, options);
      expect(holds(exact, world)).toBe(true);
      expect(holds(exact, posed)).toBe(true);
      expect(Math.abs(world.volume - posed.volume)).toBeLessThanOrEqual(
        world.errorBound + posed.errorBound,
      );
      expect(world.errorBound).toBeLessThanOrEqual(2e-2 * toNumber(exact));
    }
  });

  it("a far world mesh under a rotated pose: the placement's rounding in the bound", () => {
    // Turned half a turn about z around the world origin: the mesh lands at −C.
    const C = 2 ** 30;
    const mesh = boxMesh([C, C, C], [C + 2, C + 2, C + 1]);
    const turned: Isometry = { translation: v3(0, 0, 0), rotation: { x: 0, y: 0, z: 1, w: 0 } };
    const [s, exact] = [HALVES[1][1], HALVES[1][2]];
    const r = overlapVolume(mesh, turned, s, at(v3(-C - 1, -C - 1, C + 1)));
    expect(Math.abs(r.volume - exact)).toBeLessThanOrEqual(r.errorBound);
    expect(r.errorBound).toBeLessThanOrEqual(1e-2 * exact);
  });

  it("random dyadic far translations (to 2^40): the mesh in world coordinates as the mesh placed by a pose (fast-check)", () => {
    // Multiples of 1/16 (dyadic): every corner T ± h exact.
    const far = fc.integer({ min: -(2 ** 36), max: 2 ** 36 }).map((k) => k * 16 + 1 / 16);
    fc.assert(
      fc.property(
        fc.tuple(far, far, far),
        fc.tuple(dyadic(0.25, 2), dyadic(0.25, 2), dyadic(0.25, 2)),
        fc.tuple(dyadic(0.25, 1), dyadic(0.25, 1), dyadic(0.25, 1)),
        fc.tuple(dyadic(-2, 2), dyadic(-2, 2), dyadic(-2, 2)),
        fc.constantFrom("box", "sphere", "rounded box"),
        ([tx, ty, tz], [hx, hy, hz], [gx, gy, gz], [ox, oy, oz], kind) => {
          const T = [tx, ty, tz];
          const h = [hx, hy, hz];
          const world = boxMesh(
            T.map((t, k) => t - h[k]),
            T.map((t, k) => t + h[k]),
          );
          const local = boxMesh(
            h.map((x) => -x),
            h,
          );
          const other: Shape =
            kind === "box"
              ? makeCuboid(v3(gx, gy, gz))
              : kind === "sphere"
                ? makeSphere(gx)
                : makeRoundedCuboid(v3(gx, gy, gz), 0.125);
          const pose = at(v3(tx + ox, ty + oy, tz + oz));
          const a = overlapVolume(world, I, other, pose);
          const b = overlapVolume(local, at(v3(tx, ty, tz)), other, pose);
          expect(Math.abs(a.volume - b.volume)).toBeLessThanOrEqual(a.errorBound + b.errorBound);
          const vmax = Math.max(a.volume, 1e-300);
          expect(a.errorBound).toBeLessThanOrEqual(1e-3 * vmax + 1e-12);
          if (kind === "box") {
            const exact = boxBox(
              h.map((x) => -x),
              h,
              [ox - gx, oy - gy, oz - gz],
              [ox + gx, oy + gy, oz + gz],
            );
            expect(holds(exact, a)).toBe(true);
            expect(holds(exact, b)).toBe(true);
          } else if (kind === "sphere") {
            // The ball–box closed form (src/geometry/ball-box-volume.ts), at the origin.
            const c = overlapVolume(other, at(v3(ox, oy, oz)), makeCuboid(v3(hx, hy, hz)), I);
            expect(Math.abs(a.volume - c.volume)).toBeLessThanOrEqual(a.errorBound + c.errorBound);
          }
        },
      ),
      { numRuns: 30, seed: 4403 },
    );
  });
});
