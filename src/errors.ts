/**
 * The one error type of Collide. Every refusal of bad input throws a `CollideError` that names
 * the offending field (a dotted path such as `shapes[2].radius`) and the value it had, so that
 * a user — or the `collide` command, which maps `code` to its JSON error codes — can say what
 * is wrong without guessing.
 */

/** Machine-readable reason for a {@link CollideError}; the `collide query` error codes. */
export type CollideErrorCode =
  | "invalid_value"
  | "missing_field"
  | "unknown_field"
  | "unknown_op"
  | "invalid_json"
  | "unsupported_pair"
  | "io_error";

/** An error raised at Collide's boundary: bad input, an unsupported query, an unreadable file. */
export class CollideError extends Error {
  /** The reason, one of {@link CollideErrorCode}. */
  readonly code: CollideErrorCode;
  /** The field the error is about (a dotted path), or `""` when it is about the whole input. */
  readonly field: string;
  /** The offending value, as given. */
  readonly value: unknown;

  constructor(code: CollideErrorCode, field: string, value: unknown, message: string) {
    super(message);
    this.name = "CollideError";
    this.code = code;
    this.field = field;
    this.value = value;
  }
}

/** Marks a non-finite number inside an object while it is rendered as JSON (see below). */
const NON_FINITE_MARK = "\u0000collide-non-finite\u0000";
/** The marked number as `JSON.stringify` writes it: the mark escaped, quoted. */
const NON_FINITE_MARKED = /"\\u0000collide-non-finite\\u0000(NaN|-?Infinity)"/g;

/**
 * The JSON form of a shape a `make…` constructor built (its kind by name, `{"type": "sphere",
 * "radius": 1}`), or its argument unchanged for anything else: set once by src/shapes/shape.ts
 * when it loads (this module cannot import the shapes), so that no message prints a shape record
 * with its internal type number (`{"type":0,…}`, issue 16).
 */
let shapeJsonForMessage: (value: object) => unknown = (value) => value;

/** Sets how {@link describeValue} writes a shape made by a constructor (src/shapes/shape.ts). */
export function setShapeMessageForm(form: (value: object) => unknown): void {
  shapeJsonForMessage = form;
}

/**
 * Renders a value for an error message: numbers exactly (NaN, Infinity), strings quoted, objects
 * as JSON with their non-finite numbers written bare — `{"x":NaN}` for the number, `{"x":"NaN"}`
 * for the string "NaN", so the two never print alike — and a shape made by a constructor, alone
 * or nested, as its JSON form, its kind by name ({@link setShapeMessageForm}).
 */
export function describeValue(value: unknown): string {
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (value === undefined) return "undefined";
  // A typed array as the numbers it holds (JSON would print it as an object: "{}" when empty).
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    value = Array.from((value as Float64Array).subarray(0, 40));
  }
  try {
    const s = JSON.stringify(value, (_k, v) =>
      typeof v === "number"
        ? Number.isFinite(v)
          ? v
          : NON_FINITE_MARK + String(v)
        : v !== null && typeof v === "object"
          ? shapeJsonForMessage(v)
          : v,
    ).replace(NON_FINITE_MARKED, "$1");
    return s.length > 120 ? `${s.slice(0, 117)}...` : s;
  } catch {
    // JSON has no functions: name one (its source, which String() gives, can be kilobytes).
    return typeof value === "function" ? `function ${value.name}` : String(value);
  }
}

/** Throws `invalid_value` for `field`: `<field> <reason> (got <value>)`. */
export function invalidValue(field: string, value: unknown, reason: string): never {
  throw new CollideError(
    "invalid_value",
    field,
    value,
    `${field} ${reason} (got ${describeValue(value)})`,
  );
}

/**
 * Throws `invalid_value` naming `field` unless `out` is a record an answer can be written into:
 * an object that is not frozen, whose sub-records `parts` (e.g. `"point"`, `"normal"`) are
 * objects that are not frozen either. `what` completes "must be …" (the record and its maker).
 * A null, a number, a `{}` or a frozen record had thrown a TypeError half way through writing
 * the answer. Costs a few `typeof`s and `Object.isFrozen` calls; allocates nothing.
 */
