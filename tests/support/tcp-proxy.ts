// A TCP relay in front of PostgreSQL that a test can cut and restore (the
// database becomes unreachable for the app: connections reset, new ones
// refused), or that goes silent on chosen connections the way a NAT or
// firewall that forgot them does — without touching the PostgreSQL server
// others use.
import net from "node:net";

type Link = { client: net.Socket; upstream: net.Socket; sent: string; muted: boolean };

/** What the relay remembers of what a client sent: enough to recognise its first statements. */
const REMEMBERED_BYTES = 64 * 1024;

export async function startTcpProxy(target: { host: string; port: number }) {
  const links = new Set<Link>();
  let server: net.Server | undefined;
  let port = 0;
  let silent = false;

  const relay = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    const link: Link = { client, upstream, sent: "", muted: silent };
    links.add(link);
    client.on("data", (chunk: Buffer) => {
      if (link.sent.length < REMEMBERED_BYTES) link.sent += chunk.toString("latin1");
      if (!link.muted) upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!link.muted) client.write(chunk);
    });
    const end = () => {
      // A muted connection's end is not passed on either: the far side never hears of it.
      if (link.muted) return;
      client.destroy();
      upstream.destroy();
      links.delete(link);
    };
    for (const socket of [client, upstream]) {
      socket.on("close", end);
      socket.on("error", end);
    }
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = net.createServer(relay);
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        port = (next.address() as net.AddressInfo).port;
        server = next;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    /** Cuts every open connection and refuses new ones. */
    async cut() {
      const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      for (const link of links) {
        link.client.destroy();
        link.upstream.destroy();
      }
      links.clear();
      await closing;
      server = undefined;
    },
    /** Accepts connections again, on the same port. */
    restore: listen,
    /** Silences every open connection whose client sent `text`, both ways and for good; returns how many. */
    muteConnectionsThatSent(text: string): number {
      let muted = 0;
      for (const link of links) {
        if (!link.muted && link.sent.includes(text)) {
          link.muted = true;
          muted++;
        }
      }
      return muted;
    },
    /**
     * Goes silent without closing anything, as a network that drops every packet does: open
     * connections and new ones are held, and nothing passes either way until `speak`.
     */
    silence() {
      silent = true;
      for (const link of links) link.muted = true;
    },
    /** New connections pass again; those silenced stay silent for good, as after a real outage. */
    speak() {
      silent = false;
    },
    close() {
      return this.cut();
    },
  };
}
