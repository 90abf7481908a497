// What a browser transfers to show a card: every response of a page load in
// Chromium (scripts/chromium.js), by kind, compressed sizes with
// headers; the photo and other images are listed apart. Used by `npm run
// bench:load`; alone: `npx tsx bench/card-weight.ts http://127.0.0.1:PORT/profile/USERNAME`.
import { chromium } from "playwright-core";
import { CHROMIUM } from "../scripts/chromium.js";

export type Weight = { kind: string; files: number; bytes: number };

export async function measureCardWeight(url: string): Promise<Weight[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const finished: Promise<Weight>[] = [];
    page.on("requestfinished", (request) => {
      finished.push(
        request.sizes().then((sizes) => ({
          kind: kindOf(request.resourceType(), request.url()),
          files: 1,
          bytes: sizes.responseBodySize + sizes.responseHeadersSize,
        })),
      );
    });
    await page.goto(url, { waitUntil: "networkidle" });
    const byKind = new Map<string, Weight>();
    for (const weight of await Promise.all(finished)) {
      const total = byKind.get(weight.kind) ?? { kind: weight.kind, files: 0, bytes: 0 };
      total.files++;
      total.bytes += weight.bytes;
      byKind.set(weight.kind, total);
    }
    return [...byKind.values()].sort((a, b) => b.bytes - a.bytes);
  } finally {
    await browser.close();
  }
}

function kindOf(type: string, url: string) {
  if (type === "document") return "HTML";
  if (type === "stylesheet") return "CSS";
  if (type === "script") return "JavaScript";
  if (type === "font") return "fonts";
  if (type === "image") return "images (photo, logo, cover)";
  if (type === "fetch" || type === "xhr") return `data (${new URL(url).pathname})`;
  return type;
}

export function printWeights(weights: Weight[]) {
  const counted = weights.filter((weight) => !weight.kind.startsWith("images"));
  const total = counted.reduce((sum, weight) => sum + weight.bytes, 0);
  for (const weight of weights) {
    console.info(
      `  ${weight.kind.padEnd(30)} ${String(weight.files).padStart(3)} files  ${(weight.bytes / 1024).toFixed(1).padStart(7)} KB`,
    );
  }
  console.info(
    `  ${"total without images".padEnd(30)}            ${(total / 1024).toFixed(1).padStart(7)} KB (target 100 KB)`,
  );
}

if (process.argv[1]?.endsWith("card-weight.ts") && process.argv[2]) {
  printWeights(await measureCardWeight(process.argv[2]));
}
