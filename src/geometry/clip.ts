/**
 * Polygon clipping and contact-manifold reduction, the two geometric steps of building a
 * contact manifold by reference-face / incident-face clipping (Box2D, Bullet, Jolt).
 *
 * Clipping is Sutherland–Hodgman (Ericson 2005, §8.3.4): a convex 3D polygon is cut by one
 * plane at a time, keeping the part on the plane's inner side. Against a convex reference
 * polygon the planes are its side planes: through each edge, containing the reference normal,
 * facing outward. A two-vertex reference (a segment) stands for the slab between the two
 * planes perpendicular to it through its ends.
 *
 * Reduction keeps at most 4 points of a manifold that span the largest contact area, greedily
 * (Bullet's `sortCachedPoints`, Jolt's `PruneContactPoints`): the deepest point first, then the
 * point farthest from it, then the point making the largest triangle with those two, then the
 * point making the largest quadrilateral (convex hull of the four) with those three. That
 * greedy choice alone can lose 15–25% of the area on a perturbed circle, so it is then
 * improved: exactly (every 4-set containing a deepest point) for up to
 * `MANIFOLD_REDUCTION_EXHAUSTIVE_LIMIT` candidates, by a capped local search of single swaps
 * beyond. Areas and distances are measured in the plane perpendicular to the contact normal.
 *
 * Polygons live in fixed-capacity typed-array buffers ({@link ClipPolygon}) that the caller
 * creates once; nothing here allocates per call. A buffer grows (doubling) only when a polygon
 * larger than any it has held arrives, so steady-state use never allocates.
 *
 * Every vertex carries a numeric tag for feature ids: a kept vertex keeps its tag, a vertex
 * created where the edge starting at a vertex of tag `t` crosses plane `k` gets
 * `(k + 1) · CLIP_TAG_STRIDE + (t mod CLIP_TAG_STRIDE)`.
 */
import {
  MANIFOLD_DEPTH_ULPS,
  MANIFOLD_REDUCTION_DEPTH_TIE,
  MANIFOLD_REDUCTION_EXHAUSTIVE_LIMIT,
  MANIFOLD_REDUCTION_IMPROVEMENT,
  MAX_REFINE_ITERATIONS,
} from "../constants.js";
import type { Vec3 } from "../math/vec3.js";

/** Machine epsilon, 2^-52 (the unit of {@link clipPolygonAgainstPolygon}'s slack). */
const EPSILON = 2 ** -52;

/** Initial vertex capacity of a {@link ClipPolygon} made without an explicit capacity. Count. */
export const CLIP_POLYGON_INITIAL_CAPACITY = 16;

/**
 * Multiplier separating the clip-plane index from the edge-start tag in the tag of a vertex
 * created by clipping (2^14: tags of up to 16383 distinct vertices and 4095 planes stay unique
 * within 2^26). Count.
 */
export const CLIP_TAG_STRIDE = 16384;

/** Maximum number of points a reduced contact manifold keeps (as `MAX_MANIFOLD_POINTS`). */
export const REDUCED_MANIFOLD_POINTS = 4;

/**
 * A polygon (or segment, or point) in a reusable buffer: `count` vertices packed as xyz in
 * `xyz`, each with a feature tag in `tags`. Vertices are in cyclic order; polygons used as
 * clip regions are convex and counter-clockwise about their outward normal.
 */
export interface ClipPolygon {
  /** Packed coordinates x0, y0, z0, x1, …; length is 3 × capacity. */
  xyz: Float64Array;
  /** Feature tag of each vertex (non-negative integers); length is the capacity. */
  tags: Float64Array;
  /** Number of valid vertices. */
  count: number;
}

/**
 * A new empty polygon buffer able to hold `capacity` vertices (allocates; call once, reuse).
 * `capacity` below 1 is raised to 1.
 */
export function makeClipPolygon(capacity = CLIP_POLYGON_INITIAL_CAPACITY): ClipPolygon {
  const cap = Math.max(1, Math.floor(capacity));
  return { xyz: new Float64Array(3 * cap), tags: new Float64Array(cap), count: 0 };
}

/**
 * Ensures `poly` can hold `capacity` vertices, keeping its contents; grows by doubling and
 * allocates only when the current capacity is too small.
 */
