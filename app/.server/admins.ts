import { env } from "./env";

/** Administrators come from configuration (ADMIN_EMAILS), compared case-insensitively. */
export function isAdminEmail(email: string | null | undefined): boolean {
  return !!email && env.ADMIN_EMAILS.includes(email.trim().toLowerCase());
}
