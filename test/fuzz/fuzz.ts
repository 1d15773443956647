/**
 * The differential fuzzer (issue 16, must-have 4): random and adversarial `collide query` lines
 * over every pair of JSON shape types and every op (intersects, distance, contact, manifold,
 * castShapes, raycast, projectPoint, pairs), answered by the library through `answerQuery` (the
 * `collide query` path) and checked against the independent oracles of test/fuzz/oracle-*.ts and
 * the exact rational certificates of test/fuzz/exact.ts.
 *
 * The bars (FORMATS.md, "Accuracy"): with L the pair's extent in its own frame (the shapes'
 * bounding radii and the distance between their centres; never the distance from the origin),
 * s the smaller shape's size and u the rounding unit of the world coordinates printed,
 *
 * - distance (and a contact's positive gap): |error| ≤ 1e-9·max(d, s) + 64·ε·L;
 * - depth: |error| ≤ DEPTH_REL·depth + 64·ε·L (DEPTH_REL = 1e-6 by default, --depth-rel);
 * - witness points: within the distance bar + 4u of their shape's surface;
 * - normals: unit, and achieving the reported depth or gap within its bar;
 * - intersects: true whenever the shapes share a point certified in rationals, false whenever an
 *   axis separates them exactly or by more than the rounding of the oracle;
 * - across ops: intersects ⇔ distance = 0 ⇔ contact(prediction 0) ≠ null ⇔ manifold ≠ null ⇔
 *   the pair is in `pairs`; contact(B, A) is contact(A, B) flipped (unless A and B are the same
 *   shape at the same pose, when it is the same query).
 */
import { answerQuery } from "../../src/io/query.js";
import { parseScene } from "../../src/io/scene.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { exactContains } from "./exact.js";
import {
  ALL_TYPES,
  makeScenario,
  Rng,
  type Scenario,
  type ShapeTypeName,
  TYPES,
  translateShape,
} from "./generate.js";
import {
  add,
  candidateAxes,
  commonInteriorDepth,
  dist,
  dot,
  halfspaceGap,
  halfspaceTruth,
  maximiseOnSphere,
  nearClosing,
  norm,
  overlapPieces,
  pairTruth,
  pieceTruth,
  type ShapePairTruth,
  scale,
  sepPieces,
  shapeClosest,
  shapeSigned,
  sub,
  surfaceDistance,
  unit,
} from "./oracle-pairs.js";
import { type OShape, oshape, type V } from "./oracle-shapes.js";

const EPS = Number.EPSILON;

/** Options of a run. */
export interface FuzzOptions {
  queries: number;
  seed: number;
  /** Relative bar on depths (default 1e-6). */
  depthRel?: number;
  /** Relative bar on distances (default 1e-9). */
  distRel?: number;
  /**
   * Restrict to these JSON types (default: every type of `TYPES`; the opt-in rounded forms,
   * `OPT_IN_TYPES`, only when listed here).
   */
  types?: readonly ShapeTypeName[];
  /** Restrict to these ops. */
  ops?: readonly string[];
  /** Stop collecting failure lines after this many (default 1000). */
  maxFailures?: number;
  /**
   * Check that a contact's witnesses, and each manifold point's, face each other across the
   * normal (pointB − pointA along the normal, a bar of FORMATS.md's "Accuracy"). Default true in
   * `runFuzz` since issue 16, session 28 (the CI's seed clean with it), and in `replayScenario`
   * since session 29; false leaves that bar out (a replay opting out names its open/ line).
   */
  facing?: boolean;
}

/** One cell of the table. */
export interface Cell {
  queries: number;
  wrong: number;
  /** Largest error seen, in units of its bar (1 = at the bar). */
  maxError: number;
}

/** A failure: the query line and why it is wrong. */
export interface Failure {
  pair: string;
  op: string;
  reason: string;
  line: Record<string, unknown>;
  answer: unknown;
  /** The scenario (local shapes and offset), for replaying the failure with `replayScenario`. */
  scenario?: Scenario;
}

/** The result of a run. */
export interface FuzzReport {
  table: Map<string, Cell>;
  failures: Failure[];
  queries: number;
  wrong: number;
  unsupported: number;
  errors: number;
  seconds: number;
}

const OPS = [
  "world",
  "intersects",
  "distance",
  "contact",
  "manifold",
  "castShapes",
  "raycast",
  "projectPoint",
  "pairs",
];

export interface Ctx {
  lastIntersects: boolean | null;
  report: FuzzReport;
  pair: string;
  opts: Required<Omit<FuzzOptions, "types" | "ops">> & { ops: Set<string> };
  sc?: Scenario;
}

function cell(ctx: Ctx, op: string): Cell {
  const key = `${ctx.pair}|${op}`;
  let c = ctx.report.table.get(key);
  if (!c) {
    c = { queries: 0, wrong: 0, maxError: 0 };
    ctx.report.table.set(key, c);
  }
  return c;
}

/** Runs one query line; returns its result, or undefined after an error (counted). */
function ask(
  ctx: Ctx,
  op: string,
  line: Record<string, unknown>,
): { ok: true; result: unknown } | { ok: false } {
  cell(ctx, op).queries++;
  ctx.report.queries++;
  try {
    return { ok: true, result: answerQuery(line) };
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "unsupported_pair") {
      ctx.report.unsupported++;
      return { ok: false };
    }
    ctx.report.errors++;
    fail(ctx, op, `threw ${String((e as Error).message ?? e)}`, line, null, Infinity);
    return { ok: false };
  }
}

function fail(
  ctx: Ctx,
  op: string,
  reason: string,
  line: Record<string, unknown>,
  answer: unknown,
  err: number,
): void {
  const c = cell(ctx, op);
  c.wrong++;
  ctx.report.wrong++;
  if (Number.isFinite(err)) c.maxError = Math.max(c.maxError, err);
  else c.maxError = Infinity;
  if (ctx.report.failures.length < ctx.opts.maxFailures) {
    ctx.report.failures.push({ pair: ctx.pair, op, reason, line, answer, scenario: ctx.sc });
  }
}

/** Records an error measure against its bar; wrong when over. Returns true when within. */
function bar(
  ctx: Ctx,
  op: string,
  what: string,
  err: number,
  tol: number,
  _line: Record<string, unknown>,
  _answer: unknown,
  issues: string[],
): boolean {
  const r = err <= tol ? (tol > 0 ? err / tol : 0) : err / tol;
  if (!(r <= 1)) {
    issues.push(`${what}: error ${err.toExponential(3)} > bar ${tol.toExponential(3)}`);
    return false;
  }
  const c = cell(ctx, op);
  c.maxError = Math.max(c.maxError, r);
  return true;
}

const toV = (a: unknown): V => [...(a as number[])] as V;
/** Rounding unit of a printed world coordinate vector. */
function ulpOf(p: V): number {
  const m = Math.max(Math.abs(p[0]), Math.abs(p[1]), Math.abs(p[2]));
  return m === 0 ? 0 : 2 ** (Math.floor(Math.log2(m)) - 52);
}

interface PairInfo {
  A: OShape;
  B: OShape;
  truth: ShapePairTruth;
  L: number;
  s: number;
  tolAmb: number;
  mustTrue: boolean;
  mustFalse: boolean;
}

