/**
 * Generator and oracle of the class "a convex hull's corner, edge or face at a cylinder's or
 * cone's rim, or along a cylinder's generator, a shallow angle off parallel" (issue 16,
 * test/fuzz/hull-rim-facing.test.ts).
 *
 * Each pair is built touching, then pushed into overlap by δ: the solid's support point p along a
 * direction d (a cap's or a cone's base's normal, or a cylinder's side normal, tilted by
 * 2^-20..2^-45 rad), and a hull whose lowest points along d (its corner, edge or face: the
 * feature) lie in the plane normal to d through p, p on the feature, every other point above
 * that plane. The plane then separates the two with p on both: the signed distance is 0, to the
 * rounding of the pair's coordinates. Moving the hull by −δ·d makes the overlap along d exactly
 * δ, an upper bound of the depth; the deepest of points sampled along the feature bounds it
 * below. Hulls: tetrahedra, thin slabs (2^-10 of their width), boxes given as point sets,
 * clouds of up to 12 points and flat convex polygons (JSON "convex" of coplanar points).
 * Nothing here imports the library.
 */
import fc from "fast-check";
import { thousandthQuatArb } from "./arbitraries.js";
import { exactOffset, offsetScenario, type Scenario } from "./generate.js";
import {
  add,
  closestOnTriangleVoronoi,
  cross,
  dist,
  dot,
  norm,
  oshape,
  rotate,
  scale,
  sub,
  unit,
  type V,
} from "./oracle-shapes.js";

type J = Record<string, unknown>;

/** A contact's answer as `answerQuery` gives it (A's frame is the world's). */
export interface Answer {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
}

const EPS = 2 ** -52;

const unitInt = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);
const point = fc.tuple(unitInt, unitInt, unitInt);
const quat = thousandthQuatArb;

/** One draw of the class. */
export interface HullRimParams {
  /** The solid's size exponent (2^eS) and the hull's relative to it. */
  eS: number;
  eR: number;
  /** The solid's flat feature: a cylinder's cap (either end) or generator, or a cone's base. */
  feature: "cap+" | "cap-" | "side" | "base";
  /** The hull's kind and the feature of it lying on the plane. */
  hull: "tetra" | "slab" | "box" | "cloud" | "flat";
  touch: "corner" | "edge" | "face";
  /** The solid's rotation. */
  q: number[];
  /** Where the compound goes: nowhere, around the solid, around the hull. */
  compound: "none" | "solid" | "hull";
  /** The tilt's exponent (rad) and direction, and the generator's azimuth (side). */
  eTilt: number;
  tilt: V;
  d0: V;
  /** The feature's angle about d, its split about p, a box's or slab's shape. */
  beta: number;
  lam: number;
  shape: V;
  /** Points above the plane (u, v across, w the height's fraction). */
  above: V[];
  /** The overlap, a fraction of 1e-9 of the solid's size (0: touching). */
  depth: number;
  /** The offset's direction and exponent. */
  dir: V;
  eo: number;
}

/** The class's draws. */
export const hullRimArb: fc.Arbitrary<HullRimParams> = fc
  .record({
    sizes: fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -12, max: 12 })),
    kinds: fc.tuple(
      fc.constantFrom("cap+" as const, "cap-" as const, "side" as const, "base" as const),
      fc.constantFrom(
        "tetra" as const,
        "slab" as const,
        "box" as const,
        "cloud" as const,
        "flat" as const,
      ),
      fc.constantFrom("corner" as const, "edge" as const, "face" as const),
      fc.constantFrom("none" as const, "solid" as const, "hull" as const),
    ),
    q: quat,
    tilt: fc.tuple(fc.integer({ min: -45, max: -20 }), point, point),
    shape: fc.tuple(unitInt, unitInt, point),
    above: fc.array(point, { minLength: 8, maxLength: 8 }),
    depth: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 1000 }).map((k) => k / 1000),
    ),
    off: fc.tuple(point, fc.integer({ min: 0, max: 40 })),
  })
  .map((r) => ({
    eS: r.sizes[0],
    eR: r.sizes[1],
    feature: r.kinds[0],
    hull: r.kinds[1],
    touch: r.kinds[2],
    compound: r.kinds[3],
    q: r.q,
    eTilt: r.tilt[0],
    tilt: r.tilt[1] as V,
    d0: r.tilt[2] as V,
    beta: r.shape[0],
    lam: r.shape[1],
    shape: r.shape[2] as V,
    above: r.above as V[],
    depth: r.depth,
    dir: r.off[0] as V,
    eo: r.off[1],
  }));

