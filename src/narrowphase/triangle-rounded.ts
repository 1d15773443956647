/**
 * A triangle against a rounded polytope — a rounded box or a rounded convex polyhedron, the
 * points within `radius` of a polytope core — by the exact feature computations of the triangle
 * against the core (src/narrowphase/triangle-polytope.ts), the radius added analytically
 * (issue 16: a triangle deep in a rounded box answered by EPA on the swept shape, 6.5e-4 too
 * deep; a small rounded hull deep in a rounded box 9.5e-6 too deep).
 *
 * The support of the rounded shape along a unit d is the core's plus r·d, so the overlap of the
 * pair along every direction is the core pair's plus r, and its least overlap — the penetration
 * depth — is the core pair's least overlap plus r, along the same normal (the separating axis
 * test over the triangle's normal, the core's faces and the edge crosses: exact for polytopes,
 * Ericson 2005, §5.2.1). When the cores are apart by g along the unit direction n between their
 * closest points, the rounded pair is apart by g − r (an overlap when g < r: the depth r − g
 * along n; van den Bergen 2003, §4.3.4). Either way the core answer moves B's witness by r
 * against the normal, onto the rounded surface where its supporting plane along −n is.
 *
 * Allocation-free: the core answers are written into preallocated results; no double crosses a
 * call V8 may leave out of line (the radius is read inside each routine, the core's prediction
 * passed through `contactPredictionIo`).
 */
import {
  exactRange,
  PLANE_GAP_UNDECIDED,
  planeGapIo,
  planeGapSignIo,
  pointTriangleGapSignIo,
} from "../geometry/exact-predicates.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import * as vec3 from "../math/vec3.js";
import type { RoundedShape } from "../shapes/rounded.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact, DistanceResult } from "./contact.js";
import { makeContact } from "./contact.js";
import {
  contactPredictionIo,
  contactTrianglePolytopeIo,
  distanceTrianglePolytope,
} from "./triangle-polytope.js";

const core = makeContact();

/**
 * Relative width of the band (times the largest coordinate of the triangle, B's offset, the
 * core and the radius) within which the core pair's gap less the radius is decided exactly
 * ({@link exactCoreFaceGap}): far wider than its rounding.
 */
const CORE_TOUCH_BAND = 2 ** -36;

const vertexLocal = vec3.create();
const vertexPlaced = vec3.create();
const faceUnit = vec3.create();
const edgeB = vec3.create();
const edgeC = vec3.create();

/**
 * The sign of the pair's gap (the core's distance to triangle `a` less the radius), exact where
 * a core vertex meets the triangle: −1 or 0 when some vertex lies at or within the radius of the
 * closed triangle — its face, an edge or a corner (src/geometry/exact-predicates.ts
 * `pointTriangleGapSignIo`: that vertex is that near the triangle); 1 when every vertex lies on
 * one side of the plane beyond the radius (the plane then parts the rounded core from the
 * triangle), or when the core is one point (a box of zero extents) beyond the radius of the
 * triangle; else PLANE_GAP_UNDECIDED (a core with extent apart from an edge or a corner: the
 * doubles decide). A vertex v is placed at R·v + t, the rotation rounded as the queries round it (none
 * for an identity rotation) and the offset added exactly. Nothing allocated.
 */
