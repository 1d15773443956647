/**
 * `prepareWorld`: work of a world's first step done ahead of it, at load time — a level's static
 * structure built now, and the step's code brought to V8's optimising tier on a private copy of
 * a sample of the world's bodies.
 *
 * Why: in a fresh process most of a level's first step is not the step's own work but V8 compiling
 * it (measured on the level scene of bench/scenes.ts, 100,000 static boxes and 1,000 moving
 * bodies: about 60 % of the first step's process CPU was TurboFan on V8's background threads,
 * mostly the box narrow phase, and the main thread ran the rest in the interpreter and baseline
 * tiers, collecting the doubles they box). A world stepped once before runs its next first step
 * at about a third of that. The sample is the world's own shapes (the same objects, so the
 * same hidden classes and type feedback) at their own poses, with the static bodies around them,
 * walked a little for `PREPARE_STEPS` steps in a separate world with the same options (no
 * executor: its worker threads warm themselves up; a broad phase given as an instance, which
 * belongs to `world`, replaced by the default grid). The given world is not changed, apart from
 * its static structure and its broad phase being built (as its next step or query would), so
 * every answer of its steps — pairs, contacts, events — is the same with or without it.
 */
import { CollideError } from "../errors.js";
import { makeRandom } from "../math/random.js";
import { CollisionWorld, checkWorldArg } from "./collision-world.js";
import type { BodyHandle } from "./handles.js";

/** Most moving bodies of the sample (spread evenly over the world's moving bodies). */
export const PREPARE_MOVING = 128;
/** Most static bodies of the sample: those around the sampled moving bodies. */
export const PREPARE_STATIC = 1024;
/** Steps the sample is walked. */
export const PREPARE_STEPS = 12;
/** Largest displacement per step and axis of a sampled body, fraction of its box's largest side. */
const PREPARE_WALK = 0.01;
/** Margin of a sampled body's search for static neighbours, fraction of its box's largest side. */
const PREPARE_REACH = 0.25;

/**
 * Does the first step's preparatory work of `world` now (module docs): builds its static
 * structure and broad phase and steps a private copy of up to `PREPARE_MOVING` of its
 * moving bodies with up to `PREPARE_STATIC` static bodies around them, `PREPARE_STEPS`
 * times. Call it after adding a level, before its first step; it never changes an answer of
 * `world`. Returns the number of contacts of the sample's last step (nothing of it is dead
 * code). Allocates (the sample world), once. Throws `CollideError` when called from inside one
 * of `world`'s query callbacks (as its queries do); a pair of the sample with no routine
 * (`unsupported_pair`) ends the warm-up, not the call.
 */
