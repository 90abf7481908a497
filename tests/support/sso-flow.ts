import { getAuth } from "~/.server/http/auth";
import type { Actor } from "~/.server/platform/actor";
import { env } from "~/.server/platform/env";
import { callbackUrl } from "~/.server/sso/oidc";
import { saveProvider } from "~/.server/sso/providers";
import { ProviderFormSchema } from "~/.server/sso/schemas";
import { cookieFrom } from "../server/helpers";
import type { TestProvider } from "./oidc-provider";

/** An administrator connects the test provider as "Acme Login", as the settings form sends it. */
export async function connectProvider(
  idp: TestProvider,
  admin: Actor,
  options: {
    domains?: string;
    requireSso?: boolean;
    refreshCard?: boolean;
    verifiesAddresses?: boolean;
    client?: Parameters<TestProvider["addClient"]>[0];
  } = {},
) {
  const client = idp.addClient(options.client);
  const form = ProviderFormSchema.parse({
    name: "Acme Login",
    issuer: idp.issuer,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    domains: options.domains ?? "acme.test",
    requireSso: options.requireSso ? "on" : "",
    refreshCard: options.refreshCard ? "on" : "",
    verifiesAddresses: options.verifiesAddresses ? "on" : "",
  });
  const saved = await saveProvider({ actor: admin, id: null, form });
  client.redirectTo(callbackUrl());
  return { ...saved, clientId: client.clientId, clientSecret: client.clientSecret };
}

/**
 * A browser's part in a single sign-on, without the pages: Namecard's
 * endpoints are called through better-auth's handler (as the server mounts
 * it), the provider over HTTP, each with its own cookies, following the
 * redirects a browser would.
 */
export class SsoBrowser {
  private readonly jars = new Map<string, string>();

  cookieFor(url: string): string {
    return this.jars.get(new URL(url).origin) ?? "";
  }

  keep(url: string, headers: Headers) {
    const origin = new URL(url).origin;
    this.jars.set(origin, cookieFrom(headers, this.jars.get(origin)));
  }

  /** A request to Namecard's auth handler, with this browser's cookies. */
  async app(url: string, init: { method?: string; body?: unknown } = {}) {
    const headers = new Headers({ origin: new URL(env.PUBLIC_URL).origin });
    const cookie = this.cookieFor(url);
    if (cookie) headers.set("cookie", cookie);
    if (init.body !== undefined) headers.set("content-type", "application/json");
    const response = await getAuth().handler(
      new Request(url, {
        method: init.method ?? "GET",
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
    );
    this.keep(url, response.headers);
    return response;
  }

  /** Presses "Sign in with …": the address the browser is sent to, or the refusal. */
  async start(body: { providerId?: string; email?: string; callbackURL?: string }) {
    const response = await this.app(`${env.PUBLIC_URL}/api/auth/sign-in/sso`, { method: "POST", body });
    return { status: response.status, body: (await response.json()) as { url?: string; code?: string } };
  }

  /** Follows the provider's redirects until it sends the browser back to Namecard: that address. */
  async atProvider(url: string): Promise<string> {
    let current = url;
    for (let hop = 0; hop < 10; hop++) {
      if (current.startsWith(env.PUBLIC_URL)) return current;
      const cookie = this.cookieFor(current);
      const response = await fetch(current, { redirect: "manual", headers: cookie ? { cookie } : {} });
      this.keep(current, response.headers);
      const location = response.headers.get("location");
      if (!location) throw new Error(`the provider answered ${response.status}: ${await response.text()}`);
      current = new URL(location, current).href;
    }
    throw new Error("the provider kept redirecting");
  }

  /** Namecard's answer to the provider's redirect: where it sends the browser, and whether it is signed in. */
  async callback(url: string) {
    const response = await this.app(url);
    return { status: response.status, location: response.headers.get("location") };
  }

  /** The whole round: start, the provider, the callback. */
  async signIn(body: { providerId?: string; email?: string; callbackURL?: string }) {
    const started = await this.start(body);
    if (!started.body.url) throw new Error(`the sign-in did not start: ${JSON.stringify(started.body)}`);
    const back = await this.atProvider(started.body.url);
    return { ...(await this.callback(back)), callbackUrl: back };
  }

  /** The account this browser is signed in as, or null. */
  async session(): Promise<{ user: { id: string; email: string } } | null> {
    const response = await this.app(`${env.PUBLIC_URL}/api/auth/get-session`);
    return (await response.json()) as { user: { id: string; email: string } } | null;
  }
}
