import type { AddressInfo } from "node:net";
import { inflateRawSync } from "node:zlib";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { auditLog, identityProviders, profiles, ssoIdentities, users } from "~/.server/platform/db/schema";
import { recentFailures } from "~/.server/sso/failures";
import { listProviders, saveProvider } from "~/.server/sso/providers";
import { samlMetadata } from "~/.server/sso/saml";
import { ProviderFormSchema } from "~/.server/sso/schemas";
import { action as settingsAction, loader as settingsLoader } from "~/routes/admin/single-sign-on";
import { MISDIRECTED_SAML_PATH, misdirectedSamlEndpoint } from "../../server/misdirected-saml";
import { connectSamlProvider, finish, finishElsewhere, samlSignIn, startSamlIdp } from "../support/saml-flow";
import { makeKeyPair, PERSISTENT_FORMAT, type TestSamlIdp, TRANSIENT_FORMAT } from "../support/saml-idp";
import { SsoBrowser } from "../support/sso-flow";
import { createMember, formRequest, getRequest, present, run } from "./helpers";

/**
 * Signing in with the company's SAML 2.0 provider, against a real one
 * (samlify as the IdP, with a key and certificate OpenSSL made) on 127.0.0.1:
 * connected from its metadata, the first sign-in makes or claims the card,
 * identities are keyed by entity ID and NameID, and an answer is used once,
 * by the browser that asked.
 */

let idp: TestSamlIdp;

beforeAll(async () => {
  idp = await startSamlIdp();
});

afterAll(async () => {
  await idp.close();
});

const adminOf = () => createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });

