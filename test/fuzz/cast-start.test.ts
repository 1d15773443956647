/**
 * Regression inputs of issue 16, castShapes "toi after the shapes meet" (the fuzzer at 10^5
 * queries, seeds 21, 28 and 29, main 95781cd), replayed from cast-start.cases.json through the
 * fuzzer's own checks (test/fuzz/fuzz.ts, its independent oracle test/fuzz/oracle-*.ts, the bars
 * of docs/FORMATS.md):
 *
 * - seed 21 (a real late toi): a cylinder of 5e-6 cast 2,547 to a mesh face ended 4.7e-7 inside
 *   it. Conservative advancement stepped by the contact routine's gap over μ, and that gap is
 *   accurate only to its relative bar (about 1e-9·d for GJK): from a far start one Newton step
 *   overshot the contact by 1e-9·2,547. Fixed: the step's gap is the separation along the normal
 *   from the support functions, a true lower bound (src/query/cast-shapes.ts, `advance`).
 * - seeds 28 and 29 (the oracle): a sphere inside a closed surface box, 1e-12 (2.7e-12) from a
 *   face at coordinates 1e4, the face moving away. `intersects` calls them apart (within its
 *   bar), so the cast answers the next meeting (the far face at 0.474, 0.430). The oracle had
 *   taken the closing speed from its witnesses 1e-12 apart at 1e4 (noise, pointing the other
 *   way) and called the answer late by 5,460 and 3,440. Fixed in the oracle: the closing
 *   direction from well-conditioned geometry (`nearClosing`, test/fuzz/oracle-pairs.ts), and
 *   the touching pieces that open dropped from its advancement.
 *
 * - cylinder-crossing.gen.ts's flat mode at fast-check seed 2, draw 1344 (the oracle): a
 *   compound's cylinder touching a cylinder within the ambiguity, without motion; the cast
 *   answered toi 0 (`intersects` true), the oracle's advancement, certified apart by less than
 *   the ambiguity, stepped by gap/0 to t = Infinity and its bar was (t − toi)·0 = NaN. Fixed in
 *   the oracle: no travel without motion.
 *
 * Hand-derived: the three times of impact from the box's face planes. A fast-check property
 * casts a sphere, a box or a cylinder that starts touching, just apart or just overlapping a face
 * (a surface box from inside and outside, a compound's box child, a flat heightfield), at sizes
 * 1e-6..1e6 and offsets up to 1e9, approaching or separating, against the face planes (the
 * times in closed form) and dense sampling of the oracle's certified distance along the motion.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { boxMeshJson } from "../support/box-mesh.js";
import { cubePointArb, quatArb } from "./arbitraries.js";
import { castLine } from "./fuzz.js";
import { pairTruth } from "./oracle-pairs.js";
import { dot, norm, oshape, rotate, sub, unrotate, type V } from "./oracle-shapes.js";
import { loadCases, replayCases } from "./recorded-cases.js";

type Json = Record<string, unknown>;
type Hit = { toi: number; normal: V; pointA: V; pointB: V } | null;

const EPS = 2 ** -52;
const CASES = loadCases("./cast-start.cases.json");

/** The box mesh of half extents h (test/support/box-mesh.ts, the fuzzer's) at `position`, turned. */
const boxMesh = (h: V, position: V, rotation: number[]): Json => ({
  ...boxMeshJson(h, position),
  rotation,
});

