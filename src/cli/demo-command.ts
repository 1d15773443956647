/** `collide demo`: runs the embedded demo with a progress bar and prints its summary or JSON. */
import cliProgress from "cli-progress";
import { formatDemo, runDemo } from "./demo.js";

/** Runs the demo with the command's options; the progress bar goes to standard error. */
export function runDemoCommand(o: {
  bodies: number;
  frames: number;
  seed: number;
  gravity?: boolean;
  json?: boolean;
}): void {
  const bar = new cliProgress.SingleBar(
    {
      format: "collide demo |{bar}| {value}/{total} frames",
      stream: process.stderr,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(o.frames, 0);
  let r: ReturnType<typeof runDemo>;
  try {
    r = runDemo({
      bodies: o.bodies,
      frames: o.frames,
      seed: o.seed,
      gravity: o.gravity === true,
      onFrame: (f) => bar.update(f),
    });
  } finally {
    bar.stop();
  }
  if (o.json) {
    const { boundingVolumes, staticBodies, ...main } = r;
    process.stdout.write(`${JSON.stringify({ ...main, staticBodies, boundingVolumes })}\n`);
  } else process.stdout.write(`${formatDemo(r)}\n`);
}