export function reserveClipPolygon(poly: ClipPolygon, capacity: number): void {
  const cur = poly.tags.length;
  if (capacity <= cur) return;
  let cap = cur;
  while (cap < capacity) cap *= 2;
  const xyz = new Float64Array(3 * cap);
  xyz.set(poly.xyz.subarray(0, 3 * poly.count));
  const tags = new Float64Array(cap);
  tags.set(poly.tags.subarray(0, poly.count));
  poly.xyz = xyz;
  poly.tags = tags;
}

/**
 * Appends point `p` with feature tag `tag` to `poly`, growing it if full: its coordinates are
 * read here, since doubles passed to a call V8 does not inline are boxed (allocated).
 */
export function pushClipPoint(poly: ClipPolygon, p: Vec3, tag: number): void {
  const i = poly.count;
  if (i >= poly.tags.length) reserveClipPolygon(poly, i + 1);
  const j = 3 * i;
  poly.xyz[j] = p.x;
  poly.xyz[j + 1] = p.y;
  poly.xyz[j + 2] = p.z;
  poly.tags[i] = tag;
  poly.count = i + 1;
}

/** out = src (vertices and tags); returns out. */
export function copyClipPolygon(out: ClipPolygon, src: ClipPolygon): ClipPolygon {
  if (out === src) return out;
  reserveClipPolygon(out, src.count);
  out.xyz.set(src.xyz.subarray(0, 3 * src.count));
  out.tags.set(src.tags.subarray(0, src.count));
  out.count = src.count;
  return out;
}

/**
 * out = the part of polygon `input` on the inner side of the plane {p : n·p ≤ offset}, with
 * n = (nx, ny, nz) (any length; the same scale as `offset`). One Sutherland–Hodgman pass
 * (Ericson 2005, §8.3.4): a vertex on the plane counts as inside, and a crossing point is
 * created only where an edge strictly crosses, so no duplicate vertex appears at a vertex lying
 * on the plane. A 2-vertex input is treated as a segment (one edge, not a closed loop) and a
 * 1-vertex input as a point. `planeIndex` (≥ 0) goes into the tags of created vertices.
 * `out` must not alias `input`. Returns out.
 */
export function clipPolygonByPlane(
  out: ClipPolygon,
  input: ClipPolygon,
  nx: number,
  ny: number,
  nz: number,
  offset: number,
  planeIndex: number,
): ClipPolygon {
  setClipPlane(nx, ny, nz, offset);
  return clipByScratchPlane(out, input, planeIndex);
}

/**
 * The plane of {@link clipByScratchPlane}: `(nx, ny, nz, offset, ax, ay, az)`, the plane
 * {p : n·(p − a) ≤ offset} through anchor a = (ax, ay, az) moved out by `offset` (a = 0 for
 * {@link clipPolygonByPlane}'s n·p ≤ offset). Passing the plane through this array rather than as
 * double arguments keeps the hot clipping loop free of the heap numbers V8 allocates for doubles
 * passed to a call it does not inline.
 */
const clipPlane = /* @__PURE__ */ new Float64Array(7);

function setClipPlane(nx: number, ny: number, nz: number, offset: number): void {
  clipPlane[0] = nx;
  clipPlane[1] = ny;
  clipPlane[2] = nz;
  clipPlane[3] = offset;
  clipPlane[4] = 0;
  clipPlane[5] = 0;
  clipPlane[6] = 0;
}

