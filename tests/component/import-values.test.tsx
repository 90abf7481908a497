import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ImportValues } from "~/components/admin/import-values";

describe("the values of an import to merge", () => {
  const listed = [
    {
      field: "office",
      label: "Office",
      values: [
        { value: "Tokyo", rows: 1, importedAs: "Tokyo" },
        { value: "Tokyo Office", rows: 12, importedAs: "Tokyo" },
      ],
      more: 0,
    },
    {
      field: "department",
      label: "Department",
      values: [
        { value: "Sales", rows: 3, importedAs: "Sales" },
        { value: "sales", rows: 1, importedAs: "sales" },
      ],
      more: 4,
    },
  ];

  it("lists each field's values with their rows and a box for what each is imported as, numbered across the fields", () => {
    const { container } = render(<ImportValues listed={listed} errors={{ "mergeTo.3": ["At most 100 characters"] }} />);
    const office = screen.getByRole("group", { name: "Office" });
    expect(within(office).getByRole("rowheader", { name: "Tokyo Office 12 rows" })).toBeDefined();
    const merged = within(office).getByRole("textbox", {
      name: "Office “Tokyo Office” imported as",
    }) as HTMLInputElement;
    expect(merged.name).toBe("mergeTo.1");
    expect(merged.value).toBe("Tokyo");

    const department = screen.getByRole("group", { name: "Department" });
    const refused = within(department).getByRole("textbox", { name: "Department “sales” imported as" });
    expect(refused.getAttribute("name")).toBe("mergeTo.3");
    expect(refused.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(refused.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "At most 100 characters",
    );
    expect(within(department).getByText("4 more values are imported as the file writes them.")).toBeDefined();

    const hidden = [...container.querySelectorAll<HTMLInputElement>('input[type="hidden"]')].map(
      (input) => `${input.name}=${input.value}`,
    );
    expect(hidden).toEqual([
      "mergeField.0=office",
      "mergeFrom.0=Tokyo",
      "mergeField.1=office",
      "mergeFrom.1=Tokyo Office",
      "mergeField.2=department",
      "mergeFrom.2=Sales",
      "mergeField.3=department",
      "mergeFrom.3=sales",
    ]);
  });

  it("shows nothing when no column holds values to merge", () => {
    const { container } = render(<ImportValues listed={[]} errors={undefined} />);
    expect(container.innerHTML).toBe("");
  });
});
