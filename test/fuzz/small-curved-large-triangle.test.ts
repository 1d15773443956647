/**
 * Regression of issue 16 (seed 16 at 100,000 queries, once triangles were read in a frame on a
 * power-of-two grid near their first vertex): a cone of 0.014 whose base rim crossed the edge of a
 * triangle of 57 by 5e-15 answered `contact` with witnesses 9e-11 apart sideways across the
 * normal (bar 6.1e-13). In the cone's frame the triangle's corners lie at 50, so the overlap was
 * at the rounding of the pair's magnitude, but the touch test measured that rounding by the
 * witnesses' magnitude (0.016) only: the overlap was taken for a real one and each witness seated
 * on its own shape, the triangle's moved 5.6e-11 sideways onto its edge. The pair's magnitude now
 * includes its support points' (src/narrowphase/convex-convex.ts, `solve`).
 *
 * The oracle is the construction: the solid's support point p along a direction u (closed form:
 * a cylinder is the hull of two circles, a cone of its apex and base circle), and a triangle with
 * an edge across u through o, a point δ inside the solid from p, the triangle lying on the far
 * side of the plane x·u = o·u. The two then meet (at o) and overlap along u by (p − o)·u (up to
 * the rounding of the inputs), so the contact's depth is at most that, and at a touch or an overlap of a few ulps the witnesses face each
 * other across the normal: pB − pA along the normal to the fuzzer's bar (64 ε of the pair's
 * extent plus 1e-6 of the depth and 8 ulps of the witnesses).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";

type V = [number, number, number];
type J = Record<string, unknown>;
const EPS = 2 ** -52;

/** The seed-16 line (a cone at the origin, a triangle of 57 whose edge ab passes beside it). */
const LINE = {
  a: {
    type: "cone",
    center: [0, 0, 0],
    halfHeight: 0.014219007016971284,
    radius: 0.00768222120268046,
    rotation: [-0.27616524860551284, -0.5441422456286661, 0.7426582847386178, -0.27586345189956224],
  },
  b: {
    type: "triangle",
    a: [-19.8093063862987, -11.133032757929758, -49.750650954816365],
    b: [1.2968408799639246, 0.7333026955667825, 3.3017562819628887],
    c: [-37.98618733240209, -6.715322910272839, -56.657812632164195],
  },
};

const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: V): number => Math.hypot(a[0], a[1], a[2]);
const unit = (a: V): V => scale(a, 1 / norm(a));
const ulp = (x: number): number => (x === 0 ? 0 : 2 ** (Math.floor(Math.log2(Math.abs(x))) - 52));

/** v rotated by the unit quaternion q = [x, y, z, w]. */
function rotate(q: number[], v: V): V {
  const u: V = [q[0], q[1], q[2]];
  const t = scale(cross(u, v), 2);
  return add(add(v, scale(t, q[3])), cross(u, t));
}

/** Bounding centre and radius of a solid (its centre, the corner of its cylinder) or triangle (its centroid). */
function ball(s: J): { c: V; r: number } {
  if (s.type === "triangle") {
    const p = [s.a, s.b, s.c] as V[];
    const c = scale(add(add(p[0], p[1]), p[2]), 1 / 3);
    return { c, r: Math.max(...p.map((x) => norm(sub(x, c)))) };
  }
  return { c: s.center as V, r: Math.hypot(s.halfHeight as number, s.radius as number) };
}

/**
 * `contact` of the pair, checked: at most `depth` deep (when given), and its witnesses facing
 * each other across its normal to the fuzzer's bar. Returns the sideways offset over the bar.
 */
function checkFacing(a: J, b: J, depth: number | null): number {
  const r = answerQuery({ op: "contact", a, b }) as {
    distance: number;
    normal: V;
    pointA: V;
    pointB: V;
  } | null;
  const A = ball(a);
  const B = ball(b);
  const L = Math.max(A.r, B.r, norm(sub(A.c, B.c)));
  if (r === null) {
    // Only a touch, or an overlap within the rounding of the inputs, may be apart.
    expect(depth === null || depth <= 64 * EPS * L).toBe(true);
    return 0;
  }
  const bar =
    1e-6 * Math.abs(r.distance) + 64 * EPS * L + 8 * Math.max(...r.pointA.map((x) => ulp(x)));
  if (depth !== null) expect(-r.distance).toBeLessThanOrEqual(depth + 64 * EPS * L);
  const d = sub(r.pointB, r.pointA);
  const side = norm(sub(d, scale(r.normal, dot(d, r.normal))));
  return side / bar;
}

