import { ErrorList } from "~/components/forms";

type Listed = {
  field: string;
  label: string;
  values: { value: string; rows: number; importedAs: string }[];
  more: number;
};

/**
 * The office, department and brand values of a file, each with the value it is imported as:
 * giving two the same one merges them ("Tokyo Office" as "Tokyo"). Each box is named by its
 * field and place in the list (`mergeTo.office.2`); the server reads the list again.
 */
export function ImportValues({
  listed,
  errors,
}: {
  listed: Listed[];
  errors: Record<string, string[] | undefined> | undefined;
}) {
  if (listed.length === 0) return null;
  return (
    <div className="space-y-4 border-t border-slate-200 pt-4 dark:border-slate-800">
      <div>
        <h3 className="font-medium">Values</h3>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          The same place or team written two ways becomes one: import “Tokyo Office” as “Tokyo”, say. A box left as it
          is, or emptied, keeps the file's value.
        </p>
      </div>
      {listed.map(({ field, label, values, more }) => (
        <fieldset key={field}>
          <legend className="text-sm font-semibold">{label}</legend>
          {values.length === 0 ? null : (
            <table className="mt-2 w-full table-fixed text-sm">
              {/* The same columns in every field's table, so the boxes line up. */}
              <colgroup>
                <col className="w-1/2 sm:w-2/5" />
                <col />
              </colgroup>
              <thead className="sr-only sm:not-sr-only">
                <tr className="text-left text-slate-500 dark:text-slate-400">
                  <th scope="col" className="py-1 pr-3 font-medium">
                    In the file
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Imported as
                  </th>
                </tr>
              </thead>
              <tbody>
                {values.map(({ value, rows, importedAs }, position) => {
                  const name = `mergeTo.${field}.${position}`;
                  const id = `field-mergeTo-${field}-${position}`;
                  const error = errors?.[name];
                  return (
                    <tr key={value} className="border-t border-slate-100 align-top dark:border-slate-800">
                      <th scope="row" className="py-2 pr-3 text-left font-normal">
                        <span className="break-words">{value}</span>
                        <span className="ml-2 text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">
                          {rows === 1 ? "1 row" : `${rows.toLocaleString("en-US")} rows`}
                        </span>
                      </th>
                      <td className="py-1.5">
                        <input
                          id={id}
                          name={name}
                          defaultValue={importedAs}
                          aria-label={`${label} “${value}” imported as`}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${id}-error` : undefined}
                          className="h-9 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-900"
                        />
                        <ErrorList id={`${id}-error`} errors={error} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          {more > 0 ? (
            <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
              {more.toLocaleString("en-US")} more {more === 1 ? "value is" : "values are"} imported as the file writes
              them: merge the listed ones first, or correct the file.
            </p>
          ) : null}
        </fieldset>
      ))}
    </div>
  );
}
