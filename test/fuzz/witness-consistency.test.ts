/**
 * Regression inputs of issue 16, "the normal achieves the depth; witnesses consistent with it"
 * (the fuzzer at 10^5 queries, seed 19, main 930b32e): a compound's cylinder whose rim pokes into
 * a cone's slant, where `featureWitnesses` (src/narrowphase/convex-convex.ts) placed the
 * witnesses facing each other between the cone's slant generator and the cylinder, with the
 * normal up to 2^-36 off the slant's and a gap tolerance of 2^-40 of the feature's size: tilted,
 * the generator's ends differ in height by the tilt times its length, and (pB − pA)·n missed the
 * reported distance by 3e-7 against a bar of 8.2e-8 (a cone of 3.4e5 at 2e7; the same, 1.1e-15
 * against 2.9e-16, at size 1e-3). Fixed: the normal taken onto the feature's own normal where the
 * overlap along it is no worse, and the tolerance relative to the witnesses' magnitude.
 *
 * Each recorded scenario (feature-tilt.cases.json) is replayed through the fuzzer's own checks
 * (test/fuzz/fuzz.ts, against its independent oracle test/fuzz/oracle-*.ts at the bars of
 * docs/FORMATS.md) and must pass every op; a fast-check property places a cylinder's rim (bare or
 * in a compound) just into a cone's slant at any scale and offset and checks the answer against
 * the oracle: the depth the rim's penetration, achieved along the normal, and (pB − pA)·n the
 * distance.
 *
 * Also seeds 20 and 21 (seat-plane.cases.json): `seatWitnesses` took a witness lying off its shape
 * to the shape's nearest point, which beside a hull's edge or a box's corner lies on the next
 * face, below the witness's supporting plane: (pB − pA)·n missed the depth by 3.5e-3 at depth 11
 * (a cylinder in a hull of 5e4), 1.4e-6 at depth 8e-6 (at 5e7 from the origin), 2e-5 at depth
 * 4.7e-7 (a cylinder of 6e-3 against a hull of 1e5) and 1.25e-7 at depth 4e-5 (a box against a
 * cone). Fixed: the nearest point taken back onto the supporting plane and the shape in turn,
 * into their common face, else the support point. The sixth (seed 21, cone–mesh manifold) guards
 * the plane's tolerance: taken after the projection it left a manifold point 1.8e-5 deeper than
 * the contact.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import { quatArb } from "./arbitraries.js";
import { overlapPieces, surfaceDistance } from "./oracle-pairs.js";
import { add, dot, norm, oshape, rotate, scale, sub, type V } from "./oracle-shapes.js";
import { loadCases, replayCases } from "./recorded-cases.js";

const EPS = 2 ** -52;
const ulp = (p: V) => 2 ** (Math.floor(Math.log2(Math.max(...p.map(Math.abs)) || 1)) - 52);

const conj = (q: number[]) => [-q[0], -q[1], -q[2], q[3]];

const CASES = loadCases("./feature-tilt.cases.json");
const SEAT_CASES = loadCases("./seat-plane.cases.json");

describe("issue 16: a cylinder's rim under a cone's slant (fuzzer seed 19)", () => {
  replayCases(CASES, 2);

  it("the cone of 3.4e5 at 2e7: (pB − pA)·n the distance to 8 ulps, the normal achieving the depth", () => {
    const sc = CASES[1].scenario;
    const A = oshape(sc.localA);
    const B = oshape(sc.localB);
    const o = sc.offset as V;
    const r = answerQuery({ op: "contact", a: sc.worldA, b: sc.worldB }) as ContactJson;
    const L = Math.max(A.radius, B.radius, norm(sub(A.center, B.center)));
    const bar = 1e-6 * -r.distance + 64 * EPS * L;
    // The oracle's overlap along the answer's normal (an upper bound on the depth it claims).
    const along = overlapPieces(A.pieces[0], B.pieces[0], r.normal);
    expect(Math.abs(along + r.distance)).toBeLessThanOrEqual(bar);
    expect(Math.abs(dot(sub(r.pointB, r.pointA), r.normal) - r.distance)).toBeLessThanOrEqual(
      8 * ulp(r.pointA),
    );
    expect(surfaceDistance(A, sub(r.pointA, o))).toBeLessThanOrEqual(bar + 4 * ulp(r.pointA));
    expect(surfaceDistance(B, sub(r.pointB, o))).toBeLessThanOrEqual(bar + 4 * ulp(r.pointB));
  });
});

describe("issue 16: seated witnesses stay on their supporting planes (fuzzer seeds 20, 21, 24)", () => {
  replayCases(SEAT_CASES, 6);
});

describe("property of the class", () => {
  it("a cylinder's rim just into a cone's slant, any scale, offset and pose: depth, normal and witnesses consistent", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 5 }),
        fc.double({ min: -100, max: 100, noNaN: true }),
        quatArb,
        quatArb,
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0.25, max: 0.75, noNaN: true }),
        fc.double({ min: 0.2, max: 2, noNaN: true }),
        fc.double({ min: 0.05, max: 0.4, noNaN: true }),
        fc.boolean(),
        (e, off, qB, qA, phi, t, coneShape, cylSize, compound) => {
          const s = 10 ** e;
          const h = s;
          const rad = coneShape * s;
          const cB: V = [off * s, -off * s * 0.5, off * s * 0.25];
          // The cone's slant: apex (0, h, 0), rim radius rad at y = −h; its outward normal at
          // azimuth phi and a point on its generator there, at fraction t from the apex.
          const len = Math.hypot(2 * h, rad);
          const nLocal: V = [
            (Math.cos(phi) * 2 * h) / len,
            rad / len,
            (Math.sin(phi) * 2 * h) / len,
          ];
          const xLocal: V = [Math.cos(phi) * rad * t, h - 2 * h * t, Math.sin(phi) * rad * t];
          const nOut = rotate(qB, nLocal);
          const x = add(cB, rotate(qB, xLocal));
          // The cylinder: its support along −nOut (into the cone) placed at x, δ deep.
          const ch = cylSize * s;
          const cr = cylSize * 0.7 * s;
          const d = rotate(conj(qA), scale(nOut, -1));
          const rho = Math.hypot(d[0], d[2]);
          if (!(rho > 1e-3) || Math.abs(d[1]) < 1e-3) return;
          const supLocal: V = [(cr * d[0]) / rho, d[1] > 0 ? ch : -ch, (cr * d[2]) / rho];
          const delta = 2 ** -30 * s;
          const cA = sub(add(x, scale(nOut, -delta)), rotate(qA, supLocal));
          const cyl = { type: "cylinder", center: cA, halfHeight: ch, radius: cr, rotation: qA };
          const a = compound
            ? {
                type: "compound",
                children: [{ shape: { ...cyl, center: [0, 0, 0] }, position: cA }],
              }
            : cyl;
          const b = { type: "cone", center: cB, halfHeight: h, radius: rad, rotation: qB };
          const r = answerQuery({ op: "contact", a, b }) as ContactJson | null;
          expect(r).not.toBeNull();
          const c = r as ContactJson;
          const A = oshape(a);
          const B = oshape(b);
          const L = Math.max(A.radius, B.radius, norm(sub(A.center, B.center)));
          const tolAmb = 64 * EPS * L;
          // The rim point δ into the slant: the depth δ (the slant's curvature moves it by
          // δ²/R, far below the bar).
          const bar = 1e-6 * delta + tolAmb;
          expect(Math.abs(-c.distance - delta)).toBeLessThanOrEqual(bar);
          // The oracle's overlap, evaluated at the world coordinates: their rounding besides.
          const along = overlapPieces(A.pieces[0], B.pieces[0], c.normal);
          expect(Math.abs(along + c.distance)).toBeLessThanOrEqual(bar + 8 * ulp(cB));
          expect(Math.abs(dot(sub(c.pointB, c.pointA), c.normal) - c.distance)).toBeLessThanOrEqual(
            bar + 8 * ulp(c.pointA),
          );
          expect(surfaceDistance(A, c.pointA)).toBeLessThanOrEqual(bar + 4 * ulp(c.pointA));
          expect(surfaceDistance(B, c.pointB)).toBeLessThanOrEqual(bar + 4 * ulp(c.pointB));
        },
      ),
      { numRuns: 300, seed: 19 },
    );
  });
});
