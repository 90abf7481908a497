/**
 * The server tests that run on PostgreSQL as well as on the embedded database
 * (docs/decisions/042-a-fast-test-command-and-the-whole-suite.md). The others
 * ask one statement at a time, which both engines answer alike; a file that
 * runs a statement beside an open transaction, which takes PostgreSQL a second
 * connection, fails on PGlite until it is listed here (tests/setup/side-by-side.ts).
 */
export const ON_BOTH_ENGINES = [
  // Transactions that meet other statements: locks, isolation, the order of commits.
  "tests/server/invitations.test.ts",
  "tests/server/leads.test.ts",
  "tests/server/edit-conflicts.test.ts",
  "tests/server/import.test.ts",
  "tests/server/scim.test.ts",
  "tests/server/card.test.ts",
  "tests/server/deactivation.test.ts",
  "tests/server/roles.test.ts",
  // Text as the engine's collation orders and folds it: the directory's order and search.
  "tests/server/directory.test.ts",
  // Events between connections (LISTEN and NOTIFY), which PGlite answers within one.
  "tests/server/realtime.test.ts",
  "tests/server/read-cache.test.ts",
  "tests/server/settings-cache.test.ts",
  "tests/security/events.test.ts",
  // The pool, its bounds and its health; leases taken with SKIP LOCKED.
  "tests/server/database-connections.test.ts",
  "tests/server/health.test.ts",
  "tests/server/mail-queue.test.ts",
  "tests/server/storage-failures.test.ts",
  // A password reset answered as fast whether or not the account exists, on PostgreSQL's timing.
  "tests/server/accounts.test.ts",
];
