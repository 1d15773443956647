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

describe("shapeFromMesh under a sheared world matrix (attack 36): the linear part baked into the vertices", () => {
  /** three.js's world positions of `m`'s geometry vertices (the oracle: three's own transform). */
  function worldVertices(m: THREE.Mesh): THREE.Vector3[] {
    const pos = m.geometry.getAttribute("position");
    const out: THREE.Vector3[] = [];
    for (let k = 0; k < pos.count; k++)
      out.push(m.localToWorld(new THREE.Vector3(pos.getX(k), pos.getY(k), pos.getZ(k))));
    return out;
  }

  /**
   * Both ways within `tol`: every Collide vertex, placed by the pose, is a three.js world vertex,
   * and every three.js world vertex of a hull's corners is one of them (a mesh keeps them all).
   */
  function expectSameVertices(
    shape: { vertices: Float64Array },
    pose: ReturnType<typeof poseFromObject3D>,
    theirs: THREE.Vector3[],
    tol: number,
  ): void {
    const v = shape.vertices;
    const ours: vec3.Vec3[] = [];
    for (let i = 0; i < v.length; i += 3)
      ours.push(iso.transformPoint(vec3.create(), pose, vec3.create(v[i], v[i + 1], v[i + 2])));
    const near = (a: vec3.Vec3, b: THREE.Vector3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
    for (const o of ours) expect(Math.min(...theirs.map((t) => near(o, t)))).toBeLessThan(tol);
    for (const t of theirs) expect(Math.min(...ours.map((o) => near(o, t)))).toBeLessThan(tol);
  }

  it("the report's scene: parent scale (3, 1, 1), a box rotated 45° about z: three's world box, as hull and as mesh", () => {
    const parent = new THREE.Object3D();
    parent.scale.set(3, 1, 1);
    const m = new THREE.Mesh(new THREE.BoxGeometry(2, 2, 2));
    m.rotation.z = Math.PI / 4;
    parent.add(m);
    parent.updateMatrixWorld(true);
    const theirs = worldVertices(m);
    // Hand-derived: the corner (1, −1, z) turns to (√2, 0, z) and stretches to (3√2, 0, z).
    expect(
      Math.min(...theirs.map((t) => Math.hypot(t.x - 3 * Math.SQRT2, t.y, t.z - 1))),
    ).toBeLessThan(1e-12);
    for (const kind of ["hull", "mesh"] as const) {
      const { shape, pose } = shapeFromMesh(m, kind);
      expectSameVertices(shape, pose, theirs, 1e-12);
    }
    // Was: the scale three.js decomposes from the sheared matrix, (√5, √5, 1), under a rotation:
    // a box that is not the one three.js draws.
    const { shape, pose } = shapeFromMesh(m, "hull");
    const box = aabbShape(aabbm.empty(), shape, pose);
    expect(box.max.x).toBeCloseTo(3 * Math.SQRT2, 12);
    expect(box.max.y).toBeCloseTo(Math.SQRT2, 12);
  });

  it("any parent scale (negative too) over any child rotation and scale: three's world vertices (fast-check)", () => {
    const s = fc.oneof(num(0.1, 10), num(-10, -0.1));
    fc.assert(
      fc.property(
        fc.tuple(s, s, s),
        unitQuat,
        unitQuat,
        fc.tuple(s, s, s),
        vec(-50, 50),
        (ps, pq, cq, cs, t) => {
          const parent = new THREE.Object3D();
          parent.scale.set(...ps);
          parent.quaternion.set(pq.x, pq.y, pq.z, pq.w);
          parent.position.set(t.x, t.y, t.z);
          const m = new THREE.Mesh(new THREE.BoxGeometry(1, 2, 3));
          m.quaternion.set(cq.x, cq.y, cq.z, cq.w);
          m.scale.set(...cs);
          parent.add(m);
          parent.updateMatrixWorld(true);
          const theirs = worldVertices(m);
          // three's world coordinates reach about 10·10·2 + 50: a bar of 1e-12 of that.
          for (const kind of ["hull", "mesh"] as const) {
            const { shape, pose } = shapeFromMesh(m, kind);
            expectSameVertices(shape, pose, theirs, 1e-12 * 300);
          }
        },
      ),
      { numRuns: 100 },
    );
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
