/**
 * Debug draw and debugging aids, renderer-independent: coloured line segments and points for
 * shapes, bounding volumes, contacts, GJK simplices and EPA polytopes; the JSON the debug viewer
 * renders; the frames of a moving demo scene.
 */
export * from "./demo-frames.js";
export * from "./draw.js";
export * from "./gjk-draw.js";
export * from "./gjk-trace.js";
export * from "./shape-view.js";
export * from "./shapes.js";
export * from "./view-model.js";
