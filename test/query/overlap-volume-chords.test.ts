/**
 * overlapVolume of two curved solids, or a rounded box with a curved solid or a polytope, partly
 * inside one another (issue 16: they had gone to the octree, 0.3–0.7 s a query at 1e-3), now by
 * chords across slices (src/query/overlap-volume-chords.ts). Oracles written here, independent
 * of the chords:
 *
 * - closed forms: two perpendicular cylinders whose axes cross (Steinmetz: 16r³/3); coaxial
 *   cylinders and a capsule in a wider cylinder cut across its straight part (a prism plus a
 *   half ball); a rounded box cut by a big box's face across its core (its cross-section
 *   (2h_y + 2r)(2h_z + 2r) − (4 − π)r² times the length, plus the far end: 4h_y h_z r +
 *   πr²(h_y + h_z) + 2πr³/3); a ball about a cone's apex (the spherical sector
 *   2πR³(1 − cos α)/3);
 * - Monte Carlo over the overlap of the world boxes with point-membership tests written here
 *   (10^6 points, the answer within errorBound + 6σ) for turned pairs of every kind;
 * - a fast-check property over random pairs, poses and scales 1e-6..1e6 at offsets to 1e9: the
 *   two argument orders' answers and the answer scaled by k³ agree within their bounds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import { makeRandom } from "../../src/math/random.js";
import { overlapVolume } from "../../src/query/overlap-volume.js";
import {
  makeCapsule,
  makeCone,
  makeCuboid,
  makeCylinder,
  makeRoundedCuboid,
  makeSphere,
  type Shape,
} from "../../src/shapes/index.js";
import { pose, quatOf } from "../support/pose.js";
import { rotateByQuat, unrotateByQuat, type V3 } from "../support/quat.js";

const S2 = Math.SQRT1_2;
/** A quarter turn about x: local y goes to world z. */
const QX: Quat = { x: S2, y: 0, z: 0, w: S2 };

/** Membership of a local point, by each solid's definition (written here). */
function insideLocal(s: Shape, p: V3): boolean {
  const [x, y, z] = p;
  switch (s.type) {
    case 0: // sphere
      return x * x + y * y + z * z <= s.radius * s.radius;
    case 1: {
      const h = s.halfExtents;
      return Math.abs(x) <= h.x && Math.abs(y) <= h.y && Math.abs(z) <= h.z;
    }
    case 2: {
      // capsule: distance to the segment ≤ r
      const a = s.a;
      const b = s.b;
      const d: V3 = [b.x - a.x, b.y - a.y, b.z - a.z];
      const q: V3 = [x - a.x, y - a.y, z - a.z];
      const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      const t =
        dd > 0 ? Math.max(0, Math.min(1, (q[0] * d[0] + q[1] * d[1] + q[2] * d[2]) / dd)) : 0;
      const e: V3 = [q[0] - t * d[0], q[1] - t * d[1], q[2] - t * d[2]];
      return e[0] * e[0] + e[1] * e[1] + e[2] * e[2] <= s.radius * s.radius;
    }
    case 3:
      return Math.abs(y) <= s.halfHeight && x * x + z * z <= s.radius * s.radius;
    case 4: {
      const h = s.halfHeight;
      if (y < -h || y > h) return false;
      const rho = (s.radius * (h - y)) / (2 * h);
      return x * x + z * z <= rho * rho;
    }
    case 10: {
      const h = s.core.halfExtents;
      const ex = Math.max(0, Math.abs(x) - h.x);
      const ey = Math.max(0, Math.abs(y) - h.y);
      const ez = Math.max(0, Math.abs(z) - h.z);
      return ex * ex + ey * ey + ez * ez <= s.radius * s.radius;
    }
    default:
      throw new Error(`no membership test for type ${s.type}`);
  }
}

function inside(s: Shape, ps: Isometry, p: V3): boolean {
  const t = ps.translation;
  return insideLocal(s, unrotateByQuat(ps.rotation, [p[0] - t.x, p[1] - t.y, p[2] - t.z]));
}

/** A box around the shape at its pose (its bounding sphere's: radius from its definition). */
function bounds(s: Shape, ps: Isometry): [V3, V3] {
  let r: number;
  switch (s.type) {
    case 0:
      r = s.radius;
      break;
    case 1:
      r = Math.hypot(s.halfExtents.x, s.halfExtents.y, s.halfExtents.z);
      break;
    case 2:
      r = Math.max(Math.hypot(s.a.x, s.a.y, s.a.z), Math.hypot(s.b.x, s.b.y, s.b.z)) + s.radius;
      break;
    case 3:
    case 4:
      r = Math.hypot(s.halfHeight, s.radius);
      break;
    default: {
      const h = s.type === 10 ? s.core.halfExtents : { x: 0, y: 0, z: 0 };
      r = Math.hypot(h.x, h.y, h.z) + (s.type === 10 ? s.radius : 0);
    }
  }
  const t = ps.translation;
  return [
    [t.x - r, t.y - r, t.z - r],
    [t.x + r, t.y + r, t.z + r],
  ];
}

