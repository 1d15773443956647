/**
 * Regression input of issue 16, "pointB − pointA not along the normal" at a touch (the CI's seed
 * 16 with the fuzzer's facing check): a box of 5e-3 touching the edge of a box mesh of 3e5 had
 * its witness 3.9e-7 beside the mesh's (the bar 4.5e-9), fixed in
 * src/narrowphase/triangle-polytope.ts (`penetrationWitnesses`): B was moved off the triangle by a
 * clearance of the frame's size (2^-10 of 3e5) to find the closest points, and B's vertices,
 * rounded to the frame, give its short edges directions off by ε·frame/edge, which the
 * clearance turned into a sideways slide; the clearance is now a fraction of B's shortest edge.
 *
 * The recorded scenario is replayed through the fuzzer's own checks with `facing` on
 * (test/fuzz/fuzz.ts: its independent oracles, the bars of docs/FORMATS.md). A fast-check
 * property places small polytopes (box, tetrahedral hull, triangle) of 1e-6..1e6 touching a
 * large triangle, or a large box mesh, at a corner, an edge or a face, along a normal drawn from
 * that feature's normal cone, at offsets up to 1e9, in both orders, and checks each contact and
 * manifold point against an independent computation: pB − pA = distance·n, |distance| within
 * the rounding of a touch, the large shape's witness on its surface (closest point on the
 * triangle; the box's signed distance), the small shape's in it (its local coordinates, its
 * barycentric coordinates, its closest point).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { BOX_TRIANGLES } from "../support/box-mesh.js";
import { bits21, quatArb } from "./arbitraries.js";
import {
  add,
  closestOnTriangle,
  cross,
  dot,
  norm,
  rotate,
  scale,
  sub,
  unit,
  unrotate,
  type V,
} from "./oracle-shapes.js";
import { loadCases, replayCases } from "./recorded-cases.js";

const EPS = 2 ** -52;

const CASES = loadCases("./touch-facing.cases.json");

describe("issue 16: witnesses of a touch face each other (seed 16, facing on)", () => {
  replayCases(CASES, 1, { facing: true });

  it("the recorded box beside the box mesh's edge: both witnesses at the touching corner", () => {
    const sc = CASES[0].scenario;
    const r = answerQuery({ op: "contact", a: sc.worldA, b: sc.worldB }) as {
      distance: number;
      pointA: V;
      pointB: V;
    };
    expect(r.distance).toBe(0);
    // Was: 3.9e-7 apart (pointB on a box edge beside the corner on the mesh's edge).
    expect(norm(sub(r.pointB, r.pointA))).toBeLessThan(1e-9);
  });
});

interface Answer {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
}

/** The contacts of a `contact` or `manifold` answer (none when `null`: touching rounded apart). */
function contactsOf(r: Record<string, unknown> | null): Answer[] {
  if (r === null) return [];
  if (Array.isArray(r.points)) {
    return (r.points as Answer[]).map((p) => ({ ...p, normal: r.normal as V }));
  }
  return [r as unknown as Answer];
}

/** A shape of the property with its own test of a point lying on (or in) it, within `tol`. */
interface Placed {
  json: Record<string, unknown>;
  /** How far p lies from the shape's surface (large) or outside the shape (small). */
  off(p: V): number;
}

/** Distance of p outside box (centre c, rotation q, half extents h); 0 inside. */
function outsideBox(p: V, c: V, q: number[], h: V): number {
  const l = unrotate(q, sub(p, c));
  return Math.hypot(...l.map((x, i) => Math.max(0, Math.abs(x) - h[i])));
}

/** |signed distance| of p to the box's surface, to first order (inside: its nearest face). */
function offBoxSurface(p: V, c: V, q: number[], h: V): number {
  const l = unrotate(q, sub(p, c));
  const out = Math.hypot(...l.map((x, i) => Math.max(0, Math.abs(x) - h[i])));
  return out > 0 ? out : Math.min(...l.map((x, i) => h[i] - Math.abs(x)));
}

/** Distance of p outside tetrahedron t (its barycentric coordinates, scaled by the edges). */
function outsideTetra(p: V, t: V[]): number {
  let worst = 0;
  for (let i = 0; i < 4; i++) {
    const [a, b, c] = [t[(i + 1) % 4], t[(i + 2) % 4], t[(i + 3) % 4]];
    let n = unit(cross(sub(b, a), sub(c, a)));
    if (dot(n, sub(t[i], a)) > 0) n = scale(n, -1);
    worst = Math.max(worst, dot(n, sub(p, a)));
  }
  return worst;
}

