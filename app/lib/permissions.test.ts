import { describe, expect, it } from "vitest";
import { can } from "./permissions";

describe("permissions by role", () => {
  it("lets members edit only their own card and never see claim status", () => {
    expect(can("member", "update:profile:own")).toBe(true);
    expect(can("member", "update:profile:any")).toBe(false);
    expect(can("member", "read:claim-status:any")).toBe(false);
    expect(can("member", "manage:brand:any")).toBe(false);
    expect(can("member", "deactivate:profile:any")).toBe(false);
  });

  it("lets administrators manage everything", () => {
    for (const permission of [
      "update:profile:any",
      "delete:profile:any",
      "deactivate:profile:any",
      "create:profile:any",
      "manage:brand:any",
      "read:analytics:any",
      "update:settings:any",
      "read:claim-status:any",
    ] as const) {
      expect(can("admin", permission)).toBe(true);
    }
  });

  it("gives a visitor nothing", () => {
    expect(can(null, "read:directory:any")).toBe(false);
  });
});
