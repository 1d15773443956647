/**
 * Faults found by a fresh user checking issue 14 on a clean clone (session 10, 2026-12-03), each
 * with the right answer derived by hand or from an independent query.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes, castShapesNonlinear } from "../../src/query/cast-shapes.js";
import { intersects } from "../../src/query/intersects.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { unitQuat, vec } from "../oracles/arbitraries.js";

const I = iso.identity();
const zero = vec3.create(0, 0, 0);

describe("castShapesNonlinear of two half-spaces, one rotating", () => {
  it("two overlapping half-spaces meet at toi 0, as the linear cast says (it threw unsupported_pair)", () => {
    const h = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0);
    const turned = iso.create(zero, quat.fromAxisAngle(quat.create(), { x: 0, y: 0, z: 1 }, 0.5));
    expect(castShapes(h, I, zero, h, I, zero, 1)?.toi).toBe(0);
    const hit = castShapesNonlinear(h, I, turned, h, I, I, 1);
    expect(hit?.toi).toBe(0);
    // A half-space overlaps itself without bound: the contact's normal is A's (docs/FORMATS.md).
    expect(hit?.normal).toEqual({ x: 0, y: 1, z: 0 });
  });

  it("any two half-spaces whose normals are not opposite: toi 0, for any rotation of either", () => {
    fc.assert(
      fc.property(
        vec(-1, 1),
        vec(-1, 1),
        fc.double({ min: -5, max: 5, noNaN: true }),
        fc.double({ min: -5, max: 5, noNaN: true }),
        unitQuat,
        unitQuat,
        (na, nb, oa, ob, qa1, qb1) => {
          const la = vec3.length(na);
          const lb = vec3.length(nb);
          fc.pre(la > 0.1 && lb > 0.1);
          const ua = vec3.scale(vec3.create(), na, 1 / la);
          const ub = vec3.scale(vec3.create(), nb, 1 / lb);
          // Exactly opposite normals are the one case two half-spaces can be apart.
          fc.pre(vec3.dot(ua, ub) > -0.999);
          const a = makeHalfSpace(ua, oa);
          const b = makeHalfSpace(ub, ob);
          expect(intersects(a, I, b, I)).toBe(true);
          const hit = castShapesNonlinear(a, I, iso.create(zero, qa1), b, I, iso.create(zero, qb1));
          expect(hit?.toi).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("apart at time 0 (opposite normals) while one rotates: refused by name, not answered", () => {
    const up = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0);
    const down = makeHalfSpace({ x: 0, y: -1, z: 0 }, -5);
    const turned = iso.create(zero, quat.fromAxisAngle(quat.create(), { x: 0, y: 0, z: 1 }, 0.5));
    let err: unknown = null;
    try {
      castShapesNonlinear(up, I, turned, down, I, I, 1);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CollideError);
    expect((err as CollideError).code).toBe("unsupported_pair");
    expect((err as CollideError).message).toMatch(/apart at time 0/);
    // Without rotation the pair is answered: A's plane, moved from y = 0 to 10, reaches y = 5 halfway.
    expect(
      castShapesNonlinear(up, I, iso.create({ x: 0, y: 10, z: 0 }), down, I, I)?.toi,
    ).toBeCloseTo(0.5, 12);
  });
});
