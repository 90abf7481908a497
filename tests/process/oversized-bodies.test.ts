import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BODY_TOO_LARGE,
  MAX_FORM_BYTES,
  MAX_SAML_FORM_BYTES,
  MAX_SETTINGS_FORM_BYTES,
  MAX_UPLOAD_FORM_BYTES,
} from "~/.server/http/form-data";
import { routeTable } from "../../server/routes";
import { addressOf, ROUTES, routeBuild } from "../security/hostile-input";
import { ON_POSTGRES } from "../support/process-suite";
import { SERVER_BUILT, type ServerProcess, signedInMember, startServer, stop } from "../support/server-process";

/**
 * Request bodies over what their route takes. The limits are declared by the
 * routes themselves (`handle.bodyLimit`, server/routes.ts), and the real
 * server process answers a body over its route's limit 413 with a message
 * that reaches the client however it sends: fast or slow, with or without a
 * length, reading while it sends or only after, or asking first with
 * `Expect: 100-continue`. Nothing over the limit is kept in memory.
 */

const build = await routeBuild();
const table = routeTable(build);

/** Every route with an action, with the address it answers and what the server takes there. */
const ACTIONS = ROUTES.flatMap((route) => {
  const address = addressOf(route.path);
  const action = table.factsOf(address).action;
  return action ? [{ ...route, address, action }] : [];
});

/**
 * Actions that read no file but a long text: SAML documents (a provider's metadata pasted, its signed answers),
 * the legal texts, and the ids of everyone the join rule leaves outside.
 */
const LONG_TEXT_LIMITS: Record<string, number> = {
  "routes/admin/single-sign-on.tsx": MAX_SAML_FORM_BYTES,
  "routes/sso/saml-acs.ts": MAX_SAML_FORM_BYTES,
  "routes/admin/settings/legal.tsx": MAX_SETTINGS_FORM_BYTES,
  "routes/admin/settings/joining.tsx": MAX_SETTINGS_FORM_BYTES,
};

