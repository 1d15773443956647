/**
 * The `"dim": 2` lines of `collide query` (docs/FORMATS.md): the 2D JSON shapes (`circle`,
 * `rect`, `orect`, `polygon`, `capsule`, `segment`), every vector `[x, y]`, angles in radians
 * counter-clockwise, and the ops `intersects`, `distance`, `contact`, `manifold` (up to 2
 * points), `raycast`, `projectPoint`, `castShapes` and `pairs`, answered with the field names of
 * the 3D ops. Schemas are strict (unknown fields are errors) and every failure is a
 * `CollideError` naming the field and the value.
 */
import { z } from "zod";
import { WORLD_MAX_PAIRS } from "../constants.js";
import { castShapes2D } from "../dim2/cast-shapes2.js";
import { contact2D, distance2D, intersects2D } from "../dim2/contact2.js";
import { manifold2D } from "../dim2/manifold2.js";
import { projectPoint2D } from "../dim2/project-point2.js";
import { castRay2D } from "../dim2/raycast2.js";
import {
  capsuleAt,
  circleAt,
  orientedRect,
  type PosedShape2,
  polygonAt,
  rectFromMinMax,
  segmentAt,
} from "../dim2/shapes.js";
import type { Vec2 } from "../dim2/vec2.js";
import { CollisionWorld2D, type World2DBroadPhase } from "../dim2/world2.js";
import { CollideError, describeValue, invalidValue } from "../errors.js";
import { formatPath, parseWith } from "./validate-json.js";

const num = z.number();
const vec2 = z.tuple([num, num]);

/** Schemas of the 2D JSON shapes by `type`. */
export const SHAPE2D_SCHEMAS = {
  circle: z.strictObject({ type: z.literal("circle"), center: vec2, radius: num }),
  rect: z.strictObject({ type: z.literal("rect"), min: vec2, max: vec2 }),
  orect: z.strictObject({ type: z.literal("orect"), center: vec2, halfExtents: vec2, angle: num }),
  polygon: z.strictObject({ type: z.literal("polygon"), points: z.array(vec2) }),
  capsule: z.strictObject({ type: z.literal("capsule"), a: vec2, b: vec2, radius: num }),
  segment: z.strictObject({ type: z.literal("segment"), a: vec2, b: vec2 }),
} as const;

/** The 2D JSON shape type names. */
export const SHAPE2D_TYPES = Object.keys(SHAPE2D_SCHEMAS) as (keyof typeof SHAPE2D_SCHEMAS)[];

function v2(a: readonly number[]): Vec2 {
  return { x: a[0], y: a[1] };
}

/** A 2D vector as a JSON array; −0 becomes 0 so that output is canonical. */
export function arr2(v: Vec2): [number, number] {
  return [v.x + 0, v.y + 0];
}

/**
 * Parses the 2D JSON shape at `field` into a shape and its world pose. Throws `CollideError`
 * (`missing_field`, `unknown_field`, `invalid_value`) naming the field and the value.
 */
