/**
 * `collide/node`: the Node-only entry. It holds what reads files or needs Node's modules and the
 * Node-only dependencies (`node:fs`, `node:path`, `@gltf-transform/core`): the scene and query
 * JSON formats of the `collide` command (docs/FORMATS.md), the OBJ and glTF/GLB mesh loaders and
 * the built-in Stanford bunny. The main entry (`collide`, src/index.ts) imports none of it, so
 * it bundles for browsers; this entry re-exports the main one's geometry where a Node program
 * needs it with the loaders (import it from `collide`).
 *
 * The `collide` command (src/cli) reaches files, scenes and queries through this module.
 */

// The pair table's default registrations (see src/index.ts).
import "./narrowphase/dispatch.js";

export type { CheckOptions, CheckPair, CheckResult } from "./io/check.js";
export { checkScene } from "./io/check.js";
export type { MeshData, MeshFileOptions, MeshTransformOptions } from "./io/mesh-loaders.js";
export {
  bunnyMeshData,
  loadGltfFile,
  loadMeshFile,
  loadMeshFileSync,
  MAX_GLTF_VERTICES,
  MAX_MESH_FILE_BYTES,
  meshFileKind,
  meshFromData,
  parseGlb,
  parseObj,
  transformMeshData,
} from "./io/mesh-loaders.js";
export type { QueryLineAnswer, QuerySession } from "./io/query.js";
export {
  answerQuery,
  answerQueryLine,
  answerQueryLineAsync,
  answerQueryLines,
  MAX_MESH_FILES_PER_LINE,
  makeQuerySession,
  QUERY_MESH_CACHE_SIZE,
  QUERY_OPS,
} from "./io/query.js";
export type { LoadSceneOptions, Scene, SceneBody } from "./io/scene.js";
export { DEFAULT_LAYER, DEFAULT_MASK, loadScene, loadSceneAsync, parseScene } from "./io/scene.js";
export type { PosedShape, ShapeParseContext } from "./io/shapes-json.js";
export { parseShape, SHAPE_TYPES } from "./io/shapes-json.js";
export type { BunnyData } from "./models/bunny.js";
export { loadBunny } from "./models/bunny.js";
