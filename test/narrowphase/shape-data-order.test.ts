/**
 * shapeDataOrder (src/shapes/data-order.ts: each definition's own `dataOrder`) against the
 * generic lookup it replaced (session 45), kept here as the oracle: the fields of a fixed list
 * read by name from any shape, a mesh's or compound's data walked apart, a rounded shape's core
 * then radius. Random same-type pairs of every built-in type, drawn from small pools so that
 * equal leading data (and equal shapes) are common and every later field gets to decide.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shapeDataOrder as canonicalDataOrder } from "../../src/narrowphase/canonical-order.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { shapeDataOrder } from "../../src/shapes/data-order.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeHeightfield } from "../../src/shapes/heightfield.js";
import { makeRoundedConvexPolyhedron, makeRoundedCuboid } from "../../src/shapes/rounded.js";
import { type ConvexShape, type Shape, ShapeType } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { pose, quatOf } from "../support/pose.js";

// ---- The generic lookup of session 44 (src/narrowphase/canonical-order.ts), the oracle. ----

const DATA_FIELDS = [
  "halfExtents",
  "a",
  "b",
  "c",
  "radius",
  "halfHeight",
  "vertices",
  "normal",
  "offset",
  "rows",
  "cols",
  "heights",
  "scale",
];

function oldShapeDataOrder(a: Shape, b: Shape): number {
  if (a.type !== b.type) return 0;
  if (a.type === ShapeType.TriangleMesh || a.type === ShapeType.Compound) {
    return oldCompositeDataOrder(a, b);
  }
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  if (a.type === ShapeType.RoundedCuboid || a.type === ShapeType.RoundedConvexPolyhedron) {
    return (
      oldShapeDataOrder(ra.core as Shape, rb.core as Shape) ||
      numberOrder(ra.radius as number, rb.radius as number)
    );
  }
  for (const key of DATA_FIELDS) {
    const k = valueOrder(ra[key], rb[key]);
    if (k !== 0) return k;
  }
  return 0;
}

function valueOrder(u: unknown, v: unknown): number {
  if (typeof u === "number" && typeof v === "number") return numberOrder(u, v);
  if (ArrayBuffer.isView(u) && ArrayBuffer.isView(v)) {
    return arrayOrder(u as unknown as ArrayLike<number>, v as unknown as ArrayLike<number>);
  }
  if (isVector(u) && isVector(v)) return fieldOrder(u, v);
  return 0;
}

function oldCompositeDataOrder(a: Shape, b: Shape): number {
  if (a.type === ShapeType.TriangleMesh && b.type === ShapeType.TriangleMesh) {
    const ma = a as unknown as { vertices: Float64Array; indices: Uint32Array };
    const mb = b as unknown as { vertices: Float64Array; indices: Uint32Array };
    return arrayOrder(ma.vertices, mb.vertices) || arrayOrder(ma.indices, mb.indices);
  }
  type Child = { shape: Shape; pose: { translation: object; rotation: object } };
  const ca = (a as unknown as { children: Child[] }).children;
  const cb = (b as unknown as { children: Child[] }).children;
  if (ca.length !== cb.length) return ca.length < cb.length ? -1 : 1;
  for (let i = 0; i < ca.length; i++) {
    const p = ca[i];
    const q = cb[i];
    const k =
      numberOrder(p.shape.type, q.shape.type) ||
      fieldOrder(p.pose.translation, q.pose.translation) ||
      fieldOrder(p.pose.rotation, q.pose.rotation) ||
      oldShapeDataOrder(p.shape, q.shape);
    if (k !== 0) return k;
  }
  return 0;
}

function numberOrder(x: number, y: number): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

function arrayOrder(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

function fieldOrder(x: object, y: object): number {
  const rx = x as Record<string, unknown>;
  const ry = y as Record<string, unknown>;
  for (const key in rx) {
    const k = valueOrder(rx[key], ry[key]);
    if (k !== 0) return k;
  }
  return 0;
}

function isVector(u: unknown): u is object {
  return typeof u === "object" && u !== null && typeof (u as { x?: unknown }).x === "number";
}

// ---- Random same-type pairs. ----

/** The numbers a shape's parameters (small integers 0..2) stand for. */
const R = [0.5, 1, 2];
const v = (p: number[], i: number) => ({ x: R[p[i]], y: R[p[i + 1]], z: R[p[i + 2]] });
/** Hulls over a few fixed point sets (one of another vertex count). */
const HULL_POINTS = [
  [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
  [0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1],
  [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1],
];
const NORMALS = [
  { x: 0, y: 1, z: 0 },
  { x: 1, y: 0, z: 0 },
  { x: 0, y: 0, z: 1 },
];
/** A compound's child from 5 parameters: its type, its size, its pose's x, y and turn. */
function child(p: number[], i: number): { shape: ConvexShape; pose: ReturnType<typeof pose> } {
  const r = R[p[i + 1]];
  const shapes = [
    () => makeSphere(r),
    () => makeCuboid({ x: r, y: 1, z: 1 }),
    () => makeCapsule({ x: 0, y: 0, z: 0 }, { x: r, y: 0, z: 0 }, 1),
    () => makeConvexPolyhedron(HULL_POINTS[p[i + 1]]),
    () => makeCylinder(r, 1),
  ];
  const q: [number, number, number, number] = p[i + 4] === 0 ? [0, 1, 0, 1] : [0, 0, 0, 1];
  return { shape: shapes[p[i] % 5](), pose: pose(4 * p[i + 2], p[i + 3], 0, quatOf(q)) };
}

/** Each type: its parameter count and its shape from the parameters. */
const BY_TYPE: [string, number, (p: number[]) => Shape][] = [
  ["sphere", 1, (p) => makeSphere(R[p[0]])],
  ["cuboid", 3, (p) => makeCuboid(v(p, 0))],
  ["capsule", 7, (p) => makeCapsule(v(p, 0), { ...v(p, 3), x: R[p[3]] + 2 }, R[p[6]])],
  ["cylinder", 2, (p) => makeCylinder(R[p[0]], R[p[1]])],
  ["cone", 2, (p) => makeCone(R[p[0]], R[p[1]])],
  ["hull", 1, (p) => makeConvexPolyhedron(HULL_POINTS[p[0]])],
  [
    "triangle",
    9,
    (p) => makeTriangle(v(p, 0), { ...v(p, 3), x: R[p[3]] + 4 }, { ...v(p, 6), y: R[p[7]] + 4 }),
  ],
  [
    "mesh",
    14,
    (p) =>
      makeTriangleMesh(
        [0, 0, 0, 4, 0, 0, 0, 4, 0, ...p.slice(0, p[12] === 0 ? 9 : 12).map((k) => R[k])],
        p[13] === 0 ? [0, 2, 1] : [0, 1, 2],
      ),
  ],
  ["half-space", 2, (p) => makeHalfSpace(NORMALS[p[0]], R[p[1]])],
  ["compound", 16, (p) => makeCompound([0, 5, 10].slice(0, 1 + p[15]).map((i) => child(p, i)))],
  ["rounded cuboid", 4, (p) => makeRoundedCuboid(v(p, 0), R[p[3]] / 4)],
  ["rounded hull", 2, (p) => makeRoundedConvexPolyhedron(HULL_POINTS[p[0]], R[p[1]] / 4)],
  [
    "heightfield",
    14,
    (p) => {
      const [rows, cols] = [2 + (p[0] % 2), 2 + (p[1] % 2)];
      const heights = p.slice(2, 2 + rows * cols);
      return makeHeightfield({ rows, cols, heights, scale: v(p, 11) });
    },
  ],
];

/**
 * Two parameter lists of length n: independent (k = −2), equal (k = −1), or equal but at
 * index k — so that equal shapes and a difference in any one later field are both common.
 */
const paramPair = (n: number) =>
  fc
    .tuple(
      fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }),
      fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }),
      fc.integer({ min: -2, max: n - 1 }),
    )
    .map(([p, q, k]) => [p, k === -2 ? q : p.map((x, i) => (i === k ? q[i] : x))] as const);

describe("shapeDataOrder: each type's own comparison answers as the generic lookup", () => {
  for (const [name, n, build] of BY_TYPE) {
    it(`random pairs of ${name}s (fast-check)`, () => {
      const seen = new Map<number, number>();
      fc.assert(
        fc.property(paramPair(n), ([p, q]) => {
          const a = build(p);
          const b = build(q);
          const want = oldShapeDataOrder(a, b);
          seen.set(want, (seen.get(want) ?? 0) + 1);
          expect(shapeDataOrder(a, b)).toBe(want);
          expect(shapeDataOrder(b, a)).toBe(want === 0 ? 0 : -want);
          expect(canonicalDataOrder(a, b)).toBe(want);
          expect(shapeDataOrder(a, a)).toBe(0);
        }),
        { numRuns: 200, seed: 4545 },
      );
      // Both orders drawn, and equal data in two distinct shapes.
      expect([seen.get(-1), seen.get(1), seen.get(0)].every((n) => (n ?? 0) > 0)).toBe(true);
    });
  }

  it("shapes of two types: 0", () => {
    expect(shapeDataOrder(makeSphere(1), makeCuboid({ x: 1, y: 1, z: 1 }))).toBe(0);
  });
});
