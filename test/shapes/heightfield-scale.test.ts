/**
 * Attack 36, a heightfield answered as the mesh of its triangles (docs/FORMATS.md) at extreme
 * scales and steep walls:
 *
 * - Ray casts: a flat 2 × 2 field of scale 1e110 hit from 1e110 above answered toi 0 (the mesh of
 *   its two triangles: 1e110); scales 1e200, 1e300 and 1e-200..1e-300 missed; 1e-150 answered 0.
 *   The field's cell test ran the exact ray–triangle test on the unscaled corners, whose
 *   orientation filters multiply three coordinates (1e330 overflows; 1e-450 underflows), where a
 *   mesh's triangle is rescaled by a power of two first; now each cell's triangle is
 *   (src/shapes/heightfield.ts `rayTriangleInUnits`).
 * - Pair queries against steep fields (height ratios up to 1e18) answer as the mesh of the same
 *   triangles (the property below). Heights [0, 1, 0, 0] at scale (1, 1e18, 1) against a unit
 *   ball at (0, 5, 0) answered distance 0.414, not intersecting, field, mesh and bare triangle
 *   alike, where the wall passes 5e-18 from the centre: the closest point of the edge from
 *   (1, 1e18, 0) to (0, 0, 0) was measured from the far end at t = 1 − 5e-18, which rounds to 1.
 *   Now a point near a segment's b end is measured from b (src/geometry/closest-point.ts
 *   `closestFromNearerEnd`, session 37; session 36's ungated form cost the curved world 2–3 KB
 *   per step).

 * Oracles: the closed form of the reported case (a flat field: toi = height above it), and for
 * the properties the triangle mesh
 * built from FORMATS's vertex placement and cell split (not from the field's code).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestPointOnSegment } from "../../src/geometry/closest-point.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeHeightfield } from "../../src/shapes/heightfield.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { meshOfField } from "../support/field-mesh.js";

const I = iso.identity();

describe("heightfield ray casts at every scale (attack 36)", () => {
  it("a flat field of scale 10^e hit from 10^e above: toi 10^e, as the mesh", () => {
    for (const e of [0, 100, 110, 150, 200, 300, 307, -100, -150, -200, -300, -307]) {
      const s = 10 ** e;
      const scale = { x: s, y: s, z: s };
      const field = makeHeightfield({ rows: 2, cols: 2, heights: [0, 0, 0, 0], scale });
      const origin = { x: s / 2, y: s, z: s / 2 };
      const down = { x: 0, y: -1, z: 0 };
      const hit = raycast(field, I, origin, down, Number.POSITIVE_INFINITY);
      expect(hit?.toi, `1e${e}`).toBe(s);
      expect(Math.abs((hit?.normal.y ?? 0) - 1)).toBeLessThan(1e-15);
      const mesh = meshOfField(2, 2, [0, 0, 0, 0], scale);
      expect(raycast(mesh, I, origin, down, Number.POSITIVE_INFINITY)?.toi).toBe(s);
    }
  });

  it("property: random fields and rays, scales 1e-300..1e300: the mesh's toi within 1e-12, or both miss", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 2, max: 4 }),
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 16, maxLength: 16 }),
        fc.double({ min: -300, max: 300, noNaN: true }),
        fc.tuple(
          fc.double({ min: 0.5, max: 2, noNaN: true }),
          fc.double({ min: 0.5, max: 2, noNaN: true }),
          fc.double({ min: 0.5, max: 2, noNaN: true }),
        ),
        fc.tuple(
          fc.double({ min: -0.2, max: 1.2, noNaN: true }),
          fc.double({ min: -0.2, max: 1.2, noNaN: true }),
          fc.double({ min: 1.2, max: 3, noNaN: true }),
          fc.boolean(),
        ),
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        (rows, cols, hs, e, f, [ox, oz, oy, below], [ax, az]) => {
          const s = 10 ** e;
          const scale = { x: f[0] * s, y: f[1] * s, z: f[2] * s };
          const heights = hs.slice(0, rows * cols);
          const field = makeHeightfield({ rows, cols, heights, scale });
          const mesh = meshOfField(rows, cols, heights, scale);
          const side = below ? -1 : 1;
          const origin = {
            x: ox * (cols - 1) * scale.x,
            y: side * oy * scale.y,
            z: oz * (rows - 1) * scale.z,
          };
          // Across the cells at up to one cell per unit of fall. A sideways component below 1e-6
          // of the fall is 0: the mesh's change of units multiplies the direction by the same
          // power of two as the corners (2^-997 at 1e300), and a component of 1e-64 there
          // underflows, so the mesh is no oracle for such rays (a drift of 1e-64 over a fall of
          // 1e300 leaves the field by 1e236, which the field answers as a miss, the mesh a hit).
          const side0 = (a: number) => (Math.abs(a) < 1e-6 ? 0 : a);
          const dir = { x: side0(ax) * f[0], y: -side * f[1], z: side0(az) * f[2] };
          const th = raycast(field, I, origin, dir, Number.POSITIVE_INFINITY);
          const tm = raycast(mesh, I, origin, dir, Number.POSITIVE_INFINITY);
          expect(th === null, `field ${th?.toi} mesh ${tm?.toi}`).toBe(tm === null);
          if (th && tm) {
            // (The normal is not compared: at a hit on an edge shared by two triangles either
            // face's normal is right, and the walks take their ties in different orders.)
            expect(Math.abs(th.toi - tm.toi)).toBeLessThanOrEqual(1e-12 * tm.toi);
          }
        },
      ),
      { numRuns: 400, seed: 36 },
    );
  });
});

describe("a steep heightfield against a ball, box or capsule (attack 36)", () => {
  it("property: fields with height ratios up to 1e18 answer intersects and distance as the mesh", () => {
    const shapes = fc.oneof(
      fc.double({ min: 0.1, max: 2, noNaN: true }).map((r) => makeSphere(r) as Shape),
      fc
        .tuple(
          fc.double({ min: 0.1, max: 1, noNaN: true }),
          fc.double({ min: 0.1, max: 1, noNaN: true }),
          fc.double({ min: 0.1, max: 1, noNaN: true }),
        )
        .map(([x, y, z]) => makeCuboid({ x, y, z }) as Shape),
      fc
        .tuple(
          fc.double({ min: 0.1, max: 1, noNaN: true }),
          fc.double({ min: 0.1, max: 1, noNaN: true }),
        )
        .map(([r, h]) => makeCapsule({ x: 0, y: -h, z: 0 }, { x: h, y: h, z: 0 }, r) as Shape),
    );
    fc.assert(
      fc.property(
        // Mostly flat with a few spikes: walls 10^e tall over one cell, as the reported field.
        fc.array(
          fc.oneof(fc.constantFrom(0, 0, 0, 1, -1), fc.double({ min: -1, max: 1, noNaN: true })),
          { minLength: 9, maxLength: 9 },
        ),
        fc.double({ min: 0, max: 18, noNaN: true }),
        shapes,
        fc.tuple(
          fc.double({ min: -0.5, max: 2.5, noNaN: true }),
          fc.double({ min: -8, max: 8, noNaN: true }),
          fc.double({ min: -0.5, max: 2.5, noNaN: true }),
          fc.boolean(),
        ),
        (heights, e, shape, [x, y0, z, big]) => {
          const sy = 10 ** e;
          const scale = { x: 1, y: sy, z: 1 };
          const field = makeHeightfield({ rows: 3, cols: 3, heights, scale });
          const mesh = meshOfField(3, 3, heights, scale);
          // Near the floor (|y| ≤ 8) or anywhere up the walls (y0/8 of the tallest height).
          const y = big ? (y0 / 8) * sy : y0;
          const pose = iso.create({ x, y, z });
          const ih = intersects(field, I, shape, pose);
          const im = intersects(mesh, I, shape, pose);
          const dh = distance(field, I, shape, pose).distance;
          const dm = distance(mesh, I, shape, pose).distance;
          expect(ih, `field d ${dh} mesh d ${dm}`).toBe(im);
          expect(Math.abs(dh - dm)).toBeLessThanOrEqual(1e-9 * (1 + Math.abs(y)));
        },
      ),
      { numRuns: 600, seed: 36 },
    );
  });
});

/** x as an exact rational [numerator, denominator] (a finite double is m·2^e). */
function frac(x: number): [bigint, bigint] {
  if (x === 0) return [0n, 1n];
  let e = 0;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  return [BigInt(m), 2n ** BigInt(e)];
}

