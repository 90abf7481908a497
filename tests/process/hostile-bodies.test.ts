import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeTable } from "../../server/routes";
import { addressOf, expectedStatus, HOSTILE_BODIES, ROUTES, routeBuild } from "../security/hostile-input";
import { contentsOf, filesIn } from "../support/database-contents";
import { ON_POSTGRES } from "../support/process-suite";
import { SERVER_BUILT, type ServerProcess, signedInMember, startServer, stop } from "../support/server-process";

/**
 * What the real server process answers to requests no browser sends: bodies
 * that cannot be read or are not what the route reads, methods a route does
 * not take, a body on a GET, an HTTP/1.0 request without a Host. Every route
 * of app/routes.ts is tried (a new one is covered without a change here), by
 * an administrator: each answer is a 4xx with a short plain message, nothing
 * in the database or the uploads changes, and the server logs no error.
 */

const table = routeTable(await routeBuild());
const EVERY_ROUTE = ROUTES.map((route) => {
  const address = addressOf(route.path);
  return { ...route, address, action: table.factsOf(address).action };
});
const ACTIONS = EVERY_ROUTE.flatMap((route) => (route.action ? [{ ...route, action: route.action }] : []));
/** The actions that take only forms of this site: all but where SAML providers post their answers. */
const SAME_SITE_ACTIONS = ACTIONS.filter(({ action }) => !action.crossSite);

type Received = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** One request as sent, headers and all (fetch would add a Content-Type, and refuses a GET with a body). */
function send(
  port: number,
  request: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Received> {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers };
    if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
    const outgoing = http.request({ port, host: "127.0.0.1", method: request.method, path: request.path, headers });
    outgoing.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (data: string) => (text += data));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

/** An HTTP/1.0 request written as it is, and the whole answer (the server closes the connection after it). */
function sendRaw(port: number, text: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let raw = "";
    socket.on("data", (data) => (raw += data.toString("utf8")));
    socket.on("error", reject);
    socket.on("close", () =>
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0), text: raw.split("\r\n\r\n")[1] ?? "" }),
    );
  });
}

/** A refusal as the server gives it: a short plain message, never kept by a cache. */
function expectPlainRefusal(answer: Received, label: string) {
  expect(answer.headers["content-type"], label).toBe("text/plain; charset=utf-8");
  expect(answer.headers["cache-control"], label).toBe("no-store");
  expect(answer.text.length, label).toBeGreaterThan(10);
  expect(answer.text.length, label).toBeLessThan(300);
}

if (!SERVER_BUILT) console.warn("SKIPPED: the hostile-body tests need `npm run build` first");

