/**
 * Issue 16, must-have 2: contact(B, A) is contact(A, B) flipped (same distance, negated normal,
 * exchanged points). The box–box SAT broke it on ties: concentric boxes (a centre offset of 0
 * along the axis took +axis in both orders), a face of A and a face of B equally deep (A's was
 * kept in either order) and flat-on-flat faces (the first clipped corner, a different one per
 * reference face). Minimal inputs from the differential fuzzer (seed 16), each checked against
 * hand-derived values.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";

type Vec = [number, number, number];
interface C {
  distance: number;
  normal: Vec;
  pointA: Vec;
  pointB: Vec;
}
const contact = (a: object, b: object) => answerQuery({ op: "contact", a, b }) as C;

function expectFlipped(a: object, b: object, tol: number): C {
  const c = contact(a, b);
  const f = contact(b, a);
  expect(f.distance).toBe(c.distance);
  for (let i = 0; i < 3; i++) {
    expect(f.normal[i] + c.normal[i]).toBe(0);
    expect(Math.abs(f.pointA[i] - c.pointB[i])).toBeLessThanOrEqual(tol);
    expect(Math.abs(f.pointB[i] - c.pointA[i])).toBeLessThanOrEqual(tol);
  }
  return c;
}

describe("box–box contacts are symmetric under swapping A and B", () => {
  it("concentric boxes: depth along the least overlap, normal flipped with the order", () => {
    const a = {
      type: "aabb",
      min: [-0.0005495566753645173, -0.0004847278378448551, -0.0005278772579650743],
      max: [0.0005495566753645173, 0.0004847278378448551, 0.0005278772579650743],
    };
    const b = {
      type: "box",
      center: [0, 0, 0],
      halfExtents: [0.0013144773589435857, 0.0006694373423624959, 0.0009233272679754473],
    };
    const c = expectFlipped(a, b, 1e-18);
    // Least overlap along y: the half heights' sum.
    expect(c.distance).toBe(-(0.0004847278378448551 + 0.0006694373423624959));
    expect(Math.abs(c.normal[1])).toBe(1);
    // The witnesses are the centres of the overlapping faces: on the y faces of each box.
    expect(Math.abs(Math.abs(c.pointA[1]) - 0.0004847278378448551)).toBeLessThanOrEqual(1e-19);
    expect(Math.abs(Math.abs(c.pointB[1]) - 0.0006694373423624959)).toBeLessThanOrEqual(1e-19);
  });

  it("concentric rotated boxes", () => {
    const a = {
      type: "box",
      center: [8012.44140625, -52324.25, 24717.921875],
      halfExtents: [4.4914486127757075e-7, 6.064597912266802e-7, 5.668456077934673e-7],
    };
    const b = {
      type: "box",
      center: [8012.44140625, -52324.25, 24717.921875],
      halfExtents: [1.3008753413053578e-6, 4.066555892392197e-6, 8.104551688282316e-6],
      rotation: [
        -0.050680405875364314, -0.9362958375968458, -0.17630000758837702, 0.2994994295211051,
      ],
    };
    expectFlipped(a, b, 1e-11);
  });

  it("boxes resting face on face: the centre of the faces' overlap in both orders", () => {
    const a = {
      type: "aabb",
      min: [40641.6875, -528.16845703125, -17968.9375],
      max: [40643.125, -525.73095703125, -17968.4375],
    };
    const b = {
      type: "aabb",
      min: [40638.34375, -530.54345703125, -17970.625],
      max: [40646.46875, -528.16845703125, -17967.125],
    };
    const c = expectFlipped(a, b, 0);
    expect(c.distance).toBe(0);
    // The overlap of the faces is A's bottom face: its centre.
    expect(c.pointA).toEqual([40642.40625, -528.16845703125, -17968.6875]);
    const d = {
      type: "box",
      center: [0, 0, 0],
      halfExtents: [0.0008544921875, 0.00164794921875, 0.000823974609375],
    };
    const e = {
      type: "aabb",
      min: [-0.00555419921875, -0.000762939453125, -0.001220703125],
      max: [-0.0008544921875, 0.000579833984375, 0.00201416015625],
    };
    const g = expectFlipped(d, e, 1e-18);
    // The faces' overlap: y ∈ [−0.000762939453125, 0.000579833984375], z ∈ [−0.000823974609375,
    // 0.000823974609375] on x = −0.0008544921875: its centre.
    expect(g.pointA[0]).toBe(-0.0008544921875);
    expect(g.pointA[1]).toBeCloseTo(-0.000091552734375, 18);
    expect(g.pointA[2]).toBeCloseTo(0, 18);
  });
});

describe("sphere–sphere: concentric spheres and touching at the rounding", () => {
  it("concentric spheres: the full depth, the normal negated with the order", () => {
    const a = { type: "sphere", center: [0, 0, 0], radius: 5.062836987566255e-5 };
    const b = { type: "sphere", center: [0, 0, 0], radius: 0.00019655658403161012 };
    const c = expectFlipped(a, b, 0);
    expect(c.distance).toBe(-(5.062836987566255e-5 + 0.00019655658403161012));
    expect(c.normal).toEqual([1, 0, 0]);
  });

  it("intersects, distance and contact agree on a pair touching at the rounding", () => {
    const a = { type: "sphere", center: [0, 0, 0], radius: 0.0017712318166097764 };
    const b = {
      type: "sphere",
      center: [0.00335460666232003, -0.0011553011938486178, 0.0007598516232632281],
      radius: 0.0018571950045850147,
    };
    const inter = (answerQuery({ op: "intersects", a, b }) as { intersects: boolean }).intersects;
    const d = (answerQuery({ op: "distance", a, b }) as { distance: number }).distance;
    const c = answerQuery({ op: "contact", a, b });
    expect(inter).toBe(d === 0);
    expect(c !== null).toBe(inter);
  });
});
