import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeContact } from "../../src/narrowphase/contact.js";
import {
  contactCuboidCuboidSat,
  intersectsCuboidCuboid,
} from "../../src/narrowphase/cuboid-cuboid.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { pose, scale, unitQuat, vec } from "../oracles/arbitraries.js";
import { boxCorners, projectionOverlap, sphereDirections } from "../oracles/support-oracle.js";

/** World axes of a box at pose p. */
function boxAxes(p: Isometry): Vec3[] {
  return [vec3.create(1, 0, 0), vec3.create(0, 1, 0), vec3.create(0, 0, 1)].map((e) =>
    quat.rotate(vec3.create(), p.rotation, e),
  );
}

/**
 * Brute-force SAT oracle from the corners: the 15 candidate axes (face normals and normalised
 * edge cross products, degenerate ones dropped), each tested by projecting all 16 corners.
 * Returns the minimum overlap over the axes (negative = separated).
 */
function bruteSat(ha: Vec3, pa: Isometry, hb: Vec3, pb: Isometry): number {
  const ca = boxCorners(ha, pa);
  const cb = boxCorners(hb, pb);
  const axesA = boxAxes(pa);
  const axesB = boxAxes(pb);
  const axes = [...axesA, ...axesB];
  for (const u of axesA)
    for (const v of axesB) {
      const c = vec3.cross(vec3.create(), u, v);
      const l = vec3.length(c);
      if (l > 1e-6) axes.push(vec3.scale(c, c, 1 / l));
    }
  let m = Infinity;
  for (const ax of axes) m = Math.min(m, projectionOverlap(ca, cb, ax));
  return m;
}

const dirs = sphereDirections(400);

