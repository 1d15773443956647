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
 * Where the closest pair's own direction falls short, the candidates tie: faces near parallel
 * (a rounded hull's core edge 1.1e-13 rad off a box's face, issue 16) put a corner's projection, a
 * corner–edge pair and two edge crossings within 1e-19 of one distance, far below the rounding
 * of their squares, while their directions differ by 6e-9 rad, which a feature of 0.5 turns into
 * 5e-9 of separation. The separation along a direction is a lower bound of the gap and each
 * pair's distance an upper bound, so the pair whose interval (distance − separation along its
 * normal) is narrowest is the answer, decided by the support functions (whose rounding is of the
 * coordinates) rather than by the squared distances: every candidate is certified so when the
 * closest one is not (a support pair each, spent only on those within the narrowest width of the
 * least distance), and the narrowest kept over the rounds. Rounds that end uncertified (the
 * reduction to the closest pair's corners cycling between a corner and an edge of a face near
 * parallel) end in one gathering: each side's corners about the narrowest pair's normal, by
 * supports along it tilted 45° apart (a face's four corners, an edge's two ends), all pairs
 * certified; the narrowest is kept where narrower than the caller's own answer.
 *
 * Allocation-free (module scratch), bounded: FEATURE_MAX_ITERATIONS rounds of at most 32
 * corner–triangle and 36 edge–edge candidates, and one gathering of at most GATHER_CORNERS
 * corners a side.
 */
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { GjkSimplex } from "./gjk.js";
import type { SupportMap } from "./support.js";

/** Rounds of the feature search (each: candidates, reduction, one support pair). */
const FEATURE_MAX_ITERATIONS = 16;

/** Corners a side holds in the search's rounds. */
const ROUND_CORNERS = 4;
/** Corners a side holds in the last gathering about the narrowest pair's normal. */
const GATHER_CORNERS = 8;
/** Directions about the normal that the gathering tilts toward (45° apart). */
const GATHER_TILTS = 8;

const corners = (): Vec3[] => Array.from({ length: GATHER_CORNERS }, () => vec3.create());
const featA: Vec3[] = corners();
const featB: Vec3[] = corners();
const keep: Vec3[] = corners();
/** [0] the corners a side may hold now (ROUND_CORNERS, or GATHER_CORNERS while gathering). */
const capIo = new Int32Array([ROUND_CORNERS]);
/**
 * [0] nA, [1] nB: the corners held per side; [2], [3] the best pair's corner masks on A and B;
 * [4] the mask of the last closest point; [5] 1 when the last closest point is a face's
 * projection or an edge crossing (its normal in `nrm`); [6] the same for the best pair (in bestN);
 * [7] 1 while the candidates are certified ({@link certifyCandidates}) rather than ranked.
 */
const countIo = new Int32Array(8);
/** [0] the best candidate's squared distance. */
const bestIo = new Float64Array(1);
/**
 * The narrowest certified candidate ({@link certifyCandidates}): [0] its width, distance less the
 * separation along its normal (Infinity when none); [1] its distance; [2] its separation; [3]
 * the least distance of any candidate offered (an upper bound of the gap).
 */
const certIo = new Float64Array(4);
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
const certA = vec3.create();
const certB = vec3.create();
const certN = vec3.create();
const candA = vec3.create();
const candB = vec3.create();
const candDir = vec3.create();
const candNeg = vec3.create();
const candSupA = vec3.create();
const candSupB = vec3.create();
const candEdge = vec3.create();
/** The pair's support maps while its candidates are certified (set by polytopeFeatureGap). */
const mapsIo: { a: SupportMap | null; b: SupportMap | null } = { a: null, b: null };

