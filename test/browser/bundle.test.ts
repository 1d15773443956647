/**
 * The entries bundle for browsers (issue 14, item 5): small apps are bundled from src/index.ts
 * (`collide`) and src/core.ts (`collide/core`) with esbuild `--platform=browser --minify` and
 * must (1) resolve without any `node:` module or Node-only dependency (the loaders, the bunny and
 * @gltf-transform live behind `collide/node`), (2) stay small for a sphere–box `intersects` app
 * on `collide/core`, which registers only the sphere–box routines (its size is printed and
 * quoted in the README), while the table of `collide/core` holds nothing the app did not
 * register, and (3) run: a full world app is loaded into Debian's Chromium (playwright-core,
 * headless) and its answers must equal the hand-derived contact and, bit for bit, the same
 * bundle's answers under Node.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build, type Metafile } from "esbuild";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const CHROMIUM = "/usr/bin/chromium";

/**
 * Ceiling on the minified sphere–box `intersects` app on `collide/core`, bytes (the aim was
 * 15 kB). Its pair table holds only the sphere–box routines and it loads only the sphere's and
 * the cuboid's definitions (each constructor's module loads its own record; checked below), and
 * not their deferred operations (ray casts, point projections, manifold features:
 * src/shapes/defs/*-ops.ts, loaded by the queries that use them): 14.4 kB measured on
 * 2026-12-02 (95.0 kB when every definition loaded at once, 18.9–19.1 kB with the operations in
 * the records); 15.4 kB on 2026-12-03 after registerPair's checks of its type ids and routine
 * keys (a type id of 99 wrote past the table), the writeMargin tag and the guard's range-check
 * hook (the check itself, naming the largest input, stays out of core: src/query/guard-range.ts),
 * and 15.5 kB with registerPair refusing non-integer ids; 16.07 kB on 2026-12-04 with the pair
 * table's rescale of a solid mesh whose box alone is far from unit scale (a type test and the
 * mesh's box in `rescaleOf`; a hook installed by the mesh's module would keep it out of core):
 * 16.51 kB on 2026-12-04 with the shape makers refusing an unknown key of a plain vector
 * (`halfExtents.w`, src/shapes/validate.ts); 16.63 kB in session 20 with a quaternion within the
 * unit tolerance normalised before use (frames.ts) and vec3's normalisation written without a
 * boxed double (branch s20-alloc); 17.09 kB after the session-22 merges (the shape records'
 * `writeBoundingRadius` and `vec3.length`/`distance` answering a zero vector inline, both so
 * that no double is boxed in the curved worlds' step; handles read through the body ids);
 * 17.36 kB in session 23 with the pair queries' far-triangle frame hook (src/shapes/far-frame.ts:
 * the frame itself loads with the triangle, 1.4 kB kept out of core); 18.43 kB in session 25 with
 * the same-type pairs' order at a symmetric pose chosen from the composites' data
 * (`sameTypeSwapped`, src/narrowphase/canonical-order.ts, reached from touching.ts); 18.77 kB
 * in session 28 with the pair table's change of units for triangle pairs and its contact error
 * register brought back to scene units (pair-table.ts, extreme-scale.ts); 19.81 kB after the
 * session-37 merges (every constructor's coordinate limit, `checkShapeExtent` in
 * shapes/validate.ts, and the options check refusing inherited options, errors.ts); 19.92 kB in
 * session 38 with a made shape written in messages as its JSON form, its kind by name
 * (src/shapes/shape.ts's `shapeMessageForm`, errors.ts); 20.05 kB with a 2D shape refused by the
 * 3D checks and a 3D one by the 2D checks (src/shapes/dimension.ts: the sets `brandShape` and the
 * 2D constructors fill, read on the unmarked path); 20.98 kB in session 44 with same-type pairs
 * at a symmetric relative pose ordered by the shapes' defining data, then their world poses
 * (`shapeDataOrder`, `poseOrder` in src/narrowphase/canonical-order.ts, reached from touching.ts:
 * both argument orders solve one input); 19.66 kB in session 45 with each shape definition
 * comparing its own data (`ShapeDef.dataOrder`, src/shapes/data-order.ts) in place of a generic
 * lookup of named fields: the ceiling is 21.1 kB (the 15 kB aim is missed by 4.7 kB).
 */
const SPHERE_BOX_APP_MAX_BYTES = 21_100;

