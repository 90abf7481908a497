import { samlMetadata } from "~/.server/sso/saml";

/** Namecard's SAML service-provider metadata: its entity ID is this address. */
export function loader() {
  return new Response(samlMetadata(), {
    headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
