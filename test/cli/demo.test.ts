import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

interface DemoJson {
  bodies: number;
  frames: number;
  pairsPerFrame: number;
  contactsPerFrame: number;
  msPerFrame: { broad: number; narrow: number; total: number };
  maxPenetration: number;
  tolerance: number;
  boundingVolumes: { volumes: { name: string; volume: number; hits: number }[] };
}

describe("collide demo", () => {
  it("runs the embedded bunny scene to its summary", () => {
    const r = runCli(["demo", "--bodies", "300", "--frames", "30"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Stanford bunny");
    expect(r.stdout).toContain("sphere (exact, Welzl)");
    expect(r.stdout).toContain("bunny (mesh)");
    expect(r.stdout).toContain("— ok");
  });

  it("--json prints the documented object; nothing ends deeper than the tolerance", () => {
    const r = runCli(["demo", "--json", "--bodies", "400", "--frames", "40", "--seed", "7"]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as DemoJson;
    for (const k of [
      "bodies",
      "frames",
      "pairsPerFrame",
      "contactsPerFrame",
      "msPerFrame",
      "maxPenetration",
      "tolerance",
    ]) {
      expect(out).toHaveProperty(k);
    }
    expect(out.bodies).toBe(400);
    expect(out.frames).toBe(40);
    expect(out.contactsPerFrame).toBeGreaterThan(0);
    expect(out.msPerFrame.total).toBeGreaterThan(0);
    expect(out.maxPenetration).toBeLessThanOrEqual(out.tolerance);
    // Bounding volumes: the exact sphere is never larger than Ritter's or the mean one, and the
    // hull lies inside every other volume, so no more bodies touch it.
    const v = Object.fromEntries(out.boundingVolumes.volumes.map((x) => [x.name, x]));
    expect(v["sphere (exact, Welzl)"].volume).toBeLessThanOrEqual(v["sphere (Ritter)"].volume);
    expect(v["sphere (exact, Welzl)"].volume).toBeLessThanOrEqual(v["sphere (mean)"].volume);
    const hull = out.boundingVolumes.volumes.find((x) => x.name.startsWith("convex hull"));
    for (const x of out.boundingVolumes.volumes)
      expect(hull?.hits ?? Infinity).toBeLessThanOrEqual(x.hits);
  });

  it("is deterministic: the same seed gives the same pairs and contacts", () => {
    const a = JSON.parse(
      runCli(["demo", "--json", "--bodies", "200", "--frames", "20"]).stdout,
    ) as DemoJson;
    const b = JSON.parse(
      runCli(["demo", "--json", "--bodies", "200", "--frames", "20"]).stdout,
    ) as DemoJson;
    expect(a.pairsPerFrame).toBe(b.pairsPerFrame);
    expect(a.contactsPerFrame).toBe(b.contactsPerFrame);
    expect(a.maxPenetration).toBe(b.maxPenetration);
  });

  it("rejects a bad option with exit status 1", () => {
    for (const args of [
      ["--bodies", "-3"],
      ["--frames", "0"],
      ["--seed", "x"],
    ]) {
      const r = runCli(["demo", ...args]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(args[0]);
    }
  });

  it("refuses seeds that are not integers in [0, 2^32 − 1] instead of wrapping them", () => {
    for (const seed of ["4294967296", "4294967297", "1e300", "2e300", "-1", "1.5", "0x10", ""]) {
      const r = runCli(["demo", "--seed", seed, "--bodies", "10", "--frames", "1"]);
      expect(r.status, seed).toBe(1);
      expect(r.stderr, seed).toContain("--seed must be an integer in [0, 4294967295]");
      expect(r.stdout, seed).toBe("");
    }
  });

  it("accepts both ends of the seed range", () => {
    const run = (seed: string) => {
      const r = runCli(["demo", "--json", "--seed", seed, "--bodies", "50", "--frames", "2"]);
      expect(r.status, seed).toBe(0);
      return JSON.parse(r.stdout) as DemoJson & { boundingVolumes: { cloud: { seed: number } } };
    };
    const lo = run("0");
    const hi = run("4294967295");
    expect(lo.boundingVolumes.cloud.seed).toBe(0);
    expect(hi.boundingVolumes.cloud.seed).toBe(4294967295);
  });

  it("bounds --bodies and --frames by their documented maximum", () => {
    const help = runCli(["demo", "--help"]).stdout;
    expect(help).toContain("1 to 100000");
    for (const args of [
      ["--bodies", "1e9"],
      ["--bodies", "100001"],
      ["--frames", "100001"],
      ["--frames", "1e9"],
    ]) {
      const r = runCli(["demo", ...args]);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr, args.join(" ")).toContain(`${args[0]} must be an integer in [1, 100000]`);
    }
  });
});
