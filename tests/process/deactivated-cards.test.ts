import { describe, expect, it } from "vitest";
import { startedProcesses } from "../support/process-suite";
import {
  migratedDataDir,
  SERVER_BUILT,
  type ServerProcess,
  signedInMember,
  startServer,
  usernameIn,
} from "../support/server-process";

/**
 * Deactivation over HTTP against the built server, whose anonymous card pages
 * are kept and reused (server/page-cache.ts): a visitor who just saw the card
 * gets 410 Gone on the very next request, its owner's session is over and
 * their sign-in refused, and reactivating brings all of it back at once. On
 * the embedded database (the in-process tests cover both engines).
 */
const EMBEDDED = process.env.NAMECARD_TEST_DB !== "postgres";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

const started = startedProcesses("the deactivated-card process tests");

async function visit(server: ServerProcess, pathname: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${pathname}`, {
    headers: { "user-agent": BROWSER, "x-forwarded-for": "10.7.0.1", ...headers },
    redirect: "manual",
  });
  return {
    status: response.status,
    location: response.headers.get("location"),
    cacheControl: response.headers.get("cache-control"),
    text: await response.text(),
  };
}

async function post(server: ServerProcess, pathname: string, fields: Record<string, string>, cookie = "") {
  const response = await fetch(`${server.url}${pathname}`, {
    method: "POST",
    headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}

describe.skipIf(!EMBEDDED || !SERVER_BUILT)("a deactivated card over HTTP", () => {
  it("answers 410 at once to a visitor who just saw it, ends its owner's session, refuses their sign-in, and comes back on reactivation", async () => {
    const server = await startServer({ dataDir: await migratedDataDir(), env: { TRUST_PROXY: "loopback" } });
    started.push(server);
    const email = "lea.ver@example.com";
    const member = await signedInMember(server, email, { first: "Lea", last: "Ver" });
    const admin = await signedInMember(server, "admin@example.com", { first: "Ada", last: "Admin" });
    const edit = await visit(server, "/profile/edit", { cookie: member });
    expect(edit.status).toBe(200);
    const name = usernameIn(edit.text);
    const addresses = [`/profile/${name}`, `/profile/${name}?src=qr`, `/qr/${name}`, `/profile/${name}/contact.vcf`];

    // Seen twice by visitors: the second answer comes from the kept page.
    for (const address of [...addresses, ...addresses]) expect((await visit(server, address)).status).toBe(200);

    const directory = `/directory?q=${encodeURIComponent("Lea Ver")}`;
    expect((await visit(server, directory, { cookie: admin })).text).toContain(`/profile/${name}`);
    const list = await visit(server, `/admin/profiles?q=${encodeURIComponent(email)}`, { cookie: admin });
    const id = /name="id" value="([0-9a-f-]{36})"/.exec(list.text)?.[1];
    expect(id, "the card's id on the management page").toBeDefined();

    const deactivated = await post(server, "/admin/profiles", { intent: "deactivate", id: id ?? "" }, admin);
    expect(deactivated).toMatchObject({ status: 302, location: "/admin/profiles" });

    for (const address of addresses) {
      const answer = await visit(server, address);
      expect(answer.status, address).toBe(410);
      // Browsers keep a 410 forever unless told not to: the card may come back.
      expect(answer.cacheControl, address).toBe("no-store");
    }
    expect((await visit(server, `/profile/${name}`)).text).toContain("This card is no longer active");
    expect((await visit(server, `/profile/${name}/qr.png`)).status).toBe(410);
    expect((await visit(server, `/profile/${name}/og.png`)).status).toBe(410);

    // Its owner is signed out: their next page asks them to sign in, and signing in is refused with the reason.
    const after = await visit(server, "/profile/edit", { cookie: member });
    expect(after).toMatchObject({ status: 302, location: "/auth?redirectTo=%2Fprofile%2Fedit" });
    const refused = await post(server, "/auth", { intent: "signin", email, password: "process password" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Your card has been deactivated by an administrator");
    // Their card is in no colleague's directory.
    expect((await visit(server, directory, { cookie: admin })).text).not.toContain(`/profile/${name}`);

    const reactivated = await post(server, "/admin/profiles", { intent: "reactivate", id: id ?? "" }, admin);
    expect(reactivated.status).toBe(302);
    for (const address of addresses) expect((await visit(server, address)).status, address).toBe(200);
    const back = await post(server, "/auth", { intent: "signin", email, password: "process password" });
    expect(back.status).toBe(302);
  }, 180_000);
});
