import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_STREAMS_PER_SESSION, openStreamCount, recheckStreams } from "~/.server/http/event-streams";
import { db, getDatabaseHandle } from "~/.server/platform/db/client";
import { sessions, users } from "~/.server/platform/db/schema";
import { listenerCount, publish, startRealtime } from "~/.server/platform/realtime";
import { action as signOutAction } from "~/routes/auth/sign-out";
import { loader as eventsLoader } from "~/routes/events";
import { createMember, formRequest, run } from "../server/helpers";

/** Opens `/events` as a browser tab would; `ended` resolves when the server closes the stream. */
async function openStream(cookie: string) {
  const controller = new AbortController();
  const response = await eventsLoader({
    request: new Request("http://localhost:3000/events", { headers: { cookie }, signal: controller.signal }),
    params: {},
    context: {},
  } as never);
  const reader = response.status === 200 ? response.body!.getReader() : null;
  let text = "";
  const ended = (async () => {
    if (!reader) return;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += new TextDecoder().decode(value);
    }
  })();
  return { status: response.status, ended, text: () => text, close: () => controller.abort() };
}

function endsWithin(stream: { ended: Promise<void> }, ms: number) {
  return Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

describe("live updates end with the session and hold no memory after", () => {
  let stopRealtime: () => Promise<void>;
  let baseline = 0;
  beforeAll(async () => {
    stopRealtime = await startRealtime(getDatabaseHandle());
    baseline = listenerCount();
  });
  afterAll(async () => {
    await stopRealtime?.();
  });

  it(`a session holds at most ${MAX_STREAMS_PER_SESSION} streams; closing one makes room, and closed streams leave nothing`, async () => {
    const { cookie } = await createMember();
    const streams = [];
    for (let tab = 0; tab < MAX_STREAMS_PER_SESSION; tab++) streams.push(await openStream(cookie));
    expect(streams.map((stream) => stream.status)).toEqual(Array(MAX_STREAMS_PER_SESSION).fill(200));
    const extra = await openStream(cookie);
    expect(extra.status).toBe(429);
    expect(openStreamCount()).toBe(MAX_STREAMS_PER_SESSION);

    streams[0]!.close();
    await streams[0]!.ended;
    const again = await openStream(cookie);
    expect(again.status).toBe(200);

    for (const stream of [...streams.slice(1), again]) stream.close();
    await Promise.all([...streams, again].map((stream) => stream.ended));
    expect(openStreamCount()).toBe(0);
    expect(listenerCount()).toBe(baseline);
  });

  it("signing out ends the session's streams at once, telling the browser not to ask again", async () => {
    const { cookie } = await createMember();
    const stream = await openStream(cookie);
    expect(stream.status).toBe(200);
    await run(signOutAction, formRequest("/auth/sign-out", {}, { cookie }));
    expect(await endsWithin(stream, 5_000)).toBe(true);
    expect(stream.text()).toMatch(/event: signed-out\ndata: \{\}\n\n$/);
    expect(openStreamCount()).toBe(0);
    // The signed-out cookie opens no new stream.
    expect((await openStream(cookie)).status).toBe(401);
  });

  it("a session that expired or was deleted loses its stream at the next check, and the browser hears it", async () => {
    const expired = await createMember();
    const deleted = await createMember();
    const first = await openStream(expired.cookie);
    const second = await openStream(deleted.cookie);
    const [user] = await db.select().from(users).where(eq(users.email, expired.email));
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user!.id));
    const [other] = await db.select().from(users).where(eq(users.email, deleted.email));
    await db.delete(sessions).where(eq(sessions.userId, other!.id));
    await recheckStreams();
    expect(await endsWithin(first, 2_000)).toBe(true);
    expect(await endsWithin(second, 2_000)).toBe(true);
    for (const stream of [first, second]) expect(stream.text()).toContain("event: signed-out");
    expect(openStreamCount()).toBe(0);
  });

  it("a password reset elsewhere ends the account's streams", async () => {
    const member = await createMember();
    const stream = await openStream(member.cookie);
    const [user] = await db.select().from(users).where(eq(users.email, member.email));
    await publish({ kind: "user-sessions-ended", id: user!.id });
    expect(await endsWithin(stream, 5_000)).toBe(true);
    expect(stream.text()).toContain("event: signed-out");
  });

  it("server-to-server events never reach a browser", async () => {
    const member = await createMember();
    const watcher = await createMember();
    const stream = await openStream(watcher.cookie);
    await publish({ kind: "session-ended", id: "someone-elses-session" });
    await publish({ kind: "profile", id: "visible" });
    await expect.poll(() => stream.text(), { timeout: 5_000 }).toContain('"id":"visible"');
    expect(stream.text()).not.toContain("someone-elses-session");
    stream.close();
    void member;
  });
});