/** {@link clipPolygonByPlane} with the plane read from `clipPlane`. */
function clipByScratchPlane(out: ClipPolygon, input: ClipPolygon, planeIndex: number): ClipPolygon {
  const nx = clipPlane[0];
  const ny = clipPlane[1];
  const nz = clipPlane[2];
  const offset = clipPlane[3];
  const ax = clipPlane[4];
  const ay = clipPlane[5];
  const az = clipPlane[6];
  out.count = 0;
  const n = input.count;
  if (n === 0) return out;
  // A convex polygon cut by a plane keeps at most n + 1 vertices; they are written straight into
  // `out` (a double passed to a call V8 does not inline is boxed: this loop runs for every
  // manifold of a world step).
  reserveClipPolygon(out, n + 1);
  const o = out.xyz;
  const oTags = out.tags;
  let m = 0;
  const v = input.xyz;
  const tags = input.tags;
  const planeTag = (planeIndex + 1) * CLIP_TAG_STRIDE;
  if (n === 1) {
    if (nx * (v[0] - ax) + ny * (v[1] - ay) + nz * (v[2] - az) - offset <= 0) {
      o[0] = v[0];
      o[1] = v[1];
      o[2] = v[2];
      oTags[0] = tags[0];
      out.count = 1;
    }
    return out;
  }
  const edges = n === 2 ? 1 : n;
  if (n === 2) {
    const d0 = nx * (v[0] - ax) + ny * (v[1] - ay) + nz * (v[2] - az) - offset;
    if (d0 <= 0) {
      o[0] = v[0];
      o[1] = v[1];
      o[2] = v[2];
      oTags[0] = tags[0];
      m = 1;
    }
  }
  // Each vertex's signed distance is computed once: an edge's start is the last edge's end.
  const last = n === 2 ? 0 : 3 * (n - 1);
  let d0 = nx * (v[last] - ax) + ny * (v[last + 1] - ay) + nz * (v[last + 2] - az) - offset;
  for (let e = 0; e < edges; e++) {
    // (e + n − 1) mod n and the tag mod CLIP_TAG_STRIDE below written out: an integer `%` by a
    // variable is a division, and `%` of a double (a tag) a call to fmod in V8.
    const i0 = n === 2 ? 0 : e === 0 ? n - 1 : e - 1;
    const i1 = n === 2 ? 1 : e;
    const a = 3 * i0;
    const b = 3 * i1;
    const d1 = nx * (v[b] - ax) + ny * (v[b + 1] - ay) + nz * (v[b + 2] - az) - offset;
    const crossing = (d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0);
    if (crossing) {
      const t = d0 / (d0 - d1);
      o[3 * m] = v[a] + t * (v[b] - v[a]);
      o[3 * m + 1] = v[a + 1] + t * (v[b + 1] - v[a + 1]);
      o[3 * m + 2] = v[a + 2] + t * (v[b + 2] - v[a + 2]);
      oTags[m] = planeTag + (tags[i0] - Math.trunc(tags[i0] / CLIP_TAG_STRIDE) * CLIP_TAG_STRIDE);
      m++;
    }
    if (d1 <= 0) {
      o[3 * m] = v[b];
      o[3 * m + 1] = v[b + 1];
      o[3 * m + 2] = v[b + 2];
      oTags[m] = tags[i1];
      m++;
    }
    d0 = d1;
  }
  out.count = m;
  return out;
}

/**
 * out = polygon (or segment, or point) `subject` clipped against the side planes of convex
 * polygon `clip`, whose plane normal is `normal` (unit): the part of `subject` inside the
 * infinite prism over `clip` along `normal` (Ericson 2005, §8.3.4; the reference-face step of
 * Box2D's and Bullet's manifold clipping). Each side plane contains an edge of `clip` and
 * `normal` and faces away from the polygon's centroid (so the winding of `clip` does not matter
 * unless it has zero area, when counter-clockwise about `normal` is assumed). A 2-vertex `clip`
 * is a segment: `subject` is clipped to the slab between the planes perpendicular to it through
 * its ends (`normal` is not used). A `clip` of fewer than 2 vertices leaves `subject` unclipped.
 * `slackUlps` (an integer ≥ 0, default 0) moves every plane outward by that many ulps of the
 * largest coordinate magnitude of `clip` and `subject` (`slackUlps · ε · max |c|`, a distance):
 * a subject that touches the prism exactly, but whose coordinates were rounded a unit off the
 * clip's, then keeps its touching part instead of vanishing (the caller's retry,
 * src/narrowphase/manifold.ts). `scratch` is a second buffer for the passes; `out`, `scratch`, `subject` and
 * `clip` must be distinct. Returns out (possibly empty).
 */
