/**
 * The grid's parallel cell update (src/broadphase/cell-update.ts) against the grid's serial
 * update, the oracle: two `SpatialHash`es get the same boxes step after step, one with a runner
 * (its classes run here, in an order that changes every step, as threads would take them) and
 * one without. After each step their pairs are the same, sorted (and equal to a brute-force
 * list of the overlapping boxes), and so are the answers of `queryAabb` *in order* — the order
 * of the entries in each cell — and the visit order of `castRay`. The motion mixes random walks,
 * removals and insertions, and clusters teleported into empty space (new cells, full blocks:
 * the deferred operations, and more of them than a class has room for: the rebuild fallback).
 */
import { describe, expect, it } from "vitest";
import {
  type CandidateMergeJob,
  type CandidateMergeRunner,
  mergeCandidateChunk,
} from "../../src/broadphase/candidate-merge.js";
import type { CellQueryJob } from "../../src/broadphase/cell-query.js";
import { cellJobChunk } from "../../src/broadphase/cell-update.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { SpatialHash } from "../../src/broadphase/spatial-hash.js";
import { makeRandom as rng } from "../../src/math/random.js";

/** A runner on this thread that runs the chunks in an order that changes every job. */
class RotatingRunner implements CandidateMergeRunner {
  readonly threads = 2;
  private turn = 0;
  runCandidateMerge(job: CandidateMergeJob, chunks: number): void {
    for (let c = 0; c < chunks; c++) mergeCandidateChunk(job, c, chunks);
  }
  runCellQueries(job: CellQueryJob, chunks: number): void {
    this.turn++;
    // Backwards every other job, and from a rotating start.
    for (let i = 0; i < chunks; i++) {
      const c = (i + this.turn) % chunks;
      cellJobChunk(job, this.turn % 2 === 0 ? c : chunks - 1 - c);
    }
  }
}

const v = (x: number, y: number, z: number) => ({ x, y, z });

/** Brute-force overlapping pairs `lo * 2^32 + hi`... as "lo,hi" strings, sorted. */
function brutePairs(box: Map<number, number[]>): string[] {
  const ids = [...box.keys()].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    const a = box.get(ids[i]) as number[];
    for (let j = i + 1; j < ids.length; j++) {
      const b = box.get(ids[j]) as number[];
      if (
        a[0] <= b[3] &&
        b[0] <= a[3] &&
        a[1] <= b[4] &&
        b[1] <= a[4] &&
        a[2] <= b[5] &&
        b[2] <= a[5]
      ) {
        out.push(`${ids[i]},${ids[j]}`);
      }
    }
  }
  return out;
}

function pairsOf(set: PairSet): string[] {
  return set.toArray().map(([a, b]) => `${a},${b}`);
}

/** The boxes of a twin run: each body's centre and half extents, and its current box. */
class Twin {
  readonly ref: SpatialHash;
  readonly par: SpatialHash;
  readonly box = new Map<number, number[]>();
  readonly centre: Float64Array;
  readonly half: Float64Array;
  queried = 0;
  private readonly outRef = new PairSet();
  private readonly outPar = new PairSet();

  constructor(
    n: number,
    readonly random: () => number,
    cellSize = 0,
  ) {
    this.ref = new SpatialHash({ cellSize });
    this.par = new SpatialHash({ cellSize });
    this.par.setParallel(new RotatingRunner());
    this.centre = new Float64Array(3 * n);
    this.half = new Float64Array(3 * n);
  }

  /** Inserts (or moves, with displacement `d`) body `id` at its centre. */
  put(id: number, insert: boolean, d?: { x: number; y: number; z: number }): void {
    const c = 3 * id;
    const { centre, half } = this;
    const b = [0, 1, 2, 3, 4, 5].map(
      (j) => centre[c + (j % 3)] + (j < 3 ? -1 : 1) * half[c + (j % 3)],
    );
    this.box.set(id, b);
    for (const g of [this.ref, this.par]) {
      if (insert) g.insert(id, v(b[0], b[1], b[2]), v(b[3], b[4], b[5]));
      else g.move(id, v(b[0], b[1], b[2]), v(b[3], b[4], b[5]), d);
    }
  }

  remove(id: number): void {
    this.box.delete(id);
    this.ref.remove(id);
    this.par.remove(id);
  }