export function parseShape2D(json: unknown, field: string): PosedShape2 {
  if (json === undefined) {
    throw new CollideError("missing_field", field, undefined, `missing field ${field}`);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    invalidValue(field, json, "must be a shape object");
  }
  const type = (json as { type?: unknown }).type;
  const tfield = formatPath(field, ["type"]);
  if (type === undefined) {
    throw new CollideError("missing_field", tfield, undefined, `missing field ${tfield}`);
  }
  if (typeof type !== "string" || !(type in SHAPE2D_SCHEMAS)) {
    invalidValue(tfield, type, `must be one of ${SHAPE2D_TYPES.join(", ")} (dim 2)`);
  }
  switch (type as keyof typeof SHAPE2D_SCHEMAS) {
    case "circle": {
      const s = parseWith(SHAPE2D_SCHEMAS.circle, json, field);
      return circleAt(v2(s.center), s.radius, field);
    }
    case "rect": {
      const s = parseWith(SHAPE2D_SCHEMAS.rect, json, field);
      if (!(s.min[0] <= s.max[0] && s.min[1] <= s.max[1])) {
        invalidValue(`${field}.max`, s.max, "must be ≥ min on every axis");
      }
      return rectFromMinMax(v2(s.min), v2(s.max), field);
    }
    case "orect": {
      const s = parseWith(SHAPE2D_SCHEMAS.orect, json, field);
      return orientedRect(v2(s.center), v2(s.halfExtents), s.angle, field);
    }
    case "polygon": {
      const s = parseWith(SHAPE2D_SCHEMAS.polygon, json, field);
      try {
        return polygonAt(s.points.map(v2), field);
      } catch (e) {
        throw asGiven(e, field ? `${field}.points` : "points", s.points);
      }
    }
    case "capsule": {
      const s = parseWith(SHAPE2D_SCHEMAS.capsule, json, field);
      return capsuleAt(v2(s.a), v2(s.b), s.radius, field);
    }
    case "segment": {
      const s = parseWith(SHAPE2D_SCHEMAS.segment, json, field);
      return segmentAt(v2(s.a), v2(s.b), field);
    }
  }
  return invalidValue(tfield, type, "is not a 2D shape");
}

const base = { id: z.unknown().optional(), op: z.string(), dim: z.literal(2) };
const pairSchema = z.strictObject({ ...base, a: z.unknown(), b: z.unknown() });
const contactSchema = z.strictObject({
  ...base,
  a: z.unknown(),
  b: z.unknown(),
  prediction: num.optional(),
});
const raycastSchema = z.strictObject({
  ...base,
  shape: z.unknown(),
  origin: vec2,
  direction: vec2,
  maxToi: num.optional(),
  solid: z.boolean().optional(),
});
const projectSchema = z.strictObject({
  ...base,
  shape: z.unknown(),
  point: vec2,
  solid: z.boolean().optional(),
});
const castSchema = z.strictObject({
  ...base,
  a: z.unknown(),
  velocityA: vec2,
  b: z.unknown(),
  velocityB: vec2,
  maxToi: num.optional(),
});
const pairsSchema = z.strictObject({
  ...base,
  shapes: z.array(z.unknown()),
  broadphase: z.enum(["brute", "sap", "grid", "tree", "quadtree"]).optional(),
  maxPairs: z.number().optional(),
});

function prediction(p: number | undefined): number {
  if (p === undefined) return 0;
  if (!(p >= 0)) invalidValue("prediction", p, "must be ≥ 0");
  return p;
}

function maxToiOf(t: number): number {
  if (!(t >= 0)) invalidValue("maxToi", t, "must be ≥ 0");
  return t;
}

/**
 * Answers one parsed `"dim": 2` query object (its `op` already known to be one of the query
 * ops); returns the `result` of its output line. Throws `CollideError` for an invalid line, and
 * `unsupported_pair` for the 3D-only ops (`volume`, `boundingSphere`).
 */
export function answerQuery2D(q: unknown): unknown {
  try {
    return answerQuery2DNamed(q);
  } catch (e) {
    throw nameInputFields2D(e, q);
  }
}

/** The JSON field of each 2D shape form that places its pose (the routines' `poseA.p`…). */
const POSE_FIELD_2D: Readonly<Record<string, string>> = {
  circle: "center",
  rect: "min",
  orect: "center",
  polygon: "points",
  capsule: "a",
  segment: "a",
};

/**
 * The error `e` with the 2D routines' argument names (`poseA.p`, `poseB.p`, `pose.p`) replaced, in
 * its field and message, by the field of the query line that placed that shape (`a.center`,
 * `b.points`, `shape.min`), and its value by that field's value as the line gave it: a line's
 * error names what the line said. Any other error is returned as it is.
 */
