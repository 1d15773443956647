/**
 * Certified bounds for pairs of the fuzzer's shapes (test/fuzz/oracle-shapes.ts), independent of
 * the library:
 *
 * - separation along a unit direction d, sep(d) = min_B d·x − max_A d·x, from the support
 *   functions: any d gives a certified LOWER bound on the distance (Minkowski duality,
 *   van den Bergen 2003, §2.4); its maximum over d is the distance.
 * - a point a of A and its projection b onto B give a certified UPPER bound |a − b|; alternating
 *   projections from the library's own witness points (a hint only) tighten it.
 * - for overlapping shapes, f(d) = h_A(d) + h_B(−d) = −sep(d) is the overlap along d, and the
 *   penetration depth is min over unit d of f(d): every evaluated d gives a certified UPPER bound
 *   on the depth; the minimum is searched over face normals and edge crossings (exact for
 *   polytopes: SAT) and refined by a pattern search on the sphere (curved shapes).
 */

import { type Dy, dadd, dmul, dneg, dy } from "./exact.js";
import {
  add,
  cross,
  dist,
  dot,
  norm,
  type OShape,
  oshape,
  type Piece,
  scale,
  sub,
  unit,
  type V,
} from "./oracle-shapes.js";

/** sep(d) of two pieces along unit d (> 0: d separates them by that much). */
export function sepPieces(a: Piece, b: Piece, d: V): number {
  return dot(d, b.support(scale(d, -1))) - dot(d, a.support(d));
}

/** An orthonormal pair perpendicular to unit d. */
function tangents(d: V): [V, V] {
  const t = Math.abs(d[0]) < 0.6 ? [1, 0, 0] : Math.abs(d[1]) < 0.6 ? [0, 1, 0] : [0, 0, 1];
  const t1 = unit(cross(d, t as V));
  return [t1, cross(d, t1)];
}

/** Maximises g over unit directions from d0 by a pattern search; returns the best (d, g(d)). */
export function maximiseOnSphere(
  g: (d: V) => number,
  d0: V,
  step0 = 0.2,
  evals = 400,
): [V, number] {
  let d = unit(d0);
  let best = g(d);
  let step = step0;
  let n = 0;
  while (step > 1e-13 && n < evals) {
    const [t1, t2] = tangents(d);
    let moved = false;
    for (const [u, w] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
      [1, 1],
      [-1, -1],
      [1, -1],
      [-1, 1],
    ]) {
      const c = unit(add(d, add(scale(t1, u * step), scale(t2, w * step))));
      const v = g(c);
      n++;
      if (v > best) {
        best = v;
        d = c;
        moved = true;
        break;
      }
    }
    step = moved ? step * 1.5 : step * 0.5;
  }
  return [d, best];
}

/** The result of a pair oracle. */
export interface PairTruth {
  /** Certified lower bound on the distance (≤ 0 when nothing separates). */
  lower: number;
  /** Certified upper bound on the distance (a point pair on the shapes). */
  upper: number;
  /** The pair of points giving `upper`. */
  pA: V;
  pB: V;
  /** For overlapping convex pairs: the least overlap found (certified upper bound on depth). */
  depth: number;
  /** Its direction (from A toward B). */
  depthDir: V;
}

/** Alternating projections from a hint: a point a on A and b = proj_B(a). */
function alternate(a: Piece, b: Piece, start: V, iters: number): [V, V, number] {
  let pa = a.closest(start);
  let pb = b.closest(pa);
  let d = dist(pa, pb);
  for (let i = 0; i < iters && d > 0; i++) {
    const na = a.closest(pb);
    const nb = b.closest(na);
    const nd = dist(na, nb);
    if (!(nd < d)) break;
    const gain = d - nd;
    pa = na;
    pb = nb;
    d = nd;
    if (gain <= 1e-15 * d) break;
  }
  return [pa, pb, d];
}

/** Overlap f(d) = h_A(d) + h_B(−d) along unit d: the depth if A moved back along d. */
export function overlapPieces(a: Piece, b: Piece, d: V): number {
  return -sepPieces(a, b, d);
}