  /**
   * Computes both grids' pairs and checks them against brute force, then `queries` box queries
   * and ray casts around random points of `[lo, hi]³` (z in `[lo, hi]` too) in both, in order.
   */
  check(queries: number, lo: number, hi: number): void {
    const { ref, par, random } = this;
    ref.computePairs(this.outRef);
    par.computePairs(this.outPar);
    const expected = brutePairs(this.box);
    expect(pairsOf(this.outRef)).toEqual(expected);
    expect(pairsOf(this.outPar)).toEqual(expected);
    // The cells' entries in the same order: queries report in cell, then entry order.
    for (let q = 0; q < queries; q++) {
      const x = lo + random() * (hi - lo);
      const y = lo + random() * (hi - lo);
      const z = lo + random() * (hi - lo);
      const r = 0.5 + 5 * random();
      const a: number[] = [];
      const b: number[] = [];
      ref.queryAabb(v(x - r, y - r, z - r), v(x + r, y + r, z + r), a);
      par.queryAabb(v(x - r, y - r, z - r), v(x + r, y + r, z + r), b);
      expect(b).toEqual(a);
      this.queried += a.length;
      const dir = v(random() - 0.5, random() - 0.5, random() - 0.5);
      const ra: number[] = [];
      const rb: number[] = [];
      ref.castRay(v(x, y, z), dir, 100, (id) => {
        ra.push(id);
      });
      par.castRay(v(x, y, z), dir, 100, (id) => {
        rb.push(id);
      });
      expect(rb).toEqual(ra);
    }
  }
}

describe("the grid's cell update in classes is the serial update, cell by cell", () => {
  it("2,000 boxes, 40 steps: random walks, removals, insertions and teleported clusters", () => {
    const n = 2000;
    const side = 40;
    const t = new Twin(n, rng(15));
    const { centre, half, box, random } = t;
    for (let id = 0; id < n; id++) {
      for (let a = 0; a < 3; a++) {
        centre[3 * id + a] = random() * side;
        half[3 * id + a] = 0.2 + 0.4 * random();
      }
      t.put(id, true);
    }
    for (let step = 0; step < 40; step++) {
      // A random walk of a third of the bodies, up to 0.3 per axis (many leave their fat boxes).
      for (const id of [...box.keys()]) {
        if (random() < 0.33) {
          const d = v((random() - 0.5) * 0.6, (random() - 0.5) * 0.6, (random() - 0.5) * 0.6);
          centre[3 * id] += d.x;
          centre[3 * id + 1] += d.y;
          centre[3 * id + 2] += d.z;
          t.put(id, false, d);
        }
      }
      if (step % 5 === 2) {
        // A cluster teleported into empty space: new cells, blocks filling up.
        const at = side + 10 + 3 * step;
        for (let i = 0; i < 90; i++) {
          const id = (step * 97 + i * 13) % n;
          if (!box.has(id)) continue;
          centre[3 * id] = at + random();
          centre[3 * id + 1] = at + random();
          centre[3 * id + 2] = at + random();
          t.put(id, false, v(10, 10, 10));
        }
      }
      if (step % 4 === 3) {
        for (let id = step; id < n; id += 41) {
          if (box.has(id)) t.remove(id);
          else t.put(id, true);
        }
      }
      t.check(9, 0, side);
      if (step % 5 === 2) t.check(3, side + 10 + 3 * step - 2, side + 10 + 3 * step + 3);
    }
    expect(t.queried).toBeGreaterThan(1000);
    // The parallel path ran and deferred operations (new cells, full blocks); the serial grid
    // never ran it.
    expect(t.par.parallelCellUpdates).toBeGreaterThan(10);
    expect(t.par.deferredCellOps).toBeGreaterThan(100);
    expect(t.ref.parallelCellUpdates).toBe(0);
  });

  it("a class with more deferred operations than its room: it goes on from where it stopped", () => {
    // Cells of 10 for boxes of about 1, fat by 0.2 (a first move of every body, a rebuild, sets
    // their margins from a small displacement): most bodies occupy one cell, so 1,000 bodies
    // teleported into one new cell give one class about 40% of the update's operations, all
    // deferred (a class has room for a quarter of them, and for 2 × 64 cells more).
    const n = 4000;
    const t = new Twin(n, rng(16), 10);
    const { centre, half, random } = t;
    for (let id = 0; id < n; id++) {
      for (let a = 0; a < 3; a++) {
        centre[3 * id + a] = random() * 100;
        half[3 * id + a] = 0.3 + 0.2 * random();
      }
      t.put(id, true);
    }
    t.check(0, 0, 100);
    for (let id = 0; id < n; id++) {
      centre[3 * id] += 3;
      t.put(id, false, v(0.01, 0.01, 0.01));
    }
    t.check(3, 0, 100);
    for (let step = 0; step < 4; step++) {
      for (let i = 0; i < 1000; i++) {
        const id = (step * 1009 + i) % n;
        for (let a = 0; a < 3; a++) centre[3 * id + a] = 200 + 20 * step + 2 + 6 * random();
        t.put(id, false, v(0.01, 0.01, 0.01));
      }
      t.check(6, 200 + 20 * step, 210 + 20 * step);
      t.check(6, 0, 100);
    }
    // The same rebuilds as the serial grid (none for the room).
    expect(t.par.parallelCellUpdates).toBe(4);
    expect(t.par.cellUpdateResumes).toBeGreaterThan(0);
    expect(t.par.rebuilds).toBe(t.ref.rebuilds);
  });
});
