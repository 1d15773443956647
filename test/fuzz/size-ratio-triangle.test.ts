/**
 * Issue 16, a tiny convex shape by a huge triangle (size ratio up to 1e9), fixed in
 * src/narrowphase/convex-convex.ts: a cone of 1e-3 at 3.8e-4 from the corner of a triangle of
 * 1e6 (a fresh user's line) answered the distance right but its triangle witness 1.9e-4 off the
 * triangle (bar 1.4e-8): GJK's witness blends the triangle's far corners with weights near 1e-10.
 * Fixed: a curved pair's gap whose witness lies off its shape is polished onto both
 * (`gapWitnesses`).
 *
 * The recorded line is replayed through the fuzzer's own checks (test/fuzz/fuzz.ts, against its
 * independent oracles test/fuzz/oracle-*.ts at the bars of docs/FORMATS.md); a fast-check
 * property generates the class (cone, cylinder, box or sphere of 10^-9..10^-3 of a triangle of
 * 1..1e6, near its corner, an edge or its face, at gaps of 1e-3..1 of its size, offsets up to
 * 1e9), and the recorded pair turned, scaled and moved, and replays them the same way: the
 * witnesses on their shapes and |pB − pA| the gap.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { quatMul } from "../support/quat.js";
import { bits21, quatArb } from "./arbitraries.js";
import { replayScenario } from "./fuzz.js";
import { offsetScenario, type Scenario } from "./generate.js";
import { add, cross, dot, oshape, rotate, scale, sub, unit, type V } from "./oracle-shapes.js";

const OPS = ["distance", "contact", "manifold"];

/** The fuzzer's verdicts on the scenario, both orders, on this class's invariants. */
function verdicts(sc: Scenario, pair: string): string[] {
  const flipped = {
    ...sc,
    localA: sc.localB,
    localB: sc.localA,
    worldA: sc.worldB,
    worldB: sc.worldA,
  } as Scenario;
  const [p, q] = pair.split("-");
  return [
    ...replayScenario(sc, pair, { ops: OPS }),
    ...replayScenario(flipped, `${q}-${p}`, { ops: OPS }),
  ]
    .map((f) => `${f.pair} ${f.op}: ${f.reason}`)
    .flatMap((v) => {
      const [head, reasons] = [v.slice(0, v.indexOf(": ") + 2), v.slice(v.indexOf(": ") + 2)];
      return reasons.split("; ").map((r) => head + r);
    })
    .filter((v) => /off its shape|\|pointB − pointA\| ≠ distance|threw/.test(v));
}

const TRIANGLE = {
  type: "triangle",
  a: [609819.9569602272, -666061.9813962715, 67170.49224583659],
  b: [645858.8994839633, 260417.80964538778, -578860.660585871],
  c: [134475.30356945252, -538082.5144048856, 715831.2778991067],
};
const CONE = {
  type: "cone",
  center: [645858.8988613671, 260417.8084440991, -578860.6602898978],
  halfHeight: 0.0008485150903164727,
  radius: 0.0005394627505557333,
  rotation: [-0.3891599148111103, -0.44373648532129767, -0.264376318181696, 0.7627303944931011],
};

/**
 * Signed distance of p from the triangle's plane and its barycentric weights (a, b, c), from
 * corner b (p within 1e-3 of it: w = p − b exact by Sterbenz); doubles round these at 1e-16
 * relative, far below the bar of 1.4e-8 (an independent check, not the library's projection).
 */
function onTriangle(p: number[]): { plane: number; weights: number[] } {
  const b = TRIANGLE.b as V;
  const u = sub(TRIANGLE.a as V, b);
  const v = sub(TRIANGLE.c as V, b);
  const w = sub(p as V, b);
  const n = unit(cross(u, v));
  const uu = dot(u, u);
  const uv = dot(u, v);
  const vv = dot(v, v);
  const wu = dot(w, u);
  const wv = dot(w, v);
  const den = uu * vv - uv * uv;
  const s = (vv * wu - uv * wv) / den;
  const t = (uu * wv - uv * wu) / den;
  return { plane: dot(w, n), weights: [s, 1 - s - t, t] };
}

describe("issue 16: a cone of 1e-3 by a triangle of 1e6 (size ratio 1e9)", () => {
  it("the distance's triangle witness lies on the triangle", () => {
    const r = answerQuery({ op: "distance", a: TRIANGLE, b: CONE }) as {
      distance: number;
      pointA: number[];
    };
    // The bracket by the fuzzer's oracle and an exact rational check: [3.7874821e-4, 3.7874829e-4];
    // the bar 1e-9·d + 64 ε·L (L ≈ 1.6e6) is 2.3e-8.
    expect(r.distance).toBeGreaterThan(3.7874821e-4 - 2.3e-8);
    expect(r.distance).toBeLessThan(3.7874829e-4 + 2.3e-8);
    const { plane, weights } = onTriangle(r.pointA);
    // Off by at most the bar: across the plane, and beyond an edge (weight times its height ≥ 1e6).
    expect(Math.abs(plane)).toBeLessThan(1.4e-8);
    for (const x of weights) expect(x).toBeGreaterThan(-1.4e-14);
  });

  it("the recorded line through the fuzzer's checks, both orders", () => {
    expect(verdicts(offsetScenario(TRIANGLE, CONE, [0, 0, 0]), "triangle-cone")).toEqual([]);
  });
});

