import { createPrivateKey } from "node:crypto";
import { eq } from "drizzle-orm";
import { importPKCS8, SignJWT } from "jose";
import { z } from "zod";
import { brandPalette } from "~/lib/color";
import { mediaUrl } from "~/lib/media";
import { fullName } from "~/lib/names";
import { can } from "~/lib/permissions";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { walletSettings } from "../platform/db/schema";
import { env } from "../platform/env";
import { ForbiddenError, ValidationError } from "../platform/errors";
import { getSiteSettings } from "../platform/site-settings";
import { cardForViewer, getCardByUsername } from "../profiles/get-card";
import { cardUrl, qrTargetUrl } from "../profiles/qr";
import { openSecret, sealSecret } from "../sso/secrets";
import { googlePassDetails } from "./pass-fields";

/**
 * "Save to Google Wallet" (docs/decisions/033-card-everywhere.md): a generic
 * pass defined entirely in a JWT that the company's service account signs
 * (RS256). The link needs no call to Google from this server: the member's
 * browser takes the signed JWT to Google, which checks it against the
 * account's public key. Without a configuration there is no button, and the
 * link's address answers 404.
 */

/** The associated data the service account's key is sealed under: it opens nowhere else. */
const SEALED_AS = "wallet:google-service-account";
const SAVE_URL = "https://pay.google.com/gp/v/save/";

const IssuerIdSchema = z
  .string()
  .trim()
  .regex(/^[0-9]{6,25}$/, "Enter the issuer ID from the Google Pay & Wallet Console: digits only");

/** The service account's key file, as Google Cloud downloads it (JSON). */
const ServiceAccountSchema = z.object({
  type: z.literal("service_account"),
  client_email: z.email(),
  private_key_id: z.string().min(1).max(200),
  private_key: z.string().min(100).max(10_000),
});

type ServiceAccount = z.infer<typeof ServiceAccountSchema>;

const KEY_FILE_MESSAGE =
  "Paste the whole JSON key file of a service account (Google Cloud → IAM → Service accounts → Keys → Add key → JSON)";

function parseServiceAccount(text: string): ServiceAccount {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ValidationError({ serviceAccount: [KEY_FILE_MESSAGE] });
  }
  const parsed = ServiceAccountSchema.safeParse(json);
  if (!parsed.success) throw new ValidationError({ serviceAccount: [KEY_FILE_MESSAGE] });
  try {
    const key = createPrivateKey(parsed.data.private_key);
    if (key.asymmetricKeyType !== "rsa") throw new Error("not RSA");
    // Kept as PKCS#8, the form the signing library reads, whatever form the file held.
    return { ...parsed.data, private_key: key.export({ type: "pkcs8", format: "pem" }).toString() };
  } catch {
    throw new ValidationError({
      serviceAccount: ["The key in this file is not an RSA private key: download a new JSON key"],
    });
  }
}

export type GoogleWalletStatus = {
  issuerId: string | null;
  clientEmail: string | null;
  /** The sealed key no longer opens (another server's secret): it must be pasted again. */
  unreadable: boolean;
  /** When it was last saved: the form starts empty again after each save. */
  savedAt: string | null;
};

export async function googleWalletStatus(): Promise<GoogleWalletStatus> {
  const [row] = await db.select().from(walletSettings).where(eq(walletSettings.id, 1));
  return {
    issuerId: row?.googleIssuerId ?? null,
    clientEmail: row?.googleServiceAccount ? row.googleClientEmail : null,
    unreadable: !!row?.googleServiceAccount && openSecret(row.googleServiceAccount, SEALED_AS) === null,
    savedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/**
 * Saves the issuer ID and, when given, a new service-account key file; an
 * empty key keeps the stored one. The audit log records the account's
 * address, never the key.
 */
export async function saveGoogleWallet(actor: Actor, form: { issuerId: string; serviceAccount: string }) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  const issuer = IssuerIdSchema.safeParse(form.issuerId);
  const errors: Record<string, string[]> = {};
  if (!issuer.success) errors.issuerId = [issuer.error.issues[0]?.message ?? "Enter the issuer ID"];
  let account: ServiceAccount | null = null;
  try {
    if (form.serviceAccount.trim()) account = parseServiceAccount(form.serviceAccount);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    Object.assign(errors, error.fieldErrors);
  }
  const current = await googleWalletStatus();
  if (!account && !current.clientEmail && !errors.serviceAccount) errors.serviceAccount = [KEY_FILE_MESSAGE];
  if (Object.keys(errors).length || !issuer.success) throw new ValidationError(errors);
  const values = {
    googleIssuerId: issuer.data,
    updatedAt: new Date(),
    ...(account
      ? {
          googleClientEmail: account.client_email,
          googleServiceAccount: sealSecret(
            JSON.stringify({
              client_email: account.client_email,
              private_key_id: account.private_key_id,
              private_key: account.private_key,
            }),
            SEALED_AS,
          ),
        }
      : {}),
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(walletSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: walletSettings.id, set: values });
    await recordAdminAction(tx, {
      actor,
      action: "settings",
      target: { kind: "settings", id: "wallet", label: "Google Wallet" },
      changes: {
        issuerId: [current.issuerId, issuer.data],
        ...(account ? { serviceAccount: [current.clientEmail, account.client_email] } : {}),
      },
    });
  });
}

