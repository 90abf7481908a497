import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { publish, type RealtimeEvent, subscribe } from "~/.server/platform/realtime";
import { listenForEvents } from "./helpers";

function nextEvent(predicate: (event: RealtimeEvent) => boolean, timeoutMs = 5_000) {
  return new Promise<RealtimeEvent>((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error("no event arrived"));
    }, timeoutMs);
    const unsubscribe = subscribe((event) => {
      if (!predicate(event)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}

describe("realtime events through the database", () => {
  listenForEvents();

  it("delivers an event published inside a transaction once it commits, with kind and id only", async () => {
    const arrived = nextEvent((event) => event.id === "p-1");
    await db.transaction(async (tx) => {
      await publish({ kind: "profile", id: "p-1" }, tx);
    });
    expect(await arrived).toEqual({ kind: "profile", id: "p-1" });
  });

  it("does not deliver an event whose transaction rolled back", async () => {
    const arrived = nextEvent((event) => event.id === "rolled-back", 800);
    await db
      .transaction(async (tx) => {
        await publish({ kind: "profile", id: "rolled-back" }, tx);
        throw new Error("abort");
      })
      .catch(() => {});
    await expect(arrived).rejects.toThrow("no event arrived");
  });
});
