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
 * Allowed deviation of a quaternion's length from 1 before it is refused (docs/FORMATS.md). A
 * quaternion within it is accepted and normalised before use (as Rapier and Jolt users expect: a
 * rotation composed in single precision, or read from a file, is a few 1e-7 off unit), so that
 * every rotation the library applies is rigid. Unitless.
 * @default 1e-6
 */
export const UNIT_QUATERNION_TOLERANCE = 1e-6;

/**
 * Largest |cosine| between two columns of a glTF node `matrix`'s 3×3 part (each nonzero column
 * taken as a unit vector) for the matrix to count as translation·rotation·scale, as glTF 2.0
 * (§3.5.3) requires of a node matrix; a matrix beyond it holds a shear and is refused. A
 * rotation times a scale composed and stored in single precision leaves cosines below about
 * 5e-7 (measured over random rotations and scales 1e-3..1e3); this is 20 times that, and a
 * shear of 1e-5 radians is still far below any deliberate one. Unitless.
 * @default 1e-5
 */
export const GLTF_NODE_SHEAR_TOLERANCE = 1e-5;

/**
 * How far |q|² may be from 1 for a quaternion to be used as it is, without renormalising: a few
 * ulps of 1, the rounding of a quaternion that was normalised in double precision (q / |q| lands
 * within about 4ε), so that a unit quaternion costs one comparison and a renormalised one is not
 * renormalised again. The rotation it leaves unrigid is off by at most about this times the
 * rotated length: rounding. Unitless.
 * @default 2e-15
 */
// A short literal (about 9 ulps of 1), not 8 * Number.EPSILON: the bundler inlines it into the
// pair queries instead of bundling this module (test/browser/bundle.test.ts).
export const UNIT_QUATERNION_SQ_SLACK = 2e-15;

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
 * EPA's relative tolerance on pairs with a curved core (cylinder, cone): tight enough that the
 * normal refinement that follows (src/geometry/refine-normal.ts) starts within a few
 * micro-radians, measured to cost no more EPA time than 1e-4 on random cylinder, cone and box
 * pairs (issue 16, class 4). Unitless (relative).
 * @default 1e-8
 */
export const EPA_CURVED_TOLERANCE = 1e-8;

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

/**
 * Relative degeneracy threshold for the exact circumsphere of a Welzl support set: three points
 * count as collinear when |u × v|² ≤ this × |u|²|v|² (sin² of their angle), four as coplanar
 * when (u · (v × t))² ≤ this × |u|²|v|²|t|²; the support set then falls back to its own
 * smallest enclosing sphere over pairs and triples (Welzl 1991; Ericson 2005, §4.3.5).
 * Unitless (relative).
 * @default 1e-12
 */
export const CIRCUMSPHERE_DEGENERACY_TOLERANCE = 1e-12;

/**
 * Largest tie tolerance when the box–box SAT picks its axis of least penetration, relative to
 * the boxes' size (their largest half extent): a face axis of A is kept over a face axis of B,
 * and a face axis over an edge × edge axis, unless the latter's separation is larger by more
 * than the tie. This makes the choice deterministic and stable for resting contact (Box2D's
 * `b2_linearSlop` plays the same role in its polygon SAT). The tie is this cap only for deep
 * contacts: it is at most {@link SAT_AXIS_TIE_DEPTH_TOLERANCE} of the depth, and never below
 * {@link SAT_AXIS_TIE_ROUNDING} ulps of the size (the rounding of an edge axis's separation), so
 * the depth stays within the larger of those two of the minimum. A separation above this cap
 * on any one axis therefore proves the boxes apart (the world's warm start relies on it).
 * Unitless (relative).
 * @default 1e-9
 */
export const SAT_AXIS_TIE_TOLERANCE = 1e-9;

/**
 * The box–box SAT's tie tolerance relative to the depth (the magnitude of the best separation
 * so far) when that is below the size cap {@link SAT_AXIS_TIE_TOLERANCE}: a flat box of size 3e5
 * under a box corner, overlapping by 2.17e-6 on an edge axis, took a face axis 3.34e-6 deep
 * under the size-relative tie of 3e-4 (issue 16). One tenth of the contact depth bar of
 * docs/FORMATS.md ("Accuracy", 1e-6 relative). Unitless (relative).
 * @default 1e-7
 */
export const SAT_AXIS_TIE_DEPTH_TOLERANCE = 1e-7;

/**
 * Least tie tolerance of the box–box SAT, in multiples of `Number.EPSILON` times the boxes' size
 * (largest half extent): an edge × edge axis's separation carries a few roundings of the size
 * (sums of half extents times rotation entries, divided by the axis length), so a face axis
 * is not displaced by an edge axis that is better by rounding only — which keeps contacts of
 * touching and shallow boxes on their faces, and contact(B, A) the flip of contact(A, B).
 * Half of the ambiguity bar of docs/FORMATS.md (64 ε of the pair's size). Unitless (count).
 * @default 32
 */
export const SAT_AXIS_TIE_ROUNDING = 32;

/**
 * Hysteresis of sweep and prune's automatic axis choice: the sweep axis switches only when
 * another axis's variance of box centres exceeds the current axis's by this factor, so a scene
 * whose spread is nearly isotropic does not re-sort every frame (Ericson 2005, §7.5.2 chooses
 * the axis of largest variance). Unitless (ratio of variances).
 * @default 2
 */
export const SAP_AXIS_SWITCH_RATIO = 2;