function nameInputFields2D(e: unknown, q: unknown): unknown {
  if (!(e instanceof CollideError) || q === null || typeof q !== "object") return e;
  const line = q as Record<string, unknown>;
  /** The line's field that placed `key`'s shape (`a.center`), or null. */
  const placedBy = (key: string): string | null => {
    const json = line[key];
    const type =
      json !== null && typeof json === "object" ? (json as { type?: unknown }).type : null;
    const f = typeof type === "string" ? POSE_FIELD_2D[type] : undefined;
    return f === undefined ? null : `${key}.${f}`;
  };
  const names: [RegExp, string | null, string][] = [
    [/(?<![\w.])poseA\.p(?![\w.])/g, placedBy("a"), "a"],
    [/(?<![\w.])poseB\.p(?![\w.])/g, placedBy("b"), "b"],
    [/(?<![\w.])pose\.p(?![\w.])/g, placedBy("shape"), "shape"],
  ];
  let field = e.field;
  let message = e.message;
  let value = e.value;
  for (const [pattern, name, key] of names) {
    if (name === null) continue;
    if (field.replace(pattern, name) !== field) {
      field = name;
      const json = line[key] as Record<string, unknown>;
      value = json[name.slice(key.length + 1)];
      message = message.replace(/ \(got [\s\S]*\)$/, ` (got ${describeValue(value)})`);
    }
    message = message.replace(pattern, name);
  }
  if (field === e.field && message === e.message) return e;
  return new CollideError(e.code, field, value, message);
}

/**
 * The world's `addBody` error about its pose (`body.pose.p`) named by the field of the line's
 * shape `json` at `key` that placed it (`shapes[1].center`), with that field's value; any other
 * error as it is.
 */
function namePlacedBody(e: unknown, key: string, json: unknown): unknown {
  if (!(e instanceof CollideError) || e.field !== "body.pose.p") return e;
  const shape = json as Record<string, unknown>;
  const f = POSE_FIELD_2D[String(shape.type)];
  if (f === undefined) return e;
  const name = `${key}.${f}`;
  const value = shape[f];
  const message = e.message
    .replace("body.pose.p", name)
    .replace(/ \(got [\s\S]*\)$/, ` (got ${describeValue(value)})`);
  return new CollideError(e.code, name, value, message);
}

