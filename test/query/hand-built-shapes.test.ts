/**
 * Hand-built shapes (object literals, not `make…` constructors) reach the queries unvalidated:
 * the queries must never let a NaN out because of one. For every public query of src/query and
 * every convex shape type, a copy of a valid shape with one numeric field set to NaN or ±∞
 * either throws a CollideError naming that field (`a.radius`, `shape.vertices[7]`, …) or gives
 * an answer with no NaN in it; the yes/no `intersects` must throw for NaN. Valid hand-built
 * copies answer exactly as the constructed shapes and as the unguarded narrow-phase composition
 * the queries wrapped before the guard (the oracle).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import {
  makeContact,
  makeContactManifold,
  makeDistanceResult,
} from "../../src/narrowphase/contact.js";
import {
  contactPair,
  distancePair,
  intersectsPair,
  manifoldPair,
} from "../../src/narrowphase/dispatch.js";
import { queryOrderSwapped } from "../../src/narrowphase/touching.js";
import {
  castShapes,
  castShapesInto,
  castShapesNonlinear,
  castShapesNonlinearInto,
  makeShapeCastHit,
} from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { refuseBadInputs, refusePair } from "../../src/query/guard.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { computePairs } from "../../src/query/pairs.js";
import {
  makePointProjection,
  projectPoint,
  projectPointShape,
} from "../../src/query/project-point.js";
import { castRayShape, makeRayHit, raycast } from "../../src/query/raycast.js";
import {
  makeCapsule,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeSphere,
  makeTriangle,
} from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { pose as poseArb, vec } from "../oracles/arbitraries.js";

// ---------------------------------------------------------------------------------------------
// The shapes and their numeric fields
// ---------------------------------------------------------------------------------------------

const KINDS = ["sphere", "cuboid", "capsule", "cylinder", "cone", "convex", "triangle"] as const;
type Kind = (typeof KINDS)[number];

const MADE: Record<Kind, Shape> = {
  sphere: makeSphere(0.7),
  cuboid: makeCuboid({ x: 0.5, y: 0.3, z: 0.4 }),
  capsule: makeCapsule({ x: -0.3, y: 0, z: 0 }, { x: 0.3, y: 0.1, z: 0 }, 0.25),
  cylinder: makeCylinder(0.5, 0.4),
  cone: makeCone(0.6, 0.45),
  convex: makeConvexPolyhedron([
    { x: 0.6, y: 0, z: 0 },
    { x: -0.5, y: 0.1, z: 0 },
    { x: 0, y: 0.55, z: 0.1 },
    { x: 0.1, y: -0.6, z: 0 },
    { x: 0, y: 0, z: 0.5 },
    { x: 0, y: 0.1, z: -0.6 },
  ]),
  triangle: makeTriangle(
    { x: -0.6, y: 0, z: 0 },
    { x: 0.6, y: 0.1, z: 0 },
    { x: 0, y: 0.5, z: 0.3 },
  ),
};

/** A numeric leaf of a shape: where it is (`path`) and the field the error must name. */
interface NumericField {
  path: readonly (string | number)[];
  field: string;
}

/** Every numeric leaf of `s`: numbers, vector components, typed-array elements. */
function numericFields(s: Shape): NumericField[] {
  const out: NumericField[] = [];
  for (const [key, v] of Object.entries(s)) {
    if (key === "type") continue;
    if (typeof v === "number") out.push({ path: [key], field: key });
    else if (v instanceof Float64Array) {
      for (let i = 0; i < v.length; i++) out.push({ path: [key, i], field: `${key}[${i}]` });
    } else if (v !== null && typeof v === "object" && "x" in v) {
      for (const c of ["x", "y", "z"]) out.push({ path: [key, c], field: key });
    }
  }
  return out;
}

/** A hand-built deep copy of `s` (plain objects, fresh typed arrays). */
function handBuilt(s: Shape): Shape {
  return structuredClone(s);
}

/** A hand-built copy of `s` with the leaf at `path` set to `value`. */
function withField(s: Shape, path: readonly (string | number)[], value: number): Shape {
  const c = handBuilt(s) as unknown as Record<string | number, unknown>;
  let o = c;
  for (let i = 0; i < path.length - 1; i++) o = o[path[i]] as Record<string | number, unknown>;
  o[path[path.length - 1]] = value;
  return c as unknown as Shape;
}

/** True when some number reachable from `x` (objects, arrays, typed arrays) is NaN. */
function hasNaN(x: unknown): boolean {
  if (typeof x === "number") return Number.isNaN(x);
  if (x === null || typeof x !== "object") return false;
  if (ArrayBuffer.isView(x)) return Array.from(x as Float64Array).some(Number.isNaN);
  return Object.values(x).some(hasNaN);
}

