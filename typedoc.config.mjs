/**
 * TypeDoc settings (`npm run docs`, output in docs/api/, not committed). The entry points are
 * read from package.json's `exports`, so every public entry (`collide`, `collide/node`,
 * `collide/three`, `collide/parallel`, …) is documented and checked, including entries added
 * later. Warnings are errors: a broken `{@link}`, an exported declaration without a docstring,
 * or a type that a public signature uses but no entry exports (except the internal helper
 * types listed below) fails the build; `npm test` runs it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const entryPoints = Object.values(pkg.exports)
  .filter((e) => typeof e === "object" && typeof e.import === "string")
  .map((e) => e.import.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));

/**
 * False when the git remote `origin` is not on a host TypeDoc links sources to (GitHub, GitLab,
 * Bitbucket): a clone of a local path or of another host. TypeDoc then warns "The provided git
 * remote "origin" was not valid", which fails the build (warnings are errors), so such a clone
 * builds the reference without source links. No git or no `origin` (a checkout without remotes:
 * TypeDoc 0.28 warns there too): the same.
 */
function originIsLinkable() {
  let url;
  try {
    url = execFileSync("git", ["remote", "get-url", "origin"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return false;
  }
  return /github|gitlab|bitbucket/i.test(url);
}

/** @type {Partial<import("typedoc").TypeDocOptions>} */
export default {
  name: "Collide",
  entryPoints,
  tsconfig: "tsconfig.build.json",
  out: "docs/api",
  readme: "none",
  excludePrivate: true,
  excludeProtected: true,
  excludeInternal: true,
  validation: {
    notExported: true,
    invalidLink: true,
    rewrittenLink: true,
    notDocumented: true,
    unusedMergeModuleWith: true,
  },
  treatWarningsAsErrors: true,
  disableSources: !originIsLinkable(),
  logLevel: "Warn",
  // Exported declarations must have a docstring; fields of interfaces may go without.
  requiredToBeDocumented: [
    "Enum",
    "Variable",
    "Function",
    "Class",
    "Interface",
    "TypeAlias",
    "Method",
    "Accessor",
  ],
  // Internal helper types that public signatures mention but that are not part of the API.
  intentionallyNotExported: [
    "MeshBvh",
    "Random",
    "SupportMap",
    "GjkSimplex",
    "Core2",
    "PointSet",
    "Vec3Json",
    "DebugDraw",
    "WorkCore2",
  ],
};
