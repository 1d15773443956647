/**
 * The viewer's JSON: one frame of the example scene against `checkScene` and `aabbShape`
 * directly; a GJK view's steps against the trace; the built-in demo's frames for determinism,
 * finiteness and how deep bodies end up in each other (the push-out response must hold them).
 */
import { describe, expect, it } from "vitest";
import { framePose, makeDemoScene, recordDemoFrames } from "../../src/debug/demo-frames.js";
import { traceGjkPair } from "../../src/debug/gjk-trace.js";
import { buildViewFrame, buildViewGjk, buildViewInfo } from "../../src/debug/view-model.js";
import { checkScene } from "../../src/io/check.js";
import { loadScene } from "../../src/io/scene.js";
import * as aabbm from "../../src/math/aabb.js";
import { aabbShape } from "../../src/shapes/index.js";

const scene = loadScene("examples/scene.json");
const poses = scene.bodies.map((b) => b.pose);
const v3 = (a: number[]) => ({ x: a[0], y: a[1], z: a[2] });

describe("buildViewFrame on the example scene", () => {
  const check = checkScene(scene);
  const index = new Map(scene.bodies.map((b, i) => [b.id, i]));
  const contacts = check.pairs.map((p) => ({
    a: index.get(p.a)!,
    b: index.get(p.b)!,
    distance: p.distance,
    normal: v3(p.normal),
    points: p.points.map((q) => ({ pointA: v3(q.pointA), pointB: v3(q.pointB) })),
  }));
  const f = buildViewFrame(0, scene.bodies, poses, contacts);

  it("lists the check's pairs and draws two points and a normal per manifold point", () => {
    expect(f.contactCount).toBe(check.pairs.length);
    expect(f.pairs.map((p) => `${p.a}/${p.b}`)).toEqual(check.pairs.map((p) => `${p.a}/${p.b}`));
    const manifoldPoints = check.pairs.reduce((n, p) => n + p.points.length, 0);
    expect(f.contacts.points.length).toBe(3 * 2 * manifoldPoints);
    expect(f.contacts.lines.length).toBe(6 * manifoldPoints);
  });

  it("packs 7 numbers per pose and one 12-edge box per body, spanning aabbShape's box", () => {
    expect(f.poses.length).toBe(7 * scene.bodies.length);
    expect(f.aabbs.lines.length).toBe(72 * scene.bodies.length);
    scene.bodies.forEach((b, i) => {
      const box = aabbShape(aabbm.empty(), b.shape, b.pose);
      const chunk = f.aabbs.lines.slice(72 * i, 72 * (i + 1));
      const xs = chunk.filter((_, k) => k % 3 === 0);
      const ys = chunk.filter((_, k) => k % 3 === 1);
      expect(Math.min(...xs)).toBeCloseTo(box.min.x, 12);
      expect(Math.max(...ys)).toBeCloseTo(box.max.y, 12);
    });
    expect(f.shapes.lines.every(Number.isFinite)).toBe(true);
  });

  it("describes every body for the viewer", () => {
    const info = buildViewInfo("scene", "scene.json", scene.bodies, 1);
    expect(info.bodies.map((b) => b.id)).toEqual(scene.bodies.map((b) => b.id));
    expect(info.bodies[0].shape).toEqual({ type: "box", halfExtents: [10, 1, 10] });
    expect(info.bodies.find((b) => b.id === "rock")!.shape.type).toBe("triangles");
  });
});

describe("buildViewGjk", () => {
  it("gives one drawable step per GJK iteration with the trace's simplices", () => {
    const ia = scene.bodies.findIndex((b) => b.id === "crate");
    const ib = scene.bodies.findIndex((b) => b.id === "crate-on-crate");
    const g = buildViewGjk(scene.bodies, poses, ia, ib);
    const t = traceGjkPair(scene.bodies[ia].shape, poses[ia], scene.bodies[ib].shape, poses[ib]);
    if (!g.ok) throw new Error(g.error);
    expect(g.steps.length).toBe(t.steps.length);
    g.steps.forEach((s, i) => {
      expect(s.simplex).toEqual(t.steps[i].simplex.map((p) => [p.x, p.y, p.z]));
      expect(s.draw.lines.length).toBeGreaterThan(0);
    });
    expect(g.status).toBe("intersecting");
    expect(g.epa!.steps.length).toBeGreaterThan(0);
    expect(g.minkowski.lines.length).toBeGreaterThan(0);
  });

  it("explains a non-convex pair instead of throwing", () => {
    const withHalfSpace = [
      ...scene.bodies.slice(0, 1),
      { id: "ground", shape: { type: 8, normal: { x: 0, y: 1, z: 0 }, offset: 0 } as never },
    ];
    const g = buildViewGjk(withHalfSpace, [poses[0], poses[0]], 0, 1);
    expect(g.ok).toBe(false);
  });
});

describe("the built-in demo scene", () => {
  const frames = 90;
  const a = recordDemoFrames(makeDemoScene({ bodies: 12, frames, seed: 3 }));

  it("is deterministic and finite", () => {
    const b = recordDemoFrames(makeDemoScene({ bodies: 12, frames, seed: 3 }));
    expect(a.poses.length).toBe(frames);
    for (let f = 0; f < frames; f++) {
      expect(Array.from(a.poses[f])).toEqual(Array.from(b.poses[f]));
      expect(a.poses[f].every(Number.isFinite)).toBe(true);
    }
    expect(a.contacts.map((c) => c.length)).toEqual(b.contacts.map((c) => c.length));
  });

  it("lands the bodies on the platform and keeps them from sinking in", () => {
    const last = a.contacts[frames - 1];
    expect(last.length).toBeGreaterThan(0);
    // Frame by frame contacts refer to valid bodies with unit normals, and once the bodies have
    // landed, nothing is deeper than a tenth of the smallest body's half size.
    for (let f = 0; f < frames; f++) {
      for (const c of a.contacts[f]) {
        expect(c.a).toBeLessThan(c.b);
        expect(Math.hypot(c.normal.x, c.normal.y, c.normal.z)).toBeCloseTo(1, 9);
        if (f > frames - 20) expect(-c.distance).toBeLessThan(0.1);
      }
    }
    const p = framePose(a.poses[frames - 1], 1);
    expect(p.translation.y).toBeGreaterThan(-1);
  });
});