/** A built pair: both orders' scenarios, the depth's bounds, the bar, and the oracle's pieces. */
export interface HullRimScene {
  /** Hull first, then solid first (world frame at the offset). */
  scenarios: { sc: Scenario; pair: string; hullFirst: boolean }[];
  /**
   * The overlap along d: −it, the separation along d, bounds the signed distance below (it is
   * the greatest separation over directions). The pair may still be apart: a corner pushed
   * across a cone's base rim leaves the slanted side.
   */
  overlap: number;
  /** True for a flat hull (coplanar points). */
  flat: boolean;
  /** The `contact` query's prediction distance: beyond any gap of the pair. */
  prediction: number;
  /** The feature's points after the push (world frame, before the offset), for the lower bound. */
  feature: V[];
  /** 64 ε of the pair's extent at its offset. */
  bar: number;
  offset: number[];
}

/** The pair of draw `g`, or null where the draw has no such pose (a generator's azimuth undefined). */
export function hullRimScene(g: HullRimParams): HullRimScene | null {
  const S = 2 ** g.eS;
  const St = 2 ** Math.max(-20, Math.min(20, g.eS + g.eR));
  const cone = g.feature === "base";
  const solid: J = cone
    ? { type: "cone", center: [0, 0, 0], halfHeight: S, radius: 0.8 * S, rotation: g.q }
    : { type: "cylinder", center: [0, 0, 0], halfHeight: 0.6 * S, radius: S, rotation: g.q };
  let base: V;
  if (g.feature === "side") {
    const r = Math.hypot(g.d0[0], g.d0[2]);
    if (!(r > 0.1)) return null;
    base = [g.d0[0] / r, 0, g.d0[2] / r];
  } else base = [0, g.feature === "cap+" ? 1 : -1, 0];
  const d = rotate(g.q, unit(add(base, scale(g.tilt, 2 ** g.eTilt))));
  const p = oshape(solid).pieces[0].support(d);
  const t0: V = Math.abs(d[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0];
  const t1 = unit(cross(d, t0));
  const t2 = cross(d, t1);
  const bb = g.beta * Math.PI;
  const e = add(scale(t1, Math.cos(bb)), scale(t2, Math.sin(bb)));
  const w = cross(d, e);
  // Points relative to p: u along e, v along w, h along d (h ≥ 0).
  const at = (u: number, v: number, h: number): V =>
    add(add(scale(e, u * St), scale(w, v * St)), scale(d, h * St));
  const l = 0.5 + 0.45 * g.lam;
  const feature: V[] = [];
  const pts: V[] = [];
  const [s0, s1, s2] = g.shape.map((x) => 0.2 + 0.8 * Math.abs(x));
  if (g.hull === "box") {
    if (g.touch === "face") {
      const m = 0.5 + 0.45 * g.shape[0];
      for (const [u, v] of [
        [-l * s1, -m * s2],
        [(1 - l) * s1, -m * s2],
        [(1 - l) * s1, (1 - m) * s2],
        [-l * s1, (1 - m) * s2],
      ]) {
        feature.push(at(u, v, 0));
        pts.push(at(u, v, 0), at(u, v, s0));
      }
    } else if (g.touch === "edge") {
      const phi = 0.05 + 1.47 * Math.abs(g.shape[0]);
      const c1: [number, number] = [s1 * Math.cos(phi), s1 * Math.sin(phi)];
      const c2: [number, number] = [-s2 * Math.sin(phi), s2 * Math.cos(phi)];
      const cs: [number, number][] = [[0, 0], c1, c2, [c1[0] + c2[0], c1[1] + c2[1]]];
      for (const u of [-l, 1 - l]) {
        feature.push(at(u, 0, 0));
        for (const [v, h] of cs) pts.push(at(u, v, h));
      }
    } else {
      // Three orthonormal edges from p, each rising from the plane by 1/√3.
      const gam = g.shape[0] * Math.PI;
      const f = [0, 1, 2].map((i): [number, number, number] => {
        const a = gam + (2 * Math.PI * i) / 3;
        const k = Math.sqrt(2 / 3);
        return [k * Math.cos(a), k * Math.sin(a), 1 / Math.sqrt(3)];
      });
      const dims = [s0, s1, s2];
      feature.push(at(0, 0, 0));
      for (let m = 0; m < 8; m++) {
        let u = 0;
        let v = 0;
        let h = 0;
        for (let i = 0; i < 3; i++) {
          if (!(m & (1 << i))) continue;
          u += dims[i] * f[i][0];
          v += dims[i] * f[i][1];
          h += dims[i] * f[i][2];
        }
        pts.push(at(u, v, h));
      }
    }
  } else {
    if (g.touch === "corner") feature.push(at(0, 0, 0));
    else if (g.touch === "edge") feature.push(at(-l, 0, 0), at(1 - l, 0, 0));
    else {
      // A convex polygon about p, p inside: gaps of 2π/k ± 0.3 rad.
      const k = g.hull === "tetra" ? 3 : 3 + Math.floor(2 * Math.abs(g.shape[1]));
      for (let i = 0; i < k; i++) {
        const a = bb + (2 * Math.PI * i) / k + 0.3 * g.above[i][2];
        const rr = 0.3 + 0.7 * Math.abs(g.above[i][0]);
        feature.push(at(rr * Math.cos(a), rr * Math.sin(a), 0));
      }
    }
    pts.push(...feature);
    if (g.hull === "flat") {
      // A flat polygon: on the plane at a face, else on a plane through the feature rising from
      // it across w (a corner's points then all on the far side of it).
      const slope = g.touch === "face" ? 0 : 0.05 + 0.95 * Math.abs(g.shape[0]);
      for (let i = 0; i < 6; i++) {
        const [u, v] = g.above[i];
        const vv = g.touch === "face" ? v : 0.05 + 0.95 * Math.abs(v);
        pts.push(at(u, vv, slope * vv));
      }
    }
    const count = g.hull === "flat" ? 0 : g.hull === "tetra" ? 4 - feature.length : 8;
    const hs = g.hull === "slab" ? 2 ** -10 : 1;
    for (let i = 0; i < count; i++) {
      const [u, v, h] = g.above[i];
      pts.push(at(u, v, (0.05 + 0.95 * Math.abs(h)) * hs));
    }
  }
  const delta = g.depth * 1e-9 * Math.min(S, St);
  const pos = sub(p, scale(d, delta));
  const hull: J = { type: "convex", points: pts, position: pos };
  const wrap = (j: J): J => ({ type: "compound", children: [{ shape: j, position: [0, 0, 0] }] });
  const hj = g.compound === "hull" ? wrap(hull) : hull;
  const sj = g.compound === "solid" ? wrap(solid) : solid;
  const off = exactOffset(g.dir, 2 ** Math.min(30, Math.max(g.eS, g.eS + g.eR) + g.eo));
  const hn = g.compound === "hull" ? "compound" : "convex";
  const sn = g.compound === "solid" ? "compound" : (solid.type as string);
  const scenarios = [
    { sc: offsetScenario(hj, sj, off), pair: `${hn}-${sn}`, hullFirst: true },
    { sc: offsetScenario(sj, hj, off), pair: `${sn}-${hn}`, hullFirst: false },
  ];
  // The pair's extent at its offset: the offset, the solid's point p, both shapes' sizes.
  const ext = Math.max(...off.map(Math.abs)) + Math.max(...p.map(Math.abs)) + 2 * S + 6 * St;
  const bar = 64 * EPS * ext;
  return {
    scenarios,
    overlap: delta,
    flat: g.hull === "flat",
    prediction: 4 * (bar + delta),
    feature: feature.map((f) => add(pos, f)),
    bar,
    offset: off,
  };
}

/**
 * A flat hull's distance from point q: the least over the triangles of its points' triples (in
 * 2-D every point of the hull lies in one of them). The oracle's hull piece judges a volume.
 */
function flatHullDistance(j: J, q: V): number {
  let pos: V = [0, 0, 0];
  let h = j;
  if (h.type === "compound") {
    const c = (h.children as J[])[0];
    pos = add((h.position as V | undefined) ?? [0, 0, 0], c.position as V);
    h = c.shape as J;
  }
  const pts = (h.points as V[]).map((x) => add(add(x, h.position as V), pos));
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < pts.length; i++)
    for (let k = i + 1; k < pts.length; k++)
      for (let m = k + 1; m < pts.length; m++) {
        best = Math.min(best, dist(q, closestOnTriangleVoronoi(q, pts[i], pts[k], pts[m])));
      }
  return best;
}

