/**
 * Capsule–cylinder with the capsule's segment entering the cylinder and coplanar with its axis
 * (parallel or crossing): the closed form of src/narrowphase/rounded-revolution.ts
 * (`coplanarCylinder`, issue 16 must-have 1), checked against hand-derived answers and, on
 * random poses, against the fuzzer's independent oracle (test/fuzz/oracle-*.ts): the overlap
 * along the reported normal from the oracle's own support functions equals the depth (the
 * normal achieves it), no direction the oracle searches (candidate axes, dense directions and a
 * pattern search) has a smaller overlap, and the witnesses lie on their shapes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { overlapPieces, surfaceDistance } from "../fuzz/oracle-pairs.js";
import { oshape, type V } from "../fuzz/oracle-shapes.js";

interface C {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
  errorBound: number;
}
const contact = (a: object, b: object) => answerQuery({ op: "contact", a, b }) as C;

describe("hand-derived", () => {
  it("parallel: a segment 0.5 off the axis inside a cylinder of radius 1", () => {
    const cyl = { type: "cylinder", center: [0, 0, 0], halfHeight: 2, radius: 1 };
    const cap = { type: "capsule", a: [0.5, -1, 0], b: [0.5, 1, 0], radius: 0.25 };
    const c = contact(cap, cyl);
    expect(c.distance).toBe(-0.75);
    expect(c.normal).toEqual([-1, 0, 0]);
    expect(c.pointA).toEqual([0.25, 0, 0]);
    expect(c.pointB).toEqual([1, 0, 0]);
    expect(c.errorBound).toBe(0);
  });

  it("crossing: a horizontal segment through the axis, 0.5 below the top cap", () => {
    const cyl = { type: "cylinder", center: [0, 0, 0], halfHeight: 1, radius: 2 };
    const cap = { type: "capsule", a: [-3, 0.5, 0], b: [3, 0.5, 0], radius: 0.125 };
    const c = contact(cap, cyl);
    expect(c.distance).toBe(-0.625);
    expect(c.normal).toEqual([0, -1, 0]);
    expect(c.pointA).toEqual([0, 0.375, 0]);
    expect(c.pointB).toEqual([0, 1, 0]);
  });

  it("crossing a thin tall cylinder: the way out is sideways, normal to the plane (depth r)", () => {
    const cyl = { type: "cylinder", center: [0, 0, 0], halfHeight: 10, radius: 0.5 };
    const cap = { type: "capsule", a: [-5, 0, 0], b: [5, 0, 0], radius: 0.25 };
    const c = contact(cap, cyl);
    expect(c.distance).toBe(-0.75);
    expect(Math.abs(c.normal[2])).toBe(1);
    expect(c.pointA[0]).toBe(0);
    expect(c.pointB[0]).toBe(0);
    expect(Math.abs(c.pointB[2])).toBe(0.5);
  });
});

type Q = [number, number, number, number];
function rotate(q: Q, v: V): V {
  const [x, y, z, w] = q;
  // v + 2w(q×v) + 2 q×(q×v)
  const cx = y * v[2] - z * v[1];
  const cy = z * v[0] - x * v[2];
  const cz = x * v[1] - y * v[0];
  const dx = y * cz - z * cy;
  const dy = z * cx - x * cz;
  const dz = x * cy - y * cx;
  return [v[0] + 2 * (w * cx + dx), v[1] + 2 * (w * cy + dy), v[2] + 2 * (w * cz + dz)];
}

describe("random coplanar segments against the oracle", () => {
  it("the normal achieves the depth and no searched direction overlaps less", () => {
    const unitish = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 5, noNaN: true }),
        fc.double({ min: 0.1, max: 5, noNaN: true }),
        fc.tuple(unitish, unitish, unitish, unitish),
        fc.tuple(unitish, unitish, unitish),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.tuple(unitish, unitish, unitish, unitish),
        fc.constantFrom("free", "parallel", "axis"),
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
        (h0, r0, q0, c0, phi, pts, mode, rad0, scale) => {
          const h = h0 * scale;
          const r = r0 * scale;
          const ql = Math.hypot(...q0) || 1;
          const q: Q = [q0[0] / ql, q0[1] / ql, q0[2] / ql, q0[3] / ql];
          if (Math.hypot(...q0) === 0) q.splice(0, 4, 0, 0, 0, 1);
          const center: V = [c0[0] * 10 * scale, c0[1] * 10 * scale, c0[2] * 10 * scale];
          // One end inside the rectangle, the other anywhere near it (meridian coordinates).
          let u1 = 0.95 * r * pts[0];
          const y1 = 0.95 * h * pts[1];
          let u2 = 2 * r * pts[2];
          const y2 = 2 * h * pts[3];
          if (mode === "parallel") u2 = u1;
          if (mode === "axis") {
            u1 = 0;
            u2 = 0;
          }
          const eu: V = [Math.cos(phi), 0, Math.sin(phi)];
          const local = (u: number, y: number): V => [u * eu[0], y, u * eu[2]];
          const world = (p: V): V => {
            const v = rotate(q, p);
            return [v[0] + center[0], v[1] + center[1], v[2] + center[2]];
          };
          const cyl = { type: "cylinder", center, halfHeight: h, radius: r, rotation: q };
          const cap = {
            type: "capsule",
            a: world(local(u1, y1)),
            b: world(local(u2, y2)),
            radius: rad0 * scale,
          };
          const c = contact(cap, cyl);
          expect(c).not.toBeNull();
          const A = oshape(cap);
          const B = oshape(cyl);
          const depth = -c.distance;
          const tol = 1e-9 * depth + 1e-12 * (scale * 30);
          // Attained: the overlap along the normal (oracle's supports) is the depth.
          const along = overlapPieces(A.pieces[0], B.pieces[0], c.normal);
          expect(Math.abs(along - depth)).toBeLessThanOrEqual(tol);
          // Least: dense directions and a local search around the best of them overlap more.
          let least = Number.POSITIVE_INFINITY;
          const n = 600;
          const golden = Math.PI * (3 - Math.sqrt(5));
          let bestDir: V = [1, 0, 0];
          for (let i = 0; i < n; i++) {
            const yy = 1 - (2 * (i + 0.5)) / n;
            const rr = Math.sqrt(1 - yy * yy);
            const d: V = [Math.cos(golden * i) * rr, yy, Math.sin(golden * i) * rr];
            const o = overlapPieces(A.pieces[0], B.pieces[0], d);
            if (o < least) {
              least = o;
              bestDir = d;
            }
          }
          let step = 0.1;
          while (step > 1e-10) {
            let moved = false;
            for (let k = 0; k < 3; k++) {
              for (const s of [-1, 1]) {
                const d: V = [...bestDir];
                d[k] += s * step;
                const l = Math.hypot(...d);
                const dn: V = [d[0] / l, d[1] / l, d[2] / l];
                const o = overlapPieces(A.pieces[0], B.pieces[0], dn);
                if (o < least) {
                  least = o;
                  bestDir = dn;
                  moved = true;
                }
              }
            }
            if (!moved) step *= 0.5;
          }
          expect(depth).toBeLessThanOrEqual(least + tol);
          expect(surfaceDistance(A, c.pointA)).toBeLessThanOrEqual(tol);
          expect(surfaceDistance(B, c.pointB)).toBeLessThanOrEqual(tol);
          const pq: V = [
            c.pointB[0] - c.pointA[0],
            c.pointB[1] - c.pointA[1],
            c.pointB[2] - c.pointA[2],
          ];
          const proj = pq[0] * c.normal[0] + pq[1] * c.normal[1] + pq[2] * c.normal[2];
          expect(Math.abs(proj - c.distance)).toBeLessThanOrEqual(tol);
        },
      ),
      { numRuns: 200 },
    );
  });
});
