/**
 * The exact volume of a ball ∩ an axis-aligned box, in closed form.
 *
 * By inclusion–exclusion over the box's slabs, 1[x0 < x < x1] = H(x − x0) − H(x − x1), the
 * volume is a signed sum over the 8 corners of P(a, b, c) = |ball ∩ {x > a, y > b, z > c}|.
 * For a negative argument, {x > a} is everything minus the mirror image of {x > −a}; an
 * absent constraint (−∞) halves into two mirror images of {x > 0}: so every P reduces to
 * P⁺(a, b, c) with a, b, c ≥ 0. For the unit ball,
 *
 *   P⁺ = ∫_c^{zm} A(z) dz,   zm = √(1 − a² − b²),   ρ(z)² = 1 − z²,
 *   A  = ½ρ²(acos(a/ρ) + acos(b/ρ) − π/2) − ½a√(ρ² − a²) − ½b√(ρ² − b²) + ab,
 *
 * A being the area of the disc of radius ρ beyond x = a and y = b (a² + b² ≤ ρ²). Every term
 * integrates in closed form; the one with the arc cosine by parts:
 *
 *   ∫(1 − z²) acos(a/ρ) dz = (z − z³/3)·acos(a/ρ) + a[(s²/6 − 2/3)·asin(z/s) − (z/6)√(s² − z²)]
 *                            + (2/3)·atan2(a z, √(s² − z²)),      s² = 1 − a².
 *
 * (derived for this file; the result is checked against quadrature and Monte Carlo in
 * test/query/overlap-volume.test.ts). Computed in units of the radius, so any scale works.
 */

/** Antiderivative of (1 − z²)·acos(a/√(1 − z²)) in z, for a ≥ 0, |z| ≤ √(1 − a²). */
function arcTerm(a: number, z: number): number {
  const s2 = 1 - a * a;
  const s = Math.sqrt(Math.max(0, s2));
  const w = Math.sqrt(Math.max(0, s2 - z * z));
  const rho = Math.sqrt(Math.max(0, 1 - z * z));
  // At ρ = 0 (z = ±1, reached only when a = 0) acos(0/ρ) tends to π/2.
  const g = rho > 0 ? Math.acos(Math.min(1, a / rho)) : a === 0 ? Math.PI / 2 : 0;
  const asinZ = s > 0 ? Math.asin(Math.max(-1, Math.min(1, z / s))) : 0;
  return (
    (z - (z * z * z) / 3) * g +
    a * ((s2 / 6 - 2 / 3) * asinZ - (z / 6) * w) +
    (2 / 3) * Math.atan2(a * z, w)
  );
}

/** Antiderivative of √(s² − z²) in z, |z| ≤ s. */
function circleTerm(s: number, z: number): number {
  if (!(s > 0)) return 0;
  const w = Math.sqrt(Math.max(0, s * s - z * z));
  return 0.5 * (z * w + s * s * Math.asin(Math.max(-1, Math.min(1, z / s))));
}

/** |unit ball ∩ {x > a, y > b, z > c}| for a, b, c ≥ 0. */
function positiveCorner(a: number, b: number, c: number): number {
  const zm2 = 1 - a * a - b * b;
  if (!(zm2 > c * c)) return 0;
  const zm = Math.sqrt(zm2);
  const sa = Math.sqrt(1 - a * a);
  const sb = Math.sqrt(1 - b * b);
  const poly = (z: number) => z - (z * z * z) / 3;
  const v =
    0.5 * (arcTerm(a, zm) - arcTerm(a, c)) +
    0.5 * (arcTerm(b, zm) - arcTerm(b, c)) -
    (Math.PI / 4) * (poly(zm) - poly(c)) -
    0.5 * a * (circleTerm(sa, zm) - circleTerm(sa, c)) -
    0.5 * b * (circleTerm(sb, zm) - circleTerm(sb, c)) +
    a * b * (zm - c);
  return Math.max(0, v);
}

/**
 * |unit ball ∩ {x > a, y > b, z > c}| for any a, b, c (−Infinity: no constraint on that axis).
 */
function corner(a: number, b: number, c: number): number {
  if (a < 0 && a !== -Infinity) return corner(-Infinity, b, c) - corner(-a, b, c);
  if (b < 0 && b !== -Infinity) return corner(a, -Infinity, c) - corner(a, -b, c);
  if (c < 0 && c !== -Infinity) return corner(a, b, -Infinity) - corner(a, b, -c);
  let factor = 1;
  let pa = a;
  let pb = b;
  let pc = c;
  if (pa === -Infinity) {
    factor *= 2;
    pa = 0;
  }
  if (pb === -Infinity) {
    factor *= 2;
    pb = 0;
  }
  if (pc === -Infinity) {
    factor *= 2;
    pc = 0;
  }
  return factor * positiveCorner(pa, pb, pc);
}

/**
 * Exact volume of the ball of `radius` centred at the origin intersected with the box
 * [x0, x1] × [y0, y1] × [z0, z1] (unit³; any finite bounds with x0 ≤ x1 …, radius > 0).
 * Closed form (see the module doc); clamped to [0, min(ball, box)].
 */
export function ballBoxVolume(
  radius: number,
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
): number {
  const r = radius;
  // Clip the box to the ball's cube (exact for the volume), then work in units of r.
  const ax = Math.max(x0, -r) / r;
  const bx = Math.min(x1, r) / r;
  const ay = Math.max(y0, -r) / r;
  const by = Math.min(y1, r) / r;
  const az = Math.max(z0, -r) / r;
  const bz = Math.min(z1, r) / r;
  if (!(ax < bx && ay < by && az < bz)) return 0;
  // 1[ax < x < bx] = H(x − ax) − H(x − bx), per axis: 8 signed corners.
  let v = 0;
  const xs = [ax, bx];
  const ys = [ay, by];
  const zs = [az, bz];
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 2; j++) {
      for (let k = 0; k < 2; k++) {
        const sign = (i + j + k) % 2 === 0 ? 1 : -1;
        v += sign * corner(xs[i], ys[j], zs[k]);
      }
    }
  }
  const boxVolume = (bx - ax) * (by - ay) * (bz - az);
  const unitVolume = Math.min(Math.max(0, v), boxVolume, (4 / 3) * Math.PI);
  return unitVolume * r * r * r;
}
