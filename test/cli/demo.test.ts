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
});
