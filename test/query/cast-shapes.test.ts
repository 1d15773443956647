import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { answerQuery } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes, castShapesNonlinear } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import {
  makeCapsule,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeSphere,
} from "../../src/shapes/index.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { num, unitQuat, vec } from "../oracles/arbitraries.js";

const shapeArb: fc.Arbitrary<ConvexShape> = fc.oneof(
  num(0.2, 1).map((r) => makeSphere(r) as ConvexShape),
  vec(0.1, 1).map((h) => makeCuboid(h) as ConvexShape),
  fc
    .tuple(vec(-0.5, 0.5), vec(-0.5, 0.5), num(0.1, 0.5))
    .map(([a, b, r]) => makeCapsule(a, b, r) as ConvexShape),
  fc.tuple(num(0.2, 1), num(0.2, 1)).map(([h, r]) => makeCylinder(h, r) as ConvexShape),
  fc.constant(
    makeConvexPolyhedron([
      vec3.create(0.6, 0, 0),
      vec3.create(-0.6, 0, 0),
      vec3.create(0, 0.6, 0),
      vec3.create(0, -0.6, 0),
      vec3.create(0, 0, 0.6),
      vec3.create(0, 0, -0.6),
    ]) as ConvexShape,
  ),
);

/** The gap (0 when touching or overlapping) of the two shapes at the given poses. */
function gap(a: ConvexShape, pa: Isometry, b: ConvexShape, pb: Isometry): number {
  return distance(a, pa, b, pb).distance;
}

const SAMPLES = 300;

/** Oracle: the first sample of the motion with gap 0 refined by bisection on the gap, or null. */
function firstContact(
  at: (t: number) => [Isometry, Isometry],
  a: ConvexShape,
  b: ConvexShape,
  maxT: number,
  touch: number,
): number | null {
  let prev = 0;
  for (let k = 0; k <= SAMPLES; k++) {
    const t = (maxT * k) / SAMPLES;
    const [pa, pb] = at(t);
    if (gap(a, pa, b, pb) <= touch) {
      if (k === 0) return 0;
      let lo = prev;
      let hi = t;
      for (let i = 0; i < 80; i++) {
        const mid = 0.5 * (lo + hi);
        const [qa, qb] = at(mid);
        if (gap(a, qa, b, qb) <= touch) hi = mid;
        else lo = mid;
      }
      return hi;
    }
    prev = t;
  }
  return null;
}

function linearAt(pa: Isometry, va: Vec3, pb: Isometry, vb: Vec3) {
  return (t: number): [Isometry, Isometry] => [
    { translation: vec3.addScaled(vec3.create(), pa.translation, va, t), rotation: pa.rotation },
    { translation: vec3.addScaled(vec3.create(), pb.translation, vb, t), rotation: pb.rotation },
  ];
}

/** An independent nlerp (shorter way). */
function nlerp(q0: Quat, q1: Quat, t: number): Quat {
  const s = q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w < 0 ? -1 : 1;
  const x = q0.x + (s * q1.x - q0.x) * t;
  const y = q0.y + (s * q1.y - q0.y) * t;
  const z = q0.z + (s * q1.z - q0.z) * t;
  const w = q0.w + (s * q1.w - q0.w) * t;
  const l = Math.hypot(x, y, z, w);
  return { x: x / l, y: y / l, z: z / l, w: w / l };
}

