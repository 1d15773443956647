/**
 * The shape validator in its home below every user (src/shapes/validate.ts): `checkShape`
 * refuses what the world refused before, with the same fields and messages; the world's
 * `checkShape` / `checkWorldPose` are the same functions; the convexity table agrees with the
 * narrow phase's; and the fast probe `isShapeFinite` agrees with `checkShape` (its oracle) on
 * every hand-built shape with a NaN, infinite or ordinary value in one field.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { isConvexType } from "../../src/narrowphase/dispatch.js";
import {
  makeCapsule,
  makeCompound,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeHalfSpace,
  makeSphere,
  makeTriangle,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { isConvexShapeType, SHAPE_TYPE_COUNT, ShapeType } from "../../src/shapes/shape.js";
import { checkIsometry, checkShape, isShapeFinite } from "../../src/shapes/validate.js";
import * as worldValidate from "../../src/world/validate.js";

function refusal(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError");
}

const pose = (x: number): Isometry => iso.create({ x, y: 0, z: 0 });

const hull = makeConvexPolyhedron([
  { x: 1, y: 0, z: 0 },
  { x: -1, y: 0, z: 0 },
  { x: 0, y: 1, z: 0 },
  { x: 0, y: -1, z: 0 },
  { x: 0, y: 0, z: 1 },
  { x: 0, y: 0, z: -1 },
]);

const VALID: Shape[] = [
  makeSphere(1),
  makeCuboid({ x: 1, y: 0, z: 2 }),
  makeCapsule({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, 0.5),
  makeCylinder(1, 0.5),
  makeCone(1, 0.5),
  hull,
  makeTriangle({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }),
  makeHalfSpace({ x: 0, y: 1, z: 0 }, 0),
  makeCompound([
    { shape: makeSphere(1), pose: pose(1) },
    { shape: hull, pose: pose(-1) },
  ]),
  makeTriangleMesh(new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 2])),
];

describe("checkShape in src/shapes/validate.ts", () => {
  it("is the world's checkShape, and checkIsometry the world's checkWorldPose", () => {
    expect(worldValidate.checkShape).toBe(checkShape);
    expect(worldValidate.checkWorldPose).toBe(checkIsometry);
  });

  it("accepts every shape made by a make… constructor", () => {
    for (const s of VALID) expect(() => checkShape("body.shape", s)).not.toThrow();
  });

  it("refuses the bad shapes the world refused (test/world/collision-world.test.ts), naming the field", () => {
    const cases: [unknown, string, string][] = [
      [{ type: ShapeType.Sphere, radius: -1 }, "s.radius", "s.radius must be > 0 (got -1)"],
      [
        { type: ShapeType.Sphere, radius: Number.NaN },
        "s.radius",
        "s.radius must be a finite number (got NaN)",
      ],
      [
        { type: ShapeType.Cuboid, halfExtents: { x: -1, y: 1, z: 1 } },
        "s.halfExtents",
        's.halfExtents must be ≥ 0 on every axis (got {"x":-1,"y":1,"z":1})',
      ],
      [
        {
          type: ShapeType.Capsule,
          a: { x: 0, y: 0, z: 0 },
          b: { x: Infinity, y: 0, z: 0 },
          radius: 1,
        },
        "s.b",
        's.b must be a vector of 3 finite numbers (got {"x":Infinity,"y":0,"z":0})',
      ],
      [
        { type: ShapeType.HalfSpace, normal: { x: 0, y: 2, z: 0 }, offset: 0 },
        "s.normal",
        's.normal must be a unit vector (got {"x":0,"y":2,"z":0})',
      ],
      [
        { type: ShapeType.HalfSpace, normal: { x: 0, y: 1, z: 0 }, offset: Number.NaN },
        "s.offset",
        "s.offset must be a finite number (got NaN)",
      ],
      [{ type: 42 }, "s.type", "s.type is not a known shape type (got 42)"],
      [null, "s", "s must be an object (got null)"],
      [
        { type: ShapeType.Compound, children: [] },
        "s.children",
        "s.children must be a non-empty array (got [])",
      ],
      [{ type: -1 }, "s.type", "s.type must be a ShapeType id (got -1)"],
      [{ type: "sphere" }, "s.type", 's.type must be a ShapeType id (got "sphere")'],
      [
        { type: ShapeType.Cylinder, halfHeight: 0, radius: 1 },
        "s.halfHeight",
        "s.halfHeight must be > 0 (got 0)",
      ],
      [
        { type: ShapeType.Cone, halfHeight: 1, radius: Infinity },
        "s.radius",
        "s.radius must be a finite number (got Infinity)",
      ],
      [
        {
          type: ShapeType.Triangle,
          a: { x: 0, y: 0, z: 0 },
          b: { x: 0, y: 0, z: 0 },
          c: { x: 0, y: Number.NaN, z: 0 },
        },
        "s.c",
        's.c must be a vector of 3 finite numbers (got {"x":0,"y":NaN,"z":0})',
      ],
      [
        { type: ShapeType.TriangleMesh, vertices: [0, 0, 0], indices: new Uint32Array(3) },
        "s.vertices",
        "s.vertices must be a Float64Array (got [0,0,0])",
      ],
    ];
    for (const [shape, field, message] of cases) {
      const e = refusal(() => checkShape("s", shape as Shape));
      expect(e.code).toBe("invalid_value");
      expect(e.field).toBe(field);
      expect(e.message).toBe(message);
    }
  });

  it("refuses bad convex polyhedra and compound children by field", () => {
    const withArr = (key: string, i: number, v: number) => {
      const c = structuredClone(hull) as unknown as Record<string, Float64Array>;
      c[key][i] = v;
      return c as unknown as Shape;
    };
    expect(refusal(() => checkShape("a", withArr("vertices", 4, Number.NaN))).field).toBe(
      "a.vertices[4]",
    );
    expect(refusal(() => checkShape("a", withArr("faceNormals", 2, Infinity))).field).toBe(
      "a.faceNormals[2]",
    );
    expect(refusal(() => checkShape("a", withArr("facePlaneOffsets", 0, Number.NaN))).field).toBe(
      "a.facePlaneOffsets[0]",
    );
    expect(refusal(() => checkShape("a", { ...hull, vertexCount: Infinity })).field).toBe(
      "a.vertexCount",
    );
    expect(refusal(() => checkShape("a", { ...hull, vertexCount: 5 })).message).toBe(
      "a.vertices must hold at least 4 packed xyz vertices (got 18)",
    );
    expect(refusal(() => checkShape("a", { ...hull, faceCount: Number.NaN })).field).toBe(
      "a.faceCount",
    );
    expect(
      refusal(() => checkShape("a", { ...hull, edges: [] as unknown as Uint32Array })).field,
    ).toBe("a.edges");
    const meshChild = {
      type: ShapeType.Compound,
      children: [{ shape: VALID[9], pose: pose(0) }],
    } as unknown as Shape;
    expect(refusal(() => checkShape("a", meshChild)).field).toBe("a.children[0].shape.type");
    const badPose = {
      type: ShapeType.Compound,
      children: [
        { shape: makeSphere(1), pose: pose(0) },
        {
          shape: makeSphere(1),
          pose: { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 2 } },
        },
      ],
    } as unknown as Shape;
    expect(refusal(() => checkShape("a", badPose)).field).toBe("a.children[1].pose.rotation");
    const badChild = {
      type: ShapeType.Compound,
      children: [{ shape: { type: ShapeType.Sphere, radius: 0 }, pose: pose(0) }],
    } as unknown as Shape;
    expect(refusal(() => checkShape("a", badChild)).field).toBe("a.children[0].shape.radius");
  });

  it("checkIsometry refuses bad poses as the world did", () => {
    expect(() => checkIsometry("p", pose(1))).not.toThrow();
    expect(refusal(() => checkIsometry("p", pose(Number.NaN))).field).toBe("p.translation");
    expect(refusal(() => checkIsometry("p", null as unknown as Isometry)).message).toBe(
      "p must be an object (got null)",
    );
    const q0 = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 0 } };
    expect(refusal(() => checkIsometry("p", q0)).message).toBe(
      'p.rotation must be a unit quaternion (length 0) (got {"x":0,"y":0,"z":0,"w":0})',
    );
  });
});

describe("isConvexShapeType", () => {
  it("agrees with the narrow phase's isConvexType on every id and on junk", () => {
    for (let t = -2; t < SHAPE_TYPE_COUNT + 3; t++) {
      expect(isConvexShapeType(t), String(t)).toBe(isConvexType(t as ShapeType));
    }
    for (const junk of [undefined, 0.5, Number.NaN, Infinity]) {
      expect(isConvexShapeType(junk)).toBe(false);
    }
    expect([...Array(SHAPE_TYPE_COUNT).keys()].filter((t) => isConvexShapeType(t)).length).toBe(9);
  });
});

describe("isShapeFinite (the queries' probe) against checkShape (its oracle)", () => {
  /** Numeric leaves of a shape as setter paths (compound children included). */
  function leaves(s: unknown, path: (string | number)[] = []): (string | number)[][] {
    if (typeof s === "number") return [path];
    if (s instanceof Float64Array) return [...s.keys()].map((i) => [...path, i]);
    if (s === null || typeof s !== "object" || ArrayBuffer.isView(s)) return [];
    return Object.entries(s).flatMap(([k, v]) => (k === "type" ? [] : leaves(v, [...path, k])));
  }
  function set(s: Shape, path: (string | number)[], v: number): Shape {
    const c = structuredClone(s) as unknown as Record<string | number, unknown>;
    let o = c;
    for (let i = 0; i < path.length - 1; i++) o = o[path[i]] as Record<string | number, unknown>;
    o[path[path.length - 1]] = v;
    return c as unknown as Shape;
  }

  it("is true on valid shapes and false whenever a checked number is NaN or infinite", () => {
    for (const s of VALID) expect(isShapeFinite(s)).toBe(true);
    fc.assert(
      fc.property(
        fc.nat(VALID.length - 2), // every type but the mesh (not scanned by the probe)
        fc.nat(),
        fc.constantFrom(Number.NaN, Infinity, -Infinity, -1, 0, 0.25, 1e300),
        (k, fieldIndex, value) => {
          const paths = leaves(VALID[k]);
          const p = paths[fieldIndex % paths.length];
          const s = set(VALID[k], p, value);
          const finite = isShapeFinite(s);
          // Twice: the polyhedron cache must not change the answer.
          expect(isShapeFinite(s)).toBe(finite);
          let refusedField: string | null = null;
          try {
            checkShape("s", s);
          } catch (e) {
            refusedField = (e as CollideError).field;
          }
          if (!Number.isFinite(value)) {
            // A non-finite number anywhere checkShape looks: the probe sees it too.
            expect(finite, p.join(".")).toBe(refusedField === null);
          } else {
            // Finite values (even −1 or 0) never trip the probe: it checks finiteness only.
            expect(finite, p.join(".")).toBe(true);
          }
          // The probe never passes a shape holding a NaN that checkShape would refuse for it.
          if (!finite) expect(refusedField).not.toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never throws on junk and does not cache a polyhedron found non-finite", () => {
    const bad = structuredClone(hull);
    bad.vertices[0] = Number.NaN;
    expect(isShapeFinite(bad)).toBe(false);
    expect(isShapeFinite(bad)).toBe(false);
    const junkCompound = { type: ShapeType.Compound, children: [null] } as unknown as Shape;
    expect(isShapeFinite(junkCompound)).toBe(false);
    expect(isShapeFinite({ type: ShapeType.Capsule } as unknown as Shape)).toBe(false);
  });
});
