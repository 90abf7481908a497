import type { Page } from "@playwright/test";
import { ar } from "../../app/locales/ar";
import { de } from "../../app/locales/de";
import { type Catalog, en, type MessageId } from "../../app/locales/en";
import { es } from "../../app/locales/es";
import { fr } from "../../app/locales/fr";
import { it } from "../../app/locales/it";
import { ja } from "../../app/locales/ja";
import { nl } from "../../app/locales/nl";
import { ptBR } from "../../app/locales/pt-BR";
import { zhCN } from "../../app/locales/zh-CN";
import { expect, expectAccessible, failedLoad, screenshot, test } from "./fixtures";

const CATALOGS: Record<string, Catalog> = { en, de, fr, es, "pt-BR": ptBR, it, nl, ja, "zh-CN": zhCN, ar };
const LOCALES = Object.keys(CATALOGS);

/**
 * A visitor whose browser reads German, Japanese or Arabic opens a card, saves
 * the contact and shares their details back, all in their language, on a phone
 * and on a desktop, light and dark (docs/decisions/047-languages.md).
 */

/** Headless Chromium announces itself as a bot; a person's browser is what is being shown. */
const PERSON_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** The lead form's own minimum time to fill it in (app/.server/leads/submit.ts), and a little more. */
const FILL_MS = 3_500;

/** The page fits the phone's width: nothing pushes it sideways, on either side. */
async function expectNoSidewaysScroll(page: Page, what = "the page") {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${what}'s width on a phone`).toBeLessThanOrEqual(innerWidth);
}

async function formOldEnough(page: Page) {
  const stamp = await page.locator('input[name="stamp"]').inputValue();
  const shownAt = Number(stamp.split(".")[0]);
  await expect.poll(() => Date.now() - shownAt, { timeout: 15_000 }).toBeGreaterThan(FILL_MS);
}

const VISITORS = [
  {
    locale: "de-DE",
    lang: "de",
    dir: "ltr",
    card: "jonas.becker",
    name: "Jonas Becker",
    save: "Kontakt speichern",
    saved: "Kontakt gespeichert! Die Kontaktdaten von Jonas wurden auf Ihr Gerät heruntergeladen.",
    contact: "Kontaktdaten",
    shareBack: "Ihre Kontaktdaten an Jonas senden",
    consent: /^Ich bin einverstanden, dass Jonas Becker von/,
    submit: "Meine Kontaktdaten senden",
    thanks: "Vielen Dank!",
  },
  {
    locale: "ja-JP",
    lang: "ja",
    dir: "ltr",
    card: "mei.chen",
    name: "Mei Chen",
    save: "連絡先を保存",
    saved: "連絡先を保存しました。Meiの連絡先がデバイスにダウンロードされました。",
    contact: "連絡先",
    shareBack: "Meiに連絡先を送る",
    consent: /^ここに入力した情報を、.+のMei Chenが/,
    submit: "連絡先を送る",
    thanks: "ありがとうございます",
  },
  {
    locale: "ar-EG",
    lang: "ar",
    dir: "rtl",
    card: "omar.haddad",
    name: "Omar Haddad",
    save: "حفظ جهة الاتصال",
    saved: "تم حفظ جهة الاتصال! تم تنزيل معلومات الاتصال الخاصة بـOmar على جهازك.",
    contact: "معلومات الاتصال",
    shareBack: "شارك بياناتك مع Omar",
    consent: /^أوافق على أن يحتفظ Omar Haddad من/,
    submit: "مشاركة بياناتي",
    thanks: "شكرًا لك!",
  },
] as const;

