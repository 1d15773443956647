/**
 * Issue 16, half-space pairs: a convex shape against a half-space far from the origin relative to
 * the shape's size. The gap is o − n·t (the plane's offset from the shape's placement t) plus the
 * shape's own support; formed from a rounded relative pose it carried the rounding of the offset
 * (the fuzzer, seed 16: a convex of 1e-4 at 15 overlapping by 4.4e-16 answered −4.7e-15, one of
 * 6e-6 at 1.6e4 a gap 1.5e-12 off, a cone's normal (0, 1.000000000000001, −1.1e-16)).
 *
 * The right values are computed here independently, in BigInt fixed point with 200 fractional
 * bits (the quaternion normalised by an integer square root): exact to far below the bars.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { parseShape } from "../../src/io/shapes-json.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { unitQuatArrayOf } from "./arbitraries.js";
import { dy } from "./exact.js";

const F = 200n;
const ONE = 1n << F;
/** The fixed-point value of a double (exact down to 2^-200). */
function fx(x: number): bigint {
  const d = dy(x);
  const s = BigInt(d.e) + F;
  return s >= 0n ? d.m << s : d.m >> -s;
}
const mul = (a: bigint, b: bigint) => (a * b) >> F;
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x && y - x <= 1n) return x;
    x = y;
  }
}
const fsqrt = (a: bigint) => isqrt(a << F);
const fdiv = (a: bigint, b: bigint) => (a << F) / b;
const toNum = (a: bigint) => Number(a) / 2 ** 200;

type V3 = [number, number, number];
type Json = Record<string, unknown>;

/** Rows of the rotation of quaternion q [x, y, z, w] normalised, in fixed point. */
function rotation(q: number[] | undefined): bigint[][] {
  if (!q) {
    return [
      [ONE, 0n, 0n],
      [0n, ONE, 0n],
      [0n, 0n, ONE],
    ];
  }
  const qs = q.map(fx);
  const n = fsqrt(qs.reduce((s, v) => s + mul(v, v), 0n));
  const [x, y, z, w] = qs.map((v) => fdiv(v, n));
  const t = (a: bigint, b: bigint) => 2n * mul(a, b);
  return [
    [ONE - t(y, y) - t(z, z), t(x, y) - t(z, w), t(x, z) + t(y, w)],
    [t(x, y) + t(z, w), ONE - t(x, x) - t(z, z), t(y, z) - t(x, w)],
    [t(x, z) - t(y, w), t(y, z) + t(x, w), ONE - t(x, x) - t(y, y)],
  ];
}

/**
 * The exact gap (fixed point) of a sphere, box or convex JSON shape above half-space {n·x ≤ o}:
 * min over the shape of (n·x − o)/|n|.
 */
function exactGap(shape: Json, normal: V3, offset: number): bigint {
  const n = normal.map(fx);
  const len = fsqrt(n.reduce((s, v) => s + mul(v, v), 0n));
  const o = fx(offset);
  const at = (p: bigint[]) => fdiv(n.reduce((s, v, i) => s + mul(v, p[i]), 0n) - o, len);
  if (shape.type === "sphere") {
    return at((shape.center as number[]).map(fx)) - fx(shape.radius as number);
  }
  const R = rotation(shape.rotation as number[] | undefined);
  const t = ((shape.center ?? shape.position) as number[]).map(fx);
  let local: number[][];
  if (shape.type === "box") {
    const h = shape.halfExtents as number[];
    local = [];
    for (const sx of [-1, 1])
      for (const sy of [-1, 1])
        for (const sz of [-1, 1]) local.push([sx * h[0], sy * h[1], sz * h[2]]);
  } else local = shape.points as number[][];
  let best: bigint | null = null;
  for (const p of local) {
    const v = p.map(fx);
    const w = R.map((row, i) => t[i] + row.reduce((s, r, k) => s + mul(r, v[k]), 0n));
    const g = at(w);
    if (best === null || g < best) best = g;
  }
  return best as bigint;
}

/** The shape's bounding radius about its placement (its size for the bars). */
function size(shape: Json): number {
  if (shape.type === "sphere") return shape.radius as number;
  if (shape.type === "box") return Math.hypot(...(shape.halfExtents as number[]));
  return Math.max(...(shape.points as number[][]).map((p) => Math.hypot(...p)));
}

const EPS = Number.EPSILON;

/**
 * Checks every op of (half-space, shape) in both orders against the exact gap g: contact's
 * distance within 1e-9·|g| + 64·ε·size (the fuzzer's bars), the normal ±n exactly, intersects ⇔
 * distance = 0 ⇔ contact non-null ⇔ pairs ⇔ the world touching; and when g is clear of the
 * rounding (|g| > 64·ε·size) intersects is g ≤ 0.
 */
