/**
 * Session 40's fresh-user attack, finding F5: about twenty public calls threw a TypeError (from
 * deep inside, after work was done) for a bad `world` or `out` argument — castRayClosest,
 * castRayAll, castRayAny and castShape with a null or `{}` world; a null, number, string, `{}`
 * or frozen `out` to the world's ray casts, castShape, getPose, getAabb, readContact,
 * candidatePairs and castRayShape, and to the 2D world's castRay, castRayAll, getPose and
 * readContact, contact2D, manifold2D and castRay2D. Also `pose2.fromAngle(0, 0, NaN)` built a
 * NaN pose and `events().begin.a(99)` answered undefined. Each is now a `CollideError` naming
 * the argument (`world`, `out`, `out.manifold`, `angle`, `index`), and a valid record is still
 * written as before (the answers are compared with the call that allocates its own record).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  aabb,
  type CollideError,
  CollisionWorld,
  castRayAll,
  castRayAny,
  castRayClosest,
  castRayShape,
  castShape,
  dim2,
  isometry,
  makeRayHit,
  makeSphere,
  makeWorldContact,
  makeWorldShapeCastHit,
  prepareWorld,
  sphereSphereIntersection,
} from "../../src/index.js";
import { refusal } from "../support/refusal.js";

const O = { x: 0, y: 5, z: 0 };
const DOWN = { x: 0, y: -1, z: 0 };

/** Two touching unit spheres, stepped once: a contact, a begin event, a ray target. */
function world3(): { w: CollisionWorld; a: number } {
  const w = new CollisionWorld({});
  const a = w.addBody({ shape: makeSphere(1), pose: isometry.create({ x: 0, y: 0, z: 0 }) });
  w.addBody({ shape: makeSphere(1), pose: isometry.create({ x: 1, y: 0, z: 0 }) });
  w.step();
  return { w, a };
}

function world2(): { w: dim2.CollisionWorld2D; a: number } {
  const w = new dim2.CollisionWorld2D({});
  const a = w.addBody({ shape: dim2.makeCircle(1), pose: dim2.pose2.fromAngle(0, 0, 0) });
  w.addBody({ shape: dim2.makeCircle(1), pose: dim2.pose2.fromAngle(1, 0, 0) });
  w.step();
  return { w, a };
}

const vec3 = () => ({ x: 0, y: 0, z: 0 });
const vec2 = () => ({ x: 0, y: 0 });

/** One API taking a record `out`: how to call it, a valid record, and its sub-records. */
interface RecordCase {
  name: string;
  call: (out: unknown) => unknown;
  valid: () => Record<string, unknown>;
  parts: readonly string[];
  /** The sub-records whose freezing stops the write (default `parts`; an array of records may be frozen). */
  freeze?: readonly string[];
}

const { w: W3, a: A3 } = world3();
const { w: W2, a: A2 } = world2();
const c1 = dim2.makeCircle(1);
const p0 = dim2.pose2.fromAngle(0, 0, 0);
const p1 = dim2.pose2.fromAngle(1.5, 0, 0);

const RECORDS: RecordCase[] = [
  {
    name: "castRayClosest",
    call: (o) => castRayClosest(W3, O, DOWN, Infinity, {}, o as never),
    valid: () => ({ handle: 0, toi: 0, point: vec3(), normal: vec3() }),
    parts: ["point", "normal"],
  },
  {
    name: "castRayAny",
    call: (o) => castRayAny(W3, O, DOWN, Infinity, {}, o as never),
    valid: () => ({ handle: 0, toi: 0, point: vec3(), normal: vec3() }),
    parts: ["point", "normal"],
  },
  {
    name: "castShape",
    call: (o) => castShape(W3, makeSphere(0.5), isometry.create(O), DOWN, 10, {}, o as never),
    valid: () => makeWorldShapeCastHit() as never,
    parts: ["normal", "pointA", "pointB"],
  },
  {
    name: "getPose",
    call: (o) => W3.getPose(A3 as never, o as never),
    valid: () => isometry.identity() as never,
    parts: ["translation", "rotation"],
  },
  {
    name: "getAabb",
    call: (o) => W3.getAabb(A3 as never, o as never),
    valid: () => aabb.empty() as never,
    parts: ["min", "max"],
  },
  {
    name: "readContact",
    call: (o) => W3.readContact(0, o as never),
    valid: () => makeWorldContact() as never,
    parts: ["manifold"],
  },
  {
    name: "castRayShape",
    call: (o) =>
      castRayShape(o as never, makeSphere(1), isometry.identity(), O, DOWN, Infinity, true),
    valid: () => makeRayHit() as never,
    parts: ["point", "normal"],
  },
  {
    name: "CollisionWorld2D.castRay",
    call: (o) => W2.castRay({ x: 0, y: 5 }, { x: 0, y: -1 }, Infinity, {}, o as never),
    valid: () => ({ handle: 0, toi: 0, point: vec2(), normal: vec2() }),
    parts: ["point", "normal"],
  },
  {
    name: "CollisionWorld2D.getPose",
    call: (o) => W2.getPose(A2 as never, o as never),
    valid: () => dim2.pose2.identity() as never,
    parts: ["p", "q"],
  },
  {
    name: "CollisionWorld2D.readContact",
    call: (o) => W2.readContact(0, o as never),
    valid: () => dim2.makeWorldContact2D() as never,
    parts: ["manifold"],
  },
  {
    name: "contact2D",
    call: (o) => dim2.contact2D(c1, p0, c1, p1, 1, o as never),
    valid: () => dim2.makeContact2() as never,
    parts: ["normal", "pointA", "pointB"],
  },
  {
    name: "manifold2D",
    call: (o) => dim2.manifold2D(c1, p0, c1, p1, 1, o as never),
    valid: () => dim2.makeManifold2() as never,
    parts: ["normal", "points"],
    freeze: ["normal"],
  },
  {
    name: "castRay2D",
    call: (o) =>
      dim2.castRay2D(c1, p0, { x: 5, y: 0 }, { x: -1, y: 0 }, Infinity, true, o as never),
    valid: () => dim2.makeRayHit2() as never,
    parts: ["point", "normal"],
  },
];