describe("single sign-on with a SAML provider", () => {
  it("connects from the provider's metadata, then makes an account and a card from its attributes at the first sign-in", async () => {
    const admin = await adminOf();
    const provider = await connectSamlProvider(idp, admin.viewer);
    const [summary] = await listProviders();
    expect(summary).toMatchObject({ protocol: "saml", issuer: idp.entityId, ssoUrl: idp.ssoUrl, secret: "set" });
    expect(summary?.certificates).toHaveLength(1);

    const browser = new SsoBrowser();
    const answer = await samlSignIn(
      browser,
      idp,
      provider.id,
      {
        nameId: "00u1grace",
        nameIdFormat: PERSISTENT_FORMAT,
        attributes: {
          email: "Grace@Acme.test",
          givenName: "Grace",
          sn: "Hopper",
          title: "Rear Admiral",
          telephoneNumber: "+1 202 555 0100",
        },
      },
      { callbackURL: "/directory?q=grace" },
    );
    expect(answer).toMatchObject({ status: 302, location: "/directory?q=grace" });
    const session = present(await browser.session(), "a session");
    expect(session.user.email).toBe("grace@acme.test");
    const [card] = await db.select().from(profiles).where(eq(profiles.userId, session.user.id));
    expect(card).toMatchObject({
      firstName: "Grace",
      lastName: "Hopper",
      title: "Rear Admiral",
      phone: "+1 202 555 0100",
    });
    const [identity] = await db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, session.user.id));
    expect(identity).toMatchObject({ issuer: idp.entityId, subject: "00u1grace" });
  });

  it("fills the card whatever the provider calls its attributes: basic urn:mace names, a FriendlyName, Microsoft's claim URIs, a whole name alone", async () => {
    const provider = await connectSamlProvider(idp, (await adminOf()).viewer);
    const people: [string, NonNullable<Parameters<typeof samlSignIn>[3]["attributes"]>, object][] = [
      [
        "pete",
        {
          "urn:mace:dir:attribute-def:mail": "pete.gibbons@acme.test",
          "urn:mace:dir:attribute-def:givenName": "Pete",
          "urn:mace:dir:attribute-def:sn": "Gibbons",
          "urn:mace:dir:attribute-def:title": "Programmer",
          "urn:oid:2.5.4.19": "Initech HQ",
        },
        {
          email: "pete.gibbons@acme.test",
          firstName: "Pete",
          lastName: "Gibbons",
          title: "Programmer",
          office: "Initech HQ",
        },
      ],
      [
        "joanna",
        {
          "urn:x-acme:attributes:42": { value: "joanna@acme.test", friendlyName: "mail" },
          "urn:x-acme:attributes:43": { value: "Joanna", friendlyName: "givenName" },
          "urn:x-acme:attributes:44": { value: "Flair", friendlyName: "sn" },
          "urn:x-acme:attributes:45": { value: "Chotchkie's", friendlyName: "physicalDeliveryOfficeName" },
        },
        { email: "joanna@acme.test", firstName: "Joanna", lastName: "Flair", office: "Chotchkie's" },
      ],
      [
        "samir",
        {
          "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress": "samir@acme.test",
          "http://schemas.microsoft.com/identity/claims/displayname": "Samir Nagheenanajar",
        },
        { email: "samir@acme.test", firstName: "Samir", lastName: "Nagheenanajar" },
      ],
    ];
    for (const [who, attributes, card] of people) {
      const browser = new SsoBrowser();
      const answer = await samlSignIn(browser, idp, provider.id, {
        nameId: `00u1${who}`,
        nameIdFormat: PERSISTENT_FORMAT,
        attributes,
      });
      expect(answer, who).toMatchObject({ status: 302 });
      const session = present(await browser.session(), `${who}'s session`);
      const [made] = await db.select().from(profiles).where(eq(profiles.userId, session.user.id));
      expect(made, who).toMatchObject(card);
    }
  });

  it("names a persistent NameID first and an e-mail one second in its metadata, and lets the provider choose in its request", async () => {
    const metadata = samlMetadata();
    const formats = [...metadata.matchAll(/<(?:md:)?NameIDFormat>([^<]+)</g)].map((match) => match[1]);
    expect(formats).toEqual([
      "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
      "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    ]);
    const provider = await connectSamlProvider(idp, (await adminOf()).viewer);
    const started = await new SsoBrowser().start({ providerId: provider.id });
    const request = inflateRawSync(
      Buffer.from(
        new URL(present(started.body.url, "the provider's address")).searchParams.get("SAMLRequest") ?? "",
        "base64",
      ),
    ).toString("utf8");
    expect(request).toMatch(/<samlp:NameIDPolicy[^>]*Format="urn:oasis:names:tc:SAML:1\.1:nameid-format:unspecified"/);
    expect(request).toMatch(/<samlp:NameIDPolicy[^>]*AllowCreate="true"/);
  });

  it("reads the address from an email-format NameID, and finds the person again by it at the next sign-in", async () => {
    const provider = await connectSamlProvider(idp, (await adminOf()).viewer);
    const first = new SsoBrowser();
    await samlSignIn(first, idp, provider.id, { nameId: "ken@acme.test" });
    const second = new SsoBrowser();
    expect((await samlSignIn(second, idp, provider.id, { nameId: "ken@acme.test" })).location).toBe("/");
    expect(present(await second.session(), "a session").user.id).toBe(
      present(await first.session(), "a session").user.id,
    );
  });

  it("shows the administrator each failed sign-in in plain words with what to change: unsigned, transient, a stranger's domain", async () => {
    const admin = await adminOf();
    const provider = await connectSamlProvider(idp, admin.viewer);
    const refused = [
      await samlSignIn(new SsoBrowser(), idp, provider.id, {
        nameId: "unsigned@acme.test",
        sign: { assertion: false, response: true },
      }),
      await samlSignIn(new SsoBrowser(), idp, provider.id, { nameId: "_t1", nameIdFormat: TRANSIENT_FORMAT }),
      await samlSignIn(new SsoBrowser(), idp, provider.id, { nameId: "mallory@elsewhere.test" }),
    ];
    expect(refused.map((answer) => answer.location)).toEqual([
      "/auth?sso=failed",
      "/auth?sso=failed",
      "/auth?sso=domain",
    ]);
    const page = await run(
      settingsLoader,
      getRequest("/admin/settings/single-sign-on", admin.cookie),
      {},
      admin.viewer,
    );
    const { providers } = page.data as { providers: { id: string; failures: { what: string; change: string }[] }[] };
    const failures = present(
      providers.find((shown) => shown.id === provider.id),
      "the provider",
    ).failures;
    expect(failures.map(({ what, change }) => [what, change])).toEqual([
      [
        "The provider vouched for an address of a domain it may not sign in here.",
        "If the domain is the company's, add it to this provider's domains in Namecard.",
      ],
      [
        "The provider sent a transient NameID, which changes at every sign-in.",
        "Set the NameID format for Namecard to persistent (or emailAddress) at the provider.",
      ],
      [
        "The provider's assertion is not signed.",
        "Have the provider sign the assertion (not only the response), with SHA-256 or stronger.",
      ],
    ]);
  });

  it("tells a provider that posts its answer to the OpenID Connect redirect URL where it belongs", async () => {
    const admin = await adminOf();
    const provider = await connectSamlProvider(idp, admin.viewer);
    const app = express();
    app.post(MISDIRECTED_SAML_PATH, misdirectedSamlEndpoint);
    app.use((_req, res) => res.status(403).end());
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const encoded = await idp.answer({ nameId: "lost@acme.test" });
      const posted = await fetch(`${base}${MISDIRECTED_SAML_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ SAMLResponse: encoded }),
        redirect: "manual",
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get("location")).toBe("/auth?sso=wrong-endpoint");
      expect(await db.select().from(users).where(eq(users.email, "lost@acme.test"))).toEqual([]);
      const [failure] = await recentFailures(provider.id, "saml");
      expect(failure).toMatchObject({
        what: "The provider posted a SAML answer to the OpenID Connect redirect URL.",
        change: expect.stringContaining("/sso/saml/acs"),
      });
      // Anything else posted there is refused as before.
      const other = await fetch(`${base}${MISDIRECTED_SAML_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ code: "x" }),
      });
      expect(other.status).toBe(403);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("uses an answer once: posted again, it signs nobody in", async () => {
    const provider = await connectSamlProvider(idp, (await adminOf()).viewer);
    const browser = new SsoBrowser();
    const { encoded } = await samlSignIn(browser, idp, provider.id, { nameId: "ada@acme.test" });
    const again = new SsoBrowser();
    expect(await finish(again, encoded)).toMatchObject({ location: "/auth?sso=expired" });
    expect(await again.session()).toBeNull();
  });

  it("finishes a sign-in only in the browser that started it", async () => {
    const provider = await connectSamlProvider(idp, (await adminOf()).viewer);
    const victim = new SsoBrowser();
    const started = await victim.start({ providerId: provider.id });
    const requestId = await idp.requestIdOf(present(started.body.url, "the provider's address"));
    const encoded = await idp.answer({ nameId: "eve@acme.test", inResponseTo: requestId });
    const other = new SsoBrowser();
    expect(await finish(other, encoded)).toMatchObject({ location: "/auth?sso=expired" });
    expect(await other.session()).toBeNull();
    expect(await db.select().from(users).where(eq(users.email, "eve@acme.test"))).toEqual([]);
  });

  it("refuses an answer no request asked for, unless the administrator lets the provider start sign-ins", async () => {
    const admin = await adminOf();
    const provider = await connectSamlProvider(idp, admin.viewer);
    const unsolicited = () => idp.answer({ nameId: "joan@acme.test", inResponseTo: null });
    const browser = new SsoBrowser();
    expect(await finish(browser, await unsolicited())).toMatchObject({ location: "/auth?sso=failed" });
    expect(await browser.session()).toBeNull();

    await db.update(identityProviders).set({ idpInitiated: true }).where(eq(identityProviders.id, provider.id));
    expect(await finish(browser, await unsolicited())).toMatchObject({ status: 302, location: "/" });
    expect(present(await browser.session(), "a session").user.email).toBe("joan@acme.test");

    // The page it leads to, sent to someone else as a link, signs them in as nobody.
    const victim = new SsoBrowser();
    expect(await finishElsewhere(new SsoBrowser(), victim, await unsolicited())).toMatchObject({
      location: "/auth?sso=expired",
    });
    expect(await victim.session()).toBeNull();
  });

  it("treats an answer whose signed part names no request as unsolicited, whatever the unsigned response says", async () => {
    const provider = await connectSamlProvider(idp, (await adminOf()).viewer);
    const attacker = new SsoBrowser();
    const started = await attacker.start({ providerId: provider.id });
    const requestId = await idp.requestIdOf(present(started.body.url, "the provider's address"));
    const stolen = await idp.answer({
      nameId: "joan@acme.test",
      inResponseTo: requestId,
      confirmationInResponseTo: null,
    });
    expect(await finish(attacker, stolen)).toMatchObject({ location: "/auth?sso=failed" });
    expect(await attacker.session()).toBeNull();
  });

  it("signs in only addresses of the provider's own domains, and no person by a NameID that changes at every sign-in", async () => {
    const provider = await connectSamlProvider(idp, (await adminOf()).viewer);
    await createMember({ email: "bob@other.test" });
    const browser = new SsoBrowser();
    expect(await samlSignIn(browser, idp, provider.id, { nameId: "bob@other.test" })).toMatchObject({
      location: "/auth?sso=domain",
    });
    expect(
      await samlSignIn(browser, idp, provider.id, {
        nameId: "_3f9a0e",
        nameIdFormat: TRANSIENT_FORMAT,
        attributes: { email: "tess@acme.test" },
      }),
    ).toMatchObject({ location: "/auth?sso=failed" });
    expect(await browser.session()).toBeNull();
  });
});

