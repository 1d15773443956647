/**
 * The exact gap of two polytopes from their supporting features (issue 16: a hull of 0.1 beside
 * a hull of 1e5 at 1e8, GJK's gap 3.7e-5 relative off, below a certified lower bound).
 *
 * GJK's closest point is the projection of the origin onto a simplex of the Minkowski difference
 * A − B, whose points are differences of support points at the larger shape's magnitude: where
 * an edge of a small shape crosses an edge of a large one the simplex is a sliver (the small
 * edge's length by the large one's), and its projection, and the direction GJK then searches,
 * lose the ratio of the two to rounding. Here the same search runs on the features themselves:
 * the support points of each side (at most four distinct) span a feature of that side, the
 * closest points of the two hulls are found among each corner against each triangle, edge or
 * point of the other side and each pair of edges crossing (Ericson 2005, §5.1), computed from the
 * features' own edge vectors — a corner against a face is its projection along the face normal,
 * two edges meet on their common perpendicular n = d1 × d2 — so the rounding is that of the
 * coordinates, not of the simplex's shape. Each side is then reduced to the corners its closest
 * point needs, and the support points along the new direction added, until the separation along
 * it (a certified lower bound of the gap) meets the features' distance (an upper bound: points of
 * the shapes) within the caller's tolerance.
 *
 * Allocation-free (module scratch), bounded: FEATURE_MAX_ITERATIONS rounds of at most 32
 * corner–triangle and 36 edge–edge candidates.
 */
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { GjkSimplex } from "./gjk.js";
import type { SupportMap } from "./support.js";

/** Rounds of the feature search (each: candidates, reduction, one support pair). */
const FEATURE_MAX_ITERATIONS = 16;

const featA: Vec3[] = [vec3.create(), vec3.create(), vec3.create(), vec3.create()];
const featB: Vec3[] = [vec3.create(), vec3.create(), vec3.create(), vec3.create()];
const keep: Vec3[] = [vec3.create(), vec3.create(), vec3.create(), vec3.create()];
/**
 * [0] nA, [1] nB: the corners held per side; [2], [3] the best pair's corner masks on A and B;
 * [4] the mask of the last closest point; [5] 1 when the last closest point is a face's
 * projection or an edge crossing (its normal in `nrm`); [6] the same for the best pair (in bestN).
 */
const countIo = new Int32Array(7);
/**
 * [0] the best candidate's squared distance; [1] the best's among the candidates with a normal of
 * their own (a face's projection, an edge crossing: tieA, tieB, tieN).
 */
const bestIo = new Float64Array(2);
const q = vec3.create();
const e0 = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const nrm = vec3.create();
const rel = vec3.create();
const qa = vec3.create();
const qb = vec3.create();
const bestA = vec3.create();
const bestB = vec3.create();
const bestN = vec3.create();
const dir = vec3.create();
const negDir = vec3.create();
const supA = vec3.create();
const supB = vec3.create();
const tieA = vec3.create();
const tieB = vec3.create();
const tieN = vec3.create();
const tieDir = vec3.create();
const tieNeg = vec3.create();
const tieSupA = vec3.create();
const tieSupB = vec3.create();

/** Appends p to side f (count at countIo[side]) unless present; false when present. */
function addCorner(f: Vec3[], side: number, p: Vec3): boolean {
  const n = countIo[side];
  for (let j = 0; j < n; j++) if (vec3.exactEquals(f[j], p)) return false;
  if (n === 4) return false;
  vec3.copy(f[n], p);
  countIo[side] = n + 1;
  return true;
}

