/**
 * castShapes accuracy (issue 16, class 8 and the castShapes bar of docs/FORMATS.md, "Accuracy"):
 * the time of impact is the first contact along the motion to the stated bar at any size, any
 * offset from the world origin and mixed scales, and toi 0 exactly when `intersects` holds at
 * time 0.
 *
 * Regression values are hand-derived (spheres and boxes approaching head-on along an axis:
 * toi = gap / closing speed). The properties check the library against the differential
 * fuzzer's oracle (test/fuzz/oracle-pairs.ts, independent of the library: certified distance
 * bounds from support functions and alternating projections, in the pair's own frame, never at
 * the world offset), densely sampled along the motion, on the fuzzer's adversarial scenarios
 * (touching, exactly touching, a few ulps apart, concentric; sizes 1e-6 to 1e6 mixed within a
 * pair; offsets up to 1e9).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { makeSphere } from "../../src/shapes/index.js";
import { castLine, touchDisplacement } from "../fuzz/fuzz.js";
import {
  makeScenario,
  Rng,
  type Scenario,
  type ShapeTypeName,
  translateShape,
} from "../fuzz/generate.js";
import { dist, norm, pairTruth, scale, sub } from "../fuzz/oracle-pairs.js";
import { oshape, type V } from "../fuzz/oracle-shapes.js";

const EPS = Number.EPSILON;
type Hit = { toi: number; normal: number[]; pointA: number[]; pointB: number[] } | null;

describe("castShapes regressions (hand-derived)", () => {
  it("a small pair 1e8 from the origin: toi to the pair's own accuracy, not the offset's ulp", () => {
    // A (R 0.0625) at x = 1e8, B (r 0.0375) at dx = (1e8 + 0.09) − 1e8 (exact difference of the
    // doubles) and y0 = 0.06, closing along −x: contact when (dx − t)² + y0² = (R + r)²,
    // t = dx − √((R + r − y0)(R + r + y0)) ≈ 0.01. Conservative advancement takes several steps
    // (the normal turns); before the offset-free frame each step's poses were rounded to the
    // world ulp at 1e8 (1.49e-8), 25 times the bar on a pair of size 0.1.
    const R = 0.0625;
    const r = 0.0375;
    const xa = 1e8;
    const xb = 1e8 + 0.09;
    const dx = xb - xa;
    const y0 = 0.06;
    const exact = dx - Math.sqrt((R + r - y0) * (R + r + y0));
    for (const [va, vb] of [
      [vec3.create(0, 0, 0), vec3.create(-1, 0, 0)],
      [vec3.create(0.7, 0.3, 0), vec3.create(-0.3, 0.3, 0)],
      [vec3.create(-5.5, 0, 2.25), vec3.create(-6.5, 0, 2.25)],
    ]) {
      const h = castShapes(
        makeSphere(R),
        iso.create(vec3.create(xa, 0, 0)),
        va,
        makeSphere(r),
        iso.create(vec3.create(xb, y0, 0)),
        vb,
        1,
      );
      expect(h).not.toBeNull();
      if (!h) return;
      // The bar: 16 × (1e-9·s + 64·ε·L) over the closing speed along the normal (0.8).
      const bar = (16 * (1e-9 * r + 64 * EPS * (R + r))) / 0.8;
      expect(Math.abs(h.toi - exact)).toBeLessThanOrEqual(bar);
      // Witness point on A at toi, in the world: centre + R·normal, to the world's rounding.
      const ny = y0 / (R + r);
      expect(Math.abs(h.normal.y - ny)).toBeLessThanOrEqual(1e-8);
      expect(Math.abs(h.pointA.y - (va.y * h.toi + R * ny))).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(h.pointA.x - (xa + va.x * h.toi + R * 0.8))).toBeLessThanOrEqual(
        4 * 2 ** -26,
      );
    }
  });

  it("mixed scales: a 1e-6 sphere grazing a sphere of 1e3 stops at its own accuracy", () => {
    // B (r 1e-6) at (600, 900, 0) falls along −y onto A (R 1e3 at the origin): contact when
    // 600² + (900 − t)² = (R + r)², t = 900 − √((R + r − 600)(R + r + 600)). Conservative
    // advancement approaches it in steps (the normal turns); the stopping gap was 1e-10 × (sum
    // of the bounding radii) = 1e-7, a tenth of the small sphere, so toi came up to 1.25e-7 early.
    const R = 1e3;
    const r = 1e-6;
    const exact = 900 - Math.sqrt((R + r - 600) * (R + r + 600));
    for (const offset of [0, 1e6]) {
      const h = castShapes(
        makeSphere(R),
        iso.create(vec3.create(offset, 0, 0)),
        vec3.create(),
        makeSphere(r),
        iso.create(vec3.create(offset + 600, 900, 0)),
        vec3.create(0, -1, 0),
        200,
      );
      expect(h).not.toBeNull();
      // The bar: 16 × (1e-9·r + 64·ε·L) over the closing speed 0.8 (L = 1e3), plus the travel's
      // rounding 64·ε·100.
      const bar = (16 * (1e-9 * r + 64 * EPS * R)) / 0.8 + 64 * EPS * 100;
      expect(Math.abs((h?.toi ?? 0) - exact)).toBeLessThanOrEqual(bar);
      expect(Math.abs((h?.normal.x ?? 0) - 600 / (R + r))).toBeLessThanOrEqual(1e-9);
    }
  });

  it("mixed scales: a 5.7e-7 sphere onto the face of a box of 1e5, oblique (fuzzer seed 16)", () => {
    // The sphere rises onto the box's bottom face y = cy − 40960 inside the face (x, z within
    // it at toi): toi = ((cy − 40960) − (yB + r)) / (vBy − vAy). The rounding of the box's
    // support at 1e5 tilts the first normal by 5e-11, so the first step lands 5.7e-7 short (the
    // sphere's size); the stopping gap was 1e-10 × (sum of the radii) = 1.3e-5 and ended there.
    const line = {
      op: "castShapes",
      a: {
        type: "box",
        center: [139.76806640625, -513.46142578125, -206.7808837890625],
        halfExtents: [94208, 40960, 71680],
      },
      velocityA: [33250.43702743694, -41421.82972650049, 2165.456706691354],
      b: {
        type: "sphere",
        center: [-19813.667760849, -53532.499913960695, 71473.21911677718],
        radius: 5.662441253662109e-7,
      },
      velocityB: [32812.23353512371, 71852.6479282788, -61332.48121696677],
      maxToi: 1.0445221035444727,
    };
    const mu = line.velocityB[1] - line.velocityA[1];
    const exact = (line.a.center[1] - 40960 - (line.b.center[1] + line.b.radius)) / mu;
    const h = answerQuery(line) as Hit;
    expect(h).not.toBeNull();
    const L = Math.hypot(94208, 40960, 71680);
    const bar = (16 * (1e-9 * line.b.radius + 64 * EPS * L)) / mu + 64 * EPS * 0.2;
    expect(Math.abs((h as NonNullable<Hit>).toi - exact)).toBeLessThanOrEqual(bar);
    expect((h as NonNullable<Hit>).normal).toEqual([0, -1, 0]);
  });

  it("fuzzer line (seed 16): a box touching a sphere of 4e5 by intersects gets toi 0", () => {
    const line = {
      op: "castShapes",
      a: {
        type: "box",
        center: [0.011923544108867645, 0.01870383322238922, 0.01811768114566803],
        halfExtents: [0.0003434898613268692, 0.001150741043839818, 0.0016766568383862145],
        rotation: [
          -0.46082173190864995, -0.02946117738218466, -0.771623331368441, -0.4374617753768176,
        ],
      },
      velocityA: [0, 0, 0],
      b: {
        type: "sphere",
        center: [-46250.566644580154, -339455.2032973268, -232266.83016336837],
        radius: 413904.39939834666,
      },
      velocityB: [106597.26737580572, 847810.558412345, 465773.14996904816],
      maxToi: 0.9974898531853683,
    };
    const inter = (
      answerQuery({ op: "intersects", a: line.a, b: line.b }) as { intersects: boolean }
    ).intersects;
    const h = answerQuery(line) as Hit;
    expect(h).not.toBeNull();
    expect((h as NonNullable<Hit>).toi === 0).toBe(inter);
  });

  it("a compound apart by intersects, one child touching by its own routine: toi > 0 (fuzzer seed 16)", () => {
    // The box and the compound are 2.8e-16 apart (distance) and intersects says false; the
    // compound's capsule child alone was decided touching by its pair routine, giving toi 0.
    // Toi 0 belongs to intersects alone: they close at once, at a positive time.
    const line = {
      op: "castShapes",
      a: {
        type: "box",
        center: [21.805145263671875, -12.969314575195312, -22.891067504882812],
        halfExtents: [0.5279567696128168, 0.22162479614097702, 0.15248987533522212],
      },
      velocityA: [1.3029814539471354, 0.991983597867485, 2.1708830622872175],
      b: {
        type: "compound",
        children: [
          {
            shape: {
              type: "capsule",
              a: [-0.1564531729998183, 0.14938548351322634, -0.02621068767812791],
              b: [0.1564531729998183, -0.14938548351322634, 0.02621068767812791],
              radius: 0.19700424216061846,
            },
            position: [0.18711694859248432, 0.4958701892949451, -0.44291512929125165],
          },
          {
            shape: { type: "sphere", center: [0, 0, 0], radius: 0.4331688213371348 },
            position: [-0.15269589968583563, -0.4767632314441711, -0.2073070586157042],
          },
          {
            shape: {
              type: "cone",
              center: [0, 0, 0],
              halfHeight: 0.6613526851139585,
              radius: 0.25076578648934655,
              rotation: [
                -0.5944983055323455, 0.5239505597565731, 0.1690268130921434, 0.5860695454516104,
              ],
            },
            position: [0.7197982828538165, 0.6994637652797409, 0.33798856087330575],
          },
        ],
        position: [21.0392205163185, -12.12783199516567, -22.956836024376287],
      },
      velocityB: [4.405653577182727, -3.0068153823698247, 1.2012354050830998],
      maxToi: 1.1548639291842213,
    };
    expect(
      (answerQuery({ op: "intersects", a: line.a, b: line.b }) as { intersects: boolean })
        .intersects,
    ).toBe(false);
    const h = answerQuery(line) as Hit;
    expect(h).not.toBeNull();
    const toi = (h as NonNullable<Hit>).toi;
    expect(toi).toBeGreaterThan(0);
    expect(toi).toBeLessThan(1e-12);
  });

  it("exactly apart by 2^-46 and separating: null (a gap within the bar is not a contact)", () => {
    // Fuzzer seed 16: the sphere's top at z = 0.008056640625, the box's bottom 2^-46 above,
    // B moving up (+z) and sideways: the gap only grows.
    const line = {
      op: "castShapes",
      a: { type: "sphere", center: [0, 0, 0], radius: 0.008056640625 },
      velocityA: [0, 0, 0],
      b: {
        type: "aabb",
        min: [-0.007568359375, -0.0052490234375, 0.00805664062501421],
        max: [0.002197265625, 0.0030517578125, 0.02099609375001421],
      },
      velocityB: [0.05284917586516777, 0.026461464404737692, 0.04367948884418533],
      maxToi: 0.906357263087253,
    };
    expect(answerQuery(line)).toBeNull();
    // The same approach reversed closes the gap at once: toi = 2^-46·(…)/0.0437, tiny, not 0.
    const back = { ...line, velocityB: line.velocityB.map((x) => -x) };
    const h = answerQuery(back) as Hit;
    expect(h).not.toBeNull();
    const toi = (h as NonNullable<Hit>).toi;
    expect(toi).toBeGreaterThan(0);
    expect(toi).toBeLessThanOrEqual(((0.00805664062501421 - 0.008056640625) / 0.0436794888) * 1.01);
  });
});

/** B's JSON shape moved by w·t in the scenario's local frame (oracle side). */
function movedB(sc: Scenario, w: V, t: number) {
  return oshape(translateShape(sc.localB, scale(w, t)));
}