function checkPair(hs: Json, shape: Json): void {
  const normal = hs.normal as V3;
  const g = exactGap(shape, normal, hs.offset as number);
  const gn = toNum(g);
  const s = size(shape);
  const tol = 1e-9 * Math.abs(gn) + 64 * EPS * s;
  for (const [a, b, sign] of [
    [hs, shape, 1],
    [shape, hs, -1],
  ] as const) {
    const inter = (answerQuery({ op: "intersects", a, b }) as { intersects: boolean }).intersects;
    const dist = answerQuery({ op: "distance", a, b }) as { distance: number };
    const c = answerQuery({ op: "contact", a, b, prediction: 2 * Math.abs(gn) + s }) as {
      distance: number;
      normal: V3;
    };
    const c0 = answerQuery({ op: "contact", a, b });
    const pairs = (answerQuery({ op: "pairs", shapes: [a, b] }) as { pairs: number[][] }).pairs;
    expect(Math.abs(c.distance - gn)).toBeLessThanOrEqual(tol);
    expect(c.normal).toEqual(normal.map((x) => sign * x + 0));
    expect(dist.distance === 0).toBe(inter);
    expect(c0 !== null).toBe(inter);
    expect(pairs.length === 1).toBe(inter);
    if (Math.abs(gn) > 64 * EPS * s) expect(inter).toBe(gn <= 0);
    const world = new CollisionWorld({ prediction: 0 });
    const pa = parseShape(a, "a");
    const pb = parseShape(b, "b");
    const ha = world.addBody({ shape: pa.shape, pose: pa.pose });
    const hb = world.addBody({ shape: pb.shape, pose: pb.pose });
    world.step();
    expect(world.isTouching(ha, hb)).toBe(inter);
  }
}

