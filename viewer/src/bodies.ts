/**
 * The viewer's bodies and wireframes, drawn with few draw calls (software WebGL pays per call
 * and per covered pixel):
 *
 * - {@link BodyMeshes}: one `InstancedMesh` per kind of shape that a unit geometry scaled per
 *   instance can draw (spheres, boxes, cylinders, cones; capsules share one per ratio of
 *   length to radius), opaque and single-sided; each instance's matrix is the body's pose times
 *   the shape's local scale, and its colour the body's palette colour, mixed with red while the
 *   body is in a contact. Other shapes (hulls, meshes, heightfields, half-spaces, compounds)
 *   keep their own object, translucent as before.
 * - {@link WireBuffer}: every body's wireframe in one `LineSegments` buffer, world frame,
 *   rewritten in place only for the bodies whose pose changed.
 *
 * Nothing here allocates per frame.
 */
import { shapeViewToObject3D } from "collide/three";
import * as THREE from "three";
import type { ShapeView } from "./collide.js";
import type { BodyInfo } from "./protocol.js";

/** Segments per full circle of the unit geometries. */
const SEGMENTS = 32;
const UP = new THREE.Vector3(0, 1, 0);
/** How much of the touching colour a body in a contact takes. */
const TOUCHING_MIX = 0.55;

interface InstanceKind {
  key: string;
  geometry: () => THREE.BufferGeometry;
  /** The shape's placement in its body's frame (scale, and a capsule's offset). */
  local: THREE.Matrix4;
}

/** How `shape` is drawn by instancing, or null when it needs its own object. */
function instanceKind(shape: ShapeView): InstanceKind | null {
  switch (shape.type) {
    case "sphere": {
      const r = shape.radius;
      return {
        key: "sphere",
        geometry: () => new THREE.SphereGeometry(1, SEGMENTS, SEGMENTS / 2),
        local: new THREE.Matrix4().makeScale(r, r, r),
      };
    }
    case "box": {
      const [x, y, z] = shape.halfExtents;
      return {
        key: "box",
        geometry: () => new THREE.BoxGeometry(2, 2, 2),
        local: new THREE.Matrix4().makeScale(x, y, z),
      };
    }
    case "cylinder":
      return {
        key: "cylinder",
        geometry: () => new THREE.CylinderGeometry(1, 1, 2, SEGMENTS),
        local: new THREE.Matrix4().makeScale(shape.radius, shape.halfHeight, shape.radius),
      };
    case "cone":
      return {
        key: "cone",
        geometry: () => new THREE.ConeGeometry(1, 2, SEGMENTS),
        local: new THREE.Matrix4().makeScale(shape.radius, shape.halfHeight, shape.radius),
      };
    case "capsule": {
      const r = shape.radius;
      if (!(r > 0)) return null;
      const a = new THREE.Vector3(...shape.a);
      const b = new THREE.Vector3(...shape.b);
      const axis = new THREE.Vector3().subVectors(b, a);
      const len = axis.length();
      // A capsule scales uniformly only as a whole: one geometry per length / radius.
      const ratio = Number((len / r).toPrecision(4));
      const q = new THREE.Quaternion();
      if (len > 0) q.setFromUnitVectors(UP, axis.divideScalar(len));
      return {
        key: `capsule ${ratio}`,
        geometry: () => new THREE.CapsuleGeometry(1, ratio, SEGMENTS / 4, SEGMENTS),
        local: new THREE.Matrix4().compose(
          a.add(b).multiplyScalar(0.5),
          q,
          new THREE.Vector3(r, r, r),
        ),
      };
    }
    default:
      return null;
  }
}

interface Batch {
  mesh: THREE.InstancedMesh;
  bodies: number[];
  local: THREE.Matrix4[];
}

const ONE = new THREE.Vector3(1, 1, 1);
const position = new THREE.Vector3();
const rotation = new THREE.Quaternion();
const matrix = new THREE.Matrix4();

