/**
 * Contact manifolds by clipping, against independent oracles: the 2D intersection of the two
 * touching faces (pairwise edge intersections + convex hull), the corners of a tilted box below
 * the prediction distance, the closest points of two crossing edges, a capsule segment's
 * parametric interval inside a face, and a test-local SAT for two boxes (15 axes) that supplies
 * the contact the manifold builder starts from.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MANIFOLD_FEATURE_COS, MANIFOLD_TOLERANCE } from "../../src/constants.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  type Contact,
  type ContactManifold,
  MAX_MANIFOLD_POINTS,
  makeContactManifold,
} from "../../src/narrowphase/contact.js";
import { manifoldFromContact } from "../../src/narrowphase/manifold.js";
import { makePointProjection, projectPointShape } from "../../src/query/project-point.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { type Cuboid, makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";

type P2 = [number, number];

// ---------------------------------------------------------------------------------------------
// Oracles and helpers
// ---------------------------------------------------------------------------------------------

function hull2(points: P2[]): P2[] {
  const pts = points.slice().sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  if (pts.length < 3) return pts;
  const cross = (o: P2, a: P2, b: P2) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const chain = (list: P2[]) => {
    const h: P2[] = [];
    for (const p of list) {
      while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], p) <= 0) h.pop();
      h.push(p);
    }
    return h;
  };
  return chain(pts).slice(0, -1).concat(chain(pts.slice().reverse()).slice(0, -1));
}

function area2(poly: P2[]): number {
  let s = 0;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i];
    const b = poly[(i + 1) % poly.length];
    s += a[0] * b[1] - a[1] * b[0];
  }
  return Math.abs(s) / 2;
}

function insideConvex(poly: P2[], p: P2, eps: number): boolean {
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i];
    const b = poly[(i + 1) % poly.length];
    if ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < -eps) return false;
  }
  return true;
}

/** Intersection of two convex CCW polygons: hull of mutual inside vertices and edge crossings. */
function convexIntersection(p: P2[], q: P2[], eps: number): P2[] {
  const pts: P2[] = [];
  for (const v of p) if (insideConvex(q, v, eps)) pts.push(v);
  for (const v of q) if (insideConvex(p, v, eps)) pts.push(v);
  for (let i = 0; i < p.length; i++) {
    const a = p[i];
    const b = p[(i + 1) % p.length];
    for (let j = 0; j < q.length; j++) {
      const c = q[j];
      const d = q[(j + 1) % q.length];
      const den = (b[0] - a[0]) * (d[1] - c[1]) - (b[1] - a[1]) * (d[0] - c[0]);
      if (den === 0) continue;
      const t = ((c[0] - a[0]) * (d[1] - c[1]) - (c[1] - a[1]) * (d[0] - c[0])) / den;
      const u = ((c[0] - a[0]) * (b[1] - a[1]) - (c[1] - a[1]) * (b[0] - a[0])) / den;
      if (t >= 0 && t <= 1 && u >= 0 && u <= 1) {
        pts.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
      }
    }
  }
  return hull2(pts);
}

/** Points of `pts` merged when closer than tol. */
function distinct(pts: P2[], tol: number): P2[] {
  const out: P2[] = [];
  for (const p of pts) {
    if (!out.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) <= tol)) out.push(p);
  }
  return out;
}

function rect(hx: number, hy: number, cx: number, cy: number, theta: number): P2[] {
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const corners: P2[] = [
    [hx, hy],
    [-hx, hy],
    [-hx, -hy],
    [hx, -hy],
  ];
  return corners.map(([x, y]) => [cx + c * x - s * y, cy + s * x + c * y] as P2);
}

const Z = vec3.create(0, 0, 1);

function rotation(axis: Vec3, angle: number): Quat {
  const a = vec3.clone(axis);
  vec3.normalize(a, a);
  return quat.fromAxisAngle(quat.identity(), a, angle);
}

function pose(x: number, y: number, z: number, q: Quat = quat.identity()): Isometry {
  return iso.create(vec3.create(x, y, z), q);
}

function contactOf(normal: Vec3, distance: number, pointA: Vec3): Contact {
  const n = vec3.clone(normal);
  vec3.normalize(n, n);
  return {
    normal: n,
    distance,
    pointA: vec3.clone(pointA),
    pointB: vec3.addScaled(vec3.create(), pointA, n, distance),
  };
}

function boxCorners(h: Vec3, p: Isometry): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < 8; i++) {
    const c = vec3.create(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
    out.push(iso.transformPoint(c, p, c));
  }
  return out;
}

/** Closest points of segments p0p1 and q0q1 (Ericson 2005, §5.1.9, written for the test). */
function closestSegmentSegment(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3): [Vec3, Vec3] {
  const d1 = vec3.sub(vec3.create(), p1, p0);
  const d2 = vec3.sub(vec3.create(), q1, q0);
  const r = vec3.sub(vec3.create(), p0, q0);
  const a = vec3.dot(d1, d1);
  const e = vec3.dot(d2, d2);
  const f = vec3.dot(d2, r);
  const c = vec3.dot(d1, r);
  const b = vec3.dot(d1, d2);
  const den = a * e - b * b;
  let s = den > 0 ? Math.min(1, Math.max(0, (b * f - c * e) / den)) : 0;
  let t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = Math.min(1, Math.max(0, -c / a));
  } else if (t > 1) {
    t = 1;
    s = Math.min(1, Math.max(0, (b - c) / a));
  }
  return [vec3.addScaled(vec3.create(), p0, d1, s), vec3.addScaled(vec3.create(), q0, d2, t)];
}

/**
 * Test-local SAT for two boxes (A at the origin, B at bInA): the 15 axes, edge × edge axes
 * skipped when nearly parallel; the axis of largest separation (least penetration), face axes
 * winning ties. Witness points: B's deepest corner (A face), A's deepest corner (B face), or the
 * closest points of the two supporting edges (edge × edge).
 */
