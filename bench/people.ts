// The generated people the load benchmarks serve, the same on both engines:
// 20 brands and `count` profiles with names repeating in a pattern (so a
// common first name such as Maria matches a tenth of them), and one account
// with its card already made, so that signing in adds nothing.
import fs from "node:fs";
import path from "node:path";
import { generateRandomString, hashPassword } from "better-auth/crypto";

export function peopleSql(count: number) {
  return `
    insert into brands (name, primary_color, secondary_color)
    select 'Brand ' || lpad(n::text, 2, '0'), '#2563eb', '#7c3aed' from generate_series(1, 20) as n;
    insert into profiles (email, first_name, last_name, username, title, company_brand_id, view_count)
    select 'person' || n || '@group' || (n % 7) || '.example',
           (array['Maria','James','Sofia','Liam','Aisha','Noah','Chen','Olivia','Mateo','Lucas'])[1 + n % 10],
           (array['Garcia','Smith','Rossi','Nguyen','Silva','Dubois','Haddad','Olsen','Brown','Tanaka'])[1 + (n / 10) % 10],
           'person.' || n,
           (array['Engineer','Designer','Analyst','Manager'])[1 + n % 4],
           (select id from brands order by id limit 1 offset (n % 20)),
           n % 50
    from generate_series(1, ${count}) as n;`;
}

/** The statements that make the account to sign in with: its user, password and card. */
export async function accountStatements(account: {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  username: string;
}): Promise<[string, unknown[]][]> {
  const id = generateRandomString(32);
  const { email, firstName, lastName, username } = account;
  return [
    [
      "insert into users (id, name, email, email_verified, first_name, last_name) values ($1, $2, $3, true, $4, $5)",
      [id, `${firstName} ${lastName}`, email, firstName, lastName],
    ],
    [
      "insert into accounts (id, account_id, provider_id, user_id, password) values ($1, $2, 'credential', $2, $3)",
      [generateRandomString(32), id, await hashPassword(account.password)],
    ],
    [
      "insert into profiles (email, first_name, last_name, username, user_id) values ($1, $2, $3, $4, $5)",
      [email, firstName, lastName, username, id],
    ],
  ];
}

/** The embedded database's connection, as the benchmarks fill it. */
type Filling = { exec(sql: string): Promise<unknown>; query(sql: string, values?: unknown[]): Promise<unknown> };

/**
 * A new data directory `dir` whose embedded database is migrated and holds `count` generated
 * profiles; `more` adds what a benchmark needs besides, before the database is closed.
 */
export async function fillDataDir(dir: string, count: number, more?: (pglite: Filling) => Promise<void>) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  process.env.DATA_DIR = dir;
  process.env.DATABASE_URL = "";
  const { openPglite } = await import("../app/.server/platform/db/client");
  const handle = await openPglite({ dataDir: path.join(dir, "db") });
  if (!("pglite" in handle.raw)) throw new Error("expected the embedded database");
  await handle.migrate();
  const pglite = handle.raw.pglite;
  await pglite.exec(peopleSql(count));
  await more?.(pglite);
  await handle.close();
}
