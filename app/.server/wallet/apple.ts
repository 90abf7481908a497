import { eq } from "drizzle-orm";
import forge from "node-forge";
import { PKPass } from "passkit-generator";
import sharp from "sharp";
import { brandPalette } from "~/lib/color";
import { fullName } from "~/lib/names";
import { can } from "~/lib/permissions";
import { recordAdminAction } from "../audit/record";
import { brandLogoPng } from "../brands/logo-png";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { walletSettings } from "../platform/db/schema";
import { ForbiddenError, ValidationError } from "../platform/errors";
import { imageWork } from "../platform/image-work";
import { readPhotoJpeg } from "../platform/images";
import { getSiteSettings } from "../platform/site-settings";
import { cardForViewer, getCardByUsername } from "../profiles/get-card";
import { drawnIcon, squarePng } from "../profiles/icons";
import { cardUrl, qrTargetUrl } from "../profiles/qr";
import { openSecret, sealSecret } from "../sso/secrets";
import { applePassFields } from "./pass-fields";

/**
 * "Add to Apple Wallet" (docs/decisions/033-card-everywhere.md): a generic
 * pass (`.pkpass`, a zip of pass.json, images, a manifest of their SHA-1s and
 * a detached PKCS#7 signature of the manifest) signed on this server with the
 * company's pass-type certificate, chained to Apple's WWDR certificate. The
 * certificate's key is sealed with the server's secret; nothing of it is ever
 * shown or recorded but the certificate's name and expiry.
 */

/** The associated data the signing certificate and key are sealed under: they open nowhere else. */
const SEALED_AS = "wallet:apple-signer";
/** The user ID attribute (RFC 4519) of Apple's pass-type certificates: the pass type identifier. */
const UID = "0.9.2342.19200300.100.1.1";

const PASS_TYPE_ID = /^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const TEAM_ID = /^[A-Z0-9]{10}$/;

const P12_MESSAGE =
  "Choose the pass type certificate exported from Keychain Access as a .p12 file (certificate and private key)";
const WWDR_MESSAGE = "Choose Apple's WWDR intermediate certificate (.cer or .pem), as downloaded from Apple";

type Signer = { cert: string; key: string };

function binary(bytes: Uint8Array) {
  return Buffer.from(bytes).toString("binary");
}

/** The certificate and key of a .p12 file, opened with its password. */
function openP12(bytes: Uint8Array, password: string): { signer: Signer; certificate: forge.pki.Certificate } {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(binary(bytes)), password);
  } catch (error) {
    const message = (error as Error).message;
    throw new ValidationError({
      p12: [
        /MAC could not be verified|Invalid password/i.test(message)
          ? "This password does not open the .p12 file"
          : P12_MESSAGE,
      ],
    });
  }
  const key = (p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[
    forge.pki.oids.pkcs8ShroudedKeyBag ?? ""
  ]?.[0]?.key ?? p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag ?? ""]?.[0]?.key) as
    | forge.pki.rsa.PrivateKey
    | undefined;
  const certificates = (p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag ?? ""] ?? [])
    .map((bag) => bag.cert)
    .filter((cert): cert is forge.pki.Certificate => cert !== undefined);
  if (!key || certificates.length === 0) throw new ValidationError({ p12: [P12_MESSAGE] });
  // The certificate of this key, whatever others (a chain) the file holds.
  const certificate = certificates.find((cert) => (cert.publicKey as forge.pki.rsa.PublicKey).n?.equals(key.n));
  if (!certificate) {
    throw new ValidationError({
      p12: ["The certificate and the private key in this .p12 file do not belong together"],
    });
  }
  return {
    certificate,
    signer: { cert: forge.pki.certificateToPem(certificate), key: forge.pki.privateKeyToPem(key) },
  };
}

/** Apple's WWDR certificate, as DER (.cer) or PEM, checked to be a certificate authority. */
function readWwdr(bytes: Uint8Array): forge.pki.Certificate {
  try {
    const text = Buffer.from(bytes).toString("latin1");
    const certificate = text.includes("-----BEGIN CERTIFICATE-----")
      ? forge.pki.certificateFromPem(text)
      : forge.pki.certificateFromAsn1(forge.asn1.fromDer(binary(bytes)));
    const constraints = certificate.getExtension("basicConstraints") as { cA?: boolean } | null;
    if (!constraints?.cA) throw new Error("not a certificate authority");
    return certificate;
  } catch {
    throw new ValidationError({ wwdr: [WWDR_MESSAGE] });
  }
}

export type AppleWalletStatus = {
  passTypeId: string | null;
  teamId: string | null;
  /** The signing certificate's name and expiry: all the screen shows of it. */
  signerName: string | null;
  signerExpiresAt: string | null;
  /** The sealed key no longer opens (another server's secret): the .p12 must be chosen again. */
  unreadable: boolean;
};