for (const visitor of VISITORS) {
  test(`a visitor whose browser reads ${visitor.lang} opens a card, saves the contact and shares their details back in it`, async ({
    newContext,
  }) => {
    const context = await newContext({ locale: visitor.locale, viewport: PHONE, userAgent: PERSON_AGENT });
    const page = await context.newPage();
    await page.goto(`/profile/${visitor.card}`);
    await expect(page.locator("html")).toHaveAttribute("lang", visitor.lang);
    await expect(page.locator("html")).toHaveAttribute("dir", visitor.dir);
    await expect(page.getByRole("heading", { name: visitor.name, level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: visitor.contact, exact: true })).toBeVisible();
    // The address reads left to right on every page.
    await expect(page.getByTestId("contact-text").first()).toHaveAttribute("dir", "auto");

    const alert = page.waitForEvent("dialog").then(async (dialog) => {
      const message = dialog.message();
      await dialog.accept();
      return message;
    });
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: visitor.save }).click();
    expect(await alert).toBe(visitor.saved);
    expect((await download).suggestedFilename()).toMatch(/\.vcf$/);

    await expectNoSidewaysScroll(page);
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expectAccessible(page);
      await screenshot(page, `card-${visitor.lang}-phone-${theme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize(DESKTOP);
    await screenshot(page, `card-${visitor.lang}-desktop-light`);
    await page.setViewportSize(PHONE);

    await page.getByRole("link", { name: visitor.shareBack }).click();
    await expect(page.getByRole("heading", { name: visitor.shareBack, level: 1 })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", visitor.lang);
    await page.locator('input[name="name"]').fill("Quentin Quest");
    await page.locator('input[name="email"]').fill(`quentin.${visitor.lang}@fair.example`);
    await page.getByRole("checkbox", { name: visitor.consent }).check();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await screenshot(page, `share-back-${visitor.lang}-phone-light`);
    await formOldEnough(page);
    await page.getByRole("button", { name: visitor.submit }).click();
    await expect(page.getByRole("heading", { name: visitor.thanks })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await context.close();
  });
}

test("a link names the card's language, whatever the browser reads, and its QR page follows the browser", async ({
  newContext,
}) => {
  const context = await newContext({ locale: "fr-FR", viewport: PHONE, userAgent: PERSON_AGENT });
  const page = await context.newPage();
  await page.goto("/profile/jonas.becker?lang=nl");
  await expect(page.locator("html")).toHaveAttribute("lang", "nl");
  await expect(page.getByRole("link", { name: "Contact opslaan" })).toBeVisible();
  // The language the link named stays with the visitor from page to page.
  await page.getByRole("link", { name: "Mobiele QR" }).click();
  await expect(page).toHaveURL(/\/qr\/jonas\.becker\?lang=nl$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "nl");
  await page.getByRole("link", { name: "Deel je gegevens met Jonas" }).click();
  await expect(page.getByRole("heading", { name: "Deel je gegevens met Jonas", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Kaartje van Jonas" }).click();
  await expect(page).toHaveURL(/\/profile\/jonas\.becker\?src=qr&lang=nl$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "nl");
  await page.goto("/qr/jonas.becker");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.getByText("Scannez pour entrer en contact avec Jonas")).toBeVisible();
  await context.close();
});

/**
 * English sentences a page in another language must not show: the English catalog's messages
 * without placeholders that the language says otherwise (a word both say alike, "Status", is
 * no sign of a page left in English).
 */
function englishLeftIn(catalog: Catalog): string[] {
  return (Object.keys(en) as MessageId[])
    .filter((key) => !/[{<]/.test(en[key]) && en[key].length >= 8 && catalog[key] !== en[key])
    .map((key) => en[key]);
}

test("the card, its QR page and its lead form fit a phone's width in every language, with no English left", async ({
  newContext,
}) => {
  for (const locale of LOCALES) {
    const context = await newContext({ locale, viewport: PHONE, userAgent: PERSON_AGENT });
    const page = await context.newPage();
    const english = locale === "en" ? [] : englishLeftIn(CATALOGS[locale] ?? en);
    for (const path of ["/profile/jonas.becker", "/qr/jonas.becker", "/profile/jonas.becker/share-back"]) {
      await page.goto(path);
      await expect(page.locator("html"), path).toHaveAttribute("lang", locale);
      await expectNoSidewaysScroll(page, `${path} in ${locale}`);
      // What a person reads, and what a screen reader says of the page's controls.
      const shown = await page.evaluate(() =>
        [
          document.body.innerText,
          ...[...document.querySelectorAll("[aria-label], [title], [alt], [placeholder]")].flatMap((element) =>
            ["aria-label", "title", "alt", "placeholder"].map((name) => element.getAttribute(name) ?? ""),
          ),
        ].join("\n"),
      );
      expect(
        english.filter((sentence) => shown.includes(sentence)),
        `${path} in ${locale}`,
      ).toEqual([]);
    }
    await context.close();
  }
});

test.describe("a visitor whose browser reads French", () => {
  test.use({ locale: "fr-FR" });

  test("is told in French that a card does not exist, and in the page's title", async ({
    page,
    expectConsoleError,
  }) => {
    expectConsoleError(failedLoad(404, "/profile/personne.inconnue"));
    const response = await page.goto("/profile/personne.inconnue");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Profil introuvable" })).toBeVisible();
    await expect(page.getByText("Le profil que vous cherchez n’existe pas ou a été supprimé.")).toBeVisible();
    await expect(page).toHaveTitle("Profil introuvable");
  });
});
