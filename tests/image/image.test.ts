import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasPodman } from "../support/checkers";
import { buildImage, dataVolume, healthy, IMAGE, podman, podmanOk, until } from "../support/containers";
import { freePort, signedInMember, usernameIn } from "../support/server-process";

/**
 * The container image as an operator meets it: built from the Dockerfile, run unprivileged
 * with a read-only root and a data volume, driven over HTTP, stopped with SIGTERM, started
 * again on its volume, backed up and restored with its own commands.
 */

const available = hasPodman();
const { version } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
const revision = "0123456789abcdef0123456789abcdef01234567";

/** The members the tests sign up: as the first administrators, joining needs no invitation. */
const ADMIN_EMAILS = "conta.iner@example.com,back.up@example.com";

const containers: string[] = [];
const volumes: string[] = [];

beforeAll(async () => {
  if (available) await buildImage({ version, revision });
});

afterAll(async () => {
  for (const name of containers) await podman("rm", "--force", "--time", "0", name);
  for (const dir of volumes) fs.rmSync(dir, { recursive: true, force: true });
});

type Started = { name: string; url: string; port: number; dataDir: string };

/** A container of the image on a data volume, as the operator's guide runs it, once it answers /healthz. */
async function startContainer(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const name = `namecard-test-${process.pid}-${containers.length + 1}`;
  containers.push(name);
  const url = `http://127.0.0.1:${port}`;
  await podmanOk(
    "run",
    "--detach",
    "--name",
    name,
    "--read-only",
    "--network=host",
    // As compose.yaml names it: the database's lock names its host.
    "--hostname",
    "namecard",
    "--volume",
    `${dataDir}:/data`,
    ...Object.entries({ PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, ADMIN_EMAILS, ...env }).flatMap(
      ([key, value]) => ["--env", `${key}=${value}`],
    ),
    IMAGE,
  );
  await healthy(url, 90_000);
  return { name, url, port, dataDir };
}

async function logs(name: string) {
  const result = await podman("logs", name);
  return result.stdout + result.stderr;
}

async function inspect(name: string, format: string) {
  return (await podmanOk("inspect", "--format", format, name)).trim();
}

async function usernameOf(server: Started, cookie: string) {
  const html = await (await fetch(`${server.url}/profile/edit`, { headers: { cookie } })).text();
  return usernameIn(html);
}

async function uploadPhoto(server: Started, cookie: string, username: string) {
  const photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#2a6" } })
    .png()
    .toBuffer();
  const form = new FormData();
  const fields = {
    firstName: "Conta",
    lastName: "Iner",
    email: "conta.iner@example.com",
    username,
    title: "Runs in a container",
    phone: "",
    bio: "",
    linkedinUrl: "",
    companyBrandId: "",
  };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("photo", new File([new Uint8Array(photo)], "photo.png", { type: "image/png" }));
  return fetch(`${server.url}/profile/edit`, {
    method: "POST",
    // A form is taken from the address the browser sent it to (here the loopback address).
    headers: { cookie, origin: server.url },
    body: form,
    redirect: "manual",
  });
}

/** The card's public page, and the address of its photo on it. */
async function card(server: Started, username: string) {
  const response = await fetch(`${server.url}/profile/${username}`);
  const html = await response.text();
  const photo = /src="(\/uploads\/[^"]+)"/.exec(html)?.[1];
  return { status: response.status, html, photo };
}

