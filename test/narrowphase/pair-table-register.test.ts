/**
 * `registerPair` (src/narrowphase/pair-table.ts, exported by `collide/core`) refuses nonsense by
 * name instead of writing it silently: a type id outside the table (99 wrote past its end, 1.5
 * between entries, -1 before it), a key that is not a routine's (a misspelled `intersect` was
 * ignored) or a routine that is not a function. The table is left as it was: the refusal comes before any
 * write, so the default registrations (test/setup-pairs.ts) still answer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import * as iso from "../../src/math/isometry.js";
import { registerPair } from "../../src/narrowphase/pair-table.js";
import { intersects } from "../../src/query/intersects.js";
import { makeSphere } from "../../src/shapes/index.js";
import { SHAPE_TYPE_COUNT, ShapeType } from "../../src/shapes/shape.js";

const never = () => {
  throw new Error("a refused registration must not be called");
};

/** The CollideError thrown by `f`, or a failure. */
function refusal(f: () => void): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError");
}

/** Sphere–sphere still answers through the defaults (touching at distance 2, apart at 2.5). */
function tableIntact(): void {
  const s = makeSphere(1);
  expect(intersects(s, iso.identity(), s, iso.create({ x: 2, y: 0, z: 0 }))).toBe(true);
  expect(intersects(s, iso.identity(), s, iso.create({ x: 2.5, y: 0, z: 0 }))).toBe(false);
}

describe("registerPair refuses bad input by name", () => {
  it("a type id that is not an integer in [0, SHAPE_TYPE_COUNT), either side", () => {
    const badId = fc.oneof(
      fc.integer({ min: SHAPE_TYPE_COUNT, max: 1000 }),
      fc.integer({ min: -1000, max: -1 }),
      fc.double({ noInteger: true }),
      fc.constantFrom(Number.NaN, Infinity, -Infinity, SHAPE_TYPE_COUNT, 99),
    );
    fc.assert(
      fc.property(badId, fc.boolean(), (id, first) => {
        const e = refusal(() =>
          first
            ? registerPair(id as ShapeType, ShapeType.Sphere, { intersects: never })
            : registerPair(ShapeType.Sphere, id as ShapeType, { intersects: never }),
        );
        expect(e.code).toBe("invalid_value");
        expect(e.field).toBe(first ? "typeA" : "typeB");
        expect(Object.is(e.value, id)).toBe(true);
        expect(e.message).toContain(`[0, ${SHAPE_TYPE_COUNT})`);
      }),
    );
    tableIntact();
  });

  it("a key that is not one of PairRoutines, or a routine that is not a function", () => {
    const KEYS = ["intersects", "intersectsPoses", "distance", "contact", "manifold"];
    const cases: [Record<string, unknown>, string, unknown][] = [
      [{ intersect: never }, "fns.intersect", never],
      [{ contacts: never }, "fns.contacts", never],
      [{ manifold: undefined, Distance: never }, "fns.Distance", never],
      [{ intersects: 5 }, "fns.intersects", 5],
      [{ contact: null }, "fns.contact", null],
      [{ intersectsPoses: "f" }, "fns.intersectsPoses", "f"],
      [{ intersectsPosesX: never }, "fns.intersectsPosesX", never],
    ];
    for (const [fns, field, value] of cases) {
      const e = refusal(() => registerPair(ShapeType.Sphere, ShapeType.Sphere, fns as never));
      expect(e.code).toBe("invalid_value");
      expect(e.field).toBe(field);
      expect(e.value).toBe(value);
      for (const k of KEYS) expect(e.message).toContain(k.replace("Poses", ""));
    }
    // Any other key name is refused: fast-check over strings.
    fc.assert(
      fc.property(
        fc.string().filter((k) => !KEYS.includes(k) && k !== "__proto__"),
        (k) => {
          const e = refusal(() => registerPair(ShapeType.Sphere, ShapeType.Sphere, { [k]: never }));
          expect(e.field).toBe(`fns.${k}`);
        },
      ),
    );
    // The valid keys, undefined (leaves the entry as it was): accepted.
    expect(() =>
      registerPair(ShapeType.Sphere, ShapeType.Sphere, {
        intersects: undefined,
        intersectsPoses: undefined,
        distance: undefined,
        contact: undefined,
        manifold: undefined,
      }),
    ).not.toThrow();
    tableIntact();
  });

  it("a type id that is not a number is refused, and the messages say what is wanted", () => {
    // "0" passed the range check ("0" >= 0 and "0" % 1 === 0 in JavaScript) and wrote entry 0.
    for (const id of ["0", "1", null, true, [0]]) {
      const e = refusal(() => registerPair(id as never, ShapeType.Sphere, { intersects: never }));
      expect(e.field).toBe("typeA");
      expect(e.message).toContain("must be an integer in [0, ");
    }
    // 1.5 lies in [0, N): the message says integer, not only the range.
    expect(refusal(() => registerPair(ShapeType.Sphere, 1.5 as never, {})).message).toBe(
      `typeB must be an integer in [0, ${SHAPE_TYPE_COUNT}) (got 1.5)`,
    );
    // A misspelled key names the routine by its name, not its source text (kilobytes).
    function intersectsMine(): boolean {
      const big = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
      return big.length > 0;
    }
    const e = refusal(() =>
      registerPair(ShapeType.Sphere, ShapeType.Sphere, { intersect: intersectsMine } as never),
    );
    expect(e.field).toBe("fns.intersect");
    expect(e.value).toBe(intersectsMine);
    expect(e.message).toContain("(got function intersectsMine)");
    expect(e.message).not.toContain("return");
    tableIntact();
  });

  it("accepts every id in range (an empty registration changes nothing)", () => {
    for (let a = 0; a < SHAPE_TYPE_COUNT; a++) {
      for (let b = 0; b < SHAPE_TYPE_COUNT; b++) {
        expect(() => registerPair(a as ShapeType, b as ShapeType, {})).not.toThrow();
      }
    }
    tableIntact();
  });
});
