import type { Visit } from "../analytics/views";
import { CLIENT_IP_HEADER } from "./auth";

/** A Content-Disposition that keeps accents in modern browsers and stays ASCII for the rest. */
export function attachment(fileName: string): string {
  const ascii =
    fileName
      .normalize("NFKD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\]/g, "_") || "download";
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Who sent a request, as the view counter needs it. */
export function visitOf(request: Request): Visit {
  const purpose = request.headers.get("sec-purpose") ?? request.headers.get("purpose") ?? "";
  return {
    ip: request.headers.get(CLIENT_IP_HEADER),
    userAgent: request.headers.get("user-agent") ?? "",
    prefetch: purpose.includes("prefetch"),
  };
}

/** Whether the browser's copy, named by `If-None-Match`, is `etag` (a 304 then responds). */
export function isNotModified(request: Request | undefined, etag: string): boolean {
  const header = request?.headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === opaque);
}

/** The response to a conditional request whose copy is current: no body, the validators again. */
export function notModified(headers: Record<string, string>): Response {
  const kept = Object.fromEntries(
    Object.entries(headers).filter(([name]) => /^(etag|cache-control|vary|expires|content-location)$/i.test(name)),
  );
  return new Response(null, { status: 304, headers: kept });
}
