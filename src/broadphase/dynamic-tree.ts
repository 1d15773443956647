/**
 * Dynamic AABB tree (the broad phase of Box2D and Bullet's `btDbvt`; Catto, "Dynamic AABB
 * Trees", GDC 2019; Ericson 2005, §6.2).
 *
 * A binary tree whose leaves hold FAT AABBs: each proxy's tight box expanded by `margin` on
 * every side and, when `move` is given a displacement, stretched along it by
 * `displacementMultiplier` × displacement. A move only changes the tree when the new tight box
 * leaves the fat one; then the leaf is removed and reinserted (strategy `"reinsert"`) or its fat
 * box is replaced and its ancestors refitted in place (strategy `"refit"`, cheaper, slowly
 * degrading). Internal nodes hold the exact union of their children's boxes.
 *
 * Insertion picks the sibling that minimises the surface-area heuristic — the area of the new
 * parent plus the area increase of every ancestor — by branch and bound over the tree (Bittner,
 * Hapala & Havran 2013, "Fast insertion-based optimization of bounding volume hierarchies";
 * Box2D v3's `b2FindBestSibling` uses the same bound). After an insertion or removal the path to
 * the root is walked, refitting boxes and applying AVL-style rotations wherever the children's
 * heights differ by more than one, so the height stays O(log n) even for sorted insertions.
 *
 * Exactness: fat boxes only prune. `computePairs` queries the tree with each proxy's TIGHT box and
 * keeps a candidate only when the two tight boxes overlap (and the candidate's id is larger, which
 * removes duplicates), so it reports exactly the tight-box overlap set; `queryAabb` and `castRay`
 * likewise test the tight box of every leaf they reach. Fat boxes contain tight boxes exactly
 * (`min − margin` rounds down, `max + margin` up), so no pair is missed.
 *
 * Storage: nodes live in typed arrays (boxes in a `Float64Array`, parent / children / height in
 * `Int32Array`s) with a free list, all growing by doubling; steady-state operation allocates
 * nothing. Queries are not reentrant: a callback must not query or modify the same tree.
 */
import { AABB_DISPLACEMENT_MULTIPLIER, AABB_MARGIN } from "../constants.js";
import { checkOptions, invalidValue, optionsSpec, withDefaults } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import {
  type AabbQueryCallback,
  type BroadPhase,
  boxesOverlap,
  checkBox,
  checkFiniteVector,
  checkRay,
  growFloat64,
  growInt32,
  ProxyBoxes,
  type RayCastCallback,
  raySegmentBoxEntry,
} from "./broad-phase.js";
import type { PairSet } from "./pair-set.js";

/** Settings of {@link DynamicTree}. */
export interface DynamicTreeOptions {
  /**
   * Fat AABB margin added on every side of a proxy's tight box, in scene units (≥ 0).
   * @default AABB_MARGIN = 0.05 scene units
   */
  margin: number;
  /**
   * Factor by which `move`'s displacement stretches the fat AABB ahead of the motion (≥ 0).
   * Unitless.
   * @default AABB_DISPLACEMENT_MULTIPLIER = 4
   */
  displacementMultiplier: number;
  /**
   * What `move` does when the tight box leaves the fat one: `"reinsert"` the leaf (best tree
   * quality) or `"refit"` its ancestors in place (cheaper, tree quality degrades over time).
   * @default "reinsert"
   */
  moveStrategy: "reinsert" | "refit";
}

/** The default {@link DynamicTreeOptions}: margin `AABB_MARGIN`, multiplier 4, reinsert. */
export function defaultDynamicTreeOptions(): DynamicTreeOptions {
  return {
    margin: AABB_MARGIN,
    displacementMultiplier: AABB_DISPLACEMENT_MULTIPLIER,
    moveStrategy: "reinsert",
  };
}

const NULL = -1;
/** [0]: the area written by `unionArea` and `area` (no double returned from a call). */
const areaIo = new Float64Array(1);
const INITIAL_NODES = 16;

/**
 * Dynamic AABB tree broad phase (see the module docs). Exact: reports the pairs whose tight boxes
 * overlap or touch. Throws `CollideError` on bad options.
 */
/**
 * Relative widening of the ray–node slab interval in `castRay` (4 units of roundoff): the
 * inverse-direction products differ from exact arithmetic by at most about 1 ulp each, and the
 * sign of every product is exact, so this slack keeps every node the exact test would enter.
 */
