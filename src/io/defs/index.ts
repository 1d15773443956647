/**
 * The scene JSON forms of every built-in shape, registered in the docs/FORMATS.md order (the
 * order of the "must be one of …" message). A new shape whose form is its definition's JSON plus
 * an optional `position` and `rotation` needs no file here.
 */
import "./sphere-json.js";
import "./cuboid-json.js";
import "./capsule-json.js";
import "./cylinder-json.js";
import "./cone-json.js";
import "./convex-polyhedron-json.js";
import "./triangle-json.js";
import "./rounded-json.js";
import "./half-space-json.js";
import "./heightfield-json.js";
import "./compound-json.js";
import "./triangle-mesh-json.js";
