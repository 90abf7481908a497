import { sql } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { requireAdministration, requireAnonymous, requirePermission, requireViewer } from "~/.server/http/authz";
import { db, rowsOf } from "~/.server/platform/db/client";
import { profiles } from "~/.server/platform/db/schema";
import { requireViewerMiddleware } from "~/middleware/viewer.server";
import { loader as authLoader } from "~/routes/auth/auth";
import { createMember, getRequest, run } from "./helpers";

async function member(email?: string) {
  return (await createMember({ email })).cookie;
}

async function thrownBy(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (thrown) {
    return thrown as Response;
  }
  throw new Error("expected the guard to stop the request");
}

describe("guards on the server", () => {
  it("sends a visitor to /auth with the page to come back to", async () => {
    const response = await thrownBy(requireViewer(getRequest("/directory?q=ann")));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent("/directory?q=ann")}`);
  });

  it("sends a visitor of the home page to plain /auth", async () => {
    const response = await thrownBy(requireViewer(getRequest("/")));
    expect(response.headers.get("location")).toBe("/auth");
  });

  it("sends a signed-in member away from /auth to /", async () => {
    const cookie = await member();
    const result = await run(authLoader, getRequest("/auth", cookie));
    expect(result).toMatchObject({ status: 302, location: "/" });
    await expect(requireAnonymous(getRequest("/auth"))).resolves.toBeUndefined();
  });

  it("sends a member on an administrator page to /directory", async () => {
    const cookie = await member();
    const response = await thrownBy(requireAdministration(getRequest("/admin/brands", cookie)));
    expect(response.headers.get("location")).toBe("/directory");
  });

  it("lets an administrator in, with or without a card", async () => {
    const cookie = await member("admin@example.com");
    await expect(requireAdministration(getRequest("/admin/brands", cookie))).resolves.toMatchObject({ isAdmin: true });
    await db.delete(profiles).where(sql`true`);
    await expect(requireAdministration(getRequest("/admin/brands", cookie))).resolves.toMatchObject({ isAdmin: true });
  });

  it("lets a member without a card through to the 'Profile Setup in Progress' screen", async () => {
    const cookie = await member();
    await db.delete(profiles).where(sql`true`);
    const viewer = await requireViewer(getRequest("/", cookie));
    expect(viewer.profile).toBeNull();
    expect(viewer.isAdmin).toBe(false);
  });

  it("answers 403 when a member's action needs an administrator's permission", async () => {
    const viewer = await requireViewer(getRequest("/", await member()));
    let status = 0;
    try {
      requirePermission(viewer, "manage:brand:any");
    } catch (thrown) {
      status = (thrown as { init?: ResponseInit }).init?.status ?? 0;
    }
    expect(status).toBe(403);
    expect(requirePermission(viewer, "update:profile:own")).toBe(viewer);
  });

  it("slides an active member's session forward with a refreshed cookie", async () => {
    const cookie = await member();
    // The session was last refreshed two days ago (better-auth refreshes after a day).
    await db.execute(
      sql`update sessions set expires_at = now() + interval '28 days', updated_at = now() - interval '2 days'`,
    );
    const request = getRequest("/directory", cookie);
    const context = new RouterContextProvider();
    const response = (await requireViewerMiddleware(
      { request, context, params: {} } as never,
      async () => new Response("ok"),
    )) as Response;
    expect(response.headers.getSetCookie().join()).toContain("namecard.session_token=");
    const [row] = rowsOf(
      await db.execute(sql`select expires_at > now() + interval '29 days' as extended from sessions`),
    ) as {
      extended: boolean;
    }[];
    expect(row?.extended).toBe(true);
  });

  it("ignores a forged or expired session cookie", async () => {
    const response = await thrownBy(requireViewer(getRequest("/", "namecard.session_token=forged.value")));
    expect(response.headers.get("location")).toBe("/auth");
  });
});
