/**
 * Regression of issue 16 (found in passing, session 23): a box of 2×1.6×1.2 straddling the top
 * edge of a tetrahedron hull of 2.6e5 (corners ±131072), 0.9375 above the edge's midpoint and
 * turned 41° about y, overlaps it 0.172 deep, yet `distance` answered 0.0888 and `intersects`
 * false. GJK's tetrahedron there is a needle (the box's face and a hull vertex 3.3e5 away, the
 * origin 0.09 inside it): its volume was below GJK_DEGENERATE_SIMPLEX_TOLERANCE of its edges'
 * product, so the signed-volume step took the nearest of its faces (0.0888 away) as the closest
 * point and GJK stalled on that face. Fixed in src/geometry/gjk.ts (s3d): such a tetrahedron's
 * signed volumes are taken on each face's two shorter edges and decide the origin's side where
 * they stand above their rounding. The oracle is SAT over the box's and the tetrahedron's face
 * normals and their edges' cross products (exact for two polytopes up to double rounding); a
 * fast-check property places boxes near the hull's edges and faces at sizes 2^-20..2^20, ratios
 * to 1e-6, offsets to 1e9, with tiny and denormal rotation components (fails on the old s3d
 * within 400 runs).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  contact,
  distance,
  intersects,
  makeConvexPolyhedron,
  makeCuboid,
} from "../../src/index.js";
import { answerQuery } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";

type V = [number, number, number];

const TET: V[] = [
  [-1, -1, 1],
  [-1, 1, -1],
  [1, -1, -1],
  [1, 1, 1],
];
const TET_EDGES = [
  [0, 1],
  [0, 2],
  [0, 3],
  [1, 2],
  [1, 3],
  [2, 3],
];

const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** The box's axes (columns of its rotation) for the quaternion [x, y, z, w] (normalised here). */
function boxAxes(q: readonly number[]): V[] {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  const [x, y, z, w] = q.map((c) => c / n);
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
    [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
    [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/**
 * SAT between the box (centre c, half extents h, rotation q) and the tetrahedron `tet`: the
 * largest separation over the candidate axes (the box's 3 axes, the tetrahedron's 4 face
 * normals, the 18 edge cross products), in coordinates relative to the box's centre. Positive:
 * a separating axis (a lower bound on the distance); negative: minus the penetration depth.
 */
function satSeparation(c: V, h: V, q: readonly number[], tet: V[]): number {
  const ax = boxAxes(q);
  const t = tet.map((p) => sub(p, c));
  const corners: V[] = [];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1]) {
        const p: V = [0, 0, 0];
        for (let k = 0; k < 3; k++)
          p[k] = sx * h[0] * ax[0][k] + sy * h[1] * ax[1][k] + sz * h[2] * ax[2][k];
        corners.push(p);
      }
  const cands: V[] = [...ax];
  for (let i = 0; i < 4; i++) {
    const [a, b, d] = [0, 1, 2, 3].filter((j) => j !== i).map((j) => t[j]);
    cands.push(cross(sub(b, a), sub(d, a)));
  }
  for (const [i, j] of TET_EDGES) for (const a of ax) cands.push(cross(sub(t[j], t[i]), a));
  let best = Number.NEGATIVE_INFINITY;
  for (const cnd of cands) {
    const l = Math.hypot(...cnd);
    if (!(l > 0)) continue;
    const u: V = [cnd[0] / l, cnd[1] / l, cnd[2] / l];
    const bp = corners.map((p) => dot(p, u));
    const tp = t.map((p) => dot(p, u));
    const s = Math.max(Math.min(...tp) - Math.max(...bp), Math.min(...bp) - Math.max(...tp));
    if (s > best) best = s;
  }
  return best;
}

type Answer = { distance: number; intersects: boolean; contact: number | null };

function ask(a: unknown, b: unknown): Answer {
  const d = answerQuery({ op: "distance", a, b }) as { distance: number };
  const i = answerQuery({ op: "intersects", a, b }) as { intersects: boolean };
  const c = answerQuery({ op: "contact", a, b }) as { distance: number } | null;
  return { distance: d.distance, intersects: i.intersects, contact: c ? c.distance : null };
}

describe("a box straddling a large hull's edge (GJK's needle tetrahedron)", () => {
  const S = 131072;
  const corners = TET.map((p) => p.map((x) => x * S) as V);
  const interior: V[] = [
    [-12182, 3021.5, -877.25],
    [1500, -2200, 4100],
    [-6000, 9000.5, 250],
    [7100, 120, -15000],
    [-300, -19000, 2000],
    [11000, 5000, 6000],
    [0, 0, 0],
  ];
  const box = {
    type: "box",
    center: [0, 0, 131072.9375],
    halfExtents: [1, 0.8, 0.6],
    rotation: [-1.9823373310781058e-108, 0.3511234415883917, -3.5e-323, 0.9363291775690445],
  };

  it("overlaps 0.172 deep in either order, with or without interior points", () => {
    const sep = satSeparation(box.center as V, box.halfExtents as V, box.rotation, corners);
    expect(sep).toBeCloseTo(-0.1720890410958904, 12);
    for (const points of [corners, [...corners, ...interior], [...interior, ...corners]]) {
      const hull = { type: "convex", points };
      for (const [a, b] of [
        [box, hull],
        [hull, box],
      ]) {
        const r = ask(a, b);
        expect(r.intersects).toBe(true);
        expect(r.distance).toBe(0);
        expect(r.contact).not.toBeNull();
        expect(Math.abs((r.contact as number) - sep)).toBeLessThan(1e-9);
      }
    }
  });

  it("through the library's API (poses, no JSON frame)", () => {
    const hull = makeConvexPolyhedron(corners.map(([x, y, z]) => ({ x, y, z })));
    const cube = makeCuboid({ x: 1, y: 0.8, z: 0.6 });
    const [qx, qy, qz, qw] = box.rotation;
    const poseA = iso.create({ x: 0, y: 0, z: 131072.9375 }, { x: qx, y: qy, z: qz, w: qw });
    const poseB = iso.create({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0, w: 1 });
    const sep = satSeparation(box.center as V, box.halfExtents as V, box.rotation, corners);
    expect(intersects(cube, poseA, hull, poseB)).toBe(true);
    expect(distance(hull, poseB, cube, poseA).distance).toBe(0);
    const c = contact(cube, poseA, hull, poseB, 0);
    expect(c).not.toBeNull();
    expect(Math.abs((c?.distance ?? 0) - sep)).toBeLessThan(1e-9);
  });

  it("at 2^20 and 0.8 above the edge (0.31 deep)", () => {
    const big = TET.map((p) => p.map((x) => x * 2 ** 20) as V);
    const a = { ...box, center: [0, 0, 2 ** 20 + 0.8] };
    const sep = satSeparation(a.center as V, a.halfExtents as V, a.rotation, big);
    const r = ask(a, { type: "convex", points: big });
    expect(sep).toBeLessThan(-0.3);
    expect(r.intersects).toBe(true);
    expect(r.distance).toBe(0);
    expect(Math.abs((r.contact as number) - sep)).toBeLessThan(1e-8);
  });

  it("property: boxes near a large hull's edges and faces agree with SAT", () => {
    const tiny = fc.constantFrom(0, 5e-324, -3.5e-323, 1e-300, -1.9823373310781058e-108, 1e-17);
    const rotation = fc.oneof(
      // A turn about one axis with denormal or tiny components on the others.
      fc
        .tuple(fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), tiny, tiny, fc.nat(2))
        .map(([t, e1, e2, axis]) => {
          const q = [e1, e2, e1, Math.cos(t / 2)];
          q[axis] = Math.sin(t / 2);
          return q;
        }),
      fc
        .tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: 0.1, max: 1, noNaN: true }),
        )
        .map((q) => {
          const n = Math.hypot(...q);
          return q.map((c) => c / n);
        }),
    );
    const arb = fc.record({
      kH: fc.integer({ min: -20, max: 20 }),
      ratioExp: fc.double({ min: -6, max: -0.5, noNaN: true }),
      offExp: fc.integer({ min: -1, max: 9 }),
      offDir: fc.tuple(fc.integer({ min: -1, max: 1 }), fc.integer({ min: -1, max: 1 })),
      onEdge: fc.boolean(),
      feature: fc.nat(5),
      t: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
      u: fc.double({ min: 0.05, max: 0.9, noNaN: true }),
      lift: fc.double({ min: -1.5, max: 1.5, noNaN: true }),
      h: fc.tuple(
        fc.double({ min: 0.2, max: 1, noNaN: true }),
        fc.double({ min: 0.2, max: 1, noNaN: true }),
        fc.double({ min: 0.2, max: 1, noNaN: true }),
      ),
      rotation,
      interior: fc.array(
        fc.tuple(
          fc.double({ min: -0.15, max: 0.15, noNaN: true }),
          fc.double({ min: -0.15, max: 0.15, noNaN: true }),
          fc.double({ min: -0.15, max: 0.15, noNaN: true }),
        ),
        { maxLength: 7 },
      ),
    });
    fc.assert(
      fc.property(arb, (g) => {
        const H = 2 ** g.kH;
        const s = H * 10 ** g.ratioExp;
        const O = g.offExp < 0 ? 0 : 10 ** g.offExp;
        const off: V = [O * g.offDir[0], O * g.offDir[1], O];
        const M = O + 2 * H;
        // Resolvable in doubles: the box at least 2^-30 of the coordinates' magnitude.
        if (s < 2 ** -30 * M) return;
        const tet = TET.map((p) => [p[0] * H + off[0], p[1] * H + off[1], p[2] * H + off[2]] as V);
        // A point on an edge (t along it) or inside a face (t, u), and the outward direction
        // there (the sum of the adjacent faces' outward normals −corner), lifted by lift·s.
        let at: V;
        let out: V;
        if (g.onEdge) {
          const [i, j] = TET_EDGES[g.feature];
          at = [0, 1, 2].map((k) => TET[i][k] * (1 - g.t) + TET[j][k] * g.t) as V;
          const others = [0, 1, 2, 3].filter((x) => x !== i && x !== j);
          out = [0, 1, 2].map((k) => -TET[others[0]][k] - TET[others[1]][k]) as V;
        } else {
          const f = g.feature % 4;
          const [i, j, k2] = [0, 1, 2, 3].filter((x) => x !== f);
          const w = Math.min(g.u, 1 - g.t);
          at = [0, 1, 2].map(
            (k) => TET[i][k] * (1 - g.t - w) + TET[j][k] * g.t + TET[k2][k] * w,
          ) as V;
          out = [0, 1, 2].map((k) => -TET[f][k]) as V;
        }
        const ol = Math.hypot(...out);
        const center = [0, 1, 2].map((k) => at[k] * H + off[k] + (out[k] / ol) * g.lift * s) as V;
        const he = g.h.map((x) => x * s) as V;
        const a = { type: "box", center, halfExtents: he, rotation: g.rotation };
        const pts = [
          ...tet,
          ...g.interior.map((p) => [p[0] * H + off[0], p[1] * H + off[1], p[2] * H + off[2]]),
        ];
        const b = { type: "convex", points: pts };
        const sep = satSeparation(center, he, g.rotation, tet);
        const tol = 1e-7 * s + 2 ** -40 * M;
        const r = ask(a, b);
        const rb = ask(b, a);
        if (sep < -tol) {
          expect(r.intersects).toBe(true);
          expect(rb.intersects).toBe(true);
          expect(r.distance).toBe(0);
          expect(rb.distance).toBe(0);
          expect(Math.abs((r.contact as number) - sep)).toBeLessThanOrEqual(tol);
          expect(Math.abs((rb.contact as number) - sep)).toBeLessThanOrEqual(tol);
        } else if (sep > tol) {
          expect(r.intersects).toBe(false);
          expect(rb.intersects).toBe(false);
          // SAT's separation is a lower bound on the distance.
          expect(r.distance).toBeGreaterThanOrEqual(sep - tol);
          expect(rb.distance).toBeGreaterThanOrEqual(sep - tol);
        }
      }),
      { numRuns: 1000, seed: 23 },
    );
  });
});