/** APIs appending to an array `out`. */
const ARRAYS: { name: string; call: (out: unknown) => unknown }[] = [
  { name: "castRayAll", call: (o) => castRayAll(W3, O, DOWN, Infinity, {}, o as never) },
  { name: "candidatePairs", call: (o) => W3.candidatePairs(o as never) },
  {
    name: "CollisionWorld2D.castRayAll",
    call: (o) => W2.castRayAll({ x: 0, y: 5 }, { x: 0, y: -1 }, Infinity, {}, o as never),
  },
];

/** Values that are not records at all. */
const notObject = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.constant(Symbol.iterator),
  fc.constant(() => 1),
);

/** A bad `out` for a record case: not an object, `{}`, frozen, or a sub-record broken. */
function badRecord(c: RecordCase): fc.Arbitrary<unknown> {
  return fc.oneof(
    notObject,
    fc.constant({}),
    fc.constant(null).map(() => Object.freeze(c.valid())),
    fc.tuple(fc.constantFrom(...c.parts), notObject).map(([k, v]) => ({ ...c.valid(), [k]: v })),
    fc.constantFrom(...(c.freeze ?? c.parts)).map((k) => {
      const r = c.valid();
      r[k] = Object.freeze(r[k] as object);
      return r;
    }),
  );
}

function expectOutRefusal(f: () => unknown): CollideError {
  const e = refusal(f);
  expect(e.code).toBe("invalid_value");
  expect(e.field === "out" || e.field === "out.manifold").toBe(true);
  expect(e.message).toContain("must be");
  return e;
}

describe("a bad out argument is refused by name (F5)", () => {
  for (const c of RECORDS) {
    it(`${c.name}: any non-record, {} or frozen out → CollideError naming out (property)`, () => {
      fc.assert(
        fc.property(badRecord(c), (o) => {
          expectOutRefusal(() => c.call(o));
        }),
        { numRuns: 60 },
      );
    });

    it(`${c.name}: a valid out is written as the allocating call answers`, () => {
      const out = c.valid();
      const r = c.call(out);
      expect(r === null || r === out || typeof r === "boolean").toBe(true);
      if (r === out) expect(JSON.stringify(out)).toBe(JSON.stringify(c.call(c.valid())));
    });
  }

  for (const c of ARRAYS) {
    it(`${c.name}: any non-array or frozen array out → CollideError naming out (property)`, () => {
      const bad = fc.oneof(
        notObject,
        fc.constant({}),
        fc.constant({ length: 0, push: () => 0 }),
        fc.constant(null).map(() => Object.freeze([] as number[])),
      );
      fc.assert(
        fc.property(bad, (o) => {
          const e = expectOutRefusal(() => c.call(o));
          expect(e.message).toContain("must be an array");
        }),
        { numRuns: 40 },
      );
      const out: unknown[] = ["keep"];
      expect(c.call(out)).toBe(out);
      expect(out[0]).toBe("keep");
      expect(out.length).toBeGreaterThan(1);
    });
  }

  it("readContact names out.manifold for a broken manifold", () => {
    const e = refusal(() => W3.readContact(0, { a: 0, b: 0, distance: 0, manifold: {} } as never));
    expect(e.field).toBe("out.manifold");
    const e2 = refusal(() =>
      W2.readContact(0, { a: 0, b: 0, distance: 0, manifold: { normal: {} } } as never),
    );
    expect(e2.field).toBe("out.manifold");
  });
});

