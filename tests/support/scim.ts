import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import { createConnection } from "~/.server/scim/connections";
import { SCIM_PATH, scimEndpoint } from "../../server/scim-endpoint";

/**
 * A SCIM client for the tests: the real endpoint, mounted on its own HTTP
 * server over a real socket, with a connection made as an administrator would.
 * Requests are the providers' own, read from tests/fixtures/scim.
 */

const FIXTURES = path.join(import.meta.dirname, "../fixtures/scim");

export type ScimFixture = { method: string; path: string; body: unknown; expect: { status: number } };

/** A documented request, its placeholders (`{id}`, `{memberId}`) replaced. */
export function scimFixture(name: string, values: Record<string, string> = {}): ScimFixture {
  let text = fs.readFileSync(path.join(FIXTURES, `${name}.json`), "utf8");
  for (const [key, value] of Object.entries(values)) text = text.replaceAll(`{${key}}`, value);
  return JSON.parse(text) as ScimFixture;
}

const ADMIN = {
  user: { id: "scim-test-admin", email: "admin@example.org", name: "Ada Admin" },
  role: "admin" as const,
};

export type ScimResponse = { status: number; body: Record<string, unknown> | null; headers: Headers };

export async function startScim(name = "Entra ID") {
  const app = express();
  app.use(SCIM_PATH, scimEndpoint);
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${SCIM_PATH}`;
  const { connection, token } = await createConnection(ADMIN, name);

  async function request(
    method: string,
    pathname: string,
    body?: unknown,
    options: { token?: string | null; contentType?: string; raw?: string } = {},
  ): Promise<ScimResponse> {
    const headers: Record<string, string> = {};
    const bearer = options.token === undefined ? token : options.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const payload = options.raw ?? (body === undefined || body === null ? undefined : JSON.stringify(body));
    if (payload !== undefined) headers["content-type"] = options.contentType ?? "application/scim+json";
    // Query strings as the providers' documentation writes them (spaces, quotes) are encoded as a client would.
    const url = new URL(`${base}${pathname.replace(/ /g, "%20").replace(/"/g, "%22")}`);
    const response = await fetch(url, { method, headers, body: payload });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
      headers: response.headers,
    };
  }

  return {
    base,
    token,
    connection,
    request,
    /** Sends a documented request. */
    replay: (fixture: ScimFixture) => request(fixture.method, fixture.path, fixture.body),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type ScimClient = Awaited<ReturnType<typeof startScim>>;
