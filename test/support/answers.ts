/**
 * The JSON answers of `answerQuery` (src/io/query.ts) as the tests read them: the shapes of
 * FORMATS.md's `distance`, `contact` and `manifold` results. Vectors are `[x, y, z]` in world
 * coordinates; `distance` is in scene units, negative for a depth. One declaration for every test.
 */
export type Vec3Json = [number, number, number];

/** `distance`'s answer: the gap (0 when the shapes intersect) and a closest point on each shape. */
export interface DistanceJson {
  distance: number;
  pointA: Vec3Json;
  pointB: Vec3Json;
}

/** `contact`'s answer (non-null): the signed distance, the unit normal from A to B and the witnesses. */
export interface ContactJson {
  distance: number;
  normal: Vec3Json;
  pointA: Vec3Json;
  pointB: Vec3Json;
}

/** One point of a contact manifold: a witness on each shape and their signed distance along the normal. */
export interface ManifoldPointJson {
  pointA: Vec3Json;
  pointB: Vec3Json;
  distance: number;
}

/** `manifold`'s answer (non-null): the shared unit normal from A to B and up to four points. */
export interface ManifoldJson {
  normal: Vec3Json;
  points: ManifoldPointJson[];
}