describe("issue 16: castShapes from a start within rounding (fuzzer seeds 21, 28, 29)", () => {
  replayCases(CASES, 4);

  it("seed 21: the cylinder meets face x = +h of the mesh when its extent along the normal closes the gap", () => {
    const line = castLine(CASES[0].scenario);
    const a = line.a as { halfHeight: number; radius: number };
    const b = line.b as { vertices: V[]; rotation: number[] };
    const m = rotate(b.rotation, [1, 0, 0]); // the face's outward normal (world)
    // The cylinder (axis y, at the origin at time 0) reaches m·x = h along m by its extent.
    const extent = a.halfHeight * Math.abs(m[1]) + a.radius * Math.hypot(m[0], m[2]);
    const h = b.vertices[7][0];
    const w = sub(line.velocityA as V, line.velocityB as V);
    const expected = (h - extent) / dot(m, w);
    const r = answerQuery(line) as Hit;
    expect(r).not.toBeNull();
    // Within 16 distance bars (s the cylinder's size) over the closing speed.
    const bar = 16 * (1e-9 * a.radius + 64 * EPS * h * 2);
    expect(Math.abs((r as NonNullable<Hit>).toi - expected) * dot(m, w)).toBeLessThan(bar);
  });

  for (const k of [1, 2]) {
    it(`seed ${CASES[k].seed}: the sphere leaves the face it touches and meets the box's far side at the first face-plane time`, () => {
      const sc = CASES[k].scenario;
      const meshIsA = (sc.worldA as Json).type === "mesh";
      const mesh = (meshIsA ? sc.worldA : sc.worldB) as {
        vertices: V[];
        rotation: number[];
        position: V;
      };
      const sphere = (meshIsA ? sc.worldB : sc.worldA) as { center: V; radius: number };
      const vMesh = (meshIsA ? sc.velocityA : sc.velocityB) as V;
      const vSphere = (meshIsA ? sc.velocityB : sc.velocityA) as V;
      const h = mesh.vertices[7];
      // The sphere's centre and velocity in the mesh's frame.
      const c = unrotate(mesh.rotation, sub(sphere.center, mesh.position));
      const u = unrotate(mesh.rotation, sub(vSphere, vMesh));
      let start = Infinity;
      let expected = Infinity;
      for (let i = 0; i < 3; i++) {
        start = Math.min(start, h[i] - sphere.radius - Math.abs(c[i]));
        for (const s of [1, -1]) {
          if (!(s * u[i] > 0)) continue;
          expected = Math.min(expected, (h[i] - sphere.radius - s * c[i]) / (s * u[i]));
        }
      }
      // It starts within the rounding of a face (1e4·2^-52·64) that it leaves.
      expect(Math.abs(start)).toBeLessThan(64 * EPS * 2e4);
      const r = answerQuery(castLine(sc)) as Hit;
      expect(answerQuery({ op: "intersects", a: sc.worldA, b: sc.worldB })).toEqual({
        intersects: false,
      });
      expect(r).not.toBeNull();
      const bar =
        16 * (1e-9 * sphere.radius + 64 * EPS * 2 * norm(h)) + 64 * EPS * norm(u) * expected;
      expect(Math.abs((r as NonNullable<Hit>).toi - expected) * norm(u)).toBeLessThan(bar);
    });
  }
});

/**
 * A small shape of size s at `center` turned by `rotation`, and its half extents along the axes
 * of the frame turned by `frame` (hand-derived: a box's |M|·h, a cylinder's (axis y) hh·|a_k| +
 * r·√(1 − a_k²) for its unit axis a, M the rotation from the shape's frame to that one).
 */
function smallShape(
  kind: string,
  s: number,
  center: V,
  rotation: number[],
  frame: number[],
): { json: Json; e: V } {
  const col = (j: number): V => {
    const x: V = [0, 0, 0];
    x[j] = 1;
    return unrotate(frame, rotate(rotation, x));
  };
  if (kind === "sphere") return { json: { type: "sphere", center, radius: s }, e: [s, s, s] };
  if (kind === "box") {
    const he: V = [s, 0.75 * s, 0.5 * s];
    const c = [col(0), col(1), col(2)];
    const e = [0, 1, 2].map((k) => c.reduce((acc, cj, j) => acc + Math.abs(cj[k]) * he[j], 0));
    return { json: { type: "box", center, halfExtents: he, rotation }, e: e as V };
  }
  const ax = col(1);
  // √(1 − a_k²) as the hypot of the other two components (no cancellation near an axis).
  const e = [0, 1, 2].map(
    (k) => 0.8 * s * Math.abs(ax[k]) + s * Math.hypot(ax[(k + 1) % 3], ax[(k + 2) % 3]),
  );
  return {
    json: { type: "cylinder", center, halfHeight: 0.8 * s, radius: s, rotation },
    e: e as V,
  };
}

const KINDS = ["sphere", "box", "cylinder"] as const;
/** log10 of the target's size over the shape's: any, or the far mixed scales of seed 21 (1e9). */
const LOG_RATIO = fc.oneof(
  fc.double({ min: 0.6, max: 9, noNaN: true }),
  fc.double({ min: 7, max: 9.7, noNaN: true }),
);
const TARGETS = ["mesh-inside", "mesh-inside", "mesh-outside", "compound", "heightfield"] as const;

