/**
 * Adversarial sphere–box placements for the overlap-volume tests: grazing a face, an edge or a
 * corner (the sphere reaching 10⁻¹…10⁻¹² of its radius into the box), touching, the sphere
 * inside the box, the box inside the sphere, the sphere's centre on a face, an edge or a corner,
 * and random ones; at scales 10⁻⁶, 1 and 10⁶, near and 10⁶ from the origin, any rotation.
 */
import fc from "fast-check";
import type { Isometry } from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { unitQuat } from "./arbitraries.js";

/** One placement: a sphere of radius r at `sphere`, a box of half extents h at `box`. */
export interface BallBoxCase {
  kind: string;
  r: number;
  h: Vec3;
  sphere: Isometry;
  box: Isometry;
}

export const BALL_BOX_KINDS = [
  "graze-face",
  "graze-edge",
  "graze-corner",
  "touch-face",
  "sphere-in-box",
  "box-in-sphere",
  "centre-on-face",
  "centre-on-edge",
  "centre-on-corner",
  "random",
] as const;

const unit = fc.double({ min: 0, max: 1, noNaN: true });

/** Sphere–box placements of every kind above. */
export const ballBoxCase: fc.Arbitrary<BallBoxCase> = fc
  .record({
    kind: fc.constantFrom(...BALL_BOX_KINDS),
    scale: fc.constantFrom(1e-6, 1, 1e6),
    far: fc.constantFrom(0, 0, 1e6),
    hx: fc.double({ min: 0.2, max: 2, noNaN: true }),
    hy: fc.double({ min: 0.2, max: 2, noNaN: true }),
    hz: fc.double({ min: 0.2, max: 2, noNaN: true }),
    u: fc.tuple(unit, unit, unit),
    rr: fc.double({ min: 0.05, max: 1.5, noNaN: true }),
    depthExp: fc.integer({ min: 1, max: 12 }),
    signs: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
    perm: fc.constantFrom([0, 1, 2], [1, 2, 0], [2, 0, 1]),
    rotation: unitQuat,
    offset: fc.tuple(unit, unit, unit),
    sphereRotation: unitQuat,
  })
  .map((c) => {
    const h = [c.hx, c.hy, c.hz];
    const hmin = Math.min(...h);
    let r = c.rr * hmin;
    const eps = 10 ** -c.depthExp;
    const [u0, u1, u2] = c.u;
    let p: number[];
    switch (c.kind) {
      case "graze-face":
        p = [(u0 - 0.5) * h[0], h[1] + r * (1 - eps), (u2 - 0.5) * h[2]];
        break;
      case "graze-edge": {
        const a = 0.2 + 0.6 * u0;
        const reach = r * (1 - eps);
        p = [
          h[0] + reach * Math.cos(a * Math.PI * 0.5),
          h[1] + reach * Math.sin(a * Math.PI * 0.5),
          (u2 - 0.5) * h[2],
        ];
        break;
      }
      case "graze-corner": {
        const d = [0.3 + u0, 0.3 + u1, 0.3 + u2];
        const n = Math.hypot(d[0], d[1], d[2]);
        const reach = r * (1 - eps);
        p = [h[0] + (reach * d[0]) / n, h[1] + (reach * d[1]) / n, h[2] + (reach * d[2]) / n];
        break;
      }
      case "touch-face":
        p = [(u0 - 0.5) * h[0], h[1] + r, (u2 - 0.5) * h[2]];
        break;
      case "sphere-in-box":
        r = 0.9 * c.rr * hmin * 0.5;
        p = [(u0 - 0.5) * (h[0] - r), (u1 - 0.5) * (h[1] - r), (u2 - 0.5) * (h[2] - r)];
        break;
      case "box-in-sphere":
        p = [(u0 - 0.5) * 0.2 * hmin, (u1 - 0.5) * 0.2 * hmin, (u2 - 0.5) * 0.2 * hmin];
        r = Math.hypot(h[0], h[1], h[2]) * (1.2 + c.rr);
        break;
      case "centre-on-face":
        p = [(u0 - 0.5) * h[0], h[1], (u2 - 0.5) * h[2]];
        r = c.rr * Math.max(...h);
        break;
      case "centre-on-edge":
        p = [h[0], h[1], (u2 - 0.5) * h[2]];
        r = c.rr * Math.max(...h);
        break;
      case "centre-on-corner":
        p = [h[0], h[1], h[2]];
        r = c.rr * Math.max(...h);
        break;
      default:
        p = [(u0 - 0.5) * 4 * h[0], (u1 - 0.5) * 4 * h[1], (u2 - 0.5) * 4 * h[2]];
        r = c.rr * 1.5 * hmin;
        break;
    }
    // Permute the axes and flip signs, so every face, edge and corner is visited.
    const pp = c.perm.map((i) => p[i]).map((x, i) => (c.signs[i] ? -x : x));
    const hh = c.perm.map((i) => h[i]);
    const s = c.scale;
    const centre = {
      x: (c.far + c.offset[0]) * s,
      y: (-c.far + c.offset[1]) * s,
      z: (c.far * 0.5 + c.offset[2]) * s,
    };
    const local = { x: pp[0] * s, y: pp[1] * s, z: pp[2] * s };
    const world = quat.rotate({ x: 0, y: 0, z: 0 }, c.rotation, local);
    return {
      kind: c.kind,
      r: r * s,
      h: { x: hh[0] * s, y: hh[1] * s, z: hh[2] * s },
      sphere: {
        translation: { x: centre.x + world.x, y: centre.y + world.y, z: centre.z + world.z },
        rotation: c.sphereRotation,
      },
      box: { translation: centre, rotation: c.rotation },
    };
  });
