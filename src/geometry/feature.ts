/**
 * Supporting features for contact manifolds: the polygon, segment or point of a convex shape
 * that supports it along a direction (Ericson 2005, §8.3.4; Jolt's `GetSupportingFace`). Each
 * shape definition (src/shapes/defs/) writes its own feature into a {@link SupportFeature}
 * record with the setters here; the manifold builder (src/narrowphase/manifold.ts) clips them.
 * Feature numbering per shape is listed in manifold.ts's module docs.
 */
import { MANIFOLD_FEATURE_COS } from "../constants.js";
import { hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { type ClipPolygon, makeClipPolygon, pushClipVertex } from "./clip.js";

/** Vertices of the regular polygon inscribed in a cylinder cap or cone base (fixed at 8). */
export const MANIFOLD_CAP_POLYGON_VERTICES = 8;

/** Largest sine of a segment's angle to the contact plane for it to be a contact feature. */
export const SEGMENT_SIN = Math.sqrt(1 - MANIFOLD_FEATURE_COS * MANIFOLD_FEATURE_COS);

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

/** Makes `f` the segment feature `index` from (ax, ay, az) to (bx, by, bz), clip tags tagA, tagB. */
export function setSegment(
  f: SupportFeature,
  index: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  tagA: number,
  tagB: number,
): void {
  f.kind = FEATURE_SEGMENT;
  f.index = index;
  f.cos = 0;
  f.poly.count = 0;
  pushClipVertex(f.poly, ax, ay, az, tagA);
  pushClipVertex(f.poly, bx, by, bz, tagB);
}

/** Sine of the angle between segment (x, y, z) and the plane ⟂ unit d; 1 for zero length. */
export function segmentSin(x: number, y: number, z: number, d: Vec3): number {
  const len = hypot3(x, y, z);
  if (!(len > 0)) return 1;
  return Math.abs(x * d.x + y * d.y + z * d.z) / len;
}

/** Regular octagon inscribed in the disc of `radius` at height y, first vertex along (ux, uz). */
export function discPolygon(
  f: SupportFeature,
  y: number,
  radius: number,
  ux: number,
  uz: number,
  up: boolean,
): void {
  f.kind = FEATURE_POLYGON;
  f.poly.count = 0;
  for (let q = 0; q < MANIFOLD_CAP_POLYGON_VERTICES; q++) {
    // Increasing angle about +Y turns z toward x, clockwise seen from +Y; reverse for the top.
    const k = up ? (MANIFOLD_CAP_POLYGON_VERTICES - q) % MANIFOLD_CAP_POLYGON_VERTICES : q;
    const cs = OCTAGON_COS[k];
    const sn = OCTAGON_SIN[k];
    pushClipVertex(f.poly, radius * (ux * cs - uz * sn), y, radius * (ux * sn + uz * cs), q + 1);
  }
}