const NODE_RAY_SLACK = 4 * Number.EPSILON;

const TREE_SPEC = optionsSpec("DynamicTree", "options", {
  margin: "number",
  displacementMultiplier: "number",
  moveStrategy: "string",
});

export class DynamicTree implements BroadPhase {
  private readonly proxies = new ProxyBoxes();
  private readonly options: DynamicTreeOptions;
  private root = NULL;
  private nodeCapacity = 0;
  private nodes = 0;
  private freeHead = NULL;
  /** Node boxes, 6 per node: the fat AABB of a leaf, the union of the children otherwise. */
  private box = new Float64Array(0);
  /** Parent of each node (the next free node for a free node). */
  private parent = new Int32Array(0);
  private child1 = new Int32Array(0);
  private child2 = new Int32Array(0);
  /** Height of each node: 0 for a leaf, −1 for a free node. */
  private heightOf = new Int32Array(0);
  private proxyOf = new Int32Array(0);
  private leafOf = new Int32Array(0);
  private stack = new Int32Array(0);
  private stackT = new Float64Array(0);
  /** Entry parameters of the two children tested by `castRay` (scratch). */
  private readonly rayEnter = new Float64Array(2);
  private readonly fat = new Float64Array(6);

  /** A new, empty tree; `options` overrides {@link defaultDynamicTreeOptions}. */
  constructor(options: Partial<DynamicTreeOptions> = {}) {
    checkOptions(options, TREE_SPEC);
    const o = withDefaults(defaultDynamicTreeOptions(), options);
    if (!(Number.isFinite(o.margin) && o.margin >= 0)) {
      invalidValue("options.margin", o.margin, "must be a finite number >= 0");
    }
    if (!(Number.isFinite(o.displacementMultiplier) && o.displacementMultiplier >= 0)) {
      invalidValue(
        "options.displacementMultiplier",
        o.displacementMultiplier,
        "must be a finite number >= 0",
      );
    }
    if (o.moveStrategy !== "reinsert" && o.moveStrategy !== "refit") {
      invalidValue("options.moveStrategy", o.moveStrategy, 'must be "reinsert" or "refit"');
    }
    this.options = o;
    this.growNodes(INITIAL_NODES);
  }

  /** Number of proxies held. */
  get size(): number {
    return this.proxies.count;
  }

  /** Number of tree nodes in use (2 × size − 1 when non-empty). */
  get nodeCount(): number {
    return this.nodes;
  }

  /** Height of the tree: 0 for an empty tree or a single leaf. */
  height(): number {
    return this.root === NULL ? 0 : this.heightOf[this.root];
  }

  /** Writes the fat AABB of proxy `id` into `min`, `max`; throws when `id` is absent. */
  fatAabb(id: number, min: Vec3, max: Vec3): void {
    this.proxies.requireLive(id);
    const k = 6 * this.leafOf[id];
    min.x = this.box[k];
    min.y = this.box[k + 1];
    min.z = this.box[k + 2];
    max.x = this.box[k + 3];
    max.y = this.box[k + 4];
    max.z = this.box[k + 5];
  }

  /** Adds proxy `id` with tight box `[min, max]`; throws `CollideError` on a present id or a bad box. */
  insert(id: number, min: Vec3, max: Vec3): void {
    this.proxies.add(id, min, max);
    if (id >= this.leafOf.length) this.leafOf = growInt32(this.leafOf, id + 1, NULL);
    const leaf = this.allocateNode();
    this.proxyOf[leaf] = id;
    this.leafOf[id] = leaf;
    this.computeFat(id, undefined);
    this.box.set(this.fat, 6 * leaf);
    this.insertLeaf(leaf);
  }

