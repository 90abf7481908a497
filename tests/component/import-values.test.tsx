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

  it("lists each field's values with their rows and a box for what each is imported as, named by field and place", () => {
    render(<ImportValues listed={listed} errors={{ "mergeTo.department.1": ["At most 100 characters"] }} />);
    const office = screen.getByRole("group", { name: "Office" });
    expect(within(office).getByRole("rowheader", { name: "Tokyo Office 12 rows" })).toBeDefined();
    const merged = within(office).getByRole("textbox", {
      name: "Office “Tokyo Office” imported as",
    }) as HTMLInputElement;
    expect(merged.name).toBe("mergeTo.office.1");
    expect(merged.value).toBe("Tokyo");

    const department = screen.getByRole("group", { name: "Department" });
    const refused = within(department).getByRole("textbox", { name: "Department “sales” imported as" });
    expect(refused.getAttribute("name")).toBe("mergeTo.department.1");
    expect(refused.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(refused.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "At most 100 characters",
    );
    expect(
      within(department).getByText(
        "4 more values are imported as the file writes them: merge the listed ones first, or correct the file.",
      ),
    ).toBeDefined();
  });

  it("shows nothing when no column holds values to merge", () => {
    const { container } = render(<ImportValues listed={[]} errors={undefined} />);
    expect(container.innerHTML).toBe("");
  });
});
