/** `collide demo`: runs the embedded demo and prints its summary or JSON. */
import { formatDemo, runDemo } from "./demo.js";

/** Runs the demo with the command's options. */
export function runDemoCommand(o: { bodies: number; seed: number; json?: boolean }): void {
  const r = runDemo({ bodies: o.bodies, seed: o.seed });
  if (o.json) process.stdout.write(`${JSON.stringify(r)}\n`);
  else process.stdout.write(`${formatDemo(r)}\n`);
}