/**
 * Automatic cell size of the spatial hash as a multiple of the median of the bodies' largest
 * box side, so that a typical body overlaps at most 2 cells per axis (Ericson 2005, §7.1.2:
 * cells should be somewhat larger than the objects). Unitless (ratio).
 * @default 2
 */
export const SPATIAL_HASH_CELL_SCALE = 2;

/**
 * Margin of the spatial hash's fat boxes as a fraction of the cell side. The grid and its
 * candidate pairs are built from the boxes grown by this margin and kept until a box leaves its
 * fat box, so a body that moves a little (less than the margin) costs a containment test per
 * move instead of a rebuild per step (the Verlet-list or "skin" idea of molecular dynamics,
 * Verlet 1967; Box2D's fat AABBs play the same role in its tree). Larger margins rebuild less
 * often but test more candidate pairs each step; on the 50,000-body benchmark scene 0.02 gave
 * the lowest mean step (0.01–0.05 tried). Unitless.
 * @default 0.02
 */
export const SPATIAL_HASH_FAT_MARGIN = 0.02;

/**
 * Most grid cells a body may occupy in the spatial hash; a larger body goes to the overflow
 * list, tested against every body, so huge boxes stay correct without flooding the grid
 * (Ericson 2005, §7.2: hierarchical grids serve the same purpose). Count.
 * @default 64
 */
export const SPATIAL_HASH_MAX_CELLS_PER_BODY = 64;

/**
 * Padding of the spatial hash's ray traversal, as a fraction of (cell size + |coordinate|): the
 * cells visited along a ray segment are widened by this much so that rounding in the segment's
 * parametrisation never skips a cell the exact slab test would touch; it costs only extra cells
 * near boundaries, never a wrong answer. Unitless (relative).
 * @default 1e-9
 */
export const GRID_TRAVERSAL_PADDING = 1e-9;

/**
 * Multiplier of the displacement by which the dynamic tree stretches a moving proxy's fat AABB
 * ahead of its motion (Box2D v2.4's `b2_aabbMultiplier`). Unitless.
 * @default 4
 */
export const AABB_DISPLACEMENT_MULTIPLIER = 4;

/**
 * Multiple of machine epsilon (`Number.EPSILON`) times the largest coordinate magnitude that the
 * convex hull adds to its distance tolerance, so that points far from the origin (a 1e6
 * translation) whose coordinates carry roundoff of a few ulps still count as coplanar. The hull's
 * distance tolerance is `HULL_PLANE_TOLERANCE × extent + HULL_ROUNDOFF_FACTOR × ε × max|coordinate|`
 * (qhull's `DISTround`, Barber, Dobkin & Huhdanpaa 1996, §4; quickhull3d uses 3ε × the sum of the
 * per-axis maxima). Unitless.
 * @default 8
 */
export const HULL_ROUNDOFF_FACTOR = 8;

/**
 * Relative error bound of the floating-point filter of the exact orientation predicate: the sign
 * of the 3×3 determinant of three difference vectors is certain when its magnitude exceeds this
 * times the permanent (Shewchuk 1997, "Adaptive Precision Floating-Point Arithmetic and Fast
 * Robust Geometric Predicates", `o3derrboundA` = (7 + 56ε)ε with ε = 2⁻⁵³). Derived from the
 * IEEE 754 double format, not tunable. Unitless.
 * @default (7 + 56 × 2⁻⁵³) × 2⁻⁵³ ≈ 7.8e-16
 */
export const ORIENT3D_ERROR_BOUND = (7 + 56 * 2 ** -53) * 2 ** -53;

/**
 * Iteration cap of GJK (src/geometry/gjk.ts). Polytopes converge in far fewer iterations
 * (a finite number of support points); curved cores converge fast but only in the limit. At
 * the cap GJK returns the best simplex so far. Count.
 * @default 128
 */
export const GJK_MAX_ITERATIONS = 128;

/**
 * Relative length at the level of floating-point rounding: a GJK core distance at or below this
 * times the simplex size (max |w| of its Minkowski-difference points) is zero (touching, so
 * intersecting), and an EPA improvement below it, times the polytope size, is convergence.
 * About 450 ulps, far below the 1e-9 gaps that exact queries must keep (docs/DESIGN.md, "Conventions").
 * Unitless (relative).
 * @default 1e-13
 */
export const GJK_ROUNDING_TOLERANCE = 1e-13;

/**
 * Relative flatness under which a simplex is degenerate: a triangle whose sine of angle at a
 * corner, or a tetrahedron whose volume over the product of its edge lengths, is below this is
 * treated as the union of its faces (Montanari, Petrinic & Barbieri 2017 handle the same case
 * by sign tests), unless its signed volumes, each taken on a face's two shorter edges, stand 64
 * times above their rounding (a needle: a small shape's face and a far vertex of a large one,
 * src/geometry/gjk.ts `s3d`). Unitless (relative).
 * @default 1e-10
 */
export const GJK_DEGENERATE_SIMPLEX_TOLERANCE = 1e-10;

/**
 * Height-to-length ratio under which a triangle is a sliver (its least height below this times
 * its longest edge): its face normal from the rounded cross product of two edges is then noise
 * (an error of ε over this ratio, tilting the plane by ε·L/ratio along the long edge), so the
 * closest point of a sliver is taken with the cross product expanded exactly, and a triangle
 * whose corners are collinear in exact arithmetic as its three edges
 * (src/geometry/closest-point.ts; Ericson 2005, §5.1.5). The closest point takes that path from
 * the larger {@link TRIANGLE_THIN_RATIO} on. Unitless (relative).
 * @default 2^-20
 */