export function clipPolygonAgainstPolygon(
  out: ClipPolygon,
  subject: ClipPolygon,
  clip: ClipPolygon,
  normal: Vec3,
  scratch: ClipPolygon,
  slackUlps = 0,
): ClipPolygon {
  const m = clip.count;
  const c = clip.xyz;
  if (m < 2) return copyClipPolygon(out, subject);
  const planes = m === 2 ? 2 : m;
  reserveClipPolygon(out, subject.count + planes);
  reserveClipPolygon(scratch, subject.count + planes);
  let src = subject;
  let dst = planes % 2 === 1 ? out : scratch;
  // The planes' outward move, a distance (0 unless asked: then 1 pass over the coordinates).
  let slack = 0;
  if (slackUlps > 0) {
    let big = 0;
    for (let i = 0; i < 3 * m; i++) big = Math.max(big, Math.abs(c[i]));
    const v = subject.xyz;
    for (let i = 0; i < 3 * subject.count; i++) big = Math.max(big, Math.abs(v[i]));
    slack = slackUlps * EPSILON * big;
  }
  if (m === 2) {
    const ex = c[3] - c[0];
    const ey = c[4] - c[1];
    const ez = c[5] - c[2];
    const move = slack === 0 ? 0 : slack * Math.sqrt(ex * ex + ey * ey + ez * ez);
    // Each plane anchored at its own end (see below).
    // The planes written out, not through setClipPlane: this path runs for a segment's clip,
    // rarely per call of a caller V8 optimizes, and doubles passed to a call it does not inline
    // are boxed.
    clipPlane[0] = ex;
    clipPlane[1] = ey;
    clipPlane[2] = ez;
    clipPlane[3] = move;
    clipPlane[4] = c[3];
    clipPlane[5] = c[4];
    clipPlane[6] = c[5];
    clipByScratchPlane(dst, src, 0);
    src = dst;
    dst = out;
    clipPlane[0] = -ex;
    clipPlane[1] = -ey;
    clipPlane[2] = -ez;
    clipPlane[3] = move;
    clipPlane[4] = c[0];
    clipPlane[5] = c[1];
    clipPlane[6] = c[2];
    clipByScratchPlane(dst, src, 1);
    return out;
  }
  // The subject's centroid: each side plane is anchored at the end of its edge nearer to it,
  // and a vertex's signed distance formed as s·(v − anchor). Formed as s·v − s·anchor, both
  // products round at the coordinates' magnitude times the edge's length: a sliver touching a
  // triangle of 600 at its corner (153, 559, 24) was cut at distances 3e-13 off, and where the
  // corner's side planes meet at 0.08 rad, a crossing slid 1.5e-11 along an edge off the
  // triangle (issue 16, seed 81). Anchored at the near end, v − anchor is exact for a vertex
  // within a factor 2 of it (Sterbenz) and the products round at the pair's local size: a vertex
  // shared by both polygons lies on both its side planes exactly.
  let gx = 0;
  let gy = 0;
  let gz = 0;
  const sv = subject.xyz;
  const sn = subject.count;
  for (let i = 0; i < sn; i++) {
    gx += sv[3 * i];
    gy += sv[3 * i + 1];
    gz += sv[3 * i + 2];
  }
  if (sn === 0) {
    out.count = 0;
    return out;
  }
  gx /= sn;
  gy /= sn;
  gz /= sn;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (let i = 0; i < m; i++) {
    cx += c[3 * i];
    cy += c[3 * i + 1];
    cz += c[3 * i + 2];
  }
  cx /= m;
  cy /= m;
  cz /= m;
  for (let i = 0; i < m; i++) {
    const a = 3 * i;
    const b = i + 1 === m ? 0 : 3 * (i + 1);
    const ex = c[b] - c[a];
    const ey = c[b + 1] - c[a + 1];
    const ez = c[b + 2] - c[a + 2];
    let sx = ey * normal.z - ez * normal.y;
    let sy = ez * normal.x - ex * normal.z;
    let sz = ex * normal.y - ey * normal.x;
    if (ex === 0 && ey === 0 && ez === 0) {
      // A zero-length edge (a face collapsed to a segment: the face of a box of zero thickness
      // lists each end twice): the plane through that vertex facing away from the centroid,
      // which bounds the segment at this end. Without it the segment's ends clipped nothing
      // and witness points lay 6.5e4 beyond a flat box (issue 16).
      const vx = c[a] - cx;
      const vy = c[a + 1] - cy;
      const vz = c[a + 2] - cz;
      const vn = vx * normal.x + vy * normal.y + vz * normal.z;
      sx = vx - vn * normal.x;
      sy = vy - vn * normal.y;
      sz = vz - vn * normal.z;
    }
    if (sx * (cx - c[a]) + sy * (cy - c[a + 1]) + sz * (cz - c[a + 2]) > 0) {
      sx = -sx;
      sy = -sy;
      sz = -sz;
    }
    clipPlane[0] = sx;
    clipPlane[1] = sy;
    clipPlane[2] = sz;
    clipPlane[3] = slack === 0 ? 0 : slack * Math.sqrt(sx * sx + sy * sy + sz * sz);
    const dax = c[a] - gx;
    const day = c[a + 1] - gy;
    const daz = c[a + 2] - gz;
    const dbx = c[b] - gx;
    const dby = c[b + 1] - gy;
    const dbz = c[b + 2] - gz;
    const k = dbx * dbx + dby * dby + dbz * dbz < dax * dax + day * day + daz * daz ? b : a;
    clipPlane[4] = c[k];
    clipPlane[5] = c[k + 1];
    clipPlane[6] = c[k + 2];
    clipByScratchPlane(dst, src, i);
    if (dst.count === 0) {
      out.count = 0;
      return out;
    }
    src = dst;
    dst = dst === out ? scratch : out;
  }
  return out;
}