function satCuboids(
  hA: Vec3,
  hB: Vec3,
  bInA: Isometry,
): { contact: Contact; kind: "faceA" | "faceB" | "edge" } {
  const ax = [vec3.create(1, 0, 0), vec3.create(0, 1, 0), vec3.create(0, 0, 1)];
  const bx = ax.map((v) => quat.rotate(vec3.create(), bInA.rotation, v));
  const ha = [hA.x, hA.y, hA.z];
  const hb = [hB.x, hB.y, hB.z];
  const t = bInA.translation;
  let best = -Infinity;
  let bestN = vec3.create();
  let kind: "faceA" | "faceB" | "edge" = "faceA";
  let edgeI = 0;
  let edgeJ = 0;
  const consider = (l: Vec3, k: typeof kind, i: number, j: number, bias: number) => {
    const len = vec3.length(l);
    if (len < 1e-6) return;
    const n = vec3.scale(vec3.create(), l, 1 / len);
    if (vec3.dot(n, t) < 0) vec3.negate(n, n);
    let ra = 0;
    let rb = 0;
    for (let q = 0; q < 3; q++) {
      ra += ha[q] * Math.abs(vec3.dot(n, ax[q]));
      rb += hb[q] * Math.abs(vec3.dot(n, bx[q]));
    }
    const sep = vec3.dot(n, t) - ra - rb;
    if (sep > best + bias) {
      best = sep;
      bestN = n;
      kind = k;
      edgeI = i;
      edgeJ = j;
    }
  };
  for (let i = 0; i < 3; i++) consider(ax[i], "faceA", i, 0, 0);
  for (let i = 0; i < 3; i++) consider(bx[i], "faceB", i, 0, 1e-12);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++)
      consider(vec3.cross(vec3.create(), ax[i], bx[j]), "edge", i, j, 1e-9);
  }
  const n = bestN;
  const supportA = (dir: Vec3) =>
    vec3.create(dir.x >= 0 ? hA.x : -hA.x, dir.y >= 0 ? hA.y : -hA.y, dir.z >= 0 ? hA.z : -hA.z);
  const supportB = (dir: Vec3) => {
    const local = quat.inverseRotate(vec3.create(), bInA.rotation, dir);
    const p = vec3.create(
      local.x >= 0 ? hB.x : -hB.x,
      local.y >= 0 ? hB.y : -hB.y,
      local.z >= 0 ? hB.z : -hB.z,
    );
    return iso.transformPoint(p, bInA, p);
  };
  const negN = vec3.negate(vec3.create(), n);
  let pointA: Vec3;
  let pointB: Vec3;
  if (kind === "faceA") {
    pointB = supportB(negN);
    pointA = vec3.addScaled(vec3.create(), pointB, n, -best);
  } else if (kind === "faceB") {
    pointA = supportA(n);
    pointB = vec3.addScaled(vec3.create(), pointA, n, best);
  } else {
    const ca = supportA(n);
    vec3.setAxis(ca, edgeI, 0);
    const ea = vec3.scale(vec3.create(), ax[edgeI], ha[edgeI]);
    const cb = supportB(negN);
    const eb = vec3.scale(vec3.create(), bx[edgeJ], hb[edgeJ]);
    // B's supporting corner moved to its edge's midpoint along bx[edgeJ].
    const s = vec3.dot(vec3.sub(vec3.create(), cb, t), bx[edgeJ]);
    vec3.addScaled(cb, cb, bx[edgeJ], -s);
    [pointA, pointB] = closestSegmentSegment(
      vec3.sub(vec3.create(), ca, ea),
      vec3.add(vec3.create(), ca, ea),
      vec3.sub(vec3.create(), cb, eb),
      vec3.add(vec3.create(), cb, eb),
    );
  }
  return { contact: { normal: n, distance: best, pointA, pointB }, kind };
}

/** The inverse pose (allocates). */
function inverse(p: Isometry): Isometry {
  const q = quat.conjugate(quat.create(), p.rotation);
  const t = quat.rotate(vec3.create(), q, p.translation);
  return iso.create(vec3.negate(t, t), q);
}

/** The same contact seen with A and B exchanged, in B's frame. */
function flipContact(c: Contact, bInA: Isometry): Contact {
  const toB = inverse(bInA);
  const n = quat.inverseRotate(vec3.create(), bInA.rotation, c.normal);
  return {
    normal: vec3.negate(n, n),
    distance: c.distance,
    pointA: iso.transformPoint(vec3.create(), toB, c.pointB),
    pointB: iso.transformPoint(vec3.create(), toB, c.pointA),
  };
}

function build(
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): ContactManifold {
  return manifoldFromContact(makeContactManifold(), a, b, bInA, contact, prediction);
}

/**
 * Invariants every manifold keeps. With the shapes given, pointB − pointA may leave the normal
 * only where both points lie on their shapes' surfaces (two parallel segments offset sideways:
 * each point on its own segment, issue 16).
 */
function checkInvariants(
  m: ContactManifold,
  contact: Contact,
  tol: number,
  shapes?: { a: ConvexShape; b: ConvexShape; bInA: Isometry },
): void {
  expect(m.count).toBeGreaterThanOrEqual(1);
  expect(m.count).toBeLessThanOrEqual(MAX_MANIFOLD_POINTS);
  expect(Math.abs(vec3.length(m.normal) - 1)).toBeLessThan(1e-12);
  const ids = new Set<number>();
  for (let i = 0; i < m.count; i++) {
    const p = m.points[i];
    expect(vec3.isFiniteVec(p.pointA) && vec3.isFiniteVec(p.pointB)).toBe(true);
    expect(Number.isFinite(p.distance)).toBe(true);
    expect(Number.isSafeInteger(p.featureId) && p.featureId >= 0).toBe(true);
    ids.add(p.featureId);
    if (p.featureId === 0) {
      expect(m.count).toBe(1);
      expect(p.distance).toBe(contact.distance);
      continue;
    }
    const d = vec3.sub(vec3.create(), p.pointB, p.pointA);
    expect(Math.abs(vec3.dot(d, m.normal) - p.distance)).toBeLessThanOrEqual(tol);
    // pointB − pointA is along the normal, or both points are on their shapes.
    vec3.addScaled(d, d, m.normal, -p.distance);
    if (shapes !== undefined && vec3.length(d) > tol) {
      const { a, b, bInA } = shapes;
      const size = Math.max(1, vec3.length(p.pointA), vec3.length(p.pointB));
      const onA = projectPointShape(
        makePointProjection(),
        a,
        iso.create(vec3.create()),
        p.pointA,
        false,
      );
      const onB = projectPointShape(makePointProjection(), b, bInA, p.pointB, false);
      expect(onA.distance).toBeLessThanOrEqual(tol * size);
      expect(onB.distance).toBeLessThanOrEqual(tol * size);
    } else expect(vec3.length(d)).toBeLessThanOrEqual(tol);
  }
  expect(ids.size).toBe(m.count);
}

