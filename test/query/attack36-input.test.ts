/**
 * Session 36's fresh-user attack on the input handling: each fault fixed as a class, each refusal
 * a `CollideError` naming the field and the value it had, each answer checked against a
 * hand-derived value.
 *
 * 1. `makeConvexPolyhedron` of points spanning more than 2^1023 on an axis (a tetrahedron or cube
 *    of half-size 4.5e307..8.98e307) never returned: the far-frame grid of
 *    src/shapes/hull-frame.ts (`gridCentre`) doubled its step to Infinity and then halved it
 *    forever. The same hang reached `makeFrustum` with far 1e308 (its hull) and the command.
 *    Points are now refused from 2^1023 (MESH_COORDINATE_LIMIT) on, naming `points`; a frustum's
 *    far corner beyond it names `far`.
 * 2. `makeHeightfield` accepted a vertex (height × scale.y, (cols − 1)·scale.x, (rows − 1)·scale.z)
 *    at or beyond MESH_COORDINATE_LIMIT, which `makeTriangleMesh` refuses for the same triangles.
 * 3. A shape constructor's optional `field` given something else — `makeTriangleMesh(v, i,
 *    { solid: true })` (solid lost), `makeSphere(-1, { x: 1 })` ("[object Object] must be > 0"),
 *    `makeCapsule(a, b, r, { foo: 1 })` (accepted) — is refused naming `field` by every public
 *    `make…` shape constructor (src/errors.ts `checkFieldArg`).
 * 4. A glTF buffer view's `byteStride` below an accessor's element size (2 for a float VEC3) read
 *    each vertex from the next one's bytes: garbage coordinates. Refused naming
 *    `bufferViews[i].byteStride`, as is a stride outside glTF's 4..252 in steps of 4.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MESH_COORDINATE_LIMIT } from "../../src/constants.js";
import * as collide from "../../src/index.js";
import {
  aabbShape,
  distance,
  intersects,
  isometry,
  makeConvexPolyhedron,
  makeFrustum,
  makeHeightfield,
  makeSphere,
  makeTriangleMesh,
  projectPoint,
} from "../../src/index.js";
import { loadMeshFile } from "../../src/io/mesh-loaders.js";
import { answerQuery } from "../../src/io/query.js";
import { ROOT } from "../cli/run-cli.js";
import { refusal } from "../support/refusal.js";

const EPS = 2 ** -52;
const I = isometry.identity();

/** The cube's 8 corners ±s, packed. */
function cube(s: number): number[] {
  const p: number[] = [];
  for (const x of [-1, 1])
    for (const y of [-1, 1]) for (const z of [-1, 1]) p.push(x * s, y * s, z * s);
  return p;
}

