/**
 * Regressions of issue 16 from the fuzzer at 10^5 queries, seeds 53 and 60 (mesh–compound), and
 * a fast-check property per class, replayed through the fuzzer's checks (its independent oracle,
 * the bars of docs/FORMATS.md):
 *
 * - Seed 53, `distance`: a compound's box of 1e-5 touching the edge of an open mesh's triangle of
 *   9e3 (2.9e-12 apart, the mesh 3e4 from the origin). The part's routine called the pair
 *   touching within its rounding band (distance 0), but `intersects`' walk of the two trees
 *   dropped the part pair by boxes a few ulps apart, so `distance` took the disagreement for a
 *   gap and answered the spread of the penetration witnesses, 3.9e-8. Fixed in
 *   src/narrowphase/composite.ts: the two trees' boxes are padded by the rounding pad of the
 *   one-tree candidate boxes (`WORLD_AABB_ROUNDING_PAD` of the coordinates).
 * - Seed 60, `contact` (with and without prediction): a closed box mesh of 1.2e6 whose bottom
 *   edge a compound's cylinder touched with its side (6e-3 rad from the bottom face), its rim
 *   crossing the edge 6e-10 deep. The touch's alternating projections (the part-first triangle
 *   against the cylinder) stalled 1.2e-5 along the edge, 4.7e-7 off the mesh, and
 *   the polish's feature starts skipped the edge (a simplex of two) and took GJK's witnesses of
 *   an edge that crosses the cylinder. Fixed in src/narrowphase/convex-convex.ts
 *   (`faceFeatureStarts`): the polytope point's edge or corner is tried too, and an edge crossing
 *   the curved shape gives its point deepest in it (golden-section search of the signed distance).
 *
 * Properties: (1) a box of 2^-10..2^-30 of a rotated open or closed box mesh, in a compound,
 * touched against it by the oracle at sizes 2^-20..2^20 and offsets to 2^30, also answered as
 * the bare box (intersects, distance 0 exactly then); (2) a cylinder's side tangent to a box
 * mesh's edge (0.001..0.05 rad from the face), its rim at the contact, crossing by −2..16 ulps,
 * bare and in a compound, at cylinder sizes down to 2^-24 of the mesh. Both orders. (Each
 * property fails on the code before the fixes: the first at its first runs, the second at
 * about 1 % of them.)
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { boxMeshJson } from "../support/box-mesh.js";
import { quatMul, rotateVec } from "../support/quat.js";
import { quatArb } from "./arbitraries.js";
import { replayScenario, touchDisplacement } from "./fuzz.js";
import { offsetScenario, translateShape } from "./generate.js";
import { loadCases, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;
type V = [number, number, number];
type Q = [number, number, number, number];
type Hit = { intersects: boolean };
type Gap = { distance: number };

const EPS = 2 ** -52;

function unitOf(v: number[]): V {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}

/** A double uniform in [lo, hi] (fast-check's doubles crowd the ends and the small magnitudes). */
const uniform = (lo: number, hi: number) =>
  fc.integer({ min: 0, max: 2 ** 30 }).map((i) => lo + ((hi - lo) * i) / 2 ** 30);
const unit = fc.double({ min: -1, max: 1, noNaN: true });
const quat = quatArb as fc.Arbitrary<Q>;

/** Both orders of the pair through the fuzzer's checks of `ops`; the failures, named. */
function failuresOf(a: J, b: J, pair: string, offset: number[], ops: string[]): string[] {
  const [ta, tb] = pair.split("-");
  const out: string[] = [];
  for (const [sc, name] of [
    [offsetScenario(a, b, offset), pair],
    [offsetScenario(b, a, offset), `${tb}-${ta}`],
  ] as const) {
    for (const f of replayScenario(sc, name, { ops })) out.push(`${name} ${f.op}: ${f.reason}`);
  }
  return out;
}

