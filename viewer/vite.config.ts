/**
 * Vite build of the debug viewer (`collide view`): a static page and its Web Worker in
 * dist/viewer, which `collide view` serves (and `prepack` puts in the package). The page and the
 * worker import the library's browser-safe sources directly (viewer/src/collide.ts);
 * `collide/three` resolves to the adapter's source, so the viewer builds without dist/.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  logLevel: "warn",
  resolve: {
    alias: {
      "collide/three": fileURLToPath(new URL("../src/three/index.ts", import.meta.url)),
    },
  },
  worker: { format: "es" },
  build: {
    outDir: fileURLToPath(new URL("../dist/viewer", import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
});
