import { and, eq, gt, sql } from "drizzle-orm";
import { db } from "../platform/db/client";
import { ssoLogins } from "../platform/db/schema";
import { randomToken, tokenHash } from "../platform/tokens";
import type { ProviderClaims } from "./claims";
import { adviceFor } from "./failures";
import { type Rehearsal, rehearseSignIn } from "./identities";
import { getProvider } from "./providers";

/**
 * An administrator's test sign-in (docs/decisions/030-single-sign-on.md):
 * the provider's response is kept for ten minutes for the administrator who
 * started it, and shown to them with what a real sign-in would do. Nothing
 * is made, linked or signed in.
 */
const RESULT_TTL_MS = 10 * 60 * 1000;

/** Keeps a test's answer; the token names it in the address of the page that shows it. */
export async function keepTestResult(providerId: string, claims: ProviderClaims, testBy: string): Promise<string> {
  const token = randomToken();
  await db.insert(ssoLogins).values({
    stateHash: tokenHash(token),
    providerId,
    browserHash: tokenHash(randomToken()),
    redirectTo: "/",
    claims,
    testBy,
    expiresAt: new Date(Date.now() + RESULT_TTL_MS),
  });
  return token;
}

export type TestResult = {
  providerName: string;
  claims: ProviderClaims;
  rehearsal: Rehearsal;
  /** Why a real sign-in would be refused, and what to change, as the failures list says it. */
  refusal: { what: string; change: string } | null;
};

/** A test's answer, for the administrator who started it only; null when unknown, another's or expired. */
export async function testResultOf(token: string, viewerId: string): Promise<TestResult | null> {
  const [row] = await db
    .select()
    .from(ssoLogins)
    .where(
      and(
        eq(ssoLogins.stateHash, tokenHash(token)),
        eq(ssoLogins.testBy, viewerId),
        gt(ssoLogins.expiresAt, sql`now()`),
      ),
    );
  if (!row?.claims) return null;
  const provider = await getProvider(row.providerId);
  if (!provider) return null;
  const rehearsal = await rehearseSignIn(provider, row.claims);
  const refused = rehearsal.outcome !== "ok" && rehearsal.outcome !== "confirm-admin";
  return {
    providerName: provider.name,
    claims: row.claims,
    rehearsal,
    refusal: refused ? adviceFor(rehearsal.outcome, "", provider.protocol) : null,
  };
}
