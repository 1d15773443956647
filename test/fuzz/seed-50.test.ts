/**
 * Regression of issue 16 from the fuzzer at 10^6 queries, seed 50, main ffae88e: two polytopes
 * whose EPA answer is off by the rounding of the larger one's size. (1) A box of 2e-6 beside the
 * edge of a box of 2368, its corner 2.6e-10 below the large box's face and 3.6e-9 inside the
 * slab of the next face: GJK called the pair touching at its rounding level, EPA's closest face
 * (a sliver where the small box's edge meets the large one's) was 3.6e-9 deep, and the distance
 * op, told "apart" by the intersects test, answered |pB − pA| = 3.65e-9. (2) A small aabb, box
 * or hull (5e-5..1e-3) shallow in a hull of 1..60, some far from the origin: EPA converged on a
 * face 3.5e-13..2.6e-11 deeper than the least overlap. Fixed in
 * src/narrowphase/convex-convex.ts: a polytope depth below POLYTOPE_SAT_BAND (1e-6) of the
 * support points' size is checked by SAT (exact for two polytopes), and a lesser SAT overlap
 * places its witnesses along its own axis. The recorded scenarios are replayed through the
 * fuzzer's checks; the box–box gap is checked against a brute force over the boxes' corners and
 * edges; fast-check properties generate each class at sizes 1e-6..1e6, ratios to 1e9 and
 * offsets to 1e9.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { rotateVec } from "../support/quat.js";
import { offsetScenario } from "./generate.js";
import { expectReplayPasses, loadCases, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;
type V = [number, number, number];

const EPS = 2 ** -52;

/** v rotated by the unit quaternion [x, y, z, w] (normalised here). */
function rotate(q: readonly number[], v: V): V {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return rotateVec(
    q.map((c) => c / n),
    v,
  );
}

function sub(a: V, b: V): V {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function dot(a: V, b: V): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function clamp01(t: number): number {
  return Math.min(Math.max(t, 0), 1);
}

/** Distance of segments [p1, q1] and [p2, q2] (Ericson 2005, §5.1.9), by clamped parameters. */
function segmentDistance(p1: V, q1: V, p2: V, q2: V): number {
  const d1 = sub(q1, p1);
  const d2 = sub(q2, p2);
  const r = sub(p1, p2);
  const a = dot(d1, d1);
  const e = dot(d2, d2);
  const f = dot(d2, r);
  const c = dot(d1, r);
  const b = dot(d1, d2);
  const den = a * e - b * b;
  let s = den > 0 ? clamp01((b * f - c * e) / den) : 0;
  let t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = clamp01(-c / a);
  } else if (t > 1) {
    t = 1;
    s = clamp01((b - c) / a);
  }
  const x = sub(
    [p1[0] + d1[0] * s, p1[1] + d1[1] * s, p1[2] + d1[2] * s],
    [p2[0] + d2[0] * t, p2[1] + d2[1] * t, p2[2] + d2[2] * t],
  );
  return Math.sqrt(dot(x, x));
}

/**
 * Gap of two boxes that are apart (the oracle; overlap is not detected): A axis-aligned with half
 * extents `ha` at the origin, B at `c` rotated by `q` with half extents `hb`. The closest points
 * of two convex polytopes apart are a corner of one and its nearest point on the other, or a
 * point of an edge of each: the least of B's corners clamped to A, A's corners clamped to B in
 * B's frame, and every edge pair. Computed in a frame at A's corner nearest B (exact shifts),
 * so B's corners are at B's own magnitude there.
 */
function boxBoxGap(ha: V, c: V, q: readonly number[], hb: V): number {
  const o: V = [c[0] < 0 ? -ha[0] : ha[0], c[1] < 0 ? -ha[1] : ha[1], c[2] < 0 ? -ha[2] : ha[2]];
  const cc = sub(c, o);
  const signs: V[] = [];
  for (const x of [-1, 1]) for (const y of [-1, 1]) for (const z of [-1, 1]) signs.push([x, y, z]);
  const cornersA = signs.map((s) => sub([s[0] * ha[0], s[1] * ha[1], s[2] * ha[2]], o));
  const lo = sub([-ha[0], -ha[1], -ha[2]], o);
  const hi = sub(ha, o);
  const cornersB = signs.map((s) => {
    const r = rotate(q, [s[0] * hb[0], s[1] * hb[1], s[2] * hb[2]]);
    return [cc[0] + r[0], cc[1] + r[1], cc[2] + r[2]] as V;
  });
  const qInv = [-q[0], -q[1], -q[2], q[3]];
  let best = Number.POSITIVE_INFINITY;
  for (const p of cornersB) {
    let s = 0;
    for (let i = 0; i < 3; i++) {
      const e = Math.max(lo[i] - p[i], p[i] - hi[i], 0);
      s += e * e;
    }
    best = Math.min(best, Math.sqrt(s));
  }
  for (const p of cornersA) {
    const l = rotate(qInv, sub(p, cc));
    let s = 0;
    for (let i = 0; i < 3; i++) {
      const e = Math.max(Math.abs(l[i]) - hb[i], 0);
      s += e * e;
    }
    best = Math.min(best, Math.sqrt(s));
  }
  // Edges: corners differing in one sign (index bit).
  const edges: [number, number][] = [];
  for (let i = 0; i < 8; i++) for (const bit of [1, 2, 4]) if (!(i & bit)) edges.push([i, i | bit]);
  for (const [i, j] of edges)
    for (const [k, l] of edges)
      best = Math.min(best, segmentDistance(cornersA[i], cornersA[j], cornersB[k], cornersB[l]));
  return best;
}

