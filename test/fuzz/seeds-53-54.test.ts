/**
 * Regression inputs of issue 16 from the fuzzer's 10^6-query runs (seeds 53 and 54, main
 * a9cd145; they were kept in test/fuzz/open/), fixed in src/geometry/refine-normal.ts and
 * src/narrowphase/convex-convex.ts:
 *
 * - seed 54, a box of 7e-3 (and of 7e-2) in a compound deep inside a capsule of 1.2e3 (2.2e4),
 *   near its segment: the deepest normal is normal to the segment and to a box edge, both
 *   supports jump between corners, but the box edge's jump counted as a unique point against a
 *   flatness threshold taken from the segment end's magnitude (1e4), and the segment's witness
 *   was placed on the box corner's line, 3.5e-3 beside the segment: `distance`'s pointA 5.1e-9
 *   (1.2e-8) off the capsule, bar 1.0e-10 (6.2e-10). Fixed: each side's support judged against
 *   its own witness's magnitude (`anchorWitnesses`), so both jump and EPA's witnesses are placed;
 * - seed 54, a cone of 1.2e3 in a compound touching a cone's side with its apex: the alternating
 *   projections near the apex ended 2.3e-10 from it, `contact`'s pointB 1.0e-10 off the apex's
 *   cone (bar 3.5e-11). Fixed: at a touch the projections start from the support points too
 *   (`supportStarts`), the apex one of them;
 * - seed 53, a hull 5.4e-10 from a cylinder of 3e3's rim (2.4e7 from the origin): GJK ended on a
 *   sliver tetrahedron (three rim points 1e-3 apart, 1e4 from the fourth) that held the origin
 *   by 1e-6 where its face's plane was known only to 1e-5; intersects called the pair touching
 *   and contact answered 0 along a normal that separates them by 5.4e-10 (bar 1.3e-10). Fixed:
 *   the containment is rounding within the face plane's rounding through its normal
 *   (`originNearFace`).
 *
 * Each recorded scenario (seeds-53-54.cases.json) is replayed through the fuzzer's checks
 * (test/fuzz/fuzz.ts, against its independent oracles test/fuzz/oracle-*.ts at the bars of
 * docs/FORMATS.md); three fast-check properties build each class at scales 2^-20..2^20, size
 * ratios to 2^-24 and offsets up to 1e9 and replay it the same way. The capsule property also
 * measures the capsule's witness against the oracle at the tight bar of a compound's overlap
 * (it failed on a9cd145 in its first runs: 9.3e-10 against 5.9e-11); the apex and rim ones
 * pass on a9cd145 as well (the recorded cases do not) and guard their classes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { offsetArb, quatArb, unitArb } from "./arbitraries.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { surfaceDistance } from "./oracle-pairs.js";
import {
  add,
  cross,
  dot,
  norm,
  oshape,
  rotate,
  scale,
  sub,
  unit,
  type V,
} from "./oracle-shapes.js";
import {
  expectPassesBothOrders,
  expectReplayPasses,
  loadCases,
  replayCases,
} from "./recorded-cases.js";

type J = Record<string, unknown>;

const EPS = 2 ** -52;

/** The unit quaternion [x, y, z, w] turning +y onto unit u. */
function quatYTo(u: V): number[] {
  const c = u[1];
  if (c < -1 + 1e-12) return [1, 0, 0, 0];
  const axis = cross([0, 1, 0], u);
  const q = [axis[0], axis[1], axis[2], 1 + c];
  const l = Math.hypot(...q);
  return q.map((x) => x / l);
}

/** Shape `j` as the one child of a compound at the identity, or beside a small sphere far off. */
function inCompound(j: J, lone: boolean, far: number): J {
  const children: J[] = [{ shape: j, position: [0, 0, 0] }];
  if (!lone) {
    const sphere = { type: "sphere", center: [0, 0, 0], radius: far * 2 ** -8 };
    children.push({ shape: sphere, position: [far, 0, 0] });
  }
  return { type: "compound", children, position: [0, 0, 0] };
}

