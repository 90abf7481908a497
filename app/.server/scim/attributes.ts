import type { ScimAttributes } from "../platform/db/schema";
import { ScimError } from "./errors";

/**
 * A SCIM User's attributes kept flat, one key per value, named by its path
 * (RFC 7644 §3.10): `userName`, `name.givenName`, `emails[type eq "work"].value`,
 * the enterprise extension's `urn:…:User:department`. PATCH operations,
 * whichever way a provider writes them (a path with a value filter, a value
 * object whose keys are paths, a nested value object), all become changes of
 * these keys; a resource is made back from them. Attributes Namecard has no
 * use for (passwords, roles, groups, photos) are not kept.
 */

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const ENTERPRISE_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const CORE_PREFIX = `${USER_SCHEMA}:`;
const ENTERPRISE_PREFIX = `${ENTERPRISE_SCHEMA}:`;

/** The core attributes kept, each single-valued, by their lower-case name. */
const SIMPLE = [
  "userName",
  "externalId",
  "displayName",
  "nickName",
  "title",
  "userType",
  "preferredLanguage",
  "locale",
  "timezone",
  "profileUrl",
];
const NAME_PARTS = ["givenName", "familyName", "formatted", "middleName", "honorificPrefix", "honorificSuffix"];
/** Multi-valued attributes kept, with the sub-attributes kept of each value. */
const MULTI: Record<string, string[]> = {
  emails: ["value", "primary"],
  phoneNumbers: ["value", "primary"],
  addresses: ["formatted", "streetAddress", "locality", "region", "postalCode", "country", "primary"],
};
const ENTERPRISE = ["department", "employeeNumber", "costCenter", "organization", "division", "manager"];

const canonical = new Map<string, string>(
  [...SIMPLE, "active", "name", ...Object.keys(MULTI)].map((name) => [name.toLowerCase(), name]),
);
const canonicalIn = (names: string[], name: string) =>
  names.find((known) => known.toLowerCase() === name.toLowerCase());

/** Attributes a provider may send that are not kept: accepted and ignored, never refused. */
const IGNORED = new Set([
  "schemas",
  "id",
  "meta",
  "password",
  "groups",
  "roles",
  "entitlements",
  "x509certificates",
  "ims",
  "photos",
]);

/** Most values kept per person, and the longest value: a resource is a card's worth of data, not a store. */
const MAX_KEYS = 100;
const MAX_VALUE_LENGTH = 1_000;
const TYPE = /^[A-Za-z][\w-]{0,29}$/;

const multiKey = (attribute: string, type: string, sub: string) =>
  `${attribute}[type eq "${type.toLowerCase()}"].${sub}`;

/** The key of the enterprise attribute `name`. */
export const enterpriseKey = (name: string) => `${ENTERPRISE_PREFIX}${name}`;

/** A string value as kept; a number or boolean where a string is due is taken as its text. */
function text(value: unknown, path: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value !== "string") throw new ScimError(400, `${path} must be a string.`, "invalidValue");
  if (value.includes("\u0000")) throw new ScimError(400, `${path} contains a NUL character.`, "invalidValue");
  if (value.length > MAX_VALUE_LENGTH) {
    throw new ScimError(400, `${path} is longer than ${MAX_VALUE_LENGTH} characters.`, "invalidValue");
  }
  return value;
}

/** A boolean as providers send it: `false`, or the text "False" (Microsoft's default). */
export function booleanOf(value: unknown, path: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  throw new ScimError(400, `${path} must be true or false.`, "invalidValue");
}

/** A path's parts: the attribute, the type its value filter names (if any), and the sub-attribute. */
type Path = { attribute: string; type: string | null; sub: string | null };

const PATH = /^([A-Za-z][\w$-]*)(?:\[\s*type\s+eq\s+"([^"]*)"\s*\])?(?:\.([A-Za-z][\w$-]*))?$/i;

