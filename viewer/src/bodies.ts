/**
 * The viewer's bodies and wireframes, drawn with few draw calls and few triangles. Software
 * WebGL (SwiftShader, what headless Chromium and GPU-less machines run) pays per triangle, per
 * instance of an instanced draw (about twice the triangles of one merged draw), per line
 * segment and per covered pixel; a GPU pays per draw call. So:
 *
 * - {@link BodyMeshes}: the bodies' surfaces merged into at most three meshes: one opaque
 *   (spheres, boxes, cylinders, cones, capsules from low-poly unit shapes, and small hulls) and
 *   two translucent (other meshes and hulls; heightfields, half-spaces and compounds from both
 *   sides). Each keeps its bodies' local vertices and writes the world-frame vertices, and
 *   their colours, only for the bodies whose pose or contact state changed. The shading is
 *   baked into the vertex colours (Lambert's law for the scene's ambient light and sun, per
 *   vertex): the meshes draw with `MeshBasicMaterial`, and no normals are uploaded.
 * - {@link WireBuffer}: every body's wireframe in one `LineSegments` buffer, world frame,
 *   rewritten in place only for the bodies whose pose changed.
 *
 * Nothing here allocates per frame.
 */
import { shapeViewToObject3D } from "collide/three";
import * as THREE from "three";
import { mergeVertices } from "three/examples/jsm/utils/BufferGeometryUtils.js";
import type { ShapeView } from "./collide.js";
import type { BodyInfo } from "./protocol.js";

/** Hulls (triangle shapes) up to this many vertices are drawn flat-shaded and opaque. */
const SMALL_HULL = 256;
/**
 * Triangles the opaque bodies may take in all (software WebGL pays about a microsecond per
 * triangle per frame): the round shapes get the most segments per circle, among
 * {@link SEGMENT_LEVELS}, that keep the total within it. A crowd of hundreds of bodies, a few
 * pixels each, is drawn coarse; a scene of a few bodies fine.
 */
export const TRIANGLE_BUDGET = 8000;
/** Segments per full circle the round shapes may be drawn with, coarse to fine. */
const SEGMENT_LEVELS = [6, 8, 12, 16, 24, 32] as const;
/** How much of the touching colour a body in a contact takes. */
const TOUCHING_MIX = 0.55;
/** Opacity of the translucent meshes. */
const TRANSLUCENT_OPACITY = 0.35;
/**
 * The baked light: the unit direction towards the sun (a directional light at (3, 10, 6)),
 * and the ambient and sun terms of Lambert's law as three.js lights them (intensities 0.6 and
 * 1.6, times the Lambert BRDF's 1/π): colour = albedo · (AMBIENT + SUN · max(0, n · l)).
 */
const LIGHT = new THREE.Vector3(3, 10, 6).normalize();
const AMBIENT = 0.6 / Math.PI;
const SUN = 1.6 / Math.PI;

const UP = new THREE.Vector3(0, 1, 0);

/** A body's surface in its local frame: indexed triangles with vertex normals. */
interface Surface {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
}

/** Where a body's surface goes: the opaque batch, or translucent one- or two-sided. */
type BatchKind = "solid" | "translucent" | "twoSided";

/**
 * A sphere of radius `r` as about as many triangles as a `segments` × `segments`/2 grid would
 * take, spread evenly: a subdivided icosahedron (20, 80, 180, 320, 500 triangles), its vertices
 * shared.
 */
function sphereGeometry(r: number, segments: number): THREE.BufferGeometry {
  const g = new THREE.IcosahedronGeometry(r, Math.max(0, Math.round(segments / 6) - 1));
  g.deleteAttribute("uv");
  g.deleteAttribute("normal");
  const shared = mergeVertices(g);
  g.dispose();
  // A sphere's normal is its position over its radius.
  const p = shared.getAttribute("position");
  const n = new Float32Array(3 * p.count);
  const inv = r > 0 ? 1 / r : 0;
  for (let k = 0; k < p.count; k++) {
    n[3 * k] = p.getX(k) * inv;
    n[3 * k + 1] = p.getY(k) * inv;
    n[3 * k + 2] = p.getZ(k) * inv;
  }
  shared.setAttribute("normal", new THREE.BufferAttribute(n, 3));
  return shared;
}

