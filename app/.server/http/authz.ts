import { eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { type Action, administrationScope, can, decide, type Permission, type Target } from "~/lib/permissions";
import { administeredBrands } from "../access/brand-grants";
import { secondFactorDue } from "../accounts/second-factor";
import { linkCard } from "../accounts/session-start";
import type { Actor } from "../platform/actor";
import { roleOf } from "../platform/admins";
import { db } from "../platform/db/client";
import { brands, profiles } from "../platform/db/schema";
import { cardsOfAccount, endSessionsOf } from "../profiles/deactivation";
import { getAuth } from "./auth";
import { accountCards, accountCardsColumns, readSignedIn, type ViewerProfile } from "./signed-in";

/** The signed-in person: who they are to the domain (an Actor), and what their pages show of them. */
export type Viewer = Actor & {
  /** The brands this person administers (accounts/brand-administration.ts); empty for most. */
  brandIds: readonly number[];
  isAdmin: boolean;
  profile: ViewerProfile | null;
};

/**
 * A request's session as its pages see it: a viewer, or a session that must set up its second
 * factor before it opens anything else (`due`, accounts/second-factor.ts).
 */
type ViewerRead = { viewer: Viewer | null; due: Viewer | null };

const NOBODY: ViewerRead = { viewer: null, due: null };
const viewerCache = new WeakMap<Request, Promise<ViewerRead>>();
/** Cookies better-auth wants to refresh (a session nearing its update age), per request. */
const refreshedCookies = new WeakMap<Request, string[]>();

/** The refreshed session cookie to send back with this request's response, if any. */
export function sessionCookieUpdates(request: Request): string[] {
  return refreshedCookies.get(request) ?? [];
}

/**
 * The account's card, and whether it may hold a session (isDeactivatedAccount's rule), in one
 * read: every signed-in request asks both.
 */
async function loadProfile(user: { id: string; email: string }) {
  const rows = await db
    .select(accountCardsColumns)
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(cardsOfAccount(user));
  return accountCards(rows, user.id);
}

/** The viewer, unless the sign-in still owes the second factor its account must use. */
async function withSecondFactor(
  viewer: Viewer,
  account: { twoFactorEnabled?: boolean | null },
  session: { secondFactor?: boolean | null; createdAt: Date },
): Promise<ViewerRead> {
  const due = await secondFactorDue(
    {
      ...viewer.user,
      role: viewer.role,
      brandIds: viewer.brandIds,
      twoFactorEnabled: account.twoFactorEnabled === true,
    },
    { secondFactor: session.secondFactor === true, createdAt: session.createdAt },
  );
  return due ? { viewer: null, due: viewer } : { viewer, due: null };
}

async function loadViewer(request: Request): Promise<ViewerRead> {
  const signedIn = await readSignedIn(request.headers.get("cookie"));
  if (signedIn) {
    const role = roleOf(signedIn.user);
    const { id, email, name } = signedIn.user;
    const viewer = {
      user: { id, email, name },
      role,
      brandIds: signedIn.brandIds,
      isAdmin: role === "admin",
      profile: signedIn.card,
    };
    return withSecondFactor(viewer, signedIn.user, signedIn);
  }
  const { headers, response: session } = await getAuth().api.getSession({
    headers: request.headers,
    returnHeaders: true,
  });
  const cookies = headers.getSetCookie();
  if (cookies.length) refreshedCookies.set(request, cookies);
  // An unverified account owns nothing and cannot hold a session (docs/decisions/004-verified-claims.md).
  if (!session?.user.emailVerified) return NOBODY;
  const { user } = session;
  // A deactivated card's owner holds no session (docs/decisions/019-deactivation-and-audit-log.md):
  // one that outlived the deactivation (made on another instance meanwhile) ends here.
  const account = await loadProfile(user);
  if (account.deactivated) {
    await endSessionsOf(user.id);
    return NOBODY;
  }
  const role = roleOf(user);
  let profile = account.profile;
  if (!profile) {
    // A card prepared (or re-created) for this address since the session started is claimed now.
    await linkCard({ ...user, emailVerified: true });
    profile = (await loadProfile(user)).profile;
  }
  const viewer = {
    user: { id: user.id, email: user.email, name: user.name },
    role,
    brandIds: await administeredBrands(user.id),
    isAdmin: role === "admin",
    profile,
  };
  return withSecondFactor(viewer, user, session.session);
}

/**
 * Whether the request carries a session cookie, without asking the database:
 * enough to choose which way onward a page offers, never to let anyone in.
 */
export function hasSessionCookie(request: Request): boolean {
  return /(?:^|;\s*)(?:__Secure-)?namecard\.session_token=/.test(request.headers.get("cookie") ?? "");
}

function readViewer(request: Request): Promise<ViewerRead> {
  let pending = viewerCache.get(request);
  if (!pending) {
    pending = loadViewer(request);
    viewerCache.set(request, pending);
  }
  return pending;
}

/** The signed-in viewer, or null (also while their sign-in owes a second factor). Looked up once per request. */
export async function getOptionalViewer(request: Request): Promise<Viewer | null> {
  return (await readViewer(request)).viewer;
}

/** The person whose password sign-in must set up a second factor before anything else, or null. */
export async function getSecondFactorDue(request: Request): Promise<Viewer | null> {
  return (await readViewer(request)).due;
}

/** Where a sign-in that owes its second factor sets it up. */
const SECOND_FACTOR_SETUP = "/auth/two-factor-setup";

function currentPath(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** A visitor goes to /auth and comes back after signing in. */
export async function requireViewer(request: Request): Promise<Viewer> {
  const { viewer, due } = await readViewer(request);
  if (!viewer) {
    const path = currentPath(request);
    if (due)
      throw redirect(
        path === "/" ? SECOND_FACTOR_SETUP : `${SECOND_FACTOR_SETUP}?${new URLSearchParams({ redirectTo: path })}`,
      );
    const query = path === "/" ? "" : `?${new URLSearchParams({ redirectTo: path })}`;
    throw redirect(`/auth${query}`);
  }
  return viewer;
}

/** A signed-in user on /auth goes to /. */
export async function requireAnonymous(request: Request): Promise<void> {
  const { viewer, due } = await readViewer(request);
  if (viewer) throw redirect("/");
  if (due) throw redirect(SECOND_FACTOR_SETUP);
}

/** Everyone who administers nothing (neither the site nor a brand) goes from an administration page to /directory. */
export async function requireAdministration(request: Request): Promise<Viewer> {
  const viewer = await requireViewer(request);
  if (!administrationScope(viewer)) throw redirect("/directory");
  return viewer;
}

const FORBIDDEN = "You do not have permission to do that.";

/** For actions and resources: a 403 rather than a redirect. */
export function requirePermission(viewer: Viewer | null, permission: Permission): Viewer {
  if (!viewer || !can(viewer.role, permission)) throw data({ message: FORBIDDEN }, { status: 403 });
  return viewer;
}

/**
 * The viewer, when `decide` lets them do `action`: with no target, anywhere at
 * all (a page listing what they may see), else a 403; to a target, a 404 when
 * it is outside what they may see, so that it looks like one that does not exist.
 */
export function requireAction(viewer: Viewer | null, action: Action, target?: Target): Viewer {
  if (viewer && decide(viewer, action, target)) return viewer;
  if (target) throw data({ message: "Not found." }, { status: 404 });
  throw data({ message: FORBIDDEN }, { status: 403 });
}
