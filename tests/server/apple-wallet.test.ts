import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { auditLog, profiles, walletSettings } from "~/.server/platform/db/schema";
import { viewerContext } from "~/middleware/viewer.server";
import { action as walletAction, loader as walletLoader } from "~/routes/admin/wallet";
import { loader as shareLoader } from "~/routes/app/share";
import { loader as appleWalletLoader } from "~/routes/app/share-apple-wallet";
import { BASE, createMember, getRequest, multipartRequest, present, run } from "./helpers";

/**
 * "Add to Apple Wallet": an administrator sets up the company's pass type
 * certificate (.p12) and Apple's WWDR certificate, and each member downloads a
 * .pkpass whose manifest and signature OpenSSL checks as Wallet does. The
 * certificates are made here by OpenSSL: a stand-in WWDR authority and a pass
 * type certificate it issued, as Apple's are.
 */

const PASS_TYPE = "pass.com.example.namecard";
const TEAM = "ABCDE12345";
const PASSWORD = "p12 password";

let dir = "";
const file = (name: string) => path.join(dir, name);
const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
/** What Wallet checks: the detached signature of manifest.json, by a certificate WWDR issued. */
const verifyManifest = (...args: string[]) =>
  openssl(
    "cms",
    "-verify",
    "-binary",
    "-inform",
    "DER",
    "-in",
    "signature",
    "-content",
    "manifest.json",
    "-CAfile",
    "wwdr.pem",
    "-purpose",
    "any",
    ...args,
  );

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-pkpass-"));
  const authority = (name: string) => {
    openssl(
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.pem`,
      "-days",
      "30",
      "-subj",
      `/CN=${name} Worldwide Developer Relations/O=Test`,
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    );
  };
  authority("wwdr");
  authority("other");
  openssl("x509", "-in", "wwdr.pem", "-outform", "DER", "-out", "wwdr.cer");
  const signer = (name: string, subject: string) => {
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subject);
    openssl(
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "wwdr.pem",
      "-CAkey",
      "wwdr.key",
      "-CAcreateserial",
      "-out",
      `${name}.pem`,
      "-days",
      "30",
    );
    openssl(
      "pkcs12",
      "-export",
      "-inkey",
      `${name}.key`,
      "-in",
      `${name}.pem`,
      "-out",
      `${name}.p12`,
      "-passout",
      `pass:${PASSWORD}`,
    );
  };
  signer("signer", `/UID=${PASS_TYPE}/CN=Pass Type ID: ${PASS_TYPE}/OU=${TEAM}/O=Example Ltd`);
  signer("elsewhere", `/UID=pass.com.example.other/CN=Pass Type ID: pass.com.example.other/OU=${TEAM}/O=Example Ltd`);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Admin = Awaited<ReturnType<typeof createMember>>;

async function saveApple(admin: Admin, fields: Record<string, string>, files: Record<string, string> = {}) {
  const form = new FormData();
  form.set("intent", "save-apple");
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  for (const [name, fileName] of Object.entries(files)) {
    form.set(name, new File([fs.readFileSync(file(fileName))], fileName));
  }
  return run(walletAction, await multipartRequest("/admin/settings/wallet", form), {}, admin.viewer);
}

/** The pass's files, as Wallet unpacks them. */
function unzip(pass: Buffer): Record<string, Buffer> {
  const listing = execFileSync(
    "python3",
    [
      "-c",
      "import base64, io, json, sys, zipfile; z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read())); print(json.dumps({n: base64.b64encode(z.read(n)).decode() for n in z.namelist()}))",
    ],
    { input: pass },
  ).toString();
  return Object.fromEntries(
    Object.entries(JSON.parse(listing) as Record<string, string>).map(([name, data]) => [
      name,
      Buffer.from(data, "base64"),
    ]),
  );
}

async function passOf(member: Admin) {
  const context = new RouterContextProvider();
  context.set(viewerContext, member.viewer);
  return (await appleWalletLoader({
    request: new Request(`${BASE}/share/apple-wallet.pkpass`),
    params: {},
    context,
  } as never)) as Response;
}

describe("Apple Wallet", () => {
  it("is offered nowhere and its pass answers 404 until an administrator sets it up", async () => {
    const member = await createMember();
    expect((await run(shareLoader, getRequest("/share"), {}, member.viewer)).data).toMatchObject({
      appleWallet: false,
    });
    expect((await run(appleWalletLoader, getRequest("/share/apple-wallet.pkpass"), {}, member.viewer)).status).toBe(
      404,
    );
  });

  it("refuses, on its fields, a wrong password, another pass type's certificate and a WWDR certificate that did not issue it, and stores nothing", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const cases: [Record<string, string>, Record<string, string>, string, RegExp][] = [
      [
        { passTypeId: "com.example", teamId: "abc" },
        { p12: "signer.p12", wwdr: "wwdr.cer" },
        "passTypeId",
        /pass type identifier/,
      ],
      [{ passTypeId: PASS_TYPE, teamId: "abc" }, { p12: "signer.p12", wwdr: "wwdr.cer" }, "teamId", /10-character/],
      [
        { passTypeId: PASS_TYPE, teamId: TEAM, password: "wrong" },
        { p12: "signer.p12", wwdr: "wwdr.cer" },
        "p12",
        /password does not open/,
      ],
      [
        { passTypeId: PASS_TYPE, teamId: TEAM, password: PASSWORD },
        { p12: "elsewhere.p12", wwdr: "wwdr.cer" },
        "p12",
        /is for pass\.com\.example\.other/,
      ],
      [
        { passTypeId: PASS_TYPE, teamId: TEAM, password: PASSWORD },
        { p12: "signer.p12", wwdr: "other.pem" },
        "p12",
        /not issued by the WWDR/,
      ],
      [
        { passTypeId: PASS_TYPE, teamId: TEAM, password: PASSWORD },
        { p12: "wwdr.cer", wwdr: "wwdr.cer" },
        "p12",
        /\.p12 file/,
      ],
      [
        { passTypeId: PASS_TYPE, teamId: TEAM, password: PASSWORD },
        { p12: "signer.p12", wwdr: "signer.p12" },
        "wwdr",
        /WWDR/,
      ],
      [{ passTypeId: PASS_TYPE, teamId: TEAM, password: PASSWORD }, { wwdr: "wwdr.cer" }, "p12", /\.p12/],
    ];
    for (const [fields, files, field, message] of cases) {
      const answer = await saveApple(admin, fields, files);
      expect(answer.status, field).toBe(400);
      expect((answer.data as { fieldErrors: Record<string, string[]> }).fieldErrors[field]?.[0], field).toMatch(
        message,
      );
    }
    expect(await db.select().from(walletSettings)).toEqual([]);
  });

  it("signs each member's pass with the company's certificate, which OpenSSL verifies against WWDR, and never shows or records its key", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Pia", lastName: "Pass" });
    await db
      .update(profiles)
      .set({ title: "Field Engineer", phone: "+49 30 1234 5678", fieldVisibility: { phone: "colleagues" } })
      .where(eq(profiles.id, member.profile.id));
    const saved = await saveApple(
      admin,
      { passTypeId: PASS_TYPE, teamId: TEAM, password: PASSWORD },
      { p12: "signer.p12", wwdr: "wwdr.cer" },
    );
    expect(saved.status).toBe(302);

    // Stored sealed; the screen and the record name the certificate, never its key or password.
    const [row] = await db.select().from(walletSettings);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain("PRIVATE KEY");
    expect(stored).not.toContain(PASSWORD);
    const screen = JSON.stringify(
      (await run(walletLoader, getRequest("/admin/settings/wallet"), {}, admin.viewer)).data,
    );
    expect(screen).toContain(`Pass Type ID: ${PASS_TYPE}`);
    expect(screen).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
    const record = JSON.stringify(await db.select().from(auditLog).where(eq(auditLog.targetId, "wallet")));
    expect(record).toContain("Apple Wallet");
    expect(record).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
    expect(record).not.toContain(PASSWORD);

    expect((await run(shareLoader, getRequest("/share"), {}, member.viewer)).data).toMatchObject({ appleWallet: true });
    const response = await passOf(member);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    const files = unzip(Buffer.from(await response.arrayBuffer()));
    for (const name of ["pass.json", "manifest.json", "signature", "icon.png", "icon@2x.png"])
      expect(files[name], name).toBeDefined();

    // The manifest names every other file by its SHA-1, as Wallet checks.
    const manifest = JSON.parse(present(files["manifest.json"], "the manifest").toString()) as Record<string, string>;
    for (const [name, data] of Object.entries(files)) {
      if (name === "manifest.json" || name === "signature") continue;
      const sha1 = (await import("node:crypto")).createHash("sha1").update(data).digest("hex");
      expect(manifest[name], name).toBe(sha1);
    }
    // The signature is a detached PKCS#7 of the manifest, by the pass certificate, chained to WWDR.
    fs.writeFileSync(file("manifest.json"), present(files["manifest.json"], "the manifest"));
    fs.writeFileSync(file("signature"), present(files.signature, "the signature"));
    verifyManifest("-out", "verified.json");
    expect(fs.readFileSync(file("verified.json")).equals(present(files["manifest.json"], "the manifest"))).toBe(true);
    const signers = verifyManifest("-out", "/dev/null", "-signer", "signer-out.pem");
    expect(signers).toBeDefined();
    expect(openssl("x509", "-in", "signer-out.pem", "-noout", "-subject").toString()).toContain(PASS_TYPE);
    // One changed byte of the manifest, and the signature no longer verifies.
    const changed = Buffer.from(present(files["manifest.json"], "the manifest"));
    changed[changed.length - 3] = (changed[changed.length - 3] ?? 0) ^ 0x01;
    fs.writeFileSync(file("manifest.json"), changed);
    expect(() => verifyManifest("-out", "/dev/null")).toThrow();

    const pass = JSON.parse(present(files["pass.json"], "pass.json").toString());
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: PASS_TYPE,
      teamIdentifier: TEAM,
      serialNumber: member.profile.id,
      generic: { primaryFields: [{ value: "Pia Pass" }], secondaryFields: [{ value: "Field Engineer" }] },
      barcodes: [
        { format: "PKBarcodeFormatQR", message: expect.stringContaining(`/profile/${member.profile.username}`) },
      ],
    });
    // Only what anyone may see: the phone is for colleagues.
    expect(JSON.stringify(pass)).not.toContain("1234 5678");

    // The pass follows the card: a new title, the same serial.
    await db.update(profiles).set({ title: "Head of Field" }).where(eq(profiles.id, member.profile.id));
    const again = JSON.parse(
      present(unzip(Buffer.from(await (await passOf(member)).arrayBuffer()))["pass.json"], "pass.json").toString(),
    );
    expect(again.serialNumber).toBe(member.profile.id);
    expect(again.generic.secondaryFields).toEqual([{ key: "title", label: "Title", value: "Head of Field" }]);

    // A deactivated card has no pass.
    await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, member.profile.id));
    expect((await run(appleWalletLoader, getRequest("/share/apple-wallet.pkpass"), {}, member.viewer)).status).toBe(
      410,
    );
  });
});
