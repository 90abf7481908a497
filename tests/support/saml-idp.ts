import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import * as samlify from "samlify";

/**
 * A real SAML identity provider for the tests: samlify acting as the IdP,
 * with a key and certificate made by OpenSSL for the run. It reads the
 * AuthnRequests Namecard sends (HTTP-Redirect), signs the answers it is told
 * to give, and over HTTP shows a sign-in page whose form posts the answer to
 * the assertion consumer service, as a provider's page does in a browser.
 */

// The IdP side reads Namecard's AuthnRequest; its XML schema check needs a Java validator, which is not what is tested here.
samlify.setSchemaValidator({ validate: async () => "skipped" });

const POST = samlify.Constants.namespace.binding.post;
const REDIRECT = samlify.Constants.namespace.binding.redirect;
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
export const PERSISTENT_FORMAT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
export const TRANSIENT_FORMAT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";

export type KeyPair = { privateKey: string; certificate: string };

/**
 * A 2048-bit RSA key and a self-signed certificate for it, from OpenSSL;
 * `expired` makes one whose validity ended in 2020 (through `openssl ca`, which
 * takes dates in the past).
 */
export function makeKeyPair(commonName: string, options: { expired?: boolean } = {}): KeyPair {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-saml-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  try {
    if (!options.expired) {
      openssl([
        ..."req -x509 -newkey rsa:2048 -nodes -sha256 -days 2".split(" "),
        ...["-keyout", file("key.pem"), "-out", file("cert.pem"), "-subj", `/CN=${commonName}`],
      ]);
    } else {
      fs.writeFileSync(file("index.txt"), "");
      fs.writeFileSync(file("serial"), "01\n");
      fs.writeFileSync(
        file("ca.cnf"),
        `[ca]\ndefault_ca = test\n[test]\ndir = ${dir}\ndatabase = ${file("index.txt")}\nnew_certs_dir = ${dir}\nserial = ${file("serial")}\npolicy = any\ndefault_md = sha256\n[any]\ncommonName = supplied\n`,
      );
      openssl([
        ..."req -new -newkey rsa:2048 -nodes".split(" "),
        ...["-keyout", file("key.pem"), "-out", file("request.csr"), "-subj", `/CN=${commonName}`],
      ]);
      openssl([
        ..."ca -batch -selfsign -notext -startdate 20200101000000Z -enddate 20200102000000Z".split(" "),
        ...[
          "-config",
          file("ca.cnf"),
          "-keyfile",
          file("key.pem"),
          "-in",
          file("request.csr"),
          "-out",
          file("cert.pem"),
        ],
      ]);
    }
    return {
      privateKey: fs.readFileSync(file("key.pem"), "utf8"),
      certificate: fs.readFileSync(file("cert.pem"), "utf8"),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const xmlEscape = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** What one answer says, each part changeable for the attacks. */
export type SamlReply = {
  nameId: string;
  nameIdFormat?: string;
  /** By Name; a value with `friendlyName` also carries that FriendlyName. */
  attributes?: Record<string, string | { value: string; friendlyName: string }>;
  /** The request it answers; null for an answer no request asked for. */
  inResponseTo?: string | null;
  destination?: string | null;
  recipient?: string;
  audience?: string;
  issuer?: string;
  /** When it was made and how long it is valid, in milliseconds from now. */
  issuedAtMs?: number;
  validForMs?: number;
  /** How long the subject's confirmation is valid, when it differs from the conditions. */
  confirmationValidForMs?: number;
  /** The request the signed confirmation names, when it differs from the response's (null: none). */
  confirmationInResponseTo?: string | null;
  assertionId?: string;
  /** What is signed: the assertion (the default), the whole response, both or nothing. */
  sign?: { assertion: boolean; response: boolean };
  /** Signed with SHA-1, which Namecard refuses. */
  sha1?: boolean;
  /** Signed with this key instead of the provider's. */
  keys?: KeyPair;
};

export class TestSamlIdp {
  readonly entityId: string;
  readonly keys: KeyPair;
  private server: http.Server | null = null;
  ssoUrl = "";
  /** Who the sign-in page signs in, and what it sends of them. */
  person: Pick<SamlReply, "nameId" | "nameIdFormat" | "attributes"> = { nameId: "nobody@acme.test" };

  constructor(
    private readonly sp: { entityId: string; acsUrl: string },
    options: { entityId?: string; keys?: KeyPair } = {},
  ) {
    this.entityId = options.entityId ?? `https://idp.acme.test/${randomBytes(4).toString("hex")}`;
    this.keys = options.keys ?? makeKeyPair("Acme SAML");
  }

  /** Serves the sign-in page on 127.0.0.1. */
  async listen(): Promise<this> {
    this.server = http.createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.ssoUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/sso`;
    return this;
  }

  async close() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private entity(options: { sha1?: boolean; keys?: KeyPair } = {}) {
    const keys = options.keys ?? this.keys;
    return samlify.IdentityProvider({
      entityID: this.entityId,
      privateKey: keys.privateKey,
      signingCert: keys.certificate,
      singleSignOnService: [{ Binding: REDIRECT, Location: this.ssoUrl || "http://127.0.0.1:1/sso" }],
      // Namecard does no single logout; samlify warns without an address for it.
      singleLogoutService: [{ Binding: REDIRECT, Location: `${this.ssoUrl || "http://127.0.0.1:1/sso"}/logout` }],
      nameIDFormat: [EMAIL_FORMAT],
      requestSignatureAlgorithm: options.sha1
        ? "http://www.w3.org/2000/09/xmldsig#rsa-sha1"
        : "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    });
  }

  private serviceProvider(sign: { assertion: boolean; response: boolean }) {
    return samlify.ServiceProvider({
      entityID: this.sp.entityId,
      assertionConsumerService: [{ Binding: POST, Location: this.sp.acsUrl }],
      wantAssertionsSigned: sign.assertion,
      wantMessageSigned: sign.response,
    });
  }

  /** The provider's metadata, as an administrator downloads it. */
  metadata(): string {
    return this.entity().getMetadata();
  }

  /** The ID of the AuthnRequest in an address Namecard sent the browser to, read as the provider reads it. */
  async requestIdOf(url: string): Promise<string> {
    const query = Object.fromEntries(new URL(url).searchParams);
    const parsed = await this.entity().parseLoginRequest(
      this.serviceProvider({ assertion: true, response: false }),
      "redirect",
      {
        query,
      },
    );
    const id = parsed.extract.request?.id;
    if (typeof id !== "string") throw new Error("the AuthnRequest has no ID");
    return id;
  }

  /** A signed answer (base64, as posted), saying what `answer` says. */
  async answer(answer: SamlReply): Promise<string> {
    const sign = answer.sign ?? { assertion: true, response: false };
    const xml = this.responseXml(answer);
    const unsigned = !sign.assertion && !sign.response;
    if (unsigned) return Buffer.from(xml).toString("base64");
    const { context } = await this.entity({ sha1: answer.sha1, keys: answer.keys }).createLoginResponse(
      this.serviceProvider(sign),
      { extract: {} },
      "post",
      {},
      { customTagReplacement: () => ({ id: "", context: xml }) },
    );
    return context;
  }

  /** The response's XML before it is signed. */
  responseXml(answer: SamlReply): string {
    const issued = new Date(Date.now() + (answer.issuedAtMs ?? 0));
    const until = new Date(issued.getTime() + (answer.validForMs ?? 5 * 60 * 1000));
    const confirmationEnd = new Date(
      issued.getTime() + (answer.confirmationValidForMs ?? answer.validForMs ?? 5 * 60 * 1000),
    );
    const inResponseTo = answer.inResponseTo ? ` InResponseTo="${xmlEscape(answer.inResponseTo)}"` : "";
    const confirmed =
      answer.confirmationInResponseTo === undefined ? answer.inResponseTo : answer.confirmationInResponseTo;
    const confirmationInResponseTo = confirmed ? ` InResponseTo="${xmlEscape(confirmed)}"` : "";
    const destination =
      answer.destination === null ? "" : ` Destination="${xmlEscape(answer.destination ?? this.sp.acsUrl)}"`;
    const issuer = xmlEscape(answer.issuer ?? this.entityId);
    const attributes = Object.entries(answer.attributes ?? {})
      .map(([name, given]) => {
        const { value, friendlyName } = typeof given === "string" ? { value: given, friendlyName: null } : given;
        const friendly = friendlyName ? ` FriendlyName="${xmlEscape(friendlyName)}"` : "";
        return `<saml:Attribute Name="${xmlEscape(name)}"${friendly}><saml:AttributeValue>${xmlEscape(value)}</saml:AttributeValue></saml:Attribute>`;
      })
      .join("");
    return [
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(12).toString("hex")}" Version="2.0" IssueInstant="${issued.toISOString()}"${destination}${inResponseTo}>`,
      `<saml:Issuer>${issuer}</saml:Issuer>`,
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>`,
      `<saml:Assertion ID="${xmlEscape(answer.assertionId ?? `_a${randomBytes(12).toString("hex")}`)}" Version="2.0" IssueInstant="${issued.toISOString()}">`,
      `<saml:Issuer>${issuer}</saml:Issuer>`,
      `<saml:Subject><saml:NameID Format="${xmlEscape(answer.nameIdFormat ?? EMAIL_FORMAT)}">${xmlEscape(answer.nameId)}</saml:NameID>`,
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${confirmationEnd.toISOString()}" Recipient="${xmlEscape(answer.recipient ?? this.sp.acsUrl)}"${confirmationInResponseTo}/></saml:SubjectConfirmation></saml:Subject>`,
      `<saml:Conditions NotBefore="${issued.toISOString()}" NotOnOrAfter="${until.toISOString()}"><saml:AudienceRestriction><saml:Audience>${xmlEscape(answer.audience ?? this.sp.entityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`,
      `<saml:AuthnStatement AuthnInstant="${issued.toISOString()}" SessionIndex="_s${randomBytes(8).toString("hex")}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : "",
      "</saml:Assertion></samlp:Response>",
    ].join("");
  }

  /**
   * The provider's pages: GET /sso asks who signs in (the person set on the
   * provider is filled in); POST /sso answers with a page whose form posts the
   * signed answer to Namecard, sent by a script or a button.
   */
  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? "/", this.ssoUrl);
    if (request.method === "GET" && url.pathname === "/sso") {
      const requestId = await this.requestIdOf(url.href);
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(
        `<!doctype html><html lang="en"><title>Acme sign-in</title><main><h1>Acme sign-in</h1><form method="post" action="/sso"><input type="hidden" name="request" value="${xmlEscape(requestId)}"><label>Email <input name="email" value="${xmlEscape(this.person.nameId)}"></label><button>Continue</button></form></main></html>`,
      );
      return;
    }
    if (request.method === "POST" && url.pathname === "/sso") {
      let body = "";
      for await (const chunk of request) body += chunk;
      const form = new URLSearchParams(body);
      const encoded = await this.answer({ ...this.person, inResponseTo: form.get("request") });
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(
        `<!doctype html><html lang="en"><title>Acme sign-in</title><body><form method="post" action="${xmlEscape(this.sp.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${xmlEscape(encoded)}"><button>Back to Namecard</button></form><script>document.forms[0].submit()</script></body></html>`,
      );
      return;
    }
    response.writeHead(404);
    response.end();
  }
}
