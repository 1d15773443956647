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
import { contact } from "../../src/query/contact.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
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

  it("apart at time 0 (opposite normals) while one rotates: answered (it was refused; see test/query/cast-half-spaces-turning.test.ts)", () => {
    const up = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0);
    const down = makeHalfSpace({ x: 0, y: -1, z: 0 }, -5);
    const turned = iso.create(zero, quat.fromAxisAngle(quat.create(), { x: 0, y: 0, z: 1 }, 0.5));
    // The turn tilts A's normal: opposite only at time 0, so they intersect at every time after it.
    expect(castShapesNonlinear(up, I, turned, down, I, I, 1)?.toi).toBe(Number.MIN_VALUE);
    // Without rotation the pair is answered: A's plane, moved from y = 0 to 10, reaches y = 5 halfway.
    expect(
      castShapesNonlinear(up, I, iso.create({ x: 0, y: 10, z: 0 }), down, I, I)?.toi,
    ).toBeCloseTo(0.5, 12);
  });
});

/** The CollideError `f` throws (fails the test when it throws anything else or nothing). */
function refusal(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError, got an answer");
}

describe("wrong-typed arguments are refused by name, not coerced or crashed on", () => {
  const sphere = makeSphere(1);
  const box = makeCuboid({ x: 1, y: 1, z: 1 });
  const at3 = iso.create({ x: 3, y: 0, z: 0 });

  it("contact/manifold prediction: a string was read as its number, null as 0", () => {
    // Apart by 1: "5" was taken as a prediction of 5 and gave a contact at distance 1.
    for (const p of ["5", "0", null, undefined as unknown, true, {}]) {
      if (p === undefined) continue; // undefined means the default, 0
      const e = refusal(() => contact(sphere, I, sphere, at3, p as number));
      expect(e.code).toBe("invalid_value");
      expect(e.field).toBe("prediction");
      expect(e.value).toBe(p);
      expect(refusal(() => manifold(sphere, I, sphere, at3, p as number)).field).toBe("prediction");
    }
    expect(contact(sphere, I, sphere, at3, 5)?.distance).toBe(1);
    expect(contact(sphere, I, sphere, at3)).toBeNull();
  });

  it("raycast: solid must be a boolean (as projectPoint's), maxToi a number", () => {
    const e = refusal(() =>
      raycast(box, I, { x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, 10, "no" as unknown as boolean),
    );
    expect([e.code, e.field, e.value]).toEqual(["invalid_value", "solid", "no"]);
    const m = refusal(() =>
      raycast(box, I, { x: 5, y: 0, z: 0 }, { x: -1, y: 0, z: 0 }, "10" as unknown as number),
    );
    expect([m.field, m.value]).toEqual(["maxToi", "10"]);
    // Hollow from inside: leaves through the face x = 1 at toi 1.
    expect(raycast(box, I, { x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, 10, false)?.toi).toBe(1);
  });

  it("castShapes: maxToi must be a number", () => {
    const e = refusal(() =>
      castShapes(
        sphere,
        I,
        { x: 1, y: 0, z: 0 },
        box,
        iso.create({ x: 5, y: 0, z: 0 }),
        zero,
        "10" as unknown as number,
      ),
    );
    expect([e.field, e.value]).toEqual(["maxToi", "10"]);
    // Gap 5 − 1 − 1 = 3 closed at speed 1.
    expect(
      castShapes(sphere, I, { x: 1, y: 0, z: 0 }, box, iso.create({ x: 5, y: 0, z: 0 }), zero, 10)
        ?.toi,
    ).toBeCloseTo(3, 12);
  });

  it("makeCompound: a child without a pose is named (it threw a TypeError)", () => {
    const e = refusal(() =>
      makeCompound([{ shape: sphere } as unknown as { shape: typeof sphere; pose: typeof I }]),
    );
    expect([e.code, e.field, e.value]).toEqual(["invalid_value", "children[0].pose", undefined]);
    expect(
      refusal(() => makeCompound([{ shape: sphere, pose: null as unknown as typeof I }], "body"))
        .field,
    ).toBe("body.children[0].pose");
  });

  it("makeTriangleMesh: null, a string or string coordinates are named (a TypeError; 'abc' read as one vertex; \"1\" as 1)", () => {
    const tri = [0, 1, 2];
    expect(refusal(() => makeTriangleMesh(null as unknown as number[], tri)).field).toBe(
      "vertices",
    );
    expect(refusal(() => makeTriangleMesh("abc" as unknown as number[], tri)).field).toBe(
      "vertices",
    );
    expect(
      refusal(() => makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], null as unknown as number[]))
        .field,
    ).toBe("indices");
    expect(
      refusal(() => makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], "012" as unknown as number[]))
        .field,
    ).toBe("indices");
    const s = refusal(() =>
      makeTriangleMesh([0, 0, 0, "1", 0, 0, 0, 1, 0] as unknown as number[], tri, "mesh"),
    );
    expect([s.field, s.value]).toEqual(["mesh.vertices[3]", "1"]);
    // Typed arrays and Vec3 arrays still read.
    expect(
      makeTriangleMesh(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), new Uint16Array(tri)).vertices
        .length,
    ).toBe(9);
    expect(
      makeTriangleMesh(
        [
          { x: 0, y: 0, z: 0 },
          { x: 1, y: 0, z: 0 },
          { x: 0, y: 1, z: 0 },
        ],
        tri,
      ).vertices.length,
    ).toBe(9);
  });
});