export const TRIANGLE_SLIVER_RATIO = 2 ** -20;

/**
 * Height-to-length ratio under which `closestPointOnTriangle` (src/geometry/closest-point.ts)
 * projects a triangle as a sliver (along its exactly expanded normal, else onto its edges) rather
 * than by the Voronoi regions' products: their barycentric weights d1·d4 − d3·d2, … cancel to the
 * rounding of the long edge's squares, and the face point they give is off along the triangle by
 * about ε·(L/h)^4 of its length L (measured on needles against exact rationals: 1e-16 of L at
 * L/h = 1e3, 2e-13 at 1e4, 8e-10 at 1e5, 8e-6 at 1e6 — a 0.01 × 10000 beam's side answered
 * 0.014 for 0.0027; session 38). At 2^-10 it stays at the routine's own ε·L. Unitless.
 * @default 2^-10
 */
export const TRIANGLE_THIN_RATIO = 2 ** -10;

/**
 * Iteration cap of EPA (src/geometry/epa.ts); the vertex arena holds this + 4 points. At the
 * cap EPA reports `MaxIterations` and the narrow phase falls back to SAT or direction sampling.
 * Count.
 * @default 128
 */
export const EPA_MAX_ITERATIONS = 128;

/**
 * EPA's relative convergence tolerance for polytope pairs (cuboid, convex polyhedron,
 * triangle): the polytope of a Minkowski difference of polytopes is finite, so EPA reaches its
 * exact closest face and a tight tolerance costs only a few iterations (Jolt's
 * `EPAPenetrationDepth` uses one tolerance; we keep EPA_TOLERANCE for curved cores).
 * Unitless (relative).
 * @default 1e-10
 */
export const EPA_POLYTOPE_TOLERANCE = 1e-10;

/**
 * The gap, relative to EPA's polytope size (the largest |w| of its Minkowski-difference
 * points), by which EPA moves B beyond touching along its normal to find witnesses when no
 * polytope face holds the origin's projection (a sliver face, a flat shape): GJK then finds the
 * closest points of A and the moved B, on the features that touch along the normal, at a gap
 * that its simplex resolves (2^-20 leaves ~32 bits of the size to the gap's direction; the
 * sideways move is the gap times the normal's error, far below it). Unitless (relative).
 * @default 2^-20
 */
export const EPA_WITNESS_GAP = 2 ** -20;

/**
 * Number of directions (a Fibonacci sphere) that the curved-shape fallback of penetration depth
 * samples when EPA cannot converge, before refining the best one by local search (capped by
 * MAX_REFINE_ITERATIONS). Count.
 * @default 256
 */
export const PENETRATION_FALLBACK_SAMPLES = 256;

/**
 * Alignment at which a flat feature becomes a contact feature when building a contact manifold
 * by face clipping: a face (a polyhedral face, a cylinder cap, a cone base) may serve as the
 * reference face when the cosine between its outward normal and the contact normal is at least
 * this, and a segment (a capsule's core, a cylinder's or cone's side line, a box or triangle
 * edge) is used when the sine of its angle to the contact plane is at most √(1 − this²).
 * A genuine face contact has cosine 1 up to the noise of the normal; the margin (≈ 18°) keeps
 * edge–edge contacts, whose faces lean about 45°, off the face path. Unitless (a cosine).
 * Source: the supporting-face choice of Jolt (`GetSupportingFace`) and Bullet
 * (`btPolyhedralContactClipping`).
 * @default 0.95
 */
export const MANIFOLD_FEATURE_COS = 0.95;

/**
 * A reference face whose normal is farther than this cosine from the contact normal (about
 * 2^-20 rad: beyond the noise of a refined normal) has the contact on its boundary: against a
 * segment lying along the side plane through the face's supporting edge there (the sine of its
 * angle to that plane within `MANIFOLD_PARALLEL_SIN`), where the clip leaves the contact out, the manifold is built from the two
 * segments rather than by clipping against the face, whose side plane the segment crosses at a
 * grazing angle (src/narrowphase/manifold.ts). Unitless (a cosine).
 * @default 1 − 2^-41
 */
export const MANIFOLD_FACE_TILT_COS = 1 - 2 ** -41;

/**
 * Two contact segments (capsule cores, box edges) give a two-point manifold only when they are
 * parallel to within this sine of their angle; crossing segments touch at one point, the given
 * contact (Box2D v3 `b2CollideCapsules` keeps two points only for parallel segments).
 * Unitless (a sine, ≈ 2.9°).
 * @default 0.05
 */
export const MANIFOLD_PARALLEL_SIN = 0.05;

/**
 * Relative tolerance favouring shape A when choosing the reference face: B's face becomes the
 * reference only when its alignment with the contact normal exceeds A's by more than this
 * fraction, so near ties resolve the same way every frame (Box2D's `k_relativeTol` plays this
 * role for separations). Unitless (relative).
 * @default 1e-3
 */
export const MANIFOLD_REFERENCE_FACE_TOLERANCE = 1e-3;

/**
 * Smallest relative gain of contact area for which the manifold reduction's local search swaps
 * a point (src/geometry/clip.ts); it makes the search stop on rounding-level gains, so the
 * chosen 4 points do not depend on the last bits of the coordinates. Unitless (relative).
 * @default 1e-9
 */
export const MANIFOLD_REDUCTION_IMPROVEMENT = 1e-9;

