// `npm run backup [FILE]`: writes one consistent archive of the database and
// the uploaded files (docs/decisions/012-backups.md). Safe while the server
// runs: on PostgreSQL it reads a snapshot directly; on the embedded database,
// which only the running server may open, it asks that server for the archive.
// The archive is read back and its checksum checked before it takes its name.
import "./startup-faults";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { checkArchive, RestoreError, writeBackup } from "~/.server/backup/archive";
import { BACKUP_PATH, readControl } from "~/.server/backup/control";
import { connectDatabase } from "~/.server/platform/db/connect";
import { env } from "~/.server/platform/env";
import { getStorage } from "~/.server/platform/storage";

const stamp = new Date().toISOString().replace(/[:]/g, "-").replace(/\..+$/, "");
const target = path.resolve(process.argv[2] ?? `namecard-backup-${stamp}.ndjson.gz`);
// Written under a temporary name and renamed when complete: a failed backup never looks like a good one.
const partial = `${target}.partial`;

async function fromRunningServer(control: { port: number; token: string }) {
  const response = await fetch(`http://127.0.0.1:${control.port}${BACKUP_PATH}`, {
    method: "POST",
    headers: { authorization: `Bearer ${control.token}` },
  });
  if (!response.ok || !response.body) {
    throw new Error(`the running server answered ${response.status} to the backup request`);
  }
  await pipeline(response.body as unknown as NodeJS.ReadableStream, fs.createWriteStream(partial, { mode: 0o600 }));
  console.info(`[backup] made by the running server (process ${readControl(env.DATA_DIR)?.pid ?? "?"})`);
}

async function direct() {
  const handle = await connectDatabase();
  try {
    const summary = await writeBackup(
      handle.db,
      getStorage(),
      handle.kind,
      fs.createWriteStream(partial, { mode: 0o600 }),
    );
    console.info(
      `[backup] ${Object.entries(summary.tables)
        .map(([table, count]) => `${table} ${count}`)
        .join(", ")}; ${summary.files} files` +
        (summary.missingFiles.length ? `; ${summary.missingFiles.length} referenced files were already gone` : ""),
    );
  } finally {
    await handle.close();
  }
}

/** Reads the archive back as a restore would: a backup that would not restore is not kept. */
async function readBack() {
  try {
    // Who made it is the server's to say; only whether it reads whole is checked here.
    const { madeHere } = await checkArchive(partial, { trustArchive: true });
    if (!madeHere) {
      console.warn(
        "[backup] warning: the server that made this archive has another AUTH_SECRET than this environment: restore it with the server's AUTH_SECRET.",
      );
    }
  } catch (error) {
    if (error instanceof RestoreError) {
      const fault = error.message.replace(/^\[restore\] /, "").replace(/ Nothing was restored\.$/, "");
      throw new Error(`the archive does not read back whole: ${fault}`);
    }
    throw error;
  }
}

try {
  const control = env.DATABASE_URL ? null : readControl(env.DATA_DIR);
  if (control) await fromRunningServer(control);
  else await direct();
  await readBack();
  fs.renameSync(partial, target);
} catch (error) {
  fs.rmSync(partial, { force: true });
  throw error;
}
const shown = path.relative(process.cwd(), target);
console.info(`[backup] wrote ${shown.startsWith("..") ? target : shown} (${fs.statSync(target).size} bytes)`);
