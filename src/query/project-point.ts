/**
 * The `projectPoint` query: the point of a posed shape closest to a query point.
 *
 * For a solid shape a point inside projects onto itself (distance 0); for a hollow one
 * (`solid: false`) it projects onto the closest point of the boundary even from inside. Each
 * shape's definition holds its projection in its local frame (src/shapes/defs/, the
 * `projectPoint` of its record), a composite projects onto its parts through its view (below):
 * clamping for the box (Ericson 2005, §5.1.3), the
 * closest point on the core segment plus the radius for spheres and capsules (§5.1.2), the 2D
 * profile of the solid of revolution — a rectangle for the cylinder, a triangle for the cone —
 * in the half-plane through the axis and the point, the faces (fan triangles, §5.1.5) of a
 * convex polyhedron, and the closest point on a triangle (§5.1.5). Flat shapes (a triangle)
 * have no interior: a point is inside only when it lies on them.
 */

import { CollideError, invalidValue } from "../errors.js";
import { closestPointOnTriangle } from "../geometry/closest-point.js";
import {
  EXACT_FAR_RATIO,
  exactFarActive,
  exactFarResume,
  exactFarScope,
  exactFarSuspend,
  exactPathFor,
  exactRevolutionWhenFar,
} from "../geometry/exact-nearest.js";
import { exactOffset, farGridCentre, twoSumError } from "../geometry/far-centre.js";
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import { makeMeshBvhHits, pushMeshBvhHit } from "../geometry/mesh-bvh.js";
import { projectOntoTriangle } from "../geometry/triangle-projection.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import {
  farFromUnitScale,
  outOfUnitRange,
  pointRescaleFactor,
  scaledShape,
} from "../narrowphase/extreme-scale.js";
import type { Capsule } from "../shapes/capsule.js";
import type { CompositePart, CompositeTree, CompositeView } from "../shapes/composite.js";
import {
  COMPOSITE_TREE_MAX_CHILDREN,
  compositeView,
  makeCompositePart,
} from "../shapes/composite.js";
import type { Cone } from "../shapes/cone.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Cylinder } from "../shapes/cylinder.js";
import { refineFarCapsule } from "../shapes/defs/capsule.js";
import { exactHullWhenFar } from "../shapes/defs/convex-polyhedron.js";
import { farCentredCopy } from "../shapes/far-frame.js";
import type { Heightfield } from "../shapes/heightfield.js";
import { getHeightfieldTriangle, isHeightfieldHole } from "../shapes/heightfield.js";
import { aabbOf, type PointProjection, shapeDef } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import {
  getMeshTriangle,
  makeTriangleMesh,
  meshMagnitude,
  type TriangleMesh,
} from "../shapes/triangle-mesh.js";
import { checkVec3 } from "../shapes/validate.js";
import { checkOffset, checkPose, checkShapeArg } from "./frames.js";
import { hasNaN3, refuseBadInputs } from "./guard.js";
import {
  closestPointOnMesh,
  exactHeldPoint,
  exactNearestAmong,
  exactTiedNearest,
  makeMeshPointQuery,
  tiedExactDistance,
} from "./mesh-distance.js";
// The deferred shape operations this module calls (features, ray casts, point projections).
import "../shapes/defs/ops.js";

export type { PointProjection } from "../shapes/registry.js";

/** A new zeroed projection (allocates). */
export function makePointProjection(): PointProjection {
  return { point: vec3.create(), distance: 0, inside: false, triangle: -1 };
}

/**
 * Throws `CollideError("unsupported_pair")` for a shape type that query `op` cannot answer
 * (shared by the shape-level queries of this folder).
 */
export function unsupportedShape(shape: { type: number }, op: string): never {
  const name = SHAPE_TYPE_NAMES[shape.type] ?? String(shape.type);
  throw new CollideError("unsupported_pair", "", name, `${op} is not supported for ${name}`);
}

/**
 * Writes to `out` the projection of the local point `p` onto `shape` in its own frame
 * (out.point local). Allocation free. Throws `unsupported_pair` for a shape type it cannot
 * answer.
 */
export function projectPointLocal(
  out: PointProjection,
  shape: Shape,
  p: Vec3,
  solid: boolean,
): PointProjection {
  if (out.triangle !== undefined) out.triangle = -1;
  // A hull given far from its frame's origin (also a compound's part): answered at its centre
  // (src/shapes/hull-frame.ts), as projectPoint's own hull (below).
  if (shape.type === ShapeType.ConvexPolyhedron) {
    const copy = farCentredCopy(localCentre, shape, PROJECT_IDENTITY);
    if (copy !== null && exactOffset(localPoint, p, localCentre)) {
      const c = localCentre;
      const cx = c.x;
      const cy = c.y;
      const cz = c.z;
      projectPointLocal(out, copy, localPoint, solid);
      if (out.inside && solid) vec3.copy(out.point, p);
      else vec3.add(out.point, out.point, vec3.set(localCentre, cx, cy, cz));
      return out;
    }
  }
  // A mesh given far from its frame's origin: answered as its copy at its centre (the same
  // triangles in the same order), as the posed mesh (src/geometry/far-centre.ts).
  if (shape.type === ShapeType.TriangleMesh) {
    const h = centredMesh(shape as TriangleMesh);
    if (h !== null && exactOffset(localPoint, p, h.centre)) {
      projectPointLocal(out, h.copy, localPoint, solid);
      if (!(out.inside && solid)) vec3.add(out.point, out.point, h.centre);
      else vec3.copy(out.point, p);
      return out;
    }
  }
  const project = shapeDef(shape.type).projectPoint;
  if (project) {
    // A triangle projects at any scale itself (src/geometry/triangle-projection.ts): one
    // common factor would flush a 2^-460 triangle to 0 under a point 2^893 away.
    const k = shape.type === ShapeType.Triangle ? 1 : pointRescaleFactor(shape, p);
    // A mesh far from unit scale: its triangles one by one, each rescaled.
    if (
      k === 1 &&
      compositeView(shape.type) &&
      (farFromUnitScale(shape, p) || surfaceMeshFarFromUnitScale(shape))
    )
      return projectPointComposite(out, shape, p, solid);
    if (k === 1) return project(out, shape, p, solid);
    // Far from unit scale (src/narrowphase/extreme-scale.ts): the shape and the point multiplied
    // by the power of two k (exact), the answer's lengths divided by it; allocates the copy.
    project(out, scaledShape(shape, k), vec3.scale(scaledPoint, p, k), solid);
    vec3.scale(out.point, out.point, 1 / k);
    out.distance *= 1 / k;
    // The scaled copy may have lost a small shape's low bits (subnormal at k): the exact far
    // path again on the shape as given (src/geometry/exact-nearest.ts).
    if (!out.inside) {
      if (shape.type === ShapeType.ConvexPolyhedron)
        exactHullWhenFar(out, shape as ConvexPolyhedron, p);
      else if (shape.type === ShapeType.Capsule) refineFarCapsule(out, shape as Capsule, p);
      else if (shape.type === ShapeType.Cylinder || shape.type === ShapeType.Cone) {
        const c = shape as Cylinder | Cone;
        const cone = shape.type === ShapeType.Cone;
        if (exactRevolutionWhenFar(out.point, out.distance, cone, c.halfHeight, c.radius, p))
          out.distance = vec3.distance(p, out.point);
      }
    }
    return out;
  }
  if (compositeView(shape.type)) return projectPointComposite(out, shape, p, solid);
  return unsupportedShape(shape, "projectPoint");
}

/**
 * A surface mesh (not solid) whose vertices reach outside [2^-128, 2^128] (its bounding radius,
 * cached): the BVH walk's squared distances would overflow or underflow, so its triangles are
 * projected one by one through the composite view (each at any scale).
 */
function surfaceMeshFarFromUnitScale(shape: Shape): boolean {
  if (shape.type !== ShapeType.TriangleMesh || (shape as TriangleMesh).solid) return false;
  return outOfUnitRange(shapeDef(shape.type).boundingRadius(shape));
}