/**
 * The manifold reduction's tie of depths (src/geometry/clip.ts): distances within
 * `MANIFOLD_REDUCTION_IMPROVEMENT` of the contact's size of the deepest count as deepest, but
 * not beyond this fraction of the depth (plus `MANIFOLD_DEPTH_ULPS` ulps of the coordinates), so
 * the kept deepest point is the contact's depth to a tenth of the depth bar (1e-6 relative) even
 * where the depth is far below the contact's size. Unitless (relative).
 * @default 1e-7
 */
export const MANIFOLD_REDUCTION_DEPTH_TIE = 1e-7;

/**
 * Up to this many candidate points the manifold reduction finds the largest-area 4 points
 * containing a deepest one exactly, by trying every 4-set (at most C(n, 4) area evaluations,
 * 1820 at the limit); above it a capped local search refines the greedy choice. Face–face
 * clipping gives at most the sum of the two faces' vertex counts (8 for two boxes, 12 for a
 * cylinder cap on a box). Count.
 * @default 16
 */
export const MANIFOLD_REDUCTION_EXHAUSTIVE_LIMIT = 16;

/**
 * Slack of the manifold's retried clip, in ulps of the features' largest coordinate: when
 * clipping the incident feature against the reference face's side planes leaves nothing — two
 * boxes touching exactly at a corner or an edge, their coordinates formed in A's frame a unit
 * apart — the clip is done once more with the planes moved out by this many ulps of the two
 * features' largest coordinate (a distance of `4 · ε · max |coordinate|`), so the touching part
 * survives; without it the manifold fell back
 * to the single contact, whose witness was any corner of the incident face (issue 16: witness
 * points 0.18 off the other box). Unitless (count).
 * @default 4
 */
export const MANIFOLD_CLIP_SLACK_ULPS = 4;

/**
 * Least area of a manifold's reference face, in ulps of its squared extent (twice the area
 * against `MANIFOLD_FACE_AREA_ULPS · ε · extent²`): a face of a box of zero thickness is a
 * segment listed as a polygon, whose side planes bound one side only, so it gives way to the
 * other shape's face or to the supporting edges (src/narrowphase/manifold.ts). Unitless (count).
 * @default 64
 */
export const MANIFOLD_FACE_AREA_ULPS = 64;

/**
 * Scale-relative cap on `MANIFOLD_TOLERANCE`: a manifold point belongs to the contact plane
 * within min(MANIFOLD_TOLERANCE, this × the reference face's size), so that for shapes of a few
 * millimetres the plane tolerance does not swallow the shapes themselves (docs/DESIGN.md:
 * tolerances relative to the shapes' scale where the magnitude matters). Unitless (relative).
 * @default 1e-3
 */
export const MANIFOLD_RELATIVE_TOLERANCE = 1e-3;

/**
 * A rounded shape's manifold point is its core point moved out by the radius along the contact
 * normal only when that core point is the core's support point along the normal, within this
 * many ulps of the point's magnitude (its gap below the support plane, which bounds how far the
 * moved point can lie inside the rounded surface); otherwise the point is moved to where the
 * line along the normal leaves the rounded shape (src/narrowphase/manifold.ts). Unitless (count).
 * @default 16
 */
export const MANIFOLD_ROUNDED_SUPPORT_ULPS = 16;

/**
 * A contact manifold keeps the contact's own point when its clipped points leave the contact
 * out: the deepest shallower than the contact's distance by more than this many ulps of the
 * points' magnitude (a reference face among nearly parallel faces, a sliver hull's, bounds only
 * its part of the contact region; src/narrowphase/manifold.ts). Unitless (count).
 * @default 16
 */
export const MANIFOLD_CONTACT_KEEP_ULPS = 16;

/**
 * The other floor of `MANIFOLD_CONTACT_KEEP_ULPS`' test, relative to the contact's depth: a
 * clip shallower than the contact by less holds it (a face tilted to rounding over a long box
 * loses 1e-11 at a depth of 0.4, and its manifold stays the faces' corners). One tenth of the
 * contact depth bar of docs/FORMATS.md ("Accuracy", 1e-6 relative). Unitless (relative).
 * @default 1e-7
 */
export const MANIFOLD_CONTACT_KEEP_DEPTH = 1e-7;

/**
 * A 2D manifold takes its reference edge's normal only when the contact lies on that edge's flat
 * part: the separation along the edge's normal (the two cores' support points there, less the
 * radii) and the deepest clipped point's separation must both equal the contact's distance
 * within this many ulps of the features' largest coordinate (the contact's rounding bar,
 * docs/FORMATS.md). Otherwise — a corner against a capsule's end cap, whose normal leans up to
 * 18° off the capsule's side (issue 16: a manifold 9–70 % shallower than the contact, along
 * another normal) — the manifold is the single contact, as Box2D v3 gives a vertex–vertex
 * region one point (src/dim2/manifold2.ts). Unitless (count).
 * @default 64
 */
export const MANIFOLD2D_DEPTH_ULPS = 64;

/**
 * The rounding allowance, in ulps of the coordinates, of the 3D manifold's point reduction's
 * depth tie (src/geometry/clip.ts, beside `MANIFOLD_REDUCTION_DEPTH_TIE`). Unitless (count).
 * @default 64
 */
export const MANIFOLD_DEPTH_ULPS = 64;

/**
 * A manifold point of two parallel segments (an edge along an edge or a generator) keeps its
 * witnesses on the two segments when they face each other across the normal, pointB − pointA
 * along it within this many ulps of their magnitude; otherwise (segments not quite parallel, or
 * offset sideways across the normal) one witness is moved onto its shape along the normal's
 * line through the other (src/narrowphase/manifold.ts, `facingPair`). Unitless (count).
 * @default 16
 */