/** The surface of `shape` in its body's frame, and where it is drawn. */
function surfaceOf(
  shape: ShapeView,
  moving: boolean,
  segments: number,
): { surface: Surface; kind: BatchKind } {
  switch (shape.type) {
    case "sphere":
      return { surface: toSurface(sphereGeometry(shape.radius, segments)), kind: "solid" };
    case "box": {
      const [x, y, z] = shape.halfExtents;
      return { surface: toSurface(new THREE.BoxGeometry(2 * x, 2 * y, 2 * z)), kind: "solid" };
    }
    case "cylinder": {
      const r = shape.radius;
      const g = new THREE.CylinderGeometry(r, r, 2 * shape.halfHeight, segments);
      return { surface: toSurface(g), kind: "solid" };
    }
    case "cone": {
      const g = new THREE.ConeGeometry(shape.radius, 2 * shape.halfHeight, segments);
      return { surface: toSurface(g), kind: "solid" };
    }
    case "capsule": {
      const a = new THREE.Vector3(...shape.a);
      const b = new THREE.Vector3(...shape.b);
      const axis = new THREE.Vector3().subVectors(b, a);
      const len = axis.length();
      const caps = Math.max(1, Math.floor(segments / 6));
      const g = new THREE.CapsuleGeometry(shape.radius, len, caps, segments);
      const m = new THREE.Matrix4().compose(
        a.add(b).multiplyScalar(0.5),
        len > 0
          ? new THREE.Quaternion().setFromUnitVectors(UP, axis.divideScalar(len))
          : new THREE.Quaternion(),
        new THREE.Vector3(1, 1, 1),
      );
      return { surface: toSurface(g.applyMatrix4(m)), kind: "solid" };
    }
    case "triangles": {
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.BufferAttribute(Float32Array.from(shape.positions), 3));
      g.setIndex(shape.indices);
      if (moving && shape.positions.length <= 3 * SMALL_HULL) {
        // A moving hull: opaque, flat faces (each triangle its own vertices and normal).
        const flat = g.toNonIndexed();
        flat.computeVertexNormals();
        return { surface: toSurface(flat), kind: "solid" };
      }
      g.computeVertexNormals();
      return { surface: toSurface(g), kind: "translucent" };
    }
    default: {
      // Heightfields, half-spaces, compounds (and any shape added later): the three.js adapter's
      // objects, flattened into one surface; drawn from both sides.
      const o = shapeViewToObject3D(shape, new THREE.MeshBasicMaterial());
      o.updateMatrixWorld(true);
      const parts: THREE.BufferGeometry[] = [];
      o.traverse((c) => {
        if (c instanceof THREE.Mesh) {
          parts.push((c.geometry as THREE.BufferGeometry).clone().applyMatrix4(c.matrixWorld));
        }
      });
      return { surface: joinSurfaces(parts.map(toSurface)), kind: "twoSided" };
    }
  }
}

/** Triangles of the opaque bodies' surfaces drawn with `segments` per circle. */
function solidTriangles(bodies: readonly BodyInfo[], segments: number): number {
  let n = 0;
  // A round shape's count depends on its kind only.
  const byKind = new Map<string, number>();
  for (const b of bodies) {
    const t = b.shape.type;
    if (t === "sphere" || t === "box" || t === "cylinder" || t === "cone" || t === "capsule") {
      let k = byKind.get(t);
      if (k === undefined) {
        k = surfaceOf(b.shape, b.moving, segments).surface.indices.length / 3;
        byKind.set(t, k);
      }
      n += k;
    } else if (t === "triangles" && b.moving && b.shape.positions.length <= 3 * SMALL_HULL) {
      n += b.shape.indices.length / 3;
    }
  }
  return n;
}

