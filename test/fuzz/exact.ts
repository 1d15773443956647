/**
 * Exact arithmetic on the input doubles for the fuzzer's certificates: every finite double is a
 * dyadic rational m·2^e (BigInt m), so sums, differences and products of inputs are exact, and a
 * sign decides a predicate without rounding. Used to certify "these shapes share this point"
 * and "this axis separates them" on touching and just-apart inputs.
 */

/** m · 2^e exactly. */
export interface Dy {
  m: bigint;
  e: number;
}

const buf = new DataView(new ArrayBuffer(8));

/** The exact dyadic value of a finite double. */
export function dy(x: number): Dy {
  if (x === 0) return { m: 0n, e: 0 };
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const sign = hi >>> 31 ? -1n : 1n;
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (exp === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = exp - 1075;
  }
  return { m: sign * mant, e };
}

function align(a: Dy, b: Dy): [bigint, bigint, number] {
  if (a.e === b.e) return [a.m, b.m, a.e];
  if (a.e < b.e) return [a.m, b.m << BigInt(b.e - a.e), a.e];
  return [a.m << BigInt(a.e - b.e), b.m, b.e];
}
export function dadd(a: Dy, b: Dy): Dy {
  const [x, y, e] = align(a, b);
  return { m: x + y, e };
}
export function dsub(a: Dy, b: Dy): Dy {
  const [x, y, e] = align(a, b);
  return { m: x - y, e };
}
export function dmul(a: Dy, b: Dy): Dy {
  return { m: a.m * b.m, e: a.e + b.e };
}
/** Sign of a − b: −1, 0 or 1. */
export function dcmp(a: Dy, b: Dy): number {
  const d = dsub(a, b).m;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}
export const dsign = (a: Dy): number => (a.m > 0n ? 1 : a.m < 0n ? -1 : 0);
export const dneg = (a: Dy): Dy => ({ m: -a.m, e: a.e });
export function dmax(a: Dy, b: Dy): Dy {
  return dcmp(a, b) >= 0 ? a : b;
}
export function dmin(a: Dy, b: Dy): Dy {
  return dcmp(a, b) <= 0 ? a : b;
}

/** True when x + y is exactly the double s. */
export function sumIsExact(x: number, y: number, s: number): boolean {
  return dcmp(dadd(dy(x), dy(y)), dy(s)) === 0;
}

type DV = [Dy, Dy, Dy];
const dv = (p: readonly number[]): DV => [dy(p[0]), dy(p[1]), dy(p[2])];
const dvsub = (a: DV, b: DV): DV => [dsub(a[0], b[0]), dsub(a[1], b[1]), dsub(a[2], b[2])];
const dvdot = (a: DV, b: DV): Dy =>
  dadd(dadd(dmul(a[0], b[0]), dmul(a[1], b[1])), dmul(a[2], b[2]));
const dvcross = (a: DV, b: DV): DV => [
  dsub(dmul(a[1], b[2]), dmul(a[2], b[1])),
  dsub(dmul(a[2], b[0]), dmul(a[0], b[2])),
  dsub(dmul(a[0], b[1]), dmul(a[1], b[0])),
];

type J = Record<string, unknown>;
const isIdentity = (q: unknown): boolean => {
  if (q === undefined) return true;
  const a = q as number[];
  return a[0] === 0 && a[1] === 0 && a[2] === 0 && a[3] === 1;
};

/** |p − q|² ≤ r² exactly, with p − q segment distance (no division: Ericson 2005, §5.1.2). */
function inCapsule(p: DV, a: DV, b: DV, r: Dy): boolean {
  const e = dvsub(b, a);
  const w = dvsub(p, a);
  const we = dvdot(w, e);
  const ee = dvdot(e, e);
  const r2 = dmul(r, r);
  if (dsign(we) <= 0 || dsign(ee) === 0) return dcmp(dvdot(w, w), r2) <= 0;
  if (dcmp(we, ee) >= 0) {
    const u = dvsub(p, b);
    return dcmp(dvdot(u, u), r2) <= 0;
  }
  // |w|²·|e|² − (w·e)² ≤ r²·|e|²
  return dcmp(dsub(dmul(dvdot(w, w), ee), dmul(we, we)), dmul(r2, ee)) <= 0;
}

function inTriangle(p: DV, a: DV, b: DV, c: DV): boolean | null {
  const n = dvcross(dvsub(b, a), dvsub(c, a));
  if (dsign(n[0]) === 0 && dsign(n[1]) === 0 && dsign(n[2]) === 0) return null;
  if (dsign(dvdot(dvsub(p, a), n)) !== 0) return false;
  for (const [u, w] of [
    [a, b],
    [b, c],
    [c, a],
  ] as [DV, DV][]) {
    if (dsign(dvdot(dvcross(dvsub(w, u), dvsub(p, u)), n)) < 0) return false;
  }
  return true;
}

