/**
 * Fuzz seed 85 (10^6 queries on 4db5ddf), its two mesh lines (test/fuzz/seed-85-mesh.cases.jsonl;
 * the run's aabb–box line is another file's): witnesses not facing along the normal where a
 * small shape meets a mesh orders of magnitude larger or smaller.
 *
 * 1. A triangle of 1e-4 at the centre of a closed box mesh of half extents (5.4e4, 1.75e4,
 *    1.34e4), turned; `contact` within a prediction: distance 13417.56 to the −z face, pointB
 *    2.4e-5 beside the corner's foot (bar 1.3e-5). The corner's foot lies 2.4e-5 from the face's
 *    diagonal (the triangles' shared edge passes through the centre), so for the triangle that
 *    holds it the corner–face pair and the corner–diagonal pair differ by δ²/2d = 2e-14 in
 *    distance, below the rounding of the squared distances (ε·d·frame) by which
 *    src/narrowphase/triangle-polytope.ts ranks them: the diagonal's point won, `gapNormal` kept
 *    the SAT's face normal, and the points were the diagonal's. Now `gapFacingWitnesses` faces
 *    them along the kept axis (the corner and its foot on the face).
 * 2. A box mesh of 2.6e-6 touching a hull of 1e5 at a corner (`contact` and `manifold`): pB − pA
 *    2.4e-8 across the normal (bar 2.4e-9). The triangle–hull witness near the corner carried
 *    the hull's rounding (1.7e-11, a barycentric weight of 2.6e-6 of the small triangle), so it
 *    fell on the face's diagonal, an inactive edge: the internal-edge rule measured the depth
 *    along the face normal (src/narrowphase/face-depth.ts, `faceContactTriangleConvex`), whose
 *    GJK ray cast overshot by its tolerance at the hull's scale (2.6e-7 for a touch), and the
 *    first Newton step, below 0, ended the refinement there: witnesses 2.6e-7 apart along a
 *    direction 5° off the normal, a depth of 2.1e-9 that the touch does not have. Now a step
 *    below 0 measures the touch at depth 0.
 *
 * Oracles, independent of the library: for line 1 the distance by brute force over the mesh's
 * 12 triangles in the mesh's frame (the triangle lies inside the box: the least distance is a
 * corner's to a face) and the exact value from 50-digit arithmetic; for line 2 the fuzzer's own
 * oracle (test/fuzz/oracle-pairs.ts: the pair touches, overlap ≤ 0 and gap ≤ 0). Every line is
 * replayed through the fuzzer's checks, and the property draws the class.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { boxMeshJson } from "../support/box-mesh.js";
import {
  offsetArb,
  rotationArb as quatArb,
  quatArb as rawQuatArb,
  unitArb,
} from "./arbitraries.js";
import { touchDisplacement } from "./fuzz.js";
import { exactOffset, offsetScenario, type Scenario, translateShape } from "./generate.js";
import {
  closestOnTriangle,
  dot,
  norm,
  rotate,
  scale,
  sub,
  unrotate,
  type V,
} from "./oracle-shapes.js";
import { expectReplayPasses, loadCaseLines, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;
interface ContactJson {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
}

const cases = loadCaseLines("./seed-85-mesh.cases.jsonl");

describe("fuzz seed 85: mesh lines (a small shape against a mesh of another scale)", () => {
  replayCases(cases, 3);

  it("the triangle at the box mesh's centre: 13417.56332355038 to the −z face, the corner facing its foot", () => {
    const line = (cases[0] as unknown as { line: { a: J; b: J; prediction: number } }).line;
    const tri = line.a;
    const mesh = line.b as { vertices: V[]; indices: V[]; rotation: number[] };
    const q = mesh.rotation;
    // Brute force in the mesh's frame: each corner against each of the 12 triangles.
    const corners = (["a", "b", "c"] as const).map((k) => unrotate(q, tri[k] as V));
    let best = Infinity;
    let bestCorner = -1;
    for (const [i, p] of corners.entries()) {
      for (const [u, v, w] of mesh.indices) {
        const f = closestOnTriangle(p, mesh.vertices[u], mesh.vertices[v], mesh.vertices[w]);
        const d = norm(sub(f, p));
        if (d < best) {
          best = d;
          bestCorner = i;
        }
      }
    }
    // 50-digit arithmetic: h_z − |corner b's z| = 13417.563323550378102…, corner b (index 1).
    const EXACT = 13417.563323550377;
    expect(bestCorner).toBe(1);
    expect(Math.abs(best - EXACT)).toBeLessThan(1e-11);
    const r = answerQuery(line) as ContactJson;
    expect(Math.abs(r.distance - EXACT)).toBeLessThanOrEqual(1e-9 * EXACT);
    // The normal: the −z face's outward normal, turned.
    const n = rotate(q, [0, 0, -1]);
    expect(norm(sub(r.normal, n))).toBeLessThan(1e-14);
    // Witnesses: corner b and its foot on the face, pB − pA = d·n.
    expect(norm(sub(r.pointA, tri.b as V))).toBeLessThan(1e-19);
    const dp = sub(r.pointB, r.pointA);
    const across = norm(sub(dp, scale(n, dot(dp, n))));
    expect(across).toBeLessThan(1e-10); // was 2.407e-5
    expect(Math.abs(unrotate(q, r.pointB)[2] + mesh.vertices[7][2])).toBeLessThan(1e-11);
  });

  it("the box mesh of 2.6e-6 touching the hull of 1e5: distance 0, witnesses facing (contact and manifold)", () => {
    for (const c of cases.slice(1)) {
      const line = { ...(c as unknown as { line: J }).line, op: "contact" };
      const r = answerQuery(line) as ContactJson;
      // The pair's extent is 1.7e5: its rounding bar 64ε·L = 2.4e-9 (the touch's ambiguity).
      const amb = 2.4e-9;
      expect(Math.abs(r.distance)).toBeLessThanOrEqual(amb); // was −2.13e-9
      const dp = sub(r.pointB, r.pointA);
      expect(norm(sub(dp, scale(r.normal, dot(dp, r.normal))))).toBeLessThan(amb / 10); // was 2.38e-8
    }
  });
});

const cylinderCases = loadCaseLines("./cylinder-small-mesh.cases.jsonl");

describe("issue 16: a cylinder of 4.4e4 overlapping a box mesh of 5e-7's +x face by 2.0e-12", () => {
  replayCases(cylinderCases, 1);

  it("contact: the +x face's depth along ±x, witnesses facing (was −0.819 along z, 7.6e-6 apart)", () => {
    const line = (cylinderCases[0] as unknown as { line: { a: J; b: J } }).line;
    const cyl = line.b as { center: V; radius: number };
    // Exact rationals: the cylinder's axis lies along y (its turn of 180° about z), the mesh's
    // turn is the identity to below 1e-246, so the overlap along x is the face's x less the
    // disc's leftmost x; both differences are Sterbenz-exact in doubles.
    const face = 2.6465770079878003e-7;
    const leftmost = cyl.center[0] - cyl.radius;
    expect(leftmost).toBe(2.6465568225830793e-7);
    const overlap = face - leftmost;
    expect(overlap).toBe(2.0185404720976897e-12);
    const r = answerQuery(line as unknown as J) as ContactJson;
    expect(Math.abs(-r.distance - overlap)).toBeLessThanOrEqual(1e-6 * overlap); // was 0.819
    expect(Math.abs(r.normal[0])).toBeGreaterThan(1 - 1e-12);
    const dp = sub(r.pointB, r.pointA);
    const across = norm(sub(dp, scale(r.normal, dot(dp, r.normal))));
    expect(across).toBeLessThan(1e-9); // was 7.6e-6
  });
});

// The class: a small shape at the centre of a large closed box mesh (its faces' diagonals pass
// by the shape's corners' feet), `contact` within a prediction beyond the mesh; and a small box
// mesh touching a large convex shape. Sizes 1e-6..1e6, the small one 10^-6..10^-12 of the
// large, turned, offsets to 1e9; replayed through the fuzzer's checks (facing bar on). Before
// the fix, 19 of 2,400 such draws failed (triangles at the centre; boxes, hulls, capsules,
// cylinders, aabbs and triangles touching a small mesh); the properties' runs below fail too.
const smallArb = (s: number, c: V): fc.Arbitrary<J> =>
  fc.oneof(
    fc
      .tuple(unitArb, unitArb, unitArb, fc.double({ min: 0.2, max: 1, noNaN: true }))
      .map(([u, v, w, k]) => ({
        type: "triangle",
        a: c.map((x, i) => x + u[i] * s) as V,
        b: c.map((x, i) => x + v[i] * s * k) as V,
        c: c.map((x, i) => x + w[i] * s) as V,
      })),
    fc.tuple(fc.double({ min: 0.1, max: 1, noNaN: true }), quatArb).map(([k, rotation]) => ({
      type: "box",
      center: c,
      halfExtents: [s, s * k, s * (1.1 - k)],
      rotation,
    })),
    fc.tuple(unitArb, unitArb, quatArb).map(([u, v, rotation]) => ({
      type: "convex",
      points: [u, v, [0.4, 0.4, 0.4], [-0.4, -0.4, 0.4], [-0.4, 0.4, -0.4], [0.4, -0.4, -0.4]].map(
        (p) => p.map((x) => x * s),
      ),
      position: c,
      rotation,
    })),
    unitArb.map((u) => ({
      type: "capsule",
      a: c.map((x, i) => x - u[i] * s * 0.5),
      b: c.map((x, i) => x + u[i] * s * 0.5),
      radius: s * 0.3,
    })),
    quatArb.map((rotation) => ({
      type: "cylinder",
      center: c,
      halfHeight: s * 0.7,
      radius: s * 0.5,
      rotation,
    })),
    quatArb.map((rotation) => ({
      type: "cone",
      center: c,
      halfHeight: s,
      radius: s * 0.6,
      rotation,
    })),
    fc.constant({ type: "sphere", center: c, radius: s * 0.8 }),
    fc.constant({
      type: "aabb",
      min: c.map((x) => x - s),
      max: c.map((x, i) => x + s * (0.3 + 0.2 * i)),
    }),
  );

const halvesArb = fc.tuple(
  fc.double({ min: 0.2, max: 1, noNaN: true }),
  fc.double({ min: 0.2, max: 1, noNaN: true }),
  fc.double({ min: 0.2, max: 1, noNaN: true }),
);

describe("property: a small shape against a mesh of another scale, witnesses facing", () => {
  it("a small shape at a large box mesh's centre, contact within a prediction beyond it", () => {
    const arb = fc
      .tuple(
        fc.double({ min: 1, max: 6, noNaN: true }),
        fc.double({ min: 7, max: 10, noNaN: true }),
        halvesArb,
        quatArb,
        offsetArb,
        fc.boolean(),
      )
      .chain(([logH, r, h, rotation, off, meshFirst]) => {
        const H = 10 ** logH;
        const s = Math.max(1e-6, H * 10 ** -r);
        const mesh: J = { ...boxMeshJson(scale(h as V, H), [0, 0, 0]), rotation };
        return smallArb(s, [0, 0, 0]).map((small) => ({ H, mesh, small, off, meshFirst }));
      });
    fc.assert(
      fc.property(arb, ({ H, mesh, small, off: [ou, om], meshFirst }) => {
        const [a, b] = meshFirst ? [mesh, small] : [small, mesh];
        const sc: Scenario = offsetScenario(a, b, exactOffset(ou, om));
        sc.mode = "concentric";
        sc.prediction = 4 * H;
        expectReplayPasses(sc, `${small.type}-mesh`, { ops: ["contact", "manifold"] });
      }),
      { numRuns: 400, seed: 85 },
    );
  });

  /**
   * A small box mesh (surface) touching a large shape, the mesh turned by `rotArb`'s draws and
   * the large shape by `smallArb`'s (rotationArb). `quatArb`'s raw normalised quaternions reach
   * subnormal and tiny components (issue 16's line: (1, 5e-324, −4.2e-247, −1.3e-297)).
   */
  function touchingProperty(rotArb: fc.Arbitrary<number[]>, numRuns: number, seed: number): void {
    const arb = fc
      .tuple(
        fc.double({ min: 4, max: 6, noNaN: true }),
        fc.double({ min: 9, max: 12, noNaN: true }),
        halvesArb,
        rotArb,
        unitArb,
        offsetArb,
        fc.boolean(),
      )
      .chain(([logH, r, h, rotation, u, off, meshFirst]) => {
        const H = 10 ** logH;
        const s = Math.max(1e-6, H * 10 ** -r);
        const mesh: J = { ...boxMeshJson(scale(h as V, s), [0, 0, 0]), rotation };
        return smallArb(H, scale(u, 3 * H)).map((big) => ({ mesh, big, off, meshFirst }));
      });
    fc.assert(
      fc.property(arb, ({ mesh, big, off: [ou, om], meshFirst }) => {
        const t = touchDisplacement(mesh, big);
        const moved = t ? translateShape(big, t) : big;
        const [a, b] = meshFirst ? [mesh, moved] : [moved, mesh];
        const sc = offsetScenario(a, b, exactOffset(ou, om));
        expectReplayPasses(sc, `${big.type}-mesh`, { ops: ["contact", "manifold"] });
      }),
      { numRuns, seed },
    );
  }

  it("a small box mesh touching a large convex shape", () => {
    touchingProperty(quatArb, 300, 85);
  });

  it("a small box mesh turned by raw quaternions (subnormal components) touching a large shape", () => {
    // Issue 16: a witness on the mesh rounded at the large shape's coordinates fell 1.3e-6 in
    // weight beside an active edge onto an inactive diagonal, and the face-normal depth took over.
    touchingProperty(rawQuatArb, 600, 1);
  });
});
