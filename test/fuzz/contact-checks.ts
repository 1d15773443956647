/**
 * Checks of a `contact` answer shared by the regression tests of issue 16, written without the
 * library: the oracle shapes of test/oracles/revolution-depth.ts (closed-form supports and signed
 * distances) and the fuzzer's own checks (test/fuzz/fuzz.ts, through recorded-cases.ts). Each test
 * file keeps its cases, its generator and its bars; what they all did alike lives here:
 *
 * - {@link facingError}: how far the witnesses are from facing each other across the normal
 *   (pointB − pointA against distance · normal, the fuzzer's `facing` bar);
 * - {@link expectLeastOverlapContacts}: a recorded pair, both orders, against the least overlap
 *   over directions (its depth, the normal achieving it, witnesses on their shapes and facing);
 * - {@link forEachPointRimOrder}, {@link expectPointRimFacing}: a scene of the point-rim generator
 *   (test/fuzz/point-rim.gen.ts), both orders, with `contact`'s answer and the generator's bounds.
 */
import { expect } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import {
  leastOverlap,
  type OracleShape,
  oracleShape,
  overlapAlong,
} from "../oracles/revolution-depth.js";
import type { Scenario } from "./generate.js";
import type { V } from "./oracle-shapes.js";
import { type PointRimParams, pointRimBounds, pointRimScene } from "./point-rim.gen.js";
import { type Case, expectReplayPasses } from "./recorded-cases.js";

type J = Record<string, unknown>;

/** The double precision's machine epsilon, 2^-52. */
export const EPS = 2 ** -52;

/** The largest coordinate magnitude of a JSON shape's points and centre, plus its sizes. */
export function extentOf(j: J): number {
  let m = 0;
  for (const k of ["center", "a", "b", "c"]) {
    if (Array.isArray(j[k])) m = Math.max(m, ...(j[k] as number[]).map(Math.abs));
  }
  for (const k of ["halfHeight", "radius"]) if (typeof j[k] === "number") m += j[k] as number;
  return m;
}

/** 64 ε of the pair's extent (docs/FORMATS.md, "Accuracy"). */
export function pairBar(a: J, b: J): number {
  return 64 * EPS * (extentOf(a) + extentOf(b));
}

/** `contact`'s answer as JSON (docs/FORMATS.md): signed distance, unit normal from A to B, witnesses (world frame). */
export interface ContactAnswer {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
}

/** |pointB − pointA − distance·normal|: how far the witnesses are from facing across the normal. */
export function facingError(r: ContactAnswer): number {
  return Math.hypot(
    r.pointB[0] - r.pointA[0] - r.distance * r.normal[0],
    r.pointB[1] - r.pointA[1] - r.distance * r.normal[1],
    r.pointB[2] - r.pointA[2] - r.distance * r.normal[2],
  );
}

/**
 * The bar of a scenario's pair in its local frame: 64 ε of its extent (the largest magnitude of
 * the shapes' centres plus both shapes' sizes, from the oracle shapes). Shapes with a `center`.
 */
export function scenarioBar(sc: Scenario): number {
  const A = oracleShape(sc.localA as J);
  const B = oracleShape(sc.localB as J);
  const c = (j: unknown) => ((j as J).center as V).map(Math.abs);
  const extent = Math.max(...c(sc.localA), ...c(sc.localB)) + A.size + B.size;
  return 64 * EPS * extent;
}

/**
 * For each recorded case, both argument orders, in the local frame: `contact`'s depth at most the
 * least overlap over directions (`leastOverlap`, an upper bound of the depth) and, with
 * `depthAtLeast`, at least it (less 1e-6 of it); its normal achieving its depth (the overlap along
 * it, a lower bound); its witnesses on their shapes; and facing each other. Every bar is
 * {@link scenarioBar}'s.
 */