/**
 * Exactly whether point p lies in the JSON shape (solid; a triangle, or a mesh's triangles, as
 * surfaces), or null when the shape's placement is not exact in rationals (a general rotation,
 * a convex hull, a mesh with scale or rotation).
 */
export function exactContains(j: J, p: readonly number[]): boolean | null {
  const P = dv(p);
  switch (j.type) {
    case "sphere": {
      const d = dvsub(P, dv(j.center as number[]));
      const r = dy(j.radius as number);
      return dcmp(dvdot(d, d), dmul(r, r)) <= 0;
    }
    case "aabb": {
      const lo = dv(j.min as number[]);
      const hi = dv(j.max as number[]);
      for (let k = 0; k < 3; k++) {
        if (dcmp(P[k], lo[k]) < 0 || dcmp(P[k], hi[k]) > 0) return false;
      }
      return true;
    }
    case "box": {
      if (!isIdentity(j.rotation)) return null;
      const d = dvsub(P, dv(j.center as number[]));
      const h = dv(j.halfExtents as number[]);
      for (let k = 0; k < 3; k++) {
        if (dcmp(d[k], h[k]) > 0 || dcmp(dneg(d[k]), h[k]) > 0) return false;
      }
      return true;
    }
    case "roundedBox": {
      // Within r of the box: the squared excess beyond its half extents, per axis, ≤ r².
      if (!isIdentity(j.rotation)) return null;
      const d = dvsub(P, dv(j.center as number[]));
      const h = dv(j.halfExtents as number[]);
      let s: Dy = { m: 0n, e: 0 };
      for (let k = 0; k < 3; k++) {
        const ad = dsign(d[k]) < 0 ? dneg(d[k]) : d[k];
        const over = dsub(ad, h[k]);
        if (dsign(over) > 0) s = dadd(s, dmul(over, over));
      }
      const r = dy(j.radius as number);
      return dcmp(s, dmul(r, r)) <= 0;
    }
    case "capsule":
      return inCapsule(P, dv(j.a as number[]), dv(j.b as number[]), dy(j.radius as number));
    case "cylinder":
    case "cone": {
      if (!isIdentity(j.rotation)) return null;
      const d = dvsub(P, dv(j.center as number[]));
      const hh = dy(j.halfHeight as number);
      const r = dy(j.radius as number);
      if (dcmp(d[1], hh) > 0 || dcmp(dneg(d[1]), hh) > 0) return false;
      const rho2 = dadd(dmul(d[0], d[0]), dmul(d[2], d[2]));
      if (j.type === "cylinder") return dcmp(rho2, dmul(r, r)) <= 0;
      // Radius at height y: r·(hh − y)/(2hh); ρ²·(2hh)² ≤ r²·(hh − y)².
      const two = dy(2);
      const hy = dsub(hh, d[1]);
      const lhs = dmul(rho2, dmul(dmul(two, hh), dmul(two, hh)));
      const rhs = dmul(dmul(r, r), dmul(hy, hy));
      return dcmp(lhs, rhs) <= 0;
    }
    case "triangle":
      return inTriangle(P, dv(j.a as number[]), dv(j.b as number[]), dv(j.c as number[]));
    case "halfspace":
      return dcmp(dvdot(dv(j.normal as number[]), P), dy(j.offset as number)) <= 0;
    case "mesh": {
      if (!isIdentity(j.rotation) || j.scale !== undefined) return null;
      const off = dv((j.position as number[] | undefined) ?? [0, 0, 0]);
      const vs = (j.vertices as number[][]).map((q) => {
        const d = dv(q);
        return [dadd(d[0], off[0]), dadd(d[1], off[1]), dadd(d[2], off[2])] as DV;
      });
      let unknown = false;
      for (const t of j.indices as number[][]) {
        const r = inTriangle(P, vs[t[0]], vs[t[1]], vs[t[2]]);
        if (r === true) return true;
        if (r === null) unknown = true;
      }
      return unknown ? null : false;
    }
    case "compound": {
      if (!isIdentity(j.rotation)) return null;
      const off = (j.position as number[] | undefined) ?? [0, 0, 0];
      let unknown = false;
      for (const c of j.children as J[]) {
        if (!isIdentity(c.rotation)) return null;
        const cp = (c.position as number[] | undefined) ?? [0, 0, 0];
        // p in child ⇔ p − off − cp in the child's own JSON frame; exact only when the
        // subtraction is.
        const q = [0, 1, 2].map((k) => p[k] - off[k] - cp[k]);
        for (let k = 0; k < 3; k++) {
          if (dcmp(dsub(dsub(dy(p[k]), dy(off[k])), dy(cp[k])), dy(q[k])) !== 0) return null;
        }
        const r = exactContains(c.shape as J, q);
        if (r === true) return true;
        if (r === null) unknown = true;
      }
      return unknown ? null : false;
    }
  }
  return null;
}

