import type { Visit } from "./analytics/views";
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
