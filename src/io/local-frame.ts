/**
 * The local frame in which the JSON shapes of one query line or one scene are read (issue 16,
 * "one truth across operations"): the pair ops and `pairs` of `collide query`, `collide check`,
 * `collide view` and the differential fuzzer's world check all read their shapes through
 * {@link parseShapesLocal}, so the world and the pair queries see bit-identical shapes.
 *
 * Why: the forms placed by their own points turn them into a pose and sizes (an `aabb`'s centre
 * (min + max)/2, a capsule's midpoint). In the world frame at 4e7 that rounds by half an ulp of
 * the offset (an aabb's faces moved by 4.7e-10 against a sphere of 0.015; two aabbs touching
 * exactly at 1e5 read as 1 ulp apart); moved by an exact shift into a frame at the smallest shape,
 * it rounds by half an ulp of the line's (the scene's) spread.
 */
import { WORLD_MAX_COORDINATE } from "../constants.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { planeOffsetAt } from "../narrowphase/convex-half-space.js";
import { type HalfSpace, makeHalfSpace } from "../shapes/half-space.js";
import type { PosedShape, ShapeParseContext } from "./shapes-json.js";
import { parseShape } from "./shapes-json.js";

/**
 * The JSON position fields of the forms that are taken into a local frame (see
 * {@link parseShapesLocal}); a composite without a `position` keeps the line in the world frame.
 * A half-space has no position: one whose normal is an axis moves with that axis's shift (its
 * offset shifted exactly), one with another normal gets the offset o − n·shift formed exactly
 * and rounded once (its plane moves by half an ulp of its distance from the frame's origin) when
 * the line places one shape, else keeps the axes it has a component on.
 */
const POSITION_FIELDS: Record<string, readonly string[]> = {
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
  // The composites are posed by their `position` (and `rotation`): their parts' coordinates are
  // their own, so a shift moves the position only (a compound of 1e-5 at 1e7 against an aabb
  // lost a quarter ulp of 1e7 to the aabb's centre; issue 16). Without a `position` they keep
  // the line in the world frame.
  mesh: ["position"],
  compound: ["position"],
  heightfield: ["position"],
};

type Json = Record<string, unknown>;

/**
 * The largest shifted coordinate plus twice its shape's extent for which an axis is shifted: an
 * eighth of the world's bound, so that a shape's box (its extent grown by its rotation, at most
 * √3 times) in the local frame stays inside the bound the world checks.
 */
const LOCAL_FRAME_MAX = WORLD_MAX_COORDINATE / 8;
const isVec = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === "number" && Number.isFinite(x));

/** A rough size of a JSON shape in its own frame (its spread of positions and its sizes). */
function jsonExtent(j: Json, fields: readonly string[]): number {
  let e = 0;
  const p0 = j[fields[0]] as number[];
  for (const f of fields) {
    const p = j[f] as number[];
    for (let i = 0; i < 3; i++) e = Math.max(e, Math.abs(p[i] - p0[i]));
  }
  for (const k of ["radius", "halfHeight"])
    if (typeof j[k] === "number") e = Math.max(e, j[k] as number);
  if (isVec(j.halfExtents)) e = Math.max(e, ...j.halfExtents.map(Math.abs));
  if (Array.isArray(j.points))
    for (const p of j.points) if (isVec(p)) e = Math.max(e, ...p.map(Math.abs));
  if (Array.isArray(j.vertices))
    for (const p of j.vertices) if (isVec(p)) e = Math.max(e, ...p.map(Math.abs));
  if (Array.isArray(j.children)) {
    for (const c of j.children as Json[]) {
      const at = isVec(c?.position) ? Math.max(...c.position.map(Math.abs)) : 0;
      const sh = c?.shape as Json | undefined;
      const t = sh?.type;
      const f =
        typeof t === "string" && Object.hasOwn(POSITION_FIELDS, t) ? POSITION_FIELDS[t] : undefined;
      const own = f?.every((k) => isVec(sh?.[k])) ? jsonExtent(sh as Json, f) : 0;
      e = Math.max(e, at + own);
    }
  }
  return e;
}

/**
 * True when x − o is exact and stays, with twice `extent`, within {@link LOCAL_FRAME_MAX}: a
 * shift never takes a shape toward the world's coordinate bound (±1e300) — shapes on both sides
 * of the origin far apart would land up to twice as far out in the frame of one of them (two
 * spheres at ±6e299, valid, refused by `collide check`); near the bound the spread is that
 * large, so the shift would gain nothing.
 */
