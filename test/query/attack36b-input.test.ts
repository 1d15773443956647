/**
 * A second fresh-user attack of session 36 (on 6f36cee) found calls that threw a `TypeError`
 * instead of a `CollideError` naming the argument: `updateTriangleMeshVertices(mesh, null)`, of a
 * shape that is no mesh, and the three.js adapter's `shapeFromGeometry(null)`,
 * `shapeFromMesh(null)`; and `poseFromObject3D` of an object at a NaN position returned a NaN
 * pose. Each is now refused with the field and the value, nothing changed (the mesh, the `out`
 * pose passed in).
 */
import * as THREE from "three";
import { describe, expect, it } from "vitest";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh, updateTriangleMeshVertices } from "../../src/shapes/triangle-mesh.js";
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
