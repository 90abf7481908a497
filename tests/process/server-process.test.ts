import { spawnSync } from "node:child_process";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ON_POSTGRES } from "../support/process-suite";
import { SERVER_BUILT, type ServerProcess, signedInMember, startServer, stop } from "../support/server-process";

/**
 * The real server process, as operators run it (`node server.js` on the
 * build): what only the HTTP layer decides — the client address behind a
 * proxy, malformed URLs, headers on every response — and the timing of the
 * forgotten-password answer with a slow mail server. Bodies over a route's
 * limit: oversized-bodies.test.ts.
 */
if (!SERVER_BUILT) console.warn("SKIPPED: the server-process tests need `npm run build` first");

/** A production server behind one proxy, as operators run it. */
function startBehindProxy(env: NodeJS.ProcessEnv = {}) {
  return startServer({ env: { TRUST_PROXY: "1", ...env } });
}

// The HTTP edge is the same whatever the engine: the embedded one, once.
describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("the server process", () => {
  it("refuses to start when TRUST_PROXY would trust every client, and says what to set", () => {
    const result = spawnSync(process.execPath, ["server.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        TRUST_PROXY: "true",
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "nc-")),
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/TRUST_PROXY: must not trust every client/);
  });

  it("warns at start when a hop count is trusted on every interface, naming what to set", async () => {
    const server = await startServer({ env: { TRUST_PROXY: "1", HOST: "0.0.0.0" } });
    try {
      expect(server.output()).toMatch(
        /TRUST_PROXY=1 believes whoever connects, and HOST=0\.0\.0\.0 lets anyone connect: .*chooses its own address/,
      );
      expect(server.output()).toMatch(/on every interface/);
    } finally {
      await stop(server);
    }
  });

  describe("behind one proxy", () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startBehindProxy();
    }, 90_000);
    afterAll(() => stop(server));

    const url = (pathname: string) => `http://localhost:${server.port}${pathname}`;

    it("listens on this machine's loopback only, so nobody reaches it around the proxy", async () => {
      expect(server.output()).toMatch(new RegExp(`port ${server.port} on 127\\.0\\.0\\.1 only`));
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
      // Every other address of this machine is refused.
      const others = Object.values(os.networkInterfaces())
        .flat()
        .filter((entry) => entry && !entry.internal && entry.family === "IPv4")
        .map((entry) => entry!.address);
      for (const address of others) {
        await expect(fetch(`http://${address}:${server.port}/healthz`)).rejects.toThrow();
      }
      // IPv6 loopback is another address, refused too.
      await expect(fetch(`http://[::1]:${server.port}/healthz`)).rejects.toThrow();
    });

    it("a client cannot choose its address with its own X-Forwarded-For: 25 wrong passwords are throttled", async () => {
      // Behind nginx, the proxy appends the real client (10.1.1.1) after whatever the client sent.
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 25; attempt++) {
        const response = await fetch(url("/api/auth/sign-in/email"), {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: url(""),
            "x-forwarded-for": `203.0.113.${attempt}, 10.1.1.1`,
          },
          body: JSON.stringify({ email: `nobody${attempt}@example.org`, password: "wrong password" }),
        });
        statuses.push(response.status);
      }
      expect(statuses.slice(0, 5).every((status) => status === 401)).toBe(true);
      expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    });

    it.each(["/directory?q=%FF", "/profile/%C0%AF", "/auth?redirectTo=%00", "/favicon.svg?x=%E2%82"])(
      "answers %s (invalid UTF-8 or NUL) with 400 and a plain message",
      async (pathname) => {
        const response = await fetch(url(pathname), { redirect: "manual" });
        expect(response.status).toBe(400);
        expect(await response.text()).toMatch(/not valid text/);
      },
    );

    it("sends a fresh Content-Security-Policy nonce with every page, carried by every inline script", async () => {
      const first = await fetch(url("/auth"));
      const second = await fetch(url("/auth"));
      const policy = first.headers.get("content-security-policy")!;
      const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
      expect(nonce).toBeTruthy();
      expect(second.headers.get("content-security-policy")).not.toContain(nonce);
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      const html = await first.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]!);
      expect(scripts.length).toBeGreaterThan(1);
      for (const attributes of scripts) {
        if (/\bsrc=/.test(attributes) && !/type="module"/.test(attributes)) continue;
        expect(attributes).toContain(`nonce="${nonce}"`);
      }
    });

    it.each(["/favicon.svg", "/healthz", "/uploads/profiles/missing.webp", "/auth"])(
      "sends the security headers with %s",
      async (pathname) => {
        const response = await fetch(url(pathname));
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
        expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
        expect(response.headers.get("content-security-policy")).toMatch(/frame-ancestors 'self'/);
      },
    );

    it("keeps signed-in pages out of every cache", async () => {
      const email = "cache.member@example.com";
      // Its own client address: the limits other tests of this server used up do not apply.
      const client = { "x-forwarded-for": "198.51.100.77" };
      const cookie = await signedInMember(server, email, { first: "Cache", last: "Member" }, client);
      for (const pathname of ["/", "/directory", "/profile/edit"]) {
        const page = await fetch(url(pathname), { headers: { cookie, ...client }, redirect: "manual" });
        expect(page.status, pathname).toBe(200);
        expect(page.headers.get("cache-control"), pathname).toBe("private, no-store");
      }
    });

    it("logged no unhandled error while under attack", () => {
      expect(server.output()).not.toMatch(/^\s*at .*\(.*\)$/m);
      expect(server.output()).not.toMatch(/\b(TypeError|RangeError|SyntaxError|ReferenceError)\b/);
    });
  });

  describe("with a slow mail server", () => {
    let server: ServerProcess;
    let smtp: SMTPServer;
    const delivered: string[] = [];
    /** Messages the mail server has read and holds without answering, until the test lets them go. */
    const held: (() => void)[] = [];
    let holding = true;
    beforeAll(async () => {
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        onData(stream, session, callback) {
          stream.resume();
          stream.on("end", () => {
            const accept = () => {
              delivered.push(session.envelope.rcptTo.map((rcpt) => rcpt.address).join(","));
              callback();
            };
            if (holding) held.push(accept);
            else accept();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
      const smtpPort = (smtp.server.address() as AddressInfo).port;
      server = await startBehindProxy({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
    }, 90_000);
    afterAll(async () => {
      await stop(server);
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    });

    it("answers a forgotten-password request without waiting for the mail server, whether or not the account exists", async () => {
      const base = `http://localhost:${server.port}`;
      const email = "slow.mail@example.com";
      await fetch(`${base}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ firstName: "Slow", lastName: "Mail", email, password: "a long enough phrase" }),
      });
      const ask = async (address: string) => {
        const response = await fetch(`${base}/api/auth/request-password-reset`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: base,
            "x-forwarded-for": `198.51.100.${address.length}`,
          },
          body: JSON.stringify({ email: address }),
        });
        expect(response.status).toBe(200);
      };
      // The mail server holds every message: an answer that waited for it would never come.
      await ask(email);
      await ask("nobody.here@example.org");
      expect(delivered).toEqual([]);
      holding = false;
      for (const accept of held.splice(0)) accept();
      await expect.poll(() => delivered.filter((to) => to === email).length, { timeout: 20_000 }).toBe(2);
    });
  });
});
