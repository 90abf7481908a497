import type { Role } from "~/lib/permissions";
import { env } from "./env";

/** The addresses in ADMIN_EMAILS, compared case-insensitively: administrators whatever their role says (the way in when all else fails). */
export function isAdminEmail(email: string | null | undefined): boolean {
  return !!email && env.ADMIN_EMAILS.includes(email.trim().toLowerCase());
}

/** An account's role: the one administrators gave it, or administrator for an address in ADMIN_EMAILS. */
export function roleOf(user: { email: string; role?: string | null }): Role {
  return user.role === "admin" || isAdminEmail(user.email) ? "admin" : "member";
}
