/**
 * The JSON that the debug viewer renders (`collide view`): for a set of bodies with ids and
 * shapes, one frame's poses, shape wireframes, tight AABBs and contacts (points and normals), and
 * on request a pair's GJK iterations and EPA polytopes, each step as ready-to-draw line segments
 * and points ({@link DebugDrawData}). The viewer draws these and nothing else.
 */

import { closestPointOnTriangle } from "../geometry/closest-point.js";
import * as aabbm from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { contact } from "../query/contact.js";
import { distance } from "../query/distance.js";
import { aabbShape } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import type { DemoContact } from "./demo-frames.js";
import { DebugDraw, type DebugDrawData } from "./draw.js";
import { drawEpaPolytope, drawGjkStep, drawMinkowskiDifference } from "./gjk-draw.js";
import { isTraceable, traceGjkPair } from "./gjk-trace.js";
import { type ShapeView, shapeView } from "./shape-view.js";
import { drawAabb, drawContact, drawShape } from "./shapes.js";

/** A body as the viewer knows it. */
export interface ViewBody {
  id: string;
  shape: ShapeView;
}

/** What the viewer loads first: the bodies and how many frames there are. */
export interface ViewInfo {
  /** `scene` for a scene file (one frame), `demo` for recorded moving frames. */
  mode: "scene" | "demo";
  /** Shown as the page title (the scene file's name, or "demo"). */
  title: string;
  bodies: ViewBody[];
  frameCount: number;
}

/** A contact pair as listed by the viewer. */
export interface ViewPair {
  a: string;
  b: string;
  /** Signed distance, scene units. */
  distance: number;
}

/** One frame for the viewer. */
export interface ViewFrame {
  frame: number;
  /** tx, ty, tz, qx, qy, qz, qw per body, in the order of {@link ViewInfo.bodies}. */
  poses: number[];
  /** Number of pairs in contact in this frame. */
  contactCount: number;
  pairs: ViewPair[];
  /** Shape wireframes. */
  shapes: DebugDrawData;
  /** Tight world AABBs. */
  aabbs: DebugDrawData;
  /** Contact points and normals. */
  contacts: DebugDrawData;
}

/** A body with its shape, for building views. */
export interface ViewSourceBody {
  id: string;
  shape: Shape | TriangleMesh;
}

/** The {@link ViewInfo} of a list of bodies (allocates). */
export function buildViewInfo(
  mode: ViewInfo["mode"],
  title: string,
  bodies: readonly ViewSourceBody[],
  frameCount: number,
): ViewInfo {
  return {
    mode,
    title,
    bodies: bodies.map((b) => ({ id: b.id, shape: shapeView(b.shape) })),
    frameCount,
  };
}

/** out = the tight world AABB of any drawable shape. */
export function aabbOfShape(
  out: aabbm.Aabb,
  shape: Shape | TriangleMesh,
  pose: Isometry,
): aabbm.Aabb {
  // Every type's record has its AABB (the mesh's included).
  return aabbShape(out, shape as Shape, pose);
}

/** Length of the drawn contact normals relative to the scene's size (unitless). */
const NORMAL_LENGTH_FRACTION = 0.03;
/** Half size of the Minkowski inset's origin cross relative to the pair's sizes summed. */
const MARKER_FRACTION = 0.03;
/** Length of the drawn GJK search direction relative to the pair's sizes summed. */
const DIRECTION_FRACTION = 0.2;
/** Height of the Minkowski inset's origin above the pair, relative to the pair's sizes summed. */
const INSET_HEIGHT_FRACTION = 0.6;

/** A representative length of the scene: the diagonal of the finite AABBs' union (1 when empty or zero). */
export function sceneSize(bodies: readonly ViewSourceBody[], poses: readonly Isometry[]): number {
  const u = aabbm.empty();
  const box = aabbm.empty();
  let any = false;
  bodies.forEach((b, i) => {
    aabbOfShape(box, b.shape, poses[i]);
    if (!vec3.isFiniteVec(box.min) || !vec3.isFiniteVec(box.max)) return;
    if (any) aabbm.union(u, u, box);
    else aabbm.copy(u, box);
    any = true;
  });
  const d = any ? vec3.distance(u.min, u.max) : 1;
  return d > 0 ? d : 1;
}

/**
 * One frame's view: poses, wireframes, AABBs and contacts (with normals of length 3 % of the
 * scene's size). `contacts` use body indices into `bodies`.
 */
