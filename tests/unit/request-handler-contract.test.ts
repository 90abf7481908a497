import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { createRequestHandler as libraryHandler } from "@react-router/express";
import express, { type Express, type Request as ExpressRequest } from "express";
import { createContext, RouterContextProvider, redirect, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_TYPES } from "~/.server/http/form-data";
import { createRequestHandler as ourHandler } from "../../server/request-handler";
import type { RouteFacts } from "../../server/routes";

/**
 * server/request-handler.ts is `@react-router/express`'s createRequestHandler
 * rewritten with our checks and headers. Its contract with the library: over
 * the same React Router build, a request it does not deliberately refuse
 * reaches the loader or action as the same Fetch `Request` (method, URL,
 * headers, body, context, abort signal), and its `Response` reaches the
 * client the same (status, reason, headers, body, streaming). Every case
 * below is sent over HTTP to both handlers; an upgrade of React Router whose
 * conversion changes fails here until ours follows (docs/upgrading.md). The
 * deliberate differences are asserted as such, each in its own test.
 */

// What the build's routes saw and did, by the x-case header each request carries.
type Echo = { method: string; url: string; headers: [string, string][]; body: string | null; context: string };

/** A promise with its resolver, for a route and a test to wait on each other. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

type Probe = {
  entered: ReturnType<typeof deferred<void>>;
  gate: ReturnType<typeof deferred<void>>;
  aborted: ReturnType<typeof deferred<string>>;
  signal?: AbortSignal;
};
const probes = new Map<string, Probe>();
function probe(id: string): Probe {
  let found = probes.get(id);
  if (!found) {
    found = { entered: deferred(), gate: deferred(), aborted: deferred<string>() };
    probes.set(id, found);
  }
  return found;
}

const given = createContext<string>("none");

async function echo(request: Request, context: Readonly<RouterContextProvider>): Promise<Echo> {
  const found = probe(request.headers.get("x-case") ?? "");
  found.signal = request.signal;
  request.signal.addEventListener("abort", () => found.aborted.resolve(String(request.signal.reason?.name)));
  found.entered.resolve();
  return {
    method: request.method,
    url: request.url,
    headers: [...request.headers],
    body: request.body ? await request.text() : null,
    context: context.get(given),
  };
}

type Args = { request: Request; context: Readonly<RouterContextProvider>; params: Record<string, string | undefined> };

/** The answers a resource route gives, by its `:kind`. */
async function answer({ request, context, params }: Args): Promise<Response> {
  const id = request.headers.get("x-case") ?? "";
  switch (params.kind) {
    case "cookies": {
      const headers = new Headers({ "Content-Type": "text/plain" });
      headers.append("Set-Cookie", "one=1; Path=/; HttpOnly");
      headers.append("Set-Cookie", "two=2; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT");
      headers.append("X-Repeated", "a");
      headers.append("X-Repeated", "b");
      return new Response("cookies", { headers });
    }
    case "status":
      return new Response("short and stout", { status: 418, statusText: "A Teapot Of Our Own" });
    case "created":
      return new Response("made", { status: 201, statusText: "" });
    case "redirect":
      return redirect("/elsewhere?from=answer", { headers: { "Set-Cookie": "moved=1" } });
    case "no-content":
      return new Response(null, { status: 204, headers: { "X-Empty": "yes" } });
    case "empty":
      return new Response("", { headers: { "Content-Type": "text/plain" } });
    case "sized":
      return new Response("twelve bytes", { headers: { "Content-Length": "12", "Cache-Control": "max-age=60" } });
    case "stream":
    case "events": {
      const found = probe(id);
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("first;"));
          await found.gate.promise;
          controller.enqueue(new TextEncoder().encode("second;"));
          controller.close();
        },
      });
      const type = params.kind === "events" ? "text/event-stream" : "text/plain";
      return new Response(body, { headers: { "Content-Type": type } });
    }
    case "wait": {
      const seen = await echo(request, context);
      await probe(id).aborted.promise;
      return Response.json(seen);
    }
    case "throw":
      throw new Error("a detail only development shows");
    default:
      return Response.json(await echo(request, context));
  }
}

