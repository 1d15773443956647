/**
 * 2D ray casts from far away and point projections far away or on tiny shapes (issue 16, the
 * session-39 fresh-user attack, findings 2 and 5). Hand-derived values for every repro line, then
 * properties against exact oracles: the ray's closest approach to the shape's frame origin in
 * exact rationals (BigInt), the hit solved from there at the shape's own scale; the closest point
 * by brute-force projection on every feature (edges and vertices, written from the definitions).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as pose2 from "../../src/dim2/pose2.js";
import { projectPoint2D } from "../../src/dim2/project-point2.js";
import { castRay2D } from "../../src/dim2/raycast2.js";
import {
  capsuleAt,
  circleAt,
  makeCapsule,
  makeCircle,
  makePolygon,
  makeRect,
  orientedRect,
  polygonAt,
  rectFromMinMax,
  type Shape2,
  ShapeType2,
  segmentAt,
} from "../../src/dim2/shapes.js";
import { CollisionWorld2D } from "../../src/dim2/world2.js";
import { big, distToShape, unbig } from "./oracle.js";

const unitCircle = circleAt({ x: 0, y: 0 }, 1);
const square = rectFromMinMax({ x: -1, y: -1 }, { x: 1, y: 1 });
const tri = polygonAt([
  { x: -1, y: -1 },
  { x: 1, y: -1 },
  { x: 0, y: 1 },
]);
const cap = capsuleAt({ x: 0, y: -1 }, { x: 0, y: 1 }, 1);

function ray(
  s: { shape: Shape2; pose: pose2.Pose2 },
  o: [number, number],
  d: [number, number],
  maxToi = Infinity,
) {
  return castRay2D(s.shape, s.pose, { x: o[0], y: o[1] }, { x: d[0], y: d[1] }, maxToi);
}

describe("2D ray casts from far away (hand-derived)", () => {
  it("a unit circle from (−D, 0) along +x: point (−1, 0), normal (−1, 0), toi (D − 1)/|d|", () => {
    for (const D of [1e9, 1e12, 1e15, 1e16, 3e16, 1e17, 1e18, 1e20, 1e25, 1e100]) {
      for (const dl of [1e-3, 1, 1e3]) {
        const h = ray(unitCircle, [-D, 0], [dl, 0]);
        expect(h, `D ${D} |d| ${dl}`).not.toBeNull();
        expect(h?.point).toEqual({ x: -1, y: 0 });
        expect(h?.normal).toEqual({ x: -1, y: 0 });
        // (D − 1)/|d| to a few ulps (D − 1 rounds to D above 2^53).
        expect(Math.abs((h?.toi ?? 0) - (D - 1) / dl)).toBeLessThanOrEqual(4e-16 * (D / dl));
      }
    }
  });

  it("a rectangle, a triangle, a capsule and a diagonal ray from 1e16", () => {
    const r = ray(square, [-1e16, 0.5], [1, 0]);
    expect(r?.point).toEqual({ x: -1, y: 0.5 });
    expect(r?.normal).toEqual({ x: -1, y: 0 });
    // The triangle's left edge (−1,−1)–(0,1) meets y = 0 at x = −1/2; normal (−2, 1)/√5.
    const p = ray(tri, [-1e16, 0], [1, 0]);
    expect(p?.point.x).toBeCloseTo(-0.5, 15);
    expect(p?.point.y).toBe(0);
    expect(p?.normal.x).toBeCloseTo(-2 / Math.sqrt(5), 15);
    expect(p?.normal.y).toBeCloseTo(1 / Math.sqrt(5), 15);
    const c = ray(cap, [-1e16, 0], [1, 0]);
    expect(c?.point).toEqual({ x: -1, y: 0 });
    expect(c?.normal).toEqual({ x: -1, y: 0 });
    // Diagonal through the centre: the point (−1, −1)/√2.
    const g = ray(unitCircle, [-1e16, -1e16], [1, 1]);
    expect(g?.point.x).toBeCloseTo(-Math.SQRT1_2, 15);
    expect(g?.point.y).toBeCloseTo(-Math.SQRT1_2, 15);
    expect(g?.normal.x).toBeCloseTo(-Math.SQRT1_2, 15);
    expect(Math.abs((g?.toi ?? 0) - (1e16 - Math.SQRT1_2))).toBeLessThanOrEqual(4);
  });

  it("a circle at 1e8 from the origin: the point 1e8 − 1 exactly", () => {
    const h = ray(circleAt({ x: 1e8, y: 0 }, 1), [0, 0], [1, 0]);
    expect(h?.point).toEqual({ x: 99999999, y: 0 });
    expect(h?.toi).toBe(99999999);
  });

  it("a circle of radius 1e-200 from distance 1: point (−1e-200, 0), normal (−1, 0)", () => {
    const h = ray(circleAt({ x: 0, y: 0 }, 1e-200), [-1, 0], [1, 0]);
    expect(h?.point).toEqual({ x: -1e-200, y: 0 });
    expect(h?.normal).toEqual({ x: -1, y: 0 });
    expect(h?.toi).toBe(1);
  });

  it("extreme direction lengths keep their answers (repros ray2-dir)", () => {
    expect(ray(unitCircle, [-5, 0], [1e-300, 0])?.point).toEqual({ x: -1, y: 0 });
    expect(ray(unitCircle, [-5, 0], [1e300, 0])?.toi).toBe(4e-300);
    expect(ray(square, [-5, -5], [1e200, 1e200])?.point).toEqual({ x: -1, y: -1 });
    expect(ray(tri, [0, -5], [0, 1e-200])?.point).toEqual({ x: 0, y: -1 });
    expect(ray(cap, [-5, 0.5], [1e-200, 0])?.point).toEqual({ x: -1, y: 0.5 });
    const seg = segmentAt({ x: 0, y: -1 }, { x: 0, y: 1 });
    expect(ray(seg, [-5, 0.5], [1e-200, 0])?.point).toEqual({ x: 0, y: 0.5 });
  });

  it("CollisionWorld2D.castRay from far away", () => {
    const w = new CollisionWorld2D();
    w.addBody({ shape: makeCircle(1), pose: pose2.fromAngle(0, 0, 0) });
    const a = w.castRay({ x: -1e16, y: 0 }, { x: 1, y: 0 });
    expect(a?.point).toEqual({ x: -1, y: 0 });
    expect(a?.normal).toEqual({ x: -1, y: 0 });
    const b = w.castRay({ x: -1e20, y: 0 }, { x: 1e-3, y: 0 });
    expect(b?.point).toEqual({ x: -1, y: 0 });
    expect(b?.toi).toBeCloseTo(1e23, -8);
  });

  it("a point shape (zero-length segment) from afar is hit at its point", () => {
    const pt = segmentAt({ x: 0, y: 0 }, { x: 0, y: 0 });
    const h = ray(pt, [-4.99999999999999, 0], [1, 0], 20);
    expect(h?.toi).toBe(4.99999999999999);
    expect(h?.point).toEqual({ x: 0, y: 0 });
  });
});

describe("2D projectPoint far away and on tiny shapes (hand-derived)", () => {
  const pp = (s: { shape: Shape2; pose: pose2.Pose2 }, x: number, y: number) =>
    projectPoint2D(s.shape, s.pose, { x, y });
  it("rectangle [−1,1]² from (−D, 0.5): (−1, 0.5)", () => {
    for (let e = 2; e <= 20; e++)
      expect(pp(square, -(10 ** e), 0.5).point).toEqual({ x: -1, y: 0.5 });
    const o = orientedRect({ x: 0, y: 0 }, { x: 1, y: 1 }, 0);
    expect(pp(o, -1e20, 0.5).point).toEqual({ x: -1, y: 0.5 });
  });
  it("triangle from (0.3, −D) and (0, −1e200): the bottom edge's foot", () => {
    for (const D of [1e2, 1e5, 1e8, 1e11, 1e14])
      expect(pp(tri, 0.3, -D).point).toEqual({ x: 0.3, y: -1 });
    expect(pp(tri, 0, -1e200).point).toEqual({ x: 0, y: -1 });
  });
  it("capsule from (1e300, 1e300): the top cap at (1, 1)/√2 + (0, 1)", () => {
    const q = pp(cap, 1e300, 1e300).point;
    expect(q.x).toBeCloseTo(Math.SQRT1_2, 15);
    expect(q.y).toBeCloseTo(1 + Math.SQRT1_2, 15);
  });
  it("tiny shapes from 1 away: the near face's foot, not a corner", () => {
    const r = rectFromMinMax({ x: -1e-200, y: -1e-200 }, { x: 1e-200, y: 1e-200 });
    expect(pp(r, 1, 0.5e-200).point).toEqual({ x: 1e-200, y: 0.5e-200 });
    const r8 = rectFromMinMax({ x: -1e-8, y: -1e-8 }, { x: 1e-8, y: 1e-8 });
    expect(pp(r8, 1, 0.5e-8).point).toEqual({ x: 1e-8, y: 0.5e-8 });
    const t = polygonAt([
      { x: -1e-200, y: -1e-200 },
      { x: 1e-200, y: -1e-200 },
      { x: 0, y: 1e-200 },
    ]);
    expect(pp(t, 0, -1).point).toEqual({ x: 0, y: -1e-200 });
    expect(pp(circleAt({ x: 0, y: 0 }, 1e-200), 1, 0).point).toEqual({ x: 1e-200, y: 0 });
  });
});

// ---------------------------------------------------------------------------------------------
// Exact oracle for far rays.

/** Log-uniform magnitude 10^[lo, hi]. */
const mag = (lo: number, hi: number) =>
  fc.double({ min: lo, max: hi, noNaN: true }).map((e) => 10 ** e);

