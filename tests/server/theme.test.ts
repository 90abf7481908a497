import { describe, expect, it } from "vitest";
import { themeFromCookie } from "~/lib/theme";
import { action as themeAction } from "~/routes/theme";
import { formRequest, run } from "./helpers";

/** The theme switch's plain form, for visitors without JavaScript. */
describe("choosing a theme without JavaScript", () => {
  it("keeps the choice in a cookie for a year and goes back to the page", async () => {
    const result = await run(themeAction, formRequest("/theme", { theme: "dark", back: "/profile/ada.l?src=qr" }));
    expect(result.status).toBe(303);
    expect(result.location).toBe("/profile/ada.l?src=qr");
    const cookie = result.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^theme=dark; Path=\/; Max-Age=31536000; SameSite=Lax$/);
    expect(themeFromCookie(cookie.split(";")[0])).toBe("dark");
  });

  it("never goes back to another site, and an unknown theme changes nothing", async () => {
    const away = await run(themeAction, formRequest("/theme", { theme: "light", back: "//evil.example/x" }));
    expect(away.location).toBe("/");
    const unknown = await run(themeAction, formRequest("/theme", { theme: "sepia", back: "/directory" }));
    expect(unknown.status).toBe(303);
    expect(unknown.location).toBe("/directory");
    expect(unknown.headers.get("set-cookie")).toBeNull();
  });

  it("reads only the three themes from a cookie header", () => {
    expect(themeFromCookie("a=1; theme=light; b=2")).toBe("light");
    expect(themeFromCookie("theme=sepia")).toBe("system");
    expect(themeFromCookie("mytheme=dark")).toBe("system");
    expect(themeFromCookie(null)).toBe("system");
  });
});
