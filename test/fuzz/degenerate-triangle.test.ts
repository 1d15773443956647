/**
 * Degenerate triangles: corners collinear in doubles, slivers, repeated corners (issue 16,
 * test/fuzz/open/README.md's "Degenerate triangles", a fresh-user attack of session 33).
 *
 * A triangle's face normal, the rounded cross product of two edges, is noise when the triangle
 * is a sliver: its error ε·|ab||ac| against a length of twice the area. It was trusted:
 * - the sphere–triangle closed form (`closestPointOnTriangle`'s degeneracy test, Lagrange's
 *   |ab|²|ac|² − (ab·ac)², rounds at ε|ab|²|ac|² and let a triangle whose cross product is exactly
 *   0 into the face's Voronoi region): a sphere 0.0038 off a segment triangle, errorBound 0, 75
 *   of 20,000 random collinear unit triangles wrong by up to 0.042;
 * - the manifold's reference face: a sliver 8e-4 long against a cone of 40, a point 1.06e-4 deep
 *   for a contact of 8.1e-5 and 2.5e-5 off the triangle (another, 1e-17 thick: a point 36 away);
 * - the supporting edge ("opposite the lowest corner"), a zero-length edge for a triangle (a, b, a)
 *   or half the segment for a corner between the others: a segment triangle 100 long through a
 *   cylinder of 1e-3, its witnesses 2.4e-4 apart across the normal.
 * Now a sliver (least height below 2^-20 of its longest edge) is projected along its exactly
 * expanded normal or, collinear in exact arithmetic, taken as its three edges
 * (src/geometry/closest-point.ts), and its supporting feature is its longest edge
 * (src/shapes/defs/triangle.ts).
 *
 * Oracles, none from src/: a collinear triangle IS the union of its three edges, so the distance
 * from a point is the least of three clamped segment projections (Ericson 2005, §5.1.2, written
 * here); for a sliver, the projection along its exactly computed normal (BigInt dyadic cross
 * product, test/fuzz/oracle-shapes.ts `exactTriangleNormal`), and dense barycentric sampling as
 * an independent upper bound; the depth of a segment through a cylinder as the least overlap
 * over directions about those perpendicular to it (test/oracles/revolution-depth.ts); and the
 * fuzzer's checks (test/fuzz/fuzz.ts `replayScenario`: distance and depth bars, witnesses on
 * their shapes, intersects ⇔ distance ≤ 0 ⇔ contact non-null, manifold points no deeper than
 * the contact and on both shapes, witnesses facing).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  contact,
  isometry,
  makeCone,
  makeCylinder,
  makeTriangle,
  manifold,
  type Vec3,
} from "../../src/index.js";
import { answerQuery } from "../../src/io/query.js";
import { leastOverlap, type OracleShape, oracleShape } from "../oracles/revolution-depth.js";
import { unitQuatArrayOf } from "./arbitraries.js";
import { facingError } from "./contact-checks.js";
import { replayScenario } from "./fuzz.js";
import { exactOffset, offsetScenario } from "./generate.js";
import {
  add,
  closestOnTriangle,
  cross,
  dist,
  dot,
  exactTriangleNormal,
  norm,
  scale,
  sub,
  unit,
  type V,
} from "./oracle-shapes.js";

type J = Record<string, unknown>;
const EPS = 2 ** -52;

/** The point of segment [a, b] nearest p (clamped projection; a point when a = b). */
function onSegment(p: V, a: V, b: V): V {
  const e = sub(b, a);
  const ee = dot(e, e);
  const t = ee > 0 ? Math.min(1, Math.max(0, dot(sub(p, a), e) / ee)) : 0;
  return add(a, scale(e, t));
}

/** Distance from p to a triangle collinear in exact arithmetic: the least over its three edges. */
function collinearDistance(p: V, a: V, b: V, c: V): number {
  return Math.min(
    dist(p, onSegment(p, a, b)),
    dist(p, onSegment(p, b, c)),
    dist(p, onSegment(p, c, a)),
  );
}

/** The least distance from p to n² + 3n + 2 barycentric samples of triangle abc (an upper bound). */
function sampledDistance(p: V, a: V, b: V, c: V, n: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; i + j <= n; j++) {
      const q = add(a, add(scale(sub(b, a), i / n), scale(sub(c, a), j / n)));
      best = Math.min(best, dist(p, q));
    }
  }
  return best;
}

const v3 = (p: V): Vec3 => ({ x: p[0], y: p[1], z: p[2] });
const arr = (p: Vec3): V => [p.x, p.y, p.z];

