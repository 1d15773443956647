/**
 * The adaptive octree of {@link overlapVolume} (src/query/overlap-volume.ts), over operands that
 * each classify a ball and, inside a leaf cell, may offer a local convex piece:
 *
 * - a convex shape (a half-space included): its signed distance ψ (1-Lipschitz, convex) and a
 *   supporting plane normal to the direction between the cell's centre and its nearest boundary
 *   point, at the support function's offset ({@link ConvexOperand});
 * - the union of a compound's (solid) children: the least of the children's signed distances
 *   near the cell (a child whose box lies at least ρ from the centre misses the cell); in a leaf
 *   where exactly one child reaches the cell, the union there is that child, a convex piece;
 * - a closed solid (a mesh made with `solid: true`): its signed distance through the point
 *   projection (the sign from its pseudo-normals); in a leaf whose triangles all lie within a
 *   slab of half-width ε about one plane, the solid there is one side of the slab (decided by a
 *   cell corner beyond it): the piece is that side shrunk by ε, the upper half-space that side
 *   grown by ε.
 *
 * A cell of centre c and half-diagonal ρ is outside K = A ∩ B when an operand's value is ≥ ρ,
 * inside when both are ≤ −ρ; the others are split down to a depth, and at the leaves K's volume
 * in the cell is bracketed: above, by the cell clipped by the operands' upper half-spaces (all
 * of the cell for an operand without one); below, where both operands have pieces, by the parts
 * of the cell's six Kuhn tetrahedra where the linear interpolation of max(piece_A, piece_B) is
 * ≤ 0 (a convex function lies below its interpolation on a simplex), else by 0. The brackets
 * are second order in the cell size where both operands have pieces (the boundary of a convex
 * shape, a child alone, a mesh face), first order elsewhere (where compound children overlap,
 * along a mesh's edges and wherever a mesh's triangles are smaller than the cell).
 */

import { makeMeshBvhHits } from "../geometry/mesh-bvh.js";
import {
  boxFaces,
  clipPolytopeFaces,
  polytopeFacesVolume,
  tetrahedronFractionBelow,
} from "../geometry/polytope-volume.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { type CompositeView, makeCompositePart } from "../shapes/composite.js";
import type { HalfSpace } from "../shapes/half-space.js";
import { boundingRadiusOf, supportOf } from "../shapes/registry.js";
import { type Shape, ShapeType } from "../shapes/shape.js";
import { makePointProjection, projectPointLocal } from "./project-point.js";

/** The answer of one octree run: the volume, its bound, the cells spent, and completeness. */
export interface OctreeResult {
  volume: number;
  errorBound: number;
  cells: number;
  complete: boolean;
}

/** One side of the octree's intersection (in A's frame). */
export interface VolumeOperand {
  /**
   * Classifies the ball of radius `rho` about `c`: a value ≥ rho when the operand misses the
   * ball, ≤ −rho when it holds the ball. Remembers c for {@link piece} and {@link upperPlane}.
   */
  classify(c: Vec3, rho: number): number;
  /**
   * In the leaf cell last classified: the number of local convex pieces the operand offers
   * (0 when none), at most {@link MAX_PIECES}: the operand within the cell lies in the union of
   * their upper half-spaces, and holds each piece.
   */
  piece(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number;
  /**
   * After {@link piece}: out = the normal n of a half-space {n·p ≤ returned offset} that holds
   * piece i's part of the operand within the cell; NaN (out unset) when there is none.
   */
  upperPlane(i: number, out: Vec3): number;
  /** After {@link piece} (and {@link upperPlane}): piece i's convex function at p (≤ 0 on it). */
  pieceEval(i: number, p: Vec3): number;
  /**
   * The rounding of {@link classify}'s value beyond 64u·(|c| + rho): a ball is outside or
   * inside only when the value clears ±rho by this much more.
   */
  readonly rounding: number;
}

/** Most pieces an operand offers in one leaf (the upper bracket's inclusion–exclusion grows as 2^k). */
export const MAX_PIECES = 3;

/**
 * Signed distance and supporting planes of one posed convex shape (A's frame). The supporting
 * plane of a leaf is found in the shape's own frame — its normal the direction between the cell
 * centre and its closest point there, where a flat face's normal comes out exact (the
 * difference of two points that share their other coordinates) — and its offset is the shape's
 * support function along that normal (the largest n·p over the shape, plus its rounding), so
 * the half-space holds the shape whatever the normal's own rounding: a normal taken from the
 * closest point in A's frame, off by u·|c|/d, tilted a thin disc's face plane through its cells
 * and dropped most of the disc from the upper bracket (issue 16).
 */
export class ConvexOperand implements VolumeOperand {
  private readonly proj = makePointProjection();
  private readonly local = vec3.create();
  /** Normal of the last classified centre's supporting plane, the shape's frame (not unit). */
  private readonly localNormal = vec3.create();
  private readonly sup = vec3.create();
  private d = 0;
  /** Rounding slack of the support function in A's frame (unit). */
  private readonly slack: number;
  readonly rounding: number;

