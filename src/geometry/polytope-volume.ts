/**
 * Convex polytopes as lists of face polygons, clipped by planes, and their volumes: the exact
 * intersection of two convex polyhedra is one polyhedron clipped by every face plane of the
 * other (Sutherland & Hodgman 1974 applied face by face, the cut closed by a cap polygon;
 * Ericson 2005, §8.3.4), and its volume the sum of the tetrahedra that join an interior point
 * to the fan triangles of each face (the divergence theorem; Ericson 2005, §A).
 *
 * A face is a flat array of xyz coordinates in cyclic order (either winding). Clipping keeps
 * the part with n·p ≤ d. Cap points are ordered by angle about their centroid in the plane,
 * which is exact for a convex cut. Points within `tolerance` of the plane count as on it.
 * Allocates (a query-time routine, not a per-step one).
 */

/** A convex polytope: its face polygons, each packed xyz in cyclic order. */
export type PolytopeFaces = number[][];

/**
 * The part of the convex polytope `faces` with n·p ≤ d (n need not be unit): a new face list,
 * empty when nothing remains. `tolerance` is in the units of n·p − d; points within it of the
 * plane count as on it (they are kept, and close the cap).
 */
export function clipPolytopeFaces(
  faces: PolytopeFaces,
  nx: number,
  ny: number,
  nz: number,
  d: number,
  tolerance = 0,
): PolytopeFaces {
  const out: PolytopeFaces = [];
  const cap: number[] = [];
  let anyOutside = false;
  for (const f of faces) {
    const n = f.length / 3;
    const kept: number[] = [];
    for (let i = 0; i < n; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      const px = f[3 * i];
      const py = f[3 * i + 1];
      const pz = f[3 * i + 2];
      const qx = f[3 * j];
      const qy = f[3 * j + 1];
      const qz = f[3 * j + 2];
      let sp = nx * px + ny * py + nz * pz - d;
      let sq = nx * qx + ny * qy + nz * qz - d;
      if (Math.abs(sp) <= tolerance) sp = 0;
      if (Math.abs(sq) <= tolerance) sq = 0;
      if (sp <= 0) {
        kept.push(px, py, pz);
        if (sp === 0) cap.push(px, py, pz);
      } else anyOutside = true;
      if ((sp < 0 && sq > 0) || (sp > 0 && sq < 0)) {
        const t = sp / (sp - sq);
        const x = px + t * (qx - px);
        const y = py + t * (qy - py);
        const z = pz + t * (qz - pz);
        kept.push(x, y, z);
        cap.push(x, y, z);
      }
    }
    if (kept.length >= 9) out.push(kept);
  }
  if (!anyOutside) return out;
  if (cap.length >= 9) out.push(orderPlanarPoints(cap, nx, ny, nz));
  return out;
}

/** The coplanar points `pts` (packed xyz, plane normal n) in angular order about their mean. */
function orderPlanarPoints(pts: number[], nx: number, ny: number, nz: number): number[] {
  const m = pts.length / 3;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (let i = 0; i < m; i++) {
    cx += pts[3 * i];
    cy += pts[3 * i + 1];
    cz += pts[3 * i + 2];
  }
  cx /= m;
  cy /= m;
  cz /= m;
  // An orthonormal basis (u, v) of the plane (Frisvad-style choice of the helper axis).
  let ux: number;
  let uy: number;
  let uz: number;
  if (Math.abs(nx) < Math.abs(ny) && Math.abs(nx) < Math.abs(nz)) {
    ux = 0;
    uy = nz;
    uz = -ny;
  } else if (Math.abs(ny) < Math.abs(nz)) {
    ux = -nz;
    uy = 0;
    uz = nx;
  } else {
    ux = ny;
    uy = -nx;
    uz = 0;
  }
  const vx = ny * uz - nz * uy;
  const vy = nz * ux - nx * uz;
  const vz = nx * uy - ny * ux;
  const order: { a: number; i: number }[] = [];
  for (let i = 0; i < m; i++) {
    const dx = pts[3 * i] - cx;
    const dy = pts[3 * i + 1] - cy;
    const dz = pts[3 * i + 2] - cz;
    order.push({ a: Math.atan2(dx * vx + dy * vy + dz * vz, dx * ux + dy * uy + dz * uz), i });
  }
  order.sort((p, q) => p.a - q.a || p.i - q.i);
  const out: number[] = [];
  for (const o of order) out.push(pts[3 * o.i], pts[3 * o.i + 1], pts[3 * o.i + 2]);
  return out;
}

