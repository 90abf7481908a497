import {
  BarChart3,
  CircleHelp,
  Contact,
  FileUp,
  House,
  Inbox,
  LayoutDashboard,
  LogOut,
  Palette,
  ScrollText,
  Send,
  Settings,
  ShieldCheck,
  UserRound,
  Users,
} from "lucide-react";
import { DropdownMenu } from "radix-ui";
import type { ReactNode } from "react";
import { Form, Link, NavLink, useNavigation } from "react-router";
import { Logo, SiteFooter } from "~/components/auth-shell";
import { Avatar } from "~/components/avatar";
import { ThemeSwitch } from "~/components/theme-switch";
import { cn } from "~/lib/cn";
import { fullName } from "~/lib/names";
import { useSite } from "~/lib/site";

export type ShellViewer = {
  isAdmin: boolean;
  /** Runs one brand or more (not the whole site): their brands' pages join a member's navigation. */
  brandAdministrator: boolean;
  email: string;
  profile: {
    firstName: string;
    lastName: string;
    username: string;
    photoUrl: string | null;
  } | null;
};

type NavItem = { to: string; label: string; Icon: typeof Users; end?: boolean };

const HELP: NavItem = { to: "/help", label: "Help", Icon: CircleHelp };
/** The account's password, authenticator app and passkeys: for everyone. */
const SECURITY: NavItem = { to: "/account/security", label: "Security", Icon: ShieldCheck };
/** What visitors shared back from one's card: for everyone who has a card. */
const LEADS: NavItem = { to: "/leads", label: "Leads", Icon: Inbox };

/** The navigation items each role sees. */
function navigationFor(
  isAdmin: boolean,
  brandAdministrator: boolean,
  hasCard: boolean,
): { sidebar: NavItem[]; bottom: NavItem[] } {
  const leads = hasCard ? [LEADS] : [];
  if (isAdmin) {
    const dashboard = { to: "/", label: "Dashboard", Icon: LayoutDashboard, end: true };
    const directory = { to: "/directory", label: "Directory", Icon: Users };
    const brands = { to: "/admin/brands", label: "Brands", Icon: Palette };
    const analytics = { to: "/admin/analytics", label: "Analytics", Icon: BarChart3 };
    const settings = { to: "/admin/settings", label: "Settings", Icon: Settings };
    const audit = { to: "/admin/audit", label: "Audit Log", Icon: ScrollText };
    const importCsv = { to: "/admin/import", label: "Import", Icon: FileUp };
    return {
      sidebar: [dashboard, directory, brands, analytics, importCsv, settings, audit, ...leads, SECURITY, HELP],
      bottom: [dashboard, directory, brands, analytics],
    };
  }
  // A member's phone bar holds what they came to do: their card and its QR code (Home),
  // a colleague, handing the card out, and who shared back.
  const home = { to: "/", label: "Home", Icon: House, end: true };
  const directory = { to: "/directory", label: "Directory", Icon: Users };
  const share = { to: "/share", label: "Share", Icon: Send };
  const editProfile = { to: "/profile/edit", label: "Edit Profile", Icon: UserRound };
  if (brandAdministrator) {
    // Their brands' people, look, figures and record, beside their own card.
    const people = { to: "/admin/profiles", label: "People", Icon: LayoutDashboard };
    const brands = { to: "/admin/brands", label: "Brands", Icon: Palette };
    const analytics = { to: "/admin/analytics", label: "Analytics", Icon: BarChart3 };
    const audit = { to: "/admin/audit", label: "Audit Log", Icon: ScrollText };
    const importCsv = { to: "/admin/import", label: "Import", Icon: FileUp };
    return {
      sidebar: [
        home,
        directory,
        editProfile,
        ...(hasCard ? [share] : []),
        people,
        brands,
        analytics,
        importCsv,
        audit,
        ...leads,
        SECURITY,
        HELP,
      ],
      bottom: [home, directory, people, ...(hasCard ? [share] : [analytics])],
    };
  }
  return {
    sidebar: [home, directory, editProfile, ...(hasCard ? [share] : []), ...leads, SECURITY, HELP],
    bottom: hasCard ? [home, directory, share, LEADS] : [home, directory, { ...editProfile, label: "Profile" }],
  };
}

function SignOutButton({ className }: { className?: string }) {
  const navigation = useNavigation();
  const signingOut = navigation.formAction === "/auth/sign-out";
  return (
    <Form method="post" action="/auth/sign-out">
      <button
        type="submit"
        disabled={signingOut}
        className={cn(
          "flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:opacity-60 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
          className,
        )}
      >
        <LogOut aria-hidden className="size-5" />
        {signingOut ? "Signing out..." : "Sign Out"}
      </button>
    </Form>
  );
}

