/**
 * Debug wireframes against independent oracles: box corners from the pose by hand, AABB boxes
 * from `aabbShape`, curved wireframes against their analytic surfaces, hull and mesh edges
 * against the shapes' own vertex lists, and contact normals of the example scene's check.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DebugDraw } from "../../src/debug/draw.js";
import { drawAabb, drawBox, drawContact, drawObb, drawShape } from "../../src/debug/shapes.js";
import { fitObbPca, makeObb } from "../../src/geometry/obb-fit.js";
import { checkScene } from "../../src/io/check.js";
import { loadScene } from "../../src/io/scene.js";
import * as aabbm from "../../src/math/aabb.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  aabbShape,
  makeCapsule,
  makeCompound,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeSphere,
  makeTriangle,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import { pose, scale, vec } from "../oracles/arbitraries.js";
import { boxCorners } from "../oracles/support-oracle.js";

/** Segment endpoints of a debug draw as pairs of points. */
function segments(dd: DebugDraw): [Vec3, Vec3][] {
  const p = dd.linePositions;
  const out: [Vec3, Vec3][] = [];
  for (let i = 0; i < dd.lineCount; i++) {
    const k = 6 * i;
    out.push([vec3.create(p[k], p[k + 1], p[k + 2]), vec3.create(p[k + 3], p[k + 4], p[k + 5])]);
  }
  return out;
}

function endpoints(dd: DebugDraw): Vec3[] {
  return segments(dd).flat();
}

/** Relative tolerance of a coordinate at magnitude m (pose far from the origin, huge shapes). */
function tol(m: number): number {
  return 1e-12 * Math.max(1, m);
}

describe("DebugDraw", () => {
  it("grows past its initial capacity and keeps every segment, point and colour", () => {
    const dd = new DebugDraw();
    for (let i = 0; i < 1000; i++) {
      dd.segment(i, 0, 0, i, 1, 0, i);
      dd.point(vec3.create(0, i, 0), 2 * i);
    }
    expect(dd.lineCount).toBe(1000);
    expect(dd.pointCount).toBe(1000);
    const data = dd.toData();
    expect(data.lines.length).toBe(6000);
    expect(data.lines.slice(6 * 999, 6 * 1000)).toEqual([999, 0, 0, 999, 1, 0]);
    expect(data.lineColors[777]).toBe(777);
    expect(data.points.slice(3 * 500, 3 * 501)).toEqual([0, 500, 0]);
    expect(data.pointColors[999]).toBe(1998);
    dd.clear();
    expect(dd.toData()).toEqual({ lines: [], lineColors: [], points: [], pointColors: [] });
  });
});

describe("box wireframe", () => {
  it("has 12 segments whose endpoints are the 8 corners, 3 segments per corner, along box edges", () => {
    fc.assert(
      fc.property(vec(0, 1), scale, pose(-1e6, 1e6), (h0, s, p) => {
        const h = vec3.create(s * (h0.x + 0.01), s * (h0.y + 0.01), s * (h0.z + 0.01));
        const dd = drawShape(new DebugDraw(), makeCuboid(h), p);
        expect(dd.lineCount).toBe(12);
        const corners = boxCorners(h, p);
        const m = vec3.length(p.translation) + s * 3;
        const uses = new Array(8).fill(0);
        for (const [a, b] of segments(dd)) {
          for (const e of [a, b]) {
            const d = corners.map((c) => vec3.distance(c, e));
            const k = d.indexOf(Math.min(...d));
            expect(d[k]).toBeLessThanOrEqual(tol(m));
            uses[k]++;
          }
          // Each edge has the length of one full extent.
          const len = vec3.distance(a, b);
          const ok = [h.x, h.y, h.z].some((x) => Math.abs(len - 2 * x) <= tol(m));
          expect(ok).toBe(true);
        }
        expect(uses).toEqual([3, 3, 3, 3, 3, 3, 3, 3]);
      }),
      { numRuns: 150 },
    );
  });

  it("draws a flat box (a zero half extent, as an OBB of coplanar points has) without NaN", () => {
    const dd = drawBox(
      new DebugDraw(),
      vec3.create(1, 2, 3),
      vec3.create(1, 0, 1),
      { x: 0, y: 0, z: 0, w: 1 },
      0xffffff,
    );
    expect(dd.lineCount).toBe(12);
    expect(Array.from(dd.linePositions).every(Number.isFinite)).toBe(true);
  });
});