describe("fuzzer seeds 53 and 54 at 10^6 queries (issue 16)", () => {
  replayCases(loadCases("./seeds-53-54.cases.json"), 4);

  it("property: a small box or hull deep in a large capsule, near its segment: witnesses on their shapes, sizes 2^-20..2^20, ratios to 2^-24, offsets to 1e9", () => {
    const unitD = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 4, max: 24 }),
        fc.double({ min: 0.5, max: 8, noNaN: true }),
        unitArb,
        quatArb,
        fc.tuple(unitD, unitD, unitD),
        fc.tuple(unitD, fc.double({ min: 0, max: 2, noNaN: true })),
        fc.boolean(),
        fc.boolean(),
        offsetArb,
        (e, ratio, length, axis, q, half, [along, aside], hull, lone, [ou, om]) => {
          const R = 2 ** e;
          const s = R * 2 ** -ratio;
          const H = R * length;
          const capsule: J = {
            type: "capsule",
            a: scale(axis, -H),
            b: scale(axis, H),
            radius: R,
          };
          // Near the segment: along it anywhere inside, beside it by up to twice the small
          // shape's size (near the axis the deepest normal is normal to an edge of it).
          const side = unit(cross(axis, Math.abs(axis[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0]));
          const at = add(scale(axis, 0.9 * H * along), scale(side, s * aside));
          const h = half.map((c) => s * (0.3 + 0.35 * (1 + c))) as V;
          const small: J = hull
            ? {
                type: "convex",
                points: [
                  [1, 1, 1],
                  [-1, -1, 1],
                  [-1, 1, -1],
                  [1, -1, -1],
                  [0.5, 0.7, -0.9],
                  [-0.8, 0.2, 0.6],
                ].map((p) => add(at, rotate(q, [p[0] * h[0], p[1] * h[1], p[2] * h[2]]))),
              }
            : { type: "box", center: at, halfExtents: h, rotation: q };
          const o = exactOffset(ou, Math.min(1e9, om * R * 1e4));
          const ops = { ops: ["distance", "contact"] };
          const compound = inCompound(small, lone, 4 * H);
          expectPassesBothOrders(capsule, small, o, "capsule-small", ops);
          expectPassesBothOrders(capsule, compound, o, "capsule-compound", ops);
          // The distance's witness on the capsule at the bar of an overlap whose depth the oracle
          // does not bound (a compound of two children: 1e-9·s + 64·ε·L + 4 ulps), in both orders.
          const L = Math.max(R, H);
          const C = oshape(capsule);
          for (const other of [small, compound]) {
            for (const capsuleFirst of [true, false]) {
              const sc = offsetScenario(capsule, other, o);
              const line = capsuleFirst
                ? { op: "distance", a: sc.worldA, b: sc.worldB }
                : { op: "distance", a: sc.worldB, b: sc.worldA };
              const r = answerQuery(line) as { pointA: V; pointB: V };
              const p = sub(capsuleFirst ? r.pointA : r.pointB, o as V);
              const w = capsuleFirst ? r.pointA : r.pointB;
              const ulp = 2 ** (Math.floor(Math.log2(Math.max(...w.map(Math.abs)))) - 52);
              const bar = 1e-9 * s + 64 * EPS * L + 4 * ulp;
              expect(surfaceDistance(C, p)).toBeLessThanOrEqual(bar);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("property: a cone's apex touching a cone's, cylinder's or capsule's side: the point on both shapes, sizes 2^-20..2^20, ratios to 2^-12, offsets to 1e9", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -12, max: 12 }),
        fc.constantFrom("cone", "cylinder", "capsule"),
        quatArb,
        fc.double({ min: -0.8, max: 0.8, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0.3, max: 3, noNaN: true }),
        fc.double({ min: 0.3, max: 3, noNaN: true }),
        fc.tuple(
          fc.double({ min: 1, max: 12, noNaN: true }),
          fc.double({ min: -0.3, max: 0.3, noNaN: true }),
          fc.boolean(),
        ),
        fc.boolean(),
        offsetArb,
        (e, ratio, kind, qA, y, phi, aspectA, aspectB, [k, turn, back], lone, [ou, om]) => {
          const r = 2 ** e;
          const hA = r * aspectA;
          // A's side point at height y·hA and angle phi, with its outward normal (A's local frame).
          let p: V;
          let nl: V;
          const radial: V = [Math.cos(phi), 0, Math.sin(phi)];
          if (kind === "cone") {
            // Apex at +y: radius r·(hA − y)/(2·hA) at height y; the side's normal leans up.
            const yy = y * hA;
            p = add([0, yy, 0], scale(radial, (r * (hA - yy)) / (2 * hA)));
            nl = unit(add(scale(radial, 2 * hA), [0, r, 0]));
          } else if (kind === "cylinder") {
            p = add([0, y * hA, 0], scale(radial, r));
            nl = radial;
          } else {
            p = add([0, y * hA, 0], scale(radial, r));
            nl = radial;
          }
          const A: J =
            kind === "capsule"
              ? {
                  type: "capsule",
                  a: rotate(qA, [0, -hA, 0]),
                  b: rotate(qA, [0, hA, 0]),
                  radius: r,
                }
              : { type: kind, center: [0, 0, 0], halfHeight: hA, radius: r, rotation: qA };
          const pw = rotate(qA, p);
          const n = rotate(qA, nl);
          // B: a cone whose apex is at pw, its body outside A: its axis leans from the normal
          // toward A's circumferential direction (within `turn`), where A's side curves away, by
          // 1 − 2^-k of what keeps its side off A's tangent plane (90° less its half-angle
          // atan(rB/(2hB))): near 1 its side grazes A and the apex's normals are nearly one.
          const rB = r * 2 ** ratio;
          const hB = rB * aspectB;
          const half = Math.atan(rB / (2 * hB));
          const lean = (1 - 2 ** -k) * (Math.PI / 2 - half);
          const t1 = rotate(qA, [-Math.sin(phi), 0, Math.cos(phi)]);
          const t2 = cross(n, t1);
          const sweep = (back ? Math.PI : 0) + turn;
          const away = add(
            scale(n, Math.cos(lean)),
            add(
              scale(t1, Math.sin(lean) * Math.cos(sweep)),
              scale(t2, Math.sin(lean) * Math.sin(sweep)),
            ),
          );
          // B's +y (centre to apex) points back at A.
          const qB = quatYTo(scale(away, -1));
          const B: J = {
            type: "cone",
            center: add(pw, scale(away, hB)),
            halfHeight: hB,
            radius: rB,
            rotation: qB,
          };
          const o = exactOffset(ou, Math.min(1e9, om * Math.max(r, rB) * 1e4));
          const ops = { ops: ["intersects", "distance", "contact"] };
          expectPassesBothOrders(A, B, o, `${kind}-cone`, ops);
          expectPassesBothOrders(
            A,
            inCompound(B, lone, 8 * (r + rB + hA + hB)),
            o,
            `${kind}-compound`,
            ops,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("property: a hull's vertex apart from a cylinder's rim by 4 to 2^20 times the bar's rounding term: apart, the gap's bars, sizes 2^-20..2^20, ratios to 2^-12, offsets to 1e9", () => {
    const unitD = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -12, max: 12 }),
        fc.double({ min: 0.3, max: 3, noNaN: true }),
        quatArb,
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0.02, max: Math.PI / 2 - 0.02, noNaN: true }),
        fc.boolean(),
        fc.array(fc.tuple(unitD, unitD, unitD), { maxLength: 8 }),
        fc.integer({ min: 2, max: 20 }),
        offsetArb,
        (e, ratio, aspect, qA, phi, alpha, top, cloud, j, [ou, om]) => {
          const r = 2 ** e;
          const h = r * aspect;
          const ey = top ? 1 : -1;
          const radial: V = [Math.cos(phi), 0, Math.sin(phi)];
          // The rim point and a direction of its normal cone (between the side's and the cap's).
          const rim = rotate(qA, add(scale(radial, r), [0, ey * h, 0]));
          const m = rotate(qA, add(scale(radial, Math.cos(alpha)), [0, ey * Math.sin(alpha), 0]));
          const sB = r * 2 ** ratio;
          const L = Math.max(r, h, sB) + norm(rim);
          const gap = 64 * EPS * L * 2 ** j;
          // The hull: its vertex `gap` out along m from the rim point, the rest beyond the plane
          // through it normal to m (its unique support along −m), so the distance is the gap.
          const v = add(rim, scale(m, gap));
          const corners: V[] = [
            [1, 1, 1],
            [-1, -1, 1],
            [-1, 1, -1],
            [1, -1, -1],
          ];
          const points = [
            v,
            ...[...corners, ...cloud].map((u) => {
              const w = u as V;
              const along = dot(w, m);
              return add(v, scale(add(scale(m, 0.2 + Math.abs(along) - along), w), sB));
            }),
          ];
          const A: J = {
            type: "cylinder",
            center: [0, 0, 0],
            halfHeight: h,
            radius: r,
            rotation: qA,
          };
          const B: J = { type: "convex", points };
          const o = exactOffset(ou, Math.min(1e9, om * Math.max(r, sB) * 1e4));
          for (const [a, b] of [
            [A, B],
            [B, A],
          ]) {
            // Apart by the gap less the rounding of the hull's points (a few ulps of L).
            const sc = { ...offsetScenario(a, b, o), mode: "exact-apart", apart: gap / 2 };
            expectReplayPasses(sc, "cylinder-convex", {
              ops: ["intersects", "distance", "contact"],
            });
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
