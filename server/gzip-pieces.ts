import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * A gzip body made of pieces, most compressed once and kept, a few new for
 * each answer (a view count, a script nonce). Each kept piece is compressed
 * on its own and ends on a byte boundary with an empty block (a full flush, so
 * nothing refers back across pieces); the new ones go in as stored blocks.
 * The blocks of a deflate stream may follow one another like this: the stream
 * ends with one empty final block, and gzip's trailer holds the checksum and
 * length of the whole text.
 */
export type Piece = { plain: Buffer; deflated?: Buffer };

const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
const LAST_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const STORED_MAX = 0xffff;

/** A kept piece, compressed once: raw deflate ending with a full flush (not a final block). */
export function keptPiece(text: string): Piece {
  const plain = Buffer.from(text);
  return { plain, deflated: deflateRawSync(plain, { finishFlush: constants.Z_FULL_FLUSH }) };
}

/** Stored (uncompressed) blocks of at most 65,535 bytes each, none final. */
function storedBlocks(plain: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let start = 0; start < plain.length; start += STORED_MAX) {
    const chunk = plain.subarray(start, start + STORED_MAX);
    const head = Buffer.alloc(5);
    head[0] = 0x00;
    head.writeUInt16LE(chunk.length, 1);
    head.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(head, chunk);
  }
  return blocks;
}

/** The pieces as one gzip member. */
export function gzipPieces(pieces: Piece[]): Buffer {
  const out: Buffer[] = [HEADER];
  let checksum = 0;
  let length = 0;
  for (const piece of pieces) {
    if (piece.plain.length === 0) continue;
    checksum = crc32(piece.plain, checksum);
    length += piece.plain.length;
    if (piece.deflated) out.push(piece.deflated);
    else out.push(...storedBlocks(piece.plain));
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(checksum >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  out.push(LAST_BLOCK, trailer);
  return Buffer.concat(out);
}
