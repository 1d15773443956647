/**
 * A generator of seed 101's class (issue 16): a small cone's apex, a box's corner or a sphere
 * touching or within a rounding-level gap of a large triangle's edge (the shape beyond the edge,
 * its axis tilted at random), far from the origin, B moving fast relative to A mostly along the
 * edge with a small component across it that closes or opens, both velocities large. The
 * fuzzer's cast check must hold: a meeting within maxToi never missed, an opening start never
 * a late hit (test/fuzz/seed-101.test.ts). Lengths: triangle 10^3..10^6, the small shape
 * 10^-3..1, offsets to 10^6, speeds 10^2..10^6, the crossing part 10^-5..10^-1 of the speed.
 */
import fc from "fast-check";
import type { Scenario } from "./generate.js";

type V = [number, number, number];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V, k: number): V => [a[0] * k, a[1] * k, a[2] * k];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const unit = (a: V): V => scale(a, 1 / Math.hypot(a[0], a[1], a[2]));

/** Rotates v by the unit quaternion [x, y, z, w]. */
function rotate(q: number[], v: V): V {
  const u: V = [q[0], q[1], q[2]];
  const t = scale(cross(u, v), 2);
  return add(add(v, scale(t, q[3])), cross(u, t));
}

const unitArb = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .filter((v) => Math.hypot(v[0], v[1], v[2]) > 0.1)
  .map((v) => unit(v as V));

/** A scenario of the class and the pair name ("cone-triangle", "box-triangle", "sphere-triangle"). */
export const apexEdgeCastArb: fc.Arbitrary<{ scenario: Scenario; pair: string }> = fc
  .record({
    kind: fc.constantFrom("cone", "box", "sphere"),
    edge: unitArb,
    side: unitArb,
    quat: fc.tuple(unitArb, fc.double({ min: -Math.PI, max: Math.PI, noNaN: true })),
    logL: fc.double({ min: 3, max: 6, noNaN: true }),
    logS: fc.double({ min: -3, max: 0, noNaN: true }),
    logOff: fc.double({ min: 0, max: 6, noNaN: true }),
    offDir: unitArb,
    along: fc.double({ min: 0.2, max: 0.8, noNaN: true }),
    apexCone: fc.double({ min: -1.3, max: 1.3, noNaN: true }),
    gap: fc.constantFrom(0, 1e-12, -1e-12, 1e-11, 1e-10),
    logSpeed: fc.double({ min: 2, max: 6, noNaN: true }),
    logCross: fc.double({ min: -5, max: -1, noNaN: true }),
    sign: fc.constantFrom(1, -1),
    drift: unitArb,
    vA: unitArb,
    maxToi: fc.double({ min: 1e-3, max: 1, noNaN: true }),
  })
  .map((r) => {
    const L = 10 ** r.logL;
    const s = 10 ** r.logS;
    const off = scale(r.offDir, 10 ** r.logOff);
    const e = r.edge;
    const es = cross(e, r.side);
    const m = unit(
      Math.hypot(...es) > 0.1 ? es : cross(e, Math.abs(e[0]) < 0.5 ? [1, 0, 0] : [0, 1, 0]),
    ); // ⊥ e
    const k = cross(e, m);
    // The direction from the edge toward the small shape, d ⊥ e, and the triangle's third corner
    // on the far side, its plane at angle apexCone + π from d.
    const d = unit(add(scale(m, Math.cos(r.apexCone)), scale(k, Math.sin(r.apexCone))));
    const A = add(off, scale(e, -r.along * L));
    const B = add(off, scale(e, (1 - r.along) * L));
    const C = add(add(off, scale(d, -0.7 * L)), scale(e, 0.1 * L));
    const [ax, ang] = r.quat;
    const q = [...scale(ax, Math.sin(ang / 2)), Math.cos(ang / 2)];
    const h = s;
    const radius = 0.85 * s;
    let b: Record<string, unknown>;
    // The small shape's point nearest the edge along −d: the apex, the corner or the sphere's point.
    const at = add(off, scale(d, r.gap));
    if (r.kind === "cone") {
      // The apex (centre + h·y, y = q's local +Y) at the edge point, the body beyond the edge:
      // q turned by π about local x (q ⊗ x̂ = (w, z, −y, −x)) when y leans toward the triangle.
      const qc = dot(rotate(q, [0, 1, 0]), d) > 0 ? [q[3], q[2], -q[1], -q[0]] : q;
      const y = rotate(qc, [0, 1, 0]);
      b = { type: "cone", center: add(at, scale(y, -h)), halfHeight: h, radius, rotation: qc };
    } else if (r.kind === "box") {
      const he: V = [s, 0.6 * s, 0.8 * s];
      // The corner most against d at `at`.
      const c: V = [0, 1, 2].map((i) => {
        const axis: V = rotate(q, i === 0 ? [1, 0, 0] : i === 1 ? [0, 1, 0] : [0, 0, 1]);
        return dot(axis, d) > 0 ? -he[i] : he[i];
      }) as V;
      const cw = rotate(q, c);
      b = { type: "box", center: add(at, scale(cw, -1)), halfExtents: he, rotation: q };
    } else {
      b = { type: "sphere", center: add(at, scale(d, s)), radius: s };
    }
    const speed = 10 ** r.logSpeed;
    const w = add(
      add(scale(e, speed), scale(d, -r.sign * speed * 10 ** r.logCross)),
      scale(unit(cross(e, d)), speed * 10 ** r.logCross * 0.1 * r.drift[0]),
    );
    const vA = scale(r.vA, speed);
    const vB = add(vA, w);
    const tri = { type: "triangle", a: A, b: B, c: C };
    const scenario = {
      mode: "touching",
      localA: tri,
      localB: b,
      worldA: tri,
      worldB: b,
      offset: [0, 0, 0],
      shared: null,
      apart: 0,
      velocityA: vA,
      velocityB: vB,
      maxToi: r.maxToi,
      prediction: 0,
    } as unknown as Scenario;
    return { scenario, pair: `${r.kind}-triangle` };
  });
