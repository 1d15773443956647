/**
 * `containsPoint2D` checks its shape, pose and point with the validators of `projectPoint2D`
 * (src/dim2/check2.ts): each bad argument a fresh user tried is a `CollideError` naming the field
 * and the value — the same error `projectPoint2D` raises for the same arguments — never a silent
 * true/false from a non-unit rotation, a NaN or a string, nor a raw TypeError. Valid input keeps
 * its answers (hand-derived; a fast-check property against the closed forms of a circle and a
 * rotated rectangle, sizes 1e-6..1e6, offsets to 1e9).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CollideError, dim2 } from "../../src/index.js";
import { refusal } from "../support/refusal.js";

const { containsPoint2D, projectPoint2D, makeCircle, makeRect } = dim2;
type Shape2 = dim2.Shape2;
type Pose2 = dim2.Pose2;
type Vec2 = dim2.Vec2;

const circle = makeCircle(1);
const I: Pose2 = { p: { x: 0, y: 0 }, q: { c: 1, s: 0 } };

/** The refusal of containsPoint2D, checked equal to projectPoint2D's for the same arguments. */
function refusedAsProjection(shape: unknown, pose: unknown, point: unknown): CollideError {
  const e = refusal(() => containsPoint2D(shape as Shape2, pose as Pose2, point as Vec2));
  const p = refusal(() => projectPoint2D(shape as Shape2, pose as Pose2, point as Vec2));
  expect([e.code, e.field, e.message]).toEqual([p.code, p.field, p.message]);
  return e;
}

