import { data } from "react-router";
import { MAX_IMAGE_BYTES, MAX_SITE_IMAGE_BYTES } from "~/lib/limits";
import type { ImageChange } from "../platform/images";

/**
 * Request bodies, in one place: what a route may declare about them, which
 * bodies can be read, and the short messages a refused one gets. The server
 * checks every body against these before React Router runs
 * (server/request-handler.ts, docs/decisions/023-route-declared-limits.md); the
 * actions read their forms through `readForm` and `readUploadForm`, which
 * answer the same way when called directly.
 */

/** Every form and API call but the uploads and the settings: far more than any of them needs. */
export const MAX_FORM_BYTES = 64 * 1024;

/** Room for one image at the size limit plus the text fields around it. */
export const MAX_UPLOAD_FORM_BYTES = MAX_IMAGE_BYTES + 256 * 1024;

/**
 * The settings form: two long legal texts (100,000 characters each, percent-encoded
 * when sent without files) and the site's four images.
 */
export const MAX_SETTINGS_FORM_BYTES = 2 * 1024 * 1024 + 4 * MAX_SITE_IMAGE_BYTES;

/**
 * SAML documents: a provider's response, posted by its sign-in page (a few
 * kilobytes, tens with many groups; its base64 percent-encoded in the form),
 * and a provider's metadata pasted into the settings.
 */
export const MAX_SAML_FORM_BYTES = 1024 * 1024;

/** The limits a route may name; server/routes.ts knows their sizes. */
export type BodyLimit = "form" | "upload" | "settings" | "import" | "saml";

/**
 * What a route module declares in its `handle` export about the bodies its
 * action reads. Names rather than byte counts: `handle` is sent to the
 * browser too, where server modules cannot be imported.
 */
export type BodyHandle = {
  /** Its bodies' limit: "form" (the default), "upload" (a form with an image), "settings", "import", "saml". */
  bodyLimit?: BodyLimit;
  /** The media types its action reads; forms (`FORM_TYPES`) when not said. */
  bodyTypes?: readonly string[];
  /**
   * Its action takes forms posted from other sites (a SAML provider's response,
   * which proves itself by its signature): the same-site check is not made.
   */
  crossSite?: boolean;
};

export const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"] as const;

export const BODY_TOO_LARGE = "The request is too large. Shorten the text or choose a smaller file, then try again.";
const UNREADABLE_FORM =
  "The form could not be read: it arrived incomplete or malformed. Reload the page and try again.";
const UNREADABLE_JSON = "The request body is not valid JSON.";
const TOO_MANY_FIELDS = "The form has too many fields.";

/** A body that cannot be used: the status and short message of its response. */
export type BodyFault = { status: 400 | 415; message: string };

/** The media type of a Content-Type header, lowercased and without parameters ("" when there is none). */
function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Why a body of this Content-Type is refused before it is read (415), or null when the route takes it. */
export function mediaTypeFault(contentType: string | null | undefined, accepted: readonly string[]): BodyFault | null {
  const type = mediaTypeOf(contentType);
  if (accepted.includes(type)) return null;
  const expected = accepted.join(" or ");
  return {
    status: 415,
    message: type
      ? `This address does not take ${type}: send ${expected}.`
      : `The request says no Content-Type: send ${expected}.`,
  };
}

/**
 * Fields a form may hold. Parsing costs time on the one thread that serves
 * everyone (docs/decisions/023-route-declared-limits.md has how long a large
 * body of tiny parts takes), and the
 * largest real form, inviting the 500 chosen profiles, holds about 500.
 */
const MAX_FORM_FIELDS = 2_000;

/**
 * Why a whole body cannot be read as its Content-Type says (400), or null when
 * it can. Forms are parsed as the actions parse them (`readForm`), so whatever
 * passes here reads without error there.
 */
export async function bodyFault(
  contentType: string | null | undefined,
  body: Uint8Array<ArrayBuffer>,
): Promise<BodyFault | null> {
  const type = mediaTypeOf(contentType);
  // A url-encoded form always parses (anything unknown in it is text): only its shape is checked.
  if (type === "application/x-www-form-urlencoded") return shapeFault(contentType, bufferOf(body));
  if (type === "multipart/form-data") {
    const form = await parseForm(contentType, body);
    return form instanceof FormData ? null : form;
  }
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
    } catch {
      return { status: 400, message: UNREADABLE_JSON };
    }
  }
  return null;
}

