/**
 * The rounded cuboid's and rounded convex polyhedron's ray casts are closed forms (issue 14):
 * the core's faces pushed out by the radius, its edges' capsules (src/geometry/ray-rounded.ts).
 * Oracle, written here independently: the signed distance of the rounded shape (the core's
 * signed distance minus the radius; the box's from its half extents, the hull's from its face
 * planes inside and the distance to its face triangles outside), which is convex along any line
 * (the signed distance of a convex set is a convex function), so the first root on a ray is
 * found exactly by a ternary search for the minimum and a bisection before it. Rays are
 * adversarial: through a corner ball, grazing an edge's cylinder, parallel to a face, from a
 * point of the surface, from 1e6 away, at scales 1e-6..1e6; hollow casts from inside leave
 * where the oracle's last root is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isometry,
  makeRoundedConvexPolyhedron,
  makeRoundedCuboid,
  raycast,
  type Shape,
} from "../../src/index.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { roundedShapeDef } from "../../src/shapes/defs/helpers.js";
import type { RoundedConvexPolyhedron, RoundedCuboid } from "../../src/shapes/rounded.js";
import { brandShape, SHAPE_TYPE_COUNT, ShapeType } from "../../src/shapes/shape.js";
import { registerShape } from "../../src/shapes/shape-def.js";

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const mul = (a: V, k: number): V => [a[0] * k, a[1] * k, a[2] * k];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** Distance from p to segment ab. */
function segDist(p: V, a: V, b: V): number {
  const e = sub(b, a);
  const ee = dot(e, e);
  const s = ee > 0 ? Math.min(1, Math.max(0, dot(sub(p, a), e) / ee)) : 0;
  return norm(sub(p, add(a, mul(e, s))));
}

/** Distance from p to triangle abc: the plane when p projects inside, else the nearest side. */
function triDist(p: V, a: V, b: V, c: V): number {
  const n = cross(sub(b, a), sub(c, a));
  const nn = norm(n);
  if (nn > 0) {
    const u = mul(n, 1 / nn);
    const h = dot(sub(p, a), u);
    const q = sub(p, mul(u, h));
    const inside =
      dot(cross(sub(b, a), sub(q, a)), n) >= 0 &&
      dot(cross(sub(c, b), sub(q, b)), n) >= 0 &&
      dot(cross(sub(a, c), sub(q, c)), n) >= 0;
    if (inside) return Math.abs(h);
  }
  return Math.min(segDist(p, a, b), segDist(p, b, c), segDist(p, c, a));
}

/** Signed distance of a box of half extents h (Quilez's form). */
function boxSd(p: V, h: V): number {
  const q = [Math.abs(p[0]) - h[0], Math.abs(p[1]) - h[1], Math.abs(p[2]) - h[2]] as V;
  const out = Math.hypot(Math.max(q[0], 0), Math.max(q[1], 0), Math.max(q[2], 0));
  return out + Math.min(Math.max(q[0], q[1], q[2]), 0);
}

/** Signed distance of a convex hull given by its faces (planes inside, triangles outside). */
function hullSd(p: V, c: RoundedConvexPolyhedron["core"]): number {
  let worst = -Infinity;
  for (let f = 0; f < c.faceCount; f++) {
    const n: V = [c.faceNormals[3 * f], c.faceNormals[3 * f + 1], c.faceNormals[3 * f + 2]];
    worst = Math.max(worst, dot(n, p) - c.facePlaneOffsets[f]);
  }
  if (worst <= 0 && !c.flat) return worst;
  const vert = (i: number): V => [c.vertices[3 * i], c.vertices[3 * i + 1], c.vertices[3 * i + 2]];
  let best = Infinity;
  for (let f = 0; f < c.faceCount; f++) {
    const s = c.faceOffsets[f];
    for (let k = s + 1; k + 1 < c.faceOffsets[f + 1]; k++) {
      best = Math.min(
        best,
        triDist(p, vert(c.faceVertices[s]), vert(c.faceVertices[k]), vert(c.faceVertices[k + 1])),
      );
    }
  }
  return best;
}

type Rounded = RoundedCuboid | RoundedConvexPolyhedron;

function sdOf(s: Rounded): (p: V) => number {
  if ("halfExtents" in s.core) {
    const h = s.core.halfExtents;
    const hv: V = [h.x, h.y, h.z];
    return (p) => boxSd(p, hv) - s.radius;
  }
  const core = s.core;
  return (p) => hullSd(p, core) - s.radius;
}