type Outcome = { threw: CollideError } | { result: unknown };

function run(f: () => unknown): Outcome {
  try {
    return { result: f() };
  } catch (e) {
    if (!(e instanceof CollideError)) throw e;
    return { threw: e };
  }
}

/** Asserts: a CollideError naming `field`, or an answer without NaN. Returns which. */
function expectRefusedOrClean(f: () => unknown, field: string, label: string): "threw" | "clean" {
  const o = run(f);
  if ("threw" in o) {
    expect(o.threw.field, `${label}: ${o.threw.message}`).toBe(field);
    expect(o.threw.code).toBe("invalid_value");
    return "threw";
  }
  expect(hasNaN(o.result), `${label}: ${JSON.stringify(o.result)}`).toBe(false);
  return "clean";
}

// ---------------------------------------------------------------------------------------------
// The queries, each as "run with the bad shape in its slot"
// ---------------------------------------------------------------------------------------------

interface Scene {
  /** The shape under test (maybe bad) and the other shape of a pair query. */
  shape: Shape;
  other: Shape;
  /** True: the shape under test is argument A (`a`), else B. */
  first: boolean;
  poseA: Isometry;
  poseB: Isometry;
  velocity: Vec3;
}

/** A query: its name, the prefix its error names the shape under test by, and a runner. */
interface Query {
  name: string;
  prefix: (s: Scene) => string;
  run: (s: Scene) => unknown;
}

const ab = (s: Scene) => (s.first ? "a" : "b");
const pair = (s: Scene): [Shape, Isometry, Shape, Isometry] =>
  s.first ? [s.shape, s.poseA, s.other, s.poseB] : [s.other, s.poseA, s.shape, s.poseB];
const ZERO = { x: 0, y: 0, z: 0 };

const QUERIES: Query[] = [
  { name: "intersects", prefix: ab, run: (s) => intersects(...pair(s)) },
  { name: "distance", prefix: ab, run: (s) => distance(...pair(s)) },
  { name: "contact", prefix: ab, run: (s) => contact(...pair(s), 0.5) },
  { name: "manifold", prefix: ab, run: (s) => manifold(...pair(s), 0.5) },
  {
    name: "castShapes",
    prefix: ab,
    run: (s) => {
      const [a, pa, b, pb] = pair(s);
      return castShapes(a, pa, s.velocity, b, pb, ZERO, 2);
    },
  },
  {
    name: "castShapesNonlinear",
    prefix: ab,
    run: (s) => {
      const [a, pa, b, pb] = pair(s);
      const pa1 = {
        translation: iso.transformPoint({ ...ZERO }, pa, s.velocity),
        rotation: pa.rotation,
      };
      return castShapesNonlinear(a, pa, pa1, b, pb, pb);
    },
  },
  {
    name: "raycast",
    prefix: () => "shape",
    run: (s) => raycast(s.shape, s.poseA, s.poseB.translation, rayDir(s), 10),
  },
  {
    name: "castRayShape",
    prefix: () => "shape",
    run: (s) => {
      const hit = makeRayHit();
      const found = castRayShape(hit, s.shape, s.poseA, s.poseB.translation, rayDir(s), 10, true);
      return { found, hit: found ? hit : null };
    },
  },
  {
    name: "projectPoint",
    prefix: () => "shape",
    run: (s) => projectPoint(s.shape, s.poseA, s.poseB.translation, s.first),
  },
  {
    name: "computePairs",
    prefix: (s) => `shapes[${s.first ? 0 : 1}].shape`,
    run: (s) => {
      const [a, pa, b, pb] = pair(s);
      return computePairs([
        { shape: a, pose: pa },
        { shape: b, pose: pb },
      ]);
    },
  },
];

/** From poseB's origin toward poseA's origin (or +x when they coincide). */
function rayDir(s: Scene): Vec3 {
  const a = s.poseA.translation;
  const b = s.poseB.translation;
  const d = { x: a.x - b.x, y: a.y - b.y, z: a.z - b.z };
  return d.x === 0 && d.y === 0 && d.z === 0 ? { x: 1, y: 0, z: 0 } : d;
}