/** q = the point of segment [f[i], f[j]] closest to p; countIo[4] = the corners it needs. */
function closestOnSegment(p: Vec3, f: Vec3[], i: number, j: number): void {
  const a = f[i];
  const b = f[j];
  vec3.sub(e0, b, a);
  vec3.sub(rel, p, a);
  const ee = vec3.dot(e0, e0);
  const t = ee > 0 ? vec3.dot(rel, e0) / ee : 0;
  if (!(t > 0)) {
    vec3.copy(q, a);
    countIo[4] = 1 << i;
  } else if (t >= 1) {
    vec3.copy(q, b);
    countIo[4] = 1 << j;
  } else {
    vec3.addScaled(q, a, e0, t);
    countIo[4] = (1 << i) | (1 << j);
  }
}

/**
 * q = the point of triangle f[i] f[j] f[k] closest to p: p's projection along the face normal
 * where it falls inside (the edges' orientations about that normal, the face's own vectors),
 * else the nearest point of its edges; a degenerate triangle is its edges. countIo[4] = the
 * corners it needs.
 */
function closestOnTriangle(p: Vec3, f: Vec3[], i: number, j: number, k: number): void {
  const a = f[i];
  const b = f[j];
  const c = f[k];
  vec3.sub(e1, b, a);
  vec3.sub(e2, c, a);
  vec3.cross(nrm, e1, e2);
  const nn = vec3.dot(nrm, nrm);
  if (nn > 0 && nn < Number.POSITIVE_INFINITY) {
    vec3.sub(rel, p, a);
    vec3.cross(e0, e1, rel);
    const sc = vec3.dot(e0, nrm);
    vec3.cross(e0, rel, e2);
    const sb = vec3.dot(e0, nrm);
    vec3.sub(rel, p, b);
    vec3.sub(e0, c, b);
    vec3.cross(e0, e0, rel);
    const sa = vec3.dot(e0, nrm);
    if (sa >= 0 && sb >= 0 && sc >= 0) {
      vec3.sub(rel, p, a);
      vec3.addScaled(q, p, nrm, -vec3.dot(rel, nrm) / nn);
      countIo[4] = (1 << i) | (1 << j) | (1 << k);
      countIo[5] = 1;
      return;
    }
  }
  countIo[5] = 0;
  closestOnSegment(p, f, i, j);
  let best = vec3.distanceSq(p, q);
  let mask = countIo[4];
  vec3.copy(qa, q);
  closestOnSegment(p, f, j, k);
  let d = vec3.distanceSq(p, q);
  if (d < best) {
    best = d;
    mask = countIo[4];
    vec3.copy(qa, q);
  }
  closestOnSegment(p, f, k, i);
  d = vec3.distanceSq(p, q);
  if (d < best) {
    mask = countIo[4];
    vec3.copy(qa, q);
  }
  vec3.copy(q, qa);
  countIo[4] = mask;
}

/**
 * Keeps (pa, pb) with their corner masks when closer than the best so far; a pair with a normal of
 * its own also as tieA, tieB, tieN when closer than the best such pair.
 */
function offer(pa: Vec3, pb: Vec3, maskA: number, maskB: number): void {
  const d = vec3.distanceSq(pa, pb);
  if (countIo[5] !== 0 && d < bestIo[1]) {
    bestIo[1] = d;
    vec3.copy(tieA, pa);
    vec3.copy(tieB, pb);
    vec3.copy(tieN, nrm);
  }
  if (d < bestIo[0]) {
    bestIo[0] = d;
    vec3.copy(bestA, pa);
    vec3.copy(bestB, pb);
    countIo[2] = maskA;
    countIo[3] = maskB;
    countIo[6] = countIo[5];
    if (countIo[5] !== 0) vec3.copy(bestN, nrm);
  }
}

