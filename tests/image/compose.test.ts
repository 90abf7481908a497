import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
// @ts-expect-error s3rver ships no type declarations
import S3rver from "s3rver";
import sharp from "sharp";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { hasPodman } from "../support/checkers";
import { buildImage, healthy, IMAGE, podman, podmanOk } from "../support/containers";
import { createScratchDatabase, POSTGRES_URL } from "../support/postgres";
import { freePort, scratchDir, signedInMember, usernameIn } from "../support/server-process";

/**
 * compose.yaml as an operator starts it. Its namecard service is run as the file defines it
 * (environment, secrets as files, read-only root, tmpfs, volume), against real services in
 * the places of its neighbours: the machine's PostgreSQL, an S3 store (s3rver) and a mail
 * server (smtp-server), reached under the neighbours' host names. The neighbours' own images
 * cannot be fetched here; what the file asks of them is checked as written.
 */

type Service = {
  image?: string;
  hostname?: string;
  ports?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  volumes?: string[];
  tmpfs?: string[];
  read_only?: boolean;
  stop_grace_period?: string;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
};
type Compose = {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
  volumes: Record<string, unknown>;
};

// `<<:` merges the shared settings into each service, as compose does.
const compose = parse(fs.readFileSync("compose.yaml", "utf8"), { merge: true }) as Compose;
const available = hasPodman();

/** A value as compose interpolates it with nothing set: `${NAME:-default}` becomes the default. */
const interpolated = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, "$1");

describe("compose.yaml", () => {
  it("starts Namecard after PostgreSQL and the store are healthy and the bucket exists", () => {
    const { namecard, postgres, storage } = compose.services;
    expect(namecard?.depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      storage: { condition: "service_healthy" },
      "storage-bucket": { condition: "service_completed_successfully" },
      mail: { condition: "service_started" },
    });
    expect(postgres?.healthcheck?.test).toContain("pg_isready");
    expect(storage?.healthcheck?.test).toEqual(["CMD", "mc", "ready", "local"]);
  });

  it("hands every secret over as a file, never as a value in the environment", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (/PASSWORD|SECRET|_KEY|TOKEN/.test(key)) {
          expect(key, `${name}: ${key}`).toMatch(/_FILE$/);
          expect(value).not.toMatch(/\$\{/);
        }
      }
      for (const secret of service.secrets ?? []) {
        expect(compose.secrets[secret]?.file, `${name}: ${secret}`).toBe(`./secrets/${secret}`);
      }
    }
    // The database's password is in no address either.
    expect(new URL(compose.services.namecard?.environment?.DATABASE_URL ?? "").password).toBe("");
  });

  it("publishes Namecard and the caught mail on this machine only unless told otherwise", () => {
    for (const service of Object.values(compose.services)) {
      for (const port of service.ports ?? []) expect(interpolated(port)).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    }
    expect(compose.services.mail?.ports?.map(interpolated)).toEqual(["127.0.0.1:8025:8025"]);
  });

  it("keeps every service's data in a named volume, and the embedded trial needs no other service", () => {
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        expect(Object.keys(compose.volumes)).toContain(volume.split(":")[0]);
      }
    }
    const embedded = compose.services.embedded;
    expect(embedded?.profiles).toEqual(["embedded"]);
    expect(embedded?.depends_on).toBeUndefined();
    expect(embedded?.environment?.DATABASE_URL).toBeUndefined();
    expect(embedded?.read_only).toBe(true);
    // Only the embedded trial is behind a profile: `docker compose up` starts the whole stack.
    const profiled = Object.entries(compose.services).filter(([, service]) => service.profiles);
    expect(profiled.map(([name]) => name)).toEqual(["embedded"]);
  });
});

