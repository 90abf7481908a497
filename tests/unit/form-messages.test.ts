import { describe, expect, it } from "vitest";
import { BrandSchema } from "../../app/.server/brands/schemas";
import { fieldErrors } from "../../app/.server/platform/validation";
import { CreateProfileSchema, ProfileFieldsSchema } from "../../app/.server/profiles/schemas";
import { BrandingSettingsSchema, GeneralSettingsSchema } from "../../app/.server/settings/schemas";

const PROFILE = {
  firstName: "Amelia",
  lastName: "Hart",
  username: "amelia.hart",
  email: "amelia@example.com",
};

function errorsOf(schema: { safeParse: (v: unknown) => { error?: import("zod").ZodError } }, values: unknown) {
  const { error } = schema.safeParse(values);
  return error ? fieldErrors(error) : {};
}

/** Words that describe a fault instead of saying what to do. */
const FAULT_WORDING = /\b(is too long|is required|invalid|must be|cannot|can't)\b/i;

describe("form messages say what to do, one per field", () => {
  it("asks for a hex colour whatever is wrong with a settings colour, long values included", () => {
    for (const typed of ["#ff00001", "orange", "#12345", "#f97316f97316"]) {
      expect(errorsOf(BrandingSettingsSchema, { accentColor: typed }).accentColor).toEqual([
        "Use a hex colour such as #f97316",
      ]);
    }
    expect(errorsOf(BrandingSettingsSchema, { accentColor: "#F97316" }).accentColor).toBeUndefined();
  });

  it("gives each field one instruction at a time, the first rule it fails", () => {
    const errors = errorsOf(ProfileFieldsSchema, {
      ...PROFILE,
      firstName: "",
      email: "not an address",
      username: "",
      title: "x".repeat(101),
      linkedinUrl: "in/amelia",
      phone: "call me",
    });
    expect(errors).toEqual({
      firstName: ["Enter a first name"],
      username: ["Enter a username"],
      email: ["Enter an email address such as name@company.com"],
      title: ["Use at most 100 characters for the job title"],
      phone: ["Enter a phone number such as +49 30 1234 5678 (digits, spaces, + ( ) -), and an extension as ext. 123"],
      linkedinUrl: ["Enter the whole address, starting with https://, such as https://www.linkedin.com/in/your-name"],
    });
    // A field that may be left blank still gets its own instruction when filled wrongly.
    expect(errorsOf(CreateProfileSchema, { ...PROFILE, username: "Amelia Hart!" }).username).toEqual([
      "Use letters, numbers, dots, dashes or underscores, starting with a letter or number",
    ]);
    expect(CreateProfileSchema.parse({ ...PROFILE, username: " " }).username).toBeNull();
    for (const [field, messages] of Object.entries(errors)) {
      expect(messages, field).toHaveLength(1);
      expect(messages?.[0], field).not.toMatch(FAULT_WORDING);
    }
  });

  it("words brand and settings messages as instructions too, keeping the brand name's own message", () => {
    const brand = errorsOf(BrandSchema, { name: "", primaryColor: "blue", secondaryColor: "", website: "ftp://x" });
    expect(brand).toEqual({
      name: ["Brand name is required"],
      primaryColor: ["Use a hex colour such as #3b82f6"],
      secondaryColor: ["Choose a secondary colour"],
      website: ["Enter the whole address, starting with https://, such as https://www.example.com"],
    });
    const settings = errorsOf(GeneralSettingsSchema, {
      companyName: "x".repeat(81),
      email: "someone@",
      website: "example",
      description: "bad\u0000text",
    });
    expect(settings).toEqual({
      companyName: ["Use at most 80 characters for the company name"],
      email: ["Enter an email address such as name@company.com"],
      website: ["Enter the whole address, starting with https://, such as https://www.example.com"],
      description: [
        "Remove the control characters from the description: only letters, numbers, punctuation and line breaks can be used",
      ],
    });
  });
});
