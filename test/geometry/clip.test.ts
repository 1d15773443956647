/**
 * Sutherland–Hodgman clipping and manifold reduction against independent oracles: clipped
 * polygons against the convex hull of (inside vertices ∪ edge crossings), polygon–polygon
 * clipping against a 2D convex intersection built from pairwise edge intersections, segment
 * clipping against a per-plane parametric interval, and the 4-point reduction against a brute
 * force over every 4-subset.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ClipPolygon,
  clipPolygonAgainstPolygon,
  clipPolygonByPlane,
  hullArea4,
  makeClipPolygon,
  reduceManifoldPoints,
} from "../../src/geometry/clip.js";
import type { Quat } from "../../src/math/quat.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { pushClipVertex } from "../support/clip-polygon.js";

type P2 = [number, number];

/** 2D convex hull (monotone chain), counter-clockwise, collinear and duplicate points dropped. */
function hull2(points: P2[], eps: number): P2[] {
  const pts = points.slice().sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  if (pts.length < 3) return pts;
  const cross = (o: P2, a: P2, b: P2) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: P2[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= eps) {
      lower.pop();
    }
    lower.push(p);
  }
  const upper: P2[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= eps) {
      upper.pop();
    }
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
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
  return hull2(pts, 0);
}

/** A frame: the plane through `origin` spanned by u, v (rotation q applied to x, y). */
interface Frame {
  q: Quat;
  origin: Vec3;
  scale: number;
}

function toWorld(f: Frame, p: P2): Vec3 {
  const v = quat.rotate(vec3.create(), f.q, vec3.create(p[0] * f.scale, p[1] * f.scale, 0));
  return vec3.add(v, v, f.origin);
}

function toPlane(f: Frame, x: number, y: number, z: number): P2 {
  const v = vec3.create(x - f.origin.x, y - f.origin.y, z - f.origin.z);
  quat.inverseRotate(v, f.q, v);
  return [v.x / f.scale, v.y / f.scale];
}

function fillPolygon(poly: ClipPolygon, f: Frame, pts: P2[]): ClipPolygon {
  poly.count = 0;
  pts.forEach((p, i) => {
    const w = toWorld(f, p);
    pushClipVertex(poly, w.x, w.y, w.z, i + 1);
  });
  return poly;
}

function polygonPoints(poly: ClipPolygon, f: Frame): P2[] {
  const out: P2[] = [];
  for (let i = 0; i < poly.count; i++) {
    out.push(toPlane(f, poly.xyz[3 * i], poly.xyz[3 * i + 1], poly.xyz[3 * i + 2]));
  }
  return out;
}

/**
 * A convex polygon: 3–9 points on an ellipse, counter-clockwise. Angles come from positive gap
 * weights, so they are distinct without a filter (fast-check's bias toward repeated values
 * would make a filter reject most draws).
 */
const convexPolygonArb = fc
  .record({
    gaps: fc.array(fc.double({ min: 0.3, max: 1, noNaN: true }), { minLength: 3, maxLength: 9 }),
    start: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    rx: fc.double({ min: 0.2, max: 2, noNaN: true }),
    ry: fc.double({ min: 0.2, max: 2, noNaN: true }),
    cx: fc.double({ min: -1, max: 1, noNaN: true }),
    cy: fc.double({ min: -1, max: 1, noNaN: true }),
  })
  .map(({ gaps, start, rx, ry, cx, cy }) => {
    const total = gaps.reduce((x, y) => x + y, 0);
    let a = start;
    const pts: P2[] = [];
    for (const g of gaps) {
      pts.push([cx + rx * Math.cos(a), cy + ry * Math.sin(a)]);
      a += (2 * Math.PI * g) / total;
    }
    return hull2(pts, 1e-9);
  });

const frameArb = fc
  .record({
    axis: fc.tuple(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
    ),
    angle: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
    scale: fc.constantFrom(1e-3, 1, 1e4),
    far: fc.constantFrom(0, 1e6),
  })
  .map(({ axis, angle, scale, far }): Frame => {
    const a = vec3.create(axis[0], axis[1], axis[2]);
    if (!(vec3.length(a) > 0.1)) vec3.set(a, 0, 0, 1);
    vec3.normalize(a, a);
    return {
      q: quat.fromAxisAngle(quat.identity(), a, angle),
      origin: vec3.create(far, -far, 0.5 * far),
      scale,
    };
  });

