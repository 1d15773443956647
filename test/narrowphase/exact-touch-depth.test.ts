/**
 * Exact touches at the depth of a contact and of a manifold (session 44 fresh-user findings):
 * hand-derived oracles, gap exactly 0. The plane x + 2y + 2z = 0 has unit normal (1, 2, 2)/3, so
 * a point at signed distance 9/3 = 3 is exactly a radius 3 away.
 */
import { describe, expect, it } from "vitest";
import * as C from "../../src/index.js";
import { planeField } from "../support/field-mesh.js";
import { pose as P } from "../support/pose.js";

function expectTouch(a: C.Shape, pa: C.Isometry, b: C.Shape, pb: C.Isometry): void {
  for (const [s, ps, t, pt] of [
    [a, pa, b, pb],
    [b, pb, a, pa],
  ] as const) {
    expect(C.contact(s, ps, t, pt)?.distance).toBe(0);
    const m = C.manifold(s, ps, t, pt);
    expect(m).not.toBeNull();
    for (let i = 0; i < (m?.count ?? 0); i++) expect(m?.points[i].distance).toBe(0);
  }
}

describe("exact touch depth", () => {
  // Heightfield vertex (c, r) at (2c, −c − 2r, 2r): the plane x + 2y + 2z = 0; its mesh.
  const { field: hf, mesh } = planeField(6, 6, -1, -2, { x: 2, y: 1, z: 2 });
  const feet = [
    ["diagonal", [3, -4.5, 3]],
    ["vertex", [2, -3, 2]],
    ["inside", [3.5, -4.25, 2.5]],
  ] as const;
  const shapes = [
    ["sphere", C.makeSphere(3)],
    ["rounded box of zero extents", C.makeRoundedCuboid({ x: 0, y: 0, z: 0 }, 3)],
  ] as const;
  for (const [where, [x, y, z]] of feet)
    for (const [name, s] of shapes)
      it(`a ${name} touching a tilted heightfield and mesh at a ${where} is distance 0`, () => {
        const c = P(x + 1, y + 2, z + 2);
        expectTouch(hf, P(0, 0, 0), s, c);
        expectTouch(mesh, P(0, 0, 0), s, c);
      });

  const tri = C.makeTriangle({ x: 0, y: 4, z: -4 }, { x: 8, y: -4, z: 0 }, { x: -8, y: 0, z: 4 });
  const cap = C.makeCapsule({ x: -2, y: 2, z: -1 }, { x: 2, y: -2, z: 1 }, 3);
  for (const off of [0, 2 ** 30])
    it(`a capsule lying flat on a tilted triangle (offset ${off}) is distance 0`, () => {
      expectTouch(tri, P(off, off, off), cap, P(off + 1, off + 2, off + 2));
    });
});
