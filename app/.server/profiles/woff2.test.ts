import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { expect, it } from "vitest";
import { decompressWoff2 } from "./woff2";

const require = createRequire(import.meta.url);

it("unpacks many font files asked for at once, each into its own bytes", async () => {
  const dir = path.dirname(require.resolve("@fontsource-variable/inter/files/inter-latin-wght-normal.woff2"));
  const names = (await fs.readdir(dir)).filter((name) => name.endsWith("-wght-normal.woff2"));
  const files = await Promise.all(names.map((name) => fs.readFile(path.join(dir, name))));
  expect(files.length).toBeGreaterThan(3);

  const together = await Promise.all(files.map((file) => decompressWoff2(file)));
  const oneByOne: Buffer[] = [];
  for (const file of files) oneByOne.push(await decompressWoff2(file));

  expect(new Set(together.map((font) => font.toString("base64"))).size).toBe(files.length);
  expect(together.map((font) => font.subarray(0, 4).toString("hex"))).toEqual(files.map(() => "00010000"));
  expect(together).toEqual(oneByOne);
});

it("says so when a file is not a WOFF2 font, and unpacks the next one", async () => {
  const font = require.resolve("@fontsource-variable/inter/files/inter-latin-wght-normal.woff2");
  await expect(decompressWoff2(Buffer.from("not a font"))).rejects.toThrow();
  expect((await decompressWoff2(await fs.readFile(font))).length).toBeGreaterThan(0);
});
