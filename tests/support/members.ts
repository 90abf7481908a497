// Members for tests that need someone signed in, made without the mail round
// trip: the rows better-auth writes on sign-up, what the app does when an
// address is confirmed (the card is claimed or made), and a session cookie signed as better-auth
// signs it. Only the tests of signing up and confirming go through the mail.
//
// This is the one test module that reaches into the app's auth setup; the
// server tests and the browser tests' seed both create their members here.
import { makeSignature } from "better-auth/crypto";
import { getAuth } from "~/.server/http/auth";
import { claimOrCreateProfile } from "~/.server/profiles/claim-profile";

/** The password every test member gets unless a test chooses one. */
export const MEMBER_PASSWORD = "member password";

export type NewMember = {
  email?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  password?: string;
};

export type Member = { id: string; email: string; name: string; password: string; cookie: string };

type AuthContext = Awaited<ReturnType<typeof getAuth>["$context"]>;

let emailCounter = 0;
/** An address no other test uses, so tests never see each other's members. */
export function uniqueEmail(prefix = "member") {
  emailCounter++;
  return `${prefix}.${process.pid}.${emailCounter}.${Date.now()}@example.com`;
}

// Hashing is deliberately slow (scrypt): each password is hashed once per process.
const hashes = new Map<string, Promise<string>>();
function passwordHash(context: AuthContext, password: string) {
  let hash = hashes.get(password);
  if (!hash) {
    hash = context.password.hash(password);
    hashes.set(password, hash);
  }
  return hash;
}

/**
 * A member whose address is confirmed, as if they had signed up and opened the
 * link: their user and password account exist, the app's confirmation hook
 * has run (so a prepared card with their address is now theirs, or a new one
 * was made), and they hold a signed-in session cookie.
 */
export async function createMember(fields: NewMember = {}): Promise<Member> {
  const context = await getAuth().$context;
  const email = (fields.email ?? uniqueEmail()).toLowerCase();
  const firstName = fields.firstName ?? "Mem";
  const lastName = fields.lastName ?? "Ber";
  const password = fields.password ?? MEMBER_PASSWORD;
  // As the sign-up endpoint writes them, with the address already confirmed.
  const user = await context.internalAdapter.createUser(
    { email, name: `${firstName} ${lastName}`, firstName, lastName, phone: fields.phone ?? null, emailVerified: true },
    { method: "email-password" },
  );
  await context.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: await passwordHash(context, password),
  });
  await claimOrCreateProfile({ ...user, emailVerified: true });
  return { id: user.id, email, name: user.name, password, cookie: await signIn(user.id) };
}

/**
 * A new session for the user, as the `Cookie` header a browser sends back:
 * the token signed with the auth secret, exactly as better-auth sets it.
 */
async function signIn(userId: string): Promise<string> {
  const context = await getAuth().$context;
  const session = await context.internalAdapter.createSession(userId);
  const signed = `${session.token}.${await makeSignature(session.token, context.secret)}`;
  return `${context.authCookies.sessionToken.name}=${encodeURIComponent(signed)}`;
}
