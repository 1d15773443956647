/**
 * Findings of a new user attacking the README's API and the `collide` command with bad input on
 * a clean clone of 1301fc3 (fresh13). Each bad input must give a `CollideError` naming the field
 * and the value (or the documented answer), never a TypeError, a NaN or a changed world.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CollisionWorld2D,
  castRay2D,
  castShapes2D,
  contact2D,
  distance2D,
  intersects2D,
  makeCircle,
  makeRect,
  manifold2D,
  projectPoint2D,
} from "../../src/dim2/index.js";
import * as pose2 from "../../src/dim2/pose2.js";
import { CollideError } from "../../src/errors.js";
import { answerQueryLine } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";
import { WorkerExecutor } from "../../src/parallel/index.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { computePairs } from "../../src/query/pairs.js";
import { makeHalfSpace, makeSphere } from "../../src/shapes/index.js";
import { CollisionWorld } from "../../src/world/index.js";

/** The CollideError `f` throws (fails the test when it returns or throws something else). */
function caught(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError, got an answer");
}

const sphere = { type: "sphere", center: [0, 0, 0], radius: 1 };

describe("the pairs op and computePairs (fresh13)", () => {
  it('a 3D `pairs` line with `shapes: []` answers {"pairs": []} for every broad phase', () => {
    for (const broadphase of ["brute", "sap", "grid", "tree", "octree"]) {
      const r = answerQueryLine(JSON.stringify({ op: "pairs", shapes: [], broadphase }), 0);
      expect(r).toEqual({ line: '{"id":0,"result":{"pairs":[]}}', failed: false });
    }
    // One shape has no pair either (and the local frame of one shape still works).
    const one = answerQueryLine(JSON.stringify({ op: "pairs", shapes: [sphere] }), 3);
    expect(one.line).toBe('{"id":3,"result":{"pairs":[]}}');
  });

  it("computePairs refuses entries that are not {shape, pose} with the entry named", () => {
    const ok = { shape: makeSphere(1), pose: iso.identity() };
    const cases: [unknown, string][] = [
      ["abc", "shapes"],
      [undefined, "shapes"],
      [[null], "shapes[0]"],
      [[ok, 3], "shapes[1]"],
      [[{ pose: iso.identity() }, ok], "shapes[0].shape"],
      [[ok, { shape: makeSphere(1) }], "shapes[1].pose"],
      [[{ shape: makeSphere(1), pose: {} }], "shapes[0].pose.translation"],
      [[{ shape: {}, pose: iso.identity() }], "shapes[0].shape.type"],
    ];
    for (const broadphase of ["brute", "grid"] as const) {
      for (const [shapes, field] of cases) {
        const e = caught(() => computePairs(shapes as never, broadphase));
        expect(e.code).toBe("invalid_value");
        expect(e.field).toBe(field);
      }
    }
  });
});

