import type { Role } from "~/lib/permissions";

/**
 * Who does something, as domain functions see them: the account, its role and
 * the brands it administers.
 * It lives apart from the session module (authz.ts), which reaches better-auth,
 * card claims and deactivation: every domain module names this type, so its
 * home imports nothing of theirs, or the domain would import itself back
 * through the session.
 */
export type Actor = {
  user: { id: string; email: string; name: string };
  role: Role;
  /** The brands this account administers (accounts/brand-administration.ts); none when absent. */
  brandIds?: readonly number[];
};