/**
 * The oracle's interval of the ray o + t·d (d unit), t ∈ [0, tMax], inside the shape: null on
 * a miss (the convex f(t) = sd stays > 0), else the first and last roots (0 / tMax when inside
 * there). Ternary search for f's minimum, then bisections on each side.
 */
function oracle(
  sd: (p: V) => number,
  o: V,
  d: V,
  tMax: number,
): { first: number; last: number; fmin: number } | null {
  const f = (t: number) => sd(add(o, mul(d, t)));
  let lo = 0;
  let hi = tMax;
  for (let i = 0; i < 300 && hi - lo > 0; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (f(m1) <= f(m2)) hi = m2;
    else lo = m1;
  }
  const tm = (lo + hi) / 2;
  const fmin = Math.min(f(tm), f(0), f(tMax));
  const tAt = fmin === f(0) ? 0 : fmin === f(tMax) ? tMax : tm;
  if (fmin > 0) return null;
  const root = (a: number, b: number) => {
    // f(a) > 0 ≥ f(b) or the reverse: bisection to the doubles.
    const up = f(a) > 0;
    for (let i = 0; i < 400; i++) {
      const m = (a + b) / 2;
      if (m === a || m === b) break;
      if (f(m) > 0 === up) a = m;
      else b = m;
    }
    return (a + b) / 2;
  };
  const first = f(0) <= 0 ? 0 : root(0, tAt);
  const last = f(tMax) <= 0 ? tMax : root(tMax, tAt);
  return { first, last, fmin };
}

function unit(a: V): V {
  return mul(a, 1 / norm(a));
}

const id = isometry.identity();

/**
 * Checks one ray against the oracle: the hit (or miss) and, for a hit from outside, the point on
 * the surface and the normal along the signed distance's gradient. `size` scales tolerances.
 */
function checkRay(
  s: Rounded,
  o: V,
  dRaw: V,
  size: number,
  solid = true,
  sd: (p: V) => number = sdOf(s),
  rel = 1e-13,
): void {
  const dl = norm(dRaw);
  const d = mul(dRaw, 1 / dl);
  const tMax = 4 * (norm(o) + 4 * size);
  const hit = raycast(
    s as Shape,
    id,
    { x: o[0], y: o[1], z: o[2] },
    { x: dRaw[0], y: dRaw[1], z: dRaw[2] },
    tMax / dl,
    solid,
  );
  const want = oracle(sd, o, d, tMax);
  const ctx = JSON.stringify({ s, o, dRaw, solid, hit, want, sdo: sd(o) });
  // Rounding of the coordinates of points on the ray, and of the signed distance there.
  const tol = rel * (norm(o) + size);
  if (want === null) {
    // A graze within rounding of the surface may hit; nothing deeper.
    if (hit !== null)
      expect(sd([hit.point.x, hit.point.y, hit.point.z]), ctx).toBeLessThanOrEqual(10 * tol);
    return;
  }
  if (want.fmin > -tol && hit === null) return; // touches within rounding: a miss is right too
  expect(hit, ctx).not.toBeNull();
  if (hit === null) return;
  const t = hit.toi * dl;
  const sdo = sd(o);
  if (sdo <= 0 && solid) {
    if (sdo < -tol) expect(t, ctx).toBe(0);
    return;
  }
  // From a point of the surface (within rounding): entering at 0, or (hollow) leaving where the
  // oracle's last root is.
  const onSurface = Math.abs(sdo) <= tol;
  if (onSurface && t === 0) return;
  const expected = onSurface
    ? Math.abs(t - want.first) < Math.abs(t - want.last)
      ? want.first
      : want.last
    : sdo <= 0
      ? want.last
      : want.first;
  const p: V = [hit.point.x, hit.point.y, hit.point.z];
  expect(Math.abs(sd(p)), ctx).toBeLessThanOrEqual(tol * 10);
  // The root itself: exact up to the conditioning of the root (the slope of f there); a graze
  // (slope ~0) is anywhere in the oracle's interval of f within rounding of 0.
  const e = size * 1e-7;
  const slope =
    Math.abs(sd(add(o, mul(d, expected + e))) - sd(add(o, mul(d, expected - e)))) / (2 * e);
  if (slope > 1e-2) {
    expect(Math.abs(t - expected), ctx).toBeLessThanOrEqual((tol * 10) / slope);
  } else {
    const slack = Math.sqrt(size * tol) * 10;
    expect(t, ctx).toBeGreaterThanOrEqual(want.first - slack);
    expect(t, ctx).toBeLessThanOrEqual(want.last + slack);
  }
  if (slope > 1e-2) {
    // Normal: the gradient of the signed distance, by central differences.
    const e = 1e-6 * size;
    const g: V = unit([
      sd(add(p, [e, 0, 0])) - sd(add(p, [-e, 0, 0])),
      sd(add(p, [0, e, 0])) - sd(add(p, [0, -e, 0])),
      sd(add(p, [0, 0, e])) - sd(add(p, [0, 0, -e])),
    ]);
    const n: V = [hit.normal.x, hit.normal.y, hit.normal.z];
    expect(Math.abs(norm(n) - 1), ctx).toBeLessThan(1e-12);
    expect(dot(n, g), ctx).toBeGreaterThan(1 - 1e-6);
  }
}

