import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gzipPieces, keptPiece, type Piece } from "../../server/gzip-pieces";

const fresh = (text: string): Piece => ({ plain: Buffer.from(text) });

/** Decompressed by the gzip program, not by the zlib that made the pieces. */
function gunzipWithTool(body: Buffer): string {
  const result = spawnSync("gzip", ["-dc"], { input: body });
  expect(result.status, result.stderr.toString()).toBe(0);
  return result.stdout.toString();
}

describe("a gzip body made of kept and new pieces", () => {
  it("decompresses to the pieces' text, with new pieces between kept ones", () => {
    const page = `<html><body>${"Grüße aus Lisboa – ".repeat(400)}</body></html>`;
    const kept = [keptPiece(page.slice(0, 3000)), keptPiece(page.slice(3000)), keptPiece("")];
    const pieces = [kept[0]!, fresh("1,234"), kept[1]!, fresh(randomBytes(16).toString("base64")), kept[2]!];
    const body = gzipPieces(pieces);
    const text = Buffer.concat(pieces.map((piece) => piece.plain)).toString();
    expect(gunzipSync(body).toString()).toBe(text);
    expect(gunzipWithTool(body)).toBe(text);
    // The kept pieces are compressed: the body is far smaller than the text.
    expect(body.length).toBeLessThan(Buffer.byteLength(text) / 5);
  });

  it("carries new pieces longer than one stored block, and empty ones", () => {
    const long = "x".repeat(70_000) + "ÿ".repeat(40_000);
    const pieces = [fresh(""), keptPiece("start "), fresh(long), fresh(""), keptPiece(" end")];
    const body = gzipPieces(pieces);
    expect(gunzipWithTool(body)).toBe(`start ${long} end`);
  });

  it("is an empty text when every piece is empty", () => {
    expect(gunzipWithTool(gzipPieces([fresh(""), keptPiece("")]))).toBe("");
  });
});
