/**
 * The three.js adapter (`collide/three`) against three.js itself: shapes from geometries compared
 * with the geometry's own bounding box and triangle count, poses from nested objects compared
 * with three's `localToWorld`, and the debug draw's line and point buffers read back.
 */
import fc from "fast-check";
import * as THREE from "three";
import { describe, expect, it } from "vitest";
import { DebugDraw } from "../../src/debug/draw.js";
import { shapeView } from "../../src/debug/shape-view.js";
import * as aabbm from "../../src/math/aabb.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  aabbShape,
  makeCapsule,
  makeCompound,
  makeCuboid,
  makeSphere,
  ShapeType,
} from "../../src/shapes/index.js";
import {
  applyPose,
  debugDrawToLineSegments,
  debugDrawToPoints,
  poseFromObject3D,
  shapeFromGeometry,
  shapeFromMesh,
  shapeToObject3D,
  shapeViewToObject3D,
} from "../../src/three/index.js";
import { num, unitQuat, vec } from "../oracles/arbitraries.js";

describe("shapes from three.js geometry", () => {
  it("a BoxGeometry's hull is the box; as a mesh it keeps its 12 triangles", () => {
    const g = new THREE.BoxGeometry(2, 4, 6);
    const hull = shapeFromGeometry(g);
    expect(hull.type).toBe(ShapeType.ConvexPolyhedron);
    expect(hull.vertexCount).toBe(8);
    const box = aabbShape(aabbm.empty(), hull, iso.identity());
    expect(box.min).toEqual({ x: -1, y: -2, z: -3 });
    expect(box.max).toEqual({ x: 1, y: 2, z: 3 });
    const mesh = shapeFromGeometry(g, "mesh");
    expect(mesh.type).toBe(ShapeType.TriangleMesh);
    expect(mesh.triangleCount).toBe(12);
    // Non-indexed geometry: one triangle per three vertices.
    const soup = shapeFromGeometry(g.toNonIndexed(), "mesh");
    expect(soup.triangleCount).toBe(12);
  });

  it("takes a flat geometry as a flat convex polygon, and refuses a degenerate one naming the field", () => {
    const tile = shapeFromGeometry(new THREE.PlaneGeometry(1, 1));
    expect(tile.type).toBe(ShapeType.ConvexPolyhedron);
    expect((tile as { flat?: boolean }).flat).toBe(true);
    const line = new THREE.BufferGeometry();
    line.setAttribute(
      "position",
      new THREE.Float32BufferAttribute([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0], 3),
    );
    expect(() => shapeFromGeometry(line)).toThrow(/geometry/);
  });

  it("a mesh's world scale is baked into the vertices and its pose is rigid", () => {
    const parent = new THREE.Group();
    parent.position.set(10, 0, 0);
    parent.scale.set(2, 2, 2);
    const m = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));
    m.position.set(0, 1, 0);
    m.rotation.set(0.3, 0.2, 0.1);
    parent.add(m);
    const { shape, pose } = shapeFromMesh(m);
    // Every geometry vertex mapped by three's world matrix equals Collide's pose · scaled vertex.
    const pos = m.geometry.getAttribute("position");
    const v = shape.vertices;
    for (let i = 0; i < shape.vertexCount; i++) {
      const ours = iso.transformPoint(
        vec3.create(),
        pose,
        vec3.create(v[3 * i], v[3 * i + 1], v[3 * i + 2]),
      );
      let best = Infinity;
      for (let k = 0; k < pos.count; k++) {
        const w = m.localToWorld(new THREE.Vector3(pos.getX(k), pos.getY(k), pos.getZ(k)));
        best = Math.min(best, Math.hypot(w.x - ours.x, w.y - ours.y, w.z - ours.z));
      }
      expect(best).toBeLessThan(1e-5);
    }
  });
});

