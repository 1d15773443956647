/**
 * Boundary validation of JSON input with zod: a schema failure becomes a `CollideError` whose
 * code is the `collide query` error code (`unknown_field`, `missing_field`, `invalid_value`) and
 * whose message names the field by its full path and the value it had.
 */
import type { z } from "zod";
import { CollideError, describeValue } from "../errors.js";

/** Renders a path as `a.center[2]`, prefixed by `prefix` when given. */
export function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let s = prefix;
  for (const k of path) {
    if (typeof k === "number") s += `[${k}]`;
    else s += s ? `.${String(k)}` : String(k);
  }
  return s;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[k as string];
  }
  return v;
}

/**
 * Parses `value` with `schema` or throws the `CollideError` of its first issue; `prefix` is the
 * field path of `value` inside the whole input (e.g. `"a"`).
 */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, prefix: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue.path as PropertyKey[];
  if (issue.code === "unrecognized_keys") {
    const key = (issue as { keys: string[] }).keys[0];
    const field = formatPath(prefix, [...path, key]);
    throw new CollideError("unknown_field", field, key, `unknown field ${field}`);
  }
  const field = formatPath(prefix, path);
  const got = valueAt(value, path);
  if (got === undefined) {
    throw new CollideError("missing_field", field, undefined, `missing field ${field}`);
  }
  const expected = describeExpectation(issue);
  throw new CollideError(
    "invalid_value",
    field,
    got,
    `${field || "input"} ${expected} (got ${describeValue(got)})`,
  );
}

function describeExpectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${issue.expected === "tuple" ? "an array" : `a ${issue.expected}`}`;
    case "too_small":
    case "too_big":
      return issue.origin === "array"
        ? `must have ${issue.code === "too_small" ? "at least" : "at most"} ${issue.code === "too_small" ? issue.minimum : issue.maximum} items`
        : `is out of range: ${issue.message}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return `is invalid: ${issue.message}`;
  }
}