/**
 * Ceiling on the same app on the main entry, bytes: it registers every pair routine when it
 * loads (src/narrowphase/dispatch.ts) and every shape definition, so the app holds them all
 * (measured 164.1 kB on 2026-12-02; 170.1–170.3 kB after that day's merges: the cancellation-free
 * ball–box volume, the options checks of every public function, the face-normal snap; 183.7 kB
 * after the two-tree composite traversal, the heightfield's tree, the parallel-axis
 * cylinder–cylinder closed form and the curved witness snap; 197.3 kB on 2026-12-03 after the
 * shape capabilities, GJK's separation test, the rescaled ray casts and the allocation-free mesh
 * pairs; 207.4 kB after overlapVolume for every pair (the union octree, half-space closed forms)
 * and the rounded shapes' exact ray casts; 219.7 kB with the triangle–polytope pair routine, SAT
 * and closest features of a triangle against a box, a triangle or a hull, issue 16; 224.9 kB
 * with the triangle projection at any scale; with half-space × compound in the
 * compound's frame, the degenerate triangles' closest features and the normal refinement's
 * sliding supports: 229.2 kB; 238.0 kB on 2026-12-04 with the small shape's frame in
 * convex-convex, the hull's hill-climbing support, half-space × mesh and × heightfield in the
 * composite's frame, the solid meshes' scaled copies and the world's static queries job;
 * 243.1 kB in session 19 (branch s19-solid) with a solid mesh's crossing contact — the sphere's
 * signed distance, the convex solid's hull — projectPoint's tie rule and Math.hypot's
 * allocation-free twins); 247.7 kB with the curved pairs' witness polish (alternating exact
 * projections), the exact polytope axis of EPA's answer face and the radix-sorted static BVH;
 * 249.8 kB in session 20 (branch s20-epa) with EPA's octahedron start for deeply overlapping
 * polytopes, their inner balls and the hull support's scan over vertex pairs; 253.7 kB after the
 * session-20 merges (accepted quaternions normalised at every query's entry, the curved kernels'
 * arithmetic written out so that no double is boxed, the one alternating-projection routine);
 * 258.0 kB after the session-21 merges (rim against rim by Newton, a polytope's face normals and
 * edge circles against a curved shape, SAT for polytopes touching within EPA's floor, the
 * certified-gap and off-shape witness mends, the cast's separating-start probe, the static BVH's
 * warm-up); 264.9 kB after the session-22 merges (the exact polytope gap from supporting
 * features, the far triangle's cast frame, the SAT gap's clipped feature witnesses, the curved
 * step's io slots, the world's body ids and spatial slot order, the grid's grouped first build);
 * 277.9 kB after the session-23 merges (the hull support's settled lookup cells, the pair
 * queries' far-triangle frame, the frustum tests' argument checks, the witness seating and
 * polytope feature-gap mends, the exact orientation predicates certifying a shared point, the
 * rounded manifold points' exits, the triangle gap's normal by separation, the curved margin
 * polish, SAT checking small polytope depths); 286.6 kB after the session-24 merges (witnesses
 * facing each other across the normal, a curved pair's flat-feature separation and normal, edge
 * searches of the touch polish, the box–box gap polish, the half-space cast's rebased plane and
 * unbounded horizon, the 2D canonical order and rounded manifold exits); 301.9 kB after the
 * session-25 merges (the witnesses' normal refinement and flat-core projections, triangles
 * against rounded shapes on their cores, the exact triangle–triangle touch, the crossing solid
 * meshes' bound, the capsule's core-touch solve, the tilted half-space's local frame); 314.0 kB
 * after the session-26 merges (the glTF node forest read from the JSON, the far ray origin's
 * exact advance, hulls built in a frame at their centre, the near-flat hull's corner rules, the
 * mesh manifold's re-paired points, coplanar solid meshes, the capsule pairs' candidate normals,
 * the face witnesses' own vector helpers, the point-feature polish starts); 322.7 kB after the
 * session-27 merges (EPA's least overlap and the rim fans at its cap, the rounded facing
 * witnesses' gap normal, sliver hull faces projected as polygons, glTF shear and zero-scale
 * nodes, the solid meshes' certified error bound, the ray cast's rescaled direction, the mesh
 * coordinate limit, the curved kinds' own vector helpers); 333.5 kB after the session-28 merges
 * (sphere–hull by the centre's exact closest point, capsule–box and –hull by the segment's
 * features, the manifold's facing re-pairs, the triangle's supporting-feature witnesses, scaled
 * copies of hulls and rounded shapes, the internal-edge touch by the pair's exact distance); 342.9 kB
 * after the session-29 merges (a corner's exact nearest points on a cylinder or cone, the
 * generator against a rounded core's segment features, the feature-pair and tied-edge facing
 * witnesses, GJK's proof of apart before a capsule's separating axis test, the triangle's
 * surface ray cast); 350.8 kB after the session-30 merges (the polytope's rim contact, the
 * rounded core against a solid, the one exact ray–triangle test, feature-pair normals); 358.7 kB
 * after the session-31 merges (the 2D exact touching and closed-form vertex–edge distances with
 * their registers, the rectangle's exact corners, the 2D cast in the pair's frame, triangles in
 * the rim contact, the curved rims' multi-start search, the sphere against rounded boxes and
 * hulls on their cores, `prepareWorld`); 372.0 kB after the session-33 merges (the kink circle's
 * certified minimum, the half-spaces' Newton steps, the rotating cast's axis bound, the meshes'
 * welded adjacency, the manifold keeping the contact's pair, the tied corner–edge normals, the
 * ray casts' registers); 379.9 kB after the session-34 merges (slivers' exact normals and edges in
 * the closest point on a triangle, the capsule–point-triangle closed form, the tied edge pairs,
 * the certified tied candidates of the polytope gap, the flat revolution features' facing
 * witnesses, the boxes' near-touching closest pair); 387.6 kB after the session-35 merges (the
 * checked public mesh helpers, the rims' crossings in the flat revolution witnesses, the clip's
 * anchored side planes, the rims' critical point in the gap's polish, the capsule against needle
 * triangles and rounded cores, the corner–edge gap normal, the keyed part order); 399.3 kB after
 * the session-37 merges (the constructors' coordinate limit, the rescaled ray–ball and ray–cone
 * roots, the sphere–sphere volume without cancellation and its error bound, the frustum's
 * thinness refusal and power-of-two matrix scaling, the inherited-options check, the seed-87
 * triangle witnesses, the segment's nearer-end point); 405.3 kB after the session-38 merges (the
 * capsule's exact features on thin slivers, composites rescaled out of the unit range — the
 * internal-edge rule, active edges, the surface manifold —, the thin triangles' exact closest
 * point and the meshes' exact winding, the box's deepest point in the reference face's prism,
 * shapes named by kind in messages, the cross-dimension refusals, the checked supportShape and
 * out records); 408.9 kB after the session-39 merges (the overlap volume's closed form for a shape
 * inside the other, the cast's flat-pair normal orientation, the far hull projection, the box SAT's
 * direct edge radius and facing re-runs, the triangle's face point by projection, the convex
 * solid mesh as its hull against surfaces); 415.0 kB after the session-40 merges (the far
 * point's exact nearest feature, the sliced overlap volume of a curved shape and a polytope, the
 * non-convex solid's depth bracket, the composite cast's skipped parts, the out-record checks and
 * exact bounding-sphere cover); 423.8 kB after the session-41 merges (the chord-sliced overlap
 * volume of two curved solids, the exact far projection of cylinders, cones and merged hull faces,
 * the non-convex solid's plane pushes and lower-bound ascent, the segment–edge tie, the composite
 * pairs' frame choice near the overflow); 425.3 kB after the session-42 merges; 427.5 kB after the
 * session-43 merges (the flat boxes' deepest point in the reference prism, the far shapes' centred
 * frame and the far ties among the nearest triangles decided exactly); 435.7 kB after the
 * session-44 merges (the exact touch of a rounded point on a tilted face and of a 2D rounded core
 * on an edge in error-free expansions, a far solid mesh's or hull's overlap volume in its centred
 * copy, a compound's far ties decided exactly and the heightfield's far cell pass, the same-type
 * pairs' data and pose order); 440.8 kB after the session-45 merges (a rounded point's exact touch
 * at a tilted face's edge or corner in error-free expansions, the touching contacts' depths
 * decided exactly): the ceiling is 445 kB.
 */