/** Monte Carlo estimate of |A ∩ B| and its standard deviation (n uniform points, seeded). */
function monteCarlo(a: Shape, pa: Isometry, b: Shape, pb: Isometry, n: number, seed: number) {
  const [la, ha] = bounds(a, pa);
  const [lb, hb] = bounds(b, pb);
  const lo: V3 = [0, 1, 2].map((i) => Math.max(la[i], lb[i])) as V3;
  const hi: V3 = [0, 1, 2].map((i) => Math.min(ha[i], hb[i])) as V3;
  const box = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  const rnd = makeRandom(seed);
  let hits = 0;
  const p: V3 = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) p[k] = lo[k] + rnd() * (hi[k] - lo[k]);
    if (inside(a, pa, p) && inside(b, pb, p)) hits++;
  }
  const f = hits / n;
  return { volume: f * box, sigma: box * Math.sqrt(Math.max(f * (1 - f), 1 / n) / n) };
}

function timed(a: Shape, pa: Isometry, b: Shape, pb: Isometry) {
  const t0 = performance.now();
  const r = overlapVolume(a, pa, b, pb);
  return { ...r, ms: performance.now() - t0 };
}

describe("overlapVolume by chords: closed forms", () => {
  it("two perpendicular cylinders whose axes cross: the Steinmetz solid 16r³/3", () => {
    for (const r of [0.5, 1e-5, 3e4]) {
      const c = makeCylinder(2 * r, r);
      const exact = (16 / 3) * r * r * r;
      for (const [x, y, z] of [
        [0, 0, 0],
        [1e3 * r, -2e3 * r, 5e2 * r],
      ]) {
        const ans = overlapVolume(c, pose(x, y, z), c, pose(x, y, z, QX));
        expect(Math.abs(ans.volume - exact)).toBeLessThanOrEqual(ans.errorBound);
        expect(ans.errorBound).toBeLessThanOrEqual(1e-3 * exact);
      }
    }
  });

  it("coaxial cylinders, one shifted along the axis: πr²·(the shared length)", () => {
    const a = makeCylinder(1, 0.5);
    const b = makeCylinder(0.8, 0.7);
    const q = quatOf([0.3, -0.2, 0.5, 0.8]);
    // B's axis is A's (local y), moved 1.2 along it: they share y ∈ [0.4, 1].
    const ax = [
      2 * (q.x * q.y - q.w * q.z),
      1 - 2 * (q.x * q.x + q.z * q.z),
      2 * (q.y * q.z + q.w * q.x),
    ];
    const ans = overlapVolume(
      a,
      pose(0, 0, 0, q),
      b,
      pose(1.2 * ax[0], 1.2 * ax[1], 1.2 * ax[2], q),
    );
    const exact = Math.PI * 0.25 * 0.6;
    expect(Math.abs(ans.volume - exact)).toBeLessThanOrEqual(ans.errorBound);
    expect(ans.errorBound).toBeLessThanOrEqual(1e-3 * exact);
  });

  it("a capsule in a wider cylinder cut across its straight part: a prism and a half ball", () => {
    const r = 0.4;
    const half = 0.8;
    const cap = makeCapsule({ x: 0, y: -half, z: 0 }, { x: 0, y: half, z: 0 }, r);
    // The cylinder's top at y = c = 0.3, its bottom below the capsule's.
    const cyl = makeCylinder(1, 0.6);
    const c = 0.3;
    const exact = Math.PI * r * r * (c + half) + (2 / 3) * Math.PI * r * r * r;
    for (const [a, pa, b, pb] of [
      [cap, pose(0.05, 0, -0.1), cyl, pose(0, c - 1, 0)],
      [cyl, pose(0, c - 1, 0), cap, pose(0.05, 0, -0.1)],
    ] as [Shape, Isometry, Shape, Isometry][]) {
      const ans = overlapVolume(a, pa, b, pb);
      expect(Math.abs(ans.volume - exact)).toBeLessThanOrEqual(ans.errorBound);
      expect(ans.errorBound).toBeLessThanOrEqual(1e-3 * exact);
    }
  });

  it("a rounded box cut by a large box's face across its core", () => {
    const h: V3 = [0.5, 0.4, 0.3];
    const r = 0.2;
    const rb = makeRoundedCuboid({ x: h[0], y: h[1], z: h[2] }, r);
    const big = makeCuboid({ x: 5, y: 5, z: 5 });
    for (const c of [-0.3, 0.1, 0.45]) {
      // The big box keeps x ≥ c.
      const section = (2 * h[1] + 2 * r) * (2 * h[2] + 2 * r) - (4 - Math.PI) * r * r;
      const end =
        4 * h[1] * h[2] * r + Math.PI * r * r * (h[1] + h[2]) + (2 / 3) * Math.PI * r ** 3;
      const exact = section * (h[0] - c) + end;
      const q = quatOf([0.1, 0.7, -0.3, 0.6]);
      // Both turned by q about the rounded box's centre: the cut is the same.
      const n = rotateByQuat(q, [c + 5, 0, 0]);
      const ans = overlapVolume(rb, pose(0, 0, 0, q), big, pose(n[0], n[1], n[2], q));
      expect(Math.abs(ans.volume - exact)).toBeLessThanOrEqual(ans.errorBound);
      expect(ans.errorBound).toBeLessThanOrEqual(1e-3 * exact);
    }
  });

  it("a ball about a cone's apex: the spherical sector 2πR³(1 − cos α)/3", () => {
    const cone = makeCone(1, 0.8);
    const alpha = Math.atan(0.8 / 2);
    for (const R of [0.5, 1.5]) {
      const exact = ((2 * Math.PI) / 3) * R ** 3 * (1 - Math.cos(alpha));
      const q = quatOf([0.4, 0.1, 0.2, 0.9]);
      // The apex (local (0, 1, 0)) in the world.
      const apex = rotateByQuat(q, [0, 1, 0]);
      const ans = overlapVolume(
        makeSphere(R),
        pose(apex[0] + 3, apex[1], apex[2]),
        cone,
        pose(3, 0, 0, q),
      );
      expect(Math.abs(ans.volume - exact)).toBeLessThanOrEqual(ans.errorBound);
      expect(ans.errorBound).toBeLessThanOrEqual(1e-3 * exact);
    }
  });
});

