/**
 * The overlap volume of two convex solids at least one of which is curved or rounded — two of
 * a sphere, a cylinder, a cone, a capsule, a rounded box, a rounded hull, or one of these with a
 * box or a convex hull, or a rounded box or hull with a half-space (src/query/overlap-volume.ts
 * routes here the pairs that no closed form or the disc slicing of
 * src/query/overlap-volume-slices.ts answers) — by chords: K = A ∩ B is convex, and
 * in A's frame with an orthonormal frame (w, e, d) the volume is ∫∫ L(t, u) du dt, L the length
 * of K's chord along the line o + t·w + u·e + s·d. Each solid's chord along a line is in closed
 * form (the slab of a box or a hull's face planes, a ball's, a cylinder's side and a cone's
 * quadric; a capsule, a rounded box and a rounded hull as unions of such pieces: their union is
 * convex, so the chord is the hull of the pieces' chords; a half-space one plane, the slices'
 * range cut to it), and K's chord is the intersection of the two.
 *
 * Two nested certified brackets, both by concavity (the Brunn–Minkowski inequality for the
 * sections of a convex body): within a slice t, the chord length L(u) is concave on the
 * interval of u where the slice has chords (1-dimensional sections), so its integral — the
 * slice area A(t) — is bracketed between the samples by their chords (below) and the extensions
 * of the chords to certainly-inside samples (above), exactly as √A(t) is along the axis
 * (2-dimensional sections) one level up. Each level bisects its widest segments until its gap
 * meets its share of the tolerance (the slice's: a quarter of the relative target); a level
 * whose gap stops shrinking over four rounds — the ε-slab of a very thin solid — returns its
 * bracket as it stands. The slices are taken across the thinnest axis of the thinner solid.
 *
 * Rounding: each chord is computed twice, for each solid shrunk and grown by ε = 2^-42 M (M:
 * the radii and the relative offset; a cone by moving its base and its slanted side by ε, a
 * rounded box or hull by its radius, or its core where the radius is below ε): the computed chord of the
 * shrunk solid lies inside the true chord and the grown one's holds it, since ε is 32 times the
 * frames' rounding (64u·M: B's pose in A's frame, a capsule's computed axis, the line's origin)
 * and each chord's own rounding (a plane's crossing moves by a few u·M over the cosine of the
 * angle, where growing the plane by ε moves it by ε over that cosine; a quadric's by a few
 * u·M² over the root's separation, where ε moves it by at least ε·ρ over it). So each sample's
 * [lower, upper] holds the true chord length, and the brackets hold the true volume up to the
 * frame's orthonormality (8u of the volume).
 */

