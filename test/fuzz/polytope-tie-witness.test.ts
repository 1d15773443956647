/**
 * Regression inputs of issue 16, attack 29's finding F6: `contact` and `distance` between
 * polytopes (box–hull, hull–hull, a rounded box of radius 0) that share a corner, an edge of each
 * in their common supporting plane, and overlap there by 1e-14..1e-12 of their size. The depth and
 * the normal were right, A's witness the touching corner, but B's the other end of its supporting
 * edge (a tie along the normal broken by 1e-16), up to 1.93 from A's on shapes of size 1: the
 * projections of `faceWitnesses` between hulls, by GJK from a point, stall at its rounding there.
 * Fixed in src/narrowphase/witness-features.ts (`featureFacingWitnesses`: the tied supporting edges'
 * closest points, or the manifold builder's clipped pair, when they face across the normal).
 *
 * The three attack reproducers are answered through the `collide query` answer and checked
 * against values computed here: pB − pA = distance·n to the rounding of the coordinates, the
 * distance the overlap along the two tied edges' common normal (computed from the corners), the
 * witnesses on their supporting planes. A fast-check property builds the class: a box, its hull
 * or a rounded box of radius 0 (size 1e-6..1e6) whose edge lies in a plane through its corner,
 * against a hull or a box's hull with an edge in the same plane from the same corner, the tie
 * broken by up to 3e-16 of the size and the pair moved together by 0..1e-12 of the size, all at
 * offsets up to 1e9, both orders, `contact` and `distance`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { quatArb, unitArb } from "./arbitraries.js";
import { add, cross, dot, norm, rotate, scale, sub, unit, type V } from "./oracle-shapes.js";

const EPS = 2 ** -52;

/** Facing bar: pB − pA − distance·n within this many ε of the coordinates' magnitude. */
const FACING_ULPS = 16;

type Json = Record<string, unknown>;

/** World corners of a box, a box-like hull or a rounded box (radius 0), or a hull's points. */
function corners(s: Json): V[] {
  const q = s.rotation as number[] | undefined;
  const p = (s.position ?? s.center ?? [0, 0, 0]) as V;
  let local: V[];
  if (s.type === "convex") local = s.points as V[];
  else {
    const h = s.halfExtents as V;
    local = [];
    for (const x of [-1, 1])
      for (const y of [-1, 1]) for (const z of [-1, 1]) local.push([x * h[0], y * h[1], z * h[2]]);
  }
  return local.map((v) => add(rotate(q, v), p));
}

const maxDot = (pts: V[], n: V): number => Math.max(...pts.map((v) => dot(v, n)));
const minDot = (pts: V[], n: V): number => Math.min(...pts.map((v) => dot(v, n)));

interface Answer {
  distance: number;
  normal?: V;
  pointA: V;
  pointB: V;
}

/**
 * The failures of a `contact` answer `r` for shapes `a`, `b` (or of a `distance` answer, with
 * the same pair's contact `ref`): not facing (pB − pA ≠ distance·n beyond FACING_ULPS of the
 * coordinates' magnitude), a witness off its supporting plane, the normal not achieving the
 * distance, the distance off `expected` by more than `tolD`.
 */
function failures(
  r: Answer,
  a: Json,
  b: Json,
  expected: number,
  tolD: number,
  ref?: Answer,
): string[] {
  const out: string[] = [];
  const A = corners(a);
  const B = corners(b);
  const mag = Math.max(...[...A, ...B].map((v) => norm(v)));
  const size = Math.max(...A.map((v) => norm(sub(v, A[0]))), ...B.map((v) => norm(sub(v, B[0]))));
  const c = ref ?? r;
  const n = c.normal as V;
  const bar = FACING_ULPS * EPS * mag;
  if (ref !== undefined && r.distance !== Math.max(ref.distance, 0)) {
    out.push(`distance ${r.distance}, contact's ${ref.distance}`);
  }
  const off = norm(sub(sub(r.pointB, r.pointA), scale(n, c.distance)));
  if (!(off <= bar)) out.push(`pB − pA − d·n = ${off} (bar ${bar})`);
  if (!(Math.abs(dot(r.pointA, n) - maxDot(A, n)) <= bar)) out.push("pointA off A's plane");
  if (!(Math.abs(dot(r.pointB, n) - minDot(B, n)) <= bar)) out.push("pointB off B's plane");
  const along = minDot(B, n) - maxDot(A, n);
  if (!(Math.abs(along - c.distance) <= 1e-9 * size + bar)) {
    out.push(`normal's separation ${along} ≠ ${c.distance}`);
  }
  if (!(Math.abs(c.distance - expected) <= tolD))
    out.push(`distance ${c.distance}, expected ${expected}`);
  return out;
}

function query(op: string, a: Json, b: Json): Answer {
  const r = answerQuery({ op, a, b }) as Answer | null;
  if (r === null) throw new Error(`${op}: null`);
  return r;
}

