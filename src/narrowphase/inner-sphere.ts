/**
 * Balls that polytopes surely contain, for the narrow phase's test that two of them overlap
 * deeply: when the balls of A and B overlap, so do A and B, and the origin lies inside A − B
 * (which contains the ball about c_A − c_B of radius r_A + r_B) by at least the balls' overlap.
 * `contactConvexConvex` then starts EPA from an octahedron of support points instead of GJK's
 * simplex (src/geometry/epa.ts, `epaOctahedron`, which checks its own start: this test only
 * chooses when to try it).
 *
 * The ball of a box: its centre, radius the least half extent. The ball of a hull: the mean of
 * its vertices (inside a solid hull), radius the least distance from it to a face plane — the
 * largest ball about that centre inside the hull — made on first use and kept per hull; 0 for a
 * flat hull. Every other shape: none (radius 0). Cores only: a rounded box or hull is not
 * answered here (its margin would have to be added), so it has none either.
 */

import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { ConvexShape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";

/** A hull's ball (centre xyz, radius), made on first use. */
const hullBalls = new WeakMap<ConvexPolyhedron, Float64Array>();

/** out[0..2] = the centre of a ball inside `s` (local frame), out[3] = its radius (0: none). */
export function innerBall(out: Float64Array, s: ConvexShape): void {
  if (s.type === ShapeType.Cuboid) {
    const h = (s as Cuboid).halfExtents;
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    out[3] = Math.min(h.x, h.y, h.z);
    return;
  }
  if (s.type !== ShapeType.ConvexPolyhedron) {
    out[3] = 0;
    return;
  }
  const c = s as ConvexPolyhedron;
  let ball = hullBalls.get(c);
  if (ball === undefined) {
    ball = hullBall(c);
    hullBalls.set(c, ball);
  }
  out[0] = ball[0];
  out[1] = ball[1];
  out[2] = ball[2];
  out[3] = ball[3];
}

/** The ball of hull `c` (see the module's notes); allocates (once per hull). */
function hullBall(c: ConvexPolyhedron): Float64Array {
  const v = c.vertices;
  const ball = new Float64Array(4);
  const n = v.length / 3;
  if (c.flat || n === 0) return ball;
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = 0; i < v.length; i += 3) {
    x += v[i];
    y += v[i + 1];
    z += v[i + 2];
  }
  x /= n;
  y /= n;
  z /= n;
  let r = Number.POSITIVE_INFINITY;
  const fn = c.faceNormals;
  const fd = c.facePlaneOffsets;
  for (let f = 0; f < fd.length; f++) {
    r = Math.min(r, fd[f] - (fn[3 * f] * x + fn[3 * f + 1] * y + fn[3 * f + 2] * z));
  }
  ball[0] = x;
  ball[1] = y;
  ball[2] = z;
  // A hull within rounding of flat, or a non-finite one: none.
  ball[3] = r > 0 && r < Number.POSITIVE_INFINITY ? r : 0;
  return ball;
}

const ballA = new Float64Array(4);
const ballB = new Float64Array(4);
const centreB = vec3.create();

/**
 * True when the balls of `a` and of `b` (B posed by `bInA` in A's frame) overlap by more than
 * DEEP_OVERLAP of the sum of their radii: the pair overlaps, with the origin that deep inside
 * A − B. False when either shape has no ball. No allocation (after a hull's first use).
 */
export function deepBallOverlap(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  innerBall(ballA, a);
  if (!(ballA[3] > 0)) return false;
  innerBall(ballB, b);
  if (!(ballB[3] > 0)) return false;
  centreB.x = ballB[0];
  centreB.y = ballB[1];
  centreB.z = ballB[2];
  quat.rotate(centreB, bInA.rotation, centreB);
  const t = bInA.translation;
  const dx = centreB.x + t.x - ballA[0];
  const dy = centreB.y + t.y - ballA[1];
  const dz = centreB.z + t.z - ballA[2];
  const reach = (1 - DEEP_OVERLAP) * (ballA[3] + ballB[3]);
  return dx * dx + dy * dy + dz * dz < reach * reach;
}

/** The least overlap of the balls, as a fraction of the sum of their radii, for the octahedron. */
const DEEP_OVERLAP = 0.125;