/** A shape of size s (circle, rect, convex polygon, capsule) in its frame. */
const sizedShape = (s: number) =>
  fc.oneof(
    fc.double({ min: 0.3, max: 1, noNaN: true }).map((r) => makeCircle(r * s)),
    fc
      .tuple(
        fc.double({ min: 0.2, max: 1, noNaN: true }),
        fc.double({ min: 0.2, max: 1, noNaN: true }),
      )
      .map(([a, b]) => makeRect({ x: a * s, y: b * s })),
    fc.double({ min: 0, max: 1, noNaN: true }).map((j) =>
      makePolygon([
        { x: -s, y: -0.8 * s },
        { x: s, y: -s },
        { x: (0.8 * j - 0.4) * s, y: s },
      ]),
    ),
    fc
      .tuple(
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
      )
      .map(([h, r]) => makeCapsule({ x: -h * s, y: 0 }, { x: h * s, y: 0 }, r * s)),
  );

/** Largest distance of the shape's points from its frame origin (an upper bound). */
function boundR(shape: Shape2): number {
  let m = 0;
  const v = shape.core.verts;
  for (let i = 0; i < shape.core.count; i++) m = Math.max(m, Math.hypot(v[2 * i], v[2 * i + 1]));
  return m + shape.core.radius;
}

