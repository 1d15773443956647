/**
 * Generator of the class of seed 97's open line: a turned cylinder or cone whose side touches a
 * triangle along one of its generators — the triangle's face lying in the side's tangent plane
 * across the generator (the line: a triangle in the plane x = −1.25 on a cylinder's generator
 * x = −1.25, z = −0.375), one of its edges lying along the generator, or an edge in the tangent
 * plane crossing the generator at an angle, the triangle's third corner lifted off the solid —
 * pushed into the solid or out of it by up to 2^11 ulps of its size (touch and near touch).
 * Written without the library.
 *
 * Construction, in the solid's frame (the oracle's conventions, test/fuzz/oracle-shapes.ts: the
 * axis y, a cylinder's caps at ±halfHeight, a cone's apex at +halfHeight over its base at
 * −halfHeight): the generator at angle φ about the axis — a cylinder's line (R cos φ, y, R sin φ),
 * a cone's from its apex to its base rim at φ —, its unit direction G, the side's outward normal
 * n there (constant along the generator for both), X = n × G across it in the tangent plane. The
 * triangle's corners at g + St·(α G + β X + γ n) about a point g of the generator: a face across
 * it (γ = 0, g inside it), an edge along it (β = γ = 0 for two corners), or an
 * edge crossing it in the tangent plane; the third corner of an edge mode at γ > 0; the triangle
 * squashed across to a least height of 2^-9..1 of a fat one's (the Voronoi regions' products of
 * a closest point cancel as (L/h)²; thinner than 2^-10 takes the exact sliver path). Then every
 * corner moved by −push·n, all turned by the solid's rotation and moved by its centre. The pair
 * touches along the generator (a segment) or at the crossing point (a point) to the rounding of
 * the construction, and the solid's nearest or deepest point lies on the generator's line, which
 * `generator` carries (world frame, before the offset) for the tests' check of its witness.
 */
