import { generateKeyPairSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { decodeProtectedHeader, importSPKI, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { auditLog, profiles, walletSettings } from "~/.server/platform/db/schema";
import { env } from "~/.server/platform/env";
import { action as walletAction } from "~/routes/admin/wallet";
import { loader as shareLoader } from "~/routes/app/share";
import { loader as googleWalletLoader } from "~/routes/app/share-google-wallet";
import { createMember, formRequest, getRequest, present, run } from "./helpers";

/**
 * "Save to Google Wallet": an administrator pastes the service account's key,
 * and each member's link carries a pass signed with it (RS256), checked here
 * with the matching public key as Google checks it.
 */

function serviceAccount() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const json = JSON.stringify({
    type: "service_account",
    project_id: "namecard-test",
    private_key_id: "key-1234",
    // As Google writes it: PKCS#8.
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: "wallet@namecard-test.iam.gserviceaccount.com",
  });
  return { json, publicKey: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

async function saveWallet(admin: Awaited<ReturnType<typeof createMember>>, fields: Record<string, string>) {
  return run(walletAction, formRequest("/admin/settings/wallet", { intent: "save-google", ...fields }), {}, {
    ...admin.viewer,
    role: "admin",
    isAdmin: true,
  } as never);
}

describe("Google Wallet", () => {
  it("is offered nowhere and its link answers 404 until an administrator sets it up", async () => {
    const member = await createMember();
    expect((await run(shareLoader, getRequest("/share"), {}, member.viewer)).data).toMatchObject({
      googleWallet: false,
    });
    expect((await run(googleWalletLoader, getRequest("/share/google-wallet"), {}, member.viewer)).status).toBe(404);
  });

  it("signs each member's pass with the company's service account, whose key is stored sealed and recorded nowhere", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const account = serviceAccount();
    const refused = await saveWallet(admin, { issuerId: "not-digits", serviceAccount: "{ nope" });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      fieldErrors: { issuerId: [expect.any(String)], serviceAccount: [expect.any(String)] },
    });
    expect(await db.select().from(walletSettings)).toEqual([]);

    expect((await saveWallet(admin, { issuerId: "3388000000012345678", serviceAccount: account.json })).status).toBe(
      302,
    );
    const stored = JSON.stringify(await db.select().from(walletSettings));
    expect(stored).not.toContain("PRIVATE KEY");
    expect(JSON.stringify(await db.select().from(auditLog))).not.toContain("PRIVATE KEY");
    // Saving again without a key keeps the stored one.
    expect((await saveWallet(admin, { issuerId: "3388000000012345679", serviceAccount: "" })).status).toBe(302);

    const member = await createMember();
    await db.update(profiles).set({ title: "Engineer" }).where(eq(profiles.id, member.profile.id));
    expect((await run(shareLoader, getRequest("/share"), {}, member.viewer)).data).toMatchObject({
      googleWallet: true,
    });
    const answer = await run(googleWalletLoader, getRequest("/share/google-wallet"), {}, member.viewer);
    expect(answer.status).toBe(302);
    const location = present(answer.location, "the save address");
    expect(location).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\//);
    const jwt = location.slice("https://pay.google.com/gp/v/save/".length);
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: "RS256", kid: "key-1234" });
    const { payload } = await jwtVerify(jwt, await importSPKI(account.publicKey, "RS256"), {
      issuer: "wallet@namecard-test.iam.gserviceaccount.com",
      audience: "google",
    });
    expect(payload).toMatchObject({ typ: "savetowallet", origins: [new URL(env.PUBLIC_URL).origin] });
    const object = (payload.payload as { genericObjects: Record<string, unknown>[] }).genericObjects[0];
    expect(object).toMatchObject({
      id: `3388000000012345679.${member.profile.id}`,
      classId: "3388000000012345679.namecard_card",
      header: { defaultValue: { value: `${member.profile.firstName} ${member.profile.lastName}` } },
      subheader: { defaultValue: { value: "Engineer" } },
      barcode: { type: "QR_CODE", value: `${env.PUBLIC_URL}/profile/${member.profile.username}?src=qr` },
    });

    // A card switched off has no pass.
    await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, member.profile.id));
    expect((await run(googleWalletLoader, getRequest("/share/google-wallet"), {}, member.viewer)).status).toBe(410);
  });
});
