/**
 * The Web Worker of the browser `WorkerExecutor` (src/parallel/browser.ts): takes the shared
 * control buffers from its first message, applies the executor's messages (new buffers, new
 * shapes) in order and runs a job (src/parallel/worker-state.ts) at each `job` message. See
 * src/parallel/protocol.ts for the protocol.
 */
import { CTRL_READY, type WebWorkerMessage } from "./protocol.js";
import { warmUpJobs } from "./warm-up.js";
import { WorkerState } from "./worker-state.js";

let state: WorkerState | null = null;

addEventListener("message", (e: Event) => {
  const msg = (e as MessageEvent<WebWorkerMessage>).data;
  if (msg.type === "init") {
    const control = new Int32Array(msg.control);
    state = new WorkerState(control, new Float64Array(msg.params));
    // Compile this thread's job code before the first real job (option warmUp).
    if (msg.warmUp) warmUpJobs();
    Atomics.add(control, CTRL_READY, 1);
  } else if (msg.type === "job") state?.runJob();
  else state?.apply(msg);
});