/** Scratch of one composite level of a projection. */
const scaledPoint = vec3.create();
const localCentre = vec3.create();
const localPoint = vec3.create();

interface ProjectLevel {
  hits: MeshBvhHits;
  part: CompositePart;
  local: Vec3;
  best: PointProjection;
  one: PointProjection;
  found: boolean;
  inside: boolean;
  /** The part id of `best` (a mesh's triangle index). */
  bestId: number;
  /** The last {@link nearestPart}'s parts' distances, by hit (its `hitCount` of them). */
  dists: Float64Array;
  hitCount: number;
}
const projectLevels: ProjectLevel[] = [];
let projectDepth = 0;

/**
 * Projection onto a composite through its view (src/shapes/composite.ts): the nearest of the
 * parts' projections, each in its part's frame. `inside` when the point is inside (or on) some
 * part; a solid composite then projects the point onto itself. Hollow (`solid` false), the
 * answer is, from inside some part, the boundary point of the part that holds the point deepest
 * (a nearer part surface lies inside that part, off the union's boundary), else the nearest
 * point of the parts' surfaces.
 */
function projectPointComposite(
  out: PointProjection,
  shape: Shape,
  p: Vec3,
  solid: boolean,
): PointProjection {
  const view = compositeView(shape.type) as CompositeView;
  while (projectLevels.length <= projectDepth) {
    projectLevels.push({
      hits: makeMeshBvhHits(16),
      part: makeCompositePart(),
      local: vec3.create(),
      best: makePointProjection(),
      one: makePointProjection(),
      found: false,
      inside: false,
      bestId: -1,
      dists: new Float64Array(16),
      hitCount: 0,
    });
  }
  const l = projectLevels[projectDepth++];
  try {
    // A growing box around p: once some part lies within distance d ≤ the box's half side r,
    // every part as near as d overlaps the box of half side d, and that box's parts give the
    // answer (the same as scanning every part, ties included), so far parts are never projected.
    aabbOf(projectBounds, shape, PROJECT_IDENTITY);
    const lo = projectBounds.min;
    const hi = projectBounds.max;
    const gap = Math.max(lo.x - p.x, p.x - hi.x, lo.y - p.y, p.y - hi.y, lo.z - p.z, p.z - hi.z);
    const side = Math.max(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z);
    let r = Math.max(gap, side / PROJECT_START_FRACTION);
    if (!(r > 0 && Number.isFinite(r))) r = Infinity;
    const mag = Math.max(
      Math.abs(lo.x),
      Math.abs(lo.y),
      Math.abs(lo.z),
      Math.abs(hi.x),
      Math.abs(hi.y),
      Math.abs(hi.z),
    );
    // A heightfield's parts in doubles, their ties then decided exactly (below), its boxes a
    // little wider than the best so that they hold the tied parts too; with its tree, by the
    // tree's own walk ({@link heightfieldTies}) unless that leaves the decision to the boxes.
    const ties = shape.type === ShapeType.Heightfield && exactFarActive();
    const tree = ties ? view.tree : undefined;
    if (
      tree === undefined ||
      tree.root(shape) < 0 ||
      !heightfieldTies(l, view, tree, shape, p, solid, mag, side)
    ) {
      const depth = ties ? exactFarSuspend() : 0;
      const pad = ties ? 2 * TIE_RELATIVE : 0;
      r += pad * (r + mag);
      try {
        for (let k = 0; ; k++) {
          if (nearestPart(l, view, shape, p, solid, r) && l.best.distance <= r) break;
          if (r === Infinity) break;
          r = k >= PROJECT_MAX_GROWTHS ? Infinity : l.found ? l.best.distance : 4 * r;
          r += pad * (r + mag);
        }
      } finally {
        if (ties) exactFarResume(depth);
      }
      // No exact tie decision: the winner's own projection with the exact far path on.
      if (ties && l.found && !l.inside && !exactTies(l, view, shape, p, solid, r, mag)) {
        view.part(l.part, shape, l.bestId);
        projectPointLocal(l.best, l.part.shape, p, solid);
      }
      // A compound's children tied to rounding from far: decided exactly when they are
      // polytopes given by corners ({@link exactCompoundTies}).
      if (shape.type === ShapeType.Compound && l.found && !l.inside && exactFarActive())
        exactCompoundTies(l, view, shape, p, solid, r, mag);
    }
    out.inside = l.inside;
    if (out.triangle !== undefined && shape.type === ShapeType.TriangleMesh && l.found)
      out.triangle = l.bestId;
    // A surface mesh has no inside (as its own projection, src/shapes/defs/triangle-mesh.ts).
    if (shape.type === ShapeType.TriangleMesh && !(shape as TriangleMesh).solid) out.inside = false;
    if (l.inside && solid) {
      vec3.copy(out.point, p);
      out.distance = 0;
    } else {
      vec3.copy(out.point, l.best.point);
      out.distance = l.best.distance;
    }
    return out;
  } finally {
    projectDepth--;
  }
}

/** A far mesh's copy at its centre, and that centre (its frame's coordinates). */
export interface CentredMesh {
  readonly copy: TriangleMesh;
  readonly centre: Vec3;
}
/** Per mesh: its centred copy, or null when it is not far (decided once per mesh). */
const centredMeshes = new WeakMap<TriangleMesh, CentredMesh | null>();

/**
 * The copy of `mesh` moved by −c, c the grid centre of its box (src/geometry/far-centre.ts), when
 * its box lies far from its frame's origin for its size and every vertex moves exactly; else null.
 * Made once per mesh and kept (allocates the copy then): the projection of a point 0.9 from a
 * mesh at 1e13 in world coordinates ranked its triangles by points rounded at 1e13 (2e-3) and
 * answered a triangle 1.3e-5 farther than the nearest. Shared with overlapVolume's far solid
 * mesh (src/query/overlap-volume-far.ts).
 */
export function centredMesh(mesh: TriangleMesh): CentredMesh | null {
  const kept = centredMeshes.get(mesh);
  if (kept !== undefined) return kept;
  let result: CentredMesh | null = null;
  const b = mesh.bvh.bounds;
  if (mesh.bvh.nodeCount > 0) {
    vec3.set(meshLo, b[0], b[1], b[2]);
    vec3.set(meshHi, b[3], b[4], b[5]);
    const ext = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
    const c = vec3.create();
    if (farGridCentre(c, meshLo, meshHi, ext)) {
      const v = mesh.vertices;
      const moved = new Float64Array(v.length);
      const cs = [c.x, c.y, c.z];
      let exact = true;
      for (let i = 0; i < v.length && exact; i++) {
        moved[i] = v[i] - cs[i % 3];
        exact = twoSumError(v[i], -cs[i % 3], moved[i]) === 0;
      }
      if (exact) {
        try {
          const copy = makeTriangleMesh(moved, mesh.indices, "", {
            activeEdgeCos: mesh.activeEdgeCos,
            solid: mesh.solid,
          });
          result = { copy, centre: c };
        } catch {
          result = null;
        }
      }
    }
  }
  centredMeshes.set(mesh, result);
  return result;
}
const meshLo = vec3.create();
const meshHi = vec3.create();

/**
 * A heightfield's triangles tied to rounding from far (fresh-user finding 43/04: seen from 1e9
 * above a flat 200 × 200 terrain every triangle within 11 of the foot rounds to the same
 * distance, and the first met, (96, 0, 91), was answered): those within the rounding reach of
 * the best (as the mesh's walk keeps them, src/query/mesh-distance.ts) decided in exact rationals
 * by {@link exactNearestAmong} — the same nearest point as the mesh of the same triangles — when
 * the point is far for them ({@link exactPathFor}); false (then `l`'s winner stands, projected
 * again by the caller with the exact far path on) otherwise. `r` is the half side of the last box
 * asked (the parts of `l.hits` hold every part within it), `mag` the composite's largest
 * coordinate. Allocates (BigInt) only when it decides.
 */
