import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ColorField } from "~/components/color-field";

describe("a colour field", () => {
  it("takes a colour typed as hex, shows it in the picker and tells the form beside it", async () => {
    const told = vi.fn();
    render(
      <ColorField name="primaryColor" label="Primary colour" stored="#3b82f6" fallback="#3b82f6" onChange={told} />,
    );
    const typed = screen.getByLabelText("Primary colour", { exact: true });
    await userEvent.clear(typed);
    await userEvent.type(typed, "#0f766e");
    expect(screen.getByLabelText("Primary colour picker")).toHaveProperty("value", "#0f766e");
    expect(told).toHaveBeenLastCalledWith("#0f766e");
    expect(typed).toHaveProperty("name", "primaryColor");
  });
});