/** The exact closest point of segment [a, b] to p, rounded once to doubles (Ericson §5.1.2). */
function exactClosest(p: Vec3, a: Vec3, b: Vec3): Vec3 {
  const ax = [a.x, a.y, a.z].map(frac);
  const bx = [b.x, b.y, b.z].map(frac);
  const px = [p.x, p.y, p.z].map(frac);
  // Common denominator D for all nine coordinates (powers of two): work in integers.
  let D = 1n;
  for (const [, d] of [...ax, ...bx, ...px]) if (d > D) D = d;
  const I = (q: [bigint, bigint]) => (q[0] * D) / q[1];
  const A = ax.map(I);
  const B = bx.map(I);
  const P = px.map(I);
  const ab = [0, 1, 2].map((k) => B[k] - A[k]);
  const ap = [0, 1, 2].map((k) => P[k] - A[k]);
  const num = ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2];
  const den = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
  const t: [bigint, bigint] = num <= 0n ? [0n, 1n] : num >= den ? [1n, 1n] : [num, den];
  // out_k = (A_k·t_den + ab_k·t_num) / (t_den·D), in steps of 2^-600 (magnitudes below 2^400).
  const out = [0, 1, 2].map((k) => {
    const n = A[k] * t[1] + ab[k] * t[0];
    const d = t[1] * D;
    const q = (n * 2n ** 600n) / d;
    return Number(q) / 2 ** 300 / 2 ** 300;
  });
  return { x: out[0], y: out[1], z: out[2] };
}