describe("mesh files (fresh13)", () => {
  const dir = mkdtempSync(join(tmpdir(), "fresh13-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a mesh `file` naming the base folder itself is refused as a folder, not as outside it", () => {
    for (const file of [".", dir, "./"]) {
      const line = JSON.stringify({
        op: "intersects",
        a: { type: "mesh", file },
        b: sphere,
      });
      const r = answerQueryLine(line, 0, { baseDir: dir });
      expect(r.failed).toBe(true);
      const err = JSON.parse(r.line).error;
      expect(err.code).toBe("invalid_value");
      expect(err.message).toContain("a.file names the folder");
      expect(err.message).not.toContain("leaves the folder");
    }
  });
});

describe("the 2D world's pose bound (fresh13)", () => {
  it("addBody and setPose refuse coordinates past ±1e300 as the 3D world does, the world unchanged", () => {
    for (const broadphase of ["brute", "sap", "grid", "tree", "quadtree"] as const) {
      const w = new CollisionWorld2D({ broadphase });
      const a = w.addBody({ shape: makeCircle(1), pose: pose2.fromAngle(0, 0) });
      const b = w.addBody({ shape: makeCircle(1), pose: pose2.fromAngle(1.5, 0) });
      w.step();
      const e1 = caught(() => w.addBody({ shape: makeCircle(1), pose: pose2.fromAngle(1e308, 0) }));
      expect(e1.field).toBe("body.pose.p");
      expect(e1.message).toContain("±1e+300");
      const e2 = caught(() => w.setPose(a, pose2.fromAngle(0, -1e301)));
      expect(e2.field).toBe("pose.p");
      const e3 = caught(() => w.addBody({ shape: makeCircle(1e308), pose: pose2.fromAngle(0, 0) }));
      expect(e3.field).toBe("body.pose.p");
      expect(w.handles()).toEqual([a, b]);
      expect(w.getPose(a)).toEqual(pose2.fromAngle(0, 0));
      w.step();
      // Before: the quadtree paired a body with itself at distance NaN.
      const cs = w.contacts().map((c) => [c.a, c.b, c.distance]);
      expect(cs).toEqual([[a, b, -0.5]]);
      // At the bound itself the world still works.
      const far = w.addBody({ shape: makeCircle(1), pose: pose2.fromAngle(9.9e299, 0) });
      const far2 = w.addBody({ shape: makeCircle(1), pose: pose2.fromAngle(9.9e299, 1) });
      w.step();
      const farContacts = w.contacts().filter((c) => c.a === far || c.b === far);
      expect(farContacts.map((c) => [c.a, c.b, c.distance])).toEqual([[far, far2, -1]]);
    }
  });
});

describe("WorkerExecutor's option errors (fresh13)", () => {
  it("name WorkerExecutor, not 'options'", () => {
    const e1 = caught(() => new WorkerExecutor({ thread: 2 } as never));
    expect(e1.code).toBe("unknown_field");
    expect(e1.message).toContain(
      'WorkerExecutor: options.thread is not an option (did you mean "threads"?)',
    );
    const e2 = caught(() => new WorkerExecutor(null as never));
    expect(e2.message).toContain("the options of WorkerExecutor");
  });
});

describe("the 2D pair queries check their arguments (fresh13)", () => {
  const P = (x: number, y = 0) => pose2.fromAngle(x, y, 0);
  const c = makeCircle(1);
  const r = makeRect({ x: 1, y: 1 });

  it("circles at ±1e308: a CollideError naming poseB.p, not distance NaN", () => {
    for (const f of [contact2D, distance2D, intersects2D, manifold2D] as const) {
      const e = caught(() => f(c, P(-1e308), c, P(1e308)));
      expect(e.field).toBe("poseB.p");
      expect(e.message).toContain("too far from poseA.p");
    }
    // Finite offset, sizes that overflow with it: answered in scaled units (fresh2d, session 15).
    // The overlap 2e308 − 2e307 is past the largest double, so `contact` refuses its distance;
    // `distance` (0 when they overlap) and the deepest points, ±9e307, are finite.
    const big = makeCircle(1e308);
    const e = caught(() => contact2D(big, P(-1e307), big, P(1e307)));
    expect(e.field).toBe("result.distance");
    const dd = distance2D(big, P(-1e307), big, P(1e307));
    expect(dd.distance).toBe(0);
    expect(dd.pointA.x).toBeCloseTo(9e307, -293);
    expect(dd.pointB.x).toBeCloseTo(-9e307, -293);
    // Far but representable: the right answer (a gap of 8).
    const d = distance2D(c, P(1e300), c, P(1e300 + 2 ** 1000 * 10));
    expect(Number.isFinite(d.distance)).toBe(true);
  });

  it("null shapes, NaN poses and NaN points are refused naming the argument", () => {
    expect(caught(() => intersects2D(null as never, P(0), c, P(0))).field).toBe("a");
    expect(caught(() => contact2D(c, P(0), { type: 0, radius: NaN } as never, P(0))).field).toBe(
      "b.radius",
    );
    expect(caught(() => manifold2D(c, P(Number.NaN), c, P(0))).field).toBe("poseA.p");
    expect(caught(() => projectPoint2D(c, P(0), { x: Number.NaN, y: 0 })).field).toBe("point");
    expect(caught(() => castRay2D(c, P(0), { x: 0, y: Number.NaN }, { x: 1, y: 0 }, 1)).field).toBe(
      "origin",
    );
    expect(
      caught(() => castRay2D(r, P(0), { x: -5, y: 0 }, { x: 1, y: 0 }, Number.NaN)).field,
    ).toBe("maxToi");
  });

  it("castShapes2D with a relative velocity that overflows is refused, not toi 0 for a gap of 8", () => {
    const e = caught(() =>
      castShapes2D(c, P(0), { x: 1e308, y: 0 }, c, P(10), { x: -1e308, y: 0 }, 1e308),
    );
    expect(e.field).toBe("velocityB");
    // The same closing speed that fits: toi 8 / 1.5e308.
    const hit = castShapes2D(c, P(0), { x: 1e308, y: 0 }, c, P(10), { x: -5e307, y: 0 }, 1);
    expect(hit).not.toBeNull();
    expect(hit?.toi).toBeCloseTo(8 / 1.5e308, 320);
    expect(hit?.toi).toBeGreaterThan(0);
  });

  it("valid calls answer as before: a hand-built circle is the circle it describes", () => {
    const hand = { type: 0, radius: 1 } as never;
    expect(contact2D(hand, P(0), c, P(1.5))?.distance).toBe(-0.5);
    expect(projectPoint2D(r, P(0), { x: 3, y: 0 })).toEqual({
      point: { x: 1, y: 0 },
      distance: 2,
      inside: false,
    });
    expect(castRay2D(c, P(0), { x: -5, y: 0 }, { x: 1, y: 0 }, Infinity)?.toi).toBe(4);
  });

  it("a dim 2 query line names the line's fields (b.center, not poseB.p)", () => {
    const line = JSON.stringify({
      op: "contact",
      dim: 2,
      a: { type: "circle", center: [-1e308, 0], radius: 1 },
      b: { type: "circle", center: [1e308, 0], radius: 1 },
    });
    const out = answerQueryLine(line, 0);
    expect(out.failed).toBe(true);
    const err = JSON.parse(out.line).error;
    expect(err.message).toBe(
      "b.center is too far from a.center: their offset overflows double precision (got [1e+308,0])",
    );
    const cast = answerQueryLine(
      JSON.stringify({
        op: "castShapes",
        dim: 2,
        a: { type: "circle", center: [0, 0], radius: 1 },
        velocityA: [1e308, 0],
        b: { type: "circle", center: [10, 0], radius: 1 },
        velocityB: [-1e308, 0],
        maxToi: 1e308,
      }),
      1,
    );
    expect(JSON.parse(cast.line).error.code).toBe("invalid_value");
    expect(JSON.parse(cast.line).error.message).toContain("velocityB");
  });
});

describe("query lines echo values as the line gave them (fresh13)", () => {
  const err = (q: object) => JSON.parse(answerQueryLine(JSON.stringify(q), 0).line).error;

  it("collinear convex points are echoed as [[x, y, z]…], not packed", () => {
    const e = err({
      op: "intersects",
      a: {
        type: "convex",
        points: [
          [0, 0, 0],
          [1, 0, 0],
          [2, 0, 0],
        ],
      },
      b: sphere,
    });
    expect(e.code).toBe("invalid_value");
    expect(e.message).toMatch(
      /^a\.points are all collinear within .* \(got \[\[0,0,0\],\[1,0,0\],\[2,0,0\]\]\)$/,
    );
  });

  it("one convex point is 'holds 1 point', echoed as given", () => {
    const e = err({ op: "intersects", a: { type: "convex", points: [[0, 0, 0]] }, b: sphere });
    expect(e.message).toBe(
      "a.points holds 1 point: a convex shape needs at least 3 non-collinear points (got [[0,0,0]])",
    );
  });

  it("mesh vertices and indices are triples, as FORMATS.md says; flat arrays are refused by name", () => {
    const ok = answerQueryLine(
      JSON.stringify({
        op: "distance",
        a: {
          type: "mesh",
          vertices: [
            [0, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
          ],
          indices: [[0, 1, 2]],
        },
        b: { type: "sphere", center: [0, 0, 3], radius: 1 },
      }),
      0,
    );
    expect(ok.line).toBe('{"id":0,"result":{"distance":2,"pointA":[0,0,0],"pointB":[0,0,2]}}');
    const flatIndices = err({
      op: "intersects",
      a: {
        type: "mesh",
        vertices: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
        ],
        indices: [0, 1, 2],
      },
      b: sphere,
    });
    expect(flatIndices.message).toBe("a.indices[0] must be an array (got 0)");
    const flatVertices = err({
      op: "intersects",
      a: { type: "mesh", vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [[0, 1, 2]] },
      b: sphere,
    });
    expect(flatVertices.message).toBe("a.vertices[0] must be an array (got 0)");
  });
});

describe("inputs each finite but out of range together (fresh13)", () => {
  it("a sphere 2e308 deep in a half-space names the offset, not 'an internal fault'", () => {
    const plane = makeHalfSpace({ x: 0, y: 1, z: 0 }, 1e308);
    const ball = makeSphere(1);
    const deep = iso.create({ x: 0, y: -1e308, z: 0 });
    for (const f of [
      () => contact(plane, iso.identity(), ball, deep),
      () => distance(plane, iso.identity(), ball, deep),
      () =>
        castShapes(
          plane,
          iso.identity(),
          { x: 0, y: 0, z: 0 },
          ball,
          deep,
          { x: 0, y: 1, z: 0 },
          1,
        ),
    ]) {
      const e = caught(f);
      expect(e.code).toBe("invalid_value");
      expect(e.field).toBe("a.offset");
      expect(e.value).toBe(1e308);
      expect(e.message).not.toContain("internal fault");
    }
    // In range, the answer: depth 1e308 + 1e300 + 1.
    const c = contact(plane, iso.identity(), ball, iso.create({ x: 0, y: -1e300, z: 0 }));
    expect(c?.distance).toBe(-(1e308 + 1e300 + 1));
    const line = answerQueryLine(
      JSON.stringify({
        op: "contact",
        a: { type: "halfspace", normal: [0, 1, 0], offset: 1e308 },
        b: { type: "sphere", center: [0, -1e308, 0], radius: 1 },
      }),
      0,
    );
    expect(JSON.parse(line.line).error.message).toMatch(/^a\.offset is too large for contact/);
  });
});

describe("setPoses' quaternion error (fresh13)", () => {
  it("shows the four numbers as the value and states their length (session 18: the body too)", () => {
    const w = new CollisionWorld();
    const h = w.addBody({ shape: makeSphere(1), pose: iso.identity() });
    const e = caught(() => w.setPoses([h], Float64Array.from([0, 0, 0, 0, 0, 0, 0.5])));
    expect(e.field).toBe("poses[3..6]");
    expect(e.value).toEqual([0, 0, 0, 0.5]);
    expect(e.message).toBe(
      "poses[3..6] (the rotation qx, qy, qz, qw of handles[0]) must be a unit quaternion, of length 1 within 0.000001 (the identity is 0, 0, 0, 1); its length is 0.5 (got [0,0,0,0.5])",
    );
    expect(w.getPose(h)).toEqual(iso.identity());
  });
});