function exactCoreFaceGap(a: Triangle, b: RoundedShape, bInA: Isometry): number {
  const r = b.radius;
  const t = bInA.translation;
  const q = bInA.rotation;
  if (!exactRange(t) || !exactRange(a.a) || !exactRange(a.b) || !exactRange(a.c)) {
    return PLANE_GAP_UNDECIDED;
  }
  if (!(r === 0 || (r < 2 ** 300 && r >= 2 ** -300))) return PLANE_GAP_UNDECIDED;
  vec3.sub(edgeB, a.b, a.a);
  vec3.sub(edgeC, a.c, a.a);
  vec3.cross(faceUnit, edgeB, edgeC);
  if (!vec3.tryNormalize(faceUnit, faceUnit)) return PLANE_GAP_UNDECIDED;
  const box = b.type === ShapeType.RoundedCuboid;
  // A box of zero extents is one point: its vertex's exact gap is the pair's.
  const point =
    box && b.core.halfExtents.x === 0 && b.core.halfExtents.y === 0 && b.core.halfExtents.z === 0;
  const count = point ? 1 : box ? 8 : b.core.vertexCount;
  const identity = q.x === 0 && q.y === 0 && q.z === 0;
  const v = planeGapIo;
  v[6] = a.a.x;
  v[7] = a.a.y;
  v[8] = a.a.z;
  v[9] = a.b.x;
  v[10] = a.b.y;
  v[11] = a.b.z;
  v[12] = a.c.x;
  v[13] = a.c.y;
  v[14] = a.c.z;
  v[15] = r;
  v[16] = 0;
  let side = 0;
  let beyond = true;
  for (let i = 0; i < count; i++) {
    if (b.type === ShapeType.RoundedCuboid) {
      const h = b.core.halfExtents;
      vertexLocal.x = i & 1 ? h.x : -h.x;
      vertexLocal.y = i & 2 ? h.y : -h.y;
      vertexLocal.z = i & 4 ? h.z : -h.z;
    } else {
      const w = b.core.vertices;
      vertexLocal.x = w[3 * i];
      vertexLocal.y = w[3 * i + 1];
      vertexLocal.z = w[3 * i + 2];
    }
    if (identity) vec3.copy(vertexPlaced, vertexLocal);
    else quat.rotate(vertexPlaced, q, vertexLocal);
    if (!exactRange(vertexPlaced)) return PLANE_GAP_UNDECIDED;
    // The doubles' signed height over the plane, to skip the vertices clearly beyond.
    const hx = vertexPlaced.x + t.x - a.a.x;
    const hy = vertexPlaced.y + t.y - a.a.y;
    const hz = vertexPlaced.z + t.z - a.a.z;
    const h = hx * faceUnit.x + hy * faceUnit.y + hz * faceUnit.z;
    const m = Math.max(
      Math.abs(vertexPlaced.x) + Math.abs(t.x) + Math.abs(a.a.x),
      Math.abs(vertexPlaced.y) + Math.abs(t.y) + Math.abs(a.a.y),
      Math.abs(vertexPlaced.z) + Math.abs(t.z) + Math.abs(a.a.z),
      Math.abs(edgeB.x) + Math.abs(edgeB.y) + Math.abs(edgeB.z),
      Math.abs(edgeC.x) + Math.abs(edgeC.y) + Math.abs(edgeC.z),
      r,
    );
    const g = Math.abs(h) - r;
    if (g > CORE_TOUCH_BAND * m) {
      const s = h > 0 ? 1 : -1;
      if (side === 0) side = s;
      else if (s !== side) beyond = false;
      continue;
    }
    v[0] = vertexPlaced.x;
    v[1] = vertexPlaced.y;
    v[2] = vertexPlaced.z;
    v[3] = t.x;
    v[4] = t.y;
    v[5] = t.z;
    const k = planeGapSignIo();
    if (k === PLANE_GAP_UNDECIDED) {
      beyond = false;
      continue;
    }
    if (k <= 0) {
      // The vertex's exact gap to the closed triangle (its face, else its edges and corners).
      const kt = pointTriangleGapSignIo();
      if (kt <= 0 || (point && kt === 1)) return kt;
      beyond = false;
      continue;
    }
    const s = v[17];
    if (side === 0) side = s;
    else if (s !== side) beyond = false;
  }
  return beyond && side !== 0 ? 1 : PLANE_GAP_UNDECIDED;
}

/** io[0] (in: the core's gap less the radius; out: its sign made exact near 0, see below). */
const gapIo = new Float64Array(1);

/**
 * gapIo[0], the pair's gap in doubles, with its sign made exact where it lies within
 * {@link CORE_TOUCH_BAND} of 0 ({@link exactCoreFaceGap}; issue 16: a rounded hull whose core
 * vertex lies exactly its radius above a tilted face was 1.1e-16 apart): an exact touch, or an
 * overlap the doubles call apart, is 0; an exact gap the doubles call none the least positive
 * double. `c`: the core pair's contact (its witness on the core sets the band's scale).
 */
