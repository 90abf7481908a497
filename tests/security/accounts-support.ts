import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { getOptionalViewer, requireAdministration } from "~/.server/http/authz";
import { mailSettled, OUTBOX_DIR } from "~/.server/platform/mail";
import { action as authAction } from "~/routes/auth/auth";
import { cookieFrom, formRequest, getRequest, latestMail, nextIp, openAuthLink, run } from "../server/helpers";

/** One browser: its own cookie jar and client address. */
export type Browser = { cookie: string; ip: string };

export function newBrowser(): Browser {
  return { cookie: "", ip: nextIp() };
}

/** Submits the sign-up form in `browser`; the cookies it sets stay in the browser. */
export async function signUpIn(
  browser: Browser,
  fields: {
    email: string;
    password: string;
    firstName?: string;
    lastName?: string;
    phone?: string;
    redirectTo?: string;
  },
) {
  const result = await run(
    authAction,
    formRequest(
      "/auth",
      {
        intent: "signup",
        firstName: fields.firstName ?? "Some",
        lastName: fields.lastName ?? "One",
        email: fields.email,
        password: fields.password,
        phone: fields.phone ?? "",
        ...(fields.redirectTo !== undefined ? { redirectTo: fields.redirectTo } : {}),
      },
      { cookie: browser.cookie, ip: browser.ip },
    ),
  );
  browser.cookie = cookieFrom(result.headers, browser.cookie);
  await mailSettled();
  return result;
}

export async function signInWith(email: string, password: string, browser: Browser = newBrowser()) {
  const result = await run(
    authAction,
    formRequest("/auth", { intent: "signin", email, password }, { cookie: browser.cookie, ip: browser.ip }),
  );
  browser.cookie = cookieFrom(result.headers, browser.cookie);
  await mailSettled();
  return result;
}

/** The link in the newest mail to `email`. */
export function newestLink(email: string): string {
  const link = latestMail(email)?.link;
  expect(link, `a mail with a link to ${email}`).toBeTruthy();
  return link!;
}

/** Opens a link in `browser`, as a click in its mail client would. */
export async function openIn(browser: Browser, link: string) {
  const opened = await openAuthLink(link, browser.cookie);
  browser.cookie = opened.cookie;
  return opened;
}

export async function viewerOf(browser: Browser) {
  return getOptionalViewer(getRequest("/", browser.cookie));
}

/** Whether `browser` reaches the administrator's pages (a redirect to /auth otherwise). */
export async function reachesAdmin(browser: Browser): Promise<boolean> {
  try {
    await requireAdministration(getRequest("/admin/settings", browser.cookie));
    return true;
  } catch (thrown) {
    if (thrown instanceof Response) return false;
    throw thrown;
  }
}

/** The newest message to `to` whose subject starts with `subject`, with its first link. */
export function mailWithSubject(to: string, subject: string) {
  if (!fs.existsSync(OUTBOX_DIR)) return null;
  const toLine = new RegExp(`^To: ${to.replace(/[.+]/g, "\\$&")}\\r?$`, "mi");
  for (const name of fs.readdirSync(OUTBOX_DIR).sort().reverse()) {
    const raw = fs.readFileSync(path.join(OUTBOX_DIR, name), "utf8");
    if (!toLine.test(raw) || !new RegExp(`^Subject: ${subject}`, "m").test(raw)) continue;
    const body = raw
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return {
      raw,
      link:
        /(https?:\/\/[^\s"<>]+)/.exec(
          body
            .split(/\r?\n\r?\n/)
            .slice(1)
            .join("\n"),
        )?.[1] ?? null,
    };
  }
  return null;
}
