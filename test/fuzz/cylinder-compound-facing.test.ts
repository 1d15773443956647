/**
 * Issue 16, the repository fuzzer's seed 79 (10^6 queries on the session-33 merge, its only 2
 * wrong, the open lines cylinder-compound-facing.jsonl): a cylinder of radius 1.1e3 turned in a
 * compound (the compound and its child both turned, the child 1.7e3 from the compound's origin)
 * against a cylinder of 1.6e-3 whose top rim crosses the big one's bottom rim 2.3e-6 deep —
 * `contact`'s and `manifold`'s witnesses 3.44e-11 off facing along the normal, over a bar of
 * 2.94e-11 (distance, normal and depth right).
 *
 * The compound did not matter: the same pair bare, the child's pose composed, faced to 2.15e-11,
 * under the bar by luck. The cause was the rims' critical point (`rimPairMinimum`,
 * src/narrowphase/convex-convex.ts) rejected for an overlap 1.1e-13 above the refinement's — half
 * an ulp of the big rim's coordinates, 1.8e3 from the small cylinder's origin where the pair is
 * solved. The refinement stops where the overlap's change falls below that rounding, its normal
 * ~1e-8 rad off, and the big rim's support point slides that far times 1.1e3: its witnesses lay
 * 1.1e-5 apart sideways, and the facing projections (`faceWitnesses`) could face them only by
 * moving the small cylinder's witness 1.4e-10 down its side off the rim, the point's exact
 * projection then losing 3.4e-11 along the normal. Now the critical point is taken when tied with
 * the refinement within 4 ulps of the rim points' magnitude and its witnesses face better.
 *
 * Oracles: the rims' critical point solved here (Newton's method on the two azimuths of
 * |p_A − p_B|², the rims built from the JSON poses by test/support/quat.ts), the least overlap of
 * the bare pair (test/oracles/revolution-depth.ts), and the fuzzer's checks (replayed scenarios,
 * the facing bar on). The properties draw the class (test/fuzz/cylinder-crossing.gen.ts):
 * cylinders and cones of 1e-3..1e4 whose rims cross (sizes 1e3..1e7 apart), and a rim against
 * any feature of a cylinder or cone (rim, cap, side generator), touching or 1e-14..1e-5 deep,
 * bare or a compound's turned child, offsets to 1e9.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { leastOverlap, oracleShape } from "../oracles/revolution-depth.js";
import { childInWorld } from "../support/compound.js";
import { rotateVec } from "../support/quat.js";
import { cylinderCrossingArb } from "./cylinder-crossing.gen.js";
import { expectReplayPasses, loadCases, replayCases } from "./recorded-cases.js";

type V = [number, number, number];
type J = Record<string, unknown>;

const CASES = loadCases("./cylinder-compound-facing.cases.json");
const EPS = 2 ** -52;
const OPS = ["intersects", "distance", "contact", "manifold"];

const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: V) => Math.sqrt(dot(a, a));

/** A rim circle: centre, unit in-plane axes x and z, radius (relative to the reference point). */
interface Rim {
  c: V;
  x: V;
  z: V;
  r: number;
}

/** The rim of cylinder `j` at its local y = end·halfHeight, relative to `ref`. */
function rimOf(j: J, end: number, ref: V): Rim {
  const q = j.rotation as number[];
  const c = j.center as V;
  const e = rotateVec(q, [0, end * (j.halfHeight as number), 0]);
  return {
    c: sub(add(c, e), ref),
    x: rotateVec(q, [1, 0, 0]),
    z: rotateVec(q, [0, 0, 1]),
    r: j.radius as number,
  };
}

const at = (k: Rim, phi: number): V =>
  add(k.c, add(scale(k.x, k.r * Math.cos(phi)), scale(k.z, k.r * Math.sin(phi))));
const tangent = (k: Rim, phi: number): V =>
  add(scale(k.x, -k.r * Math.sin(phi)), scale(k.z, k.r * Math.cos(phi)));
const azimuth = (k: Rim, p: V): number => {
  const d = sub(p, k.c);
  return Math.atan2(dot(d, k.z), dot(d, k.x));
};

/** Distance of p (relative to the reference point) from rim k. */
function fromRim(k: Rim, p: V): number {
  const d = sub(p, k.c);
  const u = dot(d, k.x);
  const v = dot(d, k.z);
  const y = norm(sub(d, add(scale(k.x, u), scale(k.z, v))));
  return Math.hypot(Math.hypot(u, v) - k.r, y);
}

/**
 * The critical point of |p_A(φ_A) − p_B(φ_B)|² nearest the given azimuths: Newton's method on its
 * gradient (w·t_A, −w·t_B) with its Hessian, 60 steps at most.
 */