  /**
   * Gives proxy `id` its new tight box; the tree changes only when it leaves the fat AABB. The
   * optional `displacement` (scene units) stretches the new fat AABB along the expected motion.
   * Returns true when the tree changed. Throws `CollideError` on an absent id, a bad box or a
   * non-finite displacement.
   */
  move(id: number, min: Vec3, max: Vec3, displacement?: Vec3): boolean {
    if (displacement !== undefined) checkFiniteVector("displacement", displacement);
    this.proxies.set(id, min, max);
    const leaf = this.leafOf[id];
    const t = this.proxies.box;
    const f = this.box;
    const kt = 6 * id;
    const kf = 6 * leaf;
    if (
      f[kf] <= t[kt] &&
      f[kf + 1] <= t[kt + 1] &&
      f[kf + 2] <= t[kt + 2] &&
      f[kf + 3] >= t[kt + 3] &&
      f[kf + 4] >= t[kt + 4] &&
      f[kf + 5] >= t[kt + 5]
    ) {
      return false;
    }
    this.computeFat(id, displacement);
    if (this.options.moveStrategy === "reinsert") {
      this.removeLeaf(leaf);
      this.box.set(this.fat, kf);
      this.insertLeaf(leaf);
    } else {
      this.box.set(this.fat, kf);
      this.refitFrom(this.parent[leaf]);
    }
    return true;
  }

  /** Removes proxy `id`; throws `CollideError` when it is absent. */
  remove(id: number): void {
    this.proxies.delete(id);
    const leaf = this.leafOf[id];
    this.removeLeaf(leaf);
    this.freeNode(leaf);
    this.leafOf[id] = NULL;
  }

  /** True when proxy `id` is present. */
  has(id: number): boolean {
    return this.proxies.has(id);
  }

  /** Removes every proxy, keeping storage. */
  clear(): void {
    const { live, count } = this.proxies;
    for (let i = 0; i < count; i++) this.leafOf[live[i]] = NULL;
    this.proxies.clear();
    this.root = NULL;
    this.nodes = 0;
    this.freeHead = NULL;
    for (let n = this.nodeCapacity - 1; n >= 0; n--) this.pushFree(n);
  }

  /** Fills `out` with every pair whose tight boxes overlap or touch, sorted by `(lo, hi)`. */
  computePairs(out: PairSet): PairSet {
    out.clear();
    if (this.root === NULL) return out;
    const { box: tight, live, count } = this.proxies;
    const box = this.box;
    const stack = this.stack;
    for (let i = 0; i < count; i++) {
      const a = live[i];
      const ka = 6 * a;
      let sp = 0;
      stack[sp++] = this.root;
      while (sp > 0) {
        const node = stack[--sp];
        if (!boxesOverlap(tight, ka, box, 6 * node)) continue;
        const c1 = this.child1[node];
        if (c1 === NULL) {
          const b = this.proxyOf[node];
          if (b > a && boxesOverlap(tight, ka, tight, 6 * b)) out.add(a, b);
        } else {
          stack[sp++] = this.child2[node];
          stack[sp++] = c1;
        }
      }
    }
    return out.sort();
  }

  /** Reports every proxy whose tight box overlaps or touches `[min, max]`. */
  queryAabb(min: Vec3, max: Vec3, out: number[] | AabbQueryCallback): number {
    checkBox("query", min, max);
    if (this.root === NULL) return 0;
    const tight = this.proxies.box;
    const box = this.box;
    const stack = this.stack;
    let n = 0;
    let sp = 0;
    stack[sp++] = this.root;
    while (sp > 0) {
      const node = stack[--sp];
      const k = 6 * node;
      if (
        box[k] > max.x ||
        min.x > box[k + 3] ||
        box[k + 1] > max.y ||
        min.y > box[k + 4] ||
        box[k + 2] > max.z ||
        min.z > box[k + 5]
      ) {
        continue;
      }
      const c1 = this.child1[node];
      if (c1 !== NULL) {
        stack[sp++] = this.child2[node];
        stack[sp++] = c1;
        continue;
      }
      const id = this.proxyOf[node];
      const kt = 6 * id;
      if (
        tight[kt] <= max.x &&
        min.x <= tight[kt + 3] &&
        tight[kt + 1] <= max.y &&
        min.y <= tight[kt + 4] &&
        tight[kt + 2] <= max.z &&
        min.z <= tight[kt + 5]
      ) {
        n++;
        if (Array.isArray(out)) out.push(id);
        else if (out(id) === false) break;
      }
    }
    return n;
  }