/**
 * The exact point of the line o + t·d closest to c, and its parameter: t* = (c − o)·d / d·d in
 * exact rationals (BigInt at 2^1100), the point rounded once to doubles.
 */
function closestApproach(o: [number, number], d: [number, number], c: [number, number]) {
  const [ox, oy, dx, dy, cx, cy] = [
    big(o[0]),
    big(o[1]),
    big(d[0]),
    big(d[1]),
    big(c[0]),
    big(c[1]),
  ];
  const num = (cx - ox) * dx + (cy - oy) * dy; // 2^2200
  const dd = dx * dx + dy * dy; // 2^2200
  // o + (num/dd)·d at scale 2^1100: (o·dd + num·d) / dd.
  const px = unbig((ox * dd + num * dx) / dd);
  const py = unbig((oy * dd + num * dy) / dd);
  // t* as a double: num/dd (both at the same scale).
  const tStar = unbig((num << 1100n) / dd);
  return { x: px, y: py, t: tStar };
}

describe("2D rays from far away against the exact closest-approach oracle", () => {
  it("any size 1e-200..1e6, distance 1..1e100, direction length 1e-3..1e3", () => {
    fc.assert(
      fc.property(
        mag(-200, 6).chain((s) =>
          fc.record({
            s: fc.constant(s),
            shape: sizedShape(s),
            angle: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
            px: fc.double({ min: -2, max: 2, noNaN: true }),
            py: fc.double({ min: -2, max: 2, noNaN: true }),
            D: mag(0, 100),
            axis: fc.boolean(),
            phi: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
            quadrant: fc.integer({ min: 0, max: 3 }),
            aim: fc.double({ min: -1.5, max: 1.5, noNaN: true }),
            dl: mag(-3, 3),
          }),
        ),
        ({ s, shape, angle, px, py, D, axis, phi, quadrant, aim, dl }) => {
          const pose = pose2.fromAngle(px * s, py * s, angle);
          const R = boundR(shape);
          const dist = Math.max(D, 4 * R);
          // From an axis with a tilt aiming within 1.5 R of the centre (a hit or a miss decided
          // at the shape's scale), or from any direction aimed at the centre.
          const a = axis ? (quadrant * Math.PI) / 2 : phi;
          const ux = axis ? [1, 0, -1, 0][quadrant] : Math.cos(a);
          const uy = axis ? [0, 1, 0, -1][quadrant] : Math.sin(a);
          const o: [number, number] = [pose.p.x - dist * ux, pose.p.y - dist * uy];
          const side = (aim * R) / dist;
          const d: [number, number] = [dl * (ux - uy * side), dl * (uy + ux * side)];
          const hit = castRay2D(shape, pose, { x: o[0], y: o[1] }, { x: d[0], y: d[1] });
          // Oracle: the exact closest approach to the frame origin, then 2R back along the
          // ray: a near origin (its rounding at the shape's scale), answered at that scale.
          const c = closestApproach(o, d, [pose.p.x, pose.p.y]);
          const len = Math.hypot(d[0], d[1]);
          const back = (2 * R) / len;
          const near = { x: c.x - d[0] * back, y: c.y - d[1] * back };
          const ref = castRay2D(shape, pose, near, { x: d[0], y: d[1] });
          const scale = R + Math.hypot(pose.p.x, pose.p.y);
          // Grazing rays (the line within rounding of tangent) may go either way.
          if ((hit === null) !== (ref === null)) {
            const q = hit ?? ref;
            expect(q).not.toBeNull();
            // A disagreement only at a graze: the line's nearest point to the shape is on it.
            const g = projectPoint2D(shape, pose, { x: c.x, y: c.y }, false);
            const lineGap = g.inside ? 0 : g.distance;
            expect(lineGap).toBeLessThan(1e-6 * scale);
            return;
          }
          if (hit === null || ref === null) return;
          const toi = c.t - back + ref.toi;
          expect(Math.abs(hit.toi - toi)).toBeLessThanOrEqual(
            1e-12 * Math.abs(toi) + (4 * R) / len,
          );
          // The point on the shape's boundary and at the reference's entry.
          expect(distToShape(shape, pose, [hit.point.x, hit.point.y])).toBeLessThanOrEqual(
            1e-12 * scale,
          );
          const tol = 1e-6 * scale;
          const off = Math.hypot(hit.point.x - ref.point.x, hit.point.y - ref.point.y);
          if (off > tol) {
            // Only where the entry is ill-conditioned (a ray nearly along the boundary).
            const cosIn = Math.abs(ref.normal.x * d[0] + ref.normal.y * d[1]) / len;
            expect(cosIn).toBeLessThan(1e-3);
          }
          expect(Math.hypot(hit.normal.x, hit.normal.y)).toBeCloseTo(1, 12);
          expect(hit.normal.x * d[0] + hit.normal.y * d[1]).toBeLessThanOrEqual(1e-12 * len);
          if (shape.type === ShapeType2.Circle) {
            // Independent: on the circle, the normal the unit offset from the centre.
            const lx = hit.point.x - pose.p.x;
            const ly = hit.point.y - pose.p.y;
            const rr = Math.hypot(lx, ly);
            expect(Math.abs(rr - shape.radius)).toBeLessThanOrEqual(1e-12 * scale);
            if (Math.hypot(pose.p.x, pose.p.y) <= shape.radius) {
              expect(Math.abs(hit.normal.x - lx / rr)).toBeLessThan(1e-9);
              expect(Math.abs(hit.normal.y - ly / rr)).toBeLessThan(1e-9);
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Brute-force feature projection for far points.

/** Closest point of segment a–b to p, from the definition (t clamped), in plain doubles at unit scale. */
function segClosest(
  p: [number, number],
  a: [number, number],
  b: [number, number],
): [number, number] {
  const ex = b[0] - a[0];
  const ey = b[1] - a[1];
  const m = Math.max(Math.abs(ex), Math.abs(ey));
  let t =
    ((p[0] - a[0]) * (ex / m) + (p[1] - a[1]) * (ey / m)) / ((ex / m) ** 2 + (ey / m) ** 2) / m;
  t = Math.max(0, Math.min(1, t));
  return t === 1 ? b : [a[0] + t * ex, a[1] + t * ey];
}

/**
 * Brute force over the features of a convex polygon (local frame): every edge's closest point
 * and every vertex, the winner by exact squared distance (BigInt), so that far away the ties of
 * rounded distances do not decide.
 */
function bruteClosest(verts: [number, number][], p: [number, number]): [number, number] {
  let best: [number, number] = verts[0];
  let bestD = -1n;
  const cands: [number, number][] = [...verts];
  for (let i = 0; i < verts.length; i++)
    cands.push(segClosest(p, verts[i], verts[(i + 1) % verts.length]));
  for (const q of cands) {
    const dx = big(p[0]) - big(q[0]);
    const dy = big(p[1]) - big(q[1]);
    const dd = dx * dx + dy * dy;
    if (bestD < 0n || dd < bestD) {
      bestD = dd;
      best = q;
    }
  }
  return best;
}

describe("2D projectPoint far away against brute-force feature projection", () => {
  it("polygons and rectangles of size 1e-200..1e6 from 1e2..1e250 sizes away", () => {
    fc.assert(
      fc.property(
        mag(-200, 6),
        fc.integer({ min: 3, max: 7 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 8, maxLength: 8 }),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        mag(2, 250),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        (s, k, jit, phi, far, lateral) => {
          const pts = [];
          for (let i = 0; i < k; i++) {
            const t = ((i + 0.8 * jit[i]) / k) * 2 * Math.PI;
            pts.push({ x: s * Math.cos(t), y: s * 0.7 * Math.sin(t) });
          }
          const shape = makePolygon(pts);
          const v: [number, number][] = [];
          for (let i = 0; i < shape.core.count; i++)
            v.push([shape.core.verts[2 * i], shape.core.verts[2 * i + 1]]);
          // Far along phi, offset sideways at the shape's scale: every feature's region is met.
          const ux = Math.cos(phi);
          const uy = Math.sin(phi);
          const p: [number, number] = [
            far * s * ux - lateral * s * uy,
            far * s * uy + lateral * s * ux,
          ];
          if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) return;
          const got = projectPoint2D(shape, pose2.identity(), { x: p[0], y: p[1] });
          const want = bruteClosest(v, p);
          const tol = 1e-12 * s;
          expect(Math.abs(got.point.x - want[0])).toBeLessThanOrEqual(tol);
          expect(Math.abs(got.point.y - want[1])).toBeLessThanOrEqual(tol);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("capsules of size 1e-200..1e6 from far away: the closest point of the right cap or side", () => {
    fc.assert(
      fc.property(
        mag(-200, 6),
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        mag(2, 250),
        (s, r, phi, far) => {
          const shape = makeCapsule({ x: 0, y: -s }, { x: 0, y: s }, r * s);
          const p: [number, number] = [far * s * Math.cos(phi), far * s * Math.sin(phi)];
          if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) return;
          const got = projectPoint2D(shape, pose2.identity(), { x: p[0], y: p[1] }).point;
          // Brute force: the core segment's closest point, then r along the unit offset.
          const q = segClosest(p, [0, -s], [0, s]);
          const ox = p[0] - q[0];
          const oy = p[1] - q[1];
          const m = Math.max(Math.abs(ox), Math.abs(oy));
          const l = Math.hypot(ox / m, oy / m);
          const want = [q[0] + (r * s * (ox / m)) / l, q[1] + (r * s * (oy / m)) / l];
          expect(Math.abs(got.x - want[0])).toBeLessThanOrEqual(1e-12 * s);
          expect(Math.abs(got.y - want[1])).toBeLessThanOrEqual(1e-12 * s);
        },
      ),
      { numRuns: 300 },
    );
  });
});
