import { eq } from "drizzle-orm";
import { decodeJwt, decodeProtectedHeader, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { users } from "~/.server/platform/db/schema";
import { createMember } from "../server/helpers";
import { startOidcProvider, type TestProvider } from "../support/oidc-provider";
import { connectProvider, SsoBrowser } from "../support/sso-flow";

/**
 * The attacks on an OpenID Connect sign-in, each against a real provider
 * (oidc-provider on 127.0.0.1) whose answers a test may rewrite: every one
 * ends on /auth with a message, with no session and no account made.
 */

let idp: TestProvider;
let providerId: string;

beforeAll(async () => {
  idp = await startOidcProvider();
});

afterAll(async () => {
  await idp.close();
});

beforeEach(async () => {
  idp.tamper(null);
  const admin = await createMember({ email: "admin@example.com" });
  providerId = (await connectProvider(idp, admin.viewer)).id;
  idp.signInAs("sub-eve", { email: "eve@acme.test", given_name: "Eve", family_name: "Attacker" });
});

async function expectNoSignIn(browser: SsoBrowser) {
  expect(await browser.session()).toBeNull();
  expect(await db.select().from(users).where(eq(users.email, "eve@acme.test"))).toEqual([]);
}

/** The ID token re-signed with the provider's own key after `change`: only the claim check can refuse it. */
function resigned(change: (claims: JWTPayload) => JWTPayload) {
  return async (idToken: string) =>
    new SignJWT(change(decodeJwt(idToken))).setProtectedHeader({ alg: "RS256", kid: idp.kid }).sign(idp.privateKey);
}

/** A sign-in taken as far as the provider's redirect back, not yet delivered. */
async function atCallback(browser = new SsoBrowser(), callbackURL?: string) {
  const started = await browser.start({ providerId, ...(callbackURL ? { callbackURL } : {}) });
  return browser.atProvider(started.body.url ?? "");
}

const now = () => Math.floor(Date.now() / 1000);

describe("an OpenID Connect sign-in", () => {
  it("is refused when the state does not match the sign-in this browser started", async () => {
    const browser = new SsoBrowser();
    const url = new URL(await atCallback(browser));
    url.searchParams.set("state", "forged-state");
    expect(await browser.callback(url.href)).toMatchObject({ status: 302, location: "/auth?sso=expired" });
    await expectNoSignIn(browser);
  });

  it("is refused when one sign-in's code comes back with another sign-in's state (its PKCE verifier does not fit)", async () => {
    const browser = new SsoBrowser();
    const first = new URL(await atCallback(browser));
    const second = new URL(await atCallback(browser));
    first.searchParams.set("state", second.searchParams.get("state") ?? "");
    expect(await browser.callback(first.href)).toMatchObject({ location: "/auth?sso=failed" });
    await expectNoSignIn(browser);
  });

  it("is refused when the callback is replayed, in the same browser or another", async () => {
    const browser = new SsoBrowser();
    const url = await atCallback(browser);
    const cookie = browser.cookieFor(url);
    expect((await browser.callback(url)).location).toBe("/");
    const signedIn = await browser.session();
    expect(signedIn?.user.email).toBe("eve@acme.test");

    const again = new SsoBrowser();
    again.keep(url, new Headers({ "set-cookie": cookie.split("; ").find((pair) => pair.includes("sso_login")) ?? "" }));
    expect(await again.callback(url)).toMatchObject({ location: "/auth?sso=expired" });
    expect(await again.session()).toBeNull();
  });

  it("is refused when the answer reaches a browser that did not start it (a login forced on someone else)", async () => {
    const url = await atCallback(new SsoBrowser());
    const victim = new SsoBrowser();
    expect(await victim.callback(url)).toMatchObject({ location: "/auth?sso=expired" });
    await expectNoSignIn(victim);
  });

  it("is refused when the provider answers with an error", async () => {
    const browser = new SsoBrowser();
    const url = new URL(await atCallback(browser));
    const state = url.searchParams.get("state") ?? "";
    url.search = new URLSearchParams({ error: "access_denied", state, iss: idp.issuer }).toString();
    expect(await browser.callback(url.href)).toMatchObject({ location: "/auth?sso=failed" });
    await expectNoSignIn(browser);
  });

  const forgeries: [string, (idToken: string) => Promise<string> | string][] = [
    [
      "an ID token signed by another key",
      async (idToken) => {
        const { privateKey } = await generateKeyPair("RS256");
        return new SignJWT(decodeJwt(idToken))
          .setProtectedHeader({ alg: "RS256", kid: decodeProtectedHeader(idToken).kid ?? "" })
          .sign(privateKey);
      },
    ],
    [
      "an unsigned ID token (alg: none)",
      (idToken) => {
        const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
        return `${header}.${idToken.split(".")[1]}.`;
      },
    ],
    ["an ID token from another issuer", resigned((claims) => ({ ...claims, iss: "http://127.0.0.1:9" }))],
    ["an ID token for another audience", resigned((claims) => ({ ...claims, aud: "another-client" }))],
    ["an expired ID token", resigned((claims) => ({ ...claims, iat: now() - 7200, exp: now() - 600 }))],
    ["an ID token with another sign-in's nonce", resigned((claims) => ({ ...claims, nonce: "another-nonce" }))],
  ];
  for (const [what, forge] of forgeries) {
    it(`is refused with ${what}`, async () => {
      idp.tamper(forge);
      const browser = new SsoBrowser();
      expect(await browser.callback(await atCallback(browser))).toMatchObject({ location: "/auth?sso=failed" });
      await expectNoSignIn(browser);
    });
  }

  for (const target of ["https://evil.test/welcome", "//evil.test/welcome", "/\\evil.test", "javascript:alert(1)"]) {
    it(`lands on this site, not on ${JSON.stringify(target)}`, async () => {
      const browser = new SsoBrowser();
      expect(await browser.callback(await atCallback(browser, target))).toMatchObject({ status: 302, location: "/" });
    });
  }
});