export function prepareWorld(world: CollisionWorld): number {
  checkWorldArg(world);
  const all = world.handles();
  const moving: BodyHandle[] = [];
  for (const h of all) if (world.getKind(h) !== "static") moving.push(h);
  const o = world.options;
  const sample = new CollisionWorld({
    // A BroadPhase instance given to `world` is that world's alone (and holds its bodies): the
    // sample takes the default named one instead (a GPU broad phase too, which would need
    // `stepAsync`); the narrow phase, most of the warm-up, is the same.
    broadphase: typeof o.broadphase === "string" ? o.broadphase : "grid",
    prediction: o.prediction,
    aabbMargin: o.aabbMargin,
    maxPairs: o.maxPairs,
    warmStart: o.warmStart,
    sleepAfterSteps: o.sleepAfterSteps,
    reorderSlotsAt: o.reorderSlotsAt,
  });
  // The sample takes every kind of moving body (shape type, sensor or not) in turn, each kind's
  // bodies evenly spaced: a stride over the handles alone can meet one kind only (a scene that
  // alternates spheres and boxes, sampled every fourth body).
  const groups = new Map<string, BodyHandle[]>();
  for (const h of moving) {
    const key = `${world.getShape(h).type}/${world.isSensor(h)}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [h]);
    else g.push(h);
  }
  const lists = [...groups.values()];
  // Each kind's share of the sample: equal shares, what a small kind leaves given to the others.
  const quota = lists.map(() => 0);
  let left = Math.min(PREPARE_MOVING, moving.length);
  while (left > 0) {
    let open = 0;
    for (let i = 0; i < lists.length; i++) if (quota[i] < lists[i].length) open++;
    const share = Math.max(1, Math.floor(left / open));
    for (let i = 0; i < lists.length && left > 0; i++) {
      const add = Math.min(share, lists[i].length - quota[i], left);
      quota[i] += add;
      left -= add;
    }
  }
  // The kinds interleaved (each sampled body's partner below is mostly of another kind), each
  // kind's r-th body of q the one at (r + ½)·n / q of its n: evenly spaced.
  const picked: BodyHandle[] = [];
  for (let r = 0; picked.length < moving.length && r < moving.length; r++) {
    let added = 0;
    for (let i = 0; i < lists.length; i++) {
      if (r >= quota[i]) continue;
      picked.push(lists[i][Math.floor(((r + 0.5) * lists[i].length) / quota[i])]);
      added++;
    }
    if (added === 0) break;
  }
  // The static bodies around the sampled ones (the query builds `world`'s static structure).
  const statics = new Set<BodyHandle>();
  const found: BodyHandle[] = [];
  const box = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  for (const h of picked) {
    if (statics.size >= PREPARE_STATIC) break;
    world.getAabb(h, box);
    const side = Math.max(
      box.max.x - box.min.x,
      box.max.y - box.min.y,
      box.max.z - box.min.z,
      Number.MIN_VALUE,
    );
    if (!Number.isFinite(side)) continue;
    const m = PREPARE_REACH * side;
    found.length = 0;
    world.overlapAabb(
      { x: box.min.x - m, y: box.min.y - m, z: box.min.z - m },
      { x: box.max.x + m, y: box.max.y + m, z: box.max.z + m },
      found,
    );
    for (const s of found) {
      if (statics.size < PREPARE_STATIC && world.getKind(s) === "static") statics.add(s);
    }
  }
  if (picked.length === 0) {
    // Only static bodies: their structure is all the first step builds.
    world.overlapAabb({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 });
    return 0;
  }
  const copy = (h: BodyHandle): BodyHandle => {
    const f = world.getFilter(h);
    const kind = world.getKind(h);
    return sample.addBody({
      shape: world.getShape(h),
      pose: world.getPose(h),
      kind,
      layer: f.layer,
      mask: f.mask,
      sensor: world.isSensor(h),
      ccd: kind !== "static" && world.isCcd(h),
    });
  };
  for (const h of statics) copy(h);
  // Pushed one by one, as an application lists its handles (the array's elements kind is part of
  // what `setPoses`'s compiled code checks).
  const handles: BodyHandle[] = [];
  for (const h of picked) handles.push(copy(h));
  // Pairs of two moving bodies, few in a level's sample (its bodies are spread out): every
  // fourth sampled body gets the next one's shape laid over it, so that the compiled pair code
  // has seen moving bodies of each sampled type on both sides.
  const partners: number[] = [];
  for (let i = 0; i + 1 < picked.length && handles.length < PREPARE_MOVING * 2; i += 4) {
    const next = picked[i + 1];
    const kind = world.getKind(next);
    partners.push(i);
    handles.push(
      sample.addBody({
        shape: world.getShape(next),
        pose: world.getPose(picked[i]),
        kind,
        sensor: world.isSensor(next),
        ccd: kind !== "static" && world.isCcd(next),
      }),
    );
  }
  // The walk: 7 numbers per sampled body (translation, rotation), as `setPoses` takes them.
  const poses = new Float64Array(7 * handles.length);
  const steps = new Float64Array(handles.length);
  const pose = world.getPose(picked[0]);
  for (let i = 0; i < handles.length; i++) {
    // A partner starts at the pose of the body it lies over.
    const from = i < picked.length ? picked[i] : picked[partners[i - picked.length]];
    world.getPose(from, pose);
    world.getAabb(from, box);
    const side = Math.max(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z);
    steps[i] = Number.isFinite(side) ? PREPARE_WALK * side : 0;
    poses.set(
      [
        pose.translation.x,
        pose.translation.y,
        pose.translation.z,
        pose.rotation.x,
        pose.rotation.y,
        pose.rotation.z,
        pose.rotation.w,
      ],
      7 * i,
    );
  }
  const rng = makeRandom(0x9e3779b9);
  try {
    sample.step();
    for (let s = 1; s < PREPARE_STEPS; s++) {
      for (let i = 0; i < handles.length; i++) {
        for (let j = 0; j < 3; j++) poses[7 * i + j] += steps[i] * (2 * rng() - 1);
      }
      sample.setPoses(handles, poses);
      sample.step();
    }
  } catch (e) {
    // A partner laid over another body can make a pair of shape types that `world` never
    // meets and that has no routine: the warm-up stops there (the sample is not `world`).
    if (!(e instanceof CollideError) || e.code !== "unsupported_pair") throw e;
  }
  return sample.contactCount;
}
