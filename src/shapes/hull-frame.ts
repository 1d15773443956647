/**
 * The frame at a far hull's centre (issue 16): a convex polyhedron made from points all near
 * 1e10 and placed with no position (an unrotated pose) rounds every quantity of its queries at
 * 1e10 — GJK's support points, the projection of a point — so `projectPoint` and `distance` were
 * accurate to ulps of 1e10 (1.2e-6 for a hull of size 1) rather than to the hull's size. Such a
 * hull is answered instead as its copy re-centred at a point c of a coarse power-of-two grid
 * inside its box (per axis: the middle of its vertices' range rounded to a multiple of the power of two
 * at least that range, so every vertex less c is exact), made once per hull and kept: the pair
 * queries (`intersects`, `distance`, `contact`, `manifold`, `castShapes`) move both shapes by
 * −c (src/shapes/far-frame.ts, after the far triangle's frame), `projectPoint` moves its point.
 * The answers' points are moved back by +c (one rounding at their world magnitude). A hull whose
 * box holds its frame's origin within 4 of its extents, or that is rotated, is answered as
 * before. Loaded by the convex polyhedron's module, which thereby sets the hooks.
 */
import { gridCentre } from "../geometry/far-centre.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "./convex-polyhedron.js";
import {
  FAR_FRAME_SLOTS,
  type FarFrame,
  setFarCentredCopyHook,
  setFarHullFrameHook,
} from "./far-frame.js";
import type { Shape } from "./shape.js";
import { ShapeType } from "./shape.js";

/**
 * A hull's centre's distance from its frame's origin, in its extents (the largest range of its
 * vertices on an axis), above which its queries move to the frame at its centre: 4, as the far
 * triangle's (src/shapes/triangle-frame.ts `TRIANGLE_FRAME_RATIO`).
 */
export const HULL_FRAME_RATIO = 4;

/** A far hull's re-centred copy and the centre it was moved by (frame coordinates). */
interface Centred {
  readonly copy: ConvexPolyhedron;
  readonly centre: Vec3;
  readonly extent: number;
}

/** Per hull: its re-centred copy, or null when it is not far (decided once per hull). */
const centredOf = new WeakMap<object, Centred | null>();

/** The re-centring constructor (set by the hull's module: this module must not import it). */
let makeHull: ((points: Float64Array) => ConvexPolyhedron) | null = null;

/** Sets the hull constructor used for the re-centred copies (src/shapes/convex-polyhedron.ts). */
export function setHullFrameMaker(f: (points: Float64Array) => ConvexPolyhedron): void {
  makeHull = f;
}

/**
 * The grid centre of packed points xyz (per axis, {@link gridCentre} of their range) when it
 * lies more than {@link HULL_FRAME_RATIO} times their extent (largest range) from the origin,
 * else null. Allocates the answer.
 */
export function farCentre(v: ArrayLike<number>): number[] | null {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < v.length; i++) {
    const a = i % 3;
    if (v[i] < lo[a]) lo[a] = v[i];
    if (v[i] > hi[a]) hi[a] = v[i];
  }
  const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  // Beyond MAX_VALUE / HULL_FRAME_RATIO no finite centre is far.
  if (!(extent > 0 && extent <= Number.MAX_VALUE / HULL_FRAME_RATIO)) return null;
  const c = [0, 1, 2].map((a) => gridCentre(lo[a], hi[a]));
  // A centre rounded past the largest double (points near ±1.8e308): no frame, the hull as given.
  if (!(Number.isFinite(c[0]) && Number.isFinite(c[1]) && Number.isFinite(c[2]))) return null;
  const far = Math.max(Math.abs(c[0]), Math.abs(c[1]), Math.abs(c[2])) > HULL_FRAME_RATIO * extent;
  return far ? c : null;
}

