/**
 * Every tolerance and default of Collide, in one home. Each is named for what it guards, with
 * its unit and its source. Exact queries (`intersects`, `distance`) use no slop: touching is
 * intersecting and a gap of 1e-9 is a gap; the slops and margins here belong to contact
 * generation in the world.
 */

/**
 * Numerically significant but visually insignificant length (Box2D's `B2_LINEAR_SLOP`).
 * @default 0.005 scene units (metres in examples)
 */
export const LINEAR_SLOP = 0.005;

/**
 * Distance ahead of contact at which the world already reports a contact (Box2D's speculative
 * distance, Jolt's speculative contact distance).
 * @default 4 × LINEAR_SLOP = 0.02 scene units
 */
export const SPECULATIVE_DISTANCE = 4 * LINEAR_SLOP;

/**
 * Margin by which the broad phase fattens every AABB so that slow bodies do not churn it
 * (Box2D's `B2_AABB_MARGIN`).
 * @default 0.05 scene units
 */
export const AABB_MARGIN = 0.05;

/**
 * Allowed deviation of a quaternion's length from 1 before it is refused (shared/FORMATS.md).
 * Unitless.
 * @default 1e-6
 */
export const UNIT_QUATERNION_TOLERANCE = 1e-6;

/**
 * Relative tolerance of GJK's convergence test: iteration stops when the support point improves
 * the lower bound on the distance by less than this times the squared size of the shapes
 * (van den Bergen 2003, §4.3; parry uses small multiples of machine epsilon in f64).
 * Unitless (relative).
 * @default 1e-12
 */
export const GJK_TOLERANCE = 1e-12;

/**
 * Relative tolerance of EPA's convergence: stop when the support distance along the closest
 * face's normal exceeds the face distance by less than this fraction (Jolt's EPA tolerance).
 * Unitless (relative).
 * @default 1e-4
 */
export const EPA_TOLERANCE = 1e-4;

/**
 * A point within this distance of the contact plane belongs to the manifold (Jolt's
 * `mManifoldTolerance`).
 * @default 1e-3 scene units
 */
export const MANIFOLD_TOLERANCE = 1e-3;

/**
 * Relative degeneracy threshold for an edge × edge separating axis in the box–box SAT: the axis
 * is skipped when |e_a × e_b|² < this × |e_a|²|e_b|², since the face axes already cover parallel
 * edges (Ericson 2005, §4.4.1, which pads projections instead; we skip the axis so that a gap
 * of 1e-9 between parallel faces stays a gap). Unitless.
 * @default 1e-12
 */
export const SAT_PARALLEL_EDGE_TOLERANCE = 1e-12;

/**
 * Relative tolerance for coplanarity when the convex hull merges faces and tests points against
 * planes, as a fraction of the point set's extent (Barber, Dobkin & Huhdanpaa 1996: the
 * quickhull "max outer plane" is a few ulps of the coordinates' magnitude). Unitless (relative).
 * @default 1e-10
 */
export const HULL_PLANE_TOLERANCE = 1e-10;

/**
 * Iteration cap of Welzl's move-to-front minimum enclosing sphere restarts and of every
 * iterative geometric loop that has no other bound. Count.
 * @default 64
 */
export const MAX_REFINE_ITERATIONS = 64;

/**
 * Relative tolerance used by bounding-sphere containment checks: a point lies inside a sphere
 * when its distance exceeds the radius by at most this fraction of the radius. Unitless.
 * @default 1e-12
 */
export const CONTAINMENT_TOLERANCE = 1e-12;
