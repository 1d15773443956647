/**
 * Renderer-independent debug draw: a growable list of coloured line segments and points in
 * world space, as flat typed arrays (6 numbers per segment, 3 per point; one 0xRRGGBB colour
 * each). Any renderer — the three.js adapter (`collide/three`), a canvas, a test — reads the
 * arrays; nothing here knows about a DOM or a GPU (shared/DESIGN.md, "Library code never touches
 * the DOM").
 *
 * A debug draw is a debugging tool: it grows by doubling and so allocates; keep it out of hot
 * paths (clear and reuse one instance per frame).
 */
import type { Vec3 } from "../math/vec3.js";

/**
 * Plain-array form of a `DebugDraw` (src/debug/draw.ts), for JSON: `lines` holds 6 numbers per segment
 * (x0, y0, z0, x1, y1, z1, world frame), `lineColors` one 0xRRGGBB integer per segment,
 * `points` 3 numbers per point and `pointColors` one colour per point.
 */
export interface DebugDrawData {
  lines: number[];
  lineColors: number[];
  points: number[];
  pointColors: number[];
}

/** Initial capacity of a debug draw, in segments and in points. */
const INITIAL_CAPACITY = 64;

/** Colours of the debug draw, 0xRRGGBB. */
export const DebugColors = {
  /** Shape wireframes. */
  shape: 0xd0d0d0,
  /** Tight AABBs. */
  aabb: 0x3fa7ff,
  /** Oriented bounding boxes. */
  obb: 0xffa53f,
  /** Contact points. */
  contactPoint: 0xff3030,
  /** Contact normals. */
  contactNormal: 0xffee33,
  /** GJK simplex edges and points. */
  simplex: 0x33ff77,
  /** GJK closest point v. */
  closestPoint: 0xff44ff,
  /** GJK search direction. */
  searchDirection: 0x00e5ff,
  /** Origin marker of the Minkowski-difference view. */
  origin: 0xffffff,
  /** Sampled Minkowski difference A − B. */
  minkowski: 0x808080,
  /** EPA polytope edges. */
  polytope: 0xff8800,
  /** EPA's closest face and penetration vector. */
  closestFace: 0xff2222,
  /** Witness points on the shapes. */
  witness: 0x33ff77,
} as const;

/** A growable list of coloured world-space line segments and points (see the module docs). */
export class DebugDraw {
  private linePos = new Float64Array(6 * INITIAL_CAPACITY);
  private lineCol = new Uint32Array(INITIAL_CAPACITY);
  private pointPos = new Float64Array(3 * INITIAL_CAPACITY);
  private pointCol = new Uint32Array(INITIAL_CAPACITY);
  /** Number of segments. */
  lineCount = 0;
  /** Number of points. */
  pointCount = 0;

  /** Removes every segment and point (keeps the capacity). */
  clear(): this {
    this.lineCount = 0;
    this.pointCount = 0;
    return this;
  }

  /** Adds the segment (x0, y0, z0)–(x1, y1, z1), world frame, in colour 0xRRGGBB. */
  segment(
    x0: number,
    y0: number,
    z0: number,
    x1: number,
    y1: number,
    z1: number,
    color: number,
  ): this {
    if (this.lineCount === this.lineCol.length) {
      const pos = new Float64Array(2 * this.linePos.length);
      pos.set(this.linePos);
      this.linePos = pos;
      const col = new Uint32Array(2 * this.lineCol.length);
      col.set(this.lineCol);
      this.lineCol = col;
    }
    const k = 6 * this.lineCount;
    const p = this.linePos;
    p[k] = x0;
    p[k + 1] = y0;
    p[k + 2] = z0;
    p[k + 3] = x1;
    p[k + 4] = y1;
    p[k + 5] = z1;
    this.lineCol[this.lineCount++] = color;
    return this;
  }

  /** Adds the segment a–b (world frame) in colour 0xRRGGBB. */
  line(a: Vec3, b: Vec3, color: number): this {
    return this.segment(a.x, a.y, a.z, b.x, b.y, b.z, color);
  }

  /** Adds the point p (world frame) in colour 0xRRGGBB. */
  point(p: Vec3, color: number): this {
    if (this.pointCount === this.pointCol.length) {
      const pos = new Float64Array(2 * this.pointPos.length);
      pos.set(this.pointPos);
      this.pointPos = pos;
      const col = new Uint32Array(2 * this.pointCol.length);
      col.set(this.pointCol);
      this.pointCol = col;
    }
    const k = 3 * this.pointCount;
    this.pointPos[k] = p.x;
    this.pointPos[k + 1] = p.y;
    this.pointPos[k + 2] = p.z;
    this.pointCol[this.pointCount++] = color;
    return this;
  }

  /** Appends every segment and point of `other`. */
  append(other: DebugDraw): this {
    const lp = other.linePositions;
    const lc = other.lineColors;
    for (let i = 0; i < other.lineCount; i++) {
      const k = 6 * i;
      this.segment(lp[k], lp[k + 1], lp[k + 2], lp[k + 3], lp[k + 4], lp[k + 5], lc[i]);
    }
    const pp = other.pointPositions;
    const pc = other.pointColors;
    for (let i = 0; i < other.pointCount; i++) {
      this.point({ x: pp[3 * i], y: pp[3 * i + 1], z: pp[3 * i + 2] }, pc[i]);
    }
    return this;
  }

  /** The segments' endpoints, 6 numbers per segment (a view: valid until the next add). */
  get linePositions(): Float64Array {
    return this.linePos.subarray(0, 6 * this.lineCount);
  }

  /** The segments' colours, 0xRRGGBB (a view: valid until the next add). */
  get lineColors(): Uint32Array {
    return this.lineCol.subarray(0, this.lineCount);
  }

  /** The points, 3 numbers per point (a view: valid until the next add). */
  get pointPositions(): Float64Array {
    return this.pointPos.subarray(0, 3 * this.pointCount);
  }

  /** The points' colours, 0xRRGGBB (a view: valid until the next add). */
  get pointColors(): Uint32Array {
    return this.pointCol.subarray(0, this.pointCount);
  }

  /** A plain-array copy for JSON (allocates). */
  toData(): DebugDrawData {
    return {
      lines: Array.from(this.linePositions),
      lineColors: Array.from(this.lineColors),
      points: Array.from(this.pointPositions),
      pointColors: Array.from(this.pointColors),
    };
  }
}

/** An empty {@link DebugDrawData}. */
export function emptyDebugDrawData(): DebugDrawData {
  return { lines: [], lineColors: [], points: [], pointColors: [] };
}