/** Every corner of side `from` (points f, count n) against each feature of the other side. */
function cornersAgainst(f: Vec3[], n: number, g: Vec3[], m: number, aSide: boolean): void {
  for (let i = 0; i < n; i++) {
    const p = f[i];
    countIo[5] = 0;
    if (m === 1) {
      vec3.copy(q, g[0]);
      countIo[4] = 1;
      if (aSide) offer(p, q, 1 << i, 1);
      else offer(q, p, 1, 1 << i);
      continue;
    }
    if (m === 2) {
      closestOnSegment(p, g, 0, 1);
      if (aSide) offer(p, q, 1 << i, countIo[4]);
      else offer(q, p, countIo[4], 1 << i);
      continue;
    }
    for (let j = 0; j < m; j++) {
      for (let k = j + 1; k < m; k++) {
        for (let l = k + 1; l < m; l++) {
          closestOnTriangle(p, g, j, k, l);
          if (aSide) offer(p, q, 1 << i, countIo[4]);
          else offer(q, p, countIo[4], 1 << i);
        }
      }
    }
  }
}

/**
 * The crossing of edges [featA[i], featA[j]] and [featB[k], featB[l]] along their common
 * perpendicular, offered when both parameters fall inside (an end is a corner's candidate).
 */
function edgeEdge(i: number, j: number, k: number, l: number): void {
  const p1 = featA[i];
  const p2 = featB[k];
  vec3.sub(e1, featA[j], p1);
  vec3.sub(e2, featB[l], p2);
  vec3.cross(nrm, e1, e2);
  const nn = vec3.dot(nrm, nrm);
  if (!(nn > 0 && nn < Number.POSITIVE_INFINITY)) return;
  vec3.sub(rel, p2, p1);
  vec3.cross(e0, rel, e2);
  const s = vec3.dot(e0, nrm) / nn;
  vec3.cross(e0, rel, e1);
  const t = vec3.dot(e0, nrm) / nn;
  if (!(s > 0 && s < 1 && t > 0 && t < 1)) return;
  vec3.addScaled(qa, p1, e1, s);
  vec3.addScaled(qb, p2, e2, t);
  countIo[5] = 1;
  offer(qa, qb, (1 << i) | (1 << j), (1 << k) | (1 << l));
}

/** The closest pair of the held features into bestA, bestB, bestIo[0] and the masks. */
function closestFeatures(): void {
  const na = countIo[0];
  const nb = countIo[1];
  bestIo[0] = Number.POSITIVE_INFINITY;
  bestIo[1] = Number.POSITIVE_INFINITY;
  cornersAgainst(featA, na, featB, nb, true);
  cornersAgainst(featB, nb, featA, na, false);
  for (let i = 0; i < na; i++)
    for (let j = i + 1; j < na; j++)
      for (let k = 0; k < nb; k++) for (let l = k + 1; l < nb; l++) edgeEdge(i, j, k, l);
}

/** Keeps the corners of side f (count at countIo[side]) in `mask`, in order. */
function reduce(f: Vec3[], side: number, mask: number): void {
  const n = countIo[side];
  let m = 0;
  for (let i = 0; i < n; i++) if (mask & (1 << i)) vec3.copy(keep[m++], f[i]);
  for (let i = 0; i < m; i++) vec3.copy(f[i], keep[i]);
  countIo[side] = m;
}

/**
 * [0] in: the tolerance on (distance − separation) at which the search stops, scene units; out:
 * the distance found (Infinity when none was certified). [1] out: the separation along the
 * found direction (a certified lower bound of the gap).
 */
export const simplexFeatureIo = new Float64Array(2);

/**
 * The closest points of polytopes a and b (support maps in one frame, GJK's final `s` their
 * starting features) into outA, outB, the unit direction from A to B in outN (the features'
 * normal where they have one), with their distance in simplexFeatureIo[0], once the
 * separation along their direction is within simplexFeatureIo[0] (as given) of it; else
 * simplexFeatureIo[0] = Infinity and the outputs unset.
 */
