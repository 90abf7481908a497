import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getAuth } from "~/.server/http/auth";
import { readSignedIn } from "~/.server/http/signed-in";
import { db } from "~/.server/platform/db/client";
import { profiles, sessions, users } from "~/.server/platform/db/schema";
import { createMember, present } from "./helpers";

/**
 * The fast read of a session (app/.server/http/signed-in.ts) reads better-auth's
 * signed cookie itself, so that most pages need one database round trip
 * instead of three. Its contract with better-auth: whenever it names a
 * member, better-auth's own getSession, asked the same, names the same member
 * and writes nothing (no cookie, no refresh); whenever better-auth would write
 * something or refuse, the fast read steps aside. Each case below is a way a
 * browser, an attacker or time changes the cookie or the session behind it;
 * an upgrade of better-auth that changes any of them fails here
 * (docs/upgrading.md lists what to check).
 */
type Member = Awaited<ReturnType<typeof createMember>>;

const DAY_MS = 24 * 60 * 60 * 1000;

function tokenOf(cookie: string): string {
  const value = decodeURIComponent(present(/namecard\.session_token=([^;]+)/.exec(cookie)?.[1], "the session cookie"));
  return value.slice(0, value.lastIndexOf("."));
}

function signed(token: string, secret: string): string {
  return `${token}.${createHmac("sha256", secret).update(token).digest("base64")}`;
}

async function secret(): Promise<string> {
  return (await getAuth().$context).secret;
}

/**
 * Each case: whether the fast read answers it itself (or steps aside for
 * better-auth), and what it does to the member's session, returning the
 * cookie header the browser then sends.
 */
type Case = [answers: "itself" | "better-auth", prepare: (member: Member) => Promise<string>];
const CASES: Record<string, Case> = {
  "a fresh session": ["itself", async (member) => member.cookie],
  "the cookie in quotes": [
    "itself",
    async (member) => `namecard.session_token="${encodeURIComponent(signed(tokenOf(member.cookie), await secret()))}"`,
  ],
  "the cookie without percent-encoding": [
    "itself",
    async (member) => `namecard.session_token=${signed(tokenOf(member.cookie), await secret())}`,
  ],
  "other cookies around it": ["itself", async (member) => `theme=dark; ${member.cookie}; _ga=GA1.2.3`],
  "a signature by another secret": [
    "better-auth",
    async (member) =>
      `namecard.session_token=${encodeURIComponent(signed(tokenOf(member.cookie), "another secret, long enough to pass"))}`,
  ],
  "no signature": ["better-auth", async (member) => `namecard.session_token=${tokenOf(member.cookie)}`],
  "a session that ended": [
    "better-auth",
    async (member) => {
      await db.delete(sessions).where(eq(sessions.token, tokenOf(member.cookie)));
      return member.cookie;
    },
  ],
  "an expired session": [
    "better-auth",
    async (member) => {
      await db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.token, tokenOf(member.cookie)));
      return member.cookie;
    },
  ],
  "a session due for its daily renewal": [
    "better-auth",
    async (member) => {
      await db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() + 29 * DAY_MS - 60_000) })
        .where(eq(sessions.token, tokenOf(member.cookie)));
      return member.cookie;
    },
  ],
  "a don't-remember-me cookie beside it": [
    "better-auth",
    async (member) => `${member.cookie}; namecard.dont_remember=x`,
  ],
  "a cached session cookie beside it": ["better-auth", async (member) => `${member.cookie}; namecard.session_data=e30`],
  "the session cookie twice": ["better-auth", async (member) => `${member.cookie}; ${member.cookie}`],
  "an account whose address is not confirmed": [
    "better-auth",
    async (member) => {
      await db.update(users).set({ emailVerified: false }).where(eq(users.id, member.viewer.user.id));
      return member.cookie;
    },
  ],
  "an account whose card was deactivated": [
    "better-auth",
    async (member) => {
      await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, member.profile.id));
      return member.cookie;
    },
  ],
  "an account without a card": [
    "better-auth",
    async (member) => {
      await db.delete(profiles).where(eq(profiles.id, member.profile.id));
      return member.cookie;
    },
  ],
};

describe("the fast read of a session, against better-auth's own", () => {
  for (const [name, [answers, prepare]] of Object.entries(CASES)) {
    it(`${answers === "itself" ? "answers" : "leaves to better-auth"} ${name}, and names a member only as better-auth does`, async () => {
      const member = await createMember();
      const cookie = await prepare(member);
      const fast = await readSignedIn(cookie);
      // better-auth after the fast read: what it writes (a renewal, a cleared cookie) must not change the case.
      const library = await getAuth().api.getSession({ headers: new Headers({ cookie }), returnHeaders: true });
      if (answers === "better-auth") {
        expect(fast).toBeUndefined();
        return;
      }
      expect(fast?.user).toMatchObject({ id: member.viewer.user.id, email: member.email });
      expect(library.response?.user.id).toBe(member.viewer.user.id);
      expect(library.headers.get("set-cookie")).toBeNull();
    });
  }
});
