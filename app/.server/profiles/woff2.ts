/**
 * WOFF2 font files unpacked to the font files they hold. The decompressor
 * answers with a view of one buffer it reuses for every answer, so two
 * unpackings that overlap would both read the later one's bytes: they take
 * turns, and each answer is copied before the next one starts.
 */

/** The decompressor, loaded with the first font that needs it rather than at every start. */
let decompressor: Promise<typeof import("wawoff2")> | undefined;

/** The last unpacking; the next one waits for it. */
let previous: Promise<unknown> = Promise.resolve();

export function decompressWoff2(compressed: Uint8Array): Promise<Buffer> {
  const turn = previous.then(async () => {
    decompressor ??= import("wawoff2").then((module) => module.default);
    return Buffer.from(await (await decompressor).decompress(compressed));
  });
  previous = turn.catch(() => undefined);
  return turn;
}
