/**
 * The convex polyhedron's support by hill climbing (src/shapes/convex-polyhedron.ts): on a hull
 * of 28 vertices or more the support starts at the vertex a cube map of directions holds and
 * climbs over the vertices' neighbours, scanning only on a near tie. Oracle: the plain scan over
 * every vertex (the largest dir·v, the first in vertex order on a tie), written here — the climb
 * must return exactly that vertex for every direction, ties, faces nearly normal to the direction
 * and rounding included, for hulls of sphere clouds, prisms and cylinders (caps of many coplanar
 * corners), flat polygons, and clouds scaled by 1e±6 or moved 1e6 away.
 */
import { describe, expect, it } from "vitest";
import { makeRandom } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import {
  type ConvexPolyhedron,
  makeConvexPolyhedron,
  supportConvexPolyhedron,
} from "../../src/shapes/convex-polyhedron.js";

/** The oracle: index of the first vertex of largest dir·v. */
function scanIndex(c: ConvexPolyhedron, d: Vec3): number {
  const v = c.vertices;
  let best = 0;
  let bestDot = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < c.vertexCount; i++) {
    const dot = v[3 * i] * d.x + v[3 * i + 1] * d.y + v[3 * i + 2] * d.z;
    if (dot > bestDot) {
      bestDot = dot;
      best = i;
    }
  }
  return best;
}

function sphereCloud(rng: () => number, n: number, sy: number): number[] {
  const p: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = rng() * 2 - 1;
    const t = rng() * 2 * Math.PI;
    const r = Math.sqrt(1 - u * u);
    p.push(r * Math.cos(t), sy * u, r * Math.sin(t));
  }
  return p;
}

/** A prism over a regular n-gon: two caps of n coplanar corners, side faces of 4. */
function prism(n: number, h: number): number[] {
  const p: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    p.push(Math.cos(t), h, Math.sin(t), Math.cos(t), -h, Math.sin(t));
  }
  return p;
}

function flatPolygon(n: number): number[] {
  const p: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    p.push(Math.cos(t), 0, Math.sin(t));
  }
  return p;
}

function hulls(seed: number): { name: string; hull: ConvexPolyhedron }[] {
  const rng = makeRandom(seed);
  const out: { name: string; hull: ConvexPolyhedron }[] = [];
  out.push({ name: "sphere 64", hull: makeConvexPolyhedron(sphereCloud(rng, 64, 0.8)) });
  out.push({ name: "sphere 300", hull: makeConvexPolyhedron(sphereCloud(rng, 300, 0.5)) });
  out.push({ name: "prism 32", hull: makeConvexPolyhedron(prism(32, 0.5)) });
  out.push({ name: "prism 64 thin", hull: makeConvexPolyhedron(prism(64, 1e-3)) });
  out.push({ name: "flat 60", hull: makeConvexPolyhedron(flatPolygon(60)) });
  out.push({
    name: "sphere 80 × 1e6",
    hull: makeConvexPolyhedron(sphereCloud(rng, 80, 1).map((x) => x * 1e6)),
  });
  out.push({
    name: "sphere 80 × 1e-6",
    hull: makeConvexPolyhedron(sphereCloud(rng, 80, 1).map((x) => x * 1e-6)),
  });
  out.push({
    name: "sphere 80 at 1e6",
    hull: makeConvexPolyhedron(sphereCloud(rng, 80, 1).map((x, i) => (i % 3 === 0 ? x + 1e6 : x))),
  });
  return out;
}

/** Directions that make ties and near ties: axes, face normals, edge normals, nudged ones. */
function directions(rng: () => number, c: ConvexPolyhedron): Vec3[] {
  const dirs: Vec3[] = [];
  for (let i = 0; i < 200; i++) dirs.push({ x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5 });
  for (const s of [1, -1]) {
    dirs.push({ x: s, y: 0, z: 0 }, { x: 0, y: s, z: 0 }, { x: 0, y: 0, z: s });
  }
  const fn = c.faceNormals;
  for (let f = 0; f < c.faceCount; f++) {
    const n = { x: fn[3 * f], y: fn[3 * f + 1], z: fn[3 * f + 2] };
    dirs.push(n);
    const e = 1e-12 * (rng() - 0.5);
    dirs.push({ x: n.x + e, y: n.y - e, z: n.z + 2 * e });
    dirs.push({ x: n.x * 1e-200, y: n.y * 1e-200, z: n.z * 1e-200 });
    dirs.push({ x: n.x * 1e200, y: n.y * 1e200, z: n.z * 1e200 });
  }
  const v = c.vertices;
  const ed = c.edges;
  for (let q = 0; q + 1 < ed.length; q += 2) {
    // Normal to the edge, in the plane of the edge and the hull's centre-to-edge direction.
    const a = ed[q];
    const b = ed[q + 1];
    const ex = v[3 * b] - v[3 * a];
    const ey = v[3 * b + 1] - v[3 * a + 1];
    const ez = v[3 * b + 2] - v[3 * a + 2];
    const mx = (v[3 * a] + v[3 * b]) / 2;
    const my = (v[3 * a + 1] + v[3 * b + 1]) / 2;
    const mz = (v[3 * a + 2] + v[3 * b + 2]) / 2;
    const k = (mx * ex + my * ey + mz * ez) / (ex * ex + ey * ey + ez * ez);
    dirs.push({ x: mx - k * ex, y: my - k * ey, z: mz - k * ez });
  }
  return dirs;
}

