/**
 * The checks of test/fuzz/cone-margin.test.ts: the library's intersects, distance and contact of
 * a pair (both orders) against the least overlap over directions of test/oracles/ridge-overlap.ts
 * at the bars of docs/FORMATS.md.
 */
import { answerQuery } from "../../src/io/query.js";
import { type J, leastOverlap, overlapAlong } from "../oracles/ridge-overlap.js";
import { norm, scale, sub, type V } from "./oracle-shapes.js";

const EPS = 2 ** -52;

/** Half the largest extent of a shape (about its centre). */
export function sizeOf(s: J): number {
  const t = s.type as string;
  if (t === "cone" || t === "cylinder")
    return Math.hypot(s.halfHeight as number, s.radius as number);
  if (t === "box" || t === "roundedBox")
    return norm(s.halfExtents as V) + ((s.radius as number) ?? 0);
  if (t === "sphere") return s.radius as number;
  return Math.max(...(s.points as V[]).map(norm)) + ((s.radius as number) ?? 0);
}

const centreOf = (s: J): V =>
  ((s.type === "convex" || s.type === "roundedConvex" ? s.position : s.center) ?? [0, 0, 0]) as V;

// biome-ignore lint/suspicious/noExplicitAny: the query's JSON answer
export type Answer = any;

/**
 * The library's intersects, distance and contact of world shapes A, B (both orders) against the
 * oracle's least overlap of the local pair; returns the failures' descriptions.
 */
export function check(localA: J, localB: J, worldA: J, worldB: J, extraHints: V[] = []): string[] {
  const bad: string[] = [];
  const answers: { c: Answer; d: Answer; i: Answer; flip: boolean }[] = [];
  for (const flip of [false, true]) {
    const [a, b] = flip ? [worldB, worldA] : [worldA, worldB];
    const c = answerQuery({ op: "contact", a, b } as never) as Answer;
    const d = answerQuery({ op: "distance", a, b } as never) as Answer;
    const i = answerQuery({ op: "intersects", a, b } as never) as Answer;
    answers.push({ c, d, i, flip });
  }
  // Directions to start the oracle's search from as well: the caller's (the placement's
  // normal), the library's normals and its distance's direction (pB − pA). Each only adds an
  // actual direction's overlap: the oracle's answer stays an upper bound of the depth.
  const hints: V[] = [...extraHints];
  for (const { c, d, flip } of answers) {
    const sign = flip ? -1 : 1;
    if (c) hints.push(scale(c.normal, sign));
    if (d.distance > 0) hints.push(scale(sub(d.pointB, d.pointA), sign));
  }
  const truth = leastOverlap(localA, localB, hints);
  const D = truth.value;
  const sA = sizeOf(localA);
  const sB = sizeOf(localB);
  // L as the fuzzer takes it (test/fuzz/fuzz.ts): the sizes and the centres' distance.
  const L = Math.max(sA, sB, norm(sub(centreOf(localA), centreOf(localB))));
  const s = Math.min(sA, sB);
  // The oracle's own rounding: support values about B's centre, A's at its distance from it.
  const round = 16 * EPS * L;
  const depthBar = 1e-6 * Math.abs(D) + 64 * EPS * L + round;
  const gapBar = 1e-9 * Math.max(Math.abs(D), s) + 64 * EPS * L + round;
  for (const { c, d, i, flip } of answers) {
    const tag = flip ? "(B, A)" : "(A, B)";
    if (D < -gapBar) {
      // A separation beyond the bar along an actual direction: a certain gap.
      if (i.intersects) bad.push(`${tag} intersects true, gap ${-D}`);
      if (c !== null) bad.push(`${tag} contact ${c.distance} at gap ${-D}`);
      // The separation along the oracle's direction bounds the gap from below (the witnesses'
      // distance bounds it from above: the library's surface checks, test/fuzz/fuzz.ts).
      if (!(d.distance >= -D - gapBar)) bad.push(`${tag} distance ${d.distance} < gap ${-D}`);
    } else {
      // An overlap the oracle's search leaves no doubt of (its least overlap an upper bound of
      // the depth: taken as the depth only well above the rounding, as test/fuzz/fuzz.ts does).
      const sure = D > Math.max(1e-7 * s, 1e3 * 64 * EPS * L);
      if (sure && !i.intersects) bad.push(`${tag} intersects false, depth ${D}`);
      if (sure && d.distance !== 0) bad.push(`${tag} distance ${d.distance}, depth ${D}`);
      if (sure && c === null) bad.push(`${tag} contact null, depth ${D}`);
      // Within the bars of touching: one answer of the three.
      if (i.intersects !== (c !== null))
        bad.push(`${tag} intersects ${i.intersects}, contact ${c}`);
      if (i.intersects !== (d.distance === 0))
        bad.push(`${tag} intersects ${i.intersects}, distance ${d.distance}`);
      if (c === null || !(D > depthBar)) continue;
      // Deeper than a direction's overlap: wrong for certain (F4), beyond its errorBound too.
      if (!(-c.distance <= D + depthBar))
        bad.push(`${tag} depth ${-c.distance} > least overlap ${D}`);
      if (!(-c.distance <= D + c.errorBound + round)) {
        bad.push(`${tag} depth ${-c.distance} − ${D} beyond errorBound ${c.errorBound}`);
      }
      if (sure && !(-c.distance >= D - depthBar))
        bad.push(`${tag} depth ${-c.distance} < least overlap ${D}`);
      // The normal attains the depth (from A toward B in the query's order); the sphere's closed
      // form too (its normal tilted up to √ε past a cone's slant when the squared distances
      // chose the rim, test/fuzz/sphere-cone-normal.test.ts). Not asked of a
      // bare box or hull, whose depth is EPA's on the cores: a cone's apex of 4e-4 6.6e-11 into a
      // hull of 0.03, the depth right to 2e-18 but its normal 4e-10 rad off, 8.8e-16 over along
      // it against a bar of 5.4e-16 (main 55602dc as well; this file's class is the margins').
      const flat = (j: J) => ["box", "convex"].includes(j.type as string);
      if (flat(localA) || flat(localB)) continue;
      const n = flip ? scale(c.normal, -1) : (c.normal as V);
      const along = overlapAlong(localA, localB, n, centreOf(localB));
      if (!(Math.abs(along + c.distance) <= depthBar)) {
        bad.push(`${tag} overlap along the normal ${along}, depth ${-c.distance}`);
      }
    }
  }
  return bad;
}