/** The unit quaternion [x, y, z, w] of the rotation with columns c0, c1, c2 (Shepperd 1978). */
function quatOfColumns(c0: V, c1: V, c2: V): number[] {
  const [m00, m10, m20] = c0;
  const [m01, m11, m21] = c1;
  const [m02, m12, m22] = c2;
  const t = m00 + m11 + m22;
  if (t > 0) {
    const r = 2 * Math.sqrt(1 + t);
    return [(m21 - m12) / r, (m02 - m20) / r, (m10 - m01) / r, r / 4];
  }
  if (m00 >= m11 && m00 >= m22) {
    const r = 2 * Math.sqrt(1 + m00 - m11 - m22);
    return [r / 4, (m01 + m10) / r, (m02 + m20) / r, (m21 - m12) / r];
  }
  if (m11 >= m22) {
    const r = 2 * Math.sqrt(1 + m11 - m00 - m22);
    return [(m01 + m10) / r, r / 4, (m12 + m21) / r, (m02 - m20) / r];
  }
  const r = 2 * Math.sqrt(1 + m22 - m00 - m11);
  return [(m02 + m20) / r, (m12 + m21) / r, r / 4, (m10 - m01) / r];
}

/** Where on the large shape the small one touches, with a normal of that feature's cone. */
interface Touch {
  target: V;
  n: V;
  /** A direction of the feature normal to n (the edge's; for a corner or face, one across it). */
  along: V;
}

/** The large shape (a triangle or a box mesh of size L at `offset`, turned by q) and its touch. */
function placeLarge(
  large: "triangle" | "boxMesh",
  where: "corner" | "edge" | "face",
  L: number,
  offset: V,
  q: number[],
  [u, w, g, theta]: number[],
): { big: Placed; touch: Touch } {
  if (large === "triangle") {
    const tri = [
      [0, 0, 0],
      [L, 0.1 * L, 0],
      [0.3 * L, 0.9 * L, 0.05 * L],
    ].map((p) => add(rotate(q, p as V), offset));
    const N = unit(cross(sub(tri[1], tri[0]), sub(tri[2], tri[0])));
    // The outward in-plane normal of edge k (from corner k to k + 1).
    const out = (k: number): V => {
      const m = unit(cross(sub(tri[(k + 1) % 3], tri[k]), N));
      return dot(m, sub(tri[(k + 2) % 3], tri[k])) > 0 ? scale(m, -1) : m;
    };
    const e0 = unit(sub(tri[1], tri[0]));
    let touch: Touch;
    if (where === "corner") {
      const n = unit(add(add(scale(out(0), u + 0.05), scale(out(2), w + 0.05)), scale(N, g)));
      touch = { target: tri[0], n, along: unit(cross(n, e0)) };
    } else if (where === "edge") {
      const n = unit(add(scale(out(0), Math.cos(theta)), scale(N, Math.sin(theta))));
      touch = { target: add(tri[0], scale(sub(tri[1], tri[0]), u)), n, along: e0 };
    } else {
      const target = add(
        tri[0],
        add(scale(sub(tri[1], tri[0]), u * (1 - w)), scale(sub(tri[2], tri[0]), w * (1 - u))),
      );
      touch = { target, n: g >= 0 ? N : scale(N, -1), along: e0 };
    }
    const big = {
      json: { type: "triangle", a: tri[0], b: tri[1], c: tri[2] },
      off: (p: V) => norm(sub(p, closestOnTriangle(p, tri[0], tri[1], tri[2]))),
    };
    return { big, touch };
  }
  // A box of half extents H as 12 triangles, posed by (offset, q).
  const H: V = [0.5 * L, 0.3 * L, 0.4 * L];
  const vertices: V[] = [];
  for (let i = 0; i < 8; i++)
    vertices.push([i & 4 ? H[0] : -H[0], i & 2 ? H[1] : -H[1], i & 1 ? H[2] : -H[2]]);
  const indices = BOX_TRIANGLES.map((t) => [...t]);
  // The corner (+,+,+) where the faces +x, +y, +z meet; the edge along z at x = +H, y = +H
  // (faces +x and +y); the face +x. Normals: positive combinations of those faces' normals.
  const local: V =
    where === "corner"
      ? H
      : where === "edge"
        ? [H[0], H[1], (2 * u - 1) * H[2]]
        : [H[0], (2 * u - 1) * H[1], (2 * w - 1) * H[2]];
  const ln: V =
    where === "corner"
      ? unit([u + 0.05, w + 0.05, Math.abs(g) + 0.05])
      : where === "edge"
        ? [Math.cos(theta / 2 + Math.PI / 4), Math.sin(theta / 2 + Math.PI / 4), 0]
        : [1, 0, 0];
  const n = rotate(q, ln);
  const along = where === "corner" ? unit(cross(n, rotate(q, [0, 0, 1]))) : rotate(q, [0, 0, 1]);
  const big = {
    json: { type: "mesh", vertices, indices, position: offset, rotation: q },
    off: (p: V) => Math.abs(offBoxSurface(p, offset, q, H)),
  };
  return { big, touch: { target: add(rotate(q, local), offset), n, along } };
}