  constructor(
    private readonly shape: Shape,
    private readonly pose: Isometry,
  ) {
    // The support point's transform into A's frame and its dot product: a few roundings of the
    // shape's size and the pose's translation.
    const size = shape.type === ShapeType.HalfSpace ? 0 : boundingRadiusOf(shape);
    this.slack = 16 * UNIT_ROUNDOFF * (size + vec3.length(pose.translation));
    this.rounding = 4 * this.slack;
  }

  /** ψ of the shape at p (negative inside); leaves the local point and projection. */
  eval(p: Vec3): number {
    iso.inverseTransformPoint(this.local, this.pose, p);
    projectPointLocal(this.proj, this.shape, this.local, false);
    return this.proj.inside ? -this.proj.distance : this.proj.distance;
  }

  classify(c: Vec3, _rho: number): number {
    this.d = this.eval(c);
    // Outward: along c − closest outside, closest − c inside (none when c is on the boundary).
    if (this.d >= 0) vec3.sub(this.localNormal, this.local, this.proj.point);
    else vec3.sub(this.localNormal, this.proj.point, this.local);
    return this.d;
  }

  piece(): number {
    return 1;
  }

  upperPlane(_i: number, out: Vec3): number {
    // Every convex set lies behind {n·p ≤ h(n)}, h its support function.
    const n = this.localNormal;
    if (this.shape.type === ShapeType.HalfSpace) {
      // Its own plane n·q ≤ offset (local), in A's frame: (Rn)·p ≤ offset + (Rn)·t.
      const h = this.shape as HalfSpace;
      iso.transformVector(out, this.pose, h.normal);
      const off = h.offset + vec3.dot(out, this.pose.translation);
      return off + this.slack + 4 * UNIT_ROUNDOFF * (Math.abs(h.offset) + Math.abs(off));
    }
    if (!(vec3.normalize(n, n) > 0)) return Number.NaN;
    supportOf(this.sup, this.shape, n);
    iso.transformPoint(this.sup, this.pose, this.sup);
    iso.transformVector(out, this.pose, n);
    const off = vec3.dot(out, this.sup);
    return off + this.slack + 4 * UNIT_ROUNDOFF * Math.abs(off);
  }

  pieceEval(_i: number, p: Vec3): number {
    return this.eval(p);
  }
}

/** The distance from c to the box b (0 inside it). */
function boxDistance(b: Aabb, c: Vec3): number {
  const dx = Math.max(0, b.min.x - c.x, c.x - b.max.x);
  const dy = Math.max(0, b.min.y - c.y, c.y - b.max.y);
  const dz = Math.max(0, b.min.z - c.z, c.z - b.max.z);
  return Math.hypot(dx, dy, dz);
}

/** The union of convex solids (a compound's children), each with its box, A's frame. */
export class UnionOperand implements VolumeOperand {
  /** The children that reach the last classified ball (the first {@link MAX_PIECES}). */
  private readonly active = new Int32Array(MAX_PIECES);
  private count = 0;
  readonly rounding: number;

