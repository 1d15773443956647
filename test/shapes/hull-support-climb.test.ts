/**
 * The convex polyhedron's support by hill climbing (src/shapes/convex-polyhedron.ts): on a hull
 * of 28 vertices or more the support starts at the vertex a cube map of directions holds and
 * climbs over the vertices' neighbours, scanning only on a near tie. Oracle: the plain scan over
 * every vertex (the largest dir·v, the first in vertex order on a tie), written here — the climb
 * must return exactly that vertex for every direction, ties, faces nearly normal to the direction
 * and rounding included, for hulls of sphere clouds, prisms and cylinders (caps of many coplanar
 * corners), flat polygons, and clouds scaled by 1e±6 or moved 1e6 away; and where a cell of the
 * cube map is marked settled (its start vertex taken at once), at every corner and edge of every
 * cell, crossed by a hair.
 */
import { describe, expect, it } from "vitest";
import { makeRandom } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import {
  type ConvexPolyhedron,
  makeConvexPolyhedron,
  supportConvexPolyhedron,
} from "../../src/shapes/convex-polyhedron.js";
import { checkShape } from "../../src/shapes/validate.js";

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

describe("convex polyhedron support: settled cells answer at once, and answer the scan", () => {
  /** Directions at the corners of every cube-map cell, nudged across each edge by 1e-12 … 1e-3. */
  function cellCornerDirections(rng: () => number): Vec3[] {
    const cells = 16;
    const dirs: Vec3[] = [];
    for (let face = 0; face < 6; face++) {
      const axis = face >> 1;
      const sign = face & 1 ? -1 : 1;
      for (let i = 0; i <= cells; i++) {
        for (let j = 0; j <= cells; j++) {
          for (const eps of [0, 1e-12, -1e-12, 1e-6, -1e-6, 1e-3 * (rng() - 0.5)]) {
            const u = (i / cells) * 2 - 1 + eps;
            const w = (j / cells) * 2 - 1 - eps;
            const m = [1, 3.7e-90, 2.1e90][Math.floor(rng() * 3)];
            const d =
              axis === 0
                ? { x: sign * m, y: u * m, z: w * m }
                : axis === 1
                  ? { x: w * m, y: sign * m, z: u * m }
                  : { x: u * m, y: w * m, z: sign * m };
            dirs.push(d);
          }
        }
      }
    }
    return dirs;
  }

  it("marks most cells of a 32-vertex hull settled, none of a flat polygon's normal cells", () => {
    const rng = makeRandom(21);
    const hull = makeConvexPolyhedron(sphereCloud(rng, 32, 0.8));
    const settled = hull.supportSettled as Uint8Array;
    expect(settled).toBeInstanceOf(Uint8Array);
    expect(settled.length).toBe(hull.supportStarts?.length);
    const share = settled.reduce((a, b) => a + b, 0) / settled.length;
    expect(share).toBeGreaterThan(0.5);
    const flat = makeConvexPolyhedron(flatPolygon(60));
    // ±y: the polygon's normal, every corner tied there.
    const cellsPerFace = (flat.supportSettled as Uint8Array).length / 6;
    const S = Math.sqrt(cellsPerFace);
    for (const face of [2, 3]) {
      const c = (face * S + S / 2) * S + S / 2;
      expect(flat.supportSettled?.[c]).toBe(0);
    }
  });

  it("every cell's corners and edges, crossed by a hair, on hulls of every kind (scan oracle)", () => {
    const rng = makeRandom(33);
    const out = { x: 0, y: 0, z: 0 };
    const cases = [
      ...hulls(4),
      { name: "sphere 32", hull: makeConvexPolyhedron(sphereCloud(rng, 32, 0.8)) },
      { name: "prism 16", hull: makeConvexPolyhedron(prism(16, 0.5)) },
    ];
    for (const { name, hull } of cases) {
      for (const d of cellCornerDirections(rng)) {
        const i = scanIndex(hull, d);
        supportConvexPolyhedron(out, hull, d);
        const v = hull.vertices;
        if (out.x !== v[3 * i] || out.y !== v[3 * i + 1] || out.z !== v[3 * i + 2]) {
          throw new Error(`${name} dir ${JSON.stringify(d)}: vertex ${i} wanted`);
        }
      }
    }
  });

  it("keeps no settled cell on a hull beyond [2^-400, 2^400], and still answers the scan", () => {
    const rng = makeRandom(41);
    const out = { x: 0, y: 0, z: 0 };
    for (const k of [1e-125, 1e125]) {
      const hull = makeConvexPolyhedron(sphereCloud(rng, 40, 1).map((x) => x * k));
      expect((hull.supportSettled as Uint8Array).every((x) => x === 0)).toBe(true);
      for (const d of directions(rng, hull)) {
        const i = scanIndex(hull, d);
        supportConvexPolyhedron(out, hull, d);
        expect([out.x, out.y, out.z]).toEqual([
          hull.vertices[3 * i],
          hull.vertices[3 * i + 1],
          hull.vertices[3 * i + 2],
        ]);
      }
    }
  });

  it("refuses a hand-built record whose cube-map tables have the wrong length", () => {
    const hull = makeConvexPolyhedron(sphereCloud(makeRandom(5), 40, 1));
    expect(() => checkShape("s", { ...hull, supportStarts: new Uint32Array(384) })).toThrow(
      /supportStarts/,
    );
    expect(() => checkShape("s", { ...hull, supportSettled: new Uint8Array(10) })).toThrow(
      /supportSettled/,
    );
    expect(() => checkShape("s", hull)).not.toThrow();
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
