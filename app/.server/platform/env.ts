import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { keepDataDirectoryPrivate, makeNewFilesPrivate } from "./private-data";

/**
 * The operator's contract: every setting, checked at boot (docs/admin/operations.md, "Configuration"). This is the
 * only module that reads `process.env`; everything else imports `env`.
 */
/**
 * What Express's `trust proxy` takes, minus "trust everyone": a hop count (`1`
 * for one nginx in front), or the proxies' addresses and subnets (`10.0.0.0/8`,
 * `loopback`…). `true` or a subnet of every address would let any client pick
 * its own address by sending X-Forwarded-For, which defeats every limit per
 * address, so they stop the server with a message.
 */
const TRUST_PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"];

function isProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.includes(entry)) return true;
  const [address = "", bits, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  if (/^[0-9]{1,3}$/.test(bits)) {
    const prefix = Number(bits);
    return prefix >= 1 && prefix <= (family === 4 ? 32 : 128);
  }
  return family === 4 && isIP(bits) === 4 && bits !== "0.0.0.0";
}

const TrustProxySchema = z
  .string()
  .trim()
  .default("")
  .transform((value, context): false | number | string[] => {
    const lower = value.toLowerCase();
    if (["", "false", "0", "no", "off"].includes(lower)) return false;
    if (["true", "yes", "on", "all", "*"].includes(lower)) {
      context.addIssue({
        code: "custom",
        message:
          "must not trust every client (anyone could then choose their own address); set the number of proxies in front of Namecard, such as 1, or their addresses, such as 10.0.0.2 or 10.0.0.0/8",
      });
      return z.NEVER;
    }
    if (/^[0-9]+$/.test(lower)) {
      const hops = Number(lower);
      if (hops <= 10) return hops;
    }
    const entries = value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = entries.filter((entry) => !isProxyEntry(entry));
    if (bad.length || entries.length === 0) {
      context.addIssue({
        code: "custom",
        message: `must be a number of proxies (1 to 10) or a comma-separated list of proxy addresses or subnets (not ${bad.join(", ") || value})`,
      });
      return z.NEVER;
    }
    return entries;
  });

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  // An empty `PORT=` (as compose files and unit files often leave it) means the default.
  PORT: optionalString.pipe(
    z.coerce
      .number<string | undefined>({ message: "must be a port number from 1 to 65535" })
      .int("must be a port number from 1 to 65535")
      .min(1, "must be a port number from 1 to 65535")
      .max(65535, "must be a port number from 1 to 65535")
      .default(3000),
  ),
  // The address to listen on; unset means every interface, or loopback only when TRUST_PROXY is a hop count.
  HOST: optionalString.pipe(
    z
      .string()
      .refine((value) => isIP(value) !== 0, {
        message:
          "must be an IP address to listen on, such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)",
      })
      .optional(),
  ),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  DATABASE_PASSWORD: z.string().optional(),
  PUBLIC_URL: optionalString.pipe(
    z.url({ protocol: /^https?$/, message: "must be an absolute http(s) URL" }).optional(),
  ),
  ADMIN_EMAILS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ message: "must be a comma-separated list of email addresses" }))),
  AUTH_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
  ),
  MAIL_FROM: z.string().trim().default("Namecard <no-reply@localhost>"),
  S3_ENDPOINT: optionalString.pipe(
    z
      .url({
        protocol: /^https?$/,
        message: "must start with http:// or https:// (for example https://s3.example.com)",
      })
      .optional(),
  ),
  S3_BUCKET: optionalString,
  S3_REGION: z.string().trim().default("us-east-1"),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  TRUST_PROXY: TrustProxySchema,
  // Set by server/processes.js for each of several processes on one port: the slot (1, 2…) this one fills.
  NAMECARD_PROCESS_SLOT: optionalString.pipe(z.coerce.number<string | undefined>().int().min(1).default(1)),
  // …and how many there are.
  NAMECARD_PROCESSES: optionalString.pipe(z.coerce.number<string | undefined>().int().min(1).default(1)),
  // Seconds the server may stop answering before it ends itself so its supervisor starts it again; 0 turns it off.
  WATCHDOG_SECONDS: optionalString.pipe(
    z.coerce
      .number<string | undefined>({ message: "must be a whole number of seconds from 0 (off) to 3600" })
      .int("must be a whole number of seconds from 0 (off) to 3600")
      .min(0, "must be a whole number of seconds from 0 (off) to 3600")
      .max(3600, "must be a whole number of seconds from 0 (off) to 3600")
      .default(60),
  ),
  // Megabytes of DATA_DIR the embedded database keeps free: below it, changes are refused and pages still read.
  DISK_RESERVE_MB: optionalString.pipe(
    z.coerce
      .number<string | undefined>({ message: "must be a whole number of megabytes from 32 to 100000" })
      .int("must be a whole number of megabytes from 32 to 100000")
      .min(32, "must be a whole number of megabytes from 32 to 100000")
      .max(100_000, "must be a whole number of megabytes from 32 to 100000")
      .default(64),
  ),
});

