/**
 * Regression inputs of issue 16 found by the differential fuzzer (seed 16, 10^5 queries): witness
 * points off their shapes, and distance/contact contradicting intersects at touching. Each is a
 * `collide query` line; the points are checked against the fuzzer's independent oracle
 * (test/fuzz/oracle-*.ts: closed-form signed distances, brute-force hulls) or by hand.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson, ManifoldJson } from "../support/answers.js";
import { surfaceDistance } from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** Checks a contact's points on their shapes within rel·size and (pB − pA)·n = distance. */
function expectOnShapes(line: Record<string, unknown>, r: ContactJson, size: number, rel = 1e-12) {
  const A = oshape(line.a);
  const B = oshape(line.b);
  expect(surfaceDistance(A, r.pointA)).toBeLessThanOrEqual(rel * size);
  expect(surfaceDistance(B, r.pointB)).toBeLessThanOrEqual(rel * size);
  expect(Math.abs(dot(sub(r.pointB, r.pointA), r.normal) - r.distance)).toBeLessThanOrEqual(
    rel * size,
  );
}

describe("issue 16: witness points on their shapes", () => {
  it("triangle edge against a cylinder's side (the refinement follows the ridge of the edge)", () => {
    // Was: pointA 5.3e-6 off the triangle (the normal stalled next to the plane normal to the
    // edge b–c, where the triangle's support jumps between b and c).
    const line = {
      op: "contact",
      a: {
        type: "triangle",
        a: [0.36967792245880116, -0.3077090176161532, -3.2213010822728516],
        b: [0.42533098891444243, -1.9181350048341328, -1.4818573820486551],
        c: [-2.8069438316155297, -2.743494353840842, 1.2790876071823751],
      },
      b: {
        type: "cylinder",
        center: [3.9369748439992307, -1.9086246236290103, 8.264408833027243],
        halfHeight: 3.914522736500496,
        radius: 8.899322694597359,
        rotation: [
          0.7531915291553483, 0.04992422888521213, 0.35939373317450635, 0.5486768049897289,
        ],
      },
    };
    const r = answerQuery(line) as ContactJson;
    expect(r).not.toBeNull();
    expectOnShapes(line, r, 10);
  });

  it("cylinder rim against a box face, touching (snapped to the face normal)", () => {
    // Was: pointB 8.0e-9 off the box (shapes of size 0.05).
    const line = {
      op: "contact",
      a: {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: 0.05898921383363782,
        radius: 0.05054889672829517,
        rotation: [
          -0.8147460916352861, 0.12811132946520418, -0.550293209707448, 0.13020628547638846,
        ],
      },
      b: {
        type: "box",
        center: [-0.02561213352766975, 0.11320923709044083, -0.03561968007845938],
        halfExtents: [0.03342011832441804, 0.028252813460434446, 0.032203003527314394],
        rotation: [0.3513812496270012, 0.37051947584541545, 0.782653245157769, 0.35595004322772444],
      },
    };
    const r = answerQuery(line) as ContactJson;
    expect(r).not.toBeNull();
    expectOnShapes(line, r, 0.1);
  });

  it("cylinder against cylinder, both supports unique: the support points themselves", () => {
    // Was: pointA 9.5e-11 off A (sizes 0.13 and 0.06): A's point had been moved onto B's line.
    const line = {
      op: "contact",
      a: {
        type: "cylinder",
        center: [9.80487060546875, -15.558143615722656, 5.171871185302734],
        halfHeight: 0.1406973580329452,
        radius: 0.13267158783657174,
        rotation: [
          0.3529448784438497, -0.2134969259278952, 0.8090326588203306, -0.41870649906790525,
        ],
      },
      b: {
        type: "cylinder",
        center: [9.85019761066911, -15.320002971990705, 5.2215001575018],
        halfHeight: 0.030137223147495132,
        radius: 0.06448257448715526,
        rotation: [
          -0.5402849795712413, 0.3068658394029133, -0.7571016614772891, 0.20179834401098762,
        ],
      },
    };
    const r = answerQuery(line) as ContactJson;
    expect(r).not.toBeNull();
    expectOnShapes(line, r, 0.2);
  });

  it("tilted capsule on a half-space: every manifold point on the capsule (hand-derived)", () => {
    // Was: the upper end's point at b − r·n, 4.4e-4 inside the capsule (its axis slopes down
    // toward a). A point is on the capsule when its distance to the segment is the radius.
    const a: V = [-0.007504116371307371, -0.0020926910664393252, 0.014296510041083418];
    const b: V = [0.008786728030004652, 0.005642594141230731, -0.015160515708584782];
    const radius = 0.017486018143717464;
    const line = {
      op: "manifold",
      a: { type: "halfspace", normal: [0, 1, 0], offset: -0.009389404412749295 },
      b: { type: "capsule", a, b, radius },
    };
    const m = answerQuery(line) as ManifoldJson;
    expect(m.points.length).toBe(2);
    const ab = sub(b, a);
    for (const p of m.points) {
      const t = Math.min(1, Math.max(0, dot(sub(p.pointB, a), ab) / dot(ab, ab)));
      const q: V = [a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]];
      const d = Math.hypot(...sub(p.pointB, q));
      expect(Math.abs(d - radius)).toBeLessThanOrEqual(1e-15);
      // On the plane y = −0.00938…, and the distance is the gap along the normal (0, 1, 0).
      expect(p.pointA[1]).toBeCloseTo(-0.009389404412749295, 15);
      expect(Math.abs(p.pointB[1] - p.pointA[1] - p.distance)).toBeLessThanOrEqual(1e-15);
    }
  });

  it("mesh against a half-space: a vertex no triangle uses is not a contact point", () => {
    // Part of a box (4 triangles; vertices 6 and 7 are used by none). Was: a manifold point 90
    // units off the mesh, at an unused vertex. Hand-derived: the half-space {−x ≤ 0} = {x ≥ 0};
    // the used vertices reach x = 1 + 0.5 (4 and 5), the unused ones x = 5 + 0.5.
    const v = (x: number, y: number, z: number) => [x, y, z];
    const line = {
      op: "manifold",
      a: { type: "halfspace", normal: [-1, 0, 0], offset: 0 },
      b: {
        type: "mesh",
        // Used: 0–5 (x = −1 for 0–3, x = +1 for 4, 5). Unused: 6, 7 at x = 5 (would be deepest).
        vertices: [
          v(-1, -1, -1),
          v(-1, -1, 1),
          v(-1, 1, -1),
          v(-1, 1, 1),
          v(1, -1, -1),
          v(1, -1, 1),
          v(5, 1, -1),
          v(5, 1, 1),
        ],
        indices: [
          [0, 1, 3],
          [0, 3, 2],
          [0, 4, 5],
          [0, 5, 1],
        ],
        position: [0.5, 0, 0],
      },
    };
    const m = answerQuery(line) as ManifoldJson;
    // The deepest used vertices, 4 and 5, are at x = 1.5 in {x ≥ 0}: distance −1.5.
    expect(m.points.length).toBe(2);
    for (const p of m.points) {
      expect(p.distance).toBe(-1.5);
      expect(p.pointB[0]).toBe(1.5);
      expect(p.pointA[0]).toBe(0);
    }
    const c = answerQuery({ ...line, op: "contact" }) as ContactJson;
    expect(c.distance).toBe(-1.5);
  });
});

