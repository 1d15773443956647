// Makes every `bin` entry of package.json executable (mode 755) after `tsc` wrote it as 644,
// so that `npx collide` runs the built command from a fresh clone. Part of `npm run build`.
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const bins = typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin ?? {});
for (const file of bins) {
  const path = join(root, file);
  if (existsSync(path)) chmodSync(path, 0o755);
}
