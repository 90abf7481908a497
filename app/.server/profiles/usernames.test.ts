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

  it.each([
    // Transliteration would guess: the address says how the person writes their name.
    ["浩", "佐藤", "hiroshi.sato@example.jp", "hiroshi.sato"],
    ["ليلى", "حداد", "layla.haddad@example.ae", "layla.haddad"],
    ["민준", "김", "minjun.kim@example.kr", "minjun.kim"],
    // It reads right, or there is no usable address: the name.
    ["Юлия", "Петрова", "y.petrova@example.ru", "yuliya.petrova"],
    ["Ada", "Lovelace", "countess@example.com", "ada.lovelace"],
    ["李", "", "12345@example.cn", "li"],
    ["浩", "佐藤", null, "hao.zuoteng"],
  ])("%s %s with %s becomes %s", (first, last, email, expected) => {
    expect(usernameBase(first, last, email)).toBe(expected);
  });
});
