/**
 * Session 38's second fresh-user attack, items 6 and 7: `supportShape` (public) threw TypeErrors —
 * a null direction, a mesh ("d.coreSupport is not a function", an internal name), a null `out` —
 * and answered a NaN direction with the sphere's centre, which is not on its surface; `contact`,
 * `manifold` and `fitObbPca` threw TypeErrors for a null or empty `out`. Each is now a
 * `CollideError` naming the argument, and the valid calls answer as before (hand-derived support
 * points: a ball's r·d/|d|, a box's corner by the signs of d).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  contact,
  fitObbPca,
  isometry,
  makeContact,
  makeContactManifold,
  makeCuboid,
  makeObb,
  makeSphere,
  makeTriangleMesh,
  manifold,
  supportShape,
} from "../../src/index.js";
import { refusal } from "../support/refusal.js";

const I = isometry.identity();
const at = (x: number) => isometry.create({ x, y: 0, z: 0 });

describe("supportShape", () => {
  it("refuses a bad direction, a shape without a support function and a bad out by name", () => {
    const s = makeSphere(1);
    const o = { x: 0, y: 0, z: 0 };
    expect(refusal(() => supportShape(o, s, null as never)).field).toBe("dir");
    expect(refusal(() => supportShape(o, s, { x: Number.NaN, y: 0, z: 0 })).field).toBe("dir");
    const mesh = makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    const e = refusal(() => supportShape(o, mesh as never, { x: 1, y: 0, z: 0 }));
    expect(e.field).toBe("s");
    expect(e.message).not.toMatch(/coreSupport/);
    expect(refusal(() => supportShape(null as never, s, { x: 1, y: 0, z: 0 })).field).toBe("out");
  });

  it("property: a ball's support is r·d/|d|, a box's the corner of d's signs", () => {
    const c = fc.double({ min: -10, max: 10, noNaN: true });
    fc.assert(
      fc.property(c, c, c, fc.double({ min: 0.1, max: 10, noNaN: true }), (x, y, z, r) => {
        fc.pre(Math.abs(x) > 1e-100 && Math.abs(y) > 1e-100 && Math.abs(z) > 1e-100);
        const out = { x: 0, y: 0, z: 0 };
        const n = Math.hypot(x, y, z);
        supportShape(out, makeSphere(r), { x, y, z });
        expect(out.x).toBeCloseTo((r * x) / n, 12);
        expect(out.y).toBeCloseTo((r * y) / n, 12);
        supportShape(out, makeCuboid({ x: r, y: 2 * r, z: 3 * r }), { x, y, z });
        expect([out.x, out.y, out.z]).toEqual([
          Math.sign(x) * r,
          Math.sign(y) * 2 * r,
          Math.sign(z) * 3 * r,
        ]);
      }),
      { numRuns: 200, seed: 38 },
    );
  });
});

describe("supportShape at any direction length", () => {
  it("a subnormal or huge direction: the ball's support is r along it (was ±Infinity)", () => {
    const out = { x: 0, y: 0, z: 0 };
    supportShape(out, makeSphere(2), { x: -5e-324, y: 0, z: 0 });
    expect(out).toEqual({ x: -2, y: 0, z: 0 });
    supportShape(out, makeSphere(2), { x: 0, y: 1e300, z: 1e300 });
    expect(out.y).toBeCloseTo(Math.SQRT2, 14);
    expect(out.z).toBeCloseTo(Math.SQRT2, 14);
  });
});

describe("out arguments", () => {
  it("contact, manifold and fitObbPca refuse a null or empty out by name; valid ones are written", () => {
    const s = makeSphere(1);
    const b = makeCuboid({ x: 1, y: 1, z: 1 });
    expect(refusal(() => contact(s, at(1.5), b, I, 0, null as never)).field).toBe("out");
    expect(refusal(() => contact(s, at(1.5), b, I, 0, {} as never)).field).toBe("out");
    expect(refusal(() => manifold(s, at(1.5), b, I, 0, {} as never)).field).toBe("out");
    expect(
      refusal(() => manifold(s, at(1.5), b, I, 0, { normal: {}, points: [] } as never)).field,
    ).toBe("out");
    expect(refusal(() => fitObbPca(null as never, [0, 0, 0, 1, 1, 1])).field).toBe("out");
    // Hand-derived: the ball's centre 1.5 from the box's face x = 1, radius 1: depth 0.5.
    const c = makeContact();
    expect(contact(s, at(1.5), b, I, 0, c)).toBe(c);
    expect(c.distance).toBeCloseTo(-0.5, 15);
    const m = makeContactManifold();
    expect(manifold(s, at(1.5), b, I, 0, m)).toBe(m);
    expect(m.count).toBe(1);
    const obb = makeObb();
    expect(fitObbPca(obb, [0, 0, 0, 2, 0, 0])).toBe(obb);
  });
});