/** Reads a PATCH path (or a key of a path-less value object) into its parts; null when nothing kept is named. */
function parsePath(raw: string): Path | null {
  let path = raw.trim();
  if (path.toLowerCase().startsWith(ENTERPRISE_PREFIX.toLowerCase())) {
    const [name = "", sub] = path.slice(ENTERPRISE_PREFIX.length).split(".");
    const known = canonicalIn(ENTERPRISE, name);
    if (!known) return null;
    if (sub && !(known === "manager" && sub.toLowerCase() === "value")) return null;
    return { attribute: ENTERPRISE_SCHEMA, type: null, sub: known };
  }
  if (path.toLowerCase() === ENTERPRISE_SCHEMA.toLowerCase())
    return { attribute: ENTERPRISE_SCHEMA, type: null, sub: null };
  if (path.toLowerCase().startsWith(CORE_PREFIX.toLowerCase())) path = path.slice(CORE_PREFIX.length);
  const match = PATH.exec(path);
  if (!match) throw new ScimError(400, `The path ${raw.slice(0, 200)} is not one this server reads.`, "invalidPath");
  const [, name = "", type, sub] = match;
  // Microsoft writes the enterprise manager as a bare `manager`.
  if (name.toLowerCase() === "manager") return { attribute: ENTERPRISE_SCHEMA, type: null, sub: "manager" };
  const attribute = canonical.get(name.toLowerCase());
  if (!attribute) return null;
  if (attribute === "name") {
    if (type) return null;
    const part = sub ? canonicalIn(NAME_PARTS, sub) : null;
    return sub && !part ? null : { attribute, type: null, sub: part ?? null };
  }
  const subs = MULTI[attribute];
  if (subs) {
    if (type !== undefined && !TYPE.test(type))
      throw new ScimError(400, `The type in ${raw.slice(0, 200)} is not valid.`, "invalidPath");
    const part = sub ? canonicalIn(subs, sub) : null;
    return sub && !part ? null : { attribute, type: type?.toLowerCase() ?? null, sub: part ?? null };
  }
  if (type || sub) return null;
  return { attribute, type: null, sub: null };
}

/** Whether `key` is kept under the path (a whole attribute covers each of its values). */
function under(key: string, path: Path): boolean {
  if (path.attribute === ENTERPRISE_SCHEMA) {
    return path.sub ? key === enterpriseKey(path.sub) : key.startsWith(ENTERPRISE_PREFIX);
  }
  if (path.attribute === "name") return path.sub ? key === `name.${path.sub}` : key.startsWith("name.");
  if (MULTI[path.attribute]) {
    const prefix = path.type ? `${path.attribute}[type eq "${path.type}"]` : `${path.attribute}[`;
    if (!key.startsWith(prefix)) return false;
    return path.sub ? key.endsWith(`].${path.sub}`) : true;
  }
  return key === path.attribute;
}

/** Sets the values `value` gives under `path` into `into`. */
function put(into: ScimAttributes, path: Path, value: unknown, label: string) {
  const { attribute, type, sub } = path;
  if (attribute === ENTERPRISE_SCHEMA) {
    if (sub === "manager") {
      // `{ value }`, `[{ value }]` or the id itself.
      const item = Array.isArray(value) ? value[0] : value;
      const id = item && typeof item === "object" ? (item as { value?: unknown }).value : item;
      const kept = text(id, label);
      if (kept) into[enterpriseKey("manager")] = kept;
      else delete into[enterpriseKey("manager")];
      return;
    }
    if (sub) {
      const kept = text(value, label);
      if (kept === null) delete into[enterpriseKey(sub)];
      else into[enterpriseKey(sub)] = kept;
      return;
    }
    if (value === null) {
      for (const key of Object.keys(into)) if (key.startsWith(ENTERPRISE_PREFIX)) delete into[key];
      return;
    }
    for (const [name, inner] of Object.entries(objectOf(value, label))) {
      const known = parsePathOrNull(`${ENTERPRISE_PREFIX}${name}`);
      if (known) put(into, known, inner, `${label}.${name}`);
    }
    return;
  }
  if (attribute === "active") {
    into.active = booleanOf(value, label);
    return;
  }
  if (attribute === "name") {
    if (sub) {
      const kept = text(value, label);
      if (kept === null) delete into[`name.${sub}`];
      else into[`name.${sub}`] = kept;
      return;
    }
    if (value === null) {
      for (const key of Object.keys(into)) if (key.startsWith("name.")) delete into[key];
      return;
    }
    for (const [part, inner] of Object.entries(objectOf(value, label))) {
      const known = canonicalIn(NAME_PARTS, part);
      if (known) put(into, { attribute, type: null, sub: known }, inner, `${label}.${part}`);
    }
    return;
  }
  const subs = MULTI[attribute];
  if (subs) {
    if (type && sub) {
      if (sub === "primary") into[multiKey(attribute, type, sub)] = booleanOf(value, label);
      else {
        const kept = text(value, label);
        if (kept === null) delete into[multiKey(attribute, type, sub)];
        else into[multiKey(attribute, type, sub)] = kept;
      }
      return;
    }
    // A list of values (or one value object): each under its type, "work" when it names none. Null is none.
    const items = Array.isArray(value) ? value : value === null ? [] : [value];
    for (const item of items) {
      const object = objectOf(item, label);
      const itemType =
        typeof object.type === "string" && TYPE.test(object.type) ? object.type.toLowerCase() : (type ?? "work");
      for (const [name, inner] of Object.entries(object)) {
        const known = canonicalIn(subs, name);
        if (known) put(into, { attribute, type: itemType, sub: known }, inner, `${label}.${name}`);
      }
    }
    return;
  }
  const kept = text(value, label);
  if (kept === null) delete into[attribute];
  else into[attribute] = kept;
}