function exactTies(
  l: ProjectLevel,
  view: CompositeView,
  shape: Shape,
  p: Vec3,
  solid: boolean,
  r: number,
  mag: number,
): boolean {
  const reach = tieReach(l.best.distance, mag);
  // Every part within the reach projected (a box of half side ≥ reach; in doubles).
  if (!tiesWithin(l, view, shape, p, solid, r, reach, true)) return false;
  loadView = view;
  loadShape = shape;
  const n = l.hitCount;
  if (tiedParts.length < n) tiedParts = new Int32Array(2 * n);
  let m = 0;
  for (let h = 0; h < n; h++) if (l.dists[h] <= reach) tiedParts[m++] = l.hits.ids[h];
  const id = exactTiedWinner(l.best.point, m, loadPart, p, l.best.distance, l.bestId);
  if (id < 0) return false;
  l.bestId = id;
  l.best.distance = tiedExactDistance[0];
  return true;
}

/** The rounding reach of a far part's least distance `best` (`mag` the composite's magnitude). */
function tieReach(best: number, mag: number): number {
  return best + TIE_RELATIVE * (best + mag);
}

/**
 * Every part within `reach` of p in `l` (`l.hits`, `l.dists`): when that reach is beyond the
 * half side `r` of the box last asked, the box of half side `reach` asked again (in doubles when
 * `doubles`). False when it holds no part or p lies inside one.
 */
function tiesWithin(
  l: ProjectLevel,
  view: CompositeView,
  shape: Shape,
  p: Vec3,
  solid: boolean,
  r: number,
  reach: number,
  doubles: boolean,
): boolean {
  if (!(reach > r)) return true;
  const depth = doubles ? exactFarSuspend() : 0;
  try {
    return nearestPart(l, view, shape, p, solid, reach) && !l.inside;
  } finally {
    if (doubles) exactFarResume(depth);
  }
}

/**
 * Of the `count` tied triangles {@link tiedParts}[0..count) (corners written by `load`), the
 * nearest to p decided in exact rationals by {@link exactNearestAmong} (its point to `out`, its
 * distance to {@link tiedExactDistance}; `w` the double search's winner) when there are two or
 * more and p at `distance` is far for them ({@link exactPathFor}); −1 otherwise (or undecided).
 */
function exactTiedWinner(
  out: Vec3,
  count: number,
  load: (t: number, a: Vec3, b: Vec3, c: Vec3) => void,
  p: Vec3,
  distance: number,
  w: number,
): number {
  if (count < 2) return -1;
  let ext = 0;
  let coord = 0;
  for (let k = 0; k < count; k++) {
    load(tiedParts[k], tieA, tieB, tieC);
    vec3.min(tieLo, tieA, tieB);
    vec3.min(tieLo, tieLo, tieC);
    vec3.max(tieHi, tieA, tieB);
    vec3.max(tieHi, tieHi, tieC);
    ext = Math.max(ext, tieHi.x - tieLo.x, tieHi.y - tieLo.y, tieHi.z - tieLo.z);
    coord = Math.max(coord, maxAbs3(tieLo), maxAbs3(tieHi));
  }
  if (!exactPathFor(distance, ext, coord)) return -1;
  return exactNearestAmong(out, tiedParts, count, load, p, w);
}

/**
 * A heightfield's projection with the exact far path on, without the growing box (fresh-user
 * finding 44/04: from 1e9 above a flat 1024 × 1024 terrain every triangle ties within the
 * rounding reach, so the box and the tie set held all two million of them, 1.3–8 s a query).
 * A walk of its tree ({@link treeWalk}, nearest box first, in doubles with the exact far path
 * off) finds the least distance and every part within its rounding reach (the growing box's tie
 * set, pruning boxes beyond it), and {@link exactTies} decides as there (else the winner's own
 * projection with the exact far path on). When the walk opens too many boxes: from a point whose
 * distance to the heightfield's box is beyond {@link EXACT_FAR_RATIO} times its largest side
 * `side` (where {@link exactTies} decides exactly whatever the tie set), the cells that may hold
 * a point as near as a reference triangle's exact nearest point ({@link farHeightfieldCandidates})
 * give the triangles {@link exactNearestAmong} decides among — the same answer as the decision
 * over the whole tie set, which holds the exact nearest, never pruned; nearer, two passes over
 * the cells ({@link cellWalk}) give what the walk would. Returns false (the caller's growing
 * box answers) when the point lies on the heightfield, or nearer than that far bound, undecided,
 * with parts at exactly the least double distance that project apart (the box's order picks).
 */
function heightfieldTies(
  l: ProjectLevel,
  view: CompositeView,
  tree: CompositeTree,
  shape: Shape,
  p: Vec3,
  solid: boolean,
  mag: number,
  side: number,
): boolean {
  loadView = view;
  loadShape = shape;
  const hf = shape as Heightfield;
  const b = projectBounds;
  walkBox[0] = b.min.x;
  walkBox[1] = b.min.y;
  walkBox[2] = b.min.z;
  walkBox[3] = b.max.x;
  walkBox[4] = b.max.y;
  walkBox[5] = b.max.z;
  const far = boxDistance(walkBox, p) > EXACT_FAR_RATIO * side * (1 + 2 ** -40);
  let walked = false;
  const depth = exactFarSuspend();
  try {
    walked = treeWalk(l, view, tree, shape, p, solid, mag);
    if (!walked && !far) {
      cellWalk(l, hf, p, solid, mag);
      walked = true;
    }
  } finally {
    exactFarResume(depth);
  }
  if (!walked) {
    const n = farHeightfieldCandidates(l, hf, p);
    if (n === 0) return false;
    const id = exactNearestAmong(l.best.point, tiedParts, n, loadPart, p, l.bestId);
    if (id < 0) return false;
    l.found = true;
    l.inside = false;
    l.bestId = id;
    l.best.distance = tiedExactDistance[0];
    return true;
  }
  if (!l.found || l.inside) return false;
  const bd = l.best.distance;
  if (exactTies(l, view, shape, p, solid, Infinity, mag)) return true;
  const w = l.bestId;
  view.part(l.part, shape, w);
  projectPointLocal(l.best, l.part.shape, p, solid);
  // Other parts at exactly the least double distance: the growing box's order would pick among
  // them, so they must all project alike (a vertex shared by its triangles), else it answers.
  for (let h = 0; h < l.hitCount; h++) {
    const id = l.hits.ids[h];
    if (l.dists[h] !== bd || id === w) continue;
    view.part(l.part, shape, id);
    projectPointLocal(l.one, l.part.shape, p, solid);
    if (l.one.distance !== l.best.distance || !vec3.exactEquals(l.one.point, l.best.point))
      return false;
  }
  return true;
}

/** Rounds of {@link farHeightfieldCandidates} that move its reference triangle (a bound). */
const FAR_HEIGHTFIELD_ROUNDS = 8;

/**
 * The triangles of heightfield `hf` that may be nearest to p, a point far from all of it, into
 * {@link tiedParts} (returns their count; 0 when every cell is a hole), a reference triangle w
 * among them into `l.bestId`. A pass over the cells bounds each cell's squared distance less
 * that of x, w's exact nearest point rounded ({@link exactHeldPoint}), from below: for q in the
 * hull of the cell's corners v, |q − p|² − |x − p|² = |q − x|² − 2(q − x)·(p − x) ≥ (the squared
 * distance from x to the cell's box) − 2·max over v of (v − x)·(p − x), all terms offsets from x
 * (no square of the far distance: at 1e9 above a 1024² terrain the distances themselves round
 * alike over all of it), against a bar of 2^-44 times the bound's own terms and x's rounding
 * (as src/query/mesh-distance.ts's `boxExactlyFarther`). A cell whose bound clears the bar holds
 * nothing as near as w. w starts at the cell under p (clamped to the grid) and moves to the cell
 * of least bound while that bound is below minus its bar (at most {@link FAR_HEIGHTFIELD_ROUNDS}
 * times); the cells left give their triangles. An axis-aligned box bound would keep a tilted plane's whole terrain
 * seen along its normal (each box's high corner stands out of the plane toward p). Linear in
 * the cells, about 10 ms a pass for a million; allocates (BigInt) for x only.
 */