const dir = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .filter((v) => norm(v as V) > 0.1)
  .map((v) => unit(v as V));

const cube = (k: number) => [
  -k,
  -k,
  -k,
  k,
  -k,
  -k,
  -k,
  k,
  -k,
  k,
  k,
  -k,
  -k,
  -k,
  k,
  k,
  -k,
  k,
  -k,
  k,
  k,
  k,
  k,
  k,
];

describe("rounded shapes' ray casts: hand-derived", () => {
  const box = makeRoundedCuboid({ x: 1, y: 2, z: 3 }, 0.5);
  it("a face: toi to the pushed-out face, its normal", () => {
    const h = raycast(box, id, { x: 5, y: 0.3, z: -0.2 }, { x: -1, y: 0, z: 0 }, 100);
    expect(h?.toi).toBe(5 - 1.5);
    expect(h?.normal).toEqual({ x: 1, y: 0, z: 0 });
  });
  it("an edge's cylinder: a ray along −x at height y above the edge (1, 2, z)", () => {
    // Cylinder about the line x = 1, y = 2: x = 1 + √(0.25 − (y − 2)²).
    const y = 2.3;
    const h = raycast(box, id, { x: 5, y, z: 0.7 }, { x: -1, y: 0, z: 0 }, 100);
    const x = 1 + Math.sqrt(0.25 - (y - 2) ** 2);
    expect(h?.toi).toBeCloseTo(5 - x, 15);
    expect(h?.normal.x).toBeCloseTo((x - 1) / 0.5, 14);
    expect(h?.normal.y).toBeCloseTo((y - 2) / 0.5, 14);
  });
  it("a corner's ball: a ray toward the corner (1, 2, 3) along the diagonal", () => {
    const u = unit([1, 2, 3]);
    const o = add([1, 2, 3], mul(u, 10));
    const h = raycast(
      box,
      id,
      { x: o[0], y: o[1], z: o[2] },
      { x: -u[0], y: -u[1], z: -u[2] },
      100,
    );
    expect(h?.toi).toBeCloseTo(9.5, 14);
    expect(h?.normal.x).toBeCloseTo(u[0], 14);
  });
  it("from inside: solid toi 0, hollow the exit through the pushed face", () => {
    const s = raycast(box, id, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 1 }, 100);
    expect(s?.toi).toBe(0);
    const h = raycast(box, id, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 1 }, 100, false);
    expect(h?.toi).toBe(3.5);
    expect(h?.normal).toEqual({ x: 0, y: 0, z: 1 });
  });
  it("a ray parallel to a face at the rounded height misses by a hair or touches", () => {
    expect(raycast(box, id, { x: 5, y: 2.5 + 1e-12, z: 0 }, { x: -1, y: 0, z: 0 }, 100)).toBeNull();
    const h = raycast(box, id, { x: 5, y: 2.5 - 1e-9, z: 0 }, { x: -1, y: 0, z: 0 }, 100);
    // The root of a graze: sqrt-conditioned (the rounding of 2.5 − 1e-9 moves it by ~3e-12).
    expect(h?.toi).toBeCloseTo(4 - Math.sqrt(0.25 - (0.5 - 1e-9) ** 2), 10);
  });
  it("radius 0 is the core's ray cast", () => {
    const z = makeRoundedCuboid({ x: 1, y: 1, z: 1 }, 0);
    expect(raycast(z, id, { x: 5, y: 0.2, z: 0 }, { x: -1, y: 0, z: 0 }, 100)?.toi).toBe(4);
    const hz = makeRoundedConvexPolyhedron(cube(1), 0);
    expect(raycast(hz, id, { x: 5, y: 0.2, z: 0 }, { x: -1, y: 0, z: 0 }, 100)?.toi).toBe(4);
  });
});

