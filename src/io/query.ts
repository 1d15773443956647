/**
 * `collide query`: one JSON query object in, one JSON answer out (docs/FORMATS.md). Each op
 * validates its fields strictly (unknown fields are errors), converts JSON shapes to shapes with
 * poses, calls the public query functions and renders vectors as `[x, y, z]`.
 */
import { z } from "zod";
import { WORLD_MAX_PAIRS } from "../constants.js";
import { CollideError, describeValue, invalidValue } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import { type BoundingSphereMethod, boundingSphereOfPoints } from "../query/bounding-sphere.js";
import { castShapes } from "../query/cast-shapes.js";
import { contact } from "../query/contact.js";
import { distance } from "../query/distance.js";
import { frustumIntersectsShape, makeFrustum } from "../query/frustum.js";
import { intersects } from "../query/intersects.js";
import { manifold } from "../query/manifold.js";
import { overlapVolume } from "../query/overlap-volume.js";
import { type BroadPhaseName, computePairsLimited } from "../query/pairs.js";
import { projectPoint } from "../query/project-point.js";
import { raycast } from "../query/raycast.js";
import { sphereSphereIntersection, sphereSphereVolumeErrorBound } from "../query/volume.js";
import { ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import { arrAt, parseShapesLocal as parseLocal } from "./local-frame.js";
import type { MeshData } from "./mesh-loaders.js";
import { loadMeshFile, loadMeshFileSync, meshFileKind } from "./mesh-loaders.js";
import { answerQuery2D } from "./query-2d.js";
import { sceneForm } from "./scene-forms.js";
import type { ShapeParseContext } from "./shapes-json.js";
import { parseShape } from "./shapes-json.js";
import { echoAsGiven, parseJsonText, parseWith } from "./validate-json.js";

/** Every op of docs/FORMATS.md. */
export const QUERY_OPS = [
  "intersects",
  "distance",
  "contact",
  "manifold",
  "raycast",
  "projectPoint",
  "castShapes",
  "volume",
  "boundingSphere",
  "pairs",
  "frustum",
] as const;

/** Ops that a later version answers. */
const LATER_OPS = new Set<string>([]);

const num = z.number();
const vec = z.tuple([num, num, num]);
const base = {
  id: z.unknown().optional(),
  op: z.string(),
  dim: z.union([z.literal(2), z.literal(3)]).optional(),
};
const pairSchema = z.strictObject({ ...base, a: z.unknown(), b: z.unknown() });
const contactSchema = z.strictObject({
  ...base,
  a: z.unknown(),
  b: z.unknown(),
  prediction: num.optional(),
});
const boundingSphereSchema = z.strictObject({
  ...base,
  points: z.array(vec),
  method: z.enum(["mean", "ritter", "exact"]),
});
const raycastSchema = z.strictObject({
  ...base,
  shape: z.unknown(),
  origin: vec,
  direction: vec,
  maxToi: num.optional(),
  solid: z.boolean().optional(),
});
const projectPointSchema = z.strictObject({
  ...base,
  shape: z.unknown(),
  point: vec,
  solid: z.boolean().optional(),
});
const castShapesSchema = z.strictObject({
  ...base,
  a: z.unknown(),
  velocityA: vec,
  b: z.unknown(),
  velocityB: vec,
  maxToi: num.optional(),
});
const pairsSchema = z.strictObject({
  ...base,
  shapes: z.array(z.unknown()),
  broadphase: z.enum(["brute", "sap", "grid", "tree", "octree"]).optional(),
  maxPairs: num.optional(),
});

const frustumSchema = z.strictObject({
  ...base,
  frustum: z.strictObject({
    position: vec,
    rotation: z.tuple([num, num, num, num]).optional(),
    fovY: num,
    aspect: num,
    near: num,
    far: num,
  }),
  shapes: z.array(z.unknown()),
});

/** A vector as a JSON array; −0 becomes 0 so that output is canonical. */
export function arr(v: Vec3): [number, number, number] {
  return [v.x + 0, v.y + 0, v.z + 0];
}

/**
 * Answers one parsed query object; returns the `result` value of its output line. `mesh` files
 * resolve by `ctx` (default: relative to the working directory, inside it, OBJ only). Throws
 * `CollideError` for an invalid line (the caller renders it as an error line), with vector
 * values echoed as the arrays the line gave.
 */
export function answerQuery(q: unknown, ctx: ShapeParseContext = {}): unknown {
  try {
    return answerQueryObject(q, ctx);
  } catch (e) {
    throw echoAsGiven(nameInputFields(e, q), q, "");
  }
}

/**
 * The JSON field that sets the translation of a shape's pose, by its form (`center`, `position`,
 * or `min` for an `aabb`, whose centre comes from min and max), or null for the forms placed by
 * their own points (capsule, triangle, half-space).
 */
function translationField(json: unknown): string | null {
  const type = json !== null && typeof json === "object" ? (json as { type?: unknown }).type : null;
  return (typeof type === "string" && sceneForm(type)?.translationField) || null;
}

/**
 * The error `e` with the pair queries' own argument names (`poseA`, `poseB.translation`,
 * `pose.translation`, `shapes[i].pose.translation`) replaced, in its field and its message, by
 * the fields of the query line that set them (`a.center`, `b.position`, `shape.min`,
 * `shapes[i].center`): a line's error names what the line said. Any other error is returned as
 * it is.
 */
function nameInputFields(e: unknown, q: unknown): unknown {
  if (!(e instanceof CollideError) || q === null || typeof q !== "object") return e;
  const line = q as Record<string, unknown>;
  const names: [RegExp, string][] = [];
  const add = (internal: string, key: string, json: unknown): void => {
    const f = translationField(json);
    const escaped = internal.replace(/[.[\]]/g, "\\$&");
    const pattern = `(?<![\\w.\\]])${escaped}(\\.translation\\b|(?![\\w.]))`;
    if (f) names.push([new RegExp(pattern, "g"), `${key}.${f}`]);
  };
  add("poseA", "a", line.a);
  add("poseB", "b", line.b);
  add("pose", "shape", line.shape);
  if (Array.isArray(line.shapes)) {
    line.shapes.forEach((json, i) => {
      add(`shapes[${i}].pose`, `shapes[${i}]`, json);
    });
  }
  let field = e.field;
  let message = e.message;
  for (const [pattern, name] of names) {
    field = field.replace(pattern, name);
    message = message.replace(pattern, name);
  }
  if (field === e.field && message === e.message) return e;
  return new CollideError(e.code, field, e.value, message);
}

function answerQueryObject(q: unknown, ctx: ShapeParseContext): unknown {
  if (q === null || typeof q !== "object" || Array.isArray(q)) {
    throw new CollideError(
      "invalid_json",
      "",
      q,
      `a query line must be a JSON object (got ${describeValue(q)})`,
    );
  }
  const op = (q as { op?: unknown }).op;
  if (op === undefined)
    throw new CollideError("missing_field", "op", undefined, "missing field op");
  if (typeof op !== "string" || !(QUERY_OPS as readonly string[]).includes(op)) {
    throw new CollideError(
      "unknown_op",
      "op",
      op,
      `unknown op ${describeValue(op)}; expected one of ${QUERY_OPS.join(", ")}`,
    );
  }
  const dim = (q as { dim?: unknown }).dim;
  if (dim !== undefined && dim !== 2 && dim !== 3) invalidValue("dim", dim, "must be 2 or 3");
  if (dim === 2) return answerQuery2D(q);
  if (LATER_OPS.has(op)) {
    throw new CollideError(
      "unsupported_pair",
      "op",
      op,
      `op ${op} is not supported by this version`,
    );
  }
  switch (op) {
    case "intersects": {
      const l = parseWith(pairSchema, q, "");
      const {
        shapes: [a, b],
      } = parseLocal([l.a, l.b], ["a", "b"], ctx);
      return { intersects: intersects(a.shape, a.pose, b.shape, b.pose) };
    }
    case "distance": {
      const l = parseWith(pairSchema, q, "");
      const {
        shapes: [a, b],
        o,
      } = parseLocal([l.a, l.b], ["a", "b"], ctx);
      const d = distance(a.shape, a.pose, b.shape, b.pose);
      return { distance: d.distance, pointA: arrAt(d.pointA, o), pointB: arrAt(d.pointB, o) };
    }
    case "contact": {
      const l = parseWith(contactSchema, q, "");
      // Validated (≥ 0) by contact() / manifold() themselves.
      const prediction = l.prediction ?? 0;
      const {
        shapes: [a, b],
        o,
      } = parseLocal([l.a, l.b], ["a", "b"], ctx);
      const c = contact(a.shape, a.pose, b.shape, b.pose, prediction);
      if (!c) return null;
      return {
        distance: c.distance,
        normal: arr(c.normal),
        pointA: arrAt(c.pointA, o),
        pointB: arrAt(c.pointB, o),
        errorBound: c.errorBound ?? 0,
      };
    }
    case "manifold": {
      const l = parseWith(contactSchema, q, "");
      // Validated (≥ 0) by contact() / manifold() themselves.
      const prediction = l.prediction ?? 0;
      const {
        shapes: [a, b],
        o,
      } = parseLocal([l.a, l.b], ["a", "b"], ctx);
      const m = manifold(a.shape, a.pose, b.shape, b.pose, prediction);
      if (!m) return null;
      const points = [];
      for (let i = 0; i < m.count; i++) {
        const p = m.points[i];
        points.push({
          pointA: arrAt(p.pointA, o),
          pointB: arrAt(p.pointB, o),
          distance: p.distance,
        });
      }
      return { normal: arr(m.normal), points };
    }
    case "raycast": {
      const l = parseWith(raycastSchema, q, "");
      const [dx, dy, dz] = l.direction;
      if (dx === 0 && dy === 0 && dz === 0) {
        invalidValue("direction", l.direction, "must not be the zero vector");
      }
      const maxToi = l.maxToi ?? Number.POSITIVE_INFINITY;
      if (!(maxToi >= 0)) invalidValue("maxToi", maxToi, "must be ≥ 0");
      const s = parseShape(l.shape, "shape", ctx);
      const o = l.origin;
      const hit = raycast(
        s.shape,
        s.pose,
        { x: o[0], y: o[1], z: o[2] },
        { x: dx, y: dy, z: dz },
        maxToi,
        l.solid ?? true,
      );
      if (!hit) return null;
      return { toi: hit.toi, point: arr(hit.point), normal: arr(hit.normal) };
    }
    case "projectPoint": {
      const l = parseWith(projectPointSchema, q, "");
      const s = parseShape(l.shape, "shape", ctx);
      const p = l.point;
      const r = projectPoint(s.shape, s.pose, { x: p[0], y: p[1], z: p[2] }, l.solid ?? true);
      return { point: arr(r.point), distance: r.distance, inside: r.inside };
    }
    case "castShapes": {
      const l = parseWith(castShapesSchema, q, "");
      const maxToi = l.maxToi ?? Number.POSITIVE_INFINITY;
      if (!(maxToi >= 0)) invalidValue("maxToi", maxToi, "must be ≥ 0");
      const {
        shapes: [a, b],
        o,
      } = parseLocal([l.a, l.b], ["a", "b"], ctx);
      const va = l.velocityA;
      const vb = l.velocityB;
      const hit = castShapes(
        a.shape,
        a.pose,
        { x: va[0], y: va[1], z: va[2] },
        b.shape,
        b.pose,
        { x: vb[0], y: vb[1], z: vb[2] },
        maxToi,
      );
      if (!hit) return null;
      return {
        toi: hit.toi,
        normal: arr(hit.normal),
        pointA: arrAt(hit.pointA, o),
        pointB: arrAt(hit.pointB, o),
      };
    }
    case "volume": {
      const l = parseWith(pairSchema, q, "");
      const a = parseShape(l.a, "a", ctx);
      const b = parseShape(l.b, "b", ctx);
      if (a.shape.type === ShapeType.Sphere && b.shape.type === ShapeType.Sphere) {
        const r = sphereSphereIntersection(
          a.pose.translation,
          (a.shape as Sphere).radius,
          b.pose.translation,
          (b.shape as Sphere).radius,
        );
        // JSON has no Infinity: a lens whose volume overflows is refused by the smaller ball.
        if (!(r.volume < Infinity)) {
          const [field, radius] =
            (b.shape as Sphere).radius < (a.shape as Sphere).radius
              ? ["b.radius", (b.shape as Sphere).radius]
              : ["a.radius", (a.shape as Sphere).radius];
          invalidValue(
            field,
            radius,
            "is too large: the intersection lies in this ball, whose volume (4/3)πr³ overflows a double (above about 1.8e308); scale the scene down",
          );
        }
        const errorBound = sphereSphereVolumeErrorBound(
          a.pose.translation,
          (a.shape as Sphere).radius,
          b.pose.translation,
          (b.shape as Sphere).radius,
          r.volume,
        );
        // (A bound that overflowed while the volume did not: the largest double still holds.)
        return {
          volume: r.volume,
          surfaceArea: r.surfaceArea,
          iou: r.iou,
          errorBound: Number.isFinite(errorBound) ? errorBound : Number.MAX_VALUE,
        };
      }
      const r = overlapVolume(a.shape, a.pose, b.shape, b.pose);
      // Two half-spaces sharing an unbounded region: Infinity, which JSON cannot print; the
      // largest double instead, as `contact` reports their distance (docs/FORMATS.md).
      const volume = r.volume === Infinity ? Number.MAX_VALUE : r.volume;
      return { volume, errorBound: r.errorBound };
    }
    case "boundingSphere": {
      const l = parseWith(boundingSphereSchema, q, "");
      if (l.points.length === 0) invalidValue("points", l.points, "must not be empty");
      const packed = new Float64Array(l.points.length * 3);
      for (let i = 0; i < l.points.length; i++) packed.set(l.points[i], 3 * i);
      const s = boundingSphereOfPoints(packed, l.method as BoundingSphereMethod);
      return { center: arr(s.center), radius: s.radius };
    }
    case "frustum": {
      const l = parseWith(frustumSchema, q, "");
      const c = l.frustum;
      const f = makeFrustum(
        {
          position: { x: c.position[0], y: c.position[1], z: c.position[2] },
          // Omitted rotation means identity, as everywhere in these formats.
          rotation:
            c.rotation === undefined
              ? { x: 0, y: 0, z: 0, w: 1 }
              : { x: c.rotation[0], y: c.rotation[1], z: c.rotation[2], w: c.rotation[3] },
          fovY: c.fovY,
          aspect: c.aspect,
          near: c.near,
          far: c.far,
        },
        "frustum",
      );
      const visible: number[] = [];
      for (let i = 0; i < l.shapes.length; i++) {
        const s = parseShape(l.shapes[i], `shapes[${i}]`, ctx);
        if (frustumIntersectsShape(f, s.shape, s.pose)) visible.push(i);
      }
      return { visible };
    }
    case "pairs": {
      const l = parseWith(pairsSchema, q, "");
      const { shapes } = parseLocal(
        l.shapes,
        l.shapes.map((_, i) => `shapes[${i}]`),
        ctx,
      );
      const broadphase = (l.broadphase ?? "brute") as BroadPhaseName;
      return {
        pairs: computePairsLimited(shapes, broadphase, l.maxPairs ?? WORLD_MAX_PAIRS, "maxPairs"),
      };
    }
  }
  throw new CollideError("unknown_op", "op", op, `unknown op ${describeValue(op)}`);
}

/**
 * Answers a JSON Lines text: one output line per non-blank input line, in order. `id` is echoed
 * from the input or is the 0-based physical line number. Returns the output lines and whether
 * any line failed. Never throws for bad lines; unexpected internal errors become error lines too.
 * Synchronous, so mesh files must be OBJ (see `answerQueryLineAsync` for glTF).
 */
export function answerQueryLines(
  text: string,
  ctx: ShapeParseContext = {},
): { lines: string[]; failed: boolean } {
  const out: string[] = [];
  let failed = false;
  const inputLines = text.split("\n");
  for (let i = 0; i < inputLines.length; i++) {
    const raw = inputLines[i].replace(/\r$/, "");
    if (raw.trim() === "") continue;
    const r = answerQueryLine(raw, i, ctx);
    if (r.failed) failed = true;
    out.push(r.line);
  }
  return { lines: out, failed };
}

/** One output line of `collide query` and whether it is an error line. */
export interface QueryLineAnswer {
  line: string;
  failed: boolean;
}

/** A query line's parsed JSON and the id its answer carries. */
interface ParsedLine {
  id: unknown;
  query: unknown;
}

function errorLine(id: unknown, e: unknown): QueryLineAnswer {
  if (e instanceof CollideError) {
    return {
      line: JSON.stringify({ id, error: { code: e.code, message: e.message } }),
      failed: true,
    };
  }
  const msg = e instanceof Error ? e.message : String(e);
  return {
    line: JSON.stringify({
      id,
      error: { code: "invalid_value", message: `internal error: ${msg}` },
    }),
    failed: true,
  };
}

/**
 * Parses a line (a leading byte order mark ignored), or gives its error line: `invalid_json`
 * (not JSON, nested too deep, a key given twice), or `invalid_value` naming `id` for an id that
 * cannot be echoed as given — one holding a number beyond the doubles (`1e400` parses as
 * Infinity, which JSON would print as null). Those error lines carry the line number as id.
 */
function parseLine(raw: string, lineNumber: number): ParsedLine | QueryLineAnswer {
  let query: unknown;
  try {
    query = parseJsonText(raw, "invalid JSON");
  } catch (e) {
    return errorLine(lineNumber, e);
  }
  if (query === null || typeof query !== "object" || Array.isArray(query) || !("id" in query)) {
    return { id: lineNumber, query };
  }
  const id = (query as { id: unknown }).id;
  const bad = findNonFinite(id, "id");
  if (bad !== null) {
    const [field, value] = bad;
    return errorLine(
      lineNumber,
      new CollideError(
        "invalid_value",
        field,
        value,
        `${field} must be a finite number: a number beyond the range of doubles (about 1.8e308) cannot be echoed (got ${describeValue(value)})`,
      ),
    );
  }
  return { id, query };
}

/**
 * Raised (not a `CollideError`) by the query session's mesh loader when a line needs a glTF file
 * that is not loaded yet: {@link answerQueryLineAsync} loads it and answers the line again.
 */
class PendingMeshLoad extends Error {
  constructor(
    readonly path: string,
    readonly field: string,
  ) {
    super(`mesh file ${path} is not loaded yet`);
  }
}

/** Answers a parsed line; every error except {@link PendingMeshLoad} becomes an error line. */
function answerParsed(p: ParsedLine, ctx: ShapeParseContext): QueryLineAnswer {
  try {
    const result = answerQuery(p.query, ctx);
    const nonFinite = findNonFinite(result, "result");
    if (nonFinite !== null) {
      const bad = nonFinite[0];
      // JSON would print NaN or ±Infinity as null: refuse instead of losing the information,
      // naming the input's largest number (fresh41 07: the message had named only the output).
      const largest: [string, number] = ["", 0];
      largestInput(p.query, "", largest);
      const [field, value] = largest;
      throw new CollideError(
        "invalid_value",
        field,
        value,
        field === ""
          ? `the answer's ${bad} is not a finite number: the input is out of the range doubles can answer`
          : `the input is too large for a finite ${bad.replace(/^result\./, "")}: its largest number, ${field} = ${describeValue(value)}, and the others add up past the range of doubles (about 1.8e308; scale the scene down)`,
      );
    }
    return { line: JSON.stringify({ id: p.id, result }), failed: false };
  } catch (e) {
    if (e instanceof PendingMeshLoad) throw e;
    return errorLine(p.id, e);
  }
}

/**
 * Answers one non-blank input line (`lineNumber` is 0-based); see {@link answerQueryLines}.
 * Mesh files resolve by `ctx` (default: the working directory, OBJ files only).
 */
export function answerQueryLine(
  raw: string,
  lineNumber: number,
  ctx: ShapeParseContext = {},
): QueryLineAnswer {
  const p = parseLine(raw, lineNumber);
  if ("line" in p) return p;
  return answerParsed(p, ctx);
}

/**
 * Mesh files one query session keeps loaded, at most; past it the least recently used is
 * dropped (and read again when a later line needs it). Bounds the memory of a long stream
 * that names many files.
 * @default 64
 */
export const QUERY_MESH_CACHE_SIZE = 64;

/**
 * Distinct glTF files one query line may load; a line naming more gets an `invalid_value`
 * error line (a sane line names one or two).
 * @default 1024
 */
export const MAX_MESH_FILES_PER_LINE = 1024;

/**
 * The state the lines of one `collide query` run share: where mesh paths start and whether
 * they may leave that folder, and the mesh files loaded so far (each read once, keyed by
 * absolute path; a file changed during the run is not read again while it stays cached).
 */
export interface QuerySession {
  /** Folder that relative mesh paths start from. @default process.cwd() */
  readonly baseDir?: string;
  /** Allow mesh files outside `baseDir` (`--allow-outside`). @default false */
  readonly allowOutside?: boolean;
  /** Loaded mesh files by absolute path, least recently used first. */
  readonly meshes: Map<string, MeshData>;
}

/** A new query session with an empty mesh cache; see {@link QuerySession}. */
export function makeQuerySession(
  options: { baseDir?: string; allowOutside?: boolean } = {},
): QuerySession {
  return { baseDir: options.baseDir, allowOutside: options.allowOutside, meshes: new Map() };
}

function rememberMesh(session: QuerySession, path: string, data: MeshData): void {
  const m = session.meshes;
  m.delete(path);
  m.set(path, data);
  while (m.size > QUERY_MESH_CACHE_SIZE) {
    const oldest = m.keys().next().value as string;
    m.delete(oldest);
  }
}

/**
 * Answers one non-blank input line as {@link answerQueryLine} does, but `mesh` shapes may name
 * glTF/GLB files too: they load asynchronously (OBJ files synchronously) and stay cached in
 * `session`. Lines must be answered one after another (await each) to keep the output order.
 * Never rejects for a bad line: it resolves to the line's error line.
 */
export async function answerQueryLineAsync(
  raw: string,
  lineNumber: number,
  session: QuerySession,
): Promise<QueryLineAnswer> {
  const p = parseLine(raw, lineNumber);
  if ("line" in p) return p;
  // Files this line uses, so that cache eviction cannot drop one between the attempts below.
  const used = new Map<string, MeshData>();
  const use = (path: string, data: MeshData) => {
    used.set(path, data);
    rememberMesh(session, path, data);
    return data;
  };
  const ctx: ShapeParseContext = {
    baseDir: session.baseDir,
    allowOutside: session.allowOutside,
    loadMesh: (path, field) => {
      const known = used.get(path) ?? session.meshes.get(path);
      if (known) return use(path, known);
      if (meshFileKind(path) === "gltf") throw new PendingMeshLoad(path, field);
      return use(path, loadMeshFileSync(path, field));
    },
  };
  // Each attempt either answers the line or meets one more glTF file that is not loaded yet.
  for (let attempt = 0; attempt <= MAX_MESH_FILES_PER_LINE; attempt++) {
    let pending: PendingMeshLoad;
    try {
      return answerParsed(p, ctx);
    } catch (e) {
      if (!(e instanceof PendingMeshLoad) || used.has(e.path)) return errorLine(p.id, e);
      pending = e;
    }
    try {
      const where = {
        baseDir: session.baseDir ?? process.cwd(),
        allowOutside: session.allowOutside,
      };
      use(pending.path, await loadMeshFile(pending.path, pending.field, where));
    } catch (e) {
      return errorLine(p.id, e);
    }
  }
  return errorLine(
    p.id,
    new CollideError(
      "invalid_value",
      "",
      null,
      `a query line may load at most ${MAX_MESH_FILES_PER_LINE} glTF files`,
    ),
  );
}

/**
 * The path and value of the first non-finite number inside `v` (answers and ids are small
 * objects), or null.
 */
/**
 * The number of largest magnitude in the query `v` (its `id` left out) and its path (`a.radius`,
 * `b.points[1][0]`) into `out`, when larger than `out[1]`'s: the input a non-finite answer names.
 */
function largestInput(v: unknown, path: string, out: [string, number]): void {
  if (typeof v === "number") {
    if (Math.abs(v) > Math.abs(out[1])) {
      out[0] = path;
      out[1] = v;
    }
    return;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) largestInput(v[i], `${path}[${i}]`, out);
    return;
  }
  if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      if (path === "" && k === "id") continue;
      largestInput(x, path === "" ? k : `${path}.${k}`, out);
    }
  }
}

function findNonFinite(v: unknown, path: string): [string, number] | null {
  if (typeof v === "number") return Number.isFinite(v) ? null : [path, v];
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = findNonFinite(v[i], `${path}[${i}]`);
      if (r !== null) return r;
    }
    return null;
  }
  if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      const r = findNonFinite(x, `${path}.${k}`);
      if (r !== null) return r;
    }
  }
  return null;
}