const turn = quatOf([0.2, 0.3, 0.1, 0.92]);
const PAIRS: [string, Shape, Isometry, Shape, Isometry][] = [
  [
    "rounded box vs box",
    makeRoundedCuboid({ x: 0.5, y: 0.4, z: 0.3 }, 0.2),
    pose(),
    makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }),
    pose(0.6, 0.3, 0.2, turn),
  ],
  [
    "rounded box vs sphere",
    makeRoundedCuboid({ x: 0.5, y: 0.4, z: 0.3 }, 0.2),
    pose(),
    makeSphere(0.6),
    pose(0.7, 0.4, 0.3),
  ],
  [
    "cylinder vs cylinder, crossing axes",
    makeCylinder(1, 0.5),
    pose(),
    makeCylinder(1, 0.5),
    pose(0.1, 0, 0, QX),
  ],
  [
    "cone vs capsule",
    makeCone(1, 0.8),
    pose(),
    makeCapsule({ x: -1, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, 0.3),
    pose(0.1, -0.2, 0.1, turn),
  ],
  ["sphere vs cone, partly inside", makeSphere(0.5), pose(0.2, -0.3, 0.1), makeCone(1, 1), pose()],
  [
    "capsule vs cylinder",
    makeCapsule({ x: 0, y: -0.8, z: 0 }, { x: 0, y: 0.8, z: 0 }, 0.4),
    pose(0.5, 0.1, 0, turn),
    makeCylinder(0.7, 0.6),
    pose(),
  ],
  [
    "rounded box vs cone",
    makeRoundedCuboid({ x: 0.3, y: 0.6, z: 0.2 }, 0.15),
    pose(0.3, 0.2, -0.1, quatOf([0.5, 0.1, 0.3, 0.8])),
    makeCone(0.9, 1.1),
    pose(),
  ],
];

describe("overlapVolume by chords: Monte Carlo", () => {
  for (const [name, a, pa, b, pb] of PAIRS) {
    it(`${name}: within errorBound + 6σ of 10^6 points, errorBound ≤ 1e-3, in milliseconds`, () => {
      const ans = timed(a, pa, b, pb);
      const mc = monteCarlo(a, pa, b, pb, 1_000_000, 41);
      expect(Math.abs(ans.volume - mc.volume)).toBeLessThanOrEqual(ans.errorBound + 6 * mc.sigma);
      expect(ans.errorBound).toBeLessThanOrEqual(1e-3 * ans.volume);
      // Swapped: the same solid, within both bounds.
      const sw = overlapVolume(b, pb, a, pa);
      expect(Math.abs(sw.volume - ans.volume)).toBeLessThanOrEqual(sw.errorBound + ans.errorBound);
      // The octree had taken 0.3–0.7 s at this tolerance; a generous bar for a loaded machine.
      expect(ans.ms).toBeLessThan(2000);
    });
  }
});