function pairInfo(sc: Scenario, A: OShape, B: OShape, hints: V[]): PairInfo {
  const truth = pairTruth(A, B, hints, true);
  const rA = A.halfspace ? B.radius : A.radius;
  const rB = B.halfspace ? A.radius : B.radius;
  const L = Math.max(rA, rB, A.halfspace || B.halfspace ? 0 : dist(A.center, B.center));
  const s = Math.min(rA, rB);
  const tolAmb = 64 * EPS * L;
  let mustTrue = sc.shared !== null;
  if (!mustTrue && truth.upper <= tolAmb) {
    const need = Math.max(1e-7 * s, 1e3 * tolAmb);
    // The least overlap over directions is an upper bound on the depth: it proves an overlap
    // only where it is exact, SAT over every face normal and edge crossing of two polytopes.
    // Otherwise (a curved shape) intersection is certified by a point inside both
    // (commonInteriorDepth): a pattern search short of the minimum over directions had made
    // exactly touching pairs "overlap by 3.6e-3" (a sphere and a capsule 9e-13 apart).
    if (truth.depthKnown && ((A.vertices && B.vertices) || A.halfspace || B.halfspace))
      mustTrue = truth.depth > need;
    else if (truth.depthKnown && A.pieces.length === 1 && B.pieces.length === 1) {
      const a = A.pieces[0];
      const b = B.pieces[0];
      const n = truth.depthDir;
      const D = truth.depth;
      const sa = a.support(n);
      const sb = b.support(scale(n, -1));
      const starts: V[] = [
        truth.pA,
        truth.pB,
        add(sa, scale(n, -D / 2)),
        add(sb, scale(n, D / 2)),
        scale(add(sa, sb), 0.5),
        scale(add(a.center, b.center), 0.5),
        ...hints,
      ];
      mustTrue = commonInteriorDepth(a, b, starts, Math.max(D, 1e-3 * s)) > need;
    } else {
      const p = truth.pA;
      mustTrue = shapeSigned(A, p) < -1e3 * tolAmb && shapeSigned(B, p) < -1e3 * tolAmb;
    }
  }
  const mustFalse = sc.apart > tolAmb || truth.lower > 4 * tolAmb;
  return { A, B, truth, L, s, tolAmb, mustTrue, mustFalse };
}

function distTol(ctx: Ctx, P: PairInfo, d: number): number {
  return ctx.opts.distRel * Math.max(Math.abs(d), P.s) + P.tolAmb;
}
function depthTol(ctx: Ctx, P: PairInfo, depth: number): number {
  return ctx.opts.depthRel * Math.abs(depth) + P.tolAmb;
}

/** Overlap of the pair along unit n (A toward B), over pieces (convex pairs) or a half-space. */
function overlapAlong(P: PairInfo, n: V): number {
  const { A, B } = P;
  if (B.halfspace) {
    const h = B.halfspace;
    // Overlap of A with {h.n·x ≤ o} along n: only meaningful for n = −h.n.
    const depth = -halfspaceGap(A, B).gap;
    return (depth / Math.max(1e-300, -dot(n, h.n))) * (dot(n, h.n) < 0 ? 1 : Infinity);
  }
  if (A.halfspace) {
    const h = A.halfspace;
    const depth = -halfspaceGap(B, A).gap;
    return dot(n, h.n) > 0 ? depth / dot(n, h.n) : Infinity;
  }
  return overlapPieces(A.pieces[0], B.pieces[0], n);
}

/** World point → local (oracle) frame. */
function local(sc: Scenario, p: V): V {
  return sub(p, sc.offset as V);
}

function checkPointOn(
  ctx: Ctx,
  op: string,
  _P: PairInfo,
  S: OShape,
  pw: V,
  name: string,
  sc: Scenario,
  line: Record<string, unknown>,
  ans: unknown,
  issues: string[],
  tol: number,
): void {
  const d = surfaceDistance(S, local(sc, pw));
  bar(ctx, op, `${name} off its shape`, d, tol + 4 * ulpOf(pw), line, ans, issues);
}

