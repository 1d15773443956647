/**
 * Every public function taking an options (or description) object refuses an unknown key with a
 * `CollideError` (`unknown_field`) naming the key and the function, suggests the valid key an
 * obvious typo meant, and refuses a wrong-typed value (`null` is not "not set"). The first test
 * enumerates src/index.ts: each function or class it exports is either in the options table
 * below or in the list of those that take no options object, so a new export must be placed.
 */
import { describe, expect, it } from "vitest";
import { closestKey } from "../../src/errors.js";
import * as collide from "../../src/index.js";
import {
  CollideError,
  CollisionWorld,
  castRayAll,
  castRayAny,
  castRayClosest,
  castShape,
  computeConvexHull,
  computePairs,
  DynamicTree,
  dim2,
  makeCompound,
  makeCuboid,
  makeFrustum,
  makeHeightfield,
  makeSphere,
  makeTriangleMesh,
  overlapVolume,
  SpatialHash,
  SweepAndPrune,
} from "../../src/index.js";

const id = () => ({ translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } });
const origin = { x: 0, y: 0, z: 0 };
const dirX = { x: 1, y: 0, z: 0 };
const cube = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1];
const camera = {
  position: origin,
  rotation: { x: 0, y: 0, z: 0, w: 1 },
  fovY: 1,
  aspect: 1,
  near: 0.1,
  far: 10,
};
function world(): CollisionWorld {
  const w = new CollisionWorld();
  w.addBody({ shape: makeSphere(1), pose: id() });
  return w;
}
function world2(): InstanceType<typeof dim2.CollisionWorld2D> {
  return new dim2.CollisionWorld2D();
}
const hf = { rows: 2, cols: 2, heights: new Float64Array(4), scale: { x: 1, y: 1, z: 1 } };
type Opts = Record<string, unknown>;

/** Each options-taking export: its name and a call passing `o` as its options object. */
const TABLE: { name: string; exports: string[]; call: (o: Opts) => unknown }[] = [
  { name: "CollisionWorld", exports: ["CollisionWorld"], call: (o) => new CollisionWorld(o) },
  {
    name: "addBody",
    exports: [],
    call: (o) => world().addBody({ shape: makeSphere(1), pose: id(), ...o }),
  },
  {
    name: "castRayClosest",
    exports: ["castRayClosest"],
    call: (o) => castRayClosest(world(), origin, dirX, 10, o),
  },
  {
    name: "castRayAll",
    exports: ["castRayAll"],
    call: (o) => castRayAll(world(), origin, dirX, 10, o),
  },
  {
    name: "castRayAny",
    exports: ["castRayAny"],
    call: (o) => castRayAny(world(), origin, dirX, 10, o),
  },
  { name: "overlapAabb", exports: [], call: (o) => world().overlapAabb(origin, dirX, [], o) },
  {
    name: "overlapShape",
    exports: [],
    call: (o) => world().overlapShape(makeSphere(1), id(), [], o),
  },
  {
    name: "overlapFrustum",
    exports: [],
    call: (o) => world().overlapFrustum(makeFrustum(camera), o),
  },
  {
    name: "castShape",
    exports: ["castShape"],
    call: (o) => castShape(world(), makeSphere(0.5), id(), dirX, 1, o),
  },
  { name: "DynamicTree", exports: ["DynamicTree"], call: (o) => new DynamicTree(o) },
  { name: "SpatialHash", exports: ["SpatialHash"], call: (o) => new SpatialHash(o) },
  { name: "SweepAndPrune", exports: ["SweepAndPrune"], call: (o) => new SweepAndPrune(o) },
  {
    name: "computeConvexHull",
    exports: ["computeConvexHull"],
    call: (o) => computeConvexHull(cube, "points", o),
  },
  { name: "computePairs", exports: ["computePairs"], call: (o) => computePairs([], "brute", o) },
  {
    name: "overlapVolume",
    exports: ["overlapVolume"],
    call: (o) => overlapVolume(makeSphere(1), id(), makeCuboid({ x: 1, y: 1, z: 1 }), id(), o),
  },
  {
    name: "makeTriangleMesh",
    exports: ["makeTriangleMesh"],
    call: (o) => makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2], "", o),
  },
  {
    name: "makeHeightfield",
    exports: ["makeHeightfield"],
    call: (o) => makeHeightfield({ ...hf, ...o }),
  },
  {
    name: "makeCompound",
    exports: ["makeCompound"],
    call: (o) => makeCompound([{ shape: makeSphere(1), pose: id(), ...o }]),
  },
  { name: "makeFrustum", exports: ["makeFrustum"], call: (o) => makeFrustum({ ...camera, ...o }) },
  {
    name: "CollisionWorld2D",
    exports: ["dim2.CollisionWorld2D"],
    call: (o) => new dim2.CollisionWorld2D(o),
  },
  {
    name: "CollisionWorld2D.addBody",
    exports: [],
    call: (o) =>
      world2().addBody({
        shape: dim2.makeCircle(1),
        pose: { x: 0, y: 0, angle: 0 } as never,
        ...o,
      }),
  },
  {
    name: "CollisionWorld2D.castRay",
    exports: [],
    call: (o) => world2().castRay({ x: 0, y: 0 }, { x: 1, y: 0 }, 1, o),
  },
  {
    name: "CollisionWorld2D.castRayAll",
    exports: [],
    call: (o) => world2().castRayAll({ x: 0, y: 0 }, { x: 1, y: 0 }, 1, o),
  },
  {
    name: "CollisionWorld2D.overlapAabb",
    exports: [],
    call: (o) => world2().overlapAabb({ x: 0, y: 0 }, { x: 1, y: 1 }, [], o),
  },
];

