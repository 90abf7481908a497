import { describe, expect, it } from "vitest";
import { familyNameFirst, fullName, greetingName, initials } from "./names";

describe("a person's name as it is written", () => {
  it.each([
    // Given name first, as the name's own script writes it.
    [{ firstName: "Ada", lastName: "Lovelace" }, "Ada Lovelace", "Ada", "AL"],
    [{ firstName: "Ada", lastName: "" }, "Ada", "Ada", "A"],
    [{ firstName: "Юлия", lastName: "Петрова" }, "Юлия Петрова", "Юлия", "ЮП"],
    [{ firstName: "ليلى", lastName: "حداد" }, "ليلى حداد", "ليلى", "لح"],
    // Family name first, without a space, greeted by the whole name.
    [{ firstName: "浩", lastName: "佐藤" }, "佐藤浩", "佐藤浩", "佐"],
    [{ firstName: "小明", lastName: "王" }, "王小明", "王小明", "王"],
    [{ firstName: "민준", lastName: "김" }, "김민준", "김민준", "김"],
    [{ firstName: "ひろし", lastName: "さとう" }, "さとうひろし", "さとうひろし", "さ"],
    // A romanised East Asian name is written as its owner typed it.
    [{ firstName: "Hiroshi", lastName: "Sato" }, "Hiroshi Sato", "Hiroshi", "HS"],
    [{ firstName: "Hiroshi", lastName: "佐藤" }, "Hiroshi 佐藤", "Hiroshi", "H佐"],
  ])("%o is written %s, greeted as %s, initialled %s", (person, written, greeted, letters) => {
    expect(fullName(person)).toBe(written);
    expect(greetingName(person)).toBe(greeted);
    expect(initials(person)).toBe(letters);
  });

  it("reads the order from the name's script alone", () => {
    expect(familyNameFirst({ firstName: "浩", lastName: "佐藤" })).toBe(true);
    expect(familyNameFirst({ firstName: "Ada", lastName: "Lovelace" })).toBe(false);
    expect(familyNameFirst({ firstName: "", lastName: "" })).toBe(false);
  });
});
