import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { contentsOf, filesIn } from "../support/database-contents";
import { startOidcProvider, type TestProvider } from "../support/oidc-provider";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import {
  freePort,
  migratedDataDir,
  runScript,
  SERVER_BUILT,
  type ServerProcess,
  scratchDir,
  serverEnv,
  signedInMember,
  startServer,
  stop,
} from "../support/server-process";

/**
 * An installation moved by backup and restore to a server with another
 * AUTH_SECRET (docs/decisions/012-backups.md): the archive is refused until
 * the operator trusts it, and then the secrets sealed under the old
 * AUTH_SECRET (a single sign-on client secret, the wallet keys) do not open.
 * The server that then takes traffic answers each request that needs one
 * plainly, the restore and the settings pages tell the administrator what to
 * enter again, and once entered it all works; provisioning tokens, kept only
 * as a plain digest, go on working.
 */

const started = startedProcesses("the restored-secrets tests");
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const OTHER_SECRET = "a-new-server-with-its-own-secret-0123456789";
const PASSWORD = "process password";
const PASS_TYPE = "pass.com.example.namecard";
const TEAM = "ABCDE12345";
const P12_PASSWORD = "p12 password";

/** Apple's side made here by OpenSSL: a stand-in WWDR authority and a pass type certificate it issued. */
function appleCertificates() {
  const dir = scratchDir("namecard-pkpass-");
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "wwdr.key",
    "-out",
    "wwdr.pem",
    "-days",
    "30",
    "-subj",
    "/CN=Worldwide Developer Relations/O=Test",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  openssl("x509", "-in", "wwdr.pem", "-outform", "DER", "-out", "wwdr.cer");
  const subject = `/UID=${PASS_TYPE}/CN=Pass Type ID: ${PASS_TYPE}/OU=${TEAM}/O=Example Ltd`;
  openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "signer.key", "-out", "signer.csr", "-subj", subject);
  openssl(
    "x509",
    "-req",
    "-in",
    "signer.csr",
    "-CA",
    "wwdr.pem",
    "-CAkey",
    "wwdr.key",
    "-CAcreateserial",
    "-out",
    "signer.pem",
    "-days",
    "30",
  );
  openssl(
    "pkcs12",
    "-export",
    "-inkey",
    "signer.key",
    "-in",
    "signer.pem",
    "-out",
    "signer.p12",
    "-passout",
    `pass:${P12_PASSWORD}`,
  );
  return { p12: fs.readFileSync(path.join(dir, "signer.p12")), wwdr: fs.readFileSync(path.join(dir, "wwdr.cer")) };
}

/** A Google service account's key file, as Google writes it. */
function googleKeyFile() {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return JSON.stringify({
    type: "service_account",
    project_id: "namecard-test",
    private_key_id: "key-1234",
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: "wallet@namecard-test.iam.gserviceaccount.com",
  });
}

/** An administrator's form, as the browser posts it: the redirect back, or the page that answered. */
async function submit(server: ServerProcess, pathname: string, cookie: string, fields: Record<string, string | Blob>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return fetch(`${server.url}${pathname}`, {
    method: "POST",
    headers: { cookie, origin: server.url },
    body,
    redirect: "manual",
  });
}

async function expectSaved(answer: Response) {
  expect(answer.status, await answer.clone().text()).toBe(302);
  expect(answer.headers.get("location")).not.toMatch(/^\/auth/);
}

/** Signs in with a password on a server that has never seen this browser (sessions are not restored). */
async function signIn(server: ServerProcess, email: string) {
  const answer = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://localhost:${server.port}` },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
  return answer.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** "Sign in with single sign-on" for an address of the provider's domain: the status and what the page is told. */
async function startSso(server: ServerProcess) {
  const answer = await fetch(`${server.url}/api/auth/sign-in/sso`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://localhost:${server.port}` },
    body: JSON.stringify({ email: "someone@acme.test" }),
  });
  return { status: answer.status, body: (await answer.json()) as { url?: string; code?: string } };
}

async function page(server: ServerProcess, pathname: string, cookie: string) {
  const answer = await fetch(`${server.url}${pathname}`, { headers: { cookie }, redirect: "manual" });
  return { status: answer.status, location: answer.headers.get("location"), text: await answer.text() };
}

