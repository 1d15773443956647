/**
 * Generator and checks of the class "a hull's manifold against a box, an aabb or another hull"
 * (issue 16, attack report 32 F3: the manifold dropped the hull's deepest vertex). A: the hull of
 * 4–16 points, on a grid of eighths (ties and coplanar faces, as the attack drew them) or of
 * thousandths, squeezed along up to two axes into slivers, needles and flat polygons, turned or
 * not. B: a box (turned or not), an aabb or another such hull, centred at a point near one of A's
 * points so that most pairs overlap. Both scaled by 2^j (j in −20..20, exact) and moved by an
 * offset of up to 2^30 (21 significant bits, exact). The checks read the oracle of
 * test/fuzz/oracle-*.ts (the shapes' exact support functions and signed distances, SAT depth).
 */
import fc from "fast-check";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import { rotationArb, unitArb } from "./arbitraries.js";
import { exactOffset, offsetScenario, type Scenario } from "./generate.js";
import { overlapPieces, pairTruth, surfaceDistance } from "./oracle-pairs.js";
import { dot, norm, oshape, rotate, scale, sub, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;
const EPS = 2 ** -52;

/** A coordinate in [−1, 1]: eighths (the attack's grid) or thousandths. */
const coordArb = fc.oneof(
  fc.integer({ min: -8, max: 8 }).map((k) => k / 8),
  fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000),
);

/** A per-axis squeeze: none, a sliver (2^-6, 2^-20) or flat (0). */
const squeezeArb = fc.constantFrom(1, 1, 1, 1, 1, 2 ** -6, 2 ** -20, 0);

/**
 * 4 to 16 points of a hull, squeezed along up to two axes: slabs, flat polygons, needles (two
 * axes squeezed flat give collinear points, refused and skipped).
 */
const hullPointsArb = fc
  .tuple(
    fc.array(fc.tuple(coordArb, coordArb, coordArb), { minLength: 4, maxLength: 16 }),
    squeezeArb,
    squeezeArb,
    fc.integer({ min: 0, max: 2 }),
  )
  .map(([pts, s0, s1, axis]) => {
    const k = [1, 1, 1];
    k[(axis + 1) % 3] = s0;
    k[(axis + 2) % 3] = s1;
    return pts.map((p) => p.map((x, i) => x * k[i]) as V);
  });

const maybeRotation = fc.option(rotationArb, { freq: 2 });

const hullArb = fc.tuple(hullPointsArb, maybeRotation).map(([points, rotation]): J => {
  const j: J = { type: "convex", points };
  if (rotation) j.rotation = rotation;
  return j;
});

const halfArb = fc.tuple(coordArb, coordArb, coordArb).map((h) => h.map((x) => Math.abs(x)) as V);

/** B before placement: centred at the origin (a hull by its position). */
const otherArb = fc.oneof(
  fc.tuple(halfArb, maybeRotation).map(([h, rotation]): J => {
    const j: J = { type: "box", center: [0, 0, 0], halfExtents: h };
    if (rotation) j.rotation = rotation;
    return j;
  }),
  halfArb.map((h): J => ({ type: "aabb", min: scale(h, -1), max: h })),
  hullArb,
);

/** B's centre: one of A's points (in A's frame, A unturned) moved by up to 1 on each axis. */
function place(b: J, at: V): J {
  if (b.type === "box") return { ...b, center: at };
  if (b.type === "aabb") {
    const lo = b.min as V;
    const hi = b.max as V;
    return { ...b, min: lo.map((x, i) => x + at[i]), max: hi.map((x, i) => x + at[i]) };
  }
  return { ...b, position: at };
}

/** `j`'s lengths times k (a power of two: exact). */
function scaled(j: J, k: number): J {
  const o: J = { ...j };
  for (const f of ["center", "position", "min", "max", "halfExtents"]) {
    if (Array.isArray(o[f])) o[f] = (o[f] as number[]).map((x) => x * k);
  }
  if (Array.isArray(o.points)) o.points = (o.points as V[]).map((p) => p.map((x) => x * k));
  return o;
}

/** A drawn pair: the local shapes and the scenario in the world. */
export interface HullPair {
  a: J;
  b: J;
  scenario: Scenario;
}