/** A route module as the build holds it; the type wants a component, which a resource route has not. */
const routeModule = (module: Record<string, unknown>) =>
  module as unknown as NonNullable<ServerBuild["routes"][string]>["module"];

const Page = () => null;

/** A build by hand: a root, a page with a loader and an action, and resource routes that echo or answer. */
const routes: ServerBuild["routes"] = {
  root: { id: "root", path: "", module: routeModule({ default: Page }) },
  "routes/page": {
    id: "routes/page",
    parentId: "root",
    path: "page",
    module: routeModule({
      default: Page,
      loader: async ({ request, context }: Args) => {
        if (new URL(request.url).searchParams.has("away")) throw redirect("/elsewhere");
        return echo(request, context);
      },
      action: async ({ request, context }: Args) => echo(request, context),
      headers: () => ({ "X-Page": "yes" }),
    }),
  },
  "routes/echo": {
    id: "routes/echo",
    parentId: "root",
    path: "echo",
    module: routeModule({
      loader: async ({ request, context }: Args) => Response.json(await echo(request, context)),
      action: async ({ request, context }: Args) => Response.json(await echo(request, context)),
    }),
  },
  "routes/answer": {
    id: "routes/answer",
    parentId: "root",
    path: "answer/:kind",
    module: routeModule({ loader: answer }),
  },
};

const entryRoute = (id: string, parentId: string | undefined, path: string, hasAction: boolean) => ({
  id,
  parentId,
  path,
  hasAction,
  hasLoader: id !== "root",
  hasClientAction: false,
  hasClientLoader: false,
  hasClientMiddleware: false,
  hasErrorBoundary: false,
  module: `/${id}.js`,
  clientActionModule: undefined,
  clientLoaderModule: undefined,
  clientMiddlewareModule: undefined,
  hydrateFallbackModule: undefined,
});

const build: ServerBuild = {
  entry: {
    module: {
      // The page's document: what its loader returned, with React Router's status and headers.
      default: (_request, status, headers, context) =>
        new Response(JSON.stringify(context.staticHandlerContext.loaderData), { status, headers }),
      // The errors React Router answers with are compared as answers; they are not logged.
      handleError: () => {},
    },
  },
  routes,
  assets: {
    entry: { imports: [], module: "/entry.client.js" },
    routes: {
      root: entryRoute("root", undefined, "", false),
      "routes/page": entryRoute("routes/page", "root", "page", true),
      "routes/echo": entryRoute("routes/echo", "root", "echo", true),
      "routes/answer": entryRoute("routes/answer", "root", "answer/:kind", false),
    },
    url: "/manifest.js",
    version: "contract",
  },
  publicPath: "/",
  assetsBuildDirectory: "build/client",
  // As react-router.config.ts has them.
  future: { v8_middleware: true, v8_passThroughRequests: false, v8_trailingSlashAwareDataRequests: false },
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
};

/** What server/routes.ts would read from the routes' `handle`: the page and /echo take small bodies. */
const BODY_LIMIT = 1024;
function facts(req: ExpressRequest): RouteFacts {
  const takesBodies = /^\/(?:page(?:\.data)?|echo)$/.test(req.path);
  return {
    cachedPage: null,
    action: takesBodies
      ? { limit: BODY_LIMIT, types: [...FORM_TYPES, "text/plain", "application/json"], crossSite: false }
      : null,
  };
}

/**
 * The library is loaded by Node, and the React Router it requires is another
 * copy than the one Vitest gives this file and ours: each handler's context
 * is made by the copy that checks it.
 */
const libraryRouter = createRequire(import.meta.url)("react-router") as typeof import("react-router");

function contextWith(value: string, Provider: typeof RouterContextProvider = RouterContextProvider) {
  const context = new Provider();
  context.set(given, value);
  return context;
}

type Setup = {
  /** Express's `trust proxy`, on both apps. */
  trustProxy?: boolean | string;
  mode?: string;
  /** The library's getLoadContext, as the app would give it (ours always gives a context). */
  libraryContext?: "none" | "sync" | "async";
  buildAsFunction?: boolean;
  /** Middleware before the handlers, on both apps. */
  before?: (app: Express) => void;
};

