import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { castRayShape, makeRayHit, raycast } from "../../src/query/raycast.js";
import {
  makeCapsule,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeSphere,
  makeTriangle,
  supportShape,
} from "../../src/shapes/index.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { num, unitQuat, vec } from "../oracles/arbitraries.js";

// ---------------------------------------------------------------------------------------------
// Independent oracles: closed-set membership in the local frame, written from the definitions.

/** Distance from p to segment [a, b] by a clamped projection (a = b allowed). */
function segmentDistance(p: Vec3, a: Vec3, b: Vec3): number {
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const ez = b.z - a.z;
  const ee = ex * ex + ey * ey + ez * ez;
  let t = ee > 0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey + (p.z - a.z) * ez) / ee : 0;
  t = Math.min(1, Math.max(0, t));
  return Math.hypot(p.x - a.x - t * ex, p.y - a.y - t * ey, p.z - a.z - t * ez);
}

function insideLocal(s: ConvexShape, p: Vec3, slack = 0): boolean {
  switch (s.type) {
    case ShapeType.Sphere:
      return Math.hypot(p.x, p.y, p.z) <= s.radius + slack;
    case ShapeType.Cuboid: {
      const h = s.halfExtents;
      return (
        Math.abs(p.x) <= h.x + slack && Math.abs(p.y) <= h.y + slack && Math.abs(p.z) <= h.z + slack
      );
    }
    case ShapeType.Capsule:
      return segmentDistance(p, s.a, s.b) <= s.radius + slack;
    case ShapeType.Cylinder:
      return Math.hypot(p.x, p.z) <= s.radius + slack && Math.abs(p.y) <= s.halfHeight + slack;
    case ShapeType.Cone: {
      const h = s.halfHeight;
      if (p.y < -h - slack || p.y > h + slack) return false;
      // Distance-like slack: the side line has slope r/(2h).
      const k = s.radius / (2 * h);
      return Math.hypot(p.x, p.z) <= k * (h - p.y) + slack * Math.hypot(1, k);
    }
    case ShapeType.ConvexPolyhedron: {
      const n = s.faceNormals;
      for (let f = 0; f < s.faceCount; f++) {
        const d = n[3 * f] * p.x + n[3 * f + 1] * p.y + n[3 * f + 2] * p.z;
        if (d > s.facePlaneOffsets[f] + slack) return false;
      }
      return true;
    }
    case ShapeType.Triangle:
      return false;
    default:
      throw new Error(`no membership oracle for shape type ${s.type}`);
  }
}

function insideWorld(s: ConvexShape, pose: Isometry, p: Vec3, slack = 0): boolean {
  return insideLocal(s, iso.inverseTransformPoint(vec3.create(), pose, p), slack);
}

/** Bisection on membership between an outside t (lo) and an inside t (hi). */
function bisect(
  s: ConvexShape,
  pose: Isometry,
  o: Vec3,
  d: Vec3,
  lo: number,
  hi: number,
  wantInside: boolean,
): number {
  const p = vec3.create();
  for (let i = 0; i < 200; i++) {
    const mid = 0.5 * (lo + hi);
    if (mid === lo || mid === hi) break;
    vec3.addScaled(p, o, d, mid);
    if (insideWorld(s, pose, p) === wantInside) hi = mid;
    else lo = mid;
  }
  return hi;
}

const SAMPLES = 1500;

/** Marches t ∈ [0, maxToi]: the first inside sample (refined by bisection), or null. */
function marchEntry(
  s: ConvexShape,
  pose: Isometry,
  o: Vec3,
  d: Vec3,
  maxToi: number,
): { t: number; coarse: boolean } | null {
  const p = vec3.create();
  let prev = 0;
  for (let k = 0; k <= SAMPLES; k++) {
    const t = (maxToi * k) / SAMPLES;
    vec3.addScaled(p, o, d, t);
    if (insideWorld(s, pose, p)) {
      if (k === 0) return { t: 0, coarse: false };
      return { t: bisect(s, pose, o, d, prev, t, true), coarse: false };
    }
    prev = t;
  }
  return null;
}

