/**
 * The compound's definition: a rigid group of convex children, each at a pose in the compound's
 * frame — a composite (its parts are its children, src/shapes/composite.ts), so every query
 * reaches it through the generic composite path: its ray cast and point projection are the
 * nearest over the children (null here).
 */
import { invalidValue } from "../../errors.js";
import type { MeshBvh, MeshBvhHits } from "../../geometry/mesh-bvh.js";
import { buildMeshBvh, pushMeshBvhHit } from "../../geometry/mesh-bvh.js";
import type { Aabb } from "../../math/aabb.js";
import type { Isometry } from "../../math/isometry.js";
import * as iso from "../../math/isometry.js";
import * as vec3 from "../../math/vec3.js";
import { meshBvhTree } from "../composite.js";
import { type Compound, makeCompound } from "../compound.js";
import { numberOrder, quatOrder, shapeDataOrder, vecOrder } from "../data-order.js";
import type { ConvexShape } from "../shape.js";
import { isConvexShapeType, SHAPE_TYPE_NAMES, ShapeType, shapeTypeName } from "../shape.js";
import type { ShapeDef, ShapeJson, ShapeView } from "../shape-def.js";
import { registerCompositeView, registerShape, shapeDef } from "../shape-def.js";
import { checkIsometry, checkObject, checkShape, checkUnitQuat, checkVec3 } from "../validate.js";
import { cachedPerShape, fin, finite3, vecFromJson, vecJson } from "./helpers.js";

const childPose: Isometry = iso.identity();
const childBox: Aabb = { min: vec3.create(), max: vec3.create() };

/** out = the union of a compound's children's tight world AABBs. */
function aabbCompound(out: Aabb, c: Compound, pose: Isometry): Aabb {
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = -Infinity;
  for (const child of c.children) {
    iso.multiply(childPose, pose, child.pose);
    shapeDef(child.shape.type).aabb(childBox, child.shape, childPose);
    minX = Math.min(minX, childBox.min.x);
    minY = Math.min(minY, childBox.min.y);
    minZ = Math.min(minZ, childBox.min.z);
    maxX = Math.max(maxX, childBox.max.x);
    maxY = Math.max(maxY, childBox.max.y);
    maxZ = Math.max(maxZ, childBox.max.z);
  }
  vec3.set(out.min, minX, minY, minZ);
  vec3.set(out.max, maxX, maxY, maxZ);
  return out;
}

function checkCompound(field: string, shape: Compound): void {
  const children = shape.children;
  if (!Array.isArray(children) || children.length === 0) {
    invalidValue(`${field}.children`, children, "must be a non-empty array");
  }
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    const f = `${field}.children[${i}]`;
    checkObject(f, c);
    if (!isConvexShapeType(c.shape?.type)) {
      invalidValue(
        `${f}.shape.type`,
        shapeTypeName(c.shape?.type),
        "must be a convex shape (nested compounds are flattened by makeCompound)",
      );
    }
    checkShape(`${f}.shape`, c.shape);
    checkIsometry(`${f}.pose`, c.pose);
  }
}

function finitePose(p: Isometry): boolean {
  if (p === null || typeof p !== "object") return false;
  const q = p.rotation;
  return (
    finite3(p.translation) &&
    q !== null &&
    typeof q === "object" &&
    fin(q.x) &&
    fin(q.y) &&
    fin(q.z) &&
    fin(q.w)
  );
}

function finiteCompound(shape: Compound): boolean {
  const children = shape.children;
  if (!Array.isArray(children)) return false;
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    if (c === null || typeof c !== "object" || c.shape === null || typeof c.shape !== "object")
      return false;
    const d = shapeDef(c.shape.type);
    if (!d.isFinite(c.shape) || !finitePose(c.pose)) return false;
  }
  return true;
}

type Quat4 = [number, number, number, number];

/**
 * The order of two compounds' data (src/shapes/data-order.ts): the child count, then each
 * child's type, pose (translation, then rotation) and data. Allocation free.
 */
function compoundDataOrder(a: Compound, b: Compound): number {
  const ca = a.children;
  const cb = b.children;
  if (ca.length !== cb.length) return ca.length < cb.length ? -1 : 1;
  for (let i = 0; i < ca.length; i++) {
    const p = ca[i];
    const q = cb[i];
    const k =
      numberOrder(p.shape.type, q.shape.type) ||
      vecOrder(p.pose.translation, q.pose.translation) ||
      quatOrder(p.pose.rotation, q.pose.rotation) ||
      shapeDataOrder(p.shape, q.shape);
    if (k !== 0) return k;
  }
  return 0;
}

