// The container image, built from the repository's Dockerfile with podman on base images made
// here from Debian's packages (tests/image/base-images.sh), and containers of it run as an
// operator runs them. Waits are for conditions (a health answer, an exit), never fixed times.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const CONF = path.resolve("tests/image/containers.conf");
export const IMAGE = "localhost/namecard:under-test";
const BASES = {
  node: "localhost/namecard-test/node:24",
  runtime: "localhost/namecard-test/debian:bookworm",
};

export type Result = { code: number | null; stdout: string; stderr: string };

/** Runs a command with podman's settings for this machine, to its end. */
function run(command: string, args: string[], options: { input?: string } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, CONTAINERS_CONF: CONF },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr: withoutTimerNoise(stderr) }));
    child.stdin.end(options.input ?? "");
  });
}

/**
 * Podman schedules an image's health check with systemd timers; without systemd (these
 * machines, most CI runners) it says so on every run and start. The check still runs when asked.
 */
function withoutTimerNoise(stderr: string) {
  return stderr
    .split("\n")
    .filter((line) => !/unable to get systemd connection/.test(line))
    .join("\n");
}

export const podman = (...args: string[]) => run("podman", args);

/** Runs podman and fails with its output unless it succeeds; its standard output. */
export async function podmanOk(...args: string[]): Promise<string> {
  const result = await podman(...args);
  if (result.code !== 0) {
    throw new Error(`podman ${args.join(" ")} exited ${result.code}:\n${result.stderr}\n${result.stdout}`.slice(-6000));
  }
  return result.stdout;
}

/** The base images, then the project's image on them, as the Dockerfile's build arguments allow. */
export async function buildImage(labels: { version: string; revision: string }) {
  const bases = await run("bash", ["tests/image/base-images.sh"]);
  if (bases.code !== 0) throw new Error(`the base images could not be made:\n${bases.stderr}\n${bases.stdout}`);
  await podmanOk(
    "build",
    "--network=host",
    // Docker's format keeps HEALTHCHECK, which the OCI format has no field for.
    "--format=docker",
    `--build-arg=NODE_IMAGE=${BASES.node}`,
    `--build-arg=RUNTIME_IMAGE=${BASES.runtime}`,
    `--build-arg=VERSION=${labels.version}`,
    `--build-arg=REVISION=${labels.revision}`,
    "--tag",
    IMAGE,
    ".",
  );
}

/** A folder on this machine mounted as the container's data volume, owned by the image's user. */
export function dataVolume(): string {
  const dir = path.resolve("tests/.tmp", `image-data-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chownSync(dir, 10001, 10001);
  return dir;
}

/** Waits until `check` holds, trying every 100 ms for up to `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch {
      // Not yet.
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves once `url`'s /healthz answers 200. */
export const healthy = (url: string, timeoutMs?: number) =>
  until(`${url}/healthz`, async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : undefined), timeoutMs);
