import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * The embedded database's thread (app/.server/platform/db/database-thread.ts), built
 * beside the server's bundle after it by `npm run build`: a worker thread
 * starts from a file of its own.
 */
export default defineConfig({
  plugins: [tsconfigPaths()],
  build: {
    ssr: "app/.server/platform/db/database-thread.worker.ts",
    outDir: "build/server",
    emptyOutDir: false,
    copyPublicDir: false,
    rollupOptions: { output: { entryFileNames: "database-thread.js", format: "esm" } },
  },
  ssr: { noExternal: true, external: ["@electric-sql/pglite"] },
});
