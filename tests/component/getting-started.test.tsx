import { render, screen, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { GettingStartedPanel } from "~/components/admin/getting-started";

describe("the set-up list", () => {
  it("ticks what is done, links each step left to where it is done, and offers to hide itself", () => {
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () => (
          <GettingStartedPanel setup={{ steps: { company: true, brands: false, joining: true, people: false } }} />
        ),
      },
    ]);
    render(<Stub initialEntries={["/"]} />);
    const list = screen.getByRole("region", { name: "Set up Namecard" });
    expect(within(list).getByText("2 steps left before your people get their cards.")).toBeDefined();
    const steps = within(list).getAllByRole("listitem");
    expect(steps.map((step) => step.querySelector("p")?.textContent)).toEqual([
      "Name your company and add its logo (done)",
      "Add your brands (to do)",
      "Choose who can join (done)",
      "Add your people and invite them (to do)",
    ]);
    expect(within(list).getByRole("link", { name: "Open Brands" }).getAttribute("href")).toBe("/admin/brands");
    expect(within(list).getByRole("link", { name: "Import people" }).getAttribute("href")).toBe("/admin/import");
    expect(within(list).queryByRole("link", { name: "Open General settings" })).toBeNull();
    expect(within(list).getByRole("button", { name: "Hide this list" })).toBeDefined();
  });
});