/** Removes the Google Wallet configuration: the buttons go, and the links answer 404. */
export async function removeGoogleWallet(actor: Actor) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .update(walletSettings)
      .set({ googleIssuerId: null, googleClientEmail: null, googleServiceAccount: null, updatedAt: new Date() })
      .where(eq(walletSettings.id, 1))
      .returning({ id: walletSettings.id });
    if (removed) {
      await recordAdminAction(tx, {
        actor,
        action: "settings",
        target: { kind: "settings", id: "wallet", label: "Google Wallet" },
        changes: { googleWallet: ["configured", null] },
      });
    }
  });
}

async function credentials(): Promise<{ issuerId: string; account: ServiceAccount } | null> {
  const [row] = await db.select().from(walletSettings).where(eq(walletSettings.id, 1));
  if (!row?.googleIssuerId || !row.googleServiceAccount) return null;
  const opened = openSecret(row.googleServiceAccount, SEALED_AS);
  if (!opened) return null;
  return {
    issuerId: row.googleIssuerId,
    account: { type: "service_account", ...JSON.parse(opened) } as ServiceAccount,
  };
}

/** Whether the Google Wallet button is offered at all. */
export async function googleWalletReady(): Promise<boolean> {
  return (await credentials()) !== null;
}

const localized = (value: string) => ({ defaultValue: { language: "en", value } });

/**
 * The "Save to Google Wallet" address of the active card with this username;
 * "unconfigured" without credentials, "gone" when there is no active card.
 */
export async function googleWalletSaveUrl(username: string): Promise<string | "unconfigured" | "gone"> {
  const wallet = await credentials();
  if (!wallet) return "unconfigured";
  const card = await getCardByUsername(username);
  if (!card) return "gone";
  const [shown, site] = await Promise.all([cardForViewer(card, null), getSiteSettings()]);
  const palette = card.brand
    ? brandPalette(card.brand.primaryColor, card.brand.secondaryColor)
    : brandPalette(site.primaryColor, site.secondaryColor);
  const company = card.brand?.name ?? site.companyName;
  const name = fullName(card);
  const logo = card.brand?.logo ? `${env.PUBLIC_URL}${mediaUrl(card.brand.logo)}` : null;
  const classId = `${wallet.issuerId}.namecard_card`;
  const details = googlePassDetails(shown);
  const object = {
    // One pass per card, whatever its username becomes.
    id: `${wallet.issuerId}.${card.id}`,
    classId,
    state: "ACTIVE",
    cardTitle: localized(company),
    header: localized(name),
    ...(details.subheader ? { subheader: localized(details.subheader) } : {}),
    hexBackgroundColor: palette.light.solid,
    // Google fetches the logo itself: only an https address can be one.
    ...(logo?.startsWith("https://") ? { logo: { sourceUri: { uri: logo } } } : {}),
    barcode: { type: "QR_CODE", value: qrTargetUrl(card.username), alternateText: cardUrl(card.username) },
    textModulesData: details.modules,
    linksModuleData: { uris: [{ id: "card", uri: cardUrl(card.username), description: "Digital card" }] },
  };
  const key = await importPKCS8(wallet.account.private_key, "RS256");
  const jwt = await new SignJWT({
    origins: [new URL(env.PUBLIC_URL).origin],
    typ: "savetowallet",
    payload: { genericClasses: [{ id: classId }], genericObjects: [object] },
  })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: wallet.account.private_key_id })
    .setIssuer(wallet.account.client_email)
    .setAudience("google")
    .setIssuedAt()
    .sign(key);
  return `${SAVE_URL}${jwt}`;
}