type Pair = { library: number; ours: number; close: () => Promise<void> };

async function listen(app: Express): Promise<http.Server> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** Both handlers, each on its own Express app and port, set up alike. */
async function pair(setup: Setup = {}): Promise<Pair> {
  const buildOption = setup.buildAsFunction ? async () => build : build;
  const mode = setup.mode ?? "production";
  const apps = [express(), express()] as const;
  for (const app of apps) {
    if (setup.trustProxy !== undefined) app.set("trust proxy", setup.trustProxy);
    setup.before?.(app);
  }
  const [libraryApp, ourApp] = apps;
  const getLoadContext = {
    none: undefined,
    sync: () => contextWith("given", libraryRouter.RouterContextProvider),
    async: async () => contextWith("given", libraryRouter.RouterContextProvider),
  }[setup.libraryContext ?? "sync"];
  libraryApp.use(libraryHandler({ build: buildOption, mode, ...(getLoadContext ? { getLoadContext } : {}) }));
  ourApp.use(
    ourHandler({
      build: buildOption,
      mode,
      route: (req) => facts(req),
      signedIn: (req) => /(?:^|;\s*)session=/.test(req.headers.cookie ?? ""),
      getLoadContext: () => contextWith(setup.libraryContext === "none" ? "none" : "given"),
      cacheResponse: async (req, res) => {
        if (req.headers["x-keep"] === undefined) return false;
        res.status(200).end("kept by the page cache");
        return true;
      },
    }),
  );
  const servers = await Promise.all([listen(libraryApp), listen(ourApp)]);
  const port = (server: http.Server) => (server.address() as AddressInfo).port;
  return {
    library: port(servers[0]),
    ours: port(servers[1]),
    close: async () => {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

type Sent = {
  method?: string;
  path: string;
  /** Raw header pairs, repeats kept; a Host is added unless one is given. */
  headers?: [string, string][];
  body?: string;
  /** Sent in chunks of unknown total (Transfer-Encoding: chunked). */
  chunked?: boolean;
};

type Received = {
  status: number;
  statusText: string;
  /** Every header but Date, lowercased, sorted; repeats kept. */
  headers: [string, string][];
  body: string;
};

const HOST = "card.example:8080";

function open(port: number, sent: Sent) {
  const headers = sent.headers ?? [];
  const raw = [
    ...(headers.some(([name]) => name.toLowerCase() === "host") ? [] : ["Host", HOST]),
    ...headers.flat(),
    ...(sent.body !== undefined && !sent.chunked ? ["Content-Length", String(Buffer.byteLength(sent.body))] : []),
  ];
  return http.request({
    host: "127.0.0.1",
    port,
    method: sent.method ?? "GET",
    path: sent.path,
    agent: false,
    setHost: false,
    headers: raw,
  });
}

function read(response: http.IncomingMessage): Promise<Received> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("error", reject);
    response.on("end", () => {
      const headers: [string, string][] = [];
      for (let i = 0; i < response.rawHeaders.length; i += 2) {
        const name = (response.rawHeaders[i] ?? "").toLowerCase();
        if (name !== "date") headers.push([name, response.rawHeaders[i + 1] ?? ""]);
      }
      headers.sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y));
      resolve({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? "",
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
    });
  });
}

function send(port: number, sent: Sent): Promise<Received> {
  return new Promise((resolve, reject) => {
    const request = open(port, sent);
    request.on("response", (response) => read(response).then(resolve, reject));
    request.on("error", reject);
    if (sent.chunked && sent.body !== undefined) {
      // Two chunks, so the body really arrives in pieces.
      const middle = Math.floor(sent.body.length / 2);
      request.write(sent.body.slice(0, middle));
      request.end(sent.body.slice(middle));
    } else {
      request.end(sent.body);
    }
  });
}

