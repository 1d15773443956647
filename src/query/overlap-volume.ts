/**
 * The volume of overlap of two shapes (an interference volume): `{volume, errorBound}`, the
 * true volume lying within `volume ± errorBound`. Every pair of shape types is answered:
 *
 * - **No volume**: a surface — a triangle, a flat convex polygon, a mesh that is not `solid`, a
 *   heightfield (a surface in every query, docs/FORMATS.md) — meets anything in a set of volume
 *   0: `{0, 0}`, half-spaces included.
 * - **Two half-spaces**: `Infinity` (errorBound 0) when they share an unbounded region (normals
 *   not exactly opposite, or opposite with a slab of positive thickness between the planes), 0
 *   when opposite normals touch or face each other across a gap.
 * - **Exact** (errorBound 0, up to rounding, which the bound covers): two spheres (the lens,
 *   src/query/volume.ts); a sphere and a box (a closed form, src/geometry/ball-box-volume.ts);
 *   two polytopes — boxes and convex hulls — by clipping one by every face plane of the other
 *   and summing the tetrahedra of the intersection polytope (src/geometry/polytope-volume.ts);
 *   a half-space with a sphere (a cap), with a polytope (clipped by its plane), with a solid
 *   mesh (the triangles clipped by the plane, src/query/overlap-volume-half-space.ts); a
 *   compound whose children's boxes do not overlap: the sum over its children, each pair by
 *   its own method (children that only touch share no volume); a convex shape certainly
 *   inside the other (src/query/overlap-volume-contained.ts: probe points inside by their inset
 *   and a rounding margin): its own closed-form volume (a hull's from its faces), exact at any
 *   aspect ratio — the octree's cells cannot resolve a shape much thinner in one direction than
 *   in the others (a disc of half height 1e-9 had taken 4–30 s for 15 % off, issue 16); a
 *   convex shape wholly on one side of a half-space: its volume or 0.
 * - **Sliced, with a rigorous bound**: a cylinder, a cone, a capsule or a sphere with a box, a
 *   convex hull or a half-space (src/query/overlap-volume-slices.ts): the slices across the
 *   curved shape's axis are discs clipped by the polytope's half-planes, their areas in closed
 *   form, the integral bracketed by Brunn's principle (√area is concave along the axis on a
 *   convex body) and bisected until the bound meets min(relativeTolerance, 1e-6) of the volume;
 *   milliseconds at any aspect ratio (a disc of half height 1e-12 cut across by a turned box had
 *   taken the octree's full budget for 1–20 %, issue 16).
 * - **By chords, with a rigorous bound**: two of a sphere, a cylinder, a cone, a capsule, a
 *   rounded box and a rounded hull (two spheres excepted), or a rounded box or a rounded hull
 *   with a box, a convex hull or a half-space (src/query/overlap-volume-chords.ts): the overlap is convex, so its chord length along
 *   parallel lines is concave across each slice and √(slice area) is concave along the slices'
 *   axis (Brunn's principle in dimensions 1 and 2); each solid's chord in closed form (planes,
 *   a ball's or a cylinder's side's quadric, a cone's; a capsule, a rounded box and a rounded
 *   hull as unions of such pieces), computed for the solid grown and shrunk by 2^-42 of the pair's magnitude (32
 *   times the frames' rounding), so each sample is an interval holding the true chord; the two
 *   nested brackets bisected until the bound meets `relativeTolerance` (default 1e-3) of the
 *   volume (a level whose gap stops shrinking — the ε-slab of a solid thinner than about 2^-30
 *   of the pair's magnitude — returns its bracket as it stands): 8–50 ms a query where the
 *   octree took 0.3–0.7 s (issue 16), a disc of half height 1e-9 cut by a cylinder in 20–40 ms
 *   to 0.15 % (the octree: its full budget for 2–20 %); a rounded hull with a box, a ball, a
 *   cylinder, a rounded hull or a half-space in 15–130 ms for a hull of 4–8 points, 0.5–1.4 s for
 *   one of 100 (each chord visits every face, edge and corner; the octree: 0.3–2.3 s, 3–5.6 s).
 *   A touch or a sliver thinner than the chords' spacing finds no slice certainly inside and
 *   goes to the octree.
 * - **A convex solid mesh as its hull**: a `solid: true` mesh whose solid is convex (the pair
 *   queries' test) is its vertices' hull through the routes above, the bound widened by the shell
 *   between the solid and the hull, measured per mesh (src/query/overlap-volume-convex-mesh.ts):
 *   a box with a 12-triangle box mesh in about 10 ms to a few ulps, where the octree had taken
 *   13–21 s (fresh-user findings 05, 06).
 * - **A far solid mesh or hull** (coordinates more than 4 extents from its frame's origin, as
 *   given in world coordinates): its copy moved by a grid centre c placed by its pose moved by c
 *   (src/query/overlap-volume-far.ts), so it takes the routes of the same shape placed there by
 *   a pose (a rounded box half-sunk in a box mesh given at 2^30 had fallen to the octree: 33 s
 *   for 1.5 %, fresh-user finding 44/03); a rotated pose's rounding of that placement is in the
 *   bound.
 * - **Adaptive, with a rigorous bound** for every other pair (a compound whose children overlap — the volume of the union of its children, never the sum; a solid mesh with
 *   anything but a half-space): an octree over the overlap of the two bounding boxes
 *   (src/query/overlap-volume-octree.ts). A cell of centre c and half-diagonal ρ is outside
 *   A ∩ B when an operand's signed distance (negative inside, 1-Lipschitz; a compound's the
 *   least of its children's, a solid mesh's from its point projection) is ≥ ρ at c, inside when
 *   both are ≤ −ρ; the others are split down to a depth, and at the leaves the volume in the
 *   cell is bracketed:
 *   - above, by the cell clipped by supporting planes of A and of B, normal along c − the
 *     closest point (taken in the shape's own frame), offset the support function there (every
 *     convex set lies behind its supporting planes, whatever the normal's rounding; a
 *     compound's children that reach the cell, up to three, by inclusion–exclusion; a solid
 *     mesh whose triangles in the cell lie in one thin slab, by that slab's outer side);
 *   - below, by the parts of the cell's six Kuhn tetrahedra where the linear interpolation of
 *     ψ = max(d_A, d_B)'s corner values is ≤ 0 (a convex ψ lies below its interpolation on a
 *     simplex, so that region is inside A ∩ B); 0 where an operand offers no convex piece.
 *   The brackets are second order in the cell size on convex boundaries, mesh faces and a
 *   single child's boundary, so the bound shrinks four times per level there; first order where
 *   children overlap inside one cell, along mesh edges and where a mesh's triangles are smaller
 *   than the cell. The answer is the sum of the midpoints, the bound the sum of the half-widths;
 *   the depth grows until the bound meets the tolerance or the cell budget (`maxCells`) is
 *   spent: at the budget the last complete round's answer and bound are returned (0 ± the box
 *   overlap's volume if not even the first round completes), so the bound always holds. A
 *   thin shape only partly inside the other stays slow and wide here (every cell it crosses is
 *   across), but its bound holds: a thin curved or rounded shape cut by another
 *   curved one when the chords find no slice certainly inside (a sliver, or a solid thinner
 *   than about 2^-30 of the pair's magnitude).
 */