/**
 * The largest of g over the great circle of unit directions perpendicular to unit `e` (a
 * polytope edge's direction), started from d0 projected onto that circle, and that direction:
 * a coarse scan of 64 angles, then a ternary search about the best (g concave near its
 * maximum, the separation of two convex sets along d, van den Bergen 2003, §2.4). The pair's
 * separation has a ridge there (the edge's two corners tie along every such direction): a
 * feature of one shape against that edge, a cone's apex against a triangle's edge, takes its
 * best direction on the ridge, where {@link maximiseOnSphere}'s steps across the crease stall
 * (issue 16, seed 101: −1.9e-3 for a pair apart by 8e-10 at 1e5).
 */
function maximiseOnRidge(g: (d: V) => number, e0: V, d0: V): [V, number] {
  if (!(norm(e0) > 0)) return [unit(d0), g(unit(d0))];
  const e = unit(e0);
  let p = sub(d0, scale(e, dot(d0, e)));
  if (!(norm(p) > 1e-6)) p = tangents(e)[0];
  p = unit(p);
  const q = unit(cross(e, p));
  const at = (th: number): V => add(scale(p, Math.cos(th)), scale(q, Math.sin(th)));
  const n = 64;
  let bestTh = 0;
  let best = g(p);
  for (let i = 1; i < n; i++) {
    const th = (2 * Math.PI * i) / n;
    const v = g(at(th));
    if (v > best) {
      best = v;
      bestTh = th;
    }
  }
  let lo = bestTh - (2 * Math.PI) / n;
  let hi = bestTh + (2 * Math.PI) / n;
  for (let i = 0; i < 80 && hi - lo > 1e-15; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (g(at(m1)) < g(at(m2))) lo = m1;
    else hi = m2;
  }
  const d = at(0.5 * (lo + hi));
  const v = g(d);
  return v > best ? [d, v] : [at(bestTh), best];
}

/**
 * Distance bounds and depth of two convex pieces; `hints` are candidate points (any frame),
 * `ridges` polytope edge directions whose perpendicular circles the separation is maximised on
 * too ({@link maximiseOnRidge}) where the sphere's search leaves the bounds apart.
 */
export function pieceTruth(
  a: Piece,
  b: Piece,
  hints: V[],
  axes: V[],
  wantDepth: boolean,
  ridges: V[] = [],
): PairTruth {
  let pA: V = a.center;
  let pB: V = b.center;
  let upper = Infinity;
  for (const h of [...hints, a.center, b.center]) {
    const [x, y, d] = alternate(a, b, h, 200);
    if (d < upper) {
      upper = d;
      pA = x;
      pB = y;
    }
    if (upper === 0) break;
  }
  // Lower bound: separation along the closest points' direction, refined.
  let lower = -Infinity;
  let dir: V = unit(sub(pB, pA));
  if (norm(dir) === 0) dir = unit(sub(b.center, a.center));
  if (norm(dir) === 0) dir = [0, 1, 0];
  if (upper > 0) {
    lower = sepPieces(a, b, dir);
    if (lower < upper * (1 - 1e-12)) {
      const [, v] = maximiseOnSphere((d) => sepPieces(a, b, d), dir, 1e-3, 300);
      lower = Math.max(lower, v);
      for (const e of ridges) {
        if (!(lower < upper * (1 - 1e-6))) break;
        const [, r] = maximiseOnRidge((d) => sepPieces(a, b, d), e, dir);
        lower = Math.max(lower, r);
      }
    }
  }
  let depth = 0;
  let depthDir: V = dir;
  if (wantDepth && !(lower > 0)) {
    let best = Infinity;
    const cands: V[] = [...axes, dir, unit(sub(b.center, a.center))];
    for (const c of cands) {
      if (!(norm(c) > 0)) continue;
      for (const s of [1, -1]) {
        const u = scale(unit(c), s);
        const v = overlapPieces(a, b, u);
        if (v < best) {
          best = v;
          depthDir = u;
        }
      }
    }
    // Refine (curved shapes): minimise the overlap on the sphere from the best few starts.
    const [d1, v1] = maximiseOnSphere((d) => -overlapPieces(a, b, d), depthDir, 0.05, 600);
    if (-v1 < best) {
      best = -v1;
      depthDir = d1;
    }
    // The overlap's least direction may lie on an edge's ridge (a cone's apex against a
    // triangle's edge), where the sphere's search stalls: the depth is a least overlap, so any
    // direction's is an upper bound, and a missed ridge overstated it (seed 101: 0.082 for a
    // pair apart by 8e-10).
    for (const e of ridges) {
      const [dr, r] = maximiseOnRidge((d) => -overlapPieces(a, b, d), e, depthDir);
      if (-r < best) {
        best = -r;
        depthDir = dr;
      }
    }
    depth = best;
  }
  return { lower, upper, pA, pB, depth, depthDir };
}