function near(a: Vec3, b: Vec3, tol: number): boolean {
  return vec3.distance(a, b) <= tol;
}

/** Manifold points of m (pointA, pointB, distance), as plain arrays for set comparisons. */
function pointsOf(m: ContactManifold): { a: Vec3; b: Vec3; d: number }[] {
  return m.points.slice(0, m.count).map((p) => ({
    a: vec3.clone(p.pointA),
    b: vec3.clone(p.pointB),
    d: p.distance,
  }));
}

/** Swapping A and B: same points with A/B exchanged (mapped back to A's frame), normal negated. */
function checkSwap(
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
  tol: number,
): void {
  const m1 = build(a, b, bInA, contact, prediction);
  const m2 = build(b, a, inverse(bInA), flipContact(contact, bInA), prediction);
  const n2 = quat.rotate(vec3.create(), bInA.rotation, m2.normal);
  expect(near(n2, vec3.negate(vec3.create(), m1.normal), 1e-9)).toBe(true);
  expect(m2.count).toBe(m1.count);
  const p1 = pointsOf(m1);
  const p2 = pointsOf(m2).map((p) => ({
    a: iso.transformPoint(vec3.create(), bInA, p.b),
    b: iso.transformPoint(vec3.create(), bInA, p.a),
    d: p.d,
  }));
  for (const p of p1) {
    const match = p2.some(
      (q) => near(p.a, q.a, tol) && near(p.b, q.b, tol) && Math.abs(p.d - q.d) <= tol,
    );
    expect(match).toBe(true);
  }
}

const scaleArb = fc.constantFrom(1e-3, 1, 1e4);

// ---------------------------------------------------------------------------------------------
// Face–face
// ---------------------------------------------------------------------------------------------