describe.skipIf(!available)("the container image", () => {
  it("holds the built server and its runtime only, labelled, running as an unprivileged user", async () => {
    const [image] = JSON.parse(await podmanOk("image", "inspect", IMAGE));
    const config = image.Config;
    expect(config.User).toBe("10001:10001");
    expect(config.Labels).toMatchObject({
      "org.opencontainers.image.title": "Namecard",
      "org.opencontainers.image.version": version,
      "org.opencontainers.image.revision": revision,
    });
    expect(config.Labels["org.opencontainers.image.licenses"]).toBeTruthy();
    expect(Object.keys(config.Volumes)).toEqual(["/data"]);
    expect(Object.keys(config.ExposedPorts)).toEqual(["3000/tcp"]);
    expect(config.StopSignal).toBe("SIGTERM");
    expect(image.Healthcheck.Test.join(" ")).toContain("/healthz");
    expect(config.Env).toEqual(expect.arrayContaining(["NODE_ENV=production", "DATA_DIR=/data"]));

    // No package manager, compiler or sources; no development tools among the packages.
    const look = await podmanOk(
      "run",
      "--rm",
      "--network=none",
      "--entrypoint",
      "sh",
      IMAGE,
      "-c",
      'for tool in npm npx yarn corepack gcc cc make python3 git; do command -v "$tool"; done; ' +
        "echo ---; ls -A /app; echo ---; ls /app/node_modules /app/node_modules/.bin 2>/dev/null | " +
        "grep -x -E 'vitest|vite|esbuild|typescript|tsx|drizzle-kit|happy-dom|@biomejs|playwright-core' || true",
    );
    const [tools, files, devPackages] = look.split("---\n");
    // A production build: React's production bundle (its errors minified) reaches the browser.
    const production = await podmanOk(
      ...["run", "--rm", "--network=none", "--entrypoint", "sh", IMAGE],
      ...["-c", "grep -l 'Minified React error' build/client/assets/*.js | wc -l"],
    );
    expect(Number(production.trim())).toBeGreaterThan(0);
    expect(tools).toBe("");
    expect(files?.trim().split("\n")).toEqual([
      "build",
      "drizzle",
      "node_modules",
      "package.json",
      "server",
      "server.js",
    ]);
    expect(devPackages?.trim()).toBe("");
  });

  it("serves a member's card, photo and QR code from a read-only container, survives a restart with its data and stops gracefully", async () => {
    const dataDir = dataVolume();
    volumes.push(dataDir);
    const server = await startContainer(dataDir);
    expect(await logs(server.name)).toMatch(/Namecard is listening on http:\/\/localhost:\d+ .*production mode/);

    // The image's own health check.
    const health = await podman("healthcheck", "run", server.name);
    expect(health.code, health.stderr).toBe(0);

    // Nothing outside the volume can be written, and the server runs as the image's user.
    const write = await podman("exec", server.name, "sh", "-c", "touch /app/x 2>&1; touch /tmp/x 2>&1; id -u");
    expect(write.stdout).toMatch(/Read-only file system/);
    expect(write.stdout.trim().split("\n").at(-1)).toBe("10001");

    const cookie = await signedInMember(server, "conta.iner@example.com", { first: "Conta", last: "Iner" });
    const username = await usernameOf(server, cookie);
    const saved = await uploadPhoto(server, cookie, username);
    expect(saved.status, await saved.clone().text()).toBe(302);

    const before = await card(server, username);
    expect(before.status).toBe(200);
    expect(before.html).toContain("Runs in a container");
    expect(before.photo).toBeDefined();
    const photo = await fetch(`${server.url}${before.photo}`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toMatch(/^image\//);
    const qr = await fetch(`${server.url}/profile/${username}/qr.png`);
    expect(qr.headers.get("content-type")).toBe("image/png");
    // The preview image sets the name in the site's font, read from the image's own files.
    const preview = await fetch(`${server.url}/profile/${username}/og.png`);
    expect(preview.status).toBe(200);
    expect((await sharp(Buffer.from(await preview.arrayBuffer())).metadata()).width).toBeGreaterThan(600);

    // SIGTERM: requests finish, the database closes, exit code 0, well inside a 30-second grace.
    await podmanOk("stop", "--time", "30", server.name);
    expect(await inspect(server.name, "{{.State.ExitCode}}")).toBe("0");
    expect(await logs(server.name)).toMatch(
      /\[server\] SIGTERM: finishing requests in flight[\s\S]*\[server\] stopped/,
    );

    // Started again on the same volume: the card, its photo and the member's session are all there.
    await podmanOk("start", server.name);
    await healthy(server.url, 90_000);
    const after = await card(server, username);
    expect(after.html).toContain("Runs in a container");
    expect(after.photo).toBe(before.photo);
    expect((await fetch(`${server.url}${after.photo}`)).status).toBe(200);
    const signedIn = await fetch(`${server.url}/profile/edit`, { headers: { cookie }, redirect: "manual" });
    expect(signedIn.status).toBe(200);

    // Killed outright, then replaced by a new container on the same volume: the lock left behind is taken over.
    await podmanOk("kill", "--signal", "KILL", server.name);
    await podmanOk("wait", server.name);
    await podmanOk("rm", server.name);
    const replacement = await startContainer(dataDir);
    expect(await logs(replacement.name)).toMatch(/took over db\.lock left by a process that is gone/);
    expect((await card(replacement, username)).photo).toBe(before.photo);
    await podmanOk("stop", "--time", "30", replacement.name);
  });

  it("stops at start with one line when the data volume belongs to another user", async () => {
    const dataDir = dataVolume();
    volumes.push(dataDir);
    fs.chownSync(dataDir, 0, 0);
    const result = await podman("run", "--rm", "--read-only", "--network=none", "--volume", `${dataDir}:/data`, IMAGE);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "[config] DATA_DIR: /data cannot be written by this user (uid 10001) (EACCES): make it writable for the user running Namecard, or point DATA_DIR elsewhere.",
    );
  });

  it("backs up from the running container and restores into a new volume with its own commands", async () => {
    const dataDir = dataVolume();
    volumes.push(dataDir);
    const server = await startContainer(dataDir);
    const cookie = await signedInMember(server, "back.up@example.com", { first: "Back", last: "Up" });
    const username = await usernameOf(server, cookie);

    const backup = await podman("exec", server.name, "node", "build/scripts/backup.js", "/data/namecard.ndjson.gz");
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/made by the running server/);
    await podmanOk("stop", "--time", "30", server.name);

    // A new volume, the archive beside it, restored by a one-off container before the first start.
    const restored = dataVolume();
    volumes.push(restored);
    // The archive is sealed with the installation's secret: the new volume gets the same one.
    for (const file of ["namecard.ndjson.gz", "auth-secret"]) {
      fs.copyFileSync(path.join(dataDir, file), path.join(restored, file));
      fs.chownSync(path.join(restored, file), 10001, 10001);
    }
    const restore = await podman(
      "run",
      "--rm",
      "--read-only",
      "--network=none",
      "--volume",
      `${restored}:/data`,
      IMAGE,
      "node",
      "build/scripts/restore.js",
      "/data/namecard.ndjson.gz",
    );
    expect(restore.code, restore.stderr + restore.stdout).toBe(0);

    const second = await startContainer(restored);
    const page = await until("the restored card", async () => {
      const found = await card(second, username);
      return found.status === 200 ? found : undefined;
    });
    expect(page.html).toContain("Back");
    await podmanOk("stop", "--time", "30", second.name);
  });
});
