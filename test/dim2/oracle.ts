/**
 * Slow, obviously-correct twins for the 2D tests: shapes as explicit outlines (dense boundary
 * samples) with an inside test written from the definitions, convex polygon clipping
 * (Sutherland–Hodgman) and brute-force distances. Nothing here calls src/dim2 algorithms.
 */
import type { Pose2 } from "../../src/dim2/pose2.js";
import type { Shape2 } from "../../src/dim2/shapes.js";
import { ShapeType2 } from "../../src/dim2/shapes.js";

export type P = [number, number];

/** World point of local (x, y). */
export function toWorld(pose: Pose2, x: number, y: number): P {
  return [pose.q.c * x - pose.q.s * y + pose.p.x, pose.q.s * x + pose.q.c * y + pose.p.y];
}

function toLocal(pose: Pose2, p: P): P {
  const x = p[0] - pose.p.x;
  const y = p[1] - pose.p.y;
  return [pose.q.c * x + pose.q.s * y, -pose.q.s * x + pose.q.c * y];
}

function segDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax;
  const ey = by - ay;
  // e over its largest component first: e·e of a 1e-200 segment would underflow to 0.
  const m = Math.max(Math.abs(ex), Math.abs(ey));
  const ee = m > 0 ? (ex / m) ** 2 + (ey / m) ** 2 : 0;
  let t = ee > 0 ? ((px - ax) * (ex / m) + (py - ay) * (ey / m)) / ee / m : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - ax - ex * t, py - ay - ey * t);
}

/** Signed-ish membership: distance from p to the shape (0 inside), from the definitions. */
export function distToShape(shape: Shape2, pose: Pose2, p: P): number {
  const [x, y] = toLocal(pose, p);
  switch (shape.type) {
    case ShapeType2.Circle:
      return Math.max(0, Math.hypot(x, y) - shape.radius);
    case ShapeType2.Rect: {
      // The exact corners (the core's first vertex and the one halfway round).
      const v = shape.core.verts;
      const k = 2 * (shape.core.count >> 1);
      const dx = Math.max(0, v[0] - x, x - v[k]);
      const dy = Math.max(0, v[1] - y, y - v[k + 1]);
      return Math.hypot(dx, dy);
    }
    case ShapeType2.Capsule:
      return Math.max(0, segDist(x, y, shape.a.x, shape.a.y, shape.b.x, shape.b.y) - shape.radius);
    case ShapeType2.Segment:
      return segDist(x, y, shape.a.x, shape.a.y, shape.b.x, shape.b.y);
    case ShapeType2.Polygon: {
      const v = shape.core.verts;
      const n = shape.core.count;
      let inside = true;
      let best = Infinity;
      for (let i = 0; i < n; i++) {
        const j = (i + 1) % n;
        const ax = v[2 * i];
        const ay = v[2 * i + 1];
        const bx = v[2 * j];
        const by = v[2 * j + 1];
        if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0) inside = false;
        best = Math.min(best, segDist(x, y, ax, ay, bx, by));
      }
      return inside ? 0 : best;
    }
  }
}