describe("manifoldFromContact: face–face", () => {
  it("a box resting on a bigger box gives the corners of the faces' overlap polygon", () => {
    fc.assert(
      fc.property(
        fc.record({
          ax: fc.double({ min: 0.5, max: 2, noNaN: true }),
          ay: fc.double({ min: 0.5, max: 2, noNaN: true }),
          az: fc.double({ min: 0.1, max: 2, noNaN: true }),
          bx: fc.double({ min: 0.1, max: 1.5, noNaN: true }),
          by: fc.double({ min: 0.1, max: 1.5, noNaN: true }),
          bz: fc.double({ min: 0.1, max: 1.5, noNaN: true }),
          ux: fc.double({ min: -1, max: 1, noNaN: true }),
          uy: fc.double({ min: -1, max: 1, noNaN: true }),
          theta: fc.oneof(
            fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
            fc.constantFrom(0, Math.PI / 4, Math.PI / 2),
          ),
          depth: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.05, noNaN: true })),
          prediction: fc.constantFrom(0, 0.02),
          scale: scaleArb,
          polyA: fc.boolean(),
        }),
        (r) => {
          const s = r.scale;
          const hA = vec3.create(r.ax * s, r.ay * s, r.az * s);
          const hB = vec3.create(r.bx * s, r.by * s, r.bz * s);
          const ox = r.ux * r.ax * s;
          const oy = r.uy * r.ay * s;
          const depth = r.depth * Math.min(r.az, r.bz) * s;
          const bInA = pose(ox, oy, hA.z + hB.z - depth, rotation(Z, r.theta));
          const a: ConvexShape = r.polyA ? boxPolyhedron(hA) : makeCuboid(hA);
          const b = makeCuboid(hB);
          const contact = contactOf(Z, -depth, vec3.create(ox, oy, hA.z));
          const m = build(a, b, bInA, contact, r.prediction * s);
          const tol = 1e-9 * s;
          checkInvariants(m, contact, tol);
          const overlap = convexIntersection(
            rect(hA.x, hA.y, 0, 0, 0),
            rect(hB.x, hB.y, ox, oy, r.theta),
            1e-12 * s,
          );
          const corners = distinct(overlap, 1e-7 * s);
          for (const p of pointsOf(m)) {
            expect(Math.abs(p.a.z - hA.z)).toBeLessThanOrEqual(tol);
            expect(Math.abs(p.b.z - (hA.z - depth))).toBeLessThanOrEqual(tol);
            expect(Math.abs(p.d + depth)).toBeLessThanOrEqual(tol);
            expect(corners.some((c) => Math.hypot(c[0] - p.a.x, c[1] - p.a.y) <= 1e-7 * s)).toBe(
              true,
            );
          }
          if (corners.length <= 4) {
            checkSwap(a, b, bInA, contact, r.prediction * s, 1e-8 * s);
            for (const c of corners) {
              const hit = pointsOf(m).some(
                (p) => Math.hypot(c[0] - p.a.x, c[1] - p.a.y) <= 1e-7 * s,
              );
              expect(hit).toBe(true);
            }
          } else {
            expect(m.count).toBe(4);
            // The kept quadrilateral is the best of all 4-subsets of the overlap's corners.
            const got = area2(hull2(pointsOf(m).map((p) => [p.a.x, p.a.y] as P2)));
            let best = 0;
            const k = corners.length;
            for (let i = 0; i < k; i++)
              for (let j = i + 1; j < k; j++)
                for (let l = j + 1; l < k; l++)
                  for (let q = l + 1; q < k; q++) {
                    best = Math.max(
                      best,
                      area2(hull2([corners[i], corners[j], corners[l], corners[q]])),
                    );
                  }
            expect(got).toBeGreaterThanOrEqual(0.9 * best);
          }
        },
      ),
      { numRuns: 250 },
    );
  });

  it("a box rotated 45° about the normal on a bigger box gives exactly its 4 corners", () => {
    const hA = vec3.create(2, 2, 1);
    const hB = vec3.create(0.5, 0.5, 0.5);
    const bInA = pose(0.3, -0.2, 1.5 - 0.01, rotation(Z, Math.PI / 4));
    const contact = contactOf(Z, -0.01, vec3.create(0.3, -0.2, 1));
    const m = build(makeCuboid(hA), makeCuboid(hB), bInA, contact, 0);
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(4);
    const r = 0.5 * Math.SQRT2;
    const want: P2[] = [
      [0.3 + r, -0.2],
      [0.3, -0.2 + r],
      [0.3 - r, -0.2],
      [0.3, -0.2 - r],
    ];
    for (const w of want) {
      const hit = pointsOf(m).find((p) => Math.hypot(p.b.x - w[0], p.b.y - w[1]) < 1e-12);
      expect(hit).toBeDefined();
      expect(hit?.b.z).toBeCloseTo(0.99, 12);
      expect(hit?.a.z).toBeCloseTo(1, 12);
      expect(hit?.d).toBeCloseTo(-0.01, 12);
    }
  });

  it("a box hanging over the edge gives the corners of the overlap rectangle", () => {
    const hA = vec3.create(1, 1, 1);
    const hB = vec3.create(0.5, 0.5, 0.5);
    const bInA = pose(0.8, 0, 1.5 - 0.01);
    const contact = contactOf(Z, -0.01, vec3.create(0.8, 0, 1));
    const m = build(makeCuboid(hA), makeCuboid(hB), bInA, contact, 0);
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(4);
    for (const w of [
      [0.3, -0.5],
      [1, -0.5],
      [1, 0.5],
      [0.3, 0.5],
    ]) {
      expect(pointsOf(m).some((p) => Math.hypot(p.a.x - w[0], p.a.y - w[1]) < 1e-12)).toBe(true);
    }
  });

  it("equal boxes exactly on top of each other, touching: their 4 shared corners", () => {
    const h = vec3.create(1, 2, 0.5);
    const contact = contactOf(Z, 0, vec3.create(0, 0, 0.5));
    const m = build(makeCuboid(h), makeCuboid(h), pose(0, 0, 1), contact, 0);
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(4);
    for (const p of pointsOf(m)) {
      expect(Math.abs(p.a.x)).toBe(1);
      expect(Math.abs(p.a.y)).toBe(2);
      expect(p.d).toBe(0);
    }
  });

  it("a flat box (zero half extent) resting on a box gives its 4 corners", () => {
    const contact = contactOf(Z, -0.001, vec3.create(0, 0, 1));
    const m = build(
      makeCuboid(vec3.create(3, 3, 1)),
      makeCuboid(vec3.create(0.5, 0.25, 0)),
      pose(0, 0, 0.999),
      contact,
      0,
    );
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(4);
  });

  it("a convex polyhedron box gives the same manifold as the cuboid (oracle: the cuboid)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        (theta, ox, oy) => {
          const hA = vec3.create(1.5, 1.5, 1);
          const hB = vec3.create(0.7, 0.4, 0.3);
          const bInA = pose(ox, oy, 1.3 - 0.02, rotation(Z, theta));
          const contact = contactOf(Z, -0.02, vec3.create(ox, oy, 1));
          const m1 = build(makeCuboid(hA), makeCuboid(hB), bInA, contact, 0);
          const m2 = build(boxPolyhedron(hA), boxPolyhedron(hB), bInA, contact, 0);
          expect(m2.count).toBe(m1.count);
          for (const p of pointsOf(m1)) {
            expect(pointsOf(m2).some((q) => near(p.a, q.a, 1e-9) && near(p.b, q.b, 1e-9))).toBe(
              true,
            );
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("a hexagonal prism on a box keeps 4 of its 6 bottom corners, the largest quadrilateral", () => {
    const pts: Vec3[] = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 3) * i;
      pts.push(
        vec3.create(Math.cos(a), Math.sin(a), -0.5),
        vec3.create(Math.cos(a), Math.sin(a), 0.5),
      );
    }
    const prism = makeConvexPolyhedron(pts);
    const contact = contactOf(Z, -0.01, vec3.create(0, 0, 1));
    const m = build(makeCuboid(vec3.create(3, 3, 1)), prism, pose(0, 0, 1.49), contact, 0);
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(4);
    const quad = pointsOf(m).map((p) => [p.b.x, p.b.y] as P2);
    for (const q of quad) expect(Math.hypot(q[0], q[1])).toBeCloseTo(1, 12);
    // Best 4 of a regular hexagon's corners: a rectangle of area √3.
    expect(area2(hull2(quad))).toBeCloseTo(Math.sqrt(3), 10);
  });
});

/** A box as a convex polyhedron (through the hull builder). */
function boxPolyhedron(h: Vec3) {
  const pts: Vec3[] = [];
  for (let i = 0; i < 8; i++) {
    pts.push(vec3.create(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z));
  }
  return makeConvexPolyhedron(pts);
}

// ---------------------------------------------------------------------------------------------
// Tilted boxes, edges
// ---------------------------------------------------------------------------------------------

