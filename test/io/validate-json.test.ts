import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CollideError } from "../../src/errors.js";
import { parseScene } from "../../src/io/scene.js";
import {
  echoAsGiven,
  findDuplicateKey,
  jsonNestingDepth,
  MAX_JSON_DEPTH,
  parseJsonText,
  parseWith,
  scanJsonText,
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

/**
 * A JSON tree whose objects are lists of entries, so a key can repeat (a JS object cannot hold
 * that); written out by hand below, and searched for its first repeated key by a recursive walk
 * (the oracle of the one-pass scan).
 */
type Tree =
  | { kind: "leaf"; value: unknown }
  | { kind: "array"; items: Tree[] }
  | { kind: "object"; entries: [string, Tree, boolean][] };

/** A key written with every character as a \u escape, or plainly. */
function writeKey(key: string, escaped: boolean): string {
  if (!escaped) return JSON.stringify(key);
  return `"${[...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"`;
}

function writeTree(t: Tree, space: string): string {
  if (t.kind === "leaf") return JSON.stringify(t.value);
  if (t.kind === "array")
    return `[${space}${t.items.map((x) => writeTree(x, space)).join(`,${space}`)}]`;
  const parts = t.entries.map(
    ([k, v, esc]) => `${writeKey(k, esc)}${space}:${space}${writeTree(v, space)}`,
  );
  return `{${space}${parts.join(`${space},${space}`)}${space}}`;
}

/** The first repeated key in text order and its path (`a.b[2].c`), by recursion; or null. */
function firstRepeat(t: Tree, path: string): { key: string; field: string } | null {
  if (t.kind === "array") {
    for (let i = 0; i < t.items.length; i++) {
      const r = firstRepeat(t.items[i], `${path}[${i}]`);
      if (r) return r;
    }
  } else if (t.kind === "object") {
    const seen = new Set<string>();
    for (const [k, v] of t.entries) {
      const field = path === "" ? k : `${path}.${k}`;
      if (seen.has(k)) return { key: k, field };
      seen.add(k);
      const r = firstRepeat(v, field);
      if (r) return r;
    }
  }
  return null;
}

/** Keys from a small alphabet (repeats are common), with quotes, brackets and escapes. */
const keyArb = fc.constantFrom("a", "b", "op", "id", 'q"', "[{", "\\", "é", "x,y", "");
const treeArb: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc
      .oneof(
        fc.string(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
      )
      .map((value): Tree => ({ kind: "leaf", value })),
    fc.array(tie("tree"), { maxLength: 4 }).map((items): Tree => ({ kind: "array", items })),
    fc
      .array(fc.tuple(keyArb, tie("tree"), fc.boolean()), { maxLength: 5 })
      .map((entries): Tree => ({ kind: "object", entries })),
  ),
})).tree;

describe("duplicate keys (JSON.parse keeps the last silently)", () => {
  it("finds the first repeated key and its path as a recursive walk does (fast-check)", () => {
    fc.assert(
      fc.property(treeArb, fc.constantFrom("", " ", "\n\t"), (t, space) => {
        const text = writeTree(t, space);
        const want = firstRepeat(t, "");
        expect(findDuplicateKey(text)).toEqual(want);
        // parseJsonText refuses exactly those texts, naming the key's path.
        let err: CollideError | null = null;
        try {
          parseJsonText(text, "invalid JSON");
        } catch (e) {
          err = e as CollideError;
        }
        if (want === null) expect(err).toBeNull();
        else {
          expect(err?.code).toBe("invalid_json");
          expect(err?.field).toBe(want.field);
          expect(err?.value).toBe(want.key);
          expect(err?.message).toContain(`key ${JSON.stringify(want.key)} is given twice`);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("never reports a duplicate in what JSON.stringify writes, and measures depth as the bracket count", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (v) => {
        const text = JSON.stringify(v);
        const scan = scanJsonText(text);
        expect(scan.duplicate).toBeNull();
        expect(scan.depth).toBe(jsonNestingDepth(text));
      }),
      { numRuns: 500 },
    );
  });

  it("names the repeated key of a query line: op, a, a.radius, shapes[1].type; \\u escapes are the same key", () => {
    const sp = '{"type":"sphere","center":[0,0,0],"radius":1}';
    const cases: [string, string][] = [
      [`{"op":"distance","op":"intersects","a":${sp},"b":${sp}}`, "op"],
      [`{"op":"intersects","a":${sp},"a":${sp},"b":${sp}}`, "a"],
      [
        `{"op":"intersects","a":{"type":"sphere","radius":1,"center":[0,0,0],"radius":-1},"b":${sp}}`,
        "a.radius",
      ],
      [`{"op":"pairs","shapes":[${sp},{"type":"sphere","type":"box"}]}`, "shapes[1].type"],
      [`{"op":"a","\\u006fp":"b"}`, "op"],
    ];
    for (const [text, field] of cases) {
      const e = errorOf(() => parseJsonText(text, "invalid JSON"));
      expect(e.code).toBe("invalid_json");
      expect(e.field).toBe(field);
      expect(e.message).toMatch(
        /^invalid JSON: key "[a-z]+" is given twice in one object \(field /,
      );
    }
    // The same key in different objects, and a key repeated as a value, are not duplicates.
    expect(
      findDuplicateKey(`{"a":{"a":{"a":"a"}},"b":["a","a"],"c":[{"a":1},{"a":2}]}`),
    ).toBeNull();
  });

  it("objects of many keys: a repeat past the linear search's limit, and 10^5 distinct keys", () => {
    const keys = Array.from({ length: 100 }, (_, i) => `"k${i}":${i}`);
    expect(findDuplicateKey(`{${keys.join(",")},"k3":0}`)).toEqual({ key: "k3", field: "k3" });
    expect(findDuplicateKey(`{"o":{${keys.join(",")}},"p":{${keys.join(",")},"k99":1}}`)).toEqual({
      key: "k99",
      field: "p.k99",
    });
    const many = Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(",");
    expect(findDuplicateKey(`{${many}}`)).toBeNull();
    expect(findDuplicateKey(`{${many},"k77777":1}`)).toEqual({ key: "k77777", field: "k77777" });
  });

  it("text that is not JSON gives JSON.parse's error, never a duplicate's or a crash", () => {
    for (const text of ['{"a":1,"a":', '}{"a":1,"a":2}', '{"a\\', '{"a":1,"a":2', '"\\u00']) {
      const e = errorOf(() => parseJsonText(text, "invalid JSON"));
      expect(e.code).toBe("invalid_json");
      expect(e.message).not.toContain("given twice");
    }
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