/** |(u × v) · n|: twice the area of the triangle or quadrilateral with diagonals/edges u, v. */
function absTripleN(
  ux: number,
  uy: number,
  uz: number,
  vx: number,
  vy: number,
  vz: number,
  n: Vec3,
): number {
  return Math.abs(
    (uy * vz - uz * vy) * n.x + (uz * vx - ux * vz) * n.y + (ux * vy - uy * vx) * n.z,
  );
}

/**
 * Scratch result of {@link writeHullArea4}. The area goes through a typed array rather than a
 * return value: V8 boxes (allocates) a double returned by a call it does not inline, and the
 * loops of {@link reduceManifoldPoints} are too large for it to inline this one.
 */
const hullArea = /* @__PURE__ */ new Float64Array(1);

/**
 * Twice the area of the convex hull of points i, j, k, l of packed `xyz`, projected along `n`:
 * the largest of the 4 triangles and the 3 quadrilaterals they form (the hull is one of them,
 * and every other is no larger).
 */
export function hullArea4(
  xyz: Float64Array,
  i: number,
  j: number,
  k: number,
  l: number,
  n: Vec3,
): number {
  writeHullArea4(xyz, i, j, k, l, n);
  return hullArea[0];
}

/** {@link hullArea4}, written to `hullArea[0]`. Triangle (a, b, c) is ½|(b−a)×(c−a)·n|, quadrilateral (a, b, c, d) in that order ½|(c−a)×(d−b)·n|. */
function writeHullArea4(
  xyz: Float64Array,
  i: number,
  j: number,
  k: number,
  l: number,
  n: Vec3,
): void {
  const pi = 3 * i;
  const pj = 3 * j;
  const pk = 3 * k;
  const pl = 3 * l;
  // Edge vectors as differences of the stored coordinates (i→j, i→k, i→l, j→k, j→l, k→l).
  const ijx = xyz[pj] - xyz[pi];
  const ijy = xyz[pj + 1] - xyz[pi + 1];
  const ijz = xyz[pj + 2] - xyz[pi + 2];
  const ikx = xyz[pk] - xyz[pi];
  const iky = xyz[pk + 1] - xyz[pi + 1];
  const ikz = xyz[pk + 2] - xyz[pi + 2];
  const ilx = xyz[pl] - xyz[pi];
  const ily = xyz[pl + 1] - xyz[pi + 1];
  const ilz = xyz[pl + 2] - xyz[pi + 2];
  const jkx = xyz[pk] - xyz[pj];
  const jky = xyz[pk + 1] - xyz[pj + 1];
  const jkz = xyz[pk + 2] - xyz[pj + 2];
  const jlx = xyz[pl] - xyz[pj];
  const jly = xyz[pl + 1] - xyz[pj + 1];
  const jlz = xyz[pl + 2] - xyz[pj + 2];
  const klx = xyz[pl] - xyz[pk];
  const kly = xyz[pl + 1] - xyz[pk + 1];
  const klz = xyz[pl + 2] - xyz[pk + 2];
  // Triangles ijk, ijl, ikl, jkl; quadrilaterals ijkl, ijlk, ikjl (diagonals ik×jl, il×jk, ij×kl).
  let best = absTripleN(ijx, ijy, ijz, ikx, iky, ikz, n);
  best = Math.max(best, absTripleN(ijx, ijy, ijz, ilx, ily, ilz, n));
  best = Math.max(best, absTripleN(ikx, iky, ikz, ilx, ily, ilz, n));
  best = Math.max(best, absTripleN(jkx, jky, jkz, jlx, jly, jlz, n));
  best = Math.max(best, absTripleN(ikx, iky, ikz, jlx, jly, jlz, n));
  best = Math.max(best, absTripleN(ilx, ily, ilz, jkx, jky, jkz, n));
  best = Math.max(best, absTripleN(ijx, ijy, ijz, klx, kly, klz, n));
  hullArea[0] = best;
}

