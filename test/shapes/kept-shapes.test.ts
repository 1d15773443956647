/**
 * A shape cannot change under a world (issue 14, item 6): a hand-built shape object given to
 * `addBody` (either world) or to `makeCompound` is validated and kept as the copy its `make…`
 * builds, so changing the hand-built object afterwards — radius 1 → 3, a coordinate to NaN, a
 * hull's vertices overwritten — changes nothing that was kept. Oracle: the same world built
 * fresh from an unchanged twin of the hand-built object (and, for the kept copy itself, the
 * shape its `make…` builds from the same numbers).
 */
import { describe, expect, it } from "vitest";
import {
  CollisionWorld,
  dim2,
  isometry,
  makeCompound,
  makeConvexPolyhedron,
  makeRoundedConvexPolyhedron,
  makeSphere,
  type Shape,
  ShapeType,
} from "../../src/index.js";
import { isBrandedShape } from "../../src/shapes/shape.js";
import { shapeDef } from "../../src/shapes/shape-def.js";

const I = { x: 0, y: 0, z: 0, w: 1 };
const cube = [-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1, -1, -1, 1, 1, -1, 1, -1, 1, 1, 1, 1, 1];

/** A hand-built hull: the made hull's fields with arrays of its own (nothing shared). */
function handHull(): Record<string, unknown> {
  const made = makeConvexPolyhedron(cube) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(made)) {
    out[k] = ArrayBuffer.isView(v) ? (v as Float64Array).slice() : v;
  }
  return out;
}

// biome-ignore lint/suspicious/noExplicitAny: the tests write into hand-built objects of every layout.
type Any = Record<string, any>;

/** [name, a fresh hand-built object, a change to it after addBody]. */
const CASES: [string, () => Any, (s: Any) => void][] = [
  ["sphere", () => ({ type: ShapeType.Sphere, radius: 1 }), (s) => (s.radius = 3)],
  ["sphere NaN", () => ({ type: ShapeType.Sphere, radius: 1 }), (s) => (s.radius = Number.NaN)],
  [
    "cuboid",
    () => ({ type: ShapeType.Cuboid, halfExtents: { x: 1, y: 0.5, z: 0.75 } }),
    (s) => (s.halfExtents.x = 3),
  ],
  [
    "capsule",
    () => ({
      type: ShapeType.Capsule,
      a: { x: 0, y: -1, z: 0 },
      b: { x: 0, y: 1, z: 0 },
      radius: 1,
    }),
    (s) => {
      s.a.x = Number.NaN;
      s.radius = 2;
    },
  ],
  [
    "cylinder",
    () => ({ type: ShapeType.Cylinder, halfHeight: 1, radius: 1 }),
    (s) => (s.radius = 3),
  ],
  ["cone", () => ({ type: ShapeType.Cone, halfHeight: 1, radius: 1 }), (s) => (s.radius = 3)],
  ["convex", handHull, (s) => (s.vertices as Float64Array).fill(3)],
  [
    "triangle",
    () => ({
      type: ShapeType.Triangle,
      a: { x: 0, y: -1, z: -1 },
      b: { x: 0, y: 1, z: -1 },
      c: { x: 0, y: 0, z: 1 },
    }),
    (s) => (s.a.x = 3),
  ],
  [
    "halfspace",
    () => ({ type: ShapeType.HalfSpace, normal: { x: 1, y: 0, z: 0 }, offset: 0.6 }),
    (s) => (s.offset = -5),
  ],
  [
    "compound",
    () => ({
      type: ShapeType.Compound,
      children: [
        {
          shape: { type: ShapeType.Sphere, radius: 1 },
          pose: { translation: { x: 0, y: 0, z: 0 }, rotation: { ...I } },
        },
        {
          shape: { type: ShapeType.Cuboid, halfExtents: { x: 0.5, y: 0.5, z: 0.5 } },
          pose: { translation: { x: 0, y: 2, z: 0 }, rotation: { ...I } },
        },
      ],
    }),
    (s) => {
      s.children[0].shape.radius = 3;
      s.children[0].pose.translation.x = 1;
      s.children.push(s.children[1]);
    },
  ],
  [
    "roundedCuboid",
    () => ({
      type: ShapeType.RoundedCuboid,
      core: { type: ShapeType.Cuboid, halfExtents: { x: 0.75, y: 0.5, z: 0.5 } },
      radius: 0.25,
    }),
    (s) => {
      s.radius = 2;
      s.core.halfExtents.x = Number.NaN;
    },
  ],
  [
    "roundedConvex",
    () => ({ type: ShapeType.RoundedConvexPolyhedron, core: handHull(), radius: 0.1 }),
    (s) => {
      s.radius = 2;
      (s.core.vertices as Float64Array)[0] = Number.NaN;
    },
  ],
];

/** The world's contacts after three steps, a hand-built body at the origin and three probes. */
function worldOf(shape: Any, change?: (s: Any) => void): { contacts: unknown[]; kept: Shape } {
  const w = new CollisionWorld();
  const h = w.addBody({ shape: shape as Shape, pose: isometry.identity() });
  w.addBody({ shape: makeSphere(0.5), pose: isometry.create({ x: 1.4, y: 0.2, z: 0.1 }) });
  w.addBody({ shape: makeSphere(0.5), pose: isometry.create({ x: -2.4, y: 0, z: 0 }) });
  w.addBody({ shape: makeSphere(0.5), pose: isometry.create({ x: 0.3, y: -0.2, z: 0 }) });
  w.step();
  change?.(shape);
  w.step();
  w.setPose(h, isometry.create({ x: 0, y: 0, z: 1e-3 }));
  w.step();
  return { contacts: JSON.parse(JSON.stringify(w.contacts())), kept: w.getShape(h) };
}

