import { getOptionalViewer } from "~/.server/authz";
import { subscribe, trackStream } from "~/.server/realtime";
import type { Route } from "./+types/events";

const HEARTBEAT_MS = 25_000;
const RETRY_MS = 3_000;

/** Server-Sent Events for signed-in people: kinds and ids of what changed. */
export async function loader({ request }: Route.LoaderArgs) {
  if (!(await getOptionalViewer(request))) {
    return new Response("Sign in to receive updates.", { status: 401 });
  }
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      send(`retry: ${RETRY_MS}\n: connected\n\n`);
      const unsubscribe = subscribe((event) => send(`event: change\ndata: ${JSON.stringify(event)}\n\n`));
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
      const untrack = trackStream(() => cleanup());
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
        untrack();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      request.signal.addEventListener("abort", () => cleanup());
    },
    cancel() {
      cleanup();
    },
  });
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
