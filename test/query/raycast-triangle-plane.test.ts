/**
 * A ray lying in a triangle's plane misses it, as a bare `triangle`, as a one-triangle `mesh`
 * and as a `compound` holding it (attack 29, F1: the bare triangle and the compound had hit by the
 * GJK ray cast with an in-plane edge normal while the mesh missed). Rays tilted out of the plane
 * still cross the face, with its normal facing the origin.
 *
 * Oracle: the triangle lies in an axis plane (coordinate `axis` = w exactly for its corners and
 * the ray's origin, 0 for the direction), so the ray lies in the plane exactly, whatever its
 * in-plane direction; a tilted ray is aimed at an interior point P (barycentric weights ≥ 1/8)
 * from P − T·d, so it crosses the plane at toi T exactly, at P.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCompound, makeTriangle, makeTriangleMesh } from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";

type V3 = [number, number, number];

/** The point with in-plane coordinates (p, q) and plane coordinate w, the plane across `axis`. */
function place(axis: number, p: number, q: number, w: number): V3 {
  const out: V3 = [0, 0, 0];
  out[axis] = w;
  out[(axis + 1) % 3] = p;
  out[(axis + 2) % 3] = q;
  return out;
}

const v = (a: V3): Vec3 => vec3.create(a[0], a[1], a[2]);

/** The three containers of triangle abc: bare, a one-triangle mesh, a compound's child. */
function containers(a: V3, b: V3, c: V3): [string, Shape][] {
  const tri = makeTriangle(v(a), v(b), v(c));
  return [
    ["triangle", tri],
    ["mesh", makeTriangleMesh([...a, ...b, ...c], [0, 1, 2])],
    ["compound", makeCompound([{ shape: tri, pose: iso.identity() }])],
  ];
}

/** (scale, offset) of the triangle: sizes 1e-6..1e6, offsets to 1e9 (at most 1e9 sizes away). */
const FRAMES: [number, number][] = [
  [1e-6, 0],
  [1e-6, 1e3],
  [1, 0],
  [1, 1e3],
  [1, 1e9],
  [1e6, 0],
  [1e6, 1e9],
];

const corner = fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 }));

/** A non-degenerate triangle's in-plane corners (integer grid, scaled, offset). */
const triangle2 = fc
  .tuple(corner, corner, corner)
  .filter(([a, b, c]) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) !== 0);

