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
import type { ContactJson } from "../support/answers.js";
import { boxMeshJson } from "../support/box-mesh.js";
import { pairTruth, surfaceDistance } from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

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
      const r = answerQuery(line) as ContactJson | null;
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
          const r = answerQuery(line) as ContactJson | null;
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

describe("issue 16, composites: a face contact's depth is the one its witnesses span", () => {
  // A cone of 4–6.5 deep in a closed box mesh of 2.3 × 6.1 × 5.8 (seed 17): the contact on an
  // internal edge is measured along the face normal by a GJK ray cast, which on the cone's rim
  // stopped 8e-6 past the exit — S moved by that depth was apart from the triangle, so
  // (pointB − pointA)·n missed the distance by 7.3e-6 (2.2e-6 relative, bar 1e-6).
  const line = {
    op: "contact",
    a: {
      ...boxMeshJson([1.1442684853699496, 3.0413532996877524, 2.902015763771147], [0, 0, 0]),
      rotation: [0.5052084117934343, 0.3270646725496356, 0.6759633075944538, -0.4252843371311963],
    },
    b: {
      type: "cone",
      center: [1.8290891735415844, -1.099590021389913, 1.4035586540905403],
      halfHeight: 3.893632085810786,
      radius: 6.547050509604037,
      rotation: [
        -0.9376737351933974, 0.07145075177631587, 0.13420863963668703, 0.31249127579171226,
      ],
    },
  };
  it("(pointB − pointA)·n = distance, witnesses on their shapes, depth bracketed by the oracle", () => {
    const r = answerQuery(line) as ContactJson | null;
    expect(r).not.toBeNull();
    if (!r) return;
    const d = r.distance;
    expect(d).toBeLessThan(0);
    expect(Math.abs(dot(sub(r.pointB, r.pointA), r.normal) - d)).toBeLessThanOrEqual(1e-12 * -d);
    expect(surfaceDistance(oshape(line.a), r.pointA)).toBeLessThanOrEqual(1e-12 * -d);
    expect(surfaceDistance(oshape(line.b), r.pointB)).toBeLessThanOrEqual(1e-9 * -d);
    // Independently (the fuzzer's certified bounds): the face triangle through the contact, in
    // the world; the cone moved along n by a hair more than the depth clears it, by a hair less
    // (1e-6 relative) does not. The old depth, 2.8e-6 relative too deep, failed the second.
    const tri = {
      type: "triangle",
      a: rotate(line.a.rotation, line.a.vertices[2] as V),
      b: rotate(line.a.rotation, line.a.vertices[7] as V),
      c: rotate(line.a.rotation, line.a.vertices[6] as V),
    };
    const moved = (f: number) => ({
      ...line.b,
      center: add(line.b.center as V, r.normal.map((x) => x * -d * f) as V),
    });
    expect(pairTruth(oshape(tri), oshape(moved(1 + 1e-7)), [], false).lower).toBeGreaterThan(0);
    expect(pairTruth(oshape(tri), oshape(moved(1 - 1e-6)), [], false).lower).toBeLessThan(0);
  });
});

/** p rotated by the unit quaternion q = [x, y, z, w]. */
function rotate(q: number[], p: V): V {
  const u: V = [q[0], q[1], q[2]];
  const cr = (a: V, b: V): V => [
    a[1] * b[2] - a[2] * b[1],
    a[2] * b[0] - a[0] * b[2],
    a[0] * b[1] - a[1] * b[0],
  ];
  const t = cr(u, p).map((x) => 2 * x) as V;
  return add(add(p, t.map((x) => q[3] * x) as V), cr(u, t));
}

