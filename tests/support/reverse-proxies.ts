// The reverse-proxy recipes of deploy/, run by the real proxies from Debian's packages in front
// of a test's server: each recipe is the committed file with its placeholders (the domain, the
// certificate, the ports) filled in, nothing else changed.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { IN_CI } from "./checkers";

export type ReverseProxy = {
  name: "nginx" | "caddy";
  /** The https:// address clients use. */
  url: string;
  /** The plain-HTTP port that redirects to it. */
  httpPort: number;
  child: ChildProcess;
  output(): string;
};

export type Tls = { dir: string; cert: string; key: string; ca: Buffer };

/** A certificate for localhost, made by OpenSSL, that the test's client trusts. */
export function localhostCertificate(dir: string): Tls {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  const made = spawnSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost",
    "-keyout",
    key,
    "-out",
    cert,
  ]);
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { dir, cert, key, ca: fs.readFileSync(cert) };
}

/** Whether the proxy is installed; under CI a missing one fails the run. */
export function hasProxy(name: ReverseProxy["name"]): boolean {
  const found = spawnSync(name === "nginx" ? "/usr/sbin/nginx" : "caddy", ["-v"], { stdio: "ignore" });
  if (found.status === 0) return true;
  if (name === "caddy" && spawnSync("caddy", ["version"], { stdio: "ignore" }).status === 0) return true;
  const message = `${name} is not installed: apt-get install ${name === "nginx" ? "nginx-light" : "caddy"}`;
  if (IN_CI) throw new Error(`${message}. Under CI every check must run.`);
  console.warn(`\n[tests] SKIPPED: ${message}\n`);
  return false;
}

/** nginx with deploy/nginx/namecard.conf as its only site. */
function nginxConfig(tls: Tls, ports: { app: number; https: number; http: number }) {
  const site = fs
    .readFileSync("deploy/nginx/namecard.conf", "utf8")
    .replaceAll("cards.example.com", "localhost")
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${ports.app}`)
    .replaceAll("/etc/ssl/namecard/fullchain.pem", tls.cert)
    .replaceAll("/etc/ssl/namecard/privkey.pem", tls.key)
    // This machine may have no IPv6: the IPv4 listeners are enough for a test.
    .replace(/^\s*listen \[::\]:.*$/gm, "")
    .replace("listen 443 ssl http2;", `listen 127.0.0.1:${ports.https} ssl http2;`)
    .replace("listen 80;", `listen 127.0.0.1:${ports.http};`);
  const temp = path.join(tls.dir, "nginx");
  // nginx's workers, which run as an unprivileged user, keep large request bodies here.
  fs.chmodSync(tls.dir, 0o711);
  fs.mkdirSync(temp, { mode: 0o777 });
  fs.chmodSync(temp, 0o777);
  fs.writeFileSync(path.join(tls.dir, "site.conf"), site);
  const main = `daemon off;
worker_processes 1;
pid ${temp}/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  include ${path.join(tls.dir, "site.conf")};
}
`;
  const file = path.join(tls.dir, "nginx.conf");
  fs.writeFileSync(file, main);
  return { command: "/usr/sbin/nginx", args: ["-e", "stderr", "-p", temp, "-c", file] };
}

/** Caddy with deploy/caddy/Caddyfile, its own certificate replaced by the test's. */
function caddyConfig(tls: Tls, ports: { app: number; https: number; http: number }) {
  const site = fs
    .readFileSync("deploy/caddy/Caddyfile", "utf8")
    .replace("cards.example.com {", `localhost {\n\ttls ${tls.cert} ${tls.key}`)
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${ports.app}`);
  const global = `{
\tadmin off
\thttp_port ${ports.http}
\thttps_port ${ports.https}
\tstorage file_system ${path.join(tls.dir, "caddy")}
\tskip_install_trust
\tdefault_bind 127.0.0.1
}
`;
  const file = path.join(tls.dir, "Caddyfile");
  fs.writeFileSync(file, global + site);
  return { command: "caddy", args: ["run", "--adapter", "caddyfile", "--config", file] };
}

/** Starts the proxy; resolves once its https:// address answers the app's /healthz. */
export async function startProxy(
  name: ReverseProxy["name"],
  tls: Tls,
  ports: { app: number; https: number; http: number },
): Promise<ReverseProxy> {
  const { command, args } = name === "nginx" ? nginxConfig(tls, ports) : caddyConfig(tls, ports);
  const child = spawn(command, args, {
    env: { ...process.env, HOME: tls.dir, XDG_DATA_HOME: tls.dir, XDG_CONFIG_HOME: tls.dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const proxy: ReverseProxy = {
    name,
    url: `https://localhost:${ports.https}`,
    httpPort: ports.http,
    child,
    output: () => output,
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode}:\n${output}`);
    try {
      if ((await httpsFetch(proxy, "/healthz")).status === 200) return proxy;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${name} did not answer within 30 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Init = { method?: string; headers?: Record<string, string>; body?: Buffer | string };

/**
 * A request over TLS to the proxy, trusting the test's certificate; redirects are not
 * followed. Sent to 127.0.0.1 as localhost, whatever localhost resolves to here.
 */
export function httpsFetch(proxy: Pick<ReverseProxy, "url"> & { ca?: Buffer }, pathname: string, init: Init = {}) {
  return new Promise<Response>((resolve, reject) => {
    const url = new URL(pathname, proxy.url);
    const request = https.request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? "GET",
        servername: "localhost",
        ca: proxy.ca ?? currentCa,
        headers: { host: url.host, ...init.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const headers = new Headers();
          for (let i = 0; i < response.rawHeaders.length; i += 2) {
            headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
          }
          const status = response.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(init.body);
  });
}

/** Opens a request and resolves with the first chunk of its body, leaving the stream open. */
export function firstChunk(proxy: Pick<ReverseProxy, "url">, pathname: string, headers: Record<string, string>) {
  return new Promise<{ status: number; text: string; close(): void }>((resolve, reject) => {
    const url = new URL(pathname, proxy.url);
    const request = https.request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: url.pathname,
        servername: "localhost",
        ca: currentCa,
        headers: { host: url.host, ...headers },
      },
      (response) => {
        response.once("data", (chunk: Buffer) =>
          resolve({ status: response.statusCode ?? 0, text: chunk.toString(), close: () => request.destroy() }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

let currentCa: Buffer | undefined;
/** The certificate authority httpsFetch and firstChunk trust from now on. */
export function trust(tls: Tls) {
  currentCa = tls.ca;
}