describe("connecting a SAML provider in Settings", () => {
  const save = async (admin: Awaited<ReturnType<typeof adminOf>>, fields: Record<string, string>) => {
    const request = formRequest("/admin/settings/single-sign-on", {
      intent: "save",
      protocol: "saml",
      name: "Acme SAML",
      domains: "acme.test",
      ...fields,
    });
    return run(settingsAction, request, {}, admin.viewer);
  };

  it("says on the form what is wrong with the metadata or the certificate, and saves nothing", async () => {
    const admin = await adminOf();
    const expired = makeKeyPair("Old Acme", { expired: true });
    const cases: [Record<string, string>, string, string][] = [
      [{ metadata: "<html>not metadata</html>" }, "metadata", "describes no identity provider"],
      [{ metadata: "<EntityDescriptor" }, "metadata", "This is not SAML metadata"],
      [
        { entityId: "https://idp.acme.test", ssoUrl: "http://idp.acme.test/sso", certificate: idp.keys.certificate },
        "ssoUrl",
        "https",
      ],
      [
        { entityId: "https://idp.acme.test", ssoUrl: "https://idp.acme.test/sso", certificate: "hello" },
        "certificate",
        "not a certificate",
      ],
      [
        { entityId: "https://idp.acme.test", ssoUrl: "https://idp.acme.test/sso", certificate: expired.certificate },
        "certificate",
        "expired",
      ],
      [{ ssoUrl: "https://idp.acme.test/sso", certificate: idp.keys.certificate }, "entityId", "entity ID"],
    ];
    for (const [fields, field, message] of cases) {
      const answer = await save(admin, fields);
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      const errors = (answer.data as { fieldErrors: Record<string, string[]> }).fieldErrors;
      expect(errors[field]?.join(" ")).toContain(message);
    }
    expect(await db.select().from(identityProviders)).toEqual([]);
  });

  it("keeps the certificates sealed, out of the audit log and off the screen, and keeps them when an edit leaves the field empty", async () => {
    const admin = await adminOf();
    const typed = await save(admin, { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: idp.keys.certificate });
    expect(typed.status, JSON.stringify(typed.data)).toBe(302);
    const body = idp.keys.certificate.split("\n")[1] ?? "";
    const [row] = await db.select().from(identityProviders);
    expect(row?.certificates).not.toContain(body.slice(0, 40));
    expect(JSON.stringify(await db.select().from(auditLog))).not.toContain(body.slice(0, 40));
    expect(JSON.stringify(await listProviders())).not.toContain(body.slice(0, 40));

    const id = present(row, "the provider").id;
    // A key rollover's pair, the old certificate expired: the current one is kept, the expired one left out.
    const rollover = await save(admin, {
      id,
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificate: `${makeKeyPair("Old Acme", { expired: true }).certificate}${idp.keys.certificate}`,
    });
    expect(rollover.status, JSON.stringify(rollover.data)).toBe(302);
    expect((await listProviders())[0]?.certificates).toHaveLength(1);
    const form = ProviderFormSchema.parse({
      protocol: "saml",
      name: "Acme SAML (renamed)",
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      domains: "acme.test",
    });
    await saveProvider({ actor: admin.viewer, id, form });
    const browser = new SsoBrowser();
    expect((await samlSignIn(browser, idp, id, { nameId: "kept@acme.test" })).location).toBe("/");
  });
});