const offsetArb = fc
  .tuple(
    fc.integer({ min: 0, max: 9 }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .map(([o, x, y, z]) => scale([x, y, z], 10 ** o).map(bits21) as V);

describe("property of the class", () => {
  it("a tiny cone, cylinder, box or sphere by a huge triangle's corner, edge or face: witnesses on their shapes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 3, max: 9 }),
        fc.constantFrom("cone", "cylinder", "box", "sphere"),
        fc.constantFrom("corner", "edge", "edge by the corner", "face"),
        quatArb,
        quatArb,
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        fc.double({ min: 0.2, max: 1.3, noNaN: true }),
        fc.integer({ min: 0, max: 3 }),
        offsetArb,
        (e, k, type, where, q, qs, f, phi, gapExp, offset) => {
          const S = 10 ** e;
          const s = S / 10 ** k;
          // The triangle (turned by q): corners at the origin, (S, 0, 0) and (0.3 S, 0.9 S, 0).
          const corners: V[] = [
            [0, 0, 0],
            [S, 0, 0],
            [0.3 * S, 0.9 * S, 0],
          ].map((p) => rotate(q, p as V));
          const tri = { type: "triangle", a: corners[0], b: corners[1], c: corners[2] };
          const n = rotate(q, [0, 0, 1]);
          // The contact point P and an outward unit u in its normal cone.
          let P: V;
          let u: V;
          if (where === "face") {
            P = add(scale(corners[1], f * 0.5), scale(corners[2], (1 - f) * 0.4));
            u = n;
          } else if (where !== "corner") {
            // Edge corner0–corner1, outward in the plane −y: along it, or the small shape's size
            // from corner 1 (the recorded line's contact, 7e-4 from the corner of a 1e6 edge).
            P = scale(corners[1], where === "edge" ? f : 1 - (f * s) / S);
            const m = rotate(q, [0, -1, 0]);
            u = unit(add(scale(n, Math.cos(phi)), scale(m, Math.sin(phi))));
          } else {
            // Corner 1: outward along the bisector of its exterior, tilted off the plane.
            P = corners[1];
            const out = unit(sub(scale(corners[1], 2), add(corners[0], corners[2])));
            u = unit(add(scale(n, Math.cos(phi)), scale(out, Math.sin(phi))));
          }
          const dims: Record<string, unknown> =
            type === "cone"
              ? { type, halfHeight: 0.8 * s, radius: 0.5 * s, rotation: qs }
              : type === "cylinder"
                ? { type, halfHeight: 0.6 * s, radius: 0.7 * s, rotation: qs }
                : type === "box"
                  ? { type, halfExtents: [0.5 * s, 0.3 * s, 0.7 * s], rotation: qs }
                  : { type, radius: 0.5 * s };
          // The small shape's support toward the triangle (−u) a gap g beyond P along u.
          const at0 = oshape({ ...dims, center: [0, 0, 0] });
          const g = s * 10 ** -gapExp;
          const center = sub(add(P, scale(u, g)), at0.pieces[0].support(scale(u, -1)));
          const small = { ...dims, center };
          expect(verdicts(offsetScenario(tri, small, offset), `triangle-${type}`)).toEqual([]);
        },
      ),
      { numRuns: 60, seed: 16 },
    );
  });

  it("the recorded cone and triangle turned, scaled (1e-6..1) and moved: witnesses on their shapes", () => {
    // About the triangle's corner b, the cone's offset from it and its sizes scaled alike (size
    // ratio 1e9). Before the fix 5 in 200 random turns of the recorded pair left the triangle's
    // witness 1.9e-4 to 5.2e-4 off it. (The triangle shrunk a further 100 times, a distance 2.7e-7
    // under the pair's |pB − pA| remains, before the fix as after: another class, not covered.)
    const b = TRIANGLE.b as V;
    fc.assert(
      fc.property(quatArb, fc.integer({ min: -6, max: 0 }), offsetArb, (q, e, offset) => {
        const sc = 10 ** e;
        const T = (p: V) => rotate(q, scale(sub(p, b), sc));
        const tri = { ...TRIANGLE, a: T(TRIANGLE.a as V), b: [0, 0, 0], c: T(TRIANGLE.c as V) };
        const cone = {
          ...CONE,
          center: rotate(q, scale(sub(CONE.center as V, b), sc)),
          halfHeight: CONE.halfHeight * sc,
          radius: CONE.radius * sc,
          rotation: quatMul(q, CONE.rotation),
        };
        expect(verdicts(offsetScenario(tri, cone, offset), "triangle-cone")).toEqual([]);
      }),
      { numRuns: 250, seed: 16 },
    );
  });
});