export const MANIFOLD_FACING_ULPS = 16;

/**
 * Sine of the angle between a triangle's two shortest edges below which the convex hull computes
 * the triangle's normal with an exact (BigInt) cross product instead of floating point: the
 * float cross product of nearly parallel edges loses about log2(1 / sin θ) bits, which tilts the
 * plane of a needle-shaped face by far more than the hull tolerance. At 2⁻¹⁰ the float result
 * keeps at least 42 good bits (Shewchuk 1997 on cancellation in geometric predicates). Unitless.
 * @default 2⁻¹⁰ ≈ 9.8e-4
 */
export const HULL_EXACT_NORMAL_SINE = 2 ** -10;

/**
 * Multiple of the convex hull's distance tolerance within which a point set counts as
 * coincident, collinear or coplanar and is refused ("a hull needs at least 4 non-coplanar
 * points"). Larger than 1 because the hull merges faces whose points lie within one tolerance
 * of a plane: a slab only that thick would have its top and bottom folded into each other
 * (qhull likewise refuses input flatter than a few times its roundoff, Barber et al. 1996 §4).
 * Unitless.
 * @default 4
 */
export const HULL_FLAT_FACTOR = 4;

/**
 * Largest number of triangles a leaf of a triangle mesh's bounding volume hierarchy holds when
 * the surface area heuristic would still split it: small leaves keep ray casts and overlap
 * queries to a few exact tests per leaf (three-mesh-bvh and Jolt use 8 and 4). Triangles.
 * @default 4
 */
export const MESH_BVH_MAX_LEAF_SIZE = 4;

/**
 * Number of bins per axis of the binned surface area heuristic that builds a mesh BVH (Wald
 * 2007, "On fast construction of SAH-based bounding volume hierarchies": 8–32 bins lose almost
 * nothing against the full sweep). Count.
 * @default 16
 */
export const MESH_BVH_SAH_BINS = 16;

/**
 * Smallest mesh BVH node (in primitives) split by the binned surface area heuristic; smaller
 * nodes, most of the tree, are split at their centroid box's midpoint along its longest axis
 * (three-mesh-bvh's "center" strategy), one pass each, and become leaves at
 * `MESH_BVH_MAX_LEAF_SIZE` or fewer. The heuristic matters most near the root, where boxes are
 * large; measured on the bunny, the tree's SAH cost stays within a few percent of a full binned
 * build while the build takes a fraction of the time. At 256 rather than 32 a closest-hit ray
 * does 0.7–2.1 % more node and triangle tests (1.25 per node test, 1 per triangle; the bunny
 * subdivided 0–3 times, 10–20k rays) and the build takes 0.75–0.82 of the time (bunny, 940k
 * triangles; CPU time, interleaved in one process). Primitives.
 * @default 256
 */
export const MESH_BVH_SAH_MIN_PRIMITIVES = 256;

/**
 * Cost of visiting a BVH node relative to one exact triangle test, in the surface area heuristic
 * (Goldsmith & Salmon 1987; MacDonald & Booth 1990; three-mesh-bvh uses 1.25). Unitless.
 * @default 1.25
 */
export const MESH_BVH_TRAVERSAL_COST = 1.25;

/**
 * Deepest level of a mesh BVH: a node at this depth becomes a leaf whatever its size, which
 * bounds the traversal stacks (a balanced tree over 2^32 triangles is 32 deep; the SAH rarely
 * goes beyond twice that). Levels.
 * @default 64
 */
export const MESH_BVH_MAX_DEPTH = 64;

/**
 * Cosine of the dihedral angle below which a convex edge shared by two triangles of a mesh is
 * "active" (a real ridge that may give an edge normal); flatter or concave shared edges are
 * inactive, and a contact on them takes the triangle's face normal, so that a box sliding over
 * the seam of two coplanar triangles is not bumped (Jolt's `mActiveEdgeCosThresholdAngle`,
 * cos 5°; Bullet's internal-edge utility). Unitless.
 * @default cos(5°) ≈ 0.99619
 */
export const MESH_ACTIVE_EDGE_COS = Math.cos((5 * Math.PI) / 180);

/**
 * Barycentric weight below which a contact point on a mesh triangle counts as lying on the
 * opposite edge (two small weights: on a vertex), to decide whether an inactive edge made the
 * contact. Unitless (a fraction of the triangle).
 * @default 1e-6
 */
export const MESH_FEATURE_BARYCENTRIC_TOLERANCE = 1e-6;

/**
 * Tie band of the side a shape stands on against a surface triangle re-measured along its face
 * normal (src/narrowphase/face-depth.ts): the shape's reaches past the triangle's plane on the
 * two sides within this many ulps of the largest coordinate are a tie, answered on the front (the
 * winding's normal) whatever frame or order the pair was formed in. Unitless (relative).
 * @default 64 × 2⁻⁵²
 */
export const FACE_SIDE_TIE_TOLERANCE = 64 * 2 ** -52;

/**
 * Cosine of the largest angle between a triangle's contact normal and a mesh manifold's normal
 * for that triangle's points to join the manifold (Jolt merges the manifolds of triangles whose
 * normals agree this well). Unitless.
 * @default 0.95 (about 18°)
 */
export const MESH_MANIFOLD_MERGE_COS = 0.95;

/**
 * Cells per side of a leaf block of a heightfield's min/max tree (src/shapes/heightfield.ts): the
 * tree keeps the lowest and highest height of each block of 8 × 8 cells, then of each 2 × 2 of
 * those, up to one root, so a box or ray query skips whole blocks by height. 8 keeps the tree
 * near 1/30 of the heights' memory while a leaf scan stays short (64 cells). Unitless (cells).
 * @default 8
 */
