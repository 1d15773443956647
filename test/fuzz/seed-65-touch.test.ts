/**
 * Regression of issue 16 from the fuzzer at 10^6 queries, seed 65 (main f299a9b, the facing bar
 * a default check): a cylinder touching a cone (1.8e-13 deep at size 1e-2) and a cylinder touching
 * a hull (5.5e-18 deep at size 3e-5), `contact`'s witnesses apart sideways across the normal
 * (1.4e-11 over a bar of 2e-16; 3.4e-15 over 4.5e-16), and the cone pair's manifold alike. The
 * normal lay on the boundary of a point's cone of normals — the cone's side normal at its apex, a
 * hull's edge normal at its vertex — so the support points along it were the apex or the vertex,
 * while the shapes touch where the generator or the edge from it crosses the cylinder's rim; the
 * alternating projections of `faceWitnesses` crawl there, and its fallback's pairs were off
 * facing by more than it allows. Now the nearest points of the touching features (generators,
 * rims, a polytope's edge: `featurePairWitnesses` in src/narrowphase/convex-convex.ts), each
 * with the other shape's point opposite it: 1.4e-11 → 2e-19 and 3.4e-15 → 0 sideways.
 *
 * Oracle: the fuzzer's checks (replayScenario, with and without the facing bar: depth against its
 * independent oracle, points on their shapes, pointB − pointA along the normal). A fast-check
 * property generates the class: a cylinder against a cone, a box or a hull (a box's corners),
 * placed along a normal at the boundary of the other's point features (the cone's side normal at
 * a random azimuth, an edge's normal between its two faces) or the cylinder's side normal, or a
 * random one, from the test's own support functions (h_A(d) + h_B(−d)), touching or within
 * ±1e-13 of the lesser size, sizes 1e-6..1e6 mixed, offsets up to 1e9, both orders.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { angleArb, fractionTripleArb, offsetArb, rotationArb } from "./arbitraries.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { norm, rotate, scale, unrotate, type V } from "./oracle-shapes.js";
import { expectReplayPasses, loadCases } from "./recorded-cases.js";

type J = Record<string, unknown>;

describe("seed 65: a cylinder's rim touching a cone's generator or a hull's edge, witnesses facing", () => {
  const cases = loadCases("./seed-65-touch.cases.json");
  for (const c of cases)
    it(`${c.pair} ${c.op} (was: ${c.was})`, () => {
      expectReplayPasses(c.scenario, c.pair, { facing: false });
      expectReplayPasses(c.scenario, c.pair, { facing: true });
    });
});

/**
 * B's point feature at the boundary of its cone of normals, in B's local frame: [its outward
 * normal there, the point, the unit direction of the generator or edge leaving it along which the
 * normal stays B's] — a cone's apex with its side normal at azimuth φ and the generator there, or a
 * box's corner with the normal of its edge along `axis` (turned by θ from one face, signs from
 * φ) and that edge.
 */
function pointFeature(type: string, b: J, phi: number, theta: number, axis: number): [V, V, V] {
  if (type === "cone") {
    const h = b.halfHeight as number;
    const r = b.radius as number;
    const n: V = [2 * h * Math.cos(phi), r, 2 * h * Math.sin(phi)];
    const g: V = [r * Math.cos(phi), -2 * h, r * Math.sin(phi)];
    return [scale(n, 1 / norm(n)), [0, h, 0], scale(g, 1 / norm(g))];
  }
  const he = (b.type === "box" ? b.halfExtents : b.extents) as V;
  const s1 = Math.cos(phi) < 0 ? -1 : 1;
  const s2 = Math.sin(phi) < 0 ? -1 : 1;
  const n: V = [0, 0, 0];
  const v: V = [0, 0, 0];
  const e: V = [0, 0, 0];
  const i = (axis + 1) % 3;
  const j = (axis + 2) % 3;
  n[i] = s1 * Math.cos(theta);
  n[j] = s2 * Math.sin(theta);
  v[i] = s1 * he[i];
  v[j] = s2 * he[j];
  v[axis] = he[axis];
  e[axis] = -1;
  return [n, v, e];
}

