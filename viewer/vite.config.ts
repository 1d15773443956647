/**
 * Vite build of the debug viewer (`collide view`): a static page in viewer/dist that talks to the
 * command's JSON endpoints. `collide/three` resolves to the adapter's source, so the viewer
 * builds without dist/.
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
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
});
