/**
 * Regression of issue 16 (a fresh user's attack, report 30, F2): 3D triangles sharing an exact
 * input vertex that is not both triangles' first one said `intersects: false` in 161 of 400 draws
 * (distance about 1e-17, contact null). The JSON triangle was read in a frame at its first
 * vertex, its other corners moved by b − a and rounded, and B's frame reached A's by a rounded
 * offset; the exact triangle test (src/geometry/exact-predicates.ts, `trianglesMeet`) then saw
 * the shared corner 1e-17 off. Fixed by reading the triangle in a frame on a power-of-two grid
 * near its first vertex (src/math/scalar.ts `gridOrigin`, src/io/defs/triangle-json.ts), where
 * every corner and the offset between two such frames are exact, and by putting the far-triangle
 * frame of the pair queries (src/shapes/triangle-frame.ts) on the same grid: an API triangle at
 * 1e9 whose corner lies on another's edge was 3e-17 from it.
 *
 * The oracle is the construction: a shared corner, a corner at an exact dyadic point of the other
 * triangle's edge, a shared edge, or a coplanar triangle along an edge are common points of both
 * triangles, so `intersects` is true, `distance` 0, `contact` at prediction 0 and `manifold`
 * non-null. The control moves the shared corner by a few ulps, decided by exact rational
 * arithmetic (test/fuzz/exact.ts, `exactTrianglesMeet`): where the triangles still meet all four
 * answers say so, and apart by less than the documented 32 ulps they agree with each other.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { exactTrianglesMeet } from "./exact.js";

type P = number[];
type J = Record<string, unknown>;

/** The attack's line: B's third corner is A's second. */
const LINE = {
  a: {
    type: "triangle",
    a: [0.428, 0.025, -0.115],
    b: [-0.379, -0.275, -0.338],
    c: [0.436, 0.008, -0.295],
  },
  b: {
    type: "triangle",
    a: [0.389, 0.256, -0.232],
    b: [-0.397, 0.273, -0.431],
    c: [-0.379, -0.275, -0.338],
  },
};

/** Triangle JSON with corners `p` rotated by `r` (corner k of the JSON is p[(k + r) % 3]). */
const tri = (p: P[], r = 0): J => ({
  type: "triangle",
  a: p[r % 3],
  b: p[(r + 1) % 3],
  c: p[(r + 2) % 3],
});

/** The triangle as a shape of `kind`: itself, a mesh's triangle (beside another), a compound's child. */
function wrap(t: J, kind: number, extra: P): J {
  if (kind === 1)
    return {
      type: "mesh",
      vertices: [t.a, t.b, t.c, extra],
      indices: [
        [0, 1, 2],
        [1, 3, 2],
      ],
    };
  if (kind === 2) return { type: "compound", children: [{ shape: t }] };
  return t;
}

interface Answers {
  hit: boolean;
  distance: number;
  contact: { distance: number } | null;
  manifold: unknown;
}

function answers(a: J, b: J): Answers {
  const q = { a, b };
  return {
    hit: (answerQuery({ op: "intersects", ...q }) as { intersects: boolean }).intersects,
    distance: (answerQuery({ op: "distance", ...q }) as { distance: number }).distance,
    contact: answerQuery({ op: "contact", ...q }) as { distance: number } | null,
    manifold: answerQuery({ op: "manifold", ...q }),
  };
}

/** What the four answers say about touching (each must say `meet`). */
function verdicts(r: Answers) {
  return {
    intersects: r.hit,
    distanceZero: r.distance <= 0,
    contact: r.contact !== null && r.contact.distance <= 0,
    manifold: r.manifold !== null,
  };
}

const all = (meet: boolean) => ({
  intersects: meet,
  distanceZero: meet,
  contact: meet,
  manifold: meet,
});

function expectMeet(a: J, b: J, meet = true): void {
  expect(verdicts(answers(a, b))).toEqual(all(meet));
}