// The attack's reproducers (/work/wt/attack29-scripts at session 29).
const F6C = {
  a: {
    type: "box",
    center: [0.09431698771017973, -1.6536531328595652, -0.7146369473865435],
    halfExtents: [0.3405179972294718, 1.07921167970635, 0.8787359883543104],
    rotation: [
      -0.29325014932295695, -0.9337825047289496, -0.18919035673635692, -0.07913022622337694,
    ],
  },
  b: {
    type: "convex",
    points: [
      [-1.0588356357779912e-13, -5.357389793853683e-13, -2.0943867337938075e-13],
      [-0.07663910755620339, -0.2193554202209573, 0.5998513490456614],
      [0.34994703428827717, 0.6921998534594106, -0.5078105182884294],
      [0.43570870648037185, 0.4542171627149159, 0.3458509569100546],
    ],
    position: [0.14799645263701677, -0.9103255774825811, 0.50905008520931],
  },
};
const F6D = {
  a: {
    type: "convex",
    points: [-1, 1].flatMap((x) =>
      [-1, 1].flatMap((y) =>
        [-1, 1].map((z) => [
          x * 0.9649660298135132,
          y * 0.4717118991073221,
          z * 0.3572698211763054,
        ]),
      ),
    ),
    position: [-0.468548095615239, 0.6157093578695119, 1.8550059556057448],
    rotation: [0.8078333497090853, -0.4899005867714935, 0.08435998750471932, 0.31667978572518446],
  },
  b: {
    type: "convex",
    points: [
      [8.088168252381158e-13, 1.857716116805373e-13, -3.1982832906313945e-13],
      [-0.03899264395855822, -0.23896356502223542, -0.23741034236873335],
      [-1.2957411757796284, -0.2981631507105323, 0.15418097417266988],
      [-1.0278906467008606, 0.667538230341268, 0.04727265749455884],
      [-0.815241393244187, 0.6351664865578017, -0.0029857886094765427],
      [-0.6623662110421197, -0.6927836550409031, 0.18388849106938845],
      [-0.46898061274425723, 0.19819202941972572, -0.6847869026197896],
      [-0.9498831223334387, -0.06639764268289752, -0.09641547036959336],
    ],
    position: [-1.2930022776126862, 1.3895889110863209, 1.9069580342620611],
  },
};
const F6S = {
  a: {
    type: "box",
    center: [0, 0, 0],
    halfExtents: [1.2222510041404178, 0.6705339185675285, 0.6199034758402888],
    rotation: [0.5008996750209437, -0.41407805983654766, -0.6201567926605496, 0.43936821510311097],
  },
  b: {
    type: "convex",
    points: [
      [-0.49615254653645274, 0.5785806319561668, -0.0032525661004545736],
      [-0.5444545486787817, 0.32535124148195965, 0.13022698308315017],
      [0.5682593615162933, 0.14756207173831024, 0.13623334140030488],
      [-0.526525892732829, 0.12870590328193643, -0.2143228263686501],
      [0.36871220879374716, -0.8017052923635288, -0.04185906980101516],
      [-0.336900872814169, 0.4393158559217327, 0.3238787075153575],
      [-0.39969103932382266, 0.5585228301949867, 0.23320487562080258],
      [0.5773173774521376, -0.04175577815522913, -0.12883157719464441],
      [0.4354766890085339, 0.1368845236981939, 0.3097980244081669],
      [0.15749138807113383, 0.9498907065677751, 0.1172135089097644],
    ],
    position: [1.0493583051525093, 1.2085522469981242, 1.3443655605096865],
    rotation: [-0.35119618670147773, 0.7509467082417193, 0.3135217540649888, 0.46308140704986167],
  },
};

/**
 * The hand-known separation of a reproducer: along the normal of its tied supporting features
 * (the corners within 1e-12 of each supporting plane along the answer's normal `n`): a face's
 * normal where one side ties three corners, else the two tied edges' common normal.
 */
function tiedSeparation(A: V[], B: V[], n: V): number {
  const ta = A.filter((v) => dot(v, n) > maxDot(A, n) - 1e-12);
  const tb = B.filter((v) => dot(v, n) < minDot(B, n) + 1e-12);
  let m: V;
  if (tb.length >= 3) m = cross(sub(tb[1], tb[0]), sub(tb[2], tb[0]));
  else if (ta.length >= 3) m = cross(sub(ta[1], ta[0]), sub(ta[2], ta[0]));
  else m = cross(sub(ta[1], ta[0]), sub(tb[1], tb[0]));
  m = unit(m);
  if (dot(m, n) < 0) m = scale(m, -1);
  return minDot(B, m) - maxDot(A, m);
}