function farHeightfieldCandidates(l: ProjectLevel, hf: Heightfield, p: Vec3): number {
  const rows = hf.rows;
  const cols = hf.cols;
  const cellCols = cols - 1;
  const cellRows = rows - 1;
  const sx = hf.scale.x;
  const sy = hf.scale.y;
  const sz = hf.scale.z;
  const h = hf.heights;
  // w: the cell under p clamped to the grid, else the first cell that is not a hole.
  const c0 = Math.min(Math.max(Math.floor(p.x / sx), 0), cellCols - 1);
  const r0 = Math.min(Math.max(Math.floor(p.z / sz), 0), cellRows - 1);
  let wCell = Number.isFinite(c0) && Number.isFinite(r0) ? r0 * cellCols + c0 : 0;
  if (isHeightfieldHole(hf, wCell)) {
    wCell = -1;
    for (let k = 0; k < cellRows * cellCols && wCell < 0; k++)
      if (!isHeightfieldHole(hf, k)) wCell = k;
    if (wCell < 0) return 0;
  }
  let count = 0;
  for (let round = 0; ; round++) {
    const w = nearerTriangle(hf, wCell, p);
    l.bestId = w;
    loadPart(w, tieA, tieB, tieC);
    const wMag = exactHeldPoint(walkHeld, tieA, tieB, tieC, p);
    const X = walkHeld.x;
    const Y = walkHeld.y;
    const Z = walkHeld.z;
    const gx = p.x - X;
    const gy = p.y - Y;
    const gz = p.z - Z;
    const g1 = Math.abs(gx) + Math.abs(gy) + Math.abs(gz);
    const held = wMag * (2 * g1 + wMag);
    let least = Infinity;
    let leastCell = -1;
    count = 0;
    for (let r = 0; r < cellRows; r++) {
      const z0 = r * sz;
      const z1 = (r + 1) * sz;
      const dz = Math.max(0, z0 - Z, Z - z1);
      const az0 = (z0 - Z) * gz;
      const az1 = (z1 - Z) * gz;
      const ez = Math.max(Math.abs(z0 - Z), Math.abs(z1 - Z));
      for (let c = 0; c < cellCols; c++) {
        const cell = r * cellCols + c;
        if (isHeightfieldHole(hf, cell)) continue;
        const x0 = c * sx;
        const x1 = (c + 1) * sx;
        const v = r * cols + c;
        const y00 = h[v] * sy;
        const y01 = h[v + 1] * sy;
        const y10 = h[v + cols] * sy;
        const y11 = h[v + cols + 1] * sy;
        const ylo = Math.min(y00, y01, y10, y11);
        const yhi = Math.max(y00, y01, y10, y11);
        const dx = Math.max(0, x0 - X, X - x1);
        const dy = Math.max(0, ylo - Y, Y - yhi);
        const ax0 = (x0 - X) * gx;
        const ax1 = (x1 - X) * gx;
        const up = Math.max(
          ax0 + (y00 - Y) * gy + az0,
          ax1 + (y01 - Y) * gy + az0,
          ax0 + (y10 - Y) * gy + az1,
          ax1 + (y11 - Y) * gy + az1,
        );
        const box = dx * dx + dy * dy + dz * dz;
        const lb = box - 2 * up;
        const ex = Math.max(Math.abs(x0 - X), Math.abs(x1 - X));
        const ey = Math.max(Math.abs(ylo - Y), Math.abs(yhi - Y));
        const bar = 2 ** -44 * (box + 2 * (ex + ey + ez) * g1 + held) + Number.MIN_VALUE;
        if (lb > bar && Number.isFinite(bar)) continue;
        if (lb + bar < least) {
          least = lb + bar;
          leastCell = cell;
        }
        if (tiedParts.length < count + 2) {
          const grown = new Int32Array(2 * tiedParts.length + 2);
          grown.set(tiedParts);
          tiedParts = grown;
        }
        tiedParts[count++] = 2 * cell;
        tiedParts[count++] = 2 * cell + 1;
      }
    }
    // Some cell may hold a point nearer than x by more than the bar: w moves there.
    if (least < 0 && leastCell >= 0 && leastCell !== wCell && round < FAR_HEIGHTFIELD_ROUNDS) {
      wCell = leastCell;
      continue;
    }
    return count;
  }
}

/** Of cell `cell`'s two triangles, the one nearer to p in doubles (ties: triangle 0). */
function nearerTriangle(hf: Heightfield, cell: number, p: Vec3): number {
  let best = -1;
  let bestD = Infinity;
  for (let k = 0; k < 2; k++) {
    getHeightfieldTriangle(hf, 2 * cell + k, tieA, tieB, tieC);
    closestPointOnTriangle(tieLo, p, tieA, tieB, tieC);
    const d = vec3.distanceSq(tieLo, p);
    if (best < 0 || d < bestD) {
      best = 2 * cell + k;
      bestD = d;
    }
  }
  return best;
}

/** The held point of {@link farHeightfieldCandidates}: its reference triangle's exact point. */
const walkHeld = vec3.create();
let walkStack = new Int32Array(64);
let walkKey = new Float64Array(64);
const walkBox = new Float64Array(6);
const walkKids = new Int32Array(COMPOSITE_TREE_MAX_CHILDREN);
const walkKidKey = new Float64Array(COMPOSITE_TREE_MAX_CHILDREN);
const walkLeaf = makeMeshBvhHits(16);

