/**
 * `collide query` answers pair ops in a local frame at the smallest shape (an exact shift) and
 * moves the answer's points back: FORMATS.md's contract is the world frame, so every point the
 * command prints must be the world point. Hand-derived oracle: a sphere of radius 1 at
 * (40000003, 0.5, 0) and the aabb [40000000, 40000001] × [−1, 1] × [−1, 1] are 1 apart along x;
 * the closest points are (40000002, 0.5, 0) on the sphere and (40000001, 0.5, 0) on the box (all
 * exact doubles). Moved 1.5 toward the box the sphere overlaps it by 0.5; cast toward it at unit
 * speed it touches at t = 1. The same pair at the origin gives the same answers minus the offset.
 */
import { describe, expect, it } from "vitest";
import { jsonLines, runCli } from "./run-cli.js";

const X = 40000000;
const sphere = (x: number) => ({ type: "sphere", center: [x, 0.5, 0], radius: 1 });
const box = (x: number) => ({ type: "aabb", min: [x, -1, -1], max: [x + 1, 1, 1] });

type R = Record<string, unknown> & {
  distance: number;
  normal: number[];
  pointA: number[];
  pointB: number[];
};

function run(lines: object[]): unknown[] {
  const r = runCli(["query"], `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  expect(r.status).toBe(0);
  return jsonLines(r.stdout).map((l) => l.result);
}

describe("collide query: answers in the world frame after the local frame", () => {
  it("distance, contact, manifold, castShapes and pairs of a pair at 4e7: world points", () => {
    const [dist, cont, man, cast, pairs, inter] = run([
      { op: "distance", a: sphere(X + 3), b: box(X) },
      { op: "contact", a: sphere(X + 1.5), b: box(X) },
      { op: "manifold", a: sphere(X + 1.5), b: box(X) },
      {
        op: "castShapes",
        a: sphere(X + 3),
        velocityA: [-1, 0, 0],
        b: box(X),
        velocityB: [0, 0, 0],
        maxToi: 10,
      },
      { op: "pairs", shapes: [box(X), sphere(X + 3), sphere(X + 1.5)] },
      { op: "intersects", a: sphere(X + 2), b: box(X) },
    ]) as R[];
    expect(dist).toEqual({ distance: 1, pointA: [X + 2, 0.5, 0], pointB: [X + 1, 0.5, 0] });
    expect(cont.distance).toBe(-0.5);
    expect(cont.normal).toEqual([-1, 0, 0]);
    expect(cont.pointA).toEqual([X + 0.5, 0.5, 0]);
    expect(cont.pointB).toEqual([X + 1, 0.5, 0]);
    const m = man as unknown as { normal: number[]; points: R[] };
    expect(m.normal).toEqual([-1, 0, 0]);
    expect(m.points.length).toBe(1);
    expect(m.points[0]).toEqual({
      pointA: [X + 0.5, 0.5, 0],
      pointB: [X + 1, 0.5, 0],
      distance: -0.5,
    });
    expect(cast.toi).toBe(1);
    expect(cast.normal).toEqual([-1, 0, 0]);
    // Witness points at the time of impact: the sphere has moved to x = X + 2.
    expect(cast.pointA).toEqual([X + 1, 0.5, 0]);
    expect(cast.pointB).toEqual([X + 1, 0.5, 0]);
    // The box touches the nearer sphere only; the spheres overlap (centres 1.5 apart, radii 1).
    expect(pairs).toEqual({
      pairs: [
        [0, 2],
        [1, 2],
      ],
    });
    expect(inter).toEqual({ intersects: true });
  });

  it("the same pair at the origin: the same answers minus the offset", () => {
    const at = (x: number) =>
      run([
        { op: "distance", a: sphere(x + 3), b: box(x) },
        { op: "contact", a: sphere(x + 1.5), b: box(x) },
      ]) as R[];
    const [d0, c0] = at(0);
    const [d1, c1] = at(X);
    expect(d1.distance).toBe(d0.distance);
    expect(c1.distance).toBe(c0.distance);
    expect(c1.normal).toEqual(c0.normal);
    for (const [p0, p1] of [
      [d0.pointA, d1.pointA],
      [d0.pointB, d1.pointB],
      [c0.pointA, c1.pointA],
      [c0.pointB, c1.pointB],
    ]) {
      expect(p1).toEqual([p0[0] + X, p0[1], p0[2]]);
    }
  });
});
