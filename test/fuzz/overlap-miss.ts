/**
 * The rounded-tilt tests' shared checks (test/fuzz/rounded-tilt-normal.test.ts,
 * degenerate-triangle-pairs.test.ts, capsule-sliver.test.ts): the fuzzer's bars for a scenario,
 * its `contact`, both argument orders, and how far a contact's normal misses its depth or gap by
 * the generator's exact overlap along it ({@link overlapMiss}, test/fuzz/rounded-tilt.gen.ts).
 */
import { answerQuery } from "../../src/io/query.js";
import type { ContactAnswer } from "./contact-checks.js";
import { offsetScenario, type Scenario } from "./generate.js";
import { dist, oshape } from "./oracle-shapes.js";
import { overlapMiss } from "./rounded-tilt.gen.js";

type J = Record<string, unknown>;

const EPS = 2 ** -52;

/** The fuzzer's bars for the scenario's pair (test/fuzz/fuzz.ts: depthTol, distTol). */
export function bar(sc: Scenario, distance: number): number {
  const A = oshape(sc.localA);
  const B = oshape(sc.localB);
  const amb = 64 * EPS * Math.max(A.radius, B.radius, dist(A.center, B.center));
  if (distance <= 0) return 1e-6 * -distance + amb;
  return 1e-9 * Math.max(distance, Math.min(A.radius, B.radius)) + amb;
}

/** `contact` of the scenario's world pair at its prediction. */
export function contactOf(sc: Scenario): ContactAnswer | null {
  return answerQuery({
    op: "contact",
    a: sc.worldA,
    b: sc.worldB,
    prediction: sc.prediction,
  }) as ContactAnswer | null;
}

/**
 * How far the answer's normal misses its depth (the overlap along it less the depth) or, apart,
 * falls short of its gap (the separation along it, a lower bound of the distance).
 */
export function normalMiss(sc: Scenario, r: ContactAnswer): number {
  const a = sc.localA as J;
  const b = sc.localB as J;
  if (r.distance <= 0) return Math.abs(overlapMiss(a, b, r.normal, -r.distance));
  return Math.max(0, r.distance + overlapMiss(a, b, r.normal, 0));
}

/** The scenario and its swap (B first), at its prediction. */
export const bothOrders = (sc: Scenario): Scenario[] =>
  [sc, offsetScenario(sc.localB as J, sc.localA as J, sc.offset)].map((s) => ({
    ...s,
    prediction: sc.prediction,
  }));
