/**
 * Vite build of the examples site (`npm run examples`): one static page per example, written to
 * examples/web/dist, which any static host can serve. `collide` resolves to the library's
 * sources (src/index.ts) and `collide/parallel/browser` to the Web Worker executor, so the site
 * builds from a clone without dist/. The dev server and `vite preview` send the cross-origin
 * isolation headers (COOP/COEP) that `SharedArrayBuffer`, and so the Web Worker executor, needs;
 * a static host must send them too (scripts/serve-static.ts does, behind `npm run examples:serve`).
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
const src = (p: string): string => fileURLToPath(new URL(`../../src/${p}`, import.meta.url));
const pages = Object.fromEntries(
  readdirSync(root)
    .filter((f) => f.endsWith(".html"))
    .map((f) => [f.slice(0, -".html".length), `${root}${f}`]),
);
const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

export default defineConfig({
  root,
  base: "./",
  logLevel: "warn",
  resolve: {
    alias: [
      { find: /^collide$/, replacement: src("index.ts") },
      { find: /^collide\/parallel\/browser$/, replacement: src("parallel/browser.ts") },
      { find: /^collide\/debug$/, replacement: src("debug/gjk-trace.ts") },
    ],
  },
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: "es" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 2000,
    rollupOptions: { input: pages },
  },
});
