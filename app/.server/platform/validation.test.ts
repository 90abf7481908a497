import { describe, expect, it } from "vitest";
import { EmailSchema, PasswordSchema, PhoneSchema, safeRedirect } from "./validation";

describe("return addresses after sign-in", () => {
  it.each([
    ["/directory?q=ann", "/directory?q=ann"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example", "/"],
    [null, "/"],
    ["", "/"],
  ])("%j goes to %j", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});

describe("shared field rules", () => {
  it("lower-cases and trims email addresses", () => {
    expect(EmailSchema.parse("  Grace@Example.COM ")).toBe("grace@example.com");
  });

  it("states the minimum password length", () => {
    expect(PasswordSchema.safeParse("1234567").error?.issues[0]?.message).toBe(
      "Use at least 8 characters for the password",
    );
    expect(PasswordSchema.safeParse("12345678").success).toBe(true);
  });

  it("stores an empty phone as null and refuses letters", () => {
    expect(PhoneSchema.parse("")).toBeNull();
    expect(PhoneSchema.parse(" +1 (555) 010-0000 ")).toBe("+1 (555) 010-0000");
    expect(PhoneSchema.safeParse("call me").success).toBe(false);
    for (const typed of [
      "+49 30 1234 5678 ext. 9999",
      "+1 555 0100 x12",
      "+1 555 0100 #12",
      "+1 555 0100 extension 7",
    ]) {
      expect(PhoneSchema.parse(typed)).toBe(typed);
    }
    expect(PhoneSchema.safeParse("+1 555 0100 ext. call").success).toBe(false);
  });
});