  /**
   * Visits every proxy whose tight box the segment touches, depth first with the nearer child
   * (smaller entry parameter) first, skipping subtrees that a clipped `maxToi` no longer reaches.
   */
  castRay(origin: Vec3, dir: Vec3, maxToi: number, callback: RayCastCallback): number {
    checkRay(origin, dir, maxToi);
    if (this.root === NULL) return 0;
    const { x: ox, y: oy, z: oz } = origin;
    const { x: dx, y: dy, z: dz } = dir;
    const tight = this.proxies.box;
    const box = this.box;
    const stack = this.stack;
    const stackT = this.stackT;
    let tMax = maxToi;
    let n = 0;
    const tRoot = raySegmentBoxEntry(ox, oy, oz, dx, dy, dz, tMax, box, 6 * this.root);
    if (tRoot < 0) return 0;
    // Inner nodes are tested by multiplying with the inverse direction (no division) and with
    // the near/far planes picked once by the direction's signs; the interval is widened by
    // NODE_RAY_SLACK so that rounding can only keep a node, never drop one. A zero component
    // gives an infinite inverse: its slab then either excludes everything (origin outside it),
    // yields ±Infinity, or NaN when the origin lies exactly on a plane, which the comparisons
    // below ignore (the node is kept). Leaves use the exact raySegmentBoxEntry.
    const ix = 1 / dx;
    const iy = 1 / dy;
    const iz = 1 / dz;
    const nx = ix >= 0 ? 0 : 3;
    const ny = iy >= 0 ? 1 : 4;
    const nz = iz >= 0 ? 2 : 5;
    const fx = 3 - nx;
    const fy = 5 - ny;
    const fz = 7 - nz;
    const enter = this.rayEnter;
    let sp = 0;
    stack[sp] = this.root;
    stackT[sp++] = tRoot;
    while (sp > 0) {
      sp--;
      const node = stack[sp];
      if (stackT[sp] > tMax) continue;
      const c1 = this.child1[node];
      if (c1 === NULL) {
        const id = this.proxyOf[node];
        const t = raySegmentBoxEntry(ox, oy, oz, dx, dy, dz, tMax, tight, 6 * id);
        if (t < 0) continue;
        n++;
        const r = callback(id, t);
        if (typeof r === "number") {
          if (r < 0) break;
          if (r < tMax) tMax = r;
        }
        continue;
      }
      const c2 = this.child2[node];
      for (let side = 0; side < 2; side++) {
        const k = 6 * (side === 0 ? c1 : c2);
        let t0 = (box[k + nx] - ox) * ix;
        let t1 = (box[k + fx] - ox) * ix;
        const y0 = (box[k + ny] - oy) * iy;
        const y1 = (box[k + fy] - oy) * iy;
        const z0 = (box[k + nz] - oz) * iz;
        const z1 = (box[k + fz] - oz) * iz;
        if (y0 > t0) t0 = y0;
        if (z0 > t0) t0 = z0;
        if (y1 < t1) t1 = y1;
        if (z1 < t1) t1 = z1;
        if (!(t0 > 0)) t0 = 0;
        if (tMax < t1) t1 = tMax;
        // Rejected only when clearly empty beyond rounding (see above); NaN keeps the node.
        enter[side] = t0 - NODE_RAY_SLACK * t0 > t1 + NODE_RAY_SLACK * Math.abs(t1) ? -1 : t0;
      }
      const t1 = enter[0];
      const t2 = enter[1];
      // Push the farther child first so that the nearer one is popped first.
      const firstNear = t2 < 0 || (t1 >= 0 && t1 <= t2);
      const near = firstNear ? c1 : c2;
      const far = firstNear ? c2 : c1;
      const tNear = firstNear ? t1 : t2;
      const tFar = firstNear ? t2 : t1;
      if (tFar >= 0) {
        stack[sp] = far;
        stackT[sp++] = tFar * (1 - NODE_RAY_SLACK);
      }
      if (tNear >= 0) {
        stack[sp] = near;
        stackT[sp++] = tNear * (1 - NODE_RAY_SLACK);
      }
    }
    return n;
  }

