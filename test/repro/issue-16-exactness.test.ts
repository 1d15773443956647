/**
 * Issue 16: the minimal input of each fault class found by the differential fuzzer, answered
 * through `collide query` (answerQuery) and checked against values derived by hand. The bars
 * are those of docs/FORMATS.md ("Accuracy").
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";

type R = Record<string, unknown>;
const q = (o: object) => answerQuery(o) as R;
const v = (x: unknown) => x as [number, number, number];
const len = (p: [number, number, number]) => Math.hypot(p[0], p[1], p[2]);

describe("issue 16 class 1: exactly touching shapes intersect", () => {
  it("capsule on a cylinder's rim: they share (0, 1, −6)", () => {
    const a = { type: "cylinder", center: [0, 0, 0], halfHeight: 1, radius: 6 };
    const b = { type: "capsule", a: [0, 1, -10], b: [6, 1, -10], radius: 4 };
    expect(q({ op: "intersects", a, b }).intersects).toBe(true);
    expect(q({ op: "distance", a, b }).distance).toBe(0);
    expect(q({ op: "contact", a, b })).not.toBeNull();
    expect(q({ op: "intersects", a: b, b: a }).intersects).toBe(true);
  });

  it("capsule on a box face and on a hull's vertex", () => {
    const box = { type: "box", center: [0, 0, 0], halfExtents: [1, 1, 1] };
    const cap = { type: "capsule", a: [1.5, 0, -1], b: [1.5, 0, 1], radius: 0.5 };
    expect(q({ op: "intersects", a: box, b: cap }).intersects).toBe(true);
    expect(q({ op: "distance", a: box, b: cap }).distance).toBe(0);
    const hull = {
      type: "convex",
      points: [
        [0, 0, 0],
        [-1, 0, 0],
        [0, -1, 0],
        [0, 0, -1],
      ],
    };
    const cap2 = { type: "capsule", a: [0.75, 0, -3], b: [0.75, 0, 3], radius: 0.75 };
    expect(q({ op: "intersects", a: hull, b: cap2 }).intersects).toBe(true);
    expect(q({ op: "distance", a: hull, b: cap2 }).distance).toBe(0);
  });
});

describe("issue 16 class 2: box–box contact witnesses lie on both boxes", () => {
  it("A (3,7,9) at the origin, B (10,4,10) at (3,7,9): depth 4 along +y", () => {
    const a = { type: "box", center: [0, 0, 0], halfExtents: [3, 7, 9] };
    const b = { type: "box", center: [3, 7, 9], halfExtents: [10, 4, 10] };
    const c = q({ op: "contact", a, b });
    expect(c.distance).toBe(-4);
    expect(c.normal).toEqual([0, 1, 0]);
    const pa = v(c.pointA);
    const pb = v(c.pointB);
    expect(pa[1]).toBe(7);
    expect(pb[1]).toBe(3);
    expect(Math.abs(pa[0]) <= 3 && Math.abs(pa[2]) <= 9).toBe(true);
    expect(Math.abs(pb[0] - 3) <= 10 && Math.abs(pb[2] - 9) <= 10).toBe(true);
  });
});

describe("issue 16 class 3: a sphere centred on a capsule's segment", () => {
  it("sphere r 0.002 at the origin, capsule (0,−0.02,0)–(0,0.01,0) r 0.002: depth 0.004 across the axis", () => {
    const a = { type: "sphere", center: [0, 0, 0], radius: 0.002 };
    const b = { type: "capsule", a: [0, -0.02, 0], b: [0, 0.01, 0], radius: 0.002 };
    const c = q({ op: "contact", a, b });
    expect(Math.abs((c.distance as number) + 0.004)).toBeLessThanOrEqual(1e-9 * 0.004);
    const n = v(c.normal);
    // The overlap along n is 0.004 only for n perpendicular to the axis (0.024 along it).
    expect(Math.abs(n[1])).toBeLessThan(1e-12);
    expect(Math.abs(len(n) - 1)).toBeLessThan(1e-15);
  });

  it("crossing capsule segments: the normal is their common perpendicular", () => {
    const a = { type: "capsule", a: [-1, 0, 0], b: [1, 0, 0], radius: 0.1 };
    const b = { type: "capsule", a: [0, -1, 0], b: [0, 1, 0], radius: 0.2 };
    const c = q({ op: "contact", a, b });
    expect(Math.abs((c.distance as number) + 0.3)).toBeLessThan(1e-15);
    expect(Math.abs(Math.abs(v(c.normal)[2]) - 1)).toBeLessThan(1e-15);
  });
});

describe("issue 16 class 4: curved shapes to 1e-9 relative", () => {
  it("cylinder hh 12 r 9 against box (11, 7.2, 10) at (−3.4, −11, 16): depth exactly 3", () => {
    const a = { type: "cylinder", center: [0, 0, 0], halfHeight: 12, radius: 9 };
    const b = { type: "box", center: [-3.4, -11, 16], halfExtents: [11, 7.2, 10] };
    for (const [x, y] of [
      [a, b],
      [b, a],
    ]) {
      const c = q({ op: "contact", a: x, b: y });
      expect(Math.abs((c.distance as number) + 3)).toBeLessThanOrEqual(3e-9);
      expect(Math.abs(Math.abs(v(c.normal)[2]) - 1)).toBeLessThan(1e-9);
    }
  });
});

describe("issue 16 class 5: distance's points lie on their shapes when they intersect", () => {
  it("sphere r 7 containing a cone (hh 5, r 3) at the same centre", () => {
    const a = { type: "sphere", center: [0, 0, 0], radius: 7 };
    const b = { type: "cone", center: [0, 0, 0], halfHeight: 5, radius: 3 };
    const d = q({ op: "distance", a, b });
    expect(d.distance).toBe(0);
    expect(Math.abs(len(v(d.pointA)) - 7)).toBeLessThan(1e-9 * 7);
    const [x, y, z] = v(d.pointB);
    const rho = Math.hypot(x, z);
    // On the cone's surface: its base disc or its slant side ρ = 3·(5 − y)/10.
    const onBase = Math.abs(y + 5) < 1e-9 && rho <= 3 + 1e-9;
    const onSide = Math.abs(rho - (3 * (5 - y)) / 10) < 1e-9 && y >= -5 - 1e-9 && y <= 5 + 1e-9;
    expect(onBase || onSide).toBe(true);
  });
});

describe("issue 16 class 6: mixed scales", () => {
  it("a box of size 1e-8 near the slant side of a cone of size 20: gap 1e-7 to 1e-9 relative", () => {
    const s = 5e-9;
    // Slant side through (ρ, y) = (5, 0) with outward normal (2, 1)/√5; the box's nearest
    // feature is its edge at x − s, y − s (z = 0 plane is the meridian of that edge point).
    const gap = 1e-7;
    const k = (gap + s * (3 / Math.sqrt(5))) / Math.sqrt(5);
    const cx = 5 + 2 * k;
    const cy = k;
    const a = { type: "cone", center: [0, 0, 0], halfHeight: 10, radius: 10 };
    const b = { type: "box", center: [cx, cy, 0], halfExtents: [s, s, s] };
    // The true gap from the inputs as given: n·((cx − s, cy − s) − (5, 0)).
    const truth = (2 * (cx - s - 5) + (cy - s)) / Math.sqrt(5);
    const d = q({ op: "distance", a, b }).distance as number;
    expect(Math.abs(d - truth)).toBeLessThanOrEqual(1e-9 * truth + 64 * 2 ** -52 * 20);
  });
});

describe("issue 16 class 7: triangles far from the origin", () => {
  it("a point 8.9e-8 above a triangle 5e-7 wide at 1e6 is outside, at that distance", () => {
    const t = {
      type: "triangle",
      a: [1e6, 1e6, 1e6],
      b: [1e6 + 5e-7, 1e6, 1e6],
      c: [1e6, 1e6 + 5e-7, 1e6],
    };
    const p = [1e6 + 1e-7, 1e6 + 1e-7, 1e6 + 8.9e-8];
    const r = q({ op: "projectPoint", shape: t, point: p });
    expect(r.inside).toBe(false);
    const h = p[2] - 1e6;
    expect(Math.abs((r.distance as number) - h)).toBeLessThanOrEqual(1e-9 * 5e-7);
    const s = { type: "sphere", center: p, radius: h / 2 };
    expect(q({ op: "intersects", a: t, b: s }).intersects).toBe(false);
    expect(
      Math.abs((q({ op: "distance", a: t, b: s }).distance as number) - h / 2),
    ).toBeLessThanOrEqual(1e-9 * 5e-7);
  });
});

describe("issue 16 class 8: castShapes sees the gap that distance sees", () => {
  it("boxes 2^-29 apart closing at unit speed: toi 2^-29, not 0", () => {
    const g = 2 ** -29;
    const a = { type: "box", center: [0, 0, 0], halfExtents: [1, 1, 1] };
    const b = { type: "box", center: [2 + g, 0, 0], halfExtents: [1, 1, 1] };
    expect(q({ op: "intersects", a, b }).intersects).toBe(false);
    expect(q({ op: "distance", a, b }).distance).toBe(g);
    const hit = q({
      op: "castShapes",
      a,
      velocityA: [0, 0, 0],
      b,
      velocityB: [-1, 0, 0],
      maxToi: 1,
    });
    expect(hit.toi).toBeGreaterThan(0);
    expect(Math.abs((hit.toi as number) - g)).toBeLessThanOrEqual(1e-9 * 2);
  });
});