const CONVEX: ShapeTypeName[] = ["sphere", "box", "aabb", "capsule", "cylinder", "cone", "convex"];
const ALL: ShapeTypeName[] = [...CONVEX, "triangle", "mesh", "compound"];

const touchFn = touchDisplacement;

/**
 * Checks one cast against dense sampling of the oracle's distance bounds along the motion:
 * toi 0 exactly when intersects; at a positive toi the shapes are not certainly apart by more
 * than the bar (16 distance bars plus the motion's rounding), and at no sampled time before
 * toi − bar/speed do they share a point; a null answer has no sampled time at which they overlap
 * by clearly more than the bar (the depth at which `intersects` owes true).
 */
function checkAgainstSampling(sc: Scenario, samples: number): boolean {
  const line = castLine(sc);
  const h = answerQuery(line) as Hit;
  const inter = (
    answerQuery({ op: "intersects", a: sc.worldA, b: sc.worldB }) as {
      intersects: boolean;
    }
  ).intersects;
  const A = oshape(sc.localA);
  const B = oshape(sc.localB);
  const w = sub(sc.velocityB as V, sc.velocityA as V);
  const speed = norm(w);
  const rA = A.halfspace ? B.radius : A.radius;
  const rB = B.halfspace ? A.radius : B.radius;
  const L = Math.max(rA, rB, A.halfspace || B.halfspace ? 0 : dist(A.center, B.center));
  const s = Math.min(rA, rB);
  const tolAmb = 64 * EPS * L;
  const bar = (t: number) => 16 * (1e-9 * s + tolAmb) + 64 * EPS * speed * t;
  // The cast is as exact as the pair's distance routine, whose own misses (issue 16's distance
  // and intersects classes, counted by the fuzzer's ratchet) are not this test's subject: a
  // scenario whose distance at time 0 misses the oracle's bounds is skipped (and counted).
  const d0 = (answerQuery({ op: "distance", a: sc.worldA, b: sc.worldB }) as { distance: number })
    .distance;
  const T0 = pairTruth(A, B, [], false);
  const dBar = 1e-9 * Math.max(d0, s) + tolAmb;
  if (d0 > T0.upper + dBar || d0 < T0.lower - dBar) return false;
  if (h !== null) {
    expect(h.toi === 0, JSON.stringify(line)).toBe(inter);
    expect(h.toi).toBeLessThanOrEqual(sc.maxToi);
    expect(Math.abs(Math.hypot(...h.normal) - 1)).toBeLessThan(1e-9);
    if (h.toi > 0) {
      const T = pairTruth(A, movedB(sc, w, h.toi), [], false);
      expect(T.lower, `apart at toi: ${JSON.stringify(line)}`).toBeLessThanOrEqual(bar(h.toi));
      for (let k = 0; k < samples; k++) {
        const t = (h.toi * k) / samples;
        if (t >= h.toi - bar(h.toi) / speed) break;
        const Tk = pairTruth(A, movedB(sc, w, t), [], false);
        expect(Tk.upper, `touching at ${t} < toi: ${JSON.stringify(line)}`).toBeGreaterThan(0);
      }
    }
  } else {
    expect(inter, JSON.stringify(line)).toBe(false);
    const need = Math.max(1e-7 * s, 1e3 * tolAmb);
    for (let k = 0; k <= samples; k++) {
      const t = (sc.maxToi * k) / samples;
      const Tk = pairTruth(A, movedB(sc, w, t), [], true);
      const deep = Tk.upper <= 0 && Tk.depthKnown && Tk.depth > 2 * need;
      expect(deep, `null but overlapping at ${t}: ${JSON.stringify(line)}`).toBe(false);
    }
  }
  return true;
}

describe("castShapes against dense sampling of the oracle along the motion", () => {
  let runs = 0;
  let skipped = 0;
  it("convex pairs: adversarial placements, sizes 1e-6..1e6 mixed, offsets to 1e9", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.constantFrom(...CONVEX),
        fc.constantFrom(...CONVEX),
        (seed, ta, tb) => {
          const sc = makeScenario(new Rng(seed), ta, tb, touchFn);
          runs++;
          if (!checkAgainstSampling(sc, 24)) skipped++;
        },
      ),
      { numRuns: 120 },
    );
    expect(skipped).toBeLessThanOrEqual(0.1 * runs);
  });

  it("triangles, meshes, compounds and half-spaces against any shape", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.constantFrom(...ALL),
        fc.constantFrom("triangle", "mesh", "compound", "halfspace") as fc.Arbitrary<ShapeTypeName>,
        (seed, ta, tb) => {
          const sc = makeScenario(new Rng(seed), ta, tb, touchFn);
          runs++;
          if (!checkAgainstSampling(sc, 12)) skipped++;
        },
      ),
      { numRuns: 40 },
    );
    expect(skipped).toBeLessThanOrEqual(0.1 * runs);
  });
});
