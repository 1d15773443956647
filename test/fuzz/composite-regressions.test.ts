/**
 * Regression inputs of issue 16 found by the differential fuzzer (seed 16, 10^5 queries) on the
 * composite shapes (meshes, compounds): each minimal input as a `collide query` line with its
 * right value derived independently — by hand, by brute force over the triangles or children
 * written here, or through the fuzzer's oracle shapes (test/fuzz/oracle-*.ts) — and fast-check
 * properties over the class (far from the origin, tiny parts, touching).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { boxMeshJson } from "../support/box-mesh.js";
import { surfaceDistance } from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

type ContactJson = { distance: number; normal: V; pointA: V; pointB: V } | null;
type ProjectionJson = { point: V; distance: number; inside: boolean };

const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);

describe("issue 16, composites: contacts whose points run along their normal", () => {
  // A closed box mesh (a surface) wholly inside a box. Each face's contact, measured along the
  // face normal past the diagonal internal edge (face-depth.ts), clears the triangle when the
  // box moves by hb − hm along that face's normal: x faces 0.0109. Opposite faces tie, and the
  // tie rule for touching parts used to give the GJK/EPA edge normal (0, 0.97, −0.23) with the
  // x face's depth and points: (pB − pA)·n = 0 ≠ −0.0109.
  const hm: V = [0.004749131080077561, 0.003056271591741206, 0.012845266623112205];
  const at: V = [2405738, 12346088, -5346924];
  const min: V = [2405737.9843498073, 12346087.993023986, -5346924.012957304];
  const max: V = [2405738.0156501927, 12346088.006976014, -5346923.987042696];
  for (const shift of [false, true]) {
    it(`a box mesh inside a box${shift ? " (at the origin)" : " (at 1e7)"}`, () => {
      const o: V = shift ? at : [0, 0, 0];
      const line = {
        op: "contact",
        a: boxMeshJson(hm, sub(at, o)),
        b: { type: "aabb", min: sub(min, o), max: sub(max, o) },
      };
      const r = answerQuery(line) as ContactJson;
      expect(r).not.toBeNull();
      if (!r) return;
      // Hand-derived: the x faces' depth along ±x, hb.x − hm.x.
      const hbx = (max[0] - min[0]) / 2;
      expect(Math.abs(r.normal[0])).toBe(1);
      expect(Math.abs(-r.distance - (hbx - hm[0]))).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(dot(sub(r.pointB, r.pointA), r.normal) - r.distance)).toBeLessThanOrEqual(
        1e-9 + 8 * 2 ** -52 * norm(r.pointA),
      );
      expect(surfaceDistance(oshape(line.a), sub(r.pointA, [0, 0, 0]))).toBeLessThanOrEqual(
        8 * 2 ** -52 * norm(r.pointA),
      );
    });
  }

  it("property: a box mesh inside a larger box, far from the origin, gives points along its normal", () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.double({ noNaN: true, min: 0.1, max: 1 }),
          fc.double({ noNaN: true, min: 0.1, max: 1 }),
          fc.double({ noNaN: true, min: 0.1, max: 1 }),
        ),
        fc.tuple(
          fc.double({ noNaN: true, min: 1.05, max: 3 }),
          fc.double({ noNaN: true, min: 1.05, max: 3 }),
          fc.double({ noNaN: true, min: 1.05, max: 3 }),
        ),
        fc.double({ noNaN: true, min: -3, max: 3 }),
        fc.integer({ min: 0, max: 9 }),
        fc.tuple(
          fc.double({ noNaN: true, min: -1, max: 1 }),
          fc.double({ noNaN: true, min: -1, max: 1 }),
          fc.double({ noNaN: true, min: -1, max: 1 }),
        ),
        (h, grow, logSize, logFar, dir) => {
          const s = 10 ** logSize;
          const hmesh: V = [h[0] * s, h[1] * s, h[2] * s];
          const hbox: V = [hmesh[0] * grow[0], hmesh[1] * grow[1], hmesh[2] * grow[2]];
          // A centre far away, a whole number so both shapes' coordinates are exact.
          const c: V = [
            Math.round(dir[0] * 10 ** logFar),
            Math.round(dir[1] * 10 ** logFar),
            Math.round(dir[2] * 10 ** logFar),
          ];
          const line = {
            op: "contact",
            a: boxMeshJson(hmesh, c),
            b: { type: "aabb", min: sub(c, hbox), max: add(c, hbox) },
          };
          const r = answerQuery(line) as ContactJson;
          expect(r).not.toBeNull();
          if (!r) return;
          const u = 2 ** -52 * Math.max(norm(c), s);
          expect(Math.abs(dot(sub(r.pointB, r.pointA), r.normal) - r.distance)).toBeLessThanOrEqual(
            1e-9 * s + 64 * u,
          );
          expect(surfaceDistance(oshape(line.a), r.pointA)).toBeLessThanOrEqual(1e-9 * s + 64 * u);
          expect(surfaceDistance(oshape(line.b), r.pointB)).toBeLessThanOrEqual(1e-9 * s + 64 * u);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("issue 16, composites: hollow projectPoint from inside the union", () => {
  // A point inside a box child (0.029 deep) and 0.020 from a sphere child's surface: the sphere's
  // surface point there lies inside the box, not on the union's boundary. The answer is the
  // boundary of the child that holds the point deepest (the fuzzer's oracle: −min signed).
  it("compound of a sphere and a box: the deepest child's boundary", () => {
    const line = {
      op: "projectPoint",
      shape: {
        type: "compound",
        children: [
          { shape: { type: "sphere", center: [0, 0, 0], radius: 0.05 }, position: [0.03, 0, 0] },
          {
            shape: { type: "box", center: [0, 0, 0], halfExtents: [0.06, 0.04, 0.05] },
            position: [0, 0, 0],
          },
        ],
        position: [1e6, 0, 0],
      },
      point: [1e6 - 0.03, 0.005, 0],
      solid: false,
    };
    const r = answerQuery(line) as ProjectionJson;
    // Hand-derived: the box holds the point 0.03 deep in x, 0.035 in y, 0.05 in z → 0.03; the
    // sphere 0.05 − 0.0602 < 0 (outside it) — so the box's −x face at x = −0.06.
    expect(r.inside).toBe(true);
    expect(Math.abs(r.distance - 0.03)).toBeLessThanOrEqual(1e-10);
    expect(Math.abs(r.point[0] - (1e6 - 0.06))).toBeLessThanOrEqual(1e-9);
  });

  it("property: random spheres and boxes; hollow distance from inside = the largest child depth", () => {
    const child = fc.oneof(
      fc.record({
        kind: fc.constant("sphere" as const),
        r: fc.double({ noNaN: true, min: 0.2, max: 1 }),
        at: fc.tuple(
          fc.double({ noNaN: true, min: -0.5, max: 0.5 }),
          fc.double({ noNaN: true, min: -0.5, max: 0.5 }),
          fc.double({ noNaN: true, min: -0.5, max: 0.5 }),
        ),
      }),
      fc.record({
        kind: fc.constant("box" as const),
        h: fc.tuple(
          fc.double({ noNaN: true, min: 0.2, max: 1 }),
          fc.double({ noNaN: true, min: 0.2, max: 1 }),
          fc.double({ noNaN: true, min: 0.2, max: 1 }),
        ),
        at: fc.tuple(
          fc.double({ noNaN: true, min: -0.5, max: 0.5 }),
          fc.double({ noNaN: true, min: -0.5, max: 0.5 }),
          fc.double({ noNaN: true, min: -0.5, max: 0.5 }),
        ),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(child, { minLength: 1, maxLength: 5 }),
        fc.tuple(
          fc.double({ noNaN: true, min: -0.4, max: 0.4 }),
          fc.double({ noNaN: true, min: -0.4, max: 0.4 }),
          fc.double({ noNaN: true, min: -0.4, max: 0.4 }),
        ),
        fc.integer({ min: 0, max: 6 }),
        (kids, p, logFar) => {
          const far = 10 ** logFar;
          const depth = (k: (typeof kids)[number]) => {
            const q = sub(p as V, k.at as V);
            if (k.kind === "sphere") return k.r - norm(q);
            return Math.min(
              k.h[0] - Math.abs(q[0]),
              k.h[1] - Math.abs(q[1]),
              k.h[2] - Math.abs(q[2]),
            );
          };
          const deepest = Math.max(...kids.map(depth));
          fc.pre(deepest > 1e-6);
          const shape = {
            type: "compound",
            children: kids.map((k) => ({
              shape:
                k.kind === "sphere"
                  ? { type: "sphere", center: [0, 0, 0], radius: k.r }
                  : { type: "box", center: [0, 0, 0], halfExtents: k.h },
              position: k.at,
            })),
            position: [far, 0, 0],
          };
          const r = answerQuery({
            op: "projectPoint",
            shape,
            point: add(p as V, [far, 0, 0]),
            solid: false,
          }) as ProjectionJson;
          expect(r.inside).toBe(true);
          expect(Math.abs(r.distance - deepest)).toBeLessThanOrEqual(1e-12 + 4 * 2 ** -52 * far);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("issue 16, composites: one truth at touching", () => {
  // Two small box meshes touching at 1e-6: the part contact is 0, but intersects says apart,
  // so contact (prediction 0) is null; the merged manifold's points 5e-22 apart were kept.
  it("mesh–mesh: manifold null exactly when contact is", () => {
    const m = (h: V, position: V, rotation: number[], faces?: number[][]) => ({
      ...boxMeshJson(h, position),
      ...(faces ? { indices: faces } : {}),
      rotation,
    });
    const a = m(
      [1.0108313744275384e-6, 6.525068657480817e-7, 1.8501163361510536e-6],
      [0, 0, 0],
      [-0.4133537729176074, -0.15782911722861978, -0.3641456235108488, 0.8195282747089991],
      [
        [0, 1, 3],
        [0, 3, 2],
        [0, 4, 5],
        [0, 5, 1],
      ],
    );
    const b = m(
      [1.8269487962777845e-6, 8.442334067740341e-7, 1.7069403828766677e-6],
      [-3.351370613152927e-7, 2.7909699257203262e-6, -1.7031452299903519e-6],
      [-0.5921469594002696, -0.6614886693274411, -0.44606306786797784, 0.11323629413149579],
    );
    for (const [x, y] of [
      [a, b],
      [b, a],
    ]) {
      const hit = (answerQuery({ op: "intersects", a: x, b: y }) as { intersects: boolean })
        .intersects;
      const c = answerQuery({ op: "contact", a: x, b: y });
      const mf = answerQuery({ op: "manifold", a: x, b: y });
      expect(c === null).toBe(!hit);
      expect(mf === null).toBe(c === null);
    }
  });
});
