import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/.server/platform/actor";
import { db } from "~/.server/platform/db/client";
import { profiles } from "~/.server/platform/db/schema";
import { recentFailures } from "~/.server/sso/failures";
import { saveProvider } from "~/.server/sso/providers";
import { ProviderFormSchema } from "~/.server/sso/schemas";
import { type Pysaml2Idp, pysaml2Installed, startPysaml2Idp } from "../support/pysaml2";
import { finish } from "../support/saml-flow";
import { type SimpleSamlPhp, simpleSamlPhpInstalled, startSimpleSamlPhp } from "../support/simplesamlphp";
import { SsoBrowser } from "../support/sso-flow";
import { createMember, present } from "./helpers";

/**
 * Single sign-on against a SAML provider nobody on this project wrote:
 * pysaml2 (Debian's python3-pysaml2) with its default settings but the
 * signature algorithm (SHA-1 by default, which Namecard refuses), connected by
 * its metadata alone, as docs/admin/single-sign-on.md tells an administrator to.
 */
/** An administrator connects a provider by pasting its metadata, as docs/admin/single-sign-on.md says. */
async function connectByMetadata(admin: { viewer: Actor }, name: string, metadata: string) {
  const form = ProviderFormSchema.parse({
    protocol: "saml",
    name,
    metadata,
    domains: "initech.test",
    idpInitiated: "",
    refreshCard: "",
  });
  return saveProvider({ actor: admin.viewer, id: null, form });
}

const installed = pysaml2Installed();
if (!installed && process.env.CI)
  throw new Error("pysaml2 is missing: `bash .ci/run` installs python3-pysaml2 and xmlsec1");

let idp: Pysaml2Idp;

beforeAll(async () => {
  if (installed) idp = await startPysaml2Idp();
});

afterAll(async () => {
  await idp?.close();
});

describe.skipIf(!installed)(
  "single sign-on with pysaml2's identity provider, its defaults but the signature algorithm",
  () => {
    it("signs a person in at the first try with their card filled from its attributes", async () => {
      const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
      const provider = await connectByMetadata(admin, "Initech SAML", await idp.metadata());

      await idp.signInAs("pete", {
        mail: ["pete.gibbons@initech.test"],
        givenName: ["Pete"],
        sn: ["Gibbons"],
        title: ["Programmer"],
      });
      const browser = new SsoBrowser();
      const started = await browser.start({ providerId: provider.id });
      const encoded = await idp.responseTo(present(started.body.url, "the provider's address"));
      expect(await finish(browser, encoded)).toMatchObject({ status: 302, location: "/" });
      const session = present(await browser.session(), "a session");
      expect(session.user.email).toBe("pete.gibbons@initech.test");
      const [card] = await db.select().from(profiles).where(eq(profiles.userId, session.user.id));
      expect(card).toMatchObject({ firstName: "Pete", lastName: "Gibbons", title: "Programmer" });

      // The next sign-in finds the same person.
      const again = new SsoBrowser();
      const next = await again.start({ providerId: provider.id });
      expect(await finish(again, await idp.responseTo(present(next.body.url, "the provider's address")))).toMatchObject(
        {
          location: "/",
        },
      );
      expect(present(await again.session(), "a second session").user.id).toBe(session.user.id);
    });

    it("refuses its SHA-1 default signature, and tells the administrator what to set instead", async () => {
      const sha1 = await startPysaml2Idp({ defaultAlgorithms: true });
      try {
        const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
        const provider = await connectByMetadata(admin, "Initech SAML", await sha1.metadata());
        await sha1.signInAs("milton", { mail: ["milton@initech.test"], givenName: ["Milton"], sn: ["Waddams"] });
        const browser = new SsoBrowser();
        const started = await browser.start({ providerId: provider.id });
        const encoded = await sha1.responseTo(present(started.body.url, "the provider's address"));
        expect(await finish(browser, encoded)).toMatchObject({ location: "/auth?sso=failed" });
        expect(await browser.session()).toBeNull();
        const [failure] = await recentFailures(provider.id, "saml");
        expect(failure).toMatchObject({
          what: expect.stringContaining("rsa-sha1"),
          change: "Set the provider to sign with RSA-SHA256 and digest with SHA-256.",
        });
      } finally {
        await sha1.close();
      }
    });
  },
);

const simpleSamlPhpHere = simpleSamlPhpInstalled();
if (!simpleSamlPhpHere && process.env.CI) {
  throw new Error("SimpleSAMLphp is missing: `bash .ci/run` installs simplesamlphp, php-cli and php-xml");
}

describe.skipIf(!simpleSamlPhpHere)(
  "single sign-on with SimpleSAMLphp's identity provider, set up as the guide says",
  () => {
    const PETE = {
      username: "pete",
      password: "Initech pass 1",
      attributes: {
        uid: ["pete"],
        mail: ["pete.gibbons@initech.test"],
        givenName: ["Pete"],
        sn: ["Gibbons"],
        title: ["Programmer"],
      },
    };
    let ssp: SimpleSamlPhp;

    beforeAll(async () => {
      ssp = await startSimpleSamlPhp([PETE]);
    }, 60_000);

    afterAll(async () => {
      await ssp?.close();
    });

    it("signs a person in at the first try with their card filled from its attributes", async () => {
      const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
      const provider = await connectByMetadata(admin, "Initech SimpleSAMLphp", await ssp.metadata());

      const browser = new SsoBrowser();
      const started = await browser.start({ providerId: provider.id });
      const encoded = await ssp.responseTo(present(started.body.url, "the provider's address"), PETE);
      const answered = await finish(browser, encoded);
      expect(answered, JSON.stringify(await recentFailures(provider.id, "saml"))).toMatchObject({
        status: 302,
        location: "/",
      });
      const session = present(await browser.session(), "a session");
      expect(session.user.email).toBe("pete.gibbons@initech.test");
      const [card] = await db.select().from(profiles).where(eq(profiles.userId, session.user.id));
      expect(card).toMatchObject({ firstName: "Pete", lastName: "Gibbons", title: "Programmer" });

      // The next sign-in finds the same person: its NameID is persistent.
      const again = new SsoBrowser();
      const next = await again.start({ providerId: provider.id });
      const second = await ssp.responseTo(present(next.body.url, "the provider's address"), PETE);
      expect(await finish(again, second)).toMatchObject({ location: "/" });
      expect(present(await again.session(), "a second session").user.id).toBe(session.user.id);
    });

    it("without the guide's persistent NameID, refuses its transient default and tells the administrator what to set", async () => {
      const transient = await startSimpleSamlPhp([PETE], { persistentNameId: false });
      try {
        const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
        const provider = await connectByMetadata(admin, "Initech SimpleSAMLphp", await transient.metadata());
        const browser = new SsoBrowser();
        const started = await browser.start({ providerId: provider.id });
        const encoded = await transient.responseTo(present(started.body.url, "the provider's address"), PETE);
        expect((await finish(browser, encoded)).location).toMatch(/^\/auth\?sso=/);
        expect(await browser.session()).toBeNull();
        const [failure] = await recentFailures(provider.id, "saml");
        expect(failure).toMatchObject({
          what: "The provider sent a transient NameID, which changes at every sign-in.",
          change: "Set the NameID format for Namecard to persistent (or emailAddress) at the provider.",
        });
      } finally {
        await transient.close();
      }
    });
  },
);