/** The cylinder's (JSON, at the origin) support point along unit d: its rim point there. */
function cylinderSupport(a: J, d: V): V {
  const l = unrotate(a.rotation as number[], d);
  const h = a.halfHeight as number;
  const r = a.radius as number;
  const rho = Math.hypot(l[0], l[2]);
  return rotate(a.rotation as number[], [(r * l[0]) / rho, l[1] < 0 ? -h : h, (r * l[2]) / rho]);
}

for (const otherType of ["cone", "box", "convex"]) {
  const pair = `cylinder-${otherType}`;
  describe(`property: ${pair}, a cylinder's rim touching the other's apex or corner along its generator or edge, witnesses facing`, () => {
    it("sizes 1e-6..1e6 mixed, the crossing 0 to 2^-8 of the size from the point, touching ±1e-13 relative, offsets to 1e9, both orders", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: -6, max: 6 }),
          fc.integer({ min: -4, max: 4 }),
          fractionTripleArb,
          fractionTripleArb,
          rotationArb,
          rotationArb,
          angleArb,
          fc.double({ min: 0.05, max: 1.5, noNaN: true }),
          fc.integer({ min: 0, max: 2 }),
          fc.constantFrom(0, 2 ** -40, 2 ** -30, 2 ** -20, 2 ** -8),
          fc.constantFrom(-1e-13, -3e-14, 0, 0, 3e-14, 1e-13),
          offsetArb,
          (e, k, da, db, qa, qb, phi, theta, axis, along, depth, [ou, om]) => {
            const sa = 10 ** e;
            const sb = Math.min(1e6, Math.max(1e-6, sa * 2 ** k));
            const a: J = {
              type: "cylinder",
              center: [0, 0, 0],
              halfHeight: sa * da[0],
              radius: sa * da[1],
              rotation: qa,
            };
            const b0: J =
              otherType === "cone"
                ? { type: "cone", halfHeight: sb * db[0], radius: sb * db[1] }
                : otherType === "box"
                  ? { type: "box", halfExtents: scale(db as V, sb) }
                  : { type: "convex", extents: scale(db as V, sb) };
            // d, from A toward B: B's outward normal at its point feature is −d.
            const [nl, vl, gl] = pointFeature(otherType, b0, phi, theta, axis);
            const d = scale(rotate(qb, nl), -1);
            const q = cylinderSupport(a, d);
            // B's point `along` of the lesser size back from the rim's point along its generator
            // or edge (across the normal: the supporting planes still meet there), then moved
            // `signed` along −d (into A when positive).
            const signed = depth * Math.min(sa, sb);
            const s = along * Math.min(sa, sb);
            const g = rotate(qb, gl);
            const v = rotate(qb, vl);
            const c: V = [0, 1, 2].map((i) => q[i] - s * g[i] - v[i] - signed * d[i]) as V;
            const b: J =
              otherType === "cone"
                ? { ...b0, center: c, rotation: qb }
                : otherType === "box"
                  ? { ...b0, center: c, rotation: qb }
                  : {
                      type: "convex",
                      points: [-1, 1].flatMap((x) =>
                        [-1, 1].flatMap((y) =>
                          [-1, 1].map((z) => [x * db[0] * sb, y * db[1] * sb, z * db[2] * sb]),
                        ),
                      ),
                      position: c,
                      rotation: qb,
                    };
            const offset = exactOffset(ou, Math.min(1e9, om * Math.max(sa, sb) * 1e4));
            for (const sc of [offsetScenario(a, b, offset), offsetScenario(b, a, offset)]) {
              // Apart: a prediction that reaches them, so that contact answers.
              if (signed < 0) sc.prediction = -2 * signed;
              expectReplayPasses(sc, pair, { ops: ["contact", "manifold"], facing: true });
            }
          },
        ),
        // The hull's oracle is the slow one.
        { numRuns: otherType === "convex" ? 40 : 150 },
      );
    });
  });
}
