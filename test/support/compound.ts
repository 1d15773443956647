/** Compound JSON helpers for the tests (the `collide query` shape format). */
import { quatMul, rotateVec } from "./quat.js";

type J = Record<string, unknown>;

/**
 * The compound's first child as a bare shape JSON with its pose composed into the world frame
 * (centre = position + R·child position, rotation = R · child rotation · shape rotation): the
 * same shape as the child, for comparing a compound's answer with the bare pair's.
 */
export function childInWorld(compound: J): J {
  const child = (compound.children as J[])[0];
  const shape = child.shape as J;
  const R = compound.rotation as number[];
  const at = rotateVec(R, child.position as number[]);
  const P = compound.position as number[];
  const q = quatMul(quatMul(R, child.rotation as number[]), shape.rotation as number[]);
  return { ...shape, center: [P[0] + at[0], P[1] + at[1], P[2] + at[2]], rotation: q };
}
