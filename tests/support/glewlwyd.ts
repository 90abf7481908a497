import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server-process";

/**
 * Glewlwyd, an OpenID Connect provider nobody on this project wrote (Debian's
 * `glewlwyd` package), on 127.0.0.1 with an SQLite database made from the
 * package's own schema. It is set up through its administration API exactly as
 * docs/admin/providers/glewlwyd.md tells an administrator to set it up on its
 * pages: the OpenID Connect plugin with the values its page starts from, and
 * only what the guide changes; a client; people.
 */
const BINARY = "/usr/bin/glewlwyd";
const SCHEMA = "/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3";
const CONFIG_TEMPLATE = "/usr/share/glewlwyd/templates/glewlwyd-debian.conf.properties";
/** The administration page, whose "add plugin" form starts from these values. */
const ADMIN_PAGE_SCRIPT = "/usr/share/glewlwyd/webapp/admin.js";
/** Debian's Python, whose sqlite3 module makes the database (the machine may have no sqlite3 program). */
const PYTHON = "/usr/bin/python3";

/** Whether Glewlwyd is installed (`.ci/run` installs it). */
export function glewlwydInstalled(): boolean {
  return [BINARY, SCHEMA, CONFIG_TEMPLATE, ADMIN_PAGE_SCRIPT].every((file) => fs.existsSync(file));
}

/**
 * The OpenID Connect plugin's settings as Glewlwyd's own administration page
 * fills in a new one: read from the page's script, so that the test starts
 * from Glewlwyd's defaults, not from ours.
 */
function pluginPageDefaults(): Record<string, unknown> {
  const script = fs.readFileSync(ADMIN_PAGE_SCRIPT, "utf8");
  const start = script.indexOf('{"oauth-as-iss-id":');
  if (start < 0) throw new Error("the OpenID Connect plugin's defaults were not found in Glewlwyd's page");
  let depth = 0;
  let end = start;
  for (; end < script.length; end++) {
    if (script[end] === "{") depth++;
    else if (script[end] === "}" && --depth === 0) break;
  }
  // A minified object literal (`!0` for true, unquoted keys): evaluated as the page does.
  return new Function(`return ${script.slice(start, end + 1)}`)() as Record<string, unknown>;
}

type Jar = Map<string, string>;

function remember(jar: Jar, headers: Headers) {
  for (const cookie of headers.getSetCookie()) {
    const [pair = ""] = cookie.split(";");
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

function cookieOf(jar: Jar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

export type Glewlwyd = Awaited<ReturnType<typeof startGlewlwyd>>;

export async function startGlewlwyd() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-glewlwyd-"));
  const database = path.join(folder, "glewlwyd.db");
  const made = spawnSync(PYTHON, [
    "-c",
    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.commit()",
    database,
    SCHEMA,
  ]);
  if (made.status !== 0) throw new Error(`Glewlwyd's database could not be made: ${made.stderr}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = fs
    .readFileSync(CONFIG_TEMPLATE, "utf8")
    .replace(/^port=\d+/m, `port=${port}`)
    .replace("_G_EXTRNAL_URL_", base)
    .replace(/^log_mode=.*$/m, 'log_mode="console"')
    .replace(/^log_level=.*$/m, 'log_level="WARNING"')
    .replace(/^@include .*glewlwyd-db\.conf"$/m, `database = { type = "sqlite3" path = "${database}" }`);
  const configFile = path.join(folder, "glewlwyd.conf");
  fs.writeFileSync(configFile, config);
  const child: ChildProcess = spawn(BINARY, [`--config-file=${configFile}`], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const ended = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`Glewlwyd ended (${code}): ${output}`))),
  );
  ended.catch(() => {});
  // Started once its API answers.
  for (;;) {
    const answered = await Promise.race([
      fetch(`${base}/api/`).then(
        () => true,
        () => false,
      ),
      ended,
    ]);
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** The administrator's browser: Glewlwyd's own "admin" account, password "password" as installed. */
  const adminJar: Jar = new Map();
  async function api(jar: Jar, method: string, route: string, body?: unknown) {
    const response = await fetch(`${base}/api${route}`, {
      method,
      headers: { cookie: cookieOf(jar), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    remember(jar, response.headers);
    if (!response.ok)
      throw new Error(`Glewlwyd answered ${method} ${route} with ${response.status}: ${await response.text()}`);
    return response;
  }
  await api(adminJar, "POST", "/auth/", { username: "admin", password: "password" });

  const issuer = `${base}/api/oidc`;
  const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...keys.privateKey.export({ format: "jwk" }), kid: "namecard-test", alg: "RS256", use: "sig" };

  return {
    issuer,
    /**
     * The guide's steps on Glewlwyd's pages: the scopes `email` and `profile`; the OpenID
     * Connect plugin named `oidc` with its issuer, a signing key, the e-mail and name claims
     * "mandatory" and those scopes allowed (everything else as the page starts it); and a
     * confidential client for Namecard with its redirect URI, the code flow and its secret
     * sent either way.
     */
    async configure(client: { clientId: string; secret: string; redirectUri: string }) {
      for (const scope of ["email", "profile"]) {
        await api(adminJar, "POST", "/scope/", {
          name: scope,
          display_name: scope,
          description: `OpenID Connect's ${scope} scope`,
          password_required: false,
          scheme: {},
        });
      }
      await api(adminJar, "POST", "/mod/plugin/", {
        module: "oidc",
        name: "oidc",
        display_name: "OpenID Connect",
        enabled: true,
        parameters: {
          ...pluginPageDefaults(),
          iss: issuer,
          "jwks-private": JSON.stringify({ keys: [jwk] }),
          "default-kid": "namecard-test",
          "email-claim": "mandatory",
          "name-claim": "mandatory",
          "allowed-scope": ["openid", "email", "profile"],
        },
      });
      await api(adminJar, "POST", "/client/", {
        client_id: client.clientId,
        name: "Namecard",
        description: "",
        confidential: true,
        password: client.secret,
        redirect_uri: [client.redirectUri],
        authorization_type: ["code"],
        // Glewlwyd refuses a confidential client at its token endpoint until a method is ticked.
        token_endpoint_auth_method: ["client_secret_basic", "client_secret_post"],
        scope: [],
        enabled: true,
      });
    },
    /** A person of the company, as the administrator adds them on the Users page. */
    async addUser(user: { username: string; name: string; email: string; password: string }) {
      await api(adminJar, "POST", "/user/", {
        ...user,
        scope: ["openid", "email", "profile"],
        enabled: true,
      });
    },
    /**
     * What the person does on Glewlwyd's sign-in page, which the provider sends the browser to
     * first: signs in with their password and allows Namecard the scopes it asked for; then the
     * page goes on to the address it was given, with `g_continue` added. Returns that address.
     */
    async signInOnItsPage(loginPage: string, user: { username: string; password: string }, clientId: string) {
      const page = new URL(loginPage);
      const next = page.searchParams.get("callback_url");
      const scope = page.searchParams.get("scope");
      if (!page.pathname.endsWith("/login.html") || !next || !scope) {
        throw new Error(`Glewlwyd did not send the browser to its sign-in page: ${loginPage}`);
      }
      const jar: Jar = new Map();
      await api(jar, "POST", "/auth/", { username: user.username, password: user.password });
      await api(jar, "PUT", `/auth/grant/${encodeURIComponent(clientId)}`, { scope });
      return { next: `${next}&g_continue`, cookie: cookieOf(jar) };
    },
    async close() {
      child.kill("SIGTERM");
      await ended.catch(() => {});
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