import { CollideError, checkOptions, invalidValue, optionsSpec } from "../errors.js";
import { ballBoxVolumeBounded } from "../geometry/ball-box-volume.js";
import {
  clipPolytopeFaces,
  type PolytopeFaces,
  polytopeFacesVolume,
  polytopeFacesVolumeRounding,
} from "../geometry/polytope-volume.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { hypot3, productError, sumError, unitScaleFactor } from "../math/scalar.js";
import * as vec3 from "../math/vec3.js";
import { type CompositeView, compositeView } from "../shapes/composite.js";
import type { Compound } from "../shapes/compound.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { HalfSpace } from "../shapes/half-space.js";
import { aabbShape, type PolytopeAxes, shapeDef, supportOf } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { isConvexShapeType, SHAPE_TYPE_NAMES, ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import { boundingRadius } from "./cast-shapes.js";
// The cuboid's closed faces and planes are deferred to its operations module.
import "../shapes/defs/ops.js";
import {
  isScalablePair,
  pairMagnitudes,
  pairRescaleFactor,
  scaledShape,
} from "../narrowphase/extreme-scale.js";
import { pairPose } from "./frames.js";
import { chordVolume, isChordable } from "./overlap-volume-chords.js";
import { closedFormVolume, containedIn } from "./overlap-volume-contained.js";
import { convexMeshHull } from "./overlap-volume-convex-mesh.js";
import {
  aabbArea,
  farCentredPose,
  farCentredSolid,
  placementRounding,
} from "./overlap-volume-far.js";
import { solidBelowPlane } from "./overlap-volume-half-space.js";
import {
  adaptiveVolume,
  ConvexOperand,
  SolidOperand,
  UnionOperand,
  type VolumeOperand,
} from "./overlap-volume-octree.js";
import { isSliceable, sliceVolume } from "./overlap-volume-slices.js";
import {
  sphereSphereIntersection,
  sphereSphereVolumeErrorBound,
  sphereVolume,
  sphericalCapVolume,
} from "./volume.js";

/** The answer of {@link overlapVolume}: the volume (unit³) and a bound on its error (unit³). */
export interface OverlapVolume {
  /**
   * Volume of A ∩ B, in the cube of the scene unit; `Infinity` (exact) for two half-spaces that
   * share an unbounded region.
   */
  volume: number;
  /** The true volume lies in [volume − errorBound, volume + errorBound]; 0 when exact. */
  errorBound: number;
}

/** Options of {@link overlapVolume} (used by the sliced and the adaptive methods). */
export interface OverlapVolumeOptions {
  /**
   * Stop refining once errorBound ≤ relativeTolerance × volume (or the absolute `tolerance`).
   * Each halving of it costs about twice the time (two unit spheres at 1e-3: about 0.2 s).
   * @default 1e-3
   */
  relativeTolerance?: number;
  /** Stop refining once errorBound ≤ this (unit³). @default 0 (relative tolerance only) */
  tolerance?: number;
  /** Most octree cells evaluated over all refinement rounds. @default 2_000_000 */
  maxCells?: number;
}

const DEFAULT_RELATIVE_TOLERANCE = 1e-3;
const OVERLAP_VOLUME_SPEC = optionsSpec("overlapVolume", "options", {
  relativeTolerance: "number",
  tolerance: "number",
  maxCells: "number",
});
const DEFAULT_MAX_CELLS = 2_000_000;
/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitA = iso.identity();
const unitB = iso.identity();

/** True for a closed solid polytope (a box, a hull): its faces and planes are known. */
function isPolytope(t: number): boolean {
  const p = shapeDef(t).polytope;
  return p !== null && p.faces !== null && p.planes !== null;
}

/** True for a curved or rounded convex solid (a sphere, cylinder, cone, capsule, rounded shape). */
function isCurved(t: number): boolean {
  return isSliceable(t) || isRounded(t);
}

/** True for a rounded box or a rounded hull. */
function isRounded(t: number): boolean {
  return t === ShapeType.RoundedCuboid || t === ShapeType.RoundedConvexPolyhedron;
}

/** True for a flat polytope (a triangle): no volume. */
function isFlat(t: number): boolean {
  return shapeDef(t).polytope?.flat === true;
}

/**
 * The volume of overlap of two shapes at world poses: `{volume, errorBound}` (unit³), for every
 * pair of shape types. Per type: a convex solid is itself; a half-space is the solid behind its
 * plane (with a shape: the volume of the shape's part behind the plane; two half-spaces:
 * `Infinity` when they share an unbounded region, else 0); a compound is the union of its
 * children (overlapping children count once); a mesh made with `solid: true` is the solid it
 * bounds; a surface — a triangle, a flat polygon, a mesh that is not solid, a heightfield — has
 * no volume, so its overlap with anything is 0. Exact (errorBound covering only rounding) for
 * sphere–sphere, sphere–box, boxes and convex hulls (plane clipping), a half-space with a
 * sphere, a polytope or a solid mesh, compounds whose children's boxes do not overlap
 * (summed child by child), and a convex shape found inside the other (its closed-form volume,
 * at any aspect ratio); a cylinder, cone, capsule or sphere with a box, a hull or a half-space
 * by slices across its axis, bracketed by Brunn's concavity principle, to min(relativeTolerance,
 * 1e-6) of the volume in milliseconds at any aspect ratio; two curved solids (cylinder, cone,
 * capsule, sphere, rounded box, rounded hull) or a rounded shape with a polytope or a half-space
 * by chords across slices,
 * bracketed the same way in two dimensions, to `relativeTolerance` in tens of milliseconds;
 * the other pairs by an adaptive octree whose reported `errorBound` is
 * rigorous (up to rounding), refined until it meets `relativeTolerance`/`tolerance` or
 * `maxCells` is spent: see the module doc. A pair whose smaller shape is larger than 2^128 is
 * computed in units scaled by a power of two (exact) and scaled back. Throws `CollideError`
 * `invalid_value` for a bad shape, pose or option (naming it), or when a finite volume overflows
 * a double (naming the smaller shape; in milliseconds when a coarse first pass shows it). Sources:
 * Ericson 2005, §8.3.4 (polygon clipping); Hermite–Hadamard style convexity brackets for the
 * adaptive method; the divergence theorem for a mesh cut by a plane.
 */
export function overlapVolume(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  options: OverlapVolumeOptions = {},
): OverlapVolume {
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = iso.unitPose(unitA, poseA);
  poseB = iso.unitPose(unitB, poseB);
  const tiny = tinyPairVolume(a, poseA, b, poseB, options);
  if (tiny !== null) return tiny;
  const huge = hugePairVolume(a, poseA, b, poseB, options);
  if (huge !== null) return huge;
  const r = overlapVolumeOf(a, poseA, b, poseB, options);
  // Two half-spaces sharing an unbounded region: Infinity, exactly (errorBound 0).
  if (r.volume === Infinity && a.type === ShapeType.HalfSpace && b.type === ShapeType.HalfSpace)
    return r;
  if (Number.isFinite(r.volume) && Number.isFinite(r.errorBound)) return r;
  return overflowedVolume(r, a, poseA, b, poseB);
}

/** Below this pair magnitude (2^-128) the volume, a length cubed, nears the subnormals. */
const TINY_PAIR = 2 ** -128;
/** The smallest positive double (2^-1074), one ulp of the subnormals. */
const MIN_SUBNORMAL = 2 ** -1074;

/**
 * The overlap volume of a pair whose magnitude m — both shapes' sizes and B's offset from A —
 * is below 2^-128 (and not 0), answered in other units: A moved to the origin and B by their
 * offset (only when that difference is exact), both scaled by the power of two k that brings m
 * near 1 (exact: src/narrowphase/extreme-scale.ts), the absolute tolerance by k³; the answer's
 * volume and errorBound then divided by k³. Unscaled, the closed forms and the octree's cells
 * (lengths cubed, and their rounding bounds ε·length³) underflowed: two boxes of half extent
 * 1e-108 overlapping by 1.6e-323 answered 0 with errorBound 0. The division by k³ is exact unless
 * the result is subnormal; it is then rounded (at most twice, by the steps of the division), and
 * errorBound — itself divided and rounded up — grows by 2 · 2^-1074 to cover that rounding, so
 * |volume − exact| ≤ errorBound holds for the returned doubles. Null (the caller answers
 * unscaled) for a pair in range, a shape without a scaled copy (compounds, half-spaces,
 * surface meshes, heightfields), an inexact offset, or options the unscaled path must refuse.
 */
function tinyPairVolume(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  options: OverlapVolumeOptions,
): OverlapVolume | null {
  if (options === null || typeof options !== "object") return null;
  const tol = options.tolerance;
  if (tol !== undefined && !(typeof tol === "number" && tol >= 0 && Number.isFinite(tol)))
    return null;
  if (!isScalablePair(a, b)) return null;
  const ta = poseA.translation;
  const tb = poseB.translation;
  const dx = tb.x - ta.x;
  const dy = tb.y - ta.y;
  const dz = tb.z - ta.z;
  // The offset exact (a rounded one would move B by up to half an ulp of it).
  if (dx + ta.x !== tb.x || dy + ta.y !== tb.y || dz + ta.z !== tb.z) return null;
  if (tb.x - dx !== ta.x || tb.y - dy !== ta.y || tb.z - dz !== ta.z) return null;
  tinyOffset.translation.x = dx;
  tinyOffset.translation.y = dy;
  tinyOffset.translation.z = dz;
  const k = pairRescaleFactor(a, b, tinyOffset);
  const m = Math.max(
    pairMagnitudes[0],
    pairMagnitudes[1],
    Math.abs(dx),
    Math.abs(dy),
    Math.abs(dz),
  );
  if (!(k > 1) || !(m < TINY_PAIR) || !(m > 0)) return null;
  const sa = scaledShape(a, k);
  const sb = scaledShape(b, k);
  const pa: Isometry = { translation: vec3.create(), rotation: poseA.rotation };
  const pb: Isometry = {
    translation: { x: dx * k, y: dy * k, z: dz * k },
    rotation: poseB.rotation,
  };
  const scaledOptions: OverlapVolumeOptions =
    tol === undefined
      ? options
      : { ...options, tolerance: Math.min(tol * k * k * k, Number.MAX_VALUE) };
  const r = overlapVolumeOf(sa, pa, sb, pb, scaledOptions);
  const u = 1 / k;
  const volume = r.volume * u * u * u;
  let errorBound = r.errorBound * u * u * u;
  // Rounded up: the division's rounding of the bound (subnormal), then the volume's.
  if (errorBound < 2 ** -1022 || volume < 2 ** -1022) errorBound += 2 * MIN_SUBNORMAL;
  if (errorBound > 0 || r.errorBound > 0 || volume !== r.volume * u * u * u) {
    errorBound = Math.max(errorBound, MIN_SUBNORMAL);
  }
  return { volume, errorBound };
}

const tinyOffset: Isometry = iso.identity();

/**
 * An answer whose volume or bound overflowed a double (shapes of about 1e102 and more: a volume
 * is a length cubed). A finite volume whose bound overflowed keeps a rigorous bound from the
 * overlap of the two world boxes, of volume T ≥ the true volume: the true volume lies in [0, T],
 * so |volume − true| ≤ max(volume, T − volume). Otherwise refused with `invalid_value` naming
 * the smaller shape (`a` or `b`, its bounding radius as the value): the overlap lies inside it,
 * and its volume is what overflows — never an Infinity or a NaN in the answer or the message.
 */
function overflowedVolume(
  r: OverlapVolume,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
): OverlapVolume {
  const boxA = aabbShape({ min: vec3.create(), max: vec3.create() }, a, poseA);
  const boxB = aabbShape({ min: vec3.create(), max: vec3.create() }, b, poseB);
  const ex = Math.min(boxA.max.x, boxB.max.x) - Math.max(boxA.min.x, boxB.min.x);
  const ey = Math.min(boxA.max.y, boxB.max.y) - Math.max(boxA.min.y, boxB.min.y);
  const ez = Math.min(boxA.max.z, boxB.max.z) - Math.max(boxA.min.z, boxB.min.z);
  // Rounded up by a few ulps: the boxes' own rounding is far below that.
  const t = Math.max(0, ex) * Math.max(0, ey) * Math.max(0, ez) * (1 + 8 * UNIT_ROUNDOFF);
  if (Number.isFinite(r.volume) && r.volume >= 0 && Number.isFinite(t)) {
    const volume = Math.min(r.volume, t);
    return { volume, errorBound: Math.max(volume, t - volume) };
  }
  const ra = a.type === ShapeType.HalfSpace ? Infinity : boundingRadius(a);
  const rb = b.type === ShapeType.HalfSpace ? Infinity : boundingRadius(b);
  const field = rb < ra ? "b" : "a";
  const radius = Math.min(ra, rb);
  // (4/3)πr³ of the smaller shape's bounding sphere, which holds the overlap.
  const ball = (4 / 3) * Math.PI * radius * radius * radius;
  const why = Number.isFinite(ball)
    ? "the volume computation overflows a double at this scale"
    : `the overlap lies inside ${field}, whose bounding sphere's volume, about ${powerOfTen(
        Math.log10(4 / 3) + Math.log10(Math.PI) + 3 * Math.log10(radius),
      )} unit³, exceeds the largest double (about 1.8e308)`;
  throw new CollideError(
    "invalid_value",
    field,
    radius,
    `overlapVolume: ${field} is too large for a finite overlap volume: ${why}; scale the scene down (got ${field}'s bounding radius ${radius})`,
  );
}

/** 10^e as text with three significant digits (`4.19e309`), for numbers beyond a double. */
function powerOfTen(e: number): string {
  const f = Math.floor(e);
  return `${(10 ** (e - f)).toFixed(2)}e${f}`;
}

function overlapVolumeOf(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  options: OverlapVolumeOptions,
): OverlapVolume {
  readOptions(options);
  return pairVolume(a, poseA, b, poseB, checkedOptions[0], checkedOptions[1], checkedOptions[2]);
}

/** relativeTolerance, tolerance, maxCells of the last {@link readOptions}. */
const checkedOptions = new Float64Array(3);

/** Validates `options` (throwing `invalid_value` naming the field) into {@link checkedOptions}. */
function readOptions(options: OverlapVolumeOptions): void {
  if (options === undefined) invalidValue("options", options, "must be an object");
  checkOptions(options, OVERLAP_VOLUME_SPEC);
  const rel = options.relativeTolerance ?? DEFAULT_RELATIVE_TOLERANCE;
  const abs = options.tolerance ?? 0;
  const maxCells = options.maxCells ?? DEFAULT_MAX_CELLS;
  if (typeof rel !== "number" || !(rel >= 0) || !Number.isFinite(rel))
    invalidValue("options.relativeTolerance", rel, "must be a finite number ≥ 0");
  if (typeof abs !== "number" || !(abs >= 0) || !Number.isFinite(abs))
    invalidValue("options.tolerance", abs, "must be a finite number ≥ 0");
  if (!Number.isInteger(maxCells) || maxCells < 1)
    invalidValue("options.maxCells", maxCells, "must be an integer ≥ 1");
  checkedOptions[0] = rel;
  checkedOptions[1] = abs;
  checkedOptions[2] = maxCells;
}

/** Above this size of the smaller shape (2^128) the volume is computed in units scaled by a power of two. */
const HUGE_PAIR = 2 ** 128;
/** The probe's cell budget and relative tolerance ({@link hugePairVolume}). */
const PROBE_MAX_CELLS = 20_000;
/** Largest scaled size of the smaller shape {@link hugePairVolume} uses (2^64). */
const HUGE_SCALED_MAX = 2 ** 64;
const PROBE_RELATIVE_TOLERANCE = 1 / 8;

/**
 * The overlap volume of a pair whose smaller shape's size m (its largest local coordinate or
 * radius; a half-space has none) is above 2^128 (and finite), answered in other units: every
 * length — the shapes', the translations', a half-space's offset (its normal unchanged) —
 * multiplied by the power of two k that brings m near 1 (exact:
 * src/narrowphase/extreme-scale.ts), the absolute tolerance by k³, and the answer's volume and
 * errorBound multiplied back by (1/k)³ — exact, as every length was, unless it overflows. The
 * overlap lies in the smaller shape, so it is of order 1 in those units (the larger shape and
 * the offset keep their ratio to it, as at unit scale); a pair whose smaller shape is below 2^128
 * is answered unscaled (its volume cannot overflow, and scaling by the larger would flush a
 * small shape's volume to 0). Unscaled, the octree's cells (lengths cubed) overflowed to
 * Infinity, its bound never met the tolerance and it spent its whole cell budget before the
 * overflow was refused: a rounded box or a rounded hull of 1e105..1e300 with a box took 3–140 s
 * to be refused (fresh-user finding 04, issue 16).
 *
 * Refusal stays sound and becomes fast: when the upper bound t — the overlap of the two scaled
 * bounding boxes, or either shape's own closed-form volume — scaled back overflows, a probe (the
 * same computation at relativeTolerance 1/8 and at most 20,000 octree cells) brackets the volume
 * in [v − e, v + e] (its bound always holds); if even v − e scaled back overflows, the true
 * volume does, and the pair is refused at once, naming the smaller shape as before. Otherwise the
 * full computation runs; its bracket is intersected with [0, t] (a thin turned slab of 2^400 by
 * 2^-400 across a box had been refused: its clipping's rounding bound overflowed), and a result
 * that still overflows scaled back is refused.
 *
 * Null (the caller answers unscaled) for a pair whose smaller shape is in range, two balls
 * (their lens works in units of the smaller radius itself), a compound, a surface mesh or a
 * heightfield (no scaled copy), a non-finite size (left for validation to name), or a length
 * the scaling would round at every k tried (a translation or size below 2^-1022 / k: a scaled
 * copy must be exact).
 */
function hugePairVolume(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  options: OverlapVolumeOptions,
): OverlapVolume | null {
  if (a === null || typeof a !== "object" || b === null || typeof b !== "object") return null;
  if (!hugeScalable(a) || !hugeScalable(b)) return null;
  // Validation first, naming the argument (a bad pose or shape is refused as unscaled).
  pairPose(a, poseA, b, poseB);
  // The smaller shape's size (a half-space has none): the overlap lies in that shape, so its
  // volume — not the larger one's or the offset — decides whether doubles can hold the answer.
  const ma = a.type === ShapeType.HalfSpace ? Infinity : hugeMagnitude(a);
  const mb = b.type === ShapeType.HalfSpace ? Infinity : hugeMagnitude(b);
  const m = Math.min(ma, mb);
  if (!(m > HUGE_PAIR) || m === Infinity) return null;
  // Two balls keep their lens, computed in units of the smaller radius already.
  if (a.type === ShapeType.Sphere && b.type === ShapeType.Sphere) return null;
  readOptions(options);
  const rel = checkedOptions[0];
  const abs = checkedOptions[1];
  const maxCells = checkedOptions[2];
  // k brings m near 1 (the larger shape and the translations stay in their ratio to it, as at
  // unit scale); raised by 2^32 at a time (m·k up to 2^64) while a length would round (a box
  // of 1e200 by 1e-120).
  let k = unitScaleFactor(m);
  let sa: Shape | null = null;
  let sb: Shape | null = null;
  let pa: Isometry | null = null;
  let pb: Isometry | null = null;
  for (; m * k <= HUGE_SCALED_MAX; k *= 2 ** 32) {
    sa = hugeScaled(a, k);
    sb = hugeScaled(b, k);
    pa = hugeScaledPose(poseA, k);
    pb = hugeScaledPose(poseB, k);
    if (sa !== null && sb !== null && pa !== null && pb !== null) break;
  }
  if (sa === null || sb === null || pa === null || pb === null) return null;
  const u = 1 / k;
  const back = (v: number): number => v * u * u * u;
  // An upper bound: the overlap of the two scaled boxes (a half-space's is unbounded), or
  // either shape's own volume where it has a closed form (a thin turned slab's box is fat).
  const t = Math.min(boxOverlapVolume(sa, pa, sb, pb), ownVolumeAbove(sa), ownVolumeAbove(sb));
  if (!(back(t) < Infinity)) {
    const probe = pairVolume(
      sa,
      pa,
      sb,
      pb,
      Math.max(rel, PROBE_RELATIVE_TOLERANCE),
      abs * k * k * k,
      Math.min(maxCells, PROBE_MAX_CELLS),
    );
    // Two half-spaces sharing an unbounded region (Infinity, exact) keep their answer.
    if (probe.volume === Infinity && probe.errorBound === 0) return probe;
    // The probe's lower end, rounded down: the true volume is at least this.
    const lower = (probe.volume - probe.errorBound) * (1 - 4 * UNIT_ROUNDOFF);
    if (back(lower) === Infinity) return overflowedVolume(HUGE_REFUSED, a, poseA, b, poseB);
  }
  const r = pairVolume(sa, pa, sb, pb, rel, abs * k * k * k, maxCells);
  if (r.volume === Infinity && r.errorBound === 0) return r;
  let v = r.volume;
  let e = r.errorBound;
  if (v + e > t) {
    // The true volume lies in [0, t] too (a thin turned slab's clipping, its faces' rounding
    // far above its volume): the midpoint and half-width of the two ranges' intersection.
    const lo = Math.max(0, (v - e) * (1 - 4 * UNIT_ROUNDOFF));
    const hi = Math.max(lo, Math.min(t, (v + e) * (1 + 4 * UNIT_ROUNDOFF)));
    v = 0.5 * (lo + hi);
    e = Math.max(v - lo, hi - v) * (1 + 4 * UNIT_ROUNDOFF);
  }
  const volume = back(v);
  const errorBound = back(e);
  if (!(volume < Infinity) || !(errorBound < Infinity))
    return overflowedVolume(HUGE_REFUSED, a, poseA, b, poseB);
  return { volume, errorBound };
}

/** A result that overflowed: {@link overflowedVolume} refuses it naming the smaller shape. */
const HUGE_REFUSED: OverlapVolume = { volume: Infinity, errorBound: Infinity };

/** True for a shape {@link hugePairVolume} can scale: one with a scaled copy, or a half-space. */
function hugeScalable(s: Shape): boolean {
  if (s.type === ShapeType.HalfSpace) return true;
  if (typeof s.type !== "number" || SHAPE_TYPE_NAMES[s.type] === undefined) return false;
  return isScalablePair(s, s);
}

/** The size of `s` (its largest local coordinate or radius; a half-space's offset). */
function hugeMagnitude(s: Shape): number {
  if (s.type === ShapeType.HalfSpace) return Math.abs((s as HalfSpace).offset);
  pairRescaleFactor(s, s, iso.identity());
  return pairMagnitudes[0];
}

/** `s` with every length times k, or null when a length would round (it must be exact). */
function hugeScaled(s: Shape, k: number): Shape | null {
  const c =
    s.type === ShapeType.HalfSpace
      ? ({ ...s, offset: (s as HalfSpace).offset * k } as Shape)
      : scaledShape(s, k);
  return scaledExactly(s, c, 1 / k, 0) ? c : null;
}

/** `p` with its translation times k, or null when a coordinate would round. */
function hugeScaledPose(p: Isometry, k: number): Isometry | null {
  const t = p.translation;
  const x = t.x * k;
  const y = t.y * k;
  const z = t.z * k;
  const u = 1 / k;
  if (x * u !== t.x || y * u !== t.y || z * u !== t.z) return null;
  return { translation: { x, y, z }, rotation: p.rotation };
}

/**
 * True when every number of the scaled copy `c` of `s` is either unchanged (a unit normal, a
 * type, a count) or gives back its original times `u` = 1/k exactly — a length scaled without
 * rounding (k a power of two: rounds only below the normal doubles). Walks plain fields, nested
 * objects and typed arrays.
 */
function scaledExactly(s: unknown, c: unknown, u: number, depth: number): boolean {
  if (typeof s === "number") return c === s || (c as number) * u === s;
  if (s === null || typeof s !== "object" || c === null || typeof c !== "object") return true;
  if (depth > 4 || s === c) return true;
  if (ArrayBuffer.isView(s)) {
    const x = s as unknown as ArrayLike<number>;
    const y = c as unknown as ArrayLike<number>;
    if (x === y) return true;
    for (let i = 0; i < x.length; i++) if (!(y[i] === x[i] || y[i] * u === x[i])) return false;
    return true;
  }
  for (const key of Object.keys(s)) {
    if (
      !scaledExactly(
        (s as Record<string, unknown>)[key],
        (c as Record<string, unknown>)[key],
        u,
        depth + 1,
      )
    )
      return false;
  }
  return true;
}

/**
 * A shape's volume rounded up (its closed form, or a hull's from its faces plus their rounding),
 * Infinity for one without (a half-space, a rounded hull, a surface: then unused).
 */
function ownVolumeAbove(s: Shape): number {
  const v = closedFormVolume(s);
  if (v !== null) return v * (1 + 32 * UNIT_ROUNDOFF);
  if (s.type !== ShapeType.ConvexPolyhedron || !isPolytope(s.type) || isFlat(s.type))
    return Infinity;
  const faces = polytopeFacesOf(s, iso.identity());
  const w = polytopeFacesVolume(faces) + polytopeFacesVolumeRounding(faces);
  return Number.isNaN(w) ? Infinity : w * (1 + 4 * UNIT_ROUNDOFF);
}

/** The volume of the overlap of two shapes' world boxes, rounded up (Infinity if unbounded). */
function boxOverlapVolume(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): number {
  const boxA = aabbShape({ min: vec3.create(), max: vec3.create() }, a, poseA);
  const boxB = aabbShape({ min: vec3.create(), max: vec3.create() }, b, poseB);
  // Each side grown by 2^-40 of its ends' magnitude: the boxes' own rounding is far below.
  const side = (lo: number, hi: number) => hi - lo + 2 ** -40 * (Math.abs(lo) + Math.abs(hi));
  const ex = side(Math.max(boxA.min.x, boxB.min.x), Math.min(boxA.max.x, boxB.max.x));
  const ey = side(Math.max(boxA.min.y, boxB.min.y), Math.min(boxA.max.y, boxB.max.y));
  const ez = side(Math.max(boxA.min.z, boxB.min.z), Math.min(boxA.max.z, boxB.max.z));
  if (Number.isNaN(ex) || Number.isNaN(ey) || Number.isNaN(ez)) return Infinity;
  if (!(ex > 0 && ey > 0 && ez > 0)) return 0;
  const v = ex * ey * ez * (1 + 8 * UNIT_ROUNDOFF);
  return Number.isNaN(v) ? Infinity : v;
}

/** How a shape takes part in an overlap volume. */
const Kind = {
  /** No volume: a triangle, a flat polygon, a surface mesh, a heightfield. */
  Surface: 0,
  /** A convex solid (support-mapped, not flat). */
  Convex: 1,
  /** A half-space. */
  HalfSpace: 2,
  /** A closed solid composite (a mesh made with `solid: true`). */
  Solid: 3,
  /** The union of its parts (a compound). */
  Union: 4,
} as const;

function kindOf(field: string, s: Shape): number {
  if (isConvexShapeType(s.type)) return isFlat(s.type) ? Kind.Surface : Kind.Convex;
  if (s.type === ShapeType.HalfSpace) return Kind.HalfSpace;
  const view = compositeView(s.type);
  if (view !== null) {
    if (view.isSolid?.(s) === true) return Kind.Solid;
    // The parts of a surface (its triangles) have no volume; a compound is the union of its own.
    return view.edgeFlags ? Kind.Surface : Kind.Union;
  }
  const name = SHAPE_TYPE_NAMES[s.type] ?? String(s.type);
  throw new CollideError(
    "unsupported_pair",
    `${field}.type`,
    name,
    `overlapVolume: a ${name} has no volume this version knows`,
  );
}

/** The overlap volume of any two validated shapes, options checked (recursive for compounds). */
function pairVolume(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  rel: number,
  abs: number,
  maxCells: number,
): OverlapVolume {
  const bInA = iso.copy(iso.identity(), pairPose(a, poseA, b, poseB));
  const ka = kindOf("a", a);
  const kb = kindOf("b", b);
  if (ka === Kind.Surface || kb === Kind.Surface) return { volume: 0, errorBound: 0 };
  // A solid mesh or a hull given far from its frame's origin: its centred copy, placed by its
  // pose moved by the centre (src/query/overlap-volume-far.ts), as the same shape placed there
  // by a pose; the bound widened by the volume that placement's rounding δ can move.
  const fa = ka === Kind.Solid || ka === Kind.Convex ? farCentredSolid(a) : null;
  const fb = kb === Kind.Solid || kb === Kind.Convex ? farCentredSolid(b) : null;
  if (fa !== null || fb !== null) {
    const pa = fa === null ? poseA : iso.identity();
    const pb = fb === null ? poseB : iso.identity();
    const da = fa === null ? 0 : farCentredPose(pa, poseA, fa.centre) * fa.area;
    const db = fb === null ? 0 : farCentredPose(pb, poseB, fb.centre) * fb.area;
    const r = pairVolume(fa?.shape ?? a, pa, fb?.shape ?? b, pb, rel, abs, maxCells);
    if (da + db === 0) return r;
    return { volume: r.volume, errorBound: (r.errorBound + da + db) * (1 + 4 * UNIT_ROUNDOFF) };
  }
  if (ka === Kind.HalfSpace && kb === Kind.HalfSpace)
    return halfSpaceHalfSpace(a as HalfSpace, b as HalfSpace, bInA);
  if (ka === Kind.HalfSpace || kb === Kind.HalfSpace) {
    const flip = ka === Kind.HalfSpace;
    const s = flip ? b : a;
    const poseS = flip ? poseB : poseA;
    const h = (flip ? a : b) as HalfSpace;
    const poseH = flip ? poseA : poseB;
    const k = flip ? kb : ka;
    // In the solid's frame, from the world poses: both argument orders give the same bits.
    const exact = k === Kind.Convex || k === Kind.Solid ? halfSpaceExact(s, poseS, h, poseH) : null;
    if (exact !== null) return exact;
    // A cylinder, cone or capsule partly behind the plane: sliced across its axis.
    if (isSliceable(s.type)) {
      const sliced = sliceVolume(s, poseS, h, poseH, rel, abs);
      if (sliced !== null) return sliced;
    }
    // A rounded box or a rounded hull: by chords, in the solid's frame (both orders the same).
    if (isRounded(s.type)) {
      const hInS = iso.copy(iso.identity(), pairPose(s, poseS, h, poseH));
      const chords = chordVolume(s, h, hInS, rel, abs);
      if (chords !== null) return chords;
    }
  }
  // A convex solid mesh: as its hull, the bound widened by the shell between them
  // (src/query/overlap-volume-convex-mesh.ts).
  if (ka === Kind.Solid || kb === Kind.Solid) {
    const ha = ka === Kind.Solid ? convexMeshHull(a) : null;
    const hb = kb === Kind.Solid ? convexMeshHull(b) : null;
    if (ha !== null || hb !== null) {
      const r = pairVolume(ha?.hull ?? a, poseA, hb?.hull ?? b, poseB, rel, abs, maxCells);
      if (r.volume === 0 && r.errorBound === 0 && boxesApart(a, poseA, b, poseB)) return r;
      const inner = (ha?.inner ?? 0) + (hb?.inner ?? 0);
      const outer = (ha?.outer ?? 0) + (hb?.outer ?? 0);
      // [hull's low end − inner, hull's high end + outer], the low end at least 0.
      const round = 1 + 8 * UNIT_ROUNDOFF;
      const hi = (r.volume + r.errorBound + outer) * round;
      const lo = Math.max(0, (r.volume - r.errorBound - inner) * round);
      return { volume: 0.5 * (lo + hi), errorBound: 0.5 * (hi - lo) * round };
    }
  }
  if (ka === Kind.Union || kb === Kind.Union) {
    const split =
      ka === Kind.Union
        ? disjointChildrenVolume(a as Compound, poseA, b, poseB, rel, abs, maxCells, false)
        : disjointChildrenVolume(b as Compound, poseB, a, poseA, rel, abs, maxCells, true);
    if (split !== null) return split;
  }
  if (ka === Kind.Convex && kb === Kind.Convex) {
    if (a.type === ShapeType.Sphere && b.type === ShapeType.Sphere) {
      // From the world centres (a ball turns into itself): both orders give the same bits.
      const ra = (a as Sphere).radius;
      const rb = (b as Sphere).radius;
      const r = sphereSphereIntersection(poseA.translation, ra, poseB.translation, rb);
      const errorBound = sphereSphereVolumeErrorBound(
        poseA.translation,
        ra,
        poseB.translation,
        rb,
        r.volume,
      );
      return { volume: r.volume, errorBound };
    }
    // One inside the other: its volume in closed form (a thin shape's is exact at any aspect
    // ratio, where a box clipped by planes or the octree loses it to rounding or cells).
    const inner = containedVolume(a, poseA, b, poseB, bInA);
    if (inner !== null) return inner;
    if (a.type === ShapeType.Sphere && b.type === ShapeType.Cuboid) {
      return sphereCuboid(a as Sphere, poseA, b as Cuboid, poseB);
    }
    if (a.type === ShapeType.Cuboid && b.type === ShapeType.Sphere) {
      return sphereCuboid(b as Sphere, poseB, a as Cuboid, poseA);
    }
    if (isPolytope(a.type) && isPolytope(b.type)) {
      if (a.type === ShapeType.Cuboid && b.type === ShapeType.Cuboid) {
        const aligned = alignedBoxes(a as Cuboid, poseA, b as Cuboid, poseB);
        if (aligned) return aligned;
      }
      return polytopePolytope(a, b, bInA);
    }
    // A cylinder, cone, capsule or sphere with a box or hull: sliced across the curved shape's
    // axis (src/query/overlap-volume-slices.ts), in its frame whichever argument came first.
    const curvedA = isSliceable(a.type) && isPolytope(b.type);
    if (curvedA || (isSliceable(b.type) && isPolytope(a.type))) {
      const sliced = curvedA
        ? sliceVolume(a, poseA, b, poseB, rel, abs)
        : sliceVolume(b, poseB, a, poseA, rel, abs);
      if (sliced !== null) return sliced;
    }
    // Two curved solids, or a rounded shape with a curved solid or a polytope: chords across
    // slices of A's frame (src/query/overlap-volume-chords.ts).
    if (isChordable(a.type) && isChordable(b.type) && (isCurved(a.type) || isCurved(b.type))) {
      const chords = chordVolume(a, b, bInA, rel, abs);
      if (chords !== null) return chords;
    }
  }
  return adaptive(a, ka, b, kb, bInA, rel, abs, maxCells);
}

/** True when the two shapes' bounding boxes (world frame) are apart: no overlap at all. */
function boxesApart(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): boolean {
  const boxA = aabbShape({ min: vec3.create(), max: vec3.create() }, a, poseA);
  const boxB = aabbShape({ min: vec3.create(), max: vec3.create() }, b, poseB);
  return (
    boxA.max.x < boxB.min.x ||
    boxB.max.x < boxA.min.x ||
    boxA.max.y < boxB.min.y ||
    boxB.max.y < boxA.min.y ||
    boxA.max.z < boxB.min.z ||
    boxB.max.z < boxA.min.z
  );
}

/**
 * Two convex solids one of which certainly lies inside the other
 * (src/query/overlap-volume-contained.ts): the inner one's volume, in closed form (a hull's
 * from its faces), errorBound its rounding; null when neither is found inside the other or the
 * inner one has no closed form here (a rounded hull).
 */
function containedVolume(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
): OverlapVolume | null {
  const moved = vec3.length(poseA.translation) + vec3.length(poseB.translation);
  let inner: Shape | null = null;
  if (containedIn(b, a, bInA, moved)) inner = b;
  else {
    const aInB = iso.copy(iso.identity(), pairPose(b, poseB, a, poseA));
    if (containedIn(a, b, aInB, moved)) inner = a;
  }
  if (inner === null) return null;
  const v = closedFormVolume(inner);
  if (v !== null) return { volume: v, errorBound: 16 * UNIT_ROUNDOFF * v };
  if (isPolytope(inner.type)) {
    // A hull's faces as given (no plane moved by rounding): only the tetrahedra's rounding.
    const faces = polytopeFacesOf(inner, iso.identity());
    return { volume: polytopeFacesVolume(faces), errorBound: polytopeFacesVolumeRounding(faces) };
  }
  return null;
}

/**
 * Two half-spaces: unless their normals are exactly opposite (the rule of every other
 * half-space pair, src/narrowphase/half-space-half-space.ts), they share an unbounded region:
 * Infinity; exactly opposite, they share the slab between their planes: Infinity when it has a
 * thickness, 0 when they touch or face each other across a gap.
 */
function halfSpaceHalfSpace(a: HalfSpace, b: HalfSpace, bInA: Isometry): OverlapVolume {
  const n = quat.rotate(vec3.create(), bInA.rotation, b.normal);
  const nA = a.normal;
  if (!(n.x === -nA.x && n.y === -nA.y && n.z === -nA.z))
    return { volume: Infinity, errorBound: 0 };
  const dB = b.offset + vec3.dot(n, bInA.translation);
  // A: nA·p ≤ dA; B: −nA·p ≤ dB: the slab −dB ≤ nA·p ≤ dA, of thickness dA + dB.
  return { volume: a.offset + dB > 0 ? Infinity : 0, errorBound: 0 };
}

/**
 * A convex solid or a closed solid mesh below a half-space, when a closed form exists: a
 * sphere (a cap), a polytope (clipped by the plane), a solid mesh (its triangles clipped by
 * the plane, src/query/overlap-volume-half-space.ts); null for the others (the octree).
 */
function halfSpaceExact(
  s: Shape,
  poseS: Isometry,
  h: HalfSpace,
  poseH: Isometry,
): OverlapVolume | null {
  const hInS = pairPose(s, poseS, h, poseH);
  const n = quat.rotate(vec3.create(), hInS.rotation, h.normal);
  const d = h.offset + vec3.dot(n, hInS.translation);
  // δ: the plane's rounding in the solid's frame: the rotation by a quaternion off unit length
  // by |q|² − 1, the pose composition's and the dot product's roundings.
  const q = poseH.rotation;
  const stretch = Math.abs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1);
  const qs = poseS.rotation;
  const stretchS = Math.abs(qs.x * qs.x + qs.y * qs.y + qs.z * qs.z + qs.w * qs.w - 1);
  const moved =
    vec3.length(poseS.translation) + vec3.length(poseH.translation) + vec3.length(hInS.translation);
  const delta =
    (32 * UNIT_ROUNDOFF + 2 * (stretch + stretchS)) * (moved + Math.abs(h.offset) + Math.abs(d));
  const ln = vec3.length(n);
  if (s.type === ShapeType.Sphere) return sphereBelowPlane((s as Sphere).radius, d / ln, delta);
  if (isPolytope(s.type)) {
    const magnitude = boundingRadius(s) + moved + Math.abs(h.offset);
    return polytopeClipped(polytopeFacesOf(s, iso.identity()), [n.x, n.y, n.z, d], magnitude);
  }
  if (compositeView(s.type) !== null) return solidBelowPlane(s, n.x, n.y, n.z, d, delta);
  // Any other convex solid wholly on one side of the plane (its support function against the
  // offset, by more than δ and the support's rounding): its whole volume or none.
  const v = closedFormVolume(s);
  if (v === null) return null;
  const slack = delta * ln + 16 * UNIT_ROUNDOFF * boundingRadius(s) * ln;
  const p = supportOf(vec3.create(), s, n);
  if (vec3.dot(n, p) < d - slack) return { volume: v, errorBound: 16 * UNIT_ROUNDOFF * v };
  supportOf(p, s, vec3.negate(vec3.create(), n));
  if (vec3.dot(n, p) > d + slack) return { volume: 0, errorBound: 0 };
  return null;
}