  constructor(
    private readonly parts: readonly ConvexOperand[],
    private readonly boxes: readonly Aabb[],
  ) {
    let r = 0;
    for (const p of parts) r = Math.max(r, p.rounding);
    this.rounding = r;
  }

  classify(c: Vec3, rho: number): number {
    // No child reaching the ball: certainly outside (Infinity clears every rounding margin).
    let best = Infinity;
    this.count = 0;
    for (let i = 0; i < this.parts.length; i++) {
      if (boxDistance(this.boxes[i], c) >= rho * (1 + 8 * UNIT_ROUNDOFF) + this.rounding) continue;
      const d = this.parts[i].classify(c, rho);
      if (d <= -rho) {
        // The ball lies in this child, so in the union; the child is the cell's piece.
        this.active[0] = i;
        this.count = 1;
        return d;
      }
      if (d < rho) {
        if (this.count < MAX_PIECES) this.active[this.count] = i;
        this.count++;
      }
      if (d < best) best = d;
    }
    return best;
  }

  piece(): number {
    // The children that reach the cell, when few: the union there is theirs.
    return this.count <= MAX_PIECES ? this.count : 0;
  }

  upperPlane(i: number, out: Vec3): number {
    return this.parts[this.active[i]].upperPlane(0, out);
  }

  pieceEval(i: number, p: Vec3): number {
    return this.parts[this.active[i]].pieceEval(0, p);
  }
}

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;
/** The slab of a mesh leaf: at most this fraction of the cell's half-diagonal, else no piece. */
const MESH_SLAB_MAX_FRACTION = 0.25;

/**
 * A closed solid composite (a mesh made with `solid: true`) at `pose` in A's frame: its signed
 * distance from the point projection, and a face's side as the piece of a leaf (module doc).
 */
export class SolidOperand implements VolumeOperand {
  private readonly proj = makePointProjection();
  private readonly local = vec3.create();
  private readonly hits = makeMeshBvhHits(16);
  private readonly slot = makeCompositePart();
  private readonly n = vec3.create();
  private readonly e1 = vec3.create();
  private readonly e2 = vec3.create();
  private readonly corner = vec3.create();
  private d = 0;
  private rho = 0;
  /** The last classified value's rounding (as the octree's test). */
  private margin = 0;
  /** The leaf's piece: 0 none, 1 the whole cell, 2 the half-space {pn·p ≤ pd − eps}. */
  private mode = 0;
  private readonly pn = vec3.create();
  private pd = 0;
  private eps = 0;
  /** The leaf's rounding pad (the query box's growth, the least corner distance that decides). */
  private pad = 0;
  /** Magnitude of the mesh's coordinates and of its pose (for the slab's rounding slack). */
  private readonly magnitude: number;
  /** Relative slack of the slab for rounding and the rotation's stretch (unitless). */
  private readonly slack: number;
  readonly rounding: number;

  constructor(
    private readonly shape: Shape,
    private readonly pose: Isometry,
    private readonly view: CompositeView,
    meshRadius: number,
  ) {
    this.magnitude = meshRadius + vec3.length(pose.translation);
    // A quaternion off unit length by δ = |q|² − 1 stretches what it turns by up to δ.
    const r = pose.rotation;
    const stretch = Math.abs(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w - 1);
    this.slack = 64 * UNIT_ROUNDOFF + 4 * stretch;
    this.rounding = this.slack * this.magnitude;
  }

  /** Signed distance at p (A's frame), negative inside. */
  private eval(p: Vec3): number {
    iso.inverseTransformPoint(this.local, this.pose, p);
    projectPointLocal(this.proj, this.shape, this.local, false);
    return this.proj.inside ? -this.proj.distance : this.proj.distance;
  }

