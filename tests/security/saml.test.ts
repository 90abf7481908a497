import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { users } from "~/.server/platform/db/schema";
import { createMember } from "../server/helpers";
import { connectSamlProvider, finish, samlSignIn, startSamlIdp } from "../support/saml-flow";
import { makeKeyPair, type SamlReply, type TestSamlIdp } from "../support/saml-idp";
import { SsoBrowser } from "../support/sso-flow";

/**
 * The attacks on a SAML sign-in, each against a real identity provider
 * (samlify, signing with a key OpenSSL made) whose answers a test changes:
 * every one ends on /auth with a message, with no session and no account made.
 */

let idp: TestSamlIdp;
let providerId: string;
const EVE = "eve@acme.test";

beforeAll(async () => {
  idp = await startSamlIdp();
});

afterAll(async () => {
  await idp.close();
});

beforeEach(async () => {
  const admin = await createMember({ email: "admin@example.com" });
  providerId = (await connectSamlProvider(idp, admin.viewer)).id;
});

async function expectRefused(answer: Partial<SamlReply>, code = "failed") {
  const browser = new SsoBrowser();
  const ended = await samlSignIn(browser, idp, providerId, { nameId: EVE, ...answer });
  expect(ended.location).toBe(`/auth?sso=${code}`);
  expect(await browser.session()).toBeNull();
  expect(await db.select().from(users).where(eq(users.email, EVE))).toEqual([]);
}

/** A request is started in `browser`, then the answer `change` makes of a signed one is posted. */
async function tampered(change: (xml: string) => string, answer: Partial<SamlReply> = {}) {
  const browser = new SsoBrowser();
  const started = await browser.start({ providerId });
  const requestId = await idp.requestIdOf(started.body.url ?? "");
  const signed = Buffer.from(await idp.answer({ nameId: EVE, inResponseTo: requestId, ...answer }), "base64");
  const ended = await finish(browser, Buffer.from(change(signed.toString("utf8"))).toString("base64"));
  return { ended, browser };
}

const MINUTE = 60 * 1000;

describe("a SAML answer is refused", () => {
  it("when it is signed by another key than the provider's certificate", async () => {
    await expectRefused({ keys: makeKeyPair("Not Acme") });
  });

  it("when nothing in it is signed, or only the response around an unsigned assertion", async () => {
    await expectRefused({ sign: { assertion: false, response: false } });
    await expectRefused({ sign: { assertion: false, response: true } });
  });

  it("when it is signed with SHA-1", async () => {
    await expectRefused({ sha1: true });
  });

  it("when it is meant for another service provider, another address, or came from another issuer", async () => {
    await expectRefused({ audience: "https://other-app.example.com/saml" });
    await expectRefused({ recipient: "https://other-app.example.com/acs" });
    await expectRefused({ destination: "https://other-app.example.com/acs" });
    await expectRefused({ issuer: "https://idp.other.test/" });
  });

  it("when it has expired, or is not valid yet beyond a few minutes of clock skew", async () => {
    await expectRefused({ issuedAtMs: -10 * MINUTE, validForMs: 5 * MINUTE });
    await expectRefused({ issuedAtMs: 10 * MINUTE });
  });

  it("when its subject's confirmation has expired, though its conditions have not", async () => {
    await expectRefused({ issuedAtMs: -6 * MINUTE, validForMs: 60 * MINUTE, confirmationValidForMs: 2 * MINUTE });
  });

  it("but not for a provider whose clock is two minutes ahead (the skew allowed)", async () => {
    const browser = new SsoBrowser();
    const ended = await samlSignIn(browser, idp, providerId, { nameId: EVE, issuedAtMs: 2 * MINUTE });
    expect(ended).toMatchObject({ status: 302, location: "/" });
    expect((await browser.session())?.user.email).toBe(EVE);
  });

  it("when it answers a request that was never made", async () => {
    await expectRefused({ inResponseTo: "_never-asked" }, "expired");
  });

  it("when a forged assertion wraps around, or stands beside, the signed one (XML signature wrapping)", async () => {
    const forge = (xml: string) => {
      const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? "";
      const forged = signed.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, "").replace(EVE, "ceo@acme.test");
      return { signed, forged };
    };
    const wrapped = await tampered((xml) => {
      const { signed, forged } = forge(xml);
      return xml.replace(signed, `<samlp:Extensions>${signed}</samlp:Extensions>${forged}`);
    });
    expect(wrapped.ended.location).toBe("/auth?sso=failed");
    const beside = await tampered((xml) => {
      const { signed, forged } = forge(xml);
      return xml.replace(signed, `${forged}${signed}`);
    });
    expect(beside.ended.location).toBe("/auth?sso=failed");
    const inside = await tampered((xml) => {
      const { signed, forged } = forge(xml);
      return xml.replace(signed, forged.replace("</saml:Subject>", `</saml:Subject>${signed}`));
    });
    expect(inside.ended.location).toBe("/auth?sso=failed");
    for (const { browser } of [wrapped, beside, inside]) expect(await browser.session()).toBeNull();
    expect(await db.select().from(users).where(eq(users.email, "ceo@acme.test"))).toEqual([]);
  });

  it("when a signed value is changed after signing, or the XML declares entities", async () => {
    const changed = await tampered((xml) => xml.replace(EVE, "ceo@acme.test"));
    expect(changed.ended.location).toBe("/auth?sso=failed");
    const entities = await tampered(
      (xml) => `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">]>${xml.replace(/^<\?xml[^>]*\?>/, "")}`,
    );
    expect(entities.ended.location).toBe("/auth?sso=failed");
    expect(await db.select().from(users)).toHaveLength(1);
  });

  it("when it asserts an address of a domain its provider does not sign in", async () => {
    await createMember({ email: "victim@bank.test" });
    const browser = new SsoBrowser();
    const ended = await samlSignIn(browser, idp, providerId, { nameId: "victim@bank.test" });
    expect(ended.location).toBe("/auth?sso=domain");
    expect(await browser.session()).toBeNull();
  });

  it("when it is not SAML at all", async () => {
    const browser = new SsoBrowser();
    for (const body of ["", "not base64 !", Buffer.from("<html/>").toString("base64"), "A".repeat(300_000)]) {
      expect(await finish(browser, body)).toMatchObject({ location: "/auth?sso=failed" });
    }
  });
});