const SPHERE_BOX_MAIN_APP_MAX_BYTES = 445_000;

const SPHERE_BOX_APP = `
import {
  CollideError, intersects, intersectsSphereCuboid, intersectsSphereCuboidPoses,
  makeCuboid, makeSphere, registerPair, ShapeType,
} from "./src/core.ts";
registerPair(ShapeType.Sphere, ShapeType.Cuboid, {
  intersects: intersectsSphereCuboid,
  intersectsPoses: intersectsSphereCuboidPoses,
});
const q = { x: 0, y: 0, z: 0, w: 1 };
const s = makeSphere(1);
const b = makeCuboid({ x: 1, y: 1, z: 1 });
const at = (x) => ({ translation: { x, y: 0, z: 0 }, rotation: q });
const answers = [
  intersects(s, at(2), b, at(0)),
  intersects(s, at(2.5), b, at(0)),
  intersects(b, at(0), s, at(1.5)),
  // Far from unit scale: the world-pose routine declines, the A-frame routine answers.
  intersects(makeSphere(1e-200), at(0), makeCuboid({ x: 1e-200, y: 1e-200, z: 1e-200 }), at(1.5e-200)),
];
// Not registered: another pair.
try {
  answers.push(intersects(s, at(0), s, at(1)));
} catch (e) {
  answers.push(e instanceof CollideError ? e.code : String(e));
}
globalThis.__collide = answers;
`;