function Identity({ viewer }: { viewer: ShellViewer }) {
  const person = viewer.profile ?? { firstName: "Admin", lastName: "", username: "", photoUrl: null };
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar person={person} photoUrl={person.photoUrl} size="sm" />
      <div className="min-w-0 text-sm">
        <p className="truncate font-semibold text-slate-900 dark:text-white">
          {viewer.profile ? fullName(viewer.profile) : viewer.email}
          {viewer.isAdmin ? <span className="font-normal text-slate-500 dark:text-slate-400"> (Admin)</span> : null}
        </p>
        {viewer.profile ? (
          <p className="truncate text-slate-500 dark:text-slate-400">@{viewer.profile.username}</p>
        ) : null}
      </div>
    </div>
  );
}

export function AppShell({ viewer, children }: { viewer: ShellViewer; children: ReactNode }) {
  const site = useSite();
  const nav = navigationFor(viewer.isAdmin, viewer.brandAdministrator, viewer.profile !== null);
  return (
    <div className="min-h-dvh lg:pl-64">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:top-3 focus:left-3 dark:bg-slate-900"
      >
        Skip to content
      </a>

      {/* Sidebar: 64 units wide on large screens. */}
      <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col border-r border-slate-200 bg-white lg:flex dark:border-slate-800 dark:bg-slate-900">
        <Link to="/" className="flex h-16 items-center gap-2.5 px-6 text-base font-semibold">
          <Logo className="h-8" />
          <span className="truncate">{site.companyName}</span>
        </Link>
        <div className="border-y border-slate-200 px-4 py-4 dark:border-slate-800">
          <Identity viewer={viewer} />
        </div>
        <nav aria-label="Main" className="flex-1 space-y-1 overflow-y-auto p-3">
          {nav.sidebar.map(({ to, label, Icon, end }) => (
            <NavLink
              key={to}
              to={to}
              end={end}
              className={({ isActive }) =>
                cn(
                  "flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition",
                  isActive
                    ? "bg-brand/10 text-brand-ink dark:bg-brand/20 dark:text-white"
                    : "text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
                )
              }
            >
              <Icon aria-hidden className="size-5" />
              {label}
            </NavLink>
          ))}
        </nav>
        <div className="border-t border-slate-200 p-3 dark:border-slate-800">
          <SignOutButton />
        </div>
      </aside>

      <header className="sticky top-0 z-30 flex h-16 items-center justify-between gap-3 border-b border-slate-200 bg-white/85 px-4 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-950/85">
        <Link to="/" className="flex items-center gap-2 font-semibold lg:hidden">
          <Logo className="h-8" />
          <span className="truncate">{site.companyName}</span>
        </Link>
        <div className="hidden lg:block" />
        <div className="flex items-center gap-1">
          <ThemeSwitch />
          <MobileAccountMenu
            viewer={viewer}
            items={nav.sidebar.filter((item) => !nav.bottom.some((bottom) => bottom.to === item.to))}
          />
        </div>
      </header>

      <main id="main" className="mx-auto w-full max-w-7xl px-4 pt-6 pb-28 sm:px-6 lg:px-8 lg:pb-12">
        {children}
        <SiteFooter className="mt-16" />
      </main>

      {/* Mobile bottom bar: at most 4 items, so each stays a comfortable tap target. */}
      <nav
        aria-label="Main"
        className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:hidden dark:border-slate-800 dark:bg-slate-900/95"
      >
        <ul className="mx-auto flex max-w-md">
          {nav.bottom.slice(0, 4).map(({ to, label, Icon, end }) => (
            <li key={to} className="flex-1">
              <NavLink
                to={to}
                end={end}
                className={({ isActive }) =>
                  cn(
                    "flex flex-col items-center gap-1 py-2.5 text-xs font-medium",
                    isActive ? "text-brand-ink" : "text-slate-500 dark:text-slate-400",
                  )
                }
              >
                <Icon aria-hidden className="size-5" />
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/**
 * On small screens the account lives behind the avatar: the card, every
 * screen of the sidebar the bottom bar has no room for (Settings, Help), sign out.
 */
function MobileAccountMenu({ viewer, items }: { viewer: ShellViewer; items: NavItem[] }) {
  const person = viewer.profile ?? { firstName: "Admin", lastName: "", username: "", photoUrl: null };
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="rounded-full lg:hidden" aria-label="Account menu">
        <Avatar person={person} photoUrl={person.photoUrl} size="sm" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-64 rounded-xl border border-slate-200 bg-white p-2 text-sm shadow-xl dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="px-2 py-2">
            <Identity viewer={viewer} />
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-800" />
          {viewer.profile ? (
            <DropdownMenu.Item asChild>
              <Link
                to={`/profile/${viewer.profile.username}`}
                className="flex items-center gap-3 rounded-lg px-3 py-2 outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800"
              >
                <Contact aria-hidden className="size-5" /> View My Card
              </Link>
            </DropdownMenu.Item>
          ) : null}
          {items.map(({ to, label, Icon }) => (
            <DropdownMenu.Item key={to} asChild>
              <Link
                to={to}
                className="flex items-center gap-3 rounded-lg px-3 py-2 outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800"
              >
                <Icon aria-hidden className="size-5" /> {label}
              </Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-800" />
          <SignOutButton />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