/** Outward normal check: the hit point is the support point in direction n (h(n) = n·p). */
function supportGap(s: ConvexShape, pose: Isometry, p: Vec3, n: Vec3): number {
  const nl = iso.inverseTransformVector(vec3.create(), pose, n);
  const sp = supportShape(vec3.create(), s, nl);
  const pl = iso.inverseTransformPoint(vec3.create(), pose, p);
  return vec3.dot(nl, sp) - vec3.dot(nl, pl);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries.

const solidShape: fc.Arbitrary<ConvexShape> = fc.oneof(
  num(0.1, 2).map((r) => makeSphere(r) as ConvexShape),
  vec(0.05, 2).map((h) => makeCuboid(h) as ConvexShape),
  fc
    .tuple(vec(-1, 1), vec(-1, 1), num(0.05, 1))
    .map(([a, b, r]) => makeCapsule(a, b, r) as ConvexShape),
  fc.tuple(num(0.1, 2), num(0.1, 2)).map(([h, r]) => makeCylinder(h, r) as ConvexShape),
  fc.tuple(num(0.1, 2), num(0.1, 2)).map(([h, r]) => makeCone(h, r) as ConvexShape),
  fc
    .array(
      fc
        .tuple(fc.integer({ min: -150, max: 150 }), fc.integer({ min: -150, max: 150 }))
        .chain(([x, y]) =>
          fc.integer({ min: -150, max: 150 }).map((z) => vec3.create(x / 100, y / 100, z / 100)),
        ),
      { minLength: 8, maxLength: 16 },
    )
    .map((pts) => {
      try {
        return makeConvexPolyhedron(pts) as ConvexShape;
      } catch {
        return makeCuboid(vec3.create(1, 0.5, 0.25)) as ConvexShape;
      }
    }),
);

function scaleShape(s: ConvexShape, k: number): ConvexShape {
  switch (s.type) {
    case ShapeType.Sphere:
      return makeSphere(s.radius * k);
    case ShapeType.Cuboid:
      return makeCuboid(vec3.scale(vec3.create(), s.halfExtents, k));
    case ShapeType.Capsule:
      return makeCapsule(
        vec3.scale(vec3.create(), s.a, k),
        vec3.scale(vec3.create(), s.b, k),
        s.radius * k,
      );
    case ShapeType.Cylinder:
      return makeCylinder(s.halfHeight * k, s.radius * k);
    case ShapeType.Cone:
      return makeCone(s.halfHeight * k, s.radius * k);
    case ShapeType.ConvexPolyhedron:
      return makeConvexPolyhedron(Array.from(s.vertices, (c) => c * k));
    default:
      return s;
  }
}

const rayCase = fc.record({
  shape: solidShape,
  scale: fc.constantFrom(1e-3, 1, 1e4),
  far: fc.constantFrom(0, 0, 1e6),
  rotation: unitQuat,
  origin: vec(-4, 4),
  target: vec(-1.5, 1.5),
  reach: num(0.5, 3),
  solid: fc.boolean(),
});

describe("raycast against dense sampling and bisection along the ray", () => {
  it("agrees with the first inside sample, and hits only the shape", () => {
    fc.assert(
      fc.property(rayCase, (c) => {
        const k = c.scale;
        const s = scaleShape(c.shape, k);
        const t0 = vec3.create(c.far, -c.far, 0.5 * c.far);
        const pose: Isometry = { translation: t0, rotation: c.rotation };
        const o = vec3.add(vec3.create(), vec3.scale(vec3.create(), c.origin, k), t0);
        const target = vec3.add(vec3.create(), vec3.scale(vec3.create(), c.target, k), t0);
        const d = vec3.scale(vec3.create(), vec3.sub(vec3.create(), target, o), c.reach);
        if (vec3.lengthSq(d) === 0) return;
        const maxToi = 2;
        const hit = raycast(s, pose, o, d, maxToi, true);
        const entry = marchEntry(s, pose, o, d, maxToi);
        const lenD = vec3.length(d);
        const tol = (1e-9 * (4 * k) + 1e-14 * c.far) / lenD;
        if (entry) {
          expect(hit).not.toBeNull();
          if (!hit) return;
          expect(Math.abs(hit.toi - entry.t)).toBeLessThanOrEqual(tol);
          if (entry.t === 0) expect(hit.toi).toBe(0);
        }
        if (hit) {
          expect(Number.isFinite(hit.toi)).toBe(true);
          expect(hit.toi).toBeGreaterThanOrEqual(0);
          expect(hit.toi).toBeLessThanOrEqual(maxToi);
          // The hit point is on the shape (within rounding).
          expect(insideWorld(s, pose, hit.point, 1e-9 * k + 1e-14 * c.far)).toBe(true);
          if (hit.toi > 0) {
            expect(Math.abs(vec3.length(hit.normal) - 1)).toBeLessThan(1e-9);
            expect(supportGap(s, pose, hit.point, hit.normal)).toBeLessThan(
              1e-7 * k + 1e-13 * c.far,
            );
            // The ray was outside just before.
            expect(vec3.dot(hit.normal, d)).toBeLessThanOrEqual(1e-9 * lenD);
          } else {
            expect(vec3.exactEquals(hit.normal, vec3.create())).toBe(true);
          }
        }
        // Hollow: from inside the ray reports the exit, found by bisection from the far side.
        if (entry && entry.t === 0 && !c.solid) {
          const h = raycast(s, pose, o, d, Infinity, false);
          expect(h).not.toBeNull();
          if (!h) return;
          const far = h.toi * 2 + 10 * k;
          const tExit = bisect(s, pose, o, d, far, 0, true);
          expect(Math.abs(h.toi - tExit)).toBeLessThanOrEqual(tol * 10);
          if (h.toi > 0) {
            expect(supportGap(s, pose, h.point, h.normal)).toBeLessThan(1e-7 * k + 1e-13 * c.far);
            expect(vec3.dot(h.normal, d)).toBeGreaterThanOrEqual(-1e-9 * lenD);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("raycast: exact cases", () => {
  const id = iso.identity();
  const box = makeCuboid(vec3.create(1, 1, 1));

  it("box: rays through edges and corners, along faces, from the surface", () => {
    // Through the edge x = 1, y = 1 (diagonal in xy).
    let h = raycast(box, id, vec3.create(3, 3, 0), vec3.create(-1, -1, 0), 10);
    expect(h?.toi).toBe(2);
    // Through the corner.
    h = raycast(box, id, vec3.create(3, 3, 3), vec3.create(-1, -1, -1), 10);
    expect(h?.toi).toBe(2);
    // Parallel to a face, inside the slab, grazing the face plane y = 1.
    h = raycast(box, id, vec3.create(-5, 1, 0.5), vec3.create(1, 0, 0), 10);
    expect(h?.toi).toBe(4);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: -1, y: 0, z: 0 })).toBe(true);
    // Parallel, just outside the slab.
    expect(raycast(box, id, vec3.create(-5, 1 + 1e-15, 0), vec3.create(1, 0, 0), 10)).toBeNull();
    // Along an edge line.
    h = raycast(box, id, vec3.create(-5, 1, 1), vec3.create(2, 0, 0), 10);
    expect(h?.toi).toBe(2);
    // Starting on the surface, pointing in: entry at 0 with the face normal.
    h = raycast(box, id, vec3.create(1, 0, 0), vec3.create(-1, 0, 0), 10);
    expect(h?.toi).toBe(0);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: 1, y: 0, z: 0 })).toBe(true);
    // Starting on the surface, pointing out: solid → 0 with zero normal; hollow → leaves at 0.
    h = raycast(box, id, vec3.create(1, 0, 0), vec3.create(1, 0, 0), 10);
    expect(h?.toi).toBe(0);
    h = raycast(box, id, vec3.create(1, 0, 0), vec3.create(1, 0, 0), 10, false);
    expect(h?.toi).toBe(0);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: 1, y: 0, z: 0 })).toBe(true);
    // Hollow from inside.
    h = raycast(box, id, vec3.create(0, 0, 0), vec3.create(0, 0, -0.5), 10, false);
    expect(h?.toi).toBe(2);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: 0, y: 0, z: -1 })).toBe(true);
    // maxToi cuts.
    expect(raycast(box, id, vec3.create(3, 0, 0), vec3.create(-1, 0, 0), 1.999)).toBeNull();
    expect(raycast(box, id, vec3.create(3, 0, 0), vec3.create(-1, 0, 0), 2)?.toi).toBe(2);
    // Pointing away.
    expect(raycast(box, id, vec3.create(3, 0, 0), vec3.create(1, 0, 0), 10)).toBeNull();
  });

  it("flat box (zero half extent) is hit on its plane", () => {
    const flat = makeCuboid(vec3.create(1, 0, 1));
    const h = raycast(flat, id, vec3.create(0.5, 2, 0.5), vec3.create(0, -1, 0), 10);
    expect(h?.toi).toBe(2);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: 0, y: 1, z: 0 })).toBe(true);
  });

  it("sphere: tangent, far away, tiny and huge direction lengths", () => {
    const s = makeSphere(1);
    const h = raycast(s, id, vec3.create(-5, 1, 0), vec3.create(1, 0, 0), 10);
    expect(h?.toi).toBeCloseTo(5, 6);
    const far = raycast(s, id, vec3.create(-1e6, 0.5, 0), vec3.create(1, 0, 0), 2e6);
    expect(far?.toi).toBeCloseTo(1e6 - Math.sqrt(0.75), 6);
    const tiny = raycast(s, id, vec3.create(-3, 0, 0), vec3.create(1e-200, 0, 0), Infinity);
    expect(tiny?.toi).toBeCloseTo(2e200, -190);
    const huge = raycast(s, id, vec3.create(-3, 0, 0), vec3.create(1e200, 0, 0), 1);
    expect((huge?.toi ?? 0) * 1e200).toBeCloseTo(2, 10);
    expect(huge?.normal).toEqual({ x: -1, y: 0, z: 0 });
  });

  it("capsule, cylinder and cone: axis-parallel rays, caps, apex", () => {
    const cap = makeCapsule(vec3.create(0, -1, 0), vec3.create(0, 1, 0), 0.5);
    let h = raycast(cap, id, vec3.create(0, 5, 0), vec3.create(0, -1, 0), 10);
    expect(h?.toi).toBeCloseTo(3.5, 12);
    expect(h?.normal.y).toBeCloseTo(1, 12);
    h = raycast(cap, id, vec3.create(0.5, 5, 0), vec3.create(0, -1, 0), 10); // along the side
    expect(h?.toi).toBeCloseTo(4, 6);
    h = raycast(cap, id, vec3.create(5, 0.3, 0), vec3.create(-1, 0, 0), 10);
    expect(h?.toi).toBeCloseTo(4.5, 12);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: 1, y: 0, z: 0 })).toBe(true);
    const cyl = makeCylinder(1, 0.5);
    h = raycast(cyl, id, vec3.create(0.5, 5, 0), vec3.create(0, -1, 0), 10); // along the side line
    expect(h?.toi).toBe(4);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: 0, y: 1, z: 0 })).toBe(true);
    h = raycast(cyl, id, vec3.create(3, 0.2, 0), vec3.create(-1, 0, 0), 10);
    expect(h?.toi).toBeCloseTo(2.5, 12);
    h = raycast(cyl, id, vec3.create(0, 0, 0), vec3.create(0, 2, 0), 10, false);
    expect(h?.toi).toBe(0.5);
    const cone = makeCone(1, 1);
    h = raycast(cone, id, vec3.create(0, 5, 0), vec3.create(0, -1, 0), 10); // onto the apex
    expect(h?.toi).toBe(4);
    h = raycast(cone, id, vec3.create(0, -5, 0), vec3.create(0, 1, 0), 10); // onto the base
    expect(h?.toi).toBe(4);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: 0, y: -1, z: 0 })).toBe(true);
    h = raycast(cone, id, vec3.create(5, 0, 0), vec3.create(-1, 0, 0), 10); // side at y = 0
    expect(h?.toi).toBeCloseTo(4.5, 12);
    expect(h?.normal.x).toBeCloseTo(2 / Math.sqrt(5), 12);
    expect(h?.normal.y).toBeCloseTo(1 / Math.sqrt(5), 12);
    // Parallel to a generator, through the apex.
    h = raycast(cone, id, vec3.create(-2, 5, 0), vec3.create(1, -2, 0), 10);
    expect(h?.toi).toBeCloseTo(2, 9);
  });

  it("triangle: a surface; faces face the origin; a ray in its plane or on a zero-area triangle misses", () => {
    const tri = makeTriangle(vec3.create(0, 0, 0), vec3.create(1, 0, 0), vec3.create(0, 1, 0));
    let h = raycast(tri, id, vec3.create(0.2, 0.2, 1), vec3.create(0, 0, -1), 10);
    expect(h?.toi).toBe(1);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: 0, y: 0, z: 1 })).toBe(true);
    h = raycast(tri, id, vec3.create(0.2, 0.2, -1), vec3.create(0, 0, 1), 10);
    expect(vec3.exactEquals(h?.normal ?? vec3.create(9, 9, 9), { x: 0, y: 0, z: -1 })).toBe(true);
    // In the plane of the triangle, through it: a miss, as on a mesh or a heightfield.
    expect(raycast(tri, id, vec3.create(-1, 0.25, 0), vec3.create(1, 0, 0), 10)).toBeNull();
    expect(raycast(tri, id, vec3.create(-1, 2, 0), vec3.create(1, 0, 0), 10)).toBeNull();
    // Degenerate triangle (a segment): no face to cross.
    const seg = makeTriangle(vec3.create(0, 0, 0), vec3.create(2, 0, 0), vec3.create(1, 0, 0));
    expect(raycast(seg, id, vec3.create(1, 1, 0), vec3.create(0, -1, 0), 10)).toBeNull();
    expect(raycast(seg, id, vec3.create(1, 1, 0.1), vec3.create(0, -1, 0), 10)).toBeNull();
  });

  it("castRayShape with a zero direction answers containment, without NaN", () => {
    const out = makeRayHit();
    const s = makeSphere(1);
    expect(castRayShape(out, s, id, vec3.create(0.5, 0, 0), vec3.create(), 1, true)).toBe(true);
    expect(out.toi).toBe(0);
    expect(castRayShape(out, s, id, vec3.create(0.5, 0, 0), vec3.create(), 1, false)).toBe(false);
    expect(castRayShape(out, s, id, vec3.create(2, 0, 0), vec3.create(), 1, true)).toBe(false);
  });

  it("rejects a zero or non-finite direction and a negative maxToi, naming the field", () => {
    const s = makeSphere(1);
    const call =
      (d: Vec3, m = 1) =>
      () =>
        raycast(s, id, vec3.create(), d, m);
    expect(call(vec3.create())).toThrow(CollideError);
    expect(call(vec3.create())).toThrow(/direction/);
    expect(call(vec3.create(Number.NaN, 0, 0))).toThrow(/direction/);
    expect(call(vec3.create(1, 0, 0), -1)).toThrow(/maxToi/);
  });
});

