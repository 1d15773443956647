/**
 * Step-by-step GJK and EPA on a pair of convex shapes, for the debug viewer: every GJK iteration's
 * reduced simplex (points of the Minkowski difference A − B with their witnesses on A and B), its
 * closest point v to the origin and the next search direction −v/|v|; then, when the cores
 * intersect, every EPA iteration's polytope with its closest face.
 *
 * GJK is the library's own (`gjk` with a {@link GjkTrace} recorder), run exactly as the narrow
 * phase runs it (src/narrowphase/convex-convex.ts): on the shapes' cores (a sphere's centre, a
 * capsule's segment, any other convex shape itself) in A's frame with B posed by bInA = A⁻¹·B
 * and warm-started along B's centre minus A's. EPA's polytope is not observable from the
 * library's allocation-free `epa` (its arenas are private), so this file carries a small,
 * allocating EPA of its own ({@link traceEpa}) that records each polytope; the library's `epa` gives the reported depth and normal, and the tests
 * check that both agree.
 *
 * Every output is in the WORLD frame: Minkowski points are R_A·(a − b) (the world Minkowski
 * difference A_world − B_world: the translation of A cancels), witnesses R_A·p + t_A.
 */
import {
  EPA_MAX_ITERATIONS,
  EPA_POLYTOPE_TOLERANCE,
  EPA_TOLERANCE,
  GJK_ROUNDING_TOLERANCE,
} from "../constants.js";
import { CollideError } from "../errors.js";
import { EpaStatus, epa, makeEpaResult } from "../geometry/epa.js";
import type { GjkSimplex, GjkTrace } from "../geometry/gjk.js";
import { GjkStatus, gjk, makeGjkResult } from "../geometry/gjk.js";
import { type ConvexHull, computeConvexHull } from "../geometry/hull.js";
import type { SupportMap } from "../geometry/support.js";
import { TransformedSupport } from "../geometry/support.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { makeContact } from "../narrowphase/contact.js";
import { contactConvexConvex, ShapeCoreSupport } from "../narrowphase/convex-convex.js";
import { isConvexType } from "../narrowphase/dispatch.js";
import { shapeDef } from "../shapes/registry.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_NAMES } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";

/** One GJK iteration, world frame. */
export interface GjkStepView {
  /** Points of the reduced simplex (1–4), Minkowski difference A − B. */
  simplex: Vec3[];
  /** Witness of each simplex point on A's core. */
  witnessesA: Vec3[];
  /** Witness of each simplex point on B's core. */
  witnessesB: Vec3[];
  /** Closest point of the simplex to the origin. */
  v: Vec3;
  /** The next search direction −v/|v| (unit; the last one when v = 0). */
  direction: Vec3;
}

/** One EPA iteration's polytope, world frame (Minkowski difference A − B). */
export interface EpaPolytopeView {
  /** Polytope vertices. */
  vertices: Vec3[];
  /** Faces as vertex index triples, counter-clockwise seen from outside. */
  faces: [number, number, number][];
  /** Indices into `faces` of the triangles of the face closest to the origin (empty when flat). */
  closestFaces: number[];
  /** Distance of that face's plane from the origin, scene units. */
  distance: number;
  /** Its outward unit normal. */
  normal: Vec3;
}

/** The EPA part of a {@link GjkPairTrace}. */
export interface EpaTraceView {
  /** The polytope at each iteration (the last one is the final polytope). */
  steps: EpaPolytopeView[];
  /** Core penetration depth from the library's `epa`, scene units. */
  depth: number;
  /** Unit normal from A toward B from the library's `epa`, world frame. */
  normal: Vec3;
  /**
   * How the library's `epa` ended: `converged`, or `max-iterations` / `degenerate` (the narrow
   * phase then falls back to SAT or sampling, which `GjkPairTrace.distance` includes), or `flat`.
   */
  status: "converged" | "max-iterations" | "degenerate" | "flat";
  /** Core depth reached by the recorded polytope (agrees with `depth` within EPA's tolerance). */
  tracedDepth: number;
}

/** GJK (and EPA) on one pair, step by step; see the module docs. */
export interface GjkPairTrace {
  /** How GJK ended. */
  status: "separated" | "intersecting";
  /** Core distance, scene units (0 when the cores intersect). */
  coreDistance: number;
  /** Margins of A's and B's cores (sphere and capsule radii), scene units. */
  marginA: number;
  marginB: number;
  /**
   * Signed distance of the full shapes as the general narrow phase computes it
   * (`contactConvexConvex`: GJK, EPA and its fallbacks), scene units: negative = penetration.
   */
  distance: number;
  /** The narrow phase's unit contact normal from A toward B, world frame. */
  normal: Vec3;
  /** The recorded GJK iterations, in order. */
  steps: GjkStepView[];
  /** EPA's record when the cores intersect, else null. */
  epa: EpaTraceView | null;
}

