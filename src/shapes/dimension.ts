/**
 * Which dimension's constructors made a shape. The 2D and 3D shapes share type ids (a circle and
 * a sphere are both `{type: 0, radius}`), so each side refuses the other's made shapes by these
 * sets rather than validate one as a hand-built shape of its own kind (session 38: a circle was
 * accepted by `intersects` and `addBody` as a sphere, a sphere by `projectPoint2D` as a circle).
 * Read only on the path of a shape not marked as made by the side's own constructors.
 */

/** The shapes built by the 2D constructors (src/dim2/shapes.ts; validated, frozen). */
export const MADE_2D = new WeakSet<object>();

/** The shapes built by the 3D `make…` constructors (src/shapes/shape.ts, `brandShape`). */
export const MADE_3D = new WeakSet<object>();
