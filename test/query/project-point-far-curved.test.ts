/**
 * `projectPoint` far from a cylinder or a cone (issue 16, session 41): the double profile carries
 * ρ = √(x² + z²) rounded and its parameters (a cap's clamp, the cone's slant foot) drift by
 * ε·distance — a cone of 0.04 seen from 7.5e7 below its base answered 4.6e-9 off the foot
 * (x, −h, z) (7.7e8 ulps of its size; its slant foot 5.3e8 ulps), a cylinder's side or rim point
 * two ulps off. Now the point is the exact nearest point rounded once (src/geometry/exact-nearest.ts,
 * `exactRevolutionWhenFar`) and the distance within two ulps.
 *
 * Oracle: test/oracles/revolution-nearest.ts — BigInt fixed point at 2^-1134, the profile's
 * nearest point as the nearest of its edges' clamped feet, no code of the library. With a pose
 * translated by t (identity rotation), the query's local point is p − t rounded (the library's
 * input): the nearest point map onto a convex set moves by at most as much as the point, so the
 * bar adds that rounding (measured exactly here) and the world coordinates' own rounding.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import { fix, revolutionNearest, unfix } from "../oracles/revolution-nearest.js";
import { pose } from "../support/pose.js";
import { ulp } from "../support/ulp.js";

const ID = pose();

type Kind = "cylinder" | "cone";

/**
 * Asserts projectPoint(shape at translation t, p) against the oracle: each coordinate within an
 * ulp of the exact one (plus the world's rounding and the input's offset rounding when t ≠ 0),
 * the distance within two ulps (plus the input's rounding).
 */
function check(kind: Kind, h: number, r: number, t: api.Vec3, p: api.Vec3): void {
  const shape = kind === "cone" ? api.makeCone(h, r) : api.makeCylinder(h, r);
  const pose = { translation: t, rotation: { x: 0, y: 0, z: 0, w: 1 } };
  const got = api.projectPoint(shape, pose, p);
  expect(got.inside).toBe(false);
  // The exact local point and the one the library starts from (p − t rounded).
  const exactLocal: [bigint, bigint, bigint] = [
    fix(p.x) - fix(t.x),
    fix(p.y) - fix(t.y),
    fix(p.z) - fix(t.z),
  ];
  const rounded = [p.x - t.x, p.y - t.y, p.z - t.z].map(fix);
  const dIn = Math.hypot(
    unfix(rounded[0] - exactLocal[0]),
    unfix(rounded[1] - exactLocal[1]),
    unfix(rounded[2] - exactLocal[2]),
  );
  const ex = revolutionNearest(kind, h, r, exactLocal);
  const world = [ex.fixed[0] + fix(t.x), ex.fixed[1] + fix(t.y), ex.fixed[2] + fix(t.z)].map(unfix);
  const moved = t.x !== 0 || t.y !== 0 || t.z !== 0;
  const g = [got.point.x, got.point.y, got.point.z];
  for (let i = 0; i < 3; i++) {
    const tol = 1.01 * dIn + ulp(ex.point[i]) + (moved ? ulp(world[i]) : 0) + 2 ** -1100;
    expect(Math.abs(g[i] - world[i]), `coordinate ${i}`).toBeLessThanOrEqual(tol);
  }
  expect(Math.abs(got.distance - ex.distance)).toBeLessThanOrEqual(
    2 * ulp(ex.distance) + 1.01 * dIn,
  );
}

/** A query point in profile coordinates: a feature's point moved `far` along a direction. */
function profilePoint(
  kind: Kind,
  h: number,
  r: number,
  feature: number,
  t: number,
  lean: number,
  far: number,
  az: number,
): api.Vec3 {
  let base: [number, number];
  let dir: [number, number];
  if (kind === "cone") {
    const L = Math.hypot(2 * h, r);
    const n: [number, number] = [(2 * h) / L, r / L];
    // 0 the slant's normal region, 1 above the apex, 2 beyond the rim, 3 below the base.
    base = [
      [t * r, h - 2 * h * t],
      [0, h],
      [r, -h],
      [t * r, -h],
    ][feature] as [number, number];
    dir = [n, [n[0] * lean, 1], [1, -lean], [0, -1]][feature] as [number, number];
  } else {
    // 0 beside the side, 1 beyond the top rim, 2 over the top cap, 3 beyond the bottom rim.
    const s = 2 * t - 1;
    base = [
      [r, s * h],
      [r, h],
      [t * r, h],
      [r, -h],
    ][feature] as [number, number];
    dir = [
      [1, 0],
      [1, lean],
      [0, 1],
      [lean, -1],
    ][feature] as [number, number];
  }
  const l = Math.hypot(dir[0], dir[1]);
  const rho = base[0] + (dir[0] / l) * far;
  return { x: rho * Math.cos(az), y: base[1] + (dir[1] / l) * far, z: rho * Math.sin(az) };
}