/** Appends p to side f (count at countIo[side]) unless present; false when present. */
function addCorner(f: Vec3[], side: number, p: Vec3): boolean {
  const n = countIo[side];
  for (let j = 0; j < n; j++) if (vec3.exactEquals(f[j], p)) return false;
  if (n >= capIo[0]) return false;
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
  if (faceProjection(p, f, i, j, k)) return;
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
 * q = p's projection along the normal of triangle f[i] f[j] f[k] (in `nrm`, not unit) when it
 * falls inside (the edges' orientations about that normal, the face's own vectors; countIo[4]
 * the corners, countIo[5] = 1): true; false for one outside or a degenerate triangle.
 */
function faceProjection(p: Vec3, f: Vec3[], i: number, j: number, k: number): boolean {
  const a = f[i];
  const b = f[j];
  const c = f[k];
  vec3.sub(e1, b, a);
  vec3.sub(e2, c, a);
  vec3.cross(nrm, e1, e2);
  const nn = vec3.dot(nrm, nrm);
  if (!(nn > 0 && nn < Number.POSITIVE_INFINITY)) return false;
  vec3.sub(rel, p, a);
  vec3.cross(e0, e1, rel);
  const sc = vec3.dot(e0, nrm);
  vec3.cross(e0, rel, e2);
  const sb = vec3.dot(e0, nrm);
  vec3.sub(rel, p, b);
  vec3.sub(e0, c, b);
  vec3.cross(e0, e0, rel);
  const sa = vec3.dot(e0, nrm);
  if (!(sa >= 0 && sb >= 0 && sc >= 0)) return false;
  vec3.sub(rel, p, a);
  vec3.addScaled(q, p, nrm, -vec3.dot(rel, nrm) / nn);
  countIo[4] = (1 << i) | (1 << j) | (1 << k);
  countIo[5] = 1;
  return true;
}

/**
 * Keeps (pa, pb) with their corner masks when closer than the best so far (while certifying,
 * {@link certifyCandidate} instead).
 */
function offer(pa: Vec3, pb: Vec3, maskA: number, maskB: number): void {
  if (countIo[7] !== 0) {
    certifyCandidate(pa, pb, maskA, maskB);
    return;
  }
  const d = vec3.distanceSq(pa, pb);
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

/**
 * The candidate pair (pa, pb) with its corner masks certified: its direction (the features' own
 * normal where they have one, a corner–edge difference made normal to the edge, else the
 * difference), the separation along it (one support pair, a lower bound of the gap) and its
 * distance (an upper bound); kept as certA, certB, certN in certIo when its width, distance less
 * separation, is the narrowest yet.
 */
function certifyCandidate(pa: Vec3, pb: Vec3, maskA: number, maskB: number): void {
  const ma = mapsIo.a;
  const mb = mapsIo.b;
  if (ma === null || mb === null) return;
  vec3.copy(candA, pa);
  vec3.copy(candB, pb);
  vec3.sub(candDir, candB, candA);
  const d = Math.sqrt(vec3.dot(candDir, candDir));
  if (!(d > 0 && d < Number.POSITIVE_INFINITY)) return;
  // Its width is at least its distance less the gap, which is at most any candidate's distance:
  // a candidate that far above the least cannot be the narrowest (no support pair spent).
  if (d < certIo[3]) certIo[3] = d;
  if (!(d - certIo[3] < certIo[0])) return;
  if (countIo[5] !== 0) {
    const nn = vec3.dot(nrm, nrm);
    if (!(nn > 0 && nn < Number.POSITIVE_INFINITY)) return;
    const k = vec3.dot(nrm, candDir) < 0 ? -1 : 1;
    vec3.scale(candDir, nrm, k / Math.sqrt(nn));
  } else if (!segmentNormal(candDir, d, maskA, maskB)) vec3.scale(candDir, candDir, 1 / d);
  ma.support(candSupA, candDir);
  vec3.negate(candNeg, candDir);
  mb.support(candSupB, candNeg);
  const sep = vec3.dot(candDir, candSupB) - vec3.dot(candDir, candSupA);
  const w = d - sep;
  if (!(w < certIo[0])) return;
  certIo[0] = w;
  certIo[1] = d;
  certIo[2] = sep;
  vec3.copy(certA, candA);
  vec3.copy(certB, candB);
  vec3.copy(certN, candDir);
}

/** True for a mask of exactly two corners. */
function isEdge(mask: number): boolean {
  const m = mask & (mask - 1);
  return m !== 0 && (m & (m - 1)) === 0;
}

/** True for a mask of exactly one corner. */
function isCorner(mask: number): boolean {
  return mask !== 0 && (mask & (mask - 1)) === 0;
}

/** candEdge = the edge vector between the two corners of f in `mask`. */
function edgeOf(f: Vec3[], mask: number): void {
  let i = 0;
  while (!(mask & (1 << i))) i++;
  let j = i + 1;
  while (!(mask & (1 << j))) j++;
  vec3.sub(candEdge, f[j], f[i]);
}

/**
 * Every corner of side f (count n) against every corner, segment and triangle (its inside) of the
 * other side g (count m), each offered: tied candidates are all certified, not only the nearest
 * of a triangle's three edges (a corner over a face's corner, its edges' distances tied, the
 * diagonal's taken).
 */
function everyCornerPair(f: Vec3[], n: number, g: Vec3[], m: number, aSide: boolean): void {
  for (let i = 0; i < n; i++) {
    const p = f[i];
    if (m === 1) {
      countIo[5] = 0;
      vec3.copy(q, g[0]);
      countIo[4] = 1;
      offerCorner(p, i, aSide);
      continue;
    }
    for (let j = 0; j < m; j++) {
      for (let k = j + 1; k < m; k++) {
        countIo[5] = 0;
        closestOnSegment(p, g, j, k);
        offerCorner(p, i, aSide);
        for (let l = k + 1; l < m; l++) if (faceProjection(p, g, j, k, l)) offerCorner(p, i, aSide);
      }
    }
  }
}

/** Offers corner i (point p) of side A (aSide) or B with the other side's point q. */
function offerCorner(p: Vec3, i: number, aSide: boolean): void {
  if (aSide) offer(p, q, 1 << i, countIo[4]);
  else offer(q, p, countIo[4], 1 << i);
}

/**
 * Every candidate pair of the held features certified ({@link certifyCandidate}) into certIo and
 * certA, certB, certN, keeping the narrowest of this and earlier rounds.
 */
function certifyCandidates(): void {
  countIo[7] = 1;
  const na = countIo[0];
  const nb = countIo[1];
  everyCornerPair(featA, na, featB, nb, true);
  everyCornerPair(featB, nb, featA, na, false);
  for (let i = 0; i < na; i++)
    for (let j = i + 1; j < na; j++)
      for (let k = 0; k < nb; k++) for (let l = k + 1; l < nb; l++) edgeEdge(i, j, k, l);
  countIo[7] = 0;
}

/** The closest pair of the held features into bestA, bestB, bestIo[0] and the masks. */
function closestFeatures(): void {
  const na = countIo[0];
  const nb = countIo[1];
  bestIo[0] = Number.POSITIVE_INFINITY;
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
 * the distance found (Infinity when none was found). [1] out: the separation along the found
 * direction (a certified lower bound of the gap). [2] in: the width (distance − separation) of
 * the caller's own answer, which a pair found but not certified to [0] must beat.
 */
export const simplexFeatureIo = new Float64Array(3);

/**
 * The closest points of polytopes a and b (support maps in one frame, GJK's final `s` their
 * starting features) into outA, outB, the unit direction from A to B in outN (the features'
 * normal where they have one), with their distance in simplexFeatureIo[0], once the
 * separation along their direction is within simplexFeatureIo[0] (as given) of it — or, when no
 * round gets there, the pair whose distance and separation lie nearest (every candidate of every
 * round certified) when nearer than simplexFeatureIo[2]; else simplexFeatureIo[0] = Infinity and
 * the outputs unset.
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
  countIo[7] = 0;
  capIo[0] = ROUND_CORNERS;
  certIo[0] = Number.POSITIVE_INFINITY;
  certIo[3] = Number.POSITIVE_INFINITY;
  mapsIo.a = a;
  mapsIo.b = b;
  for (let i = 0; i < s.count; i++) {
    addCorner(featA, 0, s.a[i]);
    addCorner(featB, 1, s.b[i]);
  }
  searchFeatures(outA, outB, outN, a, b, tol);
  if (!(simplexFeatureIo[0] < Number.POSITIVE_INFINITY) && certIo[0] < Number.POSITIVE_INFINITY) {
    // The rounds did not certify: the corners about the narrowest pair's normal gathered on both
    // sides (a face near parallel to it whole, the edges beside a corner), every pair certified.
    capIo[0] = GATHER_CORNERS;
    countIo[0] = 0;
    countIo[1] = 0;
    vec3.copy(gatherN, certN);
    gatherAround(a, featA, 0, gatherN);
    vec3.negate(gatherN, gatherN);
    gatherAround(b, featB, 1, gatherN);
    certifyCandidates();
    capIo[0] = ROUND_CORNERS;
  }
  mapsIo.a = null;
  mapsIo.b = null;
  if (simplexFeatureIo[0] < Number.POSITIVE_INFINITY) return;
  // No round certified to the tolerance: the narrowest pair, where narrower than the caller's.
  if (!(certIo[0] < simplexFeatureIo[2])) return;
  vec3.copy(outA, certA);
  vec3.copy(outB, certB);
  vec3.copy(outN, certN);
  simplexFeatureIo[0] = certIo[1];
  simplexFeatureIo[1] = certIo[2];
}

/** {@link polytopeFeatureGap}'s rounds (features loaded); simplexFeatureIo[0] set when certified. */
function searchFeatures(
  outA: Vec3,
  outB: Vec3,
  outN: Vec3,
  a: SupportMap,
  b: SupportMap,
  tol: number,
): void {
  let last = Number.POSITIVE_INFINITY;
  for (let iter = 0; iter < FEATURE_MAX_ITERATIONS; iter++) {
    closestFeatures();
    const d2 = bestIo[0];
    if (!(d2 > 0 && d2 < Number.POSITIVE_INFINITY) || !(d2 <= last)) return;
    last = d2;
    const d = Math.sqrt(d2);
    const maskA = countIo[2];
    const maskB = countIo[3];
    // The separation along the features' own normal where they have one (a face's, an edge
    // pair's e1 × e2: exact to the rounding of their edge vectors); the points' difference
    // carries the rounding of their coordinates, a tilt that a long edge turns into a false
    // shortfall of the separation (1e-4 along an edge of 2e5).
    vec3.sub(dir, bestB, bestA);
    if (countIo[6] !== 0) {
      const k = vec3.dot(bestN, dir) < 0 ? -1 : 1;
      vec3.scale(dir, bestN, k / Math.sqrt(vec3.dot(bestN, bestN)));
    } else if (!segmentNormal(dir, d, maskA, maskB)) vec3.scale(dir, dir, 1 / d);
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
    // The closest pair falls short: its candidates may tie with it in doubles (faces near
    // parallel), every one certified before the sides are reduced to its corners.
    certifyCandidates();
    if (certIo[0] <= tol) {
      vec3.copy(outA, certA);
      vec3.copy(outB, certB);
      vec3.copy(outN, certN);
      simplexFeatureIo[0] = certIo[1];
      simplexFeatureIo[1] = certIo[2];
      return;
    }
    reduce(featA, 0, maskA);
    reduce(featB, 1, maskB);
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
 * A corner against an edge's inside (the masks: one corner of one side, two of the other): v,
 * the points' difference, made normal to the edge and unit (returns true; false otherwise or when
 * nothing is left, v then partly moved). The closest point's parameter along the edge rounds at
 * the edge's length, a tilt of the difference that a long edge turns into a false shortfall of
 * the separation (a vertex 3.9e-12 below the diagonal of a face of 2, the difference tilted 1e-5
 * along it).
 */
function segmentNormal(v: Vec3, d: number, maskA: number, maskB: number): boolean {
  if (isEdge(maskA) && isCorner(maskB)) edgeOf(featA, maskA);
  else if (isEdge(maskB) && isCorner(maskA)) edgeOf(featB, maskB);
  else return false;
  const ee = vec3.dot(candEdge, candEdge);
  if (!(ee > 0 && ee < Number.POSITIVE_INFINITY)) return false;
  vec3.addScaled(v, v, candEdge, -vec3.dot(v, candEdge) / ee);
  const l = Math.sqrt(vec3.dot(v, v));
  if (!(l > 0 && l <= d)) return false;
  vec3.scale(v, v, 1 / l);
  return true;
}

const gatherN = vec3.create();
const gatherU = vec3.create();
const gatherV = vec3.create();
/** cos and sin of k · 45°. */
const TILT_COS = [1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2, 0, Math.SQRT1_2];
const TILT_SIN = [0, Math.SQRT1_2, 1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2];

/**
 * Adds to side f (count at countIo[side]) m's support along unit n and along n tilted by
 * CORNER_TILT toward each of GATHER_TILTS directions across it: the corners of the feature that
 * supports m along n and of every face within about CORNER_TILT of normal to it (a face's four
 * corners, an edge's two ends), up to the side's capacity.
 */
function gatherAround(m: SupportMap, f: Vec3[], side: number, n: Vec3): void {
  m.support(corner, n);
  addCorner(f, side, corner);
  // u, v: a basis across n (n crossed with the axis least along it).
  const ax = Math.abs(n.x);
  const ay = Math.abs(n.y);
  const az = Math.abs(n.z);
  if (ax <= ay && ax <= az) vec3.set(gatherU, 0, n.z, -n.y);
  else if (ay <= az) vec3.set(gatherU, -n.z, 0, n.x);
  else vec3.set(gatherU, n.y, -n.x, 0);
  const l = Math.sqrt(vec3.dot(gatherU, gatherU));
  if (!(l > 0 && l < Number.POSITIVE_INFINITY)) return;
  vec3.scale(gatherU, gatherU, 1 / l);
  vec3.cross(gatherV, n, gatherU);
  for (let k = 0; k < GATHER_TILTS; k++) {
    vec3.addScaled(tilted, n, gatherU, CORNER_TILT * TILT_COS[k]);
    vec3.addScaled(tilted, tilted, gatherV, CORNER_TILT * TILT_SIN[k]);
    m.support(corner, tilted);
    addCorner(f, side, corner);
  }
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
