/**
 * Bad input a fresh user found in the signed-distance and overlap-volume queries: each refused
 * with a `CollideError` naming the field and the value, never an Infinity, a NaN or a
 * TypeError.
 */
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import { loadBunny } from "../../src/models/bunny.js";
import { overlapVolume } from "../../src/query/overlap-volume.js";
import { projectPoint, projectPoints } from "../../src/query/project-point.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import "../../src/index.js";
import { refusal } from "../support/refusal.js";

const bunny = loadBunny();
const mesh = makeTriangleMesh(bunny.positions, bunny.cells, "", { solid: true });
const I = iso.identity();

describe("bad input to projectPoint, projectPoints and overlapVolume", () => {
  it("projectPoint: a `solid` that is not a boolean names `solid`", () => {
    for (const solid of ["yes", 0, null, 1]) {
      // biome-ignore lint/suspicious/noExplicitAny: the bad input on purpose.
      const e = refusal(() => projectPoint(mesh, I, { x: 0.9, y: 2.8, z: 0.3 }, solid as any));
      expect(e.field).toBe("solid");
    }
    expect(projectPoint(mesh, I, { x: 0.9, y: 2.8, z: 0.3 }, false).distance).toBeGreaterThan(0);
  });

  it("projectPoints: an `out` that is not a PointProjections names `out`", () => {
    for (const out of [{ points: 5 }, { pts: 1 }, null, 3]) {
      // biome-ignore lint/suspicious/noExplicitAny: the bad input on purpose.
      const e = refusal(() => projectPoints(mesh, I, new Float64Array(3), out as any));
      expect(e.field).toBe("out");
    }
  });

  it("a far point: projectPoint and projectPoints answer at any distance (the mesh changes units)", () => {
    // The bunny lies within 0.1 of the origin: the distance is |p| to the last bit.
    for (const x of [1e154, 1e155, 1e300, -1e300]) {
      const near = projectPoint(mesh, I, { x, y: 0, z: 0 });
      expect(near.distance / Math.abs(x)).toBe(1);
      expect(near.inside).toBe(false);
      const batch = projectPoints(mesh, I, new Float64Array([0, 0, 0, x, 0, 0]));
      expect(batch.signedDistances[1]).toBe(near.distance);
    }
  });

  it("overlapVolume: shapes whose volume overflows are refused, never Infinity or NaN", () => {
    const big = makeCuboid({ x: 1e103, y: 1e103, z: 1e103 });
    const at = (x: number) => ({
      translation: { x, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    });
    refusal(() => overlapVolume(big, at(0), big, at(1e103)));
    refusal(() => overlapVolume(makeSphere(1e103), at(0), big, at(1e103)));
    // A finite one still answers exactly: two unit cubes offset by half overlap by 0.5.
    const unit = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
    expect(overlapVolume(unit, at(0), unit, at(0.5)).volume).toBe(0.5);
  });

  it("an error shows a typed array as its numbers (an empty one as [], not {})", async () => {
    const { describeValue } = await import("../../src/errors.js");
    expect(describeValue(new Float64Array(0))).toBe("[]");
    expect(describeValue(new Float64Array([1, 2.5]))).toBe("[1,2.5]");
    expect(describeValue(new Float64Array([Number.NaN]))).toBe("[NaN]");
  });
});