export type Env = Readonly<
  Omit<z.infer<typeof EnvSchema>, "PUBLIC_URL" | "AUTH_SECRET" | "DATABASE_PASSWORD"> & {
    PUBLIC_URL: string;
    AUTH_SECRET: string;
    /** Whether AUTH_SECRET was generated into DATA_DIR rather than set: then only this machine knows it. */
    AUTH_SECRET_GENERATED: boolean;
    DATA_DIR: string;
  }
>;

/**
 * The warning for a hop count in TRUST_PROXY on an address others can reach:
 * whoever connects directly names their own client address in
 * X-Forwarded-For, and escapes every limit per address.
 */
export function forgedAddressWarning(settings: Pick<Env, "HOST" | "TRUST_PROXY" | "PORT">): string | null {
  if (typeof settings.TRUST_PROXY !== "number") return null;
  if (settings.HOST && isLoopback(settings.HOST)) return null;
  return `[config] TRUST_PROXY=${settings.TRUST_PROXY} believes whoever connects, and HOST=${settings.HOST ?? "(every interface)"} lets anyone connect: a client that reaches port ${settings.PORT} directly chooses its own address and escapes the limits per address. Set TRUST_PROXY to the proxies' addresses (such as 10.0.0.2), or HOST=127.0.0.1 with the proxy on this machine.`;
}

function isLoopback(address: string): boolean {
  return address === "::1" || /^127\./.test(address) || /^::ffff:127\./i.test(address);
}

export class EnvError extends Error {
  override name = "EnvError";
}

/**
 * Secrets that may be read from a file instead, named by `<NAME>_FILE`: how container
 * orchestrators hand secrets over (mounted files), so that they are in no environment
 * a process listing or an inspect command shows.
 */
const SECRETS_FROM_FILES = [
  "AUTH_SECRET",
  "DATABASE_URL",
  "DATABASE_PASSWORD",
  "SMTP_URL",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
] as const;

/** The environment with each `<NAME>_FILE` read into `<NAME>`: one file's content, its last line break dropped. */
function withSecretsFromFiles(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const settings = { ...source };
  for (const name of SECRETS_FROM_FILES) {
    const file = source[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (source[name]?.trim()) {
      throw new EnvError(`[config] ${name}_FILE: ${name} is set as well; set only one of them.`);
    }
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      throw new EnvError(
        `[config] ${name}_FILE: ${file} cannot be read by this user (${code}): check the path and that the file is readable by the user running Namecard.`,
      );
    }
    // Every line break at the end goes, as PostgreSQL's own image reads its password file.
    const value = text.replace(/[\r\n]+$/, "");
    // An empty file would quietly mean "not set": the embedded database instead of PostgreSQL, the outbox instead of mail.
    if (value === "") throw new EnvError(`[config] ${name}_FILE: ${file} is empty: put the value in it.`);
    settings[name] = value;
  }
  return settings;
}

/**
 * DATABASE_PASSWORD, when set, is the password of DATABASE_URL's user: a secret file can then
 * hold the password alone (as PostgreSQL's own image takes it) while the address stays in the
 * environment.
 */
function withDatabasePassword(databaseUrl: string | undefined, password: string | undefined): string | undefined {
  if (password === undefined || password === "") return databaseUrl;
  if (!databaseUrl) {
    throw new EnvError(
      "[config] DATABASE_PASSWORD: needs DATABASE_URL, the database whose user it is the password of.",
    );
  }
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    // The address is not printed: it may hold a password.
    throw new EnvError("[config] DATABASE_URL: is not a valid address (postgres://user@host:5432/database).");
  }
  if (!url.host) {
    throw new EnvError(
      "[config] DATABASE_PASSWORD: DATABASE_URL names no host to give the password for; put the password in the address instead.",
    );
  }
  if (url.password) {
    throw new EnvError(
      "[config] DATABASE_PASSWORD: DATABASE_URL holds a password already; leave it out of the address or unset DATABASE_PASSWORD.",
    );
  }
  url.password = encodeURIComponent(password);
  return url.toString();
}

