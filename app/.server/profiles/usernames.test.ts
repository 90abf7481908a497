import { describe, expect, it } from "vitest";
import { usernameBase } from "./usernames";

describe("usernames made from a name", () => {
  it.each([
    ["Ada", "Lovelace", "ada.lovelace"],
    ["Mary Ann", "Van Der Berg", "maryann.vanderberg"],
    ["Zoë", "Laurent", "zoe.laurent"],
    ["Liam", "O'Connor", "liam.oconnor"],
    ["José", "García-Pérez", "jose.garcia-perez"],
    ["", "", "member"],
    ["Elif", "Yılmaz", "elif.yilmaz"],
    ["Søren", "Łukasiewicz", "soren.lukasiewicz"],
    ["Đorđe", "Straße", "dorde.strasse"],
    ["Юлия", "Μαρία", "yuliya.maria"],
    ["李", "", "li"],
    ["🙂", "", "member"],
  ])("%s %s becomes %s", (first, last, expected) => {
    expect(usernameBase(first, last)).toBe(expected);
  });
});