describe("a bad world argument is refused by name (F5)", () => {
  const calls: [string, (w: unknown) => unknown][] = [
    ["castRayClosest", (w) => castRayClosest(w as never, O, DOWN)],
    ["castRayAll", (w) => castRayAll(w as never, O, DOWN, Infinity, {}, [])],
    ["castRayAny", (w) => castRayAny(w as never, O, DOWN)],
    ["castShape", (w) => castShape(w as never, makeSphere(1), isometry.create(O), DOWN, 1, {})],
    ["prepareWorld", (w) => prepareWorld(w as never)],
  ];
  for (const [name, call] of calls) {
    it(`${name}: undefined, null, {} or a 2D world → CollideError naming world (property)`, () => {
      const bad = fc.oneof(
        notObject,
        fc.constant(undefined),
        fc.constant({}),
        fc.constant({ castRayWith: () => null, checkNotInQuery: () => undefined }),
        fc.constant(W2),
      );
      fc.assert(
        fc.property(bad, (w) => {
          const e = refusal(() => call(w));
          expect(e.code).toBe("invalid_value");
          expect(e.field).toBe("world");
        }),
        { numRuns: 30 },
      );
    });
  }
});

describe("pose2.fromAngle and the event lists refuse bad numbers (F5)", () => {
  it("fromAngle refuses a non-finite or non-number angle, naming it", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(Number.NaN, Infinity, -Infinity), fc.string(), fc.constant(null)),
        (angle) => {
          const e = refusal(() => dim2.pose2.fromAngle(0, 0, angle as number));
          expect(e.field).toBe("angle");
        },
      ),
    );
    // A finite angle still builds the rotation (cos, sin; quarter turns exact).
    const q = dim2.pose2.fromAngle(1, 2, Math.PI / 2).q;
    expect([q.c, q.s]).toEqual([0, 1]);
    expect(dim2.pose2.fromAngle(0, 0, 0.5).q.c).toBe(Math.cos(0.5));
  });

  it("events().begin.a, .b, .isSensor and impacts() refuse an index out of [0, count)", () => {
    const ev = W3.events().begin;
    expect(ev.count).toBe(1);
    expect(ev.a(0)).toBeLessThan(ev.b(0));
    expect(ev.isSensor(0)).toBe(false);
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.integer({ max: -1 }), fc.double()),
        (i) => {
          fc.pre(!(i === 0));
          for (const f of [() => ev.a(i), () => ev.b(i), () => ev.isSensor(i)]) {
            const e = refusal(f);
            expect(e.field).toBe("index");
            expect(e.message).toContain("[0, 1)");
          }
        },
      ),
    );
    const im = W3.impacts();
    expect(im.count).toBe(0);
    expect(refusal(() => im.read(0)).field).toBe("index");
    expect(refusal(() => im.a(0)).field).toBe("index");
    expect(refusal(() => im.toi(0)).field).toBe("index");
    const ev2 = W2.events().begin;
    expect(refusal(() => ev2.a(5)).field).toBe("index");
  });
});

describe("sphereSphereIntersection refuses an answer past the largest double (F4)", () => {
  const o = { x: 0, y: 0, z: 0 };
  it("names the smaller ball's radius, as the volume command does", () => {
    // Radii 1e103 at distance 1e103: the lens volume (about 0.4·r³ ≈ 4e308) overflows.
    const e = refusal(() => sphereSphereIntersection(o, 1e103, { x: 1e103, y: 0, z: 0 }, 1e103));
    expect(e.field).toBe("a.radius");
    expect(e.message).toMatch(/^a\.radius is too large/);
    const e2 = refusal(() => sphereSphereIntersection(o, 1e160, { x: 1e160, y: 0, z: 0 }, 1e150));
    expect(e2.field).toBe("b.radius");
  });

  it("answers the finite lens below the overflow (hand-derived: equal balls at d = r)", () => {
    // Two balls of radius r at distance r: two caps of height r/2, each π(r/2)²(3r − r/2)/3
    // = 5πr³/24, total 5πr³/12; the area 2·2πr·(r/2) = 2πr².
    for (const r of [1, 1e50, 1e100]) {
      const s = sphereSphereIntersection(o, r, { x: r, y: 0, z: 0 }, r);
      expect(s.volume / ((5 * Math.PI * r ** 3) / 12)).toBeCloseTo(1, 12);
      expect(s.surfaceArea / (2 * Math.PI * r * r)).toBeCloseTo(1, 12);
    }
  });
});
