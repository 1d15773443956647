/**
 * Issue 16 (bad input gives a CollideError naming field and value): `setPoses` with a handle
 * given twice was accepted, the last pose winning and the other silently dropped. It is refused
 * (`invalid_value` naming `handles[i]` of the repeat, its value the handle, the message naming
 * the first), with the world unchanged, in the 3D world (small and large batches: the large
 * one takes the slot-sorted path) and in the 2D world's `setPoses`.
 */
import { describe, expect, it } from "vitest";
import * as pose2 from "../../src/dim2/pose2.js";
import { makeCircle } from "../../src/dim2/shapes.js";
import { CollisionWorld2D } from "../../src/dim2/world2.js";
import { CollideError } from "../../src/errors.js";
import * as iso from "../../src/math/isometry.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld } from "../../src/world/index.js";

function refusal(f: () => void): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError");
}

describe("setPoses refuses a handle given twice (issue 16)", () => {
  for (const n of [3, 2000]) {
    it(`3D, ${n} bodies: names the repeat and its first place; nothing moves; a step sees no move`, () => {
      const w = new CollisionWorld();
      const hs: BodyHandle[] = [];
      for (let i = 0; i < n; i++)
        hs.push(w.addBody({ shape: makeSphere(0.4), pose: iso.create({ x: i, y: 0, z: 0 }) }));
      w.step();
      const before = hs.map((h) => w.getPose(h));
      const batch = [...hs, hs[1]];
      const poses = new Float64Array(7 * batch.length);
      for (let i = 0; i < batch.length; i++) poses.set([i, 5, 0, 0, 0, 0, 1], 7 * i);
      const e = refusal(() => w.setPoses(batch, poses));
      expect(e.code).toBe("invalid_value");
      expect(e.field).toBe(`handles[${n}]`);
      expect(e.value).toBe(hs[1]);
      expect(e.message).toBe(
        `handles[${n}] repeats handles[1]: setPoses moves each body once (one pose per handle) (got ${hs[1]})`,
      );
      expect(hs.map((h) => w.getPose(h))).toEqual(before);
      // The same batch without the repeat is accepted.
      w.setPoses(hs, poses.subarray(0, 7 * n));
      expect(w.getPose(hs[1]).translation).toEqual({ x: 1, y: 5, z: 0 });
    });
  }

  it("3D: [h, h] — the issue's form", () => {
    const w = new CollisionWorld();
    const h = w.addBody({ shape: makeSphere(1), pose: iso.identity() });
    const e = refusal(() =>
      w.setPoses([h, h], Float64Array.from([1, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 1])),
    );
    expect(e.field).toBe("handles[1]");
    expect(e.value).toBe(h);
    expect(w.getPose(h).translation).toEqual({ x: 0, y: 0, z: 0 });
  });

  it("2D: setPoses moves many bodies, validated first; [h, h] refused naming handles[1], the world unchanged", () => {
    const w = new CollisionWorld2D();
    const a = w.addBody({ shape: makeCircle(1), pose: pose2.fromAngle(0, 0) });
    const b = w.addBody({ shape: makeCircle(1), pose: pose2.fromAngle(5, 0) });
    w.step();
    const e = refusal(() =>
      w.setPoses([a, b, a], [pose2.fromAngle(1, 0), pose2.fromAngle(2, 0), pose2.fromAngle(3, 0)]),
    );
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("handles[2]");
    expect(e.value).toBe(a);
    expect(e.message).toContain("repeats handles[0]");
    expect(w.getPose(a).p).toEqual({ x: 0, y: 0 });
    expect(w.getPose(b).p).toEqual({ x: 5, y: 0 });
    // A bad pose after a good one: nothing moves either.
    const bad = refusal(() =>
      w.setPoses([a, b], [pose2.fromAngle(1, 0), pose2.fromAngle(Number.NaN, 0)]),
    );
    expect(bad.field).toMatch(/^poses\[1\]/);
    expect(w.getPose(a).p).toEqual({ x: 0, y: 0 });
    w.setPoses([a, b], [pose2.fromAngle(1, 0), pose2.fromAngle(2, 0)]);
    expect(w.getPose(a).p).toEqual({ x: 1, y: 0 });
    expect(w.getPose(b).p).toEqual({ x: 2, y: 0 });
  });
});