/** Records GJK iterations with their witnesses (A's frame); allocates. */
class WitnessRecorder implements GjkTrace {
  readonly steps: { w: Vec3[]; a: Vec3[]; b: Vec3[]; v: Vec3 }[] = [];

  record(_iteration: number, s: GjkSimplex, v: Vec3): void {
    const w: Vec3[] = [];
    const a: Vec3[] = [];
    const b: Vec3[] = [];
    for (let i = 0; i < s.count; i++) {
      w.push(vec3.clone(s.w[i]));
      a.push(vec3.clone(s.a[i]));
      b.push(vec3.clone(s.b[i]));
    }
    this.steps.push({ w, a, b, v: vec3.clone(v) });
  }
}

/** True when `s` has a support function (GJK can run on it). */
export function isTraceable(s: Shape | TriangleMesh): s is ConvexShape {
  return isConvexType(s.type);
}

/** True for the shapes whose core is a polytope (flat faces only). */
function isPolytope(s: ConvexShape): boolean {
  return shapeDef(s.type).polytope !== null;
}

function requireConvex(field: string, s: Shape | TriangleMesh): ConvexShape {
  if (!isTraceable(s)) {
    const name = SHAPE_TYPE_NAMES[s.type] ?? String(s.type);
    throw new CollideError(
      "unsupported_pair",
      field,
      name,
      `${field} is a ${name}: GJK steps need two convex shapes`,
    );
  }
  return s;
}

/**
 * Runs GJK — and EPA when the cores intersect — on convex shapes `shapeA` at world `poseA` and
 * `shapeB` at `poseB`, and returns every iteration in the world frame (see the module docs).
 * Throws `CollideError` (`unsupported_pair`, field `shapeA` or `shapeB`) when a shape is not
 * convex (a half-space, a compound, a triangle mesh). Allocates; for debugging only.
 * Sources: Gilbert, Johnson & Keerthi 1988; van den Bergen 2001 (EPA).
 */
export function traceGjkPair(
  shapeA: Shape | TriangleMesh,
  poseA: Isometry,
  shapeB: Shape | TriangleMesh,
  poseB: Isometry,
): GjkPairTrace {
  const a = requireConvex("shapeA", shapeA);
  const b = requireConvex("shapeB", shapeB);
  const coreA = new ShapeCoreSupport().reset(a);
  const coreB = new ShapeCoreSupport().reset(b);
  const bInA = iso.invMul(iso.identity(), poseA, poseB);
  const coreBInA = new TransformedSupport().reset(coreB, bInA);
  const recorder = new WitnessRecorder();
  const g = gjk(makeGjkResult(), coreA, coreBInA, vec3.clone(bInA.translation), Infinity, recorder);

  const toWorldPoint = (p: Vec3) => iso.transformPoint(vec3.create(), poseA, p);
  const toWorldDir = (d: Vec3) => quat.rotate(vec3.create(), poseA.rotation, d);
  let lastDir = toWorldDir(g.direction);
  const steps: GjkStepView[] = recorder.steps.map((st) => {
    const v = toWorldDir(st.v);
    const dir = vec3.negate(vec3.create(), v);
    if (vec3.normalize(dir, dir) > 0) lastDir = dir;
    return {
      simplex: st.w.map(toWorldDir),
      witnessesA: st.a.map(toWorldPoint),
      witnessesB: st.b.map(toWorldPoint),
      v,
      direction: vec3.clone(lastDir),
    };
  });

  const marginA = coreA.margin;
  const marginB = coreB.margin;
  const c = makeContact();
  contactConvexConvex(c, a, b, bInA, Infinity);
  const common = {
    marginA,
    marginB,
    distance: c.distance,
    normal: toWorldDir(c.normal),
    steps,
  };
  if (g.status !== GjkStatus.Intersecting && g.distance > 0) {
    return { status: "separated", coreDistance: g.distance, ...common, epa: null };
  }
  const tol = isPolytope(a) && isPolytope(b) ? EPA_POLYTOPE_TOLERANCE : EPA_TOLERANCE;
  const lib = epa(makeEpaResult(), coreA, coreBInA, g.simplex, g.direction, tol);
  const traced = traceEpa(coreA, coreBInA, g.simplex, tol);
  const epaView: EpaTraceView = {
    steps: traced.steps.map((p) => ({
      vertices: p.vertices.map(toWorldDir),
      faces: p.faces,
      closestFaces: p.closestFaces,
      distance: p.distance,
      normal: toWorldDir(p.normal),
    })),
    depth: lib.depth,
    normal: toWorldDir(lib.normal),
    status: EPA_STATUS_NAMES[lib.status],
    tracedDepth: traced.depth,
  };
  return { status: "intersecting", coreDistance: 0, ...common, epa: epaView };
}

const EPA_STATUS_NAMES: Record<EpaStatus, EpaTraceView["status"]> = {
  [EpaStatus.Converged]: "converged",
  [EpaStatus.MaxIterations]: "max-iterations",
  [EpaStatus.Degenerate]: "degenerate",
  [EpaStatus.Flat]: "flat",
};

