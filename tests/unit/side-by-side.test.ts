import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SideBySide, sentBy, watchSideBySide } from "../setup/side-by-side";

describe("the watch that sends a server test to PostgreSQL too", () => {
  const pglite = new PGlite();
  let seen: SideBySide;
  beforeAll(async () => {
    await pglite.waitReady;
    seen = watchSideBySide(pglite);
  }, 60_000);
  beforeEach(() => {
    seen.transactionMet.clear();
    seen.statementsMet.clear();
  });
  afterAll(() => pglite.close());

  /** A transaction that stays open until the statement sent beside it has been asked. */
  async function besideOpenTransaction(transactionBy: string, statementBy: string) {
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const transaction = sentBy(transactionBy, () =>
      pglite.transaction(async (tx) => {
        opened();
        await tx.query("select pg_sleep(0.05)");
      }),
    );
    await open;
    await Promise.all([transaction, sentBy(statementBy, () => pglite.query("select 1"))]);
  }

  it("sees nothing in statements and transactions asked one after another", async () => {
    await sentBy("a.test.ts", async () => {
      await pglite.query("select 1");
      await pglite.transaction(async (tx) => {
        await tx.query("select 1");
        await tx.query("select 2");
      });
      await pglite.exec("select 1");
    });
    expect(seen.transactionMet.size + seen.statementsMet.size).toBe(0);
  });

  it("sees a file's statement sent while its transaction is open", async () => {
    await besideOpenTransaction("a.test.ts", "a.test.ts");
    expect([...seen.transactionMet]).toEqual(["a.test.ts"]);
  });

  it("sees a file's transaction begun while its statement is in flight", async () => {
    await sentBy("a.test.ts", () =>
      Promise.all([pglite.query("select pg_sleep(0.05)"), pglite.transaction((tx) => tx.query("select 1"))]),
    );
    expect([...seen.transactionMet]).toEqual(["a.test.ts"]);
  });

  it("does not hold work one file left running against the next", async () => {
    await besideOpenTransaction("a.test.ts", "b.test.ts");
    expect(seen.transactionMet.size).toBe(0);
  });

  it("tells statements side by side outside a transaction apart from those beside one", async () => {
    await sentBy("a.test.ts", () => Promise.all([pglite.query("select 1"), pglite.query("select 2")]));
    expect([...seen.statementsMet]).toEqual(["a.test.ts"]);
    expect(seen.transactionMet.size).toBe(0);
  });
});
