/**
 * Typed `action:entity:access` permissions, mapped from roles in code (house
 * style). The server enforces them; the client uses the same check only to
 * decide what to show.
 */
export type Role = "admin" | "member";

export const ROLE_LABELS: Record<Role, string> = { admin: "Administrator", member: "Member" };

export type Permission =
  | "read:directory:any"
  | "read:claim-status:any"
  | "read:hidden-fields:any"
  | "update:profile:own"
  | "update:profile:any"
  | "delete:profile:any"
  | "deactivate:profile:any"
  | "create:profile:any"
  | "invite:profile:any"
  | "manage:brand:any"
  | "read:analytics:any"
  | "update:settings:any"
  | "update:role:any";

const MEMBER: readonly Permission[] = ["read:directory:any", "update:profile:own"];

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  member: MEMBER,
  admin: [
    ...MEMBER,
    "read:claim-status:any",
    "read:hidden-fields:any",
    "update:profile:any",
    "delete:profile:any",
    "deactivate:profile:any",
    "create:profile:any",
    "invite:profile:any",
    "manage:brand:any",
    "read:analytics:any",
    "update:settings:any",
    "update:role:any",
  ],
};

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role ? ROLE_PERMISSIONS[role].includes(permission) : false;
}