/** Runs and checks every op on one scenario. */
export function runScenario(ctx: Ctx, sc: Scenario): void {
  const A = oshape(sc.localA);
  const B = oshape(sc.localB);
  const wA = sc.worldA;
  const wB = sc.worldB;
  const ops = ctx.opts.ops;
  const results: Record<string, unknown> = {};
  const hints: V[] = [];

  // Library answers first (they give the oracle its starting hints).
  const lines: Record<string, Record<string, unknown>> = {
    intersects: { op: "intersects", a: wA, b: wB },
    distance: { op: "distance", a: wA, b: wB },
    contact: { op: "contact", a: wA, b: wB },
    contactBA: { op: "contact", a: wB, b: wA },
    contactPred: { op: "contact", a: wA, b: wB, prediction: sc.prediction },
    manifold: { op: "manifold", a: wA, b: wB },
    pairs: { op: "pairs", shapes: [wA, wB] },
  };
  const answered: Record<string, boolean> = {};
  for (const [k, line] of Object.entries(lines)) {
    const op = k.startsWith("contact") ? "contact" : k;
    if (!ops.has(op)) continue;
    const r = ask(ctx, op, line);
    answered[k] = r.ok;
    if (r.ok) results[k] = r.result;
  }
  for (const k of ["distance", "contact"]) {
    const r = results[k] as { pointA?: number[]; pointB?: number[] } | null | undefined;
    if (r?.pointA) hints.push(local(sc, toV(r.pointA)), local(sc, toV(r.pointB)));
  }
  const P = pairInfo(sc, A, B, hints);
  const T = P.truth;

  // intersects
  if (answered.intersects) {
    const line = lines.intersects;
    const got = (results.intersects as { intersects: boolean }).intersects;
    if (P.mustTrue && !got) {
      fail(
        ctx,
        "intersects",
        sc.shared
          ? `false, but both shapes contain ${JSON.stringify(sc.shared.map((x, i) => x + sc.offset[i]))} (exact)`
          : `false, but they overlap by ${T.depth.toExponential(3)}`,
        line,
        results.intersects,
        Infinity,
      );
    } else if (P.mustFalse && got) {
      fail(
        ctx,
        "intersects",
        `true, but they are apart by ≥ ${sc.apart ? "an exact gap" : T.lower.toExponential(3)}`,
        line,
        results.intersects,
        Infinity,
      );
    }
  }
  const inter = answered.intersects
    ? (results.intersects as { intersects: boolean }).intersects
    : null;
  ctx.lastIntersects = inter;

  // distance
  if (answered.distance) {
    const line = lines.distance;
    const r = results.distance as { distance: number; pointA: number[]; pointB: number[] };
    const issues: string[] = [];
    const d = r.distance;
    if (!(d >= 0)) issues.push(`distance ${d} not ≥ 0`);
    if (P.mustTrue && d !== 0) issues.push(`distance ${d} but the shapes intersect`);
    if (P.mustFalse && !(d > 0)) issues.push("distance 0 but the shapes are apart");
    if (inter !== null && inter !== (d === 0)) issues.push(`intersects ${inter} but distance ${d}`);
    const tol = distTol(ctx, P, d);
    if (d > 0) {
      bar(
        ctx,
        "distance",
        "distance above the oracle's upper bound",
        Math.max(0, d - T.upper),
        tol,
        line,
        r,
        issues,
      );
      bar(
        ctx,
        "distance",
        "distance below the certified lower bound",
        Math.max(0, T.lower - d),
        tol,
        line,
        r,
        issues,
      );
      const pa = toV(r.pointA);
      const pb = toV(r.pointB);
      checkPointOn(ctx, "distance", P, A, pa, "pointA", sc, line, r, issues, tol);
      checkPointOn(ctx, "distance", P, B, pb, "pointB", sc, line, r, issues, tol);
      bar(
        ctx,
        "distance",
        "|pointB − pointA| ≠ distance",
        Math.abs(dist(pa, pb) - d),
        tol + 8 * ulpOf(pa),
        line,
        r,
        issues,
      );
    } else if (!A.halfspace && !B.halfspace) {
      // Intersecting: the deepest points of contact, on their shapes.
      const pa = toV(r.pointA);
      const pb = toV(r.pointB);
      const tolP = Math.max(tol, depthTol(ctx, P, T.depth));
      checkPointOn(ctx, "distance", P, A, pa, "pointA", sc, line, r, issues, tolP);
      checkPointOn(ctx, "distance", P, B, pb, "pointB", sc, line, r, issues, tolP);
    }
    if (issues.length)
      fail(ctx, "distance", issues.join("; "), line, r, issues.length ? Infinity : 0);
  }

  // contact (prediction 0), its flip, and with a prediction
  if (answered.contact) {
    const line = lines.contact;
    const r = results.contact as {
      distance: number;
      normal: number[];
      pointA: number[];
      pointB: number[];
    } | null;
    const issues: string[] = [];
    if (inter !== null && inter !== (r !== null))
      issues.push(`intersects ${inter} but contact ${r === null ? "null" : "non-null"}`);
    if (P.mustTrue && r === null) issues.push("null, but the shapes intersect");
    if (P.mustFalse && r !== null)
      issues.push("non-null at prediction 0, but the shapes are apart");
    if (r) checkContact(ctx, P, sc, line, r, 0, issues);
    // Two identical shapes (same type, parameters and pose) make contact(B, A) the very query
    // contact(A, B): the same answer, which no flip check can hold it to.
    if (answered.contactBA && JSON.stringify(wA) !== JSON.stringify(wB)) {
      const f = results.contactBA as typeof r;
      if ((f === null) !== (r === null))
        issues.push("contact(B, A) disagrees with contact(A, B) on null");
      else if (r && f) {
        const tol = depthTol(ctx, P, r.distance);
        const tolP = tol + 4 * ulpOf(toV(r.pointA));
        bar(
          ctx,
          "contact",
          "flipped distance differs",
          Math.abs(f.distance - r.distance),
          tol,
          line,
          r,
          issues,
        );
        bar(
          ctx,
          "contact",
          "flipped normal not negated",
          norm(add(toV(f.normal), toV(r.normal))),
          1e-6,
          line,
          r,
          issues,
        );
        bar(
          ctx,
          "contact",
          "flipped pointA ≠ pointB",
          dist(toV(f.pointA), toV(r.pointB)),
          tolP + P.L * 1e-6,
          line,
          r,
          issues,
        );
      }
    }
    if (issues.length) fail(ctx, "contact", issues.join("; "), line, r, Infinity);
  }
  if (answered.contactPred && sc.prediction > 0) {
    const line = lines.contactPred;
    const r = results.contactPred as {
      distance: number;
      normal: number[];
      pointA: number[];
      pointB: number[];
    } | null;
    const issues: string[] = [];
    const tol = distTol(ctx, P, sc.prediction);
    if (r === null && T.upper < sc.prediction - tol)
      issues.push(`null, but the gap ≤ ${T.upper.toExponential(3)} < prediction`);
    if (r !== null && T.lower > sc.prediction + tol)
      issues.push(`non-null, but the gap ≥ ${T.lower.toExponential(3)} > prediction`);
    if (r) checkContact(ctx, P, sc, line, r, sc.prediction, issues);
    if (issues.length) fail(ctx, "contact", issues.join("; "), line, r, Infinity);
  }

  // manifold
  if (answered.manifold) {
    const line = lines.manifold;
    const r = results.manifold as {
      normal: number[];
      points: { pointA: number[]; pointB: number[]; distance: number }[];
    } | null;
    const c = results.contact as { distance: number } | null | undefined;
    const issues: string[] = [];
    if (c !== undefined && (c === null) !== (r === null))
      issues.push(
        `manifold ${r === null ? "null" : "non-null"} but contact ${c === null ? "null" : "non-null"}`,
      );
    if (r) {
      const n = toV(r.normal);
      if (Math.abs(norm(n) - 1) > 1e-9) issues.push(`normal not unit (${norm(n)})`);
      if (r.points.length < 1 || r.points.length > 4) issues.push(`${r.points.length} points`);
      for (const [i, p] of r.points.entries()) {
        const pa = toV(p.pointA);
        const pb = toV(p.pointB);
        if (unboundedOverlap(P, sc, p.distance, pa, pb, issues)) continue;
        const tol = Math.max(distTol(ctx, P, p.distance), depthTol(ctx, P, T.depth));
        checkPointOn(ctx, "manifold", P, A, pa, `points[${i}].pointA`, sc, line, r, issues, tol);
        checkPointOn(ctx, "manifold", P, B, pb, `points[${i}].pointB`, sc, line, r, issues, tol);
        bar(
          ctx,
          "manifold",
          `points[${i}].distance ≠ (pointB − pointA)·normal`,
          Math.abs(dot(sub(pb, pa), n) - p.distance),
          tol + 8 * ulpOf(pa),
          line,
          r,
          issues,
        );
        if (ctx.opts.facing) {
          const dp = sub(pb, pa);
          bar(
            ctx,
            "manifold",
            `points[${i}]: pointB − pointA not along the normal`,
            norm(sub(dp, scale(n, dot(dp, n)))),
            tol + 8 * ulpOf(pa),
            line,
            r,
            issues,
          );
        }
        if (c)
          bar(
            ctx,
            "manifold",
            `points[${i}] deeper than the contact`,
            Math.max(0, c.distance - p.distance),
            depthTol(ctx, P, c.distance),
            line,
            r,
            issues,
          );
      }
    }
    if (issues.length) fail(ctx, "manifold", issues.join("; "), line, r, Infinity);
  }

  // pairs
  if (answered.pairs) {
    const line = lines.pairs;
    const r = results.pairs as { pairs: number[][] };
    const has = r.pairs.length === 1;
    const issues: string[] = [];
    if (inter !== null && has !== inter)
      issues.push(`pairs ${has ? "has" : "lacks"} the pair, intersects ${inter}`);
    if (P.mustTrue && !has) issues.push("lacks an intersecting pair");
    if (P.mustFalse && has) issues.push("has a separated pair");
    if (issues.length) fail(ctx, "pairs", issues.join("; "), line, r, Infinity);
  }

  if (ops.has("world") && inter !== null && !(A.halfspace && B.halfspace))
    checkWorld(ctx, sc, inter);
  if (ops.has("castShapes")) checkCast(ctx, sc, P);
  if (ops.has("raycast")) checkRay(ctx, sc, A, wA, sc.localA);
  if (ops.has("projectPoint")) checkProject(ctx, sc, A, wA);
}

/**
 * The world at prediction 0, built from the line's shapes as `collide check` reads a scene,
 * reports the pair touching exactly when `intersects` is true.
 */
function checkWorld(ctx: Ctx, sc: Scenario, inter: boolean): void {
  const line = { op: "pairs", shapes: [sc.worldA, sc.worldB] };
  cell(ctx, "world").queries++;
  ctx.report.queries++;
  let touching: boolean;
  try {
    // Through the parse `collide check` uses (src/io/scene.ts: the shapes in the scene's local
    // frame, as the pair queries read a line), then the world at prediction 0.
    const scene = parseScene({
      bodies: [
        { id: "a", shape: sc.worldA },
        { id: "b", shape: sc.worldB },
      ],
    });
    const world = new CollisionWorld({ prediction: 0 });
    const [ha, hb] = scene.bodies.map((b) => world.addBody({ shape: b.shape, pose: b.pose }));
    world.step();
    touching = world.isTouching(ha, hb);
  } catch (e) {
    ctx.report.errors++;
    fail(
      ctx,
      "world",
      `threw ${String((e as Error).message ?? e)}`,
      line,
      null,
      Number.POSITIVE_INFINITY,
    );
    return;
  }
  if (touching !== inter) {
    fail(
      ctx,
      "world",
      `the world says ${touching ? "touching" : "apart"}, intersects ${inter}`,
      line,
      touching,
      Number.POSITIVE_INFINITY,
    );
  }
}