/** The re-centred copy of hull `s` when it is far ({@link HULL_FRAME_RATIO}), else null. */
function centredHull(s: ConvexPolyhedron): Centred | null {
  const kept = centredOf.get(s);
  if (kept !== undefined) return kept;
  let result: Centred | null = null;
  const v = s.vertices;
  const c = farCentre(v);
  if (c !== null && makeHull !== null) {
    let extent = 0;
    for (let i = 3; i < v.length; i++) extent = Math.max(extent, Math.abs(v[i] - v[i % 3]));
    const moved = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) moved[i] = v[i] - c[i % 3];
    try {
      result = { copy: makeHull(moved), centre: vec3.create(c[0], c[1], c[2]), extent };
    } catch {
      result = null;
    }
  }
  centredOf.set(s, result);
  return result;
}

/** The far hull's re-centred copy when `s` is a far hull at an unrotated pose, else null. */
function farHull(s: Shape, pose: Isometry): Centred | null {
  if (s.type !== ShapeType.ConvexPolyhedron) return null;
  const r = pose.rotation;
  if (!(r.x === 0 && r.y === 0 && r.z === 0)) return null;
  return centredHull(s as ConvexPolyhedron);
}

/** One frame per query slot (src/shapes/far-frame.ts `FarFrameSlot`). */
const frames: FarFrame[] = Array.from({ length: FAR_FRAME_SLOTS }, () => ({
  origin: vec3.create(),
  a: null as unknown as Shape,
  poseA: iso.identity(),
  b: null as unknown as Shape,
  poseB: iso.identity(),
}));

/**
 * Shape `s` at `pose` moved by −o into `local`: a far hull `h` as its copy at its pose
 * translation plus (its centre − o), any other shape's translation less o.
 */
function moveShape(s: Shape, pose: Isometry, h: Centred | null, local: Isometry, o: Vec3): Shape {
  iso.copy(local, pose);
  const t = local.translation;
  if (h === null) {
    vec3.sub(t, pose.translation, o);
    return s;
  }
  t.x = pose.translation.x + (h.centre.x - o.x);
  t.y = pose.translation.y + (h.centre.y - o.y);
  t.z = pose.translation.z + (h.centre.z - o.z);
  return h.copy as Shape;
}

setFarHullFrameHook((slot, a, poseA, b, poseB) => {
  if (a.type !== ShapeType.ConvexPolyhedron && b.type !== ShapeType.ConvexPolyhedron) return null;
  const ha = farHull(a, poseA);
  const hb = farHull(b, poseB);
  if (ha === null && hb === null) return null;
  // Of two far hulls, the smaller one's centre (then the lesser centre), so that both orders of
  // a pair move alike.
  const at =
    ha !== null &&
    (hb === null ||
      ha.extent < hb.extent ||
      (ha.extent === hb.extent &&
        (ha.centre.x < hb.centre.x ||
          (ha.centre.x === hb.centre.x &&
            (ha.centre.y < hb.centre.y ||
              (ha.centre.y === hb.centre.y && ha.centre.z <= hb.centre.z))))))
      ? ha
      : (hb as Centred);
  const f = frames[slot];
  // The origin: the centre placed by its hull's pose (unrotated: translation + centre).
  const pose = at === ha ? poseA : poseB;
  vec3.add(f.origin, pose.translation, at.centre);
  if (
    !(
      f.origin.x - pose.translation.x === at.centre.x &&
      f.origin.y - pose.translation.y === at.centre.y &&
      f.origin.z - pose.translation.z === at.centre.z
    )
  ) {
    // translation + centre rounds: the frame at the centre itself (the pose's translation stays).
    vec3.copy(f.origin, at.centre);
  }
  f.a = moveShape(a, poseA, ha, f.poseA, f.origin);
  f.b = moveShape(b, poseB, hb, f.poseB, f.origin);
  return f;
});

setFarCentredCopyHook((out, s, pose) => {
  const h = farHull(s, pose);
  if (h === null) return null;
  vec3.copy(out, h.centre);
  return h.copy as Shape;
});
