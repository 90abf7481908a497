/**
 * The service worker that caches a member's own card for when there is no
 * network (docs/decisions/033-card-everywhere.md). It is registered only by
 * the card's owner, with their username in its address, and caches exactly
 * their card page, their QR page and what those pages load; every other
 * request passes through untouched, so visitors' pages are never cached. The
 * network always responds first: the copy is used only when it does not.
 * Signing out clears it (Clear-Site-Data).
 */
const WORKER = `
const CACHE = "namecard-own-card-v1";
const card = new URL(self.location).searchParams.get("card") || "";
const OWN = ["/profile/" + encodeURIComponent(card), "/qr/" + encodeURIComponent(card)];

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

async function fromOwnPage(event) {
  const client = event.clientId ? await self.clients.get(event.clientId) : null;
  return !!client && OWN.includes(new URL(client.url).pathname);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !card) return;
  const url = new URL(request.url);
  // Live updates are a stream, never a copy.
  if (url.origin !== self.location.origin || url.pathname === "/events") return;
  const page = request.mode === "navigate" && OWN.includes(url.pathname);
  if (!page && request.mode === "navigate") return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const keep = page || (await fromOwnPage(event));
      try {
        const response = await fetch(request);
        if (keep && response.ok && response.type === "basic") await cache.put(request, response.clone());
        return response;
      } catch (error) {
        const kept = keep ? await cache.match(request, { ignoreSearch: page }) : undefined;
        if (kept) return kept;
        throw error;
      }
    })(),
  );
});
`;

export function loader() {
  return new Response(WORKER, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      // The worker fetches from this site only.
      "Content-Security-Policy": "default-src 'self'",
    },
  });
}
