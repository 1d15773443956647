/**
 * The built-in shape definitions, one file per type, each registering its record in the table
 * (src/shapes/shape-def.ts) when it loads. src/shapes/registry.ts imports this module, so every
 * module that looks a shape up through the registry finds them all. A new type adds its
 * definition file here (docs/DESIGN.md, "Adding a shape").
 */
import "./sphere.js";
import "./cuboid.js";
import "./capsule.js";
import "./cylinder.js";
import "./cone.js";
import "./convex-polyhedron.js";
import "./triangle.js";
import "./triangle-mesh.js";
import "./half-space.js";
import "./compound.js";
import "../rounded.js";
import "../heightfield.js";