/**
 * Chooses at most 4 of `count` manifold candidate points (packed xyz in `xyz`, signed
 * distances in `distances`, negative = penetrating) that keep the largest contact area, as
 * Bullet and Jolt do: the deepest point (smallest distance), the point farthest from it, the
 * point maximising the triangle area with those two, and the point maximising the area of the
 * convex hull of all four; then, keeping a deepest point, the largest-area 4-set by exhaustive
 * search when `count` ≤ `MANIFOLD_REDUCTION_EXHAUSTIVE_LIMIT`, else by single swaps while the
 * area grows (at most `MAX_REFINE_ITERATIONS` rounds). A choice is replaced only when the area
 * grows by more than the fraction `MANIFOLD_REDUCTION_IMPROVEMENT`, and distances within that
 * fraction of the contact's size of the minimum count as equally deep (a flat contact has no
 * single deepest point), within `MANIFOLD_REDUCTION_DEPTH_TIE` of the depth at most (plus
 * `MANIFOLD_DEPTH_ULPS` ulps of the largest coordinate). Areas and distances are measured perpendicular to `normal` (unit).
 * Ties go to the lowest index, so the choice is deterministic. Fewer points are returned when
 * the candidates are coincident in the contact plane (1), collinear (2) or when a fourth adds
 * no area (3), also when there are 4 or fewer candidates, so duplicates never survive. Writes the chosen indices in ascending order (so cyclic order
 * is kept) to `outIndices` (length ≥ 4) and returns how many. Allocates nothing.
 */
