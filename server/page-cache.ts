import { gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import type { NextFunction, Request, Response } from "express";
import type { RouterContextProvider } from "react-router";
import { countSave } from "~/.server/analytics/card-saves";
import { countView, onViewsWritten, uncommittedViews, viewSourceOf } from "~/.server/analytics/views";
import { CLIENT_IP_HEADER } from "~/.server/http/auth";
import { type CachedRender, cachedRenderContext, newPlaceholder } from "~/.server/http/cached-render";
import { newNonce } from "~/.server/http/csp";
import { db } from "~/.server/platform/db/client";
import { profiles } from "~/.server/platform/db/schema";
import { translate } from "~/.server/platform/i18n";
import { currentListeningPeriod, onPublished, type RealtimeEvent, subscribe } from "~/.server/platform/realtime";
import { DEFAULT_LOCALE, isLocale, type Locale } from "~/lib/i18n/locales";
import { localeFromHeader } from "~/lib/i18n/negotiate";
import { THEME_COOKIE, themeFromCookie } from "~/lib/theme";
import { viewsWordMarkup } from "~/lib/views";
import { type CachedPage, routeOf } from "./routes";

/**
 * The anonymous card page, QR page and contact file, rendered once and reused
 * for every anonymous visitor until something they show changes
 * (docs/decisions/018-reused-cards-and-batched-views.md).
 *
 * - Which responses are cached, and as what, each route says in its `handle`
 *   (`cachedPage`, read through server/routes.ts).
 * - Only requests without any cookie but the theme's, and without a query but
 *   the view's source, are served from here: nothing per viewer is in the
 *   page. The key is the path, the source, the theme and the language the
 *   browser asks for (a link naming one, `?lang=`, is not served from here).
 * - An event about the card drops its pages; one about a brand or the site
 *   settings drops all. This instance's own edits drop them before the
 *   editor's response; other instances' arrive through PostgreSQL. A render
 *   that overlapped any of these is used once and not cached, and nothing is
 *   cached while events could be missed (not listening, or since the last
 *   reconnection). A page is also dropped after PAGE_TTL_MS, for changes made
 *   to the database by hand.
 * - What changes with every visitor is filled in per response: the view count
 *   (the page is rendered with a placeholder count, replaced by the stored
 *   count plus the views counted here and not yet written) and the script
 *   nonce of the page's policy (a new one for each response, in the header and
 *   the page alike). Each response is compressed whole, never as parts
 *   compressed apart with the filled-in text between: each part would lose
 *   what the others teach the compressor (decision 035 has what that cost).
 */
const PAGE_TTL_MS = 5 * 60_000;
/**
 * Compressing each response is the largest part of a cached card's work, on the main
 * thread: a level below zlib's default 6 trades a few more bytes for much less time
 * (nginx's default is 1). docs/decisions/035-both-cores-and-many-instances.md has the
 * measurements (bench/README.md, "Less of the one thread per page").
 */
const GZIP_LEVEL = 3;
/** Pages cached at most, in bytes (their text); the least recently used go first. */
const MAX_BYTES = 24 * 1024 * 1024;
const MAX_COUNTS = 50_000;

type Entry = {
  key: string;
  kind: CachedPage;
  /** The page's language: its count and the word after it are written in it. */
  locale: Locale;
  profileId: string;
  headers: [string, string][];
  /** The body cut at each placeholder count (and its word) and nonce. */
  parts: string[];
  /** What each cut was: the placeholder as digits, with thousands separators, the word after it, or the nonce. */
  cuts: Cut[];
  /** The nonce the page was rendered with, replaced in each response's headers and body. */
  nonce: string | null;
  /** The body of an image (the QR code's and the preview's PNG), sent as it is. */
  image?: Buffer;
  expires: number;
  period: number;
  size: number;
};

const entries = new Map<string, Entry>();
let bytes = 0;
/** Moves on every change that drops pages: a render that saw it move is not cached. */
let generation = 0;

/** Stored view counts of cards, read when first needed and again after views of them are written. */
const counts = new Map<string, number>();
let countChanges = 0;

function drop(entry: Entry) {
  if (entries.get(entry.key) !== entry) return;
  entries.delete(entry.key);
  bytes -= entry.size;
}

function dropWhere(test: (entry: Entry) => boolean) {
  generation++;
  for (const entry of [...entries.values()]) if (test(entry)) drop(entry);
}

function forgetCount(profileId: string) {
  countChanges++;
  counts.delete(profileId);
}

function onEvent(event: RealtimeEvent) {
  switch (event.kind) {
    case "profile":
      forgetCount(event.id);
      dropWhere((entry) => entry.profileId === event.id);
      break;
    case "brand":
    case "settings":
      dropWhere(() => true);
      break;
    case "view":
      forgetCount(event.id);
      break;
  }
}

/** Starts following the events that drop pages; returns how to stop. */
export function startPageCache(): () => void {
  const stops = [
    subscribe(onEvent),
    onPublished(onEvent),
    onViewsWritten((profileIds) => {
      for (const id of profileIds) forgetCount(id);
    }),
  ];
  return () => {
    for (const stop of stops) stop();
    dropWhere(() => true);
    counts.clear();
  };
}

/** The card's count as a page shows it: stored, plus counted here and not yet written. */
async function viewCount(profileId: string): Promise<number> {
  let stored = counts.get(profileId);
  for (let attempt = 0; stored === undefined && attempt < 3; attempt++) {
    const before = countChanges;
    const [row] = await db
      .select({ viewCount: profiles.viewCount })
      .from(profiles)
      .where(eq(profiles.id, profileId))
      .limit(1);
    const read = row?.viewCount ?? 0;
    // A batch written while reading may or may not be in what was read: read again.
    if (before !== countChanges && attempt < 2) continue;
    stored = read;
    if (before === countChanges) {
      if (counts.size >= MAX_COUNTS) counts.clear();
      counts.set(profileId, read);
    }
  }
  return stored ?? 0;
}

/** Only the theme cookie may come with a reused page; any other cookie may change it. */
function themeOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return themeFromCookie("");
  let themes = 0;
  for (const pair of cookieHeader.split(";")) {
    const trimmed = pair.trim();
    if (!trimmed) continue;
    const equals = trimmed.indexOf("=");
    const name = equals < 0 ? trimmed : trimmed.slice(0, equals);
    if (name !== THEME_COOKIE) return null;
    themes++;
  }
  // A doubled theme cookie (`theme=dark; theme=light`) is left to the route, and its page is not cached.
  if (themes > 1) return null;
  // Read by the one function the page reads it with: the key is the theme the page shows.
  return themeFromCookie(cookieHeader);
}

