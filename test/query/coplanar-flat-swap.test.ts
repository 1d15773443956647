/**
 * Swapping A and B flips the answer exactly (docs/FORMATS.md, `contact`: contact(B, A) is
 * contact(A, B) with the normal negated and the points swapped) for flat and degenerate shapes
 * lying in one plane or within a few ulps of it: flat boxes (one half extent 0), line-like boxes
 * (two), triangles, flat hulls (rectangles and polygons), flat rounded boxes, against each other
 * and against the other kinds. Also `intersects` (equal), `distance` (points swapped) and
 * `manifold` (normal negated, the points of each pair swapped).
 *
 * Session 44 (issue 16): two shapes of one type whose relative pose is a half turn about the
 * plane's normal with their offset in the plane — a symmetric half turn, where the relative pose
 * does not order the pair (src/narrowphase/canonical-order.ts, `canonicalOrder` 0) — were each
 * solved in the order given, on poses that differ by rounding: 42 of 2,273 flat box pairs in
 * contact broke the flip (a witness an ulp off, the plane normal or an edge normal, `intersects`
 * true one way and false the other), 14 of 657 triangle pairs, 43 of 3,015 flat hull pairs. The
 * pair is now ordered by the shapes' data, then (equal shapes) by their world poses.
 *
 * Oracle: the answer of the other order, compared number for number (a zero's sign aside).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeRoundedCuboid } from "../../src/shapes/rounded.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { axisAngle, ID } from "../support/pose.js";
import { type Q4, quatMul, rotateVec } from "../support/quat.js";

/** The three coordinates, a zero's sign dropped (x + 0 is +0 for ±0). */
const nums = (v: Vec3): number[] => [v.x + 0, v.y + 0, v.z + 0];
const neg = (v: Vec3): number[] => [0 - v.x, 0 - v.y, 0 - v.z];

/** Asserts that the four queries of (B, A) are those of (A, B) flipped, number for number. */
function expectSwapFlips(A: Shape, pA: Isometry, B: Shape, pB: Isometry): void {
  expect(intersects(B, pB, A, pA), "intersects").toBe(intersects(A, pA, B, pB));
  const c1 = contact(A, pA, B, pB);
  const c2 = contact(B, pB, A, pA);
  expect(c2 === null, "contact null").toBe(c1 === null);
  if (c1 !== null && c2 !== null) {
    expect(c2.distance, "contact distance").toBe(c1.distance);
    expect(nums(c2.normal), "contact normal").toEqual(neg(c1.normal));
    expect(nums(c2.pointA), "contact pointA").toEqual(nums(c1.pointB));
    expect(nums(c2.pointB), "contact pointB").toEqual(nums(c1.pointA));
  }
  const d1 = distance(A, pA, B, pB);
  const d2 = distance(B, pB, A, pA);
  expect(d2.distance, "distance").toBe(d1.distance);
  expect(nums(d2.pointA), "distance pointA").toEqual(nums(d1.pointB));
  expect(nums(d2.pointB), "distance pointB").toEqual(nums(d1.pointA));
  const m1 = manifold(A, pA, B, pB);
  const m2 = manifold(B, pB, A, pA);
  expect(m2 === null, "manifold null").toBe(m1 === null);
  if (m1 !== null && m2 !== null) {
    expect(nums(m2.normal), "manifold normal").toEqual(neg(m1.normal));
    expect(m2.count, "manifold count").toBe(m1.count);
    for (let i = 0; i < m1.count; i++) {
      expect(m2.points[i].distance, "manifold distance").toBe(m1.points[i].distance);
      expect(nums(m2.points[i].pointA), "manifold pointA").toEqual(nums(m1.points[i].pointB));
      expect(nums(m2.points[i].pointB), "manifold pointB").toEqual(nums(m1.points[i].pointA));
    }
  }
}

/** A flat shape in its frame's plane y = 0 (the line-like box along x). */
type Spec =
  | { kind: "box" | "line" | "roundedBox"; a: number; b: number }
  | { kind: "triangle"; p: [Vec3, Vec3, Vec3] }
  | { kind: "hull"; points: Vec3[] };

function build(s: Spec): Shape {
  switch (s.kind) {
    case "box":
      return makeCuboid({ x: s.a, y: 0, z: s.b });
    case "line":
      return makeCuboid({ x: s.a, y: 0, z: 0 });
    case "roundedBox":
      return makeRoundedCuboid({ x: s.a, y: 0, z: s.b }, s.a / 64);
    case "triangle":
      return makeTriangle(s.p[0], s.p[1], s.p[2]);
    case "hull":
      return makeConvexPolyhedron(s.points);
  }
}

