/**
 * Whose surface a compound's witness points lie on (issue 16, a fresh user's attack: a manifold
 * point on a cone child's surface lay 0.04 inside the compound's box child). The library's rule,
 * as parry's, Jolt's and Box2D's per-child contact manifolds: a composite's `contact` and
 * `manifold` are its deepest part's, so a compound's witness points lie on the surface of the
 * child they come from — which may lie inside another child — and the manifold's deepest point
 * is the contact (docs/FORMATS.md, "Accuracy"; src/narrowphase/composite.ts).
 *
 * Oracles, independent of the library: a hand-derived box against a compound of a cube and a
 * plate through it; and for random boxes against random compounds of boxes and spheres (nested,
 * thin plates and long bars, scales 1e-6..1e6, offsets to 1e9), each child's world pose composed
 * here from the JSON, a box's signed distance from its centre and axes, and the pair's depth by
 * the separating-axis theorem over the 15 axes of two boxes (exact for boxes: the least
 * overlap), or for a sphere its radius less its centre's signed distance to the box.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import {
  add,
  cross,
  dot,
  norm,
  quatMatrix,
  scale,
  sub,
  unit,
  type V,
} from "../fuzz/oracle-shapes.js";

interface Point {
  pointA: V;
  pointB: V;
  distance: number;
}
interface Manifold {
  normal: V;
  points: Point[];
}
interface ContactAnswer {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
}

/**
 * A box in the world frame: centre, unit axes (columns of its rotation) and half extents, or a
 * sphere: a box of no extent with radius `r` (0 for a box).
 */
interface WBox {
  c: V;
  axes: [V, V, V];
  h: V;
  r: number;
}

/** A rigid pose: x ↦ R·x + t (R a row-major 3×3). */
interface Pose {
  r: number[][];
  t: V;
}

const mulMV = (m: number[][], v: V): V => [
  m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
  m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
  m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
];
function mulMM(a: number[][], b: number[][]): number[][] {
  return [0, 1, 2].map((i) =>
    [0, 1, 2].map((j) => a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j]),
  );
}
/** parent ∘ child. */
const compose = (p: Pose, c: Pose): Pose => ({ r: mulMM(p.r, c.r), t: add(mulMV(p.r, c.t), p.t) });
const poseOf = (position: V | undefined, rotation: number[] | undefined): Pose => ({
  r: quatMatrix(rotation),
  t: position ?? [0, 0, 0],
});

type J = Record<string, unknown>;