describe("poseFromObject3D", () => {
  it("matches three's localToWorld for nested rigid transforms", () => {
    fc.assert(
      fc.property(
        vec(-100, 100),
        unitQuat,
        vec(-100, 100),
        unitQuat,
        vec(-5, 5),
        (t1, q1, t2, q2, p) => {
          const parent = new THREE.Object3D();
          parent.position.set(t1.x, t1.y, t1.z);
          parent.quaternion.set(q1.x, q1.y, q1.z, q1.w);
          const child = new THREE.Object3D();
          child.position.set(t2.x, t2.y, t2.z);
          child.quaternion.set(q2.x, q2.y, q2.z, q2.w);
          parent.add(child);
          const pose = poseFromObject3D(child);
          expect(
            Math.hypot(pose.rotation.x, pose.rotation.y, pose.rotation.z, pose.rotation.w),
          ).toBeCloseTo(1, 12);
          const ours = iso.transformPoint(vec3.create(), pose, p);
          const theirs = child.localToWorld(new THREE.Vector3(p.x, p.y, p.z));
          expect(Math.hypot(ours.x - theirs.x, ours.y - theirs.y, ours.z - theirs.z)).toBeLessThan(
            1e-9 * 300,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("applyPose is its inverse", () => {
    const pose = iso.create(vec3.create(1, 2, 3), {
      x: 0,
      y: Math.sin(0.4),
      z: 0,
      w: Math.cos(0.4),
    });
    const back = poseFromObject3D(applyPose(new THREE.Object3D(), pose));
    expect(back.translation.x).toBeCloseTo(1, 12);
    expect(back.translation.z).toBeCloseTo(3, 12);
    expect(back.rotation.y).toBeCloseTo(Math.sin(0.4), 12);
  });
});

describe("debug draw as three.js objects", () => {
  it("LineSegments and Points carry the draw's positions and 0xRRGGBB colours", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(vec(-1e3, 1e3), vec(-1e3, 1e3), fc.integer({ min: 0, max: 0xffffff })), {
          minLength: 1,
          maxLength: 20,
        }),
        (segs) => {
          const dd = new DebugDraw();
          for (const [a, b, c] of segs) dd.line(a, b, c).point(a, c);
          for (const src of [dd, dd.toData()]) {
            const lines = debugDrawToLineSegments(src);
            const pos = lines.geometry.getAttribute("position");
            const col = lines.geometry.getAttribute("color");
            expect(pos.count).toBe(2 * segs.length);
            segs.forEach(([a, b, c], i) => {
              expect(pos.getX(2 * i)).toBeCloseTo(Math.fround(a.x), 3);
              expect(pos.getZ(2 * i + 1)).toBeCloseTo(Math.fround(b.z), 3);
              expect(Math.round(col.getX(2 * i + 1) * 255)).toBe((c >> 16) & 0xff);
              expect(Math.round(col.getZ(2 * i) * 255)).toBe(c & 0xff);
            });
            const pts = debugDrawToPoints(src);
            expect(pts.geometry.getAttribute("position").count).toBe(segs.length);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("refills a given object in place", () => {
    const first = debugDrawToLineSegments(new DebugDraw().segment(0, 0, 0, 1, 1, 1, 0xff0000));
    const again = debugDrawToLineSegments(new DebugDraw(), first);
    expect(again).toBe(first);
    expect(again.geometry.getAttribute("position").count).toBe(0);
  });
});

describe("shape meshes", () => {
  it("primitives get three.js geometries whose bounding boxes are the shapes' AABBs", () => {
    const mat = new THREE.MeshBasicMaterial();
    const cases = [
      makeSphere(0.7),
      makeCuboid(vec3.create(1, 2, 3)),
      makeCapsule(vec3.create(-1, 0, 0), vec3.create(1, 0, 0), 0.5),
    ];
    for (const s of cases) {
      const o = shapeToObject3D(s, mat);
      o.updateMatrixWorld(true);
      const box = new THREE.Box3().setFromObject(o, true);
      const ours = aabbShape(aabbm.empty(), s, iso.identity());
      expect(box.min.x).toBeCloseTo(ours.min.x, 5);
      expect(box.max.y).toBeCloseTo(ours.max.y, 5);
      expect(box.max.z).toBeCloseTo(ours.max.z, 5);
    }
    const comp = makeCompound([
      { shape: makeSphere(1), pose: iso.create(vec3.create(3, 0, 0)) },
      { shape: makeCuboid(vec3.create(1, 1, 1)), pose: iso.create(vec3.create(-3, 0, 0)) },
    ]);
    const g = shapeViewToObject3D(shapeView(comp), mat);
    g.updateMatrixWorld(true);
    const box = new THREE.Box3().setFromObject(g, true);
    expect(box.min.x).toBeCloseTo(-4, 5);
    expect(box.max.x).toBeCloseTo(4, 5);
  });

  it("sphere meshes span their radius from 1e-3 to 1e4", () => {
    fc.assert(
      fc.property(num(1e-3, 1e4), (r) => {
        const o = shapeToObject3D(makeSphere(r), new THREE.MeshBasicMaterial());
        const box = new THREE.Box3().setFromObject(o, true);
        expect(box.max.x).toBeCloseTo(r, 2);
      }),
      { numRuns: 20 },
    );
  });
});
