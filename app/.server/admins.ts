import { env } from "./env";

/** Administrators come from configuration (DESIGN.md), compared case-insensitively. */
export function isAdminEmail(email: string | null | undefined): boolean {
  return !!email && env.ADMIN_EMAILS.includes(email.trim().toLowerCase());
}
