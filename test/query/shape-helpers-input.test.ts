/**
 * The main entry's shape helpers check their arguments (src/query/checked-helpers.ts): each bad
 * input a fresh user tried — a NaN, infinite or string point, a shape that is not a mesh, a
 * triangle index out of range or not an integer, a NaN pose or a zero quaternion — is a
 * `CollideError` naming the argument and its value, never a NaN, an undefined corner, a silent
 * false or a TypeError. Valid input keeps its answers: hand-derived values on the unit cube mesh
 * and a unit sphere, and a fast-check property of the cube's winding number (1 inside, 0 outside
 * by its closed form |x|, |y|, |z| < h; sizes 1e-6..1e6, offsets to 1e9).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  aabbShape,
  containsPointTriangleMesh,
  getMeshTriangle,
  type Isometry,
  makeSphere,
  makeTriangleMesh,
  meshTriangleNormal,
  windingNumberTriangleMesh,
} from "../../src/index.js";
import { BOX_TRIANGLES, boxCorners, boxMesh } from "../support/box-mesh.js";
import { refusal } from "../support/refusal.js";

/** The unit cube [−½, ½]³, closed and outward wound (12 triangles). */
const cube = boxMesh(0.5);
const I: Isometry = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
const v3 = (x: number, y: number, z: number) => ({ x, y, z });
const box = () => ({ min: v3(0, 0, 0), max: v3(0, 0, 0) });

// biome-ignore lint/suspicious/noExplicitAny: the bad inputs on purpose.
type Any = any;