/** The query a reused page may carry: none, or the view's source alone (a preview image: its version). */
function sourceQuery(url: string, kind: CachedPage): string | null {
  const mark = url.indexOf("?");
  if (mark < 0) return "";
  const query = url.slice(mark + 1);
  const allowed = kind === "image" ? /^v=[\w-]{1,64}$/ : /^src=(?:qr|link|directory)$/;
  return allowed.test(query) ? query : null;
}

function acceptsGzip(req: Request) {
  return /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
}

/** A text as a regular expression matching exactly it. */
function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

type Cut = "plain" | "formatted" | "word" | "nonce";

/** The word after a count ("1 view", "2 views") as the page writes it, in its language. */
function wordMarkup(count: number, locale: Locale): string {
  return viewsWordMarkup(translate(locale, "card.views", { count }));
}

/** A response's body: the cached parts, and between them what this response fills in. */
function bodyOf(entry: Entry, count: number, nonce: string): string {
  const filled: Record<Cut, string> = {
    plain: String(count),
    formatted: count.toLocaleString(entry.locale),
    // "1 view", never "1 views": the word follows the count the visitor is shown.
    word: wordMarkup(count, entry.locale),
    nonce,
  };
  let text = entry.parts[0] ?? "";
  for (let index = 1; index < entry.parts.length; index++) {
    text += filled[entry.cuts[index - 1] ?? "plain"] + entry.parts[index];
  }
  return text;
}