/**
 * Volume of the convex polytope `faces` (unit³): Σ over the fan triangles of every face of
 * |det(p0 − c, pi − c, pi+1 − c)| / 6, with c the mean of the vertices (inside a convex
 * polytope, so every tetrahedron is counted with its own sign and the absolute values are
 * exact). 0 for an empty or flat polytope.
 */
export function polytopeFacesVolume(faces: PolytopeFaces): number {
  let cx = 0;
  let cy = 0;
  let cz = 0;
  let count = 0;
  for (const f of faces) {
    for (let i = 0; i < f.length; i += 3) {
      cx += f[i];
      cy += f[i + 1];
      cz += f[i + 2];
      count++;
    }
  }
  if (count === 0) return 0;
  cx /= count;
  cy /= count;
  cz /= count;
  let six = 0;
  for (const f of faces) {
    const ax = f[0] - cx;
    const ay = f[1] - cy;
    const az = f[2] - cz;
    for (let i = 3; i + 5 < f.length; i += 3) {
      const bx = f[i] - cx;
      const by = f[i + 1] - cy;
      const bz = f[i + 2] - cz;
      const qx = f[i + 3] - cx;
      const qy = f[i + 4] - cy;
      const qz = f[i + 5] - cz;
      six += Math.abs(
        ax * (by * qz - bz * qy) + ay * (bz * qx - bx * qz) + az * (bx * qy - by * qx),
      );
    }
  }
  return six / 6;
}

/**
 * A bound (unit³) on the rounding of {@link polytopeFacesVolume} for faces taken as exact: each
 * determinant of the differences from the mean c (each difference off by u relatively) is off
 * by at most 16u times its permanent Σ|a_i b_j q_k| (a thin tetrahedron's permanent is its
 * thickness times its extent squared, not its diameter cubed as a plain bound would have it);
 * the sum of n terms by n·u of their total; the mean c, off by u times the largest coordinate
 * M, may lie outside a polytope that thin, where the absolute values add at most twice the
 * surface area A times that. Used by the exact overlap volumes (src/query/overlap-volume.ts).
 */
export function polytopeFacesVolumeRounding(faces: PolytopeFaces): number {
  let cx = 0;
  let cy = 0;
  let cz = 0;
  let count = 0;
  let m = 0;
  for (const f of faces) {
    for (let i = 0; i < f.length; i += 3) {
      cx += f[i];
      cy += f[i + 1];
      cz += f[i + 2];
      m = Math.max(m, Math.abs(f[i]), Math.abs(f[i + 1]), Math.abs(f[i + 2]));
      count++;
    }
  }
  if (count === 0) return 0;
  cx /= count;
  cy /= count;
  cz /= count;
  let perm = 0;
  let six = 0;
  let area = 0;
  let n = 0;
  for (const f of faces) {
    const ax = Math.abs(f[0] - cx);
    const ay = Math.abs(f[1] - cy);
    const az = Math.abs(f[2] - cz);
    for (let i = 3; i + 5 < f.length; i += 3) {
      const bx = Math.abs(f[i] - cx);
      const by = Math.abs(f[i + 1] - cy);
      const bz = Math.abs(f[i + 2] - cz);
      const qx = Math.abs(f[i + 3] - cx);
      const qy = Math.abs(f[i + 4] - cy);
      const qz = Math.abs(f[i + 5] - cz);
      const p = ax * (by * qz + bz * qy) + ay * (bz * qx + bx * qz) + az * (bx * qy + by * qx);
      perm += p;
      six += p;
      // |e1 × e2| ≤ |e1||e2|: a crude face area suffices for the mean's term.
      const e1 = Math.hypot(f[i] - f[0], f[i + 1] - f[1], f[i + 2] - f[2]);
      const e2 = Math.hypot(f[i + 3] - f[0], f[i + 4] - f[1], f[i + 5] - f[2]);
      area += 0.5 * e1 * e2;
      n++;
    }
  }
  const u = 2 ** -53;
  return ((16 * u * perm + (n + 2) * u * six) / 6) * (1 + 64 * u) + 4 * u * m * area;
}

