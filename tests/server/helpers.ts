import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll } from "vitest";
import { CLIENT_IP_HEADER, getAuth } from "~/.server/http/auth";
import { requireViewer, type Viewer } from "~/.server/http/authz";
import { db, getDatabaseHandle } from "~/.server/platform/db/client";
import { brandAdministrators, profiles } from "~/.server/platform/db/schema";
import { OUTBOX_DIR } from "~/.server/platform/mail";
import { type RealtimeEvent, startRealtime, subscribe } from "~/.server/platform/realtime";
import { viewerContext } from "~/middleware/viewer.server";
import { action as editAction } from "~/routes/app/profile-edit";
import { createMember as createSignedInMember, type NewMember } from "../support/members";
import { latestMail as readOutbox } from "../support/outbox";
import { present } from "../support/present";

export { MEMBER_PASSWORD, uniqueEmail } from "../support/members";
export { present } from "../support/present";

export const BASE = "http://localhost:3000";

/**
 * Listens for change events through the test database for the rest of the `describe` it is
 * called in, as a server does once it has started: what is kept in memory is dropped on them.
 */
export function listenForEvents() {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    stop = await startRealtime(getDatabaseHandle());
  });
  afterAll(async () => {
    await stop?.();
  });
}

/**
 * Resolves when the next event of `kind` comes back through the database. Events arrive in the
 * order they were sent, so once it has, no earlier one is still on its way to drop what is kept.
 */
export function eventHeard(kind: RealtimeEvent["kind"]): Promise<void> {
  return new Promise((resolve) => {
    const stop = subscribe((event) => {
      if (event.kind !== kind) return;
      stop();
      resolve();
    });
  });
}

let ipCounter = 0;
/** A distinct client address, so rate limits of one test never touch another. */
export function nextIp() {
  ipCounter++;
  return `10.9.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export function formRequest(
  pathname: string,
  fields: Record<string, string>,
  options: { cookie?: string; ip?: string; acceptLanguage?: string } = {},
) {
  const headers = new Headers({ [CLIENT_IP_HEADER]: options.ip ?? nextIp(), origin: BASE });
  if (options.cookie) headers.set("cookie", options.cookie);
  if (options.acceptLanguage) headers.set("accept-language", options.acceptLanguage);
  return new Request(`${BASE}${pathname}`, { method: "POST", headers, body: new URLSearchParams(fields) });
}

export function getRequest(pathname: string, cookie?: string) {
  return new Request(`${BASE}${pathname}`, { headers: cookie ? { cookie } : {} });
}

type RouteFn = (args: never) => unknown;

/**
 * Runs a loader or action as React Router would, returning what the user gets:
 * a status, the data, and headers (a thrown redirect is a response too).
 */
export async function run(fn: RouteFn, request: Request, params: Record<string, string> = {}, viewer?: Viewer) {
  let result: unknown;
  const context = new RouterContextProvider();
  if (viewer) context.set(viewerContext, viewer);
  try {
    result = await (fn as (args: unknown) => unknown)({ request, params, context });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    return {
      status: result.status,
      data: null as unknown,
      headers: result.headers,
      location: result.headers.get("location"),
      /** A file route's body, as the browser would read it. */
      text: () => result.text(),
    };
  }
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, data, headers: new Headers(init?.headers), location: null };
  }
  if (result instanceof Error) throw result;
  return { status: 200, data: result, headers: new Headers(), location: null };
}

/** Joins `Set-Cookie` headers into the `Cookie` header a browser would send back. */
export function cookieFrom(headers: Headers, previous = ""): string {
  const jar = new Map(
    previous
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => pair.split("=") as [string, string]),
  );
  for (const cookie of headers.getSetCookie()) {
    const pair = cookie.split(";")[0] ?? "";
    const index = pair.indexOf("=");
    const name = pair.slice(0, index);
    const value = pair.slice(index + 1);
    if (value === "" || /max-age=0/i.test(cookie)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The newest message in the `.eml` outbox addressed to `to`. */
export function latestMail(to: string) {
  return readOutbox(OUTBOX_DIR, to);
}

/** Opens a link from a message through better-auth, as a click would. */
export async function openAuthLink(link: string, cookie = "") {
  const response = await getAuth().handler(new Request(link, { headers: cookie ? { cookie } : {} }));
  return {
    status: response.status,
    location: response.headers.get("location"),
    cookie: cookieFrom(response.headers, cookie),
  };
}

/** A confirmed member, made without the mail round trip: their cookie and viewer. */
export async function createMember(fields: NewMember = {}) {
  const member = await createSignedInMember(fields);
  const viewer = await requireViewer(getRequest("/", member.cookie));
  return { ...member, viewer, profile: present(viewer.profile, "the member's card") };
}

/**
 * A multipart request, as a browser sends a form with a file. The body is
 * encoded up front, as a browser's is: a body streamed from a FormData breaks
 * Node 24's fetch when the app stops reading it early (an oversized upload).
 */
export async function multipartRequest(pathname: string, form: FormData, options: { cookie?: string } = {}) {
  const encoded = new Response(form);
  const headers = new Headers({
    [CLIENT_IP_HEADER]: nextIp(),
    origin: BASE,
    "content-type": present(encoded.headers.get("content-type"), "a multipart content type"),
  });
  if (options.cookie) headers.set("cookie", options.cookie);
  return new Request(`${BASE}${pathname}`, { method: "POST", headers, body: await encoded.blob() });
}

/** Makes a member the administrator of `brands`, as an administrator's grant does: their next request's viewer. */
export async function makeBrandAdministrator(member: Awaited<ReturnType<typeof createMember>>, brandIds: number[]) {
  await db.insert(brandAdministrators).values(brandIds.map((brandId) => ({ userId: member.id, brandId })));
  return { ...member, viewer: await requireViewer(getRequest("/", member.cookie)) };
}

/** A card put straight into the database: Zoë Laurent with a fresh address and username unless `values` say otherwise. */
export async function insertCard(values: Partial<typeof profiles.$inferInsert> = {}) {
  const [card] = await db
    .insert(profiles)
    .values({
      email: `${Math.random().toString(36).slice(2)}@example.org`,
      firstName: "Zoë",
      lastName: "Laurent",
      username: `zoe${Math.random().toString(36).slice(2, 8)}`,
      ...values,
    })
    .returning();
  return present(card, "the inserted card");
}

/** A member's own edit form as it opens (their stored names, username, email and version) with `changes`, sent. */
export async function saveOwnCard(member: Awaited<ReturnType<typeof createMember>>, changes: Record<string, string>) {
  const [current] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
  const card = present(current, "the member's card");
  const form = new FormData();
  const values = {
    firstName: card.firstName,
    lastName: card.lastName,
    username: card.username,
    email: card.email,
    companyBrandId: card.companyBrandId === null ? "" : String(card.companyBrandId),
    version: card.updatedAt.toISOString(),
    ...changes,
  };
  for (const [key, value] of Object.entries(values)) form.set(key, value);
  return run(editAction, await multipartRequest("/profile/edit", form, member), {}, member.viewer);
}
