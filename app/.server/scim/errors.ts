/**
 * A SCIM error (RFC 7644 §3.12). SCIM's error resource carries its own status
 * and `scimType` in the body, so the domain names them; the endpoint only
 * writes the resource out.
 */
export class ScimError extends Error {
  override name = "ScimError";
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 412 | 413 | 415 | 500 | 501 | 503,
    readonly detail: string,
    readonly scimType?:
      | "invalidFilter"
      | "tooMany"
      | "uniqueness"
      | "mutability"
      | "invalidSyntax"
      | "invalidPath"
      | "noTarget"
      | "invalidValue"
      | "invalidVers",
  ) {
    super(detail);
  }
}

export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

/** The error resource; `status` is a string, as RFC 7644 shows it and Microsoft's client expects. */
export function errorResource(error: ScimError) {
  return {
    schemas: [ERROR_SCHEMA],
    status: String(error.status),
    ...(error.scimType ? { scimType: error.scimType } : {}),
    detail: error.detail,
  };
}

export const notFound = (what: "User" | "Group" | "Resource", id: string) =>
  new ScimError(404, `${what} ${id.slice(0, 100)} not found`);
