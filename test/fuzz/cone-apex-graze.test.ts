/**
 * Issue 16 (session 26): a cone's apex on the curved side of a capsule, cylinder or cone, the
 * cone's nearest slant within 1e-2..1e-12 rad of tangent to that side and the apex on it, or
 * off it by 1e-4..1e-16 of the size either way: one truth across operations — `intersects` ⇔
 * `distance` = 0 ⇔ `contact` at prediction 0 is not null — in both orders, sizes 2^-10..2^10
 * with the cone up to 2^10 larger or smaller, offsets to 1e9. Reported at about 2 in 1,200 of
 * such pairs; this generator (and about 19,000 ordered pairs of its scratch twin) found none on main a20e264 or
 * after session 26's changes: kept as the class's guard until the reporting input is known.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { offsetArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";

type J = Record<string, unknown>;

/** The unit quaternion [x, y, z, w] taking +Y to unit d. */
function quatFromY(d: number[]): number[] {
  const [x, , z] = d;
  const w = 1 + d[1];
  if (w < 1e-12) return [1, 0, 0, 0];
  const l = Math.hypot(z, x, w);
  return [z / l, 0, -x / l, w / l];
}

function moved(j: J, o: number[]): J {
  const c: J = { ...j };
  for (const k of ["a", "b", "center"])
    if (Array.isArray(c[k])) c[k] = (c[k] as number[]).map((x, i) => x + o[i]);
  return c;
}

describe("a cone's apex on a curved side near grazing (issue 16)", () => {
  it("property: intersects ⇔ distance 0 ⇔ contact at prediction 0, both orders", () => {
    const u01 = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.constantFrom("capsule", "cylinder", "cone"),
        fc.integer({ min: -10, max: 10 }),
        fc.integer({ min: -10, max: 10 }),
        fc.tuple(u01, u01, u01, u01, u01, u01, u01),
        fc.tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 4, max: 16 }), u01, u01),
        offsetArb,
        (other, e, ratio, [fR, fH, fy, phi01, ta01, fh, fr], [gExp, epsExp, gs, es], [ou, om]) => {
          const S = 2 ** e;
          const R = S * (0.3 + fR);
          const H = S * (0.3 + fH);
          const phi = phi01 * 2 * Math.PI;
          let P = [R * Math.cos(phi), (fy * 1.6 - 0.8) * H, R * Math.sin(phi)];
          let nrm = [Math.cos(phi), 0, Math.sin(phi)];
          let a: J;
          if (other === "capsule") a = { type: "capsule", a: [0, -H, 0], b: [0, H, 0], radius: R };
          else if (other === "cylinder")
            a = { type: "cylinder", center: [0, 0, 0], halfHeight: H, radius: R };
          else {
            const t = 0.1 + 0.8 * fy;
            P = [R * t * Math.cos(phi), H - 2 * H * t, R * t * Math.sin(phi)];
            const l = Math.hypot(2 * H, R);
            nrm = [((2 * H) / l) * Math.cos(phi), R / l, ((2 * H) / l) * Math.sin(phi)];
            a = { type: "cone", center: [0, 0, 0], halfHeight: H, radius: R };
          }
          // A tangent of the side at P, at angle ta in its tangent plane.
          const t0 = [-Math.sin(phi), 0, Math.cos(phi)];
          const t1 = [
            nrm[1] * t0[2] - nrm[2] * t0[1],
            nrm[2] * t0[0] - nrm[0] * t0[2],
            nrm[0] * t0[1] - nrm[1] * t0[0],
          ];
          const ta = ta01 * 2 * Math.PI;
          const tang = t0.map((x, k) => x * Math.cos(ta) + t1[k] * Math.sin(ta));
          const S2 = S * 2 ** ratio;
          const h = S2 * (0.2 + fh);
          const r = S2 * (0.1 + fr);
          // The apex direction d: the body along −d, its nearest slant tangent to the side to
          // within 10^-gExp rad.
          const g = Math.PI / 2 - Math.atan2(r, 2 * h) + (gs - 0.5) * 10 ** -gExp;
          const d = nrm.map((x, k) => -x * Math.cos(g) + tang[k] * Math.sin(g));
          const eps = es < 0.3 ? 0 : (es - 0.65) * S * 10 ** -epsExp;
          const apex = P.map((x, k) => x + nrm[k] * eps);
          const b: J = {
            type: "cone",
            center: apex.map((x, k) => x - d[k] * h),
            halfHeight: h,
            radius: r,
            rotation: quatFromY(d),
          };
          const o = exactOffset(ou, Math.min(1e9, om * Math.max(S, S2) * 1e4));
          for (const [x, y] of [
            [a, b],
            [b, a],
          ]) {
            const q = { a: moved(x, o), b: moved(y, o) };
            const it = (answerQuery({ op: "intersects", ...q }) as { intersects: boolean })
              .intersects;
            const dist = (answerQuery({ op: "distance", ...q }) as { distance: number }).distance;
            const c = answerQuery({ op: "contact", ...q });
            expect({ it, zero: dist === 0, contact: c !== null }).toEqual({
              it,
              zero: it,
              contact: it,
            });
          }
        },
      ),
      { numRuns: 300, seed: 16 },
    );
  });
});
