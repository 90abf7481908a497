import { describe, expect, it } from "vitest";
import { type AuthApiPaths, loggedText, REDACTED, redactUrl } from "./log-redaction";

const AUTH: AuthApiPaths = {
  base: ["api", "auth"],
  words: new Set(["api", "auth", "reset-password", "sign-in", "email", "sso", "callback", "confirm-email"]),
};
const SECRET = "Xq7secretTokenValue0123456789abcdef";
const shown = (address: string) => redactUrl(address, AUTH);

describe("what a log line shows of an address", () => {
  it("shows a page's path as sent, and the names of its query without their values", () => {
    expect(shown(`/auth/reset-password?token=${SECRET}`)).toBe(`/auth/reset-password?token=${REDACTED}`);
    expect(shown(`/profile/ada?src=qr&q=Ada%20Lovelace`)).toBe(`/profile/ada?src=${REDACTED}&q=${REDACTED}`);
    expect(shown("/directory?q=&index")).toBe("/directory?q=&index");
    expect(shown("/profile/ada")).toBe("/profile/ada");
  });

  it("hides a query name that does not read like one, which may be the secret itself", () => {
    expect(shown(`/auth?${SECRET}`)).toBe(`/auth?${REDACTED}`);
    expect(shown(`/auth?%74oken=${SECRET}`)).toBe(`/auth?${REDACTED}=${REDACTED}`);
    expect(shown(`/x?a=1&&b=${SECRET}=more`)).toBe(`/x?a=${REDACTED}&&b=${REDACTED}`);
  });

  it("hides a fragment, and a query value that holds one", () => {
    expect(shown(`/profile/ada#token=${SECRET}`)).toBe(`/profile/ada#${REDACTED}`);
    expect(shown(`/x?token=a#${SECRET}`)).toBe(`/x?token=${REDACTED}`);
  });

  it("shows under the auth API only the words of its endpoints' paths", () => {
    expect(shown(`/api/auth/reset-password/${SECRET}?callbackURL=%2Fauth`)).toBe(
      `/api/auth/reset-password/${REDACTED}?callbackURL=${REDACTED}`,
    );
    expect(shown("/api/auth/sign-in/email")).toBe("/api/auth/sign-in/email");
    expect(shown(`/api/auth/${SECRET}/${SECRET}.data`)).toBe(`/api/auth/${REDACTED}/${REDACTED}`);
  });

  it("reads the auth API's path as the router does, whatever its spelling", () => {
    for (const spelling of [
      `/API/Auth/reset-password/${SECRET}`,
      `/%61pi/auth/reset-password/${SECRET}`,
      `/profile/x/../../api/auth/reset-password/${SECRET}`,
      `/profile/%2e%2e/api/auth/reset-password/${SECRET}`,
      `\\api\\auth\\reset-password\\${SECRET}`,
      `//api/auth/reset-password/${SECRET}/`,
      `/api/auth/reset-password%2F${SECRET}`,
    ]) {
      expect(shown(spelling), spelling).not.toContain(SECRET);
      expect(shown(spelling), spelling).toContain(REDACTED);
    }
  });

  it("replaces every path segment while the auth API is not known yet", () => {
    expect(redactUrl(`/profile/ada?token=${SECRET}`, null)).toBe(`/${REDACTED}/${REDACTED}?token=${REDACTED}`);
  });

  it("keeps an absolute address's origin, without its user and password", () => {
    expect(shown(`https://cards.example.com/auth/invitation?token=${SECRET}`)).toBe(
      `https://cards.example.com/auth/invitation?token=${REDACTED}`,
    );
    expect(shown(`smtp://mailer:${SECRET}@smtp.example.com:587`)).toBe(`smtp://${REDACTED}@smtp.example.com:587`);
    expect(shown(`https://cards.example.com/api/auth/reset-password/${SECRET}`)).toBe(
      `https://cards.example.com/api/auth/reset-password/${REDACTED}`,
    );
  });
});

describe("addresses inside a message", () => {
  // Here better-auth has no database to run on, so every path segment is replaced as well.
  it("are shown by the same rule, the rest of the message as written", () => {
    const message = loggedText(`Invalid callbackURL: https://elsewhere.example/welcome?token=${SECRET} (refused)`);
    expect(message).not.toContain(SECRET);
    expect(message).toBe(`Invalid callbackURL: https://elsewhere.example/${REDACTED}?token=${REDACTED} (refused)`);
    expect(loggedText("the provider was removed")).toBe("the provider was removed");
  });
});