export function expectLeastOverlapContacts(
  cases: readonly Case[],
  { depthAtLeast }: { depthAtLeast: boolean },
): void {
  for (const c of cases) {
    const sc = c.scenario;
    const bar = scenarioBar(sc);
    const A = oracleShape(sc.localA as J);
    const B = oracleShape(sc.localB as J);
    const least = leastOverlap(A, B).depth;
    for (const flip of [false, true]) {
      const [a, b, OA, OB] = flip ? [sc.localB, sc.localA, B, A] : [sc.localA, sc.localB, A, B];
      const r = answerQuery({ op: "contact", a, b }) as ContactAnswer;
      expect(-r.distance).toBeLessThanOrEqual(least + bar);
      if (depthAtLeast) expect(-r.distance).toBeGreaterThanOrEqual(least - 1e-6 * least - bar);
      expect(Math.abs(overlapAlong(OA, OB, r.normal) + r.distance)).toBeLessThanOrEqual(bar);
      expect(Math.abs(OA.signed(r.pointA))).toBeLessThanOrEqual(bar);
      expect(Math.abs(OB.signed(r.pointB))).toBeLessThanOrEqual(bar);
      expect(facingError(r)).toBeLessThanOrEqual(bar);
    }
  }
}

/** One argument order of a point-rim scene, with `contact`'s answer in the world frame. */
export interface PointRimOrder {
  /** The scenario in this order (the solid first, or the box first). */
  scenario: Scenario;
  /** Its pair name, e.g. "cone-box" or "box-cone". */
  pair: string;
  /** The generator's bar: 64 ε of the pair's extent at its offset. */
  bar: number;
  /** The generator's bounds of the signed distance (`pointRimBounds`). */
  lower: number;
  upper: number;
  /** The oracle shapes of A and B as placed in the world. */
  worldA: OracleShape;
  worldB: OracleShape;
  /** `contact`'s answer (null when there is none) with a prediction of 4 times the largest of the bar and the bounds' magnitudes. */
  contact: ContactAnswer | null;
}

/**
 * Builds the scene of `g` (test/fuzz/point-rim.gen.ts) and calls `check` for each argument order
 * in turn (the generator's, then the box first), each order's `contact` asked just before its
 * call.
 */
export function forEachPointRimOrder(g: PointRimParams, check: (o: PointRimOrder) => void): void {
  const s = pointRimScene(g);
  const { lower, upper } = pointRimBounds(s);
  const bar = s.bar;
  const prediction = 4 * Math.max(bar, Math.abs(lower), Math.abs(upper));
  for (const [sc, pair] of [
    [s.scenario, s.pair],
    [s.flipped, `box-${g.kind}`],
  ] as const) {
    const worldA = oracleShape(sc.worldA as J);
    const worldB = oracleShape(sc.worldB as J);
    const contact = answerQuery({
      op: "contact",
      a: sc.worldA,
      b: sc.worldB,
      prediction,
    }) as ContactAnswer | null;
    check({ scenario: sc, pair, bar, lower, upper, worldA, worldB, contact });
  }
}

/**
 * The scene of `g`, both orders: a contact, its distance within the generator's bounds, its
 * witnesses on their shapes and facing (all to the generator's bar), and the fuzzer's `contact`
 * checks with `facing` passed.
 */
export function expectPointRimFacing(g: PointRimParams): void {
  forEachPointRimOrder(g, ({ scenario, pair, bar, lower, upper, worldA, worldB, contact: r }) => {
    expect(r).not.toBeNull();
    if (r === null) return;
    expect(r.distance).toBeGreaterThanOrEqual(lower - bar);
    expect(r.distance).toBeLessThanOrEqual(upper + bar);
    expect(Math.abs(worldA.signed(r.pointA))).toBeLessThanOrEqual(bar);
    expect(Math.abs(worldB.signed(r.pointB))).toBeLessThanOrEqual(bar);
    expect(facingError(r)).toBeLessThanOrEqual(bar);
    expectReplayPasses(scenario, pair, { ops: ["contact"], facing: true });
  });
}