  /**
   * Checks the tree's invariants and throws an `Error` naming the first violation: parent links,
   * leaf heights 0 and internal heights 1 + max(children), internal boxes equal to the union of
   * their children, leaf fat boxes containing their proxy's tight box, one leaf per proxy, and a
   * free list holding exactly the unused nodes. For tests and debugging (allocates).
   */
  validate(): void {
    const fail = (msg: string): never => {
      throw new Error(`DynamicTree.validate: ${msg}`);
    };
    const seen = new Uint8Array(this.nodeCapacity);
    let reached = 0;
    let leaves = 0;
    if (this.root !== NULL) {
      if (this.parent[this.root] !== NULL) fail("root has a parent");
      const todo: number[] = [this.root];
      while (todo.length > 0) {
        const node = todo.pop() as number;
        if (node < 0 || node >= this.nodeCapacity) fail(`node ${node} out of range`);
        if (seen[node]) fail(`node ${node} reached twice`);
        seen[node] = 1;
        reached++;
        const c1 = this.child1[node];
        const c2 = this.child2[node];
        const k = 6 * node;
        if (c1 === NULL) {
          if (c2 !== NULL) fail(`leaf ${node} has a second child`);
          if (this.heightOf[node] !== 0) fail(`leaf ${node} has height ${this.heightOf[node]}`);
          const id = this.proxyOf[node];
          if (!this.proxies.has(id) || this.leafOf[id] !== node) fail(`leaf ${node} proxy ${id}`);
          const kt = 6 * id;
          const t = this.proxies.box;
          for (let j = 0; j < 3; j++) {
            if (!(this.box[k + j] <= t[kt + j] && this.box[k + 3 + j] >= t[kt + 3 + j])) {
              fail(`leaf ${node} fat box does not contain proxy ${id}'s tight box`);
            }
          }
          leaves++;
          continue;
        }
        if (c2 === NULL) fail(`internal node ${node} lacks a child`);
        if (this.parent[c1] !== node || this.parent[c2] !== node) fail(`node ${node} child links`);
        const h = 1 + Math.max(this.heightOf[c1], this.heightOf[c2]);
        if (this.heightOf[node] !== h) fail(`node ${node} height ${this.heightOf[node]} != ${h}`);
        for (let j = 0; j < 3; j++) {
          const lo = Math.min(this.box[6 * c1 + j], this.box[6 * c2 + j]);
          const hi = Math.max(this.box[6 * c1 + 3 + j], this.box[6 * c2 + 3 + j]);
          if (this.box[k + j] !== lo || this.box[k + 3 + j] !== hi) {
            fail(`node ${node} box is not the union of its children`);
          }
        }
        todo.push(c1, c2);
      }
    }
    if (reached !== this.nodes) fail(`${reached} nodes reachable, ${this.nodes} in use`);
    if (leaves !== this.proxies.count) fail(`${leaves} leaves for ${this.proxies.count} proxies`);
    let free = 0;
    for (let n = this.freeHead; n !== NULL; n = this.parent[n]) {
      if (n < 0 || n >= this.nodeCapacity || seen[n]) fail(`free node ${n} is invalid or in use`);
      if (this.heightOf[n] !== -1) fail(`free node ${n} is not marked free`);
      seen[n] = 1;
      free++;
      if (free > this.nodeCapacity) fail("free list has a cycle");
    }
    if (free + this.nodes !== this.nodeCapacity) {
      fail(`${free} free + ${this.nodes} used != capacity ${this.nodeCapacity}`);
    }
  }

  /** Writes the fat AABB of proxy `id` (tight box + margin, stretched by displacement) to `fat`. */
  private computeFat(id: number, displacement: Vec3 | undefined): void {
    const t = this.proxies.box;
    const f = this.fat;
    const k = 6 * id;
    const m = this.options.margin;
    for (let j = 0; j < 3; j++) {
      f[j] = t[k + j] - m;
      f[3 + j] = t[k + 3 + j] + m;
    }
    if (displacement !== undefined) {
      const s = this.options.displacementMultiplier;
      const dx = s * displacement.x;
      const dy = s * displacement.y;
      const dz = s * displacement.z;
      if (dx < 0) f[0] += dx;
      else f[3] += dx;
      if (dy < 0) f[1] += dy;
      else f[4] += dy;
      if (dz < 0) f[2] += dz;
      else f[5] += dz;
    }
  }

