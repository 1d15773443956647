/**
 * Debug draw of a GJK/EPA trace ({@link traceGjkPair}). The Minkowski difference A − B lives in
 * its own space around the origin; it is drawn translated to a world point `anchor` (where the
 * caller wants the "configuration space" inset), with a cross marking its origin. In the scene
 * itself each simplex point's witnesses on A and B are drawn and joined.
 */
import { computeConvexHull } from "../geometry/hull.js";
import { TransformedSupport } from "../geometry/support.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { ShapeCoreSupport } from "../narrowphase/convex-convex.js";
import type { ConvexShape } from "../shapes/shape.js";
import { DebugColors, type DebugDraw } from "./draw.js";
import type { EpaPolytopeView, GjkStepView } from "./gjk-trace.js";
import { drawCross } from "./shapes.js";

const p0 = vec3.create();
const p1 = vec3.create();

function offset(out: Vec3, anchor: Vec3, p: Vec3): Vec3 {
  return vec3.add(out, anchor, p);
}

/**
 * One GJK iteration into `dd`: the origin cross and, translated by `anchor`, every edge and
 * point of the simplex, its closest point v and the next search direction as a segment of
 * length `directionLength` from v; in the scene, the witness points on A and B joined by a
 * segment. `markerSize` is the cross's half size (scene units). Returns `dd`.
 */
export function drawGjkStep(
  dd: DebugDraw,
  step: GjkStepView,
  anchor: Vec3,
  directionLength: number,
  markerSize: number,
): DebugDraw {
  drawCross(dd, anchor, markerSize, DebugColors.origin);
  const s = step.simplex;
  for (let i = 0; i < s.length; i++) {
    dd.point(offset(p0, anchor, s[i]), DebugColors.simplex);
    for (let j = i + 1; j < s.length; j++) {
      dd.line(offset(p0, anchor, s[i]), offset(p1, anchor, s[j]), DebugColors.simplex);
    }
    dd.point(step.witnessesA[i], DebugColors.witness);
    dd.point(step.witnessesB[i], DebugColors.witness);
    dd.line(step.witnessesA[i], step.witnessesB[i], DebugColors.witness);
  }
  offset(p0, anchor, step.v);
  dd.point(p0, DebugColors.closestPoint);
  dd.line(anchor, p0, DebugColors.closestPoint);
  vec3.addScaled(p1, p0, step.direction, directionLength);
  dd.line(p0, p1, DebugColors.searchDirection);
  return dd;
}

/**
 * One EPA polytope into `dd`, translated by `anchor`: every face edge once, the closest face's
 * edges in the highlight colour, and the penetration vector (closest face distance × normal)
 * from the origin. Returns `dd`.
 */
export function drawEpaPolytope(dd: DebugDraw, poly: EpaPolytopeView, anchor: Vec3): DebugDraw {
  const seen = new Set<string>();
  const v = poly.vertices;
  poly.faces.forEach((f, idx) => {
    const closest = poly.closestFaces.includes(idx);
    for (let e = 0; e < 3; e++) {
      const i = f[e];
      const j = f[(e + 1) % 3];
      const key = i < j ? `${i},${j}` : `${j},${i}`;
      if (!closest && seen.has(key)) continue;
      seen.add(key);
      const c = closest ? DebugColors.closestFace : DebugColors.polytope;
      dd.line(offset(p0, anchor, v[i]), offset(p1, anchor, v[j]), c);
    }
  });
  for (const p of v) dd.point(offset(p0, anchor, p), DebugColors.polytope);
  if (poly.closestFaces.length > 0) {
    vec3.addScaled(p0, anchor, poly.normal, poly.distance);
    dd.line(anchor, p0, DebugColors.closestFace);
  }
  return dd;
}

/** Number of support directions sampled for the Minkowski-difference wireframe. */
const MINKOWSKI_SAMPLES = 200;

/**
 * The Minkowski difference of the cores of `a` at `poseA` and `b` at `poseB` (world
 * orientation), translated by `anchor`, into `dd`: the convex hull of its support points in
 * `samples` Fibonacci directions (an inner approximation that is exact for polytopes with few
 * vertices), drawn as hull edges; a flat difference (a point, a segment or a polygon) is drawn
 * as its sampled points. Returns `dd`.
 */
export function drawMinkowskiDifference(
  dd: DebugDraw,
  a: ConvexShape,
  poseA: Isometry,
  b: ConvexShape,
  poseB: Isometry,
  anchor: Vec3,
  samples: number = MINKOWSKI_SAMPLES,
): DebugDraw {
  const sa = new TransformedSupport().reset(new ShapeCoreSupport().reset(a), poseA);
  const sb = new TransformedSupport().reset(new ShapeCoreSupport().reset(b), poseB);
  const n = Math.max(6, Math.floor(samples));
  const pts = new Float64Array(3 * n);
  const dir = vec3.create();
  const neg = vec3.create();
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const y = 1 - (2 * (i + 0.5)) / n;
    const r = Math.sqrt(Math.max(0, 1 - y * y));
    vec3.set(dir, Math.cos(golden * i) * r, y, Math.sin(golden * i) * r);
    sa.support(p0, dir);
    sb.support(p1, vec3.negate(neg, dir));
    pts[3 * i] = p0.x - p1.x;
    pts[3 * i + 1] = p0.y - p1.y;
    pts[3 * i + 2] = p0.z - p1.z;
  }
  let hull: ReturnType<typeof computeConvexHull> | null = null;
  try {
    hull = computeConvexHull(pts, "points");
  } catch {
    hull = null;
  }
  if (!hull) {
    for (let i = 0; i < n; i++) {
      vec3.set(p0, pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]);
      dd.point(offset(p0, anchor, p0), DebugColors.minkowski);
    }
    return dd;
  }
  const hv = hull.vertices;
  const e = hull.edges;
  for (let k = 0; k + 1 < e.length; k += 2) {
    const i = 3 * e[k];
    const j = 3 * e[k + 1];
    vec3.set(p0, anchor.x + hv[i], anchor.y + hv[i + 1], anchor.z + hv[i + 2]);
    vec3.set(p1, anchor.x + hv[j], anchor.y + hv[j + 1], anchor.z + hv[j + 2]);
    dd.line(p0, p1, DebugColors.minkowski);
  }
  return dd;
}
