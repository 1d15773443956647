/**
 * The deferred operations (manifold features, ray cast, point projection: `ShapeOps` in
 * src/shapes/shape-def.ts) of the built-in types whose definitions defer them. The modules that
 * use those operations import this one — src/narrowphase/manifold.ts, src/query/raycast.ts,
 * src/query/project-point.ts — so an app that never asks for them (a `collide/core` app calling
 * only `intersects`) bundles none of them. A definition may also keep its operations in its
 * record (the rounded shapes, the heightfield, the composites do): then it needs no line here.
 */
import "./sphere-ops.js";
import "./cuboid-ops.js";
