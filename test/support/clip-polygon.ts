/**
 * Test support: building clip polygons vertex by vertex (src/geometry/clip.ts). The library's hot
 * paths write into `poly.xyz` straight (a double passed to a call V8 does not inline is boxed), so
 * this helper lives with the tests.
 */
import { type ClipPolygon, reserveClipPolygon } from "../../src/geometry/clip.js";

/** Appends vertex (x, y, z) with feature tag `tag` to `poly`, growing it if full. */
export function pushClipVertex(
  poly: ClipPolygon,
  x: number,
  y: number,
  z: number,
  tag: number,
): void {
  const i = poly.count;
  if (i >= poly.tags.length) reserveClipPolygon(poly, i + 1);
  const j = 3 * i;
  poly.xyz[j] = x;
  poly.xyz[j + 1] = y;
  poly.xyz[j + 2] = z;
  poly.tags[i] = tag;
  poly.count = i + 1;
}
