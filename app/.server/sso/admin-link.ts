import { and, eq, gt, lt, sql } from "drizzle-orm";
import { db } from "../platform/db/client";
import { ssoLogins } from "../platform/db/schema";
import { randomToken, tokenHash } from "../platform/tokens";
import type { ProviderClaims } from "./claims";
import { getProvider } from "./providers";

/**
 * A provider's first sign-in that would link into an administrator's account
 * waits here until the administrator confirms with their password, once
 * (docs/decisions/030-single-sign-on.md): a provider, or whoever can set an
 * address at it, never becomes a way into an administrator's account on its
 * word alone. The wait is a pending sign-in like the others: one use, in the
 * browser that came back from the provider, for ten minutes.
 */
const CONFIRM_TTL_MS = 10 * 60 * 1000;

/** Keeps a sign-in for the administrator to confirm; the token names it in the page's address, the key in the browser's cookie. */
export async function holdAdminLink(held: { providerId: string; claims: ProviderClaims; redirectTo: string }) {
  const token = randomToken();
  const browserKey = randomToken();
  await db.delete(ssoLogins).where(lt(ssoLogins.expiresAt, sql`now()`));
  await db.insert(ssoLogins).values({
    stateHash: tokenHash(token),
    providerId: held.providerId,
    browserHash: tokenHash(browserKey),
    claims: held.claims,
    redirectTo: held.redirectTo,
    expiresAt: new Date(Date.now() + CONFIRM_TTL_MS),
  });
  return { token, browserKey };
}

async function pendingRow(token: string) {
  const [row] = await db
    .select()
    .from(ssoLogins)
    .where(and(eq(ssoLogins.stateHash, tokenHash(token)), gt(ssoLogins.expiresAt, sql`now()`)));
  return row?.claims ? { ...row, claims: row.claims } : null;
}

/** What the confirmation page names: the provider and the account's address; null once it is gone. */
export async function adminLinkOf(token: string): Promise<{ providerName: string; email: string } | null> {
  const row = await pendingRow(token);
  const provider = row ? await getProvider(row.providerId) : null;
  const email = row?.claims.text.email;
  return provider && email ? { providerName: provider.name, email } : null;
}

/**
 * The held sign-in a browser brings back, with the administrator's account
 * and its password hash; null when it is unknown, expired or another
 * browser's. It stays until `releaseAdminLink`, so that a mistyped password can
 * be typed again.
 */
export async function heldAdminLink(token: string, browserKey: string | null) {
  const row = await pendingRow(token);
  if (!row || !browserKey || row.browserHash !== tokenHash(browserKey)) return null;
  const provider = await getProvider(row.providerId);
  if (!provider) return null;
  return { provider, claims: row.claims, redirectTo: row.redirectTo };
}

/** Ends a held sign-in: it is used. */
export async function releaseAdminLink(token: string) {
  await db.delete(ssoLogins).where(eq(ssoLogins.stateHash, tokenHash(token)));
}
