/**
 * Ties among composite parts whose own normals cut through each other. An octahedron falls
 * straight down onto the corner of a terrain (a 2 × 3 heightfield and the same terrain as a
 * triangle mesh: heightfield.test.ts's castShapes counterexample) and lands with its bottom
 * vertex on the terrain's corner vertex v0, shared by two triangles. Each lone triangle touches
 * with a cone of normals; the heightfield's cast took the triangle v0 v4 v1's
 * (0.3016, −0.7627, −0.5721), which puts the other triangle's corner v3 0.053 past the
 * octahedron's support plane (it cuts through the terrain), the mesh's (asked in the other
 * argument order) (0.3016, −0.7627, +0.5721), which separates: the octahedron's edge from its
 * bottom vertex toward (0, 0, 0.4) resting on the terrain's boundary edge v0 → v1, the normal
 * ∝ (v1 − v0) × (0, 0.3, 0.4).
 *
 * Oracle (hand-derived): a normal n (from the octahedron toward the terrain) of a touching
 * contact at v0 is right when it separates the pair there: the octahedron's support along n is
 * its bottom vertex (n·u ≤ n·(0, −0.3, 0) for its six vertices u) and no terrain vertex lies
 * below v0 along n (n·(v − v0) ≥ 0). At exact vertex-on-vertex touching these normals form a
 * cone (the contact may take any of them); the cast's answer for both terrains is the edge–edge
 * normal above.
 */
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { makeConvexPolyhedron, makeHeightfield, makeTriangleMesh } from "../../src/shapes/index.js";

const heights = [-0.25, 0.75, -0.5, -0.625, -0.875, 0.5];
const scale = { x: 1.9999999999999984, y: 0.7908604571860163, z: 0.4889123172531916 };
const hf = makeHeightfield({ rows: 2, cols: 3, heights: Float64Array.from(heights), scale });
const vertices: number[] = [];
for (let r = 0; r < 2; r++)
  for (let c = 0; c < 3; c++) vertices.push(c * scale.x, heights[3 * r + c] * scale.y, r * scale.z);
const mesh = makeTriangleMesh(vertices, [0, 3, 4, 0, 4, 1, 1, 4, 5, 1, 5, 2]);
const octahedron = makeConvexPolyhedron([
  { x: 0.4, y: 0, z: 0 },
  { x: -0.4, y: 0, z: 0 },
  { x: 0, y: 0.5, z: 0 },
  { x: 0, y: -0.3, z: 0 },
  { x: 0, y: 0, z: 0.4 },
  { x: 0, y: 0, z: -0.4 },
]);

const hullVertices = [
  [0.4, 0, 0],
  [-0.4, 0, 0],
  [0, 0.5, 0],
  [0, -0.3, 0],
  [0, 0, 0.4],
  [0, 0, -0.4],
];

/** Worst violation of the oracle's inequalities by `n` (≤ 0 when n separates the pair at v0). */
function violation(n: { x: number; y: number; z: number }): number {
  let worst = -Infinity;
  const bottom = -0.3 * n.y;
  for (const [x, y, z] of hullVertices)
    worst = Math.max(worst, n.x * x + n.y * y + n.z * z - bottom);
  for (let k = 0; k < 6; k++) {
    const dx = vertices[3 * k] - vertices[0];
    const dy = vertices[3 * k + 1] - vertices[1];
    const dz = vertices[3 * k + 2] - vertices[2];
    worst = Math.max(worst, -(n.x * dx + n.y * dy + n.z * dz));
  }
  return worst;
}

/** The edge–edge normal: (v1 − v0) × (0, 0.3, 0.4), normalised (it points down: y < 0). */
function expectedNormal() {
  const e = vec3.create(scale.x, (heights[1] - heights[0]) * scale.y, 0);
  const n = vec3.cross(vec3.create(), e, vec3.create(0, 0.3, 0.4));
  vec3.normalize(n, n);
  return n;
}

describe("composite parts tied at a vertex: the normal that separates the whole pair", () => {
  const n = expectedNormal();
  // The octahedron's bottom vertex exactly on v0 = (0, −0.25·sy, 0).
  const at = {
    translation: { x: 0, y: 0.3 + heights[0] * scale.y, z: 0 },
    rotation: iso.identity().rotation,
  };
  const id = iso.identity();

  it("the oracle: the edge–edge normal separates, the lone triangle's does not", () => {
    expect(n.y).toBeLessThan(0);
    expect(n.x).toBeCloseTo(0.3016122478012028, 12);
    expect(n.z).toBeCloseTo(0.5720584049828044, 12);
    expect(violation(n)).toBeLessThanOrEqual(1e-12);
    expect(violation({ x: n.x, y: n.y, z: -n.z })).toBeGreaterThan(0.05);
  });

  for (const [name, terrain] of [
    ["heightfield", hf],
    ["mesh", mesh],
  ] as const) {
    it(`contact, both orders: ${name}`, () => {
      const c = contact(octahedron, at, terrain, id, 0.01);
      expect(c).not.toBeNull();
      if (!c) return;
      expect(Math.abs(c.distance)).toBeLessThan(1e-12);
      expect(violation(c.normal)).toBeLessThanOrEqual(1e-12);
      const r = contact(terrain, id, octahedron, at, 0.01);
      expect(r).not.toBeNull();
      if (r) expect(violation(vec3.negate(vec3.create(), r.normal))).toBeLessThanOrEqual(1e-12);
    });
  }

  it("castShapes onto the corner (the counterexample's motion): the heightfield's normal is the mesh's, and separates", () => {
    // heightfield.test.ts's seed 20261201 case, in the terrain's frame.
    const start = {
      translation: { x: 0, y: 2 * scale.y + 1.5, z: 2.6252042393648677e-46 * scale.z },
      rotation: at.rotation,
    };
    const v = { x: 2.058997967620469e-218, y: -2.9999999999999982, z: -6.2247504682788064e-170 };
    const hh = castShapes(octahedron, start, v, hf, id, vec3.create(), 3);
    const hm = castShapes(octahedron, start, v, mesh, id, vec3.create(), 3);
    expect(hh).not.toBeNull();
    expect(hm).not.toBeNull();
    if (!hh || !hm) return;
    expect(hh.toi).toBeCloseTo((start.translation.y - at.translation.y) / -v.y, 9);
    expect(hh.toi).toBeCloseTo(hm.toi, 12);
    expect(violation(hh.normal)).toBeLessThanOrEqual(1e-9);
    expect(violation(hm.normal)).toBeLessThanOrEqual(1e-9);
    // At this exact vertex-on-vertex touch every normal of the cone separates (the oracle
    // above); the heightfield and the mesh must take the same one. Which one is not pinned: the
    // edge–edge normal n (GJK/EPA's answer for a lone triangle) or the normal of the
    // triangle–polytope routine's SAT (issue 16), both within the cone.
    expect(vec3.dot(hh.normal, hm.normal)).toBeGreaterThan(1 - 1e-9);
  });
});