export const HEIGHTFIELD_BLOCK_CELLS = 8;

/**
 * Relative tolerance of the heightfield ray walk's block skip: a block is skipped only when the
 * ray's height over the block clears the block's height range by more than this fraction of the
 * magnitudes compared, so that a ray grazing a block's highest vertex (rounded one ulp above) is
 * still tested against its triangles. Unitless.
 * @default 1e-12
 */
export const HEIGHTFIELD_RAY_SKIP_TOLERANCE = 1e-12;

/**
 * Generalized winding number at or above which a point counts as inside a closed mesh (Jacobson,
 * Kavan & Sorkine-Hornung 2013: the winding number is 1 inside, 0 outside, 1/2 on the surface).
 * Unitless.
 * @default 0.5
 */
export const MESH_WINDING_INSIDE = 0.5;

/**
 * How far a solid mesh's triangle may lie inside the convex hull of its vertices, relative to the
 * largest coordinate magnitude of the mesh, for the solid to count as convex (and be answered as
 * that hull by the pair queries: src/narrowphase/mesh-solid.ts). Far above the rounding of a
 * plane offset (a few ulps), far below any real dent. Unitless.
 * @default 2^-40
 */
export const SOLID_MESH_CONVEX_TOLERANCE = 2 ** -40;

/**
 * Bound (exclusive) on the magnitude of a mesh vertex's coordinates, in scene units: the BVH
 * build sums a triangle box's min and max per axis (its centroid, doubled), which stays finite
 * for coordinates below 2^1023. Refused at construction beyond it (`CollideError` naming the
 * vertex). The same bound holds for every other point set the library builds a surface or a
 * hull of, so that differences of two points and plane offsets n·p (at most √3·2^1023) stay
 * finite: a convex hull's points (`computeConvexHull`, naming `points`), a frustum's corners
 * (naming `far`), a heightfield's vertices (naming `scale.x`, `scale.y`, `scale.z` or
 * `heights[i]`).
 * @default 2^1023 ≈ 8.99e307
 */
export const MESH_COORDINATE_LIMIT = 2 ** 1023;

/**
 * Distance of a vertex from the other triangle's plane, relative to the pair's coordinate
 * scale, below which the triangle–triangle test counts it as on the plane (Möller 1997 snaps
 * plane distances below an epsilon to zero so that coplanar pairs take the 2D test). Unitless.
 * @default 1e-12
 */
export const TRIANGLE_PLANE_TOLERANCE = 1e-12;

/**
 * Allowed deviation of the length √(c² + s²) from 1 for a 2D rotation `{c, s}` before it is refused (the 2D
 * counterpart of UNIT_QUATERNION_TOLERANCE; one within it is normalised before use). Unitless.
 * @default 1e-6
 */
export const UNIT_ROTATION2D_TOLERANCE = 1e-6;

/**
 * Relative degeneracy threshold of 2D convex polygons (src/dim2/shapes.ts), as a fraction of the
 * points' extent L: two points closer than this × L repeat each other; a vertex whose turn
 * (cross product of its two edges) is within this × L² of zero is collinear and dropped, and a
 * point more than this × L² outside an edge's line makes the polygon non-convex (Ericson 2005,
 * §3.9; the same relative test as HULL_PLANE_TOLERANCE in 3D). Unitless (relative).
 * @default 1e-12
 */
export const POLYGON2D_DEGENERACY_TOLERANCE = 1e-12;

/**
 * Relative convergence tolerance of the GJK ray cast (src/geometry/gjk-raycast.ts): the ray's
 * point counts as on the set when its distance to the simplex is below this times the set's
 * width (plus GJK_ROUNDING_TOLERANCE times the coordinates' magnitude). Polytopes converge
 * exactly; curved sets converge linearly to it (van den Bergen 2004 uses a relative ε of the
 * same kind). Unitless (relative).
 * @default 1e-10
 */
export const GJK_RAYCAST_TOLERANCE = 1e-10;

/**
 * Relative distance tolerance of the time-of-impact search (src/query/cast-shapes.ts): the
 * shapes count as touching when their gap is below this times the smaller bounding radius
 * (plus GJK_ROUNDING_TOLERANCE times the coordinates' magnitude). Conservative advancement
 * approaches contact from before, so the reported time of impact is early by at most this gap
 * over the closing speed (Mirtich 1996; Box2D's `b2TimeOfImpact` target uses a linear slop,
 * which is too coarse for an exact query). Unitless (relative).
 * @default 1e-10
 */
export const SHAPE_CAST_TOLERANCE = 1e-10;

/**
 * Step budget of the time-of-impact search by conservative advancement under linear motion, and
 * the widening period past any budget. Under linear motion the gap is a convex function of time
 * and the advancement is a Newton step, converging in a few iterations. A search still short of
 * its stopping tolerance after its budget widens that tolerance ×4 every this many further
 * steps, so it always ends, with a hit within the tolerance it stopped at (never a hit farther
 * apart than that) or a proof of no contact; it never steps past a contact. Count.
 * @default 256
 */
export const SHAPE_CAST_MAX_ITERATIONS = 256;

/**
 * Step budget of the time-of-impact search when a body rotates (`castShapesNonlinear`, the
 * world's CCD): the bound |v·n| + |ω|·r·|n × u| is loose where the rotation moves the closest
 * points little, so steps are short and convergence linear (a spinning stick 2.4 long passing a
 * ball 1e-3 of its size apart took 2,172 steps); past it the stopping tolerance widens as
 * SHAPE_CAST_MAX_ITERATIONS says. Count.
 * @default 16384
 */
