/**
 * Boundary validation of JSON input with zod: a schema failure becomes a `CollideError` whose
 * code is the `collide query` error code (`unknown_field`, `missing_field`, `invalid_value`) and
 * whose message names the field by its full path and the value it had.
 */
import type { z } from "zod";
import { CollideError, describeValue } from "../errors.js";

/**
 * Deepest nesting of arrays and objects accepted in a JSON input (a query line or a scene
 * file). The deepest valid input is about 10 levels (a scene's compound child's hull points);
 * recursive validation would overflow the call stack at a few thousand levels, so deeper input
 * is refused up front as `invalid_json`.
 * @default 128
 */
export const MAX_JSON_DEPTH = 128;

/** The Unicode byte order mark, which editors on some systems write at the start of a file. */
const BOM = "\uFEFF";

/** `text` without a leading byte order mark. */
export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/**
 * The deepest nesting of arrays and objects in JSON text, counting brackets outside strings
 * (one pass, no recursion); stops counting once past `limit` and returns a value above it.
 */
export function jsonNestingDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** A key given twice in one JSON object: its name and the field path of the second one. */
export interface DuplicateKey {
  /** The key, decoded (`"\u006fp"` is `op`). */
  readonly key: string;
  /** The field path of the repeated key, as in error messages: `op`, `a.radius`, `shapes[2].type`. */
  readonly field: string;
}

/**
 * An object of more keys than this is checked through a `Set` of its keys instead of comparing
 * each new key with the earlier ones (linear per key below it, so small objects allocate
 * nothing; constant above it, so an object of 10^5 keys stays linear).
 */
const DUPLICATE_SCAN_LINEAR_KEYS = 16;

/** The duplicate-key scan's reusable buffers: per key start, end, escaped flag; per level. */
let scanKeys = new Int32Array(3 * 64);
const scanLevels = {
  /** 1 for an object, 0 for an array, per nesting level. */
  isObject: new Uint8Array(MAX_JSON_DEPTH + 2),
  /** An object's first key in `scanKeys` (a key index), or an array's element index. */
  first: new Int32Array(MAX_JSON_DEPTH + 2),
  /** An object's key count. */
  count: new Int32Array(MAX_JSON_DEPTH + 2),
  /** An object's keys once it has more than {@link DUPLICATE_SCAN_LINEAR_KEYS}. */
  sets: [] as (Set<string> | undefined)[],
};

/** The key stored at index k of `scanKeys`, decoded (its raw text if it is not valid JSON). */
function scannedKey(text: string, k: number): string {
  const s = scanKeys[3 * k];
  const e = scanKeys[3 * k + 1];
  if (scanKeys[3 * k + 2] === 0) return text.slice(s, e);
  try {
    return JSON.parse(text.slice(s - 1, e + 1)) as string;
  } catch {
    return text.slice(s, e); // text that JSON.parse refuses in any case
  }
}

/** True when keys j and k of `scanKeys` are the same string once decoded. */
function sameScannedKey(text: string, j: number, k: number): boolean {
  const sj = scanKeys[3 * j];
  const sk = scanKeys[3 * k];
  const n = scanKeys[3 * j + 1] - sj;
  if (scanKeys[3 * j + 2] === 0 && scanKeys[3 * k + 2] === 0) {
    if (scanKeys[3 * k + 1] - sk !== n) return false;
    for (let i = 0; i < n; i++)
      if (text.charCodeAt(sj + i) !== text.charCodeAt(sk + i)) return false;
    return true;
  }
  return scannedKey(text, j) === scannedKey(text, k);
}

/** What one pass over JSON text found: its nesting depth and its first duplicate key. */
export interface JsonTextScan {
  /** As {@link jsonNestingDepth}: the deepest nesting, or a value above the limit once past it. */
  readonly depth: number;
  /** The first key given twice in one object, or null (meaningful when the text is valid JSON). */
  readonly duplicate: DuplicateKey | null;
}

/**
 * One pass over JSON text (no parser: it follows strings, brackets, colons and commas) that
 * measures its nesting as {@link jsonNestingDepth} does and finds the first key given twice in
 * one object, which `JSON.parse` would resolve silently (the last wins; a reviver never sees the
 * first). Keys are compared as decoded strings (`"op"` and `"\u006fp"` are one key). Made to run
 * before `JSON.parse` on any text: on text that is not valid JSON its `duplicate` means nothing
 * (the caller refuses the text as `JSON.parse` does). Stops once deeper than `limit` (at most
 * {@link MAX_JSON_DEPTH}). Allocates nothing but its result for objects of at most
 * {@link DUPLICATE_SCAN_LINEAR_KEYS} keys without escapes.
 */
