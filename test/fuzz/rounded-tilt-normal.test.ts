/**
 * Issue 16, session 30's attack F5 ("the normal achieves the reported depth" for rounded shapes far
 * from the origin): a rounded box touching an aabb at 1.3e6, the depth −6.55e-12 right but the
 * normal 1.3e-13 rad off the box's core face, 1.45e-11 of overlap along it (bar 1.7e-12). That line
 * answers right on main since the snaps onto a rounded shape's core faces
 * (test/fuzz/rounded-axis-depth.test.ts); the class generator of test/fuzz/rounded-tilt.gen.ts (a
 * rounded box, hull or capsule against a box, aabb, hull, triangle or rounded box, faces
 * 2^-5..2^-45 rad off parallel, touching or overlapping by 0..1e-9 of the size, sizes 1e-3..1e3,
 * offsets to 1e9) found more: 164 of 18,322 contacts (10,000 draws of its first version, both
 * orders, fast-check seed 2) missed the depth along their normal by more than the fuzzer's bar, the
 * same in the local frame (the offset plays no part: the shapes' own features do; its sizes scale
 * with the offset).
 *
 * Two mechanisms fixed here, one tie of doubles each (38 of those 82 pairs; the generator as
 * committed, seed 3: 210 failing contacts of 19,076 before, 124 after). (1) A rounded hull's or
 * box's core apart from a box or hull by about the radius, the closest points a box's corner and
 * the core's edge where the box's edge crosses that core edge 9e-9 from the corner: the corner–edge
 * and edge–edge distances agree to 1e-19 of 250, a tie in doubles that `polytopeFeatureGap`
 * (src/geometry/simplex-features.ts) broke toward the corner, whose direction is 2.6e-11 rad off
 * the edges' common perpendicular; the box's edge of 2 turns that into 5.2e-11 of overlap along it
 * (bar 9.1e-12), and GJK's answer, kept when the feature search failed to certify, had the same
 * normal. Now a failed certification tries the nearest candidate with a normal of its own (an edge
 * crossing, a face's projection) within the tolerance of the best distance, taken when the
 * separation along that normal meets its distance. (2) A capsule's cap, a point or a triangle's
 * corner against a hull's or a rounded core's corner whose edge's inside lies 5.7e-10 beside it
 * (`triangle-polytope`'s closest features, which capsule–polytope and triangle–rounded pairs use):
 * the two corners' distance ties with the corner–edge pair's, the corners' direction is 1.6e-9 rad
 * off the edge's perpendicular, and the hull's far corner 0.3 along the edge puts the normal
 * 9.8e-10 short. Now `gapNormal` also tries the nearest corner–edge pair's direction made
 * perpendicular to its edge, with its points, where it ties with the corners' pair
 * (`tiedCornerEdge`).
 *
 * Oracles, written without the library: the overlap h_A(n) + h_B(−n) along the answer's normal from
 * the shapes' definitions in the local frame, summed exactly over the input doubles (`overlapMiss`
 * of rounded-tilt.gen.ts), against the fuzzer's bar (1e-6 of the depth plus 64 ε of the pair's
 * extent); the first line's distance from the corner–edge distance at 50 digits (mpmath:
 * 249.999999999998532114715790682, the radius plus 1.0e-14, so touching); and the fuzzer's own
 * checks (replay, facing on). The near-parallel faces of rounded box and hull cores, where the
 * feature search cycled and GJK's gap and normal stayed, were fixed in session 34 (the third
 * describe block below), the triangle–polytope features' pairs on branch degtri34b
 * (test/fuzz/degenerate-triangle-pairs.test.ts), and capsules against rounded boxes and hulls in
 * session 35 (the last block: the capsule's segment against the core, both radii added, the
 * exact segment–box distance as the oracle) and against point triangles (the last block: the
 * closed form's normal from the rounded foot, now the perpendicular to its own rounding) and against
 * a needle triangle (the segment's exact features, test/fuzz/capsule-sliver.test.ts, which holds
 * the generator's capsule–sliver line at seed 3; the generator's 10^4 draws not rerun here).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { offsetArb, rotationArb } from "./arbitraries.js";
import { exactOffset, offsetScenario, type Scenario } from "./generate.js";
import { add, rotate, scale, unrotate, type V } from "./oracle-shapes.js";
import { bar, bothOrders, contactOf, normalMiss } from "./overlap-miss.js";
import { expectReplayPasses, loadCases } from "./recorded-cases.js";
import { overlapMiss, roundedTiltArb } from "./rounded-tilt.gen.js";

type J = Record<string, unknown>;

const CASES = loadCases("./rounded-tilt-normal.cases.json");
const FACE_CASES = loadCases("./rounded-tilt-faces.cases.json");
const POINT_CASES = loadCases("./rounded-tilt-capsule-point.cases.json");

/**
 * The generator's first line (fast-check seed 1): a rounded hull (core a tetrahedron of 225 with
 * points near its centre inside, radius 250, turned 3.8e-6 rad about y) touching a box of 1.5 by 2
 * by 1.1 at 1e9; the box's corner 9e-9 from where its edge along y crosses the core's edge.
 */