/**
 * The part of a ball of radius r (centre at the origin) where n·p ≤ d, |n| = 1: a cap of height
 * r + d (or the ball less the cap of height r − d), πh²(3r − h)/3. errorBound: a plane moved by
 * δ changes it by at most the cross-section there, πr²δ, plus the formula's own roundings.
 */
function sphereBelowPlane(r: number, d: number, delta: number): OverlapVolume {
  const whole = sphereVolume(r);
  let volume: number;
  if (d >= r) volume = whole;
  else if (d <= -r) volume = 0;
  else volume = d > 0 ? whole - sphericalCapVolume(r, r - d) : sphericalCapVolume(r, r + d);
  const near = Math.abs(d) - r < delta;
  return { volume, errorBound: (near ? Math.PI * r * r * delta : 0) + 16 * UNIT_ROUNDOFF * volume };
}

/**
 * A compound whose children's boxes do not overlap (so the children overlap in no volume): the
 * sum over its children of child × other, each exact where its pair is; the tolerances and the
 * cell budget shared among them. Null when two children's boxes overlap (or there are more than
 * {@link DISJOINT_CHECK_MAX_CHILDREN}). `flipped`: the compound was B (the child goes second, so
 * the argument order of the child pairs is the caller's).
 */
function disjointChildrenVolume(
  c: Compound,
  poseC: Isometry,
  other: Shape,
  poseO: Isometry,
  rel: number,
  abs: number,
  maxCells: number,
  flipped: boolean,
): OverlapVolume | null {
  const kids = c.children.filter((k) => !isFlat(k.shape.type));
  if (kids.length === 0) return { volume: 0, errorBound: 0 };
  if (kids.length > DISJOINT_CHECK_MAX_CHILDREN) return null;
  const boxes = kids.map((k) =>
    aabbShape({ min: vec3.create(), max: vec3.create() }, k.shape, k.pose),
  );
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const p = boxes[i];
      const q = boxes[j];
      if (
        p.min.x < q.max.x &&
        q.min.x < p.max.x &&
        p.min.y < q.max.y &&
        q.min.y < p.max.y &&
        p.min.z < q.max.z &&
        q.min.z < p.max.z
      )
        return null;
    }
  }
  let volume = 0;
  let errorBound = 0;
  const cells = Math.max(1, Math.floor(maxCells / kids.length));
  const pose = iso.identity();
  for (const k of kids) {
    iso.multiply(pose, poseC, k.pose);
    const r = flipped
      ? pairVolume(other, poseO, k.shape, pose, rel, abs / kids.length, cells)
      : pairVolume(k.shape, pose, other, poseO, rel, abs / kids.length, cells);
    volume += r.volume;
    errorBound += r.errorBound;
    // The child's world placement rounds (at the compound's translation): it may lie δ off,
    // moving the volume by at most δ times its surface area (that of its box).
    const delta = placementRounding(poseC, k.pose.translation, pose.translation);
    if (delta > 0) {
      const box = aabbShape({ min: vec3.create(), max: vec3.create() }, k.shape, iso.identity());
      errorBound += delta * aabbArea(box);
    }
  }
  return { volume, errorBound: errorBound + 2 * kids.length * UNIT_ROUNDOFF * volume };
}

