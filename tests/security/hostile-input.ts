/**
 * The hostile-input table: for every route in app/routes.ts, requests an
 * attacker would send, and what the route must answer. Every row must leave
 * the database as it was and log no unhandled error (hostile-input.test.ts);
 * a route without rows fails the test. Rows name their route by its path in
 * app/routes.ts.
 *
 * Also the routes themselves, read from app/routes.ts, and the hostile bodies
 * that the server-process tests send to every route (hostile-bodies.test.ts,
 * oversized-bodies.test.ts).
 */
import path from "node:path";
import type { ServerBuild } from "react-router";
import { FORM_TYPES, MAX_FORM_BYTES } from "~/.server/http/form-data";
import routes from "~/routes";

type RouteEntry = { id?: string; path?: string; index?: boolean; file: string; children?: RouteEntry[] };

/** A route of app/routes.ts: its full path ("" for the index) and module file. */
type RouteInfo = { path: string; file: string };

/** Every route of app/routes.ts with its full path and module file. */
function flatten(entries: RouteEntry[], parent = ""): RouteInfo[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? (parent ? `${parent}/${entry.path}` : entry.path) : parent;
    const children = entry.children ? flatten(entry.children, own) : [];
    // A layout whose index answers its own path is listed once, as that index.
    const hasIndex = entry.children?.some((child) => child.index) ?? false;
    const isPage = (entry.path !== undefined && !hasIndex) || entry.index;
    return [...(isPage ? [{ path: own, file: entry.file }] : []), ...children];
  });
}

const ROUTE_CONFIG = routes as RouteEntry[];
export const ROUTES = flatten(ROUTE_CONFIG);

/**
 * The routes of app/routes.ts as the server build lists them (id, parent,
 * path, module): what server/routes.ts reads the routes' declarations from.
 */
export async function routeBuild(): Promise<ServerBuild> {
  const manifest: Record<string, unknown> = {
    root: { id: "root", path: "", module: await import(path.resolve("app/root.tsx")) },
  };
  const add = async (entries: RouteEntry[], parentId: string) => {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
      const module = await import(path.resolve("app", entry.file));
      manifest[id] = { id, parentId, path: entry.path, index: entry.index, module };
      await add(entry.children ?? [], id);
    }
  };
  await add(ROUTE_CONFIG, "root");
  return { routes: manifest } as unknown as ServerBuild;
}