export function checkOutRecord(
  field: string,
  out: unknown,
  parts: readonly string[],
  what: string,
): void {
  let ok = out !== null && typeof out === "object" && !Object.isFrozen(out);
  for (let i = 0; ok && i < parts.length; i++) {
    const v = (out as Record<string, unknown>)[parts[i] as string];
    ok = v !== null && typeof v === "object" && !Object.isFrozen(v);
  }
  if (!ok) invalidValue(field, out, `must be ${what}`);
}

/**
 * Throws `invalid_value` naming `field` unless `out` is an array answers can be appended to (an
 * `Array` that is not frozen).
 */
export function checkOutArray(field: string, out: unknown): void {
  if (!Array.isArray(out) || Object.isFrozen(out)) invalidValue(field, out, "must be an array");
}

/**
 * The check of a shape constructor's optional last argument `field` (the name its errors use):
 * throws `invalid_value` naming `field` unless it is a string. An options object or a second
 * shape argument passed in its place — `makeTriangleMesh(v, i, { solid: true })`,
 * `makeSphere(r, { x: 1 })`, `makeCuboid(min, max)` — would otherwise be dropped silently or
 * print as "[object Object]" in the field's place. `hint` (a clause after a colon) says what
 * the owner takes instead. Every public `make…` shape constructor calls it first; costs one
 * `typeof` on the valid path.
 */
export function checkFieldArg(owner: string, field: unknown, hint = ""): asserts field is string {
  if (typeof field !== "string")
    invalidValue(
      "field",
      field,
      `of ${owner} must be a string (the name its errors use)${hint ? `: ${hint}` : ""}`,
    );
}

/** The kind of value an option takes, as `typeof` names it; `"any"`: checked by its owner. */
export type OptionType = "boolean" | "number" | "string" | "function" | "object" | "any";

/**
 * The valid keys of one options object (made once, at module load, by {@link optionsSpec}): who
 * takes it, under which field name, and each key's {@link OptionType}.
 */
export interface OptionsSpec {
  /** The function or constructor taking the options (`"castRayClosest"`), for the message. */
  readonly owner: string;
  /** The options' field path (`"options"`, `"filter"`, `"body"`, `"children[i]"`). */
  readonly field: string;
  /** Each valid key and the type of its value. */
  readonly keys: Readonly<Record<string, OptionType>>;
  /** The valid keys, in order (the check reads each: an inherited one is refused). */
  readonly names: readonly string[];
}

/** An {@link OptionsSpec} (frozen; build it once at module level, never per call). */
export function optionsSpec(
  owner: string,
  field: string,
  keys: Readonly<Record<string, OptionType>>,
): OptionsSpec {
  const own: Record<string, OptionType> = Object.create(null);
  const names = Object.keys(keys);
  for (const k of names) {
    // A key every object inherits (toString, constructor) would be refused as inherited on
    // every plain object: no option may be named so.
    if (k in Object.prototype)
      throw new Error(`optionsSpec: option key "${k}" is a member of Object.prototype`);
    own[k] = keys[k];
  }
  return Object.freeze({ owner, field, keys: Object.freeze(own), names: Object.freeze(names) });
}

/**
 * `defaults` with every key of `options` whose value is not `undefined` written over it: the
 * options merge of the constructors, where `undefined` means "not set" (README), so that
 * `{ executor: maybeExecutor }` keeps the default when `maybeExecutor` is `undefined`. A new
 * object; `options` may be `undefined`.
 */
export function withDefaults<T extends object>(defaults: T, options: Partial<T> | undefined): T {
  const o = { ...defaults };
  if (options === undefined || options === null) return o;
  for (const key of Object.keys(options) as (keyof T)[]) {
    const v = options[key];
    if (v !== undefined) o[key] = v as T[keyof T];
  }
  return o;
}

/**
 * The options check of every public function taking an options (or description) object:
 * throws `CollideError` unless `options` is `undefined` (nothing set) or an object whose every
 * own enumerable key is one of `spec.keys` — `unknown_field` naming `<field>.<key>` and the
 * owner, with the closest valid key when it is an obvious typo — and whose every valid key
 * that reads as not `undefined` is the object's own property (`invalid_value` naming
 * `<field>.<key>`: an option is read from the object itself, never through its prototype — an
 * `Object.create({ solid: true })` or a class's getter had been honoured unchecked, attack 36b;
 * inherited properties that are no option are not read and so not looked at) and has the key's
 * type (`invalid_value`: `null` is not "not set"). So every option its owner reads has passed
 * here. The ranges of values stay the owner's to check. Allocates nothing on the valid path (a
 * `for…in` over the given object; a read of each valid key only when its prototype is not a
 * plain object's), so hot queries may call it on every call.
 */
