import path from "node:path";
import { defineConfig } from "vitest/config";

// Kept apart from vite.config.ts so the React Router plugin is not loaded into the tests.
const testEnv = {
  NODE_ENV: "test",
  DATA_DIR: "tests/.tmp/data",
  PUBLIC_URL: "http://localhost:3000",
  ADMIN_EMAILS: "admin@example.com",
  AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
};

const alias = { "~": path.resolve(import.meta.dirname, "app") };
const serverTests = ["app/**/*.server.test.ts", "tests/server/**/*.test.ts", "tests/security/**/*.test.ts"];

if (!process.env.TEST_DATABASE_URL) {
  console.warn(
    "\n[tests] TEST_DATABASE_URL is not set: the server tests run on PGlite only, and the PostgreSQL runs " +
      "(including the two-instance realtime test) are SKIPPED. `bash .ci/run` sets it up.\n",
  );
}

const databases = [
  { name: "pglite", env: {} },
  ...(process.env.TEST_DATABASE_URL ? [{ name: "postgres", env: { NAMECARD_TEST_DB: "postgres" } }] : []),
];

export default defineConfig({
  resolve: { alias },
  test: {
    // Server logs (mail links, auth warnings) show only for failing tests.
    silent: "passed-only",
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: serverTests,
          env: testEnv,
        },
      },
      ...databases.map((database) => ({
        resolve: { alias },
        test: {
          name: `server:${database.name}`,
          include: serverTests,
          env: { ...testEnv, DATA_DIR: `tests/.tmp/data-${database.name}`, ...database.env },
          globalSetup: ["tests/setup/global-database.ts"],
          setupFiles: ["tests/setup/database.ts"],
          hookTimeout: 60_000,
          testTimeout: 30_000,
        },
      })),
    ],
  },
});
