/**
 * overlapVolume of thin, flat and needle-like shapes (issue 16: a disc of half height 1e-9 in a
 * box was answered 5.32e-9 ± 1.3e-10 for π·2e-9, in 4–30 s). Oracles written here by hand: the
 * closed-form volume of the thin shape when it lies, by construction, inside the other (its
 * bounding ball placed inside the container's inscribed ball), the circular segment
 * r²(acos(t) − t√(1 − t²)) times the thickness for a disc cut by a face across it, area ×
 * thickness for a slab crossing a box's face. Every answer must hold the oracle within its own
 * errorBound.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQueryLines } from "../../src/io/query.js";
import type { Quat } from "../../src/math/quat.js";
import { overlapVolume } from "../../src/query/overlap-volume.js";
import {
  makeCapsule,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeHalfSpace,
  makeRoundedCuboid,
  makeSphere,
  type Shape,
} from "../../src/shapes/index.js";
import { pose, quatOf } from "../support/pose.js";

describe("overlapVolume of a thin disc inside a larger shape (issue 16's lines)", () => {
  it("answers π·2h exactly and at once", () => {
    const lines = [
      {
        id: "disc hh=1e-9 in box",
        op: "volume",
        a: { type: "cylinder", center: [0, 0, 0], halfHeight: 1e-9, radius: 1 },
        b: { type: "box", center: [0, 0, 0], halfExtents: [2, 2, 2] },
      },
      {
        id: "disc hh=1e-8 in sphere",
        op: "volume",
        a: { type: "cylinder", center: [0, 0, 0], halfHeight: 1e-8, radius: 1 },
        b: { type: "sphere", center: [0, 0, 0], radius: 3 },
      },
    ];
    const t = performance.now();
    const { lines: out, failed } = answerQueryLines(lines.map((l) => JSON.stringify(l)).join("\n"));
    const ms = performance.now() - t;
    expect(failed).toBe(false);
    const exact = [Math.PI * 2e-9, Math.PI * 2e-8];
    out.forEach((l, i) => {
      const r = JSON.parse(l).result;
      expect(Math.abs(r.volume - exact[i])).toBeLessThanOrEqual(r.errorBound);
      expect(r.errorBound).toBeLessThanOrEqual(1e-14 * exact[i]);
    });
    // Was 4–30 s each; now a containment test of a few hundred probes.
    expect(ms).toBeLessThan(500);
  });
});

/** A thin shape, its hand-derived volume and the radius of a ball about its origin holding it. */
interface Thin {
  shape: Shape;
  volume: number;
  radius: number;
}

/** Thin shape `kind` of long size `len` and thickness ratio `aspect` (module doc). */
function thinShape(kind: number, len: number, aspect: number): Thin {
  const t = len * aspect;
  switch (kind) {
    case 0: // a disc
      return {
        shape: makeCylinder(t, len),
        volume: Math.PI * len * len * 2 * t,
        radius: Math.hypot(len, t),
      };
    case 1: // a needle cylinder
      return {
        shape: makeCylinder(len, t),
        volume: Math.PI * t * t * 2 * len,
        radius: Math.hypot(len, t),
      };
    case 2: // a slab
      return {
        shape: makeCuboid({ x: len, y: t, z: 0.5 * len }),
        volume: 8 * len * t * 0.5 * len,
        radius: Math.hypot(len, t, 0.5 * len),
      };
    case 3: {
      // a needle capsule along a skew local segment
      const d = len / Math.sqrt(3);
      return {
        shape: makeCapsule({ x: -d, y: -d, z: -d }, { x: d, y: d, z: d }, t),
        volume: Math.PI * t * t * 2 * len + (4 / 3) * Math.PI * t * t * t,
        radius: len + t,
      };
    }
    case 4: // a flat cone
      return {
        shape: makeCone(t, len),
        volume: (1 / 3) * Math.PI * len * len * 2 * t,
        radius: Math.hypot(len, t),
      };
    case 5: {
      // a thin rounded box: box (len, t, len/2) swept by a ball of radius t
      const a = len;
      const b = t;
      const c = 0.5 * len;
      const r = t;
      return {
        shape: makeRoundedCuboid({ x: a, y: b, z: c }, r),
        volume:
          8 * a * b * c +
          8 * (a * b + b * c + c * a) * r +
          2 * Math.PI * (a + b + c) * r * r +
          (4 / 3) * Math.PI * r * r * r,
        radius: Math.hypot(a, b, c) + r,
      };
    }
    default: {
      // a hexagonal plate (a hull): area (3√3/2)·len² times 2t
      const pts: number[] = [];
      for (let i = 0; i < 6; i++) {
        const phi = (i * Math.PI) / 3;
        pts.push(len * Math.cos(phi), -t, len * Math.sin(phi));
        pts.push(len * Math.cos(phi), t, len * Math.sin(phi));
      }
      return {
        shape: makeConvexPolyhedron(pts),
        volume: ((3 * Math.sqrt(3)) / 2) * len * len * 2 * t,
        radius: Math.hypot(len, t),
      };
    }
  }
}

