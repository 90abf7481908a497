import { ENTERPRISE_SCHEMA, USER_SCHEMA } from "./attributes";
import { LIST_SCHEMA } from "./context";
import { notFound } from "./errors";
import { MAX_PAGE_SIZE } from "./filter";
import { GROUP_SCHEMA } from "./groups";

/**
 * What a provider reads to learn what this server does (RFC 7644 §4): the
 * service provider's configuration, its resource types and the schemas of
 * the attributes it keeps.
 */

const CONFIG_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
const RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";
const SCHEMA_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema";

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [CONFIG_SCHEMA],
    documentationUri: `${baseUrl.replace(/\/scim\/v2$/, "")}/help`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE_SIZE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "The token an administrator creates in Settings → Provisioning, in the Authorization header.",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${baseUrl}/ServiceProviderConfig` },
  };
}

function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: "User",
      name: "User",
      endpoint: "/Users",
      description: "A person, and their card",
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }],
      meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: "Group",
      name: "Group",
      endpoint: "/Groups",
      description: "A group of people; mapped to a brand, its members' cards carry it",
      schema: GROUP_SCHEMA,
      meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

type Attribute = { name: string; type: string; multiValued?: boolean; subAttributes?: Attribute[]; required?: boolean };

const string = (name: string, required = false): Attribute => ({ name, type: "string", required });
const multi = (name: string, subs: string[]): Attribute => ({
  name,
  type: "complex",
  multiValued: true,
  subAttributes: [...subs.map((sub) => string(sub)), string("type"), { name: "primary", type: "boolean" }],
});

function attributeDefinition({
  name,
  type,
  multiValued = false,
  subAttributes,
  required = false,
}: Attribute): Record<string, unknown> {
  return {
    name,
    type,
    multiValued,
    required,
    caseExact: false,
    mutability: name === "id" ? "readOnly" : "readWrite",
    returned: "default",
    uniqueness: name === "userName" || name === "displayName" ? "server" : "none",
    ...(subAttributes ? { subAttributes: subAttributes.map(attributeDefinition) } : {}),
  };
}

function schemas(baseUrl: string) {
  const schema = (id: string, name: string, attributes: Attribute[]) => ({
    schemas: [SCHEMA_SCHEMA],
    id,
    name,
    attributes: attributes.map(attributeDefinition),
    meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${id}` },
  });
  return [
    schema(USER_SCHEMA, "User", [
      string("userName", true),
      string("externalId"),
      {
        name: "name",
        type: "complex",
        subAttributes: ["givenName", "familyName", "formatted", "middleName", "honorificPrefix", "honorificSuffix"].map(
          (sub) => string(sub),
        ),
      },
      string("displayName"),
      string("title"),
      { name: "active", type: "boolean" },
      multi("emails", ["value"]),
      multi("phoneNumbers", ["value"]),
      multi("addresses", ["formatted", "streetAddress", "locality", "region", "postalCode", "country"]),
    ]),
    schema(ENTERPRISE_SCHEMA, "EnterpriseUser", [
      string("department"),
      string("employeeNumber"),
      string("costCenter"),
      string("organization"),
      string("division"),
      { name: "manager", type: "complex", subAttributes: [string("value"), string("$ref")] },
    ]),
    schema(GROUP_SCHEMA, "Group", [
      string("displayName", true),
      string("externalId"),
      { name: "members", type: "complex", multiValued: true, subAttributes: [string("value"), string("display")] },
    ]),
  ];
}

function listOf(resources: unknown[]) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/** `/ResourceTypes` and `/Schemas`, listed or one by its id. */
export function discovery(kind: "ResourceTypes" | "Schemas", id: string | null, baseUrl: string) {
  const all: { id: string }[] = kind === "ResourceTypes" ? resourceTypes(baseUrl) : schemas(baseUrl);
  if (id === null) return listOf(all);
  const found = all.find((resource) => resource.id === id);
  if (!found) throw notFound("Resource", id);
  return found;
}