function exactGap(a: Triangle, b: RoundedShape, bInA: Isometry, c: Contact): void {
  const g = gapIo[0];
  const t = bInA.translation;
  const m = Math.max(
    Math.abs(t.x),
    Math.abs(t.y),
    Math.abs(t.z),
    Math.abs(a.a.x),
    Math.abs(a.a.y),
    Math.abs(a.a.z),
    Math.abs(a.b.x),
    Math.abs(a.b.y),
    Math.abs(a.b.z),
    Math.abs(a.c.x),
    Math.abs(a.c.y),
    Math.abs(a.c.z),
    b.radius,
    Math.abs(c.pointB.x),
    Math.abs(c.pointB.y),
    Math.abs(c.pointB.z),
  );
  if (!(Math.abs(g) <= CORE_TOUCH_BAND * m)) return;
  const k = exactCoreFaceGap(a, b, bInA);
  if (k === 0 || (k < 0 && g > 0)) gapIo[0] = 0;
  else if (k === 1 && !(g > 0)) gapIo[0] = Number.MIN_VALUE;
}

/**
 * The core pair's contact into `out` at any gap (its prediction unbounded: the closest features
 * always, never the SAT's early "apart", whose lower bound of the gap can round above the
 * features' own gap), so that intersects, distance and contact decide on one number, the
 * features' gap less the radius. False only for a non-finite gap.
 */
function coreContact(out: Contact, a: Triangle, b: RoundedShape, bInA: Isometry): boolean {
  contactPredictionIo[0] = Number.POSITIVE_INFINITY;
  return contactTrianglePolytopeIo(out, a, b.core, bInA);
}

/**
 * Contact of triangle `a` and rounded polytope `b` (B at `bInA`, A's frame) within `prediction`
 * (≥ 0, scene units): the core pair's contact, its distance less the radius (negative: the
 * depth), its normal (unit, A toward B), A's witness and B's moved by the radius against the
 * normal. False when apart by more than `prediction`.
 */
export function contactTriangleRounded(
  out: Contact,
  a: Triangle,
  b: RoundedShape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (!coreContact(out, a, b, bInA)) return false;
  const r = b.radius;
  gapIo[0] = out.distance - r;
  exactGap(a, b, bInA, out);
  const d = gapIo[0];
  if (!(d <= prediction)) return false;
  out.distance = d;
  const n = out.normal;
  out.pointB.x = out.pointB.x - n.x * r;
  out.pointB.y = out.pointB.y - n.y * r;
  out.pointB.z = out.pointB.z - n.z * r;
  return true;
}

/**
 * Closest points of triangle `a` and rounded polytope `b` (A's frame): the contact's gap when
 * positive, with A's closest point and B's (the core's moved by the radius against the normal);
 * else distance 0 with the contact's witnesses (the deepest points, spanning its depth along its
 * normal). Returns `out`.
 */
export function distanceTriangleRounded(
  out: DistanceResult,
  a: Triangle,
  b: RoundedShape,
  bInA: Isometry,
): DistanceResult {
  if (!coreContact(core, a, b, bInA)) return distanceTrianglePolytope(out, a, b.core, bInA);
  const r = b.radius;
  gapIo[0] = core.distance - r;
  exactGap(a, b, bInA, core);
  const d = gapIo[0];
  const n = core.normal;
  out.distance = Math.max(d, 0);
  out.pointA.x = core.pointA.x;
  out.pointA.y = core.pointA.y;
  out.pointA.z = core.pointA.z;
  out.pointB.x = core.pointB.x - n.x * r;
  out.pointB.y = core.pointB.y - n.y * r;
  out.pointB.z = core.pointB.z - n.z * r;
  return out;
}

/** True when triangle `a` and rounded polytope `b` (B at `bInA`, A's frame) overlap or touch. */
export function intersectsTriangleRounded(a: Triangle, b: RoundedShape, bInA: Isometry): boolean {
  if (!coreContact(core, a, b, bInA)) return false;
  gapIo[0] = core.distance - b.radius;
  exactGap(a, b, bInA, core);
  return gapIo[0] <= 0;
}
