/**
 * The worker thread of the Node `WorkerExecutor` (src/parallel/executor.ts): waits on the job
 * generation of the shared control array, reads pending messages (new buffers, new shapes)
 * synchronously, runs the job (src/parallel/worker-state.ts) and reports it done; exits when
 * the stop flag is set. See src/parallel/protocol.ts for the protocol.
 */
import { type MessagePort, receiveMessageOnPort, workerData } from "node:worker_threads";
import {
  CTRL_GENERATION,
  CTRL_READY,
  CTRL_STOP,
  type WorkerInit,
  type WorkerMessage,
} from "./protocol.js";
import { warmUpJobs } from "./warm-up.js";
import { WorkerState } from "./worker-state.js";

const init = workerData as WorkerInit;
const control = new Int32Array(init.control);
const port = init.port as unknown as MessagePort;
const state = new WorkerState(control, new Float64Array(init.params));

// Compile this thread's job code on a synthetic scene before the first real job (option warmUp).
if (init.warmUp) warmUpJobs();
// Read the generation before reporting ready: the executor dispatches a job only to ready
// workers, so this worker cannot miss the first job it is counted in.
let generation = Atomics.load(control, CTRL_GENERATION);
Atomics.add(control, CTRL_READY, 1);
for (;;) {
  Atomics.wait(control, CTRL_GENERATION, generation);
  generation = Atomics.load(control, CTRL_GENERATION);
  if (Atomics.load(control, CTRL_STOP) !== 0) break;
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
    state.apply(m.message as WorkerMessage);
  }
  state.runJob();
}
port.close();
