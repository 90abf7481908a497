import { TriangleAlert } from "lucide-react";
import { useState } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { Button } from "../ui/button";
import { Confirm } from "../ui/dialog";

const OUTSIDE_FORM = "outside-accounts";

type OutsideAccountRow = { profileId: string; username: string; name: string; email: string; joinedAt: string };
export type Outside = { total: number; ids: string[]; shown: OutsideAccountRow[] };

/**
 * The people who joined by themselves and whom the saved rule leaves outside,
 * with one step to deactivate them all. Its form stands outside the settings
 * form (forms cannot nest); the button names it.
 */
export function OutsideAccounts({ outside }: { outside: Outside }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [confirming, setConfirming] = useState(false);
  if (outside.total === 0) return null;
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "deactivate-outside";
  const count = outside.total === 1 ? "1 account" : `${outside.total} accounts`;
  return (
    <section aria-labelledby="outside-title" className="space-y-4 border-t border-slate-200 pt-5 dark:border-slate-800">
      <div className="flex gap-3">
        <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400" />
        <div className="space-y-1">
          <h2 id="outside-title" className="text-base font-semibold">
            {outside.total === 1
              ? "1 person who joined is outside the saved rule"
              : `${outside.total} people who joined are outside the saved rule`}
          </h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            They made their accounts themselves and could not join today. Deactivating signs them out at once and hides
            their cards; you can reactivate any of them under Manage Profiles.
          </p>
        </div>
      </div>
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-slate-600 dark:bg-slate-950 dark:text-slate-400">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Name
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Email
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Joined
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {outside.shown.map((account) => (
              <tr key={account.profileId}>
                <td className="px-4 py-2">
                  <Link to={`/profile/${account.username}`} className="font-medium text-brand-ink hover:underline">
                    {account.name}
                  </Link>
                </td>
                <td className="px-4 py-2 break-all">{account.email}</td>
                <td className="px-4 py-2 whitespace-nowrap">{account.joinedAt.slice(0, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {outside.total > outside.shown.length ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">And {outside.total - outside.shown.length} more.</p>
      ) : null}
      <Button
        type="submit"
        form={OUTSIDE_FORM}
        variant="destructive"
        disabled={busy}
        onClick={(event) => {
          // With JavaScript the choice is confirmed first; without it the button sends the form at once.
          event.preventDefault();
          setConfirming(true);
        }}
      >
        {busy ? "Deactivating..." : `Deactivate these ${count}`}
      </Button>
      <Confirm
        open={confirming}
        onOpenChange={setConfirming}
        title={`Deactivate ${count}?`}
        confirmLabel={`Deactivate ${count}`}
        busy={busy}
        onConfirm={() => {
          setConfirming(false);
          const form = document.getElementById(OUTSIDE_FORM);
          if (form instanceof HTMLFormElement) submit(form);
        }}
      >
        <p>They are signed out at once and their cards are hidden from the directory and the web.</p>
      </Confirm>
    </section>
  );
}

/** The deactivation form: a sibling of the settings form, since forms cannot nest. */
export function OutsideAccountsForm({ ids }: { ids: string[] }) {
  if (ids.length === 0) return null;
  return (
    <Form id={OUTSIDE_FORM} method="post" encType="multipart/form-data" hidden>
      <input type="hidden" name="intent" value="deactivate-outside" />
      <input type="hidden" name="profileIds" value={ids.join(",")} />
    </Form>
  );
}
