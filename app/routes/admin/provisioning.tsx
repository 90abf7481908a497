import { CircleAlert, History, PlugZap, Users } from "lucide-react";
import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { activeBrandOptions } from "~/.server/brands/list-brands";
import { requirePermission } from "~/.server/http/authz";
import { formText, readForm } from "~/.server/http/form-data";
import { failure, failureFrom } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { env } from "~/.server/platform/env";
import { parseForm } from "~/.server/platform/validation";
import { createConnection, listConnections, revokeConnection } from "~/.server/scim/connections";
import { mapGroupToBrand } from "~/.server/scim/groups";
import { scimAttributeMap } from "~/.server/scim/users";
import { BackLink } from "~/components/back-link";
import { CopyField } from "~/components/copy-field";
import { EmptyState } from "~/components/empty-state";
import { FormAlert } from "~/components/form-alert";
import { ErrorList, Field } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { Confirm } from "~/components/ui/dialog";
import { useDialogFetcher } from "~/components/use-dialog-fetcher";
import { AUDIT_ACTION_LABELS, isAuditAction } from "~/lib/audit";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/provisioning";

export const meta: Route.MetaFunction = () => [{ title: "Provisioning" }];

const PAGE = "/admin/settings/provisioning";
/** A moment as the page shows it (components/local-time.tsx), in the viewer's time zone. */
const when = (date: Date | null) => (date ? date.toISOString() : null);

export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  const [connections, brandOptions] = await Promise.all([listConnections(), activeBrandOptions()]);
  return {
    baseUrl: `${env.PUBLIC_URL}/scim/v2`,
    attributes: scimAttributeMap(),
    brands: brandOptions.map((brand) => ({ value: String(brand.id), label: brand.name })),
    connections: connections.map((connection) => ({
      id: connection.id,
      name: connection.name,
      created: when(connection.createdAt),
      lastUsed: when(connection.lastUsedAt),
      revoked: when(connection.revokedAt),
      people: connection.people,
      activity: connection.activity.map((entry) => ({
        when: when(entry.at),
        what: `${isAuditAction(entry.action) ? AUDIT_ACTION_LABELS[entry.action] : entry.action} ${entry.label}`,
      })),
      errors: connection.errors.map((entry) => ({
        when: when(entry.at),
        what: `${entry.method} ${entry.path} → ${entry.status}: ${entry.detail}`,
      })),
      groups: connection.groups.map((group) => ({
        id: group.id,
        name: group.name,
        brandId: group.brandId === null ? "" : String(group.brandId),
      })),
    })),
  };
}

const IdSchema = z.object({ id: z.uuid("Reload the page and try again") });
const MappingSchema = z.object({
  groupId: z.uuid("Reload the page and try again"),
  brandId: z.union([z.literal(""), z.coerce.number().int().positive()]),
});

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const values = formText(await readForm(request));
  if (values.intent === "create") {
    try {
      const { connection, token } = await createConnection(viewer, values.name ?? "");
      // Shown on this answer only: the token is stored nowhere but as its hash.
      return { created: { name: connection.name, token } };
    } catch (error) {
      return failureFrom(error, { values: { name: values.name ?? "" } });
    }
  }
  if (values.intent === "revoke") {
    try {
      const revoked = await revokeConnection(viewer, parseForm(IdSchema, values).id);
      return redirectWithToast(PAGE, {
        text: `${revoked.name} is revoked: its token no longer works. Its people's cards stay as they are.`,
      });
    } catch (error) {
      return failureFrom(error, { notFound: "This connection was already revoked." });
    }
  }
  if (values.intent === "map") {
    try {
      const { groupId, brandId } = parseForm(MappingSchema, values);
      await mapGroupToBrand(viewer, groupId, brandId === "" ? null : brandId);
      return redirectWithToast(PAGE, {
        text:
          brandId === "" ? "The group gives no brand now." : "The group's members now carry its brand on their cards.",
      });
    } catch (error) {
      return failureFrom(error, { notFound: "This group or brand was removed meanwhile. Reload the page." });
    }
  }
  return failure(400, { formError: "Unknown action." });
}

type Connection = Route.ComponentProps["loaderData"]["connections"][number];

