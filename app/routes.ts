import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // Visitors
  route("auth", "routes/auth/auth.tsx"),
  route("auth/forgot-password", "routes/auth/forgot-password.tsx"),
  route("auth/reset-password", "routes/auth/reset-password.tsx"),
  route("auth/confirm", "routes/auth/confirm.tsx"),
  route("auth/verified", "routes/auth/verified.tsx"),
  route("auth/sign-out", "routes/auth/sign-out.tsx"),
  route("auth/invitation", "routes/auth/invitation.tsx"),
  route("auth/confirm-admin", "routes/auth/confirm-admin.tsx"),
  // A second factor: the code after a password, and setting one up when the company asks for it.
  route("auth/two-factor", "routes/auth/two-factor.tsx"),
  route("auth/two-factor-setup", "routes/auth/two-factor-setup.tsx"),
  route("invitations/stop", "routes/invitations/stop.tsx"),
  route("api/auth/*", "routes/api/auth.$.ts"),
  // SAML single sign-on: Namecard's metadata, and where providers post their responses.
  route("sso/saml/metadata", "routes/sso/saml-metadata.ts"),
  route("sso/saml/acs", "routes/sso/saml-acs.ts"),

  // Public cards
  route("profile/:username", "routes/profile/$username.tsx"),
  route("profile/:username/contact.vcf", "routes/profile/contact.vcf.ts"),
  route("profile/:username/qr.png", "routes/profile/qr.png.ts"),
  route("profile/:username/og.png", "routes/profile/og.png.ts"),
  // The owner's card on their phone's home screen: its manifest and icons.
  route("profile/:username/manifest.webmanifest", "routes/profile/manifest.webmanifest.ts"),
  route("profile/:username/icon-180.png", "routes/profile/icon.png.ts", { id: "card-icon-180" }),
  route("profile/:username/icon-192.png", "routes/profile/icon.png.ts", { id: "card-icon-192" }),
  route("profile/:username/icon-512.png", "routes/profile/icon.png.ts", { id: "card-icon-512" }),
  // The lead form: a visitor shares their details with the card's owner (docs/decisions/034-leads.md).
  route("profile/:username/share-back", "routes/profile/lead-form.tsx"),
  route("uploads/*", "routes/uploads.$.ts"),
  // A brand's logo as PNG, for e-mail signatures.
  route("brands/:id/logo.png", "routes/brands/logo.png.ts"),
  route("favicon.ico", "routes/favicon.ico.ts"),
  // The service worker that caches a member's own card for use without a network.
  route("sw.js", "routes/sw.js.ts"),
  route("events", "routes/events.ts"),
  route("terms", "routes/legal/document.tsx", { id: "terms" }),
  route("privacy", "routes/legal/document.tsx", { id: "privacy" }),
  route("qr/:username", "routes/qr/$username.tsx"),
  route("theme", "routes/theme.ts"),

  // Signed in
  layout("routes/app/layout.tsx", [
    index("routes/app/home.tsx"),
    route("directory", "routes/app/directory.tsx"),
    route("profile/edit", "routes/app/profile-edit.tsx"),
    route("help", "routes/app/help.tsx"),
    route("account/card-email", "routes/app/card-email.tsx"),
    // Sign-in and security: the authenticator app, recovery codes and passkeys.
    route("account/security", "routes/app/security.tsx"),
    route("account/security/passkeys", "routes/app/security-passkeys.ts"),
    // Every way to hand out one's card.
    route("share", "routes/app/share.tsx"),
    route("share/signature.html", "routes/app/share-signature.ts"),
    route("share/background-1920.png", "routes/app/share-background.ts", { id: "share-background-1920" }),
    route("share/background-1280.png", "routes/app/share-background.ts", { id: "share-background-1280" }),
    route("share/google-wallet", "routes/app/share-google-wallet.ts"),
    route("share/apple-wallet.pkpass", "routes/app/share-apple-wallet.ts"),
    // What visitors shared back from the member's card.
    route("leads", "routes/app/leads.tsx"),
    route("leads/export.csv", "routes/app/leads-export.ts", { id: "leads-export-csv" }),
    route("leads/export.vcf", "routes/app/leads-export.ts", { id: "leads-export-vcf" }),
    layout("routes/admin/layout.tsx", [
      route("admin/dashboard", "routes/admin/dashboard.tsx"),
      route("admin/profiles", "routes/admin/profiles.tsx"),
      route("admin/profiles/create", "routes/admin/profiles-create.tsx"),
      route("admin/invitation-preview.html", "routes/admin/invitation-preview.html.ts"),
      route("admin/brands", "routes/admin/brands.tsx"),
      route("admin/analytics", "routes/admin/analytics.tsx"),
      // Settings: one page per tab, each saving its own fields.
      route("admin/settings", "routes/admin/settings/layout.tsx", [
        index("routes/admin/settings/index.tsx"),
        route("general", "routes/admin/settings/general.tsx"),
        route("branding", "routes/admin/settings/branding.tsx"),
        route("legal", "routes/admin/settings/legal.tsx"),
        route("invitations", "routes/admin/settings/invitations.tsx"),
        route("joining", "routes/admin/settings/joining.tsx"),
        route("fields", "routes/admin/settings/fields.tsx"),
        route("security", "routes/admin/settings/security.tsx"),
      ]),
      route("admin/settings/single-sign-on", "routes/admin/single-sign-on.tsx"),
      route("admin/settings/provisioning", "routes/admin/provisioning.tsx"),
      route("admin/settings/wallet", "routes/admin/wallet.tsx"),
      route("admin/export/dashboard.csv", "routes/admin/export/dashboard.csv.ts"),
      route("admin/export/analytics.csv", "routes/admin/export/analytics.csv.ts"),
      // Audit log
      route("admin/audit", "routes/admin/audit.tsx"),
      route("admin/export/audit.csv", "routes/admin/export/audit.csv.ts"),
      // Bulk import (docs/decisions/020-bulk-import.md)
      route("admin/import", "routes/admin/import.tsx"),
      route("admin/import/template.csv", "routes/admin/import-template.csv.ts"),
      route("admin/import/:id", "routes/admin/import-detail.tsx"),
      route("admin/import/:id/report.csv", "routes/admin/import-report.csv.ts"),
    ]),
  ]),

  // Any other address: a 404 page in the product's frame.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
