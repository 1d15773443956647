/**
 * Issue 6's acceptance: a scene with the bunny as a mesh (examples/bunny.obj) and a cloud of
 * primitives and hulls around it, checked by `collide check`: the pairs must equal a brute-force
 * oracle that tests every body against every bunny triangle (as separate triangle shapes,
 * through GJK) and every primitive pair directly, and each mesh contact's depth must match the
 * deepest triangle contact.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseScene } from "../../src/io/scene.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { intersects } from "../../src/query/intersects.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { ROOT, runCli } from "./run-cli.js";

interface CheckJson {
  pairs: { a: string; b: string; distance: number; normal: number[]; points: unknown[] }[];
}

describe("collide check on the bunny scene", () => {
  it("reports exactly the brute-force pairs, with the mesh contacts' depths", () => {
    const r = runCli(["check", "examples/bunny-scene.json", "--json"]);
    expect(r.status).toBe(0);
    const got = JSON.parse(r.stdout) as CheckJson;
    const sceneJson = JSON.parse(readFileSync(join(ROOT, "examples", "bunny-scene.json"), "utf8"));
    const scene = parseScene(sceneJson, { baseDir: join(ROOT, "examples") });
    const mesh = scene.bodies[0].shape as TriangleMesh;
    const tris = [];
    const v = mesh.vertices;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const p = (k: number) => {
        const i = mesh.indices[3 * t + k] * 3;
        return vec3.create(v[i], v[i + 1], v[i + 2]);
      };
      tris.push(makeTriangle(p(0), p(1), p(2)));
    }
    const want: string[] = [];
    const meshDepth = new Map<string, number>();
    const n = scene.bodies.length;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const A = scene.bodies[i];
        const B = scene.bodies[j];
        if (i === 0) {
          let deepest = Infinity;
          for (const tri of tris) {
            const c = contact(tri, iso.identity(), B.shape, B.pose);
            if (c) {
              deepest = Math.min(deepest, c.distance);
              // On an internal edge the mesh re-measures the depth along the triangle's face
              // normal (src/narrowphase/face-depth.ts): at most B's depth past that plane,
              // both sides (the half-spaces of the plane).
              const e1 = vec3.sub(vec3.create(), tri.b, tri.a);
              const e2 = vec3.sub(vec3.create(), tri.c, tri.a);
              const nrm = vec3.cross(vec3.create(), e1, e2);
              vec3.normalize(nrm, nrm);
              for (const sgn of [1, -1]) {
                const m = vec3.scale(vec3.create(), nrm, sgn);
                const h = contact(
                  makeHalfSpace(m, vec3.dot(m, tri.a)),
                  iso.identity(),
                  B.shape,
                  B.pose,
                );
                if (h) deepest = Math.min(deepest, h.distance);
              }
            }
          }
          if (deepest <= 0) {
            want.push(`${A.id}/${B.id}`);
            meshDepth.set(B.id, deepest);
          }
        } else if (intersects(A.shape, A.pose, B.shape, B.pose)) {
          want.push(`${A.id}/${B.id}`);
        }
      }
    }
    expect(got.pairs.map((p) => `${p.a}/${p.b}`)).toEqual(want);
    expect(want.length).toBeGreaterThan(10);
    for (const p of got.pairs) {
      if (p.a !== "bunny") continue;
      expect(Math.hypot(...p.normal)).toBeCloseTo(1, 12);
      expect(p.points.length).toBeGreaterThan(0);
      // The mesh contact is a triangle's contact or its re-measure along a face normal: no deeper
      // than the deepest of those.
      expect(p.distance).toBeGreaterThanOrEqual((meshDepth.get(p.b) as number) - 1e-9);
      expect(p.distance).toBeLessThanOrEqual(0);
    }
  });
});