export default function Provisioning({ loaderData, actionData }: Route.ComponentProps) {
  const { baseUrl, connections, brands } = loaderData;
  const [revoking, setRevoking] = useState<Connection | null>(null);
  const revoker = useDialogFetcher(() => setRevoking(null));
  const created = actionData && "created" in actionData ? actionData.created : null;
  const failed = actionData && !("created" in actionData) ? actionData : undefined;

  return (
    <div className="max-w-4xl">
      <BackLink to="/admin/settings/security">Settings</BackLink>
      <PageHeader
        title="Provisioning"
        description="Let your identity provider, such as Microsoft Entra ID or Okta, create, update and switch off cards by itself through SCIM 2.0: people who join get a card, people who leave are switched off the hour they leave."
      />

      {created ? (
        <section
          aria-labelledby="token-title"
          className="mb-8 space-y-4 rounded-2xl border border-emerald-300 bg-emerald-50 p-6 dark:border-emerald-800 dark:bg-emerald-950/40"
        >
          <h2 id="token-title" className="text-lg font-semibold">
            {created.name} is connected
          </h2>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Enter these two values in your provider's provisioning settings. Copy the token now:{" "}
            <strong>it is shown only this once</strong>. If it is lost, revoke this connection and create another.
          </p>
          <CopyField id="created-base-url" label="SCIM base URL (tenant URL)" value={baseUrl} />
          <CopyField id="created-token" label="Bearer token (secret token)" value={created.token} />
        </section>
      ) : null}

      <section aria-labelledby="connections-title" className="mb-10 space-y-4">
        <h2 id="connections-title" className="text-lg font-semibold">
          Connections
        </h2>
        {connections.length === 0 ? (
          <EmptyState
            Icon={PlugZap}
            title="No connection yet"
            text="Create one below, then enter its address and token in your identity provider."
          />
        ) : (
          <ul className="space-y-4">
            {connections.map((connection) => (
              <li key={connection.id}>
                <ConnectionCard connection={connection} brands={brands} onRevoke={() => setRevoking(connection)} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <NewConnection baseUrl={baseUrl} failure={failed} />

      <AttributeMap attributes={loaderData.attributes} />

      <Confirm
        open={revoking !== null}
        onOpenChange={(open) => (open ? null : setRevoking(null))}
        title={`Revoke ${revoking?.name ?? "this connection"}?`}
        confirmLabel="Revoke token"
        busy={revoker.busy}
        onConfirm={() => {
          if (revoking) revoker.submit({ intent: "revoke", id: revoking.id }, { method: "post" });
        }}
      >
        <p>
          Its token stops working at once: the provider can no longer create, change or switch off cards.{" "}
          {revoking?.people === 1
            ? "The card it provisioned stays as it is."
            : `The ${revoking?.people ?? 0} cards it provisioned stay as they are.`}
        </p>
        {revoker.failure?.formError ? <ErrorList errors={[revoker.failure.formError]} /> : null}
      </Confirm>
    </div>
  );
}

/** What each SCIM attribute becomes on a card, as the provisioning code reads it today. */
function AttributeMap({ attributes }: { attributes: { attribute: string; field: string }[] }) {
  return (
    <section aria-labelledby="attributes-title" className="mt-10 space-y-3">
      <h2 id="attributes-title" className="text-lg font-semibold">
        What Namecard reads from your provider
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Each SCIM attribute and the card field it fills. A value the card's form would refuse is left off the card;
        other attributes are accepted and ignored.
      </p>
      <div className="overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-800">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-slate-700 dark:bg-slate-900 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                SCIM attribute
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Card field
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {attributes.map((row) => (
              <tr key={row.field}>
                <td className="px-4 py-2 font-mono text-xs wrap-anywhere text-slate-800 dark:text-slate-200">
                  {row.attribute}
                </td>
                <td className="px-4 py-2 text-slate-800 dark:text-slate-200">{row.field}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const BADGE = "rounded-full px-2.5 py-0.5 text-xs font-medium";

function ConnectionCard({
  connection,
  brands,
  onRevoke,
}: {
  connection: Connection;
  brands: { value: string; label: string }[];
  onRevoke: () => void;
}) {
  return (
    <article className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-base font-semibold">{connection.name}</h3>
            {connection.revoked ? (
              <span className={`${BADGE} bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300`}>
                Revoked
              </span>
            ) : (
              <span className={`${BADGE} bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300`}>
                Active
              </span>
            )}
          </div>
          <p className="flex items-center gap-1.5 text-sm text-slate-600 dark:text-slate-400">
            <Users aria-hidden className="size-4" />
            {connection.people === 1 ? "1 person provisioned" : `${connection.people} people provisioned`}
          </p>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Created {connection.created ? <LocalTime at={connection.created} /> : null} ·{" "}
            {connection.lastUsed ? (
              <>
                last used <LocalTime at={connection.lastUsed} />
              </>
            ) : (
              "not used yet"
            )}
            {connection.revoked ? (
              <>
                {" "}
                · revoked <LocalTime at={connection.revoked} />
              </>
            ) : null}
          </p>
        </div>
        {connection.revoked ? null : (
          <Button variant="destructive-outline" size="sm" onClick={onRevoke} className="shrink-0">
            Revoke<span className="sr-only"> {connection.name}</span>
          </Button>
        )}
      </div>

      {connection.errors.length > 0 ? (
        <details className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40">
          <summary className="flex cursor-pointer items-center gap-1.5 font-medium text-amber-900 dark:text-amber-200">
            <CircleAlert aria-hidden className="size-4" />
            {connection.errors.length === 1
              ? "1 recent refused request"
              : `${connection.errors.length} recent refused requests`}
          </summary>
          <ul className="mt-2 space-y-1 text-slate-700 dark:text-slate-300">
            {connection.errors.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, newest first, never reordered on the page
              <li key={index} className="wrap-anywhere">
                <LocalTime at={entry.when ?? ""} className="text-slate-500 dark:text-slate-400" /> {entry.what}
              </li>
            ))}
          </ul>
        </details>
      ) : null}

      {connection.activity.length > 0 ? (
        <details className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
          <summary className="flex cursor-pointer items-center gap-1.5 font-medium">
            <History aria-hidden className="size-4" />
            Recent changes
          </summary>
          <ul className="mt-2 space-y-1 text-slate-700 dark:text-slate-300">
            {connection.activity.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, newest first, never reordered on the page
              <li key={index} className="wrap-anywhere">
                <LocalTime at={entry.when ?? ""} className="text-slate-500 dark:text-slate-400" /> {entry.what}
              </li>
            ))}
          </ul>
          <Link
            to={`/admin/audit?actor=${encodeURIComponent(`scim:${connection.id}`)}`}
            className="mt-2 inline-block font-medium text-[var(--color-brand-text)] underline-offset-2 hover:underline"
          >
            All of {connection.name}'s changes in the audit log
          </Link>
        </details>
      ) : null}

      {connection.groups.length > 0 ? <GroupBrands groups={connection.groups} brands={brands} /> : null}
    </article>
  );
}

function GroupBrands({ groups, brands }: { groups: Connection["groups"]; brands: { value: string; label: string }[] }) {
  const navigation = useNavigation();
  const options = [{ value: "", label: "No brand" }, ...brands];
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-semibold">Groups and brands</h4>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Members of a group mapped to a brand carry that brand on their cards. Someone in several mapped groups takes the
        first by name.
      </p>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
        {groups.map((group) => {
          const saving = navigation.formData?.get("groupId") === group.id;
          const selectId = `group-brand-${group.id}`;
          return (
            <li key={group.id}>
              <Form method="post" className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center" preventScrollReset>
                <input type="hidden" name="intent" value="map" />
                <input type="hidden" name="groupId" value={group.id} />
                <label htmlFor={selectId} className="min-w-0 flex-1 text-sm font-medium wrap-anywhere">
                  {group.name}
                </label>
                <select
                  id={selectId}
                  name="brandId"
                  defaultValue={group.brandId}
                  className="h-9 rounded-lg border border-slate-300 bg-white px-2 pr-8 text-sm dark:border-slate-700 dark:bg-slate-950"
                >
                  {options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
                <Button type="submit" variant="secondary" size="sm" disabled={saving}>
                  {saving ? "Saving..." : "Save"}
                  <span className="sr-only"> the brand of {group.name}</span>
                </Button>
              </Form>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function NewConnection({
  baseUrl,
  failure,
}: {
  baseUrl: string;
  failure: Exclude<Route.ComponentProps["actionData"], { created: unknown }> | undefined;
}) {
  const navigation = useNavigation();
  const creating = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  return (
    <section
      aria-labelledby="new-connection-title"
      className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="space-y-1">
        <h2 id="new-connection-title" className="text-lg font-semibold">
          Connect a provider
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          In your provider, add Namecard as an application with SCIM provisioning, and give it this base URL. Create a
          connection here for its token.
        </p>
      </div>
      <CopyField id="base-url" label="SCIM base URL (tenant URL)" value={baseUrl} />
      <Form method="post" noValidate className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value="create" />
        <FormAlert failure={failure} nothingDone="No connection was made." />
        <Field
          label="Name"
          name="name"
          required
          placeholder="Entra ID"
          defaultValue={failure?.values?.name ?? ""}
          hint="How the audit log names the changes this provider makes."
          errors={failure?.fieldErrors?.name}
        />
        <Button type="submit" disabled={creating}>
          <PlugZap aria-hidden className="size-4" />
          {creating ? "Creating..." : "Create connection"}
        </Button>
      </Form>
    </section>
  );
}
