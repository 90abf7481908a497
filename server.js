// Namecard's process: static files, compression, request logs, the app, and a
// graceful shutdown that closes the database. See docs/decisions/003-custom-server.md.
import compression from "compression";
import express from "express";

const DEVELOPMENT = process.env.NODE_ENV === "development";
const BUILD_PATH = "./build/server/index.js";

let server;
try {
  server = DEVELOPMENT ? await developmentServer() : await import(BUILD_PATH);
} catch (error) {
  if (error?.name === "EnvError") {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    if (req.path.startsWith("/assets/") && res.statusCode < 400) return;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.info(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms`);
  });
  next();
});

// The client address, a well-formed URL and the security headers come first, static files included.
server.prepare(app);
if (DEVELOPMENT) {
  app.use(server.vite.middlewares);
} else {
  // Hashed build assets never change; other public files may.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  app.use(express.static("build/client", { maxAge: "1h" }));
}
server.handle(app);

const listener = app.listen(server.config.port, () => {
  console.info(`Namecard is listening on ${server.config.publicUrl} (port ${server.config.port})`);
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.info(`[server] ${signal}: closing`);
  listener.close();
  listener.closeAllConnections?.();
  try {
    await server.shutdown();
  } finally {
    process.exit(0);
  }
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

async function developmentServer() {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true } });
  const mod = await vite.ssrLoadModule("./server/app.ts");
  return { ...mod, vite };
}
