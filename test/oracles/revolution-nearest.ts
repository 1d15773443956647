/**
 * The nearest point of a cylinder's or a cone's solid (local frame, axis Y, as
 * src/shapes/cylinder.ts and src/shapes/cone.ts define them) to a point outside, in BigInt fixed
 * point with 1134 fractional bits: every finite double is exact at 2^-1074, the square root
 * ρ = √(x² + z²) is the integer square root (error below 2^-1134), and the answer is rounded to
 * doubles once at the end. No code of the library: the profile's nearest point is the nearest of
 * candidates — the clamped feet on each edge of the 2D profile (the rectangle [0, r] × [−h, h],
 * the triangle (0, h), (r, −h), (0, −h)) — by squared distance, not a Voronoi walk; then carried
 * back to 3D along the point's azimuth (x, z)/ρ. For tests of `projectPoint` far from the shape.
 */

const F = 1134n;
const ONE = 1n << F;

/** x as an integer in units of 2^-F (exact for every finite double). */
export function fix(x: number): bigint {
  if (x === 0) return 0n;
  let m = Math.abs(x);
  let e = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  const v = BigInt(m) << (F - BigInt(e));
  return x < 0 ? -v : v;
}

/** ⌊√n⌋ for n ≥ 0 (Newton's method on integers). */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** A fixed-point value (units 2^-F) rounded to the nearest double (ties away; sticky bit kept). */
export function unfix(v: bigint): number {
  if (v === 0n) return 0;
  const neg = v < 0n;
  const a = neg ? -v : v;
  const len = a.toString(2).length;
  // Keep 64 bits and a sticky bit; Number() then rounds once to 53 bits.
  const drop = len - 64;
  let q: bigint;
  if (drop > 0) {
    q = a >> BigInt(drop);
    if (q << BigInt(drop) !== a) q |= 1n;
  } else q = a << BigInt(-drop);
  let r = Number(q);
  let k = drop - Number(F);
  while (k > 1000) {
    r *= 2 ** 1000;
    k -= 1000;
  }
  while (k < -1000) {
    r *= 2 ** -1000;
    k += 1000;
  }
  r *= 2 ** k;
  return neg ? -r : r;
}

const fmul = (a: bigint, b: bigint): bigint => (a * b) >> F;
const fdiv = (a: bigint, b: bigint): bigint => (a << F) / b;

type P2 = [bigint, bigint];

/** The clamped foot of q on segment ab (fixed point). */
function segFoot(a: P2, b: P2, q: P2): P2 {
  const ex = b[0] - a[0];
  const ey = b[1] - a[1];
  const ee = fmul(ex, ex) + fmul(ey, ey);
  if (ee === 0n) return a;
  let t = fdiv(fmul(q[0] - a[0], ex) + fmul(q[1] - a[1], ey), ee);
  if (t < 0n) t = 0n;
  if (t > ONE) t = ONE;
  return [a[0] + fmul(ex, t), a[1] + fmul(ey, t)];
}

/** The exact nearest point of the solid (rounded once) and the distance, from a point outside. */
export interface RevolutionNearest {
  point: [number, number, number];
  distance: number;
  /** The nearest point in fixed point (units 2^-1134), before rounding. */
  fixed: [bigint, bigint, bigint];
}

/**
 * The nearest point of the cylinder (half height h, radius r) or cone (base radius r at −h,
 * apex at +h) to the local point p = (x, y, z) given in fixed point (units 2^-1134; so an exact
 * world-minus-translation offset can be passed).
 */
export function revolutionNearest(
  kind: "cylinder" | "cone",
  h: number,
  r: number,
  p: [bigint, bigint, bigint],
): RevolutionNearest {
  const [x, y, z] = p;
  const rho = isqrt(x * x + z * z);
  const H = fix(h);
  const R = fix(r);
  const q: P2 = [rho, y];
  const corners: P2[] =
    kind === "cylinder"
      ? [
          [0n, -H],
          [R, -H],
          [R, H],
          [0n, H],
        ]
      : [
          [0n, H],
          [R, -H],
          [0n, -H],
        ];
  let best: P2 = corners[0];
  let bestSq = -1n;
  for (let i = 0; i < corners.length; i++) {
    const f = segFoot(corners[i], corners[(i + 1) % corners.length], q);
    const sq = (f[0] - q[0]) ** 2n + (f[1] - q[1]) ** 2n;
    if (bestSq < 0n || sq < bestSq) {
      bestSq = sq;
      best = f;
    }
  }
  // Back to 3D along the azimuth (x, z)/ρ (any azimuth on the axis: the answer is then on it).
  const px = rho === 0n ? 0n : (best[0] * x) / rho;
  const pz = rho === 0n ? 0n : (best[0] * z) / rho;
  const fixed: [bigint, bigint, bigint] = [px, best[1], pz];
  const dx = x - px;
  const dy = y - best[1];
  const dz = z - pz;
  return {
    point: [unfix(px), unfix(best[1]), unfix(pz)],
    distance: unfix(isqrt(dx * dx + dy * dy + dz * dz)),
    fixed,
  };
}
