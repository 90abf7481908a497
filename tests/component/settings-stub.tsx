import { render, screen } from "@testing-library/react";
import type { ComponentType } from "react";
import { type ActionFunction, createRoutesStub, useActionData, useLoaderData } from "react-router";
import type { ActionFailure } from "~/lib/action-result";
import SettingsLayout from "~/routes/admin/settings/layout";

/** What a tab's page renders from its loader's data and its action's failure, as its route module does. */
export type TabPage<Data> = ComponentType<{ data: Data; failure: ActionFailure | undefined }>;

/**
 * Renders one settings tab at /admin/settings/<tab>, inside the real settings
 * layout, with its loader answering `data` and its action `action` (by default
 * a save that leaves the page as it is). Every tab is a route, so the tab bar's
 * links lead somewhere.
 */
export async function renderTab<Data>(
  tab: string,
  Page: TabPage<Data>,
  data: Data,
  action: ActionFunction = () => null,
) {
  function Route() {
    const loaded = useLoaderData() as Data;
    const failure = useActionData() as ActionFailure | undefined;
    return <Page data={loaded} failure={failure ?? undefined} />;
  }
  const Stub = createRoutesStub([
    {
      path: "/admin/settings",
      Component: SettingsLayout,
      HydrateFallback: () => null,
      children: ["general", "branding", "legal", "invitations", "joining", "fields", "security"].map((path) =>
        path === tab
          ? { path, Component: Route, loader: () => data, action }
          : { path, Component: () => <p>The {path} tab</p> },
      ),
    },
  ]);
  const view = render(<Stub initialEntries={[`/admin/settings/${tab}`]} />);
  await screen.findByRole("heading", { name: "System Settings" });
  return view;
}

/** The form a stubbed action was sent, as an object of its text fields. */
export async function sentFields(request: Request): Promise<Record<string, string>> {
  const form = await request.formData();
  return Object.fromEntries([...form.entries()].map(([name, value]) => [name, String(value)]));
}
