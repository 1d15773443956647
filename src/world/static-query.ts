/**
 * The moving bodies' queries of the static structure in a world step, cut into chunks that any
 * thread may run (the world's `buildPairs`, src/world/collision-world.ts): each body of the
 * list whose kept static candidates are still valid — found at the current static build, with a
 * fat box that still contains the body's broad-phase box (src/world/body-kinds.ts, "static
 * candidates") — tests them against its box and writes the pair key of every static body whose
 * box overlaps or touches its own to the chunk's output region; a body whose candidates must be
 * refreshed (a new BVH query, which allocates in the shared candidate pool) is listed for the
 * calling thread instead, as is a body whose pairs would pass the chunk's room. The keys are
 * those of `BodyKinds.queryStatic`, the same set whatever the thread (the world sorts them).
 */
import { PAIR_KEY_BASE } from "../broadphase/pair-set.js";

/** Bodies per chunk of the static queries. */
export const STATIC_QUERY_CHUNK = 1024;
/** Output keys per body of a chunk's region (a body with more goes to the calling thread). */
export const STATIC_QUERY_ROOM_PER_BODY = 16;

/**
 * The arrays of one static query job. Every array a worker thread reads or writes lives in a
 * `SharedArrayBuffer` when the job runs in parallel.
 */
export interface StaticQueryJob {
  /** The querying bodies (moving, bounded, alive): `bodies[0 .. count)`. */
  bodies: Int32Array;
  count: number;
  /** Bodies per chunk (a positive integer). */
  chunkSize: number;
  /** Broad-phase boxes by slot, 6 doubles each (min xyz, max xyz). */
  box: Float64Array;
  /** Kept static candidates by slot: fat box (6 doubles), range in `pool`, static build found at. */
  scBox: Float64Array;
  scStart: Int32Array;
  scCount: Int32Array;
  scVersion: Int32Array;
  /** The candidate pool: static slots. */
  pool: Int32Array;
  /** The current static build (candidates of another are stale). */
  staticVersion: number;
  /** Output keys: chunk c's region is `[c · chunkSize · ROOM, (c + 1) · chunkSize · ROOM)`. */
  keys: Float64Array;
  /** Bodies left to the calling thread: chunk c's region is `[c · chunkSize, (c + 1) · chunkSize)`. */
  serial: Int32Array;
  /** Per chunk: `[2c]` keys written, −1 until done (stored atomically last); `[2c + 1]` bodies listed in `serial`. */
  chunkLengths: Int32Array;
}

/** Number of chunks of `job` (0 when no body queries). */
export function staticQueryChunks(job: StaticQueryJob): number {
  return Math.ceil(job.count / job.chunkSize);
}

/** An empty job (arrays of length 0), for a worker's initial state. */
export function emptyStaticQueryJob(): StaticQueryJob {
  return {
    bodies: new Int32Array(0),
    count: 0,
    chunkSize: STATIC_QUERY_CHUNK,
    box: new Float64Array(0),
    scBox: new Float64Array(0),
    scStart: new Int32Array(0),
    scCount: new Int32Array(0),
    scVersion: new Int32Array(0),
    pool: new Int32Array(0),
    staticVersion: 0,
    keys: new Float64Array(0),
    serial: new Int32Array(0),
    chunkLengths: new Int32Array(0),
  };
}

/**
 * Runs chunk `c` of `job` (module docs) and publishes its lengths in `job.chunkLengths`
 * (the key count stored atomically last, after which the chunk's output is visible to every
 * thread).
 */
export function staticQueryChunk(job: StaticQueryJob, c: number): void {
  const { bodies, box, scBox: f, scStart, scCount, scVersion, pool, keys, serial } = job;
  const version = job.staticVersion;
  const first = c * job.chunkSize;
  const last = Math.min(job.count, first + job.chunkSize);
  const room = job.chunkSize * STATIC_QUERY_ROOM_PER_BODY;
  const keyStart = c * room;
  const keyEnd = keyStart + room;
  let w = keyStart;
  let s = first;
  for (let i = first; i < last; i++) {
    const d = bodies[i];
    const o = 6 * d;
    const x0 = box[o];
    const y0 = box[o + 1];
    const z0 = box[o + 2];
    const x1 = box[o + 3];
    const y1 = box[o + 4];
    const z1 = box[o + 5];
    const count = scCount[d];
    const kept =
      scVersion[d] === version &&
      f[o] <= x0 &&
      f[o + 1] <= y0 &&
      f[o + 2] <= z0 &&
      f[o + 3] >= x1 &&
      f[o + 4] >= y1 &&
      f[o + 5] >= z1;
    if (!kept || w + count > keyEnd) {
      serial[s++] = d;
      continue;
    }
    const start = scStart[d];
    for (let j = start; j < start + count; j++) {
      const id = pool[j];
      const k = 6 * id;
      if (box[k] > x1 || box[k + 3] < x0 || box[k + 1] > y1 || box[k + 4] < y0) continue;
      if (box[k + 2] > z1 || box[k + 5] < z0) continue;
      keys[w++] = id < d ? id * PAIR_KEY_BASE + d : d * PAIR_KEY_BASE + id;
    }
  }
  job.chunkLengths[2 * c + 1] = s - first;
  Atomics.store(job.chunkLengths, 2 * c, w - keyStart);
}
