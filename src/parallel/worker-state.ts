/**
 * What every worker of a `WorkerExecutor` keeps, Node's (src/parallel/worker.ts) and the
 * browser's (src/parallel/web-worker.ts) alike: the job buffers and the shapes by slot, updated
 * by the executor's messages, and the job itself (src/parallel/blocks.ts), reported done in the
 * control array. See src/parallel/protocol.ts for the protocol.
 */
// A worker answers every pair of the built-in types (the pair table's default registrations).
import "../narrowphase/dispatch.js";
import type { Shape } from "../shapes/shape.js";
import { runBlocks } from "./blocks.js";
import { CTRL_DONE, CTRL_ERROR, CTRL_PAIR_COUNT, type WorkerMessage } from "./protocol.js";

/** A worker's view of the shared job state. */
export class WorkerState {
  private readonly shapesById: Shape[] = [];
  private readonly slotShapes: (Shape | undefined)[] = [];
  private pairs: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private pose: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private flags: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private out: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private blockLength: Int32Array<ArrayBufferLike> = new Int32Array(0);

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
      this.out = new Float64Array(b.out);
      this.blockLength = new Int32Array(b.blockLength);
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
      runBlocks(
        control,
        this.pairs,
        Atomics.load(control, CTRL_PAIR_COUNT),
        this.pose,
        this.flags,
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
