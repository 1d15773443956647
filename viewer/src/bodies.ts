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

/** Hulls up to this many vertices share one merged mesh ({@link HullBatch}). */
const SMALL_HULL = 256;
/** Segments per full circle of the unit geometries (few: software WebGL is vertex-bound). */
const SEGMENTS = 12;
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
  private readonly twoSidedMaterials: THREE.Material[];
  private readonly twoSidedTouchedMaterials: THREE.Material[];
  /** 1 for the singles drawn from both sides. */
  private readonly twoSided: Uint8Array;
  /** Whether body i was drawn touching in the last frame (singles only). */
  private readonly wasTouching: Uint8Array;

  /** `palette`: colours by body index modulo its length; `touching`: mixed in on contact. */
  constructor(bodies: readonly BodyInfo[], palette: readonly number[], touching: number) {
    const red = new THREE.Color(touching);
    this.base = palette.map((c) => new THREE.Color(c));
    this.touched = this.base.map((c) => c.clone().lerp(red, TOUCHING_MIX));
    // Translucent; closed shapes show their front faces only (half the software overdraw), a
    // heightfield or a half-space both sides.
    const translucent = (side: THREE.Side) => (color: THREE.Color) =>
      new THREE.MeshLambertMaterial({
        color,
        transparent: true,
        opacity: 0.35,
        depthWrite: false,
        side,
      });
    this.singleMaterials = this.base.map(translucent(THREE.FrontSide));
    this.touchedMaterials = this.touched.map(translucent(THREE.FrontSide));
    this.twoSidedMaterials = this.base.map(translucent(THREE.DoubleSide));
    this.twoSidedTouchedMaterials = this.touched.map(translucent(THREE.DoubleSide));
    this.twoSided = new Uint8Array(bodies.length);
    this.wasTouching = new Uint8Array(bodies.length);
    const hulls: number[] = [];
    const byKey = new Map<
      string,
      { kind: InstanceKind; bodies: number[]; local: THREE.Matrix4[] }
    >();
    bodies.forEach((b, i) => {
      const kind = instanceKind(b.shape);
      if (
        !kind &&
        b.shape.type === "triangles" &&
        b.shape.positions.length <= 3 * SMALL_HULL &&
        b.moving
      ) {
        hulls.push(i);
        this.singles.push(null);
        return;
      }
      if (!kind) {
        const t = b.shape.type;
        this.twoSided[i] = t === "heightfield" || t === "halfspace" || t === "compound" ? 1 : 0;
        const m = this.twoSided[i] ? this.twoSidedMaterials : this.singleMaterials;
        const o = shapeViewToObject3D(b.shape, m[i % palette.length]);
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
    this.hulls = hulls.length > 0 ? new HullBatch(bodies, hulls, material) : null;
    if (this.hulls) this.group.add(this.hulls.mesh);
  }

  private readonly hulls: HullBatch | null;

  /** Draw calls the bodies take. */
  get drawCalls(): number {
    return (
      this.batches.length + (this.hulls ? 1 : 0) + this.singles.filter((o) => o !== null).length
    );
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
    this.hulls?.update(poses, touching, this.base, this.touched);
    for (let i = 0; i < this.singles.length; i++) {
      const o = this.singles[i];
      if (!o) continue;
      const k = 7 * i;
      o.position.set(poses[k], poses[k + 1], poses[k + 2]);
      o.quaternion.set(poses[k + 3], poses[k + 4], poses[k + 5], poses[k + 6]);
      if (touching[i] !== this.wasTouching[i]) {
        this.wasTouching[i] = touching[i];
        const set = this.twoSided[i]
          ? touching[i]
            ? this.twoSidedTouchedMaterials
            : this.twoSidedMaterials
          : touching[i]
            ? this.touchedMaterials
            : this.singleMaterials;
        const m = set[i % n];
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
      const s = this.start[i];
      const e = this.start[i + 1];
      rotateInto(out, src, s, e, poses, p, true);
      if (s < lo) lo = s;
      if (e > hi) hi = e;
    }
    if (hi < 0) return;
    this.positions.clearUpdateRanges();
    this.positions.addUpdateRange(lo, hi - lo);
    this.positions.needsUpdate = true;
  }
}

/**
 * Small moving hulls merged into one mesh: flat-shaded triangles in the world frame, rewritten
 * on the CPU for the bodies whose pose or contact state changed (a few dozen vertices each).
 */
class HullBatch {
  readonly mesh: THREE.Mesh;
  private readonly bodies: readonly number[];
  /** Local positions and normals, xyz per vertex; hull h's floats are start[h]..start[h+1]. */
  private readonly localPositions: Float32Array;
  private readonly localNormals: Float32Array;
  private readonly start: Int32Array;
  private readonly positions: THREE.BufferAttribute;
  private readonly normals: THREE.BufferAttribute;
  private readonly colors: THREE.BufferAttribute;
  private readonly placed: Float64Array;
  private readonly drawnTouching: Uint8Array;

  constructor(all: readonly BodyInfo[], bodies: readonly number[], material: THREE.Material) {
    this.bodies = bodies;
    const parts = bodies.map((i) => {
      const v = all[i].shape;
      if (v.type !== "triangles") throw new Error("HullBatch: not a triangle shape");
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.BufferAttribute(Float32Array.from(v.positions), 3));
      g.setIndex(v.indices);
      const flat = g.toNonIndexed();
      flat.computeVertexNormals();
      return flat;
    });
    this.start = new Int32Array(bodies.length + 1);
    parts.forEach((g, h) => {
      this.start[h + 1] = this.start[h] + g.getAttribute("position").array.length;
    });
    const total = this.start[bodies.length];
    this.localPositions = new Float32Array(total);
    this.localNormals = new Float32Array(total);
    parts.forEach((g, h) => {
      this.localPositions.set(g.getAttribute("position").array as Float32Array, this.start[h]);
      this.localNormals.set(g.getAttribute("normal").array as Float32Array, this.start[h]);
      g.dispose();
    });
    this.placed = new Float64Array(7 * bodies.length).fill(Number.NaN);
    this.drawnTouching = new Uint8Array(bodies.length).fill(2);
    const geometry = new THREE.BufferGeometry();
    this.positions = new THREE.BufferAttribute(new Float32Array(total), 3);
    this.normals = new THREE.BufferAttribute(new Float32Array(total), 3);
    this.colors = new THREE.BufferAttribute(new Float32Array(total), 3);
    for (const a of [this.positions, this.normals, this.colors]) a.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute("position", this.positions);
    geometry.setAttribute("normal", this.normals);
    geometry.setAttribute("color", this.colors);
    const m = (material as THREE.MeshLambertMaterial).clone();
    m.vertexColors = true;
    this.mesh = new THREE.Mesh(geometry, m);
    this.mesh.frustumCulled = false;
  }

  update(
    poses: Float64Array,
    touching: Uint8Array,
    base: readonly THREE.Color[],
    touched: readonly THREE.Color[],
  ): void {
    const pos = this.positions.array as Float32Array;
    const nor = this.normals.array as Float32Array;
    const col = this.colors.array as Float32Array;
    const lp = this.localPositions;
    const ln = this.localNormals;
    let moved = false;
    let recoloured = false;
    for (let h = 0; h < this.bodies.length; h++) {
      const i = this.bodies[h];
      const s = this.start[h];
      const e = this.start[h + 1];
      const t = touching[i];
      if (t !== this.drawnTouching[h]) {
        this.drawnTouching[h] = t;
        const c = (t ? touched : base)[i % base.length];
        for (let k = s; k < e; k += 3) {
          col[k] = c.r;
          col[k + 1] = c.g;
          col[k + 2] = c.b;
        }
        recoloured = true;
      }
      const p = 7 * i;
      const q = 7 * h;
      let same = true;
      for (let d = 0; d < 7; d++) {
        if (this.placed[q + d] !== poses[p + d]) {
          same = false;
          break;
        }
      }
      if (same) continue;
      for (let d = 0; d < 7; d++) this.placed[q + d] = poses[p + d];
      rotateInto(pos, lp, s, e, poses, p, true);
      rotateInto(nor, ln, s, e, poses, p, false);
      moved = true;
    }
    if (moved) {
      this.positions.needsUpdate = true;
      this.normals.needsUpdate = true;
    }
    if (recoloured) this.colors.needsUpdate = true;
  }
}

/**
 * Writes `out[s..e] = R·src[s..e] (+ t)` for the pose at `poses[p..p+7]` (tx ty tz qx qy qz
 * qw), xyz triples; `translate` false for directions. v' = v + w·u + q × u with u = 2 q × v.
 */
function rotateInto(
  out: Float32Array,
  src: Float32Array,
  s: number,
  e: number,
  poses: Float64Array,
  p: number,
  translate: boolean,
): void {
  const px = translate ? poses[p] : 0;
  const py = translate ? poses[p + 1] : 0;
  const pz = translate ? poses[p + 2] : 0;
  const qx = poses[p + 3];
  const qy = poses[p + 4];
  const qz = poses[p + 5];
  const qw = poses[p + 6];
  for (let k = s; k < e; k += 3) {
    const x = src[k];
    const y = src[k + 1];
    const z = src[k + 2];
    const ux = 2 * (qy * z - qz * y);
    const uy = 2 * (qz * x - qx * z);
    const uz = 2 * (qx * y - qy * x);
    out[k] = px + x + qw * ux + (qy * uz - qz * uy);
    out[k + 1] = py + y + qw * uy + (qz * ux - qx * uz);
    out[k + 2] = pz + z + qw * uz + (qx * uy - qy * ux);
  }
}