function frameNormal(f: Frame): Vec3 {
  return quat.rotate(vec3.create(), f.q, vec3.create(0, 0, 1));
}

/** Every point of `got` is near a point of `want` and vice versa (2D, tolerance tol). */
function sameVertexSets(got: P2[], want: P2[], tol: number): boolean {
  const near = (p: P2, set: P2[]) => set.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) <= tol);
  return got.every((p) => near(p, want)) && want.every((p) => near(p, got));
}

const scratch = makeClipPolygon(4);
const subject = makeClipPolygon(4);
const clipper = makeClipPolygon(4);
const out = makeClipPolygon(4);

describe("clipPolygonByPlane", () => {
  it("equals the hull of the inside vertices and the edge crossings", () => {
    fc.assert(
      fc.property(
        convexPolygonArb,
        frameArb,
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        (poly, frame, theta, c) => {
          // Half-plane {p : (cos θ, sin θ)·p ≤ c} in the polygon's plane, as a 3D plane.
          const d2: P2 = [Math.cos(theta), Math.sin(theta)];
          const dir = quat.rotate(vec3.create(), frame.q, vec3.create(d2[0], d2[1], 0));
          const offset = c * frame.scale + vec3.dot(dir, frame.origin);
          fillPolygon(subject, frame, poly);
          clipPolygonByPlane(out, subject, dir.x, dir.y, dir.z, offset, 0);
          const pts: P2[] = poly.filter((p) => p[0] * d2[0] + p[1] * d2[1] <= c);
          for (let i = 0; i < poly.length; i++) {
            const a = poly[i];
            const b = poly[(i + 1) % poly.length];
            const da = a[0] * d2[0] + a[1] * d2[1] - c;
            const db = b[0] * d2[0] + b[1] * d2[1] - c;
            if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
              const t = da / (da - db);
              pts.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
            }
          }
          const want = hull2(pts, 1e-12);
          const got = polygonPoints(out, frame);
          const tol = 1e-7 + (frame.origin.x !== 0 ? 1e-8 / frame.scale : 0);
          expect(Math.abs(area2(hull2(got, 1e-12)) - area2(want))).toBeLessThanOrEqual(4 * tol);
          expect(sameVertexSets(hull2(got, 1e-12), want, tol)).toBe(true);
          for (const p of got) expect(p[0] * d2[0] + p[1] * d2[1]).toBeLessThanOrEqual(c + tol);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps a vertex lying on the plane once, never duplicating it", () => {
    subject.count = 0;
    pushClipVertex(subject, 0, 0, 0, 1);
    pushClipVertex(subject, 1, 0, 0, 2);
    pushClipVertex(subject, 1, 1, 0, 3);
    pushClipVertex(subject, 0, 1, 0, 4);
    clipPolygonByPlane(out, subject, 1, 0, 0, 1, 0);
    expect(out.count).toBe(4);
    clipPolygonByPlane(out, subject, 1, 0, 0, 0, 0);
    expect(out.count).toBe(2);
    expect(Array.from(out.xyz.subarray(0, 6))).toEqual([0, 0, 0, 0, 1, 0]);
    clipPolygonByPlane(out, subject, 1, 0, 0, -1e-300, 0);
    expect(out.count).toBe(0);
  });

  it("tags created vertices by plane and edge start, keeps the tags of kept vertices", () => {
    subject.count = 0;
    pushClipVertex(subject, 0, 0, 0, 7);
    pushClipVertex(subject, 2, 0, 0, 9);
    clipPolygonByPlane(out, subject, 1, 0, 0, 1, 3);
    expect(out.count).toBe(2);
    expect(out.tags[0]).toBe(7);
    expect(out.tags[1]).toBe(4 * 16384 + 7);
    expect(out.xyz[3]).toBe(1);
  });

  it("grows a full buffer instead of writing past it", () => {
    const small = makeClipPolygon(1);
    for (let i = 0; i < 40; i++) pushClipVertex(small, i, 2 * i, 3 * i, i);
    expect(small.count).toBe(40);
    expect(small.xyz[3 * 39 + 2]).toBe(117);
    expect(small.tags[39]).toBe(39);
  });
});

describe("clipPolygonAgainstPolygon", () => {
  it("polygon against polygon equals the 2D convex intersection", () => {
    fc.assert(
      fc.property(convexPolygonArb, convexPolygonArb, frameArb, fc.boolean(), (p, q, frame, cw) => {
        fillPolygon(subject, frame, p);
        fillPolygon(clipper, frame, cw ? q.slice().reverse() : q);
        clipPolygonAgainstPolygon(out, subject, clipper, frameNormal(frame), scratch);
        const want = convexIntersection(p, q, 1e-12);
        const got = hull2(polygonPoints(out, frame), 1e-12);
        const tol = 1e-7 + (frame.origin.x !== 0 ? 1e-8 / frame.scale : 0);
        if (want.length < 3 || area2(want) < 1e-9) {
          expect(area2(got)).toBeLessThanOrEqual(10 * tol);
          return;
        }
        expect(Math.abs(area2(got) - area2(want))).toBeLessThanOrEqual(10 * tol);
        expect(sameVertexSets(got, want, 10 * tol)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("a polygon clipped by itself is itself; touching polygons meet in their shared edge", () => {
    const frame: Frame = { q: quat.identity(), origin: vec3.create(), scale: 1 };
    const sq: P2[] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    fillPolygon(subject, frame, sq);
    fillPolygon(clipper, frame, sq);
    clipPolygonAgainstPolygon(out, subject, clipper, vec3.create(0, 0, 1), scratch);
    expect(sameVertexSets(polygonPoints(out, frame), sq, 1e-15)).toBe(true);
    expect(out.count).toBe(4);
    const right: P2[] = [
      [1, 0],
      [2, 0],
      [2, 1],
      [1, 1],
    ];
    fillPolygon(clipper, frame, right);
    clipPolygonAgainstPolygon(out, subject, clipper, vec3.create(0, 0, 1), scratch);
    const got = polygonPoints(out, frame);
    expect(got.length).toBeGreaterThan(0);
    for (const pt of got) expect(pt[0]).toBe(1);
    expect(area2(hull2(got, 0))).toBe(0);
  });

  it("a segment against a polygon equals the per-plane parametric interval", () => {
    fc.assert(
      fc.property(
        convexPolygonArb,
        fc.tuple(
          fc.double({ min: -3, max: 3, noNaN: true }),
          fc.double({ min: -3, max: 3, noNaN: true }),
          fc.double({ min: -3, max: 3, noNaN: true }),
          fc.double({ min: -3, max: 3, noNaN: true }),
        ),
        frameArb,
        (poly, [x0, y0, x1, y1], frame) => {
          fillPolygon(clipper, frame, poly);
          fillPolygon(subject, frame, [
            [x0, y0],
            [x1, y1],
          ]);
          clipPolygonAgainstPolygon(out, subject, clipper, frameNormal(frame), scratch);
          // Oracle: intersect t-intervals of the half-planes (Cyrus–Beck style, in 2D).
          let lo = 0;
          let hi = 1;
          for (let i = 0; i < poly.length; i++) {
            const a = poly[i];
            const b = poly[(i + 1) % poly.length];
            const ex = b[0] - a[0];
            const ey = b[1] - a[1];
            const f0 = ex * (y0 - a[1]) - ey * (x0 - a[0]);
            const f1 = ex * (y1 - a[1]) - ey * (x1 - a[0]);
            if (f0 < 0 && f1 < 0) hi = -1;
            else if (f0 < 0) lo = Math.max(lo, f0 / (f0 - f1));
            else if (f1 < 0) hi = Math.min(hi, f0 / (f0 - f1));
          }
          const tol = 1e-7 + (frame.origin.x !== 0 ? 1e-8 / frame.scale : 0);
          const len = Math.hypot(x1 - x0, y1 - y0);
          const got = polygonPoints(out, frame);
          if (hi < lo || (hi - lo) * len < tol) {
            if (got.length > 0) {
              const span = Math.hypot(
                got[got.length - 1][0] - got[0][0],
                got[got.length - 1][1] - got[0][1],
              );
              expect(span).toBeLessThanOrEqual(10 * tol);
            }
            return;
          }
          expect(got.length).toBe(2);
          const want: P2[] = [
            [x0 + lo * (x1 - x0), y0 + lo * (y1 - y0)],
            [x0 + hi * (x1 - x0), y0 + hi * (y1 - y0)],
          ];
          expect(sameVertexSets(got, want, 10 * tol)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a 2-vertex clip region is the slab perpendicular to the segment", () => {
    subject.count = 0;
    pushClipVertex(subject, -5, 1, 0, 1);
    pushClipVertex(subject, 5, 1, 0.5, 2);
    clipper.count = 0;
    pushClipVertex(clipper, -1, 0, 0, 1);
    pushClipVertex(clipper, 2, 0, 0, 2);
    clipPolygonAgainstPolygon(out, subject, clipper, vec3.create(0, 1, 0), scratch);
    expect(out.count).toBe(2);
    expect(out.xyz[0]).toBeCloseTo(-1, 14);
    expect(out.xyz[3]).toBeCloseTo(2, 14);
    expect(out.xyz[5]).toBeCloseTo(0.35, 14);
  });

  it("a degenerate clip region of fewer than 2 vertices leaves the subject as is", () => {
    subject.count = 0;
    pushClipVertex(subject, 0, 0, 0, 1);
    pushClipVertex(subject, 1, 0, 0, 2);
    pushClipVertex(subject, 0, 1, 0, 3);
    clipper.count = 1;
    clipPolygonAgainstPolygon(out, subject, clipper, vec3.create(0, 0, 1), scratch);
    expect(out.count).toBe(3);
  });

  it("slack keeps a subject touching the prism one ulp outside, by at most the slack", () => {
    // The unit square and a square whose left edge lies one ulp right of x = 1 (a touch that
    // rounding moved out): empty without slack; with 4 ulps of slack, a sliver at that edge.
    const sq: Vec3[] = [
      vec3.create(0, 0, 0),
      vec3.create(1, 0, 0),
      vec3.create(1, 1, 0),
      vec3.create(0, 1, 0),
    ];
    const x1 = 1 + Number.EPSILON;
    const right: Vec3[] = [
      vec3.create(x1, 0, 0),
      vec3.create(3, 0, 0),
      vec3.create(3, 1, 0),
      vec3.create(x1, 1, 0),
    ];
    const fill = (poly: ClipPolygon, pts: Vec3[]) => {
      poly.count = 0;
      pts.forEach((p, i) => {
        pushClipVertex(poly, p.x, p.y, p.z, i + 1);
      });
    };
    fill(subject, right);
    fill(clipper, sq);
    const n = vec3.create(0, 0, 1);
    clipPolygonAgainstPolygon(out, subject, clipper, n, scratch);
    expect(out.count).toBe(0);
    clipPolygonAgainstPolygon(out, subject, clipper, n, scratch, 4);
    expect(out.count).toBeGreaterThan(0);
    for (let i = 0; i < out.count; i++) {
      // Between the touching edge and the moved plane: x ≤ 1 + 4 ulps of 3.
      expect(out.xyz[3 * i]).toBeGreaterThanOrEqual(x1);
      expect(out.xyz[3 * i]).toBeLessThanOrEqual(1 + 12 * Number.EPSILON);
      expect(out.xyz[3 * i + 1]).toBeGreaterThanOrEqual(0);
      expect(out.xyz[3 * i + 1]).toBeLessThanOrEqual(1);
    }
    // A subject 16 ulps outside stays outside: the slack is 4 ulps of 3 (the largest coordinate).
    const far = 1 + 16 * 3 * Number.EPSILON;
    fill(
      subject,
      right.map((p) => vec3.create(p.x === x1 ? far : p.x, p.y, p.z)),
    );
    clipPolygonAgainstPolygon(out, subject, clipper, n, scratch, 4);
    expect(out.count).toBe(0);
  });
});

function bestSubsetArea(xyz: Float64Array, n: number, normal: Vec3, must: number): number[] {
  let best = 0;
  let bestAny = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (let k = j + 1; k < n; k++)
        for (let l = k + 1; l < n; l++) {
          const a = hullArea4(xyz, i, j, k, l, normal);
          bestAny = Math.max(bestAny, a);
          if (i === must || j === must || k === must || l === must) best = Math.max(best, a);
        }
  return [best, bestAny];
}

/** Twice the 2D hull area of the chosen points (independent of hullArea4). */
function chosenArea(xyz: Float64Array, idx: Int32Array, k: number, frame: Frame): number {
  const pts: P2[] = [];
  for (let i = 0; i < k; i++) {
    const j = idx[i];
    pts.push(toPlane(frame, xyz[3 * j], xyz[3 * j + 1], xyz[3 * j + 2]));
  }
  return 2 * area2(hull2(pts, 0));
}

describe("reduceManifoldPoints", () => {
  const idx = new Int32Array(4);

  /** n points on a circle of radius 1 (times 1 + radial noise), jittered, depths along n. */
  function circlePoints(jitter: number[], depth: number[], radial: number[], frame: Frame) {
    const n = jitter.length;
    const xyz = new Float64Array(3 * n);
    const dist = new Float64Array(n);
    const normal = frameNormal(frame);
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n + jitter[i];
      const r = 1 + radial[i % radial.length];
      const w = toWorld(frame, [r * Math.cos(a), r * Math.sin(a)]);
      // Depth displaces points along the normal; it must not change planar areas.
      vec3.addScaled(w, w, normal, depth[i] * frame.scale);
      xyz.set([w.x, w.y, w.z], 3 * i);
      dist[i] = depth[i] * frame.scale;
    }
    let deepest = 0;
    for (let i = 1; i < n; i++) if (dist[i] < dist[deepest]) deepest = i;
    // Depths equal to rounding level (1e-9 of the size) tie with the deepest.
    const tie = dist[deepest] + 1e-9 * 2.5 * frame.scale;
    const hasDeepest = (chosen: Int32Array) => Array.from(chosen).some((i) => dist[i] <= tie);
    return { xyz, dist, normal, deepest, hasDeepest };
  }

  const jitterArb = (n: number) =>
    fc.array(fc.double({ min: -0.15, max: 0.15, noNaN: true }), { minLength: n, maxLength: n });
  const depthArb = (n: number) =>
    fc.array(fc.double({ min: -1, max: 0, noNaN: true }), { minLength: n, maxLength: n });

  it("16 jittered points on a circle keep ≥ 90% of the best 4-point area and the deepest point", () => {
    fc.assert(
      fc.property(jitterArb(16), depthArb(16), frameArb, (jitter, depth, frame) => {
        const { xyz, dist, normal, deepest, hasDeepest } = circlePoints(jitter, depth, [0], frame);
        const k = reduceManifoldPoints(idx, xyz, dist, 16, normal);
        expect(k).toBe(4);
        expect(hasDeepest(idx)).toBe(true);
        for (let i = 1; i < 4; i++) expect(idx[i]).toBeGreaterThan(idx[i - 1]);
        const got = chosenArea(xyz, idx, 4, frame) * frame.scale * frame.scale;
        const [, bestAny] = bestSubsetArea(xyz, 16, normal, deepest);
        expect(got).toBeGreaterThanOrEqual(0.9 * bestAny);
      }),
      { numRuns: 60 },
    );
  });

  it("with uneven radii, the best 4-set containing the deepest point is found exactly", () => {
    fc.assert(
      fc.property(
        jitterArb(16),
        depthArb(16),
        fc.array(fc.double({ min: -0.15, max: 0.15, noNaN: true }), {
          minLength: 16,
          maxLength: 16,
        }),
        frameArb,
        (jitter, depth, radial, frame) => {
          const { xyz, dist, normal, deepest, hasDeepest } = circlePoints(
            jitter,
            depth,
            radial,
            frame,
          );
          expect(reduceManifoldPoints(idx, xyz, dist, 16, normal)).toBe(4);
          expect(hasDeepest(idx)).toBe(true);
          const got = chosenArea(xyz, idx, 4, frame) * frame.scale * frame.scale;
          const [best] = bestSubsetArea(xyz, 16, normal, deepest);
          expect(got).toBeGreaterThanOrEqual(best * (1 - 1e-6));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("40 points (the local-search path) keep ≥ 90% of the best area with the deepest point", () => {
    fc.assert(
      fc.property(jitterArb(40), depthArb(40), frameArb, (jitter, depth, frame) => {
        const { xyz, dist, normal, deepest, hasDeepest } = circlePoints(jitter, depth, [0], frame);
        expect(reduceManifoldPoints(idx, xyz, dist, 40, normal)).toBe(4);
        expect(hasDeepest(idx)).toBe(true);
        const got = chosenArea(xyz, idx, 4, frame) * frame.scale * frame.scale;
        const [best] = bestSubsetArea(xyz, 40, normal, deepest);
        expect(got).toBeGreaterThanOrEqual(0.9 * best);
      }),
      { numRuns: 15 },
    );
  });

  it("a regular 16-gon reduces to an inscribed square (the best possible area)", () => {
    const n = 16;
    const xyz = new Float64Array(3 * n);
    const dist = new Float64Array(n).fill(-0.1);
    dist[5] = -0.2;
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      xyz.set([Math.cos(a), Math.sin(a), 0], 3 * i);
    }
    const normal = vec3.create(0, 0, 1);
    expect(reduceManifoldPoints(idx, xyz, dist, n, normal)).toBe(4);
    expect(Array.from(idx)).toEqual([1, 5, 9, 13]);
    expect(hullArea4(xyz, idx[0], idx[1], idx[2], idx[3], normal)).toBeCloseTo(4, 12);
  });

  it("distinct ≤ 4 points are kept; coincident → 1, collinear → 2, triangle + inside → 3", () => {
    const normal = vec3.create(0, 0, 1);
    const xyz = new Float64Array(3 * 8);
    const dist = new Float64Array(8);
    xyz.set([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]);
    expect(reduceManifoldPoints(idx, xyz, dist, 3, normal)).toBe(3);
    expect(Array.from(idx.subarray(0, 3))).toEqual([0, 1, 2]);
    expect(reduceManifoldPoints(idx, xyz, dist, 4, normal)).toBe(4);
    expect(Array.from(idx)).toEqual([0, 1, 2, 3]);
    // Duplicates among few points are dropped too.
    xyz.set([0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0]);
    expect(reduceManifoldPoints(idx, xyz, dist, 4, normal)).toBe(2);
    xyz.fill(0);
    dist[4] = -1;
    expect(reduceManifoldPoints(idx, xyz, dist, 8, normal)).toBe(1);
    expect(idx[0]).toBe(4);
    for (let i = 0; i < 8; i++) xyz.set([i * 0.5, 2 * i * 0.5, 7], 3 * i);
    expect(reduceManifoldPoints(idx, xyz, dist, 8, normal)).toBe(2);
    expect(Array.from(idx.subarray(0, 2))).toEqual([0, 4]);
    // Points stacked along the normal are coincident in the contact plane.
    for (let i = 0; i < 8; i++) xyz.set([1, 1, i], 3 * i);
    expect(reduceManifoldPoints(idx, xyz, dist, 8, normal)).toBe(1);
    const tri = [0, 0, 0, 4, 0, 0, 0, 4, 0, 1, 1, 0, 0.5, 0.5, 0, 1, 0.2, 0, 0.3, 1, 0, 0, 0, 0];
    xyz.set(tri);
    dist.fill(0);
    expect(reduceManifoldPoints(idx, xyz, dist, 8, normal)).toBe(3);
    expect(Array.from(idx.subarray(0, 3))).toEqual([0, 1, 2]);
  });

  it("is deterministic and never returns NaN indices for huge and tiny coordinates", () => {
    const normal = vec3.create(0, 0, 1);
    for (const s of [1e-3, 1e4, 1e6]) {
      const xyz = new Float64Array(3 * 10);
      const dist = new Float64Array(10);
      for (let i = 0; i < 10; i++) {
        xyz.set([1e6 + s * Math.cos(i), -1e6 + s * Math.sin(2 * i), 3], 3 * i);
        dist[i] = -Math.abs(Math.sin(3 * i));
      }
      const k1 = reduceManifoldPoints(idx, xyz, dist, 10, normal);
      const first = Array.from(idx.subarray(0, k1));
      const k2 = reduceManifoldPoints(idx, xyz, dist, 10, normal);
      expect(k2).toBe(k1);
      expect(Array.from(idx.subarray(0, k2))).toEqual(first);
      expect(k1).toBeGreaterThanOrEqual(3);
      for (const i of first) expect(Number.isInteger(i) && i >= 0 && i < 10).toBe(true);
    }
  });
});
