/**
 * Supporting features for contact manifolds: the polygon, segment or point of a convex shape
 * that supports it along a direction (Ericson 2005, §8.3.4; Jolt's `GetSupportingFace`). Each
 * shape definition (src/shapes/defs/) writes its own feature into a {@link SupportFeature}
 * record with the setters here; the manifold builder (src/narrowphase/manifold.ts) clips them.
 * Feature numbering per shape is listed in manifold.ts's module docs.
 */
import { MANIFOLD_FEATURE_COS } from "../constants.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot2Into, hypot3Into, hypotIo } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { type ClipPolygon, makeClipPolygon, reserveClipPolygon } from "./clip.js";

/** Vertices of the regular polygon inscribed in a cylinder cap or cone base (fixed at 8). */
export const MANIFOLD_CAP_POLYGON_VERTICES = 8;

/** Largest sine of a segment's angle to the contact plane for it to be a contact feature. */
export const SEGMENT_SIN = Math.sqrt(1 - MANIFOLD_FEATURE_COS * MANIFOLD_FEATURE_COS);

/**
 * 2^600: the factor a cylinder's or cone's feature scales a direction's tiny (x, z) pair by
 * before taking its azimuth, exactly (a power of two), so subnormal components keep their ratio.
 */
export const AZIMUTH_SCALE = 2 ** 600;

/** [0] ux, [1] uz, [2] ρ (> 0 unless the direction is along the axis) of {@link featureAzimuth}. */
export const azimuthIo = new Float64Array(3);

/**
 * The azimuth of direction `d` about a solid's y axis, for a cylinder's or cone's supporting
 * feature: (ux, uz), the unit direction of (d.x, d.z), into azimuthIo[0..1] ((1, 0) for a
 * direction along the axis), and a positive ρ into azimuthIo[2] unless (d.x, d.z) is zero — the
 * length of that pair, or of it scaled by {@link AZIMUTH_SCALE} when it is tiny (a direction
 * along the axis but for rounding: the hypot of subnormal components, rounded to their few bits,
 * left (ux, uz) up to 12 % off unit and the disc's octagon as much too large; issue 16). hypot's
 * common case inline; no double crosses a call.
 */
export function featureAzimuth(d: Vec3): void {
  let dx = d.x;
  let dz = d.z;
  let rr = dx * dx + dz * dz;
  // (A zero pair, the axis: √0 is 0.)
  if (!(rr > HYPOT_SAFE_MIN) && !(dx === 0 && dz === 0)) {
    dx *= AZIMUTH_SCALE;
    dz *= AZIMUTH_SCALE;
    rr = dx * dx + dz * dz;
  }
  let rho = Math.sqrt(rr);
  // (The call would box its arguments: reached only by a direction not of unit length.)
  if (!(rr < HYPOT_SAFE_MAX)) {
    hypot2Into(dx, dz);
    rho = hypotIo[0];
  }
  azimuthIo[0] = rho > 0 ? dx / rho : 1;
  azimuthIo[1] = rho > 0 ? dz / rho : 0;
  azimuthIo[2] = rho;
}

/** cos and sin of k · 45°, exact to rounding without trigonometric calls. */
const OCTAGON_COS = [1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2, 0, Math.SQRT1_2];
const OCTAGON_SIN = [0, Math.SQRT1_2, 1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2];

/** Feature kind: none yet. */
export const FEATURE_NONE = 0;
/** Feature kind: a point (no vertices in `poly`). */
export const FEATURE_POINT = 1;
/** Feature kind: a segment (2 vertices in `poly`). */
export const FEATURE_SEGMENT = 2;
/** Feature kind: a convex polygon (`poly`, counter-clockwise seen along `normal`). */
export const FEATURE_POLYGON = 3;

/** A supporting feature: its vertices (shape's local frame), kind, outward normal and alignment. */
export interface SupportFeature {
  /** The vertices with their clip tags. */
  poly: ClipPolygon;
  /** One of FEATURE_NONE, FEATURE_POINT, FEATURE_SEGMENT, FEATURE_POLYGON. */
  kind: number;
  /** Outward unit normal of a polygon feature (local frame). */
  normal: Vec3;
  /** Cosine between `normal` and the direction asked for (polygons; 0 otherwise). */
  cos: number;
  /** The feature's number on its shape (see manifold.ts's module docs). */
  index: number;
}