export function scanJsonText(text: string, limit = MAX_JSON_DEPTH): JsonTextScan {
  const L = scanLevels;
  const cap = Math.min(limit, MAX_JSON_DEPTH);
  let depth = -1;
  let deepest = -1;
  let keyTop = 0;
  let expectKey = false;
  let duplicate: DuplicateKey | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i + 1;
      let escaped = 0;
      for (i = start; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = 1;
          i++;
        } else if (d === 0x22) break;
      }
      if (!expectKey) continue;
      expectKey = false;
      if (3 * keyTop + 3 > scanKeys.length) {
        const grown = new Int32Array(2 * scanKeys.length);
        grown.set(scanKeys);
        scanKeys = grown;
      }
      const k = keyTop++;
      scanKeys[3 * k] = start;
      scanKeys[3 * k + 1] = Math.min(i, text.length);
      scanKeys[3 * k + 2] = escaped;
      const first = L.first[depth];
      const n = ++L.count[depth];
      let seen = false;
      if (n <= DUPLICATE_SCAN_LINEAR_KEYS) {
        for (let j = first; j < k && !seen; j++) seen = sameScannedKey(text, j, k);
      } else {
        let set = L.sets[depth];
        if (set === undefined || n === DUPLICATE_SCAN_LINEAR_KEYS + 1) {
          set = new Set<string>();
          for (let j = first; j < k; j++) set.add(scannedKey(text, j));
          L.sets[depth] = set;
        }
        const key = scannedKey(text, k);
        seen = set.has(key);
        set.add(key);
      }
      if (seen && duplicate === null) {
        duplicate = { key: scannedKey(text, k), field: scannedPath(text, depth) };
      }
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest >= cap) break;
      }
      L.isObject[depth] = c === 0x7b ? 1 : 0;
      L.first[depth] = c === 0x7b ? keyTop : 0;
      L.count[depth] = 0;
      L.sets[depth] = undefined;
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      // Below the top level the text is not JSON (JSON.parse refuses it): stop looking.
      if (depth < 0) break;
      if (L.isObject[depth] === 1) {
        keyTop = L.first[depth];
        L.sets[depth] = undefined;
      }
      depth--;
      expectKey = false;
    } else if (c === 0x2c && depth >= 0) {
      if (L.isObject[depth] === 1) expectKey = true;
      else L.first[depth]++;
    }
  }
  for (let d = 0; d <= deepest && d <= cap; d++) L.sets[d] = undefined;
  return { depth: deepest + 1, duplicate };
}

/**
 * The first key given twice in one object of the JSON text `text`, or null: see
 * {@link scanJsonText}.
 */
export function findDuplicateKey(text: string): DuplicateKey | null {
  return scanJsonText(text).duplicate;
}

/** The field path of the scan's current position: each level's last key or element index. */
function scannedPath(text: string, depth: number): string {
  const path: PropertyKey[] = [];
  for (let d = 0; d <= depth; d++) {
    if (scanLevels.isObject[d] === 1) {
      path.push(scannedKey(text, scanLevels.first[d] + scanLevels.count[d] - 1));
    } else path.push(scanLevels.first[d]);
  }
  return formatPath("", path);
}

/**
 * Parses JSON text after removing a leading byte order mark. Throws
 * `CollideError("invalid_json")` whose message starts with `what` (e.g. "invalid JSON") for
 * text that is not JSON, that nests arrays and objects deeper than {@link MAX_JSON_DEPTH}, or
 * that gives one key twice in an object (`{"op": "distance", "op": "intersects"}`: JSON.parse
 * would keep the last silently; the error's field is the key's path, `op` or `a.radius`, and
 * its value the key).
 */
export function parseJsonText(
  text: string,
  what: string,
  field = "",
  value: unknown = text,
): unknown {
  const t = stripBom(text);
  const scan = scanJsonText(t);
  if (scan.depth > MAX_JSON_DEPTH) {
    throw new CollideError(
      "invalid_json",
      field,
      value,
      `${what}: nesting too deep (more than ${MAX_JSON_DEPTH} levels of arrays and objects)`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new CollideError("invalid_json", field, value, `${what}: ${msg}`);
  }
  const dup = scan.duplicate;
  if (dup !== null) {
    throw new CollideError(
      "invalid_json",
      dup.field,
      dup.key,
      `${what}: key ${JSON.stringify(dup.key)} is given twice in one object (field ${dup.field || `""`}); each key may be given once`,
    );
  }
  return parsed;
}

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
  // JSON has no Infinity, but a number beyond the doubles (1e999) parses as one: zod calls it
  // "not a number"; it is a number that is not finite.
  const expected =
    typeof got === "number" && issue.code === "invalid_type" && issue.expected === "number"
      ? "must be a finite number"
      : describeExpectation(issue);
  throw new CollideError(
    "invalid_value",
    field,
    got,
    `${field || "input"} ${expected} (got ${describeValue(got)})`,
  );
}

