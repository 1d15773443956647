/**
 * The differential fuzzer in CI (issue 16, must-have 4): FUZZ_QUERIES queries (default 100,000)
 * from seed FUZZ_SEED (default 16) over every pair of shape types and every op, each checked
 * against the independent oracles at the bars of docs/FORMATS.md ("Accuracy"), the facing bar
 * (witnesses across the normal from each other) included.
 *
 * Clean at this seed since session 19 (it began at 680 wrong of 100,003); other seeds still find
 * wrong answers (seeds 17/18/19: 3, 2, 4 — aabb–convex depths, a compound's cylinder cap under a
 * cone's slant generator whose feature witnesses carry the normal's tilt, a compound pair's gap
 * above the oracle's; `npx tsx scripts/fuzz-breakdown.ts` classifies them). This test is a ratchet: no crash, no thrown error, and no more wrong answers
 * than KNOWN_WRONG (the fuzzer is deterministic for a seed, so a new fault class or a regression
 * raises the count). The issue is done when every seed is clean. A failure prints the table and
 * the first failing `collide query` lines.
 */
import { describe, expect, it } from "vitest";
import { formatTable, runFuzz } from "./fuzz.js";

const QUERIES = Number(process.env.FUZZ_QUERIES ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 16);
/**
 * Wrong answers at the default seed and count on this commit (see above). 1,510 before the
 * composite path landed; 1,867 after it, when pairs that answered `unsupported_pair` before
 * (casts against meshes, compounds and half-spaces, half-space pairs) began to answer and some
 * of those answers miss the bars; 1,519 with one mesh semantics in every query (class 9) and the
 * half-space pairs' unbounded contacts as FORMATS.md states them; 1,521 after the same session's
 * other branches merged (flat convex polygons, heightfield composite changes, EPA rework: two
 * more wrong answers among them, not yet analysed); 1,368 with closed forms for sphere and
 * capsule against cylinder and cone, box–box and sphere–sphere ties broken symmetrically, and
 * castShapes's toi 0 decided by intersects (seed 17: 1,455 → 1,309 by the same changes): to be
 * brought down; 1,143 after merging main with those changes (the session's other branches):
 * never raised again without a reason. 680 (1,144 on the tree this started from) with witness
 * points on their shapes — the refinement following edge ridges, face-normal snapping, the
 * capsule's side line as its support segment, mesh–half-space ignoring unused vertices — the
 * hull oracle's tolerances taken about the hull's centroid, and convex distance/contact deciding
 * touching by intersects' test (seed 17: 1,092 → 700; seed 18: 1,193 → 694). 681 after merging
 * the one sphere–triangle routine (the mesh's bypass removed): one more wrong answer, a
 * triangle–compound contact whose normal does not achieve the depth, not yet analysed. 479
 * with castShapes deciding toi 0 by the intersects query's own predicate, searching in an
 * offset-free frame and stopping at a gap relative to the smaller shape, and the cast oracle
 * owing a hit only when the shapes clearly meet and counting the motion's rounding (castShapes
 * 216 → 14 wrong; seed 17: 697 → 492, castShapes 220 → 15). 464 with the curved branch too:
 * GJK's stalled near-touching gap marked unproven (intersects true, contact and distance from the
 * smaller of the refined normal and EPA), sphere–capsule and capsule–capsule deciding touching
 * by one closed form, same-type pairs computed in one canonical order and flipped, and the
 * oracle proving a curved pair's overlap by a point inside both shapes. 384 with the composite
 * distance writing its result after the part queries (compound witness points; seed 17: 388,
 * seed 18: 341). 326 with a curved contact's normal taken to the fixed point of the exact projection
 * onto the cylinder or cone (witnesses on the curved surface), parallel cylinders in closed form
 * and same-type half turns ordered by their translation (seed 17: 317, seed 18: 273). 234 with
 * one truth across operations (src/narrowphase/touching.ts: queries and the world call a pair in
 * one order with the pose formed in that order, near-touching answers decided by intersects —
 * in the world too, and in `manifold` — candidate boxes padded for rounding, part ties to the
 * lower index in contact and manifold; seed 17: 201, seed 18: 168). (On its own base, before
 * that: 227 with sphere–box box-first routines and one touching predicate, clipping against
 * faces collapsed to segments, the capsule's ends kept exact, sphere–triangle normals
 * perpendicular to the edge, and the query's pair ops in a local frame; seed 17: 246, seed 18: 218.)
 * 145 with both (seed 17: 128, seed 18: 114). 110 with GJK's rounding-level simplex and its
 * stall tested for a gap beyond the touching tolerance, and castShapes' start decided in the
 * intersects query's order (seed 17: 90, seed 18: 92). 103 with half-space pairs in the
 * half-space's frame (the plane's offset from the shape formed exactly), the oracle's half-space
 * gap and moved half-space truth exact the same way, and the query's local frame leaving an axis
 * unshifted where the shift would round (seed 18: 87, seed 19: 119 → 103; the oracle now exact
 * shows halfspace–compound's child poses rounding at the compound's offset: 2 at seed 16).
 * 71 with the curved pairs' ridge search and exact flat-contact witnesses and the composite
 * fixes (penetrating ties keep their own contact, hollow compound projection, the manifold's
 * touching band) merged with the above (seed 17: 60, seed 18: 67, seed 19: 67). 61 with the
 * JSON shapes of a line or scene read in one local frame by the pair ops, `pairs`, `collide
 * check` and the world check alike (src/io/local-frame.ts), composites with a position included
 * (seed 17: 51, seed 18: 54); alone, face-depth's Newton steps (a face contact's witnesses span
 * its depth) and the ray oracle deciding reach and first contact at the local frame's rounding
 * gave 64 (seed 17: 53, seed 18: 65, seed 19: 64); and alone, the ray oracle's grazing stop no
 * longer taken for the first contact (a later toi is wrong only if the ray crossed the interior
 * before it: the six it dropped were exact, checked with rationals and 60-digit roots) gave 65.
 * 53 with all three merged (seed 17: 42, seed 18: 49, seed 19: 52). 46 with two parallel
 * segments' manifold points on both segments, a curved pair's GJK gap unbacked by the separation
 * along its own direction decided by the refined overlap, and a curved feature's witnesses judged
 * on GJK's points rather than its |v| (seed 17: 42 → 34). 37 with a triangle against a box, a
 * triangle or a hull by SAT and exact closest features in the triangle's local frame, and
 * sphere–triangle in the triangle's frame in both orders (src/narrowphase/triangle-polytope.ts,
 * sphere-triangle.ts; the replayed triangle failures of seeds 17/18/19 drop 2/3/12). 30 with
 * the curved and the triangle fixes together, beside the box–box SAT tie, clipping slack and
 * box–box distance by the SAT (box pairs had no failure at seed 16; seeds 17/18/19: 32/42/32).
 * 23 with half-space × compound in the compound's frame (both halfspace-compound lines), and
 * intersects deciding GJK's rounding-level contact of a point, segment or triangle simplex by
 * the refined, snapped least overlap (triangle–compound: a cylinder child 6.9e-16 from a
 * triangle was intersecting; cylinder–cone's normal at 1e7 also passes). 17 with the normal
 * refinement keeping a support that slides in proportion to the tilt (a large cone's or
 * cylinder's rim seen from a small shape's frame had been taken for a face, its witness moved
 * off it: aabb-cone, cone-cone and the rim-on-rim lines of test/fuzz/revolution-witness).
 * 13 with the general narrow phase solving a small B in a frame at its centre (aabb-cone's
 * cone of 1e-5 on a box edge of 2e3, box-cone's gap at 3.6e8: test/fuzz/small-large-frame;
 * seeds 17/18: 23 → 11, 27 → 26). 7 with EPA's witnesses found by GJK between A and B moved
 * past touching when no polytope face holds the contact point (a flat aabb grazed by a hull, a
 * box against a compound's cone: test/fuzz/epa-witness; seeds 17/18: 11 → 10, 26 → 16).
 * 0 with a curved pair's witnesses at a touch, at a gap in the near-touching band or apart
 * sideways, and at an overlap within rounding taken onto both shapes by alternating exact
 * projections, deeper overlaps' witnesses seated on their own shapes, and a rounded pair's core
 * gap unbacked by GJK's own direction decided as a stall (test/fuzz/curved-polish), two
 * polytopes' normal snapped to the exact axis of EPA's answer face and intersects' touching
 * tolerance counting B's offset (test/fuzz/normal-depth). 0 with the facing bar (a contact's and
 * each manifold point's witnesses facing each other across the normal) checked by default since
 * session 28: 2 before (box–cone and cone–cone manifolds of two parallel supporting segments,
 * their points abreast on the segments but apart sideways: test/fuzz/curved-manifold).
 */
const KNOWN_WRONG = 0;

describe("differential fuzzer", () => {
  it(`${QUERIES} queries from seed ${SEED}: no errors, at most the known wrong answers`, {
    timeout: 1_800_000,
  }, () => {
    const report = runFuzz({ queries: QUERIES, seed: SEED, maxFailures: 20 });
    const lines = report.failures.map(
      (f) => `${f.pair} ${f.op}: ${f.reason}\n  ${JSON.stringify(f.line)}`,
    );
    const defaults = QUERIES === 100_000 && SEED === 16;
    if (report.errors > 0 || (defaults && report.wrong > KNOWN_WRONG)) {
      console.log(`${formatTable(report)}\n${lines.join("\n")}`);
    }
    expect(report.errors).toBe(0);
    if (defaults) expect(report.wrong).toBeLessThanOrEqual(KNOWN_WRONG);
  });
});
