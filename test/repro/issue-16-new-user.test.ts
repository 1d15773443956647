/**
 * Issue 16, "Also found, tried as a new user would": one test per finding, each with the right
 * value derived by hand.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { CollisionWorld2D } from "../../src/dim2/world2.js";
import { CollideError, describeValue } from "../../src/errors.js";
import { answerQuery } from "../../src/io/query.js";
import { answerQuery2D } from "../../src/io/query-2d.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { computePairs } from "../../src/query/pairs.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { type Shape, ShapeType } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { runCli } from "../cli/run-cli.js";

function refusal(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError");
}

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "collide-16-"));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** n unit spheres at one point: n(n−1)/2 touching pairs. */
function pile(n: number) {
  const s = makeSphere(1);
  return Array.from({ length: n }, () => ({ shape: s, pose: iso.identity() }));
}

describe("pairs and computePairs have the world's pair limit", () => {
  it("computePairs refuses more than options.maxPairs candidate pairs, naming it, on every broad phase", () => {
    // 200 spheres at one point: 19,900 pairs.
    for (const bp of ["brute", "sap", "grid", "tree"] as const) {
      const e = refusal(() => computePairs(pile(200), bp, { maxPairs: 1000 }));
      expect(e.field).toBe("options.maxPairs");
      expect(e.value).toBe(1000);
      expect(e.message).toMatch(/options\.maxPairs is exceeded.*more than 1000 candidate pairs/);
      expect(computePairs(pile(200), bp, { maxPairs: 19_900 })).toHaveLength(19_900);
    }
  });

  it("computePairs has the world's default (2^21) and refuses a bad maxPairs", () => {
    // 2,100 spheres: 2,203,950 pairs > 2^21 = 2,097,152; the brute force stops at the limit.
    const e = refusal(() => computePairs(pile(2100), "tree"));
    expect(e.field).toBe("options.maxPairs");
    expect(e.value).toBe(2 ** 21);
    expect(refusal(() => computePairs(pile(2), "brute", { maxPairs: 0 })).field).toBe(
      "options.maxPairs",
    );
    expect(refusal(() => computePairs(pile(2), "brute", { maxPairs: 1.5 })).field).toBe(
      "options.maxPairs",
    );
  });

  it("the pairs op names its own maxPairs field, in 3D and 2D", () => {
    const shapes = Array.from({ length: 50 }, () => ({
      type: "sphere",
      center: [0, 0, 0],
      radius: 1,
    }));
    const e = refusal(() => answerQuery({ op: "pairs", shapes, maxPairs: 100 }));
    expect(e.field).toBe("maxPairs");
    expect(e.message).toMatch(/^maxPairs is exceeded/);
    const ok = answerQuery({ op: "pairs", shapes, maxPairs: 1225 }) as { pairs: unknown[] };
    expect(ok.pairs).toHaveLength(1225);
    const circles = Array.from({ length: 50 }, () => ({
      type: "circle",
      center: [0, 0],
      radius: 1,
    }));
    const e2 = refusal(() =>
      answerQuery2D({ op: "pairs", dim: 2, shapes: circles, maxPairs: 100 }),
    );
    expect(e2.field).toBe("maxPairs");
    const ok2 = answerQuery2D({ op: "pairs", dim: 2, shapes: circles, maxPairs: 1225 }) as {
      pairs: unknown[];
    };
    expect(ok2.pairs).toHaveLength(1225);
  });

  it("the 2D world has maxPairs too", () => {
    expect(() => new CollisionWorld2D({ maxPairs: 0 })).toThrow(/options\.maxPairs/);
  });
});