  private growNodes(capacity: number): void {
    const old = this.nodeCapacity;
    this.box = growFloat64(this.box, 6 * capacity);
    this.parent = growInt32(this.parent, capacity);
    this.child1 = growInt32(this.child1, capacity);
    this.child2 = growInt32(this.child2, capacity);
    this.heightOf = growInt32(this.heightOf, capacity);
    this.proxyOf = growInt32(this.proxyOf, capacity);
    this.stack = growInt32(this.stack, capacity + 1);
    this.stackT = growFloat64(this.stackT, capacity + 1);
    this.nodeCapacity = this.parent.length;
    for (let n = this.nodeCapacity - 1; n >= old; n--) this.pushFree(n);
  }

  private pushFree(n: number): void {
    this.parent[n] = this.freeHead;
    this.child1[n] = NULL;
    this.child2[n] = NULL;
    this.heightOf[n] = -1;
    this.proxyOf[n] = NULL;
    this.freeHead = n;
  }

  private allocateNode(): number {
    if (this.freeHead === NULL) this.growNodes(2 * this.nodeCapacity);
    const n = this.freeHead;
    this.freeHead = this.parent[n];
    this.parent[n] = NULL;
    this.child1[n] = NULL;
    this.child2[n] = NULL;
    this.heightOf[n] = 0;
    this.nodes++;
    return n;
  }

  private freeNode(n: number): void {
    this.pushFree(n);
    this.nodes--;
  }

  /**
   * areaIo[0] = the surface area (halved; only compared) of the union of the boxes of nodes a
   * and b (through the array: a double returned from a call V8 does not inline is boxed).
   */
  private unionArea(a: number, b: number): void {
    const x = this.box;
    const i = 6 * a;
    const j = 6 * b;
    const dx = Math.max(x[i + 3], x[j + 3]) - Math.min(x[i], x[j]);
    const dy = Math.max(x[i + 4], x[j + 4]) - Math.min(x[i + 1], x[j + 1]);
    const dz = Math.max(x[i + 5], x[j + 5]) - Math.min(x[i + 2], x[j + 2]);
    areaIo[0] = dx * dy + dy * dz + dz * dx;
  }

  /** areaIo[0] = the surface area (halved) of the box of node a. */
  private area(a: number): void {
    const x = this.box;
    const i = 6 * a;
    const dx = x[i + 3] - x[i];
    const dy = x[i + 4] - x[i + 1];
    const dz = x[i + 5] - x[i + 2];
    areaIo[0] = dx * dy + dy * dz + dz * dx;
  }

  /** Box of node `n` = union of the boxes of nodes a and b. */
  private setUnion(n: number, a: number, b: number): void {
    const x = this.box;
    const k = 6 * n;
    const i = 6 * a;
    const j = 6 * b;
    for (let c = 0; c < 3; c++) {
      x[k + c] = Math.min(x[i + c], x[j + c]);
      x[k + 3 + c] = Math.max(x[i + 3 + c], x[j + 3 + c]);
    }
  }

  /** The node whose sibling `leaf` should become, by SAH branch and bound. */
  private findBestSibling(leaf: number): number {
    const stack = this.stack;
    const stackT = this.stackT;
    this.area(leaf);
    const leafArea = areaIo[0];
    let best = this.root;
    this.unionArea(this.root, leaf);
    let bestCost = areaIo[0];
    let sp = 0;
    stack[sp] = this.root;
    stackT[sp++] = 0;
    while (sp > 0) {
      sp--;
      const node = stack[sp];
      const inherited = stackT[sp];
      this.unionArea(node, leaf);
      const direct = areaIo[0];
      const cost = direct + inherited;
      if (cost < bestCost) {
        bestCost = cost;
        best = node;
      }
      const c1 = this.child1[node];
      if (c1 === NULL) continue;
      this.area(node);
      const childInherited = inherited + direct - areaIo[0];
      if (leafArea + childInherited < bestCost) {
        stack[sp] = this.child2[node];
        stackT[sp++] = childInherited;
        stack[sp] = c1;
        stackT[sp++] = childInherited;
      }
    }
    return best;
  }

  private insertLeaf(leaf: number): void {
    if (this.root === NULL) {
      this.root = leaf;
      this.parent[leaf] = NULL;
      return;
    }
    const sibling = this.findBestSibling(leaf);
    const newParent = this.allocateNode();
    const oldParent = this.parent[sibling];
    this.parent[newParent] = oldParent;
    this.setUnion(newParent, leaf, sibling);
    this.heightOf[newParent] = this.heightOf[sibling] + 1;
    if (oldParent === NULL) this.root = newParent;
    else if (this.child1[oldParent] === sibling) this.child1[oldParent] = newParent;
    else this.child2[oldParent] = newParent;
    this.child1[newParent] = sibling;
    this.child2[newParent] = leaf;
    this.parent[sibling] = newParent;
    this.parent[leaf] = newParent;
    this.rebalanceFrom(newParent);
  }