const kindArb = fc.constantFrom(...KINDS);
const sceneArb = fc.record({
  kind: kindArb,
  otherKind: kindArb,
  fieldIndex: fc.nat(),
  value: fc.constantFrom(Number.NaN, Infinity, -Infinity),
  first: fc.boolean(),
  poseA: poseArb(-1.5, 1.5),
  poseB: poseArb(-1.5, 1.5),
  velocity: vec(-2, 2),
});

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe("hand-built shapes with a NaN or infinite field", () => {
  it("every query either throws a CollideError naming the field or answers without NaN", () => {
    const tally = { threw: 0, clean: 0 };
    fc.assert(
      fc.property(sceneArb, (c) => {
        const fields = numericFields(MADE[c.kind]);
        const f = fields[c.fieldIndex % fields.length];
        const scene: Scene = {
          shape: withField(MADE[c.kind], f.path, c.value),
          other: MADE[c.otherKind],
          first: c.first,
          poseA: c.poseA,
          poseB: c.poseB,
          velocity: c.velocity,
        };
        for (const q of QUERIES) {
          const field = `${q.prefix(scene)}.${f.field}`;
          const label = `${q.name} ${c.kind}.${f.path.join(".")} = ${c.value}`;
          const o = expectRefusedOrClean(() => q.run(scene), field, label);
          tally[o]++;
          // A yes/no answer cannot carry a NaN: intersects must refuse a NaN shape.
          if (q.name === "intersects" && Number.isNaN(c.value)) expect(o, label).toBe("threw");
        }
      }),
      { numRuns: 150 },
    );
    expect(tally.threw).toBeGreaterThan(0);
    expect(tally.clean).toBeGreaterThan(0);
  });

  it("intersects throws for NaN in every field of every shape type, in both slots", () => {
    const p0 = iso.identity();
    const p1 = iso.create({ x: 0.3, y: 0.1, z: 0 });
    const far = iso.create({ x: 50, y: 0, z: 0 });
    for (const kind of KINDS) {
      for (const f of numericFields(MADE[kind])) {
        const bad = withField(MADE[kind], f.path, Number.NaN);
        for (const other of KINDS) {
          for (const pb of [p1, far]) {
            for (const first of [true, false]) {
              const scene: Scene = {
                shape: bad,
                other: MADE[other],
                first,
                poseA: p0,
                poseB: pb,
                velocity: ZERO,
              };
              const o = run(() => intersects(...pair(scene)));
              const label = `${kind}.${f.path.join(".")} vs ${other}`;
              expect("threw" in o, label).toBe(true);
              if ("threw" in o) expect(o.threw.field, label).toBe(`${ab(scene)}.${f.field}`);
            }
          }
        }
      }
    }
  });

  it("a NaN radius or half extent is refused by every query but castRayShape, naming the field", () => {
    // The case of the fault report: distance(handBuiltNaNSphere, pose, box, pose) was NaN.
    const nanSphere = { type: ShapeType.Sphere, radius: Number.NaN } as Shape;
    const nanBox = { type: ShapeType.Cuboid, halfExtents: { x: Number.NaN, y: 1, z: 1 } } as Shape;
    const box = MADE.cuboid;
    const pa = iso.identity();
    const pb = iso.create({ x: 0.5, y: 0.2, z: -0.1 });
    for (const [bad, f] of [
      [nanSphere, "radius"],
      [nanBox, "halfExtents"],
    ] as const) {
      for (const first of [true, false]) {
        const scene: Scene = {
          shape: bad,
          other: box,
          first,
          poseA: pa,
          poseB: pb,
          velocity: ZERO,
        };
        for (const q of QUERIES) {
          const o = run(() => q.run(scene));
          const label = `${q.name} ${f} first=${first}`;
          // The hot-path castRayShape checks its hits for NaN only (no shape probe, to keep the
          // world's rays free): here it misses or reports a finite hit; every other query throws.
          expect("threw" in o, label).toBe(q.name !== "castRayShape");
          if ("result" in o) expect(hasNaN(o.result), label).toBe(false);
          if ("threw" in o) expect(o.threw.field, label).toBe(`${q.prefix(scene)}.${f}`);
        }
      }
    }
    expect(() => distance(nanSphere, pa, box, pa)).toThrow("a.radius must be a finite number");
  });

  it("the guard names the first bad argument, and refuses all the same when all pass", () => {
    const nan = { type: ShapeType.Sphere, radius: Number.NaN } as Shape;
    const badPose = {
      translation: { x: Number.NaN, y: 0, z: 0 },
      rotation: iso.identity().rotation,
    };
    const ok = iso.identity();
    const err = (f: () => unknown) => {
      const o = run(f);
      expect("threw" in o).toBe(true);
      return (o as { threw: CollideError }).threw;
    };
    expect(err(() => refusePair("distance", MADE.sphere, ok, nan, badPose)).field).toBe("b.radius");
    expect(err(() => refusePair("distance", MADE.sphere, ok, MADE.cuboid, badPose)).field).toBe(
      "poseB.translation",
    );
    const internal = err(() => refusePair("distance", MADE.sphere, ok, MADE.cuboid, ok));
    expect(internal.field).toBe("");
    expect(internal.code).toBe("invalid_value");
    expect(internal.message).toContain("internal fault");
    expect(
      err(() =>
        refuseBadInputs(
          "raycast",
          [["shape", MADE.sphere]],
          [["pose", ok]],
          [["origin", { x: 0, y: Infinity, z: 0 }]],
        ),
      ).field,
    ).toBe("origin");
  });
});