function exactShift(x: number, o: number, extent: number): boolean {
  // TwoSum's rounding error of x + (−o): 0 exactly when the difference is exact.
  const d = x - o;
  const z = d - x;
  return (
    x - (d - z) + (-o - z) === 0 &&
    Number.isFinite(d) &&
    Math.abs(d) + 2 * extent <= LOCAL_FRAME_MAX
  );
}

/**
 * The axis a half-space's JSON normal lies along (0, 1 or 2: that component ±1, the others 0),
 * else −1. Its plane is then x_axis = normal[axis]·offset, and a shift o of that axis moves the
 * offset to offset − normal[axis]·o, exactly when the plane's coordinate shifts exactly.
 */
function planeAxis(n: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    if (Math.abs(n[i]) === 1 && n[(i + 1) % 3] === 0 && n[(i + 2) % 3] === 0) return i;
  }
  return -1;
}

/** The shapes of a line or scene with the origin of the frame they are read in. */
export interface LocalShapes {
  /** The shapes with their poses in the local frame (world pose = pose moved by +o). */
  shapes: PosedShape[];
  /** The world position of the local frame's origin per axis, or null when not moved. */
  o: [number, number, number] | null;
}

/**
 * The per-axis shift o of {@link parseShapesLocal}, or null when the shapes stay in the world
 * frame (a form without listed position fields, an invalid field, no axis that shifts exactly).
 */
function localOrigin(jsons: readonly unknown[]): [number, number, number] | null {
  if (jsons.length === 0) return null;
  const fields: (readonly string[])[] = [];
  // Per axis, the plane coordinates of the half-spaces whose normal is that axis (their planes
  // move with the shift exactly), and whether a half-space with another normal has a component
  // on it. Such a half-space's offset is formed again in the frame (shiftedHalfSpace); alone
  // with one placed shape it pins no axis (keeping them in the world frame rounded an aabb's
  // centre at its offset: a box of 2e-3 at 3.4e5 under a tilted plane read 2.7e-11 shallower;
  // issue 16, seed 54).
  const planes: number[][] = [[], [], []];
  const pinned = [false, false, false];
  let placed = 0;
  for (const j of jsons) {
    if (j === null || typeof j !== "object") return null;
    const t = (j as Json).type;
    if (t === "halfspace") {
      const n = (j as Json).normal;
      const d = (j as Json).offset;
      if (!isVec(n) || typeof d !== "number" || !Number.isFinite(d)) return null;
      const axis = planeAxis(n);
      if (axis >= 0) planes[axis].push(n[axis] * d);
      else for (let i = 0; i < 3; i++) if (n[i] !== 0) pinned[i] = true;
      fields.push([]);
      continue;
    }
    if (typeof t !== "string" || !Object.hasOwn(POSITION_FIELDS, t)) return null;
    const f = POSITION_FIELDS[t];
    if (!f.every((k) => isVec((j as Json)[k]))) return null;
    fields.push(f);
    placed++;
  }
  if (placed === 0) return null;
  // With one placed shape the frame is at it and a tilted plane's offset rounds at its distance
  // from that shape; with more, the frame is at the smallest, and the plane would round at its
  // distance from that one (a plane through a body at the origin, read from a frame at a body
  // at 1e9, moved by 6e-8): the axes it has a component on then stay unshifted.
  if (placed === 1) pinned.fill(false);
  // The first placed shape when every extent is infinite or NaN (an aabb from −1.7e308 to
  // 1.7e308, whose size overflows): `small` at 0 had been a half-space listed first, which has
  // no position field (fresh41 01: "Cannot read properties of undefined").
  let small = -1;
  let smallExtent = Number.POSITIVE_INFINITY;
  const extents = jsons.map((j, i) =>
    fields[i].length === 0 ? 0 : jsonExtent(j as Json, fields[i]),
  );
  jsons.forEach((_j, i) => {
    const e = extents[i];
    if (fields[i].length > 0 && (small < 0 || e < smallExtent)) {
      smallExtent = e;
      small = i;
    }
  });
  const p0 = (jsons[small] as Json)[fields[small][0]] as number[];
  const o: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    if (pinned[i]) continue;
    let m = 0;
    jsons.forEach((j, k) => {
      for (const f of fields[k]) m = Math.max(m, Math.abs(((j as Json)[f] as number[])[i]));
    });
    for (const x of planes[i]) m = Math.max(m, Math.abs(x));
    if (m === 0) continue;
    const u = 2 ** (Math.floor(Math.log2(m)) - 52);
    // (Subnormal coordinates: u underflows to 0; that axis stays unshifted.)
    const oi = Math.round(p0[i] / u) * u;
    if (!(u > 0 && Number.isFinite(oi))) continue;
    // Every shifted coordinate must be exact: x − o is a multiple of x's unit, but when x is much
    // smaller than o it needs more bits than a double holds (2.57 − (−25.99) rounds to the unit
    // of 28.56). Such an axis stays unshifted: its coordinates are then no larger than the
    // shapes' spread.
    let exact = true;
    for (let k = 0; k < jsons.length && exact; k++) {
      for (const f of fields[k]) {
        if (!exactShift(((jsons[k] as Json)[f] as number[])[i], oi, extents[k])) exact = false;
      }
    }
    for (const x of planes[i]) if (!exactShift(x, oi, 0)) exact = false;
    if (exact) o[i] = oi;
  }
  if (o[0] === 0 && o[1] === 0 && o[2] === 0) return null;
  return o;
}