/** Most children whose boxes {@link disjointChildrenVolume} compares pairwise. */
const DISJOINT_CHECK_MAX_CHILDREN = 1024;

/**
 * |ball ∩ box| from the world poses, the same computation whichever argument came first: the
 * sphere's centre is taken into the box's frame straight from the two world translations and
 * folded into the positive octant (the box is symmetric), so (a, b) and (b, a) give identical
 * bits. errorBound = the integral's own bound (src/geometry/ball-box-volume.ts) + the volume
 * the rounding of the box's six planes in the sphere's frame can move (the ball is exact there):
 * a plane moved by δ moves the volume by at most δ times the intersection's face on it, at most
 * the ball's cross-section by that plane and the box's face; doubled for second-order terms.
 */
function sphereCuboid(s: Sphere, poseS: Isometry, c: Cuboid, poseC: Isometry): OverlapVolume {
  const ts = poseS.translation;
  const tc = poseC.translation;
  const q = poseC.rotation;
  const p = iso.inverseTransformPoint(vec3.create(), poseC, ts);
  const px = Math.abs(p.x);
  const py = Math.abs(p.y);
  const pz = Math.abs(p.z);
  const h = c.halfExtents;
  const r = s.radius;
  const x0 = -h.x - px;
  const y0 = -h.y - py;
  const z0 = -h.z - pz;
  const x1 = h.x - px;
  const y1 = h.y - py;
  const z1 = h.z - pz;
  const res = ballBoxVolumeBounded(r, x0, y0, z0, x1, y1, z1);
  // δ: the difference of the translations (one rounding), the rotation by a quaternion that may
  // be off unit length by |q|² − 1 (its stretch, plus about 12 roundings of the rotation), the
  // plane offsets h ± p and the division by r (one each).
  const dx = ts.x - tc.x;
  const dy = ts.y - tc.y;
  const dz = ts.z - tc.z;
  const d = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
  const stretch = Math.abs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1);
  const translations =
    Math.abs(ts.x) +
    Math.abs(ts.y) +
    Math.abs(ts.z) +
    Math.abs(tc.x) +
    Math.abs(tc.y) +
    Math.abs(tc.z);
  const delta =
    UNIT_ROUNDOFF * (2 * translations + 16 * d + 4 * (px + py + pz + h.x + h.y + h.z + r)) +
    (stretch + 8 * UNIT_ROUNDOFF) * d;
  if (res.volume === 0) {
    // Apart or touching: inside the error only if the shapes are within δ of overlapping.
    // (x0, y0, z0 < 0 after the folding: the box's nearest point to the centre is clamped by x1…)
    const gap = Math.hypot(Math.max(0, -x1), Math.max(0, -y1), Math.max(0, -z1)) - r;
    if (gap > 2 * delta) return { volume: 0, errorBound: 0 };
    // A sliver of thickness ≤ 2δ: bounded by the ball's surface times that.
    return { volume: 0, errorBound: 4 * Math.PI * r * r * 4 * delta };
  }
  // dV/d(plane offset) is the area of the intersection's face on that plane, at most the ball's
  // cross-section there and the box's face.
  const ex = Math.min(x1, r) - Math.max(x0, -r);
  const ey = Math.min(y1, r) - Math.max(y0, -r);
  const ez = Math.min(z1, r) - Math.max(z0, -r);
  const faces =
    2 * Math.min(ey * ez, Math.max(crossSection(r, x0), crossSection(r, x1))) +
    2 * Math.min(ex * ez, Math.max(crossSection(r, y0), crossSection(r, y1))) +
    2 * Math.min(ex * ey, Math.max(crossSection(r, z0), crossSection(r, z1)));
  return { volume: res.volume, errorBound: res.errorBound + 2 * faces * delta };
}

