/**
 * Variants of the piles scene (d) of bench/scenes.ts — other size ratios, pile sizes, spreads and
 * size distributions — for looking for the kind of weakness rather than tuning to scene (d):
 * `VARIANT=ratio,pileSize,spread[,exponent] node --import tsx bench/piles-profile.ts piles 10000`.
 */
import { makeRandom } from "../src/math/random.js";
import type { Scene } from "./scenes.js";

function walkUnit(k: number, frame: number): number {
  let h = Math.imul(k ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(frame + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 31 - 1;
}

export function pilesVariant(
  n: number,
  ratio: number,
  pileSize: number,
  spread: number,
  seed = 3,
  expo = 6,
): Scene {
  const rng = makeRandom(seed);
  const piles = Math.max(1, Math.round(n / pileSize));
  const side = Math.cbrt(piles) * 24 * (spread / 4.5);
  const kind = new Uint8Array(n);
  const size = new Float64Array(3 * n);
  const rot = new Float64Array(4 * n);
  const pos = new Float64Array(3 * n);
  const home = new Float64Array(3 * n);
  const step = new Float64Array(n);
  const centres = new Float64Array(3 * piles);
  for (let k = 0; k < 3 * piles; k++) centres[k] = side * rng();
  for (let i = 0; i < n; i++) {
    const scale = 0.05 * ratio ** (rng() ** expo);
    if (rng() < 0.5) {
      kind[i] = 0;
      size[3 * i] = scale * (0.8 + 0.2 * rng());
      rot[4 * i + 3] = 1;
    } else {
      kind[i] = 1;
      for (let a = 0; a < 3; a++) size[3 * i + a] = scale * (0.5 + 0.5 * rng());
      let x = 0,
        y = 0,
        z = 0,
        w = 0,
        l = 0;
      while (l < 1e-3 || l > 1) {
        x = 2 * rng() - 1;
        y = 2 * rng() - 1;
        z = 2 * rng() - 1;
        w = 2 * rng() - 1;
        l = Math.sqrt(x * x + y * y + z * z + w * w);
      }
      rot[4 * i] = x / l;
      rot[4 * i + 1] = y / l;
      rot[4 * i + 2] = z / l;
      rot[4 * i + 3] = w / l;
    }
    step[i] = 0.05 * Math.min(1, 2 * scale);
    const p = Math.floor(rng() * piles);
    for (let a = 0; a < 3; a++)
      home[3 * i + a] = centres[3 * p + a] + spread * (rng() + rng() + rng() - 1.5);
  }
  pos.set(home);
  let at = 0;
  return {
    name: "piles",
    n,
    moving: n,
    staticCount: 0,
    kind,
    size,
    rot,
    pos,
    move(frame: number) {
      if (frame === at + 1)
        for (let k = 0; k < 3 * n; k++) pos[k] += step[(k / 3) | 0] * walkUnit(k, frame);
      else
        for (let k = 0; k < 3 * n; k++)
          pos[k] = home[k] + (frame ? 4 * step[(k / 3) | 0] * walkUnit(k, frame) : 0);
      at = frame;
    },
  };
}