const LINE: { a: J; b: J; offset: number[]; distance: number } = {
  a: {
    type: "roundedConvex",
    points: [
      [-4.1228760280753345e-117, 4.348037914743575e-270, 1.4202174552975391e-46],
      [-1.7485784050596476e-121, 2.7453500893899026e-177, 7.83566534308333e-267],
      [-7.840090556634896e-120, -5.615420768828526e-261, 1.3196820794646462e-298],
      [4.3361119081272387e-293, -4.781019801016331e-43, -3.957546280211395e-111],
      [-6.206423838395329e-289, -3.638017923421475e-258, -1.2201476347388789e-176],
      [1.5734438058976386e-64, -4.287047884748171e-39, 1.5681692064404661e-100],
      [4.898666235239933e-80, 2.831279175181419e-256, 1.8214440630305225e-6],
      [1.638543118724941e-172, -1.1039487619692514e-189, 2.284650342588992e-76],
      [224.99999999999864, 224.99999999999864, 224.99999999999864],
      [-224.99999999999864, -224.99999999999864, 224.99999999999864],
      [-224.99999999999864, 224.99999999999864, -224.99999999999864],
      [224.99999999999864, -224.99999999999864, -224.99999999999864],
    ],
    radius: 249.99999999999852,
    position: [0, 0, 0],
    rotation: [
      -2.289895380598937e-29, -1.9073486328113436e-6, -1.062582224147825e-34, 0.999999999998181,
    ],
  },
  b: {
    type: "box",
    center: [23.22918438911438, -23.5, -475.5373950562306],
    halfExtents: [0.7273723951158728, 0.9999999999999989, 0.5374808903780314],
    rotation: [0, 0, 0, 1],
  },
  offset: [-1e9, 0, 0],
  // The corner–edge distance less the radius (mpmath, 50 digits): apart by 1.0e-14.
  distance: 1.004360617169e-14,
};