/**
 * The small shape (size s) touching at `touch`: by its point farthest along −n ("vertex"), or
 * by an edge normal to n crossing the feature at angle ψ ("crossing": a box's, a hull's or a
 * triangle's edge through the target, the shape on the +n side). Either way it lies beyond the
 * plane through the target normal to n, the large shape (n in its feature's normal cone) before it.
 */
function placeSmall(
  small: "box" | "hull" | "triangle",
  mode: "vertex" | "crossing",
  s: number,
  touch: Touch,
  rq: number[],
  [psi, v]: number[],
): Placed {
  const { target, n, along } = touch;
  const h: V = [0.5 * s, 0.3 * s, 0.4 * s];
  if (mode === "crossing") {
    // The edge direction b (normal to n) and the in-plane direction c normal to it.
    const b = add(scale(along, Math.cos(psi)), scale(unit(cross(n, along)), Math.sin(psi)));
    const c = cross(n, b);
    if (small === "box") {
      // Axis x along b; the support edge at −n (its y and z at the signs facing −n) through the
      // target at v of its half length.
      const r = rotate(rq, [0, 1, 0]);
      const y = unit(sub(r, scale(b, dot(r, b))));
      const z = cross(b, y);
      const q = quatOfColumns(b, y, z);
      const corner = add(
        add(scale(b, v * h[0]), scale(y, dot(y, n) > 0 ? -h[1] : h[1])),
        scale(z, dot(z, n) > 0 ? -h[2] : h[2]),
      );
      const centre = sub(target, corner);
      return {
        json: { type: "box", center: centre, halfExtents: h, rotation: q },
        off: (p) => outsideBox(p, centre, q, h),
      };
    }
    // The edge from p0 to p1 through the target; the other corners on the +n side.
    const p0 = add(target, scale(b, -(1 + v) * 0.5 * s));
    const p1 = add(target, scale(b, (1 - v) * 0.5 * s));
    const p2 = add(target, add(scale(n, 0.6 * s), scale(c, 0.4 * s)));
    if (small === "triangle") {
      return {
        json: { type: "triangle", a: p0, b: p1, c: p2 },
        off: (p) => norm(sub(p, closestOnTriangle(p, p0, p1, p2))),
      };
    }
    const p3 = add(target, add(scale(n, 0.5 * s), scale(c, -0.5 * s)));
    const world = [p0, p1, p2, p3];
    return {
      json: {
        type: "convex",
        points: world.map((p) => unrotate(rq, sub(p, target))),
        position: target,
        rotation: rq,
      },
      off: (p) => outsideTetra(p, world),
    };
  }
  if (small === "box") {
    const d = unrotate(rq, scale(n, -1));
    const corner = h.map((x, i) => (d[i] >= 0 ? x : -x)) as V;
    const c = sub(target, rotate(rq, corner));
    return {
      json: { type: "box", center: c, halfExtents: h, rotation: rq },
      off: (p) => outsideBox(p, c, rq, h),
    };
  }
  const pts: V[] = (
    small === "hull"
      ? [
          [0.5, 0, 0],
          [-0.3, 0.4, 0.1],
          [-0.2, -0.4, 0.3],
          [0, 0.1, -0.5],
        ]
      : [
          [0.5, 0, 0.1],
          [-0.3, 0.4, -0.2],
          [-0.2, -0.4, 0.3],
        ]
  ).map((p) => scale(p as V, s));
  let low = 0;
  for (let i = 1; i < pts.length; i++) {
    if (dot(rotate(rq, pts[i]), n) < dot(rotate(rq, pts[low]), n)) low = i;
  }
  const position = sub(target, rotate(rq, pts[low]));
  const world = pts.map((p) => add(position, rotate(rq, p)));
  if (small === "hull") {
    return {
      json: { type: "convex", points: pts, position, rotation: rq },
      off: (p) => outsideTetra(p, world),
    };
  }
  return {
    json: { type: "triangle", a: world[0], b: world[1], c: world[2] },
    off: (p) => norm(sub(p, closestOnTriangle(p, world[0], world[1], world[2]))),
  };
}

