import { describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER, getAuth } from "~/.server/http/auth";
import { safeRedirect } from "~/.server/platform/validation";
import { action as authAction } from "~/routes/auth/auth";
import { loader as verifiedLoader } from "~/routes/auth/verified";
import {
  BASE,
  createMember,
  formRequest,
  getRequest,
  MEMBER_PASSWORD,
  nextIp,
  run,
  uniqueEmail,
} from "../server/helpers";
import { newBrowser, newestLink, openIn, signUpIn } from "./accounts-support";

/** Return addresses an attacker would try; every one must end on this site. */
const HOSTILE_REDIRECTS = [
  "/\t/evil.example",
  "/%09/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "//evil.example",
  "///evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/%5Cevil.example",
  "/.//evil.example",
  "/..//evil.example",
  "https://evil.example/",
  "http:evil.example",
  "javascript:alert(1)",
  " //evil.example",
  "/\u2028/evil.example",
  "/%E2%80%A8/evil.example",
  "/\u0000/evil.example",
  "/directory\r\nSet-Cookie: hacked=1",
  "evil.example",
];

/**
 * One of each kind of trick (whitespace, a second slash, a backslash, an encoded slash, another
 * site, a script, a Unicode line break, a header break), for the flows that sign someone in: each
 * costs a password hash, and each passes its address through the same `safeRedirect`, which
 * meets every variant above.
 */
const HOSTILE_KINDS = [
  "/\t/evil.example",
  "//evil.example",
  "/\\evil.example",
  "/%2F/evil.example",
  "https://evil.example/",
  "javascript:alert(1)",
  "/\u2028/evil.example",
  "/directory\r\nSet-Cookie: hacked=1",
];

/** Where a browser would go with this Location: tabs and line breaks are dropped, as browsers do. */
function browserTarget(location: string) {
  return new URL(location.replace(/[\t\n\r]/g, ""), BASE);
}

function expectSameSite(location: string | null) {
  expect(location).toBeTruthy();
  expect(location).toMatch(/^\/(?![/\\])/);
  expect([...location!].some((character) => character.charCodeAt(0) < 0x20 || character === "\\")).toBe(false);
  expect(browserTarget(location!).origin).toBe(BASE);
}

describe("redirects stay on this site", () => {
  it.each(HOSTILE_REDIRECTS)("safeRedirect(%j) is a path on this site", (value) => {
    expectSameSite(safeRedirect(value));
  });

  it.each(HOSTILE_REDIRECTS)("the confirmation landing page with redirectTo=%j stays on this site", async (value) => {
    const result = await run(
      verifiedLoader,
      getRequest(`/auth/verified?${new URLSearchParams({ redirectTo: value })}`),
    );
    expect(result.status).toBe(302);
    expectSameSite(result.location);
  });

  it("the raw /%09/ attack from the address bar lands on this site", async () => {
    const result = await run(verifiedLoader, getRequest("/auth/verified?redirectTo=/%09/evil.example"));
    expect(result.location).toBe("/");
  });

  it.each(HOSTILE_KINDS)("signing in without JavaScript with redirectTo=%j stays on this site", async (value) => {
    const { email } = await createMember();
    const result = await run(
      authAction,
      formRequest("/auth", { intent: "signin", email, password: MEMBER_PASSWORD, redirectTo: value }),
    );
    expect(result.status).toBe(302);
    expectSameSite(result.location);
  });

  it.each(HOSTILE_KINDS)("the emailed link of a sign-up with redirectTo=%j opens on this site", async (value) => {
    const email = uniqueEmail("redirect");
    const browser = newBrowser();
    await signUpIn(browser, { email, password: "a long enough phrase", redirectTo: value });
    const link = newestLink(email);
    expect(link.startsWith(`${BASE}/api/auth/confirm-email?token=`)).toBe(true);
    expect(link).not.toContain("evil");
    const opened = await openIn(browser, link);
    expect(opened.status).toBe(302);
    expectSameSite(opened.location);
  });

  it.each(HOSTILE_KINDS)("the sign-in API with callbackURL=%j sets no Location off this site", async (value) => {
    const { email } = await createMember();
    const response = await getAuth().handler(
      new Request(`${BASE}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: BASE, [CLIENT_IP_HEADER]: nextIp() },
        body: JSON.stringify({ email, password: MEMBER_PASSWORD, callbackURL: value }),
      }),
    );
    expect(response.status).toBe(200);
    const location = response.headers.get("location");
    if (location) expectSameSite(location);
  });

  it("a same-site path with its query and hash survives", () => {
    expect(safeRedirect("/directory?q=ann%20lee&brand=2#top")).toBe("/directory?q=ann%20lee&brand=2#top");
    void newBrowser;
  });
});
