// Real Namecard processes for the tests that are about the process itself
// (start-up faults, locks, shutdown, crashes, backups): the built server and the
// scripts, spawned as an operator would run them. Waits are for conditions (a
// log line, a port, an exit), never for fixed times.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { openPglite } from "../../app/.server/platform/db/client";
import { latestMail } from "./outbox";

export const SERVER_BUILT = fs.existsSync("build/server/index.js");

/** The member's username, as their profile form (`/profile/edit`) shows it, its attributes in either order. */
export function usernameIn(profileForm: string): string {
  const match = /name="username"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="username"/.exec(profileForm);
  const username = match?.[1] ?? match?.[2];
  if (!username) throw new Error(`no username in the profile form:\n${profileForm.slice(0, 400)}`);
  return username;
}
const AUTH_SECRET = "process-tests-share-this-secret-0123456789";
const TSX = path.resolve("node_modules/.bin/tsx");

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type Running = {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves when the output matches; rejects if the process ends first or time runs out. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<Exit>;
};

/**
 * A port nothing listens on, for a server a test is about to start. Taken below the
 * kernel's ephemeral range (which starts at 32768), so no outgoing connection of a
 * busy machine can hold it by the time the server binds it, and from a slice of its
 * own per test worker, so two workers never pick the same one.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? 0) % 8;
  const sliceSize = 2_000;
  const sliceStart = 16_000 + worker * sliceSize;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = sliceStart + Math.floor(Math.random() * sliceSize);
    if (handedOut.has(port)) continue;
    if (await isFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${sliceStart} and ${sliceStart + sliceSize}`);
}

/** Ports this worker gave a test already: a stopped server's port may still be free, but is not handed out twice. */
const handedOut = new Set<number>();

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

/** The scratch folders the running test file made: removed after it (tests/setup/database.ts), so runs never fill the disk. */
const scratch = new Set<string>();

/** A new folder for one test's data (a server's DATA_DIR, an archive), removed once its test file is done. */
export function scratchDir(prefix = "namecard-process-") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.add(dir);
  return dir;
}

/** Removes the scratch folders made so far: called after each test file, once its servers have stopped. */
export function removeScratchDirs() {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
  scratch.clear();
}

/** The environment of a production server on `port` with its own DATA_DIR. */
export function serverEnv(options: { port: number; dataDir: string; databaseUrl?: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(options.port),
    PUBLIC_URL: `http://localhost:${options.port}`,
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl ?? "",
    AUTH_SECRET,
    ADMIN_EMAILS: "admin@example.com",
    SMTP_URL: "",
  };
  // The tests' own settings must not leak into the process under test.
  delete env.NAMECARD_TEST_DB;
  delete env.VITEST;
  // Vitest sets TEST, which better-auth reads as "under test" and then skips its origin checks.
  delete env.TEST;
  return env;
}

export function launch(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { uid?: number; gid?: number; umask?: number } = {},
): Running {
  const { umask, ...ids } = options;
  // With `umask`, started by a shell that sets it first, as an operator's shell or service manager may.
  const [file, argv] =
    umask === undefined
      ? [command, args]
      : ["/bin/sh", ["-c", `umask ${umask.toString(8).padStart(3, "0")} && exec "$0" "$@"`, command, ...args]];
  const child = spawn(file, argv, { env, stdio: ["ignore", "pipe", "pipe"], ...ids });
  let text = "";
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (const wake of [...waiters]) wake();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => {
      for (const wake of [...waiters]) wake();
      resolve({ code, signal });
    });
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const wake of [...waiters]) wake();
  });
  return {
    child,
    output: () => text,
    exited,
    waitForOutput(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${text}`));
        }, timeoutMs);
        const check = () => {
          const match = pattern.exec(text);
          if (match) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(match[0]);
          } else if (ended) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`the process ended before ${pattern}; output:\n${text}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}

export type ServerProcess = Running & { port: number; url: string; dataDir: string };

/** Starts the built server and waits until it listens. */
export async function startServer(
  options: {
    dataDir?: string;
    databaseUrl?: string;
    port?: number;
    env?: NodeJS.ProcessEnv;
    umask?: number;
    /** Node's own options before `server.js`, such as `--import` of a test's preload. */
    nodeArgs?: string[];
  } = {},
): Promise<ServerProcess> {
  // Without a data directory of its own, a copy of one migrated already: the migrations of a
  // new one cost about 0.8 s of each start (a new installation's start has tests of its own).
  const dataDir = options.dataDir ?? (options.databaseUrl ? scratchDir() : await migratedDataDir());
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const running = launch(
      process.execPath,
      [...(options.nodeArgs ?? []), "server.js"],
      { ...serverEnv({ port, dataDir, databaseUrl: options.databaseUrl }), ...options.env },
      { umask: options.umask },
    );
    try {
      await running.waitForOutput(/Namecard is listening/, 90_000);
      return { ...running, port, url: `http://127.0.0.1:${port}`, dataDir };
    } catch (error) {
      // A port another program took between the probe and the bind: another one, unless the test chose it.
      const taken = /PORT \d+ is already in use/.test(running.output());
      if (!taken || options.port !== undefined || attempt === 3) throw error;
    }
  }
}