/** The same request, each with its own case id, to the library's handler and to ours. */
async function both(handlers: Pair, sent: Sent, id: string): Promise<{ library: Received; ours: Received }> {
  const tagged = (side: string) => ({ ...sent, headers: [...(sent.headers ?? []), ["X-Case", `${id}:${side}`]] });
  const [library, ours] = await Promise.all([
    send(handlers.library, tagged("library") as Sent),
    send(handlers.ours, tagged("ours") as Sent),
  ]);
  // The case id each side carried is the one thing meant to differ.
  const untagged = (answer: Received): Received => ({
    ...answer,
    body: answer.body.replaceAll(/:(?:library|ours)\b/g, ""),
  });
  return { library: untagged(library), ours: untagged(ours) };
}

/**
 * The library sends headers with Express's `res.append`, which adds a charset
 * to a text or JSON Content-Type that has none; ours sends the answer's own
 * (a deliberate difference, asserted below). The rest must be the same.
 */
function withExpressCharset(ours: Received, library: Received): Received {
  const headers = ours.headers.map(([name, value]): [string, string] => {
    const libraryType = header(library, "content-type")[0];
    return name === "content-type" && libraryType === `${value}; charset=utf-8` ? [name, libraryType] : [name, value];
  });
  return { ...ours, headers };
}

/** Sends to both and expects the same answer, returning it. */
async function same(handlers: Pair, sent: Sent, id: string): Promise<Received> {
  const { library, ours } = await both(handlers, sent, id);
  expect(withExpressCharset(ours, library)).toEqual(library);
  return library;
}

function header(answer: Received, name: string): string[] {
  return answer.headers.filter(([key]) => key === name).map(([, value]) => value);
}

function echoed(answer: Received): Echo {
  return JSON.parse(answer.body) as Echo;
}

