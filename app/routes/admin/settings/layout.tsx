import { Outlet } from "react-router";
import { PageHeader } from "~/components/page-header";
import { SettingsTabs } from "~/components/settings/settings-tabs";

/** The settings screen: its title and tabs; each tab is a page of its own, with its own form. */
export default function SettingsLayout() {
  return (
    <div className="max-w-4xl">
      <PageHeader title="System Settings" description="Company details, branding and legal texts for the whole site." />
      <SettingsTabs />
      <Outlet />
    </div>
  );
}
