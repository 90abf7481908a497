import fs from "node:fs";
import path from "node:path";

function decodeQuotedPrintable(text: string) {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export type OutboxMail = { file: string; raw: string; subject: string; link: string | null };

/** The newest `.eml` message in `dir` addressed to `to`, with its first link. */
export function latestMail(dir: string, to: string): OutboxMail | null {
  if (!fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .reverse();
  const toLine = new RegExp(`^To: ${to.replace(/[.+]/g, "\\$&")}\\r?$`, "mi");
  for (const name of files) {
    const raw = fs.readFileSync(path.join(dir, name), "utf8");
    if (!toLine.test(raw)) continue;
    const body = decodeQuotedPrintable(
      raw
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join("\n"),
    );
    return {
      file: name,
      raw,
      subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? "",
      link: /(https?:\/\/[^\s"<>]+)/.exec(body)?.[1] ?? null,
    };
  }
  return null;
}

/** The HTML part of a raw `.eml` message, decoded as its headers say (quoted-printable or base64). */
export function htmlPartOf(raw: string): string | null {
  for (const part of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const [head = "", ...rest] = part.split(/\r?\n\r?\n/);
    if (!/^Content-Type: text\/html/im.test(head)) continue;
    const body = rest.join("\n\n").replace(/\r?\n--[^\r\n]+--\s*$/, "");
    const encoding = /^Content-Transfer-Encoding: (\S+)/im.exec(head)?.[1]?.toLowerCase();
    if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    if (encoding !== "quoted-printable") return body;
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`)
      .replace(/%(?![0-9A-F]{2})/gi, "%25");
    return decodeURIComponent(bytes);
  }
  return null;
}
