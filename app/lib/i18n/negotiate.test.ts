import { describe, expect, it } from "vitest";
import { localeFromHeader, pageLocale, requestedLanguages, speaksVisitorLanguage } from "./negotiate";

describe("the language a browser asks for", () => {
  it("is read by weight, then by order, without refused, wildcard or malformed ranges", () => {
    expect(requestedLanguages("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toEqual(["fr-CH", "fr", "en", "de"]);
    expect(requestedLanguages("en;q=0.1, ja")).toEqual(["ja", "en"]);
    expect(requestedLanguages("de;q=0, nl")).toEqual(["nl"]);
    expect(requestedLanguages("de;Q=0, fr;q=high, nl;Q=0.5")).toEqual(["nl"]);
    expect(requestedLanguages("<script>, x-😀, en_US, ja")).toEqual(["ja"]);
    expect(requestedLanguages("")).toEqual([]);
    expect(requestedLanguages(null)).toEqual([]);
  });

  it("matches the closest of ours: a region or script finds its language, an unrelated language finds none", () => {
    expect(localeFromHeader("de-AT,de;q=0.9")).toBe("de");
    expect(localeFromHeader("pt-PT")).toBe("pt-BR");
    expect(localeFromHeader("zh-Hans-CN")).toBe("zh-CN");
    expect(localeFromHeader("ar-EG,ar;q=0.9,en;q=0.5")).toBe("ar");
    expect(localeFromHeader("sv-SE")).toBe(null);
    expect(localeFromHeader("sv-SE, it;q=0.5")).toBe("it");
    // Traditional Chinese is not simplified Chinese: its readers get the default.
    expect(localeFromHeader("zh-TW")).toBe(null);
  });

  it("never hands the matcher a language of none of ours, nor more of a tag than tells ours apart", () => {
    // The matcher remembers every tag it is given: invented ones must not reach it.
    expect(localeFromHeader("aa-x1y2z, qq-Abcd-QQ, de-Qaaa-XY-variant1")).toBe("de");
    expect(localeFromHeader("zh-Hant")).toBe(null);
    expect(localeFromHeader("zh-Hans-TW")).toBe("zh-CN");
    expect(localeFromHeader("ZH-cn")).toBe("zh-CN");
    expect(localeFromHeader("pt-pt")).toBe("pt-BR");
  });

  it("reads at most a header's worth of ranges however long it is", () => {
    const long = `${Array.from({ length: 5_000 }, () => "xx").join(",")},ja`;
    expect(localeFromHeader(long)).toBe(null);
    expect(requestedLanguages(long).length).toBeLessThanOrEqual(16);
  });
});

describe("the language of a page", () => {
  const request = (path: string, acceptLanguage?: string) => ({
    url: `http://cards.example${path}`,
    headers: new Headers(acceptLanguage ? { "accept-language": acceptLanguage } : {}),
  });

  it("is the browser's on a card, its QR page and its lead form, unless a link names one", () => {
    expect(pageLocale(request("/profile/ana.silva", "ja,en;q=0.8"))).toBe("ja");
    expect(pageLocale(request("/qr/ana.silva", "fr-FR"))).toBe("fr");
    expect(pageLocale(request("/profile/ana.silva/share-back?src=qr", "ar"))).toBe("ar");
    expect(pageLocale(request("/profile/ana.silva.data", "nl"))).toBe("nl");
    expect(pageLocale(request("/profile/ana.silva?lang=de", "ja"))).toBe("de");
    expect(pageLocale(request("/profile/ana.silva?lang=klingon", "ja"))).toBe("ja");
    expect(pageLocale(request("/profile/ana.silva", "sv"))).toBe("en");
  });

  it("is English on the screens whose words are not yet in the catalogs", () => {
    expect(speaksVisitorLanguage("/profile/edit")).toBe(false);
    // Paths are matched as the router matches them: in any case.
    expect(speaksVisitorLanguage("/Profile/Edit")).toBe(false);
    expect(pageLocale(request("/QR/ana.silva", "de"))).toBe("de");
    expect(pageLocale(request("/directory", "de"))).toBe("en");
    expect(pageLocale(request("/profile/edit", "de"))).toBe("en");
    expect(pageLocale(request("/profile/ana.silva/contact.vcf", "de"))).toBe("en");
  });
});