describe("manifoldFromContact: tilted and edge contacts", () => {
  it("a tilted box on a big box: the corners within the prediction distance, exact distances", () => {
    fc.assert(
      fc.property(
        fc.record({
          h: fc.tuple(
            fc.double({ min: 0.3, max: 1, noNaN: true }),
            fc.double({ min: 0.3, max: 1, noNaN: true }),
            fc.double({ min: 0.3, max: 1, noNaN: true }),
          ),
          tiltAxis: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
          tilt: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.5, noNaN: true })),
          spin: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
          x: fc.double({ min: -2, max: 2, noNaN: true }),
          y: fc.double({ min: -2, max: 2, noNaN: true }),
          depth: fc.double({ min: 0, max: 0.05, noNaN: true }),
          prediction: fc.double({ min: 0, max: 0.2, noNaN: true }),
          scale: scaleArb,
          swap: fc.boolean(),
        }),
        (r) => {
          const s = r.scale;
          const hA = vec3.create(5 * s, 5 * s, 1 * s);
          const hB = vec3.create(r.h[0] * s, r.h[1] * s, r.h[2] * s);
          const q = quat.multiply(
            quat.create(),
            rotation(vec3.create(Math.cos(r.tiltAxis), Math.sin(r.tiltAxis), 0), r.tilt),
            rotation(Z, r.spin),
          );
          const p0 = pose(0, 0, 0, q);
          const lowest = Math.min(...boxCorners(hB, p0).map((c) => c.z));
          const depth = r.depth * s;
          const bInA = pose(r.x * s, r.y * s, hA.z - depth - lowest, q);
          const corners = boxCorners(hB, bInA);
          const prediction = r.prediction * s;
          const contact = contactOf(Z, -depth, vec3.create(0, 0, hA.z));
          const a = makeCuboid(hA);
          const b = makeCuboid(hB);
          const tol = 1e-9 * s;
          const m = build(a, b, bInA, contact, prediction);
          checkInvariants(m, contact, tol);
          const dist = (c: Vec3) => c.z - hA.z;
          const required = corners.filter((c) => dist(c) <= prediction + tol);
          const allowed = corners.filter((c) => dist(c) <= prediction + MANIFOLD_TOLERANCE + tol);
          expect(required.length).toBeGreaterThanOrEqual(1);
          for (const c of required) {
            expect(pointsOf(m).some((p) => near(p.b, c, tol))).toBe(true);
          }
          for (const p of pointsOf(m)) {
            const c = allowed.find((k) => near(p.b, k, tol));
            expect(c).toBeDefined();
            if (!c) continue;
            expect(Math.abs(p.d - dist(c))).toBeLessThanOrEqual(tol);
            expect(near(p.a, vec3.create(c.x, c.y, hA.z), tol)).toBe(true);
          }
          if (r.swap) checkSwap(a, b, bInA, contact, prediction, tol);
        },
      ),
      { numRuns: 250 },
    );
  });

  it("crossing edges (boxes on their edges, rotated so the edges cross): 1–2 points at the true contact", () => {
    fc.assert(
      fc.property(
        fc.record({
          ha: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
          hb: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
          lenA: fc.double({ min: 0.5, max: 2, noNaN: true }),
          lenB: fc.double({ min: 0.5, max: 2, noNaN: true }),
          wa: fc.tuple(
            fc.double({ min: -0.1, max: 0.1, noNaN: true }),
            fc.double({ min: -0.1, max: 0.1, noNaN: true }),
            fc.double({ min: -0.1, max: 0.1, noNaN: true }),
          ),
          wb: fc.tuple(
            fc.double({ min: -0.1, max: 0.1, noNaN: true }),
            fc.double({ min: -0.1, max: 0.1, noNaN: true }),
            fc.double({ min: -0.1, max: 0.1, noNaN: true }),
          ),
          cross: fc.double({ min: 0.3, max: Math.PI / 2, noNaN: true }),
          u: fc.double({ min: -0.7, max: 0.7, noNaN: true }),
          v: fc.double({ min: -0.7, max: 0.7, noNaN: true }),
          depth: fc.double({ min: 0, max: 0.05, noNaN: true }),
          scale: scaleArb,
        }),
        (r) => {
          const s = r.scale;
          // A stands on an edge along y (rotated 45° about y); B hangs on an edge along a
          // horizontal direction at angle `cross` to y; both slightly perturbed.
          const perturb = (w: [number, number, number]) => {
            const ax = vec3.create(w[0], w[1], w[2]);
            const ang = vec3.length(ax);
            return ang > 0 ? rotation(ax, ang) : quat.identity();
          };
          const hA = vec3.create(r.ha * s, r.lenA * s, r.ha * s);
          const hB = vec3.create(r.lenB * s, r.hb * s, r.hb * s);
          const qA = quat.multiply(
            quat.create(),
            perturb(r.wa),
            rotation(vec3.create(0, 1, 0), Math.PI / 4),
          );
          const qB0 = quat.multiply(
            quat.create(),
            rotation(Z, r.cross - Math.PI / 2),
            rotation(vec3.create(1, 0, 0), Math.PI / 4),
          );
          const qB = quat.multiply(quat.create(), perturb(r.wb), qB0);
          // Work in A's frame: B's pose relative to A.
          const qAinv = quat.conjugate(quat.create(), qA);
          const relQ = quat.multiply(quat.create(), qAinv, qB);
          const topA = Math.max(...boxCorners(hA, pose(0, 0, 0, qA)).map((c) => c.z));
          const botB = Math.min(...boxCorners(hB, pose(0, 0, 0, qB)).map((c) => c.z));
          const tW = vec3.create(r.u * s, r.v * s, topA - botB - r.depth * s);
          const relT = quat.rotate(vec3.create(), qAinv, tW);
          const bInA = pose(relT.x, relT.y, relT.z, relQ);
          const { contact, kind } = satCuboids(hA, hB, bInA);
          fc.pre(kind === "edge" && contact.distance <= 0);
          // Edge–edge proper: no face of either box within the face-contact cone of the normal
          // (else a face clip legitimately finds other penetrating points).
          const nB = quat.inverseRotate(vec3.create(), bInA.rotation, contact.normal);
          const maxCos = (v: Vec3) => Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
          fc.pre(
            maxCos(contact.normal) < MANIFOLD_FEATURE_COS && maxCos(nB) < MANIFOLD_FEATURE_COS,
          );
          // Oracle: the closest points of A's two highest and B's two lowest corners' edges,
          // along the contact normal.
          const n = contact.normal;
          const ca = boxCorners(hA, pose(0, 0, 0)).sort((p, q) => vec3.dot(q, n) - vec3.dot(p, n));
          const cb = boxCorners(hB, bInA).sort((p, q) => vec3.dot(p, n) - vec3.dot(q, n));
          const [tA, tB] = closestSegmentSegment(ca[0], ca[1], cb[0], cb[1]);
          const tol = 1e-9 * s;
          expect(
            Math.abs(vec3.dot(vec3.sub(vec3.create(), tB, tA), n) - contact.distance),
          ).toBeLessThanOrEqual(tol);
          const m = build(makeCuboid(hA), makeCuboid(hB), bInA, contact, 0);
          checkInvariants(m, contact, tol);
          expect(m.count).toBeLessThanOrEqual(2);
          for (const p of pointsOf(m)) {
            expect(near(p.a, tA, 1e-7 * s)).toBe(true);
            expect(near(p.b, tB, 1e-7 * s)).toBe(true);
            expect(Math.abs(p.d - contact.distance)).toBeLessThanOrEqual(1e-7 * s);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a box edge lying on a face gives the 2 ends of the edge", () => {
    const hB = vec3.create(0.5, 0.5, 0.5);
    const q = rotation(vec3.create(1, 0, 0), Math.PI / 4);
    const low = 0.5 * Math.SQRT2;
    const bInA = pose(0, 0, 1 + low - 0.01, q);
    const contact = contactOf(Z, -0.01, vec3.create(0, 0, 1));
    const m = build(makeCuboid(vec3.create(2, 2, 1)), makeCuboid(hB), bInA, contact, 0);
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(2);
    for (const p of pointsOf(m)) {
      expect(Math.abs(p.b.x)).toBeCloseTo(0.5, 12);
      expect(p.b.y).toBeCloseTo(0, 12);
      expect(p.d).toBeCloseTo(-0.01, 12);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Rounded and curved shapes, triangles
// ---------------------------------------------------------------------------------------------

describe("manifoldFromContact: capsules, cylinders, cones, spheres, triangles", () => {
  it("a capsule lying on a box: 2 points, its segment's ends clipped to the face", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        fc.double({ min: 0.05, max: 0.5, noNaN: true }),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.double({ min: -0.95, max: 0.95, noNaN: true }),
        fc.double({ min: -0.95, max: 0.95, noNaN: true }),
        fc.double({ min: 0, max: 0.04, noNaN: true }),
        scaleArb,
        fc.boolean(),
        (len, radius, theta, u, v, depth0, s, swap) => {
          const hA = vec3.create(1 * s, 1.5 * s, 0.5 * s);
          const cap = makeCapsule(
            vec3.create(-len * s, 0, 0),
            vec3.create(len * s, 0, 0),
            radius * s,
          );
          const depth = depth0 * radius * s;
          const cx = u * hA.x;
          const cy = v * hA.y;
          const bInA = pose(cx, cy, hA.z + radius * s - depth, rotation(Z, theta));
          const contact = contactOf(Z, -depth, vec3.create(cx, cy, hA.z));
          const a = makeCuboid(hA);
          const tol = 1e-9 * s;
          const m = build(a, cap, bInA, contact, 0);
          checkInvariants(m, contact, tol);
          // Oracle: the parametric interval of the projected segment inside the face.
          const dx = Math.cos(theta) * len * s;
          const dy = Math.sin(theta) * len * s;
          let lo = -1;
          let hi = 1;
          for (const [d, c, h] of [
            [dx, cx, hA.x],
            [dy, cy, hA.y],
          ]) {
            if (d === 0) continue;
            const t0 = (-h - c) / d;
            const t1 = (h - c) / d;
            lo = Math.max(lo, Math.min(t0, t1));
            hi = Math.min(hi, Math.max(t0, t1));
          }
          const ends = [lo, hi].map((t) => vec3.create(cx + t * dx, cy + t * dy, hA.z));
          expect(m.count).toBe(2);
          for (const e of ends) {
            const p = pointsOf(m).find((k) => near(k.a, e, 1e-8 * s));
            expect(p).toBeDefined();
            expect(Math.abs((p?.d ?? 0) + depth)).toBeLessThanOrEqual(tol);
          }
          if (swap) checkSwap(a, cap, bInA, contact, 0, 1e-8 * s);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a capsule standing on a box: 1 point, the given contact", () => {
    const cap = makeCapsule(vec3.create(0, 0, -1), vec3.create(0, 0, 1), 0.3);
    const contact = contactOf(Z, -0.01, vec3.create(0.2, 0.1, 1));
    const m = build(makeCuboid(vec3.create(2, 2, 1)), cap, pose(0.2, 0.1, 2.29), contact, 0.02);
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(1);
    expect(vec3.exactEquals(m.points[0].pointA, contact.pointA)).toBe(true);
    expect(vec3.exactEquals(m.points[0].pointB, contact.pointB)).toBe(true);
    expect(m.points[0].featureId).toBe(0);
  });

  it("parallel capsules give 2 points over their overlap; crossing capsules give 1", () => {
    const a = makeCapsule(vec3.create(-1, 0, 0), vec3.create(1, 0, 0), 0.2);
    const b = makeCapsule(vec3.create(-1, 0, 0), vec3.create(1, 0, 0), 0.3);
    const contact = contactOf(Z, -0.01, vec3.create(0.5, 0, 0.2));
    const m = build(a, b, pose(0.5, 0, 0.49), contact, 0);
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(2);
    const xs = pointsOf(m)
      .map((p) => p.a.x)
      .sort((p, q) => p - q);
    expect(xs[0]).toBeCloseTo(-0.5, 12);
    expect(xs[1]).toBeCloseTo(1, 12);
    for (const p of pointsOf(m)) {
      expect(p.a.z).toBeCloseTo(0.2, 12);
      expect(p.b.z).toBeCloseTo(0.19, 12);
    }
    const crossing = build(
      a,
      b,
      pose(0, 0, 0.49, rotation(Z, 0.5)),
      contactOf(Z, -0.01, vec3.create(0, 0, 0.2)),
      0,
    );
    expect(crossing.count).toBe(1);
  });

  it("a cylinder standing on a box: 4 rim points, exact depth; overhanging: points inside both", () => {
    const cyl = makeCylinder(0.5, 0.8);
    const up = rotation(vec3.create(1, 0, 0), Math.PI / 2); // cylinder +Y → +Z
    const contact = contactOf(Z, -0.02, vec3.create(0, 0, 1));
    const m = build(makeCuboid(vec3.create(2, 2, 1)), cyl, pose(0.3, 0.2, 1.48, up), contact, 0);
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(4);
    for (const p of pointsOf(m)) {
      expect(Math.hypot(p.b.x - 0.3, p.b.y - 0.2)).toBeCloseTo(0.8, 12);
      expect(p.d).toBeCloseTo(-0.02, 12);
    }
    const over = build(
      makeCuboid(vec3.create(0.5, 0.5, 1)),
      cyl,
      pose(0.6, 0, 1.48, up),
      contact,
      0,
    );
    checkInvariants(over, contact, 1e-12);
    expect(over.count).toBeGreaterThanOrEqual(3);
    for (const p of pointsOf(over)) {
      expect(Math.abs(p.a.x)).toBeLessThanOrEqual(0.5 + 1e-12);
      expect(Math.abs(p.a.y)).toBeLessThanOrEqual(0.5 + 1e-12);
      expect(Math.hypot(p.a.x - 0.6, p.a.y)).toBeLessThanOrEqual(0.8 + 1e-12);
    }
  });

  it("a slightly tilted cylinder keeps its exact deepest rim point", () => {
    const cyl = makeCylinder(0.5, 0.8);
    const tilt = 0.1;
    const q = quat.multiply(
      quat.create(),
      rotation(vec3.create(0, 1, 0), tilt),
      rotation(vec3.create(1, 0, 0), Math.PI / 2),
    );
    // Lowest point: the rim point under the tilt, at height −(h cos t + r sin t) from the centre.
    const low = 0.5 * Math.cos(tilt) + 0.8 * Math.sin(tilt);
    const contact = contactOf(Z, -0.01, vec3.create(0, 0, 1));
    const m = build(
      makeCuboid(vec3.create(3, 3, 1)),
      cyl,
      pose(0, 0, 1 + low - 0.01, q),
      contact,
      0.02,
    );
    checkInvariants(m, contact, 1e-12);
    const deepest = Math.min(...pointsOf(m).map((p) => p.d));
    expect(deepest).toBeCloseTo(-0.01, 12);
    for (const p of pointsOf(m)) expect(p.d).toBeLessThanOrEqual(0.02 + MANIFOLD_TOLERANCE);
  });

  it("a cylinder or a cone lying on its side gives 2 points along the touching line", () => {
    const contact = contactOf(Z, -0.01, vec3.create(0, 0, 1));
    const cyl = build(
      makeCuboid(vec3.create(3, 3, 1)),
      makeCylinder(0.7, 0.4),
      pose(0, 0, 1.39),
      contact,
      0,
    );
    checkInvariants(cyl, contact, 1e-12);
    expect(cyl.count).toBe(2);
    for (const p of pointsOf(cyl)) {
      expect(Math.abs(p.b.y)).toBeCloseTo(0.7, 12);
      expect(p.d).toBeCloseTo(-0.01, 12);
    }
    // Cone: half height 1, radius 0.5; lying with its slant line down.
    const h = 1;
    const r = 0.5;
    const slope = Math.atan2(r, 2 * h);
    const q = rotation(vec3.create(1, 0, 0), -slope);
    const cone = makeCone(h, r);
    const apex = quat.rotate(vec3.create(), q, vec3.create(0, h, 0));
    const rim = quat.rotate(vec3.create(), q, vec3.create(0, -h, -r));
    const lowZ = Math.min(apex.z, rim.z);
    const m = build(
      makeCuboid(vec3.create(3, 3, 1)),
      cone,
      pose(0, 0, 1 - lowZ - 0.01, q),
      contact,
      0,
    );
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(2);
    for (const p of pointsOf(m)) expect(p.d).toBeCloseTo(-0.01, 12);
  });

  it("a cone on its base gives 4 rim points; on its apex, 1 point", () => {
    const cone = makeCone(1, 0.5);
    const up = rotation(vec3.create(1, 0, 0), Math.PI / 2);
    const contact = contactOf(Z, -0.01, vec3.create(0, 0, 1));
    const base = build(makeCuboid(vec3.create(3, 3, 1)), cone, pose(0, 0, 1.99, up), contact, 0);
    checkInvariants(base, contact, 1e-12);
    expect(base.count).toBe(4);
    for (const p of pointsOf(base)) expect(Math.hypot(p.b.x, p.b.y)).toBeCloseTo(0.5, 12);
    const down = rotation(vec3.create(1, 0, 0), -Math.PI / 2);
    const apex = build(makeCuboid(vec3.create(3, 3, 1)), cone, pose(0, 0, 1.99, down), contact, 0);
    expect(apex.count).toBe(1);
  });

  it("a sphere gives the single given contact", () => {
    const contact = contactOf(Z, -0.01, vec3.create(0, 0, 1));
    const m = build(
      makeCuboid(vec3.create(1, 1, 1)),
      makeSphere(0.5),
      pose(0, 0, 1.49),
      contact,
      0.1,
    );
    expect(m.count).toBe(1);
    expect(m.points[0].featureId).toBe(0);
  });

  it("a box on a triangle (also 1e6 from the origin) gives the triangle ∩ face corners", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.constantFrom(0, 1e6),
        (theta, ox, oy, far) => {
          const tri: P2[] = [
            [-1, -1],
            [2, -0.5],
            [-0.5, 1.5],
          ];
          const t = makeTriangle(
            vec3.create(far + tri[0][0], far + tri[0][1], far),
            vec3.create(far + tri[1][0], far + tri[1][1], far),
            vec3.create(far + tri[2][0], far + tri[2][1], far),
          );
          const hB = vec3.create(0.6, 0.3, 0.2);
          const bInA = pose(far + ox, far + oy, far + 0.2 - 0.01, rotation(Z, theta));
          const contact = contactOf(Z, -0.01, vec3.create(far + ox, far + oy, far));
          const m = build(t, makeCuboid(hB), bInA, contact, 0);
          const tol = far ? 1e-8 * far : 1e-12;
          checkInvariants(m, contact, tol);
          const corners = distinct(
            convexIntersection(tri, rect(hB.x, hB.y, ox, oy, theta), 1e-12),
            1e-6,
          );
          for (const p of pointsOf(m)) {
            expect(
              corners.some((c) => Math.hypot(c[0] + far - p.a.x, c[1] + far - p.a.y) <= 1e-6),
            ).toBe(true);
            expect(Math.abs(p.d + 0.01)).toBeLessThanOrEqual(tol);
          }
          expect(m.count).toBe(Math.min(4, corners.length));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("an edge-on triangle touching a box face gives the 2 ends of its lower edge", () => {
    const t = makeTriangle(vec3.create(-0.5, 0, 0), vec3.create(0.5, 0, 0), vec3.create(0, 0, 1));
    const contact = contactOf(Z, -0.01, vec3.create(0, 0, 1));
    const m = build(makeCuboid(vec3.create(2, 2, 1)), t, pose(0.1, 0.2, 0.99), contact, 0.02);
    checkInvariants(m, contact, 1e-12);
    expect(m.count).toBe(2);
    const xs = pointsOf(m)
      .map((p) => p.b.x)
      .sort((p, q) => p - q);
    expect(xs[0]).toBeCloseTo(-0.4, 12);
    expect(xs[1]).toBeCloseTo(0.6, 12);
    // Swapped: the edge-on triangle is A, the box face is the reference.
    checkSwap(makeCuboid(vec3.create(2, 2, 1)), t, pose(0.1, 0.2, 0.99), contact, 0.02, 1e-12);
  });
});

// ---------------------------------------------------------------------------------------------
// Robustness
// ---------------------------------------------------------------------------------------------

const shapeArb: fc.Arbitrary<ConvexShape> = fc.oneof(
  fc.double({ min: 0.1, max: 2, noNaN: true }).map((r) => makeSphere(r)),
  fc
    .tuple(
      fc.double({ min: 0, max: 2, noNaN: true }),
      fc.double({ min: 0, max: 2, noNaN: true }),
      fc.double({ min: 0, max: 2, noNaN: true }),
    )
    .map(([x, y, z]) => makeCuboid(vec3.create(x, y, z)) as Cuboid),
  fc
    .tuple(fc.double({ min: 0, max: 2, noNaN: true }), fc.double({ min: 0.1, max: 1, noNaN: true }))
    .map(([l, r]) => makeCapsule(vec3.create(0, -l, 0), vec3.create(0, l, 0), r)),
  fc
    .tuple(
      fc.double({ min: 0.1, max: 2, noNaN: true }),
      fc.double({ min: 0.1, max: 2, noNaN: true }),
    )
    .map(([h, r]) => makeCylinder(h, r)),
  fc
    .tuple(
      fc.double({ min: 0.1, max: 2, noNaN: true }),
      fc.double({ min: 0.1, max: 2, noNaN: true }),
    )
    .map(([h, r]) => makeCone(h, r)),
  fc
    .constant(null)
    .map(() => makeTriangle(vec3.create(0, 0, 0), vec3.create(1, 0, 0), vec3.create(0, 1, 0))),
  fc
    .constant(null)
    .map(() => makeTriangle(vec3.create(0, 0, 0), vec3.create(1, 0, 0), vec3.create(2, 0, 0))),
  fc.constant(null).map(() => boxPolyhedron(vec3.create(0.5, 1, 0.7))),
);

const unitArb = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .map(([x, y, z]) => vec3.create(x, y, z))
  .filter((v) => vec3.length(v) > 0.1)
  .map((v) => vec3.scale(v, v, 1 / vec3.length(v)));

describe("manifoldFromContact: robustness", () => {
  it("any shapes, poses and normals: 1–4 finite points, distances along the normal, deterministic ids", () => {
    fc.assert(
      fc.property(
        shapeArb,
        shapeArb,
        unitArb,
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.tuple(
          fc.double({ min: -3, max: 3, noNaN: true }),
          fc.double({ min: -3, max: 3, noNaN: true }),
          fc.double({ min: -3, max: 3, noNaN: true }),
        ),
        fc.oneof(unitArb, fc.constantFrom(Z, vec3.create(0, 1, 0), vec3.create(1, 0, 0))),
        fc.double({ min: -0.5, max: 0.1, noNaN: true }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (a, b, axis, angle, [x, y, z], normal, distance, prediction) => {
          const bInA = pose(x, y, z, rotation(axis, angle));
          const contact = contactOf(normal, distance, vec3.create(x / 2, y / 2, z / 2));
          const m = build(a, b, bInA, contact, prediction);
          checkInvariants(m, contact, 1e-9, { a, b, bInA });
          const again = build(a, b, bInA, contact, prediction);
          expect(again.count).toBe(m.count);
          for (let i = 0; i < m.count; i++) {
            expect(again.points[i].featureId).toBe(m.points[i].featureId);
            expect(vec3.exactEquals(again.points[i].pointA, m.points[i].pointA)).toBe(true);
          }
          for (const p of pointsOf(m)) {
            expect(p.d).toBeLessThanOrEqual(
              Math.max(prediction, distance) + MANIFOLD_TOLERANCE + 1e-9,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a zero or NaN normal, or a NaN prediction, gives the single given contact without NaN", () => {
    const a = makeCuboid(vec3.create(1, 1, 1));
    const c: Contact = {
      normal: vec3.create(0, 0, 0),
      distance: -0.01,
      pointA: vec3.create(0, 0, 1),
      pointB: vec3.create(0, 0, 0.99),
    };
    let m = build(a, a, pose(0, 0, 1.99), c, 0);
    expect(m.count).toBe(1);
    expect(vec3.exactEquals(m.points[0].pointB, c.pointB)).toBe(true);
    c.normal = vec3.create(Number.NaN, 0, 1);
    m = build(a, a, pose(0, 0, 1.99), c, 0);
    expect(m.count).toBe(1);
    c.normal = vec3.create(0, 0, 2);
    m = build(a, a, pose(0, 0, 1.99), c, Number.NaN);
    expect(m.count).toBe(1);
    expect(vec3.equals(m.normal, Z, 0)).toBe(true);
  });

  it("reuses the same manifold object and overwrites stale points", () => {
    const out = makeContactManifold();
    const a = makeCuboid(vec3.create(1, 1, 1));
    const contact = contactOf(Z, -0.01, vec3.create(0, 0, 1));
    manifoldFromContact(out, a, a, pose(0, 0, 1.99), contact, 0);
    expect(out.count).toBe(4);
    manifoldFromContact(out, a, makeSphere(1), pose(0, 0, 1.99), contact, 0);
    expect(out.count).toBe(1);
    expect(out.points[0].featureId).toBe(0);
  });
});