/**
 * Two half-spaces that are not exactly opposite overlap without bound: FORMATS.md fixes their
 * contact at the most negative double with both points at one point common to both solids
 * (checked here, against the oracle's signed distances). True when the answer is of that kind.
 */
function unboundedOverlap(
  P: PairInfo,
  sc: Scenario,
  d: number,
  pa: V,
  pb: V,
  issues: string[],
): boolean {
  const { A, B } = P;
  if (!(A.halfspace && B.halfspace)) return false;
  const nA = A.halfspace.n;
  const nB = B.halfspace.n;
  const opposite = nA[0] === -nB[0] && nA[1] === -nB[1] && nA[2] === -nB[2];
  if (opposite) return false;
  if (d !== -Number.MAX_VALUE) issues.push(`distance ${d}, but the overlap is unbounded`);
  const tol = 64 * EPS * Math.max(1, Math.abs(A.halfspace.o), Math.abs(B.halfspace.o), norm(pa));
  for (const [S, p, name] of [
    [A, pa, "pointA"],
    [B, pa, "pointA"],
    [A, pb, "pointB"],
    [B, pb, "pointB"],
  ] as const) {
    const sd = shapeSigned(S, local(sc, p));
    if (!(sd <= tol)) issues.push(`${name} outside a half-space by ${sd}`);
  }
  return true;
}

function checkContact(
  ctx: Ctx,
  P: PairInfo,
  sc: Scenario,
  line: Record<string, unknown>,
  r: { distance: number; normal: number[]; pointA: number[]; pointB: number[] },
  prediction: number,
  issues: string[],
): void {
  const { A, B, truth: T } = P;
  const n = toV(r.normal);
  const pa = toV(r.pointA);
  const pb = toV(r.pointB);
  if (Math.abs(norm(n) - 1) > 1e-9) issues.push(`normal not unit (|n| = ${norm(n)})`);
  if (r.distance > prediction) issues.push(`distance ${r.distance} > prediction ${prediction}`);
  const tol = r.distance > 0 ? distTol(ctx, P, r.distance) : depthTol(ctx, P, -r.distance);
  if (unboundedOverlap(P, sc, r.distance, pa, pb, issues)) return;
  checkPointOn(ctx, "contact", P, A, pa, "pointA", sc, line, r, issues, tol);
  checkPointOn(ctx, "contact", P, B, pb, "pointB", sc, line, r, issues, tol);
  bar(
    ctx,
    "contact",
    "(pointB − pointA)·normal ≠ distance",
    Math.abs(dot(sub(pb, pa), n) - r.distance),
    tol + 8 * ulpOf(pa),
    line,
    r,
    issues,
  );
  if (ctx.opts.facing) {
    // The witnesses face each other across the normal: pointB − pointA is distance·normal, so a
    // point of the right edge or face but far from where the shapes meet is wrong.
    const dp = sub(pb, pa);
    bar(
      ctx,
      "contact",
      "pointB − pointA not along the normal",
      norm(sub(dp, scale(n, dot(dp, n)))),
      tol + 8 * ulpOf(pa),
      line,
      r,
      issues,
    );
  }
  if (r.distance > 0) {
    bar(
      ctx,
      "contact",
      "gap below the certified lower bound",
      Math.max(0, T.lower - r.distance),
      tol,
      line,
      r,
      issues,
    );
    bar(
      ctx,
      "contact",
      "gap above the oracle's upper bound",
      Math.max(0, r.distance - T.upper),
      tol,
      line,
      r,
      issues,
    );
    // The normal achieves the gap: the convex shapes are apart along it by the gap (the
    // separation along any direction is a lower bound of their distance).
    if (!A.halfspace && !B.halfspace && A.pieces.length === 1 && B.pieces.length === 1) {
      bar(
        ctx,
        "contact",
        "normal does not achieve the gap",
        Math.max(0, r.distance - sepPieces(A.pieces[0], B.pieces[0], n)),
        tol,
        line,
        r,
        issues,
      );
    }
  } else if (T.depthKnown) {
    const depth = -r.distance;
    const ach = overlapAlong(P, n);
    bar(
      ctx,
      "contact",
      "normal does not achieve the depth",
      Math.abs(ach - depth),
      tol,
      line,
      r,
      issues,
    );
    bar(
      ctx,
      "contact",
      "depth above the least overlap found",
      Math.max(0, depth - T.depth),
      tol,
      line,
      r,
      issues,
    );
  }
}

/** Distance bounds of the pair with B translated by t·w (relative motion). */
function movedTruth(
  P: PairInfo,
  sc: Scenario,
  t: number,
  w: V,
  hints: V[],
  skip?: ReadonlySet<string>,
): ShapePairTruth {
  // A half-space pair: the shape's placement moved by w·t exactly (translateShape rounds it at
  // the placement's ulp, 1.8e-12 at 1.6e4, above the bar of a shape of 6e-6); a moved
  // half-space is the shape moved the other way.
  if (P.B.halfspace && !P.A.halfspace) return halfspaceTruth(P.A, P.B, true, { w, t: -t });
  if (P.A.halfspace && !P.B.halfspace) return halfspaceTruth(P.B, P.A, false, { w, t });
  const B = oshape(translateShape(sc.localB, scale(w, t)));
  const A = P.A;
  return pairTruth(A, B, hints, false, skip);
}

/** B moved by w·t as the oracle's shape (a half-space pair: B itself, nearClosing takes its plane). */
function movedOShape(P: PairInfo, sc: Scenario, t: number, w: V): OShape {
  if (P.A.halfspace || P.B.halfspace) return P.B;
  return oshape(translateShape(sc.localB, scale(w, t)));
}

/**
 * True when the shapes certainly meet after the advancement's hit at time t (gap T.upper within
 * the cast's bar there): a null cast, or a later toi, is then wrong. A gap within the bar is not a meeting by
 * itself: shapes apart by a few ulps (exact-apart scenarios, or touching ones that `intersects`
 * calls apart, as its bar allows) that graze or separate never touch, and null is right for
 * them. So the oracle looks ahead along the motion to where the shapes, closing at μ along the
 * gap's direction, would overlap by twice the depth that makes `intersects` owe true
 * (max(1e-7·s, 1e3·64·ε·L), pairInfo's mustTrue), and owes a hit only when they overlap there
 * by that depth (or share a point deep in both, for pairs without a depth; a half-space pair by its
 * exact gap). μ is `closing` when given (the late check's, robust to witnesses at the rounding).
 */
function clearlyMeet(
  P: PairInfo,
  sc: Scenario,
  t: number,
  T: ShapePairTruth,
  w: V,
  skip?: ReadonlySet<string>,
  closing?: number,
): boolean {
  const n = unit(sub(T.pB, T.pA));
  const mu = closing ?? (norm(n) > 0 ? -dot(w, n) : norm(w));
  if (!(mu > 0)) return false;
  const need = Math.max(1e-7 * P.s, 1e3 * P.tolAmb);
  const t2 = Math.min(t + (Math.max(T.upper, 0) + 2 * need) / mu, sc.maxToi * (1 - 1e-9));
  const B2 = oshape(translateShape(sc.localB, scale(w, t2)));
  const T2 =
    P.A.halfspace || P.B.halfspace
      ? movedTruth(P, sc, t2, w, [])
      : pairTruth(P.A, B2, [T.pA, T.pB], true, skip);
  // A half-space's gap is exact (halfspaceTruth): a point of the shape lies −gap behind the plane.
  if (P.A.halfspace || P.B.halfspace) return T2.lower < -need;
  if (T2.upper > P.tolAmb) return false;
  if (T2.depthKnown) return T2.depth > need;
  const p = T2.pA;
  return shapeSigned(P.A, p) < -1e3 * P.tolAmb && shapeSigned(B2, p) < -1e3 * P.tolAmb;
}

