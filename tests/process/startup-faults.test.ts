import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import { makeReadOnly, makeWritable } from "../support/read-only";
import { freePort, launch, migratedDataDir, SERVER_BUILT, scratchDir, serverEnv } from "../support/server-process";

/**
 * Every start-up fault an operator can make ends in one line that names the
 * variable or the port and what to do, and exit status 1: never a stack trace,
 * never a server that says it listens and serves nothing.
 */

const started = startedProcesses("the start-up fault tests");

async function startWith(env: NodeJS.ProcessEnv) {
  const dataDir = env.DATA_DIR ?? (await migratedDataDir());
  const running = launch(process.execPath, ["server.js"], {
    ...serverEnv({ port: await freePort(), dataDir }),
    ...env,
  });
  started.push(running);
  const exit = await running.exited;
  return { ...exit, output: running.output() };
}

function expectOneLineFault(result: { code: number | null; output: string }, pattern: RegExp) {
  expect(result.code).toBe(1);
  expect(result.output.split("\n").filter((line) => pattern.test(line))).toHaveLength(1);
  expect(result.output).not.toMatch(/^\s+at /m);
  expect(result.output).not.toMatch(/is listening/);
}

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("start-up faults", () => {
  it("says which port is taken instead of claiming to listen", async () => {
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, resolve));
    try {
      const result = await startWith({ PORT: String(port), PUBLIC_URL: `http://localhost:${port}` });
      expectOneLineFault(result, new RegExp(`PORT ${port} is already in use by another program: stop it, or set PORT`));
    } finally {
      blocker.close();
    }
  });

  it("names PORT when it is not a port number", async () => {
    expectOneLineFault(await startWith({ PORT: "eighty", PUBLIC_URL: "" }), /\[config\] PORT: must be a port number/);
  });

  it("reads an empty PORT= as the default port 3000", async () => {
    const running = launch(process.execPath, ["server.js"], {
      ...serverEnv({ port: 0, dataDir: await migratedDataDir() }),
      PORT: "",
      PUBLIC_URL: "",
    });
    started.push(running);
    // Whether 3000 is free on this machine or not, the server has read PORT= as 3000.
    await running.waitForOutput(/\(port 3000 on |PORT 3000 is already in use/);
  });

  it("names DATA_DIR when it is a file, not a folder", async () => {
    const file = path.join(scratchDir(), "not-a-folder");
    fs.writeFileSync(file, "");
    expectOneLineFault(await startWith({ DATA_DIR: file }), /\[config\] DATA_DIR: .* is not a folder/);
  });

  it("names DATA_DIR when this user cannot write it", async () => {
    const dataDir = scratchDir();
    // Read-only even for root (tests/support/read-only.ts).
    makeReadOnly(dataDir);
    try {
      const result = await startWith({ DATA_DIR: dataDir });
      expectOneLineFault(result, /\[config\] DATA_DIR: .* cannot be written by this user/);
    } finally {
      makeWritable(dataDir);
    }
  });

  it("names S3_ENDPOINT when it has no scheme", async () => {
    const result = await startWith({
      S3_ENDPOINT: "minio.internal:9000",
      S3_BUCKET: "cards",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    expectOneLineFault(result, /\[config\] S3_ENDPOINT: must start with http:\/\/ or https:\/\//);
  });

  it("names AUTH_SECRET when DATABASE_URL is set without it, before opening the database", async () => {
    const port = await freePort();
    const result = await startWith({
      DATA_DIR: scratchDir(),
      DATABASE_URL: `postgresql://namecard:namecard@127.0.0.1:${port}/namecard`,
      AUTH_SECRET: "",
    });
    expectOneLineFault(result, /\[config\] AUTH_SECRET: required with DATABASE_URL/);
  });

  it("names DATABASE_URL's host and port when nothing listens there", async () => {
    const port = await freePort();
    const result = await startWith({ DATABASE_URL: `postgresql://namecard:namecard@127.0.0.1:${port}/namecard` });
    expectOneLineFault(result, new RegExp(`DATABASE_URL: nothing accepts connections on 127.0.0.1:${port}`));
  });

  it("names DATABASE_URL's host when it does not exist", async () => {
    const result = await startWith({
      DATABASE_URL: "postgresql://namecard:namecard@no-such-host.invalid:5432/namecard",
    });
    expectOneLineFault(result, /DATABASE_URL: the host "no-such-host\.invalid" cannot be found/);
  });
});

describe.skipIf(!ON_POSTGRES || !SERVER_BUILT)("start-up faults in DATABASE_URL on a real PostgreSQL", () => {
  const url = new URL(process.env.TEST_DATABASE_URL ?? "postgresql://localhost/none");

  it("names the password when PostgreSQL refuses it", async () => {
    const wrong = new URL(url);
    wrong.password = "not-the-password";
    const result = await startWith({ DATA_DIR: scratchDir(), DATABASE_URL: wrong.toString() });
    expectOneLineFault(result, /DATABASE_URL: PostgreSQL refused the password for user "namecard"/);
  });

  it("names the database when it does not exist", async () => {
    const missing = new URL(url);
    missing.pathname = "/namecard_no_such_database";
    const result = await startWith({ DATA_DIR: scratchDir(), DATABASE_URL: missing.toString() });
    expectOneLineFault(result, /DATABASE_URL: the database "namecard_no_such_database" does not exist/);
  });
});
