/**
 * The general narrow phase (src/narrowphase/convex-convex.ts) is a pure function of its inputs:
 * the same pair at the same pose gives bitwise the same answer whatever pair was solved before
 * it. Its registers (module scratch read by `solve` after `solveLoaded`) must be written on every
 * path: `satGapIo` ("the gap is SAT's, at EPA's floor") was reset only on the EPA path, so a
 * separated pair read the value an earlier pair of polytopes left there and polished its gap's
 * witnesses as a SAT gap's, moving them in the last bit. In the world (issue 16) a mesh against a
 * rounded box then answered warm-started steps differently from cold ones
 * (test/world/warm-start.test.ts): the mesh's internal-edge rule (src/narrowphase/face-depth.ts)
 * measures a triangle against the rounded box by `distanceConvexConvex` at a touch, and the
 * same step of the other world had just solved a box against the mesh.
 *
 * Oracle: the routine's own answer before the unrelated call, compared with Object.is per
 * number (the answer is not checked for accuracy here; the fuzzer's tests do that).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import { makeContact, makeDistanceResult } from "../../src/narrowphase/contact.js";
import { contactConvexConvex, distanceConvexConvex } from "../../src/narrowphase/convex-convex.js";
import { contact } from "../../src/query/contact.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeRoundedCuboid } from "../../src/shapes/rounded.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { pose, unitQuat, vec } from "../oracles/arbitraries.js";

/** The numbers of an answer, in a fixed order. */
function flat(x: unknown): number[] {
  const out: number[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "number") out.push(v);
    else if (v !== null && typeof v === "object")
      for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k]);
  };
  walk(x);
  return out;
}

function expectBitwise(a: number[], b: number[]): void {
  expect(b.length).toBe(a.length);
  for (let i = 0; i < a.length; i++)
    if (!Object.is(a[i], b[i])) expect([i, b[i]]).toEqual([i, a[i]]);
}

function p(x: number, y: number, z: number, q = { x: 0, y: 0, z: 0, w: 1 }): Isometry {
  return { translation: { x, y, z }, rotation: q };
}

// The world of test/world/warm-start.test.ts that showed it (its shapes and first poses).
const mesh = makeTriangleMesh(
  [-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1, 0, 0.3, 0],
  [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4],
);
const roundedBox = makeRoundedCuboid({ x: 0.3, y: 0.3, z: 0.3 }, 0.1);
const box = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
const roundedPose = p(4.0089137920038696e-22, 0.000013844651095295617, -2.4362955862891578e-293, {
  x: -0.638155525593696,
  y: 0.6001705462487386,
  z: 0.43955141271590764,
  w: 0.1983617809689511,
});
const meshPose = p(-5.157336847541059e-12, -4.0987108706347844e-125, -3.563547877728946e-306, {
  x: 0.5449771064770101,
  y: -0.14265178976374546,
  z: 0.5251207170459309,
  w: 0.6378860813831205,
});
const boxPose = p(6.407374896524045e-47, -3.067252435945785e-87, -1.971734166689421e-198, {
  x: 0.53162353372106,
  y: 0.5156676715596732,
  z: -0.17521909636819621,
  w: -0.6486613439770176,
});
const otherMeshPose = p(-1.6086647503076124e-237, 6.834264845057965e-157, -1.7250329536608827e-12, {
  x: 0.6764830464069849,
  y: -0.5134251256244112,
  z: 0.1055691491913758,
  w: -0.5173204838786996,
});

/**
 * The unrelated calls: a box against the mesh (its internal-edge rule solves a triangle against
 * the box 3e-18 apart, a SAT gap at EPA's floor), and two boxes deep in each other (EPA from the
 * octahedron, no SAT gap). Each answer is compared after one and after the other.
 */
function boxOnMesh(): void {
  contact(box, boxPose, mesh, otherMeshPose, 0.02);
}
const deepScratch = makeContact();
function boxesDeep(): void {
  contactConvexConvex(deepScratch, box, box, p(0.1, 0.2, 0.05), 0);
}

/** The answer of `f` after `before`: its numbers, in a fixed order. */
function answerAfter(before: () => void, f: () => unknown): number[] {
  before();
  return flat(f());
}

// The internal-edge rule's call in that step: a face of the mesh against the rounded box moved
// along the face normal by the ray cast's depth, 1.3e-8 apart.
const face = makeTriangle({ x: 1, y: 0, z: -1 }, { x: 1, y: 0, z: 1 }, { x: 0, y: 0.3, z: 0 });
const faceN = { x: -0.2873478855663454, y: -0.9578262852211513, z: 0 };
const faceDepth = 0.27009511538403963;
const movedPose = p(
  0.000007122389416789416 + faceN.x * faceDepth,
  -0.000002014451221239746 + faceN.y * faceDepth,
  -0.000011699911077582961 + faceN.z * faceDepth,
  {
    x: -0.13730837364894133,
    y: 0.9857912452205015,
    z: -0.05982533224695817,
    w: -0.07604578222384495,
  },
);

describe("the general narrow phase is pure (issue 16, warm starts)", () => {
  it("recorded: a triangle 1.3e-8 from a rounded box, after a box against a mesh", () => {
    const d = makeDistanceResult();
    const f = () => distanceConvexConvex(d, face, roundedBox, movedPose);
    expectBitwise(answerAfter(boxesDeep, f), answerAfter(boxOnMesh, f));
  });

  it("recorded: the rounded box in the mesh (the world's contact), after a box against the mesh", () => {
    const f = () => contact(roundedBox, roundedPose, mesh, meshPose, 0.02);
    const clean = answerAfter(boxesDeep, f);
    expect(clean[0]).toBeLessThan(0);
    expectBitwise(clean, answerAfter(boxOnMesh, f));
  });

  it("property: a triangle near a rounded box, before and after a box against the mesh", () => {
    fc.assert(
      fc.property(
        vec(-1, 1),
        vec(-1, 1),
        vec(-1, 1),
        vec(0.05, 1),
        fc.double({ min: 0.001, max: 0.3, noNaN: true }),
        pose(-1.5, 1.5),
        fc.constantFrom(0, 0.02),
        (a, b, c, h, r, at, prediction) => {
          const tri = makeTriangle(a, b, c);
          const rb = makeRoundedCuboid(h, r);
          const d = makeDistanceResult();
          const k = makeContact();
          const dist = () => distanceConvexConvex(d, tri, rb, at);
          expectBitwise(answerAfter(boxesDeep, dist), answerAfter(boxOnMesh, dist));
          const con = () => (contactConvexConvex(k, tri, rb, at, prediction) ? k : null);
          expectBitwise(answerAfter(boxesDeep, con), answerAfter(boxOnMesh, con));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: a rounded box in the mesh (the world's route), before and after a box on it", () => {
    fc.assert(
      fc.property(pose(-1.2, 1.2), unitQuat, (at, q) => {
        const rbPose = p(at.translation.x, 0.2 * at.translation.y, at.translation.z, q);
        const f = () => contact(roundedBox, rbPose, mesh, meshPose, 0.02);
        expectBitwise(answerAfter(boxesDeep, f), answerAfter(boxOnMesh, f));
      }),
      { numRuns: 200 },
    );
  });
});