  classify(c: Vec3, rho: number): number {
    this.d = this.eval(c);
    this.rho = rho;
    this.margin =
      64 * UNIT_ROUNDOFF * (Math.abs(c.x) + Math.abs(c.y) + Math.abs(c.z) + rho) + this.rounding;
    return this.d;
  }

  piece(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
    this.mode = 0;
    if (this.d <= -this.rho - this.margin) {
      this.mode = 1;
      return 1;
    }
    // The cell's box in the mesh's frame (the box of its eight corners there).
    let lx = Infinity;
    let ly = Infinity;
    let lz = Infinity;
    let hx = -Infinity;
    let hy = -Infinity;
    let hz = -Infinity;
    const q = this.corner;
    for (let k = 0; k < 8; k++) {
      vec3.set(q, k & 1 ? x1 : x0, k & 2 ? y1 : y0, k & 4 ? z1 : z0);
      iso.inverseTransformPoint(q, this.pose, q);
      lx = Math.min(lx, q.x);
      ly = Math.min(ly, q.y);
      lz = Math.min(lz, q.z);
      hx = Math.max(hx, q.x);
      hy = Math.max(hy, q.y);
      hz = Math.max(hz, q.z);
    }
    const size = Math.max(
      Math.abs(x0),
      Math.abs(y0),
      Math.abs(z0),
      Math.abs(x1),
      Math.abs(y1),
      Math.abs(z1),
    );
    // The corners' rounding in the mesh's frame: a triangle touching the cell within it is met
    // (a face lying on the cell's side, missed by an ulp, had left a corner on it to decide
    // which side of another face is inside: issue fresh43-05).
    const pad = this.slack * (this.magnitude + size);
    this.pad = pad;
    const count = this.view.queryAabb(
      this.hits,
      this.shape,
      lx - pad,
      ly - pad,
      lz - pad,
      hx + pad,
      hy + pad,
      hz + pad,
    );
    if (count === 0) return 0;
    // The plane of the largest triangle met, and how far every triangle met strays from it.
    const n = this.n;
    let best = 0;
    let d0 = 0;
    for (let h = 0; h < count; h++) {
      this.view.part(this.slot, this.shape, this.hits.ids[h]);
      const t = this.slot.triangle;
      vec3.sub(this.e1, t.b, t.a);
      vec3.sub(this.e2, t.c, t.a);
      vec3.cross(this.e1, this.e1, this.e2);
      const area = vec3.length(this.e1);
      if (area > best) {
        best = area;
        vec3.scale(n, this.e1, 1 / area);
        d0 = vec3.dot(n, t.a);
      }
    }
    if (!(best > 0)) return 0;
    let dev = 0;
    for (let h = 0; h < count; h++) {
      this.view.part(this.slot, this.shape, this.hits.ids[h]);
      const t = this.slot.triangle;
      dev = Math.max(
        dev,
        Math.abs(vec3.dot(n, t.a) - d0),
        Math.abs(vec3.dot(n, t.b) - d0),
        Math.abs(vec3.dot(n, t.c) - d0),
      );
    }
    const eps = dev + this.slack * (this.magnitude + size + Math.abs(d0));
    const halfDiagonal = 0.5 * Math.hypot(x1 - x0, y1 - y0, z1 - z0);
    if (eps > MESH_SLAB_MAX_FRACTION * halfDiagonal) return 0;
    // The plane in A's frame; the corners farthest beyond the slab on either side.
    const pn = this.pn;
    iso.transformVector(pn, this.pose, n);
    const pd = d0 + vec3.dot(pn, this.pose.translation);
    let kLo = -1;
    let kHi = -1;
    let sLo = -eps;
    let sHi = eps;
    for (let k = 0; k < 8; k++) {
      vec3.set(q, k & 1 ? x1 : x0, k & 2 ? y1 : y0, k & 4 ? z1 : z0);
      const s = vec3.dot(pn, q) - pd;
      if (s < sLo) {
        sLo = s;
        kLo = k;
      }
      if (s > sHi) {
        sHi = s;
        kHi = k;
      }
    }
    // Each side beyond the slab is convex and crossed by no triangle: wholly in or out of the
    // solid, as its farthest corner is.
    const inLo = kLo < 0 ? null : this.cornerInside(kLo, x0, y0, z0, x1, y1, z1);
    const inHi = kHi < 0 ? null : this.cornerInside(kHi, x0, y0, z0, x1, y1, z1);
    // A side beyond the slab whose corner is undecided: no piece.
    if ((kLo >= 0 && inLo === null) || (kHi >= 0 && inHi === null)) return 0;
    if (inLo !== false && inHi !== true && (inLo === true || inHi === false)) {
      this.pd = pd;
    } else if (inHi !== false && inLo !== true && (inHi === true || inLo === false)) {
      vec3.negate(pn, pn);
      this.pd = -pd;
    } else return 0;
    this.eps = eps;
    this.mode = 2;
    return 1;
  }