/** Area of the ball of radius r's cross-section by the plane at distance |t| from its centre. */
function crossSection(r: number, t: number): number {
  return Math.abs(t) < r ? Math.PI * (r - t) * (r + t) : 0;
}

/** The faces of a closed polytope (its polytope capability's), transformed by `pose`. */
function polytopeFacesOf(s: Shape, pose: Isometry): PolytopeFaces {
  const faces = ((shapeDef(s.type).polytope as PolytopeAxes).faces as (s: Shape) => number[][])(s);
  const t = vec3.create();
  for (const f of faces) {
    for (let i = 0; i < f.length; i += 3) {
      vec3.set(t, f[i], f[i + 1], f[i + 2]);
      iso.transformPoint(t, pose, t);
      f[i] = t.x;
      f[i + 1] = t.y;
      f[i + 2] = t.z;
    }
  }
  return faces;
}

/** The face planes (n, d: n·p ≤ d inside) of a closed polytope under `pose`, packed 4 per plane. */
function polytopePlanesOf(s: Shape, pose: Isometry): number[] {
  const local = ((shapeDef(s.type).polytope as PolytopeAxes).planes as (s: Shape) => number[])(s);
  const n = vec3.create();
  const out: number[] = [];
  for (let i = 0; i < local.length; i += 4) {
    vec3.set(n, local[i], local[i + 1], local[i + 2]);
    quat.rotate(n, pose.rotation, n);
    out.push(n.x, n.y, n.z, local[i + 3] + vec3.dot(n, pose.translation));
  }
  return out;
}

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;
/**
 * Multiple of the unit roundoff in the rounding bound of the polytope clipping (see
 * {@link polytopePolytope}): a plane's rotated normal and offset, the pose composition, an
 * intersection point and a tetrahedron's determinant each take a few roundings; 64 covers them
 * with room. Unitless.
 */
