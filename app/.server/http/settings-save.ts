import { failureFrom } from "./responses";
import { redirectWithToast } from "./toast";

/** The tabs of /admin/settings whose forms save, each at its own address. */
export type SettingsTab = "general" | "branding" | "legal" | "invitations" | "joining" | "fields" | "security";

/**
 * The response to every settings tab's Save: back to the tab with the
 * toast, or the form again with its messages and what was typed (a database
 * that does not answer, or a full disk, as `failureFrom` says).
 */
export async function respondToSettingsSave(
  tab: SettingsTab,
  values: Record<string, string>,
  save: () => Promise<void>,
) {
  try {
    await save();
    return redirectWithToast(`/admin/settings/${tab}`, { text: "Settings saved successfully!" });
  } catch (error) {
    return failureFrom(error, { values, unexpected: "Failed to save settings. Please try again." });
  }
}