function objectOf(value: unknown, label: string): Record<string, unknown> {
  if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ScimError(400, `${label} must be an object.`, "invalidValue");
}

function bounded(attributes: ScimAttributes): ScimAttributes {
  if (Object.keys(attributes).length > MAX_KEYS) {
    throw new ScimError(400, `A user may have at most ${MAX_KEYS} values.`, "invalidValue");
  }
  return attributes;
}

/** Adds a resource's (or a path-less value object's) attributes to `into`. Keys may be paths themselves. */
function merge(into: ScimAttributes, resource: Record<string, unknown>) {
  for (const [key, value] of Object.entries(resource)) {
    if (IGNORED.has(key.toLowerCase())) continue;
    const path = parsePathOrNull(key);
    if (path) put(into, path, value, key);
  }
}

/** A key of a resource that names nothing this server reads (a provider's own, a typo) is ignored, not refused. */
function parsePathOrNull(key: string): Path | null {
  try {
    return parsePath(key);
  } catch {
    return null;
  }
}

/** The attributes of a whole User resource (a POST or a PUT). */
export function attributesOf(resource: Record<string, unknown>): ScimAttributes {
  const attributes: ScimAttributes = {};
  merge(attributes, resource);
  return bounded(attributes);
}

type PatchOperation = { op: "add" | "replace" | "remove"; path: string | null; value: unknown };

/** The operations of a PatchOp request, their `op` read without regard to case (Microsoft writes "Replace"). */
export function operationsOf(body: Record<string, unknown>): PatchOperation[] {
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0) {
    throw new ScimError(400, "A PATCH request needs a list of Operations.", "invalidSyntax");
  }
  if (operations.length > 1_000)
    throw new ScimError(400, "A PATCH request may hold at most 1,000 operations.", "tooMany");
  return operations.map((operation, index) => {
    const { op, path, value } = objectOf(operation, `Operations[${index}]`);
    const kind = typeof op === "string" ? op.toLowerCase() : "";
    if (kind !== "add" && kind !== "replace" && kind !== "remove") {
      throw new ScimError(400, `Operations[${index}].op must be add, replace or remove.`, "invalidSyntax");
    }
    if (path !== undefined && path !== null && typeof path !== "string") {
      throw new ScimError(400, `Operations[${index}].path must be a string.`, "invalidPath");
    }
    return { op: kind, path: path || null, value };
  });
}

