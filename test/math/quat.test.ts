/** quat.fromAxisAngle is out-first like the rest of the module (fresh-user finding, session 2). */
import { describe, expect, it } from "vitest";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";

describe("quat.fromAxisAngle", () => {
  it("writes the rotation into out and returns out: a quarter turn about z maps x to y", () => {
    const out = quat.create(9, 9, 9, 9);
    const q = quat.fromAxisAngle(out, { x: 0, y: 0, z: 1 }, Math.PI / 2);
    expect(q).toBe(out);
    expect(q.x).toBe(0);
    expect(q.y).toBe(0);
    expect(q.z).toBeCloseTo(Math.SQRT1_2, 15);
    expect(q.w).toBeCloseTo(Math.SQRT1_2, 15);
    const v = quat.rotate(vec3.create(), q, vec3.create(1, 0, 0));
    expect(v.x).toBeCloseTo(0, 15);
    expect(v.y).toBeCloseTo(1, 15);
    expect(v.z).toBe(0);
  });
});
