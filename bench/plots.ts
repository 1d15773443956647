/**
 * SVG plots of a benchmark run (`npm run plots`, and `npm run bench` after each run): world step
 * time against the number of bodies for each engine (log–log), ray casts per second, and the
 * cost of pair queries per engine. Charts are Vega-Lite specifications rendered headless to SVG
 * by Vega (no browser, no canvas), written to docs/plots/.
 *
 * `tsx bench/plots.ts [RESULTS.json]` plots the given run, by default the newest full run in
 * bench/results/ (runs with `--quick` are skipped).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";

/** One scene of a results file (bench/run.ts). */
interface SceneResult {
  name: string;
  n: number;
  engines: Record<
    string,
    { medianMs: number | null; raysPerSecond?: number; nsPerCall?: number; engine?: string }
  >;
}

/** A results file: the machine and the scenes. */
interface BenchResults {
  machine: { cpu: string; cores: number; node: string; date: string };
  scenes: SceneResult[];
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The newest full run in bench/results/ (file names are ISO time stamps). */
export function latestResults(dir = join(ROOT, "bench/results")): string {
  const runs = readdirSync(dir)
    .filter((f) => f.endsWith(".json") && !f.includes("quick"))
    .sort();
  if (runs.length === 0) throw new Error(`no benchmark results in ${dir}`);
  return join(dir, runs[runs.length - 1]);
}

const WIDTH = 520;

/** World step: median ms per step against bodies, one line per engine, log–log. */
function worldSpec(r: BenchResults): TopLevelSpec {
  const values = r.scenes
    .filter((s) => /^world-\d+$/.test(s.name))
    .flatMap((s) =>
      Object.entries(s.engines)
        .filter(([, e]) => typeof e.medianMs === "number" && e.medianMs > 0)
        .map(([engine, e]) => ({ engine, bodies: s.n, ms: e.medianMs })),
    );
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: "World step: spheres and rotated boxes with contact manifolds",
    width: WIDTH,
    height: 320,
    data: { values },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "bodies", type: "quantitative", scale: { type: "log" }, title: "bodies" },
      y: { field: "ms", type: "quantitative", scale: { type: "log" }, title: "ms per step" },
      color: { field: "engine", type: "nominal", title: "engine" },
    },
  };
}

/** Rays per second on each ray scene, a bar per engine. */
function raysSpec(r: BenchResults): TopLevelSpec {
  const values = r.scenes.flatMap((s) =>
    Object.entries(s.engines)
      .filter(([, e]) => typeof e.raysPerSecond === "number")
      .map(([engine, e]) => ({
        scene: s.name === "rays-10000-boxes" ? "10,000 boxes (world)" : s.name,
        engine,
        rays: e.raysPerSecond,
      })),
  );
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: "Ray casts per second (higher is better)",
    width: WIDTH,
    data: { values },
    mark: "bar",
    encoding: {
      y: { field: "scene", type: "nominal", title: null, axis: { labelLimit: 300 } },
      yOffset: { field: "engine", type: "nominal" },
      x: { field: "rays", type: "quantitative", title: "rays per second" },
      color: { field: "engine", type: "nominal", title: "engine" },
    },
  };
}

/** Pair queries: ns per call per engine, log scale. */
function pairsSpec(r: BenchResults): TopLevelSpec {
  const values = r.scenes
    .filter((s) => s.name.startsWith("pair "))
    .flatMap((s) =>
      Object.entries(s.engines)
        .filter(([, e]) => typeof e.nsPerCall === "number")
        .map(([engine, e]) => ({ query: s.name.slice("pair ".length), engine, ns: e.nsPerCall })),
    );
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: "Pair queries: ns per call (lower is better; log scale)",
    width: WIDTH,
    data: { values },
    // Dots, not bars: a bar on a log scale has no zero to start from.
    mark: { type: "point", filled: true, size: 90 },
    encoding: {
      y: { field: "query", type: "nominal", title: null, axis: { labelLimit: 300 } },
      x: { field: "ns", type: "quantitative", scale: { type: "log" }, title: "ns per call" },
      color: { field: "engine", type: "nominal", title: "engine" },
      shape: { field: "engine", type: "nominal" },
    },
  };
}

/** Renders a Vega-Lite spec to an SVG string, headless. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

/**
 * Writes docs/plots/world-step.svg, rays.svg and pair-queries.svg from the results file `file`;
 * returns the paths written.
 */
export async function writePlots(
  file: string,
  outDir = join(ROOT, "docs/plots"),
): Promise<string[]> {
  const results = JSON.parse(readFileSync(file, "utf8")) as BenchResults;
  const caption = `${results.machine.cpu}, ${results.machine.cores} cores, Node ${results.machine.node}, ${results.machine.date.slice(0, 10)}`;
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const [name, spec] of [
    ["world-step", worldSpec(results)],
    ["rays", raysSpec(results)],
    ["pair-queries", pairsSpec(results)],
  ] as const) {
    const titled = { ...spec, title: { text: spec.title as string, subtitle: caption } };
    const path = join(outDir, `${name}.svg`);
    writeFileSync(path, await renderSvg(titled as TopLevelSpec));
    written.push(path);
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ? resolve(process.argv[2]) : latestResults();
  for (const p of await writePlots(file)) console.log(p.slice(ROOT.length + 1));
}