/**
 * True when every convex piece pair (not in `skip`) of the scenario's shapes is certainly apart
 * for all times in [t0, t1] (B moved by w·t): a direction d (the pair's witnesses' at t1) whose
 * separation sep_d — min over B of d·x less max over A, a lower bound of the gap (van den Bergen
 * 2003, §2.4), linear in t under the fixed motion — exceeds the rounding at both ends. False
 * for a half-space pair or when no such direction is found (nothing proved).
 */
function apartUntil(
  P: PairInfo,
  sc: Scenario,
  t0: number,
  t1: number,
  w: V,
  skip?: ReadonlySet<string>,
): boolean {
  if (P.A.halfspace || P.B.halfspace || !(t1 >= t0)) return false;
  const B0 = oshape(translateShape(sc.localB, scale(w, t0)));
  const B1 = oshape(translateShape(sc.localB, scale(w, t1)));
  const round = 1e3 * P.tolAmb;
  for (let i = 0; i < P.A.pieces.length; i++) {
    const pa = P.A.pieces[i];
    for (let j = 0; j < B1.pieces.length; j++) {
      if (skip?.has(`${i},${j}`)) continue;
      const pb1 = B1.pieces[j];
      const T1 = pieceTruth(pa, pb1, [], [], false);
      if (!(T1.upper > 0)) return false;
      // The best start of the witnesses' direction and the pair's axes, refined as pieceTruth
      // refines its lower bound (a direction from witnesses 3e-15 apart at 8e-6 is off by
      // 5e-7 rad: sep along it −8e-14).
      let d0 = unit(sub(T1.pB, T1.pA));
      let best = sepPieces(pa, pb1, d0);
      for (const c of candidateAxes(P.A, B1)) {
        for (const u of [c, scale(c, -1)]) {
          const v = sepPieces(pa, pb1, u);
          if (v > best) {
            best = v;
            d0 = u;
          }
        }
      }
      const [d] = maximiseOnSphere((u) => sepPieces(pa, pb1, u), d0, 1e-3, 300);
      if (!(sepPieces(pa, pb1, d) > round && sepPieces(pa, B0.pieces[j], d) > round)) return false;
    }
  }
  return true;
}

/**
 * True when every convex piece pair (not in `skip`) of the scenario's shapes overlaps by at most
 * `bar` (less the rounding) at every time in [t0, t1] (B moved by w·t): a fixed direction d whose
 * separation sep_d (a lower bound of the signed distance, so −sep_d an upper bound of the
 * penetration depth; linear in t under the fixed motion) is above −bar at both ends. The late
 * check's error is that depth ((toi − t)·μ − gap: the overlap at toi were the gap to keep closing
 * at μ), so a toi this proves is late by at most the bar, where {@link apartUntil} needs the pair
 * apart by 1,000 roundings, which a pair closer than that at t never is. The direction: the best
 * of the witnesses' and the pair's axes, refined on the sphere, then along each polytope edge's
 * normal circle (a vertex near an edge of a triangle: the contact normal lies on the edge's
 * ridge of sep_d, where a direction 1e-10 off it loses 4e-10 at a triangle of 3.8; issue 16,
 * seed 74: a cone's rim met edge ab of a triangle 3.3e-10 from corner b, closing at 0.79 along
 * that normal, and the witnesses at t — rim and corner, 1.7e-11 apart — closed at 3.5).
 */
function shallowUntil(
  P: PairInfo,
  sc: Scenario,
  t0: number,
  t1: number,
  w: V,
  hints: V[],
  bar: number,
  skip?: ReadonlySet<string>,
): boolean {
  if (P.A.halfspace || P.B.halfspace || !(t1 >= t0)) return false;
  const B0 = oshape(translateShape(sc.localB, scale(w, t0)));
  const B1 = oshape(translateShape(sc.localB, scale(w, t1)));
  const floor = -(bar - 4 * P.tolAmb);
  if (!(floor < 0)) return false;
  const edges = [...P.A.edges, ...P.B.edges];
  for (let i = 0; i < P.A.pieces.length; i++) {
    const pa = P.A.pieces[i];
    for (let j = 0; j < B1.pieces.length; j++) {
      if (skip?.has(`${i},${j}`)) continue;
      const p0 = B0.pieces[j];
      const p1 = B1.pieces[j];
      const g = (d: V) => Math.min(sepPieces(pa, p0, d), sepPieces(pa, p1, d));
      let d0: V = [0, 0, 1];
      let best = -Infinity;
      const starts: V[] = [];
      for (let k = 0; k + 1 < hints.length; k += 2) {
        const h = sub(hints[k + 1], hints[k]);
        if (norm(h) > 0) starts.push(unit(h));
      }
      const T0 = pieceTruth(pa, p0, [], [], false);
      const T1 = pieceTruth(pa, p1, [], [], false);
      for (const T of [T0, T1]) if (dist(T.pA, T.pB) > 0) starts.push(unit(sub(T.pB, T.pA)));
      for (const c of [...starts, ...candidateAxes(P.A, B1)]) {
        for (const u of [c, scale(c, -1)]) {
          const v = g(u);
          if (v > best) {
            best = v;
            d0 = u;
          }
        }
      }
      let d: V;
      [d, best] = maximiseOnSphere(g, d0, 1e-3, 300);
      // Along each edge's normal circle through each start (a ridge of g when the edge bounds
      // the contact): golden-section search of the angle about the start's projection.
      const k = (Math.sqrt(5) - 1) / 2;
      for (const s0 of [d, ...starts]) {
        for (const e0 of edges) {
          if (best > floor) break;
          const e = unit(e0);
          const q = sub(s0, scale(e, dot(s0, e)));
          if (!(norm(q) > 0.5)) continue;
          const p = unit(q);
          const r = cross3(e, p);
          const at = (a: number): V => unit(add(scale(p, Math.cos(a)), scale(r, Math.sin(a))));
          let lo = -0.25;
          let hi = 0.25;
          for (let n = 0; n < 160 && hi - lo > 1e-16; n++) {
            const a1 = hi - k * (hi - lo);
            const a2 = lo + k * (hi - lo);
            if (g(at(a1)) < g(at(a2))) lo = a1;
            else hi = a2;
          }
          const v = g(at((lo + hi) / 2));
          if (v > best) {
            best = v;
            d = at((lo + hi) / 2);
          }
        }
      }
      if (!(best > floor)) return false;
    }
  }
  return true;
}

const cross3 = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** The `collide query` castShapes line of a scenario: its world shapes, velocities and maxToi. */
export function castLine(sc: Scenario) {
  return {
    op: "castShapes",
    a: sc.worldA,
    velocityA: sc.velocityA,
    b: sc.worldB,
    velocityB: sc.velocityB,
    maxToi: sc.maxToi,
  };
}

