/**
 * The Stanford bunny (Stanford 3D Scanning Repository, via the npm package `bunny`), the
 * built-in real model: 1,839 vertices and 3,674 triangles, about 10 units tall.
 */
import { createRequire } from "node:module";

/** The bunny's vertices (packed xyz) and triangles (packed vertex index triples). */
export interface BunnyData {
  positions: Float64Array;
  cells: Uint32Array;
}

let cached: BunnyData | null = null;

/** The bunny as packed typed arrays (loaded once, cached). */
export function loadBunny(): BunnyData {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const raw = require("bunny") as { positions: number[][]; cells: number[][] };
  const positions = new Float64Array(raw.positions.length * 3);
  for (let i = 0; i < raw.positions.length; i++) positions.set(raw.positions[i], 3 * i);
  const cells = new Uint32Array(raw.cells.length * 3);
  for (let i = 0; i < raw.cells.length; i++) cells.set(raw.cells[i], 3 * i);
  cached = { positions, cells };
  return cached;
}
