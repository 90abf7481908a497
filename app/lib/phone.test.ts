import { describe, expect, it } from "vitest";
import { splitPhone, telHref } from "./phone";

describe("phone numbers with extensions", () => {
  it.each([
    ["+49 30 1234 5678 ext. 9999", "+49 30 1234 5678", "9999", "tel:+493012345678;ext=9999"],
    ["+1 (555) 010-0000 x12", "+1 (555) 010-0000", "12", "tel:+15550100000;ext=12"],
    ["+1 555 0100 #7", "+1 555 0100", "7", "tel:+15550100;ext=7"],
    ["+1 555 0100;ext=42", "+1 555 0100", "42", "tel:+15550100;ext=42"],
    ["+33 1 23 45 67 89", "+33 1 23 45 67 89", null, "tel:+33123456789"],
  ])("%s dials %s then %s", (typed, number, extension, href) => {
    expect(splitPhone(typed)).toEqual({ number, extension });
    expect(telHref(typed)).toBe(href);
  });
});