export const SHAPE_CAST_ROTATING_ITERATIONS = 16384;

/**
 * Convergence tolerance of the 2D linear time of impact (src/dim2/cast-shapes2.ts), relative to
 * the smaller shape's size (the larger one's when the smaller is a point at its origin):
 * conservative advancement stops when the gap is at most this × that size, and at most this ×
 * the starting gap (a close start still advances to its contact); time 0 is decided by the
 * exact `intersects` predicate, never by this tolerance. Far below LINEAR_SLOP so that the
 * reported time is exact for a query, not a solver. Unitless (relative).
 * @default 1e-9
 */
export const CAST2D_TOLERANCE = 1e-9;

/**
 * Iteration cap of the 2D conservative advancement; each step is a Newton step on the convex
 * gap function of linear motion, so transversal contacts converge in a handful of iterations and
 * only grazing ones approach the cap, where the current (never overshooting) time is returned.
 * Count.
 * @default 64
 */
export const CAST2D_MAX_ITERATIONS = 64;

/**
 * Relative widening of the far end of each slab interval in the ray–box test of BVH traversal,
 * so that rounding in (bound − origin)·(1/dir) never rejects a box that the ray touches at a
 * corner or an edge — a triangle corner on a node's boundary would otherwise be missed (Ize 2013,
 * "Robust BVH Ray Traversal", JCGT 2(2): t_far × (1 + 2γ₃), γ₃ = 3u / (1 − 3u), u = 2⁻⁵³).
 * Unitless.
 * @default 2γ₃ ≈ 6.7e-16
 */
export const RAY_SLAB_ROUNDING = (2 * (3 * 2 ** -53)) / (1 - 3 * 2 ** -53);

/**
 * Relative rounding noise of a GJK support value v·w: 16 ulps of 1. GJK stops when the lower
 * bound v·w/|v| is within this times the simplex size of |v|, since any further "improvement"
 * is noise (van den Bergen 2003, §4.3.4, bounds it the same way). Unitless (relative).
 * @default 16 × 2⁻⁵² ≈ 3.6e-15
 */
export const GJK_SUPPORT_ROUNDING = 16 * 2 ** -52;

/**
 * Relative padding of the boxes the collision world hands to its broad phase: each side moves
 * out by this times the box's largest coordinate magnitude (plus half the prediction distance).
 * A tight AABB and the narrow phase round differently, so two shapes that touch exactly in the
 * narrow phase (a capsule end on another's, 1e6 from the origin) can get boxes a few ulps apart;
 * the pad, about 4500 ulps, makes the broad phase conservative there, and the narrow phase still
 * decides exactly. Unitless (relative).
 * @default 1e-12
 */
export const WORLD_AABB_ROUNDING_PAD = 1e-12;

/**
 * Largest coordinate magnitude of a world body's (broad-phase) AABB: `addBody`, `setPose` and
 * `setPoses` refuse a pose that puts a coordinate past ±this with a `CollideError` naming the
 * field and value, the world unchanged. Finite is not enough: 1e308 is finite, but the world
 * takes differences and sums of coordinates (offsets between bodies, box extents, padded boxes),
 * and those overflow past about 9e307; this bound leaves a factor of 1e7 of headroom. Scene units.
 * @default 1e300
 */
export const WORLD_MAX_COORDINATE = 1e300;

/**
 * Relative padding of the swept boxes of continuous collision detection and of the world's
 * shape cast (src/world/ccd.ts, src/world/cast-shape.ts): each side of the box enclosing a
 * motion moves out by this times (the box's largest coordinate magnitude + the moving shape's
 * bounding radius). The time-of-impact search counts a gap below SHAPE_CAST_TOLERANCE × (sum of
 * the bounding radii) as contact, so a body whose box lies that far outside the exact swept
 * box can still be hit; this pad, ten times that tolerance, keeps the broad-phase query
 * conservative for bodies up to about ten times the moving shape's size, and the cast itself
 * still decides. Unitless (relative).
 * @default 1e-9
 */
export const SWEPT_AABB_PAD = 1e-9;

/**
 * How many GJK iterations in a row (src/geometry/gjk.ts) may fail to shrink |v|² while the
 * support point still lies well beyond v (the gap test fails): near a long edge or a wide face
 * that passes within rounding of the origin, the progress is below the rounding of |v|² while
 * the direction of v still turns, and stopping there returns a wrong distance. Four steps are
 * enough to grow a single point to a tetrahedron; after them GJK keeps its best simplex (the
 * "no progress" exit of van den Bergen 2003, §4.3.4). Count.
 * @default 4
 */
export const GJK_MAX_STALLED_ITERATIONS = 4;

/**
 * Default `maxPairs` of a `CollisionWorld`: the most candidate pairs one step takes to the narrow
 * phase before it throws instead (about 0.65 GB of manifold records at the limit). The 50,000-body
 * benchmark scene has about 126,000. Count.
 * @default 2^21 = 2,097,152
 */
export const WORLD_MAX_PAIRS = 2 ** 21;

/**
 * Slack of the query BVH's ray–node test (src/broadphase/query-bvh.ts), relative to the largest
 * coordinate magnitude of the boxes and the ray origin: the origin used for entry planes moves
 * back along the ray, and the one for exit planes forward, by this times that magnitude. The
 * node test's plane parameters carry at most about 5 roundings of that size and the exact leaf
 * test's (`raySegmentBoxEntry`) about 2, so 16 keeps every node an exact or leaf-exact test
 * would enter (Ize 2013, "Robust BVH ray traversal", with the widening moved out of the loop).
 * Unitless (relative).
 * @default 16 × Number.EPSILON ≈ 3.6e-15
 */