describe.skipIf(!available || !POSTGRES_URL)("compose.yaml's namecard service", () => {
  const dir = scratchDir();
  const container = `namecard-compose-${process.pid}`;
  let s3: { close(): Promise<void> };
  let smtp: SMTPServer;
  const mails: { to: string[]; raw: string }[] = [];
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    await buildImage({ version: "compose", revision: "compose" });
  });

  afterAll(async () => {
    await podman("rm", "--force", "--time", "0", container);
    await s3?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("runs on PostgreSQL with uploads in the store and mail through the mail server, its secrets read from files", async () => {
    const service = compose.services.namecard!;

    // The secrets, made as the file's comment says.
    const secrets = path.join(dir, "secrets");
    fs.mkdirSync(secrets, { mode: 0o700 });
    const database = await createScratchDatabase();
    drop = database.drop;
    const values: Record<string, string> = {
      auth_secret: "compose-auth-secret-0123456789abcdef0123456789",
      database_password: `${decodeURIComponent(new URL(POSTGRES_URL!).password)}\n`,
      storage_user: "S3RVER\n",
      storage_password: "S3RVER\n",
    };
    for (const [name, value] of Object.entries(values)) {
      fs.writeFileSync(path.join(secrets, name), value, { mode: 0o644 });
    }

    // The neighbours, under their host names.
    const s3Port = await freePort();
    const store = new S3rver({
      port: s3Port,
      address: "127.0.0.1",
      silent: true,
      // Path-style addresses under any host name, as MinIO takes them (s3rver would read the
      // host name "storage" as a bucket's).
      vhostBuckets: false,
      directory: path.join(dir, "s3"),
      configureBuckets: [{ name: service.environment!.S3_BUCKET, configs: [] }],
    });
    await store.run();
    s3 = store;
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        let raw = "";
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
        stream.on("end", () => {
          mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;

    // The service's environment as compose gives it, its neighbours' ports those of the stand-ins.
    const port = await freePort();
    const scratch = new URL(database.url);
    const neighbours: Record<string, string> = {
      "postgres:5432": `postgres:${scratch.port || 5432}`,
      "storage:9000": `storage:${s3Port}`,
      "mail:1025": `mail:${smtpPort}`,
    };
    const environment = Object.entries(service.environment!).map(([key, raw]) => {
      let value = interpolated(String(raw));
      for (const [from, to] of Object.entries(neighbours)) value = value.replace(from, to);
      if (key === "DATABASE_URL") value = value.replace(/\/namecard$/, scratch.pathname);
      if (key === "PUBLIC_URL") value = `http://localhost:${port}`;
      if (key === "ADMIN_EMAILS") value = "com.pose@example.com";
      return `${key}=${value}`;
    });
    const data = path.join(dir, "data");
    fs.mkdirSync(data, { mode: 0o700 });
    fs.chownSync(data, 10001, 10001);

    await podmanOk(
      "run",
      "--detach",
      "--name",
      container,
      ...(service.read_only ? ["--read-only"] : []),
      ...(service.hostname ? ["--hostname", service.hostname] : []),
      ...(service.tmpfs ?? []).flatMap((mount) => ["--tmpfs", mount]),
      "--network=host",
      ...["postgres", "storage", "mail"].flatMap((host) => ["--add-host", `${host}:127.0.0.1`]),
      ...service.secrets!.flatMap((name) => ["--volume", `${path.join(secrets, name)}:/run/secrets/${name}:ro`]),
      "--volume",
      `${data}:/data`,
      ...environment.flatMap((pair) => ["--env", pair]),
      "--env",
      `PORT=${port}`,
      IMAGE,
    );
    const url = `http://127.0.0.1:${port}`;
    await healthy(url, 90_000);
    const started = await podman("logs", container);
    expect(started.stdout + started.stderr).toMatch(/\[db\] PostgreSQL: migrations applied/);
    // No secret reaches the log or the container's configuration (the stand-ins' own
    // passwords are common words; the auth secret is one of a kind).
    const configuration = await podmanOk("inspect", container);
    expect(started.stdout + started.stderr).not.toContain(values.auth_secret);
    expect(configuration).not.toContain(values.auth_secret);

    // A member signs up: the confirmation goes through the mail server.
    const latestLink = (email: string) => {
      const mail = mails.findLast((each) => each.to.includes(email));
      const link =
        mail &&
        /(http:\/\/localhost:\d+\/api\/auth\/confirm-email\?token=[^\s"<]+)/.exec(
          mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "="),
        );
      return link?.[1];
    };
    const cookie = await signedInMember({ url, port, dataDir: data, latestLink }, "com.pose@example.com", {
      first: "Com",
      last: "Pose",
    });

    // Their photo goes to the store, and is served from it.
    const html = await (await fetch(`${url}/profile/edit`, { headers: { cookie } })).text();
    const username = usernameIn(html);
    const form = new FormData();
    const fields = {
      firstName: "Com",
      lastName: "Pose",
      email: "com.pose@example.com",
      username,
      title: "",
      phone: "",
      bio: "",
      linkedinUrl: "",
      companyBrandId: "",
    };
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#37a" } })
      .png()
      .toBuffer();
    form.set("photo", new File([new Uint8Array(photo)], "photo.png", { type: "image/png" }));
    const saved = await fetch(`${url}/profile/edit`, {
      method: "POST",
      headers: { cookie, origin: url },
      body: form,
      redirect: "manual",
    });
    expect(saved.status).toBe(302);
    const card = await (await fetch(`${url}/profile/${username}`)).text();
    const photoUrl = /src="(\/uploads\/[^"]+)"/.exec(card)?.[1];
    expect(photoUrl, (await podman("logs", container)).stderr).toBeDefined();
    expect((await fetch(`${url}${photoUrl}`)).status).toBe(200);
    const stored = fs.readdirSync(path.join(dir, "s3", service.environment!.S3_BUCKET!), { recursive: true });
    expect(stored.length).toBeGreaterThan(0);
    // Nothing of it was kept in the data volume instead.
    expect(fs.existsSync(path.join(data, "uploads"))).toBe(false);

    await podmanOk("stop", "--time", String(Number.parseInt(service.stop_grace_period ?? "30", 10)), container);
    expect((await podmanOk("inspect", "--format", "{{.State.ExitCode}}", container)).trim()).toBe("0");
  });
});