describe("containsPoint2D refuses bad input as projectPoint2D does", () => {
  it("a rotation of length 0.1 (it scaled the point: (5, 0) was inside the unit circle)", () => {
    const e = refusedAsProjection(
      circle,
      { p: { x: 0, y: 0 }, q: { c: 0.1, s: 0 } },
      { x: 5, y: 0 },
    );
    expect(e.field).toBe("pose.q");
    expect(e.message).toMatch(/^pose\.q must be a unit rotation .*got .*0\.1/);
  });

  it("a rotation of length 5 (an inside point was outside)", () => {
    const e = refusedAsProjection(
      circle,
      { p: { x: 0, y: 0 }, q: { c: 5, s: 0 } },
      { x: 0.5, y: 0 },
    );
    expect(e.field).toBe("pose.q");
    expect(e.message).toMatch(/must be a unit rotation .*got .*5/);
  });

  it("a NaN point coordinate (was false)", () => {
    const e = refusedAsProjection(circle, I, { x: Number.NaN, y: 0 });
    expect(e.field).toBe("point");
    expect(e.message).toMatch(/^point must be a finite vector \{x, y\} \(got .*NaN/);
  });

  it("a NaN or infinite pose (was false)", () => {
    const e = refusedAsProjection(
      circle,
      { p: { x: Number.NaN, y: 0 }, q: { c: 1, s: 0 } },
      { x: 0, y: 0 },
    );
    expect(e.field).toBe("pose.p");
    expect(e.message).toMatch(/NaN/);
    const f = refusedAsProjection(
      circle,
      { p: { x: 0, y: 0 }, q: { c: Number.NaN, s: 0 } },
      { x: 0, y: 0 },
    );
    expect(f.field).toBe("pose.q");
    const g = refusedAsProjection(
      circle,
      { p: { x: Infinity, y: 0 }, q: { c: 1, s: 0 } },
      { x: 0, y: 0 },
    );
    expect(g.field).toBe("pose.p");
    expect(g.message).toMatch(/Infinity/);
  });

  it('a string coordinate x: "0.5" (was accepted)', () => {
    const e = refusedAsProjection(circle, I, { x: "0.5", y: 0 });
    expect(e.field).toBe("point");
    expect(e.message).toMatch(/0\.5/);
  });

  it("a null shape (was a TypeError)", () => {
    const e = refusedAsProjection(null, I, { x: 0, y: 0 });
    expect(e.field).toBe("shape");
    expect(e.message).toMatch(/^shape must be a 2D shape .*\(got null\)/);
  });

  it("a hand-built invalid shape is refused naming its field; a valid one is answered", () => {
    const e = refusedAsProjection({ type: circle.type, radius: -1 }, I, { x: 0, y: 0 });
    expect(e.field).toBe("shape.radius");
    expect(e.message).toMatch(/-1/);
    const hand = { type: circle.type, radius: 2 } as unknown as Shape2;
    expect(containsPoint2D(hand, I, { x: 1.5, y: 0 })).toBe(true);
    expect(containsPoint2D(hand, I, { x: 2.5, y: 0 })).toBe(false);
  });

  it("an undefined or null point (was a TypeError)", () => {
    for (const point of [undefined, null]) {
      const e = refusedAsProjection(circle, I, point);
      expect(e.field).toBe("point");
      expect(e.message).toMatch(new RegExp(`got ${String(point)}`));
    }
  });

  it("a point whose offset from the pose overflows", () => {
    const pose = { p: { x: -1e308, y: 0 }, q: { c: 1, s: 0 } };
    const e = refusedAsProjection(circle, pose, { x: 1e308, y: 0 });
    expect(e.field).toBe("point");
    expect(e.message).toMatch(/overflows/);
  });
});

describe("containsPoint2D keeps its answers on valid input", () => {
  it("hand-derived: the unit circle, a posed rectangle, a rotation within tolerance", () => {
    expect(containsPoint2D(circle, I, { x: 0.5, y: 0.5 })).toBe(true); // |p|² = 0.5
    expect(containsPoint2D(circle, I, { x: 0.8, y: 0.7 })).toBe(false); // |p|² = 1.13
    expect(containsPoint2D(circle, I, { x: 1, y: 0 })).toBe(true); // on the boundary
    expect(containsPoint2D(circle, I, { x: 5, y: 0 })).toBe(false);
    const at = { p: { x: 10, y: -3 }, q: { c: 1, s: 0 } };
    expect(containsPoint2D(circle, at, { x: 10.6, y: -3.6 })).toBe(true); // offset² = 0.72
    expect(containsPoint2D(circle, at, { x: 0, y: 0 })).toBe(false);
    // Rect of half extents (2, 0.5) turned 90°: spans |x| ≤ 0.5, |y| ≤ 2.
    const rect = makeRect({ x: 2, y: 0.5 });
    const turned = { p: { x: 0, y: 0 }, q: { c: 0, s: 1 } };
    expect(containsPoint2D(rect, turned, { x: 0.4, y: 1.9 })).toBe(true);
    expect(containsPoint2D(rect, turned, { x: 1.9, y: 0.4 })).toBe(false);
    // A rotation within the tolerance of unit length is used normalised, as projectPoint2D does.
    const nearUnit = { p: { x: 0, y: 0 }, q: { c: 1 + 1e-9, s: 0 } };
    expect(containsPoint2D(circle, nearUnit, { x: 0.999, y: 0 })).toBe(true);
  });

  it("far from unit scale: a 1e200 circle and a 1e-200 one (changes of units, exact)", () => {
    expect(containsPoint2D(makeCircle(1e200), I, { x: 6e199, y: 7e199 })).toBe(true);
    expect(containsPoint2D(makeCircle(1e200), I, { x: 8e199, y: 7e199 })).toBe(false);
    expect(containsPoint2D(makeCircle(1e-200), I, { x: 6e-201, y: 7e-201 })).toBe(true);
    expect(containsPoint2D(makeCircle(1e-200), I, { x: 8e-201, y: 7e-201 })).toBe(false);
  });

  it("property: the closed forms of a circle and a rotated rectangle (1e-6..1e6, offsets to 1e9)", () => {
    const scale = fc.double({ min: -6, max: 6, noNaN: true }).map((e) => 10 ** e);
    const offset = fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });
    const unit = fc.double({ min: -1.5, max: 1.5, noNaN: true });
    fc.assert(
      fc.property(
        scale,
        offset,
        offset,
        unit,
        unit,
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        (r, ox, oy, u, v, a) => {
          const pose = { p: { x: ox, y: oy }, q: { c: Math.cos(a), s: Math.sin(a) } };
          // The point in the shape's frame is (u, v)·r, rotated and placed exactly as the pose does
          // up to rounding; points within that rounding of the boundary are skipped.
          const lx = u * r;
          const ly = v * r;
          const point = {
            x: ox + pose.q.c * lx - pose.q.s * ly,
            y: oy + pose.q.s * lx + pose.q.c * ly,
          };
          const slack = 1e-9 + (1e-15 * Math.max(Math.abs(ox), Math.abs(oy))) / r;
          const n = Math.hypot(u, v);
          if (Math.abs(n - 1) > slack) {
            expect(containsPoint2D(makeCircle(r), pose, point)).toBe(n < 1);
          }
          const m = Math.max(Math.abs(u) / 1, Math.abs(v) / 0.5);
          if (Math.abs(m - 1) > 2 * slack) {
            expect(containsPoint2D(makeRect({ x: r, y: 0.5 * r }), pose, point)).toBe(m < 1);
          }
        },
      ),
    );
  });
});
