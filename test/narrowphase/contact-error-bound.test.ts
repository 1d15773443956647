/**
 * The achieved error of a contact (issue 16, must-have 1: "the iteration bounded and the achieved
 * error reported"): `contact(...).errorBound` and `collide query`'s `"errorBound"` bound
 * |distance − the true signed distance|. Checked against hand-derived depths and, on random
 * inputs, against exact depths of a point inside a cylinder or cone taken through the general
 * narrow phase (the closed forms would answer them exactly): the true value must lie within the
 * bound, and the bound must be the refinement's 1e-9 of the depth (plus rounding).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { contactErrorIo, makeContact } from "../../src/narrowphase/contact.js";
import { contactConvexConvex } from "../../src/narrowphase/convex-convex.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeSphere } from "../../src/shapes/sphere.js";

interface C {
  distance: number;
  normal: number[];
  pointA: number[];
  pointB: number[];
  errorBound: number;
}
const contactQ = (a: object, b: object) => answerQuery({ op: "contact", a, b }) as C;

describe("errorBound: hand-derived depths", () => {
  it("issue 16's cylinder against a box: depth exactly 3, within the bound", () => {
    const c = contactQ(
      { type: "cylinder", center: [0, 0, 0], halfHeight: 12, radius: 9 },
      { type: "box", center: [-3.4, -11, 16], halfExtents: [11, 7.2, 10] },
    );
    expect(Math.abs(c.distance + 3)).toBeLessThanOrEqual(c.errorBound);
    expect(c.errorBound).toBeLessThanOrEqual(1e-9 * 3);
  });

  it("crossing cylinders (axes y and x, centres 3 apart along z): depth rA + rB − 3", () => {
    // Overlap along z: rA + rB − c = 2 + 1.5 − 3 = 0.5; along y: hA + rB = 6.5; along x: rA + hB.
    const s = Math.SQRT1_2;
    const c = contactQ(
      { type: "cylinder", center: [0, 0, 0], halfHeight: 5, radius: 2 },
      { type: "cylinder", center: [0, 0, 3], halfHeight: 4, radius: 1.5, rotation: [0, 0, s, s] },
    );
    expect(Math.abs(c.distance + 0.5)).toBeLessThanOrEqual(c.errorBound);
    expect(c.errorBound).toBeLessThanOrEqual(1e-9 * 0.5 + 1e-14);
  });

  it("closed forms and sphere pairs report 0", () => {
    const sphere = { type: "sphere", center: [0.3, 0.2, 0.1], radius: 1 };
    for (const b of [
      { type: "cylinder", center: [0, 0, 0], halfHeight: 2, radius: 1 },
      { type: "cone", center: [0, 0, 0], halfHeight: 2, radius: 1 },
      { type: "sphere", center: [1, 0, 0], radius: 1 },
    ]) {
      expect(contactQ(sphere, b).errorBound).toBe(0);
    }
  });

  it("the CLI's contact line carries the field (an addition: the other fields unchanged)", () => {
    const c = contactQ(
      { type: "box", center: [0, 0, 0], halfExtents: [1, 1, 1] },
      { type: "box", center: [1.5, 0, 0], halfExtents: [1, 1, 1] },
    );
    expect(Object.keys(c)).toEqual(["distance", "normal", "pointA", "pointB", "errorBound"]);
    expect(c.distance).toBe(-0.5);
    expect(c.errorBound).toBe(0);
  });
});

/**
 * Exact signed distance of point (x, y, z) to a cylinder (axis y) or to a cone (apex (0, h, 0),
 * base at −h, radius r), derived independently: the profile's edges in the meridian plane.
 */
function profileSigned(kind: "cylinder" | "cone", h: number, r: number, p: number[]): number {
  const rho = Math.hypot(p[0], p[2]);
  const y = p[1];
  if (kind === "cylinder") {
    // Inside only (the test's points): the nearer of the side and the caps.
    return -Math.min(r - rho, h - Math.abs(y));
  }
  // Inside the cone: the nearer of the base plane and the slant line through the apex.
  const len = Math.hypot(2 * h, r);
  const slant = (rho * 2 * h + (y - h) * r) / len;
  return Math.max(slant, -h - y);
}

/**
 * Contact of a ball (radius `radius`) centred at local point p of a cylinder or cone (h, r),
 * through the general narrow phase with the error register on: [distance, bound].
 */
