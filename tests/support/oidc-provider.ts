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
  /**
   * A client for Namecard; its redirect address is known once Namecard has saved the provider. It
   * authenticates with `authMethod` only (client_secret_basic unless told), with a secret of its own.
   */
  addClient(options?: {
    authMethod?: "client_secret_basic" | "client_secret_post";
    secret?: string;
    /** Compares the secret in the Authorization header as sent, without undoing its form encoding (as Glewlwyd does). */
    basicUndecoded?: boolean;
  }): {
    clientId: string;
    clientSecret: string;
    redirectTo(uri: string): void;
  };
  /** Rewrites the provider's discovery document on its way out (a provider that lists less than it serves). */
  rewriteDiscovery(change: ((document: Record<string, unknown>) => Record<string, unknown>) | null): void;
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
  let rewrite: ((document: Record<string, unknown>) => Record<string, unknown>) | null = null;
  const undecoded = new Set<string>();

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
    const basic = /^Basic (.+)$/i.exec(ctx.headers.authorization ?? "")?.[1];
    if (ctx.path === "/token" && basic) {
      const [id = "", ...rest] = Buffer.from(basic, "base64").toString("utf8").split(":");
      const client = undecoded.has(decodeURIComponent(id)) ? clients.get(decodeURIComponent(id)) : undefined;
      if (client && rest.join(":") !== client.client_secret) {
        ctx.status = 401;
        ctx.body = { error: "invalid_client", error_description: "Invalid client credentials" };
        return;
      }
    }
    await nextMiddleware();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === "/token" && tamper && body?.id_token)
      ctx.body = { ...body, id_token: await tamper(body.id_token) };
    if (ctx.path === "/.well-known/openid-configuration" && rewrite && ctx.body)
      ctx.body = rewrite(ctx.body as Record<string, unknown>);
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
    addClient(options = {}) {
      const clientId = `namecard-${randomBytes(4).toString("hex")}`;
      const clientSecret = options.secret ?? randomBytes(24).toString("base64url");
      if (options.basicUndecoded) undecoded.add(clientId);
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
            token_endpoint_auth_method: options.authMethod ?? "client_secret_basic",
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
    rewriteDiscovery(change) {
      rewrite = change;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