/** A random hull–{box, aabb, hull} pair at size 2^j (j in −20..20) and offsets to 2^30. */
export const hullPairArb: fc.Arbitrary<HullPair> = fc
  .tuple(
    hullArb,
    otherArb,
    fc.nat(15),
    fc.tuple(coordArb, coordArb, coordArb),
    fc.integer({ min: -20, max: 20 }),
    unitArb,
    fc.constantFrom(0, 1, 2 ** 10, 2 ** 20, 2 ** 30),
  )
  .map(([hull, other, pick, shift, j, u, mag]) => {
    const pts = hull.points as V[];
    const at = pts[pick % pts.length].map((x, i) => x + shift[i]) as V;
    const k = 2 ** j;
    const a = scaled(hull, k);
    const b = scaled(place(other, at), k);
    return { a, b, scenario: offsetScenario(a, b, exactOffset(u, mag)) };
  });

// The class of test/fuzz/hull-sliver-manifold.test.ts: slivers whose faces are nearly parallel.

/** A coordinate in [−1, 1] in thousandths. */
const milli = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);

/**
 * A sliver's points about the origin: 5–16 points of [−1, 1]² spread across y by a thickness
 * of 1e-7..1e-2 of the width (log-uniform; the open line's was 9e-7), so that its top and bottom
 * are fans of nearly parallel triangles; thickness 0 (a flat hull) when `flat`.
 */
const sliverPoints = (flat: boolean) =>
  fc
    .tuple(
      fc.array(fc.tuple(milli, milli, milli), { minLength: 5, maxLength: 16 }),
      fc.integer({ min: 0, max: 1000 }),
    )
    .map(([pts, k]) => {
      const t = flat ? 0 : 10 ** (-7 + (5 * k) / 1000);
      return pts.map(([x, y, z]) => [x, (y * t) / 2, z] as V);
    });

const hullOf = (points: V[], rotation: number[]): J => ({ type: "convex", points, rotation });

/** B about the origin: a box, an ordinary hull, a sliver or a flat hull, turned. */
const sliverOtherArb: fc.Arbitrary<J> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.tuple(fc.tuple(milli, milli, milli), rotationArb).map(
      ([h, rotation]): J => ({
        type: "box",
        center: [0, 0, 0],
        halfExtents: h.map((x) => Math.max(Math.abs(x), 1e-3)),
        rotation,
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(fc.tuple(milli, milli, milli), { minLength: 4, maxLength: 12 }), rotationArb)
      .map(([p, r]) => hullOf(p as V[], r)),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(sliverPoints(false), rotationArb).map(([p, r]) => hullOf(p, r)),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(sliverPoints(true), rotationArb).map(([p, r]) => hullOf(p, r)),
  },
);

/** `j`'s lengths times k, then moved by `at`. */
function placed(j: J, k: number, at: V): J {
  if (j.type === "box") {
    return { ...j, center: at, halfExtents: (j.halfExtents as V).map((x) => x * k) };
  }
  return { ...j, points: (j.points as V[]).map((p) => p.map((x) => x * k)), position: at };
}

/**
 * A turned sliver of width 2·2^j (j in −10..10: 1e-3..1e3) and B of 2^(j + dj) (dj in −2..2)
 * centred near one of the sliver's points (within a quarter of B's size on each axis), the
 * pair moved by up to 2^20 (about 1e6).
 */
export const sliverPairArb: fc.Arbitrary<HullPair> = fc
  .tuple(
    sliverPoints(false),
    rotationArb,
    sliverOtherArb,
    fc.nat(15),
    fc.tuple(milli, milli, milli),
    fc.integer({ min: -10, max: 10 }),
    fc.integer({ min: -2, max: 2 }),
    unitArb,
    fc.constantFrom(0, 1, 2 ** 10, 2 ** 20),
  )
  .map(([pts, rot, other, pick, shift, j, dj, u, mag]) => {
    const k = 2 ** j;
    const kb = 2 ** (j + dj);
    const a = hullOf(
      pts.map((p) => p.map((x) => x * k) as V),
      rot,
    );
    const p = rotate(rot, pts[pick % pts.length]);
    const at = p.map((x, i) => x * k + (shift[i] * kb) / 4) as V;
    const b = placed(other, kb, at);
    return { a, b, scenario: offsetScenario(a, b, exactOffset(u, mag)) };
  });

type Manifold = { normal: V; points: { pointA: V; pointB: V; distance: number }[] } | null;

function ulpOf(p: V): number {
  const m = Math.max(Math.abs(p[0]), Math.abs(p[1]), Math.abs(p[2]));
  return m === 0 ? 0 : 2 ** (Math.floor(Math.log2(m)) - 52);
}

/** null when the JSON is refused (collinear or coincident points): such draws are skipped. */
function ask(line: J): unknown {
  try {
    return answerQuery(line as never);
  } catch (e) {
    if ((e as { code?: string }).code === "invalid_value") return undefined;
    throw e;
  }
}