/** The failures of the pair's contact and manifold answers, both orders, against the bar. */
function check(big: Placed, little: Placed, mag: number): string[] {
  const out: string[] = [];
  const bar = 64 * EPS * mag;
  for (const op of ["contact", "manifold"]) {
    for (const bigIsA of [true, false]) {
      const [a, b] = bigIsA ? [big, little] : [little, big];
      const r = answerQuery({ op, a: a.json, b: b.json }) as Record<string, unknown> | null;
      for (const c of contactsOf(r)) {
        const tag = `${op} ${bigIsA ? "large first" : "small first"}:`;
        const dp = sub(c.pointB, c.pointA);
        const lateral = norm(sub(dp, scale(c.normal, dot(dp, c.normal))));
        // (The fuzzer's facing check is the contact's: a mesh's manifold merges points of parts
        // whose normals differ a little, measured along the deepest one's.)
        if (op === "contact" && !(lateral <= bar))
          out.push(`${tag} pB − pA not along n by ${lateral} (bar ${bar})`);
        // (A manifold keeps points near the contact plane: a touch's others lie apart.)
        const gapOk = op === "contact" ? Math.abs(c.distance) <= bar : c.distance >= -bar;
        if (!gapOk) out.push(`${tag} distance ${c.distance} at a touch`);
        const offA = a.off(c.pointA);
        const offB = b.off(c.pointB);
        if (!(offA <= bar)) out.push(`${tag} pointA ${offA} off A`);
        if (!(offB <= bar)) out.push(`${tag} pointB ${offB} off B`);
      }
    }
  }
  return out;
}

/**
 * A unit vector from its z in [−1, 1] and an azimuth in [0, 2π], the azimuth never NaN (unlike
 * facing-witnesses.test.ts' zPhiDirOrZArb, whose NaN azimuth gives (0, 0, z)).
 */
const zPhiDirArb = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
  )
  .map(([z, phi]) => {
    const r = Math.sqrt(Math.max(0, 1 - z * z));
    return [r * Math.cos(phi), r * Math.sin(phi), z] as V;
  });

describe("property: small polytopes touching a large triangle or box mesh", () => {
  it("every contact's witnesses face each other, on their shapes (1e-6..1e6, offsets to 1e9, both orders)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -3, max: 6 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom("triangle" as const, "boxMesh" as const),
        fc.constantFrom("corner" as const, "edge" as const, "face" as const),
        fc.constantFrom("box" as const, "hull" as const, "triangle" as const),
        fc.constantFrom("vertex" as const, "crossing" as const),
        fc.tuple(
          fc.double({ min: 0.1, max: 0.9, noNaN: true }),
          fc.double({ min: 0.1, max: 0.9, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1.4, max: 1.4, noNaN: true }),
        ),
        fc.tuple(
          fc.double({ min: 0.2, max: Math.PI - 0.2, noNaN: true }),
          fc.double({ min: -0.9, max: 0.9, noNaN: true }),
        ),
        quatArb,
        quatArb,
        fc.tuple(fc.integer({ min: 0, max: 9 }), zPhiDirArb, fc.boolean()),
        (e, k, large, where, small, mode, params, edge, q, rq, [o, odir, exact]) => {
          const L = 10 ** e;
          const s = Math.max(L / 10 ** k, 1e-6);
          const raw = scale(odir, o === 0 ? 0 : 10 ** o);
          const offset = (exact ? raw.map(bits21) : raw) as V;
          const { big, touch } = placeLarge(large, where, L, offset, q, params);
          const little = placeSmall(small, mode, s, touch, rq, edge);
          const mag = Math.max(L, norm(offset), s);
          expect(check(big, little, mag)).toEqual([]);
        },
      ),
      { numRuns: 400, seed: 25 },
    );
  });
});
