import os from "node:os";
import sharp from "sharp";

// libvips keeps up to 50 MB of recent work for reuse. Each image here is made once and then
// kept where it belongs (stored renditions, the QR and preview caches): that memory would
// only hold copies, and a server's memory after a rush of images would stay 50 MB higher.
sharp.cache(false);

/**
 * Drawing and encoding images (sharp) runs on Node's small shared thread
 * pool, which file access, DNS and password hashing also use. A burst of
 * image requests must not fill it, or the health check's file write and every
 * upload wait behind them: at most this many images are made at once, the rest
 * queue here (docs/decisions/013-performance.md).
 */
const MAX_AT_ONCE = Math.max(1, Math.min(2, os.availableParallelism() - 1));

let running = 0;
const waiting: (() => void)[] = [];

export async function imageWork<T>(make: () => Promise<T>): Promise<T> {
  if (running >= MAX_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await make();
  } finally {
    running--;
    waiting.shift()?.();
  }
}
