import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import * as schema from "../db/schema";
import { BACKUP_TABLES, NOT_BACKED_UP } from "./archive";

const nameOf = (table: PgTable) => getTableConfig(table).name;

describe("the backup archive", () => {
  it("keeps every table, or leaves it out on purpose: a new table cannot be forgotten", () => {
    const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
    const chosen = [...BACKUP_TABLES, ...NOT_BACKED_UP].map(nameOf);
    expect(tables.map(nameOf).sort()).toEqual([...chosen].sort());
    expect(new Set(chosen).size).toBe(chosen.length);
  });

  it("writes parents before the tables that refer to them", () => {
    const order = BACKUP_TABLES.map(nameOf);
    for (const [index, table] of BACKUP_TABLES.entries()) {
      for (const key of getTableConfig(table).foreignKeys) {
        const parent = getTableConfig(key.reference().foreignTable).name;
        if (parent !== order[index]) expect(order.indexOf(parent), `${order[index]} → ${parent}`).toBeLessThan(index);
      }
    }
  });
});
