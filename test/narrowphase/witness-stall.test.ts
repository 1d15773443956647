/**
 * Witnesses along SAT's normal when GJK on the moved pair stalls (fuzz seed 17): a triangle of a
 * box mesh whose corner touches a box face (gap −7e-12, 2.4e-16 of the size). SAT's face normal
 * replaced EPA's; GJK on B moved past A by 2^-32 of the size stopped unproven, and the fallback
 * took B's support point along −n — a corner of the box's whole face, 1.7e4 from the triangle —
 * as both witnesses. The right witness: the triangle's corner c, on the box's face to rounding
 * (hand-checked in the box's frame, test/fuzz/composite-regressions.test.ts, "fuzz seed 17"), the
 * point that the 8 corners' hull and the lone triangle posed in world both give.
 */
import { describe, expect, it } from "vitest";
import { makeContact } from "../../src/narrowphase/contact.js";
import { contactConvexConvex, distanceConvexConvex } from "../../src/narrowphase/convex-convex.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeTriangle } from "../../src/shapes/triangle.js";

const v = (x: number, y: number, z: number) => ({ x, y, z });
const c = v(-3936.0037301808734, 9906.682640590145, -5331.275955778898);
const tri = makeTriangle(
  v(-3936.0037301808734, -9906.682640590145, -5331.275955778898),
  v(-3936.0037301808734, 9906.682640590145, 5331.275955778898),
  c,
);
const box = makeCuboid(v(4439.9719908774405, 16053.792876084119, 17969.01997979211));
// The box in the triangle's frame, as the mesh's part query posed it.
const pose = {
  translation: v(-12643.460992428068, 26148.981089764937, -8452.278224317572),
  rotation: v4(-0.2580435523857013, 0.6343515167810545, 0.7276862810119825, 0.03852732350804308),
};
function v4(x: number, y: number, z: number, w: number) {
  return { x, y, z, w };
}
const off = (p: { x: number; y: number; z: number }) => Math.hypot(p.x - c.x, p.y - c.y, p.z - c.z);
const tol = 1e-9 * Math.hypot(c.x, c.y, c.z);

describe("witnesses along SAT's normal after a stalled GJK", () => {
  it("contact: distance 0 at the triangle's corner", () => {
    const out = makeContact();
    expect(contactConvexConvex(out, tri, box, pose, 0)).toBe(true);
    expect(out.distance).toBe(0);
    expect(off(out.pointA)).toBeLessThanOrEqual(tol);
    expect(off(out.pointB)).toBeLessThanOrEqual(tol);
  });
  it("distance: 0 at the triangle's corner", () => {
    const out = { distance: -1, pointA: v(0, 0, 0), pointB: v(0, 0, 0) };
    distanceConvexConvex(out, tri, box, pose);
    expect(out.distance).toBe(0);
    expect(off(out.pointA)).toBeLessThanOrEqual(tol);
    expect(off(out.pointB)).toBeLessThanOrEqual(tol);
  });
});
