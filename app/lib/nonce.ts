import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of this response, for the inline scripts
 * the page itself writes (the theme boot script, React Router's scripts). The
 * server provides it; in the browser it is empty, as browsers hide a nonce
 * once the page is parsed.
 */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
