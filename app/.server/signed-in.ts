import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { getAuth } from "./auth";
import { db } from "./db/client";
import { brands, profiles, sessions, users } from "./db/schema";

/**
 * The signed-in account behind a request, in one read when nothing is due
 * (docs/decisions/038-the-viewer-in-one-read.md).
 *
 * better-auth's getSession reads the session, then its user, and the viewer's
 * card is a third read after both: three round trips before a page's own.
 * Most requests carry a session that is valid, unexpired and not due for its
 * daily refresh, and better-auth's answer to those has no side effect. For
 * exactly those, this checks the same signed cookie with the same secret and
 * reads session, user and card in one statement. Anything else is left to
 * better-auth: no such session, an expired one (deleted, cookie cleared), one
 * due for refresh (a write and a new cookie), a "don't remember me" or cached
 * session cookie, a cookie sent twice, an unconfirmed account, a card to claim,
 * a deactivated card.
 */

/** What a signed-in person's pages show of their own card: its columns, for every read of it. */
export const viewerCardColumns = {
  id: profiles.id,
  username: profiles.username,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  email: profiles.email,
  profilePhoto: profiles.profilePhoto,
  viewCount: profiles.viewCount,
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

export type SignedInRead = {
  user: { id: string; email: string; name: string; role: string | null };
  card: ViewerProfile;
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
 * correctly signed, and none of the cookies that change better-auth's answer.
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
      user: { id: users.id, email: users.email, name: users.name, role: users.role, verified: users.emailVerified },
      card: {
        ...viewerCardColumns,
        userId: profiles.userId,
        deactivatedAt: profiles.deactivatedAt,
      },
      brandName: brands.name,
      brandColor: brands.primaryColor,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // The account's cards as cardsOfAccount has them: its own, or one prepared for its address.
    .leftJoin(
      profiles,
      or(
        eq(profiles.userId, users.id),
        and(isNull(profiles.userId), sql`lower(${profiles.email}) = lower(${users.email})`),
      ),
    )
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(eq(sessions.token, token));
  const [first] = rows;
  if (!first?.user.verified) return undefined;
  const { expiresIn, updateAge } = context.sessionConfig;
  const now = Date.now();
  const expiresAt = first.expiresAt.getTime();
  // Expired, or due for the refresh better-auth writes: its path.
  if (expiresAt < now || expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) return undefined;
  if (rows.some((row) => row.card?.deactivatedAt)) return undefined;
  const own = rows.find((row) => row.card?.userId === first.user.id);
  if (!own?.card) return undefined;
  const { userId: _userId, deactivatedAt: _deactivatedAt, ...card } = own.card;
  const { verified: _verified, ...user } = first.user;
  return { user, card: { ...card, brandName: own.brandName, brandColor: own.brandColor } };
}