/** The result of {@link traceEpa}: polytopes per iteration and the depth reached (A's frame). */
export interface EpaRecord {
  /** Polytope of every iteration. */
  steps: EpaPolytopeView[];
  /** Distance of the final closest face from the origin (≥ 0), scene units. */
  depth: number;
}

const AXIS_DIRS: Vec3[] = [
  { x: 1, y: 0, z: 0 },
  { x: -1, y: 0, z: 0 },
  { x: 0, y: 1, z: 0 },
  { x: 0, y: -1, z: 0 },
  { x: 0, y: 0, z: 1 },
  { x: 0, y: 0, z: -1 },
];

/** The hull of packed points, or null when they are flat (fewer than 4 non-coplanar). */
function hullOrNull(points: number[]): ConvexHull | null {
  try {
    return computeConvexHull(points, "polytope");
  } catch (e) {
    if (e instanceof CollideError) return null;
    throw e;
  }
}

/** The polytope view of a hull: fan-triangulated faces, the closest face's triangles. */
function polytopeOf(h: ConvexHull): EpaPolytopeView {
  const vertices: Vec3[] = [];
  for (let i = 0; i + 2 < h.vertices.length; i += 3) {
    vertices.push(vec3.create(h.vertices[i], h.vertices[i + 1], h.vertices[i + 2]));
  }
  let best = 0;
  const nf = h.faceOffsets.length - 1;
  for (let f = 1; f < nf; f++) if (h.facePlaneOffsets[f] < h.facePlaneOffsets[best]) best = f;
  const faces: [number, number, number][] = [];
  const closestFaces: number[] = [];
  const fv = h.faceVertices;
  for (let f = 0; f < nf; f++) {
    const o0 = h.faceOffsets[f];
    for (let k = o0 + 1; k + 1 < h.faceOffsets[f + 1]; k++) {
      if (f === best) closestFaces.push(faces.length);
      faces.push([fv[o0], fv[k], fv[k + 1]]);
    }
  }
  const n = h.faceNormals;
  return {
    vertices,
    faces,
    closestFaces,
    distance: Math.max(0, h.facePlaneOffsets[best]),
    normal: vec3.create(n[3 * best], n[3 * best + 1], n[3 * best + 2]),
  };
}

/**
 * A recording EPA (allocating; for the viewer): from GJK's final simplex of intersecting cores
 * `a` and `b` (support maps in one frame), adds support points along the axes until the points
 * span a volume, then repeatedly takes the polytope's face closest to the origin and adds the
 * support point along its outward normal, until that point lies within `tolerance` (relative)
 * of the face, at most EPA_MAX_ITERATIONS times. The polytope of every iteration is the convex
 * hull of the points found so far — the same polytope EPA's incremental horizon update keeps —
 * computed by the library's quickhull with its exact orientation test, so coplanar and
 * collinear support points (boxes, touching shapes) need no special case. A flat Minkowski
 * difference gives depth 0 and no faces. Sources: van den Bergen 2001; Ericson 2005 §9.5.
 */
export function traceEpa(
  a: SupportMap,
  b: SupportMap,
  simplex: GjkSimplex,
  tolerance: number = EPA_TOLERANCE,
): EpaRecord {
  const pts: number[] = [];
  let size = 0;
  const add = (p: Vec3) => {
    pts.push(p.x, p.y, p.z);
    size = Math.max(size, vec3.length(p));
  };
  const support = (dir: Vec3): Vec3 => {
    const sa = a.support(vec3.create(), dir);
    const sb = b.support(vec3.create(), vec3.negate(vec3.create(), dir));
    return vec3.sub(sa, sa, sb);
  };
  for (let i = 0; i < simplex.count; i++) add(simplex.w[i]);
  let hull = pts.length >= 12 ? hullOrNull(pts) : null;
  for (let d = 0; !hull && d < AXIS_DIRS.length; d++) {
    add(support(AXIS_DIRS[d]));
    if (pts.length >= 12) hull = hullOrNull(pts);
  }
  if (!hull) {
    const vertices: Vec3[] = [];
    for (let i = 0; i < pts.length; i += 3)
      vertices.push(vec3.create(pts[i], pts[i + 1], pts[i + 2]));
    return {
      steps: [{ vertices, faces: [], closestFaces: [], distance: 0, normal: vec3.create(1, 0, 0) }],
      depth: 0,
    };
  }
  const steps: EpaPolytopeView[] = [];
  let depth = 0;
  for (let iter = 0; iter < EPA_MAX_ITERATIONS && hull; iter++) {
    const poly = polytopeOf(hull);
    steps.push(poly);
    depth = poly.distance;
    const p = support(poly.normal);
    const floor = GJK_ROUNDING_TOLERANCE * Math.max(size, vec3.length(p));
    if (vec3.dot(poly.normal, p) - poly.distance <= tolerance * poly.distance + floor) break;
    add(p);
    hull = hullOrNull(pts);
  }
  return { steps, depth };
}
