/**
 * The least overlap f(n) = h_A(n) + h_B(−n) over unit directions n of two convex shapes given as
 * `collide query` JSON (docs/FORMATS.md), written without the library, for a cylinder or a cone
 * against small or large rounded boxes, rounded hulls, hulls, boxes, spheres and capsules (issue 16,
 * session 23). −min f is the signed distance (the gap when positive, minus the depth when the
 * shapes overlap: the distance from the origin to the boundary of A − B).
 *
 * f is not smooth where a support point jumps: on a cone along the circle of normals to its
 * slant (apex against rim), on a cylinder along the equator (top rim against bottom rim), on a
 * box along the great circles of its faces. A search on the sphere stalls in such a valley,
 * whose walls rise at the shapes' size while its floor slopes at the contact's, so the minimum
 * here is the least of
 *
 * - a shrinking grid search on the tangent plane from the best of a Fibonacci lattice and of the
 *   caller's hints (e.g. a library's normal: every value is f at an actual direction, so the
 *   result is an upper bound of the depth whatever the search finds);
 * - a one-dimensional search along each valley of the solid of revolution, parametrised exactly
 *   (the slant's normals (2h cos φ, r, 2h sin φ)/√(4h² + r²), the equator), then the grid search
 *   from its best.
 *
 * Support values are taken about a centre `o` (B's centre), differences only, so offsets of the
 * pair from the origin do not enter the rounding.
 */
import {
  add,
  dot,
  norm,
  rotate,
  scale,
  sub,
  unit,
  unrotate,
  type V,
} from "../fuzz/oracle-shapes.js";

/** A query-JSON shape. */
export type J = Record<string, unknown>;

const v3 = (x: unknown): V => (x as V) ?? [0, 0, 0];

/** max over the shape's points p of (p − o)·d (d unit), and the point attaining it. */
export function supportOf(s: J, d: V, o: V): { value: number; point: V } {
  const q = s.rotation as number[] | undefined;
  const dl = unrotate(q, d);
  const t = s.type as string;
  let local: V;
  let margin = 0;
  if (t === "cone" || t === "cylinder") {
    const h = s.halfHeight as number;
    const r = s.radius as number;
    const rho = Math.hypot(dl[0], dl[2]);
    const rim: V = rho > 0 ? [(dl[0] / rho) * r, -h, (dl[2] / rho) * r] : [0, -h, 0];
    if (t === "cone") local = h * dl[1] >= -h * dl[1] + r * rho ? [0, h, 0] : rim;
    else local = [rim[0], dl[1] >= 0 ? h : -h, rim[2]];
  } else if (t === "box" || t === "roundedBox") {
    const he = s.halfExtents as V;
    local = [0, 1, 2].map((i) => (dl[i] >= 0 ? he[i] : -he[i])) as V;
    margin = t === "roundedBox" ? (s.radius as number) : 0;
  } else if (t === "sphere") {
    local = [0, 0, 0];
    margin = s.radius as number;
  } else if (t === "capsule") {
    // The end point farther along d, about o (differences only: the offset cancels).
    const ea = sub(s.a as V, o);
    const eb = sub(s.b as V, o);
    const end = dot(ea, d) >= dot(eb, d) ? ea : eb;
    const r = s.radius as number;
    return { value: dot(end, d) + r, point: add(add(end, o), scale(d, r)) };
  } else if (t === "convex" || t === "roundedConvex") {
    let best = Number.NEGATIVE_INFINITY;
    local = [0, 0, 0];
    for (const p of s.points as V[]) {
      const x = dot(p, dl);
      if (x > best) {
        best = x;
        local = p;
      }
    }
    margin = t === "roundedConvex" ? (s.radius as number) : 0;
  } else throw new Error(`ridge-overlap oracle: no shape ${t}`);
  const c = v3(t === "convex" || t === "roundedConvex" ? s.position : s.center);
  // (c − o) first: the pair's offset from the origin cancels exactly where it is shared.
  const rel = add(sub(c, o), rotate(q, local));
  return { value: dot(rel, d) + margin, point: add(add(rel, o), scale(d, margin)) };
}

/** f(n) = h_A(n) + h_B(−n) about o, n normalised first. */
export function overlapAlong(a: J, b: J, n: V, o: V): number {
  const u = unit(n);
  return supportOf(a, u, o).value + supportOf(b, scale(u, -1), o).value;
}

