/**
 * The fuzzer's oracle (test/fuzz/fuzz.ts): contact(B, A) of two identical shapes — same type,
 * same parameters, same pose — is the very query contact(A, B), so it has the same answer and
 * the flip checks (normal negated, points swapped) must not be applied to it. Before the fix the
 * oracle reported "flipped normal not negated" for a right answer.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { Scenario } from "./generate.js";
import { expectReplayPasses } from "./recorded-cases.js";

function twins(shape: Record<string, unknown>, shared: number[]): Scenario {
  return {
    mode: "twins",
    localA: shape,
    localB: shape,
    worldA: shape,
    worldB: shape,
    offset: [0, 0, 0],
    shared,
    apart: 0,
    velocityA: [0, 0, 0],
    velocityB: [0, 0, 0],
    maxToi: 1,
    prediction: 0.25,
  } as Scenario;
}

describe("fuzz oracle: contact of identical shapes", () => {
  it("two identical spheres: depth 2r, and no flip failure", () => {
    const s = { type: "sphere", center: [1, 2, 3], radius: 0.75 };
    // The right value: two spheres of radius r at one centre overlap by 2r along any direction.
    const r = answerQuery({ op: "contact", a: s, b: s }) as { distance: number; normal: number[] };
    expect(r.distance).toBe(-1.5);
    expectReplayPasses(twins(s, [1, 2, 3]), "sphere-sphere", { ops: ["contact"] });
  });

  it("two identical boxes: depth the least full extent, and no flip failure", () => {
    const b = { type: "box", center: [0.5, -1, 2], halfExtents: [1, 2, 3] };
    // Identical boxes overlap by twice the least half extent (1 along x).
    const r = answerQuery({ op: "contact", a: b, b }) as { distance: number; normal: number[] };
    expect(r.distance).toBe(-2);
    expect(Math.abs(r.normal[0])).toBe(1);
    expectReplayPasses(twins(b, [0.5, -1, 2]), "box-box", { ops: ["contact"] });
  });
});