function checkCast(ctx: Ctx, sc: Scenario, P: PairInfo): void {
  if (P.A.halfspace || P.B.halfspace) {
    // Half-spaces are unbounded: the swept test still applies through pairTruth.
  }
  const line = castLine(sc);
  const r0 = ask(ctx, "castShapes", line);
  if (!r0.ok) return;
  const r = r0.result as {
    toi: number;
    normal: number[];
    pointA: number[];
    pointB: number[];
  } | null;
  const w = sub(toV(sc.velocityB), toV(sc.velocityA));
  const speed = norm(w);
  const issues: string[] = [];
  // Conservative advancement with certified lower bounds: every step is safe.
  let t = 0;
  let T = P.truth;
  let hit = T.upper <= P.tolAmb;
  // The bar: 16 distance bars (FORMATS.md), plus the rounding of the relative motion itself: a
  // time of impact is a double, and B's displacement w·t is known only to its rounding
  // (64·ε·|w|·t), which exceeds the shapes' own bar when a small pair travels far.
  const tolShape = distTol(ctx, P, 0) * 16;
  const travel = (time: number) => 64 * EPS * speed * time;
  let tolPos = tolShape;
  const inter = ctx.lastIntersects;
  // A start within the rounding that `intersects` calls apart (docs/FORMATS.md, castShapes):
  // the piece pairs that touch there and open along a plane that separates them (a
  // well-conditioned direction, nearClosing) never meet again, and the cast answers the next
  // meeting; the advancement goes on without them.
  let skip: Set<string> | undefined;
  if (hit && inter === false && !P.A.halfspace && !P.B.halfspace) {
    const { mu, opening } = nearClosing(P.A, P.B, T, w, 4 * P.tolAmb, 1e3 * P.tolAmb);
    if (mu < 0 && opening.size > 0) {
      skip = opening;
      T = movedTruth(P, sc, 0, w, [T.pA, T.pB], skip);
      hit = T.upper <= P.tolAmb;
    }
  }
  // The same start where no such plane is found: the distance of each convex piece pair under
  // linear motion is a convex function of t, so a piece pair within the rounding at 0 and
  // certified apart by more than that at a probe time ε has opened and stays apart after ε. When
  // the whole pair is certified apart at ε (B moved 1,000 bars), the cast may answer at once or
  // the next meeting, which the advancement from ε bounds.
  let opened = 0;
  if (hit && inter === false && skip === undefined && speed > 0) {
    const eps = (1e3 * tolShape) / speed;
    if (eps < sc.maxToi) {
      const Te = movedTruth(P, sc, eps, w, [T.pA, T.pB]);
      if (Te.lower > 2 * P.tolAmb) {
        opened = eps;
        t = eps;
        T = Te;
        hit = false;
      }
    }
  }
  for (let i = 0; i < 60 && !hit && t <= sc.maxToi; i++) {
    const step = T.lower > 0 ? T.lower / speed : 0;
    if (!(step > 0)) break;
    t += step;
    if (t > sc.maxToi) break;
    T = movedTruth(P, sc, t, w, [T.pA, T.pB], skip);
    if (T.upper <= tolShape + travel(t)) hit = true;
  }
  if (r !== null && inter !== null) {
    if (inter && r.toi !== 0) issues.push(`toi ${r.toi}, but intersects is true`);
    if (!inter && r.toi === 0) issues.push("toi 0, but intersects is false");
  }
  if (r === null) {
    if (inter) issues.push("null, but intersects is true");
    if (hit && t < sc.maxToi * (1 - 1e-9) - tolPos / speed && clearlyMeet(P, sc, t, T, w, skip))
      issues.push(`null, but the shapes meet at t ≈ ${t}`);
  } else {
    const toi = r.toi;
    // (t is Infinity when the advancement proved they never meet.)
    tolPos = tolShape + travel(Number.isFinite(t) ? Math.max(toi, t) : toi);
    if (!(toi >= 0 && toi <= sc.maxToi)) issues.push(`toi ${toi} outside [0, maxToi]`);
    // The shapes must not be certified apart at the reported toi.
    const Tt = movedTruth(P, sc, toi, w, [local(sc, toV(r.pointA)), local(sc, toV(r.pointB))]);
    bar(
      ctx,
      "castShapes",
      "shapes apart at the reported toi",
      Math.max(0, Tt.lower),
      tolPos,
      line,
      r,
      issues,
    );
    // Nor meet before the advancement's safe time (certified lower bound on the toi). A start
    // within the rounding whose pieces open (`skip`) may also be answered "at once", a toi whose
    // travel is within the bar: the library proves the opening only from its own normals
    // (docs/FORMATS.md, castShapes), and a pair touching within the bar touches.
    const atOnce = (skip !== undefined && toi * speed <= tolPos) || (opened > 0 && toi <= opened);
    if (toi < t && !atOnce)
      bar(
        ctx,
        "castShapes",
        "toi before the certified earliest contact",
        // The travel between them (none without motion: a pair touching within the ambiguity,
        // answered at once, had t = Infinity and the error ∞·0 = NaN), but no more than the
        // certified gap at toi: a pair apart by less than the bar there touches within it
        // (a box's corner 1e-10 beside a triangle's edge of 8e5, `intersects` true, toi 0, and
        // opening: the advancement's steps on the certified gap passed 60 of them, 3e-7 of travel;
        // issue 16, seed 101's class, test/fuzz/apex-edge-cast.gen.ts).
        speed > 0 ? Math.min((t - toi) * speed, Math.max(0, Tt.lower)) : 0,
        tolPos,
        line,
        r,
        issues,
      );
    if (hit && toi > t && !atOnce) {
      // The contact would lie at t + gap/μ were the gap to keep closing at μ (a curved pair's
      // closes ever slower: apartUntil below), μ the closing speed along the oracle's normal:
      // the witnesses' direction when they are apart well above the rounding of their
      // coordinates, else a direction that separates the touching pieces (nearClosing; two
      // witnesses 1e-12 apart at 1e4 give noise).
      const noise = 1e3 * P.tolAmb;
      const mu =
        dist(T.pA, T.pB) > noise
          ? -dot(w, unit(sub(T.pB, T.pA)))
          : nearClosing(P.A, movedOShape(P, sc, t, w), T, w, tolShape + travel(t), noise).mu;
      const late = mu > 0 ? (toi - t) * mu - T.upper : 0;
      // The look-ahead t + gap/μ is where they would meet if the gap kept closing at μ; a curved
      // pair's gap is convex in t and its closing slows (a box's corner sliding over a cone of
      // 1.5e-6 closed at 5.7e-6 along the witnesses, then at 6.6e-7, and met 1.8e-8 later
      // than the look-ahead; issue 16, seed 54). No such claim stands where a fixed plane keeps
      // every piece pair apart from t until the latest meeting that is not late (apartUntil).
      // Closing at μ is not meeting: a pair within the bar that grazes past and opens again may
      // be answered by its next meeting, as it may be null (docs/FORMATS.md, castShapes), so a
      // later toi is wrong only where the pair certainly meets (clearlyMeet). Issue 16: a box
      // child 1.0e-9 from a triangle's corner at 2.5e7 closed at 1.4 along the witnesses but
      // passes the corner no closer than 9.4e-10 (test/fuzz/cast-graze.test.ts).
      const onTime =
        late > tolPos &&
        (apartUntil(P, sc, t, toi - tolPos / mu, w, skip) ||
          shallowUntil(P, sc, t, toi, w, [T.pA, T.pB], tolPos, skip));
      if (!onTime && (!(late > tolPos) || clearlyMeet(P, sc, t, T, w, skip, mu)))
        bar(
          ctx,
          "castShapes",
          "toi after the shapes meet",
          Math.max(0, late),
          tolPos,
          line,
          r,
          issues,
        );
    }
    if (Math.abs(norm(toV(r.normal)) - 1) > 1e-9) issues.push("normal not unit");
  }
  if (issues.length) fail(ctx, "castShapes", issues.join("; "), line, r, Infinity);
}

