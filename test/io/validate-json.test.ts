import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CollideError } from "../../src/errors.js";
import { parseScene } from "../../src/io/scene.js";
import {
  echoAsGiven,
  jsonNestingDepth,
  MAX_JSON_DEPTH,
  parseJsonText,
  parseWith,
  stripBom,
} from "../../src/io/validate-json.js";

function errorOf(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("did not throw");
}

/** Depth of a parsed JSON value, by recursion (an oracle for the one-pass bracket count). */
function depthOf(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depthOf));
  if (v !== null && typeof v === "object") return 1 + Math.max(0, ...Object.values(v).map(depthOf));
  return 0;
}

describe("parseWith messages", () => {
  it("use the right article: an array, an integer, an object, a number", () => {
    const s = z.strictObject({
      a: z.array(z.number()).optional(),
      n: z.number().int().optional(),
      o: z.strictObject({}).optional(),
      x: z.number().optional(),
      b: z.boolean().optional(),
    });
    expect(errorOf(() => parseWith(s, { a: 5 }, "")).message).toBe("a must be an array (got 5)");
    expect(errorOf(() => parseWith(s, { n: 1.5 }, "q")).message).toBe(
      "q.n must be an integer (got 1.5)",
    );
    expect(errorOf(() => parseWith(s, { o: 3 }, "")).message).toBe("o must be an object (got 3)");
    expect(errorOf(() => parseWith(s, { x: "1" }, "")).message).toBe(
      'x must be a number (got "1")',
    );
    expect(errorOf(() => parseWith(s, { b: 1 }, "")).message).toBe("b must be a boolean (got 1)");
    expect(errorOf(() => parseWith(s, [], "")).message).toBe("input must be an object (got [])");
    expect(errorOf(() => parseScene([])).message).toBe("input must be an object (got [])");
  });

  it("never say 'a array', 'a int', 'a object' for any wrong type", () => {
    const s = z.strictObject({
      a: z.array(z.number()),
      n: z.number().int(),
      o: z.strictObject({}),
      t: z.tuple([z.number(), z.number()]),
    });
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom("a", "n", "o", "t"), (v, k) => {
        const good = { a: [], n: 1, o: {}, t: [0, 0] };
        const r = s.safeParse({ ...good, [k]: v });
        if (r.success) return;
        const m = errorOf(() => parseWith(s, { ...good, [k]: v }, "")).message;
        expect(m).not.toMatch(/\ba (array|int|integer|object)\b/);
      }),
      { numRuns: 200 },
    );
  });
});

describe("parseJsonText", () => {
  it("strips one leading byte order mark, and only a leading one", () => {
    expect(stripBom("\uFEFF{}")).toBe("{}");
    expect(stripBom("{}")).toBe("{}");
    expect(parseJsonText('\uFEFF{"a":1}', "bad")).toEqual({ a: 1 });
    expect(errorOf(() => parseJsonText('{"a":1}\uFEFF', "bad")).code).toBe("invalid_json");
  });

  it("counts nesting like a recursive walk of the parsed value (brackets in strings ignored)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (v) => {
        const text = JSON.stringify(v);
        expect(jsonNestingDepth(text)).toBe(depthOf(v));
      }),
      { numRuns: 300 },
    );
    expect(jsonNestingDepth(JSON.stringify({ s: '[[{{"\\"]]' }))).toBe(1);
  });

  it("accepts MAX_JSON_DEPTH levels and refuses one more as invalid_json, without recursion", () => {
    const nest = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    expect(depthOf(parseJsonText(nest(MAX_JSON_DEPTH), "bad"))).toBe(MAX_JSON_DEPTH);
    for (const n of [MAX_JSON_DEPTH + 1, 1_000_000]) {
      const e = errorOf(() => parseJsonText(nest(n), "invalid JSON"));
      expect(e.code).toBe("invalid_json");
      expect(e.message).toBe(
        `invalid JSON: nesting too deep (more than ${MAX_JSON_DEPTH} levels of arrays and objects)`,
      );
    }
  });

  it("reports text that is not JSON as invalid_json with the given lead", () => {
    const e = errorOf(() => parseJsonText("{", "scene file s.json is not valid JSON"));
    expect(e.code).toBe("invalid_json");
    expect(e.message.startsWith("scene file s.json is not valid JSON: ")).toBe(true);
  });
});

describe("echoAsGiven", () => {
  const err = (field: string, value: unknown) =>
    new CollideError(
      "invalid_value",
      field,
      value,
      `${field} is bad (got ${JSON.stringify(value)})`,
    );

  it("shows a vector object as the array the input gave at that field", () => {
    const input = { type: "aabb", min: [0, 0, 0], max: [-1, 2, 3] };
    const e = echoAsGiven(err("a.max", { x: -1, y: 2, z: 3 }), input, "a") as CollideError;
    expect(e.value).toEqual([-1, 2, 3]);
    expect(e.message).toBe("a.max is bad (got [-1,2,3])");
    const q = echoAsGiven(
      err("shapes[1].rotation", { x: 0, y: 0, z: 0, w: 2 }),
      { shapes: [{}, { rotation: [0, 0, 0, 2] }] },
      "",
    ) as CollideError;
    expect(q.message).toBe("shapes[1].rotation is bad (got [0,0,0,2])");
  });

  it("leaves other errors alone: other numbers, other fields, non-vectors, other codes", () => {
    const input = { max: [-1, 2, 3], r: 5 };
    for (const e of [
      err("a.max", { x: -1, y: 2, z: 4 }),
      err("a.min", { x: -1, y: 2, z: 3 }),
      err("a.r", 5),
      err("b.max", { x: -1, y: 2, z: 3 }),
      new CollideError("io_error", "a.max", { x: -1, y: 2, z: 3 }, "x"),
    ]) {
      expect(echoAsGiven(e, input, "a")).toBe(e);
    }
    const plain = new Error("boom");
    expect(echoAsGiven(plain, input, "a")).toBe(plain);
  });
});
