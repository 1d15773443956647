/**
 * Every shape module at once (for tests and tools): constructors, support functions and world
 * AABBs, plus the generic `supportShape` and `aabbShape` through the shape definitions' table
 * (src/shapes/registry.ts, where library code imports them from, so that it does not load every
 * shape type).
 */

// The deferred operations of the built-in definitions (src/shapes/defs/ops.ts).
import "./defs/ops.js";

export * from "./capsule.js";
export * from "./compound.js";
export * from "./cone.js";
export * from "./convex-polyhedron.js";
export * from "./cuboid.js";
export * from "./cylinder.js";
export * from "./half-space.js";
export * from "./heightfield.js";
export { aabbShape, aabbShapeOfType, supportShape } from "./registry.js";
export * from "./rounded.js";
export * from "./shape.js";
export * from "./sphere.js";
export * from "./triangle.js";
export * from "./triangle-mesh.js";