/**
 * Parses the JSON shapes of one query line or one scene (`names[i]` names shape i in errors)
 * in one local frame: when every shape is a form of {@link POSITION_FIELDS} with its positions
 * given or a half-space (see {@link localOrigin}), each is moved by −o first, where o is, per axis, the smallest shape's first position
 * rounded to a multiple of the rounding unit of the largest coordinate on that axis, so every
 * shifted coordinate x − o is exact (both are multiples of x's unit); an axis on which some
 * coordinate would round (shapes farther apart than their coordinates' precision) stays
 * unshifted. Otherwise (or with no axis shifted) the shapes are read as given and o is null.
 * An `aabb` whose centre is not a double in that frame is read as the nearest box (half an ulp of
 * the line's or scene's spread). Errors name the shapes' own numbers: a shape that fails moved
 * is parsed again as given, in order, so the error thrown is the one the line gave. Answers'
 * points are moved back by +o ({@link arrAt}).
 */
export function parseShapesLocal(
  jsons: readonly unknown[],
  names: readonly string[],
  ctx: ShapeParseContext = {},
): LocalShapes {
  const o = localOrigin(jsons);
  const asGiven = (): LocalShapes => ({
    shapes: jsons.map((j, i) => parseShape(j, names[i], ctx)),
    o: null,
  });
  if (o === null) return asGiven();
  let shapes: PosedShape[];
  try {
    shapes = jsons.map((j, k) => {
      const c: Json = { ...(j as Json) };
      if (c.type === "halfspace") {
        const n = c.normal as number[];
        const axis = planeAxis(n);
        if (axis >= 0) {
          // Along an axis: the plane's coordinate shifts exactly (localOrigin).
          c.offset = n[axis] * (n[axis] * (c.offset as number) - o[axis]);
          return parseShape(c, names[k], ctx);
        }
        return shiftedHalfSpace(parseShape(c, names[k], ctx), o);
      }
      for (const f of POSITION_FIELDS[c.type as string])
        c[f] = (c[f] as number[]).map((x, i) => x - o[i]);
      return parseShape(c, names[k], ctx);
    });
  } catch {
    // Throws the first error as the line gave it (or, should the shapes as given be valid,
    // answers them in the world frame).
    return asGiven();
  }
  return { shapes, o };
}

const shift = vec3.create();
const shiftedOffset = new Float64Array(1);

/**
 * A half-space whose normal is not an axis, read in the frame at `o`: its normal n (as parsed,
 * bits kept) and the offset o' = offset − n·o formed exactly (Dot2) and rounded once, so the
 * plane moves by at most half an ulp of o', the plane's distance from the local origin (the
 * shapes' scale there), not of the world offset. Throws (the line is then read as given) when
 * o' is not finite.
 */
function shiftedHalfSpace(p: PosedShape, o: readonly number[]): PosedShape {
  const h = p.shape as HalfSpace;
  vec3.set(shift, o[0], o[1], o[2]);
  planeOffsetAt(shiftedOffset, h, shift);
  return { shape: makeHalfSpace(h.normal, shiftedOffset[0]), pose: p.pose };
}

/** [x, y, z] of `v` moved back from a local frame by +o (see {@link parseShapesLocal}). */
export function arrAt(v: Vec3, o: readonly number[] | null): [number, number, number] {
  if (o === null) return [v.x + 0, v.y + 0, v.z + 0];
  return [v.x + o[0] + 0, v.y + o[1] + 0, v.z + o[2] + 0];
}