/** The finest of {@link SEGMENT_LEVELS} that keeps the opaque bodies within the budget. */
function segmentsFor(bodies: readonly BodyInfo[]): number {
  let best: number = SEGMENT_LEVELS[0];
  for (const s of SEGMENT_LEVELS) {
    if (solidTriangles(bodies, s) <= TRIANGLE_BUDGET) best = s;
  }
  return best;
}

/** `g`'s positions, normals (computed if absent) and indices (0, 1, 2, … if not indexed). */
function toSurface(g: THREE.BufferGeometry): Surface {
  if (!g.getAttribute("normal")) g.computeVertexNormals();
  const p = g.getAttribute("position");
  const n = g.getAttribute("normal");
  const positions = new Float32Array(3 * p.count);
  const normals = new Float32Array(3 * p.count);
  for (let k = 0; k < p.count; k++) {
    positions[3 * k] = p.getX(k);
    positions[3 * k + 1] = p.getY(k);
    positions[3 * k + 2] = p.getZ(k);
    normals[3 * k] = n.getX(k);
    normals[3 * k + 1] = n.getY(k);
    normals[3 * k + 2] = n.getZ(k);
  }
  const index = g.getIndex();
  const indices = index
    ? Uint32Array.from({ length: index.count }, (_, k) => index.getX(k))
    : Uint32Array.from({ length: p.count }, (_, k) => k);
  g.dispose();
  return { positions, normals, indices };
}

function joinSurfaces(parts: Surface[]): Surface {
  let v = 0;
  let t = 0;
  for (const s of parts) {
    v += s.positions.length;
    t += s.indices.length;
  }
  const out: Surface = {
    positions: new Float32Array(v),
    normals: new Float32Array(v),
    indices: new Uint32Array(t),
  };
  v = 0;
  t = 0;
  for (const s of parts) {
    out.positions.set(s.positions, v);
    out.normals.set(s.normals, v);
    for (let k = 0; k < s.indices.length; k++) out.indices[t + k] = s.indices[k] + v / 3;
    v += s.positions.length;
    t += s.indices.length;
  }
  return out;
}

/** The bodies' surfaces (see the module's comment). */
export class BodyMeshes {
  readonly group = new THREE.Group();
  private readonly batches: SurfaceBatch[] = [];
  private readonly base: THREE.Color[];
  private readonly touched: THREE.Color[];
  /** Segments per full circle of the round shapes (see {@link TRIANGLE_BUDGET}). */
  readonly segments: number;
  /** 1 for the selected bodies (drawn in {@link selectedColor}). */
  private readonly selected: Uint8Array;
  private readonly selectedColor: THREE.Color;