describe("polytope tie witnesses (issue 16, attack 29 F6)", () => {
  for (const [name, pair, expectSep] of [
    ["F6c box–hull", F6C, -2.73e-13],
    ["F6d hull–hull", F6D, -8.797e-13],
    ["F6 box–hull of 1e6 at 1e9, scaled by 2^-20", F6S, -1.69e-14],
  ] as const) {
    it(`${name}: contact and distance witnesses face each other`, () => {
      const c = query("contact", pair.a, pair.b);
      // The hand-known distance: the overlap along the tied features' normal.
      const sep = tiedSeparation(corners(pair.a), corners(pair.b), c.normal as V);
      expect(Math.abs(sep - expectSep)).toBeLessThan(0.03 * Math.abs(expectSep));
      expect(failures(c, pair.a, pair.b, sep, 1e-15)).toEqual([]);
      const d = query("distance", pair.a, pair.b);
      expect(failures(d, pair.a, pair.b, sep, 1e-15, c)).toEqual([]);
      // The swapped pair: the same contact seen from B.
      const s = query("contact", pair.b, pair.a);
      expect(failures(s, pair.b, pair.a, sep, 1e-15)).toEqual([]);
      const ds = query("distance", pair.b, pair.a);
      expect(failures(ds, pair.b, pair.a, sep, 1e-15, s)).toEqual([]);
    });
  }

  it("property: two polytopes sharing a corner, an edge of each in the common supporting plane", () => {
    fc.assert(
      fc.property(
        quatArb,
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.tuple(
          fc.double({ min: 0.3, max: 1.3, noNaN: true }),
          fc.double({ min: 0.3, max: 1.3, noNaN: true }),
          fc.double({ min: 0.3, max: 1.3, noNaN: true }),
        ),
        unitArb,
        fc.double({ min: 0.3, max: 1.3, noNaN: true }),
        fc.array(unitArb, { minLength: 2, maxLength: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(1e-6, 1e-3, 1, 1e3, 1e6),
        fc.tuple(unitArb, fc.constantFrom(0, 1, 1e3, 1e6, 1e9)),
        fc.constantFrom("box", "convex", "roundedBox"),
        fc.boolean(),
        (q, phi, h0, r, len, above, tieRnd, penRnd, s, [dir, far], typeA, boxB) => {
          // A: corner E at the origin (before the offset), edge along its local z, n across it.
          const h = h0.map((x) => x * s) as V;
          const nl: V = [Math.cos(phi), Math.sin(phi), 0];
          const sx = Math.sign(nl[0]) || 1;
          const sy = Math.sign(nl[1]) || 1;
          const corner: V = [sx * h[0], sy * h[1], -h[2]];
          const n = unit(rotate(q, nl));
          const offset = scale(dir, far);
          const centre = add(scale(rotate(q, corner), -1), offset);
          // B's edge from the corner along u, in the plane across n.
          const u = unit(cross(n, r));
          if (!(norm(cross(n, r)) > 0.1)) return;
          const pen = scale(n, -penRnd * 1e-12 * s);
          let pts: V[];
          if (boxB) {
            // A box's corners: edge along u, face normals −n and u × (−n) at the corner.
            const w = unit(cross(u, scale(n, -1)));
            const e: V = [len * s, 0.8 * len * s, 0.6 * len * s];
            pts = [];
            for (const i of [0, 1])
              for (const j of [0, 1])
                for (const k of [0, 1])
                  pts.push(add(add(scale(u, i * e[0]), scale(w, -j * e[1])), scale(n, k * e[2])));
          } else {
            pts = [[0, 0, 0], scale(u, len * s)];
            for (const v of above) {
              const t = dot(v, n);
              pts.push(scale(add(v, scale(n, Math.abs(t) + 0.1 - t)), s));
            }
          }
          // The tie broken by up to 3e-16 of the size (the far end of B's edge lowered).
          const far1 = boxB ? 4 : 1;
          pts[far1] = add(pts[far1], scale(n, -tieRnd * 3e-16 * s));
          pts = pts.map((p) => add(p, pen));
          const rotation = [...q];
          const a: Json =
            typeA === "convex"
              ? {
                  type: "convex",
                  points: [-1, 1].flatMap((x) =>
                    [-1, 1].flatMap((y) => [-1, 1].map((z) => [x * h[0], y * h[1], z * h[2]])),
                  ),
                  position: centre,
                  rotation,
                }
              : typeA === "roundedBox"
                ? { type: "roundedBox", center: centre, halfExtents: h, radius: 0, rotation }
                : { type: "box", center: centre, halfExtents: h, rotation };
          const b: Json = { type: "convex", points: pts, position: offset };
          const A = corners(a);
          const B = corners(b);
          // Known: the overlap along n, which the depth cannot exceed; the pair overlaps.
          const along = minDot(B, n) - maxDot(A, n);
          const mag = Math.max(...[...A, ...B].map((v) => norm(v)));
          const tolD = 1e-9 * s + 64 * EPS * mag;
          for (const [x, y] of [
            [a, b],
            [b, a],
          ]) {
            const c = answerQuery({ op: "contact", a: x, b: y }) as Answer | null;
            if (c === null) {
              // Apart by rounding only: the overlap within the distance bar.
              expect(Math.abs(along)).toBeLessThanOrEqual(tolD);
              continue;
            }
            const f = failures(c, x, y, along, tolD);
            const d = query("distance", x, y);
            f.push(...failures(d, x, y, along, tolD, c));
            expect(f, JSON.stringify({ a: x, b: y })).toEqual([]);
          }
        },
      ),
      { numRuns: 300, seed: 29_06 },
    );
  });
});