/** Directions worth testing for a piece pair's depth: polytope face normals and edge crossings. */
export function candidateAxes(A: OShape, B: OShape): V[] {
  const out: V[] = [...A.normals, ...B.normals];
  for (const x of A.edges)
    for (const y of B.edges) {
      const c = cross(x, y);
      if (norm(c) > 1e-9) out.push(unit(c));
    }
  for (const axis of [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ] as V[]) {
    out.push(axis);
  }
  // A deterministic spread of directions for curved shapes.
  const golden = Math.PI * (3 - Math.sqrt(5));
  const n = 24;
  for (let i = 0; i < n; i++) {
    const y = 1 - (2 * (i + 0.5)) / n;
    const r = Math.sqrt(1 - y * y);
    out.push([Math.cos(golden * i) * r, y, Math.sin(golden * i) * r]);
  }
  return out;
}

/** Signed distance of a point to a shape (solid pieces; a half-space exact). */
export function shapeSigned(s: OShape, p: V): number {
  if (s.halfspace) return dot(s.halfspace.n, p) - s.halfspace.o;
  let m = Infinity;
  for (const q of s.pieces) m = Math.min(m, q.signed(p));
  return m;
}

/** Distance of a point to a shape's surface (|signed| for solids, distance for surfaces). */
export function surfaceDistance(s: OShape, p: V): number {
  if (s.halfspace) return Math.abs(dot(s.halfspace.n, p) - s.halfspace.o);
  let m = Infinity;
  let inside = false;
  for (const q of s.pieces) {
    const v = q.signed(p);
    if (v < 0) inside = true;
    m = Math.min(m, Math.abs(v));
  }
  // Inside one piece of a union: the point may still be on another piece's boundary that is
  // interior to the union; accept the nearest piece boundary (a bound, not the exact value).
  return inside ? m : m;
}

/** The closest point of a shape to p, and its distance (0 inside a solid piece). */
export function shapeClosest(s: OShape, p: V): [V, number] {
  if (s.halfspace) {
    const v = dot(s.halfspace.n, p) - s.halfspace.o;
    return v <= 0 ? [p, 0] : [sub(p, scale(s.halfspace.n, v)), v];
  }
  let best: V = p;
  let bd = Infinity;
  for (const q of s.pieces) {
    const c = q.closest(p);
    const d = dist(c, p);
    if (d < bd) {
      bd = d;
      best = c;
    }
  }
  return [best, bd];
}

/** A truth for a whole pair (union of pieces; half-spaces in closed form). */
export interface ShapePairTruth extends PairTruth {
  /** Depth is meaningful (both convex, or a half-space with a convex). */
  depthKnown: boolean;
}

/** The double nearest a dyadic (to about 2^-60 relative: the mantissa cut to 64 bits first). */
function dyToNumber(d: Dy): number {
  let m = d.m;
  let e = d.e;
  const bits = (m < 0n ? -m : m).toString(2).length;
  if (bits > 64) {
    m >>= BigInt(bits - 64);
    e += bits - 64;
  }
  const h = Math.trunc(e / 2);
  return Number(m) * 2 ** h * 2 ** (e - h);
}

