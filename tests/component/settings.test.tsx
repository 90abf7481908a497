import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { BrandingFields, type BrandingValues, type SiteImageUrls } from "~/components/settings/branding-fields";
import { FieldPoliciesPanel } from "~/components/settings/field-policies-panel";
import { GeneralFields, type GeneralValues } from "~/components/settings/general-fields";
import { JoinRuleFields, type JoinValues } from "~/components/settings/join-rule-fields";
import { EraseLeadsForm, LegalFields, type LegalValues } from "~/components/settings/legal-fields";
import { type Outside, OutsideAccounts, OutsideAccountsForm } from "~/components/settings/outside-accounts";
import { ReminderFields, type ReminderValues } from "~/components/settings/reminder-fields";
import { SecurityPanel } from "~/components/settings/security-panel";
import { SettingsForm } from "~/components/settings/settings-form";
import { DEFAULT_FIELD_POLICIES } from "~/lib/card-fields";
import { renderTab, sentFields, type TabPage } from "./settings-stub";

// Each page below is what its route module renders from its loader's data and its action's answer.
const General: TabPage<{ values: GeneralValues }> = ({ data, failure }) => (
  <SettingsForm failure={failure}>
    <GeneralFields values={{ ...data.values, ...failure?.values }} errors={failure?.fieldErrors} />
  </SettingsForm>
);
const Branding: TabPage<{ values: BrandingValues; images: SiteImageUrls; savedAt: string }> = ({ data, failure }) => (
  <SettingsForm failure={failure}>
    <BrandingFields
      values={{ ...data.values, ...failure?.values }}
      images={data.images}
      savedAt={data.savedAt}
      errors={failure?.fieldErrors}
    />
  </SettingsForm>
);
const Legal: TabPage<{ values: LegalValues }> = ({ data, failure }) => (
  <>
    <SettingsForm failure={failure}>
      <LegalFields values={{ ...data.values, ...failure?.values }} errors={failure?.fieldErrors} />
    </SettingsForm>
    <EraseLeadsForm />
  </>
);
const Invitations: TabPage<{ values: ReminderValues }> = ({ data, failure }) => (
  <SettingsForm failure={failure}>
    <ReminderFields values={{ ...data.values, ...failure?.values }} errors={failure?.fieldErrors} />
  </SettingsForm>
);
const Joining: TabPage<{ values: JoinValues; outside: Outside }> = ({ data, failure }) => (
  <>
    <SettingsForm failure={failure}>
      <JoinRuleFields values={{ ...data.values, ...failure?.values }} errors={failure?.fieldErrors} />
      <OutsideAccounts outside={data.outside} />
    </SettingsForm>
    <OutsideAccountsForm ids={data.outside.ids} />
  </>
);
const Fields: TabPage<{ fieldPolicies: typeof DEFAULT_FIELD_POLICIES }> = ({ data, failure }) => (
  <SettingsForm failure={failure}>
    <FieldPoliciesPanel policies={data.fieldPolicies} values={failure?.values ?? {}} errors={failure?.fieldErrors} />
  </SettingsForm>
);
const Security: TabPage<{ adminEmail: string; adminCount: number; ssoProviders: string[] }> = ({ data }) => (
  <SecurityPanel {...data} />
);

const GENERAL: GeneralValues = {
  companyName: "",
  website: "",
  email: "",
  phone: "",
  description: "",
  address: "",
  deactivatedCards: "gone",
  defaultLocale: "",
};
const REMINDERS: ReminderValues = { autoReminders: "", reminderAfterDays: "7", reminderMaxCount: "3" };
const LEGAL: LegalValues = {
  showStatsToVisitors: "shown",
  leadRetentionMonths: "24",
  adminsSeeLeads: "",
  termsOfService: "",
  privacyPolicy: "",
};
const NO_IMAGES: SiteImageUrls = { primaryLogo: null, darkModeLogo: null, favicon: null, footerLogo: null };

/** An action that answers a failed save, as the routes do: the messages and what was typed. */
function refusing(fieldErrors: Record<string, string[]>) {
  return vi.fn(async ({ request }: { request: Request }) => ({ fieldErrors, values: await sentFields(request) }));
}