describe("the grid broad phase's maxPairs error quotes the option", () => {
  it("quotes the option's value, and every broad phase stops with the same message", () => {
    const messages = (["brute", "sap", "grid", "tree"] as const).map((bp) => {
      const w = new CollisionWorld({ broadphase: bp, maxPairs: 5000 });
      for (const { shape, pose } of pile(200)) w.addBody({ shape, pose });
      const e = refusal(() => w.step());
      expect(e.field).toBe("options.maxPairs");
      expect(e.value).toBe(5000);
      return e.message;
    });
    for (const m of messages) {
      expect(m).toBe(
        "options.maxPairs is exceeded: the broad phase found more than 5000 candidate pairs (raise it to allow this) (got 5000)",
      );
    }
  });

  it("a pair set never allocates room beyond its limit", () => {
    const s = new PairSet(4);
    s.setLimit(10, "options.maxPairs");
    for (let i = 0; i < 10; i++) s.add(i, i + 1);
    expect(s.size).toBe(10);
    const e = refusal(() => s.add(20, 21));
    expect(e.message).toMatch(/more than 10 candidate pairs/);
  });

  it("collide check --max-pairs raises the limit the message names", () => {
    const dir = tempDir();
    const scene = join(dir, "pile.json");
    const bodies = Array.from({ length: 80 }, (_, i) => ({
      id: `s${i}`,
      shape: { type: "sphere", center: [0, 0, 0], radius: 1 },
    }));
    writeFileSync(scene, JSON.stringify({ bodies }));
    // 80 spheres at one point: 3,160 pairs.
    const refused = runCli([
      "check",
      scene,
      "--broadphase",
      "grid",
      "--max-pairs",
      "1000",
      "--json",
    ]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/--max-pairs is exceeded: the broad phase found more than 1000/);
    const ok = runCli(["check", scene, "--broadphase", "grid", "--max-pairs", "3160", "--json"]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).pairs).toHaveLength(3160);
    const bad = runCli(["check", scene, "--max-pairs", "0"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--max-pairs must be an integer/);
  });
});

describe("triangles spanning 1e20: intersects, distance and contact agree", () => {
  const tri = { type: "triangle", a: [-1e20, 0, -1e20], b: [1e20, 0, -1e20], c: [0, 0, 1e20] };
  const mesh = {
    type: "mesh",
    vertices: [
      [-1e20, 0, -1e20],
      [1e20, 0, -1e20],
      [0, 0, 1e20],
    ],
    indices: [[0, 1, 2]],
  };

  it("the issue's case: a unit sphere 0.5 above the plane is 0.5 deep and intersects", () => {
    const sphere = { type: "sphere", center: [0, 0.5, 0], radius: 1 };
    for (const big of [tri, mesh]) {
      for (const [a, b] of [
        [big, sphere],
        [sphere, big],
      ]) {
        expect(answerQuery({ op: "intersects", a, b })).toEqual({ intersects: true });
        const c = answerQuery({ op: "contact", a, b }) as { distance: number };
        expect(c.distance).toBeCloseTo(-0.5, 12);
        expect((answerQuery({ op: "distance", a, b }) as { distance: number }).distance).toBe(0);
      }
    }
  });

  it("over centres near the plane, the three answers match the hand-derived |y| − r", () => {
    // Every centre is deep inside the triangle's face (|x|, |z| ≤ 10 against a span of 1e20),
    // so the exact distance is |y| − r (clamped at 0).
    const ys = [-1.5, -1, -0.999999, -0.3, 0, 0.25, 0.999999, 1, 1.000001, 2, 7];
    for (const big of [tri, mesh]) {
      for (const y of ys) {
        for (const [x, z] of [
          [0, 0],
          [3, -7],
          [-10, 10],
        ]) {
          const sphere = { type: "sphere", center: [x, y, z], radius: 1 };
          const exact = Math.abs(y) - 1;
          const hit = (
            answerQuery({ op: "intersects", a: big, b: sphere }) as { intersects: boolean }
          ).intersects;
          const c = answerQuery({ op: "contact", a: big, b: sphere }) as {
            distance: number;
          } | null;
          const d = (answerQuery({ op: "distance", a: big, b: sphere }) as { distance: number })
            .distance;
          expect([big.type, y, hit]).toEqual([big.type, y, exact <= 0]);
          expect([big.type, y, c !== null]).toEqual([big.type, y, exact <= 0]);
          if (c) expect(c.distance).toBeCloseTo(exact, 12);
          expect(d).toBeCloseTo(Math.max(0, exact), 12);
        }
      }
    }
  });

  it("collide check reports the pair exactly when intersects says so", () => {
    const dir = tempDir();
    const scene = join(dir, "big.json");
    writeFileSync(
      scene,
      JSON.stringify({
        bodies: [
          { id: "ground", shape: tri },
          { id: "in", shape: { type: "sphere", center: [0, 0.5, 0], radius: 1 } },
          { id: "out", shape: { type: "sphere", center: [9, 2, 0], radius: 1 } },
        ],
      }),
    );
    const r = runCli(["check", scene, "--json"]);
    expect(r.status).toBe(0);
    const pairs = JSON.parse(r.stdout).pairs as { a: string; b: string; distance: number }[];
    expect(pairs.map((p) => [p.a, p.b])).toEqual([["ground", "in"]]);
    expect(pairs[0].distance).toBeCloseTo(-0.5, 12);
  });
});