/**
 * The gap of convex shape `c` above half-space `hs` (min over c of n̂·x − o/|n|, negative when
 * they overlap) and the point of c where it is taken. The shape's placement T (its centre or
 * position, an aabb's min, a capsule's or triangle's first point) is split off: n·T − o is summed
 * exactly in dyadics (test/fuzz/exact.ts) and rounded once, the rest taken on the shape moved by
 * −T, where the magnitudes are the shape's size. In world coordinates the support point rounds at
 * the offset's ulp: a convex of 1e-4 at 15 overlapping a plane by 4.4e-16 was "apart by 4.4e-16".
 */
export function halfspaceGap(
  c: OShape,
  hs: OShape,
  motion: { w: V; t: number } | null = null,
): { gap: number; arg: V } {
  const hj = hs.json as { normal: number[]; offset: number };
  const j = c.json as Record<string, unknown>;
  const key = ["center", "position", "min", "a"].find((k) => Array.isArray(j[k]));
  const T: V = key ? ([...(j[key] as number[])] as V) : [0, 0, 0];
  const moved: Record<string, unknown> = { ...j };
  for (const k of ["center", "min", "max", "a", "b", "c", "position"]) {
    if (Array.isArray(moved[k])) moved[k] = (moved[k] as number[]).map((x, i) => x - T[i]);
  }
  let e: Dy = dneg(dy(hj.offset));
  for (let i = 0; i < 3; i++) e = dadd(e, dmul(dy(hj.normal[i]), dy(T[i])));
  // The shape moved by w·t (a cast's motion), the products exact too.
  if (motion) {
    const tt = dy(motion.t);
    for (let i = 0; i < 3; i++) e = dadd(e, dmul(dy(hj.normal[i]), dmul(dy(motion.w[i]), tt)));
  }
  const l = Math.hypot(hj.normal[0], hj.normal[1], hj.normal[2]);
  const n = scale(hj.normal as V, 1 / l);
  let minN = Infinity;
  let arg: V = [0, 0, 0];
  for (const p of oshape(moved).pieces) {
    const s = p.support(scale(n, -1));
    const v = dot(n, s);
    if (v < minN) {
      minN = v;
      arg = s;
    }
  }
  const at = motion ? add(T, scale(motion.w, motion.t)) : T;
  return { gap: dyToNumber(e) / l + minN, arg: add(arg, at) };
}

/**
 * The truth of convex shape `c` and half-space `hs` (`cIsA`: c is the pair's A), c moved by
 * `motion` (w·t, exactly) when given.
 */
export function halfspaceTruth(
  c: OShape,
  hs: OShape,
  cIsA: boolean,
  motion: { w: V; t: number } | null = null,
): ShapePairTruth {
  // Gap from the convex shape down to the plane: min over c of n·x − o.
  const h = hs.halfspace as { n: V; o: number };
  const { gap, arg } = halfspaceGap(c, hs, motion);
  const onPlane = sub(arg, scale(h.n, gap));
  const normalFromC = scale(h.n, -1);
  return {
    lower: gap,
    upper: Math.max(gap, 0),
    pA: cIsA ? arg : onPlane,
    pB: cIsA ? onPlane : arg,
    depth: Math.max(0, -gap),
    depthDir: cIsA ? normalFromC : h.n,
    depthKnown: c.convex,
  };
}

/**
 * Distance bounds (and depth when defined) of two shapes; `skip` holds piece pairs ("i,j": A's
 * piece i, B's piece j) left out (a cast's pieces proved to have separated for good).
 */
