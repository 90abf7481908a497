/**
 * Typed `action:entity:access` permissions with a scope, mapped from roles in
 * code (house style). Access is `any` (everything), `brand` (the cards and
 * brands of the brands a person administers) or `own` (their own card).
 * The server enforces them through `decide`; the client uses the same check
 * only to decide what to show.
 */
export type Role = "admin" | "member";

export const ROLE_LABELS: Record<Role, string> = { admin: "Administrator", member: "Member" };

/** What someone may do something to: a card (its brand, its owner), a brand, or the whole site. */
type Entity =
  | "directory"
  | "claim-status"
  | "hidden-fields"
  | "profile"
  | "brand"
  | "analytics"
  | "audit"
  | "settings"
  | "role";

type Access = "any" | "brand" | "own";

export type Permission = `${string}:${Entity}:${Access}`;

/** A permission without its access: what `decide` is asked about. */
export type Action =
  | "read:directory"
  | "read:claim-status"
  | "read:hidden-fields"
  | "update:profile"
  | "delete:profile"
  | "deactivate:profile"
  | "create:profile"
  | "invite:profile"
  | "create:brand"
  | "manage:brand"
  | "read:analytics"
  | "read:audit"
  | "update:settings"
  | "update:role";

const MEMBER: readonly Permission[] = ["read:directory:any", "update:profile:own"];

/** What administering a brand adds: its cards, its look, its analytics and audit entries. */
const BRAND_ADMINISTRATOR: readonly Permission[] = [
  ...MEMBER,
  "read:claim-status:brand",
  "read:hidden-fields:brand",
  "update:profile:brand",
  "delete:profile:brand",
  "deactivate:profile:brand",
  "create:profile:brand",
  "invite:profile:brand",
  "manage:brand:brand",
  "read:analytics:brand",
  "read:audit:brand",
];

const ADMINISTRATOR: readonly Permission[] = [
  ...MEMBER,
  "read:claim-status:any",
  "read:hidden-fields:any",
  "update:profile:any",
  "delete:profile:any",
  "deactivate:profile:any",
  "create:profile:any",
  "invite:profile:any",
  "create:brand:any",
  "manage:brand:any",
  "read:analytics:any",
  "read:audit:any",
  "update:settings:any",
  "update:role:any",
];

/** Who is asking: their role, and the brands they administer (none for most people). */
export type Principal = { role: Role; brandIds?: readonly number[]; user?: { id: string } };

function permissionsOf(principal: Principal): readonly Permission[] {
  if (principal.role === "admin") return ADMINISTRATOR;
  return principal.brandIds?.length ? BRAND_ADMINISTRATOR : MEMBER;
}

/** Whether a person holds a permission as it is written, whatever the target (the SQL side of `decide`). */
export function holds(principal: Principal, permission: Permission): boolean {
  return permissionsOf(principal).includes(permission);
}

/** Whether a role holds a permission: used for what is site-wide (`:any`) and needs no target. */
export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role ? permissionsOf({ role }).includes(permission) : false;
}

/**
 * What an action is done to: a card (its brand and owner), a brand, or
 * nothing in particular (`undefined`: "anywhere at all", e.g. whether to show
 * a page that lists what the viewer may see).
 */
export type Target = { brandId: number | null; ownerId?: string | null } | undefined;

/**
 * The one decision: may this person do this to this target? Everything for
 * `any`; a card or brand of a brand they administer for `brand` (with no
 * target: whether they administer any); their own card for `own`.
 */
export function decide(principal: Principal | null | undefined, action: Action, target?: Target): boolean {
  if (!principal) return false;
  const held = permissionsOf(principal);
  if (held.includes(`${action}:any`)) return true;
  const brandIds = principal.brandIds ?? [];
  if (held.includes(`${action}:brand`)) {
    if (!target) return brandIds.length > 0;
    if (target.brandId !== null && brandIds.includes(target.brandId)) return true;
  }
  if (held.includes(`${action}:own`) && target?.ownerId && target.ownerId === principal.user?.id) return true;
  return false;
}

/**
 * The part of the site a person administers: everything, some brands, or
 * nothing (they have only their own card).
 */
export type AdministrationScope = { kind: "everything" } | { kind: "brands"; brandIds: readonly number[] } | null;

export function administrationScope(principal: Principal | null | undefined): AdministrationScope {
  if (!principal) return null;
  if (principal.role === "admin") return { kind: "everything" };
  return principal.brandIds?.length ? { kind: "brands", brandIds: principal.brandIds } : null;
}

/** Whether a person administers a card or brand of this brand: an administrator always, a brand administrator for theirs. */
export function administers(principal: Principal | null | undefined, brandId: number | null): boolean {
  const scope = administrationScope(principal);
  if (!scope) return false;
  return scope.kind === "everything" || (brandId !== null && scope.brandIds.includes(brandId));
}