describe("the settings' tabs", () => {
  it("are links, the current one marked for screen readers, and lead from tab to tab", async () => {
    await renderTab("general", General, { values: GENERAL });
    const tabs = within(screen.getByRole("navigation", { name: "Settings" })).getAllByRole("link");
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      "General",
      "Branding",
      "Legal & privacy",
      "Invitations",
      "Who can join",
      "Card fields",
      "Security",
    ]);
    expect(tabs.map((tab) => tab.getAttribute("href"))).toEqual(
      ["general", "branding", "legal", "invitations", "joining", "fields", "security"].map(
        (tab) => `/admin/settings/${tab}`,
      ),
    );
    expect(screen.getByRole("link", { name: "General" }).getAttribute("aria-current")).toBe("page");
    expect(tabs.filter((tab) => tab.getAttribute("aria-current") === "page")).toHaveLength(1);

    await userEvent.click(screen.getByRole("link", { name: "Branding" }));
    expect(await screen.findByText("The branding tab")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Branding" }).getAttribute("aria-current")).toBe("page");
    expect(screen.getByRole("link", { name: "General" }).getAttribute("aria-current")).toBeNull();
  });

  it("give the security tab no Save: nothing on it is a setting", async () => {
    await renderTab("security", Security, { adminEmail: "ada@example.com", adminCount: 1, ssoProviders: [] });
    expect(screen.getByText("ada@example.com")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Set up single sign-on" }).getAttribute("href")).toBe(
      "/admin/settings/single-sign-on",
    );
    expect(screen.queryByRole("button", { name: "Save Settings" })).toBeNull();
  });
});