/** A form body parsed, or why it cannot be: checked for its shape first (cheaply), then parsed. */
async function parseForm(contentType: string | null | undefined, body: Uint8Array<ArrayBuffer>) {
  const fault = shapeFault(contentType, bufferOf(body));
  if (fault) return fault;
  try {
    return await new Response(body, { headers: { "content-type": contentType ?? "" } }).formData();
  } catch {
    return { status: 400, message: UNREADABLE_FORM } satisfies BodyFault;
  }
}

/** The headers of one part of a multipart form, in bytes: a browser sends a few hundred (a name, a file name, a type). */
const MAX_PART_HEADER_BYTES = 16 * 1024;
const BLANK_LINE = Buffer.from("\r\n\r\n");

/**
 * What parsing would cost too much for, found without parsing: more fields
 * than MAX_FORM_FIELDS (one more than the separators of a url-encoded form,
 * or than the boundaries of a multipart one), or a multipart part whose
 * headers do not end within MAX_PART_HEADER_BYTES.
 */
function shapeFault(contentType: string | null | undefined, body: Buffer): BodyFault | null {
  if (mediaTypeOf(contentType) !== "multipart/form-data") {
    return count(body, Buffer.from("&")) >= MAX_FORM_FIELDS ? { status: 400, message: TOO_MANY_FIELDS } : null;
  }
  const found = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  const boundary = found?.[1] ?? found?.[2];
  // Without a boundary the form does not parse at all: the parser says so.
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary}`);
  let parts = 0;
  for (let at = body.indexOf(delimiter); at >= 0; at = body.indexOf(delimiter, at + delimiter.length)) {
    const after = at + delimiter.length;
    // The closing delimiter has no part after it.
    if (body[after] === 0x2d && body[after + 1] === 0x2d) break;
    if (++parts > MAX_FORM_FIELDS) return { status: 400, message: TOO_MANY_FIELDS };
    const headers = body.subarray(after, after + MAX_PART_HEADER_BYTES + BLANK_LINE.length);
    if (headers.indexOf(BLANK_LINE) < 0) return { status: 400, message: UNREADABLE_FORM };
  }
  return null;
}

function bufferOf(body: Uint8Array): Buffer {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function count(body: Buffer, needle: Buffer): number {
  let found = 0;
  for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + needle.length)) found++;
  return found;
}

/** A request body over the limit is refused while it is read, not after. */
class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

/** A body fault as the response an action throws: React Router sends it with its status and message. */
function refusal(fault: BodyFault): never {
  throw data(fault.message, { status: fault.status });
}

async function readBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new BodyTooLargeError();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const contentType = request.headers.get("content-type");
  const wrongType = mediaTypeFault(contentType, FORM_TYPES);
  if (wrongType) refusal(wrongType);
  const form = await parseForm(contentType, await readBytes(request, maxBytes));
  return form instanceof FormData ? form : refusal(form);
}

/**
 * Reads an action's form. A body that is not a form gets 415, one that
 * cannot be read (or with too many fields) 400, one over `maxBytes` 413: each thrown as a short message
 * for React Router to answer, never as an error.
 */
export async function readForm(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  try {
    return await readFormData(request, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw data(BODY_TOO_LARGE, { status: 413 });
    throw error;
  }
}

/**
 * Reads a form that may carry an image; an oversized body is reported, not
 * thrown, so the form can say which file was too large. A body that is not a
 * form, or cannot be read, gets the response `readForm` gives.
 */
export async function readUploadForm(
  request: Request,
  maxBytes = MAX_UPLOAD_FORM_BYTES,
): Promise<{ form: FormData; tooLarge: false } | { form: null; tooLarge: true }> {
  try {
    return { form: await readFormData(request, maxBytes), tooLarge: false };
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { form: null, tooLarge: true };
    throw error;
  }
}

/** The text fields of a form (files left out), as a plain object for a schema. */
export function formText(form: FormData): Record<string, string> {
  return Object.fromEntries(
    [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** What an image field asks for: a new file, removal (its `{name}Remove` box), or nothing. */
export async function imageChange(form: FormData, name: string): Promise<ImageChange> {
  const file = form.get(name);
  if (file instanceof File && file.size > 0)
    return { kind: "replace", bytes: new Uint8Array(await file.arrayBuffer()) };
  return form.get(`${name}Remove`) === "1" ? { kind: "remove" } : { kind: "keep" };
}