/** A container and the radius of the ball about its origin it holds. */
function container(kind: number): { shape: Shape; inscribed: number } {
  if (kind === 0) return { shape: makeCuboid({ x: 2, y: 2.5, z: 3 }), inscribed: 2 };
  if (kind === 1) return { shape: makeSphere(3), inscribed: 3 };
  if (kind === 2) return { shape: makeCylinder(2.5, 2.5), inscribed: 2.5 };
  return { shape: makeCapsule({ x: 0, y: -1, z: 0 }, { x: 0, y: 1, z: 0 }, 2.2), inscribed: 2.2 };
}

const quatArb = fc.tuple(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
);

describe("overlapVolume of thin shapes inside others (fast-check)", () => {
  it("is the thin shape's closed-form volume within the bound, at any aspect 1e-3..1e-12", () => {
    let worst = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 3 }),
        fc.double({ min: 3, max: 12, noNaN: true }),
        fc.double({ min: 0.2, max: 1, noNaN: true }),
        quatArb,
        quatArb,
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        fc.double({ min: -1e3, max: 1e3, noNaN: true }),
        fc.boolean(),
        (kind, ck, exponent, len, qa, qb, dir, far, swap) => {
          // A hull thinner than about 4e-10 of its extent is made a flat polygon (no volume;
          // src/shapes/convex-polyhedron.ts), so the hull plate stops at 1e-9.
          const thin = thinShape(kind, len, 10 ** -(kind === 6 ? Math.min(exponent, 9) : exponent));
          const box = container(ck);
          // The thin shape's ball inside the container's inscribed ball (0.9 of the slack).
          const room = 0.9 * (box.inscribed - thin.radius);
          const l = Math.hypot(...dir);
          const k = l > 0 ? (room * Math.min(1, l)) / l : 0;
          const rb = quatOf(qb);
          // The offset turned by the container's rotation (so it stays in its inscribed ball).
          const off = { x: dir[0] * k, y: dir[1] * k, z: dir[2] * k };
          const [x, y, z] = rotate(rb, off);
          const poseC = pose(far, -far, 0.5 * far, rb);
          const poseT = pose(far + x, -far + y, 0.5 * far + z, quatOf(qa));
          const t0 = performance.now();
          const r = swap
            ? overlapVolume(box.shape, poseC, thin.shape, poseT)
            : overlapVolume(thin.shape, poseT, box.shape, poseC);
          const ms = performance.now() - t0;
          expect(Math.abs(r.volume - thin.volume)).toBeLessThanOrEqual(r.errorBound);
          // Closed forms: 16u of the volume; a hull's faces: their determinants' permanents and
          // 4u × coordinates × area for the mean's rounding (≤ 1e-3 of the plate at 1e-12).
          expect(r.errorBound).toBeLessThanOrEqual(1e-9 * thin.volume + 1e-14 * len ** 3);
          expect(ms).toBeLessThan(200);
          worst = Math.max(worst, ms);
        },
      ),
      { numRuns: 300, seed: 16 },
    );
    expect(worst).toBeLessThan(200);
  });
});