export async function appleWalletStatus(): Promise<AppleWalletStatus> {
  const [row] = await db.select().from(walletSettings).where(eq(walletSettings.id, 1));
  return {
    passTypeId: row?.applePassTypeId ?? null,
    teamId: row?.appleTeamId ?? null,
    signerName: row?.appleSigner ? row.appleSignerName : null,
    signerExpiresAt: row?.appleSigner ? (row.appleSignerExpiresAt?.toISOString() ?? null) : null,
    unreadable: !!row?.appleSigner && openSecret(row.appleSigner, SEALED_AS) === null,
  };
}

export type AppleWalletForm = {
  passTypeId: string;
  teamId: string;
  /** A new .p12 and its password; none keeps the stored certificate. */
  p12: Uint8Array | null;
  password: string;
  /** A new WWDR certificate; none keeps the stored one. */
  wwdr: Uint8Array | null;
};

/**
 * Saves the pass type and team, and, when chosen, a new signing certificate
 * (opened with its password, checked against the pass type, the team and the
 * WWDR certificate) and a new WWDR certificate. Every mistake is said on its
 * field and nothing is saved. The audit log records the certificate's name,
 * never its key or password.
 */
export async function saveAppleWallet(actor: Actor, form: AppleWalletForm) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  const errors: Record<string, string[]> = {};
  const passTypeId = form.passTypeId.trim();
  const teamId = form.teamId.trim().toUpperCase();
  if (!PASS_TYPE_ID.test(passTypeId) || passTypeId.length > 200) {
    errors.passTypeId = ["Enter the pass type identifier, such as pass.com.example.card"];
  }
  if (!TEAM_ID.test(teamId)) errors.teamId = ["Enter the 10-character team identifier, such as ABCDE12345"];

  const [row] = await db.select().from(walletSettings).where(eq(walletSettings.id, 1));
  const attempt = <T>(field: string, read: () => T): T | null => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors[field] = error.fieldErrors[field] ?? [];
      return null;
    }
  };
  const opened = form.p12 ? attempt("p12", () => openP12(form.p12 as Uint8Array, form.password)) : null;
  const wwdr = form.wwdr
    ? attempt("wwdr", () => readWwdr(form.wwdr as Uint8Array))
    : row?.appleWwdr
      ? forge.pki.certificateFromPem(row.appleWwdr)
      : null;
  if (!form.p12 && !row?.appleSigner) errors.p12 ??= [P12_MESSAGE];
  if (!wwdr && !errors.wwdr) errors.wwdr = [WWDR_MESSAGE];

  // A new pass type or team with the stored certificate is checked against that certificate.
  const stored = row?.appleSigner ? openSecret(row.appleSigner, SEALED_AS) : null;
  const checked =
    opened?.certificate ?? (stored ? forge.pki.certificateFromPem((JSON.parse(stored) as Signer).cert) : null);
  if (checked && !errors.p12) {
    const subject = checked.subject;
    const uid = subject.getField({ type: UID })?.value as string | undefined;
    const ou = subject.getField("OU")?.value as string | undefined;
    if (uid && !errors.passTypeId && uid !== passTypeId) {
      errors.p12 = [`This certificate is for ${uid}, not ${passTypeId}`];
    } else if (ou && !errors.teamId && ou !== teamId) {
      errors.p12 = [`This certificate belongs to team ${ou}, not ${teamId}`];
    } else if (checked.validity.notAfter.getTime() < Date.now()) {
      errors.p12 = ["This certificate has expired: make a new one in your Apple Developer account"];
    } else if (wwdr && !issuedBy(wwdr, checked)) {
      errors.p12 = [
        "This certificate was not issued by the WWDR certificate: choose the WWDR certificate that signed it",
      ];
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const name = opened ? String(opened.certificate.subject.getField("CN")?.value ?? passTypeId) : null;
  const values = {
    applePassTypeId: passTypeId,
    appleTeamId: teamId,
    updatedAt: new Date(),
    ...(opened
      ? {
          appleSigner: sealSecret(JSON.stringify(opened.signer), SEALED_AS),
          appleSignerName: name,
          appleSignerExpiresAt: opened.certificate.validity.notAfter,
        }
      : {}),
    ...(form.wwdr && wwdr ? { appleWwdr: forge.pki.certificateToPem(wwdr) } : {}),
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(walletSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: walletSettings.id, set: values });
    await recordAdminAction(tx, {
      actor,
      action: "settings",
      target: { kind: "settings", id: "wallet", label: "Apple Wallet" },
      changes: {
        passTypeId: [row?.applePassTypeId ?? null, passTypeId],
        teamId: [row?.appleTeamId ?? null, teamId],
        ...(opened ? { certificate: [row?.appleSigner ? row.appleSignerName : null, name] } : {}),
      },
    });
  });
}