/** A new empty feature record (allocates). */
export function makeSupportFeature(): SupportFeature {
  return { poly: makeClipPolygon(), kind: FEATURE_NONE, normal: vec3.create(), cos: 0, index: 0 };
}

/** Makes `f` the point feature `index` (a sphere, a vertex, a curved patch). */
export function setPoint(f: SupportFeature, index: number): void {
  f.kind = FEATURE_POINT;
  f.poly.count = 0;
  f.index = index;
  f.cos = 0;
}

/**
 * The coordinates the feature setters read, written by the caller just before the call:
 * {@link setSegment}'s two ends ([0..2] and [3..5]), {@link segmentSin}'s segment ([0..2], its
 * answer in [6]) and {@link discPolygon}'s disc ([0] height y, [1] radius, [2] and [3] the
 * unit first-vertex direction (ux, uz)). No double crosses these calls: V8 boxes (allocates) a
 * double passed to or returned by a call it does not inline, and the manifold builder runs
 * them for every touching pair of a world step.
 */
export const featureIo = new Float64Array(7);

/**
 * Makes `f` the segment feature `index` from (featureIo[0..2]) to (featureIo[3..5]), clip tags
 * tagA, tagB.
 */
export function setSegment(f: SupportFeature, index: number, tagA: number, tagB: number): void {
  f.kind = FEATURE_SEGMENT;
  f.index = index;
  f.cos = 0;
  const poly = f.poly;
  poly.count = 0;
  reserveClipPolygon(poly, 2);
  const v = poly.xyz;
  for (let k = 0; k < 6; k++) v[k] = featureIo[k];
  poly.tags[0] = tagA;
  poly.tags[1] = tagB;
  poly.count = 2;
}

/**
 * featureIo[6] = the sine of the angle between the segment (featureIo[0..2]) and the plane ⟂
 * unit d; 1 for zero length.
 */
export function segmentSin(d: Vec3): void {
  const x = featureIo[0];
  const y = featureIo[1];
  const z = featureIo[2];
  const s = x * x + y * y + z * z;
  // hypot3's common case inline (its result is a double returned by a call).
  let len = Math.sqrt(s);
  // (A zero vector: √0 is hypot3's 0, and the call would box its arguments.)
  if (!(s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) && !(x === 0 && y === 0 && z === 0)) {
    hypot3Into(x, y, z);
    len = hypotIo[0];
  }
  featureIo[6] = len > 0 ? Math.abs(x * d.x + y * d.y + z * d.z) / len : 1;
}

/**
 * Regular octagon inscribed in the disc of radius featureIo[1] at height featureIo[0], first
 * vertex along (featureIo[2], featureIo[3]) = (ux, uz).
 */
export function discPolygon(f: SupportFeature, up: boolean): void {
  const y = featureIo[0];
  const radius = featureIo[1];
  const ux = featureIo[2];
  const uz = featureIo[3];
  f.kind = FEATURE_POLYGON;
  const poly = f.poly;
  poly.count = 0;
  reserveClipPolygon(poly, MANIFOLD_CAP_POLYGON_VERTICES);
  const v = poly.xyz;
  for (let q = 0; q < MANIFOLD_CAP_POLYGON_VERTICES; q++) {
    // Increasing angle about +Y turns z toward x, clockwise seen from +Y; reverse for the top.
    const k = up ? (MANIFOLD_CAP_POLYGON_VERTICES - q) % MANIFOLD_CAP_POLYGON_VERTICES : q;
    const cs = OCTAGON_COS[k];
    const sn = OCTAGON_SIN[k];
    v[3 * q] = radius * (ux * cs - uz * sn);
    v[3 * q + 1] = y;
    v[3 * q + 2] = radius * (ux * sn + uz * cs);
    poly.tags[q] = q + 1;
  }
  poly.count = MANIFOLD_CAP_POLYGON_VERTICES;
}