import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Cone } from "../shapes/cone.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Cylinder } from "../shapes/cylinder.js";
import type { HalfSpace } from "../shapes/half-space.js";
import { boundingRadiusOf, type PolytopeAxes, shapeDef, supportOf } from "../shapes/registry.js";
import type { RoundedConvexPolyhedron, RoundedCuboid } from "../shapes/rounded.js";
import { type Shape, ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import {
  type BracketSampler,
  bisectMarked,
  firstSamples,
  segmentBounds,
  segmentOut,
} from "./overlap-volume-bracket.js";
import { profileOf } from "./overlap-volume-slices.js";

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;
/** How far each solid is shrunk and grown for its chords, in units of the pair's magnitude M. */
const CHORD_MARGIN = 2 ** -42;
/** Samples of the first round of each level (the endpoints included). */
const FIRST_SAMPLES = 17;
/** Most samples along the slices' axis. */
const MAX_SLICES = 4097;
/** Most chords across one slice. */
const MAX_CHORDS = 4097;
/**
 * Samples (the first round's refined three times) after which a level with none certainly
 * inside gives up: a slice then reads [0, the cap], the whole pair goes to the octree (a sliver
 * or a touch: the chords' spacing would have to reach the sliver's width).
 */
const UNCERTAIN_SAMPLES = 129;
/** The slices' relative bound is this fraction of the volume's. */
const SLICE_SHARE = 1 / 4;

/** The chord operands' kinds. */
const Op = {
  Ball: 0,
  Box: 1,
  Cylinder: 2,
  Cone: 3,
  Capsule: 4,
  RoundedBox: 5,
  Planes: 6,
  RoundedHull: 7,
} as const;

/**
 * A solid for chords: its kind and sizes (unit) in its canonical frame, and the map from A's
 * frame into that frame, x_c = R·(x − T) (R's rows r, T in A's frame).
 */
interface ChordOperand {
  kind: number;
  /** Sizes: a ball's radius in `r`; a box's (core's) half extents in hx, hy, hz; a cylinder's and a cone's half height in `hy` and radius in `r`; a capsule's half length in `hy`, radius `r`. */
  hx: number;
  hy: number;
  hz: number;
  r: number;
  /** A hull's (a rounded hull's core's, a half-space's) unit face planes n·x ≤ d, 4 per plane (its own frame). */
  planes: Float64Array;
  /** A rounded hull's faces' side planes (4 each: through each edge of the face, along its normal), face f's from 4·sideStart[f] to 4·sideStart[f + 1]. */
  sides: Float64Array;
  sideStart: Uint32Array;
  /** A rounded hull's edges, 7 each: an end (3), the unit direction (3), the length. */
  edgeSegs: Float64Array;
  /** A rounded hull's core vertices (3 each). */
  verts: Float64Array;
  /** Rows of R (9). */
  rot: Float64Array;
  /** T (3). */
  origin: Float64Array;
}

/**
 * True for a solid the chord slicing takes (a convex hull only with a curved or rounded
 * partner, a half-space only with a rounded one).
 */
export function isChordable(t: number): boolean {
  return (
    t === ShapeType.RoundedConvexPolyhedron ||
    t === ShapeType.HalfSpace ||
    t === ShapeType.Sphere ||
    t === ShapeType.Cuboid ||
    t === ShapeType.Cylinder ||
    t === ShapeType.Cone ||
    t === ShapeType.Capsule ||
    t === ShapeType.RoundedCuboid ||
    t === ShapeType.ConvexPolyhedron
  );
}

/** R (rows) and T of a shape at `pose` (in A's frame), its canonical frame from its local one. */
function operandOf(s: Shape, pose: Isometry): ChordOperand {
  const op: ChordOperand = {
    kind: Op.Ball,
    hx: 0,
    hy: 0,
    hz: 0,
    r: 0,
    planes: new Float64Array(0),
    sides: EMPTY,
    sideStart: new Uint32Array(1),
    edgeSegs: EMPTY,
    verts: EMPTY,
    rot: new Float64Array(9),
    origin: new Float64Array(3),
  };
  // Local axes (canonical in local) and origin; default: the local frame itself.
  let lo: [number, number, number] = [0, 0, 0];
  let lx: [number, number, number] = [1, 0, 0];
  let ly: [number, number, number] = [0, 1, 0];
  let lz: [number, number, number] = [0, 0, 1];
  switch (s.type) {
    case ShapeType.Sphere:
      op.kind = Op.Ball;
      op.r = (s as Sphere).radius;
      break;
    case ShapeType.Cuboid: {
      const h = (s as Cuboid).halfExtents;
      op.kind = Op.Box;
      op.hx = h.x;
      op.hy = h.y;
      op.hz = h.z;
      break;
    }
    case ShapeType.RoundedCuboid: {
      const h = (s as RoundedCuboid).core.halfExtents;
      op.kind = Op.RoundedBox;
      op.hx = h.x;
      op.hy = h.y;
      op.hz = h.z;
      op.r = (s as RoundedCuboid).radius;
      break;
    }
    case ShapeType.Cylinder:
      op.kind = Op.Cylinder;
      op.hy = (s as Cylinder).halfHeight;
      op.r = (s as Cylinder).radius;
      break;
    case ShapeType.Cone:
      op.kind = Op.Cone;
      op.hy = (s as Cone).halfHeight;
      op.r = (s as Cone).radius;
      break;
    case ShapeType.Capsule: {
      const p = profileOf(s);
      op.kind = Op.Capsule;
      op.hy = p.half;
      op.r = (s as Capsule).radius;
      lo = p.o;
      lx = p.e1;
      ly = p.w;
      lz = p.e2;
      break;
    }
    case ShapeType.HalfSpace: {
      // One plane n·x ≤ offset (n unit; normalised again as a hull's are).
      const h = s as HalfSpace;
      const l = Math.hypot(h.normal.x, h.normal.y, h.normal.z);
      op.kind = Op.Planes;
      op.planes = Float64Array.of(h.normal.x / l, h.normal.y / l, h.normal.z / l, h.offset / l);
      break;
    }
    case ShapeType.RoundedConvexPolyhedron: {
      const rh = s as RoundedConvexPolyhedron;
      roundedHullOperand(op, rh.core, rh.radius);
      break;
    }
    default: {
      op.kind = Op.Planes;
      const local = ((shapeDef(s.type).polytope as PolytopeAxes).planes as (s: Shape) => number[])(
        s,
      );
      op.planes = new Float64Array(local.length);
      for (let i = 0; i < local.length; i += 4) {
        const l = Math.hypot(local[i], local[i + 1], local[i + 2]);
        op.planes[i] = local[i] / l;
        op.planes[i + 1] = local[i + 1] / l;
        op.planes[i + 2] = local[i + 2] / l;
        op.planes[i + 3] = local[i + 3] / l;
      }
    }
  }
  // Canonical axes in A's frame: the pose's rotation of the local ones; origin the pose of lo.
  const v = vec3.create();
  const axes = [lx, ly, lz];
  for (let i = 0; i < 3; i++) {
    vec3.set(v, axes[i][0], axes[i][1], axes[i][2]);
    quat.rotate(v, pose.rotation, v);
    op.rot[3 * i] = v.x;
    op.rot[3 * i + 1] = v.y;
    op.rot[3 * i + 2] = v.z;
  }
  vec3.set(v, lo[0], lo[1], lo[2]);
  quat.rotate(v, pose.rotation, v);
  op.origin[0] = v.x + pose.translation.x;
  op.origin[1] = v.y + pose.translation.y;
  op.origin[2] = v.z + pose.translation.z;
  return op;
}

const EMPTY = new Float64Array(0);

/**
 * A rounded hull's operand: its core's unit face planes, each face's side planes (through each
 * edge of the face, normal the edge's direction × the face's normal: outward, the faces being
 * counter-clockwise from outside), its edges as segments and its vertices. The rounded hull is
 * the union of the core, each face's prism (the face swept out along its normal by the radius:
 * the face's plane moved out by r, the plane itself reversed, the side planes) and each edge's
 * capsule — a point within r of the core has its nearest core point inside a face, on an edge
 * or at a vertex (Steiner's decomposition).
 */
function roundedHullOperand(op: ChordOperand, c: ConvexPolyhedron, radius: number): void {
  op.kind = Op.RoundedHull;
  op.r = radius;
  const n = c.faceNormals;
  const v = c.vertices;
  op.planes = new Float64Array(4 * c.faceCount);
  op.sideStart = new Uint32Array(c.faceCount + 1);
  const sides: number[] = [];
  for (let f = 0; f < c.faceCount; f++) {
    const l = Math.hypot(n[3 * f], n[3 * f + 1], n[3 * f + 2]);
    const nx = n[3 * f] / l;
    const ny = n[3 * f + 1] / l;
    const nz = n[3 * f + 2] / l;
    op.planes[4 * f] = nx;
    op.planes[4 * f + 1] = ny;
    op.planes[4 * f + 2] = nz;
    op.planes[4 * f + 3] = c.facePlaneOffsets[f] / l;
    const o0 = c.faceOffsets[f];
    const o1 = c.faceOffsets[f + 1];
    for (let i = o0; i < o1; i++) {
      const a = 3 * c.faceVertices[i];
      const b = 3 * c.faceVertices[i + 1 < o1 ? i + 1 : o0];
      const ex = v[b] - v[a];
      const ey = v[b + 1] - v[a + 1];
      const ez = v[b + 2] - v[a + 2];
      let mx = ey * nz - ez * ny;
      let my = ez * nx - ex * nz;
      let mz = ex * ny - ey * nx;
      const ml = Math.hypot(mx, my, mz);
      if (!(ml > 0)) continue;
      mx /= ml;
      my /= ml;
      mz /= ml;
      // Through the edge: the larger of its two ends' offsets (the plane holds both, up to rounding).
      const d = Math.max(
        mx * v[a] + my * v[a + 1] + mz * v[a + 2],
        mx * v[b] + my * v[b + 1] + mz * v[b + 2],
      );
      sides.push(mx, my, mz, d);
    }
    op.sideStart[f + 1] = sides.length / 4;
  }
  op.sides = Float64Array.from(sides);
  const e = c.edges;
  op.edgeSegs = new Float64Array((7 * e.length) / 2);
  for (let i = 0; 2 * i < e.length; i++) {
    const a = 3 * e[2 * i];
    const b = 3 * e[2 * i + 1];
    const dx = v[b] - v[a];
    const dy = v[b + 1] - v[a + 1];
    const dz = v[b + 2] - v[a + 2];
    const len = Math.hypot(dx, dy, dz);
    const q = 7 * i;
    op.edgeSegs[q] = v[a];
    op.edgeSegs[q + 1] = v[a + 1];
    op.edgeSegs[q + 2] = v[a + 2];
    op.edgeSegs[q + 3] = len > 0 ? dx / len : 0;
    op.edgeSegs[q + 4] = len > 0 ? dy / len : 0;
    op.edgeSegs[q + 5] = len > 0 ? dz / len : 0;
    op.edgeSegs[q + 6] = len;
  }
  op.verts = Float64Array.from(v.subarray(0, 3 * c.vertexCount));
  // Its local box (the core's, grown by the radius) for thinnest().
  let bx = 0;
  let by = 0;
  let bz = 0;
  for (let i = 0; i < 3 * c.vertexCount; i += 3) {
    bx = Math.max(bx, Math.abs(v[i]));
    by = Math.max(by, Math.abs(v[i + 1]));
    bz = Math.max(bz, Math.abs(v[i + 2]));
  }
  op.hx = bx;
  op.hy = by;
  op.hz = bz;
}

/** iv ∩= {s : n·(p + s·d) ≤ off} for the unit plane (n, off) at pl[j]. */
function clipPlane(
  pl: Float64Array,
  j: number,
  off: number,
  px: number,
  py: number,
  pz: number,
  dx: number,
  dy: number,
  dz: number,
): void {
  const nd = pl[j] * dx + pl[j + 1] * dy + pl[j + 2] * dz;
  const c = off - (pl[j] * px + pl[j + 1] * py + pl[j + 2] * pz);
  if (nd === 0) {
    if (c < 0) {
      iv[0] = Infinity;
      iv[1] = -Infinity;
    }
  } else if (nd > 0) {
    const s = c / nd;
    if (s < iv[1]) iv[1] = s;
  } else {
    const s = c / nd;
    if (s > iv[0]) iv[0] = s;
  }
}

/**
 * The rounded hull's chord (radius r > 0) into iv: the hull of its pieces' chords (the core,
 * the faces' prisms, the edges' capsules: {@link roundedHullOperand}).
 */
function roundedHullChord(
  op: ChordOperand,
  px: number,
  py: number,
  pz: number,
  dx: number,
  dy: number,
  dz: number,
  r: number,
): void {
  const pl = op.planes;
  // Outside the core grown by r along every face normal (it holds the rounded hull): nothing.
  resetIv();
  for (let j = 0; j < pl.length && iv[0] <= iv[1]; j += 4)
    clipPlane(pl, j, pl[j + 3] + r, px, py, pz, dx, dy, dz);
  if (!(iv[0] <= iv[1])) return;
  hullIv[0] = Infinity;
  hullIv[1] = -Infinity;
  resetIv();
  for (let j = 0; j < pl.length && iv[0] <= iv[1]; j += 4)
    clipPlane(pl, j, pl[j + 3], px, py, pz, dx, dy, dz);
  joinHull();
  const sd = op.sides;
  const ss = op.sideStart;
  for (let f = 0; 4 * f < pl.length; f++) {
    const j = 4 * f;
    resetIv();
    // n·x ≤ d + r and −n·x ≤ −d: the slab of thickness r over the face.
    clipPlane(pl, j, pl[j + 3] + r, px, py, pz, dx, dy, dz);
    const nd = -(pl[j] * dx + pl[j + 1] * dy + pl[j + 2] * dz);
    const c = -pl[j + 3] + (pl[j] * px + pl[j + 1] * py + pl[j + 2] * pz);
    if (nd === 0) {
      if (c < 0) iv[0] = Infinity;
    } else if (nd > 0) {
      if (c / nd < iv[1]) iv[1] = c / nd;
    } else if (c / nd > iv[0]) iv[0] = c / nd;
    for (let k = ss[f]; k < ss[f + 1] && iv[0] <= iv[1]; k++)
      clipPlane(sd, 4 * k, sd[4 * k + 3], px, py, pz, dx, dy, dz);
    joinHull();
  }
  const eg = op.edgeSegs;
  for (let q = 0; q < eg.length; q += 7) {
    // The capsule's cylinder: 0 ≤ (x − a)·e ≤ len, the distance from the axis ≤ r.
    const ax = px - eg[q];
    const ay = py - eg[q + 1];
    const az = pz - eg[q + 2];
    const ex = eg[q + 3];
    const ey = eg[q + 4];
    const ez = eg[q + 5];
    const pe = ax * ex + ay * ey + az * ez;
    const de = dx * ex + dy * ey + dz * ez;
    resetIv();
    clipSlab(pe, de, 0, eg[q + 6]);
    if (iv[0] <= iv[1])
      clipRound(
        ax - pe * ex,
        ay - pe * ey,
        az - pe * ez,
        dx - de * ex,
        dy - de * ey,
        dz - de * ez,
        r,
      );
    joinHull();
  }
  const vt = op.verts;
  for (let i = 0; i < vt.length; i += 3) {
    resetIv();
    clipRound(px - vt[i], py - vt[i + 1], pz - vt[i + 2], dx, dy, dz, r);
    joinHull();
  }
  iv[0] = hullIv[0];
  iv[1] = hullIv[1];
}

/** The chord [s0, s1] being built (empty when s0 > s1). */
const iv = new Float64Array(2);
/** The hull [s0, s1] of a union's pieces' chords. */
const hullIv = new Float64Array(2);

/** iv ∩= {s : lo ≤ p + s·d ≤ hi} (a slab across one coordinate). */
function clipSlab(p: number, d: number, lo: number, hi: number): void {
  if (d === 0) {
    if (!(p >= lo && p <= hi)) {
      iv[0] = Infinity;
      iv[1] = -Infinity;
    }
    return;
  }
  let a = (lo - p) / d;
  let b = (hi - p) / d;
  if (a > b) {
    const t = a;
    a = b;
    b = t;
  }
  if (a > iv[0]) iv[0] = a;
  if (b < iv[1]) iv[1] = b;
}

/**
 * iv ∩= {s : (pa + s·da − ca)² + (pb + s·db − cb)² ≤ R²}: a disc's (ball's, cylinder's side's)
 * quadric, from the line's point nearest the centre (so the constant term does not cancel at a
 * far origin).
 */
function clipRound(
  pa: number,
  pb: number,
  pc: number,
  da: number,
  db: number,
  dc: number,
  R: number,
): void {
  const A = da * da + db * db + dc * dc;
  if (!(A > 0)) {
    if (!(pa * pa + pb * pb + pc * pc <= R * R)) {
      iv[0] = Infinity;
      iv[1] = -Infinity;
    }
    return;
  }
  const sc = -(pa * da + pb * db + pc * dc) / A;
  const ma = pa + sc * da;
  const mb = pb + sc * db;
  const mc = pc + sc * dc;
  const C = ma * ma + mb * mb + mc * mc - R * R;
  if (!(C <= 0)) {
    iv[0] = Infinity;
    iv[1] = -Infinity;
    return;
  }
  const hl = Math.sqrt(-C / A);
  if (sc - hl > iv[0]) iv[0] = sc - hl;
  if (sc + hl < iv[1]) iv[1] = sc + hl;
}

/** Widens hullIv by iv when iv is not empty. */
function joinHull(): void {
  if (iv[0] <= iv[1]) {
    if (iv[0] < hullIv[0]) hullIv[0] = iv[0];
    if (iv[1] > hullIv[1]) hullIv[1] = iv[1];
  }
}

function resetIv(): void {
  iv[0] = -Infinity;
  iv[1] = Infinity;
}

/**
 * The rounded box's chord (core half extents hx, hy, hz, radius r > 0) into iv: the hull of the
 * chords of its 23 convex pieces (the core grown along each axis, the edges' cylinders, the
 * corners' balls), whose union it is.
 */
function roundedBoxChord(
  px: number,
  py: number,
  pz: number,
  dx: number,
  dy: number,
  dz: number,
  hx: number,
  hy: number,
  hz: number,
  r: number,
): void {
  // Outside its outer box: no piece is met.
  resetIv();
  clipSlab(px, dx, -hx - r, hx + r);
  clipSlab(py, dy, -hy - r, hy + r);
  clipSlab(pz, dz, -hz - r, hz + r);
  if (!(iv[0] <= iv[1])) return;
  hullIv[0] = Infinity;
  hullIv[1] = -Infinity;
  resetIv();
  clipSlab(px, dx, -hx - r, hx + r);
  clipSlab(py, dy, -hy, hy);
  clipSlab(pz, dz, -hz, hz);
  joinHull();
  resetIv();
  clipSlab(px, dx, -hx, hx);
  clipSlab(py, dy, -hy - r, hy + r);
  clipSlab(pz, dz, -hz, hz);
  joinHull();
  resetIv();
  clipSlab(px, dx, -hx, hx);
  clipSlab(py, dy, -hy, hy);
  clipSlab(pz, dz, -hz - r, hz + r);
  joinHull();
  for (let i = 0; i < 4; i++) {
    const sa = i & 1 ? 1 : -1;
    const sb = i & 2 ? 1 : -1;
    // Edges along x (at y = ±hy, z = ±hz), along y, along z.
    resetIv();
    clipSlab(px, dx, -hx, hx);
    if (iv[0] <= iv[1]) clipRound(py - sa * hy, pz - sb * hz, 0, dy, dz, 0, r);
    joinHull();
    resetIv();
    clipSlab(py, dy, -hy, hy);
    if (iv[0] <= iv[1]) clipRound(px - sa * hx, pz - sb * hz, 0, dx, dz, 0, r);
    joinHull();
    resetIv();
    clipSlab(pz, dz, -hz, hz);
    if (iv[0] <= iv[1]) clipRound(px - sa * hx, py - sb * hy, 0, dx, dy, 0, r);
    joinHull();
  }
  for (let i = 0; i < 8; i++) {
    resetIv();
    clipRound(
      px - (i & 1 ? hx : -hx),
      py - (i & 2 ? hy : -hy),
      pz - (i & 4 ? hz : -hz),
      dx,
      dy,
      dz,
      r,
    );
    joinHull();
  }
  iv[0] = hullIv[0];
  iv[1] = hullIv[1];
}

/**
 * iv ∩= the cone {ρ ≤ k(ya − y), yb ≤ y ≤ ya} (ρ the distance from the y axis): the quadric
 * ρ² − k²(ya − y)² ≤ 0 is both nappes; the lower one's part of the line is the interval
 * between the roots when the line is flatter than the generators (A > 0), else the ray that
 * goes down (y → −∞); the slab then clips it.
 */
function clipCone(
  px: number,
  py: number,
  pz: number,
  dx: number,
  dy: number,
  dz: number,
  k: number,
  yb: number,
  ya: number,
): void {
  clipSlab(py, dy, yb, ya);
  if (!(iv[0] <= iv[1])) return;
  const k2 = k * k;
  const Y = ya - py;
  const A = dx * dx + dz * dz - k2 * dy * dy;
  const B = px * dx + pz * dz + k2 * Y * dy;
  const C = px * px + pz * pz - k2 * Y * Y;
  let lo = -Infinity;
  let hi = Infinity;
  if (A === 0) {
    if (B > 0) hi = -C / (2 * B);
    else if (B < 0) lo = -C / (2 * B);
    else if (C > 0) lo = Infinity;
  } else {
    const disc = B * B - A * C;
    if (disc < 0) {
      if (A > 0) lo = Infinity; // misses the double cone
      // A < 0: the whole line is inside the double cone (through the apex): the slab decides.
    } else {
      const sq = Math.sqrt(disc);
      const q = B >= 0 ? -(B + sq) : -(B - sq);
      let r1 = q / A;
      let r2 = q !== 0 ? C / q : r1;
      if (r1 > r2) {
        const t = r1;
        r1 = r2;
        r2 = t;
      }
      if (A > 0) {
        lo = r1;
        hi = r2;
      } else if (dy > 0) hi = r1;
      else lo = r2;
    }
  }
  if (lo > iv[0]) iv[0] = lo;
  if (hi < iv[1]) iv[1] = hi;
}

/**
 * The chord of `op` grown (σ = 1) or shrunk (σ = −1) by eps along the line p + s·d (its
 * canonical frame) into iv; empty (iv[0] > iv[1]) when it misses.
 */
function chordOf(
  op: ChordOperand,
  px: number,
  py: number,
  pz: number,
  dx: number,
  dy: number,
  dz: number,
  sigma: number,
  eps: number,
): void {
  resetIv();
  const g = sigma * eps;
  switch (op.kind) {
    case Op.Ball: {
      const r = op.r + g;
      if (!(r > 0)) break;
      clipRound(px, py, pz, dx, dy, dz, r);
      return;
    }
    case Op.Box: {
      const hx = op.hx + g;
      const hy = op.hy + g;
      const hz = op.hz + g;
      if (!(hx > 0 && hy > 0 && hz > 0)) break;
      clipSlab(px, dx, -hx, hx);
      clipSlab(py, dy, -hy, hy);
      clipSlab(pz, dz, -hz, hz);
      return;
    }
    case Op.Cylinder: {
      const h = op.hy + g;
      const r = op.r + g;
      if (!(h > 0 && r > 0)) break;
      clipSlab(py, dy, -h, h);
      if (iv[0] <= iv[1]) clipRound(px, pz, 0, dx, dz, 0, r);
      return;
    }
    case Op.Cone: {
      const h = op.hy;
      const k = op.r / (2 * h);
      // The slanted side moved by g along its normal moves the apex by g·√(1 + k²)/k.
      const ya = h + (g * Math.sqrt(1 + k * k)) / k;
      const yb = -h - g;
      if (!(ya > yb)) break;
      clipCone(px, py, pz, dx, dy, dz, k, yb, ya);
      return;
    }
    case Op.Capsule: {
      const r = op.r + g;
      if (!(r > 0)) break;
      const h = op.hy;
      hullIv[0] = Infinity;
      hullIv[1] = -Infinity;
      clipSlab(py, dy, -h, h);
      if (iv[0] <= iv[1]) clipRound(px, pz, 0, dx, dz, 0, r);
      joinHull();
      resetIv();
      clipRound(px, py - h, pz, dx, dy, dz, r);
      joinHull();
      resetIv();
      clipRound(px, py + h, pz, dx, dy, dz, r);
      joinHull();
      iv[0] = hullIv[0];
      iv[1] = hullIv[1];
      return;
    }
    case Op.RoundedBox: {
      let r = op.r + g;
      let hx = op.hx;
      let hy = op.hy;
      let hz = op.hz;
      if (r < 0) {
        // Shrunk by more than its radius: the core shrunk by the rest (its ε-neighbourhood
        // lies within the radius of the core).
        hx += r;
        hy += r;
        hz += r;
        r = 0;
        if (!(hx >= 0 && hy >= 0 && hz >= 0)) break;
      }
      if (r === 0) {
        clipSlab(px, dx, -hx, hx);
        clipSlab(py, dy, -hy, hy);
        clipSlab(pz, dz, -hz, hz);
        return;
      }
      roundedBoxChord(px, py, pz, dx, dy, dz, hx, hy, hz, r);
      return;
    }
    case Op.RoundedHull: {
      const r = op.r + g;
      if (r > 0) {
        roundedHullChord(op, px, py, pz, dx, dy, dz, r);
        return;
      }
      // Shrunk by more than its radius: the core's planes moved in by the rest (a point of that
      // polytope has the whole ball of the rest inside the core).
      const pl = op.planes;
      for (let j = 0; j < pl.length && iv[0] <= iv[1]; j += 4)
        clipPlane(pl, j, pl[j + 3] + r, px, py, pz, dx, dy, dz);
      return;
    }
    default: {
      const pl = op.planes;
      for (let j = 0; j < pl.length && iv[0] <= iv[1]; j += 4)
        clipPlane(pl, j, pl[j + 3] + g, px, py, pz, dx, dy, dz);
      return;
    }
  }
  iv[0] = Infinity;
  iv[1] = -Infinity;
}

/** A line's [lower, upper] chord length of A ∩ B (unit). */
const chordOut = new Float64Array(2);

/** [lower, upper] of the last {@link bracketIntegral} (unit^(power+…)). */
const bracketOut = new Float64Array(2);

/**
 * [lower, upper] of ∫ f^power over [t0, t1] into bracketOut, f concave on the interval I where it
 * is positive and 0 outside, 0 ≤ f ≤ cap, sampled as [lower, upper] (module doc): refined until
 * the gap (upper − lower) / 2 ≤ the target of the midpoint, or `maxSamples` are spent. Returns
 * false when no sample is certainly inside I (lower > 0): bracketOut is then [0, cap^power ×
 * (t1 − t0)].
 */
function bracketIntegral(
  sample: BracketSampler,
  t0: number,
  t1: number,
  power: number,
  cap: number,
  rel: number,
  abs: number,
  maxSamples: number,
): boolean {
  const ts: number[] = [];
  const lo: number[] = [];
  const hi: number[] = [];
  const out = new Float64Array(2);
  firstSamples(sample, t0, t1, FIRST_SAMPLES, ts, lo, hi, out);
  let lower = 0;
  let upper = 0;
  const history: number[] = [];
  for (;;) {
    const n = ts.length;
    let j = -1;
    let k = -1;
    for (let i = 0; i < n; i++) {
      if (lo[i] > 0) {
        if (j < 0) j = i;
        k = i;
      }
    }
    const marks = new Uint8Array(n);
    if (j < 0) {
      if (n >= UNCERTAIN_SAMPLES || n >= maxSamples) {
        bracketOut[0] = 0;
        bracketOut[1] = (power === 2 ? cap * cap : cap) * (t1 - t0);
        return false;
      }
      marks.fill(1);
    } else {
      lower = 0;
      upper = 0;
      // The nearest samples beyond the certain ones whose upper value is 0: the support ends
      // there (segmentBounds).
      let zl = -1;
      for (let i = j - 1; i >= 0; i--) {
        if (hi[i] === 0) {
          zl = i;
          break;
        }
      }
      let zr = Infinity;
      for (let i = k + 1; i < n; i++) {
        if (hi[i] === 0) {
          zr = i;
          break;
        }
      }
      const gaps = new Float64Array(n - 1);
      for (let i = 0; i + 1 < n; i++) {
        segmentBounds(ts, lo, hi, i, j, k, power, cap, true, zl, zr);
        lower += segmentOut[0];
        upper += segmentOut[1];
        gaps[i] = segmentOut[1] - segmentOut[0];
      }
      const mid = 0.5 * (upper + lower);
      const tol = Math.max(abs, rel * mid);
      const gap = 0.5 * (upper - lower);
      if (gap <= tol || n >= maxSamples) break;
      // No progress over four rounds: the gap is the samples' own width (the solids grown and
      // shrunk by ε across a slab of about ε), which splitting does not shrink.
      history.push(gap);
      if (history.length > 4 && gap > 0.9 * history[history.length - 5]) break;
      // Split the segments above their share, at least the widest.
      const share = (2 * tol) / (n - 1);
      let widest = 0;
      for (let i = 1; i + 1 < n; i++) if (gaps[i] > gaps[widest]) widest = i;
      for (let i = 0; i + 1 < n; i++) marks[i] = gaps[i] > share || i === widest ? 1 : 0;
    }
    if (!bisectMarked(sample, ts, lo, hi, marks, maxSamples, out)) break;
  }
  // The sums' own rounding.
  const rounding = 4 * ts.length * UNIT_ROUNDOFF * upper;
  bracketOut[0] = Math.max(0, lower - rounding);
  bracketOut[1] = upper + rounding;
  return true;
}

/** The answer of {@link chordVolume}: volume and bound (unit³). */
export interface ChordVolume {
  volume: number;
  errorBound: number;
}

/** The canonical axis (0, 1, 2) of the last {@link thinnest}. */
let thinAxis = 1;

/**
 * The least half size (unit) of an operand along its canonical axes, its axis into thinAxis (a
 * hull's: Infinity, its axes unknown here). The result is the caller's to compare.
 */
function thinnest(op: ChordOperand): number {
  let x: number;
  let y: number;
  let z: number;
  switch (op.kind) {
    case Op.Ball:
      x = y = z = op.r;
      break;
    case Op.Box:
      x = op.hx;
      y = op.hy;
      z = op.hz;
      break;
    case Op.RoundedBox:
      x = op.hx + op.r;
      y = op.hy + op.r;
      z = op.hz + op.r;
      break;
    case Op.Cylinder:
    case Op.Cone:
      x = z = op.r;
      y = op.hy;
      break;
    case Op.Capsule:
      x = z = op.r;
      y = op.hy + op.r;
      break;
    case Op.RoundedHull:
      // Its local box's half sizes about the origin (the core need not be centred there).
      x = op.hx + op.r;
      y = op.hy + op.r;
      z = op.hz + op.r;
      break;
    default:
      thinAxis = 1;
      return Infinity;
  }
  // Ties go to the axis (y): a cylinder's and a cone's slices across it are discs.
  if (y <= x && y <= z) {
    thinAxis = 1;
    return y;
  }
  thinAxis = x <= z ? 0 : 2;
  return Math.min(x, z);
}

/** out = the extent [min, max] of `s` at `pose` (A's frame) along the unit `dir`. */
function extentAlong(
  out: Float64Array,
  s: Shape,
  pose: Isometry,
  dir: [number, number, number],
): void {
  const local = vec3.create(dir[0], dir[1], dir[2]);
  quat.rotate(local, quat.conjugate(quat.identity(), pose.rotation), local);
  const p = supportOf(vec3.create(), s, local);
  const off =
    dir[0] * pose.translation.x + dir[1] * pose.translation.y + dir[2] * pose.translation.z;
  out[1] = off + vec3.dot(local, p);
  vec3.negate(local, local);
  supportOf(p, s, local);
  out[0] = off - vec3.dot(local, p);
}

/**
 * out = a range [min, max] along the unit `dir` holding A ∩ H, H the half-space operand `h`
 * ({p : n·p ≤ d}, n unit, in A's frame from its rows): for α = dir·n > 0, dir·x =
 * (dir − αn)·x + α n·x ≤ h_A(dir − αn) + α·d on A ∩ H (h_A the support function of A at the
 * identity), exact (d) when dir is n; likewise for −dir; unbounded (±Infinity) on a side where
 * α ≤ 0. Slices beyond it are wholly outside H (a rounded box cut square by a plane: its
 * slices past the plane had read [0, the cap] each).
 */
function halfSpaceExtent(
  out: Float64Array,
  a: Shape,
  h: ChordOperand,
  dir: [number, number, number],
): void {
  const R = h.rot;
  const pl = h.planes;
  const nx = pl[0] * R[0] + pl[1] * R[3] + pl[2] * R[6];
  const ny = pl[0] * R[1] + pl[1] * R[4] + pl[2] * R[7];
  const nz = pl[0] * R[2] + pl[1] * R[5] + pl[2] * R[8];
  const d = pl[3] + nx * h.origin[0] + ny * h.origin[1] + nz * h.origin[2];
  out[0] = -Infinity;
  out[1] = Infinity;
  const v = vec3.create();
  const p = vec3.create();
  for (let side = 1; side >= -1; side -= 2) {
    const alpha = side * (dir[0] * nx + dir[1] * ny + dir[2] * nz);
    if (!(alpha > 0)) continue;
    vec3.set(v, side * dir[0] - alpha * nx, side * dir[1] - alpha * ny, side * dir[2] - alpha * nz);
    supportOf(p, a, v);
    const bound = vec3.dot(v, p) + alpha * d;
    if (side === 1) out[1] = bound;
    else out[0] = -bound;
  }
}

/**
 * The volume of A ∩ B (module doc) for A at the identity and B at `bInA` (A's frame), both
 * {@link isChordable}. Refines until errorBound ≤ max(abs, rel × volume) or the sample budgets
 * are spent (the bound holds). Null when no slice is certainly inside the overlap (a sliver
 * thinner than the samples' spacing; the caller falls back to its general method).
 */
export function chordVolume(
  a: Shape,
  b: Shape,
  bInA: Isometry,
  rel: number,
  abs: number,
): ChordVolume | null {
  const idA: Isometry = { translation: vec3.create(), rotation: quat.identity() };
  const A = operandOf(a, idA);
  const B = operandOf(b, bInA);
  const radiusA = boundingRadiusOf(a);
  // A half-space (B only) is unbounded: its offset, not a radius, counts in the magnitude.
  const halfSpaceB = b.type === ShapeType.HalfSpace;
  const radiusB = halfSpaceB ? Infinity : boundingRadiusOf(b);
  const M =
    radiusA +
    (halfSpaceB ? Math.abs((b as HalfSpace).offset) : radiusB) +
    vec3.length(bInA.translation) +
    Math.abs(A.origin[0]) +
    Math.abs(A.origin[1]) +
    Math.abs(A.origin[2]);
  const eps = CHORD_MARGIN * M;
  // The slicing frame: the canonical axes of the solid that is thinnest along one of them, the
  // slices across that axis (a thin disc's slices are its discs, not strips of its thickness:
  // the chords of a strip narrower than the chords' spacing would leave the slice uncertain).
  const sizeA = thinnest(A);
  const axisA = thinAxis;
  const sizeB = thinnest(B);
  const F = sizeA <= sizeB ? A : B;
  const axis = sizeA <= sizeB ? axisA : thinAxis;
  const row = (i: number): [number, number, number] => [
    F.rot[3 * i],
    F.rot[3 * i + 1],
    F.rot[3 * i + 2],
  ];
  const w = row(axis);
  const e = row((axis + 1) % 3);
  const d = row((axis + 2) % 3);
  const ext = new Float64Array(2);
  const extB = new Float64Array(2);
  const range = (dir: [number, number, number]): [number, number] => {
    extentAlong(ext, a, idA, dir);
    if (halfSpaceB) halfSpaceExtent(extB, a, B, dir);
    else extentAlong(extB, b, bInA, dir);
    return [Math.max(ext[0], extB[0]) - 2 * eps, Math.min(ext[1], extB[1]) + 2 * eps];
  };
  const [t0, t1] = range(w);
  const [u0, u1] = range(e);
  const [s0, s1] = range(d);
  if (!(t0 < t1 && u0 < u1 && s0 < s1)) return { volume: 0, errorBound: 0 };
  // The lines' origin: the middle of the overlap's box, so |p| ≲ M in both frames.
  const sm = 0.5 * (s0 + s1);
  const c0: [number, number, number] = [sm * d[0], sm * d[1], sm * d[2]];
  // Per operand: base = R(c0 − T), and R·w, R·e, R·d.
  const frames = [A, B].map((op) => {
    const R = op.rot;
    const T = op.origin;
    const x = c0[0] - T[0];
    const y = c0[1] - T[1];
    const z = c0[2] - T[2];
    const mul = (v: [number, number, number]) => [
      R[0] * v[0] + R[1] * v[1] + R[2] * v[2],
      R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
      R[6] * v[0] + R[7] * v[1] + R[8] * v[2],
    ];
    return { base: mul([x, y, z]), W: mul(w), E: mul(e), D: mul(d) };
  });
  const fa = frames[0];
  const fb = frames[1];
  const chord = (t: number, u: number): void => {
    let lo = 0;
    let hi = 0;
    // Grown: the upper; shrunk: the lower.
    for (let sigma = 1; sigma >= -1; sigma -= 2) {
      const ax = fa.base[0] + t * fa.W[0] + u * fa.E[0];
      const ay = fa.base[1] + t * fa.W[1] + u * fa.E[1];
      const az = fa.base[2] + t * fa.W[2] + u * fa.E[2];
      chordOf(A, ax, ay, az, fa.D[0], fa.D[1], fa.D[2], sigma, eps);
      let p = iv[0];
      let q = iv[1];
      if (p <= q) {
        const bx = fb.base[0] + t * fb.W[0] + u * fb.E[0];
        const by = fb.base[1] + t * fb.W[1] + u * fb.E[1];
        const bz = fb.base[2] + t * fb.W[2] + u * fb.E[2];
        chordOf(B, bx, by, bz, fb.D[0], fb.D[1], fb.D[2], sigma, eps);
        if (iv[0] > p) p = iv[0];
        if (iv[1] < q) q = iv[1];
      }
      const len = q > p ? q - p : 0;
      if (sigma === 1) hi = len;
      else lo = len;
      // The shrunk solids' chord lies inside the grown ones'.
      if (len === 0) break;
    }
    chordOut[0] = Math.min(lo, hi);
    chordOut[1] = hi;
  };
  // Caps: a chord is at most the lesser diameter; a slice's area at most π/4 of its square.
  const diameter = 2 * Math.min(radiusA, radiusB) + 4 * eps;
  const areaCap = (Math.PI / 4) * diameter * diameter * (1 + 8 * UNIT_ROUNDOFF);
  const relSlice = Math.max(rel * SLICE_SHARE, 1e-9);
  const absSlice = (abs * SLICE_SHARE) / (t1 - t0);
  let sliceT = 0;
  const sample: BracketSampler = (u, o) => {
    chord(sliceT, u);
    o[0] = chordOut[0];
    o[1] = chordOut[1];
  };
  const slice: BracketSampler = (t, out) => {
    sliceT = t;
    const inside = bracketIntegral(sample, u0, u1, 1, diameter, relSlice, absSlice, MAX_CHORDS);
    const al = inside ? bracketOut[0] : 0;
    const ah = inside ? Math.min(bracketOut[1], areaCap) : areaCap;
    out[0] = Math.sqrt(al);
    out[1] = Math.sqrt(ah);
  };
  const certain = bracketIntegral(slice, t0, t1, 2, Math.sqrt(areaCap), rel, abs, MAX_SLICES);
  if (!certain) return null;
  const lower = bracketOut[0];
  const upper = bracketOut[1];
  const volume = 0.5 * (lower + upper);
  // The frame's orthonormality: a few roundings of the volume.
  const errorBound = 0.5 * (upper - lower) + 8 * UNIT_ROUNDOFF * upper;
  return { volume, errorBound };
}
