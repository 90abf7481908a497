import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ContactDetails } from "~/components/contact-details";
import { CARD_FIELD_KEYS, type CardDetails } from "~/lib/card-fields";
import { inLanguage } from "../support/in-language";

const empty = Object.fromEntries(
  CARD_FIELD_KEYS.map((key) => [key, key === "links" ? [] : null]),
) as unknown as CardDetails;

describe("a card's contact list", () => {
  it("names each link by its kind, so a website, another link and the company's website are told apart", () => {
    render(
      inLanguage(
        <ContactDetails
          card={{
            ...empty,
            links: [
              { kind: "website", url: "https://ada.example/" },
              { kind: "other", url: "https://talks.example/ada" },
            ],
          }}
          website="https://acme.example/"
        />,
      ),
    );
    const labels = screen.getAllByRole("link").map((link) => link.querySelector("span > span")?.textContent);
    expect(labels).toEqual(["Website", "Link", "Company website"]);
  });

  it("labels the rows in the page's language, and keeps each address in its own direction", () => {
    render(
      inLanguage(
        <ContactDetails
          card={{ ...empty, email: "ada@acme.example", links: [{ kind: "website", url: "https://ada.example/" }] }}
          website="https://acme.example/"
        />,
        "de",
      ),
    );
    const labels = screen.getAllByRole("link").map((link) => link.querySelector("span > span")?.textContent);
    expect(labels).toEqual(["E-Mail", "Website", "Website des Unternehmens"]);
    for (const text of screen.getAllByTestId("contact-text")) expect(text.getAttribute("dir")).toBe("auto");
  });
});