/** The English noun phrase, with its article, for a zod type name ("an integer", "an array"). */
const TYPE_PHRASES: Record<string, string> = {
  int: "an integer",
  number: "a number",
  string: "a string",
  boolean: "a boolean",
  array: "an array",
  tuple: "an array",
  object: "an object",
  record: "an object",
  null: "null",
};

function typePhrase(expected: string): string {
  return TYPE_PHRASES[expected] ?? `${/^[aeiou]/i.test(expected) ? "an" : "a"} ${expected}`;
}

function describeExpectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${typePhrase(issue.expected)}`;
    case "too_small":
    case "too_big":
      return issue.origin === "array"
        ? `must have ${issue.code === "too_small" ? "at least" : "at most"} ${issue.code === "too_small" ? issue.minimum : issue.maximum} items`
        : `is out of range: ${issue.message}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_union": {
      // Each form's first issue ("a.scale matches none of its forms (must be a number; must have
      // at least 3 items)"), not zod's bare "Invalid input".
      const forms = issue.errors
        .filter((e) => e.length > 0)
        .map((e) => {
          const sub = formatPath("", e[0].path as PropertyKey[]);
          return `${sub ? `${sub} ` : ""}${describeExpectation(e[0])}`;
        });
      return forms.length > 0
        ? `matches none of its forms (${forms.join("; ")})`
        : `is invalid: ${issue.message}`;
    }
    default:
      return `is invalid: ${issue.message}`;
  }
}

/** The keys of `field` below `prefix` (`a.max[2]` below `a` is `["max", 2]`), or null. */
function keysBelow(field: string, prefix: string): PropertyKey[] | null {
  if (!field.startsWith(prefix)) return null;
  let rest = field.slice(prefix.length);
  const keys: PropertyKey[] = [];
  while (rest !== "") {
    const index = /^\[(\d+)\]/.exec(rest);
    const name = rest.startsWith(".") || (prefix === "" && keys.length === 0);
    const key = name ? /^\.?([^.[\]]+)/.exec(rest) : null;
    if (index) keys.push(Number(index[1]));
    else if (key) keys.push(key[1]);
    else return null;
    rest = rest.slice((index ?? key)?.[0].length ?? rest.length);
  }
  return keys;
}

const VECTOR_KEYS = ["x", "y", "z", "w"] as const;

/** True when `v` is the `{x, y[, z[, w]]}` object holding the numbers of array `a`. */
function isSameVector(v: unknown, a: readonly unknown[]): boolean {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  if (a.length < 2 || a.length > VECTOR_KEYS.length || Object.keys(v).length !== a.length) {
    return false;
  }
  const o = v as Record<string, unknown>;
  return a.every((x, i) => o[VECTOR_KEYS[i]] === x);
}

/**
 * True when `v` is the packed form (`[x0, y0, z0, x1, …]`, an array or typed array) of the point
 * list `a` (`[[x0, y0, z0], [x1, …]…]`) that the input gave: a hull's or mesh's points checked
 * after packing.
 */
function isSamePacked(v: unknown, a: readonly unknown[]): boolean {
  if (!(Array.isArray(v) || v instanceof Float64Array) || a.length === 0) return false;
  let k = 0;
  for (const p of a) {
    if (!Array.isArray(p)) return false;
    for (const x of p) if (v[k++] !== x) return false;
  }
  return k === v.length;
}

/**
 * The error `e` with its value as the user wrote it. Shape constructors check vectors as
 * `{x, y, z}` objects, so their `CollideError`s echo that object; when the input at the error's
 * field (found in `root`, whose own path is `prefix`) is the array `[x, y, z]` holding the same
 * numbers, the error is rebuilt with that array as its value and in its message; likewise a
 * packed point list (`[x0, y0, z0, x1, …]`) whose input was `[[x0, y0, z0], …]`. Any other
 * error is returned as it is.
 */
export function echoAsGiven(e: unknown, root: unknown, prefix: string): unknown {
  if (!(e instanceof CollideError) || e.code !== "invalid_value") return e;
  const keys = keysBelow(e.field, prefix);
  if (keys === null) return e;
  const given = valueAt(root, keys);
  if (!Array.isArray(given) || !(isSameVector(e.value, given) || isSamePacked(e.value, given))) {
    return e;
  }
  const was = `(got ${describeValue(e.value)})`;
  if (!e.message.endsWith(was)) return e;
  const message = `${e.message.slice(0, -was.length)}(got ${describeValue(given)})`;
  return new CollideError(e.code, e.field, given, message);
}