/** Unit vectors t1, t2 orthogonal to unit n. */
function tangents(n: V): [V, V] {
  const e: V = Math.abs(n[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0];
  const t1 = unit(sub(e, scale(n, dot(e, n))));
  const t2: V = [
    n[1] * t1[2] - n[2] * t1[1],
    n[2] * t1[0] - n[0] * t1[2],
    n[0] * t1[1] - n[1] * t1[0],
  ];
  return [t1, t2];
}

/** Shrinking grid search of f from n: returns the best direction and value. */
function gridSearch(f: (n: V) => number, n0: V): { n: V; value: number } {
  let n = unit(n0);
  let best = f(n);
  let w = 0.05;
  const K = 4;
  for (let iter = 0; iter < 400 && w > 1e-17; iter++) {
    const [t1, t2] = tangents(n);
    let improved: V | null = null;
    for (let i = -K; i <= K; i++) {
      for (let j = -K; j <= K; j++) {
        if (i === 0 && j === 0) continue;
        const c = unit(add(n, add(scale(t1, (w * i) / K), scale(t2, (w * j) / K))));
        const v = f(c);
        if (v < best) {
          best = v;
          improved = c;
        }
      }
    }
    if (improved) n = improved;
    else w *= 0.3;
  }
  return { n, value: best };
}

/** Shrinking 1-D search of g over φ from φ0 (step w0). */
function lineSearch(g: (phi: number) => number, phi0: number, w0: number): number {
  let phi = phi0;
  let best = g(phi);
  let w = w0;
  for (let iter = 0; iter < 400 && w > 1e-18; iter++) {
    let moved = false;
    for (let i = -8; i <= 8; i++) {
      if (i === 0) continue;
      const v = g(phi + (w * i) / 8);
      if (v < best) {
        best = v;
        phi += (w * i) / 8;
        moved = true;
        break;
      }
    }
    if (!moved) w *= 0.3;
  }
  return phi;
}

/** The valleys (kink circles) of a cylinder's or cone's support, world directions of φ. */
function valleys(s: J): ((phi: number) => V)[] {
  const q = s.rotation as number[] | undefined;
  if (s.type === "cone") {
    const h = s.halfHeight as number;
    const r = s.radius as number;
    const l = Math.hypot(2 * h, r);
    return [(phi) => rotate(q, [(2 * h * Math.cos(phi)) / l, r / l, (2 * h * Math.sin(phi)) / l])];
  }
  if (s.type === "cylinder") return [(phi) => rotate(q, [Math.cos(phi), 0, Math.sin(phi)])];
  return [];
}

/** The least overlap of A and B: its value (−signed distance) and the direction attaining it. */
export function leastOverlap(a: J, b: J, hints: V[] = []): { value: number; n: V } {
  const o = v3(b.type === "convex" || b.type === "roundedConvex" ? b.position : b.center);
  const f = (n: V) => overlapAlong(a, b, n, o);
  const starts: { n: V; value: number }[] = [];
  const N = 600;
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < N; i++) {
    const y = 1 - (2 * (i + 0.5)) / N;
    const rr = Math.sqrt(1 - y * y);
    const n: V = [Math.cos(golden * i) * rr, y, Math.sin(golden * i) * rr];
    starts.push({ n, value: f(n) });
  }
  for (const h of hints) if (norm(h) > 0) starts.push({ n: unit(h), value: f(unit(h)) });
  const ca = v3(a.type === "convex" || a.type === "roundedConvex" ? a.position : a.center);
  if (norm(sub(o, ca)) > 0) starts.push({ n: unit(sub(o, ca)), value: f(unit(sub(o, ca))) });
  // Along each valley of either shape (B's taken with −n).
  for (const [s, sign] of [
    [a, 1],
    [b, -1],
  ] as [J, number][]) {
    for (const valley of valleys(s)) {
      const g = (phi: number) => f(scale(valley(phi), sign));
      const M = 720;
      const samples: { phi: number; value: number }[] = [];
      for (let i = 0; i < M; i++)
        samples.push({ phi: (2 * Math.PI * i) / M, value: g((2 * Math.PI * i) / M) });
      // Hints projected onto the valley: the φ of the nearest valley direction.
      for (const h of hints) {
        let bestPhi = 0;
        let bestDot = Number.NEGATIVE_INFINITY;
        for (const smp of samples) {
          const d = dot(scale(valley(smp.phi), sign), unit(h));
          if (d > bestDot) {
            bestDot = d;
            bestPhi = smp.phi;
          }
        }
        samples.push({ phi: bestPhi, value: g(bestPhi) });
      }
      samples.sort((x, y) => x.value - y.value);
      for (const smp of samples.slice(0, 3)) {
        const phi = lineSearch(g, smp.phi, (2 * Math.PI) / M);
        const n = scale(valley(phi), sign);
        starts.push({ n, value: g(phi) });
      }
    }
  }
  starts.sort((x, y) => x.value - y.value);
  let best = starts[0];
  for (const s of starts.slice(0, 8)) {
    const r = gridSearch(f, s.n);
    if (r.value < best.value) best = r;
  }
  return { value: best.value, n: best.n };
}
