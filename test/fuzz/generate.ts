/**
 * Random and adversarial pair scenarios for the differential fuzzer: shapes of every JSON type
 * at sizes from 1e-6 to 1e6 (mixed within a pair), offsets up to 1e9 from the origin, random
 * rotations, and placements that are random, nearly touching (by the oracle), exactly touching
 * at a representable point (dyadic values, identity rotations, so the shared point is certified
 * in rationals), exactly apart by a tiny dyadic gap, or concentric.
 *
 * Each scenario is generated in a LOCAL frame (what the oracle uses) and shifted to the world
 * by an offset T0 chosen so that every shifted coordinate is exact (checked in rationals): the
 * library sees the world coordinates, the oracle the exact local ones.
 */
import { boxMeshJson } from "../support/box-mesh.js";
import { exactContains, exactExtent, sumIsExact } from "./exact.js";

/** A seeded generator (xoshiro128**), independent of src/math/random.ts. */
export class Rng {
  private s: Uint32Array;
  constructor(seed: number) {
    this.s = new Uint32Array(4);
    let x = seed >>> 0 || 1;
    for (let i = 0; i < 4; i++) {
      // splitmix32
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.s[i] = (z ^ (z >>> 16)) >>> 0;
    }
  }
  u32(): number {
    const s = this.s;
    const r = Math.imul(((Math.imul(s[1], 5) << 7) | (Math.imul(s[1], 5) >>> 25)) >>> 0, 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 11) | (s[3] >>> 21);
    return r >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    return (this.u32() * 2 ** 21 + (this.u32() >>> 11)) / 2 ** 53;
  }
  range(a: number, b: number): number {
    return a + (b - a) * this.next();
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  unit(): number[] {
    for (;;) {
      const v = [this.range(-1, 1), this.range(-1, 1), this.range(-1, 1)];
      const n = Math.hypot(v[0], v[1], v[2]);
      if (n > 0.1 && n <= 1) return v.map((x) => x / n);
    }
  }
  quat(): number[] {
    for (;;) {
      const q = [this.range(-1, 1), this.range(-1, 1), this.range(-1, 1), this.range(-1, 1)];
      const n = Math.hypot(q[0], q[1], q[2], q[3]);
      if (n > 0.1 && n <= 1) return q.map((x) => x / n);
    }
  }
}

/** The JSON shape types of FORMATS.md (3D). */
export const TYPES = [
  "sphere",
  "aabb",
  "box",
  "capsule",
  "cylinder",
  "cone",
  "convex",
  "triangle",
  "mesh",
  "halfspace",
  "compound",
] as const;
/**
 * JSON shape types the fuzzer draws only when asked (`--types`): the rounded forms, so that a
 * default run (every pair of {@link TYPES}) keeps its draws, and so its seeds' results.
 */
export const OPT_IN_TYPES = ["roundedBox", "roundedConvex"] as const;
/** Every type the fuzzer knows, in the order that names a pair ("triangle-roundedBox"). */
export const ALL_TYPES = [...TYPES, ...OPT_IN_TYPES] as const;
export type ShapeTypeName = (typeof ALL_TYPES)[number];

type J = Record<string, unknown>;

/** One pair scenario: the shapes in the local frame (oracle) and the world frame (library). */
export interface Scenario {
  mode: string;
  localA: J;
  localB: J;
  worldA: J;
  worldB: J;
  /** World = local + offset. */
  offset: number[];
  /** A point both shapes contain, certified exactly (local frame), when known. */
  shared: number[] | null;
  /** The exact gap along a separating axis (local frame), 0 when none is known. */
  apart: number;
  /** Velocities for castShapes and its maxToi. */
  velocityA: number[];
  velocityB: number[];
  maxToi: number;
  prediction: number;
}

const round2 = (x: number, m: number) => Math.round(x / 2 ** m) * 2 ** m;

/**
 * A local shape of the given type and size s about centre c. `exact`: identity rotations and
 * dyadic values with few bits (multiples of 2^m), so sums stay exact.
 */
function makeShape(rng: Rng, type: ShapeTypeName, s: number, c: number[], exact: boolean): J {
  const m = Math.round(Math.log2(s)) - 6;
  const q = (x: number) => (exact ? round2(x, m) || 2 ** m : x);
  const len = (lo: number, hi: number) => q(s * rng.range(lo, hi));
  const pt = (r: number) => {
    const u = rng.unit();
    const k = rng.range(0, 1) * r;
    return [q(c[0] + u[0] * k), q(c[1] + u[1] * k), q(c[2] + u[2] * k)];
  };
  const cen = exact ? c.map((x) => round2(x, m)) : c;
  const rot = () => (exact ? undefined : rng.chance(0.15) ? undefined : rng.quat());
  const withRot = (j: J) => {
    const r = rot();
    if (r) j.rotation = r;
    return j;
  };
  switch (type) {
    case "sphere":
      return { type, center: cen, radius: len(0.3, 1) };
    case "aabb": {
      const h = [len(0.1, 1), len(0.1, 1), rng.chance(0.1) ? 0 : len(0.1, 1)];
      return { type, min: cen.map((x, i) => x - h[i]), max: cen.map((x, i) => x + h[i]) };
    }
    case "box":
      return withRot({
        type,
        center: cen,
        halfExtents: [len(0.1, 1), len(0.1, 1), rng.chance(0.05) ? 0 : len(0.1, 1)],
      });
    case "capsule": {
      if (exact) {
        // Axis-aligned segment: exact end points.
        const k = rng.int(3);
        const h = len(0.1, 0.7);
        const a = [...cen];
        const b = [...cen];
        a[k] -= h;
        b[k] += rng.chance(0.1) ? -h : h;
        return { type, a, b, radius: len(0.1, 0.5) };
      }
      const u = rng.unit();
      const h = rng.chance(0.1) ? 0 : s * rng.range(0.1, 0.7);
      return {
        type,
        a: cen.map((x, i) => x - u[i] * h),
        b: cen.map((x, i) => x + u[i] * h),
        radius: len(0.1, 0.5),
      };
    }
    case "cylinder":
    case "cone":
      return withRot({ type, center: cen, halfHeight: len(0.2, 1), radius: len(0.2, 1) });
    case "roundedBox":
      // Half extents and a radius of the shape's size together (one half extent sometimes 0:
      // a rounded rectangle), the rounding from a sliver to most of it.
      return withRot({
        type,
        center: cen,
        halfExtents: [len(0.1, 0.8), len(0.1, 0.8), rng.chance(0.1) ? 0 : len(0.1, 0.8)],
        radius: rng.chance(0.2) ? len(0.001, 0.01) : len(0.05, 0.5),
      });
    case "roundedConvex": {
      const n = 4 + rng.int(7);
      const pts: number[][] = [];
      for (let i = 0; i < n; i++) pts.push(pt(s * 0.7).map((x, k) => x - cen[k]));
      // Solid (the oracle's hull needs a volume): a tetrahedron's corners.
      const t = len(0.2, 0.4);
      pts.push([t, t, t], [-t, -t, t], [-t, t, -t], [t, -t, -t]);
      return withRot({
        type,
        points: pts,
        radius: rng.chance(0.2) ? len(0.001, 0.01) : len(0.05, 0.4),
        position: cen,
      });
    }
    case "convex": {
      const n = 4 + rng.int(7);
      const pts: number[][] = [];
      for (let i = 0; i < n; i++) pts.push(pt(s).map((x, k) => x - cen[k]));
      // Make it solid: a tetrahedron's corners.
      const t = len(0.3, 0.6);
      pts.push([t, t, t], [-t, -t, t], [-t, t, -t], [t, -t, -t]);
      return withRot({ type, points: pts, position: cen });
    }
    case "triangle": {
      if (exact) {
        const k = rng.int(3);
        const a = pt(s);
        const b = pt(s);
        const cc = pt(s);
        // Sometimes lie in an axis plane (coplanar cases).
        if (rng.chance(0.5)) {
          b[k] = a[k];
          cc[k] = a[k];
        }
        return { type, a, b, c: cc };
      }
      return { type, a: pt(s), b: pt(s), c: pt(s) };
    }
    case "mesh": {
      // A closed box mesh (70 %) or the open surface of two of its faces.
      const h = [len(0.2, 1), len(0.2, 1), len(0.2, 1)];
      const closed = rng.chance(0.7);
      return withRot(boxMeshJson(h, cen, !closed));
    }
    case "halfspace": {
      const k = rng.int(3);
      const sign = rng.chance(0.5) ? 1 : -1;
      const n =
        exact || rng.chance(0.5) ? [0, 0, 0].map((_, i) => (i === k ? sign : 0)) : rng.unit();
      const off =
        n[0] * cen[0] + n[1] * cen[1] + n[2] * cen[2] + (exact ? 0 : s * rng.range(-0.5, 0.5));
      return { type, normal: n, offset: off };
    }
    case "compound": {
      const kids: J[] = [];
      const nk = 1 + rng.int(3);
      for (let i = 0; i < nk; i++) {
        const ct = rng.pick(["sphere", "box", "capsule", "cylinder", "cone"] as const);
        const o = [
          q(s * rng.range(-0.5, 0.5)),
          q(s * rng.range(-0.5, 0.5)),
          q(s * rng.range(-0.5, 0.5)),
        ];
        const child = makeShape(rng, ct, s * 0.5, [0, 0, 0], exact);
        const r = exact ? undefined : rng.chance(0.5) ? rng.quat() : undefined;
        kids.push(r ? { shape: child, position: o, rotation: r } : { shape: child, position: o });
      }
      return withRot({ type, children: kids, position: cen });
    }
  }
}

/** The fields of a JSON shape that are positions (shifted by the offset). */
function shiftShape(j: J, off: number[]): J | null {
  const sh = (p: unknown): number[] | null => {
    const a = p as number[];
    const out = a.map((x, i) => x + off[i]);
    for (let i = 0; i < 3; i++) if (!sumIsExact(a[i], off[i], out[i])) return null;
    return out;
  };
  const o: J = { ...j };
  const keys: Record<string, string[]> = {
    sphere: ["center"],
    aabb: ["min", "max"],
    box: ["center"],
    capsule: ["a", "b"],
    cylinder: ["center"],
    cone: ["center"],
    convex: ["position"],
    roundedBox: ["center"],
    roundedConvex: ["position"],
    triangle: ["a", "b", "c"],
    mesh: ["position"],
    compound: ["position"],
  };
  if (j.type === "halfspace") {
    const n = j.normal as number[];
    const axis =
      n.filter((x) => x !== 0).length === 1 && n.every((x) => x === 0 || x === 1 || x === -1);
    if (!axis) {
      if (off.every((x) => x === 0)) return o;
      return null;
    }
    const k = n.findIndex((x) => x !== 0);
    const add = n[k] * off[k];
    const v = (j.offset as number) + add;
    if (!sumIsExact(j.offset as number, add, v)) return null;
    o.offset = v;
    return o;
  }
  for (const k of keys[j.type as string]) {
    const v = sh(j[k]);
    if (!v) return null;
    o[k] = v;
  }
  return o;
}

/** Snaps a local shape so that shifting it by `off` is exact: x ← (x + off) − off. */
function snapShape(j: J, off: number[]): J {
  const snap = (p: number[]) => p.map((x, i) => x + off[i] - off[i]);
  const o: J = { ...j };
  for (const k of ["center", "min", "max", "a", "b", "c", "position"]) {
    if (o[k]) o[k] = snap(o[k] as number[]);
  }
  if (o.type === "aabb") {
    const lo = o.min as number[];
    const hi = o.max as number[];
    o.max = hi.map((x, i) => Math.max(x, lo[i]));
  }
  return o;
}

/** The exact extreme point of a local exact-mode shape along sign·e_k (a candidate witness). */
function extremePoint(j: J, k: number, sign: number): number[] | null {
  const e = exactExtent(j, k, sign);
  if (!e) return null;
  const x = sign * Number(e.m) * 2 ** e.e;
  let base: number[];
  switch (j.type) {
    case "sphere":
    case "box":
    case "roundedBox":
    case "cylinder":
      base = [...(j.center as number[])];
      break;
    case "cone": {
      base = [...(j.center as number[])];
      if (k !== 1) base[1] -= j.halfHeight as number;
      break;
    }
    case "aabb":
      base = (j.min as number[]).map((lo, i) => (lo + (j.max as number[])[i]) / 2);
      break;
    case "capsule": {
      const a = j.a as number[];
      const b = j.b as number[];
      base = [...(sign * a[k] >= sign * b[k] ? a : b)];
      break;
    }
    case "triangle": {
      const ps = [j.a, j.b, j.c] as number[][];
      base = [...ps.reduce((m, p) => (sign * p[k] > sign * m[k] ? p : m))];
      break;
    }
    case "convex":
    case "roundedConvex":
    case "mesh": {
      const ps = (j.type === "mesh" ? j.vertices : j.points) as number[][];
      const off = (j.position as number[] | undefined) ?? [0, 0, 0];
      const p = ps.reduce((m, p) => (sign * p[k] > sign * m[k] ? p : m));
      base = p.map((x, i) => x + off[i]);
      break;
    }
    default:
      return null;
  }
  base[k] = x;
  return base;
}

const SIZES_LOG = [-6, 6];

/** A scenario for the ordered type pair (ta, tb). */
export function makeScenario(
  rng: Rng,
  ta: ShapeTypeName,
  tb: ShapeTypeName,
  touch: (a: J, b: J) => number[] | null,
): Scenario {
  const r = rng.next();
  const mode =
    r < 0.45
      ? "random"
      : r < 0.65
        ? "touching"
        : r < 0.85
          ? "exact-touch"
          : r < 0.93
            ? "exact-apart"
            : "concentric";
  const exact = mode === "exact-touch" || mode === "exact-apart";
  const sA = 10 ** rng.range(SIZES_LOG[0], SIZES_LOG[1]);
  const mixed = rng.chance(0.3);
  const sB = mixed ? 10 ** rng.range(SIZES_LOG[0], SIZES_LOG[1]) : sA * rng.range(0.3, 3);
  const cA = [0, 0, 0];
  let A = makeShape(rng, ta, sA, cA, exact);
  let cB: number[];
  if (mode === "concentric") cB = [0, 0, 0];
  else {
    const u = rng.unit();
    const t = rng.range(0, 1.4) * (sA + sB);
    cB = u.map((x) => x * t);
  }
  let B = makeShape(rng, tb, sB, cB, exact);
  let shared: number[] | null = null;
  let apart = 0;
  if (mode === "touching") {
    // Move B along the oracle's closest direction until the shapes (nearly) touch.
    for (let i = 0; i < 2; i++) {
      const t = touch(A, B);
      if (t) B = translateShape(B, t);
    }
  }
  if (exact) {
    const k = rng.int(3);
    const sign = rng.chance(0.5) ? 1 : -1;
    const ea = exactExtent(A, k, sign);
    const eb = exactExtent(B, k, -sign);
    if (ea && eb) {
      // Shift B along e_k so that min_B(sign·x_k) = max_A(sign·x_k).
      const delta = sign * (Number(ea.m) * 2 ** ea.e + Number(eb.m) * 2 ** eb.e);
      // Lateral offsets: often none (so the extreme sets meet).
      const shift = [0, 0, 0];
      shift[k] = delta;
      B = translateShape(B, shift);
      const ea2 = exactExtent(A, k, sign);
      const eb2 = exactExtent(B, k, -sign);
      const touching =
        ea2 && eb2 && ea2 && Number(ea2.m) * 2 ** ea2.e + Number(eb2.m) * 2 ** eb2.e === 0;
      if (touching && mode === "exact-apart") {
        const m = Math.round(Math.log2(Math.min(sA, sB))) - 6;
        const g = 2 ** (m - rng.int(40));
        const s2 = [0, 0, 0];
        s2[k] = sign * g;
        const moved = translateShape(B, s2);
        const eb3 = exactExtent(moved, k, -sign);
        if (eb3 && ea2) {
          B = moved;
          apart = Math.max(0, -(Number(ea2.m) * 2 ** ea2.e + Number(eb3.m) * 2 ** eb3.e));
        }
      } else if (touching) {
        for (const p of [extremePoint(A, k, sign), extremePoint(B, k, -sign)]) {
          if (p && exactContains(A, p) === true && exactContains(B, p) === true) {
            shared = p;
            break;
          }
        }
      }
    }
  }
  // The world offset: none, moderate or up to 1e9, few significant bits so shifts stay exact.
  const oc = rng.next();
  let offset = [0, 0, 0];
  if (oc > 0.4) {
    const mag = oc > 0.75 ? 10 ** rng.range(3, 9) : 10 ** rng.range(-3, 3);
    const u = rng.unit();
    offset = u.map((x) => {
      const v = x * mag;
      const m = Math.floor(Math.log2(Math.abs(v) || 1)) - 20;
      return round2(v, m);
    });
  }
  if (!exact) {
    A = snapShape(A, offset);
    B = snapShape(B, offset);
  }
  let worldA = shiftShape(A, offset);
  let worldB = shiftShape(B, offset);
  if (!worldA || !worldB) {
    offset = [0, 0, 0];
    worldA = A;
    worldB = B;
  }
  const speed = (sA + sB) * rng.range(0.1, 3);
  const w = rng.unit();
  const toward = cB.map((x, i) => cA[i] - x);
  const tl = Math.hypot(toward[0], toward[1], toward[2]);
  const vB =
    tl > 0 && rng.chance(0.7)
      ? toward.map((x, i) => (x / tl) * speed + w[i] * speed * 0.2 * rng.next())
      : w.map((x) => x * speed);
  const vA = rng.chance(0.3) ? rng.unit().map((x) => x * speed * 0.5) : [0, 0, 0];
  return {
    mode,
    localA: A,
    localB: B,
    worldA,
    worldB,
    offset,
    shared,
    apart,
    velocityA: vA,
    velocityB: vB,
    maxToi: rng.range(0.5, 2),
    prediction: rng.chance(0.5) ? 0 : (sA + sB) * rng.range(0, 1),
  };
}

/** The point fields of a JSON shape, those {@link translateShape} moves. */
export const POSITION_FIELDS = ["center", "min", "max", "a", "b", "c", "position"] as const;

/** The local shape translated by `t` (exact inputs stay exact for dyadic shifts). */
export function translateShape(j: J, t: number[]): J {
  const sh = (p: unknown) => (p as number[]).map((x, i) => x + t[i]);
  const o: J = { ...j };
  for (const k of POSITION_FIELDS) {
    if (o[k]) o[k] = sh(o[k]);
  }
  if (j.type === "halfspace") {
    const n = j.normal as number[];
    o.offset = (j.offset as number) + n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
  }
  if (
    (j.type === "convex" ||
      j.type === "roundedConvex" ||
      j.type === "mesh" ||
      j.type === "compound") &&
    !j.position
  ) {
    o.position = t;
  }
  return o;
}

/**
 * A world offset along direction `u` of about magnitude `mag`, each coordinate rounded to 21
 * significant bits so that shifting a shape by it stays exact, as the fuzzer's generator offsets
 * its pairs (a coordinate of |u| ≤ 1e-3 is 0).
 */
export function exactOffset(u: readonly number[], mag: number): number[] {
  return u.map((x) => {
    const v = x * mag;
    if (!(Math.abs(x) > 1e-3) || v === 0) return 0;
    const e = Math.floor(Math.log2(Math.abs(v))) - 20;
    return Math.round(v / 2 ** e) * 2 ** e;
  });
}

/**
 * A scenario at rest of local shapes a and b moved by `offset` into the world, as the fuzzer
 * builds one: each local shape's point fields snapped first (x ← (x + offset) − offset) so that
 * the move is exact in most cases (the oracle answers the local pair, the library the world
 * pair); mode "touching", no certified point or gap, no motion, maxToi 1, prediction 0.
 */
export function offsetScenario(a: J, b: J, offset: number[]): Scenario {
  const snap = (j: J): J => {
    const o: J = { ...j };
    for (const k of POSITION_FIELDS) {
      if (o[k]) o[k] = (o[k] as number[]).map((x, i) => x + offset[i] - offset[i]);
    }
    return o;
  };
  const localA = snap(a);
  const localB = snap(b);
  return {
    mode: "touching",
    localA,
    localB,
    worldA: translateShape(localA, offset),
    worldB: translateShape(localB, offset),
    offset,
    shared: null,
    apart: 0,
    velocityA: [0, 0, 0],
    velocityB: [0, 0, 0],
    maxToi: 1,
    prediction: 0,
  };
}