/** An adversarial ray for a rounded shape: [origin, direction]. */
function adversarialRays(s: Rounded, size: number): fc.Arbitrary<[V, V]> {
  const core = "halfExtents" in s.core ? null : s.core;
  const verts: V[] = [];
  if (core) {
    for (let i = 0; i < core.vertexCount; i++)
      verts.push([core.vertices[3 * i], core.vertices[3 * i + 1], core.vertices[3 * i + 2]]);
  } else {
    const h = (s as RoundedCuboid).core.halfExtents;
    for (let i = 0; i < 8; i++)
      verts.push([i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z]);
  }
  const r = s.radius;
  const dirA = fc
    .tuple(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
    )
    .filter((v) => norm(v) > 0.1)
    .map((v) => unit(v as V));
  const vi = fc.nat({ max: verts.length - 1 });
  const frac = fc.double({ min: 0, max: 1, noNaN: true });
  // Through a corner's ball at a depth below r (or just outside it).
  const corner = fc
    .tuple(vi, dirA, dirA, fc.constantFrom(0, 0.5, 0.999999, 1 - 1e-12, 1 + 1e-12))
    .map(([i, u, w, k]): [V, V] => {
      const target = add(verts[i], mul(u, r * k));
      return [add(target, mul(w, 5 * size)), mul(w, -1)];
    });
  // Grazing an edge's cylinder: a ray perpendicular to the segment between two vertices, at a
  // distance r (1 ± 1e-9) from a point of it.
  const edge = fc
    .tuple(vi, vi, frac, dirA, fc.constantFrom(1 - 1e-9, 1 + 1e-9, 1, 0.9))
    .map(([i, j, a, u, k]): [V, V] => {
      const e = sub(verts[j], verts[i]);
      const on = add(verts[i], mul(e, a));
      const el = norm(e);
      const eu = el > 1e-200 ? mul(e, 1 / el) : ([1, 0, 0] as V);
      let side = sub(u, mul(eu, dot(u, eu)));
      if (norm(side) < 1e-6) side = cross(eu, [0, 0, 1]);
      if (norm(side) < 1e-6) side = cross(eu, [0, 1, 0]);
      side = unit(side);
      const along = unit(cross(eu, side));
      const target = add(on, mul(side, r * k));
      return [add(target, mul(along, 3 * size)), mul(along, -1)];
    });
  // Parallel to an axis or a face: from far on one axis, at a random offset.
  const parallel = fc
    .tuple(fc.constantFrom<V>([1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0]), dirA, frac)
    .map(([ax, u, a]): [V, V] => {
      const off = sub(u, mul(ax, dot(u, ax)));
      const o = add(mul(ax, 4 * size), mul(off, (1.6 * a + 0.2) * size));
      return [o, mul(ax, -1)];
    });
  // From a point of the surface (a corner ball's), any direction.
  const onSurface = fc
    .tuple(vi, dirA, dirA)
    .map(([i, u, w]): [V, V] => [add(verts[i], mul(u, r)), w]);
  // From far away (1e6 times the size) toward a point near the shape.
  const far = fc.tuple(dirA, dirA, frac).map(([u, w, a]): [V, V] => {
    const target = mul(w, a * 1.5 * size);
    return [add(target, mul(u, 1e6 * size)), mul(u, -1)];
  });
  return fc.oneof(corner, edge, parallel, onSurface, far);
}