describe("a tab's Save", () => {
  it("sends that tab's fields alone, and reads Saving... until the answer comes", async () => {
    let answer: (value: null) => void = () => {};
    const action = vi.fn(async ({ request }: { request: Request }) => {
      sent = await sentFields(request);
      return new Promise<null>((resolve) => {
        answer = resolve;
      });
    });
    let sent: Record<string, string> = {};
    await renderTab("invitations", Invitations, { values: REMINDERS }, action);
    expect(screen.getByLabelText<HTMLInputElement>("Remind after (days)").value).toBe("7");
    expect(screen.getByLabelText<HTMLInputElement>("Reminders at most").value).toBe("3");
    await userEvent.click(screen.getByLabelText("Send reminders automatically"));
    await userEvent.click(screen.getByRole("button", { name: "Save Settings" }));

    const saving = await screen.findByRole("button", { name: "Saving..." });
    expect(saving).toHaveProperty("disabled", true);
    expect(sent).toEqual({ autoReminders: "on", reminderAfterDays: "7", reminderMaxCount: "3" });
    await act(async () => answer(null));
    expect(await screen.findByRole("button", { name: "Save Settings" })).toHaveProperty("disabled", false);
  });

  it("shows each message next to its field, linked to it, keeps what was typed, and lists it above the form", async () => {
    const action = refusing({ reminderAfterDays: ["Enter a whole number of days from 1 to 365"] });
    await renderTab("invitations", Invitations, { values: REMINDERS }, action);
    const after = screen.getByLabelText<HTMLInputElement>("Remind after (days)");
    await userEvent.clear(after);
    await userEvent.type(after, "0");
    await userEvent.click(screen.getByRole("button", { name: "Save Settings" }));

    const message = await screen.findByText("Enter a whole number of days from 1 to 365", { selector: "p" });
    expect(message.id).toBe("field-reminderAfterDays-error");
    const field = screen.getByLabelText<HTMLInputElement>("Remind after (days)");
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(field.getAttribute("aria-describedby")?.split(" ")).toContain("field-reminderAfterDays-error");
    expect(field.value).toBe("0");
    // The summary takes the focus and leads to the field.
    const summary = screen.getByTestId("error-summary");
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect(summary.textContent).toContain("Some fields need your attention. Nothing was saved.");
    await userEvent.click(within(summary).getByRole("link", { name: "Enter a whole number of days from 1 to 365" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Remind after (days)")));
    // The tab stays the one that was saved.
    expect(screen.getByRole("link", { name: "Invitations" }).getAttribute("aria-current")).toBe("page");
  });

  it("says so above the form when the save failed as a whole", async () => {
    const action = vi.fn(() => ({ formError: "Failed to save settings. Please try again." }));
    await renderTab("general", General, { values: GENERAL }, action);
    await userEvent.click(screen.getByRole("button", { name: "Save Settings" }));
    expect(await screen.findByText("Failed to save settings. Please try again.")).toBeTruthy();
  });
});

describe("the General tab", () => {
  it("shows the stored answer for a deactivated card, and the defaults in grey", async () => {
    await renderTab("general", General, { values: { ...GENERAL, deactivatedCards: "brand-website" } });
    expect(screen.getByRole("radio", { name: "A redirect to the card's brand website" })).toHaveProperty(
      "checked",
      true,
    );
    expect(screen.getByLabelText("Company name").getAttribute("placeholder")).toBe("Namecard");
  });

  it("offers the cards' languages each by its own name, marked as written in it", async () => {
    await renderTab("general", General, { values: { ...GENERAL, defaultLocale: "ja" } });
    const choice = screen.getByRole("combobox", { name: "Language of the cards" });
    expect(choice).toHaveProperty("value", "ja");
    const options = [...choice.querySelectorAll("option")].map((option) => [
      option.value,
      option.textContent,
      option.lang,
    ]);
    expect(options[0]).toEqual(["", "English (the default)", ""]);
    expect(options).toContainEqual(["de", "Deutsch", "de"]);
    expect(options).toContainEqual(["ar", "العربية", "ar"]);
  });
});

describe("the Branding tab", () => {
  it("keeps a colour's picker and its text together, and puts a colour's message under it", async () => {
    const action = refusing({ accentColor: ["Use a hex colour such as #f97316"] });
    await renderTab(
      "branding",
      Branding,
      {
        values: { primaryColor: "", secondaryColor: "", accentColor: "", fontFamily: "" },
        images: NO_IMAGES,
        savedAt: "never",
      },
      action,
    );
    expect(screen.getByLabelText<HTMLInputElement>("Accent colour picker").value).toBe("#f97316");
    const accent = screen.getByLabelText<HTMLInputElement>("Accent colour");
    await userEvent.type(accent, "#0f766e");
    expect(screen.getByLabelText<HTMLInputElement>("Accent colour picker").value).toBe("#0f766e");
    await userEvent.clear(accent);
    await userEvent.type(accent, "orange");
    await userEvent.click(screen.getByRole("button", { name: "Save Settings" }));

    const message = await screen.findByText("Use a hex colour such as #f97316", { selector: "p" });
    expect(message.id).toBe("field-accentColor-error");
    const field = screen.getByLabelText<HTMLInputElement>("Accent colour");
    expect(field.value).toBe("orange");
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(field.getAttribute("aria-describedby")).toBe("field-accentColor-error");
    const sent = await action.mock.results[0]?.value;
    expect(sent.values).toMatchObject({ accentColor: "orange", fontFamily: "Inter" });
    expect(sent.values).not.toHaveProperty("companyName");
  });
});

describe("the Legal & privacy tab", () => {
  it("holds the visitors' numbers, the leads' keeping and both legal texts, with room to write them", async () => {
    await renderTab("legal", Legal, { values: { ...LEGAL, showStatsToVisitors: "hidden", adminsSeeLeads: "on" } });
    expect(screen.getByRole("radio", { name: "Only people who are signed in" })).toHaveProperty("checked", true);
    expect(screen.getByLabelText("Administrators may read every card's leads")).toHaveProperty("checked", true);
    expect(screen.getByLabelText<HTMLInputElement>("Keep leads for (months)").value).toBe("24");
    expect(screen.getByLabelText("Terms of service").getAttribute("rows")).toBe("10");
    expect(screen.getByLabelText("Privacy policy").getAttribute("rows")).toBe("10");
  });

  it("asks before erasing a visitor's details, names the address, and erases only when confirmed", async () => {
    const action = vi.fn(async ({ request }: { request: Request }) => {
      erased.push(await sentFields(request));
      return null;
    });
    const erased: Record<string, string>[] = [];
    await renderTab("legal", Legal, { values: LEGAL }, action);
    await userEvent.type(screen.getByLabelText("Visitor's email"), "visitor@example.org");
    await userEvent.click(screen.getByRole("button", { name: "Erase" }));

    const dialog = await screen.findByRole("alertdialog", { name: "Erase this visitor's details?" });
    expect(dialog.textContent).toContain("visitor@example.org");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(action).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Erase" }));
    const again = await screen.findByRole("alertdialog", { name: "Erase this visitor's details?" });
    await userEvent.click(within(again).getByRole("button", { name: "Erase from every card" }));
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    expect(erased).toEqual([{ intent: "erase-leads", eraseEmail: "visitor@example.org" }]);
  });

  it("shows a refused address under its field, and leaves the Save as it is while erasing", async () => {
    const action = refusing({ eraseEmail: ["Enter an email address such as name@company.com"] });
    await renderTab("legal", Legal, { values: LEGAL }, action);
    await userEvent.type(screen.getByLabelText("Visitor's email"), "someone@");
    await userEvent.click(screen.getByRole("button", { name: "Erase" }));
    const dialog = await screen.findByRole("alertdialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Erase from every card" }));

    const message = await screen.findByText("Enter an email address such as name@company.com", { selector: "p" });
    expect(message.id).toBe("field-eraseEmail-error");
    expect(screen.getByLabelText<HTMLInputElement>("Visitor's email").value).toBe("someone@");
    expect(screen.getByRole("button", { name: "Save Settings" })).toHaveProperty("disabled", false);
  });
});

describe("the Who can join tab", () => {
  const OUTSIDE: Outside = {
    total: 2,
    ids: ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"],
    shown: [
      {
        profileId: "00000000-0000-4000-8000-000000000001",
        username: "oscar.outsider",
        name: "Oscar Outsider",
        email: "oscar@gmail.example",
        joinedAt: "2026-01-02T10:00:00.000Z",
      },
      {
        profileId: "00000000-0000-4000-8000-000000000002",
        username: "olga.outsider",
        name: "Olga Outsider",
        email: "olga@gmail.example",
        joinedAt: "2026-01-03T10:00:00.000Z",
      },
    ],
  };

  it("warns while anyone with the link is chosen, and not otherwise", async () => {
    await renderTab("joining", Joining, {
      values: { joinRule: "domains", joinDomains: "example.com" },
      outside: { total: 0, ids: [], shown: [] },
    });
    expect(screen.getByRole("radio", { name: "People with an address at these domains" })).toHaveProperty(
      "checked",
      true,
    );
    expect(screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Domains" }).value).toBe("example.com");
    const warning = /Anyone on the internet who finds the sign-up page/;
    expect(screen.queryByText(warning)).toBeNull();
    await userEvent.click(screen.getByRole("radio", { name: "Anyone who has the link" }));
    expect(screen.getByText(warning)).toBeTruthy();
    await userEvent.click(screen.getByRole("radio", { name: "People with an address at these domains" }));
    expect(screen.queryByText(warning)).toBeNull();
    expect(screen.queryByRole("heading", { name: /outside the saved rule/ })).toBeNull();
  });

  it("lists the people outside the saved rule and asks before deactivating them all", async () => {
    const sent: Record<string, string>[] = [];
    const action = vi.fn(async ({ request }: { request: Request }) => {
      sent.push(await sentFields(request));
      return null;
    });
    await renderTab(
      "joining",
      Joining,
      { values: { joinRule: "invited", joinDomains: "example.com" }, outside: OUTSIDE },
      action,
    );
    expect(screen.getByRole("heading", { name: "2 people who joined are outside the saved rule" })).toBeTruthy();
    expect(screen.getByRole("cell", { name: "oscar@gmail.example" })).toBeTruthy();
    expect(screen.getByRole("cell", { name: "2026-01-03" })).toBeTruthy();

    await userEvent.click(screen.getByRole("button", { name: "Deactivate these 2 accounts" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Deactivate 2 accounts?" });
    expect(dialog.textContent).toContain("They are signed out at once");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(action).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Deactivate these 2 accounts" }));
    const again = await screen.findByRole("alertdialog", { name: "Deactivate 2 accounts?" });
    await userEvent.click(within(again).getByRole("button", { name: "Deactivate 2 accounts" }));
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    expect(sent).toEqual([{ intent: "deactivate-outside", profileIds: OUTSIDE.ids.join(",") }]);
  });

  it("says so for one person, in the singular", async () => {
    await renderTab("joining", Joining, {
      values: { joinRule: "domains", joinDomains: "example.com" },
      outside: { total: 1, ids: [OUTSIDE.ids[0] ?? ""], shown: OUTSIDE.shown.slice(0, 1) },
    });
    expect(screen.getByRole("heading", { name: "1 person who joined is outside the saved rule" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Deactivate these 1 account" })).toBeTruthy();
  });
});

describe("the Card fields tab", () => {
  it("offers each field only the visibilities it allows, and after a refusal shows what was sent with the message", async () => {
    const action = refusing({ "fieldPolicy.office.visibility": ["Choose who sees the office from the list"] });
    await renderTab("fields", Fields, { fieldPolicies: DEFAULT_FIELD_POLICIES }, action);
    expect(within(screen.getByLabelText("Office visibility")).getAllByRole("option")).toHaveLength(2);
    expect(within(screen.getByLabelText("Bio visibility")).getAllByRole("option")).toHaveLength(3);
    await userEvent.click(screen.getByLabelText("Lock Pronouns"));
    await userEvent.click(screen.getByRole("button", { name: "Save Settings" }));

    const message = await screen.findByText("Choose who sees the office from the list", { selector: "p" });
    expect(message.id).toBe("field-fieldPolicy.office.visibility-error");
    expect(screen.getByLabelText("Office visibility").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Lock Pronouns")).toHaveProperty("checked", true);
  });
});