describe("raycast: no NaN over adversarial rays", () => {
  const shapes: ConvexShape[] = [
    makeSphere(1),
    makeCuboid(vec3.create(1, 0.5, 0)),
    makeCuboid(vec3.create(1, 1, 1)),
    makeCapsule(vec3.create(0, -1, 0), vec3.create(0, 1, 0), 0.5),
    makeCapsule(vec3.create(0.3, 0, 0), vec3.create(0.3, 0, 0), 0.5),
    makeCylinder(1, 0.5),
    makeCone(1, 0.7),
    makeConvexPolyhedron([
      vec3.create(1, 1, 1),
      vec3.create(-1, 1, 1),
      vec3.create(1, -1, 1),
      vec3.create(-1, -1, 1),
      vec3.create(1, 1, -1),
      vec3.create(-1, 1, -1),
      vec3.create(1, -1, -1),
      vec3.create(-1, -1, -1),
      vec3.create(0, 0, 2),
    ]),
    makeTriangle(vec3.create(0, 0, 0), vec3.create(1, 0, 0), vec3.create(0, 1, 0)),
    makeTriangle(vec3.create(0, 0, 0), vec3.create(1, 1, 1), vec3.create(2, 2, 2)),
  ];
  // Special points: vertices, edge midpoints, face centres, apexes of these shapes.
  const specials = [-2, -1, -0.5, 0, 0.5, 0.7, 1, 2];
  const special = fc
    .tuple(fc.constantFrom(...specials), fc.constantFrom(...specials), fc.constantFrom(...specials))
    .map(([x, y, z]) => vec3.create(x, y, z));
  const axisDir = fc
    .tuple(fc.constantFrom(0, 1, 2), fc.constantFrom(-1, 1))
    .map(([i, s]) => vec3.setAxis(vec3.create(), i, s));
  const anyDir = fc.oneof(axisDir, vec(-1, 1), special);
  const origin = fc.oneof(special, vec(-3, 3), vec(-1e6, 1e6));

  it("finite answers for 5000 rays through vertices, edges, faces, from inside and far away", () => {
    const out = makeRayHit();
    fc.assert(
      fc.property(
        fc.constantFrom(...shapes),
        origin,
        fc.oneof(
          anyDir,
          fc.tuple(special, special).map(([a, b]) => vec3.sub(a, a, b)),
        ),
        fc.constantFrom(1, 10, 1e7, Infinity),
        fc.boolean(),
        (s, o, d, maxToi, solid) => {
          if (castRayShape(out, s, iso.identity(), o, d, maxToi, solid)) {
            expect(Number.isFinite(out.toi) && out.toi >= 0 && out.toi <= maxToi).toBe(true);
            expect(vec3.isFiniteVec(out.point) && vec3.isFiniteVec(out.normal)).toBe(true);
            const n = vec3.length(out.normal);
            expect(n === 0 || Math.abs(n - 1) < 1e-12).toBe(true);
          }
        },
      ),
      { numRuns: 5000 },
    );
  });
});
