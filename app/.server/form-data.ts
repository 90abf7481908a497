import { MAX_IMAGE_BYTES, MAX_SITE_IMAGE_BYTES } from "~/lib/limits";
import type { ImageChange } from "./images";

/** A request body over the limit is refused while it is read, not after. */
class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new BodyTooLargeError();
  if (!request.body) return request.formData();
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
  return new Response(body, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
}

/** Room for one image at the size limit plus the text fields around it. */
export const MAX_UPLOAD_FORM_BYTES = MAX_IMAGE_BYTES + 256 * 1024;

/**
 * The settings form: two long legal texts (100,000 characters each, percent-encoded
 * when sent without files) and the site's four images.
 */
export const MAX_SETTINGS_FORM_BYTES = 2 * 1024 * 1024 + 4 * MAX_SITE_IMAGE_BYTES;

/** Reads a form that may carry an image; an oversized body is reported, not thrown. */
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
