/**
 * projectPoint on convex hulls far away and on tiny hulls (issue 16, session-39 attack finding
 * 5): the closest point of the face p lies beyond, not a corner whose rounded distance ties with
 * it. Hand-derived values, then a property against brute-force feature projection (every face
 * foot within its face, every edge's clamped foot, every vertex; the winner by exact squared
 * distance in BigInt).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import "../../src/narrowphase/dispatch.js";
import * as iso from "../../src/math/isometry.js";
import { projectPoint } from "../../src/query/project-point.js";
import { makeConvexPolyhedron } from "../../src/shapes/index.js";
import { big } from "../dim2/oracle.js";

const V = (x: number, y: number, z: number) => ({ x, y, z });
const prism = makeConvexPolyhedron([
  V(-1, -1, -1),
  V(1, -1, -1),
  V(0, 1, -1),
  V(-1, -1, 1),
  V(1, -1, 1),
  V(0, 1, 1),
]);
const id = iso.identity();

describe("convex hull projectPoint far away (hand-derived)", () => {
  it("the prism from (0.3, −D, 0.2): the bottom face's foot (0.3, −1, 0.2)", () => {
    for (const D of [1e2, 1e5, 1e8, 1e11, 1e14, 1e20, 1e100]) {
      expect(projectPoint(prism, id, V(0.3, -D, 0.2)).point).toEqual(V(0.3, -1, 0.2));
    }
    expect(projectPoint(prism, id, V(0, -1e200, 0)).point).toEqual(V(0, -1, 0));
  });
  it("a cube of half side 1e-200 from (1, 0.5e-200, 0): (1e-200, 0.5e-200, 0)", () => {
    const e = 1e-200;
    const pts = [];
    for (const x of [-e, e]) for (const y of [-e, e]) for (const z of [-e, e]) pts.push(V(x, y, z));
    const cube = makeConvexPolyhedron(pts);
    expect(projectPoint(cube, id, V(1, 0.5e-200, 0)).point).toEqual(V(1e-200, 0.5e-200, 0));
  });
});

type P3 = [number, number, number];
const sub = (a: P3, b: P3): P3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: P3, b: P3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Clamped foot of p on segment a–b, at unit scale (e divided by its largest component). */
function segFoot(p: P3, a: P3, b: P3): P3 {
  const e = sub(b, a);
  const m = Math.max(...e.map(Math.abs));
  if (m === 0) return a;
  const u: P3 = [e[0] / m, e[1] / m, e[2] / m];
  let t = dot(sub(p, a), u) / dot(u, u) / m;
  t = Math.max(0, Math.min(1, t));
  return t === 1 ? b : [a[0] + t * e[0], a[1] + t * e[1], a[2] + t * e[2]];
}

describe("convex hull projectPoint far away against brute-force features", () => {
  it("a box-like hull (axis faces) of size 1e-100..1e6 from 1e2..1e250 sizes along an axis", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -100, max: 6, noNaN: true }).map((e) => 10 ** e),
        fc.array(fc.double({ min: 0.3, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 0, max: 5 }),
        fc.double({ min: 2, max: 250, noNaN: true }).map((e) => 10 ** e),
        fc.array(fc.double({ min: -1.5, max: 1.5, noNaN: true }), { minLength: 2, maxLength: 2 }),
        (s, h, face, far, lat) => {
          const hx = h[0] * s;
          const hy = h[1] * s;
          const hz = h[2] * s;
          const verts: P3[] = [];
          for (const x of [-hx, hx])
            for (const y of [-hy, hy]) for (const z of [-hz, hz]) verts.push([x, y, z]);
          const hull = makeConvexPolyhedron(verts.map(([x, y, z]) => V(x, y, z)));
          const axis = face >> 1;
          const sign = face & 1 ? 1 : -1;
          const p: P3 = [lat[0] * s, lat[1] * s, 0];
          p[axis === 0 ? 2 : axis === 1 ? 2 : 1] = axis === 2 ? lat[1] * s : p[2];
          p[axis] = sign * far * s;
          if (axis !== 2) p[2] = lat[1] * s;
          if (axis === 2) {
            p[0] = lat[0] * s;
            p[1] = lat[1] * s;
          }
          if (!p.every(Number.isFinite)) return;
          const got = projectPoint(hull, id, V(p[0], p[1], p[2])).point;
          // Brute force: the box's clamp is the face foot, edge foot or vertex; confirm against
          // every edge of the box and every vertex by exact squared distance.
          const ext: P3 = [hx, hy, hz];
          const clamp: P3 = [0, 1, 2].map((i) => Math.max(-ext[i], Math.min(ext[i], p[i]))) as P3;
          const cands: P3[] = [clamp, ...verts];
          for (let i = 0; i < 8; i++)
            for (let j = i + 1; j < 8; j++) {
              const d = sub(verts[i], verts[j]).filter((c) => c !== 0).length;
              if (d === 1) cands.push(segFoot(p, verts[i], verts[j]));
            }
          let best = cands[0];
          let bestD = -1n;
          for (const q of cands) {
            const dd = [0, 1, 2].reduce((acc, i) => acc + (big(p[i]) - big(q[i])) ** 2n, 0n);
            if (bestD < 0n || dd < bestD) {
              bestD = dd;
              best = q;
            }
          }
          expect(Math.abs(got.x - best[0])).toBeLessThanOrEqual(1e-12 * s);
          expect(Math.abs(got.y - best[1])).toBeLessThanOrEqual(1e-12 * s);
          expect(Math.abs(got.z - best[2])).toBeLessThanOrEqual(1e-12 * s);
        },
      ),
      { numRuns: 200 },
    );
  });
});
