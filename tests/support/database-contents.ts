// Everything a database holds, read the same way from either engine, to
// compare two databases row by row; and every uploaded file under a folder.
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import { BACKUP_TABLES, primaryKeyOf } from "../../app/.server/backup/archive";
import { type DatabaseHandle, openPglite, openPostgres, rowsOf } from "../../app/.server/platform/db/client";

async function tableContents(handle: DatabaseHandle): Promise<Record<string, unknown[]>> {
  const contents: Record<string, unknown[]> = {};
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    for (const table of BACKUP_TABLES) {
      const { name } = getTableConfig(table);
      const order = primaryKeyOf(table).map((column) => `"${column}"`);
      const result = await tx.execute(
        sql.raw(`select to_jsonb(t) as row from "${name}" t order by ${order.join(", ")}`),
      );
      contents[name] = rowsOf(result).map((entry) => {
        const value = (entry as { row: unknown }).row;
        return typeof value === "string" ? JSON.parse(value) : value;
      });
    }
  });
  return contents;
}

/** Opens a stopped server's database (embedded DATA_DIR or PostgreSQL URL) and reads it whole. */
export async function contentsOf(target: { dataDir?: string; databaseUrl?: string }) {
  const handle = target.databaseUrl
    ? openPostgres(target.databaseUrl, 1)
    : await openPglite({ dataDir: path.join(target.dataDir!, "db") });
  try {
    return await tableContents(handle);
  } finally {
    await handle.close();
  }
}

/** Every file under a folder with its bytes, by relative path. */
export function filesIn(root: string): Record<string, string> {
  if (!fs.existsSync(root)) return {};
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(root, file)] = fs.readFileSync(file).toString("base64");
  }
  return files;
}