describe("the request handler and @react-router/express's, over the same build", () => {
  let handlers: Pair;
  beforeAll(async () => {
    handlers = await pair();
  });
  afterAll(async () => {
    await handlers.close();
  });

  it("is compared with the library at React Router's own version", () => {
    const require = createRequire(import.meta.url);
    const library = require("@react-router/express/package.json") as { version: string };
    const router = require("react-router/package.json") as { version: string };
    expect(library.version).toBe(router.version);
  });

  describe("the Request a loader or action sees is the same", () => {
    it.each([
      ["a plain GET", { path: "/echo" }],
      ["a query and escapes", { path: "/echo?b=2&a=1&a=3&q=%C3%A9&x=a+b" }],
      ["a path that dots back", { path: "/nowhere/../echo" }],
      ["a Host without a port", { path: "/echo", headers: [["Host", "card.example"]] }],
      ["a Host on the default port", { path: "/echo", headers: [["Host", "card.example:80"]] }],
      ["a Host with port 0", { path: "/echo", headers: [["Host", "card.example:0"]] }],
      ["an IPv6 Host", { path: "/echo", headers: [["Host", "[::1]:8080"]] }],
      ["a Host with a user part", { path: "/echo", headers: [["Host", "someone@card.example"]] }],
      [
        "X-Forwarded-Host and -Proto without trust proxy",
        {
          path: "/echo",
          headers: [
            ["X-Forwarded-Host", "proxy.example:8443"],
            ["X-Forwarded-Proto", "https"],
          ],
        },
      ],
      [
        "repeated headers",
        {
          path: "/echo",
          headers: [
            ["X-Repeated", "a"],
            ["X-Repeated", "b"],
            ["Cookie", "theme=dark"],
            ["Cookie", "other=1"],
            ["Accept", "text/html"],
            ["Accept", "application/json"],
          ],
        },
      ],
      // Node keeps a request's Set-Cookie headers as an array: each is appended.
      [
        "a header Node keeps as a list",
        {
          path: "/echo",
          headers: [
            ["Set-Cookie", "a=1"],
            ["Set-Cookie", "b=2"],
          ],
        },
      ],
      [
        "a form POST",
        {
          method: "POST",
          path: "/echo",
          headers: [["Content-Type", "application/x-www-form-urlencoded"]],
          body: "name=Ada+Lovelace&city=London",
        },
      ],
      [
        "a multipart POST",
        {
          method: "POST",
          path: "/echo",
          headers: [["Content-Type", "multipart/form-data; boundary=XyZ"]],
          body: '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--XyZ--\r\n',
        },
      ],
      [
        "a JSON POST",
        {
          method: "POST",
          path: "/echo",
          headers: [["Content-Type", "application/json"]],
          body: '{"name":"Ada"}',
        },
      ],
      [
        "a POST in chunks",
        {
          method: "POST",
          path: "/echo",
          headers: [["Content-Type", "text/plain; charset=utf-8"]],
          body: "in two chunks, é included",
          chunked: true,
        },
      ],
      ["an empty POST", { method: "POST", path: "/echo", headers: [["Content-Type", "text/plain"]], body: "" }],
      ["a page's document", { path: "/page?view=1" }],
      ["a page's data", { path: "/page.data" }],
      [
        "a page's action",
        {
          method: "POST",
          path: "/page",
          headers: [["Content-Type", "application/x-www-form-urlencoded"]],
          body: "a=1",
        },
      ],
      [
        "a page's action by data",
        {
          method: "POST",
          path: "/page.data",
          headers: [["Content-Type", "application/x-www-form-urlencoded"]],
          body: "a=1",
        },
      ],
    ] satisfies [string, Sent][])("%s", async (name, sent) => {
      const answer = await same(handlers, sent, name);
      expect(answer.status).toBeLessThan(400);
    });

    it("echoes what was sent, so that the comparison above compares something", async () => {
      const answer = await same(
        handlers,
        {
          method: "POST",
          path: "/echo?x=1",
          headers: [
            ["Content-Type", "text/plain"],
            ["X-Repeated", "a"],
            ["X-Repeated", "b"],
          ],
          body: "hello",
        },
        "echo",
      );
      const seen = echoed(answer);
      expect(seen).toMatchObject({ method: "POST", url: "http://card.example:8080/echo?x=1", body: "hello" });
      expect(seen.context).toBe("given");
      expect(seen.headers).toContainEqual(["x-repeated", "a, b"]);
    });

    it("ignores a body some middleware parsed before it: both read the request's own stream", async () => {
      const parsed = await pair({
        before: (app) =>
          app.use((req, _res, next) => {
            req.body = { parsed: "by middleware" };
            next();
          }),
      });
      try {
        const answer = await same(
          parsed,
          { method: "POST", path: "/echo", headers: [["Content-Type", "text/plain"]], body: "raw" },
          "parsed",
        );
        expect(echoed(answer).body).toBe("raw");
      } finally {
        await parsed.close();
      }
    });
  });

  describe("the Response the client gets is the same", () => {
    it.each([
      ["every Set-Cookie, and a repeated header joined", "cookies"],
      ["a status and reason of its own", "status"],
      ["an empty reason (Node's own is sent)", "created"],
      ["a redirect with a cookie", "redirect"],
      ["no body (204)", "no-content"],
      ["an empty body", "empty"],
      ["a declared length and cache", "sized"],
      ["an unknown route (404)", "../../missing"],
    ])("%s", async (name, kind) => {
      const answer = await same(handlers, { path: `/answer/${kind}` }, name);
      if (kind === "cookies") expect(header(answer, "set-cookie")).toHaveLength(2);
    });

    it.each([
      "/answer/cookies",
      "/answer/status",
      "/answer/redirect",
      "/answer/no-content",
      "/answer/sized",
      "/echo",
      "/page",
    ])("HEAD of %s: the headers, no body", async (path) => {
      const answer = await same(handlers, { method: "HEAD", path }, `head ${path}`);
      expect(answer.body).toBe("");
    });

    it("a redirect from a page's loader, as a document and as data", async () => {
      const document = await same(handlers, { path: "/page?away" }, "away");
      expect(document.status).toBe(302);
      const data = await same(handlers, { path: "/page.data?away" }, "away data");
      expect(data.status).toBe(202);
    });

    it.each(["stream", "events"])(
      "streams a %s body: the first chunk arrives before the rest is made",
      async (kind) => {
        const answers = await Promise.all(
          (["library", "ours"] as const).map(async (side) => {
            const id = `${kind}:${side}`;
            const request = open(handlers[side], { path: `/answer/${kind}`, headers: [["X-Case", id]] });
            request.end();
            const response = await new Promise<http.IncomingMessage>((resolve) => request.on("response", resolve));
            const first = await new Promise<string>((resolve) =>
              response.once("data", (chunk: Buffer) => resolve(chunk.toString())),
            );
            expect(first).toBe("first;");
            const rest = read(response);
            probe(id).gate.resolve();
            const answer = await rest;
            return { ...answer, body: `${first}${answer.body}` };
          }),
        );
        const [library, ours] = answers as [Received, Received];
        expect(withExpressCharset(ours, library)).toEqual(library);
        expect(library.body).toBe("first;second;");
      },
    );
  });

  describe("the abort signal", () => {
    it("aborts when the client leaves before the answer", async () => {
      for (const side of ["library", "ours"] as const) {
        const id = `leaves:${side}`;
        const request = open(handlers[side], { path: "/answer/wait", headers: [["X-Case", id]] });
        request.on("error", () => {});
        request.end();
        await probe(id).entered.promise;
        request.destroy();
        expect(await probe(id).aborted.promise).toBe("AbortError");
      }
    });

    it("does not abort once the answer is sent", async () => {
      const closed = new Map<string, Promise<void>>();
      const watched = await pair({
        before: (app) =>
          app.use((req, res, next) => {
            const done = deferred();
            closed.set(String(req.headers["x-case"]), done.promise);
            res.on("close", () => done.resolve());
            next();
          }),
      });
      try {
        await same(watched, { path: "/echo" }, "answered");
        for (const side of ["library", "ours"]) {
          await closed.get(`answered:${side}`);
          expect(probe(`answered:${side}`).signal?.aborted).toBe(false);
        }
      } finally {
        await watched.close();
      }
    });
  });

  describe("every option of the library's createRequestHandler", () => {
    it("build: given as a function that loads it, the same as given as a value", async () => {
      const loaded = await pair({ buildAsFunction: true });
      try {
        await same(loaded, { path: "/echo?built=lazily" }, "build function");
        await same(loaded, { path: "/answer/cookies" }, "build function cookies");
      } finally {
        await loaded.close();
      }
    });

    it("mode: a failing loader's answer is React Router's for the mode, the same on both", async () => {
      const bodies: string[] = [];
      for (const mode of ["production", "development"]) {
        const moded = await pair({ mode });
        try {
          const answer = await same(moded, { path: "/answer/throw" }, `throw ${mode}`);
          expect(answer.status).toBe(500);
          bodies.push(answer.body);
        } finally {
          await moded.close();
        }
      }
      expect(bodies[0]).not.toContain("only development shows");
      expect(bodies[1]).toContain("only development shows");
    });

    it.each(["sync", "async"] as const)("getLoadContext (%s): the loaders get the context it makes", async (kind) => {
      const contexts = await pair({ libraryContext: kind });
      try {
        expect(echoed(await same(contexts, { path: "/echo" }, `context ${kind}`)).context).toBe("given");
      } finally {
        await contexts.close();
      }
    });

    it("getLoadContext left out: the library's empty context is what ours gives with nothing set", async () => {
      const contexts = await pair({ libraryContext: "none" });
      try {
        expect(echoed(await same(contexts, { path: "/echo" }, "no context")).context).toBe("none");
      } finally {
        await contexts.close();
      }
    });

    it("trust proxy: the forwarded host, port and protocol make the URL alike", async () => {
      const proxied = await pair({ trustProxy: true });
      try {
        for (const forwarded of ["proxy.example:8443", "proxy.example:8443, inner.example:1"]) {
          const answer = await same(
            proxied,
            {
              path: "/echo",
              headers: [
                ["X-Forwarded-Host", forwarded],
                ["X-Forwarded-Proto", "https"],
              ],
            },
            `forwarded ${forwarded}`,
          );
          expect(echoed(answer).url).toBe("https://proxy.example:8443/echo");
        }
      } finally {
        await proxied.close();
      }
    });
  });
});

