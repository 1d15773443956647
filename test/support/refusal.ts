/**
 * The bad-input tests' helper: calls `f`, expects it to throw a {@link CollideError} and returns
 * that error (for its `code`, `field`, `value` and message); fails the test when `f` returns.
 */
import { expect } from "vitest";
import { CollideError } from "../../src/errors.js";

export function refusal(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("no error");
}
