import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterEach, describe, expect, it } from "vitest";
import { DurableNodeFS } from "./durable-fs";

type Module = { _abort(): void };

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** An embedded database on disk whose faults are written down instead of ending the process. */
async function watchedDatabase(folder: string) {
  const faults: string[] = [];
  const client = await PGlite.create({
    fs: new DurableNodeFS(path.join(folder, "db"), (reason) => faults.push(reason)),
  });
  return { client, module: (client as unknown as { mod: Module }).mod, faults };
}

describe("the embedded database's faults", () => {
  it("are heard when PostgreSQL aborts, as it does after a PANIC, and not when it closes", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-durable-"));
    folders.push(folder);
    const closed = await watchedDatabase(folder);
    await closed.client.close();
    expect(closed.faults).toEqual([]);

    const { client, module, faults } = await watchedDatabase(folder);
    expect((await client.query<{ one: number }>("select 1 as one")).rows).toEqual([{ one: 1 }]);
    // PostgreSQL's own abort(), the call a PANIC ends in.
    expect(() => module._abort()).toThrow(/Aborted/);
    expect(faults).toEqual([expect.stringMatching(/^aborted/)]);
  }, 60_000);
});