  /** `palette`: colours by body index modulo its length; `touching`: mixed in on contact. */
  constructor(
    bodies: readonly BodyInfo[],
    palette: readonly number[],
    touching: number,
    selected: number,
  ) {
    const red = new THREE.Color(touching);
    this.base = bodies.map((_, i) => new THREE.Color(palette[i % palette.length]));
    this.touched = this.base.map((c) => c.clone().lerp(red, TOUCHING_MIX));
    this.selectedColor = new THREE.Color(selected);
    this.selected = new Uint8Array(bodies.length);
    const members: Record<BatchKind, number[]> = { solid: [], translucent: [], twoSided: [] };
    const surfaces: Record<BatchKind, Surface[]> = { solid: [], translucent: [], twoSided: [] };
    this.segments = segmentsFor(bodies);
    bodies.forEach((b, i) => {
      const { surface, kind } = surfaceOf(b.shape, b.moving, this.segments);
      members[kind].push(i);
      surfaces[kind].push(surface);
    });
    const materials: Record<BatchKind, THREE.Material> = {
      // Opaque, front faces only, pushed back a little so the wireframes on the surface show.
      solid: new THREE.MeshBasicMaterial({
        vertexColors: true,
        polygonOffset: true,
        polygonOffsetFactor: 1,
        polygonOffsetUnits: 1,
      }),
      // Closed shapes show their front faces only (half the overdraw).
      translucent: new THREE.MeshBasicMaterial({
        vertexColors: true,
        transparent: true,
        opacity: TRANSLUCENT_OPACITY,
        depthWrite: false,
      }),
      twoSided: new THREE.MeshBasicMaterial({
        vertexColors: true,
        transparent: true,
        opacity: TRANSLUCENT_OPACITY,
        depthWrite: false,
        side: THREE.DoubleSide,
      }),
    };
    for (const kind of ["solid", "translucent", "twoSided"] as const) {
      if (members[kind].length === 0) continue;
      const batch = new SurfaceBatch(
        members[kind],
        surfaces[kind],
        materials[kind],
        kind === "twoSided",
      );
      this.batches.push(batch);
      this.group.add(batch.mesh);
    }
  }

  /** Draw calls the bodies take. */
  get drawCalls(): number {
    return this.batches.length;
  }

  /** Triangles the bodies' meshes hold. */
  get triangles(): number {
    let n = 0;
    for (const b of this.batches) n += b.triangles;
    return n;
  }

  /** Places every body at `poses` (tx ty tz qx qy qz qw each) and colours the touching ones. */
  update(poses: Float64Array, touching: Uint8Array): void {
    this.lastPoses = poses;
    this.lastTouching = touching;
    for (const b of this.batches) {
      b.update(poses, touching, this.base, this.touched, this.selected, this.selectedColor);
    }
  }

  /** The last frame's poses and contact flags (a selection is drawn with them). */
  private lastPoses: Float64Array | null = null;
  private lastTouching: Uint8Array | null = null;

  /** Colours the `indices` bodies as selected (at the next {@link update}), the others not. */
  select(indices: readonly number[]): void {
    this.selected.fill(0);
    for (const i of indices) this.selected[i] = 1;
    for (const b of this.batches) b.recolour();
    if (this.lastPoses && this.lastTouching) this.update(this.lastPoses, this.lastTouching);
  }
}

/**
 * Bodies' surfaces merged into one mesh, world frame, with baked vertex colours; rewritten on
 * the CPU only for the bodies whose pose or contact state changed, and only that range
 * uploaded.
 */
class SurfaceBatch {
  readonly mesh: THREE.Mesh;
  readonly triangles: number;
  private readonly bodies: readonly number[];
  /** Local positions and normals, xyz per vertex; body h's floats are start[h]..start[h+1]. */
  private readonly localPositions: Float32Array;
  private readonly localNormals: Float32Array;
  private readonly start: Int32Array;
  private readonly positions: THREE.BufferAttribute;
  private readonly colors: THREE.BufferAttribute;
  /** The poses the batch was last written for (NaN before the first frame). */
  private readonly placed: Float64Array;
  /** Body h's colour as drawn: 1 touching, 2 selected, 0 neither (3 to be redrawn). */
  private readonly drawnState: Uint8Array;
  private readonly twoSided: boolean;