describe("issue 16: convex shapes against half-spaces far from the origin", () => {
  it("a convex of 1e-4 at 15 overlapping a tilted plane by 4.4e-16 (was −4.7e-15, 'apart' by the oracle)", () => {
    const hs = {
      type: "halfspace",
      normal: [-0.42760523566052494, -0.5175148607851956, 0.7411694349487077],
      offset: -1.843530440942427,
    };
    const convex = {
      type: "convex",
      points: [
        [-2.7989648886617147e-5, 1.0001055278152648e-5, -7.461126971364251e-6],
        [2.7545651535731963e-5, -0.00010870401229245985, 2.1093496272328593e-5],
        [-8.06839141880289e-5, 6.852561304260263e-5, 7.943872749383019e-5],
        [-5.236368432193217e-6, -2.5810259332903485e-5, 6.346059553674621e-5],
        [1.5422613646620675e-5, 1.3894782378010007e-6, -6.902574583023124e-7],
        [3.368498157030331e-5, 1.1510187574170772e-5, 3.458010175094728e-6],
        [1.7698049608938504e-5, 6.684621088792753e-5, -3.0041304381001055e-5],
        [1.9979356157051598e-5, 1.7692203484909186e-5, -1.2414315412989652e-5],
        [2.7442153616163978e-6, 9.368735707226961e-7, -1.4881508025865742e-7],
        [-2.7139507137619034e-5, -3.477247866978672e-6, 5.209209489454025e-5],
        [7.385473812092089e-5, 7.385473812092089e-5, 7.385473812092089e-5],
        [-7.385473812092089e-5, -7.385473812092089e-5, 7.385473812092089e-5],
        [-7.385473812092089e-5, 7.385473812092089e-5, -7.385473812092089e-5],
        [7.385473812092089e-5, -7.385473812092089e-5, -7.385473812092089e-5],
      ],
      position: [14.60890557251843, -1.8723262626959016, 4.6337811476387945],
      rotation: [0.5966384742477961, 0.3503256909269477, -0.5974229015303816, -0.4054384269538821],
    };
    // The exact gap: −4.40309e-16 (also by 80-digit decimal arithmetic).
    expect(toNum(exactGap(convex, hs.normal as V3, hs.offset))).toBeCloseTo(-4.40309e-16, 20);
    checkPair(hs, convex);
  });

  it("a convex of 6e-6 at 1.6e4 above an axis plane: the gap 8.764409408320477e-12 exactly", () => {
    const hs = { type: "halfspace", normal: [0, 0, -1], offset: 16386.640390836128 };
    const convex = {
      type: "convex",
      points: [
        [-2.520282578188926e-7, 1.7472775653004646e-6, -8.506031008437276e-7],
        [-6.919499355717562e-6, 8.67966446094215e-6, -4.035089659737423e-6],
        [9.032713933265768e-6, -6.840411515440792e-6, 5.634421540889889e-6],
        [5.93057699318701e-6, 5.93057699318701e-6, 5.93057699318701e-6],
        [-5.93057699318701e-6, -5.93057699318701e-6, 5.93057699318701e-6],
        [-5.93057699318701e-6, 5.93057699318701e-6, -5.93057699318701e-6],
        [5.93057699318701e-6, -5.93057699318701e-6, -5.93057699318701e-6],
      ],
      position: [-13167.874541667756, 54107.33560092177, -16386.640396766714],
    };
    // Hand-derived: the highest point is z = 5.93057699318701e-6 above the position, so the gap
    // is −(−16386.640396766714 + 5.93057699318701e-6) − 16386.640390836128, exact in rationals.
    const d = answerQuery({ op: "distance", a: hs, b: convex }) as { distance: number };
    expect(d.distance).toBe(8.764409408320477e-12);
    checkPair(hs, convex);
    // Cast toward the plane at 61706 along +z: the toi is that gap over the closing speed
    // (1.42034e-16), to the cast's bar (16 distance bars over the speed).
    const cast = answerQuery({
      op: "castShapes",
      a: hs,
      velocityA: [0, 0, 0],
      b: convex,
      velocityB: [21930.64811850167, -98457.91172196841, 61706.31456237188],
      maxToi: 0.5687654571685339,
    }) as { toi: number };
    const bar = 16 * (1e-9 * 6e-6 + 64 * EPS * 1.5e-5);
    expect(Math.abs(cast.toi * 61706.31456237188 - 8.764409408320477e-12)).toBeLessThanOrEqual(bar);
  });

  it("a cone on a plane: the normal is the plane's exactly", () => {
    const line = {
      op: "contact",
      a: { type: "halfspace", normal: [0, 1, 0], offset: -784.4043848858689 },
      b: {
        type: "cone",
        center: [5893.078247336715, -782.5310246273566, 7570.8630215653175],
        halfHeight: 2.1059326099512696,
        radius: 2.451574712097096,
        rotation: [
          -0.17464441624026958, 0.13307942683467394, 0.9561803978775361, 0.1936704436515991,
        ],
      },
    };
    const r = answerQuery(line) as { distance: number; normal: V3 };
    expect(r.normal).toEqual([0, 1, 0]);
    // −1.8689236747e-13 by 80-digit decimal arithmetic (the rim's lowest point: the centre's
    // height minus hh·|n_y| and r·|n_xz| in the cone's frame); the bar 64·ε·3.2.
    expect(Math.abs(r.distance - -1.8689236747e-13)).toBeLessThanOrEqual(64 * EPS * 3.2);
  });

  it("a sphere of 0.15 at 2.9e5 overlapping a tilted plane by 1.2e-11 (was 'apart by 7.3e-12' by the oracle)", () => {
    const hs = {
      type: "halfspace",
      normal: [-0.49820634662115065, -0.8670537002787635, -0.0028839242898821412],
      offset: 45702.97488472033,
    };
    const sphere = {
      type: "sphere",
      center: [74566.97389783293, -94677.07846922328, -264485.4994828991],
      radius: 0.15284564887982016,
    };
    expect(toNum(exactGap(sphere, hs.normal as V3, hs.offset))).toBeCloseTo(-1.220257e-11, 16);
    checkPair(hs, sphere);
  });

  it("property: boxes, convex hulls and spheres from 1e-6 to 1e3 at up to 1e9, planes through them", () => {
    const dbl = (lo: number, hi: number) =>
      fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
    const unit = fc
      .tuple(dbl(-1, 1), dbl(-1, 1), dbl(-1, 1), fc.integer({ min: 0, max: 3 }))
      .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1)
      .map(([x, y, z, axis]) => {
        // A quarter of the normals along an axis (exact offsets, coplanar faces).
        if (axis < 3) {
          const n: V3 = [0, 0, 0];
          n[axis] = x < 0 ? -1 : 1;
          return n;
        }
        const l = Math.hypot(x, y, z);
        return [x / l, y / l, z / l] as V3;
      });
    const quat = unitQuatArrayOf(dbl(-1, 1));
    fc.assert(
      fc.property(
        fc.constantFrom("sphere", "box", "convex"),
        fc.integer({ min: -6, max: 3 }),
        fc.integer({ min: 0, max: 9 }),
        fc.tuple(dbl(-1, 1), dbl(-1, 1), dbl(-1, 1)),
        fc.option(quat, { nil: undefined }),
        unit,
        // Where the plane passes: exactly touching (0), or a multiple of the size off.
        fc.oneof(fc.constant(0), dbl(-1, 1), dbl(-1e-9, 1e-9)),
        (kind, logSize, logOffset, dir, rot, normal, shift) => {
          const s = 10 ** logSize;
          const t = dir.map((x) => x * 10 ** logOffset) as V3;
          let shape: Json;
          if (kind === "sphere") shape = { type: "sphere", center: t, radius: s };
          else if (kind === "box")
            shape = { type: "box", center: t, halfExtents: [s, 0.5 * s, 0.25 * s] };
          else
            shape = {
              type: "convex",
              points: [
                [s, s, s],
                [-s, -s, s],
                [-s, s, -s],
                [s, -s, -s],
                [0.3 * s, 0.1 * s, -0.7 * s],
              ],
              position: t,
            };
          if (rot && kind !== "sphere") shape.rotation = rot;
          // The offset that puts the plane at the shape's placement, moved by shift·size.
          const o = normal[0] * t[0] + normal[1] * t[1] + normal[2] * t[2] + shift * s;
          checkPair({ type: "halfspace", normal, offset: o }, shape);
        },
      ),
      { numRuns: 300 },
    );
  });
});