/** The six faces of the axis-aligned box [x0, x1] × [y0, y1] × [z0, z1]. */
export function boxFaces(
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
): PolytopeFaces {
  return [
    [x0, y0, z0, x0, y1, z0, x0, y1, z1, x0, y0, z1],
    [x1, y0, z0, x1, y0, z1, x1, y1, z1, x1, y1, z0],
    [x0, y0, z0, x0, y0, z1, x1, y0, z1, x1, y0, z0],
    [x0, y1, z0, x1, y1, z0, x1, y1, z1, x0, y1, z1],
    [x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0],
    [x0, y0, z1, x0, y1, z1, x1, y1, z1, x1, y0, z1],
  ];
}

/** The four faces of the tetrahedron (a, b, c, d), each packed xyz. */
export function tetrahedronFaces(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  c: ArrayLike<number>,
  d: ArrayLike<number>,
): PolytopeFaces {
  return [
    [a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]],
    [a[0], a[1], a[2], b[0], b[1], b[2], d[0], d[1], d[2]],
    [a[0], a[1], a[2], c[0], c[1], c[2], d[0], d[1], d[2]],
    [b[0], b[1], b[2], c[0], c[1], c[2], d[0], d[1], d[2]],
  ];
}

/**
 * Volume fraction of a tetrahedron where the affine function with values f0…f3 at its corners
 * is ≤ 0, in [0, 1], in closed form from the edge crossings t = f⁻/(f⁻ − f⁺) (each in (0, 1],
 * no cancellation): one corner below, the corner tetrahedron t·t′·t″; three below, one minus
 * the corner above's; two below (a, b) and two above (c, d), the wedge between them split into
 * three tetrahedra, t_ac·t_ad + t_ac·t_bd·(1 − t_ad) + (1 − t_ac)·t_bc·t_bd.
 */
export function tetrahedronFractionBelow(f0: number, f1: number, f2: number, f3: number): number {
  // The fraction is scale invariant: lift tiny (subnormal) values by an exact power of two.
  const m = Math.max(Math.abs(f0), Math.abs(f1), Math.abs(f2), Math.abs(f3));
  const k = m < TINY_VALUE ? LIFT : 1;
  // Sort ascending (a small network; values only).
  let a = f0 * k;
  let b = f1 * k;
  let c = f2 * k;
  let d = f3 * k;
  let t: number;
  if (a > b) {
    t = a;
    a = b;
    b = t;
  }
  if (c > d) {
    t = c;
    c = d;
    d = t;
  }
  if (a > c) {
    t = a;
    a = c;
    c = t;
  }
  if (b > d) {
    t = b;
    b = d;
    d = t;
  }
  if (b > c) {
    t = b;
    b = c;
    c = t;
  }
  if (!(a < 0)) return 0;
  if (d <= 0) return 1;
  if (b >= 0) return (((a / (a - b)) * a) / (a - c)) * (a / (a - d));
  if (c > 0) {
    const tac = a / (a - c);
    const tad = a / (a - d);
    const tbc = b / (b - c);
    const tbd = b / (b - d);
    return Math.min(1, tac * tad + tac * tbd * (1 - tad) + (1 - tac) * tbc * tbd);
  }
  return 1 - (d / (d - a)) * (d / (d - b)) * (d / (d - c));
}

/** Values below this are lifted by {@link LIFT} before the fraction is formed. */
const TINY_VALUE = 2 ** -900;
/** An exact power of two that brings subnormal values to the normal range. */
const LIFT = 2 ** 900;
