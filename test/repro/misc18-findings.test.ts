/**
 * Bad input a fresh user found at the end of session 17 (session 18, misc18): each answered
 * correctly or refused with a `CollideError` naming the field and the value — never a NaN or an
 * Infinity in an answer or a message — and a refusal changes nothing.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { answerQuery } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";
import { overlapVolume } from "../../src/query/overlap-volume.js";
import { sphereSphereIntersection } from "../../src/query/volume.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import "../../src/index.js";

function refusal(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError, got an answer");
}

const at = (x: number, y = 0, z = 0) => ({
  translation: { x, y, z },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});

describe("the volume op far beyond a double's range (misc18 item 2)", () => {
  it("boxes of 1e300: refused naming a and its size, no NaN or Infinity in the message", () => {
    const box = (c: number[]) => ({ type: "box", center: c, halfExtents: [1e300, 1e300, 1e300] });
    const e = refusal(() =>
      answerQuery({ op: "volume", a: box([0, 0, 0]), b: box([1e300, 0, 0]) }),
    );
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("a");
    expect(e.value).toBe(Math.sqrt(3) * 1e300);
    expect(e.message).toMatch(/^overlapVolume: a is too large for a finite overlap volume/);
    expect(e.message).toContain("got a's bounding radius 1.7320508075688774e+300");
    expect(e.message).not.toMatch(/NaN|Infinity/);
  });

  it("the smaller shape is named: a 1e103 ball inside a 1e200 box is b's fault", () => {
    const big = makeCuboid({ x: 1e200, y: 1e200, z: 1e200 });
    const e = refusal(() => overlapVolume(big, at(0), makeSphere(1e103), at(0)));
    expect(e.field).toBe("b");
    expect(e.value).toBe(1e103);
    expect(e.message).not.toMatch(/NaN|Infinity/);
  });

  it("two balls whose lens overflows: the smaller radius named (the op and sphereSphereIntersection), never volume null", () => {
    const ball = (r: number, x: number) => ({ type: "sphere", center: [x, 0, 0], radius: r });
    const e = refusal(() =>
      answerQuery({ op: "volume", a: ball(1e200, 0), b: ball(1e103, 5e102) }),
    );
    expect(e.field).toBe("b.radius");
    expect(e.value).toBe(1e103);
    expect(e.message).toMatch(/^b\.radius is too large/);
    // The library function refuses it as the op does (session 40, F4: it had answered Infinity).
    const o = { x: 0, y: 0, z: 0 };
    const lib = refusal(() => sphereSphereIntersection(o, 1e150, o, 2e150));
    expect(lib.field).toBe("a.radius");
    expect(lib.message).toMatch(/^a\.radius is too large/);
    // Just below the overflow the lens is answered: a ball of 2.5e102 inside a larger one.
    const r = answerQuery({ op: "volume", a: ball(2.5e102, 0), b: ball(1e103, 0) }) as {
      volume: number;
    };
    expect(r.volume).toBeCloseTo((4 / 3) * Math.PI * 2.5e102 ** 3, -295);
    expect(Number.isFinite(r.volume)).toBe(true);
  });

  it("a finite volume whose rounding bound overflowed keeps a finite, rigorous bound (box of 1e102 below a half-space)", () => {
    // Half the box lies below x ≤ 0: 4e306 exactly.
    const box = makeCuboid({ x: 1e102, y: 1e102, z: 1e102 });
    const r = overlapVolume(box, at(0), makeHalfSpace({ x: 1, y: 0, z: 0 }, 0), at(0));
    expect(Number.isFinite(r.errorBound)).toBe(true);
    const exact = 4e306;
    expect(Math.abs(r.volume - exact)).toBeLessThanOrEqual(r.errorBound + 1e-15 * exact);
    expect(r.errorBound).toBeLessThan(1e-9 * exact);
    // And through `collide query`.
    const q = answerQuery({
      op: "volume",
      a: { type: "box", center: [0, 0, 0], halfExtents: [1e102, 1e102, 1e102] },
      b: { type: "halfspace", normal: [1, 0, 0], offset: 0 },
    }) as { volume: number; errorBound: number };
    expect(Number.isFinite(q.errorBound)).toBe(true);
    expect(Math.abs(q.volume - exact)).toBeLessThanOrEqual(q.errorBound + 1e-15 * exact);
  });
});

describe("setPoses with a zero quaternion (misc18 item 3)", () => {
  it("names poses[7i+3..7i+6], the body handles[i] and the four numbers; the world is unchanged", () => {
    const w = new CollisionWorld();
    const h0 = w.addBody({ shape: makeSphere(1), pose: at(0) });
    const h1 = w.addBody({ shape: makeSphere(1), pose: at(5) });
    w.step();
    const before = [w.getPose(h0), w.getPose(h1)];
    const poses = Float64Array.from([1, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0]);
    const e = refusal(() => w.setPoses([h0, h1], poses));
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("poses[10..13]");
    expect(e.value).toEqual([0, 0, 0, 0]);
    expect(e.message).toBe(
      "poses[10..13] (the rotation qx, qy, qz, qw of handles[1]) must be a unit quaternion, of length 1 within 0.000001 (the identity is 0, 0, 0, 1); its length is 0 (got [0,0,0,0])",
    );
    // Nothing moved, not even body 0 whose pose came first and was valid.
    expect([w.getPose(h0), w.getPose(h1)]).toEqual(before);
    w.step();
    expect(w.getPose(h0)).toEqual(iso.copy(iso.identity(), at(0)));
  });
});

describe("shape makers refuse an unknown key of a plain vector (misc18 item 4)", () => {
  it("makeCuboid({x, y, z, w}) and the other makers' vectors: unknown_field naming <field>.<key>", async () => {
    const { makeCapsule } = await import("../../src/shapes/capsule.js");
    const { makeTriangle } = await import("../../src/shapes/triangle.js");
    const { makeRoundedCuboid } = await import("../../src/shapes/rounded.js");
    const o = { x: 0, y: 0, z: 0 };
    const bad = { x: 1, y: 1, z: 1, w: 2 } as unknown as typeof o;
    const cases: [() => unknown, string][] = [
      [() => makeCuboid(bad), "halfExtents.w"],
      [() => makeCapsule(o, bad, 1), "b.w"],
      [() => makeTriangle(o, { x: 1, y: 0, z: 0 }, bad), "c.w"],
      [() => makeRoundedCuboid(bad, 0.1), "halfExtents.w"],
      [() => makeHalfSpace({ x: 0, y: 1, z: 0, w: 0 } as unknown as typeof o, 0), "normal.w"],
    ];
    for (const [f, field] of cases) {
      const e = refusal(f);
      expect(e.code).toBe("unknown_field");
      expect(e.field).toBe(field);
      expect(e.message).toMatch(
        new RegExp(
          `^${field.replace(".", "\\.")} is not a field of a vector \\{x, y, z\\} \\(got \\{`,
        ),
      );
    }
    // A vector class (three.js, Rapier, Babylon) is read by duck typing, whatever else it holds.
    class Vector3 {
      isVector3 = true;
      constructor(
        public x: number,
        public y: number,
        public z: number,
      ) {}
    }
    expect(makeCuboid(new Vector3(1, 2, 3)).halfExtents).toEqual({ x: 1, y: 2, z: 3 });
    expect(makeCuboid({ x: 1, y: 2, z: 3 }).halfExtents).toEqual({ x: 1, y: 2, z: 3 });
  });
});

describe("the 2D world beyond 1e154 (misc18 item 5)", () => {
  it("answers as the 3D world at 1e155 and 1e200 (contact depth, ray toi from the closed forms) and refuses past ±1e300 by name", async () => {
    const { dim2 } = await import("../../src/index.js");
    for (const s of [1e155, 1e200, 1e-200]) {
      const w = new dim2.CollisionWorld2D();
      w.addBody({ shape: dim2.makeCircle(s), pose: dim2.pose2.fromAngle(0, 0) });
      const b = w.addBody({ shape: dim2.makeCircle(s), pose: dim2.pose2.fromAngle(1.5 * s, 0) });
      w.addBody({ shape: dim2.makeRect({ x: s, y: s }), pose: dim2.pose2.fromAngle(10 * s, 0) });
      w.step();
      expect(w.contactCount).toBe(1);
      const c = w.readContact(0);
      // Two discs of radius s whose centres are 1.5 s apart overlap by 0.5 s.
      expect(c.distance / s).toBeCloseTo(-0.5, 14);
      const hit = w.castRay({ x: -5 * s, y: 0 }, { x: 1, y: 0 }, 100 * s);
      expect(hit).not.toBeNull();
      expect((hit as { toi: number }).toi / s).toBeCloseTo(4, 14);
      w.setPose(b, dim2.pose2.fromAngle(3 * s, 0));
      w.step();
      expect(w.contactCount).toBe(0);
    }
    const w = new dim2.CollisionWorld2D();
    const e = refusal(() =>
      w.addBody({ shape: dim2.makeCircle(1), pose: dim2.pose2.fromAngle(2e300, 0) }),
    );
    expect(e.field).toBe("body.pose.p");
    expect(e.message).toContain("out of range");
    expect(e.message).not.toMatch(/NaN|Infinity/);
  });

  it("makeRect(min, max) and makeCuboid(min, max) name `field` and point to the corners' maker", async () => {
    const { dim2 } = await import("../../src/index.js");
    const e = refusal(() => dim2.makeRect({ x: -1, y: -1 }, { x: 1, y: 1 } as unknown as string));
    expect(e.field).toBe("field");
    expect(e.message).toContain("rectFromMinMax");
    const e3 = refusal(() =>
      makeCuboid({ x: -1, y: -1, z: -1 }, { x: 1, y: 1, z: 1 } as unknown as string),
    );
    expect(e3.field).toBe("field");
    expect(e3.message).toContain("makeCuboidFromMinMax");
  });
});
