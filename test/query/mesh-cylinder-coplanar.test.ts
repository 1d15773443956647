/**
 * A fresh user's report: a cylinder beside a box-shaped triangle mesh, its end faces in the
 * planes of the box's top and bottom faces. `contact` at exact touching gave −8.3e-9 (a box or
 * hull gives exactly 0: the internal-edge rule's depth along the face normal took the GJK ray
 * cast's tolerance), and `castShapes` gave toi 2 with the normal (0,1,0) and both points at the
 * box's far corner (the bottom triangle's contact, valid for that triangle alone, was the first
 * of six touching parts).
 *
 * Oracle (hand-derived): the cylinder's curved side touches the box's side face along a segment,
 * so the only normal that separates the pair is that face's normal, the distance is exactly 0,
 * and a witness point lies on both shapes: in the face's plane, inside the box's face and inside
 * the cylinder (to rounding).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { castShapes } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { makeCuboid, makeCylinder } from "../../src/shapes/index.js";
import { boxMesh } from "../support/box-mesh.js";

const I = { x: 0, y: 0, z: 0, w: 1 };
const ZERO = { x: 0, y: 0, z: 0 };

interface Case {
  hx: number;
  hy: number;
  hz: number;
  r: number;
  /** The cylinder's axis position along z (inside the face) and its half height/centre in y. */
  cz: number;
  hh: number;
  cy: number;
  /** +1: beside the +x face; −1: beside the −x face. */
  side: number;
  /** Offset of the whole scene from the origin. */
  off: { x: number; y: number; z: number };
}

/** True when p (world) lies on both the box's side face and the cylinder, to `tol`. */
function onTouchingRegion(p: { x: number; y: number; z: number }, c: Case, tol: number): boolean {
  const x = p.x - c.off.x;
  const y = p.y - c.off.y;
  const z = p.z - c.off.z;
  const onFace =
    Math.abs(x - c.side * c.hx) <= tol && Math.abs(y) <= c.hy + tol && Math.abs(z) <= c.hz + tol;
  const axisX = c.side * (c.hx + c.r);
  const inCylinder =
    Math.hypot(x - axisX, z - c.cz) <= c.r + tol && Math.abs(y - c.cy) <= c.hh + tol;
  return onFace && inCylinder;
}

function check(c: Case) {
  const mesh = boxMesh(c.hx, c.hy, c.hz);
  const cyl = makeCylinder(c.hh, c.r);
  const pm = { translation: c.off, rotation: I };
  const at = (gap: number) => ({
    translation: {
      x: c.off.x + c.side * (c.hx + c.r + gap),
      y: c.off.y + c.cy,
      z: c.off.z + c.cz,
    },
    rotation: I,
  });
  const size = Math.max(c.hx, c.hy, c.hz, c.r, c.hh);
  const scale = size + Math.max(Math.abs(c.off.x), Math.abs(c.off.y), Math.abs(c.off.z));
  const tol = 1e-9 * scale;
  // contact at exact touching, both orders
  const k = contact(mesh, pm, cyl, at(0), 0);
  expect(k).not.toBeNull();
  if (!k) return;
  expect(k.distance).toBe(0);
  expect(k.normal.x).toBeCloseTo(c.side, 12);
  expect(Math.abs(k.normal.y) + Math.abs(k.normal.z)).toBeLessThan(1e-12);
  expect(onTouchingRegion(k.pointA, c, tol)).toBe(true);
  expect(onTouchingRegion(k.pointB, c, tol)).toBe(true);
  const kr = contact(cyl, at(0), mesh, pm, 0);
  expect(kr).not.toBeNull();
  if (!kr) return;
  expect(kr.distance).toBe(0);
  expect(kr.normal.x).toBeCloseTo(-c.side, 12);
  // castShapes: the cylinder starts 2·size away and moves toward the face at unit speed
  const gap = 2 * size;
  const v = { x: -c.side, y: 0, z: 0 };
  const h = castShapes(mesh, pm, ZERO, cyl, at(gap), v, 10 * size);
  expect(h).not.toBeNull();
  if (!h) return;
  expect(Math.abs(h.toi - gap)).toBeLessThanOrEqual(1e-9 * scale);
  expect(h.normal.x).toBeCloseTo(c.side, 12);
  expect(Math.abs(h.normal.y) + Math.abs(h.normal.z)).toBeLessThan(1e-9);
  // The points at toi: the cylinder has moved by toi·v, so it sits at the touching pose.
  expect(onTouchingRegion(h.pointA, c, tol)).toBe(true);
  expect(onTouchingRegion(h.pointB, c, tol)).toBe(true);
  const hr = castShapes(cyl, at(gap), v, mesh, pm, ZERO, 10 * size);
  expect(hr).not.toBeNull();
  if (!hr) return;
  // Swapped: the same time, the normal negated, the points swapped (to rounding: each order
  // runs in its own A-centred frame).
  expect(Math.abs(hr.toi - h.toi)).toBeLessThanOrEqual(tol);
  expect(hr.normal.x).toBeCloseTo(-c.side, 12);
  expect(onTouchingRegion(hr.pointA, c, tol)).toBe(true);
  expect(onTouchingRegion(hr.pointB, c, tol)).toBe(true);
}

describe("mesh against a cylinder with end faces coplanar to the mesh's faces", () => {
  it("the fresh user's case: unit box mesh, cylinder hh 1 r 1 beside +x", () => {
    check({ hx: 1, hy: 1, hz: 1, r: 1, cz: 0, hh: 1, cy: 0, side: 1, off: ZERO });
    // A box gives exactly 0 too (the reference the user compared with).
    const k = contact(
      makeCuboid({ x: 1, y: 1, z: 1 }),
      { translation: ZERO, rotation: I },
      makeCylinder(1, 1),
      { translation: { x: 2, y: 0, z: 0 }, rotation: I },
      0,
    );
    expect(k?.distance).toBe(0);
  });

  it("one end face coplanar (top), smaller cylinder: the side face's normal, not the edge's", () => {
    check({ hx: 1, hy: 1, hz: 1, r: 0.3, cz: 0, hh: 0.5, cy: 0.5, side: 1, off: ZERO });
    check({ hx: 1, hy: 1, hz: 1, r: 0.3, cz: 0, hh: 1, cy: 0, side: -1, off: ZERO });
  });

  it("property: sizes, sides, lateral positions and offsets", () => {
    const dyadic = (lo: number, hi: number) => fc.integer({ min: lo, max: hi }).map((k) => k / 16);
    fc.assert(
      fc.property(
        dyadic(4, 64),
        dyadic(4, 64),
        dyadic(4, 64),
        dyadic(2, 64),
        fc.double({ min: -0.9, max: 0.9, noNaN: true }),
        fc.constantFrom("both", "top", "bottom"),
        fc.constantFrom(1, -1),
        fc.constantFrom(0, 1, 1000),
        (hx, hy, hz, r, czf, ends, side, offScale) => {
          // end faces in the box's top and/or bottom planes (exact in doubles: dyadic sizes)
          const hh = ends === "both" ? hy : hy / 2;
          const cy = ends === "both" ? 0 : ends === "top" ? hy / 2 : -hy / 2;
          const off = { x: 3 * offScale, y: -2 * offScale, z: 5 * offScale };
          check({ hx, hy, hz, r, cz: czf * hz, hh, cy, side, off });
        },
      ),
      { numRuns: 150 },
    );
  });
});