describe("what routes declare", () => {
  it("lets every action that reads a file take a body with a whole image, and no other", () => {
    expect(ACTIONS.length).toBeGreaterThan(10);
    for (const route of ACTIONS) {
      const source = fs.readFileSync(path.join("app", route.file), "utf8");
      const readsFiles = /readUploadForm\(|imageChange\(|instanceof File\b/.test(source);
      if (readsFiles) expect(route.action.limit, route.file).toBeGreaterThanOrEqual(MAX_UPLOAD_FORM_BYTES);
      else expect(route.action.limit, route.file).toBe(LONG_TEXT_LIMITS[route.file] ?? MAX_FORM_BYTES);
    }
  });

  it("keeps the anonymous pages their routes declare, and no other", () => {
    const kept = new Map<string, string>();
    for (const route of ROUTES) {
      const cachedPage = table.factsOf(addressOf(route.path)).cachedPage;
      if (cachedPage) kept.set(route.path, cachedPage);
    }
    expect(Object.fromEntries(kept)).toEqual({
      "profile/:username": "card",
      "profile/:username/contact.vcf": "vcard",
      "profile/:username/qr.png": "image",
      "profile/:username/og.png": "image",
      "qr/:username": "qr",
    });
    // A static address beside a card's is not a card.
    expect(table.factsOf("/profile/edit").cachedPage).toBeNull();
  });

  it("gives a new route the limit and the kept page it declares, with nothing else to change", () => {
    const routes = {
      ...build.routes,
      "routes/new-upload": {
        id: "routes/new-upload",
        parentId: "root",
        path: "badges/new",
        module: { handle: { bodyLimit: "upload" }, action: () => null },
      },
      "routes/new-card": {
        id: "routes/new-card",
        parentId: "root",
        path: "card/:username",
        module: { handle: { cachedPage: "card" }, loader: () => null },
      },
    };
    const grown = routeTable({ ...build, routes } as unknown as ServerBuild);
    expect(grown.factsOf("/badges/new").action?.limit).toBe(MAX_UPLOAD_FORM_BYTES);
    expect(grown.factsOf("/badges/new.data").action?.limit).toBe(MAX_UPLOAD_FORM_BYTES);
    expect(grown.factsOf("/card/ann").cachedPage).toBe("card");
    expect(grown.factsOf("/card/ann").action).toBeNull();
  });

  it.each([{ cachedPage: "cards" }, { bodyLimit: "huge" }, { bodyTypes: "application/json" }])(
    "refuses to start with a mistyped declaration: %o",
    (handle) => {
      const routes = {
        ...build.routes,
        "routes/typo": { id: "routes/typo", parentId: "root", path: "typo", module: { handle } },
      };
      expect(() => routeTable({ ...build, routes } as unknown as ServerBuild)).toThrow(/routes\/typo: handle\./);
    },
  );
});

/** What a raw HTTP exchange brought back: the status line, every status line seen, and the body. */
type Exchange = { status: number; statusLines: string[]; text: string };

function parseExchange(raw: string): Exchange {
  const statusLines = [...raw.matchAll(/^HTTP\/1\.[01] (\d{3})[^\r\n]*/gm)].map((match) => match[0]);
  const final = [...raw.matchAll(/^HTTP\/1\.[01] (\d{3})/gm)].map((match) => Number(match[1])).find((s) => s >= 200);
  return { status: final ?? 0, statusLines, text: raw.slice(raw.lastIndexOf("\r\n\r\n") + 4) };
}

/**
 * A client that writes the request and its whole body before it reads
 * anything (as many simple clients do), pacing each chunk by `paceMs` when
 * given. Its socket is paused meanwhile, so the answer waits in the kernel: a
 * reset from the server would throw it away.
 */
function sendAllThenRead(
  port: number,
  head: string,
  bodyBytes: number,
  paceMs = 0,
  /** Whether the answer is complete, for a client that leaves then rather than wait for the server to close. */
  complete: (raw: string) => boolean = () => false,
): Promise<Exchange & { sent: number; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.pause();
    let raw = "";
    let sent = 0;
    let error: string | undefined;
    const chunk = Buffer.alloc(32 * 1024, "a");
    const readAll = () => {
      socket.on("data", (data) => {
        raw += data.toString("latin1");
        if (complete(raw)) socket.end();
      });
      socket.resume();
    };
    const writeMore = () => {
      while (sent < bodyBytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
        sent += piece.length;
        const ready = socket.write(piece);
        // The client's own pace: it is the slow sender under test, not a wait for the server.
        if (paceMs) return void setTimeout(writeMore, paceMs);
        if (!ready) return void socket.once("drain", writeMore);
      }
      readAll();
    };
    socket.on("error", (cause: NodeJS.ErrnoException) => {
      error = cause.code ?? cause.message;
    });
    socket.on("close", () => resolve({ ...parseExchange(raw), sent, error }));
    socket.once("connect", () => {
      socket.write(head);
      writeMore();
    });
  });
}

/** A client that streams a body without a length until it is answered (up to `maxBytes`); reads as it sends. */
function streamUntilResponse(url: string, headers: Record<string, string>, maxBytes: number, paceMs = 0) {
  return new Promise<{ status: number; text: string; sent: number }>((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers });
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, "a");
    request.on("response", (response) => {
      answered = true;
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (data: string) => (text += data));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text, sent }));
    });
    request.on("error", (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < maxBytes) {
        sent += chunk.length;
        const ready = request.write(chunk);
        // The client's own pace: it is the slow sender under test, not a wait for the server.
        if (paceMs) return void setTimeout(pump, paceMs);
        if (!ready) return void request.once("drain", pump);
      }
      if (!answered) request.end();
    };
    pump();
  });
}