/**
 * How far `toi` is from the ray's first contact, scene units, as far as the oracle can certify:
 * the conservative advancement's hitT is where the ray came within tolP/4 of the shape, which
 * at a grazing angle is far before the true first contact (the ray runs alongside the surface),
 * so a later toi is only wrong when the ray passes through the solid's interior before it:
 * then the error is the depth reached there (sampled), else 0 — the hit point's own place on
 * the surface and the free path before hitT are checked separately. Surfaces (a triangle, a
 * mesh) have no interior to sample and keep |toi − hitT|.
 */
function lateHit(
  S: OShape,
  ol: V,
  dir: V,
  hitT: number,
  toi: number,
  len: number,
  tolP: number,
): number {
  const gap = Math.abs(toi - hitT) * len;
  if (gap <= tolP * 4 || toi < hitT || S.type === "mesh" || S.type === "triangle") return gap;
  let deepest = 0;
  const n = 256;
  for (let i = 1; i < n; i++) {
    const p = add(ol, scale(dir, hitT + ((toi - hitT) * i) / n));
    deepest = Math.max(deepest, -shapeSigned(S, p));
  }
  return deepest;
}

/**
 * The largest depth inside convex `S` of the ray ol + t·dir over t ∈ [t0, t1]: the signed
 * distance of a convex set is convex along a line, so golden-section search finds its least.
 */
function deepestAlong(S: OShape, ol: V, dir: V, t0: number, t1: number): number {
  const f = (t: number): number => shapeSigned(S, add(ol, scale(dir, t)));
  const g = (Math.sqrt(5) - 1) / 2;
  let lo = Math.max(0, t0);
  let hi = t1;
  let best = Math.min(f(lo), f(hi));
  for (let i = 0; i < 100 && hi > lo; i++) {
    const m1 = hi - g * (hi - lo);
    const m2 = lo + g * (hi - lo);
    const f1 = f(m1);
    const f2 = f(m2);
    best = Math.min(best, f1, f2);
    if (f1 < f2) hi = m2;
    else lo = m1;
  }
  return -best;
}

function checkRay(
  ctx: Ctx,
  sc: Scenario,
  S: OShape,
  wS: Record<string, unknown>,
  _loc: unknown,
): void {
  const rng = new Rng((sc.offset[0] * 1e3 + S.radius * 7919) | 0);
  const R = S.halfspace ? 1 : S.radius;
  const c = S.center;
  const mode = rng.next();
  let o: V;
  if (mode < 0.2) o = add(c, scale(rng.unit() as V, R * rng.range(0, 0.5)));
  else o = add(c, scale(rng.unit() as V, R * rng.range(1.2, 4)));
  let d = unit(sub(add(c, scale(rng.unit() as V, R * rng.range(0, 0.8))), o));
  if (norm(d) === 0) d = [0, 1, 0];
  const len = 10 ** rng.range(-3, 3);
  const dir = scale(d, len);
  const maxToi = (R * rng.range(0.5, 6)) / len;
  const solid = rng.chance(0.7);
  const ow = add(o, sc.offset as V);
  // Exact shift check: origin in world must be exact.
  const line = { op: "raycast", shape: wS, origin: ow, direction: dir, maxToi, solid };
  const r0 = ask(ctx, "raycast", line);
  if (!r0.ok) return;
  const r = r0.result as { toi: number; point: number[]; normal: number[] } | null;
  const issues: string[] = [];
  const tolP = 1e-9 * R + 64 * EPS * R * 4 + 4 * ulpOf(ow);
  const ol = local(sc, ow);
  // Whether the ray reaches the shape is decided on the exact input: a shape placed by its own
  // pose (a centre or position given) is the library's shape exactly, and the ray's origin in
  // its frame, ow − position, is exact (the two are close), so the library's miss or first
  // contact is good to the rounding of the local frame, not to an ulp of the offset (a compound
  // of 1e-7 at 3e8 was "reached" by a ray passing 3e-8 beside it, a box of 1e-4 at 1e8 first
  // "reached" 6.7e-7 early by a ray grazing its corner). Forms placed by points or an offset
  // (aabb, capsule, half-space: a centre computed in the world) keep the world's ulp.
  const placedByPoints = S.type === "aabb" || S.type === "capsule" || S.halfspace !== null;
  const tolReach = placedByPoints ? tolP : 1e-9 * R + 64 * EPS * R * 4 + 4 * ulpOf(ol);
  const startInside = shapeSigned(S, ol) <= 0 && (S.halfspace !== null || S.pieces.length > 0);
  const isSolidShape = S.type !== "triangle" && S.type !== "mesh";
  // Conservative advancement along the ray with the shape's distance (safe steps).
  let t = 0;
  let hitT = -1;
  if (!(startInside && isSolidShape)) {
    for (let i = 0; i < 400 && t <= maxToi; i++) {
      const p = add(ol, scale(dir, t));
      const [, dd] = shapeClosest(S, p);
      const sd = S.type === "mesh" || S.type === "triangle" ? dd : Math.max(0, shapeSigned(S, p));
      if (sd <= tolReach * 0.25) {
        hitT = t;
        break;
      }
      t += sd / len;
    }
  }
  // The advancement stops within a quarter of the bar of the shape: a grazing ray is there
  // well before its first contact (a box mesh's face met at 1/19 of the ray's length: 1.7e-5
  // early against a bar of 1.5e-5). Safe steps continue to the rounding level of the local frame;
  // taken only when they get there (a near miss that the bar let through moves on past it).
  if (hitT >= 0) {
    const tight = placedByPoints ? tolP * 0.25 : 64 * EPS * R + ulpOf(ol);
    let t2 = hitT;
    for (let i = 0; i < 400 && t2 <= maxToi; i++) {
      const p = add(ol, scale(dir, t2));
      const [, dd] = shapeClosest(S, p);
      const sd = S.type === "mesh" || S.type === "triangle" ? dd : Math.max(0, shapeSigned(S, p));
      if (sd <= tight) {
        hitT = t2;
        break;
      }
      t2 += sd / len;
    }
  }
  if (startInside && isSolidShape && solid) {
    if (r?.toi !== 0)
      issues.push(`origin inside a solid shape: expected toi 0, got ${r ? r.toi : "null"}`);
  } else if (!(startInside && isSolidShape)) {
    if (r === null) {
      // A form placed by points is the library's shape only to the world's rounding, so the ray
      // "reaches" it within that bar outside; a miss is then wrong only where the ray goes as
      // deep inside (an aabb of 1e-6 at 4.8e8 passed 2e-8 beside its edge, a miss in exact
      // arithmetic on the input's doubles, flagged at the bar's 6e-8; seed 32).
      const within = placedByPoints && deepestAlong(S, ol, dir, hitT, maxToi) < tolReach * 0.25;
      if (hitT >= 0 && hitT < maxToi * (1 - 1e-9) && !within)
        issues.push(`null, but the ray reaches the shape at t ≈ ${hitT}`);
    } else {
      const p = local(sc, toV(r.point));
      const expect = add(ol, scale(dir, r.toi));
      bar(ctx, "raycast", "point ≠ origin + toi·direction", dist(p, expect), tolP, line, r, issues);
      bar(
        ctx,
        "raycast",
        "hit point off the surface",
        surfaceDistance(S, p),
        tolP,
        line,
        r,
        issues,
      );
      if (r.toi < t && hitT < 0)
        bar(
          ctx,
          "raycast",
          "hit before the certified free path",
          (t - r.toi) * len,
          tolP,
          line,
          r,
          issues,
        );
      if (hitT >= 0)
        bar(
          ctx,
          "raycast",
          "toi differs from the first contact",
          lateHit(S, ol, dir, hitT, r.toi, len, tolP),
          tolP * 4,
          line,
          r,
          issues,
        );
      const n = toV(r.normal);
      if (Math.abs(norm(n) - 1) > 1e-9) issues.push(`normal not unit (${norm(n)})`);
      else if (S.convex && !S.halfspace && S.type !== "triangle") {
        const sp = S.pieces[0].support(n);
        bar(
          ctx,
          "raycast",
          "normal is not outward at the hit",
          Math.abs(dot(n, sub(sp, p))),
          tolP * 1e3 + 1e-7 * R,
          line,
          r,
          issues,
        );
      }
    }
  }
  if (issues.length) fail(ctx, "raycast", issues.join("; "), line, r, Infinity);
}