describe("overlapVolume by chords: property", () => {
  it("random curved pairs: swapped and scaled answers agree within their bounds", () => {
    const shapeAt = (k: number, s: number[]): Shape => {
      const [p, q] = [0.3 + s[0], 0.3 + s[1]];
      switch (k) {
        case 0:
          return makeSphere(p);
        case 1:
          return makeCylinder(p, q);
        case 2:
          return makeCone(p, q);
        case 3:
          return makeCapsule({ x: -p, y: 0.1, z: 0 }, { x: p, y: -0.1, z: 0.2 }, q);
        default:
          return makeRoundedCuboid({ x: p, y: q, z: 0.5 * p }, 0.3 * q);
      }
    };
    const scaled = (s: Shape, k: number): Shape => {
      switch (s.type) {
        case 0:
          return makeSphere(s.radius * k);
        case 3:
          return makeCylinder(s.halfHeight * k, s.radius * k);
        case 4:
          return makeCone(s.halfHeight * k, s.radius * k);
        case 2:
          return makeCapsule(
            { x: s.a.x * k, y: s.a.y * k, z: s.a.z * k },
            { x: s.b.x * k, y: s.b.y * k, z: s.b.z * k },
            s.radius * k,
          );
        case 10: {
          const h = s.core.halfExtents;
          return makeRoundedCuboid({ x: h.x * k, y: h.y * k, z: h.z * k }, s.radius * k);
        }
        default:
          throw new Error("unexpected");
      }
    };
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.array(unit, { minLength: 4, maxLength: 4 }),
        fc.array(fc.double({ min: -0.8, max: 0.8, noNaN: true }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 8, maxLength: 8 }),
        fc.constantFrom(1e-6, 1, 1e6),
        fc.constantFrom(0, 1e3, 1e9),
        (ka, kb, sz, off, qs, k, far) => {
          const a = shapeAt(ka, sz.slice(0, 2));
          const b = shapeAt(kb, sz.slice(2, 4));
          const qa = quatOf([qs[0], qs[1], qs[2], qs[3]]);
          const qb = quatOf([qs[4], qs[5], qs[6], qs[7]]);
          const pa = pose(far, -far, 0, qa);
          const pb = pose(far + off[0], -far + off[1], off[2], qb);
          const r1 = overlapVolume(a, pa, b, pb);
          const r2 = overlapVolume(b, pb, a, pa);
          expect(Math.abs(r1.volume - r2.volume)).toBeLessThanOrEqual(
            r1.errorBound + r2.errorBound,
          );
          expect(r1.errorBound).toBeLessThanOrEqual(1e-3 * r1.volume + 1e-9);
          const big = (x: Isometry): Isometry =>
            pose(x.translation.x * k, x.translation.y * k, x.translation.z * k, x.rotation);
          const r3 = overlapVolume(scaled(a, k), big(pa), scaled(b, k), big(pb));
          const k3 = k * k * k;
          expect(Math.abs(r3.volume - k3 * r1.volume)).toBeLessThanOrEqual(
            r3.errorBound + k3 * r1.errorBound + 1e-12 * k3,
          );
        },
      ),
      { numRuns: 40, seed: 41 },
    );
  });

  it("random turned pairs against Monte Carlo (10^5 points, 6σ)", () => {
    const rnd = makeRandom(4141);
    const kinds = [
      () => makeSphere(0.4 + 0.4 * rnd()),
      () => makeCylinder(0.3 + 0.6 * rnd(), 0.3 + 0.5 * rnd()),
      () => makeCone(0.3 + 0.6 * rnd(), 0.3 + 0.8 * rnd()),
      () => makeCapsule({ x: 0, y: -0.5, z: 0.1 }, { x: 0.2, y: 0.5, z: 0 }, 0.2 + 0.3 * rnd()),
      () => makeRoundedCuboid({ x: 0.4 * rnd(), y: 0.5, z: 0.3 }, 0.1 + 0.2 * rnd()),
      () => makeCuboid({ x: 0.3 + 0.4 * rnd(), y: 0.4, z: 0.6 }),
    ];
    for (let i = 0; i < 24; i++) {
      const ka = Math.floor(rnd() * 5);
      const kb = Math.floor(rnd() * 6);
      const a = kinds[ka]();
      const b = kinds[kb]();
      const q = () => quatOf([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5]);
      const pa = pose(0, 0, 0, q());
      const pb = pose(0.6 * (rnd() - 0.5), 0.6 * (rnd() - 0.5), 0.6 * (rnd() - 0.5), q());
      const ans = overlapVolume(a, pa, b, pb);
      const mc = monteCarlo(a, pa, b, pb, 100_000, i + 1);
      expect(Math.abs(ans.volume - mc.volume)).toBeLessThanOrEqual(ans.errorBound + 6 * mc.sigma);
    }
  });
});
