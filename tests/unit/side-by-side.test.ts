import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SideBySide, watchSideBySide } from "../setup/side-by-side";

describe("the watch that sends a server test to PostgreSQL too", () => {
  const pglite = new PGlite();
  let seen: SideBySide;
  beforeAll(async () => {
    await pglite.waitReady;
    seen = watchSideBySide(pglite);
  }, 60_000);
  const reset = () => {
    seen.transactionMet = false;
    seen.statementsMet = false;
  };
  afterAll(() => pglite.close());

  it("sees nothing in statements and transactions asked one after another", async () => {
    reset();
    await pglite.query("select 1");
    await pglite.transaction(async (tx) => {
      await tx.query("select 1");
      await tx.query("select 2");
    });
    await pglite.exec("select 1");
    expect(seen).toEqual({ transactionMet: false, statementsMet: false });
  });

  it("sees a statement sent while a transaction is open", async () => {
    reset();
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const transaction = pglite.transaction(async (tx) => {
      opened();
      await tx.query("select pg_sleep(0.05)");
    });
    await open;
    await Promise.all([transaction, pglite.query("select 1")]);
    expect(seen.transactionMet).toBe(true);
  });

  it("sees a transaction begun while a statement is in flight", async () => {
    reset();
    await Promise.all([pglite.query("select pg_sleep(0.05)"), pglite.transaction((tx) => tx.query("select 1"))]);
    expect(seen.transactionMet).toBe(true);
  });

  it("tells statements side by side outside a transaction apart from those beside one", async () => {
    reset();
    await Promise.all([pglite.query("select 1"), pglite.query("select 2")]);
    expect(seen).toEqual({ transactionMet: false, statementsMet: true });
  });
});
