import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { administeredBrandsColumn, brandIdsOf } from "../access/brand-grants";
import { db } from "../platform/db/client";
import { brands, profiles, sessions, users } from "../platform/db/schema";
import { cardsOfAccount } from "../profiles/deactivation";
import { getAuth } from "./auth";

/**
 * The signed-in account behind a request, in one read when nothing is due
 * (docs/decisions/038-the-viewer-in-one-read.md).
 *
 * better-auth's getSession reads the session, then its user, and the viewer's
 * card is a third read after both: three round trips before a page's own.
 * Most requests carry a session that is valid, unexpired and not due for its
 * daily refresh, and better-auth's response to those has no side effect. For
 * exactly those, this checks the same signed cookie with the same secret and
 * reads session, user and card in one statement. Anything else is left to
 * better-auth: no such session, an expired one (deleted, cookie cleared), one
 * due for refresh (a write and a new cookie), a "don't remember me" or cached
 * session cookie, a cookie sent twice, an unconfirmed account, a card to claim,
 * a deactivated card.
 */

/**
 * What is read of an account's cards (cardsOfAccount) for its pages: the columns they show of
 * its own card, and what tells whether any of them is deactivated.
 */
export const accountCardsColumns = {
  card: {
    id: profiles.id,
    username: profiles.username,
    firstName: profiles.firstName,
    lastName: profiles.lastName,
    email: profiles.email,
    profilePhoto: profiles.profilePhoto,
    viewCount: profiles.viewCount,
    userId: profiles.userId,
    deactivatedAt: profiles.deactivatedAt,
  },
  brandName: brands.name,
  brandColor: brands.primaryColor,
};

export type ViewerProfile = {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  profilePhoto: string | null;
  viewCount: number;
  brandName: string | null;
  brandColor: string | null;
};

type AccountCardRow = {
  card:
    | (Omit<ViewerProfile, "brandName" | "brandColor"> & { userId: string | null; deactivatedAt: Date | null })
    | null;
  brandName: string | null;
  brandColor: string | null;
};

/**
 * The account's own card as its pages show it, and whether it may hold a session
 * (isDeactivatedAccount's rule: none of its cards is deactivated), from the rows of
 * `accountCardsColumns`.
 */
export function accountCards(rows: AccountCardRow[], userId: string) {
  const own = rows.find((row) => row.card?.userId === userId);
  let profile: ViewerProfile | null = null;
  if (own?.card) {
    const { userId: _userId, deactivatedAt: _deactivatedAt, ...shown } = own.card;
    profile = { ...shown, brandName: own.brandName, brandColor: own.brandColor };
  }
  return { deactivated: rows.some((row) => row.card?.deactivatedAt), profile };
}

export type SignedInRead = {
  user: { id: string; email: string; name: string; role: string | null; twoFactorEnabled: boolean };
  card: ViewerProfile;
  /** The brands the account administers. */
  brandIds: number[];
  /** Whether the session's sign-in rested on more than a password (accounts/second-factor.ts), and when it began. */
  secondFactor: boolean;
  createdAt: Date;
};

type Cookies = { token: string; others: string[] };

const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/** A cookie's value as better-auth reads it: quotes dropped, percent-escapes decoded. */
function cookieValue(raw: string): string | undefined {
  const value = raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * The session token, when the header carries exactly one session cookie,
 * correctly signed, and none of the cookies that change better-auth's response.
 */
function tokenOf(header: string, names: Cookies, secret: string): string | undefined {
  let token: string | undefined;
  let seen = 0;
  for (const chunk of header.split(";")) {
    const at = chunk.indexOf("=");
    if (at === -1) continue;
    const name = chunk.slice(0, at).trim();
    // A chunked or cached session, or not being remembered: better-auth's own rules apply.
    if (names.others.some((other) => name.startsWith(other))) return undefined;
    if (name !== names.token) continue;
    seen += 1;
    token = cookieValue(chunk.slice(at + 1).trim());
  }
  if (seen !== 1 || !token) return undefined;
  const dot = token.lastIndexOf(".");
  if (dot < 1) return undefined;
  const signature = token.slice(dot + 1);
  // An HMAC-SHA256 in base64, as better-call signs: anything else is no signature of ours.
  if (!SIGNATURE.test(signature)) return undefined;
  const value = token.slice(0, dot);
  const expected = createHmac("sha256", secret).update(value).digest("base64");
  return timingSafeEqual(Buffer.from(signature, "latin1"), Buffer.from(expected, "latin1")) ? value : undefined;
}

/**
 * The account and its own card for a session that needs nothing of better-auth
 * now; undefined when better-auth must answer (or there is no session at all,
 * which it answers too, clearing what needs clearing).
 */
export async function readSignedIn(cookieHeader: string | null): Promise<SignedInRead | undefined> {
  if (!cookieHeader) return undefined;
  const context = await getAuth().$context;
  const { sessionToken, sessionData, dontRememberToken } = context.authCookies;
  const names = { token: sessionToken.name, others: [sessionData.name, dontRememberToken.name] };
  const token = tokenOf(cookieHeader, names, context.secret);
  if (!token) return undefined;
  const rows = await db
    .select({
      expiresAt: sessions.expiresAt,
      secondFactor: sessions.secondFactor,
      createdAt: sessions.createdAt,
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        verified: users.emailVerified,
        twoFactorEnabled: users.twoFactorEnabled,
      },
      administers: administeredBrandsColumn(users.id),
      ...accountCardsColumns,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(profiles, cardsOfAccount({ id: users.id, email: users.email }))
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(eq(sessions.token, token));
  const [first] = rows;
  if (!first?.user.verified) return undefined;
  const { expiresIn, updateAge } = context.sessionConfig;
  const now = Date.now();
  const expiresAt = first.expiresAt.getTime();
  // Expired, or due for the refresh better-auth writes: its path.
  if (expiresAt < now || expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) return undefined;
  const account = accountCards(rows, first.user.id);
  if (account.deactivated || !account.profile) return undefined;
  const { verified: _verified, ...user } = first.user;
  return {
    user,
    card: account.profile,
    brandIds: brandIdsOf(first.administers),
    secondFactor: first.secondFactor,
    createdAt: first.createdAt,
  };
}
