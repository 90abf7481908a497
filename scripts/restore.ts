// `npm run restore FILE`: brings a backup archive back into an empty DATA_DIR
// or an empty PostgreSQL database (DATABASE_URL), whichever engine made it
// (docs/decisions/012-backups.md). Stop the server first.
import "./startup-faults";
import path from "node:path";
import { RestoreError, restoreBackup } from "~/.server/backup/archive";
import { connectDatabase } from "~/.server/db/connect";
import { getStorage } from "~/.server/storage";

const file = process.argv[2];
if (!file) {
  console.error("[restore] Name the archive to restore: npm run restore -- namecard-backup-….ndjson.gz");
  process.exit(1);
}

const handle = await connectDatabase();
try {
  const summary = await restoreBackup(handle.db, getStorage(), path.resolve(file));
  console.info(
    `[restore] ${Object.entries(summary.tables)
      .map(([table, count]) => `${table} ${count}`)
      .join(
        ", ",
      )}; ${summary.files} files restored into ${handle.kind === "pglite" ? "the embedded database" : "PostgreSQL"}`,
  );
} catch (error) {
  if (error instanceof RestoreError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
} finally {
  await handle.close();
}
