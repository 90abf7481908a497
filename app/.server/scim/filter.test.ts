import { describe, expect, it } from "vitest";
import { pagingOf, parseFilter } from "./filter";

describe("SCIM filters", () => {
  it("reads the eq filters Microsoft and Okta send, quoted or not, joined by and", () => {
    expect(parseFilter('userName eq "Test_User@contoso.com"')).toEqual([
      { attribute: "userName", value: "Test_User@contoso.com" },
    ]);
    expect(parseFilter("externalId eq jyoung")).toEqual([{ attribute: "externalId", value: "jyoung" }]);
    expect(parseFilter('emails[type eq "work"].value eq "a@b.example"')).toEqual([
      { attribute: "emails.value", value: "a@b.example" },
    ]);
    expect(parseFilter('id eq "g" and members eq "u"')).toEqual([
      { attribute: "id", value: "g" },
      { attribute: "members.value", value: "u" },
    ]);
    expect(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName EQ "x" AND active eq true')).toEqual([
      { attribute: "userName", value: "x" },
      { attribute: "active", value: true },
    ]);
  });

  it("refuses or, not, other operators, unknown attributes, a dangling and, and NUL characters", () => {
    for (const filter of [
      'userName eq "x" or 1 eq 1',
      'not (userName eq "x")',
      'userName co "x"',
      "userName pr",
      'title eq "x"',
      'userName eq "x" and',
      'userName eq "\\u0000"',
      "",
      "x".repeat(1_001),
    ]) {
      expect(() => parseFilter(filter), filter).toThrow(expect.objectContaining({ scimType: "invalidFilter" }));
    }
  });

  it("pages from a 1-based startIndex and caps count at 200", () => {
    expect(pagingOf("1", "1")).toEqual({ offset: 0, limit: 1 });
    expect(pagingOf("0", "100000")).toEqual({ offset: 0, limit: 200 });
    expect(pagingOf("-5", "-1")).toEqual({ offset: 0, limit: 0 });
    expect(pagingOf("11", null)).toEqual({ offset: 10, limit: 200 });
    expect(pagingOf("abc", "x")).toEqual({ offset: 0, limit: 200 });
  });
});
