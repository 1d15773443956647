import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

describe("collide demo", () => {
  it("runs on the embedded bunny scene with no arguments and prints its summary", () => {
    const r = runCli(["demo", "--bodies", "500"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Stanford bunny");
    expect(r.stdout).toContain("sphere (exact, Welzl)");
  });

  it("--json: the exact sphere is never larger than Ritter's or the mean one; OBB no larger than AABB", () => {
    const r = runCli(["demo", "--json", "--bodies", "500", "--seed", "7"]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as {
      volumes: { name: string; volume: number; hits: number }[];
    };
    const v = Object.fromEntries(out.volumes.map((x) => [x.name, x]));
    expect(v["sphere (exact, Welzl)"].volume).toBeLessThanOrEqual(v["sphere (Ritter)"].volume);
    expect(v["sphere (exact, Welzl)"].volume).toBeLessThanOrEqual(v["sphere (mean)"].volume);
    // The hull lies inside every other volume, so fewer bodies touch it.
    const hull = out.volumes.find((x) => x.name.startsWith("convex hull"));
    for (const x of out.volumes) expect(hull?.hits ?? Infinity).toBeLessThanOrEqual(x.hits);
  });

  it("rejects a bad option with exit status 1", () => {
    const r = runCli(["demo", "--bodies", "-3"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("--bodies");
  });
});
