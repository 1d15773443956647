/**
 * The general narrow phase (src/narrowphase/convex-convex.ts): GJK + EPA with analytic margins,
 * against analytic answers (sphere–sphere, sphere–box, box–box, a zero-length capsule), the
 * brute-force polytope distance and SAT oracles on random hulls, dense sampling of the support
 * functions for curved shapes, the handed regression cases, and an adversarial sweep for NaN
 * and endless loops (10^5 pairs).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeContact, makeDistanceResult } from "../../src/narrowphase/contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "../../src/narrowphase/convex-convex.js";
import {
  type ConvexShape,
  makeCapsule,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeSphere,
  makeTriangle,
  supportShape,
} from "../../src/shapes/index.js";
import { unitQuat, vec } from "../oracles/arbitraries.js";
import { polytopeDistance, satOverlap } from "../oracles/polytope-distance.js";

const c = makeContact();
const d = makeDistanceResult();

/** B's pose in A's frame from two world poses given by centre and rotation [x, y, z, w]. */
function rel(ca: number[], cb: number[], qa = [0, 0, 0, 1], qb = qa): Isometry {
  const A = iso.create(
    { x: ca[0], y: ca[1], z: ca[2] },
    { x: qa[0], y: qa[1], z: qa[2], w: qa[3] },
  );
  const B = iso.create(
    { x: cb[0], y: cb[1], z: cb[2] },
    { x: qb[0], y: qb[1], z: qb[2], w: qb[3] },
  );
  return iso.invMul(iso.identity(), A, B);
}

const v3 = (p: number[]): Vec3 => ({ x: p[0], y: p[1], z: p[2] });

describe("handed cases", () => {
  it("box–box contact: distance −0.08, normal +z", () => {
    const box = makeCuboid({ x: 0.75, y: 0.75, z: 0.75 });
    expect(contactConvexConvex(c, box, box, rel([0.3, -0.2, 0], [0.3, -0.2, 1.42]), 0)).toBe(true);
    expect(c.distance).toBeCloseTo(-0.08, 6);
    expect(vec3.distance(c.normal, { x: 0, y: 0, z: 1 })).toBeLessThan(1e-6);
  });

  it("rotated boxes 1e-6 apart: distance 1e-6 (tol 1e-9)", () => {
    const q = [0.061690165369523466, -0.1028169422825391, 0.1645071076520626, 0.9790609845195051];
    const box = makeCuboid({ x: 0.3, y: 0.3, z: 0.3 });
    const bInA = rel(
      [1.7, 0.35, 1.05],
      [1.4991133232488503, 0.9129590202978303, 1.1021812664678252],
      q,
    );
    distanceConvexConvex(d, box, box, bInA);
    expect(Math.abs(d.distance - 1e-6)).toBeLessThan(1e-9);
    expect(intersectsConvexConvex(box, box, bInA)).toBe(false);
  });

  it("triangles 3.62 apart, in either order", () => {
    const a = makeTriangle(v3([12.4, 0.6, -5.3]), v3([11.5, 0.6, -5.22]), v3([12.4, 0.6, -5.22]));
    const b = makeTriangle(v3([11.5, 1.3, -1.6]), v3([11.5, -1.5, -1.3]), v3([11.5, -1.5, -1.6]));
    const id = iso.identity();
    for (const [x, y] of [
      [a, b],
      [b, a],
    ]) {
      distanceConvexConvex(d, x, y, id);
      expect(Math.abs(d.distance - 3.62)).toBeLessThan(1e-9);
      expect(intersectsConvexConvex(x, y, id)).toBe(false);
    }
  });

  it("zero-length capsule vs box: the sphere answer", () => {
    // Capsule a = b = (0.2, 0.1, 0), radius 0.5; unit box at (0.2, 0.1, 0.3): the centre is
    // 0.3 below the box centre, 0.7 above its bottom face: depth 0.5 + 0.7 = 1.2 along +z.
    const cap = makeCapsule(v3([0.2, 0.1, 0]), v3([0.2, 0.1, 0]), 0.5);
    const box = makeCuboid({ x: 1, y: 1, z: 1 });
    expect(contactConvexConvex(c, cap, box, iso.create(v3([0.2, 0.1, 0.3])), 0)).toBe(true);
    expect(c.distance).toBeCloseTo(-1.2, 12);
    expect(vec3.distance(c.normal, { x: 0, y: 0, z: 1 })).toBeLessThan(1e-12);
    expect(vec3.distance(c.pointA, v3([0.2, 0.1, 0.5]))).toBeLessThan(1e-12);
    expect(vec3.distance(c.pointB, v3([0.2, 0.1, -0.7]))).toBeLessThan(1e-12);
    // Separated: 0.25 gap along x from the +x face at 1.5 (box centre 0.5 from the origin).
    expect(contactConvexConvex(c, cap, box, iso.create(v3([-1.55, 0.1, 0])), 1)).toBe(true);
    expect(c.distance).toBeCloseTo(0.25, 12);
    expect(vec3.distance(c.normal, { x: -1, y: 0, z: 0 })).toBeLessThan(1e-12);
  });
});