function checkProject(ctx: Ctx, sc: Scenario, S: OShape, wS: Record<string, unknown>): void {
  const rng = new Rng((S.radius * 104729 + sc.offset[1]) | 0);
  const R = S.halfspace ? 1 : S.radius;
  const q = add(S.center, scale(rng.unit() as V, R * rng.range(0, 2.5)));
  const solid = rng.chance(0.7);
  const qw = add(q, sc.offset as V);
  const ql = local(sc, qw);
  const line = { op: "projectPoint", shape: wS, point: qw, solid };
  const r0 = ask(ctx, "projectPoint", line);
  if (!r0.ok) return;
  const r = r0.result as { point: number[]; distance: number; inside: boolean };
  const issues: string[] = [];
  const tol = 1e-9 * R + 256 * EPS * R + 4 * ulpOf(qw);
  const [cp, cd] = shapeClosest(S, ql);
  const sd = shapeSigned(S, ql);
  const thin = S.type === "triangle" || S.type === "mesh";
  // Meshes are surfaces (FORMATS.md; the fuzzer builds no solid mesh): no inside, and the
  // point and distance of the nearest triangle, as for a triangle.
  if (S.type === "mesh" && r.inside !== false) issues.push("inside is true for a mesh surface");
  if (!thin && sd < -tol && r.inside !== true) issues.push("inside is false for a point inside");
  else if (!thin && sd > tol && r.inside !== false)
    issues.push("inside is true for a point outside");
  else {
    const p = local(sc, toV(r.point));
    if (solid || sd > 0 || thin) {
      bar(
        ctx,
        "projectPoint",
        "distance differs from the oracle",
        Math.abs(r.distance - cd),
        tol,
        line,
        r,
        issues,
      );
      bar(
        ctx,
        "projectPoint",
        "point differs from the oracle's closest point",
        dist(p, cp),
        Math.max(tol, 1e-6 * R),
        line,
        r,
        issues,
      );
    } else {
      bar(
        ctx,
        "projectPoint",
        "distance to the boundary differs",
        Math.abs(r.distance + sd),
        tol,
        line,
        r,
        issues,
      );
      bar(
        ctx,
        "projectPoint",
        "point off the boundary",
        surfaceDistance(S, p),
        tol,
        line,
        r,
        issues,
      );
    }
  }
  if (issues.length) fail(ctx, "projectPoint", issues.join("; "), line, r, Infinity);
}

/**
 * The oracle's translation of B that makes A and B touch: minus the certified gap along the
 * direction between the oracle's closest points; null for two half-spaces, a non-positive or
 * unbounded gap, or coincident points (the scenarios' "touching" placement).
 */
export function touchDisplacement(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): number[] | null {
  const A = oshape(a);
  const B = oshape(b);
  if (A.halfspace && B.halfspace) return null;
  const T = pairTruth(A, B, [], false);
  if (!(T.upper > 0) || !Number.isFinite(T.upper)) return null;
  const u = unit(sub(T.pB, T.pA));
  if (norm(u) === 0) return null;
  return scale(u, -T.upper);
}
/** Runs the fuzzer. */
export function runFuzz(options: FuzzOptions): FuzzReport {
  const opts = {
    queries: options.queries,
    seed: options.seed,
    depthRel: options.depthRel ?? 1e-6,
    distRel: options.distRel ?? 1e-9,
    maxFailures: options.maxFailures ?? 1000,
    facing: options.facing ?? true,
    ops: new Set(options.ops ?? OPS),
  };
  const types = options.types ?? TYPES;
  const report: FuzzReport = {
    table: new Map(),
    failures: [],
    queries: 0,
    wrong: 0,
    unsupported: 0,
    errors: 0,
    seconds: 0,
  };
  const rng = new Rng(opts.seed);
  const t0 = performance.now();
  const touch = touchDisplacement;
  let n = 0;
  while (report.queries < opts.queries) {
    const ta = types[n % types.length];
    const tb = types[Math.floor(n / types.length) % types.length];
    n++;
    const sc = makeScenario(rng, ta, tb, touch);
    const pair = [ta, tb].sort((x, y) => ALL_TYPES.indexOf(x) - ALL_TYPES.indexOf(y)).join("-");
    const ctx: Ctx = { report, pair, opts, lastIntersects: null, sc };
    try {
      runScenario(ctx, sc);
    } catch (e) {
      report.errors++;
      fail(
        ctx,
        "oracle",
        `fuzzer error ${(e as Error).stack}`,
        { a: sc.worldA, b: sc.worldB },
        null,
        Infinity,
      );
    }
  }
  report.seconds = (performance.now() - t0) / 1000;
  return report;
}

/**
 * Runs every op of one recorded scenario (a failure's `scenario`) again; returns its failures.
 * The facing bar is checked unless `options.facing` is false, as in `runFuzz` (a recorded case
 * that opts out points to its line in test/fuzz/open/).
 */
export function replayScenario(
  sc: Scenario,
  pair: string,
  options?: Partial<FuzzOptions>,
): Failure[] {
  const report: FuzzReport = {
    table: new Map(),
    failures: [],
    queries: 0,
    wrong: 0,
    unsupported: 0,
    errors: 0,
    seconds: 0,
  };
  const opts = {
    queries: 0,
    seed: 0,
    depthRel: options?.depthRel ?? 1e-6,
    distRel: options?.distRel ?? 1e-9,
    maxFailures: Number.POSITIVE_INFINITY,
    facing: options?.facing ?? true,
    ops: new Set(options?.ops ?? OPS),
  };
  runScenario({ report, pair, opts, lastIntersects: null, sc }, sc);
  return report.failures;
}

/** The table as text: one row per pair, one column per op (queries/wrong/max error). */
export function formatTable(report: FuzzReport): string {
  const pairs = [...new Set([...report.table.keys()].map((k) => k.split("|")[0]))].sort();
  const ops = [...OPS, "oracle"].filter((op) =>
    [...report.table.keys()].some((k) => k.endsWith(`|${op}`)),
  );
  const rows = [["pair", ...ops].join("\t")];
  for (const p of pairs) {
    const cols = ops.map((op) => {
      const c = report.table.get(`${p}|${op}`);
      if (!c) return "-";
      const e = c.maxError === Infinity ? "inf" : c.maxError.toFixed(2);
      return `${c.queries}/${c.wrong}/${e}`;
    });
    rows.push([p, ...cols].join("\t"));
  }
  rows.push(
    `total: ${report.queries} queries, ${report.wrong} wrong, ${report.unsupported} unsupported, ${report.errors} errors, ${report.seconds.toFixed(1)} s (cells: queries/wrong/max error in units of the bar)`,
  );
  return rows.join("\n");
}

void exactContains;
void sepPieces;
void maximiseOnSphere;
