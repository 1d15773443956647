/**
 * Findings of a new user trying issue 14 on a clean clone (fresh14c): point sets and mesh
 * vertices given in a form the constructors do not take must be refused with the field and the
 * value the user gave — never read as an empty set (a NaN centre) or as NaN coordinates (a message
 * showing NaN where the input had none).
 */
import { describe, expect, it } from "vitest";
import {
  boundingSphereOfPoints,
  CollideError,
  fitObbPca,
  makeConvexPolyhedron,
  makeObb,
  makeRoundedConvexPolyhedron,
  makeTriangleMesh,
} from "../../src/index.js";

/** The CollideError `f` throws (fails the test when it returns). */
function caught(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError, got an answer");
}

const NOT_ARRAYS: [string, unknown][] = [
  ["a number", 42],
  ["a string", "0,0,0,1,0,0,0,1,0,0,0,1"],
  ["a Map", new Map()],
  ["a plain object with a length", { length: 3 }],
];

describe("point sets that are not arrays (fresh14c)", () => {
  for (const [name, value] of NOT_ARRAYS) {
    it(`boundingSphereOfPoints refuses ${name} instead of a NaN centre`, () => {
      for (const method of ["mean", "ritter", "exact"] as const) {
        const e = caught(() => boundingSphereOfPoints(value as never, method));
        expect(e.code).toBe("invalid_value");
        expect(e.field).toBe("points");
        expect(e.message).toMatch(/^points must be an array/);
        expect(e.message).toContain(JSON.stringify(value instanceof Map ? {} : value));
      }
    });

    it(`makeConvexPolyhedron, makeRoundedConvexPolyhedron and fitObbPca refuse ${name}`, () => {
      for (const f of [
        () => makeConvexPolyhedron(value as never),
        () => makeRoundedConvexPolyhedron(value as never, 0.1),
        () => fitObbPca(makeObb(), value as never),
      ]) {
        const e = caught(f);
        expect(e.code).toBe("invalid_value");
        expect(e.field).toBe("points");
        expect(e.message).toMatch(/^points must be an array of \{x, y, z\} points/);
      }
    });
  }

  it("a hull of [x, y, z] arrays is refused naming the array, not as a non-finite point", () => {
    const tuples = [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    const e = caught(() => makeConvexPolyhedron(tuples as never));
    expect(e.field).toBe("points");
    expect(e.message).toContain("not [x, y, z] arrays (point 0)");
    expect(e.message).toContain("[0,0,0]");
    // The accepted forms of the same points still make the tetrahedron.
    const packed = makeConvexPolyhedron(tuples.flat());
    const vecs = makeConvexPolyhedron(tuples.map(([x, y, z]) => ({ x, y, z })));
    expect(packed.vertexCount).toBe(4);
    expect(vecs.vertexCount).toBe(4);
  });
});

describe("mesh vertices in a form makeTriangleMesh does not take (fresh14c)", () => {
  it("[x, y, z] arrays: names vertices[0] and shows what was given (was [NaN,NaN,NaN])", () => {
    const e = caught(() =>
      makeTriangleMesh(
        [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
        ] as never,
        [0, 1, 2],
      ),
    );
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("vertices[0]");
    expect(e.message).toContain("not an [x, y, z] array");
    expect(e.message).toContain("(got [0,0,0])");
    expect(e.message).not.toContain("NaN");
  });

  it("a string coordinate in a vector: names the vertex and shows the string", () => {
    const e = caught(() =>
      makeTriangleMesh(
        [
          { x: 0, y: 0, z: 0 },
          { x: "1", y: 0, z: 0 },
          { x: 0, y: 1, z: 0 },
        ] as never,
        [0, 1, 2],
      ),
    );
    expect(e.field).toBe("vertices[1]");
    expect(e.message).toContain('"x":"1"');
  });

  it("a NaN coordinate still names its triangle (the check after packing)", () => {
    const e = caught(() =>
      makeTriangleMesh(
        [
          { x: 0, y: 0, z: 0 },
          { x: Number.NaN, y: 0, z: 0 },
          { x: 0, y: 1, z: 0 },
        ],
        [0, 1, 2],
      ),
    );
    expect(e.field).toBe("vertices[1]");
    expect(e.message).toContain("triangle 0");
  });
});

describe("collide query: a number beyond the doubles (fresh14c)", () => {
  it("1e999 (read as Infinity by JSON.parse) is 'must be a finite number', not 'must be a number'", async () => {
    const { answerQueryLine } = await import("../../src/node.js");
    const message = (line: string): string => {
      const a = answerQueryLine(line, 0) as { line: string; failed: boolean };
      expect(a.failed).toBe(true);
      const e = JSON.parse(a.line).error;
      expect(e.code).toBe("invalid_value");
      return e.message;
    };
    expect(
      message(
        '{"op":"intersects","a":{"type":"sphere","center":[0,0,0],"radius":1e999},"b":{"type":"sphere","center":[1,0,0],"radius":1}}',
      ),
    ).toBe("a.radius must be a finite number (got Infinity)");
    expect(
      message(
        '{"op":"raycast","shape":{"type":"sphere","center":[0,0,0],"radius":1},"origin":[0,0,-1e999],"direction":[1,0,0],"maxToi":1}',
      ),
    ).toBe("origin[2] must be a finite number (got -Infinity)");
    // A string is still "must be a number".
    expect(
      message(
        '{"op":"intersects","a":{"type":"sphere","center":[0,0,0],"radius":"1"},"b":{"type":"sphere","center":[1,0,0],"radius":1}}',
      ),
    ).toBe('a.radius must be a number (got "1")');
  });
});