/** q applied to v (components). */
function rotate(q: Quat, v: { x: number; y: number; z: number }): [number, number, number] {
  const { x, y, z, w } = q;
  const tx = 2 * (y * v.z - z * v.y);
  const ty = 2 * (z * v.x - x * v.z);
  const tz = 2 * (x * v.y - y * v.x);
  return [
    v.x + w * tx + (y * tz - z * ty),
    v.y + w * ty + (z * tx - x * tz),
    v.z + w * tz + (x * ty - y * tx),
  ];
}

describe("overlapVolume of thin shapes partly inside others", () => {
  it("a thin slab crossing a box's face: area × thickness (exact clipping), rotated together", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 3, max: 12, noNaN: true }),
        fc.double({ min: -0.9, max: 0.9, noNaN: true }),
        quatArb,
        (exponent, cut, q) => {
          const t = 10 ** -exponent;
          const rq = quatOf(q);
          // Slab [-1, 1] × [-t, t] × [-1, 1]; the box's face x = cut crosses it.
          const slab = makeCuboid({ x: 1, y: t, z: 1 });
          const box = makeCuboid({ x: 2, y: 2, z: 2 });
          const [x, y, z] = rotate(rq, { x: cut + 2, y: 0, z: 0 });
          const r = overlapVolume(slab, pose(0, 0, 0, rq), box, pose(x, y, z, rq));
          const exact = (1 - cut) * 2 * 2 * t;
          expect(Math.abs(r.volume - exact)).toBeLessThanOrEqual(r.errorBound);
          // The faces' rounding (64u × area 8 × coordinates ~4, about 2e-13) at the thinnest.
          expect(r.errorBound).toBeLessThanOrEqual(1e-3 * exact + 1e-12);
        },
      ),
      { numRuns: 100, seed: 16 },
    );
  });

  it("a thin disc cut by a face across it: the circular segment times the thickness, within the bound", () => {
    for (const [hh, cut] of [
      [1e-6, 0.3],
      [1e-9, -0.5],
      [1e-12, 0.7],
    ]) {
      const disc = makeCylinder(hh, 1);
      const exact = (Math.acos(cut) - cut * Math.sqrt(1 - cut * cut)) * 2 * hh;
      // The box's face x = cut; the box holds the rest of the disc.
      const box = makeCuboid({ x: 1, y: 2, z: 2 });
      const r = overlapVolume(disc, pose(), box, pose(cut + 1, 0, 0), { maxCells: 20_000 });
      expect(Math.abs(r.volume - exact)).toBeLessThanOrEqual(r.errorBound);
      // A half-space in the plane of that face.
      const h = makeHalfSpace({ x: -1, y: 0, z: 0 }, -cut);
      const rh = overlapVolume(disc, pose(), h, pose(), { maxCells: 20_000 });
      expect(Math.abs(rh.volume - exact)).toBeLessThanOrEqual(rh.errorBound);
    }
  });

  it("a thin shape wholly behind or beyond a half-space: its volume or 0, exactly", () => {
    const disc = makeCylinder(1e-10, 1);
    const tilt = quatOf([0.3, 0.1, -0.2, 0.9]);
    const whole = overlapVolume(
      disc,
      pose(0, 0, 0, tilt),
      makeHalfSpace({ x: 1, y: 0, z: 0 }, 1.5),
      pose(),
    );
    expect(Math.abs(whole.volume - Math.PI * 2e-10)).toBeLessThanOrEqual(whole.errorBound);
    expect(whole.errorBound).toBeLessThanOrEqual(1e-14 * whole.volume);
    const none = overlapVolume(
      disc,
      pose(0, 0, 0, tilt),
      makeHalfSpace({ x: 1, y: 0, z: 0 }, -1.5),
      pose(),
    );
    expect(none).toEqual({ volume: 0, errorBound: 0 });
  });
});
