/**
 * Support functions and their composable adapters (Jolt's `ConvexSupport.h` idea, van den
 * Bergen 2003 §4.3). A convex set C is known to GJK and EPA only through its support function
 * s_C(d) = argmax_{x ∈ C} d·x. Rounded shapes are a core point set swept by a ball of radius
 * `margin`: GJK runs on the core and the margin is added analytically afterwards, so a sphere
 * (a point core) or a capsule (a segment core) gives exact results.
 *
 * This layer knows nothing of shapes: the adapter from a shape to its core lives in the narrow
 * phase (src/narrowphase/convex-convex.ts). Every adapter is a reusable object that one
 * `reset`s; no call allocates.
 */

import type { Isometry } from "../math/isometry.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot3Into, hypotIo } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";

/**
 * A support-mapped convex set in its own local frame: `support(out, dir)` writes the point of
 * the core farthest along `dir` (any length; a zero `dir` gives some point of the core) and
 * returns `out`; `margin` (≥ 0, scene units) is the radius of the ball swept around the core.
 */
export interface SupportMap {
  /** out = a point of the core maximising dir·x (local frame). */
  support(out: Vec3, dir: Vec3): Vec3;
  /** Radius of the ball swept around the core, scene units (0 for sharp shapes). */
  margin: number;
}

/** A single point as a core (a sphere's centre when `margin` is its radius). */
export class PointSupport implements SupportMap {
  /** The point, local frame. */
  readonly point: Vec3 = vec3.create();
  /** Swept radius, scene units. */
  margin = 0;

  /** Sets the point and margin; returns this. */
  reset(point: Vec3, margin = 0): this {
    vec3.copy(this.point, point);
    this.margin = margin;
    return this;
  }

  /** out = the point. */
  support(out: Vec3, _dir: Vec3): Vec3 {
    return vec3.copy(out, this.point);
  }
}

/** A segment as a core (a capsule's axis when `margin` is its radius). */
export class SegmentSupport implements SupportMap {
  /** First end, local frame. */
  readonly a: Vec3 = vec3.create();
  /** Second end, local frame. */
  readonly b: Vec3 = vec3.create();
  /** Swept radius, scene units. */
  margin = 0;

  /** Sets the ends and margin; returns this. */
  reset(a: Vec3, b: Vec3, margin = 0): this {
    vec3.copy(this.a, a);
    vec3.copy(this.b, b);
    this.margin = margin;
    return this;
  }

  /** out = the end farther along dir (`a` on ties). */
  support(out: Vec3, dir: Vec3): Vec3 {
    return vec3.dot(this.b, dir) > vec3.dot(this.a, dir)
      ? vec3.copy(out, this.b)
      : vec3.copy(out, this.a);
  }
}

/**
 * The convex hull of a point cloud (packed xyz), by a linear scan over its points. The array
 * is referenced, not copied. Ties go to the first point, so results are deterministic.
 */
export class PointCloudSupport implements SupportMap {
  /** Packed xyz coordinates, local frame; length a multiple of 3, at least one point. */
  points: ArrayLike<number> = new Float64Array(3);
  /** Swept radius, scene units. */
  margin = 0;

  /** Sets the points (referenced) and margin; returns this. */
  reset(points: ArrayLike<number>, margin = 0): this {
    this.points = points;
    this.margin = margin;
    return this;
  }

  /** out = the point with the largest dir·p. */
  support(out: Vec3, dir: Vec3): Vec3 {
    const p = this.points;
    let best = 0;
    let bestDot = -Infinity;
    for (let i = 0; i + 2 < p.length; i += 3) {
      const d = p[i] * dir.x + p[i + 1] * dir.y + p[i + 2] * dir.z;
      if (d > bestDot) {
        bestDot = d;
        best = i;
      }
    }
    return vec3.set(out, p[best], p[best + 1], p[best + 2]);
  }
}

const localDir = vec3.create();

/**
 * A support map posed by an isometry: s(d) = pose · s_inner(R⁻¹ d). Used to express B in A's
 * frame (`bInA`). The margin is the inner one. The pose is referenced, not copied.
 */
export class TransformedSupport implements SupportMap {
  /** The wrapped support map. */
  inner: SupportMap = new PointSupport();
  /** The pose of the inner frame in this frame. */
  pose: Isometry = {
    translation: vec3.create(),
    rotation: { x: 0, y: 0, z: 0, w: 1 },
  };
  /** Swept radius, scene units (the inner one). */
  margin = 0;

  /**
   * The pose's rotation (x, y, z, w) and translation (x, y, z), read once by {@link reset}: the
   * support reads these doubles from a typed array, not from the pose's objects, whose maps vary
   * with the caller (a load of a double field through polymorphic feedback is boxed).
   */
  private readonly q = new Float64Array(7);