const CLIP_ROUNDING_FACTOR = 64;

/**
 * Two boxes with identity world rotations: the overlap is a box, its volume the product of
 * three interval lengths. errorBound 0 when every sum and product was exact (checked with
 * TwoSum and TwoProduct), else a bound of their rounding. Null when a rotation is not the
 * identity.
 */
function alignedBoxes(
  a: Cuboid,
  poseA: Isometry,
  b: Cuboid,
  poseB: Isometry,
): OverlapVolume | null {
  if (!quat.isIdentity(poseA.rotation) || !quat.isIdentity(poseB.rotation)) return null;
  const ta = poseA.translation;
  const tb = poseB.translation;
  const ha = a.halfExtents;
  const hb = b.halfExtents;
  let exact = true;
  let volume = 1;
  let magnitude = 1;
  for (const [ca, ea, cb, eb] of [
    [ta.x, ha.x, tb.x, hb.x],
    [ta.y, ha.y, tb.y, hb.y],
    [ta.z, ha.z, tb.z, hb.z],
  ]) {
    const a0 = ca - ea;
    const a1 = ca + ea;
    const b0 = cb - eb;
    const b1 = cb + eb;
    if (
      sumError(ca, -ea, a0) !== 0 ||
      sumError(ca, ea, a1) !== 0 ||
      sumError(cb, -eb, b0) !== 0 ||
      sumError(cb, eb, b1) !== 0
    )
      exact = false;
    const lo = Math.max(a0, b0);
    const hi = Math.min(a1, b1);
    const d = hi - lo;
    if (sumError(hi, -lo, d) !== 0) exact = false;
    if (!(d > 0)) {
      // Apart (or touching) along this axis; with rounding, by at most the bound below.
      volume = 0;
      magnitude = 0;
      break;
    }
    const p = volume * d;
    if (productError(volume, d, p) !== 0) exact = false;
    volume = p;
    magnitude *= d + 4 * UNIT_ROUNDOFF * (Math.abs(ca) + Math.abs(cb) + ea + eb);
  }
  if (exact) return { volume, errorBound: 0 };
  // Each interval end is within 2u of its magnitude, so the product of the lengths (each grown
  // by that) bounds the true volume; the product's own rounding adds 3u.
  const errorBound = Math.max(0, magnitude - volume) + 3 * UNIT_ROUNDOFF * volume;
  return { volume, errorBound };
}