describe("closestPointOnSegment near the b end of a long segment (session 37)", () => {
  it("the steep wall: field, mesh and bare triangle find the ball cut by the wall 5e-18 from its centre", () => {
    const heights = [0, 1, 0, 0];
    const scale = { x: 1, y: 1e18, z: 1 };
    const field = makeHeightfield({ rows: 2, cols: 2, heights, scale });
    const mesh = meshOfField(2, 2, heights, scale);
    const ball = makeSphere(1);
    const pose = iso.create({ x: 0, y: 5, z: 0 });
    for (const shape of [field, mesh]) {
      expect(intersects(shape, I, ball, pose)).toBe(true);
      expect(distance(shape, I, ball, pose).distance).toBe(0);
    }
    // The edge (1, 1e18, 0)–(0, 0, 0): the centre's nearest point is (5e-36·…, 5, 0) to a few ulps.
    const out = { x: 0, y: 0, z: 0 };
    closestPointOnSegment(out, { x: 0, y: 5, z: 0 }, { x: 1, y: 1e18, z: 0 }, { x: 0, y: 0, z: 0 });
    const want = exactClosest({ x: 0, y: 5, z: 0 }, { x: 1, y: 1e18, z: 0 }, { x: 0, y: 0, z: 0 });
    expect(Math.abs(out.y - want.y)).toBeLessThan(1e-14);
    expect(Math.abs(out.x - want.x)).toBeLessThan(1e-30);
  });

  it("property: segments up to 1e18 long with one end near the origin, points within a unit of that end, either order — the exact point to 2^-50 of its offset from that end plus ulps of a unit", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 18, noNaN: true }),
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        fc.double({ min: -20, max: 0, noNaN: true }),
        fc.boolean(),
        (e, d, q, f, reversed) => {
          const L = 10 ** e;
          const n = Math.hypot(d[0], d[1], d[2]);
          if (n < 0.1) return;
          // The near end at a unit's scale, the far end L away (the steep wall's edge).
          const near = { x: 0.5, y: -0.25, z: 1 };
          const far = {
            x: near.x - (d[0] / n) * L,
            y: near.y - (d[1] / n) * L,
            z: near.z - (d[2] / n) * L,
          };
          const r = 10 ** f;
          const p = { x: near.x + q[0] * r, y: near.y + q[1] * r, z: near.z + q[2] * r };
          const [a, b] = reversed ? [near, far] : [far, near];
          const out = { x: 0, y: 0, z: 0 };
          closestPointOnSegment(out, p, a, b);
          const want = exactClosest(p, a, b);
          const off = Math.hypot(want.x - near.x, want.y - near.y, want.z - near.z);
          const err = Math.hypot(out.x - want.x, out.y - want.y, out.z - want.z);
          expect(err, JSON.stringify({ p, a, b, out, want })).toBeLessThanOrEqual(
            2 ** -50 * off + 8 * 2 ** -52,
          );
        },
      ),
      { numRuns: 2000, seed: 37 },
    );
  });
});