describe("an empty mesh is refused, naming the file or the field", () => {
  const sphere = { type: "sphere", center: [0, 0, 0], radius: 1 };

  it.each([
    ["", "is empty"],
    ["# exported by a tool that failed\no empty\n", "has no vertices and no faces"],
    ["v 0 0 0\nv 1 0 0\nv 0 1 0\n", "has no faces"],
  ])("an OBJ file holding %j", (text, why) => {
    const dir = tempDir();
    writeFileSync(join(dir, "empty.obj"), text);
    const e = refusal(() =>
      answerQuery(
        { op: "intersects", a: { type: "mesh", file: "empty.obj" }, b: sphere },
        { baseDir: dir },
      ),
    );
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("a.file");
    expect(e.message).toContain("empty.obj");
    expect(e.message).toContain(why);
  });

  it("collide check of a scene with a 0-byte .obj exits 1 naming the body's file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "part.obj"), "");
    writeFileSync(
      join(dir, "scene.json"),
      JSON.stringify({
        bodies: [
          { id: "part", shape: { type: "mesh", file: "part.obj" } },
          { id: "ball", shape: sphere },
        ],
      }),
    );
    const r = runCli(["check", join(dir, "scene.json"), "--json"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/bodies\[0\]\.shape\.file/);
    expect(r.stderr).toContain("part.obj");
  });

  it("inline meshes with no vertices or no triangles, in JSON and in the API", () => {
    const noVertices = refusal(() =>
      answerQuery({ op: "intersects", a: { type: "mesh", vertices: [], indices: [] }, b: sphere }),
    );
    expect(noVertices.field).toBe("a.vertices");
    expect(noVertices.message).toMatch(/^a\.vertices must hold at least one vertex/);
    const noTriangles = refusal(() =>
      answerQuery({
        op: "intersects",
        a: sphere,
        b: { type: "mesh", vertices: [[0, 0, 0]], indices: [] },
      }),
    );
    expect(noTriangles.field).toBe("b.indices");
    expect(refusal(() => makeTriangleMesh(new Float64Array(0), new Uint32Array(0))).field).toBe(
      "vertices",
    );
  });
});

describe("nested compounds: made, added and queried alike; no internal numbers in messages", () => {
  const q = { x: 0, y: 0, z: Math.sin(Math.PI / 4), w: Math.cos(Math.PI / 4) }; // 90° about z

  /** An outer compound holding, at (5, 0, 0) rotated 90° about z, a compound of a unit sphere at (1, 0, 0). */
  function nested() {
    const inner = makeCompound([{ shape: makeSphere(1), pose: iso.create({ x: 1, y: 0, z: 0 }) }]);
    return makeCompound([
      { shape: inner, pose: { translation: { x: 5, y: 0, z: 0 }, rotation: q } },
      { shape: makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }), pose: iso.identity() },
    ]);
  }

  it("makeCompound flattens a child compound at the composed pose", () => {
    const c = nested();
    expect(c.children).toHaveLength(2);
    // The rotation takes the inner sphere's (1, 0, 0) to (0, 1, 0): the sphere is at (5, 1, 0).
    const t = c.children[0].pose.translation;
    expect([t.x, t.y, t.z].map((v) => Math.round(v * 1e12) / 1e12)).toEqual([5, 1, 0]);
    expect(c.children.every((k) => (k.shape.type as number) !== ShapeType.Compound)).toBe(true);
  });

  it("the world adds it and its contact is the hand-derived one, as the query's", () => {
    const world = new CollisionWorld();
    const a = world.addBody({ shape: nested(), pose: iso.identity() });
    // A unit sphere at (5, 2.5, 0): 1.5 from the nested sphere's centre (5, 1, 0), 0.5 deep.
    const b = world.addBody({ shape: makeSphere(1), pose: iso.create({ x: 5, y: 2.5, z: 0 }) });
    world.step();
    const contacts = [...world.contacts()];
    expect(contacts).toHaveLength(1);
    expect([contacts[0].a, contacts[0].b]).toEqual([a, b]);
    expect(contacts[0].distance).toBeCloseTo(-0.5, 12);
    const c = contact(
      nested(),
      iso.identity(),
      makeSphere(1),
      iso.create({ x: 5, y: 2.5, z: 0 }),
      0,
    );
    expect(c?.distance).toBeCloseTo(-0.5, 12);
    expect(c?.normal.y).toBeCloseTo(1, 12);
  });

  it("JSON compounds may nest too, with the same answer", () => {
    const r = answerQuery({
      op: "contact",
      a: {
        type: "compound",
        children: [
          {
            shape: {
              type: "compound",
              children: [{ shape: { type: "sphere", center: [1, 0, 0], radius: 1 } }],
            },
            position: [5, 0, 0],
            rotation: [0, 0, Math.sin(Math.PI / 4), Math.cos(Math.PI / 4)],
          },
        ],
      },
      b: { type: "sphere", center: [5, 2.5, 0], radius: 1 },
    }) as { distance: number };
    expect(r.distance).toBeCloseTo(-0.5, 12);
  });

  it("a mesh or half-space child is refused at makeCompound, by its type's name", () => {
    const mesh = makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    const e = refusal(() =>
      makeCompound([
        { shape: mesh as unknown as ReturnType<typeof makeSphere>, pose: iso.identity() },
      ]),
    );
    expect(e.field).toBe("children[0].shape.type");
    expect(e.message).toBe(
      'children[0].shape.type must be a convex shape or a compound (a mesh, a heightfield or a half-space cannot be a child) (got "mesh")',
    );
    expect(e.message).not.toMatch(/\b7\b/);
  });

  it("a hand-built nested compound is refused by addBody naming the type, not its id", () => {
    const inner = {
      type: ShapeType.Compound,
      children: [{ shape: makeSphere(1), pose: iso.identity() }],
    };
    const outer = { type: ShapeType.Compound, children: [{ shape: inner, pose: iso.identity() }] };
    const world = new CollisionWorld();
    const e = refusal(() =>
      world.addBody({ shape: outer as unknown as Shape, pose: iso.identity() }),
    );
    expect(e.message).toContain('(got "compound")');
    expect(e.message).not.toMatch(/got 9/);
  });
});