/**
 * The volume of two polytopes' intersection, B at `bInA` (A's frame), by clipping A's faces by
 * every face plane of B and summing the tetrahedra from the centroid: exact but for rounding,
 * which the reported errorBound covers: every face of the intersection may move by
 * CLIP_ROUNDING_FACTOR·u times the coordinates' magnitude M (the shapes' radii and B's offset in
 * A's frame: `bInA`, formed from the world poses as R_A⁻¹(t_B − t_A), rounds by a few ulps of
 * that offset, not of the translations themselves — a pair placed at 1e12 whose offset is 1 had
 * a bound of 34 % of its volume from the translations, issue 16), a volume of at most its surface
 * area S times that, and each of the N tetrahedra of diameter D adds at most that factor times
 * u·D³.
 */
function polytopePolytope(a: Shape, b: Shape, bInA: Isometry): OverlapVolume {
  const magnitude = boundingRadius(a) + boundingRadius(b) + vec3.length(bInA.translation);
  return polytopeClipped(polytopeFacesOf(a, iso.identity()), polytopePlanesOf(b, bInA), magnitude);
}

/**
 * The volume of the polytope `faces` clipped by the `planes` (n, d packed 4 per plane: n·p ≤ d
 * kept), with the rounding bound of {@link polytopePolytope}; `magnitude` bounds the coordinates.
 */