describe("issue 16, mesh against compound (seeds 53, 60)", () => {
  replayCases(loadCases("./mesh-compound.cases.json"), 3);

  it("property: a tiny box in a compound touched against a mesh, as the bare box, ratios to 2^30", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 10, max: 30 }),
        fc.tuple(
          fc.double({ min: 0.2, max: 1, noNaN: true }),
          fc.double({ min: 0.2, max: 1, noNaN: true }),
          fc.double({ min: 0.2, max: 1, noNaN: true }),
        ),
        fc.boolean(),
        fc.option(quat, { nil: undefined }),
        fc.tuple(quat, quat),
        fc.tuple(unit, unit, unit, unit),
        fc.integer({ min: -2, max: 12 }),
        (e, ratio, hs, open, qMesh, [qComp, qBox], [wy, wz, dy, dz], offK) => {
          const L = 2 ** e;
          const s = L * 2 ** -ratio;
          const h = hs.map((c) => c * L) as V;
          const qm = qMesh ?? ([0, 0, 0, 1] as Q);
          const mesh: J = { ...boxMeshJson(h, [0, 0, 0], open), rotation: qm };
          // A point of the −x face (kept by the open mesh), on its edges often (the clamps).
          const clamp = (c: number) => Math.max(-1, Math.min(1, 1.5 * c));
          const p = rotateVec(qm, [-h[0], clamp(wy) * h[1], clamp(wz) * h[2]]);
          // Out of the face, tilted toward its edges.
          const d = rotateVec(qm, unitOf([-1, dy, dz]));
          const childAt: V = [0.1 * s, -0.2 * s, 0.3 * s];
          const half = [0.6 * s, s, 0.8 * s];
          let box: J = {
            type: "compound",
            children: [
              {
                shape: { type: "box", center: [0, 0, 0], halfExtents: half },
                position: childAt,
                rotation: qBox,
              },
            ],
            position: p.map((c, i) => c + 4 * s * d[i]),
            rotation: qComp,
          };
          for (let i = 0; i < 2; i++) {
            const t = touchDisplacement(mesh, box);
            if (t) box = translateShape(box, t);
          }
          // The oracle's checks, offsets from the pair's size up to 2^30.
          const oe = Math.min(30, e + offK);
          const o = [2 ** oe, -(2 ** oe), 2 ** (oe - 1)];
          expect(
            failuresOf(mesh, box, "mesh-compound", o, ["intersects", "distance", "contact"]),
          ).toEqual([]);
          // And the compound answers as its one child does bare (the one-tree path): the same
          // touching verdict, distance 0 exactly then, the same distance to its bar otherwise.
          const c = rotateVec(qComp, childAt);
          const bare: J = {
            type: "box",
            center: (box.position as number[]).map((x, i) => x + c[i]),
            halfExtents: half,
            rotation: quatMul(qComp, qBox),
          };
          const hit = (b: J) => (answerQuery({ op: "intersects", a: mesh, b }) as Hit).intersects;
          const gap = (b: J) => (answerQuery({ op: "distance", a: mesh, b }) as Gap).distance;
          const [h1, h2, d1, d2] = [hit(box), hit(bare), gap(box), gap(bare)];
          expect(h1).toBe(h2);
          expect(d1 === 0).toBe(h1);
          expect(Math.abs(d1 - d2)).toBeLessThanOrEqual(1e-9 * s + 64 * EPS * L);
        },
      ),
      { numRuns: 60, seed: 53 },
    );
  });

  it("property: a cylinder's side on a box mesh's edge, its rim at the contact, bare and in a compound", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 0, max: 24 }),
        fc.tuple(uniform(0.2, 1), uniform(0.2, 1), uniform(0.2, 1)),
        uniform(0.001, 0.05),
        uniform(0.2, 1.4),
        fc.tuple(uniform(-0.8, 0.8), uniform(0.3, 1.5), uniform(-2, 16)),
        fc.boolean(),
        fc.integer({ min: -2, max: 12 }),
        (e, ratio, hs, alpha, beta, [y, aspect, ulps], inCompound, offK) => {
          const L = 2 ** e;
          const h = hs.map((c) => c * L) as V;
          const R = L * 2 ** -ratio * 0.1;
          const H = R * aspect;
          const mesh: J = boxMeshJson(h, [0, 0, 0]);
          // The contact P on the bottom edge x = +hx, z = −hz, along n (the edge's outward
          // normal tilted by α from −z toward +x): the cylinder's side tangent to the edge there,
          // its axis a ⊥ n at β from the edge, P on the rim of its −a cap, the side dipping away
          // from the bottom face by α, the pair crossing by a few ulps of the mesh (`ulps`).
          const P: V = [h[0], y * h[1], -h[2]];
          const n = [Math.sin(alpha), 0, -Math.cos(alpha)];
          const t = [Math.cos(alpha), 0, Math.sin(alpha)];
          const a = [0, 1, 2].map((i) => (i === 1 ? Math.cos(beta) : 0) + Math.sin(beta) * t[i]);
          const depth = ulps * EPS * Math.max(...h);
          const centre = P.map((c, i) => c + (R - depth) * n[i] + H * a[i]);
          // The rotation taking the cylinder's axis (+y) to a.
          const q = [a[2], 0, -a[0], 1 + a[1]];
          const qn = Math.hypot(...q);
          const rotation = q.map((c) => c / qn) as Q;
          const cylinder: J = { type: "cylinder", center: [0, 0, 0], halfHeight: H, radius: R };
          const b: J = inCompound
            ? {
                type: "compound",
                children: [{ shape: cylinder, position: [0, 0, 0], rotation }],
                position: centre,
              }
            : { ...cylinder, center: centre, rotation };
          const oe = Math.min(30, e + offK);
          const o = [2 ** oe, 2 ** (oe - 2), -(2 ** oe)];
          const pair = inCompound ? "mesh-compound" : "mesh-cylinder";
          expect(failuresOf(mesh, b, pair, o, ["intersects", "distance", "contact"])).toEqual([]);
        },
      ),
      { numRuns: 300, seed: 60 },
    );
  });
});
