/**
 * Attack 29's minor findings F3 and F4: an API error names the API's field, a JSON error the
 * JSON's; a thin point set's refusal gives its relative tolerance.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { answerQueryLine } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeCompound, makeConvexPolyhedron, makeSphere } from "../../src/shapes/index.js";
import { shapeDefByJsonName } from "../../src/shapes/shape-def.js";

function refusal(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError");
}

const identity = iso.identity().rotation;

describe("F3: makeCompound names the API's pose fields, the JSON readers their own", () => {
  it("the API: children[i].pose.translation and children[i].pose.rotation", () => {
    const nan = { x: Number.NaN, y: 0, z: 0 };
    let e = refusal(() =>
      makeCompound([{ shape: makeSphere(1), pose: { translation: nan, rotation: identity } }]),
    );
    expect([e.code, e.field]).toEqual(["invalid_value", "children[0].pose.translation"]);
    expect(e.message).toMatch(/^children\[0\]\.pose\.translation must be a vector/);
    e = refusal(() =>
      makeCompound(
        [
          { shape: makeSphere(1), pose: iso.identity() },
          {
            shape: makeSphere(1),
            pose: { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 2 } },
          },
        ],
        "body",
      ),
    );
    expect([e.code, e.field]).toEqual(["invalid_value", "body.children[1].pose.rotation"]);
  });

  it("the query line (scene JSON): children[i].position and children[i].rotation", () => {
    // The child's position composed with its sphere's centre overflows: 1e308 + 1e308.
    const over = {
      op: "raycast",
      origin: [0, 0, 0],
      direction: [1, 0, 0],
      shape: {
        type: "compound",
        children: [
          { shape: { type: "sphere", center: [1e308, 0, 0], radius: 1 }, position: [1e308, 0, 0] },
        ],
      },
    };
    // The error line names the field first in its message.
    const bad = (q: unknown) => {
      const a = answerQueryLine(JSON.stringify(q), 0) as { line: string; failed?: boolean };
      expect(a.failed).toBe(true);
      const err = JSON.parse(a.line).error as { code: string; message: string };
      expect(err.code).toBe("invalid_value");
      return err.message.split(" ")[0];
    };
    expect(bad(over)).toBe("shape.children[0].position");
    const turn = {
      op: "raycast",
      origin: [0, 0, 0],
      direction: [1, 0, 0],
      shape: {
        type: "compound",
        children: [
          { shape: { type: "sphere", center: [0, 0, 0], radius: 1 }, rotation: [0, 0, 0, 2] },
        ],
      },
    };
    expect(bad(turn)).toBe("shape.children[0].rotation");
  });

  it("the definition's JSON form: children[i].translation and children[i].rotation", () => {
    const def = shapeDefByJsonName("compound");
    expect(def).not.toBeNull();
    const read = (translation: number[], rotation: number[]) =>
      refusal(() =>
        def?.json.fromJson(
          {
            type: "compound",
            children: [{ shape: { type: "sphere", radius: 1 }, translation, rotation }],
          },
          "a",
          (j, f) =>
            shapeDefByJsonName("sphere")?.json.fromJson(
              j as never,
              f,
              () => null as never,
            ) as never,
        ),
      ).field;
    expect(read([Number.NaN, 0, 0], [0, 0, 0, 1])).toBe("a.children[0].translation");
    expect(read([0, 0, 0], [0, 0, 0, 2])).toBe("a.children[0].rotation");
  });
});

describe("F4: a thin point set is refused as collinear within 4τ, τ relative to its extent", () => {
  /** The documented bar: 4 × (1e-10 × L + 8ε × M), L the box's largest side, M the largest |coordinate|. */
  const bar = (L: number, M: number) => 4 * (1e-10 * L + 8 * Number.EPSILON * M);

  it("the attack's set: refused, the message giving the bar 8.0e-10", () => {
    const e = refusal(() =>
      makeConvexPolyhedron([vec3.create(0, 0, 0), vec3.create(1, 0, 0), vec3.create(2, 1e-12, 0)]),
    );
    expect([e.code, e.field]).toEqual(["invalid_value", "points"]);
    expect(e.message).toContain(`collinear within ${bar(2, 2)}`);
    expect(bar(2, 2)).toBeCloseTo(8.0e-10, 13);
  });

  it("just past the bar a flat triangle at every scale 1e-6..1e6; just inside it refused", () => {
    for (const s of [1e-6, 1e-3, 1, 1e3, 1e6]) {
      const b = bar(2 * s, 2 * s);
      const tri = (h: number) => [
        vec3.create(0, 0, 0),
        vec3.create(s, h, 0),
        vec3.create(2 * s, 0, 0),
      ];
      const hull = makeConvexPolyhedron(tri(1.25 * b));
      expect(hull.flat).toBe(true);
      expect(hull.vertexCount).toBe(3);
      expect(refusal(() => makeConvexPolyhedron(tri(0.75 * b))).message).toMatch(
        /collinear within/,
      );
    }
  });
});