describe("a small curved solid against a large triangle: witnesses face each other (issue 16, seed 16)", () => {
  it("the seed-16 line, both orders", () => {
    expect(checkFacing(LINE.a, LINE.b, null)).toBeLessThanOrEqual(1);
    expect(checkFacing(LINE.b, LINE.a, null)).toBeLessThanOrEqual(1);
  });

  it("property: a cone or cylinder of 1e-3..1e-1 touching or crossing by up to 3e-13 of its size (the rounding band) an edge of a triangle of 10..100, any corner first, frames offset up to 1e3", () => {
    // Directions from integer lattice points (fast-check's doubles cluster at the bounds: the
    // axes, whose supports are discs).
    const coord = fc.integer({ min: -1_000_000, max: 1_000_000 });
    const unitV = fc
      .tuple(coord, coord, coord)
      .filter((v) => norm(v as V) > 1e5 && norm(v as V) <= 1e6)
      .map((v) => unit(v as V));
    let checked = 0;
    fc.assert(
      fc.property(
        fc.constantFrom("cone", "cylinder"),
        fc.double({ min: -3, max: -1, noNaN: true }),
        fc.double({ min: 0.3, max: 3, noNaN: true }),
        fc.tuple(unitV, fc.double({ min: -Math.PI, max: Math.PI, noNaN: true })),
        unitV,
        unitV,
        fc.double({ min: 1, max: 2, noNaN: true }),
        fc.tuple(
          fc.double({ min: 0.05, max: 0.95, noNaN: true }),
          fc.double({ min: -1.3, max: 1.3, noNaN: true }),
        ),
        fc.oneof(fc.constant(0), fc.double({ min: -16, max: -12.5, noNaN: true })),
        fc.oneof(
          fc.constant([0, 0, 0]),
          fc.tuple(
            fc.double({ min: -1e3, max: 1e3, noNaN: true }),
            fc.double({ min: -1e3, max: 1e3, noNaN: true }),
            fc.double({ min: -1e3, max: 1e3, noNaN: true }),
          ),
        ),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (
          type,
          logSize,
          aspect,
          [axis, angle],
          dLocal,
          v,
          logTri,
          [split, theta],
          logDepth,
          offset,
          first,
          swap,
        ) => {
          const size = 10 ** logSize;
          const h = size;
          const rad = size * aspect * 0.5;
          const q = [...scale(axis, Math.sin(angle / 2)), Math.cos(angle / 2)];
          const C = offset as V;
          // The support point along u = R dLocal, in the solid's frame then the world (a direction
          // along the axis or across it, whose support is a disc or a generator, left out: the
          // point is then one of a rim, and p − δu inside the solid).
          if (Math.hypot(dLocal[0], dLocal[2]) < 0.05 || Math.abs(dLocal[1]) < 0.05) return;
          const rx = unit([dLocal[0], 0, dLocal[2]]);
          const rim: V = [rad * rx[0], dLocal[1] >= 0 ? h : -h, rad * rx[2]];
          let pl: V = rim;
          if (type === "cone") {
            const base: V = [rad * rx[0], -h, rad * rx[2]];
            pl = dot(base, dLocal) >= h * dLocal[1] ? base : [0, h, 0];
          }
          const u = rotate(q, dLocal);
          const p = add(C, rotate(q, pl));
          // The edge through o, δ from p toward an inner point of the solid (its axis's midpoint
          // or a quarter up from a cone's base): o is inside the solid for δ > 0 (a cone's
          // wedge at its rim is narrower than the reverse of its fan of normals, so p − δu need
          // not be), and the overlap along u is δ·|g·u|.
          const g = unit(rotate(q, sub([0, type === "cone" ? -h / 2 : 0, 0], pl)));
          const delta = logDepth === 0 ? 0 : size * 10 ** logDepth;
          const o = add(p, scale(g, delta));
          const depth = delta * Math.abs(dot(g, u));
          // An edge through o across u; the triangle beyond it, at theta from u in the plane of u and w.
          const e = unit(sub(v, scale(u, dot(v, u))));
          if (norm(sub(v, scale(u, dot(v, u)))) < 0.05) return;
          const w = cross(u, e);
          const len = 10 ** logTri;
          const dir = add(scale(u, Math.cos(theta)), scale(w, Math.sin(theta)));
          const c0 = add(o, scale(e, -len * split));
          const c1 = add(o, scale(e, len * (1 - split)));
          const c2 = add(o, scale(dir, len));
          const corners = [c0, c1, c2];
          const tri = {
            type: "triangle",
            a: corners[first],
            b: corners[(first + 1) % 3],
            c: corners[(first + 2) % 3],
          };
          const solid = { type, center: C, halfHeight: h, radius: rad, rotation: q };
          const over = swap ? checkFacing(tri, solid, depth) : checkFacing(solid, tri, depth);
          expect(over).toBeLessThanOrEqual(1);
          checked++;
        },
      ),
      { numRuns: 4000, seed: 16 },
    );
    expect(checked).toBeGreaterThan(2000);
  });
});
