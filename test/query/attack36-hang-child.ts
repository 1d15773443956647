/**
 * Run by test/query/attack36-input.test.ts in a child process with a time limit (a loop that never
 * ends cannot be stopped inside the test's own thread): builds the inputs that once hung
 * `makeConvexPolyhedron` (its far-frame grid doubled to Infinity and then halved it forever) and
 * `makeFrustum`, and prints one JSON line per case with what the test checks.
 */
import {
  CollideError,
  distance,
  FrustumTest,
  frustumTestSphere,
  intersects,
  isometry,
  makeConvexPolyhedron,
  makeFrustum,
  makeSphere,
  projectPoint,
} from "../../src/index.js";
import { answerQuery } from "../../src/io/query.js";

function cube(s: number): number[] {
  const p: number[] = [];
  for (const x of [-1, 1])
    for (const y of [-1, 1]) for (const z of [-1, 1]) p.push(x * s, y * s, z * s);
  return p;
}

function run(name: string, f: () => Record<string, unknown>): void {
  let out: Record<string, unknown>;
  try {
    out = f();
  } catch (e) {
    out =
      e instanceof CollideError
        ? { error: e.message, field: e.field, value: e.value }
        : { crash: String(e) };
  }
  process.stdout.write(`${JSON.stringify({ name, ...out })}\n`);
}

const I = isometry.identity();
for (const s of [4.4e307, 4.5e307, 6e307, 8e307, 8.98e307]) {
  run(`tet ${s}`, () => {
    const h = makeConvexPolyhedron([-s, 0, 0, s, 0, 0, 0, s, 0, 0, 0, s]);
    return { vertices: Array.from(h.vertices), faces: h.faceCount };
  });
  run(`cube ${s}`, () => {
    const h = makeConvexPolyhedron(cube(s));
    return {
      vertices: h.vertexCount,
      faces: h.faceCount,
      offsets: Array.from(h.facePlaneOffsets),
      normals: Array.from(h.faceNormals),
      hitsUnitSphere: intersects(h, I, makeSphere(1), I),
      insideOrigin: projectPoint(h, I, { x: 0, y: 0, z: 0 }).inside,
      gapToSphere: distance(h, I, makeSphere(1), isometry.create({ x: 1.5 * s, y: 0, z: 0 }))
        .distance,
    };
  });
}
for (const far of [8e307, 1e308, 1.7e308]) {
  run(`frustum far ${far}`, () => {
    const f = makeFrustum({
      position: { x: 0, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
      fovY: 1,
      aspect: 1,
      near: 1,
      far,
    });
    return {
      near: frustumTestSphere(f, { x: 0, y: 0, z: -5 }, 1) === FrustumTest.Inside,
      deep: frustumTestSphere(f, { x: 0, y: 0, z: -1e307 }, 1) === FrustumTest.Inside,
      behind: frustumTestSphere(f, { x: 0, y: 0, z: 5 }, 1) === FrustumTest.Outside,
      hullVertices: f.hull.vertexCount,
    };
  });
}
// The report's command line: a cube of half-size 5e307 against a unit sphere at its centre.
run("command", () => {
  const points: number[][] = [];
  for (const x of [-1, 1])
    for (const y of [-1, 1])
      for (const z of [-1, 1]) points.push([x * 5e307, y * 5e307, z * 5e307]);
  return {
    answer: answerQuery({
      op: "intersects",
      a: { type: "convex", points },
      b: { type: "sphere", center: [0, 0, 0], radius: 1 },
    }),
  };
});
