/**
 * Shapes from the `make…` constructors are deeply frozen (issue 14, item 6): the shape object,
 * its vectors, its arrays, the compound's children and poses and the mesh's BVH record cannot be
 * changed, so a shape cannot change under a world or a cached BVH (setting a sphere's radius to
 * NaN after `addBody` used to make the next step report a contact at distance NaN). Typed arrays
 * cannot be frozen in JavaScript; the constructors copy their input into them, so changing what
 * the caller passed in changes nothing (tested below for every constructor that takes an array:
 * mesh, hull, rounded hull, heightfield, compound). The public entry does not offer
 * `brandShape`, and the mark of a validated shape (a private class field) cannot be copied onto
 * a hand-built object.
 */
import { describe, expect, it } from "vitest";
import * as collide from "../../src/index.js";
import {
  CollisionWorld,
  contact,
  intersects,
  isometry,
  makeCapsule,
  makeCompound,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeHalfSpace,
  makeHeightfield,
  makeRoundedConvexPolyhedron,
  makeRoundedCuboid,
  makeSphere,
  makeTriangle,
  makeTriangleMesh,
  quat,
  type Shape,
} from "../../src/index.js";
import { isBrandedShape } from "../../src/shapes/shape.js";

const cube = [-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1, -1, -1, 1, 1, -1, 1, -1, 1, 1, 1, 1, 1];

function everyShape(): [string, Shape][] {
  return [
    ["sphere", makeSphere(1)],
    ["cuboid", makeCuboid({ x: 1, y: 2, z: 3 })],
    ["capsule", makeCapsule({ x: 0, y: -1, z: 0 }, { x: 0, y: 1, z: 0 }, 0.5)],
    ["cylinder", makeCylinder(1, 0.5)],
    ["cone", makeCone(1, 0.5)],
    ["convex", makeConvexPolyhedron(cube)],
    ["triangle", makeTriangle({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 })],
    ["mesh", makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2])],
    ["halfspace", makeHalfSpace({ x: 0, y: 1, z: 0 }, 0)],
    [
      "compound",
      makeCompound([
        { shape: makeSphere(1), pose: isometry.create({ x: 1, y: 0, z: 0 }) },
        { shape: makeCuboid({ x: 1, y: 1, z: 1 }), pose: isometry.create({ x: -1, y: 0, z: 0 }) },
      ]),
    ],
    ["roundedCuboid", makeRoundedCuboid({ x: 1, y: 2, z: 3 }, 0.25)],
    ["roundedConvex", makeRoundedConvexPolyhedron(cube, 0.25)],
    [
      "heightfield",
      makeHeightfield({
        rows: 2,
        cols: 3,
        heights: [0, 1, 0, 1, 0, 1],
        scale: { x: 1, y: 1, z: 1 },
      }),
    ],
  ];
}

/** Every plain object and array reachable from `o` (typed arrays excluded), with its path. */
function reachable(o: object, path: string, out: [string, object][] = []): [string, object][] {
  if (ArrayBuffer.isView(o)) return out;
  out.push([path, o]);
  for (const [k, v] of Object.entries(o)) {
    if (v !== null && typeof v === "object") reachable(v, `${path}.${k}`, out);
  }
  return out;
}