export function polytopeFeatureGap(
  outA: Vec3,
  outB: Vec3,
  outN: Vec3,
  s: GjkSimplex,
  a: SupportMap,
  b: SupportMap,
): void {
  const tol = simplexFeatureIo[0];
  simplexFeatureIo[0] = Number.POSITIVE_INFINITY;
  countIo[0] = 0;
  countIo[1] = 0;
  for (let i = 0; i < s.count; i++) {
    addCorner(featA, 0, s.a[i]);
    addCorner(featB, 1, s.b[i]);
  }
  let last = Number.POSITIVE_INFINITY;
  for (let iter = 0; iter < FEATURE_MAX_ITERATIONS; iter++) {
    closestFeatures();
    const d2 = bestIo[0];
    if (!(d2 > 0 && d2 < Number.POSITIVE_INFINITY) || !(d2 <= last)) return;
    last = d2;
    reduce(featA, 0, countIo[2]);
    reduce(featB, 1, countIo[3]);
    const d = Math.sqrt(d2);
    // The separation along the features' own normal where they have one (a face's, an edge
    // pair's e1 × e2: exact to the rounding of their edge vectors); the points' difference
    // carries the rounding of their coordinates, a tilt that a long edge turns into a false
    // shortfall of the separation (1e-4 along an edge of 2e5).
    vec3.sub(dir, bestB, bestA);
    if (countIo[6] !== 0) {
      const k = vec3.dot(bestN, dir) < 0 ? -1 : 1;
      vec3.scale(dir, bestN, k / Math.sqrt(vec3.dot(bestN, bestN)));
    } else if (!segmentNormal(d)) vec3.scale(dir, dir, 1 / d);
    a.support(supA, dir);
    vec3.negate(negDir, dir);
    b.support(supB, negDir);
    const sep = vec3.dot(dir, supB) - vec3.dot(dir, supA);
    if (d - sep <= tol) {
      vec3.copy(outA, bestA);
      vec3.copy(outB, bestB);
      vec3.copy(outN, dir);
      simplexFeatureIo[0] = d;
      simplexFeatureIo[1] = sep;
      return;
    }
    tieIo[1] = d;
    tieIo[2] = tol;
    if (countIo[6] === 0 && tiedFeatureNormal(a, b)) {
      vec3.copy(outA, tieA);
      vec3.copy(outB, tieB);
      vec3.copy(outN, tieDir);
      simplexFeatureIo[0] = Math.sqrt(bestIo[1]);
      simplexFeatureIo[1] = tieIo[0];
      return;
    }
    let grewA = addCorner(featA, 0, supA);
    let grewB = addCorner(featB, 1, supB);
    // A side whose support along the direction is held already lies flat there (a face or an
    // edge, its support an arbitrary corner of it): its corner toward the other side's new
    // support point, by a support along the direction tilted that way (a small hull's vertex
    // above a large face beside the diagonal its held corners span: issue 16, hulls of 1 and
    // 1e-9, the gap 3.9e-12 for 3.8e-14).
    if (!grewA) grewA = tiltedCorner(a, featA, 0, dir, supB);
    if (!grewB) grewB = tiltedCorner(b, featB, 1, negDir, supA);
    if (!grewA && !grewB) return;
  }
}

/**
 * {@link tiedFeatureNormal}'s doubles (through a typed array: a double passed to a call V8 does not
 * inline is boxed): [0] out, the separation along tieDir; [1] in, the best distance d; [2] in,
 * the tolerance.
 */
const tieIo = new Float64Array(3);

/**
 * A corner's closest pair whose separation falls short of its distance can tie, within the
 * rounding of the points, with an edge crossing or a face's projection a few ulps from that
 * corner (issue 16: a box's corner 9e-9 from where its edge crosses a rounded hull's core edge
 * 250 away, the two distances equal in doubles): the corner's direction then tilts off the
 * features' normal by the offset over the distance (2.6e-11 rad), which a long feature turns
 * into a shortfall (5.2e-11 along the box's edge of 2). True when the best candidate with a
 * normal of its own lies within the tolerance tieIo[2] of the distance tieIo[1] and the
 * separation along that normal (one support pair, a certified lower bound; into tieIo[0], its
 * unit direction into tieDir) meets its distance within that tolerance.
 */