describe("issue 16, composites: ray casts decided on the exact input", () => {
  type RayJson = { toi: number; point: V; normal: V } | null;
  it("a compound of 1e-7 at 3e8: the ray passes 3e-8 beside it (null)", () => {
    const line = {
      op: "raycast",
      shape: {
        type: "compound",
        children: [
          {
            shape: {
              type: "box",
              center: [0, 0, 0],
              halfExtents: [6.050699656387144e-7, 7.874490510381721e-8, 3.435638853218575e-7],
              rotation: [
                0.2251648076500861, -0.4043556412866155, -0.8291252885995462, -0.31360577252389527,
              ],
            },
            position: [2.5929786543725083e-7, 3.198977623035616e-7, 4.6405156717278233e-7],
          },
          {
            shape: { type: "sphere", center: [0, 0, 0], radius: 1.882421859021926e-7 },
            position: [-3.604441203120074e-7, 5.879678934753237e-7, -2.8474434136458094e-7],
            rotation: [
              -0.51380663675204, -0.600083141992258, -0.5115767380617745, -0.33792336971617026,
            ],
          },
          {
            shape: {
              type: "box",
              center: [0, 0, 0],
              halfExtents: [4.6767312202411074e-7, 4.092521080747401e-7, 2.966269703082651e-7],
              rotation: [
                -0.6792082813691204, -0.5011150956372259, -0.2945113399914201, 0.4481326165997719,
              ],
            },
            position: [4.586118887527373e-7, -3.808525394683517e-7, -4.706627977791908e-7],
          },
        ],
        position: [-84295232, 333703936, 56425504],
      },
      origin: [-84295232.00000001, 333703935.9999984, 56425504.000002705],
      direction: [0.00033375604391148333, 0.0007624305920372678, -0.0007851685793196831],
      maxToi: 0.006742971935810862,
      solid: true,
    };
    expect(answerQuery(line)).toBeNull();
  });
  it("a box mesh at 2e5, ray from inside (solid: false): toi of the x face exactly", () => {
    const line = {
      op: "raycast",
      shape: {
        ...boxMeshJson(
          [1004.7069798199537, 1827.8782510318642, 933.104600191347],
          [208825, -119139.4375, 143140.75],
        ),
      },
      origin: [207858.6754936992, -118032.46143236232, 143398.06082967928],
      direction: [-0.0006384457818453082, 0.011862515931701834, 0.0004137152431352625],
      maxToi: 1817707.2686989296,
      solid: false,
    };
    const o = sub(line.origin as V, line.shape.position as V); // exact (Sterbenz)
    const h = line.shape.vertices[7] as V;
    const d = line.direction as V;
    // Leaving through the face x = −h.x (the other slabs are left later).
    const t = (-h[0] - o[0]) / d[0];
    for (const k of [1, 2]) expect((Math.sign(d[k]) * h[k] - o[k]) / d[k]).toBeGreaterThan(t);
    const r = answerQuery(line) as RayJson;
    expect(r).not.toBeNull();
    expect(Math.abs((r as { toi: number }).toi - t)).toBeLessThanOrEqual(1e-12 * t);
  });
  it("a box of 1e-4 at 1e8, ray grazing a corner: toi of the slab entry", () => {
    const line = {
      op: "raycast",
      shape: {
        type: "box",
        center: [-2042492, 35102016, -117435840],
        halfExtents: [9.603917962543309e-5, 0.000107656143164669, 0.0003434952321403921],
        rotation: [
          -0.3071808337495064, -0.7067692874313288, -0.5972732153509343, 0.22222019697841694,
        ],
      },
      origin: [-2042491.999459682, 35102015.999370776, -117435840.00063503],
      direction: [-0.8769805282899152, 0.9413592298858402, 0.7836297166001992],
      maxToi: 0.0009181797893047101,
      solid: false,
    };
    // The box's frame: q⁻¹ (origin − centre), the difference exact (Sterbenz).
    const q = line.shape.rotation;
    const inv = [-q[0], -q[1], -q[2], q[3]];
    const o = rotate(inv, sub(line.origin as V, line.shape.center as V));
    const d = rotate(inv, line.direction as V);
    const h = line.shape.halfExtents as V;
    let t0 = 0;
    let t1 = Number.POSITIVE_INFINITY;
    for (let k = 0; k < 3; k++) {
      const a = (-h[k] - o[k]) / d[k];
      const b = (h[k] - o[k]) / d[k];
      t0 = Math.max(t0, Math.min(a, b));
      t1 = Math.min(t1, Math.max(a, b));
    }
    expect(t0).toBeLessThan(t1);
    const r = answerQuery(line) as RayJson;
    expect(r).not.toBeNull();
    expect(Math.abs((r as { toi: number }).toi - t0)).toBeLessThanOrEqual(1e-9 * t0);
  });
});