/** The attributes after a User PATCH. */
export function patched(current: ScimAttributes, operations: PatchOperation[]): ScimAttributes {
  const next: ScimAttributes = { ...current };
  for (const { op, path: raw, value } of operations) {
    if (raw === null) {
      if (op === "remove") throw new ScimError(400, "A remove operation needs a path.", "noTarget");
      merge(next, objectOf(value, "value"));
      continue;
    }
    // A path naming nothing kept (roles, a provider's own extension) is ignored, as in a whole resource.
    const path = parsePathOrNull(raw);
    if (!path) continue;
    // A person is active until the provider says otherwise: removing the value leaves it as it is.
    if (op === "remove" && path.attribute === "active") continue;
    if (op === "remove" || (op === "replace" && !path.sub && path.attribute !== "active")) {
      for (const key of Object.keys(next)) if (under(key, path)) delete next[key];
    }
    if (op !== "remove") put(next, path, value, raw);
  }
  if (typeof next.userName !== "string" || next.userName.trim() === "") {
    throw new ScimError(400, "userName cannot be removed.", "mutability");
  }
  return bounded(next);
}

/** The values kept for `attribute` by type, in a stable order (work first). */
function valuesOf(attributes: ScimAttributes, attribute: string) {
  const byType = new Map<string, Record<string, string | boolean>>();
  for (const [key, value] of Object.entries(attributes)) {
    const match = /^(\w+)\[type eq "([^"]*)"\]\.(\w+)$/.exec(key);
    if (!match || match[1] !== attribute) continue;
    const type = match[2] as string;
    const entry = byType.get(type) ?? { type };
    entry[match[3] as string] = value;
    byType.set(type, entry);
  }
  return [...byType.values()].sort((a, b) => (a.type === "work" ? -1 : b.type === "work" ? 1 : 0));
}

/** The first value of `attribute`: the one marked primary, else work, else any. */
export function primaryValue(attributes: ScimAttributes, attribute: string, sub = "value"): string | null {
  const values = valuesOf(attributes, attribute).filter((entry) => typeof entry[sub] === "string");
  const chosen = values.find((entry) => entry.primary === true) ?? values[0];
  return (chosen?.[sub] as string | undefined) ?? null;
}

/** The value under an exact key, as text; null when none. */
export function valueAt(attributes: ScimAttributes, key: string): string | null {
  const value = attributes[key];
  return typeof value === "string" ? value : null;
}

/** The canonical key of a path naming one value (as the card fields' `scim` paths do), or null. */
export function keyOf(raw: string): string | null {
  const path = parsePathOrNull(raw);
  if (!path) return null;
  if (path.attribute === ENTERPRISE_SCHEMA) return path.sub ? enterpriseKey(path.sub) : null;
  if (path.attribute === "name") return path.sub ? `name.${path.sub}` : null;
  if (MULTI[path.attribute]) return path.type && path.sub ? multiKey(path.attribute, path.type, path.sub) : null;
  return path.attribute;
}

/** The User resource of the kept attributes. */
export function userResource(
  user: { id: string; active: boolean; createdAt: Date; updatedAt: Date; version: number },
  attributes: ScimAttributes,
  baseUrl: string,
) {
  const resource: Record<string, unknown> = { schemas: [USER_SCHEMA], id: user.id };
  for (const name of SIMPLE) if (typeof attributes[name] === "string") resource[name] = attributes[name];
  const name: Record<string, string> = {};
  for (const part of NAME_PARTS) {
    const value = attributes[`name.${part}`];
    if (typeof value === "string") name[part] = value;
  }
  if (Object.keys(name).length) resource.name = name;
  resource.active = user.active;
  for (const attribute of Object.keys(MULTI)) {
    const values = valuesOf(attributes, attribute);
    if (values.length) resource[attribute] = values;
  }
  const enterprise: Record<string, unknown> = {};
  for (const part of ENTERPRISE) {
    const value = attributes[enterpriseKey(part)];
    if (typeof value !== "string") continue;
    enterprise[part] = part === "manager" ? { value, $ref: `${baseUrl}/Users/${value}` } : value;
  }
  if (Object.keys(enterprise).length) {
    resource.schemas = [USER_SCHEMA, ENTERPRISE_SCHEMA];
    resource[ENTERPRISE_SCHEMA] = enterprise;
  }
  resource.meta = {
    resourceType: "User",
    created: user.createdAt.toISOString(),
    lastModified: user.updatedAt.toISOString(),
    location: `${baseUrl}/Users/${user.id}`,
    version: `W/"${user.version}"`,
  };
  return resource;
}