/** Exports that take no options object (positional arguments, vectors, shapes, strings). */
const NO_OPTIONS = new Set(
  `BruteForceBroadPhase CollideError EventList ImpactList PairEventList PairSet aabbShape
  boundingSphereExact boundingSphereMean boundingSphereOfPoints boundingSphereRitter castRayShape
  castShapes castShapesNonlinear contact containsPointTriangleMesh convexHullOfTriangleMesh
  defaultCollisionWorldOptions defaultDynamicTreeOptions defaultSpatialHashOptions
  defaultSweepAndPruneOptions distance fitObbPca frustumIntersectsShape frustumTestAabb
  frustumTestSphere getMeshTriangle handleGeneration handleSlot heightfieldByteLength
  heightfieldGeometry intersects makeBoundingSphere makeBroadPhase makeCapsule makeCone
  makeContact makeContactManifold makeConvexPolyhedron makeCuboid makeCuboidFromMinMax
  makeCylinder makeDistanceResult makeFrustumFromMatrix makeHalfSpace makeObb makeRandom
  makeRayHit makeRoundedConvexPolyhedron makeRoundedCuboid makeSphere makeTriangle
  makeWorldContact makeWorldImpact makeWorldShapeCastHit manifold meshTriangleNormal prepareWorld
  projectPoint projectPoints raycast sphereSphereIntersection supportShape
  updateTriangleMeshVertices windingNumberTriangleMesh dim2.EventList2D dim2.aabbShape2
  dim2.capsuleAt dim2.castRay2D dim2.castShapes2D dim2.circleAt dim2.contact2D
  dim2.contactShapes2 dim2.containsPoint2D dim2.defaultCollisionWorld2DOptions dim2.distance2D
  dim2.gjkDistance2 dim2.intersects2D dim2.makeCapsule dim2.makeCircle dim2.makeContact2
  dim2.makeGjkOutput2 dim2.makeManifold2 dim2.makePointProjection2 dim2.makePolygon
  dim2.makeRayHit2 dim2.makeRect dim2.makeSegment dim2.makeWorldContact2D dim2.manifold2D
  dim2.manifoldShapes2 dim2.orientedRect dim2.polygonAt dim2.projectPoint2D
  dim2.rectFromCenter dim2.rectFromMinMax dim2.segmentAt`.split(/\s+/),
);

function thrown(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    if (e instanceof CollideError) return e;
    throw e;
  }
  throw new Error("did not throw");
}

describe("options objects: unknown keys and wrong types are refused", () => {
  it("every function or class exported from src/index.ts is in the table or takes no options", () => {
    const covered = new Set(TABLE.flatMap((t) => t.exports));
    const missing: string[] = [];
    const visit = (prefix: string, ns: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(ns)) {
        if (typeof v !== "function") continue;
        const name = prefix + k;
        if (!covered.has(name) && !NO_OPTIONS.has(name)) missing.push(name);
      }
    };
    visit("", collide as unknown as Record<string, unknown>);
    visit("dim2.", collide.dim2 as unknown as Record<string, unknown>);
    expect(missing).toEqual([]);
  });

  for (const t of TABLE) {
    it(`${t.name} refuses an unknown key, naming it and the function`, () => {
      const e = thrown(() => t.call({ bogusKey: 1 }));
      expect(e.code).toBe("unknown_field");
      expect(e.field.endsWith(".bogusKey")).toBe(true);
      expect(e.message).toContain(t.name);
      expect(e.message).toContain("bogusKey");
    });
  }

  it("the brief's three: excludes, tol and predicate: null", () => {
    const a = thrown(() => castRayClosest(world(), origin, dirX, 10, { excludes: 1 } as never));
    expect(a.field).toBe("options.excludes");
    expect(a.message).toContain('did you mean "exclude"');
    expect(a.message).toContain("castRayClosest");
    const b = thrown(() =>
      overlapVolume(makeSphere(1), id(), makeSphere(1), id(), { tol: 1e-3 } as never),
    );
    expect(b.field).toBe("options.tol");
    expect(b.message).toContain('did you mean "tolerance"');
    const c = thrown(() =>
      castShape(world(), makeSphere(0.5), id(), dirX, 1, { predicate: null } as never),
    );
    expect(c.code).toBe("invalid_value");
    expect(c.field).toBe("filter.predicate");
  });

  it("wrong-typed values are refused; undefined means not set", () => {
    const w = world();
    for (const bad of [
      { predicate: null },
      { predicate: 3 },
      { includeSensors: "yes" },
      { mask: null },
      { solid: 1 },
    ]) {
      const e = thrown(() => castRayClosest(w, origin, dirX, 10, bad as never));
      expect(e.field.endsWith(`.${Object.keys(bad)[0]}`)).toBe(true);
    }
    expect(castRayClosest(w, { x: -5, y: 0, z: 0 }, dirX, 10, { predicate: undefined })).not.toBe(
      null,
    );
    expect(thrown(() => w.overlapAabb(origin, dirX, [], null as never)).field).toBe("filter");
    expect(
      thrown(() =>
        overlapVolume(makeSphere(1), id(), makeSphere(1), id(), { maxCells: "9" } as never),
      ).field,
    ).toBe("options.maxCells");
  });

  it("the typo guess: case, prefix and small edit distance; none when far", () => {
    expect(closestKey("Solid", ["solid", "mask"])).toBe("solid");
    expect(closestKey("tol", ["relativeTolerance", "tolerance", "maxCells"])).toBe("tolerance");
    expect(closestKey("includeSensor", ["includeSensors", "mask"])).toBe("includeSensors");
    expect(closestKey("colour", ["mask", "solid"])).toBe(null);
  });
});
