/**
 * Generator of the class "a cylinder crossing a cylinder or a cone shallowly" (issue 16, the open
 * lines cylinder-compound-facing.jsonl, seed 79): a cylinder A of 10^-3..10^4 at the origin (any
 * rotation) and a cylinder or cone B of 10^-3..10^4 placed against it along a direction n so that
 * B's support along −n lies δ deep along n beyond A's support along n (δ = 0, a touch, or
 * 10^-14..10^-5 of the larger size, at most 0.3 of the smaller): the overlap along n is δ, the least overlap over all
 * normals at most that. The features meeting along n are drawn on each side — a rim (n anywhere
 * in the rim's fan, or 2^-k rad from the cap's or the side's normal), a cap or base face, a side
 * generator — and B is turned about n at any angle, so rims cross, a rim lies along or across a
 * generator, a cap meets a rim. Either shape may be a compound's turned child (the compound's
 * pose and the child's both turned, the child up to 4 sizes from the compound's origin, as the
 * seed-79 line's cylinder of 1.1e3 at 1.3e3), and the pair is moved by an offset up to 1e9.
 *
 * The construction, in the local frame: A's support p_A along n and B's along −n in its own
 * frame, in closed form (`curvedSupport`, not the library's), B's centre p_A − δ·n − q_B·s_B.
 * A compound's child gets the rotation conj(R·r_c)·q and the compound the position c − R·p_c, so
 * the world shape is the drawn one to rounding; the JSON is the truth the fuzzer's oracle reads.
 */
import fc from "fast-check";
import { quatMul, rotateVec } from "../support/quat.js";
import { offsetArb, quatArb } from "./arbitraries.js";
import { exactOffset, offsetScenario, type Scenario } from "./generate.js";
import { curvedSupport } from "./small-curved-edge.gen.js";

type J = Record<string, unknown>;
type V = [number, number, number];

/** A generated case: the scenario, its pair name, the overlap along the constructed normal. */
export interface CylinderCrossingCase {
  scenario: Scenario;
  pair: string;
  /** The overlap along the constructed normal (an upper bound on the least overlap), local units. */
  depth: number;
  /** The generating draw, for messages. */
  note: string;
}

/** A double uniform in value on [lo, hi] (fc.double is uniform over the doubles' bit patterns). */
const frac = (lo: number, hi: number): fc.Arbitrary<number> =>
  fc.noBias(fc.integer({ min: 0, max: 2 ** 30 })).map((k) => lo + ((hi - lo) * k) / 2 ** 30);

/** A rotation [x, y, z, w] spread over SO(3), or one of quatArb's (often aligned poses). */
const rotationArb = fc
  .oneof(
    { weight: 3, arbitrary: fc.tuple(frac(-1, 1), frac(-1, 1), frac(-1, 1), frac(-1, 1)) },
    { weight: 1, arbitrary: quatArb },
  )
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => {
    const l = Math.hypot(...q);
    return q.map((c) => c / l);
  });

/**
 * The feature of a shape along a direction, as the direction's polar angle α from the shape's
 * axis (local +y): in a rim's fan ("fan", α in [0.02, π/2 − 0.02]), 2^-k rad from the cap's
 * normal ("nearCap") or from the side's ("nearSide"), k in 8..40, the cap face ("cap", α = 0) or a
 * side generator ("side", α = π/2); `down` mirrors it to the other end (α → π − α).
 */
const featureArb = fc.record({
  kind: fc.constantFrom("fan", "fan", "nearCap", "nearSide", "cap", "side"),
  t: frac(0, 1),
  k: fc.integer({ min: 8, max: 40 }),
  down: fc.boolean(),
  azimuth: frac(0, 2 * Math.PI),
});

type Feature = { kind: string; t: number; k: number; down: boolean; azimuth: number };