/** The bodies' surfaces (see the module's comment). */
export class BodyMeshes {
  readonly group = new THREE.Group();
  private readonly batches: Batch[] = [];
  /** Objects of the bodies not drawn by instancing (null for the instanced ones). */
  private readonly singles: (THREE.Object3D | null)[] = [];
  private readonly base: THREE.Color[];
  private readonly touched: THREE.Color[];
  private readonly singleMaterials: THREE.Material[];
  private readonly touchedMaterials: THREE.Material[];
  /** Whether body i was drawn touching in the last frame (singles only). */
  private readonly wasTouching: Uint8Array;

  /** `palette`: colours by body index modulo its length; `touching`: mixed in on contact. */
  constructor(bodies: readonly BodyInfo[], palette: readonly number[], touching: number) {
    const red = new THREE.Color(touching);
    this.base = palette.map((c) => new THREE.Color(c));
    this.touched = this.base.map((c) => c.clone().lerp(red, TOUCHING_MIX));
    const translucent = (color: THREE.Color) =>
      new THREE.MeshLambertMaterial({
        color,
        transparent: true,
        opacity: 0.35,
        depthWrite: false,
        side: THREE.DoubleSide,
      });
    this.singleMaterials = this.base.map(translucent);
    this.touchedMaterials = this.touched.map(translucent);
    this.wasTouching = new Uint8Array(bodies.length);
    const byKey = new Map<
      string,
      { kind: InstanceKind; bodies: number[]; local: THREE.Matrix4[] }
    >();
    bodies.forEach((b, i) => {
      const kind = instanceKind(b.shape);
      if (!kind) {
        const o = shapeViewToObject3D(b.shape, this.singleMaterials[i % palette.length]);
        this.singles.push(o);
        this.group.add(o);
        return;
      }
      this.singles.push(null);
      let entry = byKey.get(kind.key);
      if (!entry) {
        entry = { kind, bodies: [], local: [] };
        byKey.set(kind.key, entry);
      }
      entry.bodies.push(i);
      entry.local.push(kind.local);
    });
    // Opaque, front faces only, pushed back a little so the wireframes on the surface show.
    const material = new THREE.MeshLambertMaterial({
      color: 0xffffff,
      polygonOffset: true,
      polygonOffsetFactor: 1,
      polygonOffsetUnits: 1,
    });
    for (const { kind, bodies: members, local } of byKey.values()) {
      const mesh = new THREE.InstancedMesh(kind.geometry(), material, members.length);
      mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      // The instances move: the mesh's bounding sphere would be stale.
      mesh.frustumCulled = false;
      members.forEach((i, slot) => {
        mesh.setColorAt(slot, this.base[i % this.base.length]);
      });
      this.batches.push({ mesh, bodies: members, local });
      this.group.add(mesh);
    }
  }

  /** Draw calls the bodies take. */
  get drawCalls(): number {
    return this.batches.length + this.singles.filter((o) => o !== null).length;
  }

  /** Places every body at `poses` (tx ty tz qx qy qz qw each) and colours the touching ones. */
  update(poses: Float64Array, touching: Uint8Array): void {
    const n = this.base.length;
    for (const { mesh, bodies, local } of this.batches) {
      for (let slot = 0; slot < bodies.length; slot++) {
        const i = bodies[slot];
        const k = 7 * i;
        position.set(poses[k], poses[k + 1], poses[k + 2]);
        rotation.set(poses[k + 3], poses[k + 4], poses[k + 5], poses[k + 6]);
        matrix.compose(position, rotation, ONE).multiply(local[slot]);
        mesh.setMatrixAt(slot, matrix);
        mesh.setColorAt(slot, touching[i] ? this.touched[i % n] : this.base[i % n]);
      }
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    }
    for (let i = 0; i < this.singles.length; i++) {
      const o = this.singles[i];
      if (!o) continue;
      const k = 7 * i;
      o.position.set(poses[k], poses[k + 1], poses[k + 2]);
      o.quaternion.set(poses[k + 3], poses[k + 4], poses[k + 5], poses[k + 6]);
      if (touching[i] !== this.wasTouching[i]) {
        this.wasTouching[i] = touching[i];
        const m = (touching[i] ? this.touchedMaterials : this.singleMaterials)[i % n];
        o.traverse((c) => {
          if (c instanceof THREE.Mesh) c.material = m;
        });
      }
    }
  }
}