describe("rounded shapes' ray casts against the signed-distance oracle", () => {
  const scales = [1e-6, 1e-3, 1, 1e3, 1e6];
  it.each(scales)("rounded cuboids at scale %s (fast-check, adversarial rays)", (k) => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.double({ min: 0, max: 2, noNaN: true }),
          fc.double({ min: 0, max: 2, noNaN: true }),
          fc.double({ min: 0, max: 2, noNaN: true }),
        ),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.boolean(),
        fc.integer(),
        (h, r, solid, seed) => {
          const s = makeRoundedCuboid({ x: h[0] * k, y: h[1] * k, z: h[2] * k }, r * k);
          const size = (Math.max(...h) + r) * k;
          const [[o, d]] = fc.sample(adversarialRays(s, size), { numRuns: 1, seed });
          checkRay(s, o, d, size, solid);
        },
      ),
      { numRuns: 300 },
    );
  });
  it.each(scales)("rounded hulls at scale %s (fast-check, adversarial rays)", (k) => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
          ),
          { minLength: 6, maxLength: 14 },
        ),
        fc.double({ min: 0.01, max: 0.8, noNaN: true }),
        fc.boolean(),
        fc.integer(),
        (pts, r, solid, seed) => {
          let s: RoundedConvexPolyhedron;
          try {
            s = makeRoundedConvexPolyhedron(
              pts.flat().map((x) => x * k),
              r * k,
            );
          } catch {
            return; // degenerate point sets are refused by the constructor
          }
          const size = (1.8 + r) * k;
          const [[o, d]] = fc.sample(adversarialRays(s, size), { numRuns: 1, seed });
          checkRay(s, o, d, size, solid);
        },
      ),
      { numRuns: 200 },
    );
  });
  it("a flat rounded polygon (coplanar core) at scale 1, random rays", () => {
    const s = makeRoundedConvexPolyhedron([0, 0, 0, 2, 0, 0, 2, 1, 0, 0, 1.5, 0], 0.3);
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), (seed, solid) => {
        const [[o, d]] = fc.sample(adversarialRays(s, 2.5), { numRuns: 1, seed });
        checkRay(s, o, d, 2.5, solid);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a recipe-defined rounded type (roundedShapeDef): the GJK ray cast refined to 1e-9", () => {
  // Two new types through the recipe: a rounded cylinder and a rounded hull (the generic path,
  // not the built-in closed form), each against its own signed-distance oracle.
  const CYL = SHAPE_TYPE_COUNT + 5;
  const HULL = SHAPE_TYPE_COUNT + 6;
  const json = (name: string) => ({
    name,
    schema: (z: typeof import("zod").z) => z.object({ type: z.literal(name) }),
    toJson: () => ({ type: name }),
    fromJson: (): never => {
      throw new Error("not read in this test");
    },
  });
  const view = () => ({ type: "sphere" as const, radius: 1 });
  registerShape(roundedShapeDef(CYL as never, ShapeType.Cylinder, view, json("rcylRay")) as never);
  registerShape(
    roundedShapeDef(HULL as never, ShapeType.ConvexPolyhedron, view, json("rhullRay")) as never,
  );

  it("a rounded cylinder at scales 1e-3..1e3 against its signed distance (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.constantFrom(1e-3, 1, 1e3),
        fc.tuple(dir, dir, fc.double({ min: 0, max: 1.2, noNaN: true })),
        fc.boolean(),
        (hh, rr, r, k, [u, w, a], solid) => {
          const s = brandShape({ type: CYL, core: makeCylinder(hh * k, rr * k), radius: r * k });
          const size = (Math.hypot(hh, rr) + r) * k;
          const sd = (p: V) => {
            const dx = Math.hypot(p[0], p[2]) - rr * k;
            const dy = Math.abs(p[1]) - hh * k;
            return (
              Math.min(Math.max(dx, dy), 0) + Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) - r * k
            );
          };
          const target = mul(w, a * size);
          const o = add(target, mul(u, 3 * size));
          checkRay(s as unknown as Rounded, o, mul(u, -1), size, solid, sd, 1e-10);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a rounded hull by the recipe agrees with the oracle and the built-in closed form", () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.double({ min: 0.02, max: 0.6, noNaN: true }),
        fc.boolean(),
        (seed, r, solid) => {
          const built = makeRoundedConvexPolyhedron(
            cube(1).map((x, i) => x * (1 + (i % 3) * 0.3)),
            r,
          );
          const s = brandShape({ type: HULL, core: built.core, radius: r });
          const [[o, d]] = fc.sample(adversarialRays(built, 2), { numRuns: 1, seed });
          checkRay(s as unknown as Rounded, o, d, 2.5, solid, sdOf(built), 1e-10);
          const a = raycast(
            s as unknown as Shape,
            id,
            { x: o[0], y: o[1], z: o[2] },
            { x: d[0], y: d[1], z: d[2] },
            100,
            solid,
          );
          const b = raycast(
            built,
            id,
            { x: o[0], y: o[1], z: o[2] },
            { x: d[0], y: d[1], z: d[2] },
            100,
            solid,
          );
          // Transversal hits only (a graze's root is sqrt-conditioned, checked by checkRay above).
          const cos = b ? Math.abs(dot([b.normal.x, b.normal.y, b.normal.z], unit(d))) : 0;
          if (a && b && a.toi > 0 && b.toi > 0 && cos > 0.01) {
            expect(
              Math.abs(a.toi - b.toi),
              JSON.stringify({ o, d, a, b, solid, r }),
            ).toBeLessThanOrEqual(1e-9 * (norm(o) + 2.5));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
