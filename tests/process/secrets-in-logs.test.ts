import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addressOf, ROUTES } from "../security/hostile-input";
import { latestMail } from "../support/outbox";
import { ON_POSTGRES } from "../support/process-suite";
import { SERVER_BUILT, type ServerProcess, signedInMember, startServer, stop } from "../support/server-process";

/**
 * What the built server writes to its output (stdout and stderr, as a service
 * manager keeps them) when secrets reach it: link tokens in paths and queries,
 * a provider's code and state, a SAML RelayState, a SCIM token in the address,
 * any `token=`, `code=` or `state=` on any route. None may appear on any line
 * (docs/decisions/039-no-secrets-in-logs.md); what the lines still show is
 * checked too, so the log stays of use.
 */

const ADMIN = "admin@example.com";
/** Distinctive, and shaped like a real link token, so it gets as far into the code as a real one. */
const SECRET = `LogLeak${randomBytes(16).toString("hex")}`;
const NEW_PASSWORD = "Kettle harbour violet 1947 lantern";

type Sent = { method?: string; path: string; headers?: Record<string, string>; body?: string };

if (!SERVER_BUILT) console.warn("SKIPPED: the secrets-in-logs tests need `npm run build` first");

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("secrets sent to the server never reach its log", () => {
  let server: ServerProcess;
  let cookie: string;
  let markers = 0;
  /** The origin of the address the requests go to, as a browser on it sends (React Router compares it with Host). */
  const origin = () => `http://127.0.0.1:${server.port}`;

  /** One request with its path exactly as written (fetch would resolve `..` and `\`), its answer read to the end. */
  function send({ method = "GET", path: target, headers = {}, body }: Sent): Promise<number> {
    return new Promise((resolve, reject) => {
      const sent = { ...headers };
      if (body !== undefined) sent["content-length"] = String(Buffer.byteLength(body));
      const request = http.request({ host: "127.0.0.1", port: server.port, method, path: target, headers: sent });
      request.on("response", (response) => {
        // An event stream never ends by itself: its headers are answer enough.
        if (String(response.headers["content-type"]).startsWith("text/event-stream")) {
          response.destroy();
          resolve(response.statusCode ?? 0);
          return;
        }
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      });
      request.on("error", reject);
      request.end(body);
    });
  }

  const form = (fields: Record<string, string>) => ({
    headers: { "content-type": "application/x-www-form-urlencoded", origin: origin() },
    body: new URLSearchParams(fields).toString(),
  });
  const json = (fields: Record<string, unknown>) => ({
    headers: { "content-type": "application/json", origin: origin() },
    body: JSON.stringify(fields),
  });

  /**
   * Waits until every request sent so far has its line in the log: a request
   * sent after them is logged after them.
   */
  async function logged() {
    markers += 1;
    await send({ path: `/healthz?marker${markers}` });
    await server.waitForOutput(new RegExp(`GET /healthz\\?marker${markers} 200 `));
  }

  /** Where this test's part of the output starts: a leak is reported by the test that caused it. */
  let start = 0;
  /** The lines of this test's output (or all of it, `from` 0) that hold the secret, stdout and stderr alike. */
  const linesWith = (secret: string, from = start) =>
    server
      .output()
      .slice(from)
      .split("\n")
      .filter((line) => line.includes(secret));

  beforeAll(async () => {
    // The server runs as an operator's would, with better-auth's origin checks, whose warnings quote addresses.
    server = await startServer();
    cookie = await signedInMember(server, ADMIN, { first: "Ada", last: "Admin" });
  }, 180_000);
  afterAll(() => stop(server));
  beforeEach(() => {
    start = server.output().length;
  });
  afterEach((context) => {
    // Straight to stderr (the tests' console refuses unexpected errors): a failure seen only in CI has nothing else.
    if (context.task.result?.state !== "pass") {
      process.stderr.write(
        `[secrets-in-logs] "${context.task.name}" failed; the server's output:\n${server.output()}\n`,
      );
    }
  });

  it("link tokens in a path or a query (reset, confirmation, invitation, card address, stop link) are not logged", async () => {
    const withToken = form({ token: SECRET, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    const requests: Sent[] = [
      { path: `/api/auth/reset-password/${SECRET}?callbackURL=%2Fauth%2Freset-password` },
      { path: `/auth/reset-password?token=${SECRET}` },
      { path: `/auth/reset-password.data?token=${SECRET}` },
      { method: "POST", path: `/auth/reset-password?token=${SECRET}`, ...withToken },
      { method: "POST", path: "/api/auth/reset-password", ...json({ token: SECRET, newPassword: NEW_PASSWORD }) },
      { path: `/api/auth/verify-email?token=${SECRET}&callbackURL=%2F` },
      { path: `/api/auth/confirm-email?token=${SECRET}` },
      { method: "POST", path: "/api/auth/confirm-email", ...json({ token: SECRET, password: NEW_PASSWORD }) },
      { path: `/auth/confirm?token=${SECRET}` },
      { path: `/auth/invitation?token=${SECRET}` },
      { method: "POST", path: `/auth/invitation?token=${SECRET}`, ...withToken },
      { method: "POST", path: "/api/auth/accept-invitation", ...json({ token: SECRET, password: NEW_PASSWORD }) },
      { path: `/account/card-email?token=${SECRET}`, headers: { cookie } },
      {
        method: "POST",
        path: `/account/card-email?token=${SECRET}`,
        headers: { ...form({}).headers, cookie },
        body: form({ token: SECRET }).body,
      },
      { path: `/invitations/stop?card=00000000-0000-4000-8000-000000000000&key=${SECRET}` },
      {
        method: "POST",
        path: `/invitations/stop?card=00000000-0000-4000-8000-000000000000&key=${SECRET}`,
        ...form({ "List-Unsubscribe": "One-Click" }),
      },
    ];
    for (const request of requests) await send(request);
    await logged();

    expect(linesWith(SECRET)).toEqual([]);
    expect(server.output()).toMatch(/GET \/api\/auth\/reset-password\/\*\*\*\?callbackURL=\*\*\* \d{3} /);
    expect(server.output()).toMatch(/GET \/invitations\/stop\?card=\*\*\*&key=\*\*\* \d{3} /);
  });

  it("the auth API's path shows its endpoint's words, never a token, however the path is spelled", async () => {
    const spellings = [
      `/API/AUTH/reset-password/${SECRET}`,
      `/%61pi/auth/reset-password/${SECRET}`,
      `/profile/x/../../api/auth/reset-password/${SECRET}`,
      `/profile/%2e%2e/api/auth/reset-password/${SECRET}`,
      `/api\\auth\\reset-password\\${SECRET}`,
      `/api/auth/reset-password/${SECRET}/`,
      `/api/auth/reset-password%2F${SECRET}`,
      `/api/auth/${SECRET}`,
      `/api/auth/reset-password/${SECRET}#token=${SECRET}`,
    ];
    for (const spelling of spellings) await send({ path: spelling });
    await logged();

    expect(linesWith(SECRET)).toEqual([]);
    expect(server.output()).toMatch(/GET \/api\/auth\/\*\*\* \d{3} /);
  });

  it("a provider's code and state, and a SAML RelayState, are not logged", async () => {
    const samlResponse = Buffer.from("<x/>").toString("base64");
    await send({ path: `/api/auth/sso/callback?code=${SECRET}&state=${SECRET}&iss=https%3A%2F%2Fidp.example.com` });
    await send({ path: `/api/auth/sso/callback?error=access_denied&error_description=${SECRET}&state=${SECRET}` });
    await send({
      method: "POST",
      path: "/sso/saml/acs",
      headers: { origin: "https://idp.example.com", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: SECRET }).toString(),
    });
    await send({ path: `/sso/saml/acs?SAMLResponse=${SECRET}&RelayState=${SECRET}` });
    await send({ path: `/sso/saml/metadata?RelayState=${SECRET}` });
    await logged();
    // Both refusals are said, with their reason.
    await server.waitForOutput(/\[sso\] a provider: sign-in refused \(expired\)/);
    await server.waitForOutput(/\[sso\] a SAML provider: answer refused/);

    expect(linesWith(SECRET)).toEqual([]);
    expect(server.output()).toMatch(/GET \/api\/auth\/sso\/callback\?code=\*\*\*&state=\*\*\*&iss=\*\*\* \d{3} /);
  });

  it("a SCIM token sent in the address is refused, and not logged", async () => {
    const token = `namecard_scim_${SECRET}`;
    expect(await send({ path: `/scim/v2/Users?access_token=${token}` })).toBe(401);
    expect(await send({ path: `/scim/v2/Users?token=${token}` })).toBe(401);
    expect(await send({ path: "/scim/v2/Users", headers: { authorization: `Bearer ${token}` } })).toBe(401);
    await logged();

    expect(linesWith(SECRET)).toEqual([]);
    expect(server.output()).toContain("GET /scim/v2/Users?access_token=*** 401 ");
  });

  it("a token, code or state on any route, an unknown one or a static file, is not logged", async () => {
    const query = `token=${SECRET}&code=${SECRET}&state=${SECRET}`;
    const addresses = [
      ...ROUTES.map((route) => addressOf(route.path)),
      "/no-such-page",
      "/favicon.svg",
      "/assets/no-such-file.js",
      "/healthz",
    ];
    for (const address of addresses) {
      await send({ path: `${address}?${query}` });
      await send({ path: `${address}?${query}`, headers: { cookie } });
    }
    await logged();

    expect(linesWith(SECRET)).toEqual([]);
    expect(server.output()).toContain("GET /no-such-page?token=***&code=***&state=*** 404 ");
    expect(server.output()).toContain("GET /favicon.svg?token=***&code=***&state=*** 200 ");
    expect(server.output()).toContain("GET /assets/no-such-file.js?token=***&code=***&state=*** 404 ");
  }, 120_000);

  it("addresses quoted in better-auth's warnings (a refused callback, an origin read from a Referer) show no query value", async () => {
    const elsewhere = `https://elsewhere.example/welcome?token=${SECRET}`;
    await send({
      method: "POST",
      path: "/api/auth/sign-in/email",
      ...json({ email: "nobody@example.com", password: "wrong password", callbackURL: elsewhere }),
    });
    // A request with a cookie and only a Referer: better-auth checks the origin it reads from the Referer.
    await send({
      method: "POST",
      path: "/api/auth/sign-out",
      headers: { cookie: "namecard.session_token=none", referer: elsewhere, "content-type": "application/json" },
      body: "{}",
    });
    await server.waitForOutput(/Invalid callbackURL: https:\/\/elsewhere\.example\/welcome\?token=\*\*\*/);
    await server.waitForOutput(/Invalid origin: https:\/\/elsewhere\.example\/welcome\?token=\*\*\*/);
    await logged();

    expect(linesWith(SECRET)).toEqual([]);
  });

  // Last: a reset ends the account's sessions, the signed-in requests above included.
  it("a password reset, from its mail to the new password, leaves its token out of the log", async () => {
    const confirmation = latestMail(path.join(server.dataDir, "mail"), ADMIN)?.link;
    const confirmationToken = new URL(confirmation ?? "http://x").searchParams.get("token");
    expect(confirmationToken, "the confirmation link's token").toBeTruthy();

    expect(await send({ method: "POST", path: "/api/auth/request-password-reset", ...json({ email: ADMIN }) })).toBe(
      200,
    );
    // The mail leaves after the answer.
    const written = await server.waitForOutput(/\[mail\] "[^"\n]*" to admin@example\.com written to [^\n]*reset[^\n]*/);
    const link = new URL(latestMail(path.join(server.dataDir, "mail"), ADMIN)?.link ?? "http://x");
    expect(link.pathname).toBe("/auth/reset-password");
    const token = link.searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThan(20);

    expect(await send({ path: `${link.pathname}${link.search}` })).toBe(200);
    const reset = form({ token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(await send({ method: "POST", path: `${link.pathname}${link.search}`, ...reset })).toBe(302);
    await logged();

    // The whole output, from the start: the confirmation link was opened before this test.
    expect(linesWith(token, 0)).toEqual([]);
    expect(linesWith(confirmationToken ?? "", 0)).toEqual([]);
    // The operator still sees the mail's file and the page its link opens, and each request.
    expect(written).toContain("/auth/reset-password?token=***");
    expect(server.output()).toContain("GET /auth/reset-password?token=*** 200 ");
    expect(server.output()).toContain("POST /auth/reset-password?token=*** 302 ");
    expect(server.output()).toMatch(/GET \/api\/auth\/confirm-email\?token=\*\*\* 302 /);
  });

  it("the pages' own paths carry no secret: their parameters are card names, ids and upload keys", () => {
    // A new parameter here is a decision: a secret in a path is shown unless the rule hides it.
    const parameters = new Set(
      ROUTES.flatMap((route) =>
        route.path.split("/").flatMap((part) => (part.startsWith(":") ? [part] : part === "*" ? [route.path] : [])),
      ),
    );
    expect([...parameters].sort()).toEqual(["*", ":id", ":username", "api/auth/*", "uploads/*"]);
  });
});