function polytopeClipped(faces: PolytopeFaces, planes: number[], magnitude: number): OverlapVolume {
  for (let i = 0; i < planes.length && faces.length > 0; i += 4) {
    faces = clipPolytopeFaces(faces, planes[i], planes[i + 1], planes[i + 2], planes[i + 3]);
  }
  const volume = polytopeFacesVolume(faces);
  if (faces.length === 0) return { volume, errorBound: 0 };
  let lo = [Infinity, Infinity, Infinity];
  let hi = [-Infinity, -Infinity, -Infinity];
  let area = 0;
  let tetrahedra = 0;
  const e1 = vec3.create();
  const e2 = vec3.create();
  const c = vec3.create();
  for (const f of faces) {
    for (let i = 0; i < f.length; i += 3) {
      lo = [Math.min(lo[0], f[i]), Math.min(lo[1], f[i + 1]), Math.min(lo[2], f[i + 2])];
      hi = [Math.max(hi[0], f[i]), Math.max(hi[1], f[i + 1]), Math.max(hi[2], f[i + 2])];
    }
    for (let i = 3; i + 5 < f.length; i += 3) {
      vec3.set(e1, f[i] - f[0], f[i + 1] - f[1], f[i + 2] - f[2]);
      vec3.set(e2, f[i + 3] - f[0], f[i + 4] - f[1], f[i + 5] - f[2]);
      vec3.cross(c, e1, e2);
      area += 0.5 * hypot3(c.x, c.y, c.z);
      tetrahedra++;
    }
  }
  const diameter = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  // The small factors first: area · magnitude or diameter³ alone overflow for shapes of 1e102
  // whose volume (and this bound) is finite. The tetrahedra's own rounding: the lesser of the
  // plain bound (diameter³ each) and the permanents' (a thin polytope's is far smaller).
  const plain = CLIP_ROUNDING_FACTOR * UNIT_ROUNDOFF * tetrahedra * diameter * diameter * diameter;
  const fine = polytopeFacesVolumeRounding(faces);
  const errorBound =
    CLIP_ROUNDING_FACTOR * UNIT_ROUNDOFF * area * magnitude +
    (Number.isFinite(fine) ? Math.min(plain, fine) : plain);
  return { volume, errorBound };
}

/** The octree's operand for a shape of kind `k` at `pose` (A's frame), with its box there. */
function operandOf(s: Shape, k: number, pose: Isometry): { op: VolumeOperand; box: Aabb } {
  const box = aabbShape({ min: vec3.create(), max: vec3.create() }, s, pose);
  if (k === Kind.Union) {
    const parts: ConvexOperand[] = [];
    const boxes: Aabb[] = [];
    for (const c of (s as Compound).children) {
      if (isFlat(c.shape.type)) continue;
      const p = iso.multiply(iso.identity(), pose, c.pose);
      parts.push(new ConvexOperand(c.shape, p));
      boxes.push(aabbShape({ min: vec3.create(), max: vec3.create() }, c.shape, p));
    }
    return { op: new UnionOperand(parts, boxes), box };
  }
  if (k === Kind.Solid) {
    const view = compositeView(s.type) as CompositeView;
    return { op: new SolidOperand(s, pose, view, boundingRadius(s)), box };
  }
  return { op: new ConvexOperand(s, pose), box };
}

/** The adaptive octree (src/query/overlap-volume-octree.ts) over the overlap of the two boxes. */
function adaptive(
  a: Shape,
  ka: number,
  b: Shape,
  kb: number,
  bInA: Isometry,
  rel: number,
  abs: number,
  maxCells: number,
): OverlapVolume {
  const A = operandOf(a, ka, iso.identity());
  const B = operandOf(b, kb, bInA);
  const boxA = A.box;
  const boxB = B.box;
  return adaptiveVolume(
    A.op,
    B.op,
    Math.max(boxA.min.x, boxB.min.x),
    Math.max(boxA.min.y, boxB.min.y),
    Math.max(boxA.min.z, boxB.min.z),
    Math.min(boxA.max.x, boxB.max.x),
    Math.min(boxA.max.y, boxB.max.y),
    Math.min(boxA.max.z, boxB.max.z),
    rel,
    abs,
    maxCells,
  );
}