// The HTTP edge is the same whatever the engine: the embedded one, once.
describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("requests no browser sends, to every route of the server process", () => {
  let server: ServerProcess;
  let cookie: string;
  let before: { database: unknown; uploads: Record<string, string> };
  const origin = () => `http://localhost:${server.port}`;

  beforeAll(async () => {
    // What the database holds is read with the server stopped: it has one owner at a time.
    const first = await startServer();
    cookie = await signedInMember(first, "admin@example.com", { first: "Ada", last: "Admin" });
    await stop(first);
    before = {
      database: await contentsOf({ dataDir: first.dataDir }),
      uploads: filesIn(path.join(first.dataDir, "uploads")),
    };
    server = await startServer({ dataDir: first.dataDir });
  }, 180_000);
  afterAll(() => stop(server));

  it("finds the routes with actions in app/routes.ts", () => {
    expect(ACTIONS.map((route) => route.path)).toEqual(
      expect.arrayContaining([
        "theme",
        "auth",
        "api/auth/*",
        "profile/edit",
        "admin/settings/branding",
        "admin/import/:id",
      ]),
    );
  });

  it.each(ACTIONS)("refuses every hostile body to $address with a 4xx and a message", async ({ address, action }) => {
    for (const body of HOSTILE_BODIES) {
      const headers: Record<string, string> = { cookie, origin: origin() };
      if (body.type) headers["content-type"] = body.type;
      const answer = await send(server.port, { method: "POST", path: address, headers, body: body.text });
      expect(answer.status, body.name).toBe(expectedStatus(body, action));
      expectPlainRefusal(answer, body.name);
    }
  });

  it("takes a form posted from another site only where SAML providers post their answers", () => {
    expect(ACTIONS.filter(({ action }) => action.crossSite).map((route) => route.path)).toEqual(["sso/saml/acs"]);
  });

  it("takes a SAML provider's answer posted from its own site, and sends a refused one to /auth with a message", async () => {
    const answer = await send(server.port, {
      method: "POST",
      path: "/sso/saml/acs",
      headers: { origin: "https://idp.example.com", "content-type": "application/x-www-form-urlencoded" },
      body: "SAMLResponse=PHgvPg%3D%3D",
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe("/auth?sso=failed");
  });

  it.each(SAME_SITE_ACTIONS)(
    "refuses a form sent to $address from a page of another site with 403",
    async ({ address }) => {
      const foreign: Record<string, string>[] = [
        { origin: "https://attacker.example" },
        { origin: `http://localhost:${server.port}.attacker.example` },
        { origin: "null" },
        { "sec-fetch-site": "cross-site" },
        { "sec-fetch-site": "same-site" },
      ];
      for (const from of foreign) {
        const answer = await send(server.port, {
          method: "POST",
          path: address,
          headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...from },
          body: "intent=delete&theme=dark",
        });
        expect(answer.status, JSON.stringify(from)).toBe(403);
        expect(answer.text).toBe("This form was sent from another site. Open the page on this site and send it again.");
        expectPlainRefusal(answer, JSON.stringify(from));
      }
    },
  );

  it.each(EVERY_ROUTE)("answers methods $address does not take with 405 and what it allows", async (route) => {
    const methods = ["OPTIONS", "PUT", "DELETE", "PATCH", ...(route.action ? [] : ["POST"])];
    for (const method of methods) {
      const answer = await send(server.port, {
        method,
        path: route.address,
        headers: { cookie, origin: origin(), "content-type": "application/x-www-form-urlencoded" },
        body: method === "OPTIONS" || method === "DELETE" ? undefined : "intent=delete",
      });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow, method).toBe(route.action ? "GET, HEAD, POST" : "GET, HEAD");
      expect(answer.text, method).toBe(`This address does not take ${method} requests.`);
      expectPlainRefusal(answer, method);
    }
  });

  it.each(EVERY_ROUTE)("refuses a GET with a body to $address", async ({ address }) => {
    const answer = await send(server.port, {
      method: "GET",
      path: address,
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=delete",
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toBe("A GET request cannot carry a body.");
    expectPlainRefusal(answer, "GET with a body");
  });

  it.each(EVERY_ROUTE)("refuses an HTTP/1.0 request without a Host to $address", async (route) => {
    const requests = [`GET ${route.address} HTTP/1.0\r\nCookie: ${cookie}\r\n\r\n`];
    if (route.action) {
      const form = "intent=delete";
      requests.push(
        `POST ${route.address} HTTP/1.0\r\nCookie: ${cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          `Content-Length: ${form.length}\r\n\r\n${form}`,
      );
    }
    for (const request of requests) {
      const answer = await sendRaw(server.port, request);
      expect(answer.status, request).toBe(400);
      expect(answer.text, request).toBe("The request has no Host header.");
    }
  });

  it.each(["a b", "x:y:z", "[::1", "%zz"])("refuses a request whose Host (%s) makes no address", async (host) => {
    const answer = await sendRaw(server.port, `GET /directory HTTP/1.0\r\nHost: ${host}\r\nCookie: ${cookie}\r\n\r\n`);
    expect(answer.status).toBe(400);
  });

  it("logged no unhandled error", () => {
    expect(server.output()).not.toMatch(/^\s*at .*\(.*\)$/m);
    expect(server.output()).not.toMatch(/\b(TypeError|RangeError|SyntaxError|ReferenceError)\b/);
  });

  it("changed nothing in the database or the uploads", async () => {
    await stop(server);
    expect(await contentsOf({ dataDir: server.dataDir })).toEqual(before.database);
    expect(filesIn(path.join(server.dataDir, "uploads"))).toEqual(before.uploads);
  }, 60_000);
});