  /**
   * Wraps `inner` placed at `pose`; returns this. The pose is read now: call `reset` again after
   * changing it.
   */
  reset(inner: SupportMap, pose: Isometry): this {
    this.inner = inner;
    this.pose = pose;
    this.margin = inner.margin;
    const q = this.q;
    const r = pose.rotation;
    const t = pose.translation;
    q[0] = r.x;
    q[1] = r.y;
    q[2] = r.z;
    q[3] = r.w;
    q[4] = t.x;
    q[5] = t.y;
    q[6] = t.z;
    return this;
  }

  /** out = pose · s_inner(R⁻¹ dir): quat.inverseRotate, then quat.rotate and the translation, written out. */
  support(out: Vec3, dir: Vec3): Vec3 {
    const q = this.q;
    const qx = q[0];
    const qy = q[1];
    const qz = q[2];
    const qw = q[3];
    const dx = dir.x;
    const dy = dir.y;
    const dz = dir.z;
    const ux = 2 * (-qy * dz + qz * dy);
    const uy = 2 * (-qz * dx + qx * dz);
    const uz = 2 * (-qx * dy + qy * dx);
    localDir.x = dx + qw * ux + (-qy * uz + qz * uy);
    localDir.y = dy + qw * uy + (-qz * ux + qx * uz);
    localDir.z = dz + qw * uz + (-qx * uy + qy * ux);
    this.inner.support(out, localDir);
    const vx = out.x;
    const vy = out.y;
    const vz = out.z;
    const tx = 2 * (qy * vz - qz * vy);
    const ty = 2 * (qz * vx - qx * vz);
    const tz = 2 * (qx * vy - qy * vx);
    out.x = vx + qw * tx + (qy * tz - qz * ty) + q[4];
    out.y = vy + qw * ty + (qz * tx - qx * tz) + q[5];
    out.z = vz + qw * tz + (qx * ty - qy * tx) + q[6];
    return out;
  }
}

/**
 * The full rounded set: s(d) = s_inner(d) + (inner.margin + radius) · d/|d|, with margin 0
 * (the radius is baked into the point set). A zero `dir` returns the core point unchanged.
 */
export class PlusRadiusSupport implements SupportMap {
  /** The wrapped support map. */
  inner: SupportMap = new PointSupport();
  /** Extra radius added on top of the inner margin, scene units. */
  radius = 0;
  /** Always 0: the radius is part of the support points. */
  margin = 0;

  /** Wraps `inner`, baking in its margin plus `radius` (≥ 0); returns this. */
  reset(inner: SupportMap, radius = 0): this {
    this.inner = inner;
    this.radius = radius;
    return this;
  }

  /** out = s_inner(dir) + (inner.margin + radius) · dir/|dir|. */
  support(out: Vec3, dir: Vec3): Vec3 {
    this.inner.support(out, dir);
    const r = this.inner.margin + this.radius;
    // vec3.length and addScaled written out: a double passed to or returned by a call V8 does
    // not inline is boxed (allocated), and this runs for every support point of a rounded shape.
    const x = dir.x;
    const y = dir.y;
    const z = dir.z;
    const s = x * x + y * y + z * z;
    let len = Math.sqrt(s);
    // (A zero vector: √0 is hypot3's 0, and the call would box its arguments.)
    if (!(s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) && !(x === 0 && y === 0 && z === 0)) {
      hypot3Into(x, y, z);
      len = hypotIo[0];
    }
    if (r > 0 && len > 0) {
      const k = r / len;
      out.x = out.x + x * k;
      out.y = out.y + y * k;
      out.z = out.z + z * k;
    }
    return out;
  }
}

const negDir = vec3.create();
const scratchA = vec3.create();
const scratchB = vec3.create();

/**
 * The Minkowski difference A − B = {a − b}: s(d) = s_A(d) − s_B(−d), with margin
 * A.margin + B.margin. Both maps must be in the same frame (wrap B in a
 * {@link TransformedSupport}). `supportPoints` also reports the two witnesses, as GJK and EPA
 * need them.
 */
export class MinkowskiDifference implements SupportMap {
  /** The minuend A. */
  a: SupportMap = new PointSupport();
  /** The subtrahend B (in A's frame). */
  b: SupportMap = new PointSupport();
  /** A.margin + B.margin, scene units. */
  margin = 0;

  /** Sets A and B; returns this. */
  reset(a: SupportMap, b: SupportMap): this {
    this.a = a;
    this.b = b;
    this.margin = a.margin + b.margin;
    return this;
  }

  /** out = s_A(dir) − s_B(−dir). */
  support(out: Vec3, dir: Vec3): Vec3 {
    return this.supportPoints(out, scratchA, scratchB, dir);
  }

  /** outA = s_A(dir), outB = s_B(−dir), outW = outA − outB; returns outW. */
  supportPoints(outW: Vec3, outA: Vec3, outB: Vec3, dir: Vec3): Vec3 {
    this.a.support(outA, dir);
    // vec3.negate and vec3.sub written out (see TransformedSupport.support).
    negDir.x = -dir.x;
    negDir.y = -dir.y;
    negDir.z = -dir.z;
    this.b.support(outB, negDir);
    outW.x = outA.x - outB.x;
    outW.y = outA.y - outB.y;
    outW.z = outA.z - outB.z;
    return outW;
  }
}
