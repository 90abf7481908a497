import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER, getAuth } from "~/.server/http/auth";
import { db } from "~/.server/platform/db/client";
import { accounts, users } from "~/.server/platform/db/schema";
import { BASE, createMember, nextIp, uniqueEmail } from "../server/helpers";

/**
 * Every field of every open better-auth endpoint follows the form's rules; a
 * field the form does not have is refused; every other endpoint is closed.
 * Each row is sent as JSON straight to the handler, as any client could.
 */
async function post(path: string, body: unknown, cookie = "") {
  const headers = new Headers({ "content-type": "application/json", origin: BASE, [CLIENT_IP_HEADER]: nextIp() });
  if (cookie) headers.set("cookie", cookie);
  const response = await getAuth().handler(
    new Request(`${BASE}/api/auth${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
  return { status: response.status, body: (await response.json().catch(() => null)) as { message?: string } | null };
}

const LONG_NAME = "A".repeat(20_000);
const NAME_VALUES: unknown[] = [
  LONG_NAME,
  "Ann\nBob",
  "Ann\u0000",
  "Ann\u202eboB",
  "",
  "   ",
  42,
  null,
  ["Ann"],
  { a: 1 },
];
const EMAIL_VALUES: unknown[] = [
  "not-an-email",
  "a@example.org\r\nBcc: everyone@example.org",
  `${"x".repeat(300)}@example.org`,
  "",
  7,
  null,
];
const PHONE_VALUES: unknown[] = [
  "call me maybe <script>",
  "1".repeat(41),
  "+1\n555 0100",
  "+1\u0000",
  5550100,
  { n: 1 },
];
const NEW_PASSWORD_VALUES: unknown[] = [
  "12345678",
  "password",
  "aaaaaaaa",
  "short",
  "x".repeat(129),
  "line\nbreak pass",
  12345678,
];
const FOREIGN = { image: "https://tracker.example/pixel.png", emailVerified: true, role: "admin", id: "chosen-id" };

type Row = { endpoint: string; valid: () => Record<string, unknown>; fields: Record<string, unknown[]> };

const table: Row[] = [
  {
    endpoint: "/sign-up/email",
    valid: () => ({
      firstName: "Ada",
      lastName: "Lovelace",
      email: uniqueEmail("api"),
      password: "analytical engine notes",
      phone: "+44 20 7946 0000",
    }),
    fields: {
      firstName: NAME_VALUES,
      lastName: NAME_VALUES,
      email: EMAIL_VALUES,
      password: NEW_PASSWORD_VALUES,
      phone: PHONE_VALUES,
      name: [LONG_NAME, "Ada\nLovelace", 3],
      rememberMe: ["yes"],
      ...Object.fromEntries(Object.entries(FOREIGN).map(([key, value]) => [key, [value]])),
    },
  },
  {
    endpoint: "/sign-in/email",
    valid: () => ({ email: uniqueEmail("api"), password: "analytical engine notes" }),
    fields: {
      email: EMAIL_VALUES,
      password: ["", "x".repeat(201), 5, null],
      rememberMe: ["yes"],
      ...Object.fromEntries(Object.entries(FOREIGN).map(([key, value]) => [key, [value]])),
    },
  },
  {
    endpoint: "/request-password-reset",
    valid: () => ({ email: uniqueEmail("api") }),
    fields: { email: EMAIL_VALUES, image: [FOREIGN.image] },
  },
  {
    endpoint: "/reset-password",
    valid: () => ({ token: "abcdefghijklmnopqrstuvwx", newPassword: "analytical engine notes" }),
    fields: { token: ["../../etc", "", "x".repeat(500), 1], newPassword: NEW_PASSWORD_VALUES, image: [FOREIGN.image] },
  },
  {
    endpoint: "/confirm-email",
    valid: () => ({
      token: "a".repeat(43),
      firstName: "Ada",
      lastName: "Lovelace",
      phone: "",
      password: "analytical engine notes",
    }),
    fields: {
      token: ["short", "x".repeat(500), "a b c d e f g h i j k l m n", 3],
      firstName: NAME_VALUES,
      lastName: NAME_VALUES,
      phone: PHONE_VALUES,
      password: NEW_PASSWORD_VALUES,
      ...Object.fromEntries(Object.entries(FOREIGN).map(([key, value]) => [key, [value]])),
    },
  },
  {
    endpoint: "/resend-confirmation",
    valid: () => ({ email: uniqueEmail("api") }),
    fields: { email: EMAIL_VALUES, password: ["x".repeat(201), 3], image: [FOREIGN.image] },
  },
  {
    endpoint: "/sign-in/sso",
    valid: () => ({ providerId: "00000000-0000-4000-8000-000000000000", callbackURL: "/directory" }),
    fields: {
      providerId: ["nope", "x".repeat(500), 7, null, ["00000000-0000-4000-8000-000000000000"]],
      email: EMAIL_VALUES,
      callbackURL: [7, "x".repeat(2001), { path: "/" }],
      image: [FOREIGN.image],
    },
  },
];

const cases = table.flatMap((row) =>
  Object.entries(row.fields).flatMap(([field, values]) =>
    values.map((value) => ({ endpoint: row.endpoint, field, value, valid: row.valid })),
  ),
);

async function countRows() {
  const [u] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  const [a] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  return { users: u?.n, accounts: a?.n };
}

describe("the auth API takes only what the forms take", () => {
  it.each(cases)("$endpoint refuses $field = $value with a 400 and a message, storing nothing", async (row) => {
    const before = await countRows();
    const result = await post(row.endpoint, { ...row.valid(), [row.field]: row.value });
    expect(result.status, JSON.stringify(result.body)).toBe(400);
    expect(result.body?.message).toEqual(expect.any(String));
    expect(await countRows()).toEqual(before);
  });

  it("a valid sign-up through the API is accepted, and the stored name is the one made of first and last name", async () => {
    const body: Record<string, unknown> = { ...table[0]!.valid(), name: "Someone Else" };
    const result = await post("/sign-up/email", body);
    expect(result.status).toBe(200);
    const [user] = await db
      .select()
      .from(users)
      .where(sql`${users.email} = ${String(body.email)}`);
    expect(user).toMatchObject({ name: "Ada Lovelace", firstName: "Ada", image: null, emailVerified: false });
  });

  it.each([
    "/update-user",
    "/change-email",
    "/change-password",
    "/set-password",
    "/delete-user",
    "/list-sessions",
    "/revoke-sessions",
    "/revoke-other-sessions",
    "/sign-in/social",
    "/link-social",
    "/unlink-account",
    "/send-verification-email",
    "/verify-password",
    "/update-session",
  ])("%s is closed to a signed-in member: 404, and their account is unchanged", async (path) => {
    const member = await createMember({ firstName: "Mem" });
    const result = await post(
      path,
      {
        name: LONG_NAME,
        firstName: LONG_NAME,
        image: FOREIGN.image,
        newEmail: "x@example.org",
        email: "x@example.org",
      },
      member.cookie,
    );
    expect(result.status).toBe(404);
    const [user] = await db.select().from(users).where(sql`${users.email} = ${member.email}`);
    expect(user).toMatchObject({ firstName: "Mem", image: null, email: member.email });
  });

  it.each([
    "",
    "?state=%00",
    `?state=${"x".repeat(5000)}&code=x`,
    "?state=a&state=b&code=c",
    "?code=stolen",
    "?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=x",
  ])(
    "a provider's answer %s that matches no sign-in started here lands on the sign-in page with a message",
    async (query) => {
      const response = await getAuth().handler(new Request(`${BASE}/api/auth/sso/callback${query}`));
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/auth?sso=expired");
      expect(response.headers.getSetCookie().some((cookie) => /session_token=[^;]/.test(cookie))).toBe(false);
    },
  );

  it("an old stateless confirmation link lands on the 'link did not work' page", async () => {
    const response = await getAuth().handler(new Request(`${BASE}/api/auth/verify-email?token=anything&callbackURL=/`));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth/verified?error=INVALID_TOKEN");
  });
});