export function pairTruth(
  A: OShape,
  B: OShape,
  hints: V[],
  wantDepth: boolean,
  skip?: ReadonlySet<string>,
): ShapePairTruth {
  if (A.halfspace && B.halfspace) {
    return {
      lower: -Infinity,
      upper: Infinity,
      pA: [0, 0, 0],
      pB: [0, 0, 0],
      depth: 0,
      depthDir: [0, 1, 0],
      depthKnown: false,
    };
  }
  if (B.halfspace) return halfspaceTruth(A, B, true);
  if (A.halfspace) return halfspaceTruth(B, A, false);
  const axes = wantDepth && A.convex && B.convex ? candidateAxes(A, B) : [];
  // Edge ridges of a convex polytope with few edge directions (a triangle, a box) against
  // another convex shape (pieceTruth, maximiseOnRidge).
  const ridges =
    A.convex && B.convex && A.edges.length + B.edges.length <= 12 ? [...A.edges, ...B.edges] : [];
  let best: ShapePairTruth | null = null;
  let lowerAll = Infinity;
  let maxDepth = -Infinity;
  let depthDir: V = [0, 1, 0];
  for (let i = 0; i < A.pieces.length; i++) {
    const pa = A.pieces[i];
    for (let j = 0; j < B.pieces.length; j++) {
      const pb = B.pieces[j];
      if (skip?.has(`${i},${j}`)) continue;
      // Far piece pairs cannot hold the minimum: skip those whose bounding spheres are
      // farther apart than the best upper bound so far.
      const gapLow = dist(pa.center, pb.center) - pa.radius - pb.radius;
      if (best && gapLow > best.upper) {
        lowerAll = Math.min(lowerAll, gapLow);
        continue;
      }
      const t = pieceTruth(pa, pb, hints, axes, wantDepth && A.convex && B.convex, ridges);
      lowerAll = Math.min(lowerAll, t.lower);
      if (!best || t.upper < best.upper) best = { ...t, depthKnown: false };
      if (t.depth > maxDepth) {
        maxDepth = t.depth;
        depthDir = t.depthDir;
      }
    }
  }
  if (!best) {
    return {
      lower: Infinity,
      upper: Infinity,
      pA: A.center,
      pB: B.center,
      depth: 0,
      depthDir: [0, 1, 0],
      depthKnown: false,
    };
  }
  const out = best as ShapePairTruth;
  out.lower = lowerAll;
  out.depthKnown = A.convex && B.convex;
  out.depth = Math.max(0, maxDepth);
  out.depthDir = depthDir;
  return out;
}

/**
 * How a pair that nearly touches (gap within `near`) moves under B's relative motion w: for each
 * piece pair within `near`, the directions d (from A toward B) that separate it up to `near`
 * (sep(d) ≥ −near, certified from the support functions) among well-conditioned candidates —
 * polytope face normals and edge crossings, the direction from a piece's centre to its nearest
 * point of the other piece, the witness direction only when the witnesses are far apart for
 * their coordinates (`noise`) — and the pair's closing speed, −max w·d over them (< 0: it
 * opens along a plane that separates it). Returns the largest closing speed over the near piece
 * pairs (the first to meet) and the piece pairs that clearly open ("i,j": w·d ≥ 1e-3·|w|; a
 * slower opening is a graze, which may get either answer). A direction from two
 * witnesses at the rounding level of far coordinates is noise (issue 16, seed 28: 1e-12 apart
 * at 1e4, it pointed against the face's normal and called a separating start late by 5,460).
 */
