import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig(({ command, isSsrBuild }) => ({
  // The SSR build's entry is our Express app, so `server.js` can mount it
  // beside static files, the client-IP middleware and graceful shutdown.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : undefined,
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
  // The server is one bundle of the code it uses: loaded package by package from
  // node_modules, a start read 1,400 files (whole icon and primitive sets, every
  // database dialect of the auth library) and took 4 s of CPU instead of 2.5 s.
  // Packages with native code, WebAssembly or files of their own stay outside.
  // Development loads them as they are, as Vite's own server expects.
  ssr:
    command === "build"
      ? { noExternal: true, external: ["sharp", "@electric-sql/pglite", "pg", "fontkit", "wawoff2", "nodemailer"] }
      : undefined,
}));