const Q = (q: Quat): Q4 => [q.x, q.y, q.z, q.w];
const R = Math.SQRT1_2;

describe("coplanar flat shapes: contact(B, A) is contact(A, B) flipped, exactly", () => {
  // The cases the session-44 scan found, each broken on the old code (the relative pose a
  // symmetric half turn about the plane's normal y, or about a tilted plane's normal).
  const cases: { name: string; A: Spec; B: Spec | "A"; pA: Isometry; pB: Isometry }[] = [
    {
      name: "flat boxes, B a half turn about y: A's witness an ulp apart",
      A: { kind: "box", a: 0.604989022295922, b: 0.621404167311266 },
      B: { kind: "box", a: 1.165755013283342, b: 0.506446639355272 },
      pA: { translation: { x: 0, y: 0, z: 0 }, rotation: ID },
      pB: {
        translation: { x: 1.3845343999564648, y: 0, z: -0.26113712741062045 },
        rotation: { x: 0, y: 1, z: 0, w: 6.123233995736766e-17 },
      },
    },
    {
      name: "flat boxes of 300, A a half turn about y",
      A: { kind: "box", a: 274.0240020972993, b: 171.75611334908336 },
      B: { kind: "box", a: 305.2536518740295, b: 374.58464582999005 },
      pA: {
        translation: { x: 0, y: 0, z: 0 },
        rotation: { x: 0, y: 1, z: 0, w: 6.123233995736766e-17 },
      },
      pB: { translation: { x: -300.4685332022507, y: 0, z: -423.2750259953998 }, rotation: ID },
    },
    {
      name: "flat boxes on a tilted plane: intersects true one way, false the other",
      A: { kind: "box", a: 0.16368463932650054, b: 0.3367348964697793 },
      B: { kind: "box", a: 0.35393246374631016, b: 0.10542860336480782 },
      pA: {
        translation: { x: 0, y: 0, z: 0 },
        rotation: {
          x: 0.014373918024661418,
          y: -0.7204131788478527,
          z: 0.11657719149439638,
          w: -0.6835261521304293,
        },
      },
      pB: {
        translation: { x: -0.26737108721472475, y: 0.009941742005485353, z: -0.1460707169605666 },
        rotation: {
          x: -0.11657719149439638,
          y: -0.6835261521304293,
          z: 0.014373918024661418,
          w: 0.7204131788478527,
        },
      },
    },
    {
      name: "flat boxes in the plane y = x: intersects true one way, false the other",
      A: { kind: "box", a: 4.519425505646787, b: 8.19967548805642 },
      B: { kind: "box", a: 5.576081742808593, b: 9.70332593283783 },
      pA: {
        translation: { x: 0, y: 0, z: 0 },
        rotation: { x: 4.329780281177467e-17, y: R, z: R, w: 4.329780281177467e-17 },
      },
      pB: {
        translation: { x: 2.528372063092498, y: 4.723610537188355, z: 8.881784197001252e-16 },
        rotation: { x: R, y: 0, z: 0, w: R },
      },
    },
    {
      name: "one flat box at two poses (the same shape: ordered by the poses)",
      A: { kind: "box", a: 0.615354156633839, b: 1.0169245037715882 },
      B: "A",
      pA: { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 1, y: 0, z: 0, w: 0 } },
      pB: {
        translation: { x: -0.27910703723318875, y: 0, z: -0.6845754829701036 },
        rotation: { x: 6.123233995736766e-17, y: 0, z: 1, w: 0 },
      },
    },
    {
      name: "triangles, B a half turn about y from A",
      A: {
        kind: "triangle",
        p: [
          { x: -0.10221358854323626, y: 0, z: -0.5133575405925512 },
          { x: -0.5887808939442039, y: 0, z: -0.613149949349463 },
          { x: 0.3107786471955478, y: 0, z: -0.1404418353922665 },
        ],
      },
      B: {
        kind: "triangle",
        p: [
          { x: 0.3868843396194279, y: 0, z: 0.5810207179747522 },
          { x: 0.5191887081600726, y: 0, z: -0.8151291124522686 },
          { x: -0.6104030041024089, y: 0, z: -0.6618812819942832 },
        ],
      },
      pA: {
        translation: { x: 0, y: 0, z: 0 },
        rotation: { x: 0, y: R, z: 0, w: -0.7071067811865475 },
      },
      pB: {
        translation: { x: 1.3771813656203449, y: 0, z: 0.02585926093161106 },
        rotation: { x: 0, y: 0.7071067811865475, z: 0, w: R },
      },
    },
    {
      name: "flat rectangles as hulls on a tilted plane",
      A: {
        kind: "hull",
        points: [1, -1].flatMap((x) =>
          [1, -1].map((z) => ({ x: x * 0.5631944144144654, y: 0, z: z * 1.1232129538431763 })),
        ),
      },
      B: {
        kind: "hull",
        points: [1, -1].flatMap((x) =>
          [1, -1].map((z) => ({ x: x * 0.40906516700051726, y: 0, z: z * 1.0600207364652305 })),
        ),
      },
      pA: {
        translation: { x: 0, y: 0, z: 0 },
        rotation: {
          x: 0.8885481588138098,
          y: 0.32283370089874003,
          z: 0.22650341403964505,
          w: 0.2344286127182359,
        },
      },
      pB: {
        translation: {
          x: -0.023630778145637854,
          y: -0.9721744027051433,
          z: -1.1577342658475567,
        },
        rotation: {
          x: -0.226503414039645,
          y: 0.23442861271823592,
          z: 0.8885481588138098,
          w: -0.32283370089874003,
        },
      },
    },
    {
      name: "one flat rectangle hull at two poses on a tilted plane",
      A: {
        kind: "hull",
        points: [1, -1].flatMap((x) =>
          [1, -1].map((z) => ({ x: x * 0.31137143522500993, y: 0, z: z * 0.8830572825856506 })),
        ),
      },
      B: "A",
      pA: {
        translation: { x: 0, y: 0, z: 0 },
        rotation: {
          x: 0.00030717134177366055,
          y: 0.07750401815593742,
          z: 0.1032835397440036,
          w: 0.9916277241149521,
        },
      },
      pB: {
        translation: { x: -0.3839904882716032, y: -0.06643573779138505, z: -0.8194910108112956 },
        rotation: {
          x: -0.1032835397440036,
          y: 0.9916277241149521,
          z: 0.0003071713417736669,
          w: -0.07750401815593737,
        },
      },
    },
    {
      name: "flat rounded boxes, B a half turn about y",
      A: { kind: "roundedBox", a: 0.604989022295922, b: 0.621404167311266 },
      B: { kind: "roundedBox", a: 1.165755013283342, b: 0.506446639355272 },
      pA: { translation: { x: 0, y: 0, z: 0 }, rotation: ID },
      pB: {
        translation: { x: 1.3845343999564648, y: 0, z: -0.26113712741062045 },
        rotation: { x: 0, y: 1, z: 0, w: 6.123233995736766e-17 },
      },
    },
  ];
  for (const k of cases) {
    it(`regression: ${k.name}`, () => {
      const A = build(k.A);
      const B = k.B === "A" ? A : build(k.B);
      expect(contact(A, k.pA, B, k.pB)).not.toBeNull();
      expectSwapFlips(A, k.pA, B, k.pB);
    });
  }

  const unit = fc.double({ min: 0.2, max: 1.2, noNaN: true });
  const signed = fc.double({ min: -1, max: 1, noNaN: true });
  const point = fc.tuple(signed, signed).map(([x, z]) => ({ x, y: 0, z }));
  const spec = (kind: string): fc.Arbitrary<Spec> => {
    switch (kind) {
      case "box":
      case "line":
      case "roundedBox":
        return fc.tuple(unit, unit).map(([a, b]) => ({ kind, a, b }) as Spec);
      case "triangle":
        return fc.tuple(point, point, point).map((p) => ({ kind: "triangle", p }) as Spec);
      case "rectangle":
        return fc.tuple(unit, unit).map(([a, b]) => ({
          kind: "hull",
          points: [1, -1].flatMap((x) => [1, -1].map((z) => ({ x: x * a, y: 0, z: z * b }))),
        }));
      default:
        // A convex polygon: n points on an ellipse, each at a jittered angle of its own sector.
        return fc
          .tuple(
            unit,
            unit,
            fc.array(fc.double({ min: 0, max: 0.5, noNaN: true }), { minLength: 3, maxLength: 7 }),
          )
          .map(([a, b, jit]) => ({
            kind: "hull",
            points: jit.map((j, i) => {
              const t = (2 * Math.PI * (i + j)) / jit.length;
              return { x: a * Math.cos(t), y: 0, z: b * Math.sin(t) };
            }),
          }));
    }
  };
  const KINDS = ["box", "line", "roundedBox", "triangle", "rectangle", "polygon"];
  const kindPair = fc.oneof(
    fc.constantFrom(...KINDS).map((k) => [k, k] as const),
    fc.tuple(fc.constantFrom(...KINDS), fc.constantFrom(...KINDS)),
  );
  /** The plane's rotation (its normal the image of y): none, a quarter turn or any. */
  const plane = fc.oneof(
    fc.constant(ID),
    fc.constantFrom<Quat>(
      { x: R, y: 0, z: 0, w: R },
      { x: 0, y: 0, z: R, w: R },
      { x: 1, y: 0, z: 0, w: 0 },
    ),
    fc
      .tuple(signed, signed, signed, fc.double({ min: 0, max: 6.28, noNaN: true }))
      .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1)
      .map(([x, y, z, t]) => axisAngle(x, y, z, t)),
  );
  /** In-plane angles: quarter turns (B often a half turn from A) or any. */
  const angle = fc.oneof(
    fc.constantFrom(0, Math.PI / 2, Math.PI, (3 * Math.PI) / 2),
    fc.double({ min: 0, max: 6.28, noNaN: true }),
  );
  const turn = fc.oneof(fc.constant(Math.PI), fc.constant(0), angle);

  it("property: random coplanar and near-coplanar flat pairs, sizes 1e-3..1e3, far placements, both orders flip (fast-check)", () => {
    fc.assert(
      fc.property(
        kindPair.chain(([ka, kb]) =>
          fc.tuple(spec(ka), spec(kb), ka === kb ? fc.boolean() : fc.constant(false)),
        ),
        fc.constantFrom(1, 1, 1e-3, 1e3, 0.37),
        plane,
        angle,
        turn,
        fc.tuple(
          fc.double({ min: -1.5, max: 1.5, noNaN: true }),
          fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        ),
        fc.constantFrom(0, 0, 0, 1, -1, 4, -16),
        fc.oneof(
          fc.constant<[number, number, number]>([0, 0, 0]),
          fc
            .tuple(signed, signed, signed, fc.integer({ min: 0, max: 9 }))
            .map(
              ([x, y, z, e]) => [x * 10 ** e, y * 10 ** e, z * 10 ** e] as [number, number, number],
            ),
        ),
        ([sa, sb, same], s, q, angA, dAng, [u, v], ulps, base) => {
          const scaled = (p: Spec): Spec =>
            p.kind === "triangle"
              ? {
                  kind: p.kind,
                  p: p.p.map((c) => ({ x: c.x * s, y: 0, z: c.z * s })) as [Vec3, Vec3, Vec3],
                }
              : p.kind === "hull"
                ? { kind: p.kind, points: p.points.map((c) => ({ x: c.x * s, y: 0, z: c.z * s })) }
                : { kind: p.kind, a: p.a * s, b: p.b * s };
          const A = build(scaled(sa));
          const B = same ? A : build(scaled(sb));
          const pq = Q(q);
          const qA = quatMul(pq, Q(axisAngle(0, 1, 0, angA)));
          const qB = quatMul(pq, Q(axisAngle(0, 1, 0, angA + dAng)));
          // B's offset in the plane, lifted off it by a few ulps of the size (near-coplanar).
          const off = rotateVec(pq, [u * s, ulps * Number.EPSILON * s, v * s]);
          const pA: Isometry = {
            translation: { x: base[0], y: base[1], z: base[2] },
            rotation: { x: qA[0], y: qA[1], z: qA[2], w: qA[3] },
          };
          const pB: Isometry = {
            translation: { x: base[0] + off[0], y: base[1] + off[1], z: base[2] + off[2] },
            rotation: { x: qB[0], y: qB[1], z: qB[2], w: qB[3] },
          };
          // One shape at one pose twice: both orders are one input, answered alike (FORMATS.md).
          const samePose =
            pA.translation.x === pB.translation.x &&
            pA.translation.y === pB.translation.y &&
            pA.translation.z === pB.translation.z &&
            qA.every((x, i) => x === qB[i]);
          fc.pre(!(samePose && (B === A || JSON.stringify(sa) === JSON.stringify(sb))));
          expectSwapFlips(A, pA, B, pB);
        },
      ),
      { numRuns: 600 },
    );
  });
});