/**
 * The issues of the manifold of (A, B) in the order `swap` picks, against the fuzzer's bars
 * (depth 1e-6 relative, distances 1e-9 relative to the smaller shape, 64 ε of the pair's span,
 * a few ulps of the printed world coordinates): `contact` null exactly when `manifold` is; the
 * contact's depth the exact SAT depth of the polytopes and achieved along its normal; the
 * manifold's normal the contact's (within 1e-9, and achieving the depth); every point on its
 * shape, facing across the normal, its distance (pointB − pointA)·n, none deeper than the
 * contact, and the deepest at the contact's depth. undefined when the draw is refused.
 */
export function hullPairIssues(pair: HullPair, swap: boolean): string[] | undefined {
  const sc = pair.scenario;
  const wA = swap ? sc.worldB : sc.worldA;
  const wB = swap ? sc.worldA : sc.worldB;
  const c = ask({ op: "contact", a: wA, b: wB }) as ContactJson | null | undefined;
  if (c === undefined) return undefined;
  const m = ask({ op: "manifold", a: wA, b: wB }) as Manifold;
  const issues: string[] = [];
  if ((c === null) !== (m === null))
    return [`contact ${c === null ? "null" : "non-null"}, manifold not`];
  if (c === null || m === null) return issues;
  const A = oshape(swap ? sc.localB : sc.localA);
  const B = oshape(swap ? sc.localA : sc.localB);
  const off = sc.offset as V;
  const L = Math.max(A.radius, B.radius, norm(sub(A.center, B.center)));
  const s = Math.min(A.radius, B.radius);
  const amb = 64 * EPS * L;
  const depth = -c.distance;
  const depthTol = 1e-6 * Math.abs(depth) + amb;
  const truth = pairTruth(A, B, [], true);
  if (truth.depthKnown && depth > 0 && Math.abs(truth.depth - depth) > depthTol)
    issues.push(`contact depth ${depth} ≠ SAT depth ${truth.depth}`);
  const nc = c.normal;
  const nm = m.normal;
  if (norm(sub(nm, nc)) > 1e-9) issues.push(`manifold normal ${nm} ≠ contact normal ${nc}`);
  const along = overlapPieces(A.pieces[0], B.pieces[0], nm);
  if (Math.abs(along - depth) > depthTol)
    issues.push(`overlap along the manifold normal ${along} ≠ contact depth ${depth}`);
  let deepest = Infinity;
  for (const [i, p] of m.points.entries()) {
    const pa = p.pointA;
    const pb = p.pointB;
    const tol = Math.max(1e-9 * Math.max(Math.abs(p.distance), s), 1e-6 * Math.abs(depth)) + amb;
    const onA = surfaceDistance(A, sub(pa, off));
    const onB = surfaceDistance(B, sub(pb, off));
    const u = 8 * Math.max(ulpOf(pa), ulpOf(pb));
    if (onA > tol + u) issues.push(`points[${i}].pointA ${onA} off A`);
    if (onB > tol + u) issues.push(`points[${i}].pointB ${onB} off B`);
    const d = sub(pb, pa);
    const t = dot(d, nm);
    if (Math.abs(t - p.distance) > tol + u) issues.push(`points[${i}].distance ≠ (pB − pA)·n`);
    const side = norm(sub(d, scale(nm, t)));
    if (side > tol + u) issues.push(`points[${i}] not facing: ${side} off the normal`);
    if (p.distance < c.distance - depthTol)
      issues.push(`points[${i}] ${p.distance} deeper than the contact ${c.distance}`);
    deepest = Math.min(deepest, p.distance);
  }
  if (Math.abs(deepest - c.distance) > depthTol)
    issues.push(`deepest point ${deepest} ≠ contact ${c.distance}`);
  return issues;
}

/**
 * The property both hull-manifold tests assert over a generator of pairs: each draw in both
 * orders has no issue of `hullPairIssues` (draws it refuses are skipped by `fc.pre`); a failing
 * draw throws with its issues listed.
 */
export function hullPairsHaveNoIssues(
  arb: fc.Arbitrary<HullPair>,
): fc.IPropertyWithHooks<[HullPair]> {
  return fc.property(arb, (pair) => {
    for (const swap of [false, true]) {
      const issues = hullPairIssues(pair, swap);
      fc.pre(issues !== undefined);
      if (issues.length > 0) throw new Error(`${swap ? "B–A" : "A–B"}: ${issues.join("; ")}`);
    }
  });
}