/** The same through the API: corners in world coordinates at the identity pose. */
function expectMeetApi(a: P[], b: P[]): void {
  const v = (p: P) => ({ x: p[0], y: p[1], z: p[2] });
  const ta = makeTriangle(v(a[0]), v(a[1]), v(a[2]));
  const tb = makeTriangle(v(b[0]), v(b[1]), v(b[2]));
  const I = iso.identity();
  const d = distance(ta, I, tb, I).distance;
  const c = contact(ta, I, tb, I);
  expect({
    intersects: intersects(ta, I, tb, I),
    distanceZero: d <= 0,
    contact: c !== null && c.distance <= 0,
    manifold: manifold(ta, I, tb, I) !== null,
  }).toEqual(all(true));
}

/** A double in [−0.5, 0.5) with up to 53 random bits (fast-check's doubles are mostly extremes). */
const unit = fc
  .tuple(
    fc.integer({ min: -(2 ** 26), max: 2 ** 26 - 1 }),
    fc.integer({ min: 0, max: 2 ** 26 - 1 }),
  )
  .map(([h, l]) => (h * 2 ** 26 + l) / 2 ** 53);
/** An offset in [−1e9, 1e9). */
const offset = unit.map((x) => 2e9 * x);
const point = (c: fc.Arbitrary<number>) => fc.tuple(c, c, c);

