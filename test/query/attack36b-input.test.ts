/**
 * A second fresh-user attack of session 36 (on 6f36cee) found calls that threw a `TypeError`
 * instead of a `CollideError` naming the argument: `updateTriangleMeshVertices(mesh, null)`, of a
 * shape that is no mesh, and the three.js adapter's `shapeFromGeometry(null)`,
 * `shapeFromMesh(null)`; and `poseFromObject3D` of an object at a NaN position returned a NaN
 * pose. Each is now refused with the field and the value, nothing changed (the mesh, the `out`
 * pose passed in). Item 11: a NaN position attribute was refused naming no vertex (the hull) or
 * with the value [NaN, NaN, NaN] of its image (0·NaN), a zero-scale mesh became a point shape (the
 * glTF loader skips such a node), and an itemSize-2 attribute was refused as "coordinate 9 NaN";
 * now the vertex `geometry.attributes.position[i]` with its x, y, z, the object's matrix
 * (`mesh.matrix`, `mesh.parent.matrix`, …) and `geometry.attributes.position.itemSize` are named.
 */
import fc from "fast-check";
import * as THREE from "three";
import { describe, expect, it } from "vitest";
import { makeSphere } from "../../src/shapes/sphere.js";
import {
  makeTriangleMesh,
  type TriangleMesh,
  updateTriangleMeshVertices,
} from "../../src/shapes/triangle-mesh.js";
import { poseFromObject3D, shapeFromGeometry, shapeFromMesh } from "../../src/three/index.js";
import { refusal } from "../support/refusal.js";

const V = [0, 0, 0, 1, 0, 0, 0, 1, 0];
const T = [0, 1, 2];

describe("updateTriangleMeshVertices: bad arguments are refused by name", () => {
  it("no vertex array: null, undefined, a number, a string", () => {
    const mesh = makeTriangleMesh(V, T);
    for (const bad of [null, undefined, 3, "0,0,0"]) {
      const e = refusal(() => updateTriangleMeshVertices(mesh, bad as never));
      expect(e.field).toBe("vertices");
      expect(e.value).toBe(bad);
    }
    expect(Array.from(mesh.vertices)).toEqual(V);
  });
  it("a shape that is no triangle mesh, a hand-built object, null", () => {
    for (const bad of [makeSphere(1), { type: 7, vertices: new Float64Array(9) }, null]) {
      const e = refusal(() => updateTriangleMeshVertices(bad as never, V));
      expect(e.field).toBe("mesh");
    }
  });
});