export const QUERY_BVH_RAY_SLACK = 16 * Number.EPSILON;

/**
 * Queries (ray casts and box queries) a collision world serves through its broad phase, after
 * its bodies last changed, before it builds the static query BVH (src/broadphase/query-bvh.ts),
 * per bounded body. Measured on the 10,000-box ray benchmark: the build takes about 2 µs per
 * body and each ray then costs about 3 µs less than through the dynamic tree, so after one
 * query per body the build has paid for itself within a factor of two. A static scene or a
 * frame of many rays gets the faster hierarchy; a world that moves every frame and casts a few
 * rays never pays for a build it cannot amortise. Queries per body.
 * @default 1
 */
export const WORLD_QUERY_BVH_RAYS_PER_BODY = 1;

/**
 * Bounded bodies from which a collision world reorders its storage slots along the Morton curve
 * of their boxes (the `reorderSlotsAt` option of src/world/collision-world.ts). Measured (CPU
 * time, bench/scenes.ts `random`, bodies added in random order, a frame of setPoses + step): at
 * 10,000 bodies reordering gained nothing (12.0–12.4 ms without, 12.9–14.2 with), at 20,000
 * 1.0–1.2×, at 50,000 1.0–1.1× (piles 1.1–1.2×); 16,384 is where it starts to pay. Off by
 * default (Infinity): the gain is small beside its costs — the first step about 60 ms slower at
 * 50,000 bodies, and a reordered world's pairs name their bodies in slot order, so `a < b` by
 * handle no longer holds — until `setPoses` in a user's order stops losing what the step gains.
 * Bodies.
 * @default Infinity (16,384 is the measured break-even, for `reorderSlotsAt`)
 */
export const WORLD_REORDER_SLOTS_AT = Number.POSITIVE_INFINITY;

/**
 * Relative padding of the narrow phase's bounding-sphere pre-test for spheres and boxes
 * (src/world/narrow-pair.ts): a pair is settled as apart only when its centres are farther
 * apart than (sum of bounding radii + prediction) × (1 + this). The squared distance and the
 * radii carry a few roundings; this pad, about 4.5 million ulps, keeps the test from rejecting
 * any pair the exact routine would report. Unitless (relative).
 * @default 1e-9
 */
export const WORLD_BOUND_REJECT_PAD = 1e-9;

/**
 * Iteration cap of the gradient descent that refines a contact normal on the unit sphere
 * (src/geometry/refine-normal.ts): Barzilai–Borwein steps, each one support evaluation.
 * @default 64
 */
export const REFINE_DESCENT_ITERATIONS = 64;

/**
 * Round cap of the pattern search that ends the normal refinement (8 support evaluations a
 * round; the step halves when no probe improves).
 * @default 96
 */
export const REFINE_PATTERN_ITERATIONS = 96;

/**
 * Angular resolution at which the normal refinement stops, radians: below it a change of the
 * normal moves the depth of a pair of size L by at most L·2⁻³⁶ ≈ 1.5e-11·L at a ridge (a kink
 * of the overlap function) and by far less at a smooth optimum.
 * @default 2⁻³⁶
 */
export const REFINE_MIN_ANGLE = 2 ** -36;

/**
 * Relative gap at or below which a GJK pair counts as touching (distance 0, intersecting): 32
 * ulps of the pair's size. GJK's distance carries a rounding of a few ulps of the support
 * points' magnitude, so exactly touching shapes (a capsule on a cylinder's rim) came out a few
 * ulps apart (issue 16, class 1). Unitless (relative to the larger bounding radius).
 * @default 32 × 2⁻⁵²
 */
export const TOUCH_TOLERANCE = 32 * 2 ** -52;

/**
 * Band about touching, relative to the pair's coordinate magnitude, within which a polytope
 * pair's computed separation is rounding and an exact predicate on the input doubles decides
 * touching (2D polygon SAT: orient2d per edge and vertex, src/dim2/contact2.ts; 3D: a gap
 * within it of GJK's support points asks intersects, whose supporting features are tested
 * exactly, src/narrowphase/convex-convex.ts): 2^12 times the rounding of a separation along a
 * unit normal. Unitless (relative).
 * @default 2⁻⁴⁰
 */
export const EXACT_TOUCH_BAND = 2 ** -40;

/**
 * Signed distance reported for an overlap without a finite depth: two half-spaces whose
 * normals are not exactly opposite overlap in an unbounded region, so no finite translation
 * separates them. The most negative double (finite, so it prints as a JSON number), in scene
 * units. Source: none; Collide's convention (docs/FORMATS.md, `halfspace`).
 */
export const UNBOUNDED_OVERLAP_DISTANCE = -Number.MAX_VALUE;

/**
 * Margin by which a warm start's cached separating axis must prove a world pair apart beyond
 * the prediction distance before the narrow phase is skipped (src/world/warm-start-cache.ts), relative
 * to the pair's size (|offset|₁ plus both bounding radii). A thousand times the distance accuracy
 * bar of every pair routine (docs/FORMATS.md, "Accuracy": 1e-9 relative), so the skipped cold
 * routine would have found the pair beyond the prediction too. Unitless.
 * @default 1e-6
 */
export const WARM_START_GAP_MARGIN = 1e-6;