describe("triangles sharing an exact input point intersect (issue 16, attack 30 F2)", () => {
  it("the attack's line, in both orders and as meshes and compounds", () => {
    const r = answers(LINE.a, LINE.b);
    expect(r.hit).toBe(true);
    expect(r.distance).toBe(0);
    expect(r.contact).not.toBeNull();
    expect(r.contact?.distance).toBeLessThanOrEqual(0);
    expect(r.manifold).not.toBeNull();
    expectMeet(LINE.b, LINE.a);
    const extra = [0.1, 0.2, 0.3];
    for (let ka = 0; ka < 3; ka++) {
      for (let kb = 0; kb < 3; kb++) expectMeet(wrap(LINE.a, ka, extra), wrap(LINE.b, kb, extra));
    }
  });

  it("property: a shared corner in every position of each triangle, both orders, triangles, meshes and compounds, on a 1e-3 grid or not, sizes 1e-6..1e6, offsets to 1e9", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: -6, max: 6 }),
        fc.tuple(fc.boolean(), point(offset)),
        fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })),
        fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })),
        fc.boolean(),
        fc.infiniteStream(unit),
        (grid, e, [far, off], [ia, ib], [ka, kb], swap, stream) => {
          const it = stream[Symbol.iterator]();
          const next = () => {
            const x = it.next().value as number;
            return grid ? Math.round(x * 1000) / 1000 : x;
          };
          const s = 10 ** e;
          const at = (): P => [0, 1, 2].map((i) => next() * s + (far ? off[i] : 0));
          const shared = at();
          const a: P[] = [at(), at(), at()];
          const b: P[] = [at(), at(), at()];
          a[ia] = shared;
          b[ib] = shared;
          const ja = wrap(tri(a), ka, at());
          const jb = wrap(tri(b), kb, at());
          if (swap) expectMeet(jb, ja);
          else expectMeet(ja, jb);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: a corner on the other's edge, a shared edge, a coplanar triangle along an edge; JSON and API, sizes 2^-21..2^20, offsets to 2^40 grid steps", () => {
    const int = (n: number) => fc.integer({ min: -n, max: n });
    const pt = fc.tuple(int(512), int(512), int(512));
    fc.assert(
      fc.property(
        fc.tuple(pt, fc.tuple(int(32), int(32), int(32)), pt),
        fc.tuple(pt, pt),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: -30, max: 10 }),
        fc.tuple(int(2 ** 30), int(2 ** 30), int(2 ** 30)),
        fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })),
        fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.boolean()),
        ([p, d8, r], [u, w], t, kind, e, off, [ra, rb], [ka, kb, swap]) => {
          // Integer corners, the edge pq a multiple of 8 so p + t(q − p)/8 is an integer; all
          // scaled by 2^e and offset by a multiple of 2^e·2^10: every point below is a double.
          const q = p.map((x, i) => x + 8 * d8[i]);
          const m = p.map((x, i) => x + t * d8[i]);
          const m2 = p.map((x, i) => x + ((t + 3) % 9) * d8[i]);
          const mirror = p.map((x, i) => x + q[i] - r[i]);
          const bi = kind === 0 ? [m, u, w] : kind === 1 ? [p, q, u] : [m, m2, mirror];
          const g = 2 ** e;
          const W = (x: P): P => x.map((c, i) => c * g + off[i] * g * 2 ** 10);
          const A = [p, q, r].map(W);
          const B = bi.map(W);
          const ja = wrap(tri(A, ra), ka, W(w));
          const jb = wrap(tri(B, rb), kb, W(u));
          if (swap) expectMeet(jb, ja);
          else expectMeet(ja, jb);
          if (swap) expectMeetApi(B, A);
          else expectMeetApi(A, B);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: far API triangles (identity poses, corners at 1e9), the smaller one's corner on the larger's edge, its other corners full-mantissa doubles", () => {
    const int = (n: number) => fc.integer({ min: -n, max: n });
    fc.assert(
      fc.property(
        fc.tuple(int(2 ** 20), int(2 ** 20)),
        fc.tuple(int(2 ** 20), int(2 ** 20)),
        fc.integer({ min: 0, max: 8 }),
        fc.tuple(point(unit), point(unit), point(unit)),
        fc.integer({ min: -10, max: 10 }),
        fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.boolean()),
        ([py, pz], [qy, qz], t, [r, u, w], e, [ra, rb, swap]) => {
          // A: p and q a unit step apart along x at 1e9·2^e (y, z on a grid of 2^(e−20)), so
          // p + t(q − p)/8 is a double; B a tenth of A's size around that point, its frame's
          // corner (B's first) with full-mantissa coordinates.
          const g = 2 ** e;
          const X = 2 ** 30 * g;
          const p = [X, py * 2 ** -21 * g, pz * 2 ** -21 * g];
          const q = [X + g, qy * 2 ** -21 * g, qz * 2 ** -21 * g];
          const m = p.map((x, i) => x + ((q[i] - x) * t) / 8);
          const A = [p, q, p.map((x, i) => x + r[i] * g)];
          const B = [m.map((x, i) => x + u[i] * g * 0.1), m, m.map((x, i) => x + w[i] * g * 0.1)];
          const rot = (T: P[], k: number) => [T[k % 3], T[(k + 1) % 3], T[(k + 2) % 3]];
          if (swap) expectMeetApi(rot(B, rb), rot(A, ra));
          else expectMeetApi(rot(A, ra), rot(B, rb));
          expectMeet(tri(A, ra), tri(B, rb));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property (control): the shared corner moved by −4..4 ulps: touching where it exactly touches, the four answers agreeing", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -6, max: 6 }),
        fc.tuple(fc.boolean(), point(offset)),
        fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })),
        fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: -4, max: 4 })),
        fc.array(point(unit), { minLength: 5, maxLength: 5 }),
        (e, [far, off], [ia, ib], [axis, ulps], pts) => {
          const s = 10 ** e;
          const W = (x: P): P => x.map((c, i) => c * s + (far ? off[i] : 0));
          const [shared, a1, a2, b1, b2] = pts.map(W);
          const a: P[] = [a1, a2];
          a.splice(ia, 0, shared);
          const m = Math.abs(shared[axis]);
          const step = m > 0 ? 2 ** (Math.floor(Math.log2(m)) - 52) : Number.MIN_VALUE;
          const moved = shared.map((x, i) => (i === axis ? x + ulps * step : x));
          const b: P[] = [b1, b2];
          b.splice(ib, 0, moved);
          // Exactly touching or crossing: all four say so. Apart by a few ulps (below the
          // documented 32 ulps of the pair's size, where either answer is allowed; a moved corner
          // need not be a double in the other's frame): the four agree.
          const v = verdicts(answers(tri(a), tri(b)));
          if (exactTrianglesMeet(a, b)) expect(v).toEqual(all(true));
          else expect(v).toEqual(all(v.intersects));
        },
      ),
      { numRuns: 300 },
    );
  });
});