function send(entry: Entry, count: number, req: Request, res: Response, cookies: string[] = []) {
  res.status(200);
  // A nonce known in advance would let injected markup run: each response gets its own.
  const nonce = entry.nonce ? newNonce() : "";
  for (const [name, value] of entry.headers) {
    res.setHeader(name, entry.nonce ? value.replaceAll(entry.nonce, nonce) : value);
  }
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (entry.image) {
    // Already compressed: a PNG is sent as it is.
    res.setHeader("Content-Length", entry.image.length);
    res.end(entry.image);
    return;
  }
  res.setHeader(
    "Vary",
    entry.kind === "card" || entry.kind === "qr" ? "Accept-Encoding, Accept-Language" : "Accept-Encoding",
  );
  const text = bodyOf(entry, count, nonce);
  const body = acceptsGzip(req) ? gzipSync(text, { level: GZIP_LEVEL }) : Buffer.from(text);
  if (acceptsGzip(req)) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

type Fill = { key: string; kind: CachedPage; generation: number; period: number; render: CachedRender };

/**
 * Before React Router: responds with a cached page (counting the view, for the
 * card), or marks the request so that its response is cached (`cacheResponse`).
 */
export function servePages(req: Request, res: Response, next: NextFunction) {
  serve(req, res, next, false);
}

/**
 * Pages being made to be cached, by key: a rush of visitors to a card that is not
 * cached yet (a QR code on a stand) waits for the first one's render instead of
 * each rendering it. A visitor waits once; if the page was not cached (a 404, a
 * 410, a change meanwhile), React Router responds to them as usual.
 */
const filling = new Map<string, Promise<void>>();

function serve(req: Request, res: Response, next: NextFunction, waited: boolean) {
  if (req.method !== "GET") return next();
  const kind = routeOf(res).cachedPage;
  // Only whole pages (and the files); the app's data requests (`.data`) go to React Router.
  if (!kind || req.path.endsWith(".data")) return next();
  const theme = themeOf(req.headers.cookie);
  const query = sourceQuery(req.originalUrl, kind);
  const period = currentListeningPeriod();
  if (theme === null || query === null || period === null) return next();
  // A browser that holds an image asks whether it changed: the route responds to that without drawing it.
  if (kind === "image" && req.headers["if-none-match"]) return next();
  // The card and its QR page speak the language the visitor's browser asks for when it is one of ours
  // (the route reads the same header the same way), else the card's brand's or the company's (one page
  // per card, whatever else the browser asks for); the contact file and the images are the same in every language.
  const asked = kind === "card" || kind === "qr" ? (localeFromHeader(req.headers["accept-language"]) ?? "") : "";
  const key = `${theme}\n${asked}\n${req.path}?${query}`;
  const entry = entries.get(key);
  if (entry && entry.expires > Date.now() && entry.period === period) {
    // Most recently used last.
    entries.delete(key);
    entries.set(key, entry);
    countOf(entry)
      .then(
        (count) => sendCached(entry, count, req, res),
        // The stored count cannot be read (the database is unavailable): React Router responds.
        () => next(),
      )
      .catch(next);
    return;
  }
  if (entry) drop(entry);
  const inFlight = filling.get(key);
  if (inFlight && !waited) {
    inFlight.then(() => serve(req, res, next, true)).catch(next);
    return;
  }
  if (!inFlight) {
    let release = () => {};
    const made = new Promise<void>((resolve) => {
      release = resolve;
    });
    filling.set(key, made);
    const done = () => {
      if (filling.get(key) === made) filling.delete(key);
      release();
    };
    // Released as soon as the page is cached, else when its response ends however it ends.
    res.locals.pageFilled = done;
    res.once("close", done);
  }
  const render: CachedRender = { profileId: null, placeholder: newPlaceholder() };
  (res.locals.routerContext as RouterContextProvider).set(cachedRenderContext, render);
  res.locals.pageFill = { key, kind, generation, period, render } satisfies Fill;
  next();
}

function countOf(entry: Entry): Promise<number> {
  return entry.kind === "vcard" || entry.kind === "image" ? Promise.resolve(0) : viewCount(entry.profileId);
}

/** A cached page's response: the visit is counted (on the card, and a saved contact file) and shown. */
function sendCached(entry: Entry, stored: number, req: Request, res: Response) {
  if (entry.kind === "card" || entry.kind === "vcard") {
    const purpose = String(req.headers["sec-purpose"] ?? req.headers.purpose ?? "");
    const ip = req.headers[CLIENT_IP_HEADER];
    const visit = {
      ip: typeof ip === "string" ? ip : null,
      userAgent: req.headers["user-agent"] ?? "",
      prefetch: purpose.includes("prefetch"),
    };
    const visitor = { profileId: entry.profileId, ownerUserId: null, viewerUserId: null };
    if (entry.kind === "vcard") countSave({ kind: "contact", visit, ...visitor });
    else countView({ visit, ...visitor, source: viewSourceOf(new URL(req.originalUrl, "http://localhost")) });
  }
  send(entry, shownCount(entry, stored), req, res);
}

/** The stored count plus the views counted here and not yet written (this visit's too). */
function shownCount(entry: Entry, stored: number) {
  return entry.kind === "vcard" || entry.kind === "image" ? 0 : stored + uncommittedViews(entry.profileId);
}

/**
 * After React Router, for a request `servePages` marked: the response is read
 * whole, its placeholder count replaced, and cached when it is a page for
 * anyone (200, no cookie set, nothing changed while it was made). Returns
 * false when the request was not marked.
 */
export async function cacheResponse(req: Request, res: Response, response: globalThis.Response): Promise<boolean> {
  const fill = res.locals.pageFill as Fill | undefined;
  if (!fill) return false;
  const image =
    fill.kind === "image" && response.status === 200 ? Buffer.from(await response.arrayBuffer()) : undefined;
  const text = image ? "" : await response.text();
  const { profileId, placeholder } = fill.render;
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? null;
  // The count and its word are filled in the language the page was made in, as it says.
  const said = /<html[^>]*\slang="([^"]+)"/.exec(text)?.[1];
  const locale = isLocale(said) ? said : DEFAULT_LOCALE;
  const marks = new Map<string, Cut>([
    [String(placeholder), "plain"],
    [placeholder.toLocaleString(locale), "formatted"],
    [wordMarkup(placeholder, locale), "word"],
    ...(nonce ? [[nonce, "nonce"] as const] : []),
  ]);
  const parts: string[] = [];
  const cuts: Cut[] = [];
  const cut = new RegExp([...marks.keys()].map(escapeForPattern).join("|"), "g");
  let last = 0;
  for (const found of text.matchAll(cut)) {
    parts.push(text.slice(last, found.index));
    cuts.push(marks.get(found[0]) ?? "plain");
    last = found.index + found[0].length;
  }
  parts.push(text.slice(last));
  const headers: [string, string][] = [];
  for (const [name, value] of response.headers) {
    if (!/^(content-length|content-encoding|transfer-encoding|set-cookie|vary)$/i.test(name))
      headers.push([name, value]);
  }
  const entry: Entry = {
    key: fill.key,
    kind: fill.kind,
    locale,
    profileId: profileId ?? "",
    headers,
    parts,
    cuts,
    nonce,
    image,
    expires: Date.now() + PAGE_TTL_MS,
    period: fill.period,
    size: image ? image.length : text.length * 2,
  };
  const reusable =
    response.status === 200 &&
    profileId !== null &&
    // A contact file with a photo is made per request: its photo is read from storage, which may change behind the app.
    !(fill.kind === "vcard" && /^PHOTO/m.test(text)) &&
    !response.headers.has("set-cookie") &&
    fill.generation === generation &&
    fill.period === currentListeningPeriod();
  if (!profileId || response.status !== 200) {
    // Not a card's page (not found, an error): sent as it is.
    res.statusMessage = response.statusText;
    res.status(response.status);
    for (const [name, value] of response.headers) {
      if (name !== "set-cookie") res.setHeader(name, value);
    }
    const cookies = response.headers.getSetCookie();
    if (cookies.length) res.setHeader("set-cookie", cookies);
    res.end(bodyOf(entry, 0, nonce ?? ""));
    return true;
  }
  if (reusable) {
    const existing = entries.get(entry.key);
    if (existing) drop(existing);
    entries.set(entry.key, entry);
    bytes += entry.size;
    for (const oldest of entries.values()) {
      if (bytes <= MAX_BYTES) break;
      drop(oldest);
    }
  }
  (res.locals.pageFilled as (() => void) | undefined)?.();
  send(entry, shownCount(entry, await countOf(entry)), req, res, response.headers.getSetCookie());
  return true;
}