describe("cuboid–cuboid SAT", () => {
  it("intersects agrees with the brute-force 15-axis oracle and with a scan of 400 directions", () => {
    fc.assert(
      fc.property(vec(0.05, 2), pose(-2, 2), vec(0.05, 2), pose(-2, 2), (ha, pa, hb, pb) => {
        const bInA = iso.invMul(iso.identity(), pa, pb);
        const got = intersectsCuboidCuboid(makeCuboid(ha), makeCuboid(hb), bInA);
        const overlap = bruteSat(ha, pa, hb, pb);
        const size = Math.max(ha.x, ha.y, ha.z, hb.x, hb.y, hb.z);
        if (Math.abs(overlap) > 1e-9 * size) expect(got).toBe(overlap >= 0);
        if (got) {
          // No sampled direction may separate intersecting boxes.
          const ca = boxCorners(ha, pa);
          const cb = boxCorners(hb, pb);
          for (const d of dirs)
            expect(projectionOverlap(ca, cb, d)).toBeGreaterThanOrEqual(-1e-9 * size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("depth and normal are those of the axis of least overlap; witness points are consistent", () => {
    fc.assert(
      fc.property(vec(0.05, 2), vec(0.05, 2), pose(-1, 1), pose(-1, 1), (ha, hb, pa, pb) => {
        const bInA = iso.invMul(iso.identity(), pa, pb);
        const c = makeContact();
        const ok = contactCuboidCuboidSat(c, makeCuboid(ha), makeCuboid(hb), bInA);
        const overlap = bruteSat(ha, pa, hb, pb);
        const size = Math.max(ha.x, ha.y, ha.z, hb.x, hb.y, hb.z);
        if (!ok) {
          expect(overlap).toBeLessThan(1e-9 * size);
          return;
        }
        expect(c.distance).toBeCloseTo(-overlap, 8);
        expect(vec3.length(c.normal)).toBeCloseTo(1, 12);
        // The normal (A's frame → world) attains the depth on the corner projections.
        const nW = quat.rotate(vec3.create(), pa.rotation, c.normal);
        const ca = boxCorners(ha, pa);
        const cb = boxCorners(hb, pb);
        expect(projectionOverlap(ca, cb, nW)).toBeCloseTo(-c.distance, 8);
        // Oriented from A toward B: B's projection extends further along n than A's.
        const dcen = vec3.dot(vec3.sub(vec3.create(), pb.translation, pa.translation), nW);
        expect(dcen).toBeGreaterThanOrEqual(-1e-9);
        const gap = vec3.dot(vec3.sub(vec3.create(), c.pointB, c.pointA), c.normal);
        expect(gap).toBeCloseTo(c.distance, 8);
      }),
      { numRuns: 300 },
    );
  });

  it("parallel faces: a gap of 1e-9 is a gap, touching is touching (any common rotation)", () => {
    fc.assert(
      fc.property(
        vec(0.1, 2),
        vec(0.1, 2),
        unitQuat,
        fc.integer({ min: 0, max: 2 }),
        (ha, hb, q, axis) => {
          const a = makeCuboid(ha);
          const b = makeCuboid(hb);
          for (const [eps, want] of [
            [1e-9, false],
            [-1e-9, true],
          ] as const) {
            const t = vec3.create(0.01, -0.02, 0.03);
            vec3.setAxis(t, axis, vec3.getAxis(ha, axis) + vec3.getAxis(hb, axis) + eps);
            // Same rotation for both: bInA has identity rotation up to round-off; rotate it explicitly
            // through world poses to exercise the general path.
            const pa = iso.create(vec3.create(5, -3, 2), q);
            const pb = iso.create(iso.transformPoint(vec3.create(), pa, t), q);
            const bInA = iso.invMul(iso.identity(), pa, pb);
            expect(intersectsCuboidCuboid(a, b, bInA)).toBe(want);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("touching face to face counts at every scale, with distance 0", () => {
    fc.assert(
      fc.property(scale, (k) => {
        const a = makeCuboid(vec3.create(0.375 * k, 0.25 * k, 0.125 * k));
        const b = makeCuboid(vec3.create(0.625 * k, 0.25 * k, 0.375 * k));
        const bInA = iso.create(vec3.create(1 * k, 0.0625 * k, 0.125 * k));
        expect(intersectsCuboidCuboid(a, b, bInA)).toBe(true);
        const c = makeContact();
        expect(contactCuboidCuboidSat(c, a, b, bInA)).toBe(true);
        expect(Math.abs(c.distance)).toBeLessThanOrEqual(1e-15 * k);
        expect(c.normal).toEqual({ x: 1, y: 0, z: 0 });
      }),
    );
  });

  it("reference example: boxes at (2,3,5) h(1,2,1) and (4,4,6) h(1.5,1,1.5) intersect", () => {
    const pa = iso.create(vec3.create(2, 3, 5));
    const pb = iso.create(vec3.create(4, 4, 6));
    const bInA = iso.invMul(iso.identity(), pa, pb);
    expect(
      intersectsCuboidCuboid(
        makeCuboid(vec3.create(1, 2, 1)),
        makeCuboid(vec3.create(1.5, 1, 1.5)),
        bInA,
      ),
    ).toBe(true);
    const c = makeContact();
    contactCuboidCuboidSat(
      c,
      makeCuboid(vec3.create(1, 2, 1)),
      makeCuboid(vec3.create(1.5, 1, 1.5)),
      bInA,
    );
    // Overlaps: x 2.5 − 2 = 0.5, y 3 − 1 = 2, z 2.5 − 1 = 1.5 → depth 0.5 along +x.
    expect(c.distance).toBeCloseTo(-0.5, 14);
    expect(c.normal).toEqual({ x: 1, y: 0, z: 0 });
  });

  it("stacked cubes with coplanar sides: normal +z, depth 0.08", () => {
    const h = vec3.create(0.75, 0.75, 0.75);
    const bInA = iso.create(vec3.create(0, 0, 1.42));
    const c = makeContact();
    expect(contactCuboidCuboidSat(c, makeCuboid(h), makeCuboid(h), bInA)).toBe(true);
    expect(c.distance).toBeCloseTo(-0.08, 12);
    expect(c.normal).toEqual({ x: 0, y: 0, z: 1 });
  });

  it("flat (zero-thickness) boxes are handled", () => {
    const a = makeCuboid(vec3.create(1, 0, 1));
    const b = makeCuboid(vec3.create(0.5, 0.5, 0.5));
    expect(intersectsCuboidCuboid(a, b, iso.create(vec3.create(0, 0.5, 0)))).toBe(true);
    expect(intersectsCuboidCuboid(a, b, iso.create(vec3.create(0, 0.5 + 1e-9, 0)))).toBe(false);
    const c = makeContact();
    expect(
      contactCuboidCuboidSat(
        c,
        a,
        b,
        iso.create(
          vec3.create(0, 0.25, 0),
          quat.fromAxisAngle(quat.identity(), vec3.create(0, 0, 1), 0.3),
        ),
      ),
    ).toBe(true);
    expect(Number.isFinite(c.distance)).toBe(true);
  });
});