/**
 * The exact largest coordinate `k` (times `sign` ±1) over the JSON shape, or null when not
 * exact (general rotations). With it, max_A(e) < min_B(e) certifies an axis that separates.
 */
export function exactExtent(j: J, k: number, sign: number): Dy | null {
  const s = (x: number) => dy(sign * x);
  const pick = (pts: number[][]) => {
    let m: Dy | null = null;
    for (const p of pts) m = m ? dmax(m, s(p[k])) : s(p[k]);
    return m;
  };
  switch (j.type) {
    case "sphere":
      return dadd(s((j.center as number[])[k]), dy(j.radius as number));
    case "aabb":
      return sign > 0 ? dy((j.max as number[])[k]) : dy(-(j.min as number[])[k]);
    case "box":
      if (!isIdentity(j.rotation)) return null;
      return dadd(s((j.center as number[])[k]), dy((j.halfExtents as number[])[k]));
    case "roundedBox":
      if (!isIdentity(j.rotation)) return null;
      return dadd(
        dadd(s((j.center as number[])[k]), dy((j.halfExtents as number[])[k])),
        dy(j.radius as number),
      );
    case "roundedConvex": {
      if (!isIdentity(j.rotation)) return null;
      const off = (j.position as number[] | undefined) ?? [0, 0, 0];
      const m = pick(j.points as number[][]) as Dy;
      return dadd(dadd(m, s(off[k])), dy(j.radius as number));
    }
    case "capsule":
      return dadd(pick([j.a as number[], j.b as number[]]) as Dy, dy(j.radius as number));
    case "cylinder":
    case "cone": {
      if (!isIdentity(j.rotation)) return null;
      const c = s((j.center as number[])[k]);
      return dadd(c, dy(k === 1 ? (j.halfHeight as number) : (j.radius as number)));
    }
    case "triangle":
      return pick([j.a as number[], j.b as number[], j.c as number[]]);
    case "convex": {
      if (!isIdentity(j.rotation)) return null;
      const off = (j.position as number[] | undefined) ?? [0, 0, 0];
      const m = pick(j.points as number[][]) as Dy;
      return dadd(m, s(off[k]));
    }
    case "mesh": {
      if (!isIdentity(j.rotation) || j.scale !== undefined) return null;
      const off = (j.position as number[] | undefined) ?? [0, 0, 0];
      return dadd(pick(j.vertices as number[][]) as Dy, s(off[k]));
    }
    case "compound": {
      if (!isIdentity(j.rotation)) return null;
      const off = (j.position as number[] | undefined) ?? [0, 0, 0];
      let m: Dy | null = null;
      for (const c of j.children as J[]) {
        if (!isIdentity(c.rotation)) return null;
        const cp = (c.position as number[] | undefined) ?? [0, 0, 0];
        const e = exactExtent(c.shape as J, k, sign);
        if (!e) return null;
        const v = dadd(dadd(e, s(cp[k])), s(off[k]));
        m = m ? dmax(m, v) : v;
      }
      return m;
    }
  }
  return null;
}

/**
 * Exactly whether closed triangles `a` and `b` (corners, doubles) share a point: no separating
 * axis among both normals, the nine edge crosses and the six in-plane edge normals (complete for
 * two triangles: the faces of their Minkowski difference, flat or not).
 */
export function exactTrianglesMeet(
  a: readonly (readonly number[])[],
  b: readonly (readonly number[])[],
): boolean {
  const A = a.map(dv);
  const B = b.map(dv);
  const ea = [0, 1, 2].map((i) => dvsub(A[(i + 1) % 3], A[i]));
  const eb = [0, 1, 2].map((i) => dvsub(B[(i + 1) % 3], B[i]));
  const na = dvcross(ea[0], ea[1]);
  const nb = dvcross(eb[0], eb[1]);
  const axes: DV[] = [na, nb];
  for (const x of ea) for (const y of eb) axes.push(dvcross(x, y));
  for (const x of ea) axes.push(dvcross(na, x));
  for (const y of eb) axes.push(dvcross(nb, y));
  for (const u of axes) {
    if (u.every((c) => dsign(c) === 0)) continue;
    const pa = A.map((p) => dvdot(p, u));
    const pb = B.map((p) => dvdot(p, u));
    const max = (v: Dy[]) => v.reduce((m, x) => (dcmp(x, m) > 0 ? x : m));
    const min = (v: Dy[]) => v.reduce((m, x) => (dcmp(x, m) < 0 ? x : m));
    if (dcmp(max(pa), min(pb)) < 0 || dcmp(max(pb), min(pa)) < 0) return false;
  }
  return true;
}
