/**
 * What every worker of a `WorkerExecutor` keeps, Node's (src/parallel/worker.ts) and the
 * browser's (src/parallel/web-worker.ts) alike: the job buffers and the shapes by slot, updated
 * by the executor's messages, and the job itself (src/parallel/blocks.ts), reported done in the
 * control array. See src/parallel/protocol.ts for the protocol.
 */
// A worker answers every pair of the built-in types (the pair table's default registrations).
import "../narrowphase/dispatch.js";
// Every built-in shape type: the shapes arrive as plain data, made by no constructor here.
import "../index.js";
import type { CandidateMergeJob } from "../broadphase/candidate-merge.js";
import type { CellQueryJob } from "../broadphase/cell-query.js";
import type { Shape } from "../shapes/shape.js";
import { emptyPoseBoxesJob, type PoseBoxesJob } from "../world/pose-boxes.js";
import { emptyStaticQueryJob, type StaticQueryJob } from "../world/static-query.js";
import {
  runApplyChunks,
  runBlocks,
  runCellChunks,
  runMergeChunks,
  runPoseChunks,
  runStaticChunks,
} from "./blocks.js";
import {
  CTRL_CELL_CHUNK_SIZE,
  CTRL_CELL_CHUNKS,
  CTRL_CELL_CLASS_BITS,
  CTRL_CELL_GENERATION,
  CTRL_CELL_MOVED,
  CTRL_CELL_ROOM,
  CTRL_CELL_SHIFT,
  CTRL_CELL_TABLE_GENERATION,
  CTRL_CELL_UPDATE,
  CTRL_DONE,
  CTRL_ERROR,
  CTRL_JOB_KIND,
  CTRL_MERGE_CHUNK_SIZE,
  CTRL_MERGE_CHUNKS,
  CTRL_MERGE_FILTER,
  CTRL_MERGE_GENERATION,
  CTRL_MERGE_NEW,
  CTRL_MERGE_OLD,
  CTRL_NARROW_CARRY,
  CTRL_PAIR_COUNT,
  CTRL_POSE_CHUNK_SIZE,
  CTRL_POSE_CHUNKS,
  CTRL_POSE_COUNT,
  CTRL_POSE_GRID,
  CTRL_STATIC_CHUNK_SIZE,
  CTRL_STATIC_CHUNKS,
  CTRL_STATIC_COUNT,
  CTRL_STATIC_VERSION,
  JOB_CELLS,
  JOB_MERGE,
  JOB_POSE_APPLY,
  JOB_POSES,
  JOB_STATIC,
  type WorkerMessage,
} from "./protocol.js";

/** A worker's view of the shared job state. */
export class WorkerState {
  private readonly shapesById: Shape[] = [];
  private readonly slotShapes: (Shape | undefined)[] = [];
  private pairs: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private pose: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private flags: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private radius: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private dirty: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private out: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private blockLength: Int32Array<ArrayBufferLike> = new Int32Array(0);
  /** The candidate merge's arrays (counts set per job from the control array). */
  private readonly merge: CandidateMergeJob = {
    oldKeys: new Float64Array(0),
    oldLo: new Int32Array(0),
    oldHi: new Int32Array(0),
    oldCount: 0,
    chunkSize: 1,
    newKeys: new Float64Array(0),
    newCount: 0,
    movedStamp: new Int32Array(0),
    generation: 0,
    box: new Float64Array(0),
    filter: 0,
    outKeys: new Float64Array(0),
    outLo: new Int32Array(0),
    outHi: new Int32Array(0),
    pairKeys: new Float64Array(0),
    chunkLengths: new Int32Array(0),
    outCount: 0,
  };

  /** The poses job's arrays (counts set per job from the control array). */
  private readonly poses: PoseBoxesJob = emptyPoseBoxesJob(1);