describe("maxToi: Infinity is accepted by castShapes as by raycast", () => {
  const id = iso.identity();
  const zero = { x: 0, y: 0, z: 0 };

  it("hand-derived: toi 3 approaching, null leaving, 0 touching, null at rest apart", () => {
    const s = makeSphere(1);
    const at = (x: number) => iso.create({ x, y: 0, z: 0 });
    // Unit spheres 5 apart closing at speed 1 touch when the gap of 3 is closed.
    expect(castShapes(s, id, { x: 1, y: 0, z: 0 }, s, at(5), zero, Infinity)?.toi).toBeCloseTo(
      3,
      9,
    );
    expect(castShapes(s, id, { x: -1, y: 0, z: 0 }, s, at(5), zero, Infinity)).toBeNull();
    expect(castShapes(s, id, zero, s, at(2), zero, Infinity)?.toi).toBe(0);
    expect(castShapes(s, id, zero, s, at(5), zero, Infinity)).toBeNull();
    // Passing beside: closest approach 2.5 > 2, never touching.
    expect(
      castShapes(
        s,
        id,
        { x: 1, y: 0, z: 0 },
        s,
        iso.create({ x: 5, y: 2.5, z: 0 }),
        zero,
        Infinity,
      ),
    ).toBeNull();
    const ray = raycast(s, at(5), { x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, Infinity);
    expect(ray?.toi).toBe(4);
  });

  it("equals the answer with a finite maxToi that covers the whole approach (seeded)", () => {
    const rng = makeRandom(16);
    const u = (lo: number, hi: number) => lo + (hi - lo) * rng();
    const shapes = [makeSphere(0.7), makeCuboid({ x: 0.5, y: 1, z: 0.3 })];
    let hits = 0;
    for (let i = 0; i < 200; i++) {
      const a = shapes[i % 2];
      const b = shapes[(i >> 1) % 2];
      const pb = iso.create({ x: u(-20, 20), y: u(-20, 20), z: u(-20, 20) });
      // Half the cases aim B at A (nearly head-on), half move A at random.
      const aim = i % 2 === 0;
      const s = aim ? 0.02 : 3;
      const va = { x: u(-s, s), y: u(-s, s), z: u(-s, s) };
      const t = pb.translation;
      const vb = aim ? { x: -t.x / 4, y: -t.y / 4, z: -t.z / 4 } : zero;
      const inf = castShapes(a, id, va, b, pb, vb, Infinity);
      // Every contact happens before t = 1e3 here (distances ≤ 70, speeds ≥ 0.1 unless 0).
      const fin = castShapes(a, id, va, b, pb, vb, 1e3);
      expect([i, inf === null]).toEqual([i, fin === null]);
      if (inf && fin) expect(inf.toi).toBeCloseTo(fin.toi, 6);
      if (inf) hits++;
    }
    expect(hits).toBeGreaterThan(50);
    expect(hits).toBeLessThan(190);
  });

  it("a half-space with maxToi Infinity is cast to its meeting (a horizon from the plane); a bad maxToi is refused naming it", () => {
    const plane = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0);
    // A unit sphere at height 5 falling at 1 onto y ≤ 0 touches it at t = 4 (hand-derived).
    const hit = castShapes(
      makeSphere(1),
      iso.create({ x: 0, y: 5, z: 0 }),
      { x: 0, y: -1, z: 0 },
      plane,
      id,
      zero,
      Infinity,
    );
    expect(hit?.toi).toBe(4);
    expect(
      refusal(() => castShapes(makeSphere(1), id, zero, makeSphere(1), id, zero, -1)).field,
    ).toBe("maxToi");
    expect(
      refusal(() => castShapes(makeSphere(1), id, zero, makeSphere(1), id, zero, Number.NaN)).field,
    ).toBe("maxToi");
  });
});