/** The unit direction (local frame) of a drawn {@link Feature}. */
function featureDirection(f: Feature): V {
  let a: number;
  if (f.kind === "fan") a = 0.02 + f.t * (Math.PI / 2 - 0.04);
  else if (f.kind === "nearCap") a = 2 ** -f.k;
  else if (f.kind === "nearSide") a = Math.PI / 2 - 2 ** -f.k;
  else if (f.kind === "cap") a = 0;
  else a = Math.PI / 2;
  const s = Math.sin(a);
  const c = f.down ? -Math.cos(a) : Math.cos(a);
  return [s * Math.cos(f.azimuth), c, s * Math.sin(f.azimuth)];
}

const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** The unit quaternion turning unit u onto unit v (about u × v; a half turn about a normal of u when opposite). */
function quatFromTo(u: V, v: V): number[] {
  const w = 1 + dot(u, v);
  if (w < 1e-12) {
    const a: V = Math.abs(u[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const c = cross(u, a);
    const l = Math.hypot(...c);
    return [c[0] / l, c[1] / l, c[2] / l, 0];
  }
  const c = cross(u, v);
  const l = Math.hypot(c[0], c[1], c[2], w);
  return [c[0] / l, c[1] / l, c[2] / l, w / l];
}

/** `shape` (world centre and rotation) as the turned child of a turned compound. */
function asCompoundChild(shape: J, R: number[], rc: number[], pc: V): J {
  const q = shape.rotation as number[];
  const Rrc = quatMul(R, rc);
  const rs = quatMul([-Rrc[0], -Rrc[1], -Rrc[2], Rrc[3]], q);
  const l = Math.hypot(...rs);
  const c = shape.center as V;
  const at = rotateVec(R, pc);
  return {
    type: "compound",
    position: [c[0] - at[0], c[1] - at[1], c[2] - at[2]],
    rotation: R,
    children: [
      {
        shape: { ...shape, center: [0, 0, 0], rotation: rs.map((x) => x / l) },
        position: pc,
        rotation: rc,
      },
    ],
  };
}

/** Rims only: both features in their rim's fan (seed 79's rims crossing). */
const rimArb = featureArb.map((f) => ({ ...f, kind: "fan" }));

/**
 * Flat features only: a cap face or a side generator, exactly (α = 0 or π/2) or 2^-k rad off
 * (a rim's point next to it), so a flat feature meets a flat feature nearly parallel
 * (cylinder-flat-facing).
 */
const flatArb = featureArb.map((f) => ({
  ...f,
  kind: ["nearCap", "nearSide", "cap", "side"][Math.floor(f.t * 4) % 4],
}));

/**
 * The generated cases of the class ({@link CylinderCrossingCase}); with `rims`, both features a
 * rim (n in both rims' fans) and the sizes 10^3..10^7 apart, the larger shape's rim crossed by the
 * smaller's (seed 79's case: 1.6e-3 across 1.1e3); with `rimSide`, at least one feature a rim;
 * with `flat`, both features flat or 2^-8..2^-40 rad off flat (a cap, a side generator, a cone's
 * base: the open lines cylinder-flat-facing.jsonl); with `apart`, B moved out along n instead of
 * in, by 10^-14..10^-5 of the larger size (at most 0.3 of the smaller), `depth` then minus that
 * gap: n lies in both features' cones of outward normals, so the pair's distance is the gap
 * (seed 81's rims 2.35e-10 apart, a cylinder of 6.5e-5 by one of 708).
 */
export const cylinderCrossingArb = (
  rims = false,
  rimSide = false,
  flat = false,
  apart = false,
  decades?: readonly [number, number],
): fc.Arbitrary<CylinderCrossingCase> =>
  fc
    .record({
      typeB: fc.constantFrom("cylinder", "cone"),
      // Sizes 10^-3..10^4; half height and radius 0.2..1 of it.
      lsA: decades ? frac(decades[0], decades[1]) : frac(-3, 4),
      lsB: rims ? frac(-3, 1) : frac(-3, 4),
      dims: fc.tuple(frac(0.2, 1), frac(0.2, 1), frac(0.2, 1), frac(0.2, 1)),
      qA: rotationArb,
      fA: rims ? rimArb : flat ? flatArb : featureArb,
      fB: rims ? rimArb : flat ? flatArb : featureArb,
      twist: frac(0, 2 * Math.PI),
      // The overlap along n: 0 (a touch) or 10^-14..10^-5 of the larger size, at most 0.3 of the
      // smaller (seed 79: 2.3e-6 across a cylinder of 1.1e3 by one of 1.6e-3).
      touch: fc.boolean(),
      ld: frac(-14, -5),
      // Which shape is a compound's child (none, A, B), the compound's and child's rotations, the
      // child's position (a direction times 0..4 of its size).
      wrap: fc.constantFrom("none", "A", "B"),
      R: rotationArb,
      rc: rotationArb,
      pc: fc.tuple(frac(-1, 1), frac(-1, 1), frac(-1, 1)),
      pcScale: frac(0, 4),
      swap: fc.boolean(),
      offset: offsetArb,
    })
    .filter((g) => !rimSide || g.fA.kind === "fan" || g.fB.kind === "fan")
    .map((g): CylinderCrossingCase => {
      const sA = 10 ** (decades ? g.lsB + g.lsA : rims ? Math.max(g.lsA, g.lsB + 3) : g.lsA);
      const sB = 10 ** g.lsB;
      const [hA, rA, hB, rB] = g.dims;
      let a: J = {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: hA * sA,
        radius: rA * sA,
        rotation: g.qA,
      };
      const n = rotateVec(g.qA, featureDirection(g.fA));
      const pA = curvedSupport(a, n);
      // B's rotation turns its local direction m onto −n, then about −n by the twist.
      const m = featureDirection(g.fB);
      const negN: V = [-n[0], -n[1], -n[2]];
      const half = g.twist / 2;
      const tw = [
        negN[0] * Math.sin(half),
        negN[1] * Math.sin(half),
        negN[2] * Math.sin(half),
        Math.cos(half),
      ];
      const qB = quatMul(tw, quatFromTo(m, negN));
      const bLocal: J = {
        type: g.typeB,
        center: [0, 0, 0],
        halfHeight: hB * sB,
        radius: rB * sB,
        rotation: qB,
      };
      const sBRel = curvedSupport(bLocal, negN);
      const gap = Math.min(0.3 * Math.min(sA, sB), Math.max(sA, sB) * 10 ** g.ld);
      // Apart: B moved out by the gap along n, which lies in both features' cones of outward
      // normals, so the supports' separation along n is the pair's distance.
      const depth = apart ? -gap : g.touch ? 0 : gap;
      const cB: V = [
        pA[0] - depth * n[0] - sBRel[0],
        pA[1] - depth * n[1] - sBRel[1],
        pA[2] - depth * n[2] - sBRel[2],
      ];
      let b: J = { ...bLocal, center: cB };
      const pcLen = Math.hypot(...g.pc) || 1;
      if (g.wrap === "A") {
        const k = (g.pcScale * sA) / pcLen;
        a = asCompoundChild(a, g.R, g.rc, [g.pc[0] * k, g.pc[1] * k, g.pc[2] * k]);
      } else if (g.wrap === "B") {
        const k = (g.pcScale * sB) / pcLen;
        b = asCompoundChild(b, g.R, g.rc, [g.pc[0] * k, g.pc[1] * k, g.pc[2] * k]);
      }
      const [ou, om] = g.offset;
      const off = exactOffset(ou, om);
      const [first, second] = g.swap ? [b, a] : [a, b];
      const scenario = offsetScenario(first, second, off);
      const pair = `${first.type}-${second.type}`;
      const note = JSON.stringify({ ...g, offset: off });
      return { scenario, pair, depth, note };
    });