  private removeLeaf(leaf: number): void {
    if (leaf === this.root) {
      this.root = NULL;
      return;
    }
    const p = this.parent[leaf];
    const gp = this.parent[p];
    const sibling = this.child1[p] === leaf ? this.child2[p] : this.child1[p];
    this.parent[leaf] = NULL;
    if (gp === NULL) {
      this.root = sibling;
      this.parent[sibling] = NULL;
    } else {
      if (this.child1[gp] === p) this.child1[gp] = sibling;
      else this.child2[gp] = sibling;
      this.parent[sibling] = gp;
    }
    this.freeNode(p);
    this.rebalanceFrom(gp);
  }

  /** Walks from `node` to the root, rotating where unbalanced and refitting boxes and heights. */
  private rebalanceFrom(node: number): void {
    let n = node;
    while (n !== NULL) {
      n = this.balance(n);
      const c1 = this.child1[n];
      const c2 = this.child2[n];
      this.heightOf[n] = 1 + Math.max(this.heightOf[c1], this.heightOf[c2]);
      this.setUnion(n, c1, c2);
      n = this.parent[n];
    }
  }

  /** Refits boxes from `node` up to the root, stopping early once a box is unchanged. */
  private refitFrom(node: number): void {
    const x = this.box;
    let n = node;
    while (n !== NULL) {
      const k = 6 * n;
      const a = 6 * this.child1[n];
      const b = 6 * this.child2[n];
      let changed = false;
      for (let c = 0; c < 3; c++) {
        const lo = Math.min(x[a + c], x[b + c]);
        const hi = Math.max(x[a + 3 + c], x[b + 3 + c]);
        if (lo !== x[k + c] || hi !== x[k + 3 + c]) changed = true;
        x[k + c] = lo;
        x[k + 3 + c] = hi;
      }
      if (!changed) return;
      n = this.parent[n];
    }
  }

  /**
   * If the children of internal node `a` differ in height by more than one, rotates the taller
   * child up (its taller grandchild stays with it, the shorter one moves under `a`). Returns the
   * node now at `a`'s place.
   */
  private balance(a: number): number {
    const h = this.heightOf;
    if (this.child1[a] === NULL || h[a] < 2) return a;
    const b = this.child1[a];
    const c = this.child2[a];
    const diff = h[c] - h[b];
    if (diff > 1) return this.rotateUp(a, c, b, false);
    if (diff < -1) return this.rotateUp(a, b, c, true);
    return a;
  }

  /**
   * Rotation: `up` (a child of `a`, the taller) takes `a`'s place; `a` keeps `stay` and takes the
   * shorter child of `up`, and is balanced in turn (recursion depth ≤ the tree height).
   * `upIsChild1` tells on which side `up` hung under `a`.
   */
  private rotateUp(a: number, up: number, stay: number, upIsChild1: boolean): number {
    const h = this.heightOf;
    const f = this.child1[up];
    const g = this.child2[up];
    const pa = this.parent[a];
    this.child1[up] = a;
    this.parent[up] = pa;
    this.parent[a] = up;
    if (pa === NULL) this.root = up;
    else if (this.child1[pa] === a) this.child1[pa] = up;
    else this.child2[pa] = up;
    const tall = h[f] > h[g] ? f : g;
    const short = tall === f ? g : f;
    this.child2[up] = tall;
    if (upIsChild1) this.child1[a] = short;
    else this.child2[a] = short;
    this.parent[short] = a;
    this.setUnion(a, stay, short);
    h[a] = 1 + Math.max(h[stay], h[short]);
    // The demoted node may now be unbalanced itself (a degenerate SAH, e.g. zero-area boxes,
    // keeps choosing the root as sibling): balance it too, so the height stays logarithmic.
    const under = this.balance(a);
    this.setUnion(up, under, tall);
    h[up] = 1 + Math.max(h[under], h[tall]);
    return up;
  }
}