  /** The grid's cell queries' arrays (counts set per job from the control array). */
  private readonly cells: CellQueryJob = {
    update: 0,
    classBits: 0,
    oldRange: new Float64Array(0),
    moved: new Int32Array(0),
    movedCount: 0,
    chunkSize: 1,
    movedStamp: new Int32Array(0),
    generation: 0,
    inGrid: new Uint8Array(0),
    fat: new Float64Array(0),
    range: new Float64Array(0),
    slotX: new Float64Array(0),
    slotY: new Float64Array(0),
    slotZ: new Float64Array(0),
    slotStamp: new Int32Array(0),
    slotStart: new Int32Array(0),
    slotCount: new Int32Array(0),
    slotCap: new Int32Array(0),
    tableShift: 32,
    tableGeneration: 0,
    pBody: new Int32Array(0),
    keys: new Float64Array(0),
    chunkRoom: 1,
    chunkLengths: new Int32Array(0),
  };

  /** The static queries' arrays (counts set per job from the control array). */
  private readonly statics: StaticQueryJob = emptyStaticQueryJob();

  /** `control` and `params`: the executor's shared control array and job parameters. */
  constructor(
    private readonly control: Int32Array,
    private readonly params: Float64Array,
  ) {}

  /** Applies one message of the executor (new buffers, new shapes). */
  apply(msg: WorkerMessage): void {
    if (msg.type === "buffers") {
      const b = msg.buffers;
      this.pairs = new Float64Array(b.pairs);
      this.pose = new Float64Array(b.pose);
      this.flags = new Uint8Array(b.flags);
      this.radius = new Float64Array(b.radius);
      this.dirty = new Uint8Array(b.dirty);
      this.out = new Float64Array(b.out);
      this.blockLength = new Int32Array(b.blockLength);
    } else if (msg.type === "pose-buffers") {
      const b = msg.buffers;
      const p = this.poses;
      p.poses = new Float64Array(b.poses);
      p.slots = new Int32Array(b.slots);
      p.pose = new Float64Array(b.pose);
      p.boxes = new Float64Array(b.boxes);
      p.status = new Int32Array(b.status);
    } else if (msg.type === "pose-apply-buffers") {
      const b = msg.buffers;
      const p = this.poses;
      p.aabb = new Float64Array(b.aabb);
      p.bpBox = new Float64Array(b.bpBox);
      p.kind = new Uint8Array(b.kind);
      p.left = new Uint8Array(b.left);
      p.gridBox = new Float64Array(b.gridBox);
      p.fat = new Float64Array(b.fat);
      p.pad = new Float64Array(b.pad);
    } else if (msg.type === "merge-buffers") {
      const b = msg.buffers;
      const m = this.merge;
      m.oldKeys = new Float64Array(b.oldKeys);
      m.oldLo = new Int32Array(b.oldLo);
      m.oldHi = new Int32Array(b.oldHi);
      m.newKeys = new Float64Array(b.newKeys);
      m.movedStamp = new Int32Array(b.movedStamp);
      m.box = new Float64Array(b.box);
      m.outKeys = new Float64Array(b.outKeys);
      m.outLo = new Int32Array(b.outLo);
      m.outHi = new Int32Array(b.outHi);
      m.pairKeys = new Float64Array(b.pairKeys);
      m.chunkLengths = new Int32Array(b.chunkLengths);
    } else if (msg.type === "cell-buffers") {
      const b = msg.buffers;
      const q = this.cells;
      q.oldRange = new Float64Array(b.oldRange);
      q.slotCap = new Int32Array(b.slotCap);
      q.moved = new Int32Array(b.moved);
      q.movedStamp = new Int32Array(b.movedStamp);
      q.inGrid = new Uint8Array(b.inGrid);
      q.fat = new Float64Array(b.fat);
      q.range = new Float64Array(b.range);
      q.slotX = new Float64Array(b.slotX);
      q.slotY = new Float64Array(b.slotY);
      q.slotZ = new Float64Array(b.slotZ);
      q.slotStamp = new Int32Array(b.slotStamp);
      q.slotStart = new Int32Array(b.slotStart);
      q.slotCount = new Int32Array(b.slotCount);
      q.pBody = new Int32Array(b.pBody);
      q.keys = new Float64Array(b.keys);
      q.chunkLengths = new Int32Array(b.chunkLengths);
    } else if (msg.type === "static-buffers") {
      const b = msg.buffers;
      const q = this.statics;
      q.bodies = new Int32Array(b.bodies);
      q.box = new Float64Array(b.box);
      q.scBox = new Float64Array(b.scBox);
      q.scStart = new Int32Array(b.scStart);
      q.scCount = new Int32Array(b.scCount);
      q.scVersion = new Int32Array(b.scVersion);
      q.pool = new Int32Array(b.pool);
      q.keys = new Float64Array(b.keys);
      q.serial = new Int32Array(b.serial);
      q.chunkLengths = new Int32Array(b.chunkLengths);
    } else {
      for (let i = 0; i < msg.ids.length; i++) this.shapesById[msg.ids[i]] = msg.shapes[i];
      for (let i = 0; i + 1 < msg.slots.length; i += 2) {
        const id = msg.slots[i + 1];
        this.slotShapes[msg.slots[i]] = id < 0 ? undefined : this.shapesById[id];
      }
    }
  }