async function scimUsers(server: ServerProcess, token: string) {
  const answer = await fetch(`${server.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
  await answer.text();
  return answer.status;
}

/** Everything that needs a sealed secret works: single sign-on starts, both passes are made, provisioning answers. */
async function expectEverySecretWorks(server: ServerProcess, member: string, idp: TestProvider, scimToken: string) {
  const sso = await startSso(server);
  expect(sso.status, JSON.stringify(sso.body)).toBe(200);
  expect(sso.body.url?.startsWith(idp.issuer)).toBe(true);
  const google = await page(server, "/share/google-wallet", member);
  expect(google.status).toBe(302);
  expect(google.location).toMatch(/^https:\/\/pay\.google\.com\//);
  const apple = await fetch(`${server.url}/share/apple-wallet.pkpass`, { headers: { cookie: member } });
  expect(apple.status).toBe(200);
  expect(apple.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
  await apple.arrayBuffer();
  expect(await scimUsers(server, scimToken)).toBe(200);
}

/** The administrator's settings, as the browser posts them on first set-up and again after the move. */
function providerForm(idp: TestProvider, client: { clientId: string; clientSecret: string }, id = "") {
  return {
    intent: "save",
    id,
    protocol: "oidc",
    name: "Acme Login",
    issuer: idp.issuer,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    domains: "acme.test",
  };
}

function googleForm(keyFile: string) {
  return { intent: "save-google", issuerId: "3388000000012345678", serviceAccount: keyFile };
}

function appleForm(certificates: { p12: Buffer; wwdr: Buffer }) {
  return {
    intent: "save-apple",
    passTypeId: PASS_TYPE,
    teamId: TEAM,
    password: P12_PASSWORD,
    p12: new File([new Uint8Array(certificates.p12)], "signer.p12"),
    wwdr: new File([new Uint8Array(certificates.wwdr)], "wwdr.cer"),
  };
}

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("sealed secrets after a restore under another AUTH_SECRET", () => {
  it("refuses the archive until trusted, then answers every request that needs an old secret plainly, says what to enter again, and works once it is", async () => {
    const idp = await startOidcProvider();
    cleanups.push(() => idp.close());
    const client = idp.addClient();
    const keyFile = googleKeyFile();
    const certificates = appleCertificates();

    // The old server: single sign-on, both wallets and a provisioning connection set up by its administrator.
    const source = await startServer({ dataDir: await migratedDataDir() });
    started.push(source);
    client.redirectTo(`http://localhost:${source.port}/api/auth/sso/callback`);
    const admin = await signedInMember(source, "admin@example.com", { first: "Ada", last: "Min" });
    const member = await signedInMember(source, "wallet.member@example.com", { first: "Wal", last: "Let" });
    await expectSaved(await submit(source, "/admin/settings/single-sign-on", admin, providerForm(idp, client)));
    await expectSaved(await submit(source, "/admin/settings/wallet", admin, googleForm(keyFile)));
    await expectSaved(await submit(source, "/admin/settings/wallet", admin, appleForm(certificates)));
    const created = await submit(source, "/admin/settings/provisioning", admin, { intent: "create", name: "Entra ID" });
    const scimToken = /namecard_scim_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    expect(scimToken).not.toBe("");
    await expectEverySecretWorks(source, member, idp, scimToken);

    const archive = path.join(scratchDir("namecard-archive-"), "backup.ndjson.gz");
    const backup = await runScript(
      "scripts/backup.ts",
      [archive],
      serverEnv({ port: source.port, dataDir: source.dataDir }),
    );
    expect(backup.code, backup.output).toBe(0);
    expect(await stop(source)).toEqual({ code: 0, signal: null });

    // The new server has its own AUTH_SECRET: the archive is whole, but this installation did not make it.
    const dataDir = scratchDir();
    const restoreEnv = { ...serverEnv({ port: await freePort(), dataDir }), AUTH_SECRET: OTHER_SECRET };
    const refused = await runScript("scripts/restore.ts", [archive], restoreEnv);
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output.split("\n").filter((line) => line.includes("[restore]"))).toEqual([
      expect.stringMatching(
        /^\[restore\] .* is intact, but this installation cannot tell who made it: its HMAC does not match this AUTH_SECRET .*AUTH_SECRET of the installation that made it.* npm run restore -- --trust-archive .*single sign-on and wallet secrets must then be entered again\)\. Nothing was restored\.$/,
      ),
    ]);
    expect(Object.values(await contentsOf({ dataDir })).every((rows) => rows.length === 0)).toBe(true);
    expect(filesIn(path.join(dataDir, "uploads"))).toEqual({});

    // The operator trusts it: it is restored, and the restore names each secret to enter again.
    const restored = await runScript("scripts/restore.ts", ["--trust-archive", archive], restoreEnv);
    expect(restored.code, restored.output).toBe(0);
    const said = restored.output.split("\n").filter((line) => line.includes("[restore]"));
    expect(said).toEqual([
      expect.stringMatching(
        /not made under this AUTH_SECRET \(its HMAC does not match\): restored because of --trust-archive/,
      ),
      expect.stringMatching(/files restored into the embedded database$/),
      expect.stringMatching(
        /The client secret of the single sign-on provider "Acme Login" cannot be read with this AUTH_SECRET: until an administrator enters it again under Settings → Single sign-on/,
      ),
      expect.stringMatching(/The Google Wallet key cannot be read .*pastes the JSON key again/),
      expect.stringMatching(/The Apple Wallet certificate cannot be read .*chooses the \.p12 file again/),
    ]);

    // The new server takes traffic.
    const server = await startServer({ dataDir, env: { AUTH_SECRET: OTHER_SECRET } });
    started.push(server);
    client.redirectTo(`http://localhost:${server.port}/api/auth/sso/callback`);
    const newAdmin = await signIn(server, "admin@example.com");
    const newMember = await signIn(server, "wallet.member@example.com");

    // Single sign-on says it is unavailable (the sign-in page's message for it), and the log says why.
    expect(await startSso(server)).toEqual({ status: 503, body: expect.objectContaining({ code: "SSO_UNAVAILABLE" }) });
    await server.waitForOutput(/\[sso\] Acme Login: its secret cannot be opened with this server's secret/);
    // The wallet buttons are gone from the member's page, and their addresses say the wallet is not set up.
    const share = await page(server, "/share", newMember);
    expect(share.status).toBe(200);
    expect(share.text).not.toContain('href="/share/apple-wallet.pkpass"');
    expect(share.text).not.toContain('href="/share/google-wallet"');
    expect((await page(server, "/share/google-wallet", newMember)).status).toBe(404);
    expect((await page(server, "/share/apple-wallet.pkpass", newMember)).status).toBe(404);
    // Provisioning keeps only the token's digest, which no AUTH_SECRET changes.
    expect(await scimUsers(server, scimToken)).toBe(200);
    // The administrator's pages say what to enter again.
    const sso = await page(server, "/admin/settings/single-sign-on", newAdmin);
    expect(sso.status).toBe(200);
    expect(sso.text).toMatch(/Its client secret cannot be read with this server(&#x27;|')s secret .*enter it again/);
    const wallet = await page(server, "/admin/settings/wallet", newAdmin);
    expect(wallet.status).toBe(200);
    expect(wallet.text).toMatch(/The stored key cannot be read with this server(&#x27;|')s secret/);
    expect(wallet.text).toMatch(/The stored certificate cannot be read with this server(&#x27;|')s secret/);
    // Nothing of it was a server error.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.output()).not.toMatch(/^\s+at /m);

    // The administrator enters them again, and everything works as before the move.
    const providerId = /\?edit=([0-9a-f-]{36})/.exec(sso.text)?.[1] ?? "";
    expect(providerId).not.toBe("");
    await expectSaved(
      await submit(server, "/admin/settings/single-sign-on", newAdmin, providerForm(idp, client, providerId)),
    );
    await expectSaved(await submit(server, "/admin/settings/wallet", newAdmin, googleForm(keyFile)));
    await expectSaved(await submit(server, "/admin/settings/wallet", newAdmin, appleForm(certificates)));
    await expectEverySecretWorks(server, newMember, idp, scimToken);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 240_000);
});