describe("valid hand-built shapes answer exactly as before", () => {
  it("as the constructed shape, and as the unguarded narrow-phase composition", () => {
    fc.assert(
      fc.property(sceneArb, (c) => {
        const made: Scene = {
          shape: MADE[c.kind],
          other: MADE[c.otherKind],
          first: c.first,
          poseA: c.poseA,
          poseB: c.poseB,
          velocity: c.velocity,
        };
        const hand: Scene = { ...made, shape: handBuilt(made.shape), other: handBuilt(made.other) };
        for (const q of QUERIES) {
          expect(q.run(hand), q.name).toStrictEqual(q.run(made));
        }
        // The oracle: the narrow-phase calls the queries wrapped before the guard.
        const [a, pa, b, pb] = pair(hand);
        const bInA = iso.invMul(iso.identity(), pa, pb);
        const sphereBox =
          (a.type === ShapeType.Sphere && b.type === ShapeType.Cuboid) ||
          (a.type === ShapeType.Cuboid && b.type === ShapeType.Sphere);
        // A pair the queries call in the other order (a flipped table entry, or one type in its
        // canonical order: src/narrowphase/touching.ts, queryOrderSwapped) is composed from the
        // other order's pose; this oracle composes the given order only, so it checks the rest.
        const swapped = (op: "intersects" | "distance" | "contact" | "manifold") =>
          queryOrderSwapped(op, a, pa, b, pb, bInA);
        if (!sphereBox && !swapped("intersects")) {
          expect(intersects(a, pa, b, pb)).toBe(intersectsPair(a, b, bInA));
        }
        const d = distancePair(makeDistanceResult(), a, b, iso.invMul(iso.identity(), pa, pb));
        iso.transformPoint(d.pointA, pa, d.pointA);
        iso.transformPoint(d.pointB, pa, d.pointB);
        if (!swapped("distance")) expect(distance(a, pa, b, pb)).toStrictEqual(d);
        const k = makeContact();
        if (swapped("contact")) {
          // (checked against the constructed shape above)
        } else if (contactPair(k, a, b, iso.invMul(iso.identity(), pa, pb), 0.5)) {
          iso.transformVector(k.normal, pa, k.normal);
          iso.transformPoint(k.pointA, pa, k.pointA);
          iso.transformPoint(k.pointB, pa, k.pointB);
          // The query adds its certified error bound (src/query/contact.ts), which the pair
          // routine alone does not carry: compared as a non-negative number, the rest exactly.
          const got = contact(a, pa, b, pb, 0.5);
          expect(got?.errorBound).toBeGreaterThanOrEqual(0);
          k.errorBound = got?.errorBound;
          expect(got).toStrictEqual(k);
        } else expect(contact(a, pa, b, pb, 0.5)).toBeNull();
        const m = makeContactManifold();
        if (swapped("manifold")) {
          // (checked against the constructed shape above)
        } else if (manifoldPair(m, a, b, iso.invMul(iso.identity(), pa, pb), 0.5)) {
          iso.transformVector(m.normal, pa, m.normal);
          for (let i = 0; i < m.count; i++) {
            iso.transformPoint(m.points[i].pointA, pa, m.points[i].pointA);
            iso.transformPoint(m.points[i].pointB, pa, m.points[i].pointB);
          }
          expect(manifold(a, pa, b, pb, 0.5)).toStrictEqual(m);
        } else expect(manifold(a, pa, b, pb, 0.5)).toBeNull();
        const hit = makeShapeCastHit();
        const found = castShapesInto(hit, a, pa, hand.velocity, b, pb, ZERO, 2);
        expect(castShapes(a, pa, hand.velocity, b, pb, ZERO, 2)).toStrictEqual(found ? hit : null);
        const pa1 = {
          translation: iso.transformPoint({ ...ZERO }, pa, hand.velocity),
          rotation: pa.rotation,
        };
        const hitN = makeShapeCastHit();
        const foundN = castShapesNonlinearInto(hitN, a, pa, pa1, b, pb, pb);
        expect(castShapesNonlinear(a, pa, pa1, b, pb, pb)).toStrictEqual(foundN ? hitN : null);
        const pt = projectPointShape(makePointProjection(), hand.shape, pa, pb.translation, true);
        expect(projectPoint(hand.shape, pa, pb.translation, true)).toStrictEqual(pt);
      }),
      { numRuns: 150 },
    );
  });
});
