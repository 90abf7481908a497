import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider, { type Adapter, type AdapterPayload, type KoaContextWithOIDC } from "oidc-provider";

/**
 * A real OpenID Connect provider (oidc-provider, certified) on 127.0.0.1, with
 * a signing key made here. A test names who signs in next (`signInAs`), and
 * may rewrite the ID token on its way out of the token endpoint (`tamper`) to
 * play a provider that lies or an attacker in between.
 */
type TestAccount = {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  title?: string;
  phone_number?: string;
};

type IdTokenTamper = (idToken: string) => Promise<string> | string;

export type TestProvider = {
  issuer: string;
  /** The provider's own signing key, to forge tokens that pass the signature check. */
  privateKey: CryptoKey;
  kid: string;
  /** A client for Namecard; its redirect address is known once Namecard has saved the provider. */
  addClient(): { clientId: string; clientSecret: string; redirectTo(uri: string): void };
  signInAs(subject: string, account: TestAccount): void;
  tamper(change: IdTokenTamper | null): void;
  close(): Promise<void>;
};

/** oidc-provider's storage, in memory; clients are the ones `addClient` registered. */
function memoryAdapter(clients: Map<string, AdapterPayload>) {
  const store = new Map<string, AdapterPayload>();
  return class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}
    key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload) {
      store.set(this.key(id), payload);
    }
    async find(id: string) {
      return this.model === "Client" ? clients.get(id) : store.get(this.key(id));
    }
    async findByUserCode() {
      return undefined;
    }
    async findByUid(uid: string) {
      return [...store.entries()].find(
        ([key, payload]) => key.startsWith(`${this.model}:`) && payload.uid === uid,
      )?.[1];
    }
    async consume(id: string) {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
    }
  };
}

export async function startOidcProvider(): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomBytes(8).toString("hex");
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
  const clients = new Map<string, AdapterPayload>();
  const accounts = new Map<string, TestAccount>();
  let next: string | null = null;
  let tamper: IdTokenTamper | null = null;

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    adapter: memoryAdapter(clients),
    jwks: { keys: [jwk] },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
    },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["given_name", "family_name", "name", "title"],
      phone: ["phone_number"],
    },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Consent is the company's, given once for Namecard: the grant is made on the spot.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(" "));
      await grant.save();
      return grant;
    },
  });
  provider.use(async (ctx, nextMiddleware) => {
    await nextMiddleware();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === "/token" && tamper && body?.id_token)
      ctx.body = { ...body, id_token: await tamper(body.id_token) };
  });
  const callback = provider.callback();

  server.on("request", async (request, response) => {
    const match = /^\/interaction\/([^/?]+)/.exec(request.url ?? "");
    if (!match) return callback(request, response);
    try {
      // The person at the provider's login page: whoever the test named.
      if (!next) throw new Error("the test named nobody to sign in");
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: next } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });

  return {
    issuer,
    privateKey,
    kid,
    addClient() {
      const clientId = `namecard-${randomBytes(4).toString("hex")}`;
      const clientSecret = randomBytes(24).toString("base64url");
      return {
        clientId,
        clientSecret,
        redirectTo(uri) {
          clients.set(clientId, {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [uri],
            grant_types: ["authorization_code"],
            response_types: ["code"],
          });
        },
      };
    },
    signInAs(subject, account) {
      accounts.set(subject, account);
      next = subject;
    },
    tamper(change) {
      tamper = change;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