describe("a hand-built shape cannot change under a world", () => {
  it.each(CASES)(
    "%s: changed after addBody, the contacts are a fresh world's",
    (_n, build, change) => {
      const fresh = worldOf(build());
      const changed = worldOf(build(), change);
      expect(fresh.contacts.length).toBeGreaterThan(0);
      expect(changed.contacts).toEqual(fresh.contacts);
    },
  );

  it.each(CASES)("%s: getShape is a marked, frozen copy equal to its make…'s", (_n, build) => {
    const hand = build();
    const { kept } = worldOf(hand);
    expect(kept).not.toBe(hand);
    expect(isBrandedShape(kept)).toBe(true);
    expect(Object.isFrozen(kept)).toBe(true);
    const json = shapeDef(kept.type).json;
    // Same numbers as the hand-built object (the JSON form reads only the defining numbers).
    expect(json.toJson(kept)).toEqual(json.toJson(hand as Shape));
  });

  it("a made shape is kept as it is (getShape returns the same object)", () => {
    const w = new CollisionWorld();
    const s = makeRoundedConvexPolyhedron(cube, 0.1);
    const h = w.addBody({ shape: s, pose: isometry.identity() });
    expect(w.getShape(h)).toBe(s);
  });

  it("a bad hand-built shape is still refused naming the field", () => {
    const w = new CollisionWorld();
    expect(() =>
      w.addBody({
        shape: { type: ShapeType.Sphere, radius: -1 } as Shape,
        pose: isometry.identity(),
      }),
    ).toThrow(/body\.shape\.radius/);
    expect(() =>
      w.addBody({
        shape: {
          type: ShapeType.Compound,
          children: [
            { shape: { type: ShapeType.Sphere, radius: Number.NaN }, pose: isometry.identity() },
          ],
        } as unknown as Shape,
        pose: isometry.identity(),
      }),
    ).toThrow(/body\.shape\.children\[0\]\.shape\.radius/);
    expect(w.bodyCount).toBe(0);
  });
});

describe("makeCompound keeps copies of hand-built children", () => {
  it("a child changed after makeCompound changes nothing", () => {
    const child = { type: ShapeType.Sphere, radius: 1 } as Any;
    const k = makeCompound([{ shape: child as Shape as never, pose: isometry.identity() }]);
    child.radius = 5;
    expect(Object.isFrozen(child)).toBe(false);
    const kept = k.children[0].shape as Any;
    expect(kept).not.toBe(child);
    expect(kept.radius).toBe(1);
    expect(isBrandedShape(kept)).toBe(true);
  });

  it("a hand-built nested compound is flattened from its copy", () => {
    const inner = {
      type: ShapeType.Compound,
      children: [
        {
          shape: { type: ShapeType.Sphere, radius: 1 },
          pose: isometry.create({ x: 1, y: 0, z: 0 }),
        },
      ],
    } as Any;
    const k = makeCompound([
      { shape: inner as never, pose: isometry.create({ x: 0, y: 2, z: 0 }) },
    ]);
    inner.children[0].shape.radius = 7;
    expect((k.children[0].shape as Any).radius).toBe(1);
    expect(k.children[0].pose.translation).toEqual({ x: 1, y: 2, z: 0 });
  });
});

describe("the 2D world keeps copies of hand-built shapes", () => {
  const { CollisionWorld2D, makeCircle, makeRect, pose2 } = dim2;
  const hand2: [string, () => Any, (s: Any) => void][] = [
    [
      "circle",
      () => ({
        ...makeCircle(1),
        core: { count: 1, verts: new Float64Array(2), normals: new Float64Array(0), radius: 1 },
      }),
      (s) => {
        s.radius = 3;
        s.core.radius = 3;
      },
    ],
    [
      "rect",
      () => ({ ...makeRect({ x: 1, y: 1 }), halfExtents: { x: 1, y: 1 } }),
      (s) => (s.halfExtents.x = 4),
    ],
  ];
  function world2(shape: Any, change?: (s: Any) => void): unknown[] {
    const w = new CollisionWorld2D();
    w.addBody({ shape: shape as never, pose: pose2.fromAngle(0, 0) });
    w.addBody({ shape: makeCircle(0.5), pose: pose2.fromAngle(1.3, 0.1) });
    w.addBody({ shape: makeCircle(0.5), pose: pose2.fromAngle(-2.9, 0) });
    w.step();
    change?.(shape);
    w.step();
    return JSON.parse(JSON.stringify([...w.contacts()]));
  }
  it.each(hand2)(
    "%s: changed after addBody, the contacts are a fresh world's",
    (_n, build, change) => {
      const fresh = world2(build());
      expect(fresh.length).toBeGreaterThan(0);
      expect(world2(build(), change)).toEqual(fresh);
    },
  );

  it("a hand-built 2D shape with a bad radius is refused naming it", () => {
    const w = new CollisionWorld2D();
    expect(() =>
      w.addBody({ shape: { ...makeCircle(1), radius: -2 } as never, pose: pose2.fromAngle(0, 0) }),
    ).toThrow(/body\.shape\.radius/);
  });
});