function ballInside(
  kind: "cylinder" | "cone",
  H: number,
  R: number,
  p: number[],
  radius: number,
  rot: quat.Quat,
): [number, number] {
  const out = makeContact();
  const solid = kind === "cylinder" ? makeCylinder(H, R) : makeCone(H, R);
  const ball = makeSphere(radius);
  // The solid at −p in the ball's frame, turned so that nothing is axis-aligned.
  const pose = iso.create(vec3.create(0, 0, 0), rot);
  const moved = iso.transformPoint(vec3.create(), pose, vec3.create(p[0], p[1], p[2]));
  vec3.negate(pose.translation, moved);
  contactErrorIo[0] = 0;
  contactErrorIo[1] = 1;
  const hit = contactConvexConvex(out, ball, solid, pose, 0);
  contactErrorIo[1] = 0;
  expect(hit).toBe(true);
  return [out.distance, contactErrorIo[0]];
}

/** A point strictly inside (fractions u, v of the radius and half height, azimuth w·π). */
function insidePoint(
  kind: "cylinder" | "cone",
  H: number,
  R: number,
  u: number,
  v: number,
  w: number,
) {
  const y = v * H;
  const rMax = kind === "cone" ? (R * (H - y)) / (2 * H) : R;
  const rho = 0.95 * rMax * Math.abs(u);
  return [rho * Math.cos(Math.PI * w), y, rho * Math.sin(Math.PI * w)];
}

describe("errorBound: the general narrow phase against exact depths", () => {
  const frac = fc.double({ min: -0.95, max: 0.95, noNaN: true });
  it("a ball whose centre is inside a cylinder or a cone: the truth lies within the bound", () => {
    const rot = quat.create(0.3, -0.2, 0.5, 0.8);
    quat.normalize(rot, rot);
    fc.assert(
      fc.property(
        fc.constantFrom("cylinder" as const, "cone" as const),
        fc.double({ min: 0.2, max: 5, noNaN: true }),
        fc.double({ min: 0.2, max: 5, noNaN: true }),
        frac,
        frac,
        frac,
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
        (kind, h, r, u, v, w, radius, scale) => {
          const H = h * scale;
          const R = r * scale;
          const p = insidePoint(kind, H, R, u, v, w);
          const truth = profileSigned(kind, H, R, p) - radius * scale;
          const [d, bound] = ballInside(kind, H, R, p, radius * scale, rot);
          const size = Math.hypot(H, R) + radius * scale;
          // Up to the rounding of the oracle's own arithmetic.
          expect(Math.abs(d - truth)).toBeLessThanOrEqual(bound + 1e-14 * size);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the bound is 1e-9 of the depth for most uniform random inputs", () => {
    // A fixed linear congruential sequence: uniform, not fast-check's edge-biased values (whose
    // centres on the axis are the near ties where EPA's cap ends first).
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const n = 1000;
    let tight = 0;
    const ratios: number[] = [];
    for (let i = 0; i < n; i++) {
      const kind = i % 2 ? "cone" : "cylinder";
      const scale = 10 ** (rnd() * 6 - 3);
      const H = (0.2 + 4.8 * rnd()) * scale;
      const R = (0.2 + 4.8 * rnd()) * scale;
      const p = insidePoint(kind, H, R, rnd(), rnd() * 1.9 - 0.95, 2 * rnd());
      const radius = (0.01 + 2 * rnd()) * scale;
      const rot = quat.create(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5);
      quat.normalize(rot, rot);
      const truth = profileSigned(kind, H, R, p) - radius;
      const [d, bound] = ballInside(kind, H, R, p, radius, rot);
      const size = Math.hypot(H, R) + radius;
      expect(Math.abs(d - truth)).toBeLessThanOrEqual(bound + 1e-14 * size);
      if (bound <= 1e-9 * Math.abs(truth) + 1e-13 * size) tight++;
      ratios.push(bound / Math.abs(truth));
    }
    ratios.sort((x, y) => x - y);
    // Measured: median 2e-11, 90th percentile 1e-9, 99th 4e-9 of the depth; looser where the
    // least overlap nearly ties between a cap and the side and EPA's 128 iterations end first
    // (up to 3e-4 there), the reported depth itself still exact to rounding.
    expect(tight).toBeGreaterThanOrEqual(0.85 * n);
    expect(ratios[n / 2]).toBeLessThanOrEqual(1e-10);
  });
});