/** Parses an environment; throws an `EnvError` naming each bad variable. */
export function parseEnv(environment: NodeJS.ProcessEnv): Env {
  // Before anything is written: the database, the outbox, a secret or a backup.
  makeNewFilesPrivate();
  const source = withSecretsFromFiles(environment);
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `[config] ${String(issue.path[0] ?? "(environment)")}: ${issue.message}`,
    );
    throw new EnvError(lines.join("\n"));
  }
  const parsed = result.data;
  const s3Keys = ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;
  const s3Set = s3Keys.filter((key) => parsed[key] !== undefined);
  if (s3Set.length > 0 && s3Set.length < s3Keys.length) {
    const missing = s3Keys.filter((key) => parsed[key] === undefined);
    throw new EnvError(missing.map((key) => `[config] ${key}: required when any S3_* variable is set`).join("\n"));
  }

  const { DATABASE_PASSWORD, ...settings } = parsed;
  const databaseUrl = withDatabasePassword(settings.DATABASE_URL, DATABASE_PASSWORD);
  const dataDir = path.resolve(parsed.DATA_DIR);
  if (dataDirectoryInUse({ ...settings, DATABASE_URL: databaseUrl })) checkDataDirectory(dataDir);
  return Object.freeze({
    ...settings,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    // A hop count believes whoever connects: only the proxy on this machine may connect, unless HOST says otherwise.
    HOST: parsed.HOST ?? (typeof parsed.TRUST_PROXY === "number" ? "127.0.0.1" : undefined),
    PUBLIC_URL: (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ""),
    AUTH_SECRET: parsed.AUTH_SECRET ?? readOrCreateSecret(dataDir),
    AUTH_SECRET_GENERATED: parsed.AUTH_SECRET === undefined,
  });
}

/** Whether anything is kept in DATA_DIR: the embedded database, uploads on disk, the mail outbox or a generated secret. */
export function dataDirectoryInUse(
  settings: Pick<Env, "DATABASE_URL" | "S3_ENDPOINT" | "SMTP_URL"> & { AUTH_SECRET?: string | undefined },
) {
  return !settings.DATABASE_URL || !settings.S3_ENDPOINT || !settings.SMTP_URL || !settings.AUTH_SECRET;
}

/**
 * What the embedded database needs free to start at all: one segment of its
 * write-ahead log. Between this and DISK_RESERVE_MB it starts, and refuses
 * changes until space is freed (app/.server/platform/disk-space.ts).
 */
const START_MIN_FREE_BYTES = 16 * 1024 * 1024;

const inMegabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The one line for a DATA_DIR whose disk is full, whichever step of the start found it. */
export function fullDiskMessage(dataDir: string): string {
  let free = "";
  try {
    const space = fs.statfsSync(dataDir);
    free = ` (${inMegabytes(space.bavail * space.bsize)} free; Namecard needs ${inMegabytes(START_MIN_FREE_BYTES)} to start)`;
  } catch {
    // The figures are a courtesy: the line stands without them.
  }
  return `[config] DATA_DIR: ${dataDir} is on a full disk${free}: free some space, or point DATA_DIR at another disk.`;
}

/** Whether DATA_DIR's disk has room for the embedded database to start (a backup made by reading it needs none). */
export function hasRoomToStart(dataDir: string): boolean {
  const space = fs.statfsSync(dataDir);
  return space.bavail * space.bsize >= START_MIN_FREE_BYTES;
}

/** DATA_DIR must be a folder this user can write: checked at start, so no request finds out later. */
function checkDataDirectory(dataDir: string) {
  const fault = (what: string) => new EnvError(`[config] DATA_DIR: ${dataDir} ${what}`);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    if (!fs.statSync(dataDir).isDirectory()) throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
    const probe = path.join(dataDir, `.write-check-${process.pid}`);
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
    keepDataDirectoryPrivate(dataDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR" || code === "EEXIST") {
      throw fault("is not a folder (a file is in the way): point DATA_DIR at a folder; it is created when missing.");
    }
    if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
      const user = process.getuid?.() === undefined ? "this user" : `this user (uid ${process.getuid?.()})`;
      throw fault(
        `cannot be written by ${user} (${code}): make it writable for the user running Namecard, or point DATA_DIR elsewhere.`,
      );
    }
    if (code === "ENOSPC") throw new EnvError(fullDiskMessage(dataDir));
    throw error;
  }
}

const SECRET_FILE = "auth-secret";

/** A secret generated once and kept in DATA_DIR, so sessions survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  try {
    const kept = fs.readFileSync(file, "utf8").trim();
    if (kept) return kept;
    // Left empty by a start that ran out of disk space: no session was ever signed with it.
    fs.rmSync(file, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Another process won the race: use its secret.
    if (code === "EEXIST") return fs.readFileSync(file, "utf8").trim();
    fs.rmSync(file, { force: true });
    if (code === "ENOSPC") {
      throw new EnvError(fullDiskMessage(dataDir));
    }
    throw error;
  }
}

export const env: Env = parseEnv(process.env);
