// A small HTTP load balancer for the tests that run several instances: each
// request goes to the next instance in turn, and to the one after it when an
// instance does not take the connection (it was killed), as nginx does with
// `proxy_next_upstream error`. It adds the client's address to
// X-Forwarded-For, as nginx's `$proxy_add_x_forwarded_for` does.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type RoundRobinProxy = {
  url: string;
  /** How many requests each upstream port answered. */
  answered: Map<number, number>;
  close(): Promise<void>;
};

export async function startRoundRobinProxy(upstreams: number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const answered = new Map<number, number>();

  const forward = (
    request: http.IncomingMessage,
    response: http.ServerResponse,
    body: Buffer,
    index: number,
    tries: number,
  ) => {
    const port = upstreams[index % upstreams.length]!;
    const forwardedFor = [request.headers["x-forwarded-for"], request.socket.remoteAddress].filter(Boolean).join(", ");
    const outgoing = http.request(
      {
        host: "127.0.0.1",
        port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, "x-forwarded-for": forwardedFor },
        // A new connection each time, so a killed instance is seen as refusing, not as a reset mid-request.
        agent: false,
      },
      (upstream) => {
        answered.set(port, (answered.get(port) ?? 0) + 1);
        response.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(response);
      },
    );
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      // Only a refused connection is tried elsewhere: a request an instance took may have changed something.
      if (error.code === "ECONNREFUSED" && tries < upstreams.length)
        forward(request, response, body, index + 1, tries + 1);
      else if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    outgoing.end(body);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => forward(request, response, Buffer.concat(chunks), next++, 1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
