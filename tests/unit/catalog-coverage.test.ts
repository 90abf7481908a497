import fs from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The screens that speak their visitor's language say nothing in English of
 * their own: every word a person reads there comes from the catalogs
 * (docs/decisions/047-languages.md). The check reads each file's JSX: text
 * between tags, and the attributes a person reads or hears (labels, titles,
 * alternative texts, placeholders, hints). A screen joins the list when its
 * words move into the catalogs.
 */
const TRANSLATED = [
  "app/routes/profile/$username.tsx",
  "app/routes/qr/$username.tsx",
  "app/routes/profile/lead-form.tsx",
  "app/components/card-actions.tsx",
  "app/components/contact-details.tsx",
  "app/components/theme-switch.tsx",
  "app/components/way-back.tsx",
  "app/components/views-word.tsx",
  "app/components/not-found-card.tsx",
  "app/components/status-page.tsx",
  "app/components/error-boundary.tsx",
];

/** Attributes whose text a person reads or hears. */
const READ_ATTRIBUTES = new Set(["aria-label", "title", "alt", "placeholder", "label", "hint", "legend"]);

/** English a screen says itself: JSX text and read attributes holding letters, with their lines. */
function ownWords(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const found: string[] = [];
  const where = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && /\p{L}/u.test(node.text)) found.push(`${where(node)} ${node.text.trim()}`);
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      const value = ts.isStringLiteral(node.initializer)
        ? node.initializer
        : ts.isJsxExpression(node.initializer) && node.initializer.expression
          ? node.initializer.expression
          : null;
      if (
        value &&
        (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value) || ts.isTemplateExpression(value))
      ) {
        if (/\p{L}/u.test(value.getText(source))) found.push(`${where(node)} ${node.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the screens in the visitor's language", () => {
  it.each(TRANSLATED)("%s says every word through the catalogs", (file) => {
    expect(ownWords(file)).toEqual([]);
  });

  it("would catch English written into a screen", () => {
    const probe = "tests/.tmp/catalog-probe.tsx";
    fs.mkdirSync("tests/.tmp", { recursive: true });
    fs.writeFileSync(probe, 'export const A = () => <p title="Hello">Save Contact<img alt={"Logo"} /></p>;\n');
    try {
      expect(ownWords(probe)).toHaveLength(3);
    } finally {
      fs.rmSync(probe);
    }
  });
});