function rimCritical(a: Rim, b: Rim, phiA: number, phiB: number): { pA: V; pB: V } {
  let s = phiA;
  let t = phiB;
  for (let i = 0; i < 60; i++) {
    const w = sub(at(a, s), at(b, t));
    const ta = tangent(a, s);
    const tb = tangent(b, t);
    const aa = sub(a.c, at(a, s));
    const ab = sub(b.c, at(b, t));
    const g1 = dot(w, ta);
    const g2 = -dot(w, tb);
    const h11 = dot(ta, ta) + dot(w, aa);
    const h22 = dot(tb, tb) - dot(w, ab);
    const h12 = -dot(ta, tb);
    const det = h11 * h22 - h12 * h12;
    const ds = (h12 * g2 - h22 * g1) / det;
    const dt = (h12 * g1 - h11 * g2) / det;
    s += ds;
    t += dt;
    if (Math.abs(ds) < 1e-17 && Math.abs(dt) < 1e-17) break;
  }
  return { pA: at(a, s), pB: at(b, t) };
}

describe("issue 16, seed 79: a compound's cylinder of 1.1e3 whose rim a cylinder of 1.6e-3 crosses", () => {
  replayCases(CASES, 2, { facing: true });

  it("answers the rims' critical point: depth, normal, witnesses on the rims facing across it", () => {
    const line = CASES[0].scenario;
    const A = childInWorld(line.worldA);
    const B = line.worldB;
    const ref = B.center as V;
    // The big cylinder's bottom rim and the small one's top (B's centre 3.4e-3 below A's bottom
    // cap's plane, 1.8e-4 outside its side; the small cylinder tilted up toward it).
    const rimA = rimOf(A, -1, ref);
    const rimB = rimOf(B, 1, ref);
    // Started from A's rim point nearest B's centre (the reference point) and B's nearest to it.
    const phiA = azimuth(rimA, [0, 0, 0]);
    const { pA, pB } = rimCritical(rimA, rimB, phiA, azimuth(rimB, at(rimA, phiA)));
    const depth = norm(sub(pA, pB));
    const nStar = scale(sub(pA, pB), 1 / depth);
    expect(depth).toBeGreaterThan(2.28e-6);
    expect(depth).toBeLessThan(2.3e-6);
    // The least overlap of the bare pair agrees (an upper bound of the depth, to rounding).
    const least = leastOverlap(oracleShape(A), oracleShape(B), [nStar]);
    const L = 1800;
    const tol = 64 * EPS * L;
    expect(Math.abs(least.depth - depth)).toBeLessThan(tol);
    for (const op of ["contact", "manifold"]) {
      const r = answerQuery({ op, a: line.worldA, b: line.worldB }) as {
        distance?: number;
        normal: V;
        pointA?: V;
        pointB?: V;
        points?: { pointA: V; pointB: V; distance: number }[];
      };
      const p = r.points ? r.points[0] : (r as { pointA: V; pointB: V; distance: number });
      const bar = 1e-6 * depth + tol + 8 * 2 ** (10 - 52);
      expect(Math.abs(-p.distance - depth)).toBeLessThan(bar);
      expect(norm(sub(r.normal, nStar))).toBeLessThan(1e-6);
      const a = sub(p.pointA, ref);
      const b = sub(p.pointB, ref);
      expect(fromRim(rimA, a)).toBeLessThan(bar);
      expect(fromRim(rimB, b)).toBeLessThan(bar);
      // pointB − pointA = distance·normal: along it and across it.
      const w = sub(b, a);
      expect(Math.abs(dot(w, r.normal) - p.distance)).toBeLessThan(bar);
      expect(norm(sub(w, scale(r.normal, dot(w, r.normal))))).toBeLessThan(bar);
      // The witnesses are the rims' facing pair up to the normal's own error (1e-8 rad at most
      // here) times the big rim's radius.
      expect(Math.abs(azimuth(rimB, b) - azimuth(rimB, pB))).toBeLessThan(1e-6);
    }
  });

  it("the same pair bare, the child's pose composed, faces too (the compound is not the cause)", () => {
    const sc = CASES[0].scenario;
    const bare = childInWorld(sc.localA);
    for (const s of [
      { ...sc, localA: bare, worldA: childInWorld(sc.worldA) },
      {
        ...sc,
        localA: sc.localB,
        worldA: sc.worldB,
        localB: bare,
        worldB: childInWorld(sc.worldA),
      },
    ])
      expectReplayPasses(s, "cylinder-cylinder", { ops: OPS });
  });

  it("property: rims of cylinders and cones crossing, sizes 1e3..1e7 apart, bare or a compound's child", () => {
    fc.assert(
      fc.property(cylinderCrossingArb(true), (c) => {
        expectReplayPasses(c.scenario, c.pair, { ops: OPS });
      }),
      { numRuns: 150 },
    );
  });

  it("property: a rim against a rim, cap or side of a cylinder or cone, 1e-3..1e4, any angle", () => {
    fc.assert(
      fc.property(cylinderCrossingArb(false, true), (c) => {
        expectReplayPasses(c.scenario, c.pair, { ops: OPS });
      }),
      { numRuns: 150 },
    );
  });
});
