import type { Request, Response } from "express";
import { mediaTypeFault } from "~/.server/http/form-data";
import { isDatabaseUnavailable } from "~/.server/platform/db/availability";
import { databaseErrorLine } from "~/.server/platform/db/errors";
import { diskSpaceLow } from "~/.server/platform/disk-space";
import { env } from "~/.server/platform/env";
import { loggedUrl } from "~/.server/platform/log-redaction";
import { type Connection, connectionOfToken, recordConnectionError } from "~/.server/scim/connections";
import type { ScimContext } from "~/.server/scim/context";
import { discovery, serviceProviderConfig } from "~/.server/scim/discovery";
import { ERROR_SCHEMA, errorResource, ScimError } from "~/.server/scim/errors";
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from "~/.server/scim/groups";
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from "~/.server/scim/users";
import { declaredLength, expectsContinue, hasBody, readBody, refuse } from "./request-handler";

/**
 * SCIM 2.0 at /scim/v2 (docs/decisions/032-scim-provisioning.md): the HTTP side
 * of app/.server/scim. A provider calls it with the bearer token of its
 * connection, never with a session, so it is mounted beside the pages rather
 * than among them: no cookie, no form, no same-site check, and every response
 * (a refusal before the body is read included) is a SCIM resource in
 * `application/scim+json`.
 */

export const SCIM_PATH = "/scim/v2";

/** The largest request body: a group PATCH naming thousands of members fits; a 5 MB body does not. */
const MAX_SCIM_BODY_BYTES = 1024 * 1024;

const SCIM_TYPES = ["application/scim+json", "application/json"];
const SCIM_JSON = "application/scim+json; charset=utf-8";
const RETRY_AFTER_SECONDS = 15;

function send(res: Response, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.status(status).set({ "Content-Type": SCIM_JSON, "Cache-Control": "no-store", ...headers });
  if (body === null) res.end();
  else res.send(JSON.stringify(body));
}

/** A SCIM error sent before (or instead of) reading the body, with the lingering close of every refusal. */
function refuseAsScim(req: Request, res: Response, error: ScimError, headers: Record<string, string> = {}): null {
  return refuse(req, res, {
    status: error.status,
    message: JSON.stringify(errorResource(error)),
    type: SCIM_JSON,
    headers,
  });
}

const UNAUTHORIZED_HEADERS = { "WWW-Authenticate": 'Bearer realm="SCIM"' };

function bearerOf(req: Request): string | null {
  const header = req.headers.authorization ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** The JSON object a body holds, or a 400 (415 for another media type, 413 when too large). */
async function bodyOf(req: Request, res: Response): Promise<Record<string, unknown> | null> {
  const declared = declaredLength(req);
  const tooLarge = new ScimError(413, `The request body is larger than ${MAX_SCIM_BODY_BYTES / 1024} KiB.`);
  if (declared !== null && declared > MAX_SCIM_BODY_BYTES) return refuseAsScim(req, res, tooLarge);
  const wrongType = mediaTypeFault(req.headers["content-type"], SCIM_TYPES);
  if (wrongType) return refuseAsScim(req, res, new ScimError(415, wrongType.message));
  if (expectsContinue(req)) res.writeContinue();
  const body = await readBody(req, MAX_SCIM_BODY_BYTES);
  if (body === "gone") return null;
  if (body === "too large") return refuseAsScim(req, res, tooLarge);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return refuseAsScim(req, res, new ScimError(400, "The request body is not valid JSON.", "invalidSyntax"));
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    return refuseAsScim(req, res, new ScimError(400, "The request body must be a JSON object.", "invalidSyntax"));
  }
  return parsed as Record<string, unknown>;
}