export function buildViewFrame(
  frame: number,
  bodies: readonly ViewSourceBody[],
  poses: readonly Isometry[],
  contacts: readonly DemoContact[],
): ViewFrame {
  const shapes = new DebugDraw();
  const aabbs = new DebugDraw();
  const cdraw = new DebugDraw();
  const box = aabbm.empty();
  const packed: number[] = [];
  bodies.forEach((b, i) => {
    const p = poses[i];
    drawShape(shapes, b.shape, p);
    drawAabb(aabbs, aabbOfShape(box, b.shape, p));
    const t = p.translation;
    const q = p.rotation;
    packed.push(t.x, t.y, t.z, q.x, q.y, q.z, q.w);
  });
  const len = NORMAL_LENGTH_FRACTION * sceneSize(bodies, poses);
  for (const c of contacts) drawContact(cdraw, c, len);
  return {
    frame,
    poses: packed,
    contactCount: contacts.length,
    pairs: contacts.map((c) => ({ a: bodies[c.a].id, b: bodies[c.b].id, distance: c.distance })),
    shapes: shapes.toData(),
    aabbs: aabbs.toData(),
    contacts: cdraw.toData(),
  };
}

/** One GJK step for the viewer. */
export interface ViewGjkStep {
  /** Simplex points, Minkowski difference (world orientation), `[x, y, z]` each. */
  simplex: [number, number, number][];
  /** Closest point v of the simplex to the origin. */
  v: [number, number, number];
  /** Next search direction (unit). */
  direction: [number, number, number];
  /** Ready-to-draw segments and points (Minkowski inset at `anchor` plus witnesses). */
  draw: DebugDrawData;
}

/** A pair's GJK/EPA trace for the viewer, or why there is none. */
export type ViewGjk =
  | {
      ok: true;
      a: string;
      b: string;
      status: "separated" | "intersecting";
      /** Signed distance of the full shapes, scene units. */
      distance: number;
      /** Where the Minkowski-difference inset's origin is drawn, world frame. */
      anchor: [number, number, number];
      /** The sampled Minkowski difference of the cores, drawn at the anchor. */
      minkowski: DebugDrawData;
      steps: ViewGjkStep[];
      /** EPA polytopes when the cores intersect, else null. */
      epa: {
        depth: number;
        normal: [number, number, number];
        /** How the library's EPA ended (see `EpaTraceView.status`). */
        status: string;
        steps: DebugDrawData[];
      } | null;
    }
  | { ok: false; a: string; b: string; error: string };

function arr(v: Vec3): [number, number, number] {
  return [v.x, v.y, v.z];
}

/**
 * The GJK/EPA trace of bodies `ia` and `ib` at `poses`, with the Minkowski inset drawn above the
 * pair (its origin over the centre of their AABBs, raised by 0.6 × the sum of their diagonals).
 * A pair that is not convex gives `{ ok: false, error }`.
 */
export function buildViewGjk(
  bodies: readonly ViewSourceBody[],
  poses: readonly Isometry[],
  ia: number,
  ib: number,
): ViewGjk {
  const A = bodies[ia];
  const B = bodies[ib];
  if (!isTraceable(A.shape) || !isTraceable(B.shape)) {
    const which = isTraceable(A.shape) ? B.id : A.id;
    return {
      ok: false,
      a: A.id,
      b: B.id,
      error: `${which} is not convex: GJK needs convex shapes`,
    };
  }
  const trace = traceGjkPair(A.shape, poses[ia], B.shape, poses[ib]);
  // The inset floats above the pair, clear of both: A − B spans about the sum of their sizes.
  const boxA = aabbOfShape(aabbm.empty(), A.shape, poses[ia]);
  const boxB = aabbOfShape(aabbm.empty(), B.shape, poses[ib]);
  const pair = aabbm.union(aabbm.empty(), boxA, boxB);
  const reach = vec3.distance(boxA.min, boxA.max) + vec3.distance(boxB.min, boxB.max);
  const anchor = vec3.create(
    (pair.min.x + pair.max.x) / 2,
    pair.max.y + INSET_HEIGHT_FRACTION * reach,
    (pair.min.z + pair.max.z) / 2,
  );
  const minkowski = drawMinkowskiDifference(
    new DebugDraw(),
    A.shape,
    poses[ia],
    B.shape,
    poses[ib],
    anchor,
  ).toData();
  const marker = MARKER_FRACTION * reach;
  const dirLen = DIRECTION_FRACTION * reach;
  const steps = trace.steps.map((s) => ({
    simplex: s.simplex.map(arr),
    v: arr(s.v),
    direction: arr(s.direction),
    draw: drawGjkStep(new DebugDraw(), s, anchor, dirLen, marker).toData(),
  }));
  const epa = trace.epa
    ? {
        depth: trace.epa.depth,
        normal: arr(trace.epa.normal),
        status: trace.epa.status,
        steps: trace.epa.steps.map((p) => drawEpaPolytope(new DebugDraw(), p, anchor).toData()),
      }
    : null;
  return {
    ok: true,
    a: A.id,
    b: B.id,
    status: trace.status,
    distance: trace.distance,
    anchor: arr(anchor),
    minkowski,
    steps,
    epa,
  };
}

