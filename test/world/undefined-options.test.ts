/**
 * `undefined` means "not set" in every constructor's options (README): a fresh user's
 * `new CollisionWorld({ executor: maybeExecutor })` with `maybeExecutor` undefined threw
 * "options.executor must be a StepExecutor or null (got undefined)".
 */
import { describe, expect, it } from "vitest";
import { CollisionWorld2D } from "../../src/dim2/index.js";
import {
  CollisionWorld,
  DynamicTree,
  makeSphere,
  SpatialHash,
  SweepAndPrune,
} from "../../src/index.js";

const pose = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };

describe("undefined options keep their defaults", () => {
  it("CollisionWorld: executor, broadphase and sleepAfterSteps undefined act as not set", () => {
    const w = new CollisionWorld({
      executor: undefined,
      broadphase: undefined,
      sleepAfterSteps: undefined,
    });
    w.addBody({ shape: makeSphere(1), pose });
    w.addBody({ shape: makeSphere(1), pose });
    w.step();
    expect(w.contactCount).toBe(1);
  });

  it("CollisionWorld2D and the broad phases accept undefined values", () => {
    expect(() => new CollisionWorld2D({ broadphase: undefined })).not.toThrow();
    expect(() => new DynamicTree({ margin: undefined })).not.toThrow();
    expect(() => new SpatialHash({ cellSize: undefined })).not.toThrow();
    expect(() => new SweepAndPrune({ axis: undefined })).not.toThrow();
  });

  it("null is still refused where it is not a value (executor null is 'no executor')", () => {
    expect(() => new CollisionWorld({ executor: null })).not.toThrow();
    expect(() => new CollisionWorld({ broadphase: null as never })).toThrow(/broadphase/);
  });
});
