import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LocalTime } from "~/components/local-time";

describe("a moment on a page", () => {
  it("is written by the server in UTC, named, with the exact moment for the browser to rewrite in its own zone", () => {
    const html = renderToString(createElement(LocalTime, { at: "2026-11-10T09:05:00.000Z" }));
    expect(html).toBe('<time dateTime="2026-11-10T09:05:00.000Z">10 Nov 2026, 09:05 UTC</time>');
  });

  it("shows a value that is no moment as it came, rather than failing the page", () => {
    expect(renderToString(createElement(LocalTime, { at: "soon" }))).toContain(">soon</time>");
  });
});