/** The attack's line (its f6.jsonl): a sphere against a triangle whose cross product is 0. */
const SPHERE_LINE = {
  a: { type: "sphere", center: [0, 0, 0], radius: 0.32559154033660886 },
  b: {
    type: "triangle",
    a: [-0.4929666221141815, -0.779147744178772, 0.1913708746433258],
    b: [-0.38210034370422363, -0.39734482765197754, -0.8358490467071533],
    c: [-0.4033909365536892, -0.47066568374179774, -0.6385832827075499],
  },
};

describe("issue 16: degenerate triangles are the segments or points they are", () => {
  it("the attack's sphere line: distance the nearest edge's 0.79908903 − r = 0.47349749 (before: 0.47730608, errorBound 0)", () => {
    const t = SPHERE_LINE.b;
    const [a, b, c] = [t.a, t.b, t.c] as V[];
    expect(exactTriangleNormal(a, b, c)).toEqual([0, 0, 0]);
    const r = SPHERE_LINE.a.radius;
    const truth = collinearDistance([0, 0, 0], a, b, c) - r;
    expect(Math.abs(truth - 0.47349749015275)).toBeLessThan(1e-13);
    const bar = 64 * EPS;
    for (const [x, y] of [
      [SPHERE_LINE.a, SPHERE_LINE.b],
      [SPHERE_LINE.b, SPHERE_LINE.a],
    ] as J[][]) {
      const d = answerQuery({ op: "distance", a: x, b: y } as never) as { distance: number };
      expect(Math.abs(d.distance - truth)).toBeLessThanOrEqual(bar);
      const k = answerQuery({ op: "contact", a: x, b: y, prediction: 1 } as never) as {
        distance: number;
      };
      expect(Math.abs(k.distance - truth)).toBeLessThanOrEqual(bar);
    }
    const p = answerQuery({ op: "projectPoint", shape: t, point: [0, 0, 0] } as never) as {
      distance: number;
    };
    expect(Math.abs(p.distance - r - truth)).toBeLessThanOrEqual(bar);
    const sc = offsetScenario(SPHERE_LINE.a, SPHERE_LINE.b, [0, 0, 0]);
    expect(replayScenario(sc, "sphere-triangle", { ops: OPS }).map((f) => f.reason)).toEqual([]);
  });

  it("a bare sliver 8e-4 long against a cone of 40: the manifold's point the contact's, on the triangle (before: 1.06e-4 deep for 8.1e-5, 2.5e-5 off); one 1e-17 thick: no point 36 away", () => {
    const cases = [
      {
        tri: [
          [0.0005774908065795898, 0.0009079294204711914, 0.0008739805221557618],
          [0.00003194904327392578, 0.0003159475326538086, 0.0009036188125610352],
          [0.00004370725654234773, 0.00032870668283476335, 0.0009029800102493937],
        ] as V[],
        pT: [
          [20.807985891678562, -2.7883422113994456, 32.55722795864129],
          [-0.729330297798346, -0.3631742251903573, 0.28703311807209025, -0.5037795033549628],
        ],
        cone: [38.73950004577637, 44.192705154418945],
        qK: [-0.014165680556210264, -0.5809503587046143, -0.7319841981556495, 0.3556615636610038],
      },
      {
        tri: [
          [0.00013885104656219483, 0.0006655926704406738, 0.0007915501594543457],
          [0.00014005708694458008, 0.0006136403083801269, -0.0007560229301452637],
          [0.0001386372592171884, 0.0006748019454483404, 0.0010658789023896026],
        ] as V[],
        pT: [
          [10.27891523068348, 15.978015588634705, 0.598004403740557],
          [-0.6594689039071979, -0.5305137403050783, 0.31152285242159583, 0.43198315771111695],
        ],
        cone: [38.099704533815384, 43.061182498931885],
        qK: [-0.16432237489637228, -0.7044971350167221, -0.4560223547430666, -0.5183874572520397],
      },
    ];
    for (const k of cases) {
      const [a, b, c] = k.tri;
      const T = makeTriangle(v3(a), v3(b), v3(c));
      const [t, q] = k.pT;
      const pT = isometry.create(v3(t as V), { x: q[0], y: q[1], z: q[2], w: q[3] });
      const K = makeCone(k.cone[0], k.cone[1]);
      const pK = isometry.create(
        { x: 0, y: 0, z: 0 },
        { x: k.qK[0], y: k.qK[1], z: k.qK[2], w: k.qK[3] },
      );
      // The triangle's edges as segment triangles against the cone: the sliver lies within its
      // height (≤ 1e-9 here) of the longest, which holds the others to that height, so its
      // contact is theirs, the deepest.
      const segs = [
        [a, b],
        [b, c],
        [c, a],
      ].map(([p, q]) => contact(makeTriangle(v3(p), v3(q), v3(q)), pT, K, pK, 2e-4));
      const seg = segs.reduce((x, y) => (y && (!x || y.distance < x.distance) ? y : x), null);
      const ct = contact(T, pT, K, pK, 2e-4);
      const mf = manifold(T, pT, K, pK, 2e-4);
      expect(seg).not.toBeNull();
      expect(ct).not.toBeNull();
      expect(mf).not.toBeNull();
      if (!seg || !ct || !mf) continue;
      const L = 64 + Math.hypot(...(t as V));
      const bar = 1e-6 * Math.abs(ct.distance) + 64 * EPS * L;
      expect(Math.abs(ct.distance - seg.distance)).toBeLessThanOrEqual(bar + 1e-9);
      const pts = mf.points.slice(0, mf.count);
      const least = Math.min(...pts.map((p) => p.distance));
      expect(Math.abs(least - ct.distance)).toBeLessThanOrEqual(bar);
      for (const p of pts) {
        expect(p.distance).toBeGreaterThanOrEqual(ct.distance - bar);
        // On the triangle (its local frame): the closest point of the oracle within the bar.
        const local = arr(isometry.inverseTransformPoint(v3([0, 0, 0]), pT, p.pointA));
        expect(dist(local, closestOnTriangle(local, a, b, c))).toBeLessThanOrEqual(bar);
      }
    }
  });

  it("a segment triangle (a, b, a) 100 long through a cylinder of 1e-3: witnesses facing across the normal (before: 2.4e-4 apart), depth the least overlap", () => {
    const A2: V = [59.188222885131836, 78.20143699645996, -93.49884986877441];
    const B2: V = [-20.15824019908905, 27.933967113494873, -36.92917823791504];
    const qT = {
      x: -0.6823571618734475,
      y: 0.3897433680198489,
      z: -0.5860764963955747,
      w: -0.19749215452074687,
    };
    const pT = isometry.create({ x: 0, y: 0, z: 0 }, qT);
    const hh = 0.0010399306774139406;
    const r = 0.0008694633007049561;
    const tY: V = [-45.36166563277027, 15.610200163316705, -15.77934120342563];
    const qY = [-0.14621401433509068, 0.7556825189243339, 0.29054860633454155, 0.5684601129026091];
    const Y = makeCylinder(hh, r);
    const pY = isometry.create(v3(tY), { x: qY[0], y: qY[1], z: qY[2], w: qY[3] });
    // The oracle's segment: the corners moved into the world (the triangle's pose is a rotation).
    const wa = arr(isometry.transformPoint(v3([0, 0, 0]), pT, v3(A2)));
    const wb = arr(isometry.transformPoint(v3([0, 0, 0]), pT, v3(B2)));
    const cyl = oracleShape({
      type: "cylinder",
      center: tY,
      halfHeight: hh,
      radius: r,
      rotation: qY,
    });
    const segShape: OracleShape = {
      support: (d) => (dot(wa, d) >= dot(wb, d) ? wa : wb),
      signed: (p) => dist(p, onSegment(p, wa, wb)),
      size: dist(wa, wb) / 2,
    };
    // Directions perpendicular to the segment as hints (any other is 50 deep).
    const u = unit(sub(wb, wa));
    const e1 = unit(cross(u, Math.abs(u[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0]));
    const e2 = cross(u, e1);
    const hints: V[] = [];
    for (let i = 0; i < 3600; i++) {
      const th = (2 * Math.PI * i) / 3600;
      hints.push(add(scale(e1, Math.cos(th)), scale(e2, Math.sin(th))));
    }
    const truth = leastOverlap(cyl, segShape, hints, 200).depth;
    const L = Math.max(norm(wa), norm(wb));
    const bar = 64 * EPS * L;
    for (const tri of [
      makeTriangle(v3(A2), v3(B2), v3(A2)),
      makeTriangle(v3(A2), v3(B2), v3(scale(add(A2, B2), 0.5))),
      makeTriangle(v3(B2), v3(A2), v3(A2)),
    ]) {
      for (const flip of [false, true]) {
        const c = flip ? contact(tri, pT, Y, pY, 2.08e-4) : contact(Y, pY, tri, pT, 2.08e-4);
        expect(c).not.toBeNull();
        if (!c) continue;
        const j = {
          distance: c.distance,
          normal: arr(c.normal),
          pointA: arr(c.pointA),
          pointB: arr(c.pointB),
        };
        expect(facingError(j)).toBeLessThanOrEqual(bar);
        expect(Math.abs(-c.distance - truth)).toBeLessThanOrEqual(1e-6 * truth + bar);
        const onSeg = flip ? j.pointA : j.pointB;
        expect(dist(onSeg, onSegment(onSeg, wa, wb))).toBeLessThanOrEqual(bar);
        const m = flip ? manifold(tri, pT, Y, pY, 2.08e-4) : manifold(Y, pY, tri, pT, 2.08e-4);
        expect(m).not.toBeNull();
        for (const p of m ? m.points.slice(0, m.count) : []) {
          const f = {
            distance: p.distance,
            normal: arr(m?.normal ?? c.normal),
            pointA: arr(p.pointA),
            pointB: arr(p.pointB),
          };
          expect(facingError(f)).toBeLessThanOrEqual(bar);
          expect(p.distance).toBeGreaterThanOrEqual(c.distance - 1e-6 * truth - bar);
        }
      }
    }
  });
});

const OPS = ["intersects", "distance", "contact", "manifold", "projectPoint"];

/** How far c leaves the line ab: 0, one ulp of a coordinate, or a fraction of |b − a|. */
const KINDS = ["0", "1ulp", "1e-12", "1e-9", "point", "two"] as const;
type Kind = (typeof KINDS)[number];

/**
 * A degenerate triangle of size s: a and b, c = a + u(b − a) rounded, moved off the line by the
 * kind (perpendicular, relative to |b − a|); "point": all three corners one point; "two": c
 * repeats a or b. Its corners rotated by `turn` (each position of the odd corner).
 */
function degenerateTriangle(
  a: V,
  b: V,
  u: number,
  side: V,
  kind: Kind,
  turn: number,
  repeatA: boolean,
): [V, V, V] {
  let c: V = add(a, scale(sub(b, a), u));
  if (kind === "point") return [a, [...a], [...a]];
  if (kind === "two") c = repeatA ? [...a] : [...b];
  else if (kind === "1ulp") c = [c[0] + Math.abs(c[0]) * EPS || Number.MIN_VALUE, c[1], c[2]];
  else if (kind !== "0") {
    const e = sub(b, a);
    const perp = sub(side, scale(e, dot(side, e) / dot(e, e)));
    const pl = norm(perp);
    if (pl > 0) c = add(c, scale(perp, (Number(kind) * norm(e)) / pl));
  }
  const t: [V, V, V] = [a, b, c];
  return [t[turn % 3], t[(turn + 1) % 3], t[(turn + 2) % 3]];
}

// Coordinates in millionths, fractions in thousandths (fast-check's doubles favour 0, ±1 and
// subnormals).
const unitCoord = fc.integer({ min: -1_000_000, max: 1_000_000 }).map((k) => k / 1_000_000);
const fraction = (lo: number, hi: number) =>
  fc.integer({ min: Math.round(lo * 1000), max: Math.round(hi * 1000) }).map((k) => k / 1000);
const point = fc.tuple(unitCoord, unitCoord, unitCoord);
const quat = unitQuatArrayOf(unitCoord);

const triangleDraw = fc.record({
  a: point,
  b: point,
  u: fraction(-0.2, 1.2),
  side: point,
  kind: fc.constantFrom(...KINDS),
  turn: fc.integer({ min: 0, max: 2 }),
  repeatA: fc.boolean(),
  scaleExp: fc.integer({ min: -6, max: 6 }),
});

describe("issue 16: properties of degenerate triangles", () => {
  it("a sphere against collinear and near-collinear triangles (sizes 1e-6..1e6): distance the oracle's within 1e-9 relative, no sampled point nearer, intersects ⇔ distance ≤ 0 ⇔ contact", () => {
    fc.assert(
      fc.property(triangleDraw, point, fraction(0.01, 1), fraction(0, 1.5), (g, dir, rr, far) => {
        const s = 10 ** g.scaleExp;
        const [a, b, c] = degenerateTriangle(
          scale(g.a, s),
          scale(g.b, s),
          g.u,
          g.side,
          g.kind,
          g.turn,
          g.repeatA,
        );
        const anchor = add(a, scale(sub(b, a), 0.5));
        const radius = rr * s;
        const center = add(anchor, scale(dir, far * s));
        const n = exactTriangleNormal(a, b, c);
        const q = dot(n, n) === 0 ? null : closestOnTriangle(center, a, b, c);
        const truth = (q ? dist(center, q) : collinearDistance(center, a, b, c)) - radius;
        const size = Math.max(norm(sub(b, a)), norm(sub(c, a)), radius, norm(center), norm(a));
        const bar = 1e-9 * size;
        const sphere = { type: "sphere", center, radius };
        const tri = { type: "triangle", a, b, c };
        for (const [x, y] of [
          [sphere, tri],
          [tri, sphere],
        ] as J[][]) {
          const d = answerQuery({ op: "distance", a: x, b: y } as never) as { distance: number };
          expect(Math.abs(d.distance - Math.max(0, truth))).toBeLessThanOrEqual(bar);
          expect(d.distance).toBeLessThanOrEqual(
            Math.max(0, sampledDistance(center, a, b, c, 24) - radius) + bar,
          );
          const k = answerQuery({ op: "contact", a: x, b: y } as never) as {
            distance: number;
          } | null;
          const hit = (
            answerQuery({ op: "intersects", a: x, b: y } as never) as { intersects: boolean }
          ).intersects;
          expect(hit).toBe(d.distance <= 0);
          expect(k !== null).toBe(hit);
          if (k) expect(Math.abs(k.distance - truth)).toBeLessThanOrEqual(bar);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("collinear, near-collinear and point triangles, bare, as a mesh's triangle and as a compound's child, against spheres, capsules, boxes, cylinders, cones and hulls (sizes 1e-6..1e6, offsets to 1e9): the fuzzer's checks pass", () => {
    const other = fc.record({
      type: fc.constantFrom("sphere", "capsule", "box", "cylinder", "cone", "convex"),
      rel: fraction(0.05, 1),
      dims: fc.tuple(fraction(0.1, 1), fraction(0.1, 1), fraction(0.1, 1)),
      rot: quat,
      dir: point,
      far: fraction(0, 1.5),
      hull: fc.array(point, { minLength: 4, maxLength: 8 }),
    });
    fc.assert(
      fc.property(
        triangleDraw,
        other,
        fc.constantFrom("bare", "mesh", "compound"),
        point,
        fc.integer({ min: 0, max: 9 }),
        fc.boolean(),
        (g, o, wrap, offDir, offExp, swap) => {
          const s = 10 ** g.scaleExp;
          const [a, b, c] = degenerateTriangle(
            scale(g.a, s),
            scale(g.b, s),
            g.u,
            g.side,
            g.kind,
            g.turn,
            g.repeatA,
          );
          const z = o.rel * s;
          const cen = add(add(a, scale(sub(b, a), 0.5)), scale(o.dir, o.far * s));
          const [d0, d1, d2] = o.dims.map((x) => x * z);
          const shape: J =
            o.type === "sphere"
              ? { type: "sphere", center: cen, radius: d0 }
              : o.type === "capsule"
                ? {
                    type: "capsule",
                    a: add(cen, scale(o.dir, d1)),
                    b: sub(cen, scale(o.dir, d1)),
                    radius: d0 / 2,
                  }
                : o.type === "box"
                  ? { type: "box", center: cen, halfExtents: [d0, d1, d2], rotation: o.rot }
                  : o.type === "convex"
                    ? {
                        type: "convex",
                        points: [
                          ...o.hull.map((p) => scale(p, z)),
                          [d0, d0, d0],
                          [-d0, -d0, d0],
                          [-d0, d0, -d0],
                          [d0, -d0, -d0],
                        ],
                        position: cen,
                        rotation: o.rot,
                      }
                    : { type: o.type, center: cen, halfHeight: d0, radius: d1, rotation: o.rot };
          const tri: J =
            wrap === "mesh"
              ? { type: "mesh", vertices: [a, b, c], indices: [[0, 1, 2]] }
              : wrap === "compound"
                ? {
                    type: "compound",
                    children: [{ shape: { type: "triangle", a, b, c }, position: [0, 0, 0] }],
                    position: [0, 0, 0],
                  }
                : { type: "triangle", a, b, c };
          const off = exactOffset(offDir, offExp === 0 ? 0 : 10 ** offExp);
          const sc = swap ? offsetScenario(shape, tri, off) : offsetScenario(tri, shape, off);
          const pair = swap ? `${o.type}-${tri.type}` : `${tri.type}-${o.type}`;
          const fails = replayScenario(sc, pair, { ops: OPS }).map((f) => `${f.op}: ${f.reason}`);
          expect(fails, JSON.stringify(sc)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
