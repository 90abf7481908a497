import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { profiles } from "~/.server/platform/db/schema";
import { callbackUrl } from "~/.server/sso/oidc";
import { saveProvider } from "~/.server/sso/providers";
import { ProviderFormSchema } from "~/.server/sso/schemas";
import { type Glewlwyd, glewlwydInstalled, startGlewlwyd } from "../support/glewlwyd";
import { SsoBrowser } from "../support/sso-flow";
import { createMember, present } from "./helpers";

/**
 * Single sign-on against an OpenID Connect provider nobody on this project
 * wrote: Glewlwyd (Debian's glewlwyd), set up as docs/admin/providers/glewlwyd.md
 * says, from the values its own pages start with. Its defaults meet three of
 * Namecard's old assumptions: it takes no PKCE unless told to (and refuses a
 * sign-in that sends it), it does not decode a form-encoded secret in the
 * Authorization header, and it lists only the scopes it was given.
 */
const installed = glewlwydInstalled();
if (!installed && process.env.CI) throw new Error("Glewlwyd is missing: `bash .ci/run` installs glewlwyd");

/** A secret with the punctuation RFC 6749 form-encodes in the Authorization header. */
const CLIENT_SECRET = "s3cret-with.punct~uation!(and)'quotes'*";
const PETE = { username: "pete", name: "Pete Gibbons", email: "pete.gibbons@initech.test", password: "Initech pass 1" };

let glewlwyd: Glewlwyd;

beforeAll(async () => {
  if (!installed) return;
  glewlwyd = await startGlewlwyd();
  await glewlwyd.configure({ clientId: "namecard", secret: CLIENT_SECRET, redirectUri: callbackUrl() });
  await glewlwyd.addUser(PETE);
}, 60_000);

afterAll(async () => {
  await glewlwyd?.close();
});

/** The browser's round: Namecard, Glewlwyd's sign-in page, Glewlwyd again, and back to Namecard. */
async function signInAsPete(browser: SsoBrowser, providerId: string) {
  const started = await browser.start({ providerId });
  const authorize = present(started.body.url, "the provider's address");
  // Glewlwyd lists no PKCE method by default, and refuses a sign-in that sends one: none is sent.
  expect(new URL(authorize).searchParams.has("code_challenge")).toBe(false);
  const first = await fetch(authorize, { redirect: "manual" });
  const loginPage = new URL(present(first.headers.get("location"), "Glewlwyd's sign-in page"), authorize).href;
  const signedIn = await glewlwyd.signInOnItsPage(loginPage, PETE, "namecard");
  for (const pair of signedIn.cookie.split("; ")) {
    browser.keep(signedIn.next, new Headers([["set-cookie", `${pair}; Path=/`]]));
  }
  return browser.callback(await browser.atProvider(signedIn.next));
}

describe.skipIf(!installed)("single sign-on with Glewlwyd's OpenID Connect provider, set up as the guide says", () => {
  it("signs a person in at the first try with their card filled, and finds them again the next time", async () => {
    const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
    const form = ProviderFormSchema.parse({
      name: "Initech Login",
      issuer: glewlwyd.issuer,
      clientId: "namecard",
      clientSecret: CLIENT_SECRET,
      domains: "initech.test",
      requireSso: "",
      refreshCard: "",
      verifiesAddresses: "",
    });
    const provider = await saveProvider({ actor: admin.viewer, id: null, form });

    const browser = new SsoBrowser();
    expect(await signInAsPete(browser, provider.id)).toMatchObject({ status: 302, location: "/" });
    const session = present(await browser.session(), "a session");
    expect(session.user.email).toBe(PETE.email);
    // Glewlwyd sends a display name only: it fills both names, never the address.
    const [card] = await db.select().from(profiles).where(eq(profiles.userId, session.user.id));
    expect(card).toMatchObject({ firstName: "Pete", lastName: "Gibbons", email: PETE.email });

    const again = new SsoBrowser();
    expect(await signInAsPete(again, provider.id)).toMatchObject({ location: "/" });
    expect(present(await again.session(), "a second session").user.id).toBe(session.user.id);
  });
});