/** A path segment as text; one that is no valid escape names no resource. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ScimError(404, "No such resource.");
  }
}

type ScimResult = { status: number; body: unknown; headers?: Record<string, string> };

/** Runs the request's operation; the path is relative to /scim/v2. */
async function runOperation(
  req: Request,
  res: Response,
  context: ScimContext,
  segments: string[],
  query: URLSearchParams,
): Promise<ScimResult | null> {
  const [collection = "", id = null, ...rest] = segments;
  const method = req.method;
  if (rest.length > 0) throw new ScimError(404, "No such resource.");
  const readBodyOf = async () => bodyOf(req, res);
  switch (collection) {
    case "ServiceProviderConfig":
      if (method !== "GET" || id) break;
      return { status: 200, body: serviceProviderConfig(context.baseUrl) };
    case "ResourceTypes":
    case "Schemas":
      if (method !== "GET") break;
      return { status: 200, body: discovery(collection, id, context.baseUrl) };
    case "Users":
    case "Groups": {
      const users = collection === "Users";
      if (id === null) {
        if (method === "GET") return { status: 200, body: await (users ? listUsers : listGroups)(context, query) };
        if (method === "POST") {
          const body = await readBodyOf();
          if (!body) return null;
          const created = await (users ? createUser : createGroup)(context, body);
          return { status: 201, body: created, headers: { Location: (created.meta as { location: string }).location } };
        }
        break;
      }
      if (method === "GET")
        return { status: 200, body: await (users ? getUser(context, id) : getGroup(context, id, query)) };
      if (method === "DELETE") {
        await (users ? deleteUser : deleteGroup)(context, id);
        return { status: 204, body: null };
      }
      if (method === "PUT" || method === "PATCH") {
        const body = await readBodyOf();
        if (!body) return null;
        if (method === "PUT")
          return { status: 200, body: await (users ? replaceUser : replaceGroup)(context, id, body) };
        if (users) return { status: 200, body: await patchUser(context, id, body) };
        await patchGroup(context, id, body);
        return { status: 204, body: null };
      }
      break;
    }
    default:
      throw new ScimError(
        404,
        "No such resource: this server has Users, Groups, ServiceProviderConfig, ResourceTypes and Schemas.",
      );
  }
  throw new ScimError(405, `${collection} does not take ${method} requests.`);
}

/** Express handler for everything under /scim/v2. */
export async function scimEndpoint(req: Request, res: Response) {
  const url = new URL(req.originalUrl, "http://scim.invalid");
  // A token in the address ends up in logs and browser histories: refused, even a valid one.
  if (url.searchParams.has("access_token") || url.searchParams.has("token")) {
    return refuseAsScim(
      req,
      res,
      new ScimError(401, "Send the token in the Authorization header (Bearer), never in the address."),
      UNAUTHORIZED_HEADERS,
    );
  }
  let connection: Connection | null = null;
  try {
    const token = bearerOf(req);
    connection = token ? await connectionOfToken(token) : null;
    if (!connection) {
      return refuseAsScim(
        req,
        res,
        new ScimError(401, "The bearer token is missing, revoked or not one of this server's."),
        UNAUTHORIZED_HEADERS,
      );
    }
    if ((req.method === "GET" || req.method === "DELETE") && hasBody(req)) {
      return refuseAsScim(
        req,
        res,
        new ScimError(400, `A ${req.method} request cannot carry a body.`, "invalidSyntax"),
      );
    }
    const segments = url.pathname.slice(SCIM_PATH.length).split("/").filter(Boolean).map(decodedSegment);
    const context: ScimContext = { connection, baseUrl: `${env.PUBLIC_URL}${SCIM_PATH}` };
    const result = await runOperation(req, res, context, segments, url.searchParams);
    if (!result || res.headersSent) return;
    send(res, result.status, result.body, result.headers);
  } catch (error) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof ScimError) {
      if (connection && error.status !== 404) {
        await recordConnectionError(connection, {
          method: req.method,
          path: url.pathname,
          status: error.status,
          detail: error.detail,
        }).catch(() => {});
      }
      const headers: Record<string, string> = error.status === 405 ? { Allow: "GET, POST, PUT, PATCH, DELETE" } : {};
      return refuseAsScim(req, res, error, headers);
    }
    if (isDatabaseUnavailable(error)) {
      return send(
        res,
        503,
        {
          schemas: [ERROR_SCHEMA],
          status: "503",
          detail: diskSpaceLow()
            ? "The server's disk is full: nothing was changed. Try again once space is freed."
            : "The database is not available. Try again shortly.",
        },
        { "Retry-After": String(RETRY_AFTER_SECONDS) },
      );
    }
    // One line, never the error itself: a database error's message holds the query's values (people's data).
    console.error(`[scim] ${req.method} ${loggedUrl(url.pathname)} failed: ${databaseErrorLine(error)}`);
    send(res, 500, { schemas: [ERROR_SCHEMA], status: "500", detail: "The request could not be completed." });
  }
}