function unitQuat(q: number[]): number[] {
  const n = Math.hypot(...q);
  return q.map((c) => c / n);
}

function parse(line: unknown): J {
  let l = line;
  while (typeof l === "string") l = JSON.parse(l);
  return l as J;
}

describe("polytope depths and gaps below EPA's rounding of the larger size (seed 50)", () => {
  const cases = loadCases("./seed-50.cases.json");
  replayCases(cases, 5);

  it("box–box gap of the recorded case: the brute force's 1.617e-10 to the distance bar", () => {
    const c = cases.find((x) => x.pair === "box-box");
    if (c === undefined) throw new Error("no box-box case");
    const wa = c.scenario.worldA as J;
    const wb = c.scenario.worldB as J;
    const ca = wa.center as V;
    const cb = wb.center as V;
    // World centres 4.9e7 from the origin, 2368 apart: their difference is exact (Sterbenz).
    const rel = sub(cb, ca);
    const want = boxBoxGap(wa.halfExtents as V, rel, wb.rotation as number[], wb.halfExtents as V);
    // (B's corner over A's −z face is 2.6e-10 below it; an edge of B passes nearer A's edge.)
    expect(want).toBeGreaterThan(1.6e-10);
    expect(want).toBeLessThan(1.63e-10);
    const got = parse(answerQuery(parse({ op: "distance", a: wa, b: wb })) as unknown) as {
      distance: number;
    };
    const L = Math.hypot(...rel) + Math.hypot(...(wb.halfExtents as V));
    expect(Math.abs(got.distance - want)).toBeLessThanOrEqual(64 * EPS * L + 1e-9 * 2e-6);
  });

  it("property: a small rotated box's corner just off a large box's face by its edge, sizes 1e-6..1e6, ratios to 1e9, offsets to 1e9", () => {
    const unit = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 4, max: 30 }),
        fc.tuple(unit, unit, unit, unit),
        fc.tuple(unit, unit, unit),
        fc.tuple(unit, unit, unit),
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 0, max: 36 }),
        fc.integer({ min: 0, max: 30 }),
        (e, ratio, qr, hr, ar, inside, gapExp, offExp) => {
          const L = 2 ** e;
          const s = L * 2 ** -ratio;
          const ha: V = [
            L * (0.75 + 0.25 * ar[0]),
            L * (0.75 + 0.25 * ar[1]),
            L * (0.75 + 0.25 * ar[2]),
          ];
          const hb: V = [s * (0.6 + 0.4 * hr[0]), s * (0.6 + 0.4 * hr[1]), s * (0.6 + 0.4 * hr[2])];
          const qn = Math.hypot(...qr) || 1;
          const q = qn > 1e-3 ? qr.map((x) => x / qn) : [0, 0, 0, 1];
          // Apart from A's edge x = −hx, z = −hz by g along u = −(cos φ, 0, sin φ) (φ near 0 or
          // π/2 at `inside`: B's corner over a face, just inside the next face's slab): B's
          // support point along −u put at the edge's point plus g·u. A lies in u·(p − e) ≤ 0 and
          // B in u·(p − e) ≥ g, so the distance is g.
          const phi = (Math.PI / 2) * (hr[0] < 0 ? 2 ** -inside : 1 - 2 ** -inside);
          const u: V = [-Math.cos(phi), 0, -Math.sin(phi)];
          let sup: V = [0, 0, 0];
          let best = Number.NEGATIVE_INFINITY;
          for (const x of [-1, 1])
            for (const y of [-1, 1])
              for (const z of [-1, 1]) {
                const r = rotate(q, [x * hb[0], y * hb[1], z * hb[2]]);
                const k = -dot(u, r);
                if (k > best) {
                  best = k;
                  sup = r;
                }
              }
          const g = s * 2 ** -gapExp;
          const c: V = [
            -ha[0] + g * u[0] - sup[0],
            0.3 * ha[1] - sup[1],
            -ha[2] + g * u[2] - sup[2],
          ];
          const a: J = { type: "box", center: [0, 0, 0], halfExtents: ha };
          const b: J = { type: "box", center: c, halfExtents: hb, rotation: q };
          const o = [2 ** offExp, -(2 ** offExp) * 0.75, 2 ** (offExp / 2)];
          const sc = offsetScenario(a, b, o);
          expectReplayPasses(sc, "box-box", { ops: ["distance", "contact"] });
          const la = sc.localA as J;
          const lb = sc.localB as J;
          const rel = sub(lb.center as V, la.center as V);
          // The centre as snapped to the offset's grid (a tiny B far out moves by its ulp): the
          // gap as it is now; a snap that put B across the plane is no case of the class.
          const gNow = u[0] * (rel[0] + sup[0] + ha[0]) + u[2] * (rel[2] + sup[2] + ha[2]);
          if (!(gNow > 8 * EPS * s)) return;
          const want = boxBoxGap(ha, rel, q, hb);
          const got = parse(
            answerQuery({ op: "distance", a: sc.worldA, b: sc.worldB }) as unknown,
          ) as { distance: number };
          const bar = 1e-9 * Math.max(want, s) + 64 * EPS * (Math.hypot(...rel) + s);
          // The oracle's own rounding: its shifted corners are within ε of B's magnitude (and
          // the centre's rounding at A's, which the scenario's snapped centre carries).
          expect(Math.abs(got.distance - want)).toBeLessThanOrEqual(bar + 8 * EPS * (s + gNow));
          // The brute force against the construction: the gap g where the snap left B in place,
          // at least the gap along u where it moved B (sideways, over a face).
          const moved = rel[0] !== c[0] || rel[2] !== c[2];
          if (!moved) expect(Math.abs(want - gNow)).toBeLessThanOrEqual(64 * EPS * (L + s));
          expect(want).toBeGreaterThanOrEqual(gNow - 64 * EPS * (L + s));
        },
      ),
      { numRuns: 120, seed: 50 },
    );
  });

  it("property: a small aabb, box or hull shallow in a large hull, sizes 1e-6..1e6, ratios to 1e6, offsets to 1e9", () => {
    const unit = fc.integer({ min: -1024, max: 1024 }).map((i) => i / 1024);
    const point = fc.tuple(unit, unit, unit);
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 4, maxLength: 10 }),
        fc.array(point, { minLength: 4, maxLength: 8 }),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 4, max: 20 }),
        fc.tuple(unit, unit, unit),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        (big, small, e, ratio, dir, kind, depthExp, offExp) => {
          const L = 2 ** e;
          const s = L * 2 ** -ratio;
          const corners: number[][] = [];
          for (const x of [-1, 1])
            for (const y of [-1, 1])
              for (const z of [-1, 1]) if (x * y * z > 0) corners.push([x, y, z]);
          const a: J = {
            type: "convex",
            points: [...big, ...corners].map((p) => p.map((c) => c * L)),
          };
          // The small shape near the large hull's surface along `dir`: its centre on the surface
          // point of the tetrahedron-bounded hull found by bisection of the support, then moved
          // in by a depth of s·2^-depthExp (a shallow overlap, its corner crossing a face).
          const n = Math.hypot(...dir) || 1;
          const d: V = n > 1e-3 ? [dir[0] / n, dir[1] / n, dir[2] / n] : [0, 0, 1];
          const pts = (a.points as number[][]).map((p) => p[0] * d[0] + p[1] * d[1] + p[2] * d[2]);
          const h = Math.max(...pts);
          const t = h + s * 0.5 - s * 2 ** -depthExp;
          const at = [d[0] * t, d[1] * t, d[2] * t];
          let b: J;
          if (kind === 0) {
            b = {
              type: "aabb",
              min: at.map((x) => x - s * 0.5),
              max: at.map((x, i) => x + s * (0.3 + 0.2 * Math.abs(dir[i]))),
            };
          } else if (kind === 1) {
            b = {
              type: "box",
              center: at,
              halfExtents: [s * 0.5, s * 0.4, s * 0.3],
              rotation: unitQuat([0.2 * dir[0], 0.3, -0.4 * dir[1], 0.8]),
            };
          } else {
            b = {
              type: "convex",
              points: [...small, [1, 1, 1], [-1, -1, 1], [-1, 1, -1], [1, -1, -1]].map((p) =>
                p.map((c) => c * s * 0.5),
              ),
              position: at,
            };
          }
          const pair = kind === 0 ? "aabb-convex" : kind === 1 ? "box-convex" : "convex-convex";
          const o = [2 ** offExp, -(2 ** offExp), 0];
          const sc = kind === 2 ? offsetScenario(a, b, o) : offsetScenario(b, a, o);
          expectReplayPasses(sc, pair, { ops: ["contact", "distance"] });
        },
      ),
      { numRuns: 120, seed: 50 },
    );
  });
});