/** The parameters React Router would give a route of `pattern` for `pathname`. */
export function paramsOf(pattern: string, pathname: string): Record<string, string> {
  const parts = pathname.replace(/^\//, "").split("/");
  const params: Record<string, string> = {};
  pattern.split("/").forEach((name, index) => {
    if (name.startsWith(":")) params[name.slice(1)] = decodeURIComponent(parts[index] ?? "");
    if (name === "*") params["*"] = decodeURIComponent(parts.slice(index).join("/"));
  });
  return params;
}

/** An address a route answers: its parameters filled in (a username, an id, a splat). */
export function addressOf(route: string): string {
  const filled = route
    .split("/")
    .map((part) => {
      if (part === "*") return "x";
      if (part === ":id") return "00000000-0000-4000-8000-000000000000";
      return part.startsWith(":") ? "nobody" : part;
    })
    .join("/");
  return `/${filled}`;
}

type Who = "visitor" | "member" | "admin";

/**
 * Bodies no form sends, each with what it is refused as (`refusedAs`): 400
 * when it cannot be read, 415 when it is not what the route reads. A body is
 * also refused 413 when it is over the route's limit, and 415 when its type is
 * not one the route takes; `expectedStatus` works that out for a route.
 */
export type HostileBody = { name: string; type?: string; text: string; refusedAs: 400 | 415 };

const BOUNDARY = "hostileBoundary7MA4YWxk";
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const part = (headers: string, value: string) => `--${BOUNDARY}\r\n${headers}\r\n\r\n${value}\r\n`;
const named = (name: string, value: string) => part(`Content-Disposition: form-data; name="${name}"`, value);
const CLOSE = `--${BOUNDARY}--\r\n`;

export const HOSTILE_BODIES: HostileBody[] = [
  { name: "multipart with no closing boundary", type: MULTIPART, text: named("intent", "x").trimEnd(), refusedAs: 400 },
  {
    name: "multipart with another boundary than its Content-Type says",
    type: "multipart/form-data; boundary=somethingElse",
    text: named("intent", "x") + CLOSE,
    refusedAs: 400,
  },
  {
    name: "multipart with no boundary at all",
    type: "multipart/form-data",
    text: named("intent", "x") + CLOSE,
    refusedAs: 400,
  },
  {
    name: "a multipart part without a name",
    type: MULTIPART,
    text: part("Content-Disposition: form-data", "x") + CLOSE,
    refusedAs: 400,
  },
  {
    name: "a multipart part without Content-Disposition",
    type: MULTIPART,
    text: part("Content-Type: text/plain", "x") + CLOSE,
    refusedAs: 400,
  },
  { name: "10,000 tiny multipart parts", type: MULTIPART, text: named("p", "").repeat(10_000) + CLOSE, refusedAs: 400 },
  {
    name: "10,000 url-encoded fields",
    type: "application/x-www-form-urlencoded",
    text: "p=&".repeat(10_000),
    refusedAs: 400,
  },
  {
    name: "a 1 MB header line in a multipart part",
    type: MULTIPART,
    text: part(`Content-Disposition: form-data; name="intent"\r\nX-Long: ${"h".repeat(1024 * 1024)}`, "x") + CLOSE,
    refusedAs: 400,
  },
  { name: "JSON cut short", type: "application/json", text: '{"email": "a@example.com", "pass', refusedAs: 400 },
  { name: "XML", type: "application/xml", text: "<form><intent>x</intent></form>", refusedAs: 415 },
  { name: "text/plain", type: "text/plain", text: "intent=x", refusedAs: 415 },
  { name: "no Content-Type", text: "intent=x", refusedAs: 415 },
  {
    name: "a multipart type no form uses",
    type: `multipart/mixed; boundary=${BOUNDARY}`,
    text: named("intent", "x") + CLOSE,
    refusedAs: 415,
  },
];

/** What a route that reads `types` up to `limit` bytes answers `body` with. */
export function expectedStatus(body: HostileBody, action: { limit: number; types: readonly string[] }): number {
  const type = (body.type ?? "").split(";")[0]!.trim().toLowerCase();
  if (Buffer.byteLength(body.text) > action.limit) return 413;
  if (!action.types.includes(type)) return 415;
  // A form's hostile bodies and a JSON route's are refused for what they are; JSON is never a form.
  return body.refusedAs;
}

export type Row = {
  /** The route's path as written in app/routes.ts ("" for the index). */
  route: string;
  who: Who;
  method: "GET" | "POST";
  /** The URL path and query sent (`{card}` is the member's username, `{cardId}` their card's id, `{brand}` a brand id). */
  url: string;
  /** A form body, for POST. */
  form?: Record<string, string>;
  /** A raw body (with its Content-Type, if any) instead of a form, for POST: what no browser sends. */
  body?: HostileBody;
  /** The status the route answers: a 4xx, or (where the input is simply not used) what it answers anyway. */
  status: number;
  /** Why a row expects something other than a 4xx. */
  why?: string;
};

const NUL = "\u0000";
const LONG = "x".repeat(20_000);
const HUGE_ID = "99999999999999999999";
/** A well-formed id of nothing. */
const ZERO_UUID = "00000000-0000-4000-8000-000000000000";
const CONTROL = "line\r\nbreak";
const BIDI = "\u202eevil";
const NAMES = [NUL, LONG, CONTROL, BIDI, "\ufffd"];

const card = (changes: Record<string, string>) => ({
  firstName: "Hos",
  lastName: "Tile",
  username: "{card}",
  email: "{email}",
  title: "",
  phone: "",
  bio: "",
  linkedinUrl: "",
  companyBrandId: "",
  ...changes,
});

const cardPayloads: Record<string, string>[] = [
  ...NAMES.map((value) => card({ firstName: value })),
  ...NAMES.map((value) => card({ lastName: value })),
  card({ title: CONTROL }),
  card({ title: NUL }),
  card({ bio: NUL }),
  card({ bio: LONG }),
  card({ phone: "call me maybe <script>" }),
  card({ linkedinUrl: "javascript:alert(1)" }),
  card({ linkedinUrl: "https://linkedin.com/in/x\nEND:VCARD" }),
  card({ linkedinUrl: "https://user:pass@linkedin.com/in/x" }),
  card({ companyBrandId: HUGE_ID }),
  card({ companyBrandId: "-1" }),
  card({ companyBrandId: "1.5" }),
  card({ username: "../admin" }),
  card({ username: NUL }),
  card({ email: "not-an-email" }),
  card({ email: "a@example.org\r\nBcc: all@example.org" }),
  // The details added with the card fields (docs/decisions/028-card-fields-and-visibility.md), refused alike.
  card({ department: NUL }),
  card({ office: CONTROL }),
  card({ pronouns: LONG }),
  card({ languages: NUL }),
  card({ "links.0.kind": "website", "links.0.url": "javascript:alert(1)" }),
  card({ "links.0.kind": "website", "links.0.url": "https://example.org/x\nEND:VCARD" }),
  card({ "links.0.kind": "website", "links.0.url": "http://plain.example.org/" }),
  card({ "links.0.kind": "no-such-kind", "links.0.url": "https://example.org/" }),
  card({ "visibility.phone": "everyone" }),
];

const filterQueries = [
  `?brand=${HUGE_ID}`,
  "?brand=-1",
  "?brand=abc",
  "?brand=1e3",
  "?page=0",
  "?page=99999999",
  "?page=two",
  "?q=%00",
  "?q=a%0Ab",
];

const usernames = ["%00", "..%2F..%2Fetc%2Fpasswd", LONG.slice(0, 3000), "%3Cscript%3E", "%E2%80%AE"];

const provider = (changes: Record<string, string>) => ({
  intent: "save",
  name: "Acme Login",
  issuer: "http://127.0.0.1:9/",
  clientId: "namecard",
  clientSecret: "secret",
  domains: "acme.example",
  ...changes,
});

/** A SAML provider's form, as the settings page sends it, with `changes`. */
const samlProvider = (changes: Record<string, string>) => ({
  intent: "save",
  protocol: "saml",
  name: "Acme SAML",
  domains: "acme.example",
  ...changes,
});

/** An XML document whose entities expand to a billion characters, for a parser that expands them. */
const BILLION_LAUGHS = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
  { length: 8 },
  (_, n) => `<!ENTITY lol${n + 1} "${`&lol${n || ""};`.repeat(10)}">`,
).join("")}]><EntityDescriptor>&lol8;</EntityDescriptor>`;

const base64 = (text: string) => Buffer.from(text).toString("base64");

export const HOSTILE_INPUT: Row[] = [
  // ── Visitors ──────────────────────────────────────────────────────────────
  ...(<Record<string, string>[]>[
    { intent: "signup", firstName: NUL, lastName: "A", email: "a@example.org", password: "a long password phrase" },
    { intent: "signup", firstName: LONG, lastName: "A", email: "a@example.org", password: "a long password phrase" },
    { intent: "signup", firstName: "A", lastName: CONTROL, email: "a@example.org", password: "a long password phrase" },
    {
      intent: "signup",
      firstName: "A",
      lastName: "B",
      email: "a@example.org\r\nBcc: x@example.org",
      password: "a long password phrase",
    },
    { intent: "signup", firstName: "A", lastName: "B", email: "a@example.org", password: "12345678" },
    { intent: "signup", firstName: "A", lastName: "B", email: "a@example.org", password: `a long${NUL}phrase` },
    {
      intent: "signup",
      firstName: "A",
      lastName: "B",
      email: "a@example.org",
      password: "a long phrase",
      phone: "call me maybe <script>",
    },
    {
      intent: "signup",
      firstName: "A",
      lastName: "B",
      email: "a@example.org",
      password: "a long phrase",
      website_url: "bot",
    },
    { intent: "signin", email: NUL, password: "x" },
    { intent: "signin", email: "a@example.org", password: LONG },
    { intent: "hack" },
    { intent: "resend", email: `a@example.org${NUL}` },
    { intent: "sso", providerId: NUL },
    { intent: "sso", providerId: HUGE_ID },
    { intent: "sso", providerId: "00000000-0000-4000-8000-000000000000" },
    { intent: "sso" },
    {},
  ]).map((form): Row => ({ route: "auth", who: "visitor", method: "POST", url: "/auth", form, status: 400 })),
  ...["", "?email=%00"].map(
    (query): Row => ({
      route: "auth/forgot-password",
      who: "visitor",
      method: "POST",
      url: `/auth/forgot-password${query}`,
      form: { email: query ? "x" : `a@example.org\r\nBcc: x@example.org` },
      status: 400,
    }),
  ),
  ...[
    { token: NUL, password: "a long password phrase", confirmPassword: "a long password phrase" },
    { token: "../../etc/passwd", password: "a long password phrase", confirmPassword: "a long password phrase" },
    { token: "abcdefghijklmnopqrstuvwx", password: "password", confirmPassword: "password" },
    { token: "abcdefghijklmnopqrstuvwx", password: LONG, confirmPassword: LONG },
  ].map(
    (form): Row => ({
      route: "auth/reset-password",
      who: "visitor",
      method: "POST",
      url: "/auth/reset-password",
      form,
      status: 400,
    }),
  ),
  {
    route: "auth/reset-password",
    who: "visitor",
    method: "GET",
    url: "/auth/reset-password?token=%00",
    status: 200,
    why: "shows 'this link is invalid' and changes nothing",
  },
  ...[
    { token: NUL, firstName: "A", lastName: "B", password: "a long password phrase" },
    { token: "a".repeat(43), firstName: NUL, lastName: "B", password: "a long password phrase" },
    { token: "a".repeat(43), firstName: "A", lastName: "B", password: "a long password phrase" },
    { token: "a".repeat(43), firstName: "A", lastName: "B", password: "aaaaaaaa" },
  ].map(
    (form): Row => ({ route: "auth/confirm", who: "visitor", method: "POST", url: "/auth/confirm", form, status: 400 }),
  ),
  {
    route: "auth/confirm",
    who: "visitor",
    method: "GET",
    url: `/auth/confirm?token=${"%00".repeat(5)}`,
    status: 200,
    why: "shows 'this link did not work' and changes nothing",
  },
  // Invitations: a link's page and its form.
  ...[
    { token: NUL, password: "a long password phrase" },
    { token: "a".repeat(43), password: "a long password phrase" },
    { token: "a".repeat(43), password: "aaaaaaaa" },
    { token: "a".repeat(43), password: LONG },
    { token: "a".repeat(43) } as Record<string, string>,
    { token: "a".repeat(43), password: "" },
  ].map(
    (form): Row => ({
      route: "auth/invitation",
      who: "visitor",
      method: "POST",
      url: "/auth/invitation",
      form,
      status: 400,
    }),
  ),
  ...[`?token=${"%00".repeat(5)}`, `?token=${LONG.slice(0, 3000)}`, "?token=%E2%80%AE"].map(
    (query): Row => ({
      route: "auth/invitation",
      who: "visitor",
      method: "GET",
      url: `/auth/invitation${query}`,
      status: 200,
      why: "shows 'this link did not work' and changes nothing",
    }),
  ),
  // A provider's sign-in into an administrator's account, held for their password: only the browser that holds it confirms.
  ...[`?state=${"%00".repeat(5)}`, `?state=${LONG.slice(0, 3000)}`, "?state=%E2%80%AE", ""].map(
    (query): Row => ({
      route: "auth/confirm-admin",
      who: "visitor",
      method: "GET",
      url: `/auth/confirm-admin${query}`,
      status: 200,
      why: "shows 'this sign-in was started too long ago' and changes nothing",
    }),
  ),
  ...(<Record<string, string>[]>[
    { state: NUL, password: "a password" },
    { state: LONG, password: "a password" },
    { state: "a".repeat(43), password: "" },
    { state: "a".repeat(43), password: LONG },
    { state: "a".repeat(43), password: "a password" },
    {},
  ]).map(
    (form): Row => ({
      route: "auth/confirm-admin",
      who: "visitor",
      method: "POST",
      url: "/auth/confirm-admin",
      form,
      status: 400,
    }),
  ),
  // The second step of a password sign-in: without the password before it there is nothing to finish.
  {
    route: "auth/two-factor",
    who: "visitor",
    method: "GET",
    url: "/auth/two-factor?redirectTo=%00",
    status: 302,
    why: "no password sign-in is waiting for its code: back to /auth",
  },
  ...(<Record<string, string>[]>[
    { intent: NUL, code: "123456" },
    { intent: "code", code: LONG },
    { intent: "code", code: "" },
    { intent: "code", code: "123456" },
    { intent: "recovery", code: "abcde-fghij", redirectTo: "//evil.example" },
    {},
  ]).map(
    (form): Row => ({
      route: "auth/two-factor",
      who: "visitor",
      method: "POST",
      url: "/auth/two-factor",
      form,
      status: 400,
    }),
  ),
  {
    route: "auth/two-factor-setup",
    who: "visitor",
    method: "GET",
    url: "/auth/two-factor-setup?redirectTo=%00",
    status: 302,
    why: "no session owes a second factor: back to /auth",
  },
  {
    route: "auth/two-factor-setup",
    who: "member",
    method: "POST",
    url: "/auth/two-factor-setup",
    form: { intent: "app-begin", password: NUL },
    status: 302,
    why: "a member whose sign-in owes nothing is sent home before the form is read",
  },
  // Stopping invitations: only a genuine key for a card stops anything; every other link is not found.
  ...[
    `?card=${"%00".repeat(5)}&key=x`,
    `?card=00000000-0000-4000-8000-000000000000&key=${LONG.slice(0, 3000)}`,
    "?card=%E2%80%AE&key=%E2%80%AE",
    "?key=only",
  ].flatMap((query): Row[] => [
    {
      route: "invitations/stop",
      who: "visitor",
      method: "GET",
      url: `/invitations/stop${query}`,
      status: 404,
      why: "shows 'this link did not work' and changes nothing",
    },
    {
      route: "invitations/stop",
      who: "visitor",
      method: "POST",
      url: `/invitations/stop${query}`,
      form: { "List-Unsubscribe": "One-Click" },
      status: 404,
      why: "stops nothing",
    },
  ]),
  ...["/%09/evil.example", "//evil.example", "https://evil.example", "/%5Cevil.example"].map(
    (target): Row => ({
      route: "auth/verified",
      who: "visitor",
      method: "GET",
      url: `/auth/verified?redirectTo=${encodeURIComponent(target)}`,
      status: 302,
      why: "redirects to / on this site (redirects.test.ts checks the Location)",
    }),
  ),
  {
    route: "theme",
    who: "visitor",
    method: "GET",
    url: "/theme?theme=%00",
    status: 302,
    why: "a GET chooses nothing: it goes to /",
  },
  ...[
    { theme: NUL, back: "/directory" },
    { theme: LONG, back: LONG },
    { theme: "dark", back: `/\t/evil.example${NUL}` },
  ].map(
    (form): Row => ({
      route: "theme",
      who: "visitor",
      method: "POST",
      url: "/theme",
      form,
      status: 303,
      why: "an unknown theme sets nothing, and the way back is a path of this site or / (theme.test.ts)",
    }),
  ),
  {
    route: "auth/sign-out",
    who: "visitor",
    method: "GET",
    url: "/auth/sign-out?next=%00",
    status: 302,
    why: "a GET never signs out: it goes to /",
  },
  {
    route: "auth/sign-out",
    who: "visitor",
    method: "POST",
    url: "/auth/sign-out",
    form: { x: NUL },
    status: 302,
    why: "signing out ignores the body and always ends at /auth",
  },
  ...[
    [
      "/api/auth/sign-up/email",
      { firstName: LONG, lastName: "A", email: "a@example.org", password: "a long phrase" },
      400,
    ],
    [
      "/api/auth/sign-up/email",
      {
        firstName: "A",
        lastName: "B",
        email: "a@example.org",
        password: "a long phrase",
        phone: "call me maybe <script>",
      },
      400,
    ],
    ["/api/auth/update-user", { name: LONG, image: "https://tracker.example/p.png" }, 404],
    ["/api/auth/sign-in/email", { email: NUL, password: "x" }, 400],
  ].map(
    ([url, form, status]): Row => ({
      route: "api/auth/*",
      who: "member",
      method: "POST",
      url: url as string,
      form: form as Record<string, string>,
      status: status as number,
    }),
  ),
  ...usernames.flatMap((name): Row[] => [
    { route: "profile/:username", who: "visitor", method: "GET", url: `/profile/${name}`, status: 404 },
    {
      route: "profile/:username/contact.vcf",
      who: "visitor",
      method: "GET",
      url: `/profile/${name}/contact.vcf`,
      status: 404,
    },
    { route: "profile/:username/qr.png", who: "visitor", method: "GET", url: `/profile/${name}/qr.png`, status: 404 },
    {
      route: "profile/:username/og.png",
      who: "visitor",
      method: "GET",
      url: `/profile/${name}/og.png?v=%00`,
      status: 404,
    },
    { route: "qr/:username", who: "visitor", method: "GET", url: `/qr/${name}`, status: 404 },
  ]),
  ...["../../etc/passwd", "..%2F..%2Fauth-secret", "profiles/%00.webp", "brands/x.webp%00.png"].map(
    (key): Row => ({
      route: "uploads/*",
      who: "visitor",
      method: "GET",
      url: `/uploads/${key}`,
      status: 404,
    }),
  ),
  { route: "*", who: "visitor", method: "GET", url: "/no-such-page/%00?x=%00", status: 404 },
  { route: "*", who: "member", method: "POST", url: "/no-such-page", form: { x: NUL }, status: 404 },
  {
    route: "favicon.ico",
    who: "visitor",
    method: "GET",
    url: "/favicon.ico?x=%00",
    status: 302,
    why: "the icon takes no input",
  },
  { route: "events", who: "visitor", method: "GET", url: "/events?x=%00", status: 401 },
  {
    route: "sw.js",
    who: "visitor",
    method: "GET",
    url: "/sw.js?card=%00&x=%00",
    status: 200,
    why: "the worker script is the same for everyone; the card it keeps is read in the browser",
  },
  // A brand's logo for e-mail signatures: anything but a brand's number with a logo is not found.
  ...["%00", "-1", HUGE_ID, "1e3", "abc", "0"].map(
    (id): Row => ({
      route: "brands/:id/logo.png",
      who: "visitor",
      method: "GET",
      url: `/brands/${id}/logo.png`,
      status: 404,
    }),
  ),
  // The wallet link: not set up in these runs, so not found whatever the query says.
  { route: "share/google-wallet", who: "member", method: "GET", url: "/share/google-wallet?x=%00", status: 404 },
  {
    route: "share/apple-wallet.pkpass",
    who: "member",
    method: "GET",
    url: "/share/apple-wallet.pkpass?x=%00",
    status: 404,
  },
  {
    route: "admin/settings/wallet",
    who: "admin",
    method: "GET",
    url: "/admin/settings/wallet?x=%00",
    status: 200,
    why: "the wallet screen takes no query",
  },
  // The issuer and the service account's key: each mistake said on the form, nothing stored.
  ...(<Record<string, string>[]>[
    { intent: "save-google", issuerId: NUL, serviceAccount: "" },
    { intent: "save-google", issuerId: LONG, serviceAccount: LONG },
    { intent: "save-google", issuerId: "123456789", serviceAccount: NUL },
    { intent: "save-google", issuerId: "123456789", serviceAccount: '{"type":"service_account"}' },
    {
      intent: "save-google",
      issuerId: "123456789",
      serviceAccount: JSON.stringify({
        type: "service_account",
        client_email: "a@b.example",
        private_key_id: "k",
        private_key: `-----BEGIN PRIVATE KEY-----\n${"A".repeat(200)}\n-----END PRIVATE KEY-----`,
      }),
    },
    { intent: "save-google" },
    { intent: "nope" },
    // Apple's pass type and team: each mistake said, nothing stored (the certificates are files, tested apart).
    { intent: "save-apple", passTypeId: NUL, teamId: NUL },
    { intent: "save-apple", passTypeId: LONG, teamId: LONG, password: LONG },
    { intent: "save-apple", passTypeId: "pass.com.example.card", teamId: "ABCDE12345", p12: "not a file" },
    { intent: "save-apple" },
  ]).map(
    (form): Row => ({
      route: "admin/settings/wallet",
      who: "admin",
      method: "POST",
      url: "/admin/settings/wallet",
      form,
      status: 400,
    }),
  ),
  // Share my card and its files: the member's own card only, whatever the query says.
  ...(<[string, string][]>[
    ["share", "/share?x=%00&username=someone-else"],
    ["share/signature.html", `/share/signature.html?download=%00&username=${LONG.slice(0, 200)}`],
    ["share/background-1920.png", "/share/background-1920.png?x=%00"],
    ["share/background-1280.png", "/share/background-1280.png?download=%00"],
  ]).map(
    ([route, url]): Row => ({
      route,
      who: "member",
      method: "GET",
      url,
      status: 200,
      why: "the member's own card is shared; the query names nothing",
    }),
  ),

  {
    route: "terms",
    who: "visitor",
    method: "GET",
    url: "/terms?x=%00",
    status: 404,
    why: "no terms are published in a fresh install",
  },
  {
    route: "privacy",
    who: "visitor",
    method: "GET",
    url: "/privacy?x=%00",
    status: 200,
    why: "the page always says what becomes of details shared from a card; it takes no query",
  },

  // The card on a phone's home screen: its manifest and icons, for an active card only.
  ...[
    "profile/:username/manifest.webmanifest",
    "profile/:username/icon-180.png",
    "profile/:username/icon-192.png",
    "profile/:username/icon-512.png",
  ].flatMap((route): Row[] => [
    ...["%00", LONG.slice(0, 300), "nobody.here"].map(
      (username): Row => ({
        route,
        who: "visitor",
        method: "GET",
        url: `/${route.replace(":username", username)}`,
        status: 404,
      }),
    ),
    {
      route,
      who: "visitor",
      method: "GET",
      url: `/${route.replace(":username", "{card}")}?x=%00`,
      status: 200,
      why: "the card's manifest and icons take no query",
    },
  ]),

  // Sharing back from a card: a visitor's every mistake is said on the form, and nothing is stored or sent.
  {
    route: "profile/:username/share-back",
    who: "visitor",
    method: "GET",
    url: "/profile/{card}/share-back?src=%00",
    status: 200,
    why: "an unknown source is the card's page",
  },
  ...["%00", LONG.slice(0, 300), "..%2Fadmin", "nobody.here"].map(
    (username): Row => ({
      route: "profile/:username/share-back",
      who: "visitor",
      method: "GET",
      url: `/profile/${username}/share-back`,
      status: 404,
    }),
  ),
  ...(<Record<string, string>[]>[
    ...NAMES.map((name) => ({ name, email: "visitor@example.org", consent: "yes" })),
    { name: "Vis Itor", email: "a@example.org\r\nBcc: all@example.org", consent: "yes" },
    { name: "Vis Itor", email: "a@example.org\nSubject: hi", consent: "yes" },
    { name: "Vis Itor", email: "", phone: "", consent: "yes" },
    { name: "Vis Itor", phone: "call me maybe <script>", consent: "yes" },
    { name: "Vis Itor", email: "visitor@example.org" },
    { name: "Vis Itor", email: "visitor@example.org", consent: "on" },
    { name: "Vis Itor", email: "visitor@example.org", consent: "yes", company: LONG },
    { name: "Vis Itor", email: "visitor@example.org", consent: "yes", title: CONTROL },
    { name: "Vis Itor", email: "visitor@example.org", consent: "yes", message: LONG },
    { name: "Vis Itor", email: "visitor@example.org", consent: "yes", message: NUL },
    { name: "Vis Itor", phone: "+1 555 0100", consent: "yes", wantsCard: "yes" },
    { name: "Vis Itor", email: "visitor@example.org", consent: "yes", wantsCard: NUL },
  ]).map(
    (form): Row => ({
      route: "profile/:username/share-back",
      who: "visitor",
      method: "POST",
      url: "/profile/{card}/share-back",
      form,
      status: 400,
    }),
  ),
  ...HOSTILE_BODIES.filter((body) => Buffer.byteLength(body.text) <= MAX_FORM_BYTES).map(
    (body): Row => ({
      route: "profile/:username/share-back",
      who: "visitor",
      method: "POST",
      url: "/profile/{card}/share-back",
      body,
      status: expectedStatus(body, { limit: MAX_FORM_BYTES, types: FORM_TYPES }),
    }),
  ),

  // The member's leads: their own card's only; another card's are not found, whatever the query names.
  ...["?q=%00", "?q=a%0Ab", "?q=%1B"].flatMap((query) =>
    ["leads", "leads/export.csv", "leads/export.vcf"].map(
      (route): Row => ({ route, who: "member", method: "GET", url: `/${route}${query}`, status: 400 }),
    ),
  ),
  ...["?page=-1", "?page=%00", "?page=1e3"].map(
    (query): Row => ({ route: "leads", who: "member", method: "GET", url: `/leads${query}`, status: 400 }),
  ),
  ...["?card=%00", "?card=admin.person", `?card=${LONG.slice(0, 300)}`].flatMap((query) =>
    ["leads", "leads/export.csv", "leads/export.vcf"].map(
      (route): Row => ({ route, who: "member", method: "GET", url: `/${route}${query}`, status: 404 }),
    ),
  ),
  ...(<[Record<string, string>, number][]>[
    [{ intent: "note", leadId: NUL, note: "x" }, 400],
    [{ intent: "note", leadId: "not-a-uuid", note: "x" }, 400],
    [{ intent: "note", leadId: ZERO_UUID, note: LONG }, 400],
    [{ intent: "note", leadId: ZERO_UUID, note: NUL }, 400],
    [{ intent: "note", leadId: ZERO_UUID, note: "x" }, 404],
    [{ intent: "delete", leadId: ZERO_UUID }, 404],
    [{ intent: NUL, leadId: ZERO_UUID }, 400],
    [{}, 400],
  ]).map(([form, status]): Row => ({ route: "leads", who: "member", method: "POST", url: "/leads", form, status })),

  // Bodies no form sends, to every action that reads a form (import/:id is covered over HTTP, hostile-bodies.test.ts).
  ...(
    [
      ["theme", "visitor"],
      ["auth", "visitor"],
      ["auth/forgot-password", "visitor"],
      ["auth/reset-password", "visitor"],
      ["auth/confirm", "visitor"],
      ["auth/invitation", "visitor"],
      ["auth/confirm-admin", "visitor"],
      ["invitations/stop", "visitor"],
      ["account/card-email", "member"],
      ["profile/edit", "member"],
      ["admin/profiles", "admin"],
      ["admin/profiles/create", "admin"],
      ["admin/brands", "admin"],
      ["admin/settings/general", "admin"],
      ["admin/settings/branding", "admin"],
      ["admin/settings/legal", "admin"],
      ["admin/settings/invitations", "admin"],
      ["admin/settings/joining", "admin"],
      ["admin/settings/fields", "admin"],
      ["admin/settings/single-sign-on", "admin"],
      ["admin/settings/provisioning", "admin"],
      ["admin/settings/wallet", "admin"],
      ["admin/settings/security", "admin"],
      ["admin/import", "admin"],
      ["leads", "member"],
      ["auth/two-factor", "visitor"],
      ["account/security", "member"],
      ["account/security/passkeys", "member"],
    ] as const
  ).flatMap(([route, who]) =>
    HOSTILE_BODIES.filter((body) => Buffer.byteLength(body.text) <= MAX_FORM_BYTES).map(
      (body): Row => ({
        route,
        who,
        method: "POST",
        url: `/${route}`,
        body,
        status: expectedStatus(body, { limit: MAX_FORM_BYTES, types: FORM_TYPES }),
      }),
    ),
  ),

  // ── Members ───────────────────────────────────────────────────────────────
  ...filterQueries.map(
    (query): Row => ({ route: "directory", who: "member", method: "GET", url: `/directory${query}`, status: 400 }),
  ),
  ...cardPayloads.map(
    (form): Row => ({ route: "profile/edit", who: "member", method: "POST", url: "/profile/edit", form, status: 400 }),
  ),
  { route: "help", who: "member", method: "GET", url: "/help?x=%00", status: 200, why: "the page takes no input" },
  ...[`?token=${"%00".repeat(30)}`, `?token=${"a".repeat(43)}`].map(
    (query): Row => ({
      route: "account/card-email",
      who: "member",
      method: "GET",
      url: `/account/card-email${query}`,
      status: 200,
      why: "shows 'this link is invalid' and changes nothing",
    }),
  ),
  ...(<Record<string, string>[]>[{ token: NUL }, { token: "a".repeat(43) }, {}]).map(
    (form): Row => ({
      route: "account/card-email",
      who: "member",
      method: "POST",
      url: "/account/card-email",
      form,
      status: "token" in form ? 404 : 400,
    }),
  ),

  // The account's second factors: each refusal says why and keeps nothing.
  {
    route: "account/security",
    who: "member",
    method: "GET",
    url: "/account/security?x=%00",
    status: 200,
    why: "the page takes no input",
  },
  ...(<Record<string, string>[]>[
    { intent: NUL },
    {},
    { intent: "app-begin", password: "" },
    { intent: "app-begin", password: "not the password" },
    { intent: "app-begin", password: NUL },
    { intent: "app-confirm", uri: "javascript:alert(1)", recoveryCodes: "", code: "123456" },
    { intent: "app-confirm", uri: "otpauth://totp/x?secret=AAAA", recoveryCodes: LONG, code: "123456" },
    { intent: "app-confirm", uri: "otpauth://totp/x?secret=AAAA", recoveryCodes: "", code: NUL },
    { intent: "app-confirm", uri: "otpauth://totp/x?secret=AAAA", recoveryCodes: "", code: "123456" },
    { intent: "app-off", password: "not the password" },
    { intent: "codes-new", password: "not the password" },
    { intent: "passkey-remove", id: NUL },
    { intent: "passkey-remove", id: LONG },
    { intent: "passkey-remove", id: "no-such-passkey" },
  ]).map(
    (form): Row => ({
      route: "account/security",
      who: "member",
      method: "POST",
      url: "/account/security",
      form,
      status: form.id === "no-such-passkey" ? 404 : 400,
    }),
  ),
  ...(<Record<string, string>[]>[
    { intent: NUL },
    {},
    { intent: "passkey-add", response: LONG },
    { intent: "passkey-add", response: "not json" },
    { intent: "passkey-add", response: "{}" },
    { intent: "passkey-add", response: '{"id":"x"}', name: LONG },
  ]).map(
    (form): Row => ({
      route: "account/security/passkeys",
      who: "member",
      method: "POST",
      url: "/account/security/passkeys",
      form,
      status: 400,
    }),
  ),

  // ── Administrators ────────────────────────────────────────────────────────
  ...filterQueries.map((query): Row => ({ route: "", who: "admin", method: "GET", url: `/${query}`, status: 400 })),
  ...filterQueries.map(
    (query): Row => ({
      route: "admin/dashboard",
      who: "admin",
      method: "GET",
      url: `/admin/dashboard${query}`,
      status: 400,
    }),
  ),
  ...filterQueries.map(
    (query): Row => ({
      route: "admin/profiles",
      who: "admin",
      method: "GET",
      url: `/admin/profiles${query}`,
      status: 400,
    }),
  ),
  ...[
    ...cardPayloads.map((form) => ({ intent: "update", id: "{cardId}", ...form })),
    { intent: "update", id: NUL, ...card({}) },
    { intent: "update", id: "not-a-uuid", ...card({}) },
    { intent: "delete", id: HUGE_ID },
    { intent: NUL },
    { intent: "invite", id: NUL },
    { intent: "invite", id: HUGE_ID },
    { intent: "invite-selected", ids: "not-a-uuid" },
    { intent: "invite-selected" } as Record<string, string>,
    // Deactivation and reactivation name their card like the rest.
    { intent: "deactivate", id: NUL },
    { intent: "deactivate", id: "not-a-uuid" },
    { intent: "reactivate", id: HUGE_ID },
    // Giving and taking the administrator role name their card like the rest.
    { intent: "make-admin", id: NUL },
    { intent: "make-admin", id: "not-a-uuid" },
    { intent: "remove-admin", id: HUGE_ID },
    { intent: "make-admin" } as Record<string, string>,
    // Releasing an old username names its card and the name like the rest.
    { intent: "release-username", id: NUL, username: "old.name" },
    { intent: "release-username", id: "{cardId}", username: NUL },
    { intent: "release-username", id: "{cardId}", username: LONG },
    { intent: "release-username", id: "{cardId}" } as Record<string, string>,
    // Moving the chosen people and naming who runs a brand name their cards and brands like the rest.
    { intent: "set-brand", ids: "not-a-uuid", brandId: "1" },
    { intent: "set-brand", ids: "{cardId}", brandId: NUL },
    { intent: "set-brand", ids: "{cardId}", brandId: HUGE_ID },
    { intent: "brand-administration", id: NUL, brandIds: "1" },
    { intent: "brand-administration", id: "{cardId}", brandIds: "x" },
    // A test of the invitation names the brand it is seen as like the rest.
    { intent: "test-invitation", brand: NUL },
    { intent: "test-invitation", brand: "-1" },
    { intent: "test-invitation", brand: LONG },
  ].map(
    (form): Row => ({
      route: "admin/profiles",
      who: "admin",
      method: "POST",
      url: "/admin/profiles",
      form,
      status: 400,
    }),
  ),
  ...cardPayloads
    .filter((form) => form.username === "{card}" && form.email === "{email}")
    .map((form) => ({ ...form, username: "", email: "new.card@example.org" }))
    .map(
      (form): Row => ({
        route: "admin/profiles/create",
        who: "admin",
        method: "POST",
        url: "/admin/profiles/create",
        form,
        status: 400,
      }),
    ),
  ...(<Record<string, string>[]>[
    { intent: "create", name: NUL, primaryColor: "#3b82f6", secondaryColor: "#8b5cf6" },
    { intent: "create", name: LONG, primaryColor: "#3b82f6", secondaryColor: "#8b5cf6" },
    { intent: "create", name: CONTROL, primaryColor: "#3b82f6", secondaryColor: "#8b5cf6" },
    { intent: "create", name: "B", primaryColor: "red; background:url(x)", secondaryColor: "#8b5cf6" },
    { intent: "create", name: "B", primaryColor: "#3b82f6", secondaryColor: "#8b5cf6", website: "javascript:alert(1)" },
    { intent: "update", id: HUGE_ID, name: "B", primaryColor: "#3b82f6", secondaryColor: "#8b5cf6" },
    { intent: "update", id: "-1", name: "B", primaryColor: "#3b82f6", secondaryColor: "#8b5cf6" },
    { intent: "delete", id: NUL },
    { intent: "nope" },
    // A brand's template: each value checked as the card's own form checks it, before any brand is read.
    { intent: "template", id: HUGE_ID },
    { intent: "template", id: "1", "template.department.visibility": "private" },
    { intent: "template", id: "1", "template.phone.value": NUL },
    { intent: "template", id: "1", "template.office.value": LONG },
    { intent: "template", id: "1", "template.links.value": "javascript:alert(1)" },
    { intent: "appoint", id: HUGE_ID, person: "someone" },
    { intent: "dismiss", id: "1", person: NUL },
    { intent: "appoint", id: "1" },
  ]).map(
    (form): Row => ({ route: "admin/brands", who: "admin", method: "POST", url: "/admin/brands", form, status: 400 }),
  ),
  {
    route: "admin/settings/single-sign-on",
    who: "admin",
    method: "GET",
    url: "/admin/settings/single-sign-on?edit=%00",
    status: 200,
    why: "a provider to edit that does not exist leaves the form empty, to add one",
  },
  ...["?tested=%00", `?tested=${LONG.slice(0, 3000)}`, "?tested=failed"].map(
    (query): Row => ({
      route: "admin/settings/single-sign-on",
      who: "admin",
      method: "GET",
      url: `/admin/settings/single-sign-on${query}`,
      status: 200,
      why: "a test's answer that is not kept for this administrator says so, and shows nothing else",
    }),
  ),
  // Each refused before the provider is asked anything: its address is never fetched.
  ...(<Record<string, string>[]>[
    provider({ name: NUL }),
    provider({ name: LONG }),
    provider({ name: CONTROL }),
    provider({ name: "" }),
    provider({ issuer: "javascript:alert(1)" }),
    provider({ issuer: "http://idp.example.com" }),
    provider({ issuer: "https://user:password@idp.example.com" }),
    provider({ issuer: "https://idp.example.com/?next=evil" }),
    provider({ issuer: "file:///etc/passwd" }),
    provider({ issuer: LONG }),
    provider({ clientId: CONTROL }),
    provider({ clientId: "" }),
    provider({ clientSecret: NUL }),
    provider({ clientSecret: "" }),
    provider({ clientSecret: LONG }),
    provider({ domains: "" }),
    provider({ domains: "not a domain!" }),
    provider({ domains: `acme.example${NUL}` }),
    provider({ domains: Array.from({ length: 51 }, (_, n) => `d${n}.example`).join("\n") }),
    provider({ requireSso: "yes" }),
    provider({ refreshCard: "1" }),
    provider({ id: "-1" }),
    provider({ id: HUGE_ID }),
    provider({ id: "00000000-0000-4000-8000-000000000000" }),
    { intent: "delete", id: NUL },
    { intent: "delete", id: HUGE_ID },
    { intent: "delete" },
    { intent: "test", id: NUL },
    { intent: "test", id: HUGE_ID },
    { intent: "test" },
    { intent: "recheck", id: NUL },
    { intent: "recheck", id: HUGE_ID },
    { intent: "recheck" },
    { intent: "nope" },
  ]).map(
    (form): Row => ({
      route: "admin/settings/single-sign-on",
      who: "admin",
      method: "POST",
      url: "/admin/settings/single-sign-on",
      form,
      status: form.id === "00000000-0000-4000-8000-000000000000" ? 404 : 400,
    }),
  ),
  {
    route: "admin/settings/provisioning",
    who: "admin",
    method: "GET",
    url: "/admin/settings/provisioning?x=%00",
    status: 200,
    why: "the provisioning screen takes no query",
  },
  // A connection's name, a revocation and a group's brand: each mistake said, nothing made or changed.
  ...(<Record<string, string>[]>[
    { intent: "create", name: NUL },
    { intent: "create", name: LONG },
    { intent: "create", name: CONTROL },
    { intent: "create", name: "" },
    { intent: "create" },
    { intent: "revoke", id: NUL },
    { intent: "revoke", id: HUGE_ID },
    { intent: "revoke", id: "-1" },
    { intent: "revoke", id: "00000000-0000-4000-8000-000000000000" },
    { intent: "map", groupId: NUL, brandId: "" },
    { intent: "map", groupId: "00000000-0000-4000-8000-000000000000", brandId: "abc" },
    { intent: "map", groupId: "00000000-0000-4000-8000-000000000000", brandId: HUGE_ID },
    { intent: "map", groupId: "00000000-0000-4000-8000-000000000000", brandId: "" },
    { intent: "nope" },
  ]).map(
    (form): Row => ({
      route: "admin/settings/provisioning",
      who: "admin",
      method: "POST",
      url: "/admin/settings/provisioning",
      form,
      // A well-formed id of nothing is not found; anything else is refused.
      status: [form.id, form.groupId].includes(ZERO_UUID) && (form.intent !== "map" || form.brandId === "") ? 404 : 400,
    }),
  ),
  // SAML providers, connected by metadata or by hand: each mistake said on the form.
  ...(<Record<string, string>[]>[
    samlProvider({ metadata: NUL }),
    samlProvider({ metadata: "<EntityDescriptor" }),
    samlProvider({ metadata: BILLION_LAUGHS }),
    samlProvider({ metadata: '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' }),
    samlProvider({ entityId: CONTROL, ssoUrl: "https://idp.example.com/sso", certificate: "MIIB" }),
    samlProvider({ entityId: "https://idp.example.com", ssoUrl: "javascript:alert(1)", certificate: "MIIB" }),
    samlProvider({ entityId: "https://idp.example.com", ssoUrl: "http://idp.example.com/sso", certificate: "MIIB" }),
    samlProvider({ entityId: "https://idp.example.com", ssoUrl: "https://idp.example.com/sso", certificate: NUL }),
    samlProvider({ entityId: "https://idp.example.com", ssoUrl: "https://idp.example.com/sso", certificate: "%%%" }),
    samlProvider({ entityId: "https://idp.example.com", ssoUrl: "https://idp.example.com/sso" }),
    samlProvider({ idpInitiated: "yes" }),
    samlProvider({ protocol: "ldap" }),
  ]).map(
    (form): Row => ({
      route: "admin/settings/single-sign-on",
      who: "admin",
      method: "POST",
      url: "/admin/settings/single-sign-on",
      form,
      status: 400,
    }),
  ),
  {
    route: "sso/saml/metadata",
    who: "visitor",
    method: "GET",
    url: "/sso/saml/metadata?x=%00",
    status: 200,
    why: "Namecard's metadata takes no input",
  },
  // Anything posted where SAML providers answer is refused, and the browser sent to /auth with a message.
  ...(<Record<string, string>[]>[
    {},
    { SAMLResponse: NUL },
    { SAMLResponse: CONTROL },
    { SAMLResponse: LONG },
    { SAMLResponse: "%%%" },
    { SAMLResponse: base64("<x/>") },
    { SAMLResponse: base64(BILLION_LAUGHS) },
    {
      SAMLResponse: base64(
        '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"><saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">https://idp.example.com</saml:Issuer></samlp:Response>',
      ),
    },
  ]).map(
    (form): Row => ({
      route: "sso/saml/acs",
      who: "visitor",
      method: "POST",
      url: "/sso/saml/acs",
      form,
      status: 303,
      why: "a refused answer sends the browser to /auth, which says the sign-in failed",
    }),
  ),
  {
    route: "admin/analytics",
    who: "admin",
    method: "GET",
    url: "/admin/analytics?x=%00",
    status: 200,
    why: "the page takes no input",
  },
  {
    route: "admin/settings",
    who: "admin",
    method: "GET",
    url: "/admin/settings?tab=%00",
    status: 302,
    why: "an unknown tab opens the first one",
  },
  {
    route: "admin/settings/security",
    who: "admin",
    method: "GET",
    url: "/admin/settings/security?x=%00",
    status: 200,
    why: "the page takes no input",
  },
  ...[{ secondFactorRule: "sometimes" }, { secondFactorRule: NUL }, { secondFactorRule: LONG }].map(
    (form): Row => ({
      route: "admin/settings/security",
      who: "admin",
      method: "POST",
      url: "/admin/settings/security",
      form,
      status: 400,
    }),
  ),
  // Each settings tab's form, posted to that tab.
  ...(<[string, Record<string, string>][]>[
    ["general", { companyName: NUL }],
    ["general", { companyName: CONTROL }],
    ["general", { companyName: LONG }],
    ["general", { website: "javascript:alert(1)" }],
    ["general", { email: "x@example.org\r\nBcc: y@example.org" }],
    ["branding", { primaryColor: "red" }],
    ["branding", { fontFamily: "Comic Sans" }],
    ["branding", { favicon: "https://tracker.example/favicon.ico" }],
    ["branding", { primaryLogo: "//tracker.example/logo.png" }],
    ["branding", { footerLogo: "/uploads/brands/0123456789abcdef0123456789abcdef-logo.webp" }],
    ["branding", { darkModeLogo: "data:image/svg+xml,<svg onload=alert(1)>" }],
    ["legal", { termsOfService: `Terms${NUL}` }],
    ["legal", { privacyPolicy: "x".repeat(100_001) }],
    ["invitations", { autoReminders: "yes" }],
    ["invitations", { reminderAfterDays: "0" }],
    ["invitations", { reminderAfterDays: "1e3" }],
    ["invitations", { reminderAfterDays: NUL }],
    ["invitations", { reminderMaxCount: "-1" }],
    ["invitations", { reminderMaxCount: "11" }],
    ["invitations", { reminderMaxCount: "2.5" }],
    ["general", { deactivatedCards: "somewhere-else" }],
    ["general", { deactivatedCards: NUL }],
    ["legal", { leadRetentionMonths: "0" }],
    ["legal", { leadRetentionMonths: "121" }],
    ["legal", { leadRetentionMonths: NUL }],
    ["legal", { adminsSeeLeads: "yes" }],
    // Erasing one visitor's details: an address or nothing.
    ["legal", { intent: "erase-leads", eraseEmail: NUL }],
    ["legal", { intent: "erase-leads", eraseEmail: "a@example.org\r\nBcc: all@example.org" }],
    ["legal", { intent: "erase-leads", eraseEmail: LONG }],
    ["legal", { intent: "erase-leads" }],
    ["joining", { joinRule: "everyone" }],
    ["joining", { joinRule: "domains", joinDomains: "" }],
    ["joining", { joinDomains: `example.com\n${NUL}` }],
    ["fields", { "fieldPolicy.office.visibility": "private" }],
    ["fields", { "fieldPolicy.phone.visibility": NUL }],
  ]).map(
    ([tab, form]): Row => ({
      route: `admin/settings/${tab}`,
      who: "admin",
      method: "POST",
      url: `/admin/settings/${tab}`,
      form,
      status: 400,
    }),
  ),
  {
    route: "admin/profiles/create",
    who: "admin",
    method: "GET",
    url: "/admin/profiles/create?x=%00",
    status: 200,
    why: "the page takes no input",
  },
  {
    route: "admin/export/dashboard.csv",
    who: "admin",
    method: "GET",
    url: "/admin/export/dashboard.csv?brand=%00",
    status: 200,
    why: "the export takes no input",
  },
  {
    route: "admin/export/analytics.csv",
    who: "admin",
    method: "GET",
    url: "/admin/export/analytics.csv?x=%00",
    status: 200,
    why: "the export takes no input",
  },
  // The audit log and its export read the same filters.
  ...["admin/audit", "admin/export/audit.csv"].flatMap((route) =>
    [
      "?q=%00",
      "?action=drop-table",
      "?action=%00",
      "?actor=%00",
      "?from=2026-02-31",
      "?to=yesterday",
      "?from=%00",
      `?page=${HUGE_ID}`,
    ].map((query): Row => ({ route, who: "admin", method: "GET", url: `/${route}${query}`, status: 400 })),
  ),
  // Bulk import
  {
    route: "admin/import",
    who: "admin",
    method: "GET",
    url: "/admin/import?x=%00",
    status: 200,
    why: "the page takes no input",
  },
  ...(<Record<string, string>[]>[{ file: NUL }, { file: LONG }, { file: "" }, {}]).map(
    (form): Row => ({ route: "admin/import", who: "admin", method: "POST", url: "/admin/import", form, status: 400 }),
  ),
  // Hiding the set-up list takes one intent; anything else is refused (a way off the site: getting-started.test.ts).
  ...(<Record<string, string>[]>[{ intent: NUL }, { intent: LONG }, {}]).map(
    (form): Row => ({
      route: "admin/dashboard",
      who: "admin",
      method: "POST",
      url: "/admin/dashboard",
      form,
      status: 400,
    }),
  ),

  // The invitation's preview names a brand: anything that is not one is refused, one that does not exist is not found.
  ...["%00", "abc", "-1", "1e3", "0", HUGE_ID, LONG.slice(0, 3000)].map(
    (brand): Row => ({
      route: "admin/invitation-preview.html",
      who: "admin",
      method: "GET",
      url: `/admin/invitation-preview.html?brand=${brand}`,
      status: 400,
    }),
  ),
  {
    route: "admin/invitation-preview.html",
    who: "admin",
    method: "GET",
    url: "/admin/invitation-preview.html?brand=2147483647",
    status: 404,
    why: "no such brand",
  },
  {
    route: "admin/import/template.csv",
    who: "admin",
    method: "GET",
    url: "/admin/import/template.csv?x=%00",
    status: 200,
    why: "the template takes no input",
  },
  ...["not-a-uuid", "00000000-0000-4000-8000-000000000000", "%00", "..%2F..%2Fadmin"].flatMap((id): Row[] => [
    { route: "admin/import/:id", who: "admin", method: "GET", url: `/admin/import/${id}`, status: 404 },
    {
      route: "admin/import/:id",
      who: "admin",
      method: "POST",
      url: `/admin/import/${id}`,
      form: { intent: "start", "column.0": "email" },
      status: 404,
    },
    {
      route: "admin/import/:id/report.csv",
      who: "admin",
      method: "GET",
      url: `/admin/import/${id}/report.csv`,
      status: 404,
    },
  ]),
];
