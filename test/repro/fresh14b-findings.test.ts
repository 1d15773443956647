/**
 * Faults found by a second fresh user checking issue 14 on a clean clone (session 11,
 * 2026-12-03), each with the right answer derived by hand.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import type { Aabb } from "../../src/math/aabb.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { castShapesNonlinear } from "../../src/query/cast-shapes.js";
import { manifold } from "../../src/query/manifold.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { type Cuboid, makeCuboid } from "../../src/shapes/cuboid.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeHeightfield } from "../../src/shapes/heightfield.js";
import { roundedCuboidDef } from "../../src/shapes/rounded.js";
import type { Shape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { registerShape, type ShapeDef, shapeDef } from "../../src/shapes/shape-def.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld } from "../../src/world/collision-world.js";

const I = iso.identity();

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

describe("a rounded type added by the recipe, with fields of its own names", () => {
  // What docs/DESIGN.md's "Adding a shape" promises: a record with `roundedCore` and `margin`
  // is answered by every query. The manifold read the built-in rounded types' fields (`core`,
  // `radius`) instead, so a rounded type naming them otherwise (here `box`, `rounding`) got a
  // NaN manifold ("manifold produced NaN … an internal fault"). The test record stands in for
  // the rounded cuboid's id for the duration of the test (restored after).
  interface BoxRounded {
    readonly type: typeof ShapeType.RoundedCuboid;
    readonly box: Cuboid;
    readonly rounding: number;
  }
  const cuboid = shapeDef(ShapeType.Cuboid);
  const boxOf = (s: BoxRounded) => s.box as Shape;
  // Typed over the stand-in layout (the table's `ShapeDef<S>` is for the built-in union).
  const record: Omit<
    ShapeDef,
    | "aabb"
    | "boundingRadius"
    | "writeMagnitude"
    | "coreSupport"
    | "margin"
    | "writeMargin"
    | "roundedCore"
    | "check"
    | "isFinite"
  > & {
    aabb(out: Aabb, s: BoxRounded, pose: Isometry): Aabb;
    boundingRadius(s: BoxRounded): number;
    writeMagnitude(out: Float64Array, s: BoxRounded): void;
    coreSupport(out: Vec3, s: BoxRounded, d: Vec3): Vec3;
    margin(s: BoxRounded): number;
    roundedCore(s: BoxRounded): Shape;
    check(field: string, s: BoxRounded): void;
    isFinite(s: BoxRounded): boolean;
  } = {
    ...(roundedCuboidDef as unknown as ShapeDef),
    aabb: (out, s, pose) => {
      cuboid.aabb(out, boxOf(s), pose);
      const r = s.rounding;
      out.min.x -= r;
      out.min.y -= r;
      out.min.z -= r;
      out.max.x += r;
      out.max.y += r;
      out.max.z += r;
      return out;
    },
    boundingRadius: (s) => cuboid.boundingRadius(boxOf(s)) + s.rounding,
    writeMagnitude: (out, s) => {
      cuboid.writeMagnitude(out, boxOf(s));
      out[0] += s.rounding;
    },
    coreSupport: (out, s, d) =>
      (cuboid.coreSupport as (o: Vec3, c: Shape, d: Vec3) => Vec3)(out, boxOf(s), d),
    // Only `margin` is overridden: the spread record's writeMargin (which reads the built-ins'
    // `radius`) was made with the built-in margin, so registerShape drops it (marginWith).
    margin: (s) => s.rounding,
    roundedCore: (s) => s.box,
    projectPoint: null,
    check: (field, s) => {
      cuboid.check(`${field}.box`, boxOf(s));
      if (!(s.rounding >= 0))
        throw new CollideError("invalid_value", `${field}.rounding`, s.rounding, "bad");
    },
    isFinite: (s) => cuboid.isFinite(boxOf(s)) && Number.isFinite(s.rounding),
  };

  it("gets the manifold of its core pushed out by its margin (it was NaN)", () => {
    const original = shapeDef(ShapeType.RoundedCuboid);
    registerShape(record as unknown as ShapeDef);
    try {
      expect(shapeDef(ShapeType.RoundedCuboid).writeMargin).toBeUndefined();
      // Core half extents 1, rounding 0.5: its top face is the plane y = 1.5 over |x|, |z| ≤ 1.
      // A unit box centred at y = 2.4 has its bottom at y = 1.4: 0.1 deep, and its bottom face
      // (|x|, |z| ≤ 1) overlaps the flat top wholly: four points at depth 0.1.
      const s = {
        type: ShapeType.RoundedCuboid,
        box: makeCuboid({ x: 1, y: 1, z: 1 }),
        rounding: 0.5,
      } as unknown as Shape;
      const m = manifold(
        s,
        I,
        makeCuboid({ x: 1, y: 1, z: 1 }),
        iso.create({ x: 0, y: 2.4, z: 0 }),
      );
      expect(m).not.toBeNull();
      expect(m?.normal.y).toBeCloseTo(1, 12);
      expect(m?.points.length).toBe(4);
      for (const p of m?.points ?? []) {
        expect(p.distance).toBeCloseTo(-0.1, 12);
        expect(p.pointA.y).toBeCloseTo(1.5, 12);
        expect(p.pointB.y).toBeCloseTo(1.4, 12);
        expect(Math.abs(p.pointA.x)).toBeLessThanOrEqual(1 + 1e-12);
        expect(Math.abs(p.pointA.z)).toBeLessThanOrEqual(1 + 1e-12);
      }
    } finally {
      registerShape(original);
    }
  });
});

describe("castShapesNonlinear: maxToi must be a number", () => {
  it('"1", true and null are refused by name (a string or true was coerced to 1 and answered)', () => {
    const a = makeSphere(1);
    const b = makeCuboid({ x: 1, y: 1, z: 1 });
    const a1 = iso.create({ x: 5, y: 0, z: 0 });
    const at3 = iso.create({ x: 3, y: 0, z: 0 });
    for (const bad of ["1", true, null, "0.5", [1]]) {
      const e = refusal(() => castShapesNonlinear(a, I, a1, b, at3, at3, bad as unknown as number));
      expect([e.code, e.field, e.value]).toEqual(["invalid_value", "maxToi", bad]);
    }
    // The sphere's front x = 1 + 5t meets the box's face x = 2 at t = 0.2.
    expect(castShapesNonlinear(a, I, a1, b, at3, at3, 1)?.toi).toBeCloseTo(0.2, 9);
    expect(castShapesNonlinear(a, I, a1, b, at3, at3)?.toi).toBeCloseTo(0.2, 9);
  });
});

describe("continuous collision of a half-space body is refused, not silently skipped", () => {
  const plane = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0);

  it("addBody with ccd: true on a half-space names body.ccd (it was accepted and never swept)", () => {
    const w = new CollisionWorld();
    const e = refusal(() => w.addBody({ shape: plane, pose: I, ccd: true }));
    expect([e.code, e.field, e.value]).toEqual(["invalid_value", "body.ccd", true]);
    expect(w.handles().length).toBe(0);
  });

  it("setCcd(handle, true) on a half-space names the handle; false is accepted", () => {
    const w = new CollisionWorld();
    const h = w.addBody({ shape: plane, pose: I, kind: "kinematic" });
    const e = refusal(() => w.setCcd(h, true));
    expect([e.code, e.field, e.value]).toEqual(["invalid_value", "handle", h]);
    w.setCcd(h, false);
    expect(w.isCcd(h)).toBe(false);
  });

  it("a fast sphere is still swept against a half-space: impact where it reaches the plane", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 5, noNaN: true }),
        fc.double({ min: 0.05, max: 0.4, noNaN: true }),
        (h0, r) => {
          // The sphere falls from y = h0 to y = −h0 − 2 (through the plane y = 0): its bottom
          // y − r reaches 0 when y = r, at t = (h0 − r) / (2·h0 + 2).
          const w = new CollisionWorld();
          w.addBody({ shape: plane, pose: I });
          const ball = w.addBody({
            shape: makeSphere(r),
            pose: iso.create({ x: 0, y: h0, z: 0 }),
            ccd: true,
          });
          w.step();
          w.setPose(ball, iso.create({ x: 0, y: -h0 - 2, z: 0 }));
          w.step();
          expect(w.impacts().count).toBe(1);
          expect(w.impacts().read(0).toi).toBeCloseTo((h0 - r) / (2 * h0 + 2), 6);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe("makeCompound names a heightfield child as a heightfield", () => {
  it("the message lists it with the mesh and the half-space (it said only those two)", () => {
    const hf = makeHeightfield({
      rows: 2,
      cols: 2,
      heights: [0, 0, 0, 0],
      scale: { x: 1, y: 1, z: 1 },
    });
    const e = refusal(() => makeCompound([{ shape: hf as never, pose: I }]));
    expect([e.code, e.field, e.value]).toEqual([
      "invalid_value",
      "children[0].shape.type",
      "heightfield",
    ]);
    expect(e.message).toMatch(/a heightfield/);
  });
});

describe("the world's overlapShape with a half-space is refused by its type", () => {
  it('names shape.type (it blamed pose.translation: "puts the shape\'s AABB out of range")', () => {
    const w = new CollisionWorld();
    w.addBody({ shape: makeSphere(1), pose: I });
    w.step();
    const e = refusal(() =>
      w.overlapShape(makeHalfSpace({ x: 0, y: 1, z: 0 }, 0), iso.create({ x: 1, y: 2, z: 3 })),
    );
    expect([e.code, e.field, e.value]).toEqual(["invalid_value", "shape.type", "halfspace"]);
    // A bounded query shape is answered: the unit ball at x = 1.5 overlaps the body at 0.
    expect(w.overlapShape(makeSphere(1), iso.create({ x: 1.5, y: 0, z: 0 })).length).toBe(1);
    expect(w.overlapShape(makeSphere(1), iso.create({ x: 2.5, y: 0, z: 0 })).length).toBe(0);
  });
});