describe("AABB and OBB wireframes", () => {
  const shapes = fc.oneof(
    fc.double({ min: 0.01, max: 3, noNaN: true }).map((r) => makeSphere(r)),
    vec(0.01, 3).map((h) => makeCuboid(h)),
    fc
      .tuple(vec(-2, 2), vec(-2, 2), fc.double({ min: 0.01, max: 2, noNaN: true }))
      .map(([a, b, r]) => makeCapsule(a, b, r)),
    fc
      .tuple(
        fc.double({ min: 0.01, max: 3, noNaN: true }),
        fc.double({ min: 0.01, max: 3, noNaN: true }),
      )
      .map(([h, r]) => makeCylinder(h, r)),
    fc
      .tuple(
        fc.double({ min: 0.01, max: 3, noNaN: true }),
        fc.double({ min: 0.01, max: 3, noNaN: true }),
      )
      .map(([h, r]) => makeCone(h, r)),
  );

  it("the AABB's 12 segments span exactly aabbShape's box", () => {
    fc.assert(
      fc.property(shapes, pose(-1e6, 1e6), (s, p) => {
        const box = aabbShape(aabbm.empty(), s, p);
        const dd = drawAabb(new DebugDraw(), box);
        expect(dd.lineCount).toBe(12);
        const m = vec3.length(p.translation) + 10;
        const pts = endpoints(dd);
        for (const axis of ["x", "y", "z"] as const) {
          const lo = Math.min(...pts.map((q) => q[axis]));
          const hi = Math.max(...pts.map((q) => q[axis]));
          expect(Math.abs(lo - box.min[axis])).toBeLessThanOrEqual(tol(m));
          expect(Math.abs(hi - box.max[axis])).toBeLessThanOrEqual(tol(m));
        }
        // Every endpoint is a corner: each coordinate is the box's min or max.
        for (const q of pts) {
          for (const axis of ["x", "y", "z"] as const) {
            const d = Math.min(
              Math.abs(q[axis] - box.min[axis]),
              Math.abs(q[axis] - box.max[axis]),
            );
            expect(d).toBeLessThanOrEqual(tol(m));
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it("skips an unbounded box and draws an OBB fitted to points around them", () => {
    const inf = aabbm.create(vec3.create(-Infinity, 0, 0), vec3.create(Infinity, 1, 1));
    expect(drawAabb(new DebugDraw(), inf).lineCount).toBe(0);
    const pts = boxCorners(vec3.create(2, 1, 0.5), {
      translation: vec3.create(5, 0, 0),
      rotation: { x: 0, y: 0, z: Math.sin(0.3), w: Math.cos(0.3) },
    });
    const obb = fitObbPca(makeObb(), pts);
    const dd = drawObb(new DebugDraw(), obb);
    expect(dd.lineCount).toBe(12);
    for (const e of endpoints(dd)) {
      expect(Math.min(...pts.map((c) => vec3.distance(c, e)))).toBeLessThan(1e-9);
    }
  });
});

describe("curved wireframes lie on their surfaces", () => {
  it("sphere, cylinder, cone and capsule vertices are on the analytic surface", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        scale,
        pose(-1e6, 1e6),
        vec(-1, 1),
        (r0, h0, s, p, axis) => {
          const r = r0 * s;
          const h = h0 * s;
          const m = vec3.length(p.translation) + 2 * s;
          const inv = iso.invert(iso.identity(), p);
          const local = (q: Vec3) => iso.transformPoint(vec3.create(), inv, q);
          for (const q of endpoints(drawShape(new DebugDraw(), makeSphere(r), p))) {
            expect(Math.abs(vec3.length(local(q)) - r)).toBeLessThanOrEqual(tol(m));
          }
          for (const q of endpoints(drawShape(new DebugDraw(), makeCylinder(h, r), p))) {
            const l = local(q);
            expect(Math.abs(Math.hypot(l.x, l.z) - r)).toBeLessThanOrEqual(tol(m));
            expect(Math.abs(Math.abs(l.y) - h)).toBeLessThanOrEqual(tol(m));
          }
          for (const q of endpoints(drawShape(new DebugDraw(), makeCone(h, r), p))) {
            const l = local(q);
            // On the lateral surface: radius shrinks linearly from r at −h to 0 at +h.
            const expected = (r * (h - l.y)) / (2 * h);
            expect(Math.abs(Math.hypot(l.x, l.z) - expected)).toBeLessThanOrEqual(tol(m));
          }
          const a = vec3.scale(vec3.create(), axis, s);
          const b = vec3.negate(vec3.create(), a);
          const cap = makeCapsule(a, b, r);
          for (const q of endpoints(drawShape(new DebugDraw(), cap, p))) {
            expect(Math.abs(distanceToSegment(local(q), a, b) - r)).toBeLessThanOrEqual(tol(m));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

/** Distance from p to segment ab (brute force over a dense parameter scan, then refined). */
function distanceToSegment(p: Vec3, a: Vec3, b: Vec3): number {
  const ab = vec3.sub(vec3.create(), b, a);
  const ll = vec3.lengthSq(ab);
  const t = ll > 0 ? Math.min(1, Math.max(0, vec3.dot(vec3.sub(vec3.create(), p, a), ab) / ll)) : 0;
  return vec3.distance(p, vec3.addScaled(vec3.create(), a, ab, t));
}

describe("polytope and mesh wireframes", () => {
  it("a hull draws each of its edges once, between hull vertices", () => {
    const pts = [
      vec3.create(0, 0, 0),
      vec3.create(1, 0, 0),
      vec3.create(0, 1, 0),
      vec3.create(0, 0, 1),
      vec3.create(0.1, 0.1, 0.1), // interior: not a hull vertex
    ];
    const hull = makeConvexPolyhedron(pts);
    const p = iso.create(vec3.create(3, -2, 1));
    const dd = drawShape(new DebugDraw(), hull, p);
    expect(dd.lineCount).toBe(6); // a tetrahedron
    const corners = pts.slice(0, 4).map((c) => vec3.add(vec3.create(), c, p.translation));
    const keys = new Set<string>();
    for (const [a, b] of segments(dd)) {
      const i = corners.findIndex((c) => vec3.distance(c, a) < 1e-12);
      const j = corners.findIndex((c) => vec3.distance(c, b) < 1e-12);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(j).toBeGreaterThanOrEqual(0);
      keys.add(i < j ? `${i}${j}` : `${j}${i}`);
    }
    expect(keys.size).toBe(6);
  });

  it("a triangle draws 3 edges; a closed mesh draws each shared edge once", () => {
    const t = makeTriangle(vec3.create(0, 0, 0), vec3.create(1, 0, 0), vec3.create(0, 1, 0));
    expect(drawShape(new DebugDraw(), t, iso.identity()).lineCount).toBe(3);
    // A closed tetrahedron mesh: 4 triangles, 6 edges; an open quad of 2 triangles: 5 edges.
    const v = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    const tet = makeTriangleMesh(v, [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
    expect(drawShape(new DebugDraw(), tet, iso.identity()).lineCount).toBe(6);
    const quad = makeTriangleMesh([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0], [0, 1, 2, 0, 2, 3]);
    expect(drawShape(new DebugDraw(), quad, iso.identity()).lineCount).toBe(5);
  });

  it("a compound draws its children at their composed poses", () => {
    const child = makeCuboid(vec3.create(0.5, 0.5, 0.5));
    const c = makeCompound([
      { shape: child, pose: iso.create(vec3.create(2, 0, 0)) },
      { shape: makeSphere(1), pose: iso.create(vec3.create(-2, 0, 0)) },
    ]);
    const p = iso.create(vec3.create(0, 10, 0));
    const dd = drawShape(new DebugDraw(), c, p, 0xffffff, { segments: 16 });
    expect(dd.lineCount).toBe(12 + 3 * 16);
    const box = drawShape(new DebugDraw(), child, iso.create(vec3.create(2, 10, 0)));
    expect(Array.from(dd.linePositions.subarray(0, 72))).toEqual(Array.from(box.linePositions));
  });
});

describe("contacts", () => {
  it("draw both witness points and a normal of exactly the requested length", () => {
    fc.assert(
      fc.property(
        vec(-10, 10),
        vec(-1e3, 1e3),
        vec(-1e3, 1e3),
        fc.double({ min: 1e-3, max: 10, noNaN: true }),
        (n, a, b, len) => {
          fc.pre(vec3.length(n) > 1e-6);
          const dd = drawContact(
            new DebugDraw(),
            { normal: n, points: [{ pointA: a, pointB: b }] },
            len,
          );
          expect(dd.pointCount).toBe(2);
          expect(dd.lineCount).toBe(1);
          const [[p, q]] = segments(dd);
          expect(vec3.distance(p, q)).toBeCloseTo(len, 9);
          const mid = vec3.lerp(vec3.create(), a, b, 0.5);
          expect(vec3.distance(p, mid)).toBeLessThan(1e-9);
          const dir = vec3.sub(vec3.create(), q, p);
          expect(vec3.dot(dir, n)).toBeGreaterThan(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a zero normal draws the points but no segment", () => {
    const dd = drawContact(
      new DebugDraw(),
      { normal: vec3.create(), points: [{ pointA: vec3.create(), pointB: vec3.create(1, 0, 0) }] },
      1,
    );
    expect(dd.pointCount).toBe(2);
    expect(dd.lineCount).toBe(0);
  });

  it("the example scene's contact normals are unit vectors", () => {
    const r = checkScene(loadScene("examples/scene.json"));
    expect(r.pairs.length).toBeGreaterThan(0);
    for (const p of r.pairs) expect(Math.hypot(...p.normal)).toBeCloseTo(1, 12);
  });
});