/** The pieces of a scenario's world shapes: hull and solid (a compound's only child). */
function pieces(sc: Scenario, hullFirst: boolean) {
  const a = oshape(sc.worldA).pieces[0];
  const b = oshape(sc.worldB).pieces[0];
  return hullFirst ? { H: a, S: b } : { H: b, S: a };
}

/**
 * The oracle's verdict on `contact`'s answer `r` for scene `s`'s scenario `k`: the problems
 * found, empty when right to the bar. The distance between the separation along d and the
 * least signed distance of points sampled along the feature, the separation along the answer's normal by the oracle's supports equal to it, the
 * witnesses on their shapes and facing across the normal.
 */
export function hullRimProblems(s: HullRimScene, k: number, r: Answer | null): string[] {
  if (r === null) return ["contact null for a touching or overlapping pair"];
  const { sc, hullFirst } = s.scenarios[k];
  const { H, S } = pieces(sc, hullFirst);
  const bar = s.bar;
  const out: string[] = [];
  const [pH, pS] = hullFirst ? [r.pointA, r.pointB] : [r.pointB, r.pointA];
  const n = hullFirst ? scale(r.normal, -1) : r.normal;
  const sep = dot(n, H.support(scale(n, -1))) - dot(n, S.support(n));
  // The least signed distance from the solid of points sampled along the feature (moved by the
  // offset): an upper bound of the pair's signed distance.
  const f = s.feature.map((x) => add(x, s.offset as V));
  let upper = Number.POSITIVE_INFINITY;
  const m = 1024;
  for (let i = 0; i < f.length; i++) {
    const a = f[i];
    const b = f[(i + 1) % f.length];
    for (let j = 0; j <= m; j++) upper = Math.min(upper, S.signed(add(a, scale(sub(b, a), j / m))));
  }
  if (r.distance < -s.overlap - bar) {
    out.push(`distance ${r.distance} below the separation along d, ${-s.overlap}`);
  }
  if (r.distance > upper + bar) out.push(`distance ${r.distance} above the sampled ${upper}`);
  if (Math.abs(sep - r.distance) > bar) {
    out.push(`separation ${sep} along the normal ≠ distance ${r.distance}`);
  }
  const hj = (hullFirst ? sc.worldA : sc.worldB) as J;
  const offHull = s.flat ? flatHullDistance(hj, pH) : Math.abs(H.signed(pH));
  if (offHull > bar) out.push(`hull's witness ${offHull} off it`);
  if (Math.abs(S.signed(pS)) > bar) out.push(`solid's witness ${S.signed(pS)} off it`);
  const fe = norm(sub(sub(r.pointB, r.pointA), scale(r.normal, r.distance)));
  if (fe > bar) out.push(`witnesses not facing: ${fe} (bar ${bar})`);
  return out;
}
