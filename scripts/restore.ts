// `npm run restore [--trust-archive] FILE`: brings a backup archive back into an
// empty DATA_DIR or an empty PostgreSQL database (DATABASE_URL), whichever
// engine made it (docs/decisions/012-backups.md). Stop the server first. The
// archive is checked whole (its checksum, and its HMAC under this AUTH_SECRET)
// before anything is written; --trust-archive restores one this installation
// did not make (another AUTH_SECRET) or one of format 1, which has no checksum.
import "./startup-faults";
import path from "node:path";
import { RestoreError, restoreBackup, TRUST_FLAG } from "~/.server/backup/archive";
import { connectDatabase } from "~/.server/platform/db/connect";
import { getStorage } from "~/.server/platform/storage";
import { listProviders } from "~/.server/sso/providers";
import { appleWalletStatus } from "~/.server/wallet/apple";
import { googleWalletStatus } from "~/.server/wallet/google";

const args = process.argv.slice(2);
const trustArchive = args.includes(TRUST_FLAG);
const [file, ...rest] = args.filter((arg) => arg !== TRUST_FLAG);
if (!file || rest.length > 0 || file.startsWith("--")) {
  console.error(
    `[restore] Name the one archive to restore: npm run restore -- [${TRUST_FLAG}] namecard-backup-….ndjson.gz`,
  );
  process.exit(1);
}

/**
 * Secrets sealed under another AUTH_SECRET do not open here: each is one line
 * telling the administrator what to enter again (the server keeps running
 * without them, docs/decisions/012-backups.md).
 */
async function secretsToEnterAgain(): Promise<string[]> {
  const [providers, google, apple] = await Promise.all([listProviders(), googleWalletStatus(), appleWalletStatus()]);
  const lines = providers
    .filter((provider) => provider.secret === "unreadable")
    .map(
      (provider) =>
        `[restore] The ${provider.protocol === "saml" ? "certificates" : "client secret"} of the single sign-on provider ${JSON.stringify(provider.name)} cannot be read with this AUTH_SECRET: until an administrator enters ${provider.protocol === "saml" ? "them" : "it"} again under Settings → Single sign-on, its people cannot sign in with it.`,
    );
  if (google.unreadable) {
    lines.push(
      "[restore] The Google Wallet key cannot be read with this AUTH_SECRET: until an administrator pastes the JSON key again under Settings → Wallet passes, members cannot save their cards to Google Wallet.",
    );
  }
  if (apple.unreadable) {
    lines.push(
      "[restore] The Apple Wallet certificate cannot be read with this AUTH_SECRET: until an administrator chooses the .p12 file again under Settings → Wallet passes, members cannot add their cards to Apple Wallet.",
    );
  }
  return lines;
}

const handle = await connectDatabase();
try {
  const summary = await restoreBackup(handle.db, getStorage(), path.resolve(file), { trustArchive });
  for (const warning of summary.warnings) console.warn(warning);
  console.info(
    `[restore] ${Object.entries(summary.tables)
      .map(([table, count]) => `${table} ${count}`)
      .join(
        ", ",
      )}; ${summary.files} files restored into ${handle.kind === "pglite" ? "the embedded database" : "PostgreSQL"}`,
  );
  for (const line of await secretsToEnterAgain()) console.warn(line);
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