  /**
   * Takes blocks of the current job until none is left, then reports this worker done (an
   * error sets the error flag; the calling thread then redoes the unfinished block).
   */
  runJob(): void {
    const control = this.control;
    try {
      const kind = Atomics.load(control, CTRL_JOB_KIND);
      if (kind === JOB_CELLS) {
        const q = this.cells;
        q.movedCount = control[CTRL_CELL_MOVED];
        q.chunkSize = control[CTRL_CELL_CHUNK_SIZE];
        q.generation = control[CTRL_CELL_GENERATION];
        q.tableShift = control[CTRL_CELL_SHIFT];
        q.tableGeneration = control[CTRL_CELL_TABLE_GENERATION];
        q.chunkRoom = control[CTRL_CELL_ROOM];
        q.update = control[CTRL_CELL_UPDATE];
        q.classBits = control[CTRL_CELL_CLASS_BITS];
        runCellChunks(control, q, control[CTRL_CELL_CHUNKS]);
      } else if (kind === JOB_POSES) {
        const p = this.poses;
        p.count = control[CTRL_POSE_COUNT];
        p.chunkSize = control[CTRL_POSE_CHUNK_SIZE];
        p.halfPrediction = this.params[1];
        runPoseChunks(control, p, this.slotShapes, control[CTRL_POSE_CHUNKS]);
      } else if (kind === JOB_POSE_APPLY) {
        const p = this.poses;
        p.count = control[CTRL_POSE_COUNT];
        p.chunkSize = control[CTRL_POSE_CHUNK_SIZE];
        p.grid = control[CTRL_POSE_GRID];
        p.halfPrediction = this.params[1];
        runApplyChunks(control, p, control[CTRL_POSE_CHUNKS]);
      } else if (kind === JOB_STATIC) {
        const q = this.statics;
        q.count = control[CTRL_STATIC_COUNT];
        q.chunkSize = control[CTRL_STATIC_CHUNK_SIZE];
        q.staticVersion = control[CTRL_STATIC_VERSION];
        runStaticChunks(control, q, control[CTRL_STATIC_CHUNKS]);
      } else if (kind === JOB_MERGE) {
        const m = this.merge;
        m.oldCount = control[CTRL_MERGE_OLD];
        m.chunkSize = control[CTRL_MERGE_CHUNK_SIZE];
        m.newCount = control[CTRL_MERGE_NEW];
        m.generation = control[CTRL_MERGE_GENERATION];
        m.filter = control[CTRL_MERGE_FILTER];
        runMergeChunks(control, m, control[CTRL_MERGE_CHUNKS]);
      } else
        runBlocks(
          control,
          this.pairs,
          Atomics.load(control, CTRL_PAIR_COUNT),
          this.pose,
          this.flags,
          this.radius,
          Atomics.load(control, CTRL_NARROW_CARRY) === 1 ? this.dirty : null,
          this.slotShapes,
          this.params[0],
          this.out,
          this.blockLength,
        );
    } catch {
      Atomics.store(control, CTRL_ERROR, 1);
    }
    Atomics.add(control, CTRL_DONE, 1);
    Atomics.notify(control, CTRL_DONE);
  }
}