describe("issue 16: distance and contact agree with intersects at touching", () => {
  it("cone against cylinder a few ulps apart by distance's own GJK run, touching by intersects", () => {
    const line = {
      op: "distance",
      a: {
        type: "cone",
        center: [14023.75, -57235.1875, 15526.5390625],
        halfHeight: 15.92109923340962,
        radius: 15.170955554476269,
        rotation: [
          -0.3685823335587914, -0.9012745482549056, 0.08391188185835721, 0.21168384005223617,
        ],
      },
      b: {
        type: "cylinder",
        center: [14039.732694383129, -57222.24834020918, 15524.97905081788],
        halfHeight: 5.028242469217003,
        radius: 6.1960294609171465,
        rotation: [
          -0.6127821256696073, 0.38808323525599153, -0.4603985363710572, -0.5117837987670855,
        ],
      },
    };
    // Was: intersects true, distance 1.06e-12, contact null. The pair is within the rounding of
    // its coordinates (5.7e4, ulp 7.3e-12) of touching — the fuzzer's oracle has no certificate
    // either way — so either verdict is right, but one in every query: since GJK's separation
    // test at its rounding tolerance (src/geometry/gjk.ts) it is apart by 1.07e-12 in all.
    const hit = (answerQuery({ ...line, op: "intersects" }) as { intersects: boolean }).intersects;
    const d = (answerQuery(line) as { distance: number }).distance;
    expect(d === 0).toBe(hit);
    expect(d).toBeLessThan(8e-12);
    const c = answerQuery({ ...line, op: "contact" }) as ContactJson | null;
    expect(c !== null).toBe(hit);
    if (c) expect(c.distance).toBeLessThanOrEqual(0);
  });
});
