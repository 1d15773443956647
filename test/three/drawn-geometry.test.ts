/**
 * The three.js adapter takes what three.js draws and picks (session 38's fresh-user attack,
 * item 4): `geometry.drawRange`, the groups of an array of materials, morph targets and
 * skinning had been ignored (a box drawing 6 of its indices became all 12 triangles; a morphed
 * box stayed where its position attribute put it), and an `InstancedMesh` became one copy at
 * the mesh's origin. Oracle: three's own `Raycaster` on the same object — every ray's first hit
 * on the adapter's shape equals three's (both exact up to three's single-precision positions),
 * including misses; an `InstancedMesh` is refused naming `mesh`.
 */
import fc from "fast-check";
import * as THREE from "three";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { raycast } from "../../src/query/raycast.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { shapeFromGeometry, shapeFromMesh } from "../../src/three/index.js";

const raycaster = new THREE.Raycaster();

/** three's first hit distance along the unit ray, or null. */
function threeHit(mesh: THREE.Object3D, o: THREE.Vector3, d: THREE.Vector3): number | null {
  raycaster.set(o, d);
  const hits = raycaster.intersectObject(mesh, false);
  return hits.length > 0 ? hits[0].distance : null;
}

/** Collide's first hit on shapeFromMesh(mesh, "mesh"), surface (not solid), or null. */
function collideHit(mesh: THREE.Mesh, o: THREE.Vector3, d: THREE.Vector3): number | null {
  const { shape, pose } = shapeFromMesh(mesh, "mesh");
  const hit = raycast(shape, pose, o, d, Infinity, false);
  return hit === null ? null : hit.toi;
}

const seg = new THREE.Line3();
const closest = new THREE.Vector3();
const corners = [new THREE.Vector3(), new THREE.Vector3(), new THREE.Vector3()];

/** The distance from world point `p` to the nearest edge of any triangle of `mesh` as drawn. */
function edgeDistance(mesh: THREE.Mesh, p: THREE.Vector3): number {
  const index = mesh.geometry.getIndex();
  const n = index ? index.count : mesh.geometry.getAttribute("position").count;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i + 2 < n; i += 3) {
    for (let c = 0; c < 3; c++) {
      const v = index ? index.getX(i + c) : i + c;
      mesh.getVertexPosition(v, corners[c]);
      corners[c].applyMatrix4(mesh.matrixWorld);
    }
    for (let c = 0; c < 3; c++) {
      seg.set(corners[c], corners[(c + 1) % 3]);
      seg.closestPointToPoint(p, true, closest);
      best = Math.min(best, closest.distanceTo(p));
    }
  }
  return best;
}

/** The number of triangles of the adapter's mesh shape of `mesh`. */
const triangles = (mesh: THREE.Mesh): number =>
  (shapeFromMesh(mesh, "mesh").shape as TriangleMesh).triangleCount;

const side = new THREE.MeshBasicMaterial({ side: THREE.DoubleSide });

/** Rays from a sphere of radius 6 toward points in the unit cube, as fast-check draws them. */
const rayArb = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -0.9, max: 0.9, noNaN: true }),
    fc.double({ min: -0.9, max: 0.9, noNaN: true }),
    fc.double({ min: -0.9, max: 0.9, noNaN: true }),
  )
  .filter(([x, y, z]) => x * x + y * y + z * z > 0.01)
  .map(([x, y, z, tx, ty, tz]) => {
    const o = new THREE.Vector3(x, y, z).normalize().multiplyScalar(6);
    const d = new THREE.Vector3(tx, ty, tz).sub(o).normalize();
    return { o, d };
  });

function agrees(mesh: THREE.Mesh, seed: number): void {
  mesh.updateMatrixWorld(true);
  fc.assert(
    fc.property(rayArb, ({ o, d }) => {
      const a = threeHit(mesh, o, d);
      const b = collideHit(mesh, o, d);
      if (a === null || b === null) {
        // A ray through an edge may go either way (three.js tests in single precision, Collide
        // exactly): a hit only one of them sees must lie within 1e-6 of a triangle's edge.
        if (a !== b) {
          const t = (a ?? b) as number;
          expect(edgeDistance(mesh, o.clone().addScaledVector(d, t))).toBeLessThan(1e-6);
        }
      } else if (Math.abs(a - b) > 1e-5) {
        // The nearer hit, which only one of them sees, lies on an edge likewise.
        expect(edgeDistance(mesh, o.clone().addScaledVector(d, Math.min(a, b)))).toBeLessThan(1e-6);
      }
    }),
    { numRuns: 300, seed },
  );
}