/** Dense boundary samples of the shape in world frame (`k` per edge or per full circle). */
export function outline(shape: Shape2, pose: Pose2, k: number): P[] {
  const out: P[] = [];
  const arc = (cx: number, cy: number, r: number, a0: number, a1: number) => {
    for (let i = 0; i <= k; i++) {
      const t = a0 + ((a1 - a0) * i) / k;
      out.push(toWorld(pose, cx + r * Math.cos(t), cy + r * Math.sin(t)));
    }
  };
  const edge = (ax: number, ay: number, bx: number, by: number) => {
    for (let i = 0; i <= k; i++) {
      const t = i / k;
      out.push(toWorld(pose, ax + (bx - ax) * t, ay + (by - ay) * t));
    }
  };
  switch (shape.type) {
    case ShapeType2.Circle:
      arc(0, 0, shape.radius, 0, 2 * Math.PI);
      break;
    case ShapeType2.Segment:
      edge(shape.a.x, shape.a.y, shape.b.x, shape.b.y);
      break;
    case ShapeType2.Capsule: {
      const { a, b, radius: r } = shape;
      const ang = Math.atan2(b.y - a.y, b.x - a.x);
      arc(b.x, b.y, r, ang - Math.PI / 2, ang + Math.PI / 2);
      arc(a.x, a.y, r, ang + Math.PI / 2, ang + (3 * Math.PI) / 2);
      const nx = Math.cos(ang + Math.PI / 2) * r;
      const ny = Math.sin(ang + Math.PI / 2) * r;
      edge(a.x + nx, a.y + ny, b.x + nx, b.y + ny);
      edge(a.x - nx, a.y - ny, b.x - nx, b.y - ny);
      break;
    }
    default: {
      const v = shape.core.verts;
      const n = shape.core.count;
      for (let i = 0; i < n; i++) {
        const j = (i + 1) % n;
        edge(v[2 * i], v[2 * i + 1], v[2 * j], v[2 * j + 1]);
      }
    }
  }
  return out;
}

/** World vertices (CCW) of a polygon-cored shape (rect or polygon). */
export function worldPolygon(shape: Shape2, pose: Pose2): P[] {
  const v = shape.core.verts;
  const out: P[] = [];
  for (let i = 0; i < shape.core.count; i++) out.push(toWorld(pose, v[2 * i], v[2 * i + 1]));
  return out;
}

/** Area of the intersection of two convex CCW polygons (Sutherland–Hodgman clipping). */
export function clipArea(subject: P[], clip: P[]): number {
  let poly = subject.slice();
  for (let i = 0; i < clip.length && poly.length > 0; i++) {
    const a = clip[i];
    const b = clip[(i + 1) % clip.length];
    const side = (p: P) => (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    const next: P[] = [];
    for (let j = 0; j < poly.length; j++) {
      const p = poly[j];
      const q = poly[(j + 1) % poly.length];
      const sp = side(p);
      const sq = side(q);
      if (sp >= 0) next.push(p);
      if (sp >= 0 !== sq >= 0) {
        const t = sp / (sp - sq);
        next.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
      }
    }
    poly = next;
  }
  let area = 0;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i];
    const q = poly[(i + 1) % poly.length];
    area += p[0] * q[1] - p[1] * q[0];
  }
  return Math.abs(area) / 2;
}

/** Sampled distance between two shapes: min over A's outline of the distance to B and back. */
export function sampledDistance(a: Shape2, pa: Pose2, b: Shape2, pb: Pose2, k: number): number {
  let best = Infinity;
  for (const p of outline(a, pa, k)) best = Math.min(best, distToShape(b, pb, p));
  for (const p of outline(b, pb, k)) best = Math.min(best, distToShape(a, pa, p));
  return best;
}

/** Largest coordinate scale of the two shapes (for tolerances). */
export function scaleOf(...shapes: Shape2[]): number {
  let m = 0;
  for (const s of shapes) {
    for (let i = 0; i < 2 * s.core.count; i++) m = Math.max(m, Math.abs(s.core.verts[i]));
    m = Math.max(m, s.core.radius);
  }
  return m;
}

/** x · 2^1100 exactly, as a BigInt (every finite double is a multiple of 2^-1074): exact sums and products of doubles. */
export function big(x: number): bigint {
  if (x === 0) return 0n;
  let m = x;
  let e = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  return BigInt(m) << BigInt(1100 - e);
}

/** A BigInt of {@link big}'s scale (2^1100) back to a double (within an ulp; exact when it fits). */
export function unbig(b: bigint): number {
  const neg = b < 0n;
  let a = neg ? -b : b;
  let e = -1100;
  while (a >= 1n << 64n) {
    a >>= 1n;
    e++;
  }
  const v = Number(a) * 2 ** e;
  return neg ? -v : v;
}