function rssKb(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

if (!SERVER_BUILT) console.warn("SKIPPED: the oversized-body tests need `npm run build` first");

// The HTTP edge is the same whatever the engine: the embedded one, once.
describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("a body over its route's limit, to the server process", () => {
  let server: ServerProcess;
  let cookie: string;
  const url = (pathname: string) => `http://localhost:${server.port}${pathname}`;
  const origin = () => url("");

  beforeAll(async () => {
    server = await startServer();
    cookie = await signedInMember(server, "oversized.bodies@example.com", { first: "Over", last: "Sized" });
  }, 120_000);
  afterAll(() => stop(server));

  const fastSenders: { name: string; path: string; signedIn?: boolean; body: () => BodyInit; type?: string }[] = [
    {
      name: "a 2 MB form to /auth",
      path: "/auth",
      type: "application/x-www-form-urlencoded",
      body: () => `email=${"a".repeat(2 * 1024 * 1024)}`,
    },
    {
      name: "2 MB of JSON to /api/auth/sign-in/email",
      path: "/api/auth/sign-in/email",
      type: "application/json",
      body: () => JSON.stringify({ email: "a".repeat(2 * 1024 * 1024), password: "x" }),
    },
    {
      name: "a 50 MB photo to /profile/edit, signed in",
      path: "/profile/edit",
      signedIn: true,
      body: () => {
        const form = new FormData();
        form.set("firstName", "Over");
        form.set("photo", new Blob([new Uint8Array(50 * 1024 * 1024)], { type: "image/png" }), "photo.png");
        return form;
      },
    },
  ];

  it.each(fastSenders)("answers $name with 413 and says why", async ({ path: pathname, type, body, signedIn }) => {
    const headers: Record<string, string> = { origin: origin() };
    if (type) headers["content-type"] = type;
    if (signedIn) headers.cookie = cookie;
    const response = await fetch(url(pathname), { method: "POST", headers, body: body(), redirect: "manual" });
    expect(response.status).toBe(413);
    expect(await response.text()).toBe(BODY_TOO_LARGE);
  });

  it("refuses a body one byte over each route's own limit, and takes one at the limit", async () => {
    for (const route of ACTIONS) {
      const form = (bytes: number) => `a=${"x".repeat(bytes - 2)}`;
      const headers = { "content-type": "application/x-www-form-urlencoded", origin: origin() };
      const over = await fetch(url(route.address), {
        method: "POST",
        headers,
        body: form(route.action.limit + 1),
        redirect: "manual",
      });
      expect(over.status, `${route.address} over its limit`).toBe(413);
      expect(await over.text()).toBe(BODY_TOO_LARGE);
      const at = await fetch(url(route.address), {
        method: "POST",
        headers,
        body: form(route.action.limit),
        redirect: "manual",
      });
      expect(at.status, `${route.address} at its limit`).not.toBe(413);
      await at.body?.cancel();
    }
  }, 120_000);

  it("answers a client that streams without a length before it sends 64 MB, and reads none of it into memory", async () => {
    const before = rssKb(server.child.pid!);
    const { status, text, sent } = await streamUntilResponse(
      url("/auth"),
      { "content-type": "application/x-www-form-urlencoded", origin: origin() },
      300 * 1024 * 1024,
    );
    expect(status).toBe(413);
    expect(text).toBe(BODY_TOO_LARGE);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(rssKb(server.child.pid!) - before).toBeLessThan(64 * 1024);
  });

  it("answers a slow client that streams without a length", async () => {
    const { status, text } = await streamUntilResponse(
      url("/api/auth/sign-up/email"),
      { "content-type": "application/json", origin: origin() },
      2 * 1024 * 1024,
      25,
    );
    expect(status).toBe(413);
    expect(text).toBe(BODY_TOO_LARGE);
  });

  it("answers a body that announces its size over the limit at once, before it is sent", async () => {
    const head = [
      "POST /auth HTTP/1.1",
      `Host: localhost:${server.port}`,
      "Content-Type: application/x-www-form-urlencoded",
      `Content-Length: ${300 * 1024 * 1024}`,
      "",
      "",
    ].join("\r\n");
    const answer = await new Promise<Exchange>((resolve) => {
      const socket = net.connect(server.port, "127.0.0.1", () => socket.write(`${head}email=`));
      let raw = "";
      socket.on("data", (data) => {
        raw += data.toString("latin1");
        // The whole answer is in: the client leaves without sending the rest.
        if (raw.includes(BODY_TOO_LARGE)) socket.destroy();
      });
      socket.on("error", () => {});
      socket.on("close", () => resolve(parseExchange(raw)));
    });
    expect(answer.status).toBe(413);
    expect(answer.text).toBe(BODY_TOO_LARGE);
  });

  it.each([
    // A slow client's 6 MB is read over seconds, with collections between: one refusal is measured.
    { name: "a slow client", bytes: 6 * 1024 * 1024, paceMs: 10, rounds: 1 },
    { name: "a fast client", bytes: 50 * 1024 * 1024, paceMs: 0, rounds: 3 },
  ])(
    "answers $name that sends its whole body before reading, and keeps none of it",
    async ({ bytes, paceMs, rounds }) => {
      const head = [
        "POST /profile/edit HTTP/1.1",
        `Host: localhost:${server.port}`,
        `Cookie: ${cookie}`,
        `Origin: ${origin()}`,
        "Content-Type: multipart/form-data; boundary=x",
        `Content-Length: ${bytes}`,
        "",
        "",
      ].join("\r\n");
      const refuse = async () => {
        const answer = await sendAllThenRead(server.port, head, bytes, paceMs);
        expect(answer.error).toBeUndefined();
        expect(answer.status).toBe(413);
        expect(answer.text).toBe(BODY_TOO_LARGE);
      };
      // Reading a fast body makes garbage that the process may hold for a while (V8 collects
      // Buffers' memory when enough of it has piled up, tens of MB), so one such refusal says
      // little. Three after a first: a server that kept the bodies would have grown by three
      // of them; one that drops them by no more than one, plus what it holds between collections
      // (up to about 20 MB on Node 24, whose collector waits longer): less than two bodies.
      if (rounds > 1) await refuse();
      const before = rssKb(server.child.pid!);
      for (let round = 0; round < rounds; round++) await refuse();
      expect(rssKb(server.child.pid!) - before).toBeLessThan(Math.max(bytes / 1024 + 32 * 1024, 32 * 1024));
    },
    60_000,
  );

  it("answers Expect: 100-continue with 413, not 100 Continue, when the declared body is over the limit", async () => {
    const head = [
      "POST /api/auth/sign-in/email HTTP/1.1",
      `Host: localhost:${server.port}`,
      "Content-Type: application/json",
      `Content-Length: ${2 * 1024 * 1024}`,
      "Expect: 100-continue",
      "",
      "",
    ].join("\r\n");
    // It sends the body only if asked to continue: it never is, and it leaves with the answer.
    const answer = await sendAllThenRead(server.port, head, 0, 0, (raw) => raw.endsWith(BODY_TOO_LARGE));
    expect(answer.statusLines).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(answer.text).toBe(BODY_TOO_LARGE);
  });

  it("asks a client that expects 100-continue for a body it takes, then answers it", async () => {
    const body = "theme=dark&back=%2Fdirectory";
    const answer = await new Promise<Exchange>((resolve) => {
      const socket = net.connect(server.port, "127.0.0.1");
      let raw = "";
      let sent = false;
      socket.on("data", (data) => {
        raw += data.toString("latin1");
        if (!sent && raw.startsWith("HTTP/1.1 100 Continue\r\n\r\n")) {
          sent = true;
          socket.write(body);
        }
        if (/HTTP\/1\.1 303[\s\S]*\r\n\r\n/.test(raw)) socket.end();
      });
      socket.on("close", () => resolve(parseExchange(raw)));
      socket.write(
        [
          "POST /theme HTTP/1.1",
          `Host: localhost:${server.port}`,
          `Origin: ${origin()}`,
          "Content-Type: application/x-www-form-urlencoded",
          `Content-Length: ${body.length}`,
          "Expect: 100-continue",
          "",
          "",
        ].join("\r\n"),
      );
    });
    expect(answer.statusLines[0]).toBe("HTTP/1.1 100 Continue");
    expect(answer.status).toBe(303);
  });

  it("answers an expectation it cannot meet with 417 and says so", async () => {
    const response = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(url("/theme"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", expect: "the-moon", origin: origin() },
      });
      request.on("response", (res) => {
        let text = "";
        res.on("data", (data) => (text += data));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      request.on("error", reject);
      request.end("theme=dark");
    });
    expect(response.status).toBe(417);
    expect(response.text).toMatch(/100-continue/);
  });

  it("logged no unhandled error", () => {
    expect(server.output()).not.toMatch(/^\s*at .*\(.*\)$/m);
    expect(server.output()).not.toMatch(/\b(TypeError|RangeError|SyntaxError|ReferenceError)\b/);
  });
});
