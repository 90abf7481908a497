import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { ON_BOTH_ENGINES } from "./tests/setup/engines";

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
/**
 * Tests of the real server process (`node server.js` on the build, and the
 * scripts), as operators run it: they need `npm run build` first, which `npm
 * test` runs before them, and start their processes through tests/support/server-process.ts.
 */
const processTests = ["tests/process/**/*.test.ts"];
/** Tests that need a real PostgreSQL server (several processes on one database). */
const postgresOnlyTests = ["tests/process/**/*.postgres.test.ts"];

if (!process.env.TEST_DATABASE_URL) {
  console.warn(
    "\n[tests] TEST_DATABASE_URL is not set: the server tests run on PGlite only, and the PostgreSQL runs " +
      "(including the several-instance tests) are SKIPPED. `bash .ci/run` sets it up.\n",
  );
}

/**
 * Every server test runs on PGlite; those of tests/setup/engines.ts on PostgreSQL too.
 * Process tests run on both, each file skipping what one engine does not have.
 */
const databases = [
  { name: "pglite", env: {}, server: serverTests, exclude: postgresOnlyTests },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: "postgres", env: { NAMECARD_TEST_DB: "postgres" }, server: ON_BOTH_ENGINES, exclude: [] }]
    : []),
];

export default defineConfig({
  resolve: { alias },
  test: {
    // Server logs (mail links, auth warnings) show only for failing tests.
    silent: "passed-only",
    // Server and process tests wait on databases, scrypt, child processes and the
    // conditions they poll for more than they compute: one worker more than the
    // cores keeps them busy (docs/decisions/042-a-fast-test-command-and-the-whole-suite.md).
    maxWorkers: Math.max(3, os.availableParallelism() + 1),
    projects: [
      {
        // Pure functions and modules with their own real counterpart (SMTP,
        // S3, files). No database is opened here: `db` throws until one is set.
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "scripts/**/*.test.ts", "tests/unit/**/*.test.ts"],
          // `npm test` makes no build, so the check of the browser build is left out.
          exclude: [...serverTests, ...(process.env.NAMECARD_NO_BUILD === "1" ? ["app/client-bundle.test.ts"] : [])],
          env: testEnv,
          setupFiles: ["tests/setup/console.ts"],
          // Bounds on a hang, not on time: beside the process tests a file's first test also compiles what it imports.
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Screens rendered in a DOM with React Router's createRoutesStub: their loaders and
        // actions are stubs, so what is checked is the form itself (its state, messages, dialogs).
        resolve: { alias },
        test: {
          name: "component",
          include: ["tests/component/**/*.test.tsx"],
          environment: "happy-dom",
          env: testEnv,
          setupFiles: ["tests/setup/console.ts", "tests/setup/component.ts"],
        },
      },
      {
        // The container image, built from the Dockerfile with podman and driven over HTTP
        // (tests/support/containers.ts). Its build is most of its time: a hook may take minutes.
        resolve: { alias },
        test: {
          name: "image",
          include: ["tests/image/**/*.test.ts"],
          // One build of the image at a time: the second file finds every layer made.
          fileParallelism: false,
          env: testEnv,
          setupFiles: ["tests/setup/console.ts"],
          hookTimeout: 20 * 60_000,
          testTimeout: 5 * 60_000,
        },
      },
      // Loaders, actions and domain code against a real database, then the built server's processes.
      ...databases.flatMap((database) =>
        [
          { kind: "server", include: database.server },
          { kind: "process", include: processTests },
        ].map(({ kind, include }) => ({
          resolve: { alias },
          test: {
            name: `${kind}:${database.name}`,
            include,
            exclude: database.exclude,
            env: { ...testEnv, DATA_DIR: `tests/.tmp/data-${kind}-${database.name}`, ...database.env },
            globalSetup: ["tests/setup/global-database.ts"],
            setupFiles: ["tests/setup/console.ts", "tests/setup/database.ts"],
            // One module graph and one database per worker, shared by its files:
            // loading the app and a database for every file was most of the run.
            isolate: false,
            hookTimeout: 60_000,
            testTimeout: 30_000,
          },
        })),
      ),
    ],
  },
});