/** The world boxes and spheres of a JSON box, sphere or compound (nested compounds flattened). */
function worldBoxes(j: J, parent: Pose): WBox[] {
  if (j.type === "sphere") {
    const c = add(mulMV(parent.r, j.center as V), parent.t);
    return [
      {
        c,
        axes: [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        h: [0, 0, 0],
        r: j.radius as number,
      },
    ];
  }
  if (j.type === "box") {
    const p = compose(parent, poseOf(undefined, j.rotation as number[] | undefined));
    const axes: [V, V, V] = [0, 1, 2].map((k) => [p.r[0][k], p.r[1][k], p.r[2][k]] as V) as [
      V,
      V,
      V,
    ];
    const c = add(mulMV(parent.r, j.center as V), parent.t);
    return [{ c, axes, h: j.halfExtents as V, r: 0 }];
  }
  const p = compose(
    parent,
    poseOf(j.position as V | undefined, j.rotation as number[] | undefined),
  );
  const out: WBox[] = [];
  for (const ch of j.children as J[])
    out.push(
      ...worldBoxes(
        ch.shape as J,
        compose(p, poseOf(ch.position as V | undefined, ch.rotation as number[] | undefined)),
      ),
    );
  return out;
}

const IDENTITY: Pose = { r: quatMatrix(undefined), t: [0, 0, 0] };

/** Signed distance of p to a solid box or sphere (> 0 outside). */
function boxSigned(b: WBox, p: V): number {
  const d = sub(p, b.c);
  if (b.r > 0) return norm(d) - b.r;
  const q = [0, 1, 2].map((k) => Math.abs(dot(d, b.axes[k])) - b.h[k]);
  const outside = Math.hypot(Math.max(q[0], 0), Math.max(q[1], 0), Math.max(q[2], 0));
  return outside > 0 ? outside : Math.max(q[0], q[1], q[2]);
}

/** Support value h(u) = max over the box of x·u. */
const boxSupport = (b: WBox, u: V): number =>
  dot(b.c, u) +
  b.h[0] * Math.abs(dot(b.axes[0], u)) +
  b.h[1] * Math.abs(dot(b.axes[1], u)) +
  b.h[2] * Math.abs(dot(b.axes[2], u)) +
  b.r;

/** Overlap of A and B along unit n (from A toward B): h_A(n) + h_B(−n). */
const overlapAlong = (a: WBox, b: WBox, n: V): number =>
  boxSupport(a, n) + boxSupport(b, scale(n, -1));

/**
 * Penetration depth of box A and B (≤ 0: apart): for two boxes by SAT, the least overlap over the
 * 15 axes; for a sphere B its radius less the signed distance of its centre to A (the least
 * translation of a ball out of a convex set is along the centre's nearest boundary direction).
 */
function satDepth(a: WBox, b: WBox): number {
  if (b.r > 0) return b.r - boxSigned(a, b.c);
  const axes: V[] = [...a.axes, ...b.axes];
  for (const x of a.axes)
    for (const y of b.axes) if (norm(cross(x, y)) > 1e-9) axes.push(unit(cross(x, y)));
  let m = Infinity;
  for (const u of axes) m = Math.min(m, overlapAlong(a, b, u), overlapAlong(a, b, scale(u, -1)));
  return m;
}

function query<T>(op: string, a: J, b: J): T {
  return answerQuery({ op, a, b }) as T;
}

describe("a compound's witness points lie on the surface of the child they come from", () => {
  it("hand-derived: a cube's manifold against a box, two of its corners inside a plate through it", () => {
    // A: the box [-1, 1] × [-2, 0] × [-1, 1]. Child 1: the cube [0.7, 1.7] × [-1, 0] × [-0.5, 0.5],
    // 0.3 into A's face x = 1 (and 1 below its top y = 0, 0.5 inside its sides z = ±1): depth 0.3
    // along +x. Child 2: the plate [-2, 2] × [-0.02, 0.08] × [-2, 2], 0.02 into A's top. The deepest
    // child is the cube; its manifold is its face x = 0.7, wholly inside A's face x = 1: the four
    // corners (0.7, {-1, 0}, ±0.5), each 0.3 deep. The two at y = 0 lie inside the plate, 0.02
    // from its bottom face.
    const A = { type: "box", center: [0, -1, 0], halfExtents: [1, 1, 1] };
    const B = {
      type: "compound",
      children: [
        {
          position: [1.2, -0.5, 0],
          shape: { type: "box", center: [0, 0, 0], halfExtents: [0.5, 0.5, 0.5] },
        },
        { shape: { type: "box", center: [0, 0.03, 0], halfExtents: [2, 0.05, 2] } },
      ],
    };
    const m = query<Manifold>("manifold", A, B);
    const c = query<ContactAnswer>("contact", A, B);
    expect(m.normal).toEqual([1, 0, 0]);
    expect(m.points).toHaveLength(4);
    const got = m.points.map((p) => [p.pointB[1], p.pointB[2]].join(",")).sort();
    expect(got).toEqual(["-1,-0.5", "-1,0.5", "0,-0.5", "0,0.5"]);
    const plate = worldBoxes(B, IDENTITY)[1];
    for (const p of m.points) {
      expect(p.pointA[0]).toBe(1);
      expect(p.pointB[0]).toBeCloseTo(0.7, 15);
      expect(p.distance).toBeCloseTo(-0.3, 15);
      // Inside the plate by 0.02 exactly when on the cube's top edge.
      if (p.pointB[1] === 0) expect(boxSigned(plate, p.pointB)).toBeCloseTo(-0.02, 15);
    }
    expect(c.distance).toBeCloseTo(-0.3, 15);
    expect(Math.min(...m.points.map((p) => p.distance))).toBe(c.distance);
  });

  it("the attack's compound: the manifold point inside the box child lies on the cone child", () => {
    // The reported line: the cone (the nested child at x = 2) is the deepest child (0.378 along +x);
    // its manifold's second point lies 0.04 inside the bar-shaped box child. Both points lie on the
    // cone's surface (its axis along the child's y, radius 0.3 at the base y = -1, apex y = 1).
    const A = {
      type: "aabb",
      min: [-0.14093113138383773, -0.6295251681606868, -0.4295012766632723],
      max: [1, 1, 1],
    };
    const pos: V = [-1.0781300043818214, -0.13098364527383055, 1.0578738827295013];
    const rot = [0.6, 0, 0, 0.8];
    const B = {
      type: "compound",
      position: pos,
      rotation: rot,
      children: [
        { shape: { type: "box", center: [0, 0, 0], halfExtents: [30, 0.1, 0.1] } },
        {
          position: [2, 0, 0],
          shape: {
            type: "compound",
            children: [{ shape: { type: "cone", center: [0, 0, 0], halfHeight: 1, radius: 0.3 } }],
          },
        },
      ],
    };
    const m = query<Manifold>("manifold", A, B);
    const c = query<ContactAnswer>("contact", A, B);
    const bar = worldBoxes(B.children[0].shape as J, poseOf(pos, rot))[0];
    const r = quatMatrix(rot);
    const coneSigned = (p: V): number => {
      // Cone's frame: its centre at the compound's (2, 0, 0); R's transpose takes world to local.
      const d = sub(p, add(mulMV(r, [2, 0, 0]), pos));
      const l: V = [0, 1, 2].map((k) => r[0][k] * d[0] + r[1][k] * d[1] + r[2][k] * d[2]) as V;
      const radial = Math.hypot(l[0], l[2]);
      // The side's outward normal in the (radial, y) plane: (2, 0.3)/|(2, 0.3)| (slope 0.3 over 2).
      const side = (2 * radial + 0.3 * (l[1] - 1)) / Math.hypot(2, 0.3);
      return Math.max(side, -1 - l[1]); // exact on the surface and inside (enough for on-surface)
    };
    let inside = 0;
    for (const p of m.points) {
      expect(Math.abs(coneSigned(p.pointB))).toBeLessThan(1e-12);
      if (boxSigned(bar, p.pointB) < -1e-3) inside++;
    }
    expect(inside).toBe(1);
    expect(Math.min(...m.points.map((p) => p.distance))).toBeCloseTo(c.distance, 12);
    expect(c.distance).toBeCloseTo(-0.37813000438182137, 12);
  });

  const q = fc
    .tuple(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
    )
    .filter((t) => Math.hypot(...t) > 1e-2)
    .map((t) => {
      const l = Math.hypot(...t);
      return t.map((x) => x / l);
    });
  const v = (lo: number, hi: number) =>
    fc.tuple(
      fc.double({ min: lo, max: hi, noNaN: true }),
      fc.double({ min: lo, max: hi, noNaN: true }),
      fc.double({ min: lo, max: hi, noNaN: true }),
    ) as fc.Arbitrary<V>;
  // Half extents: cubes, plates and bars (one to three sides thin or long).
  const extents = fc.tuple(
    fc.constantFrom(0.02, 0.1, 0.5, 1, 3),
    fc.constantFrom(0.02, 0.1, 0.5, 1, 3),
    fc.constantFrom(0.02, 0.1, 0.5, 1, 3),
  ) as fc.Arbitrary<V>;
  const child = fc.record({
    position: v(-1, 1),
    rotation: q,
    h: extents,
    sphere: fc.constantFrom(false, false, true),
    nested: fc.boolean(),
    np: v(-1, 1),
    nq: q,
  });

  it("property: every point on A's surface and on one child's (box, sphere), that child the deepest (SAT), the deepest point the contact", () => {
    // Coverage: pairs in contact, and points lying strictly inside another child.
    let touching = 0;
    let insideSibling = 0;
    fc.assert(
      fc.property(
        fc.record({
          s: fc.constantFrom(1e-6, 1e-3, 1, 1e3, 1e6),
          off: fc.constantFrom(0, 1, 1e3, 1e6, 1e9),
          offDir: v(-1, 1),
          aCenter: v(-1, 1),
          aRot: q,
          aH: extents,
          bPos: v(-1, 1),
          bRot: q,
          children: fc.array(child, { minLength: 2, maxLength: 3 }),
        }),
        (g) => {
          const { s } = g;
          const o = scale(g.offDir, g.off);
          const at = (p: V): V => add(scale(p, s), o);
          const A = {
            type: "box",
            center: at(g.aCenter),
            halfExtents: scale(g.aH, s),
            rotation: g.aRot,
          };
          const B = {
            type: "compound",
            position: at(g.bPos),
            rotation: g.bRot,
            children: g.children.map((c) => {
              const box = c.sphere
                ? { type: "sphere", center: [0, 0, 0], radius: c.h[0] * s }
                : { type: "box", center: [0, 0, 0], halfExtents: scale(c.h, s) };
              return c.nested
                ? {
                    position: scale(c.np, s),
                    rotation: c.nq,
                    shape: {
                      type: "compound",
                      children: [
                        { position: scale(c.position, s), rotation: c.rotation, shape: box },
                      ],
                    },
                  }
                : { position: scale(c.position, s), rotation: c.rotation, shape: box };
            }),
          };
          const m = query<Manifold | null>("manifold", A, B);
          const c = query<ContactAnswer | null>("contact", A, B);
          expect(m === null).toBe(c === null);
          if (m === null || c === null) return;
          touching++;
          const a = worldBoxes(A, IDENTITY)[0];
          const kids = worldBoxes(B, IDENTITY);
          const depths = kids.map((k) => satDepth(a, k));
          const deepest = Math.max(...depths);
          // Bars: the queries' rounding at the pair's extent and offset, well below the features.
          const L = 8 * s + g.off;
          const tol = 1e-9 * s + 256 * Number.EPSILON * L;
          const n = m.normal;
          // One child holds every pointB on its surface (the child the manifold comes from).
          const holders = kids.filter((k) =>
            m.points.every((p) => Math.abs(boxSigned(k, p.pointB)) <= tol),
          );
          expect(holders.length).toBeGreaterThan(0);
          for (const p of m.points) {
            expect(Math.abs(boxSigned(a, p.pointA))).toBeLessThanOrEqual(tol);
            expect(Math.abs(dot(sub(p.pointB, p.pointA), n) - p.distance)).toBeLessThanOrEqual(tol);
            // A point's depth is at most its child's overlap along the normal.
            expect(Math.max(...holders.map((k) => overlapAlong(a, k, n)))).toBeGreaterThanOrEqual(
              -p.distance - tol,
            );
            if (kids.some((k) => boxSigned(k, p.pointB) < -1e-3 * s)) insideSibling++;
          }
          // The deepest point is the contact, and the contact is the deepest child's (SAT) depth.
          const dmin = Math.min(...m.points.map((p) => p.distance));
          const depthBar = 1e-6 * Math.abs(c.distance) + tol;
          expect(Math.abs(dmin - c.distance)).toBeLessThanOrEqual(depthBar);
          if (deepest > tol) {
            expect(Math.abs(-c.distance - deepest)).toBeLessThanOrEqual(depthBar);
            // The contact's pointB lies on a child's surface too (maybe inside another).
            expect(
              Math.min(...kids.map((k) => Math.abs(boxSigned(k, c.pointB)))),
            ).toBeLessThanOrEqual(tol);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(touching).toBeGreaterThan(100);
    expect(insideSibling).toBeGreaterThan(20);
  });
});