export function reduceManifoldPoints(
  outIndices: Int32Array,
  xyz: Float64Array,
  distances: Float64Array,
  count: number,
  normal: Vec3,
): number {
  if (count <= 1) {
    outIndices[0] = 0;
    return count;
  }
  let i0 = 0;
  for (let i = 1; i < count; i++) if (distances[i] < distances[i0]) i0 = i;
  const ax = xyz[3 * i0];
  const ay = xyz[3 * i0 + 1];
  const az = xyz[3 * i0 + 2];
  let i1 = -1;
  let best = 0;
  for (let i = 0; i < count; i++) {
    const dx = xyz[3 * i] - ax;
    const dy = xyz[3 * i + 1] - ay;
    const dz = xyz[3 * i + 2] - az;
    const along = dx * normal.x + dy * normal.y + dz * normal.z;
    const d2 = dx * dx + dy * dy + dz * dz - along * along;
    if (d2 > best) {
      best = d2;
      i1 = i;
    }
  }
  outIndices[0] = i0;
  if (i1 < 0) return 1;
  const far2 = best;
  let i2 = -1;
  best = 0;
  for (let i = 0; i < count; i++) {
    const a2 = absTripleN(
      xyz[3 * i1] - ax,
      xyz[3 * i1 + 1] - ay,
      xyz[3 * i1 + 2] - az,
      xyz[3 * i] - ax,
      xyz[3 * i + 1] - ay,
      xyz[3 * i + 2] - az,
      normal,
    );
    if (a2 > best) {
      best = a2;
      i2 = i;
    }
  }
  if (i2 < 0) return sortSmall(outIndices, i0, i1, -1, -1);
  const triangle = best;
  let i3 = -1;
  for (let i = 0; i < count; i++) {
    if (i === i0 || i === i1 || i === i2) continue;
    writeHullArea4(xyz, i0, i1, i2, i, normal);
    const a2 = hullArea[0];
    if (a2 > best) {
      best = a2;
      i3 = i;
    }
  }
  if (i3 < 0 || !(best > triangle)) return sortSmall(outIndices, i0, i1, i2, -1);
  const q = outIndices;
  q[0] = i0;
  q[1] = i1;
  q[2] = i2;
  q[3] = i3;
  const gain = 1 + MANIFOLD_REDUCTION_IMPROVEMENT;
  // Depths equal to rounding (relative to the contact's size) all count as the deepest, but
  // never farther from it than MANIFOLD_REDUCTION_DEPTH_TIE of the depth (plus the distances'
  // rounding, MANIFOLD_DEPTH_ULPS of the coordinates): a point that deep into a large contact
  // is not the contact's depth (a cone's base 2^-34 rad off a cone's, 7.8e-8 deep: a point
  // 0.7% shallower kept in its place, the tie 2e-7; issue 16).
  let m = 0;
  for (let i = 0; i < 3 * count; i++) m = Math.max(m, Math.abs(xyz[i]));
  const deepLimit =
    distances[i0] +
    Math.min(
      MANIFOLD_REDUCTION_IMPROVEMENT * Math.sqrt(far2),
      MANIFOLD_REDUCTION_DEPTH_TIE * Math.abs(distances[i0]) + MANIFOLD_DEPTH_ULPS * EPSILON * m,
    );
  // Four candidates: the one 4-set is the greedy choice itself (a replacement could only name
  // the same four indices), so the search below would return exactly this.
  if (count === REDUCED_MANIFOLD_POINTS) return sortSmall(outIndices, q[0], q[1], q[2], q[3]);
  if (count <= MANIFOLD_REDUCTION_EXHAUSTIVE_LIMIT) {
    // Small sets (every face–face case in practice): the exact best 4-set containing a deepest
    // point, keeping the greedy choice unless another is strictly larger.
    for (let i = 0; i < count; i++) {
      const di = distances[i] <= deepLimit;
      for (let j = i + 1; j < count; j++) {
        const dj = di || distances[j] <= deepLimit;
        for (let k = j + 1; k < count; k++) {
          const dk = dj || distances[k] <= deepLimit;
          for (let l = k + 1; l < count; l++) {
            if (!(dk || distances[l] <= deepLimit)) continue;
            writeHullArea4(xyz, i, j, k, l, normal);
            const a2 = hullArea[0];
            if (a2 > best * gain) {
              best = a2;
              q[0] = i;
              q[1] = j;
              q[2] = k;
              q[3] = l;
            }
          }
        }
      }
    }
    return sortSmall(outIndices, q[0], q[1], q[2], q[3]);
  }
  // Large sets: local search, swapping one point for any candidate while that strictly
  // enlarges the hull (the first point only for another deepest one); capped.
  for (let iter = 0; iter < MAX_REFINE_ITERATIONS; iter++) {
    let improved = false;
    for (let slot = 0; slot < REDUCED_MANIFOLD_POINTS; slot++) {
      const keep = q[slot];
      for (let i = 0; i < count; i++) {
        if (i === q[0] || i === q[1] || i === q[2] || i === q[3]) continue;
        if (slot === 0 && !(distances[i] <= deepLimit)) continue;
        q[slot] = i;
        writeHullArea4(xyz, q[0], q[1], q[2], q[3], normal);
        const a2 = hullArea[0];
        if (a2 > best * gain) {
          best = a2;
          improved = true;
          break;
        }
        q[slot] = keep;
      }
    }
    if (!improved) break;
  }
  return sortSmall(outIndices, q[0], q[1], q[2], q[3]);
}

/** Writes the non-negative ones of a, b, c, d to out in ascending order; returns how many. */
function sortSmall(out: Int32Array, a: number, b: number, c: number, d: number): number {
  let n = 0;
  n = insertSorted(out, n, a);
  n = insertSorted(out, n, b);
  n = insertSorted(out, n, c);
  return insertSorted(out, n, d);
}

/** Inserts v (skipped when negative) into the sorted first n entries of out; returns the new n. */
function insertSorted(out: Int32Array, n: number, v: number): number {
  if (v < 0) return n;
  let j = n;
  while (j > 0 && out[j - 1] > v) {
    out[j] = out[j - 1];
    j--;
  }
  out[j] = v;
  return n + 1;
}