function issuedBy(authority: forge.pki.Certificate, certificate: forge.pki.Certificate): boolean {
  try {
    return authority.verify(certificate);
  } catch {
    return false;
  }
}

/** Removes the Apple Wallet configuration: the button goes, and the pass's address answers 404. */
export async function removeAppleWallet(actor: Actor) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .update(walletSettings)
      .set({
        applePassTypeId: null,
        appleTeamId: null,
        appleSigner: null,
        appleSignerName: null,
        appleSignerExpiresAt: null,
        appleWwdr: null,
        updatedAt: new Date(),
      })
      .where(eq(walletSettings.id, 1))
      .returning({ id: walletSettings.id });
    if (removed) {
      await recordAdminAction(tx, {
        actor,
        action: "settings",
        target: { kind: "settings", id: "wallet", label: "Apple Wallet" },
        changes: { appleWallet: ["configured", null] },
      });
    }
  });
}

async function credentials() {
  const [row] = await db.select().from(walletSettings).where(eq(walletSettings.id, 1));
  if (!row?.applePassTypeId || !row.appleTeamId || !row.appleSigner || !row.appleWwdr) return null;
  const opened = openSecret(row.appleSigner, SEALED_AS);
  if (!opened) return null;
  return {
    passTypeId: row.applePassTypeId,
    teamId: row.appleTeamId,
    signer: JSON.parse(opened) as Signer,
    wwdr: row.appleWwdr,
  };
}

/** Whether the Apple Wallet button is offered at all. */
export async function appleWalletReady(): Promise<boolean> {
  return (await credentials()) !== null;
}

/** `rgb(r, g, b)`, as pass.json writes colours. */
function rgb(hex: string): string {
  const value = Number.parseInt(hex.replace("#", "").slice(0, 6), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}

/**
 * The Apple Wallet pass of the active card with this username: "unconfigured"
 * without credentials, "gone" when there is no active card. One pass per card
 * (its serial number is the card's id, whatever its username becomes); it is
 * made afresh from the card on each download, so it changes when the card does.
 */
export async function appleWalletPass(
  username: string,
): Promise<{ pass: Buffer; fileName: string } | "unconfigured" | "gone"> {
  const wallet = await credentials();
  if (!wallet) return "unconfigured";
  const card = await getCardByUsername(username);
  if (!card) return "gone";
  const [shown, site] = await Promise.all([cardForViewer(card, null), getSiteSettings()]);
  const palette = card.brand
    ? brandPalette(card.brand.primaryColor, card.brand.secondaryColor)
    : brandPalette(site.primaryColor, site.secondaryColor);
  const background = palette.light.solid;
  const foreground = palette.light.onSolid;
  const company = card.brand?.name ?? site.companyName;
  const name = fullName(card);
  const address = cardUrl(card.username);

  const logo = card.brand ? await brandLogoPng(card.brand.id, 25, 160) : null;
  const photo = await readPhotoJpeg(card.profilePhoto);
  const icon = (size: number) => (logo ? squarePng(logo.png, size, background) : drawnIcon(size, background));
  const files: Record<string, Buffer> = {
    "icon.png": await icon(29),
    "icon@2x.png": await icon(58),
    "icon@3x.png": await icon(87),
  };
  if (logo) {
    files["logo.png"] = await imageWork(() =>
      sharp(logo.png).resize({ height: 50, width: 160, fit: "inside" }).png().toBuffer(),
    );
    files["logo@2x.png"] = logo.png;
  }
  if (photo) {
    files["thumbnail.png"] = await squarePng(photo, 90, "#ffffff");
    files["thumbnail@2x.png"] = await squarePng(photo, 180, "#ffffff");
  }
  const fields = applePassFields(shown);
  const passJson = {
    formatVersion: 1,
    passTypeIdentifier: wallet.passTypeId,
    teamIdentifier: wallet.teamId,
    serialNumber: card.id,
    organizationName: company,
    description: `${name}'s business card`,
    ...(logo ? {} : { logoText: company }),
    backgroundColor: rgb(background),
    foregroundColor: rgb(foreground),
    labelColor: rgb(foreground),
    sharingProhibited: false,
    generic: {
      primaryFields: [{ key: "name", label: company, value: name }],
      secondaryFields: fields.secondaryFields,
      auxiliaryFields: fields.auxiliaryFields,
      backFields: [...fields.backFields, { key: "card", label: "Digital card", value: address }],
    },
    barcodes: [
      {
        format: "PKBarcodeFormatQR",
        message: qrTargetUrl(card.username),
        messageEncoding: "iso-8859-1",
        altText: address,
      },
    ],
  };
  files["pass.json"] = Buffer.from(JSON.stringify(passJson));
  const pass = new PKPass(files, {
    wwdr: wallet.wwdr,
    signerCert: wallet.signer.cert,
    signerKey: wallet.signer.key,
  });
  return { pass: pass.getAsBuffer(), fileName: `${card.username}.pkpass` };
}