describe("castShapes (linear) against bisection on the distance along the motion", () => {
  it("finds the first contact to 1e-6, or none", () => {
    fc.assert(
      fc.property(
        shapeArb,
        shapeArb,
        unitQuat,
        unitQuat,
        vec(-4, 4),
        vec(-1, 1),
        fc.constantFrom(0, 1e6),
        (a, b, ra, rb, pB, aim, far) => {
          const pa: Isometry = { translation: vec3.create(far, 0, -far), rotation: ra };
          const pb: Isometry = {
            translation: vec3.add(vec3.create(), pB, pa.translation),
            rotation: rb,
          };
          // B moves toward a point near A (so that many cases hit), A stands still or drifts.
          const vb = vec3.sub(
            vec3.create(),
            vec3.add(vec3.create(), aim, pa.translation),
            pb.translation,
          );
          const va = vec3.scale(vec3.create(), aim, 0.3);
          const maxT = 1.5;
          const hit = castShapes(a, pa, va, b, pb, vb, maxT);
          const touch = 1e-9 + 1e-15 * far;
          const oracle = firstContact(linearAt(pa, va, pb, vb), a, b, maxT, touch);
          const speed = vec3.distance(va, vb) + 1e-12;
          if (oracle !== null) {
            expect(hit).not.toBeNull();
            if (!hit) return;
            expect(Math.abs(hit.toi - oracle)).toBeLessThan(1e-6 + (2 * touch) / speed);
          }
          if (hit) {
            expect(hit.toi).toBeGreaterThanOrEqual(0);
            expect(hit.toi).toBeLessThanOrEqual(maxT);
            const [qa, qb] = linearAt(pa, va, pb, vb)(hit.toi);
            expect(gap(a, qa, b, qb)).toBeLessThan(1e-7 + 1e-15 * far);
            expect(Math.abs(vec3.length(hit.normal) - 1)).toBeLessThan(1e-9);
            if (hit.toi > 0) {
              // Touching at toi: the witness points meet (when overlapping at 0 they are the
              // deepest points of the contact instead).
              expect(vec3.distance(hit.pointA, hit.pointB)).toBeLessThan(1e-6 + 1e-14 * far);
            }
            // Conservative: never past the contact, so before toi the shapes are apart.
            if (hit.toi > 1e-6) {
              const [ea, eb] = linearAt(pa, va, pb, vb)(hit.toi * (1 - 1e-6));
              expect(gap(a, ea, b, eb)).toBeGreaterThan(0);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("touching or overlapping at the start gives toi 0 with the contact", () => {
    const s = makeSphere(1);
    const id = iso.identity();
    const pb = iso.create(vec3.create(2, 0, 0));
    const h = castShapes(s, id, vec3.create(), s, pb, vec3.create(5, 0, 0), 1);
    expect(h?.toi).toBe(0);
    expect(h?.normal.x).toBeCloseTo(1, 15);
    const o = castShapes(
      s,
      id,
      vec3.create(),
      s,
      iso.create(vec3.create(1, 0, 0)),
      vec3.create(),
      1,
    );
    expect(o?.toi).toBe(0);
  });

  it("separating, parallel and still motions never touch", () => {
    const box = makeCuboid(vec3.create(1, 1, 1));
    const id = iso.identity();
    const pb = iso.create(vec3.create(3, 0, 0));
    expect(castShapes(box, id, vec3.create(), box, pb, vec3.create(1, 0, 0), 10)).toBeNull();
    expect(castShapes(box, id, vec3.create(), box, pb, vec3.create(0, 1, 0), 10)).toBeNull();
    expect(castShapes(box, id, vec3.create(), box, pb, vec3.create(), 10)).toBeNull();
    // Sliding face to face exactly in contact plane distance 1e-9 apart: a gap stays a gap.
    const near = iso.create(vec3.create(2 + 1e-9, 0, 0));
    expect(castShapes(box, id, vec3.create(), box, near, vec3.create(0, 3, 0), 10)).toBeNull();
    // Box faces approach head-on: toi exact.
    const h = castShapes(box, id, vec3.create(1, 0, 0), box, pb, vec3.create(-1, 0, 0), 10);
    expect(h?.toi).toBeCloseTo(0.5, 9);
    expect(h?.normal.x).toBeCloseTo(1, 9);
  });

  it("tiny and huge scales", () => {
    for (const k of [1e-3, 1e4]) {
      const s = makeSphere(k);
      const h = castShapes(
        s,
        iso.identity(),
        vec3.create(),
        s,
        iso.create(vec3.create(10 * k, 0, 0)),
        vec3.create(-k, 0, 0),
        100,
      );
      expect(h?.toi).toBeCloseTo(8, 8);
    }
  });

  it("validates velocities and maxToi, through answerQuery too", () => {
    const s = makeSphere(1);
    const id = iso.identity();
    expect(() => castShapes(s, id, vec3.create(Number.NaN, 0, 0), s, id, vec3.create(), 1)).toThrow(
      /velocityA/,
    );
    expect(() => castShapes(s, id, vec3.create(), s, id, vec3.create(), -1)).toThrow(CollideError);
    const q = {
      op: "castShapes",
      a: { type: "sphere", center: [0, 0, 0], radius: 1 },
      velocityA: [0, 0, 0],
      b: { type: "sphere", center: [5, 0, 0], radius: 1 },
      velocityB: [-1, 0, 0],
      maxToi: 10,
    };
    const r = answerQuery(q) as { toi: number; normal: number[] };
    expect(r.toi).toBeCloseTo(3, 9);
    expect(r.normal[0]).toBeCloseTo(1, 9);
    expect(() => answerQuery({ ...q, maxToi: -1 })).toThrow(/maxToi/);
    expect(answerQuery({ ...q, maxToi: 2 })).toBeNull();
    const { velocityB: _omit, ...missing } = q;
    expect(() => answerQuery(missing)).toThrow(/velocityB/);
  });
});

describe("castShapesNonlinear (rotating) against bisection on the distance", () => {
  it("never passes the first contact and finds it to 1e-5", () => {
    fc.assert(
      fc.property(
        shapeArb,
        shapeArb,
        unitQuat,
        unitQuat,
        unitQuat,
        vec(-3, 3),
        vec(-0.5, 0.5),
        (a, b, q0, q1, qb, pB, aim) => {
          const pa0: Isometry = { translation: vec3.create(), rotation: q0 };
          const pa1: Isometry = { translation: vec3.scale(vec3.create(), aim, 0.5), rotation: q1 };
          const pb0: Isometry = { translation: pB, rotation: qb };
          const pb1: Isometry = { translation: aim, rotation: qb };
          const at = (t: number): [Isometry, Isometry] => [
            {
              translation: vec3.lerp(vec3.create(), pa0.translation, pa1.translation, t),
              rotation: nlerp(q0, q1, t),
            },
            {
              translation: vec3.lerp(vec3.create(), pb0.translation, pb1.translation, t),
              rotation: qb,
            },
          ];
          const hit = castShapesNonlinear(a, pa0, pa1, b, pb0, pb1);
          const oracle = firstContact(at, a, b, 1, 1e-9);
          if (oracle !== null) {
            expect(hit).not.toBeNull();
            if (!hit) return;
            // The oracle stops at a gap of 1e-9, a little early; the cast must never penetrate.
            expect(Math.abs(oracle - hit.toi)).toBeLessThan(1e-5);
            const [qa, qb2] = at(hit.toi);
            const c = contact(a, qa, b, qb2, Infinity);
            expect(c).not.toBeNull();
            if (hit.toi > 0) expect(c?.distance ?? -1).toBeGreaterThanOrEqual(-1e-9);
          } else if (hit) {
            // A grazing contact between samples: the shapes touch at toi.
            const [qa, qb2] = at(hit.toi);
            expect(gap(a, qa, b, qb2)).toBeLessThan(1e-7);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a spinning bar hits a box it only reaches by rotation", () => {
    const bar = makeCuboid(vec3.create(2, 0.1, 0.1));
    const box = makeCuboid(vec3.create(0.5, 0.5, 0.5));
    const q90 = { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 };
    const id = iso.identity();
    const pb = iso.create(vec3.create(0, 2, 0));
    const h = castShapesNonlinear(
      bar,
      id,
      { translation: vec3.create(), rotation: q90 },
      box,
      pb,
      pb,
    );
    expect(h).not.toBeNull();
    expect(h && h.toi > 0 && h.toi < 1).toBe(true);
    // Linear motion alone (no rotation) never touches.
    expect(castShapesNonlinear(bar, id, id, box, pb, pb)).toBeNull();
    expect(() => castShapesNonlinear(bar, id, id, box, pb, pb, 2)).toThrow(/maxToi/);
  });
});