describe("the three.js adapter: bad arguments are refused by name", () => {
  it("shapeFromGeometry and shapeFromMesh of null, a plain object, a geometry for a mesh", () => {
    for (const bad of [null, undefined, {}, new THREE.Object3D()]) {
      expect(refusal(() => shapeFromGeometry(bad as never)).field).toBe("geometry");
    }
    for (const bad of [null, {}, new THREE.BoxGeometry(1, 1, 1), new THREE.Object3D()]) {
      expect(refusal(() => shapeFromMesh(bad as never)).field).toBe("mesh");
    }
    expect(refusal(() => poseFromObject3D(null as never)).field).toBe("object");
  });
  it("poseFromObject3D of an object at a NaN position: refused, the out pose unchanged", () => {
    const o = new THREE.Object3D();
    o.position.set(Number.NaN, 0, 0);
    const out = { translation: { x: 1, y: 2, z: 3 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
    const e = refusal(() => poseFromObject3D(o, out));
    expect(e.field).toBe("object.matrixWorld");
    expect(out).toEqual({
      translation: { x: 1, y: 2, z: 3 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    });
    // A finite pose far out is not refused (each coordinate finite, their sum not).
    o.position.set(1e308, 1e308, 0);
    expect(poseFromObject3D(o).translation).toEqual({ x: 1e308, y: 1e308, z: 0 });
    const m = new THREE.Mesh(new THREE.BoxGeometry(2, 2, 2));
    m.position.set(Number.NaN, 0, 0);
    expect(refusal(() => shapeFromMesh(m)).field).toBe("object.matrixWorld");
  });
});

/** A geometry of these packed positions (Float32, as three.js stores them), item size `itemSize`. */
function geometryOf(positions: number[], itemSize = 3): THREE.BufferGeometry {
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.Float32BufferAttribute(positions, itemSize));
  return g;
}

describe("the three.js adapter: vertices, item size and zero scale (attack 36b, item 11)", () => {
  const TETRA = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];

  it("a NaN or infinite position: refused naming geometry.attributes.position[i] with its x, y, z, by every entry", () => {
    for (const [i, bad] of [
      [3, [Number.NaN, 0, 0]],
      [0, [0, Number.POSITIVE_INFINITY, 0]],
      [2, [0, 1, Number.NEGATIVE_INFINITY]],
    ] as [number, number[]][]) {
      const p = TETRA.slice();
      p.splice(3 * i, 3, ...bad);
      const calls: (() => unknown)[] = [
        () => shapeFromGeometry(geometryOf(p)),
        () => shapeFromGeometry(geometryOf(p), "mesh"),
        () => shapeFromMesh(new THREE.Mesh(geometryOf(p))),
        () => shapeFromMesh(new THREE.Mesh(geometryOf(p)), "mesh"),
      ];
      for (const call of calls) {
        const e = refusal(call);
        expect(e.field).toBe(`geometry.attributes.position[${i}]`);
        // The vertex as given, not its image (0·NaN had made all three coordinates NaN).
        expect(e.value).toEqual(bad);
        expect(e.message).toContain("must be 3 finite numbers");
      }
    }
  });

  it("a finite vertex that overflows under the scale or the world matrix: named with what it becomes", () => {
    const big = [3e38, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    const e1 = refusal(() =>
      shapeFromGeometry(geometryOf(big), "hull", new THREE.Vector3(1e300, 1, 1)),
    );
    expect(e1.field).toBe("geometry.attributes.position[0]");
    expect(e1.message).toMatch(/overflows times scale: it becomes \[Infinity,0,0\]/);
    const m = new THREE.Mesh(geometryOf(big));
    m.scale.set(1e300, 1e300, 1e300);
    const e2 = refusal(() => shapeFromMesh(m, "mesh"));
    expect(e2.field).toBe("geometry.attributes.position[0]");
    expect(e2.message).toContain("overflows under mesh.matrixWorld");
  });

  it("a position attribute of item size 2 or 4: refused naming its itemSize and the value", () => {
    for (const size of [1, 2, 4]) {
      const g = geometryOf(
        Array.from({ length: 12 * size }, (_, i) => i % 7),
        size,
      );
      for (const call of [
        () => shapeFromGeometry(g),
        () => shapeFromGeometry(g, "mesh"),
        () => shapeFromMesh(new THREE.Mesh(g)),
      ]) {
        const e = refusal(call);
        expect(e.field).toBe("geometry.attributes.position.itemSize");
        expect(e.value).toBe(size);
        expect(e.message).toContain("must be 3");
      }
    }
  });

  it("a zero-scale mesh (its own scale or an ancestor's, any component): refused naming the object's matrix, as the glTF loader skips such a node; a scale of 1e-6 is a shape", () => {
    for (const s of [
      [0, 0, 0],
      [1, 0, 1],
      [0, 2, 3],
      [1, 1, 0],
    ] as [number, number, number][]) {
      for (const onParent of [false, true]) {
        const m = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));
        const parent = new THREE.Object3D();
        parent.add(m);
        parent.rotation.set(0.3, 0.2, 0.1);
        (onParent ? parent : m).scale.set(...s);
        for (const kind of ["hull", "mesh"] as const) {
          const e = refusal(() => shapeFromMesh(m, kind));
          expect(e.field).toBe(onParent ? "mesh.parent.matrix" : "mesh.matrix");
          expect(e.message).toMatch(/has a zero scale \(column [012] of its 3×3 part is zero\)/);
          expect(e.message).toContain("the glTF loader skips such a node");
        }
      }
      const e = refusal(() =>
        shapeFromGeometry(new THREE.BoxGeometry(1, 1, 1), "hull", new THREE.Vector3(...s)),
      );
      expect(e.field).toBe("scale");
      expect(e.value).toEqual(s);
    }
    // Two scales of 1e-200, each a scale: the world matrix is kept (its powers of two apart,
    // session 38), but the world geometry, a box of 1e-400, is below the doubles: refused naming
    // a vertex that underflows (three's own product had underflowed to a zero matrix).
    const under = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));
    under.scale.setScalar(1e-200);
    new THREE.Object3D().add(under).scale.setScalar(1e-200);
    const eu = refusal(() => shapeFromMesh(under));
    expect(eu.field).toMatch(/^geometry\.attributes\.position\[\d+\]$/);
    expect(eu.message).toContain("underflows under mesh.matrixWorld");
    const tiny = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));
    tiny.scale.set(1, 1e-6, 1);
    const { shape } = shapeFromMesh(tiny);
    expect(shape.vertexCount).toBe(8);
    expect(
      refusal(() =>
        shapeFromGeometry(
          new THREE.BoxGeometry(1, 1, 1),
          "hull",
          new THREE.Vector3(1, Number.NaN, 1),
        ),
      ).field,
    ).toBe("scale");
  });

  it("fast-check: one non-finite coordinate anywhere in a geometry is refused naming its vertex; a zero component in any ancestor's scale is refused as a zero scale", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -100, max: 100 }), { minLength: 12, maxLength: 60 }),
        fc.nat(),
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
        fc.constantFrom("hull" as const, "mesh" as const),
        (raw, at, bad, kind) => {
          const p = raw.slice(0, raw.length - (raw.length % 3));
          const k = at % p.length;
          p[k] = bad;
          const i = Math.floor(k / 3);
          const e = refusal(() => shapeFromMesh(new THREE.Mesh(geometryOf(p)), kind));
          expect(e.field).toBe(`geometry.attributes.position[${i}]`);
          expect(e.value).toEqual(p.slice(3 * i, 3 * i + 3));
        },
      ),
      { numRuns: 200 },
    );
    const scale = fc.tuple(
      fc.constantFrom(1e-6, 0.5, 1, 3, 1e6, -2),
      fc.constantFrom(1e-6, 0.5, 1, 3, 1e6, -2),
      fc.constantFrom(1e-6, 0.5, 1, 3, 1e6, -2),
    );
    fc.assert(
      fc.property(
        fc.array(scale, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.nat(2),
        (scales, which, axis) => {
          // A chain of objects, the mesh last; one component of one of their scales set to 0.
          const objects = scales.map((_, j) =>
            j === scales.length - 1
              ? new THREE.Mesh(new THREE.BoxGeometry(1, 2, 3))
              : new THREE.Object3D(),
          );
          objects.forEach((o, j) => {
            o.scale.set(...scales[j]);
            o.rotation.set(0.1 * j, 0.2, 0.3 * j);
            if (j > 0) objects[j - 1].add(o);
          });
          const mesh = objects[objects.length - 1] as THREE.Mesh;
          // Every nonzero scale, however small or large, is a shape: the box's 12 triangles.
          expect((shapeFromMesh(mesh, "mesh").shape as TriangleMesh).triangleCount).toBe(12);
          const at = which % scales.length;
          const s = scales[at].slice() as [number, number, number];
          s[axis] = 0;
          objects[at].scale.set(...s);
          // Named by the object's place above the mesh: mesh.matrix, mesh.parent.matrix, …
          const field = `mesh${".parent".repeat(scales.length - 1 - at)}.matrix`;
          for (const kind of ["hull", "mesh"] as const) {
            const e = refusal(() => shapeFromMesh(mesh, kind));
            expect(e.field).toBe(field);
            expect(e.message).toContain(
              `has a zero scale (column ${axis} of its 3×3 part is zero)`,
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