function answerQuery2DNamed(q: unknown): unknown {
  const op = (q as { op?: unknown }).op;
  switch (op) {
    case "intersects": {
      const l = parseWith(pairSchema, q, "");
      const a = parseShape2D(l.a, "a");
      const b = parseShape2D(l.b, "b");
      return { intersects: intersects2D(a.shape, a.pose, b.shape, b.pose) };
    }
    case "distance": {
      const l = parseWith(pairSchema, q, "");
      const a = parseShape2D(l.a, "a");
      const b = parseShape2D(l.b, "b");
      const d = distance2D(a.shape, a.pose, b.shape, b.pose);
      return { distance: d.distance, pointA: arr2(d.pointA), pointB: arr2(d.pointB) };
    }
    case "contact": {
      const l = parseWith(contactSchema, q, "");
      const p = prediction(l.prediction);
      const a = parseShape2D(l.a, "a");
      const b = parseShape2D(l.b, "b");
      const c = contact2D(a.shape, a.pose, b.shape, b.pose, p);
      if (!c) return null;
      return {
        distance: c.distance,
        normal: arr2(c.normal),
        pointA: arr2(c.pointA),
        pointB: arr2(c.pointB),
      };
    }
    case "manifold": {
      const l = parseWith(contactSchema, q, "");
      const p = prediction(l.prediction);
      const a = parseShape2D(l.a, "a");
      const b = parseShape2D(l.b, "b");
      const m = manifold2D(a.shape, a.pose, b.shape, b.pose, p);
      if (!m) return null;
      const points = [];
      for (let i = 0; i < m.count; i++) {
        const pt = m.points[i];
        points.push({
          pointA: arr2(pt.pointA),
          pointB: arr2(pt.pointB),
          distance: pt.distance,
        });
      }
      return { normal: arr2(m.normal), points };
    }
    case "raycast": {
      const l = parseWith(raycastSchema, q, "");
      if (l.direction[0] === 0 && l.direction[1] === 0) {
        invalidValue("direction", l.direction, "must not be the zero vector");
      }
      const s = parseShape2D(l.shape, "shape");
      const hit = castRay2D(
        s.shape,
        s.pose,
        v2(l.origin),
        v2(l.direction),
        maxToiOf(l.maxToi ?? Number.POSITIVE_INFINITY),
        l.solid ?? true,
      );
      if (!hit) return null;
      return { toi: hit.toi, point: arr2(hit.point), normal: arr2(hit.normal) };
    }
    case "projectPoint": {
      const l = parseWith(projectSchema, q, "");
      const s = parseShape2D(l.shape, "shape");
      const r = projectPoint2D(s.shape, s.pose, v2(l.point), l.solid ?? true);
      return { point: arr2(r.point), distance: r.distance, inside: r.inside };
    }
    case "castShapes": {
      const l = parseWith(castSchema, q, "");
      const a = parseShape2D(l.a, "a");
      const b = parseShape2D(l.b, "b");
      const r = castShapes2D(
        a.shape,
        a.pose,
        v2(l.velocityA),
        b.shape,
        b.pose,
        v2(l.velocityB),
        maxToiOf(l.maxToi ?? Number.POSITIVE_INFINITY),
      );
      if (!r) return null;
      return {
        toi: r.toi,
        normal: arr2(r.normal),
        pointA: arr2(r.pointA),
        pointB: arr2(r.pointB),
      };
    }
    case "pairs": {
      const l = parseWith(pairsSchema, q, "");
      const shapes = l.shapes.map((s, i) => parseShape2D(s, `shapes[${i}]`));
      const maxPairs = l.maxPairs ?? WORLD_MAX_PAIRS;
      if (!(Number.isInteger(maxPairs) && maxPairs >= 1)) {
        invalidValue("maxPairs", maxPairs, "must be an integer >= 1");
      }
      const world = new CollisionWorld2D({
        broadphase: (l.broadphase ?? "brute") as World2DBroadPhase,
        maxPairs,
      });
      const handles = shapes.map((s, i) => {
        try {
          return world.addBody({ shape: s.shape, pose: s.pose });
        } catch (e) {
          throw namePlacedBody(e, `shapes[${i}]`, l.shapes[i]);
        }
      });
      const index = new Map<number, number>();
      for (let i = 0; i < handles.length; i++) index.set(handles[i], i);
      try {
        world.step();
      } catch (e) {
        // The world names its option; the query line's field is `maxPairs`.
        if (e instanceof CollideError && e.field === "options.maxPairs") {
          invalidValue(
            "maxPairs",
            maxPairs,
            "is exceeded: the broad phase found more candidate pairs (raise it to allow this)",
          );
        }
        throw e;
      }
      const pairs: [number, number][] = [];
      for (let i = 0; i < world.contactCount; i++) {
        const c = world.readContact(i);
        pairs.push([index.get(c.a) as number, index.get(c.b) as number]);
      }
      return { pairs };
    }
  }
  throw new CollideError(
    "unsupported_pair",
    "op",
    op,
    `op ${describeValue(op)} is not supported with dim 2`,
  );
}

/**
 * A polygon's error with its value as the input gave it (`[x, y]` pairs), not as the converted
 * `{x, y}` points the shape routines saw (a fresh user's report: the collinear-points message
 * printed objects the input never had). `e` is rethrown unchanged unless it names `f` or
 * `f[i]`.
 */
function asGiven(e: unknown, f: string, given: readonly (readonly number[])[]): unknown {
  if (!(e instanceof CollideError) || e.code !== "invalid_value") return e;
  let value: unknown;
  if (e.field === f) value = given;
  else {
    const m = /^\[(\d+)\]$/.exec(e.field.slice(f.length));
    if (!e.field.startsWith(f) || !m) return e;
    value = given[Number(m[1])];
  }
  const prefix = `${e.field} `;
  const end = e.message.lastIndexOf(" (got ");
  if (!e.message.startsWith(prefix) || end < prefix.length) return e;
  const reason = e.message.slice(prefix.length, end);
  return new CollideError(
    "invalid_value",
    e.field,
    value,
    `${e.field} ${reason} (got ${describeValue(value)})`,
  );
}
