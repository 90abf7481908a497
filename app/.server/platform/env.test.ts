import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EnvError, forgedAddressWarning, parseEnv } from "./env";

/** The temporary folders this file made, removed once it is done. */
const made: string[] = [];
function madeDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  return madeDir("namecard-env-");
}

describe("configuration", () => {
  it("starts with the documented defaults", () => {
    const dir = tempDir();
    const env = parseEnv({ DATA_DIR: dir });
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: dir,
      PUBLIC_URL: "http://localhost:3000",
      ADMIN_EMAILS: [],
      TRUST_PROXY: false,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(Object.isFrozen(env)).toBe(true);
  });

  it("derives the public URL from the port and trims a trailing slash", () => {
    const dir = tempDir();
    expect(parseEnv({ DATA_DIR: dir, PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(parseEnv({ DATA_DIR: dir, PUBLIC_URL: "https://cards.example.com/" }).PUBLIC_URL).toBe(
      "https://cards.example.com",
    );
  });

  it("reads administrator addresses as a trimmed, lower-case list", () => {
    const env = parseEnv({ DATA_DIR: tempDir(), ADMIN_EMAILS: " Boss@Example.com, ops@example.com ,," });
    expect(env.ADMIN_EMAILS).toEqual(["boss@example.com", "ops@example.com"]);
  });

  it.each([
    ["PORT", "eighty", "PORT"],
    ["PORT", "70000", "PORT"],
    ["DATABASE_URL", "mysql://localhost/db", "DATABASE_URL"],
    ["PUBLIC_URL", "cards.example.com", "PUBLIC_URL"],
    ["ADMIN_EMAILS", "boss@example.com, not-an-address", "ADMIN_EMAILS"],
    ["SMTP_URL", "http://mail.example.com", "SMTP_URL"],
    ["TRUST_PROXY", "maybe", "TRUST_PROXY"],
    ["TRUST_PROXY", "true", "TRUST_PROXY"],
    ["TRUST_PROXY", "yes", "TRUST_PROXY"],
    ["TRUST_PROXY", "0.0.0.0/0", "TRUST_PROXY"],
    ["TRUST_PROXY", "::/0", "TRUST_PROXY"],
    ["TRUST_PROXY", "10.0.0.1, evil", "TRUST_PROXY"],
    ["TRUST_PROXY", "99", "TRUST_PROXY"],
    ["AUTH_SECRET", "too-short", "AUTH_SECRET"],
  ])("stops with a message naming %s when it is %j", (name, value, named) => {
    expect(() => parseEnv({ DATA_DIR: tempDir(), [name]: value })).toThrow(EnvError);
    expect(() => parseEnv({ DATA_DIR: tempDir(), [name]: value })).toThrow(new RegExp(`${named}:`));
  });

  it("refuses to trust every client's X-Forwarded-For, and says what to set instead", () => {
    expect(() => parseEnv({ DATA_DIR: tempDir(), TRUST_PROXY: "true" })).toThrow(
      /TRUST_PROXY: must not trust every client .* such as 1/,
    );
  });

  it.each([
    ["", false],
    ["false", false],
    ["1", 1],
    ["2", 2],
    ["loopback", ["loopback"]],
    ["10.0.0.2", ["10.0.0.2"]],
    ["10.0.0.0/8, 192.168.1.5,::1", ["10.0.0.0/8", "192.168.1.5", "::1"]],
    ["172.16.0.0/255.240.0.0", ["172.16.0.0/255.240.0.0"]],
    ["fd00::/8", ["fd00::/8"]],
  ])("takes TRUST_PROXY=%j as Express's trust proxy %j", (value, expected) => {
    expect(parseEnv({ DATA_DIR: tempDir(), TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it("listens on loopback only when a hop count is trusted, unless HOST says otherwise", () => {
    expect(parseEnv({ DATA_DIR: tempDir() }).HOST).toBeUndefined();
    expect(parseEnv({ DATA_DIR: tempDir(), TRUST_PROXY: "1" }).HOST).toBe("127.0.0.1");
    expect(parseEnv({ DATA_DIR: tempDir(), TRUST_PROXY: "10.0.0.2" }).HOST).toBeUndefined();
    expect(parseEnv({ DATA_DIR: tempDir(), TRUST_PROXY: "1", HOST: "0.0.0.0" }).HOST).toBe("0.0.0.0");
    expect(() => parseEnv({ DATA_DIR: tempDir(), HOST: "every interface" })).toThrow(
      /HOST: must be an IP address to listen on/,
    );
  });

  it.each([
    [{ TRUST_PROXY: "1" }, false],
    [{ TRUST_PROXY: "1", HOST: "::1" }, false],
    [{ TRUST_PROXY: "10.0.0.2" }, false],
    [{}, false],
    [{ TRUST_PROXY: "1", HOST: "0.0.0.0" }, true],
    [{ TRUST_PROXY: "2", HOST: "192.168.1.10" }, true],
  ])("with %j a forged client address is warned about at start: %s", (settings, warned) => {
    const warning = forgedAddressWarning(parseEnv({ DATA_DIR: tempDir(), ...settings }));
    expect(warning !== null).toBe(warned);
    if (warning) expect(warning).toMatch(/chooses its own address .* Set TRUST_PROXY to the proxies' addresses/);
  });

  it("reads secrets from the files a container orchestrator mounts, without their last line break", () => {
    const dir = tempDir();
    const secrets = madeDir("namecard-secrets-");
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(secrets, name), text);
      return path.join(secrets, name);
    };
    const env = parseEnv({
      DATA_DIR: dir,
      AUTH_SECRET_FILE: write("auth", "a-secret-of-at-least-thirty-two-characters\n"),
      DATABASE_URL: "postgres://namecard@db.internal:5432/namecard",
      DATABASE_PASSWORD_FILE: write("password", "p@ss:w/rd#1 \n\n"),
      SMTP_URL_FILE: write("smtp", "smtps://mailer:secret@smtp.example.com:465\r\n"),
      S3_ENDPOINT: "http://storage:9000",
      S3_BUCKET: "namecard",
      S3_ACCESS_KEY_ID_FILE: write("key", "namecard"),
      S3_SECRET_ACCESS_KEY_FILE: write("secret", "s3 secret\n"),
    });
    expect(env.AUTH_SECRET).toBe("a-secret-of-at-least-thirty-two-characters");
    expect(env.AUTH_SECRET_GENERATED).toBe(false);
    // The password is the file's whole first line (its trailing space too), encoded into the address.
    expect(env.DATABASE_URL).toBe("postgres://namecard:p%40ss%3Aw%2Frd%231%20@db.internal:5432/namecard");
    expect(decodeURIComponent(new URL(env.DATABASE_URL!).password)).toBe("p@ss:w/rd#1 ");
    expect(env.SMTP_URL).toBe("smtps://mailer:secret@smtp.example.com:465");
    expect(env.S3_ACCESS_KEY_ID).toBe("namecard");
    expect(env.S3_SECRET_ACCESS_KEY).toBe("s3 secret");
    expect(Object.keys(env)).not.toContain("DATABASE_PASSWORD");
  });

  it("stops with one line when a secret's file is missing, doubled by its variable, or a password has no address", () => {
    const dir = tempDir();
    const missing = path.join(tempDir(), "nothing-here");
    expect(() => parseEnv({ DATA_DIR: dir, AUTH_SECRET_FILE: missing })).toThrow(
      new EnvError(
        `[config] AUTH_SECRET_FILE: ${missing} cannot be read by this user (ENOENT): check the path and that the file is readable by the user running Namecard.`,
      ),
    );
    const file = path.join(tempDir(), "secret");
    fs.writeFileSync(file, "a-secret-of-at-least-thirty-two-characters");
    expect(() => parseEnv({ DATA_DIR: dir, AUTH_SECRET: "x".repeat(40), AUTH_SECRET_FILE: file })).toThrow(
      /^\[config\] AUTH_SECRET_FILE: AUTH_SECRET is set as well; set only one of them\.$/,
    );
    expect(() => parseEnv({ DATA_DIR: dir, DATABASE_PASSWORD: "secret" })).toThrow(
      /^\[config\] DATABASE_PASSWORD: needs DATABASE_URL/,
    );
    expect(() =>
      parseEnv({ DATA_DIR: dir, DATABASE_URL: "postgres://u:already@h/db", DATABASE_PASSWORD: "secret" }),
    ).toThrow(/^\[config\] DATABASE_PASSWORD: DATABASE_URL holds a password already/);
    // An empty file is not a value: the server would quietly run without the setting.
    fs.writeFileSync(file, "\n");
    expect(() => parseEnv({ DATA_DIR: dir, DATABASE_URL_FILE: file })).toThrow(
      `[config] DATABASE_URL_FILE: ${file} is empty: put the value in it.`,
    );
    expect(() =>
      parseEnv({ DATA_DIR: dir, DATABASE_URL: "postgres://u@[bad/db", DATABASE_PASSWORD: "secret" }),
    ).toThrow(/^\[config\] DATABASE_URL: is not a valid address \(postgres:\/\/user@host:5432\/database\)\.$/);
    // A secret read from a file is checked as if it had been set directly.
    fs.writeFileSync(file, "short\n");
    expect(() => parseEnv({ DATA_DIR: dir, AUTH_SECRET_FILE: file })).toThrow(
      "[config] AUTH_SECRET: must be at least 32 characters",
    );
  });

  it("asks for the whole S3 set when only part of it is given", () => {
    expect(() => parseEnv({ DATA_DIR: tempDir(), S3_BUCKET: "cards" })).toThrow(/S3_ENDPOINT: required/);
  });

  it("generates the auth secret once into DATA_DIR and reuses it after a restart", () => {
    const dir = tempDir();
    const first = parseEnv({ DATA_DIR: dir }).AUTH_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.readFileSync(path.join(dir, "auth-secret"), "utf8").trim()).toBe(first);
    expect(parseEnv({ DATA_DIR: dir }).AUTH_SECRET).toBe(first);
    expect(parseEnv({ DATA_DIR: dir, AUTH_SECRET: "x".repeat(40) }).AUTH_SECRET).toBe("x".repeat(40));
  });
});
