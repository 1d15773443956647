/**
 * castShapesNonlinear of two half-spaces apart at time 0 (normals exactly opposite, a gap)
 * while one or both rotate (issue 14: "half-space × half-space gets a defined answer in every
 * query"). Values derived by hand (see src/query/cast-shapes.ts, castTurningHalfSpaces).
 */
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapesNonlinear } from "../../src/query/cast-shapes.js";
import { intersects } from "../../src/query/intersects.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";

const I = iso.identity();
const zero = vec3.create(0, 0, 0);
const up = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0); // y ≤ 0
const down = makeHalfSpace({ x: 0, y: -1, z: 0 }, -5); // y ≥ 5
const unit = (v: vec3.Vec3) => {
  const u = vec3.create();
  vec3.normalize(u, v);
  return u;
};
const turn = (axis: vec3.Vec3, angle: number) =>
  quat.fromAxisAngle(quat.create(), unit(axis), angle);

describe("two half-spaces apart at time 0, one or both rotating", () => {
  it("a turn that tilts a normal: they intersect at every time after 0, toi = Number.MIN_VALUE", () => {
    expect(intersects(up, I, down, I)).toBe(false);
    const tilted = iso.create(zero, turn({ x: 0, y: 0, z: 1 }, 0.5));
    const hit = castShapesNonlinear(up, I, tilted, down, I, I, 1);
    expect(hit?.toi).toBe(Number.MIN_VALUE);
    // The contact at time 0: A's normal, the points of each plane nearest A's origin.
    expect(hit?.normal).toEqual({ x: 0, y: 1, z: 0 });
    expect(hit?.pointA).toEqual({ x: 0, y: 0, z: 0 });
    expect(hit?.pointB).toEqual({ x: 0, y: 5, z: 0 });
    // B turning instead, or the order swapped: the same time, the normal negated on a swap.
    expect(castShapesNonlinear(up, I, I, down, I, tilted, 1)?.toi).toBe(Number.MIN_VALUE);
    const sw = castShapesNonlinear(down, I, I, up, I, tilted, 1);
    expect(sw?.toi).toBe(Number.MIN_VALUE);
    expect(sw?.normal.y).toBe(-1);
    // maxToi 0: the search covers time 0 only, where they are apart.
    expect(castShapesNonlinear(up, I, tilted, down, I, I, 0)).toBeNull();
  });

  it("a turn about the body's own normal leaves the half-space unchanged: the linear gap closes", () => {
    // A moves from (3, 0, 0) to (3, 10, 0) turning 1 rad about y: its plane y = 0 + 10 t meets y = 5 at t = 1/2.
    const a1 = iso.create({ x: 3, y: 10, z: 0 }, turn({ x: 0, y: 1, z: 0 }, 1));
    const hit = castShapesNonlinear(up, iso.create({ x: 3, y: 0, z: 0 }), a1, down, I, I, 1);
    expect(hit?.toi).toBeCloseTo(0.5, 14);
    expect(hit?.normal).toEqual({ x: 0, y: 1, z: 0 });
    expect(hit?.pointA.x).toBe(3);
    expect(hit?.pointA.y).toBeCloseTo(5, 13);
    expect(hit?.pointB.y).toBeCloseTo(5, 13);
    // Both turning about their normals (B by −2 rad about −y), B not moving: the same answer.
    const b1 = iso.create(zero, turn({ x: 0, y: -1, z: 0 }, -2));
    const both = castShapesNonlinear(up, iso.create({ x: 3, y: 0, z: 0 }), a1, down, I, b1, 1);
    expect(both?.toi).toBeCloseTo(0.5, 14);
    // Stopping short of the meeting: null.
    expect(
      castShapesNonlinear(up, iso.create({ x: 3, y: 0, z: 0 }), a1, down, I, b1, 0.4),
    ).toBeNull();
  });

  it("a normal off the axes, turned about itself: gap 2 closed at speed 4 meets at t = 1/2", () => {
    const n = unit({ x: 1, y: 2, z: 3 });
    const a = makeHalfSpace(n, 0);
    const b = makeHalfSpace(vec3.scale(vec3.create(), n, -1), -2);
    expect(intersects(a, I, b, I)).toBe(false);
    const b1 = iso.create(vec3.scale(vec3.create(), n, -4), turn(n, 0.7));
    const hit = castShapesNonlinear(a, I, I, b, I, b1, 1);
    expect(hit?.toi).toBeCloseTo(0.5, 12);
    for (const k of ["x", "y", "z"] as const) expect(hit?.normal[k]).toBeCloseTo(n[k], 14);
  });

  it("both bodies turned by the same rotation keep the normals opposite: the turning gap closes", () => {
    // A: y ≤ 0 about the origin; B: y ≥ 1 in its frame, origin from (0, 4, 0) to (0, −2, 0).
    // Both turn by 40° about z: at t the nlerp quaternion (0, 0, t·s, 1 − t + t·c), s, c = sin, cos 20°,
    // turns by φ(t) with cos φ = (w² − z²)/(w² + z²), and the gap is (4 − 6t)·cos φ(t) + 1.
    const q = turn({ x: 0, y: 0, z: 1 }, (40 * Math.PI) / 180);
    const a = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0);
    const b = makeHalfSpace({ x: 0, y: -1, z: 0 }, -1);
    const s = Math.sin((20 * Math.PI) / 180);
    const cq = Math.cos((20 * Math.PI) / 180);
    const gap = (t: number) => {
      const z = t * s;
      const w = 1 - t + t * cq;
      return (4 - 6 * t) * ((w * w - z * z) / (w * w + z * z)) + 1;
    };
    // Bisection on the hand-derived gap: first root in [0, 1] (gap(0) = 5, gap(1) = 1 − 2·cos 40° < 0).
    let lo = 0;
    let hi = 1;
    expect(gap(hi)).toBeLessThan(0);
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2;
      if (gap(mid) > 0) lo = mid;
      else hi = mid;
    }
    const hit = castShapesNonlinear(
      a,
      I,
      iso.create(zero, q),
      b,
      iso.create({ x: 0, y: 4, z: 0 }),
      iso.create({ x: 0, y: -2, z: 0 }, q),
      1,
    );
    expect(hit).not.toBeNull();
    expect(Math.abs((hit?.toi ?? 0) - lo)).toBeLessThan(1e-9);
    expect(hit?.toi).toBeLessThanOrEqual(lo + 1e-12);
    // The normal is A's, turned by φ(toi): (−sin φ, cos φ, 0); the points lie on the meeting planes.
    const z = lo * s;
    const w = 1 - lo + lo * cq;
    const c = (w * w - z * z) / (w * w + z * z);
    expect(hit?.normal.y).toBeCloseTo(c, 8);
    expect(hit?.normal.x).toBeCloseTo(-Math.sqrt(1 - c * c), 8);
    expect(vec3.length(hit?.pointA ?? zero)).toBeLessThan(1e-12);
    expect(vec3.distance(hit?.pointA ?? zero, hit?.pointB ?? zero)).toBeLessThan(1e-8);
  });
});
