import net from "node:net";

/** A port nobody is using, for a server a benchmark starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The environment of a production server a benchmark starts on `port`, with its own data
 * folder, on PostgreSQL when `databaseUrl` is given (which needs a shared AUTH_SECRET).
 */
export function benchServerEnv(options: { port: number; dataDir: string; databaseUrl?: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl ?? "",
    AUTH_SECRET: process.env.AUTH_SECRET || "benchmark-secret-benchmark-secret-0123456789",
  };
}