export function nearClosing(
  A: OShape,
  B: OShape,
  T: PairTruth,
  w: V,
  near: number,
  noise: number,
): { mu: number; opening: Set<string> } {
  const opening = new Set<string>();
  const gapDir = sub(T.pB, T.pA);
  const common: V[] = [];
  if (norm(gapDir) > noise) common.push(unit(gapDir));
  const hs = A.halfspace ?? B.halfspace;
  if (hs) {
    // The plane's normal, from A toward B.
    const d = A.halfspace ? hs.n : scale(hs.n, -1);
    return { mu: -dot(w, d), opening };
  }
  const axes = [...common, ...candidateAxes(A, B)];
  let mu = -Infinity;
  for (let i = 0; i < A.pieces.length; i++) {
    const pa = A.pieces[i];
    for (let j = 0; j < B.pieces.length; j++) {
      const pb = B.pieces[j];
      if (dist(pa.center, pb.center) - pa.radius - pb.radius > near) continue;
      const cands: V[] = [...axes];
      const ca = pb.closest(pa.center);
      if (dist(ca, pa.center) > noise) cands.push(unit(sub(ca, pa.center)));
      const cb = pa.closest(pb.center);
      if (dist(cb, pb.center) > noise) cands.push(unit(sub(pb.center, cb)));
      // Each piece's outward normal near the witnesses, from a point pushed well outside along
      // their direction: q − closest(q) is a normal of the piece at closest(q) exactly (its
      // supporting plane there), rounded as a push of 1e-3 of the piece's size, not as a gap at
      // the rounding level (issue 16, seed 34: a triangle's corner 2e-9 from a cone's base rim,
      // 1.5e8 from the origin, closing at 522 along the rim's normal; the candidates held none
      // that separated and closed slower than 1,688, and a right toi was called late).
      const g = norm(gapDir);
      if (g > 0) {
        const u = scale(gapDir, 1 / g);
        const qa = add(T.pA, scale(u, 1e-3 * pa.radius));
        const na = sub(qa, pa.closest(qa));
        if (norm(na) > 0) cands.push(unit(na));
        const qb = sub(T.pB, scale(u, 1e-3 * pb.radius));
        const nb = sub(pb.closest(qb), qb);
        if (norm(nb) > 0) cands.push(unit(nb));
      }
      let best = -Infinity;
      let near2 = false;
      for (const c of cands) {
        for (const sg of [1, -1]) {
          const d = scale(c, sg);
          const sp = sepPieces(pa, pb, d);
          if (sp > near) {
            // This piece pair is apart by more than `near`: not a near pair.
            best = Infinity;
            break;
          }
          if (sp >= -near) {
            near2 = true;
            best = Math.max(best, dot(w, d));
          }
        }
        if (best === Infinity) break;
      }
      if (best === Infinity || !near2) continue;
      // Clearly opening (not a graze): the rounding-level window it may still touch in is
      // then a displacement of at most 1e3 times `near`.
      if (best >= 1e-3 * norm(w)) opening.add(`${i},${j}`);
      mu = Math.max(mu, -best);
    }
  }
  if (mu === -Infinity) mu = common.length ? -dot(w, common[0]) : 0;
  return { mu, opening };
}

export { add, dist, dot, norm, scale, sub, unit };

/**
 * A certificate of intersection for two convex pieces: the largest δ found such that a point lies
 * δ inside both (for a flat piece, a triangle, whose signed distance is never negative: a point
 * on it, its own projection, δ inside the other). Pattern search in space on the concave
 * function p ↦ min(−signed_A(p), −signed_B(p)) from the given starts; every evaluated point is
 * a certificate (up to the rounding of the signed distances), so the result is a LOWER bound on
 * the depth of the common interior — unlike the least overlap over directions, which is an
 * upper bound on the penetration depth and proves nothing about intersection.
 */
export function commonInteriorDepth(a: Piece, b: Piece, starts: V[], scaleHint: number): number {
  const flatA = !(a.signed(a.center) < 0);
  const flatB = !(b.signed(b.center) < 0);
  if (flatA && flatB) return Number.NEGATIVE_INFINITY;
  const score = (p0: V): number => {
    const p = flatA ? a.closest(p0) : flatB ? b.closest(p0) : p0;
    const ia = flatA ? Infinity : -a.signed(p);
    const ib = flatB ? Infinity : -b.signed(p);
    return Math.min(ia, ib);
  };
  let best = Number.NEGATIVE_INFINITY;
  let p: V = starts[0] ?? a.center;
  for (const s of starts) {
    const v = score(s);
    if (v > best) {
      best = v;
      p = s;
    }
  }
  const dirs: V[] = [];
  for (const x of [-1, 0, 1])
    for (const y of [-1, 0, 1])
      for (const z of [-1, 0, 1]) if (x || y || z) dirs.push(unit([x, y, z]));
  let step = Math.max(scaleHint, Math.abs(best)) * 0.5;
  const minStep = step * 2 ** -40;
  for (let n = 0; n < 1500 && step > minStep; ) {
    let moved = false;
    for (const d of dirs) {
      const c = add(p, scale(d, step));
      const v = score(c);
      n++;
      if (v > best) {
        best = v;
        p = c;
        moved = true;
      }
    }
    step = moved ? step * 1.5 : step * 0.5;
  }
  return best;
}
