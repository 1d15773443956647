/**
 * The worker thread of {@link WorkerExecutor} (src/parallel/executor.ts): waits on the job
 * generation of the shared control array, reads pending messages (new buffers, new shapes)
 * synchronously, runs blocks of the job (src/parallel/blocks.ts) and reports it done; exits
 * when the stop flag is set. See src/parallel/protocol.ts for the protocol.
 */
import { type MessagePort, receiveMessageOnPort, workerData } from "node:worker_threads";
import type { Shape } from "../shapes/shape.js";
import { runBlocks } from "./blocks.js";
import {
  CTRL_DONE,
  CTRL_ERROR,
  CTRL_GENERATION,
  CTRL_PAIR_COUNT,
  CTRL_READY,
  CTRL_STOP,
  type SharedBuffers,
  type WorkerInit,
  type WorkerMessage,
} from "./protocol.js";

const init = workerData as WorkerInit;
const control = new Int32Array(init.control);
const params = new Float64Array(init.params);
const port = init.port as unknown as MessagePort;
const shapesById: Shape[] = [];
const slotShapes: (Shape | undefined)[] = [];
let pairs: Float64Array<ArrayBufferLike> = new Float64Array(0);
let pose: Float64Array<ArrayBufferLike> = new Float64Array(0);
let flags: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
let out: Float64Array<ArrayBufferLike> = new Float64Array(0);
let blockLength: Int32Array<ArrayBufferLike> = new Int32Array(0);

function useBuffers(b: SharedBuffers): void {
  pairs = new Float64Array(b.pairs);
  pose = new Float64Array(b.pose);
  flags = new Uint8Array(b.flags);
  out = new Float64Array(b.out);
  blockLength = new Int32Array(b.blockLength);
}

function drainMessages(): void {
  for (;;) {
    const m = receiveMessageOnPort(port);
    if (m === undefined) return;
    const msg = m.message as WorkerMessage;
    if (msg.type === "buffers") useBuffers(msg.buffers);
    else {
      for (let i = 0; i < msg.ids.length; i++) shapesById[msg.ids[i]] = msg.shapes[i];
      for (let i = 0; i + 1 < msg.slots.length; i += 2) {
        const id = msg.slots[i + 1];
        slotShapes[msg.slots[i]] = id < 0 ? undefined : shapesById[id];
      }
    }
  }
}

// Read the generation before reporting ready: the executor dispatches a job only to ready
// workers, so this worker cannot miss the first job it is counted in.
let generation = Atomics.load(control, CTRL_GENERATION);
Atomics.add(control, CTRL_READY, 1);
for (;;) {
  Atomics.wait(control, CTRL_GENERATION, generation);
  generation = Atomics.load(control, CTRL_GENERATION);
  if (Atomics.load(control, CTRL_STOP) !== 0) break;
  try {
    drainMessages();
    runBlocks(
      control,
      pairs,
      Atomics.load(control, CTRL_PAIR_COUNT),
      pose,
      flags,
      slotShapes,
      params[0],
      out,
      blockLength,
    );
  } catch {
    Atomics.store(control, CTRL_ERROR, 1);
  }
  Atomics.add(control, CTRL_DONE, 1);
  Atomics.notify(control, CTRL_DONE);
}
port.close();