/** Stops a process with a signal and waits for it to end. */
export async function stop(running: Running, signal: NodeJS.Signals = "SIGTERM"): Promise<Exit> {
  if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill(signal);
  return running.exited;
}

/** Runs a script (seed, backup, restore, migrate) to its end. */
export async function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { umask?: number } = {},
) {
  const running = launch(TSX, [script, ...args], env, options);
  const exit = await running.exited;
  return { ...exit, output: running.output() };
}

/**
 * A migrated embedded data directory, made once per test run and copied per
 * use: creating one costs seconds, copying one a few milliseconds.
 */
let template: Promise<string> | undefined;
export async function migratedDataDir(): Promise<string> {
  template ??= (async () => {
    const dir = path.resolve("tests/.tmp", `pglite-datadir-${process.pid}-${randomBytes(3).toString("hex")}`);
    fs.rmSync(dir, { recursive: true, force: true });
    const handle = await openPglite({ dataDir: path.join(dir, "db") });
    await handle.migrate();
    await handle.close();
    process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  })();
  const source = await template;
  const copy = scratchDir();
  fs.cpSync(source, copy, { recursive: true });
  return copy;
}

/** A server whose mail is in its outbox, or read by `latestLink` where it has a mail server. */
type MailedServer = Pick<ServerProcess, "dataDir"> & { latestLink?: (email: string) => string | undefined };

/** The link in the newest mail to `email`: mail goes out after the answer, so it is waited for. */
async function confirmationLink(server: MailedServer, email: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const link = server.latestLink
      ? server.latestLink(email)
      : latestMail(path.join(server.dataDir, "mail"), email)?.link;
    if (link) return link;
    if (Date.now() > until) throw new Error(`no mail reached ${email} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Signs up through the running server and opens the confirmation link: the member's cookie. */
export async function signedInMember(
  server: Pick<ServerProcess, "url" | "port"> & MailedServer,
  email: string,
  name = { first: "Pro", last: "Cess" },
  /** Sent with every request, e.g. a client address of its own behind a proxy. */
  headers: Record<string, string> = {},
  /** How requests are sent: fetch, or a client of the test's own (TLS to a proxy). */
  send: (
    url: string,
    init: { method?: string; headers: Record<string, string>; body?: string },
  ) => Promise<Response> = (url, init) => fetch(url, { ...init, redirect: "manual" }),
) {
  const signup = await send(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://localhost:${server.port}`, ...headers },
    body: JSON.stringify({
      name: `${name.first} ${name.last}`,
      firstName: name.first,
      lastName: name.last,
      email,
      password: "process password",
    }),
  });
  if (!signup.ok) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
  // The link confirms without asking for the password again only in the browser
  // that signed up, which it knows by a cookie set at sign-up: send it back.
  const browser = cookiePairs(signup.headers);
  const link = new URL(await confirmationLink(server, email));
  const verified = await send(`${server.url}${link.pathname}${link.search}`, {
    headers: { cookie: [...browser.values()].join("; "), ...headers },
  });
  const cookie = [...new Map([...browser, ...cookiePairs(verified.headers)]).values()].join("; ");
  if (!/session_token=/.test(cookie)) {
    throw new Error(`confirming ${email} did not sign in: ${verified.status} ${verified.headers.get("location")}`);
  }
  return cookie;
}

/** `Set-Cookie` headers as name → "name=value" pairs. */
function cookiePairs(headers: Headers) {
  return new Map(
    headers.getSetCookie().map((cookie) => {
      const pair = cookie.split(";")[0] ?? "";
      return [pair.slice(0, pair.indexOf("=")), pair] as const;
    }),
  );
}