describe("1. hulls and frustums whose span passes 2^1023: every loop ends", () => {
  // In a child process with a time limit: a loop that never ends would hang this thread.
  const child = spawnSync(
    process.execPath,
    [
      join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
      join(ROOT, "test/query/attack36-hang-child.ts"),
    ],
    { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
  );
  const lines = (child.stdout ?? "")
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown> & { name: string });
  const byName = new Map(lines.map((l) => [l.name, l]));
  const finished = child.status === 0 && child.signal === null;

  it("the child ran every case to the end within 60 s", () => {
    expect(child.stderr).toBe("");
    expect(finished).toBe(true);
    expect(lines.length).toBe(14);
  });

  it("tetrahedra ±s on x, s on y and z (s = 4.4e307..8.98e307): the four points, four faces", () => {
    for (const s of [4.4e307, 4.5e307, 6e307, 8e307, 8.98e307]) {
      const r = byName.get(`tet ${s}`);
      expect(r?.vertices).toEqual([-s, 0, 0, s, 0, 0, 0, s, 0, 0, 0, s]);
      expect(r?.faces).toBe(4);
    }
  });

  it("cubes of half-size s: 6 axis faces at offset s, the origin inside, gap 0.5·s − 1 to a unit sphere at 1.5·s", () => {
    for (const s of [4.4e307, 4.5e307, 6e307, 8e307, 8.98e307]) {
      const r = byName.get(`cube ${s}`) as Record<string, unknown>;
      expect(r.vertices).toBe(8);
      expect(r.faces).toBe(6);
      for (const d of r.offsets as number[])
        expect(Math.abs(d - s)).toBeLessThanOrEqual(8 * EPS * s);
      const n = r.normals as number[];
      for (let f = 0; f < 6; f++) {
        const len = Math.hypot(n[3 * f], n[3 * f + 1], n[3 * f + 2]);
        expect(Math.abs(len - 1)).toBeLessThanOrEqual(4 * EPS);
        // Axis-aligned: one component ±1, two zero.
        expect([n[3 * f], n[3 * f + 1], n[3 * f + 2]].filter((x) => x === 0).length).toBe(2);
      }
      expect(r.hitsUnitSphere).toBe(true);
      expect(r.insideOrigin).toBe(true);
      const gap = r.gapToSphere as number;
      expect(Math.abs(gap - (0.5 * s - 1))).toBeLessThanOrEqual(1e-9 * s);
    }
  });

  it("the report's command: a convex cube of half-size 5e307 intersects a unit sphere at its centre", () => {
    expect(byName.get("command")?.answer).toEqual({ intersects: true });
  });

  it("makeFrustum with far 8e307: the near sphere and one at depth 1e307 inside, one behind the eye outside", () => {
    const r = byName.get("frustum far 8e+307");
    expect(r).toMatchObject({ near: true, deep: true, behind: true });
  });

  it("makeFrustum with far 1e308 or 1.7e308 (a far corner beyond 2^1023): refused naming frustum.far", () => {
    for (const far of [1e308, 1.7e308]) {
      const r = byName.get(`frustum far ${far}`);
      expect(r?.field).toBe("frustum.far");
      expect(r?.value).toBe(far);
      expect(String(r?.error)).toContain("MESH_COORDINATE_LIMIT");
    }
  });

  it("in process: makeFrustum refuses a far face whose span overflows, naming far and its value", () => {
    if (!finished) throw new Error("the child did not finish: not run in this thread");
    const camera = {
      position: { x: 0, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
      fovY: 2,
      aspect: 1,
      near: 1,
      far: 1e308,
    };
    // tan(1)·5e307 = 7.8e307 per side, below 2^1023; tan(1)·6e307 = 9.3e307 beyond it.
    expect(makeFrustum({ ...camera, far: 5e307 }).hull.vertexCount).toBeGreaterThanOrEqual(5);
    const e = refusal(() => makeFrustum({ ...camera, far: 6e307 }, "camera"));
    expect(e.field).toBe("camera.far");
    expect(e.value).toBe(6e307);
    // A far position moves the corners past the largest double.
    const e2 = refusal(() =>
      makeFrustum({ ...camera, fovY: 1, far: 1e300, position: { x: 1.797e308, y: 0, z: 0 } }),
    );
    expect(e2.field).toBe("frustum.far");
  });

  it("every hull of 12..16 points with coordinates up to 2^1023 returns, holds its points and is made of them (fast-check)", () => {
    if (!finished) throw new Error("the child did not finish: not run in this thread");
    const unit = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(unit, unit, unit), { minLength: 8, maxLength: 12 }),
        fc.constantFrom(1e300, 4e307, 4.5e307, 6e307, 8.98e307),
        fc.constantFrom(0, 1e306, -4e306),
        (dirs, s, off) => {
          // A tetrahedron's corners first (never flat), then the random points: all in [−s, s]
          // about off, so each axis spans at most 2s ≤ 1.796e308 (finite); those reaching 2^1023
          // are refused (tested below).
          const unitPts = [[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1], ...dirs];
          const pts = unitPts.flatMap((d) => d.map((x) => x * s + off));
          if (!pts.every((x) => Number.isFinite(x))) return;
          let lo = Infinity;
          let hi = -Infinity;
          for (const x of pts) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
          }
          if (!(Math.max(Math.abs(lo), Math.abs(hi)) < 2 ** 1023)) {
            expect(refusal(() => makeConvexPolyhedron(pts)).field).toBe("points");
            return;
          }
          const h = makeConvexPolyhedron(pts);
          // The corners are input points.
          const given = new Set<string>();
          for (let i = 0; i < pts.length; i += 3)
            given.add(`${pts[i]},${pts[i + 1]},${pts[i + 2]}`);
          for (let i = 0; i < h.vertices.length; i += 3) {
            expect(given.has(`${h.vertices[i]},${h.vertices[i + 1]},${h.vertices[i + 2]}`)).toBe(
              true,
            );
          }
          // Every input point lies inside every face plane, within the hull's tolerance (1e-10 of
          // the extent, HULL_FLAT_FACTOR 4) and the planes' rounding.
          const big = Math.max(Math.abs(lo), Math.abs(hi));
          const tol = 4e-9 * (hi - lo) + 64 * EPS * big;
          for (let f = 0; f < h.faceCount; f++) {
            const n = h.faceNormals;
            for (let i = 0; i < pts.length; i += 3) {
              const d = n[3 * f] * pts[i] + n[3 * f + 1] * pts[i + 1] + n[3 * f + 2] * pts[i + 2];
              expect(d - h.facePlaneOffsets[f]).toBeLessThanOrEqual(tol);
            }
          }
          // The queries end too, and answer: the tetrahedron's centre (off, off, off) lies s/3
          // inside; a point 1.5·s out on x lies between 0.5·s and 1.5·s (its distance to the
          // corner (1, 1, 1)·s) from the hull.
          const c = { x: off, y: off, z: off };
          expect(intersects(h, I, makeSphere(1), isometry.create(c))).toBe(true);
          expect(distance(h, I, makeSphere(1), isometry.create(c)).distance).toBe(0);
          if (s <= 6e307) {
            const q = projectPoint(h, I, { x: off + 1.5 * s, y: off, z: off });
            expect(q.inside).toBe(false);
            expect(q.distance).toBeGreaterThanOrEqual(0.5 * s * (1 - 1e-9));
            expect(q.distance).toBeLessThanOrEqual(1.5 * s * (1 + 1e-9));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a coordinate at or beyond 2^1023 (once an infinite face plane offset) is refused naming points", () => {
    const a = 1.7e308;
    const b = 1.79e308;
    const pts = [a, a, a, b, a, a, a, b, a, a, a, b];
    const e = refusal(() => makeConvexPolyhedron(pts));
    expect(e.field).toBe("points");
    expect(e.value).toEqual(pts);
    expect(e.message).toContain("MESH_COORDINATE_LIMIT");
    // −8.98e307 and 4e307 on the diagonal: n·p of the face through them was −Infinity.
    const c = [-8.98e307, -8.98e307, -8.98e307, 4e307, 0, 0, 0, 4e307, 0, 0, 0, 4e307];
    const h = makeConvexPolyhedron(c);
    for (const d of h.facePlaneOffsets) expect(Number.isFinite(d)).toBe(true);
    expect(
      refusal(() => makeConvexPolyhedron([2 ** 1023, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1])).field,
    ).toBe("points");
  });

  it("spans that overflow stay refused clearly, naming points", () => {
    const e = refusal(() => makeConvexPolyhedron(cube(9e307)));
    expect(e.field).toBe("points");
    expect(e.message).toContain("overflows double precision");
  });
});

describe("2. heightfield vertices below MESH_COORDINATE_LIMIT, as a mesh's", () => {
  const L = 2 ** 1023;

  it("the limit is the mesh's", () => {
    expect(MESH_COORDINATE_LIMIT).toBe(L);
    // The same triangles as a mesh: refused at the same vertex.
    expect(
      refusal(() => makeTriangleMesh([0, 0, 0, 1, 1e308, 0, 0, 0, 1], [0, 1, 2])).field,
    ).toMatch(/^vertices\[/);
  });

  it("the report's field: height 1 × scale.y 1e308 refused naming scale.y and its value", () => {
    const e = refusal(() =>
      makeHeightfield({ rows: 2, cols: 2, heights: [0, 1, 0, 0], scale: { x: 1, y: 1e308, z: 1 } }),
    );
    expect(e.field).toBe("scale.y");
    expect(e.value).toBe(1e308);
    expect(e.message).toContain("MESH_COORDINATE_LIMIT");
  });

  it("a height beyond ±1 carried past the limit is named: heights[i] and its value", () => {
    const e = refusal(() =>
      makeHeightfield({
        rows: 2,
        cols: 2,
        heights: [0, 0, 0, -1e300],
        scale: { x: 1, y: 1e8, z: 1 },
      }),
    );
    expect(e.field).toBe("heights[3]");
    expect(e.value).toBe(-1e300);
  });

  it("(cols − 1)·scale.x and (rows − 1)·scale.z at the limit: scale.x, scale.z", () => {
    const base = { rows: 3, cols: 3, heights: new Float64Array(9) };
    // 2 · 2^1022 = 2^1023 exactly: at the limit, refused; the next double down is accepted.
    const e = refusal(() => makeHeightfield({ ...base, scale: { x: 2 ** 1022, y: 1, z: 1 } }));
    expect(e.field).toBe("scale.x");
    expect(e.value).toBe(2 ** 1022);
    const ez = refusal(() =>
      makeHeightfield({ ...base, scale: { x: 1, y: 1, z: 2 ** 1022 } }, "terrain"),
    );
    expect(ez.field).toBe("terrain.scale.z");
    const below = 2 ** 1022 * (1 - 2 ** -53);
    const hf = makeHeightfield({ ...base, scale: { x: below, y: 1, z: below } });
    const box = aabbShape({ min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } }, hf, I);
    expect(box.max.x).toBe(2 * below);
    expect(box.max.z).toBe(2 * below);
  });

  it("the command names the line's field", () => {
    const e = refusal(() =>
      answerQuery({
        op: "raycast",
        shape: {
          type: "heightfield",
          rows: 2,
          cols: 2,
          heights: [0, 1, 0, 0],
          scale: [1, 1e308, 1],
        },
        origin: [0.5, 10, 0.5],
        direction: [0, -1, 0],
      }),
    );
    expect(e.field).toBe("shape.scale.y");
    expect(e.value).toBe(1e308);
  });

  it("accepted iff every vertex coordinate is below 2^1023; an accepted field's box is finite and holds its corner (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 2, max: 4 }),
        fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: 16, maxLength: 16 }),
        fc.constantFrom(1, 1e300, 2e307, 4.4e307, 8.9e307, 1e308),
        fc.constantFrom(1, 1e300, 2e307, 4.4e307, 8.9e307, 1e308),
        fc.constantFrom(1, 3e307, 4.5e307, 1e308),
        (rows, cols, hs, sy, sx, sz) => {
          const heights = hs.slice(0, rows * cols);
          const desc = { rows, cols, heights, scale: { x: sx, y: sy, z: sz } };
          // Oracle: the vertices' coordinates, by definition.
          let ok = (cols - 1) * sx < L && (rows - 1) * sz < L;
          for (const h of heights) ok &&= Math.abs(h * sy) < L;
          if (!ok) {
            const e = refusal(() => makeHeightfield(desc));
            expect(e.field).toMatch(/^(scale\.[xyz]|heights\[\d+\])$/);
            return;
          }
          const hf = makeHeightfield(desc);
          const box = aabbShape({ min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } }, hf, I);
          for (const v of [box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z])
            expect(Number.isFinite(v)).toBe(true);
          const y0 = heights[0] * sy;
          expect(box.min.y <= y0 && y0 <= box.max.y).toBe(true);
          expect(box.max.x).toBeGreaterThanOrEqual((cols - 1) * sx);
          expect(box.max.z).toBeGreaterThanOrEqual((rows - 1) * sz);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("3. every public shape constructor refuses a field that is not a string, naming field", () => {
  const v = { x: 0, y: 0, z: 0 };
  const u = { x: 1, y: 0, z: 0 };
  const w = { x: 0, y: 1, z: 0 };
  const tet = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
  const cam = {
    position: v,
    rotation: { x: 0, y: 0, z: 0, w: 1 },
    fovY: 1,
    aspect: 1,
    near: 1,
    far: 2,
  };
  const m16 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const d2 = collide.dim2;
  const p2 = [
    { x: 0, y: 0 },
    { x: 1, y: 0 },
    { x: 0, y: 1 },
  ];
  // Each constructor with valid arguments and `f` in the field's place.
  // biome-ignore lint/suspicious/noExplicitAny: the wrong argument is the point.
  type F = any;
  const TABLE: Record<string, (f: F) => unknown> = {
    makeSphere: (f) => collide.makeSphere(1, f),
    makeCuboid: (f) => collide.makeCuboid(u, f),
    makeCuboidFromMinMax: (f) => collide.makeCuboidFromMinMax(v, u, f),
    makeCapsule: (f) => collide.makeCapsule(v, u, 1, f),
    makeCylinder: (f) => collide.makeCylinder(1, 1, f),
    makeCone: (f) => collide.makeCone(1, 1, f),
    makeTriangle: (f) => collide.makeTriangle(v, u, w, f),
    makeHalfSpace: (f) => collide.makeHalfSpace(w, 0, f),
    makeConvexPolyhedron: (f) => collide.makeConvexPolyhedron(tet, f),
    makeRoundedCuboid: (f) => collide.makeRoundedCuboid(u, 0.5, f),
    makeRoundedConvexPolyhedron: (f) => collide.makeRoundedConvexPolyhedron(tet, 0.5, f),
    makeCompound: (f) => collide.makeCompound([{ shape: collide.makeSphere(1), pose: I }], f),
    makeTriangleMesh: (f) => collide.makeTriangleMesh(tet, [0, 1, 2], f),
    makeHeightfield: (f) =>
      collide.makeHeightfield(
        { rows: 2, cols: 2, heights: [0, 0, 0, 0], scale: { x: 1, y: 1, z: 1 } },
        f,
      ),
    makeFrustum: (f) => collide.makeFrustum(cam, f),
    makeFrustumFromMatrix: (f) => collide.makeFrustumFromMatrix(m16, f),
    "dim2.makeCircle": (f) => d2.makeCircle(1, f),
    "dim2.makeRect": (f) => d2.makeRect({ x: 1, y: 1 }, f),
    "dim2.makePolygon": (f) => d2.makePolygon(p2, f),
    "dim2.makeCapsule": (f) => d2.makeCapsule(p2[0], p2[1], 1, f),
    "dim2.makeSegment": (f) => d2.makeSegment(p2[0], p2[1], f),
  };
  /** The `make…` exports that take no field: result records, tools. */
  const NO_FIELD = new Set([
    "makeBoundingSphere",
    "makeBroadPhase",
    "makeContact",
    "makeContactManifold",
    "makeDistanceResult",
    "makeObb",
    "makeRandom",
    "makeRayHit",
    "makeWorldContact",
    "makeWorldImpact",
    "makeWorldShapeCastHit",
    "dim2.makeContact2",
    "dim2.makeGjkOutput2",
    "dim2.makeManifold2",
    "dim2.makePointProjection2",
    "dim2.makeRayHit2",
    "dim2.makeWorldContact2D",
  ]);

  it("the table holds every make… export of the main entry and dim2 that takes a field", () => {
    const names = [
      ...Object.keys(collide).filter((k) => k.startsWith("make")),
      ...Object.keys(d2)
        .filter((k) => k.startsWith("make"))
        .map((k) => `dim2.${k}`),
    ];
    for (const n of names) expect(n in TABLE || NO_FIELD.has(n), n).toBe(true);
  });

  it.each(Object.keys(TABLE))(
    "%s: valid with a string field; an object, a number, null in its place refused naming field",
    (name) => {
      const make = TABLE[name];
      expect(() => make("shape")).not.toThrow();
      expect(() => make(undefined)).not.toThrow();
      for (const bad of [{ solid: true }, { x: 1 }, 7, null, true]) {
        const e = refusal(() => make(bad));
        expect(e.code).toBe("invalid_value");
        expect(e.field).toBe("field");
        expect(e.value).toBe(bad);
        expect(e.message).toContain(`of ${name.replace("dim2.", "")} must be a string`);
        expect(e.message).not.toContain("[object Object]");
      }
    },
  );

  it("the report's calls", () => {
    const verts = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    // biome-ignore lint/suspicious/noExplicitAny: the wrong argument is the point.
    const e1 = refusal(() => collide.makeTriangleMesh(verts, [0, 1, 2], { solid: true } as any));
    expect(e1.field).toBe("field");
    expect(e1.message).toContain("the options go fourth");
    // biome-ignore lint/suspicious/noExplicitAny: the wrong argument is the point.
    const e2 = refusal(() => collide.makeSphere(-1, { x: 1 } as any));
    expect(e2.field).toBe("field");
    expect(e2.value).toEqual({ x: 1 });
    // biome-ignore lint/suspicious/noExplicitAny: the wrong argument is the point.
    const e3 = refusal(() => collide.makeCapsule(v, u, 1, { foo: 1 } as any));
    expect(e3.field).toBe("field");
    // The positional heightfield keeps its own message.
    // biome-ignore lint/suspicious/noExplicitAny: the wrong argument is the point.
    const e4 = refusal(() => (collide.makeHeightfield as any)(3, 3, [0]));
    expect(e4.field).toBe("heightfield");
  });
});

describe("4. glTF bufferView.byteStride checked against glTF's range and the accessor's element", () => {
  const dir = mkdtempSync(join(tmpdir(), "collide-attack36-"));
  // The triangle's corners, as float32 (exact: small integers and halves).
  const corners = [
    [0, 0, 0],
    [1, 0, 0.5],
    [0, 2, -1],
  ];

  /** A glTF file of one triangle, its positions written `stride` bytes apart (padding 7s). */
  function gltf(name: string, stride: number | undefined, writeStride = stride ?? 12): string {
    const bytes = new Uint8Array(writeStride * 2 + 12);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < bytes.length; i += 4) view.setFloat32(i, 7, true);
    corners.forEach((c, k) => {
      for (let j = 0; j < 3; j++) view.setFloat32(k * writeStride + 4 * j, c[j], true);
    });
    const json = {
      asset: { version: "2.0" },
      scenes: [{ nodes: [0] }],
      scene: 0,
      nodes: [{ mesh: 0 }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      buffers: [
        {
          byteLength: bytes.length,
          uri: `data:application/octet-stream;base64,${Buffer.from(bytes).toString("base64")}`,
        },
      ],
      bufferViews: [
        {
          buffer: 0,
          byteLength: bytes.length,
          ...(stride === undefined ? {} : { byteStride: stride }),
        },
      ],
      accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: "VEC3" }],
    };
    const path = join(dir, `${name}.gltf`);
    writeFileSync(path, JSON.stringify(json));
    return path;
  }

  it("the report's file: byteStride 2 under a float VEC3, refused naming bufferViews[0].byteStride and 2", async () => {
    const path = join(dir, "g3.gltf");
    writeFileSync(
      path,
      JSON.stringify({
        asset: { version: "2.0" },
        scenes: [{ nodes: [0] }],
        scene: 0,
        nodes: [{ mesh: 0 }],
        meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
        buffers: [
          {
            byteLength: 36,
            uri: "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA",
          },
        ],
        bufferViews: [{ buffer: 0, byteLength: 36, byteStride: 2 }],
        accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: "VEC3" }],
      }),
    );
    const e = await loadMeshFile(path).then(
      () => {
        throw new Error("no error");
      },
      (x: unknown) => x as { field: string; value: unknown; message: string },
    );
    expect(e).toBeInstanceOf(collide.CollideError);
    expect(e.field).toBe("file:bufferViews[0].byteStride");
    expect(e.value).toBe(2);
  });

  it.each([
    [2, "must be a multiple of 4 from 4 to 252"],
    [6, "must be a multiple of 4 from 4 to 252"],
    [256, "must be a multiple of 4 from 4 to 252"],
    [0, "must be a multiple of 4 from 4 to 252"],
    [8, "is less than the size of an element of accessors[0] (12 bytes)"],
    [4, "is less than the size of an element of accessors[0] (12 bytes)"],
  ])("byteStride %d refused: %s", async (stride, why) => {
    const path = gltf(`s${stride}`, stride, Math.max(stride, 12));
    const e = (await loadMeshFile(path).then(
      () => new Error("no error"),
      (x: unknown) => x,
    )) as collide.CollideError;
    expect(e).toBeInstanceOf(collide.CollideError);
    expect(e.field).toBe("file:bufferViews[0].byteStride");
    expect(e.value).toBe(stride);
    expect(e.message).toContain(why);
  });

  it.each([[undefined], [12], [16], [28], [252]])(
    "byteStride %s (none, tight, or padded): the corners as written",
    async (stride) => {
      const m = await loadMeshFile(gltf(`ok${stride}`, stride));
      expect(Array.from(m.vertices)).toEqual(corners.flat());
      expect(Array.from(m.indices)).toEqual([0, 1, 2]);
    },
  );
});
