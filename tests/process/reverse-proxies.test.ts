import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_IMPORT_FORM_BYTES } from "~/.server/imports/imports";
import { openPglite, rowsOf } from "~/.server/platform/db/client";
import { MAX_IMPORT_BYTES } from "~/lib/import";
import { ON_POSTGRES } from "../support/process-suite";
import {
  firstChunk,
  hasProxy,
  httpsFetch,
  localhostCertificate,
  type ReverseProxy,
  startProxy,
  type Tls,
  trust,
} from "../support/reverse-proxies";
import {
  freePort,
  SERVER_BUILT,
  type ServerProcess,
  scratchDir,
  signedInMember,
  startServer,
  stop,
  usernameIn,
} from "../support/server-process";

/**
 * The proxy recipes of deploy/ (nginx and Caddy, from Debian's packages) in front of the built
 * server, as the operator's guide sets them up: TLS, the client's address passed on and not
 * chosen by the client, forms accepted from the public address, the largest upload a route
 * takes let through, and the event stream of live updates passed on as it comes. Once, on the
 * embedded database: what is tested is the proxy's configuration.
 */

/** A client's own claim about its address, which the proxy must not pass on as the truth. */
const FORGED_ADDRESS = "203.0.113.9";

describe.each(["nginx", "caddy"] as const)("Namecard behind %s", (name) => {
  const available = !ON_POSTGRES && SERVER_BUILT && hasProxy(name);
  let tls: Tls;
  let app: ServerProcess;
  let proxy: ReverseProxy;
  let cookie: string;
  const email = `behind.${name}@example.com`;

  beforeAll(async () => {
    if (!available) return;
    tls = localhostCertificate(scratchDir());
    trust(tls);
    const ports = { app: await freePort(), https: await freePort(), http: await freePort() };
    app = await startServer({
      port: ports.app,
      env: { PUBLIC_URL: `https://localhost:${ports.https}`, TRUST_PROXY: "loopback", ADMIN_EMAILS: email },
    });
    proxy = await startProxy(name, tls, ports);
    const send = (url: string, init: { method?: string; headers: Record<string, string>; body?: string }) => {
      const { pathname, search } = new URL(url);
      return httpsFetch(proxy, `${pathname}${search}`, init);
    };
    cookie = await signedInMember(
      { url: proxy.url, port: ports.https, dataDir: app.dataDir },
      email,
      { first: "Behind", last: "ReverseProxy" },
      { origin: proxy.url, "x-forwarded-for": FORGED_ADDRESS },
      send,
    );
  });

  afterAll(async () => {
    if (!available) return;
    proxy?.child.kill("SIGTERM");
    if (app) await stop(app);
    fs.rmSync(tls.dir, { recursive: true, force: true });
  });

  it.skipIf(!available)("sends plain HTTP to the https:// address", async () => {
    const response = await fetch(`http://127.0.0.1:${proxy.httpPort}/directory`, {
      headers: { host: "localhost" },
      redirect: "manual",
    });
    expect([301, 308]).toContain(response.status);
    expect(response.headers.get("location"), proxy.output()).toMatch(/^https:\/\/[^/]+\/directory$/);
  });

  it.skipIf(!available)("signs a member in over TLS with cookies only sent back over https", async () => {
    expect(cookie).toMatch(/__Secure-namecard\.session_token=/);
    const home = await httpsFetch(proxy, "/profile/edit", { headers: { cookie } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Behind");
  });

  it.skipIf(!available)("accepts a form posted from the public address, with the Host passed on", async () => {
    const page = await (await httpsFetch(proxy, "/profile/edit", { headers: { cookie } })).text();
    const username = usernameIn(page);
    const form = new URLSearchParams({
      firstName: "Behind",
      lastName: "ReverseProxy",
      email,
      username,
      title: `Saved through ${name}`,
      phone: "",
      bio: "",
      linkedinUrl: "",
      companyBrandId: "",
    });
    const saved = await httpsFetch(proxy, "/profile/edit", {
      method: "POST",
      headers: { cookie, origin: proxy.url, "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(saved.status, await saved.clone().text()).toBe(302);
    expect(await (await httpsFetch(proxy, `/profile/${username}`)).text()).toContain(`Saved through ${name}`);
  });

  it.skipIf(!available)("lets the largest body a route takes reach Namecard, which answers it itself", async () => {
    // An import file of just under its 10 MB limit, which with the form around it is more
    // than 10 MB: the proxy must let it reach Namecard.
    const boundary = "namecard-proxy-test";
    const header = "email,first name,last name\n";
    const csv = `${header}${"x".repeat(MAX_IMPORT_BYTES - header.length - 64)}\n`;
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\n` +
        `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    );
    const response = await httpsFetch(proxy, "/admin/import", {
      method: "POST",
      headers: {
        cookie,
        origin: proxy.url,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(body.length),
      },
      body,
    });
    expect(body.length).toBeGreaterThan(10 * 1024 * 1024);
    expect(body.length).toBeLessThan(MAX_IMPORT_FORM_BYTES);
    const answer = await response.text();
    expect(response.status, `${answer.slice(0, 300)}\n${proxy.output()}`).not.toBe(413);
    // Namecard's own answer carries its security headers; a proxy's refusal would not.
    expect(
      response.headers.get("content-security-policy"),
      `${response.status} ${answer.slice(0, 300)}\n${proxy.output()}`,
    ).toBeTruthy();
  });

  it.skipIf(!available)("passes the live-update stream on as it comes, not when a buffer fills", async () => {
    const stream = await firstChunk(proxy, "/events", { cookie, accept: "text/event-stream" });
    try {
      expect(stream.status).toBe(200);
      expect(stream.text).toMatch(/^retry: \d+\n: connected/);
    } finally {
      stream.close();
    }
  });

  it.skipIf(!available)(
    "records the client's address as the proxy saw it, not the one the client claimed",
    async () => {
      await stop(app);
      const database = await openPglite({ dataDir: path.join(app.dataDir, "db") });
      try {
        const rows = rowsOf(await database.db.execute("select ip_address from sessions")) as {
          ip_address: string | null;
        }[];
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) {
          expect(row.ip_address).not.toContain(FORGED_ADDRESS);
          expect(row.ip_address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
        }
      } finally {
        await database.close();
      }
    },
  );
});