  private cornerInside(
    k: number,
    x0: number,
    y0: number,
    z0: number,
    x1: number,
    y1: number,
    z1: number,
  ): boolean | null {
    vec3.set(this.corner, k & 1 ? x1 : x0, k & 2 ? y1 : y0, k & 4 ? z1 : z0);
    const d = this.eval(this.corner);
    // A corner within the rounding of the surface decides nothing (null: no piece).
    if (Math.abs(d) <= this.pad) return null;
    return d < 0;
  }

  upperPlane(_i: number, out: Vec3): number {
    if (this.mode !== 2) return Number.NaN;
    vec3.copy(out, this.pn);
    return this.pd + this.eps;
  }

  pieceEval(_i: number, p: Vec3): number {
    if (this.mode === 1) return -this.rho;
    return vec3.dot(this.pn, p) - this.pd + this.eps;
  }
}

/** Kuhn triangulation of the unit cube: the corner indices (bit 0 = x, 1 = y, 2 = z). */
const KUHN_TETRAHEDRA: readonly (readonly number[])[] = [
  [0, 1, 3, 7],
  [0, 1, 5, 7],
  [0, 2, 3, 7],
  [0, 2, 6, 7],
  [0, 4, 5, 7],
  [0, 4, 6, 7],
];

/** Octree depth of the first refinement round of the adaptive method. */
const FIRST_DEPTH = 3;
/** Deepest octree level the adaptive method goes to. */
const MAX_DEPTH = 14;

/**
 * |A ∩ B| over the box [x0, x1] × [y0, y1] × [z0, z1] (which holds A ∩ B) by refinement rounds
 * of growing depth, until the bound meets max(abs, rel × volume) or `maxCells` cells (over all
 * rounds) are spent: the last complete round's answer (volume 0 ± the box's volume when not even
 * the first round completes).
 */
export function adaptiveVolume(
  a: VolumeOperand,
  b: VolumeOperand,
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
  rel: number,
  abs: number,
  maxCells: number,
): { volume: number; errorBound: number } {
  if (!(x0 < x1 && y0 < y1 && z0 < z1)) return { volume: 0, errorBound: 0 };
  let best = { volume: 0, errorBound: (x1 - x0) * (y1 - y0) * (z1 - z0) };
  let spent = 0;
  for (let depth = FIRST_DEPTH; depth <= MAX_DEPTH; depth++) {
    const r = octree(a, b, x0, y0, z0, x1, y1, z1, depth, maxCells - spent);
    spent += r.cells;
    if (r.complete && r.errorBound <= best.errorBound) {
      best = { volume: r.volume, errorBound: r.errorBound };
    }
    if (!r.complete || best.errorBound <= Math.max(abs, rel * best.volume)) break;
  }
  return best;
}

const corners = new Float64Array(8);
const cornersA = new Float64Array(8 * MAX_PIECES);
const cornersB = new Float64Array(8 * MAX_PIECES);
const planesA = new Float64Array(4 * MAX_PIECES);
const planesB = new Float64Array(4 * MAX_PIECES);
const planeNormal = vec3.create();
/** Set bits of 0…7 (the subsets of up to three pieces). */
const BIT_COUNT = [0, 1, 1, 2, 1, 2, 2, 3];

/**
 * Writes the upper planes of an operand's n pieces into `out` (4 per plane) and returns n, or 0
 * when a piece has none (its part of the operand is bounded only by the cell).
 */
function upperPlanes(op: VolumeOperand, n: number, out: Float64Array): number {
  for (let i = 0; i < n; i++) {
    const off = op.upperPlane(i, planeNormal);
    if (Number.isNaN(off)) return 0;
    out[4 * i] = planeNormal.x;
    out[4 * i + 1] = planeNormal.y;
    out[4 * i + 2] = planeNormal.z;
    out[4 * i + 3] = off;
  }
  return n;
}
const cornerPoint = vec3.create();
const centre = vec3.create();

/** One refinement round: the octree to `depth` levels over the box, within `budget` cells. */
function octree(
  a: VolumeOperand,
  b: VolumeOperand,
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
  depth: number,
  budget: number,
): OctreeResult {
  let volume = 0;
  let errorBound = 0;
  let cells = 0;
  // The cells' corners, sums of halves, are rounded by up to u per level of the box's largest
  // coordinate: a counted cell may gap or overlap its neighbours by that across each face.
  const mag = Math.max(
    Math.abs(x0),
    Math.abs(y0),
    Math.abs(z0),
    Math.abs(x1),
    Math.abs(y1),
    Math.abs(z1),
  );
  let tiling = 0;
  // Explicit stack of cells: min corner, size, level.
  const stack: number[] = [x0, y0, z0, x1 - x0, y1 - y0, z1 - z0, 0];
  while (stack.length > 0) {
    const level = stack.pop() as number;
    const sz = stack.pop() as number;
    const sy = stack.pop() as number;
    const sx = stack.pop() as number;
    const cz = stack.pop() as number;
    const cy = stack.pop() as number;
    const cx = stack.pop() as number;
    if (++cells > budget) return { volume, errorBound, cells, complete: false };
    vec3.set(centre, cx + 0.5 * sx, cy + 0.5 * sy, cz + 0.5 * sz);
    const rho = 0.5 * Math.hypot(sx, sy, sz);
    const cellVolume = sx * sy * sz;
    const da = a.classify(centre, rho);
    // The values' rounding: a ball is out or in only when they clear ±rho by more.
    const round =
      64 * UNIT_ROUNDOFF * (Math.abs(centre.x) + Math.abs(centre.y) + Math.abs(centre.z) + rho);
    if (da >= rho + round + a.rounding) continue;
    const db = b.classify(centre, rho);
    if (db >= rho + round + b.rounding) continue;
    if (da <= -rho - round - a.rounding && db <= -rho - round - b.rounding) {
      volume += cellVolume;
      tiling += (sx * sy + sy * sz + sz * sx) * (level + 2);
      continue;
    }
    if (level < depth) {
      const hx = 0.5 * sx;
      const hy = 0.5 * sy;
      const hz = 0.5 * sz;
      for (let k = 0; k < 8; k++) {
        stack.push(
          cx + (k & 1 ? hx : 0),
          cy + (k & 2 ? hy : 0),
          cz + (k & 4 ? hz : 0),
          hx,
          hy,
          hz,
          level + 1,
        );
      }
      continue;
    }
    // Upper bracket: the cell within both operands' unions of upper half-spaces.
    const x1c = cx + sx;
    const y1c = cy + sy;
    const z1c = cz + sz;
    const na = a.piece(cx, cy, cz, x1c, y1c, z1c);
    const nb = b.piece(cx, cy, cz, x1c, y1c, z1c);
    const ua = upperPlanes(a, na, planesA);
    const ub = upperPlanes(b, nb, planesB);
    let upper = 0;
    // Inclusion–exclusion over the nonempty subsets of each side's planes (the empty subset
    // alone for a side without planes): |C ∩ ∪U ∩ ∪V| = Σ (−1)^(|S|+|T|) |C ∩ U_S ∩ V_T|.
    for (let sa = ua === 0 ? 0 : 1; sa < 1 << ua; sa++) {
      for (let sb = ub === 0 ? 0 : 1; sb < 1 << ub; sb++) {
        let faces = boxFaces(cx, cy, cz, x1c, y1c, z1c);
        for (let i = 0; i < ua && faces.length > 0; i++) {
          if (!(sa & (1 << i))) continue;
          faces = clipPolytopeFaces(
            faces,
            planesA[4 * i],
            planesA[4 * i + 1],
            planesA[4 * i + 2],
            planesA[4 * i + 3],
          );
        }
        for (let j = 0; j < ub && faces.length > 0; j++) {
          if (!(sb & (1 << j))) continue;
          faces = clipPolytopeFaces(
            faces,
            planesB[4 * j],
            planesB[4 * j + 1],
            planesB[4 * j + 2],
            planesB[4 * j + 3],
          );
        }
        const v = polytopeFacesVolume(faces);
        // (−1)^(|S|+1) for a side with planes, 1 for one without.
        const odd = (ua === 0 ? 0 : BIT_COUNT[sa] + 1) + (ub === 0 ? 0 : BIT_COUNT[sb] + 1);
        upper += odd % 2 === 0 ? v : -v;
      }
    }
    upper = Math.min(cellVolume, Math.max(0, upper));
    // Lower bracket: the best over the piece pairs of where the interpolated max of the two
    // pieces is ≤ 0 in the Kuhn tetrahedra (each piece lies in its operand).
    let lower = 0;
    // Each piece shrunk by its values' rounding (so the region below lies in it).
    const roundA = round + a.rounding;
    const roundB = round + b.rounding;
    for (let i = 0; i < na; i++) {
      for (let k = 0; k < 8; k++) {
        vec3.set(cornerPoint, cx + (k & 1 ? sx : 0), cy + (k & 2 ? sy : 0), cz + (k & 4 ? sz : 0));
        cornersA[8 * i + k] = a.pieceEval(i, cornerPoint) + roundA;
      }
    }
    for (let j = 0; j < nb; j++) {
      for (let k = 0; k < 8; k++) {
        vec3.set(cornerPoint, cx + (k & 1 ? sx : 0), cy + (k & 2 ? sy : 0), cz + (k & 4 ? sz : 0));
        cornersB[8 * j + k] = b.pieceEval(j, cornerPoint) + roundB;
      }
    }
    for (let i = 0; i < na; i++) {
      for (let j = 0; j < nb; j++) {
        for (let k = 0; k < 8; k++) corners[k] = Math.max(cornersA[8 * i + k], cornersB[8 * j + k]);
        let l = 0;
        for (const t of KUHN_TETRAHEDRA) {
          l +=
            (cellVolume / 6) *
            tetrahedronFractionBelow(corners[t[0]], corners[t[1]], corners[t[2]], corners[t[3]]);
        }
        if (l > lower) lower = l;
      }
    }
    const lo = Math.min(lower, upper);
    volume += 0.5 * (lo + upper);
    tiling += (sx * sy + sy * sz + sz * sx) * (level + 2);
    errorBound += 0.5 * (upper - lo);
  }
  // The sums' rounding (each of at most `cells` additions off by u of the running total, a cell's
  // volume and its brackets by a few u) and the tiling's: an inside box answered by its cells had
  // summed to 4e-13 below its true volume with errorBound 0 (fresh-user finding, an L prism).
  const rounding =
    (cells + 16) * UNIT_ROUNDOFF * (volume + errorBound) + 4 * UNIT_ROUNDOFF * mag * tiling;
  return {
    volume,
    errorBound: (errorBound + rounding) * (1 + 4 * UNIT_ROUNDOFF),
    cells,
    complete: true,
  };
}