describe("the adapter takes the triangles three.js draws", () => {
  it("drawRange of an indexed box: 2 of its 12 triangles", () => {
    const g = new THREE.BoxGeometry(2, 2, 2);
    g.setDrawRange(6, 6);
    const mesh = new THREE.Mesh(g, side);
    expect(triangles(mesh)).toBe(2);
    expect(shapeFromGeometry(g, "mesh").triangleCount).toBe(2);
    agrees(mesh, 1);
  });

  it("a negative drawRange start: clamped to 0, the end still start + count (3 triangles)", () => {
    const g = new THREE.BoxGeometry(2, 2, 2);
    g.setDrawRange(-3, 12);
    const mesh = new THREE.Mesh(g, side);
    expect(triangles(mesh)).toBe(3);
    expect(shapeFromGeometry(g, "mesh").triangleCount).toBe(3);
    agrees(mesh, 7);
  });

  it("drawRange of a non-indexed box; a partial triangle at its end is not drawn", () => {
    const g = new THREE.BoxGeometry(2, 2, 2).toNonIndexed();
    g.setDrawRange(3, 13);
    const mesh = new THREE.Mesh(g, side);
    // The GPU draws 4 whole triangles of 13 vertices (three's Raycaster reads a 5th past the range).
    expect(triangles(mesh)).toBe(4);
    g.setDrawRange(3, 12);
    agrees(mesh, 2);
  });

  it("groups of an array of materials, within the drawRange", () => {
    const g = new THREE.BoxGeometry(2, 2, 2);
    g.clearGroups();
    g.addGroup(0, 6, 0);
    g.addGroup(12, 12, 1);
    g.setDrawRange(0, 18);
    const mesh = new THREE.Mesh(g, [side, side]);
    expect(triangles(mesh)).toBe(4);
    agrees(mesh, 3);
    // A group whose material is missing is not drawn (the renderer skips it).
    g.setDrawRange(0, Number.POSITIVE_INFINITY);
    g.addGroup(24, 6, 2);
    expect(triangles(mesh)).toBe(6);
  });

  it("the hull of the drawn corners only", () => {
    const g = new THREE.BoxGeometry(2, 2, 2);
    g.setDrawRange(0, 6); // the +x face: a flat hull at x = 1
    const hull = shapeFromGeometry(g, "hull");
    expect(hull.flat).toBe(true);
  });
});

describe("the adapter takes the vertices three.js draws", () => {
  it("a morph target with influence 1 moves the box by +3 in x", () => {
    const g = new THREE.BoxGeometry(2, 2, 2);
    const p = g.getAttribute("position");
    const moved = new Float32Array(p.count * 3);
    for (let i = 0; i < p.count; i++) moved[3 * i] = 3;
    g.morphAttributes.position = [new THREE.BufferAttribute(moved, 3)];
    g.morphTargetsRelative = true;
    const mesh = new THREE.Mesh(g, side);
    mesh.updateMorphTargets();
    mesh.morphTargetInfluences = [1];
    // Hand-derived: the ray from (10, 0, 0) along −x meets the moved box's face x = 4 at 6.
    const { shape, pose } = shapeFromMesh(mesh, "mesh");
    const hit = raycast(shape, pose, { x: 10, y: 0, z: 0 }, { x: -1, y: 0, z: 0 }, 100, false);
    expect(hit?.toi).toBeCloseTo(6, 12);
    agrees(mesh, 4);
    mesh.morphTargetInfluences = [0.5];
    agrees(mesh, 5);
    mesh.morphTargetInfluences = [Number.NaN];
    let err: unknown;
    try {
      shapeFromMesh(mesh, "mesh");
    } catch (e) {
      err = e;
    }
    expect((err as CollideError).field).toBe("mesh.morphTargetInfluences[0]");
  });

  it("a skinned box whose one bone is moved by +2 in y", () => {
    const g = new THREE.BoxGeometry(2, 2, 2);
    const n = g.getAttribute("position").count;
    g.setAttribute("skinIndex", new THREE.Uint16BufferAttribute(new Uint16Array(4 * n), 4));
    const w = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) w[4 * i] = 1;
    g.setAttribute("skinWeight", new THREE.Float32BufferAttribute(w, 4));
    const bone = new THREE.Bone();
    const mesh = new THREE.SkinnedMesh(g, side);
    mesh.add(bone);
    mesh.bind(new THREE.Skeleton([bone]));
    bone.position.set(0, 2, 0);
    mesh.updateMatrixWorld(true);
    mesh.skeleton.update();
    const { shape, pose } = shapeFromMesh(mesh, "mesh");
    // Hand-derived: the ray from (0, 10, 0) along −y meets the moved box's face y = 3 at 7.
    const hit = raycast(shape, pose, { x: 0, y: 10, z: 0 }, { x: 0, y: -1, z: 0 }, 100, false);
    expect(hit?.toi).toBeCloseTo(7, 6);
    agrees(mesh, 6);
  });
});

describe("many copies are refused", () => {
  it("an InstancedMesh, naming mesh", () => {
    const mesh = new THREE.InstancedMesh(new THREE.BoxGeometry(1, 1, 1), side, 2);
    let err: unknown;
    try {
      shapeFromMesh(mesh, "mesh");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CollideError);
    expect((err as CollideError).field).toBe("mesh");
    expect((err as CollideError).message).toMatch(/InstancedMesh/);
  });
});
