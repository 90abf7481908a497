import {
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  type MessageFormatElement,
  parse,
} from "@formatjs/icu-messageformat-parser";
import { createIntl } from "react-intl";
import { describe, expect, it } from "vitest";
import { CATALOGS, translate } from "~/.server/platform/i18n";
import { LOCALES } from "~/lib/i18n/locales";
import { en, type MessageId } from "~/locales/en";

/**
 * Every catalog says what the English one says: the same keys, messages that
 * parse as ICU MessageFormat, the same placeholders and tags (a translation
 * that drops `{name}` or `<b>` would show a sentence without its person or its
 * emphasis), and an `other` form for every plural.
 */

const KEYS = Object.keys(en) as MessageId[];

/** The placeholders and tags a message uses, each once, sorted. */
function partsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (isArgumentElement(element)) into.add(`{${element.value}}`);
    if (isNumberElement(element)) into.add(`{${element.value}, number}`);
    if (isDateElement(element)) into.add(`{${element.value}, date}`);
    if (isPluralElement(element) || isSelectElement(element)) {
      into.add(`{${element.value}, ${isPluralElement(element) ? "plural" : "select"}}`);
      for (const option of Object.values(element.options)) partsOf(option.value, into);
    }
    if (isTagElement(element)) {
      into.add(`<${element.value}>`);
      partsOf(element.children, into);
    }
  }
  return into;
}

function pluralsHaveOther(elements: MessageFormatElement[]): boolean {
  return elements.every((element) => {
    if (isPluralElement(element) || isSelectElement(element)) {
      return "other" in element.options && Object.values(element.options).every((o) => pluralsHaveOther(o.value));
    }
    return isTagElement(element) ? pluralsHaveOther(element.children) : true;
  });
}

/** Values for every placeholder any message has: each message formats with them. */
const SAMPLE = {
  name: "Amélie",
  brand: "Acme",
  company: "Acme",
  owner: "Amélie Laurent",
  theme: "Dark",
  count: 3,
  months: 12,
  max: 1000,
  host: "acme.example",
};

describe.each(LOCALES)("the %s catalog", (locale) => {
  const catalog = CATALOGS[locale];
  const intl = createIntl({ locale, messages: catalog, onError: (error) => expect.fail(error.message) });

  it("has every key the English catalog has, and no other", () => {
    expect(Object.keys(catalog).sort()).toEqual([...KEYS].sort());
  });

  it.each(KEYS)("says %s with English's placeholders and tags, in a message that parses", (key) => {
    const message = catalog[key];
    expect(message.trim()).not.toBe("");
    const elements = parse(message);
    expect([...partsOf(elements)].sort()).toEqual([...partsOf(parse(en[key]))].sort());
    expect(pluralsHaveOther(elements)).toBe(true);
    const formatted = intl.formatMessage({ id: key }, { ...SAMPLE, b: (chunks: string[]) => chunks.join("") });
    expect(String(formatted)).not.toMatch(/[{}<>]/);
  });
});

describe("messages in use", () => {
  it("name the card's owner, count in the language's own plural, and give the form's consent its months", () => {
    expect(translate("de", "card.shareDetails", { name: "Jonas" })).toBe("Ihre Kontaktdaten an Jonas senden");
    expect(translate("en", "card.views", { count: 1 })).toBe("view");
    expect(translate("en", "card.views", { count: 2 })).toBe("views");
    expect(translate("de", "card.views", { count: 1 })).toBe("Aufruf");
    expect(translate("ar", "card.views", { count: 4 })).toBe("مشاهدات");
    expect(translate("en", "lead.consent", { owner: "Ana Silva", company: "Acme", months: 1 })).toContain(
      "Acme keeps them for 1 month at most",
    );
    expect(translate("en", "lead.error.tooLong.message", { max: 1000 })).toBe(
      "Use at most 1,000 characters for the note",
    );
    expect(translate("de", "lead.error.tooLong.message", { max: 1000 })).toBe(
      "Die Notiz darf höchstens 1.000 Zeichen lang sein",
    );
    expect(translate("ja", "lead.consent", { owner: "佐藤 浩", company: "Acme", months: 12 })).toContain("12か月");
  });
});