  constructor(
    bodies: readonly number[],
    surfaces: readonly Surface[],
    material: THREE.Material,
    twoSided: boolean,
  ) {
    this.bodies = bodies;
    this.twoSided = twoSided;
    const joined = joinSurfaces(surfaces as Surface[]);
    this.start = new Int32Array(bodies.length + 1);
    surfaces.forEach((s, h) => {
      this.start[h + 1] = this.start[h] + s.positions.length;
    });
    this.localPositions = joined.positions;
    this.localNormals = joined.normals;
    this.triangles = joined.indices.length / 3;
    const total = this.start[bodies.length];
    this.placed = new Float64Array(7 * bodies.length).fill(Number.NaN);
    this.drawnState = new Uint8Array(bodies.length).fill(3);
    const geometry = new THREE.BufferGeometry();
    this.positions = new THREE.BufferAttribute(new Float32Array(total), 3);
    this.colors = new THREE.BufferAttribute(new Float32Array(total), 3);
    this.positions.setUsage(THREE.DynamicDrawUsage);
    this.colors.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute("position", this.positions);
    geometry.setAttribute("color", this.colors);
    geometry.setIndex(
      new THREE.BufferAttribute(
        total / 3 <= 65_536 ? Uint16Array.from(joined.indices) : joined.indices,
        1,
      ),
    );
    this.mesh = new THREE.Mesh(geometry, material);
    // The vertices move: a bounding sphere would be stale.
    this.mesh.frustumCulled = false;
  }

  update(
    poses: Float64Array,
    touching: Uint8Array,
    base: readonly THREE.Color[],
    touched: readonly THREE.Color[],
    selected: Uint8Array,
    selectedColor: THREE.Color,
  ): void {
    const pos = this.positions.array as Float32Array;
    let lo = Number.POSITIVE_INFINITY;
    let hi = -1;
    for (let h = 0; h < this.bodies.length; h++) {
      const i = this.bodies[h];
      const t = selected[i] ? 2 : touching[i] ? 1 : 0;
      const p = 7 * i;
      const q = 7 * h;
      let same = true;
      for (let d = 0; d < 7; d++) {
        if (this.placed[q + d] !== poses[p + d]) {
          same = false;
          break;
        }
      }
      if (same && t === this.drawnState[h]) continue;
      const s = this.start[h];
      const e = this.start[h + 1];
      if (!same) {
        for (let d = 0; d < 7; d++) this.placed[q + d] = poses[p + d];
        rotateInto(pos, this.localPositions, s, e, poses, p, true);
      }
      this.drawnState[h] = t;
      this.shade(s, e, poses, p, t === 2 ? selectedColor : t === 1 ? touched[i] : base[i]);
      if (s < lo) lo = s;
      if (e > hi) hi = e;
    }
    if (hi < 0) return;
    for (const a of [this.positions, this.colors]) {
      a.clearUpdateRanges();
      a.addUpdateRange(lo, hi - lo);
      a.needsUpdate = true;
    }
  }

  /** Redraws every body's colours at the next update. */
  recolour(): void {
    this.drawnState.fill(3);
  }

  /** Vertex colours of floats s..e: `albedo` lit by the baked light, normals rotated by the pose. */
  private shade(s: number, e: number, poses: Float64Array, p: number, albedo: THREE.Color): void {
    const col = this.colors.array as Float32Array;
    const n = this.localNormals;
    const qx = poses[p + 3];
    const qy = poses[p + 4];
    const qz = poses[p + 5];
    const qw = poses[p + 6];
    // The light in the body's frame (rotated by the pose's inverse): n·(R⁻¹ l) = (R n)·l.
    const lx = LIGHT.x;
    const ly = LIGHT.y;
    const lz = LIGHT.z;
    const ux = 2 * (-qy * lz + qz * ly);
    const uy = 2 * (-qz * lx + qx * lz);
    const uz = 2 * (-qx * ly + qy * lx);
    const bx = lx + qw * ux + (-qy * uz + qz * uy);
    const by = ly + qw * uy + (-qz * ux + qx * uz);
    const bz = lz + qw * uz + (-qx * uy + qy * ux);
    const { r, g, b } = albedo;
    for (let k = s; k < e; k += 3) {
      let d = n[k] * bx + n[k + 1] * by + n[k + 2] * bz;
      d = this.twoSided ? Math.abs(d) : Math.max(d, 0);
      const f = AMBIENT + SUN * d;
      col[k] = r * f;
      col[k + 1] = g * f;
      col[k + 2] = b * f;
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