const SPHERE_BOX_MAIN_APP = `
import { intersects, makeCuboid, makeSphere } from "./src/index.ts";
const q = { x: 0, y: 0, z: 0, w: 1 };
const at = (x) => ({ translation: { x, y: 0, z: 0 }, rotation: q });
globalThis.__collide = [
  intersects(makeSphere(1), at(2), makeCuboid({ x: 1, y: 1, z: 1 }), at(0)),
  intersects(makeSphere(1), at(2.5), makeCuboid({ x: 1, y: 1, z: 1 }), at(0)),
];
`;

/** A world with a floor, a ball 0.1 into it and a mesh ramp: contacts, a ray, an event. */
const WORLD_APP = `
import {
  CollisionWorld, contact, isometry, makeCuboid, makeSphere, makeTriangleMesh, quat, raycast,
} from "./src/index.ts";
const world = new CollisionWorld({ broadphase: "tree" });
const floor = world.addBody({
  shape: makeCuboid({ x: 10, y: 0.5, z: 10 }),
  pose: { translation: { x: 0, y: -0.5, z: 0 }, rotation: quat.identity() },
});
const ball = world.addBody({ shape: makeSphere(0.5), pose: isometry.create({ x: 0, y: 0.4, z: 0 }) });
const ramp = makeTriangleMesh([0, 0, 0, 4, 0, 0, 0, 0, 4, 4, 0, 4], [0, 2, 1, 1, 2, 3]);
world.addBody({ shape: ramp, pose: isometry.create({ x: 20, y: 0, z: 0 }) });
world.step();
const out = [];
for (const c of world.contacts()) {
  out.push([c.a === floor, c.b === ball, c.distance, c.manifold.normal.x, c.manifold.normal.y, c.manifold.normal.z]);
}
world.setPose(ball, isometry.create({ x: 0, y: 2, z: 0 }));
world.step();
out.push(world.events().end.count);
const hit = raycast(ramp, isometry.create({ x: 20, y: 0, z: 0 }), { x: 21, y: 5, z: 1 }, { x: 0, y: -1, z: 0 }, 10);
out.push(hit === null ? null : [hit.toi, hit.normal.y]);
const c = contact(makeSphere(1), isometry.create({ x: 0, y: 0, z: 0 }), makeSphere(1), isometry.create({ x: 1.5, y: 0, z: 0 }), 0);
out.push(c === null ? null : [c.distance, c.normal.x]);
globalThis.__collide = out;
`;

interface Bundle {
  code: string;
  metafile: Metafile;
}

async function bundle(source: string): Promise<Bundle> {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: "ts", sourcefile: "app.ts" },
    bundle: true,
    platform: "browser",
    format: "esm",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return { code: result.outputFiles[0].text, metafile: result.metafile };
}

/** Inputs of a bundle that are Node-only: `node:` builtins and the Node-only dependencies. */
function nodeOnlyInputs(m: Metafile): string[] {
  return Object.keys(m.inputs).filter(
    (p) =>
      p.startsWith("node:") ||
      p.includes("node_modules/@gltf-transform") ||
      p.includes("node_modules/bunny") ||
      p.includes("src/io/") ||
      p.includes("src/models/"),
  );
}

/** The modules that put code into a bundle's output (a module that was shaken off puts none). */
function bundledModules(m: Metafile): string[] {
  const out = Object.values(m.outputs)[0];
  return Object.entries(out.inputs)
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([p]) => p);
}

/** Runs a bundle's code in this Node process and returns what it left in `__collide`. */
async function runInNode(code: string): Promise<unknown> {
  const g = globalThis as { __collide?: unknown };
  g.__collide = undefined;
  await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  return g.__collide;
}