describe('error lines name the line\'s own fields; NaN and the string "NaN" print apart', () => {
  const far = (x: number) => ({ type: "sphere", center: [x, 0, 0], radius: 1 });

  it.each([
    [
      { op: "intersects", a: far(-1e308), b: far(1e308) },
      "b.center",
      "b.center is too far from a.center: their offset overflows double precision (got [1e+308,0,0])",
    ],
    [
      {
        op: "contact",
        a: {
          type: "convex",
          points: [
            [0, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
            [0, 0, 1],
          ],
          position: [1e308, 0, 0],
        },
        b: far(-1e308),
      },
      "b.center",
      "b.center is too far from a.position: their offset overflows double precision (got [-1e+308,0,0])",
    ],
    [
      { op: "raycast", shape: far(1e308), origin: [-1e308, 0, 0], direction: [1, 0, 0], maxToi: 1 },
      "origin",
      "origin is too far from shape.center: their offset overflows double precision (got [-1e+308,0,0])",
    ],
    [
      {
        op: "pairs",
        // (A radius of 8e307: from 2^1023 the sphere itself is refused, session 37.)
        shapes: [far(-1e308), { type: "sphere", center: [1e308, 0, 0], radius: 8e307 }],
      },
      "shapes[1].center",
      "shapes[1].center is too far from shapes[0].center: their offset overflows double precision (got [1e+308,0,0])",
    ],
  ])("%j", (line, field, message) => {
    const e = refusal(() => answerQuery(line));
    expect(e.field).toBe(field);
    expect(e.message).toBe(message);
    expect(e.message).not.toMatch(/pose/);
  });

  it("computePairs names its entries' poses", () => {
    const s = makeSphere(1);
    const e = refusal(() =>
      computePairs([
        { shape: s, pose: iso.create({ x: -1e308, y: 0, z: 0 }) },
        { shape: makeSphere(8e307), pose: iso.create({ x: 1e308, y: 0, z: 0 }) },
      ]),
    );
    expect(e.field).toBe("shapes[1].pose.translation");
    expect(e.message).toMatch(/^shapes\[1\]\.pose\.translation is too far from shapes\[0\]\.pose:/);
  });

  it('the number NaN prints bare, the string "NaN" quoted, at any depth', () => {
    expect(describeValue(Number.NaN)).toBe("NaN");
    expect(describeValue("NaN")).toBe('"NaN"');
    expect(describeValue({ x: Number.NaN, y: "NaN", z: -Infinity })).toBe(
      '{"x":NaN,"y":"NaN","z":-Infinity}',
    );
    expect(describeValue([Number.NaN, "NaN"])).toBe('[NaN,"NaN"]');
    const n = refusal(() => makeCuboid({ x: Number.NaN, y: 1, z: 1 }));
    const t = refusal(() => makeCuboid({ x: "NaN" as unknown as number, y: 1, z: 1 }));
    expect(n.message).toContain('{"x":NaN,"y":1,"z":1}');
    expect(t.message).toContain('{"x":"NaN","y":1,"z":1}');
    // On a query line NaN can only be a string, and prints as one.
    const q = refusal(() =>
      answerQuery({
        op: "intersects",
        a: { type: "sphere", center: [0, 0, 0], radius: "NaN" },
        b: far(1),
      }),
    );
    expect(q.message).toBe('a.radius must be a number (got "NaN")');
  });
});