import fc from "fast-check";
import { fractionArb, quatArb, thousandthArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import { add, cross, rotate, scale, unit, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

/** One drawn pair: the triangle `t`, the solid `s`, the world offset, the fuzzer's pair name. */
export interface GeneratorTouch {
  t: J;
  s: J;
  offset: number[];
  pair: "cylinder-triangle" | "cone-triangle";
  /** A point of the touching generator and its unit direction (the solid's pose, no offset). */
  generator: { point: V; dir: V };
  /** The solid's size (halfHeight + radius) and the push along n (positive: into the solid). */
  size: number;
  push: number;
  mode: "face" | "along" | "across";
}

/**
 * A touching pair of the class: a cylinder or cone of 2^-13..2^13 (about 1e-4..1e4; radius and
 * half-height 0.2..1 of it), unturned or turned by a unit quaternion, its generator at a
 * thousandth of π or at a quarter turn (the line's, where the side's coordinates are exact), a
 * triangle of 2^-4..2 of the solid's size in one of the three modes (its least height 2^-9..1 of a
 * fat one's), pushed by up to 2^11 ulps,
 * moved by an exact offset of 0, 1, 1e3 or 1e6.
 */
export const generatorTouchArb: fc.Arbitrary<GeneratorTouch> = fc
  .tuple(
    fc.tuple(
      fc.integer({ min: -13, max: 13 }),
      fractionArb,
      fractionArb,
      fc.boolean(),
      fc.oneof(quatArb, fc.constant([0, 0, 0, 1])),
      fc.oneof(
        thousandthArb,
        fc.integer({ min: 0, max: 3 }).map((k) => k / 2),
      ),
    ),
    fc.tuple(
      fc.constantFrom("face", "along", "across", "face"),
      fc.integer({ min: -4, max: 1 }),
      fc.tuple(thousandthArb, thousandthArb, thousandthArb),
      fc.tuple(thousandthArb, thousandthArb, thousandthArb),
      fc.integer({ min: 0, max: 2 }),
      fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 9 })),
    ),
    fc.tuple(
      thousandthArb,
      fc.integer({ min: -12, max: 12 }),
      fc.tuple(thousandthArb, thousandthArb, thousandthArb),
      fc.constantFrom(0, 1, 1e3, 1e6),
    ),
  )
  .map(([[eS, fr, fh, cone, q, phiK], [mode, eT, al, be, at, eThin], [s0, ep, dir, mag]]) => {
    const S = 2 ** eS;
    const R = fr * S;
    const H = fh * S;
    const c = Math.cos(phiK * Math.PI);
    const s = Math.sin(phiK * Math.PI);
    // The generator (solid frame): a point g at parameter s0 along it, its direction G, normal n.
    let g: V;
    let G: V;
    let n: V;
    if (cone) {
      // From the apex (0, H, 0) to the rim point (R c, −H, R s): at fraction 0.55 + 0.4 s0.
      const f = 0.55 + 0.4 * s0;
      g = [f * R * c, H - 2 * H * f, f * R * s];
      G = unit([R * c, -2 * H, R * s]);
      n = unit([2 * H * c, R, 2 * H * s]);
    } else {
      g = [R * c, 0.8 * H * s0, R * s];
      G = [0, 1, 0];
      n = [c, 0, s];
    }
    const X = cross(n, G);
    // The triangle's least height over its size: 2^-eThin of a fat one's (down to 2^-9, above
    // the thin ratio 2^-10 of src/constants.ts, whose triangles take the exact sliver path).
    const thin = 2 ** -eThin;
    const St = 2 ** eT * Math.min(S, 2 * H + R);
    const at3 = (a: number, b: number, h: number): V =>
      add(g, scale(add(add(scale(G, a), scale(X, b)), scale(n, h)), St));
    let corners: V[];
    if (mode === "face") {
      // g inside the triangle: its corners at 0.2..1 of St from g, at angles 2π/3 apart but for
      // up to 0.3 rad each (every gap below π), squashed across by `thin` (g stays inside), the
      // whole turned by al[0]·π in the plane.
      const cs = Math.cos(al[0] * Math.PI);
      const sn = Math.sin(al[0] * Math.PI);
      corners = [0, 1, 2].map((k) => {
        const a = (2 * Math.PI * k) / 3 + 0.3 * be[k];
        const r = 0.2 + 0.8 * Math.abs(al[k === 0 ? 1 : k === 1 ? 2 : 0]);
        const x = r * Math.cos(a);
        const y = thin * r * Math.sin(a);
        return at3(x * cs - y * sn, x * sn + y * cs, 0);
      });
    } else if (mode === "along") {
      // An edge along the generator through g, the third corner lifted off the side.
      const l = 0.1 + 0.4 * Math.abs(al[0]);
      corners = [
        at3(-l, 0, 0),
        at3(1 - l, 0, 0),
        at3(al[1], thin * be[0], thin * (0.05 + Math.abs(be[1]))),
      ];
    } else {
      // An edge in the tangent plane crossing the generator at g, at an angle of 0.05π..0.5π.
      const psi = (0.05 + 0.45 * Math.abs(al[0])) * Math.PI * (al[1] >= 0 ? 1 : -1);
      const e: V = add(scale(G, Math.cos(psi)), scale(X, Math.sin(psi)));
      const l = 0.1 + 0.8 * Math.abs(al[2]);
      corners = [
        add(g, scale(e, -l * St)),
        add(g, scale(e, (1 - l) * St)),
        add(
          g,
          scale(
            add(
              add(scale(e, be[0]), scale(X, thin * be[1])),
              scale(n, thin * (0.05 + Math.abs(be[2]))),
            ),
            St,
          ),
        ),
      ];
    }
    const size = H + R;
    const push = ep === 0 ? 0 : Math.sign(ep) * 2 ** (Math.abs(ep) - 1) * size * 2 ** -52;
    const moved = corners.map((p) => rotate(q, add(p, scale(n, -push))));
    const [ta, tb, tc] = [0, 1, 2].map((i) => moved[(i + at) % 3]);
    const t: J = { type: "triangle", a: ta, b: tb, c: tc };
    const solid: J = {
      type: cone ? "cone" : "cylinder",
      center: [0, 0, 0],
      halfHeight: H,
      radius: R,
      rotation: q,
    };
    const offset = exactOffset(dir, mag);
    return {
      t,
      s: solid,
      offset,
      pair: cone ? "cone-triangle" : "cylinder-triangle",
      generator: { point: rotate(q, g), dir: rotate(q, G) },
      size,
      push,
      mode,
    };
  });
