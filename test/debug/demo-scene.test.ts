/**
 * The demo scene's figures and its gravity mode. The scenery (platform, bunny, hull, pieces) is
 * static, so its constant overlaps (two bunny pieces overlap by 0.78; the platform cuts the
 * pieces) are no contacts of the world (attack-t: they were 10 of the demo's contacts per frame);
 * the deepest penetration "during the run" counts only pairs with a moving body, so the
 * relaxation loop ends early; under gravity the crowd falls, bounces and comes
 * to rest above the rotated platform and on the bunny, checked with the `contact` query (an
 * independent path from the world's contact cache) and the bodies' own velocities.
 */
import { describe, expect, it } from "vitest";
import {
  DEMO_PENETRATION_TOLERANCE,
  DEMO_RELAXATION_PASSES,
  DEMO_RELAXATION_TOLERANCE,
  DemoScene,
} from "../../src/debug/demo-scene.js";
import * as vec3 from "../../src/math/vec3.js";
import { loadBunny } from "../../src/models/bunny.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";

const model = loadBunny();

describe("the demo scene without gravity", () => {
  it("reports the deepest penetration of pairs with a moving body only, and relaxes early", () => {
    const s = new DemoScene({ model, bodies: 300, seed: 1 });
    const w = s.world;
    // The static bunny pieces overlap each other deeply (the contact query, pair by pair), and
    // the world reports none of those scenery pairs: the scenery is static.
    w.step();
    const scenery = s.bodies.filter((b) => !b.dynamic);
    let staticDeepest = 0;
    let sceneryOverlaps = 0;
    for (let i = 0; i < scenery.length; i++) {
      for (let j = i + 1; j < scenery.length; j++) {
        const [a, b] = [scenery[i], scenery[j]];
        const c = contact(a.shape, w.getPose(a.handle), b.shape, w.getPose(b.handle));
        if (c === null) continue;
        sceneryOverlaps++;
        staticDeepest = Math.max(staticDeepest, -c.distance);
      }
    }
    expect(sceneryOverlaps).toBe(10);
    expect(staticDeepest).toBeGreaterThan(0.5);
    for (const c of w.contacts()) expect(s.isMoving(c.a) || s.isMoving(c.b)).toBe(true);
    let worst = 0;
    let passes = 0;
    const frames = 60;
    for (let f = 0; f < frames; f++) {
      const st = s.frame();
      worst = Math.max(worst, st.maxPenetration);
      passes += st.passes;
      expect(st.passes).toBeGreaterThanOrEqual(1);
      expect(st.passes).toBeLessThanOrEqual(DEMO_RELAXATION_PASSES);
      if (st.passes < DEMO_RELAXATION_PASSES) {
        expect(st.maxPenetration).toBeLessThanOrEqual(DEMO_RELAXATION_TOLERANCE);
      }
    }
    expect(worst).toBeLessThan(staticDeepest);
    expect(worst).toBeLessThan(0.1);
    expect(passes / frames).toBeLessThan(DEMO_RELAXATION_PASSES);
  });
});

describe("the demo scene with gravity", () => {
  it("drops the crowd, bounces it and brings it to rest above the platform and on the bunny", () => {
    const s = new DemoScene({ model, bodies: 200, seed: 2, gravity: true });
    const w = s.world;
    const moving = s.bodies.filter((b) => b.dynamic);
    const startY = new Map(moving.map((b) => [b.handle, w.getPose(b.handle).translation.y]));
    for (const b of moving) expect(vec3.length(s.velocityOf(b.handle))).toBe(0);
    let bounced = 0;
    const v = vec3.create();
    const frames = 600;
    let lastPasses = 0;
    for (let f = 0; f < frames; f++) {
      lastPasses = s.frame().passes;
      for (const b of moving) if (s.velocityOf(b.handle, v).y > 0.5) bounced++;
    }
    expect(bounced).toBeGreaterThan(0);
    // At rest: every body still, the last frame needed one relaxation pass.
    let fastest = 0;
    for (const b of moving) fastest = Math.max(fastest, vec3.length(s.velocityOf(b.handle, v)));
    expect(fastest).toBeLessThan(0.05);
    expect(lastPasses).toBe(1);
    // Fell: every body is lower than it started, none deeper than the tolerance in anything.
    for (const b of moving) {
      expect(w.getPose(b.handle).translation.y).toBeLessThan(startY.get(b.handle)!);
    }
    expect(s.measurePenetration()).toBeLessThanOrEqual(DEMO_PENETRATION_TOLERANCE);
    // Above the rotated platform (the contact query, not the world's cache), many resting on it,
    // and some on the bunny mesh.
    const platform = s.bodies.find((b) => b.name === "platform")!;
    const mesh = s.bodies.find((b) => b.name === "bunny (mesh)")!;
    const platformPose = w.getPose(platform.handle);
    let onPlatform = 0;
    let onBunny = 0;
    for (const b of moving) {
      const pose = w.getPose(b.handle);
      const c = contact(platform.shape, platformPose, b.shape, pose);
      const d = c ? c.distance : distance(platform.shape, platformPose, b.shape, pose).distance;
      expect(d).toBeGreaterThan(-DEMO_PENETRATION_TOLERANCE);
      if (d < DEMO_PENETRATION_TOLERANCE) onPlatform++;
      const m = distance(mesh.shape, w.getPose(mesh.handle), b.shape, pose).distance;
      if (m < DEMO_PENETRATION_TOLERANCE) onBunny++;
    }
    expect(onPlatform).toBeGreaterThan(moving.length / 2);
    expect(onBunny).toBeGreaterThan(0);
  }, 60_000);
});