describe("browser bundles of the main entry", () => {
  it("a sphere–box intersects app on collide/core: no node: import, small, right answers", async () => {
    const { code, metafile } = await bundle(SPHERE_BOX_APP);
    expect(nodeOnlyInputs(metafile)).toEqual([]);
    expect(code).not.toMatch(/["']node:/);
    // Only the registered pair's routines come along: no default registrations, GJK/EPA pair
    // routine, manifold builder or composite mid-phase; and only the shape types it makes (no
    // other type's definition, hull builder or BVH).
    const inputs = bundledModules(metafile);
    for (const module of [
      "dispatch.ts",
      "capsule.ts",
      "convex-polyhedron.ts",
      "triangle-mesh.ts",
      "compound.ts",
      "heightfield.ts",
      "rounded.ts",
      "hull.ts",
      "mesh-bvh.ts",
      "default-pairs.ts",
      "convex-convex.ts",
      "convex-pair.ts",
      "witness-features.ts",
      "witness-faces.ts",
      "witness-polish.ts",
      "manifold.ts",
      "composite.ts",
      "gjk.ts",
      "epa.ts",
      "ray-primitives.ts",
      "sphere-ops.ts",
      "cuboid-ops.ts",
      "clip.ts",
    ]) {
      expect(inputs.filter((p) => p.endsWith(`/${module}`))).toEqual([]);
    }
    const bytes = Buffer.byteLength(code);
    console.log(`sphere–box intersects app on collide/core, minified: ${bytes} bytes`);
    expect(bytes).toBeLessThan(SPHERE_BOX_APP_MAX_BYTES);
    // Touching at x = 1 counts; a gap of 0.5 does not; the mirrored order answers through the
    // flipped entry; a pair at 1e-200 through the rescaling path; sphere–sphere was not
    // registered.
    expect(await runInNode(code)).toEqual([true, false, true, true, "unsupported_pair"]);
  });

  it("the same app on the main entry answers every pair (and holds every routine)", async () => {
    const { code, metafile } = await bundle(SPHERE_BOX_MAIN_APP);
    expect(nodeOnlyInputs(metafile)).toEqual([]);
    const bytes = Buffer.byteLength(code);
    console.log(`sphere–box intersects app on collide, minified: ${bytes} bytes`);
    expect(bytes).toBeLessThan(SPHERE_BOX_MAIN_APP_MAX_BYTES);
    expect(bundledModules(metafile).some((p) => p.endsWith("/convex-convex.ts"))).toBe(true);
    expect(await runInNode(code)).toEqual([true, false]);
  });

  it("the whole main entry bundles without Node-only modules", async () => {
    const { code, metafile } = await bundle('export * from "./src/index.ts";');
    expect(nodeOnlyInputs(metafile)).toEqual([]);
    expect(code).not.toMatch(/["']node:/);
  });

  it("collide/node is the entry that holds the loaders", async () => {
    const result = await build({
      entryPoints: [join(ROOT, "src/node.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      packages: "external",
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((p) => p.includes("src/io/mesh-loaders.ts"))).toBe(true);
    expect(inputs.some((p) => p.includes("src/models/bunny.ts"))).toBe(true);
  });
});

describe("a full world app in Chromium", () => {
  let context: BrowserContext | null = null;
  let profile = "";

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), "collide-bundle-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it("runs and answers as in Node, bit for bit, and as derived by hand", async () => {
    const { code, metafile } = await bundle(WORLD_APP);
    expect(nodeOnlyInputs(metafile)).toEqual([]);
    const page = await context!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ content: code, type: "module" });
    await page.waitForFunction(
      () => (globalThis as { __collide?: unknown }).__collide !== undefined,
    );
    const inBrowser = await page.evaluate(() => (globalThis as { __collide?: unknown }).__collide);
    await page.close();
    expect(errors).toEqual([]);
    // Hand-derived: the ball (r 0.5 at y 0.4) is 0.1 into the floor's top (y 0), normal +y from
    // the floor toward the ball; lifted, the contact ends; the ray down from y 5 meets the ramp
    // (y 0) at toi 5 with the face normal facing it; spheres of radius 1 at distance 1.5 overlap
    // by 0.5 along +x.
    const [first, ended, ray, pair] = inBrowser as [
      [boolean, boolean, number, number, number, number],
      number,
      [number, number],
      [number, number],
    ];
    expect(first[0]).toBe(true);
    expect(first[1]).toBe(true);
    expect(first[2]).toBeCloseTo(-0.1, 12);
    expect(first.slice(3)).toEqual([0, 1, 0]);
    expect(ended).toBe(1);
    expect(ray[0]).toBeCloseTo(5, 12);
    expect(ray[1]).toBe(1);
    expect(pair[0]).toBeCloseTo(-0.5, 12);
    expect(pair[1]).toBe(1);
    expect(await runInNode(code)).toEqual(inBrowser);
  });
});