/** The compound's record in the shape definitions' table. */
export const compoundDef: ShapeDef<Compound> = {
  type: ShapeType.Compound,
  name: SHAPE_TYPE_NAMES[ShapeType.Compound],
  supportMapped: false,
  composite: true,
  polytope: null,
  revolution: null,
  unbounded: false,
  pointFeature: false,
  aabb: aabbCompound,
  boundingRadius: (s) =>
    cachedPerShape(s, () => {
      let r = 0;
      for (const c of s.children) {
        r = Math.max(
          r,
          vec3.length(c.pose.translation) + shapeDef(c.shape.type).boundingRadius(c.shape),
        );
      }
      return r;
    }),
  writeMagnitude: (out) => {
    out[0] = -1;
  },
  scaled: null,
  coreSupport: null,
  margin: () => 0,
  feature: null,
  edgeFeature: null,
  rayCast: null,
  projectPoint: null,
  dataOrder: compoundDataOrder,
  check: checkCompound,
  isFinite: finiteCompound,
  view: (s) => ({
    type: "compound",
    children: s.children.map((c) => ({
      shape: shapeDef(c.shape.type).view(c.shape) as ShapeView,
      position: vecJson(c.pose.translation),
      rotation: [c.pose.rotation.x, c.pose.rotation.y, c.pose.rotation.z, c.pose.rotation.w],
    })),
  }),
  json: {
    name: "compound",
    schema: (z) =>
      z.strictObject({
        type: z.literal("compound"),
        children: z.array(
          z.strictObject({
            shape: z.looseObject({ type: z.string() }),
            translation: z.tuple([z.number(), z.number(), z.number()]),
            rotation: z.tuple([z.number(), z.number(), z.number(), z.number()]),
          }),
        ),
      }),
    toJson: (s) => ({
      type: "compound",
      children: s.children.map((c) => ({
        shape: shapeDef(c.shape.type).json.toJson(c.shape),
        translation: vecJson(c.pose.translation),
        rotation: [c.pose.rotation.x, c.pose.rotation.y, c.pose.rotation.z, c.pose.rotation.w],
      })),
    }),
    fromJson: (j, field, child) =>
      makeCompound(
        (j.children as { shape: ShapeJson; translation: number[]; rotation: Quat4 }[]).map(
          (c, i) => {
            const [x, y, z, w] = c.rotation;
            const pose = { translation: vecFromJson(c.translation), rotation: { x, y, z, w } };
            // Named by this form's fields (makeCompound names the API's `pose.translation`).
            checkVec3(`${field}.children[${i}].translation`, pose.translation);
            checkUnitQuat(`${field}.children[${i}].rotation`, pose.rotation);
            return {
              shape: child(c.shape, `${field}.children[${i}].shape`) as ConvexShape | Compound,
              pose,
            };
          },
        ),
        field,
      ),
  },
};

/** Child boxes of a compound in its frame, 6 doubles per child, built once per compound object. */
const childBoxes = new WeakMap<Compound, Float64Array>();

function boxesOf(c: Compound): Float64Array {
  let boxes = childBoxes.get(c);
  if (boxes) return boxes;
  boxes = new Float64Array(6 * c.children.length);
  for (let i = 0; i < c.children.length; i++) {
    const ch = c.children[i];
    shapeDef(ch.shape.type).aabb(childBox, ch.shape, ch.pose);
    boxes.set([childBox.min.x, childBox.min.y, childBox.min.z], 6 * i);
    boxes.set([childBox.max.x, childBox.max.y, childBox.max.z], 6 * i + 3);
  }
  childBoxes.set(c, boxes);
  return boxes;
}

/** A BVH over a compound's child boxes (the composite path's distance search), built once. */
const childTrees = new WeakMap<Compound, MeshBvh>();

function treeOf(c: Compound): MeshBvh {
  let tree = childTrees.get(c);
  if (tree) return tree;
  tree = buildMeshBvh(boxesOf(c), c.children.length);
  childTrees.set(c, tree);
  return tree;
}

const argBox = new Float64Array(6);

/** The children whose boxes may touch the box `box` (min xyz, max xyz): the view's box query. */
function queryCompoundBox(out: MeshBvhHits, s: Compound, box: Float64Array): number {
  const b = boxesOf(s);
  const minx = box[0];
  const miny = box[1];
  const minz = box[2];
  const maxx = box[3];
  const maxy = box[4];
  const maxz = box[5];
  out.count = 0;
  for (let i = 0, o = 0; o < b.length; i++, o += 6) {
    if (b[o] > maxx || b[o + 1] > maxy || b[o + 2] > maxz) continue;
    if (b[o + 3] < minx || b[o + 4] < miny || b[o + 5] < minz) continue;
    pushMeshBvhHit(out, i);
  }
  return out.count;
}

const compoundTree = meshBvhTree((s) => treeOf(s as Compound));

registerCompositeView(ShapeType.Compound, {
  partCount: (s) => (s as Compound).children.length,
  queryAabb: (out, s, minx, miny, minz, maxx, maxy, maxz) => {
    const box = argBox;
    box[0] = minx;
    box[1] = miny;
    box[2] = minz;
    box[3] = maxx;
    box[4] = maxy;
    box[5] = maxz;
    return queryCompoundBox(out, s as Compound, box);
  },
  queryBox: (out, s, box) => queryCompoundBox(out, s as Compound, box),
  part: (slot, s, i) => {
    const ch = (s as Compound).children[i];
    slot.shape = ch.shape;
    iso.copy(slot.pose, ch.pose);
    slot.hasPose = true;
  },
  tree: compoundTree,
});
// After its composite view, so that the pair table's defaults see a composite type.
registerShape(compoundDef);
