/**
 * `maxToi` is optional wherever a cast takes it (issue 16, session 38's fresh-user attack, item
 * 3): `raycast`, `castShapes`, the world's `castShape`, `castRay2D` and `castShapes2D` default it
 * to Infinity (no time limit), as the world's ray casts and the command's `maxToi?` already did.
 * Hand-derived times: a ray from x = −10 along +x meets a unit ball at the origin at 9; a unit
 * ball closing at speed 1 on another 10 away (centres) meets it at 8; the same in 2D. A property
 * checks that omitting it answers exactly as passing Infinity.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CollisionWorld,
  castShape,
  castShapes,
  dim2,
  makeCuboid,
  makeSphere,
  raycast,
} from "../../src/index.js";
import * as iso from "../../src/math/isometry.js";

const ZERO = { x: 0, y: 0, z: 0 };
const at = (x: number, y = 0, z = 0) => iso.create({ x, y, z });
const P2 = (x: number, y = 0) => ({ p: { x, y }, q: { c: 1, s: 0 } });

describe("maxToi defaults to Infinity", () => {
  it("raycast: a ray 10 from a unit ball hits at 9 without maxToi", () => {
    const hit = raycast(makeSphere(1), at(0), { x: -10, y: 0, z: 0 }, { x: 1, y: 0, z: 0 });
    expect(hit?.toi).toBe(9);
    // The solid flag still follows: from inside with solid false the exit at toi 1.
    const exit = raycast(makeSphere(1), at(0), ZERO, { x: 1, y: 0, z: 0 }, undefined, false);
    expect(exit?.toi).toBe(1);
  });

  it("castShapes: two unit balls 10 apart closing at 1 meet at 8", () => {
    const s = makeSphere(1);
    const hit = castShapes(s, at(0), ZERO, s, at(10), { x: -1, y: 0, z: 0 });
    expect(hit?.toi).toBeCloseTo(8, 12);
  });

  it("the world's castShape: a unit ball 10 from a body closing at 1 meets it at 8", () => {
    const w = new CollisionWorld();
    w.addBody({ shape: makeSphere(1), pose: at(10) });
    const hit = castShape(w, makeSphere(1), at(0), { x: 1, y: 0, z: 0 });
    expect(hit?.toi).toBeCloseTo(8, 12);
  });

  it("castRay2D and castShapes2D", () => {
    const c = dim2.makeCircle(1);
    expect(dim2.castRay2D(c, P2(0), { x: -10, y: 0 }, { x: 1, y: 0 })?.toi).toBe(9);
    const hit = dim2.castShapes2D(c, P2(0), { x: 0, y: 0 }, c, P2(10), { x: -1, y: 0 });
    expect(hit?.toi).toBeCloseTo(8, 12);
  });

  it("property: omitting maxToi answers exactly as Infinity", () => {
    const coord = fc.double({ min: -50, max: 50, noNaN: true });
    const v = fc.record({ x: coord, y: coord, z: coord });
    fc.assert(
      fc.property(v, v, v, fc.double({ min: 0.1, max: 5, noNaN: true }), (o, d, b, r) => {
        fc.pre(d.x !== 0 || d.y !== 0 || d.z !== 0);
        const box = makeCuboid({ x: r, y: 2 * r, z: r / 2 });
        expect(raycast(box, at(b.x, b.y, b.z), o, d)).toEqual(
          raycast(box, at(b.x, b.y, b.z), o, d, Infinity),
        );
        const ball = makeSphere(r);
        expect(castShapes(ball, at(o.x, o.y, o.z), d, box, at(b.x, b.y, b.z), ZERO)).toEqual(
          castShapes(ball, at(o.x, o.y, o.z), d, box, at(b.x, b.y, b.z), ZERO, Infinity),
        );
      }),
      { numRuns: 300, seed: 38 },
    );
  });
});