/**
 * Where ours answers differently on purpose (server/request-handler.ts's
 * comment, docs/decisions/023-route-declared-limits.md). Each is asserted as
 * ours answers it, beside what the library does, so that a change on
 * either side is seen.
 */
describe("the request handler's deliberate differences", () => {
  let handlers: Pair;
  beforeAll(async () => {
    handlers = await pair();
  });
  afterAll(async () => {
    await handlers.close();
  });

  it.each([
    ["a method the route does not take", { method: "PUT", path: "/echo", body: "x" }, 405, "GET, HEAD, POST"],
    ["DELETE", { method: "DELETE", path: "/echo" }, 405, "GET, HEAD, POST"],
    ["a POST where no action is", { method: "POST", path: "/answer/cookies", body: "x" }, 405, "GET, HEAD"],
  ] satisfies [string, Sent, number, string][])("%s: 405 with Allow", async (name, sent, status, allow) => {
    const { ours } = await both(handlers, { ...sent, headers: [["Content-Type", "text/plain"]] }, name);
    expect(ours.status).toBe(status);
    expect(header(ours, "allow")).toEqual([allow]);
    expect(header(ours, "cache-control")).toEqual(["no-store"]);
  });

  it.each([
    ["a declared body over the limit", { body: "x".repeat(BODY_LIMIT + 1) }, 413],
    ["a chunked body over the limit", { body: "x".repeat(BODY_LIMIT + 1), chunked: true }, 413],
  ] satisfies [string, Partial<Sent>, number][])("%s: 413, the library passes it on", async (name, sent, status) => {
    const { library, ours } = await both(
      handlers,
      { method: "POST", path: "/echo", headers: [["Content-Type", "text/plain"]], ...sent },
      name,
    );
    expect(ours.status).toBe(status);
    expect(library.status).toBe(200);
    expect(echoed(library).body).toHaveLength(BODY_LIMIT + 1);
  });

  it("a media type the action does not read: 415", async () => {
    const { library, ours } = await both(
      handlers,
      { method: "POST", path: "/echo", headers: [["Content-Type", "image/png"]], body: "png" },
      "media type",
    );
    expect(ours.status).toBe(415);
    expect(library.status).toBe(200);
  });

  it.each([
    [
      "JSON that cannot be read",
      { method: "POST", path: "/echo", headers: [["Content-Type", "application/json"]], body: "{" },
    ],
    ["a GET with a body", { path: "/echo", headers: [["Content-Type", "text/plain"]], body: "x" }],
    ["a Host that makes no URL", { path: "/echo", headers: [["Host", "card.example:8080abc"]] }],
  ] satisfies [string, Sent][])("%s: 400", async (name, sent) => {
    const { ours } = await both(handlers, sent, name);
    expect(ours.status).toBe(400);
    expect(header(ours, "content-type")).toEqual(["text/plain; charset=utf-8"]);
  });

  it("a request without a Host (HTTP/1.0): 400, where the library fails", async () => {
    const answers = await Promise.all(
      [handlers.library, handlers.ours].map(
        (port) =>
          new Promise<string>((resolve, reject) => {
            const socket = net.connect(port, "127.0.0.1", () => socket.end("GET /echo HTTP/1.0\r\n\r\n"));
            const chunks: Buffer[] = [];
            socket.on("data", (chunk: Buffer) => chunks.push(chunk));
            socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
            socket.on("error", reject);
          }),
      ),
    );
    expect(answers[0]).toMatch(/^HTTP\/1\.1 500 /);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("a form from another site: 403", async () => {
    const { library, ours } = await both(
      handlers,
      {
        method: "POST",
        path: "/echo",
        headers: [
          ["Content-Type", "application/x-www-form-urlencoded"],
          ["Origin", "https://elsewhere.example"],
        ],
        body: "a=1",
      },
      "foreign form",
    );
    expect(ours.status).toBe(403);
    expect(library.status).toBe(200);
  });

  it("a body reaches the action whole: the library's streams in while the client still sends", async () => {
    for (const side of ["library", "ours"] as const) {
      const id = `streamed body:${side}`;
      const request = open(handlers[side], {
        method: "POST",
        path: "/echo",
        headers: [
          ["Content-Type", "text/plain"],
          ["X-Case", id],
        ],
        chunked: true,
        body: "",
      });
      const answered = new Promise<Received>((resolve) =>
        request.on("response", (response) => resolve(read(response))),
      );
      request.write("first half, ");
      if (side === "library") await probe(id).entered.promise;
      request.end("second half");
      expect(echoed(await answered).body).toBe("first half, second half");
    }
  });

  it("headers set before it are replaced by the response's, but cookies are kept", async () => {
    const defaults = await pair({
      before: (app) =>
        app.use((_req, res, next) => {
          res.setHeader("Content-Security-Policy", "default-src 'none'");
          res.setHeader("X-Repeated", "default");
          res.setHeader("Set-Cookie", ["early=1"]);
          next();
        }),
    });
    try {
      const { library, ours } = await both(defaults, { path: "/answer/cookies" }, "defaults");
      expect(header(library, "x-repeated")).toEqual(["a, b", "default"]);
      expect(header(ours, "x-repeated")).toEqual(["a, b"]);
      expect(header(ours, "content-security-policy")).toEqual(["default-src 'none'"]);
      // Cookies are never defaults: every one is sent, as the library sends them.
      expect(header(ours, "set-cookie")).toEqual(header(library, "set-cookie"));
      expect(header(ours, "set-cookie")).toHaveLength(3);
    } finally {
      await defaults.close();
    }
  });

  it("the Content-Type is the answer's own: the library's Express adds a charset to text and JSON", async () => {
    const { library, ours } = await both(handlers, { path: "/echo" }, "charset");
    expect(header(library, "content-type")).toEqual(["application/json; charset=utf-8"]);
    expect(header(ours, "content-type")).toEqual(["application/json"]);
  });

  it("a signed-in visitor's answer is private unless it says otherwise", async () => {
    const signedIn: [string, string][] = [["Cookie", "session=abc"]];
    const { library, ours } = await both(handlers, { path: "/answer/cookies", headers: signedIn }, "signed in");
    expect(header(library, "cache-control")).toEqual([]);
    expect(header(ours, "cache-control")).toEqual(["private, no-store"]);
    expect(ours.body).toBe(library.body);
    // An answer's own Cache-Control stands.
    await same(handlers, { path: "/answer/sized", headers: signedIn }, "signed in, cached");
  });

  it("the page cache may answer instead (cacheResponse)", async () => {
    const { library, ours } = await both(handlers, { path: "/echo", headers: [["X-Keep", "1"]] }, "kept");
    expect(ours.body).toBe("kept by the page cache");
    expect(echoed(library).url).toBe("http://card.example:8080/echo");
  });

  describe("the URL behind a proxy comes from one header, never a host from one and a port from another", () => {
    it("a forwarded host without a port: the library takes the Host's port", async () => {
      const proxied = await pair({ trustProxy: true });
      try {
        const { library, ours } = await both(
          proxied,
          { path: "/echo", headers: [["X-Forwarded-Host", "proxy.example"]] },
          "forwarded without port",
        );
        expect(echoed(library).url).toBe("http://proxy.example:8080/echo");
        expect(echoed(ours).url).toBe("http://proxy.example/echo");
      } finally {
        await proxied.close();
      }
    });

    it("a proxy that is not trusted: the library takes its port all the same", async () => {
      const untrusted = await pair({ trustProxy: "10.1.2.3" });
      try {
        const { library, ours } = await both(
          untrusted,
          { path: "/echo", headers: [["X-Forwarded-Host", "proxy.example:8443"]] },
          "untrusted proxy",
        );
        expect(echoed(library).url).toBe("http://card.example:8443/echo");
        expect(echoed(ours).url).toBe("http://card.example:8080/echo");
      } finally {
        await untrusted.close();
      }
    });
  });
});