describe("shapes from make… are deeply frozen", () => {
  it.each(everyShape())("%s: every reachable object and array is frozen", (_name, shape) => {
    const parts = reachable(shape, "shape");
    expect(parts.length).toBeGreaterThan(0);
    for (const [path, part] of parts) expect([path, Object.isFrozen(part)]).toEqual([path, true]);
  });

  it("writing a field, a vector component or a compound child throws (strict mode)", () => {
    const s = makeSphere(1) as { radius: number };
    expect(() => {
      s.radius = Number.NaN;
    }).toThrow(TypeError);
    expect(s.radius).toBe(1);
    const c = makeCuboid({ x: 1, y: 2, z: 3 });
    expect(() => {
      (c.halfExtents as { x: number }).x = Number.NaN;
    }).toThrow(TypeError);
    expect(c.halfExtents.x).toBe(1);
    const k = makeCompound([{ shape: makeSphere(1), pose: isometry.identity() }]);
    expect(() => {
      (k.children as unknown[]).push({ shape: makeSphere(2), pose: isometry.identity() });
    }).toThrow(TypeError);
    expect(() => {
      (k.children[0].pose.translation as { x: number }).x = 5;
    }).toThrow(TypeError);
    const m = makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    expect(() => {
      (m.bvh as { nodeCount: number }).nodeCount = 0;
    }).toThrow(TypeError);
  });

  it("the inputs are copied: changing them later changes no shape", () => {
    const h = { x: 1, y: 1, z: 1 };
    const c = makeCuboid(h);
    h.x = 5;
    expect(c.halfExtents.x).toBe(1);
    const v = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    const idx = [0, 1, 2];
    const m = makeTriangleMesh(v, idx);
    v[0] = Number.NaN;
    idx[0] = 7;
    expect(m.vertices[0]).toBe(0);
    expect(m.indices[0]).toBe(0);
    const pts = cube.slice();
    const hull = makeConvexPolyhedron(pts);
    pts.fill(100);
    expect(Math.max(...hull.vertices)).toBe(1);
  });

  it("a shape in a world cannot be changed under it: the next step's contact is unchanged", () => {
    // The case: the ball's radius set to NaN after addBody gave a contact at NaN.
    const world = new CollisionWorld();
    const ball = makeSphere(0.5);
    world.addBody({
      shape: makeCuboid({ x: 10, y: 0.5, z: 10 }),
      pose: isometry.create({ x: 0, y: -0.5, z: 0 }),
    });
    world.addBody({ shape: ball, pose: isometry.create({ x: 0, y: 0.4, z: 0 }) });
    world.step();
    expect(() => {
      (ball as { radius: number }).radius = Number.NaN;
    }).toThrow(TypeError);
    world.step();
    const contacts = [...world.contacts()];
    expect(contacts).toHaveLength(1);
    expect(contacts[0].distance).toBeCloseTo(-0.1, 12);
  });

  it("a box whose half extent one tried to set to NaN still answers its own contact", () => {
    const box = makeCuboid({ x: 1, y: 1, z: 1 });
    expect(() => {
      (box.halfExtents as { y: number }).y = Number.NaN;
    }).toThrow(TypeError);
    const id = quat.identity();
    const c = contact(
      box,
      { translation: { x: 0, y: 0, z: 0 }, rotation: id },
      makeSphere(1),
      { translation: { x: 0, y: 1.5, z: 0 }, rotation: id },
      0,
    );
    expect(c?.distance).toBeCloseTo(-0.5, 12);
    expect(
      intersects(box, isometry.identity(), makeSphere(1), isometry.create({ x: 0, y: 2.5, z: 0 })),
    ).toBe(false);
  });

  it("2D shapes too: a circle's radius, a rectangle's half extents, a capsule's points", () => {
    const { makeCapsule: capsule2, makeCircle, makePolygon, makeRect, makeSegment } = collide.dim2;
    const shapes: object[] = [
      makeCircle(1),
      makeRect({ x: 1, y: 2 }),
      makePolygon([
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 0, y: 1 },
      ]),
      capsule2({ x: 0, y: 0 }, { x: 1, y: 0 }, 0.5),
      makeSegment({ x: 0, y: 0 }, { x: 1, y: 0 }),
    ];
    for (const shape of shapes) {
      for (const [path, part] of reachable(shape, "shape")) {
        expect([path, Object.isFrozen(part)]).toEqual([path, true]);
      }
    }
    const c = makeCircle(1) as { radius: number };
    expect(() => {
      c.radius = Number.NaN;
    }).toThrow(TypeError);
    const r = makeRect({ x: 1, y: 2 });
    expect(() => {
      (r.halfExtents as { x: number }).x = -1;
    }).toThrow(TypeError);
    expect(r.halfExtents.x).toBe(1);
  });

  it("typed-array inputs are copied too: mesh, hull, rounded hull, heightfield", () => {
    const v = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const idx = new Uint32Array([0, 1, 2]);
    const m = makeTriangleMesh(v, idx);
    v.fill(Number.NaN);
    idx.fill(9);
    expect(Array.from(m.vertices)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
    const pts = Float64Array.from(cube);
    const hull = makeConvexPolyhedron(pts);
    const rounded = makeRoundedConvexPolyhedron(pts, 0.25);
    pts.fill(100);
    expect(Math.max(...hull.vertices)).toBe(1);
    expect(Math.max(...rounded.core.vertices)).toBe(1);
    const heights = new Float64Array([0, 1, 0, 1, 0, 1]);
    const holes = new Uint8Array([0, 1]);
    const field = makeHeightfield({
      rows: 2,
      cols: 3,
      heights,
      scale: { x: 1, y: 1, z: 1 },
      holes,
    });
    const holesBefore = Array.from(field.holes ?? []);
    heights.fill(50);
    holes.fill(0);
    expect(Array.from(field.heights)).toEqual([0, 1, 0, 1, 0, 1]);
    expect(Array.from(field.holes ?? [])).toEqual(holesBefore);
    expect(holesBefore.length).toBeGreaterThan(0);
    // No array the shape holds is the caller's (or shares its buffer).
    const inputs: ArrayBufferLike[] = [
      v.buffer,
      idx.buffer,
      pts.buffer,
      heights.buffer,
      holes.buffer,
    ];
    for (const s of [m, hull, rounded.core, field]) {
      for (const x of Object.values(s)) {
        if (ArrayBuffer.isView(x)) expect(inputs).not.toContain(x.buffer);
      }
    }
    // The answers follow the shape, not the caller's arrays: a sphere above the hull's top face.
    const id = quat.identity();
    const c = contact(
      hull,
      { translation: { x: 0, y: 0, z: 0 }, rotation: id },
      makeSphere(0.5),
      { translation: { x: 0, y: 1.25, z: 0 }, rotation: id },
      0,
    );
    expect(c?.distance).toBeCloseTo(-0.25, 12);
  });

  it("a compound's children array and poses are copied: changing them later changes nothing", () => {
    const pose = isometry.create({ x: 1, y: 0, z: 0 });
    const children = [{ shape: makeSphere(1), pose }];
    const k = makeCompound(children);
    (pose.translation as { x: number }).x = 50;
    children.push({ shape: makeSphere(3), pose: isometry.identity() });
    expect(k.children).toHaveLength(1);
    expect(k.children[0].pose.translation.x).toBe(1);
  });

  it("nested vectors of every shape are frozen: writing one throws and changes nothing", () => {
    for (const [name, shape] of everyShape()) {
      for (const [path, part] of reachable(shape, "shape")) {
        if (Array.isArray(part)) continue;
        for (const [k, v] of Object.entries(part)) {
          if (typeof v !== "number") continue;
          expect(() => {
            (part as Record<string, number>)[k] = Number.NaN;
          }, `${name}: ${path}.${k}`).toThrow(TypeError);
          expect((part as Record<string, number>)[k], `${name}: ${path}.${k}`).toBe(v);
        }
      }
    }
  });

  it("the validated mark cannot be copied or forged onto a hand-built shape", () => {
    const s = makeSphere(1);
    expect(isBrandedShape(s)).toBe(true);
    expect(Object.getOwnPropertySymbols(s)).toEqual([]);
    expect(Object.keys(s)).toEqual(["type", "radius"]);
    const copies: object[] = [{ ...s }, Object.assign({}, s), structuredClone(s)];
    for (const c of copies) expect(isBrandedShape(c)).toBe(false);
    // A copy with a bad radius is validated in full, so refused naming the field.
    const bad = { ...s, radius: -1 };
    expect(() => intersects(bad, isometry.identity(), s, isometry.identity())).toThrow(/a\.radius/);
  });

  it("the public entry does not offer the brand", () => {
    const names = Object.keys(collide);
    expect(names).not.toContain("brandShape");
    expect(names).not.toContain("SHAPE_BRAND");
    expect(names).not.toContain("isBrandedShape");
    expect(names).not.toContain("deepFreezeShape");
  });
});
