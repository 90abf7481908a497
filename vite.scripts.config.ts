import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * The operator's commands (backup, restore, migrate), built into build/scripts
 * so that an installation without the development tools, such as the container
 * image, runs them with Node alone: `node build/scripts/backup.js`.
 */
export default defineConfig({
  plugins: [tsconfigPaths()],
  build: {
    ssr: true,
    outDir: "build/scripts",
    emptyOutDir: true,
    copyPublicDir: false,
    target: "node20",
    rollupOptions: {
      input: { backup: "scripts/backup.ts", restore: "scripts/restore.ts", migrate: "scripts/migrate.ts" },
      output: { entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js", format: "esm" },
    },
  },
});
