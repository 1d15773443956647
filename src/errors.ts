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
 * Renders a value for an error message: numbers exactly (NaN, Infinity), strings quoted, objects
 * as JSON with their non-finite numbers written bare — `{"x":NaN}` for the number, `{"x":"NaN"}`
 * for the string "NaN", so the two never print alike.
 */
export function describeValue(value: unknown): string {
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (value === undefined) return "undefined";
  try {
    const s = JSON.stringify(value, (_k, v) =>
      typeof v === "number" && !Number.isFinite(v) ? NON_FINITE_MARK + String(v) : v,
    ).replace(NON_FINITE_MARKED, "$1");
    return s.length > 120 ? `${s.slice(0, 117)}...` : s;
  } catch {
    return String(value);
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
 * Throws `CollideError` (`invalid_value`) unless `options` is a plain object whose every key is
 * one of `defaults`' own keys, naming the first unknown one as `options.<key>`: the options
 * check of the world and of the executor, so that a misspelt option is refused, not ignored.
 */
export function checkOptionKeys(options: unknown, defaults: object): void {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    invalidValue("options", options, "must be an object");
  }
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(defaults, key)) {
      invalidValue(`options.${key}`, (options as Record<string, unknown>)[key], "is not an option");
    }
  }
}