/** The distance from p to the box `b` (min xyz, max xyz), in doubles. */
function boxDistance(b: Float64Array, p: Vec3): number {
  const dx = Math.max(0, b[0] - p.x, p.x - b[3]);
  const dy = Math.max(0, b[1] - p.y, p.y - b[4]);
  const dz = Math.max(0, b[2] - p.z, p.z - b[5]);
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/**
 * A depth-first walk of `tree`, nearer boxes first: into `l.best` (`bestId`, `found`, `inside`)
 * the least double distance of a part (the lowest id among equals), and as nearestPart's box
 * (`l.hits`, `l.dists`, `hitCount`) every part within its rounding reach, best + 2^-40·(best +
 * `mag`) — boxes beyond the reach so far, grown by its own rounding, pruned; the parts kept
 * under a wider reach before compacted to the final one. Returns false, the walk abandoned, after
 * {@link TREE_WALK_BUDGET} boxes (a tilted terrain's boxes stand out of it toward p, so from a
 * few hundred sizes they prune little; {@link cellWalk} answers then). Allocation free once its
 * stacks have grown.
 */
function treeWalk(
  l: ProjectLevel,
  view: CompositeView,
  tree: CompositeTree,
  shape: Shape,
  p: Vec3,
  solid: boolean,
  mag: number,
): boolean {
  l.hits.count = 0;
  l.hitCount = 0;
  l.found = false;
  l.inside = false;
  let best = Infinity;
  let reach = Infinity;
  let top = 0;
  walkStack[top] = tree.root(shape);
  walkKey[top++] = 0;
  let boxes = 0;
  while (top > 0) {
    const node = walkStack[--top];
    const key = walkKey[top];
    if (key > reach + TIE_RELATIVE * (reach + mag)) continue;
    if (++boxes > TREE_WALK_BUDGET) return false;
    if (tree.isLeaf(shape, node)) {
      const n = tree.leafParts(walkLeaf, shape, node);
      for (let k = 0; k < n; k++) {
        const id = walkLeaf.ids[k];
        view.part(l.part, shape, id);
        projectPointLocal(l.one, l.part.shape, p, solid);
        const d = l.one.inside ? 0 : l.one.distance;
        if (d <= reach) {
          if (l.dists.length <= l.hitCount) {
            const grown = new Float64Array(2 * l.dists.length + 16);
            grown.set(l.dists);
            l.dists = grown;
          }
          pushMeshBvhHit(l.hits, id);
          l.dists[l.hitCount++] = d;
        }
        if (d < best || (d === best && id < l.bestId)) {
          best = d;
          l.found = true;
          l.inside = l.one.inside;
          vec3.copy(l.best.point, l.one.point);
          l.best.distance = d;
          l.bestId = id;
          reach = best + TIE_RELATIVE * (best + mag);
        }
      }
      continue;
    }
    const c = tree.children(walkKids, shape, node);
    for (let j = 0; j < c; j++) {
      tree.box(walkBox, shape, walkKids[j]);
      walkKidKey[j] = boxDistance(walkBox, p);
    }
    if (walkStack.length < top + c) {
      const s = new Int32Array(2 * walkStack.length);
      s.set(walkStack);
      walkStack = s;
      const k = new Float64Array(2 * walkKey.length);
      k.set(walkKey);
      walkKey = k;
    }
    // Farthest first onto the stack, so the nearest pops first.
    for (let j = 0; j < c; j++) {
      let far = -1;
      for (let q = 0; q < c; q++) {
        if (walkKids[q] >= 0 && (far < 0 || walkKidKey[q] > walkKidKey[far])) far = q;
      }
      walkStack[top] = walkKids[far];
      walkKey[top++] = walkKidKey[far];
      walkKids[far] = -1;
    }
  }
  compactToReach(l, reach);
  return true;
}

/** Keeps of `l.hits` / `l.dists` the parts within `reach`. */
function compactToReach(l: ProjectLevel, reach: number): void {
  let m = 0;
  for (let h = 0; h < l.hitCount; h++) {
    if (!(l.dists[h] <= reach)) continue;
    l.hits.ids[m] = l.hits.ids[h];
    l.dists[m++] = l.dists[h];
  }
  l.hitCount = m;
  l.hits.count = m;
}

/** Boxes {@link treeWalk} opens before it leaves the field to {@link cellWalk}. */
const TREE_WALK_BUDGET = 1 << 14;
/** {@link cellWalk}'s lower bound per cell (grown to the largest field met). */
let cellBounds = new Float64Array(0);

/**
 * {@link treeWalk}'s answer by two passes over the cells of `hf`: each cell's distance bounded
 * from below by the larger of its box's distance and u·(p − v) at its nearest corner v, u the
 * unit vector from the box's centre to p (every point q of the cell's triangles has |p − q| ≥
 * u·(p − q), least at a corner: tight for a small cell seen from afar, where the box is not for
 * a slope); the cell of least bound projected first, then every cell whose bound is within the
 * rounding reach (grown by its own rounding) of the best so far. Allocates its bounds' array when
 * a larger field comes.
 */
function cellWalk(l: ProjectLevel, hf: Heightfield, p: Vec3, solid: boolean, mag: number): void {
  const rows = hf.rows;
  const cols = hf.cols;
  const cellCols = cols - 1;
  const cellRows = rows - 1;
  const sx = hf.scale.x;
  const sy = hf.scale.y;
  const sz = hf.scale.z;
  const h = hf.heights;
  if (cellBounds.length < cellRows * cellCols) cellBounds = new Float64Array(cellRows * cellCols);
  let least = Infinity;
  let leastCell = -1;
  for (let r = 0; r < cellRows; r++) {
    const z0 = r * sz;
    const z1 = (r + 1) * sz;
    const dz = Math.max(0, z0 - p.z, p.z - z1);
    const uz = p.z - (z0 + z1) / 2;
    for (let c = 0; c < cellCols; c++) {
      const cell = r * cellCols + c;
      if (isHeightfieldHole(hf, cell)) {
        cellBounds[cell] = Infinity;
        continue;
      }
      const x0 = c * sx;
      const x1 = (c + 1) * sx;
      const v = r * cols + c;
      const y00 = h[v] * sy;
      const y01 = h[v + 1] * sy;
      const y10 = h[v + cols] * sy;
      const y11 = h[v + cols + 1] * sy;
      const ylo = Math.min(y00, y01, y10, y11);
      const yhi = Math.max(y00, y01, y10, y11);
      const dx = Math.max(0, x0 - p.x, p.x - x1);
      const dy = Math.max(0, ylo - p.y, p.y - yhi);
      let lb = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const ux = p.x - (x0 + x1) / 2;
      const uy = p.y - (ylo + yhi) / 2;
      const n = Math.sqrt(ux * ux + uy * uy + uz * uz);
      if (n > 0) {
        const px = p.x * ux + p.y * uy + p.z * uz;
        const hull =
          (px -
            Math.max(
              x0 * ux + y00 * uy + z0 * uz,
              x1 * ux + y01 * uy + z0 * uz,
              x0 * ux + y10 * uy + z1 * uz,
              x1 * ux + y11 * uy + z1 * uz,
            )) /
          n;
        if (hull > lb) lb = hull;
      }
      cellBounds[cell] = lb;
      if (lb < least) {
        least = lb;
        leastCell = cell;
      }
    }
  }
  l.hits.count = 0;
  l.hitCount = 0;
  l.found = false;
  l.inside = false;
  if (leastCell < 0) return;
  let reach = projectCell(l, hf, leastCell, p, solid, Infinity, mag);
  for (let cell = 0; cell < cellRows * cellCols; cell++) {
    if (cell === leastCell || !(cellBounds[cell] <= reach + TIE_RELATIVE * (reach + mag))) continue;
    reach = projectCell(l, hf, cell, p, solid, reach, mag);
  }
  compactToReach(l, reach);
}

/**
 * Projects cell `cell`'s two triangles for {@link cellWalk} (as {@link treeWalk}'s leaves: kept
 * within `reach`, the best updated, the lowest id among equals); returns the reach after them.
 */
function projectCell(
  l: ProjectLevel,
  hf: Heightfield,
  cell: number,
  p: Vec3,
  solid: boolean,
  reach: number,
  mag: number,
): number {
  for (let k = 0; k < 2; k++) {
    const id = 2 * cell + k;
    const t = l.part.triangle;
    getHeightfieldTriangle(hf, id, t.a, t.b, t.c);
    projectPointLocal(l.one, t, p, solid);
    const d = l.one.inside ? 0 : l.one.distance;
    if (d <= reach) {
      if (l.dists.length <= l.hitCount) {
        const grown = new Float64Array(2 * l.dists.length + 16);
        grown.set(l.dists);
        l.dists = grown;
      }
      pushMeshBvhHit(l.hits, id);
      l.dists[l.hitCount++] = d;
    }
    if (!l.found || d < l.best.distance || (d === l.best.distance && id < l.bestId)) {
      l.found = true;
      l.inside = l.one.inside;
      vec3.copy(l.best.point, l.one.point);
      l.best.distance = d;
      l.bestId = id;
      reach = d + TIE_RELATIVE * (d + mag);
    }
  }
  return reach;
}

/**
 * A compound's children tied to rounding from far (fresh-user finding 44/07: flat unit triangles
 * and flat boxes placed by poses at x, z ≈ 1e9, seen from 1e9 above, all rounded to the same
 * distance and the first met was answered, 7 off the foot): when every child within the rounding
 * reach of the best is a triangle or a box, their triangles (a box's 12) placed in the
 * compound's frame by the children's poses (each corner rounded once there; exact for a pose
 * without rotation whose translation adds exactly) are decided in exact rationals by
 * {@link exactNearestAmong} — the least exact distance, then the lexicographically least point —
 * when the point is far for them ({@link exactPathFor}); else `l` stands as the double search
 * left it. `r` is the half side of the search's last box, `mag` the compound's largest
 * coordinate. Allocates (BigInt, and the corner list when it grows) only when it decides.
 */
function exactCompoundTies(
  l: ProjectLevel,
  view: CompositeView,
  shape: Shape,
  p: Vec3,
  solid: boolean,
  r: number,
  mag: number,
): void {
  const best = l.best.distance;
  const reach = tieReach(best, mag);
  vec3.copy(keptPoint, l.best.point);
  const keptId = l.bestId;
  if (!tiesWithin(l, view, shape, p, solid, r, reach, false)) {
    restoreBest(l, best, keptId);
    return;
  }
  let count = 0;
  let w = -1;
  let wd = Infinity;
  for (let h = 0; h < l.hitCount; h++) {
    if (!(l.dists[h] <= reach)) continue;
    tieOwnerId = l.hits.ids[h];
    view.part(l.part, shape, tieOwnerId);
    const s = l.part.shape;
    const pose = l.part.hasPose ? l.part.pose : PROJECT_IDENTITY;
    const start = count;
    if (s.type === ShapeType.Triangle) {
      const t = s as Triangle;
      count = pushTieTriangle(count, pose, t.a, t.b, t.c);
    } else if (s.type === ShapeType.Cuboid) {
      const e = (s as Cuboid).halfExtents;
      for (let k = 0; k < 8; k++) {
        vec3.set(boxCorners[k], k & 1 ? e.x : -e.x, k & 2 ? e.y : -e.y, k & 4 ? e.z : -e.z);
      }
      for (let f = 0; f < 24; f += 4) {
        const q = BOX_FACES;
        const a = boxCorners[q[f]];
        count = pushTieTriangle(count, pose, a, boxCorners[q[f + 1]], boxCorners[q[f + 2]]);
        count = pushTieTriangle(count, pose, a, boxCorners[q[f + 2]], boxCorners[q[f + 3]]);
      }
    } else {
      restoreBest(l, best, keptId);
      return;
    }
    // The nearest in doubles of these triangles: the pruning's reference (any would do).
    for (let t = start; t < count; t++) {
      loadTieTriangle(t, tieA, tieB, tieC);
      closestPointOnTriangle(tieLo, p, tieA, tieB, tieC);
      const d = vec3.distanceSq(tieLo, p);
      if (d < wd) {
        wd = d;
        w = t;
      }
    }
  }
  if (tiedParts.length < count) tiedParts = new Int32Array(2 * count);
  for (let t = 0; t < count; t++) tiedParts[t] = t;
  const id = w < 0 ? -1 : exactTiedWinner(l.best.point, count, loadTieTriangle, p, best, w);
  if (id < 0) {
    restoreBest(l, best, keptId);
    return;
  }
  l.bestId = tieOwner[id];
  l.best.distance = tiedExactDistance[0];
}

/** The double search's answer again (an exact decision that did not apply). */
function restoreBest(l: ProjectLevel, distance: number, id: number): void {
  vec3.copy(l.best.point, keptPoint);
  l.best.distance = distance;
  l.bestId = id;
  l.found = true;
  l.inside = false;
}
const keptPoint = vec3.create();

/** Corners of a box, corner k at (±x, ±y, ±z) by its bits 0, 1, 2 (set: +). */
const boxCorners = [0, 1, 2, 3, 4, 5, 6, 7].map(() => vec3.create());
/** A box's six faces, four corners each (a quad's corners in order around it). */
const BOX_FACES = [0, 2, 6, 4, 1, 3, 7, 5, 0, 1, 5, 4, 2, 3, 7, 6, 0, 1, 3, 2, 4, 5, 7, 6];
/** The tied children's triangles in the compound's frame: 9 coordinates each. */
let tieCorners = new Float64Array(9 * 64);
/** The child (part id) of each of {@link tieCorners}' triangles. */
let tieOwner = new Int32Array(64);
let tieOwnerId = -1;

/** Appends triangle abc moved by `pose` to {@link tieCorners} (as triangle `count`); count + 1. */
function pushTieTriangle(count: number, pose: Isometry, a: Vec3, b: Vec3, c: Vec3): number {
  if (tieOwner.length <= count) {
    const o = new Int32Array(2 * tieOwner.length);
    o.set(tieOwner);
    tieOwner = o;
    const t = new Float64Array(9 * tieOwner.length);
    t.set(tieCorners);
    tieCorners = t;
  }
  const o = 9 * count;
  putTieCorner(o, pose, a);
  putTieCorner(o + 3, pose, b);
  putTieCorner(o + 6, pose, c);
  tieOwner[count] = tieOwnerId;
  return count + 1;
}

/** Writes corner v moved by `pose` to {@link tieCorners} at offset o. */
function putTieCorner(o: number, pose: Isometry, v: Vec3): void {
  iso.transformPoint(tieMoved, pose, v);
  tieCorners[o] = tieMoved.x;
  tieCorners[o + 1] = tieMoved.y;
  tieCorners[o + 2] = tieMoved.z;
}
const tieMoved = vec3.create();

/** The corners of triangle t of {@link tieCorners}. */
function loadTieTriangle(t: number, a: Vec3, b: Vec3, c: Vec3): void {
  const o = 9 * t;
  vec3.set(a, tieCorners[o], tieCorners[o + 1], tieCorners[o + 2]);
  vec3.set(b, tieCorners[o + 3], tieCorners[o + 4], tieCorners[o + 5]);
  vec3.set(c, tieCorners[o + 6], tieCorners[o + 7], tieCorners[o + 8]);
}

/** Relative rounding reach of a far part's distance (as the mesh walk's, 2^-40). */
const TIE_RELATIVE = 2 ** -40;
let tiedParts = new Int32Array(64);
const tieA = vec3.create();
const tieB = vec3.create();
const tieC = vec3.create();
const tieLo = vec3.create();
const tieHi = vec3.create();
const loadSlot = makeCompositePart();
let loadView: CompositeView | null = null;
let loadShape: Shape | null = null;

/** The corners of part t (a triangle without a pose: a heightfield's) of the composite being tied. */
function loadPart(t: number, a: Vec3, b: Vec3, c: Vec3): void {
  (loadView as CompositeView).part(loadSlot, loadShape as Shape, t);
  const tri = loadSlot.shape as Triangle;
  vec3.copy(a, tri.a);
  vec3.copy(b, tri.b);
  vec3.copy(c, tri.c);
}

function maxAbs3(v: Vec3): number {
  return Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
}

/** Growths of the projection's box before it takes every part. */
const PROJECT_MAX_GROWTHS = 24;
/** The projection's first box: 1/16 of the composite's largest side (or the gap to its box). */
const PROJECT_START_FRACTION = 16;
const projectBounds: Aabb = { min: vec3.create(), max: vec3.create() };
const PROJECT_IDENTITY = iso.identity();

/**
 * The nearest part projection among the parts in the box of half side `r` around p, into
 * `l.best` (`l.found`, `l.inside` set); false when the box holds no part.
 */
function nearestPart(
  l: ProjectLevel,
  view: CompositeView,
  shape: Shape,
  p: Vec3,
  solid: boolean,
  r: number,
): boolean {
  const n = view.queryAabb(l.hits, shape, p.x - r, p.y - r, p.z - r, p.x + r, p.y + r, p.z + r);
  if (l.dists.length < n) l.dists = new Float64Array(2 * n);
  l.hitCount = n;
  let found = false;
  let inside = false;
  for (let h = 0; h < n; h++) {
    view.part(l.part, shape, l.hits.ids[h]);
    if (l.part.hasPose) iso.inverseTransformPoint(l.local, l.part.pose, p);
    else vec3.copy(l.local, p);
    projectPointLocal(l.one, l.part.shape, l.local, solid);
    if (l.part.hasPose) iso.transformPoint(l.one.point, l.part.pose, l.one.point);
    l.dists[h] = l.one.inside ? 0 : l.one.distance;
    // Hollow, a point inside parts projects onto the boundary of the part that holds it deepest
    // (the union's boundary is at least that far: a nearer part surface lies inside that part);
    // else onto the nearest part surface.
    const holds = l.one.inside;
    if (found && !solid) {
      if (inside && !holds) continue;
      if (
        inside === holds &&
        !(holds ? l.one.distance > l.best.distance : l.one.distance < l.best.distance)
      )
        continue;
    } else if (found && !(l.one.distance < l.best.distance)) continue;
    inside = inside || holds;
    found = true;
    vec3.copy(l.best.point, l.one.point);
    l.best.distance = l.one.distance;
    l.bestId = l.hits.ids[h];
  }
  l.found = found;
  l.inside = inside;
  return found;
}

const pLocal = vec3.create();
const meshQuery = makeMeshPointQuery();

/**
 * Projection of the world point `point` onto `shape` at world pose `pose`, written to `out`
 * (world frame; no allocation, no validation — the hot-path form of {@link projectPoint}).
 */
export function projectPointShape(
  out: PointProjection,
  shape: Shape,
  pose: Isometry,
  point: Vec3,
  solid: boolean,
): PointProjection {
  iso.inverseTransformPoint(pLocal, pose, point);
  projectPointLocal(out, shape, pLocal, solid);
  if (out.inside && solid) vec3.copy(out.point, point);
  else iso.transformPoint(out.point, pose, out.point);
  return out;
}

/**
 * The point of `shape` (at world `pose`) closest to the world point `point`: `{point, distance,
 * inside}` in the world frame. With `solid` (default) a point inside projects onto itself with
 * distance 0; with `solid: false` onto the nearest point of the boundary even from inside.
 * `inside` tells whether `point` is inside (boundary included). Throws `CollideError`
 * (`invalid_value`) for a non-finite point or a bad pose, or naming the shape field
 * (`shape.radius`, …) when the answer would hold a NaN (src/query/guard.ts); `unsupported_pair`
 * for a shape type without a projection. Sources: Ericson 2005, §5.1.
 */
export function projectPoint(
  shape: Shape,
  pose: Isometry,
  point: Vec3,
  solid = true,
  out: PointProjection = makePointProjection(),
): PointProjection {
  checkShapeArg("shape", shape);
  checkVec3("point", point);
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  pose = iso.unitPose(unitPoseScratch, pose);
  checkPose("pose", pose);
  checkOffset("point", point, pose.translation, "pose.translation");
  if (typeof solid !== "boolean") invalidValue("solid", solid, "must be a boolean");
  // A hull given far from its frame's origin: answered in the frame at its centre (exact
  // coordinates there), the point moved by −c and the answer back by +c. When p − c rounds (p
  // beyond 2^52 times the hull's extent, whose bits under c's grid are lost) the hull as given
  // answers instead — such a point is far, so its exact path does: the copy's answer to the
  // rounded point had been another corner (a hull of 0.006 at 0.05 seen from 2e15 along a face
  // normal, session 42).
  let copy = farCentredCopy(farCentre, shape, pose);
  if (copy !== null && !exactOffset(farPoint, point, farCentre)) copy = null;
  // The exact far path (src/geometry/exact-nearest.ts) on for this query only.
  exactFarScope(1);
  try {
    if (copy !== null) {
      projectPointShape(out, copy, pose, farPoint, solid);
      vec3.add(out.point, out.point, farCentre);
    } else projectPointShape(out, shape, pose, point, solid);
  } finally {
    exactFarScope(-1);
  }
  if (Number.isNaN(out.distance) || hasNaN3(out.point)) {
    refuseBadInputs("projectPoint", [["shape", shape]], [["pose", pose]], [["point", point]]);
  }
  if (out.distance === Number.POSITIVE_INFINITY) tooFar("point", point);
  return out;
}

const farCentre = vec3.create();
const farPoint = vec3.create();

/** The answers of {@link projectPoints}, one entry per query point (arrays reused when given). */
export interface PointProjections {
  /** Closest points of the mesh, packed xyz, world frame. */
  points: Float64Array;
  /** Signed distances: positive outside, negative inside a closed mesh (scene units). */
  signedDistances: Float64Array;
  /** Index of the closest triangle per point. */
  triangles: Int32Array;
}

const batchLocal = vec3.create();
const batchCentred = vec3.create();
const batchScaled = vec3.create();
const batchTa = vec3.create();
const batchTb = vec3.create();
const batchTc = vec3.create();
const batchOne = { point: vec3.create(), distance: 0, inside: false };
const batchWorld = vec3.create();

/**
 * The batch's units: the closest-triangle walk squares the offsets between the point and the
 * mesh's corners, which overflow when the query's magnitude m (the point's and the mesh's largest
 * local coordinate) is above about 1e154 and lose the answer below about 1e-154 (every corner at
 * squared distance 0). A query with m outside [2^-128, 2^128) walks a copy of the mesh and the
 * point multiplied by a power of two — exact — from these few, chosen so that m lands in
 * [2^-128, 2^128) (the last two for the ends of the double range, m up to 2^1024 and down to
 * 2^-1074, land in [2^128, 2^256) and [2^-306, 2^128), where squares still neither overflow nor
 * fall below the answer's rounding). So at most six copies of a mesh exist, and a batch whose
 * points share a scale (the usual case) makes one.
 */
const BATCH_SCALES = [2 ** -768, 2 ** -512, 2 ** -256, 1, 2 ** 256, 2 ** 512, 2 ** 768];
/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitPoseScratch = iso.identity();

/** Index of the factor 1 in {@link BATCH_SCALES}. */
const BATCH_UNIT = 3;

/** The index in {@link BATCH_SCALES} of the factor for a query of magnitude `m` (≥ 0). */
function batchScaleIndex(m: number): number {
  if (m < 2 ** 128) {
    if (m >= 2 ** -128 || m === 0) return BATCH_UNIT;
    if (m >= 2 ** -384) return BATCH_UNIT + 1;
    return m >= 2 ** -640 ? BATCH_UNIT + 2 : BATCH_UNIT + 3;
  }
  if (m < 2 ** 384) return BATCH_UNIT - 1;
  return m < 2 ** 640 ? BATCH_UNIT - 2 : BATCH_UNIT - 3;
}

/** A mesh's copies at the factors of {@link BATCH_SCALES} (by index), made when first asked. */
const batchCopies = new WeakMap<TriangleMesh, (TriangleMesh | undefined)[]>();

/**
 * `mesh` with every vertex multiplied by `BATCH_SCALES[j]` (exact: a power of two; corners far
 * below the mesh's scale may lose subnormal bits, far below the answer's rounding), the same
 * triangles in the same order, edge threshold and solidity. Kept per mesh and factor; allocates
 * the copy once (only batches far from unit scale get here).
 */
function batchScaledMesh(mesh: TriangleMesh, j: number): TriangleMesh {
  let copies = batchCopies.get(mesh);
  if (copies === undefined) {
    copies = [];
    batchCopies.set(mesh, copies);
  }
  const kept = copies[j];
  if (kept !== undefined) return kept;
  const k = BATCH_SCALES[j];
  const v = new Float64Array(mesh.vertices.length);
  for (let i = 0; i < v.length; i++) v[i] = mesh.vertices[i] * k;
  const copy = makeTriangleMesh(v, mesh.indices, "", {
    activeEdgeCos: mesh.activeEdgeCos,
    solid: mesh.solid,
  });
  copies[j] = copy;
  return copy;
}

/**
 * Point i of the batch: its projection onto `mesh` (local frame) into `meshQuery` (point,
 * distance, triangle, inside), the local point left in `batchLocal`. The closest triangle and
 * the sign come from the walk over the BVH (at the batch's units, see {@link BATCH_SCALES}); the
 * point and distance from the winner's projection at any scale, as projectPoint's (the same
 * point and distance), the closest point in the world frame left in `batchWorld`. Refuses
 * (naming the point) an offset from the pose or a distance that overflows a double. Allocation
 * free once the copy at the point's units exists.
 */
function projectBatchPoint(
  mesh: TriangleMesh,
  pose: Isometry,
  points: Float64Array,
  i: number,
  meshMag: number,
): void {
  vec3.set(batchWorld, points[3 * i], points[3 * i + 1], points[3 * i + 2]);
  iso.inverseTransformPoint(batchLocal, pose, batchWorld);
  if (!vec3.isFiniteVec(batchLocal)) {
    invalidValue(
      pointField(i),
      pointValue(points, i),
      "is too far from pose.translation: their offset overflows double precision",
    );
  }
  // A mesh far from its frame's origin: its copy at its centre (as projectPoint's).
  const h = centredMesh(mesh);
  let centre: Vec3 | null = null;
  if (h !== null && exactOffset(batchCentred, batchLocal, h.centre)) {
    mesh = h.copy;
    meshMag = meshMagnitude(mesh);
    vec3.copy(batchLocal, batchCentred);
    centre = h.centre;
  }
  const mp = Math.max(Math.abs(batchLocal.x), Math.abs(batchLocal.y), Math.abs(batchLocal.z));
  const j = batchScaleIndex(Math.max(mp, meshMag));
  if (j === BATCH_UNIT) closestPointOnMesh(meshQuery, mesh, batchLocal);
  else {
    vec3.scale(batchScaled, batchLocal, BATCH_SCALES[j]);
    closestPointOnMesh(meshQuery, batchScaledMesh(mesh, j), batchScaled);
  }
  // Triangles tied to rounding from far: the nearest decided exactly (as projectPoint's).
  const d = j === BATCH_UNIT ? meshQuery.distance : meshQuery.distance / BATCH_SCALES[j];
  const exact =
    meshQuery.triangle >= 0 ? exactTiedNearest(meshQuery.point, mesh, batchLocal, d) : -1;
  if (exact >= 0) {
    meshQuery.triangle = exact;
    meshQuery.distance = tiedExactDistance[0];
  } else if (meshQuery.triangle >= 0) {
    getMeshTriangle(mesh, meshQuery.triangle, batchTa, batchTb, batchTc);
    projectOntoTriangle(batchOne, batchTa, batchTb, batchTc, batchLocal);
    vec3.copy(meshQuery.point, batchOne.point);
    meshQuery.distance = batchOne.distance;
  }
  if (meshQuery.distance === Number.POSITIVE_INFINITY) tooFar(pointField(i), pointValue(points, i));
  if (centre !== null) vec3.add(meshQuery.point, meshQuery.point, centre);
  iso.transformPoint(batchWorld, pose, meshQuery.point);
}

/** The field of point i of a packed batch: `points[3i..3i+2]`. */
function pointField(i: number): string {
  return `points[${3 * i}..${3 * i + 2}]`;
}

/** Point i of a packed batch as a vector (for a message; allocates). */
function pointValue(points: Float64Array, i: number): Vec3 {
  return { x: points[3 * i], y: points[3 * i + 1], z: points[3 * i + 2] };
}

/**
 * Magnitude beyond which a point's distance to the mesh might overflow a double (2√3 · 2^1020
 * is below 2^1024): such points are answered once before anything is written, so that a refusal
 * leaves `out` as it was.
 */
const BATCH_OVERFLOW_RISK = 2 ** 1020;

/**
 * Batch signed distance of many points to a triangle mesh (particles against a closed mesh):
 * for each point of `points` (packed xyz, world frame) the closest point of `mesh` at `pose`,
 * the signed distance (negative inside a closed mesh, by the angle-weighted pseudo-normal;
 * positive everywhere for an open one) and the closest triangle's index, written to `out`'s
 * arrays when they are long enough (else new arrays). This is the mesh surface's signed distance
 * field: each point's closest point is the surface's — {@link projectPoint}'s with `solid: false`,
 * the same point and distance — and its sign says inside for any closed mesh, whether or not it
 * was made `solid` (where {@link projectPoint} projects a point inside a solid mesh onto itself,
 * distance 0, and calls no point inside a surface mesh). Every finite point is answered at any
 * scale: a mesh or
 * points far from unit scale (beyond about 1e38 or below 1e-38) are walked on a copy of the mesh
 * in other units (a power of two, exact), made once per mesh and scale. The per-point work
 * allocates nothing once that copy exists. Throws `CollideError` (`invalid_value`) before
 * writing anything for a shape that is not a triangle mesh, a mesh without triangles, a bad
 * pose, `points` not a Float64Array of 3n finite numbers (naming `points[j]`), or a point whose
 * offset from the pose or distance from the mesh overflows a double (two points about 1e308
 * apart; naming `points[3i..3i+2]`). Source: Bærentzen & Aanæs 2005.
 */
export function projectPoints(
  mesh: TriangleMesh,
  pose: Isometry,
  points: Float64Array,
  out?: PointProjections,
): PointProjections {
  checkShapeArg("mesh", mesh);
  if (mesh.type !== ShapeType.TriangleMesh)
    invalidValue("mesh.type", SHAPE_TYPE_NAMES[mesh.type] ?? mesh.type, "must be a triangle mesh");
  if (mesh.triangleCount === 0) invalidValue("mesh.triangleCount", 0, "must be > 0");
  pose = iso.unitPose(unitPoseScratch, pose);
  checkPose("pose", pose);
  if (!(points instanceof Float64Array) || points.length % 3 !== 0)
    invalidValue("points", points, "must be a Float64Array of packed xyz (length a multiple of 3)");
  const n = points.length / 3;
  for (let i = 0; i < points.length; i++) {
    if (!Number.isFinite(points[i])) invalidValue(`points[${i}]`, points[i], "must be finite");
  }
  if (
    out !== undefined &&
    (out === null ||
      typeof out !== "object" ||
      !(out.points instanceof Float64Array) ||
      !(out.signedDistances instanceof Float64Array) ||
      !(out.triangles instanceof Int32Array))
  ) {
    invalidValue(
      "out",
      out,
      "must be undefined or {points: Float64Array, signedDistances: Float64Array, triangles: Int32Array}",
    );
  }
  const meshMag = meshMagnitude(mesh);
  // Every refusal before the first write: the offsets from the pose (cheap), and the points
  // whose distance could overflow (only at the very ends of the double range) answered once.
  const risky = meshMag > BATCH_OVERFLOW_RISK;
  for (let i = 0; i < n; i++) {
    vec3.set(batchWorld, points[3 * i], points[3 * i + 1], points[3 * i + 2]);
    iso.inverseTransformPoint(batchLocal, pose, batchWorld);
    const mp = Math.max(Math.abs(batchLocal.x), Math.abs(batchLocal.y), Math.abs(batchLocal.z));
    if (risky || !(mp <= BATCH_OVERFLOW_RISK)) projectBatchPoint(mesh, pose, points, i, meshMag);
  }
  const r: PointProjections = {
    points: out && out.points.length >= 3 * n ? out.points : new Float64Array(3 * n),
    signedDistances:
      out && out.signedDistances.length >= n ? out.signedDistances : new Float64Array(n),
    triangles: out && out.triangles.length >= n ? out.triangles : new Int32Array(n),
  };
  exactFarScope(1);
  try {
    for (let i = 0; i < n; i++) {
      projectBatchPoint(mesh, pose, points, i, meshMag);
      r.points[3 * i] = batchWorld.x;
      r.points[3 * i + 1] = batchWorld.y;
      r.points[3 * i + 2] = batchWorld.z;
      r.signedDistances[i] = meshQuery.inside ? -meshQuery.distance : meshQuery.distance;
      r.triangles[i] = meshQuery.triangle;
    }
  } finally {
    exactFarScope(-1);
  }
  return r;
}

/**
 * Refuses a point so far from the shape that its distance overflows a double (two points about
 * 1e308 apart).
 */
function tooFar(field: string, point: Vec3): never {
  invalidValue(
    field,
    point,
    "is too far from the shape: its distance overflows a double (above about 1.8e308)",
  );
}
