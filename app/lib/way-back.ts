/**
 * Where Back leads from a public card or QR page, chosen on the server: the
 * directory for members; for visitors the brand's or the company's website. None means no Back is shown
 * (a visitor is never sent to the sign-in page). In the browser, history
 * goes first whenever there is some.
 */
export type WayBack = { kind: "directory"; href: "/directory" } | { kind: "website"; href: string; name: string };