/** Every body's wireframe in one vertex buffer, world frame (see the module's comment). */
export class WireBuffer {
  readonly object: THREE.LineSegments;
  /** Local-frame vertices of all bodies, xyz each; body i's are floats start[i]..start[i+1]. */
  private readonly local: Float32Array;
  private readonly start: Int32Array;
  private readonly positions: THREE.BufferAttribute;
  private readonly colors: THREE.BufferAttribute;
  /** The poses the buffer was last written for (NaN before the first frame). */
  private readonly placed: Float64Array;
  private readonly wire: THREE.Color;
  private readonly selectedWire: THREE.Color;

  constructor(bodies: readonly BodyInfo[], wire: number, selectedWire: number) {
    const n = bodies.length;
    this.start = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.start[i + 1] = this.start[i] + bodies[i].wire.length;
    this.local = new Float32Array(this.start[n]);
    for (let i = 0; i < n; i++) this.local.set(bodies[i].wire, this.start[i]);
    this.placed = new Float64Array(7 * n).fill(Number.NaN);
    this.wire = new THREE.Color(wire);
    this.selectedWire = new THREE.Color(selectedWire);
    const g = new THREE.BufferGeometry();
    this.positions = new THREE.BufferAttribute(new Float32Array(this.start[n]), 3);
    this.positions.setUsage(THREE.DynamicDrawUsage);
    this.colors = new THREE.BufferAttribute(new Float32Array(this.start[n]), 3);
    g.setAttribute("position", this.positions);
    g.setAttribute("color", this.colors);
    this.object = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ vertexColors: true }));
    this.object.frustumCulled = false;
    this.select([]);
  }

  /** Colours the wireframes of the `selected` bodies apart. */
  select(selected: readonly number[]): void {
    const c = this.colors.array as Float32Array;
    for (let i = 0; i + 1 < this.start.length; i++) {
      const col = selected.includes(i) ? this.selectedWire : this.wire;
      for (let k = this.start[i]; k < this.start[i + 1]; k += 3) {
        c[k] = col.r;
        c[k + 1] = col.g;
        c[k + 2] = col.b;
      }
    }
    this.colors.needsUpdate = true;
  }

  /** Rewrites the wireframes of the bodies whose pose changed; uploads only that range. */
  update(poses: Float64Array): void {
    const out = this.positions.array as Float32Array;
    const src = this.local;
    const placed = this.placed;
    let lo = Number.POSITIVE_INFINITY;
    let hi = -1;
    for (let i = 0; i + 1 < this.start.length; i++) {
      const p = 7 * i;
      let same = true;
      for (let d = 0; d < 7; d++) {
        if (placed[p + d] !== poses[p + d]) {
          same = false;
          break;
        }
      }
      if (same) continue;
      for (let d = 0; d < 7; d++) placed[p + d] = poses[p + d];
      const px = poses[p];
      const py = poses[p + 1];
      const pz = poses[p + 2];
      const qx = poses[p + 3];
      const qy = poses[p + 4];
      const qz = poses[p + 5];
      const qw = poses[p + 6];
      const s = this.start[i];
      const e = this.start[i + 1];
      for (let k = s; k < e; k += 3) {
        // v' = v + w·t + q × t, with t = 2 q × v (a unit quaternion's rotation).
        const x = src[k];
        const y = src[k + 1];
        const z = src[k + 2];
        const tx = 2 * (qy * z - qz * y);
        const ty = 2 * (qz * x - qx * z);
        const tz = 2 * (qx * y - qy * x);
        out[k] = px + x + qw * tx + (qy * tz - qz * ty);
        out[k + 1] = py + y + qw * ty + (qz * tx - qx * tz);
        out[k + 2] = pz + z + qw * tz + (qx * ty - qy * tx);
      }
      if (s < lo) lo = s;
      if (e > hi) hi = e;
    }
    if (hi < 0) return;
    this.positions.clearUpdateRanges();
    this.positions.addUpdateRange(lo, hi - lo);
    this.positions.needsUpdate = true;
  }
}
