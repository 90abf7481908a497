import { describe, expect, it } from "vitest";
import { cachedResult, cachedValue } from "~/.server/platform/read-cache";
import { publish } from "~/.server/platform/realtime";
import { eventHeard, listenForEvents } from "./helpers";

/** A read that counts its calls and answers only when told, with the call's number. */
function heldRead() {
  let calls = 0;
  const waiting: (() => void)[] = [];
  const read = () => {
    const call = ++calls;
    return new Promise<{ call: number }>((resolve) => waiting.push(() => resolve({ call })));
  };
  return {
    read,
    calls: () => calls,
    resolveAll: () => {
      for (const answer of waiting.splice(0)) answer();
    },
  };
}

/**
 * A page many people open at once (a first page of the directory on a Monday morning, right
 * after a change) is read from the database once, not once per person
 * (app/.server/platform/read-cache.ts); and nobody who asks after a change is given a read begun before it.
 */
describe("pages and counts asked for at once", () => {
  listenForEvents();

  it("are read once for fifty people who ask while the first read is under way", async () => {
    const page = heldRead();
    const answers = Promise.all(Array.from({ length: 50 }, () => cachedResult("rush page", () => [], page.read)));
    const total = heldRead();
    const totals = Promise.all(Array.from({ length: 50 }, () => cachedValue("rush total", total.read)));
    page.resolveAll();
    total.resolveAll();
    expect(new Set((await answers).map((answer) => answer.call))).toEqual(new Set([1]));
    expect(new Set((await totals).map((answer) => answer.call))).toEqual(new Set([1]));
    expect([page.calls(), total.calls()]).toEqual([1, 1]);
  });

  it("are read again for whoever asks after a change, while a read begun before it is still under way", async () => {
    const page = heldRead();
    const before = cachedResult("changing page", () => [], page.read);
    const echoed = eventHeard("profile");
    await publish({ kind: "profile", id: "00000000-0000-4000-8000-000000000001" });
    // Its echo through the database drops what is kept once more: let it come before keeping anything.
    await echoed;
    const after = cachedResult("changing page", () => [], page.read);
    page.resolveAll();
    expect((await before).call).toBe(1);
    expect((await after).call).toBe(2);
    // The read begun before the change was not kept; the one after it was.
    expect((await cachedResult("changing page", () => [], page.read)).call).toBe(2);
    expect(page.calls()).toBe(2);
  });
});