/** A pair with a triangle mesh for the viewer: the mesh's closest triangle and the contact. */
export interface ViewMeshPair {
  ok: true;
  kind: "mesh";
  a: string;
  b: string;
  /** Signed distance, scene units (negative: penetration). */
  distance: number;
  /** Unit normal from a toward b, world frame. */
  normal: [number, number, number];
  /** Witness points on a and on b, world frame. */
  pointA: [number, number, number];
  pointB: [number, number, number];
  /** Per mesh of the pair: its id, the index of its triangle closest to the contact, the corners (world). */
  triangles: { body: string; index: number; corners: number[] }[];
  /** Ready-to-draw: the closest triangles, the witness points and the normal. */
  draw: DebugDrawData;
}

const meshLocal = vec3.create();
const triA = vec3.create();
const triB = vec3.create();
const triC = vec3.create();
const triQ = vec3.create();

/**
 * Index of the triangle of `mesh` closest to the world point `p` (the mesh at `pose`), by a
 * scan of every triangle (the viewer's use: one pair, on demand), and its world corners into
 * `corners` (9 numbers).
 */
export function closestMeshTriangle(
  mesh: TriangleMesh,
  pose: Isometry,
  p: Vec3,
  corners: number[],
): number {
  iso.inverseTransformPoint(meshLocal, pose, p);
  const v = mesh.vertices;
  const idx = mesh.indices;
  let best = -1;
  let bestD = Infinity;
  for (let t = 0; t < mesh.triangleCount; t++) {
    const i0 = 3 * idx[3 * t];
    const i1 = 3 * idx[3 * t + 1];
    const i2 = 3 * idx[3 * t + 2];
    vec3.set(triA, v[i0], v[i0 + 1], v[i0 + 2]);
    vec3.set(triB, v[i1], v[i1 + 1], v[i1 + 2]);
    vec3.set(triC, v[i2], v[i2 + 1], v[i2 + 2]);
    closestPointOnTriangle(triQ, meshLocal, triA, triB, triC);
    const d = vec3.distanceSq(triQ, meshLocal);
    if (d < bestD) {
      bestD = d;
      best = t;
    }
  }
  corners.length = 0;
  if (best < 0) return best;
  for (let k = 0; k < 3; k++) {
    const i = 3 * idx[3 * best + k];
    vec3.set(triQ, v[i], v[i + 1], v[i + 2]);
    iso.transformPoint(triQ, pose, triQ);
    corners.push(triQ.x, triQ.y, triQ.z);
  }
  return best;
}

/** Colour of the closest triangle of a mesh pair. */
const CLOSEST_TRIANGLE_COLOR = 0xff44ff;

/**
 * The view of a pair of bodies `ia`, `ib` of which at least one is a triangle mesh: the
 * contact (the `contact` query when they touch, else the `distance` query's closest points,
 * with the normal along them) and each mesh's triangle closest to its witness point. Throws
 * what the queries throw (`unsupported_pair`).
 */
export function buildViewMeshPair(
  bodies: readonly ViewSourceBody[],
  poses: readonly Isometry[],
  ia: number,
  ib: number,
): ViewMeshPair {
  const A = bodies[ia];
  const B = bodies[ib];
  const pa = poses[ia];
  const pb = poses[ib];
  const c = contact(A.shape as Shape, pa, B.shape as Shape, pb);
  let dist: number;
  const normal = vec3.create();
  const pointA = vec3.create();
  const pointB = vec3.create();
  if (c) {
    dist = c.distance;
    vec3.copy(normal, c.normal);
    vec3.copy(pointA, c.pointA);
    vec3.copy(pointB, c.pointB);
  } else {
    const d = distance(A.shape as Shape, pa, B.shape as Shape, pb);
    dist = d.distance;
    vec3.copy(pointA, d.pointA);
    vec3.copy(pointB, d.pointB);
    vec3.sub(normal, pointB, pointA);
    vec3.normalize(normal, normal);
  }
  const dd = new DebugDraw();
  const triangles: ViewMeshPair["triangles"] = [];
  for (const [body, pose, witness] of [
    [A, pa, pointA],
    [B, pb, pointB],
  ] as const) {
    if (body.shape.type !== ShapeType.TriangleMesh) continue;
    const corners: number[] = [];
    const index = closestMeshTriangle(body.shape as TriangleMesh, pose, witness, corners);
    triangles.push({ body: body.id, index, corners });
    for (let k = 0; k < 3; k++) {
      const m = (k + 1) % 3;
      dd.segment(
        corners[3 * k],
        corners[3 * k + 1],
        corners[3 * k + 2],
        corners[3 * m],
        corners[3 * m + 1],
        corners[3 * m + 2],
        CLOSEST_TRIANGLE_COLOR,
      );
    }
  }
  const len = NORMAL_LENGTH_FRACTION * sceneSize([A, B], [pa, pb]);
  drawContact(dd, { normal, points: [{ pointA, pointB }] }, len);
  return {
    ok: true,
    kind: "mesh",
    a: A.id,
    b: B.id,
    distance: dist,
    normal: arr(normal),
    pointA: arr(pointA),
    pointB: arr(pointB),
    triangles,
    draw: dd.toData(),
  };
}