function tiedFeatureNormal(a: SupportMap, b: SupportMap): boolean {
  const d = tieIo[1];
  const tol = tieIo[2];
  const d2 = bestIo[1];
  if (!(d2 < Number.POSITIVE_INFINITY)) return false;
  const dt = Math.sqrt(d2);
  if (!(dt - d <= tol)) return false;
  vec3.sub(tieDir, tieB, tieA);
  const nn = vec3.dot(tieN, tieN);
  if (!(nn > 0 && nn < Number.POSITIVE_INFINITY)) return false;
  const k = vec3.dot(tieN, tieDir) < 0 ? -1 : 1;
  vec3.scale(tieDir, tieN, k / Math.sqrt(nn));
  a.support(tieSupA, tieDir);
  vec3.negate(tieNeg, tieDir);
  b.support(tieSupB, tieNeg);
  const sep = vec3.dot(tieDir, tieSupB) - vec3.dot(tieDir, tieSupA);
  tieIo[0] = sep;
  return dt - sep <= tol;
}

/**
 * A corner against an edge's inside (one corner held on one side, two on the other): dir, the
 * points' difference, made normal to the edge and unit (returns true; false otherwise or when
 * nothing is left). The closest point's parameter along the edge rounds at the edge's length,
 * a tilt of the difference that a long edge turns into a false shortfall of the separation
 * (a vertex 3.9e-12 below the diagonal of a face of 2, the difference tilted 1e-5 along it).
 */
function segmentNormal(d: number): boolean {
  let f: Vec3[];
  if (countIo[0] === 2 && countIo[1] === 1) f = featA;
  else if (countIo[1] === 2 && countIo[0] === 1) f = featB;
  else return false;
  vec3.sub(e0, f[1], f[0]);
  const ee = vec3.dot(e0, e0);
  if (!(ee > 0 && ee < Number.POSITIVE_INFINITY)) return false;
  vec3.addScaled(dir, dir, e0, -vec3.dot(dir, e0) / ee);
  const l = Math.sqrt(vec3.dot(dir, dir));
  if (!(l > 0 && l <= d)) return false;
  vec3.scale(dir, dir, 1 / l);
  return true;
}

/** Tilt of the direction, radians, by which {@link tiltedCorner} picks a flat support's corner. */
const CORNER_TILT = 2 ** -20;

const tilted = vec3.create();
const sideways = vec3.create();
const corner = vec3.create();
const nearest = vec3.create();

/**
 * Adds to side f (count at countIo[side]) m's support along unit d tilted by CORNER_TILT toward
 * point p (the other side's new support point) from the held corners' point nearest it, across
 * d: on a face or an edge normal to d, a corner beyond the held ones' edge that p's projection
 * lies outside (its outward normal in the face). False when p projects onto the held corners, or
 * the corner is held already.
 */
function tiltedCorner(m: SupportMap, f: Vec3[], side: number, d: Vec3, p: Vec3): boolean {
  const n = countIo[side];
  if (n === 1) vec3.copy(nearest, f[0]);
  else if (n === 2) {
    closestOnSegment(p, f, 0, 1);
    vec3.copy(nearest, q);
  } else {
    let best = Number.POSITIVE_INFINITY;
    for (let j = 0; j < n; j++) {
      for (let k = j + 1; k < n; k++) {
        for (let l = k + 1; l < n; l++) {
          closestOnTriangle(p, f, j, k, l);
          const dd = vec3.distanceSq(p, q);
          if (dd < best) {
            best = dd;
            vec3.copy(nearest, q);
          }
        }
      }
    }
  }
  vec3.sub(sideways, p, nearest);
  vec3.addScaled(sideways, sideways, d, -vec3.dot(sideways, d));
  const l = Math.sqrt(vec3.dot(sideways, sideways));
  if (!(l > 0 && l < Number.POSITIVE_INFINITY)) return false;
  vec3.addScaled(tilted, d, sideways, CORNER_TILT / l);
  m.support(corner, tilted);
  return addCorner(f, side, corner);
}
