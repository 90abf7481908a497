import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { readToast, redirectWithToast, takeToast, toastMiddleware } from "./toast";

async function toastCookie(text: string) {
  const response = await redirectWithToast("/somewhere", { text });
  expect(response.status).toBe(302);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

/** Runs the root middleware for a request with `cookie`; the page takes the toast when `take` is set. */
async function visit(cookie: string, take: boolean, headers: Record<string, string> = {}) {
  const context = new RouterContextProvider();
  let shown: unknown = null;
  const response = (await toastMiddleware(
    {
      request: new Request("http://localhost/", { headers: { cookie, ...headers } }),
      context,
      params: {},
      unstable_pattern: "/",
    } as never,
    async () => {
      if (take) shown = takeToast(context);
      return new Response("page");
    },
  )) as Response;
  return { shown, cleared: response.headers.getSetCookie().some((line) => /namecard_toast=;.*Max-Age=0/i.test(line)) };
}

describe("toasts after a redirect", () => {
  it("carries the message in a signed cookie, not in the address", async () => {
    const response = await redirectWithToast("/admin/profiles", { text: "Profile created for Ann Lee." });
    expect(response.headers.get("location")).toBe("/admin/profiles");
    const toast = await readToast(response.headers.getSetCookie()[0]!.split(";")[0]!);
    expect(toast).toMatchObject({ tone: "success", text: "Profile created for Ann Lee.", durationMs: 5000 });
  });

  it("ignores a cookie whose signature does not match", async () => {
    const cookie = await toastCookie("Genuine");
    const [name, value] = cookie.split("=") as [string, string];
    const forged = `${name}=${value.replace(/^./, (first) => (first === "e" ? "f" : "e"))}`;
    expect(await readToast(forged)).toBeNull();
  });

  it("shows the toast on the page a full load renders, then clears it", async () => {
    const cookie = await toastCookie("Settings saved successfully!");
    const first = await visit(cookie, true);
    expect(first.shown).toMatchObject({ text: "Settings saved successfully!" });
    expect(first.cleared).toBe(true);
  });

  it("keeps the toast for the next page when a request did not show it", async () => {
    const cookie = await toastCookie("Brand created successfully!");
    expect(await visit(cookie, false)).toEqual({ shown: null, cleared: false });
  });

  it("hands a toast to in-app data requests until the page reports it seen, and never clears it there", async () => {
    const cookie = await toastCookie("Brand updated successfully!");
    const data = await visit(cookie, true, { "sec-fetch-dest": "empty" });
    expect(data).toMatchObject({ shown: { text: "Brand updated successfully!" }, cleared: false });
    const id = (data.shown as { id: string }).id;
    const after = await visit(`${cookie}; namecard_toast_seen=${id}`, true, { "sec-fetch-dest": "empty" });
    expect(after).toEqual({ shown: null, cleared: false });
  });
});