describe("windingNumberTriangleMesh and containsPointTriangleMesh refuse bad points and meshes", () => {
  it("windingNumberTriangleMesh: a NaN or infinite coordinate (was NaN)", () => {
    for (const bad of [Number.NaN, Infinity, -Infinity]) {
      const e = refusal(() => windingNumberTriangleMesh(cube, v3(bad, 0, 0)));
      expect(e.field).toBe("point");
      expect(e.message).toMatch(
        new RegExp(`^point must be a vector of 3 finite numbers \\(got .*${String(bad)}`),
      );
    }
  });

  it("containsPointTriangleMesh: a NaN coordinate (was false)", () => {
    const e = refusal(() => containsPointTriangleMesh(cube, v3(0, Number.NaN, 0)));
    expect(e.field).toBe("point");
    expect(e.message).toMatch(/^point must be a vector of 3 finite numbers \(got .*NaN/);
  });

  it('containsPointTriangleMesh: a string coordinate x: "0.1" (was accepted)', () => {
    const e = refusal(() => containsPointTriangleMesh(cube, { x: "0.1", y: 0, z: 0 } as Any));
    expect(e.field).toBe("point");
    expect(e.message).toMatch(/0\.1/);
  });

  it("a shape that is not a mesh, null, or a hand-built mesh (was a TypeError)", () => {
    const p = v3(0, 0, 0);
    for (const f of [containsPointTriangleMesh, windingNumberTriangleMesh]) {
      const e = refusal(() => f(makeSphere(1) as Any, p));
      expect(e.field).toBe("mesh.type");
      // The kind by its name, never its type number (was `(got 0)`; test/io/shape-in-message).
      expect(e.message).toMatch(
        /^mesh\.type must be "mesh" \(ShapeType\.TriangleMesh.*\(got "sphere"\)/,
      );
      const n = refusal(() => f(null as Any, p));
      expect(n.field).toBe("mesh");
      expect(n.message).toMatch(/\(got null\)/);
      const hand = { type: cube.type, vertices: cube.vertices, indices: cube.indices };
      const h = refusal(() => f(hand as Any, p));
      expect(h.field).toBe("mesh");
      expect(h.message).toMatch(/must be built by makeTriangleMesh/);
    }
  });

  it("a point whose offset from the mesh's vertices overflows (was NaN)", () => {
    // Vertices within MESH_COORDINATE_LIMIT (2^1023), the point 1.8e308 from the far corner.
    const huge = boxMesh(8e307);
    const e = refusal(() => windingNumberTriangleMesh(huge, v3(-1e308, 0, 0)));
    expect(e.field).toBe("point");
    expect(e.message).toMatch(/overflows double precision/);
    expect(refusal(() => containsPointTriangleMesh(huge, v3(-1e308, 0, 0))).field).toBe("point");
  });
});

describe("getMeshTriangle and meshTriangleNormal refuse a bad triangle index", () => {
  it("getMeshTriangle: 99, 12, −1, 0.5, NaN (wrote undefined corners)", () => {
    for (const t of [99, 12, -1, 0.5, Number.NaN]) {
      const e = refusal(() => getMeshTriangle(cube, t, v3(0, 0, 0), v3(0, 0, 0), v3(0, 0, 0)));
      expect(e.field).toBe("triangle");
      expect(e.message).toBe(`triangle must be an integer in [0, 12) (got ${String(t)})`);
    }
  });

  it("meshTriangleNormal: 99, 0.5 (wrote NaN and returned 0)", () => {
    for (const t of [99, 0.5]) {
      const out = v3(7, 7, 7);
      const e = refusal(() => meshTriangleNormal(out, cube, t));
      expect(e.field).toBe("triangle");
      expect(e.message).toBe(`triangle must be an integer in [0, 12) (got ${String(t)})`);
      expect(out).toEqual(v3(7, 7, 7));
    }
  });

  it("a non-mesh, and an out or corner that is not an object", () => {
    expect(refusal(() => meshTriangleNormal(v3(0, 0, 0), makeSphere(1) as Any, 0)).field).toBe(
      "mesh.type",
    );
    expect(refusal(() => meshTriangleNormal(null as Any, cube, 0)).field).toBe("out");
    const e = refusal(() => getMeshTriangle(cube, 0, v3(0, 0, 0), undefined as Any, v3(0, 0, 0)));
    expect(e.field).toBe("b");
  });
});

describe("aabbShape refuses a bad pose or shape", () => {
  it("a NaN translation (was a NaN box)", () => {
    const pose = { translation: v3(Number.NaN, 0, 0), rotation: I.rotation };
    const e = refusal(() => aabbShape(box(), makeSphere(1), pose));
    expect(e.field).toBe("pose.translation");
    expect(e.message).toMatch(/NaN/);
  });

  it("a zero quaternion (was taken as the identity)", () => {
    const pose = { translation: v3(0, 0, 0), rotation: { x: 0, y: 0, z: 0, w: 0 } };
    const e = refusal(() => aabbShape(box(), cube, pose));
    expect(e.field).toBe("pose.rotation");
    expect(e.message).toMatch(/^pose\.rotation must be a unit quaternion/);
  });

  it("a null shape, a null pose, an out that is not a box", () => {
    expect(refusal(() => aabbShape(box(), null as Any, I)).field).toBe("shape");
    expect(refusal(() => aabbShape(box(), makeSphere(1), null as Any)).field).toBe("pose");
    expect(refusal(() => aabbShape({ min: null } as Any, makeSphere(1), I)).field).toBe("out.min");
  });
});

describe("valid input keeps its answers", () => {
  it("hand-derived: the unit cube's winding number, containment, corners and normals", () => {
    expect(windingNumberTriangleMesh(cube, v3(0.1, 0.2, -0.3))).toBeCloseTo(1, 12);
    expect(windingNumberTriangleMesh(cube, v3(2, 0, 0))).toBeCloseTo(0, 12);
    expect(windingNumberTriangleMesh(cube, v3(0.4, -0.45, 0.49))).toBeCloseTo(1, 12);
    expect(containsPointTriangleMesh(cube, v3(0.1, 0.2, -0.3))).toBe(true);
    expect(containsPointTriangleMesh(cube, v3(0.6, 0, 0))).toBe(false);
    // Triangle t's corners are the box corners its indices name.
    const corners = boxCorners(0.5, 0.5, 0.5);
    const a = v3(0, 0, 0);
    const b = v3(0, 0, 0);
    const c = v3(0, 0, 0);
    for (let t = 0; t < 12; t++) {
      getMeshTriangle(cube, t, a, b, c);
      const [ia, ib, ic] = BOX_TRIANGLES[t];
      expect([a, b, c]).toEqual([ia, ib, ic].map((i) => v3(...corners[i])));
      // Each face triangle is half of a unit square: doubled area 1, the normal an axis.
      const n = v3(0, 0, 0);
      expect(meshTriangleNormal(n, cube, t)).toBeCloseTo(1, 14);
      expect(Math.abs(n.x) + Math.abs(n.y) + Math.abs(n.z)).toBeCloseTo(1, 14);
    }
  });

  it("a degenerate triangle: the zero vector and 0, as documented", () => {
    const m = makeTriangleMesh(
      new Float64Array([0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0]),
      new Uint32Array([0, 1, 2, 0, 1, 3]),
    );
    const out = v3(9, 9, 9);
    expect(meshTriangleNormal(out, m, 0)).toBe(0);
    expect(out).toEqual(v3(0, 0, 0));
  });

  it("aabbShape: a unit sphere at (1, 2, 3); the cube turned 90° about z; a near-unit rotation", () => {
    const s = aabbShape(box(), makeSphere(1), { translation: v3(1, 2, 3), rotation: I.rotation });
    expect(s).toEqual({ min: v3(0, 1, 2), max: v3(2, 3, 4) });
    const h = Math.SQRT1_2;
    const turned = aabbShape(box(), cube, {
      translation: v3(10, 0, 0),
      rotation: { x: 0, y: 0, z: h, w: h },
    });
    for (const [k, want] of [
      ["min", [9.5, -0.5, -0.5]],
      ["max", [10.5, 0.5, 0.5]],
    ] as const) {
      const got = turned[k];
      expect(got.x).toBeCloseTo(want[0], 14);
      expect(got.y).toBeCloseTo(want[1], 14);
      expect(got.z).toBeCloseTo(want[2], 14);
    }
    const near = aabbShape(box(), makeSphere(1), {
      translation: v3(0, 0, 0),
      rotation: { x: 0, y: 0, z: 0, w: 1 + 1e-9 },
    });
    expect(near).toEqual({ min: v3(-1, -1, -1), max: v3(1, 1, 1) });
  });

  it("property: a cube's winding number is 1 inside and 0 outside (1e-6..1e6, offsets to 1e9)", () => {
    const scale = fc.double({ min: -6, max: 6, noNaN: true }).map((e) => 10 ** e);
    const offset = fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });
    const unit = fc.double({ min: -2, max: 2, noNaN: true });
    fc.assert(
      fc.property(scale, offset, unit, unit, unit, (h, o, u, v, w) => {
        const corners = boxCorners(h, h, h).map(([x, y, z]) => [x + o, y, z]);
        const mesh = makeTriangleMesh(
          new Float64Array(corners.flat()),
          new Uint32Array(BOX_TRIANGLES.flat()),
        );
        const p = v3(o + u * h, v * h, w * h);
        // The closed form in the cube's frame; skip points within rounding of a face.
        const m = Math.max(Math.abs(p.x - o) / h, Math.abs(v), Math.abs(w));
        if (Math.abs(m - 1) < 1e-6 + (4e-16 * Math.abs(o)) / h) return;
        const inside = m < 1;
        // (+ 0: a winding number of −1e-18 rounds to −0.)
        expect(Math.round(windingNumberTriangleMesh(mesh, p)) + 0).toBe(inside ? 1 : 0);
        expect(containsPointTriangleMesh(mesh, p)).toBe(inside);
      }),
    );
  });
});