describe("analytic pairs through GJK/EPA", () => {
  it("sphere–sphere (coincident centres included)", () => {
    fc.assert(
      fc.property(
        fc.oneof(vec(-3, 3), fc.constant({ x: 0, y: 0, z: 0 })),
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        (t, ra, rb) => {
          const bInA = iso.create(t);
          const dist = vec3.length(t) - ra - rb;
          expect(contactConvexConvex(c, makeSphere(ra), makeSphere(rb), bInA, Infinity)).toBe(true);
          expect(Math.abs(c.distance - dist)).toBeLessThan(1e-12 * (1 + vec3.length(t)));
          expect(Math.abs(vec3.length(c.normal) - 1)).toBeLessThan(1e-12);
          const m = Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
          if (m > 0) {
            const n = v3([t.x / m, t.y / m, t.z / m]);
            vec3.scale(n, n, 1 / vec3.length(n));
            expect(vec3.distance(c.normal, n)).toBeLessThan(1e-9);
          } else expect(c.normal).toEqual({ x: 1, y: 0, z: 0 });
          expect(intersectsConvexConvex(makeSphere(ra), makeSphere(rb), bInA)).toBe(dist <= 0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("box–sphere: clamp for the distance, nearest face for the depth", () => {
    fc.assert(
      fc.property(
        vec(0.1, 1.5),
        vec(-3, 3),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (h, p, r) => {
          const box = makeCuboid(h);
          const q = {
            x: Math.max(-h.x, Math.min(h.x, p.x)),
            y: Math.max(-h.y, Math.min(h.y, p.y)),
            z: Math.max(-h.z, Math.min(h.z, p.z)),
          };
          const out = vec3.distance(p, q);
          let expected: number;
          if (out > 0) expected = out - r;
          else
            expected = -(
              r + Math.min(h.x - Math.abs(p.x), h.y - Math.abs(p.y), h.z - Math.abs(p.z))
            );
          expect(contactConvexConvex(c, box, makeSphere(r), iso.create(p), Infinity)).toBe(true);
          expect(Math.abs(c.distance - expected)).toBeLessThan(1e-9);
          // The normal attains the depth: B moved by −distance along it just touches.
          if (out > 1e-9)
            expect(
              vec3.distance(
                c.normal,
                vec3.scale(vec3.create(), vec3.sub(vec3.create(), p, q), 1 / out),
              ),
            ).toBeLessThan(1e-7);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("axis-aligned box–box: per-axis gaps and overlaps", () => {
    fc.assert(
      fc.property(vec(0.05, 1), vec(0.05, 1), vec(-2.5, 2.5), (ha, hb, t) => {
        const gaps = [
          Math.abs(t.x) - ha.x - hb.x,
          Math.abs(t.y) - ha.y - hb.y,
          Math.abs(t.z) - ha.z - hb.z,
        ];
        const sep = Math.hypot(...gaps.map((g) => Math.max(0, g)));
        const expected = sep > 0 ? sep : Math.max(...gaps);
        expect(
          contactConvexConvex(c, makeCuboid(ha), makeCuboid(hb), iso.create(t), Infinity),
        ).toBe(true);
        expect(Math.abs(c.distance - expected)).toBeLessThan(1e-9);
        distanceConvexConvex(d, makeCuboid(ha), makeCuboid(hb), iso.create(t));
        expect(Math.abs(d.distance - Math.max(0, expected))).toBeLessThan(1e-9);
      }),
      { numRuns: 300 },
    );
  });
});

const coord = fc.integer({ min: -1000, max: 1000 }).map((i) => i / 1000);
const hullPoints = fc.array(fc.record({ x: coord, y: coord, z: coord }), {
  minLength: 4,
  maxLength: 12,
});

function hullOrNull(pts: Vec3[], s: number): ConvexShape | null {
  try {
    return makeConvexPolyhedron(pts.map((p) => vec3.scale(vec3.create(), p, s)));
  } catch {
    return null;
  }
}

function vertices(shape: ConvexShape, pose: Isometry): Vec3[] {
  if (shape.type !== 5) throw new Error("hull expected");
  const v = shape.vertices;
  const out: Vec3[] = [];
  for (let i = 0; i < v.length; i += 3)
    out.push(iso.transformPoint(vec3.create(), pose, v3([v[i], v[i + 1], v[i + 2]])));
  return out;
}

describe("random hulls against the polytope oracles", () => {
  it("distance (brute force) and depth (SAT) and the normal attains the depth", () => {
    fc.assert(
      fc.property(
        hullPoints,
        hullPoints,
        vec(-1.5, 1.5),
        unitQuat,
        fc.constantFrom(1e-3, 1, 1e3),
        (pa, pb, t, q, s) => {
          const a = hullOrNull(pa, s);
          const b = hullOrNull(pb, s);
          fc.pre(a !== null && b !== null);
          if (!a || !b) return;
          const bInA = iso.create(vec3.scale(vec3.create(), t, s), q);
          const va = vertices(a, iso.identity());
          const vb = vertices(b, bInA);
          const sat = satOverlap(va, vb);
          expect(contactConvexConvex(c, a, b, bInA, Infinity)).toBe(true);
          expect(Math.abs(vec3.length(c.normal) - 1)).toBeLessThan(1e-12);
          if (sat.depth < 0) {
            const dist = polytopeDistance(va, vb);
            expect(Math.abs(c.distance - dist)).toBeLessThanOrEqual(1e-9 * Math.max(dist, s));
          } else {
            expect(Math.abs(-c.distance - sat.depth)).toBeLessThanOrEqual(1e-6 * s);
            const n = c.normal;
            const m = vec3.negate(vec3.create(), n);
            const over =
              Math.max(...va.map((p) => vec3.dot(p, n))) +
              Math.max(...vb.map((p) => vec3.dot(p, m)));
            expect(Math.abs(over + c.distance)).toBeLessThanOrEqual(1e-6 * s);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** Support value of a posed shape along d, by the shapes' own full support functions. */
function h(shape: ConvexShape, pose: Isometry, dir: Vec3): number {
  const local = iso.inverseTransformVector(vec3.create(), pose, dir);
  const p = supportShape(vec3.create(), shape, local);
  iso.transformPoint(p, pose, p);
  return vec3.dot(p, dir);
}

/** Overlap of A (identity) and B (bInA) along unit d: h_A(d) + h_B(−d). */
function overlap(a: ConvexShape, b: ConvexShape, bInA: Isometry, n: Vec3): number {
  return h(a, iso.identity(), n) + h(b, bInA, vec3.negate(vec3.create(), n));
}

/**
 * Penetration depth by dense sampling of directions plus a shrinking local search, started from
 * each of the few best samples: on a ridge of the overlap function (a cone's apex–rim switch
 * against a box's edge) a search from the single best sample can stall 2% above the minimum
 * (FC_SEED=4, 7, 11, 14, 15, 16), where EPA's normal is already better.
 */
function sampledDepth(a: ConvexShape, b: ConvexShape, bInA: Isometry): number {
  const n = 1500;
  const starts = 6;
  const topO: number[] = [];
  const topN: Vec3[] = [];
  for (let i = -6; i < n; i++) {
    const y = 1 - (2 * (i + 0.5)) / n;
    const r = Math.sqrt(1 - y * y);
    const t = Math.PI * (3 - Math.sqrt(5)) * i;
    // The six axis directions first (the poles are a cone's and a cylinder's face normals).
    const dir = i < 0 ? v3([0, 0, 0]) : v3([Math.cos(t) * r, y, Math.sin(t) * r]);
    if (i < 0) vec3.setAxis(dir, (i + 6) % 3, i < -3 ? 1 : -1);
    const o = overlap(a, b, bInA, dir);
    let k = topO.length;
    while (k > 0 && topO[k - 1] > o) k--;
    if (k < starts) {
      topO.splice(k, 0, o);
      topN.splice(k, 0, dir);
      if (topO.length > starts) {
        topO.pop();
        topN.pop();
      }
    }
  }
  let best = Infinity;
  for (let s = 0; s < topO.length; s++)
    best = Math.min(best, localSearch(a, b, bInA, topN[s], topO[s]));
  return best;
}

/** Shrinking-step descent of the overlap over unit directions from `start` (overlap `o0`). */
function localSearch(
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  start: Vec3,
  o0: number,
): number {
  let best = o0;
  let bestN = start;
  let step = 0.05;
  const u = vec3.create();
  const w = vec3.create();
  for (let it = 0; it < 200 && step > 1e-9; it++) {
    vec3.orthonormalBasis(u, w, bestN);
    let improved = false;
    // Eight tangent probes (axes and diagonals) so that ridges of the overlap function, where
    // a support jumps (a cone's apex to its rim), do not stall the search.
    for (let k = 0; k < 8; k++) {
      const ang = (k * Math.PI) / 4;
      const cand = vec3.addScaled(vec3.create(), bestN, u, Math.cos(ang) * step);
      vec3.addScaled(cand, cand, w, Math.sin(ang) * step);
      vec3.normalize(cand, cand);
      const o = overlap(a, b, bInA, cand);
      if (o < best) {
        best = o;
        bestN = cand;
        improved = true;
      }
    }
    if (!improved) step *= 0.5;
  }
  return best;
}

const curved = fc.oneof(
  fc
    .tuple(
      fc.double({ min: 0.2, max: 1, noNaN: true }),
      fc.double({ min: 0.2, max: 1, noNaN: true }),
    )
    .map(([hh, r]) => makeCylinder(hh, r) as ConvexShape),
  fc
    .tuple(
      fc.double({ min: 0.2, max: 1, noNaN: true }),
      fc.double({ min: 0.2, max: 1, noNaN: true }),
    )
    .map(([hh, r]) => makeCone(hh, r) as ConvexShape),
  vec(0.2, 1).map((hh) => makeCuboid(hh) as ConvexShape),
  fc
    .tuple(vec(-0.5, 0.5), fc.double({ min: 0.1, max: 0.6, noNaN: true }))
    .map(([p, r]) => makeCapsule(p, vec3.negate(vec3.create(), p), r) as ConvexShape),
);

describe("curved shapes against dense sampling of the support functions", () => {
  it("depth agrees with the sampled minimum overlap and the normal attains it", () => {
    let deep = 0;
    fc.assert(
      fc.property(curved, curved, vec(-0.8, 0.8), unitQuat, (a, b, t, q) => {
        const bInA = iso.create(t, q);
        expect(contactConvexConvex(c, a, b, bInA, Infinity)).toBe(true);
        expect(Math.abs(vec3.length(c.normal) - 1)).toBeLessThan(1e-12);
        if (c.distance >= 0) return;
        deep++;
        const depth = -c.distance;
        const along = overlap(a, b, bInA, c.normal);
        // EPA_TOLERANCE is 1e-4 relative: the normal's overlap brackets the true depth.
        expect(along).toBeGreaterThanOrEqual(depth - 1e-9);
        expect(along - depth).toBeLessThanOrEqual(2e-4 * depth + 1e-9);
        const sampled = sampledDepth(a, b, bInA);
        // EPA converged: a lower bound. EPA at its cap: the fallback's upper bound (refined
        // sampling, ~EPA_TOLERANCE accurate).
        expect(depth).toBeLessThanOrEqual(sampled * (1 + 5e-4) + 1e-9);
        // Closeness is only as good as the sampling: on a ridge of the overlap function (a
        // cone's apex–rim switch) the local search can stall ~1% above the minimum.
        // The minimum often lies ON such a ridge (a cone's lateral normal, where apex and rim
        // support alike), and the stall scales with the shapes' size, not the depth: FC_SEED=7,
        // a sphere of radius 0.24 against a cone's side, has the analytic depth 0.0030308879
        // (radius minus the distance to the lateral segment); EPA matches it, the sampler stops
        // 1.1e-4 above. The bracket `along` above already bounds the true depth from above.
        expect(sampled - depth).toBeLessThanOrEqual(2e-2 * depth + 2e-4);
      }),
      { numRuns: 60 },
    );
    expect(deep).toBeGreaterThan(20);
  });
});

// ---------------------------------------------------------------------------------------------
// Adversarial sweep: every shape type, touching, nested, coplanar, near-parallel, duplicates,
// 1e6 translations, scales 1e-3..1e3. Checks finiteness, unit normals and consistency.

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomShape(r: () => number, s: number): ConvexShape {
  const k = Math.floor(r() * 8);
  const len = () => s * (0.05 + r());
  const p = () => v3([s * (r() - 0.5), s * (r() - 0.5), s * (r() - 0.5)]);
  switch (k) {
    case 0:
      return makeSphere(len());
    case 1:
      return makeCuboid(v3([len(), r() < 0.2 ? 0 : len(), len()]));
    case 2: {
      const a = p();
      return makeCapsule(a, r() < 0.3 ? a : p(), len());
    }
    case 3:
      return makeCylinder(len(), len());
    case 4:
      return makeCone(len(), len());
    case 5:
    case 6: {
      const pts: Vec3[] = [];
      const n = 4 + Math.floor(r() * 12);
      for (let i = 0; i < n; i++) pts.push(p());
      pts.push(vec3.clone(pts[0]), vec3.clone(pts[1]));
      try {
        return makeConvexPolyhedron(pts);
      } catch {
        return makeCuboid(v3([len(), len(), len()]));
      }
    }
    default: {
      const a = p();
      const mode = r();
      return makeTriangle(
        a,
        mode < 0.2 ? a : p(),
        mode < 0.4 ? vec3.scale(vec3.create(), a, 2) : p(),
      );
    }
  }
}

function randomPose(r: () => number, s: number): Isometry {
  const mode = r();
  const t = v3([s * 2 * (r() - 0.5), s * 2 * (r() - 0.5), s * 2 * (r() - 0.5)]);
  if (mode < 0.15) vec3.set(t, 0, 0, 0);
  else if (mode < 0.3) vec3.set(t, Math.round(t.x / s) * s, 0, 0);
  let q = { x: r() - 0.5, y: r() - 0.5, z: r() - 0.5, w: r() - 0.5 };
  if (r() < 0.4) q = { x: 0, y: 0, z: 0, w: 1 };
  else if (r() < 0.2) q = { x: 0, y: 0, z: 1e-9, w: 1 };
  const l = Math.hypot(q.x, q.y, q.z, q.w);
  return iso.create(t, { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l });
}

function sweep(count: number, seed: number): number {
  const r = rng(seed);
  let contacts = 0;
  for (let i = 0; i < count; i++) {
    const s = [1e-3, 1, 1, 1e3][Math.floor(r() * 4)];
    const a = randomShape(r, s);
    const b = randomShape(r, s);
    const far = r() < 0.1 ? 1e6 : 0;
    const pa = randomPose(r, s);
    const pb = randomPose(r, s);
    pa.translation.x += far;
    pb.translation.x += far;
    const bInA = iso.invMul(iso.identity(), pa, pb);
    const hit = contactConvexConvex(c, a, b, bInA, Infinity);
    if (!hit || !Number.isFinite(c.distance) || !vec3.isFiniteVec(c.normal)) {
      throw new Error(`pair ${i} (seed ${seed}): no finite contact`);
    }
    if (Math.abs(vec3.length(c.normal) - 1) > 1e-9)
      throw new Error(`pair ${i} (seed ${seed}): normal not unit`);
    if (!vec3.isFiniteVec(c.pointA) || !vec3.isFiniteVec(c.pointB))
      throw new Error(`pair ${i}: NaN point`);
    distanceConvexConvex(d, a, b, bInA);
    if (!(d.distance >= 0) || Math.abs(d.distance - Math.max(0, c.distance)) > 1e-9 * s) {
      throw new Error(`pair ${i} (seed ${seed}): distance ${d.distance} vs contact ${c.distance}`);
    }
    const inter = intersectsConvexConvex(a, b, bInA);
    if (inter !== c.distance <= 0 && Math.abs(c.distance) > 1e-9 * s) {
      throw new Error(`pair ${i} (seed ${seed}): intersects ${inter} vs distance ${c.distance}`);
    }
    if (c.distance < 0) contacts++;
  }
  return contacts;
}

describe("adversarial sweep", () => {
  it("3,000 random pairs of every type: finite, unit normals, consistent queries", () => {
    const contacts = sweep(3000, 20240611);
    expect(contacts).toBeGreaterThan(300);
  });

  // ~40 s on an idle core; a loaded CI machine (load 14) took 160–190 s: the bound is for a hang.
  it("10^5 random adversarial pairs: finite, unit normals, no endless loop", {
    timeout: 600_000,
  }, () => {
    expect(sweep(100_000, 987654321)).toBeGreaterThan(10_000);
  });

  it("prediction: false beyond it, true within it", () => {
    const box = makeCuboid({ x: 1, y: 1, z: 1 });
    const pose = iso.create(v3([2.5, 0, 0]));
    expect(contactConvexConvex(c, box, box, pose, 0.4)).toBe(false);
    expect(contactConvexConvex(c, box, box, pose, 0.5)).toBe(true);
    expect(c.distance).toBeCloseTo(0.5, 12);
    expect(contactConvexConvex(c, box, box, iso.create(v3([2, 0, 0])), 0)).toBe(true);
    expect(c.distance).toBe(0);
    expect(intersectsConvexConvex(box, box, iso.create(v3([2, 0, 0])))).toBe(true);
    expect(intersectsConvexConvex(box, box, iso.create(v3([2 + 1e-9, 0, 0])))).toBe(false);
  });

  it("a sphere centre exactly on a box face: depth = radius along the face normal", () => {
    const box = makeCuboid({ x: 1, y: 1, z: 1 });
    expect(contactConvexConvex(c, box, makeSphere(0.3), iso.create(v3([0.2, 1, -0.4])), 0)).toBe(
      true,
    );
    expect(c.distance).toBeCloseTo(-0.3, 12);
    expect(vec3.distance(c.normal, { x: 0, y: 1, z: 0 })).toBeLessThan(1e-12);
  });
});
