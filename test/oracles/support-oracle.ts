/**
 * Slow, obviously correct twins for convex pair tests: support functions by brute force over
 * vertices, and penetration / separation by scanning many directions of the Minkowski
 * difference's support function h_{A−B}(d) = h_A(d) + h_B(−d).
 */

import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";

/** The 8 world-frame corners of a box with half extents h at pose p. */
export function boxCorners(h: Vec3, p: Isometry): Vec3[] {
  const out: Vec3[] = [];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1]) {
        out.push(iso.transformPoint(vec3.create(), p, vec3.create(sx * h.x, sy * h.y, sz * h.z)));
      }
  return out;
}

/** max over points of p·d. */
export function supportValue(points: Vec3[], d: Vec3): number {
  let m = -Infinity;
  for (const p of points) m = Math.max(m, vec3.dot(p, d));
  return m;
}

/**
 * Penetration of two point sets' projections on unit axis d: how far one must move along ±d to
 * separate them, min(maxA − minB, maxB − minA): > 0 overlapping, < 0 separated (the gap).
 */
export function projectionOverlap(a: Vec3[], b: Vec3[], d: Vec3): number {
  const minus = vec3.negate(vec3.create(), d);
  // [−h_A(−d), h_A(d)] vs [−h_B(−d), h_B(d)]
  const aMax = supportValue(a, d);
  const aMin = -supportValue(a, minus);
  const bMax = supportValue(b, d);
  const bMin = -supportValue(b, minus);
  return Math.min(aMax - bMin, bMax - aMin);
}

/** n unit directions spread over the sphere (a Fibonacci lattice) plus the 6 axis directions. */
export function sphereDirections(n: number): Vec3[] {
  const out: Vec3[] = [
    vec3.create(1, 0, 0),
    vec3.create(-1, 0, 0),
    vec3.create(0, 1, 0),
    vec3.create(0, -1, 0),
    vec3.create(0, 0, 1),
    vec3.create(0, 0, -1),
  ];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const y = 1 - (2 * (i + 0.5)) / n;
    const r = Math.sqrt(1 - y * y);
    const t = golden * i;
    out.push(vec3.create(Math.cos(t) * r, y, Math.sin(t) * r));
  }
  return out;
}
