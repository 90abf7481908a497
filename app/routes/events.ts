import { sessionOwesSecondFactor } from "~/.server/accounts/second-factor";
import { getAuth } from "~/.server/http/auth";
import { MAX_STREAMS_PER_SESSION, registerStream } from "~/.server/http/event-streams";
import { BROWSER_EVENT_KINDS, subscribe, trackStream } from "~/.server/platform/realtime";
import type { Route } from "./+types/events";

const HEARTBEAT_MS = 25_000;
const RETRY_MS = 3_000;

/**
 * Server-Sent Events for signed-in people: kinds and ids of what changed. A
 * stream ends with its session (saying so last: `signed-out`), and a session
 * holds a few streams at most.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const found = await getAuth().api.getSession({ headers: request.headers });
  // A sign-in that still owes its second factor sees nothing yet (docs/decisions/043-a-second-factor.md).
  if (!found?.user.emailVerified || (await sessionOwesSecondFactor(found))) {
    return new Response("Sign in to receive updates.", { status: 401 });
  }
  const encoder = new TextEncoder();
  let close = (_signedOut = false) => {};
  let release = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const unsubscribe = subscribe((event) => {
        if (BROWSER_EVENT_KINDS.has(event.kind)) send(`event: change\ndata: ${JSON.stringify(event)}\n\n`);
      });
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
      // Shutdown ends every stream before the server closes.
      const untrack = trackStream(() => close());
      close = (signedOut = false) => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        untrack();
        release();
        try {
          // The browser stops asking: a stream asked for without a session is refused (401), an error it logs.
          if (signedOut) controller.enqueue(encoder.encode("event: signed-out\ndata: {}\n\n"));
          controller.close();
        } catch {
          // already closed
        }
      };
      request.signal.addEventListener("abort", () => close());
      send(`retry: ${RETRY_MS}\n: connected\n\n`);
    },
    cancel() {
      close();
    },
  });
  const registered = registerStream({ id: found.session.id, userId: found.user.id }, (signedOut) => close(signedOut));
  if (!registered) {
    await stream.cancel();
    return new Response(
      `Live updates are open in ${MAX_STREAMS_PER_SESSION} tabs already. Close one, or refresh this page later.`,
      { status: 429, headers: { "Content-Type": "text/plain; charset=utf-8" } },
    );
  }
  release = registered.release;
  if (request.signal.aborted) close();
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform keeps the compression middleware from buffering the stream.
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
