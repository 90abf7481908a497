import { ScimError } from "./errors";

/**
 * The filters providers send (RFC 7644 §3.4.2.2), as far as this server takes
 * them: `attribute eq value`, joined by `and`. Microsoft looks people up by
 * `userName`, `externalId` and (unquoted) values; Okta by `userName`. Anything
 * else (`or`, `not`, `co`, `sw`, `pr`, parentheses) is refused with
 * `invalidFilter` rather than half understood: a filter read wrongly would
 * answer with the wrong person.
 */
export type Condition = { attribute: FilterAttribute; value: string | boolean | null };

const ATTRIBUTES = {
  username: "userName",
  externalid: "externalId",
  id: "id",
  displayname: "displayName",
  active: "active",
  "emails.value": "emails.value",
  // Microsoft matches by the work address with the value filter in the attribute.
  'emails[type eq "work"].value': "emails.value",
  "members.value": "members.value",
  // Microsoft checks a membership with `members eq "<user id>"`.
  members: "members.value",
} as const;
type FilterAttribute = (typeof ATTRIBUTES)[keyof typeof ATTRIBUTES];

const CORE = /^urn:ietf:params:scim:schemas:core:2\.0:(?:User|Group):/i;
const TOKEN =
  /\s*([A-Za-z][\w.:$-]*\[\s*type\s+eq\s+"[^"]*"\s*\](?:\.[\w$-]+)?|"(?:[^"\\]|\\.)*"|[^\s"()[\]]+|[()[\]])/y;
const MAX_FILTER_LENGTH = 1_000;
const MAX_CONDITIONS = 10;

function invalid(detail: string): ScimError {
  return new ScimError(400, detail, "invalidFilter");
}

function tokensOf(filter: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let rest = filter;
  while (rest.trim() !== "") {
    TOKEN.lastIndex = 0;
    const match = TOKEN.exec(rest);
    if (!match) throw invalid("The filter could not be read.");
    tokens.push(match[1] as string);
    rest = rest.slice(TOKEN.lastIndex);
  }
  return tokens;
}

function filterValue(token: string): string | boolean | null {
  if (token.startsWith('"')) {
    try {
      const value = JSON.parse(token) as string;
      if (value.includes("\u0000")) throw invalid("A value in the filter contains a NUL character.");
      return value;
    } catch (error) {
      if (error instanceof ScimError) throw error;
      throw invalid("A quoted value in the filter is not valid.");
    }
  }
  if (/^(true|false)$/i.test(token)) return token.toLowerCase() === "true";
  if (token === "null") return null;
  // Microsoft's documentation shows values without quotes (`externalId eq jyoung`).
  return token;
}

/** Reads a filter into its conditions, all of which must hold. */
export function parseFilter(filter: string): Condition[] {
  if (filter.length > MAX_FILTER_LENGTH) throw invalid(`A filter may be at most ${MAX_FILTER_LENGTH} characters.`);
  const tokens = tokensOf(filter);
  const conditions: Condition[] = [];
  for (let index = 0; index < tokens.length; index += 4) {
    const [name = "", operator = "", value, joiner] = tokens.slice(index, index + 4);
    const path = name
      .replace(CORE, "")
      .replace(/\[\s*type\s+eq\s+/i, "[type eq ")
      .replace(/\s*\]/, "]")
      .toLowerCase();
    const attribute = ATTRIBUTES[path as keyof typeof ATTRIBUTES];
    if (!attribute)
      throw invalid(`Filtering by ${name.slice(0, 100)} is not supported: use userName, externalId or emails.value.`);
    if (operator.toLowerCase() !== "eq")
      throw invalid(`Only the eq operator is supported, not ${operator.slice(0, 20)}.`);
    if (value === undefined || /^[()[\]]$/.test(value)) throw invalid("A filter condition needs a value.");
    conditions.push({ attribute, value: filterValue(value) });
    if (joiner !== undefined && joiner.toLowerCase() !== "and") {
      throw invalid(`Conditions may be joined by and only, not ${joiner.slice(0, 20)}.`);
    }
    if (joiner !== undefined && index + 4 >= tokens.length) throw invalid("The filter ends after and.");
  }
  if (conditions.length === 0) throw invalid("The filter is empty.");
  if (conditions.length > MAX_CONDITIONS) throw invalid(`A filter may join at most ${MAX_CONDITIONS} conditions.`);
  return conditions;
}

/** The paging a list asks for: 1-based `startIndex`, `count` capped (RFC 7644 §3.4.2.4). */
export const MAX_PAGE_SIZE = 200;

export function pagingOf(startIndex: string | null, count: string | null): { offset: number; limit: number } {
  const start = Number.parseInt(startIndex ?? "1", 10);
  const size = Number.parseInt(count ?? String(MAX_PAGE_SIZE), 10);
  return {
    offset: Number.isSafeInteger(start) && start > 1 ? Math.min(start, 1_000_000_000) - 1 : 0,
    limit: Number.isSafeInteger(size) ? Math.min(Math.max(size, 0), MAX_PAGE_SIZE) : MAX_PAGE_SIZE,
  };
}