export function checkOptions(options: unknown, spec: OptionsSpec): void {
  if (options === undefined) return;
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    invalidValue(spec.field, options, `must be an object (the options of ${spec.owner})`);
  }
  const keys = spec.keys;
  const o = options as Record<string, unknown>;
  for (const key in o) {
    const type = keys[key];
    if (!Object.hasOwn(o, key)) {
      // Enumerable on the prototype (Object.create({ solid: true }), a polluted
      // Object.prototype): an option read through it is refused, anything else not read.
      if (type !== undefined && o[key] !== undefined) refuseInherited(spec, key, o[key]);
      continue;
    }
    const value = o[key];
    if (type === undefined) refuseUnknownKey(spec, key, value);
    if (value === undefined || type === "any") continue;
    if (typeof value !== type || value === null) {
      invalidValue(
        `${spec.field}.${key}`,
        value,
        `must be ${type === "object" ? "an object" : `a ${type}`} (an option of ${spec.owner})`,
      );
    }
  }
  // A prototype other than a plain object's (a class instance, Object.create(proto)) may hold
  // getters or non-enumerable properties that `for…in` does not see but a read of the option
  // does: each valid key is read, and one set there refused. A plain object (the common case,
  // kept to one prototype read) inherits only what Object.prototype holds: an option assigned
  // there is enumerable, seen above (one defined non-enumerable there is not looked for).
  const proto = Object.getPrototypeOf(o);
  if (proto === Object.prototype || proto === null) return;
  const names = spec.names;
  for (let i = 0; i < names.length; i++) {
    const key = names[i];
    if (o[key] !== undefined && !Object.hasOwn(o, key)) refuseInherited(spec, key, o[key]);
  }
}

/** The inherited-option error of {@link checkOptions} (the error path only). */
function refuseInherited(spec: OptionsSpec, key: string, value: unknown): never {
  invalidValue(
    `${spec.field}.${key}`,
    value,
    `is inherited (from the object's prototype): options are read from the object's own properties only — set it on the object itself (an option of ${spec.owner})`,
  );
}

/** The unknown-key error of {@link checkOptions} (allocates: the error path only). */
function refuseUnknownKey(spec: OptionsSpec, key: string, value: unknown): never {
  const valid = Object.keys(spec.keys);
  const guess = closestKey(key, valid);
  const hint = guess === null ? "" : ` (did you mean "${guess}"?)`;
  const field = `${spec.field}.${key}`;
  throw new CollideError(
    "unknown_field",
    field,
    value,
    `${spec.owner}: ${field} is not an option${hint}; valid: ${valid.join(", ") || "none"}`,
  );
}

/**
 * The valid key an unknown one most likely misspells: equal but for case, a prefix of it or it
 * of a prefix (`tol` → `tolerance`), or within an edit distance of 2 (1 for keys of ≤ 4
 * letters); null when none is that close.
 */
export function closestKey(key: string, valid: readonly string[]): string | null {
  const k = key.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const v of valid) {
    const l = v.toLowerCase();
    if (l === k) return v;
    const d = editDistance(k, l);
    const limit = Math.min(k.length, l.length) <= 4 ? 1 : 2;
    if (d <= limit && d < bestDistance) {
      best = v;
      bestDistance = d;
    }
  }
  if (best !== null) return best;
  for (const v of valid) {
    const l = v.toLowerCase();
    if (k.length >= 3 && (l.startsWith(k) || k.startsWith(l))) return v;
  }
  return null;
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * Throws `CollideError` unless `options` is a plain object whose every key is one of
 * `defaults`' own keys (the options check of the executors and the GPU options, whose specs are
 * their defaults): {@link checkOptions} with every key of `defaults` taking any value.
 */
export function checkOptionKeys(options: unknown, defaults: object, owner = "options"): void {
  if (options === undefined) invalidValue("options", options, "must be an object");
  const keys: Record<string, OptionType> = {};
  for (const k of Object.keys(defaults)) keys[k] = "any";
  checkOptions(options, optionsSpec(owner, "options", keys));
}