describe("projectPoint far from a cylinder or a cone: the exact nearest point", () => {
  it("a cone seen from far below its base, off its slant and past its apex; a cylinder off its rim", () => {
    const cone = api.makeCone(0.5, 0.25);
    for (const D of [1e4, 1e8, 1e12, 1e16, 1e100, 1e300]) {
      // Below the base: the base's foot (x, −h, z) as given.
      const b = api.projectPoint(cone, ID, { x: 0.1, y: -D, z: -0.05 });
      expect([b.point.x, b.point.y, b.point.z]).toEqual([0.1, -0.5, -0.05]);
      expect(b.distance).toBe(D - 0.5);
      // Above the apex, inside its normal cone: the apex.
      const a = api.projectPoint(cone, ID, { x: 0.01, y: D, z: 0 });
      expect([a.point.x, a.point.y, a.point.z]).toEqual([0, 0.5, 0]);
      // Along the slant's normal (2h, r) = (1, 0.25) from its midpoint (0.125, 0): that point;
      // from 1e16 on, 0.125 + D rounds to D and t = 0.5/1.0625 = 8/17: (2/17, 1/34, 0).
      const s = api.projectPoint(cone, ID, { x: 0.125 + D, y: D / 4, z: 0 });
      expect([s.point.x, s.point.y, s.point.z]).toEqual(
        D < 1e16 ? [0.125, 0, 0] : [2 / 17, 1 / 34, 0],
      );
      check("cone", 0.5, 0.25, ID.translation, { x: 0.125 + D, y: D / 4, z: 0 });
      // A cylinder's rim seen along the diagonal (D, D, D): r·(1, 0, 1)/√2 rounded once.
      const cyl = api.makeCylinder(1, 1);
      const c = api.projectPoint(cyl, ID, { x: D, y: D, z: D });
      expect([c.point.x, c.point.y, c.point.z]).toEqual([Math.SQRT1_2, 1, Math.SQRT1_2]);
    }
  });

  it("a cone of 1e-300 seen from 1e300 and one of 1e300 from 1e307 (other units): the exact point", () => {
    check("cone", 1e-300, 2e-300, ID.translation, { x: 1e300, y: -3e299, z: 5e299 });
    check("cylinder", 1e-300, 2e-300, ID.translation, { x: 1e300, y: -3e299, z: 5e299 });
    check("cone", 1e300, 3e300, ID.translation, { x: 1e307, y: 2e306, z: -5e306 });
  });

  const kind = fc.constantFrom<Kind>("cylinder", "cone");
  const logSize = fc.double({ min: -6, max: 6, noNaN: true });
  const logAspect = fc.double({ min: -2, max: 2, noNaN: true });
  const logFar = fc.double({ min: 3, max: 9, noNaN: true });
  const offset = fc.tuple(
    fc.constantFrom(0, 1, -1e3, 1e9, -1e9),
    fc.constantFrom(0, 1, 1e3, -1e9),
    fc.constantFrom(0, -1, 1e3, 1e9),
  );
  const unit = fc.double({ min: 0, max: 1, noNaN: true });

  it("property: cylinders and cones of 1e-6..1e6 (aspect 1e-2..1e2, offsets to 1e9) seen from 1e3..1e9 sizes off every feature", () => {
    fc.assert(
      fc.property(
        kind,
        logSize,
        logAspect,
        logFar,
        fc.integer({ min: 0, max: 3 }),
        unit,
        unit,
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        offset,
        (k, ls, la, lf, feature, t, lean, az, off) => {
          const s = 10 ** ls;
          const h = s * Math.min(1, 10 ** la);
          const r = s * Math.min(1, 10 ** -la);
          const q = profilePoint(k, h, r, feature, t, lean, s * 10 ** lf, az);
          const tr = { x: off[0], y: off[1], z: off[2] };
          const p = { x: tr.x + q.x, y: tr.y + q.y, z: tr.z + q.z };
          check(k, h, r, tr, p);
        },
      ),
      { numRuns: 400 },
    );
  });
});