describe("issue 16: a rounded shape against a face tilted off parallel (attack 30, F5)", () => {
  it("the first line, both orders: the edges' normal achieves the depth; the distance is the exact one", () => {
    for (const sc of bothOrders(offsetScenario(LINE.a, LINE.b, LINE.offset))) {
      const r = contactOf(sc);
      expect(r).not.toBeNull();
      if (!r) continue;
      const tol = bar(sc, r.distance);
      expect(normalMiss(sc, r)).toBeLessThanOrEqual(tol);
      expect(Math.abs(r.distance - LINE.distance)).toBeLessThanOrEqual(tol);
      expectReplayPasses(sc, "roundedConvex-box");
    }
  });

  it("the generator's 38 lines (seed 2) fixed here, both orders: the normal achieves the depth", () => {
    expect(CASES.length).toBe(38);
    for (const c of CASES) {
      for (const sc of bothOrders(c.scenario)) {
        const r = contactOf(sc);
        expect(r, c.was).not.toBeNull();
        if (!r) continue;
        expect(normalMiss(sc, r), `${c.pair}: ${c.was}`).toBeLessThanOrEqual(bar(sc, r.distance));
      }
    }
  });

  it("the generator's 38 lines pass the fuzzer's own checks", () => {
    for (const c of CASES) expectReplayPasses(c.scenario, c.pair);
  });

  it("property: the generator builds its pairs as it says (its oracle, no library)", () => {
    // Along the direction each pair was placed along, the overlap is the drawn depth to the
    // fuzzer's bar, in both orders (the radius took up the offset's snapping), whenever the
    // radius stayed positive; the property of the library's normals over this generator is open
    // (see the header).
    fc.assert(
      fc.property(roundedTiltArb, (k) => {
        const [sc, swapped] = k.scenarios;
        const neg = k.normal.map((x) => -x);
        const miss = overlapMiss(sc.localA as J, sc.localB as J, k.normal, k.depth);
        const back = overlapMiss(swapped.localA as J, swapped.localB as J, neg, k.depth);
        const tol = bar(sc, -k.depth);
        const radius = (sc.localA as J).radius as number;
        return !(radius > 0) || (Math.abs(miss) <= tol && Math.abs(back) <= tol);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});

/**
 * Mechanism (2)'s class, built with its answer: a capsule whose end's ball (radius r) touches or
 * overlaps a box's edge (bare, or a box-like hull) at t of the edge's length from its corner, t
 * from 2^-40 to 2^-10 (the corner–corner and corner–edge distances tie in doubles), its centre
 * along a normal m of the edge's fan (between its two faces' normals), the box turned by any
 * rotation, sizes 2^-10..2^10, offsets to 1e9. The closest point of the box to the centre is the
 * edge's point, so the contact's normal is R·m, its depth the drawn overlap, and the normal
 * achieves it.
 */
const cornerEdgeArb = fc
  .tuple(
    fc.constantFrom("box", "convex"),
    fc.integer({ min: -10, max: 10 }),
    fc.tuple(
      fc.double({ min: 0.2, max: 1, noNaN: true }),
      fc.double({ min: 0.2, max: 1, noNaN: true }),
    ),
    fc.integer({ min: 10, max: 40 }),
    fc.double({ min: 0.05, max: Math.PI / 2 - 0.05, noNaN: true }),
    fc.constantFrom(0, 0, 1e-12, 1e-9),
    rotationArb,
    offsetArb,
  )
  .map(([type, e, [hy, hz], k, phi, rel, q, [ou, om]]) => {
    const s = 2 ** e;
    const h: V = [s, s * hy, s * hz];
    const R = (v: V): V => rotate(q, v);
    // The edge from the corner (h) along −x, its point t·2s from the corner; m in the edge's fan.
    const t = 2 * s * 2 ** -k;
    const m: V = [0, Math.cos(phi), Math.sin(phi)];
    const r = s / 2;
    const depth = rel * r;
    const c: V = [h[0] - t, h[1] + (r - depth) * m[1], h[2] + (r - depth) * m[2]];
    const box: J =
      type === "box"
        ? { type, center: [0, 0, 0], halfExtents: h, rotation: q }
        : {
            type,
            points: [-1, 1].flatMap((x) =>
              [-1, 1].flatMap((y) => [-1, 1].map((z) => [x * h[0], y * h[1], z * h[2]])),
            ),
            position: [0, 0, 0],
            rotation: q,
          };
    const a = R(c);
    const capsule: J = { type: "capsule", a, b: add(a, scale(R(m), 2 * s)), radius: r };
    return {
      capsule,
      box,
      normal: R(m),
      depth,
      offset: exactOffset(ou, Math.min(1e9, om * s * 1e4)),
    };
  });

describe("issue 16: a capsule's cap on a corner that ties with its edge (mechanism 2)", () => {
  it("property: the normal achieves the depth and is the edge's fan normal", () => {
    fc.assert(
      fc.property(cornerEdgeArb, (k) => {
        for (const sc of bothOrders(offsetScenario(k.capsule, k.box, k.offset))) {
          const r = contactOf({ ...sc, prediction: k.capsule.radius as number });
          if (!r) return false;
          const tol = bar(sc, r.distance);
          if (!(normalMiss(sc, r) <= tol)) return false;
        }
        return true;
      }),
      { numRuns: 300, seed: 9 },
    );
  });
});

/**
 * The pairs of the class that the supporting features' gap answers (a rounded box's or hull's core
 * against a box, an aabb, a hull or another core: src/geometry/simplex-features.ts).
 */
const FACE_PAIRS = new Set([
  "roundedBox-box",
  "roundedBox-aabb",
  "roundedBox-convex",
  "roundedBox-roundedBox",
  "roundedConvex-box",
  "roundedConvex-aabb",
  "roundedConvex-convex",
  "roundedConvex-roundedBox",
]);

/**
 * Near-parallel faces of polytope cores (the open lines of session 33, moved here). A rounded
 * hull's core edge 1.1e-13 rad off a box's face, its end 3.9e-10 inside the face's side and
 * 7e-15 beyond its other: the corner's projection, the corner against either edge and the two
 * edge crossings lie within 1e-19 of one distance, far below the rounding of their squares
 * (0.0625² here), while their directions differ by up to 6.2e-9 rad. `polytopeFeatureGap`
 * ranked them by squared distance, took the corner's pair, found it short of certifying, reduced
 * the sides to its corners and added one support a round, cycling between a corner and an edge
 * of the face for its 16 rounds; GJK's answer then stayed, its normal the corner pair's, 5.3e-9
 * short of the depth along a bar of 1.05e-14. Now every candidate within the narrowest width of
 * the least distance is certified by the separation along its own normal (a lower bound of the
 * gap; its distance an upper bound) and the narrowest kept, and rounds that end uncertified
 * gather each side's corners about that normal (supports tilted 45° apart: a face's four corners,
 * an edge's two ends) and certify every pair of them. The generator (seed 3, 10^4 draws, both
 * orders): 124 of 19,076 contacts failing before, 22 after (capsules against rounded boxes,
 * GJK/EPA on the swept shapes; a triangle or an aabb against a segment or rounded box by
 * triangle–polytope's features; capsule–triangle: still open).
 */
describe("issue 16: near-parallel faces of polytope cores (the feature search's ties)", () => {
  it("the 8 open lines, both orders: the normal achieves the depth (exact oracle)", () => {
    expect(FACE_CASES.length).toBe(8);
    for (const c of FACE_CASES) {
      for (const sc of bothOrders(c.scenario)) {
        const r = contactOf(sc);
        expect(r, c.was).not.toBeNull();
        if (!r) continue;
        expect(normalMiss(sc, r), `${c.pair}: ${c.was}`).toBeLessThanOrEqual(bar(sc, r.distance));
      }
    }
  });

  it("the 8 open lines pass the fuzzer's own checks, witnesses facing", () => {
    for (const c of FACE_CASES) expectReplayPasses(c.scenario, c.pair, { facing: true });
  });

  it("property: the class's pairs, both orders: the normal achieves the depth", () => {
    // The generator's pairs answered by the supporting features' gap:
    // faces 2^-5..2^-45 rad off parallel, touching or 0..1e-9 deep, sizes 1e-3..1e3, offsets to
    // 1e9 (0 of 2 × 10^4 draws failing at seeds 2 and 3).
    fc.assert(
      fc.property(
        roundedTiltArb.filter((k) => FACE_PAIRS.has(k.pair)),
        (k) => {
          for (const sc of k.scenarios) {
            const r = contactOf(sc);
            if (!r) continue;
            if (!(normalMiss(sc, r) <= bar(sc, r.distance))) return false;
          }
          return true;
        },
      ),
      { numRuns: 400, seed: 34 },
    );
  });
});

/**
 * The exact distance of the local pair "capsule against rounded box (or the same box as a rounded
 * hull of its 8 corners)", written without the library: the least distance of the capsule's
 * segment to the core box less both radii. The distance of the segment's point at t to the
 * (convex) box is convex in t, so a golden-section search over t ∈ [0, 1], started from both
 * ends, finds its least value to the rounding of one point–box distance (the point taken into
 * the box's frame by the rotation matrix in doubles: a few ulps of the pair's size, far below
 * the bar). For a segment apart from the core, which every pair of this class is (the overlap is
 * at most 1e-9 of the smaller size, the radii sum to a quarter of it or more).
 */
function capsuleCoreDistance(capsule: J, box: J): number {
  const a = capsule.a as V;
  const b = capsule.b as V;
  const c = box.center as V;
  const h = box.halfExtents as V;
  const q = box.rotation as number[];
  const at = (t: number): number => {
    const p = unrotate(q, [
      a[0] + (b[0] - a[0]) * t - c[0],
      a[1] + (b[1] - a[1]) * t - c[1],
      a[2] + (b[2] - a[2]) * t - c[2],
    ]);
    return Math.hypot(
      Math.max(Math.abs(p[0]) - h[0], 0),
      Math.max(Math.abs(p[1]) - h[1], 0),
      Math.max(Math.abs(p[2]) - h[2], 0),
    );
  };
  const g = (Math.sqrt(5) - 1) / 2;
  let lo = 0;
  let hi = 1;
  let best = Math.min(at(0), at(1));
  for (let i = 0; i < 120; i++) {
    const m1 = hi - g * (hi - lo);
    const m2 = lo + g * (hi - lo);
    const f1 = at(m1);
    const f2 = at(m2);
    best = Math.min(best, f1, f2);
    if (f1 <= f2) hi = m2;
    else lo = m1;
  }
  return best - (capsule.radius as number) - (box.radius as number);
}

/** A rounded box as the rounded hull of its core's 8 corners (the same shape). */
function asRoundedHull(box: J): J {
  const h = box.halfExtents as V;
  return {
    type: "roundedConvex",
    points: [-1, 1].flatMap((x) =>
      [-1, 1].flatMap((y) => [-1, 1].map((z) => [x * h[0], y * h[1], z * h[2]])),
    ),
    radius: box.radius,
    position: box.center,
    rotation: box.rotation,
  };
}

/**
 * The open line of session 34, moved here: the generator's capsule (radius 0.5, length 0.82)
 * lying 3.6e-12 rad off parallel on a rounded box's core face (radius 0.25), touching, at 1e9.
 * GJK/EPA on the swept shapes answered the distance −1.1e-16 along a normal 6.4e-10 short of the
 * depth (bar 2.1e-14). Now the capsule's segment against the core box by `capsule-polytope`
 * (src/narrowphase/capsule-polytope.ts: the triangle routine's SAT and closest features, the
 * segment a triangle without area), both radii added.
 */
const CAPSULE_LINE: { a: J; b: J; offset: number[] } = {
  a: {
    type: "capsule",
    a: [-0.4089015952932214, 0.0040645599365234375, -0.014108078795821936],
    b: [0.4089015952932214, -0.0040645599365234375, 0.014108078795821936],
    radius: 0.49999994562779077,
  },
  b: {
    type: "roundedBox",
    center: [-1.1533566940720177, 0.9406872987747192, 0.08101374732431849],
    halfExtents: [0.7499999999999987, 0.17434787190329026, 0.1536386159021752],
    radius: 0.25,
    rotation: [
      -0.005271436337564781, -0.9996830153825986, 0.01765998416291609, -0.01715242472246069,
    ],
  },
  offset: [0, 1e9, 0],
};

/** The capsule and the box (JSON) of a capsule–rounded box or –rounded hull scenario, either order. */
function capsuleAndBox(sc: Scenario, box: J): [J, J] {
  const a = sc.localA as J;
  const b = sc.localB as J;
  return [a.type === "capsule" ? a : b, box];
}

/** The checks of one capsule–rounded box or hull scenario: normal achieves the depth, exact distance. */
function capsuleRoundedOk(sc: Scenario, box: J): string | null {
  const r = contactOf(sc);
  const exact = capsuleCoreDistance(...capsuleAndBox(sc, box));
  // Apart beyond the prediction (a placement along a direction that is no face's normal).
  if (!r) return exact > sc.prediction - bar(sc, exact) ? null : `no contact, exact ${exact}`;
  const tol = bar(sc, r.distance);
  const miss = normalMiss(sc, r);
  if (!(miss <= tol)) return `normal misses the depth by ${miss} > ${tol}`;
  if (!(Math.abs(r.distance - exact) <= tol)) return `distance ${r.distance}, exact ${exact}`;
  return null;
}

describe("issue 16: a capsule on a rounded box's or hull's face near parallel (the segment against the core)", () => {
  it("the open line, both orders and as a rounded hull: the exact distance, the normal achieves the depth", () => {
    const box = CAPSULE_LINE.b;
    // The oracle's distance: the segment 0.7499999… from the core, touching to 1.1e-16.
    expect(Math.abs(capsuleCoreDistance(CAPSULE_LINE.a, box))).toBeLessThan(1e-15);
    for (const b of [box, asRoundedHull(box)]) {
      for (const sc of bothOrders(offsetScenario(CAPSULE_LINE.a, b, CAPSULE_LINE.offset))) {
        expect(capsuleRoundedOk(sc, box)).toBeNull();
        const pair = `${(sc.localA as J).type}-${(sc.localB as J).type}`;
        expectReplayPasses(sc, pair, { facing: true });
      }
    }
  });

  it("property: the generator's capsule–rounded box pairs and the same boxes as rounded hulls, both orders", () => {
    // Faces 2^-5..2^-45 rad off parallel, touching or 0..1e-9 deep, sizes 1e-3..1e3, offsets to
    // 1e9 (GJK/EPA on the swept shapes: 14 of the generator's 19,076 contacts at seed 3, 10^4
    // draws, were such pairs failing, and this property's second draw, before; 0 after).
    fc.assert(
      fc.property(
        roundedTiltArb.filter((k) => k.pair === "capsule-roundedBox"),
        (k) => {
          const [sc] = k.scenarios;
          const box = sc.localB as J;
          const hull = offsetScenario(sc.localA as J, asRoundedHull(box), sc.offset);
          for (const s of [...k.scenarios, ...bothOrders({ ...hull, prediction: sc.prediction })]) {
            const why = capsuleRoundedOk(s, box);
            if (why !== null) throw new Error(why);
          }
          return true;
        },
      ),
      { numRuns: 300, seed: 35 },
    );
  });
});

/**
 * A capsule of length L and radius L·2^-12..L·2^-6 beside a point triangle (its corners equal),
 * the point's foot on the segment 2^-40..2^-2 of the length from an end or anywhere along it,
 * touching or 1e-12..1e-9 of the radius deep, turned by any rotation, L 2^-10..2^10, offsets to
 * 1e9: the generator's point-triangle draws (seed 3) as a class. The closed form's foot
 * a + (b − a)·t rounds to ε of the coordinates, which against a gap of the radius turned the
 * normal by ~ε·L/r and missed the depth along it by that times L.
 */
const capsulePointArb = fc
  .tuple(
    fc.integer({ min: -10, max: 10 }),
    fc.integer({ min: 6, max: 12 }),
    fc.oneof(
      fc.integer({ min: 2, max: 40 }).map((k) => 2 ** -k),
      fc.double({ min: 0.01, max: 0.99, noNaN: true }),
    ),
    fc.boolean(),
    fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    fc.constantFrom(0, 0, 1e-12, 1e-9),
    rotationArb,
    offsetArb,
  )
  .map(([e, j, u, fromB, phi, rel, q, [ou, om]]) => {
    const len = 2 ** e;
    const r = len * 2 ** -j;
    const a = rotate(q, [-len / 2, 0, 0]);
    const b = rotate(q, [len / 2, 0, 0]);
    const s = fromB ? 1 - u : u;
    const foot = rotate(q, [-len / 2 + len * s, 0, 0]);
    const p = add(foot, scale(rotate(q, [0, Math.cos(phi), Math.sin(phi)]), r * (1 - rel)));
    return {
      capsule: { type: "capsule", a, b, radius: r } as J,
      point: { type: "triangle", a: p, b: p, c: p } as J,
      offset: exactOffset(ou, Math.min(1e9, om * len * 1e4)),
    };
  });

describe("issue 16: a capsule beside a point triangle (the foot's rounding)", () => {
  it("the generator's 3 point-triangle lines (seed 3), both orders: the normal achieves the depth or gap", () => {
    // Was 5.1e-15 to 4.2e-14 over bars of 2.9e-15 to 1.5e-14; the exact normals (rationals)
    // were 1.3e-14 to 2.2e-14 rad from the answers'.
    expect(POINT_CASES.length).toBe(3);
    for (const c of POINT_CASES) {
      for (const sc of bothOrders(c.scenario)) {
        const r = contactOf(sc);
        expect(r, c.was).not.toBeNull();
        if (!r) continue;
        expect(normalMiss(sc, r), c.was).toBeLessThanOrEqual(bar(sc, r.distance));
      }
      expectReplayPasses(c.scenario, c.pair, {
        facing: true,
        ops: ["contact", "distance", "intersects"],
      });
    }
  });

  it("property: both orders, the normal achieves the depth", () => {
    fc.assert(
      fc.property(capsulePointArb, (k) => {
        for (const sc of bothOrders(offsetScenario(k.capsule, k.point, k.offset))) {
          const r = contactOf({ ...sc, prediction: k.capsule.radius as number });
          if (!r) return false;
          const miss = normalMiss(sc, r);
          const tol = bar(sc, r.distance);
          if (!(miss <= tol)) throw new Error(`normal misses by ${miss} > ${tol}`);
        }
        return true;
      }),
      { numRuns: 400, seed: 35 },
    );
  });
});