describe("convex polyhedron support: the hill climb is the scan", () => {
  for (const seed of [1, 2, 3]) {
    it(`every hull, every direction (seed ${seed})`, () => {
      const rng = makeRandom(100 + seed);
      const out = { x: 0, y: 0, z: 0 };
      for (const { name, hull } of hulls(seed)) {
        expect(hull.vertexCount, name).toBeGreaterThanOrEqual(28);
        for (const d of directions(rng, hull)) {
          const i = scanIndex(hull, d);
          supportConvexPolyhedron(out, hull, d);
          const v = hull.vertices;
          const want = { x: v[3 * i], y: v[3 * i + 1], z: v[3 * i + 2] };
          if (out.x !== want.x || out.y !== want.y || out.z !== want.z) {
            throw new Error(`${name} (seed ${seed}) dir ${JSON.stringify(d)}: vertex ${i} wanted`);
          }
        }
      }
    });
  }

  it("keeps the cube map only on hulls of 28 vertices or more", () => {
    const rng = makeRandom(9);
    expect(makeConvexPolyhedron(sphereCloud(rng, 24, 1)).supportStarts).toBeUndefined();
    expect(makeConvexPolyhedron(sphereCloud(rng, 64, 1)).supportStarts).toBeInstanceOf(Uint32Array);
  });

  it("answers the scan for a zero or non-finite direction", () => {
    const hull = makeConvexPolyhedron(sphereCloud(makeRandom(5), 64, 1));
    const out = { x: 0, y: 0, z: 0 };
    for (const d of [
      { x: 0, y: 0, z: 0 },
      { x: Number.NaN, y: 1, z: 0 },
      { x: Number.POSITIVE_INFINITY, y: 0, z: 0 },
    ]) {
      supportConvexPolyhedron(out, hull, d);
      const i = scanIndex(hull, d);
      expect([out.x, out.y, out.z]).toEqual([
        hull.vertices[3 * i],
        hull.vertices[3 * i + 1],
        hull.vertices[3 * i + 2],
      ]);
    }
  });
});

describe("convex polyhedron support below the climb: the scan over vertex pairs is the scan", () => {
  it("small hulls, odd and even vertex counts, ties (a cube, prisms, a flat polygon)", () => {
    const rng = makeRandom(17);
    const out = { x: 0, y: 0, z: 0 };
    const small: { name: string; hull: ConvexPolyhedron }[] = [
      { name: "cube", hull: makeConvexPolyhedron(prism(4, 1)) },
      { name: "prism 5", hull: makeConvexPolyhedron(prism(5, 0.3)) },
      { name: "flat 7", hull: makeConvexPolyhedron(flatPolygon(7)) },
      { name: "sphere 4", hull: makeConvexPolyhedron(sphereCloud(rng, 4, 1)) },
      { name: "sphere 15", hull: makeConvexPolyhedron(sphereCloud(rng, 15, 0.8)) },
      { name: "sphere 27", hull: makeConvexPolyhedron(sphereCloud(rng, 27, 0.8)) },
    ];
    for (const { name, hull } of small) {
      expect(hull.supportStarts, name).toBeUndefined();
      const dirs = directions(rng, hull);
      dirs.push({ x: Number.NaN, y: 0, z: 0 }, { x: 0, y: 0, z: 0 });
      for (const d of dirs) {
        supportConvexPolyhedron(out, hull, d);
        const i = scanIndex(hull, d);
        const v = hull.vertices;
        expect([out.x, out.y, out.z], `${name} ${JSON.stringify(d)}`).toEqual([
          v[3 * i],
          v[3 * i + 1],
          v[3 * i + 2],
        ]);
      }
    }
  });
});