describe("raycast: a ray in a triangle's plane misses the triangle in every container", () => {
  it("the attack's case: null for the triangle, the mesh and the compound", () => {
    for (const [name, s] of containers([0, 0, 0], [1, 0, 0], [0, 1, 0])) {
      const h = raycast(s, iso.identity(), vec3.create(-1, 0.2, 0), vec3.create(1, 0, 0), Infinity);
      expect(h, name).toBeNull();
    }
  });

  it("in-plane rays from any direction, origin and pose: all three containers miss (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1, 2),
        fc.constantFrom(...FRAMES),
        triangle2,
        fc.integer({ min: -4, max: 4 }),
        // Origin's in-plane coordinates: inside the triangle's box, on a corner, or far away.
        fc.oneof(
          fc.tuple(
            fc.double({ min: -10, max: 10, noNaN: true }),
            fc.double({ min: -10, max: 10, noNaN: true }),
          ),
          corner,
          fc.tuple(
            fc.double({ min: -1e9, max: 1e9, noNaN: true }),
            fc.double({ min: -1e9, max: 1e9, noNaN: true }),
          ),
        ),
        fc
          .tuple(
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
          )
          .filter(([x, y]) => Math.max(Math.abs(x), Math.abs(y)) > 1e-300),
        fc.constantFrom(1e-6, 1, 1e6),
        fc.integer({ min: -1000, max: 1000 }),
        (axis, [s, off], [a2, b2, c2], w0, [op, oq], [dp, dq], dLen, shift) => {
          const w = off + w0 * s;
          const at = (p: readonly number[]): V3 => place(axis, off + p[0] * s, off + p[1] * s, w);
          const o = place(axis, off + op * s, off + oq * s, w);
          const d = place(axis, dp * dLen, dq * dLen, 0);
          // A pose moving the whole scene by an integer along every axis (exact differences).
          const t: V3 = [shift, -shift, 2 * shift];
          const pose: Isometry = iso.create(v(t), iso.identity().rotation);
          const oW = vec3.create(o[0] + t[0], o[1] + t[1], o[2] + t[2]);
          // The plane coordinate must stay exact in the world: skip a shift that rounds it.
          if (oW.x - t[0] !== o[0] || oW.y - t[1] !== o[1] || oW.z - t[2] !== o[2]) return;
          for (const [name, sh] of containers(at(a2), at(b2), at(c2))) {
            expect(raycast(sh, iso.identity(), v(o), v(d), Infinity), name).toBeNull();
            expect(raycast(sh, pose, oW, v(d), Infinity), `${name} posed`).toBeNull();
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("rays tilted out of the plane still cross the face, normal facing the origin (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1, 2),
        fc.constantFrom(...FRAMES),
        triangle2,
        fc.integer({ min: -4, max: 4 }),
        // Barycentric weights of P, each at least 1/8.
        fc
          .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }))
          .filter(([i, j]) => i + j <= 7),
        fc
          .tuple(
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
          )
          .filter(([x, y]) => Math.hypot(x, y) > 0.1),
        fc.constantFrom(1e-3, 0.1, 1, -1e-3, -1),
        fc.constantFrom(0.5, 2, 1e3),
        (axis, [s, off], [a2, b2, c2], w0, [i, j], [dp, dq], tilt, T) => {
          const w = off + w0 * s;
          const at = (p: readonly number[]): V3 => place(axis, off + p[0] * s, off + p[1] * s, w);
          const l0 = i / 8;
          const l1 = j / 8;
          const l2 = 1 - l0 - l1;
          const pp = l0 * a2[0] + l1 * b2[0] + l2 * c2[0];
          const pq = l0 * a2[1] + l1 * b2[1] + l2 * c2[1];
          const P = place(axis, off + pp * s, off + pq * s, w);
          const d = place(axis, dp * s, dq * s, tilt * s);
          const o = v([P[0] - T * d[0], P[1] - T * d[1], P[2] - T * d[2]]);
          // Rounding of the origin's and corners' coordinates, over the tilt.
          const m = Math.abs(off) + 16 * s + T * s;
          const bar = (256 * Number.EPSILON * m) / Math.abs(tilt);
          for (const [name, sh] of containers(at(a2), at(b2), at(c2))) {
            const h = raycast(sh, iso.identity(), o, v(d), Infinity);
            expect(h, name).not.toBeNull();
            if (!h) continue;
            const n = [h.normal.x, h.normal.y, h.normal.z];
            // The face normal along the plane's axis, facing the origin (against the ray).
            expect(Math.abs(n[axis] - (tilt > 0 ? -1 : 1)), name).toBeLessThanOrEqual(
              2 * Number.EPSILON,
            );
            expect(n[(axis + 1) % 3], name).toBe(0);
            expect(n[(axis + 2) % 3], name).toBe(0);
            expect(Math.abs(h.toi - T) * s * Math.abs(tilt), name).toBeLessThanOrEqual(
              bar * Math.abs(tilt),
            );
            expect(vec3.distance(h.point, v(P)), name).toBeLessThanOrEqual(bar);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a zero-area triangle (a segment) is missed by a ray through it in every container", () => {
    const a: V3 = [0, 0, 0];
    const b: V3 = [2, 0, 0];
    const c: V3 = [1, 0, 0];
    for (const [name, s] of containers(a, b, c)) {
      for (const [o, d] of [
        [vec3.create(1, 1, 0), vec3.create(0, -1, 0)],
        [vec3.create(1, 0, 1), vec3.create(0, 0, -1)],
        [vec3.create(-1, 0, 0), vec3.create(1, 0, 0)],
        [vec3.create(0.5, 1, 1), vec3.create(0, -1, -1)],
      ]) {
        expect(raycast(s, iso.identity(), o, d, Infinity), name).toBeNull();
      }
    }
  });
});