describe("castShapes from touching, just apart or just overlapping (property)", () => {
  it("toi 0 exactly when intersects; separating: the next face-plane meeting (or none); approaching: at once", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS),
        fc.constantFrom(...TARGETS),
        fc.integer({ min: -6, max: 6 }), // size exponent
        LOG_RATIO,
        quatArb,
        fc.option(quatArb, { nil: null }), // the shape's own rotation (null: the target's)
        cubePointArb,
        fc.double({ min: 0, max: 9, noNaN: true }), // offset exponent
        fc.integer({ min: -16, max: 64 }), // the start gap in ulps of the target's size
        fc.option(fc.double({ min: 0.05, max: 1, noNaN: true }), { nil: null, freq: 2 }), // or far: g/H
        fc.boolean(), // separating
        fc.tuple(
          fc.double({ min: 0.05, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        (kind, target, se, lr, q, qOwn, od, oe, ulps, far, separating, vel) => {
          const qA = qOwn ?? q;
          const s = 10 ** se;
          // Mixed scales (issue 16, seed 21: a cylinder of 5e-6 in a box of 5e3), the box at most 1e7.
          const H = s * Math.max(4, Math.min(10 ** lr, 1e7 / s));
          // Offsets up to 1e9, where the placement's rounding stays below 2^-20 of the shape.
          const oMag = Math.min(10 ** oe, s * 2 ** 32);
          const O = od.map((x) => x * oMag) as V;
          const h: V = [H, 0.8 * H, 0.6 * H];
          const ulp = 2 ** (Math.floor(Math.log2(H)) - 52);
          const g = far === null ? ulps * ulp : far * H;
          // The shape's centre in the target's frame: touching face x = −h (inside) or x = +h
          // (outside, compound) or the plane y = 0 (heightfield), offset g.
          let cLocal: V;
          let b: Json;
          const bPos: V = O;
          const probe = smallShape(kind, s, [0, 0, 0], qA, q);
          const e = probe.e;
          if (target === "mesh-inside") {
            cLocal = [-h[0] + e[0] + g, 0.3 * (h[1] - e[1]), -0.2 * (h[2] - e[2])];
            b = boxMesh(h, O, q);
          } else if (target === "mesh-outside") {
            cLocal = [h[0] + e[0] + g, 0.3 * h[1], -0.2 * h[2]];
            b = boxMesh(h, O, q);
          } else if (target === "compound") {
            cLocal = [h[0] + e[0] + g, 0.3 * h[1], -0.2 * h[2]];
            b = {
              type: "compound",
              position: O,
              rotation: q,
              children: [{ shape: { type: "box", center: [0, 0, 0], halfExtents: h } }],
            };
          } else {
            // A flat 2×2 heightfield spanning [0, 2H] in x and z at height 0; its frame at bPos.
            cLocal = [H, e[1] + g, 0.8 * H];
            b = {
              type: "heightfield",
              rows: 2,
              cols: 2,
              heights: [0, 0, 0, 0],
              scale: [2 * H, 1, 2 * H],
              position: O,
              rotation: q,
            };
          }
          const center = rotate(q, cLocal).map((x, i) => x + bPos[i]) as V;
          const a = smallShape(kind, s, center, qA, q).json;
          // The start as placed: the centre in the target's frame from the rounded world centre
          // (center − O is exact: Sterbenz, or the offset is small).
          const c = unrotate(q, sub(center, bPos));
          // The velocity in the target's frame: a normal part along o, the direction that leaves
          // the start face (+x from face −x inside, +x off face +x outside, +y off the
          // heightfield), and a tangential part.
          // From far, the tangential part is small enough to keep the shape over the face.
          const n = H * vel[0] * (separating ? 1 : -1);
          const o = target === "heightfield" ? 1 : 0;
          const tan = far === null ? 1 : 0.05 * vel[0];
          const u: V =
            o === 1
              ? [0.2 * tan * H * vel[1], n, 0.2 * tan * H * vel[2]]
              : [n, tan * H * vel[1], tan * H * vel[2]];
          const vA = rotate(q, u);
          const maxToi = 100;
          const line = { op: "castShapes", a, velocityA: vA, b, velocityB: [0, 0, 0], maxToi };
          const r = answerQuery(line) as Hit;
          const inter = (answerQuery({ op: "intersects", a, b }) as { intersects: boolean })
            .intersects;
          // The start gap from the face's plane (hand-derived: extents along the axes).
          const start =
            target === "mesh-inside"
              ? c[0] - e[0] + h[0]
              : target === "heightfield"
                ? c[1] - e[1]
                : c[0] - e[0] - h[0];
          const L = Math.max(norm(h), norm(c));
          const amb = 64 * EPS * L;
          const bar = 16 * (1e-9 * s + amb);
          if (inter) {
            expect(r?.toi).toBe(0);
            expect(start).toBeLessThanOrEqual(32 * amb);
            return;
          }
          expect(start).toBeGreaterThanOrEqual(-32 * amb);
          expect(r?.toi).not.toBe(0);
          // The closing speed on the start face.
          const closing = -u[o];
          if (closing > 0) {
            // Approaching: they meet when the shape's extent reaches the face's plane, the start
            // gap over the closing speed (at once from within the rounding), never later.
            expect(r).not.toBeNull();
            const hit = r as NonNullable<Hit>;
            const travel = 64 * EPS * norm(u) * hit.toi;
            expect(Math.abs(hit.toi * closing - Math.max(start, 0))).toBeLessThanOrEqual(
              bar + travel,
            );
            return;
          }
          // Separating: outside a convex set, off a plane, never again; inside the box, the first
          // face plane the shape's extent reaches.
          let expected = Infinity;
          let along = 0;
          if (target === "mesh-inside") {
            for (let i = 0; i < 3; i++)
              for (const sg of [1, -1]) {
                if (!(sg * u[i] > 0)) continue;
                const t = (h[i] - e[i] - sg * c[i]) / (sg * u[i]);
                if (t < expected) {
                  expected = t;
                  along = sg * u[i];
                }
              }
          }
          if (!(expected <= maxToi)) {
            expect(r).toBeNull();
            return;
          }
          expect(r).not.toBeNull();
          const toi = (r as NonNullable<Hit>).toi;
          const travel = 64 * EPS * norm(u) * expected;
          expect(Math.abs(toi - expected) * along).toBeLessThanOrEqual(bar + travel);
          // Dense sampling of the oracle's certified distance: apart all the way from the start's
          // rounding window to the toi (nothing met on the way).
          const A = (j: Json) => oshape(j);
          const B = oshape(b);
          for (let i = 1; i < 16; i++) {
            const t = (toi * i) / 16;
            if (t * along <= 64 * bar) continue;
            const moved = { ...a, center: center.map((x, k) => x + vA[k] * t) };
            const T = pairTruth(A(moved), B, [], false);
            expect(T.lower).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("castShapes from far inside a box mesh (property; the seed-21 family)", () => {
  it("the recorded cylinder at the box's centre, any turn, direction, scale and offset, meets the first face plane its extent reaches", () => {
    const sc = CASES[0].scenario;
    const cyl = sc.worldA as { halfHeight: number; radius: number };
    const h0 = (sc.worldB as { vertices: V[] }).vertices[7];
    fc.assert(
      fc.property(
        fc.integer({ min: -9, max: 3 }), // the scene's scale, a power of two (exact) or ten
        fc.boolean(),
        quatArb,
        quatArb,
        cubePointArb,
        cubePointArb,
        (k, ten, q, qA, od, dir) => {
          if (!(Math.hypot(...dir) > 0.1)) return;
          const f = ten ? 10 ** k : 2 ** (3 * k);
          const s = cyl.radius * f;
          const h = h0.map((x) => x * f) as V;
          const O = od.map((x) => x * Math.min(1e9, s * 2 ** 32)) as V;
          const a = {
            type: "cylinder",
            center: [...O],
            halfHeight: cyl.halfHeight * f,
            radius: s,
            rotation: qA,
          };
          // Its extents along the box's axes (hand-derived, as smallShape's).
          const col = (j: number): V => {
            const x: V = [0, 0, 0];
            x[j] = 1;
            return unrotate(q, rotate(qA, x));
          };
          const ax = col(1);
          const e = [0, 1, 2].map(
            (i) =>
              a.halfHeight * Math.abs(ax[i]) + s * Math.hypot(ax[(i + 1) % 3], ax[(i + 2) % 3]),
          );
          const b = boxMesh(h, O, q);
          const u = dir.map((x) => x * 4000 * f) as V;
          const r = answerQuery({
            op: "castShapes",
            a,
            velocityA: rotate(q, u),
            b,
            velocityB: [0, 0, 0],
            maxToi: 100,
          }) as Hit;
          let expected = Infinity;
          let along = 0;
          for (let i = 0; i < 3; i++)
            for (const sg of [1, -1]) {
              if (!(sg * u[i] > 0)) continue;
              const t = (h[i] - e[i]) / (sg * u[i]);
              if (t < expected) {
                expected = t;
                along = sg * u[i];
              }
            }
          expect(r).not.toBeNull();
          const bar = 16 * (1e-9 * s + 64 * EPS * norm(h)) + 64 * EPS * norm(u) * expected;
          expect(Math.abs((r as NonNullable<Hit>).toi - expected) * along).toBeLessThanOrEqual(bar);
        },
      ),
      { numRuns: 200 },
    );
  });
});
